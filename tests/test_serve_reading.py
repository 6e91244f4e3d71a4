"""The pages' one reading and a lost request's answer, through serve's API and the app's
engine (issue 32, item 1 and 6; issue 36, item 5): ``GET /api/reading`` is the game, the
seats, the deals, the settlement and the cases of one state of the ledger, with the version
the events announce for it; ``GET /api/lines/{id}`` is a request's remembered answer (404 when
none of that id was carried out); each deal of the log says whether it can be deleted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from prefcalc import api
from prefcalc.app.engine import Engine
from prefcalc.store.ledger import game_to_json_text
from prefcalc.web import create_app
from tests.support import make_game

TOKEN = "s3cret-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
FOUR = ["Anna", "Boris", "Vera", "Gleb"]
DEALS = [
    "game Boris 7h 7 Vera:w Gleb:p",  # Anna dealt and sat out
    "game Vera 6s 6 Gleb:w Anna:p",  # Boris dealt
    "passes Anna=2 Boris=5 Gleb=3",  # Vera dealt
]


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PREFCALC_FILE", raising=False)


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    path.write_text(game_to_json_text(make_game(FOUR, DEALS)), encoding="utf-8")
    return path


@pytest.fixture
def client(ledger: Path) -> Iterator[TestClient]:
    with TestClient(create_app(ledger, TOKEN, poll_interval=None)) as c:
        yield c


def test_a_reading_is_the_parts_of_one_state_with_the_events_version(
    client: TestClient, ledger: Path
) -> None:
    reading = client.get("/api/reading?last=2&method=average&rounding=whole").json()
    assert set(reading) == {"version", "game", "seats", "log", "settle", "cases"}
    assert reading["game"] == client.get("/api/game").json()
    assert reading["seats"] == client.get("/api/seats").json()
    assert reading["log"] == client.get("/api/log?last=2").json()
    assert reading["settle"] == client.get("/api/settle?method=average&rounding=whole").json()
    assert reading["cases"] == client.get("/api/cases").json()
    watcher = client.app.state.table.watcher  # type: ignore[attr-defined]
    watcher.poll()
    assert reading["version"] == json.loads(watcher.message())["version"]
    with_sheet = client.get("/api/reading?sheet=1").json()
    assert with_sheet["sheet"].startswith("<svg") and with_sheet["version"] == reading["version"]
    assert len(with_sheet["log"]) == 3  # no last: every deal
    # a write of any kind is another version; an undo, the version of the state it goes back to
    versions = [reading["version"]]
    for line in ("game Anna 6c 6 Boris:w Vera:p", "set target=30", "join Dima"):
        answer = client.post("/api/lines", json={"line": line}, headers=AUTH)
        assert answer.status_code == 200, answer.text
        version = client.get("/api/reading").json()["version"]
        assert version not in versions, line
        versions.append(version)
    assert client.post("/api/lines", json={"line": "undo"}, headers=AUTH).status_code == 200
    assert client.get("/api/reading").json()["version"] == versions[-2]
    assert client.get("/api/reading?method=fair").status_code == 422
    assert client.get("/api/reading?last=-1").status_code == 422


def test_a_lost_answer_is_read_back_by_its_id(client: TestClient, ledger: Path) -> None:
    assert client.get("/api/lines/tap-0001-abcd").status_code == 401  # the score token's
    assert client.get("/api/lines/tap-0001-abcd", headers=AUTH).status_code == 404
    body = {"line": "game Anna 6c 6 Boris:w Vera:p", "id": "tap-0001-abcd"}
    first = client.post("/api/lines", json=body, headers=AUTH)
    assert first.status_code == 200
    kept = client.get("/api/lines/tap-0001-abcd", headers=AUTH)
    assert kept.status_code == 200 and kept.json() == first.json()
    refused = client.post(
        "/api/lines", json={"line": "game Nobody 6c 6", "id": "tap-0002-abcd"}, headers=AUTH
    )
    assert refused.status_code == 422
    again = client.get("/api/lines/tap-0002-abcd", headers=AUTH)
    assert again.status_code == 422 and again.json() == refused.json()
    missing = client.get("/api/lines/tap-0003-abcd", headers=AUTH)
    assert missing.status_code == 404 and "tap-0003-abcd" in missing.json()["error"]
    assert len(api.load(ledger).entries) == 4


def test_each_deal_says_whether_it_can_be_deleted(client: TestClient, ledger: Path) -> None:
    """At four, deleting a deal in the middle would seat a later deal's player out: refused,
    as the log says beforehand; the last deal can go. The log's answer is delete's own."""
    log = client.get("/api/log").json()
    assert [item["deletable"] for item in log] == [False, False, True]
    for item in log[:2]:
        refused = client.post("/api/lines", json={"line": f"delete {item['number']}"}, headers=AUTH)
        assert refused.status_code == 422
        assert refused.json()["error"] == item["delete_refusal"]
    assert "delete_refusal" not in log[2]
    done = client.post("/api/lines", json={"line": "delete 3"}, headers=AUTH)
    assert done.status_code == 200


def test_the_engine_gives_the_same_reading(ledger: Path, tmp_path: Path) -> None:
    engine = Engine(tmp_path / "games")
    engine.open("g", ledger.read_text(encoding="utf-8"))
    with TestClient(create_app(ledger, TOKEN, poll_interval=None)) as client:
        served = client.get("/api/reading?last=30&sheet=1").json()
    read = engine.reading("g", 30, "pairwise", "exact", True)
    assert read == served
    with pytest.raises(api.PrefcalcError):
        engine.reading("g", -1)
