"""``prefcalc play``: the session the scorekeeper keeps open all night.

Each line is a deal or a command in the CLI's shorthand without the ``prefcalc`` prefix
(``game Anna 7h 7 Boris:w Vera:p``, or bare: ``a 7h 7 b:w v:p``). This is a front end: every
line is carried out by :func:`prefcalc.table.lines.run_line`, the runner the score page of
``prefcalc serve`` shares (the command layer's grammar and executor through :mod:`prefcalc.api`,
the play view's text), and its text is shown here; every accepted change is written to the ledger at
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
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from prefcalc import api
from prefcalc.errors import NotationError, PrefcalcError, one_line, silence
from prefcalc.i18n import _
from prefcalc.rules.model import Game, seating, sitting_out
from prefcalc.store import files
from prefcalc.store.files import BOM
from prefcalc.table.lines import run_line
from prefcalc.views.results import PLAY_HELP

HELP = PLAY_HELP
"""What ``help`` prints (the play view's text)."""


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
            return _("[{number} · finished] > ").format(number=number)
        dealer = sheet.next_dealer
        out = sitting_out(seating(game), dealer)
        others = [p for p in out if p != dealer]
        if not out:
            text = _("[{number} · {dealer} deals · ≥{level}] > ")
        elif others:
            text = _("[{number} · {dealer} deals, sits out with {others} · ≥{level}] > ")
        else:
            text = _("[{number} · {dealer} deals, sits out · ≥{level}] > ")
        return text.format(
            number=number, dealer=dealer, others=_(" and ").join(others), level=sheet.min_level
        )

    # --- one line ---------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """Carry out one line (:func:`prefcalc.table.lines.run_line`, as the score page does) and
        show what it printed; a refused line raises :class:`PrefcalcError`, ``quit`` raises
        :class:`Quit`."""
        ran = run_line(self.path, line)
        if ran.quit:
            raise Quit
        if ran.result is not None:
            self.out(ran.text)


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
            output.error(
                _("prefcalc: error: line {count}: {error}").format(
                    count=count, error=one_line(_said(exc))
                )
            )
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
            yield PrefcalcError(
                _("cannot read standard input: {reason}").format(reason=files.os_reason(exc))
            )
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
                _(
                    "the line is not UTF-8 text (byte 0x{byte:02x} at column {column})"
                    " and was not read"
                ).format(byte=raw[exc.start], column=exc.start + 1)
            )


def _too_long(size: int) -> NotationError:
    return NotationError(
        _(
            "the line is too long ({size:,} bytes; a line is at most {most:,} bytes)"
            " and was not read"
        ).format(size=size, most=MAX_LINE)
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
            self._note(_("no standard output"))
            return
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except (OSError, ValueError) as exc:  # ValueError: a stream closed under us
            silence(self.out)
            self.out = None
            reason = files.os_reason(exc) if isinstance(exc, OSError) else str(exc)
            self._note(reason)

    def _note(self, reason: str) -> None:
        if not self.noted:
            self.noted = True
            self.error(
                _(
                    "prefcalc: the output is closed ({reason}); "
                    "the lines are still carried out and recorded, without their results"
                ).format(reason=one_line(reason))
            )

    def error(self, text: str) -> None:
        if self.err is None:
            return
        try:
            self.err.write(text + "\n")
            self.err.flush()
        except (OSError, ValueError):
            silence(self.err)
            self.err = None


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
    files.check_regular_if_exists(file, _("the history file"))  # a FIFO is never opened
    fd = os.open(file, flags | _HISTORY_OPEN, 0o600)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # put in place after the check above
            raise PrefcalcError(
                _("the history file is not a regular file (it is {kind})").format(
                    kind=files.kind_of(mode)
                )
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


def _said(exc: PrefcalcError | OSError) -> str:
    """A refusal, or the system's reason a write failed (with the file it names), in the
    language in use."""
    if isinstance(exc, PrefcalcError):
        return str(exc)
    reason = files.os_reason(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason


def _history_problem(file: Path, exc: OSError | PrefcalcError) -> str:
    reason = files.os_reason(exc) if isinstance(exc, OSError) else str(exc)
    return _(
        "the history of typed lines ({file}) cannot be used: {reason}; "
        "this session keeps its lines only until it ends"
    ).format(file=file, reason=one_line(reason))


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

    from prefcalc.completion import completer, passes_hint, passes_order, tab_bindings

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
        warn(_("note: {problem}").format(problem=problem))

    prompt: PromptSession[str] = PromptSession(
        history=history,
        complete_while_typing=False,  # Tab completes; no menu pops up while a deal is typed
        reserve_space_for_menu=4,
        key_bindings=tab_bindings(),
    )

    def read(message: str, complete: Completer | None, order: Sequence[str]) -> str:
        signals.check()
        signals.app = prompt.app

        def hint() -> str:  # on the right while bare all-pass tricks are typed: whose they are
            return passes_hint(prompt.default_buffer.text, order)

        try:
            return prompt.prompt(message, completer=complete, pre_run=signals.leave, rprompt=hint)
        finally:
            signals.app = None
            signals.check()

    session = Session(path, say)
    say(
        _("prefcalc play: {path} (help for the commands, quit or Ctrl-D to leave)").format(
            path=path
        )
    )
    while True:
        try:
            game = session.game
            line = read(session.prompt(), completer(game), passes_order(game))
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        except PrefcalcError as exc:  # the ledger became unreadable under us
            warn(_("error: {error}").format(error=one_line(str(exc))))
            return 2
        signals.busy = True
        try:
            if keep and line.strip() and line != last:  # as prompt_toolkit keeps them
                last = line
                try:
                    append_history(file, line)
                except (OSError, PrefcalcError) as exc:
                    keep = False
                    warn(_("note: {problem}").format(problem=_history_problem(file, exc)))
            size = len(line.encode("utf-8", "surrogateescape"))
            if size > MAX_LINE:
                raise _too_long(size)
            session.handle(line)
        except Quit:
            return 0
        except (PrefcalcError, OSError) as exc:  # refused (or the disk failed): nothing lost
            warn(_("error: {error}").format(error=one_line(_said(exc))))
        except KeyboardInterrupt:  # Ctrl-C while a line was carried out: its write is whole
            warn(_("interrupted (show tells what the ledger holds)"))
        finally:
            signals.busy = False
        signals.check()
