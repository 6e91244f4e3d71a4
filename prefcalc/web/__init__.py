"""``prefcalc serve``: the pool sheet on every phone at the table, and scoring from a phone.

Imported only by the ``serve`` command (FastAPI, uvicorn, Jinja2, sse-starlette and segno
are not loaded by the rest of the CLI).
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from types import FrameType
from typing import TextIO

from prefcalc.errors import PrefcalcError
from prefcalc.web import games
from prefcalc.web.app import create_app
from prefcalc.web.tokens import check_token, new_token, score_token

__all__ = ["addresses", "create_app", "listen", "new_token", "serve"]


def addresses(host: str) -> list[str]:
    """The addresses a phone can reach the server on: ``host`` itself, or for 0.0.0.0 this
    computer's addresses on its networks (the one with the default route first)."""
    if host not in ("0.0.0.0", "", "::"):
        return [host]
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:  # no packet is sent: connecting a UDP socket only picks the outgoing address
        probe.connect(("10.255.255.255", 1))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if address not in found and not address.startswith("127."):
                found.append(address)
    except OSError:
        pass
    found.append("127.0.0.1")
    return found


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (0: any free port), not yet listening.

    It is made from what ``getaddrinfo`` says of the address, protocol included: asyncio
    sets ``TCP_NODELAY`` only on connections accepted from a socket made for
    ``IPPROTO_TCP``, and without it every small answer on a kept-alive connection waits for
    Nagle's algorithm and the phone's delayed ACK (about 40 ms). A host that cannot be
    listened on is a one-line :class:`PrefcalcError`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        found = socket.getaddrinfo(
            host or "0.0.0.0",
            0,  # the port is bound as given (getaddrinfo would wrap one over 65535)
            family=family,
            type=socket.SOCK_STREAM,
            proto=socket.IPPROTO_TCP,
            flags=socket.AI_PASSIVE,
        )
    except OSError as exc:
        raise PrefcalcError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except (OverflowError, UnicodeError, ValueError) as exc:
        raise PrefcalcError(f"cannot listen on {host}:{port}: {exc}") from None
    family, kind, proto, _name, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((address[0], port, *address[2:]))
    except OSError as exc:
        sock.close()
        raise PrefcalcError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except (OverflowError, ValueError) as exc:
        sock.close()
        raise PrefcalcError(f"cannot listen on {host}:{port}: {exc}") from None
    return sock


def host_names(host: str, shown: list[str]) -> set[str]:
    """What a request's Host may name: the addresses printed, and this computer's own names
    (localhost, its host name; :func:`prefcalc.web.middleware.local_names`)."""
    from prefcalc.web.middleware import local_names

    return {*shown, *([host] if host not in ("0.0.0.0", "", "::") else []), *local_names()}


def _url(address: str, port: int, page: str) -> str:
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}:{port}{page}"


def _qr(url: str, out: TextIO) -> None:
    import segno

    segno.make(url, error="l").terminal(out=out, compact=True, border=2)


def serve(
    path: Path,
    host: str = "0.0.0.0",
    port: int = 8000,
    token: str | None = None,
    read_only: bool = False,
    lang: str = "en",
    out: TextIO = sys.stdout,
    qr: bool = True,
    new: bool = False,
) -> None:
    """Serve the ledger at ``path`` until interrupted. The score token is ``token``, else the
    one kept for this ledger by the last ``serve`` (a new one with ``new`` or the first
    time); whichever it is, it is kept for the next time (:mod:`prefcalc.web.tokens`)."""
    import uvicorn

    from prefcalc import api

    api.load(path)  # a missing or unreadable ledger is refused before anything
    if token is not None:
        check_token(token)  # a weak --token is refused before anything
    sock = listen(host, port)
    try:  # a read-only server has no score link: its token is never shown, kept or read
        secret = new_token() if read_only else score_token(path, token, new)
    except BaseException:
        sock.close()
        raise
    real_port = int(sock.getsockname()[1])
    shown = addresses(host)
    app = create_app(path, secret, read_only=read_only, lang=lang, hosts=host_names(host, shown))
    config = uvicorn.Config(
        app,
        access_log=False,  # the token never reaches a log
        log_level="warning",
        server_header=False,
        timeout_graceful_shutdown=1,
    )
    watcher = app.state.table.watcher

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            watcher.close()  # the event streams end their responses before the server stops
            super().handle_exit(sig, frame)

    server = Server(config)
    first = shown[0]
    out.write(f"prefcalc serve: {path}\n")
    out.write(f"listening on {', '.join(f'{a}:{real_port}' for a in shown)}")
    out.write(" (this computer only)\n" if host.startswith("127.") else "\n")
    watch = _url(first, real_port, "/")
    out.write(f"watch: {watch}\n")
    if qr:
        _qr(watch, out)
    if read_only:
        out.write("score: off (--read-only)\n")
    else:
        score = _url(first, real_port, f"/score#token={secret}")
        out.write(f"score: {score}\n")
        if qr:
            _qr(score, out)
    games.print_install(out, _url(first, real_port, "/app/"), qr, _qr)
    out.write("Ctrl-C stops the server.\n")
    out.flush()
    sock.listen(2048)
    server.run(sockets=[sock])
