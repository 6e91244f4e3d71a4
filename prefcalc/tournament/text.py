"""Text and JSON views of a tournament: the new tournament, a round's draw, the standings,
a table's protocol, in the language in use.

JSON keeps English keys in every language, and gives every exact number (points, whists) as
its exact text, a string: ``"230"``, ``"-50/3"``, ``"2.5"`` (the ledger's way of writing an
exact amount), so nothing is lost to a float.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
from prefcalc.tournament.model import RoundRecord, TournamentFile
from prefcalc.tournament.plans import plan
from prefcalc.tournament.protocol import PenaltyLine, Protocol
from prefcalc.tournament.standings import Seat, Standings, Table
from prefcalc.views.log import deal_text, looked_text
from prefcalc.views.numbers import MINUS
from prefcalc.views.numbers import number as fmt
from prefcalc.views.text_kit import local_time, signed, table

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
        _("folder: {folder}").format(folder=path_text(base)),
        _("next: prefcalc tournament draw {folder}").format(folder=path_text(base)),
    ]
    return "\n".join(lines)


# --- the draw -----------------------------------------------------------------------------------


def draw_json(draw: RoundRecord, base: Path) -> dict[str, Any]:
    return {
        "round": draw.round,
        "tables": [
            {
                "table": tb.table,
                "players": list(tb.players),
                "dealer": tb.dealer,
                "file": str(base / tb.file),
            }
            for tb in draw.tables
        ],
    }


def draw_text(draw: RoundRecord, base: Path, repeated: int | None = None) -> str:
    lines = [_("Round {round}:").format(round=draw.round)]
    rows = [[_("table"), _("players (in seat order)"), _("first dealer"), _("file")]]
    for tb in draw.tables:
        rows.append([str(tb.table), ", ".join(tb.players), tb.dealer, path_text(base / tb.file)])
    lines += table(rows, right=[True, False, False, False])
    if repeated:
        lines.append(
            ngettext(
                "{n} pair of players meets again (no seating avoids it)",
                "{n} pairs of players meet again (no seating avoids it)",
                repeated,
            ).format(n=repeated)
        )
    lines.append(
        _("record each table's deals on its file: prefcalc game ... --file {file}").format(
            file=path_text(base / draw.tables[0].file)
        )
    )
    return "\n".join(lines)


# --- the standings ----------------------------------------------------------------------------


def _points(value: Amount, scoring: str) -> str:
    return fmt(value) if scoring == "places" else signed(value)


def _seat_cell(seat: Seat, complete: bool, scoring: str) -> str:
    mark = "" if complete else PLAYING
    return f"{_points(seat.points, scoring)}{mark}"


def _clubs(s: Standings) -> bool:
    return any(r.club for r in s.rows)


def standings_rows(s: Standings) -> list[list[str]]:
    """The standings as rows of cells (the first the header)."""
    t = s.tournament
    complete = {(tb.round, tb.number): tb.complete for r in s.rounds for tb in r}
    clubs = _clubs(s)
    header = [_("place"), _("player")]
    if clubs:
        header.append(_("club"))
    header += [_("R{n}").format(n=k) for k in range(1, s.after_round + 1)]
    header += [_("points"), _("whists"), _("remises"), _("all-pass tricks"), _("misère tricks")]
    rows = [header]
    for row in s.rows:
        cells = [str(row.place), row.name]
        if clubs:
            cells.append(row.club or "")
        cells += [
            _seat_cell(seat, complete[(seat.round, seat.table)], t.scoring) for seat in row.rounds
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
        lines.append(over_note(tb))
    lines.append(
        _(
            "Ties: more raw whists, then fewer remises, fewer all-pass tricks, fewer misère tricks, then the seed."
        )
    )
    return lines


def over_mark(over: int) -> str:
    """The mark of a table that recorded deals beyond the round's: «1 deal over»."""
    return ngettext("{n} deal over", "{n} deals over", over).format(n=over)


def over_note(tb: Table, undo: str | None = None) -> str:
    """The line that says a table's deals beyond the round are set aside, and how to undo
    them (``undo``: how it is done where the line is read; the CLI's command by default)."""
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
        undo = _("prefcalc undo --file {file} undoes the last deal").format(file=tb.record.file)
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
                "rounds": [
                    {
                        "round": seat.round,
                        "table": seat.table,
                        "points": exact(seat.points),
                        "whists": exact(seat.result),
                        "deals": seat.deals,
                        "table_place": list(seat.place),
                        "complete": complete[(seat.round, seat.table)],
                        "over": over[(seat.round, seat.table)],
                    }
                    for seat in row.rounds
                ],
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
        return ", ".join(
            f"{d.player} {terms.role(d.role, alone)}"
            + (f" {d.tricks}" if d.tricks is not None else "")
            for d in deal.defenders
        ) + looked_text(deal)
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


def deal_rows(p: Protocol) -> list[list[str]]:
    rows = [[_("deal"), _("dealer"), _("declarer"), _("contract / result"), _("whists")]]
    for line in p.lines:
        rows.append(
            [
                str(line.number),
                line.entry.dealer or "",
                declarer_cell(line.entry),
                contract_cell(line.entry),
                whists_cell(line.entry),
            ]
        )
    return rows


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
        lines += table(deal_rows(p), right=[True, False, False, False, False])
    else:
        lines.append(_("no deals recorded yet"))
    lines.append("")
    lines += table(footer_rows(p), right=[False, True, True, True, True, True, True])
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
