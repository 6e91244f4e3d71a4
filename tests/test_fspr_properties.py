"""Property tests over random FSPR nights (docs/rules.md §8.9, §8.10): every entry recorded
through the API's one gate (so every record is legal), with the dealer playing the talon,
his whist without liability after two passes or pass – half-whist – pass, the talon bonus
at three and four, tricks lost for looking, and every kind of penalty; the settlement adds
up to zero and both methods agree exactly; resuming from every prefix is the replay; the
ledger reads the night back both ways; the running balance ends on the settlement.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import prefcalc
from prefcalc.errors import PrefcalcError
from prefcalc.report import running_balance
from prefcalc.rules.model import (
    AllPass,
    Contract,
    Defender,
    Game,
    Misere,
    Penalty,
    sitting_out,
)
from prefcalc.rules.notation import describe, parse_words
from prefcalc.rules.scoring import State, replay, resume, start
from prefcalc.store.ledger import game_from_bytes, game_to_json_text, resolve_convention

NAMES = ("Anna", "Boris", "Vera", "Dima")


def _penalty(rng: random.Random, seats: tuple[str, ...]) -> Penalty:
    who = rng.choice(seats)
    kind = rng.choice(["peek", "dealing", "illegal", "cards", "miscount", "entry"])
    level = rng.randint(6, 10)
    suit = rng.choice(["s", "c", "d", "h", "nt"])
    if kind in ("peek", "dealing"):
        return Penalty(who, kind, rng.choice([5, 3, 10]))
    if kind == "illegal":
        return Penalty(who, "illegal", level, level, suit)
    if kind in ("cards", "miscount"):
        return Penalty(who, kind, rng.randint(2, level), level, suit)
    on = rng.choice([None, *(p for p in seats if p != who)])
    return Penalty(who, "entry", rng.choice([1, 4, 8]), on=on)


def _contract(
    rng: random.Random, game: Game, dealer: str, active: list[str], lowest: int
) -> Contract:
    seats = game.players
    declarer = rng.choice(active)
    first, second = [p for p in active if p != declarer]
    level = rng.randint(lowest, 10)
    suit = rng.choice(["s", "c", "d", "h", "nt"])
    tricks = max(0, min(10, level + rng.choice([-3, -2, -1, 0, 0, 0, 1, 2])))
    four = len(seats) == 4
    talon = rng.choice([None, None, 0, 1, 2, 3])
    shape = rng.random()
    returned = None
    played: int | None = tricks
    if shape < 0.12:
        pair = (Defender(first, "p"), Defender(second, "p"))
        played = None
    elif shape < 0.2 and level <= 7:
        pair = (Defender(first, "p"), Defender(second, "h"))
        played = None
    elif shape < 0.3 and four:  # the dealer whists after the defenders declined
        roles = ("p", "h") if level <= 7 and rng.random() < 0.5 else ("p", "p")
        pair = (Defender(first, roles[0]), Defender(second, roles[1]))
        returned = dealer
    elif shape < 0.36 and level <= 7:
        pair = (Defender(first, "r"), Defender(second, "h"))
    elif shape < 0.65:
        pair = (Defender(first, "w"), Defender(second, "p"))
    else:
        a = rng.randint(0, 10 - tricks)
        pair = (Defender(first, "w", a), Defender(second, "w", 10 - tricks - a))
    looked: tuple[str, ...] = ()
    if played is not None and rng.random() < 0.15:
        holders = [declarer, first, second, *([returned] if returned else [])]
        looked = (rng.choice(holders),)
    return Contract(
        declarer, level, suit, played, pair, talon=talon, returned_by=returned, looked=looked
    )


def fspr_night(rng: random.Random, deals: int, players: int) -> Game:
    """A random FSPR night, every entry through ``prefcalc.record`` (refused ones are
    skipped: the gate decides, the generator only proposes)."""
    game = prefcalc.new_game(list(NAMES[:players]), "fspr")
    for _ in range(deals):
        sheet = prefcalc.sheet(game)
        dealer = sheet.next_dealer
        out = sitting_out(game.players, dealer)
        active = [p for p in game.players if p not in out]
        roll = rng.random()
        deal: object
        if roll < 0.08:
            deal = _penalty(rng, game.players)
        elif roll < 0.33:
            holders = [*active, *out[:1]]  # the dealer plays the talon at four
            counts = dict.fromkeys(holders, 0)
            if out:
                counts[out[0]] = rng.randint(0, 2)
            for _trick in range(10 - sum(counts.values())):
                counts[rng.choice(active)] += 1
            tricks = tuple((p, counts[p]) for p in game.players if p in counts)
            looked = (rng.choice(holders),) if rng.random() < 0.15 else ()
            deal = AllPass(tricks, looked=looked)
        elif roll < 0.4:
            declarer = rng.choice(active)
            taken = 0 if rng.random() < 0.6 else rng.randint(1, 4)
            deal = Misere(declarer, taken, looked=(declarer,) if rng.random() < 0.15 else ())
        else:
            deal = _contract(rng, game, dealer, active, sheet.min_level)
        try:
            game = prefcalc.record(game, deal)  # type: ignore[arg-type]
        except PrefcalcError:
            continue
    return game


@st.composite
def nights(draw: st.DrawFn) -> Game:
    rng = draw(st.randoms(use_true_random=False))
    return fspr_night(
        rng, draw(st.integers(min_value=0, max_value=30)), draw(st.sampled_from([3, 4]))
    )


@settings(max_examples=40, deadline=None)
@given(nights())
def test_fspr_nights_settle_to_zero_and_both_methods_agree(game: Game) -> None:
    for rounding in ("exact", "whole"):
        one = prefcalc.settle(game, "pairwise", rounding)
        two = prefcalc.settle(game, "average", rounding)
        assert sum(one.whists.values()) == 0 and sum(two.whists.values()) == 0
        if rounding == "exact":
            assert one.whists == two.whists
            assert sum(one.pool_results.values()) == 0
    sheet = prefcalc.sheet(game)
    assert not sheet.finished and not sheet.problems and not sheet.unpriced
    if game.entries:
        assert running_balance(sheet)[-1] == prefcalc.settle(game).whists


@settings(max_examples=40, deadline=None)
@given(nights())
def test_resume_is_the_replay_and_its_state_survives_json(game: Game) -> None:
    conv = resolve_convention(game.convention)
    night = replay(game, conv)
    state = start(game, conv)
    for k, entry in enumerate(game.entries):
        state, row = resume(State.from_data(json.loads(json.dumps(state.to_data()))), conv, entry)
        assert row == night.rows[k]
    assert state == night.state


@settings(max_examples=30, deadline=None)
@given(nights())
def test_the_ledger_and_the_notation_read_the_night_back(game: Game) -> None:
    assert game_from_bytes(game_to_json_text(game).encode()) == game
    seats = game.players
    for entry in game.entries:
        assert parse_words(describe(entry.deal).split(), seats) == entry.deal
