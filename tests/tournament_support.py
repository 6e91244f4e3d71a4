"""Helpers of the tournament tests: play a table's deals through the real CLI, brute-force the
least number of repeated pairs a seating can have."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from support import invoke

from prefcalc import api
from prefcalc.rules.model import active_players, name_key


def deal_words(k: int, active: Sequence[str]) -> list[str]:
    """A legal deal for the three players holding cards (in seat order after the dealer):
    contracts made and failed, an all-pass deal, a misère, one after the other."""
    a, b, c = active
    pattern = [
        ["game", a, "6s", "6", f"{b}:w", f"{c}:p"],
        ["game", b, "7h", "6", f"{c}:w", f"{a}:p"],
        ["passes", f"{a}=2", f"{b}=5", f"{c}=3"],
        ["game", c, "7d", "7", f"{a}:w", f"{b}:p"],
        ["misere", a, "0"],
        ["game", b, "8nt", "9", f"{a}:w", f"{c}:p"],
        ["misere", c, "2"],
        ["game", a, "6c", "4", f"{b}:w3", f"{c}:w3"],
        ["game", c, "6h", "-", f"{a}:p", f"{b}:p"],
    ]
    return pattern[k % len(pattern)]


def play(folder: Path, file: str, deals: int, offset: int = 0) -> None:
    """Record ``deals`` deals at the table whose ledger is ``folder/file``, through the CLI
    (``prefcalc game ... --file``), as the scorekeeper would."""
    path = folder / file
    for k in range(deals):
        game = api.load(path)
        dealer = game.next_dealer
        active = active_players(game, dealer)
        words = deal_words(k + offset, active)
        done = invoke([*words, "--file", str(path)], folder.parent)
        assert done.returncode == 0, (words, done.stderr)


def settled(folder: Path, file: str) -> dict[str, Fraction]:
    """A table's results as ``prefcalc settle --json`` prints them (whists, pairwise)."""
    done = invoke(["settle", "--json", "--file", str(folder / file)], folder.parent)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    return {p["name"]: Fraction(str(p["whists"])).limit_denominator(1000) for p in data["players"]}


def partitions(items: list[str], sizes: list[int]) -> list[list[tuple[str, ...]]]:
    """Every way of seating ``items`` at tables of ``sizes`` (independent of the draw's)."""
    if not items:
        return [[]]
    out = []
    first, rest = items[0], items[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [i for i in rest if i not in others]
            for tail in partitions(remaining, left):
                out.append([(first, *others), *tail])
    return out


def repeats(tables: Sequence[Sequence[str]], met: set[frozenset[str]]) -> int:
    return sum(
        frozenset((name_key(x), name_key(y))) in met
        for table in tables
        for x, y in itertools.combinations(table, 2)
    )


def least_repeats(players: Sequence[str], sizes: Sequence[int], met: set[frozenset[str]]) -> int:
    return min(repeats(p, met) for p in partitions(list(players), list(sizes)))


def met_before(draws: Sequence[dict[str, object]]) -> set[frozenset[str]]:
    met: set[frozenset[str]] = set()
    for rnd in draws:
        for table in rnd["tables"]:  # type: ignore[attr-defined]
            keys = [name_key(p) for p in table["players"]]
            met.update(frozenset(pair) for pair in itertools.combinations(keys, 2))
    return met
