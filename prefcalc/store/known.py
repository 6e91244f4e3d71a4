"""The game this process last read or wrote, kept between calls: a session, a server or the
app's engine parses its ledger again only when another hand changed the bytes.

- **what it keys on**: the ledger's real path (links resolved) and the sha256 of its bytes.
  The file is read every time (:func:`prefcalc.store.ledger.load_cached`); its game is reused
  only while the bytes are the very bytes it was read from or written as (never a size or a
  time: another process may write the same size within one clock tick). One game is kept:
  the last one read or written, by any thread. Beside it, the checkpoint that waits for a
  game's write (:func:`prefcalc.store.ledger.keep_checkpoint` given inside a change), keyed
  by that game's identity.
- **what guards it**: each is one immutable value, replaced whole under :data:`_lock` and
  read once by each call. Two tables of ``serve --tournament`` take the one place in turns
  (each then reads its ledger afresh: a cost, never another table's game, which the path
  and the digest both rule out).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, NamedTuple

from prefcalc.rules.model import Game


class Known(NamedTuple):
    """A game and the ledger it was read from or written as: its real path and its bytes'
    sha256."""

    path: Path
    digest: bytes
    game: Game


_known: Known | None = None
_pending: tuple[Game, Any] | None = None
"""The checkpoint given for a game not yet written (taken when that game is written)."""
_lock = threading.Lock()


def game_at(path: Path, digest: bytes) -> Game | None:
    """The game kept for the ledger at ``path`` whose bytes have the sha256 ``digest``."""
    known = _known
    if known is not None and known.path == path and known.digest == digest:
        return known.game
    return None


def digest_of(game: Game) -> bytes | None:
    """The sha256 of the ledger bytes ``game`` was last read from or written as (by this
    process), or None when it is not the game kept (built in memory, or another read since)."""
    known = _known
    return known.digest if known is not None and known.game is game else None


def keep(path: Path, digest: bytes, game: Game) -> None:
    """Keep ``game``, read from or written as the bytes of digest ``digest`` at ``path``."""
    global _known
    with _lock:
        _known = Known(path, digest, game)


def wait_for_write(game: Game, value: Any) -> None:
    """Keep ``value``, the checkpoint of ``game``, until ``game`` is written."""
    global _pending
    with _lock:
        _pending = (game, value)


def written(game: Game) -> Any | None:
    """The checkpoint waiting for ``game``, now written (None when there is none); whatever
    waited is dropped: a write of another game ends the wait."""
    global _pending
    with _lock:
        pending, _pending = _pending, None
    return pending[1] if pending is not None and pending[0] is game else None


def forget() -> None:
    """Keep nothing (what a new process starts with)."""
    global _known, _pending
    with _lock:
        _known, _pending = None, None
