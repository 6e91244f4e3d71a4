"""A table's protocol (the Code, 4.2.11), as values the views draw.

The header names the event, the round, the table, the players in seat order (clockwise from
the first dealer's seat as drawn), the first dealer, the rules, and when play started and
ended (the times of the first and the last deal; no end while the table is playing). The body
has a line per entry of the table's ledger: the deal's number, its dealer, the contract and
its result ("6♠ / =", "8♥ / −1"), and the whists (each defender's answer). The footer gives
every player's pool, mountain, the whists he wrote, his result (whists by the settlement),
his place at the table and his points, with room for the signatures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.model import Entry, Join, SetTerm
from prefcalc.rules.scoring import Write
from prefcalc.tournament.model import TournamentFile
from prefcalc.tournament.standings import Table


@dataclass(frozen=True)
class Line:
    number: int
    entry: Entry
    writes: tuple[Write, ...]


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


def protocol(t: TournamentFile, table: Table) -> Protocol:
    sheet = table.sheet
    entries = table.game.entries
    lines = tuple(Line(s.number, s.entry, s.writes) for s in sheet.scored)
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
        lines=lines,
        footer=footer,
    )


# --- the penalty log ------------------------------------------------------------------------


@dataclass(frozen=True)
class Penalty:
    """One penalty or correction written at a table: an entry that is not a deal (no
    dealer), not a change of terms and not a late arrival, with what it wrote."""

    round: int
    table: int
    number: int  # the entry's number in the table's ledger
    player: str
    entry: Entry
    writes: tuple[Write, ...]


_NOT_PENALTIES = (SetTerm, Join)


def is_penalty(entry: Entry) -> bool:
    """Whether an entry belongs in the penalty log: a manual adjustment today, and every
    entry kind of its own the judge records (a penalty) tomorrow: whatever has no dealer and
    a ``player``, but a change of terms or a late arrival."""
    deal = entry.deal
    return (
        entry.dealer is None
        and not isinstance(deal, _NOT_PENALTIES)
        and isinstance(getattr(deal, "player", None), str)
    )


def penalty_log(rounds: Sequence[Sequence[Table]]) -> list[Penalty]:
    """Every penalty of the tournament's tables, round by round, table by table."""
    out: list[Penalty] = []
    for tables in rounds:
        for table in tables:
            for scored in table.sheet.scored:
                if is_penalty(scored.entry):
                    out.append(
                        Penalty(
                            round=table.round,
                            table=table.number,
                            number=scored.number,
                            player=str(getattr(scored.entry.deal, "player", "")),
                            entry=scored.entry,
                            writes=scored.writes,
                        )
                    )
    return out
