"""``prefcalc play``: the session the scorekeeper keeps open all night.

Each line is a deal or a command in the CLI's shorthand without the ``prefcalc`` prefix
(``game Anna 7h 7 Boris:w Vera:p``, or bare: ``a 7h 7 b:w v:p``). This is a front end: every
line goes through :mod:`prefcalc.api`, and every accepted change is written to the ledger at
once by :func:`prefcalc.api.update` (atomic, under the lock), so quitting, a crash or a
second terminal at any moment loses nothing. Between lines the session keeps the loaded game
(and the API its sheet); the ledger is re-read only when its file changed.

On a terminal the prompt is prompt_toolkit's (completion, a history per game); otherwise the
same lines are read from stdin and the session ends with exit code 0 at the end of input.
prompt_toolkit is imported only for the terminal.
"""

from __future__ import annotations

import difflib
import shlex
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from prefcalc import api
from prefcalc.errors import NotationError, PrefcalcError, one_line
from prefcalc.model import Entry, Game, deal_count, seating, sitting_out
from prefcalc.notation import NOTATION_FLAGS, kind_of, resolve_player

COMMANDS = (
    "game",
    "misere",
    "passes",
    "adjust",
    "join",
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

SHORT_KINDS = {
    "m": "misere", "м": "misere",
    "p": "passes", "р": "passes", "рас": "passes",
}  # fmt: skip
"""At the start of a line ``m``/``м`` always mean misère and ``p``/``р``/``рас`` passes
(``мизер`` and ``распасы`` are deal kinds anyway): a player whose name starts with M, P, М
or Р is written there with one more letter (``ма 7ч 7 п:в в:п`` for Маша)."""

QUIT = frozenset({"quit", "exit", "q", "выход"})

HELP = """\
A line is a deal or a command (names may be shortened to a unique prefix):
  game Anna 7h 7 Boris:w Vera:p     a contract (or bare: a 7h 7 b:w v:p)
  misere Anna 0 | m a 0             a misère and the declarer's tricks
  passes 2 5 3 | p a=2 b=5 v=3      an all-pass deal (bare tricks in seating order)
  adjust Anna --mountain 5 --note "why"
  join Dima --after Vera            a late arrival takes his seat (up to five players)
  undo, redo                        remove the last deal / put it back
  insert N <deal>                   a forgotten deal as deal N (later dealers re-derived)
  edit N <deal>, delete N           replace / remove deal N
  set target=30, set whist_price=0.5   a change of terms, recorded like a deal
  show, log, explain N, settle [average] [whole]
  help, quit
A deal takes --dealer NAME and --force. Russian works too: маша 7ч 7 п:в в:п (a game),
  м маша 0 | мизер маша 0, р 2 5 3 | рас 2 5 3 | распасы 2 5 3 (м, р: misère, passes)
Suits s c d h nt (п т б ч бк); roles w wN p h (в вN п пв)."""

DEAL_OPTIONS = ("--dealer", "--force")


class Quit(Exception):
    """The scorekeeper ended the session."""


class Session:
    """One open ledger and the lines typed at it."""

    def __init__(
        self,
        path: Path,
        out: Callable[[str], None],
    ) -> None:
        self.path = path
        self.out = out

    # --- state ---------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return api.load_current(self.path)

    def prompt(self) -> str:
        """``[14 · Vera deals · ≥7] >``: the next deal's number, its dealer, the lowest
        legal contract (or that the game is finished). At four players the dealer sits out
        (``Vera deals, sits out``), at five the next player too (``Vera deals, sits out
        with Gleb``): who holds no cards is what the model says (:func:`sitting_out`)."""
        game = self.game
        sheet = api.sheet(game)
        number = len(game.entries) + 1
        if sheet.finished:
            return f"[{number} · finished] > "
        dealer = sheet.next_dealer
        out = sitting_out(seating(game), dealer)
        others = [p for p in out if p != dealer]
        sits = (", sits out" + (f" with {' and '.join(others)}" if others else "")) if out else ""
        return f"[{number} · {dealer} deals{sits} · ≥{sheet.min_level}] > "

    # --- one line ---------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """Carry out one line; a refused line raises :class:`PrefcalcError`, ``quit``
        raises :class:`Quit`."""
        text = line.strip()
        if not text or text.startswith("#"):
            return
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise NotationError(f"cannot read the line: {exc}") from None
        if not words:
            return
        head = words[0].lower()
        rest = words[1:]
        if head in QUIT:
            raise Quit
        if head in ("help", "?", "помощь"):
            self.out(HELP)
            return
        if head == "show":
            self._no_args(head, rest)
            self._show()
        elif head == "log":
            from prefcalc.views import log_text

            self._no_args(head, rest)
            self.out(log_text(api.sheet(self.game)))
        elif head == "settle":
            self._settle(rest)
        elif head == "explain":
            self._explain(rest)
        elif head == "undo":
            self._no_args(head, rest)
            self._undo()
        elif head == "redo":
            self._no_args(head, rest)
            self._redo()
        elif head == "delete":
            self._delete(rest)
        elif head == "edit":
            self._edit(rest)
        elif head == "insert":
            self._insert(rest)
        else:
            self._record(words)

    def _no_args(self, command: str, rest: Sequence[str]) -> None:
        if rest:
            raise NotationError(f"{command} takes nothing after it, not '{rest[0]}'")

    # --- viewing ---------------------------------------------------------------------------

    def _show(self) -> None:
        from prefcalc.views import sheet_text

        game = self.game
        self.out(sheet_text(api.sheet(game), game))

    def _settle(self, rest: Sequence[str]) -> None:
        from prefcalc.views import settlement_text

        method: api.Method = "pairwise"
        rounding: api.Rounding = "exact"
        for word in rest:
            w = word.lower()
            if w in ("pairwise", "average"):
                method = "pairwise" if w == "pairwise" else "average"
            elif w in ("exact", "whole"):
                rounding = "exact" if w == "exact" else "whole"
            else:
                raise NotationError(
                    f"settle takes pairwise or average, exact or whole, not '{word}'"
                )
        game = self.game
        if not api.sheet(game).finished:
            self.out(f"(provisional: the game is not finished, {deal_count(game)} deals)")
        self.out(settlement_text(api.settle(game, method, rounding)))

    def _explain(self, rest: Sequence[str]) -> None:
        from prefcalc.views import explain_text

        game = self.game
        number = _number(rest, "explain N")
        api.check_number(game, number)
        self.out(explain_text(api.sheet(game), number))

    # --- changing ----------------------------------------------------------------------------

    def _after(self, game: Game, number: int, verb: str = "recorded") -> None:
        """What deal ``number`` wrote, then the compact sheet."""
        from prefcalc.views import compact_text, explain_text

        sheet = api.sheet(game)
        self.out(f"{verb}: {explain_text(sheet, number)}")
        self.out(compact_text(sheet, game))

    def _record(self, words: list[str]) -> None:
        deal, dealer, force = self._deal(words)
        game = api.update(self.path, lambda g: api.record(g, deal, dealer=dealer, force=force))
        self._after(game, len(game.entries))
        note = api.repeat_note(game, len(game.entries))
        if note:
            self.out(note)

    def _deal(self, words: list[str]) -> tuple[list[str], str | None, bool]:
        """The deal's words in the notation, and its ``--dealer`` and ``--force``."""
        head = words[0]
        kind = SHORT_KINDS.get(head.lower()) or kind_of(head)
        if kind is None:
            try:  # a line that starts with a player is a game
                resolve_player(head, seating(self.game))
            except NotationError:
                hint = _suggest(head.lower(), COMMANDS) or " (type help for the commands)"
                raise NotationError(f"'{head}' is neither a command nor a player{hint}") from None
            words = ["game", *words]
        else:
            words = [kind, *words[1:]]
        if words[0] in ("adjust", "join"):
            return words, None, False  # its options belong to it
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
                    raise NotationError("--dealer needs a name")
            elif word.startswith("--") and key not in NOTATION_FLAGS:
                choices = (*DEAL_OPTIONS, *NOTATION_FLAGS)
                raise NotationError(f"no such option '{key}'" + _suggest(key, choices))
            else:
                rest.append(word)
        return rest, dealer, force

    def _undo(self) -> None:
        from prefcalc.views import compact_text, deal_text

        game, removed = api.undo_file(self.path)
        self.out(f"removed deal {len(game.entries) + 1}: {deal_text(removed)} (redo puts it back)")
        self.out(compact_text(api.sheet(game), game))

    def _redo(self) -> None:
        game, _entry = api.redo_file(self.path)
        self._after(game, len(game.entries), "put back")

    def _delete(self, rest: list[str]) -> None:
        from prefcalc.views import compact_text, deal_text

        force = "--force" in rest
        number = _number([w for w in rest if w != "--force"], "delete N")
        removed: list[Entry] = []

        def change(game: Game) -> Game:
            after = api.delete(game, number, force=force)
            removed.append(game.entries[number - 1])
            return after

        game = api.update(self.path, change)
        self.out(f"deleted deal {number}: {deal_text(removed[0])}")
        self.out(compact_text(api.sheet(game), game))

    def _edit(self, rest: list[str]) -> None:
        from prefcalc.views import deal_text

        if not rest:
            raise NotationError("edit N <deal>, e.g. edit 3 game Anna 7h 6 Boris:w Vera:p")
        number = _number(rest[:1], "edit N <deal>")
        deal, dealer, force = self._deal(rest[1:]) if rest[1:] else ([], None, False)
        replaced: list[Entry] = []

        def change(game: Game) -> Game:
            api.check_number(game, number)
            replaced.append(game.entries[number - 1])
            return api.edit(game, number, deal, dealer=dealer, force=force)

        game = api.update(self.path, change)
        self.out(f"replaced deal {number}: {deal_text(replaced[0])}")
        self._after(game, number, "now")

    def _insert(self, rest: list[str]) -> None:
        if not rest:
            raise NotationError("insert N <deal>, e.g. insert 3 misere Anna 0")
        number = _number(rest[:1], "insert N <deal>")
        deal, dealer, force = self._deal(rest[1:]) if rest[1:] else ([], None, False)
        if dealer is not None:
            raise NotationError("insert finds the dealer itself (no --dealer)")
        game = api.update(self.path, lambda g: api.insert(g, number, deal, force=force))
        self._after(game, number, "inserted")
        self.out(f"next dealer {api.sheet(game).next_dealer}")


def _number(words: Sequence[str], usage: str) -> int:
    if len(words) != 1:
        raise NotationError(f"write {usage}")
    try:
        return int(words[0])
    except ValueError:
        raise NotationError(f"a deal number is a whole number, not '{words[0]}'") from None


def _suggest(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


# --- running ---------------------------------------------------------------------------------


def run(path: Path) -> int:
    """The session on ``path``: a prompt on a terminal, else the lines of stdin."""
    api.load_current(path)  # a missing or unreadable ledger is refused before anything
    if sys.stdin.isatty() and sys.stdout.isatty():
        return _terminal(path)
    return run_lines(path, sys.stdin, sys.stdout, sys.stderr)


def run_lines(path: Path, lines: TextIO, out: TextIO, err: TextIO) -> int:
    """The session without a terminal: each line of ``lines`` in turn, results on ``out``,
    a refused line's one-line error on ``err`` (with its line number); 0 at the end."""
    source: Iterator[str] = iter(lines)
    count = 0

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def ask(question: str) -> str | None:
        nonlocal count
        say(question.rstrip())
        answer = next(source, None)
        count += answer is not None
        return answer

    session = Session(path, say)
    for line in source:
        count += 1
        try:
            session.handle(line)
        except Quit:
            break
        except PrefcalcError as exc:
            err.write(f"prefcalc: error: line {count}: {one_line(str(exc))}\n")
            err.flush()
        except OSError as exc:  # e.g. a full disk: the write was atomic, nothing is lost
            err.write(f"prefcalc: error: line {count}: {one_line(str(exc))}\n")
            err.flush()
    return 0


def history_path(path: Path) -> Path:
    """The typed lines of a game, kept across sessions: one history file per ledger in the
    data directory (never beside the ledger)."""
    import hashlib

    from prefcalc.ledger import data_dir

    real = path.resolve()
    digest = hashlib.sha256(str(real).encode()).hexdigest()[:12]
    stem = "".join(c for c in real.stem if c.isalnum() or c in "-_")[:40] or "game"
    return data_dir() / "history" / f"{stem}-{digest}.txt"


def _terminal(path: Path) -> int:  # pragma: no cover - exercised by the pseudo-terminal tests
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    from prefcalc.completion import completer, tab_bindings

    history = history_path(path)
    history.parent.mkdir(parents=True, exist_ok=True)
    prompt: PromptSession[str] = PromptSession(
        history=FileHistory(str(history)),
        complete_while_typing=False,  # Tab completes; no menu pops up while a deal is typed
        reserve_space_for_menu=4,
        key_bindings=tab_bindings(),
    )

    def say(text: str) -> None:
        print(text, flush=True)

    def ask(question: str) -> str | None:
        try:
            return prompt.prompt(question, completer=None)
        except (EOFError, KeyboardInterrupt):
            return None

    session = Session(path, say)
    say(f"prefcalc play: {path} (help for the commands, quit or Ctrl-D to leave)")
    while True:
        try:
            game = session.game
            line = prompt.prompt(session.prompt(), completer=completer(game.players))
        except KeyboardInterrupt:
            continue
        except EOFError:
            return 0
        except PrefcalcError as exc:  # the ledger became unreadable under us
            print(f"error: {one_line(str(exc))}", file=sys.stderr, flush=True)
            return 2
        try:
            session.handle(line)
        except Quit:
            return 0
        except (PrefcalcError, OSError) as exc:  # refused (or the disk failed): nothing lost
            print(f"error: {one_line(str(exc))}", file=sys.stderr, flush=True)
