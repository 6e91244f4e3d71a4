"""Terminal and JSON views of the record, the sheet and the settlement.

Plain text, no colour library: recording a deal must stay fast, and the output must read
the same in any terminal, a pipe or a test.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple, assert_never

from prefcalc.amounts import Amount, fmt, to_json_number
from prefcalc.conventions import OPTIONS, Convention, to_toml_value
from prefcalc.model import (
    SUIT_SYMBOLS,
    Adjustment,
    AllPass,
    Contract,
    Entry,
    Game,
    Join,
    Misere,
    Preference,
    Role,
    SetTerm,
    deal_count,
)
from prefcalc.scoring import Scored, Sheet
from prefcalc.settlement import Settlement, minor_unit, to_decimal


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
    goal = f"target {sheet.target}" + (
        " each" if conv.closing == "each" else f" × {len(sheet.players)} in total"
    )
    deals = deal_count(game)
    head = f"{conv.name} · {goal} · {deals} {_plural(deals, 'deal')}"
    if sheet.finished:
        return f"{head} · FINISHED"
    streak = f"all-pass streak {sheet.streak}" if sheet.streak else "no all-pass streak"
    out = ""
    if len(sheet.sitting_out) > 1:  # five at the table: the dealer and the next dealer
        out = f" · {' and '.join(sheet.sitting_out)} sit out"
    return (
        f"{head} · game on\n"
        f"next dealer {sheet.next_dealer}{out} · {streak}, next all-pass ×{fmt(sheet.passes_price)} · "
        f"lowest contract {sheet.min_level}"
    )


def _plural(n: int, word: str) -> str:
    return word if n == 1 else f"{word}s"


WIDTH = 80
"""The terminal width the sheet fits (4 and 5 players included)."""


def sheet_text(sheet: Sheet, game: Game, width: int = WIDTH) -> str:
    """The sheet as the paper has it: per player pool (and what is left), mountain, whists
    on each opponent (the columns under "whists on"). It fits ``width`` columns: when the
    full form is wider, the pool is written ``4/20`` and the names heading the whist columns
    are cut to a unique prefix."""
    lines = [part for line in status_line(sheet, game).split("\n") for part in _wrap(line, width)]
    for short in (False, True):
        table_lines = _sheet_table(sheet, short)
        if short or max(len(line) for line in table_lines) <= width:
            break
    lines += table_lines
    if sheet.convention.closing != "each":
        lines.append(points_left_line(sheet))
    if sheet.opening is not None:
        circle, circles, factor = sheet.opening
        lines.append(
            f"opening circle {circle} of {circles}: all-pass deals at ×{factor} per trick, "
            f"every player earns a bomb ×{factor}"
        )
    if sheet.bombs:
        lines.append(
            "bombs (oldest first): "
            + "; ".join(f"{p} {bombs_text(sheet.bombs.get(p, ()))}" for p in sheet.players)
        )
    lines.extend(f"warning: {problem}" for problem in sheet.problems)
    lines.extend(f"cannot price: {problem}" for problem in sheet.unpriced)
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
    return (
        f"{fmt(left)} points left to the end of the game "
        f"(pools {fmt(sum(sheet.pool.values()))} of {sheet.target} × {len(sheet.players)} = {goal})"
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
    rows = [["", "pool", "mountain", *heads]]
    for p in players:
        left = sheet.left_to_close(p)
        if not each:
            pool = fmt(sheet.pool[p])
        elif short:
            pool = f"{fmt(sheet.pool[p])}/{sheet.target}" + ("" if left else " ✓")
        else:
            pool = fmt(sheet.pool[p]) + (f" ({fmt(left)} to go)" if left else " ✓")
        name = p if not short or len(p) <= 12 else p[:11] + "…"
        cells = [name, pool, fmt(sheet.mountain[p])]
        cells += ["·" if q == p else fmt(sheet.whists[p][q]) for q in players]
        rows.append(cells)
    gap = "  " if not short else " "
    lines = table(rows, gap=gap)
    widths = [max(len(r[c]) for r in rows) for c in range(3)]
    first = sum(widths) + 3 * len(gap)  # where the whist columns begin
    return [" " * first + "whists on", *lines]


def compact_text(sheet: Sheet, game: Game, width: int = WIDTH) -> str:
    """The sheet in a few short lines, for the live session after every deal: each
    player's pool (of the target), mountain and whists on the others, then where the game
    stands. Within ``width`` columns: when too wide, the names are cut to a unique prefix
    (``P`` pool, ``M`` mountain, ``W`` whists)."""
    lines = _compact_rows(sheet, short=False)
    if max(len(line) for line in lines) > width:
        lines = _compact_rows(sheet, short=True)
    if sheet.convention.closing != "each":
        lines.append(points_left_line(sheet))
    if sheet.finished:
        lines.append("the game is finished")
    lines.extend(f"warning: {problem}" for problem in sheet.problems)
    return "\n".join(lines)


def _compact_rows(sheet: Sheet, short: bool) -> list[str]:
    players = sheet.players
    each = sheet.convention.closing == "each"
    names = dict(zip(players, _short_names(players) if short else players, strict=True))
    labels = ("P ", "M ", "W ") if short else ("pool ", "mountain ", "whists ")
    rows = []
    for p in players:
        pool = f"{fmt(sheet.pool[p])}/{sheet.target}" if each else fmt(sheet.pool[p])
        whists = " · ".join(f"{names[q]} {fmt(sheet.whists[p][q])}" for q in players if q != p)
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
        return "no saved games yet (start one with 'prefcalc new')"
    rows = [["", "#", "players", "started", "deals", "state", "file"]]
    for g in games:
        state = g.problem if g.problem else ("finished" if g.finished else "game on")
        rows.append(
            [
                "*" if g.current else "",
                str(g.number),
                ", ".join(g.players),
                local_time(g.created) if g.created else "",
                str(g.deals),
                state,
                g.path.name,
            ]
        )
    lines = table(rows, right=[False, True, False, False, True, False, False])
    return "\n".join([*lines, "* the current game; prefcalc use NUMBER|NAME|FILE resumes one"])


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


ROLE_WORDS: dict[Role, str] = {
    "w": "whist",
    "p": "pass",
    "h": "half-whist",
    "r": "returned the whist",
}


class DealWords(NamedTuple):
    """A deal as the log, the messages and the exports show it: the one renderer of a deal
    for people (the ledger's JSON and the shorthand are the record's own formats)."""

    kind: str  # contract, misère, all-pass, adjustment, change
    player: str  # the declarer, or the adjusted player ("" for an all-pass deal)
    contract: str  # "7♥", "misère" or ""
    tricks: int | None  # the declarer's tricks (None: not played, or not a game)
    defenders: tuple[tuple[str, str, int | None], ...]  # (player, role in words, tricks)
    text: str  # one line: "Anna 7♥ took 7; Boris whist, Vera pass"


def deal_words(entry: Entry) -> DealWords:
    """The parts of a deal in words, and the whole deal as one line."""
    deal = entry.deal
    forced = " (forced)" if entry.forced else ""
    if isinstance(deal, Contract):
        label = f"{deal.level}{SUIT_SYMBOLS[deal.suit]}"
        alone = len(deal.defenders) == 1  # Gusarik: "h" leaves for his tricks
        defenders = tuple(
            (
                d.player,
                "left for own tricks" if alone and d.role == "h" else ROLE_WORDS[d.role],
                d.tricks,
            )
            for d in deal.defenders
        )
        answers = ", ".join(
            f"{p} {role}" + (f" {n}" if n is not None else "") for p, role, n in defenders
        )
        tricks = "not played" if deal.tricks is None else f"took {deal.tricks}"
        text = f"{deal.declarer} {label}{_classic_text(deal)} {tricks}; {answers}"
        return DealWords("contract", deal.declarer, label, deal.tricks, defenders, text + forced)
    if isinstance(deal, Misere):
        text = f"{deal.declarer} misère{_classic_text(deal)}, took {deal.tricks}"
        return DealWords("misère", deal.declarer, "misère", deal.tricks, (), text + forced)
    if isinstance(deal, AllPass):
        text = "all-pass: " + ", ".join(f"{n} {t}" for n, t in deal.tricks)
        if deal.blind:
            text += f" ({', '.join(deal.blind)} blind)"
        return DealWords("all-pass", "", "", None, (), text + forced)
    if isinstance(deal, SetTerm):
        what = "target" if deal.key == "target" else "whist price"
        text = f"{what} set to {fmt(deal.value)}"
        return DealWords("change", "", "", None, (), text + forced)
    if isinstance(deal, Adjustment):
        text = f"adjustment for {deal.player}: {deal.note}"
        return DealWords("adjustment", deal.player, "", None, (), text + forced)
    if isinstance(deal, Preference):
        text = f"{deal.player} declares the Preference combination: the game ends"
        return DealWords("preference", deal.player, "", None, (), text + forced)
    if isinstance(deal, Join):
        seat = f"after {deal.after}" if deal.after else "in the last seat"
        text = f"{deal.player} joins the game, {seat}"
        return DealWords("join", deal.player, "", None, (), text + forced)
    assert_never(deal)


def _classic_text(deal: Contract | Misere) -> str:
    """`` (dark, no talon)``: the Classic flags of a game or misère; ``""`` when none."""
    parts = [word for word, on in (("dark", deal.dark), ("no talon", deal.no_talon)) if on]
    if deal.bomb is not None:
        parts.append(f"bomb ×{deal.bomb}")
    if isinstance(deal, Contract):
        if deal.talon is not None:
            parts.append(f"talon {deal.talon}")
        if deal.returned_by is not None:
            parts.append(f"whist returned by {deal.returned_by}")
    return f" ({', '.join(parts)})" if parts else ""


def bombs_text(bombs: Sequence[int]) -> str:
    """A player's bombs as players write them, oldest first: ``×2 ×4 ×8``; ``-`` for none."""
    return " ".join(f"×{b}" for b in bombs) or "-"


def bomb_event_lines(scored: Scored) -> list[str]:
    """What a deal did to the bombs, one line each: ``Anna: earns a bomb ×4``."""
    verbs = {"earned": "earns", "used": "uses up", "kept": "keeps (remise)"}
    return [f"{who}: {verbs[what]} a bomb ×{factor}" for who, what, factor in scored.bombs]


def deal_text(entry: Entry) -> str:
    """A deal in words a player reads at a glance."""
    return deal_words(entry).text


def write_lines(scored: Scored) -> list[str]:
    return [f"{w.player}: {signed(w.amount)} {w.target} — {w.reason}" for w in scored.writes]


def signed(value: Amount) -> str:
    """``+4``, ``-2½``, ``0``: an amount with its sign."""
    text = fmt(value)
    return text if text.startswith("-") or text == "0" else f"+{text}"


def log_text(sheet: Sheet) -> str:
    rows = [["#", "time", "dealer", "deal"]]
    for s in sheet.scored:
        time = local_time(s.entry.time, "%H:%M")
        rows.append([str(s.number), time, s.entry.dealer or "", deal_text(s.entry)])
    if len(rows) == 1:
        return "no deals recorded yet"
    return "\n".join(table(rows, right=[True, False, False, False]))


def log_json(sheet: Sheet) -> list[dict[str, Any]]:
    from prefcalc.ledger import deal_to_json
    from prefcalc.notation import describe

    out = []
    for s in sheet.scored:
        item = {"number": s.number, **deal_to_json(s.entry), "notation": describe(s.entry.deal)}
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
    head = f"deal {s.number}" + (f", dealt by {s.entry.dealer}" if s.entry.dealer else "")
    lines = [f"{head}: {deal_text(s.entry)}"]
    if isinstance(s.entry.deal, AllPass) and s.price is None and s.bombs:
        factor = max(f for _, what, f in s.bombs if what == "earned")
        lines.append(f"opening circle deal at ×{factor} per trick (not in the all-pass streak)")
    elif isinstance(s.entry.deal, AllPass):
        lines.append(f"all-pass deal {s.streak} in a row, price ×{fmt(s.price or 0)}")
    elif isinstance(s.entry.deal, Contract) and s.min_level > 6:
        lines.append(f"lowest contract after the all-pass streak: {s.min_level}")
    if s.factor != 1:
        lines.append(f"deal factor ×{s.factor}")
    writes = write_lines(s)
    lines.extend(f"  {line}" for line in writes) if writes else lines.append("  nothing written")
    lines.extend(f"  {line}" for line in bomb_event_lines(s))
    if s.finished:
        lines.append("the game is finished after this deal")
    return "\n".join(lines)


# --- rules -----------------------------------------------------------------------------------


def rules_text(conv: Convention) -> str:
    lines = [conv.name + (f": {conv.description}" if conv.description else "")]
    rows = [["option", "value", "meaning"]]
    for option in OPTIONS:
        rows.append([option.key, to_toml_value(conv.value(option.key)), option.doc])
    lines += table(rows, right=[False, False, False])
    return "\n".join(lines)


# --- settlement -------------------------------------------------------------------------------


def money_text(value: Amount, currency: str) -> str:
    amount = to_decimal(value, minor_unit(currency))
    return f"{amount} {currency}".strip()


def settlement_steps(s: Settlement) -> list[str]:
    """The steps a player would do on paper, one line each (sub-lines indented)."""
    players = s.players
    lines = []
    if s.combination:
        lines.append(s.combination[0])
        lines += [f"   {line}" for line in s.combination[1:]]
    lines.append(
        f"1. Unclosed pools into the mountain: largest pool {fmt(s.pool_max)}, "
        f"each missing point × {fmt(s.pool_factor)}"
    )
    for p in players:
        added = s.pool_factor * (s.pool_max - s.pools[p])
        lines.append(
            f"   {p}: pool {fmt(s.pools[p])}, mountain +{fmt(added)} = {fmt(s.mountains[p])}"
        )
    lines.append(f"2. Amnesty: the smallest mountain {fmt(s.amnesty)} is taken off every mountain")
    lines.append("   " + ", ".join(f"{p} {fmt(s.amnestied[p])}" for p in players))
    n = len(players)
    if s.prizes:
        lines.append("   Prizes (judged on the mountains before the amnesty; game whists):")
        lines += [f"   {p.writer} writes {fmt(p.amount)} on {p.on} ({p.why})" for p in s.prizes]
    if s.method == "pairwise":
        lines.append(
            f"3. Mountains into whists: every opponent writes 10 × mountain / {n} on each player"
        )
        lines.append("   " + ", ".join(f"on {p}: {fmt(s.mountain_entries[p])}" for p in players))
        lines.append(
            "4. Pairwise balances (game whists and mountain whists, the larger side keeps the difference)"
        )
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                diff = s.pairwise[(a, b)]
                if diff == 0:
                    lines.append(f"   {a} – {b}: square")
                else:
                    winner, loser = (a, b) if diff > 0 else (b, a)
                    lines.append(
                        f"   {a} – {b}: {winner} +{fmt(diff if diff > 0 else -diff)} from {loser}"
                    )
    else:
        lines.append(
            f"3. Average mountain: {fmt(sum(s.amnestied.values(), Fraction(0)))} / {n} = {fmt(s.average)}"
        )
        lines.append("   mountain result 10 × (average − mountain):")
        lines.append("   " + ", ".join(f"{p} {signed(s.mountain_whists[p])}" for p in players))
        lines.append("4. Game whists (written on others − written on him):")
        lines.append("   " + ", ".join(f"{p} {signed(s.game_whists[p])}" for p in players))
    return lines


def settlement_text(s: Settlement, steps: bool = True) -> str:
    players = s.players
    lines = [
        f"Settlement by {s.method} method ({'method 1' if s.method == 'pairwise' else 'method 2'}), rounding: {s.rounding}"
    ]
    lines.append(
        f"Counted: {', '.join(players)} (N = {len(players)}: every player seated at the end)"
    )
    if steps:
        lines += ["", *settlement_steps(s), ""]
    rows = [["player", "whists", "money"]]
    for p in players:
        rows.append([p, signed(s.whists[p]), money_text(s.money[p], s.currency)])
    lines.append(
        f"Result (1 whist = {money_text(s.whist_price, s.currency) if s.currency else fmt(s.whist_price)}):"
    )
    lines += ["   " + line for line in table(rows)]
    lines.append("Payments:")
    if s.payments:
        lines += [
            f"   {p.payer} pays {p.payee} {money_text(p.amount, s.currency)}" for p in s.payments
        ]
    else:
        lines.append("   nobody owes anything")
    return "\n".join(lines)


def compare_text(a: Settlement, b: Settlement) -> str:
    rows = [
        [
            "player",
            f"{a.method} whists",
            f"{b.method} whists",
            "difference",
            f"{a.method} money",
            f"{b.method} money",
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
    lines = [f"Both methods, rounding: {a.rounding}", *table(rows)]
    lines.append(
        "The methods agree."
        if same
        else "The methods differ (rounding): the table picks one before settling."
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
                "prizes": [
                    {"from": p.writer, "on": p.on, "whists": to_json_number(p.amount), "why": p.why}
                    for p in s.prizes
                ]
            }
            if s.prizes
            else {}
        ),
    }
