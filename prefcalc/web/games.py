"""``prefcalc serve`` and the app on the phones: a phone's game received as a new ledger
(``POST /api/games``), and the built app offered at ``/app/``.

The game is validated strictly as a ledger (the store's own reading of a file) and written
by the store as ``prefcalc new`` writes one, into the data folder's games, under a name no
file has: nothing is ever replaced, and a game already there (the same text) is recognised.
Anything wrong is one line and a 4xx, and nothing is written.

The app needs one thing the other pages refuse: compiling WebAssembly (the browser's Python).
Its pages get their own Content-Security-Policy, with ``'wasm-unsafe-eval'`` and nothing
else added.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TextIO

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from prefcalc.errors import LedgerError, one_line
from prefcalc.i18n import N_, _
from prefcalc.views.words import say
from prefcalc.web.models import problem
from prefcalc.web.table import TableDep, scorer

NOT_A_NAME = N_("not a game's name: {name}")
"""The refusal of a ``name`` that is not a file name (said in the table's language; the rest
of the refusals are made in :meth:`Table.run`, which speaks it)."""

MAX_GAME = 16 * 1024 * 1024
"""Bytes of a received ledger at most (the phone's own limit for a ledger)."""

NAME = re.compile(r"^[^\W_][\w.-]{0,150}$")

APP_POLICY = (
    b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self';"
    b" img-src 'self' blob: data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The app's pages: this server's files only, and WebAssembly compiled from them."""

router = APIRouter(tags=["the phones' games"])


def body_limits() -> dict[str, int]:
    """The paths of this module that take larger bodies than the API's lines, and their
    limit (given to :class:`prefcalc.web.middleware.BodyLimit`)."""
    return {"/api/games": MAX_GAME}


@router.post(
    "/api/games",
    status_code=201,
    summary="Receive a phone's game as a new ledger in the data folder (needs the token)",
    description=(
        "The body is the ledger file exactly as the app exports it (application/json). It is"
        " validated as a ledger and written as a new game of the data folder's games, named"
        " `name` (default: the name `prefcalc new` would give it); an existing file is never"
        ' replaced. The answer: `{"name": ..., "file": ..., "deals": N}`.'
    ),
    dependencies=[Depends(scorer)],
    responses={
        400: problem("The body is not UTF-8, or the name is not a file name."),
        401: problem("No token or the wrong one: nothing is written."),
        403: problem("The server is read-only."),
        409: problem("A game of that name, or this very game, is already there."),
        413: problem(f"The body is larger than {MAX_GAME // (1024 * 1024)} MB."),
        422: problem("The body is not a prefcalc ledger (the one-line reason)."),
    },
)
async def receive_game(request: Request, table: TableDep, name: str | None = None) -> JSONResponse:
    if name is not None and (not NAME.match(name) or name.endswith(".json")):
        raise HTTPException(400, say(table.lang, NOT_A_NAME, name=one_line(name, 60)))
    raw = await request.body()  # BodyLimit refuses it past MAX_GAME (body_limits)
    # in the table's turn and language, as its own operations (the table service's one entry)
    answer = await table.run(lambda: table.service.call(lambda: _write(raw, name)))
    return JSONResponse(answer, status_code=201)


def _write(raw: bytes, name: str | None) -> dict[str, Any]:
    from prefcalc.rules.model import deal_count
    from prefcalc.store import ledger
    from prefcalc.store.games import games_dir

    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        raise HTTPException(400, _("the request body is not valid UTF-8")) from None
    try:
        game = ledger.game_from_bytes(raw, _("the game"))
    except LedgerError as exc:
        raise HTTPException(422, str(exc)) from None
    folder = games_dir()
    text = ledger.game_to_json_text(game)
    if folder.is_dir():
        for other in sorted(folder.glob("*.json")):
            try:
                same = other.is_file() and other.read_text(encoding="utf-8") == text
            except (OSError, UnicodeDecodeError):
                continue
            if same:
                raise HTTPException(
                    409,
                    _("this game is already in the data folder: {file}").format(file=other.name),
                )
    path = folder / f"{name}.json" if name else ledger.new_game_path(game.players)
    if path.exists() or path.is_symlink():
        raise HTTPException(
            409,
            _("a game named {name} is already in the data folder: nothing was written").format(
                name=path.stem
            ),
        )
    try:
        ledger.create(path, game)
    except LedgerError as exc:  # a file that appeared meanwhile: never replaced
        raise HTTPException(409, str(exc)) from None
    except OSError as exc:
        raise HTTPException(503, one_line(str(exc.strerror or exc))) from None
    return {"name": path.stem, "file": str(path), "deals": deal_count(game)}


class AppPolicy:
    """The app's pages (``/app/...``) with the app's Content-Security-Policy instead of the
    one every other answer gets (added further in)."""

    def __init__(self, app: ASGIApp, prefix: str = "/app") -> None:
        self.app = app
        self.prefix = prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path != self.prefix and not path.startswith(self.prefix + "/"):
            await self.app(scope, receive, send)
            return

        async def with_policy(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k != b"content-security-policy"
                ]
                headers.append((b"content-security-policy", APP_POLICY))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_policy)


APP_FOLDER = "app"
BUILT_MARK = "build.json"
"""Where ``prefcalc app build`` puts the app in the data folder, and the file that says it
is one (:func:`prefcalc.app.default_dir`, :data:`prefcalc.app.build.MARK`: the server is
below the app's build and does not import it; a test checks that the two agree)."""


def built_app() -> Path | None:
    """The folder of the app built by ``prefcalc app build`` (the data folder's), if any."""
    from prefcalc.store.ledger import data_dir

    folder = data_dir() / APP_FOLDER
    return folder if (folder / BUILT_MARK).is_file() else None


def install(app: FastAPI) -> None:
    """The phones' games and the app on a server: ``POST /api/games``, and ``/app/`` when
    the app was built (call once the other middleware is added: the app's policy must be
    the outer one)."""
    app.include_router(router)
    folder = built_app()
    if folder is not None:
        app.mount("/app", StaticFiles(directory=str(folder), html=True), name="app")
        app.add_middleware(AppPolicy)


def secure_host(host: str) -> bool:
    """Whether a browser counts ``host`` as a secure context over plain http (this computer
    itself: ``localhost``, a loopback address): only there, or over https, does it run the
    app's service worker and keep its storage, so only there can the app be installed."""
    import ipaddress

    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def print_install(out: TextIO, url: str, qr: bool, draw: Any = None) -> None:
    """The app's line of ``prefcalc serve`` when the app is built: ``install:`` (and its QR
    code) where a browser can install it (``https``, or this computer itself); from the
    table's Wi-Fi (``http://192.168.…``) no phone can, and the line says so and how."""
    from urllib.parse import urlsplit

    folder = built_app()
    if folder is None:
        return
    parts = urlsplit(url)
    if parts.scheme == "https" or secure_host(parts.hostname or ""):
        out.write(_("install: {url}").format(url=url) + "\n")
        if qr and draw is not None:
            draw(url, out)
        return
    out.write(
        _(
            "app: {url} (it runs there while this server does; a phone installs it only from"
            " https: copy {folder} to an HTTPS static host)"
        ).format(url=url, folder=folder)
        + "\n"
    )
