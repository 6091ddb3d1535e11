"""Honest players and checks of a class table, shared by the table's fuzz and security tests.

A *table* (:class:`bus_lab.table.Table`) is driven here two ways:

* directly through its methods, as the server's loop does (:func:`settle`, :func:`honest_step`);
* through the websocket protocol, with Starlette's ``TestClient`` (:class:`Client`), as a page does.

The checks (:func:`check_consistent`) say what must hold after anything at all was sent: the table's
game equals a replay of its own history from its seed, the person moves in that history are exactly
the moves that were accepted, and every frame the table builds is plain JSON.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import anyio

from bus_lab.engine.session import Session

#: Small tables of every game (seat count, options): a whole game takes well under a second.
SMALL_GAMES: list[tuple[str, dict[str, Any]]] = [
    ("ride_the_bus", {"players": 2}),
    ("bus_and_stop", {"players": 2}),
    ("busstop", {"players": 3}),
    ("bus_city", {"players": 2, "max_rounds": 3}),
]

#: Steps allowed for one honest game (a game of the tables above takes fewer than 200).
MAX_GAME_STEPS = 2_000


def settle(table) -> None:
    """What the server's driver does after a move or a command, at pace 0: every automatic step
    (chance draws, bots) at once, then one ``changed()``."""
    table.run_automatic()
    table.changed()


def game_over(table) -> bool:
    """Whether the table's game has ended (or the table was ended or closed)."""
    if table.phase in ("over", "closed"):
        return True
    return table.session is not None and table.session.state.is_terminal()


def mover(table) -> int | None:
    """The person seat whose decision is pending, or ``None`` (chance, a bot, the end, holding)."""
    if table.phase != "playing" or table.session is None:
        return None
    state = table.session.state
    if state.is_terminal() or state.is_chance_node():
        return None
    seat = state.current_player()
    return seat if table.seats[seat].kind == "person" else None


def honest_step(table, rng: random.Random) -> bool:
    """One honest step of the host or of the person to move: the host taps Continue when the table
    holds, or the mover plays a random move from its own frame. Returns whether anything was done."""
    if table.phase != "playing":
        return False
    if table.holding() is not None:
        table.continue_()
        settle(table)
        return True
    seat = mover(table)
    if seat is None:
        if table.next_automatic():
            settle(table)
            return True
        return False
    frame = table.seat_frame(seat)
    assert frame["moves"], f"seat {seat} must move but its frame offers no move"
    table.move(seat, rng.choice(frame["moves"])["action"], frame["seq"])
    settle(table)
    return True


def play_to_end(table, rng: random.Random, max_steps: int = MAX_GAME_STEPS) -> int:
    """Play honestly until the game ends; returns the number of steps taken."""
    for step in range(max_steps):
        if game_over(table):
            return step
        if not honest_step(table, rng):
            raise AssertionError(f"the table is stuck: phase {table.phase}, holding {table.holding()!r}")
    raise AssertionError(f"no end after {max_steps} honest steps")


def person_moves(table) -> list[tuple[int, int]]:
    """The (seat, action) of every decision in the game's history made at a seat a person holds."""
    session = table.session
    if session is None:
        return []
    replay = session.game.new_initial_state()
    out = []
    for action in session.state.history():
        if not replay.is_chance_node():
            seat = replay.current_player()
            if table.seats[seat].kind == "person":
                out.append((seat, action))
        replay.apply_action(action)
    return out


def json_safe(value: Any, where: str = "frame") -> None:
    """Raise AssertionError unless ``value`` is plain JSON (str keys, finite numbers)."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"{where}: key {key!r} is not a string"
            json_safe(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            json_safe(item, f"{where}[{i}]")
    elif isinstance(value, float):
        assert math.isfinite(value), f"{where}: {value!r} is not a finite number"
    else:
        assert value is None or isinstance(value, (str, int, bool)), f"{where}: {type(value).__name__}"


def check_consistent(table, accepted: list[tuple[int, int]] | None = None) -> None:
    """What must hold whatever was sent to ``table``.

    * Its game equals a replay of the record (seed, options, history) the host can save.
    * The person decisions in its history are ``accepted`` (when given), in order.
    * Every seat frame, the projector frame and the host frame are plain JSON with ``seq`` equal to
      the table's version.
    """
    if table.session is not None:
        live = table.session.state
        replay = Session.from_json(table.record())
        assert replay.state.history() == live.history()
        assert replay.state.view(None) == live.view(None)
        replay_fresh = table.session.game.new_initial_state()
        for action in live.history():
            replay_fresh.apply_action(action)
        assert replay_fresh.view(None) == live.view(None)
        if accepted is not None:
            assert person_moves(table) == accepted
    frames = [table.seat_frame(s.seat) for s in table.seats]
    frames += [table.projector_frame(), table.host_frame()]
    for frame in frames:
        json_safe(frame)
        json.dumps(frame, allow_nan=False)
    for frame in frames[:-1]:
        assert frame["seq"] == table.version
    # moves are offered to the person whose decision it is, only while the game is being played
    playing = table.phase == "playing" and table.holding() is None
    for info, frame in zip(table.seats, frames):
        if frame["moves"]:
            assert playing and info.kind == "person" and mover(table) == info.seat, (
                f"seat {info.seat} is offered moves that are not its to make"
            )
            legal = set(table.session.state.legal_actions())
            assert {m["action"] for m in frame["moves"]} == legal
    for frame in frames[len(table.seats) :]:
        assert frame["moves"] == [] and frame["table"]["you"] is None


# -- through the websocket ------------------------------------------------------------------------


class Closed(Exception):
    """The server closed the socket; ``code`` is its close code."""

    def __init__(self, code: int, reason: str = ""):
        super().__init__(f"closed with code {code} {reason}".strip())
        self.code = code
        self.reason = reason


def receive(ws, timeout: float = 10.0) -> str | None:
    """The next message of a ``TestClient`` websocket as its text, ``None`` if none came within
    ``timeout`` seconds. Raises :class:`Closed` when the server closed the socket."""

    async def get() -> Any:
        with anyio.move_on_after(timeout):
            return await ws._send_rx.receive()
        return None

    message = ws.portal.call(get)
    if message is None:
        return None
    if message["type"] == "websocket.close":
        raise Closed(message.get("code", 1000), message.get("reason") or "")
    assert message["type"] == "websocket.send", message
    assert "text" in message and message.get("bytes") is None, "the server sends JSON text frames only"
    return message["text"]


class Client:
    """One page's socket (``TestClient.websocket_connect("/ws")``) and everything it received.

    ``messages`` are the messages received, in order (``texts``: as sent on the wire), ``frames``
    the frames among them.
    """

    def __init__(self, test_client, hello: dict[str, Any] | None = None):
        self._cm = test_client.websocket_connect("/ws")
        self.ws = self._cm.__enter__()
        if not hasattr(test_client, "bus_lab_pages"):
            test_client.bus_lab_pages = []
        test_client.bus_lab_pages.append(self)  # closed with the test client (SocketTable.close)
        self._open = True
        self.messages: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] | None = None
        self.closed: Closed | None = None
        if hello is not None:
            self.send(hello)
            self.welcome = self.next()
            if self.welcome is not None and self.welcome.get("type") == "welcome":
                self.wait_frame()

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def next(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next message (recorded), ``None`` after ``timeout`` s or once closed."""
        if self.closed is not None:
            return None
        try:
            text = receive(self.ws, timeout)
        except Closed as closed:
            self.closed = closed
            return None
        message = None
        if text is not None:
            message = json.loads(text)
            assert isinstance(message, dict) and isinstance(message.get("type"), str), text[:200]
            self.texts.append(text)
            self.messages.append(message)
            if message.get("type") == "frame":
                self.frames.append(message["frame"])
        return message

    def wait_frame(self, seq: int | None = None, timeout: float = 10.0) -> dict[str, Any]:
        """Wait for a frame (with ``seq`` at least ``seq`` when given); returns the newest."""
        while True:
            if self.frames and (seq is None or self.frames[-1]["seq"] >= seq):
                return self.frames[-1]
            if self.next(timeout) is None:
                raise AssertionError(f"no frame with seq >= {seq} (closed: {self.closed})")

    def until(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """Read until a message of type ``kind`` arrives; returns it."""
        while True:
            message = self.next(timeout)
            if message is None:
                raise AssertionError(f"no {kind!r} message (closed: {self.closed})")
            if message.get("type") == kind:
                return message

    def barrier(self) -> list[dict[str, Any]]:
        """Send a ping and read until its pong; returns the messages that came before it."""
        start = len(self.messages)
        self.send({"type": "ping"})
        self.until("pong")
        return self.messages[start:-1]

    def latest(self) -> dict[str, Any] | None:
        return self.frames[-1] if self.frames else None

    def close(self) -> None:
        if not self._open:
            return
        self._open = False
        try:
            self._cm.__exit__(None, None, None)
        except Exception:  # the server may have closed it first
            pass


class SocketTable:
    """A hub with one table served by the real app through Starlette's ``TestClient``: a host page,
    a page per seat (joined with a name) and a projector page, all on the app's one loop.

    Args:
        game (str), options (dict), seed (int): the table's game.
        limits (Limits | None): the hub's limits (default: pace 0 and generous rates, so honest
            pages are never slowed; the security tests pass their own).
        start (bool): the host starts the game once every seat has joined.
        clock: the hub's and the app's clock (``None``: ``time.monotonic``).
    """

    def __init__(
        self,
        game: str,
        options: dict[str, Any],
        seed: int = 1,
        *,
        limits=None,
        start: bool = True,
        clock=None,
        people: list[bool] | None = None,
    ):
        from starlette.testclient import TestClient

        from bus_lab.table.hub import Hub
        from bus_lab.table.limits import Limits
        from bus_lab.table.server import create_app

        if limits is None:
            limits = Limits(
                pace_s=0,
                rate_per_second=10_000.0,
                rate_burst=10_000,
                flood_close_after=100_000,
                failed_joins_per_minute=100_000,
            )
        kwargs = {} if clock is None else {"clock": clock}
        self.hub = Hub(limits=limits, pace_s=0, **kwargs)
        self.table = self.hub.create_table(game, dict(options), people, "best_odds", seed)
        self.code = self.table.code
        self.app = create_app(self.hub, **kwargs)
        self.tc = TestClient(self.app)
        self.tc.__enter__()
        self.host = Client(self.tc, {"type": "host", "code": self.code, "key": self.hub.host_key})
        self.seats: dict[int, Client] = {}
        self.tokens: dict[int, str] = {}
        for i, info in enumerate(list(self.table.seats)):
            if info.kind != "person":
                continue
            client = Client(self.tc, {"type": "join", "code": self.code, "name": f"Player {i}"})
            assert client.welcome and client.welcome["type"] == "welcome", client.welcome
            self.seats[client.welcome["seat"]] = client
            self.tokens[client.welcome["seat"]] = client.welcome["token"]
        self.projector = Client(self.tc, {"type": "watch", "code": self.code})
        if start:
            self.command("start")

    # -- on the app's loop ---------------------------------------------------------------------
    def call(self, fn, *args):
        """Run ``fn(*args)`` on the app's loop (where the tables live); returns its result."""
        return self.tc.portal.call(fn, *args)

    def quiet(self, timeout: float = 10.0) -> None:
        """Wait until no automatic step is due or running (the pacing task has finished)."""
        import time

        tables = self.app.state.tables
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            busy = self.call(
                lambda: (
                    self.table.next_automatic() or any(not task.done() for task in tables.drivers.values())
                )
            )
            if not busy:
                return
            time.sleep(0.002)
        raise AssertionError("the table's automatic steps never stopped")

    def read(self, fn):
        """``fn(table)`` on the loop once the table is quiet."""
        self.quiet()
        return self.call(fn, self.table)

    # -- the host and honest pages -------------------------------------------------------------
    def pages(self) -> list[Client]:
        return [self.host, *self.seats.values(), self.projector]

    def command(self, name: str, value: Any = None) -> None:
        """A host command; waits for its frame (raises with the error text if refused)."""
        version = self.read(lambda t: t.version)
        self.host.send({"type": "command", "name": name, "value": value})
        while True:
            message = self.host.next()
            if message is None:
                raise AssertionError(f"no answer to {name} (closed: {self.host.closed})")
            if message["type"] == "error":
                raise AssertionError(f"{name} refused: {message['text']}")
            if message["type"] == "frame" and message["frame"]["seq"] > version:
                return

    def sync_all(self) -> int:
        """Wait until every page has the frame of the table's version; returns the version."""
        version = self.read(lambda t: t.version)
        for page in self.pages():
            if page.closed is None:
                page.wait_frame(seq=version)
        return version

    def honest_step(self, rng: random.Random) -> tuple[int, int, int] | None:
        """One honest step through the sockets: the host's Continue when the table holds, else the
        mover's page plays a random move of its own frame. Returns (step, seat, action) of a move
        played, else ``None``; raises when nothing can be done."""
        version, over, holding, seat, step, phase = self.read(
            lambda t: (
                t.version,
                game_over(t),
                t.holding(),
                mover(t),
                t.session.position if t.session else 0,
                t.phase,
            )
        )
        if over:
            return None
        if phase == "paused":
            self.command("resume")
            return None
        if holding is not None:
            self.command("continue")
            return None
        assert seat is not None, "the game waits for nobody"
        page = self.seats[seat]
        frame = page.wait_frame(seq=version)
        assert frame["seq"] == version and frame["moves"], f"seat {seat}'s frame offers no move"
        action = rng.choice(frame["moves"])["action"]
        page.send({"type": "move", "action": action, "seq": version})
        while True:
            message = page.next()
            if message is None:
                raise AssertionError(f"no frame after seat {seat}'s move (closed: {page.closed})")
            if message["type"] == "error":
                raise AssertionError(f"an honest move was refused: {message['text']}")
            if message["type"] == "frame" and message["frame"]["seq"] > version:
                return step, seat, action

    def play_to_end(self, rng: random.Random, max_steps: int = MAX_GAME_STEPS) -> None:
        for _ in range(max_steps):
            if self.read(game_over):
                self.sync_all()
                return
            self.honest_step(rng)
        raise AssertionError(f"no end after {max_steps} honest steps")

    def close(self) -> None:
        for page in getattr(self.tc, "bus_lab_pages", []):
            page.close()
        self.tc.__exit__(None, None, None)


def refused(test_client, hello: Any) -> tuple[dict[str, Any] | None, int]:
    """Send ``hello`` on a new socket; returns the server's ``refused`` message and the close code.
    Fails if the socket is welcomed instead."""
    client = Client(test_client)
    client.send(hello)
    message = client.next()
    while client.closed is None and client.next() is not None:
        pass
    assert client.closed is not None, f"the socket was not closed (got {message})"
    assert message is None or message["type"] == "refused", message
    client.close()
    return message, client.closed.code
