"""How the rules name a bomb (docs/rules.md §8.1): the one table of bomb words.

The scoring engine's reasons name the bomb in a deal factor (`` × 16 (triple bomb, dark)``)
from :data:`BOMB_WORDS`, translated when the reason is shown; a refusal names it with
:func:`bomb_name`, in the language in use.
"""

from prefcalc.i18n import N_, _

BOMB_WORDS = {2: N_("bomb"), 4: N_("double bomb"), 8: N_("triple bomb")}
"""A bomb by its factor (catalog messages); any other factor is ``bomb ×F``."""

OTHER_BOMB = N_("bomb ×{factor}")
"""A bomb of a factor :data:`BOMB_WORDS` has no word for (``{factor}``: 16, 32...)."""


def bomb_name(factor: int) -> str:
    """``2`` -> ``bomb``, ``4`` -> ``double bomb``, ``8`` -> ``triple bomb``, ``16`` ->
    ``bomb ×16``, in the language in use."""
    word = BOMB_WORDS.get(factor)
    return _(word) if word is not None else _(OTHER_BOMB).format(factor=factor)
