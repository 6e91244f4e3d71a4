"""Exports of a Classic night (docs/rules.md §8): the deal factor as a column of the XLSX Deals
sheet, prizes as Settlement rows whose formulas LibreOffice recomputes to prefcalc's numbers,
and each player's bombs on the PDF pool sheet."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import openpyxl
from support import make_game, sheet_of
from test_export_xlsx import formula_cells, recalculate, table

import prefcalc
from prefcalc.export.xlsx import FACTOR_HEADER, workbook_bytes, write_xlsx
from prefcalc.report import build_report
from prefcalc.rules.model import Game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PRIZES = {"prizes.first_close": 10, "prizes.min_mountain": 5}


def classic_night() -> Game:
    return prefcalc.load(EXAMPLES / "classic-3.json")


def prize_game() -> Game:
    lines = [
        "game Boris 6s - Vera:p Anna:p",
        "game Boris 6c - Vera:p Anna:p",
        "game Anna 6h 5 Boris:w Vera:p",
    ]
    return make_game(["Anna", "Boris", "Vera"], lines, target=4, options=PRIZES)


def _workbook(game: Game) -> Any:
    return openpyxl.load_workbook(io.BytesIO(workbook_bytes(build_report(game, sheet_of(game)))))


def test_the_deals_sheet_has_the_deal_factor_of_every_game_and_misere() -> None:
    game = classic_night()
    ws = _workbook(game)["Deals"]
    header, _rows = table(ws, 1)
    column = header[FACTOR_HEADER]
    factors = {r: ws.cell(r, column).value for r in range(2, 2 + len(game.entries))}
    # deals 10-21 (rows 11-22): ×2, ×2, ×4 (dark misère on ×2), -, -, ×4, ×2, ×2, ×2, ×2,
    # ×4 (dark 6♦ on ×2), ×2; the all-pass deals and the Preference have none
    assert [factors[r] for r in range(11, 23)] == [2, 2, 4, None, None, 4, 2, 2, 2, 2, 4, 2]
    assert all(factors[r] is None for r in range(2, 11))


def test_a_sochi_workbook_has_no_factor_column() -> None:
    game = make_game(["Anna", "Boris", "Vera"], ["game Anna 7h 7 Boris:w Vera:p"])
    header, _ = table(_workbook(game)["Deals"], 1)
    assert FACTOR_HEADER not in header


def test_prizes_are_settlement_rows() -> None:
    ws = _workbook(prize_game())["Settlement"]
    texts = [[c.value for c in row] for row in ws.iter_rows() if any(c.value for c in row)]
    assert ["Boris", "Anna", 10, "prize: first to close the pool"] in [t[:4] for t in texts]
    assert ["Boris", "Vera", 5, "prize: the smallest mountain"] in [t[:4] for t in texts]


def test_libreoffice_recomputes_the_classic_and_prize_workbooks_to_prefcalcs_numbers(
    tmp_path: Path,
) -> None:
    files = []
    for name, game in (("classic", classic_night()), ("prizes", prize_game())):
        path = tmp_path / f"{name}.xlsx"
        write_xlsx(build_report(game, sheet_of(game)), path)
        files.append(path)
    out = recalculate(files, tmp_path)
    for path in files:
        cached = openpyxl.load_workbook(path, data_only=True)
        formulas = formula_cells(openpyxl.load_workbook(path))
        again = openpyxl.load_workbook(out / path.name, data_only=True)
        wrong = []
        for (title, coord), formula in formulas.items():
            want, got = cached[title][coord].value, again[title][coord].value
            if not isinstance(got, int | float) or abs(got - want) > 1e-6 * max(1, abs(want)):
                wrong.append((title, coord, formula, want, got))
        assert not wrong, f"{path.name}: {wrong[:10]}"
    # the method 1 result includes the prizes (Boris +30 whists against the night without them)
    results = openpyxl.load_workbook(out / "prizes.xlsx", data_only=True)["Settlement"]
    boris = prefcalc.settle(prize_game()).whists["Boris"]
    found = [
        row[2].value
        for row in results.iter_rows()
        if row[0].value == "Boris" and isinstance(row[2].value, int | float)
    ]
    assert any(abs(v - float(boris)) < 1e-9 for v in found)


def test_the_pdf_draws_each_players_bombs_c_cc_ccc_used_ones_crossed_out() -> None:
    from test_export_pdf import page_texts

    from prefcalc.export.pdf import bomb_marks, build_pdf

    game = classic_night()
    sheet = sheet_of(game)
    marks = bomb_marks(sheet)
    # Nadia: the opening's ×2 ×2 ×2 ×4 ×4 ×4 ×8 ×8 ×8, then the blind pass's ×2; her games
    # of deals 10, 15 and 18 used up the three ×2 of the opening
    assert marks["Nadia"] == [
        ("C", True),
        ("C", True),
        ("C", True),
        ("CC", False),
        ("CC", False),
        ("CC", False),
        ("CCC", False),
        ("CCC", False),
        ("CCC", False),
        ("C", False),
    ]
    # Péter kept his ×2 on the remises of deals 11, 20 and 21 and used two on deals 16, 17
    assert [used for _, used in marks["Péter"]][:3] == [True, True, False]
    first = page_texts(build_pdf(build_report(game, sheet)).data)[0]
    assert "CCC" in first
    assert first.count("CCC") >= 9
    plain = make_game(["Anna", "Boris", "Vera"], ["game Anna 7h 7 Boris:w Vera:p"])
    assert bomb_marks(sheet_of(plain)) == {}
