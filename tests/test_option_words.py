"""An option's value said in the reader's words, with what a user types for it (issue 36):
``prefcalc rules`` and the workbook's rules sheet show «джентльменский (gentleman)», «да
(true)», «0,5», never the raw ``"gentleman"``, ``true``, ``0.5``; and what they show is taken
back by ``--set``. The workbook's sheet of totals says what is left to play only while the game
goes on."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from support import make_game, run_cli

from prefcalc import api
from prefcalc.export.xlsx import workbook_bytes
from prefcalc.i18n import speaking
from prefcalc.resources import bundled
from prefcalc.rules.conventions import OPTIONS, PRESETS, parse_overrides
from prefcalc.store.conventions import load_preset
from prefcalc.views.convention import value_text

RU = {"LANG": "ru_RU.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "PREFCALC_LANG": ""}
EN = {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": "", "PREFCALC_LANG": ""}


def _typed(shown: str) -> str:
    """What a user types for a value shown as ``words (typed)``, or as a bare number/list."""
    found = re.fullmatch(r".+ \(([^()]+)\)", shown)
    return found.group(1) if found else shown


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("preset", PRESETS)
def test_every_value_shown_is_taken_back_by_set(lang: str, preset: str) -> None:
    conv = load_preset(preset)
    with speaking(lang):
        for option in OPTIONS:
            value = conv.value(option.key)
            shown = value_text(option.key, value)
            assert '"' not in shown and shown.strip() == shown, shown
            back = parse_overrides([f"{option.key}={_typed(shown)}"])[option.key]
            assert _same(back, value), (option.key, shown, back, value)


def _same(back: Any, value: Any) -> bool:
    return tuple(back) == value if isinstance(value, tuple) else bool(back == value)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            {
                "lone_whister": "gentleman's (gentleman)",
                "dealer_consolation": "yes (true)",
                "mountain_first": "no (false)",
                "liability": "0.5",
                "game_prices": "2, 4, 6, 8, 10",
                "closing": "the pools' total (total)",
                "help": "nobody (none)",
                "bombs.opening": "none ([])",
                "two_whisters": "split",
            },
        ),
        (
            "ru",
            {
                "lone_whister": "джентльменский (gentleman)",
                "dealer_consolation": "да (true)",
                "mountain_first": "нет (false)",
                "liability": "0,5",
                "game_prices": "2, 4, 6, 8, 10",
                "closing": "сумма пуль (total)",
                "help": "никому (none)",
                "bombs.opening": "нет ([])",
                "two_whisters": "поровну (split)",
            },
        ),
    ],
)
def test_prefcalc_rules_says_what_each_value_means(
    tmp_path: Path, lang: str, expected: dict[str, str]
) -> None:
    done = run_cli(["--lang", lang, "rules", "leningrad"], tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines()[2:]}
    assert set(rows) == {option.key for option in OPTIONS}
    for key, words in expected.items():
        # the key, then its value in words, then the meaning (columns of two spaces or more)
        assert re.match(rf"{re.escape(key)} +{re.escape(words)}  ", rows[key]), rows[key]
    assert '"' not in "".join(line.split("  ")[1] for line in rows.values() if "  " in line)


@pytest.mark.parametrize(("lang", "env"), [("en", EN), ("ru", RU)])
def test_the_workbook_of_a_finished_leningrad_game_shows_nothing_left_to_close(
    tmp_path: Path, lang: str, env: dict[str, str]
) -> None:
    ledger = bundled("examples") / "leningrad-4.json"
    assert api.load(ledger) and api.sheet(api.load(ledger)).finished
    book = tmp_path / "leningrad.xlsx"
    done = run_cli(["export", "xlsx", "--file", str(ledger), "-o", str(book)], tmp_path, env)
    assert done.returncode == 0, done.stderr
    wb = openpyxl.load_workbook(book)
    totals = wb["Пуля" if lang == "ru" else "Sheet"]
    header = [c.value for c in totals[1]]
    assert header[0] == ("Игрок" if lang == "ru" else "Player")
    assert "До закрытия" not in header and "To close" not in header
    assert len([h for h in header if h]) == 3 + 4  # player, pool, mountain, on each of four
    column_a = [totals.cell(r, 1).value for r in range(1, 8)]
    assert not any("осталось" in str(v) or "left" in str(v) for v in column_a), column_a
    rules = wb["Правила" if lang == "ru" else "Rules"]
    words = {rules.cell(r, 1).value: rules.cell(r, 2).value for r in range(8, 8 + len(OPTIONS))}
    assert words["lone_whister"] == (
        "джентльменский (gentleman)" if lang == "ru" else "gentleman's (gentleman)"
    )
    assert words["liability"] == 0.5  # a number stays a number
    assert words["pool_to_mountain"] == 2  # the Settlement's formulas read it


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_leningrad_game_going_on_shows_the_points_its_pools_still_need(lang: str) -> None:
    game = make_game(
        ["Anna", "Boris", "Vera"],
        ["game Anna 7h 7 Boris:w Vera:p", "game Boris 6c 6 Vera:w Anna:p"],
        convention="leningrad",
        target=10,
    )
    with speaking(lang):
        data = workbook_bytes(api.report(game))
    wb = openpyxl.load_workbook(io.BytesIO(data))
    values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    title = "Пуля" if lang == "ru" else "Sheet"
    totals = wb[title]
    header = [c.value for c in totals[1] if c.value]
    assert "До закрытия" not in header and "To close" not in header  # no pool closes alone
    label = "До конца игры осталось очков" if lang == "ru" else "Points left to the end of the game"
    assert totals["A5"].value == label  # under the three players' rows
    pools = 4 + 2  # a made 7 and a made 6 (Leningrad: 4 and 2)
    assert values[title]["B5"].value == 10 * 3 - pools
    assert totals["B5"].value.startswith("=MAX(0,")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_sochi_game_going_on_shows_each_pools_points_to_close(lang: str) -> None:
    game = make_game(["Anna", "Boris", "Vera"], ["game Anna 7h 7 Boris:w Vera:p"], target=10)
    with speaking(lang):
        data = workbook_bytes(api.report(game))
    values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    totals = values["Пуля" if lang == "ru" else "Sheet"]
    header = [c.value for c in totals[1]]
    column = header.index("До закрытия" if lang == "ru" else "To close") + 1
    assert [totals.cell(r, column).value for r in (2, 3, 4)] == [6, 10, 10]
    assert totals["A5"].value is None  # no line of points left under closing = each
