"""The score page as a table uses it (issue 32, item 6; issue 36, item 5), in Debian's
chromium at the phones' viewports, in Russian and in English: a tap held while a reading is
drawn survives it at four and at five players and after a late arrival (the controls are
reconciled by key: a player's button is that player's); a held Delete survives a new deal and
is lost with its row when the deals are renumbered, never rebound to another deal; the line
of the deal being chosen shows at the first tap after a message; Delete offered only where it
can succeed, and a refusal read whole; a row's actions never under the Record bar; the edit
bar in the page's words; who sits out in the five-player status line; every label in the
page's language."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from prefcalc import api
from prefcalc.rules.model import deal_count
from tests.browser_support import NARROW, PHONE, TOKEN, WAIT, rect, serve, shot
from tests.support import make_game

pytestmark = pytest.mark.usefixtures("data_home")

LATIN = re.compile(r"[A-Za-z]")


def _open(page: Any, url: str) -> None:
    from playwright.sync_api import expect

    page.goto(url + "/score#token=" + TOKEN)
    expect(page.get_by_test_id("status")).to_have_attribute("data-state", "live", timeout=WAIT)
    expect(page.locator("body")).to_have_attribute("data-reading", "false", timeout=WAIT)


def _press(page: Any, testid: str) -> dict[str, float]:
    """A finger put down on a control, and kept there."""
    box = rect(page.get_by_test_id(testid))
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    return box


def _drawn(page: Any, deals: int, after: str | None = None) -> None:
    """The reading of `deals` deals drawn (another state than the version `after`), and no
    other under way."""
    from playwright.sync_api import expect

    body = page.locator("body")
    if after is not None:
        expect(body).not_to_have_attribute("data-version", after, timeout=WAIT)
    expect(body).to_have_attribute("data-deals", str(deals), timeout=WAIT)
    expect(body).to_have_attribute("data-reading", "false", timeout=WAIT)


FOUR = ["Аня", "Боря", "Вера", "Глеб"]
FIVE = ["Аня", "Боря", "Вера", "Глеб", "Дима"]


@pytest.mark.parametrize(
    ("names", "before", "line", "held", "gone", "came"),
    [
        # Аня deals and sits out; then Боря: Аня comes in, Боря goes, Вера stays
        (FOUR, [], "игра Боря 6п 6 Вера:в Глеб:п", "Вера", "Боря", "Аня"),
        # Аня deals, she and Боря sit out; then Боря deals: he and Вера sit out, Глеб stays
        (FIVE, [], "игра Вера 6п 6 Глеб:в Дима:п", "Глеб", "Вера", "Аня"),
        # three at the table, then Дима joins: Боря deals next and sits out
        (
            ["Аня", "Боря", "Вера"],
            ["игра Аня 7ч 7 Боря:в Вера:п"],
            "join Дима",
            "Вера",
            "Боря",
            "Дима",
        ),
    ],
    ids=["four", "five", "join"],
)
def test_a_held_tap_survives_a_reading_that_changes_who_holds_cards(
    phones: Any,
    tmp_path: Path,
    names: list[str],
    before: list[str],
    line: str,
    held: str,
    gone: str,
    came: str,
) -> None:
    """A finger on a declarer while a deal (or a late arrival) written in another terminal is
    read: the next deal's table changes (one player out, another in, the others moved), the
    held button stays under the finger until it is lifted, the tap chooses him, and the deal
    is then drawn at its new table."""
    from playwright.sync_api import expect

    from prefcalc.table.lines import run_line

    page = phones(NARROW)
    path, server = serve(tmp_path, make_game(names, before), lang="ru")
    try:
        _open(page, server.url)
        expect(page.get_by_test_id(f"declarer:{gone}")).to_have_count(1)
        version = page.locator("body").get_attribute("data-version")
        box = _press(page, f"declarer:{held}")
        run_line(path, line)  # `prefcalc play` in another terminal
        _drawn(page, deal_count(api.load(path)), version)
        assert rect(page.get_by_test_id(f"declarer:{held}")) == box  # not moved under the finger
        page.mouse.up()
        expect(page.get_by_test_id(f"declarer:{held}")).to_have_attribute("aria-pressed", "true")
        # the deal's table is the new one's, the choice kept
        expect(page.get_by_test_id(f"declarer:{gone}")).to_have_count(0)
        expect(page.get_by_test_id(f"declarer:{came}")).to_have_count(1)
        expect(page.get_by_test_id(f"declarer:{held}")).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#message")).to_have_attribute("data-line", "")
    finally:
        server.stop()


def test_a_held_delete_survives_a_new_deal_and_is_lost_with_a_renumbered_row(
    phones: Any, tmp_path: Path
) -> None:
    """The night's rows are keyed by their deal's number and content: a deal recorded in
    another terminal adds a row above and the held Delete deletes the deal it was pressed
    on; a deal deleted in another terminal renumbers the rows, and a Delete held on one is
    lost with it (nothing is sent), never rebound to the deal that now has its number."""
    from playwright.sync_api import expect

    from prefcalc.table.lines import run_line

    page = phones(PHONE)
    three = ["Anna", "Boris", "Vera"]
    deals = ["game Anna 7h 7 Boris:w Vera:p", "misere Boris 0", "passes Anna=2 Boris=5 Vera=3"]
    path, server = serve(tmp_path, make_game(three, deals))
    sent: list[str] = []
    page.on(
        "request",
        lambda r: (
            sent.append(json.loads(r.post_data or "{}")["line"])
            if r.url.endswith("/api/lines")
            else None
        ),
    )
    try:
        _open(page, server.url)
        page.get_by_test_id("deal:2").click()
        _press(page, "delete")
        run_line(path, "game Vera 6s 6 Anna:w Boris:p")  # another terminal: deal 4
        _drawn(page, 4)
        page.mouse.up()
        expect(page.locator("#message")).to_contain_text("deleted deal 2", timeout=WAIT)
        _drawn(page, 3)
        assert sent == ["delete 2"]
        kept = [e.deal for e in api.load(path).entries]
        assert kept == [
            e.deal
            for e in make_game(three, [deals[0], deals[2], "game Vera 6s 6 Anna:w Boris:p"]).entries
        ]

        page.get_by_test_id("deal:3").click()
        expect(page.get_by_test_id("delete")).to_be_visible()
        _press(page, "delete")
        run_line(path, "delete 1")  # another terminal: every later deal moves up one
        _drawn(page, 2)
        expect(page.get_by_test_id("delete")).to_have_count(0)  # its row is gone
        page.mouse.up()
        expect(page.locator("body")).to_have_attribute("data-busy", "false")
        assert sent == ["delete 2"]  # the held Delete sent nothing
        assert len(api.load(path).entries) == 2
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", PHONE), ("ru", NARROW)], ids=["en-390x844", "ru-360x740"]
)
def test_the_deal_being_chosen_shows_at_the_first_tap_after_a_message(
    phones: Any, tmp_path: Path, lang: str, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    page = phones(viewport)
    names = ["Аня", "Боря", "Вера"] if lang == "ru" else ["Anna", "Boris", "Vera"]
    a, b, v = names
    path, server = serve(tmp_path, make_game(names, []), lang=lang)
    message = page.locator("#message")
    try:
        _open(page, server.url)
        for testid in (f"declarer:{a}", "contract:7h", "tricks:7", f"role:{v}:w", "record"):
            page.get_by_test_id(testid).click()
        recorded = "№1 записана: " if lang == "ru" else "№1 recorded: "
        expect(message).to_contain_text(recorded, timeout=WAIT)
        page.get_by_test_id(f"declarer:{b}").click()  # the next deal: its first tap
        expect(message).not_to_contain_text(recorded)
        expect(message).to_have_text(
            "выберите раздачу выше" if lang == "ru" else "choose the deal above"
        )
        page.get_by_test_id("contract:6s").click()
        deal = f"игра {b} 6п -" if lang == "ru" else f"game {b} 6s -"
        expect(message).to_contain_text(deal)
        assert (message.get_attribute("data-line") or "").startswith(deal)
        shot(page, f"score-{lang}-{viewport['width']}-line-after-toast")
        assert len(api.load(path).entries) == 1
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", PHONE), ("ru", NARROW)], ids=["en-390x844", "ru-360x740"]
)
def test_delete_is_offered_where_it_can_succeed_and_a_refusal_is_read_whole(
    phones: Any, tmp_path: Path, lang: str, viewport: dict[str, int]
) -> None:
    """At four, deleting a deal in the middle shifts every later dealer, and a later deal
    then names a player who would sit out: the server says so in the log, and the page
    offers Delete only on the last deal, saying why not on the others. The row's actions
    open clear of the Record bar, the oldest row's too. A refusal (typed in the line field)
    is shown whole in the bar, however many lines it takes."""
    from playwright.sync_api import expect

    page = phones(viewport)
    ru = lang == "ru"
    names = FOUR if ru else ["Anna", "Boris", "Vera", "Gleb"]
    a, b, v, g = names
    deals = [
        f"game {b} 7h 7 {v}:w {g}:p",  # a dealt and sat out
        f"game {v} 6s 6 {g}:w {a}:p",  # b dealt
        f"passes {a}={2} {b}=5 {g}=3",  # v dealt
    ]
    path, server = serve(tmp_path, make_game(names, deals), lang=lang)
    try:
        _open(page, server.url)
        _drawn(page, 3)
        page.get_by_test_id("deal:3").click()
        expect(page.get_by_test_id("delete")).to_be_visible()
        page.get_by_test_id("deal:1").scroll_into_view_if_needed()
        page.get_by_test_id("deal:1").click()
        expect(page.get_by_test_id("edit")).to_be_visible()
        expect(page.get_by_test_id("delete")).to_have_count(0)
        why = page.locator(".why-not")
        expect(why).to_be_visible()
        refusal = api.deletion_refusal(api.load(path), 1)
        assert refusal
        if ru:  # the refusal in the page's language (the test's own process speaks English)
            assert not LATIN.search(why.inner_text()), why.inner_text()
        else:
            expect(why).to_have_text(refusal)
        # the opened row's actions and their note, clear of the Record bar
        bar = rect(page.locator("#recordbar"))
        for part in (page.get_by_test_id("edit"), why):
            box = rect(part)
            assert box["y"] + box["height"] <= bar["y"] + 0.5, (box, bar)
        shot(page, f"score-{lang}-{viewport['width']}-delete-refused")

        # a refusal, whole: the line field's delete of deal 1
        line = page.locator("input[name=line]")
        line.fill(("удалить" if ru else "delete") + " 1")
        line.press("Enter")
        message = page.locator("#message .text")
        expect(page.locator("#message")).to_have_class(re.compile(r"\berror\b"), timeout=WAIT)
        said = message.inner_text()
        assert "delete" not in said or not ru, said
        whole = message.evaluate("(e) => e.scrollHeight <= e.clientHeight + 1")
        assert whole, said
        assert said.count(":") >= 2, said  # the refusal with its reason, not cut
        box, bar = rect(message), rect(page.locator("#recordbar"))
        assert box["y"] >= bar["y"] and box["y"] + box["height"] <= viewport["height"] + 0.5
        shot(page, f"score-{lang}-{viewport['width']}-refusal-whole")
        assert len(api.load(path).entries) == 3
    finally:
        server.stop()


def test_the_edit_bar_speaks_russian_and_the_status_says_who_sits_out(
    phones: Any, tmp_path: Path
) -> None:
    """A Russian page writes its lines in the table's Russian words («исправить 2 игра …»,
    «вставить 2 …»: play reads them back); at five the status line says who sits the next
    deal out; every label of the page and of its sheet is in Russian."""
    from playwright.sync_api import expect

    page = phones(NARROW)
    deals = ["игра Вера 6п 6 Глеб:в Дима:п", "игра Глеб 7ч 7 Дима:в Аня:п"]
    path, server = serve(tmp_path, make_game(FIVE, deals), lang="ru")
    sent: list[str] = []
    page.on(
        "request",
        lambda r: (
            sent.append(json.loads(r.post_data or "{}")["line"])
            if r.url.endswith("/api/lines")
            else None
        ),
    )
    try:
        _open(page, server.url)
        _drawn(page, 2)
        sheet = api.sheet(api.load(path))
        out = " и ".join(sheet.sitting_out)
        expect(page.locator("#status")).to_contain_text(f"{out} не играют")
        page.get_by_test_id("deal:2").click()
        page.get_by_test_id("edit").click()
        page.get_by_test_id("tricks:8").click()
        message = page.locator("#message")
        expect(message).to_have_text("исправить 2 игра Глеб 7ч 8 Дима:в Аня:п")
        expect(page.get_by_test_id("record")).to_have_text("Сохранить №2")
        shot(page, "score-ru-360-edit-bar")
        page.get_by_test_id("record").click()
        expect(message).to_contain_text("№2 изменена: ", timeout=WAIT)
        page.get_by_test_id("deal:2").click()
        page.get_by_test_id("insert").click()
        page.get_by_test_id("kind:misere").click()
        page.get_by_test_id("declarer:Глеб").click()
        page.get_by_test_id("tricks:0").click()
        expect(message).to_have_text("вставить 2 мизер Глеб 0")
        page.get_by_test_id("cancel").click()
        assert sent == ["исправить 2 игра Глеб 7ч 8 Дима:в Аня:п"]
        assert api.load(path).entries[1].deal.tricks == 8  # type: ignore[union-attr]

        # every label, the sheet's too, in Russian (the names are Russian: any Latin letter
        # is an English word)
        page.get_by_test_id("summary").click()
        expect(page.get_by_test_id("sheet").locator("svg")).to_have_count(1, timeout=WAIT)
        labels = page.evaluate(
            "() => Array.from(document.querySelectorAll('[aria-label], [title]'),"
            " (e) => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''))"
        )
        english = [x for x in labels if LATIN.search(x)]
        assert english == [], english
    finally:
        server.stop()
