"""Finding games (games, use), the new game's message, exports into the current directory,
did-you-mean for a mistyped option, local times, and the CLI's insert/redo/set/edit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from prefcalc import api
from tests.support import invoke


def ok(args: list[str], cwd: Path) -> str:
    result = invoke(args, cwd)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_games_lists_them_and_use_resumes_one(tmp_path: Path) -> None:
    assert "no saved games yet" in ok(["games"], tmp_path)
    first = ok(["new", "Anna", "Boris", "Vera"], tmp_path)
    assert "it is now the current game" in first
    second = ok(["new", "Маша", "Петя", "Вова", "Gleb"], tmp_path)
    old = first.split("ledger: ")[1].split("\n")[0]
    assert f"it is now the current game; the previous one is still at {old}" in second
    ok(["game", "Петя", "7ч", "7", "в:в", "g:п"], tmp_path)  # Маша deals and sits out
    listing = ok(["games"], tmp_path)
    lines = listing.splitlines()
    assert "players" in lines[0] and "deals" in lines[0]
    assert lines[1].split()[:5] == ["1", "Anna,", "Boris,", "Vera", lines[1].split()[4]]
    assert lines[2].startswith("*") and "Маша, Петя, Вова, Gleb" in lines[2]
    assert " 1  game on" in lines[2]
    assert "current game" in ok(["use", "1"], tmp_path) and "Anna" in ok(["show"], tmp_path)
    assert "(Маша, Петя, Вова, Gleb, 1 deals)" in ok(["use", "петя"], tmp_path)
    assert "(Anna, Boris, Vera, 0 deals)" in ok(["use", old], tmp_path)
    refused = invoke(["use", "Zoe"], tmp_path)
    assert refused.returncode == 2 and "no saved game matches 'Zoe'" in refused.stderr


def test_export_writes_into_the_current_directory(tmp_path: Path) -> None:
    ok(["new", "Anna", "Boris", "Vera"], tmp_path)
    out = ok(["export", "xlsx"], tmp_path)
    written = list(tmp_path.glob("*.xlsx"))
    assert len(written) == 1 and f"wrote {written[0].name}" in out
    assert not list((tmp_path / "data").rglob("*.xlsx"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["game", "a", "7h", "7", "b:w", "v:p", "--dealr", "Vera"],
            "'--dealr' (did you mean --dealer?)",
        ),
        (["misere", "a", "0", "--forse"], "'--forse' (did you mean --force?)"),
        (["passes", "2", "5", "3", "--fil=x"], "'--fil' (did you mean --file?)"),
        (["show", "--jsn"], "no such option '--jsn' (did you mean --json?)"),
        (["settle", "--metod", "average"], "no such option '--metod' (did you mean --method?)"),
    ],
)
def test_a_mistyped_option_gets_did_you_mean(tmp_path: Path, args: list[str], message: str) -> None:
    ok(["new", "Anna", "Boris", "Vera"], tmp_path)
    result = invoke(args, tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("prefcalc: error: no such option ")
    assert message in result.stderr


@pytest.fixture
def tokyo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_times_are_shown_in_local_time(tmp_path: Path, tokyo: None) -> None:
    path = tmp_path / "g.json"
    game = api.new_game(["Anna", "Boris", "Vera"])
    game = api.record(game, "misere Anna 0", time="2026-11-30T20:05:00+01:00")
    api.save(game, path)
    log = ok(["log", "--file", str(path)], tmp_path)
    assert "04:05" in log  # 20:05 in Berlin is 04:05 the next morning in Tokyo


def test_cli_insert_redo_set_and_edit(tmp_path: Path) -> None:
    f = ["--file", str(tmp_path / "g.json")]
    ok(["new", "Anna", "Boris", "Vera", *f], tmp_path)
    ok(["game", "a", "7h", "7", "b:w", "v:p", *f], tmp_path)
    ok(["мизер", "b", "0", *f], tmp_path)
    again = ok(["misere", "b", "0", *f], tmp_path)  # the same deal twice is legal
    assert "recorded as deal 3" in again
    assert again.rstrip().splitlines()[-1] == "same as deal 2 — undo if it was typed twice"
    assert "deleted deal 3" in ok(["delete", "3", *f], tmp_path)
    assert "removed deal 2" in ok(["undo", *f], tmp_path)
    assert "recorded as deal 2" in ok(["redo", *f], tmp_path)
    nothing = invoke(["redo", *f], tmp_path)
    assert nothing.returncode == 2 and "nothing to redo" in nothing.stderr
    out = ok(["insert", "2", "passes", "2", "5", "3", *f], tmp_path)
    assert "recorded as deal 2, dealt by Boris" in out and "next dealer Anna" in out
    out = ok(["edit", "1", "game", "a", "7h", "6", "b:w", "v:p", *f], tmp_path)
    assert out.startswith("replaced deal 1: Anna 7♥ took 7; Boris whist, Vera pass\n")
    out = ok(["set", "target=30", *f], tmp_path)
    assert "target set to 30" in out and "target 30 each" in out
