"""The scoring rule book: one test per rule of docs/rules.md §2-§4, numbers worked by hand.

Every expected number below is computed from docs/rules.md, never copied from the engine. The
working is in the test name or in a comment; the notation of docs/rules.md is used throughout:
``P`` game price (6: 2, 7: 4, 8: 6, 9: 8, 10: 10), ``W = P × whist_factor`` whists per
defender trick, ``C`` consolation per undertrick (``W``, or a flat 10 in Rostov), ``u``
undertricks, ``d`` defence tricks.

Results are compared as flat dictionaries of the non-zero sheet cells::

    "pool:Anna"      Anna's pool
    "mountain:Anna"  Anna's mountain
    "Boris>Anna"     whists Boris wrote on Anna

``totals`` reads the whole sheet, ``last`` only what the last deal wrote (used when earlier
lines only set the scene, e.g. adjustments that give a player a pool of 9).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from fractions import Fraction
from typing import get_args

import pytest
from support import make_game, preset, sample_game, sheet_of

from prefcalc.errors import DealError
from prefcalc.rules.amounts import fmt
from prefcalc.rules.model import Adjustment, AllPass, Entry, Game
from prefcalc.rules.scoring import MOUNTAIN, POOL, WHISTS, Column, Sheet, score
from prefcalc.store.conventions import load_preset

P3 = ("Anna", "Boris", "Vera")
P4 = ("Anna", "Boris", "Vera", "Dima")
PRESETS = ("sochi", "leningrad", "rostov")


# --- helpers -----------------------------------------------------------------------------


def game_of(
    lines: Sequence[str],
    convention: str = "sochi",
    players: Sequence[str] = P3,
    target: int = 20,
) -> Game:
    return make_game(list(players), list(lines), convention=convention, target=target)


def play(
    lines: Sequence[str],
    convention: str = "sochi",
    players: Sequence[str] = P3,
    target: int = 20,
    **changes: object,
) -> Sheet:
    """Score ``lines`` under a preset, with some options changed (attribute names)."""
    game = game_of(lines, convention, players, target)
    return score(game, preset(convention, **changes))


def totals(sheet: Sheet) -> dict[str, object]:
    """Every non-zero cell of the sheet."""
    out: dict[str, object] = {}
    for name in sheet.players:
        if sheet.pool[name]:
            out[f"pool:{name}"] = sheet.pool[name]
        if sheet.mountain[name]:
            out[f"mountain:{name}"] = sheet.mountain[name]
        for other, amount in sheet.whists[name].items():
            if amount:
                out[f"{name}>{other}"] = amount
    return out


def last(sheet: Sheet, number: int = -1) -> dict[str, object]:
    """What one deal (the last by default) wrote, summed per cell."""
    out: dict[str, object] = {}
    for w in sheet.scored[number].writes:
        key = f"{w.player}>{w.on}" if w.column == "whists" else f"{w.column}:{w.player}"
        out[key] = out.get(key, 0) + w.amount
    return {k: v for k, v in out.items() if v}


def prices(sheet: Sheet) -> list[object]:
    """The all-pass price of every deal (None for deals that are not all-pass)."""
    return [s.price for s in sheet.scored]


def setup(*cells: str) -> list[str]:
    """Adjustments that set the scene: ``setup("Anna pool 9", "Boris mountain 6")``."""
    lines = []
    for cell in cells:
        name, column, amount = cell.split()
        lines.append(f"adjust {name} --{column} {amount} --note setup")
    return lines


# =========================================================================================
# 3 / 4.1.1  Made contract: pool += P, overtricks earn nothing, the suit does not matter
# =========================================================================================


@pytest.mark.parametrize("convention", PRESETS)
@pytest.mark.parametrize(("level", "price"), [(6, 2), (7, 4), (8, 6), (9, 8), (10, 10)])
def test_made_contract_writes_its_game_price_into_the_pool(
    convention: str, level: int, price: int
) -> None:
    sheet = play([f"game Anna {level}s {level} Boris:w Vera:p"], convention)
    assert sheet.pool == {"Anna": price, "Boris": 0, "Vera": 0}
    assert sheet.mountain == {"Anna": 0, "Boris": 0, "Vera": 0}


@pytest.mark.parametrize("suit", ["s", "c", "d", "h", "nt"])
def test_suit_does_not_change_the_price_7_is_4_in_every_suit(suit: str) -> None:
    assert play([f"game Anna 7{suit} - Boris:p Vera:p"]).pool["Anna"] == 4


def test_overtricks_earn_nothing_8_taken_with_9_is_still_6() -> None:
    # d = 1 = norm of an 8: the whister writes 1 × 6, the declarer 6 (not 8) in his pool.
    assert totals(play(["game Anna 8s 9 Boris:w Vera:p"])) == {"pool:Anna": 6, "Boris>Anna": 6}


# =========================================================================================
# 4.1.1  Remise: mountain += u × P × remise_factor (Leningrad doubles)
# =========================================================================================


@pytest.mark.parametrize(
    ("convention", "mountain"),
    [
        ("sochi", 12),  # 8 taken with 6: u = 2, 2 × 6 × 1
        ("leningrad", 24),  # 2 × 6 × 2
        ("rostov", 12),  # 2 × 6 × 1
    ],
)
def test_remise_is_undertricks_times_price_times_remise_factor(
    convention: str, mountain: int
) -> None:
    sheet = play(["game Anna 8s 6 Boris:w3 Vera:w1"], convention)
    assert sheet.mountain["Anna"] == mountain
    assert sheet.pool["Anna"] == 0


# =========================================================================================
# 4.1.2  Two whisters: a × W and b × W, plus u × C each on a remise
# =========================================================================================


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        # 7 taken with 5, whisters 3 and 2: u = 2.
        # Sochi W = C = 4: Boris 3×4 + 2×4 = 20, Vera 2×4 + 2×4 = 16, mountain 2×4 = 8.
        ("sochi", {"mountain:Anna": 8, "Boris>Anna": 20, "Vera>Anna": 16}),
        # Leningrad W = C = 8: Boris 24 + 16 = 40, Vera 16 + 16 = 32, mountain 2×4×2 = 16.
        ("leningrad", {"mountain:Anna": 16, "Boris>Anna": 40, "Vera>Anna": 32}),
        # Rostov W = 4, C = 10: Boris 12 + 20 = 32, Vera 8 + 20 = 28, mountain 8.
        ("rostov", {"mountain:Anna": 8, "Boris>Anna": 32, "Vera>Anna": 28}),
    ],
)
def test_two_whisters_write_their_tricks_and_consolation_on_a_remise(
    convention: str, expected: dict[str, int]
) -> None:
    assert totals(play(["game Anna 7h 5 Boris:w3 Vera:w2"], convention)) == expected


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        # 6 made with 6, whisters 3 and 1 (d = 4 = norm): 3 × W and 1 × W, no consolation.
        ("sochi", {"pool:Anna": 2, "Boris>Anna": 6, "Vera>Anna": 2}),
        ("leningrad", {"pool:Anna": 2, "Boris>Anna": 12, "Vera>Anna": 4}),
        ("rostov", {"pool:Anna": 2, "Boris>Anna": 6, "Vera>Anna": 2}),
    ],
)
def test_two_whisters_write_only_their_tricks_on_a_made_game(
    convention: str, expected: dict[str, int]
) -> None:
    # Vera's 1 trick is below her half of the norm, but the pair met the norm of 4 (split).
    assert totals(play(["game Anna 6s 6 Boris:w3 Vera:w1"], convention)) == expected


def test_leningrad_doubles_whists_consolation_and_remise_9_taken_with_7() -> None:
    # P = 8, W = C = 16, u = 2: mountain 2×8×2 = 32; Boris 2×16 + 2×16 = 64; Vera 16 + 32 = 48.
    sheet = play(["game Anna 9s 7 Boris:w2 Vera:w1"], "leningrad")
    assert totals(sheet) == {"mountain:Anna": 32, "Boris>Anna": 64, "Vera>Anna": 48}


# =========================================================================================
# 4.1.3  One whister and a passer
# =========================================================================================


@pytest.mark.parametrize(
    ("convention", "whists"),
    [("sochi", 8), ("leningrad", 16), ("rostov", 8)],  # 6 made with 6: d = 4, 4 × W
)
def test_lone_whister_writes_all_defence_tricks_on_a_made_game_the_passer_nothing(
    convention: str, whists: int
) -> None:
    sheet = play(["game Anna 6s 6 Boris:w Vera:p"], convention)
    assert totals(sheet) == {"pool:Anna": 2, "Boris>Anna": whists}


@pytest.mark.parametrize(
    ("convention", "changes", "expected"),
    [
        # 8 taken with 6 against one whister: d = 4, u = 2.
        # Sochi, greedy: W = C = 6: Boris 4×6 + 2×6 = 36, Vera 2×6 = 12; mountain 2×6 = 12.
        ("sochi", {}, {"mountain:Anna": 12, "Boris>Anna": 36, "Vera>Anna": 12}),
        # Sochi prices, gentleman: (4×6 + 2×2×6) / 2 = 48 / 2 = 24 each.
        (
            "sochi",
            {"lone_whister": "gentleman"},
            {"mountain:Anna": 12, "Boris>Anna": 24, "Vera>Anna": 24},
        ),
        # Leningrad, gentleman: W = C = 12: (4×12 + 2×2×12) / 2 = 96 / 2 = 48; mountain 24.
        ("leningrad", {}, {"mountain:Anna": 24, "Boris>Anna": 48, "Vera>Anna": 48}),
        # Leningrad prices, greedy: Boris 4×12 + 2×12 = 72, Vera 2×12 = 24.
        (
            "leningrad",
            {"lone_whister": "greedy"},
            {"mountain:Anna": 24, "Boris>Anna": 72, "Vera>Anna": 24},
        ),
        # Rostov, gentleman: W = 6, C = 10: (4×6 + 2×2×10) / 2 = 64 / 2 = 32 each.
        ("rostov", {}, {"mountain:Anna": 12, "Boris>Anna": 32, "Vera>Anna": 32}),
    ],
    ids=["sochi-greedy", "sochi-gentleman", "leningrad-gentleman", "leningrad-greedy", "rostov"],
)
def test_lone_whister_remise_greedy_or_gentleman(
    convention: str, changes: dict[str, object], expected: dict[str, int]
) -> None:
    assert totals(play(["game Anna 8s 6 Boris:w Vera:p"], convention, **changes)) == expected


def test_gentleman_halves_are_exact_fractions_when_the_total_is_odd() -> None:
    # A house rule pricing a 6 at 3 (game_prices), consolation 'price': W = C = 3.
    # 6 taken with 5, u = 1, d = 5: (5×3 + 2×1×3) / 2 = 21 / 2 = 10½ each, kept exact;
    # mountain 1 × 3 = 3.
    sheet = play(
        ["game Anna 6s 5 Boris:w Vera:p"],
        "sochi",
        lone_whister="gentleman",
        game_prices=(3, 4, 6, 8, 10),
    )
    assert totals(sheet) == {
        "mountain:Anna": 3,
        "Boris>Anna": Fraction(21, 2),
        "Vera>Anna": Fraction(21, 2),
    }


# =========================================================================================
# 4.1.4 / 4.1.6  Four players: the sitting-out dealer consoles; the checks of docs/rules.md §4.1.6
# =========================================================================================
# 4 players, Dima deals and sits out. Anna plays a 6 and takes 4: u = 2, d = 6.
# Sochi prices P = W = C = 2. Declarer's mountain 2 × 2 = 4 in all three cases.


def test_seed_check_two_whisters_write_12_and_8_the_dealer_4() -> None:
    # Boris 4×2 + 2×2 = 12, Vera 2×2 + 2×2 = 8, Dima 2×2 = 4.
    sheet = play(["game Anna 6s 4 Boris:w4 Vera:w2 @Dima"], players=P4)
    assert totals(sheet) == {
        "mountain:Anna": 4,
        "Boris>Anna": 12,
        "Vera>Anna": 8,
        "Dima>Anna": 4,
    }


def test_seed_check_one_greedy_whister_writes_16_the_passer_4_the_dealer_4() -> None:
    # Boris 6×2 + 2×2 = 16, Vera 2×2 = 4, Dima 2×2 = 4.
    sheet = play(["game Anna 6s 4 Boris:w Vera:p @Dima"], players=P4)
    assert totals(sheet) == {
        "mountain:Anna": 4,
        "Boris>Anna": 16,
        "Vera>Anna": 4,
        "Dima>Anna": 4,
    }


def test_seed_check_gentleman_whist_writes_10_and_10_the_dealer_4() -> None:
    # (6×2 + 2×2×2) / 2 = 20 / 2 = 10 each; Dima 2×2 = 4.
    sheet = play(["game Anna 6s 4 Boris:w Vera:p @Dima"], players=P4, lone_whister="gentleman")
    assert totals(sheet) == {
        "mountain:Anna": 4,
        "Boris>Anna": 10,
        "Vera>Anna": 10,
        "Dima>Anna": 4,
    }


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        # Rostov: W = 2, C = 10: (6×2 + 2×2×10) / 2 = 52 / 2 = 26 each; Dima 2×10 = 20.
        (
            "rostov",
            {"mountain:Anna": 4, "Boris>Anna": 26, "Vera>Anna": 26, "Dima>Anna": 20},
        ),
        # Leningrad: W = C = 4: (6×4 + 2×2×4) / 2 = 40 / 2 = 20 each; Dima 2×4 = 8;
        # mountain 2×2×2 = 8.
        (
            "leningrad",
            {"mountain:Anna": 8, "Boris>Anna": 20, "Vera>Anna": 20, "Dima>Anna": 8},
        ),
    ],
)
def test_dealer_consolation_under_rostov_and_leningrad_prices(
    convention: str, expected: dict[str, int]
) -> None:
    assert totals(play(["game Anna 6s 4 Boris:w Vera:p @Dima"], convention, P4)) == expected


def test_dealer_consolation_off_the_dealer_writes_nothing() -> None:
    sheet = play(["game Anna 6s 4 Boris:w4 Vera:w2 @Dima"], players=P4, dealer_consolation=False)
    assert totals(sheet) == {"mountain:Anna": 4, "Boris>Anna": 12, "Vera>Anna": 8}


def test_the_dealer_writes_nothing_when_the_contract_is_made() -> None:
    # 4 players, 7 made with 8: d = 2 = norm, Boris 2 × 4 = 8; Dima (dealer) nothing.
    sheet = play(["game Anna 7h 8 Boris:w Vera:p @Dima"], players=P4)
    assert totals(sheet) == {"pool:Anna": 4, "Boris>Anna": 8}


def test_the_sitting_out_dealer_can_neither_declare_nor_defend() -> None:
    with pytest.raises(DealError, match="Dima"):
        game_of(["game Dima 6s 6 Boris:w Vera:p @Dima"], players=P4)
    with pytest.raises(DealError, match="Dima"):
        game_of(["game Anna 6s 6 Boris:w Dima:p @Dima"], players=P4)


def test_in_four_players_the_dealer_rotates_clockwise_and_sits_out() -> None:
    # Dealers Anna, Boris, Vera, Dima: each deal is declared by someone else.
    game = game_of(
        [
            "game Boris 6s - Vera:p Dima:p",
            "game Vera 6s - Dima:p Anna:p",
            "game Dima 6s - Anna:p Boris:p",
            "game Anna 6s - Boris:p Vera:p",
        ],
        players=P4,
    )
    assert [e.dealer for e in game.entries] == ["Anna", "Boris", "Vera", "Dima"]
    assert sheet_of(game).pool == {"Anna": 2, "Boris": 2, "Vera": 2, "Dima": 2}


# =========================================================================================
# 3  Consolation: priced (C = W) or flat (Rostov: 10 per undertrick)
# =========================================================================================


@pytest.mark.parametrize(
    ("convention", "changes", "expected"),
    [
        # 6 taken with 5, whisters 3 and 2, u = 1, W = 2.
        # Priced: C = 2: Boris 3×2 + 2 = 8, Vera 2×2 + 2 = 6.
        ("sochi", {}, {"mountain:Anna": 2, "Boris>Anna": 8, "Vera>Anna": 6}),
        # Flat 10: Boris 6 + 10 = 16, Vera 4 + 10 = 14.
        ("rostov", {}, {"mountain:Anna": 2, "Boris>Anna": 16, "Vera>Anna": 14}),
        ("sochi", {"consolation": 10}, {"mountain:Anna": 2, "Boris>Anna": 16, "Vera>Anna": 14}),
    ],
    ids=["sochi-priced", "rostov-flat-10", "sochi-with-flat-10"],
)
def test_consolation_priced_or_flat_on_a_6(
    convention: str, changes: dict[str, object], expected: dict[str, int]
) -> None:
    assert totals(play(["game Anna 6s 5 Boris:w3 Vera:w2"], convention, **changes)) == expected


@pytest.mark.parametrize(
    ("convention", "each"),
    [("sochi", 16), ("rostov", 18)],  # 9 taken with 8: 1×8 + 1×C, C = 8 priced or 10 flat
)
def test_consolation_priced_or_flat_on_a_9(convention: str, each: int) -> None:
    sheet = play(["game Anna 9s 8 Boris:w1 Vera:w1"], convention)
    assert totals(sheet) == {"mountain:Anna": 8, "Boris>Anna": each, "Vera>Anna": each}


# =========================================================================================
# 4.1.5  Whisters' shortfall: missing tricks × W × liability into the whister's mountain
# =========================================================================================


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        # 6 made with 8 against one whister: d = 2, norm 4, 2 missing.
        # Sochi (responsible): 2 × 2 × 1 = 4; he still writes his 2 × 2 = 4 whists.
        ("sochi", {"pool:Anna": 2, "Boris>Anna": 4, "mountain:Boris": 4}),
        # Leningrad (semi-responsible): W = 4: 2 × 4 × ½ = 4; whists 2 × 4 = 8.
        ("leningrad", {"pool:Anna": 2, "Boris>Anna": 8, "mountain:Boris": 4}),
        # Rostov (semi-responsible): W = 2: 2 × 2 × ½ = 2; whists 4.
        ("rostov", {"pool:Anna": 2, "Boris>Anna": 4, "mountain:Boris": 2}),
    ],
)
def test_lone_whister_pays_norm_minus_defence_tricks_on_a_6(
    convention: str, expected: dict[str, int]
) -> None:
    assert totals(play(["game Anna 6s 8 Boris:w Vera:p"], convention)) == expected


@pytest.mark.parametrize(
    ("line", "convention", "expected"),
    [
        # 7 made with 9: d = 1, norm 2, 1 missing: Sochi 1×4×1 = 4, Rostov 1×4×½ = 2.
        ("game Anna 7h 9 Boris:w Vera:p", "sochi", {"pool:Anna": 4, "Boris>Anna": 4, "mountain:Boris": 4}),
        ("game Anna 7h 9 Boris:w Vera:p", "rostov", {"pool:Anna": 4, "Boris>Anna": 4, "mountain:Boris": 2}),
        # Leningrad W = 8: whists 1 × 8, shortfall 1 × 8 × ½ = 4.
        ("game Anna 7h 9 Boris:w Vera:p", "leningrad", {"pool:Anna": 4, "Boris>Anna": 8, "mountain:Boris": 4}),
        # 8 made with 10: d = 0, norm 1: Sochi 1 × 6 = 6, Rostov 3, Leningrad 12 × ½ = 6.
        ("game Anna 8s 10 Boris:w Vera:p", "sochi", {"pool:Anna": 6, "mountain:Boris": 6}),
        ("game Anna 8s 10 Boris:w Vera:p", "rostov", {"pool:Anna": 6, "mountain:Boris": 3}),
        ("game Anna 8s 10 Boris:w Vera:p", "leningrad", {"pool:Anna": 6, "mountain:Boris": 6}),
        # 9 made with 10: d = 0, norm 1: Sochi 1 × 8 = 8.
        ("game Anna 9s 10 Boris:w Vera:p", "sochi", {"pool:Anna": 8, "mountain:Boris": 8}),
    ],
)  # fmt: skip
def test_lone_whister_shortfall_on_7_8_9(
    line: str, convention: str, expected: dict[str, int]
) -> None:
    assert totals(play([line], convention)) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # 6 made with 7, whisters 3 and 0: pair 3 < 4; Vera took 0 < 2, pays 2 × 2 = 4.
        ("game Anna 6s 7 Boris:w3 Vera:w0", {"pool:Anna": 2, "Boris>Anna": 6, "mountain:Vera": 4}),
        # 6 made with 8, whisters 1 and 1: pair 2 < 4; each pays (2 − 1) × 2 = 2.
        (
            "game Anna 6s 8 Boris:w1 Vera:w1",
            {"pool:Anna": 2, "Boris>Anna": 2, "Vera>Anna": 2, "mountain:Boris": 2, "mountain:Vera": 2},
        ),
        # 6 made with 10: each pays (2 − 0) × 2 = 4.
        ("game Anna 6s 10 Boris:w0 Vera:w0", {"pool:Anna": 2, "mountain:Boris": 4, "mountain:Vera": 4}),
        # 6 made with 6, whisters 4 and 0: the pair met the norm, nobody pays.
        ("game Anna 6s 6 Boris:w4 Vera:w0", {"pool:Anna": 2, "Boris>Anna": 8}),
        # 7 made with 9, whisters 1 and 0: pair 1 < 2; Vera took 0 < 1, pays 1 × 4 = 4.
        ("game Anna 7h 9 Boris:w1 Vera:w0", {"pool:Anna": 4, "Boris>Anna": 4, "mountain:Vera": 4}),
        # 7 made with 10: both took 0, each pays 1 × 4 = 4.
        ("game Anna 7h 10 Boris:w0 Vera:w0", {"pool:Anna": 4, "mountain:Boris": 4, "mountain:Vera": 4}),
        # 8 made with 10: the second whister (Vera, spoke second) pays 1 × 6 = 6.
        ("game Anna 8s 10 Boris:w0 Vera:w0", {"pool:Anna": 6, "mountain:Vera": 6}),
        # The same deal with Vera speaking first: now Boris is the second whister and pays.
        ("game Anna 8s 10 Vera:w0 Boris:w0", {"pool:Anna": 6, "mountain:Boris": 6}),
        # 9 made with 10, Vera first: Boris (second) pays 1 × 8 = 8.
        ("game Anna 9h 10 Vera:w0 Boris:w0", {"pool:Anna": 8, "mountain:Boris": 8}),
        # 9 made with 9, whisters 1 and 0 (docs/rules.md §7.5): the pair met the norm of 1,
        # nobody pays.
        ("game Anna 9h 9 Boris:w1 Vera:w0", {"pool:Anna": 8, "Boris>Anna": 8}),
    ],
)  # fmt: skip
def test_two_whisters_split_shortfall_sochi(line: str, expected: dict[str, int]) -> None:
    assert totals(play([line], "sochi")) == expected


@pytest.mark.parametrize(
    ("convention", "mountain"),
    [("sochi", 8), ("leningrad", 8), ("rostov", 4)],  # 9: 1 × W × liability: 8×1, 16×½, 8×½
)
def test_two_whisters_split_second_whister_pays_under_each_liability(
    convention: str, mountain: int
) -> None:
    sheet = play(["game Anna 9h 10 Boris:w0 Vera:w0"], convention)
    assert totals(sheet) == {"pool:Anna": 8, "mountain:Vera": mountain}


@pytest.mark.parametrize(
    ("line", "convention", "expected"),
    [
        # 8 made with 10, the pair took nothing: both pay one trick each, 1 × 6 = 6.
        ("game Anna 8s 10 Boris:w0 Vera:w0", "sochi", {"pool:Anna": 6, "mountain:Boris": 6, "mountain:Vera": 6}),
        # The same in Rostov: 1 × 6 × ½ = 3 each.
        ("game Anna 8s 10 Boris:w0 Vera:w0", "rostov", {"pool:Anna": 6, "mountain:Boris": 3, "mountain:Vera": 3}),
        # 9 made with 9, the pair met the norm: nobody pays.
        ("game Anna 9h 9 Boris:w1 Vera:w0", "sochi", {"pool:Anna": 8, "Boris>Anna": 8}),
        # On a 7 'both' is 'split': Vera took 0 < 1, pays 1 × 4 = 4; Boris took 1, nothing.
        ("game Anna 7h 9 Boris:w1 Vera:w0", "sochi", {"pool:Anna": 4, "Boris>Anna": 4, "mountain:Vera": 4}),
        # On a 6 'both' is 'split': 6 made with 7, Vera 0 < 2 pays 2 × 2 = 4.
        ("game Anna 6s 7 Boris:w3 Vera:w0", "sochi", {"pool:Anna": 2, "Boris>Anna": 6, "mountain:Vera": 4}),
    ],
)  # fmt: skip
def test_two_whisters_both(line: str, convention: str, expected: dict[str, int]) -> None:
    assert totals(play([line], convention, two_whisters="both")) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # 6 made with 6, whisters 4 and 0: the pair met the norm, but Vera's quota is 2:
        # she pays 2 × 2 = 4.
        ("game Anna 6s 6 Boris:w4 Vera:w0", {"pool:Anna": 2, "Boris>Anna": 8, "mountain:Vera": 4}),
        # 6 made with 6, whisters 3 and 1: Vera pays (2 − 1) × 2 = 2.
        (
            "game Anna 6s 6 Boris:w3 Vera:w1",
            {"pool:Anna": 2, "Boris>Anna": 6, "Vera>Anna": 2, "mountain:Vera": 2},
        ),
        # Even on a remise: 6 taken with 5, whisters 5 and 0, u = 1, C = 2:
        # Boris 5×2 + 2 = 12, Vera 0 + 2 = 2, Vera's quota shortfall 2 × 2 = 4.
        (
            "game Anna 6s 5 Boris:w5 Vera:w0",
            {"mountain:Anna": 2, "Boris>Anna": 12, "Vera>Anna": 2, "mountain:Vera": 4},
        ),
        # 7 made with 7, whisters 3 and 0: Vera pays 1 × 4 = 4.
        ("game Anna 7h 7 Boris:w3 Vera:w0", {"pool:Anna": 4, "Boris>Anna": 12, "mountain:Vera": 4}),
        # 8 made with 8, whisters 2 and 0: Vera pays 1 × 6 = 6.
        ("game Anna 8s 8 Boris:w2 Vera:w0", {"pool:Anna": 6, "Boris>Anna": 12, "mountain:Vera": 6}),
        # 9 made with 9, whisters 1 and 0 (docs/rules.md §7.5): Vera pays 1 × 8 = 8 (split: nobody).
        ("game Anna 9s 9 Boris:w1 Vera:w0", {"pool:Anna": 8, "Boris>Anna": 8, "mountain:Vera": 8}),
        # 9 made with 10: both pay 1 × 8 = 8.
        ("game Anna 9s 10 Boris:w0 Vera:w0", {"pool:Anna": 8, "mountain:Boris": 8, "mountain:Vera": 8}),
        # 10 made with 10 and ten_norm 0: no quota on a 10.
        ("game Anna 10s 10 Boris:w0 Vera:w0", {"pool:Anna": 10}),
    ],
)  # fmt: skip
def test_two_whisters_each_redneck_every_whister_owes_his_quota(
    line: str, expected: dict[str, int]
) -> None:
    assert totals(play([line], "sochi", two_whisters="each")) == expected


def test_two_whisters_each_under_semi_responsible_rostov() -> None:
    # 8 made with 8, whisters 2 and 0: Vera 1 × 6 × ½ = 3.
    sheet = play(["game Anna 8s 8 Boris:w2 Vera:w0"], "rostov", two_whisters="each")
    assert totals(sheet) == {"pool:Anna": 6, "Boris>Anna": 12, "mountain:Vera": 3}


def test_two_whisters_each_on_a_10_with_ten_norm_1_both_pay_10() -> None:
    sheet = play(["game Anna 10s 10 Boris:w0 Vera:w0"], two_whisters="each", ten_norm=1)
    assert totals(sheet) == {"pool:Anna": 10, "mountain:Boris": 10, "mountain:Vera": 10}


# =========================================================================================
# ten_norm: the defence's norm on a 10 (0 by default, option 1)
# =========================================================================================


@pytest.mark.parametrize(
    ("convention", "ten_norm", "expected"),
    [
        ("sochi", 0, {"pool:Anna": 10}),
        # Norm 1, d = 0: 1 × 10 × 1 = 10 (Sochi), 1 × 10 × ½ = 5 (Rostov), 1 × 20 × ½ = 10.
        ("sochi", 1, {"pool:Anna": 10, "mountain:Boris": 10}),
        ("rostov", 1, {"pool:Anna": 10, "mountain:Boris": 5}),
        ("leningrad", 1, {"pool:Anna": 10, "mountain:Boris": 10}),
    ],
)
def test_ten_norm_lone_whister_on_a_made_10(
    convention: str, ten_norm: int, expected: dict[str, int]
) -> None:
    sheet = play(["game Anna 10nt 10 Boris:w Vera:p"], convention, ten_norm=ten_norm)
    assert totals(sheet) == expected


@pytest.mark.parametrize(
    ("ten_norm", "expected"),
    [
        (0, {"pool:Anna": 10}),
        # Split on 8 and above: the second whister (Vera) pays 1 − 0 = 1 trick × 10.
        (1, {"pool:Anna": 10, "mountain:Vera": 10}),
    ],
)
def test_ten_norm_two_whisters_split(ten_norm: int, expected: dict[str, int]) -> None:
    sheet = play(["game Anna 10nt 10 Boris:w0 Vera:w0"], ten_norm=ten_norm)
    assert totals(sheet) == expected


def test_a_failed_10_is_priced_like_any_contract() -> None:
    # 10 taken with 9, greedy, W = C = 10, d = 1, u = 1: Boris 10 + 10 = 20, Vera 10.
    sheet = play(["game Anna 10nt 9 Boris:w Vera:p"])
    assert totals(sheet) == {"mountain:Anna": 10, "Boris>Anna": 20, "Vera>Anna": 10}


# =========================================================================================
# 4.2  Contract not played: both pass, half-whist
# =========================================================================================


@pytest.mark.parametrize("convention", PRESETS)
def test_both_pass_the_game_counts_as_made_and_nobody_writes_whists(convention: str) -> None:
    assert totals(play(["game Anna 8nt - Boris:p Vera:p"], convention)) == {"pool:Anna": 6}


def test_both_pass_in_four_players() -> None:
    sheet = play(["game Boris 9s - Vera:p Dima:p @Anna"], players=P4)
    assert totals(sheet) == {"pool:Boris": 8}


@pytest.mark.parametrize(
    ("line", "convention", "expected"),
    [
        # Half-whist on a 6: half the norm of 4 = 2 tricks × W.
        ("game Anna 6d - Boris:p Vera:h", "sochi", {"pool:Anna": 2, "Vera>Anna": 4}),  # 2 × 2
        ("game Anna 6d - Boris:p Vera:h", "leningrad", {"pool:Anna": 2, "Vera>Anna": 8}),  # 2 × 4
        ("game Anna 6d - Boris:p Vera:h", "rostov", {"pool:Anna": 2, "Vera>Anna": 4}),  # 2 × 2
        # Half-whist on a 7: half the norm of 2 = 1 trick × W.
        ("game Anna 7d - Boris:p Vera:h", "sochi", {"pool:Anna": 4, "Vera>Anna": 4}),  # 1 × 4
        ("game Anna 7d - Boris:p Vera:h", "leningrad", {"pool:Anna": 4, "Vera>Anna": 8}),  # 1 × 8
        ("game Anna 7d - Boris:p Vera:h", "rostov", {"pool:Anna": 4, "Vera>Anna": 4}),  # 1 × 4
    ],
)
def test_half_whist_counts_as_made_the_half_whister_writes_half_the_norm(
    line: str, convention: str, expected: dict[str, int]
) -> None:
    assert totals(play([line], convention)) == expected


def test_half_whist_in_four_players() -> None:
    # Anna deals; Boris plays a 7, Vera passes, Dima half-whists: 1 × 4 = 4.
    sheet = play(["game Boris 7c - Vera:p Dima:h @Anna"], players=P4)
    assert totals(sheet) == {"pool:Boris": 4, "Dima>Boris": 4}


def test_half_whist_only_on_6_and_7() -> None:
    with pytest.raises(DealError, match="only possible on 6 and 7"):
        game_of(["game Anna 8d - Boris:p Vera:h"])


def test_half_whist_refused_when_the_convention_has_none() -> None:
    with pytest.raises(DealError, match="half_whist"):
        make_game(list(P3), ["game Anna 6d - Boris:p Vera:h"], options={"half_whist": False})


def test_a_returned_whist_is_an_ordinary_game_with_the_returner_as_lone_whister() -> None:
    # Vera passed, Boris returned the whist; 6 taken with 5: greedy Boris 5×2 + 2 = 12, Vera 2.
    sheet = play(["game Anna 6d 5 Vera:p Boris:w"])
    assert totals(sheet) == {"mountain:Anna": 2, "Boris>Anna": 12, "Vera>Anna": 2}


# =========================================================================================
# 4.3  Misère: made → pool 10; failed → tricks × 10 × remise_factor, no whists
# =========================================================================================


@pytest.mark.parametrize("convention", PRESETS)
def test_misere_made_writes_10_into_the_pool(convention: str) -> None:
    assert totals(play(["misere Anna 0"], convention)) == {"pool:Anna": 10}


@pytest.mark.parametrize(
    ("convention", "mountain"),
    [("sochi", 20), ("leningrad", 40), ("rostov", 20)],  # 2 tricks × 10 × remise_factor
)
def test_misere_failed_is_tricks_times_10_times_remise_factor(
    convention: str, mountain: int
) -> None:
    assert totals(play(["misere Anna 2"], convention)) == {"mountain:Anna": mountain}


def test_misere_in_four_players() -> None:
    sheet = play(["misere Boris 1 @Anna", "misere Vera 0 @Anna"], players=P4)
    assert totals(sheet) == {"mountain:Boris": 10, "pool:Vera": 10}


# =========================================================================================
# 4.1.1  mountain_first: the points of a made game or misère first write off the mountain
# =========================================================================================


def test_mountain_first_made_game_writes_off_the_mountain_then_the_pool() -> None:
    # Deal 1: 6 taken with 5 (greedy): mountain 2; Boris 5×2 + 2 = 12, Vera 2.
    # Deal 2: 7 made with 7: 4 points, 2 write off the mountain (→ 0), 2 go to the pool;
    #         Boris 3 × 4 = 12.
    sheet = play(
        ["game Anna 6s 5 Boris:w Vera:p", "game Anna 7h 7 Boris:w Vera:p"], mountain_first=True
    )
    assert last(sheet) == {"mountain:Anna": -2, "pool:Anna": 2, "Boris>Anna": 12}
    assert totals(sheet) == {"pool:Anna": 2, "Boris>Anna": 24, "Vera>Anna": 2}


def test_without_mountain_first_the_mountain_stays() -> None:
    sheet = play(["game Anna 6s 5 Boris:w Vera:p", "game Anna 7h 7 Boris:w Vera:p"])
    assert totals(sheet) == {"mountain:Anna": 2, "pool:Anna": 4, "Boris>Anna": 24, "Vera>Anna": 2}


def test_mountain_first_a_bigger_mountain_takes_all_the_points() -> None:
    # Misère failed with 1: mountain 10. A made 7 (4 points): mountain 10 − 4 = 6, pool 0.
    sheet = play(["misere Anna 1", "game Anna 7h 7 Boris:w Vera:p"], mountain_first=True)
    assert totals(sheet) == {"mountain:Anna": 6, "Boris>Anna": 12}


def test_mountain_first_applies_to_a_made_misere() -> None:
    # 6 taken with 5: mountain 2. Misère made: 10 points, 2 write off the mountain, 8 to pool.
    sheet = play(["game Anna 6s 5 Boris:w Vera:p", "misere Anna 0"], mountain_first=True)
    assert last(sheet) == {"mountain:Anna": -2, "pool:Anna": 8}


def test_mountain_first_applies_to_a_game_that_counts_as_made() -> None:
    # 6 taken with 5: mountain 2. Then a 7 both passed counts as made: 4 points,
    # 2 write off the mountain (→ 0), 2 go to the pool.
    sheet = play(
        ["game Anna 6s 5 Boris:w Vera:p", "game Anna 7h - Boris:p Vera:p"], mountain_first=True
    )
    assert last(sheet) == {"mountain:Anna": -2, "pool:Anna": 2}


# =========================================================================================
# 4.4  All-pass deals scored into the mountain (Sochi, Leningrad)
# =========================================================================================

PASS = "passes Anna=2 Boris=5 Vera=3"


def test_all_pass_mountain_is_tricks_times_price_sochi_1_2_3_then_holds() -> None:
    # Four in a row at 1, 2, 3, 3 (hold): 9 per trick in all.
    # Anna 2 × 9 = 18, Boris 5 × 9 = 45, Vera 3 × 9 = 27.
    sheet = play([PASS] * 4)
    assert prices(sheet) == [1, 2, 3, 3]
    assert totals(sheet) == {"mountain:Anna": 18, "mountain:Boris": 45, "mountain:Vera": 27}
    assert sheet.streak == 4
    assert sheet.passes_price == 3


def test_all_pass_leningrad_2_4_6() -> None:
    # First deal at 2: Anna 4, Boris 10, Vera 6; then 4, 6, 6.
    sheet = play([PASS] * 4, "leningrad")
    assert prices(sheet) == [2, 4, 6, 6]
    assert last(sheet, 0) == {"mountain:Anna": 4, "mountain:Boris": 10, "mountain:Vera": 6}


@pytest.mark.parametrize(
    ("progression", "after_last", "expected"),
    [
        ((1, 2, 3), "hold", [1, 2, 3, 3, 3]),
        ((1, 2, 3), "arithmetic", [1, 2, 3, 4, 5]),
        ((1, 2, 4), "hold", [1, 2, 4, 4, 4]),
        ((1, 2, 4), "geometric", [1, 2, 4, 8, 16]),
        ((2, 4, 6), "arithmetic", [2, 4, 6, 8, 10]),
        ((1,), "arithmetic", [1, 1, 1, 1, 1]),  # one price: nothing to continue, it holds
    ],
)
def test_all_pass_progressions(
    progression: tuple[int, ...], after_last: str, expected: list[int]
) -> None:
    sheet = play([PASS] * 5, passes_prices=progression, passes_after_last=after_last)
    assert prices(sheet) == expected
    # Anna took 2 tricks each time.
    assert sheet.mountain["Anna"] == 2 * sum(expected)


def test_a_contract_ends_the_streak_and_the_price_starts_again() -> None:
    sheet = play([PASS, PASS, "game Anna 6s 6 Boris:w Vera:p", PASS])
    assert prices(sheet) == [1, 2, None, 1]
    assert [s.streak for s in sheet.scored] == [1, 2, 0, 1]


@pytest.mark.parametrize(
    ("convention", "changes", "anna_pool"),
    [
        ("sochi", {}, 3),  # zero bonus = price: 1 + 2
        ("sochi", {"passes_zero_bonus": 1}, 2),  # fixed 1 per deal
        ("sochi", {"passes_zero_bonus": 0}, 0),  # no bonus
        ("leningrad", {}, 6),  # 2 + 4
    ],
)
def test_all_pass_zero_tricks_earn_the_bonus_instead_of_mountain(
    convention: str, changes: dict[str, object], anna_pool: int
) -> None:
    sheet = play(["passes Anna=0 Boris=6 Vera=4"] * 2, convention, **changes)
    assert sheet.pool["Anna"] == anna_pool
    assert sheet.mountain["Anna"] == 0


def test_all_pass_zero_bonus_sochi_whole_sheet() -> None:
    # Price 1 then 2: Anna 0 tricks → pool 1 + 2 = 3; Boris 6 × 3 = 18, Vera 4 × 3 = 12.
    sheet = play(["passes Anna=0 Boris=6 Vera=4"] * 2)
    assert totals(sheet) == {"pool:Anna": 3, "mountain:Boris": 18, "mountain:Vera": 12}


def test_all_pass_two_players_with_no_tricks_both_earn_the_bonus() -> None:
    sheet = play(["passes Anna=0 Boris=0 Vera=10"])
    assert totals(sheet) == {"pool:Anna": 1, "pool:Boris": 1, "mountain:Vera": 10}


def test_all_pass_amnesty_subtracts_the_smallest_trick_count_first() -> None:
    # 2, 5, 3 less 2 → 0, 3, 1. Price 1, then 2: Boris 3 + 6 = 9, Vera 1 + 2 = 3.
    # Engine's choice (docs/rules.md §4.4): the zero bonus goes only to a player who really
    # took no trick, not to the one whose count the amnesty brought down to 0.
    sheet = play([PASS, PASS], passes_amnesty=True)
    assert totals(sheet) == {"mountain:Boris": 9, "mountain:Vera": 3}


def test_all_pass_amnesty_with_a_real_zero_changes_nothing() -> None:
    sheet = play(["passes Anna=0 Boris=6 Vera=4"], passes_amnesty=True)
    assert totals(sheet) == {"pool:Anna": 1, "mountain:Boris": 6, "mountain:Vera": 4}


def test_all_pass_in_four_players_the_dealer_takes_no_tricks_and_writes_nothing() -> None:
    sheet = play(["passes Anna=3 Boris=5 Vera=2 @Dima"], players=P4)
    assert totals(sheet) == {"mountain:Anna": 3, "mountain:Boris": 5, "mountain:Vera": 2}


def test_all_pass_the_dealer_cannot_be_given_tricks() -> None:
    with pytest.raises(DealError, match="Dima"):
        game_of(["passes Anna=3 Boris=4 Vera=2 Dima=1 @Dima"], players=P4)


# =========================================================================================
# 4.4  All-pass deals scored in whists (Rostov, docs/rules.md §4.4, §7.8)
# =========================================================================================


def test_rostov_all_pass_the_fewest_tricks_writes_5_per_trick_of_difference() -> None:
    # Vera 2 is lowest: on Anna 5 × (3 − 2) = 5, on Boris 5 × (5 − 2) = 15.
    sheet = play(["passes Anna=3 Boris=5 Vera=2"], "rostov")
    assert totals(sheet) == {"Vera>Anna": 5, "Vera>Boris": 15}


def test_rostov_all_pass_zero_tricks_earn_1_pool_point() -> None:
    # Anna 0: on Boris 5 × 6 = 30, on Vera 5 × 4 = 20, and 1 pool point.
    sheet = play(["passes Anna=0 Boris=6 Vera=4"], "rostov")
    assert totals(sheet) == {"Anna>Boris": 30, "Anna>Vera": 20, "pool:Anna": 1}


def test_rostov_all_pass_has_no_progression() -> None:
    # Three in a row, 5 and 15 each time: 15 and 45.
    sheet = play(["passes Anna=3 Boris=5 Vera=2"] * 3, "rostov")
    assert totals(sheet) == {"Vera>Anna": 15, "Vera>Boris": 45}


@pytest.mark.parametrize(
    ("line", "ties", "expected"),
    [
        # Anna and Vera tie on 2: 5 × (6 − 2) = 20 on Boris; each writes it in full or half.
        ("passes Anna=2 Boris=6 Vera=2", "each", {"Anna>Boris": 20, "Vera>Boris": 20}),
        ("passes Anna=2 Boris=6 Vera=2", "split", {"Anna>Boris": 10, "Vera>Boris": 10}),
        # Anna and Vera tie on 3: 5 × (4 − 3) = 5; split: 2½ each, kept exact.
        ("passes Anna=3 Boris=4 Vera=3", "each", {"Anna>Boris": 5, "Vera>Boris": 5}),
        (
            "passes Anna=3 Boris=4 Vera=3",
            "split",
            {"Anna>Boris": Fraction(5, 2), "Vera>Boris": Fraction(5, 2)},
        ),
    ],
)
def test_rostov_all_pass_ties_for_the_fewest(
    line: str, ties: str, expected: dict[str, object]
) -> None:
    assert totals(play([line], "rostov", passes_ties=ties)) == expected


def test_rostov_all_pass_seed_check_with_four_active_players() -> None:
    # docs/rules.md §4.4.1: A 3, B 4, C 2, D 1 → D writes 10 on A, 15 on B, 5 on C.
    # In a real 4-player game the dealer sits out and takes no tricks, so the record cannot
    # hold four trick counts (check_deal refuses it). The engine's all-pass scoring is
    # reached here with an entry built by hand, past check_deal, with no dealer named
    # (so no dealer's bonus either).
    base = game_of([], "rostov", P4)
    deal = AllPass((("Anna", 3), ("Boris", 4), ("Vera", 2), ("Dima", 1)))
    game = base._replace(entries=(Entry(deal, None, "t"),))
    assert totals(sheet_of(game)) == {"Dima>Anna": 10, "Dima>Boris": 15, "Dima>Vera": 5}


def test_rostov_all_pass_seed_check_playable_form_dealer_writes_1_into_his_pool() -> None:
    # The same deal as a real 4-player game can record it: Dima deals, sits out, takes
    # nothing and writes 1 into his pool (docs/rules.md §4.4). A 4, B 4, C 2: Vera writes
    # 5 × 2 = 10 on Anna and 10 on Boris.
    sheet = play(["passes Anna=4 Boris=4 Vera=2 @Dima"], "rostov", P4)
    assert totals(sheet) == {"Vera>Anna": 10, "Vera>Boris": 10, "pool:Dima": 1}


def test_rostov_dealer_bonus_is_an_all_pass_bonus_and_never_helps() -> None:
    # Dima has closed (pool 10 of 10) with a mountain of 3: his bonus point does not fit,
    # helps nobody, and is written off his mountain (3 → 2).
    sheet = play(
        [*setup("Dima pool 10", "Dima mountain 3"), "passes Anna=3 Boris=5 Vera=2 @Dima"],
        "rostov",
        P4,
        target=10,
    )
    assert last(sheet) == {"Vera>Anna": 5, "Vera>Boris": 15, "mountain:Dima": -1}


# =========================================================================================
# 4.4  What ends a streak: passes.ends_streak, passes.misere_ends
# =========================================================================================


@pytest.mark.parametrize(
    ("middle", "ends_streak", "expected"),
    [
        ("game Anna 6s - Boris:p Vera:p", "any", [1, None, 1]),
        ("game Anna 6s - Boris:p Vera:p", "whisted", [1, None, 2]),  # not played: goes on
        ("game Anna 6s - Boris:p Vera:h", "whisted", [1, None, 2]),  # half-whist: not played
        ("game Anna 6s 6 Boris:w Vera:p", "whisted", [1, None, 1]),  # whisted and played
    ],
)
def test_ends_streak_any_or_whisted(middle: str, ends_streak: str, expected: list[object]) -> None:
    sheet = play([PASS, middle, PASS], passes_ends_streak=ends_streak)
    assert prices(sheet) == expected


@pytest.mark.parametrize(("misere_ends", "expected"), [(True, [1, None, 1]), (False, [1, None, 2])])
def test_misere_ends_the_streak_by_option(misere_ends: bool, expected: list[object]) -> None:
    sheet = play([PASS, "misere Anna 0", PASS], passes_misere_ends=misere_ends)
    assert prices(sheet) == expected


def test_an_adjustment_does_not_end_the_streak() -> None:
    # Engine's choice (docs/rules.md §4.4): a manual correction is not a deal.
    sheet = play([PASS, "adjust Anna --mountain 1 --note fix", PASS])
    assert prices(sheet) == [1, None, 2]


# =========================================================================================
# 4.4  Exit from passes: the lowest contract after k all-pass deals, unless forced
# =========================================================================================


def test_exit_leningrad_a_6_after_passes_is_a_problem() -> None:
    sheet = play([PASS, "game Anna 6s 6 Boris:w Vera:p"], "leningrad")
    assert [p.number for p in sheet.problems] == [2]
    assert "lowest contract is 7, not 6" in sheet.problems[0].message
    # It is scored anyway: 6 made, d = 4, Leningrad W = 4: 16.
    assert last(sheet) == {"pool:Anna": 2, "Boris>Anna": 16}


def test_exit_strict_scoring_raises() -> None:
    game = game_of([PASS, "game Anna 6s 6 Boris:w Vera:p"], "leningrad")
    with pytest.raises(DealError, match="lowest contract is 7"):
        score(game, load_preset("leningrad"), strict=True)


def test_exit_a_forced_contract_below_the_exit_is_no_problem() -> None:
    game = game_of([PASS, "game Anna 6s 6 Boris:w Vera:p !"], "leningrad")
    assert game.entries[1].forced
    assert score(game, load_preset("leningrad"), strict=True).problems == ()


@pytest.mark.parametrize(
    "line",
    ["game Anna 7s 7 Boris:w Vera:p", "misere Anna 0"],  # the exit level, and a misère
)
def test_exit_the_exit_level_and_a_misere_are_allowed(line: str) -> None:
    assert play([PASS, line], "leningrad").problems == ()


def test_exit_sochi_allows_a_6_after_passes() -> None:
    assert play([PASS, PASS, PASS, "game Anna 6s 6 Boris:w Vera:p"]).problems == ()


def test_exit_levels_follow_the_streak_and_the_last_one_holds() -> None:
    # exit 6, 7, 8: before the k-th deal the lowest is 6 (no passes), 6, 7, 8, 8, 8.
    sheet = play([PASS] * 5 + ["game Anna 8s 8 Boris:w Vera:p"], passes_exit=(6, 7, 8))
    assert [s.min_level for s in sheet.scored] == [6, 6, 7, 8, 8, 8]
    assert sheet.problems == ()
    assert sheet.min_level == 6  # the contract ended the streak


def test_exit_a_7_after_three_passes_with_exit_6_7_8_is_a_problem() -> None:
    sheet = play([PASS] * 3 + ["game Anna 7s 7 Boris:w Vera:p"], passes_exit=(6, 7, 8))
    assert [p.number for p in sheet.problems] == [4]
    assert sheet.min_level == 6


def test_exit_after_an_unplayed_contract_under_whisted_the_streak_still_counts() -> None:
    # ends_streak = whisted: the not-played 7 leaves the streak at 1; a 6 next is too low.
    sheet = play(
        [PASS, "game Anna 7s - Boris:p Vera:p", "game Anna 6s 6 Boris:w Vera:p"],
        "leningrad",
        passes_ends_streak="whisted",
    )
    assert [p.number for p in sheet.problems] == [3]


# =========================================================================================
# 4.5  Closing: each pool reaches the target, or the pools' total reaches target × players
# =========================================================================================

TENS = [
    "game Anna 10nt 10 Boris:w Vera:p",
    "game Boris 10nt 10 Vera:w Anna:p",
    "game Vera 10nt 10 Anna:w Boris:p",
]


def test_closing_each_ends_when_every_pool_reaches_the_target() -> None:
    sheet = play(TENS, target=10)
    assert [s.finished for s in sheet.scored] == [False, False, True]
    assert sheet.finished
    assert sheet.pool == {"Anna": 10, "Boris": 10, "Vera": 10}


def test_closing_total_ends_when_the_pools_add_up_to_target_times_players() -> None:
    # Leningrad, target 10, 3 players: 30 in all. Anna alone makes three 10s: 30, no cap.
    sheet = play(["game Anna 10nt 10 Boris:w Vera:p"] * 3, "leningrad", target=10)
    assert [s.finished for s in sheet.scored] == [False, False, True]
    assert totals(sheet) == {"pool:Anna": 30}


def test_closing_total_in_four_players_needs_target_times_four() -> None:
    # Target 10: 40 in all. Four 10s by Boris (Anna deals each time, fixed with @Anna).
    lines = ["game Boris 10nt - Vera:p Dima:p @Anna"] * 4
    sheet = play(lines, "leningrad", P4, target=10)
    assert [s.finished for s in sheet.scored] == [False, False, False, True]


def test_a_deal_after_the_game_finished_is_a_problem_unless_forced() -> None:
    sheet = play([*TENS, PASS], target=10)
    assert [p.number for p in sheet.problems] == [4]
    assert "already finished" in sheet.problems[0].message
    assert play([*TENS, f"{PASS} !"], target=10).problems == ()


# =========================================================================================
# 4.5  The help rule (Sochi: most points; Rostov: biggest hole). Target 10 throughout;
# adjustments set the scene (they write straight into the pool, see test_adjustments_*).
# =========================================================================================


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        # Anna (closed, 10) plays a 7 both passed: 4 points, 10 whists each.
        # Sochi: most points → Boris (5): pool 9, Anna writes 4 × 10 = 40 on him.
        ("sochi", {"pool:Boris": 4, "Anna>Boris": 40}),
        # Rostov: biggest hole → Vera (hole 7): pool 7, 40 on her.
        ("rostov", {"pool:Vera": 4, "Anna>Vera": 40}),
    ],
)
def test_help_a_closed_player_gives_his_points_at_10_whists_each(
    convention: str, expected: dict[str, int]
) -> None:
    lines = [*setup("Anna pool 10", "Boris pool 5", "Vera pool 3"), "game Anna 7h - Boris:p Vera:p"]
    assert last(play(lines, convention, target=10)) == expected


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        # Anna 8 makes a 7: 2 fit, 2 help. Sochi → Boris (most), Rostov → Vera (hole).
        ("sochi", {"pool:Anna": 2, "pool:Boris": 2, "Anna>Boris": 20}),
        ("rostov", {"pool:Anna": 2, "pool:Vera": 2, "Anna>Vera": 20}),
    ],
)
def test_help_only_the_excess_over_the_target_helps(
    convention: str, expected: dict[str, int]
) -> None:
    lines = [*setup("Anna pool 8", "Boris pool 5", "Vera pool 3"), "game Anna 7h - Boris:p Vera:p"]
    assert last(play(lines, convention, target=10)) == expected


def test_help_chains_to_a_second_recipient() -> None:
    # Sochi: Anna 10, Boris 8, Vera 3; Anna's 7 gives 4: Boris (most) needs 2 → 10,
    # the other 2 go to Vera → 5. Anna writes 20 on each.
    lines = [*setup("Anna pool 10", "Boris pool 8", "Vera pool 3"), "game Anna 7h - Boris:p Vera:p"]
    assert last(play(lines, target=10)) == {
        "pool:Boris": 2,
        "Anna>Boris": 20,
        "pool:Vera": 2,
        "Anna>Vera": 20,
    }


def test_help_chain_then_write_off_the_own_mountain_then_every_other_mountain() -> None:
    # Rostov: Anna 10 (mountain 3), Boris 8, Vera 9; Anna's 9 both passed gives 8 points.
    # Biggest hole: Boris (2) takes 2 (20 whists), then Vera takes 1 (10 whists).
    # 5 remain: Anna's mountain 3 → 0, the last 2 go onto Boris's and Vera's mountains.
    lines = [
        *setup("Anna pool 10", "Anna mountain 3", "Boris pool 8", "Vera pool 9"),
        "game Anna 9h - Boris:p Vera:p",
    ]
    sheet = play(lines, "rostov", target=10)
    assert last(sheet) == {
        "pool:Boris": 2,
        "Anna>Boris": 20,
        "pool:Vera": 1,
        "Anna>Vera": 10,
        "mountain:Anna": -3,
        "mountain:Boris": 2,
        "mountain:Vera": 2,
    }
    assert sheet.finished


def test_help_write_off_sochi_one_recipient_left() -> None:
    # Sochi: Anna 10 (mountain 2), Boris 10, Vera 9; Anna's 7 (4 points): Vera takes 1
    # (10 whists); 3 remain: mountain 2 → 0, then 1 onto Boris's and Vera's mountains.
    lines = [
        *setup("Anna pool 10", "Anna mountain 2", "Boris pool 10", "Vera pool 9"),
        "game Anna 7h - Boris:p Vera:p",
    ]
    assert last(play(lines, target=10)) == {
        "pool:Vera": 1,
        "Anna>Vera": 10,
        "mountain:Anna": -2,
        "mountain:Boris": 1,
        "mountain:Vera": 1,
    }


@pytest.mark.parametrize("convention", ["sochi", "rostov"])
def test_help_tie_goes_to_the_smaller_mountain(convention: str) -> None:
    # Boris and Vera both have 4 points (same count, same hole); Vera's mountain 2 < Boris's 6.
    # Anna 9 makes a 7: 1 fits, 3 go to Vera (30 whists).
    lines = [
        *setup("Anna pool 9", "Boris pool 4", "Boris mountain 6", "Vera pool 4", "Vera mountain 2"),
        "game Anna 7h - Boris:p Vera:p",
    ]
    assert last(play(lines, convention, target=10)) == {
        "pool:Anna": 1,
        "pool:Vera": 3,
        "Anna>Vera": 30,
    }


@pytest.mark.parametrize("convention", ["sochi", "rostov"])
def test_help_full_tie_goes_first_clockwise_from_the_helper(convention: str) -> None:
    # Boris (closed) helps; Anna and Vera tie on 4 points and 0 mountain. Clockwise from
    # Boris comes Vera before Anna: Vera takes the 2 points of his 6 (20 whists).
    lines = [*setup("Boris pool 10", "Anna pool 4", "Vera pool 4"), "game Boris 6s - Anna:p Vera:p"]
    assert last(play(lines, convention, target=10)) == {"pool:Vera": 2, "Boris>Vera": 20}


def test_help_never_goes_to_the_sitting_out_dealer() -> None:
    # 4 players, Boris deals and sits out; he has the most points (8) but cannot be helped.
    # Vera and Dima tie (4, mountain 0); clockwise from Anna: Boris (out), Vera → Vera.
    # Anna 9 makes a 7 both passed: 1 fits, 3 to Vera (30 whists).
    lines = [
        *setup("Anna pool 9", "Boris pool 8", "Vera pool 4", "Dima pool 4"),
        "game Anna 7h - Vera:p Dima:p @Boris",
    ]
    assert last(play(lines, players=P4, target=10)) == {
        "pool:Anna": 1,
        "pool:Vera": 3,
        "Anna>Vera": 30,
    }


def test_help_never_goes_to_a_whister_who_failed_his_norm_in_this_deal() -> None:
    # Anna 9, Boris 8 (most), Vera 2. Anna plays a 6 and takes 8 against Boris alone:
    # d = 2 < 4, Boris pays 2 × 2 = 4 into his mountain and writes 2 × 2 = 4 whists.
    # Anna's 2 points: 1 fits, 1 helps, but not Boris: Vera gets it (10 whists).
    lines = [*setup("Anna pool 9", "Boris pool 8", "Vera pool 2"), "game Anna 6s 8 Boris:w Vera:p"]
    assert last(play(lines, target=10)) == {
        "pool:Anna": 1,
        "mountain:Boris": 4,
        "Boris>Anna": 4,
        "pool:Vera": 1,
        "Anna>Vera": 10,
    }


def test_help_a_whister_who_met_the_norm_can_be_helped() -> None:
    # As above but Anna takes 6: d = 4, Boris writes 4 × 2 = 8, no shortfall; he gets the point.
    lines = [*setup("Anna pool 9", "Boris pool 8", "Vera pool 2"), "game Anna 6s 6 Boris:w Vera:p"]
    assert last(play(lines, target=10)) == {
        "pool:Anna": 1,
        "Boris>Anna": 8,
        "pool:Boris": 1,
        "Anna>Boris": 10,
    }


def test_help_applies_to_a_made_misere() -> None:
    # Anna 10, Boris 5, Vera 3; misère made: 10 points. Boris (most) needs 5 (50 whists),
    # Vera takes the other 5 (50 whists).
    lines = [*setup("Anna pool 10", "Boris pool 5", "Vera pool 3"), "misere Anna 0"]
    assert last(play(lines, target=10)) == {
        "pool:Boris": 5,
        "Anna>Boris": 50,
        "pool:Vera": 5,
        "Anna>Vera": 50,
    }


def test_help_applies_to_a_half_whisted_game() -> None:
    # Anna 10, Boris 5, Vera 3; 6 half-whisted by Vera: Vera writes 2 × 2 = 4; Anna's 2
    # points go to Boris (most), 20 whists.
    lines = [*setup("Anna pool 10", "Boris pool 5", "Vera pool 3"), "game Anna 6s - Boris:p Vera:h"]
    assert last(play(lines, target=10)) == {"Vera>Anna": 4, "pool:Boris": 2, "Anna>Boris": 20}


def test_help_whists_per_point_is_an_option() -> None:
    lines = [*setup("Anna pool 10", "Boris pool 5", "Vera pool 3"), "game Anna 7h - Boris:p Vera:p"]
    assert last(play(lines, target=10, help_whists=5)) == {"pool:Boris": 4, "Anna>Boris": 20}


def test_all_pass_bonus_never_helps_it_is_written_off_the_mountain_once_closed() -> None:
    # Anna closed (10) with mountain 5; all-pass at 1 with Anna on 0 tricks: her bonus of 1
    # helps nobody and writes her mountain off to 4. Boris 6, Vera 4 into the mountain.
    lines = [*setup("Anna pool 10", "Anna mountain 5"), "passes Anna=0 Boris=6 Vera=4"]
    assert last(play(lines, target=10)) == {
        "mountain:Anna": -1,
        "mountain:Boris": 6,
        "mountain:Vera": 4,
    }


def test_all_pass_bonus_part_that_does_not_fit_is_written_off() -> None:
    # Anna 9, mountain 5. First all-pass (price 1): Anna 1, Boris 5, Vera 4 into the mountain.
    # Second (price 2), Anna 0 tricks: bonus 2, 1 fits (pool 10), 1 writes her mountain
    # 6 → 5; Boris 6 × 2 = 12, Vera 4 × 2 = 8.
    lines = [
        *setup("Anna pool 9", "Anna mountain 5"),
        "passes Anna=1 Boris=5 Vera=4",
        "passes Anna=0 Boris=6 Vera=4",
    ]
    assert last(play(lines, target=10)) == {
        "pool:Anna": 1,
        "mountain:Anna": -1,
        "mountain:Boris": 12,
        "mountain:Vera": 8,
    }


def test_all_pass_bonus_with_no_mountain_to_write_off_goes_onto_the_others() -> None:
    # "written off his mountain the same way": with nothing to write off, the point is added
    # to every other mountain (engine reading of "the same way"). Boris 6 + 1, Vera 4 + 1.
    lines = [*setup("Anna pool 10"), "passes Anna=0 Boris=6 Vera=4"]
    assert last(play(lines, target=10)) == {"mountain:Boris": 7, "mountain:Vera": 5}


def test_leningrad_has_no_help_the_pool_runs_on() -> None:
    lines = [*setup("Anna pool 18", "Boris pool 5"), "game Anna 7h - Boris:p Vera:p"]
    sheet = play(lines, "leningrad")
    assert last(sheet) == {"pool:Anna": 4}
    assert sheet.pool["Anna"] == 22


def test_help_none_with_closing_each_caps_the_pool_and_writes_off() -> None:
    # The presets pair help = none only with closing = total (Leningrad). For a house rule of
    # closing = each with no help, the engine still caps the pool at the target and treats
    # the excess as points nobody can take (docs/rules.md §4.5): Anna (10, mountain 0) plays
    # a 7: 4 onto Boris's and Vera's mountains.
    lines = [*setup("Anna pool 10", "Boris pool 5"), "game Anna 7h - Boris:p Vera:p"]
    assert last(play(lines, target=10, help="none")) == {"mountain:Boris": 4, "mountain:Vera": 4}


# =========================================================================================
# Adjustments: manual writes with a note
# =========================================================================================


def test_adjustments_write_exactly_what_they_say() -> None:
    sheet = play(["adjust Anna --pool 2 --mountain 4 --whists Boris=10 --note 'talon peek'"])
    assert totals(sheet) == {"pool:Anna": 2, "mountain:Anna": 4, "Anna>Boris": 10}


def test_adjustments_may_be_negative_and_fractional() -> None:
    sheet = play(["adjust Anna --mountain 5 --note a", "adjust Anna --mountain -2.5 --note b"])
    assert totals(sheet) == {"mountain:Anna": Fraction(5, 2)}


def test_adjustments_go_straight_into_the_pool_without_cap_or_help() -> None:
    # Engine's choice (docs/rules.md §2): a manual correction is written as given.
    sheet = play(setup("Anna pool 12"), target=10)
    assert totals(sheet) == {"pool:Anna": 12}


def test_adjustments_in_four_players_have_no_dealer_and_do_not_move_the_deal() -> None:
    # Anna deals the first contract, the adjustment has no dealer, Boris deals the next one.
    # The sitting-out player can be adjusted like anyone: Dima writes 3 whists on Anna.
    lines = [
        "game Boris 6s - Vera:p Dima:p",
        "adjust Dima --whists Anna=3 --note 'talon peek'",
        "game Vera 6s - Dima:p Anna:p",
    ]
    game = game_of(lines, players=P4)
    assert [e.dealer for e in game.entries] == ["Anna", None, "Boris"]
    assert totals(sheet_of(game)) == {"pool:Boris": 2, "Dima>Anna": 3, "pool:Vera": 2}


def test_an_adjustment_after_the_game_finished_is_no_problem() -> None:
    assert play([*TENS, "adjust Anna --mountain 1 --note late"], target=10).problems == ()


# =========================================================================================
# 2  The sheet is a pure function of the record and the convention: re-scoring
# =========================================================================================

RECORD = ["game Anna 7h 5 Boris:w Vera:p", PASS]


@pytest.mark.parametrize(
    ("convention", "expected"),
    [
        # 7 taken with 5 (u = 2, d = 5) against Boris alone, then an all-pass 2-5-3.
        # Sochi: mountain 2×4 = 8; greedy Boris 5×4 + 2×4 = 28, Vera 8; all-pass at 1.
        (
            "sochi",
            {"mountain:Anna": 10, "mountain:Boris": 5, "mountain:Vera": 3, "Boris>Anna": 28, "Vera>Anna": 8},
        ),
        # Leningrad: mountain 2×4×2 = 16; gentleman (5×8 + 2×2×8) / 2 = 36 each; all-pass at 2.
        (
            "leningrad",
            {"mountain:Anna": 20, "mountain:Boris": 10, "mountain:Vera": 6, "Boris>Anna": 36, "Vera>Anna": 36},
        ),
        # Rostov: mountain 8; gentleman (5×4 + 2×2×10) / 2 = 30 each; Anna (2 tricks) writes
        # 5 × 3 = 15 on Boris and 5 × 1 = 5 on Vera.
        (
            "rostov",
            {"mountain:Anna": 8, "Boris>Anna": 30, "Vera>Anna": 30, "Anna>Boris": 15, "Anna>Vera": 5},
        ),
    ],
)  # fmt: skip
def test_rescoring_the_same_record_under_another_convention(
    convention: str, expected: dict[str, int]
) -> None:
    game = game_of(RECORD, "sochi")
    before = copy.deepcopy(game)
    sheet = score(game, load_preset(convention))
    assert totals(sheet) == expected
    assert sheet.convention.name.lower() == convention
    assert game == before  # the record is not touched


def test_scoring_twice_gives_the_same_sheet() -> None:
    game = game_of([*RECORD, "misere Boris 1", "game Vera 6s - Anna:p Boris:h"])
    assert totals(sheet_of(game)) == totals(sheet_of(game))
    assert [s.writes for s in sheet_of(game).scored] == [s.writes for s in sheet_of(game).scored]


def test_the_sheet_has_every_player_and_every_whist_column() -> None:
    sheet = play([], players=P4)
    assert set(sheet.pool) == set(sheet.mountain) == set(P4)
    assert {a: set(row) for a, row in sheet.whists.items()} == {a: set(P4) - {a} for a in P4}


# =========================================================================================
# Every write carries a reason with its numbers
# =========================================================================================

VARIED_3 = [
    "game Anna 7h 7 Boris:w Vera:p",
    "game Boris 6s 5 Vera:w3 Anna:w2",
    PASS,
    "passes Anna=0 Boris=6 Vera=4",
    "game Vera 7d - Anna:p Boris:p",
    "misere Anna 0",
    "game Boris 8nt 7 Anna:w Vera:p",
    "game Vera 6c - Anna:p Boris:h",
    "misere Boris 2",
    "game Anna 6d 8 Boris:w Vera:p",
    "game Boris 9h 10 Anna:w0 Vera:w0",
    "passes Anna=2 Boris=6 Vera=2",
    "game Vera 10nt 10 Anna:w Boris:p",
    "game Anna 10nt 10 Boris:w Vera:p",
    "game Anna 10nt 10 Boris:w Vera:p",
]


@pytest.mark.parametrize("convention", PRESETS)
def test_every_write_has_a_reason_that_shows_its_amount(convention: str) -> None:
    game = game_of(VARIED_3, convention, target=10)
    sheet = sheet_of(game, preset(convention, passes_amnesty=convention == "leningrad"))
    writes = [w for s in sheet.scored for w in s.writes]
    assert len(writes) > 20
    for w in writes:
        assert w.reason.strip(), w
        assert fmt(abs(w.amount)) in w.reason, (w.reason, w.amount)


def test_every_write_in_four_players_has_a_reason_that_shows_its_amount() -> None:
    lines = [
        "game Anna 6s 4 Boris:w4 Vera:w2 @Dima",
        "game Anna 6s 4 Boris:w Vera:p @Dima",
        "passes Anna=3 Boris=5 Vera=2 @Dima",
        "game Boris 7c - Vera:p Dima:h @Anna",
    ]
    for convention in PRESETS:
        sheet = play(lines, convention, P4)
        for w in (w for s in sheet.scored for w in s.writes):
            assert w.reason.strip(), w
            assert fmt(abs(w.amount)) in w.reason, (w.reason, w.amount)


def _reasons(sheet: Sheet, needle: str) -> list[str]:
    return [w.reason for w in sheet.scored[-1].writes if needle in w.reason]


def test_consolation_reason_shows_undertricks_price_and_amount() -> None:
    # 7 taken with 5: 2 undertricks × 4 = 8 for each whister.
    sheet = play(["game Anna 7h 5 Boris:w3 Vera:w2"])
    for reason in _reasons(sheet, "consolation"):
        assert "2 undertricks" in reason and "4" in reason and "8" in reason
    assert len(_reasons(sheet, "consolation")) == 2


def test_remise_reason_shows_the_leningrad_factor() -> None:
    # 2 undertricks × 4 × 2 = 16.
    (reason,) = _reasons(play(["game Anna 7h 5 Boris:w3 Vera:w2"], "leningrad"), "remise")
    assert "2 undertricks" in reason and "× 2" in reason and "16" in reason


def test_shortfall_reason_shows_missing_tricks_and_price() -> None:
    # 2 missing × 2 = 4.
    (reason,) = _reasons(play(["game Anna 6s 8 Boris:w Vera:p"]), "shortfall")
    assert "2 missing" in reason and "4" in reason


def test_help_reason_shows_points_and_whists_per_point() -> None:
    lines = [*setup("Anna pool 10", "Boris pool 5", "Vera pool 3"), "game Anna 7h - Boris:p Vera:p"]
    (reason,) = _reasons(play(lines, target=10), "help to")
    assert "Boris" in reason and "4 points" in reason and "10" in reason and "40" in reason


def test_adjustment_reason_shows_its_amount() -> None:
    sheet = play(["adjust Anna --pool 2 --mountain 4 --whists Boris=10 --note 'talon peek'"])
    for w in sheet.scored[0].writes:
        assert fmt(abs(w.amount)) in w.reason, w.reason


def test_adjustment_reason_carries_the_note() -> None:
    sheet = play(["adjust Anna --mountain 4 --note 'talon peek'"])
    (w,) = sheet.scored[0].writes
    assert "talon peek" in w.reason
    assert isinstance(sheet.scored[0].entry.deal, Adjustment)


def test_every_write_goes_to_one_of_the_three_columns() -> None:
    assert get_args(Column) == (POOL, MOUNTAIN, WHISTS) == ("pool", "mountain", "whists")
    sheet = sheet_of(sample_game())
    columns = {w.column for s in sheet.scored for w in s.writes}
    assert columns == {POOL, MOUNTAIN, WHISTS}
    for s in sheet.scored:
        for w in s.writes:
            assert (w.on is not None) == (w.column == WHISTS), w
