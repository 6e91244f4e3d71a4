"""The ledger file: what is stored, how it is validated, how it is written."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from support import game_from_json, make_game, run_cli, sample_game

from prefcalc.errors import LedgerError
from prefcalc.rules.model import ConventionRef
from prefcalc.store import LEDGER_SCHEMA
from prefcalc.store.ledger import (
    create,
    game_to_json_text,
    load,
    resolve_convention,
    update,
)


def test_round_trip_keeps_every_deal_and_exact_amounts(tmp_path: Path) -> None:
    game = make_game(
        ["Anna", "Boris", "Vera"],
        [
            "adjust Anna --mountain 2.5 --whists Boris=5/3 --note 'half a trick'",
            "game Anna 7h 7 Boris:w Vera:p !",
        ],
        whist_price=Fraction(1, 20),
        currency="EUR",
    )
    path = tmp_path / "g.json"
    create(path, game)
    again = load(path)
    assert again == game
    text = path.read_text(encoding="utf-8")
    assert (
        '"mountain": "2.5"' in text and '"Boris": "5/3"' in text and '"whist_price": "0.05"' in text
    )
    assert '"forced": true' in text


def test_one_deal_per_line_and_nothing_derived_is_stored() -> None:
    text = game_to_json_text(sample_game())
    data = json.loads(text)
    assert data["schema"] == LEDGER_SCHEMA
    deal_lines = [line for line in text.splitlines() if line.strip().startswith('{"time"')]
    assert len(deal_lines) == len(data["deals"])
    for word in ('"pool":', '"whists": {"Anna"'):
        assert word not in text.replace('"kind": "adjust"', "")
    assert "mountain" not in json.dumps(data["deals"][0])


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d.pop("players"), "players: missing"),
        (lambda d: d.update(target="20"), "target: input should be a valid integer"),
        (lambda d: d.update(target=True), "target: input should be a valid integer"),
        (lambda d: d["deals"][1].update(kind="bomb"), "deals[1]: unknown kind 'bomb'"),
        (lambda d: d["deals"][0].update(contract="6x"), "deals[0].contract: unknown suit 'x'"),
        (lambda d: d["deals"][0].update(declarer="Zoe"), "deals[0]: unknown player 'Zoe'"),
        (
            lambda d: d["deals"][0]["defenders"][0].update(tricks="3"),
            "deals[0].defenders[0].tricks",
        ),
        (
            lambda d: d["deals"][2].update(tricks={"Anna": 2, "Boris": 5, "Vera": 2}),
            "deals[2]: all-pass tricks must add up to 10",
        ),
        (
            lambda d: d["convention"].update(preset="moscow"),
            "convention: unknown convention 'moscow'",
        ),
        (
            lambda d: d["convention"]["options"].update(liability=3),
            "convention: option 'liability'",
        ),
        (lambda d: d.update(first_dealer="Zoe"), "first_dealer: unknown player"),
        (lambda d: d.update(schema=3), "written by a newer prefcalc"),
    ],
)
def test_validation_names_the_bad_field(mutate: object, where: str) -> None:
    data = json.loads(game_to_json_text(sample_game()))
    mutate(data)  # type: ignore[operator]
    with pytest.raises(LedgerError) as error:
        game_from_json(data, "night.json")
    assert where in str(error.value)
    assert str(error.value).startswith("night.json: ")


def test_a_failed_change_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create(path, sample_game())
    before = path.read_bytes()

    def broken(game: object) -> object:
        raise LedgerError("nope")

    with pytest.raises(LedgerError):
        update(path, broken)  # type: ignore[arg-type]
    assert path.read_bytes() == before
    with pytest.raises(LedgerError, match="already exists"):
        create(path, sample_game())


def test_a_house_rules_file_is_stored_whole_in_the_game(tmp_path: Path) -> None:
    house = tmp_path / "thursday.toml"
    house.write_text(
        'name = "Thursday"\nbase = "rostov"\nliability = 1\n[passes]\nprices = [1, 2, 4]\n',
        encoding="utf-8",
    )
    ledger = tmp_path / "g.json"
    result = run_cli(
        [
            "new",
            "Anna",
            "Boris",
            "Vera",
            "-c",
            str(house),
            "--set",
            "help=most",
            "--file",
            str(ledger),
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    house.unlink()  # the game no longer needs the file
    game = load(ledger)
    assert game.convention.preset is None and game.convention.name == "Thursday"
    conv = resolve_convention(game.convention)
    assert (conv.name, conv.liability, conv.passes_prices, conv.help, conv.passes_scoring) == (
        "Thursday",
        1,
        (1, 2, 4),
        "most",
        "whists",
    )


def test_a_preset_game_stores_only_its_overrides(tmp_path: Path) -> None:
    ledger = tmp_path / "g.json"
    result = run_cli(
        [
            "new",
            "A",
            "B",
            "C",
            "--set",
            "passes.prices=1,2,4",
            "--set",
            "liability=0.5",
            "--file",
            str(ledger),
        ],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(ledger.read_text(encoding="utf-8"))
    assert data["convention"] == {
        "preset": "sochi",
        "options": {"passes.prices": [1, 2, 4], "liability": "0.5"},
    }
    assert resolve_convention(
        ConventionRef("sochi", data["convention"]["options"])
    ).liability == Fraction(1, 2)
