"""A process's view of a ledger is decided by the file's content: a change by another process
that keeps the size, the inode and the modification time (an in-place write within one clock
tick) is seen, never written over with a stale copy."""

from __future__ import annotations

import os
from pathlib import Path

from prefcalc import api
from prefcalc.play import Session
from prefcalc.rules.model import Game
from prefcalc.store import ledger


def _write_in_place_keeping_the_times(path: Path, text: str) -> None:
    """Another process writes ``path`` in place (same inode), within the same clock tick."""
    before = os.stat(path)
    data = text.encode("utf-8")
    assert len(data) == before.st_size  # the same size too
    with open(path, "r+b") as handle:
        handle.write(data)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    )


def _game() -> Game:
    return api.new_game(["Anna", "Boris", "Vera"], "sochi", 20)


def test_a_same_size_same_time_change_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    api.save(api.record(_game(), "misere Anna 0"), path)
    first = api.load_current(path)
    assert api.load_current(path) is first  # the same bytes: the kept game, not parsed again
    other = api.record(_game(), "misere Vera 0")  # Anna and Vera: the same length
    _write_in_place_keeping_the_times(path, ledger.game_to_json_text(other))
    assert api.load_current(path) == other


def test_a_session_never_writes_a_stale_copy_over_another_process_s_change(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.json"
    api.save(api.record(_game(), "misere Anna 0"), path)
    session = Session(path, lambda text: None)
    assert session.prompt().startswith("[2 · Boris deals")  # the session has read the file
    recorded = api.load(path)
    other = recorded._replace(  # the same deal and size, another time of day
        entries=(recorded.entries[0]._replace(time="2026-11-30T21:00:00+01:00"),)
    )
    text = ledger.game_to_json_text(other)
    assert text != ledger.game_to_json_text(recorded)
    _write_in_place_keeping_the_times(path, text)
    session.handle("b 6s 6 v:w a:p")
    entries = api.load(path).entries
    assert [e.time for e in entries][:1] == ["2026-11-30T21:00:00+01:00"]  # kept
    assert len(entries) == 2


def test_what_this_process_wrote_is_kept_without_parsing_it_again(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    api.save(_game(), path)
    after = api.update(path, lambda g: api.record(g, "misere Anna 0"))
    assert api.load_current(path) is after
    game, _entry = api.undo_file(path)
    assert api.load_current(path) is game
    api.redo_file(path)
    again = api.load_current(path)
    assert api.load_current(path) is again and len(again.entries) == 1
