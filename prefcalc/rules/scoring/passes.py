"""An all-pass deal (docs/rules.md §4.4): the tricks priced into the mountains (or as whists
under ``passes.scoring = whists``), then the pool writes in seating order from the dealer's
left: the no-trick bonus, and the sitting-out dealer's bonus last. Under
``passes.dealer_plays_talon`` the sitting-out dealer's tricks (the two talon cards he led)
are among the deal's and priced like everybody's; he gets the no-trick bonus only under
``passes.dealer_zero_bonus``. The k-th all-pass deal in
a row is priced ``passes.prices`` (``passes.after_last`` beyond them); a deal of Classic's
opening circles is scored by its own rule (:func:`~prefcalc.rules.scoring.classic.score_opening`).
"""

from fractions import Fraction

from prefcalc.i18n import N_
from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import AllPass
from prefcalc.rules.penalties import counted
from prefcalc.rules.scoring.classic import blind_bombs, score_opening
from prefcalc.rules.scoring.closing import from_left, to_pool
from prefcalc.rules.scoring.sheet import Reason, product, told
from prefcalc.rules.scoring.state import Tally


def score_all_pass(t: Tally, conv: Convention, deal: AllPass) -> None:
    if deal.looked:  # one trick more for looking at an old trick (docs/rules.md §8.10)
        deal = counted(deal)
    if t.opening:
        score_opening(t, deal)
        return
    t.streak += 1
    price = t.price = conv.passes_price(t.streak)
    if conv.passes_scoring == "mountain":
        _into_mountains(t, conv, deal, price)
    else:
        _as_whists(t, conv, deal, price)
    low = min(n for _, n in deal.tricks)
    zero = conv.passes_zero_bonus
    bonus = zero if isinstance(zero, int) else price
    if bonus and low == 0:
        # the dealer playing the talon (passes.dealer_plays_talon) only under dealer_zero_bonus
        dealer = t.away[0] if t.away and not conv.passes_dealer_zero_bonus else -1
        for name, n in from_left(t, deal.tricks):
            if n == 0 and t.seat[name] != dealer:
                to_pool(t, t.seat[name], bonus, Reason(N_("all-pass: no tricks"), {}), helps=False)
    if t.away and conv.passes_dealer_bonus:  # the dealer only, also at five (docs/rules.md §8.8)
        why = Reason(N_("all-pass: dealer's bonus"), {})
        to_pool(t, t.away[0], conv.passes_dealer_bonus, why, helps=False)
    if deal.blind:
        blind_bombs(t, conv, deal)


def _into_mountains(t: Tally, conv: Convention, deal: AllPass, price: Amount) -> None:
    """Each player's tricks × the price into his mountain; with ``passes.amnesty`` the
    fewest tricks anyone took are not counted."""
    low = min(n for _, n in deal.tricks) if conv.passes_amnesty else 0
    for name, n in deal.tricks:
        if n - low:
            if low:
                term = product(
                    N_("all-pass: ({n} − {low}) tricks × {price} = {amount}"),
                    ("counted", "price"),
                    n=n,
                    low=low,
                    counted=n - low,
                    price=price,
                )
            else:
                term = product(
                    N_("all-pass: {n:trick} × {price} = {amount}"), ("n", "price"), n=n, price=price
                )
            t.to_mountain(t.seat[name], term)


def _as_whists(t: Tally, conv: Convention, deal: AllPass, price: Amount) -> None:
    """The players with the fewest tricks write whists on every other for the tricks he
    took more, ``passes.whists_per_trick`` × the price each (``passes.ties = split``: the
    tied players share them)."""
    tricks = deal.tricks
    low = min(n for _, n in tricks)
    lowest = [name for name, n in tricks if n == low]
    per = conv.passes_whists_per_trick * price
    share = len(lowest) if conv.passes_ties == "split" else 1
    for writer in lowest:
        for name, n in tricks:
            if n != low:
                if share == 1:
                    term = product(
                        N_("all-pass: ({n} − {low}) tricks × {price} = {amount}"),
                        ("more", "price"),
                        n=n,
                        low=low,
                        more=n - low,
                        price=per,
                    )
                else:
                    term = told(
                        N_("all-pass: ({n} − {low}) tricks × {price} / {tied} tied = {amount}"),
                        norm(Fraction((n - low) * per, share)),
                        n=n,
                        low=low,
                        price=per,
                        tied=share,
                    )
                t.to_whists(t.seat[writer], t.seat[name], term)
