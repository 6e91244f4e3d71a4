"""Issue 11: scoring 100,000 deals of a Classic night (the opening circles, bombs earned by
blind passes and used by the declarers, dark games) against ``json.loads`` of its record."""

from __future__ import annotations

import json
from functools import cache

from run import Figure, best_of
from support import random_classic_game

from prefcalc.ledger import game_to_json_text, resolve_convention
from prefcalc.model import Game
from prefcalc.scoring import score

DEALS = 100_000


@cache
def _game() -> tuple[Game, str]:
    game = random_classic_game(11, DEALS, 3, target=10**9)
    return game, game_to_json_text(game)


def scoring() -> tuple[float, float, str]:
    game, text = _game()
    conv = resolve_convention(game.convention)
    floor = best_of(lambda: json.loads(text), 5)
    ours = best_of(lambda: score(game, conv), 5)
    return ours, floor, f"json.loads of the record's JSON ({len(text) / 1e6:.1f} MB, best of 5)"


FIGURES: list[Figure] = [
    (f"score {DEALS:,} deals of a Classic night", 5.0, scoring),
]
