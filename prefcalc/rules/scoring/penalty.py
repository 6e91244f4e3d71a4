"""A penalty of the 1996 Code (docs/rules.md §8.10): written into the offender's own mountain,
or, for a wrong score entry's excess, as whists written back on him; each write told with the
offence and the Code's section. A penalty is not a deal: no dealer, the deal does not move,
the all-pass streak is untouched, nothing helps anybody.

A trick lost for looking at a trick other than the last (3.9.11.2) is scored with its deal
(:func:`prefcalc.rules.penalties.counted`)."""

from prefcalc.i18n import N_
from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import Penalty
from prefcalc.rules.scoring.sheet import Label, Reason, product, told
from prefcalc.rules.scoring.state import Tally

_INTO_MOUNTAIN = {
    "peek": N_("penalty for looking at the talon (Code 3.2.21): {amount} into the mountain"),
    "dealing": N_(
        "penalty for breaking the dealing procedure (Code 3.2.17): {amount} into the mountain"
    ),
    "entry": N_(
        "penalty for a wrong score entry (Code 4.2.7–4.2.10): "
        "the excess of {amount} written back into the mountain"
    ),
}

_REMISE = {
    "illegal": N_(
        "penalty for insisting on an illegal contract (Code 3.4.4): "
        "all down on {contract}, {u:undertrick} × {p}{rx} = {amount}"
    ),
    "cards": N_(
        "penalty for ordering with a wrong number of cards (Code 3.4.6): "
        "a remise on {contract}, {u:undertrick} × {p}{rx} = {amount}"
    ),
    "miscount": N_(
        "penalty for a wrong number of cards found in play (Code 3.9.18): "
        "a remise on {contract}, {u:undertrick} × {p}{rx} = {amount}"
    ),
}

_WRITTEN_BACK = N_(
    "penalty for a wrong score entry (Code 4.2.7–4.2.10): "
    "the excess of {amount} written back on {player}"
)


def score_penalty(t: Tally, conv: Convention, deal: Penalty) -> None:
    """The penalty's write: ``amount`` into the offender's mountain (a look at the talon, a
    dealing fault, a wrong entry's excess); the excess of a wrong entry whists ``on`` writes
    back on him; or the remise on the contract, ``u × P × remise_factor`` into his mountain,
    ``u`` the undertricks recorded (all of them for «без всех»)."""
    i = t.seat[deal.player]
    offence = deal.offence
    if offence in _REMISE and deal.level is not None and deal.suit is not None:
        factor = conv.remise_factor
        rx: Reason | str = Reason(" × {factor}", {"factor": factor}) if factor != 1 else ""
        t.to_mountain(
            i,
            product(
                _REMISE[offence],
                ("u", "p", "factor"),
                contract=Label(deal.level, deal.suit, deal.label),
                u=deal.amount,
                p=conv.game_prices[deal.level - 6],
                factor=factor,
                rx=rx,
            ),
        )
    elif offence == "entry" and deal.on is not None:
        t.to_whists(t.seat[deal.on], i, told(_WRITTEN_BACK, deal.amount, player=deal.player))
    else:
        t.to_mountain(i, told(_INTO_MOUNTAIN[offence], deal.amount))
