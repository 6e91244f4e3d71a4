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


def _menu(line: str, players: object) -> list[tuple[str, str]]:
    found = completer(players).get_completions(  # type: ignore[arg-type]
        Document(line), CompleteEvent(completion_requested=True)
    )
    return [(c.text, c.display_meta_text) for c in found]


def test_tab_in_bare_all_pass_tricks_says_whose_they_are() -> None:
    """Issue 36: the bare tricks are read from the hand after the dealer; Tab tells whose
    tricks each number is, in the order the line reads them."""
    from prefcalc.i18n import speaking

    game = api.new_game(list(RU), "sochi", 20)  # Маша deals: Петя, Вова, then Маша
    with speaking("ru"):
        assert _menu("р ", game)[0] == ("0", "взятки Пети")
        assert len(_menu("р ", game)) == 11
        assert _menu("рас 3 1", game) == [("1", "взятки Вовы"), ("10", "взятки Вовы")]
        assert {meta for _n, meta in _menu("распасы 3 4 ", game)} == {"взятки Маши"}
        assert _menu("р 3 4 3 ", game) == []  # every player's tricks are typed
    four = api.new_game([*EN, "Gleb"], "sochi", 20, dealer="Boris")
    assert _menu("p ", four)[0] == ("0", "Vera's tricks")  # Boris deals and sits out
    assert _menu("passes 1 ", four)[0] == ("0", "Gleb's tricks")
    assert "Boris" not in {meta for _n, meta in _menu("p 1 1 ", four)}
    assert [text for text, _meta in _menu("p a", four)] == ["Anna"]  # named: the names


def test_the_prompt_says_the_order_while_bare_tricks_are_typed() -> None:
    from prefcalc.completion import passes_hint, passes_order
    from prefcalc.i18n import speaking

    game = api.new_game(list(RU), "sochi", 20)
    order = passes_order(game)
    assert order == ("Петя", "Вова", "Маша")
    with speaking("ru"):
        assert passes_hint("р ", order) == "взятки по порядку: Петя, Вова, Маша"
        assert passes_hint("рас 3 4", order) == "взятки по порядку: Петя, Вова, Маша"
    assert passes_hint("p", order) == "tricks in order: Петя, Вова, Маша"
    for other in ("", "ма 7ч 7", "р Маша=3", "undo", "мизер ма 0"):
        assert passes_hint(other, order) == ""
    talon = api.new_game([*EN, "Gleb"], "fspr", dealer="Gleb")
    assert passes_order(talon) == ("Anna", "Boris", "Vera", "Gleb")  # his talon cards last
