"""The tournament as a workbook (``tournament export --xlsx``).

Sheets: *Standings* (as ``tournament standings`` shows them, numbers as numbers: a fraction
shows as ``56 1/2``), *Rounds* (a row per player per round: the table, the seat, the deals he
played, his result, points and place at the table), *Met* (who met whom: how many times two
players shared a table), *Penalties* (the penalty log) and *Protocols* (every table's deals:
dealer, declarer, contract and result, whists, in the order played).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openpyxl import Workbook  # type: ignore[import-untyped]
from openpyxl.utils import get_column_letter  # type: ignore[import-untyped]

from prefcalc.export.xlsx_kit import (
    add_styles,
    column_width,
    header_row,
    points_cell,
    saved,
    set_widths,
    text_cell,
    widths_of,
)
from prefcalc.i18n import N_, _
from prefcalc.rules.model import name_key
from prefcalc.store.files import write_atomic
from prefcalc.tournament import text
from prefcalc.tournament.draw import meetings
from prefcalc.tournament.protocol import penalty_log
from prefcalc.tournament.standings import Standings

STANDINGS = N_("Standings")
ROUNDS = N_("Rounds")
MET = N_("Met")
PENALTIES = N_("Penalties")
PROTOCOLS = N_("Protocols")


def _header(ws: Any, labels: list[str]) -> None:
    header_row(ws, 1, labels)
    ws.freeze_panes = "A2"


def _standings(ws: Any, s: Standings) -> None:
    rows = text.standings_rows(s)
    _header(ws, rows[0])
    clubs = any(r.club for r in s.rows)
    for r, row in enumerate(s.rows, 2):
        ws.cell(r, 1, row.place)
        text_cell(ws, r, 2, row.name)
        col = 3
        if clubs:
            text_cell(ws, r, col, row.club or "")
            col += 1
        for seat in row.rounds:
            points_cell(ws, r, col, seat.points)
            col += 1
        points_cell(ws, r, col, row.points)
        points_cell(ws, r, col + 1, row.whists)
        ws.cell(r, col + 2, row.remises)
        ws.cell(r, col + 3, row.pass_tricks)
        ws.cell(r, col + 4, row.misere_tricks)
    set_widths(ws, widths_of(rows))


def _rounds(ws: Any, s: Standings) -> None:
    labels = [
        _("Round"),
        _("Table"),
        _("Seat"),
        _("Player"),
        _("First dealer"),
        _("State"),
        _("Deals played"),
        _("Result (whists)"),
        _("Points"),
        _("Place at the table"),
        _("File"),
    ]
    _header(ws, labels)
    rows = [labels]
    r = 2
    for tables in s.rounds:
        for tb in tables:
            for k, p in enumerate(tb.players, 1):
                seat = tb.seats[p]
                values = [
                    str(tb.round),
                    str(tb.number),
                    str(k),
                    p,
                    tb.record.dealer,
                    text.table_state(tb),
                    str(seat.deals),
                    "",
                    "",
                    text.place_text(seat.place),
                    tb.record.file,
                ]
                ws.cell(r, 1, tb.round)
                ws.cell(r, 2, tb.number)
                ws.cell(r, 3, k)
                text_cell(ws, r, 4, p)
                text_cell(ws, r, 5, tb.record.dealer)
                text_cell(ws, r, 6, values[5])
                ws.cell(r, 7, seat.deals)
                points_cell(ws, r, 8, seat.result)
                points_cell(ws, r, 9, seat.points)
                text_cell(ws, r, 10, values[9])
                text_cell(ws, r, 11, tb.record.file)
                rows.append(values)
                r += 1
    set_widths(ws, widths_of(rows))


def _met(ws: Any, s: Standings) -> None:
    names = [row.name for row in s.rows]
    count = meetings([[tb.players for tb in tables] for tables in s.rounds])
    _header(ws, [_("Player"), *names])
    for r, a in enumerate(names, 2):
        text_cell(ws, r, 1, a)
        for c, b in enumerate(names, 2):
            if a != b:
                times = count.get(frozenset((name_key(a), name_key(b))), 0)
                if times:
                    ws.cell(r, c, times)
    ws.freeze_panes = "B2"
    ws.column_dimensions["A"].width = column_width(max((len(n) for n in names), default=8))
    for c, name in enumerate(names, 2):
        ws.column_dimensions[get_column_letter(c)].width = column_width(min(len(name), 12))


def _penalties(ws: Any, s: Standings) -> None:
    rows = text.penalty_rows(penalty_log(s.rounds))
    _header(ws, rows[0])
    for r, row in enumerate(rows[1:], 2):
        for c in (1, 2, 3):
            ws.cell(r, c, int(row[c - 1]))
        for c in (4, 5, 6):
            text_cell(ws, r, c, row[c - 1])
    set_widths(ws, widths_of(rows))


def _protocols(ws: Any, s: Standings) -> None:
    from prefcalc.tournament.protocol import protocol

    labels = [
        _("Round"),
        _("Table"),
        _("Deal"),
        _("Dealer"),
        _("Declarer"),
        _("Contract / result"),
        _("Whists"),
        _("Talon"),
        _("Written"),
    ]
    _header(ws, labels)
    rows = [labels]
    r = 2
    for tables in s.rounds:
        for tb in tables:
            made = protocol(s.tournament, tb)
            for line in text.deal_rows(made)[1:]:
                ws.cell(r, 1, tb.round)
                ws.cell(r, 2, tb.number)
                if line[0].isdigit():
                    ws.cell(r, 3, int(line[0]))
                else:
                    text_cell(ws, r, 3, line[0])  # a penalty's own number (P1): not a deal
                for c, value in enumerate(line[1:], 4):
                    text_cell(ws, r, c, value)
                rows.append([str(tb.round), str(tb.number), *line])
                r += 1
    set_widths(ws, widths_of(rows))


def build_workbook(s: Standings) -> Any:
    wb = Workbook()
    add_styles(wb)
    first = wb.active
    first.title = _(STANDINGS)[:31]
    _standings(first, s)
    _rounds(wb.create_sheet(_(ROUNDS)[:31]), s)
    _met(wb.create_sheet(_(MET)[:31]), s)
    _penalties(wb.create_sheet(_(PENALTIES)[:31]), s)
    _protocols(wb.create_sheet(_(PROTOCOLS)[:31]), s)
    return wb


def workbook_bytes(s: Standings) -> bytes:
    return saved(build_workbook(s))


def write_event_xlsx(s: Standings, path: Path) -> None:
    write_atomic(Path(path), workbook_bytes(s), "the workbook")
