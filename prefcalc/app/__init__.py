"""prefcalc on a phone without a laptop: an installable web app running prefcalc's own engine
in the browser's Python (Pyodide, in a Web Worker).

- :mod:`prefcalc.app.lock` and ``lock.toml``: the pinned inputs (Pyodide from npm, the
  wheels from PyPI), each checked against its size and sha256;
- :mod:`prefcalc.app.fetch`: downloading them once into the data folder's cache, the way
  pip and npm reach their registries on this machine;
- :mod:`prefcalc.app.build`: ``prefcalc app build``, the static folder (``static/``, the
  wheels precompiled in the browser's Python, the manifest and the service worker);
- :mod:`prefcalc.app.engine`: what the worker runs (the CLI's commands on a ledger in
  the browser's memory);
- :mod:`prefcalc.app.cli`: the ``prefcalc app`` commands.

This module imports nothing: the CLI registers ``prefcalc app`` without loading the build.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def default_dir() -> Path:
    """Where ``prefcalc app build`` puts the app and ``prefcalc serve`` looks for it: the
    ``app`` folder of prefcalc's data folder."""
    from prefcalc.store.ledger import data_dir

    return data_dir() / "app"


def cache_dir() -> Path:
    """Where the downloaded inputs are kept, so a rebuild needs no network."""
    from prefcalc.store.ledger import data_dir

    return data_dir() / "cache" / "app"


def later_failed(reason: str) -> str:
    """The one line an operation gets on a phone that could not install the packages of a
    validation (they come after the engine's start: a phone offline before it ever had them)."""
    from prefcalc.i18n import _

    return _(
        "this phone has not yet downloaded what checks a file or a game's rules: open the app"
        " once with the network ({reason})"
    ).format(reason=reason)
