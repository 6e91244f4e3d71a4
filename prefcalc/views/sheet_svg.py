"""The pool sheet as SVG for a phone: the PDF's drawing, the same geometry as PAPER_SHEET.md
(:func:`prefcalc.views.sheet_layout.sheet_shape`), with the running entries in every band.

The PDF draws with y upwards; SVG with y downwards: every y is flipped here.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from html import escape

from prefcalc.i18n import _, pgettext
from prefcalc.rules.model import Game
from prefcalc.rules.scoring import POOL, WHISTS, Sheet
from prefcalc.views.sheet_layout import Box, Layout, Token, printable, running_entries, sheet_shape

WIDTH = 330.0
"""The sheet's width in SVG units: the width it is drawn at on a 360 px phone (the page's
margins taken off), so that a unit is about a pixel there and the sizes below are pixels."""
HEIGHTS = {2: 250.0, 3: 340.0, 4: 370.0, 5: 460.0}
WHIST_BANDS = {3: 0.32, 4: 0.36}
"""The whist band's depth where it differs from the layout's: a label and a line of values
below the name, and the side players' whist columns of a four-player sheet, need the room on
a phone held upright."""
"""The height for each number of players: a five-player sheet's bottom players have their
four whist columns two by two, each with its label, so it is the tallest."""

LAYOUT = Layout(
    width=WIDTH,
    height=HEIGHTS[3],
    margin=1.5,
    title_size=0,
    footer_size=0,
    whists=0.30,
    pool=0.22,
    circle=0.1,
    mountain_start=0.42,
    value_size=12.5,
    min_value_size=12.5,
    name_size=13,
    label_size=10.5,
    target_size=16,
    padding=2.5,
    size=0,
    heading_size=0,
    leading=1.2,
)
"""Sizes in SVG units, about pixels on a 360 px phone: the numbers at 12.5 (at least 12 px
there), the labels at 10.5 (at least 10 px), the names at 13."""

LINE = 1.2  # the height of a line of values, as a fraction of their size

_NARROW = frozenset("iljtfrI.,:;!|'()[] -ıї")
_WIDE = frozenset("mwMWШЩЖЮМЫФшщжюмыф%@…")
_VOWELS = frozenset("aeiouyаеёиоуыэюяйьъAEIOUYАЕЁИОУЫЭЮЯЙЬЪ")


def _y(y: float, height: float) -> float:
    return height - y


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
    full: str = "",
) -> str:
    turn = f' transform="rotate({-angle} {_n(x)} {_n(y)})"' if angle else ""
    title = f"<title>{escape(full)}</title>" if full and full != text else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" class="{cls}"'
        f' text-anchor="{anchor}"{turn}>{escape(text)}{title}</text>'
    )


def width(text: str, size: float) -> float:
    """How wide ``text`` is drawn at ``size`` (a generous estimate of a sans-serif font: a
    digit is 0.64 of the size, a capital 0.72, a narrow letter 0.34, a wide one 0.9)."""
    total = 0.0
    for c in text:
        if c in _NARROW:
            total += 0.34
        elif c in _WIDE:
            total += 0.9
        elif c.isdigit():
            total += 0.64
        elif c.isupper():
            total += 0.72
        else:
            total += 0.6
    return total * size


def shortenings(name: str) -> list[str]:
    """``name`` shortened as a table shortens it, longest first: ``Бор.``, ``Б.``, ``Б``.

    A shortening ends on a consonant before a vowel, as people cut a name (``Алекс.``,
    ``Дм.``), two letters off at least (``Александр.`` would be another name); never inside
    a letter (a combining mark is no vowel, so it stays with its letter), nor after a space
    or a sign; the initial with a dot, then the bare initial, come last."""
    out: list[str] = []
    for k in range(len(name) - 2, 1, -1):
        head, last, nxt = name[:k], name[k - 1], name[k]
        if not last.isalpha() or last in _VOWELS or nxt not in _VOWELS:
            continue  # a cut before a vowel: Бор|ис, Алекс|андр, Дм|итрий
        out.append(head + ".")
    first = name[:1]
    while len(first) < len(name) and unicodedata.combining(name[len(first)]):
        first = name[: len(first) + 1]
    return [*out, first + ".", first] if first else [name]


def fit(text: str, size: float, room: float) -> str:
    """``text`` (a name) as it fits ``room`` at ``size``: whole, else shortened the way a
    table shortens a name (:func:`shortenings`); the initial when nothing longer fits."""
    if width(text, size) <= room:
        return text
    options = shortenings(text)
    return next((s for s in options if width(s, size) <= room), options[-1])


def whist_label(name: str, size: float, room: float) -> str:
    """The label of a whist column: ``on Boris`` / ``на Бориса`` (the name in its case), with
    the name shortened when the whole does not fit (``на Бор.``)."""
    template = pgettext("sheet", "on {player}")
    whole = template.format(player=name)
    if width(whole, size) <= room:
        return whole
    options = shortenings(name)
    for short in options:
        text = template.format(player=short)
        if width(text, size) <= room:
            return text
    return options[-1]


def flow(tokens: Sequence[Token], size: float, box: Box) -> list[str]:
    """The running sequence ``2.6.10|.14`` in lines that fit ``box`` (SVG units), the newest
    values kept: when the box is full the oldest give way, whole, to a leading "…"."""
    if not tokens:
        return []
    rows = max(1, int(box.h / (size * LINE)))
    words = [value + ("|" if closed else "") for value, closed in tokens]
    lines: list[list[str]] = [[]]
    for word in words:
        line = lines[-1]
        if line and width(".".join([*line, word]) + ".", size) > box.w:
            lines.append([word])
        else:
            line.append(word)
    if len(lines) > rows:
        lines = lines[-rows:]
        first = lines[0]
        while len(first) > 1 and width("…" + ".".join(first), size) > box.w:
            first.pop(0)
        lines[0] = ["…" + first[0], *first[1:]]
    texts = [".".join(line) for line in lines]
    return [t + "." for t in texts[:-1]] + texts[-1:]


def _values(
    parts: list[str], lines: list[str], box: Box, size: float, cls: str, height: float
) -> None:
    """Lines of values centred in ``box`` (PDF coordinates)."""
    if not lines:
        return
    cx = (box.x0 + box.x1) / 2
    cy = _y((box.y0 + box.y1) / 2, height)
    top = cy - (len(lines) - 1) * size * LINE / 2 + size * 0.35
    for k, line in enumerate(lines):
        parts.append(_text(cx, top + k * size * LINE, line, size, cls))


def sheet_svg(sheet: Sheet, game: Game) -> str:
    """The sheet as an inline SVG element (every name escaped, nothing external), its words
    in the language in use, the names declined by the game's genders."""
    from prefcalc.cases import genders

    with genders(game.genders):
        return _sheet_svg(sheet, game)


def _sheet_svg(sheet: Sheet, game: Game) -> str:
    names = list(sheet.players)
    height = HEIGHTS.get(len(names), HEIGHTS[4])
    lay = replace(LAYOUT, height=height, whists=WHIST_BANDS.get(len(names), LAYOUT.whists))
    area = Box(lay.margin, lay.margin, WIDTH - lay.margin, height - lay.margin)
    shape = sheet_shape(len(names), area, lay)
    entries = running_entries(sheet)

    def y(v: float) -> float:
        return _y(v, height)

    label = escape(_("pool sheet"))  # not inside the f-string: the catalog's extraction sees it
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(WIDTH)} {_n(height)}"'
        f' class="sheet" role="img" aria-label="{label}">'
    ]
    for k, box in enumerate(shape.frame):
        parts.append(
            f'<rect x="{_n(box.x0)}" y="{_n(y(box.y1))}" width="{_n(box.w)}"'
            f' height="{_n(box.h)}" class="frame{k}"/>'
        )
    for x0, y0, x1, y1 in shape.spokes:
        parts.append(
            f'<line x1="{_n(x0)}" y1="{_n(y(y0))}" x2="{_n(x1)}" y2="{_n(y(y1))}" class="spoke"/>'
        )
    for sector in shape.sectors:
        for x0, y0, x1, y1 in sector.separators:
            parts.append(
                f'<line x1="{_n(x0)}" y1="{_n(y(y0))}" x2="{_n(x1)}" y2="{_n(y(y1))}" class="sep"/>'
            )
    cx, cy = shape.centre
    parts.append(f'<circle cx="{_n(cx)}" cy="{_n(y(cy))}" r="{_n(shape.radius)}" class="hub"/>')
    target = str(sheet.target)
    size = min(lay.target_size, shape.radius * 1.7 / max(0.64, width(target, 1)))
    parts.append(_text(cx, y(cy) + size * 0.35, target, size, "target"))
    dealer = sheet.next_dealer if not sheet.finished else None
    for sector in shape.sectors:
        name = names[sector.seat]
        box = sector.name
        angle = sector.name_angle
        length = box.w if angle == 0 else box.h
        depth = box.h if angle == 0 else box.w
        nsize = min(lay.name_size, depth / 1.2)
        drawn = printable(name)
        shown = fit(drawn, nsize, length)
        mx, my = (box.x0 + box.x1) / 2, y((box.y0 + box.y1) / 2)
        if angle == 0:
            my += nsize * 0.35
        else:
            mx += nsize * 0.35 if angle == 90 else -nsize * 0.35
        cls = "name dealer" if name == dealer else "name"
        parts.append(_text(mx, my, shown, nsize, cls, angle=angle, full=drawn))
        for opp, col in sector.columns:
            label = printable(names[opp])
            parts.append(
                _text(
                    col.x0,
                    y(col.y1) + lay.label_size * 0.8,
                    whist_label(label, lay.label_size, col.w),
                    lay.label_size,
                    "label",
                    anchor="start",
                    full=_("whists on {player}").format(player=label),
                )
            )
            values = Box(col.x0, col.y0, col.x1, col.y1 - lay.label_size * 1.3)
            seq = entries.get((name, WHISTS, names[opp]), [])
            flowed = flow(seq, lay.value_size, values)
            _values(parts, flowed, values, lay.value_size, "whists", height)
        for column, box_ in ((POOL, sector.pool), ("mountain", sector.mountain)):
            seq = entries.get((name, column, None), [])
            _values(parts, flow(seq, lay.value_size, box_), box_, lay.value_size, column, height)
    parts.append("</svg>")
    return "".join(parts)
