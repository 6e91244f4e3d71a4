"""Issue 36: the ledger's refusals name its fields in the reader's words, and the smaller
refusals (item 6) say what happened: a text cut short breaks off, an empty file is empty,
tomllib's errors have words, a file named ``.`` or ``/`` is named. Each in both languages,
and each file left as it was."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from prefcalc.store.ledger import game_to_json_text
from tests.russian_words import latin_words
from tests.support import invoke, make_game

RU = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}
EN = {"LANG": "C.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}

DEALS = [
    "game Аня 7h 7 Боря:w Вера:p",
    "passes Аня=2 Боря=5 Вера=3",
    "adjust Вера --mountain 2 --note 'подсмотрела'",
    "set whist_price=2",
]

Mutation = Callable[[dict[str, Any]], object]


def _ledger(tmp_path: Path, change: Mutation) -> Path:
    data = json.loads(game_to_json_text(make_game(["Аня", "Боря", "Вера"], DEALS)))
    change(data)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _refusal(tmp_path: Path, path: Path, env: dict[str, Any]) -> str:
    before = path.read_bytes()
    result = invoke(["show", "--file", str(path)], tmp_path, env=env)
    assert result.returncode == 2 and result.stdout == "", result.stdout
    assert result.stderr.count("\n") == 1, result.stderr
    assert path.read_bytes() == before
    return result.stderr.removesuffix("\n")


# (id, mutation, the Russian line after the file's name, the English one)
FIELDS: list[tuple[str, Mutation, str, str]] = [
    (
        "whist price as a float",
        lambda d: d.update(whist_price=0.5),
        "цена виста (whist_price): нужно целое число или точное число текстом («2.5», «5/3»),"
        " а не 0.5",
        'whist_price: expected a whole number or an exact number as text ("2.5", "5/3"), not 0.5',
    ),
    (
        "tricks as text",
        lambda d: d["deals"][0].update(tricks="7"),
        'запись №1, взятки (deals[0].tricks): нужно целое число, получено "7"',
        'deals[0].tricks: input should be a valid integer, got "7" (deal 1)',
    ),
    (
        "a defender's role",
        lambda d: d["deals"][0]["defenders"][1].update(role="x"),
        "запись №1, защитник 2, ответ (deals[0].defenders[1].role): можно «w», «p», «h» или «r»,"
        ' получено "x"',
        "deals[0].defenders[1].role: input should be 'w', 'p', 'h' or 'r', got \"x\" (deal 1)",
    ),
    (
        "an all-pass player's tricks",
        lambda d: d["deals"][1]["tricks"].update({"Вера": -1}),
        "запись №2, взятки, Вера (deals[1].tricks.Вера): нужно не меньше 0, получено -1",
        "deals[1].tricks.Вера: input should be greater than or equal to 0, got -1 (deal 2)",
    ),
    (
        "a change of terms with a dealer",
        lambda d: d["deals"][3].update(dealer="Аня"),
        "запись №4, сдающий (deals[3].dealer): у смены условий (set) нет сдающего",
        "deals[3].dealer: a change of terms (set) has no dealer (deal 4)",
    ),
    (
        "a deal without its kind",
        lambda d: d["deals"][2].pop("kind"),
        "запись №3 (deals[2]): не указано поле «kind»",
        "deals[2]: unable to extract tag using discriminator 'kind' (deal 3)",
    ),
    (
        "one player",
        lambda d: d.update(players=["Аня"]),
        'игроки (players): нужно не меньше 2, а не 1, получено ["Аня"]',
        'players: tuple should have at least 2 items after validation, not 1, got ["Аня"]',
    ),
    (
        "a long currency",
        lambda d: d.update(currency="рубли с копейками"),
        'валюта (currency): можно не больше 8 знаков, получено "рубли с копейками"',
        'currency: string should have at most 8 characters, got "рубли с копейками"',
    ),
    (
        "a gender",
        lambda d: d.update(genders={"Аня": "x"}),
        'род имён, Аня (genders.Аня): можно «m» или «f», получено "x"',
        "genders.Аня: input should be 'm' or 'f', got \"x\"",
    ),
    (
        "an unknown field of a deal",
        lambda d: d["deals"][0].update(colour="red"),
        "запись №1 (deals[0].colour): неизвестное поле (prefcalc не хранит полей, которых не"
        " знает: удалите его)",
        "deals[0].colour: unknown field (prefcalc keeps no field it does not know: remove it)"
        " (deal 1)",
    ),
    (
        "the schema as true",
        lambda d: d.update(schema=True),
        "это не журнал prefcalc (схема true, ожидалась 1 или 2)",
        "not a prefcalc ledger (schema true, expected 1 or 2)",
    ),
]


@pytest.mark.parametrize(
    ("change", "russian", "english"), [c[1:] for c in FIELDS], ids=[c[0] for c in FIELDS]
)
def test_a_refused_field_is_named_in_the_readers_words(
    tmp_path: Path, change: Mutation, russian: str, english: str
) -> None:
    path = _ledger(tmp_path, change)
    said = _refusal(tmp_path, path, RU)
    assert said == f"prefcalc: ошибка: {path}: {russian}"
    place = said.split(": ", 2)[2].split(" (deals")[0].split(" (")[0]
    assert latin_words(place) == [], place  # the path is for finding the field in the file
    assert _refusal(tmp_path, path, EN) == f"prefcalc: error: {path}: {english}"


@pytest.mark.parametrize("raw", [b"", b" \n\t ", b"\xef\xbb\xbf"], ids=["empty", "blank", "BOM"])
def test_an_empty_ledger_is_said_to_be_empty(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "g.json"
    path.write_bytes(raw)
    assert _refusal(tmp_path, path, RU) == f"prefcalc: ошибка: {path}: файл пуст"
    assert _refusal(tmp_path, path, EN) == f"prefcalc: error: {path}: the file is empty"


def test_an_empty_convention_file_is_said_to_be_empty(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text("# nothing yet\n\n", encoding="utf-8")
    result = invoke(["rules", str(path)], tmp_path, env=RU)
    assert result.returncode == 2
    # a comment alone is no rule either: TOML reads it as an empty table
    assert "не хватает параметров" in result.stderr
    path.write_text(" \n", encoding="utf-8")
    for env, said in (
        (RU, "prefcalc: ошибка: {}: файл пуст"),
        (EN, "prefcalc: error: {}: the file is empty"),
    ):
        result = invoke(["rules", str(path)], tmp_path, env=env)
        assert (result.returncode, result.stderr) == (2, said.format(path) + "\n")


# a TOML text, the Russian reason after «это не TOML: », the English after "not valid TOML: "
TOML: list[tuple[str, str, str]] = [
    ("a = ", "текст обрывается (в конце текста)", "the text breaks off (at the end of the text)"),
    ("[table", "текст обрывается (в конце текста)", "the text breaks off (at the end of the text)"),
    (
        "a = '''x",
        "текст обрывается (в конце текста)",
        "the text breaks off (at the end of the text)",
    ),
    (
        "[[a]\nb = 1",
        "у названия таблицы нет закрывающей скобки (строка 1, столбец 4)",
        "Expected ']]' at the end of an array declaration (at line 1, column 4)",
    ),
    (
        "a = {b = 1, b = 2}\nc = 1",
        "ключ задан дважды (строка 1, столбец 18)",
        "Duplicate inline table key 'b' (at line 1, column 18)",
    ),
    (
        "a = {b = 1}\na.c = 2\nd = 1",
        "ключ задан дважды (строка 2, столбец 8)",
        "Cannot mutate immutable namespace ('a',) (at line 2, column 8)",
    ),
    (
        'a = "\\uD800"',
        "неверный символ после обратной косой черты в строке (строка 1, столбец 12)",
        "Escaped character is not a Unicode scalar value (at line 1, column 12)",
    ),
    (
        "= 1",
        "строка не вида «ключ = значение» и не [таблица] (строка 1, столбец 1)",
        "Invalid statement (at line 1, column 1)",
    ),
    (
        "a = 1979-02-30",
        "дата не читается (строка 1, столбец 5)",
        "Invalid date or datetime (at line 1, column 5)",
    ),
]


@pytest.mark.parametrize(("text", "russian", "english"), TOML, ids=[t[0] for t in TOML])
def test_every_toml_error_is_worded(tmp_path: Path, text: str, russian: str, english: str) -> None:
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    result = invoke(["rules", str(path)], tmp_path, env=RU)
    assert result.stderr == f"prefcalc: ошибка: {path}: это не TOML: {russian}\n"
    result = invoke(["rules", str(path)], tmp_path, env=EN)
    assert result.stderr == f"prefcalc: error: {path}: not valid TOML: {english}\n"


@pytest.mark.parametrize(
    ("body", "russian", "english"),
    [
        (b"{", "текст обрывается (строка 1, столбец 2)", "the text breaks off (line 1, column 2)"),
        (
            b'{"line": "show",\n  ',
            "текст обрывается (строка 2, столбец 3)",
            "the text breaks off (line 2, column 3)",
        ),
        (
            b'{"line": "show",}',
            "ключ не в двойных кавычках (строка 1, столбец 17)",
            "Expecting property name enclosed in double quotes: line 1 column 17 (char 16)",
        ),
        (b"  ", "текст пуст", "the text is empty"),
    ],
    ids=["brace", "after a comma", "not cut", "blank"],
)
def test_a_request_body_cut_short_breaks_off(
    tmp_path: Path, body: bytes, russian: str, english: str
) -> None:
    from fastapi.testclient import TestClient

    from prefcalc.web import create_app

    token = "s3cret-token-0123456789"
    path = tmp_path / "g.json"
    path.write_text(game_to_json_text(make_game(["Аня", "Боря", "Вера"], DEALS)), encoding="utf-8")
    before = path.read_bytes()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    for lang, said in (
        ("ru", f"тело запроса — не JSON: {russian}"),
        ("en", f"the request body is not JSON: {english}"),
    ):
        app = create_app(path, token, lang=lang, poll_interval=None, hosts={"testserver"})
        with TestClient(app) as client:
            answer = client.post("/api/lines", content=body, headers=headers)
        assert (answer.status_code, answer.json()["error"]) == (422, said)
    assert path.read_bytes() == before


@pytest.mark.parametrize("where", [".", "/", "g.json", "/data/games/g.json"])
def test_a_page_names_the_file_it_refuses(where: str) -> None:
    from prefcalc.errors import LedgerError
    from prefcalc.views.words import refusal_line

    name = where.rsplit("/", 1)[-1] or where
    line = refusal_line(LedgerError("the ledger is not a regular file (it is a folder)", where))
    assert line == f"{name}: the ledger is not a regular file (it is a folder)"


def test_the_clis_own_refusals_name_what_and_where(tmp_path: Path) -> None:
    """A picture over the ledger is refused without sending the reader to an option the
    command does not have (share takes --png, not -o); a language is refused as --lang."""
    path = _ledger(tmp_path, lambda d: None)
    before = path.read_bytes()
    for env, said in (
        (
            RU,
            f"prefcalc: ошибка: {path}: нельзя записать картинку поверх журнала {path}: выберите другой файл",
        ),
        (
            EN,
            f"prefcalc: error: {path}: cannot write the image over the ledger {path}: choose another file",
        ),
    ):
        result = invoke(["share", "--png", str(path), "--file", str(path)], tmp_path, env=env)
        assert (result.returncode, result.stderr) == (2, said + "\n")
    assert path.read_bytes() == before
    for env, said in (
        (RU, "prefcalc: ошибка: --lang: неизвестный язык «de» (можно en или ru)"),
        (EN, "prefcalc: error: --lang: unknown language 'de' (use en or ru)"),
    ):
        result = invoke(
            ["new", "Аня", "Боря", "Вера", "--lang", "de", "--file", str(tmp_path / "n.json")],
            tmp_path,
            env=env,
        )
        assert (result.returncode, result.stderr) == (2, said + "\n")
    assert not (tmp_path / "n.json").exists()


def test_a_refused_option_quotes_its_value_in_the_languages_quotes(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('base = "sochi"\nlone_whister = "cheap"\n', encoding="utf-8")
    for env, said in (
        (RU, "параметр «lone_whister»: можно «greedy» или «gentleman» (получено «cheap»)"),
        (EN, "option 'lone_whister': input should be 'greedy' or 'gentleman' (got 'cheap')"),
    ):
        result = invoke(["rules", str(rules)], tmp_path, env=env)
        assert result.returncode == 2 and result.stderr.endswith(f"{rules}: {said}\n"), (
            result.stderr
        )
