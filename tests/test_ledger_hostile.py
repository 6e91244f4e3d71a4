"""A ledger edited by hand (or by an adversary) is checked exactly like recorded input.

Each case mutates a valid ledger and then runs a reading command and a recording command:
both must refuse with exit 2 and one line naming the field, the folder must stay byte for
byte as it was (a refused ledger is never rewritten, an unknown field never dropped), and
nothing may hang or show a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import make_game

from prefcalc.cli import main
from prefcalc.store.ledger import game_to_json_text

THREE = ["Anna", "Boris", "Vera"]
DEALS = [
    "game Anna 7h 7 Boris:w Vera:p",
    "passes Anna=2 Boris=5 Vera=3",
    "adjust Vera --mountain 2.5 --note 'peeked'",
]

Mutation = Callable[[dict[str, Any]], object]


def _deal(k: int, **changes: object) -> Mutation:
    return lambda d: d["deals"][k].update(changes)


# (id, mutation of the parsed ledger, a phrase the one-line error must contain)
CASES: list[tuple[str, Mutation, str]] = [
    # unknown fields are refused with their path, never dropped on the next write
    ("unknown top field", lambda d: d.update(location="dacha"), "location: unknown field"),
    ("unknown deal field", _deal(0, colour="red"), "deals[0].colour: unknown field"),
    (
        "unknown defender field",
        lambda d: d["deals"][0]["defenders"][1].update(mood="sad"),
        "deals[0].defenders[1].mood: unknown field",
    ),
    (
        "unknown convention field",
        lambda d: d["convention"].update(flavour="x"),
        "convention.flavour: unknown field",
    ),
    # values the CLI would refuse are refused on loading too
    ("negative whist price", lambda d: d.update(whist_price="-5"), "whist_price"),
    ("zero whist price", lambda d: d.update(whist_price=0), "whist_price"),
    ("zero target", lambda d: d.update(target=0), "target"),
    ("fractional target", lambda d: d.update(target=20.5), "target"),
    ("boolean target", lambda d: d.update(target=True), "target"),
    ("duplicate player", lambda d: d.update(players=["Anna", "Boris", "anna"]), "players"),
    ("one player", lambda d: d.update(players=["Anna"]), "players"),
    ("bad role", lambda d: d["deals"][0]["defenders"][1].update(role="x"), "role"),
    ("tricks 11", _deal(0, tricks=11), "deals[0].tricks"),
    ("negative tricks", _deal(0, tricks=-1), "deals[0].tricks"),
    ("string tricks", _deal(0, tricks="7"), "deals[0].tricks"),
    ("unknown kind", _deal(1, kind="bomb"), "deals[1]: unknown kind 'bomb'"),
    ("missing kind", lambda d: d["deals"][1].pop("kind"), "deals[1]"),
    ("unknown dealer", _deal(0, dealer="Zoe"), "unknown player 'Zoe'"),
    (
        "bad convention option",
        lambda d: d["convention"].update(options={"liability": 3}),
        "liability",
    ),
    ("unknown preset", lambda d: d["convention"].update(preset="moscow"), "moscow"),
    # numbers that would hang or overflow are bounded before any arithmetic
    ("huge exponent amount", _deal(2, mountain="1e999999999"), "deals[2].mountain"),
    ("infinite amount", _deal(2, mountain="Infinity"), "deals[2].mountain"),
    ("nan amount", _deal(2, mountain="NaN"), "deals[2].mountain"),
    ("huge integer amount", _deal(2, mountain=10**30), "deals[2].mountain"),
    ("huge fraction", _deal(2, mountain="1/" + "9" * 60), "deals[2].mountain"),
    ("huge target", lambda d: d.update(target=10**40), "target"),
    ("huge whist price", lambda d: d.update(whist_price="1e4000"), "whist_price"),
    # text that would reach the terminal raw
    ("escape in a time", _deal(0, time="\x1b[2J"), "deals[0].time"),
    ("newline in created", lambda d: d.update(created="a\nb"), "created"),
    (
        "escape in the convention name",
        lambda d: d["convention"].update(name="\x1b[31mred"),
        "convention.name",
    ),
    ("escape in a note", _deal(2, note="peeked\x1b[2J"), "deals[2]"),
    ("escape in the currency", lambda d: d.update(currency="\x1b"), "currency"),
    # nothing is coerced at the file boundary (strict mode) ...
    ("forced as text", _deal(0, forced="yes"), "deals[0].forced: input should be a valid boolean"),
    ("forced as a number", _deal(0, forced=1), "deals[0].forced: input should be a valid boolean"),
    ("dark as a number", _deal(0, dark=1), "deals[0].dark: input should be a valid boolean"),
    ("tricks as a float", _deal(0, tricks=7.0), "deals[0].tricks: input should be a valid integer"),
    ("float whist price", lambda d: d.update(whist_price=0.5), "whist_price: expected a whole"),
    ("boolean amount", _deal(2, mountain=True), "deals[2].mountain: expected a whole number"),
    ("schema as true", lambda d: d.update(schema=True), "not a prefcalc ledger (schema true"),
    (
        "option flag as text",
        lambda d: d["convention"].update(options={"half_whist": "yes"}),
        "convention: option 'half_whist': expected true or false (got 'yes')",
    ),
    (
        "option list as text",
        lambda d: d["convention"].update(options={"passes.prices": "1,2,4"}),
        "convention: option 'passes.prices': expected a list",
    ),
    (
        "option number as text",
        lambda d: d["convention"].update(options={"misere_price": "12"}),
        "convention: option 'misere_price': expected a whole number",
    ),
    # ... and every field the record needs is required
    ("no deals", lambda d: d.pop("deals"), "deals: missing"),
    ("no first dealer", lambda d: d.pop("first_dealer"), "first_dealer: missing"),
    ("no whist price", lambda d: d.pop("whist_price"), "whist_price: missing"),
    ("no currency", lambda d: d.pop("currency"), "currency: missing"),
    ("no preset", lambda d: d["convention"].pop("preset"), "convention.preset: missing"),
    ("no options", lambda d: d["convention"].pop("options"), "convention.options: missing"),
    ("no note", lambda d: d["deals"][2].pop("note"), "deals[2].note: missing"),
    ("null first dealer", lambda d: d.update(first_dealer=None), "first_dealer: input should be"),
    # shapes
    ("deals not a list", lambda d: d.update(deals={"a": 1}), "deals"),
    ("deal not an object", lambda d: d["deals"].append([1, 2]), "deals[3]"),
    ("newer schema", lambda d: d.update(schema=9), "written by a newer prefcalc"),
    ("schema as text", lambda d: d.update(schema="2"), "not a prefcalc ledger"),
    # a schema-2 record the game's convention does not allow is refused naming its field
    ("dark game", _deal(0, dark=True), "deals[0].dark"),
    # a join is scored now: a bad one is refused like a bad deal
    (
        "join of a seated player",
        lambda d: d["deals"].append({"kind": "join", "player": "vera"}),
        "deals[3]: 'vera' cannot join: Vera already plays (deal 4)",
    ),
    (
        "join with a dealer",
        lambda d: d["deals"].append({"kind": "join", "player": "Gleb", "dealer": "Anna"}),
        "deals[3].dealer: a player joins between deals",
    ),
    (
        "join after a stranger",
        lambda d: d["deals"].append({"kind": "join", "player": "Gleb", "after": "Zoe"}),
        "deals[3]: unknown player 'Zoe'",
    ),
    (
        "a sixth player",
        lambda d: d["deals"].extend(
            {"kind": "join", "player": name} for name in ("Gleb", "Dima", "Egor")
        ),
        "deals[5]: the table is full",
    ),
    (
        "a joined player's name refused",
        lambda d: d["deals"].append({"kind": "join", "player": "Gl:eb"}),
        "deals[3]: bad player name",
    ),
]


@pytest.mark.parametrize(("mutate", "phrase"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
@pytest.mark.parametrize(
    "command",
    [["show"], ["settle", "--json"], ["passes", "Anna=3", "Boris=3", "Vera=4"], ["export", "xlsx"]],
    ids=["show", "settle", "record", "export"],
)
def test_a_bad_ledger_is_refused_in_one_line_and_never_rewritten(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mutate: Mutation,
    phrase: str,
    command: list[str],
) -> None:
    ledger = tmp_path / "night.json"
    data = json.loads(game_to_json_text(make_game(THREE, DEALS)))
    mutate(data)
    ledger.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main([*command, "--file", str(ledger)]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"prefcalc: error: {ledger}: "), lines[0]
    assert phrase in lines[0], lines[0]
    assert "Traceback" not in err and out == ""
    assert all(c.isprintable() for c in lines[0])
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if not p.name.endswith(".lock")}
    assert after == before


def test_a_hand_added_field_survives_because_it_is_refused_not_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "night.json"
    data = json.loads(game_to_json_text(make_game(THREE, DEALS)))
    data["deals"][0]["comment"] = "Anna was lucky"
    text = json.dumps(data, ensure_ascii=False)
    ledger.write_text(text, encoding="utf-8")
    assert main(["undo", "--file", str(ledger)]) == 2
    assert "deals[0].comment: unknown field" in capsys.readouterr().err
    assert ledger.read_text(encoding="utf-8") == text
