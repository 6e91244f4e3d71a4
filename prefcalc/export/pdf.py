"""The printable PDF: the pool sheet drawn the way players draw it, the settlement, the deal log.

Page 1 is the pool sheet as players draw it on paper: three nested rectangles around a small circle holding
the target, cut by lines from the circle into one sector per player (clockwise from the top,
in seating order). From the outside in, a sector holds the whists (one column per opponent,
each column on the side of the sheet where that opponent sits), the pool and the mountain,
each filled with the running totals as a scorer writes them (``2.6.10.14``); the value that
closes the pool is followed by a stroke. Under ``closing = total`` the circle shows what the
pools must reach together (``60`` over ``15 × 4``) and the stroke follows the pool value that
brought them there: no player closes alone. Long sequences wrap, shrink, then keep their
latest values behind a leading ``…``: nothing leaves its band. The ``on X`` labels over the
whist columns are at least 7 pt, and control characters are drawn escaped (``\\x07``).

The next pages hold the settlement by both methods with their steps and the payments, then
the deal log. The layout (paper sizes, margins, band depths, font sizes) is the editable
template ``templates/sheet-layout.toml``; it and the sheet's geometry are
:mod:`prefcalc.views.sheet_layout`'s, shared with the phone's page (which draws no PDF).

The pages are collected and drawn by the PDF toolkit (:mod:`prefcalc.export.pdf_kit`): one
text object per page, in the bundled DejaVu Sans, or in a system font for the characters it
lacks (:mod:`prefcalc.export.fonts`); what no font can draw becomes ``?`` and a warning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prefcalc import __version__, terms
from prefcalc.errors import PrefcalcError
from prefcalc.export.pdf_kit import Flow, Page, Writer, flow_tokens, new_writer, rule
from prefcalc.i18n import _, pgettext
from prefcalc.report import Report
from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.model import Adjustment, Join
from prefcalc.rules.scoring import POOL, WHISTS, Sheet
from prefcalc.store.files import write_atomic
from prefcalc.views.log import deal_text
from prefcalc.views.numbers import day
from prefcalc.views.numbers import number as number_text
from prefcalc.views.settlement import settlement_steps
from prefcalc.views.sheet_layout import (
    Box,
    Layout,
    Sector,
    SheetShape,
    Token,
    running_entries,
    sheet_shape,
)
from prefcalc.views.text_kit import local_time, money_text, signed

# --- page 1: the sheet ----------------------------------------------------------------------


def _title_lines(
    writer: Writer, page: Page, text: str, lay: Layout, one_line: bool = False
) -> float:
    """Draw the title (two lines at most, or one) at the top; return the y the sheet may reach."""
    width = lay.width - 2 * lay.margin
    size = lay.title_size
    most = 1 if one_line else 2
    lines = writer.metrics.wrap(text, size, width)
    while len(lines) > most and size > 6:
        size -= 0.5
        lines = writer.metrics.wrap(text, size, width)
    if len(lines) > most:
        lines = [*lines[: most - 1], writer.metrics.fit(" ".join(lines[most - 1 :]), size, width)]
    y = lay.height - lay.margin - size
    for line in lines:
        page.items.append((lay.margin, y, line, False, size, 0.0))
        y -= size * 1.3
    return y + size * 0.3 - 6


def _draw_frame(shape: SheetShape) -> Callable[[Any], None]:
    def draw(canvas: Any) -> None:
        canvas.setStrokeGray(0.0)
        for k, box in enumerate(shape.frame):
            canvas.setLineWidth(1.5 if k == 0 else 1.2)
            canvas.rect(box.x0, box.y0, box.w, box.h, stroke=1, fill=0)
        canvas.setLineWidth(1.1)
        for x0, y0, x1, y1 in shape.spokes:
            canvas.line(x0, y0, x1, y1)
        cx, cy = shape.centre
        canvas.setFillGray(1.0)
        canvas.circle(cx, cy, shape.radius, stroke=1, fill=1)
        canvas.setFillGray(0.0)
        canvas.setLineWidth(0.6)
        canvas.setStrokeGray(0.35)
        for sector in shape.sectors:
            for x0, y0, x1, y1 in sector.separators:
                canvas.line(x0, y0, x1, y1)
        canvas.setStrokeGray(0.0)

    return draw


def _put_target(writer: Writer, page: Page, shape: SheetShape, target: str, note: str = "") -> None:
    """The target in the circle, centred; a note (``15 × 4``) in a smaller line under it."""
    lay = writer.lay
    metrics = writer.metrics
    cx, cy = shape.centre
    r = shape.radius
    size = lay.target_size
    room = r * (1.45 if note else 1.7)
    while size > 4 and metrics.width(target, size, True) > room:
        size -= 0.5
    w = metrics.width(target, size, True)
    if not note:
        page.items.append((cx - w / 2, cy - size * 0.36, target, True, size, 0.0))
        return
    # the number above the centre, the note below it: both inside the circle
    small = max(lay.label_size, 4.0)
    while small > 4 and metrics.width(note, small) > r * 1.5:
        small -= 0.5
    baseline = cy + r * 0.06
    page.items.append((cx - w / 2, baseline, target, True, size, 0.0))
    shown = metrics.fit(note, small, r * 1.5)
    nw = metrics.width(shown, small)
    page.items.append((cx - nw / 2, baseline - small * 1.25, shown, False, small, 0.0))


def _put_name(writer: Writer, page: Page, sector: Sector, name: str, lay: Layout) -> None:
    box = sector.name
    metrics = writer.metrics
    length = box.w if sector.name_angle == 0 else box.h
    depth = box.h if sector.name_angle == 0 else box.w
    if not name:
        # a blank sheet: a faint line to write the name on
        if sector.name_angle == 0:
            mid = (box.x0 + box.x1) / 2
            y = box.y0 + depth * 0.2
            page.art.append(rule(mid - length * 0.2, y, mid + length * 0.2, y, 0.7))
        else:
            mid = (box.y0 + box.y1) / 2
            x = box.x1 - depth * 0.2 if sector.name_angle == 90 else box.x0 + depth * 0.2
            page.art.append(rule(x, mid - length * 0.2, x, mid + length * 0.2, 0.7))
        return
    size = min(lay.name_size, depth / 1.25)
    while size > 5 and metrics.width(name, size, True) > length:
        size -= 0.5
    shown = metrics.fit(name, size, length, True)
    w = metrics.width(shown, size, True)
    if sector.name_angle == 0:
        x = box.x0 + (box.w - w) / 2
        y = box.y0 + (box.h - size) / 2 + size * 0.2
        page.items.append((x, y, shown, True, size, 0.0))
    elif sector.name_angle == 90:  # reads upwards along the left edge
        x = box.x0 + (box.w + size) / 2 - size * 0.2
        y = box.y0 + (box.h - w) / 2
        page.turned.append((x, y, 90, shown, True, size))
    else:  # reads downwards along the right edge
        x = box.x1 - (box.w + size) / 2 + size * 0.2
        y = box.y1 - (box.h - w) / 2
        page.turned.append((x, y, -90, shown, True, size))


def _result_lines(
    writer: Writer, page: Page, result: Sequence[tuple[str, str]], bottom: float
) -> float:
    """Write the ``(label, text)`` lines from ``bottom`` up (the label bold, the text
    wrapped beside it); return the y above them."""
    lay = writer.lay
    metrics = writer.metrics
    size = lay.size + 1
    lead = size * lay.leading
    label_w = max(metrics.width(label, size, True) for label, _ in result) + 6
    room = lay.width - 2 * lay.margin - label_w
    rows: list[tuple[str, str]] = []
    for label, text in result:
        for k, part in enumerate(metrics.wrap(text, size, room)):
            rows.append((label if k == 0 else "", part))
    y = bottom + size * 0.3 + lead * (len(rows) - 1)
    top = y + size
    for label, text in rows:
        if label:
            page.items.append((lay.margin, y, label, True, size, 0.0))
        page.items.append((lay.margin + label_w, y, text, False, size, 0.0))
        y -= lead
    return top


def result_lines(report: Report) -> list[tuple[str, str]]:
    """The settlement under the sheet, as people read it at the table: every player's result
    in whists and money from the best down, then who pays whom (pairwise, exact)."""
    s = report.pairwise
    order = sorted(s.players, key=lambda p: (-s.whists[p], s.players.index(p)))
    standing = "   ".join(
        f"{rank}. {p} {signed(s.whists[p])} ({money_text(s.money[p], s.currency)})"
        for rank, p in enumerate(order, 1)
    )
    pays = "   ".join(
        _("{payer} pays {payee} {amount}").format(
            payer=x.payer, payee=x.payee, amount=money_text(x.amount, s.currency)
        )
        for x in s.payments
    )
    label = _("Result:") if report.finished else _("Result if the game ended now:")
    return [(label, standing), (_("Who pays whom:"), pays or _("nobody owes anything"))]


def draw_sheet(
    writer: Writer,
    names: Sequence[str],
    title: str,
    target: str,
    entries: dict[tuple[str, str, str | None], list[Token]] | None,
    target_note: str = "",
    one_line: bool = False,
    result: Sequence[tuple[str, str]] = (),
    footer: bool = True,
) -> SheetShape:
    """Page 1: the title, the drawing, the names and (unless blank) the running entries.

    ``target`` is what the game runs to, written in the circle; ``target_note`` a smaller
    line under it (``15 × 4`` when the pools together must reach 60). ``one_line`` keeps
    the title on one line, smaller if need be. ``result`` are ``(label, text)`` lines
    written under the sheet (the settlement); ``footer=False`` leaves no room for a footer.
    """
    lay = writer.lay
    page = writer.page()
    top = _title_lines(writer, page, title, lay, one_line)
    bottom = lay.margin + (lay.footer_size * 1.6 if footer else 0.0)
    if result:
        bottom = _result_lines(writer, page, result, bottom) + 4
    area = Box(lay.margin, bottom, lay.width - lay.margin, top)
    shape = sheet_shape(len(names), area, lay)
    page.art.append(_draw_frame(shape))
    metrics = writer.metrics
    # the target in the circle
    if target:
        _put_target(writer, page, shape, target, target_note)
    # every band's entries in one size on the whole sheet: the smallest any sector needs
    bands: dict[str, list[tuple[list[Token], Box]]] = {WHISTS: [], POOL: [], "mountain": []}
    for sector in shape.sectors:
        name = names[sector.seat]
        _put_name(writer, page, sector, name, lay)
        for opp, box in sector.columns:
            label = names[opp]
            if label:
                on = pgettext("sheet", "on {player}").format(player=label)
                shown = metrics.fit(on, lay.label_size, box.w)
                y = box.y1 - lay.label_size
                page.items.append((box.x0, y, shown, False, lay.label_size, 0.4))
            if entries is not None:
                values = Box(box.x0, box.y0, box.x1, box.y1 - lay.label_size * 1.4)
                bands[WHISTS].append((entries.get((name, WHISTS, label), []), values))
        if entries is not None:
            bands[POOL].append((entries.get((name, POOL, None), []), sector.pool))
            bands["mountain"].append((entries.get((name, "mountain", None), []), sector.mountain))
    low = lay.min_value_size
    for band in bands.values():
        size = min(
            (flow_tokens(writer, page, seq, box, lay.value_size, low, False) for seq, box in band),
            default=lay.value_size,
        )
        for seq, box in band:
            flow_tokens(writer, page, seq, box, size, low)
    return shape


# --- Classic bombs on the sheet (docs/rules.md §8.1) ----------------------------------------

BombMark = tuple[str, bool]  # the bomb as drawn on paper ("C" ×2, "CC" ×4, "CCC" ×8), used


def bomb_mark(factor: int) -> str:
    """A bomb as players draw it: one ``C`` per doubling (×2 ``C``, ×4 ``CC``, ×8 ``CCC``)."""
    return "C" * max(1, factor.bit_length() - 1)


def bomb_marks(sheet: Sheet) -> dict[str, list[BombMark]]:
    """Every player's bombs in the order earned, each marked used once a made game used it
    up (the earliest unused bomb of that factor: the oldest, or the declared one)."""
    earned: dict[str, list[list[Any]]] = {}
    for scored in sheet.scored:
        for who, what, factor in scored.bombs:
            if what == "earned":
                earned.setdefault(who, []).append([factor, False])
            elif what == "used":
                bomb = next(b for b in earned[who] if b[0] == factor and not b[1])
                bomb[1] = True
    return {p: [(bomb_mark(f), used) for f, used in bombs] for p, bombs in earned.items()}


def _draw_bombs(
    writer: Writer,
    page: Page,
    shape: SheetShape,
    names: Sequence[str],
    marks: dict[str, list[BombMark]],
) -> None:
    """Each player's bombs after his name, oldest first; a used one is crossed out."""
    lay = writer.lay
    metrics = writer.metrics
    for sector in shape.sectors:
        name = names[sector.seat]
        bombs = marks.get(name)
        if not bombs:
            continue
        box = sector.name
        length = box.w if sector.name_angle == 0 else box.h
        depth = box.h if sector.name_angle == 0 else box.w
        name_size = min(lay.name_size, depth / 1.25)  # as _put_name draws the name
        while name_size > 5 and metrics.width(name, name_size, True) > length:
            name_size -= 0.5
        name_w = metrics.width(metrics.fit(name, name_size, length, True), name_size, True)
        along = (length + name_w) / 2 + name_size * 0.8
        room = length - along - 2
        size = min(lay.value_size, depth / 1.6)

        def width(size: float, bombs: list[BombMark] = bombs) -> float:
            gap = metrics.width("  ", size)
            return sum(metrics.width(m, size) for m, _ in bombs) + gap * (len(bombs) - 1)

        while size > 3 and width(size) > room:
            size -= 0.25
        gap = metrics.width("  ", size)
        for mark, used in bombs:
            w = metrics.width(mark, size)
            if sector.name_angle == 0:
                x = box.x0 + along
                y = box.y0 + (box.h - name_size) / 2 + name_size * 0.2
                page.items.append((x, y, mark, False, size, 0.0))
                if used:
                    mid = y + size * 0.35
                    page.art.append(rule(x - 0.5, mid, x + w + 0.5, mid, 0.0))
            elif sector.name_angle == 90:  # reads upwards along the left edge
                x = box.x0 + (box.w + name_size) / 2 - name_size * 0.2
                y = box.y0 + along
                page.turned.append((x, y, 90, mark, False, size))
                if used:
                    mid = x - size * 0.35
                    page.art.append(rule(mid, y - 0.5, mid, y + w + 0.5, 0.0))
            else:  # reads downwards along the right edge
                x = box.x1 - (box.w + name_size) / 2 + name_size * 0.2
                y = box.y1 - along
                page.turned.append((x, y, -90, mark, False, size))
                if used:
                    mid = x + size * 0.35
                    page.art.append(rule(mid, y + 0.5, mid, y - w - 0.5, 0.0))
            along += w + gap


# --- the settlement -------------------------------------------------------------------------


def _text_column(writer: Writer, lines: Sequence[str], width: float) -> list[tuple[float, str]]:
    """Wrap step lines into (indent, line) rows; indented lines stay indented."""
    lay = writer.lay
    out: list[tuple[float, str]] = []
    for line in lines:
        stripped = line.lstrip(" ")
        indent = 12.0 if len(stripped) < len(line) else 0.0
        for part in writer.metrics.wrap(stripped, lay.size, width - indent):
            out.append((indent, part))
        if not stripped:
            out.append((0.0, ""))
    return out


def _price_text(report: Report) -> str:
    """The whist price in force as the title and the settlement show it."""
    return (
        money_text(report.price, report.currency) if report.currency else number_text(report.price)
    )


def _settlement_pages(flow: Flow, report: Report) -> None:
    writer = flow.writer
    lay = writer.lay
    metrics = writer.metrics
    size = lay.size
    lead = size * lay.leading
    methods = [report.pairwise, report.average]
    price = _price_text(report)
    flow.heading(_("Settlement"))
    items = flow.page.items
    items.append(
        (
            flow.left,
            flow.y,
            _(
                "Both methods, exact arithmetic; 1 whist = {price}. "
                "Every unclosed pool goes into the mountain first, then the amnesty."
            ).format(price=price),
            False,
            size,
            0.3,
        )
    )
    flow.gap(lead * 1.8)
    width = (flow.right - flow.left - 24) / 2
    titles = [_("Method 1: pairwise (whists on each other)"), _("Method 2: average mountain")]
    columns = [_text_column(writer, settlement_steps(s), width) for s in methods]
    flow.need(lead * 3)
    for k, title in enumerate(titles):
        flow.page.items.append((flow.left + k * (width + 24), flow.y, title, True, size + 1, 0.0))
    flow.gap(lead * 1.5)
    for line_no in range(max(len(c) for c in columns)):
        flow.need(lead)
        for k, column in enumerate(columns):
            if line_no < len(column) and column[line_no][1]:
                indent, text = column[line_no]
                x = flow.left + k * (width + 24) + indent
                flow.page.items.append((x, flow.y, text, False, size, 0.0))
        flow.y -= lead
    # the result in whists and money, both methods side by side
    flow.gap(lead)
    flow.heading(_("Result"), size + 3)
    header = [
        _("player"),
        _("method 1 whists"),
        _("method 1 money"),
        _("method 2 whists"),
        _("method 2 money"),
    ]
    rows = [header]
    for p in report.players:
        rows.append(
            [
                p,
                signed(methods[0].whists[p]),
                money_text(methods[0].money[p], report.currency),
                signed(methods[1].whists[p]),
                money_text(methods[1].money[p], report.currency),
            ]
        )
    name_w = max(metrics.width(r[0], size, True) for r in rows) + 16
    col_w = max(max(metrics.width(c, size) for c in r[1:]) for r in rows) + 16
    for n, row in enumerate(rows):
        flow.need(lead)
        bold = n == 0
        flow.page.items.append((flow.left, flow.y, row[0], True, size, 0.35 if bold else 0.0))
        for k, cell in enumerate(row[1:]):
            right = flow.left + name_w + (k + 1) * col_w
            x = right - metrics.width(cell, size, bold)
            flow.page.items.append((x, flow.y, cell, bold, size, 0.35 if bold else 0.0))
        flow.y -= lead
    same = all(methods[0].whists[p] == methods[1].whists[p] for p in report.players)
    flow.need(lead)
    note = _("The methods agree.") if same else _("The methods differ (rounding).")
    flow.page.items.append((flow.left, flow.y, note, False, size, 0.3))
    flow.y -= lead
    flow.gap(lead)
    flow.heading(_("Payments"), size + 3)
    groups = (
        [("", methods[0])]
        if same
        else [(_("method 1: "), methods[0]), (_("method 2: "), methods[1])]
    )
    for prefix, s in groups:
        lines = [
            prefix
            + _("{payer} pays {payee} {amount}").format(
                payer=p.payer, payee=p.payee, amount=money_text(p.amount, report.currency)
            )
            for p in s.payments
        ] or [prefix + _("nobody owes anything")]
        for line in lines:
            flow.need(lead)
            flow.page.items.append((flow.left, flow.y, line, False, size + 1, 0.0))
            flow.y -= lead * 1.15


# --- the running balance -------------------------------------------------------------------


def night_series(report: Report) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each player's running balance as chart points ``(deal, whists)``: from 0 before the
    first deal for those who sat down at the start, from the deal he joined for a player
    who joined later (never a line at 0 before he sat down, which reads as "broke even")."""
    sheet, balances = report.sheet, report.balances
    later = {s.entry.deal.player for s in sheet.scored if isinstance(s.entry.deal, Join)}
    series: list[tuple[str, list[tuple[float, float]]]] = []
    for p in sheet.players:
        points = [] if p in later else [(0.0, 0.0)]
        seated = p not in later
        for scored, balance in zip(sheet.scored, balances, strict=True):
            deal = scored.entry.deal
            seated = seated or (isinstance(deal, Join) and deal.player == p)
            if seated:
                points.append((float(scored.number), float(balance[p])))
        series.append((p, points))
    return series


def _balance_page(flow: Flow, report: Report) -> None:
    """A page with every player's running balance over the deals of the night (a chart)."""
    if not report.sheet.scored:
        return
    flow.chart_page(
        _("Running balance over the night"),
        _(
            "Each player's result in whists after every deal: the exact settlement if the night "
            "had ended there (unclosed pools into the mountains, both methods agree)."
        ),
        night_series(report),
        pgettext("chart", "deal"),
    )


# --- the deal log ---------------------------------------------------------------------------


def _wrote(writes: Iterable[Any]) -> str:
    grouped: dict[tuple[str, str, str | None], Amount] = {}
    for w in writes:
        key = (w.player, w.column, w.on)
        grouped[key] = grouped.get(key, 0) + w.amount
    parts = []
    for (player, column, on), amount in grouped.items():
        if amount:
            parts.append(
                _("{player} {where} {amount}").format(
                    player=player, where=terms.into(column, on), amount=signed(norm(amount))
                )
            )
    return "; ".join(parts) or _("nothing")


def _log_pages(flow: Flow, sheet: Sheet) -> None:
    writer = flow.writer
    lay = writer.lay
    metrics = writer.metrics
    size = lay.size
    lead = size * lay.leading
    problems = {p.number for p in sheet.problems}
    flow.need(lead * 6)
    flow.gap(lead)
    flow.heading(_("Deal log"))
    if not sheet.scored:
        flow.page.items.append((flow.left, flow.y, _("no deals recorded yet"), False, size, 0.0))
        return
    if problems:
        note = _(
            "! marks a deal the rules would refuse in its place (prefcalc explain N says why)."
        )
        flow.page.items.append((flow.left, flow.y, note, False, size, 0.3))
        flow.y -= lead * 1.4
    width = metrics.width
    wrap = metrics.wrap
    rows = [(s, deal_text(s.entry), _wrote(s.writes)) for s in sheet.scored]
    words = {k: _(k) for k in ("time", "dealer", "deal")}
    wrote_head = _("what it wrote")
    dealer_w = max([width(words["dealer"], size, True)] + [width(p, size) for p in sheet.players])
    dealer_w += 10
    number_w = max(width(f"{len(rows)}!", size), width("#", size, True)) + 8
    time_w = max(width("00:00", size), width(words["time"], size, True)) + 10
    rest = flow.right - flow.left - number_w - time_w - dealer_w - 12
    longest = max(width(deal, size) for _, deal, _ in rows)
    deal_w = min(longest + 2, rest * 0.45)
    wrote_w = rest - deal_w
    x_time = flow.left + number_w
    x_dealer = x_time + time_w
    x_deal = x_dealer + dealer_w
    x_wrote = x_deal + deal_w + 12
    head = [
        (x_time, words["time"]),
        (x_dealer, words["dealer"]),
        (x_deal, words["deal"]),
        (x_wrote, wrote_head),
    ]

    def header() -> None:
        items = flow.page.items
        x = flow.left + number_w - 8 - width("#", size, True)
        items.append((x, flow.y, "#", True, size, 0.35))
        for x, text in head:
            items.append((x, flow.y, text, True, size, 0.35))
        flow.y -= lead * 1.2

    header()
    for scored, deal, wrote in rows:
        entry = scored.entry
        number = f"{scored.number}!" if scored.number in problems else str(scored.number)
        time = local_time(entry.time, "%H:%M")  # in the reader's local time
        deal_lines = [deal] if width(deal, size) <= deal_w else wrap(deal, size, deal_w)
        wrote_lines = [wrote] if width(wrote, size) <= wrote_w else wrap(wrote, size, wrote_w)
        height = max(len(deal_lines), len(wrote_lines)) * lead
        if flow.y - height < flow.bottom:
            flow.new_page()
            header()
        items = flow.page.items
        y = flow.y
        items.append((flow.left + number_w - 8 - width(number, size), y, number, False, size, 0.0))
        if time:
            items.append((x_time, y, metrics.fit(time, size, time_w - 4), False, size, 0.0))
        if entry.dealer:
            items.append((x_dealer, y, entry.dealer, False, size, 0.0))
        for k, text in enumerate(deal_lines):
            items.append((x_deal, y - k * lead, text, False, size, 0.0))
        for k, text in enumerate(wrote_lines):
            items.append((x_wrote, y - k * lead, text, False, size, 0.0))
        flow.y = y - height


# --- entry points ---------------------------------------------------------------------------


def _texts_of(report: Report) -> list[str]:
    """Every text of the record that reaches the PDF (checked against the fonts)."""
    texts = [*report.seating, report.currency]
    for entry in report.game.entries:
        if isinstance(entry.deal, Adjustment) and entry.deal.note:
            texts.append(entry.deal.note)
    return [t for t in texts if t]


def target_text(sheet: Sheet) -> tuple[str, str]:
    """What the game runs to, for the circle, and how it is made (``""`` unless a total).

    Under ``closing = each`` every pool must reach the target: ``("20", "")``. Under
    ``closing = total`` the pools together must reach target × players: ``("60", "15 × 4")``.
    Under ``closing = average`` there is no target (played by time): ``("—", "")``.
    """
    if sheet.convention.closing == "each":
        return str(sheet.target), ""
    if sheet.convention.closing == "average":
        return "—", ""
    players = len(sheet.players)
    return str(sheet.target * players), f"{sheet.target} × {players}"


@dataclass(frozen=True)
class Built:
    """A finished document: its bytes, the warnings, and what drawing it took."""

    data: bytes
    warnings: list[str]
    pages: int
    strings: int  # drawString-like calls (the benchmark draws as many on a bare canvas)


def _sheet_page(writer: Writer, report: Report, footer: bool = True) -> None:
    """Page 1: the title, the sheet with its entries and bombs, and the result under it."""
    sheet = report.sheet
    players = sheet.players  # the seating at the end (after any join)
    price = _price_text(report)
    date = day(report.date) if report.date else _("no date")
    state = (
        _("finished")
        if report.finished
        else _("{deals}, in progress").format(deals=terms.deals(report.deals))
    )
    target, note = target_text(sheet)
    aim = (
        _("target {note} = {target}").format(note=note, target=target)
        if note
        else _("target {target}").format(target=target)
    )
    if sheet.convention.closing == "average":
        aim = _("no target: played by time")
    title = _(
        "Preference pool sheet · {convention} · {target} · 1 whist = {price} · {date} · "
        "players clockwise from the top: {players} · {state}"
    ).format(
        convention=terms.convention_name(sheet.convention.name),
        target=aim,
        price=price,
        date=date,
        players=", ".join(players),
        state=state,
    )
    shape = draw_sheet(
        writer,
        players,
        title,
        target,
        running_entries(sheet),
        note,
        one_line=True,
        result=result_lines(report),
        footer=footer,
    )
    marks = bomb_marks(sheet)
    if marks:
        _draw_bombs(writer, writer.pages[0], shape, players, marks)


def _writer(report: Report, paper: str) -> tuple[Writer, list[str]]:
    writer, warnings = new_writer(
        paper,
        f"prefcalc {__version__} · {', '.join(report.players)}",
        (*_texts_of(report), report.convention.name),
    )
    if report.date:
        writer.title += " · " + day(report.date)
    writer.author = ", ".join(report.players)
    writer.subject = _("Preference, {convention}").format(
        convention=terms.convention_name(report.convention.name)
    )
    writer.when = report.created
    return writer, warnings


def build_pdf(report: Report, paper: str = "a4") -> Built:
    """The printable scoresheet of the game of ``report`` (:func:`prefcalc.api.report`) as PDF
    bytes, with the warnings to show. The report's results are drawn as they are: nothing is
    settled or scored here."""
    writer, warnings = _writer(report, paper)
    _sheet_page(writer, report)
    flow = Flow(writer)
    _settlement_pages(flow, report)
    _balance_page(flow, report)
    _log_pages(flow, report.sheet)
    data = writer.render()
    return Built(data, warnings, len(writer.pages), writer.strings)


def build_picture(report: Report, paper: str = "a4") -> Built:
    """The page people send to the group (``share --png``): the sheet with the result under
    it, as one PDF page without page furniture (no footer, no page number)."""
    writer, warnings = _writer(report, paper)
    _sheet_page(writer, report, footer=False)
    data = writer.render(footer=False)
    return Built(data, warnings, len(writer.pages), writer.strings)


def write_pdf(report: Report, path: Path, paper: str = "a4") -> list[str]:
    """Write the printable scoresheet of the game of ``report`` to ``path``; return warnings
    to show."""
    built = build_pdf(report, paper)
    write_atomic(path, built.data, "the PDF")
    return built.warnings


def write_blank(players: int, target_path: Path, names: list[str], paper: str = "a4") -> list[str]:
    """Write an empty pool sheet for 2 to 5 players, names blank or pre-filled."""
    if players not in (2, 3, 4, 5):
        raise PrefcalcError(_("a blank sheet is for 2 to 5 players"))
    if len(names) > players:
        raise PrefcalcError(
            _("{count} names given for a {players}-player sheet").format(
                count=len(names), players=players
            )
        )
    filled = [n.strip() for n in names] + [""] * (players - len(names))
    writer, warnings = new_writer(
        paper, f"prefcalc {__version__} · " + _("blank pool sheet"), [n for n in filled if n]
    )
    writer.title = _("blank pool sheet")
    blank = "________"
    # the names have their own lines on the sheet: the title names only those given
    given = [n for n in filled if n]
    seating = _("players: names on the sheet, clockwise from the top")
    if given:
        seating = _("players clockwise from the top: {players}").format(players=", ".join(given))
    title = _(
        "Preference pool sheet · convention {blank} · target {blank} · "
        "1 whist = {blank} · date {blank} · {seating}"
    ).format(blank=blank, seating=seating)
    draw_sheet(writer, filled, title, "", None, one_line=True)
    write_atomic(target_path, writer.render(), "the PDF")
    return warnings


__all__ = [
    "Built",
    "build_pdf",
    "build_picture",
    "draw_sheet",
    "night_series",
    "result_lines",
    "target_text",
    "write_blank",
    "write_pdf",
]
