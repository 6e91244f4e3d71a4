"""The seating of a round (docs/tournament.md §3): pure functions of the players, the ranking,
who met whom before, the pairs kept apart, the tournament's seed and the round's number.

* Round 1 is a random draw from the seed (the players in the order of a keyed hash of the
  seed, the round and each name) or, with ``seeding = rating``, the players dealt to the
  tables by rating like cards, one to each table in turn, back and forth (:func:`first_order`).
* Every round is then **solved** (:func:`arrange`): the players read in an order (the
  ranking by the standings; for round 1 the order above) are seated at the plan's tables
  (4s first, then 3s) so that, in this order of importance,

  1. the fewest **repeated pairs** sit together (two players who shared a table before; a
     pair counts once however often they met), and no pair kept apart (``--forbid``) does;
  2. the **distance from the ranking** is least: read the tables one after the other (the
     order of the tables is part of the answer), each in ranking order, and add up how far
     each player is read from his rank;
  3. the seed decides between equal seatings: the least sum of the seed's numbers (a keyed
     hash of the seed, the round, the player and his table) wins.

  Fields up to :data:`EXHAUSTIVE` players are solved by weighing every seating (every
  partition into tables, every order of the tables of one size). Larger ones are solved
  exactly by OR-Tools' CP-SAT solver (imported only here, only then), in three stages
  (minimise the repeats; fix them; minimise the distance; fix it; minimise the seed's sum),
  with one worker and a fixed seed. The solver proves what it finds optimal (then the
  seating is the one the objective defines: the same folder draws the same round on every
  computer) or, past the time limit, gives the best seating found and says so (a search
  cut short by the clock may end elsewhere on another computer): :class:`Seating` carries
  what was achieved and whether it was proved.
* At each table the seats and the first dealer are drawn from the seed too (:func:`seat`).

The "random" here is a keyed BLAKE2 hash of the seed and the names' keys: the same seed
gives the same tables on every computer and every Python version.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from prefcalc.errors import DealError
from prefcalc.i18n import _
from prefcalc.rules.model import name_key
from prefcalc.tournament.plans import plan

EXHAUSTIVE = 12
"""Fields up to this size are seated by weighing every seating: at 12 players (5,775
partitions, 6 orders of their tables each) that takes a tenth of the time the solver needs to
load (tests/benchmarks/bench_draw.py measures both)."""

TIME_LIMIT = 10.0
"""The solver's default time limit, seconds (``tournament draw --time-limit``)."""

MAX_TIME_LIMIT = 3600.0

TIE_WORK = 0.5
"""The solver's work (its deterministic time, about seconds) the seed's stage may take."""


Pair = frozenset[str]


def seed_key(seed: int, *parts: object) -> bytes:
    """The seed's "random" value for ``parts``: a keyed hash, the same everywhere."""
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.blake2b(
        text.encode("utf-8"), digest_size=16, key=str(seed).encode("ascii")
    ).digest()


def _order(players: Iterable[str], seed: int, *parts: object) -> list[str]:
    return sorted(players, key=lambda p: seed_key(seed, *parts, name_key(p)))


def random_order(players: Iterable[str], seed: int, round_: int = 1) -> list[str]:
    """The players in the seed's random order for a round drawn at random."""
    return _order(players, seed, "draw", round_)


def rating_order(players: Sequence[str], ratings: Mapping[str, int | None], seed: int) -> list[str]:
    """Round 1 seeded by rating (*pin*, docs/tournament.md §3.2): the players by rating, the
    highest first (the unrated last, in the seed's order; equal ratings in the seed's order),
    dealt to the plan's tables like cards, one to each table in turn and back (table 1 gets the
    1st, the 2nT-th, the (2nT+1)-th...); returned read table by table, the order whose own
    groups are those tables."""
    sizes = plan(len(players))
    tie = {p: seed_key(seed, "rating", name_key(p)) for p in players}
    ranked = sorted(players, key=lambda p: (ratings.get(p) is None, -(ratings.get(p) or 0), tie[p]))
    tables: list[list[str]] = [[] for _ in sizes]
    forward = True
    queue = list(ranked)
    while queue:
        for t in range(len(sizes)) if forward else reversed(range(len(sizes))):
            if queue and len(tables[t]) < sizes[t]:
                tables[t].append(queue.pop(0))
        forward = not forward
    return [p for table in tables for p in table]


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


def pair_of(a: str, b: str) -> Pair:
    return frozenset((name_key(a), name_key(b)))


def repeated(tables: Iterable[Sequence[str]], met: set[Pair]) -> list[tuple[str, str]]:
    """The pairs at these tables who met before, each as two names in the table's order."""
    return [
        (a, b)
        for table in tables
        for a, b in itertools.combinations(table, 2)
        if pair_of(a, b) in met
    ]


def repeated_pairs(tables: Iterable[Sequence[str]], met: set[Pair]) -> int:
    """How many pairs at these tables met before."""
    return len(repeated(tables, met))


def distance(tables: Sequence[Sequence[str]], ranking: Sequence[str]) -> int:
    """How far the tables, read one after the other (each in ranking order), stand from the
    ranking: the sum over the players of how far each is read from his rank."""
    rank = {p: k for k, p in enumerate(ranking)}
    total = 0
    position = 0
    for table in tables:
        for r in sorted(rank[p] for p in table):
            total += abs(position - r)
            position += 1
    return total


def meetings(rounds: Iterable[Iterable[Sequence[str]]]) -> Mapping[Pair, int]:
    """How many times each pair of players shared a table in ``rounds``."""
    count: dict[Pair, int] = {}
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations([name_key(p) for p in table], 2):
                pair = frozenset((a, b))
                count[pair] = count.get(pair, 0) + 1
    return count


# --- the answer ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """A round's seating and what it achieved.

    ``tables``: the plan's tables in order (4s first), each its players in ranking order;
    ``repeats``: the pairs at them who met before (``pairs``: which); ``distance``: from the
    ranking (docs/tournament.md §3.4); ``proved_repeats``: no seating repeats fewer pairs
    (proved); ``proved``: no seating repeats fewer or, as few, stands closer (proved);
    ``settled``: among the seatings as good, it is the seed's choice (proved: the same folder
    draws it on every computer); ``limit``: the solver's time limit (None: every seating
    was weighed)."""

    tables: tuple[tuple[str, ...], ...]
    repeats: int
    distance: int
    proved_repeats: bool
    proved: bool
    pairs: tuple[tuple[str, str], ...] = ()
    limit: float | None = None
    swapped: tuple[str, str] | None = None
    settled: bool = True


def arrange(
    ranking: Sequence[str],
    met: set[Pair],
    seed: int,
    round_: int,
    *,
    forbid: Iterable[Pair] = (),
    time_limit: float = TIME_LIMIT,
) -> Seating:
    """The seating of the players of ``ranking`` (best first) at the plan's tables that
    repeats the fewest pairs of ``met``, then stands closest to the ranking, then the seed's
    choice; no pair of ``forbid`` shares a table (:class:`DealError` when none can)."""
    n = len(ranking)
    sizes = plan(n)
    keys = [name_key(p) for p in ranking]
    index = {k: i for i, k in enumerate(keys)}
    seen = [[False] * n for _ in range(n)]
    for i, j in itertools.combinations(range(n), 2):
        if frozenset((keys[i], keys[j])) in met:
            seen[i][j] = seen[j][i] = True
    apart: set[tuple[int, int]] = set()
    for pair in forbid:
        ends = sorted(index[k] for k in pair if k in index)
        if len(ends) == 2:
            apart.add((ends[0], ends[1]))
    own = _groups(sizes)
    if not apart.isdisjoint(_pairs_of(own)) or any(
        seen[i][j] for g in own for i, j in itertools.combinations(g, 2)
    ):
        problem = _Problem(n, sizes, seen, apart, _ties(keys, seed, round_, len(sizes)))
        if n <= EXHAUSTIVE:
            groups, proved_repeats, proved, settled = _exhaustive(problem), True, True, True
            limit = None
        else:
            groups, proved_repeats, proved, settled = _solve(problem, seed, time_limit)
            limit = time_limit
    else:  # the ranking's own groups: no repeat, distance 0, the one seating that is
        groups, proved_repeats, proved, settled, limit = own, True, True, True, None
    tables = tuple(tuple(ranking[i] for i in sorted(g)) for g in groups)
    pairs = tuple(repeated(tables, met))
    return Seating(
        tables=tables,
        repeats=len(pairs),
        distance=distance(tables, ranking),
        proved_repeats=proved_repeats,
        proved=proved,
        pairs=pairs,
        limit=limit,
        settled=settled,
    )


def swap(seating: Seating, a: str, b: str, ranking: Sequence[str], met: set[Pair]) -> Seating:
    """``seating`` with players ``a`` and ``b`` (at two tables) exchanged by the director:
    its repeats and distance said anew, nothing proved of it any more."""
    where = {name_key(p): t for t, table in enumerate(seating.tables) for p in table}
    ka, kb = name_key(a), name_key(b)
    if ka not in where or kb not in where:
        missing = a if ka not in where else b
        raise DealError(_("'{name}' is not seated in this round").format(name=missing))
    if where[ka] == where[kb]:
        raise DealError(
            _("{a} and {b} sit at the same table: swap players of two tables").format(a=a, b=b)
        )
    rank = {p: k for k, p in enumerate(ranking)}
    tables = []
    for table in seating.tables:
        changed = [b if name_key(p) == ka else a if name_key(p) == kb else p for p in table]
        tables.append(tuple(sorted(changed, key=rank.__getitem__)))
    names = {name_key(p): p for p in ranking}
    pairs = tuple(repeated(tables, met))
    return replace(
        seating,
        tables=tuple(tables),
        repeats=len(pairs),
        distance=distance(tables, ranking),
        pairs=pairs,
        proved_repeats=False,
        proved=False,
        settled=False,
        swapped=(names[ka], names[kb]),
    )


# --- the problem ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Problem:
    n: int
    sizes: tuple[int, ...]
    seen: list[list[bool]]  # seen[i][j]: players ranked i and j met before
    apart: set[tuple[int, int]]  # (i, j), i < j: never at one table
    tie: list[list[int]]  # tie[i][t]: the seed's number of player i at table t

    @property
    def starts(self) -> list[int]:
        return [sum(self.sizes[:t]) for t in range(len(self.sizes))]


def _groups(sizes: Sequence[int]) -> list[list[int]]:
    out, start = [], 0
    for size in sizes:
        out.append(list(range(start, start + size)))
        start += size
    return out


def _pairs_of(groups: Iterable[Sequence[int]]) -> set[tuple[int, int]]:
    return {(i, j) for g in groups for i, j in itertools.combinations(sorted(g), 2)}


def _ties(keys: Sequence[str], seed: int, round_: int, tables: int) -> list[list[int]]:
    """The seed's number of each player at each table: 16 bits of a keyed hash."""
    return [
        [int.from_bytes(seed_key(seed, "tie", round_, t + 1, k)[:2], "big") for t in range(tables)]
        for k in keys
    ]


def _block_distance(block: Sequence[int], start: int) -> int:
    return sum(abs(start + j - r) for j, r in enumerate(sorted(block)))


# --- every seating (small fields) -------------------------------------------------------------


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


def _exhaustive(p: _Problem) -> list[list[int]]:
    """Every partition into the plan's blocks and every order of the blocks of one size:
    the least (repeats, distance, the seed's sum)."""
    starts = p.starts
    slots: dict[int, list[int]] = {}
    for t, size in enumerate(p.sizes):
        slots.setdefault(size, []).append(t)
    best: tuple[int, int, int] | None = None
    pick: list[list[int]] = []
    for blocks in _partitions(list(range(p.n)), list(p.sizes)):
        if p.apart and any(pair in p.apart for pair in _pairs_of(blocks)):
            continue
        repeats = sum(p.seen[i][j] for block in blocks for i, j in itertools.combinations(block, 2))
        if best is not None and repeats > best[0]:
            continue
        by_size: dict[int, list[tuple[int, ...]]] = {}
        for block in blocks:
            by_size.setdefault(len(block), []).append(block)
        # each size's blocks in every order over that size's tables
        choices = []
        for size, tables in slots.items():
            options = []
            for order in itertools.permutations(by_size[size]):
                d = h = 0
                for block, t in zip(order, tables, strict=True):
                    d += _block_distance(block, starts[t])
                    h += sum(p.tie[i][t] for i in block)
                options.append((d, h, order))
            choices.append((tables, options))
        for combo in itertools.product(*(options for _tables, options in choices)):
            rank = (repeats, sum(c[0] for c in combo), sum(c[1] for c in combo))
            if best is None or rank < best:
                best = rank
                placed: dict[int, list[int]] = {}
                for (tables, _options), (_d, _h, order) in zip(choices, combo, strict=True):
                    for t, block in zip(tables, order, strict=True):
                        placed[t] = list(block)
                pick = [placed[t] for t in range(len(p.sizes))]
    if best is None:
        raise _no_seating()
    return pick


def _no_seating() -> DealError:
    return DealError(_("the pairs kept apart (--forbid) leave no seating of the round"))


# --- the solver (larger fields) ---------------------------------------------------------------


def _solve(p: _Problem, seed: int, limit: float) -> tuple[list[list[int]], bool, bool, bool]:
    """The seating by CP-SAT, in stages; returns the tables' players and whether the repeats,
    then the distance too, then the seed's choice too were proved within ``limit`` seconds.

    The model: ``x[i][t]`` player i sits at table t; ``z[i][t]`` he sits at a table before t.
    The distance of a seating is ``2 Σ_k |{i > k : i is read at or before place k}|`` (each
    cut between two places counts the players read on the wrong side of it); with the
    players of a table read in ranking order, the players read at or before a place k inside
    table t are those at the tables before t and the first ``o`` of table t, so each cut's
    count is ``start(t) − |{i ≤ k at a table before t}| + max(0, o − |{i ≤ k at t}|)``:
    linear in x and z, with one small integer per cut."""
    from ortools.sat.python import cp_model

    n, sizes, tables = p.n, p.sizes, range(len(p.sizes))
    starts = p.starts
    slot = [t for t, size in enumerate(sizes) for _ in range(size)]
    m = cp_model.CpModel()
    x = [[m.new_bool_var(f"x{i}_{t}") for t in tables] for i in range(n)]
    for i in range(n):
        m.add_exactly_one(x[i])
    for t in tables:
        m.add(sum(x[i][t] for i in range(n)) == sizes[t])
    for i, j in p.apart:
        for t in tables:
            m.add_bool_or([x[i][t].Not(), x[j][t].Not()])
    z = [[m.new_bool_var(f"z{i}_{t}") for t in tables] for i in range(n)]
    for i in range(n):
        m.add(z[i][0] == 0)
        for t in tables[1:]:
            m.add(z[i][t] == z[i][t - 1] + x[i][t - 1])
    cuts = []
    constant = 0
    for k in range(n - 1):
        t = slot[k]
        o = k - starts[t] + 1
        constant += starts[t]
        if t > 0:
            cuts.append(-sum(z[i][t] for i in range(k + 1)))
        e = m.new_int_var(0, o, f"e{k}")
        m.add(e >= o - sum(x[i][t] for i in range(k + 1)))
        cuts.append(e)
    dist = 2 * (constant + sum(cuts))
    repeats = []
    for i, j in itertools.combinations(range(n), 2):
        if p.seen[i][j]:
            y = m.new_bool_var(f"y{i}_{j}")
            for t in tables:
                m.add_bool_or([x[i][t].Not(), x[j][t].Not(), y])
            repeats.append(y)
    tie = sum(p.tie[i][t] * x[i][t] for i in range(n) for t in tables)
    own = [[int(slot[i] == t) for t in tables] for i in range(n)]
    for i in range(n):  # start from the ranking's own groups
        for t in tables:
            m.add_hint(x[i][t], own[i][t])
    solver = _solver(seed)
    proofs = [] if repeats else [True]  # no pair met before: none can meet again
    seated: list[list[int]] | None = None
    if not p.apart or p.apart.isdisjoint(_pairs_of(_groups(sizes))):
        seated = own  # a seating already, should the clock stop the solver before any other
    started = time.monotonic()
    stages = ([(sum(repeats), 0.5)] if repeats else []) + [(dist, 0.9), (tie, 1.0)]
    for k, (objective, share) in enumerate(stages):
        # each stage may spend up to its share of the whole limit, less what went before
        m.minimize(objective)
        left = share * limit - (time.monotonic() - started)
        if objective is tie:
            # the seed's stage is given a fixed amount of the solver's own work (the same on
            # every computer), so whether it is proved, and so the seating, never depends on
            # the computer's speed; the clock only guards a much slower one
            solver.parameters.max_deterministic_time = TIE_WORK
            left = max(left, 0.2 * limit)
        solver.parameters.max_time_in_seconds = max(left, 0.05 * limit)
        status = solver.solve(m)
        if status == cp_model.INFEASIBLE:
            raise _no_seating()
        proved = status == cp_model.OPTIMAL
        if objective is tie and not proved:
            # the seed's choice cut short by the clock would depend on the computer: the
            # seating of the stage before stays (the solver's first optimum: the same for
            # the same folder and the same solver)
            proofs.append(False)
            break
        if status != cp_model.FEASIBLE and not proved:
            break  # out of time before any better seating: keep the last one found
        proofs.append(proved)
        value = round(solver.objective_value)
        seated = [[solver.value(x[i][t]) for t in tables] for i in range(n)]
        if k + 1 < len(stages):
            m.clear_hints()  # type: ignore[no-untyped-call]
            for i in range(n):
                for t in tables:
                    m.add_hint(x[i][t], seated[i][t])
            m.add(objective == value if proved else objective <= value)
    if seated is None:
        raise DealError(
            _(
                "the solver found no seating in {seconds} s: give it more time (--time-limit)"
            ).format(seconds=_seconds(limit))
        )
    groups = [[i for i in range(n) if seated[i][t]] for t in tables]
    proofs += [False] * (3 - len(proofs))  # (a stage that found nothing better proved nothing)
    return groups, proofs[0], proofs[0] and proofs[1], all(proofs)


def _solver(seed: int) -> Any:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed % 2**31
    # finding the model's symmetries takes seconds on a large field and helps it little
    solver.parameters.symmetry_level = 0
    return solver


def _seconds(limit: float) -> str:
    return f"{limit:g}"
