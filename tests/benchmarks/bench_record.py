"""Issues 4 and 10: recording one deal into a game of 500 deals, end to end as a process,
against a process on the named stack, ``python -c "import typer; from pydantic import
BaseModel"`` (plain ``import pydantic`` is lazy and loads nothing)."""

from __future__ import annotations

import compileall
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run import Figure
from support import random_game

import prefcalc
from prefcalc.api import save

EXE = Path(sys.executable).with_name("prefcalc")
FLOOR = "import typer; from pydantic import BaseModel"


def _median(samples: list[float]) -> float:
    samples = sorted(samples)
    return samples[len(samples) // 2]


def record_500() -> tuple[float, float, str]:
    # pip compiles an installed package's bytecode; an editable install (or a machine with
    # PYTHONDONTWRITEBYTECODE=1, like the development sandbox) would otherwise recompile
    # prefcalc from source on every call (~30 ms) while the floor's typer has its bytecode.
    compileall.compile_dir(str(Path(prefcalc.__file__).parent), quiet=1)
    game = random_game(3, 500, 3, "sochi", target=10**6, adjustments=False)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base.json"
        save(game, base)  # as prefcalc writes it: the next command trusts what it wrote
        ledger = Path(tmp) / "game.json"
        deal = ["game", "Anna", "7h", "7", "Boris:w", "Vera:p", "--file", str(ledger)]
        floor_cmd = [sys.executable, "-c", FLOOR]
        ours, floor = [], []
        for _ in range(21):  # interleaved, so both see the same machine state
            shutil.copy(base, ledger)
            start = time.perf_counter()
            subprocess.run([str(EXE), *deal], check=True, capture_output=True)
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run(floor_cmd, check=True, capture_output=True)
            floor.append(time.perf_counter() - start)
    return (
        _median(ours),
        _median(floor),
        f'python -c "{FLOOR}" (median of 21, interleaved)',
    )


FIGURES: list[Figure] = [("record a deal into a 500-deal game (process)", 1.5, record_500)]
