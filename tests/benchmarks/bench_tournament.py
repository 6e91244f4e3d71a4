"""Issue 28: a 64-player, 7-round tournament (16 tables of 4 a round, 24 deals a table): its
standings after round 7 and its seven draws, each against what it cannot avoid doing.

* standings: against loading and settling the 112 tables' ledgers (``api.load`` and
  ``api.settle`` of each): the standings add the checks of each table, the conversions, the
  tie-break counts and the ranking;
* the draws: the seven ``prefcalc.tournament.api.draw`` calls (each reads every earlier
  table, ranks the field, seats the round by the Swiss search and writes 16 ledgers and
  ``tournament.json``) against loading and settling the tables each draw reads and writing
  the 16 ledgers of each round (``api.save``).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
import time
from functools import cache
from pathlib import Path

from run import Figure, interleaved

from prefcalc import api
from prefcalc.rules.model import active_players
from prefcalc.tournament import api as tournament
from prefcalc.tournament import folder as tfolder

PLAYERS = 64
ROUNDS = 7
DEALS = 24


def _deal(k: int, active: tuple[str, ...]) -> str:
    a, b, c = active
    lines = [
        f"game {a} 6s 6 {b}:w {c}:p",
        f"game {b} 7h 6 {c}:w {a}:p",
        f"passes {a}=2 {b}=5 {c}=3",
        f"game {c} 7d 8 {a}:w {b}:p",
        f"misere {a} 0",
        f"game {b} 8nt 7 {a}:w {c}:p",
        f"game {a} 6c 6 {b}:w {c}:p",
    ]
    return lines[k % len(lines)]


@cache
def _played() -> Path:
    """A 64-player tournament with all 7 rounds drawn and played."""
    root = Path(tempfile.mkdtemp(prefix="prefcalc-tournament-"))
    atexit.register(shutil.rmtree, root, True)
    os.environ["XDG_DATA_HOME"] = str(root / "data")
    cup = root / "cup"
    names = [f"Player{k:02d}" for k in range(PLAYERS)]
    tournament.new(cup, names, rounds=ROUNDS, deals=DEALS, convention="leningrad", seed=28)
    for r in range(1, ROUNDS + 1):
        drawn = tournament.draw(cup)
        for tb in drawn.tables:
            path = cup / tb.file
            game = api.load(path)
            for k in range(DEALS):
                game = api.record(
                    game, _deal(k + r + tb.table, active_players(game, game.next_dealer))
                )
            api.save(game, path)
    return cup


def _tables(cup: Path, rounds: int) -> list[Path]:
    t = tfolder.load(cup)
    return [cup / tb.file for rnd in t.draws[:rounds] for tb in rnd.tables]


def standings() -> tuple[float, float, str]:
    cup = _played()
    paths = _tables(cup, ROUNDS)

    def floor() -> None:
        for path in paths:
            api.settle(api.load(path))

    def ours() -> None:
        s = tournament.standings(cup)
        assert s.complete and len(s.rows) == PLAYERS

    best, base = interleaved(ours, floor, 5)
    return best, base, f"api.load + api.settle of the {len(paths)} tables' ledgers, best of 5"


def draws() -> tuple[float, float, str]:
    cup = _played()
    full = json.loads((cup / "tournament.json").read_text("utf-8"))
    scratch = cup.parent / "scratch"

    def state(r: int) -> None:
        """The folder as it stood before round ``r`` was drawn (rounds 1..r-1 played)."""
        if scratch.exists():
            shutil.rmtree(scratch)
        shutil.copytree(cup, scratch)
        for later in range(r, ROUNDS + 1):
            for path in scratch.glob(f"r{later}-t*.json"):
                path.unlink()
        data = dict(full, draws=full["draws"][: r - 1])
        t = tfolder.from_bytes(json.dumps(data).encode())
        tfolder.write(scratch, t)
        tfolder.sync_seals(scratch, t)  # the copy's later rounds unsealed, as a draw leaves them

    def ours() -> float:
        total = 0.0
        for r in range(1, ROUNDS + 1):
            state(r)
            start = time.perf_counter()
            drawn = tournament.draw(scratch)
            total += time.perf_counter() - start
            tables = [[list(tb.players), tb.dealer] for tb in drawn.tables]
            if drawn.seating.proved:  # (a draw the clock stopped may end elsewhere: §3.4)
                assert tables == [
                    [tb["players"], tb["dealer"]] for tb in full["draws"][r - 1]["tables"]
                ]
        return total

    def floor() -> float:
        total = 0.0
        for r in range(1, ROUNDS + 1):
            state(r)
            paths = _tables(scratch, r - 1)
            new = [
                (
                    scratch / tb["file"],
                    api.new_game(tb["players"], "leningrad", dealer=tb["dealer"]),
                )
                for tb in full["draws"][r - 1]["tables"]
            ]
            for path, _ in new:
                path.unlink(missing_ok=True)

            start = time.perf_counter()
            for path in paths:
                api.settle(api.load(path))
            for path, game in new:
                api.save(game, path)
            total += time.perf_counter() - start
        return total

    ours()
    floor()
    mine, theirs = [], []
    for _ in range(3):  # alternately, so that both see the same machine
        mine.append(ours())
        theirs.append(floor())
    best, base = min(mine), min(theirs)
    return (
        best,
        base,
        "loading and settling the tables each draw reads, writing each round's 16 ledgers; best of 3",
    )


FIGURES: list[Figure] = [
    (f"tournament standings, {PLAYERS} players after {ROUNDS} rounds", 1.5, standings),
    (f"tournament draws, {PLAYERS} players, {ROUNDS} rounds", 1.5, draws),
]
