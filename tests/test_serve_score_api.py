"""``prefcalc serve`` for the score page of issue 25, through its API: a request carried out
once by its id, the night's deals with each one's own table, the cap on event streams counted
under a lock, the refusals in the table's language, and the terminal's lines and QR code."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from prefcalc import api
from prefcalc.rules.model import Contract
from prefcalc.store.ledger import game_to_json_text
from prefcalc.web import create_app, listen, qr_text
from prefcalc.web.app import MAX_BODY
from prefcalc.web.models import MAX_ID, MIN_ID
from prefcalc.web.watch import LedgerWatcher
from tests.support import make_game, sample_game

TOKEN = "s3cret-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


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
    with TestClient(create_app(ledger, TOKEN, poll_interval=None)) as c:
        yield c


def _entries(path: Path) -> int:
    return len(api.load(path).entries)


# --- a request carried out once --------------------------------------------------------------


def test_the_same_id_again_is_the_first_answer_and_writes_nothing(
    client: TestClient, ledger: Path
) -> None:
    before = _entries(ledger)
    body = {"line": "a 7h 7 b:w v:p", "id": "tap-0001-abcd"}
    first = client.post("/api/lines", json=body, headers=AUTH)
    assert first.status_code == 200 and first.json()["deals"] == before + 1
    written = ledger.read_bytes()
    again = client.post("/api/lines", json=body, headers=AUTH)
    assert again.status_code == 200 and again.json() == first.json()
    assert ledger.read_bytes() == written
    # the same deal again is a new request, with a new id: recorded
    other = client.post("/api/lines", json={**body, "id": "tap-0002-abcd"}, headers=AUTH)
    assert other.status_code == 200 and _entries(ledger) == before + 2
    # without an id every request is carried out, as before
    assert client.post("/api/lines", json={"line": "undo"}, headers=AUTH).is_success
    assert client.post("/api/lines", json={"line": "undo"}, headers=AUTH).is_success
    assert _entries(ledger) == before


def test_two_requests_with_one_id_at_the_same_instant_write_once(ledger: Path) -> None:
    """A double tap: both requests are in the server at once; the table's lock takes them one
    after the other and the second finds the first one's answer."""
    before = _entries(ledger)

    async def both(body: dict[str, str]) -> list[httpx.Response]:
        app = create_app(ledger, TOKEN, poll_interval=None)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            return list(
                await asyncio.gather(
                    *(c.post("/api/lines", json=body, headers=AUTH) for _ in range(8))
                )
            )

    answers = asyncio.run(both({"line": "a 7h 7 b:w v:p", "id": "double-tap-1"}))
    assert {a.status_code for a in answers} == {200}
    assert len({a.text for a in answers}) == 1
    assert _entries(ledger) == before + 1
    undone = asyncio.run(both({"line": "undo", "id": "double-undo-1"}))
    assert {a.status_code for a in undone} == {200}
    assert _entries(ledger) == before  # one undo, not eight


def test_a_refused_line_is_remembered_and_an_id_cannot_change_its_line(
    client: TestClient, ledger: Path
) -> None:
    before = ledger.read_bytes()
    refused = client.post("/api/lines", json={"line": "a 5h 7", "id": "bad-line-1"}, headers=AUTH)
    assert refused.status_code == 422
    again = client.post("/api/lines", json={"line": "a 5h 7", "id": "bad-line-1"}, headers=AUTH)
    assert again.status_code == 422 and again.json() == refused.json()
    reused = client.post("/api/lines", json={"line": "undo", "id": "bad-line-1"}, headers=AUTH)
    assert reused.status_code == 422
    assert reused.json() == {
        "error": "the request id bad-line-1 was used for another line: nothing was written"
    }
    assert ledger.read_bytes() == before


def test_the_kept_answers_are_bounded(
    client: TestClient, ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefcalc.table import answers

    monkeypatch.setattr(answers, "KEPT_ANSWERS", 3)
    before = _entries(ledger)
    for k in range(4):
        line = f"p a={k} b={10 - k} v=0"
        assert client.post("/api/lines", json={"line": line, "id": f"kept-{k:05d}"}, headers=AUTH)
    assert _entries(ledger) == before + 4
    kept = client.app.state.table.service.answers  # type: ignore[attr-defined]
    assert kept.ids() == ["kept-00001", "kept-00002", "kept-00003"]
    # the newest are still answered once; the oldest, forgotten, is carried out again
    client.post("/api/lines", json={"line": "p a=3 b=7 v=0", "id": "kept-00003"}, headers=AUTH)
    assert _entries(ledger) == before + 4
    client.post("/api/lines", json={"line": "p a=0 b=10 v=0", "id": "kept-00000"}, headers=AUTH)
    assert _entries(ledger) == before + 5


@pytest.mark.parametrize(
    "request_id",
    ["short", "x" * (MAX_ID + 1), "has space1", "тайна-тайна", "a/b/c/d/e", 12345678, None, ""],
    ids=["short", "long", "space", "cyrillic", "slash", "number", "null", "empty"],
)
def test_a_bad_id_is_one_line_and_nothing_is_written(
    client: TestClient, ledger: Path, request_id: object
) -> None:
    before = ledger.read_bytes()
    r = client.post("/api/lines", json={"line": "a 7h 7 b:w v:p", "id": request_id}, headers=AUTH)
    if request_id is None:  # no id: carried out
        assert r.status_code == 200
        return
    assert r.status_code == 422
    assert r.json() == {
        "error": f"the request's id is {MIN_ID} to {MAX_ID} letters, digits, - or _"
    }
    assert ledger.read_bytes() == before


def test_the_openapi_documents_the_id_and_the_deals_tables(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    post = spec["paths"]["/api/lines"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    name = body["$ref"].removeprefix("#/components/schemas/")
    field = spec["components"]["schemas"][name]["properties"]["id"]
    choice = next(c for c in field["anyOf"] if c.get("type") == "string")
    assert (choice["minLength"], choice["maxLength"]) == (MIN_ID, MAX_ID)
    assert choice["pattern"] == "^[A-Za-z0-9_-]+$"
    assert "first answer" in field["description"] and "writes nothing" in field["description"]
    assert "the same id again with the first answer" in post["description"]
    log = spec["paths"]["/api/log"]["get"]["description"]
    for key in ("`players`", "`sitting_out`", "`lowest_contract`", "`shorthand`"):
        assert key in log
    events = spec["paths"]["/api/events"]["get"]
    assert "503" in events["responses"] and "Retry-After" in events["description"]


# --- the night's deals, each with its own table ----------------------------------------------


def _log(path: Path, lang: str = "en") -> list[dict[str, Any]]:
    with TestClient(create_app(path, TOKEN, lang=lang, poll_interval=None)) as c:
        items = c.get("/api/log").json()
    assert isinstance(items, list)
    return items


def test_each_deal_says_who_dealt_who_played_and_who_sat_out(tmp_path: Path) -> None:
    four = ["Anna", "Boris", "Vera", "Gleb"]
    lines = [
        "game Boris 7h 7 Vera:w Gleb:p",  # Anna deals and sits out
        "passes Anna=2 Vera=5 Gleb=3",  # Boris
        "game Anna 7s 7 Boris:w Gleb:p",  # Vera: after an all-pass deal, 7 at least
        "join Dima --after Gleb",
        "game Vera 6s 6 Anna:w Boris:p",  # five at the table: Gleb deals, Dima after him out
    ]
    path = tmp_path / "four.json"
    game = make_game(four, lines, convention="leningrad")  # 7 after an all-pass deal
    path.write_text(game_to_json_text(game), encoding="utf-8")
    items = _log(path)
    assert [
        (d.get("dealer"), d["players"], d["sitting_out"], d["lowest_contract"]) for d in items
    ] == [
        ("Anna", ["Boris", "Vera", "Gleb"], ["Anna"], 6),
        ("Boris", ["Anna", "Vera", "Gleb"], ["Boris"], 6),
        ("Vera", ["Anna", "Boris", "Gleb"], ["Vera"], 7),
        (None, four, [], 6),
        ("Gleb", ["Anna", "Boris", "Vera"], ["Gleb", "Dima"], 6),
    ]
    # the last N deals carry the same tables as the whole night (the seats of then)
    with TestClient(create_app(path, TOKEN, poll_interval=None)) as c:
        assert c.get("/api/log?last=2").json() == items[-2:]


@pytest.mark.parametrize(
    "line",
    [
        "game Аня 7h 7 Боря:w Вера:p",
        "game Аня 6s 6 Боря:w3 Вера:w1",
        "game Аня 6d - Боря:p Вера:h",
        "game Аня 8nt - Боря:p Вера:p",
        "misere Боря 0",
        "passes Аня=2 Боря=5 Вера=3",
    ],
)
def test_the_russian_shorthand_is_read_back_as_the_same_deal(tmp_path: Path, line: str) -> None:
    """The list shows each deal in the Russian shorthand, and the score page writes its lines
    in it: sent back as a line, it records the very same deal."""
    path = tmp_path / "ru.json"
    names = ["Аня", "Боря", "Вера"]
    game = make_game(names, [line])
    path.write_text(game_to_json_text(game), encoding="utf-8")
    (item,) = _log(path, "ru")
    said = item["shorthand"]
    assert not re.search(r"\b(game|misere|passes)\b|[a-z]", said), said
    again = tmp_path / "again.json"
    again.write_text(game_to_json_text(make_game(names, [])), encoding="utf-8")
    with TestClient(create_app(again, TOKEN, lang="ru", poll_interval=None)) as c:
        assert c.post("/api/lines", json={"line": said}, headers=AUTH).status_code == 200
    assert api.load(again).entries[0].deal == game.entries[0].deal


def test_a_deal_with_classic_flags_keeps_them_in_russian(tmp_path: Path) -> None:
    from prefcalc.views.night import shorthand

    deal = Contract("Аня", 7, "h", 7, (), dark=True)
    assert shorthand(deal, "ru") == "игра Аня 7ч 7 --dark"
    assert shorthand(deal, "en") == "game Аня 7h 7 --dark"  # the one writer: describe


# --- the event streams, counted under a lock ---------------------------------------------------


def test_subscribers_are_counted_under_a_lock(tmp_path: Path) -> None:
    """Fifty subscribe at once (released together by a barrier): exactly the limit get in."""
    path = tmp_path / "f.json"
    path.write_text("{}", encoding="utf-8")
    watcher = LedgerWatcher(path, interval=None)
    gate = threading.Barrier(50)
    got: list[object] = []

    def one() -> None:
        gate.wait()
        got.append(watcher.subscribe(limit=10))

    threads = [threading.Thread(target=one) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(q is not None for q in got) == 10 and watcher.watchers == 10


class _Server:
    """uvicorn in a thread on 127.0.0.1 (any port), as the browser tests run it."""

    def __init__(self, path: Path, **options: Any) -> None:
        self.app = create_app(path, TOKEN, **options)
        self.sock = listen("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        ready = threading.Event()
        loop: list[asyncio.AbstractEventLoop] = []

        class Server(uvicorn.Server):
            async def startup(self, sockets: Any = None) -> None:
                await super().startup(sockets)
                loop.append(asyncio.get_running_loop())
                ready.set()

        self.server = Server(uvicorn.Config(self.app, access_log=False, log_level="warning"))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        assert ready.wait(60)
        self.loop = loop[0]

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.app.state.table.watcher.close)  # as Ctrl-C does
        self.server.should_exit = True
        self.thread.join(60)
        self.sock.close()


def test_more_watchers_at_once_than_the_cap_never_get_more_than_the_cap(ledger: Path) -> None:
    """N + k streams opened at once: exactly N are served (and held open meanwhile), k are
    refused with 503, Retry-After and the one line; then a refused one gets in again."""
    cap, extra = 6, 5
    server = _Server(ledger, max_watchers=cap)
    gate = threading.Barrier(cap + extra)
    answered = threading.Semaphore(0)
    release = threading.Event()
    statuses: list[int] = []
    refusals: list[tuple[str | None, str]] = []

    def watch() -> None:
        with httpx.Client(base_url=server.url, timeout=60) as c:
            gate.wait()
            with c.stream("GET", "/api/events") as r:
                statuses.append(r.status_code)
                if r.status_code != 200:
                    refusals.append((r.headers.get("retry-after"), r.read().decode()))
                answered.release()
                if r.status_code == 200:
                    release.wait(60)

    threads = [threading.Thread(target=watch) for _ in range(cap + extra)]
    try:
        for thread in threads:
            thread.start()
        for _ in threads:
            assert answered.acquire(timeout=60)
        assert sorted(statuses) == [200] * cap + [503] * extra
        assert server.app.state.table.watcher.watchers == cap
        assert set(refusals) == {("2", '{"error":"too many watchers at once"}')}
    finally:
        release.set()
        for thread in threads:
            thread.join(60)
    try:
        with (
            httpx.Client(base_url=server.url, timeout=60) as c,
            c.stream("GET", "/api/events") as r,
        ):
            assert r.status_code == 200  # the places were given back
    finally:
        server.stop()
    assert server.app.state.table.watcher.watchers == 0


# --- the refusals in the table's language ----------------------------------------------------


def test_the_refusals_are_in_the_tables_language(ledger: Path) -> None:
    app = create_app(ledger, TOKEN, lang="ru", poll_interval=None, hosts={"testserver"})
    before = ledger.read_bytes()
    with TestClient(app) as c:

        def error(r: httpx.Response, status: int) -> str:
            assert r.status_code == status, r.text
            return str(r.json()["error"])

        line = {"line": "a 7h 7 b:w v:p"}
        assert error(c.post("/api/lines", json=line), 401) == (
            "в ссылке для записи нет ключа или он неверный: ничего не записано"
        )
        big = b'{"line": "' + b"a" * MAX_BODY + b'"}'
        assert error(c.post("/api/lines", content=big, headers=AUTH), 413) == (
            f"тело запроса слишком большое (не больше {MAX_BODY} байт)"
        )
        assert error(c.post("/api/lines", content=b"{}", headers=AUTH), 415).startswith(
            "пришлите строку как JSON"
        )
        json_headers = {**AUTH, "Content-Type": "application/json"}
        for body, said in [
            (b"\xff", "тело запроса — не UTF-8"),
            (b"{", "тело запроса — не JSON: текст обрывается (строка 1, столбец 2)"),
            (b'{"line": "show"', "тело запроса — не JSON: текст обрывается (строка 1, столбец 16)"),
            (b'{"line": "show" 1}', "тело запроса — не JSON: не хватает запятой или закрывающей"),
            (b'{1: "show"}', "тело запроса — не JSON: ключ не в двойных кавычках"),
            (b'{"line": 7}', 'пришлите JSON {"line": "<a play line>"}'),
            (b'{"line": "show\\nundo"}', "по одной строке (без переносов)"),
            (b'{"line": "show", "id": "x"}', "номер запроса — от 8 до 64"),
        ]:
            r = c.post("/api/lines", content=body, headers=json_headers)
            assert r.status_code in (400, 422) and r.json()["error"].startswith(said), body
        refused = error(c.post("/api/lines", json={"line": "a 5h 7 b:w v:p"}, headers=AUTH), 422)
        assert "«5h»" in refused and not re.search(r"[a-z]{3,}", refused)  # the CLI's, in Russian
        assert error(c.get("/api/nothing"), 404) == "не найдено"
        assert error(c.get("/", headers={"Host": "evil.example"}), 421).startswith(
            "сервер отвечает только по своим адресам"
        )
    assert ledger.read_bytes() == before


# --- the terminal ----------------------------------------------------------------------------

_CELL = re.compile(r"(?:\x1b\[38;5;(16|231)m)?(?:\x1b\[48;5;(16|231)m)?▀")


def _modules(text: str) -> list[list[int]]:
    """The modules a terminal shows for qr_text's output (1: dark), two rows a line."""
    rows: list[list[int]] = []
    for line in text.splitlines():
        assert line.startswith("\x1b[38;5;") and line.endswith("\x1b[0m")
        top: list[int] = []
        bottom: list[int] = []
        fg = bg = None
        for found in _CELL.finditer(line):
            fg = found.group(1) or fg
            bg = found.group(2) or bg
            assert fg and bg, "every cell has both colours set: nothing of the theme shows"
            top.append(int(fg == "16"))
            bottom.append(int(bg == "16"))
        assert "".join(_CELL.sub("", line.removesuffix("\x1b[0m"))) == ""
        rows += [top, bottom]
    return rows


def test_the_qr_code_is_dark_on_light_with_its_quiet_zone() -> None:
    import segno

    url = "http://192.168.1.20:8000/score#token=Xq3-abcdefghijklmnop"
    shown = _modules(qr_text(url))
    code = segno.make(url, error="l", micro=False)
    assert not code.is_micro  # a phone's camera reads the full code
    wanted = [list(row) for row in code.matrix_iter(scale=1, border=4)]
    assert shown[: len(wanted)] == wanted
    assert all(not any(row) for row in shown[len(wanted) :])  # the padding row is light
    quiet = [row[:4] + row[-4:] for row in shown] + shown[:4] + shown[len(wanted) - 4 :]
    assert not any(any(row) for row in quiet)  # four light modules on every side
    short = _modules(qr_text("http://x.y/"))
    assert len(short[0]) >= 21 + 8  # never a Micro QR, even for a short link


def test_the_terminal_speaks_the_language_of_the_command(ledger: Path, tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("prefcalc")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "prefcalc"]
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen(
        [
            *command,
            "--lang",
            "ru",
            "serve",
            "-f",
            str(ledger),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        head = []
        for line in proc.stdout:
            head.append(line)
            if line.startswith("Ctrl-C"):
                break
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
    text = "".join(head)
    found = re.search(r"адрес сервера: 127\.0\.0\.1:(\d+) \(только этот компьютер\)\n", text)
    assert found, head[:2]
    port = found.group(1)
    assert f"смотреть: http://127.0.0.1:{port}/\n" in text
    assert re.search(rf"записывать: http://127\.0\.0\.1:{port}/score#token=[\w.~-]+\n", text)
    assert "Ctrl-C останавливает сервер.\n" in text
    assert "listening" not in text and "watch:" not in text and "score:" not in text


# --- the sheet's words on a phone --------------------------------------------------------------


def test_names_are_shortened_as_a_table_shortens_them() -> None:
    from prefcalc.views.sheet_svg import fit, shortenings, width

    assert shortenings("Борис") == ["Бор.", "Б.", "Б"]
    assert shortenings("Александра")[:3] == ["Алекс.", "Ал.", "А."]  # never Александр.
    assert shortenings("Дмитрий")[0] == "Дмитр." and "Дм." in shortenings("Дмитрий")
    assert shortenings("Anna-Maria")[0] == "Anna-Mar." and shortenings("Jo") == ["J.", "J"]
    assert shortenings("Zoë") == ["Z.", "Z"]  # never a letter cut from its mark
    for name in ("Борис", "Александра", "Дмитрий", "Евгения", "Ëлка"):
        for room in range(8, 120, 4):
            shown = fit(name, 12, room)
            assert "…" not in shown
            assert shown == name or shown in shortenings(name)
            assert width(shown, 12) <= room or shown == name[:1]


def test_a_whist_label_keeps_the_case_it_can(tmp_path: Path) -> None:
    from prefcalc.i18n import speaking
    from prefcalc.views.sheet_svg import whist_label

    with speaking("ru"):
        assert whist_label("Борис", 10.5, 200) == "на Бориса"
        assert whist_label("Александра", 10.5, 60) == "на Алекс."
        assert whist_label("Борис", 10.5, 8) == "Б"
    assert whist_label("Boris", 10.5, 200) == "on Boris"


def test_a_long_run_keeps_its_last_values_whole() -> None:
    from prefcalc.views.sheet_layout import Box
    from prefcalc.views.sheet_svg import flow

    tokens = [(str(v), False) for v in range(2, 80, 4)]
    lines = flow(tokens, 12.5, Box(0, 0, 60, 15))
    assert len(lines) == 1 and lines[0].startswith("…") and lines[0].endswith("78")
    kept = lines[0][1:].split(".")
    assert all(k in {t for t, _ in tokens} for k in kept)  # whole values, never "…0. 15"
    assert flow([("4", False), ("12", True)], 12.5, Box(0, 0, 200, 15)) == ["4.12|"]
