"""``prefcalc play``: the session the scorekeeper keeps open all night.

Each line is a deal or a command in the CLI's shorthand without the ``prefcalc`` prefix
(``game Anna 7h 7 Boris:w Vera:p``, or bare: ``a 7h 7 b:w v:p``). This is a front end: every
line goes through :mod:`prefcalc.api`, and every accepted change is written to the ledger at
once by :func:`prefcalc.api.update` (atomic, under the lock), so quitting, a crash or a
second terminal at any moment loses nothing. Between lines the session keeps the loaded game
(and the API its sheet); the ledger is read for each line and parsed again only when its bytes
changed (whoever changed them, however fast).

On a terminal the prompt is prompt_toolkit's (completion, a history per game); otherwise the
same lines are read from stdin, each line standing alone (never read as the answer to a
question); at the end of input the session ends with exit code 0, or 2 when any line was
refused. prompt_toolkit is imported only for the terminal.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import shlex
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from prefcalc import api
from prefcalc.errors import NotationError, PrefcalcError, one_line
from prefcalc.rules.model import Entry, Game, deal_count, seating, sitting_out
from prefcalc.rules.notation import NOTATION_FLAGS, kind_of, resolve_player
from prefcalc.store import files
from prefcalc.store.files import BOM

COMMANDS = (
    "game",
    "misere",
    "passes",
    "adjust",
    "join",
    "undo",
    "redo",
    "insert",
    "edit",
    "delete",
    "show",
    "log",
    "settle",
    "explain",
    "set",
    "help",
    "quit",
)

SHORT_KINDS = {
    "m": "misere", "м": "misere",
    "p": "passes", "р": "passes", "рас": "passes",
}  # fmt: skip
"""At the start of a line ``m``/``м`` always mean misère and ``p``/``р``/``рас`` passes
(``мизер`` and ``распасы`` are deal kinds anyway): a player whose name starts with M, P, М
or Р is written there with one more letter (``ма 7ч 7 п:в в:п`` for Маша)."""

QUIT = frozenset({"quit", "exit", "q", "выход"})

HELP = """\
A line is a deal or a command (names may be shortened to a unique prefix):
  game Anna 7h 7 Boris:w Vera:p     a contract (or bare: a 7h 7 b:w v:p)
  misere Anna 0 | m a 0             a misère and the declarer's tricks
  passes 2 5 3 | p a=2 b=5 v=3      an all-pass deal (bare tricks in seating order)
  adjust Anna --mountain 5 --note "why"
  join Dima --after Vera            a late arrival takes his seat (up to five players)
  undo, redo                        remove the last deal / put it back
  insert N <deal>                   a forgotten deal as deal N (later dealers re-derived)
  edit N <deal>, delete N           replace / remove deal N
  set target=30, set whist_price=0.5   a change of terms, recorded like a deal
  show, log, explain N, settle [average] [whole]
  help, quit
A deal takes --dealer NAME and --force. Russian works too: маша 7ч 7 п:в в:п (a game),
  м маша 0 | мизер маша 0, р 2 5 3 | рас 2 5 3 | распасы 2 5 3 (м, р: misère, passes)
Suits s c d h nt (п т б ч бк); roles w wN p h (в вN п пв)."""

DEAL_OPTIONS = ("--dealer", "--force")


class Quit(Exception):
    """The scorekeeper ended the session."""


class Session:
    """One open ledger and the lines typed at it."""

    def __init__(
        self,
        path: Path,
        out: Callable[[str], None],
    ) -> None:
        self.path = path
        self.out = out

    # --- state ---------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return api.load_current(self.path)

    def prompt(self) -> str:
        """``[14 · Vera deals · ≥7] >``: the next deal's number, its dealer, the lowest
        legal contract (or that the game is finished). At four players the dealer sits out
        (``Vera deals, sits out``), at five the next player too (``Vera deals, sits out
        with Gleb``): who holds no cards is what the model says (:func:`sitting_out`)."""
        game = self.game
        sheet = api.sheet(game)
        number = len(game.entries) + 1
        if sheet.finished:
            return f"[{number} · finished] > "
        dealer = sheet.next_dealer
        out = sitting_out(seating(game), dealer)
        others = [p for p in out if p != dealer]
        sits = (", sits out" + (f" with {' and '.join(others)}" if others else "")) if out else ""
        return f"[{number} · {dealer} deals{sits} · ≥{sheet.min_level}] > "

    # --- one line ---------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """Carry out one line; a refused line raises :class:`PrefcalcError`, ``quit``
        raises :class:`Quit`."""
        text = line.strip()
        if not text or text.startswith("#"):
            return
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise NotationError(f"cannot read the line: {exc}") from None
        if not words:
            return
        head = words[0].lower()
        rest = words[1:]
        if head in QUIT:
            raise Quit
        if head in ("help", "?", "помощь"):
            self.out(HELP)
            return
        if head == "show":
            self._no_args(head, rest)
            self._show()
        elif head == "log":
            from prefcalc.views.text import log_text

            self._no_args(head, rest)
            self.out(log_text(api.sheet(self.game)))
        elif head == "settle":
            self._settle(rest)
        elif head == "explain":
            self._explain(rest)
        elif head == "undo":
            self._no_args(head, rest)
            self._undo()
        elif head == "redo":
            self._no_args(head, rest)
            self._redo()
        elif head == "delete":
            self._delete(rest)
        elif head == "edit":
            self._edit(rest)
        elif head == "insert":
            self._insert(rest)
        else:
            self._record(words)

    def _no_args(self, command: str, rest: Sequence[str]) -> None:
        if rest:
            raise NotationError(f"{command} takes nothing after it, not '{rest[0]}'")

    # --- viewing ---------------------------------------------------------------------------

    def _show(self) -> None:
        from prefcalc.views.text import sheet_text

        game = self.game
        self.out(sheet_text(api.sheet(game), game))

    def _settle(self, rest: Sequence[str]) -> None:
        from prefcalc.views.text import settlement_text

        method: api.Method = "pairwise"
        rounding: api.Rounding = "exact"
        for word in rest:
            w = word.lower()
            if w in ("pairwise", "average"):
                method = "pairwise" if w == "pairwise" else "average"
            elif w in ("exact", "whole"):
                rounding = "exact" if w == "exact" else "whole"
            else:
                raise NotationError(
                    f"settle takes pairwise or average, exact or whole, not '{word}'"
                )
        game = self.game
        if not api.sheet(game).finished:
            self.out(f"(provisional: the game is not finished, {deal_count(game)} deals)")
        self.out(settlement_text(api.settle(game, method, rounding)))

    def _explain(self, rest: Sequence[str]) -> None:
        from prefcalc.views.text import explain_text

        game = self.game
        number = _number(rest, "explain N")
        api.check_number(game, number)
        self.out(explain_text(api.sheet(game), number))

    # --- changing ----------------------------------------------------------------------------

    def _after(self, game: Game, number: int, verb: str = "recorded") -> None:
        """What deal ``number`` wrote, then the compact sheet."""
        from prefcalc.views.text import compact_text, explain_text

        sheet = api.sheet(game)
        self.out(f"{verb}: {explain_text(sheet, number)}")
        self.out(compact_text(sheet, game))

    def _record(self, words: list[str]) -> None:
        deal, dealer, force = self._deal(words)
        game = api.update(self.path, lambda g: api.record(g, deal, dealer=dealer, force=force))
        self._after(game, len(game.entries))
        note = api.repeat_note(game, len(game.entries))
        if note:
            self.out(note)

    def _deal(self, words: list[str]) -> tuple[list[str], str | None, bool]:
        """The deal's words in the notation, and its ``--dealer`` and ``--force``."""
        head = words[0]
        kind = SHORT_KINDS.get(head.lower()) or kind_of(head)
        if kind is None:
            try:  # a line that starts with a player is a game
                resolve_player(head, seating(self.game))
            except NotationError:
                hint = _suggest(head.lower(), COMMANDS) or " (type help for the commands)"
                raise NotationError(f"'{head}' is neither a command nor a player{hint}") from None
            words = ["game", *words]
        else:
            words = [kind, *words[1:]]
        if words[0] in ("adjust", "join"):
            return words, None, False  # its options belong to it
        dealer: str | None = None
        force = False
        rest: list[str] = []
        items = iter(words)
        for word in items:
            key, eq, value = word.partition("=")
            if word == "--force":
                force = True
            elif key == "--dealer":
                dealer = value if eq else next(items, None)
                if not dealer:
                    raise NotationError("--dealer needs a name")
            elif word.startswith("--") and key not in NOTATION_FLAGS:
                choices = (*DEAL_OPTIONS, *NOTATION_FLAGS)
                raise NotationError(f"no such option '{key}'" + _suggest(key, choices))
            else:
                rest.append(word)
        return rest, dealer, force

    def _undo(self) -> None:
        from prefcalc.views.text import compact_text, deal_text

        game, removed = api.undo_file(self.path)
        self.out(f"removed deal {len(game.entries) + 1}: {deal_text(removed)} (redo puts it back)")
        self.out(compact_text(api.sheet(game), game))

    def _redo(self) -> None:
        game, _entry = api.redo_file(self.path)
        self._after(game, len(game.entries), "put back")

    def _delete(self, rest: list[str]) -> None:
        from prefcalc.views.text import compact_text, deal_text

        force = "--force" in rest
        number = _number([w for w in rest if w != "--force"], "delete N")
        removed: list[Entry] = []

        def change(game: Game) -> Game:
            after = api.delete(game, number, force=force)
            removed.append(game.entries[number - 1])
            return after

        game = api.update(self.path, change)
        self.out(f"deleted deal {number}: {deal_text(removed[0])}")
        self.out(compact_text(api.sheet(game), game))

    def _edit(self, rest: list[str]) -> None:
        from prefcalc.views.text import deal_text

        if not rest:
            raise NotationError("edit N <deal>, e.g. edit 3 game Anna 7h 6 Boris:w Vera:p")
        number = _number(rest[:1], "edit N <deal>")
        deal, dealer, force = self._deal(rest[1:]) if rest[1:] else ([], None, False)
        replaced: list[Entry] = []

        def change(game: Game) -> Game:
            api.check_number(game, number)
            replaced.append(game.entries[number - 1])
            return api.edit(game, number, deal, dealer=dealer, force=force)

        game = api.update(self.path, change)
        self.out(f"replaced deal {number}: {deal_text(replaced[0])}")
        self._after(game, number, "now")

    def _insert(self, rest: list[str]) -> None:
        if not rest:
            raise NotationError("insert N <deal>, e.g. insert 3 misere Anna 0")
        number = _number(rest[:1], "insert N <deal>")
        deal, dealer, force = self._deal(rest[1:]) if rest[1:] else ([], None, False)
        if dealer is not None:
            raise NotationError("insert finds the dealer itself (no --dealer)")
        game = api.update(self.path, lambda g: api.insert(g, number, deal, force=force))
        self._after(game, number, "inserted")
        self.out(f"next dealer {api.sheet(game).next_dealer}")


def _number(words: Sequence[str], usage: str) -> int:
    if len(words) != 1:
        raise NotationError(f"write {usage}")
    try:
        return int(words[0])
    except ValueError:
        raise NotationError(f"a deal number is a whole number, not '{words[0]}'") from None


def _suggest(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


# --- running ---------------------------------------------------------------------------------

MAX_LINE = 4096
"""Bytes in one line at most. A deal or a command is a few dozen; a longer line is refused
before it is split into words (the splitting into words and the "did you mean" suggestions
take time that grows with the square of a line's length: a 1 MB line took half a minute)."""

EXIT_REFUSED = 2
"""``play`` on standard input ends with this code when any line was refused (each refusal is
one line on stderr with its line number), as every other refusal of the CLI does."""


def run(path: Path) -> int:
    """The session on ``path``: a prompt on a terminal, else the lines of stdin."""
    api.load_current(path)  # a missing or unreadable ledger is refused before anything
    stdin, stdout = sys.stdin, sys.stdout  # None when the descriptor was closed
    if _isatty(stdin) and _isatty(stdout):
        return _terminal(path)
    return run_lines(path, stdin, stdout, sys.stderr)


def _isatty(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):  # a closed stream
        return False


def run_lines(
    path: Path,
    lines: IO[bytes] | IO[str] | None,
    out: IO[str] | None,
    err: IO[str] | None,
) -> int:
    """The session without a terminal: each line of ``lines`` in turn, results on ``out``,
    a refused line's one-line error on ``err`` (with its line number).

    Every line is a line: nothing is ever read as the answer to a question (a question is
    asked only on a terminal; here it gets no answer). Each line stands alone: one that is
    not UTF-8 or is longer than :data:`MAX_LINE` bytes is refused with its number and the
    others are carried out. A closed or broken output (``| head -c1``) is noted once on
    ``err`` and the session goes on recording: a deal written to the ledger is never
    reported as failed. Returns 0 when every line was accepted, :data:`EXIT_REFUSED` when
    any was refused.
    """
    output = _Output(out, err)
    refused = False

    session = Session(path, output.say)
    for count, line in enumerate(_lines(lines), start=1):
        try:
            if isinstance(line, PrefcalcError):
                raise line
            session.handle(line)
        except Quit:
            break
        except (PrefcalcError, OSError) as exc:  # OSError: e.g. a full disk; writes are atomic
            refused = True
            output.error(f"prefcalc: error: line {count}: {one_line(str(exc))}")
    return EXIT_REFUSED if refused else 0


def _lines(stream: IO[bytes] | IO[str] | None) -> Iterator[str | PrefcalcError]:
    """The lines of ``stream`` as text, or the refusal of a line that cannot be one.

    A binary stream is read (a text one's own ``buffer`` when it has one), so each line is
    decoded alone; a line is read at most :data:`MAX_LINE` bytes at a time and the rest of a
    longer one is skipped in chunks (linear time, bounded memory). A closed input ends it;
    one that fails ends it with the refusal of the line that could not be read.
    """
    if stream is None:
        return
    source = getattr(stream, "buffer", stream)
    first = True
    while True:
        try:
            chunk = source.readline(MAX_LINE + 1)
        except ValueError:  # closed under us: the end of the lines
            return
        except OSError as exc:  # e.g. a folder as stdin: said, and the end of the lines
            yield PrefcalcError(f"cannot read standard input: {exc.strerror or exc}")
            return
        if not chunk:
            return
        raw = chunk.encode("utf-8", "surrogateescape") if isinstance(chunk, str) else chunk
        if first and raw.startswith(BOM):  # a file saved by Windows Notepad
            raw = raw[len(BOM) :]
        first = False
        ended = raw.endswith(b"\n")
        size = len(raw) - ended
        if size > MAX_LINE:
            if not ended:
                size += _skip_line(source)
            yield _too_long(size)
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield NotationError(
                f"the line is not UTF-8 text (byte 0x{raw[exc.start]:02x} at column "
                f"{exc.start + 1}) and was not read"
            )


def _too_long(size: int) -> NotationError:
    return NotationError(
        f"the line is too long ({size:,} bytes; a line is at most {MAX_LINE:,} bytes)"
        " and was not read"
    )


def _skip_line(source: IO[bytes] | IO[str]) -> int:
    """Read and drop the rest of a line; return how many bytes it had."""
    skipped = 0
    while True:
        try:
            chunk = source.readline(65536)
        except (OSError, ValueError):
            return skipped
        raw = chunk.encode("utf-8", "surrogateescape") if isinstance(chunk, str) else chunk
        if raw.endswith(b"\n"):
            return skipped + len(raw) - 1
        skipped += len(raw)
        if not raw:
            return skipped


class _Output:
    """The results and the errors of a session on stdin. A stream that is closed or breaks
    (a reader that went away: ``| head -c1``) is left alone from then on; a broken output is
    noted once on the error stream, and the lines are still carried out and recorded."""

    def __init__(self, out: IO[str] | None, err: IO[str] | None) -> None:
        self.out = out
        self.err = err
        self.noted = False

    def say(self, text: str) -> None:
        if self.out is None:
            self._note("no standard output")
            return
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except (OSError, ValueError) as exc:  # ValueError: a stream closed under us
            _silence(self.out)
            self.out = None
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self._note(reason)

    def _note(self, reason: str) -> None:
        if not self.noted:
            self.noted = True
            self.error(
                f"prefcalc: the output is closed ({one_line(reason)}); "
                "the lines are still carried out and recorded, without their results"
            )

    def error(self, text: str) -> None:
        if self.err is None:
            return
        try:
            self.err.write(text + "\n")
            self.err.flush()
        except (OSError, ValueError):
            _silence(self.err)
            self.err = None


def _silence(stream: IO[str]) -> None:
    """Point a broken standard stream at the null device, so that what is still buffered
    in it is dropped quietly when the process exits (instead of a second error there)."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError):
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


def history_path(path: Path) -> Path:
    """The typed lines of a game, kept across sessions: one history file per ledger in the
    data directory (never beside the ledger)."""
    import hashlib

    from prefcalc.store.ledger import data_dir

    real = path.resolve()
    digest = hashlib.sha256(str(real).encode()).hexdigest()[:12]
    stem = "".join(c for c in real.stem if c.isalnum() or c in "-_")[:40] or "game"
    return data_dir() / "history" / f"{stem}-{digest}.txt"


HISTORY_KEPT = 1024 * 1024
"""Bytes read at most from the end of a game's history of typed lines (thousands of lines)."""

_HISTORY_OPEN = (
    getattr(os, "O_NONBLOCK", 0)  # a FIFO put in its place never blocks the session
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def _open_history_file(file: Path, flags: int) -> int:
    """A descriptor of the regular file ``file`` (links followed), opened without ever
    blocking; a FIFO, a folder or a device is refused with :class:`PrefcalcError`."""
    files.check_regular_if_exists(file, "the history file")  # a FIFO is never opened
    fd = os.open(file, flags | _HISTORY_OPEN, 0o600)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # put in place after the check above
            raise PrefcalcError(
                f"the history file is not a regular file (it is {files.kind_of(mode)})"
            )
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_history(file: Path) -> tuple[list[str], bool, str | None]:
    """The lines typed at a game before (oldest first, at most the last
    :data:`HISTORY_KEPT` bytes of them), whether this session can add its own, and why not
    (``None`` when it can). A missing file is an empty history that is created on first use;
    a folder, a FIFO or a device in its place is never opened for reading or waited on."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd = _open_history_file(file, os.O_RDONLY)
    except FileNotFoundError:
        raw = b""
    except (OSError, PrefcalcError) as exc:
        return [], False, _history_problem(file, exc)
    else:
        with os.fdopen(fd, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > HISTORY_KEPT:
                handle.seek(size - HISTORY_KEPT)
            raw = handle.read(HISTORY_KEPT)
        if size > HISTORY_KEPT:  # start at a whole entry
            at = raw.find(b"\n#")
            raw = raw[at + 1 :] if at >= 0 else b""
    try:
        os.close(_open_history_file(file, os.O_WRONLY | os.O_APPEND | os.O_CREAT))
    except (OSError, PrefcalcError) as exc:
        return _history_lines(raw), False, _history_problem(file, exc)
    return _history_lines(raw), True, None


def _history_lines(raw: bytes) -> list[str]:
    """The entries of a history file in prompt_toolkit's format (``+`` before each line of an
    entry, ``#`` comments between entries), oldest first."""
    entries: list[str] = []
    lines: list[str] = []
    for line in raw.decode("utf-8", "replace").splitlines():
        if line.startswith("+"):
            lines.append(line[1:])
        elif lines:
            entries.append("\n".join(lines))
            lines = []
    if lines:
        entries.append("\n".join(lines))
    return entries


def append_history(file: Path, line: str) -> None:
    """Add ``line`` to the history file (opened with the same care as for reading)."""
    from datetime import datetime

    text = f"\n# {datetime.now()}\n" + "".join(f"+{part}\n" for part in line.split("\n"))
    data = text.encode("utf-8", "replace")
    fd = _open_history_file(file, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        while data:
            data = data[os.write(fd, data) :]
    finally:
        os.close(fd)


def _history_problem(file: Path, exc: OSError | PrefcalcError) -> str:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return (
        f"the history of typed lines ({file}) cannot be used: {one_line(reason)}; "
        "this session keeps its lines only until it ends"
    )


class _Signalled(BaseException):
    """SIGTERM or SIGHUP reached the session: it ends (the ledger holds every deal)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class _Signals:
    """SIGTERM and SIGHUP during a session on a terminal, acted on where it is safe.

    At a prompt, the prompt is ended through prompt_toolkit's own way out (which leaves raw
    mode first): from its event loop if it runs, else as it starts (``pre_run``) or right
    after it returned. While a line is carried out the signal waits for the line to end, so
    its deal is written or refused as a whole. Anywhere else it ends the session at once.
    """

    def __init__(self) -> None:
        self.pending: int | None = None
        self.busy = False  # a line is being carried out
        self.app: Any = None  # the prompt_toolkit application while a prompt is shown

    def handler(self, signum: int, _frame: object) -> None:
        first = self.pending is None
        self.pending = signum
        if not first:
            return
        if self.app is not None:
            loop = getattr(self.app, "loop", None)
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self.leave)
            return
        if not self.busy:
            raise _Signalled(signum)

    def leave(self) -> None:
        """End the prompt on the screen if a signal came (in its event loop, or as it
        starts)."""
        app = self.app
        if self.pending is None or app is None:
            return
        if app.is_running and app.future is not None and not app.future.done():
            app.exit(exception=_Signalled(self.pending))

    def check(self) -> None:
        """Between two steps: end the session if a signal came."""
        if self.pending is not None:
            raise _Signalled(self.pending)


def _terminal(path: Path) -> int:  # pragma: no cover - exercised by the pseudo-terminal tests
    """The session on a terminal. Whatever ends it (quit, Ctrl-D, SIGTERM, SIGHUP, an
    error), the terminal's settings are restored as they were at the start (prompt_toolkit
    puts the terminal in raw mode while it waits for a line). A signal ends it with exit
    code 128 + its number, every deal recorded before it kept (see :class:`_Signals`)."""
    import signal
    import termios

    fd = sys.stdin.fileno()
    try:
        saved: list[Any] | None = termios.tcgetattr(fd)
    except (termios.error, OSError):
        saved = None
    signals = _Signals()
    wanted = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {signum: signal.signal(signum, signals.handler) for signum in wanted}
    try:
        return _prompt_loop(path, signals)
    except (_Signalled, OSError) as exc:
        if isinstance(exc, OSError) and signals.pending is None:
            raise  # not the way out of a signal
        return 128 + (signals.pending or 0)  # an OSError: the hung-up terminal's EIO
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if saved is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _prompt_loop(path: Path, signals: _Signals) -> int:  # pragma: no cover - pty tests
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer
    from prompt_toolkit.history import InMemoryHistory

    from prefcalc.completion import completer, tab_bindings

    def say(text: str) -> None:
        with contextlib.suppress(OSError, ValueError):  # a hung-up terminal
            print(text, flush=True)

    def warn(text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(text, file=sys.stderr, flush=True)

    file = history_path(path)
    typed, keep, problem = read_history(file)
    last = typed[-1] if typed else None
    history = InMemoryHistory()
    for line in typed:
        history.append_string(line)
    if problem is not None:
        warn(f"note: {problem}")

    prompt: PromptSession[str] = PromptSession(
        history=history,
        complete_while_typing=False,  # Tab completes; no menu pops up while a deal is typed
        reserve_space_for_menu=4,
        key_bindings=tab_bindings(),
    )

    def read(message: str, complete: Completer | None) -> str:
        signals.check()
        signals.app = prompt.app
        try:
            return prompt.prompt(message, completer=complete, pre_run=signals.leave)
        finally:
            signals.app = None
            signals.check()

    session = Session(path, say)
    say(f"prefcalc play: {path} (help for the commands, quit or Ctrl-D to leave)")
    while True:
        try:
            game = session.game
            line = read(session.prompt(), completer(game))
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        except PrefcalcError as exc:  # the ledger became unreadable under us
            warn(f"error: {one_line(str(exc))}")
            return 2
        signals.busy = True
        try:
            if keep and line.strip() and line != last:  # as prompt_toolkit keeps them
                last = line
                try:
                    append_history(file, line)
                except (OSError, PrefcalcError) as exc:
                    keep = False
                    warn(f"note: {_history_problem(file, exc)}")
            size = len(line.encode("utf-8", "surrogateescape"))
            if size > MAX_LINE:
                raise _too_long(size)
            session.handle(line)
        except Quit:
            return 0
        except (PrefcalcError, OSError) as exc:  # refused (or the disk failed): nothing lost
            warn(f"error: {one_line(str(exc))}")
        except KeyboardInterrupt:  # Ctrl-C while a line was carried out: its write is whole
            warn("interrupted (show tells what the ledger holds)")
        finally:
            signals.busy = False
        signals.check()
