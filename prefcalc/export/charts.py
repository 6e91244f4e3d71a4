"""Charts for the PDF documents, drawn with reportlab's graphics (``reportlab.graphics``).

The plot (axes, grid, lines, bars) is a reportlab ``Drawing`` rendered onto the page's
canvas; every text that can hold a player's name (the legend, the bar labels) goes through
the page's text like the rest of the document, so it gets the same font fallbacks and the
same escaping of control characters as the sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.graphics import renderPDF  # type: ignore[import-untyped]
from reportlab.graphics.charts.lineplots import LinePlot  # type: ignore[import-untyped]
from reportlab.graphics.shapes import Drawing, Line, Rect  # type: ignore[import-untyped]
from reportlab.lib import colors  # type: ignore[import-untyped]

from prefcalc.export.fonts import REGULAR

#: Line colours, distinguishable in print and for the common colour-vision deficiencies
#: (Okabe-Ito), then darker variants for clubs with many players.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#F0E442",
    "#004C7A",
    "#8F3F00",
    "#006B4E",
    "#8A4F70",
)

Art = Callable[[Any], None]
Point = tuple[float, float]
Text = tuple[float, float, str, bool, float, float]  # the PDF writer's item: x, y, text...


def colour(k: int) -> Any:
    return colors.HexColor(PALETTE[k % len(PALETTE)])


def _draw(drawing: Any, x: float, y: float) -> Art:
    def draw(canvas: Any) -> None:
        renderPDF.draw(drawing, canvas, x, y)

    return draw


def line_chart(
    x: float,
    y: float,
    width: float,
    height: float,
    series: Sequence[tuple[str, Sequence[Point]]],
    x_title: str,
    y_title: str,
    size: float = 8.0,
) -> tuple[list[Art], list[Text]]:
    """A line chart in the box at (``x``, ``y``) (its lower left corner): one line per
    ``(name, points)``; the legend on the right. Returns what to draw and the texts."""
    legend_w = min(width * 0.25, 160.0)
    plot_w = width - legend_w - 50
    plot_h = height - 40
    drawing = Drawing(width, height)
    lp = LinePlot()
    lp.x, lp.y = 45, 30
    lp.width, lp.height = plot_w, plot_h
    drawn = [(name, thinned(points)) for name, points in series if points]
    lp.data = [points for _, points in drawn] or [[(0.0, 0.0)]]
    xs = [p[0] for _, points in drawn for p in points] or [0.0, 1.0]
    ys = [p[1] for _, points in drawn for p in points] or [0.0]
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
    for k in range(len(drawn)):
        lp.lines[k].strokeColor = colour(k)
        lp.lines[k].strokeWidth = 1.4
    if not drawn:
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
        ly = top - k * step
        drawing.add(
            Line(
                legend_x - x,
                ly - y + size * 0.35,
                legend_x - x + 14,
                ly - y + size * 0.35,
                strokeColor=colour(k),
                strokeWidth=2,
            )
        )
        texts.append((legend_x + 18, ly, name, False, size, 0.0))
    if len(drawn) > shown:
        texts.append(
            (legend_x + 18, top - shown * step, f"… {len(drawn) - shown} more", False, size, 0.3)
        )
    return [_draw(drawing, x, y)], texts


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
    return f"{value:,.0f}".replace(",", " ") if abs(value) >= 1 or value == 0 else f"{value:.2g}"
