"""The night's deals as the pages list them: ``log --json`` with what a page needs to show a
past deal and to edit it with that deal's own table.

Each deal of :func:`log_items` is the item of ``prefcalc log --json`` and also:

- ``players``: who held cards in that deal, in seating order (the seating of then: a late
  arrival is not in the deals before his ``join``);
- ``sitting_out``: who sat it out (the dealer at four, him and the next at five);
- ``lowest_contract``: the lowest contract that deal could be played at (after all-pass
  deals, the exit level);
- ``shorthand``: the deal in the table's shorthand in the page's language
  (:func:`shorthand`: ``игра Аня 7ч 7 Боря:в Вера:п`` in Russian; ``notation`` stays the
  English one, which ``play`` reads in every language);
- in another language than English, each write's ``said``: its reason in the page's words
  (``reason`` stays the English one);
- ``deletable``: whether ``delete N`` passes its check of who deals and who holds cards
  after it (:func:`prefcalc.api.deletion_refusal`; at four or five a deal in the middle
  rarely does), and when not, ``delete_refusal``, why not in the page's words; null for the
  deals older than the last :data:`JUDGED` (not judged: a reading stays quick on a long
  night).

Nothing here imports the web server's libraries: the browser app's engine can give the same
list.
"""

from __future__ import annotations

from typing import Any

from prefcalc.cases import forms, genders
from prefcalc.i18n import DEFAULT, speaking
from prefcalc.rules.model import (
    Deal,
    Game,
    Join,
    active_players,
    deal_count,
    joined,
    seating,
    sitting_out,
)
from prefcalc.rules.notation import describe
from prefcalc.rules.scoring import Sheet

JUDGED = 60
"""The newest deals whose deletion :func:`log_items` judges (each costs a pass over the deals
after it)."""


def shorthand(deal: Deal, lang: str) -> str:
    """A deal in the table's shorthand in ``lang`` (:func:`~prefcalc.rules.notation.describe`,
    the one writer): ``game Anna 7h 7 Boris:w Vera:p`` or ``игра Аня 7ч 7 Боря:в Вера:п``,
    which ``play`` reads in every language (the score page writes its lines so)."""
    return describe(deal, lang)


def seats_json(game: Game, sheet: Sheet) -> dict[str, Any]:
    """Who deals next and who holds no cards in the next deal of ``sheet``, the sheet of
    ``game``: serve's ``/api/seats`` and the browser app's engine. ``deals`` is the count
    ``show --json`` gives (:func:`~prefcalc.rules.model.deal_count`), so a page can tell a
    reading whose answers straddle a write (the sheet after it, the seats before it)."""
    return {
        "players": list(sheet.players),
        "next_dealer": sheet.next_dealer,
        "sitting_out": list(sheet.sitting_out),
        "lowest_contract": sheet.min_level,
        "finished": sheet.finished,
        "deals": deal_count(game),
    }


def log_items(game: Game, sheet: Sheet, last: int | None, lang: str) -> list[dict[str, Any]]:
    """The last ``last`` deals (all of them: None) of ``sheet``, the sheet of ``game``, as
    the pages list them (see the module's description)."""
    from prefcalc.api import deletion_refusal
    from prefcalc.views.log import reason_text
    from prefcalc.views.payloads import log_json

    scored = sheet.scored
    if last is not None:
        scored = scored[max(0, len(scored) - last) :] if last else ()
    items = log_json(sheet._replace(scored=scored))
    first = scored[0].number if scored else len(game.entries) + 1
    seats = game.players
    for entry in game.entries[: first - 1]:
        if isinstance(entry.deal, Join):
            seats = joined(seats, entry.deal)
    with speaking(lang), genders(game.genders):
        for item, one in zip(items, scored, strict=True):
            item["players"] = list(active_players(seats, one.entry.dealer))
            item["sitting_out"] = list(sitting_out(seats, one.entry.dealer))
            item["lowest_contract"] = one.min_level
            item["shorthand"] = shorthand(one.entry.deal, lang)
            if lang != DEFAULT:
                for write, w in zip(item["writes"], one.writes, strict=True):
                    write["said"] = reason_text(w)
            if isinstance(one.entry.deal, Join):
                seats = joined(seats, one.entry.deal)
            if one.number > len(game.entries) - JUDGED:
                refusal = deletion_refusal(game, one.number)
                item["deletable"] = refusal is None
                if refusal is not None:
                    item["delete_refusal"] = refusal
            else:
                item["deletable"] = None
    return items


def name_forms(game: Game, lang: str) -> dict[str, dict[str, str]]:
    """Every name at the table (the players and whoever has joined since) in the Russian
    cases under the game's own genders, for the pages' messages (``висты на {player:acc}``);
    none in English. Read again after every change, so a late arrival or a gender set is
    declined from the next reading on."""
    if lang != "ru":
        return {}
    with genders(game.genders):  # the game's own
        return forms(dict.fromkeys((*game.players, *seating(game))))
