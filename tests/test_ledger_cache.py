"""Issue 19, faster recording: a ledger this program wrote or validated is not validated
again while it holds the same bytes (the digests it vouches for are kept in the data
directory, keyed by the content's sha256 and the program's identity)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from support import make_game, random_classic_game, random_game, run_cli

from prefcalc import api
from prefcalc.errors import LedgerError
from prefcalc.rules.model import Contract, Defender, Entry, Game, SetTerm
from prefcalc.store import known, ledger, text, trusted, written
from prefcalc.store.ledger import create, game_to_json_text, load, update
from prefcalc.store.trusted import cache_path


@pytest.fixture(autouse=True)
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    known.forget()
    return tmp_path / "data"


def validations(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Count the full validations (pydantic and the recording checks)."""
    seen: list[bytes] = []
    real = ledger.game_from_bytes

    def spy(raw: bytes, path: str = "<ledger>") -> Game:
        seen.append(raw)
        return real(raw, path)

    monkeypatch.setattr(ledger, "game_from_bytes", spy)
    return seen


def fresh_process() -> None:
    """What a new command starts with: nothing of the last game kept in memory."""
    known.forget()
    written.forget()


def exotic_game() -> Game:
    game = make_game(
        ["Anna", "Boris", "Vera"],
        [
            "adjust Anna --mountain 2.5 --whists Boris=5/3 --note 'half a trick'",
            "game Anna 7h 7 Boris:w Vera:p",
            "passes Anna=2 Boris=5 Vera=3",
            "misere Boris 1",
            "game Vera 6s - Anna:p Boris:h !",
        ],
        whist_price=Fraction(1, 20),
        currency="EUR",
    )
    change = Entry(SetTerm("whist_price", Fraction(1, 3)), None, "2026-11-30T21:00:00+01:00")
    return game._replace(entries=(*game.entries, change))


def test_a_written_ledger_is_not_validated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.json"
    game = random_game(1, 80, 3, "sochi", target=10**6, adjustments=False)
    create(path, game)
    seen = validations(monkeypatch)
    fresh_process()
    assert load(path) == game
    fresh_process()
    after = update(path, lambda g: api.record(g, ["game", "Anna", "7h", "7", "Boris:w", "Vera:p"]))
    fresh_process()
    assert load(path) == after[1]
    assert seen == []  # neither the created file nor the one update wrote was validated again


def test_a_file_written_by_another_hand_is_validated_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a write vouches for a file: a command that only reads changes no file."""
    path = tmp_path / "g.json"
    path.write_text(game_to_json_text(exotic_game()), encoding="utf-8")  # not by prefcalc
    seen = validations(monkeypatch)
    first = load(path)
    fresh_process()
    second = load(path)
    assert len(seen) == 2 and first == second == exotic_game()
    assert not cache_path().parent.exists()


def test_pydantic_is_not_called_on_a_cached_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.json"
    create(path, exotic_game())
    fresh_process()

    def refuse(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("validated again")

    from prefcalc.store import schemas

    monkeypatch.setattr(schemas.LedgerFile, "model_validate_json", refuse)
    assert load(path) == exotic_game()


def test_a_changed_ledger_is_validated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    create(path, exotic_game())
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"tricks": 7', '"tricks": 11'), encoding="utf-8")
    fresh_process()
    seen = validations(monkeypatch)
    with pytest.raises(LedgerError, match="deals"):
        load(path)
    assert len(seen) == 1
    path.write_text(text.replace('"EUR"', '"USD"'), encoding="utf-8")  # valid, new bytes
    assert load(path).currency == "USD" and len(seen) == 2


def test_a_forged_or_foreign_entry_is_never_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry is trusted only for its key: the digest of these very bytes and this
    program's identity. An entry of another program, a broken line, or an entry for bytes
    that are not exactly what this program writes is ignored (the file is validated).
    (An entry naming bytes this program would write is trusted for them: whoever can write
    the data directory can write the ledger itself.)"""
    import hashlib

    path = tmp_path / "g.json"
    text = game_to_json_text(exotic_game())
    odd = text.replace('"EUR"', '"EUR"  ')  # a valid file, not as this program writes it
    cache = cache_path()
    cache.parent.mkdir(parents=True)
    seen = validations(monkeypatch)
    path.write_text(odd, encoding="utf-8")
    cache.write_text(f"{hashlib.sha256(odd.encode()).hexdigest()} {trusted.program()}\n")
    assert load(path) == exotic_game()
    assert len(seen) == 1
    digest = hashlib.sha256(text.encode()).hexdigest()
    path.write_text(text, encoding="utf-8")
    foreign = (
        f"{digest} {'0' * 32}",  # another program (version, sources)
        f"{digest}x{trusted.program()}",
        f"{digest[:-1]} {trusted.program()}",
        f"{digest} {trusted.program()} extra",
        "garbage",
        "",
    )
    for entry in foreign:
        cache.write_text(entry + "\n", encoding="ascii")
        fresh_process()
        assert load(path) == exotic_game()
        assert cache.read_text(encoding="ascii") == entry + "\n"  # a read writes nothing
    cache.write_bytes(b"\xff\xfe broken \x00\n")
    fresh_process()
    assert load(path) == exotic_game()
    assert len(seen) == 2 + len(foreign)


def test_the_key_changes_with_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    key = trusted.program()
    monkeypatch.setattr(trusted, "_program", None)
    assert trusted.program() == key  # the same code: the same identity
    monkeypatch.setattr(trusted, "_program", None)
    monkeypatch.setattr(trusted, "LEDGER_SCHEMA", trusted.LEDGER_SCHEMA + 1)
    assert trusted.program() != key


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
        cache.write_text("", encoding="ascii")
        cache.chmod(stat.S_IRUSR)
    elif kind == "link":
        target = tmp_path / "elsewhere"
        target.write_text("keep\n", encoding="ascii")
        cache.symlink_to(target)
    else:
        cache.write_bytes(b"0" * (trusted.LIMIT + 1))
    path = tmp_path / "g.json"
    seen = validations(monkeypatch)
    create(path, exotic_game())
    for _ in range(2):
        fresh_process()
        update(path, lambda g: api.record(g, ["passes", "Anna=4", "Boris=3", "Vera=3"]))
    assert len(load(path).entries) == 8
    if kind in ("folder", "fifo", "read-only"):
        assert len(seen) == 3  # every load validated in full, nothing failed
        assert kind != "fifo" or stat.S_ISFIFO(os.lstat(cache).st_mode)
        assert kind != "folder" or cache.is_dir()
    if kind == "link":
        assert (tmp_path / "elsewhere").read_text(encoding="ascii") == "keep\n"


def test_a_cache_that_is_a_fifo_never_hangs_the_cli(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    assert run_cli(["new", "Anna", "Boris", "Vera", "--file", "g.json"], tmp_path).returncode == 0
    cache = tmp_path / "data" / "prefcalc" / "cache" / "validated-ledgers"
    cache.unlink()
    os.mkfifo(cache)
    for _ in range(2):
        done = run_cli(["game", "Anna", "7h", "7", "Boris:w", "Vera:p", "-f", "g.json"], tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
    assert stat.S_ISFIFO(os.lstat(cache).st_mode)
    assert len(load(tmp_path / "g.json").entries) == 2


def test_the_cli_records_through_the_cache(tmp_path: Path) -> None:
    assert run_cli(["new", "Anna", "Boris", "Vera", "--file", "g.json"], tmp_path).returncode == 0
    for words in ("game Anna 7h 7 Boris:w Vera:p", "passes 4 3 3", "misere Vera 0"):
        done = run_cli([*words.split(), "-f", "g.json"], tmp_path)
        assert done.returncode == 0, done.stderr
    cache = tmp_path / "data" / "prefcalc" / "cache" / "validated-ledgers"
    keys = cache.read_text(encoding="ascii").splitlines()
    import hashlib

    digest = hashlib.sha256((tmp_path / "g.json").read_bytes()).hexdigest()
    assert keys[-1].split()[0] == digest and len(keys) == 4


def test_the_cache_keeps_the_most_recent_keys(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    create(path, exotic_game())
    for k in range(trusted.CACHE_KEYS + 5):
        update(path, lambda g, k=k: api.record(g, ["passes", "Anna=4", "Boris=3", "Vera=3"]))
    keys = cache_path().read_text(encoding="ascii").splitlines()
    assert len(keys) == trusted.CACHE_KEYS
    import hashlib

    assert keys[-1].split()[0] == hashlib.sha256(path.read_bytes()).hexdigest()


def quoted_names_game() -> Game:
    """Names the writer escapes (a quote, a backslash), a forced deal and a join."""
    game = api.new_game(['Ан"на', "Bo\\ris", "Вера"], "sochi", target=10**6)
    anna, boris, vera = game.players
    deals = [
        "passes 2 5 3",
        Contract(anna, 7, "h", 7, (Defender(boris, "w"), Defender(vera, "p"))),
        Contract(boris, 6, "s", 5, (Defender(vera, "w", 3), Defender(anna, "w", 2))),
        "passes 0 6 4",
    ]
    for k, deal in enumerate(deals):
        game = api.record(game, deal, time=f"2026-11-30T21:0{k}:00+01:00")
    low = Contract(vera, 6, "c", 6, (Defender(anna, "w"), Defender(boris, "p")))
    game = api.record(game, low, force=True, time="2026-11-30T21:05:00+01:00")
    game = api.join(game, 'Д"има', time="2026-11-30T21:06:00+01:00")
    late = Contract(anna, 7, "h", 7, (Defender(boris, "w"), Defender('Д"има', "p")))
    forced = Entry(late, vera, "2026-11-30T21:07:00+01:00", forced=True)  # as --force records
    return game._replace(entries=(*game.entries, forced))


GAMES = [
    *(
        random_game(seed, 60, 3 + seed % 3, ("sochi", "rostov", "leningrad")[seed % 3])
        for seed in range(9)
    ),
    *(random_game(seed, 60, 3, "sochi", joins=True) for seed in range(20, 24)),
    *(random_classic_game(seed, 60, 3 + seed % 2) for seed in range(30, 34)),
    exotic_game(),
    quoted_names_game(),
]


@pytest.mark.parametrize("game", GAMES)
def test_a_load_through_the_cache_is_a_load_without_it(tmp_path: Path, game: Game) -> None:
    path = tmp_path / "g.json"
    path.write_text(game_to_json_text(game), encoding="utf-8")
    fresh_process()
    without = load(path)  # validated in full (and now cached)
    fresh_process()
    through = text.trusted_game(path.read_bytes())
    assert through is not None
    assert through == without == game
    assert [type(e.deal) for e in through.entries] == [type(e.deal) for e in without.entries]
    assert [tuple(map(type, e.deal)) for e in through.entries] == [
        tuple(map(type, e.deal)) for e in without.entries
    ]
    assert api.sheet(through) == api.sheet(without)


def test_recording_into_a_trusted_ledger_encodes_only_the_new_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each deal's line is kept from the text read (the file is one deal per line), so the
    write after a trusted read splices in the new deal's line: the 300 others are neither
    encoded again to check the bytes nor to write them."""
    path = tmp_path / "g.json"
    create(path, random_game(5, 300, 3, "sochi", target=10**6, adjustments=False))
    fresh_process()
    encoded: list[object] = []
    real = text.deal_to_json

    def spy(entry: Entry) -> dict[str, object]:
        encoded.append(entry)
        return real(entry)

    monkeypatch.setattr(text, "deal_to_json", spy)
    seen = validations(monkeypatch)
    _before, after = update(path, lambda g: api.record(g, "passes 4 3 3"))
    assert seen == [] and len(encoded) == 1 and encoded[0] is after.entries[-1]
    assert path.read_text(encoding="utf-8") == game_to_json_text(after)  # as if written whole
    written.forget()
    assert path.read_text(encoding="utf-8") == game_to_json_text(after)  # encoded afresh too
    assert len(encoded) == 1 + 301


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.replace('\n    {"time"', '\n     {"time"', 1),  # a deal indented otherwise
        lambda t: t.replace('},\n    {"time"', '}, {"time"', 1),  # two deals on one line
        lambda t: t.replace('"deals": [\n', '"deals": [ \n', 1),
        lambda t: t[:-1],  # no final line break
        lambda t: t + "\n",
        lambda t: t.replace('{\n  "schema"', '{"schema"', 1),  # the header laid out otherwise
    ],
)
def test_bytes_not_laid_out_as_the_writer_lays_them_out_are_validated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[str], str]
) -> None:
    """A cache entry for bytes this program would not write (forged, or a bug) is not
    enough: they are read by the validation path."""
    import hashlib

    game = random_game(2, 20, 3, "sochi", adjustments=False)
    odd = change(game_to_json_text(game))
    assert odd != game_to_json_text(game)
    path = tmp_path / "g.json"
    path.write_text(odd, encoding="utf-8")
    cache = cache_path()
    cache.parent.mkdir(parents=True)
    cache.write_text(f"{hashlib.sha256(odd.encode()).hexdigest()} {trusted.program()}\n")
    assert text.trusted_game(odd.encode()) is None
    seen = validations(monkeypatch)
    assert load(path) == game
    assert len(seen) == 1


def test_a_time_the_writer_escapes_is_validated_and_reads_the_same(tmp_path: Path) -> None:
    """The trusted reader reads times as the program writes them (no quote, no backslash):
    a deal recorded through the API with any other time is read by the full validation."""
    game = api.record(make_game(["Anna", "Boris", "Vera"], []), "passes 2 5 3", time='a "b" \\c')
    path = tmp_path / "g.json"
    create(path, game)
    fresh_process()
    assert text.trusted_game(path.read_bytes()) is None
    assert load(path) == game
