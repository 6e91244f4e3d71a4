"""``prefcalc play`` on a pseudo-terminal: the prompt, Tab completion, the history of the
game across sessions, every command, a refused line, and a kill mid-session.

No sleeping: every step waits until the text it expects has appeared (a generous timeout
only fails a hung test), and a kill happens after a chosen line was answered.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from prefcalc import api

pty = pytest.importorskip("pty")
pytest.importorskip("prompt_toolkit")

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][AB0-2]|\x1b[=>]|\r|\x08")
HUNG = 60.0  # seconds: only a hung session ever waits this long


class Terminal:
    """``prefcalc play`` on a pseudo-terminal, read as plain text (escape codes removed)."""

    def __init__(self, path: Path, data: Path) -> None:
        master, slave = pty.openpty()
        env = {
            **os.environ,
            "TERM": "xterm",
            "PROMPT_TOOLKIT_NO_CPR": "1",  # no cursor-position queries to answer
            "XDG_DATA_HOME": str(data),
            "PYTHONIOENCODING": "utf-8",
        }
        env.pop("PREFCALC_FILE", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "prefcalc", "play", "--file", str(path)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.raw = b""
        self.seen = 0  # what the test has already matched

    def text(self) -> str:
        return ANSI.sub("", self.raw.decode("utf-8", "replace"))

    def expect(self, wanted: str) -> str:
        """Wait until ``wanted`` appears after what was matched before; return the text
        from there up to and including it."""
        deadline = time.monotonic() + HUNG
        while True:
            text = self.text()
            at = text.find(wanted, self.seen)
            if at >= 0:
                chunk = text[self.seen : at + len(wanted)]
                self.seen = at + len(wanted)
                return chunk
            left = deadline - time.monotonic()
            ready = select.select([self.master], [], [], max(0.0, left))[0]
            if not ready:
                raise AssertionError(f"hung waiting for {wanted!r}; got {text[self.seen :]!r}")
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            if not data:
                raise AssertionError(f"ended waiting for {wanted!r}; got {text[self.seen :]!r}")
            self.raw += data

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def line(self, text: str, *answer: str, prompt: str) -> None:
        """Type a line; wait for each part of its ``answer`` in turn, then the next prompt
        (the prompt is redrawn while a line is typed, so it is awaited last)."""
        self.type(text + "\r")
        for part in answer:
            self.expect(part)
        self.expect(prompt)

    def close(self) -> int:
        if self.proc.poll() is None:
            self.proc.kill()
        code = self.proc.wait(timeout=HUNG)
        os.close(self.master)
        return code


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    api.save(api.new_game(["Anna", "Boris", "Vera"], "sochi", 20), path)
    return path


def _open(game: Path) -> Terminal:
    return Terminal(game, game.parent / "data")


def test_a_session_on_a_terminal(game: Path) -> None:
    t = _open(game)
    try:
        t.expect("[1 · Anna deals · ≥6] >")
        t.line(
            "a 7h 7 b:w v:p",
            "recorded: deal 1, dealt by Anna: Anna 7♥ took 7; Boris whist, Vera pass",
            "Boris: +12 whists on Anna",
            "Anna   pool 4/20",
            prompt="[2 · Boris deals · ≥6] >",
        )
        t.type("sh\t")  # Tab completes a command
        t.expect("show")
        t.line("", "lowest contract 6", prompt="[2 · Boris deals · ≥6] >")
        t.type("b\t")  # ... a player at the start of a line
        t.expect("Boris")
        t.type(" 6s 6 Ve\t")  # ... a name later on
        t.expect("Vera")
        t.type(":w A\t")
        t.expect("Anna")
        t.line(":p", "Boris 6♠ took 6; Vera whist, Anna pass", prompt="[3 · Vera deals · ≥6] >")
        t.line(  # a refused line: one error, and the session goes on
            "zzz 1", "error: 'zzz' is neither a command nor a player", prompt="[3 · Vera deals"
        )
        t.line("p 2 5 3", "all-pass: Anna 2, Boris 5, Vera 3", prompt="[4 · Anna deals · ≥6] >")
        t.line("undo", "removed deal 3", prompt="[3 · Vera deals · ≥6] >")
        t.line("redo", "put back: deal 3", prompt="[4 · Anna deals · ≥6] >")
        t.line(
            "insert 1 misere Vera 0",
            "inserted: deal 1, dealt by Anna: Vera misère, took 0",
            prompt="[5 · Boris deals · ≥6] >",
        )
        t.line("edit 2 a 7h 8 b:w v:p", "replaced deal 2: Anna 7♥ took 7", prompt="[5 · Boris")
        # delete re-derives the later dealers (Anna, Boris, Vera now deal 1-3): Anna is next
        t.line("delete 1", "deleted deal 1", prompt="[4 · Anna deals · ≥6] >")
        t.line("set target=30", "target set to 30", prompt="[5 · Anna deals · ≥6] >")
        t.line("explain 1", "deal 1, dealt by Anna: Anna 7♥ took 8", prompt="[5 · Anna deals")
        t.line("settle", "Payments:", prompt="[5 · Anna deals")
        t.line("help", "insert N <deal>", prompt="[5 · Anna deals")
        t.line("log", "dealer  deal", "target set to 30", prompt="[5 · Anna deals")
        t.line("game b 6d 6 v:w a:p", "Boris 6♦ took 6", prompt="[6 · Boris deals · ≥6] >")
        t.line("m a 0", "Anna misère, took 0", prompt="[7 · Vera deals · ≥6] >")
        t.type("quit\r")
        assert t.proc.wait(timeout=HUNG) == 0
    finally:
        t.close()
    assert len(api.load(game).entries) == 6


def test_the_prompt_says_who_sits_out_at_four_and_five(tmp_path: Path) -> None:
    four = tmp_path / "four.json"
    api.save(api.new_game(["Аня", "Боря", "Вова", "Гоша"], "sochi", 20), four)
    t = _open(four)
    try:
        t.expect("[1 · Аня deals, sits out · ≥6] >")
        t.line("б 7ч 7 в:в", "Гоша pass", prompt="[2 · Боря deals, sits out · ≥6] >")
        t.line("delete 1", "deleted deal 1", prompt="[1 · Аня deals, sits out · ≥6] >")
    finally:
        t.close()
    five = tmp_path / "five.json"
    api.save(api.new_game(["Аня", "Боря", "Вова", "Гоша", "Дима"], "sochi", 20), five)
    t = _open(five)
    try:
        t.expect("[1 · Аня deals, sits out with Боря · ≥6] >")
        t.line("в 7ч 7 г:в", "Дима pass", prompt="[2 · Боря deals, sits out with Вова · ≥6] >")
    finally:
        t.close()


def test_tab_completes_contracts_and_roles(game: Path) -> None:
    t = _open(game)
    try:
        t.expect("[1 · Anna deals · ≥6] >")
        t.type("a 10n\t")
        t.expect("10nt")
        t.type(" - b:p\t")  # a defender's role
        t.expect("Boris:p")
        t.type(" ver\t")  # a name in any case
        t.expect("Vera")
        t.line(":p", "recorded: deal 1, dealt by Anna: Anna 10NT not played", prompt="[2 ·")
    finally:
        t.close()
    assert api.load(game).entries[0].deal.level == 10  # type: ignore[union-attr]


def test_tab_completes_the_russian_forms(tmp_path: Path) -> None:
    path = tmp_path / "ru.json"
    api.save(api.new_game(["Маша", "Петя", "Вова"], "sochi", 20), path)
    t = _open(path)
    try:
        t.expect("[1 · Маша deals · ≥6] >")
        t.type("мизе\t")  # a Russian command
        t.expect("мизер")
        t.line(" ма 0", "Маша misère, took 0", prompt="[2 · Петя deals · ≥6] >")
        t.type("ма 10б\t")  # Cyrillic suits: 10б or 10бк
        t.type("к - п:п\t")  # on a 10 no half-whist (пв): Петя:п is the only role
        t.expect("Петя:п")
        t.type(" в:\t")  # several roles fit: the common part (Вова:) is typed, a menu opens
        t.line("п", "Маша 10NT not played", prompt="[3 · Вова deals · ≥6] >")
    finally:
        t.close()
    assert api.load(path).entries[1].deal.level == 10  # type: ignore[union-attr]


def test_the_history_of_a_game_is_kept_across_sessions(game: Path) -> None:
    t = _open(game)
    try:
        t.expect("[1 · Anna deals · ≥6] >")
        t.line("a 7h 7 b:w v:p", "recorded: deal 1", prompt="[2 · Boris deals · ≥6] >")
        t.type("\x04")  # Ctrl-D ends the session
        assert t.proc.wait(timeout=HUNG) == 0
    finally:
        t.close()
    t = _open(game)
    try:
        t.expect("[2 · Boris deals · ≥6] >")
        t.type("\x1b[A")  # Up: the last line typed at this game
        t.expect("a 7h 7 b:w v:p")
    finally:
        t.close()


def test_a_kill_mid_session_loses_nothing(game: Path) -> None:
    t = _open(game)
    try:
        t.expect("[1 · Anna deals · ≥6] >")
        t.line("a 7h 7 b:w v:p", "recorded: deal 1", prompt="[2 · Boris deals · ≥6] >")
        t.line("b 6s 6 v:w a:p", "recorded: deal 2", prompt="[3 · Vera deals · ≥6] >")
        t.proc.send_signal(signal.SIGKILL)  # after the second line was answered
        assert t.proc.wait(timeout=HUNG) == -signal.SIGKILL
    finally:
        t.close()
    assert len(api.load(game).entries) == 2


def test_only_the_terminal_session_imports_prompt_toolkit(game: Path) -> None:
    script = (
        "import sys\n"
        "from prefcalc.cli import main\n"
        "code = main(['play', '--file', sys.argv[1]])\n"
        "print('prompt_toolkit' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(game)],
        input="a 7h 7 b:w v:p\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=HUNG,
        check=False,
        env={**os.environ, "XDG_DATA_HOME": str(game.parent / "data")},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "False"
