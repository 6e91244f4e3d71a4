"""The report (:mod:`prefcalc.report`): everything the exports show of one game, built once.

Hand-computed numbers for a small night, the report's parts against the functions they are
made of, the exports working from a prebuilt report with every settling and scoring function
broken (they never compute again), the command line building it once, and the names of the
whist price (the opening price and the price in force). The running balance ends on the
settlement, prizes included.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from support import invoke, make_game, sheet_of

import prefcalc
import prefcalc.api
import prefcalc.report
import prefcalc.rules.model
import prefcalc.rules.scoring
import prefcalc.rules.settlement
from prefcalc import api
from prefcalc.report import Report, build_report, running_balance
from prefcalc.rules.model import Game, seating
from prefcalc.rules.settlement import settle

P3 = ["Anna", "Boris", "Vera"]
EXPORTS = Path(prefcalc.__file__).parent


def repriced() -> Game:
    """Anna's 6♠ unplayed (both pass: 2 in her pool), then the price changed from 1 to 0.5."""
    game = make_game(P3, ["game Anna 6s - Boris:p Vera:p"], currency="EUR")
    return api.set_term(game, "whist_price=0.5")


def late_joiner() -> Game:
    return make_game(
        P3,
        [
            "game Anna 7s 7 Boris:w Vera:p",
            "join Dima --after Vera",
            "game Vera 6h 6 Anna:w Dima:p",
            "passes Anna=2 Boris=3 Dima=5",
        ],
        whist_price=Fraction(1, 4),
        currency="USD",
    )


def test_a_small_night_by_hand() -> None:
    """The pools close into the mountains (pool_to_mountain 1): Boris and Vera 2 each,
    average 4/3. Exact: Anna +10 × 4/3 = +40/3, Boris and Vera −20/3 (both methods). At 0.5
    a whist: Anna 6.67 EUR, Boris −3.33, Vera −3.34 (largest remainder). Method 1 rounded
    on paper: the mountain entries 10 × 2/3 = 6.67 round to 7, so Anna +14, the others −7."""
    game = repriced()
    r = api.report(game)
    assert game.whist_price == 1 and r.price == Fraction(1, 2)  # opening vs in force
    assert r.currency == "EUR" and r.deals == 1 and r.seating == tuple(P3)  # a set is no deal
    assert r.created == game.created and r.date == "2026-11-30"
    assert r.convention.name == "Sochi" and not r.finished and r.players == tuple(P3)
    exact = {"Anna": Fraction(40, 3), "Boris": Fraction(-20, 3), "Vera": Fraction(-20, 3)}
    for s in (r.pairwise, r.average):
        assert s.whists == exact and s.whist_price == Fraction(1, 2)
        assert s.money == {
            "Anna": Fraction(667, 100),
            "Boris": Fraction(-333, 100),
            "Vera": Fraction(-334, 100),
        }
    assert (r.pairwise.method, r.pairwise.rounding) == ("pairwise", "exact")
    assert (r.average.method, r.average.rounding) == ("average", "exact")
    assert r.pairwise_whole.whists == {"Anna": 14, "Boris": -7, "Vera": -7}
    assert r.pairwise_whole.money == {"Anna": 7, "Boris": Fraction(-7, 2), "Vera": Fraction(-7, 2)}
    assert (r.average_whole.method, r.average_whole.rounding) == ("average", "whole")
    assert sum(r.average_whole.whists.values()) == 0
    assert all(isinstance(v, int) for v in r.average_whole.whists.values())
    # after the deal and after the change of price (which moves no whist)
    assert r.balances == (exact, exact)


def test_the_report_is_made_of_the_engines_results() -> None:
    game = late_joiner()
    sheet = sheet_of(game)
    r = build_report(game, sheet)
    assert r.sheet is sheet and r.game is game
    assert r.seating == seating(game) == ("Anna", "Boris", "Vera", "Dima")
    assert r.price == Fraction(1, 4) and r.currency == "USD"
    for method in ("pairwise", "average"):
        for rounding in ("exact", "whole"):
            assert r.settlement(method, rounding) == settle(
                sheet, method, rounding, Fraction(1, 4), "USD"
            )
    assert r.settlement() is r.pairwise
    assert r.balances == tuple(running_balance(sheet))
    assert r.balances[-1] == dict(r.pairwise.whists)
    with pytest.raises(ValueError, match="no settlement"):
        r.settlement("median")
    with pytest.raises(AttributeError):
        r.price = 2  # type: ignore[misc]  # frozen


def test_api_report_scores_under_another_convention_when_asked() -> None:
    game = repriced()
    r = api.report(game, "leningrad")
    assert r.convention.name == api.sheet(game, "leningrad").convention.name
    assert r.pairwise == api.settle(game, convention="leningrad")


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("an export computed a result again")


@pytest.fixture
def nothing_computes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Break every function that settles, scores or finds the price, however it is imported
    (the code of the function itself is replaced, so a name bound by ``from … import`` fails
    too), and the API's entry points."""
    for function in (
        prefcalc.rules.settlement.settle,
        prefcalc.rules.model.price_in_force,
        prefcalc.report.running_balance,
        prefcalc.report.build_report,
        prefcalc.rules.scoring.score,
        prefcalc.rules.scoring.replay,
        prefcalc.rules.scoring.resume,
    ):
        monkeypatch.setattr(function, "__code__", _boom.__code__)
    for name in ("sheet", "settle", "price_in_force", "report", "rules"):
        monkeypatch.setattr(prefcalc.api, name, _boom)
    yield


def _reports() -> list[Report]:
    return [api.report(repriced()), api.report(late_joiner())]


def test_the_exports_work_from_a_prebuilt_report_alone(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from prefcalc.export.pdf import build_pdf, build_picture, night_series, result_lines
    from prefcalc.export.share import write_png
    from prefcalc.export.xlsx import workbook_bytes
    from prefcalc.views.history import share_text

    reports = _reports()
    before = [
        (
            build_pdf(r).data,
            build_picture(r).data,
            share_text(r),
            night_series(r),
            result_lines(r),
        )
        for r in reports
    ]
    request.getfixturevalue("nothing_computes")
    with pytest.raises(AssertionError, match="computed a result again"):
        settle(reports[0].sheet)  # the breakage is in force
    for k, r in enumerate(reports):
        after = (
            build_pdf(r).data,
            build_picture(r).data,
            share_text(r),
            night_series(r),
            result_lines(r),
        )
        assert after == before[k]
        assert workbook_bytes(r)[:2] == b"PK"
        write_png(r, tmp_path / f"{k}.png")
        assert (tmp_path / f"{k}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "6.67 EUR" in before[0][2] and "0.50 EUR" not in before[0][2]


def test_the_exports_show_the_reports_results(request: pytest.FixtureRequest) -> None:
    """A report whose results are not the game's own (the price of another record, at 1 a
    whist here): the exports show the report's, they do not look at the game again."""
    from prefcalc.export.pdf import result_lines
    from prefcalc.views.history import share_text

    game = make_game(P3, ["game Anna 6s - Boris:p Vera:p"], currency="EUR")
    real = _reports()[0]
    request.getfixturevalue("nothing_computes")
    r = Report(
        game=game,
        sheet=real.sheet,
        seating=real.seating,
        price=real.price,
        currency="EUR",
        pairwise=real.pairwise,
        average=real.average,
        pairwise_whole=real.pairwise_whole,
        average_whole=real.average_whole,
        balances=real.balances,
        deals=1,
        created=game.created,
    )
    assert "1. Anna +13⅓ (6.67 EUR)" in share_text(r).splitlines()[1]
    assert "6.67 EUR" in result_lines(r)[0][1]
    assert "1 deals so far" in share_text(r)


def test_no_export_module_settles_scores_or_prices() -> None:
    """The exports and the share views name none of the functions that compute results."""
    forbidden = ("settle(", "price_in_force(", "whist_price(", "running_balance(", "score(")
    for name in ("export/pdf.py", "export/xlsx.py", "export/share.py", "views/history.py"):
        text = (EXPORTS / name).read_text(encoding="utf-8")
        for word in forbidden:
            assert word not in text, (name, word)
        assert "api.sheet" not in text and "api.settle" not in text


@pytest.mark.parametrize(
    "args",
    [["export", "pdf"], ["export", "xlsx"], ["share"], ["share", "--png", "sheet.png"]],
    ids=["pdf", "xlsx", "share", "share-png"],
)
def test_the_command_line_builds_the_report_once(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prefcalc.store.ledger import game_to_json_text

    ledger = tmp_path / "night.json"
    ledger.write_text(game_to_json_text(repriced()), encoding="utf-8")
    built: list[Report] = []
    settled: list[str] = []
    real_build, real_settle = prefcalc.report.build_report, prefcalc.report.settle

    def counting_build(game: Game, sheet: Any) -> Report:
        built.append(real_build(game, sheet))
        return built[-1]

    def counting_settle(sheet: Any, method: str = "pairwise", *rest: Any) -> Any:
        settled.append(method)
        return real_settle(sheet, method, *rest)

    monkeypatch.setattr(prefcalc.report, "build_report", counting_build)
    monkeypatch.setattr(prefcalc.report, "settle", counting_settle)
    done = invoke([*args, "--file", str(ledger)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(built) == 1 and len(settled) == 4
    if args[0] == "share":
        assert "1. Anna +13⅓ (6.67 EUR)" in done.stdout


def test_the_whist_prices_are_named_apart() -> None:
    game = repriced()
    assert game.whist_price == 1  # the opening price: the ledger's whist_price key
    assert api.price_in_force(game) == prefcalc.rules.model.price_in_force(game) == Fraction(1, 2)
    assert api.settle(game).whist_price == Fraction(1, 2)
    # one name for the price in force: the former aliases are gone (issue 24)
    assert not hasattr(api, "whist_price")
    assert not hasattr(prefcalc.rules.model, "whist_price")
    assert "whist_price" not in api.__all__ and "price_in_force" in api.__all__
    # the package exports the report's type lazily (``prefcalc.report`` is its module)
    assert prefcalc.Report is Report
    assert prefcalc.report.build_report is build_report
    assert prefcalc.price_in_force is api.price_in_force


# --- the running balance ends on the settlement, prizes included (issue 24) ----------------

CLOSE_FIRST = ["game Anna 10nt - Boris:p Vera:p"]  # not played: 10 into Anna's pool, she closes


@pytest.mark.parametrize(
    ("prizes", "expected"),
    [
        # no prize: pools 10, 0, 0 -> mountains 0, 10, 10 (Σ 20): Anna 10 × (20 − 0) / 3,
        # Boris and Vera 10 × (20 − 30) / 3
        ({}, {"Anna": Fraction(200, 3), "Boris": Fraction(-100, 3), "Vera": Fraction(-100, 3)}),
        # first_close 10: Anna writes 10 on Boris and on Vera: +20 for her, −10 each
        (
            {"prizes.first_close": 10},
            {"Anna": Fraction(260, 3), "Boris": Fraction(-130, 3), "Vera": Fraction(-130, 3)},
        ),
        # min_mountain 5: Anna's 0 is the smallest mountain: 5 on each of the others
        (
            {"prizes.min_mountain": 5},
            {"Anna": Fraction(230, 3), "Boris": Fraction(-115, 3), "Vera": Fraction(-115, 3)},
        ),
        # both
        (
            {"prizes.first_close": 10, "prizes.min_mountain": 5},
            {"Anna": Fraction(290, 3), "Boris": Fraction(-145, 3), "Vera": Fraction(-145, 3)},
        ),
    ],
)
def test_the_running_balance_counts_every_prize(
    prizes: dict[str, object], expected: dict[str, Fraction]
) -> None:
    game = make_game(P3, CLOSE_FIRST, target=10, options=prizes)
    balances = running_balance(sheet_of(game))
    assert balances == [expected]
    for method in ("pairwise", "average"):
        assert api.settle(game, method).whists == expected  # type: ignore[arg-type]


def test_the_min_mountain_prize_of_tied_players_in_the_running_balance() -> None:
    # mountains 3, 3, 4 after one all-pass: Anna and Boris tie and each write 5 on Vera;
    # then an adjustment takes one off Vera's mountain and all three tie at 3: nobody writes
    lines = ["passes Anna=3 Boris=3 Vera=4", "adjust Vera --mountain -1 --note x"]
    game = make_game(P3, lines, options={"prizes.min_mountain": 5})
    balances = running_balance(sheet_of(game))
    for k, balance in enumerate(balances):
        part = game._replace(entries=game.entries[: k + 1])
        assert balance == api.settle(part).whists
    assert [p.writer for p in api.settle(game._replace(entries=game.entries[:1])).prizes] == [
        "Anna",
        "Boris",
    ]
    assert api.settle(game).prizes == ()


def test_the_balance_ends_on_the_settlement_with_a_first_close_prize_in_a_long_game() -> None:
    # the night: Sochi to 10, prizes.first_close = 10; the chart's last point was
    # the settlement without the prize (Anna −74/3 where she settles at −14/3)
    from support import random_game

    for seed in range(40):
        game = random_game(seed, 30, 3, "sochi", target=10, options={"prizes.first_close": 10})
        sheet = api.sheet(game)
        if sheet.first_closed is None:
            continue
        balances = running_balance(sheet)
        assert balances[-1] == dict(api.settle(game).whists)
        closed = sheet.first_closed_at
        assert closed is not None
        before = game._replace(entries=game.entries[: closed - 1])
        assert api.sheet(before).first_closed is None  # he closed on that very deal
        if closed > 1:
            assert balances[closed - 2] == dict(api.settle(before).whists)
        at = game._replace(entries=game.entries[:closed])
        assert balances[closed - 1] == dict(api.settle(at).whists)
