"""The draw (docs/tournament.md, "Seating"): round 1 from the seed, the same on every computer;
Swiss rounds in consecutive groups of the ranking, then the fewest repeated pairs, then the
closest to the ranking, then the seed."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_support import least_repeats

from prefcalc.tournament.draw import (
    EXHAUSTIVE,
    first_round,
    met_pairs,
    repeated_pairs,
    seat,
    seed_key,
    swiss,
)
from prefcalc.tournament.plans import plan

NAMES = [f"P{k:02d}" for k in range(64)]


def test_round_one_is_the_same_everywhere() -> None:
    # a keyed BLAKE2 of the seed and the names: pinned, so a change of the draw is noticed
    seven = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"]
    assert first_round(seven, 7) == [("Boris", "Egor", "Vera", "Dima"), ("Fedya", "Gleb", "Anna")]
    assert seat(("Boris", "Egor", "Vera", "Dima"), 7, 1, 1) == (
        ("Dima", "Vera", "Boris", "Egor"),
        "Vera",
    )
    assert seed_key(7, "draw", 1, "anna").hex() == "e2451da0b54bba1d92c17825ffeafc63"
    assert first_round(seven, 8) != first_round(seven, 7)


def test_round_one_ignores_the_order_of_registration() -> None:
    names = NAMES[:13]
    assert first_round(names, 3) == first_round(list(reversed(names)), 3)


def test_seats_and_dealer_are_drawn() -> None:
    dealers = {seat(("A", "B", "C", "D"), s, 1, 1)[1] for s in range(40)}
    assert dealers == {"A", "B", "C", "D"}
    orders = {seat(("A", "B", "C", "D"), s, 1, 1)[0] for s in range(40)}
    assert len(orders) > 4


@pytest.mark.parametrize("n", [7, 8, 16, 30, 64])
def test_without_meetings_the_groups_are_the_ranking_s(n: int) -> None:
    ranking = NAMES[:n]
    tables = swiss(ranking, set(), 1, 2)
    sizes = plan(n)
    start = 0
    for table, size in zip(tables, sizes, strict=True):
        assert list(table) == ranking[start : start + size]
        start += size


def test_a_repeat_is_swapped_out_closest_to_the_ranking() -> None:
    ranking = NAMES[:8]
    met = met_pairs([[(ranking[0], ranking[1])]])  # the first two met
    tables = swiss(ranking, met, 1, 2)
    # swapping the second with the fifth is the least move that separates them
    assert tables == [
        (ranking[0], ranking[2], ranking[3], ranking[4]),
        (ranking[1], ranking[5], ranking[6], ranking[7]),
    ]


def _random_history(rng: random.Random, names: list[str], rounds: int) -> set[frozenset[str]]:
    earlier = []
    for _ in range(rounds):
        order = names[:]
        rng.shuffle(order)
        sizes = plan(len(names))
        tables, start = [], 0
        for size in sizes:
            tables.append(tuple(order[start : start + size]))
            start += size
        earlier.append(tables)
    return met_pairs(earlier)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=6, max_value=EXHAUSTIVE), st.integers(0, 3), st.integers(0, 10**6))
def test_small_fields_repeat_the_fewest_pairs(n: int, rounds: int, seed: int) -> None:
    names = NAMES[:n]
    met = _random_history(random.Random(seed), names, rounds)
    tables = swiss(names, met, seed, rounds + 1)
    assert sorted(p for t in tables for p in t) == sorted(names)
    assert [len(t) for t in tables] == list(plan(n))
    assert repeated_pairs(tables, met) == least_repeats(names, plan(n), met)


def test_a_large_field_finds_a_seating_without_repeats() -> None:
    # round 1 seated the ranking's own groups: round 2 must mix them completely
    names = NAMES[:16]
    met = met_pairs([[tuple(names[k : k + 4]) for k in range(0, 16, 4)]])
    tables = swiss(names, met, 5, 2)
    assert repeated_pairs(tables, met) == 0
    assert sorted(p for t in tables for p in t) == sorted(names)


def test_sixty_four_players_seven_rounds_repeat_nobody() -> None:
    rng = random.Random(64)
    earlier: list[list[tuple[str, ...]]] = [first_round(NAMES, 64)]
    for r in range(2, 8):
        ranking = NAMES[:]
        rng.shuffle(ranking)  # any standings
        tables = swiss(ranking, met_pairs(earlier), 64, r)
        assert repeated_pairs(tables, met_pairs(earlier)) == 0
        assert sorted(p for t in tables for p in t) == sorted(NAMES)
        earlier.append(tables)
    assert swiss(NAMES, met_pairs(earlier), 64, 8) == swiss(NAMES, met_pairs(earlier), 64, 8)


def test_the_seed_breaks_ties_between_equal_seatings() -> None:
    names = NAMES[:8]
    # everyone met everyone: every seating repeats 12 pairs and the ranking's own is closest
    met = {frozenset(p) for p in itertools.combinations([n.casefold() for n in names], 2)}
    assert swiss(names, met, 1, 2) == [tuple(names[:4]), tuple(names[4:])]
