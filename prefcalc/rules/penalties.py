"""The penalties of the 1996 Code of Preference (docs/rules.md §8.10): what each offence is
called, its section of the Code, its default, and the trick a player loses for looking at a
trick other than the last.

A penalty of its own is a :class:`~prefcalc.rules.model.Penalty` entry (no dealer, like an
adjustment), scored by :mod:`prefcalc.rules.scoring.penalty` into the offender's own mountain
(or as whists written back on him). A trick lost for looking (3.9.11.2) changes the tricks of
the deal it happened in, so it is written with that deal (``looked``): the deal is recorded
as it was played and :func:`counted` gives the tricks the sheet counts.
"""

from collections.abc import Sequence
from typing import TypeVar

from prefcalc.errors import DealError
from prefcalc.i18n import N_, _
from prefcalc.rules.model import (
    REMISE_OFFENCES,
    AllPass,
    Contract,
    Deal,
    Defender,
    Misere,
    Offence,
    Penalty,
)

SECTIONS: dict[Offence | str, str] = {
    "peek": "3.2.21",
    "dealing": "3.2.17",
    "illegal": "3.4.4",
    "cards": "3.4.6",
    "miscount": "3.9.18",
    "entry": "4.2.7–4.2.10",
    "trick": "3.9.11.2",
}
"""The Code's section of each offence (``trick``: a trick lost for looking, written with
its deal)."""

OFFENCE_WORDS: dict[Offence | str, str] = {
    "peek": N_("looking at the talon (Code 3.2.21)"),
    "dealing": N_("breaking the dealing procedure (Code 3.2.17)"),
    "illegal": N_("insisting on an illegal contract (Code 3.4.4)"),
    "cards": N_("ordering with a wrong number of cards (Code 3.4.6)"),
    "miscount": N_("a wrong number of cards found in play (Code 3.9.18)"),
    "entry": N_("a wrong score entry (Code 4.2.7–4.2.10)"),
    "trick": N_("looking at a trick other than the last (Code 3.9.11.2)"),
}
"""Each offence in words, with its section (shown with ``_()``)."""

DEFAULT_POINTS = 5
"""The points of a look at the talon (3.2.21) and of a dealing fault (3.2.17) unless the
table agreed another number."""
DEFAULT_UNDERTRICKS = 2
"""The undertricks of «без двух» (3.4.6, 3.9.18) unless more were proven."""


def check_penalty(penalty: Penalty) -> None:
    """Raise :class:`DealError` unless ``penalty`` is one the Code writes: a contract and a
    whole number of undertricks for a remise (all of them for «без всех», 2 to the level for
    «без двух» and more); a positive amount otherwise; the player a wrong entry's excess goes
    back from, another player (the players themselves are checked against the seating by
    :mod:`prefcalc.rules.legality`)."""
    offence = penalty.offence
    if offence in REMISE_OFFENCES:
        level = penalty.level
        if level is None or penalty.suit is None:
            raise DealError(_("this penalty is a remise on a contract: give the contract"))
        n = penalty.amount
        whole = isinstance(n, int) and not isinstance(n, bool)
        if offence == "illegal" and n != level:
            raise DealError(
                _("«без всех» on {contract} is {level} undertricks, not {n}").format(
                    contract=penalty.label, level=level, n=n
                )
            )
        if not whole or not DEFAULT_UNDERTRICKS <= n <= level:
            raise DealError(
                _(
                    "the remise of this penalty is {low} to {level} undertricks on {contract}, not {n}"
                ).format(low=DEFAULT_UNDERTRICKS, level=level, contract=penalty.label, n=n)
            )
    else:
        if penalty.level is not None or penalty.suit is not None:
            raise DealError(_("this penalty is not on a contract: give no contract"))
        if penalty.amount <= 0:
            raise DealError(_("a penalty is a positive number"))
    if penalty.on is not None:
        if offence != "entry":
            raise DealError(_("only a wrong score entry is written back by another player"))
        if penalty.on == penalty.player:
            raise DealError(
                _("{player} cannot write whists on himself").format(player=penalty.player)
            )


Looked = TypeVar("Looked", Contract, Misere, AllPass)


def counted(deal: Looked) -> Looked:
    """The deal with the tricks the sheet counts: as played, less the trick each player who
    looked at a trick other than the last loses (the Code, 3.9.11.2; docs/rules.md §8.10).

    - A contract: the declarer who looked loses a trick to the defence (to its first
      whister: the one who spoke first, or the one who played alone); a defender who looked
      (a whister, a passer whose cards the whister played, the dealer who returned the
      whist) loses one of the defence's to the declarer (a whister with his own count loses
      it from his).
    - A misère: the declarer who looked takes one trick more.
    - An all-pass deal: each player who looked takes one trick more.

    The deal is trusted (:func:`check_looked` judged it); without ``looked`` it is returned
    as it is."""
    if not deal.looked:
        return deal
    if isinstance(deal, AllPass):
        more = set(deal.looked)
        return deal._replace(tricks=tuple((p, n + (p in more)) for p, n in deal.tricks))
    if isinstance(deal, Misere):
        return deal._replace(tricks=deal.tricks + len(deal.looked))
    tricks = deal.tricks or 0
    defenders = list(deal.defenders)
    for name in deal.looked:
        if name == deal.declarer:
            tricks -= 1
            k = _first_whister(defenders)
            if k is not None and defenders[k].tricks is not None:
                defenders[k] = _plus(defenders[k], 1)
            continue
        tricks += 1
        mine = next((k for k, d in enumerate(defenders) if d.player == name), None)
        if mine is not None and defenders[mine].role in ("w", "r"):
            if defenders[mine].tricks is not None:
                defenders[mine] = _plus(defenders[mine], -1)
        else:  # the lone whister's side: his own count, when written, goes down
            k = _first_whister(defenders)
            if k is not None and defenders[k].tricks is not None and len(_whisters(defenders)) == 1:
                defenders[k] = _plus(defenders[k], -1)
    return deal._replace(tricks=tricks, defenders=tuple(defenders))


def counted_deal(deal: Deal) -> Deal:
    """Any entry's deal as the sheet counts it: :func:`counted` for a game, a misère or an
    all-pass deal; every other entry as it is."""
    if isinstance(deal, Contract):
        return counted(deal)
    if isinstance(deal, Misere):
        return counted(deal)
    if isinstance(deal, AllPass):
        return counted(deal)
    return deal


def _plus(d: Defender, n: int) -> Defender:
    return d._replace(tricks=(d.tricks or 0) + n)


def _whisters(defenders: Sequence[Defender]) -> list[int]:
    return [k for k, d in enumerate(defenders) if d.role in ("w", "r")]


def _first_whister(defenders: Sequence[Defender]) -> int | None:
    found = _whisters(defenders)
    return found[0] if found else None


def check_looked(deal: Contract | Misere | AllPass) -> None:
    """Raise :class:`DealError` unless every player ``deal`` says looked at a trick other
    than the last can lose a trick in it (3.9.11.2): he held cards in it (a declarer, a
    defender, the dealer who returned the whist, a player of an all-pass deal), only once,
    the game was played, and the trick he loses is there to lose (a declarer or a whister
    with a trick, a defence with a trick). On a misère only the declarer's look costs a trick.
    """
    looked = deal.looked
    if not looked:
        return
    if len(set(looked)) != len(looked):
        raise DealError(_("a player is listed twice as looking at a trick"))
    if isinstance(deal, AllPass):
        players = {p for p, _n in deal.tricks}
        for name in looked:
            if name not in players:
                raise DealError(
                    _("{player} took no part in this all-pass deal").format(player=name)
                )
        return
    if isinstance(deal, Misere):
        if looked != (deal.declarer,):
            raise DealError(
                _(
                    "on a misère only the declarer loses a trick for looking at a trick (Code 3.9.11.2): an opponent's look is for the judge (an adjustment)"
                )
            )
        if deal.tricks + 1 > 10:
            raise DealError(_("the declarer took every trick: there is none to add"))
        return
    if deal.tricks is None:
        raise DealError(
            _("a game that was not played loses no trick: write the look with a played game")
        )
    holders = {deal.declarer, *(d.player for d in deal.defenders)}
    if deal.returned_by is not None:
        holders.add(deal.returned_by)
    for name in looked:
        if name not in holders:
            raise DealError(_("{player} holds no cards in this deal").format(player=name))
    after = counted(deal)
    short = [d.player for d in after.defenders if d.tricks is not None and d.tricks < 0]
    if (after.tricks or 0) < 0 or (after.tricks or 0) > 10 or short:
        # the one who looked: the declarer when his own tricks ran out; a defender when the
        # defence's (or his own) did (issue 35: the declarer was named for a defender's look)
        defenders = [name for name in looked if name != deal.declarer]
        if (after.tricks or 0) < 0 or not defenders:
            who = deal.declarer
        else:
            who = next((name for name in defenders if name in short), defenders[0])
        raise DealError(
            _("{player} has no trick to lose for looking at a trick (Code 3.9.11.2)").format(
                player=who
            )
        )
