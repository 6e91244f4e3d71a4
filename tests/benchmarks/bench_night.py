"""Issues 24 and 32: a night recorded through the API in process grows linearly with its length.

Recording is what ``play`` and ``serve`` do for every line: :func:`prefcalc.record` of the
line's text into the game the previous call returned (parse, judge, score). A 1,000-deal
night must cost at most 1.3 × ten 100-deal nights (the first hundred of the same deals): the
thousandth deal costs what the tenth did. Two nights: all-pass deals only (the streak grows
without end), and a mixed one (contracts, misères, all-passes and adjustments of the
property tests' random records). Issue 32 asks the same of a 3,000-deal mixed night against
ten 300-deal ones.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable
from functools import cache

from run import Figure
from support import random_game

import prefcalc
from prefcalc.rules.model import Game
from prefcalc.rules.notation import describe

DEALS = 1_000
SHORT = 100
PLAYERS = ("Anna", "Boris", "Vera")


def _start() -> Game:
    return prefcalc.new_game(PLAYERS, "sochi", target=10**6)


@cache
def _lines(kind: str, deals: int = DEALS) -> tuple[str, ...]:
    """The night's lines in the table's shorthand."""
    if kind == "passes":
        rng = random.Random(24)
        out = []
        for _ in range(deals):
            a, b = sorted((rng.randint(0, 10), rng.randint(0, 10)))
            out.append(f"passes Anna={a} Boris={b - a} Vera={10 - b}")
        return tuple(out)
    game = random_game(24, deals, 3, "sochi", target=10**6)
    return tuple(describe(e.deal) for e in game.entries)


def _night(lines: tuple[str, ...]) -> Game:
    game = _start()
    for line in lines:
        game = prefcalc.record(game, line, time="2026-11-30T20:00:00+01:00")
    return game


def _figure(kind: str, deals: int = DEALS, short_deals: int = SHORT) -> tuple[float, float, str]:
    lines = _lines(kind, deals)
    assert len(lines) == deals
    assert len(_night(lines).entries) == deals  # every line is recorded
    short = lines[:short_deals]

    def ten() -> None:
        for _ in range(10):
            _night(short)

    ours, floor = _cpu_interleaved(lambda: _night(lines), ten, 7 if deals <= DEALS else 3)
    return (
        ours,
        floor,
        f"10 × a {short_deals}-deal night (its first {short_deals} lines); ours: the"
        f" {deals:,}-deal night, prefcalc.record of each line in process (process time, best"
        f" of {7 if deals <= DEALS else 3} each, interleaved)",
    )


def _cpu_interleaved(
    ours: Callable[[], object], floor: Callable[[], object], repeat: int
) -> tuple[float, float]:
    """Best process times of ``ours`` and ``floor`` run alternately (after one warm-up each):
    the CPU time this process spent, so that the other processes of a shared machine, which
    take the cores in turns, are not billed to either side."""
    ours()
    floor()
    mine: list[float] = []
    base: list[float] = []
    for _ in range(repeat):
        for fn, times in ((ours, mine), (floor, base)):
            gc.collect()
            start = time.process_time()
            fn()
            times.append(time.process_time() - start)
    return min(mine), min(base)


def passes_night() -> tuple[float, float, str]:
    return _figure("passes")


def mixed_night() -> tuple[float, float, str]:
    return _figure("mixed")


def long_night() -> tuple[float, float, str]:
    return _figure("mixed", 3_000, 300)


FIGURES: list[Figure] = [
    (f"a {DEALS:,}-deal all-pass night in process", 1.3, passes_night),
    (f"a {DEALS:,}-deal mixed night in process", 1.3, mixed_night),
    ("a 3,000-deal mixed night in process", 1.3, long_night),
]
