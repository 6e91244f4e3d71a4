"""The night this process last scored, kept for the next call; a night resumed from a checkpoint.

Recording a deal needs the state of the game after its last entry, and showing the sheet
needs every row; both come from replaying the record (:func:`prefcalc.rules.scoring.replay`).
The public API (:mod:`prefcalc.api`) asks here instead, so that a session, a server or a
command replays a night at most once:

- **what it keys on**: the game value's identity. A :class:`~prefcalc.rules.model.Game` is
  immutable, so the very object the last call returned (or the ledger's last read gave) is
  the same record; another object, even an equal one, is looked up afresh. One slot: the game,
  its night (a :class:`~prefcalc.rules.scoring.Night`, every row replayed, or a
  :class:`Resumed`) and its sheet once asked for (kept while the night is the same).
- **where a night comes from** when the slot holds another game: the checkpoint the command
  that wrote the ledger kept for its bytes (:func:`prefcalc.store.ledger.stored_checkpoint`:
  the state after the last entry alone, trusted only if it :func:`fits` the record), else a
  replay of the record under its own rules.
- **what guards it**: the slot is one immutable tuple; each call reads it once and every
  change replaces it whole under :data:`_lock`. The threads of ``serve --tournament`` (one
  per table at once) never see half of another table's slot; a table whose night another
  table's call displaced resumes or replays it: a cost, never a wrong sheet. A game is only
  ever changed by one thread at a time (its table's lock, its ledger's lock), so a night kept
  here is never extended by two threads at once.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import Entry, Game, seating
from prefcalc.rules.scoring import (
    Night,
    ReplayedRows,
    Scored,
    Sheet,
    State,
    replay,
    resume,
    sheet_of,
)
from prefcalc.store import ledger


class Resumed(NamedTuple):
    """A game's night known from the state after its last entry alone (a checkpoint another
    process kept, :func:`prefcalc.store.ledger.stored_checkpoint`) and the rows of the
    entries appended since; the older rows are replayed only when one is read
    (:class:`~prefcalc.rules.scoring.ReplayedRows`)."""

    convention: Convention
    state: State
    tail: tuple[Scored, ...]
    rows: ReplayedRows

    def then(self, game: Game, entry: Entry) -> Night | Resumed:
        """The night of ``game``, this night's record with ``entry`` appended: one step (from
        the replayed night, if a row before the tail was read meanwhile)."""
        if self.rows.night is not None:
            return self.rows.night.then(entry)
        state, row = resume(self.state, self.convention, entry)
        tail = self.tail + (row,)  # noqa: RUF005 (a memcpy)
        return Resumed(self.convention, state, tail, ReplayedRows(game, self.convention, tail))

    def sheet(self) -> Sheet:
        return sheet_of(self.state, self.convention, self.rows)


class _Slot(NamedTuple):
    game: Game
    night: Night | Resumed
    sheet: Sheet | None = None


_slot: _Slot | None = None
"""The game this process last recorded into or scored under its own rules, its night, and
its sheet once asked for."""
_lock = threading.Lock()
"""Taken by every change of :data:`_slot` (a read takes the slot once, without it)."""


def _of(game: Game) -> _Slot | None:
    """The slot, if it is ``game``'s."""
    slot = _slot
    return slot if slot is not None and slot.game is game else None


def remember(game: Game, night: Night | Resumed) -> None:
    """Keep ``night`` as the night of ``game`` (the next change of ``game`` goes on from it)."""
    global _slot
    with _lock:
        drawn = _slot.sheet if _slot is not None and _slot.night is night else None
        _slot = _Slot(game, night, drawn)  # the same night: the same sheet


def known(game: Game) -> Night | Resumed | None:
    """The night kept for ``game``, or None."""
    slot = _of(game)
    return None if slot is None else slot.night


def forget() -> None:
    """Keep nothing (a test's fresh process)."""
    global _slot
    with _lock:
        _slot = None


def rules(game: Game) -> Convention:
    """The convention ``game`` is scored by: its own (what :func:`prefcalc.api.rules` gives
    without another convention or overrides)."""
    return ledger.resolve_convention(game.convention)


def night(game: Game) -> Night:
    """``game`` replayed under its own rules (the night kept for it, or a replay): every row
    and the checkpoints a change of a past entry replays from; kept."""
    found = known(game)
    if isinstance(found, Night):
        return found
    if found is None:
        replayed = replay(game, rules(game))
    else:  # resumed: its rows replayed, if one was read
        replayed = found.rows.night or replay(game, found.convention)
    remember(game, replayed)
    return replayed


def latest(game: Game) -> Night | Resumed:
    """What appending to ``game`` (or its sheet) goes on from: the night kept for it, else
    the state after its last entry that the command which wrote the ledger kept (a
    checkpoint), else a replay of the record; kept."""
    found = known(game)
    if found is not None:
        return found
    resumed = checkpointed(game)
    if resumed is None:
        return night(game)
    remember(game, resumed)
    return resumed


def appended(game: Game, before: Night | Resumed, entry: Entry) -> None:
    """Keep the night of ``game``, the record of ``before`` with ``entry`` appended: one
    step from ``before``."""
    remember(game, before.then(game, entry) if isinstance(before, Resumed) else before.then(entry))


def renamed(game: Game, new: Game) -> None:
    """``new`` has the very deals of ``game`` (a gender was set): the night kept for
    ``game``, if any, is ``new``'s too (and so is its checkpoint)."""
    found = known(game)
    if found is not None:
        remember(new, found)


def dropped(game: Game, new: Game) -> None:
    """``new`` is ``game`` without its last entry: its night is the kept one, one step back,
    when every row of it is known (else it is resumed or replayed when asked for)."""
    found = known(game)
    if isinstance(found, Night):
        remember(new, found.dropped(new.entries))


def sheet(game: Game) -> Sheet:
    """The sheet of ``game`` under its own rules, from :func:`latest`; kept with its night."""
    global _slot
    slot = _of(game)
    if slot is not None and slot.sheet is not None:
        return slot.sheet
    found = latest(game)
    result = found.sheet()
    with _lock:
        if _slot is not None and _slot.game is game and _slot.night is found:
            _slot = _slot._replace(sheet=result)
    return result


def state_to_keep(game: Game) -> object | None:
    """The checkpoint of ``game`` as the ledger keeps it (the state after its last entry, as
    plain data), when its night is kept here; else None."""
    found = known(game)
    return None if found is None else found.state.to_data()


def checkpointed(game: Game) -> Resumed | None:
    """The night of ``game`` from the checkpoint kept for the ledger it was read from, when
    there is one this code can read and it fits the record (anything else: None, and the
    record is replayed)."""
    data = ledger.stored_checkpoint(game)
    if data is None:
        return None
    try:
        conv = rules(game)
        state = State.from_data(data)
        if not fits(state, game, conv):
            return None
    except (KeyError, TypeError, ValueError, ArithmeticError, IndexError, RecursionError):
        return None
    return Resumed(conv, state, (), ReplayedRows(game, conv))


def fits(state: State, game: Game, conv: Convention) -> bool:
    """Whether ``state`` can be the state after ``game``'s last entry under ``conv``: its
    length, seating, dealers and columns (a checkpoint is trusted only for the ledger bytes
    and the code it was kept for; this keeps a file changed by another hand from breaking the
    sheet). Its findings are told once here, so a finding this code does not know raises
    now, not when the sheet is shown."""
    n = len(state.players)
    players = set(state.players)
    last = next((e.dealer for e in reversed(game.entries) if e.dealer is not None), None)
    fit = (
        state.number == len(game.entries)
        and state.players == seating(game)
        and state.first_dealer == game.first_dealer
        and state.last_dealer == last
        and len(state.pool) == len(state.mountain) == len(state.whists) == len(state.bombs) == n
        and all(len(row) == n for row in state.whists)
        and state.streak >= 0
        and state.circle_size == len(game.players)
        and 0 <= state.opening_left <= len(conv.bombs_opening) * state.circle_size
        and (state.first_closed is None or state.first_closed in players)
        and (state.first_closed is None) == (state.first_closed_at is None)
    )
    if fit:
        for problem in (*state.problems, *state.unpriced):
            str(problem)
    return fit
