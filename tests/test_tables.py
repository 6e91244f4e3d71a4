"""Every table size (docs/rules.md §8.7): five players, Gusarik for two, and a late arrival.

The evenings here are computed by hand in the comments; the engine must agree write by write.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import game_from_json, invoke, make_game, sheet_of

from prefcalc.report import build_report
from prefcalc.rules.scoring import Sheet
from prefcalc.rules.settlement import settle
from prefcalc.store.ledger import game_to_json_text

FIVE = ["Anna", "Boris", "Vera", "Dima", "Egor"]
TWO = ["Anna", "Boris"]


def writes(sheet: Sheet, number: int) -> list[tuple[str, str, Any, str | None]]:
    return [(w.player, w.column, w.amount, w.on) for w in sheet.scored[number - 1].writes]


# --- five players ---------------------------------------------------------------------------

# Sochi, target 10. The dealer and the next dealer sit out; the deal rotates Anna, Boris...
FIVE_DEALS = [
    "game Vera 7h 6 Dima:w Egor:p",  # 1 Anna deals: Anna, Boris out
    "game Dima 8s 8 Egor:w Anna:p",  # 2 Boris deals: Boris, Vera out
    "passes Egor=3 Anna=3 Boris=4",  # 3 Vera deals: Vera, Dima out
    "game Anna 6s 6 Boris:w2 Vera:w2",  # 4 Dima deals: Dima, Egor out
    "misere Boris 0",  # 5 Egor deals: Egor, Anna out
    "game Vera 9nt 9 Egor:w Dima:p",  # 6 Anna deals: Anna, Boris out
    "game Dima 8h 8 Egor:w Anna:p",  # 7 Boris deals: Boris, Vera out
    "game Anna 7s 5 Egor:w Boris:p",  # 8 Vera deals: Vera, Dima out
]


def five_evening() -> Sheet:
    return sheet_of(make_game(FIVE, FIVE_DEALS, target=10))


def test_five_players_only_the_dealer_writes_the_dealers_consolation() -> None:
    sheet = five_evening()
    # 7♥ one down, Dima whists alone (greedy): 4 tricks × 4 + 1 × 4; Egor passed: 1 × 4;
    # the dealer Anna consoles (1 × 4); Boris, the next dealer, sits out and writes nothing.
    assert writes(sheet, 1) == [
        ("Vera", "mountain", 4, None),
        ("Dima", "whists", 16, "Vera"),
        ("Dima", "whists", 4, "Vera"),
        ("Egor", "whists", 4, "Vera"),
        ("Anna", "whists", 4, "Vera"),
    ]
    # 7♠ two down against Egor (greedy): 5 × 4 + 2 × 4; Boris passed 2 × 4; dealer Vera 2 × 4.
    assert writes(sheet, 8) == [
        ("Anna", "mountain", 8, None),
        ("Egor", "whists", 20, "Anna"),
        ("Egor", "whists", 8, "Anna"),
        ("Boris", "whists", 8, "Anna"),
        ("Vera", "whists", 8, "Anna"),
    ]


def test_five_players_help_never_goes_to_a_player_sitting_out() -> None:
    sheet = five_evening()
    # Before deal 7 the pools are Anna 2, Boris 10, Vera 8, Dima 6, Egor 0. Dima makes 8♥
    # (6 points, 4 fit). Help "most" would pick Vera (8), but she deals next and sits out:
    # the 2 points go to Anna (2), 20 whists.
    assert writes(sheet, 7) == [
        ("Dima", "pool", 4, None),
        ("Anna", "pool", 2, None),
        ("Dima", "whists", 20, "Anna"),
        ("Egor", "whists", 12, "Dima"),
    ]


def test_five_player_evening_totals_and_settlement_by_hand() -> None:
    sheet = five_evening()
    assert sheet.pool == {"Anna": 4, "Boris": 10, "Vera": 8, "Dima": 10, "Egor": 0}
    # Anna 3 (all-pass) + 8 (remise), Boris 4, Vera 4, Egor 3
    assert sheet.mountain == {"Anna": 11, "Boris": 4, "Vera": 4, "Dima": 0, "Egor": 3}
    assert sheet.whists["Egor"] == {"Anna": 28, "Boris": 0, "Vera": 12, "Dima": 24}
    assert sheet.whists["Dima"] == {"Anna": 20, "Boris": 0, "Vera": 20, "Egor": 0}
    assert sheet.whists["Boris"]["Anna"] == 12 and sheet.whists["Vera"]["Anna"] == 12
    assert sheet.whists["Anna"]["Vera"] == 4
    # Settlement, N = 5: largest pool 10 -> mountains 17, 4, 6, 0, 13; amnesty 0; average
    # 40 / 5 = 8 -> 10 × (8 − m): −90, +40, +20, +80, −50. Game whists: Anna 4 − 72 = −68,
    # Boris +12, Vera 12 − 36 = −24, Dima 40 − 24 = +16, Egor +64.
    expected = {"Anna": -158, "Boris": 52, "Vera": -4, "Dima": 96, "Egor": 14}
    for method in ("pairwise", "average"):
        result = settle(sheet, method)
        assert result.whists == expected
        assert result.mountains == {"Anna": 17, "Boris": 4, "Vera": 6, "Dima": 0, "Egor": 13}
        assert result.average == 8
    assert settle(sheet, "pairwise").mountain_entries["Anna"] == 34  # 10 × 17 / 5


def test_five_players_the_dealer_bonus_goes_to_the_dealer_only() -> None:
    sheet = sheet_of(make_game(FIVE, ["passes Vera=3 Dima=3 Egor=4"], convention="rostov"))
    # Rostov: Vera and Dima (3) write 5 × (4 − 3) on Egor; the dealer Anna gets 1 pool point,
    # Boris (next dealer, sitting out) nothing.
    assert writes(sheet, 1) == [
        ("Vera", "whists", 5, "Egor"),
        ("Dima", "whists", 5, "Egor"),
        ("Anna", "pool", 1, None),
    ]


def _ledger(tmp_path: Path, players: list[str], lines: list[str], **kw: Any) -> Path:
    path = tmp_path / "game.json"
    path.write_text(game_to_json_text(make_game(players, lines, **kw)), encoding="utf-8")
    return path


def test_show_says_who_sits_out_the_next_deal(tmp_path: Path) -> None:
    path = _ledger(tmp_path, FIVE, FIVE_DEALS[:2], target=10)
    result = invoke(["show", "--file", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "next dealer Vera · Vera and Dima sit out" in result.stdout


def test_a_five_player_game_is_recorded_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert invoke(["new", *FIVE, "--target", "10", "--file", str(path)], tmp_path).returncode == 0
    for line in FIVE_DEALS:
        result = invoke([*line.split(), "--file", str(path)], tmp_path)
        assert result.returncode == 0, result.stderr
    result = invoke(["settle", "--json", "--file", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert '"whists": -158' in result.stdout


@pytest.mark.parametrize("players", [FIVE[:4], FIVE[:3]])
def test_smaller_tables_show_no_sitting_out_pair(tmp_path: Path, players: list[str]) -> None:
    path = _ledger(tmp_path, players, [])
    assert " sit out" not in invoke(["show", "--file", str(path)], tmp_path).stdout


# --- two players: Gusarik -------------------------------------------------------------------

# Sochi, target 10; the deal alternates Anna, Boris; one defender plays with the dummy.
TWO_DEALS = [
    "game Anna 6s 5 Boris:w",  # 1 Anna deals
    "game Boris 7h - Anna:h",  # 2 Boris deals
    "passes Anna=4 Boris=6",  # 3 Anna deals
    "game Anna 8nt 9 Boris:w",  # 4 Boris deals
    "game Boris 6c 8 Anna:w",  # 5 Anna deals
    "game Anna 7d - Boris:p",  # 6 Boris deals
    "misere Boris 0",  # 7 Anna deals
]


def two_evening(convention: str = "sochi") -> Sheet:
    return sheet_of(make_game(TWO, TWO_DEALS, convention=convention, target=10))


def test_gusarik_evening_write_by_write() -> None:
    sheet = two_evening()
    # 1: 6♠ one down; Boris plays with the dummy: 5 tricks × 2 + consolation 1 × 2, once.
    assert writes(sheet, 1) == [
        ("Anna", "mountain", 2, None),
        ("Boris", "whists", 10, "Anna"),
        ("Boris", "whists", 2, "Anna"),
    ]
    # 2: Anna leaves for her tricks on a 7: 1 trick × 4; the game counts as made.
    assert writes(sheet, 2) == [("Anna", "whists", 4, "Boris"), ("Boris", "pool", 4, None)]
    # 3: all-pass, the dummy takes no part: 4 + 6 tricks at ×1.
    assert writes(sheet, 3) == [("Anna", "mountain", 4, None), ("Boris", "mountain", 6, None)]
    # 5: Anna whists a 6 and takes 2 of the norm of 4: the whole shortfall is hers (2 × 2).
    assert writes(sheet, 5) == [
        ("Anna", "mountain", 4, None),
        ("Boris", "pool", 2, None),
        ("Anna", "whists", 4, "Boris"),
    ]
    # 6: Boris passes: the game counts as made, nobody writes whists.
    assert writes(sheet, 6) == [("Anna", "pool", 4, None)]
    # 7: Boris needs 4 of the misère's 10; Anna has closed, so the 6 left come off his mountain.
    assert writes(sheet, 7) == [("Boris", "pool", 4, None), ("Boris", "mountain", -6, None)]
    assert sheet.finished
    assert sheet.pool == {"Anna": 10, "Boris": 10}
    assert sheet.mountain == {"Anna": 10, "Boris": 0}
    assert sheet.whists == {"Anna": {"Boris": 8}, "Boris": {"Anna": 18}}
    assert sheet.next_dealer == "Boris" and sheet.sitting_out == ()


@pytest.mark.parametrize("method", ["pairwise", "average"])
def test_gusarik_settlement_counts_two(method: str) -> None:
    # mountains 10 and 0, amnesty 0, average 5: −50 / +50; game whists 8 − 18 = −10 / +10.
    # Pairwise: every opponent writes 10 × 10 / 2 = 50 on Anna.
    result = settle(two_evening(), method)
    assert result.whists == {"Anna": -60, "Boris": 60}
    if method == "pairwise":
        assert result.mountain_entries == {"Anna": 50, "Boris": 0}
        assert result.pairwise[("Anna", "Boris")] == -60


def test_gusarik_lone_defender_is_greedy_and_liable_under_leningrad() -> None:
    # Leningrad: W = 2 × 2 = 4 on a 6, remise ×2, gentleman's whist and liability ½. The lone
    # defender stays greedy (no passer to split with) at the convention's liability.
    sheet = sheet_of(
        make_game(TWO, ["game Anna 6s 5 Boris:w", "game Boris 6s 8 Anna:w"], "leningrad")
    )
    assert writes(sheet, 1) == [
        ("Anna", "mountain", 4, None),  # 1 × 2 × 2
        ("Boris", "whists", 20, "Anna"),  # 5 × 4
        ("Boris", "whists", 4, "Anna"),  # 1 × 4, once
    ]
    assert writes(sheet, 2)[0] == ("Anna", "mountain", 4, None)  # 2 missing × 4 × ½


def test_gusarik_through_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert invoke(["new", *TWO, "--target", "10", "--file", str(path)], tmp_path).returncode == 0
    for line in TWO_DEALS:
        result = invoke([*line.split(), "--file", str(path)], tmp_path)
        assert result.returncode == 0, result.stderr
    result = invoke(["log", "--file", str(path)], tmp_path)
    assert "Boris 7♥ not played; Anna left for own tricks" in result.stdout
    result = invoke(["settle", "--file", str(path)], tmp_path)
    assert "10 × mountain / 2" in result.stdout
    assert "Anna pays Boris 60" in result.stdout


# --- a late arrival ---------------------------------------------------------------------------

from fractions import Fraction  # noqa: E402

import prefcalc  # noqa: E402
from prefcalc.rules.model import Join, seating  # noqa: E402

BEFORE_JOIN = [
    "game Anna 7h 7 Boris:w Vera:p",  # 1 Anna deals
    "game Boris 6s 5 Vera:w Anna:p",  # 2 Boris deals
    "passes Anna=2 Boris=5 Vera=3",  # 3 Vera deals
]
AFTER_JOIN = [
    "game Dima 6c 6 Boris:w Vera:p",  # 5 Anna deals and sits out
    "game Vera 7s 6 Dima:w Anna:p",  # 6 Boris deals and sits out
    "misere Anna 0",  # 7 Dima deals and sits out
]


def joined_evening() -> prefcalc.Game:
    g = prefcalc.new_game(["Anna", "Boris", "Vera"], target=10)
    for line in BEFORE_JOIN:
        g = prefcalc.record(g, line)
    g = prefcalc.join(g, "Dima", after="bo")  # a prefix, as everywhere
    for line in AFTER_JOIN:
        g = prefcalc.record(g, line)
    return g


def test_join_starts_at_the_exact_averages_with_reasons() -> None:
    g = joined_evening()
    assert g.players == ("Anna", "Boris", "Vera")  # the seating at the start stays
    assert seating(g) == ("Anna", "Boris", "Dima", "Vera")
    assert seating(g, 3) == ("Anna", "Boris", "Vera")
    assert g.entries[3].deal == Join("Dima", "Boris") and g.entries[3].dealer is None
    sheet = prefcalc.sheet(g)
    # pools 4, 0, 0 -> 4/3; mountains 2 (Anna), 2 + 5 (Boris), 3 (Vera) -> 12/3 = 4; no whists
    assert writes(sheet, 4) == [
        ("Dima", "pool", Fraction(4, 3), None),
        ("Dima", "mountain", 4, None),
    ]
    reasons = [w.reason for w in sheet.scored[3].writes]
    assert reasons == [
        "joined: average pool of 3 players = 4 / 3 = 1⅓",
        "joined: average mountain of 3 players = 12 / 3 = 4",
    ]


def test_after_a_join_the_table_size_rules_apply() -> None:
    sheet = prefcalc.sheet(joined_evening())
    # the deal passes on from Vera (deal 3) in the new seating: Anna, then Boris, then Dima
    assert [s.entry.dealer for s in sheet.scored[4:]] == ["Anna", "Boris", "Dima"]
    # deal 6: four at the table, so the dealer Boris writes his consolation
    assert ("Boris", "whists", 4, "Vera") in writes(sheet, 6)
    # deal 7: Anna's misère, 4 of 10 fit; "most" would pick Dima (3⅓), but he deals and sits
    # out; Boris and Vera tie at 0 points and 7 mountain: Boris is first clockwise from Anna
    assert writes(sheet, 7) == [
        ("Anna", "pool", 6, None),
        ("Boris", "pool", 4, None),
        ("Anna", "whists", 40, "Boris"),
    ]
    assert sheet.players == ("Anna", "Boris", "Dima", "Vera")
    assert sheet.pool == {"Anna": 10, "Boris": 4, "Dima": Fraction(10, 3), "Vera": 0}
    assert sheet.mountain == {"Anna": 2, "Boris": 7, "Dima": 4, "Vera": 7}
    assert sheet.next_dealer == "Vera"


@pytest.mark.parametrize("method", ["pairwise", "average"])
def test_join_settlement_counts_everybody_seated_at_the_end(method: str) -> None:
    # N = 4. Largest pool 10: mountains 2, 13, 4 + 6⅔ = 32/3, 17; amnesty 2 -> 0, 11, 26/3,
    # 15; average 104/3 / 4 = 26/3 -> 260/3, −70/3, 0, −190/3. Game whists: Anna 46 − 12 = 34,
    # Boris 24 − 54 = −30, Dima 20 − 8 = 12, Vera 12 − 28 = −16.
    result = prefcalc.settle(joined_evening(), method)
    assert result.players == ("Anna", "Boris", "Dima", "Vera")
    assert result.whists == {
        "Anna": Fraction(362, 3),
        "Boris": Fraction(-160, 3),
        "Dima": 12,
        "Vera": Fraction(-238, 3),
    }


def test_deleting_an_earlier_deal_replays_the_join() -> None:
    evening = joined_evening()
    # delete re-derives the later dealers: without deal 2, Dima would deal deal 5 and sit
    # out the game he declared, so that delete is refused
    with pytest.raises(prefcalc.DealError, match="after the delete, deal 5 would be dealt by Dima"):
        prefcalc.delete(evening, 2)
    before_play = evening._replace(entries=evening.entries[:4])  # up to the join
    g = prefcalc.delete(before_play, 2)  # Boris's remise is gone
    sheet = prefcalc.sheet(g)
    # the join is now deal 3: mountains 2, 5, 3 -> 10/3
    assert writes(sheet, 3) == [
        ("Dima", "pool", Fraction(4, 3), None),
        ("Dima", "mountain", Fraction(10, 3), None),
    ]
    edited = prefcalc.edit(joined_evening(), 1, "game Anna 7h 5 Boris:w Vera:p")
    # Anna 7♥ two down: mountains 8 + 2, 7, 3 -> 20/3; pools all 0 (nothing written)
    assert writes(prefcalc.sheet(edited), 4) == [("Dima", "mountain", Fraction(20, 3), None)]


def test_a_join_survives_the_ledger(tmp_path: Path) -> None:
    g = joined_evening()
    text = game_to_json_text(g)
    assert '"kind": "join", "player": "Dima", "after": "Boris"}' in text
    assert game_from_json(__import__("json").loads(text)) == g
    path = tmp_path / "g.json"
    prefcalc.save(g, path)
    assert prefcalc.load(path) == g
    last_seat = prefcalc.join(prefcalc.new_game(["Anna", "Boris"]), "Vera")
    assert '{"time"' in game_to_json_text(last_seat) and '"after"' not in game_to_json_text(
        last_seat
    )


def test_a_join_with_a_dealer_in_the_ledger_is_refused() -> None:
    data = __import__("json").loads(game_to_json_text(joined_evening()))
    data["deals"][3]["dealer"] = "Anna"
    with pytest.raises(prefcalc.LedgerError, match=r"deals\[3\]\.dealer: .*no dealer \(deal 4\)"):
        game_from_json(data)


def test_join_through_the_cli_and_the_record_shorthand(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert (
        invoke(["new", "Anna", "Boris", "Vera", "-t", "10", "-f", str(path)], tmp_path).returncode
        == 0
    )
    for line in BEFORE_JOIN:
        assert invoke([*line.split(), "-f", str(path)], tmp_path).returncode == 0
    result = invoke(["join", "Dima", "--after", "Boris", "-f", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "recorded as No. 4: Dima joins the game, after Boris" in result.stdout
    assert "joined: average mountain of 3 players = 12 / 3 = 4" in result.stdout
    assert "next dealer Anna" in result.stdout
    for line in AFTER_JOIN:
        assert invoke([*line.split(), "-f", str(path)], tmp_path).returncode == 0
    assert prefcalc.load(path).entries == tuple(
        e._replace(time=t.time)
        for e, t in zip(joined_evening().entries, prefcalc.load(path).entries, strict=True)
    )
    explained = invoke(["explain", "4", "-f", str(path)], tmp_path).stdout
    assert "Dima: +1⅓ pool — joined: average pool of 3 players = 4 / 3 = 1⅓" in explained
    settled = invoke(["settle", "-f", str(path)], tmp_path).stdout
    assert "Counted: Anna, Boris, Dima, Vera (N = 4: every player seated at the end)" in settled
    assert "10 × mountain / 4" in settled
    # the API's shorthand goes through the same checks
    g = prefcalc.record(prefcalc.new_game(["Anna", "Boris"]), "join Vera --after Anna")
    assert seating(g) == ("Anna", "Vera", "Boris")


def test_gusarik_becomes_a_three_player_game_after_a_join() -> None:
    g = prefcalc.new_game(["Anna", "Boris"], target=10)
    g = prefcalc.record(g, "game Anna 6s 6 Boris:w")  # Anna deals, Gusarik
    g = prefcalc.join(g, "Vera")
    # three hold cards now: the Gusarik line is a 3-player contract, Vera (left out) passes
    implied = prefcalc.record(g, "game Anna 6s 6 Boris:w").entries[-1].deal
    assert implied.defenders[-1] == ("Vera", "p", None)  # type: ignore[union-attr]
    with pytest.raises(prefcalc.PrefcalcError, match="contract needs DECLARER"):
        prefcalc.record(g, "game Anna 6s 6")
    g = prefcalc.record(g, "game Vera 6s 6 Anna:w Boris:p")  # Boris deals now
    assert [e.dealer for e in g.entries] == ["Anna", None, "Boris"]
    # pools: Anna 2, Boris 0 -> Vera 1; mountains 0 -> nothing written
    assert writes(prefcalc.sheet(g), 2) == [("Vera", "pool", 1, None)]


def test_join_fills_a_table_of_five_and_refuses_a_sixth() -> None:
    g = prefcalc.new_game(["Anna", "Boris", "Vera"])
    g = prefcalc.join(prefcalc.join(g, "Dima"), "Egor", after="Anna")
    assert seating(g) == ("Anna", "Egor", "Boris", "Vera", "Dima")
    assert prefcalc.sheet(g).sitting_out == ("Anna", "Egor")
    with pytest.raises(prefcalc.PrefcalcError, match="the table is full"):
        prefcalc.join(g, "Zoya")


# --- the documents for every table size --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "players", "lines", "sectors"),
    [
        ("two", TWO, TWO_DEALS, 2),
        ("five", FIVE, FIVE_DEALS, 5),
        ("joined", ["Anna", "Boris", "Vera"], [*BEFORE_JOIN, "join Dima --after Boris"], 4),
    ],
)
def test_the_pdf_sheet_has_one_sector_per_player_and_renders(
    name: str, players: list[str], lines: list[str], sectors: int, tmp_path: Path
) -> None:
    import subprocess

    from support import require_tool
    from test_export_pdf import page_texts

    from prefcalc.export.pdf import build_pdf, draw_sheet
    from prefcalc.views.sheet_layout import load_layout, running_entries

    exe = require_tool("poppler's pdftoppm", "pdftoppm")
    game = make_game(players, lines, target=10)
    sheet = sheet_of(game)
    built = build_pdf(build_report(game, sheet))
    first = page_texts(built.data)[0]
    for player in sheet.players:  # the seating at the end, after a join too
        assert player in first
    assert f"players clockwise from the top: {', '.join(sheet.players)}" in first.replace("\n", " ")
    from test_export_pdf import _writer

    writer = _writer()
    shape = draw_sheet(writer, sheet.players, "t", "10", running_entries(sheet))
    assert len(shape.sectors) == sectors
    assert all(len(s.columns) == sectors - 1 for s in shape.sectors)
    assert len(shape.spokes) == sectors
    labels = [i for i in writer.pages[0].items if i[2].startswith("on ")]
    assert len(labels) == sectors * (sectors - 1)
    assert load_layout("a4").label_size >= 7
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(built.data)
    done = subprocess.run(
        [exe, "-r", "30", "-png", "-f", "1", "-l", "1", str(path), str(tmp_path / name)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (png,) = tmp_path.glob(f"{name}-*.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("players", ["2", "5"])
def test_cli_blank_for_two_and_five(players: str, tmp_path: Path) -> None:
    from test_export_pdf import page_texts

    result = invoke(["blank", "--players", players, "-o", "b.pdf", "--name", "Анна"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Анна" in page_texts(tmp_path / "b.pdf")[0]
    bad = invoke(["blank", "--players", "6", "-o", "c.pdf"], tmp_path)
    assert bad.returncode == 2 and "2 to 5 players" in bad.stderr
    assert not (tmp_path / "c.pdf").exists()


def test_the_club_history_counts_a_player_who_joined() -> None:
    from prefcalc.history.club import running_balance, summarise

    g = joined_evening()
    night = summarise(g, "joined.json")
    assert night.players == ("Anna", "Boris", "Dima", "Vera")
    assert night.stats["Dima"].declared == {6: 1}  # his 6♣ after joining
    assert night.result["Dima"] == 12
    balances = running_balance(prefcalc.sheet(g))
    assert balances[2]["Dima"] == 0  # not at the table yet
    assert balances[-1] == dict(prefcalc.settle(g).whists)


def test_every_join_starts_at_the_averages_of_the_seated_players() -> None:
    from hypothesis import given
    from hypothesis import strategies as st
    from support import random_game

    @given(
        st.randoms(use_true_random=False),
        st.sampled_from([2, 3, 4]),
        st.sampled_from(["sochi", "leningrad", "rostov"]),
    )
    def check(rng: Any, players: int, preset: str) -> None:
        game = random_game(rng, 60, players, preset, target=30, joins=True)
        sheet = sheet_of(game)
        totals: dict[tuple[str, str], Any] = {}
        seats = list(game.players)
        for scored in sheet.scored:
            deal = scored.entry.deal
            if isinstance(deal, Join):
                for column in ("pool", "mountain"):
                    values = [totals.get((p, column), 0) for p in seats]
                    average = Fraction(sum(values, Fraction(0)), len(values))
                    wrote = sum(w.amount for w in scored.writes if w.column == column)
                    assert wrote == average
                assert all(w.player == deal.player and w.on is None for w in scored.writes)
                seats = list(seating(game, scored.number))
            for w in scored.writes:
                if w.column != "whists":
                    totals[(w.player, w.column)] = totals.get((w.player, w.column), 0) + w.amount
        assert tuple(seats) == sheet.players

    check()
