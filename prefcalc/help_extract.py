"""A ``pybabel extract`` method for the command line's help (see ``babel.cfg``).

The help of a command is its function's docstring and the ``help="..."`` of its options and
arguments, and the names of their values (``metavar="PLAYER"``), plain strings that typer
reads at start-up: this method hands them to the catalog as they are shown (a docstring
cleaned like :func:`inspect.getdoc`), besides the ``_()`` calls of the same file. The CLI
translates them when it shows its help in another language. A metavar of values typed as
they are (``xlsx|pdf``, ``ru|en``: no capital letter) is no word to translate.
"""

from __future__ import annotations

import ast
import inspect
import io
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Any,
) -> Iterator[tuple[Any, ...]]:
    """Babel's extraction interface: the ``_()`` messages and the help texts of a module."""
    from babel.messages.extract import extract_python

    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for line, text in help_texts(source.decode("utf-8")):
        yield line, "_", text, []


def help_texts(source: str) -> Iterator[tuple[int, str]]:
    """Every command docstring, every ``help="..."`` string and every ``metavar="..."``
    word of ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and any(_is_command(d) for d in node.decorator_list):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield node.lineno, inspect.cleandoc(doc)
        elif isinstance(node, ast.Call):
            for kw in node.keywords:
                if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)):
                    continue
                text = kw.value.value
                if (kw.arg == "help" and text) or (
                    kw.arg == "metavar" and any(c.isupper() for c in text)
                ):
                    yield kw.value.lineno, text


def _is_command(decorator: ast.expr) -> bool:
    """``@app.command(...)`` or ``@app.callback()``."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr in ("command", "callback")
