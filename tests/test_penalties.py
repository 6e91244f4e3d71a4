"""Penalties of the 1996 Code as entries of their own (docs/rules.md §8.10, docs/tournament.md
§7): each kind with its numbers worked out by hand and the Code's section in the reason; the
trick lost for looking at an old trick, written with its deal; the same line through the CLI,
``play``'s grammar, the score page's runner and the API; the ledger, both ways; the log,
``explain``, the PDF and the tournament's penalty log.

Four players are Anna, Boris, Vera and Dima, clockwise; Dima deals first.
"""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from support import invoke

import prefcalc
from prefcalc import api
from prefcalc.commands import Record, parse_line
from prefcalc.errors import DealError, LedgerError, PrefcalcError
from prefcalc.i18n import speaking
from prefcalc.rules.lexicon import WRITTEN
from prefcalc.rules.model import AllPass, Contract, Defender, Game, Misere, Penalty
from prefcalc.rules.notation import describe, parse_words
from prefcalc.rules.penalties import OFFENCE_WORDS, SECTIONS, counted
from prefcalc.rules.scoring import Write
from prefcalc.store.ledger import game_from_bytes, game_to_json_text
from prefcalc.views.log import deal_text, explain_text, log_text, reason_text

P3 = ["Anna", "Boris", "Vera"]
P4 = ["Anna", "Boris", "Vera", "Dima"]


def game4(*lines: str, convention: str = "leningrad", **options: Any) -> Game:
    game = prefcalc.new_game(P4, convention, dealer="Dima", options=options or None)
    for line in lines:
        game = prefcalc.record(game, line)
    return game


def game3(*lines: str, convention: str = "sochi") -> Game:
    game = prefcalc.new_game(P3, convention)
    for line in lines:
        game = prefcalc.record(game, line)
    return game


def last(game: Game) -> list[Write]:
    return list(prefcalc.sheet(game).scored[-1].writes)


def told(game: Game) -> list[tuple[str, str, Any, str | None, str]]:
    return [(w.player, w.column, w.amount, w.on, w.reason) for w in last(game)]


# --- each kind ------------------------------------------------------------------------------


def test_a_look_at_the_talon_writes_5_into_his_mountain_or_the_agreed_n() -> None:
    game = game4("penalty Anna peek")
    assert told(game) == [
        (
            "Anna",
            "mountain",
            5,
            None,
            "penalty for looking at the talon (Code 3.2.21): 5 into the mountain",
        )
    ]
    assert game.entries[-1].deal == Penalty("Anna", "peek", 5)
    assert game.entries[-1].dealer is None
    agreed = game4("penalty Anna peek 3")
    assert prefcalc.sheet(agreed).mountain["Anna"] == 3
    half = game4("penalty Anna peek 2,5")
    assert prefcalc.sheet(half).mountain["Anna"] == Fraction(5, 2)


def test_a_dealing_fault_writes_the_agreed_remise() -> None:
    game = game4("penalty Vera dealing", "penalty Vera dealing 10")
    assert prefcalc.sheet(game).mountain["Vera"] == 5 + 10
    assert told(game)[0][4] == (
        "penalty for breaking the dealing procedure (Code 3.2.17): 10 into the mountain"
    )


def test_bez_vseh_on_an_illegal_contract_is_every_undertrick_at_its_price() -> None:
    # Leningrad: 8 undertricks × 6 × 2 = 96
    game = game4("penalty Vera illegal 8h")
    assert told(game) == [
        (
            "Vera",
            "mountain",
            96,
            None,
            "penalty for insisting on an illegal contract (Code 3.4.4): "
            "all down on 8♥, 8 undertricks × 6 × 2 = 96",
        )
    ]
    # Sochi (remise_factor 1): 7 × 4 = 28, no "× 1"
    sochi = game3("penalty Vera illegal 7s")
    assert told(sochi)[0][2:] == (
        28,
        None,
        "penalty for insisting on an illegal contract (Code 3.4.4): "
        "all down on 7♠, 7 undertricks × 4 = 28",
    )


def test_bez_dvuh_for_a_wrong_number_of_cards() -> None:
    game = game4("penalty Dima cards 7s")  # 2 × 4 × 2 = 16
    assert told(game)[0][:3] == ("Dima", "mountain", 16)
    assert "(Code 3.4.6): a remise on 7♠, 2 undertricks × 4 × 2 = 16" in told(game)[0][4]
    proven = game4("penalty Dima cards 9nt 7")  # down 5 proven down 7: 7 × 8 × 2 = 112
    assert prefcalc.sheet(proven).mountain["Dima"] == 112
    found = game4("penalty Anna miscount 6d")  # 3.9.18: 2 × 2 × 2 = 8
    assert told(found)[0][2] == 8
    assert "(Code 3.9.18)" in told(found)[0][4]


def test_a_wrong_entry_is_written_back_on_him() -> None:
    # Anna wrote 8 whists too many on Boris: Boris writes 8 on her
    game = game4("penalty Anna entry 8 Boris")
    assert told(game) == [
        (
            "Boris",
            "whists",
            8,
            "Anna",
            "penalty for a wrong score entry (Code 4.2.7–4.2.10): "
            "the excess of 8 written back on Anna",
        )
    ]
    mountain = game4("penalty Anna entry 4")
    assert prefcalc.sheet(mountain).mountain["Anna"] == 4


def test_every_kind_has_its_section_and_its_russian() -> None:
    for words in WRITTEN["penalties"].values():  # each offence has its word in each language
        assert set(words) == set(SECTIONS) == set(OFFENCE_WORDS)
    for kind, section in SECTIONS.items():
        assert f"(Code {section})" in OFFENCE_WORDS[kind]
    russian = prefcalc.new_game(["Аня", "Боря", "Вера", "Дима"], "fspr", dealer="Дима")
    with speaking("ru"):
        game = prefcalc.record(russian, "штраф аня прикуп")
        assert reason_text(last(game)[0]) == (
            "штраф за подглядывание в прикуп (Кодекс 3.2.21): 5 в гору"
        )
        assert deal_text(game.entries[-1]) == (
            "штраф Ане: подглядывание в прикуп (Кодекс 3.2.21), 5 в гору"
        )
        entry = prefcalc.record(russian, "штраф аня запись 8 боря")
        assert reason_text(last(entry)[0]) == (
            "штраф за неверную запись (Кодекс 4.2.7–4.2.10): излишек 8 — обратно на Аню"
        )
        illegal = prefcalc.record(russian, "штраф вера недопустимая 8ч")
        assert reason_text(last(illegal)[0]) == (
            "штраф за заказ недопустимой игры (Кодекс 3.4.4): 8♥ без всех, 8 × 6 × 2 = 96"
        )
        cards = prefcalc.record(russian, "штраф аня карты 7п")
        assert deal_text(cards.entries[-1]) == (
            "штраф Ане: заказ при неверном числе карт (Кодекс 3.4.6), 7♠ без 2"
        )
        looked = prefcalc.record(russian, "игра аня 6п 6 боря:в вера:п --looked боря")
        assert deal_text(looked.entries[-1]).endswith(
            "; Боря лишается взятки: просмотр не последней взятки (Кодекс 3.9.11.2)"
        )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("penalty Anna", "penalty PLAYER KIND"),
        ("penalty Anna slept", "unknown penalty 'slept'"),
        ("penalty Zoya peek", "unknown player 'Zoya'"),
        ("penalty Anna peek 0", "a positive number"),
        ("penalty Anna peek -5", "a positive number"),
        ("penalty Anna peek 5 6", "penalty PLAYER KIND"),
        ("penalty Anna illegal", "penalty PLAYER KIND"),
        ("penalty Anna illegal 8h 2", "penalty PLAYER KIND"),
        ("penalty Anna illegal 11h", "no contract level 11"),
        ("penalty Anna cards 7s 1", "2 to 7 undertricks on 7♠, not 1"),
        ("penalty Anna cards 7s 8", "2 to 7 undertricks on 7♠, not 8"),
        ("penalty Anna cards 7s two", "a whole number, not 'two'"),
        ("penalty Anna entry", "penalty PLAYER KIND"),
        ("penalty Anna entry 8 Anna", "cannot write whists on himself"),
        ("penalty Anna entry 8 Zoya", "unknown player 'Zoya'"),
        ("penalty Anna trick", "written with its deal: add --looked Anna"),
    ],
)
def test_a_penalty_the_code_does_not_write_is_refused_in_one_line(line: str, message: str) -> None:
    game = game4()
    with pytest.raises(PrefcalcError, match=message):
        prefcalc.record(game, line)


def test_a_penalty_is_not_a_deal() -> None:
    game = game4("passes Anna=4 Boris=3 Vera=3", "penalty Anna peek")
    sheet = prefcalc.sheet(game)
    assert sheet.streak == 1  # the all-pass streak is untouched
    assert sheet.next_dealer == "Anna"  # Dima dealt; the penalty moved nothing
    assert game.entries[-1].dealer is None
    game = prefcalc.record(game, "game Boris 7h 7 Vera:w Dima:p")
    assert game.entries[-1].dealer == "Anna"


def test_a_penalty_comes_after_the_game_finished_and_never_helps() -> None:
    game = prefcalc.new_game(P3, "sochi", 2)
    game = prefcalc.record(game, "game Anna 6s 6 Boris:w Vera:p")
    game = prefcalc.record(game, "game Boris 6s 6 Vera:w Anna:p")
    game = prefcalc.record(game, "game Vera 6s 6 Anna:w Boris:p")
    assert prefcalc.sheet(game).finished
    game = prefcalc.record(game, "penalty Anna peek")
    assert not game.entries[-1].forced
    assert prefcalc.sheet(game).mountain["Anna"] == 5


def test_the_settlement_includes_the_penalty() -> None:
    before = game4("game Anna 7h 7 Boris:w Vera:p")
    after = prefcalc.record(before, "penalty Anna peek")
    moved = {p: prefcalc.settle(after).whists[p] - prefcalc.settle(before).whists[p] for p in P4}
    # 5 more mountain: 10 × 5 / 4 whists from each of the three others, pairwise
    assert moved == {"Anna": Fraction(-75, 2), "Boris": 12.5, "Vera": 12.5, "Dima": 12.5}
    assert prefcalc.settle(after, "average").whists == prefcalc.settle(after).whists


# --- a trick lost for looking at a trick other than the last (3.9.11.2) ------------------------


def test_the_declarer_who_looked_loses_a_trick_to_the_first_whister() -> None:
    # Anna's 6♠ with 6, Boris 3 and Vera 1: Anna looked, so 5 for her, 4 for Boris
    game = game4("game Anna 6s 6 Boris:w3 Vera:w1 --looked Anna")
    sheet = prefcalc.sheet(game)
    assert sheet.mountain["Anna"] == 1 * 2 * 2
    assert sheet.whists["Boris"]["Anna"] == 4 * 4 + 4  # tricks and consolation
    assert sheet.whists["Vera"]["Anna"] == 1 * 4 + 4
    assert sheet.whists["Dima"]["Anna"] == 4  # the dealer's consolation
    deal = game.entries[-1].deal
    assert isinstance(deal, Contract)
    assert deal.tricks == 6 and deal.looked == ("Anna",)  # recorded as played
    assert counted(deal).tricks == 5
    assert counted(deal).defenders == (Defender("Boris", "w", 4), Defender("Vera", "w", 1))
    assert deal_text(game.entries[-1]).endswith(
        "; Anna loses a trick: looking at a trick other than the last (Code 3.9.11.2)"
    )


def test_a_defender_who_looked_loses_a_trick_to_the_declarer() -> None:
    # the lone whister Boris looked: Anna's 7♥ with 6 becomes 7, made
    game = game4("game Anna 7h 6 Boris:w Vera:p --looked Boris")
    sheet = prefcalc.sheet(game)
    assert sheet.pool["Anna"] == 4 and sheet.mountain["Anna"] == 0
    assert sheet.whists["Boris"]["Anna"] == 3 * 8
    # his passing partner looked: the same trick of the defence
    partner = game4("game Anna 7h 6 Boris:w Vera:p --looked Vera")
    assert prefcalc.sheet(partner).whists == sheet.whists
    # one of two whisters: from his own count
    two = game4("game Anna 6s 4 Boris:w3 Vera:w3 --looked Vera")
    assert counted(two.entries[-1].deal).defenders[1].tricks == 2  # type: ignore[arg-type]
    assert prefcalc.sheet(two).mountain["Anna"] == 1 * 2 * 2  # 5 of 6: down one
    # the dealer who returned the whist
    returned = game4(
        "game Anna 7h 6 Boris:p Vera:p --returned-by Dima --looked Dima",
        convention="fspr",
    )
    assert prefcalc.sheet(returned).pool["Anna"] == 4


def test_on_an_all_pass_deal_or_a_misere_one_trick_is_added() -> None:
    game = game3("passes Anna=2 Boris=5 Vera=3 --looked Vera")  # Sochi, 1 a trick
    assert prefcalc.sheet(game).mountain == {"Anna": 2, "Boris": 5, "Vera": 4}
    misere = game3("misere Anna 0 --looked Anna")  # failed with 1: 1 × 10
    assert prefcalc.sheet(misere).mountain["Anna"] == 10
    assert prefcalc.sheet(misere).pool["Anna"] == 0
    two = game3("passes 5 5 0 --looked Anna,Boris")  # Boris, Vera, then Anna who deals
    assert prefcalc.sheet(two).mountain == {"Anna": 1, "Boris": 6, "Vera": 5}
    assert prefcalc.sheet(two).pool["Anna"] == 0  # no zero bonus: she took one


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("game Anna 7h - Boris:p Vera:p --looked Boris", "not played loses no trick"),
        ("game Anna 7h 0 Boris:w Vera:p --looked Anna", "Anna has no trick to lose"),
        ("game Anna 7h 10 Boris:w Vera:p --looked Vera", "has no trick to lose"),
        ("game Anna 6s 4 Boris:w6 Vera:w0 --looked Vera", "Vera has no trick to lose"),
        ("game Anna 7h 7 Boris:w Vera:p --looked Dima", "Dima holds no cards"),
        ("game Anna 7h 7 Boris:w Vera:p --looked Boris,Boris", "listed twice"),
        ("misere Anna 1 --looked Boris", "only the declarer loses a trick"),
        ("passes Anna=4 Boris=3 Vera=3 --looked Dima", "Dima took no part"),
        ("game Anna 7h 7 Boris:w Vera:p --looked", "--looked needs a value"),
    ],
)
def test_a_look_that_cannot_cost_a_trick_is_refused(line: str, message: str) -> None:
    with pytest.raises(PrefcalcError, match=message):
        prefcalc.record(game4(), line)


def test_the_look_ends_or_keeps_the_streak_by_the_counted_tricks() -> None:
    game = game4("passes Anna=4 Boris=3 Vera=3 Dima=0", convention="fspr")
    # Boris's 7♥ with 7, but he looked: 6 counted, a remise: the streak goes on
    game = prefcalc.record(game, "game Boris 7h 7 Vera:w Dima:p --looked Boris")
    assert prefcalc.sheet(game).streak == 1


# --- every front end ------------------------------------------------------------------------


def test_the_cli_records_a_penalty(tmp_path: Path) -> None:
    file = str(tmp_path / "g.json")
    assert invoke(["new", *P4, "--dealer", "Dima", "--file", file], tmp_path).returncode == 0
    done = invoke(["penalty", "Anna", "peek", "--file", file], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "penalty for looking at the talon (Code 3.2.21): 5 into the mountain" in done.stdout
    done = invoke(["penalty", "an", "cards", "8h", "3", "--file", file], tmp_path)
    assert done.returncode == 0, done.stderr
    refused = invoke(["penalty", "Anna", "trick", "--file", file], tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "--looked Anna" in refused.stderr
    log = invoke(["log", "--file", file], tmp_path)
    assert "penalty for Anna: ordering with a wrong number of cards (Code 3.4.6)" in log.stdout
    explain = invoke(["explain", "2", "--file", file], tmp_path)
    assert "3 undertricks × 6 = 18" in explain.stdout  # Sochi: remise_factor 1
    ru = invoke(["penalty", "Вера", "прикуп", "--file", file, "--lang", "ru"], tmp_path)
    assert ru.returncode == 2  # no Вера at this table: one line, nothing written
    assert json.loads(Path(file).read_text())["deals"][-1]["offence"] == "cards"


def test_the_play_line_the_score_page_and_the_api_read_the_same_penalty(tmp_path: Path) -> None:
    from prefcalc.table.lines import run_line

    game = game4()
    command = parse_line("penalty a peek 3", game)
    assert command == Record("penalty", ("a", "peek", "3"))
    assert parse_line("штраф a прикуп", game) == Record("penalty", ("a", "прикуп"))
    path = tmp_path / "g.json"
    prefcalc.save(game, path)
    ran = run_line(path, "штраф Anna прикуп")
    assert ran is not None
    value = prefcalc.record(game, Penalty("Anna", "peek", 5))
    assert prefcalc.load(path).entries == (
        value.entries[0]._replace(time=prefcalc.load(path).entries[0].time),
    )
    with pytest.raises(DealError, match="positive"):
        prefcalc.record(game, Penalty("Anna", "peek", -1))


def test_every_penalty_round_trips_through_the_notation() -> None:
    lines = [
        "penalty Anna peek 5",
        "penalty Anna dealing 2.5",
        "penalty Anna illegal 8h",
        "penalty Anna cards 9nt 4",
        "penalty Anna miscount 6s 2",
        "penalty Anna entry 8 Boris",
        "penalty Anna entry 3",
        "game Anna 6s 6 Boris:w3 Vera:w1 --looked Anna,Vera",
        "misere Anna 1 --looked Anna",
        "passes Anna=2 Boris=5 Vera=3 --looked Boris",
    ]
    for line in lines:
        deal = parse_words(line.split(), P4)
        assert describe(deal) == line
        assert parse_words(describe(deal).split(), P4) == deal


# --- the ledger -------------------------------------------------------------------------------

NIGHT = (
    "penalty Anna peek",
    "game Anna 6s 6 Boris:w3 Vera:w1 --looked Anna",
    "penalty Vera illegal 8h",
    "penalty Boris entry 8 Vera",
    "passes Anna=0 Boris=4 Vera=3 Dima=3 --looked Boris",
    "misere Vera 0 --looked Vera",
    "penalty Dima entry 0.5",
)


def test_the_ledger_keeps_penalties_and_reads_them_back_both_ways(tmp_path: Path) -> None:
    game = game4(*NIGHT, convention="fspr")
    text = game_to_json_text(game)
    lines = [json.loads(line.rstrip(",")) for line in text.splitlines() if '"kind"' in line]
    assert {k: lines[0][k] for k in ("kind", "player", "offence", "amount")} == {
        "kind": "penalty",
        "player": "Anna",
        "offence": "peek",
        "amount": 5,
    }
    assert "dealer" not in lines[0]
    assert lines[1]["looked"] == ["Anna"]
    assert lines[2]["contract"] == "8h" and lines[2]["amount"] == 8
    assert lines[3]["on"] == "Vera"
    assert lines[6]["amount"] == "0.5"
    assert game_from_bytes(text.encode()) == game  # the validation path
    path = tmp_path / "g.json"
    prefcalc.save(game, path)
    assert prefcalc.load(path) == game  # the trusted path (this program wrote it)
    assert prefcalc.sheet(prefcalc.load(path)) == prefcalc.sheet(game)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"offence": "slept"}, r"deals\[0\]\.offence"),
        ({"amount": 5.0}, r"deals\[0\]\.amount"),
        ({"amount": -5}, "a positive number"),
        ({"dealer": "Dima"}, "a penalty is not dealt"),
        ({"contract": "8h"}, "not on a contract"),
        ({"on": "Boris"}, "only a wrong score entry"),
        ({"player": "Zoya"}, "unknown player 'Zoya'"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_a_hand_edited_penalty_is_refused_naming_the_field(
    change: dict[str, Any], message: str
) -> None:
    data = json.loads(game_to_json_text(game4("penalty Anna peek")))
    data["deals"][0].update(change)
    with pytest.raises(LedgerError, match=message):
        game_from_bytes(json.dumps(data).encode())


def test_a_hand_edited_look_is_refused() -> None:
    data = json.loads(game_to_json_text(game4("game Anna 7h 7 Boris:w Vera:p --looked Boris")))
    data["deals"][0]["looked"] = ["Dima"]
    with pytest.raises(LedgerError, match="Dima holds no cards"):
        game_from_bytes(json.dumps(data).encode())
    data["deals"][0]["looked"] = "Boris"
    with pytest.raises(LedgerError, match=r"deals\[0\]\.looked"):
        game_from_bytes(json.dumps(data).encode())


# --- the views: log, explain, the PDF -----------------------------------------------------------


def test_log_and_explain_show_the_penalties() -> None:
    game = game4(*NIGHT, convention="fspr")
    sheet = prefcalc.sheet(game)
    log = log_text(sheet)
    assert "penalty for Anna: looking at the talon (Code 3.2.21), 5 into the mountain" in log
    assert "penalty for Vera: insisting on an illegal contract (Code 3.4.4), 8♥ down 8" in log
    assert "Boris takes a trick more: looking at a trick other than the last" in log
    explained = explain_text(sheet, 4)
    assert "Vera: +8 whists on Boris — penalty for a wrong score entry" in explained
    # a penalty is a line of the record, no deal: named by its number, not «deal 4»
    assert explained.startswith("No. 4: penalty for Boris: ")
    assert explain_text(sheet, 2).startswith("deal 2, dealt by ")
    with speaking("ru"):
        assert explain_text(prefcalc.sheet(game), 4).startswith("№4: штраф ")


def test_the_pdf_deal_log_shows_the_penalties(tmp_path: Path) -> None:
    from support import require_tool

    from prefcalc.export.pdf import write_pdf

    pdftotext = require_tool("poppler (pdftotext)", "pdftotext")
    game = game4(*NIGHT, convention="fspr")
    path = tmp_path / "g.pdf"
    write_pdf(api.report(game), path)
    text = subprocess.run(
        [pdftotext, "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    assert "looking at the talon (Code 3.2.21)" in flat
    assert "(Code 3.9.11.2)" in flat


def test_values_of_the_record_for_the_types() -> None:
    penalty = Penalty("Anna", "cards", 2, 8, "h")
    assert penalty.label == "8♥" and Penalty("Anna", "peek", 5).label == ""
    assert AllPass((("Anna", 1),)).looked == () and Misere("Anna", 0).looked == ()


# --- the tournament: the penalty log and the tie-break ------------------------------------------


def test_the_tournaments_penalty_log_and_tie_break(tmp_path: Path) -> None:
    from prefcalc.tournament import api as tournament
    from prefcalc.tournament.protocol import penalty_log
    from prefcalc.tournament.text import penalty_rows

    cup = tmp_path / "cup"
    tournament.new(cup, ["Anna", "Boris", "Vera"], rounds=1, deals=2, convention="fspr", seed=3)
    drawn = tournament.draw(cup)
    record = drawn.tables[0]
    path = cup / record.file
    game = prefcalc.load(path)
    a, b, c = game.players[1], game.players[2], game.players[0]  # the first deal: c deals
    game = prefcalc.record(game, f"penalty {a} cards 7s")
    game = prefcalc.record(game, f"game {a} 7h 7 {b}:w {c}:p --looked {a}")  # a remise now
    game = prefcalc.record(game, f"penalty {c} peek")
    game = prefcalc.record(game, f"adjust {b} --mountain 1 --note slow")
    game = prefcalc.record(game, f"game {b} 6s 6 {c}:w {a}:p")
    prefcalc.save(game, path)
    standings = tournament.standings(cup)
    log = penalty_log(standings.rounds)
    assert [(p.number, p.player) for p in log] == [(1, a), (2, a), (3, c), (4, b)]
    assert log[1].writes == ()  # the trick moved within the deal's own writes
    assert [w.amount for w in log[0].writes] == [2 * 4 * 2]
    rows = penalty_rows(log)
    assert (
        rows[1][4]
        == f"penalty for {a}: ordering with a wrong number of cards (Code 3.4.6), 7♠ down 2"
    )
    assert "loses a trick: looking at a trick other than the last (Code 3.9.11.2)" in rows[2][4]
    seats = standings.rounds[0][0].seats
    # the deal's remise counts (7 counted of 7♥), the penalty's «без двух» does not
    assert seats[a].remises == 1
    assert standings.rounds[0][0].deals == 2  # penalties and adjustments are not deals


def test_the_same_penalty_line_through_play_the_web_api_and_the_library(tmp_path: Path) -> None:
    """One penalty line, three front ends, one entry: ``prefcalc play`` reading it from its
    input, ``POST /api/lines`` (what the score page's line field sends), and ``api.record``
    with the typed value. A refused line is one line (one 422) and writes nothing."""
    from fastapi.testclient import TestClient

    from prefcalc.web import create_app

    token = "s3cret-token-0123456789"
    auth = {"Authorization": f"Bearer {token}"}
    played, served = tmp_path / "played.json", tmp_path / "served.json"
    for path in (played, served):
        prefcalc.save(game4(convention="fspr"), path)
    done = invoke(["play", "--file", str(played)], tmp_path, input="штраф Anna cards 8h 3\n")
    assert done.returncode == 0, done.stderr
    with TestClient(create_app(served, token, poll_interval=None)) as client:
        answer = client.post(
            "/api/lines",
            json={"line": "штраф Anna cards 8h 3", "id": "pen-0001-abcd"},
            headers=auth,
        )
        assert answer.status_code == 200, answer.text
        before = served.read_bytes()
        refused = client.post(
            "/api/lines", json={"line": "penalty Anna cards", "id": "pen-0002-abcd"}, headers=auth
        )
        assert refused.status_code == 422 and "\n" not in refused.json()["error"]
        assert served.read_bytes() == before
        log = client.get("/api/log", headers=auth).json()
    typed = prefcalc.record(
        game4(convention="fspr"), Penalty("Anna", "cards", 3, level=8, suit="h")
    )
    # the deal itself, without the time it was written at
    deals = [prefcalc.load(p).entries[-1]._replace(time=None) for p in (played, served)]
    assert deals == [typed.entries[-1]._replace(time=None)] * 2
    # the same sheet, but for the seconds the two entries were written at (a second may
    # tick between the two writes)
    untimed = [prefcalc.load(p) for p in (served, played)]
    untimed = [g._replace(entries=tuple(e._replace(time="") for e in g.entries)) for g in untimed]
    assert prefcalc.sheet(untimed[0]) == prefcalc.sheet(untimed[1])
    # FSPR (Leningrad's scale, remise ×2): 8♥ is worth 6, three undertricks × 6 × 2 = 36
    # into Anna's own mountain, told with the Code's section, in the log the page reads
    assert told(typed) == [
        (
            "Anna",
            "mountain",
            36,
            None,
            "penalty for ordering with a wrong number of cards (Code 3.4.6):"
            " a remise on 8♥, 3 undertricks × 6 × 2 = 36",
        )
    ]
    assert "(Code 3.4.6)" in json.dumps(log[-1], ensure_ascii=False)
