"""The tournament's library API: what ``prefcalc tournament ...`` calls (and a script may).

Every function takes the tournament's folder. The ones that change it (:func:`new`,
:func:`draw`, :func:`undraw`, :func:`close`, :func:`withdraw`, :func:`add`, :func:`rename`,
:func:`correct`) hold its lock from reading to writing, first finish or undo what a crashed
command left (:func:`prefcalc.tournament.folder.tidy`), and change nothing when they refuse
(a :class:`~prefcalc.errors.PrefcalcError` whose text is the one line the CLI prints); the
others only read::

    from prefcalc.tournament import api as tournament
    t = tournament.new(Path("cup"), ["Anna", "Boris", "Vera", "Dima", "Egor", "Fedya", "Gleb"],
                       rounds=3, deals=24, convention="leningrad", seed=7)
    r1 = tournament.draw(Path("cup"))           # the round's tables, their ledgers written
    s = tournament.standings(Path("cup"))       # s.rows[0].name, s.rows[0].points
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from prefcalc.errors import DealError, shown
from prefcalc.i18n import _, ngettext
from prefcalc.rules.model import name_key
from prefcalc.store import files
from prefcalc.store.schemas import ConventionRecord
from prefcalc.tournament import folder
from prefcalc.tournament.conversions import SCORINGS, Scoring
from prefcalc.tournament.draw import (
    MAX_TIME_LIMIT,
    TIME_LIMIT,
    Pair,
    Seating,
    arrange,
    met_pairs,
    pair_of,
    random_order,
    rating_order,
    seat,
)
from prefcalc.tournament.draw import swap as swapped
from prefcalc.tournament.model import (
    MAX_DEALS,
    MAX_MINUTES,
    MAX_ROUNDS,
    MAX_SEED,
    Absent,
    ClosedRecord,
    CorrectionRecord,
    PlayerRecord,
    RoundRecord,
    Seeding,
    TableRecord,
    TournamentFile,
    check_names,
    registered_name,
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
    seeding: Seeding = "random",
    forbid: Sequence[tuple[str, str]] = (),
    late: Absent = "zero",
    bye: Absent = "zero",
) -> TournamentFile:
    """A new tournament in ``base`` (made if need be; refused if it holds one already).

    ``players`` are names or :class:`PlayerRecord` (with club and rating); a round is
    ``deals`` deals per table or ``minutes`` long; ``convention`` a preset or a house-rules
    TOML file with ``options`` (``--set`` texts) on top; ``seed`` decides every draw
    (default: a random one of six digits, stored); ``seeding``: round 1 at random or by
    rating; ``forbid``: pairs of players never seated together; ``late``, ``bye``: what a
    late entry's missed rounds and a bye count (docs/tournament.md §5.6)."""
    from prefcalc import api

    names = check_names(
        tuple(p.name if isinstance(p, PlayerRecord) else p for p in players), registering=True
    )
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
    for value, what in ((late, "--late"), (bye, "--bye")):
        if value not in ("zero", "average"):
            raise DealError(
                _("{option} is zero or average, not '{value}'").format(
                    option=what, value=shown(value)
                )
            )
    if seeding not in ("random", "rating"):
        raise DealError(
            _("--seeding is random or rating, not '{value}'").format(value=shown(seeding))
        )
    pairs = _forbidden(names, forbid)
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
        seeding=seeding,
        forbid=pairs,
        late=late,
        bye=bye,
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
    return PlayerRecord(name=check_names((name,), registering=True)[0], club=club, rating=rating)


def _forbidden(
    names: Sequence[str], pairs: Sequence[tuple[str, str]], known: Sequence[tuple[str, str]] = ()
) -> tuple[tuple[str, str], ...]:
    """The pairs kept apart, each two registered players (as registered), without repeats:
    ``known`` and then ``pairs``."""
    out = list(known)
    seen = {pair_of(a, b) for a, b in known}
    for a, b in pairs:
        pair = (_registered(names, a), _registered(names, b))
        if pair_of(*pair) == pair_of(pair[0], pair[0]):
            raise DealError(_("--forbid takes two players: {a},{b}").format(a=a, b=b))
        if pair_of(*pair) not in seen:
            seen.add(pair_of(*pair))
            out.append(pair)
    return tuple(out)


def _registered(names: Sequence[str], typed: str) -> str:
    """The registered name ``typed`` names (by its key: case, forms, ё read as е)."""
    from prefcalc.tournament.model import player_key

    try:
        key = player_key(registered_name(typed))
    except DealError:
        key = ""
    for name in names:
        if player_key(name) == key:
            return name
    raise DealError(_("no player '{name}' in this tournament").format(name=shown(typed)))


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


# --- the draw ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    """A round's draw: its record (tables, seats, first dealers, byes), the seating as
    solved (:class:`~prefcalc.tournament.draw.Seating`: repeats, distance, proved), the
    order it was solved against (the standings' ranking; round 1: the seed's or the
    ratings' order), the seconds it took, and whether it was written (not for ``--show``);
    ``round`` and ``tables`` are the record's."""

    record: RoundRecord
    seating: Seating
    ranking: tuple[str, ...]
    seconds: float
    written: bool

    @property
    def round(self) -> int:
        return self.record.round

    @property
    def tables(self) -> tuple[TableRecord, ...]:
        return self.record.tables


def _ranking(t: TournamentFile, rounds: Sequence[Sequence[Table]], number: int) -> list[str]:
    """The order a round is solved against, of the players of its field: round 1 the seed's
    random order (or by rating, §3.2), later the standings after the previous round."""
    field = t.field(number)
    if number == 1:
        if t.seeding == "rating":
            ratings = {p.name: p.rating for p in t.players}
            return sorted(
                random_order(field, t.seed),
                key=lambda p: (ratings[p] is None, -(ratings[p] or 0)),
            )
        return random_order(field, t.seed)
    present = set(field)
    return [row.name for row in rank(t, rounds).rows if row.name in present]


def _byes(t: TournamentFile, ranking: list[str]) -> tuple[str, ...]:
    """Who sits the round out (*pin*, §3.7): nobody, unless the field cannot be seated at
    tables of 4 and 3 (5 players): then one, the lowest ranked who has had no bye yet (all
    have: the lowest ranked). Fewer than 3 players cannot play a round: refused."""
    if len(ranking) < 3:
        raise DealError(
            ngettext(
                "{n} player is in the field: a round needs 3 at least",
                "{n} players are in the field: a round needs 3 at least",
                len(ranking),
            ).format(n=len(ranking))
        )
    if len(ranking) != 5:
        return ()
    had = {name_key(p) for r in t.draws for p in r.byes}
    fresh = [p for p in ranking if name_key(p) not in had]
    return ((fresh or ranking)[-1],)


def next_round(
    t: TournamentFile,
    rounds: Sequence[Sequence[Table]],
    *,
    time_limit: float = TIME_LIMIT,
    swap: tuple[str, str] | None = None,
) -> Drawn:
    """The draw of the next round, given the tables of the rounds played (all complete):
    the field's players ranked (round 1: by the seed or by rating), a bye if the field
    cannot be seated, the seating solved (:func:`~prefcalc.tournament.draw.arrange`), the
    director's swap, then each table's seats and first dealer from the seed."""
    number = len(t.draws) + 1
    started = time.monotonic()
    ranking = _ranking(t, rounds, number)
    byes = _byes(t, ranking)
    ranking = [p for p in ranking if p not in byes]
    if number == 1 and t.seeding == "rating":
        ratings = {p.name: p.rating for p in t.players}
        ranking = rating_order(ranking, ratings, t.seed)
    met = met_pairs([[tb.players for tb in r.tables] for r in t.draws])
    forbid: set[Pair] = {pair_of(a, b) for a, b in t.forbid}
    seating = arrange(ranking, met, t.seed, number, forbid=forbid, time_limit=time_limit)
    if swap is not None:
        a, b = (_swap_name(t, ranking, w) for w in swap)
        seating = swapped(seating, a, b, ranking, met)
        if any(pair_of(x, y) in forbid for table in seating.tables for x, y in _pairs(table)):
            raise DealError(_("the swap seats two players kept apart (--forbid) at one table"))
    tables = []
    for k, group in enumerate(seating.tables, 1):
        seats, dealer = seat(group, t.seed, number, k)
        tables.append(
            TableRecord(table=k, players=seats, dealer=dealer, file=table_file(number, k))
        )
    record = RoundRecord(round=number, drawn=_now(), tables=tuple(tables), byes=byes)
    return Drawn(record, seating, tuple(ranking), time.monotonic() - started, written=False)


def _pairs(table: Sequence[str]) -> list[tuple[str, str]]:
    import itertools

    return list(itertools.combinations(table, 2))


def _swap_name(t: TournamentFile, ranking: Sequence[str], typed: str) -> str:
    """The player of the round ``typed`` names, for a swap."""
    try:
        return _registered(ranking, typed)
    except DealError:
        name = _registered(t.names, typed)  # refused here when nobody is called that
    raise DealError(_("'{name}' is not seated in this round").format(name=name))


def _check_limit(time_limit: float) -> None:
    if not 0 < time_limit <= MAX_TIME_LIMIT:
        raise DealError(
            _("--time-limit is a number of seconds above 0, at most {most}, not {value}").format(
                most=int(MAX_TIME_LIMIT), value=f"{time_limit:g}"
            )
        )


def draw(
    base: Path,
    *,
    time_limit: float = TIME_LIMIT,
    show: bool = False,
    swap: tuple[str, str] | None = None,
    forbid: Sequence[tuple[str, str]] = (),
) -> Drawn:
    """Seat the next round and write its tables' ledgers (whole or not at all): refused
    when every round is drawn or a table of the last round is still playing. ``show``:
    the proposal only, nothing written; ``swap``: two players exchanged in it; ``forbid``:
    pairs kept apart from this round on (stored with the round)."""
    _check_limit(time_limit)
    with folder.locked(base):
        t = folder.load(base)
        if not show:
            folder.tidy(base, t)
        if len(t.draws) >= t.rounds:
            raise DealError(
                ngettext(
                    "the tournament's {rounds} round is drawn: there is no round {next}",
                    "all {rounds} rounds of the tournament are drawn: there is no round {next}",
                    t.rounds,
                ).format(rounds=t.rounds, next=t.rounds + 1)
            )
        if forbid:
            t = t.model_copy(update={"forbid": _forbidden(t.names, forbid, t.forbid)})
        rounds = read_tables(base, t)
        if rounds:
            _previous_complete(t, rounds)
        drawn = next_round(t, rounds, time_limit=time_limit, swap=swap)
        if show:
            return drawn
        folder.write_round(base, t, drawn.record)
        return Drawn(drawn.record, drawn.seating, drawn.ranking, drawn.seconds, written=True)


def undraw(base: Path) -> RoundRecord:
    """Take back the last round drawn while no entry is recorded at any of its tables: its
    ledgers removed, the round before it open again."""
    with folder.locked(base):
        t = folder.load(base)
        folder.tidy(base, t)
        if not t.draws:
            raise DealError(_("no round is drawn: there is nothing to take back"))
        last = t.draws[-1]
        for tb in last.tables:
            path = base / tb.file
            if not path.exists():
                continue
            from prefcalc import api

            game = api.load(path)
            if game.entries:
                raise DealError(
                    ngettext(
                        "round {round} has begun: table {table} has {n} entry recorded ({file}); undo it first to take the round back",
                        "round {round} has begun: table {table} has {n} entries recorded ({file}); undo them first to take the round back",
                        len(game.entries),
                    ).format(round=last.round, table=tb.table, n=len(game.entries), file=tb.file)
                )
        after = t.model_copy(update={"draws": t.draws[:-1]})
        folder.write(base, after)
        files.fault("undraw-after-record")
        folder.tidy(base, after)  # its empty ledgers go, the round before is unsealed
        return last


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


# --- the field: withdrawals, late entries, names ---------------------------------------------


def _next_round_open(t: TournamentFile, refusal: str) -> int:
    """The round a change of the field takes effect from (the next one to draw); refused
    with ``refusal`` when every round is drawn."""
    if len(t.draws) >= t.rounds:
        raise DealError(refusal.format(rounds=t.rounds))
    return len(t.draws) + 1


@dataclass(frozen=True)
class FieldChange:
    """What :func:`withdraw` or :func:`add` did: the player as registered now, the round
    it takes effect from, and whether the registration itself went (a withdrawal before
    he played) or came."""

    player: PlayerRecord
    round: int
    removed: bool = False


def withdraw(base: Path, name: str) -> FieldChange:
    """``name`` withdraws from the next round on: his played rounds stay in the standings
    (marked withdrawn), the next draw plans the tables for the players present. A player
    who has played no round yet is taken off the registration instead."""
    with folder.locked(base):
        t = folder.load(base)
        folder.tidy(base, t)
        record = t.player(_registered(t.names, name))
        assert record is not None
        if record.withdrawn is not None:
            raise DealError(
                _("{name} has withdrawn already (from round {round} on)").format(
                    name=record.name, round=record.withdrawn
                )
            )
        number = _next_round_open(
            t,
            _("every round is drawn ({rounds}): there is no round left to withdraw from"),
        )
        played = any(record.name in tb.players for r in t.draws for tb in r.tables)
        if not played:
            players = tuple(p for p in t.players if p is not record)
            forbid = tuple(pair for pair in t.forbid if record.name not in pair)
            after = t.model_copy(update={"players": players, "forbid": forbid})
            folder.write(base, after)
            return FieldChange(record, number, removed=True)
        changed = record.model_copy(update={"withdrawn": number})
        players = tuple(changed if p is record else p for p in t.players)
        folder.write(base, t.model_copy(update={"players": players}))
        return FieldChange(changed, number)


def add(base: Path, name: str, club: str | None = None, rating: int | None = None) -> FieldChange:
    """A late entry: ``name`` registered now, in the field from the next round on; the
    rounds he missed count by the tournament's rule (``late``: zero or the average)."""
    with folder.locked(base):
        t = folder.load(base)
        folder.tidy(base, t)
        number = _next_round_open(
            t, _("every round is drawn ({rounds}): a late entry has no round left to play")
        )
        record = player(name, club, rating)
        check_names((*t.names, record.name), registering=True)
        if number > 1:
            record = record.model_copy(update={"joined": number})
        folder.write(base, t.model_copy(update={"players": (*t.players, record)}))
        return FieldChange(record, number)


def rename(base: Path, old: str, new: str) -> tuple[str, str, list[str]]:
    """``old`` is called ``new`` from now on, in ``tournament.json`` and in every table's
    ledger he sat at, as one change: all the files or none (a crash in between is finished
    or undone by the next command, and read meanwhile as before). Returns the old name, the
    new one and the ledgers rewritten."""
    with folder.locked(base):
        t = folder.load(base)
        folder.tidy(base, t)
        was = _registered(t.names, old)
        others = tuple(n for n in t.names if n != was)
        try:
            now = registered_name(new)
        except DealError as exc:
            raise DealError(exc.message) from None
        if now == was:
            raise DealError(_("{name} is called that already").format(name=was))
        check_names((*others, now), registering=True)
        return was, now, folder.rename(base, t, was, now)


# --- corrections ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """What a correction changed for a later round: the standings it was drawn from
    (``moved``: each player whose place changed, with his places before and after), and
    whether the draw would have differed (None: the standings did not change)."""

    round: int
    moved: tuple[tuple[str, int, int], ...]
    differs: bool | None


@dataclass(frozen=True)
class Corrected:
    record: CorrectionRecord
    result: object  # the command's result (prefcalc.commands.Result)
    effects: tuple[Effect, ...]


def _orders(t: TournamentFile, rounds: Sequence[Sequence[Table]], upto: int) -> list[list[str]]:
    """The standings' order of the field of each round 2..upto+1 drawn (the order each was
    drawn from), for rounds 1..upto read."""
    return [_ranking(t, rounds[:k], k + 1) for k in range(1, upto + 1)]


def correct(
    base: Path,
    round_: int,
    number: int,
    line: str,
    reason: str,
    by: str | None = None,
    *,
    time_limit: float = TIME_LIMIT,
) -> Corrected:
    """The director's correction of table ``number`` of round ``round_`` after the next
    round was drawn (§4.5): ``line`` (an edit, delete, insert, undo, penalty, adjust or
    deal line, as ``play`` reads it) carried out on the table's ledger, recorded in
    ``tournament.json`` with ``reason``, who made it (``by``, else the system's user) and
    when; returns it with what it changed for the rounds drawn after it."""
    from prefcalc import commands
    from prefcalc.store import seal

    _check_limit(time_limit)
    with folder.locked(base):
        t = folder.load(base)
        folder.tidy(base, t)
        record = t.table(round_, number)
        if round_ >= len(t.draws):
            raise DealError(
                _(
                    "round {round} is still open (round {next} is not drawn): change it at its table: prefcalc edit N ... --file {file}"
                ).format(round=round_, next=round_ + 1, file=_shell(str(base / record.file)))
            )
        reason_text = _one_line(reason, _("the reason"))
        if not reason_text:
            raise DealError(_('give the reason of the correction: --reason "…"'))
        who = _one_line(by if by is not None else _user(), _("who corrects"))
        path = base / record.file
        from prefcalc import api

        game = api.load(path)
        command = commands.parse_line(line, game)
        if not isinstance(
            command,
            commands.Record | commands.Edit | commands.Delete | commands.Insert | commands.Undo,
        ):
            raise DealError(
                _(
                    "a correction is an edit, delete, insert, undo, penalty, adjust or deal line, not '{line}'"
                ).format(line=shown(line))
            )
        line_text = _one_line(line, _("the line"))
        rounds = read_tables(base, t)
        before = _orders(t, rounds, len(t.draws) - 1)
        real = files.real_path(path)
        kept = files.read_regular(real, "the ledger", files.MAX_LEDGER)
        journal = folder.journal_of(base, record)
        files.write_atomic(journal, kept)
        files.fault("correct-after-journal")
        try:
            with seal.unsealed(real):
                result = commands.execute(command, path)
        except BaseException:
            journal.unlink(missing_ok=True)
            raise
        files.fault("correct-after-ledger")
        written = files.read_regular(real, "the ledger", files.MAX_LEDGER)
        entry = CorrectionRecord(
            round=round_,
            table=number,
            line=line_text,
            reason=reason_text,
            by=who,
            time=_now(),
            ledger=folder.digest(written),
        )
        after = t.model_copy(update={"corrections": (*t.corrections, entry)})
        folder.write(base, after)
        files.fault("correct-after-record")
        journal.unlink(missing_ok=True)
        now = read_tables(base, after)
        effects = _effects(after, now, before, round_, time_limit)
        return Corrected(entry, result, effects)


def _effects(
    t: TournamentFile,
    rounds: Sequence[Sequence[Table]],
    before: Sequence[Sequence[str]],
    corrected: int,
    time_limit: float,
) -> tuple[Effect, ...]:
    """For every round drawn after round ``corrected``: did the standings it was drawn
    from change, and would its draw have differed (the same field, the same meetings, the
    same seed, the new standings)."""
    out = []
    after = _orders(t, rounds, len(t.draws) - 1)
    for k in range(corrected + 1, len(t.draws) + 1):
        old, new = before[k - 2], after[k - 2]
        if old == new:
            out.append(Effect(k, (), None))
            continue
        moved = tuple(
            (name, old.index(name) + 1, new.index(name) + 1)
            for name in new
            if name in old and old.index(name) != new.index(name)
        )
        earlier = t.model_copy(update={"draws": t.draws[: k - 1]})
        again = next_round(earlier, rounds[: k - 1], time_limit=time_limit)
        drawn = {frozenset(tb.players) for tb in t.draws[k - 1].tables}
        redrawn = {frozenset(tb.players) for tb in again.tables}
        out.append(Effect(k, moved, drawn != redrawn))
    return tuple(out)


def _one_line(text: str, what: str) -> str:
    from prefcalc.rules.model import MAX_NOTE, check_note

    try:
        return check_note(text)
    except DealError:
        raise DealError(
            _("{what} must be one line of at most {most} characters").format(
                what=what, most=MAX_NOTE
            )
        ) from None


def _user() -> str:
    import getpass

    try:
        return getpass.getuser()
    except Exception:  # no user name in the environment nor the password database
        return "?"


def _shell(text: str) -> str:
    import shlex

    return shlex.quote(text)
