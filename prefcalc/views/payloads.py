"""The JSON payloads of the views: the sheet (``show --json``), the log (``log --json``) and the
settlement (``settle --json``), served as they are by ``prefcalc serve``'s API and the app's
engine. Numbers are exact (:func:`prefcalc.rules.amounts.to_json_number`); money is rounded to
the currency's unit.
"""

from __future__ import annotations

from typing import Any

from prefcalc.rules.amounts import to_json_number
from prefcalc.rules.model import Game, deal_count
from prefcalc.rules.scoring import Sheet
from prefcalc.rules.settlement import Settlement, minor_unit, to_decimal


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
