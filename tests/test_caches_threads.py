"""What this process keeps between calls (issue 32, item 4: the night it last scored, the ledger
it last read or wrote, the lines of the text it wrote) under two tables' threads at once, as
``serve --tournament`` runs them: each table's game, ledger and sheet stay its own.

The threads are made to take turns at chosen points (a barrier after each write's text and
each load), never by timing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import game_from_json, new_process, random_game

from prefcalc import api
from prefcalc.rules.scoring import score
from prefcalc.store import ledger, text
from prefcalc.table.service import Service

ROUNDS = 12


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    new_process()


def _in_turns(monkeypatch: pytest.MonkeyPatch, barrier: threading.Barrier) -> None:
    """Each thread waits for the other after every ledger text it makes and every ledger it
    reads: the two tables' calls interleave step by step."""
    made = text.game_to_json_text
    read = ledger._read

    def made_then_wait(game: Any) -> str:
        out = made(game)
        barrier.wait(timeout=60)
        return out

    def read_then_wait(path: Path, shown: str) -> bytes:
        out = read(path, shown)
        barrier.wait(timeout=60)
        return out

    monkeypatch.setattr(text, "game_to_json_text", made_then_wait)
    monkeypatch.setattr(ledger, "game_to_json_text", made_then_wait)
    monkeypatch.setattr(ledger, "_read", read_then_wait)


def _both(*work: Callable[[], None]) -> None:
    errors: list[BaseException] = []

    def run(fn: Callable[[], None]) -> None:
        try:
            fn()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(fn,)) for fn in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []


def test_two_tables_recording_at_once_keep_their_own_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = {
        "one": random_game(11, 40, 3, "sochi", target=10**6, adjustments=False),
        "two": random_game(12, 60, 4, "sochi", target=10**6, adjustments=False),
    }
    paths = {name: tmp_path / f"{name}.json" for name in starts}
    for name, game in starts.items():
        api.save(game, paths[name])
    lines = {
        "one": "passes Anna=2 Boris=5 Vera=3",
        "two": "passes 4 3 3",
    }
    tables = {name: Service(path) for name, path in paths.items()}
    answers: dict[str, list[int]] = {name: [] for name in starts}
    _in_turns(monkeypatch, threading.Barrier(2))

    def play(name: str) -> Callable[[], None]:
        def run() -> None:
            for _ in range(ROUNDS):
                done = tables[name].line(lines[name])
                assert done.status == 200, done.body
                answers[name].append(done.body["deals"])
                tables[name].reading()  # a read between the writes, as a page does

        return run

    _both(play("one"), play("two"))
    monkeypatch.undo()
    new_process()
    for name, start in starts.items():
        count = len(start.entries)
        assert answers[name] == list(range(count + 1, count + ROUNDS + 1))
        on_disk = paths[name].read_text(encoding="utf-8")
        validated = game_from_json(__import__("json").loads(on_disk))  # in full, no cache
        assert validated.players == start.players
        assert validated.entries[:count] == start.entries
        assert len(validated.entries) == count + ROUNDS
        assert on_disk == ledger.game_to_json_text(validated)
        assert api.sheet(validated) == score(validated, api.rules(validated))
