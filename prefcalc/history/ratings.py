"""Ratings across the club's history: pairwise Elo at each table (docs/tournament.md,
"Ratings").

*Pin* (as the open rating scripts do it): the games are taken in date order (the order
:func:`prefcalc.history.club.collect` gives them); everybody starts at 1500. At each table
every pair of players scores 1, ½ or 0 by comparing their results (the whist balances of the
game's settlement); the expected score of A against B is 1 / (1 + 10^((Rb − Ra) / 400)); each
pair moves the ratings by K = 16 times (score − expected), divided by the number of
opponents at the table, all pairs of a game from the ratings before it. Players are matched
across games by their name's key (``ANNA`` is ``Anna``), shown with their latest spelling.

The arithmetic is binary floating point, in a fixed order: the same games give the same
ratings, to the last bit, on the same platform; they are shown rounded to a whole point.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from prefcalc.rules.amounts import Amount
from prefcalc.rules.model import name_key


class Night(Protocol):
    """What a rating reads of one game (a :class:`prefcalc.history.club.Night`): who
    played and each player's result in whists."""

    @property
    def players(self) -> Sequence[str]: ...
    @property
    def result(self) -> Mapping[str, Amount]: ...


START = 1500.0
K = 16.0
SCALE = 400.0


@dataclass(frozen=True)
class Rating:
    name: str
    key: str
    rating: float
    games: int  # the games he was rated in
    change: float  # what his last game changed


def expected(mine: float, theirs: float) -> float:
    """The expected score of a player rated ``mine`` against one rated ``theirs``."""
    return 1.0 / (1.0 + math.pow(10.0, (theirs - mine) / SCALE))


def score(mine: Amount, theirs: Amount) -> float:
    """1 for the larger result, ½ for equal ones, 0 for the smaller."""
    return 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0


def elo(nights: Sequence[Night]) -> list[Rating]:
    """Every player's rating after ``nights`` (oldest first), the best first."""
    rating: dict[str, float] = {}
    games: dict[str, int] = {}
    change: dict[str, float] = {}
    names: dict[str, str] = {}
    for night in nights:
        players = night.players
        if len(players) < 2:
            continue
        keys = [name_key(p) for p in players]
        before = [rating.get(k, START) for k in keys]
        factor = K / (len(players) - 1)
        results = [night.result[p] for p in players]
        for i, key in enumerate(keys):
            delta = 0.0
            for j in range(len(players)):
                if j != i:
                    delta += factor * (
                        score(results[i], results[j]) - expected(before[i], before[j])
                    )
            rating[key] = before[i] + delta
            change[key] = delta
            games[key] = games.get(key, 0) + 1
            names[key] = players[i]
    table = [Rating(names[k], k, rating[k], games[k], change[k]) for k in rating]
    return sorted(table, key=lambda r: (-r.rating, r.key))
