"""Issue: exporting a 1,000-deal game to XLSX, against writing the same cells with bare openpyxl.

The floor writes exactly the cells our workbook holds (same sheets, same coordinates, same
values and formula texts, counted from the workbook we build) into a plain ``Workbook`` with
``ws.cell(row, col, value)`` in a loop, then saves it: what any XLSX of that size costs.
Ours is ``write_xlsx`` end to end (building the rows, styles, widths, settlement, saving),
from an already scored sheet. Best of 5 each, interleaved so both see the same machine.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from run import Figure, interleaved
from support import random_game, sheet_of

from prefcalc.export.xlsx import build_workbook, write_xlsx
from prefcalc.report import build_report

REPEAT = 5


def _cells(wb: Any) -> list[tuple[str, list[tuple[int, int, Any]]]]:
    """Every non-empty cell of ``wb``, sheet by sheet, in row order."""
    return [
        (
            ws.title,
            [
                (cell.row, cell.column, cell.value)
                for row in ws.iter_rows()
                for cell in row
                if cell.value is not None
            ],
        )
        for ws in wb
    ]


def _bare(cells: list[tuple[str, list[tuple[int, int, Any]]]], path: Path) -> None:
    wb = Workbook()
    first = True
    for title, items in cells:
        if first:
            ws = wb.active
            ws.title = title
            first = False
        else:
            ws = wb.create_sheet(title)
        for row, col, value in items:
            ws.cell(row, col, value)
    wb.save(path)


def export_1000() -> tuple[float, float, str]:
    game = random_game(11, 1000, 3, "sochi", target=10**6)
    sheet = sheet_of(game)
    cells = _cells(build_workbook(build_report(game, sheet)))
    count = sum(len(items) for _, items in cells)
    formulas = sum(
        1 for _, items in cells for *_, v in items if isinstance(v, str) and v.startswith("=")
    )
    with tempfile.TemporaryDirectory() as tmp:
        mine, bare = Path(tmp) / "ours.xlsx", Path(tmp) / "bare.xlsx"
        best, base = interleaved(
            lambda: write_xlsx(build_report(game, sheet), mine), lambda: _bare(cells, bare), REPEAT
        )
    return (
        best,
        base,
        f"bare openpyxl writing the same {count} cells ({formulas} formulas) with ws.cell() "
        f"and saving (best of {REPEAT}, interleaved)",
    )


FIGURES: list[Figure] = [("xlsx export of a 1,000-deal game", 1.5, export_1000)]
