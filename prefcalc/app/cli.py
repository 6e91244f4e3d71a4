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
                if param.metavar:
                    param.metavar = _(param.metavar)

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
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            metavar="ADDRESS",
            help="The address where the folder will be put (https://…/): its QR code is"
            " printed at the end, for the phones to open it.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Build the installable web app for phones, which works offline.

    The browser's Python (Pyodide) and prefcalc's engine, each input checked against the
    lock file: the build needs the registries once, the app needs nothing. The folder works
    from any address of any static host."""
    from prefcalc.app.build import build as make
    from prefcalc.app.build import check_url

    address = check_url(url) if url is not None else None  # refused before anything is built

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
    _publish(built.out, address)


def _publish(folder: Path, address: str | None) -> None:
    """How to put the folder where phones open it; with its address, that address's QR code."""
    if address is None:
        typer.echo(
            _(
                "to publish it: copy {folder} to any static host with HTTPS (a sub-folder is"
                " fine: GitHub Pages, a club's web server); the project's own workflow"
                " publishes it on GitHub Pages at every push to main. Give the address with"
                " --url and the build prints its QR code for the phones"
            ).format(folder=folder)
        )
        return
    from prefcalc.qr import qr_text

    typer.echo(
        _(
            "to publish it: copy {folder} to {url}; each phone opens that address once, online,"
            " and adds it to the home screen: from then on it works with no network"
        ).format(folder=folder, url=address)
    )
    typer.echo(qr_text(address), nl=False, color=True)  # the code is its colours: kept in a log too
    typer.echo(address)
