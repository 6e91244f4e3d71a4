"""``prefcalc serve``: the pool sheet on every phone at the table, and scoring from a phone.

Imported only by the ``serve`` command (FastAPI, uvicorn, Jinja2, sse-starlette and segno
are not loaded by the rest of the CLI).
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from prefcalc.errors import PrefcalcError
from prefcalc.i18n import _
from prefcalc.qr import qr_text
from prefcalc.web import games
from prefcalc.web.app import create_app
from prefcalc.web.tokens import check_token, new_token, score_token

__all__ = ["addresses", "create_app", "listen", "new_token", "serve", "serve_tournament"]


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
    out.write(qr_text(url))


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
    first = shown[0]
    out.write(f"prefcalc serve: {path}\n")
    _listening(out, host, shown, real_port)
    watch = _url(first, real_port, "/")
    out.write(_("watch: {url}").format(url=watch) + "\n")
    if qr:
        _qr(watch, out)
    if read_only:
        out.write(_("score: off (--read-only)") + "\n")
    else:
        score = _url(first, real_port, f"/score#token={secret}")
        out.write(_("score: {url}").format(url=score) + "\n")
        if qr:
            _qr(score, out)
    games.print_install(out, _url(first, real_port, "/app/"), qr, _qr)
    # the event streams end their responses before the server stops
    _run(app, sock, app.state.table.watcher.close, out)


def serve_tournament(
    folder: Path,
    host: str = "0.0.0.0",
    port: int = 8000,
    read_only: bool = False,
    lang: str = "en",
    out: TextIO = sys.stdout,
    qr: bool = True,
    new: bool = False,
) -> None:
    """Serve the tournament in ``folder`` until interrupted: the hall's page, and each table
    of the round with its own score link (its token kept for its ledger, as ``serve``
    keeps one per game; ``new``: new tokens for the round's tables)."""
    from prefcalc.web.hall import create_hall_app, table_links

    tables = table_links(folder)  # a folder that is not a tournament is refused before anything
    sock = listen(host, port)
    kept: dict[Path, str] = {}
    try:  # each table of the round gets its token now (and is kept), a read-only hall none
        for _round, _table, ledger in tables:
            kept[ledger] = new_token() if read_only else score_token(ledger, None, new)
    except BaseException:
        sock.close()
        raise

    def token_of(ledger: Path) -> str:
        """A table's token: the one printed, else (a round drawn since) the one kept (a new
        one with ``new``)."""
        if ledger not in kept:
            kept[ledger] = new_token() if read_only else score_token(ledger, None, new)
        return kept[ledger]

    real_port = int(sock.getsockname()[1])
    shown = addresses(host)
    first = shown[0]

    def link(round_: int, number: int, token: str) -> None:
        score = _url(first, real_port, f"/t/{round_}/{number}/score#token={token}")
        out.write(
            _("round {round}, table {table}, score: {url}").format(
                round=round_, table=number, url=score
            )
            + "\n"
        )
        if qr:
            _qr(score, out)

    def announce(round_: int, links: Sequence[tuple[int, str]], problems: Sequence[str]) -> None:
        """A round drawn while the hall is served: its tables' score links, one line each
        (a read-only hall: one line saying the round is on its page)."""
        if read_only:
            out.write(
                _("round {round} is drawn: its tables are on the hall's page").format(round=round_)
                + "\n"
            )
        else:
            for number, token in links:
                link(round_, number, token)
        for line in problems:
            out.write(line + "\n")
        out.flush()

    app = create_hall_app(
        folder,
        token_of,
        read_only=read_only,
        lang=lang,
        hosts=host_names(host, shown),
        announce=announce,
        announced=tables[-1][0] if tables else 0,
    )
    out.write(f"prefcalc serve --tournament: {folder}\n")
    _listening(out, host, shown, real_port)
    url = _url(first, real_port, "/")
    out.write(_("the hall: {url}").format(url=url) + "\n")
    if qr:
        _qr(url, out)
    if not tables:
        out.write(
            _(
                "no round is drawn yet: once drawn, its tables appear on the hall's page and their score links here"
            )
            + "\n"
        )
    elif read_only:
        out.write(_("score: off (--read-only)") + "\n")
    for round_, number, ledger in [] if read_only else tables:
        link(round_, number, kept[ledger])
    # the event streams end their responses before the server stops
    _run(app, sock, app.state.hall.close, out)


def _listening(out: TextIO, host: str, shown: list[str], port: int) -> None:
    """The line that says where the server listens (and when only this computer reaches it)."""
    listening = ", ".join(f"{a}:{port}" for a in shown)
    if host.startswith("127."):
        out.write(_("listening on {addresses} (this computer only)").format(addresses=listening))
    else:
        out.write(_("listening on {addresses}").format(addresses=listening))
    out.write("\n")


def _run(app: Any, sock: socket.socket, closing: Callable[[], None], out: TextIO) -> None:
    """Serve ``app`` on ``sock`` until interrupted (``serve`` and ``serve --tournament``
    alike): no access log (a score link's token never reaches a log), no Server header, a
    second to finish at Ctrl-C, and ``closing()`` first (the watchers end their event
    streams, so the server does not wait for them)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        access_log=False,
        log_level="warning",
        server_header=False,
        timeout_graceful_shutdown=1,
    )

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            closing()
            super().handle_exit(sig, frame)

    out.write(_("Ctrl-C stops the server.") + "\n")
    out.flush()
    sock.listen(2048)
    Server(config).run(sockets=[sock])
