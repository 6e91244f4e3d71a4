"""Charts for the PDF documents, drawn with reportlab's graphics (``reportlab.graphics``).

The plot (axes, grid, lines, bars) is a reportlab ``Drawing`` rendered onto the page's
canvas; every text that can hold a player's name (the legend, the bar labels) goes through
the page's text like the rest of the document, so it gets the same font fallbacks and the
same escaping of control characters as the sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from reportlab.graphics import renderPDF  # type: ignore[import-untyped]
from reportlab.graphics.charts.lineplots import LinePlot  # type: ignore[import-untyped]
from reportlab.graphics.shapes import Drawing, Line, Rect  # type: ignore[import-untyped]
from reportlab.graphics.widgets.markers import makeMarker  # type: ignore[import-untyped]
from reportlab.lib import colors  # type: ignore[import-untyped]

from prefcalc.export.fonts import REGULAR

#: Line colours: the Okabe-Ito colour-blind-safe set (Okabe & Ito, "Color Universal Design",
#: 2008) without its orange, sky blue and yellow, whose contrast on white is below the 3:1 that
#: WCAG 2.1 (1.4.11, non-text contrast) asks of a line: every colour here reaches it, and any
#: two differ by a CIE76 distance of 50 or more. Past five players the colours come again
#: with another dash pattern (:data:`DASHES`), and every player has his own marker.
PALETTE = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#000000",  # black
)

#: Dash patterns (on, off in points) for each round of the palette: solid, dashed, dotted.
DASHES: tuple[tuple[float, ...] | None, ...] = (None, (6.0, 3.0), (1.5, 2.0))

#: Marker shapes (reportlab's names), one per player up to twelve, then again: six filled
#: shapes, four hollow ones (white inside) and two more outlines.
MARKERS = (
    "FilledCircle",
    "FilledSquare",
    "FilledTriangle",
    "FilledDiamond",
    "FilledCross",
    "FilledStarFive",
    "Circle",
    "Square",
    "Triangle",
    "Diamond",
    "StarSix",
    "ArrowHead",
)


def filled(marker: str) -> bool:
    """Whether ``marker`` is drawn filled with the line's colour (else white inside)."""
    return marker.startswith("Filled")


class Style(NamedTuple):
    """How player ``k``'s line is drawn: colour, dash pattern (None = solid) and marker."""

    colour: str
    dash: tuple[float, ...] | None
    marker: str


def style(k: int) -> Style:
    """Player ``k``'s style: the colours in turn, the next dash pattern each round."""
    n = len(PALETTE)
    return Style(PALETTE[k % n], DASHES[(k // n) % len(DASHES)], MARKERS[k % len(MARKERS)])


Art = Callable[[Any], None]
Point = tuple[float, float]
Text = tuple[float, float, str, bool, float, float]  # the PDF writer's item: x, y, text...


def colour(k: int) -> Any:
    return colors.HexColor(style(k).colour)


def segments(points: Sequence[Point | None]) -> list[list[Point]]:
    """The runs of ``points`` between the breaks (``None``): each is drawn as its own line,
    so nothing is drawn across a break (an evening the player missed)."""
    out: list[list[Point]] = [[]]
    for point in points:
        if point is None:
            if out[-1]:
                out.append([])
        else:
            out[-1].append(point)
    return [run for run in out if run]


def _draw(drawing: Any, x: float, y: float) -> Art:
    def draw(canvas: Any) -> None:
        renderPDF.draw(drawing, canvas, x, y)

    return draw


def line_chart(
    x: float,
    y: float,
    width: float,
    height: float,
    series: Sequence[tuple[str, Sequence[Point | None]]],
    x_title: str,
    y_title: str,
    size: float = 8.0,
    markers: bool = False,
) -> tuple[list[Art], list[Text]]:
    """A line chart in the box at (``x``, ``y``) (its lower left corner): one line per
    ``(name, points)``, broken where a point is ``None``; the legend on the right. Player
    ``k`` is drawn in :func:`style` ``k`` (with its marker on every point if ``markers``).
    Returns what to draw and the texts."""
    legend_w = min(width * 0.25, 160.0)
    plot_w = width - legend_w - 50
    plot_h = height - 40
    drawing = Drawing(width, height)
    lp = LinePlot()
    lp.x, lp.y = 45, 30
    lp.width, lp.height = plot_w, plot_h
    drawn = [(name, [thinned(run) for run in segments(points)]) for name, points in series]
    drawn = [(name, runs) for name, runs in drawn if runs]
    data: list[list[Point]] = []
    owner: list[int] = []
    for k, (_, runs) in enumerate(drawn):
        for run in runs:
            data.append(run)
            owner.append(k)
    lp.data = data or [[(0.0, 0.0)]]
    xs = [p[0] for run in data for p in run] or [0.0, 1.0]
    ys = [p[1] for run in data for p in run] or [0.0]
    lp.xValueAxis.valueMin = min(xs)
    lp.xValueAxis.valueMax = max(max(xs), min(xs) + 1)
    low, high = min(0.0, *ys), max(0.0, *ys)
    if high == low:
        high = low + 1
    lp.yValueAxis.valueMin = low
    lp.yValueAxis.valueMax = high
    for axis in (lp.xValueAxis, lp.yValueAxis):
        axis.labels.fontName = REGULAR
        axis.labels.fontSize = size - 1
        axis.strokeColor = colors.grey
    lp.xValueAxis.labelTextFormat = _whole
    lp.yValueAxis.labelTextFormat = _whole
    lp.yValueAxis.visibleGrid = True
    lp.yValueAxis.gridStrokeColor = colors.HexColor("#DDDDDD")
    lp.yValueAxis.gridStrokeWidth = 0.5
    for d, k in enumerate(owner):
        look = style(k)
        lp.lines[d].strokeColor = colors.HexColor(look.colour)
        lp.lines[d].strokeWidth = 1.4
        if look.dash:
            lp.lines[d].strokeDashArray = list(look.dash)
        if markers:
            lp.lines[d].symbol = _marker(look, size * 0.6)
    if not data:
        lp.lines[0].strokeColor = colors.white
    drawing.add(lp)
    # the zero line, darker than the grid
    zero = lp.y + plot_h * (0 - low) / (high - low)
    drawing.add(Line(lp.x, zero, lp.x + plot_w, zero, strokeColor=colors.grey, strokeWidth=0.7))
    texts: list[Text] = [
        (x + lp.x + plot_w / 2 - len(x_title) * size * 0.25, y + 4, x_title, False, size, 0.3),
        (x + 2, y + height - 6, y_title, False, size, 0.3),
    ]
    legend_x = x + lp.x + plot_w + 16
    top = y + lp.y + plot_h - size
    step = size * 1.5
    shown = int(plot_h // step)
    for k, (name, _) in enumerate(drawn[:shown]):
        look = style(k)
        ly = top - k * step - y + size * 0.35
        drawing.add(
            Line(
                legend_x - x,
                ly,
                legend_x - x + 20,
                ly,
                strokeColor=colors.HexColor(look.colour),
                strokeWidth=2,
                strokeDashArray=list(look.dash) if look.dash else None,
            )
        )
        if markers:
            sign = _marker(look, size * 0.7)
            sign.x, sign.y = legend_x - x + 10, ly
            drawing.add(sign)
        texts.append((legend_x + 24, top - k * step, name, False, size, 0.0))
    if len(drawn) > shown:
        texts.append(
            (legend_x + 24, top - shown * step, f"… {len(drawn) - shown} more", False, size, 0.3)
        )
    return [_draw(drawing, x, y)], texts


def _marker(look: Style, size: float) -> Any:
    sign = makeMarker(look.marker)
    sign.size = size
    sign.fillColor = colors.HexColor(look.colour) if filled(look.marker) else colors.white
    sign.strokeColor = colors.HexColor(look.colour)
    sign.strokeWidth = 0.8
    return sign


def bar_rows(
    x: float,
    y: float,
    width: float,
    rows: Sequence[tuple[str, float | None, str]],
    name_width: float,
    size: float = 8.0,
) -> tuple[list[Art], list[Text], float]:
    """Horizontal bars, one row per ``(name, fraction 0..1 or None, label)``, from the top
    at ``y`` down; returns what to draw, the texts and the height used."""
    step = size * 1.9
    height = step * len(rows) + size
    bar_x = name_width + 8
    bar_w = max(width - bar_x - 60, 20.0)
    drawing = Drawing(width, height)
    texts: list[Text] = []
    for k, (name, value, label) in enumerate(rows):
        row_y = height - (k + 1) * step
        drawing.add(
            Rect(
                bar_x,
                row_y,
                bar_w,
                size * 1.2,
                fillColor=colors.HexColor("#EEEEEE"),
                strokeColor=None,
            )
        )
        if value is not None and value > 0:
            drawing.add(
                Rect(
                    bar_x,
                    row_y,
                    bar_w * min(value, 1.0),
                    size * 1.2,
                    fillColor=colour(0),
                    strokeColor=None,
                )
            )
        base = y - height + row_y + size * 0.3
        texts.append((x, base, name, False, size, 0.0))
        texts.append((x + bar_x + bar_w + 6, base, label, False, size, 0.0))
    return [_draw(drawing, x, y - height)], texts, height


def thinned(points: Sequence[Point], most: int = 200) -> list[Point]:
    """At most about ``most`` of ``points`` for a line a few hundred points wide: each run
    of consecutive points keeps its first, lowest, highest and last, so no peak or dip of
    the line is lost (a long night of 1,000 deals draws as fast as 200)."""
    if len(points) <= most:
        return list(points)
    size = -(-len(points) * 4 // most)
    out: list[Point] = []
    for start in range(0, len(points), size):
        run = points[start : start + size]
        keep = {0, len(run) - 1}
        keep.add(min(range(len(run)), key=lambda k: run[k][1]))
        keep.add(max(range(len(run)), key=lambda k: run[k][1]))
        out.extend(run[k] for k in sorted(keep))
    return out


def _whole(value: float) -> str:
    """An axis label: grouped by a space (``1 200``), negative with the minus sign (``−40``,
    not the hyphen), in every language."""
    if value == 0:
        return "0"  # also -0.0
    text = f"{value:,.0f}".replace(",", " ") if abs(value) >= 1 else f"{value:.2g}"
    return "\N{MINUS SIGN}" + text[1:] if text.startswith("-") else text
