"""``prefcalc serve --tournament DIR`` in process (issue 28): the hall's page and its JSON (the
standings as ``prefcalc tournament standings`` computes them, every table of the round), each
table's serve pages under ``/t/<round>/<table>/`` with its own token, the hall's watch, the
terminal's links and kept tokens, and every refusal in one line with nothing changed."""

from __future__ import annotations

import io
import stat
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support import invoke
from tournament_support import play, settled

from prefcalc.tournament import api as tournament
from prefcalc.tournament.text import standings_json
from prefcalc.web.hall import create_hall_app

pytestmark = pytest.mark.usefixtures("data_home")

PLAYERS = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"]


def token_of(ledger: Path) -> str:
    return f"hall-test-token-{ledger.stem}"


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    folder = tmp_path / "cup"
    tournament.new(folder, PLAYERS, rounds=2, deals=2, convention="sochi", seed=7)
    tournament.draw(folder)
    return folder


def hall_client(folder: Path, **options: object) -> TestClient:
    options.setdefault("hosts", {"testserver"})
    return TestClient(create_hall_app(folder, token_of, poll_interval=None, **options))  # type: ignore[arg-type]


@pytest.fixture
def client(cup: Path) -> Iterator[TestClient]:
    with hall_client(cup) as c:
        yield c


def a_deal(folder: Path, round_: int, table: int) -> str:
    """A legal deal for the table's next dealer's three active players."""
    from prefcalc import api
    from prefcalc.rules.model import active_players

    game = api.load(folder / f"r{round_}-t{table}.json")
    a, b, c = active_players(game, game.next_dealer)
    return f"game {a} 7h 7 {b}:w {c}:p"


def bearer(folder: Path, round_: int, table: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {token_of(folder / f'r{round_}-t{table}.json')}"}


def test_the_hall_shows_the_round_the_standings_and_every_table(
    client: TestClient, cup: Path
) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'data-page="hall"' in page.text and "/static/hall.js" not in page.text  # page.js
    assert 'data-testid="standings"' in page.text and 'id="table-card"' in page.text
    hall = client.get("/api/hall").json()
    assert hall["round"] == 1 and hall["rounds"] == 2 and hall["name"] == "cup"
    expected = standings_json(tournament.standings(cup))["players"]
    assert [(r["place"], r["name"], r["points"], r["whists"]) for r in hall["standings"]] == [
        (r["place"], r["name"], r["points"], r["whists"]) for r in expected
    ]
    drawn = tournament.load(cup).draws[0].tables
    assert [tb["table"] for tb in hall["tables"]] == [tb.table for tb in drawn]
    for card, record in zip(hall["tables"], drawn, strict=True):
        assert card["players"] == list(record.players)
        assert card["dealer"] == record.dealer  # no deal yet: the first dealer deals next
        assert card["deals"] == 0 and card["complete"] is False
        assert [b["name"] for b in card["balances"]] == list(record.players)
        assert card["watch"] == f"/t/1/{record.table}/"


def test_a_deal_through_a_tables_score_link_moves_the_standings(
    client: TestClient, cup: Path
) -> None:
    watcher = client.app.state.hall.watcher  # type: ignore[attr-defined]
    before = watcher.version
    line = a_deal(cup, 1, 1)
    done = client.post("/t/1/1/api/lines", json={"line": line}, headers=bearer(cup, 1, 1))
    assert done.status_code == 200, done.text
    assert client.portal.call(watcher.check) is True and watcher.version != before
    hall = client.get("/api/hall").json()
    table = hall["tables"][0]
    assert table["deals"] == 1 and table["complete"] is False
    results = settled(cup, "r1-t1.json")  # the table's own settle --json
    for b in table["balances"]:
        assert Fraction(b["whists"]) == results[b["name"]]
    assert sum(Fraction(b["whists"]) for b in table["balances"]) == 0
    expected = standings_json(tournament.standings(cup))["players"]
    assert [(r["name"], r["points"]) for r in hall["standings"]] == [
        (r["name"], r["points"]) for r in expected
    ]
    assert any(r["points"] != "0" for r in hall["standings"])


def test_the_hall_hears_a_deal_recorded_by_the_cli_and_a_new_round(
    client: TestClient, cup: Path
) -> None:
    watcher = client.app.state.hall.watcher  # type: ignore[attr-defined]
    client.get("/api/hall")
    assert client.portal.call(watcher.check) is False  # nothing changed yet
    for record in tournament.load(cup).draws[0].tables:
        play(cup, record.file, 2)
    assert client.portal.call(watcher.check) is True
    assert all(tb["complete"] for tb in client.get("/api/hall").json()["tables"])
    tournament.draw(cup)
    assert client.portal.call(watcher.check) is True
    hall = client.get("/api/hall").json()
    assert hall["round"] == 2 and all(tb["round"] == 2 for tb in hall["tables"])
    assert all(tb["deals"] == 0 for tb in hall["tables"])
    # round 2's tables are served as they are asked for, each with its own token
    assert client.get("/t/2/1/api/game").status_code == 200
    line = a_deal(cup, 2, 1)
    done = client.post("/t/2/1/api/lines", json={"line": line}, headers=bearer(cup, 2, 1))
    assert done.status_code == 200, done.text


def test_each_table_serves_its_own_pages_under_its_path(client: TestClient, cup: Path) -> None:
    watch = client.get("/t/1/2/")
    assert watch.status_code == 200 and 'data-base="/t/1/2"' in watch.text
    assert 'href="/">the hall</a>' in watch.text
    score = client.get("/t/1/2/score")
    assert score.status_code == 200 and 'data-page="score"' in score.text
    assert 'href="/t/1/2/">the watcher page</a>' in score.text
    game = client.get("/t/1/2/api/game").json()
    assert [p["name"] for p in game["players"]] == list(tournament.load(cup).table(1, 2).players)
    assert client.get("/t/1/2/sheet.svg").headers["content-type"].startswith("image/svg")
    # serve's own page for one game has no hall to link to
    assert 'data-base=""' in TestClient(_single(cup)).get("/").text


def _single(cup: Path) -> object:
    from prefcalc.web import create_app

    return create_app(cup / "r1-t1.json", token_of(cup / "r1-t1.json"), poll_interval=None)


def test_one_tables_token_never_scores_another(client: TestClient, cup: Path) -> None:
    ledgers = {f: (cup / f).read_bytes() for f in ("r1-t1.json", "r1-t2.json")}
    line = a_deal(cup, 1, 1)
    for headers in (bearer(cup, 1, 2), {}, {"Authorization": "Bearer nope"}):
        refused = client.post("/t/1/1/api/lines", json={"line": line}, headers=headers)
        assert refused.status_code == 401
        assert list(refused.json()) == ["error"] and "\n" not in refused.json()["error"]
    assert {f: (cup / f).read_bytes() for f in ledgers} == ledgers


@pytest.mark.parametrize(
    ("url", "status", "words"),
    [
        ("/t/1/9/", 404, "round 1 has no table 9"),
        ("/t/1/9/api/lines", 404, "round 1 has no table 9"),
        ("/t/2/1/score", 404, "there is no round 2"),
        ("/t/0/1/api/game", 404, "there is no round 0"),
        ("/t/99999999999999999999/1/", 404, "there is no round"),
        ("/t/x/1/", 404, "Not Found"),
        ("/t/1/1", 404, None),  # redirected to /t/1/1/ (the test client follows it)
    ],
)
def test_an_unknown_table_is_one_line(
    client: TestClient, cup: Path, url: str, status: int, words: str | None
) -> None:
    before = sorted(p.name for p in cup.iterdir())
    answer = client.post(url, json={"line": "x"}) if url.endswith("lines") else client.get(url)
    if words is None:
        assert answer.status_code == 200 and answer.url.path == "/t/1/1/"
        return
    assert answer.status_code == status
    assert words in answer.json()["error"] and "\n" not in answer.json()["error"]
    assert sorted(p.name for p in cup.iterdir()) == before


def test_a_foreign_host_is_421_for_the_hall_and_every_table(client: TestClient, cup: Path) -> None:
    ledger = (cup / "r1-t1.json").read_bytes()
    for url in ("/", "/api/hall", "/api/events", "/t/1/1/", "/t/1/1/api/game"):
        answer = client.get(url, headers={"Host": "evil.example"})
        assert answer.status_code == 421, url
    line = a_deal(cup, 1, 1)
    answer = client.post(
        "/t/1/1/api/lines",
        json={"line": line},
        headers={**bearer(cup, 1, 1), "Host": "evil.example"},
    )
    assert answer.status_code == 421
    assert (cup / "r1-t1.json").read_bytes() == ledger


def test_a_read_only_hall_records_nothing(cup: Path) -> None:
    with hall_client(cup, read_only=True) as c:
        line = a_deal(cup, 1, 1)
        answer = c.post("/t/1/1/api/lines", json={"line": line}, headers=bearer(cup, 1, 1))
        assert answer.status_code == 403
        assert c.get("/api/hall").status_code == 200


def test_a_table_edited_into_other_players_is_refused_in_one_line(cup: Path) -> None:
    from prefcalc import api
    from prefcalc.store.ledger import game_to_json_text

    record = tournament.load(cup).table(1, 2)
    other = api.new_game(["Xenia", "Yuri", "Zoya"], "sochi", 20)
    (cup / record.file).write_text(game_to_json_text(other), encoding="utf-8")
    with hall_client(cup) as c:
        # the hall: that table is one card saying why, every other one as usual (issue 35)
        hall = c.get("/api/hall")
        assert hall.status_code == 200
        cards = {card["table"]: card for card in hall.json()["tables"]}
        assert "round 1, table 2 (r1-t2.json): the ledger's players are" in cards[2]["error"]
        assert cards[1]["error"] == "" and len(cards[1]["balances"]) == 4
        page = c.get("/t/1/2/")
        assert page.status_code == 422 and "\n" not in page.json()["error"]
        assert c.get("/t/1/1/api/game").status_code == 200  # the other table is served


def test_a_folder_that_is_not_a_tournament(tmp_path: Path) -> None:
    done = invoke(["serve", "--tournament", str(tmp_path), "--port", "0"], tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "not a tournament folder" in done.stderr
    done = invoke(["--lang", "ru", "serve", "--tournament", str(tmp_path / "none")], tmp_path)
    assert done.returncode == 2 and "это не папка турнира" in done.stderr
    with hall_client(tmp_path) as c:  # a folder that stops being one while served
        answer = c.get("/api/hall")
        assert answer.status_code == 422 and "not a tournament folder" in answer.json()["error"]
        assert c.get("/t/1/1/").status_code == 422
    assert not (tmp_path / "tournament.json").exists()


def test_serve_tournament_refuses_a_single_token_and_a_file(cup: Path) -> None:
    done = invoke(["serve", "--tournament", str(cup), "--token", "x" * 20], cup.parent)
    assert done.returncode == 2 and "each table of a tournament has its own" in done.stderr
    done = invoke(["serve", "--tournament", str(cup), "-f", str(cup / "r1-t1.json")], cup.parent)
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def _served(cup: Path, monkeypatch: pytest.MonkeyPatch, lang: str = "en", new: bool = False) -> str:
    """What ``serve --tournament`` prints, its server not started (its run is replaced)."""
    import uvicorn

    from prefcalc.web import serve_tournament

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    out = io.StringIO()
    serve_tournament(cup, host="127.0.0.1", port=0, lang=lang, out=out, qr=False, new=new)
    return out.getvalue()


def test_the_terminal_prints_the_hall_and_each_tables_kept_token(
    cup: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefcalc.i18n import speaking
    from prefcalc.web.tokens import kept_token, token_file

    printed = _served(cup, monkeypatch)
    lines = printed.splitlines()
    assert any(line.startswith("the hall: http://127.0.0.1:") for line in lines)
    links = [line for line in lines if ", score: " in line]
    assert [line.split(",")[:2] for line in links] == [
        ["round 1", " table 1"],
        ["round 1", " table 2"],
    ]
    tokens = []
    for k, line in enumerate(links, 1):
        url = line.split("score: ")[1]
        assert f"/t/1/{k}/score#token=" in url
        token = url.split("#token=")[1]
        file = token_file(cup / f"r1-t{k}.json")
        assert kept_token(file) == token
        assert stat.S_IMODE(file.stat().st_mode) == 0o600
        tokens.append(token)
    assert len(set(tokens)) == 2  # each table its own
    again = [line for line in _served(cup, monkeypatch).splitlines() if ", score: " in line]
    assert [line.split("#token=")[1] for line in again] == tokens  # kept: the same links
    renewed = [
        line for line in _served(cup, monkeypatch, new=True).splitlines() if "#token=" in line
    ]
    assert not set(line.split("#token=")[1] for line in renewed) & set(tokens)
    with speaking("ru"):
        russian = _served(cup, monkeypatch, lang="ru")
    assert "зал: http://" in russian and "тур 1, стол 2, записывать: http://" in russian


def test_the_hall_speaks_russian(cup: Path) -> None:
    with hall_client(cup, lang="ru") as c:
        page = c.get("/").text
        assert 'lang="ru"' in page and "зал" in page and "Стол" in page and "доиграли" in page
        refused = c.get("/t/1/9/").json()["error"]
        assert refused.startswith("в этом турнире нет такого стола: ")
        assert "стол" in refused or "стола" in refused
        hall = c.get("/api/hall").json()
        assert "«cup»" in hall["title"] and "Standings" not in hall["title"]
        # «1-го» never wraps at its hyphen on a narrow phone: a no-break hyphen holds it
        assert "после 1\N{NON-BREAKING HYPHEN}го тура" in hall["title"]


def test_a_deal_beyond_the_round_keeps_the_standings_and_marks_the_table(
    client: TestClient, cup: Path
) -> None:
    """A table that played a deal too many by mistake (docs/tournament.md §4.1, pin): the
    hall keeps the standings (``tournament standings``' numbers: one function decides), counts
    the round's 2 deals and marks the table until the extra deal is undone from the same
    score link."""
    for _ in range(2):
        line = a_deal(cup, 1, 2)
        done = client.post("/t/1/2/api/lines", json={"line": line}, headers=bearer(cup, 1, 2))
        assert done.status_code == 200, done.text
    counted = client.get("/api/hall").json()
    assert counted["over"] == [] and counted["tables"][1]["over"] == 0
    line = a_deal(cup, 1, 2)
    done = client.post("/t/1/2/api/lines", json={"line": line}, headers=bearer(cup, 1, 2))
    assert done.status_code == 200, done.text
    hall = client.get("/api/hall")
    assert hall.status_code == 200, hall.text
    over = hall.json()
    table = over["tables"][1]
    assert table["over"] == 1 and table["over_text"] == "1 deal over"
    assert table["deals"] == 2 and table["complete"] is True
    assert over["over"] == [
        "round 1 table 2: 1 deal over, not counted: the round counts the table's first 2 deals"
        " (Undo on the table's score page takes back the last deal)"
    ]
    assert over["scoring"] == "raw"
    assert over["standings"] == counted["standings"]  # the extra deal counts for nothing
    assert table["balances"] == counted["tables"][1]["balances"]
    expected = standings_json(tournament.standings(cup))["players"]
    assert [(r["name"], r["points"], r["whists"]) for r in over["standings"]] == [
        (r["name"], r["points"], r["whists"]) for r in expected
    ]
    done = client.post("/t/1/2/api/lines", json={"line": "undo"}, headers=bearer(cup, 1, 2))
    assert done.status_code == 200, done.text
    hall2 = client.get("/api/hall").json()
    assert hall2["tables"][1]["over"] == 0 and hall2["over"] == []
    assert hall2["standings"] == counted["standings"]


def test_the_mark_of_a_deal_over_speaks_russian(cup: Path) -> None:
    play(cup, "r1-t2.json", 3)
    with hall_client(cup, lang="ru") as c:
        hall = c.get("/api/hall").json()
        assert hall["tables"][1]["over_text"] == "1 лишняя раздача"
        assert hall["over"][0].startswith("тур 1, стол 2: 1 лишняя раздача, не в счёт")
        assert "кнопка «Отменить» на странице записи стола" in hall["over"][0]


Said = list[tuple[int, list[tuple[int, str]], list[str]]]


def _listener(said: Said) -> object:
    def announce(round_: int, links: object, problems: object) -> None:
        said.append((round_, list(links), list(problems)))  # type: ignore[call-overload]

    return announce


def _round_one_played(cup: Path) -> None:
    for record in tournament.load(cup).draws[0].tables:
        play(cup, record.file, 2)


def test_a_round_drawn_while_served_gets_its_tables_and_says_their_links(cup: Path) -> None:
    """``tournament draw`` in another terminal while the hall is served: the watch sees it,
    the new tables' applications are made with their tokens and said once (the terminal's
    score links), and the hall shows the new round."""
    said: Said = []
    _round_one_played(cup)
    with hall_client(cup, announce=_listener(said), announced=1) as c:
        hall = c.app.state.hall  # type: ignore[attr-defined]
        assert said == [] and hall.tables == {}  # round 1's links are the ones printed
        c.get("/api/hall")
        tournament.draw(cup)
        assert c.portal.call(hall.watcher.check) is True
        drawn = tournament.load(cup).draws[1].tables
        assert said == [(2, [(tb.table, token_of(cup / tb.file)) for tb in drawn], [])]
        assert set(hall.tables) == {(2, tb.table) for tb in drawn}  # made, with their tokens
        for tb in drawn:
            assert hall.tables[(2, tb.table)].state.table.token == token_of(cup / tb.file)
        state = c.get("/api/hall").json()
        assert state["round"] == 2 and [tb["table"] for tb in state["tables"]] == [
            tb.table for tb in drawn
        ]
        line = a_deal(cup, 2, 1)
        done = c.post("/t/2/1/api/lines", json={"line": line}, headers=bearer(cup, 2, 1))
        assert done.status_code == 200, done.text
        assert c.portal.call(hall.watcher.check) is True
        assert len(said) == 1  # a deal is no new round: nothing said again


def test_a_round_drawn_before_the_hall_started_is_said_when_it_starts(cup: Path) -> None:
    """A draw between the terminal's links and the start of the watch is not lost."""
    said: Said = []
    _round_one_played(cup)
    tournament.draw(cup)
    with hall_client(cup, announce=_listener(said), announced=1):
        assert [(r, [t for t, _ in links]) for r, links, _ in said] == [(2, [1, 2])]


def test_a_new_tables_ledger_that_cannot_be_served_is_one_line(cup: Path) -> None:
    from prefcalc import api
    from prefcalc.store.ledger import game_to_json_text

    said: Said = []
    _round_one_played(cup)
    with hall_client(cup, announce=_listener(said), announced=1) as c:
        tournament.draw(cup)
        other = api.new_game(["Xenia", "Yuri", "Zoya"], "sochi", 20)
        (cup / "r2-t2.json").write_text(game_to_json_text(other), encoding="utf-8")
        assert c.portal.call(c.app.state.hall.watcher.check) is True  # type: ignore[attr-defined]
        [(round_, links, problems)] = said
        assert round_ == 2 and [t for t, _ in links] == [1]
        assert len(problems) == 1 and "round 2, table 2" in problems[0]
        assert "\n" not in problems[0]


def _served_live(
    cup: Path, monkeypatch: pytest.MonkeyPatch, read_only: bool = False, lang: str = "en"
) -> str:
    """What ``serve --tournament`` prints when a round is drawn while it serves: its server
    replaced by the application run in process, the watch checked by hand after the draw."""
    import uvicorn

    from prefcalc.web import serve_tournament

    def run(self: uvicorn.Server, sockets: object = None) -> None:
        app = self.config.app
        hall = app.state.hall
        hall.watcher.interval = None  # the test checks the watch itself: no timing
        with TestClient(app) as c:
            tournament.draw(cup)
            assert c.portal.call(hall.watcher.check) is True

    monkeypatch.setattr(uvicorn.Server, "run", run)
    out = io.StringIO()
    serve_tournament(cup, host="127.0.0.1", port=0, read_only=read_only, lang=lang, out=out)
    return out.getvalue()


def test_the_terminal_prints_the_links_of_a_round_drawn_while_served(
    cup: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefcalc.i18n import speaking
    from prefcalc.web.tokens import kept_token, token_file

    _round_one_played(cup)
    printed = _served_live(cup, monkeypatch)
    before, after = printed.split("Ctrl-C stops the server.\n")
    assert "/t/1/1/score#token=" in before and "/t/2/" not in before
    links = [line for line in after.splitlines() if ", score: " in line]
    assert [line.split(", score: ")[0] for line in links] == [
        "round 2, table 1",
        "round 2, table 2",
    ]
    tokens = set()
    for k, line in enumerate(links, 1):
        url = line.split("score: ")[1]
        assert url.startswith("http://127.0.0.1:") and f"/t/2/{k}/score#token=" in url
        file = token_file(cup / f"r2-t{k}.json")
        assert kept_token(file) == url.split("#token=")[1]  # kept: the same after a restart
        assert stat.S_IMODE(file.stat().st_mode) == 0o600
        tokens.add(url.split("#token=")[1])
    assert len(tokens) == 2
    assert after.count("▀") > 0  # each link with its QR code
    russian_cup = cup.parent / "кубок"
    tournament.new(russian_cup, PLAYERS, rounds=2, deals=2, convention="sochi", seed=7)
    tournament.draw(russian_cup)
    _round_one_played(russian_cup)
    with speaking("ru"):
        russian = _served_live(russian_cup, monkeypatch, lang="ru")
    after = russian.split("Ctrl-C")[-1]
    assert "тур 2, стол 1, записывать: http://" in after and "тур 2, стол 2," in after


def test_a_read_only_hall_says_a_new_round_without_links(
    cup: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _round_one_played(cup)
    printed = _served_live(cup, monkeypatch, read_only=True)
    after = printed.split("Ctrl-C stops the server.\n")[1]
    assert after == "round 2 is drawn: its tables are on the hall's page\n"
    assert "#token=" not in printed


def test_a_deal_at_a_table_does_not_make_the_watch_read_the_tournament(
    client: TestClient, cup: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watch looks for a new round only when ``tournament.json`` changed: a deal at a
    table (most changes) costs the hall no read of it."""
    from prefcalc.tournament import folder

    hall = client.app.state.hall  # type: ignore[attr-defined]
    reads: list[Path] = []
    real = folder.load
    monkeypatch.setattr(folder, "load", lambda base: reads.append(base) or real(base))
    play(cup, "r1-t1.json", 1)
    assert client.portal.call(hall.watcher.check) is True
    assert reads == []
    (cup / "tournament.json").write_bytes((cup / "tournament.json").read_bytes() + b"\n")
    assert client.portal.call(hall.watcher.check) is True
    assert reads == [cup]


def test_a_missing_ledger_is_one_card_and_the_rest_as_usual(cup: Path) -> None:
    """Issue 35: one table's ledger gone blanked the whole hall; now that table is one card
    with its refusal, every other card and the standings as usual."""
    play(cup, "r1-t1.json", 1)
    (cup / "r1-t2.json").unlink()
    with hall_client(cup) as c:
        answer = c.get("/api/hall")
        assert answer.status_code == 200
        hall = answer.json()
        cards = {card["table"]: card for card in hall["tables"]}
        assert list(cards) == [1, 2]
        assert cards[2]["error"] == "round 1, table 2: its ledger r1-t2.json is missing"
        assert cards[2]["error_text"] == "cannot be read" and cards[2]["balances"] == []
        assert cards[1]["error"] == "" and cards[1]["deals"] == 1
        assert {row["name"] for row in hall["standings"]} == set(PLAYERS)
        assert hall["complete"] is False
    # the CLI's standings stay exact: they refuse in one line
    done = invoke(["tournament", "standings", str(cup)], cup.parent)
    assert done.returncode == 2 and "its ledger r1-t2.json is missing" in done.stderr


def test_the_hall_s_notes_never_break_a_number_s_ending(cup: Path) -> None:
    """«с 1-й по 21-ю»: a narrow phone wraps a line at a hyphen; the hall's notes hold a
    number's ending to it (a file's name keeps its own hyphen, to be copied as it is)."""
    from prefcalc.web.hall import _unbroken

    assert _unbroken("с 1-й по 21-ю раздачу, r1-t2.json") == (
        "с 1\N{NON-BREAKING HYPHEN}й по 21\N{NON-BREAKING HYPHEN}ю раздачу, r1-t2.json"
    )
    import re

    play(cup, "r1-t2.json", 3)
    with hall_client(cup, lang="ru") as c:
        hall = c.get("/api/hall").json()
        notes = [*hall["over"], *(card["over_note"] for card in hall["tables"])]
        assert notes and not any(re.search(r"\d-[^\W\d_]+\b", note) for note in notes)
