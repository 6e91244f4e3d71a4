"""``prefcalc serve --tournament`` in a real browser (Debian's chromium, Playwright) at a
phone's viewport (issue 28): the hall's page shows the standings and every table, and a deal
recorded through a table's score link moves the hall's standings live."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from prefcalc import api
from prefcalc.rules.model import active_players
from prefcalc.tournament import api as tournament
from tests.browser_support import NARROW, PHONE, WAIT, no_horizontal_scroll, shot

pytestmark = pytest.mark.usefixtures("data_home")

PLAYERS = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"]


def token_of(ledger: Path) -> str:
    return f"hall-browser-token-{ledger.stem}"


class HallServer:
    """uvicorn in a thread on 127.0.0.1 serving the hall (as browser_support.Server does)."""

    def __init__(self, folder: Path) -> None:
        import uvicorn

        from prefcalc.web import listen
        from prefcalc.web.hall import create_hall_app

        self.app = create_hall_app(folder, token_of, poll_interval=0.05)
        self.sock = listen("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        ready = threading.Event()
        loops: list[asyncio.AbstractEventLoop] = []

        class Uvicorn(uvicorn.Server):
            async def startup(self, sockets: Any = None) -> None:
                await super().startup(sockets)
                loops.append(asyncio.get_running_loop())
                ready.set()

        config = uvicorn.Config(self.app, access_log=False, log_level="warning")
        self.server = Uvicorn(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        assert ready.wait(60), "the server did not start"
        self.loop = loops[0]

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.app.state.hall.close)
        self.server.should_exit = True
        self.thread.join(60)
        self.sock.close()


@pytest.fixture
def hall(tmp_path: Path) -> Any:
    folder = tmp_path / "cup"
    tournament.new(folder, PLAYERS, rounds=2, deals=4, convention="sochi", seed=7)
    tournament.draw(folder)
    server = HallServer(folder)
    yield folder, server
    server.stop()


def test_the_hall_on_a_phone_follows_a_deal_scored_at_a_table(hall: Any, phones: Any) -> None:
    folder, server = hall
    page = phones(PHONE)
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=status][data-state=live]", timeout=WAIT)
    page.wait_for_selector("body[data-round='1']", timeout=WAIT)
    rows = page.get_by_test_id("standing")
    assert rows.count() == len(PLAYERS)
    cards = page.get_by_test_id("table-card")
    assert cards.count() == 2
    assert cards.nth(0).get_attribute("data-state") == "playing"
    assert all(rows.nth(k).get_attribute("data-points") == "0" for k in range(len(PLAYERS)))
    no_horizontal_scroll(page)
    shot(page, "hall-390-before", full=True)

    ledger = folder / "r1-t1.json"
    game = api.load(ledger)
    declarer, whister, _passer = active_players(game, game.next_dealer)
    scorer = phones(PHONE)
    scorer.goto(f"{server.url}/t/1/1/score#token={token_of(ledger)}")
    scorer.wait_for_selector("[data-testid=status][data-state=live]", timeout=WAIT)
    for testid in (f"declarer:{declarer}", "contract:7h", "tricks:7", f"role:{whister}:w"):
        scorer.get_by_test_id(testid).click()
    scorer.get_by_test_id("record").click()
    scorer.wait_for_selector("body[data-deals='1']", timeout=WAIT)

    page.wait_for_selector("body[data-deals='1']", timeout=WAIT)  # live: no reload
    assert cards.nth(0).get_attribute("data-deals") == "1"
    expected = tournament.standings(folder).rows
    shown = [
        (rows.nth(k).get_attribute("data-name"), rows.nth(k).get_attribute("data-points"))
        for k in range(len(PLAYERS))
    ]
    from prefcalc.tournament.text import exact

    assert shown == [(r.name, exact(r.points)) for r in expected]
    assert any(points != "0" for _name, points in shown)
    shot(page, "hall-390-after", full=True)
    narrow = phones(NARROW)
    narrow.goto(server.url + "/")
    narrow.wait_for_selector("body[data-deals='1']", timeout=WAIT)
    no_horizontal_scroll(narrow)
    shot(narrow, "hall-360", full=True)


LONG = "Konstantinopolsky"


def _whole_word_lines(page: Any, selector: str, word: str) -> int:
    """How many lines ``word`` takes in the element at ``selector`` (1: never broken)."""
    script = """([selector, word]) => {
      const node = document.querySelector(selector);
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const at = text.data.indexOf(word);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + word.length);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }
      return 0;
    }"""
    lines: int = page.evaluate(script, [selector, word])
    return lines


@pytest.mark.parametrize(
    ("viewport", "lang", "long"),
    [(PHONE, "ru", LONG), (NARROW, "ru", "Константинопольский"), (NARROW, "en", LONG)],
)
def test_a_deal_over_and_a_long_name_on_a_phone(
    tmp_path: Path, phones: Any, viewport: dict[str, int], lang: str, long: str
) -> None:
    """The hall of a table that played a deal too many keeps its standings and marks the
    table; a long name is never broken inside a word, the playing mark is on the points (as
    the CLI's), never alone on a line after a name; raw scoring shows one column of points
    (they are the whists)."""
    from tournament_support import play

    folder = tmp_path / "cup"
    name = ("Dmitry " if long.isascii() else "Дмитрий ") + long
    players = ["Anna", "Boris", "Vera", name, "Egor", "Fedya", "Gleb"]
    tournament.new(folder, players, rounds=2, deals=4, convention="sochi", seed=7)
    tournament.draw(folder)
    t = tournament.load(folder)
    long_table = next(tb for tb in t.draws[0].tables if name in tb.players)
    other = next(tb for tb in t.draws[0].tables if tb is not long_table)
    play(folder, other.file, 5)  # a deal over
    import prefcalc.web.hall as hallmod

    real = hallmod.create_hall_app
    hallmod.create_hall_app = lambda f, tok, **kw: real(f, tok, lang=lang, **kw)  # type: ignore[assignment]
    try:
        server = HallServer(folder)
    finally:
        hallmod.create_hall_app = real  # type: ignore[assignment]
    try:
        page = phones(viewport)
        page.goto(server.url + "/")
        page.wait_for_selector("[data-testid=status][data-state=live]", timeout=WAIT)
        page.wait_for_selector("body[data-round='1']", timeout=WAIT)
        card = page.locator(f"[data-testid=table-card][data-table='{other.table}']")
        badge = card.get_by_test_id("over")
        assert badge.is_visible()
        assert badge.inner_text() == ("1 лишняя раздача" if lang == "ru" else "1 deal over")
        assert card.get_attribute("data-state") == "finished"
        notes = page.get_by_test_id("over-notes")
        assert notes.is_visible() and "prefcalc undo" not in notes.inner_text()
        assert page.locator(
            f"[data-testid=table-card][data-table='{long_table.table}'] [data-testid=over]"
        ).is_hidden()
        assert page.get_by_test_id("standing").count() == len(players)
        assert page.locator("#standings th:nth-child(4)").is_hidden()  # raw: points = whists
        row = f"[data-testid=standing][data-name='{name}'] td.name"
        assert _whole_word_lines(page, row, long) == 1
        # a player still playing: the mark on his points (as the CLI's), not after his name
        mark = page.locator(f"[data-testid=standing][data-name='{name}'] td.points .mark")
        assert mark.inner_text() == "*"  # his table is still playing
        assert "*" not in page.locator(row).inner_text()
        balance = f"[data-table='{long_table.table}'] tr[data-name='{name}'] td"
        assert _whole_word_lines(page, balance, long) == 1
        no_horizontal_scroll(page)
        shot(page, f"hall-over-{lang}-{viewport['width']}", full=True)
    finally:
        server.stop()


def test_a_round_drawn_in_another_terminal_appears_on_the_phone(
    tmp_path: Path, phones: Any
) -> None:
    """``prefcalc tournament draw`` while the hall is open on a phone: the page shows round
    2's tables without a reload, their cards served under ``/t/2/<table>/``."""
    from tournament_support import play

    folder = tmp_path / "cup"
    tournament.new(folder, PLAYERS, rounds=2, deals=1, convention="sochi", seed=7)
    tournament.draw(folder)
    for tb in tournament.load(folder).draws[0].tables:
        play(folder, tb.file, 1)
    server = HallServer(folder)
    try:
        page = phones(NARROW)
        page.goto(server.url + "/")
        page.wait_for_selector("body[data-round='1']", timeout=WAIT)
        tournament.draw(folder)
        page.wait_for_selector("body[data-round='2']", timeout=WAIT)  # live: no reload
        cards = page.get_by_test_id("table-card")
        drawn = tournament.load(folder).draws[1].tables
        assert cards.count() == len(drawn)
        for k, tb in enumerate(drawn):
            assert cards.nth(k).get_attribute("data-state") == "playing"
            link = cards.nth(k).locator("[data-slot=watch]").get_attribute("href")
            assert link == f"/t/2/{tb.table}/"
        sheet = page.request.get(f"{server.url}/t/2/{drawn[0].table}/api/game")
        assert sheet.status == 200  # the new round's table is served
        no_horizontal_scroll(page)
        shot(page, "hall-360-round-2", full=True)
    finally:
        server.stop()
