"""The XLSX workbook: the record, the sheet, the settlement and the rules, with live formulas.

Four sheets, in this order:

``Deals``
    One row per entry of the record (deals and adjustments): number, time, dealer, kind,
    declarer, contract, tricks, both defenders' roles and tricks, the all-pass streak and
    price, the deal in words, the scorer's warning if any, then what every player got
    written in this entry, net per column (``Anna pool``, ``Anna mountain``,
    ``Anna on Boris``...). Frozen header, filters, widths fitted to the content.
``Sheet``
    Each player's totals (pool, mountain, whists on every opponent) as ``SUM`` formulas over
    the Deals columns and, while the game goes on, what is left to play (each pool's points
    to close under ``closing = each``, what the pools together still need under ``closing =
    total``); below them the running totals after every deal (formulas too), so a number
    corrected in Deals flows through.
``Settlement``
    docs/rules.md §5 step by step for both methods in exact arithmetic, as formulas over
    the Sheet totals: unclosed pools into the mountain (``pool_to_mountain`` from Rules),
    the amnesty, method 1's ``10 × m / N`` entries, held whists and pairwise balances,
    method 2's average mountain, mountain results and game whists, the results in whists
    and money (whists × the whist price). prefcalc's money rounded to the currency's unit,
    its payments and its whole-whist results are shown beside as values.
``Rules``
    The game's terms, the convention's name and every option: its value in the reader's words
    with what a user types for it (``gentleman's (gentleman)``; numbers stay numbers), and
    its meaning.

Its cells, styles, widths and chart are the workbook toolkit's (:mod:`prefcalc.export.xlsx_kit`).
openpyxl is imported by the export modules only: the CLI imports them lazily, when exporting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter  # type: ignore[import-untyped]

from prefcalc import terms
from prefcalc.export.xlsx_kit import (
    DATETIME_FORMAT,
    HEADER_STYLE,
    TITLE_STYLE,
    WHOLE_FORMAT,
    Cached,
    Grid,
    add_styles,
    as_text,
    balance_chart,
    cell_number,
    cell_text,
    column_width,
    datetime_format,
    formula_cell,
    header_row,
    money_format,
    points_format,
    risky,
    saved,
    set_widths,
    text_cell,
    with_cached_values,
)
from prefcalc.i18n import N_, _, pgettext
from prefcalc.report import Report
from prefcalc.rules.amounts import Amount
from prefcalc.rules.conventions import OPTIONS
from prefcalc.rules.model import Contract, Entry, Game, Join, Misere
from prefcalc.rules.scoring import MOUNTAIN, POOL, WHISTS, Column, Sheet
from prefcalc.rules.settlement import Settlement, minor_unit
from prefcalc.store.files import write_atomic
from prefcalc.views.convention import value_text
from prefcalc.views.log import deal_words

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


Key = tuple[str, Column, str | None]  # (player, column, on): one written column


# --- small helpers ------------------------------------------------------------------------------


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
    as_text(ws, 1, range(1, len(headers) + 1))
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
        unsafe = False
        for col in text_columns:
            value = row.get(col)
            if value is not None:
                if isinstance(value, datetime):
                    length = len(DATETIME_FORMAT)
                else:
                    length = len(value)
                    unsafe = unsafe or risky(value)
                if length > widths[col - 1]:
                    widths[col - 1] = length
        if unsafe:
            as_text(ws, r, text_columns)
    set_widths(ws, widths)
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
        formula_cell(ws, cache, r, c, f"=SUM({ref(DEALS)}!${col}${first}:${col}${last})", value)

    # what is left to play: each pool's distance to the target (closing = each), or what the
    # pools together still need (closing = total); nothing once the game is over
    going = not sheet.finished
    each = going and sheet.convention.closing == "each"
    header_row(
        ws,
        1,
        [
            _("Player"),
            _("Pool"),
            _("Mountain"),
            *(pgettext("sheet", "on {player}").format(player=p) for p in players),
            *([_("To close")] if each else []),
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
        if each:
            to_close = max(0, sheet.target - sheet.pool[p])
            formula_cell(ws, cache, r, 4 + n, f"=MAX(0,{target_ref}-B{r})", to_close)
    if going and sheet.convention.closing == "total":
        r = 2 + n
        left = max(0, sheet.target * n - sum(sheet.pool.values()))
        text_cell(ws, r, 1, _("Points left to the end of the game"))
        formula_cell(ws, cache, r, 2, f"=MAX(0,{target_ref}*{n}-SUM(B2:B{1 + n}))", left)
    columns = 4 + n if each else 3 + n
    as_text(ws, 1, range(1, columns + 1))
    for p in players:
        as_text(ws, refs.row[p], (1,))
    ws.column_dimensions["A"].width = column_width(max(len("Player"), *(len(p) for p in players)))
    for c in range(2, columns + 1):
        ws.column_dimensions[get_column_letter(c)].width = column_width(12)

    # Running totals after every deal: the previous row plus this deal's row of Deals.
    title_row = n + 3
    ws.cell(title_row, 1, _("Running totals after each deal")).style = TITLE_STYLE
    head = title_row + 1
    header_row(ws, head, ["#", *(_written_header(key) for key in keys)])
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
            formula_cell(ws, cache, r, c, formula, running[key])
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
    title.style = TITLE_STYLE
    header_row(ws, head, ["#", *players], first)
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


def _write_payments(g: Grid, row: int, title: str, s: Settlement, fmt: str) -> int:
    g.text(row, 1, title, TITLE_STYLE)
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


# The cells of the terms block that every later formula names.
_PRICE, _N, _FACTOR, _RATE = "$B$4", "$B$5", "$B$6", "$B$7"


@dataclass
class _Settling:
    """The Settlement tab being written: what its blocks share."""

    g: Grid
    report: Report
    refs: _SheetRefs
    fmt: str  # money, in the game's currency
    pools: bool  # closing = average: the pools are worth whists against the average pool
    m_row: dict[str, int] = field(default_factory=dict)  # each player's row of step 1
    prize_ref: dict[tuple[str, str], str] = field(default_factory=dict)  # (writer, on) -> cell
    prize_won: dict[tuple[str, str], Amount] = field(default_factory=dict)

    @property
    def players(self) -> tuple[str, ...]:
        return self.report.sheet.players

    @property
    def pairwise(self) -> Settlement:
        return self.report.pairwise


def _write_settlement(
    ws: Any,
    report: Report,
    refs: _SheetRefs,
    factor_ref: str,
    cache: Cached,
    pool_ref: str = "",
) -> None:
    """The Settlement tab: the terms, then docs/rules.md §5 step by step as formulas over
    the Sheet totals (the pools and the amnesty, the prizes, method 1, method 2), then
    prefcalc's whole-whist figures as values."""
    # closing = average (docs/rules.md §5.9): no pool goes into a mountain, every pool is
    # worth the whists per pool point against the average pool instead
    t = _Settling(
        Grid(ws, cache),
        report,
        refs,
        money_format(report.currency),
        pools=report.pairwise.pool_average is not None,
    )
    _settlement_terms(t, factor_ref, pool_ref)
    row = _pools_and_amnesty(t)
    if t.pairwise.prizes:  # docs/rules.md §8.6: game whists of both methods, as values
        row = _write_prizes(t.g, row, t.pairwise, t.prize_ref, t.prize_won)
    row = _method_one(t, row)
    row = _method_two(t, row + 1)
    _rounded(t, row + 1)
    ws.column_dimensions["A"].width = 34.0
    for c in range(2, 8):
        ws.column_dimensions[get_column_letter(c)].width = 16.0


def _settlement_terms(t: _Settling, factor_ref: str, pool_ref: str) -> None:
    """The title and the terms every formula reads: the whist price, N, the pool factor
    (``pool_to_mountain`` from Rules) and under ``closing = average`` the whists per pool
    point (``pool_whists``)."""
    g, s1 = t.g, t.pairwise
    price, currency = t.report.price, t.report.currency  # the price in force
    g.text(1, 1, _("Settlement (docs/rules.md §5), exact arithmetic"), TITLE_STYLE)
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
    g.put(5, 2, len(t.players))
    g.text(6, 1, _("Pool to mountain factor"))
    if t.pools:
        g.put(6, 2, 0)
        g.text(6, 3, _("closing = average: the pools go into no mountain"))
        g.text(7, 1, _("Whists per pool point"))
        g.formula(7, 2, f"={pool_ref}", s1.pool_rate)
    else:
        g.formula(6, 2, f"={factor_ref}", s1.pool_factor)


def _pools_and_amnesty(t: _Settling) -> int:
    """Step 1: the unclosed pools into the mountain (or, under ``closing = average``, the
    pools against the average pool), then the amnesty. Returns the next free row."""
    g, s1, players, pools = t.g, t.pairwise, t.players, t.pools
    g.text(
        8,
        1,
        _("1. Pools against the average, the mountains, then the amnesty")
        if pools
        else _("1. Unclosed pools into the mountain, then the amnesty"),
        TITLE_STYLE,
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
    top, bottom = 10, 9 + len(players)
    largest, amnesty = bottom + 1, bottom + 2
    pool_average = amnesty + 1
    t.m_row.update((p, top + i) for i, p in enumerate(players))
    for p, r in t.m_row.items():
        g.text(r, 1, p)
        g.formula(r, 2, f"={t.refs.pool(p)}", s1.pools[p])
        g.formula(r, 3, f"={t.refs.mountain(p)}", t.report.sheet.mountain[p])
        added = s1.pool_factor * (s1.pool_max - s1.pools[p])
        g.formula(r, 4, f"={_FACTOR}*($B${largest}-B{r})", added)
        g.formula(r, 5, f"=C{r}+D{r}", s1.mountains[p])
        g.formula(r, 6, f"=E{r}-$B${amnesty}", s1.amnestied[p])
        if pools:
            g.formula(r, 7, f"={_RATE}*(B{r}-$B${pool_average})", s1.pool_results[p])
    g.text(largest, 1, _("Largest pool"))
    g.formula(largest, 2, f"=MAX(B{top}:B{bottom})", s1.pool_max)
    g.text(amnesty, 1, _("Amnesty: the smallest mountain"))
    g.formula(amnesty, 2, f"=MIN(E{top}:E{bottom})", s1.amnesty)
    if pools:
        g.text(pool_average, 1, _("Average pool"))
        g.formula(pool_average, 2, f"=SUM(B{top}:B{bottom})/{_N}", s1.pool_average or 0)
    return amnesty + (3 if pools else 2)


def _method_one(t: _Settling, row: int) -> int:
    """Step 2, the pairwise method: each player's mountain entries (and pool entries), the
    whists each holds on each opponent, the pairwise balances, the result and prefcalc's
    payments. Returns the row after the payments."""
    g, s1, players, pools = t.g, t.pairwise, t.players, t.pools
    n = len(players)
    g.text(row, 1, _("2. Method 1 (pairwise)"), TITLE_STYLE)
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
        g.formula(r, 2, f"=10*F{t.m_row[p]}/{_N}", s1.mountain_entries[p])
        if pools:
            g.formula(r, 3, f"={_RATE}*B{t.m_row[p]}/{_N}", s1.pool_entries[p])
    row += 3 + n
    held_row = _held_whists(t, row, entry_row)
    row += 3 + n
    g.text(row, 1, _("Pairwise balance: what the row player gains from the column player"))
    g.header(row + 1, [_("Player"), *(_("from {player}").format(player=p) for p in players)])
    balance_row = {p: row + 2 + i for i, p in enumerate(players)}
    col_of = {p: get_column_letter(2 + i) for i, p in enumerate(players)}
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
    last_col = get_column_letter(1 + n)
    row = _write_result(
        g,
        row,
        _("Result, method 1"),
        [],
        {p: [f"=SUM(B{balance_row[p]}:{last_col}{balance_row[p]})"] for p in players},
        {p: [s1.whists[p]] for p in players},
        s1,
        _PRICE,
        t.fmt,
    )
    return _write_payments(g, row + 1, _("Payments, method 1 (prefcalc)"), s1, t.fmt)


def _held_whists(t: _Settling, row: int, entry_row: dict[str, int]) -> dict[str, int]:
    """Method 1's table of the whists each player holds on each opponent (game whists,
    mountain whists, pool whists and prize whists); returns each player's row of it."""
    g, s1, players = t.g, t.pairwise, t.players
    g.text(row, 1, _("Whists each player holds on each opponent: game whists + mountain whists"))
    g.header(
        row + 1,
        [_("Player"), *(pgettext("sheet", "on {player}").format(player=p) for p in players)],
    )
    held_row = {p: row + 2 + i for i, p in enumerate(players)}
    for a, r in held_row.items():
        g.text(r, 1, a)
        for b in players:
            if b != a:
                held = (
                    t.report.sheet.whists[a][b]
                    + s1.mountain_entries[b]
                    + t.prize_won.get((a, b), 0)
                )
                formula = f"={t.refs.whists(a, b)}+$B${entry_row[b]}"
                if t.pools:
                    held += s1.pool_entries[a]
                    formula += f"+$C${entry_row[a]}"
                if t.prize_ref:
                    formula += f"+{t.prize_ref[(a, b)]}"
                g.formula(r, 2 + players.index(b), formula, held)
    return held_row


def _method_two(t: _Settling, row: int) -> int:
    """Step 3, the average mountain: the average, each player's mountain result and game
    whists (and pool whists), the result and prefcalc's payments. Returns the row after the
    payments."""
    g, players, pools = t.g, t.players, t.pools
    s2 = t.report.average
    g.text(row, 1, _("3. Method 2 (average mountain)"), TITLE_STYLE)
    average = row + 1
    g.text(average, 1, _("Average mountain"))
    top, bottom = min(t.m_row.values()), max(t.m_row.values())
    g.formula(average, 2, f"=SUM(F{top}:F{bottom})/{_N}", s2.average)
    row = average + 2
    prizes = t.prize_ref
    columns = {
        p: [
            f"=10*($B${average}-F{t.m_row[p]})",
            f"=SUM({t.refs.written_by(p)})-SUM({t.refs.written_on(p)})"
            + (_prize_net(players, p, prizes) if prizes else ""),
            *([f"=G{t.m_row[p]}"] if pools else []),
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
        s2,
        _PRICE,
        t.fmt,
        add=True,
    )
    return _write_payments(g, row + 1, _("Payments, method 2 (prefcalc)"), s2, t.fmt)


def _rounded(t: _Settling, row: int) -> None:
    """Step 4: prefcalc's whole-whist results and money by both methods, as values."""
    g, report = t.g, t.report
    g.text(
        row, 1, _("4. Rounded to whole whists (prefcalc's figures at export, values)"), TITLE_STYLE
    )
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
    for i, p in enumerate(t.players):
        r = row + 2 + i
        g.text(r, 1, p)
        g.points(r, 2, report.pairwise_whole.whists[p])
        g.money(r, 3, cell_number(report.pairwise_whole.money[p]), t.fmt)
        g.points(r, 4, report.average_whole.whists[p])
        g.money(r, 5, cell_number(report.average_whole.money[p]), t.fmt)


def _write_prizes(
    g: Grid,
    row: int,
    s: Settlement,
    refs: dict[tuple[str, str], str],
    won: dict[tuple[str, str], Amount],
) -> int:
    """The prizes (docs/rules.md §8.6) as Settlement rows: one line per prize write, then the
    whists each player writes on each opponent for them (counted as game whists by both
    methods). Fills ``refs`` with the cell of every pair; returns the next free row."""
    players = s.players
    g.text(row, 1, _("Prizes (game whists of both methods, docs/rules.md §8.6)"), TITLE_STYLE)
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
    g: Grid,
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
    g.text(row, 1, title, TITLE_STYLE)
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


def _option_value(key: str, value: Any) -> int | float | str:
    """An option's value as the Rules sheet holds it: a number as a number (the Settlement's
    formulas read ``pool_to_mountain`` and ``pool_whists``), anything else in the reader's
    words with what a user types for it (:func:`prefcalc.views.convention.value_text`)."""
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        return cell_number(value)
    return value_text(key, value)


def _write_rules(ws: Any, game: Game, sheet: Sheet) -> tuple[str, str, str]:
    """Write the Rules sheet; return the references of the target, of pool_to_mountain and
    of pool_whists."""
    g = Grid(ws)
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
        value = _option_value(option.key, conv.value(option.key))
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
    ws.column_dimensions["B"].width = 36.0
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


def workbook_bytes(report: Report) -> bytes:
    """The XLSX file of the game of ``report`` (:func:`prefcalc.api.report`): formulas with
    their values cached. The report's results are written as they are: nothing is settled
    here."""
    wb, cache = _build(report)
    return with_cached_values(saved(wb), cache)


def write_xlsx(report: Report, path: Path) -> None:
    """Write the workbook of the game of ``report`` to ``path``, replacing it whole."""
    write_atomic(Path(path), workbook_bytes(report), "the workbook")
