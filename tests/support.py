"""Helpers shared by the tests: build games from the table's shorthand, run the CLI."""

from __future__ import annotations

import os
import random
import shlex
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from prefcalc.errors import DealError
from prefcalc.rules.conventions import Convention
from prefcalc.rules.legality import problems
from prefcalc.rules.model import (
    Adjustment,
    AllPass,
    Contract,
    ConventionRef,
    Defender,
    Entry,
    Game,
    Join,
    Misere,
    joined,
    seat_after,
    seating,
    sitting_out,
)
from prefcalc.rules.notation import parse_words
from prefcalc.rules.scoring import Sheet, score
from prefcalc.store.conventions import load_preset
from prefcalc.store.ledger import game_from_bytes, resolve_convention


def make_game(
    players: Sequence[str],
    lines: Sequence[str],
    convention: str = "sochi",
    target: int = 20,
    dealer: str | None = None,
    options: dict[str, object] | None = None,
    whist_price: object = 1,
    currency: str = "",
) -> Game:
    """A game from deals in CLI words, e.g. ``"game Anna 7h 7 Boris:w Vera:p"``.

    The dealer rotates clockwise from ``dealer`` (default: the first player); a line may
    end with ``@Name`` to say who dealt it, and with ``!`` to mark it forced.
    """
    ref = ConventionRef(convention, dict(options or {}))
    conv = resolve_convention(ref)
    game = Game(
        players=tuple(players),
        convention=ref,
        target=target,
        first_dealer=dealer or players[0],
        whist_price=whist_price,  # type: ignore[arg-type]
        currency=currency,
        created="2026-11-30T20:00:00+01:00",
    )
    entries: list[Entry] = []
    for k, line in enumerate(lines):
        words = shlex.split(line)
        forced = words[-1] == "!"
        if forced:
            words = words[:-1]
        who: str | None = None
        if words[-1].startswith("@"):
            who = words[-1][1:]
            words = words[:-1]
        current = game._replace(entries=tuple(entries))
        deal = parse_words(words, seating(current))
        if isinstance(deal, Adjustment | Join):
            who = None
        elif who is None:
            who = current.next_dealer
        refused = problems(current, conv, deal, who, rules=False)
        if refused:
            raise DealError(refused[0].message)
        entries.append(Entry(deal, who, f"2026-11-30T20:{k % 60:02d}:00+01:00", forced))
    return game._replace(entries=tuple(entries))


def sheet_of(game: Game, convention: Convention | None = None) -> Sheet:
    return score(game, convention or resolve_convention(game.convention))


def preset(name: str, **changes: object) -> Convention:
    """A preset with some options changed (attribute names: ``passes_prices=(1, 2, 4)``)."""
    return load_preset(name)._replace(**changes)  # type: ignore[arg-type]


def run_cli(
    args: Sequence[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real ``prefcalc`` executable (as a user would) and capture its output."""
    exe = Path(sys.executable).with_name("prefcalc")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "prefcalc"]
    full_env = {**os.environ, "XDG_DATA_HOME": str(cwd / "data"), "PYTHONIOENCODING": "utf-8"}
    full_env.pop("PREFCALC_FILE", None)
    full_env.update(env or {})
    return subprocess.run(
        [*command, *args],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def invoke(
    args: Sequence[str], cwd: Path, env: dict[str, str] | None = None, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the CLI in process (``typer.testing.CliRunner``), as :func:`run_cli` would run the
    executable: same exit code, stdout and stderr, without starting a Python. ``input`` is
    the standard input (``prefcalc play`` reads its lines from it)."""
    from typer.testing import CliRunner

    from prefcalc.cli import app

    full_env = {"XDG_DATA_HOME": str(cwd / "data"), "PREFCALC_FILE": None, **(env or {})}
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(
            app, list(args), input=input, env=full_env, catch_exceptions=False
        )
    finally:
        os.chdir(old)
    return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout, result.stderr)


SAMPLE_3 = [
    "game Anna 7h 7 Boris:w Vera:p",
    "game Boris 6s 5 Vera:w3 Anna:w2",
    "passes Anna=2 Boris=5 Vera=3",
    "passes Anna=0 Boris=6 Vera=4",
    "game Vera 7d - Anna:p Boris:p",
    "misere Anna 0",
    "game Boris 8nt 7 Anna:w Vera:p",
    "game Vera 6c - Anna:p Boris:h",
    "misere Boris 2",
    "adjust Vera --mountain 5 --note 'peeked at the talon'",
    "game Anna 6d 6 Boris:w2 Vera:w2",
    "game Boris 9h 9 Anna:w1 Vera:w0",
    "game Vera 10nt 10 Anna:w Boris:p",
]


def sample_game(convention: str = "sochi") -> Game:
    """A short 3-player evening touching every kind of deal."""
    return make_game(
        ["Anna", "Boris", "Vera"],
        SAMPLE_3,
        convention=convention,
        target=20,
        whist_price=Fraction(1, 2),
        currency="EUR",
    )


def _random_start(
    seed: int | random.Random,
    players: int,
    convention: str,
    target: int,
    options: dict[str, object] | None,
) -> tuple[random.Random, Game, Convention]:
    """The generator, the empty game and its rules a random record starts from."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    names = ("Anna", "Boris", "Vera", "Dima", "Egor")[:players]
    ref = ConventionRef(convention, dict(options or {}))
    base = Game(
        players=names,
        convention=ref,
        target=target,
        first_dealer=names[0],
        created="2026-11-30T20:00:00+01:00",
    )
    return rng, base, resolve_convention(ref)


def random_game(
    seed: int | random.Random,
    deals: int,
    players: int = 3,
    convention: str = "sochi",
    target: int = 20,
    options: dict[str, object] | None = None,
    adjustments: bool = True,
    joins: bool = False,
) -> Game:
    """A random *legal* record: contracts respect the exit level of the all-pass streak.

    Used by the property tests and the benchmarks. Deals after the game finished are not
    avoided (the scorer reports them as problems; they still score). With ``joins``, late
    arrivals take random seats now and then (up to five players), never after the finish.
    """
    rng, base, conv = _random_start(seed, players, convention, target, options)
    names = base.players
    entries: list[Entry] = []
    streak = 0
    seats = names
    last: str | None = None
    newcomers = ["Fedya", "Gleb", "Zoya", "Ilya"]
    for k in range(deals):
        if joins and len(seats) < 5 and rng.random() < 0.06:
            current = base._replace(entries=tuple(entries))
            if not score(current, conv).finished:
                after = rng.choice([*seats, None])
                join = Join(newcomers.pop(0), after)
                entries.append(Entry(join, None, f"t{k}"))
                seats = joined(seats, join)
                continue
        dealer = names[0] if last is None else seat_after(seats, last)
        out = sitting_out(seats, dealer)
        active = [p for p in seats if p not in out]
        roll = rng.random()
        deal: object
        if adjustments and roll < 0.03:
            who, other = rng.sample(seats, 2)
            column = rng.choice(["pool", "mountain", "whists"])
            amount = rng.randint(1, 20)
            if column == "whists":
                deal = Adjustment(who, whists=((other, amount),), note="correction")
            else:
                deal = Adjustment(who, **{column: amount}, note="correction")  # type: ignore[arg-type]
            entries.append(Entry(deal, None, f"t{k}"))
            continue
        if roll < 0.25:
            cuts = sorted(rng.randint(0, 10) for _ in range(len(active) - 1))
            parts = [b - a for a, b in zip([0, *cuts], [*cuts, 10], strict=True)]
            deal = AllPass(tuple(zip(active, parts, strict=True)))
            streak += 1
        elif roll < 0.32:
            declarer = rng.choice(active)
            deal = Misere(declarer, 0 if rng.random() < 0.6 else rng.randint(1, 4))
            if conv.passes_misere_ends:
                streak = 0
        else:
            declarer = rng.choice(active)
            defenders = [p for p in active if p != declarer]
            rng.shuffle(defenders)
            level = rng.randint(conv.exit_level(streak), 10)
            suit = rng.choice(["s", "c", "d", "h", "nt"])
            shape = rng.random()
            tricks: int | None = None
            if len(defenders) == 1:  # Gusarik: one defender (and the dummy)
                lone = defenders[0]
                pair: tuple[Defender, ...]
                if shape < 0.15:
                    pair = (Defender(lone, "p"),)
                elif shape < 0.22 and level <= 7 and conv.half_whist:
                    pair = (Defender(lone, "h"),)
                else:
                    tricks = max(0, min(10, level + rng.choice([-3, -2, -1, 0, 0, 0, 1, 2])))
                    pair = (Defender(lone, "w"),)
                deal = Contract(declarer, level, suit, tricks, pair)
                streak = 0 if conv.passes_ends_streak == "any" or tricks is not None else streak
                entries.append(Entry(deal, dealer, f"t{k}"))
                last = dealer
                continue
            first, second = defenders
            if shape < 0.15:
                pair = (Defender(first, "p"), Defender(second, "p"))
            elif shape < 0.22 and level <= 7 and conv.half_whist:
                pair = (Defender(first, "p"), Defender(second, "h"))
            else:
                tricks = max(0, min(10, level + rng.choice([-3, -2, -1, -1, 0, 0, 0, 0, 1, 1, 2])))
                if shape < 0.6:
                    pair = (Defender(first, "w"), Defender(second, "p"))
                else:
                    a = rng.randint(0, 10 - tricks)
                    pair = (Defender(first, "w", a), Defender(second, "w", 10 - tricks - a))
            deal = Contract(declarer, level, suit, tricks, pair)
            if conv.passes_ends_streak == "any" or (deal.tricks is not None and deal.whisters):
                streak = 0
        entries.append(Entry(deal, dealer, f"t{k}"))
        last = dealer
    return base._replace(entries=tuple(entries))


def require_tool(what: str, *names: str) -> str:
    """The path of an external tool; skip without it, unless ``PREFCALC_REQUIRE_TOOLS=1``
    (as in CI), where a missing tool fails the test instead of hiding it."""
    import shutil

    import pytest

    for name in names:
        exe = shutil.which(name)
        if exe is not None:
            return exe
    if os.environ.get("PREFCALC_REQUIRE_TOOLS") == "1":
        pytest.fail(f"{what} is required here (PREFCALC_REQUIRE_TOOLS=1)")
    pytest.skip(f"{what} is not installed")


def random_classic_game(
    seed: int | random.Random,
    deals: int,
    players: int = 3,
    target: int = 50,
    options: dict[str, object] | None = None,
) -> Game:
    """A random legal Classic night (docs/rules.md §8.1): the opening circles, then all-pass deals
    (some with blind passes), misères and contracts, some of them dark. Under
    ``bombs.order = declared`` a declarer names one of his bombs now and then."""
    rng, base, conv = _random_start(seed, players, "classic", target, options)
    names = base.players
    entries: list[Entry] = []
    last: str | None = None
    opening = len(conv.bombs_opening) * players
    streak = 0
    for k in range(deals):
        dealer = names[0] if last is None else seat_after(names, last)
        last = dealer
        active = [p for p in names if p not in sitting_out(names, dealer)]
        roll = rng.random()
        deal: Contract | Misere | AllPass
        if k < opening or roll < 0.2:
            cuts = sorted(rng.randint(0, 10) for _ in range(len(active) - 1))
            parts = [b - a for a, b in zip([0, *cuts], [*cuts, 10], strict=True)]
            blind: tuple[str, ...] = ()
            if k >= opening and conv.bombs_blind and rng.random() < 0.4:
                blind = tuple(p for p in active if rng.random() < 0.5)
            entries.append(
                Entry(AllPass(tuple(zip(active, parts, strict=True)), blind), dealer, f"t{k}")
            )
            if k >= opening:
                streak += 1
            continue
        declarer = rng.choice(active)
        dark = conv.dark_games and rng.random() < 0.25
        bomb = None
        if conv.bombs_order == "declared" and rng.random() < 0.5:
            held = score(base._replace(entries=tuple(entries)), conv).bombs.get(declarer, ())
            bomb = rng.choice(held) if held else None
        if roll < 0.3:
            deal = Misere(
                declarer, 0 if rng.random() < 0.6 else rng.randint(1, 4), dark=dark, bomb=bomb
            )
            streak = 0
        else:
            defenders = [p for p in active if p != declarer]
            rng.shuffle(defenders)
            first, second = defenders
            level = rng.randint(conv.exit_level(streak), 10)
            suit = rng.choice(["s", "c", "d", "h", "nt"])
            shape = rng.random()
            must_whist = level == 6 and suit == "s" and dark and conv.dark_six_whisted
            tricks: int | None = None
            if shape < 0.15 and not must_whist:
                pair = (Defender(first, "p"), Defender(second, "p"))
            elif shape < 0.22 and level <= 7 and not must_whist:
                pair = (Defender(first, "p"), Defender(second, "h"))
            else:
                tricks = max(0, min(10, level + rng.choice([-3, -2, -1, 0, 0, 0, 1, 2])))
                if shape < 0.6 and not must_whist:
                    pair = (Defender(first, "w"), Defender(second, "p"))
                else:
                    a = rng.randint(0, 10 - tricks)
                    pair = (Defender(first, "w", a), Defender(second, "w", 10 - tricks - a))
            deal = Contract(declarer, level, suit, tricks, pair, dark=dark, bomb=bomb)
            streak = 0
        entries.append(Entry(deal, dealer, f"t{k}"))
    return base._replace(entries=tuple(entries))


def game_from_json(data: object, path: str = "<ledger>") -> Game:
    """Validate a parsed ledger (``json.loads`` output) as prefcalc reads its file: its JSON
    text, validated in full (strict mode takes a JSON array for a tuple, a Python list only
    in JSON)."""
    import json

    return game_from_bytes(json.dumps(data, ensure_ascii=False).encode(), path)


def new_process() -> None:
    """Forget what this process keeps of the last game, as a new command starts: its night
    (:mod:`prefcalc.resume`), the ledger it read or wrote (:mod:`prefcalc.store.known`, the
    checkpoint waiting for a write too) and the lines of the text it wrote
    (:mod:`prefcalc.store.written`)."""
    from prefcalc import resume
    from prefcalc.store import known, written

    resume.forget()
    known.forget()
    written.forget()
