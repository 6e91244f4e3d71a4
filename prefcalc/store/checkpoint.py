"""Checkpoints: a value computed from a ledger's content, kept for the next command.

A command that records a deal needs the state of the game after its last deal; computing it
means replaying every deal of the night. A checkpoint keeps that state (an opaque value of
plain JSON data, given by the caller: :mod:`prefcalc.store` never looks inside) in
``<data dir>/cache/checkpoints``, beside the validation cache, keyed by the sha256 of the
ledger's bytes and the identity of the code that computed it. It is used only for exactly
those bytes and that code: a ledger changed by any hand, or another version of prefcalc,
finds nothing. Like every cache (:mod:`prefcalc.store.cache`) it adds no trust, is read only
when it is a regular file of sane size (a folder, a FIFO, a broken or oversized file is
ignored, never waited on, never a crash), is written best effort and never synced, and may
be deleted at any time: the next command replays the deals instead. Never pickle: a value is
JSON (``NaN`` and ``Infinity`` are refused both ways), so reading a hostile file can at worst
give data the caller then refuses to read (its reader must treat a value it cannot read as
no checkpoint).

The file holds the :data:`KEEP` most recent checkpoints (several games may be in play at
once), one JSON object per line: ``{"ledger": DIGEST, "program": ID, "value": ...}``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from prefcalc.store import cache

KEEP = 8
"""How many checkpoints the file keeps (the most recent ones)."""

LIMIT = 4 * 1024 * 1024
"""The most bytes the file may hold; a bigger one is ignored (and a value that would not fit
is not kept)."""

_DIGEST = re.compile(r"[0-9a-f]{64}")
_PROGRAM = re.compile(r"[0-9a-zA-Z]{1,64}")


def path() -> Path:
    """The checkpoint file."""
    return cache.folder() / "checkpoints"


def load(ledger: str, program: str) -> Any | None:
    """The value kept for the ledger whose bytes have the sha256 ``ledger`` (hex), computed
    by the code ``program``; None when there is none (or the file cannot be used)."""
    for entry, _line in _entries():
        if entry["ledger"] == ledger and entry["program"] == program:
            return entry["value"]
    return None


def save(ledger: str, program: str, value: Any) -> bool:
    """Keep ``value`` (plain JSON data: dicts with text keys, lists, text, whole and
    finite numbers, booleans, null) as the checkpoint of the ledger ``ledger`` computed by
    ``program``; the oldest beyond :data:`KEEP` are dropped. Best effort: False when the file
    cannot be written (or the value would not fit), and nothing else changes. A value that
    is not JSON data raises :class:`TypeError` or :class:`ValueError` (the caller's mistake),
    before any file is touched. What :func:`load` gives back is what JSON gives: a tuple
    comes back as a list, a dict's keys as text."""
    _check_key(ledger, program)
    line = json.dumps(
        {"ledger": ledger, "program": program, "value": value},
        ensure_ascii=True,  # so no byte of a value can break a line
        allow_nan=False,
        separators=(",", ":"),
    )
    kept = [old for e, old in _entries() if (e["ledger"], e["program"]) != (ledger, program)][
        -(KEEP - 1) :
    ]
    lines = [*kept, line]
    while lines and sum(len(x) + 1 for x in lines) > LIMIT:
        lines.pop(0)
    if not lines or lines[-1] is not line:
        return False
    return cache.replace(path(), ("\n".join(lines) + "\n").encode("utf-8"))


def check(value: Any) -> None:
    """Raise :class:`TypeError` or :class:`ValueError` unless ``value`` is plain JSON data."""
    json.dumps(value, allow_nan=False)


def _check_key(ledger: str, program: str) -> None:
    if not (isinstance(ledger, str) and _DIGEST.fullmatch(ledger)):
        raise ValueError(f"a checkpoint's ledger is a sha256 in hex, not {ledger!r}")
    if not (isinstance(program, str) and _PROGRAM.fullmatch(program)):
        raise ValueError(f"a checkpoint's program is an identity like 'a1b2...', not {program!r}")


def _entries() -> list[tuple[dict[str, Any], str]]:
    """The file's well-formed entries with their lines, oldest first (a broken line is
    skipped)."""
    raw = cache.read(path(), LIMIT)
    if raw is None:
        return []
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return []
    out: list[tuple[dict[str, Any], str]] = []
    for line in text.split("\n"):
        entry = _entry(line)
        if entry is not None:
            out.append((entry, line))
    return out


def _entry(line: str) -> dict[str, Any] | None:
    """One line as an entry, or None when it is not one."""
    if not line:
        return None
    try:
        entry = json.loads(line, parse_constant=_refuse)
    except (ValueError, RecursionError):  # broken, NaN, a 5,000-digit number, 10,000 brackets
        return None
    if not (isinstance(entry, dict) and entry.keys() == {"ledger", "program", "value"}):
        return None
    ledger, program = entry["ledger"], entry["program"]
    if not (isinstance(ledger, str) and _DIGEST.fullmatch(ledger)):
        return None
    if not (isinstance(program, str) and _PROGRAM.fullmatch(program)):
        return None
    return entry


def _refuse(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON number")
