"""``prefcalc serve``: the JSON API through FastAPI's TestClient, every hostile input, the
server-sent events after a write by another ``prefcalc`` process, and the command itself."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from prefcalc import api
from prefcalc.errors import PrefcalcError
from prefcalc.play import Session
from prefcalc.store.ledger import game_to_json_text
from prefcalc.table.lines import run_line
from prefcalc.web import create_app, host_names, listen
from prefcalc.web.app import MAX_BODY, MAX_LINE
from prefcalc.web.tokens import MIN_TOKEN, keep_token, score_token, token_file
from prefcalc.web.watch import LedgerWatcher
from tests.support import invoke, make_game, run_cli, sample_game

TOKEN = "s3cret-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
MISDIRECTED = "this server answers only at its own addresses, not at the Host this request names"


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PREFCALC_FILE", raising=False)


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    path.write_text(game_to_json_text(sample_game()), encoding="utf-8")
    return path


@pytest.fixture
def client(ledger: Path) -> Iterator[TestClient]:
    app = create_app(ledger, TOKEN, poll_interval=None)
    with TestClient(app) as c:
        yield c


def _cli_json(tmp_path: Path, *args: str) -> object:
    result = invoke(list(args), tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _cli_error(tmp_path: Path, ledger: Path, line: str) -> str:
    """The one-line message ``prefcalc play`` prints for a refused line (on a copy)."""
    copy = tmp_path / "copy.json"
    copy.write_bytes(ledger.read_bytes())
    result = invoke(["play", "--file", str(copy)], tmp_path, input=line + "\n")
    match = re.fullmatch(r"prefcalc: error: line 1: (.*)\n", result.stderr)
    assert match, result.stderr
    return match.group(1)


# --- reading ---------------------------------------------------------------------------------


def test_game_is_show_json(client: TestClient, ledger: Path, tmp_path: Path) -> None:
    r = client.get("/api/game")
    assert r.status_code == 200
    assert r.json() == _cli_json(tmp_path, "show", "--json", "--file", str(ledger))


@pytest.mark.parametrize("method", ["pairwise", "average"])
def test_settle_is_settle_json(
    client: TestClient, ledger: Path, tmp_path: Path, method: str
) -> None:
    r = client.get(f"/api/settle?method={method}")
    assert r.status_code == 200
    expected = _cli_json(tmp_path, "settle", "--json", "--method", method, "--file", str(ledger))
    assert r.json() == expected
    whole = client.get(f"/api/settle?method={method}&rounding=whole").json()
    assert whole == _cli_json(
        tmp_path, "settle", "--json", "-m", method, "-r", "whole", "--file", str(ledger)
    )


def test_a_refusal_names_the_ledger_by_its_file_name_only(client: TestClient, ledger: Path) -> None:
    """A broken ledger is said in one 422 line to every page, naming the file as ``g.json``:
    a phone that watches has no use for the laptop's path to it (nor any business reading
    it); the CLI, on the laptop, keeps the path as it was typed."""
    ledger.write_text('{"schema": 2, "players": ["Anna"', encoding="utf-8")
    headers = {"Authorization": f"Bearer {TOKEN}"}
    answers = [
        client.get("/api/game"),
        client.get("/api/log"),
        client.get("/api/seats"),
        client.post("/api/lines", json={"line": "show"}, headers=headers),
    ]
    for answer in answers:
        assert answer.status_code == 422, answer.text
        said = answer.json()["error"]
        assert said.startswith("g.json: the ledger is corrupt: EOF while parsing"), said
        assert str(ledger.parent) not in said and "\n" not in said


def test_settle_refuses_an_unknown_method(client: TestClient) -> None:
    r = client.get("/api/settle?method=fair")
    assert r.status_code == 422
    assert r.json() == {"error": "unknown method 'fair' (use pairwise or average)"}


PAGE_KEYS = ("players", "sitting_out", "lowest_contract", "shorthand", "deletable")
"""What /api/log adds to each deal of ``log --json`` (issue 25: a past deal edited with its
own table; issue 36: whether it can be deleted, and ``delete_refusal`` when not)."""


def _as_cli(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    added = (*PAGE_KEYS, "delete_refusal")
    return [{k: v for k, v in item.items() if k not in added} for item in items]


def test_log_and_its_last_deals(client: TestClient, ledger: Path, tmp_path: Path) -> None:
    """/api/log is ``log --json``, each deal with what a page needs to show and edit it."""
    whole = _cli_json(tmp_path, "log", "--json", "--file", str(ledger))
    assert isinstance(whole, list)
    served = client.get("/api/log").json()
    assert _as_cli(served) == whole
    assert all(set(PAGE_KEYS) <= set(item) for item in served)
    assert _as_cli(client.get("/api/log?last=2").json()) == whole[-2:]
    assert client.get("/api/log?last=2").json() == served[-2:]
    assert client.get("/api/log?last=0").json() == []
    assert client.get(f"/api/log?last={len(whole) + 5}").json() == served  # more than there are
    assert client.get("/api/log?last=-1").status_code == 422
    bad = client.get("/api/log?last=many")
    assert bad.status_code == 422 and "last" in bad.json()["error"]


def test_cases_decline_every_name_at_the_table_by_the_games_genders(tmp_path: Path) -> None:
    """``GET /api/cases``: the names in the Russian cases for the pages' own messages, read
    from the ledger as it is now: a late arrival is in it, a gender set in another terminal
    is in force at once; an English table has none."""
    path = tmp_path / "ru.json"
    game = make_game(["Мишель", "Боря", "Вера"], ["game Боря 6s 6 Мишель:w Вера:p"])
    path.write_text(game_to_json_text(game), encoding="utf-8")
    with TestClient(create_app(path, TOKEN, poll_interval=None, lang="ru")) as c:
        cases = c.get("/api/cases").json()
        assert cases["Мишель"]["acc"] == "Мишеля" and cases["Боря"]["acc"] == "Борю"
        api.save(api.set_gender(api.join(api.load(path), "Дима"), "Мишель", "f"), path)
        cases = c.get("/api/cases").json()
        assert cases["Мишель"]["acc"] == "Мишель" and cases["Дима"]["acc"] == "Диму"
    with TestClient(create_app(path, TOKEN, poll_interval=None)) as c:
        assert c.get("/api/cases").json() == {}


def test_seats_name_who_sits_out(tmp_path: Path) -> None:
    path = tmp_path / "four.json"
    game = make_game(["Anna", "Boris", "Vera", "Gleb"], ["game Boris 7h 7 Vera:w Gleb:p"])
    path.write_text(game_to_json_text(game), encoding="utf-8")
    with TestClient(create_app(path, TOKEN, poll_interval=None)) as c:
        seats = c.get("/api/seats").json()
    assert seats == {
        "players": ["Anna", "Boris", "Vera", "Gleb"],
        "next_dealer": "Boris",
        "sitting_out": ["Boris"],
        "lowest_contract": 6,
        "finished": False,
        "deals": 1,
    }


def test_pages_and_assets_are_served_from_the_package(client: TestClient) -> None:
    watch = client.get("/")
    assert watch.status_code == 200 and 'id="sheet"' in watch.text
    score = client.get("/score")
    # the score page is built by its script (score.js) inside its slot, as in the offline app
    assert score.status_code == 200 and '<main id="score" data-slot="score">' in score.text
    assert '<script type="module" src="/static/page.js' in score.text
    for asset in (
        "app.css",
        "common.js",
        "engine.js",
        "page.js",
        "watch.js",
        "score.js",
        "icon.svg",
    ):
        assert client.get(f"/static/{asset}").status_code == 200
    svg = client.get("/sheet.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg") and ">Anna</text>" in svg.text


def test_only_engine_js_asks_the_server() -> None:
    """The pages talk to a table (engine.js), so that the offline app gives them its own."""
    static = Path(__file__).resolve().parent.parent / "prefcalc" / "web" / "static"
    for script in static.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        asks = re.findall(r"\b(fetch|EventSource|XMLHttpRequest)\b", text)
        assert not asks or script.name == "engine.js", (script.name, asks)


def test_every_word_of_the_scripts_is_in_the_dictionary() -> None:
    from prefcalc.views.words import SCRIPT_WORDS, script_words

    static = Path(__file__).resolve().parent.parent / "prefcalc" / "web" / "static"
    said: set[str] = set()
    for script in static.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        said |= set(re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', text))
        said |= set(re.findall(r'said\([^,]+, "([^"]*)"', text))
    said = {word.replace("\\'", "'") for word in said}
    words = script_words("ru")
    assert said - set(words) == set()
    assert set(SCRIPT_WORDS) - said == set()  # no word the scripts no longer say
    assert all(words[w] != w for w in said)  # each one said in Russian


def test_the_pages_forbid_anything_from_elsewhere(client: TestClient) -> None:
    for url in ("/", "/score", "/api/game", "/static/score.js"):
        headers = client.get(url).headers
        assert headers["content-security-policy"].startswith("default-src 'self';")
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_nothing_is_loaded_from_another_site() -> None:
    """Offline: no CDN, no external font; the only URL is the SVG namespace."""
    root = Path(__file__).resolve().parent.parent / "prefcalc" / "web"
    sheet = root.parent / "views" / "sheet_svg.py"
    for path in [*root.glob("templates/*"), *root.glob("static/*"), sheet]:
        text = path.read_text(encoding="utf-8")
        urls = set(re.findall(r"(?:https?:)?//[\w.-]+\.\w+", text))
        assert urls <= {"http://www.w3.org"}, (path.name, urls)


def _resolved(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``schema``, or the component its ``$ref`` names."""
    ref = schema.get("$ref")
    if ref is None:
        return schema
    name = ref.removeprefix("#/components/schemas/")
    return dict(spec["components"]["schemas"][name])


def test_openapi_documents_the_api_without_a_cdn_page(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for route in ("/api/game", "/api/settle", "/api/lines", "/api/events", "/api/log"):
        assert route in spec["paths"]
    body = spec["paths"]["/api/lines"]["post"]["requestBody"]["content"]["application/json"]
    schema = _resolved(spec, body["schema"])
    assert schema["properties"]["line"]["maxLength"] == MAX_LINE
    assert client.get("/docs").status_code == 404  # the Swagger page would load a CDN


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_sheet_is_drawn_for_every_table(tmp_path: Path, players: int) -> None:
    names = ["Anna", "Boris", "Vera", "Gleb", "Dima"][:players]
    path = tmp_path / "t.json"
    path.write_text(game_to_json_text(make_game(names, [])), encoding="utf-8")
    with TestClient(create_app(path, TOKEN, poll_interval=None)) as c:
        svg = c.get("/sheet.svg").text
    assert svg.count('class="name') == players
    assert all(f">{name}</text>" in svg for name in names)
    assert svg.count('class="label"') == players * (players - 1)  # a whist column per opponent


def test_names_in_the_sheet_are_escaped(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    game = make_game(["<b>A", "B&o", 'V"e'], [])
    path.write_text(game_to_json_text(game), encoding="utf-8")
    with TestClient(create_app(path, TOKEN, poll_interval=None)) as c:
        svg = c.get("/sheet.svg").text
    assert "<b>" not in svg and "&lt;b&gt;A" in svg and "B&amp;o" in svg


# --- writing ---------------------------------------------------------------------------------


def test_a_line_is_recorded_like_in_play(client: TestClient, ledger: Path, tmp_path: Path) -> None:
    before = len(api.load(ledger).entries)
    r = client.post("/api/lines", json={"line": "a 7h 7 b:w v:p"}, headers=AUTH)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["deals"] == before + 1
    assert data["output"].startswith(f"recorded: deal {before + 1}")
    assert "Anna 7♥ took 7; Boris whist, Vera pass\n  Anna: +2 pool" in data["output"]
    # the same line in a play session on a copy writes the same sheet
    copy = tmp_path / "twin.json"
    copy.write_text(game_to_json_text(sample_game()), encoding="utf-8")
    invoke(["play", "--file", str(copy)], tmp_path, input="a 7h 7 b:w v:p\n")
    assert client.get("/api/game").json() == _cli_json(
        tmp_path, "show", "--json", "--file", str(copy)
    )


def test_undo_redo_edit_target_and_settle_lines(client: TestClient, ledger: Path) -> None:
    n = len(api.load(ledger).entries)

    def line(text: str) -> str:
        r = client.post("/api/lines", json={"line": text}, headers=AUTH)
        assert r.status_code == 200, r.text
        return str(r.json()["output"])

    assert line("undo").startswith(f"removed deal {n}:")
    assert len(api.load(ledger).entries) == n - 1
    assert line("redo").startswith("put back:")
    assert line("edit 1 game Anna 6s 6 Boris:w Vera:p").startswith("replaced deal 1:")
    first = api.load(ledger).entries[0].deal
    assert (first.level, first.suit) == (6, "s")  # type: ignore[union-attr]
    line("set target=30")
    assert client.get("/api/game").json()["target"] == 30
    assert "Settlement" in line("settle average")
    assert len(api.load(ledger).entries) == n + 1  # the change of terms is recorded...
    assert client.get("/api/game").json()["deals"] == n  # ...and is not a deal (issue 17)


def test_a_refused_line_is_the_clis_message_and_writes_nothing(
    client: TestClient, ledger: Path, tmp_path: Path
) -> None:
    before = ledger.read_bytes()
    for text in ("a 5h 7 b:w v:p", "zzz 7h", "edit 99 a 6s 6 b:p v:p", 'a "7h', "undo extra"):
        r = client.post("/api/lines", json={"line": text}, headers=AUTH)
        assert r.status_code == 422, text
        assert r.json() == {"error": _cli_error(tmp_path, ledger, text)}
        assert ledger.read_bytes() == before


def test_a_repeated_deal_is_recorded_with_a_note(client: TestClient, ledger: Path) -> None:
    n = len(json.loads(ledger.read_text(encoding="utf-8"))["deals"])
    assert client.post("/api/lines", json={"line": "a 7h 7 b:w v:p"}, headers=AUTH).is_success
    r = client.post("/api/lines", json={"line": "a 7h 7 b:w v:p"}, headers=AUTH)
    assert r.status_code == 200
    output = r.json()["output"]
    assert "record it again?" not in output
    assert output.endswith(f"same as deal {n + 1} — undo if it was typed twice")
    assert len(json.loads(ledger.read_text(encoding="utf-8"))["deals"]) == n + 2


def test_quit_is_refused(client: TestClient) -> None:
    r = client.post("/api/lines", json={"line": "quit"}, headers=AUTH)
    assert r.status_code == 422 and "nothing to quit" in r.json()["error"]


# --- hostile input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer wrong"},
        {"Authorization": f"Basic {TOKEN}"},
        {"Authorization": f"Bearer {TOKEN}x"},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer тайна".encode()},
    ],
    ids=["none", "wrong", "basic", "longer", "empty", "not-ascii"],
)
def test_without_the_token_nothing_is_written(
    client: TestClient, ledger: Path, headers: dict[str, str | bytes]
) -> None:
    before = ledger.read_bytes()
    r = client.post("/api/lines", json={"line": "a 7h 7 b:w v:p"}, headers=headers)
    assert r.status_code == 401
    assert r.json() == {"error": "the score link's token is missing or wrong: nothing was written"}
    assert r.headers["www-authenticate"] == "Bearer"
    assert ledger.read_bytes() == before


def test_the_token_is_compared_in_constant_time() -> None:
    web = Path(__file__).resolve().parent.parent / "prefcalc/web"
    assert "hmac.compare_digest(" in (web / "table.py").read_text()
    for module in web.glob("*.py"):
        assert not re.search(r"[=!]= *(self|table)\.token|\.token *[=!]=", module.read_text())


def test_read_only_refuses_every_line(ledger: Path) -> None:
    before = ledger.read_bytes()
    with TestClient(create_app(ledger, TOKEN, read_only=True, poll_interval=None)) as c:
        r = c.post("/api/lines", json={"line": "show"}, headers=AUTH)
        assert r.status_code == 403
        assert r.json() == {"error": "this server is read-only (started with --read-only)"}
        assert c.get("/api/game").status_code == 200
        assert 'data-read-only="true"' in c.get("/score").text
    assert ledger.read_bytes() == before


def test_a_10_mb_body_is_refused(client: TestClient, ledger: Path) -> None:
    before = ledger.read_bytes()
    big = b'{"line": "' + b"a" * (10 * 1024 * 1024) + b'"}'
    r = client.post("/api/lines", content=big, headers=AUTH)
    assert r.status_code == 413
    assert r.json() == {"error": f"the request body is too large (at most {MAX_BODY} bytes)"}

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it streams in
        yield b'{"line": "'
        for _ in range(160):
            yield b"a" * 65536
        yield b'"}'

    r = client.post("/api/lines", content=chunks(), headers=AUTH)
    assert r.status_code == 413
    assert ledger.read_bytes() == before
    assert client.get("/api/game").status_code == 200  # still serving


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        (b"\xff\xfe{}", 400, "the request body is not valid UTF-8"),
        (b'{"line": "a 7h 7 \xc3"}', 400, "the request body is not valid UTF-8"),
        (b"{", 422, "the request body is not JSON: "),
        (b"", 422, "the request body is not JSON: "),
        (b"[" * 15000, 422, "the request body is not JSON"),
        (b'["a 7h 7 b:w v:p"]', 422, 'send {"line": "<a play line>"}'),
        (b'{"line": 7}', 422, 'send {"line": "<a play line>"}'),
        (b'{"lines": "show"}', 422, 'send {"line": "<a play line>"}'),
        (json.dumps({"line": "x" * (MAX_LINE + 1)}).encode(), 422, "the line is too long"),
        (b'{"line": "show\\nundo"}', 422, "one line at a time (no line breaks)"),
    ],
    ids=[
        "not-utf8",
        "cut-utf8",
        "broken-json",
        "empty",
        "deep",
        "list",
        "number",
        "no-line",
        "long",
        "two-lines",
    ],
)
def test_a_bad_body_gets_one_line_and_nothing_is_written(
    client: TestClient, ledger: Path, body: bytes, status: int, error: str
) -> None:
    before = ledger.read_bytes()
    r = client.post(
        "/api/lines", content=body, headers={**AUTH, "Content-Type": "application/json"}
    )
    assert r.status_code == status
    message = r.json()["error"]
    assert message.startswith(error) and "\n" not in message
    assert ledger.read_bytes() == before
    assert client.get("/api/game").status_code == 200


def test_unknown_routes_answer_one_line(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "Not Found"}
    r = client.put("/api/lines", json={"line": "undo"}, headers=AUTH)
    assert r.status_code == 405 and r.json() == {"error": "Method Not Allowed"}


def test_many_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    """Forty lines posted at once and a CLI process writing meanwhile: every deal is kept
    (each write goes through the ledger's lock)."""
    ledger = tmp_path / "long.json"
    game = make_game(["Anna", "Boris", "Vera"], [], target=1000)
    ledger.write_text(game_to_json_text(game), encoding="utf-8")
    splits = [(a, b, 10 - a - b) for a in range(11) for b in range(11 - a)][:40]
    start = len(api.load(ledger).entries)

    async def post_all() -> list[str]:
        app = create_app(ledger, TOKEN, poll_interval=None)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            cli = asyncio.create_task(
                asyncio.to_thread(
                    run_cli,
                    ["adjust", "Vera", "--pool", "1", "--note", "cli", "-f", str(ledger)],
                    tmp_path,
                )
            )
            answers = await asyncio.gather(
                *(
                    c.post("/api/lines", json={"line": f"p a={x} b={y} v={z}"}, headers=AUTH)
                    for x, y, z in splits
                )
            )
            assert (await cli).returncode == 0
        return [a.text for a in answers if a.status_code != 200]

    assert asyncio.run(post_all()) == []
    assert len(api.load(ledger).entries) == start + len(splits) + 1


def test_a_thousand_requests_at_once_are_all_answered(ledger: Path) -> None:
    before = ledger.read_bytes()

    async def flood() -> list[int]:
        app = create_app(ledger, TOKEN, poll_interval=None)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            requests = [
                c.get("/api/seats")
                if k % 3 == 0
                else c.post("/api/lines", content=b"\xff", headers=AUTH)
                if k % 3 == 1
                else c.post("/api/lines", json={"line": "a 7h 7 b:w v:p"})
                for k in range(1000)
            ]
            answers = await asyncio.gather(*requests)
            assert (await c.get("/api/game")).status_code == 200  # and still serving
        return sorted({a.status_code for a in answers})

    assert asyncio.run(flood()) == [200, 400, 401]
    assert ledger.read_bytes() == before


# --- events ----------------------------------------------------------------------------------


def _next_event(lines: Iterator[str]) -> dict[str, str]:
    event: dict[str, str] = {}
    for line in lines:
        if not line:
            if "data" in event:
                return event
            continue
        key, _, value = line.partition(":")
        event[key] = value.strip()
    raise AssertionError("the event stream ended")


def test_an_event_after_a_write_by_another_prefcalc_process(
    client: TestClient, ledger: Path, tmp_path: Path
) -> None:
    watcher = client.app.state.table.watcher  # type: ignore[attr-defined]
    with client.stream("GET", "/api/events") as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = r.iter_lines()
        hello = _next_event(lines)
        assert hello["event"] == "ledger"
        first = json.loads(hello["data"])["version"]
        assert client.portal.call(watcher.check) is False  # nothing changed: no event
        result = run_cli(
            ["game", "Boris", "6s", "6", "Vera:w", "Anna:p", "-f", str(ledger)], tmp_path
        )
        assert result.returncode == 0, result.stderr
        assert client.portal.call(watcher.check) is True
        changed = _next_event(lines)
        second = json.loads(changed["data"])["version"]
        assert second != first
        # a line from a phone is announced at once (no poll needed)
        assert client.post("/api/lines", json={"line": "undo"}, headers=AUTH).is_success
        third = json.loads(_next_event(lines)["data"])["version"]
        assert third == first  # undo put the same bytes back: the version is the content's
    assert watcher.watchers == 0  # the stream's queue is gone with it


def test_a_stopping_server_ends_every_event_stream(client: TestClient) -> None:
    watcher = client.app.state.table.watcher  # type: ignore[attr-defined]
    with client.stream("GET", "/api/events") as r:
        lines = r.iter_lines()
        _next_event(lines)
        client.portal.call(watcher.close)  # what Ctrl-C does first
        assert [line for line in lines if line] == []  # the response ends, complete
    assert watcher.watchers == 0


def test_a_watcher_that_never_reads_holds_a_bounded_queue(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_text("0", encoding="utf-8")

    async def run() -> tuple[int, str, str]:
        watcher = LedgerWatcher(path, interval=None, queue_size=4)
        watcher.start()
        idle = watcher.subscribe()
        for k in range(1, 200):
            path.write_text(str(k) * (1 + k % 3), encoding="utf-8")
            os.utime(path, ns=(k * 10**9, k * 10**9))  # a new stat on every write
            assert watcher.poll()
        newest = ""
        while not idle.empty():
            newest = idle.get_nowait()
        return idle.maxsize, newest, watcher.message()

    size, newest, current = asyncio.run(run())
    assert size == 4 and newest == current  # only old versions were dropped


def test_the_same_content_is_no_event(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_text("same", encoding="utf-8")

    async def run() -> list[bool]:
        watcher = LedgerWatcher(path, interval=None)
        watcher.start()
        path.write_text("same", encoding="utf-8")  # rewritten, not changed
        os.utime(path, ns=(5 * 10**9, 5 * 10**9))
        seen = [watcher.poll()]
        path.write_text("other", encoding="utf-8")
        seen.append(watcher.poll())
        return seen

    assert asyncio.run(run()) == [False, True]


# --- the command -----------------------------------------------------------------------------


def test_the_cli_does_not_import_the_web_stack() -> None:
    code = "import sys, prefcalc.cli; print(sorted(m for m in ('fastapi', 'uvicorn', 'jinja2', 'segno', 'sse_starlette', 'prefcalc.web') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_language_reaches_the_pages(ledger: Path) -> None:
    with TestClient(create_app(ledger, TOKEN, lang="ru", poll_interval=None)) as c:
        assert '<html lang="ru">' in c.get("/").text
        assert '<html lang="ru">' in c.get("/score").text


def _words_of(page: str) -> dict[str, object]:
    start = page.index('<script id="words" type="application/json">') + 43
    return dict(json.loads(page[start : page.index("</script>", start)]))


def test_the_pages_speak_russian(tmp_path: Path) -> None:
    # issue 20: the templates through the catalog, the scripts' words as a dictionary in the
    # page, the reasons of the last deal in Russian beside the English ones; issue 25: the
    # players' names in their cases for the scripts, each deal in the Russian shorthand
    path = tmp_path / "ru.json"
    game = make_game(
        ["Аня", "Боря", "Вера"], ["game Аня 7h 7 Боря:w Вера:p", "passes Аня=2 Боря=5 Вера=3"]
    )
    path.write_text(game_to_json_text(game), encoding="utf-8")
    with TestClient(create_app(path, TOKEN, lang="ru", poll_interval=None)) as c:
        score, watch = c.get("/score").text, c.get("/").text
        assert "<code>prefcalc serve</code>" in score  # a tag inside a message stays a tag
        for words in ("Расчёт на сейчас", "Попарно", "<th>Игрок</th><th>Висты</th>"):
            assert words in watch, words
        shown = "".join(p[: p.index('<script id="words"')] for p in (score, watch))
        for english in ("Last deal", "Settlement so far", "Pairwise", "loading", "connecting"):
            assert english not in shown, english
        words = _words_of(score)
        assert words["lang"] == "ru"
        for english, russian in [
            ("Record", "Записать"),
            ("Undo", "Отменить"),
            ("Put back", "Вернуть"),
            ("Defenders", "Защитники"),
            ("to {target}", "пуля до {target}"),
            ("whists on {player}", "висты на {player:acc}"),
            ("Sochi", "Сочинка"),
        ]:
            assert words[english] == russian, english
        assert words["signs"] == {"s": "♠", "c": "♣", "d": "♦", "h": "♥", "nt": "БК"}
        assert words["{n} deals"] == ["{n} раздача", "{n} раздачи", "{n} раздач"]
        # the names' cases come with every reading (GET /api/cases), not with the page: a
        # gender set or a player joined after the page was loaded is declined at once
        assert "cases" not in words and "cases" not in _words_of(watch)
        cases = c.get("/api/cases").json()
        assert cases["Боря"]["acc"] == "Борю" and cases["Вера"]["gen"] == "Веры"
        log = c.get("/api/log").json()
        assert [d["shorthand"] for d in log] == [
            "игра Аня 7ч 7 Боря:в Вера:п",
            "распасы Аня=2 Боря=5 Вера=3",
        ]
        assert log[0]["notation"] == "game Аня 7h 7 Боря:w Вера:p"  # the English stays
        writes = log[-1]["writes"]
        assert all(w["said"] and w["reason"] for w in writes)
        assert all(w["reason"].isascii() or w["said"] != w["reason"] for w in writes)
        assert not any(re.search(r"[a-z]{3,}", w["said"].replace(w["player"], "")) for w in writes)


def test_the_english_pages_speak_english(client: TestClient) -> None:
    from prefcalc.views.words import SCRIPT_WORDS

    words = _words_of(client.get("/score").text)
    assert all(words[w] == w for w in SCRIPT_WORDS)
    assert words["signs"]["nt"] == "NT" and "cases" not in words
    items = client.get("/api/log").json()
    assert all("said" not in w for item in items for w in item["writes"])
    assert all(item["shorthand"] == item["notation"] for item in items)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "de"], "unknown language 'de' (use en or ru)"),
        (["--token", "two words"], "--token takes letters, digits and - _ . ~"),
        (["--token", "тайна"], "--token takes letters, digits and - _ . ~"),
        (["--host", "no.such.host.invalid"], "cannot listen on no.such.host.invalid:0"),
        (
            ["--token", "seven"],
            "--token is too short (5 characters): a score token has at least 16",
        ),
        (["--token", "x" * 15], "--token is too short (15 characters)"),
        (["--token", "x" * 16, "--new-token"], "--new-token makes a random token"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(
    ledger: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    result = run_cli(["serve", "-f", str(ledger), "--port", "0", *args], tmp_path)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_serve_refuses_a_port_in_use(ledger: Path, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        args = ["serve", "-f", str(ledger), "--host", "127.0.0.1", "--port", str(port)]
        result = run_cli(args, tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        f"prefcalc: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    )


def test_serve_refuses_a_missing_ledger(tmp_path: Path) -> None:
    result = run_cli(["serve", "--file", str(tmp_path / "none.json"), "--port", "0"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("prefcalc: error: ") and result.stderr.count("\n") == 1


@dataclass
class _Serving:
    text: str
    port: int
    token: str | None
    out: str = ""  # the rest of what it printed, once it stopped
    err: str = ""


@contextlib.contextmanager
def _serving(ledger: Path, tmp_path: Path, *args: str) -> Iterator[_Serving]:
    """``prefcalc serve`` as a process on 127.0.0.1 (any port) until the block ends (Ctrl-C)."""
    exe = Path(sys.executable).with_name("prefcalc")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "prefcalc"]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen(
        [*command, "serve", "-f", str(ledger), "--host", "127.0.0.1", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        head: list[str] = []
        for line in proc.stdout:
            head.append(line)
            if line.startswith("Ctrl-C"):
                break
        text = "".join(head)
        listening = re.search(r"listening on 127\.0\.0\.1:(\d+) \(this computer only\)", text)
        assert listening, text
        port = int(listening.group(1))
        score = re.search(rf"score: http://127\.0\.0\.1:{port}/score#token=([\w.~-]+)\n", text)
        served = _Serving(text, port, score.group(1) if score else None)
        yield served
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    served.out, served.err = out, err


def test_serve_prints_the_links_and_never_logs_the_token(ledger: Path, tmp_path: Path) -> None:
    with _serving(ledger, tmp_path) as served:
        text, port, token = served.text, served.port, served.token
        assert port != 0
        assert f"watch: http://127.0.0.1:{port}/\n" in text
        assert token is not None, text
        assert len(token) >= 20
        assert "▀" in text or "█" in text  # the QR codes
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=30) as c:
            assert c.get("/api/game").status_code == 200
            r = c.post(
                f"/api/lines?token={token}",
                json={"line": "show"},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 200
            assert c.post("/api/lines", json={"line": "show"}).status_code == 401
    assert token not in served.err and token not in served.out  # nothing logged a request


def test_a_restart_keeps_the_score_link(ledger: Path, tmp_path: Path) -> None:
    """Issue 25: the next serve of the same game gives the same token (the open score page
    keeps working); --new-token makes another, kept in its turn; --read-only keeps nothing."""
    with _serving(ledger, tmp_path) as first:
        pass
    with _serving(ledger, tmp_path) as again:
        assert again.token is not None
        with httpx.Client(base_url=f"http://127.0.0.1:{again.port}", timeout=30) as c:
            r = c.post("/api/lines", json={"line": "show"}, headers=_bearer(first.token))
            assert r.status_code == 200  # the page opened before the restart still writes
    assert first.token is not None and again.token == first.token
    with _serving(ledger, tmp_path, "--new-token") as renewed:
        pass
    assert renewed.token is not None and renewed.token != first.token
    with _serving(ledger, tmp_path) as after:
        pass
    assert after.token == renewed.token
    file = token_file(ledger)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert stat.S_IMODE(file.parent.stat().st_mode) == 0o700
    other = tmp_path / "other.json"
    other.write_bytes(ledger.read_bytes())
    with _serving(other, tmp_path, "--read-only") as watching:
        assert "score: off (--read-only)" in watching.text and watching.token is None
    assert not token_file(other).exists()


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- the token kept per game ---------------------------------------------------------------


def test_the_token_is_kept_per_ledger(ledger: Path, tmp_path: Path) -> None:
    first = score_token(ledger)
    assert len(first) >= MIN_TOKEN
    assert score_token(ledger) == first
    assert score_token(tmp_path / "." / ledger.name) == first  # the real path names it
    other = tmp_path / "other.json"
    other.write_bytes(ledger.read_bytes())
    assert score_token(other) != first  # another game, another token
    given = "given-token-0123456789"
    assert score_token(ledger, given) == given
    assert score_token(ledger) == given  # what --token gave is kept too
    assert token_file(ledger).read_text() == given + "\n"
    assert score_token(ledger, new=True) not in (given, first)
    assert [p.name for p in token_file(ledger).parent.iterdir() if p.name.startswith(".")] == []


def test_a_link_to_another_ledger_is_the_same_game(ledger: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(ledger)
    assert score_token(link) == score_token(ledger)


def _fifo(file: Path) -> None:
    os.mkfifo(file)


def _folder(file: Path) -> None:
    file.mkdir()


def _symlink(file: Path) -> None:
    target = file.parent / "elsewhere"
    target.write_text("k" * 30 + "\n")
    file.symlink_to(target)


def _short(file: Path) -> None:
    file.write_text("7\n")


def _binary(file: Path) -> None:
    file.write_bytes(b"\xff\xfe" * 20)


def _huge(file: Path) -> None:
    file.write_bytes(b"k" * 10_000_000)


HOSTILE_TOKEN_FILES = {
    "fifo": (_fifo, "is not a regular file (it is a FIFO (named pipe)); --new-token replaces it"),
    "folder": (_folder, "is not a regular file (it is a folder); --new-token replaces it"),
    "symlink": (_symlink, "is not a regular file (it is a symbolic link); --new-token"),
    "short": (_short, "holds no valid token; --new-token replaces it"),
    "binary": (_binary, "holds no valid token; --new-token replaces it"),
    "huge": (_huge, "holds no valid token; --new-token replaces it"),
}


@pytest.mark.parametrize("kind", HOSTILE_TOKEN_FILES)
def test_a_hostile_token_file_is_one_line_and_never_a_hang(
    ledger: Path, tmp_path: Path, kind: str
) -> None:
    make, message = HOSTILE_TOKEN_FILES[kind]
    file = token_file(ledger)
    file.parent.mkdir(parents=True)
    make(file)
    with pytest.raises(PrefcalcError) as refused:
        score_token(ledger)
    assert str(refused.value) == f"the score token file {file} {message.split('; ')[0]}" + (
        "; --new-token replaces it"
    )
    result = run_cli(["serve", "-f", str(ledger), "--port", "0"], tmp_path)  # never waits
    assert result.returncode == 2
    assert result.stderr == f"prefcalc: error: {refused.value}\n"
    if kind == "folder":  # a folder is not replaced: it says so, in one line
        with pytest.raises(PrefcalcError, match=r"^cannot keep the score token in .*: "):
            score_token(ledger, new=True)
        return
    token = score_token(ledger, new=True)  # --new-token replaces it, links never followed
    assert file.is_file() and not file.is_symlink() and file.read_text() == token + "\n"
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    if kind == "symlink":
        assert (file.parent / "elsewhere").read_text() == "k" * 30 + "\n"


def test_an_unreadable_token_file_is_one_line(
    ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unreadable (the suite may run as root, which reads anything: the refusal of the
    system is injected where the file is opened)."""
    file = token_file(ledger)
    keep_token(file, "k" * 20)
    real_open = os.open

    def refusing(path: Any, flags: int, *args: Any) -> int:
        if Path(path) == file:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args)

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(PrefcalcError) as refused:
        score_token(ledger)
    assert str(refused.value) == (
        f"cannot read the score token file {file}: Permission denied; --new-token replaces it"
    )


def test_a_token_that_cannot_be_kept_is_one_line(ledger: Path, tmp_path: Path) -> None:
    folder = token_file(ledger).parent
    folder.parent.mkdir(parents=True)
    folder.write_text("not a folder")
    result = run_cli(["serve", "-f", str(ledger), "--port", "0"], tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("prefcalc: error: cannot read the score token file ")
    assert result.stderr.count("\n") == 1
    with pytest.raises(PrefcalcError, match=r"^cannot keep the score token in .*: File exists"):
        score_token(ledger, new=True)


# --- the Host ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host",
    ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "localhost.evil.example",
     "[::2]", "::1", "[::1", "localhost:http", "localhost:", "", "user@localhost",
     "localhost/x", "тест".encode()],
)  # fmt: skip
def test_a_foreign_host_gets_421_and_nothing_else(
    client: TestClient, ledger: Path, host: str | bytes
) -> None:
    before = ledger.read_bytes()
    for r in (
        client.get("/api/game", headers={"Host": host}),
        client.get("/", headers={"Host": host}),
        client.post("/api/lines", json={"line": "undo"}, headers={**AUTH, "Host": host}),
    ):
        assert r.status_code == 421
        assert r.json() == {"error": MISDIRECTED}
    assert ledger.read_bytes() == before


@pytest.mark.parametrize(
    "host",
    ["localhost", "LOCALHOST:8000", "127.0.0.1", "127.0.0.1:65535", "[::1]", "[::1]:8000",
     "[0:0:0:0:0:0:0:1]", "testserver", "testserver:80"],
)  # fmt: skip
def test_the_servers_own_names_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/seats", headers={"Host": host}).status_code == 200


def test_the_host_name_and_the_printed_addresses_are_served(ledger: Path) -> None:
    name = socket.gethostname()
    hosts = host_names("0.0.0.0", ["192.168.1.20", "127.0.0.1"])
    assert {"192.168.1.20", "127.0.0.1", "localhost", "::1", name.lower()} <= hosts
    with TestClient(create_app(ledger, TOKEN, poll_interval=None, hosts=hosts)) as c:
        for host in ("192.168.1.20:8000", f"{name}:8000", name.upper(), "localhost"):
            assert c.get("/api/seats", headers={"Host": host}).status_code == 200, host
        assert c.get("/api/seats", headers={"Host": "192.168.1.21"}).status_code == 421


def test_a_missing_or_doubled_host_gets_421(client: TestClient, ledger: Path) -> None:
    """A missing Host on a real connection (HTTP/1.0 may leave it out); two Host headers
    reach the application only in process (uvicorn itself refuses them with 400)."""
    refused = json.dumps({"error": MISDIRECTED}, separators=(",", ":")).encode()
    doubled = [("Host", "localhost"), ("Host", "evil.example")]
    assert client.get("/api/game", headers=doubled).status_code == 421
    with _threaded(create_app(ledger, TOKEN, poll_interval=None)) as (port, _server):
        for request, status in (
            (b"GET /api/game HTTP/1.0\r\n\r\n", b"421"),
            (b"GET /api/game HTTP/1.0\r\nHost: localhost\r\nHost: evil.example\r\n\r\n", b"400"),
        ):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
                conn.sendall(request)
                answer = b""
                while chunk := conn.recv(65536):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 " + status + b" "), answer[:100]
            assert status != b"421" or answer.endswith(refused)


# --- the connection ------------------------------------------------------------------------


@contextlib.contextmanager
def _threaded(app: Any) -> Iterator[tuple[int, Any]]:
    """uvicorn in a thread on a socket made as ``serve`` makes it; yields the port and the
    server."""
    import threading

    import uvicorn

    sock = listen("127.0.0.1", 0)
    ready = threading.Event()

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            ready.set()

    server = Server(uvicorn.Config(app, access_log=False, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        assert ready.wait(60), "the server did not start"
        yield int(sock.getsockname()[1]), server
    finally:
        server.should_exit = True
        thread.join(60)
        sock.close()


def test_connections_are_accepted_with_tcp_nodelay(ledger: Path) -> None:
    """Issue 24: without TCP_NODELAY a small answer on a kept-alive connection waits for
    Nagle and the delayed ACK (~40 ms). The option is looked at on the server's side of a
    kept-alive connection, no clock involved."""
    with (
        _threaded(create_app(ledger, TOKEN, poll_interval=None)) as (port, server),
        httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as c,
    ):
        assert c.get("/api/seats").status_code == 200
        assert c.post("/api/lines", json={"line": "show"}, headers=AUTH).status_code == 200
        (connection,) = server.server_state.connections  # the same one, kept alive
        accepted = connection.transport.get_extra_info("socket")
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def test_listen_makes_a_tcp_socket_and_refuses_in_one_line() -> None:
    sock = listen("127.0.0.1", 0)
    try:
        assert (sock.family, sock.type, sock.proto) == (
            socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP,
        )  # fmt: skip
    finally:
        sock.close()
    for host, port in (("127.0.0.1", 70000), ("no.such.host.invalid", 0), ("1.2.3.4.5", 0)):
        with pytest.raises(PrefcalcError, match=rf"^cannot listen on {re.escape(host)}:{port}: "):
            listen(host, port)


# --- the body ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_a_body_not_sent_as_json_gets_415(
    client: TestClient, ledger: Path, kind: str | None
) -> None:
    before = ledger.read_bytes()
    headers = {**AUTH, **({"Content-Type": kind} if kind else {})}
    r = client.post("/api/lines", content=b'{"line": "a 7h 7 b:w v:p"}', headers=headers)
    assert r.status_code == 415
    assert r.json() == {"error": "send the line as JSON (Content-Type: application/json)"}
    assert ledger.read_bytes() == before


def test_a_body_with_more_than_the_line_is_refused(client: TestClient, ledger: Path) -> None:
    before = ledger.read_bytes()
    r = client.post("/api/lines", json={"line": "undo", "lines": "undo"}, headers=AUTH)
    assert r.status_code == 422 and r.json() == {"error": 'send {"line": "<a play line>"}'}
    assert ledger.read_bytes() == before


def test_the_openapi_describes_the_token_and_the_refusals(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemes = spec["components"]["securitySchemes"]
    assert schemes["score token"]["scheme"] == "bearer"
    post = spec["paths"]["/api/lines"]["post"]
    assert post["security"] == [{"score token": []}]
    for status in ("400", "401", "403", "413", "415", "421", "422", "503"):
        schema = post["responses"][status]["content"]["application/json"]["schema"]
        assert _resolved(spec, schema)["required"] == ["error"], status
    answer = post["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(_resolved(spec, answer)["properties"]) == {"output", "deals"}
    settle = {p["name"]: p for p in spec["paths"]["/api/settle"]["get"]["parameters"]}
    assert settle["method"]["schema"]["enum"] == ["pairwise", "average"]
    assert settle["rounding"]["schema"]["enum"] == ["exact", "whole"]
    assert all("421" in op["responses"] for ops in spec["paths"].values() for op in ops.values())


def test_an_unknown_rounding_is_the_clis_message(client: TestClient) -> None:
    r = client.get("/api/settle?rounding=round")
    assert r.status_code == 422
    assert r.json() == {"error": "unknown rounding 'round' (use exact or whole)"}


# --- the line runner both front ends share ----------------------------------------------------


def test_run_line_is_what_play_and_the_page_run(ledger: Path) -> None:
    blank = run_line(ledger, "   ")
    assert (blank.text, blank.result, blank.quit) == ("", None, False)
    assert blank.game == api.load(ledger)
    assert run_line(ledger, "# a comment").result is None
    assert run_line(ledger, "quit").quit and run_line(ledger, "выход").quit
    n = len(api.load(ledger).entries)
    ran = run_line(ledger, "a 7h 7 b:w v:p")
    assert ran.result is not None and ran.result.kind == "recorded" and ran.result.number == n + 1
    assert ran.text.startswith(f"recorded: deal {n + 1}")
    assert ran.game == api.load(ledger) and len(ran.game.entries) == n + 1
    said: list[str] = []
    Session(ledger, said.append).handle("undo")  # play shows what run_line printed
    assert said and said[0].startswith(f"removed deal {n + 1}:")
    before = ledger.read_bytes()
    with pytest.raises(PrefcalcError):
        run_line(ledger, "a 5h 7 b:w v:p")
    assert ledger.read_bytes() == before


def test_a_weak_token_is_refused_in_russian(ledger: Path, tmp_path: Path) -> None:
    result = run_cli(["--lang", "ru", "serve", "-f", str(ledger), "--token", "seven"], tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "prefcalc: ошибка: --token слишком короткий (5 симв.): в ключе для записи не меньше 16"
        " символов, более короткий можно подобрать\n"
    )
