"""The pool sheet as SVG for a phone: the PDF's drawing, the same geometry as PAPER_SHEET.md
(:func:`prefcalc.views.sheet_layout.sheet_shape`), with the running entries in every band.

The PDF draws with y upwards; SVG with y downwards: every y is flipped here.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from prefcalc.rules.model import Game
from prefcalc.rules.scoring import POOL, WHISTS, Sheet
from prefcalc.views.sheet_layout import Box, Layout, Token, printable, running_entries, sheet_shape

WIDTH = 400.0
HEIGHT = 300.0
CHAR = 0.6  # the width of a digit as a fraction of the font size (a generous estimate)

LAYOUT = Layout(
    width=WIDTH,
    height=HEIGHT,
    margin=2,
    title_size=0,
    footer_size=0,
    whists=0.30,
    pool=0.22,
    circle=0.1,
    mountain_start=0.42,
    value_size=12,
    min_value_size=9,
    name_size=12,
    label_size=8,
    target_size=16,
    padding=2.5,
    size=0,
    heading_size=0,
    leading=1.2,
)


def _y(y: float) -> float:
    return HEIGHT - y


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _text(
    x: float,
    y: float,
    text: str,
    size: float,
    cls: str,
    anchor: str = "middle",
    angle: int = 0,
    data: str = "",
) -> str:
    turn = f' transform="rotate({-angle} {_n(x)} {_n(y)})"' if angle else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" class="{cls}"'
        f' text-anchor="{anchor}"{turn}{data}>{escape(text)}</text>'
    )


def fit(text: str, size: float, room: float) -> str:
    """``text`` shortened with "…" to fit ``room`` points at ``size``."""
    most = max(1, int(room / (size * CHAR)))
    return text if len(text) <= most else text[: max(0, most - 1)] + "…"


def flow(tokens: Sequence[Token], size: float, box: Box) -> list[str]:
    """The running sequence ``2.6.10|.14`` in lines that fit ``box`` (SVG units), the newest
    values kept: old ones give way to a leading "…" when the box is full."""
    if not tokens:
        return []
    per_line = max(1, int(box.w / (size * CHAR)))
    rows = max(1, int(box.h / (size * 1.15)))
    words = [value + ("|" if closed else "") for value, closed in tokens]
    lines: list[str] = []
    current = ""
    for word in words:
        piece = word if not current else f"{current}.{word}"
        if len(piece) <= per_line or not current:
            current = piece
        else:
            lines.append(current + ".")
            current = word
    lines.append(current)
    if len(lines) > rows:
        lines = lines[-rows:]
        lines[0] = (
            "…" + lines[0][-(per_line - 1) :] if len(lines[0]) >= per_line else "…" + lines[0]
        )
    return lines


def _values(parts: list[str], lines: list[str], box: Box, size: float, cls: str) -> None:
    """Lines of values centred in ``box`` (PDF coordinates)."""
    if not lines:
        return
    cx = (box.x0 + box.x1) / 2
    cy = _y((box.y0 + box.y1) / 2)
    top = cy - (len(lines) - 1) * size * 1.15 / 2 + size * 0.35
    for k, line in enumerate(lines):
        parts.append(_text(cx, top + k * size * 1.15, line, size, cls))


def sheet_svg(sheet: Sheet, game: Game) -> str:
    """The sheet as an inline SVG element (every name escaped, nothing external)."""
    lay = LAYOUT
    names = list(sheet.players)
    area = Box(lay.margin, lay.margin, WIDTH - lay.margin, HEIGHT - lay.margin)
    shape = sheet_shape(len(names), area, lay)
    entries = running_entries(sheet)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(WIDTH)} {_n(HEIGHT)}"'
        ' class="sheet" role="img" aria-label="pool sheet">'
    ]
    for k, box in enumerate(shape.frame):
        parts.append(
            f'<rect x="{_n(box.x0)}" y="{_n(_y(box.y1))}" width="{_n(box.w)}"'
            f' height="{_n(box.h)}" class="frame{k}"/>'
        )
    for x0, y0, x1, y1 in shape.spokes:
        parts.append(
            f'<line x1="{_n(x0)}" y1="{_n(_y(y0))}" x2="{_n(x1)}" y2="{_n(_y(y1))}" class="spoke"/>'
        )
    for sector in shape.sectors:
        for x0, y0, x1, y1 in sector.separators:
            parts.append(
                f'<line x1="{_n(x0)}" y1="{_n(_y(y0))}" x2="{_n(x1)}" y2="{_n(_y(y1))}"'
                ' class="sep"/>'
            )
    cx, cy = shape.centre
    parts.append(f'<circle cx="{_n(cx)}" cy="{_n(_y(cy))}" r="{_n(shape.radius)}" class="hub"/>')
    target = str(sheet.target)
    size = min(lay.target_size, shape.radius * 1.6 / max(1, len(target)) / CHAR)
    parts.append(_text(cx, _y(cy) + size * 0.35, target, size, "target"))
    dealer = sheet.next_dealer if not sheet.finished else None
    for sector in shape.sectors:
        name = names[sector.seat]
        box = sector.name
        angle = sector.name_angle
        length = box.w if angle == 0 else box.h
        depth = box.h if angle == 0 else box.w
        nsize = min(lay.name_size, depth / 1.2)
        shown = fit(printable(name), nsize, length)
        mx, my = (box.x0 + box.x1) / 2, _y((box.y0 + box.y1) / 2)
        if angle == 0:
            my += nsize * 0.35
        else:
            mx += nsize * 0.35 if angle == 90 else -nsize * 0.35
        cls = "name dealer" if name == dealer else "name"
        parts.append(_text(mx, my, shown, nsize, cls, angle=angle))
        for opp, col in sector.columns:
            label = names[opp]
            parts.append(
                _text(
                    col.x0,
                    _y(col.y1) + lay.label_size,
                    fit(f"on {printable(label)}", lay.label_size, col.w),
                    lay.label_size,
                    "label",
                    anchor="start",
                )
            )
            values = Box(col.x0, col.y0, col.x1, col.y1 - lay.label_size * 1.3)
            seq = entries.get((name, WHISTS, label), [])
            _values(parts, flow(seq, lay.value_size, values), values, lay.value_size, "whists")
        for column, box_ in ((POOL, sector.pool), ("mountain", sector.mountain)):
            seq = entries.get((name, column, None), [])
            _values(parts, flow(seq, lay.value_size, box_), box_, lay.value_size, column)
    parts.append("</svg>")
    return "".join(parts)
