"""prefcalc benchmarks (not collected by pytest): ``python tests/benchmarks/run.py [NAME...]``.

Every figure is printed as a ratio against a floor measured in the same run on the same
machine, next to the ceiling the issue sets, so the numbers mean the same on any machine.
Each ``bench_*.py`` module in this folder defines ``FIGURES``: a list of
``(name, ceiling, function)`` where ``function()`` returns ``(ours_seconds, floor_seconds,
what_the_floor_is)``.
"""

from __future__ import annotations

import gc
import importlib
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

Figure = tuple[str, float, Callable[[], tuple[float, float, str]]]


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    """The fastest of ``repeat`` runs of ``fn`` (seconds): the least disturbed measurement."""
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def interleaved(
    ours: Callable[[], object], floor: Callable[[], object], repeat: int
) -> tuple[float, float]:
    """Best times of ``ours`` and ``floor`` run alternately (after one warm-up each), so that
    both see the same machine state."""
    ours()
    floor()
    mine: list[float] = []
    base: list[float] = []
    for _ in range(repeat):
        for fn, times in ((ours, mine), (floor, base)):
            gc.collect()  # both start from the same heap: the last run's garbage is not billed
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return min(mine), min(base)


def median_process(command: list[str], repeat: int = 15, **kwargs: object) -> float:
    """The median wall time of running ``command`` as a process (seconds)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, **kwargs)  # type: ignore[call-overload]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str]) -> int:
    figures: list[Figure] = []
    for module_path in sorted(HERE.glob("bench_*.py")):
        module = importlib.import_module(module_path.stem)
        figures.extend(module.FIGURES)
    wanted = [f for f in figures if not argv or any(a in f[0] for a in argv)]
    failed = 0
    print(f"{'figure':<52} {'ours':>9} {'floor':>9} {'ratio':>7} {'ceiling':>8}")
    for name, ceiling, fn in wanted:
        ours, floor, what = fn()
        ratio = ours / floor
        verdict = "ok" if ratio <= ceiling else "OVER"
        failed += verdict != "ok"
        print(
            f"{name:<52} {ours * 1000:8.1f}ms {floor * 1000:8.1f}ms {ratio:6.2f}x {ceiling:6.2f}x  {verdict}"
        )
        print(f"    floor: {what}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
