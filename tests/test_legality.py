"""Legality decided in one place (issue 19): ``prefcalc.rules.legality`` holds every check of a
deal about to be recorded — against the game, the convention's rules and its place in the
night — and the API's recording and the ledger loader both go through its entry point."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import prefcalc
from prefcalc.api import rules
from prefcalc.errors import DealError, LedgerError
from prefcalc.rules import legality
from prefcalc.rules.legality import (
    FORCED,
    Finding,
    Problem,
    Refusal,
    findings,
    join_refusal,
    misfit,
    problems,
    validate,
)
from prefcalc.rules.model import (
    AllPass,
    Contract,
    Deal,
    Defender,
    Entry,
    Game,
    Preference,
    SetTerm,
)
from prefcalc.rules.notation import NOTATION_FLAGS, parse_words
from prefcalc.rules.scoring import State, start

P3 = ["Anna", "Boris", "Vera"]
DARK_OFF = "a dark game is not played under this convention (dark_games = false)"
BOMB_OFF = "a declarer names his bomb only under bombs.order = declared (this convention: oldest)"


def _deal(game: Game, line: str) -> Deal:
    return parse_words(line.split(), game.players)


def test_a_legal_deal_has_no_problems() -> None:
    g = prefcalc.new_game(P3, "sochi")
    deal = _deal(g, "game Anna 7h 7 Boris:w Vera:p")
    assert problems(g, rules(g), deal, "Anna") == []
    assert misfit(prefcalc.record(g, deal), rules(g)) is None


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
    # the API refuses the first, as the table reads it
    played = prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
    with pytest.raises(DealError) as caught:
        prefcalc.insert(played, 1, deal)
    assert str(caught.value) == DARK_OFF


def test_the_checks_return_what_is_wrong_and_never_raise() -> None:
    # a deal that fits nothing (an unknown player, tricks out of range, no dealer): every
    # entry point answers with values, the first refusal being the one shown
    g = prefcalc.new_game(P3, "sochi")
    conv = rules(g)
    ghost = Contract("Zoe", 11, "x", 12, (Defender("Boris", "w9"),))
    assert problems(g, conv, ghost, "Anna") == [
        Refusal("", "unknown player 'Zoe' (players: Anna, Boris, Vera)")
    ]
    assert problems(g, conv, ghost, "Zoe")[0].message.startswith("unknown player 'Zoe'")
    assert validate(start(g, conv), conv, Entry(ghost, "Anna", "t"))[0].field == ""
    # a later deal that no longer fits its seating is named with its number
    four = prefcalc.new_game((*P3, "Dima"), "sochi")
    four = prefcalc.record(four, "game Boris 7h 7 Vera:w Dima:p")  # Anna deals and sits out
    moved = four._replace(entries=(four.entries[0]._replace(dealer="Boris"),))
    assert misfit(moved, rules(four)) == (
        1,
        "Boris is the dealer and sits out this deal, so cannot declare",
    )
    assert misfit(moved, rules(four), first=2) is None


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


def _state(players: tuple[str, ...] = tuple(P3), **changes: object) -> State:
    """The sheet before a deal of a fresh Leningrad night, with ``changes``."""
    g = prefcalc.new_game(players, "leningrad")
    return start(g, rules(g))._replace(**changes)  # type: ignore[arg-type]


PASSES = AllPass((("Anna", 3), ("Boris", 3), ("Vera", 4)))
SIX = Contract("Anna", 6, "s", 6, (Defender("Boris", "w"), Defender("Vera", "p")))
SEVEN = Contract("Anna", 7, "h", 7, (Defender("Boris", "w"), Defender("Vera", "p")))
LENINGRAD = rules(prefcalc.new_game(P3, "leningrad"))  # 7 after all-pass deals


def test_place_checks_read_the_streak_and_the_end_before_the_deal() -> None:
    # two all-pass deals, then a 6 where 7 is the lowest: refused with the streak BEFORE it
    six = Entry(SIX, "Vera", "t")
    assert findings(_state(streak=2), LENINGRAD, six)[1] == (
        Finding(FORCED, "below_exit", (2, 7, 6)),
    )
    (found,) = findings(_state(streak=2), LENINGRAD, six)[1]
    assert found.message == (
        "after 2 all-pass deals the lowest contract is 7, not 6 "
        "(record it as forced if the table agreed)"
    )
    # a change of terms may come after the end, a deal may not
    done = _state(finished=True)
    assert findings(done, LENINGRAD, Entry(SetTerm("target", 30), None, "t"))[1] == ()
    (late,) = findings(done, LENINGRAD, Entry(SEVEN, "Vera", "t"))[1]
    assert str(Problem(5, late)) == (
        "deal 5: the game had already finished (record it as forced to go on)"
    )


def test_a_forced_deal_is_not_refused_in_its_place_and_one_deal_lists_both_in_order() -> None:
    before = _state(streak=1, finished=True)
    assert findings(before, LENINGRAD, Entry(SIX, "Vera", "t", True))[1] == ()
    both = findings(before, LENINGRAD, Entry(SIX, "Vera", "t"))[1]
    assert [f.message.split()[0] for f in both] == ["after", "the"]
    assert both[0].message.startswith("after 1 all-pass deal the lowest contract is 7")
    refusals = validate(before, LENINGRAD, Entry(SIX, "Vera", "t"))
    assert [r.field for r in refusals] == [FORCED, FORCED]
    assert all(r.forceable for r in refusals)


def test_validate_judges_fit_rules_price_and_place_in_one_call() -> None:
    g = prefcalc.new_game(P3, "sochi")
    conv = rules(g)
    state = start(g, conv)._replace(streak=0)
    assert validate(state, conv, Entry(SEVEN, "Vera", "t")) == []
    # a deal that does not fit the game is refused for that alone
    bad = Entry(SEVEN._replace(tricks=12), "Vera", "t")
    assert [r.field for r in validate(state, conv, bad)] == [""]
    # a rule and the price check of the same field are told once, by the rule
    dark = Entry(SEVEN._replace(dark=True), "Vera", "t")
    assert validate(state, conv, dark) == [Refusal("dark", DARK_OFF)]
    assert not validate(state, conv, dark)[0].forceable


def test_what_the_convention_cannot_price_is_found_in_words() -> None:
    g = prefcalc.new_game(P3, "classic", options={"bombs.order": "declared"})
    conv = rules(g)
    opening = start(g, conv)
    (found,) = findings(opening, conv, Entry(SEVEN, "Anna", "t"))[0]
    assert (
        found.message == "circle 1 of the opening (bombs.opening) is played in all-pass deals only"
    )
    after = opening._replace(opening_left=0, bombs=((2,), (), ()))
    named = Entry(SEVEN._replace(bomb=4), "Vera", "t")
    assert [f.message for f in findings(after, conv, named)[0]] == [
        "Anna holds no double bomb ×4 (bombs: ×2)"
    ]
    assert validate(after, conv, named) == [
        Refusal("bomb", "Anna holds no double bomb ×4 (bombs: ×2)")
    ]


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


def test_no_option_is_spelled_below_the_grammar() -> None:
    # the rules layer says what is wrong in words and names the ledger field; the spellings
    # of the command line's options (--dark, --bomb...) belong to the grammar alone
    import prefcalc.rules.model as model
    import prefcalc.rules.scoring as scoring

    sources = [Path(legality.__file__), Path(model.__file__)]
    sources += sorted(Path(scoring.__file__).parent.glob("*.py"))
    messages: list[str] = []
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in (
                "_",
                "N_",
                "ngettext",
            ):
                messages += [a.value for a in node.args if isinstance(a, ast.Constant)]
    assert len(messages) > 100
    spelled = [m for m in messages if any(f in m for f in NOTATION_FLAGS)]
    assert spelled == []
