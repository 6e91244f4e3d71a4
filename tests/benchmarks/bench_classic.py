"""Issue 11: scoring 100,000 deals of a Classic night (the opening circles, bombs earned by
blind passes and used by the declarers, dark games) against ``json.loads`` of its record."""

from __future__ import annotations

from functools import cache

from bench_scoring import scoring_against_json
from run import Figure
from support import random_classic_game

from prefcalc.rules.model import Game
from prefcalc.store.ledger import game_to_json_text

DEALS = 100_000


@cache
def _game() -> tuple[Game, str]:
    game = random_classic_game(11, DEALS, 3, target=10**9)
    return game, game_to_json_text(game)


def scoring() -> tuple[float, float, str]:
    return scoring_against_json(*_game())


FIGURES: list[Figure] = [
    (f"score {DEALS:,} deals of a Classic night", 5.0, scoring),
]
