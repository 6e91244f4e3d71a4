"""Issue 3: scoring 100,000 deals against ``json.loads`` of the same record's JSON;
issue 5: settling the same game against scoring it alone; issue 10: loading and validating
the ledger file against ``json.loads`` of it."""

from __future__ import annotations

import json
from functools import cache

from run import Figure, best_of, interleaved
from support import random_game

from prefcalc.rules.model import Game
from prefcalc.rules.scoring import score
from prefcalc.rules.settlement import settle
from prefcalc.store.ledger import game_from_bytes, game_to_json_text, resolve_convention

DEALS = 100_000


@cache
def _game() -> tuple[Game, str]:
    game = random_game(11, DEALS, 3, "sochi", target=10**9)
    return game, game_to_json_text(game)


def scoring() -> tuple[float, float, str]:
    return scoring_against_json(*_game())


def scoring_against_json(game: Game, text: str) -> tuple[float, float, str]:
    """Scoring ``game`` against ``json.loads`` of its record ``text`` (best of 5 each)."""
    conv = resolve_convention(game.convention)
    floor = best_of(lambda: json.loads(text), 5)
    ours = best_of(lambda: score(game, conv), 5)
    return ours, floor, f"json.loads of the record's JSON ({len(text) / 1e6:.1f} MB, best of 5)"


def load_and_score() -> tuple[float, float, str]:
    game, text = _game()
    raw = text.encode("utf-8")
    conv = resolve_convention(game.convention)
    ours, floor = interleaved(lambda: score(game_from_bytes(raw), conv), lambda: json.loads(raw), 3)
    return (
        ours,
        floor,
        "json.loads alone; ours = what loading does (parse and validate the file in one"
        " pass, check every deal, build the record) + score (best of 3, interleaved)",
    )


def loading() -> tuple[float, float, str]:
    _, text = _game()
    raw = text.encode("utf-8")
    ours, floor = interleaved(lambda: game_from_bytes(raw), lambda: json.loads(raw), 5)
    return (
        ours,
        floor,
        f"json.loads of the ledger file ({len(raw) / 1e6:.1f} MB); ours = parse, validate with"
        " pydantic and every deal check, build the record (best of 5, interleaved)",
    )


def settling() -> tuple[float, float, str]:
    game, _ = _game()
    conv = resolve_convention(game.convention)
    floor = best_of(lambda: score(game, conv), 5)
    ours = best_of(
        lambda: settle(score(game, conv), "pairwise", "exact", game.whist_price, game.currency), 5
    )
    return ours, floor, "score(game) alone; ours = score + settle (best of 5)"


FIGURES: list[Figure] = [
    (f"score {DEALS:,} deals", 5.0, scoring),
    (f"load, validate and score {DEALS:,} deals", 5.0, load_and_score),
    (f"load and validate a {DEALS:,}-deal ledger", 3.0, loading),
    (f"settle a {DEALS:,}-deal game", 1.2, settling),
]
