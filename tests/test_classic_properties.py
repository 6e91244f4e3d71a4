"""Invariants over random Classic nights (docs/rules.md §8.1): bombs are used only by made
contracts and never lost, totals are the sum of the writes, a Classic night re-scored under
Sochi reports the deals it cannot price instead of failing."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from support import game_from_json, random_classic_game

from prefcalc.rules.legality import misfit
from prefcalc.rules.model import AllPass, Contract, Game, Misere
from prefcalc.rules.scoring import MOUNTAIN, POOL, score
from prefcalc.rules.settlement import settle
from prefcalc.store.ledger import game_to_json_text, resolve_convention


@st.composite
def classic_games(draw: st.DrawFn) -> Game:
    players = draw(st.sampled_from([3, 4]))
    deals = draw(st.integers(min_value=0, max_value=60))
    order = draw(st.sampled_from(["oldest", "declared"]))
    rng = draw(st.randoms(use_true_random=False))
    target = draw(st.sampled_from([10, 20, 50]))
    return random_classic_game(rng, deals, players, target, {"bombs.order": order})


def _made(deal: Contract | Misere) -> bool:
    if isinstance(deal, Misere):
        return deal.tricks == 0
    return deal.tricks is None or deal.tricks >= deal.level


@settings(deadline=None)
@given(classic_games())
def test_a_bomb_is_used_only_by_a_made_contract_and_a_held_bomb_is_never_lost(game: Game) -> None:
    conv = resolve_convention(game.convention)
    assert misfit(game, conv) is None
    sheet = score(game, conv)
    assert not sheet.unpriced
    held: dict[str, list[int]] = {p: [] for p in sheet.players}
    for s in sheet.scored:
        deal = s.entry.deal
        for who, what, factor in s.bombs:
            if what == "earned":
                assert isinstance(deal, AllPass)
                held[who].append(factor)
            elif what == "used":
                assert isinstance(deal, Contract | Misere) and _made(deal)
                assert who == deal.declarer
                held[who].remove(factor)
            else:
                assert isinstance(deal, Contract | Misere) and not _made(deal)
                assert factor in held[who]
        if isinstance(deal, Contract | Misere):
            used = [e for e in s.bombs if e[1] == "used"]
            assert len(used) <= 1
            dark = 2 if deal.dark else 1
            assert s.factor in {dark * b for b in (1, *held[deal.declarer], *(e[2] for e in used))}
    assert {p: tuple(v) for p, v in held.items() if v} == dict(sheet.bombs)


@settings(deadline=None)
@given(classic_games())
def test_classic_totals_are_the_sum_of_the_writes_and_settle_adds_up(game: Game) -> None:
    conv = resolve_convention(game.convention)
    sheet = score(game, conv)
    cells: dict[tuple[str, str, str | None], object] = {}
    for s in sheet.scored:
        for w in s.writes:
            key = (w.player, w.column, w.on)
            cells[key] = cells.get(key, 0) + w.amount  # type: ignore[operator]
            assert w.reason
    for p in sheet.players:
        assert sheet.pool[p] == cells.get((p, POOL, None), 0)
        assert sheet.mountain[p] == cells.get((p, MOUNTAIN, None), 0)
        for q in sheet.players:
            if q != p:
                assert sheet.whists[p][q] == cells.get((p, "whists", q), 0)
    assert sum(settle(sheet).whists.values()) == 0
    again = game_from_json(json.loads(game_to_json_text(game)))
    assert again == game
    assert score(again, conv) == sheet


@settings(deadline=None)
@given(classic_games())
def test_a_classic_night_re_scored_under_sochi_lists_what_it_cannot_price(game: Game) -> None:
    from prefcalc.store.conventions import load_preset

    sheet = score(game, load_preset("sochi"))
    flagged = {p.number for p in sheet.unpriced}
    for s in sheet.scored:
        deal = s.entry.deal
        if isinstance(deal, Contract | Misere) and (deal.dark or deal.bomb is not None):
            assert s.number in flagged
        if isinstance(deal, AllPass) and deal.blind:
            assert s.number in flagged
    assert sum(settle(sheet).whists.values()) == 0
