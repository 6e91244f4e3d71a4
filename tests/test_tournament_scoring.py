"""The tournament's scoring as pinned (docs/tournament.md, "Results"): each conversion with the
worked numbers, the tables of 4 and 3, the tie-breaks in their order; property tests for what
holds whatever the numbers."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefcalc.errors import DealError
from prefcalc.store.schemas import ConventionRecord
from prefcalc.tournament import conversions as c
from prefcalc.tournament.model import PlayerRecord, TournamentFile
from prefcalc.tournament.plans import plan
from prefcalc.tournament.standings import Seat, deals_played, rank

# --- conversions: the pinned worked numbers ----------------------------------------------------


@pytest.mark.parametrize(
    ("result", "points"),
    [
        (500, 230),  # 200 + 300 / 10
        (1000, 245),  # 200 + 450 / 10, nothing above 650
        (200, 200),
        (650, 245),
        (201, Fraction(2001, 10)),
        (0, 0),
        (-500, -230),  # losses mirrored
        (-1000, -245),
        (Fraction(1001, 3), Fraction(200) + (Fraction(1001, 3) - 200) / 10),
    ],
)
def test_cutoffs(result: Any, points: Any) -> None:
    assert c.cutoffs(result) == points


@pytest.mark.parametrize(
    ("result", "points"),
    [
        (180, 83),  # 50 + 25 + 8
        (50, 50),
        (100, 75),
        (60, 55),
        (110, 76),
        (-180, -83),
        (Fraction(-101, 2), Fraction(-201, 4)),  # -(50 + 1/2 × 1/2)
    ],
)
def test_bands(result: Any, points: Any) -> None:
    assert c.bands(result) == points


def test_places_at_a_table_of_four() -> None:
    assert c.places({"A": 30, "B": 10, "C": -15, "D": -25}) == {"A": 4, "B": 2, "C": 1, "D": 0}


def test_places_at_a_table_of_three() -> None:
    assert c.places({"A": -5, "B": 20, "C": -15}) == {"B": 4, "A": 2, "C": 0}


def test_tied_players_share_the_points_of_the_places_they_cover() -> None:
    assert c.places({"A": 10, "B": 10, "C": -5, "D": -15}) == {"A": 3, "B": 3, "C": 1, "D": 0}
    assert c.places({"A": 10, "B": -5, "C": -5, "D": 0}) == {
        "A": 4,
        "D": 2,
        "B": Fraction(1, 2),
        "C": Fraction(1, 2),
    }
    assert c.places({"A": 5, "B": 5, "C": 5, "D": -15}) == {
        "A": Fraction(7, 3),
        "B": Fraction(7, 3),
        "C": Fraction(7, 3),
        "D": 0,
    }
    assert c.places({"A": 0, "B": 0, "C": 0}) == {"A": 2, "B": 2, "C": 2}
    assert c.places({"A": 10, "B": -5, "C": -5}) == {"A": 4, "B": 1, "C": 1}


def test_place_at_table() -> None:
    assert c.place_at_table({"A": 10, "B": 10, "C": -5, "D": -15}) == {
        "A": (1, 2),
        "B": (1, 2),
        "C": (3, 3),
        "D": (4, 4),
    }


def test_per_deal_divides_by_the_deals_played() -> None:
    # a table of 4, 24 deals: each player dealt 6 and sat them out, played 18
    assert c.convert({"A": 36, "B": -36}, "raw", {"A": 18, "B": 24}) == {
        "A": 2,
        "B": Fraction(-3, 2),
    }
    assert c.per_deal(10, 0) == 0
    # per_deal comes first, then the conversion
    assert c.convert({"A": 1000, "B": -1000}, "cutoffs", {"A": 2, "B": 2}) == {"A": 230, "B": -230}


def test_raw_keeps_the_whists() -> None:
    assert c.convert({"A": Fraction(50, 3), "B": Fraction(-50, 3)}, "raw") == {
        "A": Fraction(50, 3),
        "B": Fraction(-50, 3),
    }


# --- properties --------------------------------------------------------------------------------

amounts = st.fractions(min_value=-5000, max_value=5000, max_denominator=12)


@given(amounts)
def test_conversions_are_odd_and_keep_the_sign(x: Fraction) -> None:
    for f in (c.cutoffs, c.bands):
        assert f(-x) == -f(x)
        assert (f(x) > 0) == (x > 0)
        assert abs(f(x)) <= abs(x)


@given(amounts, amounts)
def test_conversions_never_reverse_an_order(x: Fraction, y: Fraction) -> None:
    for f in (c.cutoffs, c.bands):
        if x <= y:
            assert f(x) <= f(y)


@given(st.lists(amounts, min_size=3, max_size=4))
def test_places_hand_out_the_table_s_points(values: list[Fraction]) -> None:
    results = {f"P{k}": v for k, v in enumerate(values)}
    points = c.places(results)
    assert sum(points.values()) == sum(c.PLACE_POINTS[len(values)])
    for a in results:
        for b in results:
            if results[a] == results[b]:
                assert points[a] == points[b]
            elif results[a] > results[b]:
                assert points[a] > points[b]


@given(
    st.lists(st.fractions(min_value=-300, max_value=300, max_denominator=6), min_size=2, max_size=3)
)
def test_a_table_s_raw_results_add_up_to_zero(values: list[Fraction]) -> None:
    results = {f"P{k}": v for k, v in enumerate(values)}
    results["last"] = -sum(values)
    assert sum(c.convert(results, "raw").values()) == 0
    for scoring in ("cutoffs", "bands"):  # mirrored losses: a zero-sum table's pair stays zero
        pair = {"A": values[0], "B": -values[0]}
        assert sum(c.convert(pair, scoring).values()) == 0  # type: ignore[arg-type]


# --- the plan of tables -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (6, (3, 3)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (11, (4, 4, 3)),
        (12, (4, 4, 4)),
        (13, (4, 3, 3, 3)),
        (64, (4,) * 16),
        (65, (4,) * 14 + (3,) * 3),
    ],
)
def test_plan(n: int, sizes: tuple[int, ...]) -> None:
    assert plan(n) == sizes


@given(st.integers(min_value=3, max_value=1000).filter(lambda n: n != 5))
def test_a_plan_seats_everybody_with_as_many_fours_as_possible(n: int) -> None:
    sizes = plan(n)
    assert sum(sizes) == n
    assert set(sizes) <= {3, 4}
    assert sizes.count(3) < 4  # four tables of 3 would be three of 4
    assert list(sizes) == sorted(sizes, reverse=True)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 1001])
def test_no_plan(n: int) -> None:
    with pytest.raises(DealError):
        plan(n)


# --- the tie-breaks, in the pinned order ------------------------------------------------------


def _tournament(names: list[str], seed: int = 1) -> TournamentFile:
    return TournamentFile(
        tournament=1,
        name="t",
        created="",
        players=tuple(PlayerRecord(name=n) for n in names),
        rounds=1,
        deals=4,
        minutes=None,
        convention=ConventionRecord(preset="sochi", options={}),
        target=20,
        scoring="raw",
        per_deal=False,
        seed=seed,
        draws=(),
    )


def _seat(
    name: str, points: Any, result: Any = None, remises: int = 0, passes: int = 0, misere: int = 0
) -> Seat:
    return Seat(
        name, 1, 1, points if result is None else result, points, 4, remises, passes, misere, (1, 1)
    )


def _ranked(seats: list[Seat], seed: int = 1) -> list[str]:
    t = _tournament([s.name for s in seats], seed)
    table: Any = SimpleNamespace(seats={s.name: s for s in seats})
    return [row.name for row in rank(t, [[table]]).rows]


def test_points_first() -> None:
    assert _ranked([_seat("A", 3), _seat("B", 5), _seat("C", 4)]) == ["B", "C", "A"]


def test_equal_points_larger_raw_whists() -> None:
    # places scoring: equal points, the raw whist sum decides
    seats = [_seat("A", 2, result=10), _seat("B", 2, result=30), _seat("C", 2, result=-40)]
    assert _ranked(seats) == ["B", "A", "C"]


def test_then_fewer_remises() -> None:
    seats = [_seat("A", 2, remises=2), _seat("B", 2, remises=1), _seat("C", 2, remises=3)]
    assert _ranked(seats) == ["B", "A", "C"]


def test_then_fewer_all_pass_tricks() -> None:
    seats = [
        _seat("A", 2, remises=1, passes=9),
        _seat("B", 2, remises=1, passes=4),
        _seat("C", 2, remises=0, passes=20),
    ]
    assert _ranked(seats) == ["C", "B", "A"]


def test_then_fewer_misere_tricks() -> None:
    seats = [
        _seat("A", 2, passes=3, misere=2),
        _seat("B", 2, passes=3, misere=0),
        _seat("C", 2, passes=3, misere=1),
    ]
    assert _ranked(seats) == ["B", "C", "A"]


def test_then_the_seed() -> None:
    from prefcalc.tournament.draw import seed_key

    seats = [_seat("Anna", 2), _seat("Boris", 2), _seat("Vera", 2), _seat("Dima", 2)]
    orders = set()
    for seed in range(12):
        expected = sorted(
            (s.name for s in seats), key=lambda n: seed_key(seed, "place", n.casefold())
        )
        assert _ranked(seats, seed) == expected
        orders.add(tuple(expected))
    assert len(orders) > 1  # the seed decides


def test_the_tie_statistics_of_a_table(tmp_path: Path) -> None:
    from prefcalc import api
    from prefcalc.tournament.standings import _player_deals, _tie_stats

    g = api.new_game(["Anna", "Boris", "Vera", "Dima"], "sochi")  # Anna deals first, sits out
    for line in [
        "game Boris 7h 5 Vera:w Dima:p",  # Boris down 2: a remise
        "passes Anna=2 Vera=5 Dima=3",  # Boris dealt
        "misere Anna 2",  # Vera dealt: Anna's misère, 2 tricks
        "game Anna 6s 6 Boris:w Vera:p",  # Dima dealt
        "adjust Vera --mountain 5 --note peeked",
    ]:
        g = api.record(g, line)
    assert deals_played(g) == 4
    assert _player_deals(g) == {"Anna": 3, "Boris": 3, "Vera": 3, "Dima": 3}
    assert _tie_stats(g) == {
        "Anna": [0, 2, 2],
        "Boris": [1, 0, 0],
        "Vera": [0, 5, 0],
        "Dima": [0, 3, 0],
    }


def test_the_round_counts_the_ledger_up_to_its_first_deal_beyond() -> None:
    """docs/tournament.md §4.1, pin: a round of 2 deals counts a table's ledger up to its
    third deal (the adjustment recorded before it counts), nothing from it on."""
    from prefcalc import api
    from prefcalc.tournament.standings import round_part

    g = api.new_game(["Anna", "Boris", "Vera"], "sochi")
    lines = [
        "game Anna 6s 6 Boris:w Vera:p",
        "adjust Vera --mountain 5 --note peeked",
        "game Boris 7h 7 Vera:w Anna:p",
        "adjust Anna --mountain 3 --note late",  # after the round's last deal: counts
        "game Vera 6d 6 Anna:w Boris:p",  # the deal beyond: set aside
        "adjust Boris --mountain 4 --note after",  # from it on: set aside too
        "game Anna 6c 6 Boris:w Vera:p",
    ]
    for line in lines:
        g = api.record(g, line)
    counted, over = round_part(g, 2)
    assert over == 2 and counted.entries == g.entries[:4] and deals_played(counted) == 2
    assert round_part(g, 4) == (g, 0)  # a round of 4: every deal is the round's
    same, none = round_part(g._replace(entries=g.entries[:4]), 2)
    assert none == 0 and same.entries == g.entries[:4]
    assert api.sheet(counted).mountain == api.sheet(g._replace(entries=g.entries[:4])).mountain
