"""One command layer for every front end: command values, the grammar of a ``play`` line,
and the executor.

A front end (the CLI's typer declarations, the ``play`` prompt loop, the web's play line)
builds a command value — from a line with :func:`parse_line`, or from typed options
directly — hands it to :func:`execute`, and renders the :class:`Result` it gets back with a
view (:mod:`prefcalc.views.results`). Nothing here prints; every change goes through
:mod:`prefcalc.api` under the ledger's lock, so no flow (record, insert, edit, delete, undo,
redo) is written twice.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from prefcalc import api
from prefcalc.errors import NotationError
from prefcalc.i18n import LANGUAGES, _, did_you_mean
from prefcalc.rules import lexicon
from prefcalc.rules.lexicon import kind_of
from prefcalc.rules.model import Entry, Game, seating
from prefcalc.rules.notation import NO_FLAGS as NO_FLAGS
from prefcalc.rules.notation import (
    NOTATION_FLAGS,
    DealWords,
    parse_join,
    resolve_player,
    split_deal,
)
from prefcalc.rules.notation import DealFlags as DealFlags
from prefcalc.rules.readback import log_words
from prefcalc.rules.scoring import Sheet

if TYPE_CHECKING:
    from prefcalc.rules.settlement import Method, Rounding, Settlement

COMMANDS = (
    "game",
    "misere",
    "passes",
    "adjust",
    "penalty",
    "join",
    "player",
    "undo",
    "redo",
    "insert",
    "edit",
    "delete",
    "show",
    "log",
    "settle",
    "explain",
    "set",
    "help",
    "quit",
)
"""The commands of a play line (completion offers them)."""

SHORT_KINDS = lexicon.SHORT_KINDS
"""Every word a line starts with is the lexicon's (:mod:`prefcalc.rules.lexicon`): a command
in either language (``отмена`` is ``undo``, ``лист`` is ``show``, ``расчёт`` is ``settle``),
a kind of deal (``мизер``, ``распасы``, ``поправка``), a short kind (``м``, ``р``: misère and
all-pass, :data:`~prefcalc.rules.lexicon.SHORT_KINDS`), or a player."""

DEAL_OPTIONS = ("--dealer", "--force")
"""The options of a deal besides its flags (the CLI adds its ``--file``)."""


# --- the values ---------------------------------------------------------------------------------
#
# Named tuples (a command is made and read on every line; a frozen dataclass costs about a
# millisecond to define, at every start of the CLI) and, for the commands without arguments,
# a class whose values are all equal.


class Record(NamedTuple):
    """A deal to append: ``kind`` (game, misere, passes, adjust, join, set, preference, or
    the word typed when it names none), its words without the flags, and its flags, typed
    (the deal as :func:`~prefcalc.rules.notation.split_deal` split it, once). The words are
    read into the deal by the API under the ledger's lock, where the seating and the dealer
    are known."""

    kind: str
    words: tuple[str, ...]
    flags: DealFlags = NO_FLAGS
    dealer: str | None = None
    force: bool = False

    def written(self) -> DealWords:
        """The deal as written, for :func:`prefcalc.api.record`."""
        return DealWords(self.kind, self.words, self.flags)


class Insert(NamedTuple):
    number: int
    deal: Record | None
    force: bool = False


class Edit(NamedTuple):
    number: int
    deal: Record | None


class Delete(NamedTuple):
    number: int
    force: bool = False


class _Bare:
    """A command without arguments: immutable, equal to every other of its class."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ or NotImplemented

    def __hash__(self) -> int:
        return hash(self.__class__)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}()"


class Undo(_Bare):
    __slots__ = ()


class Redo(_Bare):
    __slots__ = ()


class SetTerm(NamedTuple):
    term: str


class Join(NamedTuple):
    name: str
    after: str | None = None


class Player(NamedTuple):
    """A player's grammatical gender in Russian: ``gender`` ``m``/``f``, ``auto`` (back to
    the guess by the name), or None (only say how the name is declined now)."""

    name: str
    gender: Literal["m", "f", "auto"] | None = None


class Show(_Bare):
    __slots__ = ()


class Log(_Bare):
    __slots__ = ()


class Settle(NamedTuple):
    method: Method = "pairwise"
    rounding: Rounding = "exact"


class Explain(NamedTuple):
    number: int


class Help(_Bare):
    __slots__ = ()


class Quit(_Bare):
    __slots__ = ()


Command = (
    Record | Insert | Edit | Delete | Undo | Redo | SetTerm | Join | Player | Show | Log | Settle
    | Explain | Help | Quit
)  # fmt: skip

Kind = Literal[
    "recorded", "inserted", "edited", "deleted", "undone", "redone",
    "show", "log", "settle", "explain", "help", "player",
]  # fmt: skip


class Result(NamedTuple):
    """What a command did: its ``kind``, the deal ``number`` it concerns, the entry it
    removed (undo, delete) or replaced (edit), notes for the scorekeeper, and the game and
    its sheet after it (a settlement for ``settle``; the player a ``player`` command is
    about)."""

    kind: Kind
    game: Game
    sheet: Sheet
    number: int | None = None
    removed: Entry | None = None
    notes: tuple[str, ...] = ()
    settlement: Settlement | None = None
    player: str | None = None


# --- the grammar -------------------------------------------------------------------------------


def deal_command(
    words: Sequence[str],
    flags: DealFlags = NO_FLAGS,
    dealer: str | None = None,
    force: bool = False,
    options: Sequence[str] = DEAL_OPTIONS,
) -> Record:
    """A deal from its words, kind first (``["game", "Anna", "7h", ...]``), and what was
    given typed. A mistyped option is named (with the closest of ``options`` and the
    flags); the flags of a game, misère or all-pass deal are taken out of the words."""
    head, rest = (words[0], list(words[1:])) if words else ("", [])
    kind = kind_of(head) or head
    if kind == "adjust":
        return Record(kind, tuple(rest), dealer=dealer, force=force)
    for word in rest:
        key = word.partition("=")[0]
        if key.startswith("--") and key not in NOTATION_FLAGS:
            choices = (*options, *NOTATION_FLAGS)
            raise NotationError(
                _("no such option '{key}'{key2}").format(key=key, key2=did_you_mean(key, choices))
            )
    written = split_deal([kind, *rest], flags)
    return Record(written.kind, written.words, written.flags, dealer, force)


def parse_line(text: str, game: Game) -> Command | None:
    """The command a ``play`` line asks for (None for a blank line or a comment). A line
    that starts with a player is a game (``a 7h 7 b:w v:p``); ``m``/``м`` and
    ``p``/``р``/``рас`` start a misère and an all-pass deal; a deal as ``log`` prints it
    (``Anna 7♥ took 7; Boris whist, Vera pass``, in either language) is that deal
    (:func:`~prefcalc.rules.readback.log_words`)."""
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    said = log_words(text, seating(game))  # a deal as log prints it reads back as a line
    try:
        words = said if said is not None else shlex.split(text)
    except ValueError as exc:
        raise NotationError(_("cannot read the line: {exc}").format(exc=exc)) from None
    if not words:
        return None
    head = lexicon.command_of(words[0]) or words[0].lower()
    rest = words[1:]
    if head == "quit":
        return Quit()
    if head == "help":
        return Help()
    if head in ("show", "log", "undo", "redo"):
        _no_args(words[0], rest)  # the command as typed: ``лист``'s refusal says ``лист``
        simple: dict[str, Command] = {"show": Show(), "log": Log(), "undo": Undo(), "redo": Redo()}
        return simple[head]
    if head == "settle":
        return _settle(rest)
    if head == "explain":
        return Explain(_number(rest, _("explain N")))
    if head == "player" and not _game_by(words[0], rest, game):
        return player_command(rest)
    if head == "delete":
        force = "--force" in rest
        return Delete(_number([w for w in rest if w != "--force"], _("delete N")), force)
    if head == "edit":
        if not rest:
            raise NotationError(_("edit N <deal>, e.g. edit 3 game Anna 7h 6 Boris:w Vera:p"))
        number = _number(rest[:1], _("edit N <deal>"))
        return Edit(number, _line_deal(rest[1:], game) if rest[1:] else None)
    if head == "insert":
        if not rest:
            raise NotationError(_("insert N <deal>, e.g. insert 3 misere Anna 0"))
        number = _number(rest[:1], _("insert N <deal>"))
        deal = _line_deal(rest[1:], game) if rest[1:] else None
        if deal is not None and deal.dealer is not None:
            raise NotationError(_("insert finds the dealer itself (no --dealer)"))
        return Insert(number, deal, force=deal.force if deal is not None else False)
    if "=" in words[0] and lexicon.read("terms", words[0].partition("=")[0]):
        words = ["set", *words]  # ``пуля=30``, ``цена=0,5``: a change of terms said bare
    record = _line_deal(words, game)
    if record.kind == "join":
        seat = parse_join(record.words, seating(game))
        return Join(seat.player, seat.after)
    if record.kind == "set" and record.dealer is None and not record.force:
        return SetTerm(shlex.join(record.words))
    return record


def _line_deal(words: list[str], game: Game) -> Record:
    """A deal as a line writes it: its kind (or a player, then it is a game) first, and
    ``--dealer NAME`` and ``--force`` anywhere."""
    head = words[0]
    kind = SHORT_KINDS.get(head.lower()) or kind_of(head)
    if kind is None:
        try:  # a line that starts with a player is a game
            resolve_player(head, seating(game))
        except NotationError:
            hint = did_you_mean(head.lower(), _line_words()) or _(" (type help for the commands)")
            raise NotationError(
                _("'{head}' is neither a command nor a player{hint}").format(head=head, hint=hint)
            ) from None
        words = ["game", *words]
    else:
        words = [kind, *words[1:]]
    if words[0] in ("adjust", "join", "penalty"):
        return Record(words[0], tuple(words[1:]))  # its words belong to it
    dealer: str | None = None
    force = False
    rest: list[str] = []
    items = iter(words)
    for word in items:
        key, eq, value = word.partition("=")
        if word == "--force":
            force = True
        elif key == "--dealer":
            dealer = value if eq else next(items, None)
            if not dealer:
                raise NotationError(_("--dealer needs a name"))
        else:
            rest.append(word)
    return deal_command(rest, dealer=dealer, force=force)


def _game_by(word: str, rest: Sequence[str], game: Game) -> bool:
    """Whether a line that starts with ``пол`` is a game by a player it names (``пол 7ч 7
    б:в в:п`` for Полина or Поля, written with the start of the name): a game has three words
    after its declarer at least, ``пол NAME ж`` two at most (``--gender`` only in the latter)."""
    if word.lower() != "пол" or len(rest) < 3 or any(w.startswith("--gender") for w in rest):
        return False
    try:
        resolve_player(word, seating(game))
    except NotationError:
        return False
    return True


def player_command(words: Sequence[str], gender: str | None = None) -> Player:
    """``player NAME`` (say how the name is declined), ``player NAME --gender f`` (also
    ``--gender=f``, or the gender bare: ``пол Саша ж``); ``gender``, when given, is the CLI's
    option. The gender is read once, here (:func:`prefcalc.rules.lexicon.parse_gender`)."""
    words = list(words)
    for k, word in enumerate(words):
        key, eq, value = word.partition("=")
        if key == "--gender":
            given = value if eq else (words[k + 1] if k + 1 < len(words) else "")
            if not given:
                raise NotationError(_("--gender needs f, m or auto"))
            if gender is not None:
                raise NotationError(_("the gender is given twice"))
            gender = given
            del words[k : k + (1 if eq else 2)]
            break
    if gender is None and len(words) == 2:
        gender = words.pop()
    if len(words) != 1:
        raise NotationError(_("write player NAME --gender f|m|auto, e.g. player Саша --gender f"))
    if gender is None:
        return Player(words[0])
    return Player(words[0], lexicon.parse_gender(gender) or "auto")


def _no_args(command: str, rest: Sequence[str]) -> None:
    if rest:
        raise NotationError(
            _("{command} takes nothing after it, not '{rest}'").format(
                command=command, rest=rest[0]
            )
        )


def _settle(rest: Sequence[str]) -> Settle:
    """``settle [METHOD] [ROUNDING]``, each in either language and as prefcalc prints it
    (``расчёт средняя целые``, ``расчёт по средней``, ``settle average whole``)."""
    method: Method = "pairwise"
    rounding: Rounding = "exact"
    words = list(rest)
    while words:
        word = words.pop(0)
        for size in (3, 2):  # a word of several: по средней горе, до целых вистов
            joined = " ".join([word, *words[: size - 1]])
            if size - 1 <= len(words) and (
                lexicon.read("methods", joined) or lexicon.read("roundings", joined)
            ):
                word = joined
                del words[: size - 1]
                break
        if lexicon.read("methods", word):
            method = lexicon.parse_method(word)
        elif lexicon.read("roundings", word):
            rounding = lexicon.parse_rounding(word)
        else:
            raise NotationError(
                _("settle takes pairwise or average, exact or whole, not '{word}'").format(
                    word=word
                )
            )
    return Settle(method, rounding)


def _line_words() -> tuple[str, ...]:
    """The words a line may start with, in both languages (for "did you mean")."""
    return (
        *COMMANDS,
        *(word for lang in LANGUAGES for word in lexicon.words_of("commands", lang)),
        *(word for lang in LANGUAGES for word in lexicon.words_of("kinds", lang)),
    )


def _number(words: Sequence[str], usage: str) -> int:
    if len(words) != 1:
        raise NotationError(_("write {usage}").format(usage=usage))
    try:
        return int(words[0])
    except ValueError:
        raise NotationError(
            _("a deal number is a whole number, not '{words}'").format(words=words[0])
        ) from None


# --- the executor -------------------------------------------------------------------------------


def execute(command: Command, path: Path) -> Result:
    """Carry out ``command`` on the ledger at ``path`` (a change under its lock, written
    atomically; a refusal raises :class:`~prefcalc.errors.PrefcalcError` and writes
    nothing) and tell what it did."""
    if isinstance(command, Record):
        deal = command

        def record(game: Game) -> Game:
            return api.record(game, deal.written(), dealer=deal.dealer, force=deal.force)

        game = api.update(path, record)
        number = len(game.entries)
        note = api.repeat_note(game, number)
        return _result("recorded", game, number, notes=(note,) if note else ())
    if isinstance(command, SetTerm):
        term = command.term
        game = api.update(path, lambda g: api.set_term(g, term))
        return _result("recorded", game, len(game.entries))
    if isinstance(command, Join):
        join = command
        game = api.update(path, lambda g: api.join(g, join.name, after=join.after))
        return _result("recorded", game, len(game.entries))
    if isinstance(command, Insert):
        insert = command
        written = _written(insert.deal)

        def inserted(game: Game) -> Game:
            return api.insert(game, insert.number, written, force=insert.force)

        return _result("inserted", api.update(path, inserted), insert.number)
    if isinstance(command, Edit):
        edit = command
        written = _written(edit.deal)
        replaced: list[Entry] = []

        def edited(game: Game) -> Game:
            api.check_number(game, edit.number)
            replaced.append(game.entries[edit.number - 1])
            dealer = edit.deal.dealer if edit.deal is not None else None
            force = edit.deal.force if edit.deal is not None else False
            return api.edit(game, edit.number, written, dealer=dealer, force=force)

        game = api.update(path, edited)
        return _result("edited", game, edit.number, removed=replaced[0])
    if isinstance(command, Delete):
        delete = command
        removed: list[Entry] = []

        def deleted(game: Game) -> Game:
            after = api.delete(game, delete.number, force=delete.force)
            removed.append(game.entries[delete.number - 1])
            return after

        game = api.update(path, deleted)
        return _result("deleted", game, delete.number, removed=removed[0])
    if isinstance(command, Undo):
        game, entry = api.undo_file(path)
        return _result("undone", game, len(game.entries) + 1, removed=entry)
    if isinstance(command, Redo):
        game, _entry = api.redo_file(path)
        return _result("redone", game, len(game.entries))
    if isinstance(command, Player):
        return _player(command, path)
    game = api.load_current(path)
    if isinstance(command, Show):
        return _result("show", game)
    if isinstance(command, Log):
        return _result("log", game)
    if isinstance(command, Settle):
        settlement = api.settle(game, command.method, command.rounding)
        return _result("settle", game, settlement=settlement)
    if isinstance(command, Explain):
        api.check_number(game, command.number)
        return _result("explain", game, command.number)
    if isinstance(command, Help):
        return _result("help", game)
    raise NotationError(_("quit ends a play session; here there is nothing to quit"))


def _player(command: Player, path: Path) -> Result:
    """Set (or only tell) how a player's name is declined: the ledger is written only when
    the gender changes."""
    if command.gender is None:
        game = api.load_current(path)
        return _result("player", game, player=resolve_player(command.name, seating(game)))
    gender = None if command.gender == "auto" else command.gender
    names: list[str] = []

    def change(game: Game) -> Game:
        names.append(resolve_player(command.name, seating(game)))
        return api.set_gender(game, command.name, gender)

    game = api.update(path, change)
    return _result("player", game, player=names[0])


def _written(deal: Record | None) -> DealWords:
    """The deal of an insert or an edit (none given: refused as no deal when read)."""
    return deal.written() if deal is not None else DealWords("", ())


def _result(
    kind: Kind,
    game: Game,
    number: int | None = None,
    *,
    removed: Entry | None = None,
    notes: tuple[str, ...] = (),
    settlement: Settlement | None = None,
    player: str | None = None,
) -> Result:
    return Result(kind, game, api.sheet(game), number, removed, notes, settlement, player)
