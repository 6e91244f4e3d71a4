"""Table-time operations through the API: Russian notation, insert, redo, a repeated deal,
``set`` as a recorded event, and the ledger kept between calls."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

import prefcalc
from prefcalc import api
from prefcalc.errors import DealError, NotationError
from prefcalc.rules.model import AllPass, Contract, Defender, SetTerm
from prefcalc.rules.notation import parse_contract, parse_defender, parse_words
from prefcalc.store import ledger

P3 = ("Anna", "Boris", "Vera")
RU = ("Маша", "Петя", "Вова")


def _game(players: tuple[str, ...] = P3, target: int = 20) -> prefcalc.Game:
    return api.new_game(list(players), "sochi", target)


# --- Russian notation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7ч", (7, "h")),
        ("6п", (6, "s")),
        ("8т", (8, "c")),
        ("9б", (9, "d")),
        ("10бк", (10, "nt")),
        ("7ЧЕРВИ", (7, "h")),
        ("6пики", (6, "s")),
    ],
)
def test_russian_suits(text: str, expected: tuple[int, str]) -> None:
    assert parse_contract(text) == expected


@pytest.mark.parametrize(
    ("text", "role", "tricks"),
    [("П:в", "w", None), ("п:в3", "w", 3), ("пе:п", "p", None), ("Петя:пв", "h", None)],
)
def test_russian_roles(text: str, role: str, tricks: int | None) -> None:
    assert parse_defender(text, RU) == Defender("Петя", role, tricks)  # type: ignore[arg-type]


def test_latin_and_cyrillic_mix_in_one_line() -> None:
    deal = parse_words(["game", "м", "7ч", "7", "п:в", "Vova:p"], ("Маша", "Петя", "Vova"))
    assert deal == Contract("Маша", 7, "h", 7, (Defender("Петя", "w"), Defender("Vova", "p")))
    assert parse_words(["мизер", "м", "0"], RU) == parse_words(["misere", "Маша", "0"], RU)
    assert parse_words(["распасы", "м=2", "п=5", "в=3"], RU) == AllPass(
        (("Маша", 2), ("Петя", 5), ("Вова", 3))
    )


def test_the_api_records_russian_shorthand() -> None:
    g = api.record(_game(RU), "мизер Маша 0")
    g = api.record(g, "игра Петя 7бк 7 Вова:в м:п")
    assert api.sheet(g).pool["Петя"] == 4


def test_bare_all_pass_tricks_are_read_from_the_hand_after_the_dealer() -> None:
    """Issue 36: a scorer reads an all-pass deal's tricks from the first hand (the player
    after the dealer) round the table; the dealer, when he holds cards, comes last."""
    g4 = api.new_game(["Anna", "Boris", "Vera", "Gleb"], "sochi", 20)  # Anna deals, sits out
    g4 = api.record(g4, "passes 2 5 3")
    assert g4.entries[0].deal == AllPass((("Boris", 2), ("Vera", 5), ("Gleb", 3)))
    g4 = api.record(g4, "passes 2 5 3")  # Boris deals, sits out: Vera leads
    assert g4.entries[1].deal == AllPass((("Anna", 3), ("Vera", 2), ("Gleb", 5)))  # as seated
    g3 = api.record(_game(), "passes 2 5 3")  # Anna deals and plays: Boris, Vera, Anna
    assert g3.entries[0].deal == AllPass((("Anna", 3), ("Boris", 2), ("Vera", 5)))
    g5 = api.new_game(["Anna", "Boris", "Vera", "Gleb", "Dima"], "sochi", 20, dealer="Vera")
    g5 = api.record(g5, "passes 2 5 3")  # Vera deals, Gleb sits out with her: Dima leads
    assert g5.entries[0].deal == AllPass((("Anna", 5), ("Boris", 3), ("Dima", 2)))
    with pytest.raises(
        NotationError,
        match=r"2 trick counts for 3 players in the deal: give one each, from the hand after the dealer \(Boris, Vera, Anna\)",
    ):
        api.record(_game(), "passes 2 8")


# --- set ---------------------------------------------------------------------------------------


def test_set_target_applies_to_the_deals_after_it_and_reopens_a_finished_game() -> None:
    g = _game(target=4)
    for line in ("game Anna 7h 7 Boris:w Vera:p", "game Boris 7s 7 Vera:w Anna:p"):
        g = api.record(g, line)
    g = api.record(g, "game Vera 7d 7 Anna:w Boris:p")
    assert api.sheet(g).finished
    with pytest.raises(DealError, match="already finished"):
        api.record(g, "game Anna 6c 6 Boris:w Vera:p")
    g = api.set_term(g, "target=10")
    assert g.entries[-1].deal == SetTerm("target", 10) and g.entries[-1].dealer is None
    s = api.sheet(g)
    assert s.target == 10 and not s.finished and s.next_dealer == "Anna"
    g = api.record(g, "game Anna 6c 6 Boris:w Vera:p")
    assert api.sheet(g).pool["Anna"] == 6


def test_a_whist_price_change_prices_the_whole_night() -> None:
    g = api.record(_game(), "game Anna 7h 5 Boris:w Vera:p")
    before = api.settle(g)
    g = api.record(g, "set whist_price=0.5")
    assert api.price_in_force(g) == Fraction(1, 2)
    after = api.settle(g)
    assert after.whists == before.whists and after.whist_price == Fraction(1, 2)
    assert sum(after.money.values()) == 0
    assert all(abs(after.money[p] - after.whists[p] / 2) < Fraction(1, 100) for p in P3)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("set target=0", "the target must be a whole number"),
        ("set target=2.5", "the target must be a whole number"),
        ("set whist_price=-1", "the whist price must be positive"),
        ("set convention=rostov", "cannot set 'convention' mid-game"),
        ("set target=", "set target needs a value"),
    ],
)
def test_bad_set_lines_are_refused(line: str, message: str) -> None:
    with pytest.raises(prefcalc.PrefcalcError, match=message):
        api.record(_game(), line)


def test_a_set_round_trips_through_the_ledger(tmp_path: Path) -> None:
    g = api.set_term(api.record(_game(), "misere Anna 0"), "whist_price=1/3")
    path = tmp_path / "g.json"
    api.save(g, path)
    record = json.loads(path.read_text())["deals"][1]
    assert {k: record[k] for k in ("kind", "key", "value")} == {
        "kind": "set",
        "key": "whist_price",
        "value": "1/3",
    }
    assert api.load(path) == g


# --- insert, repeat, redo --------------------------------------------------------------------------


def test_insert_rederives_the_dealers_so_the_next_dealer_is_right() -> None:
    g = _game()
    g = api.record(g, "game Anna 7h 7 Boris:w Vera:p")  # dealt by Anna
    g = api.record(g, "game Boris 7s 7 Vera:w Anna:p")  # dealt by Boris
    assert g.next_dealer == "Vera"
    g = api.insert(g, 2, "misere Vera 0")
    assert [e.dealer for e in g.entries] == ["Anna", "Boris", "Vera"]
    assert g.entries[1].deal == parse_words(["misere", "Vera", "0"], P3)
    assert g.next_dealer == "Anna"
    with pytest.raises(DealError, match="cannot insert at 5"):
        api.insert(g, 5, "misere Vera 0")


def test_insert_names_a_later_deal_that_no_longer_fits_a_four_player_table() -> None:
    g = api.new_game(["Anna", "Boris", "Vera", "Gleb"], "sochi", 20)
    g = api.record(g, "game Boris 7h 7 Vera:w Gleb:p")  # Anna deals
    g = api.record(g, "game Anna 7s 7 Vera:w Gleb:p")  # Boris deals
    with pytest.raises(DealError, match="after the insert, deal 3 would be dealt by Vera: Vera"):
        api.insert(g, 2, "misere Anna 0")  # Boris deals it, so Vera deals (and defended) 3


def test_the_same_deal_twice_in_a_row_is_recorded_and_named() -> None:
    g = api.record(_game(), "passes Anna=2 Boris=5 Vera=3")
    again = api.record(g, "passes Anna=2 Boris=5 Vera=3")  # legal at the table: no exception
    assert len(again.entries) == 2 and not again.entries[1].forced
    assert api.repeats(again, 2) == 1
    assert api.repeat_note(again, 2) == "same as deal 1 — undo if it was typed twice"
    assert api.repeats(again, 1) is None and api.repeat_note(g, 1) is None
    other = api.record(g, "passes Anna=3 Boris=4 Vera=3")
    assert api.repeats(other, 2) is None
    terms = api.set_term(api.set_term(g, "target=30"), "target=30")
    assert api.repeats(terms, 3) is None  # a change of terms is no deal


def test_undo_then_redo_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    g = api.record(api.record(_game(), "misere Anna 0"), "misere Boris 0")
    api.save(g, path)
    after, removed = api.undo_file(path)
    assert len(after.entries) == 1 and removed == g.entries[1]
    after, removed = api.undo_file(path)
    assert after.entries == ()
    back, entry = api.redo_file(path)
    assert back.entries == g.entries[:1] and entry == g.entries[0]
    back, entry = api.redo_file(path)
    assert back == api.load(path) and back.entries == g.entries and entry == g.entries[1]
    with pytest.raises(DealError, match="nothing to redo"):
        api.redo_file(path)


def test_redo_is_gone_once_something_else_was_recorded(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    api.save(api.record(_game(), "misere Anna 0"), path)
    api.undo_file(path)
    api.update(path, lambda g: api.record(g, "misere Boris 0"))
    with pytest.raises(DealError, match="nothing to redo"):
        api.redo_file(path)


def test_the_kept_game_is_reread_when_another_process_wrote_the_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    api.save(api.record(_game(), "misere Anna 0"), path)
    first = api.load_current(path)
    assert api.load_current(path) is first  # unchanged file: the same value, no re-read
    other = api.record(first, "misere Boris 0")
    path.with_name("other.json").write_text(ledger.game_to_json_text(other), encoding="utf-8")
    path.with_name("other.json").replace(path)  # a second terminal's atomic write
    assert api.load_current(path) == other


def test_exports_price_the_night_by_the_last_whist_price(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    from prefcalc.export.xlsx import write_xlsx

    g = api.record(_game(), "game Anna 7h 5 Boris:w Vera:p")
    g = api.set_term(g, "whist_price=0.5")
    target = tmp_path / "g.xlsx"
    write_xlsx(api.report(g), target)
    cells = [
        c.value
        for row in load_workbook(target)["Settlement"].iter_rows()
        for c in row
        if c.value is not None
    ]
    assert 0.5 in cells or "0.5" in [str(c) for c in cells]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"kind": "set", "key": "target", "value": 30, "dealer": "Anna"}, "has no dealer"),
        ({"kind": "set", "key": "target", "value": "5/2"}, "must be a whole number"),
        ({"kind": "set", "key": "whist_price", "value": 0}, "must be positive"),
        ({"kind": "set", "key": "currency", "value": 1}, "deals[0].key"),
    ],
)
def test_a_bad_set_record_in_a_ledger_is_refused(
    tmp_path: Path, record: dict[str, object], message: str
) -> None:
    data = json.loads(ledger.game_to_json_text(_game()))
    data["deals"] = [{"time": "2026-11-30T20:00:00+01:00", **record}]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(prefcalc.LedgerError, match=re.escape(message)):
        api.load(path)
