"""Issue 24, append in constant time: the checkpoint store (``<data dir>/cache/checkpoints``).

A checkpoint is an opaque value of plain JSON data kept for the exact bytes of a ledger and
the identity of the code; it is trusted only for those, and any file that cannot be used (a
folder, a FIFO, a read-only or oversized file, broken or hostile JSON, another program's
entries) is ignored: never trusted, never a crash, never waited on. Deleting it is safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest
from support import make_game, new_process

from prefcalc import api
from prefcalc.rules.model import Game
from prefcalc.store import checkpoint, known, ledger, trusted
from prefcalc.store.ledger import create, keep_checkpoint, stored_checkpoint, update

DIGEST = hashlib.sha256(b"a ledger").hexdigest()
OTHER = hashlib.sha256(b"another ledger").hexdigest()
PROGRAM = "0123456789abcdef0123456789abcdef"
VALUE = {"pool": {"Anna": [1, 3]}, "streak": 2, "finished": False, "name": "Аня", "x": None}


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    new_process()
    return tmp_path / "data"


def test_a_value_comes_back_for_its_ledger_and_its_program_only() -> None:
    assert checkpoint.load(DIGEST, PROGRAM) is None  # no file: no checkpoint
    assert checkpoint.save(DIGEST, PROGRAM, VALUE)
    assert checkpoint.load(DIGEST, PROGRAM) == VALUE
    assert checkpoint.load(OTHER, PROGRAM) is None  # other bytes
    assert checkpoint.load(DIGEST, "f" * 32) is None  # other code
    assert checkpoint.save(DIGEST, PROGRAM, [1, 2])  # the same key: replaced, not doubled
    assert checkpoint.load(DIGEST, PROGRAM) == [1, 2]
    assert len(checkpoint.path().read_text(encoding="ascii").splitlines()) == 1


def test_the_most_recent_checkpoints_are_kept() -> None:
    digests = [hashlib.sha256(str(k).encode()).hexdigest() for k in range(checkpoint.KEEP + 3)]
    for k, digest in enumerate(digests):
        assert checkpoint.save(digest, PROGRAM, k)
    assert [checkpoint.load(d, PROGRAM) for d in digests[:3]] == [None, None, None]
    assert [checkpoint.load(d, PROGRAM) for d in digests[3:]] == list(range(3, len(digests)))


def test_what_is_not_json_data_is_refused_before_any_file_is_touched() -> None:
    for bad in ({1, 2}, float("nan"), float("inf"), b"bytes", object()):
        with pytest.raises((TypeError, ValueError)):
            checkpoint.save(DIGEST, PROGRAM, bad)
    for digest, program in (("nothex", PROGRAM), (DIGEST, "with space"), (DIGEST, "")):
        with pytest.raises(ValueError):
            checkpoint.save(digest, program, 1)
    assert not checkpoint.path().parent.exists()


def test_a_value_too_big_for_the_file_is_not_kept() -> None:
    assert checkpoint.save(OTHER, PROGRAM, "kept")
    assert not checkpoint.save(DIGEST, PROGRAM, "x" * checkpoint.LIMIT)
    assert checkpoint.load(DIGEST, PROGRAM) is None
    assert checkpoint.load(OTHER, PROGRAM) == "kept"  # nothing else changed


def test_a_line_is_ascii_whatever_the_value_holds() -> None:
    tricky = {"text": "line\nbreak \u2028 \u0000 «ёлочка»", "key\n": "v"}
    assert checkpoint.save(DIGEST, PROGRAM, tricky)
    raw = checkpoint.path().read_bytes()
    assert raw.isascii() and raw.count(b"\n") == 1
    assert checkpoint.load(DIGEST, PROGRAM) == tricky


def _entry(value: str) -> str:
    return f'{{"ledger": "{DIGEST}", "program": "{PROGRAM}", "value": {value}}}'


HOSTILE_LINES = [
    "garbage",
    _entry("NaN"),
    _entry("Infinity"),
    _entry("-Infinity"),
    _entry("9" * 5000),  # over Python's digit limit
    _entry("[" * 100_000 + "]" * 100_000),  # nests too deeply
    f'{{"ledger": "{DIGEST}", "program": "{PROGRAM}"}}',  # no value
    f'{{"ledger": "{DIGEST}", "program": "{PROGRAM}", "value": 1, "more": 2}}',
    f'{{"ledger": "{DIGEST.upper()}", "program": "{PROGRAM}", "value": 1}}',
    f'{{"ledger": "{DIGEST}", "program": "a b", "value": 1}}',
    f'{{"ledger": 1, "program": "{PROGRAM}", "value": 1}}',
    f'["{DIGEST}", "{PROGRAM}", 1]',
    "",
]


@pytest.mark.parametrize("line", HOSTILE_LINES, ids=range(len(HOSTILE_LINES)))
def test_a_hostile_line_is_ignored_and_the_others_still_count(line: str) -> None:
    path = checkpoint.path()
    path.parent.mkdir(parents=True)
    good = f'{{"ledger": "{OTHER}", "program": "{PROGRAM}", "value": "good"}}'
    path.write_text(f"{line}\n{good}\n", encoding="ascii")
    assert checkpoint.load(DIGEST, PROGRAM) is None
    assert checkpoint.load(OTHER, PROGRAM) == "good"
    assert checkpoint.save(DIGEST, PROGRAM, "new")  # writing drops the broken line
    assert checkpoint.load(DIGEST, PROGRAM) == "new"
    assert checkpoint.load(OTHER, PROGRAM) == "good"


def test_a_file_that_is_not_ascii_text_is_no_checkpoint() -> None:
    path = checkpoint.path()
    path.parent.mkdir(parents=True)
    path.write_bytes(_entry('"é"').encode("utf-8") + b"\n\xff\xfe\x00\n")
    assert checkpoint.load(DIGEST, PROGRAM) is None


@pytest.mark.parametrize("kind", ["folder", "fifo", "read-only", "link", "huge"])
def test_a_file_that_cannot_be_used_is_ignored(tmp_path: Path, kind: str) -> None:
    path = checkpoint.path()
    path.parent.mkdir(parents=True)
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif kind == "read-only":
        path.write_text(_entry("1") + "\n", encoding="ascii")
        path.chmod(stat.S_IRUSR)
    elif kind == "link":
        target = tmp_path / "elsewhere"
        target.write_text("keep\n", encoding="ascii")
        path.symlink_to(target)
    else:
        path.write_text(_entry('"' + "x" * checkpoint.LIMIT + '"') + "\n", encoding="ascii")
    if kind == "read-only":
        assert checkpoint.load(DIGEST, PROGRAM) == 1  # still read: it is a regular file
    else:
        assert checkpoint.load(DIGEST, PROGRAM) is None  # never opened in a way that waits
    saved = checkpoint.save(DIGEST, PROGRAM, 2)
    if kind in ("folder", "fifo", "read-only"):
        assert not saved  # left as it is
        assert kind != "folder" or path.is_dir()
        assert kind != "fifo" or stat.S_ISFIFO(os.lstat(path).st_mode)
        assert kind != "read-only" or checkpoint.load(DIGEST, PROGRAM) == 1
    else:
        assert saved and checkpoint.load(DIGEST, PROGRAM) == 2
    if kind == "link":  # the link is replaced, never written through
        assert (tmp_path / "elsewhere").read_text(encoding="ascii") == "keep\n"
        assert not path.is_symlink()


# --- the seam in the ledger: a checkpoint of the game a write leaves ----------------------------


def _game() -> Game:
    return make_game(["Anna", "Boris", "Vera"], ["game Anna 7h 7 Boris:w Vera:p"])


def test_a_checkpoint_given_in_the_change_is_kept_for_the_bytes_written(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create(path, _game())

    def record(game: Game) -> Game:
        after = api.record(game, "passes 4 3 3")
        keep_checkpoint(after, {"deals": len(after.entries)})  # before the write
        return after

    _before, after = update(path, record)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert checkpoint.load(digest, trusted.program()) == {"deals": 2}
    assert stored_checkpoint(after) == {"deals": 2}
    new_process()  # a new command reads the file: the checkpoint is found
    again = ledger.load_cached(path)
    assert again == after and again is not after
    assert stored_checkpoint(again) == {"deals": 2}


def test_a_checkpoint_given_after_the_write_is_kept_at_once(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create(path, _game())
    game = ledger.load_cached(path)
    keep_checkpoint(game, [1])
    assert stored_checkpoint(game) == [1]
    assert stored_checkpoint(_game()) is None  # built in memory: from no file


def test_a_ledger_changed_by_another_hand_has_no_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create(path, _game())
    keep_checkpoint(ledger.load_cached(path), "state")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["currency"] = "EUR"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert stored_checkpoint(ledger.load_cached(path)) is None


def test_another_program_finds_no_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.json"
    create(path, _game())
    game = ledger.load_cached(path)
    keep_checkpoint(game, "state")
    monkeypatch.setattr(trusted, "_program", "f" * 32)
    assert stored_checkpoint(game) is None


def test_deleting_the_checkpoints_is_safe(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create(path, _game())
    keep_checkpoint(ledger.load_cached(path), "state")
    checkpoint.path().unlink()
    new_process()
    game = ledger.load_cached(path)
    assert stored_checkpoint(game) is None
    assert api.update(path, lambda g: api.record(g, "passes 4 3 3")).entries[-1].deal


def test_a_pending_checkpoint_is_dropped_when_another_game_is_written(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create(path, _game())
    keep_checkpoint(_game()._replace(currency="EUR"), "not this one")
    _before, after = update(path, lambda g: api.record(g, "passes 4 3 3"))  # keeps none itself
    assert stored_checkpoint(after) is None
    assert known._pending is None
