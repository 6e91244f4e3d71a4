"""Invariants over random legal games of 2 to 5 players, every preset and random house rules."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
from hypothesis import given
from hypothesis import strategies as st
from support import game_from_json, random_game

from prefcalc.rules.conventions import Convention
from prefcalc.rules.legality import misfit
from prefcalc.rules.model import Adjustment, Game, seating
from prefcalc.rules.scoring import MOUNTAIN, POOL, Sheet, score
from prefcalc.rules.settlement import minor_unit, settle
from prefcalc.store.ledger import (
    game_from_bytes,
    game_to_json_text,
    resolve_convention,
)

HOUSE_RULES: dict[str, Any] = {
    "whist_factor": st.sampled_from([1, 2]),
    "remise_factor": st.sampled_from([1, 2]),
    "consolation": st.sampled_from(["price", 10, 5, 0]),
    "dealer_consolation": st.booleans(),
    "liability": st.sampled_from([1, "0.5", "1/3"]),
    "lone_whister": st.sampled_from(["greedy", "gentleman"]),
    "two_whisters": st.sampled_from(["split", "both", "each"]),
    "half_whist": st.booleans(),
    "ten_norm": st.sampled_from([0, 1]),
    "mountain_first": st.booleans(),
    "passes.scoring": st.sampled_from(["mountain", "whists"]),
    "passes.prices": st.sampled_from([[1], [1, 2, 3], [2, 4, 6], [1, 2, 4], [1, 3]]),
    "passes.after_last": st.sampled_from(["hold", "arithmetic", "geometric"]),
    "passes.zero_bonus": st.sampled_from(["price", 0, 1, 2]),
    "passes.amnesty": st.booleans(),
    "passes.ties": st.sampled_from(["each", "split"]),
    "passes.dealer_bonus": st.sampled_from([0, 1]),
    "passes.exit": st.sampled_from([[6, 6, 6], [6, 7, 7], [7, 7, 7], [6, 7, 8]]),
    "passes.misere_ends": st.booleans(),
    "passes.ends_streak": st.sampled_from(["any", "whisted"]),
    "closing": st.sampled_from(["each", "total"]),
    "help": st.sampled_from(["most", "hole", "none"]),
    "help_whists": st.sampled_from([10, 5]),
    "pool_to_mountain": st.sampled_from([1, 2, "1.5"]),
}


@st.composite
def games(
    draw: st.DrawFn, closing: str | None = None, adjustments: bool = True
) -> tuple[Game, Convention]:
    """A random legal record under a random preset with random house rules."""
    preset = draw(st.sampled_from(["sochi", "leningrad", "rostov"]))
    keys = draw(st.lists(st.sampled_from(sorted(HOUSE_RULES)), unique=True, max_size=8))
    options = {key: draw(HOUSE_RULES[key]) for key in keys}
    if closing is not None:
        options["closing"] = closing
    players = draw(st.sampled_from([2, 3, 4, 5]))
    deals = draw(st.integers(min_value=0, max_value=80))
    target = draw(st.sampled_from([6, 10, 20, 30]))
    joins = draw(st.booleans())  # late arrivals, up to five at the table
    rng = draw(st.randoms(use_true_random=False))
    game = random_game(
        rng,
        deals,
        players,
        preset,
        target=target,
        options=options,
        adjustments=adjustments,
        joins=joins,
    )
    return game, resolve_convention(game.convention)


def running_totals(sheet: Sheet) -> list[tuple[bool, dict[tuple[str, str, str | None], Any]]]:
    """After each entry: (was it an adjustment, every sheet cell) rebuilt from the writes."""
    cells: dict[tuple[str, str, str | None], Any] = {}
    out = []
    for scored in sheet.scored:
        for w in scored.writes:
            key = (w.player, w.column, w.on)
            cells[key] = cells.get(key, 0) + w.amount
        out.append((isinstance(scored.entry.deal, Adjustment), dict(cells)))
    return out


LEDGER_SCHEMA_VALIDATOR = jsonschema.Draft202012Validator(
    json.loads(
        (Path(__file__).resolve().parent.parent / "schemas" / "ledger.schema.json").read_text(
            encoding="utf-8"
        )
    )
)


@given(games())
def test_replay_is_deterministic_and_survives_the_ledger(case: tuple[Game, Convention]) -> None:
    game, conv = case
    assert misfit(game, conv) is None  # every entry fits the seating of its moment
    first = score(game, conv)
    assert score(game, conv) == first
    text = game_to_json_text(game)
    reloaded = game_from_json(json.loads(text))
    assert reloaded == game
    assert game_from_bytes(text.encode("utf-8")) == game  # the file path: one pydantic pass
    assert score(reloaded, conv) == first
    LEDGER_SCHEMA_VALIDATOR.validate(json.loads(text))  # the committed JSON Schema agrees


@given(games())
def test_totals_are_the_sum_of_the_writes_and_every_write_explains_itself(
    case: tuple[Game, Convention],
) -> None:
    game, conv = case
    sheet = score(game, conv)
    cells = running_totals(sheet)[-1][1] if sheet.scored else {}
    for p in sheet.players:
        assert sheet.pool[p] == cells.get((p, POOL, None), 0)
        assert sheet.mountain[p] == cells.get((p, MOUNTAIN, None), 0)
        for q in sheet.players:
            if q != p:
                assert sheet.whists[p][q] == cells.get((p, "whists", q), 0)
    for scored in sheet.scored:
        for w in scored.writes:
            assert w.amount != 0
            assert w.reason and "{" not in w.reason


@given(games(closing="each", adjustments=False))
def test_under_closing_each_no_pool_ever_passes_the_target(case: tuple[Game, Convention]) -> None:
    game, conv = case
    sheet = score(game, conv)
    for _, cells in running_totals(sheet):
        for p in sheet.players:
            assert cells.get((p, POOL, None), 0) <= game.target


@given(games())
def test_no_entry_is_ever_negative(case: tuple[Game, Convention]) -> None:
    # the generator's adjustments only add, so no cell may go below zero at any moment
    game, conv = case
    for _, cells in running_totals(score(game, conv)):
        assert all(value >= 0 for value in cells.values()), cells


@given(games())
def test_every_option_combination_scores_and_settles(case: tuple[Game, Convention]) -> None:
    game, conv = case
    sheet = score(game, conv)
    assert sheet.problems == () or all(p.message for p in sheet.problems)
    for method in ("pairwise", "average"):
        for rounding in ("exact", "whole"):
            settle(sheet, method, rounding, Fraction(1, 10), "EUR")


def _sheet_with(
    sheet: Sheet, mountain: dict[str, Any], whists: dict[str, dict[str, Any]] | None = None
) -> Sheet:
    return sheet._replace(mountain=mountain, whists=whists or sheet.whists)


@given(
    games(),
    st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(1, 10), Fraction(3, 100)]),
    st.sampled_from(["EUR", "JPY", "RUB"]),
)
def test_settlement_adds_up_and_both_methods_agree_exactly(
    case: tuple[Game, Convention], price: Fraction, currency: str
) -> None:
    game, conv = case
    sheet = score(game, conv)
    one = settle(sheet, "pairwise", "exact", price, currency)
    two = settle(sheet, "average", "exact", price, currency)
    assert one.whists == two.whists
    assert sum(one.whists.values()) == 0
    assert sum(one.money.values()) == 0
    unit = minor_unit(currency)
    for p in sheet.players:
        assert Fraction(one.money[p]) % unit == 0
        assert abs(Fraction(one.money[p]) - Fraction(one.whists[p]) * price) < unit
    for rounding in ("whole",):
        for method in ("pairwise", "average"):
            rounded = settle(sheet, method, rounding, price, currency)
            assert sum(rounded.whists.values()) == 0
            if all(
                Fraction(v).denominator == 1 for row in sheet.whists.values() for v in row.values()
            ):
                assert all(isinstance(v, int) for v in rounded.whists.values())


@given(games(), st.integers(min_value=1, max_value=500))
def test_adding_a_constant_to_every_mountain_changes_nothing(
    case: tuple[Game, Convention], constant: int
) -> None:
    game, conv = case
    sheet = score(game, conv)
    lifted = _sheet_with(sheet, {p: m + constant for p, m in sheet.mountain.items()})
    for method in ("pairwise", "average"):
        for rounding in ("exact", "whole"):
            assert settle(lifted, method, rounding).whists == settle(sheet, method, rounding).whists


@given(games(), st.sampled_from([Fraction(1, 2), Fraction(1, 10), Fraction(1)]))
def test_payments_settle_every_balance_with_at_most_n_minus_1_transfers(
    case: tuple[Game, Convention], price: Fraction
) -> None:
    game, conv = case
    result = settle(score(game, conv), "average", "exact", price, "EUR")
    left = dict(result.money)
    for payment in result.payments:
        assert payment.amount > 0 and payment.payer != payment.payee
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    assert all(v == 0 for v in left.values())
    assert len(result.payments) <= len(seating(game)) - 1  # N: seated at the end


def test_rescoring_never_changes_the_record() -> None:
    game = random_game(random.Random(7), 200, 4, "sochi", target=30)
    text = game_to_json_text(game)
    for preset in ("sochi", "leningrad", "rostov"):
        from prefcalc.store.conventions import load_preset

        score(game, load_preset(preset))
    assert game_to_json_text(game) == text
