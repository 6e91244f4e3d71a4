"""What every request of ``prefcalc serve`` passes through before a route (ASGI middleware):
the Host it names is this server's, its body is not too large, and every answer forbids
anything from elsewhere."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Collection, Mapping

from fastapi import HTTPException
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from prefcalc.errors import one_line
from prefcalc.i18n import N_
from prefcalc.views.words import say

MAX_BODY = 16 * 1024  # bytes of a request body

MISDIRECTED = N_(
    "this server answers only at its own addresses, not at the Host this request names"
)
TOO_LARGE = N_("the request body is too large (at most {limit} bytes)")
BAD_LENGTH = N_("the Content-Length is not a number")

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
]


def error(status: int, message: str) -> JSONResponse:
    """An answer other than 200: ``{"error": "<one line>"}``."""
    return JSONResponse({"error": one_line(message)}, status_code=status)


class SecurityHeaders:
    """Every answer: nothing but this server's own scripts, styles and pictures; no framing,
    no referrer, no content sniffing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


# --- the Host --------------------------------------------------------------------------------


def local_names() -> set[str]:
    """The names this computer answers to whatever the network: ``localhost``, the loopback
    addresses, its host name (and the ``.local`` name a phone finds it by on the Wi-Fi)."""
    names = {"localhost", "127.0.0.1", "::1"}
    name = socket.gethostname().lower()
    if name:
        names.add(name)
        if "." not in name:
            names.add(name + ".local")
    return names


def _normal(name: str) -> str:
    """A host name in lower case; an address in its one written form (``[0::1]`` is ``::1``)."""
    name = name.lower()
    try:
        return ipaddress.ip_address(name).compressed
    except ValueError:
        return name


def host_name(value: str) -> str | None:
    """The name in a Host header (``name``, ``name:port``, ``[v6]`` or ``[v6]:port``), or
    None when the header is not one."""
    if value.startswith("["):
        end = value.find("]")
        name, rest = (value[1:end], value[end + 1 :]) if end > 0 else ("", "")
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if rest and not (rest[0] == ":" and rest[1:].isascii() and rest[1:].isdigit()):
        return None
    if not name or not name.isascii() or any(c in name for c in "/?#@ \t"):
        return None
    return _normal(name)


class OwnHosts:
    """Answer only requests that name this server in their Host header: one of ``names``
    (the addresses it listens on, this computer's names) or the very address the request
    came in on. Anything else is 421 and nothing more: a page of another site that got its
    name pointed at this computer (DNS rebinding) reads nothing and writes nothing. The port
    is not compared (a forwarded port is still this server)."""

    def __init__(self, app: ASGIApp, names: Collection[str], lang: str = "en") -> None:
        self.app = app
        self.names = frozenset(_normal(n) for n in names)
        self.lang = lang

    def accepts(self, scope: Scope) -> bool:
        hosts = [value for key, value in scope["headers"] if key == b"host"]
        if len(hosts) != 1:
            return False
        name = host_name(hosts[0].decode("latin-1").strip())
        if name is None:
            return False
        if name in self.names:
            return True
        server = scope.get("server")
        return server is not None and name == _normal(str(server[0]))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.accepts(scope):
            if scope["type"] == "http":
                await error(421, say(self.lang, MISDIRECTED))(scope, receive, send)
            return  # a websocket is closed unanswered
        await self.app(scope, receive, send)


# --- the body --------------------------------------------------------------------------------


class BodyLimit:
    """Refuse a body longer than ``limit`` bytes with 413: from its Content-Length before
    anything is read, else as soon as the bytes received pass the limit (a route reading the
    body gets the 413 as an :class:`HTTPException`, answered in one line)."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY,
        larger: Mapping[str, int] | None = None,
        lang: str = "en",
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})  # paths that take larger bodies: their own limit
        self.lang = lang

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.limit)
        lengths = [value for key, value in scope["headers"] if key == b"content-length"]
        for length in lengths:
            if not length.strip().isdigit():
                await error(400, say(self.lang, BAD_LENGTH))(scope, receive, send)
                return
            if int(length) > limit:
                await error(413, say(self.lang, TOO_LARGE, limit=limit))(scope, receive, send)
                return
        size = 0

        async def counted() -> Message:
            nonlocal size
            message = await receive()
            if message["type"] == "http.request":
                size += len(message.get("body", b""))
                if size > limit:
                    raise HTTPException(413, say(self.lang, TOO_LARGE, limit=limit))
            return message

        await self.app(scope, counted, send)
