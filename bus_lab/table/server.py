"""The class table's web server: pages, static files and the websocket (a Starlette app).

:func:`create_app` builds the app for a :class:`~bus_lab.table.hub.Hub`. Routes (every URL the
pages use is relative, so the app also works behind a path prefix such as JupyterHub's
``/user/<name>/proxy/8765/``; nothing here emits an absolute URL or a redirect)::

    GET /                 join page (code + name form; ?code=ABCDE pre-fills it)
    GET /t/{code}         a seat's page          GET /watch/{code}  the projector's page
    GET /host/{code}      the host's page (the host key travels in the URL fragment, #key=...)
    GET /static/board.js  the board's ES module  GET /static/board.css
    GET /static/table.js  the pages' script      GET /static/table.css  (and icon.svg)
    GET /healthz          "ok"
    WS  /ws               the protocol (see :mod:`bus_lab.table.protocol`)

An unknown or closed code gives a 404 page that says so and links back to the join page.

All table state lives on the server's event loop. Each websocket connection has a send task
that owns every write to that socket: small messages (welcome, error, pong, record) wait in a
short queue, and frames are a single "newest frame wanted" slot, built for the connection's own
role and seat when the task gets to it. So a slow phone only delays itself, and a burst of
changes in one loop turn sends one frame. A per-table pacing task takes the automatic steps
(cards drawn, bots) with a pause between them, and a periodic task closes idle tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from bus_lab.board.assets import board_css, board_esm
from bus_lab.engine.errors import BusLabError
from bus_lab.table import pages
from bus_lab.table.codes import normalize_code, same_secret
from bus_lab.table.frames import games_schema
from bus_lab.table.hub import Hub
from bus_lab.table.protocol import (
    MAX_CODE_CHARS,
    CommandMessage,
    ConfigureValue,
    ControlMessage,
    Hello,
    MoveMessage,
    PingMessage,
    ProtocolError,
    RateLimiter,
    parse_hello,
    parse_message,
)
from bus_lab.table.protocol import (
    Message as ClientMessage,
)
from bus_lab.table.table import Table, TableError, UnknownTableError

logger = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"

#: The Content-Security-Policy of every response: scripts and styles from this server only (inline
#: styles allowed for the board's computed layout), images from here or data: URLs, the websocket
#: to this server only.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'"
)
#: Headers added to every HTTP response.
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}

#: Websocket close codes (4000-4999 are the application's own).
CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
CLOSE_ERROR = 1011
CLOSE_BAD_SECRET = 4403
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_FULL = 4409
CLOSE_TOO_MANY_FAILURES = 4429

#: Seconds between two sweeps of idle tables.
SWEEP_EVERY_S = 30.0
#: Small messages waiting for one connection's send task before it is considered stuck.
MAX_QUEUED = 64
#: Seconds a closing connection's send task gets to flush its last messages.
FLUSH_S = 5.0


class Connection:
    """One websocket after its welcome: who it is, and the queue its send task drains.

    Attributes:
        websocket (WebSocket): the socket (only the send task writes to it).
        table (Table): the table it belongs to.
        role (str): ``"seat"``, ``"projector"`` or ``"host"``.
        seat (int | None): the seat for ``"seat"``, else None (it follows the seat's token
            when the host's settings move people to other seats).
        token (str | None): the seat's token (``"seat"`` only; never sent again).
        address (str): the client's address (for limits).
        limiter (RateLimiter): this connection's message rate.
        log_open (bool): the page's log is open (the ``control`` message ``log``).
    """

    def __init__(
        self,
        websocket: WebSocket,
        table: Table,
        role: str,
        seat: int | None,
        address: str,
        limiter: RateLimiter,
        token: str | None = None,
    ) -> None:
        self.websocket = websocket
        self.table = table
        self.role = role
        self.seat = seat
        self.token = token
        self.address = address
        self.limiter = limiter
        self.log_open = False
        self.outbox: deque[str] = deque()
        self.frame_wanted = False
        self.close_code: int | None = None
        self.wake = asyncio.Event()

    def push(self, message: dict[str, Any]) -> None:
        """Queue a small message (after the ones already queued, before the next frame).

        A connection whose queue is full is closed (its device stopped reading).
        """
        if self.close_code is not None:
            return
        if len(self.outbox) >= MAX_QUEUED:
            self.close(CLOSE_POLICY)
            return
        self.outbox.append(json.dumps(message, separators=(",", ":"), ensure_ascii=False))
        self.wake.set()

    def error(self, text: str) -> None:
        """Tell this device only that its message was refused (nothing on the table changed)."""
        self.push({"type": "error", "text": text, "seq": self.table.version})

    def want_frame(self) -> None:
        """Ask for a fresh frame (built when the send task gets to it: always the newest)."""
        if self.close_code is None:
            self.frame_wanted = True
            self.wake.set()

    def close(self, code: int) -> None:
        """Close the socket with ``code`` once the queued messages are sent."""
        if self.close_code is None:
            self.close_code = code
            self.frame_wanted = False
        self.wake.set()


class TableApp:
    """The server side of the hub: connections per table, pacing tasks, the sweep.

    Created by :func:`create_app` (``app.state.tables``). Every method runs on the server's loop.

    Args:
        hub (Hub): the tables.
        sweep_every_s (float): seconds between sweeps of idle tables.
        clock (Callable[[], float]): seconds for the connections' rate limiters.
        public_url (str | None): the join address people on the network type, e.g.
            ``"http://192.168.1.20:8765/"``: the projector page shows it with a QR code. None:
            the projector page shows the address it was itself opened at (behind a proxy, the
            only one that works).

    Attributes:
        public_url (str | None): as above; may be set while the server runs.
    """

    def __init__(
        self,
        hub: Hub,
        sweep_every_s: float = SWEEP_EVERY_S,
        clock: Callable[[], float] | None = None,
        public_url: str | None = None,
    ):
        self.hub = hub
        self.public_url = public_url
        self.limits = hub.limits
        self.sweep_every_s = sweep_every_s
        self.clock = clock or time.monotonic
        self.loop: asyncio.AbstractEventLoop | None = None
        self.loop_thread: int | None = None
        self.connections: dict[str, set[Connection]] = {}
        self.adopted: dict[str, Table] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.frames: dict[str, tuple[int, dict[tuple[str, int | None], str]]] = {}
        self._sweeper: asyncio.Task[None] | None = None

    # -------------------------------------------------------------------- lifecycle

    @property
    def pace_s(self) -> float:
        """Seconds between two automatic steps (the hub's ``pace_s``)."""
        return float(self.hub.pace_s)

    async def startup(self) -> None:
        """Start on the running loop: adopt the hub's tables, start the sweep task."""
        self.loop = asyncio.get_running_loop()
        self.loop_thread = threading.get_ident()
        self.adopt()
        games_schema()  # loads every game once now, not while a table waits for its host frame
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="table-sweep")

    async def shutdown(self) -> None:
        """Stop the sweep and pacing tasks and stop listening to the tables."""
        tasks = [t for t in [self._sweeper, *self.drivers.values()] if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.drivers.clear()
        for table in list(self.adopted.values()):
            table.remove_listener(self.on_change)
        self.adopted.clear()

    def adopt(self) -> None:
        """Listen to every table of the hub not listened to yet, and start its pacing if due.

        Called at startup, after each hello, after each :meth:`TableServer.call` and at each
        sweep, so tables created from a notebook or the command line are served too.
        """
        for code, table in list(self.hub.tables.items()):
            if self.adopted.get(code) is not table and table.phase != "closed":
                self.adopted[code] = table
                table.add_listener(self.on_change)
                self.wake(table)

    # -------------------------------------------------------------------- changes

    def on_change(self, table: Table) -> None:
        """The table listener: re-send frames, wake the pacing task, say goodbye when closed."""
        if self.loop is not None and threading.get_ident() != self.loop_thread:
            self.loop.call_soon_threadsafe(self.on_change, table)
            return
        if table.phase == "closed":
            self.closed(table, table.notice or "This table is closed. Thank you for playing!")
            return
        if table.phase == "lobby":
            self._reseat(table)
        for conn in self.connections.get(table.code, ()):
            conn.want_frame()
        self.wake(table)

    def refresh_hosts(self, table: Table) -> None:
        """Re-send the host frames only and tell the table's presence listeners (who is
        connected changed; the table itself did not, so its version stays)."""
        for conn in self.connections.get(table.code, ()):
            if conn.role == "host":
                conn.want_frame()
        table.presence_changed()

    def closed(self, table: Table, text: str) -> None:
        """Tell every device of a closed table, close their sockets and forget the table."""
        for conn in list(self.connections.get(table.code, ())):
            conn.push({"type": "closed", "text": text})
            conn.close(CLOSE_NORMAL)
        if self.adopted.get(table.code) is table:
            del self.adopted[table.code]
            table.remove_listener(self.on_change)
        driver = self.drivers.pop(table.code, None)
        if driver is not None:
            driver.cancel()
        self.frames.pop(table.code, None)

    def wake(self, table: Table) -> None:
        """Start the table's pacing task if an automatic step is due and none is running."""
        if self.loop is None or table.phase == "closed":
            return
        running = self.drivers.get(table.code)
        if running is not None and not running.done():
            return
        if table.next_automatic():
            self.drivers[table.code] = asyncio.create_task(
                self._drive(table), name=f"table-pace-{table.code}"
            )

    async def _drive(self, table: Table) -> None:
        """Take the automatic steps at the hub's pace (:meth:`Hub.drive`): ``pace_s`` apart, each
        one broadcast; pace 0: all at once, then one change."""
        try:
            await self.hub.drive(table)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug in a game or a bot must not take the server down
            logger.exception("automatic step failed on table %s", table.code)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_every_s)
            self.sweep()

    def sweep(self) -> list[str]:
        """Close idle and ended tables (``Hub.sweep``) and tell their devices.

        Returns:
            list[str]: the codes closed.
        """
        tables = dict(self.adopted)
        codes = self.hub.sweep()
        for code in codes:
            table = tables.get(code) or self.hub.tables.get(code)
            if table is not None:
                self.closed(table, "This table was closed after a long time without play.")
        self.adopt()
        return codes

    # -------------------------------------------------------------------- frames

    def frame_text(self, conn: Connection) -> str:
        """The ``{"type": "frame"}`` message for ``conn``, built for its role and seat.

        Seat and projector frames depend only on the table's version, so they are built once
        per version and shared by every device of the same seat (or every projector).
        """
        table = conn.table
        if conn.role == "host":
            return _dumps({"type": "frame", "frame": table.host_frame()})
        version, cache = self.frames.get(table.code, (-1, {}))
        if version != table.version:
            cache = {}
            self.frames[table.code] = (table.version, cache)
        key = (conn.role, conn.seat)
        text = cache.get(key)
        if text is None:
            frame = table.projector_frame() if conn.role == "projector" else table.seat_frame(_seat(conn))
            text = cache[key] = _dumps({"type": "frame", "frame": frame})
        return text

    async def _send_loop(self, conn: Connection) -> None:
        """The connection's only writer: queued messages first, then the newest frame."""
        ws = conn.websocket
        try:
            while True:
                await conn.wake.wait()
                await asyncio.sleep(0)  # let the rest of this loop turn's changes land first
                conn.wake.clear()
                while conn.outbox:
                    await ws.send_text(conn.outbox.popleft())
                if conn.close_code is not None:
                    await ws.close(conn.close_code)
                    return
                if conn.frame_wanted:
                    conn.frame_wanted = False
                    try:
                        text = self.frame_text(conn)
                    except Exception:  # a bug in a frame must not stop the other devices
                        logger.exception("building a %s frame of table %s failed", conn.role, conn.table.code)
                        conn.close(CLOSE_ERROR)
                        continue
                    await ws.send_text(text)
        except asyncio.CancelledError:
            raise
        except Exception:  # the device went away while we were writing to it
            return

    # -------------------------------------------------------------------- websocket

    async def websocket_endpoint(self, websocket: WebSocket) -> None:
        """``/ws``: the hello, the welcome, then the connection's messages until it closes."""
        await websocket.accept()
        conn = await self._hello(websocket)
        if conn is None:
            return
        table = conn.table
        self.connections.setdefault(table.code, set()).add(conn)
        if conn.seat is not None:
            table.seats[conn.seat].connections += 1
            self.refresh_hosts(table)
        sender = asyncio.create_task(self._send_loop(conn), name=f"table-send-{table.code}")
        conn.want_frame()
        try:
            await self._receive_loop(conn)
        finally:
            self.connections.get(table.code, set()).discard(conn)
            if conn.seat is not None and conn.seat < len(table.seats):
                seat = table.seats[conn.seat]
                seat.connections = max(0, seat.connections - 1)
                self.refresh_hosts(table)
            if conn.close_code is not None and not sender.done():
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(sender), FLUSH_S)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def _receive_loop(self, conn: Connection) -> None:
        ws = conn.websocket
        while conn.close_code is None:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if conn.close_code is not None:
                return
            if not conn.limiter.allow():
                self._refuse(conn, "Too many messages: wait a moment, then try again.")
                continue
            try:
                parsed = parse_message(message.get("text"), conn.role, self.limits.max_message_chars)
            except ProtocolError as exc:
                self._refuse(conn, exc.text)
                continue
            try:
                self.handle(conn, parsed)
            except Exception:  # a fault in the table's code: this device is told, the others go on
                logger.exception("a %s message on table %s failed", type(parsed).__name__, conn.table.code)
                conn.error("The table could not do that (a fault on the server): try again.")

    def _refuse(self, conn: Connection, text: str) -> None:
        if conn.limiter.refuse():
            conn.close(CLOSE_POLICY)
        else:
            conn.error(text)

    async def _hello(self, websocket: WebSocket) -> Connection | None:
        """Read and check the first message; send the welcome or refuse and close."""
        limits = self.limits
        try:
            message = await asyncio.wait_for(websocket.receive(), limits.hello_timeout_s)
        except TimeoutError:
            await _refuse(websocket, CLOSE_POLICY, "No hello arrived in time: reload the page.")
            return None
        if message["type"] == "websocket.disconnect":
            return None
        try:
            hello = parse_hello(message.get("text"), limits.max_message_chars, limits.max_name_chars)
        except ProtocolError as exc:
            await _refuse(websocket, CLOSE_POLICY, exc.text)
            return None
        address = websocket.client.host if websocket.client else "unknown"
        if self.hub.joins_blocked(address):
            await _refuse(websocket, CLOSE_TOO_MANY_FAILURES, _TOO_MANY)
            return None
        self.adopt()
        try:
            table = self.hub.table(hello.code)
            if table.phase == "closed":
                raise UnknownTableError(table.code)
        except TableError:
            shown = _code_text(hello.code)
            text = f"No open table has the code {shown}. Check the code with your teacher."
            await self._failed(websocket, address, CLOSE_UNKNOWN_TABLE, text)
            return None
        present = self.connections.get(table.code, ())
        if len(present) >= limits.max_connections_per_table:
            await _refuse(websocket, CLOSE_FULL, "Too many devices are connected to this table.")
            return None
        if hello.kind == "watch" and (
            sum(c.role == "projector" for c in present) >= limits.max_projectors_per_table
        ):
            await _refuse(websocket, CLOSE_FULL, "Too many projector pages are open for this table.")
            return None
        welcome = await self._welcome(websocket, hello, table, address)
        if welcome is None:
            return None
        role, seat, token = welcome
        limiter = RateLimiter(limits.rate_per_second, limits.rate_burst, limits.flood_close_after, self.clock)
        conn = Connection(websocket, table, role, seat, address, limiter, token)
        reply: dict[str, Any] = {"type": "welcome", "role": role, "code": table.code, "seat": seat}
        if hello.kind == "join":
            reply["token"] = token
        conn.push(reply)
        return conn

    async def _welcome(
        self, websocket: WebSocket, hello: Hello, table: Table, address: str
    ) -> tuple[str, int | None, str | None] | None:
        """The role, seat and (seats only) token for a hello, or None once refused."""
        if hello.kind == "join":
            assert hello.name is not None
            try:
                seat, token = table.join(hello.name)
            except TableError as exc:
                await _refuse(websocket, CLOSE_FULL, str(exc))
                return None
            table.changed()
            return "seat", seat, token
        if hello.kind == "resume":
            assert hello.token is not None
            try:
                seat = table.resume(hello.token)
            except TableError:
                text = "This device's seat is not at this table any more: join again with your name."
                await self._failed(websocket, address, CLOSE_BAD_SECRET, text)
                return None
            return "seat", seat, hello.token
        if hello.kind == "host":
            assert hello.key is not None
            if not same_secret(hello.key, self.hub.host_key):
                text = "This host link is not valid: open the link the server printed."
                await self._failed(websocket, address, CLOSE_BAD_SECRET, text)
                return None
            return "host", None, None
        return "projector", None, None

    async def _failed(self, websocket: WebSocket, address: str, code: int, text: str) -> None:
        """Refuse a failed join/resume/host hello, counting it against the client's address."""
        if not self.hub.note_failed_join(address):
            code, text = CLOSE_TOO_MANY_FAILURES, _TOO_MANY
        await _refuse(websocket, code, text)

    # -------------------------------------------------------------------- messages

    def handle(self, conn: Connection, message: ClientMessage) -> None:
        """Act on one validated message; a refusal goes to this connection only."""
        table = conn.table
        if isinstance(message, PingMessage):
            conn.push({"type": "pong"})
            return
        if isinstance(message, ControlMessage):
            conn.log_open = message.value
            return
        try:
            if isinstance(message, MoveMessage):
                table.move(_seat(conn), message.action, message.seq)
                table.changed()
            elif isinstance(message, CommandMessage):
                self.command(conn, message)
        except (TableError, BusLabError) as exc:
            conn.error(str(exc))

    def command(self, conn: Connection, message: CommandMessage) -> None:
        """Run a host command (raises TableError with the reason when the table refuses it)."""
        table = conn.table
        name, value = message.name, message.value
        if name == "record":
            conn.push({"type": "record", "record": table.record()})
            return
        if name == "configure":
            assert isinstance(value, ConfigureValue)
            # the table refuses what a page may not set (a sheet's file path) and unknown options
            table.configure(value.game, dict(value.options), list(value.people), value.bot, value.seed)
        elif name == "start":
            table.start()
        elif name == "pause":
            table.pause()
        elif name == "resume":
            table.resume_play()
        elif name == "continue":
            table.continue_()
        elif name in ("bot", "person"):
            assert isinstance(value, int)
            table.set_bot(value, name == "bot")
        elif name == "end":
            table.end()
        elif name == "again":
            table.again()
        elif name == "close":
            table.close()
        elif name == "kick":
            assert isinstance(value, int)
            table.leave(value)  # the page of that seat is sent away when the table changes
        table.changed()

    def _reseat(self, table: Table) -> None:
        """In the lobby, point each seat's pages at the seat their token holds now (new settings
        move people to other seats), and send away the pages of a seat the host freed."""
        for conn in list(self.connections.get(table.code, ())):
            if conn.role != "seat" or conn.token is None or conn.close_code is not None:
                continue
            try:
                conn.seat = table.resume(conn.token)
            except TableError:
                conn.push({"type": "refused", "text": "The host freed your seat: join again with your name."})
                conn.close(CLOSE_BAD_SECRET)


_TOO_MANY = "Too many wrong codes or links from this device: wait a minute, then try again."


def _seat(conn: Connection) -> int:
    if conn.seat is None:
        raise TableError("Only a seat can do that.")
    return conn.seat


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _code_text(text: str) -> str:
    """A code as typed, reduced to letters, digits and dashes (safe to show back)."""
    return re.sub(r"[^A-Za-z0-9-]", "", text)[:MAX_CODE_CHARS]


async def _refuse(websocket: WebSocket, code: int, text: str) -> None:
    """Send ``{"type": "refused"}`` and close with ``code`` (used before any send task exists)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(_dumps({"type": "refused", "text": text}))
        await websocket.close(code)


# ------------------------------------------------------------------------------ HTTP


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response.

    Args:
        app: the wrapped ASGI app.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _page(html: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(html, status_code=status, headers={"cache-control": "no-store"})


class _Asset:
    """A static file served with an ETag (the browser revalidates, a 304 costs nothing)."""

    def __init__(self, load: Callable[[], str], media_type: str) -> None:
        self.load = load
        self.media_type = media_type
        self.body: bytes | None = None
        self.etag = ""

    def response(self, request: Request) -> Response:
        if self.body is None:
            try:
                self.body = self.load().encode("utf-8")
            except OSError:
                return PlainTextResponse("Not found", status_code=404)
            self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:20] + '"'
        headers = {"cache-control": "no-cache", "etag": self.etag}
        if request.headers.get("if-none-match") == self.etag:
            return Response(status_code=304, headers=headers)
        return Response(self.body, media_type=self.media_type, headers=headers)


def _static_text(name: str) -> Callable[[], str]:
    return lambda: (STATIC / name).read_text(encoding="utf-8")


def create_app(
    hub: Hub,
    *,
    sweep_every_s: float = SWEEP_EVERY_S,
    clock: Callable[[], float] | None = None,
    public_url: str | None = None,
) -> Starlette:
    """The Starlette app serving ``hub``'s tables.

    Args:
        hub (Hub): the tables (created empty by the caller, or with tables already in it).
        sweep_every_s (float): seconds between sweeps of idle tables.
        clock (Callable[[], float] | None): seconds for the connections' rate limiters
            (default: ``time.monotonic``). Tests inject one.
        public_url (str | None): the join address to show on the projector page (see
            :class:`TableApp`; ``app.state.tables.public_url`` may be changed later).

    Returns:
        Starlette: the app; ``app.state.tables`` is its :class:`TableApp`. Its lifespan starts
        the sweep task and the pacing tasks, so run it with lifespan on (uvicorn
        ``lifespan="on"``, or ``with TestClient(app)``).
    """
    tables = TableApp(hub, sweep_every_s=sweep_every_s, clock=clock, public_url=public_url)
    names = hub.limits.max_name_chars
    assets = {
        "board.js": _Asset(board_esm, "text/javascript"),
        "board.css": _Asset(board_css, "text/css"),
        "table.js": _Asset(_static_text("table.js"), "text/javascript"),
        "table.css": _Asset(_static_text("table.css"), "text/css"),
        "icon.svg": _Asset(_static_text("icon.svg"), "image/svg+xml"),
    }

    def table_or_none(code_text: str) -> Table | None:
        if len(code_text) > MAX_CODE_CHARS:
            return None
        tables.adopt()
        try:
            table = hub.table(code_text)
        except TableError:
            return None
        return None if table.phase == "closed" else table

    def unknown(code_text: str) -> HTMLResponse:
        return _page(pages.unknown_table_page(_code_text(code_text)), status=404)

    async def join(request: Request) -> Response:
        raw = request.query_params.get("code")
        code = normalize_code(raw) if raw and len(raw) <= MAX_CODE_CHARS else None
        return _page(pages.join_page(code, max_name_chars=names))

    def table_page(render: Callable[[str], str]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            code_text = request.path_params["code"]
            table = table_or_none(code_text)
            if table is None:
                return unknown(code_text)
            return _page(render(table.code))

        return endpoint

    async def static(request: Request) -> Response:
        asset = assets.get(request.path_params["name"])
        if asset is None:
            return PlainTextResponse("Not found", status_code=404)
        return asset.response(request)

    async def healthz(request: Request) -> Response:
        return PlainTextResponse("ok", headers={"cache-control": "no-store"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await tables.startup()
        try:
            yield
        finally:
            await tables.shutdown()

    routes = [
        Route("/", join),
        Route("/t/{code}", table_page(lambda code: pages.seat_page(code, max_name_chars=names))),
        Route("/watch/{code}", table_page(lambda code: pages.watch_page(code, join_url=tables.public_url))),
        Route("/host/{code}", table_page(pages.host_page)),
        Route("/static/{name}", static),
        Route("/healthz", healthz),
        WebSocketRoute("/ws", tables.websocket_endpoint),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    # A redirect from /t/CODE/ to /t/CODE would be an absolute URL without the proxy's prefix.
    app.router.redirect_slashes = False
    app.add_middleware(SecurityHeaders)
    app.state.tables = tables
    return app
