"""The app's engine (what the Web Worker runs), in CPython on a temporary folder: the same play
lines give the ledger and the JSON the CLI gives; a refusal is one line and changes nothing;
the page's hostile requests are refused the same way and change nothing either.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from prefcalc import api
from prefcalc.app import engine
from prefcalc.views.night import log_items
from tests.support import SAMPLE_3, invoke

TIMES = re.compile(r'"(created|time)": "[^"]*"')


def call(root: Path, op: str, **args: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(engine.handle(json.dumps({"op": op, "args": args}), root))
    return answer


def ok(root: Path, op: str, **args: Any) -> Any:
    answer = call(root, op, **args)
    assert answer["ok"], answer
    return answer["result"]


def refused(root: Path, op: str, **args: Any) -> str:
    answer = call(root, op, **args)
    assert answer["ok"] is False, answer
    error: str = answer["error"]
    assert "\n" not in error and "Traceback" not in error
    return error


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(engine, "_engine", None)  # a fresh engine per test
    return tmp_path / "games"


def _new(root: Path, **args: Any) -> str:
    made = ok(root, "new", players=["Anna", "Boris", "Vera"], convention="sochi", target=20, **args)
    assert made["files"]["redo"] is None
    assert made["game"]["deals"] == 0
    return str(made["name"])


def _cli_night(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "cli.json"
    made = invoke(
        ["new", "Anna", "Boris", "Vera", "-c", "sochi", "-t", "20", "-f", str(path)], tmp_path
    )
    assert made.returncode == 0, made.stderr
    played = invoke(["play", "-f", str(path)], tmp_path, input="\n".join(lines) + "\n")
    assert played.returncode == 0, played.stderr
    return path


def test_a_night_in_the_engine_is_the_clis_night(root: Path, tmp_path: Path) -> None:
    name = _new(root)
    for line in SAMPLE_3:
        answer = ok(root, "line", name=name, line=line)
        assert answer["files"]["ledger"] == (root / f"{name}.json").read_text(encoding="utf-8")
    cli = _cli_night(tmp_path, SAMPLE_3)
    ledger = root / f"{name}.json"
    # the same ledger, written by the same code, but for when things were written
    assert TIMES.sub("", ledger.read_text()) == TIMES.sub("", cli.read_text())
    for args, op, extra in (
        (["show", "--json"], "game", {}),
        (["log", "--json"], "log", {}),
        (
            ["settle", "--json", "-m", "average", "-r", "whole"],
            "settle",
            {"method": "average", "rounding": "whole"},
        ),
        (["settle", "--json"], "settle", {}),
    ):
        shown = invoke([*args, "-f", str(ledger)], tmp_path)
        assert shown.returncode == 0, shown.stderr
        mine = ok(root, op, name=name, **extra)
        if op == "log":  # serve's list of the night's deals: log --json and what pages add
            assert [
                {k: it[k] for k in cli}
                for it, cli in zip(mine, json.loads(shown.stdout), strict=True)
            ] == json.loads(shown.stdout)
            assert {"players", "sitting_out", "lowest_contract", "shorthand"} <= set(mine[0])
            game = api.load_current(ledger)
            assert mine == log_items(game, api.sheet(game), None, "en")
            continue
        assert json.loads(shown.stdout) == mine, op
    assert ok(root, "seats", name=name)["deals"] == len(SAMPLE_3)
    explained = invoke(["explain", "3", "-f", str(ledger)], tmp_path)
    assert ok(root, "explain", name=name, number=3)["output"] == explained.stdout.rstrip("\n")
    assert ok(root, "sheet", name=name)["svg"].startswith("<svg")


def test_undo_redo_edit_insert_delete_hand_back_both_files(root: Path) -> None:
    name = _new(root)
    ok(root, "line", name=name, line="game Anna 7h 7 Boris:w Vera:p")
    ok(root, "line", name=name, line="passes Anna=2 Boris=5 Vera=3")
    undone = ok(root, "line", name=name, line="undo")
    assert undone["deals"] == 1 and undone["files"]["redo"]  # what redo puts back, kept
    redone = ok(root, "line", name=name, line="redo")
    assert redone["deals"] == 2
    edited = ok(root, "line", name=name, line="edit 1 game Anna 6s 6 Boris:w Vera:p")
    assert '"contract": "6s"' in edited["files"]["ledger"]
    assert ok(root, "line", name=name, line="insert 2 misere Boris 0")["deals"] == 3
    assert ok(root, "line", name=name, line="delete 2")["deals"] == 2
    viewed = ok(root, "line", name=name, line="show")
    assert "files" not in viewed  # nothing changed, nothing to keep


def test_a_refused_line_is_one_line_and_writes_nothing(root: Path) -> None:
    name = _new(root)
    ok(root, "line", name=name, line="game Anna 7h 7 Boris:w Vera:p")
    before = (root / f"{name}.json").read_bytes()
    for line in (
        "game Zed 7h 7 Boris:w Vera:p",
        "edit 9 misere Anna 0",
        "undo extra",
        "quit",
        "x" * 501,
        "a\nb",
    ):
        refused(root, "line", name=name, line=line)
    assert (root / f"{name}.json").read_bytes() == before


def test_a_game_reopened_from_the_phone_goes_on(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = _new(root)
    files = ok(root, "line", name=name, line="game Anna 7h 7 Boris:w Vera:p")["files"]
    files = ok(root, "line", name=name, line="undo")["files"]
    # a new worker (a reload): an empty memory, the game given back by the page
    monkeypatch.setattr(engine, "_engine", None)
    fresh = root.parent / "again"
    opened = ok(fresh, "open", name=name, ledger=files["ledger"], redo=files["redo"])
    assert opened["game"]["deals"] == 0
    assert ok(fresh, "line", name=name, line="redo")["deals"] == 1  # redo survived the reload


def test_hostile_requests_are_one_line_and_change_nothing(root: Path) -> None:
    name = _new(root)
    ledger = (root / f"{name}.json").read_bytes()
    for bad in ("../x", "/etc/passwd", "", ".hidden", "a" * 200, 7, None, "x.json"):
        refused(root, "game", name=bad)
        refused(root, "open", name=bad, ledger=ledger.decode())
    assert not (root.parent / "x.json").exists()
    refused(root, "open", name="other", ledger='{"schema": 2}')
    refused(root, "open", name="other", ledger="not json at all")
    refused(root, "open", name="other", ledger="[" * 100_000)
    refused(root, "open", name="other", ledger=" " * (engine.MAX_LEDGER + 1))
    refused(root, "open", name="other", ledger=12)
    assert not (root / "other.json").exists()
    refused(root, "check", ledger='{"players": ["Anna"]}')
    refused(root, "nonsense")
    refused(root, "line", name=name)  # a missing argument
    refused(root, "line", name=name, line="show", extra=1)
    refused(root, "log", name=name, last=-1)
    refused(root, "log", name=name, last=True)
    refused(root, "explain", name=name, number="1; rm")
    refused(root, "settle", name=name, method="fair")
    refused(root, "new", players="Anna Boris Vera")
    refused(root, "new", players=["Anna", "Anna", "Vera"])
    refused(root, "new", players=["Anna", "Boris", "Vera"], price="free")
    refused(root, "lang", lang="fr")
    assert json.loads(engine.handle("{not json", root))["ok"] is False
    assert json.loads(engine.handle("[1, 2]", root))["ok"] is False
    assert (root / f"{name}.json").read_bytes() == ledger
    assert sorted(p.name for p in root.iterdir()) == [f"{name}.json", f"{name}.json.lock"]


def test_check_says_what_an_imported_file_holds(root: Path, tmp_path: Path) -> None:
    text = _cli_night(tmp_path, SAMPLE_3[:4]).read_text(encoding="utf-8")
    held = ok(root, "check", ledger=text)
    assert held["players"] == ["Anna", "Boris", "Vera"] and held["deals"] == 4
    assert held["created"]
    assert not root.exists() or not any(root.iterdir())  # checking writes nothing


def test_two_games_of_the_same_second_get_two_names(root: Path) -> None:
    first = _new(root)
    second = _new(root, taken=[first])
    third = _new(root, taken=[first, second, f"{first}-3"])
    assert len({first, second, third}) == 3
    assert f"{first}-3" != third


def test_the_page_language_is_the_answers_language(root: Path) -> None:
    name = _new(root)
    ok(root, "lang", lang="ru")
    try:
        answer = ok(root, "line", name=name, line="game Anna 7h 7 Boris:w Vera:p")
        assert "записан" in answer["output"] or "пуля" in answer["output"], answer["output"]
        logged = ok(root, "log", name=name)[0]
        assert logged["writes"][0]["said"]
        assert logged["shorthand"] == "игра Anna 7ч 7 Boris:в Vera:п"  # as serve's score page
        assert "ИгрокZ" in refused(root, "line", name=name, line="game ИгрокZ 7h 7 Boris:w Vera:p")
    finally:
        ok(root, "lang", lang="en")


def test_selftest_goes_through_every_operation(tmp_path: Path) -> None:
    result = engine.selftest(tmp_path / "self")
    assert result["deals"] == 3
    assert set(result["ms"]) >= {"new", "show", "log", "settle", "explain", "sheet", "ru", "check"}


def test_a_game_of_russian_names_is_named_as_the_cli_names_it(root: Path) -> None:
    made = ok(root, "new", players=["Анна", "Борис", "Вера"], convention="sochi")
    assert made["name"].endswith("-Анна-Борис-Вера")
    assert ok(root, "line", name=made["name"], line="game Анна 7h 7 Борис:w Вера:p")["deals"] == 1


def test_the_names_in_the_russian_cases_for_the_pages_messages(root: Path) -> None:
    made = ok(root, "new", players=["Анна", "Борис", "Vera"], convention="sochi")
    assert ok(root, "cases", name=made["name"]) == {}  # English: names as typed
    ok(root, "lang", lang="ru")
    try:
        forms = ok(root, "cases", name=made["name"])
        assert forms["Анна"]["acc"] == "Анну" and forms["Борис"]["dat"] == "Борису"
        assert "Vera" not in forms  # a Latin name stays as typed
    finally:
        ok(root, "lang", lang="en")


def test_the_summary_keeps_the_money_as_this_prefcalc_scores_it(root: Path) -> None:
    name = _new(root)
    assert ok(root, "summary", name=name)["balance"] == {"Anna": "0", "Boris": "0", "Vera": "0"}
    ok(root, "line", name=name, line="game Anna 7h 7 Boris:w Vera:p")
    game = api.load_current(root / f"{name}.json")
    settled = api.settle(game)
    kept = ok(root, "summary", name=name)["balance"]
    assert kept == {p: str(settled.money[p]) for p in ("Anna", "Boris", "Vera")}
    assert kept != {"Anna": "0", "Boris": "0", "Vera": "0"}
