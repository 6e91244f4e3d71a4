"""The replay: one step per entry, a fold of it over the record, and the sheet it leaves."""

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple, overload

from prefcalc.errors import DealError
from prefcalc.perf import gc_paused
from prefcalc.rules.conventions import Convention
from prefcalc.rules.legality import Problem, findings
from prefcalc.rules.model import (
    Adjustment,
    AllPass,
    Contract,
    Entry,
    Game,
    Join,
    Misere,
    Penalty,
    Preference,
    SetTerm,
    sitting_out,
)
from prefcalc.rules.scoring.closing import finished, first_to_close
from prefcalc.rules.scoring.contract import score_contract
from prefcalc.rules.scoring.entries import (
    score_adjustment,
    score_join,
    score_preference,
    score_set_term,
)
from prefcalc.rules.scoring.misere import score_misere
from prefcalc.rules.scoring.passes import score_all_pass
from prefcalc.rules.scoring.penalty import score_penalty
from prefcalc.rules.scoring.sheet import Scored, Sheet
from prefcalc.rules.scoring.state import State, Tally, start

Scorer = Callable[[Tally, Convention, Any], None]

SCORERS: Mapping[type, Scorer] = {
    Contract: score_contract,
    Misere: score_misere,
    AllPass: score_all_pass,
    Preference: score_preference,
    Adjustment: score_adjustment,
    Penalty: score_penalty,
    Join: score_join,
    SetTerm: score_set_term,
}
"""The scorer of each kind of entry: ``scorer(tally, convention, deal)`` writes the deal onto
the tally (and moves the all-pass streak it ends or extends)."""


def _step(t: Tally, conv: Convention, entry: Entry) -> Scored:
    """Score ``entry`` onto ``t``, the sheet before it, and return its row: the one step of
    every replay (:func:`resume` takes it on a state, :func:`replay` on a whole record)."""
    number = t.number + 1
    unpriced, misplaced = findings(t, conv, entry)
    if unpriced or misplaced:
        t.unpriced += (Problem(number, finding) for finding in unpriced)
        t.problems += (Problem(number, finding) for finding in misplaced)
    min_level = conv.exit_level(t.streak)
    # what the entry's scorer reads of its place: who deals it, who sits it out (the dealer
    # at four; him and the next dealer at five), whether it is an opening deal
    dealer = t.dealer = entry.dealer
    t.writes = []
    t.factor = 1
    t.events = []
    t.price = None
    size = len(t.players)
    if size < 4 or dealer is None:
        t.away = ()
    elif size == 4:
        t.away = (t.seat[dealer],)
    else:
        t.away = tuple(t.seat[p] for p in sitting_out(tuple(t.players), dealer))
    t.opening = 0
    if t.opening_left and dealer is not None:  # docs/rules.md §8.1
        circles = conv.bombs_opening
        circle = (len(circles) * t.circle_size - t.opening_left) // t.circle_size
        t.opening_left -= 1
        if isinstance(entry.deal, AllPass):
            t.opening = 2 ** circles[circle]
            t.circle = circle + 1
    deal = entry.deal
    SCORERS[deal.__class__](t, conv, deal)
    t.number = number
    if dealer is not None:
        t.last_dealer = dealer
    if (
        t.first_closed is None and max(t.pool) >= t.target and conv.closing != "average"
    ):  # the target in force (under closing = average there is none)
        t.first_closed = first_to_close(t)
        t.first_closed_at = number
    done = t.finished = finished(t, conv)
    events = tuple(t.events) if t.events else ()
    return _new(
        Scored,
        (number, entry, tuple(t.writes), t.streak, t.price, min_level, done, t.factor, events),
    )


_new = tuple.__new__  # a named tuple made without its keyword-reading __new__ (hot path)


def resume(state: State, convention: Convention, entry: Entry) -> tuple[State, Scored]:
    """The state after ``entry``, scored after ``state`` under ``convention``, and its row.
    The entry is trusted (:func:`~prefcalc.rules.legality.validate` judged it); what the
    convention cannot price or what is out of its place is scored anyway and listed in the
    state, as the replay does."""
    t = Tally(state, convention)
    row = _step(t, convention, entry)
    return t.freeze(), row


CHECKPOINT = 128
"""A night keeps the state after every ``CHECKPOINT`` entries (a change replays from the
checkpoint before it)."""


class Night(NamedTuple):
    """A record replayed under one convention: the state after its last entry, every entry's
    row, and :attr:`marks`, the state after every :data:`CHECKPOINT` entries
    (``marks[k]``: after ``k × CHECKPOINT`` entries; ``marks[0]``, before the first)."""

    convention: Convention
    state: State
    rows: tuple[Scored, ...]
    marks: tuple[State, ...]

    def then(self, entry: Entry) -> "Night":
        """This night with ``entry`` appended: one step, whatever the night's length."""
        state, row = resume(self.state, self.convention, entry)
        marks = self.marks
        if state.number % CHECKPOINT == 0:
            marks = (*marks, state)
        rows = self.rows + (row,)  # noqa: RUF005 (a memcpy: unpacking walks every row)
        return self._replace(state=state, rows=rows, marks=marks)

    def before(self, entries: Sequence[Entry], number: int) -> State:
        """The state before entry ``number`` (1-based) of ``entries``, the record this night
        replayed (or one that agrees with it before ``number``): from the checkpoint before
        it."""
        k = (number - 1) // CHECKPOINT
        t = Tally(self.marks[k], self.convention)
        for entry in entries[k * CHECKPOINT : number - 1]:
            _step(t, self.convention, entry)
        return t.freeze()

    def changed(self, entries: Sequence[Entry], number: int) -> "Night":
        """The night of ``entries``, a record that agrees with this night's before entry
        ``number`` (1-based): replayed from the checkpoint before it."""
        k = min((number - 1) // CHECKPOINT, len(self.marks) - 1)
        with gc_paused():
            return _fold(
                self.convention,
                self.marks[k],
                entries[k * CHECKPOINT :],
                self.rows[: k * CHECKPOINT],
                self.marks[: k + 1],
            )

    def dropped(self, entries: Sequence[Entry]) -> "Night":
        """The night without its last entry (``entries``: the record without it)."""
        number = len(entries)
        k = number // CHECKPOINT
        state = self.before(entries, number + 1) if number else self.marks[0]
        return self._replace(state=state, rows=self.rows[:number], marks=self.marks[: k + 1])

    def sheet(self) -> Sheet:
        """The sheet this night leaves."""
        return sheet_of(self.state, self.convention, self.rows)


def replay(game: Game, convention: Convention) -> Night:
    """Replay every entry of ``game`` under ``convention`` (the record is never changed)."""
    with gc_paused():
        return _fold(convention, start(game, convention), game.entries, (), ())


def _fold(
    conv: Convention,
    state: State,
    entries: Iterable[Entry],
    rows: tuple[Scored, ...],
    marks: tuple[State, ...],
) -> Night:
    """The night of ``entries`` after ``state`` (``rows`` and ``marks``: those before it; the
    state itself is a checkpoint): :func:`resume` folded over them, on one tally."""
    t = Tally(state, conv)
    out = list(rows)
    kept = list(marks)
    if not kept or kept[-1].number != state.number:
        kept.append(state)
    append = out.append
    for entry in entries:
        append(_step(t, conv, entry))
        if t.number % CHECKPOINT == 0:
            kept.append(t.freeze())
    final = t.freeze() if not kept or kept[-1].number != t.number else kept[-1]
    return Night(conv, final, tuple(out), tuple(kept))


def sheet_of(state: State, convention: Convention, rows: Sequence[Scored]) -> Sheet:
    """The sheet of ``state`` under ``convention``, with ``rows``, every entry's row (a
    sequence that replays on demand will do: the state holds everything else)."""
    names = state.players
    next_dealer = state.next_dealer
    return Sheet(
        players=names,
        convention=convention,
        target=state.target,
        scored=rows,
        pool=dict(zip(names, state.pool, strict=True)),
        mountain=dict(zip(names, state.mountain, strict=True)),
        whists={
            a: {b: state.whists[i][j] for j, b in enumerate(names) if j != i}
            for i, a in enumerate(names)
        },
        streak=state.streak,
        next_dealer=next_dealer,
        finished=state.finished,
        min_level=convention.exit_level(state.streak),
        problems=state.problems,
        sitting_out=sitting_out(names, next_dealer),
        unpriced=state.unpriced,
        bombs=MappingProxyType(
            {name: state.bombs[i] for i, name in enumerate(names) if state.bombs[i]}
        ),
        opening=_opening_next(convention.bombs_opening, state.circle_size, state.opening_left),
        first_closed=state.first_closed,
        first_closed_at=state.first_closed_at,
    )


class ReplayedRows(Sequence[Scored]):
    """The rows of a record's entries, for a sheet made from a state alone (a checkpoint
    read back by another process, :func:`sheet_of`): its length is the record's, the rows of
    its last entries may be given (``tail``: the entry just resumed), and any other row is
    made by replaying the record once, when it is first read (``log``, ``explain``, the PDF)."""

    def __init__(self, game: Game, convention: Convention, tail: Sequence[Scored] = ()) -> None:
        self._game = game
        self._convention = convention
        self._tail = tuple(tail)
        self._night: Night | None = None

    def __len__(self) -> int:
        return len(self._game.entries)

    @overload
    def __getitem__(self, index: int) -> Scored: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Scored]: ...
    def __getitem__(self, index: int | slice) -> Scored | Sequence[Scored]:
        if isinstance(index, slice):
            return self.rows()[index]
        n = len(self)
        k = index + n if index < 0 else index
        first = n - len(self._tail)
        if self._night is None and first <= k < n:
            return self._tail[k - first]
        return self.rows()[index]

    def __iter__(self) -> Iterator[Scored]:
        return iter(self.rows())

    def rows(self) -> tuple[Scored, ...]:
        """Every row (the record replayed the first time they are asked for)."""
        if self._night is None:
            self._night = replay(self._game, self._convention)
        return self._night.rows

    @property
    def night(self) -> Night | None:
        """The night of the record once it was replayed (a row before the tail was read),
        else None: whoever appends next may go on from it instead of from the state alone."""
        return self._night

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return self.rows() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.rows())


def _opening_next(circles: tuple[int, ...], size: int, left: int) -> tuple[int, int, int] | None:
    """The next deal's opening circle ``(circle, circles, 2^k)``, or ``None``."""
    if not left:
        return None
    circle = (len(circles) * size - left) // size
    return circle + 1, len(circles), 2 ** circles[circle]


def score(game: Game, convention: Convention, strict: bool = False) -> Sheet:
    """Replay ``game`` under ``convention`` and return the sheet.

    The record is never changed. Entries the rules would refuse in their place (below the
    exit level after all-passes, or after the game finished: the place checks of
    :mod:`prefcalc.rules.legality`) are scored anyway and listed in ``Sheet.problems``;
    with ``strict=True`` the first one raises :class:`DealError`.
    """
    sheet = replay(game, convention).sheet()
    if strict and sheet.problems:
        first = sheet.problems[0]
        raise DealError(first.message, f"deal {first.number}")
    return sheet
