"""Tournaments end to end through the real CLI (issue 28): a 7-player tournament (a table of
4 and one of 3) over 3 rounds and an 8-player one (two tables of 4), each table's deals
recorded with the usual commands on its file, the standings checked against every table's
``prefcalc settle --json``, the Swiss rounds checked to repeat no more pairs than any
seating must."""

from __future__ import annotations

import json
import shlex
from fractions import Fraction
from pathlib import Path

import pytest
from support import invoke
from tournament_support import least_repeats, met_before, play, repeats, settled

from prefcalc.tournament.conversions import places

SEVEN = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"]
EIGHT = [*SEVEN, "Zoya"]


def run(args: list[str], cwd: Path) -> str:
    done = invoke(args, cwd)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def refused(args: list[str], cwd: Path) -> str:
    done = invoke(args, cwd)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(("prefcalc: error: ", "prefcalc: ошибка: "))
    return lines[0]


def draw_round(folder: Path, cwd: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(run(["tournament", "draw", str(folder), "--json"], cwd))
    return data


def tournament_json(folder: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((folder / "tournament.json").read_text("utf-8"))
    return data


def test_seven_players_three_rounds(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    out = run(
        [
            "tournament",
            "new",
            str(cup),
            "--players",
            *SEVEN,
            "--rounds",
            "3",
            "--deals",
            "8",
            "--convention",
            "leningrad",
            "--seed",
            "2026",
        ],
        tmp_path,
    )
    assert "7 players, 3 rounds of 8 deals" in out
    assert "tables: 4+3" in out
    results: dict[str, Fraction] = {p: Fraction(0) for p in SEVEN}
    for r in (1, 2, 3):
        before = tournament_json(cup)["draws"]
        drawn = draw_round(cup, tmp_path)
        assert drawn["round"] == r
        tables = drawn["tables"]
        assert [len(t["players"]) for t in tables] == [4, 3]  # type: ignore[index]
        seated = [tuple(t["players"]) for t in tables]  # type: ignore[index]
        assert sorted(p for t in seated for p in t) == sorted(SEVEN)
        for t in tables:  # type: ignore[attr-defined]
            assert t["dealer"] in t["players"]
            assert t["file"] == str(cup / f"r{r}-t{t['table']}.json")
        if r > 1:  # Swiss: no more repeated pairs than the best seating has
            met = met_before(before)  # type: ignore[arg-type]
            assert repeats(seated, met) == least_repeats(SEVEN, [4, 3], met)
        # a draw before the round is over is refused, and changes nothing
        text = (cup / "tournament.json").read_bytes()
        line = refused(["tournament", "draw", str(cup)], tmp_path)
        if r < 3:
            assert f"round {r} is not over" in line
        else:
            assert "all 3 rounds of the tournament are drawn: there is no round 4" in line
        assert (cup / "tournament.json").read_bytes() == text
        for k in range(1, len(tables) + 1):  # type: ignore[arg-type]
            play(cup, f"r{r}-t{k}.json", 8, offset=r + k)
            for name, value in settled(cup, f"r{r}-t{k}.json").items():
                results[name] += value
        standings = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
        assert standings["after_round"] == r
        assert standings["complete"] is True
        for row in standings["players"]:
            assert Fraction(row["whists"]) == results[row["name"]]
            assert Fraction(row["points"]) == results[row["name"]]  # raw scoring
            assert len(row["rounds"]) == r
        # ranked by points, then the tie-breaks
        points = [Fraction(row["points"]) for row in standings["players"]]
        assert points == sorted(points, reverse=True)
        assert [row["place"] for row in standings["players"]] == list(range(1, 8))
        assert sum(results.values()) == 0  # a table's results add up to zero
    line = refused(["tournament", "draw", str(cup)], tmp_path)
    assert "all 3 rounds of the tournament are drawn" in line
    # the standings after round 1 still read as they were
    first = json.loads(
        run(["tournament", "standings", str(cup), "--json", "--round", "1"], tmp_path)
    )
    assert first["after_round"] == 1
    assert all(len(row["rounds"]) == 1 for row in first["players"])
    text = run(["tournament", "standings", str(cup)], tmp_path)
    assert "Standings of “cup” after round 3 of 3" in text
    assert "R1" in text and "R3" in text


def test_eight_players_by_places(tmp_path: Path) -> None:
    cup = tmp_path / "club cup"
    run(
        [
            "tournament",
            "new",
            str(cup),
            "--players",
            ",".join(EIGHT),
            "--rounds",
            "3",
            "--deals",
            "4",
            "--convention",
            "sochi",
            "--scoring",
            "places",
            "--seed",
            "8",
        ],
        tmp_path,
    )
    points: dict[str, Fraction] = {p: Fraction(0) for p in EIGHT}
    whists: dict[str, Fraction] = {p: Fraction(0) for p in EIGHT}
    for r in (1, 2, 3):
        before = tournament_json(cup)["draws"]
        drawn = draw_round(cup, tmp_path)
        seated = [tuple(t["players"]) for t in drawn["tables"]]  # type: ignore[attr-defined]
        assert [len(t) for t in seated] == [4, 4]
        if r > 1:
            met = met_before(before)  # type: ignore[arg-type]
            assert repeats(seated, met) == least_repeats(EIGHT, [4, 4], met)
        for k in (1, 2):
            play(cup, f"r{r}-t{k}.json", 4, offset=3 * r + k)
            result = settled(cup, f"r{r}-t{k}.json")
            for name, value in places(result).items():  # 4-2-1-0, ties share
                points[name] += Fraction(value)
            for name, value in result.items():
                whists[name] += value
    standings = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
    for row in standings["players"]:
        assert Fraction(row["points"]) == points[row["name"]]
        assert Fraction(row["whists"]) == whists[row["name"]]
    assert sum(points.values()) == 3 * 2 * 7  # every table hands out 4 + 2 + 1 + 0


def test_same_seed_same_draw(tmp_path: Path) -> None:
    draws = []
    for name in ("a", "b"):
        folder = tmp_path / name
        run(
            [
                "tournament",
                "new",
                str(folder),
                "--players",
                *EIGHT,
                "--rounds",
                "2",
                "--deals",
                "4",
                "--convention",
                "sochi",
                "--seed",
                "99",
            ],
            tmp_path,
        )
        drawn = draw_round(folder, tmp_path)
        draws.append([(t["players"], t["dealer"]) for t in drawn["tables"]])  # type: ignore[attr-defined]
    assert draws[0] == draws[1]
    other = tmp_path / "c"
    run(
        [
            "tournament",
            "new",
            str(other),
            "--players",
            *EIGHT,
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
            "--seed",
            "100",
        ],
        tmp_path,
    )
    drawn = draw_round(other, tmp_path)
    assert [(t["players"], t["dealer"]) for t in drawn["tables"]] != draws[0]  # type: ignore[attr-defined]


def test_a_table_still_playing_is_shown_so(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    run(
        [
            "tournament",
            "new",
            str(cup),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--deals",
            "8",
            "--convention",
            "leningrad",
            "--seed",
            "5",
        ],
        tmp_path,
    )
    run(["tournament", "draw", str(cup)], tmp_path)
    play(cup, "r1-t1.json", 8)
    play(cup, "r1-t2.json", 3)
    text = run(["tournament", "standings", str(cup)], tmp_path)
    assert "* still playing, counted provisionally: round 1 table 2 (3 deals)" in text
    data = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
    assert data["complete"] is False
    states = {row["rounds"][0]["table"]: row["rounds"][0]["complete"] for row in data["players"]}
    assert states == {1: True, 2: False}
    line = refused(["tournament", "draw", str(cup)], tmp_path)
    assert line.endswith("round 1 is not over: table 2 has played 3 of 8 deals")


def test_a_round_by_time_is_closed_by_the_judge(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    run(
        [
            "tournament",
            "new",
            str(cup),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--minutes",
            "90",
            "--convention",
            "sochi",
            "--seed",
            "1",
        ],
        tmp_path,
    )
    run(["tournament", "draw", str(cup)], tmp_path)
    play(cup, "r1-t1.json", 6)
    play(cup, "r1-t2.json", 5)
    line = refused(["tournament", "close", str(cup), "--round", "1", "--table", "1"], tmp_path)
    assert "every player deals equally: play 2 more deals before closing (6 played)" in line
    play(cup, "r1-t1.json", 2, offset=6)
    out = run(["tournament", "close", str(cup), "--round", "1", "--table", "1"], tmp_path)
    assert out.strip() == "round 1, table 1 closed: 8 deals played"
    line = refused(["tournament", "draw", str(cup)], tmp_path)
    assert "table 2 is not closed" in line
    out = run(["tournament", "close", str(cup), "-r", "1", "-t", "2"], tmp_path)  # a 3-table
    assert "5 deals played" in out
    # a deal recorded after the close is set aside and marked (the close counted 5)
    closed = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
    play(cup, "r1-t2.json", 1, offset=5)
    text = run(["tournament", "standings", str(cup)], tmp_path)
    assert "round 1 table 2: 1 deal over, not counted: the round counts the table's first 5" in text
    data = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
    assert [(r["name"], r["points"]) for r in data["players"]] == [
        (r["name"], r["points"]) for r in closed["players"]
    ]
    # a ledger that lost a deal the close counted is refused until restored or reopened
    run(["undo", "--file", str(cup / "r1-t2.json")], tmp_path)
    run(["undo", "--file", str(cup / "r1-t2.json")], tmp_path)
    line = refused(["tournament", "standings", str(cup)], tmp_path)
    assert "closed the table after 5 deals, its ledger now holds 4" in line
    run(["tournament", "close", str(cup), "-r", "1", "-t", "2", "--reopen"], tmp_path)
    play(cup, "r1-t2.json", 1, offset=4)
    run(["tournament", "close", str(cup), "-r", "1", "-t", "2"], tmp_path)
    drawn = draw_round(cup, tmp_path)
    assert drawn["round"] == 2
    line = refused(["tournament", "close", str(cup), "-r", "1", "-t", "2", "--reopen"], tmp_path)
    assert "round 2 is drawn already" in line


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Anna", "Boris"], "2 players cannot sit at tables of 4 and 3"),
        (["Anna", "Boris", "Vera", "Dima", "Egor"], "5 players cannot sit at tables of 4 and 3"),
        (["Anna", "Boris", "Vera", "ANNA"], "player 'ANNA' is registered twice (same as 'Anna')"),
        (["Anna", "Boris", "Vera", "Аnna"], "look the same in print"),  # a Cyrillic А
        (["Anna", "Boris", "Ve\x1bra"], "contains a control character"),
    ],
)
def test_bad_players_are_refused(tmp_path: Path, players: list[str], message: str) -> None:
    line = refused(
        [
            "tournament",
            "new",
            str(tmp_path / "cup"),
            "--players",
            *players,
            "--rounds",
            "2",
            "--deals",
            "8",
            "--convention",
            "sochi",
        ],
        tmp_path,
    )
    assert message in line
    assert not (tmp_path / "cup" / "tournament.json").exists()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--rounds", "0", "--deals", "8"], "1 to 99 rounds, not 0"),
        (["--rounds", "3"], "--deals N or --minutes M"),
        (["--rounds", "3", "--deals", "8", "--minutes", "60"], "--deals N or --minutes M"),
        (["--rounds", "3", "--deals", "100000"], "1 to 1000 deals per table"),
        (["--rounds", "3", "--deals", "8", "--seed", "-1"], "the seed is a whole number"),
        (["--rounds", "3", "--deals", "8", "--seed", str(10**30)], "the seed is a whole number"),
        (["--rounds", "3", "--deals", "8", "--set", "liability=7"], "liability"),
        (["--rounds", "3", "--deals", "8", "--scoring", "elo"], "elo"),
    ],
)
def test_bad_settings_are_refused(tmp_path: Path, extra: list[str], message: str) -> None:
    line = refused(
        [
            "tournament",
            "new",
            str(tmp_path / "cup"),
            "--players",
            *SEVEN,
            "--convention",
            "sochi",
            *extra,
        ],
        tmp_path,
    )
    assert message in line
    assert not (tmp_path / "cup").exists() or not list((tmp_path / "cup").iterdir())


def test_a_tournament_is_not_replaced(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    args = [
        "tournament",
        "new",
        str(cup),
        "--players",
        *SEVEN,
        "--rounds",
        "2",
        "--deals",
        "8",
        "--convention",
        "sochi",
        "--seed",
        "3",
    ]
    run(args, tmp_path)
    text = (cup / "tournament.json").read_bytes()
    line = refused(args, tmp_path)
    assert "a tournament already exists here" in line
    assert (cup / "tournament.json").read_bytes() == text


def test_a_table_edited_into_other_players_is_refused(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    run(
        [
            "tournament",
            "new",
            str(cup),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
            "--seed",
            "3",
        ],
        tmp_path,
    )
    drawn = draw_round(cup, tmp_path)
    table = drawn["tables"][1]  # type: ignore[index]
    path = cup / "r1-t2.json"
    data = json.loads(path.read_text("utf-8"))
    data["players"] = (
        ["Anna", "Boris", "Zoya"] if "Zoya" not in table["players"] else data["players"]
    )
    data["first_dealer"] = "Anna"
    path.write_text(json.dumps(data), "utf-8")
    for command in (
        ["standings", str(cup)],
        ["draw", str(cup)],
        ["protocol", str(cup), "-r", "1", "-t", "2"],
    ):
        line = refused(["tournament", *command], tmp_path)
        assert "round 1, table 2 (r1-t2.json): the ledger's players are Anna, Boris, Zoya" in line


def test_a_deal_beyond_the_round_is_set_aside_and_marked(tmp_path: Path) -> None:
    """A table that played a deal too many by mistake (docs/tournament.md §4.1, pin): the
    standings count its first 4 deals (a penalty recorded before the extra deal counts too),
    mark the table with the undo that removes the extra deal, and the draw goes on; the
    numbers are the table's own ``settle --json`` once the extra deal is undone."""
    cup = tmp_path / "cup"
    run(
        [
            "tournament",
            "new",
            str(cup),
            "--players",
            *SEVEN,
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "sochi",
            "--seed",
            "3",
        ],
        tmp_path,
    )
    run(["tournament", "draw", str(cup)], tmp_path)
    play(cup, "r1-t1.json", 4)
    play(cup, "r1-t2.json", 4)
    rounds = tournament_json(cup)["draws"]
    anna = rounds[0]["tables"][1]["players"][0]  # type: ignore[index]
    run(["penalty", anna, "peek", "--file", str(cup / "r1-t2.json")], tmp_path)
    play(cup, "r1-t2.json", 1, offset=4)
    text = run(["tournament", "standings", str(cup)], tmp_path)
    note = (
        "round 1 table 2: 1 deal over, not counted: the round counts the table's first 4 deals"
        f" (prefcalc undo --file {cup / 'r1-t2.json'} undoes the last deal)"
    )
    assert note in text
    data = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
    assert data["complete"] is True
    seats = {row["name"]: row["rounds"][0] for row in data["players"]}
    at_two = {n: s for n, s in seats.items() if s["table"] == 2}
    assert {s["over"] for s in at_two.values()} == {1}
    assert {s["over"] for n, s in seats.items() if s["table"] == 1} == {0}
    protocol = run(["tournament", "protocol", str(cup), "-r", "1", "-t", "2"], tmp_path)
    assert "beyond the round (1 deal over): not counted, not in this protocol" in protocol
    numbers = [line.split()[0] for line in protocol.splitlines() if line[:4].strip().isdigit()]
    assert numbers == ["1", "2", "3", "4"], protocol  # 4 deals, not the 6th
    assert any(line.startswith("  P1 ") for line in protocol.splitlines())  # the penalty apart
    from prefcalc.tournament import api as tournament
    from prefcalc.tournament.text import round_rows

    states = {row[1]: row[2] for row in round_rows(tournament.standings(cup))[1:]}
    assert states == {"1": "complete (4 deals)", "2": "complete (4 deals, 1 deal over)"}
    # the extra deal undone, the table's own settlement is what the standings counted
    counted = {n: Fraction(s["whists"]) for n, s in at_two.items()}
    # the hint's command runs as printed (issue 35: it named the file without its folder)
    hint = note.split(" (", 1)[1].removesuffix(" undoes the last deal)")
    assert run(shlex.split(hint)[1:], tmp_path).startswith("removed deal 6")
    assert counted == settled(cup, "r1-t2.json")
    assert any(v != 0 for v in counted.values()) and sum(counted.values()) == 0
    again = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
    assert [(r["name"], r["points"]) for r in again["players"]] == [
        (r["name"], r["points"]) for r in data["players"]
    ]
    assert "deal over" not in run(["tournament", "standings", str(cup)], tmp_path)
    # the extra deal back: the round is complete all the same, round 2 is drawn
    play(cup, "r1-t2.json", 1, offset=4)
    assert draw_round(cup, tmp_path)["round"] == 2
    russian = run(["--lang", "ru", "tournament", "standings", str(cup), "--round", "1"], tmp_path)
    assert "1 лишняя раздача" in russian
    # round 1 is sealed now: the hint names the director's correction, which runs as printed
    text = run(["tournament", "standings", str(cup), "--round", "1"], tmp_path)
    hint = next(line for line in text.splitlines() if "deal over" in line)
    command = hint.split(" (", 1)[1].removesuffix(" undoes the last deal)")
    assert command.startswith(f"prefcalc tournament correct {cup} --round 1 --table 2 undo")
    words = [w.replace("…", "the sixth deal was played by mistake") for w in shlex.split(command)]
    assert "corrected on the record" in run([*words[1:], "--by", "Judge"], tmp_path)
    assert "deal over" not in run(["tournament", "standings", str(cup), "-r", "1"], tmp_path)


def test_not_a_tournament_folder(tmp_path: Path) -> None:
    line = refused(["tournament", "standings", str(tmp_path)], tmp_path)
    assert "not a tournament folder (no tournament.json" in line
    line = refused(["tournament", "draw", str(tmp_path / "nowhere")], tmp_path)
    assert "not a tournament folder" in line
    assert not (tmp_path / "nowhere").exists()


def test_in_russian(tmp_path: Path) -> None:
    cup = tmp_path / "кубок"
    out = run(
        [
            "--lang",
            "ru",
            "tournament",
            "new",
            str(cup),
            "--players",
            "Аня",
            "Боря",
            "Вера",
            "Дима",
            "Егор",
            "Федя",
            "Глеб",
            "--rounds",
            "2",
            "--deals",
            "4",
            "--convention",
            "Ленинградка",
            "--seed",
            "4",
        ],
        tmp_path,
    )
    assert out.splitlines()[0] == "турнир «кубок»: 7 игроков, 2 тура, раздач в туре: 4"
    out = run(["--lang", "ru", "tournament", "draw", str(cup)], tmp_path)
    assert out.startswith("Тур 1:\nстол  игроки (по местам)")
    assert "сдаёт первым  файл" in out
    play(cup, "r1-t1.json", 2)
    out = run(["--lang", "ru", "tournament", "standings", str(cup)], tmp_path)
    assert out.startswith(
        "Турнирная таблица «кубок» после 1-го тура из 2\nзачёт: висты без пересчёта\n"
    )
    assert "место  игрок" in out and "ремизы  взятки на распасах  взятки на мизерах" in out
    assert "* ещё играют, засчитано предварительно: тур 1, стол 1 (2 раздачи)" in out
    out = run(["--lang", "ru", "tournament", "protocol", str(cup), "-r", "1", "-t", "1"], tmp_path)
    assert out.startswith("Протокол · кубок\nтур 1 из 2 · стол 1 · r1-t1.json\nигроки по местам: ")
    assert "раздача  сдающий  играющий  игра / результат  висты" in out
    assert "подписи:" in out and "судья: ________" in out
    line = refused(["--lang", "ru", "tournament", "draw", str(cup)], tmp_path)
    assert (
        line == "prefcalc: ошибка: тур 1 не окончен: за столом 1 сыграно 2 из 4 раздач и ещё 1 стол"
    )


@pytest.mark.parametrize(
    ("deals", "said"),
    [(1, "идёт только первая раздача стола"), (21, "идут раздачи стола с 1-й по 21-ю")],
)
def test_the_note_of_a_deal_over_counts_a_one_deal_round_apart(
    tmp_path: Path, deals: int, said: str
) -> None:
    """Russian says 1 and 21 with the same plural form: a round of one deal is said on its
    own («только первая раздача», never «с 1-й по 1-ю»), a round of 21 keeps «с 1-й по 21-ю»."""
    cup = tmp_path / "cup"
    new = ["tournament", "new", str(cup), "--players", *SEVEN[:4], "--rounds", "1"]
    run([*new, "--deals", str(deals), "--convention", "sochi", "--seed", "1"], tmp_path)
    run(["tournament", "draw", str(cup)], tmp_path)
    play(cup, "r1-t1.json", deals + 1)
    text = run(["--lang", "ru", "tournament", "standings", str(cup)], tmp_path)
    assert f"тур 1, стол 1: 1 лишняя раздача, не в счёт: в зачёт тура {said} (prefcalc undo" in text
    assert "по 1-ю" not in text
