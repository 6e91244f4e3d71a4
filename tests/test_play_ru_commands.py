"""Issue 26: a play line takes the commands as a Russian table says them (отмена, вернуть,
лист, журнал, расчёт, почему, удалить, исправить, вставить), Tab offers them, and a
mistyped one is told with the closest Russian word."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from prefcalc.commands import (
    Delete,
    Edit,
    Explain,
    Insert,
    Log,
    Redo,
    Show,
    Undo,
    parse_line,
)
from prefcalc.completion import LINE_STARTS
from prefcalc.rules.lexicon import WRITTEN
from prefcalc.rules.model import Game, SetTerm
from tests.support import invoke

RU = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}


def _game(tmp_path: Path) -> tuple[Path, Game]:
    from prefcalc.api import load

    path = tmp_path / "g.json"
    result = invoke(["new", "Аня", "Боря", "Вера", "--file", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    return path, load(path)


def test_each_russian_command_is_its_english_one(tmp_path: Path) -> None:
    _, game = _game(tmp_path)
    assert parse_line("отмена", game) == Undo()
    assert parse_line("Вернуть", game) == Redo()
    assert parse_line("лист", game) == Show()
    assert parse_line("журнал", game) == Log()
    assert parse_line("почему 1", game) == Explain(1)
    assert parse_line("удалить 2", game) == Delete(2)
    assert isinstance(parse_line("исправить 1 аня 6п 6 б:в в:п", game), Edit)
    assert isinstance(parse_line("вставить 1 рас 2 5 3", game), Insert)
    assert parse_line("расчёт", game) == parse_line("settle", game)
    assert parse_line("расчет", game) == parse_line("settle", game)


def test_tab_offers_the_russian_commands() -> None:
    for word in WRITTEN["commands"]["ru"].values():
        assert word in LINE_STARTS["ru"]
    assert "расчет" not in LINE_STARTS["ru"]  # расчет is read, расчёт offered


def test_a_russian_evening_with_russian_commands(tmp_path: Path) -> None:
    path, _ = _game(tmp_path)
    lines = "аня 6п 5 боря:в вера:п\nотмена\nвернуть\nжурнал\nпочему 1\nрасчёт\nотмнеа\n"
    result = invoke(["play", "--file", str(path)], tmp_path, env=RU, input=lines)
    out, err = result.stdout, result.stderr
    assert out.count("  Аня: +2 в гору — ремиз на 6♠ без 1: 1 × 2 = 2") == 3  # record, redo, почему
    assert "  Боря: +10 висты на Аню — висты на 6♠: 5 взяток × 2 = 10" in out
    assert "убрана раздача 1: Аня 6♠: 5 взяток; Боря вист, Вера пас" in out
    assert "возвращено: раздача 1" in out
    assert "Платежи:" in out
    assert err.strip() == (
        "prefcalc: ошибка: строка 7: «отмнеа» — не команда и не игрок (может быть, отмена?)"
    )


def test_the_terms_said_bare_and_an_unknown_one(tmp_path: Path) -> None:
    # ``пуля=30`` and ``цена=0,5`` are ``set target=30`` and ``set whist_price=0.5``; a key
    # that is no term at all is told as unknown, an option of the convention as fixed
    path, _ = _game(tmp_path)
    lines = "пуля=30\nцена=0,5\nset мизер=3\nset passes.exit=3\nцена=abc\n"
    result = invoke(["play", "--file", str(path)], tmp_path, env=RU, input=lines)
    assert "пуля теперь до 30" in result.stdout
    assert "цена виста теперь" in result.stdout
    from prefcalc.api import load

    terms = [e.deal for e in load(path).entries if isinstance(e.deal, SetTerm)]
    assert terms == [SetTerm("target", 30), SetTerm("whist_price", Fraction(1, 2))]
    assert result.stderr.splitlines() == [
        "prefcalc: ошибка: строка 3: нет параметра «мизер»: set меняет пулю и цену виста"
        " (set пуля=N или set цена=N)",
        "prefcalc: ошибка: строка 4: «passes.exit» посреди игры не меняется: set меняет только"
        " пулю и цену виста (set пуля=N или set цена=N)",
        result.stderr.splitlines()[2],
    ]
    assert result.stderr.splitlines()[2].startswith("prefcalc: ошибка: строка 5: цена виста")
    english = invoke(["play", "--file", str(path)], tmp_path, input="set misere=3\n")
    assert english.stderr.strip() == (
        "prefcalc: error: line 1: there is no 'misere' to set (set target=N or set whist_price=N)"
    )


def test_settle_in_russian_words_and_refusals_that_name_the_russian_command(
    tmp_path: Path,
) -> None:
    path, game = _game(tmp_path)
    assert parse_line("расчёт средняя целые", game) == parse_line("settle average whole", game)
    assert parse_line("расчёт попарно точно", game) == parse_line("settle", game)
    lines = "расчёт быстро\nлист 3\nудалить\nисправить\nzzz\n"
    result = invoke(["play", "--file", str(path)], tmp_path, env=RU, input=lines)
    assert result.stderr.splitlines() == [
        "prefcalc: ошибка: строка 1: расчёт бывает попарно или средняя, точно или целые,"
        " а не «быстро»",
        "prefcalc: ошибка: строка 2: после «лист» ничего не пишут, а здесь «3»",
        "prefcalc: ошибка: строка 3: пишите: удалить N",
        "prefcalc: ошибка: строка 4: исправить N <раздача>, например исправить 3 аня 7ч 6"
        " боря:в вера:п",
        "prefcalc: ошибка: строка 5: «zzz» — не команда и не игрок (помощь — список команд)",
    ]


def test_a_change_of_terms_is_a_line_of_the_record_not_a_deal(tmp_path: Path) -> None:
    path, _ = _game(tmp_path)
    lines = "пуля=30\nотмена\nвернуть\nудалить 1\n"
    out = invoke(["play", "--file", str(path)], tmp_path, env=RU, input=lines).stdout
    assert "записано: №1: пуля теперь до 30\n  на листе — ничего\n" in out
    assert "убрана запись №1: пуля теперь до 30 (команда «вернуть» вернёт её)" in out
    assert "возвращено: №1: пуля теперь до 30" in out
    assert "удалена запись №1: пуля теперь до 30" in out
    assert "раздача 1" not in out


def test_the_russian_help_names_the_russian_commands(tmp_path: Path) -> None:
    path, _ = _game(tmp_path)
    out = invoke(["play", "--file", str(path)], tmp_path, env=RU, input="помощь\n").stdout
    for line in (
        "  отмена, вернуть ",
        "  вставить N <раздача> ",
        "  исправить N <раздача>, удалить N ",
        "  пуля=30, цена=0,5 ",
        "  лист, журнал, почему N ",
        "  расчёт [средняя] [целые] ",
        "  помощь, выход",
    ):
        assert line in out, line
