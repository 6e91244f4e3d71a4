"""The pool sheet of the PDF as players read it on paper.

* under ``closing = total`` (Leningrad) the circle shows what the game runs to (the pools
  together), and the closing stroke follows the value that ended the game, never a player's
  own target;
* long evenings (60+ deals) keep every running sequence and every stroke inside its band;
* the ``on X`` labels are at least 7 pt;
* the blank sheet's title fits on one line.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from support import make_game, random_game, sheet_of
from test_export_pdf import Recorder, _inside, _writer, page_texts

from prefcalc.export.pdf import build_pdf, draw_sheet, target_text, write_blank
from prefcalc.export.pdf_kit import Page, flow_tokens
from prefcalc.report import build_report
from prefcalc.views.sheet_layout import Box, load_layout, running_entries

LABEL_MIN = 7.0

# --- closing = total ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("convention", "players", "target", "circle", "note", "title"),
    [
        ("leningrad", 4, 15, "60", "15 × 4", "target 15 × 4 = 60"),
        ("leningrad", 3, 20, "60", "20 × 3", "target 20 × 3 = 60"),
        ("sochi", 3, 20, "20", "", "target 20"),
        ("rostov", 4, 10, "10", "", "target 10"),
        ("sochi", 4, 20, "20", "", "target 20"),
    ],
)
def test_the_circle_shows_what_the_game_runs_to(
    convention: str, players: int, target: int, circle: str, note: str, title: str
) -> None:
    game = random_game(3, 20, players, convention, target=target)
    sheet = sheet_of(game)
    assert target_text(sheet) == (circle, note)
    built = build_pdf(build_report(game, sheet))
    first = page_texts(built.data)[0]
    assert title in first.splitlines()[0] + " " + first.splitlines()[1]
    lines = first.splitlines()
    assert circle in lines
    if note:
        assert note in lines
    else:
        assert not any("×" in line for line in lines[2:])
    # the circle's text stays inside the circle
    writer = _writer()
    shape = draw_sheet(writer, game.players, "t", circle, running_entries(sheet), note)
    cx, cy = shape.centre
    inside = [
        i for i in writer.pages[0].items if (i[0] - cx) ** 2 + (i[1] - cy) ** 2 < shape.radius**2
    ]
    assert [i[2] for i in inside] == ([circle, note] if note else [circle])
    assert len(inside) == (2 if note else 1)
    for x, y, text, bold, size, _ in inside:
        width = writer.metrics.width(text, size, bold)
        assert size >= (LABEL_MIN if not bold else 8)
        for px, py in ((x, y + size * 0.75), (x + width, y + size * 0.75), (x, y - size * 0.2)):
            assert (px - cx) ** 2 + (py - cy) ** 2 < shape.radius**2, (text, px, py)
        assert (x + width - cx) ** 2 + (y - size * 0.2 - cy) ** 2 < shape.radius**2


LENINGRAD_3 = [
    "game Anna 6s - Boris:p Vera:p",  # pools: Anna 2
    "game Anna 6s - Boris:p Vera:p",  # Anna 4: her own target, but nobody closes alone
    "game Anna 6s - Boris:p Vera:p",  # Anna 6
    "game Boris 7h - Anna:p Vera:p",  # Boris 4: together 10 of 12
    "game Vera 6c - Anna:p Boris:p",  # Vera 2: together 12, the game ends here
    "game Anna 6s - Boris:p Vera:p !",  # played on (forced): Anna 8, no second stroke
]


@pytest.mark.parametrize(
    ("convention", "closed"),
    [
        ("leningrad", {("Vera", "2")}),  # the value that brought the pools to 3 × 4
        # each pool closes at the target itself (Anna's surplus helps the others close)
        ("sochi", {("Anna", "4"), ("Boris", "4"), ("Vera", "4")}),
    ],
)
def test_the_closing_stroke_follows_the_value_that_closed(
    convention: str, closed: set[tuple[str, str]]
) -> None:
    game = make_game(["Anna", "Boris", "Vera"], LENINGRAD_3, convention=convention, target=4)
    sheet = sheet_of(game)
    entries = running_entries(sheet)
    marked = {
        (player, text)
        for (player, column, _), tokens in entries.items()
        if column == "pool"
        for text, stroke in tokens
        if stroke
    }
    assert marked == closed
    writer = _writer()
    draw_sheet(writer, game.players, "t", "12", entries)
    assert len(_strokes(writer)) == len(closed)


# --- long evenings ------------------------------------------------------------------------------


def _strokes(writer: Any) -> list[tuple[float, float, float, float]]:
    """The closing strokes drawn on the sheet: short vertical lines (not the frame's)."""
    recorder = Recorder()
    for draw in writer.pages[0].art:
        draw(recorder)
    return [line for line in recorder.lines if line[0] == line[2] and 0 < line[3] - line[1] < 15]


@pytest.mark.parametrize(
    ("seed", "deals", "players", "convention", "target", "paper"),
    [
        (11, 70, 3, "sochi", 100, "a4"),
        (12, 70, 4, "leningrad", 100, "a4"),
        (13, 70, 3, "leningrad", 10, "letter"),
        (14, 80, 4, "leningrad", 20, "a4"),
        (15, 65, 4, "sochi", 30, "letter"),
        (16, 120, 3, "rostov", 10**6, "a4"),
        (17, 200, 4, "sochi", 10**6, "letter"),
        (18, 160, 2, "sochi", 60, "a4"),
        (19, 120, 2, "leningrad", 10**6, "letter"),
        (20, 80, 5, "sochi", 20, "a4"),
        (21, 200, 5, "rostov", 10**6, "letter"),
    ],
)
def test_long_evenings_keep_every_value_and_stroke_inside_its_band(
    seed: int, deals: int, players: int, convention: str, target: int, paper: str
) -> None:
    game = random_game(seed, deals, players, convention, target=target)
    sheet = sheet_of(game)
    entries = running_entries(sheet)
    writer = _writer(paper)
    circle, note = target_text(sheet)
    shape = draw_sheet(writer, game.players, "title", circle, entries, note)
    boxes = [b for s in shape.sectors for b in (s.pool, s.mountain, *(c for _, c in s.columns))]
    values = [i for i in writer.pages[0].items if not i[3] and i[5] == 0.0 and i[2] != "title"]
    values = [i for i in values if i[2] != note]
    assert len(values) > 10
    for item in values:
        assert any(_inside(writer, item, box) for box in boxes), item
    strokes = _strokes(writer)
    for x0, y0, _, y1 in strokes:
        assert any(b.x0 <= x0 <= b.x1 and b.y0 - 0.01 <= y0 and y1 <= b.y1 + 0.01 for b in boxes), (
            x0,
            y0,
            y1,
        )
    closing = sum(stroke for seq in entries.values() for _, stroke in seq)
    assert len(strokes) <= closing  # some may have given way to a leading "…"
    if sheet.finished:
        assert closing > 0


def test_flow_tokens_places_every_row_inside_the_band_whatever_the_box() -> None:
    rng = random.Random(5)
    writer = _writer()
    for _ in range(300):
        w, h = rng.uniform(4, 260), rng.uniform(4, 90)
        box = Box(50, 50, 50 + w, 50 + h)
        count = rng.randint(1, 120)
        total = 0
        tokens = []
        for _ in range(count):
            total += rng.randint(1, 40)
            text = str(total) + rng.choice(["", "", "½", "⅓"])
            tokens.append((text, rng.random() < 0.05))
        page = Page()
        flow_tokens(writer, page, tokens, box, 11, 5.5)
        for item in page.items:
            x, y, text, bold, size, _ = item
            assert x >= box.x0 and x + writer.metrics.width(text, size, bold) <= box.x1 + 1e-6
            assert y + size * 0.8 <= box.y1 + 1e-6 and y - size * 0.25 >= box.y0 - 1e-6, (
                box,
                item,
            )
        lines = Recorder()
        for draw in page.art:
            draw(lines)
        for x0, y0, _, y1 in lines.lines:
            assert box.x0 <= x0 <= box.x1 + 1e-6 and box.y0 - 1e-6 <= y0 and y1 <= box.y1 + 1e-6
        if page.items:  # the latest value is always shown
            assert page.items[-1][2].endswith(tokens[-1][0])


# --- labels and the blank title -------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_on_labels_are_at_least_7_pt(paper: str, players: int) -> None:
    assert load_layout(paper).label_size >= LABEL_MIN
    game = random_game(2, 40, players, "sochi")
    writer = _writer(paper)
    draw_sheet(writer, game.players, "t", "20", running_entries(sheet_of(game)))
    labels = [item for item in writer.pages[0].items if item[2].startswith("on ")]
    assert len(labels) == players * (players - 1)
    assert all(item[4] >= LABEL_MIN for item in labels)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("names", [[], ["Анна", "Şükrü Öztürk"], ["Nguyễn Thị Ánh"] * 3])
def test_the_blank_sheets_title_is_one_line(
    paper: str, players: int, names: list[str], tmp_path: Any
) -> None:
    out = tmp_path / "blank.pdf"
    write_blank(players, out, names[:players], paper)
    lines = page_texts(out)[0].splitlines()
    first = lines[0]
    assert first.startswith("Preference pool sheet · convention ________")
    assert "target ________" in first and "date ________" in first
    expected_end = ", ".join(names[:players]) if names else "clockwise from the top"
    assert first.endswith(expected_end), first


def test_a_sequence_is_not_broken_for_its_last_value() -> None:
    # issue 26: «4.10.28.76.82.90.» / «98» on the sheet. A sequence a little too long for its
    # band takes one line a little smaller; a longer one wraps into even lines.
    writer = _writer()
    tokens = [(str(n), False) for n in (4, 10, 28, 76, 82, 90, 98)]
    width = writer.metrics.width("4.10.28.76.82.90.98", 11)
    page = Page()
    size = flow_tokens(writer, page, tokens, Box(0, 0, width * 0.9, 40), 11, 5.5)
    assert [i[2] for i in page.items] == ["4.10.28.76.82.90.98"]
    assert size < 11
    long = [(str(n), False) for n in range(100, 124)]
    page = Page()
    flow_tokens(writer, page, long, Box(0, 0, width * 1.5, 60), 11, 5.5)
    rows = [i[2].strip(".").split(".") for i in page.items]
    assert len(rows) > 1 and sum(map(len, rows)) == 24
    assert max(map(len, rows)) - min(map(len, rows)) <= 1, rows
