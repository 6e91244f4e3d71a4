"""A table's protocol (the Code, 4.2.11), as values the views draw.

The header names the event, the round, the table, the players in seat order (clockwise from
the first dealer's seat as drawn), the first dealer, the rules, and when play started and
ended (the times of the first and the last deal; no end while the table is playing). The body
has a line per entry of the table's ledger: the deals numbered as deals (1, 2, ...), a
penalty or an adjustment numbered apart (P1, P2, ...: not a deal), each with its dealer,
the contract and its result ("6♠ / =", "8♥ / −1"), the whists (each defender's answer, the
whist returned and by whom, the all-pass tricks), the talon's tricks with what was written
for them, and what every player wrote in it (pool, mountain, whists on whom): the sheet's
own writes, so a judge reconciles the protocol with the sheet line by line. The footer gives
every player's pool, mountain, the whists he wrote, his result (whists by the settlement),
his place at the table and his points, with room for the signatures; the director's
corrections of the table (§4.5) are printed with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.model import Adjustment, AllPass, Contract, Entry, Misere, Penalty
from prefcalc.rules.scoring import Write
from prefcalc.tournament.model import CorrectionRecord, TournamentFile
from prefcalc.tournament.standings import Table

TALON_BONUS = frozenset(
    {
        "talon bonus on {contract}: {n:trick} × {w}{fx} = {amount}",
        "talon bonus on {contract}: {n:trick} × {w}{fx} / 2 = {amount}",
    }
)
"""The templates of the talon bonus's writes (docs/rules.md §8.3)."""


@dataclass(frozen=True)
class Line:
    """One entry of the protocol: ``number`` its number in the ledger (``explain N``),
    ``deal`` its number among the deals (None: not a deal), ``penalty`` its number among
    the penalties and adjustments (None: not one)."""

    number: int
    entry: Entry
    writes: tuple[Write, ...]
    deal: int | None = None
    penalty: int | None = None

    @property
    def talon(self) -> tuple[Write, ...]:
        """What was written for the talon's tricks (the dealer's bonus, or each opponent's
        half at three)."""
        return tuple(w for w in self.writes if w.template in TALON_BONUS)


@dataclass(frozen=True)
class Footer:
    name: str
    pool: Amount
    mountain: Amount
    whists: Amount  # the whists he wrote on the others
    result: Amount
    place: tuple[int, int]
    points: Amount


@dataclass(frozen=True)
class Protocol:
    event: str
    round: int
    rounds: int
    table: int
    file: str
    players: tuple[str, ...]
    dealer: str
    convention: str
    scoring: str
    start: str | None
    end: str | None
    complete: bool
    deals: int
    lines: tuple[Line, ...]
    footer: tuple[Footer, ...]
    over: int = 0  # deals recorded beyond the round: set aside, not in the protocol
    corrections: tuple[CorrectionRecord, ...] = ()  # the director's, after the next draw


def protocol(t: TournamentFile, table: Table) -> Protocol:
    sheet = table.sheet
    entries = table.game.entries
    lines = []
    deals = penalties = 0
    for scored in sheet.scored:
        deal = penalty = None
        if scored.entry.dealer is not None:
            deals += 1
            deal = deals
        elif isinstance(scored.entry.deal, Penalty | Adjustment):
            penalties += 1
            penalty = penalties
        lines.append(Line(scored.number, scored.entry, scored.writes, deal, penalty))
    footer = tuple(
        Footer(
            name=p,
            pool=sheet.pool[p],
            mountain=sheet.mountain[p],
            whists=norm(
                sum((Fraction(sheet.whists[p][q]) for q in sheet.players if q != p), Fraction(0))
            ),
            result=table.seats[p].result,
            place=table.seats[p].place,
            points=table.seats[p].points,
        )
        for p in table.players
    )
    return Protocol(
        event=t.name,
        round=table.round,
        rounds=t.rounds,
        table=table.number,
        file=table.record.file,
        players=table.players,
        dealer=table.record.dealer,
        convention=sheet.convention.name,
        scoring=t.scoring,
        start=entries[0].time if entries else None,
        end=entries[-1].time if entries and table.complete else None,
        complete=table.complete,
        deals=table.deals,
        lines=tuple(lines),
        footer=footer,
        over=table.over,
        corrections=table.corrections,
    )


# --- the penalty log ------------------------------------------------------------------------


@dataclass(frozen=True)
class PenaltyLine:
    """One line of the penalty log (docs/tournament.md §7): a penalty of the Code, a manual
    adjustment (a correction, or a penalty recorded as one), or a deal in which a player lost
    a trick for looking at an old trick, with what it wrote (for such a deal nothing of its
    own: the trick moved within the deal's writes)."""

    round: int
    table: int
    number: int  # the entry's number in the table's ledger
    player: str
    entry: Entry
    writes: tuple[Write, ...]


def is_penalty(entry: Entry) -> bool:
    """Whether an entry belongs in the penalty log: a :class:`~prefcalc.rules.model.Penalty`,
    an :class:`~prefcalc.rules.model.Adjustment`, or a deal with a trick lost for looking
    (``looked``)."""
    deal = entry.deal
    if isinstance(deal, Penalty | Adjustment):
        return True
    return isinstance(deal, Contract | Misere | AllPass) and bool(deal.looked)


def _offender(entry: Entry) -> str:
    deal = entry.deal
    if isinstance(deal, Penalty | Adjustment):
        return deal.player
    if isinstance(deal, Contract | Misere | AllPass):
        return ", ".join(deal.looked)
    return ""


def penalty_log(rounds: Sequence[Sequence[Table]]) -> list[PenaltyLine]:
    """Every penalty of the tournament's tables, round by round, table by table."""
    out: list[PenaltyLine] = []
    for tables in rounds:
        for table in tables:
            for scored in table.sheet.scored:
                if is_penalty(scored.entry):
                    deal = scored.entry.deal
                    own = isinstance(deal, Penalty | Adjustment)
                    out.append(
                        PenaltyLine(
                            round=table.round,
                            table=table.number,
                            number=scored.number,
                            player=_offender(scored.entry),
                            entry=scored.entry,
                            writes=scored.writes if own else (),
                        )
                    )
    return out
