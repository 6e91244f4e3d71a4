"""Issue 27: the offline app in chromium (390×844), served by a plain static server on
loopback that counts what it sends.

- the bytes the first install moves (page, service worker and everything it keeps): the
  issue's ceiling is 12 MB;
- an offline cold start: a new browser process on the same profile (the app installed),
  no network, to the engine ready and the open game's sheet drawn;
- the start with the service worker's cache warm: a reload in the running browser;
- a deal recorded in the worker: from Enter in the line field to the page showing it, the
  ledger kept in the phone's storage on the way (median of 30), and the engine's own time.

The issue sets a ceiling for the bytes only; the times are held to targets of ours (the
"floor" printed is that target, a ratio at most 1.0 meets it), measured on whatever machine
runs this (on a shared 2-core one the start is dominated by compiling the WebAssembly).

Needs a built app: ``python tests/benchmarks/bench_app.py DIR`` (or ``PREFCALC_APP_DIR``);
``run.py`` includes these figures only when ``PREFCALC_APP_DIR`` is set.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from run import Figure

PHONE = {"width": 390, "height": 844}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
WAIT = 180_000
MB = 1_000_000
LINES = (
    "game Anna 7h 7 Boris:w Vera:p",
    "passes Anna=2 Boris=5 Vera=3",
    "game Boris 6s 6 Vera:w Anna:p",
    "misere Vera 0",
    "game Anna 6d 6 Boris:w2 Vera:w2",
)


class Counting:
    def __init__(self, root: Path) -> None:
        self.sent = 0
        counter = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map: ClassVar[dict[str, str]] = {
                **http.server.SimpleHTTPRequestHandler.extensions_map,
                ".mjs": "text/javascript",
                ".wasm": "application/wasm",
                ".webmanifest": "application/manifest+json",
            }

            def log_message(self, *args: Any) -> None:
                pass

            def copyfile(self, source: Any, outputfile: Any) -> None:
                data = source.read()
                counter.sent += len(data)
                outputfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(root))
        )
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _chromium() -> str:
    return os.environ.get("PREFCALC_CHROMIUM") or shutil.which("chromium") or "chromium"


def _ready(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-engine", "ready", timeout=WAIT)


def measure(app: Path) -> dict[str, Any]:
    """All the figures of one run (seconds, bytes)."""
    from playwright.sync_api import expect, sync_playwright

    served = Counting(app)
    profile = tempfile.mkdtemp(prefix="prefcalc-bench-app-")
    figures: dict[str, Any] = {}
    try:
        with sync_playwright() as p:

            def launch(offline: bool = False) -> Any:
                return p.chromium.launch_persistent_context(
                    profile,
                    executable_path=_chromium(),
                    args=ARGS,
                    viewport=PHONE,
                    is_mobile=True,
                    offline=offline,
                )

            context = launch()
            page = context.new_page()
            started = time.perf_counter()
            page.goto(served.url)
            _ready(page)
            figures["install_s"] = time.perf_counter() - started
            figures["install_bytes"] = served.sent
            page.fill("input[name=players]", "Anna Boris Vera")
            page.fill("input[name=target]", "1000")  # 30 deals, never finished
            page.click("[data-testid=start]")
            body = page.locator("body")
            expect(body).to_have_attribute("data-deals", "0", timeout=WAIT)
            game_url = page.url
            deals: list[float] = []
            engine: list[float] = []
            for k in range(30):
                line = LINES[k % len(LINES)]
                page.fill("input[name=line]", line)
                began = time.perf_counter()
                page.press("input[name=line]", "Enter")
                expect(body).to_have_attribute("data-deals", str(k + 1), timeout=WAIT)
                deals.append(time.perf_counter() - began)
                engine.append(float(body.get_attribute("data-line-ms") or 0))
            figures["deal_s"] = statistics.median(deals)
            figures["deal_engine_ms"] = statistics.median(engine)
            warm: list[float] = []
            for _ in range(3):
                began = time.perf_counter()
                page.reload()
                _ready(page)
                expect(page.locator("[data-testid=sheet] svg")).to_have_count(1, timeout=WAIT)
                warm.append(time.perf_counter() - began)
            figures["warm_s"] = statistics.median(warm)
            figures["warm_python_ms"] = int(body.get_attribute("data-python-ms") or 0)
            figures["warm_engine_ms"] = int(body.get_attribute("data-engine-ms") or 0)
            context.close()
            before = served.sent
            cold: list[float] = []
            for _ in range(3):
                context = launch(offline=True)
                page = context.new_page()
                began = time.perf_counter()
                page.goto(game_url)
                _ready(page)
                expect(page.locator("[data-testid=sheet] svg")).to_have_count(1, timeout=WAIT)
                cold.append(time.perf_counter() - began)
                body = page.locator("body")
                figures["cold_python_ms"] = int(body.get_attribute("data-python-ms") or 0)
                figures["cold_engine_ms"] = int(body.get_attribute("data-engine-ms") or 0)
                context.close()
            figures["cold_s"] = statistics.median(cold)
            figures["cold_bytes"] = served.sent - before
    finally:
        served.stop()
        shutil.rmtree(profile, ignore_errors=True)
    return figures


_cached: dict[str, Any] = {}


def _figures() -> dict[str, Any]:
    if not _cached:
        _cached.update(measure(Path(os.environ["PREFCALC_APP_DIR"])))
    return _cached


def install_bytes() -> tuple[float, float, str]:
    return _figures()["install_bytes"] / MB, 12.0, "the issue's ceiling, 12 MB (ours: MB sent)"


def cold_start() -> tuple[float, float, str]:
    return _figures()["cold_s"], 15.0, "our target, 15 s (ours: median of 3, offline)"


def warm_start() -> tuple[float, float, str]:
    return _figures()["warm_s"], 15.0, "our target, 15 s (ours: median of 3 reloads)"


def deal() -> tuple[float, float, str]:
    return _figures()["deal_s"], 0.5, "our target, 500 ms (ours: median of 30 deals)"


FIGURES: list[Figure] = (
    [
        ("app: first install (MB, not ms)", 1.0, install_bytes),
        ("app: offline cold start to the open game", 1.0, cold_start),
        ("app: start with the service worker's cache warm", 1.0, warm_start),
        ("app: a deal recorded in the worker, kept", 1.0, deal),
    ]
    if os.environ.get("PREFCALC_APP_DIR")
    else []
)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        os.environ["PREFCALC_APP_DIR"] = sys.argv[1]
    if not os.environ.get("PREFCALC_APP_DIR"):
        raise SystemExit("usage: bench_app.py DIR (a folder built by prefcalc app build)")
    f = _figures()
    print(
        f"first install: {f['install_bytes'] / MB:.2f} MB sent ({f['install_s']:.1f} s; ceiling 12 MB)"
    )
    print(
        f"offline cold start to the open game: {f['cold_s']:.1f} s (median of 3; Pyodide and"
        f" the wheels {f['cold_python_ms']} ms, the engine's import {f['cold_engine_ms']} ms;"
        f" {f['cold_bytes']} bytes from the network)"
    )
    print(
        f"start with the service worker's cache warm: {f['warm_s']:.1f} s (median of 3 reloads;"
        f" Pyodide and the wheels {f['warm_python_ms']} ms, the engine {f['warm_engine_ms']} ms)"
    )
    print(
        f"a deal recorded in the worker and kept: {f['deal_s'] * 1000:.0f} ms (median of 30;"
        f" the engine's own {f['deal_engine_ms']:.0f} ms)"
    )
