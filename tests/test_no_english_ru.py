"""Issue 36, item 4: no English left under Russian. Every help page of the CLI, and every
output of a Russian evening (the CLI's commands, ``play``, the PDF's text and the
workbook's cells) is read for Latin words that are not something the user types
(tests/russian_words.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.russian_words import latin_words
from tests.support import invoke

RU = {"LANG": "ru_RU.UTF-8", "PREFCALC_LANG": None, "LC_ALL": None, "LC_MESSAGES": None}


def _commands() -> Iterator[tuple[str, ...]]:
    """Every command path of the CLI, the root first (hidden aliases left out)."""
    import typer

    from prefcalc.cli import app

    def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
        yield path
        for name, sub in getattr(command, "commands", {}).items():
            if not sub.hidden:
                yield from walk(sub, (*path, name))

    yield from walk(typer.main.get_command(app), ())


PENDING = "English left in the tournament's help (DIR...): the tournament helper's work, issue 36"


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(path, marks=pytest.mark.xfail(reason=PENDING, strict=True))
        if path[:1] == ("tournament",)
        else path
        for path in _commands()
    ],
    ids=lambda path: " ".join(path) or "prefcalc",
)
def test_every_help_page_is_russian(tmp_path: Any, path: tuple[str, ...]) -> None:
    result = invoke([*path, "--help"], tmp_path, env={**RU, "COLUMNS": "100"})
    assert result.returncode == 0, result.stderr
    assert "Использование:" in result.stdout
    assert latin_words(result.stdout, also=["root"]) == [], result.stdout  # CliRunner's name


def test_the_reader_finds_english_and_passes_what_is_typed() -> None:
    assert latin_words("PLAYER объявляет комбинацию «Преферанс»") == ["PLAYER"]
    assert latin_words("whist_price: expected a number as text (deal 2)") == [
        "expected",
        "a",
        "number",
        "as",
        "text",
        "deal",
    ]
    typed = "prefcalc game Аня 7h 7 Боря:w3 Вера:вN --set lone_whister=gentleman g.json 1 × 2"
    assert latin_words(typed) == []
    assert latin_words("Nadia платит Péter", also=["Nadia"]) == ["Péter"]
