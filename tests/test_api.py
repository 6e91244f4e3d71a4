"""The public Python API: the example of docs/api.md, and the CLI's checks through the API."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

import prefcalc
from prefcalc.cli import main
from prefcalc.store.schemas import json_schema

ROOT = Path(__file__).resolve().parent.parent


def _api_example() -> str:
    """The first Python block of docs/api.md, the page of the API."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)[0]


def test_the_documented_example_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(_api_example(), "docs/api.md", "exec"), namespace)
    g = namespace["g"]
    assert isinstance(g, prefcalc.Game)
    assert (tmp_path / "night.json").exists()
    assert prefcalc.load(tmp_path / "night.json") == g


def test_the_api_example_numbers() -> None:
    g = prefcalc.new_game(["Anna", "Boris", "Vera"], convention="sochi", target=20)
    g = prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
    g = prefcalc.record(g, "passes Anna=2 Boris=5 Vera=3")
    s = prefcalc.sheet(g)
    # 7♥ made: Anna pool 4; Boris whists 3 tricks × 4 = 12 on Anna.
    # all-pass ×1: mountains Anna 2, Boris 5, Vera 3.
    assert s.pool == {"Anna": 4, "Boris": 0, "Vera": 0}
    assert s.mountain == {"Anna": 2, "Boris": 5, "Vera": 3}
    assert s.whists["Boris"]["Anna"] == 12
    reasons = [w.reason for w in s.scored[0].writes]
    assert "whists on 7♥: 3 tricks × 4 = 12" in reasons
    r = prefcalc.settle(g, method="average", rounding="exact")
    # pools into mountains (Pmax 4): Anna 2, Boris 9, Vera 7; amnesty 2: 0, 7, 5; avg 4.
    # Anna 10 × 4 − 12 = 28, Boris 10 × (4 − 7) + 12 = −18, Vera 10 × (4 − 5) = −10.
    assert r.whists == {"Anna": 28, "Boris": -18, "Vera": -10}
    assert sum(r.money.values()) == 0
    assert len(r.payments) <= 2


@pytest.mark.parametrize(
    ("deal", "phrase"),
    [
        ("game Anna 7h 7 Boris:w Boris:p", "a defender is listed twice"),
        ("game Anna 7h 7 Boris:w Vera:w", "two whisters: give each one's tricks"),
        ("game Anna 7h 11 Boris:w Vera:p", "must be 0-10"),
        ("passes Anna=2 Boris=5 Vera=2", "must add up to 10"),
        ("game Zoe 7h 7 Boris:w Vera:p", "unknown player 'Zoe'"),
    ],
)
def test_a_refused_deal_raises_the_line_the_cli_prints(
    deal: str, phrase: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g = prefcalc.new_game(["Anna", "Boris", "Vera"])
    with pytest.raises(prefcalc.PrefcalcError) as error:
        prefcalc.record(g, deal)
    assert phrase in str(error.value)
    ledger = tmp_path / "g.json"
    prefcalc.save(g, ledger)
    assert main([*deal.split(), "--file", str(ledger)]) == 2
    assert capsys.readouterr().err == f"prefcalc: error: {error.value}\n"


def test_an_unknown_kind_of_deal_is_named() -> None:
    with pytest.raises(prefcalc.NotationError, match="unknown deal kind 'bid'"):
        prefcalc.record(prefcalc.new_game(["Anna", "Boris", "Vera"]), "bid Anna 7h")


def test_record_applies_the_rules_in_context_and_force_marks_the_deal() -> None:
    g = prefcalc.new_game(["Anna", "Boris", "Vera"], convention="leningrad")
    g = prefcalc.record(g, "passes Anna=2 Boris=5 Vera=3")
    with pytest.raises(prefcalc.DealError, match="the lowest contract is 7, not 6"):
        prefcalc.record(g, "game Boris 6s 6 Vera:w Anna:p")
    forced = prefcalc.record(g, "game Boris 6s 6 Vera:w Anna:p", force=True)
    assert forced.entries[-1].forced
    assert prefcalc.sheet(forced).problems == ()


def test_edit_delete_undo_replay_the_night() -> None:
    g = prefcalc.new_game(["Anna", "Boris", "Vera"], whist_price="0.5", currency="eur")
    g = prefcalc.record(g, "game Anna 7h 7 Boris:w Vera:p")
    g = prefcalc.record(g, "misere Boris 0")
    assert g.currency == "EUR" and g.whist_price == Fraction(1, 2)
    edited = prefcalc.edit(g, 1, "game Anna 7h 6 Boris:w Vera:p")
    assert prefcalc.sheet(edited).mountain["Anna"] == 4
    assert edited.entries[0].time == g.entries[0].time
    # the deleted deal never happened: the misère keeps its time, and Anna now dealt it
    assert prefcalc.delete(g, 1).entries == (g.entries[1]._replace(dealer="Anna"),)
    assert prefcalc.undo(g).entries == g.entries[:1]
    with pytest.raises(prefcalc.DealError, match="there is no deal 3"):
        prefcalc.delete(g, 3)
    with pytest.raises(prefcalc.DealError, match="no deal to undo"):
        prefcalc.undo(prefcalc.new_game(["Anna", "Boris", "Vera"]))


def test_update_holds_the_lock_and_a_failed_change_writes_nothing(tmp_path: Path) -> None:
    ledger = tmp_path / "night.json"
    prefcalc.save(prefcalc.new_game(["Anna", "Boris", "Vera"]), ledger)
    g = prefcalc.update(ledger, lambda g: prefcalc.record(g, "misere Anna 0"))
    assert len(g.entries) == 1 and prefcalc.load(ledger) == g
    before = ledger.read_bytes()
    with pytest.raises(prefcalc.PrefcalcError):
        prefcalc.update(ledger, lambda g: prefcalc.record(g, "misere Zoe 0"))
    assert ledger.read_bytes() == before


def test_re_scoring_under_another_convention_leaves_the_record_alone() -> None:
    g = prefcalc.new_game(["Anna", "Boris", "Vera"], convention="sochi")
    g = prefcalc.record(g, "game Anna 6s 5 Boris:w Vera:p")
    assert prefcalc.sheet(g).mountain["Anna"] == 2
    assert prefcalc.sheet(g, "leningrad").mountain["Anna"] == 4  # remise ×2
    assert prefcalc.sheet(g, overrides=["remise_factor=2"]).mountain["Anna"] == 4
    assert prefcalc.sheet(g).mountain["Anna"] == 2


@pytest.mark.parametrize("kind", ["ledger", "convention"])
def test_committed_schemas_match_the_models(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    committed = json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text("utf-8"))
    assert committed == json_schema(kind), (
        f"schemas/{kind}.schema.json is stale: prefcalc schema {kind} > schemas/{kind}.schema.json"
    )
    assert main(["schema", kind]) == 0
    assert json.loads(capsys.readouterr().out) == committed


def test_every_ledger_the_examples_hold_validates_against_the_ledger_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json_schema("ledger")
    for path in sorted((ROOT / "examples").glob("*.json")):
        jsonschema.validate(json.loads(path.read_text("utf-8")), schema)
