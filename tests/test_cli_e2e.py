"""Whole evenings through the real ``prefcalc`` executable, as a scorekeeper would type them.

The expected numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support import random_game, run_cli

from prefcalc.store.ledger import game_to_json_text, load


def ok(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    result = run_cli(args, cwd, env)
    assert result.returncode == 0, f"{args}: {result.stderr}"
    return result.stdout


def show(cwd: Path, ledger: Path) -> dict[str, object]:
    return json.loads(ok(["show", "--json", "--file", str(ledger)], cwd))  # type: ignore[no-any-return]


def totals(view: dict[str, object]) -> dict[str, tuple[object, object, object]]:
    return {p["name"]: (p["pool"], p["mountain"], p["whists"]) for p in view["players"]}  # type: ignore[attr-defined]


def test_three_player_sochi_evening(tmp_path: Path) -> None:
    ledger = tmp_path / "friday.json"
    f = ["--file", str(ledger)]
    ok(
        [
            "new",
            "Anna",
            "Boris",
            "Vera",
            "--convention",
            "sochi",
            "--target",
            "10",
            "--whist-price",
            "0.5",
            "--currency",
            "EUR",
            *f,
        ],
        tmp_path,
    )
    # 1. Anna 7♥ made: pool 4; Boris, lone whister, 3 tricks × 4 = 12 on Anna.
    out = ok(["game", "Anna", "7h", "7", "Boris:w", "Vera:p", *f], tmp_path)
    assert "7♥ made: 4" in out and "3 tricks × 4 = 12" in out
    # 2. Boris 6♠ one down: mountain 2; Vera 3 × 2 + consolation 2 = 8, Anna 2 × 2 + 2 = 6.
    ok(["game", "b", "6s", "5", "v:w3", "a:w2", *f], tmp_path)  # prefixes, any case
    # 3. all-pass ×1: Anna 0 tricks -> pool +1; Boris 6, Vera 4 into the mountain.
    ok(["passes", "Anna=0", "Boris=6", "Vera=4", *f], tmp_path)
    # 4. all-pass ×2: Anna 4, Boris 10, Vera 6.
    out = ok(["passes", "Anna=2", "Boris=5", "Vera=3", *f], tmp_path)
    assert "price ×2" in out
    # 5. Vera misère made: pool 10, she closes.
    ok(["misere", "Vera", "0", *f], tmp_path)
    # 6. Anna 6♦, Boris passes, Vera half-whists: Anna +2, Vera 2 tricks × 2 = 4 on Anna.
    ok(["game", "Anna", "6d", "-", "Boris:p", "Vera:h", *f], tmp_path)
    view = show(tmp_path, ledger)
    assert totals(view) == {
        "Anna": (7, 4, {"Boris": 6, "Vera": 0}),
        "Boris": (0, 18, {"Anna": 12, "Vera": 0}),
        "Vera": (10, 10, {"Anna": 4, "Boris": 8}),
    }
    assert view["deals"] == 6 and view["next_dealer"] == "Anna" and view["passes_streak"] == 0
    assert view["finished"] is False

    # Settlement: mountains + (10 - pool): A 7, B 28, V 10; amnesty 7 -> 0, 21, 3.
    # Method 1: entries 10m/3 = 0, 70, 10; A: (6+70)-(12+0) + (0+10)-(4+0) = 70,
    # B: -64 + (0+10)-(8+70) = -132, V: -6 + 68 = 62. Method 2: avg 8 -> 80, -130, 50,
    # game whists -10, -2, +12 -> the same 70, -132, 62. Money at 0.5 EUR: 35, -66, 31.
    for method in ("pairwise", "average"):
        result = json.loads(ok(["settle", "--json", "--method", method, *f], tmp_path))
        assert result["method"] == method and result["rounding"] == "exact"
        assert {p["name"]: p["whists"] for p in result["players"]} == {
            "Anna": 70,
            "Boris": -132,
            "Vera": 62,
        }
        assert {p["name"]: p["money"] for p in result["players"]} == {
            "Anna": 35.0,
            "Boris": -66.0,
            "Vera": 31.0,
        }
        assert result["payments"] == [
            {"from": "Boris", "to": "Anna", "amount": 35.0},
            {"from": "Boris", "to": "Vera", "amount": 31.0},
        ]
    text = ok(["settle", "--compare", *f], tmp_path)
    assert "The methods agree." in text and "Boris pays Anna 35.00 EUR" in text

    # explain and log
    explained = ok(["explain", "2", *f], tmp_path)
    assert "remise on 6♠: 1 undertrick × 2 = 2" in explained
    assert "consolation: 1 undertrick × 2 = 2" in explained
    log = json.loads(ok(["log", "--json", *f], tmp_path))
    assert [d["kind"] for d in log] == [
        "contract",
        "contract",
        "passes",
        "passes",
        "misere",
        "contract",
    ]
    assert log[0]["notation"] == "game Anna 7h 7 Boris:w Vera:p"

    # edit deal 6: the 6♦ was whisted by Boris and made: Anna +2, Boris 4 tricks × 2 = 8.
    ok(["edit", "6", "game", "Anna", "6d", "6", "Boris:w", "Vera:p", *f], tmp_path)
    assert totals(show(tmp_path, ledger))["Boris"] == (0, 18, {"Anna": 20, "Vera": 0})
    assert totals(show(tmp_path, ledger))["Vera"] == (10, 10, {"Anna": 0, "Boris": 8})
    # delete deal 3 (the first all-pass): the second one is now priced ×1.
    ok(["delete", "3", *f], tmp_path)
    view = show(tmp_path, ledger)
    assert view["deals"] == 5
    assert totals(view)["Boris"][1] == 2 + 5
    # undo removes the edited 6♦.
    out = ok(["undo", *f], tmp_path)
    assert "removed deal 5" in out
    assert show(tmp_path, ledger)["deals"] == 4
    # rules of the game and re-scoring under another convention leave the ledger alone
    before = ledger.read_bytes()
    assert "lone_whister" in ok(["rules", *f], tmp_path)
    leningrad = show_as(tmp_path, ledger, "leningrad")
    assert totals(leningrad)["Boris"][1] == 2 * 2 + 5 * 2  # remise ×2, all-pass priced 2
    assert ledger.read_bytes() == before


def show_as(cwd: Path, ledger: Path, convention: str) -> dict[str, object]:
    return json.loads(
        ok(["show", "--json", "--convention", convention, "--file", str(ledger)], cwd)
    )  # type: ignore[no-any-return]


def test_four_player_leningrad_evening_with_the_current_game(tmp_path: Path) -> None:
    # No --file: the game lives in the user's data directory and becomes current.
    out = ok(["new", "Anna", "Boris", "Vera", "Dima", "-c", "leningrad", "-t", "10"], tmp_path)
    assert "first dealer Anna" in out
    # 1. Anna deals and sits out. Boris 6♠ two down: mountain 2 × 2 × 2 = 8;
    #    Vera 4 × 4 + 2 × 4 = 24, Dima 2 × 4 + 8 = 16, Anna (dealer) 2 × 4 = 8.
    ok(["game", "Boris", "6s", "4", "Vera:w4", "Dima:w2"], tmp_path)
    # 2. Boris deals. All-pass ×2: Anna 4, Vera 10, Dima 6.
    ok(["passes", "Anna=2", "Vera=5", "Dima=3"], tmp_path)
    # 3. Vera deals. After one all-pass the lowest contract is 7: Dima 7♥ made, pool 4;
    #    Anna whists 3 × 8 = 24.
    bad = run_cli(["game", "Dima", "6h", "6", "Anna:w", "Boris:p"], tmp_path)
    assert bad.returncode == 2 and "lowest contract is 7" in bad.stderr
    ok(["game", "Dima", "7h", "7", "Anna:w", "Boris:p"], tmp_path)
    # 4. Dima deals. Anna 6♣ made: pool 2; Boris 4 × 4 = 16.
    ok(["game", "Anna", "6c", "6", "Boris:w", "Vera:p"], tmp_path)
    view = json.loads(ok(["show", "--json"], tmp_path))
    assert totals(view) == {
        "Anna": (2, 4, {"Boris": 8, "Vera": 0, "Dima": 24}),
        "Boris": (0, 8, {"Anna": 16, "Vera": 0, "Dima": 0}),
        "Vera": (0, 10, {"Anna": 0, "Boris": 24, "Dima": 0}),
        "Dima": (4, 6, {"Anna": 0, "Boris": 16, "Vera": 0}),
    }
    assert view["next_dealer"] == "Anna"
    # Settlement: pools to mountains ×2 (max 4): 8, 16, 18, 6; amnesty 6: 2, 10, 12, 0;
    # avg 6 -> 40, -40, -60, 60; game whists 16, -32, 24, -8 -> 56, -72, -36, 52.
    result = json.loads(ok(["settle", "--json"], tmp_path))
    assert {p["name"]: p["whists"] for p in result["players"]} == {
        "Anna": 56,
        "Boris": -72,
        "Vera": -36,
        "Dima": 52,
    }
    assert len(result["payments"]) <= 3
    # 5. --dealer overrides the rotation; the record keeps who really dealt.
    ok(["passes", "Anna=4", "Vera=3", "Dima=3", "--dealer", "Boris"], tmp_path)
    log = json.loads(ok(["log", "--json"], tmp_path))
    assert [d["dealer"] for d in log] == ["Anna", "Boris", "Vera", "Dima", "Boris"]
    assert json.loads(ok(["show", "--json"], tmp_path))["next_dealer"] == "Vera"
    # PREFCALC_FILE points commands at another game; `use` switches the current one.
    other = tmp_path / "other.json"
    ok(["new", "X", "Y", "Z", "--file", str(other)], tmp_path)
    assert json.loads(ok(["show", "--json"], tmp_path, {"PREFCALC_FILE": str(other)}))["deals"] == 0
    assert json.loads(ok(["show", "--json"], tmp_path))["deals"] == 5
    ok(["use", str(other)], tmp_path)
    assert json.loads(ok(["show", "--json"], tmp_path))["deals"] == 0


def test_version_and_help_list_the_commands(tmp_path: Path) -> None:
    assert ok(["--version"], tmp_path).startswith("prefcalc ")
    text = ok(["--help"], tmp_path)
    for command in (
        "new",
        "game",
        "misere",
        "passes",
        "adjust",
        "undo",
        "delete",
        "edit",
        "show",
        "log",
        "explain",
        "rules",
        "settle",
        "export",
        "blank",
        "examples",
        "use",
    ):
        assert command in text
    module = subprocess.run(
        [sys.executable, "-m", "prefcalc", "--version"], capture_output=True, text=True, check=True
    )
    assert module.stdout.startswith("prefcalc ")


def _big_ledger(path: Path, deals: int) -> None:
    game = random_game(5, deals, 3, "sochi", target=10**6, adjustments=False)
    path.write_text(game_to_json_text(game), encoding="utf-8")


# (fault point, whether the deal is on disk after the kill, whether a temporary file is left)
KILL_POINTS = [
    ("before-temp", False, False),  # holding the lock, nothing written yet
    ("before-fsync", False, True),  # the temporary file written, not synced
    ("before-rename", False, True),  # synced, not yet renamed over the ledger
    ("before-dir-sync", True, False),  # renamed, the folder not yet synced
    ("after-write", True, False),  # all written, the lock still held
]


@pytest.mark.parametrize(
    ("point", "recorded", "leftover"), KILL_POINTS, ids=[k[0] for k in KILL_POINTS]
)
def test_a_killed_writer_never_loses_or_corrupts_a_recorded_deal(
    tmp_path: Path, point: str, recorded: bool, leftover: bool
) -> None:
    # The real CLI kills itself (SIGKILL) at a chosen point of the write: deterministic, no
    # sleeping to land a kill. The deal is on disk iff the rename happened, the ledger always
    # loads, the lock dies with the process and the next write sweeps the leftovers.
    import fcntl

    from prefcalc.store.files import FAULT_ENV, FAULT_POINTS

    assert point in FAULT_POINTS
    ledger = tmp_path / "game.json"
    _big_ledger(ledger, 30)
    before = ledger.read_bytes()
    start = len(load(ledger).entries)
    passes = ["passes", "Anna=3", "Boris=3", "Vera=4", "--file", str(ledger)]
    killed = run_cli(passes, tmp_path, {FAULT_ENV: point})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert "recorded as deal" not in killed.stdout
    game = load(ledger)  # valid after the kill
    assert len(game.entries) == start + recorded
    if not recorded:
        assert ledger.read_bytes() == before
    temps = list(tmp_path.glob(".game.json.*.tmp"))
    assert len(temps) == leftover, temps
    with (tmp_path / "game.json.lock").open("r+b") as lock:  # free: it died with the writer
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(lock, fcntl.LOCK_UN)
    out = ok(passes, tmp_path)  # typing it again after the crash: recorded, and named
    assert f"recorded as deal {start + recorded + 1}" in out
    assert ("same as deal" in out) == bool(recorded), out
    assert not list(tmp_path.glob(".game.json.*.tmp")), "stale temporary files are cleaned up"
    assert len(load(ledger).entries) == start + recorded + 1


WORKER = """
import sys
from prefcalc.cli import main
ledger, tag = sys.argv[1], sys.argv[2]
for i in range(50):
    code = main(["adjust", "Anna", "--mountain", "1", "--note", f"{tag}-{i}", "--file", ledger])
    assert code == 0, code
"""


def test_two_processes_recording_at_once_lose_nothing(tmp_path: Path) -> None:
    ledger = tmp_path / "game.json"
    _big_ledger(ledger, 200)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(ledger), tag],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
        )
        for tag in ("left", "right")
    ]
    for worker in workers:
        _, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err.decode()
    notes = [e.deal.note for e in load(ledger).entries[200:]]  # type: ignore[union-attr]
    assert len(notes) == 100
    assert sorted(notes) == sorted(
        [f"left-{i}" for i in range(50)] + [f"right-{i}" for i in range(50)]
    )
    # each worker's own deals stay in its order
    assert [n for n in notes if n.startswith("left")] == [f"left-{i}" for i in range(50)]


def test_an_old_offending_deal_does_not_block_recording(tmp_path: Path) -> None:
    # A ledger edited by hand may hold a deal below the exit level that is not marked forced:
    # recording goes on (show warns about it) and only the new deal is judged.
    from support import make_game

    game = make_game(
        ["Anna", "Boris", "Vera"],
        ["passes Anna=3 Boris=3 Vera=4", "game Boris 7s 7 Anna:w Vera:p"],
        "leningrad",
    )
    ledger = tmp_path / "g.json"
    text = game_to_json_text(game).replace('"contract": "7s"', '"contract": "6s"')
    ledger.write_text(text, encoding="utf-8")
    assert "warning: deal 2" in ok(["show", "--file", str(ledger)], tmp_path)
    ok(["misere", "Vera", "0", "--file", str(ledger)], tmp_path)
    assert '"forced"' not in ledger.read_text(encoding="utf-8")
