"""Run the class table's server: :class:`TableServer` (uvicorn in a background thread, for a
notebook and the tests) and :func:`serve` (the command line: blocks until Ctrl+C).

The server owns one asyncio event loop, in its thread; every table lives on it. Code in another
thread (a notebook cell, a test) reaches a table only through :meth:`TableServer.call`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO, TypeVar

import uvicorn

from bus_lab.table.hub import Hub
from bus_lab.table.server import TableApp, create_app

T = TypeVar("T")

#: The largest websocket message uvicorn accepts, in bytes (messages are at most
#: ``Limits.max_message_chars`` characters; a bigger frame closes the socket).
WS_MAX_SIZE = 4096
#: Seconds :meth:`TableServer.start` waits for the server to listen.
START_TIMEOUT_S = 20.0
#: Host names that mean "every network interface".
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
#: The one warning printed when the server listens beyond this computer.
NETWORK_WARNING = (
    "Warning: anyone on this network who can reach this address can join this table "
    "(keep the host link to yourself)."
)


def _url_host(host: str) -> str:
    """``host`` as it goes in a URL: the loopback for a wildcard, IPv6 in brackets."""
    if host in WILDCARD_HOSTS:
        return "127.0.0.1"
    try:
        if ipaddress.ip_address(host).version == 6:
            return f"[{host}]"
    except ValueError:
        pass
    return host


def is_loopback(host: str) -> bool:
    """True when ``host`` is only reachable from this computer (127.x, ::1, ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class TableServer:
    """The table server (uvicorn + :func:`~bus_lab.table.server.create_app`) in a daemon thread.

    Args:
        hub (Hub | None): the tables; a new empty :class:`Hub` when None.
        host (str): the address to listen on (``"127.0.0.1"``: this computer only;
            ``"0.0.0.0"``: every network interface).
        port (int): the port; 0 picks a free one (read :attr:`port` after :meth:`start`).
        pace_s (float | None): seconds between automatic steps for a new hub (None: the
            limits' ``pace_s``); ignored when ``hub`` is given.

    Attributes:
        hub (Hub): the tables.
        host (str): the address listened on.
        port (int): the real port once started.
        app: the Starlette app.

    Example::

        server = TableServer().start()
        table = server.call(server.hub.create_table, "busstop")
        print(server.join_url(table.code))
        ...
        server.stop()
    """

    def __init__(
        self, hub: Hub | None = None, host: str = "127.0.0.1", port: int = 0, pace_s: float | None = None
    ):
        self.hub = hub if hub is not None else Hub(pace_s=pace_s)
        self.host = host
        self.port = port
        self.app = create_app(self.hub)
        self._tables: TableApp = self.app.state.tables
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle

    @property
    def running(self) -> bool:
        """True between a successful :meth:`start` and :meth:`stop`."""
        return self._thread is not None and self._thread.is_alive() and self._server is not None

    def start(self) -> TableServer:
        """Start listening; returns once the server accepts connections.

        Returns:
            TableServer: ``self`` (so ``TableServer().start()`` reads well).

        Raises:
            RuntimeError: already started, or the server could not start (e.g. the port is
                taken: the text says so).
        """
        if self._thread is not None:
            raise RuntimeError("this table server is already started")
        config = uvicorn.Config(
            self.app,
            host=self.host,
            port=self.port,
            # the websockets library through its Sans-I/O layer: uvicorn's default since 0.50,
            # its older "websockets" implementation is deprecated (it warns on import)
            ws="websockets-sansio",
            ws_max_size=WS_MAX_SIZE,
            lifespan="on",
            access_log=False,
            server_header=False,
            log_level="warning",
            loop="asyncio",
        )
        server = uvicorn.Server(config)
        failure: list[BaseException] = []

        def run() -> None:
            try:
                server.run()  # signal handlers are installed only in the main thread
            except BaseException as exc:  # SystemExit when the port is taken
                failure.append(exc)

        thread = threading.Thread(target=run, name=f"bus_lab-table-{self.port}", daemon=True)
        self._server, self._thread = server, thread
        thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                server.should_exit = True
                thread.join(5)
                self._server = self._thread = None
                where = f"{self.host}:{self.port}"
                raise RuntimeError(
                    f"the table server could not listen on {where} (is the port in use? try another "
                    "port, or port 0 for a free one)"
                ) from (failure[0] if failure else None)
            time.sleep(0.01)
        sockets = [s for srv in server.servers for s in (srv.sockets or ())]
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        return self

    def stop(self) -> None:
        """Stop the server: close every socket, end the pacing and sweep tasks, join the thread.

        Safe to call twice, or on a server never started.
        """
        server, thread = self._server, self._thread
        if server is None or thread is None:
            return
        server.should_exit = True
        thread.join(15)
        self._server = self._thread = None

    def __enter__(self) -> TableServer:
        return self.start() if self._thread is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def public_url(self) -> str | None:
        """The join address people on the network type (``"http://192.168.1.20:8765/"``), shown
        with a QR code on the projector page; None (the default): the projector page shows the
        address it was opened at. Set it once the port is known."""
        return self._tables.public_url

    @public_url.setter
    def public_url(self, url: str | None) -> None:
        self._tables.public_url = url

    # ------------------------------------------------------------------ the loop

    def call(self, fn: Callable[..., T], *args: Any, timeout: float = 30.0) -> T:
        """Run ``fn(*args)`` on the server's loop and return its result.

        Table and hub methods are not thread-safe: from a notebook or a test, go through this.
        Tables the call creates are served at once (the server starts listening to them).

        Args:
            fn: a plain (synchronous) function, e.g. ``hub.create_table`` or ``table.start``
                followed by ``table.changed`` (wrap several steps in one function).
            *args: its arguments.
            timeout (float): seconds to wait for the loop.

        Returns:
            whatever ``fn`` returns.

        Raises:
            RuntimeError: the server is not running.
            Exception: whatever ``fn`` raised, re-raised here.
        """
        loop = self._tables.loop
        if not self.running or loop is None:
            raise RuntimeError("the table server is not running: call start() first")
        if self._tables.loop_thread == threading.get_ident():
            result = fn(*args)
            self._tables.adopt()
            return result

        async def run() -> T:
            value = fn(*args)
            self._tables.adopt()
            return value

        return asyncio.run_coroutine_threadsafe(run(), loop).result(timeout)

    # ------------------------------------------------------------------ addresses

    @property
    def url(self) -> str:
        """The server's base URL for this computer, e.g. ``"http://127.0.0.1:8765"``."""
        return f"http://{_url_host(self.host)}:{self.port}"

    def join_url(self, code: str) -> str:
        """The join page with ``code`` filled in (what the QR code holds)."""
        return f"{self.url}/?code={code}"

    def seat_url(self, code: str) -> str:
        """A seat's page of table ``code``."""
        return f"{self.url}/t/{code}"

    def watch_url(self, code: str) -> str:
        """The projector's page of table ``code`` (public view only)."""
        return f"{self.url}/watch/{code}"

    def host_url(self, code: str) -> str:
        """The host's page of table ``code``; the host key is in the fragment (never sent to
        the server in the request, so it is never in a log). Keep this link private."""
        return f"{self.url}/host/{code}#key={self.hub.host_key}"


# ---------------------------------------------------------------------------- command line


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses other people on the network may reach (best guess).

    Returns:
        list[str]: addresses such as ``"192.168.1.20"``, loopback and link-local left out;
        empty when none is found.
    """
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    result: list[str] = []
    for address in found:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in result:
            result.append(address)
    return result


def share_url(host: str, port: int, addresses: Sequence[str] = ()) -> str | None:
    """The join address to show on the projector page, or None when only this computer can
    reach the server (the page then shows the address it was opened at).

    Args:
        host (str): the address listened on.
        port (int): the real port.
        addresses (Sequence[str]): this computer's network addresses (for a wildcard host).

    Returns:
        str | None: e.g. ``"http://192.168.1.20:8765/"``.
    """
    if is_loopback(host):
        return None
    if host in WILDCARD_HOSTS:
        return f"http://{_url_host(addresses[0])}:{port}/" if addresses else None
    return f"http://{_url_host(host)}:{port}/"


def banner_lines(
    host: str, port: int, code: str, host_key: str, game_title: str = "", addresses: Sequence[str] = ()
) -> list[str]:
    """What the command line prints once the server listens.

    Args:
        host (str): the address listened on.
        port (int): the real port.
        code (str): the table's join code.
        host_key (str): the server's host secret (goes in the host link's fragment).
        game_title (str): the game's title, for the first line.
        addresses (Sequence[str]): the addresses to share when ``host`` is not the loopback
            (for a wildcard host: :func:`lan_addresses`).

    Returns:
        list[str]: the lines: the join page and code, the projector and host links, and, when
        the server is reachable from the network, the address(es) to share and ONE warning line
        (:data:`NETWORK_WARNING`).
    """
    local = f"http://{_url_host(host)}:{port}"
    lines = [f"Class table{': ' + game_title if game_title else ''}"]
    lines.append(f"Join page: {local}/   code {code}")
    lines.append(f"Projector: {local}/watch/{code}")
    lines.append(f"Host link (keep it private): {local}/host/{code}#key={host_key}")
    if not is_loopback(host):
        shared = list(addresses) if host in WILDCARD_HOSTS else [host]
        if shared:
            for address in shared:
                lines.append(f"Students open: http://{_url_host(address)}:{port}/?code={code}")
        else:
            lines.append("Students open this computer's network address, port " + str(port))
        lines.append(NETWORK_WARNING)
    lines.append("Press Ctrl+C to stop the table.")
    return lines


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    game: str = "ride_the_bus",
    pace_s: float | None = None,
    options: dict[str, Any] | None = None,
    out: TextIO | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Run a table server until Ctrl+C (the command line ``python -m bus_lab.table``).

    Creates one table of ``game`` at start and prints its join page and code, the projector
    link, the host's secret link and, when the server listens beyond this computer, the
    address(es) to share and a warning.

    Args:
        host (str): the address to listen on (``"0.0.0.0"`` for every network interface).
        port (int): the port (0: a free one).
        game (str): the registered game of the first table.
        pace_s (float | None): seconds between automatic steps (None: the limits' default).
        options (dict | None): the first table's game options (e.g. ``{"players": 4}``).
        out (TextIO | None): where to print (default ``sys.stdout``).
        stop (threading.Event | None): set it to stop the server (tests); else Ctrl+C.

    Raises:
        RuntimeError: the server could not start (port in use).
        TableError: the game or options are refused.
    """
    out = out or sys.stdout
    server = TableServer(host=host, port=port, pace_s=pace_s).start()
    try:
        table = server.call(server.hub.create_table, game, dict(options or {}))
        title = str(table.lobby_info().get("title", game))
        addresses = lan_addresses() if host in WILDCARD_HOSTS else []
        server.public_url = share_url(host, server.port, addresses)
        for line in banner_lines(host, server.port, table.code, server.hub.host_key, title, addresses):
            print(line, file=out, flush=True)
        waiter = stop or threading.Event()
        while not waiter.wait(0.5):
            if not server.running:
                break
    except KeyboardInterrupt:
        print("Stopping the table.", file=out, flush=True)
    finally:
        server.stop()
