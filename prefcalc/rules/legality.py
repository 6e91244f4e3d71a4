"""Classic preference and the other rules of docs/rules.md §8 that need the convention to
decide whether a deal may be recorded at all.

:func:`refusal` is the one place that says whether a deal fits the *rules* (a dark game
needs ``dark_games``, a 6♠ under ``stalingrad`` must be whisted by both...), as
:func:`prefcalc.rules.model.check_deal` says whether it fits the *game*. Recording (the API and the
CLI) refuses such a deal with one line; loading a ledger refuses it naming the field; the
scoring engine, re-scoring a night under other rules, scores what it can and lists the deals
it cannot price (:attr:`prefcalc.rules.scoring.Sheet.unpriced`).

The deal factor ``F = bomb × (2 if dark)`` (docs/rules.md §8.1) is named in every reason by
:func:`factor_words`.
"""

from prefcalc.rules.conventions import Convention
from prefcalc.rules.model import AllPass, Contract, Deal, Misere, Preference

BOMB_NAMES = {2: "bomb", 4: "double bomb", 8: "triple bomb"}


def bomb_name(factor: int) -> str:
    """``2`` -> ``bomb``, ``4`` -> ``double bomb``, ``8`` -> ``triple bomb``, ``16`` ->
    ``bomb ×16``."""
    return BOMB_NAMES.get(factor, f"bomb ×{factor}")


def factor_words(bomb: int, dark: bool) -> str:
    """What a deal factor is made of: ``triple bomb, dark``; ``""`` when there is none."""
    parts = []
    if bomb > 1:
        parts.append(bomb_name(bomb))
    if dark:
        parts.append("dark")
    return ", ".join(parts)


def refusal(conv: Convention, deal: Deal) -> tuple[str, str] | None:
    """``(field, message)`` when the convention refuses ``deal`` whatever came before it,
    else ``None``. ``field`` names the ledger field (``dark``, ``defenders[1].role``)."""
    if isinstance(deal, Contract | Misere) and deal.dark and not conv.dark_games:
        return "dark", "a dark game is not played under this convention (dark_games = false)"
    if (
        isinstance(deal, Contract | Misere)
        and deal.bomb is not None
        and conv.bombs_order != "declared"
    ):
        return "bomb", (
            f"--bomb names a bomb only under bombs.order = declared "
            f"(this convention: {conv.bombs_order})"
        )
    if isinstance(deal, Preference) and not conv.preference_combo:
        return "kind", (
            "the Preference combination is not played under this convention "
            "(preference_combo = false)"
        )
    if isinstance(deal, AllPass) and deal.blind and not conv.bombs_blind:
        return "blind", "a blind pass is not played under this convention (bombs.blind = false)"
    if isinstance(deal, Contract):
        if deal.talon is not None and not conv.talon_bonus:
            return (
                "talon",
                "the talon bonus is not paid under this convention (talon_bonus = false)",
            )
        if not conv.return_whist:
            if deal.returned_by is not None:
                return "returned_by", (
                    "the whist is not returned under this convention (return_whist = false)"
                )
            for i, d in enumerate(deal.defenders):
                if d.role == "r":
                    return f"defenders[{i}].role", (
                        "the whist is not returned under this convention (return_whist = false)"
                    )
    if isinstance(deal, Contract) and deal.level == 6 and deal.suit == "s":
        rule = ""
        if conv.stalingrad:
            rule = "stalingrad"
        elif deal.dark and conv.dark_six_whisted:
            rule = "dark_six_whisted"
        if rule:
            what = "a dark 6♠" if rule == "dark_six_whisted" else "6♠"
            if deal.returned_by is not None:
                return "returned_by", (
                    f"{what} must be whisted by both defenders ({rule} = true): "
                    "the dealer cannot return the whist"
                )
            for i, d in enumerate(deal.defenders):
                if d.role != "w":
                    return (
                        f"defenders[{i}].role",
                        f"{what} must be whisted by both defenders ({rule} = true): "
                        f"{d.player} cannot {_ROLE_VERB.get(d.role, 'do that')}",
                    )
    return None


_ROLE_VERB = {"p": "pass", "h": "half-whist", "r": "return the whist"}
