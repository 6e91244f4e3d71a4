"""Appending in constant time (issue 24): the replay is a fold of one step, ``resume``.

For random records of every preset (2-5 players, late arrivals, changes of the terms,
adjustments, Classic's opening circles, bombs and dark games, and nights re-scored under
another preset), resuming from the state after every prefix gives exactly what the full
replay gives: the same states, rows, writes and reasons, findings and sheet; a state read
back from its JSON data resumes the same; a change replayed from a checkpoint gives what a
replay from the start gives; the API's remembered night is the night a fresh replay makes.
"""

from __future__ import annotations

import json
import random
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import random_classic_game, random_game

import prefcalc
import prefcalc.resume as kept
import prefcalc.rules.scoring.night as night_module
from prefcalc import api
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import Entry, Game, SetTerm
from prefcalc.rules.scoring import (
    Night,
    ReplayedRows,
    State,
    replay,
    resume,
    score,
    sheet_of,
    start,
)
from prefcalc.store.conventions import load_preset
from prefcalc.store.ledger import resolve_convention


@st.composite
def nights(draw: st.DrawFn) -> tuple[Game, Convention]:
    """A random record and a convention to replay it under (its own, now and then another)."""
    preset = draw(st.sampled_from(["sochi", "leningrad", "rostov", "classic"]))
    rng = draw(st.randoms(use_true_random=False))
    deals = draw(st.integers(min_value=0, max_value=45))
    target = draw(st.sampled_from([4, 10, 20, 50]))
    if preset == "classic":
        players = draw(st.sampled_from([3, 4, 5]))
        options = {
            "bombs.order": draw(st.sampled_from(["oldest", "declared"])),
            "prizes.first_close": draw(st.sampled_from([0, 10])),
            "prizes.min_mountain": draw(st.sampled_from([0, 5])),
        }
        game = random_classic_game(rng, deals, players, target=target, options=options)
    else:
        players = draw(st.sampled_from([2, 3, 4, 5]))
        joins = draw(st.booleans())
        game = random_game(rng, deals, players, preset, target=target, joins=joins)
    game = _with_set_terms(game, rng, draw(st.integers(min_value=0, max_value=3)))
    own = resolve_convention(game.convention)
    other = draw(st.sampled_from([None, "sochi", "classic", "rostov"]))
    return game, own if other is None else load_preset(other)


def _with_set_terms(game: Game, rng: random.Random, count: int) -> Game:
    """``game`` with ``count`` changes of the terms put in at random places."""
    entries = list(game.entries)
    for _ in range(count):
        at = rng.randint(0, len(entries))
        if rng.random() < 0.7:
            term = SetTerm("target", rng.choice([2, 4, 6, 30]))
        else:
            term = SetTerm("whist_price", rng.choice([1, 2]))
        entries.insert(at, Entry(term, None, "t"))
    return game._replace(entries=tuple(entries))


def _through_json(state: State) -> State:
    return State.from_data(json.loads(json.dumps(state.to_data())))


@settings(max_examples=60, deadline=None)
@given(nights())
def test_resuming_at_every_prefix_gives_the_full_replay(case: tuple[Game, Convention]) -> None:
    game, conv = case
    full = replay(game, conv)
    state = start(game, conv)
    rows = []
    for k, entry in enumerate(game.entries):
        prefix = replay(game._replace(entries=game.entries[:k]), conv)
        assert state == prefix.state  # the state after every prefix is the replay's
        state, row = resume(_through_json(state), conv, entry)
        rows.append(row)
    assert state == full.state
    assert tuple(rows) == full.rows
    assert [[w.reason for w in r.writes] for r in rows] == [
        [w.reason for w in r.writes] for r in full.rows
    ]
    assert sheet_of(state, conv, tuple(rows)) == full.sheet() == score(game, conv)
    assert [str(p) for p in state.unpriced] == [str(p) for p in full.sheet().unpriced]


@settings(max_examples=40, deadline=None)
@given(nights())
def test_replay_is_deterministic_and_a_state_survives_its_json(
    case: tuple[Game, Convention],
) -> None:
    game, conv = case
    one, two = replay(game, conv), replay(game, conv)
    assert one == two
    assert one.sheet() == two.sheet()
    for state in (*one.marks, one.state):
        data = state.to_data()
        assert json.loads(json.dumps(data)) == data  # plain JSON data
        assert State.from_data(data) == state


@settings(max_examples=40, deadline=None)
@given(nights(), st.data())
def test_a_change_replays_from_the_checkpoint_before_it(
    case: tuple[Game, Convention], data: st.DataObject
) -> None:
    game, conv = case
    with mock.patch.object(night_module, "CHECKPOINT", 5):  # many checkpoints in a short night
        night = replay(game, conv)
        assert [m.number for m in night.marks] == list(range(0, len(game.entries) + 1, 5))
        number = data.draw(st.integers(min_value=1, max_value=len(game.entries) + 1))
        # the state before every entry, from the checkpoint before it
        if number <= len(game.entries):
            before = replay(game._replace(entries=game.entries[: number - 1]), conv).state
            assert night.before(game.entries, number) == before
        # drop the tail from ``number`` on and append it again: the same night
        head = game._replace(entries=game.entries[: number - 1])
        shorter = night.changed(head.entries, number)
        assert shorter == replay(head, conv)
        again = shorter
        for entry in game.entries[number - 1 :]:
            again = again.then(entry)
        assert again == night
        if game.entries:
            dropped = night.dropped(game.entries[:-1])
            assert dropped == replay(game._replace(entries=game.entries[:-1]), conv)


def _fresh(game: Game) -> prefcalc.Sheet:
    return score(game, resolve_convention(game.convention))


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([3, 4]))
def test_the_apis_remembered_night_is_a_fresh_replay(rng: random.Random, players: int) -> None:
    # every change through the API leaves the sheet a replay from the start would give
    game = random_game(rng, 30, players, rng.choice(["sochi", "leningrad"]), target=10**6)
    start_game = game._replace(entries=())
    g = start_game
    for entry in game.entries:  # recorded one by one: each resumes the last night
        g = api.redo(g, entry)
        assert api.sheet(g) == _fresh(g)
    number = rng.randint(1, len(g.entries))
    for change in (
        lambda x: api.delete(x, number, force=True),
        lambda x: api.insert(x, number, "adjust Anna --pool 1 --note late", force=True),
        lambda x: api.edit(x, number, "adjust Anna --mountain 2 --note fixed", force=True),
        lambda x: api.undo(x),
    ):
        try:
            g = change(g)
        except prefcalc.PrefcalcError:
            continue  # a change the rules refuse (a later deal would no longer fit)
        assert api.sheet(g) == _fresh(g)


def test_appending_resumes_the_remembered_night_instead_of_replaying() -> None:
    # the second record into the game the API returned takes one step: no replay at all
    g = prefcalc.record(prefcalc.new_game(["Anna", "Boris", "Vera"]), "passes 2 5 3")
    with mock.patch.object(kept, "replay", side_effect=AssertionError("replayed")):
        for _ in range(5):
            g = prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
        assert api.sheet(g).pool["Anna"] == 20
    assert isinstance(kept.night(g), Night)


def test_a_state_from_foreign_data_is_refused() -> None:
    state = start(prefcalc.new_game(["Anna", "Boris", "Vera"]), load_preset("sochi"))
    data = state.to_data()
    for broken in (
        {**data, "pool": [True, 0, 0]},
        {k: v for k, v in data.items() if k != "streak"},
    ):
        with pytest.raises((KeyError, TypeError, ValueError)):
            State.from_data(broken)


def test_a_sheet_from_a_state_alone_replays_its_rows_only_when_read() -> None:
    # what a process that read a checkpoint does: resume from the state, show the new
    # entry's row at once, and replay the record for an older row only when asked
    game = random_game(7, 40, 3, "sochi", target=10**6)
    conv = resolve_convention(game.convention)
    before = replay(game._replace(entries=game.entries[:-1]), conv).state
    state, row = resume(before, conv, game.entries[-1])
    rows = ReplayedRows(game, conv, (row,))
    with mock.patch.object(night_module, "replay", side_effect=AssertionError("replayed")):
        assert len(rows) == 40 and rows[-1] == row and rows[39] == row
    sheet = sheet_of(state, conv, rows)
    full = replay(game, conv)
    assert rows[0] == full.rows[0] and rows[5:7] == full.rows[5:7]
    assert sheet == full.sheet() and full.sheet() == sheet
