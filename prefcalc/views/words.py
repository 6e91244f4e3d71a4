"""The words of the pages (serve's and the app's) in the language of the table.

The scripts' words are a small dictionary (English message -> the page's words): serve renders
it into the page as JSON and the app's build writes it as ``words/LANG.json``; ``common.js``
reads it (``Prefcalc.t``); plural forms come as a list of the language's forms, chosen in the
script by the language's plural rule. :func:`say` and :func:`refusal_line` are a refusal as a
page shows it, whoever answers the page (serve's routes, the table service, the app's engine).
(serve's templates are translated by Jinja2's i18n extension: :mod:`prefcalc.web.pages`.)
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from prefcalc import terms
from prefcalc.errors import PrefcalcError, one_line
from prefcalc.i18n import DEFAULT, N_, _, catalog, ngettext, pgettext, speaking
from prefcalc.rules.lexicon import table_words
from prefcalc.rules.model import Suit

SCRIPT_WORDS = (
    # the status and the sheet's words
    N_("to {target}"),
    N_("finished"),
    N_("{player} deals next"),
    N_("{players} sit out"),
    N_("and"),
    N_("lowest contract {level}"),
    N_("all-pass ×{n}"),
    N_("no deals recorded yet"),
    N_("№{number} ({dealer} dealt): "),
    N_("nothing written"),
    N_("nobody pays anybody"),
    N_("{payer} pays {payee} {amount}"),
    # the badge
    N_("live"),
    N_("not live"),
    N_("connecting"),
    N_("reconnecting"),
    N_("the server cannot be reached: trying again"),
    N_("the server has too many watchers: trying again"),
    # the score page
    N_("the deal"),
    N_("Game"),
    N_("Misère"),
    N_("All-pass"),
    N_("Declarer"),
    N_("Contract"),
    N_("Declarer's tricks"),
    N_("Defenders"),
    N_("Tricks of each player"),
    N_("tricks"),
    N_("{player}'s tricks"),
    N_("The whisters' tricks"),
    N_("{player} took {n}"),
    N_("Record"),
    N_("Save deal {number}"),
    N_("Insert as deal {number}"),
    N_("Undo"),
    N_("Cancel"),
    N_("Put back"),
    N_("choose the deal above"),
    N_("change the deal above"),
    N_(
        "the server cannot be reached: it is not known yet whether this was carried out; tap"
        " again (it is carried out once)"
    ),
    N_("this did not reach the server: nothing was written"),
    N_("done"),
    N_("№{number} recorded: {writes}"),
    N_("№{number} changed: {writes}"),
    N_("№{number} inserted: {writes}"),
    N_("№{number} put back: {writes}"),
    N_("The night's deals"),
    N_("all the deals"),
    N_("{dealer} dealt"),
    N_("Edit"),
    N_("Insert before"),
    N_("Delete"),
    N_("deal {number}"),
    N_("A play line"),
    N_("Send"),
    N_("Settle"),
    N_("Settle average"),
    N_("Target"),
    N_("Set target"),
    N_("the sheet, folded: tap to open it"),
)
"""What the scripts say in words (common.js, watch.js, score.js), as they write it in English
(a test checks that every ``t("...")`` of the scripts is here)."""


def script_words(lang: str) -> dict[str, Any]:
    """The dictionary the scripts read: every message of :data:`SCRIPT_WORDS`, the table's
    terms and the plural forms of ``{n} deals``, in ``lang``."""
    with speaking(lang):
        words: dict[str, Any] = {text: _(text) for text in SCRIPT_WORDS}
        words.update(
            {
                "pool": terms.column("pool"),
                "mountain": terms.column("mountain"),
                "whists": terms.column("whists"),
                # after a write's amount: +4 pool / +4 в пулю (writeText)
                "into pool": terms.into("pool"),
                "into mountain": terms.into("mountain"),
                "into whists": terms.into("whists"),
                "whists on {player}": _("whists on {player}"),
                "whist": pgettext("role", "whist"),
                "pass": pgettext("role", "pass"),
                "half-whist": pgettext("role", "half-whist"),
                "returned the whist": pgettext("role", "returned the whist"),
                "{n} deals": [ngettext("{n} deal", "{n} deals", n) for n in (1, 2, 5)],
            }
        )
        for name in ("Sochi", "Leningrad", "Rostov", "Classic", "FSPR"):
            words[name] = terms.convention_name(name)
        words["table"] = table_words()  # the table's words: suits, answers, kinds, commands
        words["signs"] = {s: terms.suit(s) for s in SUITS}  # a contract's signs: ♥, NT / БК
    words["lang"] = lang
    return words


SUITS: tuple[Suit, ...] = ("s", "c", "d", "h", "nt")


def say(lang: str, message: str, **values: object) -> str:
    """``message`` (as written in English, marked for the catalog) in ``lang``, formatted
    with ``values``: a refusal of the server in the table's language, whatever language the
    process speaks and without touching it (the server's threads share it). A Russian
    message declines a name its placeholder asks a case of (``{player:acc}``)."""
    text = catalog(lang).gettext(message)
    if lang != DEFAULT:
        from prefcalc.cases import Text

        text = Text(text)
    return text.format(**values) if values else text


def refusal_line(exc: PrefcalcError) -> str:
    """A refusal as a page shows it: the CLI's one line, its file named by its name alone
    (``g.json: the ledger is corrupt: …``). A phone that watches has no use for the path of
    the ledger on the laptop, and no business reading it."""
    if not exc.where:
        return one_line(exc.message)
    return one_line(f"{PurePath(exc.where).name or exc.where}: {exc.message}")
