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
from prefcalc.tournament.model import (
    FILE_NAME,
    TABLE_FILE,
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
    head = json.dumps(data, ensure_ascii=False, indent=2)[:-2]
    people = ",\n    ".join(encode(p) for p in players)
    rounds = []
    for rnd in draws:
        tables = ",\n        ".join(
            encode({k: v for k, v in tb.items() if v is not None}) for tb in rnd["tables"]
        )
        rounds.append(
            f'{{"round": {rnd["round"]}, "drawn": {encode(rnd["drawn"])}, "tables": [\n'
            f"        {tables}\n      ]}}"
        )
    body = ",\n    ".join(rounds)
    drawn = f'"draws": [\n    {body}\n  ]' if rounds else '"draws": []'
    return f'{head},\n  "players": [\n    {people}\n  ],\n  {drawn}\n}}\n'


def write(folder: Path, t: TournamentFile) -> None:
    """Replace ``tournament.json`` with ``t`` (hold :func:`locked`)."""
    files.write_atomic(path_of(folder), to_text(t), N_("the tournament file"))


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
    """Remove what a crashed draw left (hold :func:`locked`): the empty ledgers of rounds
    ``tournament.json`` does not record, and stale temporary files of ``tournament.json``."""
    files.remove_stale_temporaries(path_of(folder))
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
    write(folder, after)
    files.fault("draw-after-record")
    return after


def table_game(folder: Path, t: TournamentFile, round_: int, tb: TableRecord) -> Game:
    """The ledger of table ``tb`` of round ``round_``, checked to be the table drawn."""
    from prefcalc import api

    path = folder / tb.file
    where = _("round {round}, table {table}").format(round=round_, table=tb.table)
    try:
        game = api.load(path)
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
