"""Terminal and JSON views of the record, the sheet and the settlement.

Plain text, no colour library: recording a deal must stay fast, and the output must read
the same in any terminal, a pipe or a test.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, assert_never

from prefcalc import terms
from prefcalc.cases import CASES, decline, genders
from prefcalc.i18n import N_, _, language, ngettext, pgettext
from prefcalc.rules.amounts import Amount, norm, to_json_number
from prefcalc.rules.conventions import OPTIONS, Convention, to_toml_value
from prefcalc.rules.model import (
    UNDEALT,
    Adjustment,
    AllPass,
    Contract,
    Entry,
    Game,
    Join,
    Misere,
    Penalty,
    Preference,
    SetTerm,
    deal_count,
)
from prefcalc.rules.penalties import OFFENCE_WORDS
from prefcalc.rules.scoring import Label, ReasonFormatter, Scored, Sheet, Write
from prefcalc.rules.settlement import Settlement, minor_unit, to_decimal
from prefcalc.views.numbers import day, money
from prefcalc.views.numbers import number as fmt
from prefcalc.views.numbers import price as price_text

if TYPE_CHECKING:
    from prefcalc.commands import Result


def table(
    rows: Sequence[Sequence[str]], right: Sequence[bool] | None = None, gap: str = "  "
) -> list[str]:
    """Align ``rows`` (first row is the header) in columns."""
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    right = right or [False] + [True] * (len(widths) - 1)
    out = []
    for row in rows:
        cells = [
            cell.rjust(w) if r else cell.ljust(w)
            for cell, w, r in zip(row, widths, right, strict=True)
        ]
        out.append(gap.join(cells).rstrip())
    return out


# --- the sheet --------------------------------------------------------------------------------


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


def local_time(stamp: str, pattern: str = "%Y-%m-%d %H:%M") -> str:
    """A stored time (ISO with its offset) in this computer's local time; a time without
    an offset, or one that cannot be read, is shown as stored."""
    from datetime import datetime

    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if when.tzinfo is None:
        return when.strftime(pattern)
    return when.astimezone().strftime(pattern)


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


def sheet_json(sheet: Sheet, game: Game) -> dict[str, Any]:
    conv = sheet.convention
    bombs = bool(conv.bombs_opening) or conv.bombs_blind or bool(sheet.bombs)  # Classic only
    return {
        "convention": sheet.convention.name,
        "target": sheet.target,
        "players": [
            {
                "name": p,
                "pool": to_json_number(sheet.pool[p]),
                "mountain": to_json_number(sheet.mountain[p]),
                "whists": {q: to_json_number(sheet.whists[p][q]) for q in sheet.players if q != p},
                **({"bombs": list(sheet.bombs.get(p, ()))} if bombs else {}),
            }
            for p in sheet.players
        ],
        "deals": deal_count(game),
        "next_dealer": sheet.next_dealer,
        "passes_streak": sheet.streak,
        "passes_price": to_json_number(sheet.passes_price),
        "lowest_contract": sheet.min_level,
        "finished": sheet.finished,
        "problems": [str(p) for p in sheet.problems],
        **({"unpriced": [str(p) for p in sheet.unpriced]} if sheet.unpriced else {}),
        **(
            {"opening": dict(zip(("circle", "circles", "factor"), sheet.opening, strict=True))}
            if sheet.opening is not None
            else {}
        ),
    }


# --- the log ---------------------------------------------------------------------------------


class DealWords(NamedTuple):
    """A deal as the log, the messages and the exports show it: the one renderer of a deal
    for people (the ledger's JSON and the shorthand are the record's own formats)."""

    kind: str  # contract, misère, all-pass, adjustment, penalty, change
    player: str  # the declarer, or the adjusted player ("" for an all-pass deal)
    contract: str  # "7♥", "misère" or ""
    tricks: int | None  # the declarer's tricks (None: not played, or not a game)
    defenders: tuple[tuple[str, str, int | None], ...]  # (player, role in words, tricks)
    text: str  # one line: "Anna 7♥ took 7; Boris whist, Vera pass"


def deal_words(entry: Entry) -> DealWords:
    """The parts of a deal in words, and the whole deal as one line."""
    deal = entry.deal
    forced = " (" + _("forced") + ")" if entry.forced else ""
    if isinstance(deal, Contract):
        label = terms.contract(deal.level, deal.suit)
        alone = len(deal.defenders) == 1  # Gusarik: "h" leaves for his tricks
        defenders = tuple((d.player, terms.role(d.role, alone), d.tricks) for d in deal.defenders)
        answers = ", ".join(
            f"{p} {role}" + (f" {n}" if n is not None else "") for p, role, n in defenders
        )
        text = (
            _("{declarer} {contract}{flags} not played; {answers}")
            if deal.tricks is None
            else _("{declarer} {contract}{flags} took {n}; {answers}")
        ).format(
            declarer=deal.declarer,
            contract=label,
            flags=_classic_text(deal),
            n=deal.tricks,
            tricks=terms.tricks(deal.tricks or 0),
            answers=answers,
        )
        text += looked_text(deal)
        return DealWords("contract", deal.declarer, label, deal.tricks, defenders, text + forced)
    if isinstance(deal, Misere):
        text = _("{declarer} misère{flags}, took {n}").format(
            declarer=deal.declarer,
            flags=_classic_text(deal),
            n=deal.tricks,
            tricks=terms.tricks(deal.tricks),
        )
        text += looked_text(deal)
        return DealWords("misère", deal.declarer, terms.misere(), deal.tricks, (), text + forced)
    if isinstance(deal, AllPass):
        text = _("all-pass: {tricks}").format(tricks=", ".join(f"{n} {t}" for n, t in deal.tricks))
        if deal.blind:
            text += " (" + _("{players} blind").format(players=", ".join(deal.blind)) + ")"
        text += looked_text(deal)
        return DealWords("all-pass", "", "", None, (), text + forced)
    if isinstance(deal, SetTerm):
        change = (
            _("target set to {value}") if deal.key == "target" else _("whist price set to {value}")
        )
        value = fmt(deal.value) if deal.key == "target" else price_text(deal.value)
        text = change.format(value=value)
        return DealWords("change", "", "", None, (), text + forced)
    if isinstance(deal, Adjustment):
        text = _("adjustment for {player}: {note}").format(player=deal.player, note=deal.note)
        return DealWords("adjustment", deal.player, "", None, (), text + forced)
    if isinstance(deal, Penalty):
        contract = terms.contract(deal.level, deal.suit) if deal.level and deal.suit else ""
        text = penalty_text(deal)
        return DealWords("penalty", deal.player, contract, None, (), text + forced)
    if isinstance(deal, Preference):
        text = _("{player} declares the Preference combination: the game ends").format(
            player=deal.player
        )
        return DealWords("preference", deal.player, "", None, (), text + forced)
    if isinstance(deal, Join):
        text = (
            _("{player} joins the game, after {after}")
            if deal.after
            else _("{player} joins the game, in the last seat")
        ).format(player=deal.player, after=deal.after)
        return DealWords("join", deal.player, "", None, (), text + forced)
    assert_never(deal)


def penalty_text(deal: Penalty) -> str:
    """A penalty in words: ``penalty for Anna: looking at the talon (Code 3.2.21), 5 into the
    mountain`` (docs/rules.md §8.10)."""
    offence = _(OFFENCE_WORDS[deal.offence])
    amount = fmt(deal.amount)
    if deal.level is not None and deal.suit is not None:
        what = _("{contract} down {n}").format(
            contract=terms.contract(deal.level, deal.suit), n=amount
        )
    elif deal.on is not None:
        what = _("the excess of {amount} written back by {on}").format(amount=amount, on=deal.on)
    else:
        what = _("{amount} into the mountain").format(amount=amount)
    return _("penalty for {player}: {offence}, {what}").format(
        player=deal.player, offence=offence, what=what
    )


def looked_text(deal: Contract | Misere | AllPass) -> str:
    """``; Boris loses a trick: looking at a trick other than the last (Code 3.9.11.2)``
    for each player who did (on an all-pass deal or a misère: takes a trick more); ``""``."""
    offence = _(OFFENCE_WORDS["trick"])
    out = ""
    for name in deal.looked:
        line = (
            _("{player} loses a trick: {offence}")
            if isinstance(deal, Contract)
            else _("{player} takes a trick more: {offence}")
        )
        out += "; " + line.format(player=name, offence=offence)
    return out


def _classic_text(deal: Contract | Misere) -> str:
    """`` (dark, no talon)``: the Classic flags of a game or misère; ``""`` when none."""
    parts = [word for word, on in ((_("dark"), deal.dark), (_("no talon"), deal.no_talon)) if on]
    if deal.bomb is not None:
        parts.append(_("bomb ×{factor}").format(factor=deal.bomb))
    if isinstance(deal, Contract):
        if deal.talon is not None:
            parts.append(_("talon {tricks}").format(tricks=deal.talon))
        if deal.returned_by is not None:
            parts.append(_("whist returned by {player}").format(player=deal.returned_by))
    return f" ({', '.join(parts)})" if parts else ""


def bombs_text(bombs: Sequence[int]) -> str:
    """A player's bombs as players write them, oldest first: ``×2 ×4 ×8``; ``-`` for none."""
    return " ".join(f"×{b}" for b in bombs) or "-"


def bomb_event_lines(scored: Scored) -> list[str]:
    """What a deal did to the bombs, one line each: ``Anna: earns a bomb ×4``."""
    lines = {
        "earned": _("{player}: earns a bomb ×{factor}"),
        "used": _("{player}: uses up a bomb ×{factor}"),
        "kept": _("{player}: keeps (remise) a bomb ×{factor}"),
    }
    return [lines[what].format(player=who, factor=factor) for who, what, factor in scored.bombs]


def deal_text(entry: Entry) -> str:
    """A deal in words a player reads at a glance."""
    return deal_words(entry).text


def write_lines(scored: Scored) -> list[str]:
    return [
        f"{w.player}: {signed(w.amount)} {_write_target(w)} — {reason_text(w)}"
        for w in scored.writes
    ]


def reason_text(w: Write) -> str:
    """Why a write is what it is, in the language in use (``whists on 8NT: 2 tricks × 6 = 12``
    / ``висты на 8БК: 2 взятки × 6 = 12``); English is the write's own reason."""
    if language() == "en":
        return w.reason
    return _said().render(w.template, w.args)


def _said() -> ReasonFormatter:
    return ReasonFormatter(_, _reason_unit, _reason_contract, fmt)


def _reason_contract(label: Label) -> str:
    return terms.contract(label.level, label.suit)  # type: ignore[arg-type]


def _reason_unit(unit: str, value: Any, text: str) -> str:
    """``2 tricks`` / ``2 взятки``: a counted unit of a reason in its plural form (a fraction
    of a point takes the form of 2: ``16⅔ очка``); a name in the case its Russian template
    asks for (``{player:dat}``: see :mod:`prefcalc.cases`)."""
    if unit in CASES:
        return decline(value, unit) if isinstance(value, str) else text
    n = value if isinstance(value, int) else 2
    if unit == "trick":
        form = ngettext("{n} trick", "{n} tricks", n)
    elif unit == "undertrick":
        form = ngettext("{n} undertrick", "{n} undertricks", n)
    elif unit == "point":
        form = ngettext("{n} point", "{n} points", n)
    else:
        return f"{text} {unit}"
    return form.format(n=text)


def _write_target(w: Any) -> str:
    """Where a write went: ``pool``, ``mountain``, ``whists on Anna`` in the language in use
    (``в пулю``, ``в гору``, ``висты на Аню``: :func:`prefcalc.terms.into`)."""
    return terms.into(w.column, w.on)


def signed(value: Amount) -> str:
    """``+4``, ``-2½``, ``0``: an amount with its sign."""
    text = fmt(value)
    return text if text.startswith(("-", "\N{MINUS SIGN}")) or text == "0" else f"+{text}"


def log_text(sheet: Sheet) -> str:
    rows = [["#", _("time"), _("dealer"), _("deal")]]
    for s in sheet.scored:
        time = local_time(s.entry.time, "%H:%M")
        rows.append([str(s.number), time, s.entry.dealer or "", deal_text(s.entry)])
    if len(rows) == 1:
        return _("no deals recorded yet")
    return "\n".join(table(rows, right=[True, False, False, False]))


def log_json(sheet: Sheet) -> list[dict[str, Any]]:
    from prefcalc.rules.notation import describe
    from prefcalc.store.ledger import deal_to_json

    out = []
    for s in sheet.scored:
        notation = describe(s.entry.deal, "en")  # the record's own words, in every language
        item = {"number": s.number, **deal_to_json(s.entry), "notation": notation}
        item["writes"] = [
            {
                "player": w.player,
                "column": w.column,
                "on": w.on,
                "amount": to_json_number(w.amount),
                "reason": w.reason,
            }
            for w in s.writes
        ]
        if s.factor != 1:
            item["factor"] = s.factor
        if s.bombs:
            item["bombs"] = [{"player": p, "event": e, "factor": f} for p, e, f in s.bombs]
        out.append(item)
    return out


def explain_text(sheet: Sheet, number: int) -> str:
    s = sheet.scored[number - 1]
    if isinstance(s.entry.deal, UNDEALT):  # a line of the record, not a deal
        head = _("No. {number}").format(number=s.number)
    else:
        head = (
            _("deal {number}, dealt by {dealer}") if s.entry.dealer else _("deal {number}")
        ).format(number=s.number, dealer=s.entry.dealer)
    lines = [f"{head}: {deal_text(s.entry)}"]
    if isinstance(s.entry.deal, AllPass) and s.price is None and s.bombs:
        factor = max(f for _who, what, f in s.bombs if what == "earned")
        lines.append(
            _("opening circle deal at ×{factor} per trick (not in the all-pass streak)").format(
                factor=factor
            )
        )
    elif isinstance(s.entry.deal, AllPass):
        lines.append(
            _("all-pass deal {streak} in a row, price ×{price}").format(
                streak=s.streak, price=fmt(s.price or 0)
            )
        )
    elif isinstance(s.entry.deal, Contract) and s.min_level > 6:
        lines.append(
            _("lowest contract after the all-pass streak: {level}").format(level=s.min_level)
        )
    if s.factor != 1:
        lines.append(_("deal factor ×{factor}").format(factor=s.factor))
    writes = write_lines(s)
    if writes:
        lines.extend(f"  {line}" for line in writes)
    else:
        lines.append("  " + _("nothing written"))
    lines.extend(f"  {line}" for line in bomb_event_lines(s))
    if s.finished:
        lines.append(_("the game is finished after this deal"))
    return "\n".join(lines)


# --- rules -----------------------------------------------------------------------------------


def rules_text(conv: Convention) -> str:
    from prefcalc.rules.conventions import preset_words

    description = preset_words(conv.description)
    lines = [preset_words(conv.name) + (f": {description}" if description else "")]
    rows = [[_("option"), _("value"), _("meaning")]]
    for option in OPTIONS:
        rows.append([option.key, to_toml_value(conv.value(option.key)), _(option.doc)])
    lines += table(rows, right=[False, False, False])
    return "\n".join(lines)


# --- settlement -------------------------------------------------------------------------------


def money_text(value: Amount, currency: str) -> str:
    return money(to_decimal(value, minor_unit(currency)), currency)


def settlement_steps(s: Settlement) -> list[str]:
    """The steps a player would do on paper, one line each (sub-lines indented)."""
    players = s.players
    lines = []
    if s.combination:
        lines.append(s.combination[0])
        lines += [f"   {line}" for line in s.combination[1:]]
    n = len(players)
    if s.pool_average is not None:
        lines += _pools_against_the_average(s)
    else:
        lines.append(
            _(
                "1. Unclosed pools into the mountain: largest pool {largest}, "
                "each missing point × {factor}"
            ).format(largest=fmt(s.pool_max), factor=fmt(s.pool_factor))
        )
        for p in players:
            added = s.pool_factor * (s.pool_max - s.pools[p])
            lines.append(
                "   "
                + _("{player}: pool {pool}, mountain +{added} = {mountain}").format(
                    player=p, pool=fmt(s.pools[p]), added=fmt(added), mountain=fmt(s.mountains[p])
                )
            )
    lines.append(
        _("2. Amnesty: the smallest mountain {amnesty} is taken off every mountain").format(
            amnesty=fmt(s.amnesty)
        )
    )
    lines.append("   " + ", ".join(f"{p} {fmt(s.amnestied[p])}" for p in players))
    if s.prizes:
        lines.append("   " + _("Prizes (judged on the mountains before the amnesty; game whists):"))
        lines += [
            "   "
            + _("{writer} writes {amount} on {player} ({why})").format(
                writer=p.writer, amount=fmt(p.amount), player=p.on, why=p.why
            )
            for p in s.prizes
        ]
    if s.method == "pairwise":
        lines.append(
            _(
                "3. Mountains into whists: every opponent writes 10 × mountain / {n} on each player"
            ).format(n=n)
        )
        lines.append(
            "   "
            + ", ".join(
                _("on {player}: {whists}").format(player=p, whists=fmt(s.mountain_entries[p]))
                for p in players
            )
        )
        if s.pool_entries:
            lines.append(
                "   "
                + _(
                    "pools into whists: every player writes {rate} × pool / {n} on each opponent"
                ).format(rate=s.pool_rate, n=n)
            )
            lines.append(
                "   "
                + ", ".join(
                    _("{player} writes {whists}").format(player=p, whists=fmt(s.pool_entries[p]))
                    for p in players
                )
            )
        lines.append(
            _(
                "4. Pairwise balances (game whists and mountain whists, the larger side keeps the difference)"
            )
        )
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                diff = s.pairwise[(a, b)]
                if diff == 0:
                    lines.append(f"   {a} – {b}: " + _("square"))
                else:
                    winner, loser = (a, b) if diff > 0 else (b, a)
                    lines.append(
                        f"   {a} – {b}: "
                        + _("{winner} +{whists} from {loser}").format(
                            winner=winner, whists=fmt(diff if diff > 0 else -diff), loser=loser
                        )
                    )
    else:
        lines.append(
            _("3. Average mountain: {total} / {n} = {average}").format(
                total=fmt(sum(s.amnestied.values(), Fraction(0))), n=n, average=fmt(s.average)
            )
        )
        lines.append("   " + _("mountain result 10 × (average − mountain):"))
        lines.append("   " + ", ".join(f"{p} {signed(s.mountain_whists[p])}" for p in players))
        lines.append(_("4. Game whists (written on others − written on him):"))
        lines.append("   " + ", ".join(f"{p} {signed(s.game_whists[p])}" for p in players))
        if s.pool_results:
            lines.append(_("5. Pool whists (step 1):"))
            lines.append("   " + ", ".join(f"{p} {signed(s.pool_results[p])}" for p in players))
    return lines


def _pools_against_the_average(s: Settlement) -> list[str]:
    """Step 1 under ``closing = average`` (docs/rules.md §5.9): every pool against the
    average pool, ``pool_whists`` a point; the mountains stay as they are."""
    players = s.players
    average = s.pool_average if s.pool_average is not None else 0
    lines = [
        _(
            "1. Pools against the average: {total} / {n} = {average}, "
            "each point above or below it {rate} whists (the mountains stay as they are)"
        ).format(
            total=fmt(sum((Fraction(s.pools[p]) for p in players), Fraction(0))),
            n=len(players),
            average=fmt(average),
            rate=s.pool_rate,
        )
    ]
    for p in players:
        lines.append(
            "   "
            + _("{player}: pool {pool}, {difference} × {rate} = {whists}").format(
                player=p,
                pool=fmt(s.pools[p]),
                difference=signed(norm(s.pools[p] - average)),
                rate=s.pool_rate,
                whists=signed(norm(s.pool_rate * (s.pools[p] - average))),
            )
        )
    return lines


def settlement_text(s: Settlement, steps: bool = True) -> str:
    players = s.players
    head = (
        _("Settlement by pairwise method (method 1), rounding: {rounding}")
        if s.method == "pairwise"
        else _("Settlement by average method (method 2), rounding: {rounding}")
    )
    lines = [head.format(rounding=_rounding(s.rounding))]
    lines.append(
        _("Counted: {players} (N = {n}: every player seated at the end)").format(
            players=", ".join(players), n=len(players)
        )
    )
    if steps:
        lines += ["", *settlement_steps(s), ""]
    rows = [[_("player"), terms.column("whists"), _("money")]]
    for p in players:
        rows.append([p, signed(s.whists[p]), money_text(s.money[p], s.currency)])
    each = money_text(s.whist_price, s.currency) if s.currency else price_text(s.whist_price)
    lines.append(_("Result (1 whist = {price}):").format(price=each))
    lines += ["   " + line for line in table(rows)]
    lines.append(_("Payments:"))
    if s.payments:
        lines += [
            "   "
            + _("{payer} pays {payee} {amount}").format(
                payer=p.payer, payee=p.payee, amount=money_text(p.amount, s.currency)
            )
            for p in s.payments
        ]
    else:
        lines.append("   " + _("nobody owes anything"))
    return "\n".join(lines)


def _rounding(rounding: str) -> str:
    """``exact`` / ``whole`` in the language in use."""
    return {"exact": pgettext("rounding", "exact"), "whole": pgettext("rounding", "whole")}.get(
        rounding, rounding
    )


def _method(method: str) -> str:
    """``pairwise`` / ``average`` in the language in use."""
    words = {"pairwise": pgettext("method", "pairwise"), "average": pgettext("method", "average")}
    return words.get(method, method)


def compare_text(a: Settlement, b: Settlement) -> str:
    rows = [
        [
            _("player"),
            _("{method} whists").format(method=_method(a.method)),
            _("{method} whists").format(method=_method(b.method)),
            _("difference"),
            _("{method} money").format(method=_method(a.method)),
            _("{method} money").format(method=_method(b.method)),
        ]
    ]
    for p in a.players:
        diff = a.whists[p] - b.whists[p]
        rows.append(
            [
                p,
                signed(a.whists[p]),
                signed(b.whists[p]),
                fmt(diff) if diff else "—",
                money_text(a.money[p], a.currency),
                money_text(b.money[p], b.currency),
            ]
        )
    same = all(a.whists[p] == b.whists[p] for p in a.players)
    lines = [
        _("Both methods, rounding: {rounding}").format(rounding=_rounding(a.rounding)),
        *table(rows),
    ]
    lines.append(
        _("The methods agree.")
        if same
        else _("The methods differ (rounding): the table picks one before settling.")
    )
    return "\n".join(lines)


def settlement_json(s: Settlement) -> dict[str, Any]:
    unit = minor_unit(s.currency)
    return {
        "method": s.method,
        "rounding": s.rounding,
        "currency": s.currency,
        "whist_price": to_json_number(s.whist_price),
        "players": [
            {
                "name": p,
                "whists": to_json_number(s.whists[p]),
                "money": float(to_decimal(s.money[p], unit)),
                "mountain": to_json_number(s.mountains[p]),
                "amnestied_mountain": to_json_number(s.amnestied[p]),
            }
            for p in s.players
        ],
        "payments": [
            {"from": p.payer, "to": p.payee, "amount": float(to_decimal(p.amount, unit))}
            for p in s.payments
        ],
        **(
            {
                "pools": {
                    "average": to_json_number(s.pool_average),
                    "whists_per_point": s.pool_rate,
                    "whists": {p: to_json_number(v) for p, v in s.pool_results.items()},
                }
            }
            if s.pool_average is not None
            else {}
        ),
        **(
            {
                "prizes": [
                    {"from": p.writer, "on": p.on, "whists": to_json_number(p.amount), "why": p.why}
                    for p in s.prizes
                ]
            }
            if s.prizes
            else {}
        ),
    }


# --- the results of commands ------------------------------------------------------------------

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
