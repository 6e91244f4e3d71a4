"""Every refusal in Russian (issue 20): the cases of test_cli_errors run again under
``LANG=ru_RU.UTF-8`` are refused the same way (exit 2, one line, every file untouched), in
Russian words; English stays byte for byte the same under ``LANG=C`` (test_cli_errors)."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

import pytest

from prefcalc import api
from prefcalc.errors import PrefcalcError
from prefcalc.i18n import voice
from tests.support import invoke, make_game
from tests.test_cli_errors import CASES, NEW_CASES, _ledger

RU = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}
C = {"LANG": "C", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}

ENGLISH = re.compile(
    r"\b(deal|deals|dealer|declarer|defender|defenders|whist|whists|whister|pass|passed|"
    r"half-whist|all-pass|pool|mountain|misère|tricks?|player|players|contract|must|cannot|"
    r"unknown|error|the|is|not|and|or|needs?)\b",
    re.IGNORECASE,
)


def _words(line: str) -> str:
    """What prefcalc said in its own words: the user's text it quotes back ('…'), option
    names (--dealer), field paths (deals[3].dark), key = value settings and the command
    words of the grammar are left out."""
    line = re.sub(r"'[^']*'", "", line)
    line = re.sub(r"expected [^(]*", "", line)  # pydantic's own words (rules/options.py)
    line = line.replace(os.strerror(errno.ENOENT), "")  # the system's words
    line = re.sub(r"--[\w-]+", "", line)
    line = re.sub(r"\b[\w.]+\[\d+\][\w.\[\]]*", "", line)
    line = re.sub(r"\b[\w.]+ = \w+", "", line)
    return re.sub(r"\b(prefcalc|use|new|delete|join|insert|edit|undo|redo|set)\b", "", line)


@pytest.mark.parametrize(
    ("players", "convention", "target", "lines", "command", "phrase"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_every_refusal_is_one_russian_line(
    tmp_path: Path,
    players: list[str],
    convention: str,
    target: int,
    lines: list[str],
    command: list[str],
    phrase: str,
) -> None:
    ledger = _ledger(tmp_path, players, lines, convention, target)
    before = ledger.read_bytes()
    result = invoke([*command, "--file", str(ledger)], tmp_path, env=RU)
    assert result.returncode == 2, result.stdout + result.stderr
    out = result.stderr.strip().splitlines()
    assert len(out) == 1, result.stderr
    assert out[0].startswith("prefcalc: ошибка: ")
    if "Invalid value for" in out[0]:  # the words of the command-line library
        return
    assert re.search("[а-яё]", out[0].removeprefix("prefcalc: ошибка: "))
    assert ENGLISH.findall(_words(out[0])) == [], out[0]
    assert ledger.read_bytes() == before


@pytest.mark.parametrize(
    ("command", "phrase"), [c[1:] for c in NEW_CASES], ids=[c[0] for c in NEW_CASES]
)
def test_a_refused_new_game_in_russian(tmp_path: Path, command: list[str], phrase: str) -> None:
    ledger = tmp_path / "game.json"
    result = invoke([*command, "--file", str(ledger)], tmp_path, env=RU)
    assert result.returncode == 2
    out = result.stderr.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("prefcalc: ошибка: "), result.stderr
    assert ENGLISH.findall(_words(out[0])) == [], out[0]
    assert not ledger.exists()


def test_hand_worded_russian_errors() -> None:
    game = make_game(["Аня", "Боря", "Вера"], ["game Аня 7h 7 Боря:w Вера:p"])
    with voice(lang="ru"):
        with pytest.raises(PrefcalcError) as caught:
            api.record(game, "game Аня 7h 11 Боря:w Вера:p")
        assert str(caught.value) == "взятки играющего: от 0 до 10, а не 11"
        with pytest.raises(PrefcalcError) as caught:
            api.delete(game, 5)
        assert str(caught.value) == "нет раздачи 5 (записей в игре: 1)"
        with pytest.raises(PrefcalcError) as caught:
            api.record(game, "game Гена 7h 7 Боря:w Вера:p")
        assert str(caught.value) == "неизвестный игрок «Гена» (игроки: Аня, Боря, Вера)"
        with pytest.raises(PrefcalcError) as caught:
            api.new_game(["Аня", "Боря", "Вера"], whist_price="дёшево")
        assert str(caught.value) == "цена виста: должно быть числом, а не «дёшево»"
    with voice(lang="en"):
        with pytest.raises(PrefcalcError) as caught:
            api.delete(game, 5)
        assert str(caught.value) == "there is no deal 5 (the game has 1 deal)"


def test_english_plurals_unchanged_under_lang_c(tmp_path: Path) -> None:
    ledger = _ledger(
        tmp_path,
        ["Anna", "Boris", "Vera"],
        ["passes Anna=2 Boris=5 Vera=3", "passes Anna=2 Boris=5 Vera=3"],
        "sochi",
        20,
    )
    result = invoke(["delete", "7", "--file", str(ledger)], tmp_path, env=C)
    assert result.stderr == "prefcalc: error: there is no deal 7 (the game has 2 deals)\n"
    result = invoke(["delete", "7", "--file", str(ledger)], tmp_path, env=RU)
    assert result.stderr == "prefcalc: ошибка: нет раздачи 7 (записей в игре: 2)\n"


# --- a file no parser can read --------------------------------------------------------------

CORRUPT = [
    (b'{"schema": 2, "players": ["a"', "текст обрывается (строка 1, столбец 29)"),
    (b"xx", "значение не читается (строка 1, столбец 1)"),
    (b'{"schema": 2} x', "лишний текст после конца значения (строка 1, столбец 15)"),
    (b"{schema: 2}", "ключ не в двойных кавычках (строка 1, столбец 2)"),
    (b'{"schema" 2}', "после ключа нет двоеточия (строка 1, столбец 11)"),
    (b'{"players": ["a" "b"]}', "не хватает запятой или закрывающей скобки (строка 1, столбец 18)"),
    (b'{"players": ["a",]}', "лишняя запятая перед закрывающей скобкой (строка 1, столбец 18)"),
    (b'{"players": ["\\q"]}', "неверный символ после обратной косой черты в строке"),
]


@pytest.mark.parametrize(("raw", "said"), CORRUPT, ids=[str(k) for k in range(len(CORRUPT))])
def test_a_corrupt_ledger_is_said_in_russian_where_it_breaks(
    tmp_path: Path, raw: bytes, said: str
) -> None:
    """What the JSON parser says (pydantic's English: «EOF while parsing a list at line 1
    column 29») is said in Russian, with the line and column; English keeps the parser's
    words, byte for byte."""
    ledger = tmp_path / "g.json"
    ledger.write_bytes(raw)
    result = invoke(["show", "--file", str(ledger)], tmp_path, env=RU)
    assert result.returncode == 2
    assert result.stderr.startswith(f"prefcalc: ошибка: {ledger}: журнал повреждён: {said}")
    assert result.stderr.count("\n") == 1 and not ENGLISH.search(_words(result.stderr))
    assert not re.search(r"[a-z]{3,}", result.stderr.split("журнал повреждён:")[1])
    english = invoke(["show", "--file", str(ledger)], tmp_path, env=C)
    assert english.stderr.startswith(f"prefcalc: error: {ledger}: the ledger is corrupt: ")
    assert " at line 1 column " in english.stderr
    assert ledger.read_bytes() == raw


def test_a_ledger_without_a_schema_is_not_shown_back_as_its_schema(tmp_path: Path) -> None:
    ledger = tmp_path / "g.json"
    ledger.write_text('{"players": 5}', encoding="utf-8")
    result = invoke(["show", "--file", str(ledger)], tmp_path, env=RU)
    assert result.stderr == (
        f"prefcalc: ошибка: {ledger}: это не журнал prefcalc (в нём нет номера схемы)\n"
    )


def test_every_parser_message_has_its_russian_words() -> None:
    """The three parsers prefcalc reads with (pydantic's for ledgers and tournaments, the
    json module's for the server's request bodies, tomllib's for convention files): each
    message of a broken text is worded, not left as the generic «синтаксическая ошибка»."""
    import json
    import tomllib

    from pydantic import BaseModel, ValidationError

    from prefcalc.store.files import parser_reason

    class Model(BaseModel):
        a: list[int]

    said: list[str] = []
    with voice(lang="ru"):  # the reasons as a Russian table's server says them
        for text in [
            '{"a": [1',
            "xx",
            '{"a": [1]} x',
            "{a: 1}",
            '{"a" 1}',
            '{"a": [1 2]}',
            '{"a": "\x01"}',
            '{"a": "\\q"}',
            '{"a": -}',
            '{"a": tru}',
            "",
            '{"a":[1,]}',
        ]:
            with pytest.raises(ValidationError) as caught:
                Model.model_validate_json(text)
            said.append(parser_reason(str(caught.value.errors()[0]["ctx"]["error"])))
            with pytest.raises(json.JSONDecodeError) as decoded:
                json.loads(text)
            said.append(parser_reason(str(decoded.value)))
        for text in [
            "a",
            "a = ",
            "a = [1",
            'a = "x',
            "a = 1\na = 2",
            "a = 1 b",
            'a = "\x01"',
            'a = "\\q"',
            "a = {b=1",
        ]:
            with pytest.raises(tomllib.TOMLDecodeError) as toml:
                tomllib.loads(text)
            said.append(parser_reason(str(toml.value)))
    for line in said:
        assert "синтаксическая ошибка" not in line and not re.search(r"[a-z]{2,}", line), line
    with voice(lang="en"):
        assert parser_reason("EOF while parsing a list at line 1 column 8") == (
            "EOF while parsing a list at line 1 column 8"
        )
