"""Issue 36 item 1: read what you write. Every word prefcalc prints for an answer, a kind, a
command or a suit is read back, in both languages and in any case (``в:вист``, ``г:пас``,
``б:полвиста``, ``Г:ПАС``, ``распасы``, ``мизер``, ``поправка``); a deal as ``log`` prints it
is a line that records that deal again; a refusal names the player as the table declines
him («у Веры», not «у в»). Also issue 36 item 3's smaller points: a half-whisted game takes
its level as its tricks, the bare all-pass tricks work on a deal before a late arrival."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from prefcalc import api, commands
from prefcalc.cases import genders
from prefcalc.errors import NotationError
from prefcalc.i18n import speaking
from prefcalc.rules.model import Adjustment, Deal, Defender, Game, Penalty
from prefcalc.rules.notation import parse_defender, parse_words
from prefcalc.rules.readback import log_words
from prefcalc.views.log import deal_text
from tests.support import invoke

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
RU = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}
P3 = ["Аня", "Боря", "Вера"]
P4 = [*P3, "Гена"]


def _read_back(game: Game, k: int, text: str) -> Deal:
    """Entry ``k`` of ``game`` as the line ``text`` records it on the game before it (a play
    line, carried out as ``play`` does, with the entry's own dealer)."""
    before = game._replace(entries=game.entries[:k])
    entry = game.entries[k]
    command = commands.parse_line(text, before)
    if isinstance(command, commands.Record):
        assert command.force == entry.forced, text
        after = api.record(before, command.written(), dealer=entry.dealer, force=command.force)
    elif isinstance(command, commands.SetTerm):
        after = api.set_term(before, command.term)
    elif isinstance(command, commands.Join):
        after = api.join(before, command.name, after=command.after)
    else:
        raise AssertionError(f"{text!r} is {command!r}")
    return after.entries[-1].deal


def _printed(game: Game, k: int, lang: str) -> str:
    with speaking(lang), genders(game.genders):
        return deal_text(game.entries[k])


def _every_entry_reads_back(game: Game) -> int:
    read = 0
    for k, entry in enumerate(game.entries):
        if isinstance(entry.deal, Adjustment | Penalty):  # their amounts are not in the line
            assert log_words(_printed(game, k, "en"), game.players) is None
            continue
        for lang in ("en", "ru"):
            text = _printed(game, k, lang)
            assert _read_back(game, k, text) == entry.deal, text
            read += 1
    return read


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_deal_of_every_example_reads_back_from_its_log_line(path: Path) -> None:
    assert _every_entry_reads_back(api.load(path)) >= 20


FLAGGED: list[tuple[Sequence[str], str, dict[str, Any], str | None, list[str]]] = [
    (P3, "sochi", {"dark_games": True}, None, ["game Аня 7h 7 Боря:w Вера:p --dark --no-talon"]),
    (
        P3,
        "classic",
        {"bombs.order": "declared", "bombs.opening": [1, 2, 3]},
        None,
        ["passes Аня=2 Боря=4 Вера=4"] * 9 + ["misere Боря 1 --dark --bomb 8 --looked Боря"],
    ),
    (
        P3,
        "classic",
        {"bombs.blind": True, "bombs.opening": []},
        None,
        ["passes Аня=2 Боря=4 Вера=4 --blind Аня,Вера --looked Вера"],
    ),
    (
        P4,
        "classic",
        {"talon_bonus": True, "return_whist": True, "bombs.opening": []},
        "Гена",
        [
            "game Аня 6s 6 Боря:w3 Вера:w1 --talon 2",
            "game Боря 6s 5 Вера:p Гена:p --returned-by Аня",
            "game Вера 6s 6 Гена:r Аня:h",
        ],
    ),
    (
        P3,
        "leningrad",
        {},
        None,
        ["game Аня 6s - Боря:h Вера:p", "game Боря 7nt 7 Вера:w Аня:p --looked Вера,Аня"],
    ),
    (
        P3,
        "sochi",
        {"preference_combo": True},
        None,
        [
            "passes Аня=2 Боря=5 Вера=3",
            "game Аня 6s 6 Боря:w Вера:p",  # after an all-pass deal: forced (7 is the least)
            "set whist_price=0.5",
            "set target=1000",
            "join Гена --after Боря",
            "join Дима",
        ],
    ),
    (P3, "sochi", {"preference_combo": True}, None, ["preference Аня"]),
    (["Катя", "Tomás"], "gusarik", {}, None, ["game Катя 6h - Tomás:h", "game Tomás 6h 6 Катя:w"]),
]


@pytest.mark.parametrize("case", FLAGGED, ids=[c[1] + "-" + c[4][-1] for c in FLAGGED])
def test_flags_answers_and_the_entries_between_deals_read_back(case: Any) -> None:
    players, convention, options, dealer, lines = case
    game = api.new_game(players, convention, options=options or None, dealer=dealer)
    for line in lines:
        game = api.record(game, line, force="6s 6" in line and convention == "sochi")
    assert _every_entry_reads_back(game) == 2 * len(lines)


def test_the_log_line_in_both_languages_whatever_is_spoken() -> None:
    players = ["Anna Maria", "Boris", "Вера"]  # a name with a space is found by the seating
    english = "Anna Maria 8♦ (dark, bomb ×4) took 8; Boris whist 1, Вера whist 1 (forced)"
    russian = (
        "Anna Maria 8♦ (втёмную, бомба ×4): 8 взяток; Boris вист 1, Вера вист 1 (вопреки правилам)"
    )
    expected = [
        "game", "Anna Maria", "8♦", "8", "Boris:w1", "Вера:w1", "--dark", "--bomb", "4",
        "--force",
    ]  # fmt: skip
    for spoken in ("en", "ru"):
        with speaking(spoken):
            assert log_words(english, players) == expected
            assert log_words(russian, players) == expected
            assert log_words(russian.upper(), players) is not None  # any case
    for shorthand in ("a 7h 7 b:w v:p", "passes 2 5 3", "м а 0", "misere Anna 0 --dark", "undo"):
        assert log_words(shorthand, players) is None


def test_a_russian_evening_typed_back_from_its_own_log(tmp_path: Path) -> None:
    """The deals of ``журнал``, typed into ``play`` line by line, record the same evening."""
    lines = [
        "аня 7ч 7 б:в в:п",
        "р 3 4 3",
        "мизер вера 1",
        "боря 6бк - в:п а:пв",
        "вера 8б 8 а:в1 б:в1",
        "аня 6п 5 б:вист в:пас",
        "рас 2 2 6",
        "боря 7т 7 вера:в аня:п",
        "цена=0,5",
        "вера 6ч - а:п б:п",
        "посадка Гена --after Боря",
        "гена 9п 9 вера:в боря:п",
    ]
    first = tmp_path / "first"
    again = tmp_path / "again"
    for folder in (first, again):
        folder.mkdir()
        assert invoke(["new", *P3, "--file", str(folder / "g.json")], folder).returncode == 0
    played = invoke(
        ["play", "--file", str(first / "g.json")], first, env=RU, input="\n".join(lines) + "\n"
    )
    assert played.returncode == 0, played.stderr
    log = invoke(["log", "--file", str(first / "g.json")], first, env=RU).stdout.splitlines()
    column = log[0].index("раздача")
    typed = [row[column:] for row in log[1:]]
    assert typed[0] == "Аня 7♥: 7 взяток; Боря вист, Вера пас"
    again_played = invoke(
        ["play", "--file", str(again / "g.json")], again, env=RU, input="\n".join(typed) + "\n"
    )
    assert again_played.returncode == 0, again_played.stderr
    original, copy = api.load(first / "g.json"), api.load(again / "g.json")
    assert [e.deal for e in copy.entries] == [e.deal for e in original.entries]
    assert [e.dealer for e in copy.entries] == [e.dealer for e in original.entries]


# --- the program's words typed back ----------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "role", "tricks"),
    [
        ("в:вист", "w", None),
        ("В:ВИСТ3", "w", 3),
        ("в:whist2", "w", 2),
        ("б:пас", "p", None),
        ("Б:ПАС", "p", None),
        ("б:pass", "p", None),
        ("б:полвиста", "h", None),
        ("б:Half-Whist", "h", None),
        ("в:вернул", "r", None),
        ("в:returned", "r", None),
        ("в:возврат", "r", None),
        ("в:в", "w", None),
        ("в:пв", "h", None),
    ],
)
def test_an_answer_in_the_words_prefcalc_prints(typed: str, role: str, tricks: int | None) -> None:
    player = {"в": "Вера", "В": "Вера", "б": "Боря", "Б": "Боря"}[typed[0]]
    assert parse_defender(typed, P3) == Defender(player, role, tricks)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("распасы Аня=2 Боря=5 Вера=3", "passes"),
        ("All-Pass Аня=2 Боря=5 Вера=3", "passes"),
        ("мизер Аня 0", "misere"),
        ("МИЗЕР Аня 0", "misere"),
        ("misère Аня 0", "misere"),
        ("поправка Аня --mountain 5 --note x", "adjust"),
        ("штраф Аня прикуп", "penalty"),
        ("преферанс Аня", "preference"),
    ],
)
def test_a_kind_in_the_words_prefcalc_prints(line: str, kind: str) -> None:
    import shlex

    deal = parse_words(shlex.split(line), P3)
    assert type(deal).__name__.lower().startswith(kind[:4]) or kind == "passes"


def test_adjust_is_said_popravka_in_play(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert invoke(["new", *P3, "--file", str(path)], tmp_path).returncode == 0
    line = "поправка вера --mountain 5 --note 'подсмотрела'\nжурнал\n"
    result = invoke(["play", "--file", str(path)], tmp_path, env=RU, input=line)
    assert result.returncode == 0, result.stderr
    assert "поправка для Веры: подсмотрела" in result.stdout
    deal = api.load(path).entries[0].deal
    assert deal == Adjustment("Вера", 0, 5, (), "подсмотрела")


def test_a_refusal_names_the_player_as_the_table_declines_him() -> None:
    with speaking("ru"), pytest.raises(NotationError) as caught:
        parse_defender("в:вистует", P3)
    assert str(caught.value).startswith("неизвестный ответ «вистует» у Веры (")
    with speaking("ru"), pytest.raises(NotationError) as caught:
        parse_words(["passes", "в=11", "а=0", "б=0"], P3)
    assert str(caught.value) == "взятки Веры: от 0 до 10, а не 11"
    with pytest.raises(NotationError, match="unknown role 'x' for Vera "):
        parse_defender("v:x", ["Anna", "Vera"])


# --- issue 36 item 3's smaller points ---------------------------------------------------------


def test_a_half_whisted_game_takes_its_level_as_its_tricks() -> None:
    """``а 7бк 7 г:п б:пв`` was refused: only ``-`` was taken for a half-whisted game, while
    a game both defenders passed took its level too."""
    game = api.new_game(P4, "leningrad", dealer="Вера")
    written = api.record(game, "игра Аня 7бк 7 Гена:п Боря:пв").entries[0].deal
    dashed = api.record(game, "игра Аня 7бк - Гена:п Боря:пв").entries[0].deal
    assert written == dashed and dashed.tricks is None  # type: ignore[union-attr]
    with speaking("ru"), pytest.raises(NotationError) as caught:
        api.record(game, "игра Аня 7бк 6 Гена:п Боря:пв")
    assert str(caught.value) == (
        "игру при полвиста не играют: вместо взяток пишите «-» (или 7, заказ), а не 6"
    )


def test_the_bare_all_pass_tricks_edit_a_deal_before_a_late_arrival(tmp_path: Path) -> None:
    """``исправить 2 р 1 2 7`` after Гена joined was refused with «неизвестный игрок «Гена»»:
    the players of deal 2 are those at the table then."""
    path = tmp_path / "g.json"
    assert invoke(["new", *P3, "--file", str(path)], tmp_path).returncode == 0
    lines = "аня 6п 6 б:в в:п\nр 3 3 4\nпосадка Гена --after Вера\nисправить 2 р 1 2 7\n"
    result = invoke(["play", "--file", str(path)], tmp_path, env=RU, input=lines)
    assert result.returncode == 0, result.stderr
    deal = api.load(path).entries[1].deal  # Боря deals: Вера, Аня, then Боря
    assert deal == parse_words(["passes", "Аня=2", "Боря=7", "Вера=1"], P3)
