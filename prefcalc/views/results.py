"""What the commands print: what a command that changed the game wrote, with the sheet (the
CLI's :func:`cli_result_text`, a play session's :func:`play_result_text`), a play session's
``help``, how a player's name is declined, and the saved games (``prefcalc games``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from prefcalc.cases import genders
from prefcalc.i18n import N_, _, language, ngettext
from prefcalc.rules.model import UNDEALT, Game, deal_count
from prefcalc.views.log import deal_text, explain_text, log_text
from prefcalc.views.numbers import day
from prefcalc.views.settlement import settlement_text
from prefcalc.views.sheet_text import compact_text, sheet_text
from prefcalc.views.text_kit import local_time, table

if TYPE_CHECKING:
    from prefcalc.commands import Result

PLAY_HELP = N_(
    """\
A line is a deal or a command (names may be shortened to a unique prefix):
  game Anna 7h 7 Boris:w Vera:p     a contract (or bare: a 7h 7 b:w v:p)
  misere Anna 0 | m a 0             a misère and the declarer's tricks
  passes 2 5 3 | p a=2 b=5 v=3      an all-pass deal (bare: from the hand after the dealer)
  adjust Anna --mountain 5 --note "why"
  penalty Anna peek                 a penalty of the Code (peek, dealing, illegal 8h,
                                    cards 8h 2, miscount 8h, entry 8 Boris); --looked NAME
                                    on a deal: he loses a trick for looking at an old one
  join Dima --after Vera            a late arrival takes his seat (up to five players)
  player Anna --gender f            the gender a name is declined by (f, m; auto: guessed)
  undo, redo                        remove the last deal / put it back
  insert N <deal>                   a forgotten deal as deal N (later dealers re-derived)
  edit N <deal>, delete N           replace / remove deal N
  set target=30, set whist_price=0.5   a change of terms, recorded like a deal
  show, log, explain N, settle [average] [whole]
  help, quit
A deal takes --dealer NAME and --force. Russian works too: маша 7ч 7 п:в в:п (a game),
  м маша 0 | мизер маша 0, р 2 5 3 | рас 2 5 3 | распасы 2 5 3 (м, р: misère, passes)
Suits s c d h nt (п т б ч бк); roles w wN p h (в вN п пв)."""
)
"""What ``help`` prints in a play session."""


def _removed(result: Result) -> str:
    assert result.removed is not None
    return deal_text(result.removed)


_NOT_A_DEAL = {
    "deleted deal {number}: {deal}": N_("deleted No. {number}: {deal}"),
    "removed deal {number}: {deal}": N_("removed No. {number}: {deal}"),
    "removed deal {number}: {deal} (redo puts it back)": N_(
        "removed No. {number}: {deal} (redo puts it back)"
    ),
    "replaced deal {number}: {deal}": N_("replaced No. {number}: {deal}"),
}


def _removal(template: str, result: Result) -> str:
    """What a removal or a replacement says: ``removed deal 3: …``, or ``removed No. 14: …``
    for a line of the record that is no deal (a change of terms, a late arrival, a penalty,
    an adjustment)."""
    assert result.removed is not None
    if isinstance(result.removed.deal, UNDEALT):
        template = _NOT_A_DEAL[template]
    return _(template).format(number=result.number or 0, deal=_removed(result))


def player_text(game: Game, name: str) -> str:
    """How ``name`` is declined in ``game``, in one line (``Мишель: женский род (висты на
    Мишель)``): the gender set for it, or the guess by the name."""
    given = dict(game.genders).get(name)
    if given == "f":
        text = _("{name}: declined as feminine")
    elif given == "m":
        text = _("{name}: declined as masculine")
    else:
        text = _("{name}: declined by the name's own gender (none set)")
    with genders(game.genders):
        return text.format(name=name)


def cli_result_text(result: Result) -> str:
    """What the CLI prints after a command that changed the game: what it wrote and the
    full sheet (the names declined by the game's genders)."""
    with genders(result.game.genders):
        return _cli_result_text(result)


def _cli_result_text(result: Result) -> str:
    sheet, game, number = result.sheet, result.game, result.number or 0
    if result.kind == "player":
        assert result.player is not None
        return player_text(game, result.player)
    lines: list[str] = []
    if result.kind == "deleted":
        lines.append(_removal(N_("deleted deal {number}: {deal}"), result))
    elif result.kind == "undone":
        lines.append(_removal(N_("removed deal {number}: {deal}"), result))
    else:
        if result.kind == "edited":
            lines.append(_removal(N_("replaced deal {number}: {deal}"), result))
        lines += [_("recorded as {deal}").format(deal=explain_text(sheet, number)), ""]
    lines.append(sheet_text(sheet, game))
    lines += result.notes
    return "\n".join(lines)


def play_result_text(result: Result) -> str:
    """What a play session prints after a line: what it wrote and the compact sheet, or
    what a viewing command shows (the names declined by the game's genders)."""
    with genders(result.game.genders):
        return _play_result_text(result)


def _play_result_text(result: Result) -> str:
    sheet, game, number = result.sheet, result.game, result.number or 0
    kind = result.kind
    if kind == "player":
        assert result.player is not None
        return player_text(game, result.player)
    if kind == "show":
        return sheet_text(sheet, game)
    if kind == "log":
        return log_text(sheet)
    if kind == "explain":
        return explain_text(sheet, number)
    if kind == "help":
        return _(PLAY_HELP)
    if kind == "settle":
        assert result.settlement is not None
        text = settlement_text(result.settlement)
        if sheet.finished:
            return text
        count = deal_count(game)
        head = ngettext(
            "(provisional: the game is not finished, {count} deals)",
            "(provisional: the game is not finished, {count} deals)",
            count,
        )
        return head.format(count=count) + "\n" + text
    lines: list[str] = []
    if kind in ("deleted", "undone"):
        if kind == "deleted":
            text = N_("deleted deal {number}: {deal}")
        else:
            text = N_("removed deal {number}: {deal} (redo puts it back)")
        lines.append(_removal(text, result))
    else:
        if kind == "edited":
            lines.append(_removal(N_("replaced deal {number}: {deal}"), result))
        verbs = {
            "edited": _("now: {deal}"),
            "inserted": _("inserted: {deal}"),
            "redone": _("put back: {deal}"),
        }
        lines.append(
            verbs.get(kind, _("recorded: {deal}")).format(deal=explain_text(sheet, number))
        )
    lines.append(compact_text(sheet, game))
    if kind == "inserted":
        lines.append(_("next dealer {name}").format(name=sheet.next_dealer))
    lines += result.notes
    return "\n".join(lines)


def games_text(games: Sequence[Any]) -> str:
    """``prefcalc games``: number, players, date, deals, finished or not, the current one."""
    if not games:
        return _("no saved games yet (start one with 'prefcalc new')")
    rows = [["", "#", _("players"), _("started"), _("deals"), _("state"), _("file")]]
    for g in games:
        state = g.problem if g.problem else (_("finished") if g.finished else _("game on"))
        rows.append(
            [
                "*" if g.current else "",
                str(g.number),
                ", ".join(g.players),
                started_text(g.created) if g.created else "",
                str(g.deals),
                state,
                g.path.name,
            ]
        )
    lines = table(rows, right=[False, True, False, False, True, False, False])
    footer = _("* the current game; prefcalc use NUMBER|NAME|FILE resumes one")
    return "\n".join([*lines, footer])


def started_text(stamp: str) -> str:
    """When a game started, in local time: ``2026-11-30 20:00``; in Russian
    ``30 ноября 2026 20:00``."""
    if language() == "en":
        return local_time(stamp)
    moment = local_time(stamp, "%Y-%m-%dT%H:%M")
    return f"{day(moment)} {moment[11:]}" if moment != stamp else stamp
