"""How the scoring engine's reasons name a deal's factor (docs/rules.md §8.1).

The deal factor ``F = bomb × (2 if dark)`` is named in every reason by :func:`factor_words`
(``triple bomb, dark``); a bomb by :func:`bomb_name`.
"""

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
