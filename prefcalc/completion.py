"""Tab completion for ``prefcalc play`` on a terminal (imports prompt_toolkit: only the
terminal session loads this module).

The Cyrillic forms (commands, suits, roles) are offered when the typed prefix is Cyrillic, or,
for a prefix with no letter yet (``7``, ``Маша:``), when the players' names are. A half-whist
is offered only where it can be recorded: the convention allows it and the contract on the
line is a 6 or a 7 (docs/rules.md §4.2)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from prefcalc.commands import COMMANDS, RUSSIAN_COMMANDS
from prefcalc.rules.model import LEVELS, SUITS, Game, seating

RU_SUITS = ("п", "т", "б", "ч", "бк")
"""The suits as the Russian shorthand writes them (пики, трефы, бубны, черви, без козыря)."""
CONTRACTS = tuple(f"{level}{suit}" for level in LEVELS for suit in SUITS)
RU_CONTRACTS = tuple(f"{level}{suit}" for level in LEVELS for suit in RU_SUITS)
ROLES = ("w", "p", "h", "w0", "w1", "w2", "w3", "w4")
RU_ROLES = ("в", "п", "пв", "в0", "в1", "в2", "в3", "в4")
HALF_WHIST = frozenset({"h", "пв"})
RU_COMMANDS = (
    "игра",
    "мизер",
    "распасы",
    "рас",
    "штраф",
    *(word for word in RUSSIAN_COMMANDS if word != "расчет"),  # one spelling offered: расчёт
    "помощь",
    "выход",
)
"""The Russian words a line may start with (``м`` and ``р`` are one letter: nothing to
complete)."""

GENDERS = ("f", "m", "auto")
RU_GENDERS = ("ж", "м", "авто")
"""The genders ``player NAME --gender`` (``пол NAME``) takes, offered after the name."""

_CONTRACT = re.compile(r"^(\d+)\D")


def _cyrillic(text: str) -> bool:
    return any("\u0400" <= c <= "\u04ff" for c in text)


def _has_letter(text: str) -> bool:
    return any(c.isalpha() for c in text)


class _Words(Completer):
    """Commands first on a line; then player names, contracts, ``Name:role`` and the
    deal options, all matched case-insensitively on what is typed so far."""

    def __init__(self, players: Sequence[str], half_whist: bool = True) -> None:
        self.players = tuple(players)
        self.half_whist = half_whist
        self.russian = any(_cyrillic(p) for p in self.players)

    def _russian(self, typed: str) -> bool:
        """Whether to offer the Cyrillic forms for ``typed``: by its letters, or by the
        names when it has none yet."""
        return _cyrillic(typed) if _has_letter(typed) else self.russian

    def _half_whist_allowed(self, before: str) -> bool:
        """A half-whist only under a convention that plays it and on a 6 or a 7 (the first
        contract on the line; none typed yet: allowed)."""
        if not self.half_whist:
            return False
        for token in before.split():
            match = _CONTRACT.match(token)
            if match and int(match.group(1)[:3]) in LEVELS:
                return int(match.group(1)) <= 7
        return True

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        word = document.get_word_before_cursor(WORD=True)
        first = not before[: len(before) - len(word)].strip()
        folded = word.casefold()
        if ":" in word:
            name, _, role = word.partition(":")
            roles: tuple[str, ...] = RU_ROLES if self._russian(role or name) else ROLES
            if not self._half_whist_allowed(before[: len(before) - len(word)]):
                roles = tuple(r for r in roles if r not in HALF_WHIST)
            for p in self.players:
                if _starts(p, name):
                    for r in roles:
                        if r.startswith(role.lower()):
                            yield Completion(f"{p}:{r}", -len(word))
            return
        russian = self._russian(word)
        options: list[str] = []
        earlier = before[: len(before) - len(word)].split()
        if (
            earlier
            and earlier[0].lower() in ("player", "пол")
            and len(earlier) in (2, 3)
            and any(_starts(p, earlier[1]) for p in self.players)
        ):
            # player NAME --gender f | пол NAME ж: after the name, the gender
            if word.startswith("-"):
                genders: tuple[str, ...] = ("--gender",)
            elif earlier[0].lower() == "пол" or russian:
                genders = RU_GENDERS
            else:
                genders = GENDERS
            for text in genders:
                if text.startswith(folded):
                    yield Completion(text, -len(word))
            return
        if first:
            options += RU_COMMANDS if russian else COMMANDS
        options += self.players
        if not first and folded[:1].isdigit():
            options += RU_CONTRACTS if russian else CONTRACTS
        if not first and word.startswith("-"):
            options += ["--dealer", "--force"]
        seen: set[str] = set()
        for text in options:
            if _starts(text, word) and text not in seen:
                seen.add(text)
                yield Completion(text, -len(word))


def completer(players: Sequence[str] | Game) -> Completer:
    """The completer for a game (its seating after every join, and whether its convention
    plays the half-whist), or for a bare list of names (half-whist allowed)."""
    if isinstance(players, Game):
        from prefcalc import api

        return _Words(seating(players), api.rules(players).half_whist)
    return _Words(players)


def tab_bindings() -> KeyBindings:
    """Tab applies a single completion at once, also when only the case differs
    (``ver`` -> ``Vera``: prompt_toolkit alone would open a menu of one); otherwise it
    inserts the common part and opens the menu, and cycles through an open menu."""
    bindings = KeyBindings()

    @bindings.add("tab")
    def _tab(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if buffer.complete_state:
            buffer.complete_next()
            return
        if buffer.completer is None:
            return
        found = list(
            buffer.completer.get_completions(
                buffer.document, CompleteEvent(completion_requested=True)
            )
        )
        if len(found) == 1:
            buffer.apply_completion(found[0])
        elif found:
            buffer.start_completion(insert_common_part=True)

    return bindings


def _starts(text: str, typed: str) -> bool:
    """Whether ``text`` begins with what was typed, in any case, ё read as е (a Russian
    typist writes «ален» for Алёна)."""
    return text.casefold().replace("ё", "е").startswith(typed.casefold().replace("ё", "е"))
