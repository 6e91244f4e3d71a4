"""End-of-night settlement (docs/rules.md §5): pools to mountains, amnesty, the two
traditional methods, rounding policies, money and payments.

Everything is exact (``Fraction``) until a rounding policy says otherwise; ``whole`` rounds
exactly where docs/rules.md §5.5 says each method rounds on paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.lexicon import METHODS as METHODS
from prefcalc.rules.lexicon import ROUNDINGS as ROUNDINGS
from prefcalc.rules.lexicon import Method as Method
from prefcalc.rules.lexicon import Rounding as Rounding
from prefcalc.rules.lexicon import parse_method, parse_rounding
from prefcalc.rules.scoring import Sheet

# ISO 4217 minor units for the currencies a table is likely to play for; others use 2.
_MINOR_UNITS = {
    "JPY": 0,
    "KRW": 0,
    "VND": 0,
    "CLP": 0,
    "ISK": 0,
    "HUF": 2,
    "KWD": 3,
    "BHD": 3,
    "TND": 3,
}


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Amount


@dataclass(frozen=True)
class Settlement:
    """The steps of one method, as a player would do them on paper, and the outcome."""

    method: Method
    rounding: Rounding
    players: tuple[str, ...]
    pools: dict[str, Amount]
    pool_max: Amount
    pool_factor: Amount
    mountains: dict[str, Amount]  # after the unclosed pools were added
    amnesty: Amount  # the smallest mountain, subtracted from all
    amnestied: dict[str, Amount]
    average: Amount  # method 2's average mountain (shown for both)
    mountain_entries: dict[str, Amount]  # method 1: whists every opponent writes on the player
    pairwise: dict[tuple[str, str], Amount]  # method 1: (a, b) -> what a gains from b
    mountain_whists: dict[str, Amount]  # method 2: 10 x (avg - m_i)
    game_whists: dict[str, Amount]  # net whists written during play
    whists: dict[str, Amount]  # the result in whists
    whist_price: Amount
    currency: str
    money: dict[str, Amount]
    payments: tuple[Payment, ...]
    prizes: tuple[Prize, ...] = ()
    """Prize whists (docs/rules.md §8.6), counted as game whists by both methods."""
    combination: tuple[str, ...] = ()
    """How the "Preference" combination ended the game (docs/rules.md §8.5), one line per write."""
    pool_average: Amount | None = None
    """Under ``closing = average`` (docs/rules.md §5.9): the average pool every pool is compared
    with (the pools then go into no mountain: ``pool_factor`` is 0); ``None`` otherwise."""
    pool_rate: int = 0
    """Under ``closing = average``: the whists of a pool point (``pool_whists``)."""
    pool_results: dict[str, Amount] = field(default_factory=dict)
    """Under ``closing = average``: ``pool_whists × (pool − average pool)``, each player's pool
    result (method 2 adds it; method 1 gets the same through :attr:`pool_entries`)."""
    pool_entries: dict[str, Amount] = field(default_factory=dict)
    """Under ``closing = average``, method 1: ``pool_whists × pool / N``, the whists each
    player writes on every opponent for his pool."""


@dataclass(frozen=True)
class Prize:
    """One prize write: ``writer`` writes ``amount`` whists on ``on`` for ``why``."""

    writer: str
    on: str
    amount: Amount
    why: str


def prizes(sheet: Sheet, mountains: dict[str, Amount]) -> tuple[Prize, ...]:
    """The prizes of a "horse-race" game (docs/rules.md §8.6, §8.8): the first player to
    close writes ``prizes.first_close`` on every other player; the player(s) with the
    smallest mountain (after the unclosed pools went into the mountains, before the amnesty)
    write ``prizes.min_mountain`` on every player not tied with them; when all tie, nobody."""
    conv = sheet.convention
    out: list[Prize] = []
    players = sheet.players
    first = conv.prizes_first_close
    if first and sheet.first_closed is not None:
        out += [
            Prize(sheet.first_closed, p, first, "prize: first to close the pool")
            for p in players
            if p != sheet.first_closed
        ]
    low_prize = conv.prizes_min_mountain
    if low_prize:
        low = min(mountains.values())
        lowest = [p for p in players if mountains[p] == low]
        if len(lowest) < len(players):
            for writer in lowest:
                out += [
                    Prize(writer, p, low_prize, "prize: the smallest mountain")
                    for p in players
                    if p not in lowest
                ]
    return tuple(out)


def minor_unit(currency: str) -> Fraction:
    """The smallest unit of ``currency`` (0.01 for EUR, 1 for JPY)."""
    return Fraction(1, 10 ** _MINOR_UNITS.get(currency.upper(), 2))


def round_half_up(value: Amount) -> int:
    """Round to the nearest whole number, halves away from zero (symmetric)."""
    value = Fraction(value)
    whole = int((abs(value) + Fraction(1, 2)) // 1)
    return whole if value >= 0 else -whole


def largest_remainder(values: Sequence[Amount], unit: Fraction = Fraction(1)) -> list[Amount]:
    """Round ``values`` (which add up to zero) to multiples of ``unit``, keeping the sum.

    Each value is rounded down; the units still missing go to the largest remainders,
    equal remainders to the earlier players in seating order.
    """
    scaled = [Fraction(v) / unit for v in values]
    floors = [s.numerator // s.denominator for s in scaled]
    missing = round(sum(scaled)) - sum(floors)
    order = sorted(range(len(values)), key=lambda i: (-(scaled[i] - floors[i]), i))
    for i in order[:missing]:
        floors[i] += 1
    return [norm(f * unit) for f in floors]


def _game_whists(sheet: Sheet, w: dict[str, dict[str, Amount]]) -> dict[str, Amount]:
    return {
        a: norm(sum((w[a][b] - w[b][a] for b in sheet.players if b != a), Fraction(0)))
        for a in sheet.players
    }


def settle(
    sheet: Sheet,
    method: Method | str = "pairwise",
    rounding: Rounding | str = "exact",
    whist_price: Amount = 1,
    currency: str = "",
) -> Settlement:
    """Settle ``sheet`` by ``method`` under ``rounding`` (either named in either language:
    :func:`~prefcalc.rules.lexicon.parse_method`); works at any moment of a game."""
    method = parse_method(method)
    rounding = parse_rounding(rounding)
    players = sheet.players
    n = len(players)
    conv = sheet.convention
    average_pools = conv.closing == "average"
    factor = 0 if average_pools else conv.pool_to_mountain
    pool_max = max(sheet.pool.values())
    mountains = {p: norm(sheet.mountain[p] + factor * (pool_max - sheet.pool[p])) for p in players}
    pool_average: Amount | None = None
    pool_results: dict[str, Amount] = {}
    pool_entries: dict[str, Amount] = {}
    if average_pools:  # docs/rules.md §5.9: every pool against the average, pool_whists a point
        rate = conv.pool_whists
        pool_average = norm(Fraction(sum(sheet.pool.values(), Fraction(0))) / n)
        pool_results = {p: norm(rate * (sheet.pool[p] - pool_average)) for p in players}
        pool_entries = {p: norm(Fraction(rate * sheet.pool[p]) / n) for p in players}
    low = min(mountains.values())
    m = {p: norm(mountains[p] - low) for p in players}
    average = norm(Fraction(sum(m.values()), n))
    won = prizes(sheet, mountains) if _has_prizes(sheet) else ()
    whists = sheet.whists
    if won:
        whists = {a: dict(row) for a, row in whists.items()}
        for prize in won:
            whists[prize.writer][prize.on] = norm(whists[prize.writer][prize.on] + prize.amount)
    game = _game_whists(sheet, whists)
    entries = {p: norm(Fraction(10 * m[p], n)) for p in players}
    mountain_whists = {p: norm(10 * (average - m[p])) for p in players}
    pairwise: dict[tuple[str, str], Amount] = {}
    if method == "pairwise":
        if rounding == "whole":
            entries = {p: round_half_up(v) for p, v in entries.items()}
            pool_entries = {p: round_half_up(v) for p, v in pool_entries.items()}
        pooled = pool_entries or dict.fromkeys(players, 0)
        for a in players:
            for b in players:
                if a != b:
                    diff = norm(
                        whists[a][b]
                        + entries[b]
                        + pooled[a]
                        - whists[b][a]
                        - entries[a]
                        - pooled[b]
                    )
                    if rounding == "whole":
                        diff = round_half_up(diff)
                    pairwise[(a, b)] = diff
        result = {
            a: norm(sum((pairwise[(a, b)] for b in players if b != a), Fraction(0)))
            for a in players
        }
    else:
        if rounding == "whole":
            mountain_whists = dict(
                zip(players, largest_remainder(list(mountain_whists.values())), strict=True)
            )
            game = dict(zip(players, largest_remainder(list(game.values())), strict=True))
            if pool_results:
                pool_results = dict(
                    zip(players, largest_remainder(list(pool_results.values())), strict=True)
                )
        result = {p: norm(mountain_whists[p] + game[p] + pool_results.get(p, 0)) for p in players}
    money_exact = [Fraction(result[p]) * Fraction(whist_price) for p in players]
    money = dict(zip(players, largest_remainder(money_exact, minor_unit(currency)), strict=True))
    return Settlement(
        method=method,
        rounding=rounding,
        players=players,
        pools=dict(sheet.pool),
        pool_max=pool_max,
        pool_factor=factor,
        mountains=mountains,
        amnesty=low,
        amnestied=m,
        average=average,
        mountain_entries=entries,
        pairwise=pairwise,
        mountain_whists=mountain_whists,
        game_whists=game,
        whists=result,
        whist_price=whist_price,
        currency=currency,
        money=money,
        payments=tuple(payments(money, players)),
        prizes=won,
        combination=_combination(sheet),
        pool_average=pool_average,
        pool_rate=conv.pool_whists if average_pools else 0,
        pool_results=pool_results,
        pool_entries=pool_entries,
    )


def _combination(sheet: Sheet) -> tuple[str, ...]:
    """The writes of the "Preference" combination that ended the game, if one did."""
    from prefcalc.rules.amounts import fmt
    from prefcalc.rules.model import Preference

    for scored in sheet.scored:
        deal = scored.entry.deal
        if isinstance(deal, Preference) and scored.writes:
            head = f"{deal.player}'s Preference combination (deal {scored.number}) ended the game:"
            return (
                head,
                *(f"{w.player}: {fmt(w.amount)} {w.target} ({w.reason})" for w in scored.writes),
            )
    return ()


def _has_prizes(sheet: Sheet) -> bool:
    conv = sheet.convention
    return bool(conv.prizes_first_close or conv.prizes_min_mountain)


def payments(balances: dict[str, Amount], order: Sequence[str]) -> list[Payment]:
    """Who pays whom: the biggest debtor pays the biggest creditor until all are square.

    Each transfer settles at least one balance, so there are at most N - 1 of them.
    """
    left = {p: Fraction(balances[p]) for p in order}
    out: list[Payment] = []
    while True:
        debtors = [p for p in order if left[p] < 0]
        creditors = [p for p in order if left[p] > 0]
        if not debtors or not creditors:
            break
        payer = min(debtors, key=lambda p: (left[p], order.index(p)))
        payee = max(creditors, key=lambda p: (left[p], -order.index(p)))
        amount = min(-left[payer], left[payee])
        out.append(Payment(payer, payee, norm(amount)))
        left[payer] += amount
        left[payee] -= amount
    return out


def to_decimal(value: Amount, unit: Fraction) -> Decimal:
    """A money amount (a multiple of ``unit``) as a Decimal with the unit's places."""
    places = len(str(unit.denominator)) - 1
    return (Decimal(Fraction(value).numerator) / Decimal(Fraction(value).denominator)).quantize(
        Decimal(1).scaleb(-places)
    )
