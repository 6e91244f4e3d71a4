"""A ledger nobody vouches for: parsed by its pydantic models and judged deal by deal.

This is the validation path of :mod:`prefcalc.store.ledger` (a file this program did not
write, or one it cannot vouch for): it alone imports the ledger's models
(:mod:`prefcalc.store.schemas`), so a command that reads a ledger this program wrote builds
none. A refusal is one :class:`~prefcalc.errors.LedgerError` naming the field and the deal.
"""

import re
from collections.abc import Callable
from pathlib import Path
from typing import assert_never

from pydantic import ValidationError

from prefcalc.errors import DealError, LedgerError, PrefcalcError, shown
from prefcalc.i18n import N_, _
from prefcalc.perf import gc_paused
from prefcalc.rules.amounts import norm
from prefcalc.rules.legality import problems
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
    check_players,
    joined,
)
from prefcalc.rules.notation import parse_contract
from prefcalc.rules.options import first_error
from prefcalc.store import LEDGER_SCHEMA, files
from prefcalc.store.conventions import resolve
from prefcalc.store.schemas import (
    AdjustRecord,
    ContractRecord,
    DealRecord,
    JoinRecord,
    LedgerFile,
    MisereRecord,
    PassesRecord,
    PenaltyRecord,
    PreferenceRecord,
    SetRecord,
    quoted_value,
)


def game_from_bytes(raw: bytes, path: str = "<ledger>") -> Game:
    """Parse and validate a ledger file's bytes in one pass (a UTF-8 BOM is allowed)."""
    if raw.startswith(files.BOM):
        raw = raw[len(files.BOM) :]
    with gc_paused():
        try:
            model = LedgerFile.model_validate_json(raw)
        except ValidationError as exc:
            if exc.errors()[0]["type"] == "json_invalid":
                if not raw or raw.isspace():  # no text: pydantic says it breaks off at column 0
                    raise LedgerError(_("the file is empty"), path) from None
                files.decode_text(raw, N_("the ledger"), Path(path), LedgerError)  # name bad bytes
            raise _refusal(exc, path) from None
        game = _game(model, path)
        del model  # freed while the collector is paused, so it never scans the file's models
    return game


def _refusal(exc: ValidationError, path: str) -> LedgerError:
    """A validation error as one line: the field path and what is wrong with it."""
    err = exc.errors(include_url=False)[0]
    loc = tuple(err["loc"])
    if err["type"] == "json_invalid":
        reason = str(err["ctx"].get("error", err["msg"])) if "ctx" in err else str(err["msg"])
        if "recursion limit" in reason:
            reason = _("it nests too deeply ({reason})").format(reason=reason)
        else:
            reason = files.parser_reason(reason)
        return LedgerError(_("the ledger is corrupt: {reason}").format(reason=reason), path)
    if loc == () and err["type"] in ("model_type", "model_attributes_type"):
        return LedgerError(_("not a prefcalc ledger (expected a JSON object)"), path)
    if loc == ("schema",) and err["type"] == "missing":
        return LedgerError(_("not a prefcalc ledger (it has no schema number)"), path)
    if loc == ("schema",):
        found = err.get("input")
        if isinstance(found, int) and not isinstance(found, bool) and found > LEDGER_SCHEMA:
            return LedgerError(
                _(
                    "written by a newer prefcalc (schema {found}, this one reads up to {LEDGER_SCHEMA})"
                ).format(found=found, LEDGER_SCHEMA=LEDGER_SCHEMA),
                path,
            )
        return LedgerError(
            _("not a prefcalc ledger (schema {found}, expected 1 or {LEDGER_SCHEMA})").format(
                found=quoted_value(found), LEDGER_SCHEMA=LEDGER_SCHEMA
            ),
            path,
        )
    where, message = first_error(exc)
    return LedgerError(located(where, message) if where else message, path)


FIELD_WORDS = {
    "schema": N_("the schema number"),
    "created": N_("the start of the game"),
    "players": N_("the players"),
    "first_dealer": N_("the first dealer"),
    "target": N_("the target"),
    "whist_price": N_("the whist price"),
    "currency": N_("the currency"),
    "convention": N_("the rules"),
    "lang": N_("the language"),
    "genders": N_("the genders of the names"),
    "deals": N_("the deals"),
    "name": N_("the name"),
    "preset": N_("the preset"),
    "options": N_("the options"),
    # a deal's
    "time": N_("the time"),
    "dealer": N_("the dealer"),
    "forced": N_("the mark of a deal recorded against the rules"),
    "kind": N_("the kind"),
    "declarer": N_("the declarer"),
    "contract": N_("the contract"),
    "tricks": N_("the tricks"),
    "defenders": N_("the defenders"),
    "player": N_("the player"),
    "role": N_("the answer"),
    "dark": N_("the dark game"),
    "no_talon": N_("played without the talon"),
    "bomb": N_("the bomb"),
    "talon": N_("the talon's tricks"),
    "returned_by": N_("who returned the whist"),
    "looked": N_("who looked at a trick"),
    "blind": N_("who passed blind"),
    "pool": N_("the pool"),
    "mountain": N_("the mountain"),
    "whists": N_("the whists"),
    "note": N_("the note"),
    "offence": N_("the offence"),
    "amount": N_("the amount"),
    "on": N_("on whom"),
    "after": N_("after whom"),
    "key": N_("the term"),
    "value": N_("the value"),
}
"""The ledger's fields as a refusal names them in another language than English."""

ITEM_WORDS = {
    "deals": N_("record №{number}"),
    "players": N_("player {number}"),
    "defenders": N_("defender {number}"),
}
"""An item of a list field, numbered from 1 (the n-th record of the file, a deal or not);
an item of another list is ``{field}, {number}``."""

_PATH_PART = re.compile(r"\[(\d+)\]|\.?([^.\[]+)")


def located(path: str, message: str) -> str:
    """A refusal of the ledger's field ``path`` (``deals[1].defenders[0].role``) as one line.

    In English the path as the file writes it, and the deal it is in (``deals[1].tricks:
    … (deal 2)``); in another language the place in its words, then the path to find it by
    in the file: «запись №2, защитник 1, ответ (deals[1].defenders[0].role): …». A key of
    a table (a player's name in ``genders``) is shown as written; a field the ledger does
    not have is named by the path alone."""
    from prefcalc.i18n import DEFAULT, language

    parts = [(m[2], None if m[1] is None else int(m[1])) for m in _PATH_PART.finditer(path)]
    if language() == DEFAULT:
        deal = parts[1][1] if len(parts) > 1 and parts[0][0] == "deals" else None
        return f"{path}: {message}" + ("" if deal is None else f" (deal {deal + 1})")
    words: list[str] = []
    field: str | None = None  # the field the words have come to
    for name, index in parts:
        if index is not None and field is not None:
            item = ITEM_WORDS.get(field)
            number = index + 1
            words[-1] = (
                _(item).format(number=number)
                if item is not None
                else _("{field}, {number}").format(field=words[-1], number=number)
            )
            field = None
        elif name in FIELD_WORDS and field != "genders":
            words.append(_(FIELD_WORDS[name]))
            field = name
        elif name is not None and field in ("genders", "tricks", "whists", "options"):
            words.append(shown(name))  # a player's name or an option: the key of a table
            field = None
        else:  # a field the ledger does not have: the path names it
            field = None
    if not words:
        return f"{path}: {message}"
    return _("{place} ({path}): {message}").format(
        place=", ".join(words), path=path, message=message
    )


_CONTRACTS: dict[str, tuple[int, Suit]] = {}  # "7h" -> (7, "h"), filled as contracts are read


def _game(f: LedgerFile, path: str) -> Game:
    """The record of a validated ledger, with the checks recording applies to every deal."""

    def fail(where: str, message: str) -> LedgerError:
        return LedgerError(located(where, message), path)

    players = f.players
    try:
        check_players(players)
    except DealError as exc:
        raise fail("players", exc.message) from None
    first_dealer = f.first_dealer
    if first_dealer not in players:
        raise fail(
            "first_dealer",
            _("unknown player '{first_dealer}'").format(first_dealer=shown(first_dealer)),
        )
    if f.whist_price <= 0:
        raise fail("whist_price", _("the price of a whist must be positive"))
    try:
        currency = check_currency(f.currency)
    except DealError as exc:
        raise fail("currency", exc.message) from None
    conv_file = f.convention
    ref = ConventionRef(conv_file.preset, conv_file.options, conv_file.name)
    try:
        convention = resolve(ref, strict=True)
    except PrefcalcError as exc:
        raise fail("convention", exc.message) from None
    game = Game(
        players=players,
        convention=ref,
        target=f.target,
        first_dealer=first_dealer,
        whist_price=f.whist_price,
        currency=currency,
        created=f.created,
        lang=f.lang or "",
    )
    entries: list[Entry] = []
    append = entries.append
    # the checks depend on the deal, the dealer and the seating only (a join changes it)
    passed: set[tuple[Deal, str | None]] = set()
    seats = players
    for k, rec in enumerate(f.deals):
        deal = _deal(rec, k, fail)
        dealer = rec.dealer
        if (deal, dealer) not in passed:
            refused = problems(game, convention, deal, dealer, seats)
            if refused:
                where, why = refused[0]
                raise fail(f"deals[{k}].{where}" if where else f"deals[{k}]", why)
            passed.add((deal, dealer))
        if isinstance(deal, Join):
            seats = joined(seats, deal)
            passed.clear()
        append(Entry(deal, dealer, rec.time, rec.forced))
    genders = tuple((f.genders or {}).items())
    for name, _gender in genders:
        if name not in seats:  # the players at the table after every deal (joins seated)
            raise fail(
                "genders",
                _("unknown player '{word}' (players: {players})").format(
                    word=shown(name), players=", ".join(seats)
                ),
            )
    return game._replace(entries=tuple(entries), genders=genders)


def _deal(rec: DealRecord, k: int, fail: Callable[[str, str], LedgerError]) -> Deal:
    """One validated record of the file as a deal of the engine."""
    if isinstance(rec, ContractRecord):
        known = _CONTRACTS.get(rec.contract)
        if known is None:
            try:
                known = _CONTRACTS[rec.contract] = parse_contract(rec.contract)
            except PrefcalcError as exc:
                raise fail(f"deals[{k}].contract", exc.message) from None
        defenders = [Defender(d.player, d.role, d.tricks) for d in rec.defenders]
        if (
            rec.dark
            or rec.no_talon
            or rec.bomb is not None
            or rec.talon is not None
            or rec.returned_by is not None
            or rec.looked
        ):
            return Contract(
                rec.declarer,
                known[0],
                known[1],
                rec.tricks,
                tuple(defenders),
                dark=rec.dark,
                no_talon=rec.no_talon,
                bomb=rec.bomb,
                talon=rec.talon,
                returned_by=rec.returned_by,
                looked=rec.looked,
            )
        return Contract(rec.declarer, known[0], known[1], rec.tricks, tuple(defenders))
    if isinstance(rec, PassesRecord):
        if rec.blind or rec.looked:
            return AllPass(tuple(rec.tricks.items()), rec.blind, rec.looked)
        return AllPass(tuple(rec.tricks.items()))
    if isinstance(rec, MisereRecord):
        return Misere(rec.declarer, rec.tricks, rec.dark, rec.no_talon, rec.bomb, rec.looked)
    if isinstance(rec, PenaltyRecord):
        if rec.dealer is not None:
            raise fail(f"deals[{k}].dealer", _("a penalty is not dealt: it has no dealer"))
        level: int | None = None
        suit: Suit | None = None
        if rec.contract is not None:
            try:
                level, suit = parse_contract(rec.contract)
            except PrefcalcError as exc:
                raise fail(f"deals[{k}].contract", exc.message) from None
        return Penalty(rec.player, rec.offence, norm(rec.amount), level, suit, rec.on)
    if isinstance(rec, AdjustRecord):
        return Adjustment(rec.player, rec.pool, rec.mountain, tuple(rec.whists.items()), rec.note)
    if isinstance(rec, JoinRecord):
        if rec.dealer is not None:
            raise fail(
                f"deals[{k}].dealer", _("a player joins between deals: a join has no dealer")
            )
        return Join(rec.player, rec.after)
    if isinstance(rec, SetRecord):
        if rec.dealer is not None:
            raise fail(f"deals[{k}].dealer", _("a change of terms (set) has no dealer"))
        value = norm(rec.value)
        if rec.key == "target" and not isinstance(value, int):
            raise fail(f"deals[{k}].value", _("the target must be a whole number"))
        return SetTerm(rec.key, value)
    if isinstance(rec, PreferenceRecord):
        return Preference(rec.player)
    assert_never(rec)
