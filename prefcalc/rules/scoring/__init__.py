"""The scoring engine: ``score(game, convention) -> Sheet``, a pure function of the record and
the convention (docs/rules.md §2-§5, §8), read like the rule book:

==========================  ==========================================================
:mod:`.contract`            a trick contract: not played, the declarer, the defence (the
                            lone whister greedy or gentleman, two whisters, the
                            shortfall), the sitting-out dealer, his return and talon bonus
:mod:`.misere`              a misère
:mod:`.passes`              an all-pass deal and its streak
:mod:`.classic`             Classic's deal factor, bombs, opening circles, blind passes
:mod:`.closing`             the pool write, its cap and the help rule, the end of the
                            game and the first to close
:mod:`.entries`             adjustments, late arrivals, changes of the terms, the
                            "Preference" combination
:mod:`.penalty`             a penalty of the Code (a trick lost for looking at an old
                            trick is scored with its deal,
                            :func:`prefcalc.rules.penalties.counted`)
:mod:`.night`               the dispatch table from a kind of entry to its scorer, the
                            step, the replay and the sheet
:mod:`.state`               the running sheet: :class:`State` and its working copy
:mod:`.sheet`               the values: :class:`Write`, :class:`Reason`, :class:`Scored`,
                            :class:`Sheet`
==========================  ==========================================================

Every write to the sheet is a :class:`Write` carrying its reason, made with its amount from
one :class:`~prefcalc.rules.scoring.sheet.Term`, so ``explain`` and the exports show why a
number is what it is. Amounts are ``int`` where they are whole and ``Fraction`` where a
division (a half of a gentleman's split, a semi-responsible shortfall) makes them fractional;
nothing is rounded.

Scoring trusts its input: an entry is judged before it is recorded
(:func:`prefcalc.rules.legality.validate`), and a replay scores what it can. What a
convention cannot price as recorded (a Classic night re-scored under Sochi: a dark game
scored without its ×2) and an entry out of its place (a ledger that holds one) are found by
the legality's price and place checks, run by the replay over every entry, and listed on the
sheet (``Sheet.unpriced``, ``Sheet.problems``); the scorers themselves only read the
convention (``dark and dark_games``).

**The running state.** :class:`State` is the sheet after N entries (pools, mountains,
whists, the streak, the target in force, the bombs held, the opening circles' place, the
seating, the first to close, whether the game finished, what the checks found): an
immutable value, plain JSON data through :meth:`State.to_data` / :meth:`State.from_data`.
``resume(state, convention, entry) -> (state, row)`` scores one entry after it; it is the
step the replay takes (:func:`replay` folds it over a record on one working copy of the
state, freezing it every :data:`CHECKPOINT` entries), so appending a deal costs the same at
deal 10 and at deal 10,000. A :class:`Night` is a replayed record: its last state, every
entry's row and the checkpoints; ``night.then(entry)`` appends, ``night.changed(entries,
number)`` replays from the checkpoint before a changed entry. The rows of older entries stay
with the night (``log``, ``explain`` and the PDF read them); a sheet made from a state alone
(:func:`sheet_of`) takes any sequence of rows: :class:`ReplayedRows` knows its length and
the rows of the entries just resumed, and replays the record for the others only when one
is first read.
"""

from prefcalc.rules.scoring.night import (
    CHECKPOINT,
    SCORERS,
    Night,
    ReplayedRows,
    replay,
    resume,
    score,
    sheet_of,
)
from prefcalc.rules.scoring.sheet import (
    MOUNTAIN,
    POOL,
    WHISTS,
    Column,
    Joined,
    Label,
    Reason,
    ReasonFormatter,
    Scored,
    Sheet,
    Term,
    Write,
)
from prefcalc.rules.scoring.state import State, start

__all__ = [
    "CHECKPOINT",
    "MOUNTAIN",
    "POOL",
    "SCORERS",
    "WHISTS",
    "Column",
    "Joined",
    "Label",
    "Night",
    "Reason",
    "ReasonFormatter",
    "ReplayedRows",
    "Scored",
    "Sheet",
    "State",
    "Term",
    "Write",
    "replay",
    "resume",
    "score",
    "sheet_of",
    "start",
]
