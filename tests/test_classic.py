"""Classic preference and the rest of docs/rules.md §8.1-§8.6, with hand-computed numbers.

Every expected number below is worked out by hand from docs/rules.md in the comment above it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import prefcalc
from prefcalc.errors import DealError, PrefcalcError
from prefcalc.rules.model import Contract, Misere
from prefcalc.rules.notation import describe, parse_words
from tests.support import invoke, make_game, sheet_of

P3 = ["Anna", "Boris", "Vera"]
DARK = {"dark_games": True}


def _writes(sheet: prefcalc.Sheet, number: int) -> list[tuple[str, str, object, str]]:
    return [(w.player, w.target, w.amount, w.reason) for w in sheet.scored[number - 1].writes]


# --- slice 1: the deal factor, dark games, dark_six_whisted, stalingrad, --no-talon ----------


def test_dark_made_7_doubles_the_pool_and_the_whists() -> None:
    # F = 2: pool 4 × 2 = 8; Boris (lone whister, 3 tricks) 3 × 4 × 2 = 24
    s = sheet_of(make_game(P3, ["game Anna 7h 7 Boris:w Vera:p --dark"], options=DARK))
    assert s.pool["Anna"] == 8
    assert s.whists["Boris"]["Anna"] == 24
    assert s.whists["Vera"]["Anna"] == 0
    reasons = [w[3] for w in _writes(s, 1)]
    assert "7♥ made × 2 (dark): 8" in reasons
    assert "whists on 7♥: 3 tricks × 4 × 2 (dark) = 24" in reasons


def test_dark_remise_doubles_remise_whists_and_consolation_greedy() -> None:
    # 6♠ taken with 5, F = 2: u = 1, P = W = C = 2. Mountain 1 × 2 × 2 = 4;
    # Boris (greedy lone whister) (5 × 2 + 1 × 2) × 2 = 24; Vera (passed) 1 × 2 × 2 = 4
    s = sheet_of(make_game(P3, ["game Anna 6c 5 Boris:w Vera:p --dark"], options=DARK))
    assert s.mountain["Anna"] == 4
    assert s.whists["Boris"]["Anna"] == 24
    assert s.whists["Vera"]["Anna"] == 4
    assert "remise on 6♣: 1 undertrick × 2 × 2 (dark) = 4" in [w[3] for w in _writes(s, 1)]


def test_dark_shortfall_is_multiplied_too() -> None:
    # 6♦ taken with 8 by Anna, Boris alone took 2 of a norm of 4: 2 missing × 2 × 1 × 2 = 8
    s = sheet_of(make_game(P3, ["game Anna 6d 8 Boris:w Vera:p --dark"], options=DARK))
    assert s.pool["Anna"] == 4
    assert s.mountain["Boris"] == 8
    assert s.whists["Boris"]["Anna"] == 2 * 2 * 2
    assert "whister's shortfall on 6♦: 2 missing × 2 × 2 (dark) = 8" in [
        w[3] for w in _writes(s, 1)
    ]


def test_dark_8_each_whister_trick_costs_12_two_whisters() -> None:
    # 8♠ dark without a bomb: W = 6, F = 2, each defence trick 12; Boris 2 → 24, Vera 1 → 12
    s = sheet_of(make_game(P3, ["game Anna 8s 7 Boris:w2 Vera:w1 --dark"], options=DARK))
    assert s.whists["Boris"]["Anna"] == 24 + 1 * 6 * 2  # + consolation 1 × 6 × 2
    assert s.whists["Vera"]["Anna"] == 12 + 12
    assert s.mountain["Anna"] == 1 * 6 * 2


def test_dark_half_whist_and_not_played() -> None:
    # 7♠ dark, half-whist: 1 trick × 4 × 2 = 8 whists, pool 4 × 2 = 8
    s = sheet_of(make_game(P3, ["game Anna 7s - Boris:p Vera:h --dark"], options=DARK))
    assert s.whists["Vera"]["Anna"] == 8
    assert s.pool["Anna"] == 8
    # both passed: the game counts as made, × 2
    s = sheet_of(make_game(P3, ["game Anna 6s - Boris:p Vera:p --dark"], options=DARK))
    assert s.pool["Anna"] == 4


def test_dark_misere_made_and_failed() -> None:
    # made: 10 × 2 = 20; failed with 2 tricks: 2 × 10 × 2 = 40
    s = sheet_of(make_game(P3, ["misere Anna 0 --dark", "misere Boris 2 --dark"], options=DARK))
    assert s.pool["Anna"] == 20
    assert s.mountain["Boris"] == 40
    assert "misère made × 2 (dark): 20" in [w[3] for w in _writes(s, 1)]


def test_dark_four_players_dealer_consolation_doubled() -> None:
    # 4 players, Dima deals: 6♥ taken with 5, dark: dealer's consolation 1 × 2 × 2 = 4
    g = make_game(
        ["Anna", "Boris", "Vera", "Dima"],
        ["game Anna 6h 5 Boris:w Vera:p --dark"],
        dealer="Dima",
        options=DARK,
    )
    assert sheet_of(g).whists["Dima"]["Anna"] == 4


def test_dark_pool_points_above_the_target_still_help() -> None:
    # target 10, Anna at 6 (8 not played): a dark 7 gives 4 × 2 = 8, 4 fit, 4 help Boris
    # (Boris and Vera tie at 0 points and 0 mountain: the first clockwise from Anna);
    # 4 × 10 = 40 whists (help whists are not multiplied by F, docs/rules.md §8.8)
    g = make_game(
        P3,
        ["game Anna 8h - Boris:p Vera:p", "game Anna 7h - Boris:p Vera:p --dark"],
        target=10,
        options=DARK,
    )
    s = sheet_of(g)
    assert s.pool == {"Anna": 10, "Boris": 4, "Vera": 0}
    assert s.whists["Anna"] == {"Boris": 40, "Vera": 0}


def test_no_talon_is_recorded_and_changes_nothing() -> None:
    plain = sheet_of(make_game(P3, ["game Anna 7h 7 Boris:w Vera:p"]))
    g = make_game(P3, ["game Anna 7h 7 Boris:w Vera:p --no-talon"])
    s = sheet_of(g)
    assert (s.pool, s.mountain, s.whists) == (plain.pool, plain.mountain, plain.whists)
    deal = g.entries[0].deal
    assert isinstance(deal, Contract) and deal.no_talon
    assert describe(deal).endswith("--no-talon")
    from prefcalc.views.log import deal_text

    assert "(no talon)" in deal_text(g.entries[0])


def test_dark_refused_when_dark_games_are_off() -> None:
    g = prefcalc.new_game(P3, "sochi", target=20)
    with pytest.raises(DealError, match="dark_games = false"):
        prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p --dark")
    with pytest.raises(DealError, match="dark_games = false"):
        prefcalc.record(g, "misere Anna 0 --dark")
    with pytest.raises(DealError, match="dark_games"):
        prefcalc.record(g, "misere Anna 0 --dark", force=True)


@pytest.mark.parametrize("role", ["p", "h"])
def test_stalingrad_refuses_a_pass_or_half_whist_on_6_spades(role: str) -> None:
    g = prefcalc.new_game(P3, "sochi", options={"stalingrad": True})
    with pytest.raises(DealError, match=r"6♠ must be whisted by both defenders \(stalingrad"):
        prefcalc.record(g, f"game Anna 6s - Boris:p Vera:{role}")
    with pytest.raises(DealError, match="stalingrad"):
        prefcalc.record(g, "game Anna 6s 6 Boris:w Vera:p")
    g = prefcalc.record(g, "game Anna 6s 6 Boris:w2 Vera:w2")
    g = prefcalc.record(g, "game Boris 6c - Vera:p Anna:p")  # only spades
    assert prefcalc.sheet(g).pool["Anna"] == 2


def test_dark_six_whisted_refuses_a_pass_on_a_dark_6_spades_only() -> None:
    g = prefcalc.new_game(P3, "sochi", options={"dark_games": True, "dark_six_whisted": True})
    with pytest.raises(DealError, match=r"a dark 6♠ must be whisted by both defenders"):
        prefcalc.record(g, "game Anna 6s - Boris:p Vera:p --dark")
    prefcalc.record(g, "game Anna 6s - Boris:p Vera:p")  # not dark: allowed
    prefcalc.record(g, "game Anna 6s 6 Boris:w2 Vera:w2 --dark")


def test_cli_refuses_dark_with_one_line_and_leaves_the_ledger(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert invoke(["new", *P3, "--file", str(path)], tmp_path).returncode == 0
    before = path.read_bytes()
    r = invoke(["game", "a", "7h", "7", "b:w", "v:p", "--dark", "--file", str(path)], tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0
    assert "dark_games = false" in r.stderr
    assert path.read_bytes() == before


def test_cli_records_dark_and_no_talon_and_the_ledger_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = invoke(["new", *P3, "--set", "dark_games=true", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    r = invoke(
        ["game", "a", "7h", "7", "b:w", "v:p", "--dark", "--no-talon", "--file", str(path)],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "× 2 (dark)" in r.stdout
    r = invoke(["misere", "b", "0", "--dark", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    g = prefcalc.load(path)
    first, second = g.entries[0].deal, g.entries[1].deal
    assert isinstance(first, Contract) and first.dark and first.no_talon
    assert isinstance(second, Misere) and second.dark
    s = prefcalc.sheet(g)
    assert s.pool == {"Anna": 8, "Boris": 20, "Vera": 0}
    assert '"dark": true' in path.read_text(encoding="utf-8")
    log = invoke(["log", "--file", str(path)], tmp_path).stdout
    assert "7♥ (dark, no talon) took 7" in log


def test_ledger_with_a_dark_game_under_sochi_is_refused_naming_the_field(tmp_path: Path) -> None:
    g = make_game(P3, ["game Anna 7h 7 Boris:w Vera:p --dark"], options=DARK)
    path = tmp_path / "g.json"
    prefcalc.save(g, path)
    text = path.read_text(encoding="utf-8").replace('"dark_games": true', '"dark_games": false')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PrefcalcError, match=r"deals\[0\]\.dark: a dark game is not played"):
        prefcalc.load(path)


def test_a_dark_night_re_scored_under_sochi_reports_the_deals_it_cannot_price() -> None:
    g = make_game(P3, ["game Anna 7h 7 Boris:w Vera:p", "misere Boris 0 --dark"], options=DARK)
    s = prefcalc.sheet(g, "sochi")
    assert [p.number for p in s.unpriced] == [2]
    assert "a dark game needs dark_games = true" in str(s.unpriced[0])
    assert s.pool["Boris"] == 10  # scored without its × 2
    assert not prefcalc.sheet(g).unpriced


def test_dark_round_trips_through_the_shorthand() -> None:
    deal = parse_words(["game", "Anna", "7h", "7", "Boris:w", "Vera:p", "--dark"], P3)
    assert parse_words(describe(deal).split(), P3) == deal
    with pytest.raises(PrefcalcError, match="unknown option '--darkk'"):
        parse_words(["misere", "Anna", "0", "--darkk"], P3)


# --- slice 2: bombs ------------------------------------------------------------------------

OPENING = {"bombs.opening": [1, 2, 3], "dark_games": True}
DECLARED = {**OPENING, "bombs.order": "declared"}
NINE = [
    "passes Anna=2 Boris=4 Vera=4",
    "passes Anna=3 Boris=3 Vera=4",
    "passes Anna=0 Boris=6 Vera=4",
    "passes Anna=2 Boris=4 Vera=4",
    "passes Anna=1 Boris=4 Vera=5",
    "passes Anna=2 Boris=4 Vera=4",
    "passes Anna=2 Boris=4 Vera=4",
    "passes Anna=2 Boris=0 Vera=8",
    "passes Anna=3 Boris=3 Vera=4",
]


def test_opening_circles_price_tricks_by_2_to_the_k_and_every_player_earns_a_bomb() -> None:
    # circle 1 (×2): Anna 2+3+0 tricks = 10 mountain, +2 pool for the 0; circle 2 (×4):
    # 2+1+2 = 5 tricks = 20; circle 3 (×8): 2+2+3 = 7 tricks = 56. Anna: mountain 86, pool 2.
    # Boris: (4+3+6) × 2 + (4+4+4) × 4 + (4+0+3) × 8 = 26 + 48 + 56 = 130, pool 8 (a 0 at ×8).
    g = make_game(P3, NINE, options=OPENING, target=50)
    s = sheet_of(g)
    assert s.mountain["Anna"] == 86
    assert s.pool["Anna"] == 2
    assert s.mountain["Boris"] == 130
    assert s.pool["Boris"] == 8
    assert s.bombs["Anna"] == (2, 2, 2, 4, 4, 4, 8, 8, 8)
    assert s.opening is None
    assert s.streak == 0  # opening deals are not in the passes streak
    assert all(x.price is None for x in s.scored)
    assert sheet_of(make_game(P3, NINE[:4], options=OPENING, target=50)).opening == (2, 3, 4)
    assert "opening circle 3: 3 tricks × 8 = 24" in [w[3] for w in _writes(s, 9)]


def test_opening_ignores_passes_options_and_dealer_bonus() -> None:
    # Rostov scores all-passes in whists with a dealer bonus: none of it in the opening
    g = make_game(P3, NINE[:3], convention="rostov", options={"bombs.opening": [1]})
    s = sheet_of(g)
    assert s.mountain == {"Anna": 10, "Boris": 26, "Vera": 24}
    assert all(v == 0 for row in s.whists.values() for v in row.values())


def test_a_contract_during_the_opening_circles_is_refused() -> None:
    g = prefcalc.new_game(P3, "sochi", options=OPENING)
    with pytest.raises(DealError, match="opening"):
        prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
    with pytest.raises(DealError, match="opening"):
        prefcalc.record(g, "misere Anna 0", force=True)
    with pytest.raises(DealError, match="blind"):
        prefcalc.record(g, "passes Anna=2 Boris=4 Vera=4 --blind Anna")
    with pytest.raises(DealError, match="opening"):
        prefcalc.join(g, "Dima")


def _opened(options: dict[str, object], lines: list[str]) -> prefcalc.Sheet:
    return sheet_of(make_game(P3, NINE + lines, options=options, target=50))


def test_worked_example_8_1_declared_bombs() -> None:
    # docs/rules.md §8.1: A plays 7♥ on a ×2 and takes 7, B whists (3 tricks), C passes: A pool +8,
    # B writes 24; then 6♠ on a ×4 taken with 5: A mountain +8, B (5 × 2 + 2) × 4 = 48, C 8.
    base = _opened(DECLARED, [])
    s = _opened(
        DECLARED,
        ["game Anna 7h 7 Boris:w Vera:p --bomb 2", "game Anna 6s 5 Boris:w Vera:p --bomb 4"],
    )
    assert s.pool["Anna"] - base.pool["Anna"] == 8
    assert s.mountain["Anna"] - base.mountain["Anna"] == 8
    assert s.whists["Boris"]["Anna"] == 24 + 48
    assert s.whists["Vera"]["Anna"] == 8
    # the ×2 is used up (made), the ×4 kept (remise)
    assert s.bombs["Anna"] == (2, 2, 4, 4, 4, 8, 8, 8)
    assert s.scored[9].bombs == (("Anna", "used", 2),)
    assert s.scored[10].bombs == (("Anna", "kept", 4),)
    assert s.scored[10].factor == 4
    assert "whists on 6♠: 5 tricks × 2 × 4 (double bomb) = 40" in [w[3] for w in _writes(s, 11)]


def test_worked_example_8_1_oldest_bombs() -> None:
    # the same two deals under bombs.order = oldest: after the opening [1, 2, 3] Anna holds
    # ×2 ×2 ×2 ×4 ×4 ×4 ×8 ×8 ×8; two made passed-out games of hers use up two ×2 first, so
    # she plays the example's 7♥ on a ×2 and its 6♠ on a ×4
    s = _opened(OPENING, [])
    assert s.bombs["Anna"][:4] == (2, 2, 2, 4)
    lines = [
        "game Anna 6h - Boris:p Vera:p",  # uses ×2 (made): pool 2 × 2 = 4
        "game Boris 6h - Vera:p Anna:p",
        "game Vera 6h - Anna:p Boris:p",
        "game Anna 6h - Boris:p Vera:p",  # uses ×2
    ]
    s = _opened(OPENING, lines)
    assert s.bombs["Anna"] == (2, 4, 4, 4, 8, 8, 8)
    before = s
    s = _opened(
        OPENING,
        [
            *lines,
            "game Anna 7h 7 Boris:w Vera:p",
            "game Boris 6c - Vera:p Anna:p",
            "game Vera 6c - Anna:p Boris:p",
            "game Anna 6s 5 Boris:w Vera:p",
        ],
    )
    # 7♥ on the ×2: pool +8, Boris 3 × 4 × 2 = 24; 6♠ on the ×4: mountain +8, Boris 48, Vera 8
    assert s.pool["Anna"] - before.pool["Anna"] == 8
    assert s.mountain["Anna"] - before.mountain["Anna"] == 8
    assert s.whists["Boris"]["Anna"] - before.whists["Boris"]["Anna"] == 24 + 48
    assert s.whists["Vera"]["Anna"] - before.whists["Vera"]["Anna"] == 8
    assert s.bombs["Anna"] == (4, 4, 4, 8, 8, 8)


def test_seed_checks_dark_misere_and_dark_8_on_a_triple_bomb() -> None:
    # docs/rules.md §8.1: a dark misère on a triple bomb, made: 10 × 8 × 2 = 160 (target 1000:
    # no help)
    s = sheet_of(
        make_game(P3, [*NINE, "misere Anna 0 --dark --bomb 8"], options=DECLARED, target=1000)
    )
    assert s.pool["Anna"] == 2 + 160
    assert "misère made × 16 (triple bomb, dark): 160" in [w[3] for w in _writes(s, 10)]
    # docs/rules.md §8.1: a dark 8 on a triple bomb: each whister's trick costs 6 × 16 = 96
    s = sheet_of(
        make_game(
            P3,
            [*NINE, "game Anna 8s 8 Boris:w1 Vera:w1 --dark --bomb 8"],
            options=DECLARED,
            target=1000,
        )
    )
    assert s.whists["Boris"]["Anna"] == 96
    assert s.whists["Vera"]["Anna"] == 96
    assert "whists on 8♠: 1 trick × 6 × 16 (triple bomb, dark) = 96" in [
        w[3] for w in _writes(s, 10)
    ]
    assert s.pool["Anna"] == 2 + 6 * 16


def test_blind_passes_earn_a_bomb_x2_and_score_as_any_all_pass() -> None:
    plain = sheet_of(make_game(P3, ["passes Anna=2 Boris=4 Vera=4"]))
    g = make_game(
        P3, ["passes Anna=2 Boris=4 Vera=4 --blind Anna,vera"], options={"bombs.blind": True}
    )
    s = sheet_of(g)
    assert s.mountain == plain.mountain
    assert dict(s.bombs) == {"Anna": (2,), "Vera": (2,)}
    assert s.streak == 1
    g2 = prefcalc.new_game(P3, "sochi")
    with pytest.raises(DealError, match=r"bombs\.blind = false"):
        prefcalc.record(g2, "passes Anna=2 Boris=4 Vera=4 --blind Anna")


def test_bomb_refusals() -> None:
    g = prefcalc.new_game(P3, "sochi", options={"bombs.blind": True, "bombs.order": "declared"})
    g = prefcalc.record(g, "passes Anna=2 Boris=4 Vera=4 --blind Anna")
    with pytest.raises(DealError, match=r"Anna holds no double bomb ×4 \(bombs: ×2\)"):
        prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p --bomb 4")
    with pytest.raises(DealError, match="holds no"):
        prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p --bomb 4", force=True)
    with pytest.raises(DealError, match="holds no"):
        prefcalc.record(g, "game Boris 7h 7 Vera:w Anna:p --bomb 2")
    g = prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p --bomb 2")
    assert prefcalc.sheet(g).pool["Anna"] == 8
    assert not prefcalc.sheet(g).bombs
    oldest = prefcalc.new_game(P3, "sochi", options={"bombs.blind": True})
    with pytest.raises(DealError, match=r"bombs\.order = declared"):
        prefcalc.record(oldest, "game Anna 7h 7 Boris:w Vera:p --bomb 2")
    with pytest.raises(PrefcalcError, match="--bomb takes a bomb's factor"):
        prefcalc.record(oldest, "game Anna 7h 7 Boris:w Vera:p --bomb 3")


def test_editing_an_early_deal_that_takes_a_later_bomb_away_is_refused() -> None:
    g = prefcalc.new_game(P3, "sochi", options={"bombs.blind": True, "bombs.order": "declared"})
    g = prefcalc.record(g, "passes Anna=2 Boris=4 Vera=4 --blind Anna")
    g = prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p --bomb 2")
    with pytest.raises(DealError, match="holds no"):
        prefcalc.edit(g, 1, "passes Anna=2 Boris=4 Vera=4")
    with pytest.raises(DealError, match="holds no"):
        prefcalc.delete(g, 1)


def test_show_lists_bombs_and_the_opening_circle(tmp_path: Path) -> None:
    import json

    path = tmp_path / "g.json"
    r = invoke(
        ["new", *P3, "--set", "bombs.opening=1,2,3", "--target", "50", "--file", str(path)],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "opening circle 1 of 3" in invoke(["show", "--file", str(path)], tmp_path).stdout
    for line in NINE[:4]:
        r = invoke([*line.split(), "--file", str(path)], tmp_path)
        assert r.returncode == 0, r.stderr
    shown_ = invoke(["show", "--file", str(path)], tmp_path).stdout
    assert "opening circle 2 of 3: all-pass deals at ×4 per trick" in shown_
    assert "bombs (oldest first): Anna ×2 ×2 ×2 ×4; Boris ×2 ×2 ×2 ×4; Vera ×2 ×2 ×2 ×4" in shown_
    data = json.loads(invoke(["show", "--json", "--file", str(path)], tmp_path).stdout)
    assert data["players"][0]["bombs"] == [2, 2, 2, 4]
    assert data["opening"] == {"circle": 2, "circles": 3, "factor": 4}
    r = invoke(["game", "a", "7h", "7", "b:w", "v:p", "--file", str(path)], tmp_path)
    assert r.returncode == 2 and "opening" in r.stderr
    explained = invoke(["explain", "4", "--file", str(path)], tmp_path).stdout
    assert "Anna: earns a bomb ×4" in explained


def test_cli_records_a_declared_bomb_and_a_blind_pass(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = invoke(
        [
            "new",
            *P3,
            "--set",
            "bombs.blind=true",
            "--set",
            "bombs.order=declared",
            "--file",
            str(path),
        ],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    r = invoke(["passes", "a=2", "b=4", "v=4", "--blind", "a,b", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    r = invoke(["misere", "b", "0", "--bomb", "2", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "misère made × 2 (bomb): 20" in r.stdout
    g = prefcalc.load(path)
    assert g.entries[0].deal == parse_words(
        ["passes", "Anna=2", "Boris=4", "Vera=4", "--blind", "Anna,Boris"], P3
    )
    assert prefcalc.sheet(g).bombs == {"Anna": (2,)}
    assert "(bomb ×2)" in invoke(["log", "--file", str(path)], tmp_path).stdout


# --- slice 3: liability_after_close --------------------------------------------------------


def test_liability_after_close_applies_from_the_deal_after_the_first_pool_closed() -> None:
    # Rostov (liability ½), target 2. Deal 1: Anna 6♥ taken with 8 closes her pool; Boris
    # alone took 2 of a norm of 4: 2 missing × 2 × ½ = 2 (the closing deal keeps ½).
    # Deal 2 starts with a closed pool: Vera alone took 2: 2 missing × 2 × 1 = 4.
    lines = ["game Anna 6h 8 Boris:w Vera:p", "game Boris 6h 8 Vera:w Anna:p"]
    on = sheet_of(make_game(P3, lines, "rostov", target=2, options={"liability_after_close": 1}))
    off = sheet_of(make_game(P3, lines, "rostov", target=2))
    assert on.mountain["Boris"] == off.mountain["Boris"] == 2
    assert off.mountain["Vera"] == 2
    assert on.mountain["Vera"] == 4
    assert "whister's shortfall on 6♥: 2 missing × 2 = 4 (liability 1 after a pool closed)" in [
        w[3] for w in _writes(on, 2)
    ]


# --- slice 4: the talon bonus and the return of whist ------------------------------------

P4 = ["Anna", "Boris", "Vera", "Dima"]
TALON = {"talon_bonus": True}
RETURN = {"return_whist": True}


@pytest.mark.parametrize(
    ("line", "dima"),
    [
        # made 7♥, talon gave 2: 2 × 4 = 8
        ("game Anna 7h 7 Boris:w Vera:p --talon 2", 8),
        # remise: talon 1 × 4 = 4, plus the dealer's consolation 1 × 4 = 4
        ("game Anna 7h 6 Boris:w Vera:p --talon 1", 8),
        # not played, half-whisted: 1 × 2 = 2 either way
        ("game Anna 6s - Boris:p Vera:p --talon 1", 2),
        ("game Anna 6s - Boris:p Vera:h --talon 1", 2),
        # dark (F = 2): 2 × 4 × 2 = 16
        ("game Anna 7h 7 Boris:w Vera:p --talon 2 --dark", 16),
        ("game Anna 7h 7 Boris:w Vera:p --talon 0", 0),
    ],
)
def test_talon_bonus_the_sitting_out_dealer_writes_n_times_w(line: str, dima: int) -> None:
    g = make_game(P4, [line], dealer="Dima", options={**TALON, **DARK})
    assert sheet_of(g).whists["Dima"]["Anna"] == dima


def test_talon_bonus_reason_and_refusals() -> None:
    g = make_game(P4, ["game Anna 7h 7 Boris:w Vera:p --talon 2"], dealer="Dima", options=TALON)
    assert "talon bonus on 7♥: 2 tricks × 4 = 8" in [w[3] for w in _writes(sheet_of(g), 1)]
    three = prefcalc.new_game(P3, "sochi", options=TALON)
    with pytest.raises(DealError, match="only at 4 or 5 players"):
        prefcalc.record(three, "game Anna 7h 7 Boris:w Vera:p --talon 1")
    four = prefcalc.new_game(P4, "sochi", dealer="Dima")
    with pytest.raises(DealError, match="talon_bonus = false"):
        prefcalc.record(four, "game Anna 7h 7 Boris:w Vera:p --talon 1")
    with pytest.raises(PrefcalcError, match="--talon is 0, 1, 2 or 3"):
        prefcalc.record(four, "game Anna 7h 7 Boris:w Vera:p --talon 4")


def test_dealer_returns_the_whist_after_both_passed() -> None:
    # 6♠ taken with 5, Dima (dealer) returned: u = 1, d = 5, P = W = C = 2. Anna mountain 2;
    # Dima 5 × 2 = 10 and the consolation of both defenders 2 × 1 × 2 = 4; no dealer's
    # consolation, the passers write nothing
    g = make_game(
        P4, ["game Anna 6s 5 Boris:p Vera:p --returned-by Dima"], dealer="Dima", options=RETURN
    )
    s = sheet_of(g)
    assert s.mountain["Anna"] == 2
    assert s.whists["Dima"]["Anna"] == 14
    assert s.whists["Boris"]["Anna"] == s.whists["Vera"]["Anna"] == 0


def test_dealer_return_is_fully_responsible_even_semi_responsible_rostov() -> None:
    # Rostov (liability ½): 6♠ taken with 8, the dealer took 2 of 4: 2 missing × 2 × 1 = 4
    g = make_game(
        P4,
        ["game Anna 6s 8 Boris:p Vera:p --returned-by d"],
        "rostov",
        dealer="Dima",
        options=RETURN,
    )
    s = sheet_of(g)
    assert s.mountain["Dima"] == 4
    assert s.pool["Anna"] == 2
    assert s.whists["Dima"]["Anna"] == 4


def test_dealer_return_refusals() -> None:
    g = prefcalc.new_game(P4, "sochi", dealer="Dima", options=RETURN)
    with pytest.raises(DealError, match=r"only the sitting-out dealer \(Dima\)"):
        prefcalc.record(g, "game Anna 6s 5 Boris:p Vera:p --returned-by Boris")
    with pytest.raises(DealError, match="only when both defenders passed"):
        prefcalc.record(g, "game Anna 6s 5 Boris:w Vera:p --returned-by Dima")
    with pytest.raises(DealError, match="return_whist = false"):
        prefcalc.record(
            prefcalc.new_game(P4, "sochi", dealer="Dima"),
            "game Anna 6s 5 Boris:p Vera:p --returned-by Dima",
        )
    three = prefcalc.new_game(P3, "sochi", options=RETURN)
    with pytest.raises(DealError, match="sitting-out dealer"):
        prefcalc.record(three, "game Anna 6s 5 Boris:p Vera:p --returned-by Vera")
    stal = prefcalc.new_game(P4, "sochi", dealer="Dima", options={**RETURN, "stalingrad": True})
    with pytest.raises(DealError, match="stalingrad"):
        prefcalc.record(stal, "game Anna 6s 5 Boris:p Vera:p --returned-by Dima")


def test_returned_whist_after_a_half_whist_is_greedy_whatever_lone_whister_says() -> None:
    # Leningrad (gentleman, W = 2P): 7♥ taken with 6, Boris returned Vera's half-whist:
    # P = 4, W = C = 8, u = 1, d = 4. Anna mountain 1 × 4 × 2 = 8; Boris greedy 4 × 8 + 8 = 40;
    # Vera (the half-whister) u × C = 8 (gentleman would have been 24 and 24)
    g = make_game(P3, ["game Anna 7h 6 Boris:r Vera:h"], "leningrad", options=RETURN)
    s = sheet_of(g)
    assert s.mountain["Anna"] == 8
    assert s.whists["Boris"]["Anna"] == 40
    assert s.whists["Vera"]["Anna"] == 8


def test_returned_whist_refusals() -> None:
    g = prefcalc.new_game(P3, "sochi", options=RETURN)
    with pytest.raises(
        DealError, match=r"r \(returned the whist\) needs the other defender's half-whist"
    ):
        prefcalc.record(g, "game Anna 7h 6 Boris:r Vera:p")
    with pytest.raises(DealError, match="return_whist = false"):
        prefcalc.record(prefcalc.new_game(P3, "sochi"), "game Anna 7h 6 Boris:r Vera:h")
    stal = prefcalc.new_game(P3, "sochi", options={**RETURN, "stalingrad": True})
    with pytest.raises(DealError, match="stalingrad"):
        prefcalc.record(stal, "game Anna 6s 6 Boris:r Vera:h")
    g = prefcalc.record(g, "game Anna 7h 6 Boris:r4 Vera:h")
    assert describe(g.entries[0].deal) == "game Anna 7h 6 Boris:r4 Vera:h"


def test_cli_talon_and_return_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    r = invoke(
        [
            "new",
            *P4,
            "--dealer",
            "Dima",
            "--set",
            "talon_bonus=true",
            "--set",
            "return_whist=true",
            "--file",
            str(path),
        ],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    r = invoke(
        [
            "game",
            "a",
            "6s",
            "5",
            "b:p",
            "v:p",
            "--returned-by",
            "d",
            "--talon",
            "1",
            "--file",
            str(path),
        ],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    g = prefcalc.load(path)
    deal = g.entries[0].deal
    assert isinstance(deal, Contract) and deal.returned_by == "Dima" and deal.talon == 1
    # 14 for the return and 1 × 2 = 2 for the talon
    assert prefcalc.sheet(g).whists["Dima"]["Anna"] == 16
    assert "whist returned by Dima" in invoke(["log", "--file", str(path)], tmp_path).stdout


# --- slice 5: the Preference combination and prizes --------------------------------------


def test_seed_check_preference_combination() -> None:
    # docs/rules.md §8.5: Sochi target 10; pools A 6, B 10, C 3; mountains A 12, C 4 →
    # A mountain −12, A pool +4, C pool +7, A writes 70 whists on C; the game is finished.
    # Built: A 8♠ not played (6); B 10♠ not played (10); C 6♠ not played (2) and a 1-point
    # adjustment (3); mountains by adjustment.
    lines = [
        "game A 8s - B:p C:p",
        "game B 10s - C:p A:p",
        "game C 6s - A:p B:p",
        "adjust C --pool 1 --note x",
        "adjust A --mountain 12 --note x",
        "adjust C --mountain 4 --note x",
    ]
    opts = {"preference_combo": True}
    before = sheet_of(make_game(["A", "B", "C"], lines, target=10, options=opts))
    assert before.pool == {"A": 6, "B": 10, "C": 3}
    assert before.mountain == {"A": 12, "B": 0, "C": 4}
    s = sheet_of(make_game(["A", "B", "C"], [*lines, "preference A"], target=10, options=opts))
    assert s.mountain == {"A": 0, "B": 0, "C": 4}
    assert s.pool == {"A": 10, "B": 10, "C": 10}
    assert s.whists["A"] == {"B": 0, "C": 70}
    assert s.finished
    writes = _writes(s, 7)
    assert [(w[0], w[1], w[2]) for w in writes] == [
        ("A", "mountain", -12),
        ("A", "pool", 4),
        ("C", "pool", 7),
        ("A", "whists on C", 70),
    ]
    assert s.first_closed == "B"


def test_preference_refused_when_off_and_recorded_through_the_cli(tmp_path: Path) -> None:
    with pytest.raises(DealError, match="preference_combo = false"):
        prefcalc.record(prefcalc.new_game(P3, "sochi"), "preference Anna")
    path = tmp_path / "g.json"
    r = invoke(["new", *P3, "--set", "preference_combo=true", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    r = invoke(["preference", "v", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "FINISHED" in r.stdout
    g = prefcalc.load(path)
    s = prefcalc.sheet(g)
    # target 20, all pools 0: Vera fills her own 20, then Anna 20 and Boris 20 (20 × 10 = 200)
    assert s.whists["Vera"] == {"Anna": 200, "Boris": 200}
    assert '"kind": "preference"' in path.read_text(encoding="utf-8")


def test_prizes_first_close_and_min_mountain_are_game_whists_of_both_methods() -> None:
    # Sochi target 4: Boris closes first (6♠ not played twice = 4). Mountains: Anna 2 (remise),
    # Vera 0, Boris 0 → after the unclosed pools (Anna 0 → +4, Vera 0 → +4): Anna 6, Boris 0,
    # Vera 4. first_close 10: Boris writes 10 on Anna and on Vera; min_mountain 5: Boris
    # (alone with 0) writes 5 on Anna and on Vera.
    lines = [
        "game Boris 6s - Vera:p Anna:p",
        "game Boris 6c - Vera:p Anna:p",
        "game Anna 6h 5 Boris:w Vera:p",
    ]
    opts = {"prizes.first_close": 10, "prizes.min_mountain": 5}
    g = make_game(P3, lines, target=4, options=opts)
    plain = make_game(P3, lines, target=4)
    assert prefcalc.sheet(g).first_closed == "Boris"
    for method in ("pairwise", "average"):
        with_prizes = prefcalc.settle(g, method)  # type: ignore[arg-type]
        without = prefcalc.settle(plain, method)  # type: ignore[arg-type]
        assert with_prizes.whists["Boris"] - without.whists["Boris"] == 30
        assert with_prizes.whists["Anna"] - without.whists["Anna"] == -15
        assert with_prizes.whists["Vera"] - without.whists["Vera"] == -15
        assert sum(with_prizes.whists.values()) == 0
    r = prefcalc.settle(g)
    assert [(p.writer, p.on, p.amount) for p in r.prizes] == [
        ("Boris", "Anna", 10),
        ("Boris", "Vera", 10),
        ("Boris", "Anna", 5),
        ("Boris", "Vera", 5),
    ]
    from prefcalc.views.payloads import settlement_json
    from prefcalc.views.settlement import settlement_text

    assert "Boris writes 10 on Anna (prize: first to close the pool)" in settlement_text(r)
    assert settlement_json(r)["prizes"][0] == {
        "from": "Boris",
        "on": "Anna",
        "whists": 10,
        "why": "prize: first to close the pool",
    }


def test_min_mountain_prize_nobody_writes_when_all_tie() -> None:
    g = make_game(P3, ["passes Anna=3 Boris=3 Vera=4"], options={"prizes.min_mountain": 5})
    # mountains 3, 3, 4: Anna and Boris tie for the smallest and each write 5 on Vera
    assert [(p.writer, p.on) for p in prefcalc.settle(g).prizes] == [
        ("Anna", "Vera"),
        ("Boris", "Vera"),
    ]
    g = make_game(P3, [], options={"prizes.min_mountain": 5})
    assert prefcalc.settle(g).prizes == ()


# --- the Classic preset ----------------------------------------------------------------------


def test_classic_preset_is_sochi_plus_rules_8_1() -> None:
    from prefcalc.rules.conventions import OPTIONS
    from prefcalc.store.conventions import load_preset

    classic, sochi = load_preset("classic"), load_preset("sochi")
    changed = {
        o.key: classic.value(o.key) for o in OPTIONS if classic.value(o.key) != sochi.value(o.key)
    }
    assert changed == {
        "bombs.opening": (1, 2, 3),
        "bombs.blind": True,
        "dark_games": True,
        "dark_six_whisted": True,
        "preference_combo": True,
    }
    assert classic.bombs_order == "oldest"  # docs/rules.md §8.8
    assert classic.liability_after_close == "none"  # docs/rules.md §8.8
    assert classic.name == "Classic"


def test_a_classic_game_is_played_to_50_and_rules_explains_every_option(tmp_path: Path) -> None:
    assert prefcalc.new_game(P3, "classic").target == 50
    assert prefcalc.new_game(P3, "sochi").target == 20
    path = tmp_path / "g.json"
    r = invoke(["new", *P3, "--convention", "classic", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "target 50" in r.stdout
    text = invoke(["rules", "classic"], tmp_path).stdout
    for key in (
        "bombs.opening",
        "bombs.blind",
        "bombs.order",
        "dark_games",
        "dark_six_whisted",
        "liability_after_close",
        "stalingrad",
        "talon_bonus",
        "return_whist",
        "preference_combo",
        "prizes.first_close",
        "prizes.min_mountain",
    ):
        assert key in text, key
    for preset_name in ("sochi", "leningrad", "rostov"):
        assert "bombs.opening" in invoke(["rules", preset_name], tmp_path).stdout


def test_the_preference_combination_is_a_settlement_step(tmp_path: Path) -> None:
    from prefcalc.views.settlement import settlement_text

    game = prefcalc.load(Path(__file__).resolve().parent.parent / "examples" / "classic-3.json")
    text = settlement_text(prefcalc.settle(game))
    assert "Nadia's Preference combination (deal 22) ended the game:" in text
    assert "Nadia: 380 whists on Péter (Preference: 38 points to Péter × 10 = 380)" in text
    assert text.index("Preference combination") < text.index("1. Unclosed pools")
    assert prefcalc.settle(make_game(P3, ["game Anna 7h 7 Boris:w Vera:p"])).combination == ()


@pytest.mark.parametrize(
    "line",
    [
        "game Anna 7h 7 Boris:w Vera:p --dark --no-talon --bomb 4",
        "game Anna 6s 5 Boris:p Vera:p --talon 2 --returned-by Dima",
        "game Anna 7h 6 Boris:r4 Vera:h",
        "misere Anna 0 --dark --bomb 8",
        "passes Anna=2 Boris=4 Vera=4 --blind Anna,Vera",
        "preference Vera",
    ],
)
def test_every_classic_record_round_trips_through_the_shorthand_and_the_ledger(
    line: str,
) -> None:
    import json

    from prefcalc.rules.model import Entry
    from prefcalc.store.ledger import deal_to_json, game_to_json_text
    from tests.support import game_from_json

    deal = parse_words(line.split(), P4)
    assert parse_words(describe(deal).split(), P4) == deal
    every = {
        "dark_games": True,
        "bombs.order": "declared",
        "bombs.blind": True,
        "talon_bonus": True,
        "return_whist": True,
        "preference_combo": True,
    }
    g = prefcalc.new_game(P4, "sochi", options=every)._replace(entries=(Entry(deal, "Dima", "t"),))
    assert game_from_json(json.loads(game_to_json_text(g))).entries[0].deal == deal
    assert deal_to_json(g.entries[0])["kind"] in ("contract", "misere", "passes", "preference")


def test_log_json_and_explain_show_the_factor_and_the_bombs() -> None:
    from prefcalc.views.log import explain_text
    from prefcalc.views.payloads import log_json

    game = prefcalc.load(Path(__file__).resolve().parent.parent / "examples" / "classic-3.json")
    sheet = prefcalc.sheet(game)
    items = log_json(sheet)
    assert items[11]["factor"] == 4
    assert items[11]["bombs"] == [{"player": "Олег", "event": "used", "factor": 2}]
    assert "factor" not in items[12]
    assert "opening circle deal at ×8 per trick" in explain_text(sheet, 9)
    assert "deal factor ×4" in explain_text(sheet, 12)


def test_what_cannot_be_priced_is_refused_in_the_language_in_use() -> None:
    # these refusals came out of the scorer, in English under --lang ru (issue 24): they are
    # the legality's checks now, in the catalog's words
    from prefcalc.i18n import speaking

    g = prefcalc.new_game(P3, "classic")
    with speaking("ru"), pytest.raises(DealError) as caught:
        prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
    assert str(caught.value) == "вступительный круг 1 (bombs.opening) играется только распасами"
    declared = prefcalc.new_game(
        P3, "sochi", options={"bombs.blind": True, "bombs.order": "declared"}
    )
    declared = prefcalc.record(declared, "passes Anna=2 Boris=4 Vera=4 --blind Anna")
    with speaking("ru"), pytest.raises(DealError) as caught:
        prefcalc.record(declared, "game Anna 7h 7 Boris:w Vera:p --bomb 4")
    assert str(caught.value) == "у игрока Anna нет бомбы ×4 (двойная бомба; бомбы: ×2)"
    with pytest.raises(DealError) as caught:
        prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
    assert (
        str(caught.value)
        == "circle 1 of the opening (bombs.opening) is played in all-pass deals only"
    )
