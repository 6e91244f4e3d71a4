"""The surfaces around the ledger, tried as a careless or hostile user would: outputs that
would land on a ledger, the files beside a ledger (``NAME.redo``, the history cache), a folder
of real nights for ``history``, long names and a closed standard output.

The promise is the ledger commands' own: a clear one-line refusal (exit 2) or a clean
success; never a hang, a traceback, a lost deal or a file overwritten. Each family runs
through the real executable at least once; FIFOs are made with ``os.mkfifo`` and never opened
by the test (``run_cli`` has a timeout as a safety net, never as a timing assertion).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support import run_cli
from test_files import THREE, assert_refused, cli, snapshot, write_ledger

from prefcalc.errors import PrefcalcError
from prefcalc.store import files
from prefcalc.store.ledger import load

__all__ = ["cli"]  # the in-process runner fixture, shared with test_files

Cli = Callable[..., tuple[int, str, str]]

MANY = [
    "passes Anna=3 Boris=3 Vera=4",
    "game Boris 7s 7 Anna:w Vera:p",
    "game Vera 6h 6 Anna:w Boris:p",
    "game Anna 6c 6 Boris:w Vera:p",
] * 8


def _sorted_keys(path: Path) -> bytes:
    """The ledger at ``path`` rewritten as ``jq -S .`` would: its keys sorted, so
    ``"schema"`` comes after the deals, far past the first 4 KB."""
    data = json.loads(path.read_bytes())
    path.write_text(json.dumps(data, sort_keys=True, indent=2) + "\n", encoding="utf-8")
    raw = path.read_bytes()
    assert raw.index(b'"schema"') > 4096
    return raw


# --- outputs that would land on a ledger ------------------------------------------------------

# (id, the command, run with game.json (a plain ledger) and sorted.json (a sorted one) here)
ONTO_A_SORTED_LEDGER: list[tuple[str, list[str], str]] = [
    ("history --xlsx", ["history", "game.json", "--xlsx", "sorted.json"], "over a prefcalc ledger"),
    ("history --pdf", ["history", "game.json", "--pdf", "sorted.json"], "over a prefcalc ledger"),
    ("share --png", ["share", "--png", "sorted.json", "--file", "game.json"], "ledger"),
    (
        "export xlsx",
        ["export", "xlsx", "-o", "sorted.json", "--file", "game.json"],
        "over a prefcalc ledger",
    ),
    (
        "export pdf",
        ["export", "pdf", "-o", "sorted.json", "--file", "game.json"],
        "over a prefcalc ledger",
    ),
    ("blank", ["blank", "-o", "sorted.json"], "over a prefcalc ledger"),
]


@pytest.mark.parametrize(
    "command", [c[1] for c in ONTO_A_SORTED_LEDGER], ids=[c[0] for c in ONTO_A_SORTED_LEDGER]
)
def test_a_ledger_with_sorted_keys_is_never_overwritten(
    tmp_path: Path, cli: Cli, command: list[str]
) -> None:
    write_ledger(tmp_path / "game.json")
    write_ledger(tmp_path / "sorted.json", MANY)
    _sorted_keys(tmp_path / "sorted.json")
    before = snapshot(tmp_path)
    code, out, err = cli(*command)
    assert_refused(code, err, "ledger")
    assert out == ""
    assert snapshot(tmp_path) == before
    assert len(load(tmp_path / "sorted.json").entries) == len(MANY)


def test_a_sorted_ledger_is_refused_by_the_real_executable(tmp_path: Path) -> None:
    write_ledger(tmp_path / "game.json")
    write_ledger(tmp_path / "night.png", MANY)
    _sorted_keys(tmp_path / "night.png")
    before = snapshot(tmp_path)
    result = run_cli(["share", "--png", "night.png", "--file", "game.json"], tmp_path)
    assert_refused(result.returncode, result.stderr, "over a prefcalc ledger")
    assert snapshot(tmp_path) == before


# (id, the bytes already at the output, whether an export may replace them)
EXISTING: list[tuple[str, bytes, bool]] = [
    ("an old workbook", b"PK\x03\x04 an old workbook", True),
    ("an old PDF", b"%PDF-1.4 an old sheet", True),
    ("a JSON object that is no ledger", b'{"hello": "world", "schema_like": 1}', True),
    ("a JSON list", b'[{"schema": 2}]', True),
    ("an empty file", b"", True),
    ("a ledger with a BOM and blank lines", b'\xef\xbb\xbf\n\n  {"deals": [], "schema": 2}', False),
    ("an escaped key", b'{"\\u0073chema": 2}', False),
    ("a ledger a hand edit broke", b'{"deals": [,], "schema": 2', False),
    ("a ledger written by the first release", b'{"players": [], "schema": 1}', False),
]


@pytest.mark.parametrize(
    ("data", "replaced"), [c[1:] for c in EXISTING], ids=[c[0] for c in EXISTING]
)
def test_whether_a_file_holds_a_ledger_is_decided_by_parsing_it(
    tmp_path: Path, data: bytes, replaced: bool
) -> None:
    target = tmp_path / "out.pdf"
    target.write_bytes(data)
    if replaced:
        files.check_output(target)
    else:
        with pytest.raises(PrefcalcError, match="over a prefcalc ledger"):
            files.check_output(target)
    assert target.read_bytes() == data


def test_a_json_object_too_big_to_check_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.pdf"
    target.write_bytes(b'{"deals": [' + b"1, " * 2000 + b'1], "schema": 2}')
    monkeypatch.setattr(files, "MAX_LEDGER", 1024)
    with pytest.raises(PrefcalcError, match="over a prefcalc ledger"):
        files.check_output(target)
    target.write_bytes(b"%PDF" + b" " * 5000)  # not JSON: read no further, replaced
    files.check_output(target)


def _same_file_by(how: str) -> Callable[[Path], list[str]]:
    def make(t: Path) -> list[str]:
        if how == "spelling":
            (t / "sub").mkdir()
            return ["out.bin", "./sub/../out.bin"]
        if how == "symlink":
            (t / "out.bin").write_bytes(b"old")
            (t / "link.bin").symlink_to("out.bin")
            return ["out.bin", "link.bin"]
        if how == "dangling symlink":
            (t / "link.bin").symlink_to("out.bin")
            return ["link.bin", "out.bin"]
        (t / "out.bin").write_bytes(b"old")
        os.link(t / "out.bin", t / "hard.bin")
        return ["hard.bin", "out.bin"]

    return make


@pytest.mark.parametrize("how", ["spelling", "symlink", "dangling symlink", "hard link"])
def test_two_outputs_of_one_command_never_land_on_one_file(
    tmp_path: Path, cli: Cli, how: str
) -> None:
    write_ledger(tmp_path / "game.json")
    first, second = _same_file_by(how)(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = cli("history", "game.json", "--xlsx", first, "--pdf", second)
    assert_refused(code, err, "cannot write the workbook and the PDF to one file")
    assert out == ""
    assert snapshot(tmp_path) == before


def test_two_outputs_on_one_file_through_the_real_executable(tmp_path: Path) -> None:
    write_ledger(tmp_path / "game.json")
    before = snapshot(tmp_path)
    result = run_cli(["history", "game.json", "--xlsx", "out", "--pdf", "out"], tmp_path)
    assert_refused(result.returncode, result.stderr, "to one file")
    assert snapshot(tmp_path) == before


def test_two_outputs_on_two_files_are_both_written(tmp_path: Path, cli: Cli) -> None:
    write_ledger(tmp_path / "game.json")
    code, out, err = cli("history", "game.json", "--xlsx", "h.xlsx", "--pdf", "h.pdf")
    assert code == 0, err
    assert (tmp_path / "h.xlsx").read_bytes()[:2] == b"PK"
    assert (tmp_path / "h.pdf").read_bytes()[:4] == b"%PDF"
    assert "wrote h.xlsx" in out and "wrote h.pdf" in out


# --- the files beside a ledger: what undo keeps for redo ------------------------------------


def _redo_folder(t: Path) -> None:
    (t / "game.json.redo").mkdir()
    (t / "game.json.redo" / "keep.txt").write_text("mine", encoding="utf-8")


def _redo_fifo(t: Path) -> None:
    os.mkfifo(t / "game.json.redo")


def _redo_read_only(t: Path) -> None:
    (t / "game.json.redo").write_text("[]", encoding="utf-8")
    (t / "game.json.redo").chmod(0o444)


def _ledger_read_only(t: Path) -> None:
    (t / "game.json").chmod(0o444)


# (id, what is beside the ledger, a phrase of the refusal)
REDO_BESIDE: list[tuple[str, Callable[[Path], None], str]] = [
    ("a folder", _redo_folder, "the redo file is not a regular file (it is a folder)"),
    ("a FIFO", _redo_fifo, "the redo file is not a regular file (it is a FIFO"),
    ("a read-only file", _redo_read_only, "cannot write the redo file: the file is read-only"),
    ("a read-only ledger", _ledger_read_only, "cannot write the ledger: the file is read-only"),
]


@pytest.mark.parametrize(
    ("setup", "phrase"), [c[1:] for c in REDO_BESIDE], ids=[c[0] for c in REDO_BESIDE]
)
@pytest.mark.parametrize("command", ["undo", "redo"])
def test_undo_never_removes_a_deal_it_cannot_keep_for_redo(
    tmp_path: Path, cli: Cli, setup: Callable[[Path], None], phrase: str, command: str
) -> None:
    write_ledger(tmp_path / "game.json")
    setup(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = cli(command, "--file", "game.json")
    if command == "redo" and setup in (_redo_read_only, _ledger_read_only):
        phrase = "nothing to redo"  # nothing was kept: nothing is read, nothing written
    assert_refused(code, err, phrase)
    assert out == ""
    assert snapshot(tmp_path) == before
    assert len(load(tmp_path / "game.json").entries) == 2


def test_a_fifo_beside_the_ledger_through_the_real_executable(tmp_path: Path) -> None:
    write_ledger(tmp_path / "game.json")
    os.mkfifo(tmp_path / "game.json.redo")
    before = snapshot(tmp_path)
    result = run_cli(["undo", "--file", "game.json"], tmp_path)  # a timeout: a safety net only
    assert_refused(result.returncode, result.stderr, "FIFO")
    assert snapshot(tmp_path) == before


def test_undo_writes_the_redo_file_before_the_ledger(tmp_path: Path, cli: Cli) -> None:
    """The order of the two writes: killed between them, the deal is in both files (redo has
    it), never in neither."""
    write_ledger(tmp_path / "game.json")
    before = (tmp_path / "game.json").read_bytes()
    result = run_cli(
        ["undo", "--file", "game.json"], tmp_path, env={files.FAULT_ENV: "after-write"}
    )  # the first write completes, then the process is killed
    assert result.returncode != 0
    assert (tmp_path / "game.json").read_bytes() == before  # the ledger not yet written
    kept = json.loads((tmp_path / "game.json.redo").read_bytes())
    assert kept[-1]["before"] == before.decode("utf-8")
    assert cli("undo", "--file", "game.json")[0] == 0  # and undo then redo still work
    code, _, err = cli("redo", "--file", "game.json")
    assert code == 0, err
    assert (tmp_path / "game.json").read_bytes() == before


@pytest.mark.parametrize("frozen", ["game.json", "game.json.redo"])
def test_redo_never_drops_what_it_cannot_put_back(tmp_path: Path, cli: Cli, frozen: str) -> None:
    write_ledger(tmp_path / "game.json")
    full = (tmp_path / "game.json").read_bytes()
    assert cli("undo", "--file", "game.json")[0] == 0
    (tmp_path / frozen).chmod(0o444)
    before = snapshot(tmp_path)
    code, out, err = cli("redo", "--file", "game.json")
    assert_refused(code, err, "read-only")
    assert out == "" and snapshot(tmp_path) == before
    (tmp_path / frozen).chmod(0o644)
    code, _, err = cli("redo", "--file", "game.json")
    assert code == 0, err
    assert (tmp_path / "game.json").read_bytes() == full


def test_redo_writes_the_ledger_before_it_forgets_the_deal(tmp_path: Path, cli: Cli) -> None:
    """Killed between its two writes, redo has put the deal back in the ledger: what the redo
    file still holds is then out of date, and harmless."""
    write_ledger(tmp_path / "game.json")
    full = (tmp_path / "game.json").read_bytes()
    assert cli("undo", "--file", "game.json")[0] == 0
    result = run_cli(
        ["redo", "--file", "game.json"], tmp_path, env={files.FAULT_ENV: "after-write"}
    )
    assert result.returncode != 0
    assert (tmp_path / "game.json").read_bytes() == full
    code, _, err = cli("redo", "--file", "game.json")
    assert_refused(code, err, "nothing to redo")
    assert (tmp_path / "game.json").read_bytes() == full


# --- the files beside a ledger: the history cache ---------------------------------------------


def _cache(t: Path) -> Path:
    return t / "data" / "prefcalc" / "history-cache.sqlite3"


def _cache_folder(t: Path) -> None:
    _cache(t).mkdir(parents=True)


def _cache_fifo(t: Path) -> None:
    _cache(t).parent.mkdir(parents=True)
    os.mkfifo(_cache(t))


def _cache_read_only(t: Path) -> None:
    run_cli(["history", "game.json"], t)  # a real cache, then made read-only
    _cache(t).chmod(0o444)


def _cache_link(t: Path) -> None:
    _cache(t).parent.mkdir(parents=True)
    _cache(t).symlink_to(t / "elsewhere.sqlite3")


def _journal_fifo(t: Path) -> None:
    run_cli(["history", "game.json"], t)  # SQLite would read a FIFO journal forever
    os.mkfifo(_cache(t).with_name(_cache(t).name + "-journal"))


def _journal_folder(t: Path) -> None:
    run_cli(["history", "game.json"], t)
    _cache(t).with_name(_cache(t).name + "-journal").mkdir()


def _data_folder_a_file(t: Path) -> None:
    (t / "data").mkdir()
    (t / "data" / "prefcalc").write_text("not a folder", encoding="utf-8")


# (id, what is where the cache goes, a phrase of the warning)
CACHE_PLACES: list[tuple[str, Callable[[Path], None], str]] = [
    ("a folder", _cache_folder, "(it is a folder)"),
    ("a FIFO", _cache_fifo, "(it is a FIFO"),
    ("a read-only file", _cache_read_only, "(it is read-only)"),
    ("a symbolic link", _cache_link, "(it is a symbolic link)"),
    (
        "a FIFO as its journal",
        _journal_fifo,
        "side file history-cache.sqlite3-journal is a FIFO",
    ),
    (
        "a folder as its journal",
        _journal_folder,
        "side file history-cache.sqlite3-journal is a folder",
    ),
    ("a file as the data folder", _data_folder_a_file, "(Not a directory)"),
]


@pytest.mark.parametrize(
    ("setup", "phrase"), [c[1:] for c in CACHE_PLACES], ids=[c[0] for c in CACHE_PLACES]
)
def test_a_cache_that_cannot_be_used_is_left_alone_with_a_warning(
    tmp_path: Path, setup: Callable[[Path], None], phrase: str
) -> None:
    write_ledger(tmp_path / "game.json")
    setup(tmp_path)
    before = snapshot(tmp_path)
    result = run_cli(["history", "game.json", "--json"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("prefcalc: warning: ") and "history cache cannot be used" in lines[0]
    assert phrase in lines[0] and "every ledger was read" in lines[0]
    assert [g["deals"] for g in json.loads(result.stdout)["games"]] == [2]
    assert snapshot(tmp_path) == before
    assert not (tmp_path / "elsewhere.sqlite3").exists()


def test_a_cache_that_is_locked_for_long_is_a_warning(tmp_path: Path, cli: Cli) -> None:
    import sqlite3

    write_ledger(tmp_path / "game.json")
    assert cli("history", "game.json")[0] == 0
    db = sqlite3.connect(_cache(tmp_path), isolation_level=None)
    try:
        db.execute("BEGIN EXCLUSIVE")  # another process writing it, as long as it likes
        code, out, err = cli("history", "game.json")
    finally:
        db.close()
    assert code == 0, err
    assert "1 game" in out
    assert err.count("\n") == 1 and "history cache" in err and "locked" in err


# --- history over a real folder ---------------------------------------------------------------


def _dated(source: Path, target: Path, created: str) -> None:
    data = json.loads(source.read_bytes())
    data["created"] = created
    target.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def test_a_game_dated_0001_01_01_is_skipped_and_the_rest_counted(tmp_path: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    write_ledger(club / "friday.json")
    write_ledger(club / "saturday.json", MANY)
    _dated(club / "friday.json", club / "ancient.json", "0001-01-01")
    assert run_cli(["show", "--file", "club/ancient.json"], tmp_path).returncode == 0
    before = snapshot(club)
    for _ in range(2):  # read, then from the cache
        result = run_cli(["history", "club", "--json"], tmp_path, env={"TZ": "UTC"})
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("prefcalc: warning: ")
        assert "ancient.json: skipped, its date '0001-01-01' cannot be placed in time" in lines[0]
        games = json.loads(result.stdout)["games"]
        assert sorted(Path(g["file"]).name for g in games) == ["friday.json", "saturday.json"]
    assert snapshot(club) == before


def test_a_copy_of_a_night_is_counted_once_and_named(tmp_path: Path, cli: Cli) -> None:
    club = tmp_path / "club"
    (club / "old").mkdir(parents=True)
    write_ledger(club / "g.json")
    write_ledger(club / "other.json", MANY)
    shutil.copyfile(club / "g.json", club / "g (copy).json")
    shutil.copyfile(club / "g.json", club / "old" / "g.json")
    alone = json.loads(cli("history", "club/g.json", "--json")[1])
    result = run_cli(["history", "club", "--json"], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0] == (
        f"prefcalc: warning: {club / 'g.json'}: the same file byte for byte as "
        f"{club / 'g (copy).json'}, {club / 'old' / 'g.json'}: counted once"
    )
    history = json.loads(result.stdout)
    assert sorted(Path(g["file"]).name for g in history["games"]) == ["g.json", "other.json"]
    night = next(g for g in history["games"] if Path(g["file"]).name == "g.json")
    assert night["file"] == str(club / "g.json")  # the shortest of the names
    assert night["result"] == alone["games"][0]["result"]
    assert [p["games"] for p in history["players"]] == [2, 2, 2]
    # a copy that differs (one deal more) is another night: both counted, no warning
    code, out, err = cli(
        "game", "Vera", "6s", "6", "Anna:w", "Boris:p", "--file", "club/g (copy).json"
    )
    assert code == 0, err
    code, out, err = cli("history", "club", "--json")
    assert code == 0 and err.count("\n") == 1  # g.json and old/g.json are still the same
    assert len(json.loads(out)["games"]) == 3


# --- names and paths; a closed standard output ------------------------------------------------


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("a" * 5000, "no saved game matches 'aaaa"),
        ("a/" * 3000, "cannot read the ledger: File name too long"),
        ("a" * 5000 + ".json", "cannot read the ledger: File name too long"),
        ("1" * 5000, "there is no game 1111"),
        ("²", "no saved game matches '²'"),
    ],
    ids=["5,000 characters", "3,000 folders", "a long file name", "5,000 digits", "a superscript"],
)
def test_use_with_an_impossible_name_is_one_line(tmp_path: Path, name: str, phrase: str) -> None:
    result = run_cli(["new", *THREE], tmp_path)
    assert result.returncode == 0, result.stderr
    before = snapshot(tmp_path)
    result = run_cli(["use", name], tmp_path)
    assert_refused(result.returncode, result.stderr, phrase)
    assert len(result.stderr) < 700
    assert snapshot(tmp_path) == before


def test_a_path_too_long_keeps_the_reason_in_its_one_line(tmp_path: Path, cli: Cli) -> None:
    long = "a" * 5000
    code, out, err = cli("history", long)
    assert code == 0 and "no games found" in out
    assert err.count("\n") == 1 and err.rstrip().endswith("…: skipped, File name too long")
    code, _, err = cli(
        "export", "pdf", "-o", long, "--file", str(write_ledger(tmp_path / "g.json"))
    )
    assert_refused(code, err, "…: cannot write the PDF: File name too long")


def _run_detached(args: list[str], cwd: Path, stdout: str) -> subprocess.CompletedProcess[str]:
    """The real executable with its standard output ``closed`` (no descriptor 1 at all) or a
    ``broken`` pipe (its reader gone before the first byte); stderr is captured."""
    exe = Path(sys.executable).with_name("prefcalc")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "prefcalc"]
    env = {**os.environ, "XDG_DATA_HOME": str(cwd / "data"), "PYTHONIOENCODING": "utf-8"}
    env.pop("PREFCALC_FILE", None)
    if stdout == "closed":
        return subprocess.run(
            [*command, *args],
            cwd=cwd,
            env=env,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,  # a safety net, never a timing assertion
            check=False,
            preexec_fn=lambda: os.close(1),
        )
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [*command, *args],
            cwd=cwd,
            env=env,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(writer)


@pytest.mark.parametrize("stdout", ["closed", "broken"])
@pytest.mark.parametrize(
    "command",
    [["schema", "ledger"], ["history", "game.json", "--json"], ["show", "--file", "game.json"]],
    ids=["schema", "history --json", "show"],
)
def test_a_closed_standard_output_is_no_traceback(
    tmp_path: Path, command: list[str], stdout: str
) -> None:
    write_ledger(tmp_path / "game.json")
    result = _run_detached(command, tmp_path, stdout)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


@pytest.mark.parametrize("stdout", ["closed", "broken"])
def test_a_deal_recorded_with_nobody_reading_is_recorded(tmp_path: Path, stdout: str) -> None:
    write_ledger(tmp_path / "game.json")
    result = _run_detached(
        ["game", "Vera", "6h", "6", "Anna:w", "Boris:p", "-f", "game.json"], tmp_path, stdout
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert len(load(tmp_path / "game.json").entries) == 3


@pytest.mark.parametrize("stdout", ["closed", "broken"])
def test_a_refusal_with_nobody_reading_still_exits_2(tmp_path: Path, stdout: str) -> None:
    result = _run_detached(["show", "--file", "missing.json"], tmp_path, stdout)
    assert result.returncode == 2
    assert result.stderr.startswith("prefcalc: error: missing.json: no game here")
    assert "Traceback" not in result.stderr
