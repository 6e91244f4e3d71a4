"""The ledger's text: a game written one deal per line (:func:`game_to_json_text`), and read
back without a model when this program wrote it (:func:`trusted_game`).

The header (every field but the deals) is indented JSON, then each deal is one line of JSON,
so the file stays readable and diffs well. A file this program wrote is read by the inverse
of the writer: accepted only if it is laid out exactly as the writer lays it out (the header
as the writer writes it for the game read back, then one deal per line); anything else is
None here, and the caller validates the file in full (:mod:`prefcalc.store.validate`).
"""

from __future__ import annotations

import json
import operator
import re
from functools import partial
from typing import Any, assert_never

from prefcalc.errors import PrefcalcError
from prefcalc.perf import gc_paused
from prefcalc.rules.amounts import Amount, exact_text, norm, to_amount
from prefcalc.rules.conventions import to_jsonable
from prefcalc.rules.model import (
    Adjustment,
    AllPass,
    Contract,
    ConventionRef,
    Deal,
    Defender,
    Entry,
    Game,
    Join,
    Misere,
    Penalty,
    Preference,
    SetTerm,
    Suit,
    check_currency,
)
from prefcalc.rules.notation import parse_contract
from prefcalc.store import LEDGER_SCHEMA, written

# --- record -> JSON ---------------------------------------------------------------------------


def _amount_json(value: Amount) -> int | str:
    value = norm(value)
    return value if isinstance(value, int) else exact_text(value)


def deal_to_json(entry: Entry) -> dict[str, Any]:
    deal = entry.deal
    out: dict[str, Any] = {"time": entry.time}
    if entry.dealer is not None:
        out["dealer"] = entry.dealer
    if isinstance(deal, Contract):
        defenders: list[dict[str, Any]] = []
        for d in deal.defenders:
            item: dict[str, Any] = {"player": d.player, "role": d.role}
            if d.tricks is not None:
                item["tricks"] = d.tricks
            defenders.append(item)
        out.update(
            kind="contract",
            declarer=deal.declarer,
            contract=f"{deal.level}{deal.suit}",
            tricks=deal.tricks,
            defenders=defenders,
        )
        _classic_json(deal, out)
    elif isinstance(deal, Misere):
        out.update(kind="misere", declarer=deal.declarer, tricks=deal.tricks)
        _classic_json(deal, out)
    elif isinstance(deal, AllPass):
        out.update(kind="passes", tricks=dict(deal.tricks))
        if deal.blind:
            out["blind"] = list(deal.blind)
        if deal.looked:
            out["looked"] = list(deal.looked)
    elif isinstance(deal, SetTerm):
        out.update(kind="set", key=deal.key, value=_amount_json(deal.value))
    elif isinstance(deal, Adjustment):
        out.update(kind="adjust", player=deal.player)
        if deal.pool:
            out["pool"] = _amount_json(deal.pool)
        if deal.mountain:
            out["mountain"] = _amount_json(deal.mountain)
        if deal.whists:
            out["whists"] = {other: _amount_json(amount) for other, amount in deal.whists}
        out["note"] = deal.note
    elif isinstance(deal, Penalty):
        out.update(kind="penalty", player=deal.player, offence=deal.offence)
        if deal.level is not None and deal.suit is not None:
            out["contract"] = f"{deal.level}{deal.suit}"
        out["amount"] = _amount_json(deal.amount)
        if deal.on is not None:
            out["on"] = deal.on
    elif isinstance(deal, Preference):
        out.update(kind="preference", player=deal.player)
    elif isinstance(deal, Join):
        out.update(kind="join", player=deal.player)
        if deal.after is not None:
            out["after"] = deal.after
    else:
        assert_never(deal)
    if entry.forced:
        out["forced"] = True
    return out


def _classic_json(deal: Contract | Misere, out: dict[str, Any]) -> None:
    """The Classic fields of a game or misère (docs/rules.md §8.1), written only when set."""
    if deal.dark:
        out["dark"] = True
    if deal.no_talon:
        out["no_talon"] = True
    if deal.bomb is not None:
        out["bomb"] = deal.bomb
    if isinstance(deal, Contract):
        if deal.talon is not None:
            out["talon"] = deal.talon
        if deal.returned_by is not None:
            out["returned_by"] = deal.returned_by
    if deal.looked:
        out["looked"] = list(deal.looked)


_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(..., ensure_ascii=False)


def _deal_line(entry: Entry) -> str:
    """The one-line JSON of an entry."""
    return _encode(deal_to_json(entry))


_DEALS = ',\n  "deals": [\n    '
"""What follows the header when the game has deals; they are separated by :data:`_NEXT`
and followed by :data:`_END`."""
_NEXT = ",\n    "
_END = "\n  ]\n}\n"
_NO_DEALS = ',\n  "deals": []\n}\n'


def game_to_json_text(game: Game) -> str:
    """The ledger text: the game's header indented, then one deal per line.

    An entry is an immutable value, so the very object that was written (or read from a
    file this program wrote) before has the same line: recording a deal into a game of 500
    encodes one deal, not 501 (a command, a long session, ``serve``, the digests of undo and
    redo). The text of a game that is the last one made (or read) with deals appended is
    that text with their lines spliced in: recording into a night of 10,000 deals encodes
    the new deal and copies the rest (:mod:`prefcalc.store.written` keeps them)."""
    head = _header_text(game)
    entries = game.entries
    last = written.last_text()
    if last is not None and last[0] == head and 0 < len(last[1]) <= len(entries):
        known = len(last[1])
        if all(map(operator.is_, entries[:known], last[1])):  # the very same entries
            new = written.lines(entries[known:], _deal_line, keep=True)
            text = last[2][: -len(_END)] + "".join(_NEXT + line for line in new) + _END
            written.keep_text(head, entries, text)
            return text
    if not entries:
        text = head + _NO_DEALS
    else:
        text = head + _DEALS + _NEXT.join(written.lines(entries, _deal_line)) + _END
    written.keep_text(head, entries, text)
    return text


def _header_text(game: Game) -> str:
    """The ledger text up to its deals: every field but the deals, indented."""
    ref = game.convention
    convention: dict[str, Any] = {}
    if ref.name:
        convention["name"] = ref.name
    convention["preset"] = ref.preset
    convention["options"] = {k: to_jsonable(v) for k, v in ref.options.items()}
    header: dict[str, Any] = {
        "schema": LEDGER_SCHEMA,
        "created": game.created,
        "players": list(game.players),
        "first_dealer": game.first_dealer,
        "target": game.target,
        "whist_price": _amount_json(game.whist_price),
        "currency": game.currency,
        "convention": convention,
        **({"lang": game.lang} if game.lang else {}),
        **({"genders": dict(game.genders)} if game.genders else {}),
    }
    return json.dumps(header, ensure_ascii=False, indent=2)[:-2]


# --- JSON -> record ---------------------------------------------------------------------------


def trusted_game(raw: bytes) -> Game | None:
    """The game whose ledger text is exactly ``raw``, read without validation (the caller
    knows these bytes were valid: :mod:`prefcalc.store.trusted`), or None when they are not
    laid out as the writer lays them out (then they are validated in full). Each entry is
    kept with its line (:mod:`prefcalc.store.written`)."""
    try:
        text = raw.decode("utf-8")
        if text.endswith(_NO_DEALS):
            head, body = text[: -len(_NO_DEALS)], ""
        else:
            cut = text.find(_DEALS)
            if cut < 0 or not text.endswith(_END):
                return None
            head, body = text[:cut], text[cut + len(_DEALS) : -len(_END)]
        with gc_paused():  # thousands of small values, none in a cycle: never scanned
            game = _game_from_text(json.loads(head + "\n}"), body)
        if _header_text(game) != head:
            return None
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError, PrefcalcError):
        return None
    written.read_as_text(game.entries, body, _NEXT, text, head)
    return game


_CONTRACTS: dict[str, tuple[int, Suit]] = {}
"""``"7h"`` -> ``(7, "h")``, filled as contracts are read (one value per key: a thread that
fills one at the same time as another writes the same)."""


_STRING = r'((?:[^"\\\n]++|\\.)*+)'  # a JSON string's body, escapes and all (one line)
_LINE = re.compile(
    r'\{"time": "([^"\\\n]*+)"'  # the time, as the writer writes it (no escape in it)
    r'(?:, "dealer": "' + _STRING + r'")?'
    r'(, "kind": [^\n]*\})'  # the deal's fields, to the end of the line
    r"(?:,\n    |\Z)"  # then the next line, or the end of the deals
)
"""A deal's line as the writer writes it (:data:`_NEXT` after every one but the last)."""
_make_entry = partial(tuple.__new__, Entry)  # an entry made without its keyword-reading __new__


def _game_from_text(d: dict[str, Any], body: str) -> Game:
    """The inverse of :func:`game_to_json_text` (schema 2 as this program writes it): ``d``,
    its header, and ``body``, the lines of its deals. A line is read as the writer writes
    it: its time, its dealer, then the deal's fields (the kind first, the forced mark last),
    and the lines must cover the body exactly. A deal whose fields are written the same way
    as an earlier one's (whatever its time and dealer) is the same value, built once: the
    fields of a night's distinct deals are parsed together, once, and the entries are made
    at C speed (a night of 10,000 deals is read in some 20 ms)."""
    if d["schema"] != LEDGER_SCHEMA:
        raise ValueError("another schema")
    conv = d["convention"]
    found = _LINE.findall(body)
    count = len(found)
    times, dealers, fields = zip(*found, strict=True) if found else ((), (), ())
    dealt = count - dealers.count("")  # a dealer's name is never empty: "" is no dealer
    # every line as laid out: '{"time": "' time '"' [', "dealer": "' dealer '"'] fields, then
    # _NEXT but after the last: the lines cover the body only if they are all there is
    laid = 11 * count + 14 * dealt + 6 * max(count - 1, 0)
    laid += sum(map(len, times)) + sum(map(len, dealers)) + sum(map(len, fields))
    if laid != len(body):
        raise ValueError("not one deal per line as the writer writes them")
    distinct = dict.fromkeys(fields)
    parsed = json.loads("[{" + ",{".join(f[2:] for f in distinct) + "]") if distinct else []
    if len(parsed) != len(distinct):
        raise ValueError("a deal's fields spill over")
    deals = {f: _deal_from_text(x) for f, x in zip(distinct, parsed, strict=True)}
    forced = {f: x.get("forced", False) is True for f, x in zip(distinct, parsed, strict=True)}
    names: dict[str, str | None] = {n: json.loads(f'"{n}"') for n in dict.fromkeys(dealers)}
    names[""] = None
    entries = tuple(
        map(
            _make_entry,
            zip(
                map(deals.__getitem__, fields),
                map(names.__getitem__, dealers),
                times,
                map(forced.__getitem__, fields),
                strict=True,
            ),
        )
    )
    return Game(
        players=tuple(d["players"]),
        convention=ConventionRef(conv["preset"], conv["options"], conv.get("name")),
        target=d["target"],
        first_dealer=d["first_dealer"],
        whist_price=to_amount(d["whist_price"]),
        currency=check_currency(d["currency"]),
        created=d["created"],
        entries=entries,
        lang=d.get("lang", ""),
        genders=tuple(d.get("genders", {}).items()),
    )


def _deal_from_text(x: dict[str, Any]) -> Deal:
    """The inverse of :func:`deal_to_json`."""
    kind = x["kind"]
    if kind == "contract":
        known = _CONTRACTS.get(x["contract"])
        if known is None:
            known = _CONTRACTS[x["contract"]] = parse_contract(x["contract"])
        defenders = tuple(
            [Defender(d["player"], d["role"], d.get("tricks")) for d in x["defenders"]]
        )
        get = x.get
        return Contract(
            x["declarer"],
            known[0],
            known[1],
            x["tricks"],
            defenders,
            get("dark", False),
            get("no_talon", False),
            get("bomb"),
            get("talon"),
            get("returned_by"),
            tuple(get("looked", ())),
        )
    if kind == "passes":
        return AllPass(
            tuple(x["tricks"].items()), tuple(x.get("blind", ())), tuple(x.get("looked", ()))
        )
    if kind == "misere":
        return Misere(
            x["declarer"],
            x["tricks"],
            x.get("dark", False),
            x.get("no_talon", False),
            x.get("bomb"),
            tuple(x.get("looked", ())),
        )
    if kind == "penalty":
        level: int | None = None
        suit: Suit | None = None
        if "contract" in x:
            level, suit = parse_contract(x["contract"])
        return Penalty(
            x["player"], x["offence"], norm(to_amount(x["amount"])), level, suit, x.get("on")
        )
    if kind == "adjust":
        whists = tuple((k, to_amount(v)) for k, v in x.get("whists", {}).items())
        pool, mountain = to_amount(x.get("pool", 0)), to_amount(x.get("mountain", 0))
        return Adjustment(x["player"], pool, mountain, whists, x["note"])
    if kind == "set":
        return SetTerm(x["key"], norm(to_amount(x["value"])))
    if kind == "preference":
        return Preference(x["player"])
    if kind == "join":
        return Join(x["player"], x.get("after"))
    raise ValueError(f"unknown kind {kind!r}")
