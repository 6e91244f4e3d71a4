"""The command line: parse the words, call the record/scoring/settlement code, print.

No rules live here. Every user error is a :class:`PrefcalcError` printed as one line on
stderr with exit code 2, and nothing is written when a command is refused.
"""

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from prefcalc import __version__
from prefcalc import ledger as ledger_io
from prefcalc.amounts import AmountError, parse_amount
from prefcalc.conventions import Convention, load, parse_overrides
from prefcalc.errors import DealError, PrefcalcError, one_line
from prefcalc.model import (
    Adjustment,
    ConventionRef,
    Deal,
    Entry,
    Game,
    check_currency,
    check_deal,
    check_name,
    check_players,
    check_target,
)
from prefcalc.notation import (
    make_adjustment,
    parse_game,
    parse_misere,
    parse_passes,
    parse_words,
    resolve_player,
)
from prefcalc.scoring import Sheet, score

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Keep the score of Preference (преферанс) and settle the night.",
)

FileOpt = Annotated[
    Path | None,
    typer.Option(
        "--file",
        "-f",
        envvar="PREFCALC_FILE",
        help="The game's ledger (default: the current game).",
        show_default=False,
    ),
]
DealerOpt = Annotated[
    str | None,
    typer.Option(
        "--dealer", help="Who dealt (default: the next dealer clockwise).", show_default=False
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Record it although the rules refuse it (below the exit level, game finished).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
AsConvOpt = Annotated[
    str | None,
    typer.Option(
        "--convention",
        "-c",
        help="Re-score under another convention (a preset or a .toml file); the record is unchanged.",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
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


def _convention(
    game: Game, as_convention: str | None = None, overrides: list[str] | None = None
) -> Convention:
    conv = load(as_convention) if as_convention else ledger_io.resolve_convention(game.convention)
    if overrides:
        conv = conv.with_options(parse_overrides(overrides))
    return conv


def _sheet(
    file: Path | None, as_convention: str | None = None, overrides: list[str] | None = None
) -> tuple[Game, Sheet]:
    game = ledger_io.load(_path(file))
    return game, score(game, _convention(game, as_convention, overrides))


# --- recording -----------------------------------------------------------------------------


def _with_entries(game: Game, entries: tuple[Entry, ...]) -> Game:
    return game._replace(entries=entries)


def _checked(
    game: Game,
    conv: Convention,
    entries: tuple[Entry, ...],
    force: bool,
    before: Sheet | None = None,
    first: int = 1,
) -> tuple[Game, Sheet]:
    """The game with ``entries``, refused if a deal from number ``first`` on breaks a rule
    that it did not break ``before`` (the sheet of the same deals before the change).

    With ``force`` every newly offending deal is marked as forced instead.
    """
    new = _with_entries(game, entries)
    sheet = score(new, conv)
    old = {(p.number, p.message) for p in before.problems} if before is not None else set()
    fresh = [p for p in sheet.problems if p.number >= first and (p.number, p.message) not in old]
    if not fresh:
        return new, sheet
    if not force:
        raise DealError(f"{fresh[0]}; add --force to record it anyway")
    numbers = {p.number for p in fresh}
    marked = tuple(e._replace(forced=True) if k in numbers else e for k, e in enumerate(entries, 1))
    new = _with_entries(game, marked)
    return new, score(new, conv)


def _record(file: Path | None, make: Any, dealer: str | None, force: bool) -> None:
    """Append the deal built by ``make(game)`` to the game, under the lock."""
    path = _path(file)
    result: dict[str, Any] = {}

    def change(game: Game) -> Game:
        conv = ledger_io.resolve_convention(game.convention)
        deal: Deal = make(game)
        who = (
            None
            if isinstance(deal, Adjustment)
            else (resolve_player(dealer, game.players) if dealer else game.next_dealer)
        )
        check_deal(game, deal, who, conv.half_whist)
        entries = (*game.entries, Entry(deal, who, ledger_io.now()))
        new, sheet = _checked(game, conv, entries, force, first=len(entries))
        result["sheet"] = sheet
        return new

    _, game = ledger_io.update(path, change)
    sheet: Sheet = result["sheet"]
    _show_recorded(game, sheet, len(game.entries))


def _show_recorded(game: Game, sheet: Sheet, number: int) -> None:
    from prefcalc.views import explain_text, sheet_text

    out(f"recorded as {explain_text(sheet, number)}")
    out("")
    out(sheet_text(sheet, game))


@app.command(context_settings=_WORDS)
def game(
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="DECLARER CONTRACT TRICKS DEFENDER:ROLE DEFENDER:ROLE", show_default=False
        ),
    ],
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Record a contract: prefcalc game Anna 7h 7 Boris:w Vera:p.

    CONTRACT is the level and suit (6s 7c 8d 9h 10nt, or ♠♣♦♥). TRICKS is what the declarer
    took, or - when the game was not played. ROLE: w (whist), wN (whist, took N tricks: needed
    when both whisted; the first listed said whist first), p (pass), h (half-whist).
    Player names may be shortened to a unique prefix.
    """
    _record(file, lambda g: parse_game(words, g.players), dealer, force)


@app.command(context_settings=_WORDS)
def misere(
    declarer: Annotated[str, typer.Argument(show_default=False)],
    tricks: Annotated[str, typer.Argument(show_default=False)],
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Record a misère: prefcalc misere Anna 0."""
    _record(file, lambda g: parse_misere([declarer, tricks], g.players), dealer, force)


@app.command(context_settings=_WORDS)
def passes(
    tricks: Annotated[list[str], typer.Argument(metavar="PLAYER=TRICKS...", show_default=False)],
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Record an all-pass deal: prefcalc passes Anna=2 Boris=5 Vera=3."""
    _record(file, lambda g: parse_passes(tricks, g.players), dealer, force)


@app.command()
def adjust(
    player: Annotated[str, typer.Argument(show_default=False)],
    note: Annotated[str, typer.Option("--note", help="Why (required).", show_default=False)] = "",
    pool: Annotated[
        str | None, typer.Option("--pool", help="Points into his pool.", show_default=False)
    ] = None,
    mountain: Annotated[
        str | None, typer.Option("--mountain", help="Points into his mountain.", show_default=False)
    ] = None,
    whists: Annotated[
        list[str] | None,
        typer.Option(
            "--whists", help="Whists on another player: OTHER=N (repeatable).", show_default=False
        ),
    ] = None,
    file: FileOpt = None,
) -> None:
    """Write N into someone's pool, mountain or whists on another, with a note."""

    def make(g: Game) -> Adjustment:
        return make_adjustment(
            resolve_player(player, g.players),
            _number(pool, "--pool"),
            _number(mountain, "--mountain"),
            whists or [],
            note,
            g.players,
        )

    _record(file, make, None, False)


def _number(text: str | None, what: str) -> Any:
    if text is None:
        return 0
    try:
        return parse_amount(text)
    except AmountError as exc:
        raise DealError(exc.about(what)) from None


@app.command()
def undo(file: FileOpt = None) -> None:
    """Remove the last recorded deal."""

    def change(game: Game) -> Game:
        if not game.entries:
            raise DealError("there is no deal to undo")
        return _with_entries(game, game.entries[:-1])

    before, after = ledger_io.update(_path(file), change)
    from prefcalc.views import deal_text, sheet_text

    out(f"removed deal {len(before.entries)}: {deal_text(before.entries[-1])}")
    out(sheet_text(score(after, ledger_io.resolve_convention(after.convention)), after))


def _deal_number(game: Game, number: int) -> int:
    if not 1 <= number <= len(game.entries):
        count = len(game.entries)
        raise DealError(
            f"there is no deal {number} (the game has {count} deal{'s' if count != 1 else ''})"
        )
    return number


@app.command()
def delete(
    number: Annotated[int, typer.Argument(show_default=False)],
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Delete deal N (later deals are re-scored)."""
    result: dict[str, Any] = {}

    def change(game: Game) -> Game:
        _deal_number(game, number)
        conv = ledger_io.resolve_convention(game.convention)
        entries = game.entries[: number - 1] + game.entries[number:]
        new, result["sheet"] = _checked(
            game, conv, entries, force, _renumbered(score(game, conv), number)
        )
        return new

    before, after = ledger_io.update(_path(file), change)
    from prefcalc.views import deal_text, sheet_text

    out(f"deleted deal {number}: {deal_text(before.entries[number - 1])}")
    out(sheet_text(result["sheet"], after))


def _renumbered(sheet: Sheet, deleted: int) -> Sheet:
    """The sheet's problems as they would be numbered once deal ``deleted`` is gone."""
    from prefcalc.scoring import Problem

    problems = tuple(
        Problem(p.number - 1 if p.number > deleted else p.number, p.message)
        for p in sheet.problems
        if p.number != deleted
    )
    return sheet._replace(problems=problems)


@app.command(context_settings=_WORDS)
def edit(
    number: Annotated[int, typer.Argument(show_default=False)],
    words: Annotated[
        list[str],
        typer.Argument(
            metavar="DEAL...",
            help="The deal as you would record it: game ..., misere ..., passes ..., adjust ...",
            show_default=False,
        ),
    ],
    dealer: DealerOpt = None,
    force: ForceOpt = False,
    file: FileOpt = None,
) -> None:
    """Replace deal N: prefcalc edit 3 game Anna 7h 6 Boris:w Vera:p."""
    result: dict[str, Any] = {}

    def change(game: Game) -> Game:
        _deal_number(game, number)
        conv = ledger_io.resolve_convention(game.convention)
        old = game.entries[number - 1]
        deal = parse_words(words, game.players)
        if isinstance(deal, Adjustment):
            who = None
        elif dealer:
            who = resolve_player(dealer, game.players)
        else:
            who = old.dealer or _dealer_before(game, number)
        check_deal(game, deal, who, conv.half_whist)
        entry = Entry(deal, who, old.time)
        entries = (*game.entries[: number - 1], entry, *game.entries[number:])
        new, result["sheet"] = _checked(game, conv, entries, force, score(game, conv))
        return new

    _, after = ledger_io.update(_path(file), change)
    _show_recorded(after, result["sheet"], number)


def _dealer_before(game: Game, number: int) -> str:
    """The dealer deal ``number`` would have had (used when an adjustment becomes a deal)."""
    return game._replace(entries=game.entries[: number - 1]).next_dealer


# --- viewing -------------------------------------------------------------------------------


@app.command()
def show(
    as_json: JsonOpt = False,
    convention: AsConvOpt = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """The sheet: pool (and what is left to close), mountain, whists on each opponent."""
    from prefcalc.views import sheet_json, sheet_text

    game_, sheet = _sheet(file, convention, overrides)
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
    from prefcalc.views import log_json, log_text

    _, sheet = _sheet(file, convention, overrides)
    if as_json:
        out(json.dumps(log_json(sheet), ensure_ascii=False, indent=2))
    else:
        out(log_text(sheet))


@app.command()
def explain(
    number: Annotated[int, typer.Argument(show_default=False)],
    convention: AsConvOpt = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """Every write of deal N with its reason."""
    from prefcalc.views import explain_text

    game_, sheet = _sheet(file, convention, overrides)
    _deal_number(game_, number)
    out(explain_text(sheet, number))


@app.command()
def rules(
    name: Annotated[str | None, typer.Argument(metavar="[NAME|PATH]", show_default=False)] = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """Every option of a convention (a preset, a .toml file, or the game's) with its meaning."""
    from prefcalc.views import rules_text

    if name is not None:
        conv = load(name)
        if overrides:
            conv = conv.with_options(parse_overrides(overrides))
    else:
        conv = _convention(ledger_io.load(_path(file)), None, overrides)
    out(rules_text(conv))


@app.command()
def settle(
    method: Annotated[
        str, typer.Option("--method", "-m", help="pairwise (method 1) or average (method 2).")
    ] = "pairwise",
    rounding: Annotated[
        str, typer.Option("--rounding", "-r", help="exact or whole whists.")
    ] = "exact",
    compare: Annotated[bool, typer.Option("--compare", help="Both methods side by side.")] = False,
    as_json: JsonOpt = False,
    convention: AsConvOpt = None,
    overrides: SetOpt = None,
    file: FileOpt = None,
) -> None:
    """Settle the game (any time, also mid-game): whists, money and who pays whom."""
    from prefcalc.settlement import METHODS, ROUNDINGS
    from prefcalc.settlement import settle as run_settle
    from prefcalc.views import compare_text, settlement_json, settlement_text

    if method not in METHODS:
        raise DealError(f"unknown method '{method}' (use {' or '.join(METHODS)})")
    if rounding not in ROUNDINGS:
        raise DealError(f"unknown rounding '{rounding}' (use {' or '.join(ROUNDINGS)})")
    game_, sheet = _sheet(file, convention, overrides)
    price, currency = game_.whist_price, game_.currency
    result = run_settle(sheet, method, rounding, price, currency)
    if compare:
        other_method = "average" if method == "pairwise" else "pairwise"
        other = run_settle(sheet, other_method, rounding, price, currency)
        if as_json:
            out(
                json.dumps(
                    [settlement_json(result), settlement_json(other)], ensure_ascii=False, indent=2
                )
            )
        else:
            out(settlement_text(result))
            out("")
            out(compare_text(result, other))
        return
    if as_json:
        out(json.dumps(settlement_json(result), ensure_ascii=False, indent=2))
    else:
        if not sheet.finished:
            out(f"(provisional: the game is not finished, {len(game_.entries)} deals recorded)")
        out(settlement_text(result))


# --- games ---------------------------------------------------------------------------------


@app.command()
def new(
    players: Annotated[
        list[str], typer.Argument(metavar="PLAYER PLAYER PLAYER [PLAYER]", show_default=False)
    ],
    convention: Annotated[
        str, typer.Option("--convention", "-c", help="sochi, leningrad, rostov or a .toml file.")
    ] = "sochi",
    target: Annotated[int, typer.Option("--target", "-t", help="Pool target.")] = 20,
    whist_price: Annotated[
        str, typer.Option("--whist-price", help="Money per whist, e.g. 0.5.")
    ] = "1",
    currency: Annotated[str, typer.Option("--currency", help="e.g. EUR, RUB.")] = "",
    overrides: SetOpt = None,
    dealer: Annotated[
        str | None,
        typer.Option(
            "--dealer", help="Who deals first (default: the first player).", show_default=False
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing game file.")] = False,
    file: FileOpt = None,
) -> None:
    """Start a game: prefcalc new Anna Boris Vera --convention sochi --target 20."""
    names = check_players(tuple(players))
    check_target(target)
    price = _number(whist_price, "--whist-price")
    if price <= 0:
        raise DealError("--whist-price must be positive")
    options = parse_overrides(overrides or [])
    ref = _convention_ref(convention, options)
    conv = ledger_io.resolve_convention(ref)
    first = resolve_player(dealer, names) if dealer else names[0]
    game_ = Game(
        players=names,
        convention=ref,
        target=target,
        first_dealer=first,
        whist_price=price,
        currency=check_currency(currency),
        created=ledger_io.now(),
    )
    path = file if file is not None else ledger_io.new_game_path(names)
    ledger_io.create(path, game_, force)
    if file is None:
        ledger_io.set_current(path)
    out(f"new game: {', '.join(names)} · {conv.name} · target {target} · first dealer {first}")
    out(f"ledger: {path}")


def _convention_ref(convention: str, options: dict[str, Any]) -> ConventionRef:
    from prefcalc.conventions import PRESETS

    if convention.strip().lower() in PRESETS:
        return ConventionRef(convention.strip().lower(), options)
    conv = load(convention)
    if options:
        conv = conv.with_options(options)
    return ConventionRef(None, {k: v for k, v in conv.options().items()}, conv.name)


@app.command()
def use(file: Annotated[Path, typer.Argument(show_default=False)]) -> None:
    """Make FILE the current game."""
    game_ = ledger_io.load(file)
    ledger_io.set_current(file)
    out(f"current game: {file} ({', '.join(game_.players)}, {len(game_.entries)} deals)")


@app.command()
def examples() -> None:
    """The bundled example evenings (ledgers to try any command on with --file)."""
    from prefcalc.resources import bundled

    for path in sorted(bundled("examples").glob("*.json")):
        game_ = ledger_io.load(path)
        conv = ledger_io.resolve_convention(game_.convention)
        out(f"{path}  ({conv.name}, {', '.join(game_.players)}, {len(game_.entries)} deals)")


# --- documents -----------------------------------------------------------------------------


@app.command()
def export(
    kind: Annotated[str, typer.Argument(metavar="xlsx|pdf", show_default=False)],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Output file.", show_default=False)
    ] = None,
    paper: Annotated[str, typer.Option("--paper", help="PDF paper size: a4 or letter.")] = "a4",
    file: FileOpt = None,
) -> None:
    """Export the game as an XLSX workbook or a printable PDF scoresheet."""
    path = _path(file)
    game_, sheet = _sheet(path)
    kind = kind.lower()
    if kind not in ("xlsx", "pdf"):
        raise DealError(f"unknown export '{kind}' (use xlsx or pdf)")
    target = output if output is not None else path.with_suffix(f".{kind}")
    if kind == "xlsx":
        from prefcalc.export.xlsx import write_xlsx

        write_xlsx(game_, sheet, target)
    else:
        from prefcalc.export.pdf import write_pdf

        for warning in write_pdf(game_, sheet, target, paper=paper):
            sys.stderr.write(f"prefcalc: warning: {warning}\n")
    out(f"wrote {target}")


@app.command()
def blank(
    players: Annotated[int, typer.Option("--players", "-p", help="3 or 4.")] = 3,
    names: Annotated[
        list[str] | None,
        typer.Option("--name", help="Pre-fill a player's name (repeatable).", show_default=False),
    ] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="Output file.")] = Path(
        "pulka.pdf"
    ),
    paper: Annotated[str, typer.Option("--paper", help="a4 or letter.")] = "a4",
) -> None:
    """An empty printable pool sheet for 3 or 4 players."""
    if players not in (3, 4):
        raise DealError("a blank sheet is for 3 or 4 players")
    from prefcalc.export.pdf import write_blank

    for warning in write_blank(
        players, target_path=output, names=[check_name(n) for n in names or []], paper=paper
    ):
        sys.stderr.write(f"prefcalc: warning: {warning}\n")
    out(f"wrote {output}")


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
) -> None:
    """Keep the score of Preference (преферанс) and settle the night."""


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; user errors become one line on stderr and exit code 2."""
    try:
        result = app(args=argv, prog_name="prefcalc", standalone_mode=False)
    except PrefcalcError as exc:
        sys.stderr.write(f"prefcalc: error: {one_line(str(exc))}\n")
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        sys.stderr.write("prefcalc: aborted\n")
        return 1
    except typer.TyperException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # plain `prefcalc`: the usage is shown
            if exc.format_message().strip():  # (rich prints it itself and leaves this empty)
                out(exc.format_message())
            return 0
        sys.stderr.write(f"prefcalc: error: {one_line(exc.format_message())}\n")
        return int(getattr(exc, "exit_code", 2))
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0
