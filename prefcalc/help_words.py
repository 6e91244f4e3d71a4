"""The help's own words (typer's panels and notes) in the language in use.

typer writes the frame of every help page with gettext's default domain: the panel titles
(``Arguments``, ``Options``, ``Commands``), the notes (``[default: a4]``, ``[env var: X]``,
``[required]``), the help of ``--help`` and a few messages. Its help module reads them once, when it is imported,
so :func:`install` sets them again from prefcalc's catalog whenever the language is chosen,
and gives typer's command module prefcalc's ``gettext``. The vendored parser of typer writes
``Usage:`` without gettext: that stays English.
Nothing here imports typer: only modules already loaded are touched.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from prefcalc.i18n import N_, catalog

PANELS = {
    "DEPRECATED_STRING": N_("(deprecated) "),
    "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
}
"""typer.rich_utils' constants and their English text."""

HELP_OPTION = N_("Show this message and exit.")
"""The help of ``--help`` (typer's parser writes it in English; set on the option here)."""

MESSAGES = (
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Aborted!"),
)
"""Messages typer's command module says through gettext."""


def _gettext(message: str) -> str:
    return catalog().gettext(message)


def _panels() -> None:
    rich = sys.modules.get("typer.rich_utils")
    if rich is not None:
        for name, text in PANELS.items():
            if hasattr(rich, name):
                setattr(rich, name, _gettext(text))


def _with_words(original: Callable[..., Any]) -> Callable[..., Any]:
    """``format_help`` that first writes typer's words in the language in use (its help
    module is imported when a help page is written, not before: start-up stays fast)."""

    def format_help(self: Any, ctx: Any, formatter: Any) -> Any:
        import typer.rich_utils  # noqa: F401  (what the help page is about to import anyway)

        _panels()
        option = self.get_help_option(ctx)
        if option is not None and option.help:
            english = getattr(option, "prefcalc_english", option.help)  # kept across languages
            option.prefcalc_english = english
            option.help = _gettext(english) if english == HELP_OPTION else english
        return original(self, ctx, formatter)

    format_help.prefcalc_words = True  # type: ignore[attr-defined]
    return format_help


def install() -> None:
    """typer's words in the language in use (English: as typer wrote them)."""
    _panels()
    core = sys.modules.get("typer.core")
    if core is None:
        return
    if hasattr(core, "_"):
        setattr(core, "_", _gettext)  # noqa: B010  (typer's module global, not an attribute of ours)
    for name in ("TyperCommand", "TyperGroup"):
        cls = getattr(core, name, None)
        help_of = getattr(cls, "format_help", None)
        if help_of is not None and not getattr(help_of, "prefcalc_words", False):
            cls.format_help = _with_words(help_of)  # type: ignore[union-attr]
