"""``prefcalc history --ratings``: the pinned pairwise Elo (docs/tournament.md, "Ratings") over
a small history worked out by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from support import invoke, make_game

from prefcalc.history.club import Night
from prefcalc.history.ratings import elo, expected
from prefcalc.store.ledger import game_to_json_text


def night(date: str, result: dict[str, int]) -> Night:
    return Night(
        file=f"{date}.json",
        date=date,
        players=tuple(result),
        convention="Sochi",
        deals=1,
        finished=True,
        currency="",
        whist_price=1,
        result=dict(result),
        money=dict(result),
        stats={},
    )


def test_expected_score() -> None:
    assert expected(1500, 1500) == 0.5
    assert expected(1900, 1500) == pytest.approx(10 / 11)  # 400 points: ten to one
    assert expected(1500, 1900) + expected(1900, 1500) == pytest.approx(1)


def test_a_small_history_by_hand() -> None:
    games = [
        # three at 1500: K = 16 / 2 opponents = 8 per pair, every expected score ½
        # Anna beats both: +4 +4; Boris beats Vera, loses to Anna: 0; Vera -8
        night("2026-11-01T20:00:00+01:00", {"Anna": 10, "Boris": 0, "Vera": -10}),
        # two players (Gusarik): K = 16; Boris (1500) beats Anna (1508)
        # E(Anna) = 1 / (1 + 10^(-8/400)) = 0.511510...; Anna -16 × 0.511510 = -8.18417
        night("2026-11-08T20:00:00+01:00", {"Anna": -5, "Boris": 5}),
        # a tie scores ½ each: Anna 1499.816 vs Vera 1492
        night("2026-11-15T20:00:00+01:00", {"Anna": 0, "Vera": 0}),
    ]
    ratings = {r.name: r for r in elo(games)}
    e = 1 / (1 + 10 ** (-8 / 400))
    anna = 1508 - 16 * e
    boris = 1500 + 16 * e
    e3 = 1 / (1 + 10 ** ((1492 - anna) / 400))
    assert ratings["Boris"].rating == pytest.approx(boris)
    assert ratings["Anna"].rating == pytest.approx(anna + 16 * (0.5 - e3))
    assert ratings["Vera"].rating == pytest.approx(1492 + 16 * (0.5 - (1 - e3)))
    assert ratings["Anna"].games == 3 and ratings["Vera"].games == 2
    assert round(ratings["Boris"].rating, 3) == 1508.184
    # ratings move as much up as down: their sum never changes
    assert math.fsum(r.rating for r in ratings.values()) == pytest.approx(4500)
    assert [r.name for r in elo(games)] == ["Boris", "Anna", "Vera"]


def test_four_at_a_table_the_dealer_too() -> None:
    # every pair at the table, K = 16 / 3 per pair
    ratings = {
        r.name: r.rating for r in elo([night("2026-11-01", {"A": 9, "B": 3, "C": -3, "D": -9})])
    }
    step = 16 / 3 * 0.5
    assert ratings == pytest.approx(
        {"A": 1500 + 3 * step, "B": 1500 + step, "C": 1500 - step, "D": 1500 - 3 * step}
    )


def test_names_match_across_games_and_order_is_by_date(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    one = make_game(["Anna", "Boris", "Vera"], ["game Anna 7h 7 Boris:w Vera:p"])
    two = make_game(["ANNA", "Boris", "Vera"], ["game Boris 8s 8 ANNA:w Vera:p"])
    # the later game is written first: the order is the games' dates, not the files'
    (folder / "a.json").write_text(
        game_to_json_text(two._replace(created="2026-12-01T20:00:00+01:00")), "utf-8"
    )
    (folder / "b.json").write_text(
        game_to_json_text(one._replace(created="2026-11-01T20:00:00+01:00")), "utf-8"
    )
    done = invoke(["history", str(folder), "--ratings", "--json", "--no-cache"], tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    names = {r["name"]: r for r in data["ratings"]}
    assert set(names) == {"ANNA", "Boris", "Vera"}  # the latest spelling
    assert names["ANNA"]["games"] == 2
    text = invoke(["history", str(folder), "--ratings", "--no-cache"], tmp_path).stdout
    assert "Ratings (pairwise Elo over the games in date order, from 1500):" in text
    plain = invoke(["history", str(folder), "--json", "--no-cache"], tmp_path)
    assert "ratings" not in json.loads(plain.stdout)  # only when asked for
    alone = invoke(
        ["history", str(folder), "--ratings", "--json", "--player", "vera", "--no-cache"], tmp_path
    )
    data = json.loads(alone.stdout)
    assert [r["name"] for r in data["ratings"]] == ["Vera"]
    assert data["ratings"][0]["rating"] == names["Vera"]["rating"]  # rated over every game
    again = invoke(["history", str(folder), "--ratings", "--json", "--no-cache"], tmp_path)
    assert again.stdout == done.stdout  # deterministic


def test_the_workbook_and_the_pdf_carry_the_ratings_when_asked(tmp_path: Path) -> None:
    import subprocess

    from openpyxl import load_workbook
    from support import require_tool

    folder = tmp_path / "games"
    folder.mkdir()
    one = make_game(["Anna", "Boris", "Vera"], ["game Anna 7h 7 Boris:w Vera:p"])
    two = make_game(["Anna", "Boris", "Vera"], ["game Boris 8s 6 Anna:w Vera:p"])
    (folder / "a.json").write_text(
        game_to_json_text(one._replace(created="2026-11-01T20:00:00+01:00")), "utf-8"
    )
    (folder / "b.json").write_text(
        game_to_json_text(two._replace(created="2026-12-01T20:00:00+01:00")), "utf-8"
    )
    rated = json.loads(
        invoke(["history", str(folder), "--ratings", "--json", "--no-cache"], tmp_path).stdout
    )["ratings"]
    # by hand: the first night ends Anna 44/3, Boris -4/3, Vera -40/3 whists (three at 1500,
    # 8 a pair): 1508, 1500, 1492; the second Anna 76, Vera 52, Boris -128, every pair from
    # the ratings before it, and Boris loses 8 × (1 - E) + 8 × (1 - E') = 8 exactly (E + E' = 1)
    e_av = 1 / (1 + 10 ** (-16 / 400))
    e_ab = 1 / (1 + 10 ** (-8 / 400))
    e_vb = 1 / (1 + 10 ** (8 / 400))
    assert [(r["name"], r["games"]) for r in rated] == [("Anna", 2), ("Vera", 2), ("Boris", 2)]
    assert [r["rating"] for r in rated] == pytest.approx(
        [1508 + 8 * (1 - e_av) + 8 * (1 - e_ab), 1492 - 8 * (1 - e_av) + 8 * (1 - e_vb), 1492],
        abs=0.005,  # --json gives a rating to the hundredth
    )
    xlsx, pdf = tmp_path / "h.xlsx", tmp_path / "h.pdf"
    done = invoke(
        ["history", str(folder), "--ratings", "--xlsx", str(xlsx), "--pdf", str(pdf), "--no-cache"],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    ws = load_workbook(xlsx)["Ratings"]
    assert [ws.cell(1, c).value for c in range(1, 6)] == [
        "Place",
        "Player",
        "Rating",
        "Games rated",
        "Last game",
    ]
    rows = [[ws.cell(r, c).value for c in range(1, 6)] for r in range(2, 2 + len(rated))]
    assert [row[1] for row in rows] == [r["name"] for r in rated]  # best first
    assert [row[2] for row in rows] == [r["rating"] for r in rated]
    assert [row[3] for row in rows] == [r["games"] for r in rated]
    assert ws.cell(2, 3).number_format == "0"  # shown to a whole point
    text = subprocess.run(
        [require_tool("poppler (pdftotext)", "pdftotext"), "-layout", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    section = text[text.index("Ratings") :].splitlines()
    for place, r in enumerate(rated, 1):
        line = next(row for row in section if r["name"] in row)
        assert line.split()[:3] == [str(place), r["name"], str(round(r["rating"]))]
    assert [str(round(r["rating"])) for r in rated] == ["1516", "1492", "1492"]
    plain = tmp_path / "plain.xlsx"
    invoke(["history", str(folder), "--xlsx", str(plain), "--no-cache"], tmp_path)
    assert "Ratings" not in load_workbook(plain).sheetnames  # only when asked for
