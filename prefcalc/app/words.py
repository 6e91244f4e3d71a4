"""The words of the app's pages in every language prefcalc speaks, compiled into the bundle.

The page is static (no server renders it), so ``prefcalc app build`` writes one dictionary
per language (``words/ru.json``, ``words/en.json``): the serve pages' script words
(:func:`prefcalc.views.words.script_words`, the same dictionary ``common.js`` reads) and the
app's own, listed here as they are written in English; the page shows ``WORDS[text]`` for
each ``data-t="text"`` and each ``t("text")`` of its scripts (a test checks that every one of
them is listed).
"""

from __future__ import annotations

from typing import Any

from prefcalc.i18n import N_, _, speaking

APP_WORDS = (
    N_("starting the engine…"),
    N_("ready"),
    N_("the engine did not start: {error}"),
    N_("New game"),
    N_("Players, in seat order, separated by spaces"),
    N_("Convention"),
    N_("Target"),
    N_("Whist price"),
    N_("Currency"),
    N_("Start"),
    N_("Games on this phone"),
    N_("No games yet."),
    N_("Import a ledger file"),
    N_("← Games"),
    N_("Last deal"),
    N_("Settlement so far"),
    N_("Pairwise"),
    N_("Average"),
    N_("Player"),
    N_("Whists"),
    N_("Money"),
    N_("Export the ledger"),
    N_("the game is no longer on this phone"),
    N_("started with prefcalc {version}"),
    N_("imported"),
    N_("last written with prefcalc {version}"),
    N_("scored now by prefcalc {version}"),
    N_(
        "prefcalc {version} scores this game otherwise than prefcalc {then} did when it was"
        " written: the ledger is as it was; export it to see it with that prefcalc"
    ),
    N_("Scoring"),
    N_("The sheet"),
    N_("the file is too large for a ledger (at most {size} MB)"),
    N_("not a prefcalc ledger (the file is not UTF-8 text)"),
    N_("already on this phone: {game}"),
    N_("another version of a game on this phone: kept beside it as {name}"),
    N_("imported as {name}"),
    N_("games kept in this phone's persistent storage"),
    N_("games kept in this browser's storage"),
    N_("the phone's storage is full: nothing was recorded"),
    N_("the phone's storage refused the write ({reason}): nothing was recorded"),
    N_(
        "the game was changed in another window meanwhile: it is shown again as kept,"
        " nothing was recorded"
    ),
)
"""What the app's page and scripts say, as they write it in English."""


def app_words(lang: str) -> dict[str, Any]:
    """The dictionary of the app's page in ``lang``."""
    from prefcalc.views.words import script_words

    words = script_words(lang)
    with speaking(lang):
        words.update({text: _(text) for text in APP_WORDS})
    return words
