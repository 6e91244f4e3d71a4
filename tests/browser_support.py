"""What the browser tests of ``prefcalc serve`` share: Debian's chromium driven by Playwright
at a phone's viewport, and the server run in a thread (and restarted on the same port).

The browser is found by ``PREFCALC_CHROMIUM``, else ``chromium`` on the PATH; without one the
tests skip, unless ``PREFCALC_REQUIRE_TOOLS=1`` (CI), where they fail. Screenshots are kept in
``tests/artifacts/serve`` (ignored by git; ``PREFCALC_ARTIFACTS`` moves them).

The fixtures (``browser``, one chromium for a module; ``phones``; ``data_home``) are
made known to every test module by ``tests/conftest.py``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from prefcalc.store.ledger import game_to_json_text

TOKEN = "browser-test-token"
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 740}
WAIT = 20_000  # ms: generous, the machine is shared; never a fixed sleep
FOREIGN = "evil.example"  # a name of another site, pointed at this computer (DNS rebinding)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--host-resolver-rules=MAP {FOREIGN} 127.0.0.1",
]
ARTIFACTS = (
    Path(os.environ.get("PREFCALC_ARTIFACTS", Path(__file__).resolve().parent / "artifacts"))
    / "serve"
)


def chromium() -> str:
    given = os.environ.get("PREFCALC_CHROMIUM")
    if given and Path(given).exists():
        return given
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("PREFCALC_REQUIRE_TOOLS") == "1":
        pytest.fail("chromium is required here (PREFCALC_REQUIRE_TOOLS=1)")
    pytest.skip("chromium is not installed")


class Server:
    """uvicorn in a thread on 127.0.0.1, on a port the system picked (or ``port``: a restart);
    stopped as Ctrl-C stops ``serve``: the event streams are ended first."""

    def __init__(self, path: Path, port: int = 0, **options: Any) -> None:
        import uvicorn

        from prefcalc.web import create_app, listen

        self.path = path
        self.options = options
        self.app = create_app(path, TOKEN, **options)
        self.sock = listen("127.0.0.1", port)  # as serve makes it: TCP_NODELAY on connections
        self.port = int(self.sock.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        ready = threading.Event()
        loops: list[asyncio.AbstractEventLoop] = []

        class Uvicorn(uvicorn.Server):
            async def startup(self, sockets: Any = None) -> None:
                await super().startup(sockets)
                loops.append(asyncio.get_running_loop())
                ready.set()

        config = uvicorn.Config(
            self.app, access_log=False, log_level="warning", timeout_graceful_shutdown=5
        )
        self.server = Uvicorn(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        if not ready.wait(60):
            raise RuntimeError("the server did not start")
        self.loop = loops[0]
        self.stopped = False

    @property
    def table(self) -> Any:
        return self.app.state.table

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self.loop.call_soon_threadsafe(self.table.watcher.close)
        self.server.should_exit = True
        self.thread.join(60)
        self.sock.close()

    def restart(self) -> Server:
        """This server stopped, and a new one serving the same ledger on the same port with
        the same token (``serve`` keeps the token per game)."""
        self.stop()
        return Server(self.path, self.port, **self.options)


def serve(tmp_path: Path, game: Any, **options: Any) -> tuple[Path, Server]:
    path = tmp_path / "g.json"
    path.write_text(game_to_json_text(game), encoding="utf-8")
    return path, Server(path, **options)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium for a module's tests (Playwright's sync API runs an event loop in this
    thread while it is open: it is closed before the next module, whose tests may run one)."""
    executable = chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test's own data folder (the kept tokens, the ledgers' cache)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PREFCALC_FILE", raising=False)


def watch_errors(page: Any) -> list[str]:
    """Script errors and refused resources (a Content-Security-Policy violation among them);
    an answer of 4xx or 503 the test asks for, and a stream cut by a stopping server, are
    expected, not errors of the page."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error"
            and "Failed to load resource" not in m.text
            and "net::ERR" not in m.text
            else None
        ),
    )
    return errors


class Phone:
    """A phone's browser context and page; ``close()`` checks the page made no error."""

    def __init__(self, browser: Any, viewport: dict[str, int] = PHONE) -> None:
        self.context = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True)
        self.page = self.context.new_page()
        self.errors = watch_errors(self.page)

    def close(self) -> None:
        self.context.close()
        assert self.errors == []


@pytest.fixture
def phones(browser: Any) -> Iterator[Any]:
    """Open phones: ``phones(viewport)`` gives one, closed (and checked) after the test."""
    opened: list[Phone] = []

    def make(viewport: dict[str, int] = PHONE) -> Any:
        phone = Phone(browser, viewport)
        opened.append(phone)
        return phone.page

    yield make
    for phone in opened:
        phone.close()


def shot(page: Any, name: str, full: bool = False) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    return path


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


# --- the score page (serve's, and the offline app's: the same score.js) ----------------

TARGETS = {"one whister": 5, "both whisting": 7, "nobody whists": 5, "all-pass": 4, "misère": 4}
"""The most taps a deal of each kind may take (issue 25), Record included."""


def rect(control: Any) -> dict[str, float]:
    """Where ``control`` is on the screen, found and measured in one step in the page: a
    reading may draw the controls again at any moment, and a control found, then replaced,
    then measured has no box (Playwright's ``bounding_box`` answers None for it)."""
    return dict(
        control.evaluate(
            "(e) => { const r = e.getBoundingClientRect();"
            " return { x: r.x, y: r.y, width: r.width, height: r.height }; }"
        )
    )


class Taps:
    """Taps on the page's controls by their testid, counted; before each tap the control and
    the Record bar must be on the screen as it is (nothing scrolled: Playwright would scroll
    to a control out of view, so the test looks first), and after it the page is still
    scrolled to the top."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0

    def __call__(self, testid: str) -> None:
        page = self.page
        control = page.get_by_test_id(testid)
        box, bar = rect(control), rect(page.locator("#recordbar"))
        height = page.viewport_size["height"]
        assert box["width"] > 0 and box["height"] > 0, testid  # shown, not hidden
        assert bar["y"] >= 0 and bar["y"] + bar["height"] <= height + 0.5, "the Record bar"
        bottom = height if control.evaluate("(e) => !!e.closest('#recordbar')") else bar["y"]
        assert box["y"] >= 0 and box["y"] + box["height"] <= bottom + 0.5, (testid, box, bar)
        control.click()
        self.count += 1
        assert page.evaluate("scrollY") == 0, testid


def after(players: list[str], declarer: str) -> list[str]:
    """The defenders in the order they speak: clockwise from the declarer."""
    k = players.index(declarer)
    return [*players[k + 1 :], *players[:k]]


# Each deal of the evening: its kind and what is tapped, by the index of an active player.
EVENING: list[tuple[str, tuple[Any, ...]]] = [
    ("one whister", (0, "7h", 7)),
    ("both whisting", (1, "6s", 6, 3)),
    ("all-pass", (2, 5)),
    ("one whister", (2, "7d", 8)),  # 7 at least after the all-pass deal (Leningrad)
    ("misère", (0, 0)),
    ("nobody whists", (1, "8c")),
    ("both whisting", (2, "7nt", 6, 2)),
    ("one whister", (0, "9h", 9)),
    ("all-pass", (3, 3)),
    ("all-pass", (1, 6)),
    ("both whisting", (1, "7s", 7, 1)),
    ("misère", (2, 1)),
    ("one whister", (1, "6h", 5)),
    ("nobody whists", (0, "6d")),
    ("both whisting", (0, "8s", 8, 2)),
    ("one whister", (2, "10nt", 10)),
    ("misère", (1, 0)),
    ("all-pass", (0, 4)),
    ("one whister", (0, "7c", 7)),
    ("both whisting", (2, "6nt", 4, 4)),
]


def deal_by_taps(players: list[str], kind: str, args: tuple[Any, ...], tap: Taps) -> str:
    """Tap one deal of the evening on the score page (Record included), ``players`` the
    active ones in seat order; return it in the English shorthand."""
    if kind == "all-pass":
        first, second = args
        tap("kind:passes")
        tap(f"passes:{players[0]}:{first}")
        tap(f"passes:{players[1]}:{second}")
        tap("record")
        counts = [first, second, 10 - first - second]
        return "passes " + " ".join(f"{p}={n}" for p, n in zip(players, counts, strict=True))
    if kind == "misère":
        who, tricks = args
        tap("kind:misere")
        tap(f"declarer:{players[who]}")
        tap(f"tricks:{tricks}")
        tap("record")
        return f"misere {players[who]} {tricks}"
    declarer = players[args[0]]
    contract = args[1]
    first, second = after(players, declarer)
    tap(f"declarer:{declarer}")
    tap(f"contract:{contract}")
    if kind == "nobody whists":
        tap("record")
        return f"game {declarer} {contract} - {first}:p {second}:p"
    tricks = args[2]
    tap(f"tricks:{tricks}")
    if kind == "one whister":
        tap(f"role:{second}:w")
        tap("record")
        return f"game {declarer} {contract} {tricks} {first}:p {second}:w"
    tap(f"role:{first}:w")
    tap(f"role:{second}:w")
    tap(f"wtricks:{first}:{args[3]}")
    tap("record")
    return (
        f"game {declarer} {contract} {tricks} {first}:w{args[3]} {second}:w{10 - tricks - args[3]}"
    )
