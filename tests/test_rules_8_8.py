"""The details RULES.md section 8.8 pins, found by random games of section 8.

Every expected number below is worked out by hand in the comment above it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import prefcalc
from prefcalc.errors import PrefcalcError
from tests.support import invoke, make_game, sheet_of

P3 = ["Anna", "Boris", "Vera"]
P4 = ["Anna", "Boris", "Vera", "Dima"]
P5 = ["Anna", "Boris", "Vera", "Dima", "Egor"]
NO_OPENING = {"bombs.opening": []}


def _shortfalls(sheet: prefcalc.Sheet, number: int) -> list[str]:
    return [w.reason for w in sheet.scored[number - 1].writes if "shortfall" in w.reason]


# --- Classic's liability_after_close is off by default -------------------------------------

CLOSE_THEN_SHORT = ["game Anna 6h 8 Boris:w Vera:p", "game Boris 6h 8 Vera:w Anna:p"]


def test_classic_semi_responsible_stays_semi_responsible_after_a_pool_closed() -> None:
    # Classic with liability ½, target 2, no opening circles. Deal 1: Anna 6♥ taken with 8
    # closes her pool (2); Boris alone took 2 of a norm of 4: 2 missing × W 2 × ½ = 2.
    # Deal 2 starts with a closed pool; Vera alone took 2 of 4: still 2 × 2 × ½ = 2 (with
    # the old default of 1 after the close it was 2 × 2 × 1 = 4).
    opts = {**NO_OPENING, "liability": "1/2"}
    s = sheet_of(make_game(P3, CLOSE_THEN_SHORT, "classic", target=2, options=opts))
    assert s.convention.liability_after_close == "none"
    assert s.mountain["Boris"] == 2
    assert s.mountain["Vera"] == 2
    assert _shortfalls(s, 2) == ["whister's shortfall on 6♥: 2 missing × 1 = 2"]
    # the regional variant is asked for with a second override: 2 × 2 × 1 = 4
    asked = {**opts, "liability_after_close": 1}
    s = sheet_of(make_game(P3, CLOSE_THEN_SHORT, "classic", target=2, options=asked))
    assert s.mountain["Vera"] == 4
    assert _shortfalls(s, 2) == [
        "whister's shortfall on 6♥: 2 missing × 2 = 4 (liability 1 after a pool closed)"
    ]


def test_cli_classic_liability_half_is_not_turned_responsible_unasked(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    new = ["new", *P3, "--convention", "classic", "--target", "2", "--file", str(path)]
    r = invoke([*new, "--set", "liability=0.5", "--set", "bombs.opening="], tmp_path)
    assert r.returncode == 0, r.stderr
    for line in CLOSE_THEN_SHORT:
        r = invoke([*line.split(), "--file", str(path)], tmp_path)
        assert r.returncode == 0, r.stderr
    r = invoke(["show", "--json", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    import json

    mountains = {p["name"]: p["mountain"] for p in json.loads(r.stdout)["players"]}
    assert mountains == {"Anna": 0, "Boris": 2, "Vera": 2}


# --- --talon takes 3 (two aces in the talon) ------------------------------------------------

TALON = {"talon_bonus": True}


def test_talon_three_two_aces_count_three_tricks() -> None:
    # 7♥ made, Dima (sitting-out dealer) with two aces in the talon: 3 × W 4 = 12;
    # dark (F = 2): 3 × 4 × 2 = 24
    g = make_game(P4, ["game Anna 7h 7 Boris:w Vera:p --talon 3"], dealer="Dima", options=TALON)
    s = sheet_of(g)
    assert s.whists["Dima"]["Anna"] == 12
    assert "talon bonus on 7♥: 3 tricks × 4 = 12" in [w.reason for w in s.scored[0].writes]
    dark = {**TALON, "dark_games": True}
    g = make_game(
        P4, ["game Anna 7h 7 Boris:w Vera:p --talon 3 --dark"], dealer="Dima", options=dark
    )
    assert sheet_of(g).whists["Dima"]["Anna"] == 24
    four = prefcalc.new_game(P4, "sochi", dealer="Dima", options=TALON)
    with pytest.raises(PrefcalcError, match=r"--talon is 0, 1, 2 or 3 tricks, not .4."):
        prefcalc.record(four, "game Anna 7h 7 Boris:w Vera:p --talon 4")


def test_cli_talon_three_is_recorded_and_four_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    new = ["new", *P4, "--dealer", "Dima", "--set", "talon_bonus=true", "--file", str(path)]
    assert invoke(new, tmp_path).returncode == 0
    before = path.read_bytes()
    r = invoke(
        ["game", "a", "7h", "7", "b:w", "v:p", "--talon", "4", "--file", str(path)], tmp_path
    )
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0
    assert "--talon is 0, 1, 2 or 3 tricks, not '4'" in r.stderr
    assert path.read_bytes() == before
    r = invoke(
        ["game", "a", "7h", "7", "b:w", "v:p", "--talon", "3", "--file", str(path)], tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert '"talon": 3' in path.read_text(encoding="utf-8")
    g = prefcalc.load(path)  # the ledger reads it back
    assert prefcalc.sheet(g).whists["Dima"]["Anna"] == 12
