"""``prefcalc serve``: how long a phone waits for a deal to be recorded, and for the watchers
to hear of a change.

Issue 24 sets the POST figures: ``POST /api/lines`` into a 500-deal game at most 15 ms
(median, on a kept-alive connection, as a phone's browser keeps it), and at most 1.3× the same
POST into a 5-deal game (the cost of a write does not grow with the night). Issue 21 set the
watcher's: a change made outside the server reaches a watcher within 1 s. Issue 25 asks for
the tap-to-watchers repaint: from the Record tap on the score page to the next frame of a
second phone showing the watch page with the new deal (chromium, both pages at a phone's
viewport; needs PREFCALC_CHROMIUM or chromium on the PATH, else the figure is skipped).

The servers are the real ones: ``prefcalc serve --host 127.0.0.1 --port 0`` started as
processes; each line posted is a deal written to the ledger (atomic, locked) before it is
answered. The 500-deal and 5-deal servers run side by side and take their lines in turn, so
both see the same machine. An absolute ceiling is its own floor (a ratio at most 1.0 meets it).

Run alone: ``python tests/benchmarks/bench_serve.py`` (prints every figure, and the medians on
a kept-alive connection beside those on a new connection per request).
"""

from __future__ import annotations

import os
import queue
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from run import Figure
from support import random_game

from prefcalc import api
from prefcalc.store.ledger import game_to_json_text

EXE = Path(sys.executable).with_name("prefcalc")
DEALS = ("game Anna 7h 7 Boris:w Vera:p", "game Boris 6s 6 Vera:w Anna:p")  # never the same twice
TOKEN = "bench-token-0123456789"
HEADERS = {"Authorization": f"Bearer {TOKEN}"}
SAMPLES = 40
BROWSER = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
"""A browser sends with TCP_NODELAY (Chromium does on every socket): so does the client here,
so that only the server's side of Nagle's algorithm is measured."""


def _command() -> list[str]:
    return [str(EXE)] if EXE.exists() else [sys.executable, "-m", "prefcalc"]


class Served:
    def __init__(self, ledger: Path) -> None:
        env = {**os.environ, "XDG_DATA_HOME": str(ledger.parent / "data")}  # the kept token
        self.proc = subprocess.Popen(
            [
                *_command(),
                "serve",
                "-f",
                str(ledger),
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--token",
                TOKEN,
            ],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert self.proc.stdout is not None
        port = 0
        for line in self.proc.stdout:
            found = re.search(r"127\.0\.0\.1:(\d+)", line)
            port = int(found.group(1)) if found and not port else port
            if line.startswith("Ctrl-C"):
                break
        self.url = f"http://127.0.0.1:{port}"

    def rss_kb(self) -> int:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        found = re.search(r"VmRSS:\s+(\d+)", status)
        return int(found.group(1)) if found else 0

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)


def _ledger(folder: Path, deals: int) -> Path:
    game = random_game(3, deals, 3, "sochi", target=10**6, adjustments=False)
    folder.mkdir(parents=True, exist_ok=True)
    ledger = folder / "game.json"
    ledger.write_text(game_to_json_text(game), encoding="utf-8")
    return ledger


def _post(client: httpx.Client, k: int, new_connection: bool) -> float:
    headers = {**HEADERS, "Connection": "close"} if new_connection else HEADERS
    body = {"line": DEALS[k % 2], "id": secrets.token_hex(9)}  # as the score page sends it
    start = time.perf_counter()
    r = client.post("/api/lines", json=body, headers=headers)
    elapsed = time.perf_counter() - start
    assert r.status_code == 200, r.text
    return elapsed


def _client(url: str) -> httpx.Client:
    return httpx.Client(
        base_url=url, timeout=30, transport=httpx.HTTPTransport(socket_options=BROWSER)
    )


def post_medians(sizes: tuple[int, ...], new_connection: bool = False) -> list[float]:
    """The median time of a POST into a game of each size, the servers taking turns; on one
    kept-alive connection per server, or on a new connection for every request."""
    with tempfile.TemporaryDirectory() as tmp:
        ledgers = [_ledger(Path(tmp) / str(n), n) for n in sizes]
        served = [Served(ledger) for ledger in ledgers]
        clients = [_client(s.url) for s in served]
        samples: list[list[float]] = [[] for _ in sizes]
        try:
            for k in range(SAMPLES + 1):
                for client, times in zip(clients, samples, strict=True):
                    elapsed = _post(client, k, new_connection)
                    if k:  # the first line warms each server up (the ledger is read once)
                        times.append(elapsed)
        finally:
            for client in clients:
                client.close()
            for s in served:
                s.stop()
        for ledger, n in zip(ledgers, sizes, strict=True):
            assert len(api.load(ledger).entries) == n + SAMPLES + 1
    return [statistics.median(times) for times in samples]


def kept_and_new(deals: int) -> tuple[float, float]:
    """The median POST into a game of ``deals`` deals on a kept-alive connection and on a new
    connection per request, the two taking turns on the same server."""
    with tempfile.TemporaryDirectory() as tmp:
        ledger = _ledger(Path(tmp), deals)
        served = Served(ledger)
        kept: list[float] = []
        new: list[float] = []
        try:
            with _client(served.url) as alive, _client(served.url) as fresh:
                for k in range(SAMPLES + 1):
                    kept_time = _post(alive, 2 * k, new_connection=False)
                    new_time = _post(fresh, 2 * k + 1, new_connection=True)
                    if k:  # the first pair warms the server up
                        kept.append(kept_time)
                        new.append(new_time)
        finally:
            served.stop()
    return statistics.median(kept), statistics.median(new)


def post_500() -> tuple[float, float, str]:
    (ours,) = post_medians((500,))
    return ours, 0.015, f"the issue's ceiling, 15 ms (ours: median of {SAMPLES}, kept alive)"


def post_500_vs_5() -> tuple[float, float, str]:
    big, small = post_medians((500, 5))
    return big, small, f"the same POST into a 5-deal game (medians of {SAMPLES}, kept alive)"


def watcher_latency() -> tuple[float, float, str]:
    """The time from a write outside the server (api.update in this process, as the CLI
    does it) to the event arriving on a watcher's stream (worst of 5)."""
    with tempfile.TemporaryDirectory() as tmp:
        ledger = _ledger(Path(tmp), 500)
        served = Served(ledger)
        arrived: queue.Queue[float] = queue.Queue()
        stop = threading.Event()

        def listen() -> None:
            with (
                httpx.Client(base_url=served.url, timeout=None) as client,
                client.stream("GET", "/api/events") as r,
            ):
                for line in r.iter_lines():  # the stream ends when the server stops
                    if line.startswith("data: {"):
                        arrived.put(time.perf_counter())
                    if stop.is_set():
                        return

        thread = threading.Thread(target=listen, daemon=True)
        thread.start()
        try:
            arrived.get(timeout=30)  # the greeting
            waits = []
            for k in range(5):
                start = time.perf_counter()
                api.update(ledger, lambda g, k=k: api.record(g, DEALS[k % 2].split()))
                waits.append(arrived.get(timeout=30) - start)
        finally:
            stop.set()
            served.stop()
    return max(waits), 1.0, "the issue's ceiling, 1 s (ours: the worst of 5 writes)"


def fifty_watchers() -> tuple[int, int]:
    """The server's resident memory (KB) before and with 50 event streams open."""
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(_ledger(Path(tmp), 500))
        try:
            with httpx.Client(
                base_url=served.url, timeout=30, limits=httpx.Limits(max_connections=60)
            ) as client:
                client.get("/api/game")
                before = served.rss_kb()
                streams = [
                    client.send(client.build_request("GET", "/api/events"), stream=True)
                    for _ in range(50)
                ]
                for s in streams:
                    next(s.iter_lines())  # each one is connected and greeted
                assert client.get("/api/game").status_code == 200  # still serving
                during = served.rss_kb()
                for s in streams:
                    s.close()
        finally:
            served.stop()
    return before, during


REPAINTS = 20
TAPS = ("declarer:Anna", "contract:7h", "tricks:7", "role:Vera:w")  # then Record, timed

_SEEN = """() => {
  window.__seen = {};
  new MutationObserver(() => {
    const n = document.body.dataset.deals;
    if (n && !(n in window.__seen)) {
      requestAnimationFrame(() => { window.__seen[n] = performance.timeOrigin + performance.now(); });
    }
  }).observe(document.body, { attributes: true, attributeFilter: ["data-deals"] });
}"""
_TAP = """() => {
  const t = performance.timeOrigin + performance.now();
  document.querySelector("[data-testid='record']").click();
  return t;
}"""


def _chromium() -> str | None:
    given = os.environ.get("PREFCALC_CHROMIUM")
    return given if given and Path(given).exists() else shutil.which("chromium")


def repaint() -> tuple[float, float, str]:
    """The median time from a Record tap on the score page to the next frame of a watcher's
    page showing the new deal (the watch page repainted: its sheet, last deal, settlement)."""
    from playwright.sync_api import sync_playwright

    executable = _chromium()
    if executable is None:
        raise RuntimeError("no chromium: set PREFCALC_CHROMIUM")
    phone = {"width": 390, "height": 844}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ledger = folder / "game.json"
        game = api.new_game(["Anna", "Boris", "Vera"], "sochi", 10**6)
        ledger.write_text(game_to_json_text(game), encoding="utf-8")
        served = Served(ledger)
        waits: list[float] = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=executable, args=["--headless", "--no-sandbox"]
                )
                scorer = browser.new_context(viewport=phone, is_mobile=True).new_page()
                watcher = browser.new_context(viewport=phone, is_mobile=True).new_page()
                watcher.goto(served.url + "/")
                scorer.goto(served.url + "/score#token=" + TOKEN)
                for page in (watcher, scorer):
                    page.wait_for_selector("[data-testid=status][data-state=live]")
                watcher.evaluate(_SEEN)
                for k in range(1, REPAINTS + 2):
                    for testid in TAPS:
                        scorer.get_by_test_id(testid).click()
                    tapped = scorer.evaluate(_TAP)
                    watcher.wait_for_function(f"() => '{k}' in window.__seen", timeout=30_000)
                    seen = watcher.evaluate(f"() => window.__seen['{k}']")
                    scorer.wait_for_selector(f"body[data-deals='{k}'][data-busy='false']")
                    if k > 1:  # the first warms the server and the pages up
                        waits.append((seen - tapped) / 1000)
                browser.close()
        finally:
            served.stop()
    return statistics.median(waits), 1.0, f"issue 21's 1 s for a watcher (median of {REPAINTS})"


FIGURES: list[Figure] = [
    ("serve: POST /api/lines into a 500-deal game", 1.0, post_500),
    ("serve: POST at 500 deals vs at 5 deals", 1.3, post_500_vs_5),
    ("serve: a watcher sees an outside write", 1.0, watcher_latency),
    ("serve: a tap on the score page repaints a watcher's page", 1.0, repaint),
]


if __name__ == "__main__":
    for name, ceiling, fn in FIGURES:
        ours, floor, what = fn()
        print(
            f"{name}: {ours * 1000:.1f} ms vs {floor * 1000:.1f} ms = {ours / floor:.2f}x"
            f" (ceiling {ceiling:.2f}x; floor: {what})"
        )
    for n in (500, 5):
        kept, new = kept_and_new(n)
        print(
            f"serve: POST into a {n}-deal game, median of {SAMPLES}:"
            f" {kept * 1000:.1f} ms kept alive, {new * 1000:.1f} ms on a new connection"
        )
    before, during = fifty_watchers()
    print(f"serve: 50 watchers connected: server RSS {before} KB before, {during} KB with them")
