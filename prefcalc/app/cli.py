"""``prefcalc app``: the commands of the offline app (registered by :mod:`prefcalc.cli`).

Importing this module loads only typer (already loaded by the CLI): the build is imported
when the command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from prefcalc.i18n import _, language


class _Group(TyperGroup):
    """The ``app`` commands, their help in the language in use (like the CLI's own: the
    catalog has them, extracted by prefcalc/help_extract.py)."""

    translated = False

    def _translate(self) -> None:
        if self.translated or language() == "en":
            return
        self.translated = True
        for command in self.commands.values():
            if command.help:
                command.help = _(command.help)
            for param in command.params:
                if getattr(param, "help", None):
                    param.help = _(param.help)  # type: ignore[attr-defined]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        self._translate()
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._translate()
        super().format_help(ctx, formatter)


commands = typer.Typer(
    cls=_Group,
    add_completion=False,
    no_args_is_help=True,
    help="The app for phones: prefcalc's engine in the browser, working offline.",
)


@commands.command()
def build(
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="The folder to build into (default: the app folder of prefcalc's data folder,"
            " where 'prefcalc serve' offers it).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Build the installable web app for phones, which works offline.

    The browser's Python (Pyodide) and prefcalc's engine, each input checked against the
    lock file: the build needs the registries once, the app needs nothing."""
    from prefcalc.app.build import build as make

    def say(line: str) -> None:
        typer.echo(line)

    built = make(out, say=say)
    typer.echo(
        _(
            "built: {folder} ({files} files, {size} MB; the first install moves {transfer} MB)"
        ).format(
            folder=built.out,
            files=built.files,
            size=f"{built.size / 1e6:.1f}",
            transfer=f"{built.transfer / 1e6:.1f}",
        )
    )
