"""The pool sheet's drawing, shared by the printable PDF and the phone's page.

Everything here is plain geometry and text, with no drawing library: the layout template
(``templates/sheet-layout.toml``: paper sizes, margins, band depths, font sizes), the shape of
PAPER_SHEET.md fitted into a rectangle (three nested rectangles around the circle, one sector
per player with its whist columns, pool and mountain: :func:`sheet_shape`), the running
entries each band holds (:func:`running_entries`) and the escaping of what is never drawn raw
(:func:`printable`). :mod:`prefcalc.export.pdf` draws it with reportlab (y upwards, in
points); :mod:`prefcalc.views.sheet_svg` writes it as SVG (y flipped), without importing reportlab.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from prefcalc.errors import PrefcalcError
from prefcalc.i18n import _
from prefcalc.resources import bundled
from prefcalc.rules.amounts import Amount, fmt, norm
from prefcalc.rules.scoring import POOL, Sheet

TEMPLATE = "sheet-layout.toml"

#: What is never drawn raw: C0 and C1 control characters, DEL, lone surrogates and the
#: non-characters U+FFFE, U+FFFF. They are shown escaped, as Python writes them (``\\x07``).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` as it is drawn: control characters escaped (``Ve\\x07ra``), never raw."""
    if text.isprintable():
        return text
    return _CONTROL.sub(_escape, text)


# --- the layout template --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """The numbers of ``templates/sheet-layout.toml`` for one paper size."""

    width: float
    height: float
    margin: float
    title_size: float
    footer_size: float
    whists: float
    pool: float
    circle: float
    mountain_start: float
    value_size: float
    min_value_size: float
    name_size: float
    label_size: float
    target_size: float
    padding: float
    size: float
    heading_size: float
    leading: float


_template_cache: dict[Path, dict[str, Any]] = {}


def load_layout(paper: str) -> Layout:
    """The layout for ``paper`` (``a4`` or ``letter``), landscape."""
    path = bundled("templates") / TEMPLATE
    table = _template_cache.get(path)
    if table is None:
        try:
            with path.open("rb") as handle:
                table = tomllib.load(handle)
        except OSError as exc:
            raise PrefcalcError(
                f"cannot read the sheet layout: {exc.strerror}", str(path)
            ) from None
        except tomllib.TOMLDecodeError as exc:
            raise PrefcalcError(f"the sheet layout is not valid TOML: {exc}", str(path)) from None
        _template_cache[path] = table
    papers = table.get("paper", {})
    key = paper.strip().lower()
    if key not in papers:
        raise PrefcalcError(
            _("unknown paper size '{paper}' (use {papers})").format(
                paper=paper, papers=_(" or ").join(papers)
            )
        )
    try:
        w, h = (float(v) for v in papers[key])
        page, sheet, pages = table["page"], table["sheet"], table["pages"]
        layout = Layout(
            width=max(w, h),
            height=min(w, h),
            margin=float(page["margin"]),
            title_size=float(page["title_size"]),
            footer_size=float(page["footer_size"]),
            whists=float(sheet["whists"]),
            pool=float(sheet["pool"]),
            circle=float(sheet["circle"]),
            mountain_start=float(sheet["mountain_start"]),
            value_size=float(sheet["value_size"]),
            min_value_size=float(sheet["min_value_size"]),
            name_size=float(sheet["name_size"]),
            label_size=float(sheet["label_size"]),
            target_size=float(sheet["target_size"]),
            padding=float(sheet["padding"]),
            size=float(pages["size"]),
            heading_size=float(pages["heading_size"]),
            leading=float(pages["leading"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise PrefcalcError(f"the sheet layout lacks or garbles {exc}", str(path)) from None
    if min(layout.whists, layout.pool) <= 0 or layout.whists + layout.pool >= 0.9:
        raise PrefcalcError("the sheet layout's bands leave no room for the mountain", str(path))
    return layout


# --- geometry -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    def inset(self, d: float) -> Box:
        return Box(self.x0 + d, self.y0 + d, self.x1 - d, self.y1 - d)


@dataclass
class Sector:
    """Where one player's name and numbers go on the sheet."""

    seat: int
    name: Box
    name_angle: int  # 0, or 90 / -90 for the side sectors of a 4-player sheet
    columns: list[tuple[int, Box]]  # (opponent's seat, box whose top line is the label)
    separators: list[tuple[float, float, float, float]]
    pool: Box
    mountain: Box


@dataclass
class SheetShape:
    frame: list[Box]  # the three nested rectangles, outermost first
    centre: tuple[float, float]
    radius: float
    spokes: list[tuple[float, float, float, float]]
    sectors: list[Sector]


def _split(box: Box, parts: int, horizontal: bool) -> list[Box]:
    if horizontal:
        step = box.w / parts
        return [
            Box(box.x0 + k * step, box.y0, box.x0 + (k + 1) * step, box.y1) for k in range(parts)
        ]
    step = box.h / parts
    return [Box(box.x0, box.y1 - (k + 1) * step, box.x1, box.y1 - k * step) for k in range(parts)]


def _whists_sector(
    region: Box, opponents: list[int], side: str, lay: Layout, rows: int = 1
) -> tuple[Box, int, list[tuple[int, Box]], list[tuple[float, float, float, float]]]:
    """Cut a whist region into the name strip (at the sheet's edge) and the columns; a top or
    bottom region in ``rows`` rows of columns (2: four columns two by two, each twice as
    wide)."""
    pad = lay.padding
    name_depth = lay.name_size * 1.45
    if side == "top":
        name = Box(region.x0, region.y1 - name_depth, region.x1, region.y1)
        area, angle, horizontal = Box(region.x0, region.y0, region.x1, name.y0), 0, True
    elif side == "bottom":
        name = Box(region.x0, region.y0, region.x1, region.y0 + name_depth)
        area, angle, horizontal = Box(region.x0, name.y1, region.x1, region.y1), 0, True
    elif side == "left":
        name = Box(region.x0, region.y0, region.x0 + name_depth, region.y1)
        area, angle, horizontal = Box(name.x1, region.y0, region.x1, region.y1), 90, False
    else:
        name = Box(region.x1 - name_depth, region.y0, region.x1, region.y1)
        area, angle, horizontal = Box(region.x0, region.y0, name.x0, region.y1), -90, False
    separators = []
    if horizontal and rows > 1:
        boxes = []
        per_row = -(-len(opponents) // rows)
        for k, band in enumerate(_split(area, rows, False)):
            row = _split(band, per_row, True)
            boxes.extend(row)
            for prev in row[:-1]:
                separators.append((prev.x1, band.y0 + pad, prev.x1, band.y1 - pad))
            if k:
                separators.append((band.x0 + pad, band.y1, band.x1 - pad, band.y1))
        boxes = boxes[: len(opponents)]
    else:
        boxes = _split(area, len(opponents), horizontal)
        for prev in boxes[:-1]:
            if horizontal:
                separators.append((prev.x1, area.y0 + pad, prev.x1, area.y1 - pad))
            else:
                separators.append((area.x0 + pad, prev.y0, area.x1 - pad, prev.y0))
    columns = [(opp, b.inset(pad)) for opp, b in zip(opponents, boxes, strict=True)]
    return name.inset(pad / 2), angle, columns, separators


#: The 5-player sheet's band depths (fractions of the half-height, as ``whists`` and ``pool``
#: of the layout): every player has four whist columns, so the whist band takes more of
#: the depth (the pool band keeps its depth, the mountain, with room to spare, gives it).
FIVE_WHISTS = 0.36
FIVE_POOL = 0.22


def sheet_shape(players: int, area: Box, lay: Layout) -> SheetShape:
    """The drawing of PAPER_SHEET.md fitted into ``area``, with a box for every entry.

    On the 5-player sheet the whist band is deeper (:data:`FIVE_WHISTS`) and each bottom
    sector, half the sheet wide, has its four columns two by two: each column is as wide as
    two, so a run of whists does not wrap after four writes.
    """
    if players == 5:
        lay = replace(lay, whists=FIVE_WHISTS, pool=FIVE_POOL)
    cx, cy = (area.x0 + area.x1) / 2, (area.y0 + area.y1) / 2
    a, b = area.w / 2, area.h / 2
    s1 = 1 - lay.whists
    s2 = 1 - lay.whists - lay.pool
    t = lay.mountain_start
    pad = lay.padding
    frame = [Box(cx - a * s, cy - b * s, cx + a * s, cy + b * s) for s in (1.0, s1, s2)]
    radius = lay.circle * b
    if players == 2:  # Gusarik: the sheet cut across, one half per player
        ends = [(cx - a, cy), (cx + a, cy)]
    elif players == 3:
        ends = [(cx - a, cy + b), (cx + a, cy + b), (cx, cy - b)]
    elif players == 4:
        ends = [(cx - a, cy + b), (cx + a, cy + b), (cx + a, cy - b), (cx - a, cy - b)]
    else:  # five: the 4-player sheet with its bottom sector cut in two down the middle
        ends = [
            (cx - a, cy + b),
            (cx + a, cy + b),
            (cx + a, cy - b),
            (cx, cy - b),
            (cx - a, cy - b),
        ]
    spokes = []
    for ex, ey in ends:
        d = math.hypot(ex - cx, ey - cy)
        spokes.append((cx + (ex - cx) * radius / d, cy + (ey - cy) * radius / d, ex, ey))
    a1, b1, a2, b2 = a * s1, b * s1, a * s2, b * s2
    top_mountain = Box(cx - a2 * t, cy + b2 * t, cx + a2 * t, cy + b2)
    sectors: list[Sector] = []

    def add(
        seat: int,
        region: Box,
        opps: list[int],
        side: str,
        pool: Box,
        mountain: Box,
        rows: int = 1,
    ) -> None:
        name, angle, columns, seps = _whists_sector(region, opps, side, lay, rows)
        sectors.append(
            Sector(seat, name, angle, columns, seps, pool.inset(pad), mountain.inset(pad))
        )

    top_whists = Box(cx - a1, cy + b1, cx + a1, cy + b)
    top_pool = Box(cx - a2, cy + b2, cx + a2, cy + b1)
    if players == 2:
        # each half runs the whole width: whists (one column), pool, then the mountain down
        # to the circle
        add(
            0,
            Box(cx - a, cy + b1, cx + a, cy + b),
            [1],
            "top",
            Box(cx - a1, cy + b2, cx + a1, cy + b1),
            Box(cx - a2, cy + radius + pad, cx + a2, cy + b2),
        )
        add(
            1,
            Box(cx - a, cy - b, cx + a, cy - b1),
            [0],
            "bottom",
            Box(cx - a1, cy - b1, cx + a1, cy - b2),
            Box(cx - a2, cy - b2, cx + a2, cy - radius - pad),
        )
    elif players == 3:
        gap = pad  # keep clear of the line down the middle
        add(0, top_whists, [2, 1], "top", top_pool, top_mountain)
        add(
            1,
            Box(cx + gap, cy - b, cx + a, cy - b1),
            [2, 0],
            "bottom",
            Box(cx + gap, cy - b1, cx + a1, cy - b2),
            Box(cx + gap, cy - b2, cx + a2, cy - radius - pad),
        )
        add(
            2,
            Box(cx - a, cy - b, cx - gap, cy - b1),
            [0, 1],
            "bottom",
            Box(cx - a1, cy - b1, cx - gap, cy - b2),
            Box(cx - a2, cy - b2, cx - gap, cy - radius - pad),
        )
    elif players == 5:
        gap = pad  # keep clear of the line down the middle of the bottom
        # clockwise from the top: top, right, bottom right, bottom left, left; every whist
        # column in the order its opponent sits along the sheet
        add(0, top_whists, [4, 3, 2, 1], "top", top_pool, top_mountain)
        add(
            1,
            Box(cx + a1, cy - b1, cx + a, cy + b1),
            [0, 4, 3, 2],
            "right",
            Box(cx + a2, cy - b2, cx + a1, cy + b2),
            Box(cx + a2 * t, cy - b2 * t, cx + a2, cy + b2 * t),
        )
        add(
            2,
            Box(cx + gap, cy - b, cx + a1, cy - b1),
            [4, 3, 0, 1],
            "bottom",
            Box(cx + gap, cy - b1, cx + a2, cy - b2),
            Box(cx + gap, cy - b2, cx + a2 * t, cy - b2 * t),
            rows=2,
        )
        add(
            3,
            Box(cx - a1, cy - b, cx - gap, cy - b1),
            [4, 0, 2, 1],
            "bottom",
            Box(cx - a2, cy - b1, cx - gap, cy - b2),
            Box(cx - a2 * t, cy - b2, cx - gap, cy - b2 * t),
            rows=2,
        )
        add(
            4,
            Box(cx - a, cy - b1, cx - a1, cy + b1),
            [0, 1, 2, 3],
            "left",
            Box(cx - a1, cy - b2, cx - a2, cy + b2),
            Box(cx - a2, cy - b2 * t, cx - a2 * t, cy + b2 * t),
        )
    else:
        add(0, top_whists, [3, 2, 1], "top", top_pool, top_mountain)
        add(
            1,
            Box(cx + a1, cy - b1, cx + a, cy + b1),
            [0, 3, 2],
            "right",
            Box(cx + a2, cy - b2, cx + a1, cy + b2),
            Box(cx + a2 * t, cy - b2 * t, cx + a2, cy + b2 * t),
        )
        add(
            2,
            Box(cx - a1, cy - b, cx + a1, cy - b1),
            [3, 0, 1],
            "bottom",
            Box(cx - a2, cy - b1, cx + a2, cy - b2),
            Box(cx - a2 * t, cy - b2, cx + a2 * t, cy - b2 * t),
        )
        add(
            3,
            Box(cx - a, cy - b1, cx - a1, cy + b1),
            [0, 1, 2],
            "left",
            Box(cx - a1, cy - b2, cx - a2, cy + b2),
            Box(cx - a2, cy - b2 * t, cx - a2 * t, cy + b2 * t),
        )
    return SheetShape(frame, (cx, cy), radius, spokes, sectors)


# --- the running entries --------------------------------------------------------------------

Token = tuple[str, bool]  # the running value as written, and whether it closed the pool


def running_entries(sheet: Sheet) -> dict[tuple[str, str, str | None], list[Token]]:
    """Every column's running totals after each deal that changed it, as players write them.

    A pool value is marked closed (a stroke follows it) where the pool closed: under
    ``closing = each`` the value that reached the target; under ``closing = total`` there is
    no per-player closing, and the stroke follows the pool value(s) written by the deal that
    brought the pools' sum to target × players, the deal that ended the game.
    """
    totals: dict[tuple[str, str, str | None], Amount] = {}
    out: dict[tuple[str, str, str | None], list[Token]] = {}
    target = sheet.target
    each = sheet.convention.closing == "each"
    finished = False
    for scored in sheet.scored:
        writes = scored.writes
        ends_game = scored.finished and not finished
        finished = scored.finished
        if not writes:
            continue
        deltas: dict[tuple[str, str, str | None], Amount] = {}
        for w in writes:
            key: tuple[str, str, str | None] = (w.player, w.column, w.on)
            deltas[key] = deltas.get(key, 0) + w.amount
        for key, delta in deltas.items():
            if not delta:
                continue
            before = totals.get(key, 0)
            after = norm(before + delta)
            totals[key] = after
            if each:
                closed = key[1] == POOL and before < target <= after
            else:
                closed = key[1] == POOL and ends_game and delta > 0
            out.setdefault(key, []).append((fmt(after), closed))
    return out
