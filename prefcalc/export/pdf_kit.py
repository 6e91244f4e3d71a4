"""The PDF toolkit: what every prefcalc document draws its pages with.

The game's scoresheet (:mod:`prefcalc.export.pdf`), the club history
(:mod:`prefcalc.export.history_pdf`) and the tournament's protocols and event
(:mod:`prefcalc.tournament.pdf`) share it:

- :class:`Metrics` measures, cuts (``…``) and wraps text in the fonts it will really be
  drawn in (the bundled DejaVu Sans, or a system font for the characters it lacks:
  :mod:`prefcalc.export.fonts`);
- :class:`Writer` collects pages (:class:`Page`) of positioned text and drawings, then renders
  them with their footers (``page 1 of 4``) through one text object per page (cheaper than
  a ``drawString`` per string); what no font can draw becomes ``?``, control characters
  are drawn escaped (``\\x07``), and the same document gives the same bytes;
  :func:`new_writer` makes one for a paper size and says which texts no font can draw;
- :class:`Flow` runs lines down the pages, with page breaks, headings and a chart page;
- :func:`flow_tokens` writes a running sequence (``2.6.10.14``) into a box: wrapped,
  shrunk, then its latest values kept behind a leading ``…``.

reportlab is imported by the export modules only: the CLI imports them lazily, when exporting.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from prefcalc import __version__
from prefcalc.export.fonts import BOLD, REGULAR, FontBook
from prefcalc.i18n import _, pgettext
from prefcalc.views.sheet_layout import Box, Layout, Token, load_layout, printable

ELLIPSIS = "…"


# --- text measuring and pages -------------------------------------------------------------------


class Metrics:
    """String widths in the fonts the text will really be drawn in."""

    def __init__(self, book: FontBook) -> None:
        self.book = book
        self._widths: dict[str, dict[str, float]] = {}

    def run_width(self, font: str, text: str) -> float:
        """The width of ``text`` in ``font`` at 1 pt."""
        table = self._widths.setdefault(font, {})
        try:
            return sum(map(table.__getitem__, text))
        except KeyError:
            face = self.book.face(font)
            for ch in text:
                if ch not in table:
                    table[ch] = face.stringWidth(ch, 1.0)
            return sum(map(table.__getitem__, text))

    def width(self, text: str, size: float, bold: bool = False) -> float:
        text = printable(text)
        if self.book.plain(text, bold):
            return self.run_width(BOLD if bold else REGULAR, text) * size
        return sum(self.run_width(r.font, r.text) for r in self.book.runs(text, bold)) * size

    def fit(self, text: str, size: float, width: float, bold: bool = False) -> str:
        """``text`` cut with a trailing ``…`` so that it fits ``width`` at ``size``."""
        if self.width(text, size, bold) <= width:
            return text
        low, high = 0, len(text)
        while low < high:
            mid = (low + high + 1) // 2
            if self.width(text[:mid] + ELLIPSIS, size, bold) <= width:
                low = mid
            else:
                high = mid - 1
        return text[:low] + ELLIPSIS if low else ""

    def wrap(self, text: str, size: float, width: float, bold: bool = False) -> list[str]:
        """``text`` broken at spaces into lines no wider than ``width`` (long words cut)."""
        if self.width(text, size, bold) <= width:
            return [text]
        lines: list[str] = []
        current = ""
        for word in text.split(" "):
            trial = f"{current} {word}" if current else word
            if self.width(trial, size, bold) <= width:
                current = trial
                continue
            if current:
                lines.append(current)
            while self.width(word, size, bold) > width and len(word) > 1:
                cut = len(self.fit(word, size, width, bold)) - 1
                cut = max(cut, 1)
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        if current:
            lines.append(current)
        return lines


Item = tuple[float, float, str, bool, float, float]  # x, y, text, bold, size, gray


@dataclass
class Page:
    """One page as it is collected: text ``items`` (drawn through one text object), text
    ``turned`` by an angle (``x, y, degrees, text, bold, size``), and ``art``: drawings, each
    a function of the canvas, drawn before the text."""

    items: list[Item] = field(default_factory=list)
    turned: list[tuple[float, float, int, str, bool, float]] = field(default_factory=list)
    art: list[Callable[[Any], None]] = field(default_factory=list)


def _pdf_date(when: str) -> str:
    """An ISO time as a PDF date in UTC (``D:20261203194500+00'00'``); "" for no time."""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(when)
    except ValueError:
        return ""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("D:%Y%m%d%H%M%S+00'00'")


class Writer:
    """Collects pages of positioned text, then draws them all with their footers."""

    def __init__(self, lay: Layout, book: FontBook, footer: str) -> None:
        self.lay = lay
        self.book = book
        self.metrics = Metrics(book)
        self.footer = footer
        self.pages: list[Page] = []
        self.strings = 0  # drawString-like calls made (the benchmark's yardstick)
        # the document's properties (a reader's "document info"): the game's, not reportlab's
        # «anonymous» / «unspecified» / 2000-01-01
        self.title = _("Preference pool sheet")
        self.author = ""
        self.subject = ""
        self.when = ""  # the game's created time (ISO), the document's date; "" leaves none

    def page(self) -> Page:
        self.pages.append(Page())
        return self.pages[-1]

    def render(self, footer: bool = True) -> bytes:
        """The PDF; ``footer=False`` leaves out the page furniture (``page 1 of 4``), for a
        page that is sent as a picture."""
        lay = self.lay
        buffer = io.BytesIO()
        # invariant: the same game gives the same bytes (no clock, a fixed document id)
        canvas = Canvas(buffer, pagesize=(lay.width, lay.height), invariant=1)
        canvas.setTitle(printable(self.title))  # as drawn: a control character escaped
        canvas.setAuthor(printable(self.author))
        canvas.setSubject(printable(self.subject))
        canvas.setCreator(f"prefcalc {__version__}")
        stamp = _pdf_date(self.when)
        if stamp:
            canvas.setDateFormatter(lambda *_: stamp)
        total = len(self.pages)
        for number, page in enumerate(self.pages, 1):
            if footer:
                page_of = _("page {number} of {total}").format(number=number, total=total)
                foot = f"{self.footer} · {page_of}"
                y = lay.margin - lay.footer_size * 0.2
                page.items.append((lay.margin, y, foot, False, lay.footer_size, 0.45))
            for draw in page.art:
                draw(canvas)
            self._text(canvas, page)
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def _text(self, canvas: Any, page: Page) -> None:
        book = self.book
        plain = book.plain
        text = canvas.beginText()
        set_origin = text.setTextOrigin
        line = text.textLine
        state: tuple[str, float] = ("", 0.0)
        gray = 0.0
        count = 0
        for x, y, s, bold, size, shade in page.items:
            s = printable(s)
            if shade != gray:
                text.setFillGray(shade)
                gray = shade
            if plain(s, bold):
                font = BOLD if bold else REGULAR
                if (font, size) != state:
                    text.setFont(font, size)
                    state = (font, size)
                set_origin(x, y)
                line(s)
                count += 1
                continue
            for run in book.runs(s, bold):
                if (run.font, size) != state:
                    text.setFont(run.font, size)
                    state = (run.font, size)
                set_origin(x, y)
                line(run.text)
                count += 1
                x += self.metrics.run_width(run.font, run.text) * size
        canvas.drawText(text)
        for x, y, angle, s, bold, size in page.turned:
            s = printable(s)
            canvas.saveState()
            canvas.setFillGray(0.0)
            canvas.translate(x, y)
            canvas.rotate(angle)
            dx = 0.0
            for run in book.runs(s, bold):
                canvas.setFont(run.font, size)
                canvas.drawString(dx, 0, run.text)
                count += 1
                dx += self.metrics.run_width(run.font, run.text) * size
            canvas.restoreState()
        self.strings += count


def new_writer(paper: str, footer: str, texts: Iterable[str] = ()) -> tuple[Writer, list[str]]:
    """A writer for ``paper`` (``a4``, ``letter``: the layout of ``templates/sheet-layout.toml``)
    whose pages end in ``footer``, and a warning for every one of ``texts`` that no font can
    draw (printed with ``?`` in place of what is missing)."""
    lay = load_layout(paper)
    book = FontBook()
    warnings = book.check([printable(t) for t in texts])
    return Writer(lay, book, footer), warnings


# --- lines down the pages ----------------------------------------------------------------------


class Flow:
    """Lines running down the pages (after the sheet, in the game's PDF), with page breaks:
    ``page`` is the page being written, ``y`` the baseline of its next line, between ``top``
    and ``bottom``, from ``left`` to ``right``."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        lay = writer.lay
        self.left = lay.margin
        self.right = lay.width - lay.margin
        self.top = lay.height - lay.margin - lay.heading_size
        self.bottom = lay.margin + lay.footer_size * 2
        self.page = writer.page()
        self.y = self.top

    def need(self, height: float) -> None:
        """A new page unless ``height`` still fits above the bottom of this one."""
        if self.y - height < self.bottom:
            self.new_page()

    def new_page(self) -> None:
        """Go on at the top of a new page."""
        self.page = self.writer.page()
        self.y = self.top

    def heading(self, text: str, size: float | None = None) -> None:
        size = size or self.writer.lay.heading_size
        self.need(size * 2.5)
        self.page.items.append((self.left, self.y, text, True, size, 0.0))
        self.y -= size * 1.6

    def gap(self, height: float) -> None:
        self.y -= height

    def chart_page(
        self,
        title: str,
        note: str,
        series: Sequence[tuple[str, Sequence[tuple[float, float] | None]]],
        x_label: str,
        markers: bool = False,
    ) -> None:
        """A new page with ``title``, a gray ``note`` under it and a line chart of ``series``
        (each player's whists over ``x_label``: :func:`prefcalc.export.charts.line_chart`)
        filling the rest of the page."""
        from prefcalc.export.charts import line_chart

        lay = self.writer.lay
        lead = lay.size * lay.leading
        self.new_page()
        self.heading(title)
        self.page.items.append((self.left, self.y, note, False, lay.size, 0.3))
        self.y -= lead * 1.5
        height = self.y - self.bottom - lead
        art, texts = line_chart(
            self.left,
            self.y - height,
            self.right - self.left,
            height,
            series,
            x_label,
            pgettext("chart", "whists"),
            lay.size,
            markers=markers,
        )
        self.page.art.extend(art)
        self.page.items.extend(texts)
        self.y -= height


def rule(x0: float, y0: float, x1: float, y1: float, gray: float) -> Callable[[Any], None]:
    """A thin line from ``(x0, y0)`` to ``(x1, y1)`` in ``gray``, as a page's art."""

    def draw(canvas: Any) -> None:
        canvas.setStrokeGray(gray)
        canvas.setLineWidth(0.5)
        canvas.line(x0, y0, x1, y1)
        canvas.setStrokeGray(0.0)

    return draw


# --- a running sequence in a box -----------------------------------------------------------------


def flow_tokens(
    writer: Writer,
    page: Page,
    tokens: Sequence[Token],
    box: Box,
    size: float,
    min_size: float,
    draw: bool = True,
) -> float:
    """Write a running sequence into ``box``: wrap, shrink, then keep the latest behind a ``…``.

    Returns the font size it takes (``size`` when it fits as asked); ``draw=False`` only
    measures.
    """
    if not tokens or box.w <= 0 or box.h <= 0:
        return size
    run = _Run(writer.metrics, tokens, box)
    size_now, rows = run.fitted(size, min_size)
    max_rows = int(box.h // (size_now * 1.2))
    if max_rows < 1 or not draw:
        return size_now
    ellipsis = len(rows) > max_rows
    if ellipsis:
        rows = run.tail(size_now, max_rows)
    run.draw(page, rows, size_now, ellipsis)
    return size_now


Rows = list[tuple[int, int]]
"""Lines of a running sequence: each the tokens ``start:end``."""


class _Run:
    """A running sequence measured at 1 pt, to be broken into lines in ``box``: each token's
    width, and its advance with the separator after it (``.``, or a gap for the stroke after
    a value that closed the pool)."""

    def __init__(self, metrics: Metrics, tokens: Sequence[Token], box: Box) -> None:
        self.tokens = tokens
        self.box = box
        self.unit = [metrics.width(t, 1.0) for t, _ in tokens]
        self.dot = metrics.width(".", 1.0)
        self.gap = metrics.width("  ", 1.0)
        self.ell = metrics.width(ELLIPSIS, 1.0)
        self.adv = [
            u + (self.gap if closed else self.dot)
            for u, (_, closed) in zip(self.unit, tokens, strict=True)
        ]

    def greedy(self, start: int, limit: float, ellipsis: bool) -> Rows:
        """Tokens ``start:`` filled into lines ``limit`` wide (at 1 pt), each as full as it
        can be (the first behind a ``…`` if asked)."""
        adv = self.adv
        rows: Rows = []
        first = start
        used = self.ell if ellipsis else 0.0
        for i in range(start, len(self.tokens)):
            if used + adv[i] > limit and i > first:
                rows.append((first, i))
                first, used = i, 0.0
            used += adv[i]
        rows.append((first, len(self.tokens)))
        return rows

    def lines(self, start: int, size: float, ellipsis: bool) -> Rows:
        """Lines of tokens ``start:`` at ``size`` (a leading ``…`` if asked), as even as
        the same number of lines allows: a wrapped sequence leaves no lone value on its last
        line (``4.10.28.`` / ``76.82.90.98``, not ``4.10.28.76.82.90.`` / ``98``)."""
        limit = self.box.w / size
        rows = self.greedy(start, limit, ellipsis)
        if len(rows) > 1:
            low, high = max(self.adv[start:]), limit
            for _ in range(20):  # the narrowest width that keeps as many lines
                mid = (low + high) / 2
                if len(self.greedy(start, mid, ellipsis)) > len(rows):
                    low = mid
                else:
                    high = mid
            rows = self.greedy(start, high, ellipsis)
        return rows

    def fitted(self, size: float, min_size: float) -> tuple[float, Rows]:
        """The size the sequence takes in the box (``size`` at most, ``min_size`` at least
        unless one value alone is wider), and its lines at that size."""
        box, adv = self.box, self.adv
        size_now = size
        rows = self.lines(0, size_now, False)
        # a sequence that would wrap but fits on one line a little smaller is written on one
        # line (the sheet's band then takes that size: every sector alike)
        closed_last = self.tokens[-1][1]
        one_line = (sum(adv) - (0.0 if closed_last else self.dot)) * 1.0001  # a stroke's gap
        if len(rows) > 1 and one_line > 0:
            fitting = box.w / one_line
            if fitting >= max(min_size, size * 0.75) and box.h >= fitting * 1.2:
                size_now = min(size, fitting)
                rows = [(0, len(self.tokens))]
        while len(rows) * size_now * 1.2 > box.h and size_now > min_size:
            size_now = max(min_size, size_now - 0.5)
            rows = self.lines(0, size_now, False)
        # a value that alone is wider than the box (behind a "…") takes a smaller size still:
        # nothing leaves its band
        widest = self.ell + max(adv)
        if widest * size_now > box.w:
            size_now = box.w / widest
            rows = self.lines(0, size_now, False)
        return size_now, rows

    def tail(self, size: float, max_rows: int) -> Rows:
        """The lines of the latest tokens that fit ``max_rows`` lines behind a ``…``: from
        the earliest start whose tail still fits (fewer tokens, fewer lines)."""
        low, high = 1, len(self.tokens) - 1
        while low < high:
            mid = (low + high) // 2
            if len(self.lines(mid, size, True)) <= max_rows:
                high = mid
            else:
                low = mid + 1
        return self.lines(min(low, len(self.tokens) - 1), size, True)[-max_rows:]

    def draw(self, page: Page, rows: Rows, size: float, ellipsis: bool) -> None:
        """Write ``rows`` at ``size`` from the top of the box (the first behind a ``…`` if
        ``ellipsis``), a stroke after every value that closed the pool."""
        box, tokens = self.box, self.tokens
        # each row takes 1.2 × size: from 0.15 × size below the top of its line box to the
        # descenders 0.25 × size below its baseline
        y = box.y1 - size * 0.95
        last = len(tokens) - 1
        for number, (i, j) in enumerate(rows):
            parts: list[str] = []
            x_run = 0.0
            strokes: list[float] = []
            if ellipsis and number == 0:
                parts.append(ELLIPSIS)
                x_run = self.ell
            for k in range(i, j):
                text, closed = tokens[k]
                parts.append(text)
                if closed:
                    strokes.append(x_run + self.unit[k] + self.gap / 2)
                if k < last:
                    parts.append("  " if closed else ".")
                x_run += self.adv[k]
            page.items.append((box.x0, y, "".join(parts), False, size, 0.0))
            for sx in strokes:
                page.art.append(_stroke(box.x0 + sx * size, y, size))
            y -= size * 1.2


def _stroke(x: float, y: float, size: float) -> Callable[[Any], None]:
    """The stroke a scorer draws after the value that closed a pool."""

    def draw(canvas: Any) -> None:
        canvas.setLineWidth(max(0.8, size * 0.13))
        canvas.line(x, y - size * 0.2, x, y + size * 0.85)

    return draw
