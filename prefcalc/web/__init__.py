"""``prefcalc serve``: the pool sheet on every phone at the table, and scoring from a phone.

Imported only by the ``serve`` command (FastAPI, uvicorn, Jinja2, sse-starlette and segno
are not loaded by the rest of the CLI).
"""

from __future__ import annotations

import re
import secrets
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import TextIO

from prefcalc.errors import PrefcalcError
from prefcalc.web import games
from prefcalc.web.app import create_app
from prefcalc.web.lines import execute_line

__all__ = ["addresses", "create_app", "execute_line", "new_token", "serve"]


def new_token() -> str:
    return secrets.token_urlsafe(16)


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
) -> None:
    """Serve the ledger at ``path`` until interrupted."""
    import uvicorn

    from prefcalc import api

    api.load(path)  # a missing or unreadable ledger is refused before anything
    if token is not None and not re.fullmatch(r"[A-Za-z0-9._~-]{1,200}", token):
        raise PrefcalcError(
            "--token takes letters, digits and - _ . ~ (it goes into the score link)"
        )
    secret = token or new_token()
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise PrefcalcError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    except (OverflowError, ValueError) as exc:
        sock.close()
        raise PrefcalcError(f"cannot listen on {host}:{port}: {exc}") from None
    real_port = int(sock.getsockname()[1])
    app = create_app(path, secret, read_only=read_only, lang=lang)
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
    shown = addresses(host)
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
