"""Touching the file system safely: no data loss, no writes where they must not go, no hang,
no traceback.

Each family is a table. Every refused case asserts exit code 2, exactly one stderr line
``prefcalc: error: ...`` naming the problem, no traceback, and every file in the folder byte
for byte (and kind for kind, mode for mode) as it was. Most cases call
``prefcalc.cli.main`` in the test process (fast); a few run the real executable.
FIFOs are made with ``os.mkfifo`` and never opened by the test itself.
"""

from __future__ import annotations

import os
import signal
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support import make_game, run_cli

from prefcalc.cli import main
from prefcalc.errors import PrefcalcError
from prefcalc.resources import bundled
from prefcalc.store import files
from prefcalc.store.ledger import create, game_to_json_text, load, new_game_path

THREE = ["Anna", "Boris", "Vera"]
DEALS = ["passes Anna=3 Boris=3 Vera=4", "game Boris 7s 7 Anna:w Vera:p"]
PASSES = ["passes", "Anna=3", "Boris=3", "Vera=4"]

Snapshot = dict[str, tuple[str, object, int]]


def snapshot(folder: Path) -> Snapshot:
    """Every entry under ``folder``: its kind, its bytes (or link target) and its mode.

    Only regular files are read (a big one by size and time) and symbolic links are not
    followed, so a FIFO is never opened.
    """
    seen: Snapshot = {}
    for root, dirs, names in os.walk(folder):
        for name in sorted(dirs + names):
            path = Path(root) / name
            st = os.lstat(path)
            rel = str(path.relative_to(folder))
            if stat.S_ISLNK(st.st_mode):
                seen[rel] = ("link", os.readlink(path), 0)
            elif stat.S_ISREG(st.st_mode) and st.st_size > 16 * 1024 * 1024:
                seen[rel] = ("big file", (st.st_size, st.st_mtime_ns), stat.S_IMODE(st.st_mode))
            elif stat.S_ISREG(st.st_mode):
                seen[rel] = ("file", path.read_bytes(), stat.S_IMODE(st.st_mode))
            else:
                seen[rel] = (files.kind_of(st.st_mode), None, stat.S_IMODE(st.st_mode))
    return seen


def write_ledger(path: Path, lines: list[str] | None = None) -> Path:
    """A ledger as prefcalc writes it (with its lock file), with two deals by default."""
    create(path, make_game(THREE, DEALS if lines is None else lines))
    return path


@contextmanager
def no_hang(seconds: int = 60) -> Iterator[None]:
    """Turn a hang (a regression: a FIFO opened blocking) into a failure, not a stuck run.

    Passing never depends on time: a correct refusal returns at once.
    """

    def hung(signum: int, frame: object) -> None:
        raise AssertionError(f"the command hung for {seconds} s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def cli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., tuple[int, str, str]]:
    """Run ``prefcalc.cli.main`` in this process from ``tmp_path``; return (code, out, err)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("PREFCALC_FILE", raising=False)
    monkeypatch.delenv(files.FAULT_ENV, raising=False)

    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        with no_hang():
            code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def assert_refused(code: int, err: str, phrase: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("prefcalc: error: "), lines[0]
    assert phrase in lines[0], lines[0]


# --- an export never writes onto the ledger, its lock file or its temporary files ---------------


def _link(tmp: Path, name: str, to: str) -> None:
    (tmp / name).symlink_to(to)


def _hard(tmp: Path, name: str, to: str) -> None:
    os.link(tmp / to, tmp / name)


def _stale_temp(tmp: Path) -> None:
    (tmp / ".game.json.4242.171717.tmp").write_text("half a ledger", encoding="utf-8")


def _other_ledger(tmp: Path) -> None:
    write_ledger(tmp / "other.json", [])


# (id, setup of extra files, ledger name, command, a phrase the error must contain)
EXPORT_ONTO: list[tuple[str, Callable[[Path], None] | None, str, list[str], str]] = [
    ("xlsx -o the ledger", None, "game.json", ["xlsx", "-o", "game.json"], "over the ledger"),
    ("pdf -o the ledger", None, "game.json", ["pdf", "-o", "game.json"], "over the ledger"),
    (
        "-o the ledger by another spelling",
        None,
        "game.json",
        ["xlsx", "-o", "./sub/../game.json"],
        "over the ledger",
    ),
    ("default output of night.xlsx", None, "night.xlsx", ["xlsx"], "over the ledger"),
    ("default output of night.pdf", None, "night.pdf", ["pdf"], "over the ledger"),
    ("-o the lock file", None, "game.json", ["pdf", "-o", "game.json.lock"], "lock file"),
    ("-o the redo file", None, "game.json", ["pdf", "-o", "game.json.redo"], "what undo kept"),
    (
        "-o a stale temporary file",
        _stale_temp,
        "game.json",
        ["xlsx", "-o", ".game.json.4242.171717.tmp"],
        "temporary file",
    ),
    (
        "-o a future temporary file's name",
        None,
        "game.json",
        ["xlsx", "-o", ".game.json.1.2.tmp"],
        "temporary file",
    ),
    (
        "-o a symlink to the ledger",
        lambda t: _link(t, "link.json", "game.json"),
        "game.json",
        ["xlsx", "-o", "link.json"],
        "over the ledger",
    ),
    (
        "-o a symlink to the lock file",
        lambda t: _link(t, "link.lock", "game.json.lock"),
        "game.json",
        ["pdf", "-o", "link.lock"],
        "lock file",
    ),
    (
        "-o a symlink to a temporary file",
        lambda t: (_stale_temp(t), _link(t, "tmp.xlsx", ".game.json.4242.171717.tmp")),
        "game.json",
        ["xlsx", "-o", "tmp.xlsx"],
        "temporary file",
    ),
    (
        "-o a hard link to the ledger",
        lambda t: _hard(t, "copy.xlsx", "game.json"),
        "game.json",
        ["xlsx", "-o", "copy.xlsx"],
        "hard link to the ledger",
    ),
    (
        "-o a hard link to the lock file",
        lambda t: _hard(t, "copy.pdf", "game.json.lock"),
        "game.json",
        ["pdf", "-o", "copy.pdf"],
        "lock file",
    ),
    (
        "-o a hard link to a temporary file",
        lambda t: (_stale_temp(t), _hard(t, "copy.pdf", ".game.json.4242.171717.tmp")),
        "game.json",
        ["pdf", "-o", "copy.pdf"],
        "temporary file",
    ),
    (
        "--file a symlink, -o the real ledger",
        lambda t: _link(t, "link.json", "game.json"),
        "link.json",
        ["xlsx", "-o", "game.json"],
        "over the ledger",
    ),
    (
        "-o another game's ledger",
        _other_ledger,
        "game.json",
        ["xlsx", "-o", "other.json"],
        "over a prefcalc ledger",
    ),
    (
        "-o another game's lock file",
        _other_ledger,
        "game.json",
        ["pdf", "-o", "other.json.lock"],
        "lock file",
    ),
]


@pytest.mark.parametrize(
    ("setup", "name", "command", "phrase"),
    [c[1:] for c in EXPORT_ONTO],
    ids=[c[0] for c in EXPORT_ONTO],
)
def test_an_export_never_writes_onto_the_ledger_or_its_side_files(
    tmp_path: Path,
    cli: Callable[..., tuple[int, str, str]],
    setup: Callable[[Path], None] | None,
    name: str,
    command: list[str],
    phrase: str,
) -> None:
    write_ledger(tmp_path / "game.json")
    (tmp_path / "sub").mkdir()
    if setup is not None:
        setup(tmp_path)
    if name != "game.json" and not (tmp_path / name).exists():
        write_ledger(tmp_path / name)
    before = snapshot(tmp_path)
    code, _, err = cli("export", *command, "--file", name)
    assert_refused(code, err, phrase)
    assert snapshot(tmp_path) == before
    assert len(load(tmp_path / name).entries) in (0, 2)


def test_an_export_refusal_through_the_real_executable(tmp_path: Path) -> None:
    write_ledger(tmp_path / "night.xlsx")
    before = snapshot(tmp_path)
    result = run_cli(["export", "xlsx", "--file", "night.xlsx"], tmp_path)
    assert_refused(result.returncode, result.stderr, "over the ledger night.xlsx")
    assert snapshot(tmp_path) == before


def test_an_export_beside_the_ledger_still_works(
    tmp_path: Path, cli: Callable[..., tuple[int, str, str]]
) -> None:
    write_ledger(tmp_path / "game.json")
    (tmp_path / "old.xlsx").write_bytes(b"an old workbook")
    assert cli("export", "xlsx", "--file", "game.json")[0] == 0
    assert cli("export", "xlsx", "-o", "old.xlsx", "--file", "game.json")[0] == 0
    assert (tmp_path / "game.xlsx").read_bytes()[:2] == b"PK"
    assert (tmp_path / "old.xlsx").read_bytes()[:2] == b"PK"
    assert len(load(tmp_path / "game.json").entries) == 2


def test_an_export_through_a_symlink_replaces_the_file_it_points_to(
    tmp_path: Path, cli: Callable[..., tuple[int, str, str]]
) -> None:
    write_ledger(tmp_path / "game.json")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "sheet.pdf").write_bytes(b"old")
    (tmp_path / "latest.pdf").symlink_to("out/sheet.pdf")
    assert cli("export", "pdf", "-o", "latest.pdf", "--file", "game.json")[0] == 0
    assert (tmp_path / "latest.pdf").is_symlink()
    assert (tmp_path / "out" / "sheet.pdf").read_bytes().startswith(b"%PDF")


# --- never write where it must not: devices, FIFOs, folders, read-only files, linked locks -----


def _fifo(name: str) -> Callable[[Path], None]:
    return lambda t: os.mkfifo(t / name)


def _readonly(name: str) -> Callable[[Path], None]:
    def make(t: Path) -> None:
        (t / name).write_bytes(b"keep me")
        (t / name).chmod(0o444)

    return make


# (id, setup, command (run with the ledger game.json in the folder), phrase)
WRONG_PLACES: list[tuple[str, Callable[[Path], None] | None, list[str], str]] = [
    ("export to /dev/null", None, ["export", "xlsx", "-o", "/dev/null"], "character device"),
    ("blank to /dev/null", None, ["blank", "-o", "/dev/null"], "character device"),
    (
        "export to a folder",
        lambda t: (t / "out").mkdir(),
        ["export", "pdf", "-o", "out"],
        "over a folder",
    ),
    ("blank to a folder", lambda t: (t / "out").mkdir(), ["blank", "-o", "out"], "over a folder"),
    ("export to a FIFO", _fifo("pipe.xlsx"), ["export", "xlsx", "-o", "pipe.xlsx"], "FIFO"),
    ("blank to a FIFO", _fifo("pipe.pdf"), ["blank", "-o", "pipe.pdf"], "FIFO"),
    (
        "export over a read-only file",
        _readonly("frozen.xlsx"),
        ["export", "xlsx", "-o", "frozen.xlsx"],
        "read-only",
    ),
    (
        "blank over a read-only file",
        _readonly("frozen.pdf"),
        ["blank", "-o", "frozen.pdf"],
        "read-only",
    ),
    ("blank over a ledger", None, ["blank", "-o", "game.json"], "over a prefcalc ledger"),
    ("blank over a lock file", None, ["blank", "-o", "game.json.lock"], "lock file"),
    (
        "recording into a read-only ledger",
        lambda t: (t / "game.json").chmod(0o444),
        PASSES,
        "read-only",
    ),
    (
        "a lock file that is a symlink",
        lambda t: ((t / "game.json.lock").unlink(), (t / "game.json.lock").symlink_to("elsewhere")),
        PASSES,
        "symbolic link",
    ),
    (
        "a lock file that is a FIFO",
        lambda t: ((t / "game.json.lock").unlink(), os.mkfifo(t / "game.json.lock")),
        PASSES,
        "lock file is not a regular file",
    ),
    ("new over a FIFO", _fifo("pipe.json"), ["new", *THREE, "--file", "pipe.json"], "FIFO"),
    (
        "new --force over a FIFO",
        _fifo("pipe.json"),
        ["new", *THREE, "--force", "--file", "pipe.json"],
        "FIFO",
    ),
    (
        "new --force over a read-only file",
        _readonly("frozen.json"),
        ["new", *THREE, "--force", "--file", "frozen.json"],
        "read-only",
    ),
]


@pytest.mark.parametrize(
    ("setup", "command", "phrase"),
    [c[1:] for c in WRONG_PLACES],
    ids=[c[0] for c in WRONG_PLACES],
)
def test_never_writes_where_it_must_not(
    tmp_path: Path,
    cli: Callable[..., tuple[int, str, str]],
    setup: Callable[[Path], None] | None,
    command: list[str],
    phrase: str,
) -> None:
    write_ledger(tmp_path / "game.json")
    if setup is not None:
        setup(tmp_path)
    file = [] if command[0] in ("blank", "new") else ["--file", "game.json"]
    before = snapshot(tmp_path)
    null = os.stat("/dev/null")
    code, _, err = cli(*command, *file)
    assert_refused(code, err, phrase)
    assert snapshot(tmp_path) == before
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == null.st_ino
    assert not (tmp_path / "elsewhere").exists()


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path) -> None:
    ledger = write_ledger(tmp_path / "game.json")
    ledger.chmod(0o600)
    result = run_cli([*PASSES, "--file", str(ledger)], tmp_path)
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(ledger.stat().st_mode) == 0o600
    assert len(load(ledger).entries) == 3


# --- a symlinked ledger keeps receiving the deals ----------------------------------------------


# (id, where the real ledger lives, the link's target as written, the link's folder)
LINKED: list[tuple[str, str, str, str]] = [
    ("link beside the ledger", "game.json", "game.json", "."),
    ("relative link to a subfolder", "games/friday.json", "games/friday.json", "."),
    ("link in another folder", "games/friday.json", "../games/friday.json", "links"),
    ("absolute link", "games/friday.json", "ABSOLUTE", "links"),
    ("link to a link", "games/friday.json", "CHAIN", "."),
]


@pytest.mark.parametrize(
    ("real_name", "target", "folder"),
    [c[1:] for c in LINKED],
    ids=[c[0] for c in LINKED],
)
def test_a_symlinked_ledger_receives_the_deals(
    tmp_path: Path,
    cli: Callable[..., tuple[int, str, str]],
    real_name: str,
    target: str,
    folder: str,
) -> None:
    real = tmp_path / real_name
    real.parent.mkdir(parents=True, exist_ok=True)
    write_ledger(real)
    (tmp_path / folder).mkdir(exist_ok=True)
    link = tmp_path / folder / "link.json"
    if target == "ABSOLUTE":
        link.symlink_to(real)
    elif target == "CHAIN":
        (tmp_path / "middle.json").symlink_to(real_name)
        link.symlink_to("middle.json")
    else:
        link.symlink_to(target)
    assert cli(*PASSES, "--file", str(link))[0] == 0
    assert cli("undo", "--file", str(link))[0] == 0
    assert cli("misere", "Vera", "0", "--file", str(link))[0] == 0
    assert link.is_symlink(), "the link is not replaced by a regular file"
    assert [type(e.deal).__name__ for e in load(real).entries] == ["AllPass", "Contract", "Misere"]
    # lock and temporary files live beside the real file, never beside the link
    assert (real.parent / (real.name + ".lock")).exists()
    assert sorted(p.name for p in link.parent.iterdir() if "link" in p.name) == ["link.json"]
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_new_force_through_a_symlink_writes_the_real_file(
    tmp_path: Path, cli: Callable[..., tuple[int, str, str]]
) -> None:
    real = write_ledger(tmp_path / "real.json")
    (tmp_path / "link.json").symlink_to("real.json")
    assert cli("new", "X", "Y", "Z", "--force", "--file", "link.json")[0] == 0
    assert (tmp_path / "link.json").is_symlink()
    assert load(real).players == ("X", "Y", "Z")


def test_a_symlinked_ledger_through_the_real_executable(tmp_path: Path) -> None:
    real = write_ledger(tmp_path / "games" / "friday.json")
    (tmp_path / "link.json").symlink_to("games/friday.json")
    result = run_cli([*PASSES, "--file", "link.json"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "link.json").is_symlink()
    assert len(load(real).entries) == 3


def test_use_remembers_the_link_not_the_file_behind_it(
    tmp_path: Path, cli: Callable[..., tuple[int, str, str]]
) -> None:
    friday = write_ledger(tmp_path / "friday.json")
    saturday = write_ledger(tmp_path / "saturday.json", [])
    (tmp_path / "tonight.json").symlink_to("friday.json")
    assert cli("use", "tonight.json")[0] == 0
    assert cli(*PASSES)[0] == 0  # through the pointer and the link
    assert len(load(friday).entries) == 3
    (tmp_path / "tonight.json").unlink()
    (tmp_path / "tonight.json").symlink_to("saturday.json")
    assert cli(*PASSES)[0] == 0
    assert len(load(saturday).entries) == 1
    assert (tmp_path / "tonight.json").is_symlink()


# --- the stale-temporary sweep removes only the ledger's own temporary files -------------------

# (ledger name, decoys the old unescaped glob ".{name}.*.tmp" matched)
SWEEP: list[tuple[str, list[str]]] = [
    ("*", [".other.json.1.2.tmp", ".a.b.tmp", ".x.tmp.tmp"]),
    ("game[12].json", [".game1.json.5.6.tmp", ".game2.json.7.8.tmp"]),
    ("?.json", [".a.json.1.2.tmp"]),
    ("g+(1).json", [".gg1xjson.1.2.tmp", ".g+(1).json.x.tmp"]),
    ("game.json", [".game.json.1.2.tmp.keep", ".game.json.x.y.tmp", ".game.json.1.tmp"]),
]


@pytest.mark.parametrize(("name", "decoys"), SWEEP, ids=[s[0] for s in SWEEP])
def test_the_sweep_removes_only_the_ledgers_own_temporary_files(
    tmp_path: Path, cli: Callable[..., tuple[int, str, str]], name: str, decoys: list[str]
) -> None:
    ledger = write_ledger(tmp_path / name)
    for decoy in decoys:
        (tmp_path / decoy).write_text(f"decoy {decoy}", encoding="utf-8")
    (tmp_path / "elsewhere.json").write_text("another file", encoding="utf-8")
    own = tmp_path / f".{name}.31337.123456789.tmp"
    own.write_text("a killed writer's leftovers", encoding="utf-8")
    cache = "data/prefcalc/cache/validated-ledgers"  # a write records the new ledger's digest
    state = "data/prefcalc/cache/checkpoints"  # and the score after its last deal
    kept = {k: v for k, v in snapshot(tmp_path).items() if k not in (name, own.name, cache)}
    assert cli(*PASSES, "--file", str(ledger))[0] == 0
    assert not own.exists()
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if k not in (name, cache, state)} == kept
    assert len(load(ledger).entries) == 3


def test_the_sweep_also_removes_a_killed_redo_writers_leftovers(
    tmp_path: Path, cli: Callable[..., tuple[int, str, str]]
) -> None:
    ledger = write_ledger(tmp_path / "game.json")
    own = tmp_path / ".game.json.redo.31337.123456789.tmp"
    own.write_text("a killed redo writer's leftovers", encoding="utf-8")
    decoy = tmp_path / ".other.json.redo.31337.123456789.tmp"
    decoy.write_text("not ours", encoding="utf-8")
    assert cli(*PASSES, "--file", str(ledger))[0] == 0
    assert not own.exists() and decoy.exists()


# --- never hang: a FIFO (or a device) is refused, never opened blocking ------------------------


def _pointer_to(target: str) -> Callable[[Path], None]:
    def make(t: Path) -> None:
        (t / "data" / "prefcalc").mkdir(parents=True, exist_ok=True)
        (t / "data" / "prefcalc" / "current").write_text(target, encoding="utf-8")

    return make


def _fifo_pointer(t: Path) -> None:
    (t / "data" / "prefcalc").mkdir(parents=True, exist_ok=True)
    os.mkfifo(t / "data" / "prefcalc" / "current")


# (id, setup, command, phrase)
NO_HANG: list[tuple[str, Callable[[Path], None], list[str], str]] = [
    ("show a FIFO ledger", _fifo("f.json"), ["show", "--file", "f.json"], "FIFO"),
    ("record into a FIFO ledger", _fifo("f.json"), [*PASSES, "--file", "f.json"], "FIFO"),
    ("export a FIFO ledger", _fifo("f.json"), ["export", "pdf", "--file", "f.json"], "FIFO"),
    ("use a FIFO ledger", _fifo("f.json"), ["use", "f.json"], "FIFO"),
    ("the pointer names a FIFO", _fifo("f.json"), ["show"], "FIFO"),
    ("rules of a FIFO toml", _fifo("house.toml"), ["rules", "house.toml"], "FIFO"),
    ("new with a FIFO toml", _fifo("house.toml"), ["new", *THREE, "-c", "house.toml"], "FIFO"),
    (
        "re-score with a FIFO toml",
        _fifo("h.toml"),
        ["show", "-c", "h.toml", "--file", "g.json"],
        "FIFO",
    ),
    ("a FIFO pointer", _fifo_pointer, ["show"], "FIFO"),
    ("a device as ledger", lambda t: None, ["show", "--file", "/dev/zero"], "character device"),
    ("a device as toml", lambda t: None, ["rules", "/dev/zero"], "character device"),
    (
        "a folder as ledger",
        lambda t: (t / "d.json").mkdir(),
        ["show", "--file", "d.json"],
        "folder",
    ),
    ("a folder as toml", lambda t: (t / "d.toml").mkdir(), ["rules", "d.toml"], "folder"),
]


@pytest.mark.parametrize(
    ("setup", "command", "phrase"),
    [c[1:] for c in NO_HANG],
    ids=[c[0] for c in NO_HANG],
)
def test_a_fifo_or_device_is_refused_not_waited_on(
    tmp_path: Path,
    cli: Callable[..., tuple[int, str, str]],
    setup: Callable[[Path], None],
    command: list[str],
    phrase: str,
) -> None:
    write_ledger(tmp_path / "g.json")
    setup(tmp_path)
    if command == ["show"] and not os.path.lexists(tmp_path / "data" / "prefcalc" / "current"):
        _pointer_to(str(tmp_path / "f.json"))(tmp_path)
    before = snapshot(tmp_path)
    code, _, err = cli(*command)
    assert_refused(code, err, phrase)
    assert snapshot(tmp_path) == before


def test_a_fifo_ledger_through_the_real_executable(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "f.json")
    before = snapshot(tmp_path)
    result = run_cli([*PASSES, "--file", "f.json"], tmp_path)  # run_cli times out after 60 s
    assert_refused(result.returncode, result.stderr, "not a regular file")
    assert snapshot(tmp_path) == before


# --- never a traceback: encodings, sizes and nesting ------------------------------------------


def _bytes(name: str, data: bytes) -> Callable[[Path], None]:
    return lambda t: (t / name).write_bytes(data)


def _deep_json(t: Path) -> None:
    (t / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")


def _huge_ledger(t: Path) -> None:
    with (t / "huge.json").open("wb") as handle:
        handle.truncate(files.MAX_LEDGER + 1)  # sparse: nothing is really written


SOCHI = (bundled("templates") / "sochi.toml").read_bytes()

# (id, setup, command, phrase)
NO_TRACEBACK: list[tuple[str, Callable[[Path], None], list[str], str]] = [
    (
        "non-UTF-8 pointer",
        lambda t: (_pointer_to("x")(t), (t / "data/prefcalc/current").write_bytes(b"\xff\xfeg")),
        ["show"],
        "not UTF-8",
    ),
    (
        "pointer with a NUL",
        lambda t: _pointer_to("game\0.json")(t),
        ["show"],
        "not one file name",
    ),
    ("non-UTF-8 toml", _bytes("h.toml", b"name = '\xff'\n"), ["rules", "h.toml"], "not UTF-8"),
    (
        "non-UTF-8 toml for new",
        _bytes("h.toml", b"\xc0\xaf = 1\n"),
        ["new", *THREE, "-c", "h.toml", "--file", "n.json"],
        "not UTF-8",
    ),
    (
        "non-UTF-8 ledger",
        _bytes("bad.json", b'{"schema": 1, "\xff": 1}'),
        ["show", "--file", "bad.json"],
        "not UTF-8",
    ),
    (
        "toml arrays 100,000 deep",
        _bytes("h.toml", b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"),
        ["rules", "h.toml"],
        "nests more than",
    ),
    (
        "toml inline tables 100,000 deep",
        _bytes("h.toml", b"a = " + b"{b=" * 100_000 + b"1" + b"}" * 100_000 + b"\n"),
        ["rules", "h.toml"],
        "nests more than",
    ),
    (
        "toml key of 5,000 dotted parts",
        _bytes("h.toml", b".".join([b"a"] * 5_000) + b" = 1\n"),
        ["rules", "h.toml"],
        "dotted parts",
    ),
    (
        "toml key of 500,000 dotted parts",
        _bytes("h.toml", b".".join([b"a"] * 500_000) + b" = 1\n"),
        ["rules", "h.toml"],
        "dotted parts",
    ),
    (
        "toml quoted dotted key",
        _bytes("h.toml", b".".join([b'"a"'] * 5_000) + b" = 1\n"),
        ["rules", "h.toml"],
        "dotted parts",
    ),
    (
        "toml table header of 5,000 parts",
        _bytes("h.toml", b"[" + b" . ".join([b"a"] * 5_000) + b"]\n"),
        ["rules", "h.toml"],
        "dotted parts",
    ),
    (
        "toml over 1 MiB",
        _bytes("h.toml", SOCHI + b"#" * files.MAX_SMALL),
        ["rules", "h.toml"],
        "too big",
    ),
    ("ledger nested 100,000 deep", _deep_json, ["show", "--file", "deep.json"], "nests too deeply"),
    ("ledger over 256 MiB", _huge_ledger, ["show", "--file", "huge.json"], "too big"),
]


@pytest.mark.parametrize(
    ("setup", "command", "phrase"),
    [c[1:] for c in NO_TRACEBACK],
    ids=[c[0] for c in NO_TRACEBACK],
)
def test_odd_files_are_one_line_never_a_traceback(
    tmp_path: Path,
    cli: Callable[..., tuple[int, str, str]],
    setup: Callable[[Path], None],
    command: list[str],
    phrase: str,
) -> None:
    setup(tmp_path)
    before = snapshot(tmp_path)
    code, _, err = cli(*command)
    assert_refused(code, err, phrase)
    assert snapshot(tmp_path) == before


def test_a_deep_toml_through_the_real_executable(tmp_path: Path) -> None:
    (tmp_path / "h.toml").write_bytes(b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    result = run_cli(["rules", "h.toml"], tmp_path)
    assert_refused(result.returncode, result.stderr, "nests more than")


def test_a_ledger_with_a_byte_order_mark_is_a_normal_ledger(
    tmp_path: Path, cli: Callable[..., tuple[int, str, str]]
) -> None:
    ledger = tmp_path / "notepad.json"
    ledger.write_bytes(files.BOM + game_to_json_text(make_game(THREE, DEALS)).encode("utf-8"))
    assert len(load(ledger).entries) == 2
    code, out, err = cli("show", "--file", "notepad.json")
    assert code == 0, err
    assert "2 deals" in out
    assert cli(*PASSES, "--file", "notepad.json")[0] == 0
    assert len(load(ledger).entries) == 3


def test_a_toml_with_a_byte_order_mark_is_a_normal_convention(
    tmp_path: Path, cli: Callable[..., tuple[int, str, str]]
) -> None:
    (tmp_path / "house.toml").write_bytes(files.BOM + SOCHI)
    code, out, err = cli("rules", "house.toml")
    assert code == 0, err
    assert "lone_whister" in out


@pytest.mark.parametrize(
    "text",
    [
        "prices = [" + ", ".join(["1.5"] * 500) + "]\n",
        "name = '" + "[" * 500 + "." * 500 + "'\n",
        'name = "' + '\\"[{' * 300 + '"\n',
        'text = """\n' + "[{." * 300 + '\n"""\n',
        "text = '''\n" + "[{." * 300 + "'''\n",
        'text = """a""""\nb = [1]\n',
        "# " + "[{." * 300 + "\nx = 1\n",
        "when = 1979-05-27T07:32:00.999999-07:00\n" * 100,
        "a.b.c.d = 1\n[x.y.z]\nq = [[1, 2], [3.5, 4.5]]\n",
    ],
    ids=[
        "floats",
        "literal string",
        "basic string",
        "multi-line basic",
        "multi-line literal",
        "quotes before the closing",
        "comment",
        "datetimes",
        "ordinary keys",
    ],
)
def test_the_toml_shape_check_passes_ordinary_files(text: str) -> None:
    files.check_toml_shape(text, "the file", Path("x.toml"))


def test_a_long_player_name_never_makes_the_file_name_too_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = new_game_path(("A" * 300, "Б" * 300, "Vera"))
    assert len(path.name) <= 100 and len((path.name + ".lock").encode()) < 255
    assert path.name.endswith(".json") and "-AAAA" in path.name
    create(path, make_game(THREE, []))  # the ledger, its lock and its temp file all fit
    assert load(path).players == tuple(THREE)


# --- the pieces on their own -------------------------------------------------------------------


def test_read_regular_refuses_a_fifo_without_opening_it(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    with no_hang(), pytest.raises(PrefcalcError, match="FIFO"):
        files.read_regular(tmp_path / "pipe", "the file", 10)


def test_fault_points_are_inert_without_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(files.FAULT_ENV, raising=False)
    for point in files.FAULT_POINTS:
        files.fault(point)
    monkeypatch.setenv(files.FAULT_ENV, "no-such-point")
    for point in files.FAULT_POINTS:
        files.fault(point)


def test_two_new_games_of_the_same_players_in_one_second_get_two_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    first = new_game_path(("Anna", "Boris", "Vera"))
    create(first, make_game(THREE, []))
    second = new_game_path(("Anna", "Boris", "Vera"))
    assert second != first and not second.exists()


def test_new_whose_pointer_cannot_be_written_leaves_no_game_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    (data / "prefcalc").mkdir(parents=True)
    os.mkfifo(data / "prefcalc" / "current")
    before = snapshot(tmp_path)
    with no_hang():
        assert main(["new", "Anna", "Boris", "Vera"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1
    after = {k: v for k, v in snapshot(tmp_path).items() if not k.endswith(".lock")}
    assert {k for k in after if k.endswith(".json")} == set(), after
    assert {k: v for k, v in after.items() if k in before} == before
