"""The tournament on paper: a table's protocol (``tournament protocol --pdf``) and the whole
event (``tournament export --pdf``): the standings, the round matrix, who met whom, the
penalty log and every table's protocol.

Drawn with the PDF toolkit's writer (:class:`prefcalc.export.pdf_kit.Writer`: the bundled DejaVu
font, system fonts for what it lacks, control characters escaped) as ruled grids, landscape,
the page layout of ``templates/sheet-layout.toml``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from prefcalc import __version__, terms
from prefcalc.export.pdf_kit import Flow, Writer, new_writer
from prefcalc.i18n import _
from prefcalc.store.files import write_atomic
from prefcalc.tournament import text
from prefcalc.tournament.model import TournamentFile
from prefcalc.tournament.protocol import Protocol, penalty_log, protocol
from prefcalc.tournament.standings import Standings

PAD = 3.0
SIGNATURE = 110.0  # the width of the signatures' column (points)


def _line(x0: float, y0: float, x1: float, y1: float, width: float = 0.5) -> Callable[[Any], None]:
    def draw(canvas: Any) -> None:
        canvas.setLineWidth(width)
        canvas.setStrokeGray(0.35)
        canvas.line(x0, y0, x1, y1)

    return draw


def _shade(x: float, y: float, w: float, h: float) -> Callable[[Any], None]:
    def draw(canvas: Any) -> None:
        canvas.setFillGray(0.9)
        canvas.rect(x, y, w, h, fill=1, stroke=0)
        canvas.setFillGray(0.0)

    return draw


def grid(
    flow: Flow,
    rows: Sequence[Sequence[str]],
    right: Sequence[bool],
    *,
    wrap: int | None = None,
    extra: float = 0.0,
    size: float | None = None,
    tall: float = 1.0,
) -> None:
    """``rows`` (the first the header, bold on gray) as a ruled grid across the page.

    Columns are as wide as their widest cell; the font shrinks (down to 6 pt) until they fit.
    The column ``wrap`` (if any) takes the width left and its cells wrap onto more lines;
    ``extra`` widens the last column by that much and ``tall`` makes the rows (not the
    header) that many lines high (room to sign in). A grid that runs past the page goes on
    on the next one under its header again."""
    writer = flow.writer
    metrics = writer.metrics
    space = flow.right - flow.left
    size = size or writer.lay.size
    count = len(rows[0])

    def widths_at(at: float) -> list[float]:
        out = [
            max(metrics.width(row[c], at, bold=(r == 0)) for r, row in enumerate(rows)) + 2 * PAD
            for c in range(count)
        ]
        out[-1] += extra
        return out

    while True:
        widths = widths_at(size)
        if wrap is not None:
            others = sum(w for c, w in enumerate(widths) if c != wrap)
            head = metrics.width(rows[0][wrap], size, bold=True) + 2 * PAD
            if others + max(head, space * 0.2) <= space or size <= 6:
                widths[wrap] = max(space - others, head)
                break
        elif sum(widths) <= space or size <= 6:
            break
        size -= 0.5
    total = min(sum(widths), space)
    lead = size * 1.45

    def cell_lines(r: int, c: int, cell: str) -> list[str]:
        room = widths[c] - 2 * PAD
        if c == wrap:
            return metrics.wrap(cell, size, room, r == 0) or [""]
        return [metrics.fit(cell, size, room, r == 0)]

    def draw_row(r: int, row: Sequence[str]) -> None:
        cells = [cell_lines(r, c, cell) for c, cell in enumerate(row)]
        height = max((len(lines) for lines in cells), default=1) * lead
        if r:
            height = max(height, tall * lead)
        if flow.y - height < flow.bottom:
            flow.new_page()
            if r != 0:
                draw_row(0, rows[0])
        top = flow.y + size
        bottom = top - height
        page = flow.page
        if r == 0:
            page.art.append(_shade(flow.left, bottom, total, height))
            page.art.append(_line(flow.left, top, flow.left + total, top))
        x = flow.left
        for c, lines in enumerate(cells):
            page.art.append(_line(x, top, x, bottom))
            for k, line in enumerate(lines):
                width = metrics.width(line, size, r == 0)
                at = x + widths[c] - PAD - width if right[c] else x + PAD
                page.items.append((at, flow.y - k * lead, line, r == 0, size, 0.0))
            x += widths[c]
        page.art.append(_line(x, top, x, bottom))
        page.art.append(_line(flow.left, bottom, flow.left + total, bottom))
        flow.y -= height

    for r, row in enumerate(rows):
        draw_row(r, row)
    flow.y -= lead * 0.6


def _note(flow: Flow, line: str, gray: float = 0.0, bold: bool = False) -> None:
    lay = flow.writer.lay
    for part in flow.writer.metrics.wrap(line, lay.size, flow.right - flow.left, bold):
        flow.need(lay.size * lay.leading)
        flow.page.items.append((flow.left, flow.y, part, bold, lay.size, gray))
        flow.y -= lay.size * lay.leading


def _protocol_pages(flow: Flow, p: Protocol, first: bool) -> None:
    if not first:
        flow.new_page()
    header = text.protocol_header(p)
    flow.heading(header[0])
    for line in header[1:]:
        _note(flow, line)
    flow.gap(flow.writer.lay.size * 0.6)
    if p.lines:
        grid(flow, text.deal_rows(p), text.PROTOCOL_RIGHT, wrap=text.PROTOCOL_WRAP)
    else:
        _note(flow, _("no deals recorded yet"), 0.4)
    rows = text.footer_rows(p)
    rows[0].append(_("signature"))
    for row in rows[1:]:
        row.append("")
    grid(flow, rows, [False, True, True, True, True, True, True, False], extra=SIGNATURE, tall=2.0)
    for line in text.protocol_corrections(p):
        _note(flow, line)
    lay = flow.writer.lay
    flow.need(lay.size * 4)
    flow.gap(lay.size)
    _note(flow, _("judge: ________________"))


def _writer(t: TournamentFile, paper: str, texts: Sequence[str]) -> tuple[Writer, list[str]]:
    return new_writer(paper, f"prefcalc {__version__} · {t.name}", dict.fromkeys(texts))


def build_protocols(
    t: TournamentFile, protocols: Sequence[Protocol], paper: str = "a4"
) -> tuple[bytes, list[str]]:
    """The protocols as a PDF (each from a new page), with the warnings to show."""
    writer, warnings = _writer(t, paper, [t.name, *(p.name for p in t.players)])
    flow = Flow(writer)
    for k, p in enumerate(protocols):
        _protocol_pages(flow, p, k == 0)
    return writer.render(), warnings


def write_protocols(
    t: TournamentFile, protocols: Sequence[Protocol], path: Path, paper: str = "a4"
) -> list[str]:
    data, warnings = build_protocols(t, protocols, paper)
    write_atomic(Path(path), data, "the PDF")
    return warnings


def build_event(s: Standings, paper: str = "a4") -> tuple[bytes, list[str]]:
    """The whole tournament as a PDF: standings, rounds, who met whom, penalties, protocols."""
    t = s.tournament
    writer, warnings = _writer(
        t, paper, [t.name, *(p.name for p in t.players), *(p.club or "" for p in t.players)]
    )
    flow = Flow(writer)
    flow.heading(t.name)
    from prefcalc.tournament.folder import convention

    rules = _("rules: {convention}").format(convention=terms.convention_name(convention(t).name))
    _note(flow, f"{text.length(t)} · {rules} · " + _("seed {seed}").format(seed=t.seed))
    _note(flow, _("points: {scoring}").format(scoring=text.scoring_name(t.scoring, t.per_deal)))
    flow.gap(writer.lay.size * 0.6)
    flow.heading(text.standings_title(s), writer.lay.size + 3)
    grid(flow, text.standings_rows(s), text.standings_right(s))
    for line in text.standings_notes(s):
        _note(flow, line, 0.3)
    # the rounds
    flow.new_page()
    flow.heading(_("Rounds"))
    grid(flow, text.round_rows(s), [True, True, False, False], wrap=3)
    flow.heading(_("Who met whom"), writer.lay.size + 3)
    grid(flow, text.met_rows(s), [False, False], wrap=1)
    # penalties
    flow.heading(_("Penalty log"), writer.lay.size + 3)
    penalties = penalty_log(s.rounds)
    if penalties:
        grid(flow, text.penalty_rows(penalties), [True, True, True, False, False, False], wrap=4)
    else:
        _note(flow, _("no penalties or corrections recorded"), 0.4)
    # every protocol
    for tables in s.rounds:
        for tb in tables:
            _protocol_pages(flow, protocol(t, tb), False)
    return writer.render(), warnings


def write_event(s: Standings, path: Path, paper: str = "a4") -> list[str]:
    data, warnings = build_event(s, paper)
    write_atomic(Path(path), data, "the PDF")
    return warnings
