"""The printable PDF scoresheet (``prefcalc export pdf``) and the blank sheet (``prefcalc blank``).

The text is read back with pypdf; the pages are rendered with poppler's ``pdftoppm`` (skipped
when it is missing, unless PREFCALC_REQUIRE_TOOLS=1). Running sequences are checked against
values worked out by hand from ``support.SAMPLE_3``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from pypdf import PdfReader
from support import make_game, random_game, require_tool, run_cli, sample_game, sheet_of

from prefcalc.errors import PrefcalcError
from prefcalc.export import fonts
from prefcalc.export.pdf import build_pdf, draw_sheet, write_blank, write_pdf
from prefcalc.export.pdf_kit import Page, Writer, flow_tokens
from prefcalc.report import build_report
from prefcalc.rules.amounts import fmt
from prefcalc.rules.model import Adjustment, AllPass, Contract, Defender, Entry, Game, Misere
from prefcalc.rules.settlement import settle
from prefcalc.store.ledger import game_to_json_text
from prefcalc.views.log import deal_text
from prefcalc.views.sheet_layout import Box, load_layout, running_entries
from prefcalc.views.text_kit import money_text

LATIN_CYRILLIC_4 = {
    "Anna": "Nguyễn Thị Ánh",
    "Boris": "Şükrü Öztürk",
    "Vera": "Батбаяр Өлзий",
    "Dima": "Анна",
}
LATIN_CYRILLIC_3 = {"Anna": "İğdır", "Boris": "Анна", "Vera": "Nguyễn Thị Ánh"}
FAR_SCRIPTS = {"Anna": "สมชาย", "Boris": "김민준"}
PAPER = {"a4": (841.89, 595.28), "letter": (792.0, 612.0)}


def renamed(game: Game, names: dict[str, str]) -> Game:
    """The same record with the players renamed (names with spaces cannot go through notation)."""

    def r(name: str) -> str:
        return names.get(name, name)

    def deal(d: object) -> object:
        if isinstance(d, Contract):
            defenders = tuple(Defender(r(x.player), x.role, x.tricks) for x in d.defenders)
            return Contract(r(d.declarer), d.level, d.suit, d.tricks, defenders)
        if isinstance(d, Misere):
            return Misere(r(d.declarer), d.tricks)
        if isinstance(d, AllPass):
            return AllPass(tuple((r(n), t) for n, t in d.tricks))
        assert isinstance(d, Adjustment)
        whists = tuple((r(n), a) for n, a in d.whists)
        return Adjustment(r(d.player), d.pool, d.mountain, whists, d.note)

    entries = tuple(
        Entry(deal(e.deal), None if e.dealer is None else r(e.dealer), e.time, e.forced)  # type: ignore[arg-type]
        for e in game.entries
    )
    return Game(
        players=tuple(r(p) for p in game.players),
        convention=game.convention,
        target=game.target,
        first_dealer=r(game.first_dealer),
        whist_price=game.whist_price,
        currency=game.currency,
        created=game.created,
        entries=entries,
    )


def priced(game: Game, price: object, currency: str) -> Game:
    return Game(
        players=game.players,
        convention=game.convention,
        target=game.target,
        first_dealer=game.first_dealer,
        whist_price=price,  # type: ignore[arg-type]
        currency=currency,
        created=game.created,
        entries=game.entries,
    )


def page_texts(data: bytes | Path) -> list[str]:
    reader = PdfReader(data if isinstance(data, Path) else _stream(data))
    return [page.extract_text() or "" for page in reader.pages]


def _stream(data: bytes) -> object:
    import io

    return io.BytesIO(data)


def signed(value: object) -> str:
    text = fmt(value)  # type: ignore[arg-type]
    return text if text.startswith("-") or text == "0" else f"+{text}"


@pytest.fixture
def no_system_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine with no fonts but the bundled ones."""
    monkeypatch.setattr(fonts, "system_font_files", lambda: ())


def pdftoppm() -> str:
    return require_tool("poppler's pdftoppm", "pdftoppm")


# --- what the PDF says --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "names", "convention"),
    [(4, LATIN_CYRILLIC_4, "sochi"), (3, LATIN_CYRILLIC_3, "leningrad")],
)
def test_names_settlement_and_payments_are_in_the_text(
    players: int, names: dict[str, str], convention: str, no_system_fonts: None
) -> None:
    game = priced(
        renamed(random_game(7, 60, players, convention, target=20), names), Fraction(1, 2), "EUR"
    )
    sheet = sheet_of(game)
    built = build_pdf(build_report(game, sheet))
    assert built.warnings == []
    texts = page_texts(built.data)
    assert len(texts) == built.pages >= 3
    for name in names.values():
        assert name in texts[0], f"{name} missing on the sheet"
    settlement = next(t for t in texts if "Settlement" in t)
    assert settlement is texts[1]
    for method in ("pairwise", "average"):
        s = settle(sheet, method, "exact", game.whist_price, game.currency)
        for p in game.players:
            assert p in settlement
            assert signed(s.whists[p]) in settlement, (method, p, s.whists[p])
            assert money_text(s.money[p], "EUR") in settlement
        assert s.payments
        for pay in s.payments:
            line = f"{pay.payer} pays {pay.payee} {money_text(pay.amount, 'EUR')}"
            assert line in settlement
    log = "\n".join(texts[1:])
    for name in names.values():
        assert name in log


def test_sheet_holds_the_running_entries_as_written_on_paper() -> None:
    texts = page_texts(build_pdf(build_report(sample_game(), sheet_of(sample_game()))).data)
    sheet_page = texts[0]
    # Anna's pool: 7♥ made 4; all-pass with no trick at ×2: 6; misère 10: 16; 6♦ made 2: 18
    assert "4.6.16.18" in sheet_page
    # Boris's mountain: 6♠ one down 2; all-pass 5 × 1: 7, 6 × 2: 19; 8NT one down 6: 25;
    # misère with 2 tricks × 10: 45
    assert "2.7.19.25.45" in sheet_page
    # Vera's mountain: all-pass 3 × 1, 4 × 2: 3, 11; the adjustment +5: 16
    assert "3.11.16" in sheet_page
    # the title line: convention, target, whist price and currency, date, seating order
    title = sheet_page.splitlines()[0]
    for part in ("Sochi", "target 20", "1 whist = 0.50 EUR", "2026-11-30", "Anna, Boris, Vera"):
        assert part in title


def test_closing_the_pool_is_marked_and_fractions_are_shown() -> None:
    game = make_game(
        ["Anna", "Boris", "Vera"],
        [
            "game Anna 6s - Boris:p Vera:p",
            "adjust Vera --mountain 12.5 --note 'late'",
            "game Anna 6c - Boris:p Vera:p",
        ],
        target=4,
    )
    sheet = sheet_of(game)
    entries = running_entries(sheet)
    assert entries[("Anna", "pool", None)] == [("2", False), ("4", True)]
    assert entries[("Vera", "mountain", None)] == [("12½", False)]
    first = page_texts(build_pdf(build_report(game, sheet)).data)[0]
    assert "2.4" in first and "2.4." not in first
    assert "12½" in first
    # on the drawing, a vertical stroke follows the "4" that closed Anna's pool
    writer = _writer()
    draw_sheet(writer, game.players, "t", "4", entries)
    x, y, text, bold, size, _ = next(i for i in writer.pages[0].items if i[2] == "2.4")
    end = x + writer.metrics.width(text, size, bold)
    recorder = Recorder()
    for draw in writer.pages[0].art:
        draw(recorder)
    assert any(
        x0 == x1 and end < x0 < end + size and y0 < y < y1 for x0, y0, x1, y1 in recorder.lines
    )


class Recorder:
    """A stand-in canvas that keeps the lines drawn on it."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, float, float, float]] = []

    def line(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.lines.append((x0, y0, x1, y1))

    def __getattr__(self, name: str) -> object:
        return lambda *args, **kwargs: None


def test_deal_log_lists_every_deal_in_words() -> None:
    game = sample_game()
    texts = page_texts(build_pdf(build_report(game, sheet_of(game))).data)
    log = "\n".join(texts[1:])
    assert "Deal log" in log
    for entry in game.entries:
        assert deal_text(entry) in log
    assert "♥" in log and "♠" in log and "♦" in log and "♣" in log
    assert "Anna pool +4; Boris whists on Anna +12" in log  # what deal 1 wrote


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_game_without_deals_exports(players: int) -> None:
    game = make_game(["Anna", "Boris", "Vera", "Dima", "Egor"][:players], [])
    built = build_pdf(build_report(game, sheet_of(game)))
    texts = page_texts(built.data)
    assert built.warnings == [] and built.pages == len(texts) == 2
    assert "nobody owes anything" in texts[1] and "no deals recorded yet" in texts[1]


# --- fitting long games ---------------------------------------------------------------------


def _writer(paper: str = "a4") -> Writer:
    return Writer(load_layout(paper), fonts.FontBook(), "test")


def _inside(writer: Writer, item: tuple[float, float, str, bool, float, float], box: Box) -> bool:
    x, y, text, bold, size, _ = item
    width = writer.metrics.width(text, size, bold)
    eps = 0.01
    return (
        x >= box.x0 - eps
        and x + width <= box.x1 + eps
        and y - size * 0.25 >= box.y0 - eps
        and y + size * 0.8 <= box.y1 + eps
    )


def test_a_long_sequence_shrinks_then_keeps_its_latest_values() -> None:
    writer = _writer()
    page = Page()
    box = Box(100, 100, 260, 150)
    tokens = [(str(10 * k), k == 150) for k in range(1, 400)]
    flow_tokens(writer, page, tokens, box, 11, 5.5)
    assert page.items
    assert all(_inside(writer, item, box) for item in page.items)
    assert {item[4] for item in page.items} == {5.5}
    assert page.items[0][2].startswith("…")
    assert page.items[-1][2].endswith(".3990")
    shown = "".join(item[2] for item in page.items).replace("…", "").split(".")
    assert shown == [t for t, _ in tokens[-len(shown) :]]


def test_a_short_sequence_keeps_the_full_size() -> None:
    writer = _writer()
    page = Page()
    flow_tokens(
        writer, page, [("2", False), ("6", False), ("10", True)], Box(0, 0, 300, 60), 11, 5.5
    )
    assert [(item[2], item[4]) for item in page.items] == [("2.6.10", 11)]
    assert len(page.art) == 1  # the closing stroke


@pytest.mark.parametrize(
    ("seed", "deals", "players", "convention", "paper"),
    [
        (1, 300, 4, "leningrad", "a4"),
        (2, 300, 3, "sochi", "letter"),
        (3, 30, 4, "rostov", "a4"),
        (4, 300, 2, "sochi", "a4"),
        (5, 300, 5, "leningrad", "letter"),
        (6, 40, 5, "rostov", "a4"),
    ],
)
def test_every_value_stays_inside_its_band(
    seed: int, deals: int, players: int, convention: str, paper: str
) -> None:
    game = random_game(seed, deals, players, convention, target=10**6)
    sheet = sheet_of(game)
    writer = _writer(paper)
    shape = draw_sheet(writer, game.players, "title", str(game.target), running_entries(sheet))
    boxes = [b for s in shape.sectors for b in (s.pool, s.mountain, *(c for _, c in s.columns))]
    values = [item for item in writer.pages[0].items if not item[3] and item[5] == 0.0]
    values = [item for item in values if item[2] != "title"]
    assert len(values) > 10
    for item in values:
        assert any(_inside(writer, item, box) for box in boxes), item
    outer = shape.frame[0]
    for item in writer.pages[0].items:
        if item[2] != "title":
            assert _inside(writer, item, outer), item
    # the boxes of different sectors never overlap
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert (
                a.x1 <= b.x0 + 0.01
                or b.x1 <= a.x0 + 0.01
                or a.y1 <= b.y0 + 0.01
                or b.y1 <= a.y0 + 0.01
            )


# --- fonts ----------------------------------------------------------------------------------


def test_bundled_font_draws_latin_cyrillic_and_suits(no_system_fonts: None) -> None:
    book = fonts.FontBook()
    text = "Nguyễn Thị Ánh Şükrü Öztürk İğdır Анна Батбаяр Өлзий ♠♣♦♥ 12½ ⅓⅔¼¾ … — × − ·"
    assert book.missing(text) == []
    assert all(run.font == fonts.REGULAR for run in book.runs(text))
    assert (fonts.FONT_DIR / "LICENSE-DejaVu.txt").read_text().count("Bitstream") > 3
    for name in fonts.BUNDLED.values():
        assert (fonts.FONT_DIR / name).stat().st_size > 500_000


def test_decomposed_diacritics_are_drawn_composed(no_system_fonts: None) -> None:
    decomposed = "Nguye\u0302\u0303n"
    book = fonts.FontBook()
    assert not book.plain(decomposed)
    assert book.runs(decomposed) == [fonts.Run(fonts.REGULAR, "Nguyễn")]


def test_cmap_reader_agrees_with_reportlab(tmp_path: Path) -> None:
    regular, _bold = fonts.bundled()
    ranges = fonts.read_cmap(fonts.FontFile(fonts.FONT_DIR / fonts.BUNDLED["regular"]))
    assert ranges is not None
    mine = {c for a, b in ranges for c in range(a, b + 1)}
    assert mine == {c for c, g in regular.face.charToGlyph.items() if g}
    cff = tmp_path / "cff.otf"
    cff.write_bytes(b"OTTO" + bytes(200))
    assert fonts.read_cmap(fonts.FontFile(cff)) is None
    junk = tmp_path / "junk.ttf"
    junk.write_bytes(b"\x00\x01\x00\x00\x00\x05")
    assert fonts.read_cmap(fonts.FontFile(junk)) is None


def test_undrawable_names_warn_and_print_question_marks(
    no_system_fonts: None, tmp_path: Path
) -> None:
    game = renamed(sample_game(), FAR_SCRIPTS)
    out = tmp_path / "far.pdf"
    warnings = write_pdf(build_report(game, sheet_of(game)), out)
    assert len(warnings) == 2
    assert "สมชาย" in warnings[0] and "김민준" in warnings[1]
    assert all(w.startswith("no font can draw") and "\n" not in w for w in warnings)
    first = page_texts(out)[0]
    assert "?????" in first and "???" in first and "Vera" in first
    assert "สมชาย" not in first
    blank = write_blank(3, tmp_path / "blank.pdf", ["김민준", "Анна"])
    assert len(blank) == 1 and "김민준" in blank[0]


def _system_font_for(text: str) -> bool:
    for font in fonts.system_font_files():
        ranges = fonts.read_cmap(font)
        if ranges and all(fonts.covers(ranges, ord(c)) for c in text):
            return True
    return False


@pytest.mark.parametrize("name", ["สมชาย", "김민준"])
def test_other_scripts_print_with_an_installed_font(name: str, tmp_path: Path) -> None:
    if not _system_font_for(name):
        if os.environ.get("PREFCALC_REQUIRE_TOOLS") == "1":
            pytest.fail(f"a TrueType font that draws {name} is required here (CI installs one)")
        pytest.skip(f"no TrueType font on this machine draws {name}")
    game = renamed(sample_game(), {"Anna": name})
    warnings = write_pdf(build_report(game, sheet_of(game)), tmp_path / "s.pdf")
    assert warnings == []
    assert name in page_texts(tmp_path / "s.pdf")[0]


# --- paper, blank sheets, rendering ---------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter", "Letter"])
def test_paper_sizes_are_landscape(paper: str) -> None:
    reader = PdfReader(
        _stream(build_pdf(build_report(sample_game(), sheet_of(sample_game())), paper).data)
    )
    width, height = PAPER[paper.lower()]
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (width, height)


def test_unknown_paper_is_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(PrefcalcError, match="unknown paper size 'a3' \\(use a4 or letter\\)"):
        write_pdf(
            build_report(sample_game(), sheet_of(sample_game())), tmp_path / "x.pdf", paper="a3"
        )
    with pytest.raises(PrefcalcError, match="a4 or letter"):
        write_blank(3, tmp_path / "x.pdf", [], paper="legal")
    with pytest.raises(PrefcalcError, match="4 names given for a 3-player sheet"):
        write_blank(3, tmp_path / "x.pdf", ["A", "B", "C", "D"])
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_blank_sheets(players: int, paper: str, tmp_path: Path, no_system_fonts: None) -> None:
    names = ["Şükrü Öztürk", "Батбаяр Өлзий"][: players - 1]
    out = tmp_path / "blank.pdf"
    assert write_blank(players, out, names, paper) == []
    reader = PdfReader(out)
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == PAPER[paper]
    text = reader.pages[0].extract_text()
    for name in names:
        assert name in text
    assert "target ________" in text
    body = [line for line in text.splitlines() if "prefcalc" not in line]  # not the footer
    assert not any(re.search(r"\d\.\d", line) for line in body)  # no running entries


def test_pages_render_with_pdftoppm(tmp_path: Path) -> None:
    exe = pdftoppm()
    game = priced(renamed(random_game(5, 120, 4, "sochi", target=20), LATIN_CYRILLIC_4), 2, "RUB")
    built = build_pdf(build_report(game, sheet_of(game)), "letter")
    documents = {"game.pdf": built.data}
    write_blank(3, tmp_path / "blank.pdf", ["Анна"])
    documents["blank.pdf"] = (tmp_path / "blank.pdf").read_bytes()
    for name, data in documents.items():
        path = tmp_path / name
        path.write_bytes(data)
        prefix = tmp_path / path.stem
        done = subprocess.run(
            [exe, "-r", "30", "-png", str(path), str(prefix)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "rror" not in done.stderr, done.stderr
        pngs = sorted(tmp_path.glob(f"{path.stem}-*.png"))
        assert len(pngs) == len(PdfReader(path).pages)
        for png in pngs:
            assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(list(tmp_path.glob("game-*.png"))) == built.pages


def test_missing_pdftoppm_fails_when_tools_are_required(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("PREFCALC_REQUIRE_TOOLS", "1")
    with pytest.raises(pytest.fail.Exception):
        pdftoppm()
    monkeypatch.delenv("PREFCALC_REQUIRE_TOOLS")
    with pytest.raises(pytest.skip.Exception):
        pdftoppm()


# --- through the real CLI ---------------------------------------------------------------------


@pytest.fixture
def ledger(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "friday.json"
    path.write_text(game_to_json_text(sample_game()), encoding="utf-8")
    yield path


def test_cli_export_pdf(tmp_path: Path, ledger: Path) -> None:
    out = tmp_path / "sheet.pdf"
    result = run_cli(["export", "pdf", "-o", str(out), "--file", str(ledger)], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert str(out) in result.stdout
    texts = page_texts(out)
    assert "Anna" in texts[0] and "4.6.16.18" in texts[0]
    assert "Boris pays Anna 124.00 EUR" in texts[1]
    letter = run_cli(
        ["export", "pdf", "--paper", "letter", "-o", "l.pdf", "--file", str(ledger)], cwd=tmp_path
    )
    assert letter.returncode == 0, letter.stderr
    assert float(PdfReader(tmp_path / "l.pdf").pages[0].mediabox.width) == 792.0
    bad = run_cli(["export", "pdf", "--paper", "a5", "--file", str(ledger)], cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip() == "prefcalc: error: --paper is a4 or letter, not 'a5'"


def test_cli_warns_when_no_font_draws_a_name(tmp_path: Path) -> None:
    # U+0378 is unassigned: no font on any machine has a glyph for it
    game = renamed(sample_game(), {"Vera": "Ve\u0378ra"})
    path = tmp_path / "odd.json"
    path.write_text(game_to_json_text(game), encoding="utf-8")
    result = run_cli(["export", "pdf", "-o", "odd.pdf", "--file", str(path)], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    # an unprintable character is shown escaped, as Python's repr() does
    assert result.stderr.startswith("prefcalc: warning: no font can draw 'Ve\\u0378ra'")
    assert result.stderr.count("\n") == 1
    assert "Ve?ra" in page_texts(tmp_path / "odd.pdf")[0]


def test_cli_blank(tmp_path: Path) -> None:
    result = run_cli(
        ["blank", "--players", "4", "-o", "b.pdf", "--name", "Анна", "--name", "İğdır"],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    text = page_texts(tmp_path / "b.pdf")
    assert len(text) == 1 and "Анна" in text[0] and "İğdır" in text[0]
    default = run_cli(["blank"], cwd=tmp_path)
    assert default.returncode == 0, default.stderr
    assert (tmp_path / "pulka.pdf").read_bytes()[:5] == b"%PDF-"
