"""``prefcalc play`` on a pseudo-terminal, as a busy machine treats it: a signal ends the
session with the terminal as it was (echo back on), and the history of typed lines may be a
FIFO, a folder or read-only without hanging or breaking the session.

No sleeping: every step waits for the text it expects (a generous timeout only fails a hung
test); a signal is sent once the prompt that waits in raw mode is on the screen.
"""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

import pytest

from prefcalc import api
from prefcalc.play import HISTORY_KEPT, append_history, history_path, read_history

pytest.importorskip("pty")
pytest.importorskip("prompt_toolkit")
termios = pytest.importorskip("termios")

from tests.test_play_pty import HUNG, Terminal  # noqa: E402


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    api.save(api.new_game(["Anna", "Boris", "Vera"], "sochi", 20), path)
    return path


def _history_file(game: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the session (run with XDG_DATA_HOME=<tmp>/data) keeps the game's typed lines."""
    monkeypatch.setenv("XDG_DATA_HOME", str(game.parent / "data"))
    file = history_path(game)
    file.parent.mkdir(parents=True, exist_ok=True)
    return file


def _echo_and_lines(fd: int) -> bool:
    lflag = termios.tcgetattr(fd)[3]
    return bool(lflag & termios.ECHO) and bool(lflag & termios.ICANON)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_keeps_the_deals_and_restores_the_terminal(game: Path, signum: int) -> None:
    t = Terminal(game, game.parent / "data")
    try:
        assert _echo_and_lines(t.master)  # the terminal as the user had it
        t.expect("[1 · Anna deals · ≥6] >")
        t.line("a 7h 7 b:w v:p", "recorded: deal 1", prompt="[2 · Boris deals · ≥6] >")
        t.type("b 6s")  # typed, not entered: the prompt holds the terminal in raw mode
        t.expect("b 6s")
        assert not _echo_and_lines(t.master)
        t.proc.send_signal(signum)
        assert t.proc.wait(timeout=HUNG) == 128 + signum
        assert _echo_and_lines(t.master)  # echo and line editing are back
    finally:
        t.close()
    assert len(api.load(game).entries) == 1


def _session_with_a_bad_history(game: Path, note: str) -> None:
    t = Terminal(game, game.parent / "data")
    try:
        t.expect(note)
        t.expect("[1 · Anna deals · ≥6] >")
        t.line("a 7h 7 b:w v:p", "recorded: deal 1", prompt="[2 · Boris deals · ≥6] >")
        t.line("show", "lowest contract", prompt="[2 · Boris deals · ≥6] >")
        t.type("\x1b[A")  # Up: this session's own lines are still there
        t.expect("show")
        t.type("\x15quit\r")  # Ctrl-U clears the recalled line
        assert t.proc.wait(timeout=HUNG) == 0
        text = t.text()
    finally:
        t.close()
    assert text.count("cannot be used") == 1  # said once
    assert "Press ENTER" not in text and "Traceback" not in text
    assert len(api.load(game).entries) == 1


def test_a_fifo_as_the_history_never_hangs_the_session(
    game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = _history_file(game, monkeypatch)
    os.mkfifo(file)
    _session_with_a_bad_history(game, "the history file is not a regular file (it is a FIFO")
    assert stat.S_ISFIFO(os.stat(file).st_mode)


def test_a_folder_as_the_history_is_said_once(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = _history_file(game, monkeypatch)
    file.mkdir()
    _session_with_a_bad_history(game, "it is a folder")
    assert file.is_dir() and not any(file.iterdir())


def test_a_read_only_history_breaks_nothing(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = _history_file(game, monkeypatch)
    append_history(file, "m a 0")
    file.chmod(0o444)
    t = Terminal(game, game.parent / "data")
    try:
        t.expect("[1 · Anna deals · ≥6] >")
        t.type("\x1b[A")  # Up: the line typed in an earlier session
        t.expect("m a 0")
        t.line("", "recorded: deal 1", prompt="[2 · Boris deals · ≥6] >")
        t.type("quit\r")
        assert t.proc.wait(timeout=HUNG) == 0
        text = t.text()
    finally:
        t.close()
    assert "Traceback" not in text and "Press ENTER" not in text
    assert len(api.load(game).entries) == 1


# --- the history file without a terminal ---------------------------------------------------


def test_the_history_reads_what_prompt_toolkit_wrote(tmp_path: Path) -> None:
    from prompt_toolkit.history import FileHistory

    file = tmp_path / "h.txt"
    FileHistory(str(file)).store_string("a 7h 7 b:w v:p")
    append_history(file, "show")
    FileHistory(str(file)).store_string("two\nlines")
    assert read_history(file) == (["a 7h 7 b:w v:p", "show", "two\nlines"], True, None)
    assert list(FileHistory(str(file)).load_history_strings()) == [
        "two\nlines",
        "show",
        "a 7h 7 b:w v:p",
    ]


def test_a_missing_history_is_made_on_first_use(tmp_path: Path) -> None:
    file = tmp_path / "data" / "history" / "h.txt"
    assert read_history(file) == ([], True, None)
    append_history(file, "show")
    assert read_history(file)[0] == ["show"]


def test_a_fifo_or_folder_history_is_refused_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    typed, keep, problem = read_history(fifo)
    assert (typed, keep) == ([], False)
    assert problem is not None and "it is a FIFO (named pipe)" in problem
    folder = tmp_path / "folder.txt"
    folder.mkdir()
    typed, keep, problem = read_history(folder)
    assert (typed, keep) == ([], False)
    assert problem is not None and "it is a folder" in problem


def test_a_huge_history_is_read_from_its_end(tmp_path: Path) -> None:
    file = tmp_path / "h.txt"
    entries = HISTORY_KEPT // 10  # about 20 bytes each: twice what is read
    with file.open("w", encoding="utf-8") as handle:
        for k in range(entries):
            handle.write(f"\n# time\n+line {k}\n")
    typed, keep, _problem = read_history(file)
    assert keep and typed[-1] == f"line {entries - 1}"
    assert entries // 4 < len(typed) < entries
    assert typed[0] == f"line {entries - len(typed)}"
    assert all(line.startswith("line ") for line in typed)  # whole entries only


# --- when a signal is acted on --------------------------------------------------------------


def test_a_signal_while_a_line_is_carried_out_waits_for_the_line() -> None:
    from prefcalc.play import _Signalled, _Signals

    signals = _Signals()
    signals.busy = True
    signals.handler(signal.SIGTERM, None)  # no exception in the middle of a write
    signals.handler(signal.SIGHUP, None)  # a second one changes nothing
    signals.busy = False
    with pytest.raises(_Signalled) as caught:
        signals.check()  # after the line
    assert caught.value.signum == signal.SIGHUP


def test_a_signal_between_lines_ends_the_session_at_once() -> None:
    from prefcalc.play import _Signalled, _Signals

    signals = _Signals()
    signals.check()  # nothing came: nothing happens
    with pytest.raises(_Signalled):
        signals.handler(signal.SIGTERM, None)


def test_a_signal_before_the_prompt_runs_ends_it_as_it_starts() -> None:
    from prefcalc.play import _Signalled, _Signals

    class App:  # a prompt about to start: no event loop yet
        loop = None
        is_running = True

        def __init__(self) -> None:
            import asyncio

            self.future: asyncio.Future[str] = asyncio.new_event_loop().create_future()

        def exit(self, exception: BaseException) -> None:
            self.future.set_exception(exception)

    signals = _Signals()
    signals.app = app = App()
    signals.handler(signal.SIGTERM, None)  # waits for the prompt to start
    assert not app.future.done()
    signals.leave()  # the prompt's pre_run
    assert isinstance(app.future.exception(), _Signalled)
    app.future.get_loop().close()
