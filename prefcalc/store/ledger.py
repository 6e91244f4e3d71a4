"""The ledger: one game as one JSON file.

The file holds the record only (players, convention, target, money terms and the deals
with their timestamps) under a schema version, and is validated on load: a corrupt or
unknown file is reported with its path and the reason and is never overwritten.

Writes are atomic (a temporary file in the same folder, fsync, rename) and serialised by
an exclusive lock, so a crash or a second terminal can never lose or corrupt a deal; the
file-system side of this lives in :mod:`prefcalc.store.files`. The deals are written one per
line, so the file stays readable and diffs well (:mod:`prefcalc.store.text`, the ledger's
text both ways). Here: reading (:func:`load`, :func:`load_cached`), writing
(:func:`create`, :func:`update`), what ``undo`` keeps for ``redo``, the checkpoints kept
with a ledger's bytes, and the current game.

What saves work is in modules of its own, each saying what it keys on and what guards it:
the game this process last read or wrote (:mod:`prefcalc.store.known`), the digests of the
ledgers it wrote, read back without their pydantic models (:mod:`prefcalc.store.trusted`;
the validation path is :mod:`prefcalc.store.validate`, imported only when a file needs it),
and the lines of the text it last wrote (:mod:`prefcalc.store.written`).
"""

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from prefcalc.errors import LedgerError
from prefcalc.i18n import N_, _
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import ConventionRef, Game, seating
from prefcalc.store import checkpoint, conventions, files, known, seal, trusted
from prefcalc.store.cache import data_dir as data_dir  # re-exported: the games' data directory
from prefcalc.store.files import write_atomic as write_atomic  # re-exported (export/*)
from prefcalc.store.lock import locked
from prefcalc.store.text import deal_to_json as deal_to_json  # re-exported: the text's API
from prefcalc.store.text import game_to_json_text as game_to_json_text
from prefcalc.store.text import trusted_game


def now() -> str:
    """The local time, to the second, with its UTC offset."""
    return datetime.now().astimezone().isoformat(timespec="seconds")


# --- convention ------------------------------------------------------------------------------


def resolve_convention(ref: ConventionRef, strict: bool = False) -> Convention:
    """The convention a game is played by: its preset with overrides, or its own table
    (``strict``: the options as read from the ledger file, nothing coerced)."""
    return conventions.resolve(ref, strict)


# --- JSON -> record ---------------------------------------------------------------------------


def game_from_bytes(raw: bytes, path: str = "<ledger>") -> Game:
    """Parse and validate a ledger file's bytes in one pass (a UTF-8 BOM is allowed): the
    file's pydantic models, then the checks recording applies to every deal."""
    from prefcalc.store import validate

    return validate.game_from_bytes(raw, path)


# --- files ---------------------------------------------------------------------------------


def load(path: Path) -> Game:
    """Read and validate the ledger at ``path`` (a symbolic link is followed)."""
    return _load(path, str(path))


def load_cached(path: Path) -> Game:
    """:func:`load`, but the game this process last read or wrote at ``path`` is reused
    while the file holds the same bytes (it is read, not parsed again)."""
    return load_versioned(path)[0]


def load_versioned(path: Path) -> tuple[Game, str]:
    """:func:`load_cached`, and the :func:`version` of the bytes the game was read from (one
    read of the file: the game and the version are of one state of it)."""
    if not files.check_regular_if_exists(path, N_("the ledger"), LedgerError):
        raise LedgerError(_("no game here (start one with 'prefcalc new')"), str(path))
    game, signature = _cached_load(files.real_path(path), str(path))
    return game, signature.hex()


def version(raw: bytes) -> str:
    """A ledger's version: the hex sha256 of its bytes. It changes with every write of the
    ledger (a deal, a change of terms, a late arrival, a gender, an edit, an undo), by
    whoever made it; the same bytes are the same version in any process."""
    return _signature(raw).hex()


def _load(path: Path, shown: str) -> Game:
    """Read the ledger at ``path``; errors name ``shown`` (the path as the user wrote it)."""
    raw = _read(path, shown)
    return _parse(raw, _signature(raw), shown)


def _parse(raw: bytes, signature: bytes, shown: str) -> Game:
    """The game of a ledger's bytes: trusted when this program wrote the same bytes and they
    read back exactly (:mod:`prefcalc.store.trusted`), else validated in full."""
    if trusted.vouched(signature):
        game = trusted_game(raw)
        if game is not None:
            return game
    return game_from_bytes(raw, shown)


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
        before = _cached_load(real, str(path))[0]
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
    if text is None:
        text = game_to_json_text(game)
    signature = _signature(text.encode("utf-8") if raw is None else raw)
    known.keep(real, signature, game)
    trusted.vouch(signature)
    conventions.keep(game.convention)
    pending = known.written(game)
    if pending is not None:
        checkpoint.save(signature.hex(), trusted.program(), pending)


def _cached_load(real: Path, shown: str) -> tuple[Game, bytes]:
    """The game at ``real`` and the digest of the bytes it was read from: the game this
    process last read or wrote there if the file still holds the same bytes (a long session
    parses the ledger again only when another process changed it,
    :mod:`prefcalc.store.known`), else read afresh. The file is read every time (under the
    lock when called by :func:`update`); only the parsing is saved."""
    raw = _read(real, shown)
    signature = _signature(raw)
    game = known.game_at(real, signature)
    if game is None:
        game = _parse(raw, signature, shown)
        known.keep(real, signature, game)
    return game, signature


# --- checkpoints ----------------------------------------------------------------------------
#
# The state of a game after its last deal, computed by the caller (scoring), is kept for the
# next command in the cache folder (prefcalc.store.checkpoint), keyed by the digest of the
# ledger's bytes and this program's identity: a command that records a deal then resumes from
# it instead of replaying the night. The value is the caller's plain JSON data; the store never
# looks inside it.


def stored_checkpoint(game: Game) -> Any | None:
    """The checkpoint kept for ``game``: the value :func:`keep_checkpoint` was given for the
    very ledger bytes ``game`` was read from, by this code; None when there is none (a file
    changed by another hand, another version, a game not read from a file, a cache that
    cannot be used). The caller must treat a value it cannot read as None."""
    signature = known.digest_of(game)
    if signature is None:
        return None
    return checkpoint.load(signature.hex(), trusted.program())


def keep_checkpoint(game: Game, value: Any) -> None:
    """Keep ``value`` (plain JSON data, see :func:`prefcalc.store.checkpoint.save`) as the
    checkpoint of ``game``: at once if ``game`` is what a ledger holds now (it was just
    written or read), else when ``game`` is written (give it inside the change of
    :func:`update`: the game the change returns is written next). Best effort: a cache that
    cannot be written costs the next command a replay."""
    signature = known.digest_of(game)
    if signature is None:
        checkpoint.check(value)  # a value that is not JSON data raises now, not at the write
        known.wait_for_write(game, value)
        return
    checkpoint.save(signature.hex(), trusted.program(), value)


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
