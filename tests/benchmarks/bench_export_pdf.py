"""Issue: exporting a 1,000-deal game to PDF, against drawing as many strings on a bare canvas.

Ours is ``write_pdf`` end to end from an already scored sheet: the font checks, the running
sequences of the sheet, both settlements, the deal log, laying out and drawing every page,
saving to a file. The floor counts the drawString-like calls our writer makes for that game
(every text run it draws) and the pages it fills, then draws that many short strings with
``Canvas.drawString`` on a plain reportlab ``Canvas`` of the same page size, in the same
registered TTF font (the bundled DejaVu Sans), spread over the same number of pages, and
saves it to a file: what any PDF with that much text costs. Best of 7 each, interleaved so
both see the same machine.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]
from run import Figure, interleaved
from support import random_game, sheet_of

from prefcalc.export.fonts import REGULAR, bundled
from prefcalc.export.pdf import build_pdf, write_pdf
from prefcalc.report import build_report
from prefcalc.views.sheet_layout import load_layout

REPEAT = 7


def _bare(path: Path, strings: int, pages: int, size: tuple[float, float]) -> None:
    canvas = Canvas(str(path), pagesize=size, invariant=1)
    per_page = -(-strings // pages)
    drawn = 0
    for _ in range(pages):
        canvas.setFont(REGULAR, 8)
        for k in range(min(per_page, strings - drawn)):
            canvas.drawString(30 + (k % 8) * 95, 40 + (k // 8) * 9.5, str(drawn % 1000))
            drawn += 1
        canvas.showPage()
    canvas.save()


def export_1000() -> tuple[float, float, str]:
    game = random_game(11, 1000, 3, "sochi", target=10**6)
    sheet = sheet_of(game)
    bundled()  # register the font for both sides before timing
    built = build_pdf(build_report(game, sheet))
    lay = load_layout("a4")
    size = (lay.width, lay.height)
    with tempfile.TemporaryDirectory() as tmp:
        mine, bare = Path(tmp) / "ours.pdf", Path(tmp) / "bare.pdf"
        best, base = interleaved(
            lambda: write_pdf(build_report(game, sheet), mine),
            lambda: _bare(bare, built.strings, built.pages, size),
            REPEAT,
        )
    return (
        best,
        base,
        f"{built.strings:,} short strings drawn with Canvas.drawString in DejaVu Sans over "
        f"{built.pages} A4 landscape pages, saved (best of {REPEAT}, interleaved)",
    )


FIGURES: list[Figure] = [
    ("export pdf: a 1,000-deal game", 1.5, export_1000),
]
