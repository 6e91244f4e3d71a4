"""A table's results turned into a tournament's points (docs/tournament.md, "Results").

A player's *result* at a table is his whist balance after the settlement (pairwise, exact:
the Code's base criterion); the results of a table add up to zero. Before the rounds are
summed, each result may be

* divided by the deals the player played (``per_deal``: a 3-table's and a 4-table's results
  become comparable; a player who sat out a deal as the dealer did not play it), then
* converted by the tournament's ``scoring``:

  - ``raw``: as it is;
  - ``cutoffs``: the first 200 in full, above 200 one in ten, above 650 nothing
    (+500 → 230, +1000 → 245), a loss the same with the sign reversed;
  - ``bands``: 0-50 in full, 50-100 one in two, above 100 one in ten (+180 → 83), losses
    mirrored;
  - ``places``: points by the place at the table, 4-2-1-0 at a table of 4 and 4-2-0 at a
    table of 3; players tied on the result share the points of the places they cover.

Everything is a :class:`~fractions.Fraction` (or an int): nothing is rounded here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Literal, TypeAlias

from prefcalc.rules.amounts import Amount, norm

Scoring: TypeAlias = Literal["raw", "cutoffs", "bands", "places"]
SCORINGS: tuple[Scoring, ...] = ("raw", "cutoffs", "bands", "places")

Tier = tuple[int | None, Fraction]
"""Up to a bound (``None``: no bound), the factor a result counts with."""

CUTOFFS: tuple[Tier, ...] = ((200, Fraction(1)), (650, Fraction(1, 10)), (None, Fraction(0)))
BANDS: tuple[Tier, ...] = ((50, Fraction(1)), (100, Fraction(1, 2)), (None, Fraction(1, 10)))
PLACE_POINTS: Mapping[int, tuple[int, ...]] = {4: (4, 2, 1, 0), 3: (4, 2, 0)}


def tiered(value: Amount, tiers: Sequence[Tier]) -> Amount:
    """``value`` counted tier by tier: each part of its size up to a tier's bound counts
    with that tier's factor; a negative value is mirrored (the function is odd)."""
    size = abs(Fraction(value))
    total = Fraction(0)
    low = Fraction(0)
    for bound, factor in tiers:
        top = size if bound is None else min(size, Fraction(bound))
        if top > low:
            total += (top - low) * factor
        if bound is None or size <= bound:
            break
        low = Fraction(bound)
    return norm(total if value >= 0 else -total)


def cutoffs(value: Amount) -> Amount:
    """``cutoffs``: +500 → 230, +1000 → 245, −500 → −230."""
    return tiered(value, CUTOFFS)


def bands(value: Amount) -> Amount:
    """``bands``: +180 → 50 + 25 + 8 = 83, −180 → −83."""
    return tiered(value, BANDS)


def places(results: Mapping[str, Amount]) -> dict[str, Amount]:
    """Points by place at a table of 4 (4-2-1-0) or 3 (4-2-0): the players tied on their
    result share the points of the places they cover (two tied first at a 4-table: 3 each)."""
    points = PLACE_POINTS.get(len(results))
    if points is None:
        raise ValueError(f"places are scored at tables of 3 and 4, not {len(results)}")
    ordered = sorted(results.values(), reverse=True)
    out: dict[str, Amount] = {}
    for name, value in results.items():
        first = ordered.index(value)
        count = ordered.count(value)
        out[name] = norm(Fraction(sum(points[first : first + count]), count))
    return out


def place_at_table(results: Mapping[str, Amount]) -> dict[str, tuple[int, int]]:
    """Each player's place at his table by his result: ``(first, last)`` of the places his
    tie covers (``(2, 3)`` for two tied second; ``(1, 1)`` alone first)."""
    ordered = sorted(results.values(), reverse=True)
    return {
        name: (ordered.index(v) + 1, ordered.index(v) + ordered.count(v))
        for name, v in results.items()
    }


def per_deal(result: Amount, deals: int) -> Amount:
    """``per_deal``: the result divided by the deals the player played (0 when none)."""
    return norm(Fraction(result) / deals) if deals else 0


def convert(
    results: Mapping[str, Amount],
    scoring: Scoring,
    deals: Mapping[str, int] | None = None,
) -> dict[str, Amount]:
    """The points of every player of one table: ``results`` (whists, exact) divided by the
    ``deals`` each played when given (``per_deal``), then converted by ``scoring``."""
    values = {p: per_deal(v, deals[p]) for p, v in results.items()} if deals else dict(results)
    if scoring == "raw":
        return {p: norm(v) for p, v in values.items()}
    if scoring == "cutoffs":
        return {p: cutoffs(v) for p, v in values.items()}
    if scoring == "bands":
        return {p: bands(v) for p, v in values.items()}
    if scoring == "places":
        return places(values)
    raise ValueError(f"unknown scoring {scoring!r}")
