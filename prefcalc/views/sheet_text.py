"""The sheet in a terminal: where the game stands (:func:`status_line`), the full sheet as the
paper has it (:func:`sheet_text`, ``prefcalc show``) and the compact one a play session shows
after every deal (:func:`compact_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from prefcalc import terms
from prefcalc.cases import genders
from prefcalc.i18n import _, pgettext
from prefcalc.rules.model import Game, deal_count
from prefcalc.rules.scoring import Sheet
from prefcalc.views.numbers import number as fmt
from prefcalc.views.text_kit import table


def status_line(sheet: Sheet, game: Game) -> str:
    """Convention and target, then where the game stands: finished, or who deals next."""
    conv = sheet.convention
    if conv.closing == "average":
        goal = _("no target: played by time, every pool against the average")
    else:
        goal = (
            _("target {target} each")
            if conv.closing == "each"
            else _("target {target} × {players} in total")
        ).format(target=sheet.target, players=len(sheet.players))
    head = f"{terms.convention_name(conv.name)} · {goal} · {terms.deals(deal_count(game))}"
    if sheet.finished:
        return head + " · " + _("FINISHED")
    streak = (
        _("all-pass streak {streak}").format(streak=sheet.streak)
        if sheet.streak
        else _("no all-pass streak")
    )
    out = ""
    if len(sheet.sitting_out) > 1:  # five at the table: the dealer and the next dealer
        out = " · " + _("{players} sit out").format(players=_and(sheet.sitting_out))
    nxt = _("next dealer {dealer}").format(dealer=sheet.next_dealer)
    price = _("next all-pass ×{price}").format(price=fmt(sheet.passes_price))
    lowest = _("lowest contract {level}").format(level=sheet.min_level)
    game_on = _("game on")
    return f"{head} · {game_on}\n{nxt}{out} · {streak}, {price} · {lowest}"


def _and(names: Sequence[str]) -> str:
    """``Anna and Boris`` / ``Anna и Boris``."""
    return (" " + _("and") + " ").join(names)


WIDTH = 80
"""The terminal width the sheet fits (4 and 5 players included)."""


def sheet_text(sheet: Sheet, game: Game, width: int = WIDTH) -> str:
    """The sheet as the paper has it: per player pool (and what is left), mountain, whists
    on each opponent (the columns under "whists on"). It fits ``width`` columns: when the
    full form is wider, the pool is written ``4/20`` and the names heading the whist columns
    are cut to a unique prefix. The names are declined by the game's genders."""
    with genders(game.genders):
        return _sheet_text(sheet, game, width)


def _sheet_text(sheet: Sheet, game: Game, width: int) -> str:
    lines = [part for line in status_line(sheet, game).split("\n") for part in _wrap(line, width)]
    for short in (False, True):
        table_lines = _sheet_table(sheet, short)
        if short or max(len(line) for line in table_lines) <= width:
            break
    lines += table_lines
    if sheet.convention.closing == "total":
        lines.append(points_left_line(sheet))
    if sheet.opening is not None:
        circle, circles, factor = sheet.opening
        lines.append(
            _(
                "opening circle {circle} of {circles}: all-pass deals at ×{factor} per trick, "
                "every player earns a bomb ×{factor}"
            ).format(circle=circle, circles=circles, factor=factor)
        )
    if sheet.bombs:
        lines.append(
            _("bombs (oldest first): {bombs}").format(
                bombs="; ".join(f"{p} {bombs_text(sheet.bombs.get(p, ()))}" for p in sheet.players)
            )
        )
    lines.extend(_("warning: {problem}").format(problem=problem) for problem in sheet.problems)
    lines.extend(_("cannot price: {problem}").format(problem=problem) for problem in sheet.unpriced)
    return "\n".join(lines)


def _wrap(line: str, width: int) -> list[str]:
    """A status line cut at its " · " separators to fit ``width``."""
    out: list[str] = []
    while len(line) > width and " · " in line:
        cut = line.rfind(" · ", 0, width)
        if cut <= 0:
            cut = line.find(" · ")
        out.append(line[:cut])
        line = line[cut + 3 :]
    return [*out, line]


def points_left_line(sheet: Sheet) -> str:
    """Under ``closing = total``: the points all pools still need before the game ends."""
    goal = sheet.target * len(sheet.players)
    left = max(0, goal - sum(sheet.pool.values()))
    return _(
        "{left} points left to the end of the game (pools {pools} of {target} × {players} = {goal})"
    ).format(
        left=fmt(left),
        pools=fmt(sum(sheet.pool.values())),
        target=sheet.target,
        players=len(sheet.players),
        goal=fmt(goal),
    )


def _short_names(players: Sequence[str], least: int = 3, most: int = 8) -> list[str]:
    """Each name cut to the shortest prefix (at least ``least`` characters, at most
    ``most``) that no other name starts with."""
    out = []
    for p in players:
        n = min(len(p), least)
        while n < min(len(p), most) and any(
            q != p and q.casefold().startswith(p[:n].casefold()) for q in players
        ):
            n += 1
        out.append(p[:n])
    return out


def _sheet_table(sheet: Sheet, short: bool) -> list[str]:
    players = sheet.players
    each = sheet.convention.closing == "each"
    heads = _short_names(players) if short else list(players)
    rows = [["", terms.column("pool"), terms.column("mountain"), *heads]]
    for p in players:
        left = sheet.left_to_close(p)
        if not each:
            pool = fmt(sheet.pool[p])
        elif short:
            pool = f"{fmt(sheet.pool[p])}/{sheet.target}" + ("" if left else " ✓")
        else:
            pool = fmt(sheet.pool[p]) + (
                " (" + _("{left} to go").format(left=fmt(left)) + ")" if left else " ✓"
            )
        name = p if not short or len(p) <= 12 else p[:11] + "…"
        cells = [name, pool, fmt(sheet.mountain[p])]
        cells += ["·" if q == p else fmt(sheet.whists[p][q]) for q in players]
        rows.append(cells)
    gap = "  " if not short else " "
    lines = table(rows, gap=gap)
    widths = [max(len(r[c]) for r in rows) for c in range(3)]
    first = sum(widths) + 3 * len(gap)  # where the whist columns begin
    return [" " * first + _("whists on"), *lines]


def compact_text(sheet: Sheet, game: Game, width: int = WIDTH) -> str:
    """The sheet in a few short lines, for the live session after every deal: each
    player's pool (of the target), mountain and whists on the others, then where the game
    stands. Within ``width`` columns: when too wide, the names are cut to a unique prefix
    (``P`` pool, ``M`` mountain, ``W`` whists)."""
    lines = _compact_rows(sheet, short=False)
    if max(len(line) for line in lines) > width:
        lines = _compact_rows(sheet, short=True)
    if sheet.convention.closing == "total":
        lines.append(points_left_line(sheet))
    if sheet.finished:
        lines.append(_("the game is finished"))
    lines.extend(_("warning: {problem}").format(problem=problem) for problem in sheet.problems)
    return "\n".join(lines)


def _compact_rows(sheet: Sheet, short: bool) -> list[str]:
    players = sheet.players
    each = sheet.convention.closing == "each"
    names = dict(zip(players, _short_names(players) if short else players, strict=True))
    columns = ("pool", "mountain", "whists")
    if short:
        letters = (pgettext("pool", "P"), pgettext("mountain", "M"), pgettext("whists", "W"))
        labels = tuple(f"{letter} " for letter in letters)
    else:
        labels = tuple(f"{terms.column(c)} " for c in columns)
    # one whist column: «Вера 12» in English, «на Веру 12» in Russian (the short form keeps
    # the cut names as they are)
    on = "{player} {value}" if short else pgettext("compact sheet", "{player} {value}")
    rows = []
    for p in players:
        pool = f"{fmt(sheet.pool[p])}/{sheet.target}" if each else fmt(sheet.pool[p])
        whists = " · ".join(
            on.format(player=names[q], value=fmt(sheet.whists[p][q])) for q in players if q != p
        )
        name = p if not short or len(p) <= 12 else p[:11] + "…"
        rows.append(
            [name, labels[0] + pool, labels[1] + fmt(sheet.mountain[p]), labels[2] + whists]
        )
    return table([["", "", "", ""], *rows], right=[False, False, False, False])[1:]


def bombs_text(bombs: Sequence[int]) -> str:
    """A player's bombs as players write them, oldest first: ``×2 ×4 ×8``; ``-`` for none."""
    return " ".join(f"×{b}" for b in bombs) or "-"
