"""How N players sit at tables of 4 and 3 (docs/tournament.md, "Tables").

*Pin*: N = 4a + 3b with as many tables of 4 as possible; the tables of 4 come first
(tables 1..a), then the tables of 3. Fewer than 3 players, or 5, fit no plan and are refused.
"""

from __future__ import annotations

from prefcalc.errors import DealError
from prefcalc.i18n import _

MIN_PLAYERS = 3
MAX_PLAYERS = 1000
"""The largest field a tournament takes (a club's or a federation's event is far smaller)."""


def plan(players: int) -> tuple[int, ...]:
    """The table sizes for ``players`` (4s first, then 3s): ``plan(7) == (4, 3)``,
    ``plan(9) == (3, 3, 3)``; :class:`DealError` for a count no plan fits."""
    if players < MIN_PLAYERS or players == 5:
        raise DealError(
            _(
                "{n} players cannot sit at tables of 4 and 3 (a tournament needs 3, 4, 6 or more players)"
            ).format(n=players)
        )
    if players > MAX_PLAYERS:
        raise DealError(
            _("a tournament takes at most {most} players, not {n}").format(
                most=MAX_PLAYERS, n=players
            )
        )
    threes = (-players) % 4  # 0, 3, 2, 1 tables of 3 for N = 0, 1, 2, 3 (mod 4)
    fours = (players - 3 * threes) // 4
    return (4,) * fours + (3,) * threes
