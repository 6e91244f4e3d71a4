"""The club history as a PDF (``prefcalc history --pdf FILE``): the standings table (with
``--ratings``, the players' Elo ratings under it), the running balance over the season and
the made-contract rates (charts drawn with reportlab's graphics,
:mod:`prefcalc.export.charts`), then one line per game.

It uses the pool sheet's page layout (``templates/sheet-layout.toml``), fonts and writer, so
names in any script print the same way as on the sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from prefcalc import __version__, terms
from prefcalc.export.charts import bar_rows
from prefcalc.export.pdf_kit import Flow, new_writer
from prefcalc.history.club import History, Night, Standing
from prefcalc.history.ratings import Rating
from prefcalc.i18n import N_, _, ngettext, pgettext
from prefcalc.rules.amounts import Amount
from prefcalc.store.files import write_atomic
from prefcalc.views.history import money_cells, ratings_rows
from prefcalc.views.numbers import day
from prefcalc.views.text_kit import money_text, signed


def _table(flow: Flow, rows: Sequence[Sequence[str]], right: Sequence[bool]) -> None:
    """Rows of cells in columns (the first row is the header, bold), shrunk to the page's
    width if need be, repeated header on every new page."""
    writer = flow.writer
    metrics = writer.metrics
    lay = writer.lay
    size = lay.size
    space = flow.right - flow.left
    gap = 10.0
    while True:
        widths = [
            max(metrics.width(row[c], size, bold=(r == 0)) for r, row in enumerate(rows))
            for c in range(len(rows[0]))
        ]
        if sum(widths) + gap * (len(widths) - 1) <= space or size <= 5:
            break
        size -= 0.5
    lead = size * lay.leading

    def line(row: Sequence[str], bold: bool) -> None:
        x = flow.left
        for c, cell in enumerate(row):
            text = metrics.fit(cell, size, widths[c], bold)
            at = x + widths[c] - metrics.width(text, size, bold) if right[c] else x
            flow.page.items.append((at, flow.y, text, bold, size, 0.35 if bold else 0.0))
            x += widths[c] + gap
        flow.y -= lead

    line(rows[0], True)
    for row in rows[1:]:
        if flow.y - lead < flow.bottom:
            flow.new_page()
            line(rows[0], True)
        line(row, False)


def _night(value: Amount, night: Night) -> str:
    when = day(night.date[:10]) if night.date[:10] else _("no date")
    return _("{amount} on {date}").format(amount=signed(value), date=when)


def _standings_rows(players: Sequence[Standing]) -> list[list[str]]:
    rows = [
        [
            _("player"),
            _("games"),
            _("whists"),
            _("money"),
            _("wins"),
            _("best night"),
            _("worst night"),
            _("contracts made"),
            _("misères made/failed"),
            _("whists written/received"),
            _("all-pass deals/tricks"),
        ]
    ]
    for s in players:
        rate = (
            f"{s.contracts_made}/{s.contracts_declared} "
            f"({round(100 * s.contracts_made / s.contracts_declared)}%)"
            if s.contracts_declared
            else "0/0"
        )
        rows.append(
            [
                s.name,
                str(s.games),
                signed(s.whists),
                money_cells(s.money),
                str(s.wins),
                _night(*s.best) if s.best else "",
                _night(*s.worst) if s.worst else "",
                rate,
                f"{s.misere_made}/{s.misere_failed}",
                f"{signed(s.written).lstrip('+')}/{signed(s.received).lstrip('+')}",
                f"{s.passes}/{s.passes_tricks}",
            ]
        )
    return rows


RATINGS_NOTE = N_(
    "Pairwise Elo over the games in date order, everybody from 1500 (K = 16 per pair, shared "
    "among the opponents at the table)."
)


def _ratings_rows(ratings: Sequence[Rating]) -> list[list[str]]:
    """The rows of ``history --ratings``, as the text shows them (:mod:`prefcalc.views.history`)."""
    return ratings_rows(list(ratings))


def _games_rows(games: Sequence[Night]) -> list[list[str]]:
    rows = [
        [
            "#",
            _("date"),
            _("convention"),
            _("deals"),
            _("state"),
            _("result in whists (money)"),
        ]
    ]
    for k, night in enumerate(games, 1):
        result = ", ".join(
            f"{p} {signed(night.result[p])} ({money_text(night.money[p], night.currency)})"
            for p in night.players
        )
        rows.append(
            [
                str(k),
                day(night.date[:10]) if night.date[:10] else _("no date"),
                terms.convention_name(night.convention),
                str(night.deals),
                _("finished") if night.finished else _("stopped early"),
                result,
            ]
        )
    return rows


def build_history_pdf(h: History, paper: str = "a4") -> tuple[bytes, list[str]]:
    """The history document as PDF bytes, with the warnings to show (undrawable names)."""
    names = [s.name for s in h.players] + [p for n in h.games for p in n.players]
    texts = list(dict.fromkeys([*names, *(n.currency for n in h.games if n.currency)]))
    writer, warnings = new_writer(paper, f"prefcalc {__version__} · " + _("club history"), texts)
    lay = writer.lay
    writer.title = _("club history")
    writer.author = ", ".join(s.name for s in h.players)
    flow = Flow(writer)
    size = lay.size
    lead = size * lay.leading
    dates = [n.date[:10] for n in h.games if n.date]
    span = (
        _("{first} to {last}").format(first=day(dates[0]), last=day(dates[-1]))
        if dates
        else _("no dates")
    )
    games = ngettext("{n} game", "{n} games", len(h.games)).format(n=len(h.games))
    flow.heading(_("Club history · {games} · {span}").format(games=games, span=span))
    note = _(
        "Results by the pairwise method in exact whists (a game stopped early counts with its "
        "provisional settlement); money per currency, never converted; a win is a positive night."
    )
    flow.page.items.append((flow.left, flow.y, note, False, size, 0.3))
    flow.y -= lead * 1.6
    if not h.games:
        flow.page.items.append((flow.left, flow.y, _("no games found"), False, size, 0.0))
    else:
        flow.heading(_("Standings"), size + 3)
        right = [False, True, True, True, True, False, False, True, True, True, True]
        _table(flow, _standings_rows(h.players), right)
        if h.ratings is not None:  # history --ratings (docs/tournament.md §8)
            flow.gap(lead)
            flow.need(size * 1.9 * min(len(h.ratings) + 1, 6) + lead * 3)
            flow.heading(_("Ratings"), size + 3)
            flow.page.items.append((flow.left, flow.y, _(RATINGS_NOTE), False, size, 0.3))
            flow.y -= lead * 1.6
            _table(flow, _ratings_rows(h.ratings), [True, False, True, True, True])
        # made-contract rates
        flow.gap(lead)
        flow.need(size * 1.9 * min(len(h.players) + 1, 6) + lead * 3)
        flow.heading(_("Contracts made, of those declared"), size + 3)
        rows = [
            (
                s.name,
                s.contracts_made / s.contracts_declared if s.contracts_declared else None,
                f"{s.contracts_made}/{s.contracts_declared}"
                + (
                    f" ({round(100 * s.contracts_made / s.contracts_declared)}%)"
                    if s.contracts_declared
                    else ""
                ),
            )
            for s in h.players
        ]
        name_w = max(writer.metrics.width(s.name, size) for s in h.players)
        chunk = max(int((flow.y - flow.bottom) // (size * 1.9)) - 1, 1)
        for start in range(0, len(rows), chunk):
            if start:
                flow.new_page()
            art, items, used = bar_rows(
                flow.left, flow.y, flow.right - flow.left, rows[start : start + chunk], name_w, size
            )
            flow.page.art.extend(art)
            flow.page.items.extend(items)
            flow.y -= used + lead
        flow.chart_page(
            _("Running balance over the season"),
            _("Each player's total in whists after every game he played (a point per evening)."),
            season_series(h),
            pgettext("chart", "game"),
            markers=True,
        )
        # every game
        flow.new_page()
        flow.heading(_("Games"))
        _table(flow, _games_rows(h.games), [True, False, False, True, False, False])
    return writer.render(), warnings


def season_series(h: History) -> list[tuple[str, list[tuple[float, float] | None]]]:
    """Each player's total in whists as chart points ``(game, whists)``: a point only for
    the games he played, and a break (``None``) for every run of games he missed, so no line
    is drawn through an evening he was not at the table."""
    series: list[tuple[str, list[tuple[float, float] | None]]] = []
    running = h.running()
    for s in h.players:
        points: list[tuple[float, float] | None] = []
        for k, (night, totals) in enumerate(zip(h.games, running, strict=True), 1):
            if any(_same(p, s) for p in night.players):
                points.append((float(k), float(totals[s.name])))
            elif points and points[-1] is not None:
                points.append(None)
        while points and points[-1] is None:
            points.pop()
        series.append((s.name, points))
    return series


def _same(name: str, s: Standing) -> bool:
    from prefcalc.rules.model import name_key

    return name_key(name) == s.key


def write_history_pdf(h: History, path: Path, paper: str = "a4") -> list[str]:
    """Write the history document to ``path``; return the warnings to show."""
    data, warnings = build_history_pdf(h, paper)
    write_atomic(Path(path), data, "the PDF")
    return warnings
