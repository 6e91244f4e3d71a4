"""A Russian evening through the CLI (in process): no player's name stands in the nominative
after a preposition or a verb that governs a case (висты на Борю, Аня платит Вере, поправка
для Веры, с Ани), in play, show, log, explain, settle and the workbook's labels; English
writes the names as typed, as it always has."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from tests.support import invoke

PLAYERS = ("Аня", "Боря", "Вера", "Гена")
NAMES = (*PLAYERS, "Дима")
RU = {"PREFCALC_LANG": "ru"}
EN = {"PREFCALC_LANG": "en"}

LINES = [
    "боря 7ч 7 вера:в гена:п",
    "вера 6п 5 гена:в3 аня:в2",
    "мизер гена 1",
    "распасы 3 4 3",
    "распасы 2 2 6",
    "аня 8бк 6 вера:в гена:п",
    'adjust Вера --mountain 2,5 --whists Боря=1,5 --note "подсмотрела"',
    "гена 6б - аня:п боря:п",
    "join Дима --after Вера",
    "аня 6т 6 боря:в вера:п",
    "set whist_price=0,25",
]

GOVERNING = (
    "на",
    "для",
    "у",
    "от",
    "с",
    "со",
    "к",
    "ко",
    "о",
    "об",
    "за",
    "после",
    "против",
    "игроку",
    "игрока",
    "помощь",
    "платит",
    "платят",
    "пишет",
)
"""Words after which a name takes another case than the nominative."""


def nominative_after_governing_words(text: str, names: tuple[str, ...]) -> list[str]:
    """Each place in ``text`` where a name stands as typed right after a word of
    :data:`GOVERNING` (``висты на Боря``, ``платит Вера``); the names must be ones whose
    other cases differ from the nominative."""
    pattern = re.compile(
        r"(?<![\w-])(?:"
        + "|".join(GOVERNING)
        + r") +(?:"
        + "|".join(map(re.escape, names))
        + r")(?![\w-])",
        re.IGNORECASE,
    )
    return [m.group(0) for line in text.splitlines() for m in pattern.finditer(line)]


def test_the_check_finds_what_a_reader_would_correct() -> None:
    wrong = "висты на Боря; Аня платит Вера 5 ₽; поправка для Вера; +2 с игрока Аня; На Гена"
    assert nominative_after_governing_words(wrong, NAMES) == [
        "на Боря",
        "платит Вера",
        "для Вера",
        "игрока Аня",
        "На Гена",
    ]
    right = (
        "висты на Борю; Аня на прикупе; сдаёт Гена; Аня платит Вере; после Веры; Аня: 12; Вера-Боря"
    )
    assert nominative_after_governing_words(right, NAMES) == []


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    where = tmp_path_factory.mktemp("evening")
    game = where / "g.json"
    new = ["new", *PLAYERS, "--file", str(game), "--whist-price", "0,5", "--currency", "RUB"]
    done = invoke([*new, "--target", "10"], where, RU)
    assert done.returncode == 0, done.stderr
    played = invoke(["play", "--file", str(game)], where, RU, input="\n".join(LINES) + "\n")
    assert played.returncode == 0, played.stderr
    return where, game, played.stdout


def _run(evening: tuple[Path, Path, str], *args: str, env: dict[str, str] = RU) -> str:
    where, game, _ = evening
    done = invoke([*args, "--file", str(game)], where, env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_russian_evening_declines_every_name(evening: tuple[Path, Path, str]) -> None:
    texts = {"play": evening[2]}
    for args in (
        ("show",),
        ("log",),
        ("settle",),
        ("settle", "-m", "average"),
        ("settle", "--compare"),
        ("settle", "--rounding", "whole"),
        *(("explain", str(n)) for n in range(1, len(LINES) + 1)),
    ):
        texts[" ".join(args)] = _run(evening, *args)
    everything = "\n".join(texts.values())
    for name, text in texts.items():
        assert nominative_after_governing_words(text, NAMES) == [], name
    for phrase in (
        "Вера: +12 висты на Борю — висты на 7♥: 3 взятки × 4 = 12",
        "Гена: +6 висты на Веру",
        "Вера: +24 висты на Аню",
        "поправка для Веры: подсмотрела",
        "Вера: +1½ висты на Борю",
        "Дима садится за стол после Веры",
        "на Аню: ",
        " с Ани",
        "Аня платит Боре ",
    ):
        assert phrase in everything, phrase


def test_the_workbook_labels_decline_the_names(evening: tuple[Path, Path, str]) -> None:
    where, game, _ = evening
    path = where / "evening.xlsx"
    done = invoke(["export", "xlsx", "--file", str(game), "-o", str(path)], where, RU)
    assert done.returncode == 0, done.stderr
    book = openpyxl.load_workbook(path)
    labels = [
        str(cell.value)
        for sheet in book.worksheets
        for row in sheet.iter_rows(max_row=60)
        for cell in row
        if isinstance(cell.value, str) and not cell.value.startswith("=")
    ]
    assert "Вера: висты на Борю" in labels and "на Аню" in labels
    assert nominative_after_governing_words("\n".join(labels), NAMES) == []


def test_english_writes_the_names_as_typed(evening: tuple[Path, Path, str]) -> None:
    explain = _run(evening, "explain", "1", env=EN)
    assert "Вера: +12 whists on Боря — whists on 7♥: 3 tricks × 4 = 12" in explain
    settle = _run(evening, "settle", env=EN)
    assert "Аня pays Боря " in settle
    assert "adjustment for Вера: подсмотрела" in _run(evening, "log", env=EN)
