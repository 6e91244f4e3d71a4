"""The ``prefcalc`` executable and ``python -m prefcalc``: the CLI as the one command of its
process."""

import gc


def run() -> int:
    """Run the command the process was started for (:func:`prefcalc.cli.main`).

    The cyclic garbage collector stays paused from the start: importing the CLI (typer,
    click, prefcalc's modules) makes some hundred thousand objects that live as long as the
    process, and the command makes next to no garbage in cycles, so the collector would only
    walk them again and again (measured: ~15 ms of a command). ``play`` and ``serve``, which
    keep a session open, start it again. Everything the process made is frozen before it
    exits, so that leaving does not walk every object once more to free it one by one (the
    system takes the memory back at once; measured: ~20 ms)."""
    gc.disable()
    try:
        from prefcalc.cli import main

        return main()
    finally:
        gc.freeze()


if __name__ == "__main__":
    raise SystemExit(run())
