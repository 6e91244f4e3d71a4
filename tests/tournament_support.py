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
from prefcalc.rules.model import Game, active_players, name_key


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


def least_cost(
    ranking: Sequence[str],
    sizes: Sequence[int],
    met: set[frozenset[str]],
    apart: set[frozenset[str]] = frozenset(),  # type: ignore[assignment]
) -> tuple[int, int]:
    """The least (repeated pairs, distance from the ranking) of any seating, by brute force:
    every partition of the players into tables of ``sizes`` and, for each, every order of
    its tables of one size (the tables of 4 come first); independent of the draw's code."""
    rank = {p: k for k, p in enumerate(ranking)}
    best: tuple[int, int] | None = None
    for blocks in partitions(list(ranking), list(sizes)):
        if any(
            frozenset((name_key(x), name_key(y))) in apart
            for block in blocks
            for x, y in itertools.combinations(block, 2)
        ):
            continue
        fours = [b for b in blocks if len(b) == 4]
        threes = [b for b in blocks if len(b) == 3]
        least = None
        for f in itertools.permutations(fours):
            for t in itertools.permutations(threes):
                d = table_distance([*f, *t], rank)
                least = d if least is None else min(least, d)
        assert least is not None
        cost = (repeats(blocks, met), least)
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def table_distance(tables: Sequence[Sequence[str]], rank: dict[str, int]) -> int:
    """The tables read one after the other, each in ranking order: the sum of how far each
    player is read from his rank."""
    total, position = 0, 0
    for table in tables:
        for r in sorted(rank[p] for p in table):
            total += abs(position - r)
            position += 1
    return total


def least_order_distance(tables: Sequence[Sequence[str]], rank: dict[str, int]) -> int:
    """The least distance of fixed tables (all of one size) over every order of them: a
    dynamic programme over the sets of tables placed first (up to 20 tables)."""
    size = len(tables[0])
    assert all(len(t) == size for t in tables)
    cost = [
        [
            sum(abs(s * size + j - r) for j, r in enumerate(sorted(rank[p] for p in table)))
            for s in range(len(tables))
        ]
        for table in tables
    ]
    n = len(tables)
    best = [0] + [1 << 60] * ((1 << n) - 1)
    for mask in range(1 << n):
        slot = bin(mask).count("1")
        if slot == n:
            continue
        for k in range(n):
            if not mask & (1 << k):
                nxt = mask | (1 << k)
                value = best[mask] + cost[k][slot]
                if value < best[nxt]:
                    best[nxt] = value
    return best[(1 << n) - 1]


# --- affine planes: rounds in which every pair meets at most once ------------------------------


def _gf(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication of the field of q elements (q = 3 or 4)."""
    if q == 3:
        return (
            [[(a + b) % 3 for b in range(3)] for a in range(3)],
            [[(a * b) % 3 for b in range(3)] for a in range(3)],
        )
    assert q == 4  # 0, 1, a, a + 1 as 0, 1, 2, 3; a² = a + 1
    log = {1: 0, 2: 1, 3: 2}
    exp = [1, 2, 3]
    add = [[a ^ b for b in range(4)] for a in range(4)]
    mul = [[0 if 0 in (a, b) else exp[(log[a] + log[b]) % 3] for b in range(4)] for a in range(4)]
    return add, mul


def parallel_classes(q: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of the affine plane of order q on the points 0..q²-1
    (point (x, y) is q·x + y): each class cuts the points into q lines of q, and two points
    lie on exactly one line, so the classes as rounds of tables of q never repeat a pair."""
    add, mul = _gf(q)
    classes = []
    for m in range(q):
        classes.append([sorted(q * x + add[mul[m][x]][c] for x in range(q)) for c in range(q)])
    classes.append([[q * c + y for y in range(q)] for c in range(q)])
    return classes


# --- an FSPR event: the talon's bonus and the returned whist -----------------------------------


def fspr_words(k: int, game: Game, dealer: str) -> list[str]:
    """A legal FSPR deal for the table ``game`` dealt by ``dealer``: a game with a talon
    bonus, then (at a table of four) a whist returned by the sitting-out dealer after both
    defenders passed, a clean misère, a game made with a trick over."""
    a, b, c = active_players(game, dealer)
    four = len(game.players) == 4
    pattern = [
        ["game", a, "6s", "6", f"{b}:w", f"{c}:p", "--talon", "1"],
        ["game", b, "7h", "7", f"{c}:p", f"{a}:p", "--returned-by", dealer]
        if four
        else ["game", b, "7h", "6", f"{c}:w", f"{a}:p"],
        ["misere", c, "0"],
        ["game", a, "7d", "8", f"{b}:w", f"{c}:p"],
    ]
    return pattern[k % len(pattern)]


def play_fspr(folder: Path, file: str, deals: int, offset: int = 0, lang: str = "en") -> None:
    """Record ``deals`` FSPR deals at the table ``folder/file`` through the CLI."""
    path = folder / file
    for k in range(deals):
        game = api.load(path)
        words = fspr_words(k + offset, game, game.next_dealer)
        done = invoke(["--lang", lang, *words, "--file", str(path)], folder.parent)
        assert done.returncode == 0, (words, done.stderr)
