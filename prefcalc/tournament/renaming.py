"""A player renamed (``prefcalc tournament rename``): the pure part, a game's and the
tournament's records with one name written as another.

The name changes in ``tournament.json`` (the registration, every table's players and first
dealer, the byes, the pairs kept apart) and in every ledger of a table he sat at (the
players, the first dealer, every deal's names, the genders); a note's text stays as it was
written. The files are written by :func:`prefcalc.tournament.folder.rename`.
"""

from __future__ import annotations

from prefcalc.rules.model import (
    Adjustment,
    AllPass,
    Contract,
    Deal,
    Entry,
    Game,
    Join,
    Misere,
    Penalty,
    Preference,
)
from prefcalc.tournament.model import RoundRecord, TableRecord, TournamentFile


def _n(name: str, old: str, new: str) -> str:
    return new if name == old else name


def _maybe(name: str | None, old: str, new: str) -> str | None:
    return new if name == old else name


def _ns(names: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    return tuple(new if n == old else n for n in names)


def renamed_deal(deal: Deal, old: str, new: str) -> Deal:
    """``deal`` with every name ``old`` in it written ``new`` (a note's text is left as
    written)."""
    if isinstance(deal, Contract):
        return deal._replace(
            declarer=_n(deal.declarer, old, new),
            defenders=tuple(d._replace(player=_n(d.player, old, new)) for d in deal.defenders),
            returned_by=_maybe(deal.returned_by, old, new),
            looked=_ns(deal.looked, old, new),
        )
    if isinstance(deal, Misere):
        return deal._replace(
            declarer=_n(deal.declarer, old, new), looked=_ns(deal.looked, old, new)
        )
    if isinstance(deal, AllPass):
        return deal._replace(
            tricks=tuple((new if p == old else p, k) for p, k in deal.tricks),
            blind=_ns(deal.blind, old, new),
            looked=_ns(deal.looked, old, new),
        )
    if isinstance(deal, Adjustment):
        return deal._replace(
            player=_n(deal.player, old, new),
            whists=tuple((new if p == old else p, a) for p, a in deal.whists),
        )
    if isinstance(deal, Penalty):
        return deal._replace(player=_n(deal.player, old, new), on=_maybe(deal.on, old, new))
    if isinstance(deal, Preference):
        return deal._replace(player=_n(deal.player, old, new))
    if isinstance(deal, Join):
        return deal._replace(player=_n(deal.player, old, new), after=_maybe(deal.after, old, new))
    return deal


def renamed_game(game: Game, old: str, new: str) -> Game:
    """``game`` with the player ``old`` called ``new`` everywhere in it."""
    return game._replace(
        players=_ns(game.players, old, new),
        first_dealer=_n(game.first_dealer, old, new),
        genders=tuple((new if p == old else p, g) for p, g in game.genders),
        entries=tuple(
            Entry(renamed_deal(e.deal, old, new), _maybe(e.dealer, old, new), e.time, e.forced)
            for e in game.entries
        ),
    )


def renamed_tournament(t: TournamentFile, old: str, new: str) -> TournamentFile:
    def table(tb: TableRecord) -> TableRecord:
        return tb.model_copy(
            update={"players": _ns(tb.players, old, new), "dealer": _n(tb.dealer, old, new)}
        )

    def drawn(r: RoundRecord) -> RoundRecord:
        return r.model_copy(
            update={
                "tables": tuple(table(tb) for tb in r.tables),
                "byes": _ns(r.byes, old, new),
            }
        )

    return t.model_copy(
        update={
            "players": tuple(
                p.model_copy(update={"name": new}) if p.name == old else p for p in t.players
            ),
            "draws": tuple(drawn(r) for r in t.draws),
            "forbid": tuple((_n(a, old, new), _n(b, old, new)) for a, b in t.forbid),
        }
    )
