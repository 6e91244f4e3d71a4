"""The sport federation's code, the ``fspr`` preset (docs/rules.md §8.9, docs/tournament.md §9),
and each option it brought, with numbers worked out by hand (docs/rules.md §4.4, §4.5, §5.9,
§8.1, §8.3, §8.4, §9.9).

Four players are Anna, Boris, Vera and Dima, clockwise; the first deal is Dima's, so Dima
sits it out and Anna, Boris and Vera hold the cards.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import prefcalc
from prefcalc import api
from prefcalc.errors import DealError, PrefcalcError
from prefcalc.rules.conventions import preset_key
from prefcalc.rules.model import Game
from prefcalc.rules.scoring import Sheet, Write
from prefcalc.store.conventions import load_preset

P3 = ["Anna", "Boris", "Vera"]
P4 = ["Anna", "Boris", "Vera", "Dima"]


def fspr4(*lines: str, **options: Any) -> Game:
    game = prefcalc.new_game(P4, "fspr", dealer="Dima", options=options or None)
    for line in lines:
        game = prefcalc.record(game, line)
    return game


def fspr3(*lines: str, **options: Any) -> Game:
    game = prefcalc.new_game(P3, "fspr", options=options or None)
    for line in lines:
        game = prefcalc.record(game, line)
    return game


def writes(game: Game, number: int = -1) -> list[Write]:
    return list(prefcalc.sheet(game).scored[number].writes)


def whists_on(sheet: Sheet, writer: str, on: str) -> Any:
    return sheet.whists[writer][on]


# --- the preset --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["fspr", "FSPR", "ФСПР", "фспр"])
def test_the_preset_by_its_names(name: str) -> None:
    assert preset_key(name) == "fspr"
    conv = load_preset(name)
    assert conv.name == "FSPR"
    assert prefcalc.new_game(P3, name).convention.preset == "fspr"


def test_the_preset_is_leningrad_with_the_federation_s_differences() -> None:
    fspr, leningrad = load_preset("fspr"), load_preset("leningrad")
    differ = {k for k, v in fspr.options().items() if leningrad.options()[k] != v}
    assert differ == {
        "ten_norm",
        "two_whisters",
        "closing",
        "talon_bonus",
        "talon_bonus_three",
        "talon_required",
        "return_whist",
        "dealer_return_liability",
        "passes.misere_ends",
        "passes.ends_streak",
        "passes.dealer_plays_talon",
    }
    assert fspr.ten_norm == 1 and fspr.two_whisters == "both"
    assert fspr.closing == "average" and fspr.pool_whists == 20
    assert fspr.passes_prices == (2, 4, 6) and fspr.passes_after_last == "hold"
    assert [fspr.passes_price(k) for k in range(1, 6)] == [2, 4, 6, 6, 6]
    assert fspr.passes_zero_bonus == "price" and not fspr.passes_amnesty
    assert not fspr.passes_dealer_zero_bonus
    assert [fspr.exit_level(k) for k in range(5)] == [6, 7, 7, 7, 7]


# --- the handout's worked example (docs/rules.md §9.9) ------------------------------------------


def test_the_handouts_worked_example() -> None:
    """A 6 goes down one; the whister took all 5 defence tricks, his partner passed: each
    defender writes (4 × (5 + 1 + 1)) / 2 = 14, the dealer 4, the declarer 4 into the
    mountain."""
    game = fspr4("game Anna 6s 5 Boris:w Vera:p")
    sheet = prefcalc.sheet(game)
    assert whists_on(sheet, "Boris", "Anna") == 14
    assert whists_on(sheet, "Vera", "Anna") == 14
    assert whists_on(sheet, "Dima", "Anna") == 4
    assert sheet.mountain == {"Anna": 4, "Boris": 0, "Vera": 0, "Dima": 0}
    assert sheet.pool == dict.fromkeys(P4, 0)
    reasons = [w.reason for w in writes(game)]
    assert "gentleman's whist: (5 tricks × 4 + 2 × 1 undertrick × 4) / 2 = 14" in reasons
    assert "dealer's consolation: 1 undertrick × 4 = 4" in reasons


# --- ten_norm = 1, two_whisters = both -----------------------------------------------------------


def test_a_ten_is_whisted_and_both_whisters_pay_when_the_pair_takes_nothing() -> None:
    # 10 taken with 10, whisters 0 and 0: the norm of 1 missed; each pays 1 × 20 × ½ = 10
    game = fspr3("game Anna 10nt 10 Boris:w0 Vera:w0")
    assert prefcalc.sheet(game).mountain == {"Anna": 0, "Boris": 10, "Vera": 10}
    # an 8 the same way: 1 × 12 × ½ = 6 each
    game = fspr3("game Anna 8h 10 Boris:w0 Vera:w0")
    assert prefcalc.sheet(game).mountain == {"Anna": 0, "Boris": 6, "Vera": 6}
    # a lone whister on a 10 who takes nothing: the whole norm, 1 × 20 × ½ = 10
    game = fspr3("game Anna 10s 10 Boris:w Vera:p")
    assert prefcalc.sheet(game).mountain["Boris"] == 10


# --- the dealer's return without liability (docs/rules.md §8.4) -----------------------------------


def test_the_dealers_whist_is_not_liable_for_a_shortfall() -> None:
    # Anna's 8♥ taken with 10 after Boris and Vera passed; Dima whists and takes nothing
    game = fspr4("game Anna 8h 10 Boris:p Vera:p --returned-by Dima")
    sheet = prefcalc.sheet(game)
    assert sheet.pool["Anna"] == 6
    assert sheet.mountain == dict.fromkeys(P4, 0)
    assert whists_on(sheet, "Dima", "Anna") == 0
    # the same under Leningrad with the return: the dealer answers for the norm, 1 × 12
    leningrad = prefcalc.new_game(P4, "leningrad", dealer="Dima", options={"return_whist": True})
    leningrad = prefcalc.record(leningrad, "game Anna 8h 10 Boris:p Vera:p --returned-by Dima")
    assert prefcalc.sheet(leningrad).mountain["Dima"] == 12
    # half liable: 1 × 12 × ½ = 6, told so
    half = fspr4("game Anna 8h 10 Boris:p Vera:p --returned-by Dima", dealer_return_liability=0.5)
    assert prefcalc.sheet(half).mountain["Dima"] == 6
    assert [w.reason for w in writes(half) if w.column == "mountain"] == [
        "dealer's return, whister's shortfall on 8♥: 1 missing × 12 × ½ = 6"
    ]


def test_the_dealer_whists_after_pass_half_whist_pass_and_writes_all_the_whists() -> None:
    # Anna's 6♥ taken with 5: Vera passed, Boris said half-whist, Vera passed again and
    # Dima whisted: he writes 5 × 4 for the tricks and 2 × 1 × 4 for both defenders; the
    # half-whister writes nothing
    game = fspr4("game Anna 6h 5 Vera:p Boris:h --returned-by Dima")
    sheet = prefcalc.sheet(game)
    assert whists_on(sheet, "Dima", "Anna") == 20 + 8
    assert whists_on(sheet, "Boris", "Anna") == 0
    assert whists_on(sheet, "Vera", "Anna") == 0
    assert sheet.mountain["Anna"] == 1 * 2 * 2
    # made: the dealer writes his tricks only
    made = fspr4("game Anna 7d 8 Vera:p Boris:h --returned-by Dima")
    assert whists_on(prefcalc.sheet(made), "Dima", "Anna") == 2 * 8
    assert prefcalc.sheet(made).pool["Anna"] == 4


def test_pass_half_whist_pass_needs_a_six_or_a_seven_and_the_half_whist() -> None:
    game = fspr4()
    with pytest.raises(DealError, match="only possible on 6 and 7"):
        prefcalc.record(game, "game Anna 8h 8 Vera:p Boris:h --returned-by Dima")
    with pytest.raises(DealError, match=r"\(h p\)"):
        prefcalc.record(game, "game Anna 7h 7 Vera:w Boris:p --returned-by Dima")
    no_half = fspr4(half_whist=False)
    with pytest.raises(DealError, match="half_whist = false"):
        prefcalc.record(no_half, "game Anna 6h 6 Vera:p Boris:h --returned-by Dima")


# --- the talon bonus at three (docs/rules.md §8.3) ----------------------------------------------


def test_at_three_each_opponent_writes_half_the_talon_bonus() -> None:
    # two aces (3 tricks) under a made 6: 3 × 4 = 12, 6 from each opponent
    game = fspr3("game Anna 6s 6 Boris:w2 Vera:w2 --talon 3")
    sheet = prefcalc.sheet(game)
    assert whists_on(sheet, "Boris", "Anna") == 2 * 4 + 6
    assert whists_on(sheet, "Vera", "Anna") == 2 * 4 + 6
    assert "talon bonus on 6♠: 3 tricks × 4 / 2 = 6" in [w.reason for w in writes(game)]
    # written when the game fails, and when the declarer dealt it himself
    failed = fspr3("misere Anna 0", "game Boris 7h 5 Vera:w3 Anna:w2 --talon 1")
    assert prefcalc.sheet(failed).scored[1].entry.dealer == "Boris"
    bonus = [w for w in writes(failed) if w.reason.startswith("talon bonus")]
    assert [(w.player, w.on, w.amount) for w in bonus] == [
        ("Vera", "Boris", 4),
        ("Anna", "Boris", 4),
    ]


def test_the_half_of_an_odd_talon_bonus_stays_exact() -> None:
    game = prefcalc.new_game(
        P3,
        "sochi",
        options={"talon_bonus": True, "talon_bonus_three": True, "game_prices": [3, 4, 6, 8, 10]},
    )
    game = prefcalc.record(game, "game Anna 6s 6 Boris:w Vera:p --talon 1")
    sheet = prefcalc.sheet(game)
    assert whists_on(sheet, "Vera", "Anna") == Fraction(3, 2)
    assert whists_on(sheet, "Boris", "Anna") == 4 * 3 + Fraction(3, 2)


def test_without_talon_bonus_three_the_bonus_needs_a_sitting_out_dealer() -> None:
    game = prefcalc.new_game(P3, "sochi", options={"talon_bonus": True})
    with pytest.raises(DealError, match="only at 4 or 5 players"):
        prefcalc.record(game, "game Anna 7h 7 Boris:w Vera:p --talon 1")
    # at four the dealer writes it whole, as before
    four = fspr4("game Anna 7h 7 Boris:w2 Vera:w1 --talon 2")
    assert whists_on(prefcalc.sheet(four), "Dima", "Anna") == 2 * 8
    assert whists_on(prefcalc.sheet(four), "Boris", "Anna") == 2 * 8
    # re-scored under a convention without the halves, the bonus is listed as unpriced
    game = fspr3("game Anna 6s 6 Boris:w2 Vera:w2 --talon 3")
    other = prefcalc.sheet(game, "leningrad", ["talon_bonus=true"])
    assert [p.finding.key for p in other.unpriced] == ["talon_three"]
    assert other.whists["Boris"]["Anna"] == 8


# --- talon_required (docs/rules.md §8.1) -----------------------------------------------------------


def test_no_game_or_misere_without_the_talon() -> None:
    game = fspr3()
    for line in ("game Anna 6s 6 Boris:w Vera:p --no-talon", "misere Anna 0 --no-talon"):
        with pytest.raises(DealError, match="talon_required = true"):
            prefcalc.record(game, line)
    allowed = prefcalc.record(fspr3(talon_required=False), "misere Anna 0 --no-talon")
    assert prefcalc.sheet(allowed).pool["Anna"] == 10


# --- all-pass deals: the dealer plays the talon (docs/rules.md §4.4) -----------------------------


def test_the_dealer_plays_the_talon_and_writes_his_tricks() -> None:
    # Dima deals: Anna 4, Boris 0, Vera 4, Dima 2 (his two talon cards), at 2 a trick
    game = fspr4("passes Anna=4 Boris=0 Vera=4 Dima=2")
    sheet = prefcalc.sheet(game)
    assert sheet.mountain == {"Anna": 8, "Boris": 0, "Vera": 8, "Dima": 4}
    assert sheet.pool == {"Anna": 0, "Boris": 2, "Vera": 0, "Dima": 0}
    # bare, from the hand after the dealer, the dealer's talon tricks last
    bare = fspr4("passes 4 0 4 2")
    assert bare.entries[0].deal == game.entries[0].deal


def test_no_zero_bonus_for_the_dealer_unless_dealer_zero_bonus() -> None:
    game = fspr4("passes Anna=5 Boris=5 Vera=0 Dima=0")
    assert prefcalc.sheet(game).pool == {"Anna": 0, "Boris": 0, "Vera": 2, "Dima": 0}
    with_bonus = fspr4("passes Anna=5 Boris=5 Vera=0 Dima=0", **{"passes.dealer_zero_bonus": True})
    assert prefcalc.sheet(with_bonus).pool == {"Anna": 0, "Boris": 0, "Vera": 2, "Dima": 2}
    # the second deal of a streak, dealt by Anna: 4 a trick, and so the zero bonus (Dima's)
    two = fspr4("passes Anna=5 Boris=5 Vera=0 Dima=0", "passes Anna=1 Boris=6 Vera=3 Dima=0")
    assert [(w.player, w.column, w.amount) for w in writes(two)] == [
        ("Anna", "mountain", 4),
        ("Boris", "mountain", 24),
        ("Vera", "mountain", 12),
        ("Dima", "pool", 4),
    ]
    # Anna deals it and takes none: no bonus for her
    dealt = fspr4("passes Anna=5 Boris=5 Vera=0 Dima=0", "passes Anna=0 Boris=6 Vera=3 Dima=1")
    assert [w.column for w in writes(dealt)] == ["mountain"] * 3


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("passes Anna=4 Boris=3 Vera=3", "missing Dima"),
        ("passes 4 3 3", "for 4 players in the deal"),
        ("passes Anna=4 Boris=3 Vera=0 Dima=3", "at most 2 tricks, not 3"),
        ("passes Anna=4 Boris=3 Vera=3 Dima=1", "add up to 10, not 11"),
    ],
)
def test_the_dealers_talon_tricks_are_written_and_at_most_two(line: str, message: str) -> None:
    with pytest.raises(PrefcalcError, match=message):
        prefcalc.record(fspr4(), line)


def test_without_the_option_the_dealer_takes_no_all_pass_tricks() -> None:
    game = prefcalc.new_game(P4, "leningrad", dealer="Dima")
    with pytest.raises(DealError, match="takes no all-pass tricks"):
        prefcalc.record(game, "passes Anna=4 Boris=3 Vera=3 Dima=0")
    assert prefcalc.record(game, "passes 4 3 3").entries[0].deal.tricks == (
        ("Anna", 4),
        ("Boris", 3),
        ("Vera", 3),
    )


def test_at_three_players_nothing_changes() -> None:
    game = fspr3("passes 6 0 4")  # Anna deals: Boris, Vera, then Anna
    assert prefcalc.sheet(game).mountain == {"Anna": 8, "Boris": 12, "Vera": 0}
    assert prefcalc.sheet(game).pool["Vera"] == 2


# --- only a whisted, made game ends the streak ---------------------------------------------------


@pytest.mark.parametrize(
    ("line", "ends"),
    [
        ("game Boris 7h 7 Vera:w Dima:p", True),  # whisted and made
        ("game Boris 7h 8 Vera:w2 Dima:w0", True),
        ("game Boris 7h 7 Vera:p Dima:p --returned-by Anna", True),  # the dealer whisted
        ("game Boris 7h 6 Vera:w Dima:p", False),  # a remise
        ("game Boris 7h 6 Vera:p Dima:p --returned-by Anna", False),
        ("game Boris 7h - Vera:p Dima:p", False),  # both passed
        ("game Boris 7h - Vera:p Dima:h", False),  # a half-whist
        ("misere Boris 0", False),  # passes.misere_ends = false
    ],
)
def test_only_a_whisted_made_game_ends_the_all_pass_streak(line: str, ends: bool) -> None:
    # deal 1 (Dima deals) is an all-pass deal; deal 2 is Anna's: Boris, Vera and Dima hold
    # the cards
    game = prefcalc.record(fspr4("passes Anna=4 Boris=3 Vera=3 Dima=0"), line)
    sheet = prefcalc.sheet(game)
    assert sheet.streak == (0 if ends else 1)
    assert sheet.min_level == (6 if ends else 7)


def test_whisted_made_as_an_option_of_other_rules() -> None:
    game = prefcalc.new_game(P3, "sochi", options={"passes.ends_streak": "whisted_made"})
    game = prefcalc.record(game, "passes 4 3 3")
    game = prefcalc.record(game, "game Boris 6h 5 Vera:w Anna:p")
    assert prefcalc.sheet(game).streak == 1
    game = prefcalc.record(game, "misere Vera 0")  # passes.misere_ends = true in Sochi
    assert prefcalc.sheet(game).streak == 0


# --- no target: pools against the average (docs/rules.md §4.5, §5.9) ----------------------------

NIGHT = (
    "game Anna 6s 5 Boris:w Vera:p",  # Dima deals
    "passes 4 3 3 0",  # Anna deals (her talon tricks last): Boris 8, Vera 6, Dima 6 into the mountain
    "game Vera 7h 7 Dima:w Anna:p --talon 2",  # Boris deals: Vera +4, Boris talon 16
    "game Dima 8h 10 Anna:p Boris:p --returned-by Vera",  # Vera deals and whists: Dima +6
    "game Anna 6h 6 Vera:p Boris:h --returned-by Dima",  # Dima whists: Anna +2, Dima 16
)


def test_the_game_is_never_finished_by_the_pools() -> None:
    game = fspr3(*["game Anna 10nt 10 Boris:w Vera:p"] * 12)
    sheet = prefcalc.sheet(game)
    assert sheet.pool["Anna"] == 120
    assert not sheet.finished and sheet.first_closed is None
    assert not any(s.finished for s in sheet.scored)


def test_every_pool_against_the_average_at_twenty_whists_a_point() -> None:
    game = fspr4(*NIGHT)
    sheet = prefcalc.sheet(game)
    assert sheet.pool == {"Anna": 2, "Boris": 0, "Vera": 4, "Dima": 6}
    assert sheet.mountain == {"Anna": 4, "Boris": 8, "Vera": 6, "Dima": 6}
    for method in ("pairwise", "average"):
        s = prefcalc.settle(game, method)
        assert s.pool_average == 3 and s.pool_rate == 20
        assert s.pool_results == {"Anna": -20, "Boris": -60, "Vera": 20, "Dima": 60}
        assert s.mountains == sheet.mountain  # no pool went into a mountain
        assert s.amnesty == 4
        # results: mountain result 10 × (2 − m) + net game whists + pool result
        assert s.whists == {"Anna": -48, "Boris": -50, "Vera": -6, "Dima": 104}
    pairwise = prefcalc.settle(game, "pairwise")
    assert pairwise.pool_entries == {"Anna": 10, "Boris": 0, "Vera": 20, "Dima": 30}
    average = prefcalc.settle(game, "average")
    assert average.mountain_whists == {"Anna": 20, "Boris": -20, "Vera": 0, "Dima": 0}
    assert average.game_whists == {"Anna": -48, "Boris": 30, "Vera": -26, "Dima": 44}


def test_the_same_as_the_pools_into_the_mountains_at_half_the_whists() -> None:
    """§5.9: against the average at 20 a point is Leningrad's pools into the mountain at 2."""
    game = fspr4(*NIGHT)
    as_total = prefcalc.settle(game, overrides=["closing=total", "pool_to_mountain=2"])
    assert prefcalc.settle(game).whists == as_total.whists
    ten = prefcalc.settle(game, overrides=["pool_whists=10"])
    one = prefcalc.settle(game, overrides=["closing=total", "pool_to_mountain=1"])
    assert ten.whists == one.whists


def test_the_settlement_steps_show_the_pools_against_the_average() -> None:
    from prefcalc.views.payloads import settlement_json
    from prefcalc.views.settlement import settlement_steps

    game = fspr4(*NIGHT)
    steps = settlement_steps(prefcalc.settle(game, "average"))
    assert steps[0] == (
        "1. Pools against the average: 12 / 4 = 3, each point above or below it 20 whists "
        "(the mountains stay as they are)"
    )
    assert steps[1:5] == [
        "   Anna: pool 2, -1 × 20 = -20",
        "   Boris: pool 0, -3 × 20 = -60",
        "   Vera: pool 4, +1 × 20 = +20",
        "   Dima: pool 6, +3 × 20 = +60",
    ]
    assert steps[-2:] == ["5. Pool whists (step 1):", "   Anna -20, Boris -60, Vera +20, Dima +60"]
    pairwise = settlement_steps(prefcalc.settle(game))
    assert "   Anna writes 10, Boris writes 0, Vera writes 20, Dima writes 30" in pairwise
    data = settlement_json(prefcalc.settle(game))
    assert data["pools"] == {
        "average": 3,
        "whists_per_point": 20,
        "whists": {"Anna": -20, "Boris": -60, "Vera": 20, "Dima": 60},
    }


def test_whole_rounding_of_the_pool_whists() -> None:
    # three players, pools 2, 0, 0: the average is 2/3
    game = fspr3("game Anna 6s 6 Boris:w Vera:p")
    exact = prefcalc.settle(game, "average")
    assert exact.pool_results == {
        "Anna": Fraction(80, 3),
        "Boris": Fraction(-40, 3),
        "Vera": Fraction(-40, 3),
    }
    whole = prefcalc.settle(game, "average", "whole")
    # 26⅔, −13⅓, −13⅓ rounded down are 26, −14, −14; the two whists missing go to the
    # largest remainders, all ⅔, so to the first seats
    assert whole.pool_results == {"Anna": 27, "Boris": -13, "Vera": -14}
    assert sum(whole.whists.values()) == 0
    pairwise = prefcalc.settle(game, "pairwise", "whole")
    assert pairwise.pool_entries == {"Anna": 13, "Boris": 0, "Vera": 0}
    assert sum(pairwise.whists.values()) == 0


def test_the_running_balance_ends_on_the_settlement() -> None:
    from prefcalc.report import running_balance

    game = fspr4(*NIGHT)
    balances = running_balance(prefcalc.sheet(game))
    assert balances[-1] == prefcalc.settle(game).whists
    first = fspr4(NIGHT[0])
    assert balances[0] == prefcalc.settle(first).whists


def test_the_status_line_says_there_is_no_target() -> None:
    from prefcalc.views.sheet_text import sheet_text

    game = fspr4(*NIGHT)
    text = sheet_text(prefcalc.sheet(game), game)
    assert "no target: played by time, every pool against the average" in text
    assert "points left" not in text


def test_the_workbook_settles_against_the_average_with_formulas(tmp_path: Path) -> None:
    """The XLSX's Settlement under closing = average: LibreOffice computes every formula to
    the engine's number (the value prefcalc caches in the cell), pools against the average
    included; the pools go into no mountain."""
    import io

    import openpyxl
    from test_export_xlsx import close, formula_cells, recalculate, row_labelled

    from prefcalc.export.xlsx import workbook_bytes

    game = fspr4(*NIGHT, "penalty Anna peek", "game Boris 6s 5 Vera:w Dima:p --looked Vera")
    data = workbook_bytes(api.report(game))
    path = tmp_path / "fspr.xlsx"
    path.write_bytes(data)
    cached = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    formulas = formula_cells(openpyxl.load_workbook(io.BytesIO(data)))
    assert len(formulas) > 50
    out = recalculate([path], tmp_path)
    computed = openpyxl.load_workbook(out / path.name, data_only=True)
    wrong = [
        (title, coord, formula, computed[title][coord].value, cached[title][coord].value)
        for (title, coord), formula in formulas.items()
        if not close(computed[title][coord].value, Fraction(cached[title][coord].value))
    ]
    assert not wrong, wrong[:10]
    ws = cached["Settlement"]
    results = prefcalc.settle(game)
    assert results.pool_average == Fraction(7, 2)  # pools 2, 2, 4, 6 (Boris made his 6♠)
    assert ws.cell(row_labelled(ws, "Average pool"), 2).value == 3.5
    assert ws.cell(row_labelled(ws, "Pool to mountain factor"), 2).value == 0
    header_row = row_labelled(ws, "Result, method 2") + 1
    header = {ws.cell(header_row, c).value: c for c in range(1, ws.max_column + 1)}
    for r in range(header_row + 1, header_row + 5):
        name = ws.cell(r, 1).value
        assert Fraction(ws.cell(r, header["Whists"]).value) == results.whists[name]
        pool = ws.cell(r, header["Pool whists (step 1)"]).value
        assert pool == results.pool_results[name]
