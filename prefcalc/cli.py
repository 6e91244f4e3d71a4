"""The command line: parse the words, call the record/scoring/settlement code, print.

No rules live here. Every user error is a :class:`PrefcalcError` printed as one line on
stderr with exit code 2, and nothing is written when a command is refused.
"""

import gc
import os

# The CLI uses no pydantic plugins; without this, building the file models scans the entry
# points of every installed distribution on each command (measured: ~6 ms of ~190 ms).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

import json
import sys
from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from prefcalc import __version__, api
from prefcalc.cases import genders
from prefcalc.commands import (
    DEAL_OPTIONS,
    NO_FLAGS,
    Command,
    DealFlags,
    Delete,
    Edit,
    Insert,
    Join,
    Record,
    Redo,
    SetTerm,
    Undo,
    deal_command,
    execute,
)
from prefcalc.errors import DealError, PrefcalcError, one_line, shown, silence
from prefcalc.i18n import (
    N_,
    _,
    check_environment,
    check_language,
    did_you_mean,
    language,
    ngettext,
    speaking,
)
from prefcalc.i18n import set_language as _set_language
from prefcalc.rules.amounts import Amount, parse_whole
from prefcalc.rules.conventions import parse_overrides
from prefcalc.rules.lexicon import Method, Rounding, parse_method, parse_rounding
from prefcalc.rules.model import Game, check_name, deal_count, seating
from prefcalc.rules.notation import blind_names
from prefcalc.rules.scoring import Sheet
from prefcalc.rules.settlement import Settlement
from prefcalc.store import ledger as ledger_io
from prefcalc.store.files import check_output, check_outputs


def _whole(text: str | int) -> int:
    """A whole number typed as an option or argument (typer hands an ``int`` default over as
    it is)."""
    return text if isinstance(text, int) else parse_whole(text)


class _Commands(TyperGroup):
    """prefcalc's commands: however a command is refused, one line on stderr and an exit
    code, both as the installed executable and in process (``typer.testing.CliRunner``)."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """An unknown command is refused in prefcalc's words, with the one suggestion every
        front end makes (the visible commands only)."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            visible = [n for n, c in self.commands.items() if not c.hidden]
            raise PrefcalcError(
                _("no such command '{name}'").format(name=shown(name)) + did_you_mean(name, visible)
            )
        return super().resolve_command(ctx, args)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        code = _guarded(
            lambda: super(_Commands, self).main(
                _prepared(self, args), prog_name, complete_var, False, windows_expand_args, **extra
            )
        )
        if standalone_mode:
            sys.exit(code)
        return code


def _prepared(group: Any, args: Sequence[str] | None) -> list[str]:
    """The words to parse, ``--lang`` first; the language they ask for is in use from here
    on, and the help of every command and option is shown in it."""
    words = _lang_first(args)
    given = [w.partition("=")[2] for w in words[:1] if w.startswith("--lang=")]
    given += words[1:2] if words[:1] == ["--lang"] else []
    set_language(given[0] if given else None)
    if language() != "en":
        _translate_help(group)
    return words


def _translate_help(group: Any) -> None:
    """The help texts of the commands and their options, and the names of their values
    (metavars: ``PLAYER`` -> ``ИГРОК``), in the language in use (the catalog has them: see
    prefcalc/help_extract.py)."""
    for command in (group, *group.commands.values()):
        if command.help:
            command.help = _(command.help)
        for param in command.params:
            if getattr(param, "help", None):
                param.help = _(param.help)
            if param.metavar:
                param.metavar = _(param.metavar)


def _lang_first(args: Sequence[str] | None) -> list[str]:
    """``--lang ru`` is accepted after the command too (``prefcalc show --lang ru``): moved
    in front of it, where the root option reads it. Words after ``--`` are left alone."""
    words = list(sys.argv[1:] if args is None else args)
    end = words.index("--") if "--" in words else len(words)
    # 'new --lang ru' is the new game's own language ('tournament new' has none)
    if "new" in words[:end] and "tournament" not in words[: words.index("new")]:
        end = words.index("new")
    moved: list[str] = []
    k = 0
    while k < end:
        if words[k] == "--lang" and k + 1 < end:
            moved += words[k : k + 2]
            del words[k : k + 2]
            end -= 2
        elif words[k].startswith("--lang="):
            moved.append(words.pop(k))
            end -= 1
        else:
            k += 1
    if not moved:  # an unknown PREFCALC_LANG is refused unless --lang overrides it
        check_environment()
    return moved + words


def set_language(lang: str | None) -> None:
    """The language in use from here on, typer's own words of the help (panels, notes)
    included."""
    _set_language(lang)
    from prefcalc.help_words import install

    install()


_APP: dict[str, Any] = {
    "cls": _Commands,
    "add_completion": False,
    "no_args_is_help": True,
    "pretty_exceptions_enable": False,
    "help": "Keep the score of Preference (преферанс) and settle the night.",
}

app = typer.Typer(**_APP)

FileOpt = Annotated[
    Path | None,
    typer.Option(
        "--file",
        "-f",
        envvar="PREFCALC_FILE",
        metavar="FILE",
        help="The game's ledger (default: the current game).",
        show_default=False,
    ),
]
DealerOpt = Annotated[
    str | None,
    typer.Option(
        "--dealer",
        metavar="PLAYER",
        help="Who dealt (default: the next dealer clockwise).",
        show_default=False,
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Record it although the rules refuse it (below the exit level, game finished).",
    ),
]
DarkOpt = Annotated[
    bool, typer.Option("--dark", help="Classic: ordered blind, the deal counts ×2 (dark_games).")
]
NoTalonOpt = Annotated[
    bool,
    typer.Option(
        "--no-talon", help="Played without the talon (shown in the log; no effect on the score)."
    ),
]
BombOpt = Annotated[
    int | None,
    typer.Option(
        "--bomb",
        metavar="FACTOR",
        parser=_whole,
        help="Classic, bombs.order = declared: the factor of the bomb the declarer uses (2, 4, 8...).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
AsConvOpt = Annotated[
    str | None,
    typer.Option(
        "--convention",
        "-c",
        metavar="NAME|FILE",
        help="Re-score under another convention (a preset or a .toml file); the record is unchanged.",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="Change an option, e.g. --set passes.prices=1,2,4 (repeatable).",
        show_default=False,
    ),
]


# Deal words may look like options ("-1" tricks): let them through to the notation parser,
# which names the real problem.
_WORDS = {"ignore_unknown_options": True}


def out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _path(file: Path | None) -> Path:
    return file if file is not None else ledger_io.current_path()


def _game_and_sheet(
    file: Path | None, as_convention: str | None = None, overrides: list[str] | None = None
) -> tuple[Game, Sheet]:
    game = api.load(_path(file))
    return game, api.sheet(game, as_convention, overrides)


# --- recording -----------------------------------------------------------------------------


CLI_DEAL_OPTIONS = (*DEAL_OPTIONS, "--file")
"""The options a mistyped one among a deal's words is compared with."""


def _run(file: Path | None, command: Command) -> None:
    """Carry out a command that changes the game and show what it wrote, and the sheet."""
    from prefcalc.views.results import cli_result_text

    out(cli_result_text(execute(command, _path(file))))


def _record(
    file: Path | None,
    words: Sequence[str],
    dealer: str | None,
    force: bool,
    flags: DealFlags = NO_FLAGS,
) -> None:
    """Append the deal (kind first, then its words) to the game and show what it wrote."""
    _run(file, _deal(words, flags, dealer, force))


def _deal(
    words: Sequence[str],
    flags: DealFlags = NO_FLAGS,
    dealer: str | None = None,
    force: bool = False,
) -> Record:
    return deal_command(words, flags, dealer, force, CLI_DEAL_OPTIONS)


@app.command(context_settings=_WORDS)
def game(
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="DECLARER CONTRACT TRICKS DEFENDER:ROLE [DEFENDER:ROLE]", show_default=False
        ),
    ],
    dark: DarkOpt = False,
    no_talon: NoTalonOpt = False,
    bomb: BombOpt = None,
    talon: Annotated[
        int | None,
        typer.Option(
            "--talon",
            metavar="TRICKS",
            parser=_whole,
            help="talon_bonus, 4-5 players: tricks the talon gave the declarer (0-3).",
            show_default=False,
        ),
    ] = None,
    returned_by: Annotated[
        str | None,
        typer.Option(
            "--returned-by",
            metavar="PLAYER",
            help="return_whist: the sitting-out dealer returned the whist after both passed.",
            show_default=False,
        ),
    ] = None,
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Record a contract: prefcalc game Anna 7h 7 Boris:w Vera:p.

    CONTRACT is the level and suit (6s 7c 8d 9h 10nt, or ♠♣♦♥). TRICKS is what the declarer
    took, or - when the game was not played. ROLE: w (whist), wN (whist, took N tricks: needed
    when both whisted; the first listed said whist first), p (pass), h (half-whist), r
    (returned the whist after the other's half-whist, return_whist).
    Player names may be shortened to a unique prefix. Two players (Gusarik): one defender,
    prefcalc game Anna 6s 5 Boris:w (or :h, :p).
    """
    flags = DealFlags(dark, no_talon, bomb, talon, returned_by)
    _record(file, ["game", *words], dealer, force, flags)


@app.command(context_settings=_WORDS)
def misere(
    words: Annotated[list[str], typer.Argument(metavar="DECLARER TRICKS", show_default=False)],
    dark: DarkOpt = False,
    no_talon: NoTalonOpt = False,
    bomb: BombOpt = None,
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Record a misère: prefcalc misere Anna 0 (Classic: --dark)."""
    _record(file, ["misere", *words], dealer, force, DealFlags(dark, no_talon, bomb))


@app.command(context_settings=_WORDS)
def passes(
    tricks: Annotated[list[str], typer.Argument(metavar="PLAYER=TRICKS...", show_default=False)],
    blind: Annotated[
        str | None,
        typer.Option(
            "--blind",
            metavar="NAME,NAME",
            help="Classic, bombs.blind: the players who passed blind (NAME,NAME); each earns a bomb ×2.",
            show_default=False,
        ),
    ] = None,
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Record an all-pass deal: prefcalc passes Anna=2 Boris=5 Vera=3."""
    flags = DealFlags(blind=blind_names(blind)) if blind is not None else NO_FLAGS
    _record(file, ["passes", *tricks], dealer, force, flags)


@app.command()
def preference(
    player: Annotated[str, typer.Argument(metavar="PLAYER", show_default=False)],
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Classic (preference_combo): PLAYER declares the "Preference" combination and the game
    ends: his mountain is written off, every pool filled up to the target, help_whists per
    point put into another player's pool."""
    _record(file, ["preference", player], dealer, force)


# Russian names of the deal commands (prefcalc мизер Маша 0); hidden from the help list
app.command("игра", context_settings=_WORDS, hidden=True)(game)
app.command("мизер", context_settings=_WORDS, hidden=True)(misere)
app.command("распасы", context_settings=_WORDS, hidden=True)(passes)


@app.command()
def adjust(
    player: Annotated[str, typer.Argument(metavar="PLAYER", show_default=False)],
    note: Annotated[
        str, typer.Option("--note", metavar="TEXT", help="Why (required).", show_default=False)
    ] = "",
    pool: Annotated[
        str | None,
        typer.Option("--pool", metavar="POINTS", help="Points into his pool.", show_default=False),
    ] = None,
    mountain: Annotated[
        str | None,
        typer.Option(
            "--mountain", metavar="POINTS", help="Points into his mountain.", show_default=False
        ),
    ] = None,
    whists: Annotated[
        list[str] | None,
        typer.Option(
            "--whists",
            metavar="OTHER=N",
            help="Whists on another player: OTHER=N (repeatable).",
            show_default=False,
        ),
    ] = None,
    file: FileOpt = None,
) -> None:
    """Write N into someone's pool, mountain or whists on another, with a note."""
    words = ["adjust", player, "--note", note]
    if pool is not None:
        words += ["--pool", pool]
    if mountain is not None:
        words += ["--mountain", mountain]
    for pair in whists or []:
        words += ["--whists", pair]
    _record(file, words, None, False)


@app.command(context_settings=_WORDS)
def penalty(
    player: Annotated[str, typer.Argument(metavar="PLAYER", show_default=False)],
    kind: Annotated[str, typer.Argument(metavar="KIND", show_default=False)],
    rest: Annotated[
        list[str] | None, typer.Argument(metavar="[CONTRACT] [N] [OTHER]", show_default=False)
    ] = None,
    file: FileOpt = None,
) -> None:
    """A penalty of the Code into PLAYER's mountain, its section in the reason: prefcalc
    penalty Anna peek.

    KIND: peek [N] (looked at the talon, 3.2.21: 5 or the agreed N), dealing [N] (broke the
    dealing procedure, 3.2.17: 5 or N), illegal CONTRACT (insisted on an illegal contract,
    3.4.4: «без всех» on it), cards CONTRACT [N] (ordered holding a wrong number of cards,
    3.4.6: «без двух», or N down), miscount CONTRACT [N] (a wrong number of cards found in
    play, 3.9.18: at least «без двух»), entry N [OTHER] (a wrong score entry, 4.2.7-4.2.10:
    the excess N written back on him by OTHER, or into his mountain). A trick lost for looking
    at a trick other than the last (3.9.11.2) is written with its deal: --looked NAME.
    """
    _record(file, ["penalty", player, kind, *(rest or [])], None, False)


app.command("штраф", context_settings=_WORDS, hidden=True)(penalty)


@app.command()
def join(
    name: Annotated[str, typer.Argument(metavar="NAME", show_default=False)],
    after: Annotated[
        str | None,
        typer.Option(
            "--after",
            metavar="PLAYER",
            help="Sit after this player (default: the last seat).",
            show_default=False,
        ),
    ] = None,
    file: FileOpt = None,
) -> None:
    """A player joins between deals (up to five): prefcalc join Dima --after Vera.

    His pool and mountain start at the exact averages of the seated players; from the next
    deal the table size rules apply and the deal passes on clockwise in the new seating.
    """
    _run(file, Join(name, after))


@app.command()
def player(
    name: Annotated[str, typer.Argument(metavar="NAME", show_default=False)],
    gender: Annotated[
        str | None,
        typer.Option(
            "--gender",
            metavar="GENDER",
            help="f or m (ж or м, female or male); auto: back to the guess by the name.",
            show_default=False,
        ),
    ] = None,
    file: FileOpt = None,
) -> None:
    """How a player's name is declined in Russian: prefcalc player Мишель --gender f («висты
    на Мишель», not «на Мишеля»). Without --gender: how it is declined now. Kept in the
    ledger; no number changes."""
    from prefcalc.commands import player_command

    _run(file, player_command([name], gender))


@app.command()
def undo(file: FileOpt = None) -> None:
    """Remove the last recorded deal (redo puts it back)."""
    _run(file, Undo())


@app.command()
def redo(file: FileOpt = None) -> None:
    """Put back the deal the last undo removed (if nothing was recorded since)."""
    _run(file, Redo())


def _deal_words(help: str) -> Any:
    """The DEAL... argument of insert and edit (a deal's words, kind first)."""
    return typer.Argument(metavar="DEAL...", help=help, show_default=False)


@app.command(context_settings=_WORDS)
def insert(
    number: Annotated[int, typer.Argument(metavar="N", parser=_whole, show_default=False)],
    words: Annotated[
        list[str],
        _deal_words(
            help="The forgotten deal as you would record it: game ..., misere ..., passes ..."
        ),
    ],
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Insert a forgotten deal as deal N: prefcalc insert 3 misere Anna 0 (dealers from
    there on are re-derived, so the next dealer is right)."""
    _run(file, Insert(number, _deal(words), force))


@app.command("set")
def set_(
    term: Annotated[str, typer.Argument(metavar="KEY=VALUE", show_default=False)],
    file: FileOpt = None,
) -> None:
    """Change the target or the whist price mid-game: prefcalc set target=30 (recorded
    like a deal; a target applies to the deals after it, the last whist price to the
    whole night)."""
    _run(file, SetTerm(term))


@app.command()
def delete(
    number: Annotated[int, typer.Argument(metavar="N", parser=_whole, show_default=False)],
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Delete deal N (later deals are re-scored)."""
    _run(file, Delete(number, force))


@app.command(context_settings=_WORDS)
def edit(
    number: Annotated[int, typer.Argument(metavar="N", parser=_whole, show_default=False)],
    words: Annotated[
        list[str],
        _deal_words(
            help="The deal as you would record it: game ..., misere ..., passes ..., adjust ..."
        ),
    ],
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Replace deal N: prefcalc edit 3 game Anna 7h 6 Boris:w Vera:p."""
    _run(file, Edit(number, _deal(words, dealer=dealer, force=force)))


@app.command()
def play(file: FileOpt = None) -> None:
    """The session to keep open all night: one deal or command per line, no prefix
    (game Anna 7h 7 Boris:w Vera:p, or a 7h 7 b:w v:p; undo, insert N, show, settle, help).
    Reads the lines from stdin when it is not a terminal, and then exits 2 if any was refused."""
    from prefcalc.play import run

    gc.enable()  # a session, open all night: the collector runs (prefcalc.__main__.run)
    raise typer.Exit(run(_path(file)))


# --- viewing -------------------------------------------------------------------------------


@app.command()
def show(
    as_json: JsonOpt = False,
    convention: AsConvOpt = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """The sheet: pool (and what is left to close), mountain, whists on each opponent."""
    from prefcalc.views.payloads import sheet_json
    from prefcalc.views.sheet_text import sheet_text

    game_, sheet = _game_and_sheet(file, convention, overrides)
    if as_json:
        out(json.dumps(sheet_json(sheet, game_), ensure_ascii=False, indent=2))
    else:
        out(sheet_text(sheet, game_))


@app.command()
def log(
    as_json: JsonOpt = False,
    convention: AsConvOpt = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """The numbered deals."""
    from prefcalc.views.log import log_text
    from prefcalc.views.payloads import log_json

    game_, sheet = _game_and_sheet(file, convention, overrides)
    if as_json:
        out(json.dumps(log_json(sheet), ensure_ascii=False, indent=2))
    else:
        with genders(game_.genders):
            out(log_text(sheet))


@app.command()
def explain(
    number: Annotated[int, typer.Argument(metavar="N", parser=_whole, show_default=False)],
    convention: AsConvOpt = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """Every write of deal N with its reason."""
    from prefcalc.views.log import explain_text

    game_, sheet = _game_and_sheet(file, convention, overrides)
    api.check_number(game_, number)
    with genders(game_.genders):
        out(explain_text(sheet, number))


@app.command()
def rules(
    name: Annotated[str | None, typer.Argument(metavar="NAME|FILE", show_default=False)] = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """Every option of a convention (a preset, a .toml file, or the game's) with its meaning."""
    from prefcalc.store.conventions import load
    from prefcalc.views.convention import rules_text

    if name is not None:
        conv = load(name)
        if overrides:
            conv = conv.with_options(parse_overrides(overrides))
    else:
        conv = api.rules(api.load(_path(file)), None, overrides)
    out(rules_text(conv))


@app.command()
def settle(
    method: Annotated[
        Method,
        typer.Option(
            "--method",
            "-m",
            metavar="pairwise|average",
            parser=parse_method,
            help="pairwise (method 1) or average (method 2).",
        ),
    ] = "pairwise",
    rounding: Annotated[
        Rounding,
        typer.Option(
            "--rounding",
            "-r",
            metavar="exact|whole",
            parser=parse_rounding,
            help="exact or whole whists.",
        ),
    ] = "exact",
    compare: Annotated[bool, typer.Option("--compare", help="Both methods side by side.")] = False,
    as_json: JsonOpt = False,
    convention: AsConvOpt = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """Settle the game (any time, also mid-game): whists, money and who pays whom."""
    from prefcalc.views.payloads import settlement_json
    from prefcalc.views.settlement import compare_text, settlement_text

    game_ = api.load(_path(file))
    sheet = api.sheet(game_, convention, overrides)

    def run(how: Method) -> Settlement:
        return api.settle(game_, how, rounding, convention=convention, overrides=overrides)

    result = run(method)
    with genders(game_.genders):  # the names declined by the game's genders
        if compare:
            other = run("average" if method == "pairwise" else "pairwise")
            if as_json:
                both = [settlement_json(result), settlement_json(other)]
                out(json.dumps(both, ensure_ascii=False, indent=2))
            else:
                out(settlement_text(result))
                out("")
                out(compare_text(result, other))
            return
        if as_json:
            out(json.dumps(settlement_json(result), ensure_ascii=False, indent=2))
        else:
            if not sheet.finished:
                n = deal_count(game_)
                out(
                    ngettext(
                        "(provisional: the game is not finished, {n} deals recorded)",
                        "(provisional: the game is not finished, {n} deals recorded)",
                        n,
                    ).format(n=n)
                )
            out(settlement_text(result))


# --- games ---------------------------------------------------------------------------------


@app.command()
def new(
    players: Annotated[
        list[str], typer.Argument(metavar="PLAYER PLAYER [PLAYER...]", show_default=False)
    ],
    convention: Annotated[
        str,
        typer.Option(
            "--convention",
            "-c",
            metavar="NAME|FILE",
            help="sochi, leningrad, rostov, classic, fspr or a .toml file.",
        ),
    ] = "sochi",
    target: Annotated[
        int | None,
        typer.Option(
            "--target",
            "-t",
            metavar="N",
            parser=_whole,
            help="Pool target (default 20; Classic 50).",
            show_default=False,
        ),
    ] = None,
    whist_price: Annotated[
        str, typer.Option("--whist-price", metavar="PRICE", help="Money per whist, e.g. 0.5.")
    ] = "1",
    currency: Annotated[
        str, typer.Option("--currency", metavar="CODE", help="e.g. EUR, RUB.")
    ] = "",
    overrides: SetOpt = None,
    dealer: Annotated[
        str | None,
        typer.Option(
            "--dealer",
            metavar="PLAYER",
            help="Who deals first (default: the first player).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing game file.")] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="ru|en",
            help="The game's language, ru or en: its PDF and workbook are made in it by anyone.",
            show_default=False,
        ),
    ] = None,
    file: FileOpt = None,
) -> None:
    """Start a game of 2 to 5 players: prefcalc new Anna Boris Vera --convention sochi.

    Four players: the dealer sits out; five: the dealer and the next dealer sit out; two:
    Gusarik (a dummy, one defender: game Anna 6s 5 Boris:w)."""
    if lang is not None:
        lang = check_language(lang)  # refused as the option it came from: --lang
    game_ = api.new_game(
        players,
        convention,
        target,
        whist_price=_number(whist_price, "--whist-price"),
        currency=currency,
        options=overrides or [],
        dealer=dealer,
        lang=lang,
    )
    if lang is not None:
        set_language(lang)
    path = file if file is not None else ledger_io.new_game_path(game_.players)
    try:
        previous: Path | None = ledger_io.current_path()
    except PrefcalcError:
        previous = None
    ledger_io.create(path, game_, force)
    if file is None:
        try:
            ledger_io.set_current(path)
        except PrefcalcError:
            path.unlink(missing_ok=True)  # the game was just made here: refused means nothing
            raise
    from prefcalc.terms import convention_name

    conv = api.rules(game_)
    out(
        _("new game: {players} · {convention} · target {target} · first dealer {dealer}").format(
            players=", ".join(game_.players),
            convention=convention_name(conv.name),
            target=game_.target,
            dealer=game_.first_dealer,
        )
    )
    out(_("ledger: {file}").format(file=path))
    if file is not None:
        out(_("(not made current: it is used with --file, or after 'prefcalc use')"))
    elif previous is not None and previous.absolute() != path.absolute():
        out(
            _(
                "it is now the current game; the previous one is still at {previous} "
                "(prefcalc games lists them, prefcalc use goes back)"
            ).format(previous=previous)
        )
    else:
        out(_("it is now the current game"))


def _number(text: str, option: str) -> Amount:
    from prefcalc.rules.amounts import AmountError, parse_amount

    try:
        return parse_amount(text)
    except AmountError as exc:
        raise DealError(exc.about(option)) from None


@app.command()
def use(
    name: Annotated[str, typer.Argument(metavar="NUMBER|NAME|FILE", show_default=False)],
) -> None:
    """Make a game current: a file, its number in 'prefcalc games', or a player's name or
    a word of its file name."""
    from prefcalc.store.games import find

    file = find(name)
    game_ = api.load(file)
    ledger_io.set_current(file)
    count = deal_count(game_)
    out(
        ngettext(
            "current game: {file} ({players}, {count} deals)",
            "current game: {file} ({players}, {count} deals)",
            count,
        ).format(file=file, players=", ".join(seating(game_)), count=count)
    )


@app.command()
def games() -> None:
    """The saved games: players, when they started, deals, finished or not; * = current."""
    from prefcalc.store.games import saved_games
    from prefcalc.views.results import games_text

    out(games_text(saved_games()))


@app.command()
def examples() -> None:
    """The bundled example evenings (ledgers to try any command on with --file)."""
    from prefcalc.resources import bundled
    from prefcalc.terms import convention_name

    for path in sorted(bundled("examples").glob("*.json")):
        game_ = api.load(path)
        conv = api.rules(game_)
        count = deal_count(game_)
        out(
            ngettext(
                "{file}  ({convention}, {players}, {count} deals)",
                "{file}  ({convention}, {players}, {count} deals)",
                count,
            ).format(
                file=path,
                convention=convention_name(conv.name),
                players=", ".join(seating(game_)),
                count=count,
            )
        )


class SchemaKind(StrEnum):
    ledger = "ledger"
    convention = "convention"


@app.command()
def schema(
    kind: Annotated[SchemaKind, typer.Argument(metavar="ledger|convention", show_default=False)],
) -> None:
    """The JSON Schema of a ledger file or a convention (TOML) file, for editors and tools."""
    from prefcalc.store.schemas import json_schema

    out(json.dumps(json_schema(kind.value), ensure_ascii=False, indent=2))


# --- documents -----------------------------------------------------------------------------


class ExportKind(StrEnum):
    xlsx = "xlsx"
    pdf = "pdf"


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


@app.command()
def export(
    kind: Annotated[
        ExportKind, typer.Argument(metavar="xlsx|pdf", show_default=False, case_sensitive=False)
    ],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="FILE", help="Output file.", show_default=False),
    ] = None,
    paper: Annotated[
        Paper, typer.Option("--paper", help="PDF paper size.", case_sensitive=False)
    ] = Paper.a4,
    file: FileOpt = None,
) -> None:
    """Export the game as an XLSX workbook or a printable PDF scoresheet."""
    path = _path(file)
    report = api.report(api.load(path))
    # by default into the current directory, never into the data folder beside the ledger
    target = output if output is not None else Path(path.with_suffix(f".{kind.value}").name)
    check_output(target, path, N_("the workbook") if kind is ExportKind.xlsx else N_("the PDF"))
    if kind is ExportKind.xlsx:
        from prefcalc.export.xlsx import write_xlsx

        with speaking(report.game.lang), genders(report.game.genders):  # the game's own
            write_xlsx(report, target)
    else:
        from prefcalc.export.pdf import write_pdf

        with speaking(report.game.lang), genders(report.game.genders):
            warnings = write_pdf(report, target, paper=paper.value)
        for warning in warnings:
            sys.stderr.write(_("prefcalc: warning: {warning}").format(warning=warning) + "\n")
    out(_("wrote {file}").format(file=target))


@app.command()
def blank(
    players: Annotated[
        int, typer.Option("--players", "-p", metavar="N", parser=_whole, help="2 to 5.")
    ] = 3,
    names: Annotated[
        list[str] | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="Pre-fill a player's name (repeatable).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path, typer.Option("--output", "-o", metavar="FILE", help="Output file.")
    ] = Path("pulka.pdf"),
    paper: Annotated[
        Paper, typer.Option("--paper", help="PDF paper size.", case_sensitive=False)
    ] = Paper.a4,
) -> None:
    """An empty printable pool sheet for 2 to 5 players."""
    if players not in (2, 3, 4, 5):
        raise DealError(_("a blank sheet is for 2 to 5 players"))
    check_output(output, None, N_("the PDF"))
    from prefcalc.export.pdf import write_blank

    for warning in write_blank(
        players, target_path=output, names=[check_name(n) for n in names or []], paper=paper.value
    ):
        sys.stderr.write(_("prefcalc: warning: {warning}").format(warning=warning) + "\n")
    out(_("wrote {file}").format(file=output))


# --- the club's history and sharing ----------------------------------------------------------


@app.command()
def history(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="PATH...",
            help="Ledgers and folders (searched recursively for *.json).",
            show_default=False,
        ),
    ] = None,
    folder: Annotated[
        Path | None,
        typer.Option(
            "--dir",
            metavar="FOLDER",
            help="A folder of games (default: the data folder's games).",
            show_default=False,
        ),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="DATE",
            help="Only games from this date on (2026-11-01).",
            show_default=False,
        ),
    ] = None,
    player: Annotated[
        str | None,
        typer.Option(
            "--player",
            metavar="PLAYER",
            help="Only this player's games and standing.",
            show_default=False,
        ),
    ] = None,
    as_json: JsonOpt = False,
    xlsx: Annotated[
        Path | None,
        typer.Option(
            "--xlsx",
            metavar="FILE",
            help="Write a workbook with the games, standings and charts.",
            show_default=False,
        ),
    ] = None,
    pdf: Annotated[
        Path | None,
        typer.Option(
            "--pdf",
            metavar="FILE",
            help="Write a PDF with the standings and charts.",
            show_default=False,
        ),
    ] = None,
    paper: Annotated[
        Paper, typer.Option("--paper", help="PDF paper size.", case_sensitive=False)
    ] = Paper.a4,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Read every ledger, leave the cache alone.")
    ] = False,
    ratings: Annotated[
        bool,
        typer.Option(
            "--ratings", help="Every player's Elo rating over the games (pairwise, by date)."
        ),
    ] = False,
) -> None:
    """Every game in the data folder (or PATHs): one row per game, then every player's
    totals across the games (pairwise settlement, exact)."""
    from prefcalc.history import club as hist

    day = hist.parse_since(since) if since is not None else None
    outputs = [
        (t, w) for t, w in ((xlsx, N_("the workbook")), (pdf, N_("the PDF"))) if t is not None
    ]
    check_outputs(outputs)
    where = [*(paths or []), *([folder] if folder is not None else [])]
    result = hist.collect(where, since=day, player=player, use_cache=not no_cache, ratings=ratings)
    for warning in result.warnings:
        sys.stderr.write(_("prefcalc: warning: {warning}").format(warning=one_line(warning)) + "\n")
    if xlsx is not None:
        from prefcalc.export.history_xlsx import write_history_xlsx

        write_history_xlsx(result, xlsx)
    if pdf is not None:
        from prefcalc.export.history_pdf import write_history_pdf

        for warning in write_history_pdf(result, pdf, paper=paper.value):
            sys.stderr.write(
                _("prefcalc: warning: {warning}").format(warning=one_line(warning)) + "\n"
            )
    if as_json:
        from prefcalc.views.history import history_json

        out(json.dumps(history_json(result), ensure_ascii=False, indent=2))
    elif xlsx is None and pdf is None:
        from prefcalc.views.history import history_text

        out(history_text(result))
    for target in (xlsx, pdf):
        if target is not None:
            out(_("wrote {file}").format(file=target))


@app.command()
def share(
    png: Annotated[
        Path | None,
        typer.Option(
            "--png",
            metavar="FILE",
            help="Also write the pool sheet as a PNG image.",
            show_default=False,
        ),
    ] = None,
    file: FileOpt = None,
) -> None:
    """A short summary of the game for the group chat (and the pool sheet as an image)."""
    from prefcalc.views.history import share_text

    path = _path(file)
    if png is not None:
        check_output(png, path, N_("the image"))
    report = api.report(api.load(path))
    with genders(report.game.genders):
        out(share_text(report))
    if png is not None:
        from prefcalc.export.share import write_png

        with speaking(report.game.lang), genders(report.game.genders):
            warnings = write_png(report, png)
        for warning in warnings:
            sys.stderr.write(
                _("prefcalc: warning: {warning}").format(warning=one_line(warning)) + "\n"
            )
        out(_("wrote {file}").format(file=png))


@app.command()
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="ADDRESS",
            help="The address to listen on (127.0.0.1: this computer only).",
        ),
    ] = "0.0.0.0",
    port: Annotated[
        int,
        typer.Option("--port", metavar="N", parser=_whole, help="The port (0: any free one)."),
    ] = 8000,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            metavar="SECRET",
            help="The score link's secret, at least 16 characters (default: the one kept for"
            " this game, else a random one).",
            show_default=False,
        ),
    ] = None,
    new_token: Annotated[
        bool,
        typer.Option("--new-token", help="A new random secret: the old score link stops working."),
    ] = False,
    read_only: Annotated[
        bool, typer.Option("--read-only", help="No scoring: watching only.")
    ] = False,
    file: FileOpt = None,
    tournament: Annotated[
        Path | None,
        typer.Option(
            "--tournament",
            metavar="FOLDER",
            help="Serve a tournament's folder: the hall's page (the standings live, every"
            " table) and a score link per table of the round, each with its own token.",
            show_default=False,
        ),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="ru|en",
            help="The language of the pages and of the lines shown here: ru or en (default:"
            " PREFCALC_LANG, then the locale).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """The sheet live on every phone at the table (a watch link), and scoring from a phone
    (a score link with a secret token, kept for the game: the next serve gives the same
    link); both printed with a QR code. The pages speak the language in use (--lang ru|en,
    PREFCALC_LANG, then the locale)."""
    if lang is not None:  # read in front of the command (_lang_first): listed here for --help
        set_language(lang)
    if tournament is not None:
        from prefcalc.web import serve_tournament

        if token is not None:
            raise PrefcalcError(
                _("--token gives one game's token: each table of a tournament has its own")
            )
        if file is not None:
            raise PrefcalcError(_("--file and --tournament serve different things: give one"))
        serve_tournament(
            tournament, host=host, port=port, read_only=read_only, lang=language(), new=new_token
        )
        return
    from prefcalc.web import serve as run

    gc.enable()  # a server: the collector runs (prefcalc.__main__.run)
    run(
        _path(file),
        host=host,
        port=port,
        token=token,
        read_only=read_only,
        lang=language(),
        new=new_token,
    )


# prefcalc tournament ...: the sub-app's module imports only typer (its commands import the rest)
from prefcalc.tournament.cli import app as _tournament  # noqa: E402

app.add_typer(_tournament, name="tournament")

# prefcalc app ...: the offline app's build; the sub-app's module imports only typer
from prefcalc.app.cli import commands as _app_commands  # noqa: E402

app.add_typer(_app_commands, name="app")


def _version(value: bool) -> None:
    if value:
        out(f"prefcalc {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="ru|en",
            help="The language: ru or en (default: PREFCALC_LANG, then the locale).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Keep the score of Preference (преферанс) and settle the night."""
    set_language(lang)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; user errors become one line on stderr and exit code 2."""
    words = list(sys.argv[1:] if argv is None else argv)
    result = _app_for(words)(args=words, prog_name="prefcalc", standalone_mode=False)
    return result if isinstance(result, int) else 0


def _app_for(words: Sequence[str]) -> typer.Typer:
    """The app to run ``words`` with: when they name a command (after ``--lang``), an app
    of that command alone, so that a command does not pay for making the other thirty (typer
    builds every command of an app before it runs one); else the whole app (the list of
    commands, ``--help``, ``--version``, an unknown command and its suggestion)."""
    from typer.main import get_command_name

    k = 0
    while k < len(words) and words[k].startswith("--lang"):
        k += 1 if "=" in words[k] else 2
    name = words[k] if k < len(words) else ""
    chosen = [
        info
        for info in app.registered_commands
        if info.callback is not None
        and (info.name or get_command_name(info.callback.__name__)) == name
    ]
    if len(chosen) != 1:
        return app
    one = typer.Typer(**_APP)
    one.registered_callback = app.registered_callback
    one.registered_commands = chosen
    return one


def _fail(message: str) -> None:
    try:
        sys.stderr.write(_("prefcalc: error: {error}").format(error=one_line(message)) + "\n")
        sys.stderr.flush()
    except BrokenPipeError:  # nobody reads the error: the exit code still tells
        _silence_output()


def _worded(exc: PrefcalcError) -> str:
    """The error as one line: a very long path is cut, never the words saying what is wrong."""
    if exc.where is None or len(exc.where) <= 200:
        return str(exc)
    return f"{shown(exc.where, 200)}: {exc.message}"


def _no_such_option(exc: Any) -> str:
    """``no such option '--dealr' (did you mean --dealer?)``: the closest real option."""
    name = str(exc.option_name)
    choices: list[str] = list(exc.possibilities or [])
    if exc.ctx is not None:
        for param in exc.ctx.command.params:
            choices += [o for o in getattr(param, "opts", []) if o.startswith("--")]
    return _("no such option '{name}'").format(name=one_line(name)) + did_you_mean(name, choices)


def _open_streams() -> None:
    """Standard output or error closed when prefcalc started (``prefcalc schema >&-``):
    Python leaves ``sys.stdout`` None, and the first line shown would be a traceback. What
    would be shown goes to the null device instead (whose descriptor takes the closed one's
    place, so no file opened later is written to as if it were the output)."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            try:
                stream: Any = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
            except OSError:
                import io

                stream = io.StringIO()
            setattr(sys, name, stream)


def _silence_output() -> None:
    """The reader of our output went away (``| head -c1``): discard the rest, so the flush
    at exit finds nothing to complain about."""
    for stream in (sys.stdout, sys.stderr):
        silence(stream)


def _guarded(run: Callable[[], Any]) -> int:
    """Run a command; every way it can be refused becomes one line and an exit code.

    A closed standard output is not an error worth a traceback: the output is dropped, the
    command still does its work (a deal is recorded) and exits as it would have."""
    _open_streams()
    try:
        return _refusals(run)
    except BrokenPipeError:  # the reader left while a refusal or warning was written
        _silence_output()
        return 0
    except SystemExit as exc:
        if not isinstance(exc.__context__, BrokenPipeError):
            raise
        _silence_output()  # typer turns a broken pipe in a command into exit code 1
        return 0


def _refusals(run: Callable[[], Any]) -> int:
    from typer._click.exceptions import NoArgsIsHelpError, NoSuchOption

    try:
        result = run()
        sys.stdout.flush()  # a broken pipe shows here, not in the flush at exit
    except PrefcalcError as exc:
        _fail(_worded(exc))
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        sys.stderr.write(_("prefcalc: aborted") + "\n")
        return 1
    except NoArgsIsHelpError as exc:  # bare `prefcalc`: the usage was shown, nothing failed
        if exc.format_message():
            sys.stdout.write(exc.format_message() + "\n")
        return 0
    except NoSuchOption as exc:
        _fail(_no_such_option(exc))
        return 2
    except typer.TyperException as exc:
        from prefcalc.help_words import refusal

        _fail(refusal(exc))  # typer's parser words its refusals in English: said in ours
        return int(getattr(exc, "exit_code", 2))
    except BrokenPipeError:
        _silence_output()
        return 0
    except (RecursionError, MemoryError, OSError, ValueError, OverflowError) as exc:
        # a case the checks missed must still never show a traceback: one line, exit 70
        if os.environ.get("PREFCALC_DEBUG"):
            raise
        from prefcalc.store.files import os_reason

        said = os_reason(exc) if isinstance(exc, OSError) else str(exc)
        sys.stderr.write(
            _(
                "prefcalc: internal error: {kind}: {error} (please report it; nothing was written)"
            ).format(kind=type(exc).__name__, error=one_line(said)[:200])
            + "\n"
        )
        return 70
    return result if isinstance(result, int) else 0
