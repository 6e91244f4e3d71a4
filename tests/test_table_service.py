"""The table service (issue 32, item 1): serve's routes and the app's engine are two callers of
one service, so they answer the same; one reading is one state of the ledger, with the
ledger's version; a request's answer can be read back by its id."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from prefcalc import api
from prefcalc.app import engine
from prefcalc.store.ledger import game_to_json_text
from prefcalc.table import answers, service
from prefcalc.table.service import Service
from prefcalc.web import create_app
from tests.support import sample_game

TOKEN = "s3cret-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
DEAL = "game Anna 7h 7 Boris:w Vera:p"


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PREFCALC_FILE", raising=False)
    monkeypatch.setattr(engine, "_engine", None)  # a fresh engine per test


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    path.write_text(game_to_json_text(sample_game()), encoding="utf-8")
    return path


@pytest.fixture
def client(ledger: Path) -> Iterator[TestClient]:
    with TestClient(create_app(ledger, TOKEN, poll_interval=None)) as c:
        yield c


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _engine(root: Path, op: str, **args: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(engine.handle(json.dumps({"op": op, "args": args}), root))
    return answer


def _ok(root: Path, op: str, **args: Any) -> Any:
    answer = _engine(root, op, **args)
    assert answer["ok"], answer
    return answer["result"]


def _opened(root: Path, ledger: Path, lang: str) -> str:
    """The served ledger, opened in the app's engine as the phone opens a kept game."""
    _ok(root, "lang", lang=lang)
    _ok(root, "open", name="g", ledger=ledger.read_text(encoding="utf-8"), redo=None)
    return "g"


# --- two callers, one service ------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_serve_and_the_engine_answer_the_same(ledger: Path, tmp_path: Path, lang: str) -> None:
    root = tmp_path / "games"
    name = _opened(root, ledger, lang)
    try:
        with TestClient(create_app(ledger, TOKEN, lang=lang, poll_interval=None)) as client:
            for route, op, args in (
                ("/api/game", "game", {}),
                ("/api/log", "log", {}),
                ("/api/log?last=3", "log", {"last": 3}),
                ("/api/settle?method=average&rounding=whole", "settle", {"method": "average", "rounding": "whole"}),
                ("/api/seats", "seats", {}),
                ("/api/cases", "cases", {}),
                ("/api/reading?last=2&method=average&sheet=1", "reading", {"last": 2, "method": "average", "sheet": True}),
            ):  # fmt: skip
                served = client.get(route)
                assert served.status_code == 200, served.text
                assert served.json() == _ok(root, op, name=name, **args), route
            svg = client.get("/sheet.svg").text
            assert svg == _ok(root, "sheet", name=name)["svg"]
            # a refused line: one line, the same in both, naming the ledger by its file name
            refused = client.post(
                "/api/lines", json={"line": "game Zed 7h 7 b:w v:p"}, headers=AUTH
            )
            said = _engine(root, "line", name=name, line="game Zed 7h 7 b:w v:p")
            assert refused.status_code == 422 and said["ok"] is False
            assert refused.json()["error"] == said["error"]
            # a line carried out: the same answer (the engine adds the files and the version)
            done = client.post("/api/lines", json={"line": DEAL}, headers=AUTH).json()
            mine = _ok(root, "line", name=name, line=DEAL)
            assert {k: mine[k] for k in done} == done
            assert mine["version"] == hashlib.sha256(mine["files"]["ledger"].encode()).hexdigest()
            if lang == "ru":  # both said it in Russian, not both in English
                assert client.get("/api/log?last=1").json()[0]["shorthand"].startswith("игра ")
    finally:
        _ok(root, "lang", lang="en")


def test_a_reading_is_its_parts_of_one_state_with_the_ledgers_version(
    client: TestClient, ledger: Path
) -> None:
    reading = client.get("/api/reading?last=4&method=average&rounding=whole").json()
    assert set(reading) == {"version", "game", "seats", "log", "settle", "cases"}
    assert reading["version"] == _sha(ledger)
    assert reading["game"] == client.get("/api/game").json()
    assert reading["seats"] == client.get("/api/seats").json()
    assert reading["log"] == client.get("/api/log?last=4").json()
    assert reading["settle"] == client.get("/api/settle?method=average&rounding=whole").json()
    assert reading["cases"] == client.get("/api/cases").json()
    drawn = client.get("/api/reading?sheet=1").json()
    assert drawn["sheet"] == client.get("/sheet.svg").text
    # the events stream announces the very same version
    watcher = client.app.state.table.watcher  # type: ignore[attr-defined]
    watcher.poll()
    assert json.loads(watcher.message()) == {"version": reading["version"]}


@pytest.mark.parametrize(
    "line",
    [
        DEAL,  # a deal
        "join Dima",  # a late arrival
        "set target=30",  # a change of terms
        "edit 1 game Anna 6s 6 Boris:w Vera:p",  # an edit
        "undo",  # an undo
        "player Vera --gender f",  # a gender: no deal, no count changes
    ],
)
def test_every_kind_of_write_changes_the_version(client: TestClient, line: str) -> None:
    before = client.get("/api/reading").json()
    done = client.post("/api/lines", json={"line": line}, headers=AUTH)
    assert done.status_code == 200, done.text
    after = client.get("/api/reading").json()
    assert after["version"] != before["version"]
    again = client.get("/api/reading").json()
    assert again["version"] == after["version"]  # a reading writes nothing


def test_a_reading_never_mixes_two_states(
    client: TestClient, ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write lands between the service's load and its answer (another terminal records a
    deal then): every part of the reading is of the state it loaded, with that version."""
    before = _sha(ledger)
    deals = len(api.load(ledger).entries)
    loaded = Service.load
    written: list[str] = []

    def load_then_write(self: Service) -> service.Loaded:
        found = loaded(self)
        if not written:  # once: `prefcalc game ...` in another terminal, right now
            api.update(ledger, lambda g: api.record(g, DEAL))
            written.append(_sha(ledger))
        return found

    monkeypatch.setattr(Service, "load", load_then_write)
    reading = client.get("/api/reading?sheet=1").json()
    assert written and written[0] != before  # the write did land in the middle
    assert reading["version"] == before
    assert reading["game"]["deals"] == reading["seats"]["deals"] == deals
    assert len(reading["log"]) == deals
    assert reading["log"][-1]["number"] == deals
    monkeypatch.setattr(Service, "load", loaded)
    later = client.get("/api/reading").json()  # the next reading is all of the new state
    assert later["version"] == written[0]
    assert later["game"]["deals"] == later["seats"]["deals"] == len(later["log"]) == deals + 1


def test_a_reading_is_refused_in_one_line(client: TestClient, tmp_path: Path) -> None:
    for query in ("method=fair", "rounding=up", "last=-1", "last=x", "sheet=maybe"):
        refused = client.get(f"/api/reading?{query}")
        assert refused.status_code == 422, query
        assert list(refused.json()) == ["error"] and "\n" not in refused.json()["error"]
    root = tmp_path / "games"
    name = _opened(root, tmp_path / "g.json", "en")
    for args in ({"last": -1}, {"last": True}, {"method": "fair"}, {"sheet": "yes"}):
        said = _engine(root, "reading", name=name, **args)
        assert said["ok"] is False and "\n" not in said["error"], args


# --- a lost answer, read back by its request's id ---------------------------------------------


def test_a_lost_answer_is_read_back_by_its_id(client: TestClient, ledger: Path) -> None:
    body = {"line": DEAL, "id": "lost-answer-01"}
    first = client.post("/api/lines", json=body, headers=AUTH)
    assert first.status_code == 200
    kept = client.get("/api/lines/lost-answer-01", headers=AUTH)
    assert kept.status_code == 200 and kept.json() == first.json()
    # a request never carried out: 404, one line, nothing written
    written = ledger.read_bytes()
    unknown = client.get("/api/lines/never-sent-01", headers=AUTH)
    assert unknown.status_code == 404
    assert unknown.json() == {
        "error": "no request never-sent-01 was carried out here (it may be sent again)"
    }
    # a refused request: its refusal, as the POST answered it
    refused = client.post("/api/lines", json={"line": "a 5h 7", "id": "refused-0001"}, headers=AUTH)
    again = client.get("/api/lines/refused-0001", headers=AUTH)
    assert again.status_code == 422 and again.json() == refused.json()
    # not an id: one line; without the token: 401; reading writes nothing
    for bad in ("short", "x" * 65, "bad%20id%20here"):
        assert client.get(f"/api/lines/{bad}", headers=AUTH).status_code == 422, bad
    assert client.get("/api/lines/lost-answer-01").status_code == 401
    assert ledger.read_bytes() == written


def test_a_read_only_server_has_no_answers_to_read(ledger: Path) -> None:
    with TestClient(create_app(ledger, TOKEN, read_only=True, poll_interval=None)) as c:
        assert c.get("/api/lines/lost-answer-01", headers=AUTH).status_code == 403


def test_the_engine_carries_out_an_id_once_and_reads_its_answer_back(tmp_path: Path) -> None:
    root = tmp_path / "games"
    name = _ok(root, "new", players=["Anna", "Boris", "Vera"], convention="sochi")["name"]
    assert _ok(root, "hello")["remembered"] == answers.KEPT_ANSWERS
    assert _ok(root, "answer", name=name, id="tap-0001-abcd") is None
    first = _ok(root, "line", name=name, line=DEAL, id="tap-0001-abcd")
    assert first["deals"] == 1 and "files" in first
    again = _ok(root, "line", name=name, line=DEAL, id="tap-0001-abcd")
    assert again["deals"] == 1 and "files" not in again  # nothing written the second time
    assert again["version"] == first["version"]
    assert _ok(root, "answer", name=name, id="tap-0001-abcd") == {
        "output": first["output"],
        "deals": 1,
    }
    reused = _engine(root, "line", name=name, line="undo", id="tap-0001-abcd")
    assert reused == {
        "ok": False,
        "error": "the request id tap-0001-abcd was used for another line: nothing was written",
    }
    refused = _engine(root, "line", name=name, line="a 5h 7", id="refused-0001")
    assert _engine(root, "answer", name=name, id="refused-0001") == refused
    assert _engine(root, "answer", name=name, id="bad id")["ok"] is False
    assert _engine(root, "line", name=name, line="undo", id="x")["ok"] is False
    # the page puts the game back from the phone's storage (a write it could not keep):
    # the answers were of the ledger it replaced, so the same id is carried out again
    files = _ok(root, "line", name=name, line="undo")["files"]
    _ok(root, "open", name=name, ledger=files["ledger"], redo=files["redo"])
    assert _ok(root, "answer", name=name, id="tap-0001-abcd") is None
    assert _ok(root, "line", name=name, line=DEAL, id="tap-0001-abcd")["deals"] == 1


def test_the_engines_reading_carries_the_version_of_its_files(tmp_path: Path) -> None:
    root = tmp_path / "games"
    made = _ok(root, "new", players=["Anna", "Boris", "Vera"], convention="sochi")
    name = made["name"]
    first = _ok(root, "reading", name=name)
    ledger_text = made["files"]["ledger"]
    assert first["version"] == hashlib.sha256(ledger_text.encode()).hexdigest()
    done = _ok(root, "line", name=name, line=DEAL)
    after = _ok(root, "reading", name=name)
    assert after["version"] == done["version"] != first["version"]
    assert after["game"]["deals"] == len(after["log"]) == 1
