"""The rules docs/rules.md §8.8 pins, through ``prefcalc play`` on stdin and on a pseudo-terminal:
a returned whist ends the all-pass streak under ``passes.ends_streak = whisted`` (a 6 is
legal again) and ``--talon 3`` is recorded."""

from __future__ import annotations

from pathlib import Path

from prefcalc import api
from tests.support import invoke
from tests.test_play_pty import Terminal
from tests.test_rules_8_8 import P4, RETURNS, WHISTED

TALON_3 = "game Anna 7h 7 Boris:w Vera:p --talon 3"


def _new(path: Path) -> None:
    options = {**WHISTED, "talon_bonus": True}
    api.save(api.new_game(P4, "sochi", 20, dealer="Dima", options=options), path)


def test_play_on_stdin_a_returned_whist_ends_the_streak(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _new(path)
    r = invoke(["play", "--file", str(path)], tmp_path, input="\n".join([*RETURNS, "show"]) + "\n")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert "recorded: deal 5" in r.stdout
    assert "lowest contract 6" in r.stdout
    game = api.load(path)
    assert len(game.entries) == 5
    assert api.sheet(game).mountain == {"Anna": 5, "Boris": 3, "Vera": 8, "Dima": 4}


def test_play_on_stdin_records_talon_three(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _new(path)
    # Dima deals deal 1 and sits out: 3 × W 4 = 12 whists on Anna
    r = invoke(["play", "--file", str(path)], tmp_path, input=TALON_3 + "\n")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert api.sheet(api.load(path)).whists["Dima"]["Anna"] == 12
    r = invoke(["play", "--file", str(path)], tmp_path, input=TALON_3.replace("3", "4") + "\n")
    assert "--talon is 0, 1, 2 or 3 tricks, not '4'" in r.stderr
    assert len(api.load(path).entries) == 1


def test_play_on_a_terminal_a_returned_whist_lowers_the_exit_again(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _new(path)
    t = Terminal(path, tmp_path / "data")
    try:
        t.expect("≥6] >")
        t.line(RETURNS[0], "recorded: deal 1", prompt="≥7] >")  # after one all-pass
        t.line(RETURNS[1], "recorded: deal 2", prompt="≥6] >")  # the return ends the streak
        t.line(RETURNS[2], "recorded: deal 3", prompt="≥7] >")
        t.line(RETURNS[3], "recorded: deal 4", prompt="≥6] >")  # role r ends it too
        t.line(RETURNS[4], "recorded: deal 5", prompt="≥6] >")
        t.type("quit\r")
        assert t.proc.wait(timeout=60) == 0
    finally:
        t.close()
    assert len(api.load(path).entries) == 5


def test_play_on_a_ledger_without_deals_is_one_error_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _new(path)
    text = path.read_text(encoding="utf-8")
    assert '"deals": []' in text
    path.write_text(text.replace(',\n  "deals": []', ""), encoding="utf-8")
    before = path.read_bytes()
    r = invoke(["play", "--file", str(path)], tmp_path, input="passes Anna=3 Boris=3 Vera=4\n")
    assert r.returncode == 2
    assert r.stderr.splitlines() == [f"prefcalc: error: {path}: deals: missing"]
    assert path.read_bytes() == before
