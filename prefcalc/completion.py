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

from prefcalc.commands import COMMANDS
from prefcalc.i18n import LANGUAGES, _
from prefcalc.rules import lexicon
from prefcalc.rules.lexicon import SHORT_KINDS
from prefcalc.rules.model import LEVELS, Game, play_order, seating

CONTRACTS = {
    lang: tuple(f"{level}{suit}" for level in LEVELS for suit in lexicon.words_of("suits", lang))
    for lang in LANGUAGES
}
"""The contracts as each language's shorthand writes them (``7h``, ``7ч``)."""
ROLES = {
    lang: (
        *(lexicon.written("roles", role, lang) for role in ("w", "p", "h")),
        *(f"{lexicon.written('roles', 'w', lang)}{n}" for n in range(5)),
    )
    for lang in LANGUAGES
}
"""The answers offered after ``NAME:`` (``w p h w0``…, ``в п пв в0``…)."""
HALF_WHIST = frozenset(lexicon.written("roles", "h", lang) for lang in LANGUAGES)


def _line_starts(lang: str) -> tuple[str, ...]:
    """The words a line may start with in ``lang``, as the completion offers them."""
    if lang == "en":
        return COMMANDS
    kinds = lexicon.words_of("kinds", lang)
    passes = lexicon.written("kinds", "passes", lang)
    short = tuple(w for w, kind in SHORT_KINDS.items() if kind == "passes" and len(w) > 1)
    out: list[str] = []
    for word in kinds:
        if word not in out and word != "set":  # set has no word of its own: пуля=30
            out.append(word)
            if word == passes:
                out.extend(short)  # ``рас`` (``р`` and ``м`` are one letter: nothing to complete)
    out.extend(lexicon.words_of("commands", lang))
    return tuple(out)


LINE_STARTS = {lang: _line_starts(lang) for lang in LANGUAGES}
"""The words a line may start with, by language (the lexicon's commands and kinds)."""

GENDERS = {lang: lexicon.words_of("genders", lang) for lang in LANGUAGES}
"""The genders ``player NAME --gender`` (``пол NAME``) takes, offered after the name."""

_CONTRACT = re.compile(r"^(\d+)\D")


def _cyrillic(text: str) -> bool:
    return any("\u0400" <= c <= "\u04ff" for c in text)


def _has_letter(text: str) -> bool:
    return any(c.isalpha() for c in text)


class _Words(Completer):
    """Commands first on a line; then player names, contracts, ``Name:role`` and the
    deal options, all matched case-insensitively on what is typed so far. In an all-pass
    deal's bare tricks (``р 3 4``), the counts, each with whose tricks it is (``order``:
    the players in the order the grammar reads them, from the hand after the dealer)."""

    def __init__(
        self,
        players: Sequence[str],
        half_whist: bool = True,
        order: Sequence[str] | None = None,
    ) -> None:
        self.players = tuple(players)
        self.half_whist = half_whist
        self.order = tuple(players if order is None else order)
        self.russian = any(_cyrillic(p) for p in self.players)

    def _lang(self, typed: str) -> str:
        """The language whose forms to offer for ``typed``: Russian by its letters, or by
        the names when it has none yet."""
        russian = _cyrillic(typed) if _has_letter(typed) else self.russian
        return "ru" if russian else "en"

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
            name, _colon, role = word.partition(":")
            roles = ROLES[self._lang(role or name)]
            if not self._half_whist_allowed(before[: len(before) - len(word)]):
                roles = tuple(r for r in roles if r not in HALF_WHIST)
            for p in self.players:
                if _starts(p, name):
                    for r in roles:
                        if r.startswith(role.lower()):
                            yield Completion(f"{p}:{r}", -len(word))
            return
        lang = self._lang(word)
        options: list[str] = []
        earlier = before[: len(before) - len(word)].split()
        if _bare_passes(earlier) and (not word or word.isdigit()):
            yield from self._tricks(len(earlier) - 1, word)
            return
        if (
            earlier
            and lexicon.command_of(earlier[0]) == "player"
            and len(earlier) in (2, 3)
            and any(_starts(p, earlier[1]) for p in self.players)
        ):
            # player NAME --gender f | пол NAME ж: after the name, the gender
            if word.startswith("-"):
                genders: tuple[str, ...] = ("--gender",)
            elif earlier[0].lower() == lexicon.written("commands", "player", "ru"):
                genders = GENDERS["ru"]
            else:
                genders = GENDERS[lang]
            for text in genders:
                if text.startswith(folded):
                    yield Completion(text, -len(word))
            return
        if first:
            options += LINE_STARTS[lang]
        options += self.players
        if not first and folded[:1].isdigit():
            options += CONTRACTS[lang]
        if not first and word.startswith("-"):
            options += ["--dealer", "--force"]
        seen: set[str] = set()
        for text in options:
            if _starts(text, word) and text not in seen:
                seen.add(text)
                yield Completion(text, -len(word))

    def _tricks(self, position: int, typed: str) -> Iterable[Completion]:
        """The trick counts of the ``position``-th player of the bare all-pass tricks, each
        saying whose they are (``3 · Bori's tricks`` / ``3 · взятки Бори``)."""
        if position >= len(self.order):
            return
        whose = _("{name}'s tricks").format(name=self.order[position])
        for n in range(11):
            if str(n).startswith(typed):
                yield Completion(str(n), -len(typed), display_meta=whose)


def _bare_passes(earlier: Sequence[str]) -> bool:
    """Whether the words before the cursor start an all-pass deal written as bare tricks
    (``р``, ``рас 3``, ``passes 3 4``)."""
    if not earlier:
        return False
    head = earlier[0]
    kind = SHORT_KINDS.get(head.lower()) or lexicon.kind_of(head)
    return kind == "passes" and all(w.isdigit() for w in earlier[1:])


def passes_hint(text: str, order: Sequence[str]) -> str:
    """What the prompt says while a line of bare all-pass tricks is typed (``р 3 4``):
    whose tricks they are, in the order they are read (``tricks in order: Boris, Vera,
    Anna``); ``""`` for any other line."""
    if not _bare_passes(text.split()):
        return ""
    return _("tricks in order: {players}").format(players=", ".join(order))


def completer(players: Sequence[str] | Game) -> Completer:
    """The completer for a game (its seating after every join, whether its convention
    plays the half-whist, and the order of the next deal's all-pass tricks), or for a bare
    list of names (half-whist allowed, the tricks in their order)."""
    if isinstance(players, Game):
        from prefcalc import api

        return _Words(seating(players), api.rules(players).half_whist, passes_order(players))
    return _Words(players)


def passes_order(game: Game) -> tuple[str, ...]:
    """Who takes tricks in the next deal of ``game`` if it is an all-pass deal, in the order
    its bare tricks are read (:func:`~prefcalc.rules.model.play_order`: from the hand after
    the dealer; the dealer who plays the talon cards last)."""
    from prefcalc import api

    sheet = api.sheet(game)
    talon = api.rules(game).passes_dealer_plays_talon
    return play_order(seating(game), sheet.next_dealer, talon=talon)


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
