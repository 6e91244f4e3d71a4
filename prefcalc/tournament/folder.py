"""The tournament's folder on disk: ``tournament.json`` and the tables' ledgers.

* :func:`load` reads ``tournament.json`` strictly (one line naming the field when it is
  wrong) and checks it (:func:`prefcalc.tournament.model.check`).
* :func:`write` replaces it atomically (:func:`prefcalc.store.files.write_atomic`); every
  change of the tournament happens under its lock (:func:`locked`: ``tournament.json.lock``),
  so two terminals never interleave two draws.
* :func:`write_round` writes a drawn round **whole or not at all**: the tables' ledgers first,
  ``tournament.json`` last. A crash in between leaves ledgers that no round of
  ``tournament.json`` names (a round exists only once ``tournament.json`` records it); the
  next command that takes the lock removes them (:func:`tidy`) when they hold no deal, and
  a ledger of that name that holds deals is never removed: the draw is refused, naming it.
* :func:`table_game` reads a table's ledger through the API and checks that it is the table
  the draw made (the same players in the same seats, the same first dealer, the
  tournament's convention and target, nobody joined).

The crash tests kill the process at the points of :data:`FAULT_POINTS` (``PREFCALC_FAULT``,
as :mod:`prefcalc.store.files` does for a single write).
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import ValidationError

from prefcalc.errors import DealError, LedgerError, PrefcalcError, shown
from prefcalc.i18n import N_, _
from prefcalc.rules.conventions import Convention, to_jsonable
from prefcalc.rules.model import ConventionRef, Game, seating
from prefcalc.rules.options import first_error
from prefcalc.store import files
from prefcalc.store.lock import locked as _locked
from prefcalc.tournament import renaming
from prefcalc.tournament.model import (
    FILE_NAME,
    TABLE_FILE,
    CorrectionRecord,
    RoundRecord,
    TableRecord,
    TournamentFile,
    check,
)

MAX_TOURNAMENT = 16 * 1024 * 1024
"""The most ``tournament.json`` may hold (a thousand players over 99 rounds is ~10 MiB)."""

FAULT_POINTS = (
    "draw-after-first-table",  # the first table's ledger is written, the others not yet
    "draw-before-record",  # every table's ledger is written, tournament.json not yet
    "draw-after-record",  # tournament.json records the round
)

DIRECTOR_FAULTS = (
    "backup-written",  # tournament.json's previous version is kept, the new one not written
    "correct-after-journal",  # the ledger's bytes before the correction are kept aside
    "correct-after-ledger",  # the ledger is corrected, tournament.json not yet
    "correct-after-record",  # tournament.json records the correction, the journal is left
    "undraw-after-record",  # tournament.json no longer has the round, its files are left
    "rename-after-ledgers",  # every ledger names the new name, tournament.json not yet
)
"""The write points of the director's commands where ``PREFCALC_FAULT`` kills the process
(the crash tests: the folder is left as before the command or as after it)."""

BACKUP = FILE_NAME + ".bak"
"""The previous version of ``tournament.json``, kept at each write."""

JOURNAL = ".correcting"
"""``r1-t2.json.correcting``: a table's ledger as it was before a correction, kept until
``tournament.json`` records the correction (see :func:`tidy`)."""

SEALED = N_(
    'round {round} can no longer change: round {next} was drawn from its standings. A director corrects it on the record: prefcalc tournament correct {folder} --round {round} --table {table} "LINE" --reason "…"'
)
"""What a change of a sealed table's ledger is refused with (:mod:`prefcalc.store.seal`)."""


def path_of(folder: Path) -> Path:
    return folder / FILE_NAME


# --- reading ---------------------------------------------------------------------------------


def load(folder: Path) -> TournamentFile:
    """The tournament in ``folder``, read strictly and checked."""
    path = path_of(folder)
    where = str(path)
    try:
        raw = files.read_regular(path, N_("the tournament file"), MAX_TOURNAMENT, LedgerError)
    except FileNotFoundError:
        raise LedgerError(
            _(
                "not a tournament folder (no {file}: start one with 'prefcalc tournament new')"
            ).format(file=FILE_NAME),
            str(folder),
        ) from None
    except OSError as exc:
        raise LedgerError(
            _("cannot read the tournament file: {reason}").format(reason=exc.strerror or exc),
            where,
        ) from None
    return from_bytes(raw, where)


def from_bytes(raw: bytes, where: str = FILE_NAME) -> TournamentFile:
    """The tournament of a ``tournament.json``'s bytes, validated and checked."""
    if raw.startswith(files.BOM):
        raw = raw[len(files.BOM) :]
    try:
        model = TournamentFile.model_validate_json(raw)
    except ValidationError as exc:
        raise _refusal(exc, raw, where) from None
    check(model, where)
    try:
        convention(model)  # the options as read from the file: nothing coerced
    except PrefcalcError as exc:
        raise LedgerError(f"convention: {exc.message}", where) from None
    return model


def _refusal(exc: ValidationError, raw: bytes, where: str) -> LedgerError:
    err = exc.errors(include_url=False)[0]
    loc = tuple(err["loc"])
    if err["type"] == "json_invalid":
        files.decode_text(raw, N_("the tournament file"), Path(where), LedgerError)
        reason = files.parser_reason(str(err.get("ctx", {}).get("error", err["msg"])))
        return LedgerError(
            _("the tournament file is corrupt: {reason}").format(reason=reason), where
        )
    if loc == () and err["type"] in ("model_type", "model_attributes_type"):
        return LedgerError(_("not a prefcalc tournament (expected a JSON object)"), where)
    if loc == ("tournament",):
        found = err.get("input")
        if isinstance(found, int) and not isinstance(found, bool) and found > 1:
            return LedgerError(
                _(
                    "written by a newer prefcalc (tournament format {found}, this one reads 1)"
                ).format(found=found),
                where,
            )
        return LedgerError(_('not a prefcalc tournament (no "tournament": 1 in it)'), where)
    field, message = first_error(exc, frozenset())
    return LedgerError(f"{field}: {message}" if field else message, where)


# --- writing ---------------------------------------------------------------------------------


@contextmanager
def locked(folder: Path, exists: bool = True) -> Iterator[None]:
    """Hold the tournament's lock (``tournament.json.lock``) for the block; unless the
    tournament is being made (``exists=False``), a folder without one is refused first, so
    no lock file is left in a folder that is not a tournament."""
    if exists and not files.check_regular_if_exists(
        path_of(folder), N_("the tournament file"), LedgerError
    ):
        raise _not_a_tournament(folder)
    with _locked(path_of(folder)):
        yield


def _not_a_tournament(folder: Path) -> LedgerError:
    return LedgerError(
        _("not a tournament folder (no {file}: start one with 'prefcalc tournament new')").format(
            file=FILE_NAME
        ),
        str(folder),
    )


def to_text(t: TournamentFile) -> str:
    """The text of ``tournament.json``: the settings indented, then a player per line and,
    for every round, a table per line (it reads and diffs well)."""
    encode = json.JSONEncoder(ensure_ascii=False).encode
    data = t.model_dump(by_alias=True, mode="json")
    data["convention"]["options"] = {k: to_jsonable(v) for k, v in t.convention.options.items()}
    players = [{k: v for k, v in p.items() if v is not None} for p in data.pop("players")]
    draws = data.pop("draws")
    corrections = data.pop("corrections")
    head = json.dumps(data, ensure_ascii=False, indent=2)[:-2]
    people = ",\n    ".join(encode(p) for p in players)
    rounds = []
    for rnd in draws:
        tables = ",\n        ".join(
            encode({k: v for k, v in tb.items() if v is not None}) for tb in rnd["tables"]
        )
        byes = f', "byes": {encode(rnd["byes"])}' if rnd["byes"] else ""
        rounds.append(
            f'{{"round": {rnd["round"]}, "drawn": {encode(rnd["drawn"])}{byes}, "tables": [\n'
            f"        {tables}\n      ]}}"
        )
    body = ",\n    ".join(rounds)
    drawn = f'"draws": [\n    {body}\n  ]' if rounds else '"draws": []'
    lines = [encode(c) for c in corrections]
    log = (
        '"corrections": [\n    ' + ",\n    ".join(lines) + "\n  ]" if lines else '"corrections": []'
    )
    return f'{head},\n  "players": [\n    {people}\n  ],\n  {drawn},\n  {log}\n}}\n'


def write(folder: Path, t: TournamentFile) -> None:
    """Replace ``tournament.json`` with ``t`` (hold :func:`locked`), its previous version
    kept first as ``tournament.json.bak``."""
    path = path_of(folder)
    try:
        previous = files.read_regular(path, N_("the tournament file"), MAX_TOURNAMENT, LedgerError)
    except FileNotFoundError:
        previous = None
    if previous is not None:
        files.write_atomic(folder / BACKUP, previous, N_("the tournament file's backup"))
        files.fault("backup-written")
    files.write_atomic(path, to_text(t), N_("the tournament file"))


def create(folder: Path, t: TournamentFile) -> None:
    """Make ``folder`` (if need be) and write a new tournament there; refused when the
    folder already holds one, or is not a folder."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise LedgerError(_("not a folder"), str(folder)) from None
    except OSError as exc:
        raise LedgerError(
            _("cannot make the folder: {reason}").format(reason=exc.strerror or exc), str(folder)
        ) from None
    if not folder.is_dir():
        raise LedgerError(_("not a folder"), str(folder))
    with locked(folder, exists=False):
        if os.path.lexists(path_of(folder)):
            raise LedgerError(_("a tournament already exists here"), str(path_of(folder)))
        write(folder, t)


# --- the tables' ledgers ---------------------------------------------------------------------


def ref_of(t: TournamentFile) -> ConventionRef:
    c = t.convention
    return ConventionRef(c.preset, dict(c.options), c.name)


_conventions: dict[int, tuple[TournamentFile, Convention]] = {}


def convention(t: TournamentFile) -> Convention:
    """The tournament's convention, resolved once per tournament value (every table's ledger
    is compared with it)."""
    from prefcalc.store.ledger import resolve_convention

    known = _conventions.get(id(t))
    if known is not None and known[0] is t:
        return known[1]
    conv = resolve_convention(ref_of(t), strict=True)
    _conventions.clear()
    _conventions[id(t)] = (t, conv)
    return conv


def table_ledger(t: TournamentFile, tb: TableRecord, created: str) -> Game:
    """The empty game a drawn table starts with: its players in seat order, its first dealer,
    the tournament's convention and target, no money."""
    return Game(
        players=tb.players,
        convention=ref_of(t),
        target=t.target,
        first_dealer=tb.dealer,
        created=created,
    )


def _orphan(path: Path) -> bool | None:
    """What a file where a new table's ledger goes is: None when there is none, True when
    it is a ledger with no deal (left by a draw that crashed: it may go), False otherwise."""
    from prefcalc import api

    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    try:
        game = api.load(path)
    except PrefcalcError:
        return False
    return not game.entries


def tidy(folder: Path, t: TournamentFile) -> None:
    """Finish or undo what a crashed command left (hold :func:`locked`): a correction that
    ``tournament.json`` does not record is undone (the ledger put back as its journal kept
    it), the seals are made those of the rounds drawn (every table of a round before the
    last), the empty ledgers of rounds ``tournament.json`` does not record are removed, and
    stale temporary files of ``tournament.json``."""
    files.remove_stale_temporaries(path_of(folder))
    files.remove_stale_temporaries(folder / BACKUP)
    _settle_rename(folder, t)
    for r in t.draws:
        for tb in r.tables:
            _settle_journal(folder, t, tb)
    sync_seals(folder, t)
    drawn = len(t.draws)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in sorted(names):
        found = TABLE_FILE.fullmatch(name)
        if found is None or int(found.group(1)) <= drawn:
            continue
        path = folder / name
        if _orphan(path):
            path.unlink(missing_ok=True)  # (its lock file stays: another may hold it)


def write_round(folder: Path, t: TournamentFile, draw: RoundRecord) -> TournamentFile:
    """Write the ledgers of the round ``draw``, then ``tournament.json`` recording it (hold
    :func:`locked`); returns the tournament with the round. A file where a table's ledger
    goes that is not an empty ledger is refused before anything is written."""
    from prefcalc.store import ledger

    paths = [folder / tb.file for tb in draw.tables]
    for path in paths:
        if _orphan(path) is False:
            raise LedgerError(
                _(
                    "the file of a table of round {round} is already there and is not an empty game: move it away to draw the round"
                ).format(round=draw.round),
                str(path),
            )
    for k, (tb, path) in enumerate(zip(draw.tables, paths, strict=True)):
        ledger.create(path, table_ledger(t, tb, draw.drawn), force=True)
        if k == 0:
            files.fault("draw-after-first-table")
    files.fault("draw-before-record")
    after = t.model_copy(update={"draws": (*t.draws, draw)})
    if t.draws:  # the last round's tables close: the new round is drawn from its standings
        seal_round(folder, after, len(t.draws))
    write(folder, after)
    files.fault("draw-after-record")
    return after


# --- seals and corrections ----------------------------------------------------------------


def sealed_rounds(t: TournamentFile) -> int:
    """The rounds whose tables are sealed: every round before the last drawn (the next
    round was drawn from its standings)."""
    return max(len(t.draws) - 1, 0)


def seal_round(folder: Path, t: TournamentFile, round_: int) -> None:
    """Seal the ledgers of round ``round_``'s tables (:mod:`prefcalc.store.seal`)."""
    from prefcalc.store import seal

    for tb in t.draws[round_ - 1].tables:
        seal.write(
            files.real_path(folder / tb.file),
            SEALED,
            round=round_,
            next=round_ + 1,
            table=tb.table,
        )


def sync_seals(folder: Path, t: TournamentFile) -> None:
    """Make the seals those of ``t``: the tables of the rounds before the last drawn sealed,
    the others not (a command cut short leaves a round sealed too early or too late)."""
    from prefcalc.store import seal

    sealed: set[str] = set()
    for r in t.draws:
        for tb in r.tables:
            path = files.real_path(folder / tb.file)
            if r.round <= sealed_rounds(t):
                sealed.add(tb.file)
                if not seal.is_sealed(path):
                    seal_round(folder, t, r.round)
            elif seal.is_sealed(path):
                seal.remove(path)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:  # the seal of a table no round records (a copied or cut folder)
        table = name.removesuffix(seal.SUFFIX)
        if table != name and TABLE_FILE.fullmatch(table) and table not in sealed:
            seal.remove(folder / table)


def journal_of(folder: Path, tb: TableRecord) -> Path:
    return folder / (tb.file + JOURNAL)


def digest(raw: bytes) -> str:
    import hashlib

    return hashlib.sha256(raw).hexdigest()


def _ledger_bytes(path: Path) -> bytes | None:
    try:
        return files.read_regular(path, N_("the ledger"), files.MAX_LEDGER, LedgerError)
    except (OSError, LedgerError):
        return None


def _pending(folder: Path, t: TournamentFile, tb: TableRecord) -> bytes | None:
    """The ledger's bytes before a correction ``tournament.json`` does not record (a crash
    between the ledger's write and the record's), or None: no such correction."""
    journal = journal_of(folder, tb)
    if not os.path.lexists(journal):
        return None
    kept = _ledger_bytes(journal)
    now = _ledger_bytes(folder / tb.file)
    if kept is None or now is None:
        return None
    made = {c.ledger for c in t.corrections if _file_of(t, c) == tb.file}
    return None if digest(now) in made or now == kept else kept


def _file_of(t: TournamentFile, c: CorrectionRecord) -> str:
    return t.draws[c.round - 1].tables[c.table - 1].file


def _settle_journal(folder: Path, t: TournamentFile, tb: TableRecord) -> None:
    """A correction's journal left by a crash: the correction undone when ``tournament.json``
    does not record it (the ledger put back), the journal removed."""
    from prefcalc.store import seal

    journal = journal_of(folder, tb)
    if not os.path.lexists(journal):
        return
    kept = _pending(folder, t, tb)
    if kept is not None:
        path = files.real_path(folder / tb.file)
        with seal.unsealed(path), _locked(path):
            files.write_atomic(path, kept, N_("the ledger"))
    journal.unlink(missing_ok=True)


# --- renaming ---------------------------------------------------------------------------------

RENAME_JOURNAL = "rename.journal"
"""The old and the new name of a rename under way: kept from before its first write until
after its last (``tournament.json``), so a crash in between is finished or undone."""


def _tables_of(t: TournamentFile, name: str) -> list[TableRecord]:
    return [tb for r in t.draws for tb in r.tables if name in tb.players]


def _rewrite(base: Path, tb: TableRecord, old: str, new: str) -> None:
    """The ledger of ``tb`` with ``old`` written ``new`` (nothing when he is not in it)."""
    from prefcalc.store import ledger, seal

    path = base / tb.file
    real = files.real_path(path)
    with seal.unsealed(real):

        def change(game: Game) -> Game:
            return renaming.renamed_game(game, old, new) if old in game.players else game

        ledger.update(path, change)


def rename(base: Path, t: TournamentFile, old: str, new: str) -> list[str]:
    """Rename ``old`` to ``new`` in the folder ``base`` holding ``t`` (hold the tournament's
    lock; both names checked): the journal, every ledger, ``tournament.json``, then the
    journal removed. Returns the ledgers rewritten."""
    journal = base / RENAME_JOURNAL
    files.write_atomic(journal, json.dumps({"old": old, "new": new}, ensure_ascii=False) + "\n")
    tables = _tables_of(t, old)
    for tb in tables:
        _rewrite(base, tb, old, new)
    files.fault("rename-after-ledgers")
    write(base, renaming.renamed_tournament(t, old, new))
    journal.unlink(missing_ok=True)
    return [tb.file for tb in tables]


def rename_pending(base: Path) -> tuple[str, str] | None:
    """The names of a rename a crash cut short, or None."""
    try:
        raw = files.read_regular(
            base / RENAME_JOURNAL, N_("the rename journal"), 64 * 1024, LedgerError
        )
        data = json.loads(raw)
        return str(data["old"]), str(data["new"])
    except FileNotFoundError:
        return None
    except (OSError, LedgerError, ValueError, KeyError, TypeError):
        return None


def _settle_rename(base: Path, t: TournamentFile) -> None:
    """Finish or undo a rename a crash cut short (hold the lock): ``tournament.json`` holds
    the new name, so every ledger is written with it too; or the old one, so every ledger
    goes back to it. Then the journal goes."""
    names = rename_pending(base)
    if names is None:
        if os.path.lexists(base / RENAME_JOURNAL):
            (base / RENAME_JOURNAL).unlink(missing_ok=True)
        return
    old, new = names
    done = new in t.names
    for tb in _tables_of(t, new if done else old):
        if done:
            _rewrite(base, tb, old, new)
        else:
            _rewrite(base, tb, new, old)
    (base / RENAME_JOURNAL).unlink(missing_ok=True)


def _as_recorded(base: Path, t: TournamentFile, game: Game) -> Game:
    """A ledger read while a rename is cut short, with the name ``tournament.json`` holds."""
    names = rename_pending(base)
    if names is None:
        return game
    old, new = names
    if new in t.names and old in game.players:
        return renaming.renamed_game(game, old, new)
    if old in t.names and new in game.players:
        return renaming.renamed_game(game, new, old)
    return game


def table_game(folder: Path, t: TournamentFile, round_: int, tb: TableRecord) -> Game:
    """The ledger of table ``tb`` of round ``round_``, checked to be the table drawn (a
    correction cut short by a crash is not read: the ledger as it was before it is)."""
    from prefcalc import api
    from prefcalc.store import ledger

    path = folder / tb.file
    where = _("round {round}, table {table}").format(round=round_, table=tb.table)
    try:
        kept = _pending(folder, t, tb)
        game = api.load(path) if kept is None else ledger.game_from_bytes(kept, str(path))
        game = _as_recorded(folder, t, game)
    except PrefcalcError as exc:
        if isinstance(exc, LedgerError) and not path.exists():
            raise LedgerError(
                _("{where}: its ledger {file} is missing").format(where=where, file=tb.file),
                str(path),
            ) from None
        raise LedgerError(f"{where}: {exc.message}", exc.where) from None
    problem = _differs(t, tb, game)
    if problem is not None:
        raise DealError(f"{where} ({tb.file}): {problem}")
    return game


def _differs(t: TournamentFile, tb: TableRecord, game: Game) -> str | None:
    """What makes ``game`` another table than the one drawn, or None."""
    from prefcalc import api

    if game.players != tb.players:
        return _("the ledger's players are {found}, the draw seated {drawn}").format(
            found=", ".join(shown(p) for p in game.players), drawn=", ".join(tb.players)
        )
    if seating(game) != game.players:
        return _("a player joined the table: a tournament table keeps the players drawn")
    if game.first_dealer != tb.dealer:
        return _("the first dealer is {found}, the draw made it {drawn}").format(
            found=shown(game.first_dealer), drawn=tb.dealer
        )
    if api.rules(game) != convention(t):
        return _("the table is played by other rules than the tournament's")
    if game.target != t.target:
        return _("the table's target is {found}, the tournament's {target}").format(
            found=game.target, target=t.target
        )
    return None
