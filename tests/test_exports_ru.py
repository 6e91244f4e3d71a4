"""A Russian evening on paper and in the workbook (issue 20): the PDF's text (through
pdftotext) and the XLSX (through openpyxl) speak the table's Russian, keep their numbers as
numbers and their formulas working; English stays as it was under LANG=C."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import openpyxl
import pytest
from support import require_tool, run_cli

RU = {"LANG": "ru_RU.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "PREFCALC_LANG": ""}
EN = {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": "", "PREFCALC_LANG": ""}

EVENING = [
    ["game", "Аня", "7h", "7", "Боря:w", "Вера:p"],
    ["passes", "Аня=2", "Боря=5", "Вера=3"],
    ["game", "Боря", "8nt", "6", "Вера:w2", "Аня:w2"],
    ["misere", "Вера", "0"],
    ["game", "Аня", "6c", "6", "Боря:w", "Вера:p"],
]

#: English words of the game that must not be left in the Russian prose.
ENGLISH = re.compile(
    r"\b(pool|mountain|whists?|pass(es)?|misere|misère|all-pass|remise|deals?|tricks?|target|"
    r"settlement|payments?|result|method|player|dealer|page|sheet|nobody|pays|on|of)\b",
    re.IGNORECASE,
)


def _evening(tmp_path: Path, env: dict[str, str]) -> Path:
    game = tmp_path / "evening.json"
    args = ["new", "Аня", "Боря", "Вера", "--target", "10", "--whist-price", "0.5"]
    done = run_cli([*args, "--currency", "RUB", "--file", str(game)], tmp_path, env)
    assert done.returncode == 0, done.stderr
    for deal in EVENING:
        done = run_cli([*deal, "--file", str(game)], tmp_path, env)
        assert done.returncode == 0, done.stderr
    return game


def _pdf_text(tmp_path: Path, game: Path, env: dict[str, str]) -> str:
    pdftotext = require_tool("pdftotext", "pdftotext")
    pdf = tmp_path / "evening.pdf"
    done = run_cli(["export", "pdf", "--file", str(game), "-o", str(pdf)], tmp_path, env)
    assert done.returncode == 0, done.stderr
    return subprocess.run(
        [pdftotext, "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


def _prose(text: str) -> str:
    """The text without what is not prose: the tool's own name and the command it suggests."""
    return (
        text.replace("prefcalc explain N", "").replace("prefcalc", "").replace("docs/rules.md", "")
    )


def test_the_russian_pdf(tmp_path: Path) -> None:
    text = _pdf_text(tmp_path, _evening(tmp_path, RU), RU)
    for words in (
        "Пулька · Сочинка · пуля до 10 · 1 вист = 0,50 ₽",
        "игроки по часовой стрелке сверху: Аня, Боря, Вера · 5 раздач, игра идёт",
        "на Веру",
        "Итог, если закончить сейчас:",
        "Кто кому платит:",
        "страница 1 из 4",
        "Способ 1: попарно (висты друг на друга)",
        "Платежи",
        "Баланс по ходу вечера",
        "Журнал раздач",
        "что записано",
        "Аня 7♥: 7 взяток; Боря вист, Вера пас",
        "Боря 8БК: 6 взяток",
        "Вера мизер: 0 взяток",
        "Аня в пулю +4; Боря висты на Аню +12",
    ):
        assert words in text, words
    assert not ENGLISH.search(_prose(text)), ENGLISH.search(_prose(text))


def test_the_russian_workbook(tmp_path: Path) -> None:
    game = _evening(tmp_path, RU)
    path = tmp_path / "evening.xlsx"
    done = run_cli(["export", "xlsx", "--file", str(game), "-o", str(path)], tmp_path, RU)
    assert done.returncode == 0, done.stderr
    wb = openpyxl.load_workbook(path)
    values = openpyxl.load_workbook(path, data_only=True)
    assert wb.sheetnames == ["Раздачи", "Пуля", "Расчёт", "Правила"]
    deals = wb["Раздачи"]
    head = [c.value for c in deals[1]]
    assert head[:6] == ["№", "Время", "Сдающий", "Вид", "Играющий", "Игра"]
    assert "Аня: висты на Борю" in head and "Аня пуля" in head
    assert [deals.cell(r, 4).value for r in range(2, 7)] == [
        "игра",
        "распасы",
        "игра",
        "мизер",
        "игра",
    ]
    assert deals["F4"].value == "8БК"
    assert deals["B2"].number_format == "dd.mm.yyyy hh:mm"
    totals = wb["Пуля"]
    assert [c.value for c in totals[1]][:7] == [
        "Игрок",
        "Пуля",
        "Гора",
        "на Аню",
        "на Борю",
        "на Веру",
        "До закрытия",
    ]
    # the formulas name the Russian tabs (quoted) and their cached values are numbers:
    # Аня's pool 4 + 2 = 6, Вера's mountain 3 (all-pass)
    assert totals["B2"].value == "=SUM('Раздачи'!$R$2:$R$6)"
    assert values["Пуля"]["B2"].value == 6
    assert values["Пуля"]["C4"].value == 3
    settlement = wb["Расчёт"]
    assert settlement["A4"].value == "Цена виста"
    assert isinstance(values["Расчёт"]["B4"].value, float)
    money = [
        c.number_format for row in settlement.iter_rows() for c in row if "₽" in c.number_format
    ]
    assert money and all(f == '#,##0.00 "₽"' for f in money)
    rules = wb["Правила"]
    assert rules["B1"].value == "Сочинка"
    assert rules["C8"].value and not ENGLISH.search(rules["C8"].value)  # an option's meaning
    rules["B2"].value = None  # the preset's description is the preset file's, still English
    # an option's value in words, with what a user types for it (the ledger's own word)
    assert rules["B13"].value == "жлобский (greedy)"  # lone_whister
    assert rules["B11"].value == "да (true)"  # dealer_consolation
    assert rules["B17"].value == "нет (false)"  # mountain_first
    for row in rules.iter_rows(min_row=8, min_col=2, max_col=2):
        if isinstance(row[0].value, str):
            row[0].value = re.sub(r" \((?:[a-z_]+|\[\])\)$", "", row[0].value)
    texts = [
        c.value
        for ws in wb
        for row in ws.iter_rows()
        for c in row
        if isinstance(c.value, str) and not c.value.startswith("=")
    ]
    # the option keys and values of the Rules tab are the ledger's own names ('mountain')
    prose = [t for t in texts if t != "RUB" and not re.fullmatch(r"[a-z_.,\- 0-9]+", t)]
    for t in prose:
        assert not ENGLISH.search(re.sub(r"«[a-z_\-]+»", "", _prose(t))), t


def test_english_unchanged_under_lang_c(tmp_path: Path) -> None:
    text = _pdf_text(tmp_path, _evening(tmp_path, EN), EN)
    assert "Preference pool sheet · Sochi · target 10 · 1 whist = 0.50 RUB" in text
    assert "Journal" not in text and "Deal log" in text and "page 1 of 4" in text
    assert "on Вера" in text and "Who pays whom:" in text


@pytest.mark.parametrize("players", [3, 4])
def test_the_russian_blank_sheet(tmp_path: Path, players: int) -> None:
    pdftotext = require_tool("pdftotext", "pdftotext")
    path = tmp_path / "blank.pdf"
    done = run_cli(["blank", "--players", str(players), "-o", str(path)], tmp_path, RU)
    assert done.returncode == 0, done.stderr
    text = subprocess.run(
        [pdftotext, "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Пулька · правила ________ · пуля до ________ · 1 вист = ________" in text
    assert "игроки: имена на листе, по часовой стрелке сверху" in text
    assert not ENGLISH.search(_prose(text))


def test_the_russian_club_history(tmp_path: Path) -> None:
    pdftotext = require_tool("pdftotext", "pdftotext")
    game = _evening(tmp_path, RU)
    pdf, xlsx = tmp_path / "club.pdf", tmp_path / "club.xlsx"
    args = ["history", str(game), "--pdf", str(pdf), "--xlsx", str(xlsx)]
    done = run_cli(args, tmp_path, RU)
    assert done.returncode == 0, done.stderr
    text = subprocess.run(
        [pdftotext, "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for words in ("История клуба · 1 игра", "Таблица игроков", "Баланс за сезон", "Сочинка"):
        assert words in text, words
    assert not ENGLISH.search(_prose(text)), ENGLISH.search(_prose(text))
    wb = openpyxl.load_workbook(xlsx)
    assert wb.sheetnames == ["Игры", "Таблица игроков", "Баланс"]
    assert [c.value for c in wb["Игры"][1]][:7] == [
        "Дата",
        "Файл",
        "Правила",
        "Раздачи",
        "Состояние",
        "Валюта",
        "Игроки",
    ]
    assert wb["Игры"]["C2"].value == "Сочинка"
    assert wb["Игры"]["A2"].number_format == "dd.mm.yyyy hh:mm"
    assert isinstance(wb["Таблица игроков"]["B2"].value, int)


def test_the_workbook_describes_a_preset_in_russian(tmp_path: Path) -> None:
    game = _evening(tmp_path, RU)
    book = tmp_path / "evening.xlsx"
    done = run_cli(["export", "xlsx", "--file", str(game), "-o", str(book)], tmp_path, RU)
    assert done.returncode == 0, done.stderr
    rules = openpyxl.load_workbook(book)["Правила"]
    assert str(rules.cell(2, 2).value).startswith("самая осторожная конвенция")


def test_the_pdf_says_whose_game_it_is(tmp_path: Path) -> None:
    # issue 26: the document's properties were reportlab's «anonymous», «unspecified» and
    # 2000-01-01; they are the game's (its players, convention, the day it began), and the same
    # game still gives the same bytes
    pdfinfo = require_tool("pdfinfo", "pdfinfo")
    game = _evening(tmp_path, RU)
    created = re.search(r'"created": "([^"]+)"', game.read_text(encoding="utf-8"))
    assert created is not None
    outputs = []
    for name in ("a.pdf", "b.pdf"):
        done = run_cli(["export", "pdf", "--file", str(game), "-o", name], tmp_path, RU)
        assert done.returncode == 0, done.stderr
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]
    info = subprocess.run(
        [pdfinfo, "-isodates", str(tmp_path / "a.pdf")], capture_output=True, text=True, check=True
    ).stdout
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    fields = {k: v.strip() for k, v in fields.items()}
    assert fields["Author"] == "Аня, Боря, Вера"
    assert fields["Subject"] == "Преферанс, Сочинка"
    assert fields["Title"].startswith("Лист пули · ")
    assert fields["CreationDate"].startswith(created.group(1)[:16])
