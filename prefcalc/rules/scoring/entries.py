"""The entries that are not a deal of cards, and the combination that ends the game:
an adjustment (a manual write), a late arrival (docs/rules.md §8.7), a change of the terms,
and the "Preference" combination (docs/rules.md §8.5)."""

from fractions import Fraction

from prefcalc.i18n import N_
from prefcalc.rules.amounts import norm
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import Adjustment, Join, Preference, SetTerm
from prefcalc.rules.scoring.sheet import Term, product, told
from prefcalc.rules.scoring.state import Tally

_ADJUSTMENT = N_("adjustment of {amount}: {note}")


def score_adjustment(t: Tally, conv: Convention, deal: Adjustment) -> None:
    """The writes the table agreed to, as recorded, each told by the note."""
    i = t.seat[deal.player]
    note = deal.note
    if deal.pool:
        t.to_pool_raw(i, told(_ADJUSTMENT, deal.pool, note=note))
    if deal.mountain:
        t.to_mountain(i, told(_ADJUSTMENT, deal.mountain, note=note))
    for other, amount in deal.whists:
        t.to_whists(i, t.seat[other], told(_ADJUSTMENT, amount, note=note))


def score_join(t: Tally, conv: Convention, deal: Join) -> None:
    """A late arrival (docs/rules.md §8.7) takes his seat: his pool and mountain start at the
    exact averages of every player seated before him; he has no whists."""
    k = len(t.players)
    pool = norm(sum(t.pool, Fraction(0)))
    mountain = norm(sum(t.mountain, Fraction(0)))
    at = len(t.players) if deal.after is None else t.seat[deal.after] + 1
    i = t.seat_player(deal.player, at)
    t.to_pool_raw(
        i,
        told(
            N_("joined: average pool of {k} players = {total} / {k} = {average}"),
            norm(Fraction(pool) / k),
            k=k,
            total=pool,
            average=norm(Fraction(pool) / k),
        ),
    )
    t.to_mountain(
        i,
        told(
            N_("joined: average mountain of {k} players = {total} / {k} = {average}"),
            norm(Fraction(mountain) / k),
            k=k,
            total=mountain,
            average=norm(Fraction(mountain) / k),
        ),
    )


def score_set_term(t: Tally, conv: Convention, deal: SetTerm) -> None:
    """A change of the terms: a new target applies to the deals after it (the whist price
    is read by the settlement, from the record)."""
    if deal.key == "target":
        t.target = int(deal.value)


def score_preference(t: Tally, conv: Convention, deal: Preference) -> None:
    """The "Preference" combination (docs/rules.md §8.5, §8.8), under ``preference_combo``:
    the holder's mountain is written off to 0; every pool below the target is filled up to
    it, his own first, then the others clockwise from him; for each point put into another
    player's pool he writes ``help_whists`` whists on that player. The game is then
    finished."""
    if not conv.preference_combo:
        return
    i = t.seat[deal.player]
    mountain = t.mountain[i]
    if mountain > 0:  # told as the mountain written off, written as its negative
        t.to_mountain(
            i,
            Term(
                -mountain,
                N_("Preference: the mountain written off: {amount}"),
                {"amount": mountain},
            ),
        )
    n = len(t.players)
    for q in [(i + k) % n for k in range(n)]:
        gap = norm(t.target - t.pool[q])
        if gap <= 0:
            continue
        t.to_pool_raw(
            q,
            told(
                N_("Preference of {player}: the pool filled up: {amount}"),
                gap,
                player=deal.player,
            ),
        )
        if q != i:
            t.to_whists(
                i,
                q,
                product(
                    N_("Preference: {points:point} to {player} × {factor} = {amount}"),
                    ("points", "factor"),
                    points=gap,
                    player=t.players[q],
                    factor=conv.help_whists,
                ),
            )
