"""The terminal views in Russian, line by line (the English ones are pinned by the other
tests): the sheet of a game in progress at five, the compact sheet in both widths, the log of
every kind of entry, explain, the games list."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import make_game, random_classic_game, random_game, sheet_of

from prefcalc.i18n import speaking
from prefcalc.rules.model import Game
from prefcalc.store.games import SavedGame
from prefcalc.views import log, results, sheet_text


@pytest.fixture(autouse=True)
def russian() -> Iterator[None]:
    with speaking("ru"):
        yield


FIVE = make_game(
    ["Аня", "Боря", "Вера", "Гена", "Дима"],
    ["game Вера 7h 7 Гена:w Дима:p", "passes Гена=2 Дима=5 Аня=3", "misere Дима 1"],
    convention="rostov",
)


def test_sheet_of_five_in_progress() -> None:
    assert sheet_text.sheet_text(sheet_of(FIVE), FIVE).splitlines() == [
        "Ростовка · пуля до 20 у каждого · 3 раздачи · игра идёт",
        "сдаёт Гена · Гена и Дима не играют",
        "распасов подряд нет, следующие распасы ×1 · минимальная игра 6",
        "                        висты на",
        "            пуля  гора  Аня  Боря  Вера  Гена  Дима",
        "Аня   0 (ещё 20)     0    ·     0     0     0     0",
        "Боря  1 (ещё 19)     0    0     ·     0     0     0",
        "Вера  4 (ещё 16)     0    0     0     ·     0     0",
        "Гена  0 (ещё 20)     0    5     0    12     ·    15",
        "Дима  0 (ещё 20)    10    0     0     0     0     ·",
    ]


def test_compact_sheet_full_and_short() -> None:
    sheet = sheet_of(FIVE)
    assert sheet_text.compact_text(sheet, FIVE).splitlines()[3] == (
        "Гена  пуля 0/20  гора 0   висты на Аню 5 · на Борю 0 · на Веру 12 · на Диму 15"
    )
    assert sheet_text.compact_text(sheet, FIVE, width=40).splitlines()[3] == (
        "Гена  П 0/20  Г 0   В Аня 5 · Бор 0 · Вер 12 · Дим 15"
    )


def test_log_and_explain() -> None:
    sheet = sheet_of(FIVE)
    assert log.log_text(sheet).splitlines() == [
        "#  время  сдающий  раздача",
        "1  19:00  Аня      Вера 7♥: 7 взяток; Гена вист, Дима пас",
        "2  19:01  Боря     распасы: Гена 2, Дима 5, Аня 3",
        "3  19:02  Вера     Дима мизер: 1 взятка",
    ]
    lines = log.explain_text(sheet, 2).splitlines()
    assert lines[:2] == [
        "раздача 2, сдающий Боря: распасы: Гена 2, Дима 5, Аня 3",
        "распасов подряд: 1, цена ×1",
    ]
    assert lines[2].startswith("  Гена: +15 висты на Диму — ")
    assert log.log_text(sheet_of(make_game(["A", "B", "C"], []))) == "раздач пока нет"


def test_every_kind_of_entry_in_words() -> None:
    game = make_game(
        ["Аня", "Боря", "Вера"],
        [
            "game Аня 6s 6 Боря:w Вера:p !",
            "set target=30",
            "adjust Вера --mountain 5 --note 'подсмотрела'",
            "join Гена --after Вера",
            "misere Боря 0 @Аня",
            "game Вера 8nt - Гена:p Аня:p",
            "set whist_price=0.5",
        ],
    )
    texts = [log.deal_text(e) for e in game.entries]
    assert texts == [
        "Аня 6♠: 6 взяток; Боря вист, Вера пас (вопреки правилам)",
        "пуля теперь до 30",
        "поправка для Веры: подсмотрела",
        "Гена садится за стол после Веры",
        "Боря мизер: 0 взяток",
        "Вера 8БК без розыгрыша; Гена пас, Аня пас",
        "цена виста теперь 0,50",
    ]
    assert log.deal_words(game.entries[5]).contract == "8БК"
    classic = make_game(
        ["Аня", "Боря", "Вера"],
        [
            "game Аня 6s 6 Боря:w Вера:p --dark --no-talon",
            "passes Аня=2 Боря=5 Вера=3 --blind=Аня",
            "preference Боря",
        ],
        convention="classic",
        target=50,
    )
    assert [log.deal_text(e) for e in classic.entries] == [
        "Аня 6♠ (втёмную, без прикупа): 6 взяток; Боря вист, Вера пас",
        "распасы: Аня 2, Боря 5, Вера 3 (Аня втёмную)",
        "Боря объявляет комбинацию «Преферанс»: игра окончена",
    ]
    lines = sheet_text.sheet_text(sheet_of(classic), classic).splitlines()
    assert "вступительный круг 2 из 3: распасы по ×4 за взятку, каждый получает бомбу ×4" in lines
    assert "бомбы (сначала старые): Аня ×2; Боря ×2; Вера ×2" in lines


def test_games_list() -> None:
    games = [
        SavedGame(
            1, Path("a.json"), ("Аня", "Боря", "Вера"), "2026-12-01T20:00:00", 24, True, True
        ),
        SavedGame(2, Path("b.json"), ("Аня", "Боря"), "", 3, False, False),
    ]
    assert results.games_text(games).splitlines() == [
        "   #  игроки           начало                раздачи  состояние  файл",
        "*  1  Аня, Боря, Вера  1 декабря 2026 20:00       24  окончена   a.json",
        "   2  Аня, Боря                                    3  игра идёт  b.json",
        "* текущая игра; prefcalc use НОМЕР|ИМЯ|ФАЙЛ возвращает к другой",
    ]
    assert results.games_text([]) == "сохранённых игр пока нет (новая игра: «prefcalc new»)"


# --- the reasons of the writes (explain) -----------------------------------------------------


def _reasons(game: Game, number: int) -> list[str]:
    return [log.reason_text(w) for w in sheet_of(game).scored[number - 1].writes]


def test_reasons_of_a_contract_in_russian_with_plural_forms() -> None:
    # Sochi 3 players, 8БК: P = 6, W = 6. Боря whists alone (2 defence tricks, Вера passed):
    # 8БК made → 6 into Аня's pool; 2 × 6 = 12 whists on Аня.
    game = make_game(["Аня", "Боря", "Вера"], ["game Аня 8nt 8 Боря:w Вера:p"])
    assert _reasons(game, 1) == ["8БК сыграна: 6", "висты на 8БК: 2 взятки × 6 = 12"]
    # 7♥ down 2 (5 tricks): remise 2 × 4 = 8; two whisters, 3 and 2 tricks × 4 each and the
    # consolation 2 × 4 each (C = W = 4); nobody misses his quota.
    game = make_game(["Аня", "Боря", "Вера"], ["game Аня 7h 5 Боря:w3 Вера:w2"])
    assert _reasons(game, 1) == [
        "ремиз на 7♥ без 2: 2 × 4 = 8",
        "висты на 7♥: 3 взятки × 4 = 12",
        "консоляция, без 2: 2 × 4 = 8",
        "висты на 7♥: 2 взятки × 4 = 8",
        "консоляция, без 2: 2 × 4 = 8",
    ]
    # misère failed with 1 trick (Sochi: 10 per trick), 5 tricks of an all-pass deal
    game = make_game(["Аня", "Боря", "Вера"], ["misere Аня 1", "passes Аня=5 Боря=4 Вера=1"])
    assert _reasons(game, 1) == ["мизер не сыгран: 1 взятка × 10 = 10"]
    assert _reasons(game, 2) == [
        "распасы: 5 взяток × 1 = 5",
        "распасы: 4 взятки × 1 = 4",
        "распасы: 1 взятка × 1 = 1",
    ]


def test_reasons_of_a_dark_game_and_the_help_rule() -> None:
    # Classic: 7♥ dark, made: F = 2, 4 × 2 = 8 into the pool; Боря 3 tricks × 4 × 2 = 24.
    game = make_game(
        ["Аня", "Боря", "Вера"],
        ["game Аня 7h 7 Боря:w Вера:p --dark"],
        convention="classic",
        target=50,
    )
    assert _reasons(game, 1) == [
        "7♥ сыграна × 2 (втёмную): 8",
        "висты на 7♥: 3 взятки × 4 × 2 (втёмную) = 24",
    ]
    # Sochi to 3: Аня's first 6♠ puts 2 into her pool; the second earns 2, 1 fits, the other
    # helps Боря (the fullest pool below the target) for 1 × 10 = 10 whists on him.
    game = make_game(
        ["Аня", "Боря", "Вера"],
        ["game Аня 6s 6 Боря:w Вера:p", "game Аня 6s 6 Боря:w Вера:p"],
        target=3,
    )
    assert _reasons(game, 2) == [
        "6♠ сыграна: заработано 2, в пулю 1, 1 в помощь Боре (висты: 10)",
        "помощь от Ани: 1 из 2 (6♠ сыграна)",
        "помощь Боре: 1 очко × 10 = 10 (6♠ сыграна: заработано 2, в пулю 1)",
        "висты на 6♠: 4 взятки × 2 = 8",
    ]


ENGLISH_WORDS = re.compile(
    r"\b(pool|mountain|whists?|pass(ed)?|misere|misère|all-pass|remise|deals?|tricks?|"
    r"undertricks?|points?|made|help|bomb|dark|consolation|shortfall|joined|average|NT)\b"
)


@pytest.mark.parametrize("convention", ["sochi", "leningrad", "rostov"])
def test_every_reason_is_russian(convention: str) -> None:
    # Random evenings of 3 and 4 players with late arrivals, and Classic nights: no English word
    # of the game is left in any reason (the names and the adjustment notes are the players').
    games = [
        random_game(seed, 60, players=n, convention=convention, joins=True, adjustments=False)
        for seed in range(6)
        for n in (3, 4)
    ]
    if convention == "sochi":
        games += [random_classic_game(seed, 60, players=n) for seed in range(6) for n in (3, 4)]
    templates = set()
    for game in games:
        for scored in sheet_of(game).scored:
            for w in scored.writes:
                text = log.reason_text(w)
                for name in game.players:
                    text = text.replace(name, "")
                assert not ENGLISH_WORDS.search(text), (w.reason, text)
                assert "{" not in text, text
                templates.add(w.template)
    assert len(templates) > 10


def test_reasons_stay_english_in_english() -> None:
    game = make_game(["Аня", "Боря", "Вера"], ["game Аня 8nt 8 Боря:w Вера:p"])
    with speaking("en"):
        assert _reasons(game, 1) == ["8NT made: 6", "whists on 8NT: 2 tricks × 6 = 12"]


def test_a_semi_responsible_shortfall_shows_its_liability() -> None:
    # Leningrad, 4 players (Аня deals and sits out): Боря's 6♠ taken with 8; Вера whists alone
    # and takes 2 of the norm of 4. W = P × 2 = 4 (doubled whists), liability ½: the
    # shortfall is 2 missing × 4 × ½ = 4, every factor shown (it read «2 × 2 = 4»).
    game = make_game(
        ["Аня", "Боря", "Вера", "Гена"], ["game Боря 6s 8 Вера:w Гена:p"], convention="leningrad"
    )
    assert _reasons(game, 1)[0] == "недовист на 6♠: недобрано 2 × 4 × ½ = 4"
    with speaking("en"):
        assert _reasons(game, 1)[0] == "whister's shortfall on 6♠: 2 missing × 4 × ½ = 4"
