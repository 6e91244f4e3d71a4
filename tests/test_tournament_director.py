"""A director runs an event (issue 35): a 17-player FSPR event in English and a 21-player one
in Russian through the real CLI, each with a withdrawal, a late entry, a rename and a
correction of a round after the next was drawn; the standings recomputed here from every
table's own settlement, the protocols' rows checked against the ledgers (the talon's bonus,
the returned whist, penalties numbered apart). Then every director's command refused in one
line with nothing changed, killed at each of its write points (the folder as before or as
after), and run by two directors at once."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from support import invoke, run_cli
from tournament_support import play_fspr, settled

from prefcalc import api
from prefcalc.store.files import FAULT_ENV
from prefcalc.tournament import api as tournament
from prefcalc.tournament.folder import DIRECTOR_FAULTS
from prefcalc.tournament.protocol import protocol
from prefcalc.tournament.text import deal_rows

SEVENTEEN = [
    "Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb", "Zoya", "Ilya", "Kira",
    "Lev", "Masha", "Nina", "Oleg", "Pavel", "Rita", "Sasha",
]  # fmt: skip
TWENTY_ONE = [
    "Аня", "Боря", "Вера", "Дима", "Егор", "Фёдор Козлов", "Глеб", "Зоя", "Илья", "Кира",
    "Лёва", "Маша", "Нина", "Олег", "Паша", "Рита", "Саша", "Таня", "Уля", "Юра", "Яна",
]  # fmt: skip


def run(args: list[str], cwd: Path) -> str:
    done = invoke(args, cwd)
    assert done.returncode == 0, (args, done.stderr)
    assert done.stderr == ""
    return done.stdout


def refused(args: list[str], cwd: Path) -> str:
    done = invoke(args, cwd)
    assert done.returncode == 2, (args, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def folder_bytes(folder: Path) -> dict[str, bytes]:
    """Every file of the folder but the lock files (which a command may create)."""
    return {
        p.name: p.read_bytes()
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.endswith(".lock")
    }


def data(folder: Path) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((folder / "tournament.json").read_text("utf-8"))
    return loaded


def play_round(folder: Path, r: int, deals: int, lang: str = "en") -> None:
    t = tournament.load(folder)
    for tb in t.draws[r - 1].tables:
        play_fspr(folder, tb.file, deals, offset=r + tb.table, lang=lang)


def recomputed(folder: Path) -> dict[str, Fraction]:
    """Every player's points (raw scoring, missed rounds zero) from the tables' own
    ``prefcalc settle --json``, added up here."""
    t = tournament.load(folder)
    total = {p.name: Fraction(0) for p in t.players}
    for r in t.draws:
        for tb in r.tables:
            for name, whists in settled(folder, tb.file).items():
                total[name] += whists
    return total


def check_protocols(folder: Path) -> None:
    """Every table's protocol against its ledger: the deals numbered 1..N in order and the
    penalties apart, the talon's tricks and what was written for them (the dealer's N × 4 on a
    6 at four; each opponent's half at three), the returned whist with the dealer's whists."""
    t = tournament.load(folder)
    for r in t.draws:
        for record in r.tables:
            table = tournament.table(folder, r.round, record.table)
            made = protocol(t, table)
            rows = deal_rows(made)[1:]
            entries = api.load(folder / record.file).entries
            assert len(rows) == len(entries)
            deals = [row[0] for row, e in zip(rows, entries, strict=True) if e.dealer is not None]
            assert deals == [str(k) for k in range(1, len(deals) + 1)]
            for row, entry in zip(rows, entries, strict=True):
                deal = entry.deal
                if entry.dealer is None:
                    assert row[0].startswith("P") and row[1] == ""
                    continue
                assert row[1] == entry.dealer
                talon = getattr(deal, "talon", None)
                if talon:
                    level = deal.level  # type: ignore[union-attr]
                    each = talon * {6: 4, 7: 8}[level]
                    if len(record.players) == 4:
                        assert row[5] == f"{talon} ({entry.dealer} +{each})", row
                    else:
                        opponents = sorted(p for p in record.players if p != deal.declarer)  # type: ignore[union-attr]
                        half = Fraction(each, 2)
                        shown = sorted(part.strip() for part in row[5][3:-1].split(","))
                        assert shown == sorted(f"{p} +{half}" for p in opponents), row
                    assert f"{entry.dealer if len(record.players) == 4 else ''}" in row[6]
                returned = getattr(deal, "returned_by", None)
                if returned:
                    assert f"whist returned by {returned}" in row[4], row
                    tricks = 10 - deal.tricks  # type: ignore[union-attr]
                    assert f"{returned}: +{tricks * 8} whists on {deal.declarer}" in row[6], row  # type: ignore[union-attr]


def test_a_seventeen_player_event(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    out = run(
        [
            "tournament", "new", str(cup), "--players", *SEVENTEEN, "--rounds", "4",
            "--deals", "4", "--convention", "fspr", "--seed", "35", "--forbid", "Anna,Boris",
        ],
        tmp_path,
    )  # fmt: skip
    assert "never at one table: Anna – Boris" in out
    first = json.loads(run(["tournament", "draw", str(cup), "--json"], tmp_path))
    assert [len(tb["players"]) for tb in first["tables"]] == [4, 4, 3, 3, 3]
    assert first["proved"] and first["repeats"] == 0
    assert not any({"Anna", "Boris"} <= set(tb["players"]) for tb in first["tables"])
    play_round(cup, 1, 4)
    shown = run(["tournament", "draw", str(cup), "--show"], tmp_path)
    assert "proposed (nothing written)" in shown and "· optimal" in shown
    assert len(data(cup)["draws"]) == 1  # type: ignore[arg-type]
    second = run(["tournament", "draw", str(cup)], tmp_path)
    assert second.splitlines()[1:7] == shown.splitlines()[1:7]  # the proposal, drawn
    assert "0 pairs meet again · distance" in second

    # round 1 is sealed: a plain edit is refused, naming the director's correction
    t = tournament.load(cup)
    table1 = t.draws[0].tables[0]
    ledger = cup / table1.file
    before = ledger.read_bytes()
    game = api.load(ledger)
    line = refused(["delete", "4", "--file", str(ledger)], tmp_path)
    assert (
        "round 1 can no longer change: round 2 was drawn from its standings."
        f" A director corrects it on the record: prefcalc tournament correct {cup}"
        f' --round 1 --table 1 "LINE" --reason "…"'
    ) in line
    for words in (["undo"], ["misere", game.players[0], "0"]):
        assert "can no longer change" in refused([*words, "--file", str(ledger)], tmp_path)
    assert ledger.read_bytes() == before
    standings_before = json.loads(
        run(["tournament", "standings", str(cup), "-r", "1", "--json"], tmp_path)
    )

    # the correction: the misère was not clean (one trick taken), on the record
    number, misere = next(
        (k, e.deal) for k, e in enumerate(game.entries, 1) if type(e.deal).__name__ == "Misere"
    )
    fix = f"edit {number} misere {misere.declarer} 1"  # type: ignore[attr-defined]
    done = run(
        ["tournament", "correct", str(cup), "--round", "1", "--table", "1", fix,
         "--reason", "the misère took a trick", "--by", "Judge Ivanov"],
        tmp_path,
    )  # fmt: skip
    assert "round 1, table 1 corrected on the record" in done
    assert "Judge Ivanov): the misère took a trick" in done
    assert "the standings round 2 was drawn from" in done
    assert api.load(ledger).entries[number - 1].deal.tricks == 1  # type: ignore[union-attr]
    log = data(cup)["corrections"]
    assert [(c["round"], c["table"], c["line"], c["by"]) for c in log] == [  # type: ignore[attr-defined]
        (1, 1, fix, "Judge Ivanov")
    ]
    after = json.loads(run(["tournament", "standings", str(cup), "-r", "1", "--json"], tmp_path))
    assert after["corrected"][0]["reason"] == "the misère took a trick"
    assert after != standings_before
    text = run(["tournament", "standings", str(cup), "-r", "1"], tmp_path)
    assert " R1! " in text.splitlines()[2]
    assert "! round 1, table 1 corrected after the next round was drawn" in text
    # a round still open is changed at its table, not corrected
    assert "round 2 is still open" in refused(
        ["tournament", "correct", str(cup), "-r", "2", "-t", "1", "delete 1", "--reason", "x"],
        tmp_path,
    )

    # the field: Vera leaves, a late entry, Boris renamed
    assert "Vera withdraws: round 3" in run(["tournament", "withdraw", str(cup), "vera"], tmp_path)
    out = run(
        ["tournament", "add", str(cup), "Yan  Late", "--club", "Spartak", "--rating", "1510"],
        tmp_path,
    )
    assert "Yan Late enters late: he plays from round 3; the rounds he missed count zero" in out
    boris_tables = [tb.file for r in t.draws for tb in r.tables if "Boris" in tb.players]
    out = run(["tournament", "rename", str(cup), "Boris", "Boris Petrov"], tmp_path)
    assert out.strip() == (
        "Boris is Boris Petrov now: tournament.json and 2 tables' ledgers rewritten"
    )
    for file in boris_tables:
        game = api.load(cup / file)
        assert "Boris Petrov" in game.players and "Boris" not in game.players
        assert "Boris " not in (cup / file).read_text("utf-8").replace("Boris Petrov", "")
    assert data(cup)["forbid"] == [["Anna", "Boris Petrov"]]

    play_round(cup, 2, 4)
    third = json.loads(run(["tournament", "draw", str(cup), "--json"], tmp_path))
    seated = [p for tb in third["tables"] for p in tb["players"]]
    assert "Vera" not in seated and "Yan Late" in seated and len(seated) == 17
    assert third["proved"]
    play_round(cup, 3, 4)
    run(["tournament", "draw", str(cup)], tmp_path)
    play_round(cup, 4, 4)

    standings = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
    assert standings["complete"] is True
    points = {row["name"]: Fraction(row["points"]) for row in standings["players"]}
    assert points == recomputed(cup)
    rows = {row["name"]: row for row in standings["players"]}
    assert [r.get("absent") for r in rows["Vera"]["rounds"]] == [
        None,
        None,
        "withdrawn",
        "withdrawn",
    ]
    assert [r.get("absent") for r in rows["Yan Late"]["rounds"]] == ["late", "late", None, None]
    assert rows["Yan Late"]["rating"] == 1510 and rows["Yan Late"]["club"] == "Spartak"
    text = run(["tournament", "standings", str(cup)], tmp_path)
    assert "Vera withdrew: he plays no more from round 3 on" in text
    assert "Yan Late entered late, from round 3: the rounds he missed count zero" in text
    check_protocols(cup)
    protocol_text = run(["tournament", "protocol", str(cup), "-r", "1", "-t", "1"], tmp_path)
    assert "corrected on the record (" in protocol_text
    assert f"{fix} — the misère took a trick" in protocol_text
    run(["tournament", "export", str(cup), "--xlsx", str(tmp_path / "cup.xlsx")], tmp_path)
    run(["tournament", "export", str(cup), "--pdf", str(tmp_path / "cup.pdf")], tmp_path)
    assert (cup / "tournament.json.bak").exists()


def test_a_twenty_one_player_event_in_russian(tmp_path: Path) -> None:
    cup = tmp_path / "кубок"
    ru = ["--lang", "ru"]
    out = run(
        [*ru, "tournament", "new", str(cup), "--players", *TWENTY_ONE, "--rounds", "3",
         "--minutes", "60", "--convention", "fspr", "--seed", "21"],
        tmp_path,
    )  # fmt: skip
    assert "21 игрок" in out
    # «Фёдор Козлов» once; «Федор  Козлов» (е, two spaces) is the same player
    assert "игрок «Федор Козлов» записан дважды (так же, как «Фёдор Козлов»)" in refused(
        [*ru, "tournament", "add", str(cup), "Федор  Козлов"], tmp_path
    )
    run([*ru, "tournament", "draw", str(cup)], tmp_path)
    t = tournament.load(cup)
    assert [len(tb.players) for tb in t.draws[0].tables] == [4, 4, 4, 3, 3, 3]
    play_round(cup, 1, 4, "ru")
    for tb in t.draws[0].tables:
        out = run([*ru, "tournament", "close", str(cup), "-r", "1", "-t", str(tb.table)], tmp_path)
        assert "закрыт" in out
    out = run([*ru, "tournament", "draw", str(cup)], tmp_path)
    assert "пар встречаются снова" in out or "пара встречается снова" in out
    # a late correction in Russian, a seal's refusal in Russian
    ledger = cup / t.draws[0].tables[3].file
    line = refused([*ru, "undo", "--file", str(ledger)], tmp_path)
    assert "1-й тур больше не меняется: по его таблице рассажен 2-й" in line
    game = api.load(ledger)
    player = game.players[0]
    out = run(
        [*ru, "tournament", "correct", str(cup), "-r", "1", "-t", "4",
         f"штраф {player} peek", "--reason", "подглядывал в прикуп", "--by", "Судья"],
        tmp_path,
    )  # fmt: skip
    assert "1-й тур, 4-й стол: исправлено с записью" in out
    assert "таблица, по которой рассажен 2-й тур" in out
    run([*ru, "tournament", "withdraw", str(cup), "Рита"], tmp_path)
    out = run([*ru, "tournament", "add", str(cup), "Эля"], tmp_path)
    assert "Эля: вступление с опозданием, игра с 3-го тура" in out
    out = run([*ru, "tournament", "rename", str(cup), "Лёва", "Лев Толстой"], tmp_path)
    assert "«Лёва» теперь «Лев Толстой»" in out
    play_round(cup, 2, 4, "ru")
    for tb in tournament.load(cup).draws[1].tables:
        run([*ru, "tournament", "close", str(cup), "-r", "2", "-t", str(tb.table)], tmp_path)
    run([*ru, "tournament", "draw", str(cup)], tmp_path)
    seated = [p for tb in tournament.load(cup).draws[2].tables for p in tb.players]
    assert "Рита" not in seated and "Эля" in seated and "Лев Толстой" in seated
    standings = json.loads(run(["tournament", "standings", str(cup), "--json"], tmp_path))
    points = {row["name"]: Fraction(row["points"]) for row in standings["players"]}
    assert points == recomputed(cup)
    text = run([*ru, "tournament", "standings", str(cup)], tmp_path)
    assert "Т1!" in text and "Рита: снятие с турнира, с 3-го тура не играет" in text
    assert "Эля: вступление с 3-го тура, пропущенные туры — ноль" in text
    protocol_text = run([*ru, "tournament", "protocol", str(cup), "-r", "1", "-t", "4"], tmp_path)
    assert "Ш1" in protocol_text and "исправлено с записью" in protocol_text
    check = run([*ru, "tournament", "protocol", str(cup), "-r", "1", "-t", "1"], tmp_path)
    assert "вист возвращает" in check
    assert "прикуп" in check


def test_a_bye_when_five_are_left(tmp_path: Path) -> None:
    cup = tmp_path / "cup"
    six = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya"]
    run(["tournament", "new", str(cup), "--players", *six, "--rounds", "3", "--deals", "3",
         "--convention", "sochi", "--seed", "5", "--bye", "average", "--scoring", "places"],
        tmp_path)  # fmt: skip
    run(["tournament", "draw", str(cup)], tmp_path)
    play_round_sochi(cup, 1)
    run(["tournament", "withdraw", str(cup), "Dima"], tmp_path)
    out = run(["tournament", "draw", str(cup)], tmp_path)
    t = tournament.load(cup)
    bye = t.draws[1].byes
    assert len(bye) == 1 and f"{bye[0]} sits this round out (a bye)" in out
    ranked = [row.name for row in tournament.standings(cup, 1).rows if row.name != "Dima"]
    assert bye[0] == ranked[-1]  # the lowest ranked, who had no bye
    assert [len(tb.players) for tb in t.draws[1].tables] == [4]
    play_round_sochi(cup, 2)
    s = tournament.standings(cup, 2)
    row = next(r for r in s.rows if r.name == bye[0])
    assert row.rounds[1].points == Fraction(7, 4)  # type: ignore[union-attr]  # 4-2-1-0 average
    assert f"{bye[0]} had a bye in round 2: it counts the round's average" in run(
        ["tournament", "standings", str(cup)], tmp_path
    )
    run(["tournament", "draw", str(cup)], tmp_path)
    assert tournament.load(cup).draws[2].byes != bye  # the next bye goes to another


def play_round_sochi(folder: Path, r: int) -> None:
    from tournament_support import play

    t = tournament.load(folder)
    for tb in t.draws[r - 1].tables:
        play(folder, tb.file, t.deals or 0, offset=tb.table)


def test_undraw_takes_the_round_back(tmp_path: Path) -> None:
    cup = make(tmp_path)
    run(["tournament", "draw", str(cup)], tmp_path)
    play_round_sochi(cup, 1)
    run(["tournament", "draw", str(cup)], tmp_path)
    assert (cup / "r1-t1.json.sealed").exists()
    out = run(["tournament", "undraw", str(cup)], tmp_path)
    assert out.strip() == "round 2 is taken back: its 2 tables' ledgers are removed"
    assert not list(cup.glob("r2-t*.json")) and not list(cup.glob("*.sealed"))
    assert len(data(cup)["draws"]) == 1  # type: ignore[arg-type]
    run(["misere", api.load(cup / "r1-t1.json").players[1], "0", "--file", str(cup / "r1-t1.json")],
        tmp_path)  # fmt: skip  # round 1 is open again (a deal beyond it, set aside)
    run(["tournament", "draw", str(cup)], tmp_path)
    play_fspr_one = cup / "r2-t1.json"
    from tournament_support import play

    play(cup, play_fspr_one.name, 1)
    line = refused(["tournament", "undraw", str(cup)], tmp_path)
    assert line.endswith(
        "round 2 has begun: table 1 has 1 entry recorded (r2-t1.json); undo it first to take"
        " the round back"
    )


SEVEN = ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"]


def make(tmp_path: Path, *extra: str) -> Path:
    cup = tmp_path / "cup"
    run(["tournament", "new", str(cup), "--players", *SEVEN, "--rounds", "3", "--deals", "2",
         "--convention", "sochi", "--seed", "9", *extra], tmp_path)  # fmt: skip
    return cup


def two_rounds(tmp_path: Path) -> Path:
    cup = make(tmp_path)
    run(["tournament", "draw", str(cup)], tmp_path)
    play_round_sochi(cup, 1)
    run(["tournament", "draw", str(cup)], tmp_path)
    return cup


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["withdraw", "{cup}", "Nobody"], "no player 'Nobody' in this tournament"),
        (["add", "{cup}", "ANNA"], "player 'ANNA' is registered twice (same as 'Anna')"),
        (["add", "{cup}", "Bad:name"], "no ':', '=' or ','"),
        (["add", "{cup}", "Zed", "--rating", "99999"], "a rating is a whole number from 0"),
        (["rename", "{cup}", "Anna", "boris"], "registered twice"),
        (["rename", "{cup}", "Anna", "Anna"], "Anna is called that already"),
        (["rename", "{cup}", "Zed", "Zoe"], "no player 'Zed'"),
        (["correct", "{cup}", "-r", "1", "-t", "1", "delete 1"], "give the reason"),
        (["correct", "{cup}", "-r", "1", "-t", "1", "show", "--reason", "x"], "a correction is an"),
        (["correct", "{cup}", "-r", "1", "-t", "1", "delete 99", "--reason", "x"], "99"),
        (["correct", "{cup}", "-r", "1", "-t", "9", "delete 1", "--reason", "x"], "no table 9"),
        (["correct", "{cup}", "-r", "1", "-t", "1", "delete 1", "--reason", "a\nb"], "one line"),
        (["draw", "{cup}", "--swap", "Anna"], "--swap takes two players"),
        (["draw", "{cup}", "--time-limit", "0"], "--time-limit is a number of seconds"),
        (["draw", "{cup}", "--forbid", "Anna,Anna"], "two players"),
        (["undraw", "{cup}", "--json"], "no such option"),
    ],
)
def test_a_bad_argument_is_one_line_and_changes_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    cup = two_rounds(tmp_path)
    before = folder_bytes(cup)
    line = refused(["tournament", *(a.format(cup=cup) for a in args)], tmp_path)
    assert message in line, line
    assert folder_bytes(cup) == before


def test_the_last_round_s_draw_and_field_refusals(tmp_path: Path) -> None:
    cup = two_rounds(tmp_path)
    play_round_sochi(cup, 2)
    run(["tournament", "draw", str(cup)], tmp_path)
    before = folder_bytes(cup)
    for args, message in (
        (["withdraw", str(cup), "Anna"], "every round is drawn (3): there is no round left"),
        (["add", str(cup), "Zed"], "every round is drawn (3): a late entry has no round left"),
    ):
        assert message in refused(["tournament", *args], tmp_path)
    assert folder_bytes(cup) == before


@pytest.mark.parametrize("point", DIRECTOR_FAULTS)
def test_a_director_s_command_killed_leaves_before_or_after(tmp_path: Path, point: str) -> None:
    cup = two_rounds(tmp_path)
    t = tournament.load(cup)
    table = t.draws[0].tables[0]
    name = table.players[0]
    commands = {
        "backup-written": ["tournament", "add", str(cup), "Zed"],
        "correct-after-journal": ["tournament", "correct", str(cup), "-r", "1", "-t", "1",
                                  "delete 2", "--reason", "x"],
        "correct-after-ledger": ["tournament", "correct", str(cup), "-r", "1", "-t", "1",
                                 "delete 2", "--reason", "x"],
        "correct-after-record": ["tournament", "correct", str(cup), "-r", "1", "-t", "1",
                                 "delete 2", "--reason", "x"],
        "undraw-after-record": ["tournament", "undraw", str(cup)],
        "rename-after-ledgers": ["tournament", "rename", str(cup), name, "Someone Else"],
    }  # fmt: skip
    before = folder_bytes(cup)
    standings_before = run(["tournament", "standings", str(cup), "--json"], tmp_path)
    killed = run_cli(commands[point], tmp_path, {FAULT_ENV: point})
    assert killed.returncode != 0
    # what a reader sees at once, before any command sets the folder right
    now = invoke(["tournament", "standings", str(cup), "--json"], tmp_path)
    after_point = point in ("correct-after-record", "undraw-after-record")
    if not after_point:
        assert now.stdout == standings_before, point  # as before
    # the next command that takes the lock sets the folder right (this one then refuses)
    invoke(["tournament", "close", str(cup), "-r", "1", "-t", "1"], tmp_path)
    settled_now = folder_bytes(cup)
    settled_now.pop("tournament.json.bak", None)
    was = dict(before)
    was.pop("tournament.json.bak", None)
    if after_point:
        if point == "correct-after-record":
            assert len(api.load(cup / table.file).entries) == 1
            assert len(data(cup)["corrections"]) == 1  # type: ignore[arg-type]
            assert not (cup / (table.file + ".correcting")).exists()
        else:
            assert not list(cup.glob("r2-t*.json")) and not list(cup.glob("*.sealed"))
    else:
        assert settled_now == was, point
    assert not (cup / "rename.journal").exists()
    # and the folder works on
    run(["tournament", "standings", str(cup)], tmp_path)


def test_two_directors_at_once_lose_nothing(tmp_path: Path) -> None:
    cup = two_rounds(tmp_path)
    exe = Path(sys.executable).with_name("prefcalc")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "prefcalc"]
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "PATH": "/usr/bin:/bin"}
    names = [f"Late{k}" for k in range(6)]
    processes = [
        subprocess.Popen(
            [*command, "tournament", "add", str(cup), name],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name in names
    ]
    processes.append(
        subprocess.Popen(
            [*command, "tournament", "withdraw", str(cup), "Gleb"],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    )
    for p in processes:
        _out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    t = tournament.load(cup)
    assert set(names) <= set(t.names)
    assert t.player("Gleb").withdrawn == 3  # type: ignore[union-attr]
    assert json.loads((cup / "tournament.json.bak").read_text("utf-8"))["tournament"] == 1


def test_the_smaller_defects(tmp_path: Path) -> None:
    # "NAME, 1510" is a rating; "NAME, CLUB, RATING" in full; a double space is one player
    players = tmp_path / "players.txt"
    players.write_text(
        "Anna, 1510\nBoris, Spartak, 1600\nVera\nDima  Ivanov\nEgor\nFedya\nGleb\n", "utf-8"
    )
    cup = tmp_path / "cup"
    run(["tournament", "new", str(cup), "--players-file", str(players), "--rounds", "2",
         "--deals", "2", "--convention", "sochi"], tmp_path)  # fmt: skip
    records = {p["name"]: p for p in data(cup)["players"]}  # type: ignore[attr-defined]
    assert records["Anna"] == {"name": "Anna", "rating": 1510}
    assert records["Boris"] == {"name": "Boris", "club": "Spartak", "rating": 1600}
    assert "Dima Ivanov" in records
    # ё and е, inner spaces: refused as the same player at registration
    line = refused(["tournament", "new", str(tmp_path / "b"), "--players", "Фёдор", "Федор",
                    "Аня", "--rounds", "1", "--deals", "1", "--convention", "sochi"], tmp_path)  # fmt: skip
    assert "player 'Федор' is registered twice (same as 'Фёдор')" in line
    assert not (tmp_path / "b" / "tournament.json").exists()
    # a --looked refusal names the player who looked, not the declarer
    game = tmp_path / "g.json"
    run(["new", "Anna", "Boris", "Vera", "--file", str(game)], tmp_path)
    line = refused(["game", "Anna", "7h", "10", "Boris:w", "Vera:p", "--looked", "Vera",
                    "--file", str(game)], tmp_path)  # fmt: skip
    assert "Vera has no trick to lose" in line
    # the tournament's help lists every command in Russian
    help_text = run(["--lang", "ru", "tournament", "--help"], tmp_path)
    for english in ("Start a tournament", "The standings after", "The whole tournament"):
        assert english not in help_text
    assert "Начать турнир" in help_text and "Весь турнир" in help_text


def test_history_counts_a_tournament_table_complete(tmp_path: Path) -> None:
    cup = make(tmp_path)
    run(["tournament", "draw", str(cup)], tmp_path)
    play_round_sochi(cup, 1)
    out = json.loads(run(["history", str(cup), "--json"], tmp_path))
    nights = out["games"] if "games" in out else out["nights"]
    assert nights and all(n["finished"] for n in nights), nights


def test_a_hint_and_a_command_run_as_printed(tmp_path: Path) -> None:
    """The draw's own next step, printed with the folder, runs as printed."""
    cup = make(tmp_path)
    run(["tournament", "draw", str(cup)], tmp_path)
    play_round_sochi(cup, 1)
    shown = run(["tournament", "draw", str(cup), "--show", "--swap", "Anna,Boris"], tmp_path)
    hint = shown.splitlines()[-1].split(": ", 1)[1]
    if "same table" in shown:  # pragma: no cover - the seed seats them apart
        pytest.skip("Anna and Boris share a table")
    assert hint.startswith(f"prefcalc tournament draw {cup} --swap")
    out = run(shlex.split(hint)[1:], tmp_path)
    assert out.splitlines()[1:4] == shown.splitlines()[1:4]
