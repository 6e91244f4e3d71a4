"""The table's shorthand: contracts, defenders, tricks, passes, adjustments, names.

Record types are named tuples, so every comparison below also checks the type: a
``Misere("Anna", 0)`` must not pass for an equal plain tuple of another kind.
"""

from __future__ import annotations

import shlex
import string
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefcalc.errors import NotationError
from prefcalc.rules.model import Adjustment, AllPass, Contract, Defender, Misere
from prefcalc.rules.notation import (
    describe,
    parse_contract,
    parse_defender,
    parse_tricks,
    parse_words,
    resolve_player,
)

P3 = ("Anna", "Boris", "Vera")
P4 = ("Anna", "Boris", "Vera", "Dima")


def words(line: str, players: tuple[str, ...] = P3) -> Any:
    return parse_words(shlex.split(line), players)


def same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


# --- contracts -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7h", (7, "h")),
        ("6s", (6, "s")),
        ("8c", (8, "c")),
        ("9d", (9, "d")),
        ("10nt", (10, "nt")),
        ("8NT", (8, "nt")),
        ("7H", (7, "h")),
        ("10n", (10, "nt")),
        ("6♠", (6, "s")),
        ("7♣", (7, "c")),
        ("8♦", (8, "d")),
        ("9♥", (9, "h")),
        ("6♤", (6, "s")),
        ("7♡", (7, "h")),
        ("9бк", (9, "nt")),
        (" 7h ", (7, "h")),
    ],
)
def test_contract_level_and_suit(text: str, expected: tuple[int, str]) -> None:
    assert parse_contract(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7x", "unknown suit 'x' in contract '7x' (use s, c, d, h or nt)"),
        ("6sp", "unknown suit 'sp' in contract '6sp' (use s, c, d, h or nt)"),
        ("5h", "there is no contract level 5 in '5h' (levels are 6-10)"),
        ("11nt", "there is no contract level 11 in '11nt' (levels are 6-10)"),
        ("7", "contract '7' has no suit (use s, c, d, h or nt)"),
        ("h7", "cannot read contract 'h7' (write the level and suit, e.g. 7h, 6s, 10nt)"),
        ("", "cannot read contract '' (write the level and suit, e.g. 7h, 6s, 10nt)"),
    ],
)
def test_contract_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_contract(text)
    assert str(info.value) == message


def test_a_whole_contract_line() -> None:
    deal = words("game Anna 7h 7 Boris:w Vera:p")
    assert same(
        deal,
        Contract("Anna", 7, "h", 7, (Defender("Boris", "w"), Defender("Vera", "p"))),
    )
    assert deal.label == "7♥"
    assert deal.played


def test_a_contract_line_needs_five_words() -> None:
    with pytest.raises(NotationError, match="a contract needs DECLARER CONTRACT TRICKS"):
        words("game Anna 7h 7")
    with pytest.raises(NotationError, match="a contract needs DECLARER CONTRACT TRICKS"):
        words("game Anna 7h 7 Boris:w", ("Anna", "Boris", "Vera", "Gleb"))  # who holds cards?


def test_at_three_players_the_defender_left_out_passes() -> None:
    # Four words used to be refused; the one player neither declaring nor named passes.
    assert words("game Anna 7h 7 Boris:w") == words("game Anna 7h 7 Boris:w Vera:p")
    assert words("game Anna 6s - Vera:p") == words("game Anna 6s - Vera:p Boris:p")


# --- defenders -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Boris:w", Defender("Boris", "w", None)),
        ("Boris:w3", Defender("Boris", "w", 3)),
        ("Boris:w0", Defender("Boris", "w", 0)),
        ("Boris:W10", Defender("Boris", "w", 10)),
        ("Vera:p", Defender("Vera", "p", None)),
        ("Vera:h", Defender("Vera", "h", None)),
        ("v:P", Defender("Vera", "p", None)),
    ],
)
def test_defender_roles(text: str, expected: Defender) -> None:
    assert same(parse_defender(text, P3), expected)


def test_two_whisters_keep_the_order_of_speech() -> None:
    deal = words("game Anna 8s 10 Vera:w0 Boris:w0")
    assert [d.player for d in deal.whisters] == ["Vera", "Boris"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Boris", "cannot read defender 'Boris' (write NAME:w, NAME:w3, NAME:p or NAME:h)"),
        ("Boris:x", "unknown role 'x' for Boris (use w, wN for whist with N tricks, p or h)"),
        ("Boris:", "unknown role '' for Boris"),
        ("Vera:p3", "only a whister's tricks are written ('Vera:p3')"),
        ("Vera:h1", "only a whister's tricks are written ('Vera:h1')"),
        ("Boris:w11", "Boris's tricks must be 0-10, not 11"),
        ("Zoe:w", "unknown player 'Zoe' (players: Anna, Boris, Vera)"),
    ],
)
def test_defender_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_defender(text, P3)
    assert message in str(info.value)


# --- tricks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dash", ["-", "—", "–"])
def test_a_dash_means_the_game_was_not_played(dash: str) -> None:
    deal = words(f"game Anna 6d {dash} Boris:p Vera:h")
    assert deal.tricks is None
    assert not deal.played


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "the declarer's tricks must be a number 0-10 or '-' if the game was not played, not 'x'"),
        ("11", "the declarer's tricks must be 0-10, not 11"),
        ("-1", "the declarer's tricks must be 0-10, not -1"),
    ],
)  # fmt: skip
def test_declarer_tricks_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        words(f"game Anna 7h {text} Boris:w Vera:p")
    assert str(info.value) == message


def test_a_dash_is_only_for_contracts() -> None:
    assert parse_tricks("0") == 0
    with pytest.raises(NotationError, match="tricks must be a number 0-10, not '-'"):
        parse_tricks("-")
    with pytest.raises(NotationError, match="the misère tricks must be a number 0-10"):
        words("misere Anna -")


# --- misère and passes -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["misere", "misère", "MISERE"])
def test_misere(kind: str) -> None:
    assert same(words(f"{kind} Anna 0"), Misere("Anna", 0))
    assert same(words(f"{kind} b 2"), Misere("Boris", 2))


def test_misere_needs_declarer_and_tricks() -> None:
    with pytest.raises(NotationError, match="a misère needs DECLARER TRICKS"):
        words("misere Anna")


def test_passes() -> None:
    assert same(
        words("passes Anna=2 Boris=5 Vera=3"),
        AllPass((("Anna", 2), ("Boris", 5), ("Vera", 3))),
    )
    assert same(words("passes a=0 b=6 v=4"), AllPass((("Anna", 0), ("Boris", 6), ("Vera", 4))))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("passes", "an all-pass deal needs every active player's tricks"),
        ("passes Anna2 Boris=5 Vera=3", "cannot read 'Anna2' (write NAME=TRICKS, e.g. Anna=2)"),
        ("passes Anna=x Boris=5 Vera=3", "Anna's tricks must be a number 0-10"),
        ("passes Anna=11 Boris=0 Vera=0", "Anna's tricks must be 0-10, not 11"),
        ("passes Zoe=2 Boris=5 Vera=3", "unknown player 'Zoe'"),
    ],
)
def test_passes_errors(line: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        words(line)
    assert message in str(info.value)


# --- adjustments -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("adjust Anna --pool 2 --note x", Adjustment("Anna", pool=2, note="x")),
        ("adjust Anna --mountain -4 --note fix", Adjustment("Anna", mountain=-4, note="fix")),
        ("adjust Anna --pool=2.5 --note=x", Adjustment("Anna", pool=Fraction(5, 2), note="x")),
        ("adjust Anna --mountain 5/3 --note x", Adjustment("Anna", mountain=Fraction(5, 3), note="x")),
        (
            "adjust Anna --whists Boris=10 --whists v=2 --note 'peeked at the talon'",
            Adjustment("Anna", whists=(("Boris", 10), ("Vera", 2)), note="peeked at the talon"),
        ),
        (
            "adjust b --pool 1 --mountain 2 --whists Anna=3 --note '  spaces  '",
            Adjustment("Boris", 1, 2, (("Anna", 3),), "spaces"),
        ),
    ],
)  # fmt: skip
def test_adjust(line: str, expected: Adjustment) -> None:
    assert same(words(line), expected)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("adjust", "an adjustment needs a PLAYER"),
        ("adjust Anna --note x", "an adjustment needs --pool, --mountain or --whists"),
        ("adjust Anna --pool 2", "an adjustment needs --note saying why"),
        ("adjust Anna --pool 2 --note '  '", "an adjustment needs --note saying why"),
        ("adjust Anna --pool", "--pool needs a value"),
        ("adjust Anna --pool two --note x", "--pool must be a number, not 'two'"),
        ("adjust Anna --bonus 2 --note x", "unknown adjustment option '--bonus'"),
        ("adjust Anna --whists Boris --note x", "cannot read whists 'Boris' (write OTHER=N"),
        ("adjust Anna --whists Boris=ten --note x", "whists on Boris must be a number, not 'ten'"),
    ],
)
def test_adjust_errors(line: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        words(line)
    assert message in str(info.value)


# --- player names ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Anna", "Anna"),
        ("anna", "Anna"),
        ("ANNA", "Anna"),
        ("a", "Anna"),
        ("An", "Anna"),
        ("b", "Boris"),
        ("v", "Vera"),
        ("d", "Dima"),
    ],
)
def test_unique_prefix_in_any_case(word: str, expected: str) -> None:
    assert resolve_player(word, P4) == expected


def test_an_ambiguous_prefix_is_an_error_listing_the_candidates() -> None:
    players = ("Anna", "Andrei", "Boris")
    with pytest.raises(NotationError) as info:
        resolve_player("an", players)
    assert str(info.value) == "'an' could be Anna or Andrei: type more of the name"
    assert resolve_player("ann", players) == "Anna"
    assert resolve_player("and", players) == "Andrei"


def test_an_exact_name_wins_over_a_longer_name_it_is_a_prefix_of() -> None:
    players = ("Ann", "Anna", "Boris")
    assert resolve_player("Ann", players) == "Ann"
    assert resolve_player("ann", players) == "Ann"
    assert resolve_player("anna", players) == "Anna"
    with pytest.raises(NotationError, match="'an' could be Ann or Anna"):
        resolve_player("an", players)


def test_an_unknown_or_empty_name_is_an_error_listing_the_players() -> None:
    with pytest.raises(NotationError, match=r"unknown player 'Zoe' \(players: Anna, Boris, Vera\)"):
        resolve_player("Zoe", P3)
    with pytest.raises(NotationError, match="unknown player ''"):
        resolve_player("", P3)


def test_prefixes_work_in_every_position_of_a_deal() -> None:
    assert same(
        words("game a 6s 5 b:w3 v:w2"),
        Contract("Anna", 6, "s", 5, (Defender("Boris", "w", 3), Defender("Vera", "w", 2))),
    )


# --- the deal kind ---------------------------------------------------------------------------


def test_unknown_kind_and_empty_deal() -> None:
    with pytest.raises(NotationError, match="unknown deal kind 'bid' \\(use game, misere"):
        parse_words(["bid", "Anna"], P3)
    with pytest.raises(NotationError, match="no deal given"):
        parse_words([], P3)


def test_kind_is_case_insensitive() -> None:
    assert same(words("GAME Anna 6s - Boris:p Vera:p"), words("game Anna 6s - Boris:p Vera:p"))


# --- describe() round-trips through parse_words ---------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "game Anna 7h 7 Boris:w Vera:p",
        "game Anna 6s 5 Boris:w3 Vera:w2",
        "game Anna 6d - Boris:p Vera:h",
        "game Anna 8nt - Boris:p Vera:p",
        "game Vera 10nt 10 Anna:w0 Boris:w0",
        "game Boris 9c 8 Vera:w Anna:p",
        "misere Anna 0",
        "misere Boris 3",
        "passes Anna=2 Boris=5 Vera=3",
        "passes Vera=0 Anna=10 Boris=0",
        "adjust Anna --pool 2 --note x",
        "adjust Anna --mountain -4 --whists Boris=10 --whists Vera=2.5 --note 'peeked at the talon'",
        'adjust Vera --pool 5/3 --note "it\'s late"',
        "adjust Vera --mountain 1 --note 'a \"quoted\" word'",
    ],
)
def test_describe_round_trips(line: str) -> None:
    deal = words(line)
    again = words(describe(deal))
    assert same(again, deal)


def test_describe_writes_the_table_shorthand() -> None:
    assert describe(words("game a 7♥ 7 b:W v:p")) == "game Anna 7h 7 Boris:w Vera:p"
    assert describe(words("game a 6s 5 b:w3 v:w2")) == "game Anna 6s 5 Boris:w3 Vera:w2"
    assert describe(words("game a 6d — b:p v:h")) == "game Anna 6d - Boris:p Vera:h"
    assert describe(words("misère a 0")) == "misere Anna 0"
    assert describe(words("passes a=2 b=5 v=3")) == "passes Anna=2 Boris=5 Vera=3"


@pytest.mark.parametrize("note", ['it\'s a "test"', "C:\\cards"])
def test_describe_round_trips_any_note(note: str) -> None:
    deal = Adjustment("Anna", mountain=1, note=note)
    assert same(words(describe(deal)), deal)


_NAMES = st.sampled_from(P3)
_NOTE = st.text(alphabet=string.ascii_letters + string.digits + " .,-'!?", min_size=1).filter(
    lambda s: s.strip() == s and s
)


@st.composite
def _deals(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(["contract", "misere", "passes", "adjust"]))
    if kind == "misere":
        return Misere(draw(_NAMES), draw(st.integers(0, 10)))
    if kind == "passes":
        a = draw(st.integers(0, 10))
        b = draw(st.integers(0, 10 - a))
        return AllPass((("Anna", a), ("Boris", b), ("Vera", 10 - a - b)))
    if kind == "adjust":
        amounts = st.fractions(min_value=-100, max_value=100, max_denominator=12)
        pool, mountain = draw(amounts), draw(amounts)
        who = draw(_NAMES)
        other = draw(st.sampled_from([p for p in P3 if p != who]))
        whists = draw(st.lists(amounts.filter(bool), max_size=2))
        pool = pool.numerator if pool.denominator == 1 else pool
        mountain = mountain.numerator if mountain.denominator == 1 else mountain
        listed = tuple((other, w.numerator if w.denominator == 1 else w) for w in whists)
        if not (pool or mountain or listed):
            pool = 1
        return Adjustment(who, pool, mountain, listed, draw(_NOTE))
    declarer = draw(_NAMES)
    first, second = draw(st.permutations([p for p in P3 if p != declarer]))
    level = draw(st.integers(6, 10))
    suit = draw(st.sampled_from(["s", "c", "d", "h", "nt"]))
    shape = draw(st.sampled_from(["passed", "half", "lone", "two"]))
    if shape == "passed":
        return Contract(declarer, level, suit, None, (Defender(first, "p"), Defender(second, "p")))
    if shape == "half":
        return Contract(declarer, level, suit, None, (Defender(first, "p"), Defender(second, "h")))
    tricks = draw(st.integers(0, 10))
    if shape == "lone":
        return Contract(
            declarer, level, suit, tricks, (Defender(first, "w"), Defender(second, "p"))
        )
    a = draw(st.integers(0, 10 - tricks))
    return Contract(
        declarer,
        level,
        suit,
        tricks,
        (Defender(first, "w", a), Defender(second, "w", 10 - tricks - a)),
    )


@given(_deals())
def test_describe_round_trips_generated_deals(deal: Any) -> None:
    assert same(words(describe(deal)), deal)


def test_yo_is_read_as_ye_when_no_player_is_written_so() -> None:
    """A Russian typist writes Алёна as «Алена»: the name, a prefix of it, any case. Where
    both spellings sit at the table (Ёлка and Елка), each is its own name, as typed."""
    players = ("Алёна", "Боря", "Вера")
    assert resolve_player("Алена", players) == "Алёна"
    assert resolve_player("АЛЕНА", players) == "Алёна"
    assert resolve_player("ален", players) == "Алёна"
    assert resolve_player("алён", players) == "Алёна"
    both = ("Ёлка", "Елка", "Вера")
    assert resolve_player("елка", both) == "Елка"
    assert resolve_player("ёлка", both) == "Ёлка"
    assert resolve_player("Ел", both) == "Елка"
    with pytest.raises(NotationError, match="Алена"):
        resolve_player("Алена", ("Алина", "Боря", "Вера"))
