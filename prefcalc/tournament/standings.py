"""The standings: a pure function of the folder (docs/tournament.md, "Results").

Every table of the rounds asked for is read through the game's API (:func:`prefcalc.api.load`,
:func:`prefcalc.api.sheet`, :func:`prefcalc.api.settle`), so whatever its ledger holds (a
correction, an adjustment, a penalty) is in its settlement. A player's **result** at a table
is his whist balance by the pairwise settlement, exact; the results of a table add up to zero.
The **points** of the table are the results converted by the tournament's scoring
(:mod:`prefcalc.tournament.conversions`), and a player's total is the sum over the rounds.

A table is **complete** when it has played the round's deals (``--deals N``; a game that
finished by its own rules before, every pool closed, is complete too) or, for a round played
by time (``--minutes M``), when the judge closed it (``prefcalc tournament close``). A table
still playing counts with its provisional settlement and is marked so. A table that recorded
more deals than the round's (a deal played by mistake after the last one, or after the judge
closed it) counts what the round was played to: its ledger up to the first deal beyond the
round (:func:`round_part`); the deals set aside are marked on the table (``Table.over``) until
they are undone. A ledger that holds fewer deals than the judge's close counted is refused in
one line naming it.

The ranking (*pin*, in this order): more points; then the larger sum of raw whists; fewer
remises (contracts he declared and went down on); fewer tricks taken on all-pass deals;
fewer tricks taken on his misères; then the seed (a keyed hash of the seed and the name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Literal

from prefcalc.errors import DealError, PrefcalcError
from prefcalc.i18n import _
from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.model import AllPass, Contract, Game, Misere, active_players, name_key
from prefcalc.rules.penalties import counted_deal
from prefcalc.rules.scoring import Sheet
from prefcalc.rules.settlement import Settlement
from prefcalc.tournament import conversions, folder
from prefcalc.tournament.draw import seed_key
from prefcalc.tournament.model import CorrectionRecord, TableRecord, TournamentFile


@dataclass(frozen=True)
class Seat:
    """One player at one table: what he did there and what it counts."""

    name: str
    round: int
    table: int
    result: Amount  # whists, pairwise settlement, exact
    points: Amount  # the result converted by the tournament's scoring
    deals: int  # the deals he played (a 4-table's dealer sits his deal out)
    remises: int  # contracts he declared and went down on
    pass_tricks: int  # tricks he took on all-pass deals
    misere_tricks: int  # tricks he took on his own misères
    place: tuple[int, int]  # his place at the table by result: the places his tie covers


AbsenceKind = Literal["late", "bye", "withdrawn", "unread"]


@dataclass(frozen=True)
class Absence:
    """A round a player did not play: before his late entry (``late``), sat out with a bye
    (``bye``) or after he withdrew (``withdrawn``), and the points it counts (§5.6); or
    (``unread``, the hall's page only) a round played at a table whose ledger cannot be read
    now, counted zero while it cannot."""

    name: str
    round: int
    kind: AbsenceKind
    points: Amount


@dataclass(frozen=True)
class Table:
    """One table of one round, read and settled."""

    round: int
    record: TableRecord
    game: Game
    sheet: Sheet
    settlement: Settlement
    deals: int  # deals of the round played at the table (entries with a dealer)
    complete: bool
    seats: dict[str, Seat]
    over: int = 0  # deals recorded beyond the round's, set aside (not counted)
    corrections: tuple[CorrectionRecord, ...] = ()  # the director's, after the next draw
    sealed: bool = False  # the next round is drawn: changed only by a correction

    @property
    def number(self) -> int:
        return self.record.table

    @property
    def players(self) -> tuple[str, ...]:
        return self.record.players


@dataclass(frozen=True)
class Row:
    """One player's line of the standings."""

    place: int
    name: str
    club: str | None
    rating: int | None
    points: Amount
    whists: Amount
    remises: int
    pass_tricks: int
    misere_tricks: int
    rounds: tuple[Seat | Absence, ...]  # one per round, in order
    joined: int | None = None  # a late entry's first round
    withdrawn: int | None = None  # the first round he no longer played

    def seats(self) -> tuple[Seat, ...]:
        """The rounds he played."""
        return tuple(s for s in self.rounds if isinstance(s, Seat))


@dataclass(frozen=True)
class Standings:
    tournament: TournamentFile
    after_round: int
    rows: tuple[Row, ...]
    rounds: tuple[tuple[Table, ...], ...]  # the tables of rounds 1..after_round
    folder: Path | None = None  # the tournament's folder as the user named it

    def corrected(self) -> list[Table]:
        """The tables corrected after the next round was drawn (§4.5)."""
        return [tb for tables in self.rounds for tb in tables if tb.corrections]

    def absences(self) -> list[Absence]:
        return [a for row in self.rows for a in row.rounds if isinstance(a, Absence)]

    @property
    def complete(self) -> bool:
        """Every table of these rounds is complete."""
        return all(tb.complete for tables in self.rounds for tb in tables)

    def playing(self) -> list[Table]:
        return [tb for tables in self.rounds for tb in tables if not tb.complete]

    def over(self) -> list[Table]:
        """The tables that recorded deals beyond the round's (set aside, not counted)."""
        return [tb for tables in self.rounds for tb in tables if tb.over]


# --- one table ---------------------------------------------------------------------------------


def deals_played(game: Game) -> int:
    """The deals of a table: the entries that have a dealer (an adjustment or a penalty, a
    change of terms, a late arrival are not dealt)."""
    return sum(entry.dealer is not None for entry in game.entries)


def round_part(game: Game, deals: int) -> tuple[Game, int]:
    """What a round of ``deals`` deals counts of a table's ``game``, and how many deals it
    sets aside. *Pin* (docs/tournament.md §4.1): the round ends with its last deal, so a deal
    recorded beyond it is not the round's: the table counts its ledger up to the first deal
    beyond the round (a penalty or an adjustment recorded before that deal counts, whatever
    is recorded from it on does not)."""
    seen = 0
    for k, entry in enumerate(game.entries):
        if entry.dealer is None:
            continue
        seen += 1
        if seen > deals:
            return game._replace(entries=game.entries[:k]), deals_played(game) - deals
    return game, 0


def _player_deals(game: Game) -> dict[str, int]:
    counts = dict.fromkeys(game.players, 0)
    for entry in game.entries:
        if entry.dealer is None:
            continue
        for p in active_players(game.players, entry.dealer):
            counts[p] += 1
    return counts


def _tie_stats(game: Game) -> dict[str, list[int]]:
    """Every player's remises, all-pass tricks and misère tricks at a table, the tricks as
    the sheet counts them (after a trick lost for looking at an old trick). *Pin*
    (docs/tournament.md §5.5): a penalty's remise (a :class:`~prefcalc.rules.model.Penalty`,
    «без всех», «без двух») is not a remise here: it is paid in the whists already, and the
    tie-break counts the contracts declared and lost at the table."""
    stats = {p: [0, 0, 0] for p in game.players}
    for entry in game.entries:
        deal = counted_deal(entry.deal)
        if isinstance(deal, Contract):
            if deal.tricks is not None and deal.tricks < deal.level and deal.declarer in stats:
                stats[deal.declarer][0] += 1
        elif isinstance(deal, AllPass):
            for name, tricks in deal.tricks:
                if name in stats:
                    stats[name][1] += tricks
        elif isinstance(deal, Misere) and deal.declarer in stats:
            stats[deal.declarer][2] += deal.tricks
    return stats


def read_table(base: Path, t: TournamentFile, round_: int, record: TableRecord) -> Table:
    """Table ``record`` of round ``round_``: its ledger read, checked, scored and settled."""
    from prefcalc import api

    game = folder.table_game(base, t, round_, record)
    closed = record.closed
    limit = t.deals if t.deals is not None else None if closed is None else closed.deals
    over = 0
    if limit is not None:
        game, over = round_part(game, limit)
    count = deals_played(game)
    if closed is not None and count < closed.deals:
        where = _("round {round}, table {table} ({file})").format(
            round=round_, table=record.table, file=record.file
        )
        raise DealError(
            _(
                "{where}: the judge closed the table after {closed} deals, its ledger now holds {count}: reopen it (prefcalc tournament close --reopen) or restore the ledger"
            ).format(where=where, closed=closed.deals, count=count)
        )
    sheet = api.sheet(game)
    settled = api.settle(game, "pairwise", "exact")
    # by deals: the round's deals played (or the game over by its rules); by time: closed
    complete = (count == t.deals or sheet.finished) if t.deals is not None else closed is not None
    results = {p: settled.whists[p] for p in game.players}
    played = _player_deals(game)
    points = conversions.convert(results, t.scoring, played if t.per_deal else None)
    places = conversions.place_at_table(results)
    stats = _tie_stats(game)
    seats = {
        p: Seat(
            name=p,
            round=round_,
            table=record.table,
            result=results[p],
            points=points[p],
            deals=played[p],
            remises=stats[p][0],
            pass_tricks=stats[p][1],
            misere_tricks=stats[p][2],
            place=places[p],
        )
        for p in game.players
    }
    return Table(
        round_,
        record,
        game,
        sheet,
        settled,
        count,
        complete,
        seats,
        over,
        t.corrected(round_, record.table),
        round_ <= folder.sealed_rounds(t),
    )


@dataclass(frozen=True)
class Unread:
    """A table whose ledger cannot be read (missing, corrupt, not the table drawn): the
    hall shows it as one card with ``error`` and everything else as usual."""

    round: int
    record: TableRecord
    error: str


def read_tables_leniently(
    base: Path, t: TournamentFile
) -> tuple[list[tuple[Table, ...]], list[Unread]]:
    """Every table of every round drawn, a table whose ledger cannot be read set aside with
    its refusal (the hall's page: one card says it, the standings count the rest)."""
    rounds: list[tuple[Table, ...]] = []
    unread: list[Unread] = []
    for r in t.draws:
        tables = []
        for tb in r.tables:
            try:
                tables.append(read_table(base, t, r.round, tb))
            except PrefcalcError as exc:
                unread.append(Unread(r.round, tb, exc.message))
        rounds.append(tuple(tables))
    return rounds, unread


def read_tables(base: Path, t: TournamentFile, upto: int | None = None) -> list[tuple[Table, ...]]:
    """The tables of rounds 1..``upto`` (default: every round drawn)."""
    last = len(t.draws) if upto is None else upto
    return [tuple(read_table(base, t, r.round, tb) for tb in r.tables) for r in t.draws[:last]]


# --- across the rounds -------------------------------------------------------------------------


def round_average(tables: Sequence[Table]) -> Amount:
    """The average of the points of the players who played a round (exact)."""
    points = [Fraction(seat.points) for tb in tables for seat in tb.seats.values()]
    return norm(sum(points, Fraction(0)) / len(points)) if points else 0


def absence(
    t: TournamentFile,
    name: str,
    round_: int,
    tables: Sequence[Table],
    unread: frozenset[tuple[int, str]] = frozenset(),
) -> Absence:
    """What round ``round_`` counts for ``name``, who did not play it (§5.6): a late entry's
    missed round and a bye by the tournament's rules (zero, or the round's average), a
    round after his withdrawal zero."""
    record = t.player(name)
    assert record is not None
    byes = t.draws[round_ - 1].byes if round_ <= len(t.draws) else ()
    if (round_, name) in unread:
        return Absence(name, round_, "unread", 0)
    if name in byes:
        kind: AbsenceKind = "bye"
        rule = t.bye
    elif record.joined is not None and round_ < record.joined:
        kind, rule = "late", t.late
    else:
        kind, rule = "withdrawn", "zero"
    points = round_average(tables) if rule == "average" else 0
    return Absence(name, round_, kind, points)


def rank(
    t: TournamentFile,
    rounds: Sequence[Sequence[Table]],
    base: Path | None = None,
    unread: Sequence[Unread] = (),
) -> Standings:
    """The standings after ``rounds`` (the tables of rounds 1..k, as read; ``unread``: the
    tables that could not be, the hall's page only)."""
    missing = frozenset((u.round, p) for u in unread for p in u.record.players)
    info = {p.name: p for p in t.players}
    by_player: dict[str, list[Seat | Absence]] = {p.name: [] for p in t.players}
    for r, tables in enumerate(rounds, 1):
        seated: set[str] = set()
        for tb in tables:
            for seat in tb.seats.values():
                by_player[seat.name].append(seat)
                seated.add(seat.name)
        for name, line in by_player.items():
            if name not in seated:
                line.append(absence(t, name, r, tables, missing))
    unsorted = []
    for name, line in by_player.items():
        seats = [s for s in line if isinstance(s, Seat)]
        unsorted.append(
            (
                name,
                norm(sum((Fraction(s.points) for s in line), Fraction(0))),
                norm(sum((Fraction(s.result) for s in seats), Fraction(0))),
                sum(s.remises for s in seats),
                sum(s.pass_tricks for s in seats),
                sum(s.misere_tricks for s in seats),
                tuple(line),
            )
        )
    unsorted.sort(
        key=lambda r: (-r[1], -r[2], r[3], r[4], r[5], seed_key(t.seed, "place", name_key(r[0])))
    )
    rows = tuple(
        Row(
            place=k,
            name=name,
            club=info[name].club,
            rating=info[name].rating,
            points=points,
            whists=whists,
            remises=remises,
            pass_tricks=passes,
            misere_tricks=misere,
            rounds=line,
            joined=info[name].joined,
            withdrawn=info[name].withdrawn,
        )
        for k, (name, points, whists, remises, passes, misere, line) in enumerate(unsorted, 1)
    )
    return Standings(t, len(rounds), rows, tuple(tuple(r) for r in rounds), base)


def standings(base: Path, t: TournamentFile, after_round: int | None = None) -> Standings:
    """The standings of the tournament in ``base`` after round ``after_round`` (default: the
    last round drawn); :class:`DealError` when that round is not drawn."""
    drawn = len(t.draws)
    if drawn == 0:
        raise DealError(_("no round is drawn yet (prefcalc tournament draw DIR draws round 1)"))
    last = drawn if after_round is None else after_round
    if not 1 <= last <= drawn:
        raise DealError(
            _("there is no round {round} yet: rounds 1 to {drawn} are drawn").format(
                round=last, drawn=drawn
            )
        )
    return rank(t, read_tables(base, t, last), base)
