"""Issue 32 item 3: one decision, one place. The table's words (suits, answers, kinds, commands,
penalties, methods, roundings, genders) are one table in both languages
(:mod:`prefcalc.rules.lexicon`), read by every front end; a settlement's method and rounding
are one type, one parser and one message; who holds cards is one function; the shorthand is
written once (:func:`prefcalc.rules.notation.describe`) in the language in use."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from prefcalc import api
from prefcalc.errors import DealError
from prefcalc.i18n import speaking
from prefcalc.rules import lexicon
from prefcalc.rules.model import ROLES, SUITS, active_players, play_order
from prefcalc.rules.notation import describe, parse_words
from tests.support import invoke

RU = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}
P3 = ("Аня", "Боря", "Вера")


# --- method and rounding: one parser, one message, every front end ------------------------------


@pytest.mark.parametrize(
    ("word", "method"),
    [
        ("pairwise", "pairwise"),
        ("Pairwise", "pairwise"),
        ("попарно", "pairwise"),
        ("попарный", "pairwise"),
        ("average", "average"),
        ("средняя", "average"),
        ("СРЕДНЕЙ", "average"),
        ("по средней", "average"),  # as the settlement names it under --lang ru
    ],
)
def test_a_method_in_either_language(word: str, method: str) -> None:
    assert lexicon.parse_method(word) == method


@pytest.mark.parametrize(
    ("word", "rounding"),
    [("exact", "exact"), ("точно", "exact"), ("точное", "exact"), ("whole", "whole"),
     ("целые", "whole"), ("до целых вистов", "whole")],
)  # fmt: skip
def test_a_rounding_in_either_language(word: str, rounding: str) -> None:
    assert lexicon.parse_rounding(word) == rounding


def test_an_unknown_method_is_one_message_in_both_languages() -> None:
    with pytest.raises(DealError, match=r"^unknown method 'fair' \(use pairwise or average\)$"):
        lexicon.parse_method("fair")
    with speaking("ru"), pytest.raises(DealError) as caught:
        lexicon.parse_rounding("round")
    assert str(caught.value) == "неизвестное округление «round» (точно или целые)"


def _ledger(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    assert invoke(["new", *P3, "--file", str(path)], tmp_path).returncode == 0
    for line in ("game Аня 7h 7 Боря:w Вера:p", "game Боря 6s 5 Вера:w Аня:p"):
        assert invoke([*shlex.split(line), "--file", str(path)], tmp_path).returncode == 0
    return path


def test_the_cli_takes_the_russian_words_play_takes(tmp_path: Path) -> None:
    """Issue 36: ``settle --method средняя`` was refused by the CLI while ``расчёт средняя``
    worked in ``play``."""
    path = _ledger(tmp_path)
    english = invoke(
        ["settle", "--json", "-m", "average", "-r", "whole", "--file", str(path)], tmp_path
    )
    for method, rounding in (("средняя", "целые"), ("по средней", "до целых вистов")):
        russian = invoke(
            ["settle", "--json", "--method", method, "--rounding", rounding, "--file", str(path)],
            tmp_path,
            env=RU,
        )
        assert russian.returncode == 0, russian.stderr
        assert json.loads(russian.stdout) == json.loads(english.stdout)
    refused = invoke(["settle", "--method", "медиана", "--file", str(path)], tmp_path, env=RU)
    assert refused.returncode == 2
    assert refused.stderr == (
        "prefcalc: ошибка: неизвестный способ расчёта «медиана» (попарно или средняя)\n"
    )


def test_the_pages_and_the_app_read_the_method_by_the_same_parser(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from prefcalc.app import engine
    from prefcalc.web import create_app

    path = _ledger(tmp_path)
    expected = api.settle(api.load(path), "average", "whole")
    with TestClient(create_app(path, "t" * 32, poll_interval=None)) as client:
        answer = client.get("/api/settle", params={"method": "средняя", "rounding": "целые"})
        assert answer.status_code == 200
        assert answer.json()["method"] == expected.method == "average"
        refused = client.get("/api/settle", params={"method": "медиана"})
        assert refused.status_code == 422
        assert refused.json() == {"error": "unknown method 'медиана' (use pairwise or average)"}
    root = tmp_path / "games"
    root.mkdir()
    (root / "g.json").write_bytes(path.read_bytes())
    answer = json.loads(
        engine.handle(
            json.dumps(
                {"op": "settle", "args": {"name": "g", "method": "средняя", "rounding": "целые"}}
            ),
            root,
        )
    )
    assert answer["ok"] and answer["result"]["method"] == "average"
    refused = json.loads(
        engine.handle(json.dumps({"op": "settle", "args": {"name": "g", "method": 7}}), root)
    )
    assert not refused["ok"] and "unknown method '7'" in refused["error"]


def test_play_settles_in_the_words_it_prints(tmp_path: Path) -> None:
    path = _ledger(tmp_path)
    lines = "расчёт по средней до целых вистов\nрасчёт средняя целые\n"
    result = invoke(["play", "--file", str(path)], tmp_path, env=RU, input=lines)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.split("Расчёт")[1:]
    assert first.splitlines()[0] == second.splitlines()[0]
    assert first.startswith(" по средней горе (способ 2), округление: до целых вистов")


# --- the table's words ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_word_prefcalc_prints_for_a_thing_reads_back_as_it(lang: str) -> None:
    from prefcalc import terms

    with speaking(lang):
        for role in ROLES:
            for said in (terms.role(role), terms.role(role).upper()):
                assert lexicon.role_of(said) == role, said
        assert lexicon.role_of(terms.role("h", alone=True)) == "h"  # Gusarik's: уходит на свои
        assert lexicon.kind_of(terms.misere()) == "misere"
        assert lexicon.kind_of(terms.all_pass()) == "passes"
        assert lexicon.suit_of(terms.no_trumps()) == "nt"
        for suit in SUITS:
            assert lexicon.suit_of(terms.suit(suit)) == suit
        for method in ("pairwise", "average"):
            assert lexicon.parse_method(lexicon.said("methods", method)) == method
        for rounding in ("exact", "whole"):
            assert lexicon.parse_rounding(lexicon.said("roundings", rounding)) == rounding


def test_every_written_word_is_read_in_both_languages_whatever_is_spoken() -> None:
    for category, languages in lexicon.WRITTEN.items():
        for words in languages.values():
            for key, word in words.items():
                for spoken in ("en", "ru"):
                    with speaking(spoken):
                        assert lexicon.read(category, word) == key, (category, word)
                        assert lexicon.read(category, word.upper()) == key, (category, word)


def test_the_pages_are_served_the_table_in_their_language() -> None:
    from prefcalc.views.words import script_words

    russian = script_words("ru")["table"]
    assert russian == {
        "suits": {"s": "п", "c": "т", "d": "б", "h": "ч", "nt": "бк"},
        "roles": {"w": "в", "p": "п", "h": "пв", "r": "вернул"},
        "kinds": {"game": "игра", "misere": "мизер", "passes": "распасы"},
        "commands": {
            "undo": "отмена", "redo": "вернуть", "insert": "вставить", "edit": "исправить",
            "delete": "удалить", "show": "лист", "log": "журнал", "settle": "расчёт",
            "explain": "почему", "player": "пол", "help": "помощь", "quit": "выход",
        },
    }  # fmt: skip
    english = script_words("en")["table"]
    assert english["suits"] == {s: s for s in SUITS} and english["roles"] == {r: r for r in ROLES}
    assert english["kinds"] == {"game": "game", "misere": "misere", "passes": "passes"}
    assert english["commands"]["edit"] == "edit" and english["commands"]["insert"] == "insert"


@pytest.mark.parametrize(
    "line",
    [
        "game Аня 7h 7 Боря:w Вера:p --dark --no-talon",
        "game Аня 6s - Боря:h Вера:r",
        "game Аня 8nt 8 Боря:w1 Вера:w1 --looked Боря",
        "misere Аня 0 --bomb 4",
        "passes Аня=2 Боря=5 Вера=3 --blind Аня,Вера --looked Вера",
        "adjust Аня --pool 2 --whists Боря=3 --note 'пересдача, без записи'",
        "penalty Аня cards 8h 2",
        "penalty Аня entry 8 Боря",
        "set target=30",
        "set whist_price=0.5",
        "join Дима --after Вера",
        "preference Аня",
    ],
)
def test_the_one_writer_of_the_shorthand_reads_back_in_both_languages(line: str) -> None:
    players = (*P3, "Дима")
    deal = parse_words(shlex.split(line), players)
    english, russian = describe(deal, "en"), describe(deal, "ru")
    assert english == line
    with speaking("ru"):
        assert describe(deal) == russian  # the language in use
    for text in (english, russian):
        assert parse_words(shlex.split(text), players) == deal, text


def test_the_russian_shorthand_of_each_kind() -> None:
    deal = parse_words(shlex.split("game Аня 6s - Боря:h Вера:r"), P3)
    assert describe(deal, "ru") == "игра Аня 6п - Боря:пв Вера:вернул"
    assert describe(parse_words(["set", "whist_price=0.5"], P3), "ru") == "цена=0.5"
    assert describe(parse_words(["adjust", "Аня", "--mountain", "5", "--note", "x"], P3), "ru") == (
        "поправка Аня --mountain 5 --note x"
    )
    assert describe(parse_words(["penalty", "Аня", "peek"], P3), "ru") == "штраф Аня прикуп 5"


# --- who holds cards -------------------------------------------------------------------------


def test_who_holds_cards_and_the_order_they_play() -> None:
    three, four, five = ("A", "B", "C"), ("A", "B", "C", "D"), ("A", "B", "C", "D", "E")
    assert active_players(three, "B") == three and play_order(three, "B") == ("C", "A", "B")
    assert active_players(four, "B") == ("A", "C", "D")
    assert play_order(four, "B") == ("C", "D", "A")
    assert play_order(four, "B", talon=True) == ("C", "D", "A", "B")  # his talon tricks last
    assert active_players(five, "D") == ("A", "B", "C")  # D deals, E sits out with him
    assert play_order(five, "D") == ("A", "B", "C") and play_order(five, "B") == ("D", "E", "A")
    assert play_order(five, "B", talon=True) == ("D", "E", "A", "B")  # not C, the next dealer
    assert play_order(("A", "B"), "A") == ("B", "A")  # Gusarik
    assert play_order(three, None) == three
    game = api.join(api.new_game(list(three), "sochi"), "D")
    assert active_players(game, "A") == ("B", "C", "D")  # a game: its seating after the join
