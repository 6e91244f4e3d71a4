"""The ledger: one game as one JSON file.

The file holds the record only (players, convention, target, money terms and the deals
with their timestamps) under a schema version, and is validated on load: a corrupt or
unknown file is reported with its path and the reason and is never overwritten.

Writes are atomic (a temporary file in the same folder, fsync, rename) and serialised by
an exclusive lock, so a crash or a second terminal can never lose or corrupt a deal; the
file-system side of this lives in :mod:`prefcalc.store.files`. The deals are written one per
line, so the file stays readable and diffs well.

A file this program wrote is read back without its pydantic models (see "ledgers this
program wrote" below); the validation path is :mod:`prefcalc.store.validate`, imported only
when a file needs it.
"""

import json
import operator
import re
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, assert_never

from prefcalc.errors import LedgerError, PrefcalcError
from prefcalc.i18n import N_, _
from prefcalc.perf import gc_paused
from prefcalc.rules.amounts import Amount, exact_text, norm, to_amount
from prefcalc.rules.conventions import Convention, to_jsonable
from prefcalc.rules.model import (
    Adjustment,
    AllPass,
    Contract,
    ConventionRef,
    Deal,
    Defender,
    Entry,
    Game,
    Join,
    Misere,
    Penalty,
    Preference,
    SetTerm,
    Suit,
    check_currency,
    seating,
)
from prefcalc.rules.notation import parse_contract
from prefcalc.store import LEDGER_SCHEMA, cache, checkpoint, conventions, files, seal
from prefcalc.store.cache import data_dir as data_dir  # re-exported: the games' data directory
from prefcalc.store.files import write_atomic as write_atomic  # re-exported (export/*)
from prefcalc.store.lock import locked


def now() -> str:
    """The local time, to the second, with its UTC offset."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


# --- convention ------------------------------------------------------------------------------


def resolve_convention(ref: ConventionRef, strict: bool = False) -> Convention:
    """The convention a game is played by: its preset with overrides, or its own table
    (``strict``: the options as read from the ledger file, nothing coerced)."""
    return conventions.resolve(ref, strict)


# --- JSON -> record ---------------------------------------------------------------------------


def game_from_json(data: Any, path: str = "<ledger>") -> Game:
    """Validate a parsed ledger (``json.loads`` output) and build the :class:`Game`: read
    exactly as its JSON text would be (strict mode takes a JSON array for a tuple, a Python
    list only in JSON)."""
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        raise LedgerError(_("not a prefcalc ledger (expected JSON data)"), path) from None
    return game_from_bytes(text.encode(), path)


def game_from_bytes(raw: bytes, path: str = "<ledger>") -> Game:
    """Parse and validate a ledger file's bytes in one pass (a UTF-8 BOM is allowed): the
    file's pydantic models, then the checks recording applies to every deal."""
    from prefcalc.store import validate

    return validate.game_from_bytes(raw, path)


_CONTRACTS: dict[str, tuple[int, Suit]] = {}  # "7h" -> (7, "h"), filled as contracts are read


# --- record -> JSON ---------------------------------------------------------------------------


def _amount_json(value: Amount) -> int | str:
    value = norm(value)
    return value if isinstance(value, int) else exact_text(value)


def deal_to_json(entry: Entry) -> dict[str, Any]:
    deal = entry.deal
    out: dict[str, Any] = {"time": entry.time}
    if entry.dealer is not None:
        out["dealer"] = entry.dealer
    if isinstance(deal, Contract):
        defenders: list[dict[str, Any]] = []
        for d in deal.defenders:
            item: dict[str, Any] = {"player": d.player, "role": d.role}
            if d.tricks is not None:
                item["tricks"] = d.tricks
            defenders.append(item)
        out.update(
            kind="contract",
            declarer=deal.declarer,
            contract=f"{deal.level}{deal.suit}",
            tricks=deal.tricks,
            defenders=defenders,
        )
        _classic_json(deal, out)
    elif isinstance(deal, Misere):
        out.update(kind="misere", declarer=deal.declarer, tricks=deal.tricks)
        _classic_json(deal, out)
    elif isinstance(deal, AllPass):
        out.update(kind="passes", tricks=dict(deal.tricks))
        if deal.blind:
            out["blind"] = list(deal.blind)
        if deal.looked:
            out["looked"] = list(deal.looked)
    elif isinstance(deal, SetTerm):
        out.update(kind="set", key=deal.key, value=_amount_json(deal.value))
    elif isinstance(deal, Adjustment):
        out.update(kind="adjust", player=deal.player)
        if deal.pool:
            out["pool"] = _amount_json(deal.pool)
        if deal.mountain:
            out["mountain"] = _amount_json(deal.mountain)
        if deal.whists:
            out["whists"] = {other: _amount_json(amount) for other, amount in deal.whists}
        out["note"] = deal.note
    elif isinstance(deal, Penalty):
        out.update(kind="penalty", player=deal.player, offence=deal.offence)
        if deal.level is not None and deal.suit is not None:
            out["contract"] = f"{deal.level}{deal.suit}"
        out["amount"] = _amount_json(deal.amount)
        if deal.on is not None:
            out["on"] = deal.on
    elif isinstance(deal, Preference):
        out.update(kind="preference", player=deal.player)
    elif isinstance(deal, Join):
        out.update(kind="join", player=deal.player)
        if deal.after is not None:
            out["after"] = deal.after
    else:
        assert_never(deal)
    if entry.forced:
        out["forced"] = True
    return out


def _classic_json(deal: Contract | Misere, out: dict[str, Any]) -> None:
    """The Classic fields of a game or misère (docs/rules.md §8.1), written only when set."""
    if deal.dark:
        out["dark"] = True
    if deal.no_talon:
        out["no_talon"] = True
    if deal.bomb is not None:
        out["bomb"] = deal.bomb
    if isinstance(deal, Contract):
        if deal.talon is not None:
            out["talon"] = deal.talon
        if deal.returned_by is not None:
            out["returned_by"] = deal.returned_by
    if deal.looked:
        out["looked"] = list(deal.looked)


_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(..., ensure_ascii=False)

_lines: dict[int, tuple[Entry, str]] = {}
"""The line of each entry of the game last written or read as text, by the entry's identity
(the entry is kept with its line, so an identity is never reused while it is here)."""
_unindexed: tuple[tuple[Entry, ...], str] | None = None
"""The entries of the game last read as text and the text of their lines, not yet put in
:data:`_lines` (a command that appends to that game never needs them: its text is spliced)."""


def _indexed() -> dict[int, tuple[Entry, str]]:
    """:data:`_lines`, with the lines of the game last read as text in it."""
    global _unindexed
    if _unindexed is not None:
        entries, body = _unindexed
        _unindexed = None
        lines = body.split(_NEXT) if entries else []
        _lines.update(
            {id(entry): (entry, line) for entry, line in zip(entries, lines, strict=True)}
        )
    return _lines


def _deal_lines(entries: tuple[Entry, ...], keep: bool = False) -> list[str]:
    """The one-line JSON of each entry. An entry is an immutable value, so the very object
    that was written (or read from a file this program wrote) before has the same line:
    recording a deal into a game of 500 encodes one deal, not 501 (a command, a long session,
    ``serve``, the digests of undo and redo). Only the entries of the last game are kept
    (``keep``: these are added to those, the deals appended to that game)."""
    global _lines, _unindexed
    known = _lines if keep else _indexed()
    fresh: dict[int, tuple[Entry, str]] = known if keep else {}
    if not keep:
        _unindexed = None
    out: list[str] = []
    for entry in entries:
        hit = known.get(id(entry))
        line = hit[1] if hit is not None and hit[0] is entry else _encode(deal_to_json(entry))
        fresh[id(entry)] = (entry, line)
        out.append(line)
    _lines = fresh
    return out


_DEALS = ',\n  "deals": [\n    '
"""What follows the header when the game has deals; they are separated by :data:`_NEXT`
and followed by :data:`_END`."""
_NEXT = ",\n    "
_END = "\n  ]\n}\n"
_NO_DEALS = ',\n  "deals": []\n}\n'


_last_text: tuple[str, tuple[Entry, ...], str] | None = None
"""The header, the entries and the text of the game last written or read as text."""


def game_to_json_text(game: Game) -> str:
    """The ledger text: the game's header indented, then one deal per line.

    The text of a game that is the last one made (or read) with deals appended is that
    text with their lines spliced in: recording into a night of 10,000 deals encodes the
    new deal and copies the rest."""
    global _last_text
    head = _header_text(game)
    entries = game.entries
    last = _last_text
    if last is not None and last[0] == head and 0 < len(last[1]) <= len(entries):
        known = len(last[1])
        if all(map(operator.is_, entries[:known], last[1])):  # the very same entries
            new = _deal_lines(entries[known:], keep=True)
            text = last[2][: -len(_END)] + "".join(_NEXT + line for line in new) + _END
            _last_text = (head, entries, text)
            return text
    if not entries:
        text = head + _NO_DEALS
    else:
        text = head + _DEALS + _NEXT.join(_deal_lines(entries)) + _END
    _last_text = (head, entries, text)
    return text


def _header_text(game: Game) -> str:
    """The ledger text up to its deals: every field but the deals, indented."""
    ref = game.convention
    convention: dict[str, Any] = {}
    if ref.name:
        convention["name"] = ref.name
    convention["preset"] = ref.preset
    convention["options"] = {k: to_jsonable(v) for k, v in ref.options.items()}
    header: dict[str, Any] = {
        "schema": LEDGER_SCHEMA,
        "created": game.created,
        "players": list(game.players),
        "first_dealer": game.first_dealer,
        "target": game.target,
        "whist_price": _amount_json(game.whist_price),
        "currency": game.currency,
        "convention": convention,
        **({"lang": game.lang} if game.lang else {}),
        **({"genders": dict(game.genders)} if game.genders else {}),
    }
    return json.dumps(header, ensure_ascii=False, indent=2)[:-2]


# --- files ---------------------------------------------------------------------------------


def load(path: Path) -> Game:
    """Read and validate the ledger at ``path`` (a symbolic link is followed)."""
    return _load(path, str(path))


def load_cached(path: Path) -> Game:
    """:func:`load`, but the game this process last read or wrote at ``path`` is reused
    while the file holds the same bytes (it is read, not parsed again)."""
    if not files.check_regular_if_exists(path, N_("the ledger"), LedgerError):
        raise LedgerError(_("no game here (start one with 'prefcalc new')"), str(path))
    return _cached_load(files.real_path(path), str(path))


def _load(path: Path, shown: str) -> Game:
    """Read the ledger at ``path``; errors name ``shown`` (the path as the user wrote it)."""
    raw = _read(path, shown)
    return _parse(raw, _signature(raw), shown)


def _read(path: Path, shown: str) -> bytes:
    """The bytes of the ledger at ``path``; errors name ``shown``."""
    try:
        return files.read_regular(path, N_("the ledger"), files.MAX_LEDGER, LedgerError)
    except FileNotFoundError:
        raise LedgerError(_("no game here (start one with 'prefcalc new')"), shown) from None
    except OSError as exc:
        raise LedgerError(
            _("cannot read the ledger: {value}").format(value=files.os_reason(exc)), shown
        ) from None
    except LedgerError as exc:
        raise LedgerError(exc.message, shown) from None


def _remove_stale_temporaries(path: Path) -> None:
    """Temporary files of writers that were killed mid-write (only writers hold the lock):
    the ledger's and those of what undo keeps for redo (written under the same lock)."""
    files.remove_stale_temporaries(path)
    files.remove_stale_temporaries(redo_path(path))


def _existing_ledger(path: Path) -> Path:
    """The real file behind ``path`` (links resolved once), refused before any lock file is
    made if it is missing or not a regular file."""
    if not files.check_regular_if_exists(path, N_("the ledger"), LedgerError):
        raise LedgerError(_("no game here (start one with 'prefcalc new')"), str(path))
    return files.real_path(path)


def create(path: Path, game: Game, force: bool = False) -> None:
    """Write a new game; refuses to replace an existing file unless ``force``.

    A symbolic link is written through: the real file is replaced and the link stays.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file where a folder of the path should be, a read-only disk...
        raise LedgerError(
            _("cannot make the folder {folder}: {reason}").format(
                folder=path.parent, reason=files.os_reason(exc)
            ),
            str(path),
        ) from None
    if files.check_regular_if_exists(path, N_("the ledger"), LedgerError):
        if not force:
            raise LedgerError(
                _("a game already exists here (use --force to replace it)"), str(path)
            )
        files.check_writable_target(path, N_("the ledger"))  # before a lock file is made
    real = files.real_path(path)
    with locked(real):
        if real.exists() and not force:
            raise LedgerError(
                _("a game already exists here (use --force to replace it)"), str(path)
            )
        seal.check(real, str(path))
        text = game_to_json_text(game)
        write_atomic(real, text, N_("the ledger"))
        remember(real, game, text)


def update(
    path: Path,
    change: Callable[[Game], Game],
    then: Callable[[Path, Game, Game], None] | None = None,
    first: Callable[[Path, Game, Game], None] | None = None,
) -> tuple[Game, Game]:
    """Load, change and save the game under the lock; return ``(before, after)``.

    If ``change`` raises, nothing is written and the file stays byte for byte as it was.
    ``first(real_path, before, after)`` runs before the ledger is written, once the ledger
    is known to be writable: a side file that keeps data the write removes (what undo keeps
    for redo) is written there, so when it cannot be written nothing has changed.
    ``then(real_path, before, after)`` runs after the write, still under the lock.
    A symbolic link is resolved once: the lock, the temporary file and the rename all
    happen beside the real file, so the link keeps pointing at the game.
    """
    return update_at(path, lambda _real, game: change(game), then, first)


def update_at(
    path: Path,
    change: Callable[[Path, Game], Game],
    then: Callable[[Path, Game, Game], None] | None = None,
    first: Callable[[Path, Game, Game], None] | None = None,
) -> tuple[Game, Game]:
    """:func:`update`, the change also given the real path of the ledger (links resolved),
    for a change that reads a side file under the lock (``redo`` reads what undo kept).
    The one write path of a ledger that exists."""
    real = _existing_ledger(path)
    with locked(real):
        seal.check(real, str(path))  # a ledger its folder closed to ordinary changes
        before = _cached_load(real, str(path))
        _remove_stale_temporaries(real)
        after = _seated_genders(change(real, before))
        if first is not None:
            files.check_writable_target(real, N_("the ledger"), str(path))
            first(real, before, after)
        if after is not before:
            text = game_to_json_text(after)
            raw = text.encode("utf-8")  # once: written, then its digest kept
            write_atomic(real, raw, N_("the ledger"))
            remember(real, after, text, raw)
        if then is not None:
            then(real, before, after)
    return before, after


def _seated_genders(game: Game) -> Game:
    """``game`` without the genders of players no longer at its table (the join that seated
    one was undone, deleted or edited away): a ledger names only its own players."""
    if not game.genders:
        return game
    seats = seating(game)
    kept = tuple(pair for pair in game.genders if pair[0] in seats)
    return game if kept == game.genders else game._replace(genders=kept)


# --- redo -------------------------------------------------------------------------------------

REDO_LEVELS = 50


def redo_path(real: Path) -> Path:
    """The undone deals of a ledger, for ``redo``: ``NAME.redo`` beside it."""
    return real.with_name(real.name + ".redo")


def _digest(game: Game) -> str:
    """The identity of a game for redo: its ledger text without the players' genders (a
    gender set after an undo leaves the deal to put back)."""
    import hashlib

    text = game_to_json_text(game._replace(genders=()) if game.genders else game)
    return hashlib.sha256(text.encode()).hexdigest()


def read_redo(real: Path) -> list[dict[str, str]]:
    """The redo stack (oldest first): each item the ledger text before an undo and the
    digest of the game the undo left. A missing or unreadable file is an empty stack; a
    folder, a FIFO or a device there is refused (never opened): undo would lose the deal."""
    files.check_regular_if_exists(redo_path(real), N_("the redo file"), LedgerError)
    try:
        raw = files.read_regular(
            redo_path(real), N_("the redo file"), files.MAX_LEDGER * 4, LedgerError
        )
        data = json.loads(raw)
    except (OSError, ValueError, LedgerError):
        return []
    if not isinstance(data, list):
        return []
    return [d for d in data if isinstance(d, dict) and {"after", "before"} <= d.keys()]


def push_redo(real: Path, before: Game, after: Game) -> None:
    """Remember ``before`` (the game an undo changed into ``after``) for ``redo``."""
    stack = read_redo(real)
    if stack and stack[-1]["after"] != _digest(before):
        stack = []  # the game changed since the last undo: those can no longer be redone
    stack.append({"after": _digest(after), "before": game_to_json_text(before)})
    write_atomic(redo_path(real), json.dumps(stack[-REDO_LEVELS:]), N_("the redo file"))


def peek_redo(real: Path, current: Game) -> tuple[Game, list[dict[str, str]]] | None:
    """The game before the last undo, if ``current`` is still what that undo left, and the
    stack without it (for :func:`drop_redo`, once the deal is back in the ledger)."""
    stack = read_redo(real)
    if not stack or stack[-1]["after"] != _digest(current):
        return None
    top = stack.pop()
    return game_from_bytes(top["before"].encode(), str(redo_path(real))), stack


def drop_redo(real: Path, rest: list[dict[str, str]]) -> None:
    """Keep only ``rest`` of the redo stack (the deal on top of it was put back)."""
    write_atomic(redo_path(real), json.dumps(rest), N_("the redo file"))


# --- the loaded game, kept between calls -----------------------------------------------------

_known_file: dict[Path, tuple[bytes, Game]] = {}


def _signature(raw: bytes) -> bytes:
    """A ledger's identity: the digest of its bytes. Its content decides, never its size or
    modification time: another process may write a ledger of the same size within the same
    clock tick (or in place, keeping the inode), and a stale game must never be written over
    it."""
    import hashlib

    return hashlib.sha256(raw).digest()


def remember(real: Path, game: Game, text: str | None = None, raw: bytes | None = None) -> None:
    """Keep ``game`` as the content of ``real``, just written as ``text`` (its ledger text;
    made from the game when not given; ``raw``, its bytes, when the caller has them): the
    next command trusts these bytes, reads the game's convention from the cache, and finds
    the checkpoint kept for the game."""
    global _pending
    if text is None:
        text = game_to_json_text(game)
    signature = _signature(text.encode("utf-8") if raw is None else raw)
    _known_file.clear()
    _known_file[real] = (signature, game)
    _mark_validated(signature)
    conventions.keep(game.convention)
    pending, _pending = _pending, None
    if pending is not None and pending[0] is game:
        checkpoint.save(signature.hex(), _program(), pending[1])


def _cached_load(real: Path, shown: str) -> Game:
    """The game at ``real``: the one this process last read or wrote there if the file still
    holds the same bytes (a long session parses the ledger again only when another process
    changed it), else read afresh. The file is read every time (under the lock when
    called by :func:`update`); only the parsing is saved."""
    raw = _read(real, shown)
    signature = _signature(raw)
    known = _known_file.get(real)
    if known is not None and known[0] == signature:
        return known[1]
    game = _parse(raw, signature, shown)
    _known_file.clear()
    _known_file[real] = (signature, game)
    return game


# --- checkpoints ----------------------------------------------------------------------------
#
# The state of a game after its last deal, computed by the caller (scoring), is kept for the
# next command in the cache folder (prefcalc.store.checkpoint), keyed by the digest of the
# ledger's bytes and this program's identity: a command that records a deal then resumes from
# it instead of replaying the night. The value is the caller's plain JSON data; the store never
# looks inside it.

_pending: tuple[Game, Any] | None = None


def _bytes_of(game: Game) -> bytes | None:
    """The digest of the ledger bytes ``game`` was last read from or written as (by this
    process), or None when it came from nowhere (built in memory)."""
    for signature, known in _known_file.values():
        if known is game:
            return signature
    return None


def stored_checkpoint(game: Game) -> Any | None:
    """The checkpoint kept for ``game``: the value :func:`keep_checkpoint` was given for the
    very ledger bytes ``game`` was read from, by this code; None when there is none (a file
    changed by another hand, another version, a game not read from a file, a cache that
    cannot be used). The caller must treat a value it cannot read as None."""
    signature = _bytes_of(game)
    if signature is None:
        return None
    return checkpoint.load(signature.hex(), _program())


def keep_checkpoint(game: Game, value: Any) -> None:
    """Keep ``value`` (plain JSON data, see :func:`prefcalc.store.checkpoint.save`) as the
    checkpoint of ``game``: at once if ``game`` is what a ledger holds now (it was just
    written or read), else when ``game`` is written (give it inside the change of
    :func:`update`: the game the change returns is written next). Best effort: a cache that
    cannot be written costs the next command a replay."""
    global _pending
    signature = _bytes_of(game)
    if signature is None:
        checkpoint.check(value)  # a value that is not JSON data raises now, not at the write
        _pending = (game, value)
        return
    checkpoint.save(signature.hex(), _program(), value)


# --- ledgers this program wrote ---------------------------------------------------------------
#
# Validating a ledger builds the file's pydantic models and runs the checks recording applies
# to every deal; for a file this program wrote itself that repeats what is already known. The
# digests of the files it writes are kept in a small side file of the data directory, each
# with the identity of the program that wrote it; a file whose digest is there is read by the
# inverse of the writer, without a model: accepted only if it is laid out exactly as the
# writer lays it out (the header as the writer writes it for the game read back, then one
# deal per line; each deal's line is kept with the entry read from it, so the next write
# encodes only the new deal); otherwise, and whenever the cache is missing, broken, foreign,
# unreadable or not a regular file, the file is validated in full, as without a cache. Only a
# write adds to the cache: a command that reads, or is refused, changes no file, the cache
# included. (The cache adds no trust: whoever can write the data directory can write the
# ledgers themselves.)

CACHE_KEYS = 64
"""How many ledger contents the cache remembers (the most recent ones)."""

_CACHE_LIMIT = CACHE_KEYS * 160
_cache_key: str | None = None


def _program() -> str:
    """The identity of the code that decides what a valid ledger is and what it scores: the
    schema version and the sources of :mod:`prefcalc.rules` and :mod:`prefcalc.store` and
    the presets (path, size and modification time of each, :func:`prefcalc.store.cache.sources`),
    so a new version or an edited source never trusts what an older one vouched for."""
    global _cache_key
    if _cache_key is None:
        import hashlib

        parts = f"{LEDGER_SCHEMA}\n{cache.sources()}"
        _cache_key = hashlib.sha256(parts.encode()).hexdigest()[:32]
    return _cache_key


def cache_path() -> Path:
    """The side file of ledger digests known to be valid."""
    return cache.folder() / "validated-ledgers"


def _validated() -> list[str]:
    """The cache's keys (``DIGEST PROGRAM`` lines); anything unreadable is an empty cache."""
    raw = cache.read(cache_path(), _CACHE_LIMIT)
    try:
        lines = raw.decode("ascii").splitlines() if raw is not None else []
    except ValueError:
        return []
    return [line for line in lines if len(line) == 97 and line[64] == " "]


def _mark_validated(signature: bytes) -> None:
    """Add the digest of a ledger this program just wrote to the cache. A cache that
    cannot be written (a folder, a FIFO or a read-only file there, a full disk) is left as it
    is: the next command validates the file in full. Not synced to disk: a cache lost in a
    crash costs one validation, never a deal."""
    key = f"{signature.hex()} {_program()}"
    keys = _validated()
    if keys and keys[-1] == key:
        return
    keys = [*[k for k in keys if k != key][-(CACHE_KEYS - 1) :], key]
    cache.replace(cache_path(), ("\n".join(keys) + "\n").encode("ascii"))


def _parse(raw: bytes, signature: bytes, shown: str) -> Game:
    """The game of a ledger's bytes: trusted when this program wrote the same bytes and they
    read back exactly, else validated in full."""
    if f"{signature.hex()} {_program()}" in _validated():
        game = _trusted(raw)
        if game is not None:
            return game
    return game_from_bytes(raw, shown)


def _trusted(raw: bytes) -> Game | None:
    """The game whose ledger text is exactly ``raw``, read without validation (the caller
    knows these bytes were valid), or None when they are not laid out as the writer lays
    them out (then they are validated in full). Each entry is kept with its line."""
    global _lines, _unindexed, _last_text
    try:
        text = raw.decode("utf-8")
        if text.endswith(_NO_DEALS):
            head, body = text[: -len(_NO_DEALS)], ""
        else:
            cut = text.find(_DEALS)
            if cut < 0 or not text.endswith(_END):
                return None
            head, body = text[:cut], text[cut + len(_DEALS) : -len(_END)]
        with gc_paused():  # thousands of small values, none in a cycle: never scanned
            game = _game_from_text(json.loads(head + "\n}"), body)
        if _header_text(game) != head:
            return None
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError, PrefcalcError):
        return None
    _lines, _unindexed = {}, (game.entries, body)
    _last_text = (head, game.entries, text)
    return game


_STRING = r'((?:[^"\\\n]++|\\.)*+)'  # a JSON string's body, escapes and all (one line)
_LINE = re.compile(
    r'\{"time": "([^"\\\n]*+)"'  # the time, as the writer writes it (no escape in it)
    r'(?:, "dealer": "' + _STRING + r'")?'
    r'(, "kind": [^\n]*\})'  # the deal's fields, to the end of the line
    r"(?:,\n    |\Z)"  # then the next line, or the end of the deals
)
"""A deal's line as the writer writes it (:data:`_NEXT` after every one but the last)."""
_make_entry = partial(tuple.__new__, Entry)  # an entry made without its keyword-reading __new__


def _game_from_text(d: dict[str, Any], body: str) -> Game:
    """The inverse of :func:`game_to_json_text` (schema 2 as this program writes it): ``d``,
    its header, and ``body``, the lines of its deals. A line is read as the writer writes
    it: its time, its dealer, then the deal's fields (the kind first, the forced mark last),
    and the lines must cover the body exactly. A deal whose fields are written the same way
    as an earlier one's (whatever its time and dealer) is the same value, built once: the
    fields of a night's distinct deals are parsed together, once, and the entries are made
    at C speed (a night of 10,000 deals is read in some 20 ms)."""
    if d["schema"] != LEDGER_SCHEMA:
        raise ValueError("another schema")
    conv = d["convention"]
    found = _LINE.findall(body)
    count = len(found)
    times, dealers, fields = zip(*found, strict=True) if found else ((), (), ())
    dealt = count - dealers.count("")  # a dealer's name is never empty: "" is no dealer
    # every line as laid out: '{"time": "' time '"' [', "dealer": "' dealer '"'] fields, then
    # _NEXT but after the last: the lines cover the body only if they are all there is
    laid = 11 * count + 14 * dealt + 6 * max(count - 1, 0)
    laid += sum(map(len, times)) + sum(map(len, dealers)) + sum(map(len, fields))
    if laid != len(body):
        raise ValueError("not one deal per line as the writer writes them")
    distinct = dict.fromkeys(fields)
    parsed = json.loads("[{" + ",{".join(f[2:] for f in distinct) + "]") if distinct else []
    if len(parsed) != len(distinct):
        raise ValueError("a deal's fields spill over")
    deals = {f: _deal_from_text(x) for f, x in zip(distinct, parsed, strict=True)}
    forced = {f: x.get("forced", False) is True for f, x in zip(distinct, parsed, strict=True)}
    names: dict[str, str | None] = {n: json.loads(f'"{n}"') for n in dict.fromkeys(dealers)}
    names[""] = None
    entries = tuple(
        map(
            _make_entry,
            zip(
                map(deals.__getitem__, fields),
                map(names.__getitem__, dealers),
                times,
                map(forced.__getitem__, fields),
                strict=True,
            ),
        )
    )
    return Game(
        players=tuple(d["players"]),
        convention=ConventionRef(conv["preset"], conv["options"], conv.get("name")),
        target=d["target"],
        first_dealer=d["first_dealer"],
        whist_price=to_amount(d["whist_price"]),
        currency=check_currency(d["currency"]),
        created=d["created"],
        entries=entries,
        lang=d.get("lang", ""),
        genders=tuple(d.get("genders", {}).items()),
    )


def _deal_from_text(x: dict[str, Any]) -> Deal:
    """The inverse of :func:`deal_to_json`."""
    kind = x["kind"]
    if kind == "contract":
        known = _CONTRACTS.get(x["contract"])
        if known is None:
            known = _CONTRACTS[x["contract"]] = parse_contract(x["contract"])
        defenders = tuple(
            [Defender(d["player"], d["role"], d.get("tricks")) for d in x["defenders"]]
        )
        get = x.get
        return Contract(
            x["declarer"],
            known[0],
            known[1],
            x["tricks"],
            defenders,
            get("dark", False),
            get("no_talon", False),
            get("bomb"),
            get("talon"),
            get("returned_by"),
            tuple(get("looked", ())),
        )
    if kind == "passes":
        return AllPass(
            tuple(x["tricks"].items()), tuple(x.get("blind", ())), tuple(x.get("looked", ()))
        )
    if kind == "misere":
        return Misere(
            x["declarer"],
            x["tricks"],
            x.get("dark", False),
            x.get("no_talon", False),
            x.get("bomb"),
            tuple(x.get("looked", ())),
        )
    if kind == "penalty":
        level: int | None = None
        suit: Suit | None = None
        if "contract" in x:
            level, suit = parse_contract(x["contract"])
        return Penalty(
            x["player"], x["offence"], norm(to_amount(x["amount"])), level, suit, x.get("on")
        )
    if kind == "adjust":
        whists = tuple((k, to_amount(v)) for k, v in x.get("whists", {}).items())
        pool, mountain = to_amount(x.get("pool", 0)), to_amount(x.get("mountain", 0))
        return Adjustment(x["player"], pool, mountain, whists, x["note"])
    if kind == "set":
        return SetTerm(x["key"], norm(to_amount(x["value"])))
    if kind == "preference":
        return Preference(x["player"])
    if kind == "join":
        return Join(x["player"], x.get("after"))
    raise ValueError(f"unknown kind {kind!r}")


# --- the current game -------------------------------------------------------------------------


def _pointer() -> Path:
    return data_dir() / "current"


def current_path() -> Path:
    """The current game's ledger (the one ``prefcalc new`` or ``prefcalc use`` set)."""
    pointer = _pointer()
    what = N_("the current-game pointer")
    try:
        raw = files.read_regular(pointer, what, files.MAX_SMALL, LedgerError)
    except FileNotFoundError:
        raise LedgerError(
            _("no current game: start one with 'prefcalc new' or pass --file")
        ) from None
    except OSError as exc:
        raise LedgerError(
            _("cannot read {what}: {reason}").format(what=_(what), reason=files.os_reason(exc)),
            str(pointer),
        ) from None
    text = files.decode_text(raw, what, pointer, LedgerError).strip()
    if "\0" in text or "\n" in text:
        raise LedgerError(
            _("{what} is not one file name: use 'prefcalc use FILE'").format(what=_(what)),
            str(pointer),
        )
    if not text:
        raise LedgerError(
            _("the current-game pointer is empty: use 'prefcalc use FILE'"), str(pointer)
        )
    return Path(text)


def set_current(path: Path) -> None:
    pointer = _pointer()
    pointer.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(pointer, str(path.absolute()) + "\n", N_("the current-game pointer"))


def new_game_path(players: tuple[str, ...]) -> Path:
    """A fresh file name for a new game in the data directory.

    The names part is cut to :data:`NAMES_IN_FILE_NAME` characters, so long player names
    never make a file name (or its lock and temporary files' names) too long.
    """
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    safe = "-".join("".join(c for c in p if c.isalnum()) or "player" for p in players)
    safe = safe[:NAMES_IN_FILE_NAME].rstrip("-")
    folder = data_dir() / "games"
    path = folder / f"{stamp}-{safe}.json"
    number = 2
    while path.exists():  # two games of the same players started within one second
        path = folder / f"{stamp}-{safe}-{number}.json"
        number += 1
    return path


NAMES_IN_FILE_NAME = 60
