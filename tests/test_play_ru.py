"""A play session in Russian (issue 20): the prompt, the answers, the notes and the errors
of a session speak Russian under ``LANG=ru_RU.UTF-8`` and English stays as it was."""

from __future__ import annotations

import re
from pathlib import Path

from prefcalc.i18n import voice
from prefcalc.play import Session
from tests.support import invoke

RU = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}

ENGLISH_GAME_WORDS = re.compile(
    r"\b(deal|deals|dealer|recorded|removed|whist|whists|pass|half-whist|all-pass|pool|"
    r"mountain|misère|misere|line|error|note|provisional|finished|sits out|undo if)\b"
)


def _new(tmp_path: Path, *players: str) -> Path:
    path = tmp_path / "g.json"
    result = invoke(["new", *(players or ("Аня", "Боря", "Вера")), "--file", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    return path


def _play(tmp_path: Path, path: Path, lines: str) -> tuple[int, str, str]:
    result = invoke(["play", "--file", str(path)], tmp_path, env=RU, input=lines)
    return result.returncode, result.stdout, result.stderr


def test_a_russian_evening_on_stdin(tmp_path: Path) -> None:
    path = _new(tmp_path)
    code, out, err = _play(
        tmp_path,
        path,
        "аня 7ч 7 б:в в:п\nаня 7ч 7 б:в в:п\nundo\nрас 2 5 3\nмизер вера 0\nhelp\nsettle\n",
    )
    assert code == 0, err
    assert err == ""
    lines = out.splitlines()
    assert lines[0].startswith("записано: раздача 1, сдающий Аня: Аня 7♥: 7 взяток;")
    assert "то же, что раздача 1: если введено дважды, отмените её (отмена, prefcalc undo)" in lines
    assert any(
        line.startswith("убрана раздача 2: Аня 7♥")
        and line.endswith("(команда «вернуть» вернёт её)")
        for line in lines
    )
    assert "(предварительно: пуля не закрыта, 3 раздачи)" in lines
    assert any(line.startswith("Строка — это раздача или команда") for line in lines)
    # the session's own words: no English word of the game is left in them (the scoring
    # reasons, lines starting with two spaces and a name, are translated elsewhere)
    own = [line for line in lines if not re.match(r"\s+\S+: [+−-]", line)]
    # (option names such as --mountain are typed as they are)
    leftovers = [line for line in own if ENGLISH_GAME_WORDS.search(re.sub(r"--[\w-]+", "", line))]
    assert leftovers == []


def test_a_refused_line_is_one_russian_error_and_exit_2(tmp_path: Path) -> None:
    path = _new(tmp_path)
    before = path.read_bytes()
    code, out, err = _play(tmp_path, path, "аня 7ч 11 б:в в:п\n")
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err == "prefcalc: ошибка: строка 1: взятки играющего: от 0 до 10, а не 11\n"
    assert path.read_bytes() == before


def test_a_line_too_long_and_not_utf8_in_russian(tmp_path: Path) -> None:
    path = _new(tmp_path)
    result = invoke(["play", "--file", str(path)], tmp_path, env=RU, input="x" * 5000 + "\n")
    assert result.returncode == 2
    assert "строка слишком длинная (5\xa0000 байт;" in result.stderr


def test_the_prompt_in_russian_at_three_four_and_five(tmp_path: Path) -> None:
    three = _new(tmp_path)
    with voice(lang="ru"):
        assert Session(three, print).prompt() == "[1 · сдаёт Аня · ≥6] > "
    four = tmp_path / "four.json"
    invoke(["new", "Аня", "Боря", "Вера", "Гена", "--file", str(four)], tmp_path)
    five = tmp_path / "five.json"
    invoke(["new", "Аня", "Боря", "Вера", "Гена", "Дима", "--file", str(five)], tmp_path)
    with voice(lang="ru"):
        assert Session(four, print).prompt() == "[1 · Аня на прикупе · ≥6] > "
        assert Session(five, print).prompt() == "[1 · Аня на прикупе, Боря тоже не играет · ≥6] > "
    with voice(lang="en"):
        assert Session(five, print).prompt() == "[1 · Аня deals, sits out with Боря · ≥6] > "


def test_english_is_unchanged_under_lang_c(tmp_path: Path) -> None:
    path = _new(tmp_path)
    result = invoke(
        ["play", "--file", str(path)],
        tmp_path,
        env={"LANG": "C", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None},
        input="аня 7ч 7 б:в в:п\nаня 7ч 7 б:в в:п\nfoo\n",
    )
    assert result.returncode == 2
    assert result.stdout.splitlines()[0].startswith(
        "recorded: deal 1, dealt by Аня: Аня 7♥ took 7;"
    )
    assert "same as deal 1 — undo if it was typed twice" in result.stdout.splitlines()
    assert result.stderr.startswith("prefcalc: error: line 3: ")
