"""The tournament's folder on disk (issue 28): a draw killed halfway is whole or absent, a
corrupt or hostile tournament.json is refused in one line naming the field, nothing changes
when a command is refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support import invoke, run_cli

from prefcalc.store.files import FAULT_ENV
from prefcalc.tournament.folder import FAULT_POINTS

SEVEN = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"]


def make(tmp_path: Path, name: str = "cup", *extra: str) -> Path:
    folder = tmp_path / name
    done = invoke(
        [
            "tournament",
            "new",
            str(folder),
            "--players",
            *SEVEN,
            "--rounds",
            "3",
            "--deals",
            "4",
            "--convention",
            "sochi",
            "--seed",
            "11",
            *extra,
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    return folder


def refusal(args: list[str], cwd: Path) -> str:
    done = invoke(args, cwd)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert len(done.stderr.splitlines()) == 1, done.stderr
    return done.stderr


def ledgers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("r*-t*.json"))


@pytest.mark.parametrize("point", FAULT_POINTS)
def test_a_draw_killed_halfway_is_whole_or_absent(tmp_path: Path, point: str) -> None:
    folder = make(tmp_path)
    before = (folder / "tournament.json").read_bytes()
    killed = run_cli(["tournament", "draw", str(folder)], tmp_path, {FAULT_ENV: point})
    assert killed.returncode != 0
    recorded = json.loads((folder / "tournament.json").read_text("utf-8"))["draws"]
    if point == "draw-after-record":  # the round is recorded: every table's ledger is there
        assert len(recorded) == 1
        assert ledgers(folder) == ["r1-t1.json", "r1-t2.json"]
    else:  # the round is absent: tournament.json is as it was
        assert (folder / "tournament.json").read_bytes() == before
        assert recorded == []
        assert ledgers(folder) == (
            ["r1-t1.json"] if point == "draw-after-first-table" else ["r1-t1.json", "r1-t2.json"]
        )
        # the standings know no round; the next draw cleans up and draws round 1 whole
        assert "no round is drawn yet" in refusal(
            ["tournament", "standings", str(folder)], tmp_path
        )
    again = run_cli(["tournament", "draw", str(folder), "--json"], tmp_path)
    if point == "draw-after-record":
        assert again.returncode == 2
        assert "round 1 is not over" in again.stderr
    else:
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["round"] == 1
    assert ledgers(folder) == ["r1-t1.json", "r1-t2.json"]
    assert len(json.loads((folder / "tournament.json").read_text("utf-8"))["draws"]) == 1
    assert not list(folder.glob(".*.tmp"))


def test_a_leftover_ledger_with_deals_is_never_removed(tmp_path: Path) -> None:
    folder = make(tmp_path)
    killed = run_cli(
        ["tournament", "draw", str(folder)], tmp_path, {FAULT_ENV: "draw-before-record"}
    )
    assert killed.returncode != 0
    # somebody recorded a deal into the orphan before the next tournament command
    done = invoke(["game", "Anna", "6s", "6", "--file", str(folder / "r1-t2.json")], tmp_path)
    if done.returncode != 0:  # Anna may not hold cards there: record any legal deal
        from prefcalc import api
        from prefcalc.rules.model import active_players

        game = api.load(folder / "r1-t2.json")
        a, b, c = active_players(game, game.next_dealer)
        done = invoke(
            ["game", a, "6s", "6", f"{b}:w", f"{c}:p", "--file", str(folder / "r1-t2.json")],
            tmp_path,
        )
    assert done.returncode == 0, done.stderr
    kept = (folder / "r1-t2.json").read_bytes()
    line = refusal(["tournament", "draw", str(folder)], tmp_path)
    assert (
        "r1-t2.json: the file of a table of round 1 is already there and is not an empty game"
        in line
    )
    assert (folder / "r1-t2.json").read_bytes() == kept
    assert json.loads((folder / "tournament.json").read_text("utf-8"))["draws"] == []


def _edit(folder: Path, change: object) -> None:
    path = folder / "tournament.json"
    data = json.loads(path.read_text("utf-8"))
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(rounds="3"), "rounds: input should be a valid integer"),
        (lambda d: d.update(seed=1.5), "seed: input should be a valid integer"),
        (lambda d: d.update(per_deal="yes"), "per_deal: input should be a valid boolean"),
        (
            lambda d: d.update(scoring="elo"),
            "scoring: input should be 'raw', 'cutoffs', 'bands' or 'places'",
        ),
        (lambda d: d.update(extra=1), "extra: unknown field"),
        (lambda d: d.pop("draws"), "draws: missing"),
        (lambda d: d["players"][2].update(name="ANNA"), "registered twice"),
        (lambda d: d["players"][2].update(name="Ve\nra"), "players[2]"),
        (
            lambda d: d["players"][0].update(joined=1),
            "players[0].joined: a late entry joins in round 2 or later",
        ),
        (lambda d: d.update(players=[]), "players: tuple should have at least 1 item"),
        (lambda d: d.update(forbid=[["Anna", "Zed"]]), "forbid[0][1]: 'Zed' is not a registered"),
        (lambda d: d.update(late="half"), "late: input should be 'zero' or 'average'"),
        (lambda d: d.update(tournament=2), "written by a newer prefcalc (tournament format 2"),
        (lambda d: d.pop("tournament"), "not a prefcalc tournament"),
        (lambda d: d.update(deals=None), "a round is played over a number of deals or by time"),
        (
            lambda d: d.update(convention={"preset": "sochi", "options": {"liability": "x"}}),
            "convention",
        ),
    ],
)
def test_a_corrupt_tournament_file_names_the_field(
    tmp_path: Path, change: object, message: str
) -> None:
    folder = make(tmp_path)
    _edit(folder, change)
    text = (folder / "tournament.json").read_bytes()
    for command in (["standings", str(folder)], ["draw", str(folder)]):
        line = refusal(["tournament", *command], tmp_path)
        assert "tournament.json: " in line
        assert message in line, line
    assert (folder / "tournament.json").read_bytes() == text
    assert ledgers(folder) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["draws"][0]["tables"][0].update(dealer="Zoya"),
            "draws[0].tables[0].dealer: 'Zoya' does not sit at this table",
        ),
        (lambda d: d["draws"][0]["tables"][0].update(file="../x.json"), "draws[0].tables[0].file"),
        (lambda d: d["draws"][0]["tables"][1].update(file="r1-t1.json"), "used twice"),
        (
            lambda d: d["draws"][0]["tables"][1]["players"].__setitem__(0, "Zoya"),
            "'Zoya' is not a registered player",
        ),
        (lambda d: d["draws"][0].update(round=2), "draws[0].round: expected round 1"),
        (lambda d: d["draws"][0]["tables"].pop(), "the tables do not seat the 7 players as 4+3"),
        (
            lambda d: d["draws"][0]["tables"][1].update(closed={"time": "", "deals": 3}),
            "only a round played by time",
        ),
    ],
)
def test_a_draw_edited_by_hand_names_the_field(
    tmp_path: Path, change: object, message: str
) -> None:
    folder = make(tmp_path)
    assert invoke(["tournament", "draw", str(folder)], tmp_path).returncode == 0
    _edit(folder, change)
    line = refusal(["tournament", "standings", str(folder)], tmp_path)
    assert message in line, line


def test_a_tournament_file_that_is_not_a_file(tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    folder.mkdir()
    os.mkfifo(folder / "tournament.json")
    for command in ("standings", "draw"):
        line = refusal(["tournament", command, str(folder)], tmp_path)
        assert "the tournament file is not a regular file (it is a FIFO (named pipe))" in line
    assert not (folder / "tournament.json.lock").exists()
    (folder / "tournament.json").unlink()
    (folder / "tournament.json").write_bytes(b"\xff\xfe not json")
    line = refusal(["tournament", "standings", str(folder)], tmp_path)
    assert "is not UTF-8 text" in line
    (folder / "tournament.json").write_text("[1, 2]", "utf-8")
    line = refusal(["tournament", "standings", str(folder)], tmp_path)
    assert "not a prefcalc tournament (expected a JSON object)" in line
    (folder / "tournament.json").write_text("{" * 100_000, "utf-8")
    line = refusal(["tournament", "standings", str(folder)], tmp_path)
    assert "the tournament file is corrupt" in line


def test_a_tournament_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "cup").write_text("hello", "utf-8")
    line = refusal(
        [
            "tournament",
            "new",
            str(tmp_path / "cup"),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
        ],
        tmp_path,
    )
    assert "not a folder" in line
    assert (tmp_path / "cup").read_text("utf-8") == "hello"


def test_players_file(tmp_path: Path) -> None:
    listing = tmp_path / "players.txt"
    listing.write_text(
        "# the club's players\nAnna, Spades, 1620\n\nBoris, Hearts\nVera\nDima,,1400\nEgor\nFedya\nGleb\n",
        "utf-8",
    )
    folder = tmp_path / "cup"
    done = invoke(
        [
            "tournament",
            "new",
            str(folder),
            "--players-file",
            str(listing),
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads((folder / "tournament.json").read_text("utf-8"))
    assert data["players"][:4] == [
        {"name": "Anna", "club": "Spades", "rating": 1620},
        {"name": "Boris", "club": "Hearts"},
        {"name": "Vera"},
        {"name": "Dima", "rating": 1400},
    ]
    assert 0 <= data["seed"] < 10**6
    for text, message in [
        ("Anna, Spades, strong\n", "players.txt:1: the rating must be a whole number"),
        ("Anna\nBoris\nVe:ra\n", "players.txt:3: bad player name 've:ra'"),
        ("Anna, a, 1, 2\n", "players.txt:1: NAME, CLUB, RATING at most"),
        ("Anna, Sp\x07ades\n", "players.txt:1: the club"),
    ]:
        listing.write_text(text, "utf-8")
        line = refusal(
            [
                "tournament",
                "new",
                str(tmp_path / "other"),
                "--players-file",
                str(listing),
                "--rounds",
                "2",
                "--deals",
                "4",
                "--convention",
                "sochi",
            ],
            tmp_path,
        )
        assert message in line.lower() or message in line, line
    os.mkfifo(tmp_path / "fifo")
    line = refusal(
        [
            "tournament",
            "new",
            str(tmp_path / "other"),
            "--players-file",
            str(tmp_path / "fifo"),
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
        ],
        tmp_path,
    )
    assert "the players file is not a regular file" in line
    assert not (tmp_path / "other").exists()


def test_a_missing_table_ledger_is_named(tmp_path: Path) -> None:
    folder = make(tmp_path)
    assert invoke(["tournament", "draw", str(folder)], tmp_path).returncode == 0
    (folder / "r1-t2.json").unlink()
    line = refusal(["tournament", "standings", str(folder)], tmp_path)
    assert "round 1, table 2: its ledger r1-t2.json is missing" in line


def test_a_folder_name_with_a_control_character_is_never_printed_raw(tmp_path: Path) -> None:
    folder = tmp_path / "cup\x1b[31m"
    done = invoke(
        [
            "tournament",
            "new",
            str(folder),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
            "--seed",
            "1",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    assert "cup\\x1b[31m" in done.stdout
    assert json.loads((folder / "tournament.json").read_text("utf-8"))["name"] == "cup[31m"
    done = invoke(["tournament", "draw", str(folder)], tmp_path)
    assert done.returncode == 0 and "\x1b" not in done.stdout
    line = refusal(
        [
            "tournament",
            "new",
            str(tmp_path / "x"),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
            "--name",
            "Cup\nof the year",
        ],
        tmp_path,
    )
    assert "the event's name 'Cup\\nof the year' must be one line" in line


def test_the_language_after_the_command(tmp_path: Path) -> None:
    done = invoke(
        [
            "tournament",
            "new",
            str(tmp_path / "cup"),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
            "--lang",
            "ru",
        ],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("турнир «cup»: 7 игроков")
