"""Issue 33, item 2: the app light and quick, side by side with the app as it was before it
(commit 9930bef), both built from their locks in this run, on this machine, in this chromium
(390×844), each served by a plain static server on loopback that counts what it sends
(``python -m http.server``'s handler: it compresses nothing).

- **first visit, bytes**: from the first request to the engine ready (``body[data-engine]``
  ``ready``: the service worker has kept every file by then), and the total once a new game
  is started (its rules validated). The issue's ceiling: 6 MB;
- **engine ready**: a reload with the service worker's cache warm, to ``data-engine=ready``
  (median of 5, the two apps alternating), and the worker's own figure for the same (Pyodide
  and the wheels, then the engine's import). The issue's ceiling: 0.7× the app before.

``python tests/benchmarks/bench_app_start.py`` prints the figures; ``run.py`` includes them
when ``PREFCALC_BENCH_APP_START=1`` (two builds and two browsers take minutes).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from run import Figure

ROOT = Path(__file__).resolve().parents[2]
BEFORE = "9930bef"
"""The commit of the app before issue 33 (the README's ё, the last commit before it)."""

PHONE = {"width": 390, "height": 844}
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
]
WAIT = 300_000
MB = 1_000_000
RELOADS = 5


class Counting:
    """A plain static server (no compression) on 127.0.0.1 counting the bytes it sends, in
    all and by path."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sent = 0
        self.by_path: dict[str, int] = {}
        counter = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map: ClassVar[dict[str, str]] = {
                **http.server.SimpleHTTPRequestHandler.extensions_map,
                ".mjs": "text/javascript",
                ".js": "text/javascript",
                ".wasm": "application/wasm",
                ".webmanifest": "application/manifest+json",
            }

            def log_message(self, *args: Any) -> None:
                pass

            def copyfile(self, source: Any, outputfile: Any) -> None:
                data = source.read()
                counter.sent += len(data)
                counter.by_path[self.path] = counter.by_path.get(self.path, 0) + len(data)
                outputfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(root))
        )
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def build_before(into: Path) -> Path:
    """The app as it was, built by the prefcalc of :data:`BEFORE` (a temporary worktree) from
    its own lock; the inputs come from the same cache."""
    tree = into / "before-src"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), BEFORE],
        check=True,
        capture_output=True,
    )
    try:
        out = into / "before"
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run(
            [sys.executable, "-m", "prefcalc", "app", "build", "--out", str(out)],
            check=True,
            capture_output=True,
            cwd=tree,
            env=env,
        )
        return out
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
            check=False,
            capture_output=True,
        )


def build_now(into: Path) -> Path:
    out = into / "now"
    subprocess.run(
        [sys.executable, "-m", "prefcalc", "app", "build", "--out", str(out)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    return out


def _chromium() -> str:
    return os.environ.get("PREFCALC_CHROMIUM") or shutil.which("chromium") or "chromium"


class Phone:
    """One app in one chromium profile, served by its own counting server."""

    def __init__(self, p: Any, app: Path) -> None:
        self.served = Counting(app)
        self.profile = tempfile.mkdtemp(prefix="prefcalc-bench-start-")
        self.context = p.chromium.launch_persistent_context(
            self.profile,
            executable_path=_chromium(),
            args=ARGS,
            viewport=PHONE,
            is_mobile=True,
        )
        self.page = self.context.new_page()

    def ready(self) -> float:
        from playwright.sync_api import expect

        began = time.perf_counter()
        expect(self.page.locator("body")).to_have_attribute("data-engine", "ready", timeout=WAIT)
        return time.perf_counter() - began

    def first_visit(self) -> dict[str, float]:
        from playwright.sync_api import expect

        began = time.perf_counter()
        self.page.goto(self.served.url)
        self.ready()
        took = time.perf_counter() - began
        at_ready = self.served.sent  # the service worker's install is done by then
        self.page.fill("input[name=players]", "Anna Boris Vera")
        self.page.click("[data-testid=start]")
        body = self.page.locator("body")
        expect(body).to_have_attribute("data-deals", "0", timeout=WAIT)
        self.page.goto(self.served.url)  # back to the games: the reloads start there
        self.ready()
        return {"first_s": took, "first_bytes": at_ready, "total_bytes": self.served.sent}

    def reload(self) -> tuple[float, float]:
        began = time.perf_counter()
        self.page.reload()
        self.ready()
        took = time.perf_counter() - began
        worker = float(self.page.locator("body").get_attribute("data-load-ms") or 0) / 1000
        return took, worker

    def close(self) -> None:
        self.context.close()
        self.served.stop()
        shutil.rmtree(self.profile, ignore_errors=True)


def measure() -> dict[str, dict[str, float]]:
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="prefcalc-bench-builds-"))
    try:
        apps = {"before": build_before(work), "now": build_now(work)}
        figures: dict[str, dict[str, float]] = {}
        with sync_playwright() as p:
            phones = {name: Phone(p, app) for name, app in apps.items()}
            try:
                for name, phone in phones.items():
                    figures[name] = phone.first_visit()
                    if os.environ.get("PREFCALC_BENCH_PATHS"):
                        for path, n in sorted(phone.served.by_path.items(), key=lambda i: -i[1]):
                            print(f"  {name} {n:>9} {path}")
                times: dict[str, list[tuple[float, float]]] = {n: [] for n in phones}
                for _ in range(RELOADS):
                    for name, phone in phones.items():
                        times[name].append(phone.reload())
                for name in phones:
                    figures[name]["ready_s"] = statistics.median(t for t, _w in times[name])
                    figures[name]["worker_s"] = statistics.median(w for _t, w in times[name])
            finally:
                for phone in phones.values():
                    phone.close()
        return figures
    finally:
        shutil.rmtree(work, ignore_errors=True)


_cached: dict[str, dict[str, float]] = {}


def _figures() -> dict[str, dict[str, float]]:
    if not _cached:
        _cached.update(measure())
    return _cached


def first_visit_bytes() -> tuple[float, float, str]:
    f = _figures()
    return f["now"]["first_bytes"], f["before"]["first_bytes"], "the app before (bytes, not ms)"


def first_visit_ceiling() -> tuple[float, float, str]:
    return _figures()["now"]["first_bytes"], 6 * MB, "the issue's ceiling, 6 MB (bytes, not ms)"


def engine_ready() -> tuple[float, float, str]:
    f = _figures()
    return f["now"]["ready_s"], f["before"]["ready_s"], "the app before, same reloads"


FIGURES: list[Figure] = (
    [
        ("app start: first visit bytes to ready / before", 1.0, first_visit_bytes),
        ("app start: first visit bytes to ready / 6 MB", 1.0, first_visit_ceiling),
        ("app start: engine ready (reload) / before", 0.7, engine_ready),
    ]
    if os.environ.get("PREFCALC_BENCH_APP_START")
    else []
)


if __name__ == "__main__":
    f = _figures()
    b, n = f["before"], f["now"]
    print(
        f"first visit to the engine ready: {n['first_bytes'] / MB:.2f} MB"
        f" (before: {b['first_bytes'] / MB:.2f} MB; ratio {n['first_bytes'] / b['first_bytes']:.2f};"
        f" ceiling 6 MB); {n['first_s']:.1f} s (before {b['first_s']:.1f} s)"
    )
    print(
        f"first visit with a game started:"
        f" {n['total_bytes'] / MB:.2f} MB (before: {b['total_bytes'] / MB:.2f} MB)"
    )
    print(
        f"engine ready on a reload, median of {RELOADS}: {n['ready_s']:.2f} s"
        f" (before: {b['ready_s']:.2f} s; ratio {n['ready_s'] / b['ready_s']:.2f}; ceiling 0.7);"
        f" the worker's own: {n['worker_s']:.2f} s (before: {b['worker_s']:.2f} s;"
        f" ratio {n['worker_s'] / b['worker_s']:.2f})"
    )
