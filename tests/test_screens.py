"""The sheet on an 80-column terminal (3, 4 and 5 players, long names, big numbers) and the
points left to the end under ``closing = total``."""

from __future__ import annotations

import pytest

from prefcalc import api
from prefcalc.rules.model import MAX_NAME, Game
from prefcalc.views.sheet_text import compact_text, sheet_text

LONG = ["Alexandra", "Bartholomew", "Veronika", "Gleb", "Dmitriy"]


def _five(game: Game) -> Game:
    """A 5-player table for the screen only (recording 5 players is another change)."""
    return game._replace(players=(*game.players, "Dmitriy"))


@pytest.mark.parametrize(
    "names", [LONG[:3], LONG[:4], ["X" * MAX_NAME, "Y" * MAX_NAME, "Z" * MAX_NAME, "W" * MAX_NAME]]
)
@pytest.mark.parametrize("convention", ["sochi", "leningrad"])
def test_the_sheet_fits_80_columns(names: list[str], convention: str) -> None:
    g = api.new_game(names, convention, 20)
    b = names[3] if len(names) == 4 else names[0]
    g = api.record(g, f"game {names[1][:1]} 10nt 0 {names[2][:1]}:w {b[:1]}:p")
    g = api.record(g, f"adjust {names[0][:1]} --mountain 123456 --note big")
    text = sheet_text(api.sheet(g), g)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    assert "whists on" in text


def test_a_five_player_sheet_fits_80_columns() -> None:
    g = api.new_game(LONG[:4], "sochi", 20)
    g = api.record(g, "game Bart 7h 5 Vero:w Gleb:p")
    five = _five(g)
    text = sheet_text(api.sheet(five), five)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    compact = compact_text(api.sheet(five), five)
    assert max(len(line) for line in compact.splitlines()) <= 80, compact
    assert "W Ale 0 · Bar 28 · Gle 0 · Dmi 0" in compact  # Veronika on the others, short
    head = next(line for line in text.splitlines() if line.lstrip().startswith("pool"))
    assert head.split()[-5:] == ["Ale", "Bar", "Ver", "Gle", "Dmi"]  # short names head them


def test_closing_total_shows_the_points_left_to_the_end() -> None:
    g = api.new_game(["Anna", "Boris", "Vera"], "leningrad", 10)
    g = api.record(g, "game Anna 7h 7 Boris:w Vera:p")
    s = api.sheet(g)
    expected = "26 points left to the end of the game (pools 4 of 10 × 3 = 30)"
    assert expected in sheet_text(s, g)
    assert expected in compact_text(s, g)
    assert "left to the end" not in sheet_text(*_sochi())


def _sochi() -> tuple[object, Game]:
    g = api.new_game(["Anna", "Boris", "Vera"], "sochi", 10)
    return api.sheet(g), g
