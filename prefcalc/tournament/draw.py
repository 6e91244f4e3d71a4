"""The seating of a round (docs/tournament.md, "Seating"): pure functions of the players,
the ranking, who met whom before, the tournament's seed and the round's number.

* Round 1 is a random draw from the seed: the players are put in the order of a keyed hash
  of (seed, round, player) and cut into tables by the plan (:func:`prefcalc.tournament.plans.plan`).
* Later rounds are **Swiss**: the players ranked by the standings sit in consecutive groups,
  then swaps between tables lower, first, the number of *repeated pairs* (two players at one
  table who shared a table in an earlier round), then the *distance from the ranking* (read
  the tables one after the other, each in ranking order: the sum over the players of how far
  each stands from his rank); equal choices are decided by the seed.

  Up to :data:`EXHAUSTIVE` players every way of seating them is weighed, so the least
  number of repeated pairs is found for certain; above that a steepest descent over swaps of
  two players finds it in practice (it stops where no single swap lowers the cost).
* At each table the seats and the first dealer are drawn from the seed too.

The "random" here is a keyed BLAKE2 hash of the seed and the names' keys: the same seed
gives the same tables on every computer and every Python version.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Mapping, Sequence

from prefcalc.rules.model import name_key
from prefcalc.tournament.plans import plan

EXHAUSTIVE = 12
"""Fields up to this size are seated by weighing every arrangement (at most 5,775)."""

Pair = frozenset[str]


def seed_key(seed: int, *parts: object) -> bytes:
    """The seed's "random" value for ``parts``: a keyed hash, the same everywhere."""
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.blake2b(
        text.encode("utf-8"), digest_size=16, key=str(seed).encode("ascii")
    ).digest()


def _order(players: Iterable[str], seed: int, *parts: object) -> list[str]:
    return sorted(players, key=lambda p: seed_key(seed, *parts, name_key(p)))


def first_round(players: Sequence[str], seed: int) -> list[tuple[str, ...]]:
    """Round 1: the players in the seed's random order, cut into tables by the plan."""
    return _cut(_order(players, seed, "draw", 1), plan(len(players)))


def _cut(order: Sequence[str], sizes: Sequence[int]) -> list[tuple[str, ...]]:
    out = []
    start = 0
    for size in sizes:
        out.append(tuple(order[start : start + size]))
        start += size
    return out


def seat(players: Iterable[str], seed: int, round_: int, table: int) -> tuple[tuple[str, ...], str]:
    """The seats at a table (clockwise) and its first dealer, both drawn from the seed."""
    seats = tuple(_order(players, seed, "seat", round_, table))
    dealer = min(seats, key=lambda p: seed_key(seed, "dealer", round_, table, name_key(p)))
    return seats, dealer


def met_pairs(rounds: Iterable[Iterable[Sequence[str]]]) -> set[Pair]:
    """Every pair of players who shared a table in ``rounds`` (each a list of tables)."""
    met: set[Pair] = set()
    for tables in rounds:
        for table in tables:
            keys = [name_key(p) for p in table]
            met.update(frozenset(pair) for pair in itertools.combinations(keys, 2))
    return met


def repeated_pairs(tables: Iterable[Sequence[str]], met: set[Pair]) -> int:
    """How many pairs at these tables met before."""
    return sum(
        frozenset((name_key(a), name_key(b))) in met
        for table in tables
        for a, b in itertools.combinations(table, 2)
    )


def swiss(ranking: Sequence[str], met: set[Pair], seed: int, round_: int) -> list[tuple[str, ...]]:
    """A Swiss round: the tables (each its players in ranking order), given the players
    ranked best first and the pairs that met in the earlier rounds."""
    sizes = plan(len(ranking))
    n = len(ranking)
    keys = [name_key(p) for p in ranking]
    seen = [[False] * n for _ in range(n)]
    for i, j in itertools.combinations(range(n), 2):
        if frozenset((keys[i], keys[j])) in met:
            seen[i][j] = seen[j][i] = True
    tie = [int.from_bytes(seed_key(seed, "swap", round_, k), "big") for k in keys]
    groups = _exhaustive(n, sizes, seen, tie) if n <= EXHAUSTIVE else _descent(n, sizes, seen, tie)
    return [tuple(ranking[i] for i in group) for group in groups]


# --- the cost of an arrangement ---------------------------------------------------------------


def _repeats(group: Sequence[int], seen: Sequence[Sequence[bool]]) -> int:
    return sum(1 for a, b in itertools.combinations(group, 2) if seen[a][b])


def _distance(group: list[int], start: int) -> int:
    """How far the players of a table starting at place ``start`` stand from their ranks."""
    group.sort()
    total = 0
    for r in group:
        total += start - r if start > r else r - start
        start += 1
    return total


def _starts(sizes: Sequence[int]) -> list[int]:
    return [sum(sizes[:t]) for t in range(len(sizes))]


def _cost(
    groups: Sequence[Sequence[int]], sizes: Sequence[int], seen: Sequence[Sequence[bool]]
) -> tuple[int, int]:
    starts = _starts(sizes)
    return (
        sum(_repeats(g, seen) for g in groups),
        sum(_distance(list(g), s) for g, s in zip(groups, starts, strict=True)),
    )


def _arranged(blocks: Iterable[tuple[int, ...]], sizes: Sequence[int]) -> list[list[int]]:
    """A partition's blocks as tables: the tables of 4 first, each size's blocks in the
    order of their ranks (the order that keeps them closest to the ranking)."""
    out: list[list[int]] = []
    by_size: dict[int, list[list[int]]] = {}
    for block in blocks:
        by_size.setdefault(len(block), []).append(sorted(block))
    for size in dict.fromkeys(sizes):
        out += sorted(by_size.get(size, []))
    return out


# --- every arrangement (small fields) --------------------------------------------------------


def _partitions(items: list[int], sizes: list[int]) -> Iterable[list[tuple[int, ...]]]:
    """Every way of cutting ``items`` into blocks of ``sizes`` (blocks of one size unordered:
    each block holds the smallest item not yet placed)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in dict.fromkeys(sizes):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            block = (first, *others)
            remaining = [i for i in rest if i not in others]
            for tail in _partitions(remaining, left):
                yield [block, *tail]


def _exhaustive(
    n: int, sizes: Sequence[int], seen: Sequence[Sequence[bool]], tie: Sequence[int]
) -> list[list[int]]:
    best: tuple[tuple[int, int, tuple[int, ...]], list[list[int]]] | None = None
    for blocks in _partitions(list(range(n)), list(sizes)):
        groups = _arranged(blocks, sizes)
        rank = (*_cost(groups, sizes, seen), _tie_of(groups, tie))
        if best is None or rank < best[0]:
            best = (rank, groups)
    assert best is not None
    return best[1]


def _tie_of(groups: Sequence[Sequence[int]], tie: Sequence[int]) -> tuple[int, ...]:
    """The seed's word between two arrangements of equal cost."""
    return tuple(tie[i] for group in groups for i in group)


# --- steepest descent over swaps (large fields) -----------------------------------------------


def _descent(
    n: int, sizes: Sequence[int], seen: Sequence[Sequence[bool]], tie: Sequence[int]
) -> list[list[int]]:
    starts = _starts(sizes)
    groups = [list(range(s, s + size)) for s, size in zip(starts, sizes, strict=True)]
    where = [0] * n
    for t, group in enumerate(groups):
        for i in group:
            where[i] = t
    # met[i][t]: how many players of table t player i met before
    met = [[0] * len(groups) for _ in range(n)]
    for i in range(n):
        for t, group in enumerate(groups):
            met[i][t] = sum(seen[i][j] for j in group if j != i)
    if not any(met[i][where[i]] for i in range(n)):
        return groups  # the ranking's own groups repeat no pair
    distance = [_distance(g, s) for g, s in zip(groups, starts, strict=True)]
    while True:
        # the best swap: fewest repeats, then the least distance, then the seed's word; a
        # swap that cannot beat the best found so far on repeats is not weighed further
        best: tuple[int, int, int, int] | None = None
        pick = (0, 0)
        for a in range(n):
            ta = where[a]
            met_a = met[a]
            seen_a = seen[a]
            rest_a = [i for i in groups[ta] if i != a]
            start_a = starts[ta]
            for b in range(a + 1, n):
                tb = where[b]
                if ta == tb:
                    continue
                met_b = met[b]
                d_rep = met_a[tb] + met_b[ta] - met_a[ta] - met_b[tb] - 2 * seen_a[b]
                if d_rep > 0 or (best is not None and d_rep > best[0]):
                    continue
                d_dist = (
                    _distance([*rest_a, b], start_a)
                    + _distance([a if i == b else i for i in groups[tb]], starts[tb])
                    - distance[ta]
                    - distance[tb]
                )
                if d_rep == 0 and d_dist >= 0:
                    continue
                low, high = (tie[a], tie[b]) if tie[a] < tie[b] else (tie[b], tie[a])
                rank = (d_rep, d_dist, low, high)
                if best is None or rank < best:
                    best = rank
                    pick = (a, b)
        if best is None:
            break
        a, b = pick
        ta, tb = where[a], where[b]
        groups[ta] = [b if i == a else i for i in groups[ta]]
        groups[tb] = [a if i == b else i for i in groups[tb]]
        where[a], where[b] = tb, ta
        for i in range(n):
            met[i][ta] += seen[i][b] - seen[i][a]
            met[i][tb] += seen[i][a] - seen[i][b]
        distance[ta] = _distance(groups[ta], starts[ta])
        distance[tb] = _distance(groups[tb], starts[tb])
    return [sorted(g) for g in groups]


def meetings(rounds: Iterable[Iterable[Sequence[str]]]) -> Mapping[Pair, int]:
    """How many times each pair of players shared a table in ``rounds``."""
    count: dict[Pair, int] = {}
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations([name_key(p) for p in table], 2):
                pair = frozenset((a, b))
                count[pair] = count.get(pair, 0) + 1
    return count
