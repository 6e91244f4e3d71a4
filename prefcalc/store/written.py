"""The text of the ledger this process last wrote or read, kept so that the next write encodes
only what is new (:func:`prefcalc.store.text.game_to_json_text`).

- **what it keys on**: an entry's identity. An :class:`~prefcalc.rules.model.Entry` is an
  immutable value, so the very object that was written (or read from a file this program
  wrote) has the same line; each line is kept with its entry, so an identity is never reused
  while it is here, and a line is used only for the very object it was made from (an equal
  entry that is another object is encoded afresh). The whole text is kept with its header's
  text and its very entries: a game whose header is the same and whose entries begin with
  those is that text with the new lines spliced in.
- **what it holds**: the lines of the last game's entries only (a write of another game
  replaces them), those of a game read as text still unsplit (a command that appends to it
  never needs them), and the last text.
- **what guards it**: :data:`_lock`; each step (a look-up and the lines it adds, a
  snapshot of the last text, its replacement) is one step under it. Two tables of ``serve
  --tournament`` writing at once may each replace what the other kept (the next write then
  encodes more), never give one a line of the other: a line is used only for its own entry.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from prefcalc.rules.model import Entry

_lines: dict[int, tuple[Entry, str]] = {}
"""The line of each entry of the game last written or read as text, by the entry's identity
(the entry is kept with its line, so an identity is never reused while it is here)."""
_unsplit: tuple[tuple[Entry, ...], str, str] | None = None
"""The entries of the game last read as text, the text of their lines and what separates
them, not yet put in :data:`_lines` (a command that appends to that game never needs them:
its text is spliced)."""
_last: tuple[str, tuple[Entry, ...], str] | None = None
"""The header, the entries and the text of the game last written or read as text."""
_lock = threading.Lock()


def lines(
    entries: tuple[Entry, ...], encode: Callable[[Entry], str], keep: bool = False
) -> list[str]:
    """The line of each of ``entries``: the one kept for that very entry, else ``encode``'s.
    Only these entries' lines are kept after (``keep``: they are added to those kept, the
    entries appended to the last game)."""
    global _lines, _unsplit
    with _lock:
        known = _lines
        if not keep and _unsplit is not None:
            kept, body, between = _unsplit
            split = body.split(between) if kept else []
            known.update({id(e): (e, line) for e, line in zip(kept, split, strict=True)})
        if not keep:
            _unsplit = None
        fresh: dict[int, tuple[Entry, str]] = known if keep else {}
        out: list[str] = []
        for entry in entries:
            hit = known.get(id(entry))
            line = hit[1] if hit is not None and hit[0] is entry else encode(entry)
            fresh[id(entry)] = (entry, line)
            out.append(line)
        _lines = fresh
        return out


def read_as_text(entries: tuple[Entry, ...], body: str, between: str, text: str, head: str) -> None:
    """Keep the game just read from ``text`` (its ``head`` and the ``body`` of its deal lines,
    separated by ``between``): its lines are those of ``entries``, split when first needed."""
    global _lines, _unsplit, _last
    with _lock:
        _lines, _unsplit = {}, (entries, body, between)
        _last = (head, entries, text)


def last_text() -> tuple[str, tuple[Entry, ...], str] | None:
    """The header, the entries and the text of the game last written or read as text."""
    return _last


def keep_text(head: str, entries: tuple[Entry, ...], text: str) -> None:
    """Keep ``text`` as the last text, of a game with header ``head`` and ``entries``."""
    global _last
    with _lock:
        _last = (head, entries, text)


def forget() -> None:
    """Keep nothing (what a new process starts with)."""
    global _lines, _unsplit, _last
    with _lock:
        _lines, _unsplit, _last = {}, None, None
