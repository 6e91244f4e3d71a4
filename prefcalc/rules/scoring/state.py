"""The running sheet: :class:`State` after N entries (an immutable value, plain JSON data on
demand) and :class:`Tally`, the same sheet while an entry is being scored (lists indexed by
seat, written in place, for speed).

Every player in a state is seated: a late arrival takes his seat when his join is scored
(:meth:`Tally.seat_player`), so the lists always follow the seating at that point of the
night, whose order is the final seating's (a join inserts, never reorders).
"""

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NamedTuple

from prefcalc.rules.amounts import Amount, norm
from prefcalc.rules.conventions import Convention
from prefcalc.rules.legality import Finding, Problem
from prefcalc.rules.model import Game, seat_after
from prefcalc.rules.scoring.sheet import MOUNTAIN, POOL, WHISTS, Term, Write

_new = tuple.__new__  # a named tuple made without its keyword-reading __new__ (hot paths)


class State(NamedTuple):
    """The sheet after the first ``number`` entries of a record under one convention:
    everything the next entry is judged and scored by (:func:`~prefcalc.rules.legality.validate`
    reads it, :func:`~prefcalc.rules.scoring.resume` continues from it). Amounts are exact
    (``int`` or ``Fraction``); every sequence follows :attr:`players`."""

    number: int
    """How many entries have been scored."""
    players: tuple[str, ...]
    """The seating now (every join so far has seated its player)."""
    first_dealer: str
    last_dealer: str | None
    """Who dealt the last dealt entry (``None``: nobody yet)."""
    target: int
    """The target in force (the game's, or the last ``set target``)."""
    pool: tuple[Amount, ...]
    mountain: tuple[Amount, ...]
    whists: tuple[tuple[Amount, ...], ...]
    """``whists[i][j]``: what player ``i`` wrote on player ``j``."""
    bombs: tuple[tuple[int, ...], ...]
    """Every player's bombs (their factors), oldest first (Classic, docs/rules.md §8.1)."""
    streak: int
    """The all-pass deals in a row."""
    finished: bool
    opening_left: int
    """The deals of the opening circles still to come (``bombs.opening``)."""
    circle_size: int
    """The deals of one opening circle: the players at the start."""
    first_closed: str | None
    """The first player whose pool reached the target in force (``prizes.first_close``)."""
    first_closed_at: int | None
    """The number of the entry after which he had."""
    problems: tuple[Problem, ...]
    """Entries out of their place, scored anyway (``Sheet.problems``)."""
    unpriced: tuple[Problem, ...]
    """What the convention could not price (``Sheet.unpriced``)."""

    @property
    def next_dealer(self) -> str:
        """The dealer of the next deal: clockwise after the last dealer."""
        if self.last_dealer is None:
            return self.first_dealer
        return seat_after(self.players, self.last_dealer)

    def to_data(self) -> dict[str, Any]:
        """The state as plain JSON data (amounts as whole numbers or ``"n/d"`` texts; the
        findings by their check and arguments, told in the reader's language):
        :meth:`from_data` gives back an equal state."""
        return {
            "number": self.number,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "last_dealer": self.last_dealer,
            "target": self.target,
            "pool": [_amount_data(a) for a in self.pool],
            "mountain": [_amount_data(a) for a in self.mountain],
            "whists": [[_amount_data(a) for a in row] for row in self.whists],
            "bombs": [list(b) for b in self.bombs],
            "streak": self.streak,
            "finished": self.finished,
            "opening_left": self.opening_left,
            "circle_size": self.circle_size,
            "first_closed": self.first_closed,
            "first_closed_at": self.first_closed_at,
            "problems": [_problem_data(p) for p in self.problems],
            "unpriced": [_problem_data(p) for p in self.unpriced],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "State":
        """The state :meth:`to_data` made (``KeyError``, ``TypeError`` or ``ValueError`` for
        data it did not make: a reader trusts only data it wrote)."""
        return cls(
            number=int(data["number"]),
            players=tuple(str(p) for p in data["players"]),
            first_dealer=str(data["first_dealer"]),
            last_dealer=None if data["last_dealer"] is None else str(data["last_dealer"]),
            target=int(data["target"]),
            pool=tuple(_amount(a) for a in data["pool"]),
            mountain=tuple(_amount(a) for a in data["mountain"]),
            whists=tuple(tuple(_amount(a) for a in row) for row in data["whists"]),
            bombs=tuple(tuple(int(b) for b in held) for held in data["bombs"]),
            streak=int(data["streak"]),
            finished=bool(data["finished"]),
            opening_left=int(data["opening_left"]),
            circle_size=int(data["circle_size"]),
            first_closed=None if data["first_closed"] is None else str(data["first_closed"]),
            first_closed_at=(
                None if data["first_closed_at"] is None else int(data["first_closed_at"])
            ),
            problems=tuple(_problem(p) for p in data["problems"]),
            unpriced=tuple(_problem(p) for p in data["unpriced"]),
        )


def _amount_data(value: Amount) -> int | str:
    return value if value.__class__ is int else f"{value.numerator}/{value.denominator}"


def _amount(value: Any) -> Amount:
    if isinstance(value, bool):
        raise TypeError("an amount is a number")
    if isinstance(value, int):
        return value
    return norm(Fraction(str(value)))


def _problem_data(problem: Problem) -> list[Any]:
    finding = problem.finding
    return [problem.number, finding.field, finding.key, list(finding.args)]


def _problem(data: Any) -> Problem:
    number, field, key, args = data
    return Problem(int(number), Finding(str(field), str(key), tuple(_frozen(a) for a in args)))


def _frozen(value: Any) -> Any:
    """A finding's argument as it was made: JSON lists back to the tuples they were."""
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def start(game: Game, convention: Convention) -> State:
    """The state before the first entry of ``game`` under ``convention``."""
    n = len(game.players)
    return State(
        number=0,
        players=game.players,
        first_dealer=game.first_dealer,
        last_dealer=None,
        target=game.target,
        pool=(0,) * n,
        mountain=(0,) * n,
        whists=((0,) * n,) * n,
        bombs=((),) * n,
        streak=0,
        finished=False,
        opening_left=len(convention.bombs_opening) * n,
        circle_size=n,
        first_closed=None,
        first_closed_at=None,
        problems=(),
        unpriced=(),
    )


class Tally:
    """A :class:`State` being written: the same attributes in lists (by seat), and what the
    entry being scored has written so far (its writes, its factor, its bomb events)."""

    __slots__ = (
        "away",
        "bombs",
        "circle",
        "circle_size",
        "classic",
        "closing_each",
        "dealer",
        "events",
        "factor",
        "finished",
        "first_closed",
        "first_closed_at",
        "first_dealer",
        "help",
        "help_whists",
        "last_dealer",
        "mountain",
        "number",
        "opening",
        "opening_left",
        "players",
        "pool",
        "price",
        "problems",
        "seat",
        "streak",
        "target",
        "unpriced",
        "whists",
        "writes",
    )

    def __init__(self, state: State, convention: Convention) -> None:
        self.number = state.number
        self.players = list(state.players)
        self.seat = {name: i for i, name in enumerate(self.players)}
        self.first_dealer = state.first_dealer
        self.last_dealer = state.last_dealer
        self.target = state.target
        self.pool: list[Amount] = list(state.pool)
        self.mountain: list[Amount] = list(state.mountain)
        self.whists: list[list[Amount]] = [list(row) for row in state.whists]
        self.bombs: list[list[int]] = [list(held) for held in state.bombs]
        self.streak = state.streak
        self.finished = state.finished
        self.opening_left = state.opening_left
        self.circle_size = state.circle_size
        self.first_closed = state.first_closed
        self.first_closed_at = state.first_closed_at
        self.problems = list(state.problems)
        self.unpriced = list(state.unpriced)
        # the options read on every write, decided once
        self.closing_each = convention.closing == "each"
        self.help = convention.help
        self.help_whists = convention.help_whists
        self.classic = bool(convention.bombs_opening) or convention.bombs_blind
        # the entry being scored (set by the replay's step before its scorer runs)
        self.writes: list[Write] = []
        self.factor = 1  # F of the current deal
        self.events: list[tuple[str, str, int]] = []  # bombs earned, used, kept in this deal
        self.price: Amount | None = None  # the per-trick price of an all-pass deal
        self.dealer: str | None = None
        self.away: tuple[int, ...] = ()  # who sits it out, the dealer first
        self.opening = 0  # its opening factor 2^k (0: not an opening deal)
        self.circle = 0  # its opening circle (1, 2...)

    def freeze(self) -> State:
        """The state this tally holds."""
        return State(
            number=self.number,
            players=tuple(self.players),
            first_dealer=self.first_dealer,
            last_dealer=self.last_dealer,
            target=self.target,
            pool=tuple(self.pool),
            mountain=tuple(self.mountain),
            whists=tuple(tuple(row) for row in self.whists),
            bombs=tuple(tuple(held) for held in self.bombs),
            streak=self.streak,
            finished=self.finished,
            opening_left=self.opening_left,
            circle_size=self.circle_size,
            first_closed=self.first_closed,
            first_closed_at=self.first_closed_at,
            problems=tuple(self.problems),
            unpriced=tuple(self.unpriced),
        )

    # -- raw writes ------------------------------------------------------------------
    def to_mountain(self, i: int, term: Term) -> None:
        amount = term[0]
        if amount:
            total = self.mountain[i] + amount
            self.mountain[i] = total if total.__class__ is int else norm(total)
            self.writes.append(
                _new(Write, (self.players[i], MOUNTAIN, amount, None, term[1], term[2]))
            )

    def to_whists(self, i: int, j: int, term: Term) -> None:
        amount = term[0]
        if amount:
            row = self.whists[i]
            total = row[j] + amount
            row[j] = total if total.__class__ is int else norm(total)
            self.writes.append(
                _new(Write, (self.players[i], WHISTS, amount, self.players[j], term[1], term[2]))
            )

    def to_pool_raw(self, i: int, term: Term) -> None:
        amount = term[0]
        if amount:
            total = self.pool[i] + amount
            self.pool[i] = total if total.__class__ is int else norm(total)
            self.writes.append(_new(Write, (self.players[i], POOL, amount, None, term[1], term[2])))

    # -- seating -------------------------------------------------------------------
    def seat_player(self, name: str, at: int) -> int:
        """Seat a late arrival at seat ``at`` with empty columns; return his seat."""
        self.players.insert(at, name)
        self.seat = {p: i for i, p in enumerate(self.players)}
        for values in (self.pool, self.mountain):
            values.insert(at, 0)
        for row in self.whists:
            row.insert(at, 0)
        self.whists.insert(at, [0] * len(self.players))
        self.bombs.insert(at, [])
        return at
