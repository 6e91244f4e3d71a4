"""Issue 13: inside a ``prefcalc play`` session, recording a deal into a 500-deal game
costs at most 0.2 × one ``prefcalc --version`` process.

The session is the real one: ``prefcalc play --file`` started as a process reading lines
from a pipe. A sample is the time from writing a deal's line to reading the last line of
its answer (the compact sheet's row of the last player); every deal is written to the
ledger (atomic, locked) before it is answered. The floor is the median wall time of
``prefcalc --version``.
"""

from __future__ import annotations

import compileall
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run import Figure, median_process
from support import random_game

import prefcalc
from prefcalc.store.ledger import game_to_json_text

EXE = Path(sys.executable).with_name("prefcalc")
DEALS = ("game Anna 7h 7 Boris:w Vera:p", "game Boris 6s 6 Vera:w Anna:p")  # never the same twice


def _command() -> list[str]:
    return [str(EXE)] if EXE.exists() else [sys.executable, "-m", "prefcalc"]


def play_500() -> tuple[float, float, str]:
    compileall.compile_dir(str(Path(prefcalc.__file__).parent), quiet=1)
    game = random_game(3, 500, 3, "sochi", target=10**6, adjustments=False)
    with tempfile.TemporaryDirectory() as tmp:
        ledger = Path(tmp) / "game.json"
        ledger.write_text(game_to_json_text(game), encoding="utf-8")
        proc = subprocess.Popen(
            [*_command(), "play", "--file", str(ledger)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        assert proc.stdin is not None and proc.stdout is not None
        samples = []
        for k in range(41):
            start = time.perf_counter()
            proc.stdin.write(DEALS[k % 2] + "\n")
            proc.stdin.flush()
            while True:
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError("the session ended")
                if line.startswith("Vera "):  # the compact sheet's last row: answered
                    break
            if k:  # the first line warms the session up (the ledger is read once)
                samples.append(time.perf_counter() - start)
        proc.stdin.close()
        proc.wait(timeout=60)
        assert len(prefcalc.load(ledger).entries) == 541
    floor = median_process([*_command(), "--version"], repeat=21)
    return (
        statistics.median(samples),
        floor,
        "prefcalc --version as a process (median of 21); ours: median of 40 deals",
    )


FIGURES: list[Figure] = [("play: record a deal into a 500-deal game (session)", 0.2, play_500)]
