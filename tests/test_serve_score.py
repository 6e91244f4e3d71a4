"""The score page of ``prefcalc serve`` in a real browser (Debian's chromium, Playwright) at
the phones' viewports, in English and in Russian (issue 25): an evening of 20 deals by taps
with the taps counted per kind of deal and no scrolling; a past deal edited with that deal's
own table, a deal inserted before it, one deleted and put back; a double tap and a double
Undo that change the ledger once, and a tap whose answer was lost; a restart of the server;
a corrupt ledger and a refused stream said stale until they recover; the Host and the token
refused. The page is driven by its testing contract (``data-testid``; docs/phones.md, "Testing
contract")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from prefcalc import api
from prefcalc.store.ledger import game_to_json_text
from tests.browser_support import (
    EVENING,
    FOREIGN,
    NARROW,
    PHONE,
    TARGETS,
    TOKEN,
    WAIT,
    Server,
    Taps,
    deal_by_taps,
    no_horizontal_scroll,
    rect,
    serve,
    shot,
)
from tests.support import make_game

pytestmark = pytest.mark.usefixtures("data_home")


def _active(path: Path) -> list[str]:
    sheet = api.sheet(api.load(path))
    return [p for p in sheet.players if p not in sheet.sitting_out]


def _deal(path: Path, kind: str, args: tuple[Any, ...], tap: Taps) -> str:
    """Tap one deal of the evening (Record included); return it in the English shorthand."""
    return deal_by_taps(_active(path), kind, args, tap)


@pytest.mark.parametrize(
    ("lang", "viewport", "names", "convention"),
    [
        ("en", PHONE, ["Anna", "Boris", "Vera"], "leningrad"),
        ("ru", NARROW, ["Аня", "Боря", "Вера", "Глеб"], "leningrad"),
    ],
    ids=["en-390x844-three", "ru-360x740-four"],
)
def test_an_evening_by_taps_on_one_screen(
    phones: Any,
    tmp_path: Path,
    lang: str,
    viewport: dict[str, int],
    names: list[str],
    convention: str,
) -> None:
    from playwright.sync_api import expect

    page = phones(viewport)
    path, server = serve(
        tmp_path, make_game(names, [], convention=convention, target=50), lang=lang
    )
    taps: dict[str, list[int]] = {}
    lines: list[str] = []
    tag = f"{lang}-{viewport['width']}"
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        shot(page, f"score-{tag}-start")
        # who deals next, as a table says it (the status line is kept short: it is on screen)
        dealer = "сдаёт Аня" if lang == "ru" else "Anna deals next"
        expect(page.locator("#status")).to_contain_text(dealer)
        expect(page.locator("#status")).not_to_contain_text("следующим")
        for number, (kind, args) in enumerate(EVENING, 1):
            tap = Taps(page)
            line = _deal(path, kind, args, tap)
            lines.append(line)
            taps.setdefault(kind, []).append(tap.count)
            expect(page.locator("body")).to_have_attribute("data-deals", str(number), timeout=WAIT)
            recorded = "№{} записана: " if lang == "ru" else "№{} recorded: "
            expect(page.locator("#message")).to_contain_text(recorded.format(number), timeout=WAIT)
            # the next deal starts as a game, whatever this one was
            expect(page.get_by_test_id("kind:game")).to_have_attribute("aria-selected", "true")
            if kind == "all-pass":  # Leningrad: 7 at least after an all-pass deal
                expect(page.get_by_test_id("contract:6s")).to_have_count(0)
                expect(page.get_by_test_id("contract:7s")).to_have_count(1)
            if number in (2, 9):
                shot(page, f"score-{tag}-after-deal-{number}")
            assert page.evaluate("scrollY") == 0
        no_horizontal_scroll(page)
        shot(page, f"score-{tag}-evening")
        # the summary opens the whole sheet with a tap, and folds it again
        page.get_by_test_id("summary").click()
        expect(page.get_by_test_id("sheet").locator("svg text.name")).to_have_count(len(names))
        shot(page, f"score-{tag}-sheet-open", full=True)
        page.get_by_test_id("summary").click()
        expect(page.get_by_test_id("sheet")).to_be_hidden()
        # the night's list, newest first, in the page's language
        first_row = page.locator("[data-testid^='deal:']").first
        expect(first_row).to_have_attribute("data-testid", "deal:20")
        if lang == "ru":
            expect(page.get_by_test_id("deal:1")).to_contain_text("игра")
            expect(page.get_by_test_id("deal:5")).to_contain_text("мизер")
        page.get_by_test_id("deal:1").scroll_into_view_if_needed()
        shot(page, f"score-{tag}-list")
        if lang == "ru":  # every word a Russian player reads is Russian (the names are)
            said = page.evaluate("document.body.innerText") + " ".join(
                page.evaluate(
                    "() => Array.from(document.querySelectorAll('[aria-label], [title],"
                    " [placeholder]'), (e) => [e.getAttribute('aria-label'), e.title,"
                    " e.getAttribute('placeholder')].join(' '))"
                )
            )
            latin = set(re.findall(r"[A-Za-z][A-Za-z.]*", said)) - {"prefcalc"}
            assert latin == set(), latin
        testids = page.evaluate(
            "() => Array.from(document.querySelectorAll('[data-testid]'), (e) => e.dataset.testid)"
        )
    finally:
        server.stop()
    for kind, counts in taps.items():
        assert max(counts) <= TARGETS[kind], (kind, counts)
    documented = Path(__file__).resolve().parent.parent / "docs" / "phones.md"
    text = documented.read_text(encoding="utf-8")
    contract = text[text.index("**Testing contract.**") :].split("\n\n")[0]
    for testid in testids:  # every control the page has is in the documented contract
        assert f"`{testid.split(':')[0]}" in contract, testid
    assert set(taps) == set(TARGETS)
    expected = make_game(names, lines, convention=convention, target=50)
    assert [e.deal for e in api.load(path).entries] == [e.deal for e in expected.entries]
    assert [e.dealer for e in api.load(path).entries] == [e.dealer for e in expected.entries]


def test_a_past_deal_is_edited_with_its_own_table(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = phones(PHONE)
    four = ["Anna", "Boris", "Vera", "Gleb"]
    deals = [
        "game Boris 7h 7 Vera:w Gleb:p",  # Anna dealt and sat out
        "game Vera 6s 6 Gleb:w Anna:p",  # Boris dealt and sat out
        "passes Anna=2 Boris=5 Gleb=3",  # Vera dealt
    ]
    path, server = serve(tmp_path, make_game(four, deals))
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.locator("body")).to_have_attribute("data-deals", "3", timeout=WAIT)
        # the next deal is Gleb's: Gleb sits out, Boris may declare
        expect(page.get_by_test_id("declarer:Boris")).to_have_count(1)
        expect(page.get_by_test_id("declarer:Gleb")).to_have_count(0)
        page.get_by_test_id("deal:2").click()
        page.get_by_test_id("edit").click()
        assert page.evaluate("scrollY") == 0  # back to the controls, the deal on them
        # deal 2's own table: Boris dealt it and sat out; Gleb held cards
        expect(page.get_by_test_id("declarer:Boris")).to_have_count(0)
        for name in ("Anna", "Vera", "Gleb"):
            expect(page.get_by_test_id(f"declarer:{name}")).to_have_count(1)
        for pressed in ("declarer:Vera", "contract:6s", "tricks:6", "role:Gleb:w", "role:Anna:p"):
            expect(page.get_by_test_id(pressed)).to_have_attribute("aria-pressed", "true")
        expect(page.get_by_test_id("record")).to_have_text("Save deal 2")
        page.get_by_test_id("tricks:7").click()
        expect(page.locator("#message")).to_have_text("edit 2 game Vera 6s 7 Gleb:w Anna:p")
        shot(page, "score-edit-deal-2")
        page.get_by_test_id("record").click()
        expect(page.locator("#message")).to_contain_text("№2 changed: ", timeout=WAIT)
        second = api.load(path).entries[1]
        assert second.dealer == "Boris"
        assert (
            second.deal
            == make_game(four, [deals[0], "game Vera 6s 7 Gleb:w Anna:p"]).entries[1].deal
        )
        expect(page.get_by_test_id("record")).to_have_text("Record")
        expect(page.get_by_test_id("declarer:Gleb")).to_have_count(0)  # the next deal again

    finally:
        server.stop()


def test_a_deal_is_inserted_before_another_deleted_and_put_back(
    phones: Any, tmp_path: Path
) -> None:
    """At three (nobody sits out, so the later deals stay legal when the dealers move on)."""
    from playwright.sync_api import expect

    page = phones(PHONE)
    three = ["Anna", "Boris", "Vera"]
    deals = ["game Anna 7h 7 Boris:w Vera:p", "misere Boris 0", "passes Anna=2 Boris=5 Vera=3"]
    path, server = serve(tmp_path, make_game(three, deals))
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.locator("body")).to_have_attribute("data-deals", "3", timeout=WAIT)
        # a forgotten deal, inserted before deal 2 (with deal 2's table: Boris dealt it)
        page.get_by_test_id("deal:2").click()
        page.get_by_test_id("insert").click()
        assert page.evaluate("scrollY") == 0
        expect(page.get_by_test_id("record")).to_have_text("Insert as deal 2")
        page.get_by_test_id("kind:passes").click()
        page.get_by_test_id("passes:Anna:4").click()
        page.get_by_test_id("passes:Boris:4").click()
        expect(page.get_by_test_id("passes:Vera:2")).to_have_attribute("aria-pressed", "true")
        shot(page, "score-insert-before-2")
        page.get_by_test_id("record").click()
        expect(page.locator("body")).to_have_attribute("data-deals", "4", timeout=WAIT)
        expect(page.locator("#message")).to_contain_text("№2 inserted: ")
        entries = api.load(path).entries
        assert entries[1].dealer == "Boris"
        assert entries[1].deal == make_game(three, ["passes Anna=4 Boris=4 Vera=2"]).entries[0].deal
        assert [e.deal for e in entries[2:]] == [
            e.deal for e in make_game(three, deals).entries[1:]
        ]

        # deal 2 deleted by a tap, and put back by one
        before = [e.deal for e in api.load(path).entries]
        page.get_by_test_id("deal:2").click()
        page.get_by_test_id("delete").click()
        expect(page.locator("body")).to_have_attribute("data-deals", "3", timeout=WAIT)
        expect(page.locator("#message")).to_contain_text("deleted deal 2")
        shot(page, "score-deleted-put-back")
        page.get_by_test_id("put-back").click()
        expect(page.locator("body")).to_have_attribute("data-deals", "4", timeout=WAIT)
        expect(page.locator("#message")).to_contain_text("№2 put back: ")
        assert [e.deal for e in api.load(path).entries] == before
    finally:
        server.stop()


def test_a_double_tap_and_a_double_undo_change_the_ledger_once(phones: Any, tmp_path: Path) -> None:
    """Two taps at the same instant (two clicks in one task, before any answer): Record and
    Undo are disabled from the first tap until its answer, and the page sends each line once
    with its id. A tap whose answer was lost (the server wrote, the phone never heard) sent
    again carries the same id: the server answers it once."""
    from playwright.sync_api import expect

    page = phones(PHONE)
    path, server = serve(tmp_path, make_game(["Anna", "Boris", "Vera"], []))
    twice = "(id) => { const b = document.querySelector(`[data-testid='${id}']`); b.click(); b.click(); }"
    sent: list[dict[str, str]] = []
    page.on(
        "request",
        lambda r: (
            sent.append(json.loads(r.post_data or "{}")) if r.url.endswith("/api/lines") else None
        ),
    )
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        for testid in ("declarer:Anna", "contract:7h", "tricks:7", "role:Vera:w"):
            page.get_by_test_id(testid).click()
        page.evaluate(twice, "record")
        expect(page.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
        for testid in ("declarer:Boris", "contract:6s", "tricks:6", "role:Anna:w"):
            page.get_by_test_id(testid).click()
        page.get_by_test_id("record").click()
        expect(page.locator("body")).to_have_attribute("data-deals", "2", timeout=WAIT)
        expect(page.get_by_test_id("undo")).to_be_enabled()
        assert len(api.load(path).entries) == 2
        page.evaluate(twice, "undo")
        expect(page.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
        expect(page.get_by_test_id("redo")).to_be_visible(timeout=WAIT)
        assert len(api.load(path).entries) == 1  # one undo, not two
        assert [s["line"] for s in sent] == [
            "game Anna 7h 7 Boris:p Vera:w",
            "game Boris 6s 6 Vera:p Anna:w",
            "undo",
        ]
        assert len({s["id"] for s in sent}) == 3
        # put back with one tap
        page.get_by_test_id("redo").click()
        expect(page.locator("body")).to_have_attribute("data-deals", "2", timeout=WAIT)
        expect(page.locator("#message")).to_contain_text("№2 put back: ")

        # a lost answer: the server records the deal, the phone sees the connection fail; the
        # page asks what became of its request (GET /api/lines/{id}) and says what happened
        lost: list[int] = []

        def lose(route: Any) -> None:
            if not lost:
                lost.append(route.fetch().status)  # the server carries the line out...
                route.abort("connectionreset")  # ...and its answer never arrives
            else:
                route.continue_()

        page.route("**/api/lines", lose)
        for testid in ("declarer:Vera", "contract:8d", "tricks:8", "role:Anna:w"):
            page.get_by_test_id(testid).click()
        with page.expect_response("**/api/lines/*", timeout=WAIT) as asked:
            page.get_by_test_id("record").click()
        assert asked.value.status == 200
        expect(page.locator("#message")).to_contain_text("№3 recorded: ", timeout=WAIT)
        expect(page.locator("#message")).not_to_contain_text("cannot be reached")
        assert lost == [200] and len(api.load(path).entries) == 3  # written once
        page.unroute("**/api/lines")
        # the same deal again is a new deal, with a new id, and is recorded
        for testid in ("declarer:Boris", "contract:6s", "tricks:6", "role:Vera:w"):
            page.get_by_test_id(testid).click()
        page.get_by_test_id("record").click()
        expect(page.locator("body")).to_have_attribute("data-deals", "4", timeout=WAIT)
        assert sent[-1]["id"] != sent[-2]["id"]
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", PHONE), ("ru", NARROW)], ids=["en-390x844", "ru-360x740"]
)
def test_a_lost_request_is_said_as_it_is_and_sent_again_once(
    phones: Any, tmp_path: Path, lang: str, viewport: dict[str, int]
) -> None:
    """A request that never reached the server: asked by its id, the server knows none, and
    the bar says nothing was written. A server that cannot be reached at all: the bar says
    so in the page's words (never the browser's «Failed to fetch»), and the same tap again,
    once the server answers, is carried out once (the same id)."""
    from playwright.sync_api import expect

    page = phones(viewport)
    names = ["Аня", "Боря", "Вера"] if lang == "ru" else ["Anna", "Boris", "Vera"]
    a, _, v = names
    path, server = serve(tmp_path, make_game(names, []), lang=lang)
    sent: list[dict[str, str]] = []
    page.on(
        "request",
        lambda r: (
            sent.append(json.loads(r.post_data or "{}")) if r.url.endswith("/api/lines") else None
        ),
    )
    message = page.locator("#message")
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        for testid in (f"declarer:{a}", "contract:7h", "tricks:7", f"role:{v}:w"):
            page.get_by_test_id(testid).click()
        line = message.get_attribute("data-line")

        # never sent: the server has no answer for that id (404), nothing was written
        page.route("**/api/lines", lambda route: route.abort("connectionrefused"))
        with page.expect_response("**/api/lines/*", timeout=WAIT) as asked:
            page.get_by_test_id("record").click()
        assert asked.value.status == 404
        nothing = (
            "до сервера не дошло: ничего не записано"
            if lang == "ru"
            else ("this did not reach the server: nothing was written")
        )
        expect(message).to_have_text(nothing, timeout=WAIT)
        assert api.load(path).entries == ()

        # the server cannot be reached at all: said in the page's words
        page.route("**/api/lines/*", lambda route: route.abort("connectionrefused"))
        page.get_by_test_id("record").click()
        unreachable = "сервер недоступен" if lang == "ru" else "the server cannot be reached"
        expect(message).to_contain_text(unreachable, timeout=WAIT)
        assert "fetch" not in message.inner_text().lower()
        expect(message).to_have_class(re.compile(r"\berror\b"))
        shot(page, f"score-{lang}-{viewport['width']}-unreachable")
        assert api.load(path).entries == ()

        # back: the same tap is the same request, carried out once
        page.unroute("**/api/lines")
        page.unroute("**/api/lines/*")
        page.get_by_test_id("record").click()
        expect(page.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
        assert len(api.load(path).entries) == 1
        assert [s["line"] for s in sent] == [line, line, line]
        assert len({s["id"] for s in sent}) == 1
    finally:
        server.stop()


def test_a_late_answer_about_a_deal_never_covers_the_undo_that_followed(
    phones: Any, tmp_path: Path
) -> None:
    """Record, then Undo before the page has read the recorded deal back: the reading that
    says what the deal wrote comes after the undo, and must not replace the undo's toast (with
    its Put back) by "№2 recorded: nothing written". The reading is held at a chosen point."""
    from playwright.sync_api import expect

    page = phones(PHONE)
    path, server = serve(
        tmp_path, make_game(["Anna", "Boris", "Vera"], ["game Anna 7h 7 Boris:p Vera:w"])
    )
    held: list[Any] = []
    hold = [False]

    def reading(route: Any) -> None:
        if hold[0]:
            held.append(route)
        else:
            route.continue_()

    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        page.route("**/api/reading*", reading)
        for testid in ("declarer:Boris", "contract:6s", "tricks:6", "role:Anna:w"):
            page.get_by_test_id(testid).click()
        hold[0] = True
        with page.expect_response("**/api/lines", timeout=WAIT):
            page.get_by_test_id("record").click()
        expect(page.get_by_test_id("undo")).to_be_enabled(timeout=WAIT)
        with page.expect_response("**/api/lines", timeout=WAIT):
            page.get_by_test_id("undo").click()
        expect(page.get_by_test_id("redo")).to_be_visible(timeout=WAIT)
        assert held, "the reading after Record was held"
        expect(page.locator("body")).to_have_attribute("data-reading", "true")
        hold[0] = False
        for route in held:
            route.continue_()
        # every reading done, and what followed it (the late toast, if any) with it
        expect(page.locator("body")).to_have_attribute("data-reading", "false", timeout=WAIT)
        expect(page.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
        expect(page.get_by_test_id("redo")).to_be_visible(timeout=WAIT)
        expect(page.locator("#message")).not_to_contain_text("recorded")
        assert len(api.load(path).entries) == 1
    finally:
        server.stop()


def test_a_page_draws_one_state_per_reading_and_each_state_once(
    phones: Any, tmp_path: Path
) -> None:
    """A page asks for one reading (/api/reading: the sheet, the seats, the deals and the
    settlement of one state of the ledger) and never for the parts, so a write between them
    can never give it the sheet after the write and the seats before it (at four the dealer
    sits out, and he changes with every deal). A stream that comes back greets with the
    version already drawn: no reading; a write in another terminal: one."""
    from playwright.sync_api import expect

    from prefcalc.table.lines import run_line

    page = phones(NARROW)
    path, server = serve(tmp_path, make_game(["Аня", "Боря", "Вера", "Глеб"], []), lang="ru")
    body = page.locator("body")
    status = page.get_by_test_id("status")
    asked: list[str] = []
    page.on(
        "request",
        lambda r: (
            asked.append(r.url.split("?")[0].removeprefix(server.url)) if "/api/" in r.url else None
        ),
    )
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(status).to_have_attribute("data-state", "live", timeout=WAIT)
        expect(body).to_have_attribute("data-reading", "false", timeout=WAIT)
        expect(page.get_by_test_id("declarer:Аня")).to_have_count(0)  # Аня deals, sits out
        version = body.get_attribute("data-version")
        assert version
        server = server.restart()  # the stream is cut and comes back: the same version
        expect(status).to_have_attribute("data-state", "live", timeout=WAIT)
        readings = asked.count("/api/reading")
        run_line(path, "игра Боря 6п 6 Вера:в Глеб:п")  # `prefcalc play` in another terminal
        expect(body).to_have_attribute("data-deals", "1", timeout=WAIT)
        expect(body).to_have_attribute("data-reading", "false", timeout=WAIT)
        assert asked.count("/api/reading") == readings + 1, asked
        assert body.get_attribute("data-version") != version
        # the next deal's table, whole: Боря deals and sits out
        expect(page.get_by_test_id("declarer:Аня")).to_be_visible()
        expect(page.get_by_test_id("declarer:Боря")).to_have_count(0)
        assert set(asked) == {"/api/reading", "/api/events"}, asked
    finally:
        server.stop()


def test_a_tap_survives_a_reading_drawn_between_its_press_and_release(
    phones: Any, tmp_path: Path
) -> None:
    """Every reading draws the controls again. A finger pressed on Vera while a deal written
    in another terminal is read and drawn, then lifted: the tap chose Vera (the button was
    brought up to date in place, not replaced: a click needs its press and its release on the
    same element)."""
    from playwright.sync_api import expect

    from prefcalc.table.lines import run_line

    page = phones(PHONE)
    path, server = serve(tmp_path, make_game(["Anna", "Boris", "Vera"], []))
    body = page.locator("body")
    vera = page.get_by_test_id("declarer:Vera")
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        expect(body).to_have_attribute("data-reading", "false", timeout=WAIT)
        box = rect(vera)
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        run_line(path, "game Anna 7h 7 Boris:w Vera:p")  # `prefcalc play` in another terminal
        expect(body).to_have_attribute("data-deals", "1", timeout=WAIT)
        expect(body).to_have_attribute("data-reading", "false", timeout=WAIT)
        assert rect(vera) == box
        page.mouse.up()
        expect(vera).to_have_attribute("aria-pressed", "true")
    finally:
        server.stop()


def test_a_restart_keeps_the_page_working_with_the_same_link(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = phones(PHONE)
    path, server = serve(tmp_path, make_game(["Anna", "Boris", "Vera"], []))
    status = page.get_by_test_id("status")
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(status).to_have_attribute("data-state", "live", timeout=WAIT)
        server.stop()
        expect(status).to_have_attribute("data-state", "stale", timeout=WAIT)
        expect(status).to_have_text("reconnecting")
        server = server.restart()
        expect(status).to_have_attribute("data-state", "live", timeout=WAIT)
        for testid in ("declarer:Anna", "contract:7h", "tricks:7", "role:Vera:w", "record"):
            page.get_by_test_id(testid).click()
        expect(page.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
        assert len(api.load(path).entries) == 1
    finally:
        server.stop()


def test_a_corrupt_ledger_and_a_refused_stream_are_stale_until_they_recover(
    phones: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page = phones(NARROW)
    game = make_game(["Аня", "Боря", "Вера"], ["game Аня 7h 7 Боря:w Вера:p"])
    path, server = serve(tmp_path, game, lang="ru", max_watchers=1)
    status = page.get_by_test_id("status")
    good = path.read_bytes()
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(status).to_have_attribute("data-state", "live", timeout=WAIT)
        expect(page.get_by_test_id("summary")).to_contain_text("Аня")
        # the ledger broken by hand: the page says so, in one line, and is not live
        path.write_text('{"players": ["Аня"', encoding="utf-8")
        expect(status).to_have_attribute("data-state", "stale", timeout=WAIT)
        expect(status).to_have_text("не обновляется")
        problem = page.locator(".problem")
        expect(problem).to_be_visible()
        said = problem.inner_text()
        assert "\n" not in said and said.startswith(f"{path.name}: журнал повреждён: "), said
        assert str(path.parent) not in said  # the laptop's path is not the phone's business
        shot(page, "score-ru-360-corrupt-ledger")
        path.write_bytes(good)  # mended: live again
        expect(status).to_have_attribute("data-state", "live", timeout=WAIT)
        expect(problem).to_be_hidden()

        # the stream refused (503: one place, taken by a watcher), then given a place
        watcher = phones(NARROW)
        other = phones(NARROW)
        page.close()
        watcher.goto(server.url + "/")
        expect(watcher.get_by_test_id("status")).to_have_attribute(
            "data-state", "live", timeout=WAIT
        )
        other.goto(server.url + "/score#token=" + TOKEN)
        badge = other.get_by_test_id("status")
        expect(badge).to_have_attribute("data-why", "refused", timeout=WAIT)
        expect(badge).to_have_attribute("data-state", "stale")
        assert "слишком много зрителей" in (badge.get_attribute("title") or "")
        shot(other, "score-ru-360-refused-stream")
        watcher.close()  # its place is given back: the page retries and catches up
        expect(badge).to_have_attribute("data-state", "live", timeout=WAIT)
        expect(other.locator("body")).to_have_attribute("data-deals", "1", timeout=WAIT)
    finally:
        server.stop()


def test_a_page_that_could_not_read_tries_again_without_being_told(
    phones: Any, tmp_path: Path
) -> None:
    """The change that mends a ledger is announced to no one (the watch's events are
    dropped here on purpose): the page that could not read tries again by itself and comes
    back live with the mended sheet."""
    from playwright.sync_api import expect

    page = phones(NARROW)
    game = make_game(["Аня", "Боря", "Вера"], ["game Аня 7h 7 Боря:w Вера:p"])
    path, server = serve(tmp_path, game, lang="ru")
    status = page.get_by_test_id("status")
    good = path.read_bytes()
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(status).to_have_attribute("data-state", "live", timeout=WAIT)
        path.write_text('{"players": ["Аня"', encoding="utf-8")
        expect(status).to_have_attribute("data-state", "stale", timeout=WAIT)
        expect(status).to_have_attribute("data-why", "error")
        watcher = server.table.watcher
        watcher._publish = lambda message: None  # the fault: no event reaches any page
        path.write_bytes(good)
        expect(status).to_have_attribute("data-state", "live", timeout=WAIT)
        expect(page.locator("body")).to_have_attribute("data-deals", "1")
    finally:
        vars(server.table.watcher).pop("_publish", None)  # the streams hear the server stop
        server.stop()


def test_a_gender_set_in_another_terminal_declines_the_name_from_the_next_reading(
    phones: Any, tmp_path: Path
) -> None:
    """The page's own messages decline the names (``висты на {player:acc}``) by the cases
    every reading asks for: a gender set in another terminal while the page is open is in
    force from the next reading, not from the next reload (Мишель is declined as a man's name
    until set feminine: tests/test_genders.py)."""
    from playwright.sync_api import expect

    page = phones(NARROW)
    path, server = serve(tmp_path, make_game(["Мишель", "Боря", "Вера"], []), lang="ru")
    body = page.locator("body")
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        expect(body).to_have_attribute("data-reading", "false", timeout=WAIT)
        version = body.get_attribute("data-version")
        api.save(api.set_gender(api.load(path), "Мишель", "f"), path)  # `prefcalc player`
        expect(body).not_to_have_attribute("data-version", version or "", timeout=WAIT)
        expect(body).to_have_attribute("data-reading", "false", timeout=WAIT)
        for testid in ("declarer:Мишель", "contract:6s", "tricks:6", "role:Боря:w", "record"):
            page.get_by_test_id(testid).click()
        expect(page.locator("#message")).to_contain_text("№1 записана: ", timeout=WAIT)
        # a woman's Мишель is not declined: «висты на Мишель», not «на Мишеля»
        expect(page.locator("#message")).to_contain_text(re.compile(r"висты на\s+Мишель(?!я)"))
        expect(page.locator("#message")).not_to_contain_text("Мишеля")
    finally:
        server.stop()


def test_the_host_and_the_token_are_refused(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = phones(NARROW)
    game = make_game(["Аня", "Боря", "Вера"], [])
    path, server = serve(tmp_path, game, lang="ru")
    before = path.read_bytes()
    try:
        # a page of another site whose name points at this computer reads nothing
        answer = page.goto(f"http://{FOREIGN}:{server.port}/api/game")
        assert answer is not None and answer.status == 421
        assert "сервер отвечает только по своим адресам" in json.loads(answer.text())["error"]
        # a score link with the wrong token writes nothing and says why, in Russian
        page.goto(server.url + "/score#token=wrong-token-wrong-token")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        for testid in ("declarer:Аня", "contract:7h", "tricks:7", "role:Вера:w", "record"):
            page.get_by_test_id(testid).click()
        expect(page.locator("#message")).to_have_text(
            "в ссылке для записи нет ключа или он неверный: ничего не записано", timeout=WAIT
        )
        shot(page, "score-ru-360-wrong-token")
    finally:
        server.stop()
    assert path.read_bytes() == before


def test_a_refused_line_and_the_line_field(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = phones(PHONE)
    path, server = serve(tmp_path, make_game(["Anna", "Boris", "Vera"], [], target=20))
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        line = page.locator("input[name=line]")
        line.fill("a 5h 7 b:w v:p")
        line.press("Enter")
        expect(page.locator("#message")).to_have_text(
            "there is no contract level 5 in '5h' (levels are 6-10)", timeout=WAIT
        )
        expect(line).to_have_value("a 5h 7 b:w v:p")  # kept, to be corrected
        assert len(api.load(path).entries) == 0
        line.fill("p 5 3 2")  # bare tricks from the hand after the dealer: Boris, Vera, Anna
        line.press("Enter")
        expect(page.locator("#output")).to_contain_text(
            "recorded: deal 1, dealt by Anna: all-pass: Anna 2, Boris 5, Vera 3", timeout=WAIT
        )
        expect(line).to_have_value("")
        page.locator("#target").fill("30")
        page.get_by_test_id("set-target").click()
        expect(page.locator("#status")).to_contain_text("to 30", timeout=WAIT)
        page.get_by_test_id("settle").click()
        expect(page.locator("#output")).to_contain_text("Settlement", timeout=WAIT)
        no_horizontal_scroll(page)
        shot(page, "score-line-field", full=True)
    finally:
        server.stop()


def test_a_read_only_server_shows_the_page_without_writing(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = phones(PHONE)
    path, server = serve(tmp_path, make_game(["Anna", "Boris", "Vera"], []), read_only=True)
    try:
        page.goto(server.url + "/score")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        expect(page.get_by_test_id("declarer:Anna")).to_be_disabled()
        expect(page.get_by_test_id("record")).to_be_disabled()
        expect(page.locator("input[name=line]")).to_be_disabled()
    finally:
        server.stop()
    assert api.load(path).entries == ()


def test_the_sheet_folded_summary_fits_five_players(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = phones(NARROW)
    five = ["Александра", "Борислав", "Виктория", "Дмитрий", "Евгений"]
    game = make_game(five, ["game Виктория 7h 7 Дмитрий:w Евгений:p"], target=30)
    path = tmp_path / "five.json"
    path.write_text(game_to_json_text(game), encoding="utf-8")
    server = Server(path, lang="ru")
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        summary = page.get_by_test_id("summary")
        expect(summary).to_contain_text("пуля", timeout=WAIT)
        names = summary.locator(".name").all_inner_texts()
        assert len(names) == 5 and not any("…" in n for n in names), names
        assert all(n.endswith(".") or n in five for n in names), names  # Алекс., Бор.
        no_horizontal_scroll(page)
        shot(page, "score-ru-360-five-players")
    finally:
        server.stop()


def test_russian_pages_decline_names_and_write_roubles(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = phones(NARROW)
    game = make_game(["Аня", "Боря", "Вера"], ["game Аня 7h 7 Боря:w Вера:p"], currency="RUB")
    _path, server = serve(tmp_path, game, lang="ru")
    try:
        page.goto(server.url + "/score#token=" + TOKEN)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
        for testid in ("declarer:Боря", "contract:6s", "tricks:6", "role:Вера:w", "role:Аня:w"):
            page.get_by_test_id(testid).click()
        page.get_by_test_id("wtricks:Вера:3").click()
        expect(page.locator(".wtricks .auto-note")).to_have_text("у Ани: 1")  # the genitive
        expect(page.locator("#message")).to_have_text("игра Боря 6п 6 Вера:в3 Аня:в1")
        summary = page.get_by_test_id("summary").inner_text()
        assert "₽" in summary and "RUB" not in summary, summary
        page.goto(server.url + "/")
        expect(page.locator("#money tbody tr")).to_have_count(3, timeout=WAIT)
        money = page.locator("#settlement").inner_text()
        assert "₽" in money and "RUB" not in money and "−" in money, money
        expect(page.locator("#last-writes")).to_contain_text("Боря +12 висты на Аню")
        shot(page, "watch-ru-360-roubles", full=True)
    finally:
        server.stop()
