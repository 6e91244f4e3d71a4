"""The built app in a real browser (Debian's chromium, driven by Playwright, at 390×844), served
by a plain static server on loopback: installed (the service worker active), then offline:
a night recorded on serve's own score page (score.js, given the phone's table) by taps and by
the line field, with undo, put back, a double tap and a reload in the middle, seen on serve's
watch view, settled and exported; the exported ledger is what the CLI writes for the same
lines, and importing it again is recognised. Hostile files are one line and change nothing.

These tests need a built app: ``prefcalc app build --out DIR`` and ``PREFCALC_APP_DIR=DIR``
(``.ci/run`` does both). Without ``PREFCALC_APP_DIR`` they are skipped, saying so; with it,
they fail if DIR holds no build or one made from other sources than these (rebuild). The
browser is found as for the serve tests (``PREFCALC_CHROMIUM``, else ``chromium``).
Screenshots are kept in ``tests/artifacts/app``.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from prefcalc import api
from prefcalc.app.build import MARK, sources_digest
from tests.browser_support import (
    ARTIFACTS,
    CHROMIUM_ARGS,
    EVENING,
    NARROW,
    PHONE,
    TARGETS,
    Phone,
    Taps,
    deal_by_taps,
    no_horizontal_scroll,
)
from tests.browser_support import chromium as _chromium
from tests.support import SAMPLE_3, invoke, make_game

SHOTS = ARTIFACTS.parent / "app"
WAIT = 120_000  # ms: the browser's Python starts in seconds, far longer on a loaded machine
TIMES = re.compile(r'"(created|time)": "[^"]*"')


def _built() -> Path:
    given = os.environ.get("PREFCALC_APP_DIR")
    if not given:
        pytest.skip(
            "the app is not built here: `prefcalc app build --out DIR` and PREFCALC_APP_DIR=DIR"
            " run these tests (.ci/run does)"
        )
    folder = Path(given)
    mark = folder / MARK
    if not mark.is_file():
        pytest.fail(f"PREFCALC_APP_DIR={given} holds no app built by prefcalc")
    if json.loads(mark.read_text()).get("sources") != sources_digest():
        pytest.fail(f"the app in {given} was built from other sources: build it again")
    return folder


class StaticServer:
    """A plain static file server on 127.0.0.1 (no compression, no special headers), counting
    the bytes of the files it sends."""

    def __init__(self, root: Path) -> None:
        self.sent = 0
        server = self

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
                server.sent += len(data)
                outputfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=str(root))
        )
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def server() -> Iterator[StaticServer]:
    served = StaticServer(_built())
    yield served
    served.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, accept_downloads=True
    )
    page = context.new_page()
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
    yield page
    context.close()
    assert errors == []


def _shot(page: Any, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def _ready(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-engine", "ready", timeout=WAIT)


def _install_then_offline(page: Any) -> StaticServer:
    """The app installed from a server of its own, which then goes away altogether (the
    laptop left), and the browser offline: only the service worker can serve it now."""
    server = StaticServer(_built())
    page.goto(server.url)
    _ready(page)
    assert page.locator("body").get_attribute("data-sw") == "active"
    assert page.evaluate("!!navigator.serviceWorker.controller")
    server.stop()
    page.context.set_offline(True)
    page.reload()
    _ready(page)
    return server


def _start(page: Any, players: str, **fields: str) -> None:
    """A new game from the form (the testing contract: ``input[name=players]``,
    ``select[name=convention]``, ``input[name=target]``, ``input[name=price]``, ``start``),
    the fields not given left as the form has them; the game opens with no deal."""
    from playwright.sync_api import expect

    page.fill("input[name=players]", players)
    if "convention" in fields:
        page.select_option("select[name=convention]", fields["convention"])
    for name in ("target", "price"):
        if name in fields:
            page.fill(f"input[name={name}]", fields[name])
    page.click("[data-testid=start]")
    expect(page.locator("body")).to_have_attribute("data-deals", "0", timeout=WAIT)


def _record(page: Any, line: str, deals: int) -> None:
    """One line by the score page's line field: carried out, the field is emptied."""
    from playwright.sync_api import expect

    field = page.locator("input[name=line]")
    field.fill(line)
    field.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-deals", str(deals), timeout=WAIT)
    expect(field).to_have_value("", timeout=WAIT)
    expect(page.locator("#message")).not_to_have_class(re.compile(r"\berror\b"))


def _refused(page: Any, line: str, said: str) -> str:
    """A line the score page's field sends and the engine refuses: its one line in the
    Record bar, the line kept in the field to be corrected."""
    from playwright.sync_api import expect

    field = page.locator("input[name=line]")
    field.fill(line)
    field.press("Enter")
    message = page.locator("#message")
    expect(message).to_have_class(re.compile(r"\berror\b"), timeout=WAIT)
    expect(message).to_contain_text(said)
    expect(field).to_have_value(line)
    text: str = message.inner_text()
    assert "\n" not in text and "Traceback" not in text, text
    return text


TAPS = (
    ("declarer:Anna", "contract:7h", "role:Boris:w", "role:Vera:p", "tricks:7"),
    ("declarer:Boris", "contract:6s", "role:Vera:w", "role:Anna:w", "tricks:5", "wtricks:Vera:3"),
    ("kind:passes", "passes:Anna:2", "passes:Boris:5"),
)
"""The first deals of SAMPLE_3 as the score page's taps (its data-testids)."""


def _tapped(page: Any, taps: tuple[str, ...], line: str, deals: int, double: bool = False) -> None:
    from playwright.sync_api import expect

    for testid in taps:
        page.get_by_test_id(testid).click()
    record = page.get_by_test_id("record")
    if double:
        record.dblclick()  # a double tap: recorded once
    else:
        record.click()
    expect(page.locator("body")).to_have_attribute("data-deals", str(deals), timeout=WAIT)
    expect(page.locator("#message")).to_contain_text(f"№{deals} recorded", timeout=WAIT)
    expect(page.get_by_test_id(f"deal:{deals}")).to_contain_text(line)  # the deal the taps said


def _cli_night(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "cli.json"
    made = invoke(
        ["new", "Anna", "Boris", "Vera", "-c", "sochi", "-t", "20", "-f", str(path)], tmp_path
    )
    assert made.returncode == 0, made.stderr
    played = invoke(["play", "-f", str(path)], tmp_path, input="\n".join(lines) + "\n")
    assert played.returncode == 0, played.stderr
    return path


def _show_json(tmp_path: Path, path: Path) -> Any:
    shown = invoke(["show", "--json", "-f", str(path)], tmp_path)
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def test_installed_offline_a_night_survives_a_reload_and_exports_the_clis_ledger(
    phone: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    _install_then_offline(phone)
    _start(phone, "Anna Boris Vera", convention="sochi", target="20", price="1")
    body = phone.locator("body")
    expect(phone.get_by_test_id("status")).to_have_attribute("data-state", "live")
    expect(phone.get_by_test_id("summary")).to_contain_text("Anna", timeout=WAIT)
    expect(phone.get_by_test_id("recorded-with")).to_contain_text("started with prefcalc")
    # the first deals by taps on serve's score page, the bar showing each deal's line
    for k, (taps, line) in enumerate(zip(TAPS, SAMPLE_3, strict=False), 1):
        _tapped(phone, taps, line, k, double=k == 1)
    phone.get_by_test_id("undo").click()
    expect(body).to_have_attribute("data-deals", str(len(TAPS) - 1), timeout=WAIT)
    phone.get_by_test_id("redo").click()  # the toast's Put back
    expect(body).to_have_attribute("data-deals", str(len(TAPS)), timeout=WAIT)
    expect(phone.get_by_test_id(f"deal:{len(TAPS)}")).to_contain_text("passes Anna=2")
    # the rest by the line field, a reload in the middle (offline): nothing is lost
    half = len(SAMPLE_3) // 2
    for k, line in enumerate(SAMPLE_3[len(TAPS) : half], len(TAPS) + 1):
        _record(phone, line, k)
    _shot(phone, "offline-half-night")
    phone.reload()
    _ready(phone)
    expect(body).to_have_attribute("data-deals", str(half), timeout=WAIT)
    for k, line in enumerate(SAMPLE_3[half:], half + 1):
        _record(phone, line, k)
    # serve's watch view of the same table
    phone.get_by_test_id("view:watch").click()
    expect(phone.locator("[data-testid=sheet] svg text.name").first).to_have_text("Anna")
    expect(phone.locator("#last-deal")).to_contain_text(f"№{len(SAMPLE_3)}", timeout=WAIT)
    expect(phone.locator("#payments li").first).to_contain_text("pays")
    _shot(phone, "offline-watch")
    phone.get_by_test_id("view:score").click()
    expect(body).to_have_attribute("data-deals", str(len(SAMPLE_3)), timeout=WAIT)
    phone.get_by_role("button", name="Settle", exact=True).click()
    expect(phone.locator("#output")).to_contain_text("pays", timeout=WAIT)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    _shot(phone, "offline-night-settled")
    with phone.expect_download() as download:
        phone.click("[data-testid=export-ledger]")
    exported = tmp_path / "exported.json"
    download.value.save_as(str(exported))
    # what the phone wrote is what the CLI writes for the same lines
    cli = _cli_night(tmp_path, SAMPLE_3)
    assert _show_json(tmp_path, exported) == _show_json(tmp_path, cli)
    assert TIMES.sub("", exported.read_text()) == TIMES.sub("", cli.read_text())
    # imported again, it is recognised: the games on the phone stay as they were
    phone.click("#back")
    games = phone.locator("#games li")
    expect(games).to_have_count(1)
    phone.set_input_files("input[type=file][data-testid=import-ledger]", str(exported))
    expect(phone.locator("#import-said")).to_contain_text("already on this phone", timeout=WAIT)
    expect(games).to_have_count(1)
    _shot(phone, "offline-import-again")


ACTIVE = """() => Array.from(document.querySelectorAll('[data-testid^="declarer:"]'), (e) => e.dataset.player)"""
"""The players who hold cards in the next deal, in seat order: the score page's declarers."""


@pytest.mark.parametrize(
    ("lang", "viewport", "names"),
    [("en", PHONE, ["Anna", "Boris", "Vera"]), ("ru", NARROW, ["Аня", "Боря", "Вера", "Глеб"])],
    ids=["en-390x844-three", "ru-360x740-four"],
)
def test_a_deal_is_chosen_and_recorded_on_one_screen(
    browser: Any,
    server: StaticServer,
    tmp_path: Path,
    lang: str,
    viewport: dict[str, int],
    names: list[str],
) -> None:
    """Issue 25's one screen per deal, in the app as on serve's score page: while scoring the
    app's header gives way to the game's one row, so the page starts where serve's does; every
    control of each deal and the Record bar are on the screen as it is (nothing scrolled, at
    390×844 and 360×740), within serve's counts of taps. A late arrival's name is declined
    from the first deal after he joins."""
    from playwright.sync_api import expect

    phone = Phone(browser, viewport)
    page = phone.page
    tag = f"{lang}-{viewport['width']}"
    taps: dict[str, list[int]] = {}
    lines: list[str] = []
    try:
        page.goto(server.url)
        _ready(page)
        # the switch offers the other language, named in that language
        expect(page.locator("#lang")).to_have_attribute("aria-label", "Русский")
        if lang == "ru":
            page.click("#lang")
            expect(page.locator("#new-game h2")).to_have_text("Новая игра")
            expect(page.locator("#lang")).to_have_attribute("aria-label", "English")
            expect(page.locator("#lang")).to_have_attribute("lang", "en")
        _start(page, " ".join(names), convention="leningrad", target="50")
        body = page.locator("body")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live")
        expect(page.locator("header.top")).to_be_hidden()
        summary = page.get_by_test_id("summary").bounding_box()
        assert summary is not None and summary["y"] <= 48, summary  # serve's: 38
        _shot(page, f"score-{tag}-start", full=False)
        recorded = "№{} записана: " if lang == "ru" else "№{} recorded: "
        for number, (kind, args) in enumerate(EVENING[:8], 1):
            tap = Taps(page)
            lines.append(deal_by_taps(page.evaluate(ACTIVE), kind, args, tap))
            taps.setdefault(kind, []).append(tap.count)
            expect(body).to_have_attribute("data-deals", str(number), timeout=WAIT)
            expect(page.locator("#message")).to_contain_text(recorded.format(number), timeout=WAIT)
            expect(page.get_by_test_id("kind:game")).to_have_attribute("aria-selected", "true")
            if number == 2:
                _shot(page, f"score-{tag}-after-deal-2", full=False)
            assert page.evaluate("scrollY") == 0
        no_horizontal_scroll(page)
        _shot(page, f"score-{tag}-evening", full=False)
        if lang == "ru":
            # a late arrival: his name in its cases on the page from the first deal he plays
            field = page.locator("input[name=line]")
            field.fill("join Дима")
            field.press("Enter")
            expect(field).to_have_value("", timeout=WAIT)
            # the readings the join set off are over (a tap meanwhile may find its button
            # drawn again): the field is emptied while the first of them runs
            expect(body).to_have_attribute("data-reading", "false", timeout=WAIT)
            expect(page.locator("[data-testid=summary] [title='Дима']")).to_have_count(1)
            page.evaluate("window.scrollTo(0, 0)")  # from the line field, back to the deal
            players = page.evaluate(ACTIVE)
            assert "Дима" not in players, players  # he sits out the next deal, at five
            deal_by_taps(players, "nobody whists", (0, "6s"), Taps(page))
            expect(body).to_have_attribute("data-deals", "9", timeout=WAIT)
            expect(page.locator("#message")).to_contain_text("№10 записана: ", timeout=WAIT)
            players = page.evaluate(ACTIVE)
            assert "Дима" in players, players
            deal_by_taps(players, "one whister", (players.index("Дима"), "6s", 6), Taps(page))
            expect(body).to_have_attribute("data-deals", "10", timeout=WAIT)
            expect(page.locator("#message")).to_contain_text("висты на Диму", timeout=WAIT)
            # what a deal wrote, as a table says it: «Дима +2 в пулю», not «+2 пуля»
            expect(page.locator("#message")).to_contain_text("Дима +2 в пулю")
            _shot(page, f"score-{tag}-late-arrival", full=False)
        else:
            # the language of an open game, from its card (the app's header is the home's)
            page.click("#game-lang")
            expect(page.get_by_test_id("kind:game")).to_have_text("Игра", timeout=WAIT)
            page.click("#game-lang")
            expect(page.get_by_test_id("kind:game")).to_have_text("Game", timeout=WAIT)
        with page.expect_download() as download:
            page.click("[data-testid=export-ledger]")
        exported = tmp_path / "exported.json"
        download.value.save_as(str(exported))
    finally:
        phone.close()
    for kind, counts in taps.items():
        assert max(counts) <= TARGETS[kind], (kind, counts)
    expected = make_game(names, lines, convention="leningrad", target=50)
    entries = api.load(exported).entries[: len(lines)]
    assert [e.deal for e in entries] == [e.deal for e in expected.entries]
    assert [e.dealer for e in entries] == [e.dealer for e in expected.entries]


def test_hostile_files_and_lines_are_one_line_and_change_nothing(
    phone: Any, server: StaticServer, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    phone.goto(server.url)
    _ready(phone)
    games = phone.locator("#games li")
    before = games.count()
    said = phone.locator("#import-said")
    junk = tmp_path / "junk.json"
    for name, data in (
        ("bytes.json", b"\xff\xfe\x00\x01garbage"),
        ("notledger.json", b'{"players": ["Anna", "Boris"]}'),
        ("deep.json", b"[" * 100_000),
        ("huge.json", b" " * (17 * 1024 * 1024)),
    ):
        junk = tmp_path / name
        junk.write_bytes(data)
        phone.set_input_files("input[type=file][data-testid=import-ledger]", str(junk))
        expect(said).not_to_have_text("", timeout=WAIT)
        text = said.inner_text()
        assert "\n" not in text and "Traceback" not in text, text
        expect(games).to_have_count(before)
        phone.evaluate("document.getElementById('import-said').textContent = ''")
    # a game, a refused line, in Russian: the page's words and the engine's
    phone.click("#lang")
    expect(phone.locator("#new-game h2")).to_have_text("Новая игра")
    _start(phone, "Анна Борис Вера")
    said = _refused(phone, "game Зоя 7h 7 Борис:w Вера:p", "Зоя")
    assert phone.locator("body").get_attribute("data-deals") == "0", said
    _record(phone, "game Анна 7h 7 Борис:w Вера:p", 1)
    expect(phone.locator("#status")).to_contain_text("Сочинка")
    expect(phone.get_by_test_id("deal:1")).to_contain_text("игра Анна 7ч 7")
    # the page's own messages decline the names as the engine's do, as serve's pages do
    for testid in ("declarer:Борис", "contract:6s", "role:Вера:w", "tricks:6", "record"):
        phone.get_by_test_id(testid).click()
    expect(phone.locator("body")).to_have_attribute("data-deals", "2", timeout=WAIT)
    expect(phone.locator("#message")).to_contain_text("висты на Бориса", timeout=WAIT)
    phone.get_by_test_id("view:watch").click()
    expect(phone.locator("#last-writes")).to_contain_text("висты на Бориса", timeout=WAIT)
    expect(phone.locator("#payments")).to_contain_text("Анне")
    assert "{" not in phone.locator("#game").inner_text()
    _shot(phone, "russian-game")


def test_serve_offers_the_app_and_its_policy_lets_the_browsers_python_run(
    phone: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``prefcalc serve`` with the app built: /app/ runs under the server's headers (the
    app's Content-Security-Policy allows WebAssembly and nothing from elsewhere)."""
    from playwright.sync_api import expect

    from prefcalc import app as app_package
    from tests.browser_support import serve as _serve
    from tests.support import sample_game

    built = _built()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = app_package.default_dir()
    folder.parent.mkdir(parents=True)
    folder.symlink_to(built, target_is_directory=True)
    _path, served = _serve(tmp_path, sample_game())
    try:
        answer = phone.goto(served.url + "/app/")
        assert "wasm-unsafe-eval" in answer.headers["content-security-policy"]
        _ready(phone)
        _start(phone, "Anna Boris Vera")
        _record(phone, "game Anna 7h 7 Boris:w Vera:p", 1)
        phone.get_by_test_id("summary").click()  # the folded sheet, opened
        expect(phone.locator("[data-testid=sheet] svg")).to_have_count(1, timeout=WAIT)
    finally:
        served.stop()


def test_two_windows_of_one_game_never_lose_a_deal(
    browser: Any, server: StaticServer, tmp_path: Path
) -> None:
    """Two windows of the app on one phone, the same game open in both: a deal recorded in
    one shows in the other; a window that did not hear of it (no BroadcastChannel) has its
    deal refused in one line and the game shown again, never written over the other's."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, is_mobile=True)
    try:
        one = context.new_page()
        one.goto(server.url)
        _ready(one)
        _start(one, "Anna Boris Vera")
        game = one.url.partition("#")[2]
        two = context.new_page()
        two.goto(server.url + "#" + game)
        _ready(two)
        expect(two.locator("body")).to_have_attribute("data-deals", "0", timeout=WAIT)
        _record(one, "game Anna 7h 7 Boris:w Vera:p", 1)
        expect(two.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
        _record(two, "passes Anna=2 Boris=5 Vera=3", 2)
        expect(one.locator("body")).to_have_attribute("data-deals", "2", timeout=WAIT)
        # a third window that hears nothing of the others
        deaf = context.new_page()
        deaf.add_init_script("delete window.BroadcastChannel")
        deaf.goto(server.url + "#" + game)
        _ready(deaf)
        expect(deaf.locator("body")).to_have_attribute("data-deals", "2", timeout=WAIT)
        _record(one, "misere Vera 0", 3)
        _refused(deaf, "game Boris 6s 6 Vera:w Anna:p", "another window")
        expect(deaf.locator("body")).to_have_attribute("data-deals", "3", timeout=WAIT)
        _record(deaf, "game Boris 6s 6 Vera:w Anna:p", 4)
        # nor do the others hear of the deaf window's deal: their next write is refused too
        _refused(one, "game Vera 6c 6 Anna:w Boris:p", "another window")
        expect(one.locator("body")).to_have_attribute("data-deals", "4", timeout=WAIT)
        _record(one, "game Vera 6c 6 Anna:w Boris:p", 5)
        with one.expect_download() as download:
            one.click("[data-testid=export-ledger]")
        exported = tmp_path / "two.json"
        download.value.save_as(str(exported))
        assert _show_json(tmp_path, exported)["deals"] == 5
    finally:
        context.close()


TAMPER = """async (name) => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open("prefcalc"); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const tx = db.transaction("games", "readwrite");
  const games = tx.objectStore("games");
  const kept = await new Promise((ok) => { const r = games.get(name); r.onsuccess = () => ok(r.result); });
  kept.balance = { ...kept.balance, Anna: "1000" };
  kept.writtenWith = "0.0.1";
  games.put(kept);
  await new Promise((ok) => { tx.oncomplete = ok; });
  db.close();
}"""
"""What a phone keeps of a game as another prefcalc would have left it: the money it scored."""


def test_a_game_another_prefcalc_scored_otherwise_is_said_so(
    phone: Any, server: StaticServer
) -> None:
    """Locked rules: the phone keeps with every write the money the prefcalc writing it
    scored; opened by a prefcalc that scores the same record otherwise, the page says so,
    and writes nothing."""
    from playwright.sync_api import expect

    phone.goto(server.url)
    _ready(phone)
    _start(phone, "Anna Boris Vera")
    _record(phone, "game Anna 7h 7 Boris:w Vera:p", 1)
    expect(phone.get_by_test_id("rescored")).to_be_hidden()
    name = phone.locator("body").get_attribute("data-game")
    phone.evaluate(TAMPER, name)
    phone.reload()
    _ready(phone)
    said = phone.get_by_test_id("rescored")
    expect(said).to_be_visible(timeout=WAIT)
    expect(said).to_contain_text("otherwise than prefcalc 0.0.1")
    expect(phone.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
