"""``prefcalc serve --tournament``: the tap-to-hall repaint (issue 28). From the Record tap on a
table's score page to the next frame of a second phone showing the hall's page with the new
deal in its standings (chromium, both at 390x844; needs PREFCALC_CHROMIUM or chromium on the
PATH). The server is the real one, ``prefcalc serve --tournament DIR --host 127.0.0.1 --port 0``
as a process, over a 7-player tournament (a table of 4 and one of 3). The floor is issue 21's
1 s for a watcher, as for serve's own repaint.

Run alone: ``python tests/benchmarks/bench_hall.py``.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

from bench_serve import _SEEN, _TAP, _chromium, _command
from run import Figure

from prefcalc import api
from prefcalc.rules.model import active_players
from prefcalc.tournament import api as tournament

REPAINTS = 20
PLAYERS = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"]


def hall_repaint() -> tuple[float, float, str]:
    from playwright.sync_api import sync_playwright

    executable = _chromium()
    if executable is None:
        raise RuntimeError("no chromium: set PREFCALC_CHROMIUM")
    phone = {"width": 390, "height": 844}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "cup"
        tournament.new(folder, PLAYERS, rounds=1, deals=REPAINTS + 4, convention="sochi", seed=7)
        tournament.draw(folder)
        env = {**os.environ, "XDG_DATA_HOME": str(Path(tmp) / "data")}
        proc = subprocess.Popen(
            [
                *_command(),
                "serve",
                "--tournament",
                str(folder),
                "--host",
                "127.0.0.1",
                "--port",
                "0",
            ],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None
        hall = score = ""
        for line in proc.stdout:
            found = re.search(r"(http://127\.0\.0\.1:\d+/\S*)", line)
            if found and line.startswith("the hall"):
                hall = found.group(1)
            if found and "table 1, score" in line:
                score = found.group(1)
            if line.startswith("Ctrl-C"):
                break
        waits: list[float] = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=executable, args=["--headless", "--no-sandbox"]
                )
                scorer = browser.new_context(viewport=phone, is_mobile=True).new_page()
                watcher = browser.new_context(viewport=phone, is_mobile=True).new_page()
                watcher.goto(hall)
                scorer.goto(score)
                for page in (watcher, scorer):
                    page.wait_for_selector("[data-testid=status][data-state=live]")
                watcher.evaluate(_SEEN)
                ledger = folder / "r1-t1.json"
                for k in range(1, REPAINTS + 2):
                    game = api.load(ledger)
                    declarer, whister, _ = active_players(game, game.next_dealer)
                    for testid in (
                        f"declarer:{declarer}",
                        "contract:7h",
                        "tricks:7",
                        f"role:{whister}:w",
                    ):
                        scorer.get_by_test_id(testid).click()
                    tapped = scorer.evaluate(_TAP)
                    watcher.wait_for_function(f"() => '{k}' in window.__seen", timeout=30_000)
                    seen = watcher.evaluate(f"() => window.__seen['{k}']")
                    scorer.wait_for_selector(f"body[data-deals='{k}'][data-busy='false']")
                    if k > 1:
                        waits.append((seen - tapped) / 1000)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return statistics.median(waits), 1.0, f"issue 21's 1 s for a watcher (median of {REPAINTS})"


FIGURES: list[Figure] = [
    ("serve --tournament: a tap at a table repaints the hall's standings", 1.0, hall_repaint),
]


if __name__ == "__main__":
    for name, ceiling, fn in FIGURES:
        ours, floor, what = fn()
        print(
            f"{name}: {ours * 1000:.1f} ms vs {floor * 1000:.1f} ms = {ours / floor:.2f}x"
            f" (ceiling {ceiling:.2f}x; floor: {what})"
        )
