"""Tab completion in ``prefcalc play`` (the completer alone; the pseudo-terminal tests drive
it through the real prompt): the Cyrillic forms and the half-whist only where it is legal."""

from __future__ import annotations

import pytest

from prefcalc import api

pytest.importorskip("prompt_toolkit")

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from prefcalc.completion import completer

RU = ("Маша", "Петя", "Вова")
EN = ("Anna", "Boris", "Vera")


def offered(line: str, players: object = RU) -> list[str]:
    found = completer(players).get_completions(  # type: ignore[arg-type]
        Document(line), CompleteEvent(completion_requested=True)
    )
    return [c.text for c in found]


def test_cyrillic_names_get_cyrillic_suits_and_roles() -> None:
    assert offered("ма 7") == ["7п", "7т", "7б", "7ч", "7бк"]
    assert offered("ма 7ч 7 п:") == [
        f"Петя:{r}" for r in ("в", "п", "пв", "в0", "в1", "в2", "в3", "в4")
    ]
    assert offered("ма 7ч 7 Петя:в в:п") == ["Вова:п", "Вова:пв"]


def test_the_typed_prefix_decides_over_the_names() -> None:
    assert offered("ма 7h") == ["7h"]  # Latin typed with Cyrillic names
    assert offered("a 7ч", EN) == ["7ч"]  # Cyrillic typed with Latin names
    assert offered("a 7", EN) == ["7s", "7c", "7d", "7h", "7nt"]
    assert offered("a 7h 7 b:", EN) == [
        f"Boris:{r}" for r in ("w", "p", "h", "w0", "w1", "w2", "w3", "w4")
    ]
    assert offered("a 7h 7 b:в", EN) == [
        "Boris:в",
        "Boris:в0",
        "Boris:в1",
        "Boris:в2",
        "Boris:в3",
        "Boris:в4",
    ]


def test_russian_commands_start_a_line() -> None:
    assert offered("миз") == ["мизер"]
    assert offered("ра") == ["распасы", "рас", "расчёт"]
    assert offered("отм") == ["отмена"] and offered("жу") == ["журнал"]
    assert "мизер" in offered("") and "misere" not in offered("")
    assert "misere" in offered("", EN) and "мизер" not in offered("", EN)
    assert offered("mis", RU) == ["misere"]


def test_no_half_whist_above_seven() -> None:
    assert "Boris:h" in offered("a 6s - b:", EN) and "Boris:h" in offered("a 7nt - b:", EN)
    assert "Boris:h" not in offered("a 8s - b:", EN)
    assert "Boris:w" in offered("a 8s - b:", EN)
    assert offered("ма 10бк - п:п") == ["Петя:п"]
    assert "Boris:h" in offered("a b:", EN)  # no contract on the line yet: not judged


def test_no_half_whist_when_the_convention_does_not_play_it() -> None:
    plays = api.new_game(list(EN), "sochi", 20)
    assert "Boris:h" in offered("a 6s - b:", plays)
    never = api.new_game(list(EN), "sochi", 20, options={"half_whist": False})
    assert "Boris:h" not in offered("a 6s - b:", never)
    assert offered("a 6s - b:p", never) == ["Boris:p"]


def test_a_game_offers_its_seating_after_a_join() -> None:
    g = api.join(api.new_game(list(EN), "sochi", 20), "Gleb")
    assert offered("a 7h 7 g", g) == ["Gleb"]


def test_yo_is_completed_from_ye() -> None:
    """«ален» + Tab gives Алёна (ё is mostly typed as е), in a deal and after a role's colon."""
    players = ("Алёна", "Боря", "Вера")
    assert offered("ален", players) == ["Алёна"]
    assert offered("боря 7ч 7 ален:", players)[:2] == ["Алёна:в", "Алёна:п"]
