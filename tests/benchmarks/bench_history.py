"""Issue 14: ``prefcalc history`` over a club's 1,000 evenings of 60 deals each, against
loading and validating those ledgers once (``prefcalc.api.load`` each): with a cold cache
(none yet: every ledger validated, scored, settled and summarised, the cache written) and a
warm one (every ledger read and hashed, the summaries taken from the cache)."""

from __future__ import annotations

import atexit
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

from run import Figure
from support import random_game

from prefcalc import api
from prefcalc.history.club import collect, ledger_files
from prefcalc.store.ledger import game_to_json_text

EVENINGS = 1_000
DEALS = 60


@cache
def _club() -> Path:
    """A temporary data folder with 1,000 ledgers of 3 and 4 players, in several folders."""
    root = Path(tempfile.mkdtemp(prefix="prefcalc-club-"))
    atexit.register(shutil.rmtree, root, True)
    rng = random.Random(14)
    for k in range(EVENINGS):
        players = 3 if k % 3 else 4
        game = random_game(rng, DEALS, players, rng.choice(["sochi", "leningrad", "rostov"]))
        game = game._replace(
            created=f"20{20 + k // 200}-{1 + k % 12:02d}-{1 + k % 28:02d}T19:00:00+01:00"
        )
        folder = root / "data" / "prefcalc" / "games" / f"season-{k // 200}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"evening-{k:04d}.json").write_text(game_to_json_text(game), encoding="utf-8")
    os.environ["XDG_DATA_HOME"] = str(root / "data")
    return root


def _time(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def _floor(files: list[Path]) -> float:
    return min(_time(lambda: [api.load(f) for f in files]) for _ in range(3))


def _cache_file(root: Path) -> Path:
    return root / "data" / "prefcalc" / "history-cache.sqlite3"


def cold() -> tuple[float, float, str]:
    root = _club()
    files, _ = ledger_files([root / "data" / "prefcalc" / "games"])
    assert len(files) == EVENINGS
    floor = _floor(files)
    times = []
    for _ in range(3):
        _cache_file(root).unlink(missing_ok=True)
        times.append(_time(collect))
    return (
        min(times),
        floor,
        f"api.load of the {EVENINGS:,} ledgers ({DEALS} deals each), best of 3",
    )


def warm() -> tuple[float, float, str]:
    root = _club()
    files, _ = ledger_files([root / "data" / "prefcalc" / "games"])
    floor = _floor(files)
    collect()  # fills the cache
    ours = min(_time(collect) for _ in range(5))
    history = collect()
    assert len(history.games) == EVENINGS, len(history.games)
    return (
        ours,
        floor,
        f"api.load of the {EVENINGS:,} ledgers; ours = history, cache filled (best of 5)",
    )


FIGURES: list[Figure] = [
    (f"history of {EVENINGS:,} evenings, cold cache", 3.0, cold),
    (f"history of {EVENINGS:,} evenings, warm cache", 3.0, warm),
]
