"""Issue 24, append in constant time for the CLI: a command resumes from the checkpoint the
command before it kept (the state after the ledger's last entry, beside the validation
cache) instead of replaying the night; a checkpoint that is stale, foreign or corrupt is
ignored (the night is replayed), and what a command prints is byte for byte the same with
the checkpoint and without it.

Each command runs in this process as a new process would: nothing of the last game is kept
in memory (:func:`new_process`).
"""

from __future__ import annotations

import hashlib
import os
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import invoke, random_classic_game, random_game
from support import new_process as _forget

import prefcalc.rules.scoring.night as night_module
from prefcalc import api, resume
from prefcalc.errors import PrefcalcError
from prefcalc.rules.model import Game
from prefcalc.rules.scoring import State, replay, score
from prefcalc.store import checkpoint, ledger, trusted

PASSES = ["passes", "2", "5", "3"]  # the active players' tricks: any table of 3 to 5


def new_process() -> None:
    """Forget what this process knows of the last game, as a new command starts."""
    _forget()


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the CLI's, in invoke
    monkeypatch.setattr(ledger, "now", lambda: "2026-11-30T21:00:00+01:00")  # log shows it
    new_process()
    yield
    new_process()


class Replays:
    """Counts the replays of a whole record (the API's and the lazy rows')."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[Game] = []

        def counted(game: Game, convention: Any) -> Any:
            self.calls.append(game)
            return replay(game, convention)

        monkeypatch.setattr(resume, "replay", counted)
        monkeypatch.setattr(night_module, "replay", counted)


def _ledger(folder: Path, game: Game) -> Path:
    """``game`` in a ledger written by prefcalc, as a command at the table leaves it: its
    last entry recorded through the API, which keeps the checkpoint."""
    path = folder / "g.json"
    api.save(game._replace(entries=game.entries[:-1]), path)
    api.update(path, lambda g: api.redo(g, game.entries[-1]))
    new_process()
    return path


def _night(seed: int = 5, deals: int = 60) -> Game:
    return random_game(seed, deals, 3, "sochi", target=10**6, adjustments=False)


def _cli(tmp_path: Path, path: Path, *words: str) -> tuple[int, str, str]:
    new_process()
    done = invoke([*words, "--file", str(path)], tmp_path)
    return done.returncode, done.stdout, done.stderr


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_command_resumes_from_the_checkpoint_the_last_one_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _ledger(tmp_path, _night())
    replays = Replays(monkeypatch)
    for words in (PASSES, ["game", "Anna", "7h", "7", "Boris:w", "Vera:p"], ["set", "target=30"]):
        code, out, err = _cli(tmp_path, path, *words)
        assert (code, err) == (0, ""), err
        assert out.startswith(("recorded as deal", "recorded as No."))  # a set line: No. 63
    assert replays.calls == []  # every command took one step from the state kept
    new_process()
    game = ledger.load_cached(path)
    kept = State.from_data(ledger.stored_checkpoint(game))
    assert kept == replay(game, api.rules(game)).state  # and kept the state after it


def test_the_first_command_without_a_checkpoint_replays_once_and_keeps_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.json"
    api.save(_night(), path)  # written, never recorded into: no checkpoint
    replays = Replays(monkeypatch)
    assert _cli(tmp_path, path, *PASSES)[0] == 0
    assert len(replays.calls) == 1
    assert _cli(tmp_path, path, *PASSES)[0] == 0
    assert len(replays.calls) == 1


def test_reading_an_older_row_replays_only_then(tmp_path: Path) -> None:
    # the sheet after a resumed step has every row: the older ones replayed when read
    game = _night()
    path = _ledger(tmp_path, game)
    after = api.update(path, lambda g: api.record(g, PASSES))
    assert isinstance(resume.known(after), resume.Resumed)
    sheet = api.sheet(after)
    full = score(after, api.rules(after))
    assert sheet.scored[-1] == full.scored[-1]
    assert sheet == full
    again = api.update(path, lambda g: api.record(g, PASSES))  # goes on from the replayed night
    assert isinstance(resume.known(again), night_module.Night)
    assert api.sheet(again) == score(again, api.rules(again))


def _with_and_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: Game, commands: list[list[str]]
) -> tuple[list[tuple[int, str, str]], list[tuple[int, str, str]]]:
    """What ``commands`` print, one process each, into ``game`` kept with its checkpoints
    and into the same game whose checkpoints are deleted before every command."""
    kept_dir, bare_dir = tmp_path / "kept", tmp_path / "bare"
    outputs: list[list[tuple[int, str, str]]] = []
    for folder, drop in ((kept_dir, False), (bare_dir, True)):
        folder.mkdir()
        monkeypatch.setenv("XDG_DATA_HOME", str(folder / "data"))
        path = _ledger(folder, game)
        said = []
        for words in commands:
            if drop:
                checkpoint.path().unlink(missing_ok=True)
            said.append(_cli(folder, path, *words))
        outputs.append(said)
    return outputs[0], outputs[1]


@pytest.mark.parametrize(
    "game",
    [
        _night(),
        random_game(8, 40, 4, "leningrad", target=10**6),
        random_game(9, 50, 3, "rostov", target=10**6, joins=True),
        random_classic_game(3, 30, 3, target=10**6),
        random_classic_game(4, 8, 4, target=10**6, options={"bombs.order": "declared"}),
    ],
    ids=["sochi", "leningrad-4", "rostov-joins", "classic", "classic-opening"],
)
def test_what_a_command_prints_is_the_same_with_and_without_the_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: Game
) -> None:
    commands = [
        PASSES,
        ["adjust", game.players[0], "--pool", "2", "--note", "late"],
        ["undo"],
        ["redo"],
        PASSES,
        ["set", "whist_price=2"],
        ["show"],
        ["log"],
    ]
    kept, bare = _with_and_without(tmp_path, monkeypatch, game, commands)
    assert kept == bare
    assert all(code == 0 for code, _out, _err in kept), kept


def _stored(path: Path, value: Any) -> None:
    checkpoint.save(_digest(path), trusted.program(), value)


def _state_data(game: Game) -> dict[str, Any]:
    return replay(game, api.rules(game)).state.to_data()


def _odd_values(game: Game) -> Iterator[tuple[str, Any]]:
    """Checkpoints kept under a ledger's digest that are not the state after it."""
    good = _state_data(game)
    shorter = _state_data(game._replace(entries=game.entries[:-1]))
    other = _state_data(random_game(11, len(game.entries), 3, "sochi", target=10**6))
    yield "not a state", "state"
    yield "a list", [1, 2, 3]
    yield "a field missing", {k: v for k, v in good.items() if k != "pool"}
    yield "the state before the last entry", shorter
    yield "another night's state, the same length", {**other, "players": ["X", "Y", "Z"]}
    yield "another seating", {**good, "players": list(reversed(good["players"]))}
    yield "a dealer nobody is", {**good, "last_dealer": "Nobody"}
    yield "a zero denominator", {**good, "pool": ["1/0", 0, 0]}
    yield "a short row of whists", {**good, "whists": [[0, 0], [0, 0, 0], [0, 0, 0]]}
    yield "a finding no check makes", {**good, "problems": [[3, "", "no such check", []]]}
    yield "a finding with wrong arguments", {**good, "problems": [[3, "", "below_exit", []]]}
    yield "an opening circle past the end", {**good, "opening_left": 10**6}
    yield "a negative streak", {**good, "streak": -1}
    yield "a first to close who is nobody", {**good, "first_closed": "Z", "first_closed_at": 3}
    yield "a boolean for a number", {**good, "number": True}


@pytest.mark.parametrize("case", range(15))
def test_a_stale_foreign_or_corrupt_checkpoint_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: int
) -> None:
    game = _night(deals=40)
    what, value = list(_odd_values(game))[case]
    clean = tmp_path / "clean"
    clean.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(clean / "data"))
    expected = _cli(clean, _ledger(clean, game), *PASSES)
    odd = tmp_path / "odd"
    odd.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(odd / "data"))
    path = _ledger(odd, game)
    _stored(path, value)
    replays = Replays(monkeypatch)
    assert _cli(odd, path, *PASSES) == expected, what
    assert len(replays.calls) == 1, what  # replayed, never trusted


def test_a_ledger_changed_by_another_hand_is_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _night(deals=40)
    path = _ledger(tmp_path, game)
    changed = game._replace(entries=game.entries[:-3])
    path.write_text(ledger.game_to_json_text(changed), encoding="utf-8")  # the same bytes'
    # digest is no longer the one the checkpoint was kept for
    replays = Replays(monkeypatch)
    code, out, err = _cli(tmp_path, path, *PASSES)
    assert (code, err) == (0, ""), err
    assert out.startswith(f"recorded as deal {len(changed.entries) + 1},")
    assert len(replays.calls) == 1


def _random_night(rng: random.Random, preset: str, deals: int) -> Game:
    if preset == "classic":
        options = {"bombs.order": rng.choice(["oldest", "declared"])}
        return random_classic_game(rng, deals, rng.choice([3, 4, 5]), 10**6, options)
    return random_game(rng, deals, rng.choice([3, 4, 5]), preset, 10**6, joins=rng.random() < 0.5)


@settings(max_examples=25, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(["sochi", "leningrad", "rostov", "classic"]),
    st.integers(min_value=1, max_value=40),
)
def test_resuming_from_a_kept_and_reloaded_checkpoint_is_the_full_replay(
    rng: random.Random, preset: str, deals: int
) -> None:
    night = _random_night(rng, preset, deals + 1)
    with tempfile.TemporaryDirectory() as name, mock.patch.dict(os.environ):
        folder = Path(name)
        os.environ["XDG_DATA_HOME"] = str(folder / "data")
        path = _ledger(folder, night._replace(entries=night.entries[:-1]))
        game = ledger.load_cached(path)
        resumed = resume.latest(game)  # from the checkpoint, read back from the file
        assert isinstance(resumed, resume.Resumed)
        full = replay(game, api.rules(game))
        assert resumed.state == full.state
        assert api.sheet(game) == full.sheet()
        try:  # one more entry, resumed from the state read back
            after = api.redo(game, night.entries[-1])
        except PrefcalcError:
            return  # refused in its place (the rules changed by a set term, a finish)
        again = replay(after, api.rules(after))
        kept = resume.known(after)
        assert kept is not None and kept.state == again.state
        assert api.sheet(after) == again.sheet()
        new_process()
