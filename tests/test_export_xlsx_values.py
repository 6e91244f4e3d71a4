"""The XLSX workbook as people open it: without recalculating, with readable numbers and times.

* every formula cell carries the engine's value, so ``data_only`` readers (phone previews,
  pandas, ``openpyxl.load_workbook(data_only=True)``) see the totals, while the workbook
  still asks Excel and LibreOffice to recalculate on load (``test_export_xlsx`` checks that
  LibreOffice's numbers are the engine's);
* whists and points show exactly (whole, or a fraction such as ``73 1/3``), money in the
  currency's minor unit, deal times as date-time cells;
* no text, a player's name with a control character included, crashes the export.
"""

from __future__ import annotations

import io
import re
import time as time_module
import zipfile
from collections.abc import Iterator
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.styles.numbers import is_date_format
from support import make_game, sample_game, sheet_of
from test_export_xlsx import (
    empty_game,
    expectations,
    formula_cells,
    game_3,
    game_4,
    nets_per_deal,
    row_labelled,
    table,
    titled_table,
)

from prefcalc.export.pdf import build_pdf
from prefcalc.export.xlsx import workbook_bytes, write_xlsx
from prefcalc.export.xlsx_kit import with_cached_values
from prefcalc.report import build_report
from prefcalc.rules.model import Game
from prefcalc.rules.scoring import Sheet

GAMES = {
    "3 players, rostov, fractions": game_3,
    "4 players, leningrad, quarters": game_4,
    "no deals": empty_game,
    "sochi sample": sample_game,
    "3 players, leningrad, JPY": lambda: make_game(
        ["Anna", "Boris", "Vera"],
        [
            "game Anna 6s 5 Boris:w Vera:p",
            "adjust Vera --mountain 0.5 --note late",
            "misere Boris 1",
        ],
        convention="leningrad",
        target=10,
        whist_price=3,
        currency="JPY",
    ),
}


def both(game: Game) -> tuple[Sheet, Any, Any]:
    """The sheet and the workbook read twice: as written (formulas) and as cached (values)."""
    sheet = sheet_of(game)
    data = workbook_bytes(build_report(game, sheet))
    formulas = openpyxl.load_workbook(io.BytesIO(data))
    values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    return sheet, formulas, values


# --- cached values ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_every_formula_cell_carries_the_engines_value(name: str) -> None:
    game = GAMES[name]()
    sheet, formulas, values = both(game)
    expected = expectations(formulas, sheet, nets_per_deal(sheet), game.whist_price, game.currency)
    cells = formula_cells(formulas)
    assert set(cells) == set(expected)
    assert cells or not game.entries
    wrong = []
    for (title, coord), value in expected.items():
        cached = values[title][coord].value
        if not isinstance(cached, int | float) or isinstance(cached, bool):
            wrong.append((title, coord, cells[(title, coord)], cached, value))
        elif abs(Fraction(cached) - value) > Fraction(1, 10**9) * max(1, abs(value)):
            wrong.append((title, coord, cells[(title, coord)], cached, float(value)))
    assert not wrong, wrong[:10]


def test_the_workbook_still_recalculates_on_load_and_stays_a_valid_package(
    tmp_path: Path,
) -> None:
    game = game_3()
    path = tmp_path / "game.xlsx"
    write_xlsx(build_report(game, sheet_of(game)), path)
    with zipfile.ZipFile(path) as package:
        assert package.testzip() is None
        book = package.read("xl/workbook.xml").decode()
        assert re.search(r'<calcPr[^>]*fullCalcOnLoad="1"', book)
        sheets = [n for n in package.namelist() if re.fullmatch(r"xl/worksheets/[^/]+\.xml", n)]
        assert len(sheets) == 4  # (the Sheet tab's chart adds xl/worksheets/_rels/sheet2.xml.rels)
        for name in sheets:
            xml = package.read(name).decode()
            assert "<v />" not in xml and "<v/>" not in xml, name  # no formula left empty
    assert [p.name for p in tmp_path.iterdir()] == ["game.xlsx"]  # one atomic write


@pytest.mark.parametrize(
    ("formula", "value", "read"),
    [
        ("=1/3", Fraction(1, 3), 1 / 3),
        ("=2+2", 4, 4),
        ('="a"&"<b>"', "a<b>", "a<b>"),  # a text result: t="str", escaped
        ("=1=1", True, True),
    ],
)
def test_cached_values_of_every_kind_read_back(formula: str, value: Any, read: Any) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Odd name & co"
    ws["C7"] = formula
    ws["C7"].number_format = "0.00"  # a styled cell: the s attribute stays
    buffer = io.BytesIO()
    wb.save(buffer)
    data = with_cached_values(buffer.getvalue(), {("Odd name & co", "C7"): value})
    cell = openpyxl.load_workbook(io.BytesIO(data), data_only=True)["Odd name & co"]["C7"]
    assert cell.value == read
    again = openpyxl.load_workbook(io.BytesIO(data))["Odd name & co"]["C7"]
    assert again.value == formula and again.number_format == "0.00"


# --- number formats ---------------------------------------------------------------------------


def shows_exactly(fmt: str, value: Any) -> bool:
    """Whether ``fmt`` displays ``value`` (a float of an exact amount) without losing it."""
    exact = Fraction(value).limit_denominator(10**6)
    if fmt == "General":  # shows a whole number whole
        return exact.denominator == 1
    match = re.fullmatch(r"# (\?+)/(\?+)", fmt)
    if match is None:
        return False
    digits = len(match.group(2))
    return exact.denominator != 1 and exact.denominator < 10**digits


@pytest.mark.parametrize("name", list(GAMES))
def test_whists_and_points_show_whole_or_as_exact_fractions(name: str) -> None:
    game = GAMES[name]()
    _, formulas, values = both(game)
    money_columns = {"Money", "Money, rounded (prefcalc)", "Amount"}
    money_columns |= {f"Method {k} money" for k in (1, 2)}
    checked = 0
    for (title, coord), _ in formula_cells(formulas).items():
        cell = formulas[title][coord]
        header = _column_header(formulas[title], cell)
        if header in money_columns:
            continue
        value = values[title][coord].value
        assert shows_exactly(cell.number_format, value), (title, coord, cell.number_format, value)
        checked += 1
    deals = formulas["Deals"]
    header, _ = table(deals, 1)
    first_written = header["Warning"] + 1
    for row in deals.iter_rows(min_row=2, min_col=first_written):
        for cell in row:
            if cell.value is not None:
                assert shows_exactly(cell.number_format, cell.value), cell.coordinate
                checked += 1
    assert checked >= 10 or not game.entries


def _column_header(ws: Any, cell: Any) -> str | None:
    """The nearest header (a bold label row) above ``cell`` in its column."""
    for r in range(cell.row - 1, 0, -1):
        above = ws.cell(r, cell.column)
        if isinstance(above.value, str) and above.font is not None and above.font.b:
            return above.value
    return None


@pytest.mark.parametrize(
    ("currency", "price", "fmt"),
    [
        ("EUR", Fraction(1, 4), '#,##0.00 "EUR"'),
        ("RUB", 2, '#,##0.00 "RUB"'),
        ("JPY", 10, '#,##0 "JPY"'),
        ("", Fraction(1, 2), "#,##0.00"),
    ],
)
def test_money_shows_the_currencys_minor_unit(currency: str, price: Any, fmt: str) -> None:
    game = make_game(
        ["Anna", "Boris", "Vera"],
        [
            "game Anna 6s 5 Boris:w Vera:p",
            "adjust Vera --mountain 1.5 --note late",
            "misere Boris 1",
        ],
        whist_price=price,
        currency=currency,
    )
    _, formulas, values = both(game)
    ws = formulas["Settlement"]
    # the price cell is followed by the currency's code: its format does not repeat it
    price_row = row_labelled(ws, "Whist price")
    assert ws.cell(price_row, 2).number_format == fmt.split(" ")[0]
    assert ws.cell(price_row, 3).value == (currency or None)
    for title in ("Result, method 1", "Result, method 2"):
        header, rows = titled_table(ws, title)
        for label, r in rows.items():
            cell = ws.cell(r, header["Money"])
            assert cell.number_format == fmt, (title, label)
            assert isinstance(values["Settlement"][cell.coordinate].value, int | float)
            if label != "Total":
                assert ws.cell(r, header["Money, rounded (prefcalc)"]).number_format == fmt
    start = row_labelled(ws, "Payments, method 1 (prefcalc)") + 2
    assert ws.cell(start, 3).number_format == fmt
    header, rows = titled_table(
        ws, "4. Rounded to whole whists (prefcalc's figures at export, values)"
    )
    for r in rows.values():
        assert ws.cell(r, header["Method 1 money"]).number_format == fmt
        assert ws.cell(r, header["Method 1 whists"]).number_format == "General"


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This computer's local time is Tokyo's (UTC+9, no daylight saving) for the test."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time_module.tzset()
    yield
    monkeypatch.undo()
    time_module.tzset()


@pytest.mark.parametrize(
    ("time", "shown"),
    [
        # every time is shown in this computer's local time (here Tokyo, UTC+9)
        ("2026-11-30T20:05:00+01:00", datetime(2026, 12, 1, 4, 5)),
        ("2026-11-30T23:59:59-03:30", datetime(2026, 12, 1, 12, 29, 59)),
        ("2027-01-01T00:10:00+05:45", datetime(2027, 1, 1, 3, 25)),
        ("2026-11-30T20:05:00Z", datetime(2026, 12, 1, 5, 5)),
        ("2026-11-30T20:05:00", datetime(2026, 11, 30, 20, 5)),  # no offset: as stored
        ("yesterday at nine", "yesterday at nine"),  # not a time: kept as text
        ("", None),
    ],
)
def test_deal_times_are_date_time_cells_in_local_time(
    time: str, shown: datetime | str | None, tmp_path: Path, tokyo: None
) -> None:
    game = make_game(["Anna", "Boris", "Vera"], ["game Anna 6s - Boris:p Vera:p"])
    entry = game.entries[0]._replace(time=time)
    game = game._replace(entries=(entry,))
    path = tmp_path / "t.xlsx"
    write_xlsx(build_report(game, sheet_of(game)), path)
    ws = openpyxl.load_workbook(path)["Deals"]
    header, _ = table(ws, 1)
    cell = ws.cell(2, header["Time"])
    assert cell.value == shown
    if isinstance(shown, datetime):
        assert cell.is_date and is_date_format(cell.number_format)
        assert "h" in cell.number_format and "yyyy" in cell.number_format
    elif shown is not None:
        assert cell.data_type == "s"


# --- control characters -------------------------------------------------------------------------

CONTROLS = {
    "bell": ("Ve\x07ra", "Ve\\x07ra"),
    "nul": ("Ve\x00ra", "Ve\\x00ra"),
    "escape": ("\x1b[31mVera", "\\x1b[31mVera"),
    "delete": ("Vera\x7f", "Vera\\x7f"),
    "C1 next line": ("Ve\x85ra", "Ve\\x85ra"),
    "lone surrogate": ("Ve\ud800ra", "Ve\\ud800ra"),
    "non-character": ("Ve\ufffera", "Ve\\ufffera"),
}


def with_name(name: str) -> Game:
    """The sample evening with Vera renamed, and a note holding the same control character."""
    game = sample_game()
    from test_export_pdf import renamed

    game = renamed(game, {"Vera": name})
    notes = []
    for entry in game.entries:
        deal = entry.deal
        if hasattr(deal, "note"):
            deal = deal._replace(note=f"note {name}")
        notes.append(entry._replace(deal=deal))
    return game._replace(entries=tuple(notes), currency="EUR")


@pytest.mark.parametrize("kind", list(CONTROLS))
def test_control_characters_in_names_never_crash_the_workbook(kind: str, tmp_path: Path) -> None:
    raw, escaped = CONTROLS[kind]
    game = with_name(raw)
    path = tmp_path / "c.xlsx"
    write_xlsx(build_report(game, sheet_of(game)), path)
    wb = openpyxl.load_workbook(path)
    texts = [
        cell.value
        for ws in wb
        for row in ws.iter_rows()
        for cell in row
        if isinstance(cell.value, str)
    ]
    assert not any(raw in t for t in texts)
    assert escaped in wb["Sheet"]["A4"].value  # Vera's row of totals
    assert f"Anna on {escaped}" in [c.value for c in wb["Deals"][1]]
    assert any(f"note {escaped}" in t for t in texts)
    values = openpyxl.load_workbook(path, data_only=True)
    assert isinstance(values["Sheet"]["B4"].value, int | float)


@pytest.mark.parametrize("kind", list(CONTROLS))
def test_control_characters_in_names_never_crash_the_pdf(kind: str) -> None:
    from test_export_pdf import page_texts

    raw, escaped = CONTROLS[kind]
    game = with_name(raw)
    built = build_pdf(build_report(game, sheet_of(game)))
    texts = page_texts(built.data)
    everything = "\n".join(texts)
    assert escaped in texts[0]  # the name on the sheet, shown escaped
    assert raw not in everything
    controls = [c for c in everything if ord(c) < 32 and c not in "\n\t\r"]
    assert controls == []
    assert built.warnings == []  # an escape is printable: nothing is lost
