"""Issue 24, the CLI starts fast: a command names itself, and only it is made (typer builds
every command of an app before running one). Whatever the words, the answer is the whole
app's, byte for byte."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from prefcalc import cli

NAMES = sorted(
    {info.name or info.callback.__name__.replace("_", "-") for info in cli.app.registered_commands}
)


@pytest.mark.parametrize(
    ("words", "alone"),
    [
        (["game", "Anna", "7h", "7", "Boris:w", "Vera:p"], "game"),
        (["--lang", "ru", "show"], "show"),
        (["--lang=ru", "игра", "--help"], "игра"),
        (["settle", "--lang", "ru"], "settle"),
        (["--help"], None),
        (["--version"], None),
        ([], None),
        (["gme"], None),  # an unknown command: the whole app suggests the close ones
        (["--lang", "ru"], None),
    ],
)
def test_a_named_command_is_made_alone(words: list[str], alone: str | None) -> None:
    chosen = cli._app_for(words)
    if alone is None:
        assert chosen is cli.app
        return
    assert chosen is not cli.app
    assert [i.name or i.callback.__name__ for i in chosen.registered_commands] == [alone]
    assert chosen.registered_callback is cli.app.registered_callback


CASES = [
    *([name, "--help"] for name in NAMES),
    *([name] for name in NAMES),
    *(["--lang", "ru", name, "--help"] for name in NAMES),
    *([name, "--bogus"] for name in NAMES),
    ["game", "Anna"],
    ["game", "--dealr", "Anna", "7h", "7", "Boris:w", "Vera:p"],
    ["--lang=ru", "passes", "--help"],
    ["new", "Anna", "Boris", "--lang", "ru", "--help"],
]


@pytest.mark.parametrize("words", CASES, ids=[" ".join(c) for c in CASES])
def test_the_answer_is_the_whole_apps(tmp_path: Path, words: list[str]) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "PREFCALC_FILE": str(tmp_path / "no.json")}
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        whole = CliRunner().invoke(cli.app, words, env=env, catch_exceptions=False)
        alone = CliRunner().invoke(cli._app_for(words), words, env=env, catch_exceptions=False)
    finally:
        os.chdir(old)
    assert (alone.exit_code, alone.stdout, alone.stderr) == (
        whole.exit_code,
        whole.stdout,
        whole.stderr,
    )


@pytest.fixture
def _collector() -> Iterator[None]:
    """The collector as the test process had it, after a run of the executable's entry."""
    was = gc.isenabled()
    yield
    gc.unfreeze()
    if was:
        gc.enable()


@pytest.mark.usefixtures("_collector")
def test_the_executable_pauses_the_collector_for_a_command_not_for_a_session(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import prefcalc.__main__ as entry
    import prefcalc.play
    import prefcalc.web

    seen: dict[str, bool] = {}

    def shown(*_args: object) -> None:
        seen["show"] = gc.isenabled()
        raise typer.Exit(0)

    monkeypatch.setattr(cli, "_game_and_sheet", shown)
    monkeypatch.setattr(prefcalc.play, "run", lambda _path: seen.update(play=gc.isenabled()) or 0)
    monkeypatch.setattr(prefcalc.web, "serve", lambda *_a, **_k: seen.update(serve=gc.isenabled()))
    ledger = str(tmp_path / "g.json")
    for words in (["show"], ["play"], ["serve"]):
        gc.enable()
        monkeypatch.setattr(sys, "argv", ["prefcalc", *words, "--file", ledger])
        assert entry.run() == 0
        assert gc.get_freeze_count() > 0  # what the process made is left to the system
        gc.unfreeze()
    assert seen == {"show": False, "play": True, "serve": True}
