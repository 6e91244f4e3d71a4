"""``prefcalc tournament ...``: the typer commands, each a few lines over
:mod:`prefcalc.tournament.api` and a view.

This module is imported by ``prefcalc/cli.py`` on every command, so it imports only typer
at the top; the library, the views and the exports are imported inside the commands.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup


class _Group(TyperGroup):
    """The tournament's commands, their help shown in the language in use (the catalog has
    it: babel.cfg extracts this file's help like the main command line's). A command's help
    is looked up by its docstring as written (kept on the command, ``prefcalc_english``): the
    group's help page joins its paragraphs' lines before it asks for the commands."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            command.prefcalc_english = command.help  # type: ignore[attr-defined]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None and command not in self._said:
            from prefcalc.i18n import _, language

            if language() != "en":
                english = getattr(command, "prefcalc_english", None) or command.help
                if english:
                    command.help = _reflowed(_(english))
                for param in command.params:
                    if getattr(param, "help", None):
                        setattr(param, "help", _(getattr(param, "help")))  # noqa: B009, B010
            self._said.append(command)
        return command

    @property
    def _said(self) -> list[Any]:
        """The commands whose help is already in the language in use."""
        found: list[Any] | None = getattr(self, "_prefcalc_said", None)
        if found is None:
            found = []
            self._prefcalc_said = found
        return found


def _reflowed(text: str) -> str:
    """Each paragraph of a help text on one line, for the terminal to wrap."""
    return "\n\n".join(" ".join(part.split()) for part in text.split("\n\n"))


app = typer.Typer(
    cls=_Group,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Tournaments: players, rounds, the draw, standings and protocols in a folder.",
)

FolderArg = Annotated[
    Path, typer.Argument(metavar="DIR", help="The tournament's folder.", show_default=False)
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
RoundOpt = Annotated[
    int | None, typer.Option("--round", "-r", help="The round.", show_default=False)
]
TableOpt = Annotated[
    int | None, typer.Option("--table", "-t", help="The table.", show_default=False)
]


class Scoring(StrEnum):
    raw = "raw"
    cutoffs = "cutoffs"
    bands = "bands"
    places = "places"


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


class Seeding(StrEnum):
    random = "random"
    rating = "rating"


class AbsentRule(StrEnum):
    zero = "zero"
    average = "average"


ForbidOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--forbid",
        metavar="A,B",
        help="Never seat these two players at one table (same club, a family; repeatable).",
        show_default=False,
    ),
]


def _pairs(words: list[str] | None, option: str) -> list[tuple[str, str]]:
    """``A,B`` words as pairs of names (one line when a word is not two names)."""
    from prefcalc.errors import DealError
    from prefcalc.i18n import _

    out = []
    for word in words or []:
        parts = [p.strip() for p in word.split(",")]
        if len(parts) != 2 or not all(parts):
            raise DealError(
                _("{option} takes two players: A,B, not '{word}'").format(option=option, word=word)
            )
        out.append((parts[0], parts[1]))
    return out


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _warn(warnings: list[str]) -> None:
    from prefcalc.errors import one_line
    from prefcalc.i18n import _

    for warning in warnings:
        sys.stderr.write(_("prefcalc: warning: {warning}").format(warning=one_line(warning)) + "\n")


def _given(value: int | None, option: str) -> int:
    from prefcalc.errors import DealError
    from prefcalc.i18n import _

    if value is None:
        raise DealError(_("give {option} N").format(option=option))
    return value


@app.command()
def new(
    folder: FolderArg,
    names: Annotated[
        list[str] | None,
        typer.Argument(metavar="[NAME]...", help="More players' names.", show_default=False),
    ] = None,
    players: Annotated[
        list[str] | None,
        typer.Option(
            "--players",
            help="The players: --players Anna Boris Vera ... (or NAME,NAME; repeatable).",
            show_default=False,
        ),
    ] = None,
    players_file: Annotated[
        Path | None,
        typer.Option(
            "--players-file",
            help="A file of players, one a line: NAME, or NAME, CLUB, RATING.",
            show_default=False,
        ),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="How many rounds.", show_default=False)
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option("--deals", help="A round is N deals at every table.", show_default=False),
    ] = None,
    minutes: Annotated[
        int | None,
        typer.Option(
            "--minutes",
            help="A round is played by time; the judge closes each table (tournament close).",
            show_default=False,
        ),
    ] = None,
    convention: Annotated[
        str | None,
        typer.Option(
            "--convention",
            "-c",
            help="sochi, leningrad, rostov, classic, fspr or a .toml file.",
            show_default=False,
        ),
    ] = None,
    overrides: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Change an option, e.g. --set passes.prices=1,2,4 (repeatable).",
            show_default=False,
        ),
    ] = None,
    target: Annotated[
        int | None,
        typer.Option(
            "--target",
            help="The pool target of every table (default: the rules').",
            show_default=False,
        ),
    ] = None,
    scoring: Annotated[
        Scoring,
        typer.Option("--scoring", help="How a table's result counts: raw, cutoffs, bands, places."),
    ] = Scoring.raw,
    per_deal: Annotated[
        bool,
        typer.Option("--per-deal", help="Divide each table result by the deals the player played."),
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", help="Decides every draw (default: a random one, stored).", show_default=False
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", help="The event's name (default: the folder's).", show_default=False
        ),
    ] = None,
    seeding: Annotated[
        Seeding,
        typer.Option(
            "--seeding",
            help="Round 1: random (from the seed) or rating (the ratings dealt to the tables).",
        ),
    ] = Seeding.random,
    forbid: ForbidOpt = None,
    late: Annotated[
        AbsentRule,
        typer.Option("--late", help="A late entry's missed rounds count zero or the average."),
    ] = AbsentRule.zero,
    bye: Annotated[
        AbsentRule,
        typer.Option("--bye", help="A bye (5 players present) counts zero or the average."),
    ] = AbsentRule.zero,
) -> None:
    """Start a tournament in DIR (a folder: made if need be).

    prefcalc tournament new cup --players Anna Boris Vera Dima Egor Fedya Gleb --rounds 3
    --deals 24 --convention leningrad
    """
    from prefcalc.errors import DealError
    from prefcalc.i18n import _
    from prefcalc.tournament import api
    from prefcalc.tournament.text import new_text

    entries: list[Any] = []
    for word in [*(players or []), *(names or [])]:
        entries += [part for part in word.split(",") if part.strip()]
    if players_file is not None:
        entries += _players_file(players_file)
    if not entries:
        raise DealError(_("give the players: --players NAME NAME ... or --players-file FILE"))
    if convention is None:
        raise DealError(
            _(
                "give the rules: --convention NAME (sochi, leningrad, rostov, classic, fspr or a .toml file)"
            )
        )
    t = api.new(
        folder,
        entries,
        rounds=_given(rounds, "--rounds"),
        deals=deals,
        minutes=minutes,
        convention=convention,
        options=overrides or [],
        target=target,
        scoring=scoring.value,
        per_deal=per_deal,
        seed=seed,
        name=name,
        seeding=seeding.value,
        forbid=_pairs(forbid, "--forbid"),
        late=late.value,
        bye=bye.value,
    )
    _out(new_text(t, folder))


def _players_file(path: Path) -> list[Any]:
    """The players of a file, one a line: ``NAME`` or ``NAME, CLUB`` or ``NAME, CLUB,
    RATING``; blank lines and lines starting with ``#`` are skipped."""
    from prefcalc.errors import DealError, LedgerError, PrefcalcError
    from prefcalc.i18n import N_, _
    from prefcalc.store import files
    from prefcalc.tournament import api

    what = N_("the players file")
    try:
        raw = files.read_regular(path, what, files.MAX_SMALL, LedgerError)
    except OSError as exc:
        raise LedgerError(
            _("cannot read the players file: {reason}").format(reason=exc.strerror or exc),
            str(path),
        ) from None
    out: list[Any] = []
    for number, line in enumerate(files.decode_text(raw, what, path, LedgerError).splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        parts = [p.strip() for p in text.split(",")]
        rating: int | None = None
        if len(parts) > 3:
            raise DealError(_("NAME, CLUB, RATING at most"), f"{path}:{number}")
        if len(parts) == 2 and parts[1].isdigit():  # NAME, RATING: a number is no club
            parts = [parts[0], "", parts[1]]
        if len(parts) == 3 and parts[2]:
            if not parts[2].isdigit():
                raise DealError(
                    _("the rating must be a whole number, not '{text}'").format(text=parts[2]),
                    f"{path}:{number}",
                )
            rating = int(parts[2])
        try:
            out.append(
                api.player(parts[0], parts[1] if len(parts) > 1 and parts[1] else None, rating)
            )
        except PrefcalcError as exc:
            raise DealError(exc.message, f"{path}:{number}") from None
    return out


@app.command()
def draw(
    folder: FolderArg,
    as_json: JsonOpt = False,
    show: Annotated[
        bool,
        typer.Option(
            "--show", help="Show the proposal (who meets again, the distance); write nothing."
        ),
    ] = False,
    swap: Annotated[
        str | None,
        typer.Option(
            "--swap",
            metavar="A,B",
            help="Exchange two players of two tables in the proposal.",
            show_default=False,
        ),
    ] = None,
    forbid: ForbidOpt = None,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit", metavar="SECONDS", help="The solver's time for a large field."
        ),
    ] = 10.0,
) -> None:
    """Seat the next round (round 1 from the seed, then Swiss) and write its tables' ledgers."""
    from prefcalc.tournament import api
    from prefcalc.tournament.text import draw_json, draw_text

    pairs = _pairs([swap] if swap is not None else None, "--swap")
    drawn = api.draw(
        folder,
        time_limit=time_limit,
        show=show,
        swap=pairs[0] if pairs else None,
        forbid=_pairs(forbid, "--forbid"),
    )
    if as_json:
        _out(json.dumps(draw_json(drawn, folder), ensure_ascii=False, indent=2))
        return
    _out(draw_text(drawn, folder))


@app.command()
def undraw(folder: FolderArg) -> None:
    """Take back the last round drawn, while no deal is recorded at its tables."""
    from prefcalc.i18n import _
    from prefcalc.tournament import api

    taken = api.undraw(folder)
    _out(
        _("round {round} is taken back: its {n} tables' ledgers are removed").format(
            round=taken.round, n=len(taken.tables)
        )
    )


@app.command()
def withdraw(
    folder: FolderArg,
    name: Annotated[str, typer.Argument(metavar="NAME", help="The player.", show_default=False)],
) -> None:
    """A player withdraws from the next round on (his played rounds stay)."""
    from prefcalc.tournament import api
    from prefcalc.tournament.text import withdraw_text

    _out(withdraw_text(api.withdraw(folder, name)))


@app.command()
def add(
    folder: FolderArg,
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="The late player.", show_default=False)
    ],
    club: Annotated[
        str | None, typer.Option("--club", help="His club.", show_default=False)
    ] = None,
    rating: Annotated[
        int | None, typer.Option("--rating", help="His rating.", show_default=False)
    ] = None,
) -> None:
    """A late entry: the player plays from the next round on."""
    from prefcalc.tournament import api
    from prefcalc.tournament.text import add_text

    t = api.load(folder)
    _out(add_text(api.add(folder, name, club, rating), t.late))


@app.command()
def rename(
    folder: FolderArg,
    old: Annotated[str, typer.Argument(metavar="OLD", help="His name now.", show_default=False)],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The name to use.", show_default=False)],
) -> None:
    """Rename a player in tournament.json and every table's ledger, as one change."""
    from prefcalc.i18n import ngettext
    from prefcalc.tournament import api

    was, now, written = api.rename(folder, old, new)
    _out(
        ngettext(
            "{old} is {new} now: tournament.json and {n} table's ledger rewritten",
            "{old} is {new} now: tournament.json and {n} tables' ledgers rewritten",
            len(written),
        ).format(old=was, new=now, n=len(written))
    )


@app.command()
def correct(
    folder: FolderArg,
    line: Annotated[
        str,
        typer.Argument(
            metavar="LINE",
            help='The change, as play writes it: "edit 5 ...", "delete 5", "penalty Anna peek", "undo".',
            show_default=False,
        ),
    ],
    round_: RoundOpt = None,
    table: TableOpt = None,
    reason: Annotated[
        str | None,
        typer.Option("--reason", help="Why (kept in the tournament's log).", show_default=False),
    ] = None,
    by: Annotated[
        str | None,
        typer.Option("--by", help="Who corrects (default: the system's user).", show_default=False),
    ] = None,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit",
            metavar="SECONDS",
            help="The solver's time to tell whether a later draw would have differed.",
        ),
    ] = 10.0,
) -> None:
    """Correct a table of a round after the next round was drawn, on the record.

    The line is carried out on the table's ledger and recorded with its time, the reason and
    who made it; the command says whether the standings that drew the later rounds changed.
    """
    from prefcalc.errors import DealError
    from prefcalc.i18n import _
    from prefcalc.tournament import api
    from prefcalc.tournament.text import correct_text

    r = _given(round_, "--round")
    t = _given(table, "--table")
    if reason is None:
        raise DealError(_('give the reason of the correction: --reason "…"'))
    done = api.correct(folder, r, t, line, reason, by, time_limit=time_limit)
    _out(correct_text(done))


@app.command()
def standings(folder: FolderArg, as_json: JsonOpt = False, round_: RoundOpt = None) -> None:
    """The standings after the last round drawn, or after --round R.

    Place, points per round and in total, raw whists and the tie-breaks; a table still
    playing is marked and counts provisionally.
    """
    from prefcalc.tournament import api
    from prefcalc.tournament.text import standings_json, standings_text

    result = api.standings(folder, round_)
    if as_json:
        _out(json.dumps(standings_json(result), ensure_ascii=False, indent=2))
    else:
        _out(standings_text(result))


@app.command()
def close(
    folder: FolderArg,
    round_: RoundOpt = None,
    table: TableOpt = None,
    reopen: Annotated[
        bool, typer.Option("--reopen", help="Take a close back (before the next draw).")
    ] = False,
) -> None:
    """A round played by time: the judge ends a table once its last deal is played."""
    from prefcalc.tournament import api
    from prefcalc.tournament.text import close_text

    r = _given(round_, "--round")
    t = _given(table, "--table")
    result = api.close(folder, r, t, reopen=reopen)
    _out(close_text(r, t, result.deals, reopen))


@app.command()
def protocol(
    folder: FolderArg,
    round_: RoundOpt = None,
    table: TableOpt = None,
    pdf: Annotated[
        Path | None, typer.Option("--pdf", help="Write it as a PDF too.", show_default=False)
    ] = None,
    paper: Annotated[
        Paper, typer.Option("--paper", help="PDF paper size.", case_sensitive=False)
    ] = Paper.a4,
) -> None:
    """A table's protocol: the deals, the totals, the places, room for the signatures."""
    from prefcalc.i18n import N_, _
    from prefcalc.tournament import api
    from prefcalc.tournament.protocol import protocol as build
    from prefcalc.tournament.text import path_text, protocol_text

    r = _given(round_, "--round")
    number = _given(table, "--table")
    if pdf is not None:
        _check_output(folder, pdf, N_("the PDF"))
    t = api.load(folder)
    made = build(t, api.table(folder, r, number))
    _out(protocol_text(made))
    if pdf is not None:
        from prefcalc.tournament.pdf import write_protocols

        _warn(write_protocols(t, [made], pdf, paper.value))
        _out(_("wrote {file}").format(file=path_text(pdf)))


@app.command()
def export(
    folder: FolderArg,
    pdf: Annotated[
        Path | None,
        typer.Option(
            "--pdf",
            help="The standings, rounds, penalties and protocols as a PDF.",
            show_default=False,
        ),
    ] = None,
    xlsx: Annotated[
        Path | None,
        typer.Option("--xlsx", help="The same as a workbook.", show_default=False),
    ] = None,
    paper: Annotated[
        Paper, typer.Option("--paper", help="PDF paper size.", case_sensitive=False)
    ] = Paper.a4,
) -> None:
    """The whole tournament as a PDF or a workbook.

    The standings, the round matrix (who met whom, each table's result), the penalty log
    and every table's protocol.
    """
    from prefcalc.errors import DealError
    from prefcalc.i18n import N_, _
    from prefcalc.store.files import check_outputs
    from prefcalc.tournament import api
    from prefcalc.tournament.text import path_text

    if pdf is None and xlsx is None:
        raise DealError(_("give --pdf FILE or --xlsx FILE (or both)"))
    targets = [
        (p, w) for p, w in ((pdf, N_("the PDF")), (xlsx, N_("the workbook"))) if p is not None
    ]
    for target, what in targets:
        _check_output(folder, target, what)
    check_outputs(targets)
    result = api.standings(folder)
    if pdf is not None:
        from prefcalc.tournament.pdf import write_event

        _warn(write_event(result, pdf, paper.value))
    if xlsx is not None:
        from prefcalc.tournament.xlsx import write_event_xlsx

        write_event_xlsx(result, xlsx)
    for target, _what in targets:
        _out(_("wrote {file}").format(file=path_text(target)))


def _check_output(folder: Path, target: Path, what: str) -> None:
    """Refuse an export that would land on the tournament's file (or a ledger: see
    :func:`prefcalc.store.files.check_output`)."""
    import os

    from prefcalc.errors import PrefcalcError
    from prefcalc.i18n import _
    from prefcalc.store.files import check_output, real_path
    from prefcalc.tournament.folder import path_of

    check_output(target, None, what)
    own = path_of(folder)
    same = real_path(target) == real_path(own)
    if not same and os.path.exists(target) and os.path.exists(own):
        same = os.path.samefile(target, own)
    if same:
        raise PrefcalcError(
            _("cannot write {what} over the tournament's file").format(what=_(what)), str(target)
        )
