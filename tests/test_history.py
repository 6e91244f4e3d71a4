"""The club history (``prefcalc history``): totals hand-computed over the bundled examples,
the history against every game's own settlement, the cache kept in step with the ledgers,
files that are not ledgers, and the command line.

The hand counts below come from reading the example ledgers deal by deal (the numbers are in
the comments); the results in whists are the ones of ``examples/*.md``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import invoke, random_game

from prefcalc import api
from prefcalc.history.club import (
    CACHE_NAME,
    Standing,
    best_contract,
    cache_path,
    collect,
    running_balance,
)
from prefcalc.report import build_report
from prefcalc.rules.model import name_key
from prefcalc.store.ledger import game_to_json_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data folder (the cache lives there)."""
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def _club(folder: Path) -> Path:
    """The three examples, and the Sochi evening played again on 2026-01-10 by the same
    people under other spellings: ANNA, boris and Вера with a zero-width space inside."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("sochi-3", "leningrad-4", "rostov-3"):
        shutil.copy(EXAMPLES / f"{name}.json", folder / f"{name}.json")
    again = api.load(EXAMPLES / "sochi-3.json")
    text = game_to_json_text(again._replace(created="2026-01-10T19:00:00+01:00"))
    text = text.replace('"Anna"', '"ANNA"').replace('"Boris"', '"boris"')
    text = text.replace('"Вера"', '"Ве\u200bра"')
    (folder / "season-2" / "again.json").parent.mkdir()
    (folder / "season-2" / "again.json").write_text(text, encoding="utf-8")
    return folder


def _by_key(players: list[Standing]) -> dict[str, Standing]:
    return {s.key: s for s in players}


# --- hand-computed totals over the bundled examples ---------------------------------------------


def test_examples_hand_computed_totals(tmp_path: Path) -> None:
    h = collect([_club(tmp_path / "club")])
    assert h.warnings == []
    assert [n.date[:10] for n in h.games] == [
        "2025-10-24",
        "2025-11-14",
        "2025-12-06",
        "2026-01-10",
    ]
    assert [n.finished for n in h.games] == [True, True, False, True]  # Rostov stopped early
    table = _by_key(h.players)
    assert len(table) == 3 + 4 + 3  # the Sochi players matched across spellings
    anna = table["anna"]
    assert anna.name == "ANNA"  # the spelling of his latest game
    assert (anna.games, anna.whists, anna.wins) == (2, 328, 2)  # +164 twice
    assert anna.money == {"EUR": Fraction(3280, 100)}  # 16.40 EUR twice
    # Anna declares 6♦ (5, failed), 7♠ (not played, made), 6♥ (7), 7♣ (9), 10NT (8, failed)
    assert anna.declared == {6: 4, 7: 4, 10: 2}
    assert anna.made == {6: 2, 7: 4}
    assert (anna.misere_made, anna.misere_failed) == (2, 0)  # deal 11, made
    # whists: Anna on Boris 84 + on Вера 24; Boris on Anna 56 + Вера on Anna 28
    assert (anna.written, anna.received) == (216, 168)
    assert (anna.passes, anna.passes_tricks) == (12, 32)  # 6 all-passes: 4+3+0+4+0+5 = 16
    boris = table["boris"]
    assert (boris.games, boris.whists, boris.wins, boris.money) == (
        2,
        -428,
        0,
        {"EUR": Fraction(-428, 10)},
    )
    # Boris: 6♠ (6), 8♣ (6, failed), 8♥ (10), 6♠ (8), 8♥ (8); misère 2 tricks, failed
    assert boris.declared == {6: 4, 8: 6} and boris.made == {6: 4, 8: 4}
    assert (boris.misere_made, boris.misere_failed) == (0, 2)
    assert (boris.written, boris.received, boris.passes_tricks) == (136, 224, 40)
    vera = table[name_key("Вера")]
    assert vera.key == name_key("Ве\u200bра")  # the invisible character is not part of the name
    # Вера: 7♥ (7), 6♣ half-whisted (made), 7♦ (9), 9♠ (9), 6♣ (6): all made
    assert vera.declared == vera.made == {6: 4, 7: 4, 9: 2}
    assert (vera.whists, vera.written, vera.received, vera.passes_tricks) == (100, 112, 72, 48)
    # Rostov, stopped early: exact thirds, counted with the provisional settlement
    irina, timur, gleb = (table[name_key(p)] for p in ("Ирина", "Тимур", "Глеб"))
    assert (irina.whists, timur.whists, gleb.whists) == (
        Fraction(790, 3),
        Fraction(886, 3),
        Fraction(-1676, 3),
    )
    assert irina.money == {"RUB": Fraction(26334, 100)}  # the odd kopeck to Ирина
    assert (irina.unfinished, irina.wins, gleb.wins) == (1, 1, 0)
    # Ирина 8♥ (8), 7♠ (not played), 6♣ (8), 6♦ (4, failed), 7♣ (8)
    assert irina.declared == {6: 2, 7: 2, 8: 1} and irina.made == {6: 1, 7: 2, 8: 1}
    # Глеб 7♦ (5, failed), 6♥ (not played), 8♦ (8), 10NT (9, failed), 6♠ (7); misère failed
    assert gleb.declared == {6: 2, 7: 1, 8: 1, 10: 1} and gleb.made == {6: 2, 8: 1}
    assert (gleb.misere_failed, timur.misere_made) == (1, 1)
    assert (irina.passes, irina.passes_tricks, timur.passes_tricks, gleb.passes_tricks) == (
        5,
        11,
        18,
        21,
    )
    # the standings run from the best total to the worst
    assert [s.whists for s in h.players] == sorted((s.whists for s in h.players), reverse=True)
    assert h.players[0].name == "ANNA" and h.players[-1].name == "Глеб"
    best, worst = anna.best, boris.worst
    assert best is not None and worst is not None
    assert best[0] == 164 and worst[0] == -214


def test_json_is_exact_and_names_every_game(tmp_path: Path) -> None:
    club = _club(tmp_path / "club")
    done = invoke(["history", str(club), "--json"], tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [g["file"] for g in data["games"]][1] == str((club / "sochi-3.json").resolve())
    rostov = data["games"][2]
    assert rostov["result"] == {"Ирина": "790/3", "Тимур": "886/3", "Глеб": "-1676/3"}
    assert rostov["finished"] is False
    assert data["games"][1]["result"] == {"Anna": 164, "Boris": -214, "Вера": 50}
    first = data["players"][0]
    assert first["name"] == "ANNA" and first["whists"] == 328 and first["money"] == {"EUR": 32.8}
    assert first["games"] == 2 and first["wins"] == 2
    assert first["contracts"]["10"] == {"declared": 2, "made": 0}
    assert first["misere"] == {"made": 2, "failed": 0}
    assert first["all_pass"] == {"deals": 12, "tricks": 32}
    gleb = next(p for p in data["players"] if p["name"] == "Глеб")
    assert gleb["whists"] == "-1676/3" and gleb["money"] == {"RUB": -558.67}


def test_player_filter_keeps_his_games_and_his_standing(tmp_path: Path) -> None:
    club = _club(tmp_path / "club")
    h = collect([club], player="anna")
    assert [s.name for s in h.players] == ["ANNA"]
    assert len(h.games) == 2 and h.players[0].whists == 328
    h = collect([club], player="Ир")  # a unique prefix
    assert [s.name for s in h.players] == ["Ирина"] and len(h.games) == 1
    done = invoke(["history", str(club), "--player", "Zed"], tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "no player 'Zed'" in done.stderr


# --- the history equals the games' own settlements -----------------------------------------------

NAMES = ["Anna", "ANNA", "Boris", "boris", "Vera", "Dima", "Ольга", "О\u200bльга", "Şükrü"]


@st.composite
def clubs(draw: st.DrawFn) -> list[tuple[list[str], int, int, str, str]]:
    games = draw(st.integers(1, 6))
    out = []
    for k in range(games):
        size = draw(st.sampled_from([3, 4]))
        names = draw(st.permutations(NAMES))
        chosen: list[str] = []
        for n in names:
            if name_key(n) not in {name_key(c) for c in chosen}:
                chosen.append(n)
            if len(chosen) == size:
                break
        seed = draw(st.integers(0, 10**6))
        deals = draw(st.integers(0, 25))
        currency = draw(st.sampled_from(["EUR", "RUB", ""]))
        out.append((chosen, seed, deals, currency, f"2026-{1 + k:02d}-0{1 + k % 9}T20:00:00+01:00"))
    return out


def _write_club(folder: Path, spec: list[tuple[list[str], int, int, str, str]]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, (names, seed, deals, currency, created) in enumerate(spec):
        game = random_game(
            seed, deals, len(names), random.Random(seed).choice(["sochi", "leningrad", "rostov"])
        )
        text = game_to_json_text(
            game._replace(created=created, currency=currency, whist_price=Fraction(1, 4))
        )
        olds = ("Anna", "Boris", "Vera", "Dima")
        for k_old, old in enumerate(olds):
            text = text.replace(f'"{old}"', f'"@{k_old}@"')
        for k_old, new in enumerate(names):
            text = text.replace(f'"@{k_old}@"', json.dumps(new, ensure_ascii=False))
        path = folder / f"g{k}.json"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


@given(spec=clubs())
def test_every_players_total_is_the_sum_of_the_games_settlements(
    spec: list[tuple[list[str], int, int, str, str]], tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("club")
    paths = _write_club(folder, spec)
    whists: dict[str, Fraction] = {}
    money: dict[tuple[str, str], Fraction] = {}
    for path in paths:
        game = api.load(path)
        s = api.settle(game)  # the game's own settlement, as `prefcalc settle` shows it
        for p in game.players:
            whists[name_key(p)] = whists.get(name_key(p), Fraction(0)) + s.whists[p]
            key = (name_key(p), game.currency)
            money[key] = money.get(key, Fraction(0)) + s.money[p]
    for use_cache in (False, True, True):  # without, then filling and using the cache
        h = collect([folder], use_cache=use_cache)
        assert {s.key: s.whists for s in h.players} == whists
        assert {(s.key, c): v for s in h.players for c, v in s.money.items()} == money
        assert sum(s.games for s in h.players) == sum(len(names) for names, *_ in spec)
        assert sum((s.whists for s in h.players), Fraction(0)) == 0


# --- the cache ------------------------------------------------------------------------------------


def _result(folder: Path) -> dict[str, object]:
    return {s.key: s.whists for s in collect([folder]).players}


@given(
    seed=st.integers(0, 10**6),
    marks=st.tuples(st.integers(10, 99), st.integers(10, 99)).filter(lambda m: m[0] != m[1]),
    keep_stat=st.booleans(),
)
def test_a_game_edited_after_it_was_indexed_shows_its_new_result(
    seed: int, marks: tuple[int, int], keep_stat: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from prefcalc.rules.model import Adjustment, Entry, Game

    folder = tmp_path_factory.mktemp("club")
    base = random_game(seed, 20, 3, "sochi", adjustments=False)

    def night(mark: int) -> Game:
        fix = Entry(
            Adjustment("Anna", mountain=mark, note="late"), None, "2026-11-30T23:00:00+01:00"
        )
        return base._replace(entries=(*base.entries, fix))

    game, changed = night(marks[0]), night(marks[1])
    path = folder / "night.json"
    path.write_text(game_to_json_text(game), encoding="utf-8")
    other = random_game(seed + 1, 20, 3, "sochi")
    (folder / "other.json").write_text(game_to_json_text(other), encoding="utf-8")
    before = collect([folder])
    assert cache_path().is_file()  # indexed
    old = os.stat(path)
    text = game_to_json_text(changed)
    assert len(text.encode()) == old.st_size  # the same size: only the bytes differ
    path.write_text(text, encoding="utf-8")
    if keep_stat:  # and the same modification time, as a coarse clock or a restore leaves it
        os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns))
    after = collect([folder])
    mine, theirs = api.settle(changed).whists, api.settle(other).whists
    assert {s.key: s.whists for s in after.players} == {
        name_key(p): mine[p] + theirs[p] for p in base.players
    }
    result = {n.file.rsplit("/", 1)[-1]: n.result for n in after.games}
    assert result["night.json"] == dict(mine)
    was = {n.file.rsplit("/", 1)[-1]: n.result for n in before.games}
    assert was["night.json"] == dict(api.settle(game).whists)


def test_a_corrupt_or_missing_cache_changes_nothing(tmp_path: Path, data_home: Path) -> None:
    club = _club(tmp_path / "club")
    first = collect([club])
    cache = data_home / "prefcalc" / CACHE_NAME
    assert cache.is_file()
    cache.write_bytes(b"this is not a database" * 100)
    again = collect([club])
    assert [(s.key, s.whists) for s in again.players] == [(s.key, s.whists) for s in first.players]
    assert cache.read_bytes()[:16] == b"SQLite format 3\x00"  # rebuilt
    cache.unlink()
    cache.mkdir()  # something that is not a file where the cache goes: left alone
    assert [s.whists for s in collect([club]).players] == [s.whists for s in first.players]
    assert cache.is_dir() and not any(cache.iterdir())


def test_files_that_are_not_ledgers_are_skipped_with_one_line_each(tmp_path: Path) -> None:
    club = _club(tmp_path / "club")
    (club / "notes.json").write_text('{"hello": 1}', encoding="utf-8")
    (club / "broken.json").write_text('{"schema": 2, "players": [', encoding="utf-8")
    (club / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    (club / "readme.txt").write_text("not looked at: not .json", encoding="utf-8")
    (club / ".hidden.json").write_text("{", encoding="utf-8")
    before = sorted(p.name for p in club.rglob("*"))
    done = invoke(["history", str(club)], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 3
    for name, line in zip(("binary.json", "broken.json", "notes.json"), sorted(lines), strict=True):
        assert line.startswith("prefcalc: warning: ") and name in line and "skipped" in line
    assert "4 games:" in done.stdout
    assert sorted(p.name for p in club.rglob("*")) == before  # nothing written beside the games
    assert "Traceback" not in done.stderr


def test_a_fifo_or_a_dangling_link_in_a_club_folder_is_named_never_opened(
    tmp_path: Path,
) -> None:
    import os

    club = _club(tmp_path / "club")
    os.mkfifo(club / "pipe.json")
    (club / "gone.json").symlink_to(tmp_path / "nowhere.json")
    done = invoke(["history", str(club)], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = sorted(done.stderr.splitlines())
    assert len(lines) == 2
    assert "gone.json: skipped" in lines[0]
    assert "pipe.json: skipped, it is a FIFO" in lines[1]
    assert "4 games:" in done.stdout


def test_the_default_folder_is_the_data_folders_games(tmp_path: Path, data_home: Path) -> None:
    games = data_home / "prefcalc" / "games"
    _club(games)
    done = invoke(["history"], tmp_path)
    assert done.returncode == 0 and "4 games:" in done.stdout
    assert sorted(p.name for p in (data_home / "prefcalc").iterdir()) == ["games", CACHE_NAME]
    assert "4 games:" in invoke(["history", "--dir", str(games)], tmp_path).stdout


def test_nothing_found_is_not_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = invoke(["history", str(tmp_path / "empty")], tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "no games found"


@pytest.mark.parametrize("since", ["yesterday", "2026-13-01", "2026/11/01", ""])
def test_a_bad_date_is_one_line_and_exit_2(tmp_path: Path, since: str) -> None:
    done = invoke(["history", str(EXAMPLES), "--since", since], tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--since" in done.stderr
    assert done.stdout == ""


def test_since_counts_the_games_created_from_that_day(tmp_path: Path) -> None:
    club = _club(tmp_path / "club")
    done = invoke(["history", str(club), "--since", "2025-11-14", "--json"], tmp_path)
    dates = [g["date"][:10] for g in json.loads(done.stdout)["games"]]
    assert dates == ["2025-11-14", "2025-12-06", "2026-01-10"]


def test_exports_are_never_written_over_a_ledger(tmp_path: Path) -> None:
    club = _club(tmp_path / "club")
    ledger = club / "sochi-3.json"
    before = ledger.read_bytes()
    for option in ("--xlsx", "--pdf"):
        done = invoke(["history", str(club), option, str(ledger)], tmp_path)
        assert done.returncode == 2 and "ledger" in done.stderr
        assert done.stderr.count("\n") == 1
    assert ledger.read_bytes() == before


def test_history_documents_have_their_charts(tmp_path: Path) -> None:
    import openpyxl
    from pypdf import PdfReader

    club = _club(tmp_path / "club")
    done = invoke(
        [
            "history",
            str(club),
            "--xlsx",
            str(tmp_path / "h.xlsx"),
            "--pdf",
            str(tmp_path / "h.pdf"),
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    wb = openpyxl.load_workbook(tmp_path / "h.xlsx")
    assert wb.sheetnames == ["Games", "Standings", "Balance"]
    assert len(wb["Standings"]._charts) == 1 and len(wb["Balance"]._charts) == 1
    balance = wb["Balance"]
    header = [c.value for c in balance[1]]
    assert header[:2] == ["#", "Date"] and "ANNA" in header
    last = [c.value for c in balance[balance.max_row]]
    assert last[header.index("ANNA")] == 328
    text = "\n".join(page.extract_text() for page in PdfReader(tmp_path / "h.pdf").pages)
    for phrase in ("Standings", "Running balance over the season", "Contracts made", "Глеб"):
        assert phrase in text


# --- the running balance of a night ---------------------------------------------------------------


@given(
    seed=st.integers(0, 10**6),
    deals=st.integers(1, 40),
    players=st.sampled_from([2, 3, 4, 5]),
    joins=st.booleans(),
)
def test_the_running_balance_is_the_settlement_after_every_deal(
    seed: int, deals: int, players: int, joins: bool
) -> None:
    game = random_game(
        seed,
        deals,
        players,
        random.Random(seed).choice(["sochi", "leningrad", "rostov"]),
        joins=joins,
    )
    sheet = api.sheet(game)
    balances = running_balance(sheet)
    assert len(balances) == deals
    for k in sorted({0, deals // 2, deals - 1}):
        part = game._replace(entries=game.entries[: k + 1])
        settled = dict(api.settle(part).whists)  # the players seated then (a join adds one)
        assert {p: v for p, v in balances[k].items() if p in settled} == settled
        assert all(v == 0 for p, v in balances[k].items() if p not in settled)


# --- prefcalc share ---------------------------------------------------------------------------


def test_share_prints_standings_payments_and_the_best_contract(tmp_path: Path) -> None:
    done = invoke(["share", "--file", str(EXAMPLES / "sochi-3.json")], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Preference 2025-11-14 · Sochi · final",
        "1. Anna +164 (16.40 EUR)",
        "2. Вера +50 (5.00 EUR)",
        "3. Boris -214 (-21.40 EUR)",
        "Pay: Boris → Anna 16.40 EUR; Boris → Вера 5.00 EUR",
        "Best contract: Вера 9♠ took 9; Anna whist, Boris pass (deal 20)",
    ]
    rostov = invoke(["share", "--file", str(EXAMPLES / "rostov-3.json")], tmp_path).stdout
    assert "provisional, 22 deals so far" in rostov
    assert "Best contract: Тимур 9♠ took 10" in rostov  # 10NT was failed


def test_best_contract_prefers_level_then_suit_then_played() -> None:
    from support import make_game

    game = make_game(
        ["Anna", "Boris", "Vera"],
        [
            "game Anna 8s 8 Boris:w Vera:p",
            "game Boris 8h - Vera:p Anna:p",
            "game Vera 8h 9 Anna:w Boris:p",
            "game Anna 9s 8 Boris:w Vera:p",
        ],
    )
    found = best_contract(game)
    assert found is not None and found[0] == 3  # 8♥ played beats 8♥ not played; 9♠ failed
    assert best_contract(game._replace(entries=())) is None


def test_share_png_is_the_pool_sheet(tmp_path: Path) -> None:
    from PIL import Image

    ledger = tmp_path / "night.json"
    shutil.copy(EXAMPLES / "leningrad-4.json", ledger)
    done = invoke(["share", "--file", str(ledger), "--png", str(tmp_path / "sheet.png")], tmp_path)
    assert done.returncode == 0, done.stderr
    with Image.open(tmp_path / "sheet.png") as image:
        assert image.format == "PNG"
        width, height = image.size
        assert width > height > 1000  # landscape, sharp enough for a phone
        assert image.convert("L").getextrema() == (0, 255)  # something is drawn
    refused = invoke(["share", "--file", str(ledger), "--png", str(ledger)], tmp_path)
    assert refused.returncode == 2 and "ledger" in refused.stderr
    assert refused.stdout == ""


# --- the single game's chart ------------------------------------------------------------------


def test_a_games_workbook_and_pdf_chart_the_running_balance(tmp_path: Path) -> None:
    import openpyxl
    from pypdf import PdfReader
    from support import sample_game

    from prefcalc.export.pdf import build_pdf
    from prefcalc.export.xlsx import write_xlsx

    game = sample_game()
    sheet = api.sheet(game)
    write_xlsx(build_report(game, sheet), tmp_path / "night.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "night.xlsx")["Sheet"]
    assert len(ws._charts) == 1
    title = next(
        c for row in ws.iter_rows() for c in row if str(c.value).startswith("Running balance")
    )
    header = [ws.cell(title.row + 1, title.column + k).value for k in range(4)]
    assert header == ["#", "Anna", "Boris", "Vera"]
    balances = running_balance(sheet)
    for k, balance in enumerate(balances):
        row = [ws.cell(title.row + 2 + k, title.column + 1 + j).value for j in range(3)]
        assert row == pytest.approx([float(balance[p]) for p in ("Anna", "Boris", "Vera")])
    assert balances[-1] == dict(api.settle(game).whists)
    reader = PdfReader(__import__("io").BytesIO(build_pdf(build_report(game, sheet)).data))
    pages = [page.extract_text() for page in reader.pages]
    chart = [k for k, text in enumerate(pages) if "Running balance over the night" in text]
    assert len(chart) == 1 and "Deal log" not in pages[chart[0]]
    assert all(name in pages[chart[0]] for name in ("Anna", "Boris", "Vera"))  # the legend


def test_libreoffice_opens_the_history_workbook_with_its_charts(tmp_path: Path) -> None:
    import subprocess

    from support import require_tool

    exe = require_tool("LibreOffice (soffice)", "soffice", "libreoffice")
    club = _club(tmp_path / "club")
    target = tmp_path / "history.xlsx"
    assert invoke(["history", str(club), "--xlsx", str(target)], tmp_path).returncode == 0
    profile = tmp_path / "profile"
    done = subprocess.run(
        [
            exe,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path / "out"),
            str(target),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    from pypdf import PdfReader

    pages = PdfReader(tmp_path / "out" / "history.pdf").pages
    text = "\n".join(p.extract_text() for p in pages).replace("\u200b", " ")  # chart text
    assert "Running balance over the season" in text
    assert "Contracts made, of those declared" in text


def test_a_missing_path_is_an_error_and_an_empty_data_folder_is_not(
    tmp_path: Path, data_home: Path
) -> None:
    done = invoke(["history", str(tmp_path / "nowhere")], tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "no such file or folder" in done.stderr
    done = invoke(["history"], tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "no games found"
    assert not data_home.exists()  # nothing to remember, nothing written


def test_the_cache_forgets_ledgers_that_are_gone(tmp_path: Path, data_home: Path) -> None:
    import sqlite3
    from contextlib import closing

    club = _club(tmp_path / "club")
    collect([club])
    (club / "rostov-3.json").unlink()
    h = collect([club])
    assert len(h.games) == 3
    with closing(sqlite3.connect(data_home / "prefcalc" / CACHE_NAME)) as db:
        paths = {row[0] for row in db.execute("SELECT path FROM ledgers")}
    assert len(paths) == 3 and not any(p.endswith("rostov-3.json") for p in paths)


def test_an_unchanged_ledger_is_taken_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import prefcalc.store.ledger

    club = _club(tmp_path / "club")
    first = collect([club])

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cached ledger was validated again")

    monkeypatch.setattr(prefcalc.store.ledger, "game_from_bytes", refuse)
    again = collect([club])
    assert again.games == first.games and again.players == first.players
    with pytest.raises(AssertionError, match="validated again"):
        collect([club], use_cache=False)


# --- the price in force (a 'set whist_price' during the night) ---------------------------------


def _repriced_night(folder: Path) -> Path:
    """Anna's 6♠ unplayed (both pass: 2 in her pool), then the price changed from 1 to 0.5.

    By hand: the pools close into the mountains (pool_to_mountain 1): Boris and Vera 2 each,
    average 4/3; Anna +10 × 4/3 = +40/3 whists, Boris and Vera −20/3 each. At 0.5 a whist:
    Anna 20/3 = 6.67 EUR, Boris and Vera −10/3 each, rounded to −3.33 and −3.34 (largest
    remainder, the cents add up to zero)."""
    from support import make_game

    game = make_game(["Anna", "Boris", "Vera"], ["game Anna 6s - Boris:p Vera:p"], currency="EUR")
    game = api.set_term(game, "whist_price=0.5")
    assert game.whist_price == 1  # the opening price
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "repriced.json"
    path.write_text(game_to_json_text(game), encoding="utf-8")
    return path


def test_a_night_repriced_during_play_counts_at_the_price_in_force(tmp_path: Path) -> None:
    _repriced_night(tmp_path / "club")
    (night,) = collect([tmp_path / "club"]).games
    assert night.whist_price == Fraction(1, 2)  # was the opening price, 1
    assert night.result == {
        "Anna": Fraction(40, 3),
        "Boris": Fraction(-20, 3),
        "Vera": Fraction(-20, 3),
    }
    assert night.money == {
        "Anna": Fraction(667, 100),
        "Boris": Fraction(-333, 100),
        "Vera": Fraction(-334, 100),
    }
    again = collect([tmp_path / "club"]).games[0]  # from the cache: the same
    assert again == night


def test_a_cache_of_the_former_format_is_rebuilt(tmp_path: Path, data_home: Path) -> None:
    """Rows written when a night stored its opening price are not used again."""
    import sqlite3
    from contextlib import closing

    _repriced_night(tmp_path / "club")
    collect([tmp_path / "club"])
    with closing(sqlite3.connect(data_home / "prefcalc" / CACHE_NAME)) as db:
        (summary,) = db.execute("SELECT summary FROM ledgers").fetchone()
        data = json.loads(summary)
        assert data["whist_price"] == "0.5"
        data["whist_price"] = "1"  # what the former format stored for this night
        db.execute("UPDATE ledgers SET summary = ?", (json.dumps(data),))
        db.execute("PRAGMA user_version = 1")
        db.commit()
    (night,) = collect([tmp_path / "club"]).games
    assert night.whist_price == Fraction(1, 2)
