"""Tab completion for ``prefcalc play`` on a terminal (imports prompt_toolkit: only the
terminal session loads this module)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from prefcalc.model import LEVELS, SUITS
from prefcalc.play import COMMANDS

CONTRACTS = tuple(f"{level}{suit}" for level in LEVELS for suit in SUITS)
ROLES = ("w", "p", "h", "w0", "w1", "w2", "w3", "w4")


class _Words(Completer):
    """Commands first on a line; then player names, contracts, ``Name:role`` and the
    deal options, all matched case-insensitively on what is typed so far."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = tuple(players)

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        before = document.text_before_cursor
        word = document.get_word_before_cursor(WORD=True)
        first = not before[: len(before) - len(word)].strip()
        folded = word.casefold()
        if ":" in word:
            name, _, role = word.partition(":")
            for p in self.players:
                if p.casefold().startswith(name.casefold()):
                    for r in ROLES:
                        if r.startswith(role.lower()):
                            yield Completion(f"{p}:{r}", -len(word))
            return
        options: list[str] = list(COMMANDS) if first else []
        options += self.players
        if not first:
            options += [c for c in CONTRACTS if folded[:1].isdigit()]
            options += ["--dealer", "--force"] if word.startswith("-") else []
        seen: set[str] = set()
        for text in options:
            if text.casefold().startswith(folded) and text not in seen:
                seen.add(text)
                yield Completion(text, -len(word))


def completer(players: Sequence[str]) -> Completer:
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
