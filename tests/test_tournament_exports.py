"""A table's protocol (the Code 4.2.11) as text and PDF, and the whole tournament as a PDF and a
workbook (issue 28); the PDFs are rendered with poppler's pdftoppm and read back."""

from __future__ import annotations

import json
import shlex
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from support import invoke, require_tool
from tournament_support import play

SEVEN = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"]
TABLE_2 = [  # round 1, table 2 of seed 7: Fedya, Gleb, Anna, Anna deals first
    "game Fedya 6s 6 Gleb:w Anna:p",
    "game Gleb 7h 6 Anna:w Fedya:p",
    "misere Anna 2",
    "passes Fedya=2 Gleb=5 Anna=3",
    "game Fedya 8d 9 Gleb:w Anna:p",
    "adjust Gleb --mountain 5 --note 'looked at the talon (3.2.21)'",
    "game Anna 6c - Fedya:p Gleb:p",
    "game Gleb 6d 6 Anna:w2 Fedya:w2",
]


def run(args: list[str], cwd: Path) -> str:
    done = invoke(args, cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    folder = tmp_path / "cup"
    run(
        [
            "tournament",
            "new",
            str(folder),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--deals",
            "7",
            "--convention",
            "sochi",
            "--seed",
            "7",
            "--name",
            "Autumn Cup",
        ],
        tmp_path,
    )
    drawn = json.loads(run(["tournament", "draw", str(folder), "--json"], tmp_path))
    assert drawn["tables"][1]["players"] == ["Fedya", "Gleb", "Anna"]
    assert drawn["tables"][1]["dealer"] == "Anna"
    for line in TABLE_2:
        run([*shlex.split(line), "--file", str(folder / "r1-t2.json")], tmp_path)
    return folder


def test_the_protocol_of_a_table(cup: Path) -> None:
    text = run(["tournament", "protocol", str(cup), "--round", "1", "--table", "2"], cup.parent)
    lines = text.splitlines()
    assert lines[0] == "Protocol · Autumn Cup"
    assert lines[1] == "round 1 of 2 · table 2 · r1-t2.json"
    assert lines[2] == "players in seat order: Fedya, Gleb, Anna · first dealer Anna"
    assert lines[3].startswith("rules: Sochi · start ")
    assert "still playing" not in lines[3]  # 7 deals played: the table is complete
    body = "\n".join(lines[5:16])
    assert (
        body
        == """\
deal  dealer  declarer  contract / result  whists                              talon  written
   1  Anna    Fedya     6♠ / =             Gleb whist, Anna pass                      Fedya: +2 pool; Gleb: +8 whists on Fedya
   2  Fedya   Gleb      7♥ / −1            Anna whist, Fedya pass                     Gleb: +4 mountain; Anna: +16 whists on Gleb; Anna: +4 whists on Gleb; Fedya: +4 whists on Gleb
   3  Gleb    Anna      misère / −2                                                   Anna: +20 mountain
   4  Anna              all-pass           Fedya 2, Gleb 5, Anna 3                    Fedya: +2 mountain; Gleb: +5 mountain; Anna: +3 mountain
   5  Fedya   Fedya     8♦ / +1            Gleb whist, Anna pass                      Fedya: +6 pool; Gleb: +6 whists on Fedya
  P1                    adjustment         Gleb: looked at the talon (3.2.21)         Gleb: +5 mountain
   6  Gleb    Anna      6♣ / —             Fedya pass, Gleb pass                      Anna: +2 pool
   7  Anna    Gleb      6♦ / =             Anna whist 2, Fedya whist 2                Gleb: +2 pool; Anna: +4 whists on Gleb; Fedya: +4 whists on Gleb

player  pool  mountain  whists  result  place  points"""
    )
    settled = json.loads(run(["settle", "--json", "--file", str(cup / "r1-t2.json")], cup.parent))
    shown = json.loads(run(["show", "--json", "--file", str(cup / "r1-t2.json")], cup.parent))
    footer = lines[16:19]
    for row, player in zip(footer, settled["players"], strict=True):
        name, pool, mountain, _whists, result, _place, points = row.split()
        assert name == player["name"]
        assert int(result) == player["whists"] == int(points)
        sheet = next(p for p in shown["players"] if p["name"] == name)
        assert (int(pool), int(mountain)) == (sheet["pool"], sheet["mountain"])
    assert [row.split()[5] for row in footer] == ["1", "2", "3"]
    assert lines[-5:] == [
        "signatures:",
        "  Fedya: ________",
        "  Gleb: ________",
        "  Anna: ________",
        "  judge: ________",
    ]


def _render(pdf: Path) -> tuple[list[Path], str]:
    exe = require_tool("poppler's pdftoppm", "pdftoppm")
    done = subprocess.run(
        [exe, "-r", "40", "-png", str(pdf), str(pdf.with_suffix(""))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    pngs = sorted(pdf.parent.glob(f"{pdf.stem}-*.png"))
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    words = subprocess.run(
        [require_tool("poppler's pdftotext", "pdftotext"), "-layout", str(pdf), "-"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    return pngs, words


def test_the_protocol_as_pdf(cup: Path) -> None:
    pdf = cup.parent / "protocol.pdf"
    out = run(
        ["tournament", "protocol", str(cup), "-r", "1", "-t", "2", "--pdf", str(pdf)], cup.parent
    )
    assert out.endswith(f"wrote {pdf}\n")
    pngs, words = _render(pdf)
    assert len(pngs) == 1
    for text in (
        "Protocol · Autumn Cup",
        "6♠ / =",
        "7♥ / −1",
        "misère / −2",
        "Fedya 2, Gleb 5, Anna 3",
        "looked at the talon (3.2.21)",
        "signature",
        "judge:",
        "+144",
    ):
        assert text in words, text


def test_the_whole_tournament(cup: Path) -> None:
    play(cup, "r1-t1.json", 7)
    pdf = cup.parent / "cup.pdf"
    xlsx = cup.parent / "cup.xlsx"
    out = run(
        ["tournament", "export", str(cup), "--pdf", str(pdf), "--xlsx", str(xlsx)], cup.parent
    )
    assert out.splitlines() == [f"wrote {pdf}", f"wrote {xlsx}"]
    pngs, words = _render(pdf)
    assert len(pngs) >= 4  # standings, rounds and met, the two protocols
    for text in (
        "Standings of “Autumn Cup” after round 1 of 2",
        "Rounds",
        "Who met whom",
        "Penalty log",
        "looked at the talon (3.2.21)",
        "Gleb: +5 mountain",
    ):
        assert text in words, text
    assert words.count("Protocol · Autumn Cup") == 2

    from openpyxl import load_workbook

    wb = load_workbook(xlsx)
    assert wb.sheetnames == ["Standings", "Rounds", "Met", "Penalties", "Protocols"]
    standings = json.loads(run(["tournament", "standings", str(cup), "--json"], cup.parent))
    ws = wb["Standings"]
    for r, row in enumerate(standings["players"], 2):
        assert ws.cell(r, 1).value == row["place"]
        assert ws.cell(r, 2).value == row["name"]
        assert ws.cell(r, 4).value == pytest.approx(float(Fraction(row["points"])))
    met = wb["Met"]
    names = [met.cell(1, c).value for c in range(2, 9)]
    for r in range(2, 9):
        for c in range(2, 9):
            assert met.cell(r, c).value == met.cell(c, r).value  # who met whom, both ways
    fedya = names.index("Fedya")
    assert met.cell(fedya + 2, names.index("Anna") + 2).value == 1
    penalties = wb["Penalties"]
    assert [penalties.cell(2, c).value for c in range(1, 5)] == [1, 2, 6, "Gleb"]
    protocols = wb["Protocols"]
    assert protocols.max_row == 1 + 8 + 7


def test_exports_never_land_on_the_tournament(cup: Path) -> None:
    for target in ("tournament.json", "r1-t2.json"):
        before = (cup / target).read_bytes()
        done = invoke(["tournament", "export", str(cup), "--pdf", str(cup / target)], cup.parent)
        assert done.returncode == 2
        assert "cannot write the PDF over" in done.stderr
        assert (cup / target).read_bytes() == before
    done = invoke(["tournament", "export", str(cup)], cup.parent)
    assert done.returncode == 2
    assert "give --pdf FILE or --xlsx FILE" in done.stderr
    done = invoke(
        ["tournament", "export", str(cup), "--pdf", "x.pdf", "--xlsx", "x.pdf"], cup.parent
    )
    assert done.returncode == 2
    assert "to one file" in done.stderr
    done = invoke(["tournament", "protocol", str(cup), "-r", "1", "-t", "3"], cup.parent)
    assert "round 1 has no table 3 (tables 1 to 2)" in done.stderr
    done = invoke(["tournament", "protocol", str(cup), "-r", "2", "-t", "1"], cup.parent)
    assert "there is no round 2 (rounds drawn: 1)" in done.stderr
