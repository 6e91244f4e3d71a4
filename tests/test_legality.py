"""Legality decided in one place (issue 19): ``prefcalc.rules.legality`` holds every check of a
deal about to be recorded — against the game, the convention's rules and its place in the
night — and the API's recording and the ledger loader both go through its entry point."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import NamedTuple

import pytest

import prefcalc
from prefcalc.api import rules
from prefcalc.errors import DealError, LedgerError
from prefcalc.rules import legality
from prefcalc.rules.legality import (
    Problem,
    Refusal,
    check,
    join_refusal,
    new_problems,
    out_of_place,
    problems,
)
from prefcalc.rules.model import AllPass, Contract, Deal, Entry, Game, Preference, SetTerm
from prefcalc.rules.notation import parse_words

P3 = ["Anna", "Boris", "Vera"]
DARK_OFF = "a dark game is not played under this convention (dark_games = false)"
BOMB_OFF = "--bomb names a bomb only under bombs.order = declared (this convention: oldest)"


def _deal(game: Game, line: str) -> Deal:
    return parse_words(line.split(), game.players)


def test_a_legal_deal_has_no_problems() -> None:
    g = prefcalc.new_game(P3, "sochi")
    deal = _deal(g, "game Anna 7h 7 Boris:w Vera:p")
    assert problems(g, rules(g), deal, "Anna") == []
    check(g, rules(g), deal, "Anna")  # does not raise


def test_a_deal_that_does_not_fit_the_game_is_refused_for_that_alone() -> None:
    # tricks that do not add up AND a dark game under Sochi: the game's refusal only, for the
    # whole deal (field ""), as the API and the loader have always shown it
    g = prefcalc.new_game(P3, "sochi")
    deal = _deal(g, "game Anna 7h 7 Boris:w3 Vera:w3 --dark")
    assert problems(g, rules(g), deal, "Anna") == [
        Refusal("", "whisters' tricks 3+3 and the declarer's 7 must add up to 10")
    ]
    assert problems(g, rules(g), deal, None) == [Refusal("", "a deal needs its dealer")]


def test_every_rule_that_refuses_a_deal_is_listed_with_its_field_in_order() -> None:
    # Sochi plays neither dark games nor bombs named by the declarer: both are reported, the
    # dark one first
    g = prefcalc.new_game(P3, "sochi")
    deal = _deal(g, "game Anna 7h 7 Boris:w Vera:p --dark --bomb 2")
    assert isinstance(deal, Contract) and deal.dark and deal.bomb == 2
    conv = rules(g)
    assert conv.bombs_order == "oldest"
    assert problems(g, conv, deal, "Anna") == [Refusal("dark", DARK_OFF), Refusal("bomb", BOMB_OFF)]
    with pytest.raises(DealError) as caught:
        check(g, conv, deal, "Anna")
    assert str(caught.value) == DARK_OFF


@pytest.mark.parametrize(
    ("options", "line", "expected"),
    [
        (
            {"stalingrad": True},
            "game Anna 6s 6 Boris:w Vera:p",
            Refusal(
                "defenders[1].role",
                "6♠ must be whisted by both defenders (stalingrad = true): Vera cannot pass",
            ),
        ),
        (
            {"return_whist": False},
            "game Anna 7h 7 Boris:h Vera:r",
            Refusal(
                "defenders[1].role",
                "the whist is not returned under this convention (return_whist = false)",
            ),
        ),
        (
            {"dark_games": True, "dark_six_whisted": True},
            "game Anna 6s - Boris:p Vera:h --dark",
            Refusal(
                "defenders[0].role",
                "a dark 6♠ must be whisted by both defenders (dark_six_whisted = true): "
                "Boris cannot pass",
            ),
        ),
    ],
)
def test_a_rule_names_the_ledger_field_it_refuses(
    options: dict[str, object], line: str, expected: Refusal
) -> None:
    g = prefcalc.new_game(P3, "sochi", options=options)
    assert problems(g, rules(g), _deal(g, line), "Anna") == [expected]


def test_the_preference_and_a_blind_pass_are_refused_by_the_convention() -> None:
    g = prefcalc.new_game(P3, "sochi")
    conv = rules(g)
    assert problems(g, conv, Preference("Anna"), "Anna") == [
        Refusal(
            "kind",
            "the Preference combination is not played under this convention "
            "(preference_combo = false)",
        )
    ]
    blind = AllPass((("Anna", 3), ("Boris", 3), ("Vera", 4)), ("Boris",))
    assert problems(g, conv, blind, "Anna") == [
        Refusal("blind", "a blind pass is not played under this convention (bombs.blind = false)")
    ]


class _Row(NamedTuple):
    number: int
    entry: Entry
    streak: int
    min_level: int
    finished: bool


def _row(number: int, deal: Deal, streak: int, min_level: int, finished: bool) -> _Row:
    return _Row(number, Entry(deal, "Anna", "t"), streak, min_level, finished)


PASSES = AllPass((("Anna", 3), ("Boris", 3), ("Vera", 4)))
SIX = Contract("Anna", 6, "s", 6, ())
SEVEN = Contract("Anna", 7, "h", 7, ())


def test_place_checks_read_the_streak_and_the_end_before_each_deal() -> None:
    # two all-pass deals, then a 6 where 7 is the lowest: refused with the streak BEFORE it
    rows = [
        _row(1, PASSES, 1, 6, False),
        _row(2, PASSES, 2, 6, False),
        _row(3, SIX, 0, 7, True),  # the game finished with it
        _row(4, SetTerm("target", 30), 0, 6, True),  # a change of terms may come after the end
        _row(5, SEVEN, 0, 6, True),
    ]
    assert out_of_place(rows) == [
        Problem(
            3,
            "after 2 all-pass deals the lowest contract is 7, not 6 "
            "(record it as forced if the table agreed)",
        ),
        Problem(5, "the game had already finished (record it as forced to go on)"),
    ]
    assert str(out_of_place(rows)[1]) == (
        "deal 5: the game had already finished (record it as forced to go on)"
    )


def test_a_forced_deal_is_not_refused_in_its_place_and_one_deal_lists_both_in_order() -> None:
    forced = Entry(SIX, "Anna", "t", True)
    assert out_of_place([_row(1, PASSES, 1, 6, True), _Row(2, forced, 0, 7, True)]) == []
    both = out_of_place([_row(1, PASSES, 1, 6, True), _row(2, SIX, 0, 7, True)])
    assert [p.message.split()[0] for p in both] == ["after", "the"]
    assert both[0].message.startswith("after 1 all-pass deal the lowest contract is 7")


def test_a_change_is_refused_only_for_what_it_breaks() -> None:
    before = [Problem(2, "old"), Problem(4, "kept")]
    found = [Problem(2, "old"), Problem(3, "new"), Problem(4, "kept"), Problem(4, "also new")]
    assert new_problems(found, before, first=1) == [Problem(3, "new"), Problem(4, "also new")]
    assert new_problems(found, before, first=4) == [Problem(4, "also new")]
    assert new_problems(found, (), first=5) == []


def test_a_late_arrival_is_refused_after_the_end_and_during_the_opening_circles() -> None:
    assert join_refusal("Gleb", False, False) is None
    assert join_refusal("Gleb", True, True) == "the game has finished: Gleb cannot join it"
    assert join_refusal("Gleb", False, True) == (
        "the opening circles are being dealt (bombs.opening): Gleb can join once they are over"
    )


def test_the_engine_lists_what_the_place_checks_find() -> None:
    g = prefcalc.new_game(P3, "leningrad")  # 7 after an all-pass deal
    g = prefcalc.record(g, "passes 3 3 4")
    with pytest.raises(DealError) as caught:
        prefcalc.record(g, "game Boris 6s 6 Vera:w Anna:p")
    assert str(caught.value) == (
        "deal 2: after 1 all-pass deal the lowest contract is 7, not 6 (record it as forced if "
        "the table agreed); add --force to record it anyway"
    )
    g = prefcalc.record(g, "game Boris 6s 6 Vera:w Anna:p", force=True)
    assert g.entries[-1].forced and prefcalc.sheet(g).problems == ()


def test_the_ledger_loader_refuses_through_the_same_entry_point(tmp_path: Path) -> None:
    g = prefcalc.record(prefcalc.new_game(P3, "sochi"), "game Anna 7h 7 Boris:w Vera:p")
    path = tmp_path / "g.json"
    prefcalc.save(g, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["deals"][0].update(dark=True, bomb=2)
    path.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(LedgerError) as caught:
        prefcalc.load(path)
    assert "deals[0].dark: " + DARK_OFF in str(caught.value)
    assert path.read_bytes() == before


def test_the_checks_live_in_legality_alone() -> None:
    # the record types' module no longer decides legality, and legality stays below scoring
    import prefcalc.rules.model as model

    assert not hasattr(model, "check_deal") and not hasattr(model, "check_entries")
    source = Path(legality.__file__).read_text(encoding="utf-8")
    imported = {
        node.module
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not any(m.startswith(("prefcalc.rules.scoring", "prefcalc.store")) for m in imported)
