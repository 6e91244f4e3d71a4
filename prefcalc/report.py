"""One finished report of a game, built once and handed to every view that shows the night.

The PDF, the workbook, ``prefcalc share`` (its text and its picture) and the night's chart of
the running balance all show the same results: the sheet, the settlement by both methods at
the whist price in force, every player's balance after each deal. :func:`build_report`
computes them once from the record and its sheet; the views receive the :class:`Report` and
never settle, score or look up the price themselves.

The whist price has several meanings in the code; the report holds the one a view shows:

* ``Game.whist_price`` is the *opening* price, the one agreed at ``new`` (the ledger's
  ``whist_price`` key);
* :func:`prefcalc.rules.model.price_in_force` is the price *in force*: the last ``set whist_price``
  of the record, else the opening price; it prices the whole night at the settlement;
* ``Settlement.whist_price`` is the price a settlement was computed with (the price in force,
  when the settlement comes from :func:`prefcalc.api.settle` or a report);
* ``Report.price`` is the price in force, the one every export shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import Game, Join, deal_count, price_in_force, seating
from prefcalc.rules.scoring import Sheet
from prefcalc.rules.settlement import Method, Rounding, Settlement, settle


@dataclass(frozen=True)
class Report:
    """Everything the exports show of one game, computed once (see the module's docstring)."""

    game: Game
    sheet: Sheet
    seating: tuple[str, ...]
    """The players in seating order after the whole record (a late joiner in his seat)."""
    price: Amount
    """The whist price in force (after any ``set whist_price``)."""
    currency: str
    pairwise: Settlement
    """The settlement by method 1 (pairwise), exact."""
    average: Settlement
    """The settlement by method 2 (average mountain), exact."""
    pairwise_whole: Settlement
    """Method 1 with the paper's whole-whist rounding (the workbook's second table)."""
    average_whole: Settlement
    """Method 2 with the paper's whole-whist rounding."""
    balances: tuple[dict[str, Amount], ...]
    """Every player's balance in whists after each deal (:func:`running_balance`)."""
    deals: int
    """The number of deals (set and join entries are not deals)."""
    created: str
    """When the game was started (ISO time with its UTC offset; empty when unknown)."""

    @property
    def convention(self) -> Convention:
        """The convention in force (the one the sheet was scored under)."""
        return self.sheet.convention

    @property
    def players(self) -> tuple[str, ...]:
        """The players seated at the end, as the sheet lists them."""
        return self.sheet.players

    @property
    def finished(self) -> bool:
        return self.sheet.finished

    @property
    def date(self) -> str:
        """The day the game was started (``2026-11-14``), empty when unknown."""
        return self.created[:10]

    def settlement(self, method: Method = "pairwise", rounding: Rounding = "exact") -> Settlement:
        """One of the four settlements the report holds."""
        table: dict[tuple[str, str], Settlement] = {
            ("pairwise", "exact"): self.pairwise,
            ("average", "exact"): self.average,
            ("pairwise", "whole"): self.pairwise_whole,
            ("average", "whole"): self.average_whole,
        }
        found = table.get((method, rounding))
        if found is None:
            raise ValueError(f"no settlement {method!r} {rounding!r} in a report")
        return found


def build_report(game: Game, sheet: Sheet) -> Report:
    """The report of ``game`` scored as ``sheet`` (a pure function of the two)."""
    price, currency = price_in_force(game), game.currency
    return Report(
        game=game,
        sheet=sheet,
        seating=seating(game),
        price=price,
        currency=currency,
        pairwise=settle(sheet, "pairwise", "exact", price, currency),
        average=settle(sheet, "average", "exact", price, currency),
        pairwise_whole=settle(sheet, "pairwise", "whole", price, currency),
        average_whole=settle(sheet, "average", "whole", price, currency),
        balances=tuple(running_balance(sheet)),
        deals=deal_count(game),
        created=game.created,
    )


def running_balance(sheet: Sheet) -> list[dict[str, Amount]]:
    """Each player's balance in whists after every deal of the night: what the settlement
    (exact; both methods agree) would give if the night stopped there, prizes included, so
    the last one is the settlement's.

    Computed from running totals, so a long night costs one pass: with ``m`` the mountains
    plus ``pool_to_mountain`` × the points missing to the largest pool, player i's result is
    ``10 × (average m − m_i) + net game whists`` (the amnesty changes no difference to the
    average), i.e. ``(10 × (Σm − N × m_i) + N × net_i) / N``, in whole numbers while the
    sheet is whole; under ``closing = average`` no pool goes into a mountain and player i
    adds ``pool_whists × (N × pool_i − Σ pools) / N`` (docs/rules.md §5.9). The prizes (docs/rules.md §8.6) are game whists: the first to close
    writes ``prizes.first_close`` on every other seated player from the deal he closed on
    (``Sheet.first_closed_at``); the smallest ``m`` writes ``prizes.min_mountain`` on every
    player not tied with it, after every deal.

    A player who joins later counts from his join on (N grows); before it his balance is 0.
    """
    players = sheet.players
    n = len(players)
    seat = {p: i for i, p in enumerate(players)}
    later = {s.entry.deal.player for s in sheet.scored if isinstance(s.entry.deal, Join)}
    here = [p not in later for p in players]
    conv = sheet.convention
    # closing = average (docs/rules.md §5.9): no pool goes into a mountain; every pool is
    # worth pool_whists a point against the average, i.e. rate × (k × pool_i − Σ pools) / k
    rate = conv.pool_whists if conv.closing == "average" else 0
    factor = 0 if rate else conv.pool_to_mountain
    first_prize = conv.prizes_first_close if sheet.first_closed is not None else 0
    closer = seat[sheet.first_closed] if sheet.first_closed is not None else -1
    closed_at = sheet.first_closed_at if sheet.first_closed_at is not None else -1
    low_prize = conv.prizes_min_mountain
    pool: list[Amount] = [0] * n
    mountain: list[Amount] = [0] * n
    net: list[Amount] = [0] * n  # whists written on others minus whists written on him
    out: list[dict[str, Amount]] = []
    last: dict[str, Amount] = dict.fromkeys(players, 0)
    for scored in sheet.scored:
        arrival = scored.entry.deal
        if isinstance(arrival, Join):
            here[seat[arrival.player]] = True
        if (
            scored.writes
            or isinstance(arrival, Join)
            or (first_prize and scored.number == closed_at)
        ):
            for w in scored.writes:
                i = seat[w.player]
                if w.column == "pool":
                    pool[i] += w.amount
                elif w.column == "mountain":
                    mountain[i] += w.amount
                elif w.on is not None:
                    net[i] += w.amount
                    net[seat[w.on]] -= w.amount
            seated = [i for i in range(n) if here[i]]
            k = len(seated)
            top = max(pool[i] for i in seated)
            full = [mountain[i] + factor * (top - pool[i]) if here[i] else 0 for i in range(n)]
            total = sum(full)
            pooled = sum(pool[i] for i in seated) if rate else 0
            won = _prizes(
                seated, full, closer if scored.number >= closed_at else -1, first_prize, low_prize
            )
            last = {}
            for i, p in enumerate(players):
                if not here[i]:
                    last[p] = 0
                    continue
                num = 10 * (total - k * full[i]) + k * (net[i] + won[i])
                if rate:
                    num += rate * (k * pool[i] - pooled)
                if num.__class__ is int:
                    last[p] = num // k if num % k == 0 else Fraction(num, k)
                else:
                    last[p] = norm(Fraction(num) / k)
        out.append(last)
    return out


def _prizes(
    seated: list[int], full: list[Amount], closer: int, first: int, low_prize: int
) -> list[Amount]:
    """Every seat's net prize whists (written minus written on him) if the night stopped
    here: ``closer`` (``-1``: nobody yet) writes ``first`` on every other seated player;
    the smallest mountains write ``low_prize`` on every seated player not tied with them
    (nobody when all tie), as :func:`prefcalc.rules.settlement.prizes` writes them."""
    won: list[Amount] = [0] * len(full)
    if first and closer >= 0:
        for i in seated:
            if i != closer:
                won[closer] += first
                won[i] -= first
    if low_prize:
        low = min(full[i] for i in seated)
        lowest = [i for i in seated if full[i] == low]
        if len(lowest) < len(seated):
            for writer in lowest:
                for i in seated:
                    if i not in lowest:
                        won[writer] += low_prize
                        won[i] -= low_prize
    return won


__all__ = ["Report", "build_report", "running_balance"]
