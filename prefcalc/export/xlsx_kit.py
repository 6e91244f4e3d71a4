"""The workbook toolkit: what every prefcalc workbook writes its cells with.

The game's workbook (:mod:`prefcalc.export.xlsx`), the club history's
(:mod:`prefcalc.export.history_xlsx`) and the tournament's (:mod:`prefcalc.tournament.xlsx`)
share it:

- **cells**: an exact amount as a number (:func:`cell_number`) in the format that shows it
  exactly (:func:`points_format`, a fraction as ``73 1/3``); text a worksheet accepts, never
  taken for a formula or an error value (:func:`cell_text`, :func:`text_cell`); money in the
  currency's minor unit (:func:`money_format`); date-times as the language writes them;
- **styles and widths**: the header and title styles (:func:`add_styles`), a header row,
  column widths fitted to the content;
- **a worksheet written cell by cell** (:class:`Grid`), with formulas whose values the saved
  file caches (:func:`with_cached_values`: a reader that does not recalculate still sees
  the numbers);
- **charts**: a running balance as a native line chart in the PDF chart's styles.

openpyxl is imported by the export modules only: the CLI imports them lazily, when exporting.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any
from xml.etree import ElementTree

from openpyxl.cell.cell import ERROR_CODES  # type: ignore[import-untyped]
from openpyxl.chart import LineChart, Reference  # type: ignore[import-untyped]
from openpyxl.chart.shapes import GraphicalProperties  # type: ignore[import-untyped]
from openpyxl.styles import Font, NamedStyle, PatternFill  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter  # type: ignore[import-untyped]

from prefcalc.i18n import language, pgettext
from prefcalc.rules.amounts import Amount
from prefcalc.rules.settlement import minor_unit

HEADER_STYLE = "prefcalc header"
"""The named style of a header cell: bold on a light blue-grey."""
TITLE_STYLE = "prefcalc title"
"""The named style of a block's title: bold, a point larger."""
MAX_WIDTH = 60
"""The widest a column is made (in characters), however long its text."""


# --- cells ---------------------------------------------------------------------------------------


def cell_number(value: Amount) -> int | float:
    """An exact amount as a cell number: ints stay ints, fractions become floats."""
    if isinstance(value, int):
        return value
    return value.numerator if value.denominator == 1 else float(value)


#: Characters a cell must not hold raw: C0 controls (but tab, newline, carriage return), DEL,
#: C1 controls, lone surrogates (not UTF-8) and the XML non-characters U+FFFE, U+FFFF.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def cell_text(value: str) -> str:
    """Text a worksheet accepts, at most 32,767 long: a control character is shown escaped
    as Python writes it (``\\x07``), never dropped silently and never a crash."""
    if not value.isprintable():
        value = _CONTROL.sub(_escape, value)
    return value[:32767]


def risky(value: str) -> bool:
    """Text openpyxl would take for a formula (``=...``) or an error value (``#N/A``)."""
    return (len(value) > 1 and value[0] == "=") or value in ERROR_CODES


def as_text(ws: Any, row: int, columns: Iterable[int]) -> None:
    """Keep the risky texts of ``row`` as plain strings (never formulas or error values)."""
    for col in columns:
        cell = ws.cell(row, col)
        if isinstance(cell.value, str) and risky(cell.value):
            cell.data_type = "s"


def text_cell(ws: Any, row: int, col: int, value: str, style: str | None = None) -> Any:
    """A text cell (in ``style`` if given), never taken for a formula or an error value,
    whatever it starts with; returns the cell."""
    cell = ws.cell(row, col, cell_text(value))
    if risky(cell.value):
        cell.data_type = "s"
    if style is not None:
        cell.style = style
    return cell


#: The number formats. Whists, mountain and pool points are exact: a fraction shows as a
#: fraction (``73 1/3``), never as ``73.3333333333333``; a whole number keeps ``General``,
#: which shows it whole (and, unlike ``0``, never rounds a value a correction made fractional).
WHOLE_FORMAT = "General"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"
RUSSIAN_DATETIME_FORMAT = "dd.mm.yyyy hh:mm"


def datetime_format() -> str:
    """A date-time cell's format as the language in use writes it (``01.12.2026 19:00``)."""
    return RUSSIAN_DATETIME_FORMAT if language() == "ru" else DATETIME_FORMAT


def points_format(value: Amount) -> str:
    """The number format of a whist or point cell holding ``value``."""
    if value.__class__ is int:
        return WHOLE_FORMAT
    denominator = Fraction(value).denominator
    if denominator == 1:
        return WHOLE_FORMAT
    digits = len(str(denominator))
    return "# " + "?" * digits + "/" + "?" * digits


def points_cell(ws: Any, row: int, col: int, value: Amount) -> Any:
    """Whists or points, exact, in the format that shows them exactly; returns the cell."""
    cell = ws.cell(row, col, cell_number(value))
    fmt = points_format(value)
    if fmt != WHOLE_FORMAT:
        cell.number_format = fmt
    return cell


def _currency_sign(currency: str) -> str:
    """The currency as a money cell names it: its code in English, its sign in Russian
    (``₽``, ``€``; a code Babel does not know stays a code)."""
    if language() != "ru":
        return currency
    from babel.numbers import get_currency_symbol

    return get_currency_symbol(currency, locale="ru_RU")


def money_format(currency: str, named: bool = True) -> str:
    """Money in the currency's minor unit (``#,##0.00``), with its code unless ``named=False``."""
    places = len(str(minor_unit(currency).denominator)) - 1
    fmt = "#,##0" + ("." + "0" * places if places else "")
    if named and currency and currency.isascii() and currency.isalnum():
        fmt += f' "{_currency_sign(currency)}"'
    return fmt


# --- styles and widths ---------------------------------------------------------------------------


def add_styles(wb: Any) -> None:
    """Register the header and title styles in the workbook ``wb``."""
    header = NamedStyle(name=HEADER_STYLE)
    header.font = Font(name="Calibri", size=11, bold=True)
    header.fill = PatternFill("solid", fgColor="DDE4EE")
    wb.add_named_style(header)
    title = NamedStyle(name=TITLE_STYLE)
    title.font = Font(name="Calibri", size=12, bold=True)
    wb.add_named_style(title)


def header_row(ws: Any, row: int, labels: Sequence[str], first: int = 1) -> None:
    """``labels`` as header cells of ``row``, from column ``first`` on."""
    for offset, label in enumerate(labels):
        cell = ws.cell(row, first + offset, cell_text(label))
        cell.style = HEADER_STYLE
    as_text(ws, row, range(first, first + len(labels)))


def column_width(length: int) -> float:
    """The width of a column whose longest text is ``length`` characters long."""
    return float(min(max(length + 2, 6), MAX_WIDTH))


def set_widths(ws: Any, lengths: Sequence[int]) -> None:
    """Column ``k + 1`` made as wide as ``lengths[k]`` characters need."""
    for col, length in enumerate(lengths, 1):
        ws.column_dimensions[get_column_letter(col)].width = column_width(length)


def widths_of(rows: Sequence[Sequence[str]], most: int = MAX_WIDTH) -> list[int]:
    """The longest text of each column of ``rows`` (at most ``most``), for :func:`set_widths`."""
    return [min(max(len(r[c]) for r in rows), most) for c in range(len(rows[0]))]


def saved(wb: Any) -> bytes:
    """The workbook ``wb`` as the bytes of an XLSX file."""
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


# --- a worksheet written cell by cell, with formulas ---------------------------------------------

Cached = dict[tuple[str, str], Amount]
"""(sheet title, coordinate) -> the engine's value of a formula cell."""


def formula_cell(
    ws: Any, cache: Cached, row: int, col: int, formula: str, value: Amount, fmt: str = ""
) -> None:
    """A formula of prefcalc's own making, with the engine's value for its cache."""
    cell = ws.cell(row, col, formula)
    fmt = fmt or points_format(value)
    if fmt != WHOLE_FORMAT:
        cell.number_format = fmt
    cache[(ws.title, cell.coordinate)] = value


class Grid:
    """A worksheet written cell by cell, with the styles and text safety of this module, and
    the values of its formulas kept in ``cache`` (for :func:`with_cached_values`)."""

    def __init__(self, ws: Any, cache: Cached | None = None) -> None:
        self.ws = ws
        self.cache: Cached = {} if cache is None else cache

    def put(self, row: int, col: int, value: int | float | bool) -> None:
        """A number or a boolean."""
        self.ws.cell(row, col, value)

    def points(self, row: int, col: int, value: Amount) -> None:
        """Whists or points, exact, in the format that shows them exactly."""
        points_cell(self.ws, row, col, value)

    def formula(self, row: int, col: int, formula: str, value: Amount, fmt: str = "") -> None:
        """A formula of prefcalc's own making, with the engine's value (and its format)."""
        formula_cell(self.ws, self.cache, row, col, formula, value, fmt)

    def text(self, row: int, col: int, value: str, style: str | None = None) -> None:
        """A text cell, never taken for a formula."""
        text_cell(self.ws, row, col, value, style)

    def header(self, row: int, labels: Sequence[str]) -> None:
        header_row(self.ws, row, labels)

    def money(self, row: int, col: int, value: Any, fmt: str) -> None:
        cell = self.ws.cell(row, col, value)
        cell.number_format = fmt


# --- cached values -------------------------------------------------------------------------------
#
# openpyxl writes a formula cell as ``<c r="B2" s="3"><f>SUM(...)</f><v /></c>``: no value,
# so anything that reads the file without recalculating (phone previews, pandas, openpyxl's
# data_only) sees an empty cell. The saved package is rewritten to put the engine's value in
# every ``<v>``; the workbook keeps ``fullCalcOnLoad`` so Excel and LibreOffice still
# recalculate on opening.

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_FORMULA_CELL = re.compile(r'<c r="([A-Z]+[0-9]+)"([^>]*)><f>([^<]*)</f><v\s*/>')


def _cached_text(value: Amount | str | bool) -> tuple[str, str]:
    """The ``t`` attribute (empty for a number) and the ``<v>`` text of a cached value."""
    if isinstance(value, bool):
        return ' t="b"', "1" if value else "0"
    if isinstance(value, str):
        escaped = cell_text(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return ' t="str"', escaped
    number = cell_number(value)
    return "", str(number) if isinstance(number, int) else repr(number)


def _sheet_parts(files: Mapping[str, bytes]) -> dict[str, str]:
    """Sheet title -> the part name of its worksheet XML, read from the package itself."""
    book = ElementTree.fromstring(files["xl/workbook.xml"])
    rels = ElementTree.fromstring(files["xl/_rels/workbook.xml.rels"])
    targets = {}
    for rel in rels.iter(f"{_PKG_REL}Relationship"):
        target = rel.get("Target", "")
        targets[rel.get("Id")] = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    parts = {}
    for node in book.iter(f"{_MAIN}sheet"):
        parts[node.get("name", "")] = targets[node.get(f"{_REL}id")]
    return parts


def with_cached_values(data: bytes, cache: Mapping[tuple[str, str], Amount]) -> bytes:
    """The saved workbook ``data`` with ``cache``'s value in each of those formula cells."""
    by_sheet: dict[str, dict[str, Amount]] = {}
    for (title, coordinate), value in cache.items():
        by_sheet.setdefault(title, {})[coordinate] = value
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        infos = source.infolist()
        files = {info.filename: source.read(info) for info in infos}
    parts = _sheet_parts(files)
    for title, values in by_sheet.items():
        part = parts[title]

        def fill(match: re.Match[str], values: dict[str, Amount] = values) -> str:
            coordinate, attributes, formula = match.groups()
            value = values.get(coordinate)
            if value is None:
                return match.group()
            kind, text = _cached_text(value)
            return f'<c r="{coordinate}"{attributes}{kind}><f>{formula}</f><v>{text}</v>'

        files[part] = _FORMULA_CELL.sub(fill, files[part].decode("utf-8")).encode("utf-8")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in infos:
            target.writestr(info, files[info.filename])
    return out.getvalue()


# --- charts --------------------------------------------------------------------------------------


def show_axes(chart: Any) -> None:
    """openpyxl 3.1 marks both axes deleted unless told otherwise: show them."""
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    chart.x_axis.tickLblPos = "low"  # the labels at the bottom, not on the zero line


#: The chart's marker for each of the PDF's marker shapes (:data:`charts.MARKERS`).
XLSX_MARKERS = {
    "FilledCircle": "circle",
    "FilledSquare": "square",
    "FilledTriangle": "triangle",
    "FilledDiamond": "diamond",
    "FilledCross": "x",
    "FilledStarFive": "star",
    "Circle": "circle",
    "Square": "square",
    "Triangle": "triangle",
    "Diamond": "diamond",
    "StarSix": "plus",
    "ArrowHead": "dash",
}

XLSX_DASHES: dict[tuple[float, ...] | None, str] = {
    None: "solid",
    (6.0, 3.0): "dash",
    (1.5, 2.0): "sysDot",
}


def balance_chart(
    ws: Any,
    first_col: int,
    header_row: int,
    last_row: int,
    series: int,
    title: str,
    x: str,
    markers: bool = False,
) -> Any:
    """A line chart of the table at ``first_col`` (categories) and the ``series`` columns
    after it, header at ``header_row``, data down to ``last_row``. Player ``k`` is drawn in
    the PDF chart's style ``k`` (:func:`prefcalc.export.charts.style`: colour, dashes, and
    its marker if ``markers``); an empty cell is a gap in the line, never a zero."""
    from prefcalc.export.charts import filled, style

    chart = LineChart()
    chart.title = title
    chart.y_axis.title = pgettext("chart", "whists")
    chart.x_axis.title = x
    data = Reference(
        ws,
        min_col=first_col + 1,
        max_col=first_col + series,
        min_row=header_row,
        max_row=last_row,
    )
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=first_col, min_row=header_row + 1, max_row=last_row))
    chart.display_blanks = "gap"
    for k, line in enumerate(chart.series):
        look = style(k)
        line.smooth = False
        line.graphicalProperties.line.solidFill = look.colour.lstrip("#")
        line.graphicalProperties.line.prstDash = XLSX_DASHES.get(look.dash, "solid")
        if markers:
            line.marker.symbol = XLSX_MARKERS[look.marker]
            line.marker.size = 6
            inside = look.colour.lstrip("#") if filled(look.marker) else "FFFFFF"
            line.marker.graphicalProperties = GraphicalProperties(solidFill=inside)
            line.marker.graphicalProperties.line.solidFill = look.colour.lstrip("#")
        else:
            line.marker.symbol = "none"
    show_axes(chart)
    chart.height = 9
    chart.width = 18
    return chart
