"""The details docs/rules.md §8.8 pins, found by random games of section 8.

Every expected number below is worked out by hand in the comment above it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import prefcalc
from prefcalc.errors import DealError, PrefcalcError
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
    assert _shortfalls(s, 2) == ["whister's shortfall on 6♥: 2 missing × 2 × ½ = 2"]
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


# --- a dealer's return and role r make the game whisted (passes.ends_streak = whisted) ---------

WHISTED = {
    "passes.ends_streak": "whisted",
    "passes.exit": [7, 8, 9],
    "return_whist": True,
}
RETURNS = [
    "passes Anna=3 Boris=3 Vera=4",  # Dima deals: streak 1, price 1
    "game Boris 7h 7 Vera:p Dima:p --returned-by Anna",  # Anna deals and returns: whisted
    "passes Anna=2 Vera=4 Dima=4",  # Boris deals: streak 1 again, price 1 (not 2)
    "game Anna 7s 7 Boris:r Dima:h",  # Vera deals; Boris returns Dima's half-whist: whisted
    "game Boris 6c 6 Vera:w Anna:p",  # Dima deals: a 6 is legal again (the exit is 6)
]


def test_a_returned_whist_ends_the_all_pass_streak_under_whisted() -> None:
    # Deal 1: mountains Anna 3, Boris 3, Vera 4 (1 per trick). Deal 2: Boris 7♥ made, pool 4;
    # Anna (dealer's return, greedy) 3 × 4 = 12 on Boris, norm 2 met; the streak ends.
    # Deal 3 is the first all-pass of a new streak: price 1 (it was 2), Anna 3 + 2 = 5,
    # Vera 4 + 4 = 8, Dima 4. Deal 4: Anna 7♠ made, pool 4; Boris (r, greedy) 3 × 4 = 12 on
    # Anna; the streak ends, so deal 5's 6♣ is legal (after one all-pass it would need a 7):
    # Boris pool 4 + 2 = 6, Vera 4 × 2 = 8 on Boris.
    s = sheet_of(make_game(P4, RETURNS, dealer="Dima", options=WHISTED))
    assert s.problems == ()
    assert [(x.streak, x.price, x.min_level) for x in s.scored] == [
        (1, 1, 6),
        (0, None, 7),
        (1, 1, 6),
        (0, None, 7),
        (0, None, 6),
    ]
    assert s.mountain == {"Anna": 5, "Boris": 3, "Vera": 8, "Dima": 4}
    assert s.pool == {"Anna": 4, "Boris": 6, "Vera": 0, "Dima": 0}
    assert s.whists["Anna"]["Boris"] == 12
    assert s.whists["Boris"]["Anna"] == 12
    assert s.whists["Vera"]["Boris"] == 8
    assert s.streak == 0


def test_an_unplayed_game_still_does_not_end_the_streak_under_whisted() -> None:
    # both passed, or a half-whist: not played, so not whisted; after 2 all-passes the
    # exit is 8 and the price of the next all-pass is 3
    lines = [
        "passes Anna=3 Boris=3 Vera=4",
        "game Boris 7h - Vera:p Dima:p",
        "game Vera 7h - Dima:h Anna:p",
        "passes Anna=2 Boris=4 Dima=4",
    ]
    s = sheet_of(make_game(P4, lines, dealer="Dima", options=WHISTED))
    assert [(x.streak, x.price) for x in s.scored] == [(1, 1), (1, None), (1, None), (2, 2)]
    assert s.min_level == 8


def test_cli_a_returned_whist_ends_the_streak_and_a_six_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    new = ["new", *P4, "--dealer", "Dima", "--file", str(path)]
    for key in ("passes.ends_streak=whisted", "passes.exit=7,8,9", "return_whist=true"):
        new += ["--set", key]
    r = invoke(new, tmp_path)
    assert r.returncode == 0, r.stderr
    for line in RETURNS:
        r = invoke([*line.split(), "--file", str(path)], tmp_path)
        assert r.returncode == 0, (line, r.stderr)
    assert len(prefcalc.load(path).entries) == 5
    r = invoke(["show", "--json", "--file", str(path)], tmp_path)
    import json

    mountains = {p["name"]: p["mountain"] for p in json.loads(r.stdout)["players"]}
    assert mountains == {"Anna": 5, "Boris": 3, "Vera": 8, "Dima": 4}


# --- an all-pass deal's pool writes go in seating order from the dealer's left --------------

ONE_SHORT = ["adjust Anna --pool 1 --note x", "adjust Vera --pool 1 --note x"]
PRIZE = {"prizes.first_close": 10}


@pytest.mark.parametrize(
    "passes", ["passes Anna=0 Boris=10 Vera=0", "passes Vera=0 Anna=0 Boris=10"]
)
def test_first_to_close_in_an_all_pass_is_the_first_from_the_dealers_left(passes: str) -> None:
    # Sochi, target 2: Anna and Vera stand at 1. Boris deals the all-pass; both take no trick
    # and get the price 1 into the pool, both close. From Boris's left: Vera, then Anna, so
    # Vera closes first however the tricks were typed; her prize: 10 on Anna and on Boris.
    g = make_game(P3, [*ONE_SHORT, passes], dealer="Boris", target=2, options=PRIZE)
    s = sheet_of(g)
    assert s.pool == {"Anna": 2, "Boris": 0, "Vera": 2}
    assert s.mountain == {"Anna": 0, "Boris": 10, "Vera": 0}
    assert s.first_closed == "Vera"
    assert [(w.player, w.column) for w in s.scored[2].writes if w.column == "pool"] == [
        ("Vera", "pool"),
        ("Anna", "pool"),
    ]
    assert [(p.writer, p.on, p.amount) for p in prefcalc.settle(g).prizes] == [
        ("Vera", "Anna", 10),
        ("Vera", "Boris", 10),
    ]


@pytest.mark.parametrize(
    "passes", ["passes Boris=0 Anna=0 Dima=10", "passes Dima=10 Anna=0 Boris=0"]
)
def test_first_to_close_wraps_round_the_table_at_four(passes: str) -> None:
    # 4 players, Vera deals and sits out; from her left: Dima, Anna, Boris. Anna and Boris
    # stand at 1 of 2 and take no trick: Anna closes first.
    lines = ["adjust Anna --pool 1 --note x", "adjust Boris --pool 1 --note x", passes]
    s = sheet_of(make_game(P4, lines, dealer="Vera", target=2, options=PRIZE))
    assert s.pool == {"Anna": 2, "Boris": 2, "Vera": 0, "Dima": 0}
    assert s.first_closed == "Anna"


@pytest.mark.parametrize("passes", ["passes Anna=0 Boris=5 Vera=5", "passes Boris=5 Vera=5 Anna=0"])
def test_the_sitting_out_dealers_bonus_is_written_last(passes: str) -> None:
    # Rostov (zero bonus 1, dealer's bonus 1), 4 players, target 2: Dima deals and sits out;
    # Anna and Dima stand at 1. Anna's no-trick point comes first, Dima's bonus last: both
    # close, Anna first.
    lines = ["adjust Anna --pool 1 --note x", "adjust Dima --pool 1 --note x", passes]
    s = sheet_of(make_game(P4, lines, "rostov", dealer="Dima", target=2, options=PRIZE))
    assert s.pool == {"Anna": 2, "Boris": 0, "Vera": 0, "Dima": 2}
    assert [w.reason for w in s.scored[2].writes if w.column == "pool"] == [
        "all-pass: no tricks: 1",
        "all-pass: dealer's bonus: 1",
    ]
    assert s.first_closed == "Anna"


def test_cli_first_to_close_does_not_depend_on_the_typing(tmp_path: Path) -> None:
    for k, passes in enumerate(["passes a=0 b=10 v=0", "passes v=0 a=0 b=10"]):
        path = tmp_path / f"g{k}.json"
        new = ["new", *P3, "--dealer", "Boris", "--target", "2", "--file", str(path)]
        r = invoke([*new, "--set", "prizes.first_close=10"], tmp_path)
        assert r.returncode == 0, r.stderr
        for line in [*ONE_SHORT, passes]:
            r = invoke([*__import__("shlex").split(line), "--file", str(path)], tmp_path)
            assert r.returncode == 0, (line, r.stderr)
        r = invoke(["settle", "--file", str(path)], tmp_path)
        assert r.returncode == 0, r.stderr
        assert "Vera writes 10 on Anna (prize: first to close the pool)" in r.stdout
        assert "Anna writes 10" not in r.stdout


# --- the Preference combination is declared by an active player -------------------------------

COMBO = {"preference_combo": True}


@pytest.mark.parametrize(
    ("players", "out"),
    [
        (P4, {"Dima": "Dima is the dealer and sits out this deal"}),
        (
            P5,
            {
                "Dima": "Dima is the dealer and sits out this deal",
                "Egor": "Egor deals next and sits out this deal",
            },
        ),
    ],
)
def test_preference_refused_for_a_player_who_sits_out(
    players: list[str], out: dict[str, str]
) -> None:
    g = prefcalc.new_game(players, "sochi", dealer="Dima", options=COMBO)
    for name, why in out.items():
        with pytest.raises(DealError, match=f"{why}, so holds no cards to declare the Preference"):
            prefcalc.record(g, f"preference {name}")
    # an active player may: target 20, every pool 0; Anna fills her own pool, then every
    # other (the sitting-out players' too) from 0 to 20, writing 20 × 10 = 200 on each
    done = prefcalc.record(g, "preference Anna")
    s = prefcalc.sheet(done)
    assert s.finished
    assert s.whists["Anna"] == {p: 200 for p in players if p != "Anna"}


@pytest.mark.parametrize("players", [P4, P5])
def test_cli_preference_of_a_sitting_out_player_is_refused(
    players: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.json"
    new = ["new", *players, "--dealer", "Dima", "--set", "preference_combo=true"]
    assert invoke([*new, "--file", str(path)], tmp_path).returncode == 0
    before = path.read_bytes()
    for name in ["Dima", "Egor"] if len(players) == 5 else ["Dima"]:
        r = invoke(["preference", name, "--file", str(path)], tmp_path)
        assert r.returncode == 2
        assert r.stderr.strip().count("\n") == 0
        assert "sits out this deal, so holds no cards to declare the Preference" in r.stderr
        assert path.read_bytes() == before
    # a hand-edited ledger with such a deal is refused too, and left as it is
    text = before.decode().replace(
        '"deals": []',
        '"deals": [\n    {"time": "", "dealer": "Dima", "kind": "preference", "player": "Dima"}\n  ]',
    )
    path.write_text(text, encoding="utf-8")
    edited = path.read_bytes()
    r = invoke(["show", "--file", str(path)], tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0
    assert "deals[0]: Dima is the dealer and sits out this deal" in r.stderr
    assert path.read_bytes() == edited


# --- "first to close" is judged by the target in force (issue 24) ---------------------------


def test_first_to_close_is_judged_by_the_target_in_force() -> None:
    # a 20-point Sochi game lowered to 4 before a deal: Anna's two unplayed sixes (2 + 2)
    # close her pool at 4, the target then in force: she is the first to close and her
    # prize is written (the opening target of 20 used to hide it)
    g = prefcalc.new_game(P3, "sochi", target=20, options=PRIZE)
    g = prefcalc.set_term(g, "target=4")
    g = prefcalc.record(g, "game Anna 6s - Boris:p Vera:p")
    g = prefcalc.record(g, "game Anna 6c - Boris:p Vera:p")
    s = prefcalc.sheet(g)
    assert s.target == 4 and s.pool["Anna"] == 4
    assert (s.first_closed, s.first_closed_at) == ("Anna", 3)
    assert [(p.writer, p.on, p.amount) for p in prefcalc.settle(g).prizes] == [
        ("Anna", "Boris", 10),
        ("Anna", "Vera", 10),
    ]


def test_a_pool_already_at_a_lowered_target_closed_first() -> None:
    # Anna stands at 2 of 20; the target is lowered to 2: she has closed, with the change
    g = prefcalc.new_game(P3, "sochi", target=20, options=PRIZE)
    g = prefcalc.record(g, "game Anna 6s - Boris:p Vera:p")
    g = prefcalc.set_term(g, "target=2")
    s = prefcalc.sheet(g)
    assert (s.first_closed, s.first_closed_at) == ("Anna", 2)
