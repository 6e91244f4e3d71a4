"""Text and JSON views of a tournament: the new tournament, a round's draw, the standings,
a table's protocol, in the language in use.

JSON keeps English keys in every language, and gives every exact number (points, whists) as
its exact text, a string: ``"230"``, ``"-50/3"``, ``"2.5"`` (the ledger's way of writing an
exact amount), so nothing is lost to a float.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prefcalc import terms
from prefcalc.errors import shown
from prefcalc.i18n import _, ngettext, pgettext
from prefcalc.rules.amounts import Amount, exact_text
from prefcalc.rules.model import (
    Adjustment,
    AllPass,
    Contract,
    Entry,
    Misere,
    Penalty,
    Preference,
)
from prefcalc.rules.penalties import counted
from prefcalc.rules.scoring import Write
from prefcalc.tournament.draw import Seating
from prefcalc.tournament.model import TournamentFile
from prefcalc.tournament.plans import plan
from prefcalc.tournament.protocol import Line, PenaltyLine, Protocol
from prefcalc.tournament.standings import Absence, Seat, Standings, Table
from prefcalc.views.log import deal_text, looked_text
from prefcalc.views.numbers import MINUS
from prefcalc.views.numbers import number as fmt
from prefcalc.views.text_kit import local_time, signed, table

if TYPE_CHECKING:
    from prefcalc.tournament.api import Corrected, Drawn, FieldChange

PLAYING = "*"
"""Marks a result of a table still playing (provisional)."""


def path_text(path: Path) -> str:
    """A path as printed: control characters escaped, never raw on the terminal."""
    return shown(str(path), 300)


def exact(value: Amount) -> str:
    """An exact number for JSON, as text: ``"230"``, ``"-50/3"``."""
    return exact_text(value)


def scoring_name(scoring: str, per_deal: bool) -> str:
    words = {
        "raw": _("raw whists"),
        "cutoffs": _("cut-offs (200 in full, one in ten up to 650)"),
        "bands": _("bands (50 in full, one in two up to 100, then one in ten)"),
        "places": _("places at the table (4-2-1-0; 4-2-0 at a table of 3)"),
    }
    name = words.get(scoring, scoring)
    return name + (", " + _("per deal played") if per_deal else "")


def length(t: TournamentFile) -> str:
    if t.deals is not None:
        return ngettext(
            "{rounds} round of {deals} deals",
            "{rounds} rounds of {deals} deals",
            t.rounds,
        ).format(rounds=t.rounds, deals=t.deals)
    return ngettext(
        "{rounds} round of {minutes} minutes",
        "{rounds} rounds of {minutes} minutes",
        t.rounds,
    ).format(rounds=t.rounds, minutes=t.minutes)


def new_text(t: TournamentFile, base: Path) -> str:
    from prefcalc.tournament.folder import convention

    tables = "+".join(str(size) for size in plan(len(t.players)))
    n = len(t.players)
    lines = [
        ngettext(
            "tournament “{name}”: {n} player, {length}",
            "tournament “{name}”: {n} players, {length}",
            n,
        ).format(name=t.name, n=n, length=length(t)),
        _("rules: {convention}; points: {scoring}; seed {seed}; tables: {tables}").format(
            convention=terms.convention_name(convention(t).name),
            scoring=scoring_name(t.scoring, t.per_deal),
            seed=t.seed,
            tables=tables,
        ),
        *options_lines(t),
        _("folder: {folder}").format(folder=path_text(base)),
        _("next: prefcalc tournament draw {folder}").format(folder=path_text(base)),
    ]
    return "\n".join(lines)


def options_lines(t: TournamentFile) -> list[str]:
    """The tournament's options a director set beyond the defaults, one line each."""
    lines = []
    if t.seeding == "rating":
        lines.append(_("round 1 seeded by rating"))
    if t.forbid:
        lines.append(
            _("never at one table: {pairs}").format(
                pairs="; ".join(f"{a} – {b}" for a, b in t.forbid)
            )
        )
    rule = {"zero": _("zero"), "average": _("the round's average")}
    if t.late != "zero" or t.bye != "zero":
        lines.append(
            _("a late entry's missed rounds count {late}; a bye counts {bye}").format(
                late=rule[t.late], bye=rule[t.bye]
            )
        )
    return lines


# --- the draw -----------------------------------------------------------------------------------


def draw_json(drawn: Drawn, base: Path) -> dict[str, Any]:
    draw = drawn.record
    seating = drawn.seating
    return {
        "round": draw.round,
        "written": drawn.written,
        "tables": [
            {
                "table": tb.table,
                "players": list(tb.players),
                "dealer": tb.dealer,
                "file": str(base / tb.file),
            }
            for tb in draw.tables
        ],
        "byes": list(draw.byes),
        "repeats": seating.repeats,
        "repeated_pairs": [list(pair) for pair in seating.pairs],
        "distance": seating.distance,
        "proved": seating.proved,
        "repeats_proved": seating.proved_repeats,
        "swapped": list(seating.swapped) if seating.swapped else None,
        "seconds": round(drawn.seconds, 2),
    }


def seating_line(seating: Seating, seconds: float) -> str:
    """What a draw achieved, in one line: ``0 pairs meet again · distance 28 · optimal``;
    ``1 pair meets again (proved unavoidable) · distance 30 · optimal``; ``… · best found in
    10 s, not proved``; after the director's swap, what the swap leaves."""
    n = seating.repeats
    if n and seating.proved_repeats:
        repeats = ngettext(
            "{n} pair meets again (proved unavoidable)",
            "{n} pairs meet again (proved unavoidable)",
            n,
        ).format(n=n)
    else:
        repeats = ngettext("{n} pair meets again", "{n} pairs meet again", n).format(n=n)
    parts = [repeats, _("distance {d}").format(d=seating.distance)]
    if seating.swapped is not None:
        parts.append(
            _("{a} and {b} swapped by the director").format(
                a=seating.swapped[0], b=seating.swapped[1]
            )
        )
    elif seating.proved:
        parts.append(_("optimal"))
    else:
        parts.append(_("best found in {seconds} s, not proved").format(seconds=_seconds(seconds)))
    return " · ".join(parts)


def _seconds(seconds: float) -> str:
    return str(max(1, round(seconds)))


def draw_text(drawn: Drawn, base: Path) -> str:
    draw = drawn.record
    seating = drawn.seating
    if drawn.written:
        lines = [_("Round {round}:").format(round=draw.round)]
    else:
        lines = [_("Round {round}, proposed (nothing written):").format(round=draw.round)]
    rows = [[_("table"), _("players (in seat order)"), _("first dealer"), _("file")]]
    for tb in draw.tables:
        rows.append([str(tb.table), ", ".join(tb.players), tb.dealer, path_text(base / tb.file)])
    lines += table(rows, right=[True, False, False, False])
    for name in draw.byes:
        lines.append(_("{name} sits this round out (a bye)").format(name=name))
    lines.append(seating_line(seating, drawn.seconds))
    if seating.pairs:
        lines.append(
            _("meet again: {pairs}").format(pairs="; ".join(f"{a} – {b}" for a, b in seating.pairs))
        )
    if drawn.written:
        lines.append(
            _("record each table's deals on its file: prefcalc game ... --file {file}").format(
                file=path_text(base / draw.tables[0].file)
            )
        )
    else:
        lines.append(
            _("to draw it: prefcalc tournament draw {folder}{swap}").format(
                folder=shell(base),
                swap=f" --swap {shell(','.join(seating.swapped))}" if seating.swapped else "",
            )
        )
    return "\n".join(lines)


def shell(path: Path | str) -> str:
    """A path or a word as a shell reads it back (quoted when it must be), escaped for the
    terminal."""
    import shlex

    return shown(shlex.quote(str(path)), 300)


# --- the standings ----------------------------------------------------------------------------


def _points(value: Amount, scoring: str) -> str:
    return fmt(value) if scoring == "places" else signed(value)


CORRECTED = "!"
"""Marks a round corrected after the next round was drawn (§4.5)."""


def absence_word(kind: str) -> str:
    words = {
        "late": pgettext("standings", "not yet entered"),
        "bye": pgettext("standings", "bye"),
        "withdrawn": pgettext("standings", "withdrawn"),
        "unread": pgettext("standings", "table unreadable"),
    }
    return words[kind]


def _seat_cell(seat: Seat | Absence, complete: bool, scoring: str) -> str:
    if isinstance(seat, Absence):
        if seat.kind == "withdrawn":
            return "—"
        return f"{_points(seat.points, scoring)} ({absence_word(seat.kind)})"
    mark = "" if complete else PLAYING
    return f"{_points(seat.points, scoring)}{mark}"


def _complete(s: Standings) -> dict[tuple[int, int], bool]:
    return {(tb.round, tb.number): tb.complete for r in s.rounds for tb in r}


def _cell(s: Standings, seat: Seat | Absence) -> str:
    if isinstance(seat, Absence):
        return _seat_cell(seat, True, s.tournament.scoring)
    return _seat_cell(seat, _complete(s)[(seat.round, seat.table)], s.tournament.scoring)


def _clubs(s: Standings) -> bool:
    return any(r.club for r in s.rows)


def standings_rows(s: Standings) -> list[list[str]]:
    """The standings as rows of cells (the first the header)."""
    t = s.tournament
    complete = _complete(s)
    corrected = {tb.round for tb in s.corrected()}
    clubs = _clubs(s)
    header = [_("place"), _("player")]
    if clubs:
        header.append(_("club"))
    header += [
        _("R{n}").format(n=k) + (CORRECTED if k in corrected else "")
        for k in range(1, s.after_round + 1)
    ]
    header += [_("points"), _("whists"), _("remises"), _("all-pass tricks"), _("misère tricks")]
    rows = [header]
    for row in s.rows:
        cells = [str(row.place), row.name]
        if clubs:
            cells.append(row.club or "")
        cells += [
            _seat_cell(
                seat,
                isinstance(seat, Absence) or complete[(seat.round, seat.table)],
                t.scoring,
            )
            for seat in row.rounds
        ]
        cells += [
            _points(row.points, t.scoring),
            signed(row.whists),
            str(row.remises),
            str(row.pass_tricks),
            str(row.misere_tricks),
        ]
        rows.append(cells)
    return rows


def standings_right(s: Standings) -> list[bool]:
    """Which columns of :func:`standings_rows` are numbers (aligned right)."""
    clubs = _clubs(s)
    return [True, False] + ([False] if clubs else []) + [True] * (s.after_round + 5)


def standings_title(s: Standings) -> str:
    t = s.tournament
    return _("Standings of “{name}” after round {round} of {rounds}").format(
        name=t.name, round=s.after_round, rounds=t.rounds
    )


def standings_notes(s: Standings) -> list[str]:
    """The lines under the standings: the tables still playing, the order of the ties."""
    lines = []
    playing = s.playing()
    if playing:
        lines.append(
            _("{mark} still playing, counted provisionally: {tables}").format(
                mark=PLAYING,
                tables="; ".join(
                    _("round {round} table {table} ({deals})").format(
                        round=tb.round, table=tb.number, deals=terms.deals(tb.deals)
                    )
                    for tb in playing
                ),
            )
        )
    for tb in s.over():
        lines.append(over_note(tb, folder=s.folder))
    lines += field_notes(s)
    lines += correction_notes(s)
    lines.append(
        _(
            "Ties: more raw whists, then fewer remises, fewer all-pass tricks, fewer misère tricks, then the seed."
        )
    )
    return lines


def over_mark(over: int) -> str:
    """The mark of a table that recorded deals beyond the round's: «1 deal over»."""
    return ngettext("{n} deal over", "{n} deals over", over).format(n=over)


def field_notes(s: Standings) -> list[str]:
    """The lines under the standings on the field: who withdrew, who entered late and
    what his missed rounds count, who had a bye and what it counts (§5.6)."""
    t = s.tournament
    lines = []
    rule = {"zero": _("zero"), "average": _("the round's average")}
    for row in s.rows:
        if row.withdrawn is not None and row.withdrawn <= s.after_round + 1:
            lines.append(
                _("{name} withdrew: he plays no more from round {round} on").format(
                    name=row.name, round=row.withdrawn
                )
            )
        if row.joined is not None:
            lines.append(
                _(
                    "{name} entered late, from round {round}: the rounds he missed count {rule}"
                ).format(name=row.name, round=row.joined, rule=rule[t.late])
            )
    for absent in s.absences():
        if absent.kind == "bye":
            lines.append(
                _("{name} had a bye in round {round}: it counts {rule}").format(
                    name=absent.name, round=absent.round, rule=rule[t.bye]
                )
            )
    return lines


def correction_notes(s: Standings) -> list[str]:
    """The lines under the standings on the rounds corrected after the next round was
    drawn: each correction with its table, time, reason and who made it."""
    return [
        correction_note(tb.round, c.table, c.time, c.reason, c.by)
        for tb in s.corrected()
        for c in tb.corrections
    ]


def correction_note(round_: int, table_: int, time: str, reason: str, by: str) -> str:
    return _(
        "{mark} round {round}, table {table} corrected after the next round was drawn ({time}, {by}): {reason}"
    ).format(
        mark=CORRECTED,
        round=round_,
        table=table_,
        time=local_time(time),
        by=by,
        reason=reason,
    )


def over_note(tb: Table, undo: str | None = None, folder: Path | None = None) -> str:
    """The line that says a table's deals beyond the round are set aside, and how to undo
    them (``undo``: how it is done where the line is read; by default the command that
    does it, to run as printed: ``prefcalc undo --file cup/r4-t2.json``, or once the next
    round is drawn the director's correction)."""
    # a one-deal round is said apart: a language's "one" form may also be 21's («с 1-й по 21-ю»)
    counts = (
        _("the round counts the table's first deal only")
        if tb.deals == 1
        else ngettext(
            "the round counts the table's first {deals} deal",
            "the round counts the table's first {deals} deals",
            tb.deals,
        ).format(deals=tb.deals)
    )
    if undo is None:
        path = tb.record.file if folder is None else str(folder / tb.record.file)
        if tb.sealed:
            undo = _(
                'prefcalc tournament correct {folder} --round {round} --table {table} undo --reason "…" undoes the last deal'
            ).format(
                folder=shell(folder if folder is not None else "."),
                round=tb.round,
                table=tb.number,
            )
        else:
            undo = _("prefcalc undo --file {file} undoes the last deal").format(file=shell(path))
    return _("round {round} table {table}: {over}, not counted: {counts} ({undo})").format(
        round=tb.round, table=tb.number, over=over_mark(tb.over), counts=counts, undo=undo
    )


def standings_text(s: Standings) -> str:
    t = s.tournament
    lines = [
        standings_title(s),
        _("points: {scoring}").format(scoring=scoring_name(t.scoring, t.per_deal)),
    ]
    lines += table(standings_rows(s), right=standings_right(s))
    lines.append("")
    lines += standings_notes(s)
    return "\n".join(lines)


def _round_json(
    seat: Seat | Absence,
    complete: dict[tuple[int, int], bool],
    over: dict[tuple[int, int], int],
) -> dict[str, Any]:
    if isinstance(seat, Absence):
        return {"round": seat.round, "absent": seat.kind, "points": exact(seat.points)}
    return {
        "round": seat.round,
        "table": seat.table,
        "points": exact(seat.points),
        "whists": exact(seat.result),
        "deals": seat.deals,
        "table_place": list(seat.place),
        "complete": complete[(seat.round, seat.table)],
        "over": over[(seat.round, seat.table)],
    }


def standings_json(s: Standings) -> dict[str, Any]:
    t = s.tournament
    complete = {(tb.round, tb.number): tb.complete for r in s.rounds for tb in r}
    over = {(tb.round, tb.number): tb.over for r in s.rounds for tb in r}
    return {
        "after_round": s.after_round,
        "rounds": t.rounds,
        "scoring": t.scoring,
        "per_deal": t.per_deal,
        "complete": s.complete,
        "corrected": [
            {
                "round": c.round,
                "table": c.table,
                "line": c.line,
                "reason": c.reason,
                "by": c.by,
                "time": c.time,
            }
            for tb in s.corrected()
            for c in tb.corrections
        ],
        "players": [
            {
                "place": row.place,
                "name": row.name,
                "club": row.club,
                "rating": row.rating,
                "points": exact(row.points),
                "whists": exact(row.whists),
                "remises": row.remises,
                "all_pass_tricks": row.pass_tricks,
                "misere_tricks": row.misere_tricks,
                "rounds": [_round_json(seat, complete, over) for seat in row.rounds],
                "joined": row.joined,
                "withdrawn": row.withdrawn,
            }
            for row in s.rows
        ],
    }


# --- the protocol ------------------------------------------------------------------------------


def _signed_int(n: int) -> str:
    return "=" if n == 0 else (f"+{n}" if n > 0 else f"{MINUS}{-n}")


def contract_cell(entry: Entry) -> str:
    """The contract and its result as the protocol writes them: ``6♠ / =``, ``8♥ / −1``,
    ``7♦ / +1``; a game both defenders passed ``7♦ / —``; a misère ``misère / =`` or
    ``misère / −2`` (two tricks taken); an all-pass deal ``all-pass``."""
    deal = entry.deal
    if isinstance(deal, Contract):
        label = terms.contract(deal.level, deal.suit)
        if deal.tricks is None:
            return f"{label} / —"
        tricks = counted(deal).tricks or 0  # after a trick lost for looking (§7)
        return f"{label} / {_signed_int(tricks - deal.level)}"
    if isinstance(deal, Misere):
        return f"{terms.misere()} / {_signed_int(-counted(deal).tricks)}"
    if isinstance(deal, AllPass):
        return terms.all_pass()
    if isinstance(deal, Adjustment):
        return pgettext("protocol", "adjustment")
    if isinstance(deal, Penalty):
        return pgettext("protocol", "penalty")
    if isinstance(deal, Preference):
        return pgettext("protocol", "Preference")
    return ""


def whists_cell(entry: Entry) -> str:
    """Who whisted: each defender's answer (``Boris whist 3, Vera pass``); an all-pass deal's
    tricks; an adjustment's note; other entries in words."""
    deal = entry.deal
    if isinstance(deal, Contract):
        alone = len(deal.defenders) == 1
        returned = (
            "; " + _("whist returned by {player}").format(player=deal.returned_by)
            if deal.returned_by is not None
            else ""
        )
        return (
            ", ".join(
                f"{d.player} {terms.role(d.role, alone)}"
                + (f" {d.tricks}" if d.tricks is not None else "")
                for d in deal.defenders
            )
            + returned
            + looked_text(deal)
        )
    if isinstance(deal, AllPass):
        return ", ".join(f"{name} {n}" for name, n in deal.tricks) + looked_text(deal)
    if isinstance(deal, Misere):
        return looked_text(deal).removeprefix("; ")
    if isinstance(deal, Adjustment):
        return f"{deal.player}: {deal.note}"
    return deal_text(entry)


def declarer_cell(entry: Entry) -> str:
    deal = entry.deal
    if isinstance(deal, Contract | Misere):
        return deal.declarer
    if isinstance(deal, Preference):
        return deal.player
    return ""


def place_text(place: tuple[int, int]) -> str:
    first, last = place
    return str(first) if first == last else f"{first}–{last}"


def when(stamp: str | None) -> str:
    return local_time(stamp) if stamp else "—"


def protocol_header(p: Protocol) -> list[str]:
    return [
        _("Protocol · {event}").format(event=p.event),
        _("round {round} of {rounds} · table {table} · {file}").format(
            round=p.round, rounds=p.rounds, table=p.table, file=p.file
        ),
        _("players in seat order: {players} · first dealer {dealer}").format(
            players=", ".join(p.players), dealer=p.dealer
        ),
        _("rules: {convention} · start {start} · end {end}").format(
            convention=terms.convention_name(p.convention),
            start=when(p.start),
            end=when(p.end) if p.complete else _("still playing"),
        ),
        *(
            [
                _("beyond the round ({over}): not counted, not in this protocol").format(
                    over=over_mark(p.over)
                )
            ]
            if p.over
            else []
        ),
    ]


def line_number(line: Line) -> str:
    """A protocol line's number: a deal's among the deals (``7``), a penalty's or an
    adjustment's among them (``P1``: not a deal), another entry none."""
    if line.deal is not None:
        return str(line.deal)
    if line.penalty is not None:
        return pgettext("protocol", "P{n}").format(n=line.penalty)
    return ""


def talon_cell(line: Line) -> str:
    """The talon's tricks and what was written for them: ``2 (Dima +16)``; ``1 (Boris +4,
    Vera +4)`` at three."""
    deal = line.entry.deal
    if not isinstance(deal, Contract) or not deal.talon:
        return ""
    wrote = ", ".join(f"{w.player} {signed(w.amount)}" for w in line.talon)
    return f"{deal.talon} ({wrote})" if wrote else str(deal.talon)


PROTOCOL_RIGHT = [True, False, False, False, False, False, False]
"""Which columns of :func:`deal_rows` are numbers (aligned right)."""

PROTOCOL_WRAP = 6
"""The column of :func:`deal_rows` that wraps (what every player wrote)."""


def deal_rows(p: Protocol) -> list[list[str]]:
    rows = [
        [
            _("deal"),
            _("dealer"),
            _("declarer"),
            _("contract / result"),
            _("whists"),
            _("talon"),
            _("written"),
        ]
    ]
    for line in p.lines:
        rows.append(
            [
                line_number(line),
                line.entry.dealer or "",
                declarer_cell(line.entry),
                contract_cell(line.entry),
                whists_cell(line.entry),
                talon_cell(line),
                writes_text(line.writes),
            ]
        )
    return rows


def protocol_corrections(p: Protocol) -> list[str]:
    """The director's corrections of the table, one line each (they are signed with it)."""
    return [
        _("corrected on the record ({time}, {by}): {line} — {reason}").format(
            time=local_time(c.time), by=c.by, line=c.line, reason=c.reason
        )
        for c in p.corrections
    ]


def footer_rows(p: Protocol) -> list[list[str]]:
    rows = [
        [
            _("player"),
            terms.column("pool"),
            terms.column("mountain"),
            terms.column("whists"),
            _("result"),
            _("place"),
            _("points"),
        ]
    ]
    for f in p.footer:
        rows.append(
            [
                f.name,
                fmt(f.pool),
                fmt(f.mountain),
                fmt(f.whists),
                signed(f.result),
                place_text(f.place),
                _points(f.points, p.scoring),
            ]
        )
    return rows


def protocol_text(p: Protocol) -> str:
    lines = protocol_header(p)
    lines.append("")
    if p.lines:
        lines += table(deal_rows(p), right=PROTOCOL_RIGHT)
    else:
        lines.append(_("no deals recorded yet"))
    lines.append("")
    lines += table(footer_rows(p), right=[False, True, True, True, True, True, True])
    if p.corrections:
        lines.append("")
        lines += protocol_corrections(p)
    lines.append("")
    lines.append(_("signatures:"))
    lines += [f"  {name}: ________" for name in p.players]
    lines.append("  " + _("judge: ________"))
    return "\n".join(lines)


def close_text(round_: int, table_: int, deals: int, reopened: bool) -> str:
    if reopened:
        return ngettext(
            "round {round}, table {table} is open again ({n} deal played)",
            "round {round}, table {table} is open again ({n} deals played)",
            deals,
        ).format(round=round_, table=table_, n=deals)
    return ngettext(
        "round {round}, table {table} closed: {n} deal played",
        "round {round}, table {table} closed: {n} deals played",
        deals,
    ).format(round=round_, table=table_, n=deals)


# --- the penalty log ------------------------------------------------------------------------


def writes_text(writes: Sequence[Write]) -> str:
    """What an entry wrote: ``Anna: +5 mountain``."""
    return "; ".join(
        f"{w.player}: {signed(w.amount)} "
        + (terms.whists_on(w.on) if w.column == "whists" and w.on else terms.column(w.column))
        for w in writes
    )


def penalty_rows(penalties: Sequence[PenaltyLine]) -> list[list[str]]:
    rows = [[_("round"), _("table"), _("entry"), _("player"), _("what"), _("written")]]
    for p in penalties:
        rows.append(
            [
                str(p.round),
                str(p.table),
                str(p.number),
                p.player,
                whists_cell(p.entry)
                if isinstance(p.entry.deal, Adjustment)
                else deal_text(p.entry),
                writes_text(p.writes),
            ]
        )
    return rows


# --- the round matrix ---------------------------------------------------------------------------


def table_state(tb: Table) -> str:
    deals = terms.deals(tb.deals)
    if tb.over:
        deals = f"{deals}, {over_mark(tb.over)}"
    if tb.complete:
        return _("complete ({deals})").format(deals=deals)
    return _("playing ({deals})").format(deals=deals)


def round_rows(s: Standings) -> list[list[str]]:
    """Every table of every round: its players in seat order with their result, points and
    place at the table."""
    scoring = s.tournament.scoring
    rows = [[_("round"), _("table"), _("state"), _("players: result (points, place)")]]
    for tables in s.rounds:
        for tb in tables:
            cells = "; ".join(
                f"{p} {signed(tb.seats[p].result)} "
                f"({_points(tb.seats[p].points, scoring)}, {place_text(tb.seats[p].place)})"
                for p in tb.players
            )
            rows.append([str(tb.round), str(tb.number), table_state(tb), cells])
    return rows


def met_rows(s: Standings) -> list[list[str]]:
    """Who met whom: every player (in the order of the standings) with the players he
    shared a table with and the rounds they met in."""
    rows = [[_("player"), _("met (rounds)")]]
    for row in s.rows:
        met: dict[str, list[int]] = {}
        for tables in s.rounds:
            for tb in tables:
                if row.name in tb.seats:
                    for other in tb.players:
                        if other != row.name:
                            met.setdefault(other, []).append(tb.round)
        rows.append(
            [
                row.name,
                ", ".join(
                    f"{other} ({', '.join(map(str, rounds))})" for other, rounds in met.items()
                ),
            ]
        )
    return rows


# --- the director's commands --------------------------------------------------------------------


def withdraw_text(change: FieldChange) -> str:
    if change.removed:
        return _("{name} is taken off the field: he has played no round").format(
            name=change.player.name
        )
    return _(
        "{name} withdraws: round {round} and the rounds after it are drawn without him; his rounds played stay in the standings"
    ).format(name=change.player.name, round=change.round)


def add_text(change: FieldChange, late: str) -> str:
    name = change.player.name
    if change.round == 1:
        return _("{name} is registered: he plays from round 1").format(name=name)
    rule = {"zero": _("zero"), "average": _("the round's average")}[late]
    return ngettext(
        "{name} enters late: he plays from round {round}; the round he missed counts {rule}",
        "{name} enters late: he plays from round {round}; the rounds he missed count {rule}",
        change.round - 1,
    ).format(name=name, round=change.round, rule=rule)


def correct_text(done: Corrected) -> str:
    from prefcalc.commands import Result
    from prefcalc.views.results import cli_result_text

    c = done.record
    lines = []
    if isinstance(done.result, Result):
        lines.append(cli_result_text(done.result))
    lines.append(
        _("round {round}, table {table} corrected on the record ({time}, {by}): {reason}").format(
            round=c.round, table=c.table, time=local_time(c.time), by=c.by, reason=c.reason
        )
    )
    for effect in done.effects:
        if effect.differs is None:
            lines.append(
                _(
                    "the standings round {round} was drawn from are unchanged: its draw stands"
                ).format(round=effect.round)
            )
            continue
        moves = ", ".join(f"{name} {a} → {b}" for name, a, b in effect.moved[:8])
        more = len(effect.moved) - 8
        if more > 0:
            moves += ngettext(" and {n} more", " and {n} more", more).format(n=more)
        lines.append(
            _("the standings round {round} was drawn from changed: {moves}").format(
                round=effect.round, moves=moves
            )
        )
        lines.append(
            _("round {round} would have been drawn differently").format(round=effect.round)
            if effect.differs
            else _("round {round} would have been drawn the same").format(round=effect.round)
        )
    return "\n".join(lines)
