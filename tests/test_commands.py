"""The command layer (prefcalc.commands): the grammar of a play line, the deal flags as one
value, the executor on a temporary ledger, and the CLI and play giving the same result."""

from __future__ import annotations

from pathlib import Path

import pytest

from prefcalc import api
from prefcalc.commands import (
    COMMANDS,
    DealFlags,
    Delete,
    Edit,
    Explain,
    Help,
    Insert,
    Join,
    Log,
    Quit,
    Record,
    Redo,
    SetTerm,
    Settle,
    Show,
    Undo,
    deal_command,
    execute,
    parse_line,
)
from prefcalc.errors import NotationError, PrefcalcError
from prefcalc.i18n import did_you_mean
from prefcalc.rules.model import AllPass, Contract, Misere, seating
from prefcalc.rules.scoring import Sheet
from prefcalc.views.results import cli_result_text, play_result_text
from tests.support import invoke, make_game

GAME = make_game(["Anna", "Boris", "Vera"], [])
RU = make_game(["Маша", "Петя", "Вова"], [])


FLAGGED = ["--set", "dark_games=true", "--set", "bombs.blind=true", "--set", "bombs.order=declared"]
"""Options under which a deal may carry flags (a dark game, a blind pass)."""


def _new(tmp_path: Path, *options: str) -> Path:
    path = tmp_path / "g.json"
    result = invoke(["new", "Anna", "Boris", "Vera", *options, "--file", str(path)], tmp_path)
    assert result.returncode == 0, result.stderr
    return path


# --- the grammar ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("game Anna 7h 7 Boris:w Vera:p", Record("game", ("Anna", "7h", "7", "Boris:w", "Vera:p"))),
        ("a 7h 7 b:w v:p", Record("game", ("a", "7h", "7", "b:w", "v:p"))),
        ("m a 0", Record("misere", ("a", "0"))),
        ("misere Anna 0 --dealer Boris --force", Record("misere", ("Anna", "0"), dealer="Boris", force=True)),
        ("p 2 5 3", Record("passes", ("2", "5", "3"))),
        ("passes a=2 b=5 v=3 --dealer=Vera", Record("passes", ("a=2", "b=5", "v=3"), dealer="Vera")),
        ("adjust Anna --mountain 5 --note why", Record("adjust", ("Anna", "--mountain", "5", "--note", "why"))),
        ("join Dima --after v", Join("Dima", "Vera")),
        ("join Dima", Join("Dima")),
        ("set target=30", SetTerm("target=30")),
        ("set whist_price=0.5", SetTerm("whist_price=0.5")),
        ("undo", Undo()),
        ("redo", Redo()),
        ("show", Show()),
        ("LOG", Log()),
        ("settle", Settle()),
        ("settle average whole", Settle("average", "whole")),
        ("explain 3", Explain(3)),
        ("delete 2", Delete(2)),
        ("delete 2 --force", Delete(2, force=True)),
        ("insert 1 m a 0", Insert(1, Record("misere", ("a", "0")))),
        ("insert 1 p 2 5 3 --force", Insert(1, Record("passes", ("2", "5", "3"), force=True), force=True)),
        ("edit 2 a 6s 6 b:w v:p --dealer b", Edit(2, Record("game", ("a", "6s", "6", "b:w", "v:p"), dealer="b"))),
        ("edit 2", Edit(2, None)),
        ("help", Help()),
        ("?", Help()),
        ("quit", Quit()),
        ("выход", Quit()),
        ("q", Quit()),
    ],
)  # fmt: skip
def test_parse_line(line: str, command: object) -> None:
    assert parse_line(line, GAME) == command


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("маша 7ч 7 п:в в:п", Record("game", ("маша", "7ч", "7", "п:в", "в:п"))),
        ("м маша 0", Record("misere", ("маша", "0"))),
        ("мизер маша 0", Record("misere", ("маша", "0"))),
        ("р 2 5 3", Record("passes", ("2", "5", "3"))),
        ("рас 2 5 3", Record("passes", ("2", "5", "3"))),
        ("распасы 2 5 3", Record("passes", ("2", "5", "3"))),
        ("игра маша 7ч 7 п:в в:п", Record("game", ("маша", "7ч", "7", "п:в", "в:п"))),
        ("помощь", Help()),
    ],
)  # fmt: skip
def test_parse_line_in_russian(line: str, command: object) -> None:
    assert parse_line(line, RU) == command


@pytest.mark.parametrize("line", ["", "   ", "# a comment", "  # deal 3 was a misère"])
def test_a_blank_line_or_a_comment_is_no_command(line: str) -> None:
    assert parse_line(line, GAME) is None


def test_flags_are_taken_out_of_the_words() -> None:
    command = parse_line("a 7h 7 b:w v:p --dark --bomb 4 --talon=2 --returned-by v", GAME)
    assert command == Record(
        "game",
        ("a", "7h", "7", "b:w", "v:p"),
        DealFlags(dark=True, bomb=4, talon=2, returned_by="v"),
    )
    assert parse_line("m a 0 --no-talon", GAME) == Record(
        "misere", ("a", "0"), DealFlags(no_talon=True)
    )
    assert parse_line("p 2 5 3 --blind a,b", GAME) == Record(
        "passes", ("2", "5", "3"), DealFlags(blind=("a", "b"))
    )


def test_the_flags_are_typed_and_named_as_the_notation_spells_them() -> None:
    # the flags are typed values, checked once when they are made; only the grammar knows
    # how each one is spelled
    assert DealFlags().given() == ()
    assert DealFlags(dark=True, bomb=4, talon=0).given() == ("--dark", "--bomb", "--talon")
    assert DealFlags(blind=("a", "b"), returned_by="v").given() == ("--returned-by", "--blind")
    with pytest.raises(
        NotationError, match=r"--bomb takes a bomb's factor \(2, 4, 8...\), not '3'"
    ):
        DealFlags(bomb=3)
    with pytest.raises(NotationError, match="--talon is 0, 1, 2 or 3 tricks, not '5'"):
        DealFlags(talon=5)


def test_typed_flags_and_flags_in_the_words_are_one_value() -> None:
    command = deal_command(["game", "a", "7h", "7", "b:w", "v:p", "--no-talon"], DealFlags(bomb=8))
    assert command.flags == DealFlags(no_talon=True, bomb=8)
    with pytest.raises(NotationError, match="--dark is given twice"):
        deal_command(["game", "a", "7h", "7", "--dark"], DealFlags(dark=True))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("sho", "'sho' is neither a command nor a player (did you mean show?)"),
        ("zzz 1", "'zzz' is neither a command nor a player (type help for the commands)"),
        ("a 7h 7 b:w v:p --dealr b", "no such option '--dealr' (did you mean --dealer?)"),
        ("a 7h 7 b:w v:p --dealer", "--dealer needs a name"),
        ("m a 0 --talon 2", "unknown option '--talon' for a misère"),
        ("p 2 5 3 --dark", "unknown option '--dark' for an all-pass deal"),
        ("a 7h 7 b:w v:p --dark --dark", "--dark is given twice"),
        ("a 7h 7 b:w v:p --bomb", "--bomb needs a value"),
        ("show now", "show takes nothing after it, not 'now'"),
        ("undo 2", "undo takes nothing after it, not '2'"),
        ("settle fast", "settle takes pairwise or average, exact or whole, not 'fast'"),
        ("explain", "write explain N"),
        ("explain x", "a deal number is a whole number, not 'x'"),
        ("delete 1 2", "write delete N"),
        ("edit", "edit N <deal>, e.g. edit 3"),
        ("insert", "insert N <deal>, e.g. insert 3"),
        ("join Dima Vera", "a join needs NAME [--after PLAYER]"),
        ("insert 2 m a 0 --dealer b", "insert finds the dealer itself (no --dealer)"),
        ("game 'Anna", "cannot read the line"),
    ],
)
def test_parse_line_refuses(line: str, message: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_line(line, GAME)
    assert message in str(refused.value)


def test_one_did_you_mean() -> None:
    assert did_you_mean("sho", COMMANDS) == " (did you mean show?)"
    assert did_you_mean("--forse", ("--dealer", "--force")) == " (did you mean --force?)"
    assert did_you_mean("xyz", COMMANDS) == ""


def test_completion_takes_the_commands_from_the_command_layer() -> None:
    from prefcalc import completion

    assert completion.COMMANDS is COMMANDS


# --- the executor ------------------------------------------------------------------------------


def test_execute_each_command(tmp_path: Path) -> None:
    path = _new(tmp_path)
    one = execute(Record("game", ("Anna", "7h", "7", "Boris:w", "Vera:p")), path)
    assert (one.kind, one.number, one.notes, one.removed) == ("recorded", 1, (), None)
    assert one.sheet.pool["Anna"] == 4  # 7♥ made: 4 into the pool (Sochi)
    assert one.sheet.whists["Boris"]["Anna"] == 12  # one whister took 3: 3 x 4

    two = execute(Record("game", ("Anna", "7h", "7", "Boris:w", "Vera:p")), path)
    assert two.number == 2
    assert two.notes == ("same as deal 1 — undo if it was typed twice",)

    undone = execute(Undo(), path)
    assert (undone.kind, undone.number, len(undone.game.entries)) == ("undone", 2, 1)
    assert isinstance(undone.removed.deal if undone.removed else None, Contract)
    redone = execute(Redo(), path)
    assert (redone.kind, redone.number, len(redone.game.entries)) == ("redone", 2, 2)

    deleted = execute(Delete(2), path)
    assert (deleted.kind, deleted.number, len(deleted.game.entries)) == ("deleted", 2, 1)
    assert deleted.removed is not None and isinstance(deleted.removed.deal, Contract)

    inserted = execute(Insert(1, Record("misere", ("Vera", "0"))), path)
    assert (inserted.kind, inserted.number) == ("inserted", 1)
    assert isinstance(inserted.game.entries[0].deal, Misere)
    assert inserted.game.entries[0].dealer == "Anna"  # re-derived: the first dealer
    assert inserted.game.entries[1].dealer == "Boris"

    edited = execute(Edit(1, Record("misere", ("Vera", "1"))), path)
    assert (edited.kind, edited.number) == ("edited", 1)
    assert edited.removed is not None and edited.removed.deal == Misere("Vera", 0)
    assert edited.game.entries[0].deal == Misere("Vera", 1)

    term = execute(SetTerm("target=30"), path)
    assert (term.kind, term.number, term.game.target) == ("recorded", 3, 20)
    joined = execute(Join("Dima", after="Vera"), path)
    assert joined.number == 4 and seating(joined.game)[-1] == "Dima"

    assert execute(Show(), path).kind == "show"
    assert execute(Log(), path).kind == "log"
    settled = execute(Settle("average", "whole"), path)
    assert settled.kind == "settle" and settled.settlement is not None
    assert settled.settlement.method == "average"
    assert execute(Explain(2), path).number == 2
    assert execute(Help(), path).kind == "help"
    assert len(api.load(path).entries) == 4


def test_typed_flags_are_recorded(tmp_path: Path) -> None:
    path = _new(tmp_path, *FLAGGED)
    flags = DealFlags(dark=True, no_talon=True)
    result = execute(Record("game", ("Anna", "7s", "7", "Boris:w", "Vera:p"), flags), path)
    deal = result.game.entries[0].deal
    assert isinstance(deal, Contract) and deal.dark and deal.no_talon and deal.bomb is None


def test_a_refused_command_writes_nothing(tmp_path: Path) -> None:
    path = _new(tmp_path)
    before = path.read_bytes()
    for command in (
        Record("game", ("Anna", "7h", "12", "Boris:w", "Vera:p")),
        Delete(1),
        Edit(1, Record("misere", ("Anna", "0"))),
        Insert(5, Record("misere", ("Anna", "0"))),
        Undo(),
        Redo(),
        Explain(1),
        Record("game", ("Anna", "6s", "6", "Boris:p", "Vera:p"), DealFlags(returned_by="Zoya")),
    ):
        with pytest.raises(PrefcalcError):
            execute(command, path)
        assert path.read_bytes() == before
    with pytest.raises(NotationError, match="nothing to quit"):
        execute(Quit(), path)


# --- one result for every front end --------------------------------------------------------


@pytest.mark.parametrize(
    ("cli", "line"),
    [
        (["game", "Anna", "7h", "7", "Boris:w", "Vera:p"], "a 7h 7 b:w v:p"),
        (["misere", "Anna", "0", "--dark"], "м a 0 --dark"),
        (["passes", "Anna=2", "Boris=5", "Vera=3", "--blind", "Anna"], "p 5 3 2 --blind a"),  # from the hand after the dealer, Anna
        (["game", "Anna", "6s", "6", "Boris:w", "Vera:p", "--no-talon"], "a 6s 6 b:w v:p --no-talon"),
    ],
)  # fmt: skip
def test_the_cli_and_play_record_the_same(tmp_path: Path, cli: list[str], line: str) -> None:
    by_cli = tmp_path / "cli"
    by_play = tmp_path / "play"
    for folder in (by_cli, by_play):
        folder.mkdir()
        _new(folder, *FLAGGED)
    result = invoke([*cli, "--file", str(by_cli / "g.json")], by_cli)
    assert result.returncode == 0, result.stderr
    command = parse_line(line, api.load(by_play / "g.json"))
    assert command is not None
    played = execute(command, by_play / "g.json")
    recorded = api.load(by_cli / "g.json")
    assert [e.deal for e in recorded.entries] == [e.deal for e in played.game.entries]
    # the same sheet, whatever second each of the two records was written in
    assert _untimed(api.sheet(recorded)) == _untimed(played.sheet)
    assert cli_result_text(played) in result.stdout  # the CLI's view of the same result


def _untimed(sheet: Sheet) -> Sheet:
    """The sheet with every entry's time blanked (the only part two records of the same
    deals made a moment apart may differ in)."""
    return sheet._replace(
        scored=tuple(s._replace(entry=s.entry._replace(time="")) for s in sheet.scored)
    )


def test_the_views_of_a_result(tmp_path: Path) -> None:
    path = _new(tmp_path)
    result = execute(Record("misere", ("Anna", "0")), path)
    cli = cli_result_text(result)
    play = play_result_text(result)
    assert cli.startswith("recorded as deal 1, dealt by Anna: Anna misère, took 0")
    assert play.startswith("recorded: deal 1, dealt by Anna: Anna misère, took 0")
    undone = execute(Undo(), path)
    assert play_result_text(undone).startswith("removed deal 1: ")
    assert play_result_text(undone).splitlines()[0].endswith("(redo puts it back)")
    assert "(redo puts it back)" not in cli_result_text(undone)


# --- typed flags reach the notation as they are --------------------------------------------


def test_the_notation_reads_typed_flags() -> None:
    from prefcalc.rules.notation import parse_words

    players = ["Anna", "Boris", "Vera"]
    deal = parse_words(["game", "a", "7h", "7", "b:w", "v:p"], players, flags=DealFlags(bomb=4))
    assert isinstance(deal, Contract) and deal.bomb == 4 and not deal.dark
    deal = parse_words(["game", "a", "7h", "7", "b:w", "v:p"], players, flags=DealFlags(talon=0))
    assert isinstance(deal, Contract) and deal.talon == 0
    blind = parse_words(["passes", "a=2", "b=5", "v=3"], players, flags=DealFlags(blind=("v",)))
    assert isinstance(blind, AllPass) and blind.blind == ("Vera",)
    with pytest.raises(
        NotationError, match=r"--bomb takes a bomb's factor \(2, 4, 8...\), not '3'"
    ):
        parse_words(["misere", "a", "0", "--bomb", "3"], players)
    with pytest.raises(NotationError, match="--talon is 0, 1, 2 or 3 tricks, not 'x'"):
        parse_words(["game", "a", "7h", "7", "b:w", "v:p", "--talon=x"], players)
    with pytest.raises(NotationError, match="--dark is given twice"):
        parse_words(["misere", "a", "0", "--dark"], players, flags=DealFlags(dark=True))
    with pytest.raises(NotationError, match="--dark: not for adjust"):
        parse_words(
            ["adjust", "a", "--pool", "2", "--note", "x"], players, flags=DealFlags(dark=True)
        )


def test_the_cli_refuses_a_bad_typed_flag_in_one_line(tmp_path: Path) -> None:
    path = _new(tmp_path, *FLAGGED)
    before = path.read_bytes()
    result = invoke(["misere", "Anna", "0", "--bomb", "3", "--file", str(path)], tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "prefcalc: error: --bomb takes a bomb's factor (2, 4, 8...), not '3'\n"
    )
    assert path.read_bytes() == before
