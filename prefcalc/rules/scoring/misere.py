"""A misère (docs/rules.md §4.3): the declarer takes no trick and writes ``misere_price × F``
into his pool, or writes ``misere_penalty × remise_factor × F`` per trick into his mountain."""

from prefcalc.i18n import N_
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import Misere
from prefcalc.rules.penalties import counted
from prefcalc.rules.scoring.classic import NO_FACTOR, bomb_after, deal_factor
from prefcalc.rules.scoring.closing import made
from prefcalc.rules.scoring.sheet import Reason, product
from prefcalc.rules.scoring.state import Tally


def score_misere(t: Tally, conv: Convention, deal: Misere) -> None:
    if deal.looked:  # one trick more for looking at an old trick (docs/rules.md §8.10)
        deal = counted(deal)
    i = t.seat[deal.declarer]
    f, fx, use = (
        deal_factor(t, conv, deal) if deal.dark or deal.bomb is not None or t.classic else NO_FACTOR
    )
    bomb_after(t, deal.declarer, use, deal.tricks == 0)
    if deal.tricks == 0:
        why = Reason(N_("misère made{fx}"), {"fx": fx})
        made(t, conv, i, conv.misere_price * f, why, t.away)
    else:
        t.to_mountain(
            i,
            product(
                N_("misère failed: {n:trick} × {per}{fx} = {amount}"),
                ("n", "per", "f"),
                n=deal.tricks,
                per=conv.misere_penalty * conv.remise_factor,
                f=f,
                fx=fx,
            ),
        )
    if conv.passes_misere_ends:
        t.streak = 0
