"""Issue 35: the Swiss draw solved exactly, on fields of 17, 33, 65 and 101 players, rounds 2
to 7 of a simulated event: round 1 drawn from the seed, every later round drawn by the draw
itself from the standings after random table results (each table's results add up to zero,
as whists do). Each draw is timed and said proved optimal or not; the table is printed.

``python tests/benchmarks/bench_draw.py`` prints the table alone; ``run.py draw`` prints it
and the figure: the draws' total time against their time limits (ceiling 1: no draw may run
past its limit by more than the solver's last step).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import Figure

from prefcalc.tournament.draw import TIME_LIMIT, arrange, met_pairs, random_order

FIELDS = (17, 33, 65, 101)
ROUNDS = range(2, 8)
SEED = 35


def simulate(n: int) -> list[tuple[int, int, int, int, bool, bool, float]]:
    """One event of ``n`` players: (players, round, repeats, distance, repeats proved, proved,
    seconds) for rounds 2 to 7."""
    rng = random.Random(n)
    names = [f"Player{k:03d}" for k in range(n)]
    points = dict.fromkeys(names, 0)
    rounds = [arrange(random_order(names, SEED), set(), SEED, 1).tables]
    out = []
    for r in ROUNDS:
        for table in rounds[-1]:
            results = [rng.randint(-100, 100) for _ in table[1:]]
            results.append(-sum(results))
            for name, result in zip(table, results, strict=True):
                points[name] += result
        ranking = sorted(names, key=lambda p: (-points[p], p))
        met = met_pairs(rounds)
        start = time.perf_counter()
        seating = arrange(ranking, met, SEED, r)
        seconds = time.perf_counter() - start
        out.append(
            (
                n,
                r,
                seating.repeats,
                seating.distance,
                seating.proved_repeats,
                seating.proved,
                seconds,
            )
        )
        rounds.append(seating.tables)
    return out


def table() -> tuple[list[str], float]:
    """The printed table and the draws' total seconds."""
    lines = [
        f"{'players':>7} {'round':>5} {'repeats':>7} {'distance':>8} {'proved':>14} {'seconds':>8}"
    ]
    total = 0.0
    for n in FIELDS:
        for players, r, repeats, distance, proved_repeats, proved, seconds in simulate(n):
            total += seconds
            said = "optimal" if proved else ("repeats only" if proved_repeats else "no")
            lines.append(
                f"{players:>7} {r:>5} {repeats:>7} {distance:>8} {said:>14} {seconds:>8.2f}"
            )
    return lines, total


def draws() -> tuple[float, float, str]:
    lines, total = table()
    print("\n".join(lines))
    count = len(FIELDS) * len(ROUNDS)
    return total, count * TIME_LIMIT, f"the {count} draws' time limits ({TIME_LIMIT:g} s each)"


FIGURES: list[Figure] = [
    ("draw solved: 17-101 players, rounds 2-7", 1.0, draws),
]


if __name__ == "__main__":
    print("\n".join(table()[0]))
