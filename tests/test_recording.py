"""Recording what happened at the table (issue 17): the same deal twice, ``delete`` re-deriving
the dealers, deal counts without ``set`` and ``join``, the Russian short forms, the implied
passer, the prompt at a 4/5-player table, a game not played typed with its tricks, and a
price too large to keep. Each through the API, the CLI and ``play`` on stdin."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from prefcalc import api
from prefcalc.errors import DealError, PrefcalcError
from tests.support import invoke

P3 = ("Anna", "Boris", "Vera")
P4 = ("Anna", "Boris", "Vera", "Gleb")


def _new(tmp_path: Path, *players: str, extra: tuple[str, ...] = ()) -> Path:
    path = tmp_path / "g.json"
    result = invoke(["new", *(players or P3), *extra, "--file", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    return path


def _cli(tmp_path: Path, path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return invoke([*args, "--file", str(path)], tmp_path)


def _ok(tmp_path: Path, path: Path, *args: str) -> str:
    result = _cli(tmp_path, path, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _play(tmp_path: Path, path: Path, lines: list[str]) -> subprocess.CompletedProcess[str]:
    return invoke(["play", "--file", str(path)], tmp_path, input="\n".join(lines) + "\n")


# --- delete re-derives the later dealers -------------------------------------------------------


def test_delete_re_derives_the_later_dealers() -> None:
    g = api.new_game(list(P3), "sochi", 20)
    for line in ("misere Anna 0", "misere Boris 0", "misere Vera 0"):
        g = api.record(g, line)
    assert [e.dealer for e in g.entries] == ["Anna", "Boris", "Vera"]
    after = api.delete(g, 2)  # deal 2 never happened: Boris dealt what was deal 3
    assert [e.dealer for e in after.entries] == ["Anna", "Boris"]
    assert after.next_dealer == "Vera"
    assert after.entries[1].time == g.entries[2].time  # only the dealer is re-derived


def test_delete_refuses_a_later_deal_whose_player_would_now_sit_out() -> None:
    g = api.new_game(list(P4), "sochi", 20)
    g = api.record(g, "game Boris 7h 7 Vera:w Gleb:p")  # Anna deals
    g = api.record(g, "game Anna 7s 7 Vera:w Gleb:p")  # Boris deals
    with pytest.raises(
        DealError,
        match="deal 1 cannot be deleted: after the delete, deal 2 would be dealt by Anna: "
        "Anna is the dealer and sits out",
    ):
        api.delete(g, 1)
    assert [e.dealer for e in api.delete(g, 2).entries] == ["Anna"]


def test_delete_re_derives_the_dealers_in_the_cli_and_in_play(tmp_path: Path) -> None:
    path = _new(tmp_path)
    for deal in ("misere Anna 0", "misere Boris 0", "misere Vera 0"):
        _ok(tmp_path, path, *deal.split())
    before = path.read_bytes()
    _ok(tmp_path, path, "delete", "2")
    assert [e.dealer for e in api.load(path).entries] == ["Anna", "Boris"]
    path.write_bytes(before)
    result = _play(tmp_path, path, ["delete 2", "misere Anna 0"])
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "deleted deal 2: Boris misère, took 0" in result.stdout
    assert [e.dealer for e in api.load(path).entries] == ["Anna", "Boris", "Vera"]


def test_delete_in_the_cli_refuses_a_sitting_out_declarer_and_leaves_the_file(
    tmp_path: Path,
) -> None:
    path = _new(tmp_path, *P4)
    _ok(tmp_path, path, "game", "Boris", "7h", "7", "Vera:w", "Gleb:p")
    _ok(tmp_path, path, "game", "Anna", "7s", "7", "Vera:w", "Gleb:p")
    before = path.read_bytes()
    refused = _cli(tmp_path, path, "delete", "1")
    assert refused.returncode == 2
    assert "deal 2 would be dealt by Anna" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert path.read_bytes() == before


# --- the same deal twice -------------------------------------------------------------------------


def test_the_same_deal_twice_in_the_cli_is_recorded_with_a_note(tmp_path: Path) -> None:
    path = _new(tmp_path)
    first = _ok(tmp_path, path, "passes", "5", "3", "2")  # Anna deals: Boris, Vera, Anna
    assert "same as deal" not in first
    second = _ok(tmp_path, path, "passes", "Vera=3", "Anna=2", "Boris=5")
    assert "recorded as deal 2" in second
    assert second.rstrip().splitlines()[-1] == "same as deal 1 — undo if it was typed twice"
    assert len(api.load(path).entries) == 2


# --- deal counts leave out set and join ------------------------------------------------------


def _night_with_terms(tmp_path: Path) -> Path:
    """Two deals, a change of target and a late arrival: 4 entries, 2 deals."""
    games = tmp_path / "data" / "prefcalc" / "games"
    games.mkdir(parents=True)
    path = games / "night.json"
    assert invoke(["new", *P3, "--file", str(path)], tmp_path).returncode == 0
    _ok(tmp_path, path, "misere", "Anna", "0")
    _ok(tmp_path, path, "set", "target=30")
    _ok(tmp_path, path, "join", "Gleb")
    _ok(tmp_path, path, "misere", "Vera", "0")  # Boris deals and sits out
    return path


def test_deal_count_leaves_out_set_and_join() -> None:
    from prefcalc.rules.model import deal_count

    g = api.new_game(list(P3), "sochi", 20)
    assert deal_count(g) == 0
    g = api.set_term(api.record(g, "misere Anna 0"), "target=30")
    g = api.record(api.join(g, "Gleb"), "passes Anna=3 Vera=3 Gleb=4")
    assert len(g.entries) == 4 and deal_count(g) == 2


def test_every_shown_count_of_deals_leaves_out_set_and_join(tmp_path: Path) -> None:
    import json

    from pypdf import PdfReader

    path = _night_with_terms(tmp_path)
    assert json.loads(_ok(tmp_path, path, "show", "--json"))["deals"] == 2
    assert " · 2 deals · " in _ok(tmp_path, path, "show")
    listing = invoke(["games"], tmp_path).stdout.splitlines()
    assert "Anna, Boris, Vera, Gleb" in listing[1]  # the join shows in games
    assert listing[1].split()[7] == "2", listing  # #, 4 names, date, time, deals
    assert "(Anna, Boris, Vera, Gleb, 2 deals)" in invoke(["use", "night"], tmp_path).stdout
    history = json.loads(invoke(["history", str(path.parent), "--json"], tmp_path).stdout)
    assert history["games"][0]["deals"] == 2
    assert "provisional, 2 deals so far" in _ok(tmp_path, path, "share")
    pdf = tmp_path / "night.pdf"
    _ok(tmp_path, path, "export", "pdf", "-o", str(pdf))
    first = PdfReader(pdf).pages[0].extract_text() or ""
    assert "2 deals, in progress" in " ".join(first.split()), first[:300]
    result = _play(tmp_path, path, ["settle"])
    assert "(provisional: the game is not finished, 2 deals)" in result.stdout


# --- the implied passer ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "line", "written"),
    [
        (("Аня", "Боря", "Вова"), "game а 6п 6 б:в", "game Аня 6s 6 Боря:w Вова:p"),
        (P4, "game Boris 7h 7 Vera:w", "game Boris 7h 7 Vera:w Gleb:p"),  # Anna sits out
        ((*P4, "Dima"), "game Vera 7h 7 Gleb:w", "game Vera 7h 7 Gleb:w Dima:p"),
    ],
    ids=["three", "four", "five"],
)
def test_the_defender_left_out_passes(players: tuple[str, ...], line: str, written: str) -> None:
    from prefcalc.rules.notation import describe

    g = api.record(api.new_game(list(players), "sochi", 20), line)
    assert describe(g.entries[0].deal) == written


def test_a_contract_with_one_defender_is_still_refused_when_two_are_left_out() -> None:
    g = api.new_game(list(P4), "sochi", 20)  # Anna deals and sits out: three hold cards
    with pytest.raises(PrefcalcError, match="a contract needs DECLARER CONTRACT TRICKS"):
        api.record(g, "game Boris 7h 7 Anna:w")  # Vera and Gleb both left out


def test_the_implied_passer_in_the_cli_and_in_play(tmp_path: Path) -> None:
    path = _new(tmp_path, "Аня", "Боря", "Вова")
    out = _ok(tmp_path, path, "game", "а", "6п", "6", "б:в")
    assert "Аня 6♠ took 6; Боря whist, Вова pass" in out
    result = _play(tmp_path, path, ["б 7ч 7 в:в", "а 6п 6 б:в"])
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "Боря 7♥ took 7; Вова whist, Аня pass" in result.stdout
    assert [e.deal.defenders[-1].player for e in api.load(path).entries] == [  # type: ignore[union-attr]
        "Вова",
        "Аня",
        "Вова",
    ]


# --- a game not played, typed with its tricks --------------------------------------------------


def test_a_passed_game_typed_with_the_contract_as_its_tricks_is_not_played() -> None:
    g = api.new_game(["Оля", "Лёва", "Петя"], "sochi", 20)
    typed = api.record(g, "game о 8б 8 л:п п:п")
    dashed = api.record(g, "game о 8б - л:п п:п")
    assert typed.entries[0].deal == dashed.entries[0].deal
    assert typed.entries[0].deal.tricks is None  # type: ignore[union-attr]
    assert api.sheet(typed).pool == api.sheet(dashed).pool
    with pytest.raises(
        PrefcalcError, match=r"write its tricks as '-' \(or 8, the contract\), not 7"
    ):
        api.record(g, "game о 8б 7 л:п п:п")


def test_a_passed_game_with_its_tricks_in_the_cli_and_in_play(tmp_path: Path) -> None:
    path = _new(tmp_path, "Оля", "Лёва", "Петя")
    out = _ok(tmp_path, path, "game", "о", "8б", "8", "л:п")  # Петя, left out, passes too
    assert "recorded as deal 1" in out and "not played" in out
    before = path.read_bytes()
    refused = _cli(tmp_path, path, "game", "л", "8б", "9", "о:п", "п:п")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "not 9" in refused.stderr and path.read_bytes() == before
    result = _play(tmp_path, path, ["л 8б 8 о:п", "л 8б 6 о:п", "misere Петя 0"])
    assert result.stderr.splitlines() == [
        "prefcalc: error: line 2: both defenders passed, so the game was not played: write its "
        "tricks as '-' (or 8, the contract), not 6"
    ]
    # the refused line changed nothing, so every later deal has its right dealer
    assert [e.dealer for e in api.load(path).entries] == ["Оля", "Лёва", "Петя"]


# --- a price too large --------------------------------------------------------------------------

HUGE = "123456789012345678901234567890"


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["--whist-price", HUGE], "between -1,000,000,000 and 1,000,000,000"),
        (["--set", f"passes.prices={HUGE}"], "too large (at most 1,000,000)"),
        (["--set", f"passes.prices=1,2,{HUGE}"], "too large (at most 1,000,000)"),
    ],
    ids=["whist price", "all-pass price", "third all-pass price"],
)
def test_a_thirty_digit_price_is_too_large_and_the_bound_named(
    tmp_path: Path, args: list[str], phrase: str
) -> None:
    path = tmp_path / "g.json"
    result = invoke(["new", *P3, *args, "--file", str(path)], tmp_path)
    assert result.returncode == 2 and phrase in result.stderr, result.stderr
    assert "whole number" not in result.stderr
    assert result.stderr.count("\n") == 1 and not path.exists()


def test_a_thirty_digit_price_mid_game_is_too_large(tmp_path: Path) -> None:
    path = _new(tmp_path)
    before = path.read_bytes()
    result = _cli(tmp_path, path, "set", f"whist_price={HUGE}")
    assert result.returncode == 2 and "between -1,000,000,000 and 1,000,000,000" in result.stderr
    played = _play(tmp_path, path, [f"set whist_price={HUGE}"])
    assert "between -1,000,000,000 and 1,000,000,000" in played.stderr
    assert path.read_bytes() == before


# --- the prompt at a 4/5-player table --------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "prompt"),
    [
        (P3, "[1 · Anna deals · ≥6] > "),
        (P4, "[1 · Anna deals, sits out · ≥6] > "),
        ((*P4, "Dima"), "[1 · Anna deals, sits out with Boris · ≥6] > "),
    ],
    ids=["three", "four", "five"],
)
def test_the_prompt_says_who_sits_out(
    tmp_path: Path, players: tuple[str, ...], prompt: str
) -> None:
    from prefcalc.play import Session

    path = tmp_path / "g.json"
    api.save(api.new_game(list(players), "sochi", 20), path)
    assert Session(path, print).prompt() == prompt


def test_the_prompt_follows_a_join_to_five(tmp_path: Path) -> None:
    from prefcalc.play import Session

    path = tmp_path / "g.json"
    g = api.record(api.new_game(list(P4), "sochi", 20), "misere Boris 0")  # Anna sat out
    api.save(api.join(g, "Dima"), path)  # Dima sits after Gleb: Boris deals with Vera out
    assert Session(path, print).prompt() == "[3 · Boris deals, sits out with Vera · ≥6] > "


# --- Russian short forms ----------------------------------------------------------------------


def test_russian_short_forms_in_play_and_the_help_example_is_a_game(tmp_path: Path) -> None:
    from prefcalc.play import HELP

    path = _new(tmp_path, "Маша", "Петя", "Вова", "Рома")
    example = next(line for line in HELP.splitlines() if "Russian" in line)
    assert "маша 7ч 7 п:в в:п" in example and " м 7ч" not in example
    lines = ["м п 0", "р 5 3 2", "рас 4 3 3", "мизер ма 0", "ро 6п 6 п:в", "м 7ч 7 п:в в:п"]
    result = _play(tmp_path, path, lines)
    from prefcalc.rules.notation import describe

    assert [describe(e.deal) for e in api.load(path).entries] == [
        "misere Петя 0",  # Маша deals and sits out
        "passes Маша=2 Вова=5 Рома=3",  # Петя deals: bare tricks from Вова, then Рома, Маша
        "passes Маша=3 Петя=3 Рома=4",  # Вова deals: from Рома, then Маша, Петя
        "misere Маша 0",  # Рома deals
        "game Рома 6s 6 Петя:w Вова:p",  # Маша deals and sits out; Вова, left out, passes
    ]
    # 'м 7ч ...' is a misère now: the first word after it must be a player, not a contract
    assert result.stderr.splitlines() == [
        "prefcalc: error: line 6: a misère needs DECLARER TRICKS, e.g. misere Anna 0"
    ]


def test_russian_passes_word_in_the_cli(tmp_path: Path) -> None:
    path = _new(tmp_path, "Маша", "Петя", "Вова")
    out = _ok(tmp_path, path, "insert", "1", "рас", "5", "3", "2")  # Маша deals: Петя first
    assert "all-pass: Маша 2, Петя 5, Вова 3" in out
    out = _ok(tmp_path, path, "мизер", "ма", "0")
    assert "Маша misère, took 0" in out


# --- the help rule's reasons tell the whole story -------------------------------------------


def _help_night() -> list[str]:
    """Target 10: Боря has 6 in the pool, Аня 4 (the fullest pool he can help), Вова 0."""
    return [
        "adjust Боря --pool 6 --note setup",
        "adjust Аня --pool 4 --note setup",
        "misere Боря 0",
    ]


def test_the_help_reasons_tell_the_whole_story() -> None:
    g = api.new_game(["Аня", "Боря", "Вова"], "sochi", 10)
    for line in _help_night():
        g = api.record(g, line)
    writes = [(w.player, w.target, w.amount, w.reason) for w in api.sheet(g).scored[-1].writes]
    # misère made: 10 points; 4 fill Боря's pool, the other 6 help Аня: 6 × 10 = 60 whists
    assert writes == [
        ("Боря", "pool", 4, "misère made: earned 10, 4 into the pool, 6 help to Аня for 60 whists"),
        ("Аня", "pool", 6, "help from Боря: 6 of the 10 for misère made"),
        (
            "Боря",
            "whists on Аня",
            60,
            "help to Аня: 6 points × 10 = 60 (misère made: earned 10, 4 into the pool)",
        ),
    ]


def test_a_help_past_every_pool_names_what_nobody_can_take() -> None:
    # Target 10: Anna 8, Boris 9, Vera 9. Anna's misère: 10 = 2 to her pool, 1 to Boris,
    # 1 to Vera (10 whists each), 6 nobody can take (written off as the rules say).
    g = api.new_game(list(P3), "sochi", 10)
    for name, pool in (("Anna", 8), ("Boris", 9), ("Vera", 9)):
        g = api.record(g, f"adjust {name} --pool {pool} --note setup")
    g = api.record(g, "misere Anna 0")
    (first, *_) = api.sheet(g).scored[-1].writes
    assert first.reason == (
        "misère made: earned 10, 2 into the pool, 1 help to Boris for 10 whists, "
        "1 help to Vera for 10 whists, 6 nobody can take"
    )


def test_the_help_story_in_the_cli_and_in_play(tmp_path: Path) -> None:
    path = _new(tmp_path, "Аня", "Боря", "Вова", extra=("--target", "10"))
    for line in _help_night()[:2]:
        _ok(tmp_path, path, *line.split())
    before = path.read_bytes()
    out = _ok(tmp_path, path, "misere", "Боря", "0")
    story = "Боря: +4 pool — misère made: earned 10, 4 into the pool, 6 help to Аня for 60 whists"
    assert story in out
    assert "Боря: +60 whists on Аня — help to Аня: 6 points × 10 = 60" in out
    path.write_bytes(before)
    result = _play(tmp_path, path, ["м б 0"])
    assert story in result.stdout and result.stderr == ""
