"""The words of the serve pages in the language of the table.

The templates are translated by Jinja2's i18n extension with prefcalc's own catalog; the
scripts' words are a small dictionary (English message -> the page's words) rendered into
the page as JSON, which ``common.js`` reads (``Prefcalc.t``); plural forms come as a list of
the language's forms, chosen in the script by the language's plural rule.
"""

from __future__ import annotations

from typing import Any

from prefcalc import terms
from prefcalc.i18n import N_, _, catalog, ngettext, pgettext, speaking

SCRIPT_WORDS = (
    N_("to {target}"),
    N_("finished"),
    N_("{player} deals next"),
    N_("lowest contract {level}"),
    N_("all-pass ×{n}"),
    N_("no deals recorded yet"),
    N_("№{number} ({dealer} dealt): "),
    N_("nothing written"),
    N_("nobody pays anybody"),
    N_("{payer} pays {payee} {amount}"),
    N_("live"),
    N_("reconnecting"),
    N_("not played"),
    N_("choose the declarer first"),
    N_("{player}'s tricks"),
    N_("choose the deal above"),
    N_("the server cannot be reached ({error})"),
    N_("done"),
    N_("refused"),
)
"""What the scripts say in words (common.js, score.js), as they write it in English."""


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
                "whists on {player}": _("whists on {player}"),
                "whist": pgettext("role", "whist"),
                "pass": pgettext("role", "pass"),
                "half-whist": pgettext("role", "half-whist"),
                "NT": terms.no_trumps(),
                "{n} deals": [ngettext("{n} deal", "{n} deals", n) for n in (1, 2, 5)],
            }
        )
        for name in ("Sochi", "Leningrad", "Rostov", "Classic", "FSPR"):
            words[name] = terms.convention_name(name)
    words["lang"] = lang
    return words


def install(env: Any, lang: str) -> None:
    """Translate the templates of ``env`` into ``lang`` (Jinja2's i18n extension, new style:
    ``{{ _("text %(name)s", name=...) }}``)."""
    env.add_extension("jinja2.ext.i18n")
    found = catalog(lang)
    env.install_gettext_callables(
        gettext=found.gettext,
        ngettext=found.ngettext,
        pgettext=found.pgettext,
        newstyle=True,
    )
