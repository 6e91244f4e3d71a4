"""``prefcalc serve`` and the phones' app: ``POST /api/games`` (a phone's game as a new ledger
of the data folder, never replacing a file; every hostile body one line and a 4xx, nothing
written) and the built app offered at ``/app/`` with its own Content-Security-Policy."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from prefcalc import app as app_package
from prefcalc.app import build as app_build
from prefcalc.store.games import games_dir
from prefcalc.store.ledger import game_to_json_text
from prefcalc.web import create_app, games
from tests.support import sample_game

TOKEN = "phone-games-token-16"
AUTH = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PREFCALC_FILE", raising=False)


def _client(tmp_path: Path, read_only: bool = False) -> Iterator[TestClient]:
    served = tmp_path / "served.json"
    served.write_text(game_to_json_text(sample_game()), encoding="utf-8")
    with TestClient(create_app(served, TOKEN, read_only=read_only, poll_interval=None)) as c:
        yield c


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    yield from _client(tmp_path)


def _phone_game() -> bytes:
    return game_to_json_text(sample_game()).encode("utf-8")


def _folder() -> list[str]:
    folder = games_dir()
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def _one_line(answer: object, status: int) -> str:
    assert getattr(answer, "status_code", None) == status, getattr(answer, "text", answer)
    error = answer.json()["error"]  # type: ignore[attr-defined]
    assert isinstance(error, str) and error and "\n" not in error
    return error


def test_a_phones_game_becomes_a_new_ledger(client: TestClient, tmp_path: Path) -> None:
    body = _phone_game()
    answer = client.post("/api/games?name=2026-11-30-night", content=body, headers=AUTH)
    assert answer.status_code == 201, answer.text
    got = answer.json()
    assert got["name"] == "2026-11-30-night" and got["deals"] == 13
    written = games_dir() / "2026-11-30-night.json"
    assert written.read_bytes() == body  # the store wrote it: the app's own text
    from tests.support import invoke

    shown = invoke(["show", "--json", "-f", str(written)], tmp_path)
    assert shown.returncode == 0 and json.loads(shown.stdout)["deals"] == 13


def test_without_a_name_it_is_named_as_prefcalc_new_names_a_game(client: TestClient) -> None:
    answer = client.post("/api/games", content=_phone_game(), headers=AUTH)
    assert answer.status_code == 201, answer.text
    assert answer.json()["name"].endswith("-Anna-Boris-Vera")


def test_never_replacing_a_file_and_recognising_a_game_already_there(
    client: TestClient,
) -> None:
    body = _phone_game()
    assert client.post("/api/games?name=one", content=body, headers=AUTH).status_code == 201
    again = client.post("/api/games?name=two", content=body, headers=AUTH)
    assert "one.json" in _one_line(again, 409)
    other = game_to_json_text(sample_game("leningrad")).encode()
    taken = client.post("/api/games?name=one", content=other, headers=AUTH)
    assert "one" in _one_line(taken, 409)
    assert (games_dir() / "one.json").read_bytes() == body
    assert _folder() == ["one.json", "one.json.lock"]


@pytest.mark.parametrize(
    ("body", "headers", "query", "status"),
    [
        (b"{}", {"Authorization": "Bearer wrong-token-wrong"}, "", 401),
        (b"{}", {}, "", 401),
        (b"{}", {"Authorization": f"Basic {TOKEN}"}, "", 401),
        (b"not json", None, "", 422),
        (b'{"schema": 2, "players": ["Anna"]}', None, "", 422),
        (b"[" * 100_000, None, "", 422),
        (b"\xff\xfe\x00junk", None, "", 400),
        (b"{}", None, "?name=../../etc/x", 400),
        (b"{}", None, "?name=.hidden", 400),
        (b"{}", None, "?name=night.json", 400),
        (b"{}", None, "?name=" + "a" * 300, 400),
    ],
)
def test_hostile_bodies_are_one_line_and_write_nothing(
    client: TestClient, body: bytes, headers: dict[str, str] | None, query: str, status: int
) -> None:
    sent = {**AUTH, **(headers or {})} if headers is not None else AUTH
    if headers == {}:
        sent = {"Content-Type": "application/json"}
    _one_line(client.post("/api/games" + query, content=body, headers=sent), status)
    assert _folder() == []


def test_a_body_over_the_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games, "MAX_GAME", 1000)
    for client in _client(tmp_path):
        declared = client.post(
            "/api/games", content=b"x" * 10, headers={**AUTH, "Content-Length": "2000000000"}
        )
        _one_line(declared, 413)

        def chunks() -> Iterator[bytes]:
            for _ in range(20):
                yield b" " * 100

        streamed = client.post("/api/games", content=chunks(), headers=AUTH)
        _one_line(streamed, 413)
        # the API's lines keep their own, smaller limit
        line = client.post("/api/lines", content=b" " * 20_000, headers=AUTH)
        _one_line(line, 413)
    assert _folder() == []


def test_a_game_larger_than_a_line_is_received(client: TestClient) -> None:
    from tests.support import random_game

    body = game_to_json_text(random_game(7, 400, target=10_000)).encode()
    assert len(body) > 16 * 1024  # more than any play line may be
    answer = client.post("/api/games?name=long", content=body, headers=AUTH)
    assert answer.status_code == 201, answer.text


def test_a_read_only_server_takes_no_game(tmp_path: Path) -> None:
    for c in _client(tmp_path, read_only=True):
        _one_line(c.post("/api/games", content=_phone_game(), headers=AUTH), 403)
    assert _folder() == []


def _fake_build(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / app_build.MARK).write_text("{}")
    (folder / "index.html").write_text("<!doctype html><title>prefcalc</title>")


def test_the_built_app_is_offered_at_app_with_its_policy(tmp_path: Path) -> None:
    _fake_build(app_package.default_dir())
    for c in _client(tmp_path):
        page = c.get("/app/")
        assert page.status_code == 200 and "prefcalc" in page.text
        policy = page.headers.get_list("content-security-policy")
        assert policy == [games.APP_POLICY.decode()]
        assert "'wasm-unsafe-eval'" in policy[0]
        other = c.get("/api/game")
        assert "wasm-unsafe-eval" not in other.headers.get("content-security-policy", "")


def test_no_app_without_a_build(client: TestClient) -> None:
    assert client.get("/app/").status_code == 404


def test_the_server_and_the_build_agree_where_the_app_is() -> None:
    from prefcalc.store.ledger import data_dir

    assert app_package.default_dir() == data_dir() / games.APP_FOLDER
    assert app_build.MARK == games.BUILT_MARK


def test_serve_prints_the_install_line_when_the_app_is_built() -> None:
    out = io.StringIO()
    games.print_install(out, "http://192.168.1.20:8000/app/", qr=False)
    assert out.getvalue() == ""
    _fake_build(app_package.default_dir())
    drawn: list[str] = []
    games.print_install(
        out, "http://192.168.1.20:8000/app/", qr=True, draw=lambda u, o: drawn.append(u)
    )
    assert out.getvalue() == "install: http://192.168.1.20:8000/app/\n"
    assert drawn == ["http://192.168.1.20:8000/app/"]
