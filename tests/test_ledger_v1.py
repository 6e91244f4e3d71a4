"""Ledgers written by the first release (schema 1) open unchanged and show the same sheet.

The fixtures in ``fixtures/ledger-v1`` were written by prefcalc 0.1.0 together with what it
printed for them; a file is upgraded to schema 2 only when a deal is next written to it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from prefcalc.cli import main
from prefcalc.store.ledger import load

FIXTURES = Path(__file__).parent / "fixtures" / "ledger-v1"
LEDGERS = sorted(p for p in FIXTURES.glob("*.json") if "." not in p.stem)


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("ledger", LEDGERS, ids=[p.stem for p in LEDGERS])
def test_a_schema_1_ledger_shows_the_same_sheet_and_settlement(
    ledger: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / ledger.name
    shutil.copyfile(ledger, copy)
    before = copy.read_bytes()
    assert json.loads(before)["schema"] == 1
    sheet = _run(["show", "--json", "--file", str(copy)], capsys)
    settle = _run(["settle", "--json", "--compare", "--file", str(copy)], capsys)
    assert json.loads(sheet) == json.loads(ledger.with_suffix(".sheet.json").read_text("utf-8"))
    assert json.loads(settle) == json.loads(ledger.with_suffix(".settle.json").read_text("utf-8"))
    assert copy.read_bytes() == before, "reading never rewrites (or upgrades) a ledger"


@pytest.mark.parametrize("ledger", LEDGERS, ids=[p.stem for p in LEDGERS])
def test_a_schema_1_ledger_is_upgraded_when_next_written(
    ledger: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / ledger.name
    shutil.copyfile(ledger, copy)
    old = load(copy)
    game = old
    dealer = game.next_dealer
    active = [p for p in game.players if not (len(game.players) == 4 and p == dealer)]
    tricks = [f"{p}={n}" for p, n in zip(active, (3, 3, 4), strict=True)]
    _run(["passes", *tricks, "--force", "--file", str(copy)], capsys)
    data = json.loads(copy.read_text("utf-8"))
    assert data["schema"] == 2
    new = load(copy)
    assert new.entries[:-1] == old.entries
    assert new._replace(entries=()) == old._replace(entries=())
