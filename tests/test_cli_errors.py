"""Bad input: one line on stderr naming the problem, exit code 2, the ledger byte for byte unchanged.

Every case runs the CLI in process (``typer.testing.CliRunner``, see ``support.invoke``)
against a prepared ledger; tests/test_cli_e2e.py drives the installed executable.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import invoke, make_game

from prefcalc.store.ledger import game_to_json_text

THREE = ["Anna", "Boris", "Vera"]
FOUR = ["Anna", "Boris", "Vera", "Dima"]
FIVE = ["Anna", "Boris", "Vera", "Dima", "Egor"]
TWO = ["Anna", "Boris"]


def _ledger(
    tmp_path: Path,
    players: list[str],
    lines: list[str],
    convention: str = "sochi",
    target: int = 20,
) -> Path:
    path = tmp_path / "game.json"
    path.write_text(
        game_to_json_text(make_game(players, lines, convention=convention, target=target)),
        encoding="utf-8",
    )
    return path


# (id, players, convention, target, recorded deals, command, a phrase the error must contain)
CASES = [
    (
        "unknown player",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Zoe", "7h", "7", "Boris:w", "Vera:p"],
        "unknown player 'Zoe'",
    ),
    (
        "unknown defender",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "7h", "7", "Zoe:w", "Vera:p"],
        "unknown player 'Zoe'",
    ),
    (
        "duplicate defender",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "7h", "7", "Boris:w", "Boris:p"],
        "listed twice",
    ),
    (
        "declarer defends",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "7h", "7", "Anna:w", "Vera:p"],
        "declares and cannot also defend",
    ),
    (
        "4p dealer defends",
        FOUR,
        "sochi",
        20,
        [],
        ["game", "Boris", "7h", "7", "Anna:w", "Vera:p"],
        "dealer",
    ),
    (
        "4p dealer declares",
        FOUR,
        "sochi",
        20,
        [],
        ["game", "Anna", "7h", "7", "Boris:w", "Vera:p"],
        "dealer",
    ),
    (
        "level 5",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "5h", "5", "Boris:w", "Vera:p"],
        "no contract level 5",
    ),
    (
        "level 11",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "11h", "10", "Boris:w", "Vera:p"],
        "no contract level 11",
    ),
    (
        "unknown suit",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "7x", "7", "Boris:w", "Vera:p"],
        "unknown suit 'x'",
    ),
    (
        "no suit",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "7", "7", "Boris:w", "Vera:p"],
        "has no suit",
    ),
    (
        "tricks 11",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "7h", "11", "Boris:w", "Vera:p"],
        "0-10",
    ),
    (
        "tricks negative",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "7h", "-1", "Boris:w", "Vera:p"],
        "0-10",
    ),
    (
        "tricks text",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "7h", "seven", "Boris:w", "Vera:p"],
        "number 0-10",
    ),
    (
        "whisters' tricks do not add up",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "5", "Boris:w3", "Vera:w3"],
        "add up to 10",
    ),
    (
        "two whisters without tricks",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "5", "Boris:w", "Vera:w"],
        "give each one's tricks",
    ),
    (
        "lone whister wrong tricks",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "5", "Boris:w4", "Vera:p"],
        "leave 5",
    ),
    (
        "half-whist on 8",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "8s", "-", "Boris:p", "Vera:h"],
        "only possible on 6 and 7",
    ),
    (
        "half-whist without passer",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "-", "Boris:w", "Vera:h"],
        "passing partner",
    ),
    (
        "half-whist played",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "5", "Boris:p", "Vera:h"],  # its level (6) would be taken
        "not played",
    ),
    (
        "whisted but not played",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "-", "Boris:w", "Vera:p"],
        "give the declarer's tricks",
    ),
    (
        "both passed but tricks other than the contract",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "7", "Boris:p", "Vera:p"],
        "was not played: write its tricks as '-' (or 6, the contract), not 7",
    ),
    (
        "unknown role",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "6", "Boris:x", "Vera:p"],
        "unknown role",
    ),
    (
        "missing defender",
        THREE,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "6"],
        "DECLARER CONTRACT TRICKS",
    ),
    (
        "below the exit level",
        THREE,
        "leningrad",
        20,
        ["passes Anna=3 Boris=3 Vera=4"],
        ["game", "Boris", "6s", "6", "Anna:w", "Vera:p"],
        "lowest contract is 7",
    ),
    (
        "all-pass missing player",
        THREE,
        "sochi",
        20,
        [],
        ["passes", "Anna=5", "Boris=5"],
        "missing Vera",
    ),
    (
        "all-pass not 10",
        THREE,
        "sochi",
        20,
        [],
        ["passes", "Anna=5", "Boris=5", "Vera=1"],
        "add up to 10",
    ),
    (
        "all-pass 4p dealer",
        FOUR,
        "sochi",
        20,
        [],
        ["passes", "Anna=2", "Boris=2", "Vera=3", "Dima=3"],
        "dealer",
    ),
    (
        "all-pass malformed",
        THREE,
        "sochi",
        20,
        [],
        ["passes", "Anna:5", "Boris=5", "Vera=0"],
        "NAME=TRICKS",
    ),
    ("misère tricks 11", THREE, "sochi", 20, [], ["misere", "Anna", "11"], "0-10"),
    (
        "after the game finished",
        THREE,
        "sochi",
        2,
        [
            "game Anna 6s 6 Boris:w Vera:p",
            "game Boris 6s 6 Vera:w Anna:p",
            "game Vera 6s 6 Anna:w Boris:p",
        ],
        ["game", "Anna", "6s", "6", "Boris:w", "Vera:p"],
        "already finished",
    ),
    (
        "edit missing deal",
        THREE,
        "sochi",
        20,
        ["passes Anna=3 Boris=3 Vera=4"],
        ["edit", "5", "misere", "Anna", "0"],
        "no deal 5",
    ),
    ("delete missing deal", THREE, "sochi", 20, [], ["delete", "1"], "no deal 1"),
    ("undo on empty", THREE, "sochi", 20, [], ["undo"], "no deal to undo"),
    ("explain missing deal", THREE, "sochi", 20, [], ["explain", "3"], "no deal 3"),
    ("adjust without note", THREE, "sochi", 20, [], ["adjust", "Anna", "--pool", "2"], "--note"),
    (
        "adjust nothing",
        THREE,
        "sochi",
        20,
        [],
        ["adjust", "Anna", "--note", "x"],
        "--pool, --mountain or --whists",
    ),
    (
        "adjust bad number",
        THREE,
        "sochi",
        20,
        [],
        ["adjust", "Anna", "--mountain", "lots", "--note", "x"],
        "must be a number",
    ),
    (
        "adjust whists on self",
        THREE,
        "sochi",
        20,
        [],
        ["adjust", "Anna", "--whists", "Anna=3", "--note", "x"],
        "on himself",
    ),
    (
        "ambiguous prefix",
        ["Anna", "Andrei", "Vera"],
        "sochi",
        20,
        [],
        ["misere", "An", "0"],
        "could be Anna or Andrei",
    ),
    (
        "settle bad method",
        THREE,
        "sochi",
        20,
        [],
        ["settle", "--method", "median"],
        "unknown method 'median' (use pairwise or average)",
    ),
    (
        "show bad --set",
        THREE,
        "sochi",
        20,
        [],
        ["show", "--set", "passes.prices"],
        "malformed option",
    ),
    (
        "show unknown option",
        THREE,
        "sochi",
        20,
        [],
        ["show", "--set", "whist_factr=2"],
        "unknown option 'whist_factr'",
    ),
    (
        "show bad option value",
        THREE,
        "sochi",
        20,
        [],
        ["show", "--set", "liability=3"],
        "option 'liability'",
    ),
    (
        "new over existing game",
        THREE,
        "sochi",
        20,
        [],
        ["new", "Anna", "Boris", "Vera"],
        "already exists",
    ),
    # five at the table: Anna deals, Anna and Boris (the next dealer) sit out
    (
        "5p next dealer declares",
        FIVE,
        "sochi",
        20,
        [],
        ["game", "Boris", "7h", "7", "Vera:w", "Dima:p"],
        "Boris deals next and sits out this deal",
    ),
    (
        "5p next dealer defends",
        FIVE,
        "sochi",
        20,
        [],
        ["game", "Vera", "7h", "7", "Boris:w", "Dima:p"],
        "Boris deals next and sits out this deal, so cannot defend",
    ),
    (
        "5p dealer defends",
        FIVE,
        "sochi",
        20,
        [],
        ["game", "Vera", "7h", "7", "Anna:w", "Dima:p"],
        "Anna is the dealer and sits out this deal, so cannot defend",
    ),
    (
        "5p next dealer in all-pass",
        FIVE,
        "sochi",
        20,
        [],
        ["passes", "Boris=3", "Vera=3", "Dima=4"],
        "Boris deals next and sits out this deal, so takes no all-pass tricks",
    ),
    (
        "5p all-pass misses a player",
        FIVE,
        "sochi",
        20,
        [],
        ["passes", "Vera=6", "Dima=4"],
        "missing Egor",
    ),
    (
        "5p defender missing",
        FIVE,
        "sochi",
        20,
        [],
        ["game", "Vera", "7h", "7", "Dima:w", "Anna:p"],
        "sits out",
    ),
    # two at the table (Gusarik): one defender and the dummy
    (
        "2p two defenders",
        TWO,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "6", "Boris:w", "Boris:p"],
        "two players (Gusarik): a contract needs DECLARER CONTRACT TRICKS DEFENDER:ROLE",
    ),
    (
        "2p defender is the declarer",
        TWO,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "6", "Anna:w"],
        "declares and cannot also defend",
    ),
    (
        "2p played pass",
        TWO,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "6", "Boris:p"],
        "Boris passed, so the game was not played",
    ),
    (
        "2p h on an 8",
        TWO,
        "sochi",
        20,
        [],
        ["game", "Anna", "8s", "-", "Boris:h"],
        "only possible on 6 and 7, not on 8",
    ),
    (
        "2p whist not played",
        TWO,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "-", "Boris:w"],
        "a whisted game is played",
    ),
    (
        "2p wrong defence tricks",
        TWO,
        "sochi",
        20,
        [],
        ["game", "Anna", "6s", "6", "Boris:w3"],
        "Boris took 3 but the declarer's 6 leave 4",
    ),
    (
        "2p all-pass not 10",
        TWO,
        "sochi",
        20,
        [],
        ["passes", "Anna=3", "Boris=4"],
        "add up to 10, not 7 (the dummy takes no part)",
    ),
    (
        "2p all-pass missing",
        TWO,
        "sochi",
        20,
        [],
        ["passes", "Anna=10"],
        "missing Boris",
    ),
    # a late arrival
    (
        "join at five",
        FIVE,
        "sochi",
        20,
        [],
        ["join", "Zoe"],
        "the table is full: 5 players at most",
    ),
    (
        "join a name that plays",
        THREE,
        "sochi",
        20,
        [],
        ["join", "boris"],
        "'boris' cannot join: Boris already plays",
    ),
    (
        "join after a stranger",
        THREE,
        "sochi",
        20,
        [],
        ["join", "Dima", "--after", "Zoe"],
        "unknown player 'Zoe'",
    ),
    (
        "join a finished game",
        THREE,
        "sochi",
        2,
        [
            "game Anna 6s 6 Boris:w Vera:p",
            "game Boris 6s 6 Vera:w Anna:p",
            "game Vera 6s 6 Anna:w Boris:p",
        ],
        ["join", "Dima"],
        "the game has finished: Dima cannot join it",
    ),
    (
        "join a bad name",
        THREE,
        "sochi",
        20,
        [],
        ["join", "Di:ma"],
        "bad player name",
    ),
    (
        "joined player at five sits out",
        FOUR,
        "sochi",
        20,
        ["join Egor"],
        ["game", "Vera", "7h", "7", "Boris:w", "Dima:p"],
        "Boris deals next and sits out this deal",
    ),
    (
        "edit a join",
        THREE,
        "sochi",
        20,
        ["join Dima"],
        ["edit", "1", "misere", "Anna", "0"],
        "a join is not edited",
    ),
    (
        "delete a join its player needs",
        THREE,
        "sochi",
        20,
        ["join Dima", "game Boris 7h 7 Vera:w Dima:p"],
        ["delete", "1"],
        "deal 1 cannot be deleted: deal 2: unknown player 'Dima'",
    ),
]


@pytest.mark.parametrize(
    ("players", "convention", "target", "lines", "command", "phrase"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_bad_input_is_refused_and_changes_nothing(
    tmp_path: Path,
    players: list[str],
    convention: str,
    target: int,
    lines: list[str],
    command: list[str],
    phrase: str,
) -> None:
    ledger = _ledger(tmp_path, players, lines, convention, target)
    before = ledger.read_bytes()
    result = invoke([*command, "--file", str(ledger)], tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    lines_out = result.stderr.strip().splitlines()
    assert len(lines_out) == 1, result.stderr
    assert phrase in lines_out[0], lines_out[0]
    assert lines_out[0].startswith("prefcalc: error: ")
    assert ledger.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("game.json")) in (
        [],
        ["data"],
    )


NEW_CASES = [
    ("new duplicate player", ["new", "Anna", "Boris", "anna"], "listed twice"),
    ("new one player", ["new", "Anna"], "2 to 5 players, not 1"),
    ("new six players", ["new", "A", "B", "C", "D", "E", "F"], "2 to 5 players, not 6"),
    (
        "new unknown convention",
        ["new", "Anna", "Boris", "Vera", "-c", "moscow"],
        "unknown convention 'moscow'",
    ),
    (
        "new bad --set",
        ["new", "Anna", "Boris", "Vera", "--set", "passes.prices=1,x"],
        "option 'passes.prices'",
    ),
    (
        "new unknown key",
        ["new", "Anna", "Boris", "Vera", "--set", "bombs=true"],
        "unknown option 'bombs'",
    ),
    (
        "new bad price",
        ["new", "Anna", "Boris", "Vera", "--whist-price", "cheap"],
        "--whist-price must be a number",
    ),
    ("new bad dealer", ["new", "Anna", "Boris", "Vera", "--dealer", "Zoe"], "unknown player 'Zoe'"),
    ("new zero target", ["new", "Anna", "Boris", "Vera", "--target", "0"], "target"),
    (
        "new missing house file",
        ["new", "Anna", "Boris", "Vera", "-c", "house.toml"],
        "cannot read convention file",
    ),
]


@pytest.mark.parametrize(
    ("command", "phrase"), [c[1:] for c in NEW_CASES], ids=[c[0] for c in NEW_CASES]
)
def test_bad_new_game_writes_nothing(tmp_path: Path, command: list[str], phrase: str) -> None:
    ledger = tmp_path / "game.json"
    result = invoke([*command, "--file", str(ledger)], tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert phrase in result.stderr
    assert not ledger.exists()


def test_forced_deal_is_recorded_and_marked(tmp_path: Path) -> None:
    ledger = _ledger(tmp_path, THREE, ["passes Anna=3 Boris=3 Vera=4"], "leningrad")
    result = invoke(
        ["game", "Boris", "6s", "6", "Anna:w", "Vera:p", "--force", "--file", str(ledger)], tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert '"forced": true' in ledger.read_text(encoding="utf-8")
    assert "(forced)" in result.stdout


@pytest.mark.parametrize(
    "content",
    ["{not json", '{"schema": 99, "players": []}', '{"schema": 1, "players": ["A", "B"]}', ""],
    ids=["corrupt", "newer schema", "two players", "empty"],
)
def test_corrupt_ledger_is_reported_with_its_path_and_never_overwritten(
    tmp_path: Path, content: str
) -> None:
    ledger = tmp_path / "game.json"
    ledger.write_text(content, encoding="utf-8")
    for command in (
        ["game", "Anna", "7h", "7", "Boris:w", "Vera:p"],
        ["show"],
        ["undo"],
        ["settle"],
    ):
        result = invoke([*command, "--file", str(ledger)], tmp_path)
        assert result.returncode == 2
        assert str(ledger) in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert ledger.read_text(encoding="utf-8") == content


def test_bad_deal_inside_a_ledger_names_its_number(tmp_path: Path) -> None:
    ledger = _ledger(tmp_path, THREE, ["passes Anna=3 Boris=3 Vera=4", "misere Anna 0"])
    ledger.write_text(
        ledger.read_text(encoding="utf-8").replace('"tricks": 0', '"tricks": 12'), encoding="utf-8"
    )
    result = invoke(["show", "--file", str(ledger)], tmp_path)
    assert result.returncode == 2
    assert "deals[1].tricks: input should be less than or equal to 10" in result.stderr
    assert "(deal 2)" in result.stderr


def test_no_current_game_is_a_clear_error(tmp_path: Path) -> None:
    result = invoke(["show"], tmp_path)
    assert result.returncode == 2
    assert "no current game" in result.stderr
