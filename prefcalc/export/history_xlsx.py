"""The club history as an XLSX workbook (``prefcalc history --xlsx FILE``).

Three sheets:

``Games``
    One row per game, oldest first: date, file, convention, deals, finished or stopped
    early, currency, then every player's result in whists (empty when he did not play).
``Standings``
    One row per player: games, whists, money per currency, wins, best and worst night,
    contracts declared and made (total and by level) with the made rate, misères, whists
    written and received, all-pass deals and tricks; and a native bar chart of the
    made-contract rates.
``Balance``
    Every player's running balance in whists after each game, and a native line chart of it.
``Ratings`` (with ``--ratings``)
    The pairwise Elo ratings, best first (docs/tournament.md §8): place, player, rating
    (shown to a whole point, kept to the hundredth), games rated, what the last game changed.

The numbers are values (the history is not a spreadsheet model): whists exact (a fraction
shows as ``73 1/3``), money in the currency's minor unit.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.chart import BarChart, Reference  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter  # type: ignore[import-untyped]

from prefcalc import terms
from prefcalc.export.xlsx_kit import (
    DATETIME_FORMAT,
    add_styles,
    balance_chart,
    cell_number,
    cell_text,
    datetime_format,
    header_row,
    money_format,
    points_cell,
    saved,
    set_widths,
    show_axes,
    text_cell,
)
from prefcalc.history.club import LEVELS, History, Night
from prefcalc.history.ratings import Rating
from prefcalc.i18n import N_, _, pgettext
from prefcalc.rules.model import name_key
from prefcalc.store.files import write_atomic

GAMES = N_("Games")
STANDINGS = N_("Standings")
BALANCE = N_("Balance")
RATINGS = N_("Ratings")


def _when(night: Night) -> datetime | str:
    try:
        moment = datetime.fromisoformat(night.date)
    except ValueError:
        return cell_text(night.date)
    return moment.replace(tzinfo=None)


def _write_games(ws: Any, h: History) -> None:
    names = [s.name for s in h.players]
    column = {s.key: 8 + k for k, s in enumerate(h.players)}
    labels = [
        _("Date"),
        _("File"),
        _("Convention"),
        _("Deals"),
        _("State"),
        _("Currency"),
        _("Players"),
        *names,
    ]
    header_row(ws, 1, labels)
    widths = [len(x) for x in labels]
    for r, night in enumerate(h.games, 2):
        when = _when(night)
        ws.cell(r, 1, when)
        if isinstance(when, datetime):
            ws.cell(r, 1).number_format = datetime_format()
        texts = {
            2: night.file,
            3: terms.convention_name(night.convention),
            5: _("finished") if night.finished else _("stopped early (provisional)"),
            6: night.currency,
            7: ", ".join(night.players),
        }
        for col, text in texts.items():
            text_cell(ws, r, col, text)
            widths[col - 1] = max(widths[col - 1], min(len(text), 60))
        ws.cell(r, 4, night.deals)
        for p in night.players:
            where = column.get(name_key(p))
            if where is not None:
                points_cell(ws, r, where, night.result[p])
    widths[0] = max(widths[0], len(DATETIME_FORMAT))
    set_widths(ws, widths)
    ws.freeze_panes = "B2"
    if h.games:
        ws.auto_filter.ref = f"A1:{get_column_letter(len(labels))}{len(h.games) + 1}"


def _write_standings(ws: Any, h: History) -> None:
    currencies = sorted({c for s in h.players for c in s.money})
    money_labels = [
        _("Money {currency}").format(currency=c) if c else _("Money (no currency)")
        for c in currencies
    ]
    labels = [
        _("Player"),
        _("Games"),
        _("Whists"),
        *money_labels,
        _("Wins"),
        _("Best night"),
        _("Best night date"),
        _("Worst night"),
        _("Worst night date"),
        _("Contracts declared"),
        _("Contracts made"),
        _("Made rate"),
        *(_("{level} made/declared").format(level=lv) for lv in LEVELS),
        _("Misères made"),
        _("Misères failed"),
        _("Whists written"),
        _("Whists received"),
        _("All-pass deals"),
        _("All-pass tricks"),
    ]
    header_row(ws, 1, labels)
    widths = [len(x) for x in labels]
    rate_col = labels.index(_("Made rate")) + 1
    for r, s in enumerate(h.players, 2):
        text_cell(ws, r, 1, s.name)
        widths[0] = max(widths[0], min(len(s.name), 60))
        ws.cell(r, 2, s.games)
        points_cell(ws, r, 3, s.whists)
        for k, c in enumerate(currencies):
            if c in s.money:
                cell = ws.cell(r, 4 + k, cell_number(s.money[c]))
                cell.number_format = money_format(c)
        col = 4 + len(currencies)
        ws.cell(r, col, s.wins)
        for value, night in (s.best, s.worst) if s.best and s.worst else ():
            points_cell(ws, r, col + 1, value)
            text_cell(ws, r, col + 2, night.date[:10])
            col += 2
        col = 4 + len(currencies) + 5
        ws.cell(r, col, s.contracts_declared)
        ws.cell(r, col + 1, s.contracts_made)
        if s.contracts_declared:
            cell = ws.cell(r, rate_col, s.contracts_made / s.contracts_declared)
            cell.number_format = "0%"
        for k, lv in enumerate(LEVELS):
            text_cell(ws, r, rate_col + 1 + k, f"{s.made.get(lv, 0)}/{s.declared.get(lv, 0)}")
        col = rate_col + 1 + len(LEVELS)
        ws.cell(r, col, s.misere_made)
        ws.cell(r, col + 1, s.misere_failed)
        points_cell(ws, r, col + 2, s.written)
        points_cell(ws, r, col + 3, s.received)
        ws.cell(r, col + 4, s.passes)
        ws.cell(r, col + 5, s.passes_tricks)
    set_widths(ws, widths)
    ws.freeze_panes = "B2"
    if h.players:
        chart = BarChart()
        chart.type = "bar"
        chart.title = _("Contracts made, of those declared")
        chart.y_axis.title = _("made rate")
        chart.y_axis.number_format = "0%"
        chart.y_axis.scaling.min = 0
        chart.y_axis.scaling.max = 1
        chart.legend = None
        chart.x_axis.scaling.orientation = "maxMin"  # the first player at the top
        data = Reference(ws, min_col=rate_col, min_row=1, max_row=len(h.players) + 1)
        chart.add_data(data, titles_from_data=True)
        chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=len(h.players) + 1))
        show_axes(chart)
        chart.height = max(7.5, 1.0 + 0.8 * len(h.players))
        chart.width = 18
        ws.add_chart(chart, f"B{len(h.players) + 4}")


def _write_balance(ws: Any, h: History) -> None:
    labels = ["#", _("Date"), *(s.name for s in h.players)]
    header_row(ws, 1, labels)
    running = h.running()
    for r, (night, totals) in enumerate(zip(h.games, running, strict=True), 2):
        ws.cell(r, 1, r - 1)
        text_cell(ws, r, 2, night.date[:10] or _("no date"))
        here = {name_key(p) for p in night.players}
        for k, s in enumerate(h.players):
            if s.key in here:  # an evening he missed stays empty: a gap, not a line
                points_cell(ws, r, 3 + k, totals[s.name])
    set_widths(ws, [4, 10, *(max(len(s.name), 8) for s in h.players)])
    ws.freeze_panes = "C2"
    if h.games and h.players:
        chart = balance_chart(
            ws,
            2,
            1,
            len(h.games) + 1,
            len(h.players),
            _("Running balance over the season"),
            pgettext("chart", "game"),
            markers=True,
        )
        ws.add_chart(chart, f"{get_column_letter(len(labels) + 2)}2")


def _write_ratings(ws: Any, ratings: list[Rating]) -> None:
    """``history --ratings --xlsx``: the ratings, best first, as numbers (a rating shown
    rounded to a whole point, as the text does; the value keeps two decimals)."""
    labels = [_("Place"), _("Player"), _("Rating"), _("Games rated"), _("Last game")]
    header_row(ws, 1, labels)
    widths = [len(x) for x in labels]
    for r, rating in enumerate(ratings, 2):
        ws.cell(r, 1, r - 1)
        text_cell(ws, r, 2, rating.name)
        widths[1] = max(widths[1], min(len(rating.name), 40))
        ws.cell(r, 3, round(rating.rating, 2)).number_format = "0"
        ws.cell(r, 4, rating.games)
        ws.cell(r, 5, round(rating.change, 2)).number_format = "+0.0;-0.0;0.0"
    set_widths(ws, widths)
    ws.freeze_panes = "A2"


def build_history_workbook(h: History) -> Any:
    wb = Workbook()
    add_styles(wb)
    games = wb.active
    games.title = _(GAMES)
    _write_games(games, h)
    _write_standings(wb.create_sheet(_(STANDINGS)), h)
    _write_balance(wb.create_sheet(_(BALANCE)), h)
    if h.ratings is not None:
        _write_ratings(wb.create_sheet(_(RATINGS)), h.ratings)
    return wb


def history_workbook_bytes(h: History) -> bytes:
    return saved(build_history_workbook(h))


def write_history_xlsx(h: History, path: Path) -> None:
    """Write the history workbook to ``path``, replacing it whole."""
    write_atomic(Path(path), history_workbook_bytes(h), "the workbook")
