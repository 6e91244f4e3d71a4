"""The help's own words (typer's frame and parser) in the language in use.

typer writes the frame of every help page with gettext's default domain: the panel titles
(``Arguments``, ``Options``, ``Commands``), the notes (``[default: a4]``, ``[env var: X]``,
``[required]``), the help of ``--help`` and a few messages. Its help module reads them once,
when it is imported, so :func:`install` sets them again from prefcalc's catalog whenever the
language is chosen, and gives typer's command module prefcalc's ``gettext``. What typer's
vendored parser writes without gettext is worded here: the ``Usage:`` line and its
``[OPTIONS]`` (:func:`install` writes the usage of a command itself), the names of the
values (a value's metavar, never a type such as ``<str>``: :data:`TYPE_WORDS`), the
paragraphs of a command's help joined into lines the terminal wraps, and every refusal of
the parser as one line of prefcalc's (:func:`refusal`).

Nothing here imports typer at start-up: only modules already loaded are touched.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from prefcalc.i18n import N_, _, catalog

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

USAGE = N_("Usage: ")
OPTIONS_METAVAR = N_("[OPTIONS]")
COMMAND_METAVAR = N_("COMMAND [ARGS]...")
"""The usage line's words (typer's parser writes them in English, without gettext)."""

TYPE_WORDS = {
    "str": N_("TEXT"),
    "int": N_("N"),
    "float": N_("NUMBER"),
    "path": N_("PATH"),
    "list[str]": N_("TEXT"),
    "list[int]": N_("N"),
    "list[path]": N_("PATH"),
    "datetime": N_("DATE"),
}
"""The name of a value that has no metavar of its own, by its type (typer would write
``<str>``, ``<list[str]>``, ``<path>``): prefcalc's commands all give one."""


def _gettext(message: str) -> str:
    return catalog().gettext(message)


def _panels() -> None:
    rich = sys.modules.get("typer.rich_utils")
    if rich is not None:
        for name, text in PANELS.items():
            if hasattr(rich, name):
                setattr(rich, name, _gettext(text))


def reflowed(text: str) -> str:
    """A help text with each paragraph on one line, for the terminal to wrap (a docstring's
    own line breaks would break the lines of the help in the middle)."""
    return "\n\n".join(" ".join(part.split()) for part in text.split("\n\n"))


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
        for command in (self, *getattr(self, "commands", {}).values()):
            if command.help:
                command.help = reflowed(command.help)
        return original(self, ctx, formatter)

    format_help.prefcalc_words = True  # type: ignore[attr-defined]
    return format_help


def _format_usage(self: Any, ctx: Any, formatter: Any) -> None:
    """The usage line in the language in use: ``Использование: prefcalc show [ПАРАМЕТРЫ]``."""
    pieces = self.collect_usage_pieces(ctx)
    formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_gettext(USAGE))


def _collect_usage_pieces(original: Callable[..., Any]) -> Callable[..., Any]:
    def collect(self: Any, ctx: Any) -> list[str]:
        pieces = list(original(self, ctx))
        english = {
            OPTIONS_METAVAR: _gettext(OPTIONS_METAVAR),
            COMMAND_METAVAR: _gettext(COMMAND_METAVAR),
        }
        return [english.get(piece, piece) for piece in pieces]

    collect.prefcalc_words = True  # type: ignore[attr-defined]
    return collect


def _usage_name(self: Any) -> str:
    """An argument on the usage line as a person reads it: ``N``, ``[NAME]``, ``PLAYER...``
    (typer writes a required one in braces, ``{N}``); a metavar that brackets its own
    optional words (``[CONTRACT] [N] [OTHER]``) is not bracketed again."""
    name = str(self.metavar or self.name.upper())
    if self.nargs != 1 and self.metavar is None:
        name += "..."
    return name if self.required or name.startswith("[") else f"[{name}]"


def _choices(param: Any) -> str | None:
    """``pairwise|average``: the values of a parameter of choices, or None."""
    desc = getattr(param, "type_descriptor", None)
    if desc is None or not desc.is_choice or not desc.choices:
        return None
    return "|".join(str(getattr(c, "value", c)) for c in desc.choices)


def _argument_type(self: Any, ctx: Any) -> str | None:
    """Nothing beside an argument's name but its choices (its metavar names it)."""
    return _choices(self) if self.metavar is None else None


def _option_type(original: Callable[..., Any]) -> Callable[..., Any]:
    def display(self: Any, ctx: Any) -> str | None:
        if self.is_flag or self.count:
            return None  # a flag takes no value: typer would write <bool>
        if self.metavar is not None:
            return str(self.metavar)
        choices = _choices(self)
        if choices is not None:
            return choices
        shown = str(original(self, ctx) or "")
        bare = shown.strip("<>").removesuffix("...").lower()
        word = TYPE_WORDS.get(bare)
        return _gettext(word) if word is not None else shown

    display.prefcalc_words = True  # type: ignore[attr-defined]
    return display


def install() -> None:
    """typer's words in the language in use (English: as prefcalc words them)."""
    _panels()
    core = sys.modules.get("typer.core")
    if core is None:
        return
    if hasattr(core, "_"):
        setattr(core, "_", _gettext)  # noqa: B010  (typer's module global, not an attribute of ours)
    for name in ("TyperCommand", "TyperGroup"):
        cls = getattr(core, name, None)
        help_of = getattr(cls, "format_help", None)
        if cls is None or help_of is None or getattr(help_of, "prefcalc_words", False):
            continue
        cls.format_help = _with_words(help_of)
        cls.format_usage = _format_usage
        cls.collect_usage_pieces = _collect_usage_pieces(cls.collect_usage_pieces)
    argument = getattr(core, "TyperArgument", None)
    if argument is not None and not getattr(argument, "prefcalc_words", False):
        argument._usage_display_name = _usage_name
        argument.display_type_rich = _argument_type
        argument.prefcalc_words = True
    option = getattr(core, "TyperOption", None)
    if option is not None and not getattr(option.display_type_rich, "prefcalc_words", False):
        option.display_type_rich = _option_type(option.display_type_rich)


# --- the parser's refusals --------------------------------------------------------------------


def param_name(param: Any) -> str:
    """A parameter as a refusal names it: an option by its long name (``--target``), an
    argument by its metavar (``N``, ``PLAYER``: as its help shows it)."""
    opts = [o for o in getattr(param, "opts", []) if o.startswith("--")]
    if getattr(param, "param_type_name", "") == "option" and opts:
        return str(opts[0])
    metavar = getattr(param, "metavar", None)
    return str(metavar) if metavar else str(getattr(param, "name", "") or "").upper()


_EXTRA = re.compile(r"Got unexpected extra argument(?:\(s\)|s?) \((.*)\)$", re.DOTALL)
_NEEDS = re.compile(r"Option '(.+)' requires (?:an argument|(\d+) arguments)\.$")
_NO_VALUE = re.compile(r"Option '(.+)' does not take a value\.$")


def refusal(exc: Any) -> str:
    """One of typer's usage errors as prefcalc's one line, in the language in use: a value
    the parser refused (by the project's own parser's words when one read it), a missing
    argument or value, words left over after the command."""
    from typer._click import exceptions as click

    message = str(getattr(exc, "message", "") or "")
    ctx = getattr(exc, "ctx", None)
    param = getattr(exc, "param", None)
    usage = _usage(ctx)
    if isinstance(exc, click.MissingParameter) and param is not None:
        return _("missing {param} ({usage})").format(param=param_name(param), usage=usage)
    if isinstance(exc, click.BadParameter) and param is not None:
        return _bad_value(exc, param)
    match = _NEEDS.fullmatch(message)
    if match:
        return _("{option} needs a value").format(option=match.group(1))
    match = _NO_VALUE.fullmatch(message)
    if match:
        return _("{option} takes no value").format(option=match.group(1))
    match = _EXTRA.fullmatch(message)
    if match:
        return _("unexpected words after the command: {words} ({usage})").format(
            words=match.group(1), usage=usage
        )
    if message in (_gettext("Missing command."), "Missing command."):
        return _("a command is missing (prefcalc --help lists them)")
    return message.removeprefix("Value error, ")


def _usage(ctx: Any) -> str:
    """``prefcalc explain [ПАРАМЕТРЫ] N``: the command's usage without its prefix."""
    if ctx is None:
        return "prefcalc --help"
    pieces = ctx.command.collect_usage_pieces(ctx)
    return " ".join([ctx.command_path, *pieces])


def _bad_value(exc: Any, param: Any) -> str:
    """A value a parameter refused: the project's parser said why (a number), or it is not
    one of the choices, or it is not of the parameter's type."""
    from prefcalc.errors import PrefcalcError, shown
    from prefcalc.rules.amounts import AmountError

    name = param_name(param)
    cause = exc.__cause__
    errors = cause.errors(include_url=False) if hasattr(cause, "errors") else []
    first = errors[0] if errors else {}
    given = first.get("input", "")
    error = (first.get("ctx") or {}).get("error")
    if isinstance(error, AmountError):
        return error.about(name)
    if isinstance(error, PrefcalcError):
        return error.message
    choices = _choices(param)
    if choices is not None:
        words = _(" or ").join(choices.split("|"))
        if getattr(param, "param_type_name", "") != "option":
            command = getattr(getattr(exc, "ctx", None), "info_name", None) or "prefcalc"
            return _("{command} takes {choices}, not '{value}'").format(
                command=command, choices=words, value=shown(str(given))
            )
        return _("{param} is {choices}, not '{value}'").format(
            param=name, choices=words, value=shown(str(given))
        )
    if first:
        from prefcalc.rules.options import pydantic_message

        return _("{param}: {message}, not '{value}'").format(
            param=name, message=pydantic_message(first).lower(), value=shown(str(given))
        )
    return _("{param}: {message}").format(param=name, message=str(exc.message))
