"""The tournament's library API: what ``prefcalc tournament ...`` calls (and a script may).

Every function takes the tournament's folder. The ones that change it (:func:`new`,
:func:`draw`, :func:`close`) hold its lock from reading to writing and change nothing when
they refuse (a :class:`~prefcalc.errors.PrefcalcError` whose text is the one line the CLI
prints); the others only read::

    from prefcalc.tournament import api as tournament
    t = tournament.new(Path("cup"), ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"],
                       rounds=3, deals=24, convention="leningrad", seed=7)
    r1 = tournament.draw(Path("cup"))           # the round's tables, their ledgers written
    s = tournament.standings(Path("cup"))       # s.rows[0].name, s.rows[0].points
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path

from prefcalc.errors import DealError, shown
from prefcalc.i18n import _, ngettext
from prefcalc.store.schemas import ConventionRecord
from prefcalc.tournament import folder
from prefcalc.tournament.conversions import SCORINGS, Scoring
from prefcalc.tournament.draw import first_round, met_pairs, seat, swiss
from prefcalc.tournament.model import (
    MAX_DEALS,
    MAX_MINUTES,
    MAX_ROUNDS,
    MAX_SEED,
    ClosedRecord,
    PlayerRecord,
    RoundRecord,
    TableRecord,
    TournamentFile,
    check_names,
    table_file,
)
from prefcalc.tournament.plans import plan
from prefcalc.tournament.standings import Standings, Table, rank, read_table, read_tables

SEED_DIGITS = 6
"""A seed drawn by prefcalc has six digits: short enough for the judge to announce."""


def _now() -> str:
    from prefcalc.store.ledger import now

    return now()


def new(
    base: Path,
    players: Sequence[str | PlayerRecord],
    *,
    rounds: int,
    deals: int | None = None,
    minutes: int | None = None,
    convention: str = "sochi",
    options: Sequence[str] = (),
    target: int | None = None,
    scoring: Scoring = "raw",
    per_deal: bool = False,
    seed: int | None = None,
    name: str | None = None,
) -> TournamentFile:
    """A new tournament in ``base`` (made if need be; refused if it holds one already).

    ``players`` are names or :class:`PlayerRecord` (with club and rating); a round is
    ``deals`` deals per table or ``minutes`` long; ``convention`` a preset or a house-rules
    TOML file with ``options`` (``--set`` texts) on top; ``seed`` decides every draw
    (default: a random one of six digits, stored)."""
    from prefcalc import api

    names = check_names(tuple(p.name if isinstance(p, PlayerRecord) else p for p in players))
    records = [
        p.model_copy(update={"name": n}) if isinstance(p, PlayerRecord) else PlayerRecord(name=n)
        for p, n in zip(players, names, strict=True)
    ]
    plan(len(names))
    if not 1 <= rounds <= MAX_ROUNDS:
        raise DealError(
            _("a tournament has 1 to {most} rounds, not {n}").format(most=MAX_ROUNDS, n=rounds)
        )
    if (deals is None) == (minutes is None):
        raise DealError(_("give the length of a round: --deals N or --minutes M (one of them)"))
    if deals is not None and not 1 <= deals <= MAX_DEALS:
        raise DealError(
            _("a round has 1 to {most} deals per table, not {n}").format(most=MAX_DEALS, n=deals)
        )
    if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
        raise DealError(
            _("a round lasts 1 to {most} minutes, not {n}").format(most=MAX_MINUTES, n=minutes)
        )
    if scoring not in SCORINGS:
        raise DealError(
            _("unknown scoring '{scoring}' (use {choices})").format(
                scoring=scoring, choices=", ".join(SCORINGS)
            )
        )
    if seed is None:
        seed = secrets.randbelow(10**SEED_DIGITS)
    if not 0 <= seed <= MAX_SEED:
        raise DealError(_("the seed is a whole number from 0 to {most}").format(most=MAX_SEED))
    name = _event_name(base, name)
    # the convention is checked and stored exactly as a game stores it
    probe = api.new_game(names[:3], convention, target, options=list(options))
    ref = probe.convention
    from prefcalc.rules.conventions import to_jsonable

    t = TournamentFile(
        tournament=1,
        name=name,
        created=_now(),
        players=tuple(records),
        rounds=rounds,
        deals=deals,
        minutes=minutes,
        convention=ConventionRecord(
            name=ref.name,
            preset=ref.preset,
            options={k: to_jsonable(v) for k, v in ref.options.items()},
        ),
        target=probe.target,
        scoring=scoring,
        per_deal=per_deal,
        seed=seed,
        draws=(),
    )
    # read back exactly as a later command will (strict): what is written is what is read
    t = folder.from_bytes(folder.to_text(t).encode("utf-8"), str(folder.path_of(base)))
    folder.create(base, t)
    return t


def _event_name(base: Path, given: str | None) -> str:
    """The event's name: as given (one line, at most 200 characters), else the folder's
    name (without its control characters)."""
    from prefcalc.rules.model import MAX_NOTE, check_note

    if given is None or not given.strip():
        folder = "".join(c for c in base.resolve().name if c.isprintable()).strip()
        return folder[:MAX_NOTE] or "tournament"
    try:
        return check_note(given)
    except DealError:
        raise DealError(
            _("the event's name '{name}' must be one line of at most {most} characters").format(
                name=shown(given), most=MAX_NOTE
            )
        ) from None


def load(base: Path) -> TournamentFile:
    return folder.load(base)


def player(name: str, club: str | None = None, rating: int | None = None) -> PlayerRecord:
    """A registered player with his club and rating, checked (one line when refused)."""
    from prefcalc.rules.model import MAX_NOTE, check_note
    from prefcalc.tournament.model import MAX_RATING

    if club is not None:
        typed = club
        try:
            club = check_note(typed) or None
        except DealError:
            raise DealError(
                _("the club '{club}' must be one line of at most {most} characters").format(
                    club=shown(typed), most=MAX_NOTE
                )
            ) from None
    if rating is not None and not 0 <= rating <= MAX_RATING:
        raise DealError(
            _("a rating is a whole number from 0 to {most}, not {rating}").format(
                most=MAX_RATING, rating=rating
            )
        )
    return PlayerRecord(name=check_names((name,))[0], club=club, rating=rating)


def standings(base: Path, after_round: int | None = None) -> Standings:
    """The standings after round ``after_round`` (default: the last round drawn)."""
    from prefcalc.tournament.standings import standings as _standings

    return _standings(base, folder.load(base), after_round)


def _previous_complete(t: TournamentFile, rounds: Sequence[Sequence[Table]]) -> None:
    """Refuse a draw while a table of the last round is still playing."""
    last = rounds[-1]
    playing = [tb for tb in last if not tb.complete]
    if not playing:
        return
    first = playing[0]
    if t.deals is not None:
        state = ngettext(
            "table {table} has played {count} of {deals} deal",
            "table {table} has played {count} of {deals} deals",
            t.deals,
        ).format(table=first.number, count=first.deals, deals=t.deals)
    else:
        state = _("table {table} is not closed (prefcalc tournament close)").format(
            table=first.number
        )
    more = len(playing) - 1
    also = (
        ngettext(" and {n} more table", " and {n} more tables", more).format(n=more) if more else ""
    )
    raise DealError(
        _("round {round} is not over: {state}{also}").format(
            round=len(rounds), state=state, also=also
        )
    )


def next_round(t: TournamentFile, rounds: Sequence[Sequence[Table]]) -> RoundRecord:
    """The draw of the next round, given the tables of the rounds played (all complete):
    round 1 from the seed, then Swiss by the standings."""
    number = len(t.draws) + 1
    if number == 1:
        groups = first_round(t.names, t.seed)
    else:
        ranking = [row.name for row in rank(t, rounds).rows]
        met = met_pairs([[tb.players for tb in r.tables] for r in t.draws])
        groups = swiss(ranking, met, t.seed, number)
    tables = []
    for k, group in enumerate(groups, 1):
        seats, dealer = seat(group, t.seed, number, k)
        tables.append(
            TableRecord(table=k, players=seats, dealer=dealer, file=table_file(number, k))
        )
    return RoundRecord(round=number, drawn=_now(), tables=tuple(tables))


def draw(base: Path) -> RoundRecord:
    """Seat the next round and write its tables' ledgers (whole or not at all): refused
    when every round is drawn or a table of the last round is still playing."""
    with folder.locked(base):
        t = folder.load(base)
        folder.tidy(base, t)
        if len(t.draws) >= t.rounds:
            raise DealError(
                ngettext(
                    "the tournament's {rounds} round is drawn: there is no round {next}",
                    "all {rounds} rounds of the tournament are drawn: there is no round {next}",
                    t.rounds,
                ).format(rounds=t.rounds, next=t.rounds + 1)
            )
        rounds = read_tables(base, t)
        if rounds:
            _previous_complete(t, rounds)
        drawn = next_round(t, rounds)
        folder.write_round(base, t, drawn)
        return drawn


def close(base: Path, round_: int, table: int, *, reopen: bool = False) -> Table:
    """The judge ends a table of a round played by time (``reopen``: takes it back while the
    next round is not drawn). At a table of four the players must have dealt equally
    (*pin*): a close after a number of deals that is not a multiple of 4 is refused."""
    with folder.locked(base):
        t = folder.load(base)
        folder.tidy(base, t)
        if t.minutes is None:
            raise DealError(
                ngettext(
                    "a round of this tournament ends by itself after its {deals} deal: nothing to close",
                    "a round of this tournament ends by itself after its {deals} deals: nothing to close",
                    t.deals or 0,
                ).format(deals=t.deals)
            )
        record = t.table(round_, table)
        if round_ < len(t.draws):
            raise DealError(
                _("round {next} is drawn already: round {round} can no longer change").format(
                    next=len(t.draws), round=round_
                )
            )
        if reopen:
            if record.closed is None:
                raise DealError(
                    _("table {table} of round {round} is not closed").format(
                        table=table, round=round_
                    )
                )
            changed = record.model_copy(update={"closed": None})
        else:
            if record.closed is not None:
                raise DealError(
                    _("table {table} of round {round} is closed already").format(
                        table=table, round=round_
                    )
                )
            current = read_table(base, t, round_, record)
            size = len(record.players)
            if size == 4 and current.deals % 4:
                left = 4 - current.deals % 4
                raise DealError(
                    ngettext(
                        "at a table of four every player deals equally: play {n} more deal before closing ({count} played)",
                        "at a table of four every player deals equally: play {n} more deals before closing ({count} played)",
                        left,
                    ).format(n=left, count=current.deals)
                )
            changed = record.model_copy(
                update={"closed": ClosedRecord(time=_now(), deals=current.deals)}
            )
        draws = list(t.draws)
        tables = list(draws[round_ - 1].tables)
        tables[table - 1] = changed
        draws[round_ - 1] = draws[round_ - 1].model_copy(update={"tables": tuple(tables)})
        after = t.model_copy(update={"draws": tuple(draws)})
        folder.write(base, after)
        return read_table(base, after, round_, changed)


def table(base: Path, round_: int, number: int) -> Table:
    """Table ``number`` of round ``round_``, read and settled (for its protocol)."""
    t = folder.load(base)
    return read_table(base, t, round_, t.table(round_, number))
