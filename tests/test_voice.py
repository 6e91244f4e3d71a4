"""One voice: the language and the genders the names are declined by, one context entered
once at each edge, one per thread and task, so that the tables of ``serve --tournament``
answer at once, each in its own language and with its own game's genders."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from prefcalc import api
from prefcalc.cases import decline, genders_in_use
from prefcalc.i18n import _, language, speak, voice
from prefcalc.store.ledger import game_to_json_text
from prefcalc.table.service import Loaded, Service
from prefcalc.web import create_app
from tests.support import make_game

T = TypeVar("T")

TOKEN = "s3cret-token"


def test_a_voice_is_entered_for_a_block_and_nests() -> None:
    assert language() == "en"
    with voice(lang="ru", genders={"Лев": "f"}):
        assert language() == "ru" and decline("Лев", "gen") == "Лев"
        with voice(lang="en"):  # the language only: the genders stay
            assert language() == "en" and decline("Лев", "gen") == "Лев"
        with voice(genders={}):  # the genders only: the language stays
            assert language() == "ru" and decline("Лев", "gen") == "Льва"
        assert language() == "ru" and _("whists on {player}").format(player="Лев") == (
            "висты на Лев"
        )
    assert language() == "en" and decline("Лев", "gen") == "Льва"


def test_speak_lasts_to_the_end_of_its_voice_and_only_inside_one() -> None:
    with voice(lang="en"):
        speak(lang="ru", genders={"Мишель": "f"})  # what the edge learned once begun
        assert language() == "ru" and decline("Мишель", "gen") == "Мишель"
        with voice():
            speak(genders={})
            assert decline("Мишель", "gen") == "Мишеля"
        assert decline("Мишель", "gen") == "Мишель"  # the inner voice's speak ended with it
    assert language() == "en" and not genders_in_use.get()
    with pytest.raises(RuntimeError, match="outside a voice"):
        speak(lang="ru")
    assert language() == "en"


def test_an_unknown_language_is_refused_and_changes_nothing() -> None:
    from prefcalc.errors import PrefcalcError

    with pytest.raises(PrefcalcError, match="unknown language 'fr'"), voice(lang="fr"):
        pass  # pragma: no cover - never entered
    assert language() == "en"


def test_a_thread_starts_with_no_voice() -> None:
    seen: list[tuple[str, str]] = []
    with voice(lang="ru", genders={"Лев": "f"}):
        worker = threading.Thread(target=lambda: seen.append((language(), decline("Лев", "gen"))))
        worker.start()
        worker.join()
        assert (language(), decline("Лев", "gen")) == ("ru", "Лев")
    assert seen == [("en", "Льва")]


# --- two tables at once ------------------------------------------------------------------------

TABLES = {  # name: (the table's language, Мишель's gender in its game)
    "her": ("ru", "f"),
    "him": ("ru", "m"),
    "english": ("en", "f"),
}


def _table(folder: Path, name: str, lang: str, gender: str) -> Any:
    game = make_game(["Мишель", "Боря", "Вера"], ["game Боря 6s 6 Мишель:w Вера:p"])
    path = folder / f"{name}.json"
    path.write_text(game_to_json_text(api.set_gender(game, "Мишель", gender)), encoding="utf-8")
    return create_app(path, TOKEN, poll_interval=None, lang=lang)


def test_tables_answer_at_once_each_in_its_own_voice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three tables' readings at once, in three threads (as ``serve --tournament`` runs its
    tables'), held together by a barrier: every table has entered its voice (its language)
    and spoken of its game (its genders) before any of them says a word, and none leaves its
    voice before all have said theirs. Each answer is still in its table's language, each
    name declined by its own game's gender."""
    apps = {name: _table(tmp_path, name, *told) for name, told in TABLES.items()}
    barrier = threading.Barrier(len(apps), timeout=120)  # a bound for a broken run, not a pace
    real_load, real_call = Service.load, Service.call

    def load(self: Service) -> Loaded:
        loaded = real_load(self)
        barrier.wait()  # every table inside its voice, its game's genders spoken
        return loaded

    def call(self: Service, fn: Callable[[], T]) -> T:
        def said() -> T:
            value = fn()
            barrier.wait()  # no table leaves its voice before every one has answered
            return value

        return real_call(self, said)

    monkeypatch.setattr(Service, "load", load)
    monkeypatch.setattr(Service, "call", call)
    answers: dict[str, Any] = {}
    failures: list[BaseException] = []

    def read(name: str) -> None:
        try:
            with TestClient(apps[name]) as client:
                answer = client.get("/api/reading", params={"sheet": "true"})
                assert answer.status_code == 200, answer.text
                answers[name] = answer.json()
        except BaseException as exc:  # the main thread reports it
            failures.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=read, args=(name,)) for name in apps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures

    her, him, english = answers["her"], answers["him"], answers["english"]
    assert her["cases"]["Мишель"]["acc"] == "Мишель" and him["cases"]["Мишель"]["acc"] == "Мишеля"
    assert english["cases"] == {}
    assert "висты на Мишель<" in her["sheet"] and "Мишеля" not in her["sheet"]
    assert "висты на Мишеля<" in him["sheet"]
    assert "whists on Мишель<" in english["sheet"] and "висты" not in english["sheet"]
    for russian in (her, him):
        assert russian["log"][0]["shorthand"] == "игра Боря 6п 6 Мишель:в Вера:п"
        assert all("said" in write for write in russian["log"][0]["writes"])
    assert english["log"][0]["shorthand"] == "game Боря 6s 6 Мишель:w Вера:p"
    assert not any("said" in write for write in english["log"][0]["writes"])
    assert language() == "en"  # the test's own thread spoke no table's language
