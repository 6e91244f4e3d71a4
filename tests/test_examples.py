"""The bundled example evenings against their hand computations.

Each ``examples/<name>.json`` ledger is scored and settled and compared with the ``[expected]``
block of ``examples/<name>.md``, which was computed by hand from docs/rules.md. The record
itself is checked too: a real evening (20+ deals, increasing evening timestamps) that covers
the deal types its ``covers`` list promises, and together they cover every deal type and every
table size (Gusarik for two, three, four and five players).
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import tomllib
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from support import run_cli

from prefcalc.rules.model import Adjustment, AllPass, Contract, Game, Misere, Preference
from prefcalc.rules.scoring import Scored, Sheet, score
from prefcalc.rules.settlement import Settlement, settle
from prefcalc.store.ledger import load, resolve_convention

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NAMES = ("sochi-3", "leningrad-4", "rostov-3", "gusarik-2", "rostov-5", "classic-3")
METHODS = ("pairwise", "average")

# Defenders' norm by contract level (docs/rules.md §3; ten_norm 0 in all three presets).
NORM = {6: 4, 7: 2, 8: 1, 9: 1, 10: 0}

EVERY_DEAL_TYPE = {
    "two whisters, made",
    "two whisters, remise",
    "one whister, made",
    "one whister, remise",
    "both pass",
    "half-whist",
    "misere made",
    "misere failed",
    "all-pass",
    "all-pass zero trick",
    "all-pass streak of 3+",
    "all-pass tie",
    "shortfall, one whister",
    "shortfall, two whisters",
    "adjustment",
    "help",
    "remise with the dealer sitting out",
    "gusarik whist, made",
    "gusarik whist, remise",
    "gusarik pass",
    "gusarik own tricks",
    "gusarik shortfall",
    "five at the table",
    "opening circle",
    "blind pass",
    "dark game",
    "bomb used",
    "bomb kept",
    "preference",
}


@functools.cache
def expected(name: str) -> dict[str, Any]:
    """The ``[expected]`` table of the first fenced ``toml`` block in ``<name>.md``."""
    text = (EXAMPLES / f"{name}.md").read_text(encoding="utf-8")
    block = re.search(r"^```toml\n(.*?)^```", text, re.S | re.M)
    assert block, f"{name}.md has no toml block"
    table: dict[str, Any] = tomllib.loads(block.group(1))["expected"]
    return table


@functools.cache
def game(name: str) -> Game:
    return load(EXAMPLES / f"{name}.json")


@functools.cache
def sheet(name: str) -> Sheet:
    g = game(name)
    return score(g, resolve_convention(g.convention))


@functools.cache
def settlement(name: str, method: str) -> Settlement:
    g = game(name)
    return settle(sheet(name), method, "exact", g.whist_price, g.currency)


def q(value: object) -> Fraction:
    """An expected number: an int, or a string like ``"16/3"`` or ``"-21.40"``."""
    assert isinstance(value, int | str) and not isinstance(value, bool), value
    return Fraction(value)


def per_player(table: dict[str, Any]) -> dict[str, Fraction]:
    return {player: q(v) for player, v in table.items()}


def exact(values: dict[str, Any]) -> dict[str, Fraction]:
    return {player: Fraction(v) for player, v in values.items()}


def deal_types(g: Game, s: Sheet) -> set[str]:
    """The kinds of deal the record holds, read from the record (and the help writes)."""
    kinds: set[str] = set()
    streak = 0
    for entry, scored in zip(g.entries, s.scored, strict=True):
        deal = entry.deal
        streak = streak + 1 if isinstance(deal, AllPass) else 0
        kinds |= _classic_types(deal, scored)
        if (
            isinstance(deal, AllPass)
            and any(e[1] == "earned" for e in scored.bombs)
            and (not deal.blind)
        ):
            streak = 0  # an opening deal is not in the all-pass streak
            continue
        if isinstance(deal, Adjustment):
            if deal.note.strip():
                kinds.add("adjustment")
        elif isinstance(deal, AllPass):
            kinds.add("all-pass")
            counts = [t for _, t in deal.tricks]
            if 0 in counts:
                kinds.add("all-pass zero trick")
            if counts.count(min(counts)) > 1:
                kinds.add("all-pass tie")
            if streak >= 3:
                kinds.add("all-pass streak of 3+")
        elif isinstance(deal, Misere):
            kinds.add("misere made" if deal.tricks == 0 else "misere failed")
        elif isinstance(deal, Contract):
            kinds |= _contract_types(g, deal)
        if len(g.players) == 5 and entry.dealer is not None:
            kinds.add("five at the table")
        if isinstance(deal, Contract | Misere) and any(
            w.column == "whists" and w.player == deal.declarer for w in scored.writes
        ):
            kinds.add("help")  # only a helper writes whists from the declarer's seat
    return kinds


def _classic_types(deal: object, scored: Scored) -> set[str]:
    """The Classic parts of a deal (docs/rules.md §8.1, §8.5), read from the record and its
    bombs."""
    kinds: set[str] = set()
    if isinstance(deal, AllPass) and deal.blind:
        kinds.add("blind pass")
    elif isinstance(deal, AllPass) and scored.bombs:
        kinds.add("opening circle")
    if isinstance(deal, Contract | Misere) and deal.dark:
        kinds.add("dark game")
    kinds |= {f"bomb {what}" for _, what, _ in scored.bombs if what in ("used", "kept")}
    if isinstance(deal, Preference):
        kinds.add("preference")
    return kinds


def _contract_types(g: Game, deal: Contract) -> set[str]:
    roles = sorted(d.role for d in deal.defenders)
    if len(roles) == 1:  # Gusarik: one defender and the dummy
        if roles == ["p"]:
            return {"gusarik pass"}
        if roles == ["h"]:
            return {"gusarik own tricks"}
        assert deal.tricks is not None
        kinds = {f"gusarik whist, {'made' if deal.tricks >= deal.level else 'remise'}"}
        if 10 - deal.tricks < NORM[deal.level]:
            kinds.add("gusarik shortfall")
        return kinds
    if roles == ["p", "p"]:
        return {"both pass"}
    if "h" in roles:
        return {"half-whist"}
    assert deal.tricks is not None
    made = deal.tricks >= deal.level
    defence = 10 - deal.tricks
    who = "two whisters" if roles == ["w", "w"] else "one whister"
    kinds = {f"{who}, {'made' if made else 'remise'}"}
    if defence < NORM[deal.level]:
        kinds.add(f"shortfall, {who}")
    if not made and len(g.players) >= 4:
        kinds.add("remise with the dealer sitting out")
    return kinds


# --- the record ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_ledger_is_a_real_evening(name: str) -> None:
    g = game(name)
    assert len(g.entries) == expected(name)["deals"]
    deals = [e for e in g.entries if not isinstance(e.deal, Adjustment)]
    assert len(deals) >= 20
    assert not any(e.forced for e in g.entries)
    times = [datetime.fromisoformat(t) for t in (g.created, *(e.time for e in g.entries))]
    assert times == sorted(times)
    assert len({t.date() for t in times}) == 1
    assert all(19 <= t.hour <= 23 for t in times)


@pytest.mark.parametrize("name", NAMES)
def test_ledger_covers_its_deal_types(name: str) -> None:
    promised = set(expected(name)["covers"])
    assert promised <= EVERY_DEAL_TYPE
    missing = promised - deal_types(game(name), sheet(name))
    assert not missing, f"{name} lacks {sorted(missing)}"


def test_examples_together_cover_everything() -> None:
    covered = set().union(*(deal_types(game(n), sheet(n)) for n in NAMES))
    assert covered >= EVERY_DEAL_TYPE, sorted(EVERY_DEAL_TYPE - covered)
    assert {game(n).convention.preset for n in NAMES} == {"sochi", "leningrad", "rostov", "classic"}
    assert {expected(n)["finished"] for n in NAMES} == {True, False}
    names = [p for n in NAMES for p in game(n).players]
    assert any(not p.isascii() for p in names)
    assert {len(game(n).players) for n in NAMES} == {2, 3, 4, 5}


# --- the sheet ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_sheet(name: str) -> None:
    s, want = sheet(name), expected(name)
    assert s.problems == ()
    assert s.finished is want["finished"]
    assert exact(s.pool) == per_player(want["pool"])
    assert exact(s.mountain) == per_player(want["mountain"])
    got = {a: {b: Fraction(v) for b, v in row.items() if v} for a, row in s.whists.items()}
    wanted = {a: {b: q(v) for b, v in row.items() if v} for a, row in want["whists"].items()}
    assert {a: row for a, row in got.items() if row} == wanted
    assert {p: list(b) for p, b in s.bombs.items()} == want.get("bombs", {})


# --- the settlement -----------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", NAMES)
def test_settlement_result(name: str, method: str) -> None:
    s, want = settlement(name, method), expected(name)
    assert s.method == method
    assert s.pool_max == q(want["pool_max"])
    assert exact(s.mountains) == per_player(want["settled_mountain"])
    assert exact(s.game_whists) == per_player(want["game_whists"])
    assert exact(s.mountain_whists) == per_player(want["mountain_whists"])
    assert exact(s.whists) == per_player(want["result"])
    assert sum(s.whists.values()) == 0
    assert exact(s.money) == per_player(want["money"])
    assert sum(s.money.values()) == 0
    paid = sorted((p.payer, p.payee, Fraction(p.amount)) for p in s.payments)
    wanted = sorted((p["from"], p["to"], q(p["amount"])) for p in want["payments"])
    assert paid == wanted


@pytest.mark.parametrize("name", NAMES)
def test_settlement_pairwise_balances(name: str) -> None:
    s, want = settlement(name, "pairwise"), expected(name)

    def balance(a: str, b: str) -> Fraction:
        """What ``a`` gains from ``b`` (prefcalc may keep one direction or both)."""
        if (a, b) in s.pairwise:
            return Fraction(s.pairwise[(a, b)])
        return -Fraction(s.pairwise[(b, a)])

    for a, row in want["pairwise"].items():
        for b, value in row.items():
            assert balance(a, b) == q(value), (a, b)
            assert balance(b, a) == -q(value), (b, a)
    for a in s.players:
        assert sum(balance(a, b) for b in s.players if b != a) == q(want["result"][a])


@pytest.mark.parametrize("name", NAMES)
def test_expected_block_is_consistent(name: str) -> None:
    """The hand computation agrees with itself (docs/rules.md §5: both methods, zero sum)."""
    want = expected(name)
    players = list(want["pool"])
    n = len(players)
    pool = per_player(want["pool"])
    pool_max = max(pool.values())
    assert q(want["pool_max"]) == pool_max
    factor = 2 if name.startswith("leningrad") else 1
    settled = {p: q(want["mountain"][p]) + factor * (pool_max - pool[p]) for p in players}
    assert settled == per_player(want["settled_mountain"])
    assert q(want["amnesty"]) == min(settled.values())
    m = {p: settled[p] - min(settled.values()) for p in players}
    assert m == per_player(want["amnestied"])
    avg = sum(m.values(), Fraction(0)) / n
    assert q(want["average"]) == avg
    assert per_player(want["mountain_entries"]) == {p: 10 * m[p] / n for p in players}
    assert per_player(want["mountain_whists"]) == {p: 10 * (avg - m[p]) for p in players}
    whists = want["whists"]

    def w(a: str, b: str) -> Fraction:
        return q(whists.get(a, {}).get(b, 0))

    net = {a: sum((w(a, b) - w(b, a) for b in players if b != a), Fraction(0)) for a in players}
    assert net == per_player(want["game_whists"])
    result = per_player(want["result"])
    assert result == {p: net[p] + 10 * (avg - m[p]) for p in players}
    pairs = {(a, b): q(v) for a, row in want["pairwise"].items() for b, v in row.items()}
    for a, b in list(pairs):
        pairs[(b, a)] = -pairs[(a, b)]
        entry_a, entry_b = 10 * m[a] / n, 10 * m[b] / n
        assert pairs[(a, b)] == (w(a, b) + entry_b) - (w(b, a) + entry_a)
    assert len(pairs) == n * (n - 1)
    assert all(sum(pairs[(a, b)] for b in players if b != a) == result[a] for a in players)
    assert sum(result.values()) == 0
    money = per_player(want["money"])
    assert sum(money.values()) == 0
    price = game(name).whist_price
    assert all(abs(money[p] - result[p] * Fraction(price)) < Fraction(1, 100) for p in players)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", NAMES)
def test_settlement_amnesty(name: str, method: str) -> None:
    s, want = settlement(name, method), expected(name)
    assert s.amnesty == q(want["amnesty"])
    assert exact(s.amnestied) == per_player(want["amnestied"])
    assert s.average == q(want["average"])
    assert exact(s.mountain_entries) == per_player(want["mountain_entries"])


# --- the real command line ----------------------------------------------------------------------


def test_cli_settle_json(tmp_path: Path) -> None:
    name = "rostov-3"
    path = tmp_path / f"{name}.json"
    shutil.copyfile(EXAMPLES / f"{name}.json", path)
    done = run_cli(["settle", "--json", "--file", str(path)], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    want = expected(name)
    assert data["method"] == "pairwise"
    assert data["rounding"] == "exact"
    assert data["currency"] == "RUB"
    players = {p["name"]: p for p in data["players"]}
    assert list(players) == list(game(name).players)
    for player, p in players.items():
        assert p["whists"] == pytest.approx(float(q(want["result"][player])))
        assert round(Fraction(p["money"]), 2) == q(want["money"][player])
        assert p["mountain"] == q(want["settled_mountain"][player])
    paid = sorted((p["from"], p["to"], round(Fraction(p["amount"]), 2)) for p in data["payments"])
    assert paid == sorted((p["from"], p["to"], q(p["amount"])) for p in want["payments"])
    assert path.read_bytes() == (EXAMPLES / f"{name}.json").read_bytes()


def test_cli_settle_json_amnesty(tmp_path: Path) -> None:
    name = "rostov-3"
    path = tmp_path / f"{name}.json"
    shutil.copyfile(EXAMPLES / f"{name}.json", path)
    done = run_cli(["settle", "--json", "--method", "average", "--file", str(path)], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    players = {p["name"]: p for p in json.loads(done.stdout)["players"]}
    want = expected(name)["amnestied"]
    assert {n: Fraction(p["amnestied_mountain"]) for n, p in players.items()} == per_player(want)
