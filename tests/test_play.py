"""``prefcalc play`` reading its lines from stdin (not a terminal): every command, a refused
line, the note on a repeated deal, and the ledger written line by line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from prefcalc import api
from prefcalc.rules.notation import describe
from prefcalc.store.ledger import game_to_json_text
from tests.support import invoke


def _new(tmp_path: Path, *players: str) -> Path:
    path = tmp_path / "g.json"
    result = invoke(["new", *(players or ("Anna", "Boris", "Vera")), "--file", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    return path


def _play(tmp_path: Path, path: Path, lines: str) -> subprocess.CompletedProcess[str]:
    return invoke(["play", "--file", str(path)], tmp_path, input=lines)


def test_a_night_in_one_session(tmp_path: Path) -> None:
    path = _new(tmp_path)
    lines = "\n".join(
        [
            "game Anna 7h 7 Boris:w Vera:p",
            "b 6s 5 v:w3 a:w2",  # bare form: a line that starts with a player is a game
            "p 2 5 3",  # all-pass tricks in seating order
            "m a 0",
            "misere Boris 0 --dealer Anna --force",
            "show",
            "explain 2",
            "log",
            "settle average whole",
            "help",
        ]
    )
    result = _play(tmp_path, path, lines + "\n")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    out = result.stdout
    assert "recorded: deal 1, dealt by Anna: Anna 7♥ took 7; Boris whist, Vera pass" in out
    assert "Boris: +12 whists on Anna" in out  # what the deal wrote
    assert "Anna   pool 4/20" in out  # and the compact sheet
    assert "recorded: deal 3, dealt by Vera: all-pass: Anna 2, Boris 5, Vera 3" in out
    assert "deal 2, dealt by Boris: Boris 6♠ took 5" in out  # explain 2
    assert "Settlement by average method" in out and "rounding: whole" in out
    assert "insert N <deal>" in out  # help
    game = api.load(path)
    assert len(game.entries) == 5 and game.entries[4].dealer == "Anna"


def test_every_accepted_line_is_in_the_ledger_at_once(tmp_path: Path) -> None:
    path = _new(tmp_path)
    script = (
        "import sys\n"
        "from prefcalc.cli import main\n"
        "sys.exit(main(['play', '--file', sys.argv[1]]))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")},
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("game Anna 7h 7 Boris:w Vera:p\n")
    proc.stdin.flush()
    seen = ""
    while "Vera " not in seen:  # the deal was answered (the compact sheet's last line)
        line = proc.stdout.readline()
        assert line, "the session ended before answering"
        seen = line
    assert len(api.load(path).entries) == 1  # on disk while the session is still open
    proc.kill()  # killed mid-session: nothing lost
    proc.wait(timeout=60)
    assert len(api.load(path).entries) == 1


def test_a_refused_line_prints_one_error_and_the_session_goes_on(tmp_path: Path) -> None:
    path = _new(tmp_path)
    lines = "game Anna 7h 7\nAnna 7x 7 b:w v:p\nsho\ngame a 7h 7 b:w v:p --dealr v\n"
    lines += "Anna 7h 7 Boris:w Vera:p\n"
    result = _play(tmp_path, path, lines)
    assert result.returncode == 2  # a script knows a line was refused
    errors = result.stderr.splitlines()
    assert errors == [
        "prefcalc: error: line 1: a contract needs DECLARER CONTRACT TRICKS DEFENDER:ROLE "
        "DEFENDER:ROLE, e.g. Anna 7h 7 Boris:w Vera:p",
        "prefcalc: error: line 2: unknown suit 'x' in contract '7x' (use s, c, d, h or nt)",
        "prefcalc: error: line 3: 'sho' is neither a command nor a player (did you mean show?)",
        "prefcalc: error: line 4: no such option '--dealr' (did you mean --dealer?)",
    ]
    assert len(api.load(path).entries) == 1


def test_a_line_after_a_repeated_deal_is_a_line_not_an_answer(tmp_path: Path) -> None:
    path = _new(tmp_path)
    deal = "passes Anna=2 Boris=5 Vera=3\n"
    result = _play(tmp_path, path, deal + deal + "n\nshow\n")
    assert result.returncode == 2  # 'n' is a refused line, not the answer to a question
    assert result.stderr.splitlines() == [
        "prefcalc: error: line 3: 'n' is neither a command nor a player "
        "(type help for the commands)"
    ]
    assert "record it again" not in result.stdout
    assert "lowest contract" in result.stdout  # line 4 was read as a line


def test_the_same_deal_twice_is_recorded_with_a_note_and_no_question(tmp_path: Path) -> None:
    path = _new(tmp_path)
    deal = "passes Anna=2 Boris=5 Vera=3\n"
    result = _play(tmp_path, path, deal + deal + "m a 0\n" + deal)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "record it again" not in result.stdout  # no question read from the stream
    notes = [line for line in result.stdout.splitlines() if line.startswith("same as deal")]
    assert notes == ["same as deal 1 — undo if it was typed twice"]
    assert len(api.load(path).entries) == 4  # every line is a deal, none eaten as an answer


def test_undo_redo_insert_edit_delete_set(tmp_path: Path) -> None:
    path = _new(tmp_path)
    lines = [
        "a 7h 7 b:w v:p",
        "b 7s 7 v:w a:p",
        "undo",
        "redo",
        "insert 2 misere Vera 0",
        "edit 1 a 7h 6 b:w v:p",
        "delete 3",
        "set target=30",
        "set whist_price=0.5",
        "quit",
        "a 7h 7 b:w v:p",  # after quit: not read
    ]
    result = _play(tmp_path, path, "\n".join(lines) + "\n")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    out = result.stdout
    assert "removed deal 2: Boris 7♠ took 7; Vera whist, Anna pass (redo puts it back)" in out
    assert "put back: deal 2, dealt by Boris: Boris 7♠ took 7" in out
    assert "inserted: deal 2, dealt by Boris: Vera misère, took 0" in out
    assert "next dealer Anna" in out  # Vera deals the re-derived deal 3, Anna is next
    assert "replaced deal 1: Anna 7♥ took 7; Boris whist, Vera pass" in out
    assert "now: deal 1, dealt by Anna: Anna 7♥ took 6" in out
    assert "deleted deal 3: Boris 7♠ took 7; Vera whist, Anna pass" in out
    assert "target set to 30" in out and "pool 0/30" in out
    game = api.load(path)
    kinds = [json.loads(game_to_json_text(game))["deals"][k]["kind"] for k in range(4)]
    assert kinds == ["contract", "misere", "set", "set"]
    assert api.sheet(game).target == 30 and api.price_in_force(game) == Fraction(1, 2)


def test_russian_in_the_session(tmp_path: Path) -> None:
    path = _new(tmp_path, "Маша", "Петя", "Вова")
    # 'м' at the start of a line is a misère now (like 'm'): Маша is written 'ма' there
    lines = "ма 7ч 7 п:в в:п\nмизер п 0\nраспасы 2 5 3\nп 6бк - в:п м:пв\nм ма 0\nр 2 5 3\n"
    # the bare all-pass tricks from the hand after the dealer: Маша deals the 7th, so Петя,
    # Вова, Маша (the 3rd and the 6th are dealt by Вова: Маша, Петя, Вова)
    result = _play(tmp_path, path, lines + "рас 3 4 3\n")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    game = api.load(path)
    assert [describe(e.deal) for e in game.entries] == [
        "game Маша 7h 7 Петя:w Вова:p",
        "misere Петя 0",
        "passes Маша=2 Петя=5 Вова=3",
        "game Петя 6nt - Вова:p Маша:h",
        "misere Маша 0",
        "passes Маша=2 Петя=5 Вова=3",
        "passes Маша=3 Петя=3 Вова=4",
    ]


def test_play_without_a_game_is_one_error(tmp_path: Path) -> None:
    result = invoke(["play", "--file", str(tmp_path / "none.json")], tmp_path, input="")
    assert result.returncode == 2
    assert "no game here" in result.stderr


def test_a_line_from_a_second_terminal_is_seen(tmp_path: Path) -> None:
    path = _new(tmp_path)
    from prefcalc.play import Session

    said: list[str] = []
    session = Session(path, said.append)
    session.handle("a 7h 7 b:w v:p")
    api.update(path, lambda g: api.record(g, "misere Boris 0"))  # the other terminal
    assert session.prompt() == "[3 · Vera deals · ≥6] > "
    session.handle("v 6s 6 a:w b:p")
    assert [e.dealer for e in api.load(path).entries] == ["Anna", "Boris", "Vera"]


@pytest.mark.parametrize("line", ["quit", "exit", "q"])
def test_quit(tmp_path: Path, line: str) -> None:
    path = _new(tmp_path)
    assert _play(tmp_path, path, f"{line}\nshow\n").stdout == ""


def test_join_is_a_session_command_with_its_own_options(tmp_path: Path) -> None:
    import io

    from prefcalc import api
    from prefcalc.play import run_lines

    ledger = tmp_path / "night.json"
    api.save(api.new_game(["Anna", "Boris", "Vera"]), ledger)
    out, err = io.StringIO(), io.StringIO()
    lines = io.StringIO("a 7h 7 b:w v:p\njoin Dima --after Vera\nd 6s 6 a:w v:p\n")
    assert run_lines(ledger, lines, out, err) == 0
    assert err.getvalue() == ""
    game = api.load(ledger)
    assert [type(e.deal).__name__ for e in game.entries] == ["Contract", "Join", "Contract"]
    assert api.sheet(game).players == ("Anna", "Boris", "Vera", "Dima")
