"""At the file boundary nothing is coerced and every field the record needs is required.

A ledger is read in pydantic's strict mode (``"forced": "yes"`` is not true) and a ledger
without its ``deals`` is refused instead of read as an empty game (and then written over);
a convention read from a file (TOML, or the options a ledger stores) is strict too, while
the text of ``--set`` is still parsed. tests/test_ledger_hostile.py runs the refusals
through every command; here: what must still load, and the pieces one by one.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from prefcalc.errors import ConventionError, LedgerError
from prefcalc.rules.conventions import parse_overrides
from prefcalc.store.conventions import load_file
from prefcalc.store.ledger import game_from_bytes, game_to_json_text, load
from tests.support import game_from_json, invoke, make_game

ROOT = Path(__file__).resolve().parent.parent
LEDGERS = sorted(
    [
        *(ROOT / "examples").glob("*.json"),
        *(
            p
            for p in (ROOT / "tests" / "fixtures" / "ledger-v1").glob("*.json")
            if "." not in p.stem
        ),
    ]
)
P3 = ["Anna", "Boris", "Vera"]


@pytest.mark.parametrize("path", LEDGERS, ids=[p.name for p in LEDGERS])
def test_every_committed_ledger_still_loads_and_round_trips(path: Path) -> None:
    game = load(path)
    assert game.entries
    assert game_from_bytes(game_to_json_text(game).encode()) == game


def test_a_parsed_ledger_with_json_lists_is_read_like_its_text() -> None:
    game = make_game(P3, ["game Anna 7h 7 Boris:w Vera:p", "adjust Vera --mountain 2.5 --note x"])
    data = json.loads(game_to_json_text(game))
    assert isinstance(data["players"], list)
    assert game_from_json(data) == game
    data["deals"][0]["forced"] = "yes"
    with pytest.raises(LedgerError, match=r"deals\[0\]\.forced: input should be a valid boolean"):
        game_from_json(data)
    del data["deals"]
    with pytest.raises(LedgerError, match="deals: missing"):
        game_from_json(data)


def test_forced_true_is_still_read_and_a_fraction_as_the_writer_emits_it() -> None:
    game = make_game(P3, ["game Anna 7h 7 Boris:w Vera:p !"], whist_price=Fraction(1, 3))
    text = game_to_json_text(game)
    assert '"forced": true' in text and '"whist_price": "1/3"' in text
    assert game_from_bytes(text.encode()) == game


def _house(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text('base = "sochi"\n' + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        ('half_whist = "yes"\n', "option 'half_whist': expected true or false (got 'yes')"),
        ('misere_price = "12"\n', "option 'misere_price': expected a whole number"),
        ('lone_whister = "Greedy"\n', "option 'lone_whister': input should be 'greedy'"),
        ('[passes]\nprices = "1,2,4"\n', "option 'passes.prices': expected a list"),
        ("[passes]\nprices = 1\n", "option 'passes.prices': expected a list"),
        ('liability_after_close = "None"\n', "option 'liability_after_close': expected 'none'"),
    ],
)
def test_a_convention_file_is_read_strictly(tmp_path: Path, body: str, phrase: str) -> None:
    path = _house(tmp_path, body)
    with pytest.raises(ConventionError, match=re.escape(phrase)):
        load_file(path)
    r = invoke(["new", *P3, "--convention", str(path), "--file", "g.json"], tmp_path)
    assert r.returncode == 2
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert phrase in r.stderr
    assert not (tmp_path / "g.json").exists()


def test_a_convention_file_in_its_natural_types_loads(tmp_path: Path) -> None:
    path = _house(
        tmp_path,
        'half_whist = false\nliability = 0.5\nliability_after_close = "1/2"\n'
        'lone_whister = "gentleman"\n[passes]\nprices = [1, 2, 4]\nzero_bonus = "price"\n',
    )
    conv = load_file(path)
    assert conv.half_whist is False
    assert conv.liability == conv.liability_after_close == Fraction(1, 2)
    assert conv.passes_prices == (1, 2, 4)


def test_set_text_is_still_parsed(tmp_path: Path) -> None:
    values = parse_overrides(
        ["half_whist=yes", "lone_whister=Greedy", "passes.prices=1,2,4", "misere_price=12"]
    )
    assert values == {
        "half_whist": True,
        "lone_whister": "greedy",
        "passes.prices": (1, 2, 4),
        "misere_price": 12,
    }
    path = tmp_path / "g.json"
    new = ["new", *P3, "--set", "half_whist=no", "--set", "passes.prices=1,2,4"]
    r = invoke([*new, "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr
    # stored in the types the strict reader takes, and read back
    stored = json.loads(path.read_text(encoding="utf-8"))["convention"]["options"]
    assert stored == {"half_whist": False, "passes.prices": [1, 2, 4]}
    r = invoke(["show", "--file", str(path)], tmp_path)
    assert r.returncode == 0, r.stderr


def test_a_ledger_without_deals_is_refused_by_record_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert invoke(["new", *P3, "--file", str(path)], tmp_path).returncode == 0
    assert (
        invoke(["game", "a", "7h", "7", "b:w", "v:p", "--file", str(path)], tmp_path).returncode
        == 0
    )
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["deals"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    before = path.read_bytes()
    for command in (["show"], ["passes", "a=3", "b=3", "v=4"], ["undo"]):
        r = invoke([*command, "--file", str(path)], tmp_path)
        assert r.returncode == 2, command
        assert r.stderr.splitlines() == [f"prefcalc: error: {path}: deals: missing"]
        assert path.read_bytes() == before
