"""The class table's server: message validation, the rate limiter, the pages and the websocket
protocol (Starlette's TestClient), one game played over a real server with the ``websockets``
client library, and the command line."""

from __future__ import annotations

import asyncio
import io
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from async_run import run_async
from starlette.testclient import TestClient

from bus_lab.board.assets import board_esm
from bus_lab.table.hub import Hub
from bus_lab.table.limits import Limits
from bus_lab.table.protocol import (
    CommandMessage,
    ConfigureValue,
    ControlMessage,
    Hello,
    MoveMessage,
    PingMessage,
    ProtocolError,
    RateLimiter,
    clean_name,
    decode_object,
    parse_hello,
    parse_message,
)
from bus_lab.table.runner import NETWORK_WARNING, WS_MAX_SIZE, TableServer, banner_lines, serve, share_url
from bus_lab.table.server import (
    CLOSE_BAD_SECRET,
    CLOSE_FULL,
    CLOSE_NORMAL,
    CLOSE_POLICY,
    CLOSE_TOO_MANY_FAILURES,
    CLOSE_UNKNOWN_TABLE,
    CSP,
    MAX_QUEUED,
    Connection,
    TableApp,
    create_app,
)
from bus_lab.table.table import Table, UnknownTableError

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.timeout(120)


# ------------------------------------------------------------------------------- protocol


def test_oversized_text_is_refused_before_decoding() -> None:
    # Not JSON at all: the length is what is reported, so nothing was decoded.
    with pytest.raises(ProtocolError, match="too long .2001 characters; at most 2000"):
        decode_object("[" * 2001, 2000)
    assert decode_object('{"type":"ping"}', 15) == {"type": "ping"}
    with pytest.raises(ProtocolError, match="too long"):
        decode_object('{"type":"ping"}', 14)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (b'{"type":"ping"}', "JSON text"),
        (None, "JSON text"),
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('"ping"', "JSON object"),
        ('{"action": 1}', '"type"'),
        ('{"type": 3}', '"type"'),
        ('{"type": "move", "action": NaN, "seq": 0}', "not a number"),
        ('{"type": "move", "action": Infinity, "seq": 0}', "not a number"),
        ('{"type": "ping", "type": "move"}', "given twice"),
        ("[" * 1500 + "]" * 1500, "not valid JSON|JSON object"),
    ],
)
def test_malformed_messages_are_refused(text: Any, says: str) -> None:
    with pytest.raises(ProtocolError, match=says):
        decode_object(text, 4000)


def test_hellos_parse_exactly() -> None:
    assert parse_hello('{"type":"join","code":"abcde","name":"  Ana   Lee "}') == Hello(
        "join", "abcde", name="Ana Lee"
    )
    hello = parse_hello('{"type":"resume","code":"ABCDE","token":"tok_EN-1"}')
    assert (hello.kind, hello.token, hello.role) == ("resume", "tok_EN-1", "seat")
    assert parse_hello('{"type":"watch","code":"ABCDE"}').role == "projector"
    assert parse_hello('{"type":"host","code":"ABCDE","key":"k"}').role == "host"


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ({"type": "join", "code": "ABCDE"}, "needs the field 'name'"),
        ({"type": "join", "code": "ABCDE", "name": "Ana", "seat": 1}, "has no field 'seat'"),
        ({"type": "watch", "code": "ABCDE", "key": "k"}, "has no field 'key'"),
        ({"type": "join", "code": 12345, "name": "Ana"}, "code must be text"),
        ({"type": "join", "code": "A" * 17, "name": "Ana"}, "code is too long"),
        ({"type": "join", "code": "", "name": "Ana"}, "code is empty"),
        ({"type": "join", "code": "ABCDE", "name": "   "}, "type your name"),
        ({"type": "join", "code": "ABCDE", "name": ["Ana"]}, "name must be text"),
        ({"type": "join", "code": "ABCDE", "name": "Ana\nBo"}, "only hold letters"),
        ({"type": "join", "code": "ABCDE", "name": "Ana\u202eoB"}, "only hold letters"),
        ({"type": "join", "code": "ABCDE", "name": "x" * 81}, "name is too long"),
        ({"type": "resume", "code": "ABCDE", "token": "a b"}, "token is not well formed"),
        ({"type": "resume", "code": "ABCDE", "token": "t" * 65}, "token is too long"),
        ({"type": "resume", "code": "ABCDE", "token": None}, "token must be text"),
        ({"type": "host", "code": "ABCDE", "key": 7}, "key must be text"),
        ({"type": "move", "action": 1, "seq": 0}, "first message must be"),
    ],
)
def test_bad_hellos_are_refused(message: dict[str, Any], says: str) -> None:
    with pytest.raises(ProtocolError, match=says):
        parse_hello(json.dumps(message))


def test_names_are_cut_to_the_limit() -> None:
    assert clean_name("Anastasia Wilhelmina", 9) == "Anastasia"
    assert clean_name("Ana  Bo   Cy", 6) == "Ana Bo"
    assert clean_name("Ana  Bo", 4) == "Ana"  # no trailing space after the cut


def test_seat_messages_parse_exactly() -> None:
    assert parse_message('{"type":"move","action":7,"seq":3}', "seat") == MoveMessage(7, 3)
    assert parse_message('{"type":"move","action":0,"seq":-1}', "seat") == MoveMessage(0, -1)
    assert parse_message('{"type":"control","name":"log","value":true,"seq":2}', "seat") == ControlMessage(
        "log", True, 2
    )
    assert parse_message('{"type":"ping"}', "seat") == PingMessage()
    assert parse_message('{"type":"ping","seq":4}', "projector") == PingMessage()


@pytest.mark.parametrize(
    ("role", "message", "says"),
    [
        ("seat", {"type": "move", "action": True, "seq": 0}, "action must be a whole number"),
        ("seat", {"type": "move", "action": 1.0, "seq": 0}, "action must be a whole number"),
        ("seat", {"type": "move", "action": "3", "seq": 0}, "action must be a whole number"),
        ("seat", {"type": "move", "action": -1, "seq": 0}, "action must be from 0"),
        ("seat", {"type": "move", "action": 2**31, "seq": 0}, "action must be from 0"),
        ("seat", {"type": "move", "action": 1, "seq": False}, "seq must be a whole number"),
        ("seat", {"type": "move", "action": 1}, "needs the field 'seq'"),
        ("seat", {"type": "move", "action": 1, "seq": 0, "extra": 1}, "has no field 'extra'"),
        ("seat", {"type": "control", "name": "log", "value": 1, "seq": 0}, "true or false"),
        (
            "seat",
            {"type": "control", "name": "autoplay", "value": True, "seq": 0},
            'only page control is "log"',
        ),
        ("seat", {"type": "ping", "name": "x"}, "has no field 'name'"),
        ("seat", {"type": "command", "name": "start", "value": None}, 'cannot send a "command"'),
        ("seat", {"type": "deal", "action": 1}, 'cannot send a "deal"'),
        ("projector", {"type": "move", "action": 1, "seq": 0}, 'cannot send a "move"'),
        ("host", {"type": "move", "action": 1, "seq": 0}, 'cannot send a "move"'),
        ("host", {"type": "command", "name": "explode", "value": None}, "unknown command"),
        ("host", {"type": "command", "name": 3, "value": None}, "unknown command"),
        ("host", {"type": "command", "name": "start", "value": 1}, "takes no value"),
        ("host", {"type": "command", "name": "kick"}, "needs a seat number"),
        ("host", {"type": "command", "name": "kick", "value": True}, "seat must be a whole number"),
        ("host", {"type": "command", "name": "bot", "value": 99}, "seat must be from 0 to 15"),
        ("host", {"type": "command", "name": "configure", "value": None}, "configure needs"),
        ("host", {"type": "command", "start": 1, "name": "start"}, "has no field 'start'"),
    ],
)
def test_bad_messages_are_refused(role: str, message: dict[str, Any], says: str) -> None:
    with pytest.raises(ProtocolError, match=says):
        parse_message(json.dumps(message), role)


def configure_message(**change: Any) -> str:
    value: dict[str, Any] = {
        "game": "busstop",
        "options": {"players": 3, "passenger_bonus": True},
        "people": [True, True, False],
        "bot": "random",
        "seed": None,
    }
    value.update(change)
    return json.dumps({"type": "command", "name": "configure", "value": value})


def test_configure_value_is_checked() -> None:
    parsed = parse_message(configure_message(seed=12), "host")
    assert parsed == CommandMessage(
        "configure",
        ConfigureValue("busstop", {"players": 3, "passenger_bonus": True}, [True, True, False], "random", 12),
    )
    assert parse_message('{"type":"command","name":"start","value":null}', "host") == CommandMessage(
        "start", None
    )
    assert parse_message('{"type":"command","name":"end"}', "host") == CommandMessage("end", None)
    assert parse_message('{"type":"command","name":"bot","value":2}', "host") == CommandMessage("bot", 2)
    for change, says in [
        ({"seed": True}, "seed must be a whole number"),
        ({"seed": -1}, "seed must be from 0"),
        ({"seed": 1.5}, "seed must be a whole number"),
        ({"people": [1, 0, 1]}, "true or false"),
        ({"people": []}, "people must list 1 to 16"),
        ({"people": [True] * 17}, "people must list 1 to 16"),
        ({"options": {"sheet": {"a": 1}}}, "must be true/false"),
        ({"options": {"players": 2.0}}, "must be true/false"),
        ({"options": {"Bad Name": 1}}, "option name"),
        ({"options": []}, "options must be an object"),
        ({"game": "../busstop"}, "game name is not well formed"),
        ({"game": 4}, "game must be text"),
        ({"bot": ""}, "bot is empty"),
    ]:
        with pytest.raises(ProtocolError, match=says):
            parse_message(configure_message(**change), "host")
    # "no value" passes the message checks; the game's parameter says whether it is allowed
    parsed = parse_message(configure_message(game="bus_city", options={"empty_speed": None}), "host")
    assert isinstance(parsed.value, ConfigureValue) and parsed.value.options == {"empty_speed": None}
    with pytest.raises(ProtocolError, match="exactly"):
        parse_message(
            json.dumps({"type": "command", "name": "configure", "value": {"game": "busstop"}}),
            "host",
        )


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_rate_limiter_is_a_token_bucket() -> None:
    clock = FakeClock()
    limiter = RateLimiter(rate=2.0, burst=3, flood_after=5, clock=clock)
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.49  # 0.98 of a token: not yet
    assert not limiter.allow()
    clock.now += 0.02
    assert limiter.allow() and not limiter.allow()
    clock.now += 100  # refills up to the burst only
    assert [limiter.allow() for _ in range(4)] == [True, True, True, False]
    with pytest.raises(ValueError):
        RateLimiter(rate=0, burst=3)
    with pytest.raises(ValueError):
        RateLimiter(rate=1, burst=0)


def test_rate_limiter_counts_refusals_over_a_minute() -> None:
    clock = FakeClock()
    limiter = RateLimiter(rate=1.0, burst=1, flood_after=3, clock=clock)
    assert [limiter.refuse() for _ in range(3)] == [False, False, False]
    clock.now += 59.0
    assert limiter.refuse()  # 4 within the minute: more than 3
    clock.now += 1.5  # the first three are now older than a minute
    assert not limiter.refuse()


# ---------------------------------------------------------------------------- served app


class Client:
    """A TestClient websocket that skips what a test does not wait for."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        return message

    def until(self, kind: str, test: Callable[[dict[str, Any]], bool] = lambda m: True) -> dict[str, Any]:
        for _ in range(500):
            message = self.receive()
            if message["type"] == kind and test(message):
                return message
        raise AssertionError(f"no {kind} message")

    def frame(self, test: Callable[[dict[str, Any]], bool] = lambda f: True) -> dict[str, Any]:
        return self.until("frame", lambda m: test(m["frame"]))["frame"]

    def closed_with(self) -> tuple[int, list[dict[str, Any]]]:
        """Read until the server closes; the close code and the messages before it."""
        seen = []
        for _ in range(500):
            message = self.ws.receive()
            if message["type"] == "websocket.close":
                return message.get("code", 1000), seen
            seen.append(json.loads(message["text"]))
        raise AssertionError("the socket stayed open")


class Served:
    def __init__(self, client: TestClient, hub: Hub, table: Table) -> None:
        self.client, self.hub, self.table = client, hub, table

    def on_loop(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn`` on the app's event loop (tables are not thread-safe)."""
        return self.client.portal.call(lambda: fn(*args)) if self.client.portal else fn(*args)

    @contextmanager
    def connect(self, hello: dict[str, Any] | None = None) -> Iterator[Client]:
        with self.client.websocket_connect("/ws") as ws:
            client = Client(ws)
            if hello is not None:
                client.send(hello)
            yield client

    @contextmanager
    def seat(self, name: str) -> Iterator[Client]:
        with self.connect({"type": "join", "code": self.table.code, "name": name}) as client:
            client.welcome = client.until("welcome")  # type: ignore[attr-defined]
            yield client

    @contextmanager
    def host(self) -> Iterator[Client]:
        with self.connect({"type": "host", "code": self.table.code, "key": self.hub.host_key}) as client:
            assert client.until("welcome")["role"] == "host"
            yield client


@contextmanager
def served(
    limits: Limits | None = None, clock: Callable[[], float] | None = None, **table: Any
) -> Iterator[Served]:
    hub = Hub(limits=limits or Limits(pace_s=0), pace_s=0)
    app = create_app(hub, clock=clock)
    table.setdefault("options", {"players": 2})
    table.setdefault("seed", 7)
    with TestClient(app) as client:
        created = client.portal.call(lambda: hub.create_table(**table))  # type: ignore[union-attr]
        yield Served(client, hub, created)


def test_pages_and_their_headers() -> None:
    with served() as s:
        code = s.table.code
        for path in ("/", f"/?code={code.lower()}", f"/t/{code}", f"/watch/{code}", f"/host/{code}"):
            response = s.client.get(path)
            assert response.status_code == 200, path
            assert response.headers["content-type"].startswith("text/html")
            assert response.headers["content-security-policy"] == CSP
            assert response.headers["x-content-type-options"] == "nosniff"
            assert response.headers["referrer-policy"] == "no-referrer"
            assert response.headers["cache-control"] == "no-store"
            html = response.text
            # behind a path prefix every link must be relative
            assert "http://" not in html and "https://" not in html
            assert 'href="/' not in html and 'src="/' not in html
        assert code in s.client.get(f"/t/{code}").text
        assert f'data-code="{code}"' in s.client.get(f"/?code={code.lower()}").text
        assert s.hub.host_key not in s.client.get(f"/host/{code}").text
        health = s.client.get("/healthz")
        assert (health.status_code, health.text) == (200, "ok")


def test_the_projector_page_shows_the_address_to_share_when_known() -> None:
    with served() as s:
        code = s.table.code
        assert "192.168.1.20" not in s.client.get(f"/watch/{code}").text
        s.client.app.state.tables.public_url = "http://192.168.1.20:8765/"  # type: ignore[attr-defined]
        assert "192.168.1.20:8765" in s.client.get(f"/watch/{code}").text


def test_share_url() -> None:
    assert share_url("127.0.0.1", 8765) is None
    assert share_url("localhost", 8765) is None
    assert share_url("0.0.0.0", 8765, ["192.168.1.20", "10.0.0.5"]) == "http://192.168.1.20:8765/"
    assert share_url("0.0.0.0", 8765, []) is None
    assert share_url("10.0.0.5", 9000) == "http://10.0.0.5:9000/"
    assert share_url("fe80::1", 9000) == "http://[fe80::1]:9000/"


def test_unknown_or_closed_codes_get_a_404_page() -> None:
    with served() as s:
        for path in ("/t/ZZZZZ", "/watch/ZZZZZ", "/host/ZZZZZ", "/t/" + "A" * 40, "/t/<script>"):
            response = s.client.get(path)
            assert response.status_code == 404, path
            assert response.headers["content-type"].startswith("text/html")
            assert "No table with this code" in response.text
            assert "<script>" not in response.text.split("</head>")[-1]
        # a trailing slash is not redirected (a redirect would lose the proxy's prefix)
        response = s.client.get(f"/t/{s.table.code}/", follow_redirects=False)
        assert response.status_code == 404 and "location" not in response.headers
        s.on_loop(lambda: (s.table.close(), s.table.changed()))
        assert s.client.get(f"/t/{s.table.code}").status_code == 404


def test_static_files() -> None:
    with served() as s:
        board = s.client.get("/static/board.js")
        assert board.status_code == 200
        assert board.headers["content-type"].startswith("text/javascript")
        assert board.text == board_esm()
        again = s.client.get("/static/board.js", headers={"if-none-match": board.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        table_js = s.client.get("/static/table.js")
        assert table_js.status_code == 200 and 'from "./board.js"' in table_js.text
        for name in ("board.css", "table.css"):
            css = s.client.get("/static/" + name)
            assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
        assert s.client.get("/static/../server.py").status_code == 404
        assert s.client.get("/static/pages.py").status_code == 404


def secrets_of(s: Served) -> list[str]:
    tokens = [info.token for info in s.table.seats if info.token]
    return [s.hub.host_key, *tokens]


def test_join_welcome_and_frames_per_role() -> None:
    with served() as s, s.seat("Ana") as ana, s.seat("Ana") as second:
        assert ana.welcome["role"] == "seat" and ana.welcome["seat"] == 0  # type: ignore[attr-defined]
        assert ana.welcome["code"] == s.table.code  # type: ignore[attr-defined]
        token = ana.welcome["token"]  # type: ignore[attr-defined]
        assert isinstance(token, str) and len(token) >= 32
        assert second.welcome["seat"] == 1  # type: ignore[attr-defined]
        frame = second.frame()
        assert frame["table"]["you"] == 1 and frame["table"]["phase"] == "lobby"
        assert [seat["name"] for seat in frame["seats"]] == ["Ana", "Ana (2)"]
        with s.connect({"type": "watch", "code": s.table.code.lower()}) as projector:
            welcome = projector.until("welcome")
            assert welcome == {"type": "welcome", "role": "projector", "code": s.table.code, "seat": None}
            watched = projector.frame()
            assert watched["table"]["you"] is None
            text = json.dumps(watched)
            assert all(secret not in text for secret in secrets_of(s))
        with s.host() as host:
            lobby = host.frame()
            assert "lobby" in lobby and lobby["table"]["you"] is None
            text = json.dumps(lobby)
            assert all(secret not in text for secret in secrets_of(s))
        # the same person comes back with the token (another tab, a reload)
        with s.connect({"type": "resume", "code": s.table.code, "token": token}) as again:
            welcome = again.until("welcome")
            assert welcome == {"type": "welcome", "role": "seat", "code": s.table.code, "seat": 0}
            assert again.frame()["table"]["you"] == 0
            assert s.on_loop(lambda: s.table.seats[0].connections) == 2


def start_game(s: Served, host: Client) -> None:
    host.send({"type": "command", "name": "start", "value": None})


def decision(seats: dict[int, Client]) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """After the start: the seat to move, its frame and the other seat's frame of the same seq."""
    first = seats[0].frame(lambda f: f["table"]["phase"] == "playing" and f["to_move"] is not None)
    turn = first["to_move"]
    other = seats[1].frame(lambda f: f["seq"] == first["seq"])
    return (turn, first, other) if turn == 0 else (turn, other, first)


def test_a_move_is_applied_once_and_a_replay_is_stale() -> None:
    with served() as s, s.seat("Ana") as ana, s.seat("Bo") as bo, s.host() as host:
        start_game(s, host)
        seats = {0: ana, 1: bo}
        turn, frame, other = decision(seats)
        assert frame["prompt"].startswith("Your move") and frame["moves"]
        assert other["moves"] == []  # not its decision
        assert s.on_loop(lambda: s.table.session.state.current_player()) == turn
        move = {"type": "move", "action": frame["moves"][0]["action"], "seq": frame["seq"]}
        history = len(s.on_loop(lambda: s.table.session.state.history()))
        seats[turn].send(move)
        after = seats[turn].frame(lambda f: f["seq"] > frame["seq"])
        assert after["seq"] > frame["seq"]
        played = len(s.on_loop(lambda: s.table.session.state.history()))
        assert played > history
        version = s.on_loop(lambda: s.table.version)
        seats[turn].send(move)  # the same message again
        error = seats[turn].until("error")
        assert "board changed" in error["text"] or "not your turn" in error["text"]
        assert error["seq"] == version
        assert s.on_loop(lambda: (s.table.version, len(s.table.session.state.history()))) == (version, played)


def test_out_of_turn_and_paused_moves_are_refused_to_that_seat_only() -> None:
    with served() as s, s.seat("Ana") as ana, s.seat("Bo") as bo, s.host() as host:
        start_game(s, host)
        seats = {0: ana, 1: bo}
        turn, frame, _ = decision(seats)
        waiting = seats[1 - turn]
        version = s.on_loop(lambda: s.table.version)
        waiting.send({"type": "move", "action": frame["moves"][0]["action"], "seq": version})
        error = waiting.until("error")
        assert "not your turn" in error["text"]
        host.send({"type": "command", "name": "pause", "value": None})
        seats[turn].frame(lambda f: f["table"]["paused"])
        version = s.on_loop(lambda: s.table.version)
        seats[turn].send({"type": "move", "action": frame["moves"][0]["action"], "seq": version})
        assert "paused" in seats[turn].until("error")["text"]
        # the refusals went to those seats only: the host saw no error, only frames
        host.send({"type": "ping"})
        seen = []
        while (message := host.receive())["type"] != "pong":
            seen.append(message["type"])
        assert set(seen) <= {"frame"}
        assert s.on_loop(lambda: s.table.version) == version


def test_invalid_messages_get_an_error_and_change_nothing() -> None:
    limits = Limits(pace_s=0, max_message_chars=300)
    with served(limits) as s, s.seat("Ana") as ana:
        ana.frame()
        version = s.on_loop(lambda: s.table.version)
        for raw, says in [
            ("not json", "not valid JSON"),
            ('{"type":"move","action":' + " " * 300 + "1}", "too long"),
            ('{"type":"move","action":true,"seq":0}', "whole number"),
            ('{"type":"move","action":"1","seq":0}', "whole number"),
            ('{"type":"fly"}', 'cannot send a "fly"'),
            ('{"type":"command","name":"start","value":null}', 'cannot send a "command"'),
            ('{"type":"move","action":1,"seq":0,"x":1}', "no field 'x'"),
        ]:
            ana.ws.send_text(raw)
            error = ana.until("error")
            assert says in error["text"], raw
            assert error["seq"] == version
        ana.ws.send_bytes(b'{"type":"ping"}')
        assert "JSON text" in ana.until("error")["text"]
        ana.send({"type": "ping"})
        assert ana.until("pong") == {"type": "pong"}
        assert s.on_loop(lambda: s.table.version) == version


def test_rate_limit_then_flood_close() -> None:
    clock = FakeClock()  # frozen: no token ever comes back
    limits = Limits(pace_s=0, rate_burst=3, rate_per_second=1.0, flood_close_after=4)
    with served(limits, clock=clock) as s, s.connect({"type": "watch", "code": s.table.code}) as tv:
        tv.until("welcome")
        for _ in range(2):  # the hello took no token: three pings pass
            tv.send({"type": "ping"})
        tv.send({"type": "ping"})
        tv.send({"type": "ping"})
        got = [tv.until("pong"), tv.until("pong"), tv.until("pong")]
        assert got == [{"type": "pong"}] * 3
        for _ in range(4):
            tv.send({"type": "ping"})
            assert "Too many messages" in tv.until("error")["text"]
        tv.send({"type": "ping"})  # the fifth refusal within the minute
        code, seen = tv.closed_with()
        assert code == CLOSE_POLICY
        assert all(m["type"] != "pong" for m in seen)


def test_hello_timeout() -> None:
    with served(Limits(pace_s=0, hello_timeout_s=0.2)) as s, s.connect() as silent:
        code, seen = silent.closed_with()
        assert code == CLOSE_POLICY
        assert seen[-1]["type"] == "refused" and "No hello" in seen[-1]["text"]


def test_bad_hello_is_refused() -> None:
    with served() as s, s.connect({"type": "watch", "code": s.table.code, "name": "x"}) as odd:
        code, seen = odd.closed_with()
        assert code == CLOSE_POLICY and "no field 'name'" in seen[0]["text"]


def test_unknown_code_bad_token_bad_key_and_started_table() -> None:
    with served() as s:
        with s.connect({"type": "watch", "code": "ZZZZZ"}) as unknown:
            code, seen = unknown.closed_with()
            assert code == CLOSE_UNKNOWN_TABLE and seen[0]["type"] == "refused" and "ZZZZZ" in seen[0]["text"]
        with s.connect({"type": "resume", "code": s.table.code, "token": "x" * 32}) as forged:
            code, seen = forged.closed_with()
            assert code == CLOSE_BAD_SECRET and seen[0]["type"] == "refused"
        with s.connect({"type": "host", "code": s.table.code, "key": "x" + s.hub.host_key[1:]}) as fake:
            code, seen = fake.closed_with()
            assert code == CLOSE_BAD_SECRET and "host link" in seen[0]["text"]
        with s.seat("Ana"), s.seat("Bo"):
            with s.connect({"type": "join", "code": s.table.code, "name": "Cy"}) as third:
                code, seen = third.closed_with()
                assert code == CLOSE_FULL and "full" in seen[0]["text"]
            with s.host() as host:
                start_game(s, host)
                host.frame(lambda f: f["table"]["phase"] == "playing")
            with s.connect({"type": "join", "code": s.table.code, "name": "Late"}) as late:
                code, seen = late.closed_with()
                assert code == CLOSE_FULL and "started" in seen[0]["text"]


def test_failed_joins_from_one_address_are_limited() -> None:
    with served(Limits(pace_s=0, failed_joins_per_minute=2)) as s:
        codes = []
        for _ in range(3):
            with s.connect({"type": "watch", "code": "ZZZZZ"}) as guess:
                codes.append(guess.closed_with()[0])
        assert codes == [CLOSE_UNKNOWN_TABLE, CLOSE_UNKNOWN_TABLE, CLOSE_TOO_MANY_FAILURES]
        # now even the right code is refused from that address for a while
        with s.connect({"type": "watch", "code": s.table.code}) as right:
            code, seen = right.closed_with()
            assert code == CLOSE_TOO_MANY_FAILURES and "wait a minute" in seen[0]["text"]


def test_too_many_connections_on_one_table() -> None:
    with served(Limits(pace_s=0, max_connections_per_table=2)) as s:
        with (
            s.connect({"type": "watch", "code": s.table.code}) as a,
            s.connect({"type": "watch", "code": s.table.code}) as b,
        ):
            a.until("welcome"), b.until("welcome")
            with s.connect({"type": "watch", "code": s.table.code}) as c:
                code, seen = c.closed_with()
                assert code == CLOSE_FULL and "Too many devices" in seen[0]["text"]


def test_host_lobby_commands() -> None:
    with served() as s, s.host() as host:
        host.frame()
        value = {
            "game": "busstop",
            "options": {"players": 3},
            "people": [True, False, True],
            "bot": "random",
            "seed": 5,
        }
        host.send({"type": "command", "name": "configure", "value": value})
        frame = host.frame(lambda f: f["lobby"]["game"] == "busstop")
        assert [seat["kind"] for seat in frame["seats"]] == ["person", "bot", "person"]
        # a page may not point a game at a file on the server
        sheet = dict(value, options={"players": 3, "sheet": "/etc/passwd"})
        host.send({"type": "command", "name": "configure", "value": sheet})
        assert "cannot be set" in host.until("error")["text"]
        host.send({"type": "command", "name": "configure", "value": dict(value, game="chess")})
        assert "there is no game 'chess'" in host.until("error")["text"]
        with s.seat("Ana") as ana, s.seat("Bo") as bo:
            assert (ana.welcome["seat"], bo.welcome["seat"]) == (0, 2)  # type: ignore[attr-defined]
            # new settings move people to the seats for people: each page follows its token
            host.send(
                {"type": "command", "name": "configure", "value": dict(value, people=[False, True, True])}
            )
            assert ana.frame(lambda f: f["table"]["you"] == 1)["table"]["you"] == 1
            assert bo.frame(lambda f: f["table"]["you"] == 2)["table"]["you"] == 2
            moved = host.frame(lambda f: [seat["name"] for seat in f["seats"]] == ["Seat 0", "Ana", "Bo"])
            host.send({"type": "command", "name": "kick", "value": 1})
            code, seen = ana.closed_with()
            assert code == CLOSE_BAD_SECRET and seen[-1]["type"] == "refused"
            frame = host.frame(lambda f: f["seq"] > moved["seq"])
            assert [seat["name"] for seat in frame["seats"]] == ["Seat 0", "Seat 1", "Bo"]


def test_an_option_with_no_value_is_set_where_the_game_allows_it() -> None:
    with served() as s, s.host() as host:
        host.frame()
        value = {
            "game": "bus_city",
            "options": {"empty_speed": 5},
            "people": [True, True],
            "bot": "random",
            "seed": None,
        }
        host.send({"type": "command", "name": "configure", "value": value})
        frame = host.frame(lambda f: f["lobby"]["options"].get("empty_speed") == 5)
        assert frame["lobby"]["game"] == "bus_city"
        host.send(
            {"type": "command", "name": "configure", "value": dict(value, options={"empty_speed": None})}
        )
        frame = host.frame(lambda f: f["lobby"]["options"].get("empty_speed", 5) is None)
        assert s.on_loop(lambda: s.table.options["empty_speed"]) is None
        # where the game's parameter has no "no value", the table says so and nothing changes
        host.send(
            {"type": "command", "name": "configure", "value": dict(value, options={"max_rounds": None})}
        )
        assert "max_rounds=None is not allowed" in host.until("error")["text"]
        assert s.on_loop(lambda: s.table.options["max_rounds"]) == 50


def test_lobby_changes_made_outside_the_protocol_reach_the_pages() -> None:
    # the notebook's TableHost changes the table on the loop and calls changed() itself
    with served() as s, s.seat("Ana") as ana, s.seat("Bo") as bo:
        people = [False, True, True]  # seat 0 becomes a bot's: Bo keeps seat 1, Ana moves to 2
        s.on_loop(lambda: (s.table.configure("ride_the_bus", {"players": 3}, people), s.table.changed()))
        names = ["Seat 0", "Bo", "Ana"]
        assert ana.frame(lambda f: [x["name"] for x in f["seats"]] == names)["table"]["you"] == 2
        assert bo.frame(lambda f: [x["name"] for x in f["seats"]] == names)["table"]["you"] == 1
        s.on_loop(lambda: (s.table.leave(2), s.table.changed()))
        code, seen = ana.closed_with()
        text = "The host freed your seat: join again with your name."
        assert code == CLOSE_BAD_SECRET and seen[-1] == {"type": "refused", "text": text}
        bo.send({"type": "ping"})
        assert bo.until("pong") == {"type": "pong"}


def test_host_game_commands_and_record() -> None:
    with served() as s, s.seat("Ana") as ana, s.seat("Bo") as bo, s.host() as host:
        host.send({"type": "command", "name": "kick", "value": 5})
        assert host.until("error")["type"] == "error"
        start_game(s, host)
        host.frame(lambda f: f["table"]["phase"] == "playing")
        host.send({"type": "command", "name": "bot", "value": 0})
        frame = ana.frame(lambda f: f["seats"][0]["kind"] == "away")
        assert frame["moves"] == []
        host.send({"type": "command", "name": "person", "value": 0})
        ana.frame(lambda f: f["seats"][0]["kind"] == "person")
        host.send({"type": "command", "name": "kick", "value": 1})
        assert "not possible now" in host.until("error")["text"]
        host.send({"type": "command", "name": "record", "value": None})
        record = json.loads(host.until("record")["record"])
        assert record["names"] == ["Ana", "Bo"]
        ana.send({"type": "command", "name": "again", "value": None})  # a seat cannot
        assert ana.until("error")["type"] == "error"
        host.send({"type": "command", "name": "again", "value": None})
        assert "not possible now: the game has started" in host.until("error")["text"]
        host.send({"type": "command", "name": "end", "value": None})
        assert bo.frame(lambda f: f["table"]["phase"] == "over")["moves"] == []
        host.send({"type": "command", "name": "again", "value": None})  # the same people again
        for client, seat in ((ana, 0), (bo, 1)):
            lobby = client.frame(lambda f: f["table"]["phase"] == "lobby")
            assert lobby["table"]["you"] == seat and [x["name"] for x in lobby["seats"]] == ["Ana", "Bo"]
        assert host.frame(lambda f: f["table"]["phase"] == "lobby")["can_record"]
        host.send({"type": "command", "name": "record", "value": None})
        kept = json.loads(host.until("record")["record"])  # the game just played, still there
        assert kept["names"] == ["Ana", "Bo"] and kept["game"] == record["game"]
        assert kept["history"][: len(record["history"])] == record["history"]
        start_game(s, host)
        assert ana.frame(lambda f: f["table"]["phase"] == "playing")["table"]["you"] == 0
        host.send({"type": "command", "name": "close", "value": None})
        for client in (ana, bo, host):
            code, seen = client.closed_with()
            assert code == CLOSE_NORMAL and seen[-1] == {
                "type": "closed",
                "text": "The host closed this table.",
            }
        with s.connect({"type": "watch", "code": s.table.code}) as late:
            assert late.closed_with()[0] == CLOSE_UNKNOWN_TABLE


def test_a_fault_in_the_table_is_said_to_that_device_and_the_socket_stays(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def boom() -> str:
        raise RuntimeError("disk on fire")

    with served() as s, s.host() as host:
        s.table.record = boom  # type: ignore[method-assign]
        host.send({"type": "command", "name": "record", "value": None})
        assert "fault on the server" in host.until("error")["text"]
        host.send({"type": "ping"})
        assert host.until("pong") == {"type": "pong"}
    assert "disk on fire" in caplog.text


def test_pacing_driver_takes_steps_one_by_one() -> None:
    hub = Hub(limits=Limits(), pace_s=0.01)
    with TestClient(create_app(hub)) as client:
        assert client.portal is not None
        table = client.portal.call(
            lambda: hub.create_table("ride_the_bus", {"players": 2}, [False, False], "random", 3)
        )
        s = Served(client, hub, table)
        with s.connect({"type": "watch", "code": table.code}) as tv, s.host() as host:
            tv.until("welcome")
            start_game(s, host)
            seqs = []
            while True:
                frame = tv.frame()
                seqs.append(frame["seq"])
                if frame["table"]["holding"]:
                    host.send({"type": "command", "name": "continue", "value": None})
                if frame["table"]["phase"] == "over":
                    break
            # every automatic step was broadcast on its own (bots only: no person moved)
            assert len(seqs) > 20 and seqs == sorted(seqs)
            assert s.on_loop(lambda: table.session.state.is_terminal())


def test_sweep_closes_idle_tables_and_tells_the_pages() -> None:
    clock = FakeClock()
    hub = Hub(limits=Limits(pace_s=0, lobby_idle_close_s=60), clock=clock, pace_s=0)
    app = create_app(hub)
    with TestClient(app) as client:
        assert client.portal is not None
        table = client.portal.call(lambda: hub.create_table("ride_the_bus", {"players": 2}))
        s = Served(client, hub, table)
        with s.connect({"type": "watch", "code": table.code}) as tv:
            tv.until("welcome")
            clock.now += 61
            closed = client.portal.call(app.state.tables.sweep)
            assert closed == [table.code]
            code, seen = tv.closed_with()
            assert code == CLOSE_NORMAL and seen[-1] == {"type": "closed", "text": table.notice}


class FakeSocket:
    """Stands in for a websocket: records what is sent; a stuck one never finishes a send."""

    def __init__(self, stuck: bool = False) -> None:
        self.sent: list[dict[str, Any]] = []
        self.gate = asyncio.Event()
        if not stuck:
            self.gate.set()
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(json.loads(text))

    async def close(self, code: int = 1000) -> None:
        self.closed = code

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.sent]


def test_a_slow_device_holds_one_newest_frame_and_blocks_nobody() -> None:
    async def scenario() -> None:
        hub = Hub(limits=Limits(pace_s=0), pace_s=0)
        table = hub.create_table("ride_the_bus", {"players": 2}, seed=1)
        tables = TableApp(hub)
        await tables.startup()
        slow, quick = FakeSocket(stuck=True), FakeSocket()
        conns = [Connection(ws, table, "projector", None, "here", RateLimiter(8, 30)) for ws in (slow, quick)]  # type: ignore[arg-type]
        senders = []
        for conn in conns:
            tables.connections.setdefault(table.code, set()).add(conn)
            senders.append(asyncio.create_task(tables._send_loop(conn)))
            conn.push({"type": "welcome"})
            conn.want_frame()
        await asyncio.sleep(0.01)
        assert quick.kinds() == ["welcome", "frame"] and slow.sent == []
        for _ in range(5):  # five changes in one loop turn: one frame
            table.changed()
        await asyncio.sleep(0.01)
        assert quick.kinds() == ["welcome", "frame", "frame"]
        assert quick.sent[-1]["frame"]["seq"] == table.version
        # the table goes on while one device does not read: a person joins, the quick page sees it
        table.join("Ana")
        table.changed()
        await asyncio.sleep(0.01)
        assert quick.sent[-1]["frame"]["seats"][0]["name"] == "Ana"
        assert slow.sent == []
        # once it reads again it gets what was queued and ONE frame: the newest
        slow.gate.set()
        await asyncio.sleep(0.01)
        assert slow.kinds() == ["welcome", "frame"]
        assert slow.sent[-1]["frame"]["seq"] == table.version
        # a device that never reads while messages pile up is closed
        stuck = FakeSocket(stuck=True)
        conn = Connection(stuck, table, "seat", 0, "here", RateLimiter(8, 30))  # type: ignore[arg-type]
        for _ in range(MAX_QUEUED + 1):
            conn.push({"type": "pong"})
        assert conn.close_code == CLOSE_POLICY and len(conn.outbox) == MAX_QUEUED
        for task in senders:
            task.cancel()
        await tables.shutdown()
        assert table.code not in tables.adopted

    run_async(scenario())


# --------------------------------------------------------------------------- real server


def choose(frame: dict[str, Any]) -> int:
    return int(frame["moves"][0]["action"])


async def play_over_the_network(server: TableServer, code: str) -> dict[str, Any]:
    import websockets

    url = server.url.replace("http://", "ws://") + "/ws"
    async with (
        websockets.connect(url) as ana,
        websockets.connect(url) as bo,
        websockets.connect(url) as host,
    ):
        tokens = {}
        for ws, name in ((ana, "Ana"), (bo, "Bo")):
            await ws.send(json.dumps({"type": "join", "code": code, "name": name}))
            welcome = json.loads(await ws.recv())
            tokens[welcome["seat"]] = welcome["token"]
        await host.send(json.dumps({"type": "host", "code": code, "key": server.hub.host_key}))
        assert json.loads(await host.recv())["role"] == "host"
        await host.send(json.dumps({"type": "command", "name": "start", "value": None}))
        moves = 0
        over: dict[str, Any] = {}

        async def seat(ws: Any) -> None:
            nonlocal moves
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 20))
                if message["type"] != "frame":
                    continue
                frame = message["frame"]
                if frame["table"]["phase"] == "over":
                    over[str(frame["table"]["you"])] = frame
                    return
                if frame["moves"] and not frame["table"]["paused"]:
                    await ws.send(json.dumps({"type": "move", "action": choose(frame), "seq": frame["seq"]}))
                    moves += 1

        async def hosting() -> None:
            while True:
                message = json.loads(await asyncio.wait_for(host.recv(), 20))
                if message["type"] == "frame":
                    table = message["frame"]["table"]
                    if table["phase"] == "over":
                        return
                    if table["holding"]:
                        await host.send(json.dumps({"type": "command", "name": "continue", "value": None}))

        await asyncio.gather(seat(ana), seat(bo), hosting())
        over["moves"] = moves
        return over


def test_a_game_over_a_real_server() -> None:
    # the clients below move as fast as frames arrive: far above a person's rate
    hub = Hub(limits=Limits(rate_per_second=1000, rate_burst=1000), pace_s=0)
    with TableServer(hub=hub) as server:
        assert server.port > 0 and server.url == f"http://127.0.0.1:{server.port}"
        table = server.call(hub.create_table, "ride_the_bus", {"players": 2}, None, "best_odds", 11)
        assert server.host_url(table.code).endswith(f"/host/{table.code}#key={hub.host_key}")
        assert server.join_url(table.code) == f"{server.url}/?code={table.code}"
        with pytest.raises(UnknownTableError):  # call() re-raises what failed on the loop
            server.call(hub.table, "ZZZZZ")
        import urllib.request

        with urllib.request.urlopen(server.seat_url(table.code)) as page:
            assert page.status == 200 and page.headers["content-security-policy"] == CSP
        result = run_async(play_over_the_network(server, table.code))
        assert set(result) >= {"0", "1"} and result["moves"] > 10
        assert server.call(lambda: table.phase) == "over"
        assert server.call(lambda: table.session.state.is_terminal())
        winners = [seat["seat"] for seat in result["0"]["seats"] if seat["winner"]]
        assert winners == [seat["seat"] for seat in result["1"]["seats"] if seat["winner"]]
    assert not server.running
    with pytest.raises(RuntimeError, match="not running"):
        server.call(lambda: None)


def test_a_real_server_closes_a_socket_on_a_frame_over_its_size_limit() -> None:
    import websockets

    limit = Limits().max_message_chars
    long = limit + 1000
    assert long < WS_MAX_SIZE, "a message refused politely must fit under the socket's own limit"

    async def scenario(server: TableServer, code: str) -> tuple[str, int | None]:
        async with websockets.connect(server.url.replace("http://", "ws://") + "/ws") as ws:
            await ws.send(json.dumps({"type": "watch", "code": code}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            assert json.loads(await ws.recv())["type"] == "frame"
            await ws.send("x" * long)  # over max_message_chars: an error, the socket stays
            error = json.loads(await ws.recv())
            await ws.send("x" * (WS_MAX_SIZE + 1))  # over uvicorn's ws_max_size: the socket is closed
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            return error["text"], ws.close_code

    with TableServer() as server:
        table = server.call(server.hub.create_table)
        text, code = run_async(scenario(server, table.code))
    assert f"too long ({long} characters; at most {limit})" in text
    assert code == 1009  # the websocket library's "message too big", past uvicorn's ws_max_size


def test_port_in_use_is_a_clear_error() -> None:
    with TableServer() as first:
        with pytest.raises(RuntimeError, match="could not listen"):
            TableServer(port=first.port).start()


# ---------------------------------------------------------------------------- command line


def test_cli_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bus_lab.table", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0
    for option in ("--host", "--port", "--game", "--players", "--pace"):
        assert option in result.stdout
    assert "busstop" in result.stdout


def test_cli_says_what_is_wrong() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "bus_lab.table", *args]
        return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=60)

    refused = run("--port", "0", "--players", "12")
    assert refused.returncode == 1 and "error: players=12 is out of range" in refused.stderr
    assert "Join page" not in refused.stdout
    bad_port = run("--port", "70000")
    assert bad_port.returncode == 2 and "--port must be from 0 to 65535" in bad_port.stderr
    bad_game = run("--game", "chess")
    assert bad_game.returncode == 2 and "invalid choice" in bad_game.stderr


def test_banner_for_this_computer_has_no_warning() -> None:
    lines = banner_lines("127.0.0.1", 8765, "ABCDE", "KEY", "Busstop")
    assert "Join page: http://127.0.0.1:8765/   code ABCDE" in lines
    assert "Host link (keep it private): http://127.0.0.1:8765/host/ABCDE#key=KEY" in lines
    assert NETWORK_WARNING not in lines


def test_banner_on_the_network_names_the_addresses_and_warns_once() -> None:
    lines = banner_lines("0.0.0.0", 8765, "ABCDE", "KEY", addresses=["192.168.1.20", "10.0.0.5"])
    assert "Students open: http://192.168.1.20:8765/?code=ABCDE" in lines
    assert "Students open: http://10.0.0.5:8765/?code=ABCDE" in lines
    assert [line for line in lines if "anyone on this network" in line] == [NETWORK_WARNING]
    # the teacher's own links stay on this computer
    assert "Host link (keep it private): http://127.0.0.1:8765/host/ABCDE#key=KEY" in lines
    named = banner_lines("192.168.1.20", 9000, "ABCDE", "KEY")
    assert "Students open: http://192.168.1.20:9000/?code=ABCDE" in named
    assert named.count(NETWORK_WARNING) == 1


def test_serve_prints_the_banner_and_stops() -> None:
    out = io.StringIO()
    stop = threading.Event()
    runner = threading.Thread(
        target=serve, kwargs=dict(port=0, game="busstop", out=out, stop=stop), daemon=True
    )
    runner.start()
    deadline = time.monotonic() + 30
    while "Press Ctrl+C" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    runner.join(30)
    assert not runner.is_alive()
    text = out.getvalue()
    assert "Class table: Busstop" in text and "Join page: http://127.0.0.1:" in text
    assert NETWORK_WARNING not in text


def test_tasks_table_runs_the_command_line_in_the_lab_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bus_lab_tasks", ROOT / "tasks.py")
    assert spec is not None and spec.loader is not None
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    assert "python3 tasks.py table [--host H --port P --game G" in (tasks.__doc__ or "")
    calls: list[Any] = []
    monkeypatch.setattr(tasks, "ensure_env", lambda pins: calls.append(pins))
    monkeypatch.setattr(tasks.subprocess, "call", lambda cmd, cwd: calls.append((cmd, cwd)) or 0)
    assert tasks.main(["table", "--host", "0.0.0.0", "--port", "9000"]) == 0
    command = [str(tasks.VENV_PYTHON), "-m", "bus_lab.table", "--host", "0.0.0.0", "--port", "9000"]
    assert calls == [tasks.LAB_PINS, (command, tasks.ROOT)]


def test_the_page_knows_the_codes_that_refuse_a_seat() -> None:
    """table.js stops reconnecting on the server's refusal codes: the two lists are the same."""
    script = (ROOT / "bus_lab" / "table" / "static" / "table.js").read_text(encoding="utf-8")
    shown = re.search(r"REFUSED_CODES = new Set\(\[([0-9, ]+)\]\)", script)
    assert shown is not None, "table.js no longer lists REFUSED_CODES"
    page_codes = {int(code) for code in shown.group(1).split(",")}
    assert page_codes == {CLOSE_BAD_SECRET, CLOSE_UNKNOWN_TABLE, CLOSE_FULL, CLOSE_TOO_MANY_FAILURES}
