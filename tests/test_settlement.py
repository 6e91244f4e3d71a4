"""Settlement (docs/rules.md §5), with every number worked out by hand."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from support import preset

from prefcalc.rules.scoring import Sheet
from prefcalc.rules.settlement import largest_remainder, payments, round_half_up, settle
from prefcalc.views.payloads import settlement_json
from prefcalc.views.settlement import compare_text, settlement_text


def sheet(
    pools: dict[str, Any],
    mountains: dict[str, Any],
    whists: dict[str, dict[str, Any]],
    convention: str = "sochi",
    target: int = 10,
) -> Sheet:
    players = tuple(pools)
    full = {p: {q: whists.get(p, {}).get(q, 0) for q in players if q != p} for p in players}
    return Sheet(
        players, preset(convention), target, (), pools, mountains, full, 0, players[0], False, 6, ()
    )


SEED = sheet(
    {"A": 10, "B": 10, "C": 10},
    {"A": 20, "B": 8, "C": 2},
    {"A": {"B": 30, "C": 10}, "B": {"A": 16, "C": 20}, "C": {"A": 40, "B": 6}},
)


@pytest.mark.parametrize("method", ["pairwise", "average"])
@pytest.mark.parametrize("rounding", ["exact", "whole"])
def test_rules_seed_check_a_minus_116_b_plus_20_c_plus_96(method: str, rounding: str) -> None:
    # amnesty 2 -> 18, 6, 0; entries 10m/3 = 60, 20, 0; avg 8 -> -100, +20, +80;
    # game whists: A 40-56 = -16, B 36-36 = 0, C 46-30 = +16.
    result = settle(SEED, method, rounding)
    assert result.whists == {"A": -116, "B": 20, "C": 96}
    assert result.amnestied == {"A": 18, "B": 6, "C": 0}


def test_seed_check_steps_of_both_methods() -> None:
    one = settle(SEED, "pairwise")
    assert one.mountain_entries == {"A": 60, "B": 20, "C": 0}
    # A-B: (30 + 20) - (16 + 60) = -26; A-C: (10 + 0) - (40 + 60) = -90; B-C: (20 + 0) - (6 + 20) = -6
    assert one.pairwise[("A", "B")] == -26 and one.pairwise[("B", "A")] == 26
    assert one.pairwise[("A", "C")] == -90 and one.pairwise[("B", "C")] == -6
    two = settle(SEED, "average")
    assert two.average == 8
    assert two.mountain_whists == {"A": -100, "B": 20, "C": 80}
    assert two.game_whists == {"A": -16, "B": 0, "C": 16}


def test_four_players_count_the_sitting_out_dealer() -> None:
    # mountains 12, 4, 0, 8 -> amnesty 0: 12, 4, 0, 8; avg 6; 10 x (6 - m) = -60, 20, 60, -20.
    # game whists: A wrote 8 on D, D wrote 4 on A: A +4, D -4.
    s = sheet(
        {"A": 10, "B": 10, "C": 10, "D": 10},
        {"A": 12, "B": 4, "C": 0, "D": 8},
        {"A": {"D": 8}, "D": {"A": 4}},
    )
    for method in ("pairwise", "average"):
        result = settle(s, method)
        assert result.whists == {"A": -56, "B": 20, "C": 60, "D": -24}
    # method 1: each of the 3 opponents writes 10 x m / 4 on a player: 30, 10, 0, 20
    assert settle(s, "pairwise").mountain_entries == {"A": 30, "B": 10, "C": 0, "D": 20}


def test_unclosed_pools_go_into_the_mountain_leningrad_doubles_them() -> None:
    # Leningrad pool_to_mountain 2: largest pool 16; A +0, B +2 x 6 = 12, C +2 x 16 = 32
    s = sheet(
        {"A": 16, "B": 10, "C": 0}, {"A": 4, "B": 0, "C": 2}, {}, convention="leningrad", target=20
    )
    result = settle(s, "average")
    assert result.pool_max == 16 and result.pool_factor == 2
    assert result.mountains == {"A": 4, "B": 12, "C": 34}
    # amnesty 4: 0, 8, 30; avg 38/3; 10 x (avg - m) = 380/3, 140/3, -520/3
    assert result.whists == {"A": Fraction(380, 3), "B": Fraction(140, 3), "C": Fraction(-520, 3)}
    sochi = settle(
        sheet({"A": 16, "B": 10, "C": 0}, {"A": 4, "B": 0, "C": 2}, {}, target=20), "average"
    )
    assert sochi.mountains == {"A": 4, "B": 6, "C": 18}


FRACTIONAL = sheet({"A": 10, "B": 10, "C": 10}, {"A": 0, "B": 5, "C": 0}, {})


def test_fractional_exact_10_times_5_over_3() -> None:
    # entries 10 x 5 / 3 = 16⅔ on B; A and C each win 16⅔ from B
    for method in ("pairwise", "average"):
        result = settle(FRACTIONAL, method, "exact")
        assert result.whists == {"A": Fraction(50, 3), "B": Fraction(-100, 3), "C": Fraction(50, 3)}
    assert "16⅔" in settlement_text(settle(FRACTIONAL, "pairwise"))


def test_fractional_whole_rounding_differs_between_the_methods() -> None:
    # method 1 rounds the entry 16⅔ half up to 17: A +17, B -34, C +17
    assert settle(FRACTIONAL, "pairwise", "whole").whists == {"A": 17, "B": -34, "C": 17}
    # method 2: 16⅔, -33⅓, 16⅔ -> floors 16, -34, 16 (sum -2); the equal remainders ⅔ go
    # to the first players in seating order: A 17, B -33, C 16
    assert settle(FRACTIONAL, "average", "whole").whists == {"A": 17, "B": -33, "C": 16}
    text = compare_text(
        settle(FRACTIONAL, "pairwise", "whole"), settle(FRACTIONAL, "average", "whole")
    )
    assert "differ" in text


def test_money_is_rounded_to_the_currency_unit_and_still_adds_up() -> None:
    # 16⅔ x 0.10 = 1.666…, -3.333…, 1.666… -> cents 1.66, -3.34, 1.66 (sum -0.02),
    # one cent each to the equal largest remainders in seating order: 1.67, -3.33, 1.66
    result = settle(FRACTIONAL, "average", "exact", Fraction(1, 10), "EUR")
    assert result.money == {
        "A": Fraction(167, 100),
        "B": Fraction(-333, 100),
        "C": Fraction(166, 100),
    }
    data = settlement_json(result)
    assert [p["money"] for p in data["players"]] == [1.67, -3.33, 1.66]
    assert abs(data["players"][0]["whists"] - 16.6667) < 1e-3
    yen = settle(FRACTIONAL, "average", "exact", Fraction(7), "JPY")
    # 116⅔, -233⅓, 116⅔ -> 116, -234, 116 (+2): 117, -233, 116
    assert yen.money == {"A": 117, "B": -233, "C": 116}


def test_payments_are_few_and_settle_everything() -> None:
    assert [
        (p.payer, p.payee, p.amount)
        for p in payments({"A": -116, "B": 20, "C": 96}, ["A", "B", "C"])
    ] == [
        ("A", "C", 96),
        ("A", "B", 20),
    ]
    plan = payments({"A": -5, "B": -5, "C": 3, "D": 7}, ["A", "B", "C", "D"])
    assert len(plan) <= 3
    assert payments({"A": 0, "B": 0, "C": 0}, ["A", "B", "C"]) == []


def test_rounding_helpers() -> None:
    assert [round_half_up(Fraction(x, 2)) for x in (-3, -1, 1, 3, 5)] == [-2, -1, 1, 2, 3]
    assert round_half_up(Fraction(50, 3)) == 17
    assert largest_remainder([Fraction(1, 3)] * 3 + [Fraction(-1)]) == [1, 0, 0, -1]
    assert largest_remainder([Fraction(5, 2), Fraction(-5, 2)]) == [3, -3]


def test_provisional_settlement_of_a_game_in_progress() -> None:
    s = sheet({"A": 4, "B": 0, "C": 2}, {"A": 0, "B": 0, "C": 0}, {"B": {"A": 12}})
    # pools to mountains: A 0, B 4, C 2; avg 2: +20, -20, 0; game whists A -12, B +12
    assert settle(s, "pairwise").whists == {"A": 8, "B": -8, "C": 0}


def test_the_text_names_the_method_and_the_rounding() -> None:
    text = settlement_text(settle(SEED, "average", "whole", Fraction(1, 2), "EUR"))
    assert "average method (method 2), rounding: whole" in text
    assert "A pays C 48.00 EUR" in text
