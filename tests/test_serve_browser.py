"""``prefcalc serve``'s watcher page in a real browser (Debian's chromium, Playwright, a
phone's viewport): it follows a write made by the CLI without a reload, and its sheet is
readable on a 360 px phone (numbers at 12 px at least, labels at 10, names shortened as a
table shortens them, nothing drawn over anything) for three, four and five players."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from prefcalc.store.ledger import game_to_json_text
from tests.browser_support import NARROW, PHONE, WAIT, Server, no_horizontal_scroll, serve, shot
from tests.support import make_game, random_game, run_cli, sample_game

pytestmark = pytest.mark.usefixtures("data_home")


def test_the_watcher_page_follows_a_cli_write_without_reload(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    phone = phones(PHONE)
    path, server = serve(tmp_path, sample_game())
    try:
        phone.goto(server.url + "/")
        body = phone.locator("body")
        expect(body).to_have_attribute("data-deals", "13", timeout=WAIT)
        expect(phone.locator("#sheet svg text.name").first).to_have_text("Anna", timeout=WAIT)
        expect(phone.locator("#money tbody tr")).to_have_count(3, timeout=WAIT)
        status = phone.get_by_test_id("status")
        expect(status).to_have_text("live", timeout=WAIT)
        expect(status).to_have_attribute("data-state", "live")
        no_horizontal_scroll(phone)
        shot(phone, "watch-before", full=True)
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
        no_horizontal_scroll(phone)
        shot(phone, "watch-after-cli-write", full=True)
    finally:
        server.stop()


RUSSIAN = ("Александра", "Борислав", "Виктория", "Дмитрий", "Евгений")


def _russian_night(tmp_path: Path, players: int, deals: int) -> Path:
    """A random night, its players given long Russian names (the ledger's text renamed)."""
    text = game_to_json_text(random_game(players * 7, deals, players, target=60))
    for english, russian in zip(("Anna", "Boris", "Vera", "Dima", "Egor"), RUSSIAN, strict=True):
        text = text.replace(f'"{english}"', f'"{russian}"')
    path = tmp_path / f"night{players}.json"
    path.write_text(text, encoding="utf-8")
    return path


SIZES = """() => {
  const svg = document.querySelector('#sheet svg');
  const scale = svg.getScreenCTM().a || svg.getScreenCTM().b;
  return Array.from(svg.querySelectorAll('text')).map((t) => {
    const r = t.getBoundingClientRect();
    return {cls: t.getAttribute('class'), text: t.textContent.replace(t.querySelector('title')
      ? t.querySelector('title').textContent : '\\u0000', ''),
      px: parseFloat(t.getAttribute('font-size')) * Math.abs(scale),
      box: [r.left, r.top, r.right, r.bottom]};
  });
}"""


def _overlap(a: list[float], b: list[float]) -> float:
    """How far two boxes of text overlap, the lesser of the two ways (px): the boxes hold a
    line's whole height, so lines set close touch by a fraction of a pixel without their
    letters meeting."""
    return max(0.0, min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_sheet_is_readable_on_a_narrow_phone(phones: Any, tmp_path: Path, players: int) -> None:
    from playwright.sync_api import expect

    phone = phones(NARROW)
    path = _russian_night(tmp_path, players, 24)
    server = Server(path, lang="ru")
    try:
        phone.goto(server.url + "/")
        expect(phone.locator("#sheet svg text.name")).to_have_count(players, timeout=WAIT)
        texts = phone.evaluate(SIZES)
        no_horizontal_scroll(phone)
        shot(phone, f"watch-sheet-{players}-players-360", full=True)
    finally:
        server.stop()
    numbers = [t for t in texts if t["cls"] in ("whists", "pool", "mountain")]
    labels = [t for t in texts if t["cls"] == "label"]
    names = [t for t in texts if t["cls"].startswith("name")]
    assert numbers and len(labels) == players * (players - 1)
    assert min(t["px"] for t in numbers) >= 12
    assert min(t["px"] for t in labels) >= 10
    for t in labels + names:  # shortened as a table does (Бор., на Алекс.), never with "…"
        assert "…" not in t["text"], t["text"]
    for t in labels:
        assert t["text"].startswith("на "), t["text"]  # the page's language
    for t in numbers:  # a long sequence keeps its last values whole, after one "…"
        assert "…" not in t["text"][1:] and not t["text"].startswith("….")
    drawn = [t for t in texts if t["cls"] != "target"]
    for k, a in enumerate(drawn):  # nothing drawn over anything
        for b in drawn[k + 1 :]:
            assert _overlap(a["box"], b["box"]) <= 1.0, (a["text"], b["text"])


def test_four_players_fit_a_narrow_phone(phones: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    page = phones(NARROW)
    game = make_game(
        ["Anna", "Boris", "Vera", "Gleb"],
        ["game Boris 7h 7 Vera:w Gleb:p", "game Vera 6s 6 Gleb:w3 Anna:w1"],
    )
    _path, server = serve(tmp_path, game)
    try:
        page.goto(server.url + "/")
        expect(page.locator("body")).to_have_attribute("data-deals", "2", timeout=WAIT)
        expect(page.locator("#sheet svg text.name")).to_have_count(4, timeout=WAIT)
        no_horizontal_scroll(page)
        shot(page, "watch-four-players-360", full=True)
        page.goto(server.url + "/score#token=browser-test-token")
        # Vera deals the third deal and sits it out: three declarers to choose from
        expect(page.locator("[data-testid^='declarer:']")).to_have_count(3, timeout=WAIT)
        expect(page.get_by_test_id("declarer:Vera")).to_have_count(0)
        no_horizontal_scroll(page)
        shot(page, "score-four-players-360")
    finally:
        server.stop()
