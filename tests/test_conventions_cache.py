"""Issue 24, record without building a model: the conventions of the games written are kept
as plain data (``<data dir>/cache/conventions``), keyed by what was resolved, the code and the
presets' bytes. A trusted ledger's convention then comes from there, and the whole command
builds no pydantic model; a cache that cannot be used is ignored, and deleting it is safe."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from support import make_game

from prefcalc import api
from prefcalc.rules.model import ConventionRef
from prefcalc.store import conventions, known, ledger
from prefcalc.store.conventions import cache_path, load_preset
from prefcalc.store.ledger import create, load

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new command starts with: no convention known in memory."""
    monkeypatch.setattr(conventions, "_known", {})
    monkeypatch.setattr(conventions, "_unsaved", {})
    monkeypatch.setattr(conventions, "_file", None)
    known.forget()


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    fresh_process(monkeypatch)
    return tmp_path / "data"


def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the conventions validated (a preset's file read, or options checked)."""
    seen: list[str] = []
    real_file, real_from = conventions.load_file, conventions._from_table

    def spy_file(path: Path) -> object:
        seen.append(f"file {path.name}")
        return real_file(path)

    def spy_from(*args: object, **kwargs: object) -> object:
        seen.append("table")
        return real_from(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(conventions, "load_file", spy_file)
    monkeypatch.setattr(conventions, "_from_table", spy_from)
    from prefcalc.rules import conventions as rules

    real_validate = rules._validate

    def spy_validate(*args: object, **kwargs: object) -> object:
        seen.append("options")
        return real_validate(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rules, "_validate", spy_validate)
    return seen


GAMES = {
    "preset": lambda: make_game(["Anna", "Boris", "Vera"], ["game Anna 7h 7 Boris:w Vera:p"]),
    "overrides": lambda: api.new_game(
        ["Anna", "Boris", "Vera"], "leningrad", options=["liability=1/3", "passes.prices=1,2,4"]
    ),
    "house rules": lambda: api.new_game(["Anna", "Boris", "Vera"], str(TEMPLATES / "rostov.toml")),
    "classic": lambda: api.new_game(["Anna", "Boris", "Vera"], "classic"),
}


@pytest.mark.parametrize("kind", GAMES)
def test_a_written_game_finds_its_convention_without_validating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    path = tmp_path / "g.json"
    game = GAMES[kind]()
    expected = api.rules(game)
    create(path, game)
    assert cache_path().is_file()
    fresh_process(monkeypatch)
    seen = validations(monkeypatch)
    again = load(path)
    got = api.rules(again)
    assert seen == []
    assert got == expected
    assert list(map(type, got)) == list(map(type, expected))  # a fraction stays a fraction...
    assert [tuple(map(type, v)) for v in got if isinstance(v, tuple)] == [
        tuple(map(type, v)) for v in expected if isinstance(v, tuple)
    ]  # ...and a tuple a tuple of whole numbers


@pytest.mark.parametrize("name", ["sochi", "leningrad", "rostov", "classic"])
def test_every_preset_reads_back_exactly(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    validated = load_preset(name)
    data = conventions._encoded(validated)
    assert data is not None
    back = conventions._decoded(json.loads(json.dumps(data)))
    assert back == validated and list(map(type, back)) == list(map(type, validated))


def test_a_ledger_under_validation_validates_its_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``strict`` (a file nobody vouches for) never takes its convention from the cache."""
    path = tmp_path / "g.json"
    game = GAMES["overrides"]()
    create(path, game)
    fresh_process(monkeypatch)
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # new bytes
    seen = validations(monkeypatch)
    assert api.rules(load(path)) == api.rules(game)
    assert "options" in seen


def test_only_a_write_adds_to_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    path.write_text(ledger.game_to_json_text(GAMES["overrides"]()), encoding="utf-8")
    game = load(path)  # validated: its convention is known now, not kept
    api.rules(game)
    assert not cache_path().exists()
    api.update(path, lambda g: api.record(g, "passes 4 3 3"))
    kept = json.loads(cache_path().read_text(encoding="ascii"))
    assert len(kept["conventions"]) >= 1


def test_the_key_tells_types_apart() -> None:
    half = ConventionRef("sochi", {"liability": Fraction(1, 2)})
    text = ConventionRef("sochi", {"liability": "1/2"})
    listed = ConventionRef("sochi", {"passes.prices": (1, 2)})
    as_list = ConventionRef("sochi", {"passes.prices": [1, 2]})
    keys = {conventions._key(r, False) for r in (half, text, listed, as_list)}
    assert len(keys) == 4
    assert conventions._key(half, False) != conventions._key(half, True)
    assert conventions._key(ConventionRef("sochi", {"x": object()}), False) is None


def test_the_name_of_a_preset_game_is_not_part_of_its_key() -> None:
    assert conventions._key(ConventionRef("sochi", {}, "Thursday"), False) == conventions._key(
        ConventionRef("sochi", {}), False
    )
    house = {"whist_factor": 1}
    assert conventions._key(ConventionRef(None, house, "A"), False) != conventions._key(
        ConventionRef(None, house, "B"), False
    )


def _written(tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    create(path, GAMES["overrides"]())
    return path


HOSTILE = {
    "broken": b"{not json",
    "not ascii": b"\xff\xfe\x00",
    "a list": b"[]",
    "NaN": b'{"program": "P", "conventions": [["k", [NaN]]]}',
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "huge number": b'{"program": "P", "conventions": [["k", [' + b"9" * 5000 + b"]]]}",
}


WRONG_VALUES: list[object] = [
    [1.5] * 44,  # floats
    {"fraction": "2/4"},  # not a list
    [{"fraction": "2/4"}] * 44,  # a fraction not in lowest terms
    [{"tuple": ["x"]}] * 44,  # a tuple of text
    [None] * 44,
    ["Sochi"] * 3,  # too few
]


@pytest.mark.parametrize("kind", [*HOSTILE, "another program", "wrong values"])
def test_a_broken_or_foreign_cache_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    path = _written(tmp_path)
    cache = cache_path()
    expected = api.rules(load(path))
    if kind == "another program":
        data = json.loads(cache.read_text(encoding="ascii"))
        data["program"] = "0" * 32
        cache.write_text(json.dumps(data), encoding="ascii")
    elif kind == "wrong values":  # every entry's values swapped for ones of other shapes
        data = json.loads(cache.read_text(encoding="ascii"))
        keys = [key for key, _values in data["conventions"]]
        data["conventions"] = [[key, wrong] for key in keys for wrong in WRONG_VALUES]
        cache.write_text(json.dumps(data), encoding="ascii")
    else:
        cache.write_bytes(HOSTILE[kind])
    fresh_process(monkeypatch)
    seen = validations(monkeypatch)
    assert api.rules(load(path)) == expected
    assert seen  # validated, as without a cache


@pytest.mark.parametrize("kind", ["folder", "fifo", "read-only", "link", "huge"])
def test_a_cache_that_cannot_be_used_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    cache = cache_path()
    cache.parent.mkdir(parents=True)
    if kind == "folder":
        cache.mkdir()
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(cache)
    elif kind == "read-only":
        cache.write_text("{}", encoding="ascii")
        cache.chmod(stat.S_IRUSR)
    elif kind == "link":
        target = tmp_path / "elsewhere"
        target.write_text("keep\n", encoding="ascii")
        cache.symlink_to(target)
    else:
        cache.write_bytes(b" " * (conventions._CACHE_LIMIT + 1))
    path = _written(tmp_path)
    for _ in range(2):
        fresh_process(monkeypatch)
        api.update(path, lambda g: api.record(g, "passes 4 3 3"))
    assert len(load(path).entries) == 2
    assert kind != "fifo" or stat.S_ISFIFO(os.lstat(cache).st_mode)
    assert kind != "folder" or cache.is_dir()
    if kind == "link":
        assert (tmp_path / "elsewhere").read_text(encoding="ascii") == "keep\n"


def test_deleting_the_cache_is_safe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _written(tmp_path)
    expected = api.rules(load(path))
    cache_path().unlink()
    fresh_process(monkeypatch)
    assert api.rules(load(path)) == expected


def test_a_preset_edited_since_is_validated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The presets' bytes are part of the key: a preset changed by an upgrade (or by hand)
    is never read from what the old one gave."""
    load_preset("sochi")
    conventions.keep()
    before = conventions._identity()
    monkeypatch.setattr(conventions, "_identity_memo", None)
    real = Path.read_bytes

    def edited(self: Path) -> bytes:
        data = real(self)
        return data + b"\n# edited\n" if self.name == "sochi.toml" else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert conventions._identity() != before
    fresh_process(monkeypatch)
    assert conventions._cached() == {}


def test_recording_into_a_trusted_game_builds_no_model(tmp_path: Path) -> None:
    """The whole command, in a fresh process: the ledger's models, the options' models and the
    validation path are never imported when the ledger and its convention are known."""
    path = tmp_path / "g.json"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PREFCALC_LANG": "en"}
    probe = (
        "import sys\n"
        "from prefcalc.cli import main\n"
        f"code = main(['game', 'Anna', '7h', '7', 'Boris:w', 'Vera:p', '--file', {str(path)!r}])\n"
        "names = ('prefcalc.store.schemas', 'prefcalc.rules.options', 'prefcalc.store.validate')\n"
        "print(code, [n for n in names if n in sys.modules])\n"
    )

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()[-1]

    new = subprocess.run(
        [sys.executable, "-m", "prefcalc", "new", "Anna", "Boris", "Vera", "--file", str(path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert new.returncode == 0, new.stderr
    assert run() == "0 []"
    assert run() == "0 []"  # and again, from what the last command wrote
    path.write_text(path.read_text(encoding="utf-8") + " ", encoding="utf-8")  # another hand
    assert "prefcalc.store.validate" in run()  # that one is validated in full
