"""A player's grammatical gender (``prefcalc player NAME --gender f``, ``пол NAME ж`` in
``play``): kept in the ledger as an optional field of the game, read strictly, refused for a
name not at the table (nothing written), and in force wherever a game is shown in Russian;
English and every ledger without genders stay as they were.

Мишель is the name the tests decline: pytrovich guesses no gender for it and declines it as a
man's name (висты на Мишеля, Мишелю), while a woman's Мишель is not declined (висты на
Мишель); Саша and Женя would decline alike either way."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from prefcalc import api, commands
from prefcalc.cases import decline, genders, guess_gender
from prefcalc.errors import DealError, LedgerError, NotationError, PrefcalcError
from prefcalc.store import ledger
from prefcalc.store.ledger import game_from_bytes, game_to_json_text
from tests.support import invoke

PLAYERS = ("Мишель", "Боря", "Вера")
RU = {"PREFCALC_LANG": "ru"}
EN = {"PREFCALC_LANG": "en"}
DEAL = ["game", "Мишель", "6s", "4", "Боря:w", "Вера:p"]  # Мишель two down: whists on her


def test_the_name_the_tests_use_declines_otherwise_by_gender() -> None:
    assert guess_gender("Мишель") is None
    assert decline("Мишель", "acc") == "Мишеля"
    assert decline("Мишель", "acc", "f") == "Мишель"
    assert decline("Мишель", "dat", "f") == "Мишель"
    with genders((("Мишель", "f"),)):  # a game's genders: its pairs
        assert decline("Мишель", "acc") == "Мишель"


# --- the record ---------------------------------------------------------------------------------


def _game() -> api.Game:
    return api.new_game(PLAYERS)


def test_set_gender_keeps_the_players_in_seating_order_and_auto_clears() -> None:
    game = _game()
    both = api.set_gender(api.set_gender(game, "Вера", "f"), "миш", "f")  # a prefix is the name
    assert both.genders == (("Мишель", "f"), ("Вера", "f"))
    assert both.entries == game.entries and both.players == game.players
    assert api.set_gender(both, "Вера", None).genders == (("Мишель", "f"),)
    assert api.set_gender(both, "Вера", "f") is both  # no change: the same game, nothing to write


def test_a_name_not_at_the_table_is_refused() -> None:
    with pytest.raises(PrefcalcError) as refused:
        api.set_gender(_game(), "Петя", "f")
    assert str(refused.value) == "unknown player 'Петя' (players: Мишель, Боря, Вера)"


@pytest.mark.parametrize(
    ("word", "gender"),
    [
        ("f", "f"), ("F", "f"), ("female", "f"), ("ж", "f"), ("Жен", "f"), ("женский", "f"),
        ("m", "m"), ("male", "m"), ("м", "m"), ("муж", "m"), ("мужской", "m"),
        ("auto", None), ("-", None), ("авто", None),
    ],
)  # fmt: skip
def test_the_words_a_gender_is_given_in(word: str, gender: str | None) -> None:
    assert api.parse_gender(word) == gender


@pytest.mark.parametrize("word", ["x", "", "fm", "woman", "\x1b[31mf"])
def test_any_other_word_is_refused_in_one_line(word: str) -> None:
    with pytest.raises(DealError) as refused:
        api.parse_gender(word)
    assert "\n" not in str(refused.value) and "\x1b" not in str(refused.value)
    assert "use f or m, or auto" in str(refused.value)


def test_the_ledger_round_trip_validated_and_trusted(tmp_path: Path) -> None:
    game = api.set_gender(api.record(_game(), " ".join(DEAL)), "Мишель", "f")
    text = game_to_json_text(game)
    assert '  "genders": {\n    "Мишель": "f"\n  },\n  "deals": [' in text
    assert game_from_bytes(text.encode()).genders == (("Мишель", "f"),)  # the models' path
    path = tmp_path / "g.json"
    api.save(game, path)
    assert ledger.load(path).genders == (("Мишель", "f"),)  # this program wrote it: trusted
    assert path.read_text(encoding="utf-8") == text


def test_a_game_without_genders_is_written_as_before() -> None:
    game = api.record(_game(), " ".join(DEAL))
    text = game_to_json_text(game)
    assert "genders" not in text
    there_and_back = api.set_gender(api.set_gender(game, "Мишель", "f"), "Мишель", None)
    assert game_to_json_text(there_and_back) == text  # byte for byte


def test_every_example_reads_as_before(tmp_path: Path) -> None:
    for path in sorted(Path(__file__).parents[1].glob("examples/*.json")):
        raw = path.read_bytes()
        assert b"genders" not in raw
        assert game_from_bytes(raw, str(path)).genders == ()


def _ledger(**fields: object) -> bytes:
    data = json.loads(game_to_json_text(api.record(_game(), " ".join(DEAL))))
    data.update(fields)
    return json.dumps(data, ensure_ascii=False).encode()


@pytest.mark.parametrize(
    ("genders_", "said"),
    [
        ({"Петя": "f"}, "genders: unknown player 'Петя' (players: Мишель, Боря, Вера)"),
        ({"Мишель": "x"}, "genders.Мишель: "),
        ({"Мишель": 1}, "genders.Мишель: "),
        ({"Мишель": "F"}, "genders.Мишель: "),
        (["Мишель", "f"], "genders: "),
        ("f", "genders: "),
        ({f"P{k}": "f" for k in range(6)}, "genders: "),
    ],
)
def test_the_field_is_read_strictly(genders_: object, said: str) -> None:
    with pytest.raises(LedgerError) as refused:
        game_from_bytes(_ledger(genders=genders_), "g.json")
    assert said in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_player_who_joined_may_have_a_gender_and_loses_it_when_the_join_goes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.json"
    api.save(_game(), path)
    commands.execute(commands.Join("Любовь"), path)
    commands.execute(commands.Player("Любовь", "f"), path)
    assert game_from_bytes(path.read_bytes()).genders == (("Любовь", "f"),)
    commands.execute(commands.Undo(), path)  # the join undone: she is not at the table
    assert "genders" not in path.read_text(encoding="utf-8")
    assert api.load(path).genders == ()


# --- the command --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("player Мишель --gender f", commands.Player("Мишель", "f")),
        ("player Мишель --gender=ж", commands.Player("Мишель", "f")),
        ("player Мишель m", commands.Player("Мишель", "m")),
        ("пол миш ж", commands.Player("миш", "f")),
        ("ПОЛ Мишель авто", commands.Player("Мишель", "auto")),
        ("пол Мишель", commands.Player("Мишель")),
    ],
)
def test_the_play_line(line: str, command: commands.Player) -> None:
    assert commands.parse_line(line, _game()) == command


@pytest.mark.parametrize(
    "line",
    ["пол", "player", "player Мишель f m", "player Мишель --gender", "player a --gender f m"],
)
def test_a_play_line_it_cannot_read_is_refused(line: str) -> None:
    with pytest.raises(NotationError):
        commands.parse_line(line, _game())


def test_a_refused_gender_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    api.save(api.record(_game(), " ".join(DEAL)), path)
    before = path.read_bytes()
    for args in (["Петя", "--gender", "f"], ["Мишель", "--gender", "x"], ["Пе"]):
        done = invoke(["player", *args, "--file", str(path)], tmp_path, EN)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("prefcalc: error: ")
        assert path.read_bytes() == before
    inode = path.stat().st_ino
    done = invoke(["player", "Мишель", "--gender", "auto", "--file", str(path)], tmp_path, EN)
    assert done.returncode == 0 and path.stat().st_ino == inode  # nothing to change: not written


# --- in force wherever the game is shown --------------------------------------------------------


@pytest.fixture
def evening(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    assert invoke(["new", *PLAYERS, "--file", str(path)], tmp_path, RU).returncode == 0
    done = invoke([*DEAL, "--file", str(path)], tmp_path, RU)
    assert done.returncode == 0, done.stderr
    assert "Боря: +12 висты на Мишеля" in done.stdout  # the guess: a man's name
    return path


def _run(path: Path, *args: str, env: dict[str, str] = RU) -> str:
    done = invoke([*args, "--file", str(path)], path.parent, env)
    assert done.returncode == 0, done.stderr
    return done.stdout


VIEWS = (("show",), ("log",), ("explain", "1"), ("settle",), ("settle", "--compare"))


def test_the_cli_in_russian_declines_by_the_game_gender(evening: Path) -> None:
    assert _run(evening, "player", "Мишель") == "Мишель: род по имени (висты на Мишеля)\n"
    said = _run(evening, "player", "миш", "--gender", "ж")
    assert said == "Мишель: женский род (висты на Мишель)\n"
    assert json.loads(evening.read_text(encoding="utf-8"))["genders"] == {"Мишель": "f"}
    explained = _run(evening, "explain", "1")
    assert "Боря: +12 висты на Мишель — " in explained
    assert "Мишеля" not in explained
    everything = "\n".join(_run(evening, *args) for args in VIEWS)
    assert "Мишеля" not in everything and "Мишелю" not in everything
    assert "Мишель – Боря: Боря +29⅓ с Мишель\n" in everything  # с Мишеля for a man
    recorded = _run(evening, "game", "Боря", "6s", "6", "Мишель:p", "Вера:w")
    assert "Мишеля" not in recorded
    assert _run(evening, "player", "Мишель", "--gender", "auto").endswith("(висты на Мишеля)\n")
    assert "висты на Мишеля" in _run(evening, "explain", "1")


def test_the_documents_decline_by_the_game_gender(evening: Path) -> None:
    _run(evening, "player", "Мишель", "--gender", "f")
    book = evening.parent / "g.xlsx"
    _run(evening, "export", "xlsx", "-o", str(book))
    cells = [
        str(cell.value)
        for sheet in openpyxl.load_workbook(book).worksheets
        for row in sheet.iter_rows()
        for cell in row
        if cell.value is not None
    ]
    assert any("на Мишель" in cell for cell in cells)
    assert not any("Мишеля" in cell or "Мишелю" in cell for cell in cells)


def test_the_pdf_declines_by_the_game_gender(evening: Path) -> None:
    import subprocess

    from tests.support import require_tool

    pdftotext = require_tool("pdftotext", "pdftotext")

    def text() -> str:
        pdf = evening.parent / "g.pdf"
        _run(evening, "export", "pdf", "-o", str(pdf))
        done = subprocess.run(
            [pdftotext, str(pdf), "-"], capture_output=True, text=True, check=True
        )
        return done.stdout

    assert "на Мишеля: 13⅓" in text()
    _run(evening, "player", "Мишель", "--gender", "f")
    shown = text()
    assert "на Мишель: 13⅓" in shown and "Мишеля" not in shown


def test_english_is_unchanged_by_a_gender(evening: Path) -> None:
    before = [_run(evening, *args, env=EN) for args in VIEWS]
    assert _run(evening, "player", "Мишель", "--gender", "f", env=EN) == (
        "Мишель: declined as feminine\n"
    )
    assert [_run(evening, *args, env=EN) for args in VIEWS] == before


def test_play_on_stdin_sets_it_and_shows_it(evening: Path) -> None:
    lines = "пол Миш ж\nпочему 1\nplayer Мишель --gender auto\nexplain 1\nпол Петя ж\n"
    done = invoke(["play", "--file", str(evening)], evening.parent, RU, input=lines)
    assert done.returncode == 2  # the last line was refused
    out = done.stdout
    first, second = out.split("Мишель: род по имени")
    assert "Мишель: женский род (висты на Мишель)" in first
    assert "Боря: +12 висты на Мишель — " in first
    assert "Боря: +12 висты на Мишеля — " in second
    assert (
        done.stderr
        == "prefcalc: ошибка: строка 5: неизвестный игрок «Петя» (игроки: Мишель, Боря, Вера)\n"
    )


def test_the_pages_and_the_app_decline_by_the_game_gender(evening: Path) -> None:
    from prefcalc.app.engine import Engine
    from prefcalc.i18n import speaking
    from prefcalc.views.night import log_items
    from prefcalc.views.sheet_svg import sheet_svg

    engine = Engine(evening.parent)
    engine.lang = "ru"

    def shown() -> tuple[str, str, dict[str, str]]:
        game = api.load(evening)
        with speaking("ru"):
            items = log_items(game, api.sheet(game), None, "ru")
            svg = sheet_svg(api.sheet(game), game)
        said = " | ".join(w["said"] for item in items for w in item["writes"])
        return said, svg, engine.cases("g")["Мишель"]

    _said, svg, forms = shown()
    assert "висты на Мишеля" in svg and forms["acc"] == "Мишеля"  # the guess
    _run(evening, "player", "Мишель", "--gender", "f")
    said, svg, forms = shown()
    assert "висты на Мишель" in svg and "Мишеля" not in svg
    assert "Мишеля" not in said and "Мишелю" not in said
    assert forms == dict.fromkeys(("gen", "dat", "acc", "ins", "pre"), "Мишель")
    with speaking("ru"):  # as the worker's call speaks the page's language
        line = engine.line("g", "пол Мишель м")["output"]
    assert line == "Мишель: мужской род (висты на Мишеля)"


def test_a_refusal_names_the_player_as_the_game_declines_her(evening: Path) -> None:
    wrong = ["game", "Боря", "6s", "6", "Мишель:x", "Вера:p", "--file", str(evening)]
    done = invoke(wrong, evening.parent, RU)
    assert "у Мишеля" in done.stderr  # the guess
    _run(evening, "player", "Мишель", "--gender", "f")
    done = invoke(wrong, evening.parent, RU)
    assert done.returncode == 2 and "неизвестный ответ «x» у Мишель (" in done.stderr
    line = "боря 6п 6 мишель:x вера:п\n"  # typed in small letters: the same player
    played = invoke(["play", "--file", str(evening)], evening.parent, RU, input=line)
    assert "неизвестный ответ «x» у Мишель (" in played.stderr  # as she is named, not typed


def test_the_table_finds_a_name_typed_in_another_case() -> None:
    with genders({"Мишель": "f"}):
        assert decline("мишель", "gen") == "мишель"
        assert decline("МИШЕЛЬ", "gen") == "МИШЕЛЬ"
    assert decline("мишель", "gen") == "мишеля"


def test_a_gender_set_after_an_undo_leaves_the_deal_to_redo(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    api.save(api.record(_game(), " ".join(DEAL)), path)
    commands.execute(commands.Undo(), path)
    commands.execute(commands.Player("Мишель", "f"), path)
    done = commands.execute(commands.Redo(), path)
    assert len(done.game.entries) == 1 and done.game.genders == (("Мишель", "f"),)
    assert api.load(path) == done.game


@pytest.mark.parametrize(
    "args",
    [
        ["Мишель\x1b[2J", "--gender", "f"],
        ["Миш\nель", "--gender", "f"],
        ["Я" * 100_000, "--gender", "f"],
        ["Мишель", "--gender", "f\x1b[31m"],
        ["Мишель", "--gender", "ж" * 100_000],
        ["", "--gender", "f"],
    ],
)
def test_hostile_input_is_one_line_and_changes_nothing(tmp_path: Path, args: list[str]) -> None:
    path = tmp_path / "g.json"
    api.save(_game(), path)
    before = path.read_bytes()
    done = invoke(["player", *args, "--file", str(path)], tmp_path, RU)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "\x1b" not in done.stderr
    assert len(done.stderr) < 500
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("players", "typed", "offered"),
    [
        (PLAYERS, "по", ["поправка", "посадка", "почему", "пол", "помощь"]),
        (PLAYERS, "пол М", ["Мишель"]),
        (PLAYERS, "пол Мишель ", ["ж", "м", "авто"]),
        (PLAYERS, "player Мишель -", ["--gender"]),
        (PLAYERS, "player Мишель --gender ", ["ж", "м", "авто"]),
        (("Anna", "Boris"), "pl", ["player"]),
        (("Anna", "Boris"), "player Anna --gender a", ["auto"]),
        (("Anna", "Boris"), "player Anna ", ["f", "m", "auto"]),
    ],
)
def test_tab_offers_the_command_and_the_genders(
    players: tuple[str, ...], typed: str, offered: list[str]
) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from prefcalc.completion import completer

    found = completer(players).get_completions(Document(typed), CompleteEvent())
    assert [c.text for c in found] == offered


def test_a_line_by_polina_written_pol_is_still_her_game() -> None:
    game = api.new_game(("Полина", "Боря", "Вера"))
    line = commands.parse_line("пол 7ч 7 б:в в:п", game)
    assert isinstance(line, commands.Record) and line.words[0] == "пол"
    assert commands.parse_line("пол бор ж", game) == commands.Player("бор", "f")
    assert commands.parse_line("пол пол --gender ж", game) == commands.Player("пол", "f")
    with pytest.raises(NotationError):  # no Полина: not a game, and not a player command
        commands.parse_line("пол 7ч 7 б:в в:п", _game())


def test_tab_in_a_game_by_polina_written_pol_offers_the_game_words() -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from prefcalc.completion import completer

    words = completer(("Полина", "Боря", "Вера"))
    found = words.get_completions(Document("пол 7ч 7 Б"), CompleteEvent())
    assert [c.text for c in found] == ["Боря"]
    found = words.get_completions(Document("пол Боря "), CompleteEvent())
    assert [c.text for c in found] == ["ж", "м", "авто"]
