"""What people see in the pictures: the charts' series and styles, the sheet page with the
result, the ``share --png`` picture without page furniture, and the 5-player sheet's room.

Colour distances are CIE76 (Euclidean in CIELAB, D65 white) and contrasts are WCAG 2.1's
relative-luminance ratio, both computed here from the sRGB hex values.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from support import invoke, make_game, random_game, sheet_of

from prefcalc.export.charts import DASHES, MARKERS, PALETTE, filled, segments, style
from prefcalc.export.fonts import FontBook
from prefcalc.export.history_pdf import season_series
from prefcalc.export.pdf import build_pdf, build_picture, night_series, result_lines
from prefcalc.export.pdf_kit import Writer
from prefcalc.export.xlsx_kit import XLSX_MARKERS
from prefcalc.history.club import History, collect, running_balance
from prefcalc.report import build_report
from prefcalc.rules.model import Join
from prefcalc.rules.settlement import settle
from prefcalc.views.sheet_layout import Box, load_layout, sheet_shape
from prefcalc.views.text_kit import money_text, signed

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    r, g, b = (_linear(int(h[i : i + 2], 16)) for i in (0, 2, 4))
    return r, g, b


def contrast_on_white(hex_colour: str) -> float:
    r, g, b = _rgb(hex_colour)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return 1.05 / (luminance + 0.05)


def lab(hex_colour: str) -> tuple[float, float, float]:
    r, g, b = _rgb(hex_colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def late_joiner_game():  # type: ignore[no-untyped-def]
    return make_game(
        ["Anna", "Boris", "Vera"],
        [
            "game Anna 7s 7 Boris:w Vera:p",
            "join Dima --after Vera",
            "game Vera 6h 6 Anna:w Dima:p",
            "passes Anna=2 Boris=3 Dima=5",
        ],
    )


# --- the night's chart ----------------------------------------------------------------------


def test_a_late_joiner_is_drawn_from_the_deal_he_joined() -> None:
    game = late_joiner_game()
    sheet = sheet_of(game)
    series = dict(night_series(build_report(game, sheet)))
    balances = running_balance(sheet)
    # Dima joined as entry 2: no point before it (never a 0 that reads "broke even")
    assert [x for x, _ in series["Dima"]] == [2.0, 3.0, 4.0]
    assert series["Dima"] == [(float(k), float(balances[k - 1]["Dima"])) for k in (2, 3, 4)]
    # those at the table from the start begin at 0 before the first deal
    for p in ("Anna", "Boris", "Vera"):
        assert series[p][0] == (0.0, 0.0)
        assert [x for x, _ in series[p]] == [0.0, 1.0, 2.0, 3.0, 4.0]
        assert series[p][1:] == [(float(k), float(balances[k - 1][p])) for k in (1, 2, 3, 4)]


@pytest.mark.parametrize("seed", range(6))
def test_every_joiner_starts_at_his_join_in_random_nights(seed: int) -> None:
    game = random_game(seed, 60, 3, "sochi", joins=True)
    sheet = sheet_of(game)
    joins = {s.entry.deal.player: s.number for s in sheet.scored if isinstance(s.entry.deal, Join)}
    for name, points in night_series(build_report(game, sheet)):
        if name in joins:
            assert points[0][0] == joins[name]
        else:
            assert points[0] == (0.0, 0.0)


def test_the_pdf_draws_a_late_joiner_night() -> None:
    game = late_joiner_game()
    built = build_pdf(build_report(game, sheet_of(game)))
    texts = page_texts(built.data)
    chart = next(t for t in texts if "Running balance over the night" in t)
    assert "Dima" in chart


# --- the season chart -----------------------------------------------------------------------


def test_twelve_players_get_twelve_styles_distinct_in_colour_or_dashes() -> None:
    styles = [style(k) for k in range(12)]
    # every colour reaches WCAG 2.1's 3:1 non-text contrast on white (no faint yellow)
    for colour in PALETTE:
        assert contrast_on_white(colour) >= 3.0, colour
    # any two lines drawn the same way (same dashes) differ in colour by CIE76 >= 50
    for a, b in itertools.combinations(styles, 2):
        assert (a.colour, a.dash) != (b.colour, b.dash)
        if a.dash == b.dash:
            assert math.dist(lab(a.colour), lab(b.colour)) >= 50, (a, b)
    # and each of the twelve has its own marker
    assert len({s.marker for s in styles}) == 12 == len(MARKERS)
    # in the workbook too: no two of the twelve get the same symbol filled the same way
    assert len({(XLSX_MARKERS[s.marker], filled(s.marker)) for s in styles}) == 12
    assert len(PALETTE) * len(DASHES) >= 12


def test_no_two_of_the_palette_are_near_identical() -> None:
    for a, b in itertools.combinations(PALETTE, 2):
        assert math.dist(lab(a), lab(b)) >= 50, (a, b)


def test_segments_break_at_none() -> None:
    assert segments([(1.0, 2.0), None, None, (4.0, 1.0), (5.0, 0.0), None]) == [
        [(1.0, 2.0)],
        [(4.0, 1.0), (5.0, 0.0)],
    ]
    assert segments([None]) == []


def _ledger(folder: Path, name: str, players: list[str], lines: list[str], day: int) -> None:
    from prefcalc.store.ledger import game_to_json_text

    game = make_game(players, lines)._replace(created=f"2026-10-{day:02d}T20:00:00+01:00")
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(game_to_json_text(game), encoding="utf-8")


def _season(tmp_path: Path) -> History:
    club = tmp_path / "club"
    _ledger(club, "1.json", ["Anna", "Boris", "Vera"], ["game Anna 7s 7 Boris:w Vera:p"], 1)
    _ledger(club, "2.json", ["Anna", "Boris", "Gleb"], ["game Boris 6h 6 Anna:w Gleb:p"], 2)
    _ledger(club, "3.json", ["Anna", "Gleb", "Vera"], ["game Vera 8d 8 Anna:w Gleb:p"], 3)
    _ledger(club, "4.json", ["Anna", "Boris", "Vera"], ["game Anna 6c 6 Boris:w Vera:p"], 4)
    return collect([club], use_cache=False)


def test_a_missed_evening_has_no_point_and_breaks_the_line(tmp_path: Path) -> None:
    h = _season(tmp_path)
    assert [n.players for n in h.games][1] == ("Anna", "Boris", "Gleb")
    series = dict(season_series(h))
    running = h.running()

    def at(k: int, name: str) -> tuple[float, float]:
        return (float(k), float(running[k - 1][name]))

    assert series["Anna"] == [at(1, "Anna"), at(2, "Anna"), at(3, "Anna"), at(4, "Anna")]
    # Vera missed evening 2: no point there, and the line breaks over it
    assert series["Vera"] == [at(1, "Vera"), None, at(3, "Vera"), at(4, "Vera")]
    assert segments(series["Vera"]) == [[at(1, "Vera")], [at(3, "Vera"), at(4, "Vera")]]
    # Boris missed evening 3; Gleb played only evenings 2 and 3 (no point before or after)
    assert series["Boris"] == [at(1, "Boris"), at(2, "Boris"), None, at(4, "Boris")]
    assert series["Gleb"] == [at(2, "Gleb"), at(3, "Gleb")]
    for name, points in series.items():
        played = {k for k, n in enumerate(h.games, 1) if name in n.players}
        assert {int(p[0]) for p in points if p is not None} == played


def test_the_history_pdf_draws_the_season_chart(tmp_path: Path) -> None:
    _season(tmp_path)
    done = invoke(["history", str(tmp_path / "club"), "--pdf", str(tmp_path / "h.pdf")], tmp_path)
    assert done.returncode == 0, done.stderr
    texts = page_texts((tmp_path / "h.pdf").read_bytes())
    chart = next(t for t in texts if "Running balance over the season" in t)
    for name in ("Anna", "Boris", "Vera", "Gleb"):
        assert name in chart


def test_the_season_workbook_leaves_missed_evenings_empty(tmp_path: Path) -> None:
    import openpyxl

    _season(tmp_path)
    out = tmp_path / "h.xlsx"
    done = invoke(["history", str(tmp_path / "club"), "--xlsx", str(out)], tmp_path)
    assert done.returncode == 0, done.stderr
    ws = openpyxl.load_workbook(out)["Balance"]
    header = [c.value for c in ws[1]]
    vera = header.index("Vera") + 1
    gleb = header.index("Gleb") + 1
    assert ws.cell(3, vera).value is None  # evening 2, missed
    assert ws.cell(2, vera).value is not None and ws.cell(4, vera).value is not None
    assert ws.cell(2, gleb).value is None and ws.cell(5, gleb).value is None
    chart = ws._charts[0]
    assert chart.display_blanks == "gap"
    colours = [str(s.graphicalProperties.line.solidFill.srgbClr) for s in chart.series]
    assert colours == [style(k).colour.lstrip("#") for k in range(len(colours))]
    assert all(s.marker.symbol not in (None, "none") for s in chart.series)


def test_the_night_workbook_leaves_a_joiner_empty_before_he_joined(tmp_path: Path) -> None:
    import openpyxl

    from prefcalc.export.xlsx import write_xlsx

    game = late_joiner_game()
    write_xlsx(build_report(game, sheet_of(game)), tmp_path / "night.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "night.xlsx")["Sheet"]
    title = next(
        c for row in ws.iter_rows() for c in row if str(c.value).startswith("Running balance")
    )
    header = [ws.cell(title.row + 1, title.column + k).value for k in range(5)]
    assert header == ["#", "Anna", "Boris", "Vera", "Dima"]
    dima = [ws.cell(title.row + 2 + k, title.column + 4).value for k in range(4)]
    assert dima == [None, 0, -5, -30]


# --- the sheet page with the result, and the share picture ----------------------------------


@pytest.mark.parametrize("example", ["rostov-3", "leningrad-4", "rostov-5"])
def test_the_sheet_page_shows_the_result(example: str) -> None:
    from prefcalc import api

    game = api.load(EXAMPLES / f"{example}.json")
    sheet = sheet_of(game)
    s = settle(sheet, "pairwise", "exact", game.whist_price, game.currency)
    assert s.payments
    for data in (
        build_pdf(build_report(game, sheet)).data,
        build_picture(build_report(game, sheet)).data,
    ):
        first = page_texts(data)[0]
        for p in sheet.players:
            shown = f"{p} {signed(s.whists[p])} ({money_text(s.money[p], s.currency)})"
            assert shown in first, shown
        for pay in s.payments:
            line = f"{pay.payer} pays {pay.payee} {money_text(pay.amount, s.currency)}"
            assert line in first, line
        assert "Who pays whom:" in first
    assert "page 1 of" in page_texts(build_pdf(build_report(game, sheet)).data)[0]


def test_the_share_picture_has_no_page_furniture() -> None:
    from prefcalc import api

    game = api.load(EXAMPLES / "rostov-5.json")
    built = build_picture(build_report(game, sheet_of(game)))
    assert built.pages == 1
    text = page_texts(built.data)[0]
    assert "page 1 of" not in text and "prefcalc" not in text
    assert "Preference pool sheet" in text and "Who pays whom:" in text


def test_result_lines_say_when_the_game_is_not_over() -> None:
    from prefcalc import api

    game = api.load(EXAMPLES / "rostov-3.json")  # stopped after 22 deals
    sheet = sheet_of(game)
    assert not sheet.finished
    assert result_lines(build_report(game, sheet))[0][0] == "Result if the game ended now:"
    nobody = make_game(["Anna", "Boris", "Vera"], [])
    assert result_lines(build_report(nobody, sheet_of(nobody)))[1] == (
        "Who pays whom:",
        "nobody owes anything",
    )


def test_share_png_through_the_cli_is_the_sheet_with_the_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    import prefcalc.export.share as share

    ledger = tmp_path / "night.json"
    shutil.copy(EXAMPLES / "rostov-5.json", ledger)
    done = invoke(["share", "--file", str(ledger), "--png", str(tmp_path / "s.png")], tmp_path)
    assert done.returncode == 0, done.stderr
    with Image.open(tmp_path / "s.png") as image:
        width, height = image.size
        assert width > height > 1000
    # the picture is the rendering of build_picture's one page (the PNG has no text to read)
    rendered: list[bytes] = []
    real = share.sheet_png
    monkeypatch.setattr(share, "sheet_png", lambda pdf: rendered.append(pdf) or real(pdf))
    from prefcalc import api

    game = api.load(ledger)
    share.write_png(build_report(game, sheet_of(game)), tmp_path / "again.png")
    text = page_texts(rendered[0])
    assert len(text) == 1 and "page 1 of" not in text[0] and "pays" in text[0]
    assert json.loads(ledger.read_text(encoding="utf-8")) == json.loads(
        (EXAMPLES / "rostov-5.json").read_text(encoding="utf-8")
    )


# --- the 5-player sheet ---------------------------------------------------------------------


def test_five_player_whist_columns_have_the_room() -> None:
    lay = load_layout("a4")
    area = Box(lay.margin, lay.margin + 40, lay.width - lay.margin, lay.height - 40)
    five = sheet_shape(5, area, lay)
    four = sheet_shape(4, area, lay)
    narrowest5 = min(box.w for s in five.sectors for _, box in s.columns)
    narrowest4 = min(box.w for s in four.sectors for _, box in s.columns)
    # every column of the 5-player sheet is at least as wide as the 4-player sheet's narrowest
    # (before: the bottom ones were half of it, and wrapped after four writes)
    assert narrowest5 >= 0.95 * narrowest4
    writer = Writer(lay, FontBook(), "")
    # six two-digit writes at the full value size fit on one line of every column
    six = writer.metrics.width("12.24.36.48.60.72.", lay.value_size)
    assert narrowest5 >= six


def test_five_player_sheet_keeps_eight_writes_on_one_line() -> None:
    from prefcalc import api

    game = api.load(EXAMPLES / "rostov-5.json")
    first = page_texts(build_pdf(build_report(game, sheet_of(game))).data)[0]
    assert "5.35.47.107.126" in first  # Lena's whists on Josef: one line, not wrapped


def test_the_sheet_title_stays_on_one_line() -> None:
    from prefcalc import api

    game = api.load(EXAMPLES / "rostov-5.json")
    game = game._replace(currency="USD")
    built = build_pdf(build_report(game, sheet_of(game)))
    first = page_texts(built.data)[0].splitlines()
    title = [line for line in first if "Preference pool sheet" in line]
    assert len(title) == 1 and "finished" in title[0]
