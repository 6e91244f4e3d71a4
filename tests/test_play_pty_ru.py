"""``prefcalc play`` on a pseudo-terminal in Russian (issue 20): the greeting, the prompt,
the answers, a refused line and the help, with ``LANG=ru_RU.UTF-8``. No sleeping: each step
waits for the text it expects (see test_play_pty)."""

from __future__ import annotations

from pathlib import Path

import pytest

from prefcalc import api
from tests.test_play_pty import HUNG, Terminal


def test_a_russian_session_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PREFCALC_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    game = tmp_path / "g.json"
    api.save(api.new_game(["Аня", "Боря", "Вера"], "sochi", 20), game)
    t = Terminal(game, tmp_path / "data")
    try:
        t.expect("(помощь — список команд; выход или Ctrl-D — закончить)")
        t.expect("[1 · сдаёт Аня · ≥6] >")
        t.line(
            "б 7ч 7 в:в а:п",
            "записано: раздача 1",
            "Боря 7♥: 7 взяток; Вера вист, Аня пас",
            prompt="[2 · сдаёт Боря · ≥6] >",
        )
        t.line(
            "б 7ч 7 в:в а:п",
            "то же, что раздача 1: если введено дважды, отмените её (отмена, prefcalc undo)",
            prompt="[3 · сдаёт Вера · ≥6] >",
        )
        t.line(
            "undo", "убрана раздача 2", "(команда «вернуть» вернёт её)", prompt="[2 · сдаёт Боря"
        )
        t.line("жжж 1", "ошибка: «жжж» — не команда и не игрок", prompt="[2 · сдаёт Боря")
        t.line("в 7ч 11 а:в б:п", "ошибка: взятки играющего: от 0 до 10, а не 11", prompt="[2 ·")
        t.line("help", "Строка — это раздача или команда", prompt="[2 · сдаёт Боря")
        t.type("quit\r")
        assert t.proc.wait(timeout=HUNG) == 0
    finally:
        t.close()
    assert "deals" not in t.text() and "error" not in t.text()


def test_the_prompt_and_tab_say_whose_all_pass_tricks_come_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36: bare all-pass tricks are read from the hand after the dealer; while they are
    typed the prompt says the order, and Tab says whose tricks the next number is."""
    for name in ("PREFCALC_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    game = tmp_path / "g.json"
    api.save(api.new_game(["Аня", "Боря", "Вера"], "sochi", 20), game)
    t = Terminal(game, tmp_path / "data")
    try:
        t.expect("[1 · сдаёт Аня · ≥6] >")
        t.type("р ")
        t.expect("взятки по порядку: Боря, Вера, Аня")
        t.type("\t")
        t.expect("взятки Бори")
        t.type("3 \t")
        t.expect("взятки Веры")
        t.line("4 3", "распасы: Аня 3, Боря 3, Вера 4", prompt="[2 · сдаёт Боря · ≥6] >")
        t.type("quit\r")
        assert t.proc.wait(timeout=HUNG) == 0
    finally:
        t.close()
    deal = api.load(game).entries[0].deal
    assert deal.tricks == (("Аня", 3), ("Боря", 3), ("Вера", 4))  # type: ignore[union-attr]
