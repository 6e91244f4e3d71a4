"""``prefcalc serve`` in a real browser: Debian's chromium driven by Playwright at a phone's
viewport. The watcher page follows a write made by the CLI without a reload; the scorer
records a deal by touch and by the line field; a refused line shows its one-line error.

Screenshots are kept in ``tests/artifacts/serve`` (ignored by git; ``PREFCALC_ARTIFACTS``
moves them). The browser is found by ``PREFCALC_CHROMIUM``, else ``chromium`` on the PATH;
without one the tests skip, unless ``PREFCALC_REQUIRE_TOOLS=1`` (CI), where they fail.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from prefcalc import api
from prefcalc.store.ledger import game_to_json_text
from prefcalc.web import create_app, listen
from tests.support import make_game, run_cli, sample_game

TOKEN = "browser-test-token"
PHONE = {"width": 390, "height": 844}
WAIT = 20_000  # ms: generous, the machine is shared; never a fixed sleep
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = (
    Path(os.environ.get("PREFCALC_ARTIFACTS", Path(__file__).resolve().parent / "artifacts"))
    / "serve"
)


def _chromium() -> str:
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


class _Server:
    """uvicorn in a thread on 127.0.0.1, on a port the system picked."""

    def __init__(self, path: Path, read_only: bool = False) -> None:
        import uvicorn

        app = create_app(path, TOKEN, read_only=read_only)
        self.sock = listen("127.0.0.1", 0)  # as serve makes it: TCP_NODELAY on connections
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        ready = threading.Event()

        class Server(uvicorn.Server):
            async def startup(self, sockets: Any = None) -> None:
                await super().startup(sockets)
                ready.set()

        config = uvicorn.Config(app, access_log=False, log_level="warning")
        self.server = Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        if not ready.wait(60):
            raise RuntimeError("the server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(60)
        self.sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PREFCALC_FILE", raising=False)


def _serve(tmp_path: Path, game: Any, read_only: bool = False) -> tuple[Path, _Server]:
    path = tmp_path / "g.json"
    path.write_text(game_to_json_text(game), encoding="utf-8")
    return path, _Server(path, read_only)


def _watch_errors(page: Any) -> list[str]:
    """Script errors and refused resources (a Content-Security-Policy violation among them);
    an answer of 401 or 422 to a refused line is expected, not an error of the page."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and "Failed to load resource" not in m.text
            else None
        ),
    )
    return errors


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    errors = _watch_errors(page)
    yield page
    context.close()
    assert errors == []


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_the_watcher_page_follows_a_cli_write_without_reload(phone: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    path, server = _serve(tmp_path, sample_game())
    try:
        phone.goto(server.url + "/")
        body = phone.locator("body")
        expect(body).to_have_attribute("data-deals", "13", timeout=WAIT)
        expect(phone.locator("#sheet svg text.name").first).to_have_text("Anna", timeout=WAIT)
        expect(phone.locator("#money tbody tr")).to_have_count(3, timeout=WAIT)
        expect(phone.locator("#live")).to_have_text("live", timeout=WAIT)
        _no_horizontal_scroll(phone)
        _shot(phone, "watch-before")
        phone.evaluate("window.__same_page = true")
        result = run_cli(
            ["game", "Anna", "6s", "6", "Boris:w", "Vera:p", "-f", str(path)], tmp_path
        )
        assert result.returncode == 0, result.stderr
        expect(body).to_have_attribute("data-deals", "14", timeout=WAIT)
        expect(phone.locator("#last-deal")).to_contain_text(
            "№14 (Anna dealt): game Anna 6s 6 Boris:w Vera:p", timeout=WAIT
        )
        assert phone.evaluate("window.__same_page") is True  # updated in place, not reloaded
        # the other method of settling, by the switch
        before = phone.locator("#money tbody").inner_text()
        phone.get_by_role("button", name="Average").click()
        expect(phone.locator("#money tbody")).not_to_have_text(before, timeout=WAIT)
        _no_horizontal_scroll(phone)
        _shot(phone, "watch-after-cli-write")
    finally:
        server.stop()


def test_four_players_fit_a_narrow_phone(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    game = make_game(
        ["Anna", "Boris", "Vera", "Gleb"],
        ["game Boris 7h 7 Vera:w Gleb:p", "game Vera 6s 6 Gleb:w3 Anna:w1"],
    )
    _path, server = _serve(tmp_path, game)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    errors = _watch_errors(page)
    try:
        page.goto(server.url + "/")
        expect(page.locator("body")).to_have_attribute("data-deals", "2", timeout=WAIT)
        expect(page.locator("#sheet svg text.name")).to_have_count(4, timeout=WAIT)
        _no_horizontal_scroll(page)
        _shot(page, "watch-four-players-360")
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.locator("#declarers button")).to_have_count(3, timeout=WAIT)  # dealer out
        _no_horizontal_scroll(page)
        _shot(page, "score-four-players-360")
    finally:
        context.close()
        server.stop()
    assert errors == []


def test_the_scorer_records_by_touch_and_by_line(phone: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    path, server = _serve(tmp_path, make_game(["Anna", "Boris", "Vera"], [], target=20))
    try:
        phone.goto(server.url + "/score#token=" + TOKEN)
        expect(phone.locator("#declarers button")).to_have_count(3, timeout=WAIT)
        phone.locator("#declarers button", has_text="Anna").click()
        phone.locator('[data-contract="7h"]').click()
        phone.locator('[data-tricks="7"]').click()
        phone.locator('.defender[data-player="Boris"] [data-role="w"]').click()
        phone.locator('.defender[data-player="Vera"] [data-role="p"]').click()
        expect(phone.locator("#preview")).to_have_text("game Anna 7h 7 Boris:w Vera:p")
        _no_horizontal_scroll(phone)
        _shot(phone, "score-touch-built")
        phone.locator("#record").click()
        expect(phone.locator("#output")).to_contain_text(
            "recorded: deal 1, dealt by Anna: Anna 7♥ took 7; Boris whist, Vera pass", timeout=WAIT
        )
        assert len(api.load(path).entries) == 1
        expect(phone.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
        _shot(phone, "score-touch-recorded")

        # misère by touch
        phone.get_by_role("tab", name="Misère").click()
        phone.locator("#declarers button", has_text="Boris").click()
        phone.locator('[data-tricks="0"]').click()
        expect(phone.locator("#preview")).to_have_text("misere Boris 0")
        phone.locator("#record").click()
        expect(phone.locator("#output")).to_contain_text("recorded: deal 2", timeout=WAIT)

        # the line field, sent with Enter
        line = phone.locator('input[name="line"]')
        line.fill("p 2 5 3")
        line.press("Enter")
        expect(phone.locator("#output")).to_contain_text(
            "recorded: deal 3, dealt by Vera: all-pass: Anna 2, Boris 5, Vera 3", timeout=WAIT
        )
        expect(line).to_have_value("")
        assert len(api.load(path).entries) == 3

        # undo by its button
        phone.get_by_role("button", name="Undo").click()
        expect(phone.locator("#output")).to_contain_text("removed deal 3", timeout=WAIT)
        expect(phone.locator("body")).to_have_attribute("data-deals", "2", timeout=WAIT)
        _shot(phone, "score-line-and-undo")

        # edit deal 1 by touch: the deal built above, sent as "edit 1 <deal>"
        phone.get_by_role("tab", name="Game").click()
        phone.locator("#declarers button", has_text="Anna").click()
        phone.locator('[data-contract="6s"]').click()
        phone.locator('[data-tricks="6"]').click()
        phone.locator('.defender[data-player="Boris"] [data-role="w"]').click()
        phone.locator('.defender[data-player="Vera"] [data-role="p"]').click()
        phone.locator("#edit-number").fill("1")
        phone.locator("#edit").click()
        expect(phone.locator("#output")).to_contain_text("replaced deal 1:", timeout=WAIT)
        first = api.load(path).entries[0].deal
        assert (first.level, first.suit) == (6, "s")  # type: ignore[union-attr]

        # the target, then the settlement
        phone.locator("#target").fill("30")
        phone.get_by_role("button", name="Set target").click()
        expect(phone.locator("#status")).to_contain_text("to 30", timeout=WAIT)
        phone.get_by_role("button", name="Settle", exact=True).click()
        expect(phone.locator("#output")).to_contain_text("Settlement", timeout=WAIT)
        _no_horizontal_scroll(phone)
        _shot(phone, "score-edit-target-settle")
    finally:
        server.stop()


def test_a_refused_line_shows_its_error(phone: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    path, server = _serve(tmp_path, make_game(["Anna", "Boris", "Vera"], [], target=20))
    before = path.read_bytes()
    try:
        phone.goto(server.url + "/score#token=" + TOKEN)
        expect(phone.locator("#declarers button")).to_have_count(3, timeout=WAIT)
        line = phone.locator('input[name="line"]')
        line.fill("a 5h 7 b:w v:p")
        line.press("Enter")
        error = phone.locator("#error")
        expect(error).to_have_text(
            "there is no contract level 5 in '5h' (levels are 6-10)", timeout=WAIT
        )
        expect(line).to_have_value("a 5h 7 b:w v:p")  # kept, to be corrected
        _no_horizontal_scroll(phone)
        _shot(phone, "score-refused-line")
        # a link without the right token writes nothing either
        phone.goto(server.url + "/score#token=wrong")
        phone.evaluate("sessionStorage.clear()")
        line.fill("a 7h 7 b:w v:p")
        line.press("Enter")
        expect(error).to_contain_text("token is missing or wrong", timeout=WAIT)
    finally:
        server.stop()
    assert path.read_bytes() == before
