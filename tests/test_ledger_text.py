"""Writing the ledger text: an entry already written is not encoded again (issue 21, the
``serve`` figure: recording into a 500-deal game encoded all 501 deals on every write)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import random_game

from prefcalc import api
from prefcalc.rules.model import Entry, Game
from prefcalc.store import known, text, written
from prefcalc.store.ledger import create, deal_to_json, game_to_json_text, load, update


def plain_text(game: Game) -> str:
    """The ledger text as it was made before lines were reused: every deal encoded."""
    saved = written._lines, written._unsplit, written._last
    written.forget()
    try:
        return game_to_json_text(game)
    finally:
        written._lines, written._unsplit, written._last = saved


def counting(monkeypatch: pytest.MonkeyPatch) -> list[Entry]:
    encoded: list[Entry] = []

    def spy(entry: Entry) -> dict[str, object]:
        encoded.append(entry)
        return deal_to_json(entry)

    monkeypatch.setattr(text, "deal_to_json", spy)
    return encoded


def test_appending_a_deal_encodes_that_deal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    game = random_game(7, 500, 3, "sochi", target=10**6, adjustments=False)
    game_to_json_text(game)
    encoded = counting(monkeypatch)
    after = api.record(game, ["game", "Anna", "7h", "7", "Boris:w", "Vera:p"])
    text = game_to_json_text(after)
    assert encoded == [after.entries[-1]]
    assert text == plain_text(after)
    assert json.loads(text)["deals"][-1] == deal_to_json(after.entries[-1])


def test_a_changed_or_equal_but_new_entry_is_encoded_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = random_game(3, 40, 4, "sochi", target=10**6)
    game_to_json_text(game)
    encoded = counting(monkeypatch)
    entries = list(game.entries)
    entries[5] = entries[5]._replace(time="2026-01-01T00:00:00+00:00")  # changed
    entries[9] = Entry(*entries[9])  # equal, another object: never assumed the same
    changed = game._replace(entries=tuple(entries))
    text = game_to_json_text(changed)
    assert encoded == [entries[5], entries[9]]
    assert text == plain_text(changed)
    assert json.loads(text)["deals"][5]["time"] == "2026-01-01T00:00:00+00:00"


@pytest.mark.parametrize("seed", range(12))
def test_the_text_is_the_same_whatever_was_written_before(seed: int) -> None:
    one = random_game(seed, 30, 3 + seed % 3, "sochi")
    two = random_game(seed + 100, 30, 3 + seed % 3, "rostov")
    mixed = one._replace(entries=one.entries[:10] + two.entries[10:] + one.entries[::-1])
    for game in (one, two, mixed, one, mixed):
        assert game_to_json_text(game) == plain_text(game)


def test_a_session_writes_the_same_bytes_as_fresh_processes(tmp_path: Path) -> None:
    """Recording through one process (lines reused) and reloading from scratch every time
    (nothing reused) leave byte-identical files."""
    game = random_game(11, 60, 3, "sochi", target=10**6, adjustments=False)
    warm, cold = tmp_path / "warm.json", tmp_path / "cold.json"
    create(warm, game)
    create(cold, game)
    lines = ("game Anna 7h 7 Boris:w Vera:p", "game Boris 6s 6 Vera:w Anna:p", "passes 4 3 3")
    stamp = "2026-01-01T00:00:00+00:00"
    for k in range(6):
        words = lines[k % 3].split()
        update(warm, lambda g, w=words: api.record(g, w, time=stamp))
    for k in range(6):
        words = lines[k % 3].split()
        written.forget()
        known.forget()
        update(cold, lambda g, w=words: api.record(g, w, time=stamp))
    assert warm.read_bytes() == cold.read_bytes()
    assert load(warm).entries == load(cold).entries


@pytest.mark.parametrize("seed", range(8))
def test_a_text_spliced_from_the_last_one_is_the_text_made_whole(seed: int) -> None:
    """Appending to the game last written splices its new lines into the last text; every
    other change (a deal undone, edited or inserted, the header changed, an equal but new
    entry) is made whole. Either way the text is the one made from scratch."""
    import random

    rng = random.Random(seed)
    source = random_game(seed, 60, 3, "sochi", target=10**6, adjustments=False)
    game = source._replace(entries=source.entries[:1])
    for _ in range(40):
        entries = game.entries
        roll = rng.random()
        if roll < 0.5:  # one or more deals appended
            more = source.entries[len(entries) : len(entries) + rng.randint(1, 3)]
            entries = entries + (more or source.entries[:1])
            game = game._replace(entries=entries)
        elif roll < 0.6:
            game = game._replace(entries=entries[:-1] or entries)  # undone
        elif roll < 0.7:
            k = rng.randrange(len(entries))  # edited in the middle
            entries = (*entries[:k], entries[k]._replace(time=f"e{k}"), *entries[k + 1 :])
            game = game._replace(entries=entries)
        elif roll < 0.8:
            game = game._replace(currency=rng.choice(["", "EUR", "₽"]))  # another header
        elif roll < 0.9:
            k = rng.randrange(len(entries))  # an equal entry, another object
            game = game._replace(entries=(*entries[:k], Entry(*entries[k]), *entries[k + 1 :]))
        else:
            game = game._replace(entries=())  # no deals
        assert game_to_json_text(game) == plain_text(game)
        if not game.entries:
            game = game._replace(entries=source.entries[:1])
