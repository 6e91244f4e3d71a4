"""Text and JSON views of the club's history (:mod:`prefcalc.history.club`) and of the short
summary ``prefcalc share`` prints for the group chat.

Whists in JSON are exact, as the ledger writes amounts: an int when whole, else the exact
text (``"50/3"``, ``"2.5"``); money is a number with the currency's decimals, as in
``prefcalc settle --json``.
"""

from __future__ import annotations

from typing import Any

from prefcalc import terms
from prefcalc.errors import shown
from prefcalc.history.club import LEVELS, History, Night, Standing, best_contract
from prefcalc.history.ratings import Rating
from prefcalc.i18n import _, language, ngettext
from prefcalc.report import Report
from prefcalc.rules.amounts import Amount, exact_text, norm
from prefcalc.rules.settlement import minor_unit, to_decimal
from prefcalc.views.numbers import day
from prefcalc.views.numbers import number as fmt
from prefcalc.views.text_kit import money_text, signed, table


def exact_json(value: Amount) -> int | str:
    """An exact amount for JSON: an int when whole, else its exact text (``"50/3"``)."""
    value = norm(value)
    return value if isinstance(value, int) else exact_text(value)


def money_json(value: Amount, currency: str) -> float:
    return float(to_decimal(value, minor_unit(currency)))


def money_cells(money: dict[str, Amount]) -> str:
    several = len(money) > 1
    parts = [
        money_text(v, c) + (" (" + _("no currency") + ")" if several and not c else "")
        for c, v in sorted(money.items())
    ]
    return ", ".join(parts) or "0"


def _night_label(night: Night) -> str:
    return f"{_date(night.date)} ({_file_name(night.file)})"


def _date(stamp: str) -> str:
    """A night's date: ``2025-11-14`` / ``14 ноября 2025``; ``no date`` when unknown."""
    if not stamp[:10]:
        return _("no date")
    if language() == "en":
        return stamp[:10]
    return day(stamp[:10])


def _file_name(path: str) -> str:
    """The file's name for a table cell: control characters escaped, long names cut."""
    return shown(path.rsplit("/", 1)[-1], 60)


def history_text(h: History) -> str:
    if not h.games:
        return _("no games found")
    n = len(h.games)
    lines = [ngettext("{n} game:", "{n} games:", n).format(n=n)]
    rows = [
        [
            _("date"),
            _("players"),
            _("convention"),
            _("deals"),
            _("state"),
            _("result (whists, money)"),
            _("file"),
        ]
    ]
    for night in h.games:
        result = ", ".join(
            f"{p} {signed(night.result[p])} ({money_text(night.money[p], night.currency)})"
            for p in night.players
        )
        rows.append(
            [
                _date(night.date),
                ", ".join(night.players),
                terms.convention_name(night.convention),
                str(night.deals),
                _("finished") if night.finished else _("stopped early"),
                result,
                _file_name(night.file),
            ]
        )
    lines += table(rows, right=[False, False, False, True, False, False, False])
    lines.append("")
    lines.append(
        _("Standings (pairwise settlement, exact; a game stopped early counts provisionally):")
    )
    rows = [
        [
            _("player"),
            _("games"),
            terms.column("whists"),
            _("money"),
            _("wins"),
            _("best night"),
            _("worst night"),
        ]
    ]
    for s in h.players:
        rows.append(
            [
                s.name,
                str(s.games),
                signed(s.whists),
                money_cells(s.money),
                str(s.wins),
                f"{signed(s.best[0])} {_night_label(s.best[1])}" if s.best else "",
                f"{signed(s.worst[0])} {_night_label(s.worst[1])}" if s.worst else "",
            ]
        )
    lines += table(rows, right=[False, True, True, True, True, False, False])
    lines.append("")
    lines.append(_("Play:"))
    rows = [
        [
            _("player"),
            _("contracts made/declared"),
            *(f"{lv}" for lv in LEVELS),
            _("misères made/failed"),
            _("whists written/received"),
            _("all-pass deals"),
            _("all-pass tricks"),
        ]
    ]
    for s in h.players:
        rows.append(
            [
                s.name,
                f"{s.contracts_made}/{s.contracts_declared}",
                *(f"{s.made.get(lv, 0)}/{s.declared.get(lv, 0)}" for lv in LEVELS),
                f"{s.misere_made}/{s.misere_failed}",
                f"{fmt(s.written)}/{fmt(s.received)}",
                str(s.passes),
                str(s.passes_tricks),
            ]
        )
    lines += table(rows)
    if h.ratings is not None:
        lines.append("")
        lines += ratings_lines(h.ratings)
    return "\n".join(lines)


def ratings_rows(ratings: list[Rating]) -> list[list[str]]:
    """The table of ``history --ratings`` (its header first): place, player, the rating to a
    whole point, the games rated, the last game's change (the text and the PDF show it)."""
    rows = [[_("place"), _("player"), _("rating"), _("games"), _("last game")]]
    for k, r in enumerate(ratings, 1):
        rows.append([str(k), r.name, fmt(round(r.rating)), str(r.games), _change(r.change)])
    return rows


def ratings_lines(ratings: list[Rating]) -> list[str]:
    """``history --ratings``: the pairwise Elo ratings, best first."""
    lines = [_("Ratings (pairwise Elo over the games in date order, from 1500):")]
    lines += table(ratings_rows(ratings), right=[True, False, True, True, True])
    return lines


def _change(value: float) -> str:
    """A rating's change to a tenth: ``+8.0``, ``-2.7`` (Russian: ``+8,0``, ``−2,7``)."""
    text = f"{round(value, 1) + 0.0:+.1f}"
    if language() == "ru":
        from prefcalc.views.numbers import MINUS

        text = text.replace(".", ",").replace("-", MINUS)
    return text


def ratings_json(ratings: list[Rating]) -> list[dict[str, Any]]:
    return [
        {
            "name": r.name,
            "rating": round(r.rating, 2),
            "games": r.games,
            "last_change": round(r.change, 2),
        }
        for r in ratings
    ]


def _night_ref(value: Amount, night: Night) -> dict[str, Any]:
    return {"whists": exact_json(value), "file": night.file, "date": night.date}


def standing_json(s: Standing) -> dict[str, Any]:
    return {
        "name": s.name,
        "games": s.games,
        "whists": exact_json(s.whists),
        "money": {c: money_json(v, c) for c, v in sorted(s.money.items())},
        "wins": s.wins,
        "provisional_games": s.unfinished,
        "best": _night_ref(*s.best) if s.best else None,
        "worst": _night_ref(*s.worst) if s.worst else None,
        "contracts": {
            str(lv): {"declared": s.declared.get(lv, 0), "made": s.made.get(lv, 0)} for lv in LEVELS
        },
        "contracts_declared": s.contracts_declared,
        "contracts_made": s.contracts_made,
        "misere": {"made": s.misere_made, "failed": s.misere_failed},
        "whists_written": exact_json(s.written),
        "whists_received": exact_json(s.received),
        "all_pass": {"deals": s.passes, "tricks": s.passes_tricks},
    }


def history_json(h: History) -> dict[str, Any]:
    return {
        "games": [
            {
                "file": n.file,
                "date": n.date,
                "players": list(n.players),
                "convention": n.convention,
                "deals": n.deals,
                "finished": n.finished,
                "currency": n.currency,
                "result": {p: exact_json(n.result[p]) for p in n.players},
                "money": {p: money_json(n.money[p], n.currency) for p in n.players},
            }
            for n in h.games
        ],
        "players": [standing_json(s) for s in h.players],
        **({"ratings": ratings_json(h.ratings)} if h.ratings is not None else {}),
    }


# --- prefcalc share -------------------------------------------------------------------------------


def share_text(report: Report) -> str:
    """A few lines for the group chat: standings, payments (the report's pairwise exact
    settlement) and the night's best contract."""
    from prefcalc.views.log import deal_text

    game, s = report.game, report.pairwise
    n = report.deals
    state = (
        _("final")
        if report.finished
        else ngettext("provisional, {n} deals so far", "provisional, {n} deals so far", n).format(
            n=n
        )
    )
    day = _date(game.created) if game.created[:10] else _("tonight")
    name = terms.convention_name(report.convention.name)
    lines = [
        _("Preference {day} · {convention} · {state}").format(day=day, convention=name, state=state)
    ]
    order = sorted(s.players, key=lambda p: (-s.whists[p], s.players.index(p)))
    for rank, p in enumerate(order, 1):
        lines.append(f"{rank}. {p} {signed(s.whists[p])} ({money_text(s.money[p], s.currency)})")
    if s.payments:
        lines.append(
            _("Pay: {payments}").format(
                payments="; ".join(
                    f"{x.payer} → {x.payee} {money_text(x.amount, s.currency)}" for x in s.payments
                )
            )
        )
    else:
        lines.append(_("Nobody owes anything."))
    best = best_contract(game)
    if best is not None:
        number, _kind = best
        lines.append(
            _("Best contract: {deal} (deal {number})").format(
                deal=deal_text(game.entries[number - 1]), number=number
            )
        )
    return "\n".join(lines)
