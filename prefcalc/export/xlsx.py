"""The XLSX workbook: the record, the sheet, the settlement and the rules, with live formulas.

Four sheets, in this order:

``Deals``
    One row per entry of the record (deals and adjustments): number, time, dealer, kind,
    declarer, contract, tricks, both defenders' roles and tricks, the all-pass streak and
    price, the deal in words, the scorer's warning if any, then what every player got
    written in this entry, net per column (``Anna pool``, ``Anna mountain``,
    ``Anna on Boris``...). Frozen header, filters, widths fitted to the content.
``Sheet``
    Each player's totals (pool, mountain, whists on every opponent, points left to close) as
    ``SUM`` formulas over the Deals columns, and below them the running totals after every
    deal (formulas too), so a number corrected in Deals flows through.
``Settlement``
    docs/rules.md §5 step by step for both methods in exact arithmetic, as formulas over
    the Sheet totals: unclosed pools into the mountain (``pool_to_mountain`` from Rules),
    the amnesty, method 1's ``10 × m / N`` entries, held whists and pairwise balances,
    method 2's average mountain, mountain results and game whists, the results in whists
    and money (whists × the whist price). prefcalc's money rounded to the currency's unit,
    its payments and its whole-whist results are shown beside as values.
``Rules``
    The game's terms, the convention's name and every option value with its meaning.

openpyxl is imported here only: the CLI imports this module lazily, when exporting.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.cell.cell import ERROR_CODES  # type: ignore[import-untyped]
from openpyxl.chart import LineChart, Reference  # type: ignore[import-untyped]
from openpyxl.chart.shapes import GraphicalProperties  # type: ignore[import-untyped]
from openpyxl.styles import Font, NamedStyle, PatternFill  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter  # type: ignore[import-untyped]

from prefcalc import terms
from prefcalc.i18n import N_, _, language, pgettext
from prefcalc.report import Report
from prefcalc.rules.amounts import Amount
from prefcalc.rules.conventions import OPTIONS, to_toml_value
from prefcalc.rules.model import Contract, Entry, Game, Join, Misere
from prefcalc.rules.scoring import MOUNTAIN, POOL, WHISTS, Column, Sheet
from prefcalc.rules.settlement import Settlement, minor_unit
from prefcalc.store.files import write_atomic
from prefcalc.views.text import deal_words

DEALS = N_("Deals")
SHEET = N_("Sheet")
SETTLEMENT = N_("Settlement")
RULES = N_("Rules")
"""The tabs, named in the workbook's language (:func:`tab`); formulas name them by :func:`ref`."""


def tab(name: str) -> str:
    """A tab's title in the language in use: ``Deals`` / ``Раздачи``."""
    return _(name)


def ref(name: str) -> str:
    """A tab as a formula names it: ``Deals``, or quoted when not plain ASCII (``'Раздачи'``)."""
    title = tab(name)
    return title if title.isascii() and title.isalnum() else "'" + title.replace("'", "''") + "'"


#: The fixed columns of the Deals sheet; the per-player written columns follow them.
DEAL_HEADERS = (
    N_("#"),
    N_("Time"),
    N_("Dealer"),
    N_("Kind"),
    N_("Declarer"),
    N_("Contract"),
    N_("Tricks"),
    N_("Defender 1"),
    N_("Role 1"),
    N_("Tricks 1"),
    N_("Defender 2"),
    N_("Role 2"),
    N_("Tricks 2"),
    N_("Passes in a row"),
    N_("Price per trick"),
    N_("Deal"),
    N_("Warning"),
)
_DEAL_TEXT = DEAL_HEADERS.index("Deal") + 1
_WARNING = DEAL_HEADERS.index("Warning") + 1


def _kind(kind: str) -> str:
    """The Kind column: a deal's kind in the language in use."""
    words = {
        "contract": pgettext("kind", "contract"),
        "misère": pgettext("kind", "misère"),
        "all-pass": pgettext("kind", "all-pass"),
        "change": pgettext("kind", "change"),
        "adjustment": pgettext("kind", "adjustment"),
        "penalty": pgettext("kind", "penalty"),
        "preference": pgettext("kind", "preference"),
        "join": pgettext("kind", "join"),
    }
    return words.get(kind, kind)


_NAME_COLUMNS = (3, 5, 6, 8, 11)  # dealer, declarer, contract, the defenders: the record's text
_FIRST_WRITTEN = len(DEAL_HEADERS) + 1

HEADER_STYLE = "prefcalc header"
_TITLE = "prefcalc title"
_MAX_WIDTH = 60

Key = tuple[str, Column, str | None]  # (player, column, on): one written column


# --- small helpers ------------------------------------------------------------------------------


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


#: The number formats. Whists, mountain and pool points are exact: a fraction shows as a
#: fraction (``73 1/3``), never as ``73.3333333333333``; a whole number keeps ``General``,
#: which shows it whole (and, unlike ``0``, never rounds a value a correction made fractional).
WHOLE_FORMAT = "General"
DATETIME_FORMAT = "yyyy-mm-dd hh:mm"
RUSSIAN_DATETIME_FORMAT = "dd.mm.yyyy hh:mm"


def datetime_format() -> str:
    """A date-time cell's format as the language in use writes it (``01.12.2026 19:00``)."""
    return RUSSIAN_DATETIME_FORMAT if language() == "ru" else DATETIME_FORMAT


def _currency_sign(currency: str) -> str:
    """The currency as a money cell names it: its code in English, its sign in Russian
    (``₽``, ``€``; a code Babel does not know stays a code)."""
    if language() != "ru":
        return currency
    from babel.numbers import get_currency_symbol

    return get_currency_symbol(currency, locale="ru_RU")


def points_format(value: Amount) -> str:
    """The number format of a whist or point cell holding ``value``."""
    if value.__class__ is int:
        return WHOLE_FORMAT
    denominator = Fraction(value).denominator
    if denominator == 1:
        return WHOLE_FORMAT
    digits = len(str(denominator))
    return "# " + "?" * digits + "/" + "?" * digits


def _when(time: str) -> datetime | str:
    """A deal's ISO time as a date-time cell in this computer's local time, like every time
    prefcalc shows (Excel has no time zones); text when it is no such time."""
    try:
        moment = datetime.fromisoformat(time)
    except ValueError:
        return cell_text(time)
    if not 1900 <= moment.year <= 9999:
        return cell_text(time)
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.replace(tzinfo=None)


Cached = dict[tuple[str, str], Amount]  # (sheet title, coordinate) -> the engine's value


def _formula(
    ws: Any, cache: Cached, row: int, col: int, formula: str, value: Amount, fmt: str = ""
) -> None:
    """A formula of this module's own making, with the engine's value for its cache."""
    cell = ws.cell(row, col, formula)
    fmt = fmt or points_format(value)
    if fmt != WHOLE_FORMAT:
        cell.number_format = fmt
    cache[(ws.title, cell.coordinate)] = value


def _risky(value: str) -> bool:
    """Text openpyxl would take for a formula (``=...``) or an error value (``#N/A``)."""
    return (len(value) > 1 and value[0] == "=") or value in ERROR_CODES


def _as_text(ws: Any, row: int, columns: Iterable[int]) -> None:
    """Keep the risky texts of ``row`` as plain strings (never formulas or error values)."""
    for col in columns:
        cell = ws.cell(row, col)
        if isinstance(cell.value, str) and _risky(cell.value):
            cell.data_type = "s"


def column_width(length: int) -> float:
    return float(min(max(length + 2, 6), _MAX_WIDTH))


def _written_keys(players: Sequence[str]) -> list[Key]:
    """The written columns, player by player: pool, mountain, whists on each opponent."""
    keys: list[Key] = []
    for p in players:
        keys.append((p, POOL, None))
        keys.append((p, MOUNTAIN, None))
        keys.extend((p, WHISTS, q) for q in players if q != p)
    return keys


def _written_header(key: Key) -> str:
    player, column, on = key
    if column == WHISTS:
        return _("{player} on {on}").format(player=player, on=on)
    return f"{player} {terms.column(column)}"


def add_styles(wb: Any) -> None:
    header = NamedStyle(name=HEADER_STYLE)
    header.font = Font(name="Calibri", size=11, bold=True)
    header.fill = PatternFill("solid", fgColor="DDE4EE")
    wb.add_named_style(header)
    title = NamedStyle(name=_TITLE)
    title.font = Font(name="Calibri", size=12, bold=True)
    wb.add_named_style(title)


def _header_row(ws: Any, row: int, labels: Sequence[str], first: int = 1) -> None:
    for offset, label in enumerate(labels):
        cell = ws.cell(row, first + offset, cell_text(label))
        cell.style = HEADER_STYLE
    _as_text(ws, row, range(first, first + len(labels)))


# --- Deals --------------------------------------------------------------------------------------


def _deal_columns(number: int, entry: Entry) -> dict[int, Any]:
    """The fixed cells of one entry's row (1-based column -> value), empty ones left out."""
    row: dict[int, Any] = {1: number, 2: _when(entry.time)}
    if entry.dealer is not None:
        row[3] = entry.dealer
    words = deal_words(entry)
    row[4] = _kind(words.kind)
    if words.player and words.kind not in ("adjustment", "penalty", "join"):
        row[5] = words.player
    if words.contract:
        row[6] = words.contract
    if words.tricks is not None:
        row[7] = words.tricks
    for k, (player, role, tricks) in enumerate(words.defenders[:2]):
        base = 8 + 3 * k
        row[base] = player
        row[base + 1] = role
        if tricks is not None:
            row[base + 2] = tricks
    row[_DEAL_TEXT] = words.text
    return row


def _write_deals(ws: Any, game: Game, sheet: Sheet, keys: list[Key]) -> None:
    column_of = {key: _FIRST_WRITTEN + k for k, key in enumerate(keys)}
    labels = (*(_(h) for h in DEAL_HEADERS), *(_written_header(key) for key in keys))
    headers = [cell_text(h) for h in labels]
    factor_col = 0  # Classic (docs/rules.md §8.1): the deal factor F, after the written columns
    if _has_factor(sheet):
        headers.append(_(FACTOR_HEADER))
        factor_col = len(headers)
    ws.append(headers)
    for cell in ws[1]:
        cell.style = HEADER_STYLE
    _as_text(ws, 1, range(1, len(headers) + 1))
    warnings: dict[int, list[str]] = {}
    for problem in sheet.problems:
        warnings.setdefault(problem.number, []).append(problem.message)
    widths = [len(h) for h in headers]
    text_columns = (2, 3, 4, 5, 6, 8, 9, 11, 12, _DEAL_TEXT, _WARNING)
    for r, scored in enumerate(sheet.scored, 2):  # r: the row it takes, after the header
        entry = scored.entry
        row = _deal_columns(scored.number, entry)
        if scored.price is not None:  # an all-pass deal: its place in the streak and price
            row[14] = scored.streak
            row[15] = cell_number(scored.price)
        row[_DEAL_TEXT] = cell_text(row[_DEAL_TEXT])
        if factor_col and isinstance(entry.deal, Contract | Misere):
            row[factor_col] = scored.factor
        found = warnings.get(scored.number)
        if found:
            row[_WARNING] = cell_text("; ".join(found))
        net: dict[int, Amount] = {}
        for write in scored.writes:
            col = column_of[(write.player, write.column, write.on)]
            net[col] = net.get(col, 0) + write.amount
        for col, amount in net.items():
            if amount:
                row[col] = cell_number(amount)
        for col in _NAME_COLUMNS:
            if col in row:
                row[col] = cell_text(row[col])
        ws.append(row)
        for col, amount in net.items():
            if amount:
                fmt = points_format(amount)
                if fmt != WHOLE_FORMAT:
                    ws.cell(r, col).number_format = fmt
        if isinstance(row[2], datetime):
            ws.cell(r, 2).number_format = datetime_format()
        if scored.price is not None and 15 in row:
            ws.cell(r, 15).number_format = points_format(scored.price)
        risky = False
        for col in text_columns:
            value = row.get(col)
            if value is not None:
                if isinstance(value, datetime):
                    length = len(DATETIME_FORMAT)
                else:
                    length = len(value)
                    risky = risky or _risky(value)
                if length > widths[col - 1]:
                    widths[col - 1] = length
        if risky:
            _as_text(ws, r, text_columns)
    for col, length in enumerate(widths, 1):
        ws.column_dimensions[get_column_letter(col)].width = column_width(length)
    last_row = max(len(sheet.scored) + 1, 2)
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = f"A1:{get_column_letter(len(headers))}{last_row}"


FACTOR_HEADER = N_("Factor F (bomb × dark)")
"""The Deals column of a Classic game: every game's and misère's deal factor."""


def _has_factor(sheet: Sheet) -> bool:
    """Whether the game can have a deal factor (bombs or dark games), or has one."""
    conv = sheet.convention
    return (
        conv.dark_games
        or bool(conv.bombs_opening)
        or conv.bombs_blind
        or any(s.factor != 1 for s in sheet.scored)
    )


# --- Sheet --------------------------------------------------------------------------------------


class _SheetRefs:
    """Where the Sheet tab keeps each total (absolute references, for other sheets)."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = tuple(players)
        self.row = {p: 2 + i for i, p in enumerate(players)}
        self.on_col = {p: get_column_letter(4 + i) for i, p in enumerate(players)}
        self.last_on_col = get_column_letter(3 + len(players))

    def pool(self, p: str) -> str:
        return f"{ref(SHEET)}!$B${self.row[p]}"

    def mountain(self, p: str) -> str:
        return f"{ref(SHEET)}!$C${self.row[p]}"

    def whists(self, a: str, b: str) -> str:
        return f"{ref(SHEET)}!${self.on_col[b]}${self.row[a]}"

    def written_by(self, p: str) -> str:
        """The range of whists ``p`` wrote on everybody (his row; his own cell is empty)."""
        r = self.row[p]
        return f"{ref(SHEET)}!$D${r}:${self.last_on_col}${r}"

    def written_on(self, p: str) -> str:
        """The range of whists everybody wrote on ``p`` (his column; his own cell is empty)."""
        col = self.on_col[p]
        return f"{ref(SHEET)}!${col}$2:${col}${1 + len(self.players)}"


def _write_sheet(
    ws: Any, report: Report, keys: list[Key], refs: _SheetRefs, target_ref: str, cache: Cached
) -> None:
    sheet = report.sheet
    players = sheet.players
    n = len(players)
    first = 2
    last = max(len(sheet.scored) + 1, 2)
    deals_col = {key: get_column_letter(_FIRST_WRITTEN + k) for k, key in enumerate(keys)}

    def total(r: int, c: int, key: Key, value: Amount) -> None:
        col = deals_col[key]
        _formula(ws, cache, r, c, f"=SUM({ref(DEALS)}!${col}${first}:${col}${last})", value)

    _header_row(
        ws,
        1,
        [
            _("Player"),
            _("Pool"),
            _("Mountain"),
            *(pgettext("sheet", "on {player}").format(player=p) for p in players),
            _("To close"),
        ],
    )
    for p in players:
        r = refs.row[p]
        ws.cell(r, 1, cell_text(p))
        total(r, 2, (p, POOL, None), sheet.pool[p])
        total(r, 3, (p, MOUNTAIN, None), sheet.mountain[p])
        for q in players:
            if q != p:
                total(r, 4 + players.index(q), (p, WHISTS, q), sheet.whists[p][q])
        to_close = max(0, sheet.target - sheet.pool[p])
        _formula(ws, cache, r, 4 + n, f"=MAX(0,{target_ref}-B{r})", to_close)
    _as_text(ws, 1, range(1, 5 + n))
    for p in players:
        _as_text(ws, refs.row[p], (1,))
    ws.column_dimensions["A"].width = column_width(max(len("Player"), *(len(p) for p in players)))
    for c in range(2, 5 + n):
        ws.column_dimensions[get_column_letter(c)].width = column_width(12)

    # Running totals after every deal: the previous row plus this deal's row of Deals.
    title_row = n + 3
    ws.cell(title_row, 1, _("Running totals after each deal")).style = _TITLE
    head = title_row + 1
    _header_row(ws, head, ["#", *(_written_header(key) for key in keys)])
    letters = [deals_col[key] for key in keys]
    own = [get_column_letter(2 + k) for k in range(len(keys))]
    running: dict[Key, Amount] = dict.fromkeys(keys, 0)
    for k, scored in enumerate(sheet.scored):
        r = head + 1 + k
        d = first + k
        for w in scored.writes:
            key = (w.player, w.column, w.on)
            running[key] = running[key] + w.amount
        ws.cell(r, 1, scored.number)
        for c, (mine, col, key) in enumerate(zip(own, letters, keys, strict=True), 2):
            formula = (
                f"={ref(DEALS)}!{col}{d}" if k == 0 else f"={mine}{r - 1}+{ref(DEALS)}!{col}{d}"
            )
            _formula(ws, cache, r, c, formula, running[key])
    for k, key in enumerate(keys):
        letter = own[k]
        current = ws.column_dimensions[letter].width or 0
        ws.column_dimensions[letter].width = max(current, column_width(len(_written_header(key))))
    _write_balance(ws, report, head, 3 + len(keys))


def seating_at_start(sheet: Sheet) -> list[str]:
    """The players seated before the first deal (all but those who joined later)."""
    later = {s.entry.deal.player for s in sheet.scored if isinstance(s.entry.deal, Join)}
    return [p for p in sheet.players if p not in later]


def _write_balance(ws: Any, report: Report, head: int, first: int) -> None:
    """Beside the running totals: every player's running balance in whists after each deal
    (the exact settlement if the night stopped there; values as of the export) and a native
    line chart of it."""

    sheet = report.sheet
    players = sheet.players
    title = ws.cell(
        head - 1, first, _("Running balance in whists (settled as if the night ended there)")
    )
    title.style = _TITLE
    _header_row(ws, head, ["#", *players], first)
    seated = set(seating_at_start(sheet))
    for k, (scored, balance) in enumerate(zip(sheet.scored, report.balances, strict=True)):
        r = head + 1 + k
        ws.cell(r, first, scored.number)
        if isinstance(scored.entry.deal, Join):
            seated.add(scored.entry.deal.player)
        for c, p in enumerate(players, first + 1):
            if p not in seated:  # before he joined: empty (a gap), not a 0 ("broke even")
                continue
            cell = ws.cell(r, c, cell_number(balance[p]))
            fmt = points_format(balance[p])
            if fmt != WHOLE_FORMAT:
                cell.number_format = fmt
    for c, p in enumerate(players, first + 1):
        ws.column_dimensions[get_column_letter(c)].width = column_width(max(len(p), 8))
    if sheet.scored:
        chart = balance_chart(
            ws,
            first,
            head,
            head + len(sheet.scored),
            len(players),
            _("Running balance over the night"),
            pgettext("chart", "deal"),
        )
        ws.add_chart(chart, f"{get_column_letter(first + len(players) + 2)}{head}")


# --- Settlement ---------------------------------------------------------------------------------


class _Grid:
    """A worksheet written cell by cell, with the styles and text safety of this module."""

    def __init__(self, ws: Any, cache: Cached | None = None) -> None:
        self.ws = ws
        self.cache: Cached = {} if cache is None else cache

    def put(self, row: int, col: int, value: int | float | bool) -> None:
        """A number or a boolean."""
        self.ws.cell(row, col, value)

    def points(self, row: int, col: int, value: Amount) -> None:
        """Whists or points, exact, in the format that shows them exactly."""
        cell = self.ws.cell(row, col, cell_number(value))
        fmt = points_format(value)
        if fmt != WHOLE_FORMAT:
            cell.number_format = fmt

    def formula(self, row: int, col: int, formula: str, value: Amount, fmt: str = "") -> None:
        """A formula of this module's own making, with the engine's value (and its format)."""
        _formula(self.ws, self.cache, row, col, formula, value, fmt)

    def text(self, row: int, col: int, value: str, style: str | None = None) -> None:
        """A text cell, never taken for a formula."""
        cell = self.ws.cell(row, col, cell_text(value))
        if _risky(cell.value):
            cell.data_type = "s"
        if style is not None:
            cell.style = style

    def header(self, row: int, labels: Sequence[str]) -> None:
        _header_row(self.ws, row, labels)

    def money(self, row: int, col: int, value: Any, fmt: str) -> None:
        cell = self.ws.cell(row, col, value)
        cell.number_format = fmt


def money_format(currency: str, named: bool = True) -> str:
    """Money in the currency's minor unit (``#,##0.00``), with its code unless ``named=False``."""
    places = len(str(minor_unit(currency).denominator)) - 1
    fmt = "#,##0" + ("." + "0" * places if places else "")
    if named and currency and currency.isascii() and currency.isalnum():
        fmt += f' "{_currency_sign(currency)}"'
    return fmt


def _write_payments(g: _Grid, row: int, title: str, s: Settlement, fmt: str) -> int:
    g.text(row, 1, title, _TITLE)
    g.header(row + 1, [_("Payer"), _("Payee"), _("Amount")])
    row += 2
    if not s.payments:
        g.text(row, 1, _("nobody owes anything"))
        return row + 1
    for payment in s.payments:
        g.text(row, 1, payment.payer)
        g.text(row, 2, payment.payee)
        g.money(row, 3, cell_number(payment.amount), fmt)
        row += 1
    return row


def _price_format(price: Amount, currency: str) -> str:
    """The whist price's format: money without the code (the next cell names the currency)
    when that shows the price exactly, else ``General``."""
    exact = (Fraction(price) / minor_unit(currency)).denominator == 1
    return money_format(currency, named=False) if exact else "General"


def _write_settlement(
    ws: Any,
    report: Report,
    refs: _SheetRefs,
    factor_ref: str,
    cache: Cached,
    pool_ref: str = "",
) -> None:
    sheet = report.sheet
    players = sheet.players
    n = len(players)
    g = _Grid(ws, cache)
    price, currency = report.price, report.currency  # the price in force
    fmt = money_format(currency)
    exact = {"pairwise": report.pairwise, "average": report.average}
    whole = {"pairwise": report.pairwise_whole, "average": report.average_whole}
    last_col = get_column_letter(1 + n)

    g.text(1, 1, _("Settlement (docs/rules.md §5), exact arithmetic"), _TITLE)
    g.text(
        2,
        1,
        _(
            "Formulas over the Sheet totals: correct a number in Deals and everything here "
            "follows. prefcalc's rounded money and payments are values as of the export."
        ),
    )
    g.text(4, 1, _("Whist price"))
    g.money(4, 2, cell_number(price), _price_format(price, currency))
    if currency:
        g.text(4, 3, currency)
    g.text(5, 1, _("Players (N)"))
    g.put(5, 2, n)
    g.text(6, 1, _("Pool to mountain factor"))
    s1 = exact["pairwise"]
    # closing = average (docs/rules.md §5.9): no pool goes into a mountain, every pool is
    # worth the whists per pool point against the average pool instead
    pools = s1.pool_average is not None
    if pools:
        g.put(6, 2, 0)
        g.text(6, 3, _("closing = average: the pools go into no mountain"))
        g.text(7, 1, _("Whists per pool point"))
        g.formula(7, 2, f"={pool_ref}", s1.pool_rate)
    else:
        g.formula(6, 2, f"={factor_ref}", s1.pool_factor)
    price_ref, n_ref, factor, rate = "$B$4", "$B$5", "$B$6", "$B$7"

    # 1. Unclosed pools into the mountain, then the amnesty.
    g.text(
        8,
        1,
        _("1. Pools against the average, the mountains, then the amnesty")
        if pools
        else _("1. Unclosed pools into the mountain, then the amnesty"),
        _TITLE,
    )
    g.header(
        9,
        [
            _("Player"),
            _("Pool"),
            _("Mountain"),
            _("Added: factor × (largest pool − pool)"),
            _("Mountain with the pools"),
            _("Mountain after the amnesty"),
            *([_("Pool whists: whists per point × (pool − average pool)")] if pools else []),
        ],
    )
    top, bottom = 10, 9 + n
    largest, amnesty = bottom + 1, bottom + 2
    pool_average = amnesty + 1
    m_row = {p: top + i for i, p in enumerate(players)}
    for p, r in m_row.items():
        g.text(r, 1, p)
        g.formula(r, 2, f"={refs.pool(p)}", s1.pools[p])
        g.formula(r, 3, f"={refs.mountain(p)}", sheet.mountain[p])
        added = s1.pool_factor * (s1.pool_max - s1.pools[p])
        g.formula(r, 4, f"={factor}*($B${largest}-B{r})", added)
        g.formula(r, 5, f"=C{r}+D{r}", s1.mountains[p])
        g.formula(r, 6, f"=E{r}-$B${amnesty}", s1.amnestied[p])
        if pools:
            g.formula(r, 7, f"={rate}*(B{r}-$B${pool_average})", s1.pool_results[p])
    g.text(largest, 1, _("Largest pool"))
    g.formula(largest, 2, f"=MAX(B{top}:B{bottom})", s1.pool_max)
    g.text(amnesty, 1, _("Amnesty: the smallest mountain"))
    g.formula(amnesty, 2, f"=MIN(E{top}:E{bottom})", s1.amnesty)
    if pools:
        g.text(pool_average, 1, _("Average pool"))
        g.formula(pool_average, 2, f"=SUM(B{top}:B{bottom})/{n_ref}", s1.pool_average or 0)

    # Prizes (docs/rules.md §8.6): game whists of both methods, as values.
    prize_ref: dict[tuple[str, str], str] = {}
    prize_won: dict[tuple[str, str], Amount] = {}
    row = amnesty + (3 if pools else 2)
    if s1.prizes:
        row = _write_prizes(g, row, s1, prize_ref, prize_won)

    # 2. Method 1: pairwise.
    g.text(row, 1, _("2. Method 1 (pairwise)"), _TITLE)
    g.header(
        row + 1,
        [
            _("Player"),
            _("10 × mountain / N: every opponent writes this on him"),
            *(
                [_("Whists per pool point × pool / N: he writes this on every opponent")]
                if pools
                else []
            ),
        ],
    )
    entry_row = {p: row + 2 + i for i, p in enumerate(players)}
    for p, r in entry_row.items():
        g.text(r, 1, p)
        g.formula(r, 2, f"=10*F{m_row[p]}/{n_ref}", s1.mountain_entries[p])
        if pools:
            g.formula(r, 3, f"={rate}*B{m_row[p]}/{n_ref}", s1.pool_entries[p])
    row += 3 + n
    g.text(row, 1, _("Whists each player holds on each opponent: game whists + mountain whists"))
    g.header(
        row + 1,
        [_("Player"), *(pgettext("sheet", "on {player}").format(player=p) for p in players)],
    )
    held_row = {p: row + 2 + i for i, p in enumerate(players)}
    col_of = {p: get_column_letter(2 + i) for i, p in enumerate(players)}
    for a, r in held_row.items():
        g.text(r, 1, a)
        for b in players:
            if b != a:
                held = sheet.whists[a][b] + s1.mountain_entries[b] + prize_won.get((a, b), 0)
                formula = f"={refs.whists(a, b)}+$B${entry_row[b]}"
                if pools:
                    held += s1.pool_entries[a]
                    formula += f"+$C${entry_row[a]}"
                if prize_ref:
                    formula += f"+{prize_ref[(a, b)]}"
                g.formula(r, 2 + players.index(b), formula, held)
    row += 3 + n
    g.text(row, 1, _("Pairwise balance: what the row player gains from the column player"))
    g.header(row + 1, [_("Player"), *(_("from {player}").format(player=p) for p in players)])
    balance_row = {p: row + 2 + i for i, p in enumerate(players)}
    for a, r in balance_row.items():
        g.text(r, 1, a)
        for b in players:
            if b != a:
                g.formula(
                    r,
                    2 + players.index(b),
                    f"={col_of[b]}{held_row[a]}-{col_of[a]}{held_row[b]}",
                    s1.pairwise[(a, b)],
                )
    row += 3 + n
    row = _write_result(
        g,
        row,
        _("Result, method 1"),
        [],
        {p: [f"=SUM(B{balance_row[p]}:{last_col}{balance_row[p]})"] for p in players},
        {p: [s1.whists[p]] for p in players},
        exact["pairwise"],
        price_ref,
        fmt,
    )
    row = _write_payments(g, row + 1, _("Payments, method 1 (prefcalc)"), exact["pairwise"], fmt)

    # 3. Method 2: the average mountain.
    row += 1
    g.text(row, 1, _("3. Method 2 (average mountain)"), _TITLE)
    average = row + 1
    g.text(average, 1, _("Average mountain"))
    s2 = exact["average"]
    g.formula(average, 2, f"=SUM(F{top}:F{bottom})/{n_ref}", s2.average)
    row = average + 2
    columns = {
        p: [
            f"=10*($B${average}-F{m_row[p]})",
            f"=SUM({refs.written_by(p)})-SUM({refs.written_on(p)})"
            + (_prize_net(players, p, prize_ref) if prize_ref else ""),
            *([f"=G{m_row[p]}"] if pools else []),
        ]
        for p in players
    }
    row = _write_result(
        g,
        row,
        _("Result, method 2"),
        [
            _("Mountain result: 10 × (average − mountain)"),
            _("Game whists: on others − on him"),
            *([_("Pool whists (step 1)")] if pools else []),
        ],
        columns,
        {
            p: [s2.mountain_whists[p], s2.game_whists[p], *([s2.pool_results[p]] if pools else [])]
            for p in players
        },
        exact["average"],
        price_ref,
        fmt,
        add=True,
    )
    row = _write_payments(g, row + 1, _("Payments, method 2 (prefcalc)"), exact["average"], fmt)

    # 4. prefcalc's whole-whist rounding, as values.
    row += 1
    g.text(row, 1, _("4. Rounded to whole whists (prefcalc's figures at export, values)"), _TITLE)
    g.header(
        row + 1,
        [
            _("Player"),
            _("Method 1 whists"),
            _("Method 1 money"),
            _("Method 2 whists"),
            _("Method 2 money"),
        ],
    )
    for i, p in enumerate(players):
        r = row + 2 + i
        g.text(r, 1, p)
        g.points(r, 2, whole["pairwise"].whists[p])
        g.money(r, 3, cell_number(whole["pairwise"].money[p]), fmt)
        g.points(r, 4, whole["average"].whists[p])
        g.money(r, 5, cell_number(whole["average"].money[p]), fmt)

    ws.column_dimensions["A"].width = 34.0
    for c in range(2, 8):
        ws.column_dimensions[get_column_letter(c)].width = 16.0


def _write_prizes(
    g: _Grid,
    row: int,
    s: Settlement,
    refs: dict[tuple[str, str], str],
    won: dict[tuple[str, str], Amount],
) -> int:
    """The prizes (docs/rules.md §8.6) as Settlement rows: one line per prize write, then the
    whists each player writes on each opponent for them (counted as game whists by both
    methods). Fills ``refs`` with the cell of every pair; returns the next free row."""
    players = s.players
    g.text(row, 1, _("Prizes (game whists of both methods, docs/rules.md §8.6)"), _TITLE)
    g.header(row + 1, [_("Writer"), _("On"), _("Whists"), _("Why")])
    r = row + 2
    for prize in s.prizes:
        g.text(r, 1, prize.writer)
        g.text(r, 2, prize.on)
        g.points(r, 3, prize.amount)
        g.text(r, 4, prize.why)
        won[(prize.writer, prize.on)] = won.get((prize.writer, prize.on), 0) + prize.amount
        r += 1
    r += 1
    g.text(r, 1, _("Prize whists the row player writes on the column player"))
    g.header(
        r + 1, [_("Player"), *(pgettext("sheet", "on {player}").format(player=p) for p in players)]
    )
    for i, a in enumerate(players):
        line = r + 2 + i
        g.text(line, 1, a)
        for j, b in enumerate(players):
            if b != a:
                g.points(line, 2 + j, won.get((a, b), 0))
                refs[(a, b)] = f"${get_column_letter(2 + j)}${line}"
    return r + 3 + len(players)


def _prize_net(players: Sequence[str], p: str, refs: dict[tuple[str, str], str]) -> str:
    """``+ (prize whists p writes) − (prize whists written on p)`` as a formula tail."""
    out = "".join(f"+{refs[(p, q)]}" for q in players if q != p)
    return out + "".join(f"-{refs[(q, p)]}" for q in players if q != p)


def _write_result(
    g: _Grid,
    row: int,
    title: str,
    steps: list[str],
    formulas: dict[str, list[str]],
    values: dict[str, list[Amount]],
    s: Settlement,
    price_ref: str,
    fmt: str,
    add: bool = False,
) -> int:
    """A result table: the method's own step columns, then whists, money and prefcalc's money.

    Returns the row after the table's Total line.
    """
    players = s.players
    g.text(row, 1, title, _TITLE)
    g.header(
        row + 1, [_("Player"), *steps, _("Whists"), _("Money"), _("Money, rounded (prefcalc)")]
    )
    first = row + 2
    w_col = 2 + len(steps)
    w = get_column_letter(w_col)
    sums: dict[int, Amount] = {}
    for i, p in enumerate(players):
        r = first + i
        g.text(r, 1, p)
        row_values: list[Amount] = list(values[p])
        for k, formula in enumerate(formulas[p]):
            g.formula(r, 2 + k, formula, row_values[k])
        if add:
            whists = sum(row_values[: len(steps)], Fraction(0))
            row_values.append(whists)
            sum_of = "+".join(f"{get_column_letter(2 + k)}{r}" for k in range(len(steps)))
            g.formula(r, w_col, "=" + sum_of, whists)
        money = Fraction(row_values[-1]) * Fraction(s.whist_price)
        row_values.append(money)
        g.formula(r, w_col + 1, f"={w}{r}*{price_ref}", money, fmt)
        g.money(r, w_col + 2, cell_number(s.money[p]), fmt)
        for k, value in enumerate(row_values):
            sums[2 + k] = sums.get(2 + k, 0) + value
    last = first + len(players) - 1
    total = last + 1
    g.text(total, 1, _("Total"))
    for c in range(2, w_col + 2):
        letter = get_column_letter(c)
        money_column = c == w_col + 1
        formula = f"=SUM({letter}{first}:{letter}{last})"
        g.formula(total, c, formula, sums.get(c, 0), fmt if money_column else "")
    return total + 1


# --- Rules --------------------------------------------------------------------------------------


def _option_value(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | Fraction):
        return cell_number(value)
    if isinstance(value, str):
        return cell_text(value)
    return to_toml_value(value)


def _write_rules(ws: Any, game: Game, sheet: Sheet) -> tuple[str, str, str]:
    """Write the Rules sheet; return the references of the target, of pool_to_mountain and
    of pool_whists."""
    g = _Grid(ws)
    conv = sheet.convention
    g.text(1, 1, _("Convention"), HEADER_STYLE)
    g.text(1, 2, terms.convention_name(conv.name))
    g.text(2, 1, _("Description"), HEADER_STYLE)
    if conv.description:
        from prefcalc.rules.conventions import preset_words

        g.text(2, 2, preset_words(conv.description))
    g.text(3, 1, _("Players"), HEADER_STYLE)
    g.text(3, 2, ", ".join(sheet.players))  # the seating at the end (after any join)
    g.text(4, 1, _("Target"), HEADER_STYLE)
    g.put(4, 2, sheet.target)
    g.text(5, 1, _("First dealer"), HEADER_STYLE)
    g.text(5, 2, game.first_dealer)
    g.header(7, [_("Option"), _("Value"), _("Meaning")])
    factor_row = pool_row = 0
    for i, option in enumerate(OPTIONS):
        r = 8 + i
        g.text(r, 1, option.key)
        value = _option_value(conv.value(option.key))
        if isinstance(value, str):
            g.text(r, 2, value)
        else:
            g.put(r, 2, value)
        g.text(r, 3, _(option.doc))
        if option.key == "pool_to_mountain":
            factor_row = r
        elif option.key == "pool_whists":
            pool_row = r
    ws.column_dimensions["A"].width = 26.0
    ws.column_dimensions["B"].width = 22.0
    ws.column_dimensions["C"].width = 100.0
    ws.freeze_panes = "A8"
    return f"{ref(RULES)}!$B$4", f"{ref(RULES)}!$B${factor_row}", f"{ref(RULES)}!$B${pool_row}"


# --- the workbook -------------------------------------------------------------------------------


def _build(report: Report) -> tuple[Any, Cached]:
    """The workbook and the engine's value of every formula cell in it."""
    game, sheet = report.game, report.sheet
    wb = Workbook()
    add_styles(wb)
    deals = wb.active
    deals.title = tab(DEALS)
    totals = wb.create_sheet(tab(SHEET))
    settlement = wb.create_sheet(tab(SETTLEMENT))
    rules = wb.create_sheet(tab(RULES))
    keys = _written_keys(sheet.players)
    refs = _SheetRefs(sheet.players)
    cache: Cached = {}
    target_ref, factor_ref, pool_ref = _write_rules(rules, game, sheet)
    _write_deals(deals, game, sheet, keys)
    _write_sheet(totals, report, keys, refs, target_ref, cache)
    _write_settlement(settlement, report, refs, factor_ref, cache, pool_ref)
    return wb, cache


def build_workbook(report: Report) -> Any:
    """The openpyxl ``Workbook`` of the game of ``report`` (not saved)."""
    return _build(report)[0]


# --- cached values --------------------------------------------------------------------------
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


def workbook_bytes(report: Report) -> bytes:
    """The XLSX file of the game of ``report`` (:func:`prefcalc.api.report`): formulas with
    their values cached. The report's results are written as they are: nothing is settled
    here."""
    wb, cache = _build(report)
    buffer = io.BytesIO()
    wb.save(buffer)
    return with_cached_values(buffer.getvalue(), cache)


def write_xlsx(report: Report, path: Path) -> None:
    """Write the workbook of the game of ``report`` to ``path``, replacing it whole."""
    write_atomic(Path(path), workbook_bytes(report), "the workbook")


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
