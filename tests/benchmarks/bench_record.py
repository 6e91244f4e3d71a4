"""Issues 4, 10 and 24: recording one deal, end to end as a process.

* into a game of 500 deals, against a process on the named stack, ``python -c "import
  typer; from pydantic import BaseModel"`` (plain ``import pydantic`` is lazy and loads
  nothing);
* into a game of 10,000 deals, against recording into a game of 10 (the cost of a command
  must not grow with the night).

Whole processes, the CPU time of each child (user + system, from ``os.wait4``), median of 15
pairs run alternately so both sides see the same machine; the wall-clock medians are printed
beside. The games are written by prefcalc first, in a data directory of their own, so every
command trusts what it reads (as after any command at the table).
"""

from __future__ import annotations

import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from run import Figure
from support import random_game

import prefcalc
from prefcalc.store import checkpoint

EXE = Path(sys.executable).with_name("prefcalc")
FLOOR = "import typer; from pydantic import BaseModel"
PAIRS = 15
DEAL = ["game", "Anna", "7h", "7", "Boris:w", "Vera:p"]


def _child(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run ``command`` to its end: (CPU seconds of the child, wall seconds)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env=env,
    )  # fmt: skip
    assert proc.stderr is not None
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode != 0:
        raise RuntimeError(f"{command} failed ({proc.returncode}): {err.decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime, wall


def _pairs(
    ours: Callable[[], tuple[float, float]], floor: Callable[[], tuple[float, float]]
) -> tuple[float, float, str]:
    """Medians of CPU time over :data:`PAIRS` alternate runs (after one warm-up each), with
    the wall-clock medians for the note."""
    ours()
    floor()
    mine: list[tuple[float, float]] = []
    base: list[tuple[float, float]] = []
    for _ in range(PAIRS):
        mine.append(ours())
        base.append(floor())
    cpu = statistics.median(c for c, _ in mine), statistics.median(c for c, _ in base)
    wall = statistics.median(w for _, w in mine), statistics.median(w for _, w in base)
    note = (
        f"cpu median of {PAIRS} pairs, interleaved; wall medians {wall[0] * 1000:.1f}ms / "
        f"{wall[1] * 1000:.1f}ms ({wall[0] / wall[1]:.2f}x)"
    )
    return cpu[0], cpu[1], note


def _prepared(tmp: Path, deals: int) -> Path:
    """A game of ``deals`` deals as a command at the table leaves it: written by prefcalc
    (so that the next command trusts it), its last deal recorded through the API (so that
    the state after it is kept as the ledger's checkpoint)."""
    from prefcalc import api

    game = random_game(3, deals, 3, "sochi", target=10**6, adjustments=False)
    base = tmp / f"base-{deals}.json"
    api.save(game._replace(entries=game.entries[:-1]), base)
    api.update(base, lambda g: api.redo(g, game.entries[-1]))
    shutil.copy(checkpoint.path(), _kept(base))
    return base


def _kept(base: Path) -> Path:
    """Where the checkpoints file is kept as ``base`` left it."""
    return base.with_name(f"{base.name}.checkpoints")


def _recording(base: Path, env: dict[str, str]) -> Callable[[], tuple[float, float]]:
    ledger = base.with_name(f"game-{base.name}")

    def run() -> tuple[float, float]:
        shutil.copy(base, ledger)
        # as the last command left it: every run records into the same game (a run's own
        # checkpoint would otherwise push the base's out after checkpoint.KEEP runs)
        shutil.copy(_kept(base), checkpoint.path())
        return _child([str(EXE), *DEAL, "--file", str(ledger)], env)

    return run


def _environment(tmp: Path) -> dict[str, str]:
    # pip compiles an installed package's bytecode; an editable install (or a machine with
    # PYTHONDONTWRITEBYTECODE=1, like the development sandbox) would otherwise recompile
    # prefcalc from source on every call (~30 ms) while the floor's typer has its bytecode.
    compileall.compile_dir(str(Path(prefcalc.__file__).parent), quiet=1)
    data = tmp / "data"
    os.environ["XDG_DATA_HOME"] = str(data)  # the games below are vouched for there
    env = {**os.environ, "XDG_DATA_HOME": str(data), "PREFCALC_LANG": "en"}
    env.pop("PREFCALC_FILE", None)
    return env


TYPER_ALONE = """
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)


@app.callback()
def root(lang: Annotated[str | None, typer.Option("--lang")] = None) -> None:
    pass


@app.command(context_settings={"ignore_unknown_options": True})
def game(
    words: Annotated[list[str], typer.Argument()],
    dark: bool = False,
    bomb: Annotated[int | None, typer.Option()] = None,
    dealer: Annotated[str | None, typer.Option()] = None,
    force: bool = False,
    file: Annotated[Path | None, typer.Option("--file")] = None,
) -> None:
    print(words, file)


app()
"""
"""What typer alone costs to run one command with options of ``prefcalc game``'s types
(typer 0.29 coerces every option through a pydantic TypeAdapter): printed beside the
figure, for scale."""


def record_500() -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        env = _environment(tmp)
        ours = _recording(_prepared(tmp, 500), env)
        floor_cmd = [sys.executable, "-c", FLOOR]
        cpu, floor, note = _pairs(ours, lambda: _child(floor_cmd, env))
        alone = tmp / "typer_alone.py"
        alone.write_text(TYPER_ALONE, encoding="utf-8")
        words = [sys.executable, str(alone), *DEAL, "--file", "g.json"]
        typer_cpu, typer_floor, _note = _pairs(
            lambda: _child(words, env), lambda: _child(floor_cmd, env)
        )
    scale = f"typer alone, one command of these option types: {typer_cpu / typer_floor:.2f}x"
    return cpu, floor, f'python -c "{FLOOR}" ({note}; {scale})'


def record_10000() -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        env = _environment(tmp)
        ours = _recording(_prepared(tmp, 10_000), env)
        small = _recording(_prepared(tmp, 10), env)
        cpu, floor, note = _pairs(ours, small)
    return cpu, floor, f"recording a deal into a 10-deal game ({note})"


FIGURES: list[Figure] = [
    ("record a deal into a 500-deal game (process)", 1.5, record_500),
    ("record into a 10,000-deal game vs a 10-deal one (process)", 1.2, record_10000),
]
