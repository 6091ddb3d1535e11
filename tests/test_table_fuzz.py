"""Nothing a page sends can break a class table or cheat at it (hypothesis).

Two layers are fuzzed, each where its checks live:

* The table's methods (:class:`TableMachine`, a stateful test): honest players and the host play on
  while a cheat keeps calling ``move`` with out-of-turn, stale, replayed, illegal and out-of-range
  moves and lobby commands during play. Every refusal is a ``TableError`` that changes nothing (not
  the version, not the history, not a seat), and after every step the table is consistent
  (``table_clients.check_consistent``: its game equals a replay of its record, its person decisions
  are exactly the accepted moves, every frame is plain JSON). At the end the honest players finish.
* The websocket protocol (``protocol.py`` and the server's handler, through Starlette's
  ``TestClient``): any text at all (garbage, random JSON, wrong types with ``True`` for an int,
  huge strings, unknown types, host commands from a seat, stale and replayed moves) sent by a seat's
  page gets an error for that page only, changes nothing on the table, and the honest pages then
  finish their game through their sockets.

Examples are bounded (``max_examples``) and have no deadline, so the file runs in well under a minute.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from table_clients import (
    MAX_GAME_STEPS,
    SMALL_GAMES,
    Client,
    SocketTable,
    check_consistent,
    game_over,
    mover,
    play_to_end,
    settle,
)

from bus_lab.table import Table
from bus_lab.table.limits import Limits
from bus_lab.table.protocol import (
    COMMANDS,
    CommandMessage,
    ControlMessage,
    MoveMessage,
    PingMessage,
    ProtocolError,
    parse_hello,
    parse_message,
)
from bus_lab.table.table import NotYourTurnError, StaleMoveError, TableError

#: A hang (a page waiting for a frame that never comes) fails instead of blocking the run.
pytestmark = pytest.mark.timeout(300)


class FakeClock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def snapshot(table) -> tuple:
    """Everything a refused call must leave as it was."""
    history = tuple(table.session.state.history()) if table.session is not None else ()
    seats = [(s.seat, s.kind, s.name, s.bot, s.token, s.claimed, s.away_person) for s in table.seats]
    return table.version, table.phase, history, seats, table.game_name, dict(table.options)


#: Integers a cheat sends as a seat, an action or a seq: small, negative and far out of range.
ANY_INT = st.one_of(st.integers(-5, 500), st.integers(-(2**70), 2**70))


class TableMachine(RuleBasedStateMachine):
    """One table of a small game, people at every seat, played by honest players, a host and a cheat.

    A shadow state follows the table's history step by step: every decision in it must be either a
    move this test had accepted (at that very step, by that seat) or a bot's (a seat the bot plays
    at that time), and the shadow must equal the table's game after every step.
    """

    @initialize(config=st.sampled_from(SMALL_GAMES), seed=st.integers(0, 2**20), rng_seed=st.integers(0, 99))
    def open_table(self, config, seed, rng_seed):
        game, options = config
        self.clock = FakeClock()
        self.table = Table("FUZZ2", game=game, options=dict(options), seed=seed, clock=self.clock)
        self.people = len(self.table.seats)
        self.tokens = {}
        for i in range(self.people):
            seat, token = self.table.join(f"Player {i}")
            self.tokens[seat] = token
        self.table.changed()
        self.table.start()
        self.shadow = self.table.session.game.new_initial_state()
        self.accepted = 0
        self.settle()
        self.rng = random.Random(rng_seed)
        self.last: tuple[int, int, int] | None = None  # the last accepted (seat, action, seq)

    # -- helpers --------------------------------------------------------------------------------
    def settle(self, person: tuple[int, int, int] | None = None) -> None:
        """The driver's work after a change (every automatic step, one ``changed()``), then the
        shadow follows the new steps: ``person`` = (step, seat, action) of the move just accepted."""
        settle(self.table)
        history = self.table.session.state.history()
        for step in range(len(self.shadow.history()), len(history)):
            if not self.shadow.is_chance_node():
                seat = self.shadow.current_player()
                if person is not None and step == person[0]:
                    assert (seat, history[step]) == person[1:]
                    self.accepted += 1
                else:
                    assert self.table.seats[seat].kind == "bot", f"step {step}: seat {seat} moved by itself"
            self.shadow.apply_action(history[step])
        assert self.shadow.history() == history
        assert self.shadow.view(None) == self.table.session.state.view(None)

    def refused(self, call, *args, kind: type[TableError] = TableError) -> None:
        """``call(*args)`` must raise ``kind`` (a TableError with a text) and change nothing."""
        before = snapshot(self.table)
        with pytest.raises(kind) as info:
            call(*args)
        assert str(info.value).strip(), "a refusal says why"
        assert snapshot(self.table) == before

    def play(self, seat: int, action: int, seq: int) -> None:
        version, step = self.table.version, self.table.session.position
        self.table.move(seat, action, seq)
        self.last = (seat, action, seq)
        self.settle((step, seat, action))
        assert self.table.version == version + 1

    def mover_frame(self) -> tuple[int, dict[str, Any]] | None:
        seat = mover(self.table)
        if seat is None or self.table.holding() is not None:
            return None
        frame = self.table.seat_frame(seat)
        return (seat, frame) if frame["moves"] else None

    # -- honest play and the host ----------------------------------------------------------------
    @rule(steps=st.integers(1, 6))
    def honest(self, steps):
        for _ in range(steps):
            if self.table.phase != "playing":
                return
            if self.table.holding() is not None:
                self.table.continue_()
                self.settle()
                continue
            pending = self.mover_frame()
            if pending is None:
                return
            seat, frame = pending
            self.play(seat, self.rng.choice(frame["moves"])["action"], frame["seq"])

    @rule()
    def pause_and_resume(self):
        if self.table.phase != "playing":
            return
        version = self.table.version
        self.table.pause()
        self.table.changed()
        for seat in range(self.people):
            assert self.table.seat_frame(seat)["moves"] == [], "no moves are offered while paused"
        assert not self.table.next_automatic()
        state = self.table.session.state
        if not state.is_terminal() and not state.is_chance_node():
            self.refused(
                self.table.move, state.current_player(), state.legal_actions()[0], self.table.version
            )
        self.table.resume_play()
        self.settle()
        assert self.table.version == version + 2

    @rule(data=st.data())
    def hand_seat_to_bot_and_back(self, data):
        if self.table.phase != "playing":
            return
        seat = data.draw(st.integers(0, self.people - 1))
        self.table.set_bot(seat, True)
        self.settle()
        if self.table.phase == "playing":
            self.refused(self.table.set_bot, seat, True)
            self.table.set_bot(seat, False)
            self.settle()
            self.refused(self.table.set_bot, seat, False)

    # -- cheating ------------------------------------------------------------------------------
    @rule(seat=ANY_INT, action=ANY_INT, seq=ANY_INT)
    def random_move(self, seat, action, seq):
        """Anything at all as a move: refused unless it happens to be the mover's legal move at the
        right seq (then it is simply a move)."""
        before = snapshot(self.table)
        step = self.table.session.position
        try:
            self.table.move(seat, action, seq)
        except TableError as err:
            assert str(err).strip()
            assert snapshot(self.table) == before
        else:
            self.last = (seat, action, seq)
            self.settle((step, seat, action))

    @precondition(lambda self: self.people > 1)
    @rule(data=st.data())
    def out_of_turn(self, data):
        pending = self.mover_frame()
        if pending is None:
            return
        seat, frame = pending
        other = data.draw(st.sampled_from([s for s in range(self.people) if s != seat]))
        action = data.draw(st.sampled_from([m["action"] for m in frame["moves"]]))
        self.refused(self.table.move, other, action, frame["seq"], kind=NotYourTurnError)

    @rule(data=st.data())
    def stale(self, data):
        pending = self.mover_frame()
        if pending is None:
            return
        seat, frame = pending
        seq = data.draw(st.integers(-3, frame["seq"] + 3).filter(lambda q: q != frame["seq"]))
        action = data.draw(st.sampled_from([m["action"] for m in frame["moves"]]))
        self.refused(self.table.move, seat, action, seq, kind=StaleMoveError)

    @rule()
    def replay_last(self):
        """The last accepted move sent again (a page that sends twice): refused."""
        if self.last is None or self.table.phase == "closed":
            return
        self.refused(self.table.move, *self.last)

    @rule(action=ANY_INT)
    def illegal(self, action):
        pending = self.mover_frame()
        if pending is None:
            return
        seat, frame = pending
        if action in {m["action"] for m in frame["moves"]}:
            return
        self.refused(self.table.move, seat, action, frame["seq"])

    @rule(which=st.sampled_from(["join", "configure", "leave", "start", "kick"]))
    def lobby_command_in_play(self, which):
        calls = {
            "join": (self.table.join, "Mallory"),
            "configure": (self.table.configure, "ride_the_bus", {"players": 2}, [True, True]),
            "leave": (self.table.leave, 0),
            "start": (self.table.start,),
            "kick": (self.table.leave, self.people - 1),
        }
        call, *args = calls[which]
        self.refused(call, *args)

    @rule(token=st.text(max_size=40))
    def resume_with_forged_token(self, token):
        if token in self.tokens.values():
            return
        self.refused(self.table.resume, token)

    # -- what always holds ---------------------------------------------------------------------
    @invariant()
    def consistent(self):
        check_consistent(self.table)
        for seat, token in self.tokens.items():
            assert self.table.resume(token) == seat

    def teardown(self):
        if not hasattr(self, "table"):
            return
        if self.table.phase == "paused":
            self.table.resume_play()
            self.settle()
        for seat in range(self.people):
            if self.table.seats[seat].away_person and self.table.phase == "playing":
                self.table.set_bot(seat, False)
                self.settle()
        while self.table.phase == "playing":
            self.honest(6)
            if self.table.phase == "playing" and self.mover_frame() is None and self.table.holding() is None:
                raise AssertionError("the honest players cannot go on")
        assert game_over(self.table)
        check_consistent(self.table)


TableMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_table_machine = TableMachine.TestCase


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(SMALL_GAMES), seed=st.integers(0, 2**20), rng_seed=st.integers(0, 99))
def test_honest_tables_finish_and_replay(config, seed, rng_seed):
    """Honest players alone always finish, and the record replays to the same game."""
    game, options = config
    table = Table("HNEST", game=game, options=dict(options), seed=seed)
    for i in range(len(table.seats)):
        table.join(f"P{i}")
    table.start()
    settle(table)
    play_to_end(table, random.Random(rng_seed))
    check_consistent(table)
    assert json.loads(table.record())["history"] == table.session.state.history()
    assert Limits().max_message_chars > 0


# -- the protocol: pure validation --------------------------------------------------------------

#: Any JSON value (small).
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
#: Values that are not a whole number the table accepts: ``true`` for 1 among them.
NOT_AN_INT = st.one_of(
    st.booleans(),
    st.floats(),
    st.text(max_size=6),
    st.none(),
    st.lists(st.integers(), max_size=2),
    st.integers(2**31, 2**80),
    st.integers(-(2**80), -2),
    st.just("1"),
)
FIELDS = ["type", "action", "seq", "seat", "name", "value", "code", "token", "key", "move"]
TRICKY = [
    '{"type":"move","action":1,"seq":1,"action":2}',
    '{"type":"move","action":1e400,"seq":0}',
    '{"type":"move","action":1.0,"seq":0}',
    '{"type":"move","action":true,"seq":0}',
    '{"type":"move","action":NaN,"seq":0}',
    '{"type":"move","action":Infinity,"seq":0}',
    '{"type":"ping"} {"type":"ping"}',
    '{"type":"ping"',
    "[" * 1900,
    "[" * 1000 + "]" * 1000,
    '{"a":' * 600 + "1" + "}" * 600,
    "",
    "null",
    '"ping"',
    "\ud800",
    '{"type":"ping","seq":true}',
    '{"type":"command","name":"start"}',
    '{"type":"command","name":"close","value":null}',
    '{"type":"command","name":"end","value":null}',
    '{"type":"command","name":"record","value":null}',
    '{"type":"command","name":"bot","value":0}',
    '{"type":"join","code":"ABCDE","name":"Eve"}',
    '{"type":"watch","code":"ABCDE"}',
    '{"type":"__proto__","constructor":{}}',
]


def message_texts(code: str = "ABCDE") -> st.SearchStrategy[str]:
    """Texts a misbehaving page might send after its welcome."""
    dumps = json.dumps
    return st.one_of(
        st.text(max_size=200),
        JSON_VALUES.map(dumps),
        st.integers(1990, 6000).map(lambda n: dumps({"type": "move", "action": 0, "seq": 0, "pad": "x" * n})),
        st.integers(2001, 5000).map(lambda n: "x" * n),
        st.fixed_dictionaries(
            {
                "type": st.just("move"),
                "action": NOT_AN_INT | st.integers(0, 600),
                "seq": NOT_AN_INT | st.integers(-2, 400),
            }
        ).map(dumps),
        st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=5).map(dumps),
        st.fixed_dictionaries({"type": st.text(max_size=60)}).map(dumps),
        st.fixed_dictionaries(
            {
                "type": st.just("command"),
                "name": st.sampled_from(sorted(COMMANDS) + ["shutdown", "", "START"]),
                "value": st.none() | st.integers(-1, 8) | JSON_VALUES,
            }
        ).map(dumps),
        st.fixed_dictionaries(
            {
                "type": st.just("control"),
                "name": st.sampled_from(["log", "debug", ""]),
                "value": JSON_VALUES,
                "seq": NOT_AN_INT | st.integers(-1, 50),
            }
        ).map(dumps),
        st.sampled_from(
            [
                dumps({"type": "join", "code": code, "name": "Eve"}),
                dumps({"type": "resume", "code": code, "token": "A" * 32}),
                dumps({"type": "host", "code": code, "key": "B" * 32}),
                dumps({"type": "watch", "code": code}),
            ]
        ),
        st.sampled_from(TRICKY),
    )


@settings(max_examples=300, deadline=None)
@given(
    text=message_texts() | st.binary(max_size=50),
    role=st.sampled_from(["seat", "projector", "host", "nobody"]),
)
def test_parse_message_accepts_exactly_the_protocol(text, role):
    """Any text: either ProtocolError with a text for the page, or exactly one message of a type the
    role may send, with fields of the right types (bool is not int) and sizes."""
    try:
        message = parse_message(text, role, 2000)
    except ProtocolError as err:
        assert err.text.strip()
        return
    assert isinstance(text, str) and len(text) <= 2000
    data = json.loads(text)
    assert (
        data["type"]
        in {"seat": {"move", "control", "ping"}, "projector": {"ping"}, "host": {"command", "ping"}}[role]
    )
    if isinstance(message, MoveMessage):
        assert set(data) == {"type", "action", "seq"}
        assert type(message.action) is int and type(message.seq) is int and message.action >= 0
        assert (message.action, message.seq) == (data["action"], data["seq"])
    elif isinstance(message, CommandMessage):
        assert message.name in COMMANDS and set(data) <= {"type", "name", "value"}
        if COMMANDS[message.name] == "seat":
            assert type(message.value) is int
    else:
        assert isinstance(message, (PingMessage, ControlMessage))


def test_the_length_is_checked_before_any_parsing(monkeypatch):
    """An oversized message is refused on its raw length: the JSON decoder never sees it."""
    import bus_lab.table.protocol as protocol

    seen = []
    real = protocol.json.loads
    monkeypatch.setattr(
        protocol.json, "loads", lambda text, *a, **k: seen.append(len(text)) or real(text, *a, **k)
    )
    for text in ["[" * 100_000, json.dumps({"type": "ping", "pad": "x" * 5000})]:
        for parse in (lambda t: parse_message(t, "seat", 2000), lambda t: parse_hello(t, 2000, 20)):
            with pytest.raises(ProtocolError, match="too long"):
                parse(text)
    assert seen == []
    parse_message('{"type":"ping"}', "seat", 2000)
    assert seen == [15]


@settings(max_examples=200, deadline=None)
@given(text=message_texts() | st.binary(max_size=50))
def test_parse_hello_accepts_exactly_the_hellos(text):
    try:
        hello = parse_hello(text, 2000, 20)
    except ProtocolError as err:
        assert err.text.strip()
        return
    data = json.loads(text)
    assert hello.kind == data["type"] and hello.code == data["code"]
    fields = {"join": {"name"}, "resume": {"token"}, "watch": set(), "host": {"key"}}[hello.kind]
    assert set(data) == {"type", "code"} | fields


# -- the protocol through the server (Starlette's TestClient) -----------------------------------

#: What a cheating seat does that needs the table's state: resolved when sent.
CHEATS = ["stale", "future", "replay", "other_seat", "projector_move", "host_move", "bytes", "host_key_hello"]


class SocketMachine(RuleBasedStateMachine):
    """A table served by the app: its pages play honestly, and a cheating page (any seat, or the
    projector) sends anything at all. Each refusal is one error to the sender only; nothing else
    changes; the table stays consistent; at the end the honest pages finish the game."""

    @initialize(config=st.sampled_from(SMALL_GAMES), seed=st.integers(0, 2**20), rng_seed=st.integers(0, 99))
    def open_table(self, config, seed, rng_seed):
        game, options = config
        self.t = SocketTable(game, options, seed)
        self.rng = random.Random(rng_seed)
        self.errors = {id(page): 0 for page in self.t.pages()}
        self.shadow = self.t.read(lambda t: t.session.game.new_initial_state())
        self.last: tuple[Client, dict[str, Any]] | None = None
        self.follow()

    def follow(self, person: tuple[int, int, int] | None = None) -> None:
        """The shadow takes the table's new steps; only ``person`` may be a person's decision."""
        history = self.t.read(lambda t: t.session.state.history())
        kinds = self.t.read(lambda t: [s.kind for s in t.seats])
        for step in range(len(self.shadow.history()), len(history)):
            if not self.shadow.is_chance_node():
                seat = self.shadow.current_player()
                if person is not None and step == person[0]:
                    assert (seat, history[step]) == person[1:]
                else:
                    assert kinds[seat] == "bot", f"step {step}: seat {seat} moved without an accepted move"
            self.shadow.apply_action(history[step])

    def send_and_check(self, page: Client, text: str | bytes, seat: int | None) -> None:
        """Send one message from ``page``; it gets at most one error (exactly one unless the
        message was a valid ping, control or an accepted move), and only it."""
        before = self.t.read(lambda t: (t.version, t.session.position, snapshot(t)))
        if isinstance(text, bytes):
            page.ws.send_bytes(text)
        else:
            page.send(text)
        if page.closed is not None:
            return
        came = page.barrier()
        errors = [m for m in came if m["type"] == "error"]
        assert len(errors) <= 1
        for error in errors:
            assert isinstance(error["text"], str) and error["text"].strip()
            assert set(error) == {"type", "text", "seq"} and type(error["seq"]) is int
        self.errors[id(page)] += len(errors)
        after = self.t.read(lambda t: (t.version, snapshot(t)))
        if after[0] == before[0]:
            assert after[1] == before[2], "a refused message changed the table"
            try:
                parsed = parse_message(text, "seat" if seat is not None else "projector", 2000)
            except ProtocolError:
                parsed = None
            if not isinstance(parsed, (PingMessage, ControlMessage)):
                assert len(errors) == 1, f"no error for a refused message: {text!r:.200}"
        else:
            assert not errors and seat is not None, "only a seat's accepted move changes the table"
            action = json.loads(text)["action"]
            self.follow((before[1], seat, action))
            self.last = (page, json.loads(text))

    @rule(data=st.data(), text=message_texts())
    def anything(self, data, text):
        seats = sorted(self.t.seats)
        who = data.draw(st.sampled_from([*seats, None]))
        page = self.t.projector if who is None else self.t.seats[who]
        self.send_and_check(page, text, who)

    @rule(data=st.data(), cheat=st.sampled_from(CHEATS))
    def cheat(self, data, cheat):
        version, seat, over = self.t.read(lambda t: (t.version, mover(t), game_over(t)))
        if over or seat is None:
            return
        frame = self.t.seats[seat].wait_frame(seq=version)
        if not frame["moves"]:
            return
        action = data.draw(st.sampled_from([m["action"] for m in frame["moves"]]))
        move = {"type": "move", "action": action, "seq": version}
        if cheat == "stale":
            self.send_and_check(self.t.seats[seat], json.dumps(dict(move, seq=version - 1)), seat)
        elif cheat == "future":
            self.send_and_check(self.t.seats[seat], json.dumps(dict(move, seq=version + 1)), seat)
        elif cheat == "replay" and self.last is not None:
            page, message = self.last
            self.send_and_check(
                page, json.dumps(message), next(s for s, p in self.t.seats.items() if p is page)
            )
        elif cheat == "other_seat" and len(self.t.seats) > 1:
            other = data.draw(st.sampled_from([s for s in self.t.seats if s != seat]))
            self.send_and_check(self.t.seats[other], json.dumps(move), other)
        elif cheat == "projector_move":
            self.send_and_check(self.t.projector, json.dumps(move), None)
        elif cheat == "host_move":
            before = self.t.read(snapshot)
            self.t.host.send(move)
            errors = [m for m in self.t.host.barrier() if m["type"] == "error"]
            assert len(errors) == 1
            self.errors[id(self.t.host)] += 1
            assert self.t.read(snapshot) == before
        elif cheat == "bytes":
            self.send_and_check(self.t.seats[seat], json.dumps(move).encode(), seat)
        elif cheat == "host_key_hello":
            hello = {"type": "host", "code": self.t.code, "key": self.t.tokens[seat]}
            self.send_and_check(self.t.seats[seat], json.dumps(hello), seat)

    @rule(
        name=st.sampled_from(["pause", "resume", "continue", "bot", "person", "record", "kick", "start"]),
        value=st.one_of(
            st.none(), st.none(), st.integers(0, 2), st.integers(0, 2), st.integers(-1, 6), JSON_VALUES
        ),
    )
    def host_command(self, name, value):
        """The host (who may) sends any command with any value: applied, or one error and nothing
        changed; the shadow follows whatever bots now play."""
        before = self.t.read(snapshot)
        self.t.host.send(json.dumps({"type": "command", "name": name, "value": value}))
        came = self.t.host.barrier()
        errors = [m for m in came if m["type"] == "error"]
        assert len(errors) <= 1
        self.errors[id(self.t.host)] += len(errors)
        if errors or name == "record":
            assert self.t.read(snapshot) == before
        event(f"host {name}: {'refused' if errors else 'done'}")
        self.follow()

    @rule(data=st.data())
    def stranger_hello(self, data):
        """A new socket says anything first: it is welcomed as the projector (a well-formed watch
        of this code) or refused and closed with a close code of the protocol; the table and its
        pages do not notice."""
        code = self.t.code
        hello = data.draw(
            st.one_of(
                message_texts(code),
                st.sampled_from(
                    [
                        json.dumps({"type": "watch", "code": code.lower()}),
                        json.dumps({"type": "join", "code": code, "name": "Late"}),
                        json.dumps({"type": "resume", "code": code, "token": "t" * 32}),
                        json.dumps({"type": "host", "code": code, "key": "k" * 32}),
                        json.dumps({"type": "watch", "code": code, "key": self.t.hub.host_key}),
                    ]
                ),
            )
        )
        before = self.t.read(snapshot)
        page = Client(self.t.tc)
        page.send(hello)
        first = page.next()
        if first is not None and first["type"] == "welcome":
            assert first["role"] == "projector" and "token" not in first
            page.wait_frame()
        else:
            while page.next(timeout=5) is not None:
                pass
            assert page.closed is not None and page.closed.code in (1008, 4403, 4404, 4409, 4429), page.closed
            assert first is None or (first["type"] == "refused" and first["text"].strip())
        page.close()
        assert self.t.read(snapshot) == before

    @rule(steps=st.integers(1, 8))
    def honest(self, steps):
        for _ in range(steps):
            if self.t.read(game_over):
                return
            version = self.t.read(lambda t: t.version)
            played = self.t.honest_step(self.rng)
            self.follow(played)
            if played is not None:
                self.last = (self.t.seats[played[1]], {"type": "move", "action": played[2], "seq": version})

    @invariant()
    def consistent(self):
        if hasattr(self, "t"):
            self.t.read(check_consistent)
            for page in self.t.pages():
                assert page.closed is None, f"a page was closed: {page.closed}"
                for message in page.messages:
                    json.dumps(message, allow_nan=False)

    def teardown(self):
        if not hasattr(self, "t"):
            return
        try:
            if self.t.read(lambda t: t.phase) == "paused":
                self.t.command("resume")
                self.follow()
            for seat in self.t.read(lambda t: [s.seat for s in t.seats if s.away_person]):
                if not self.t.read(game_over):
                    self.t.command("person", seat)
            self.follow()
            for _ in range(MAX_GAME_STEPS):
                if self.t.read(game_over):
                    break
                self.honest(8)
            assert self.t.read(game_over)
            self.follow()
            self.t.read(check_consistent)
            version = self.t.sync_all()
            for page in self.t.pages():
                assert page.latest()["seq"] == version
                errors = sum(m["type"] == "error" for m in page.messages)
                assert errors == self.errors[id(page)], "an error went to a page that did not cause it"
        finally:
            self.t.close()


SocketMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_socket_machine = SocketMachine.TestCase


# -- the lobby through the server ---------------------------------------------------------------

GAME_NAMES = ["ride_the_bus", "bus_and_stop", "busstop", "bus_city"]
OPTION_NAMES = ["players", "board", "row_points", "bus", "streak", "mode", "final_round", "leftover_penalty"]
OPTION_NAMES += ["passenger_bonus", "end_bonus", "challenging", "empty_speed", "max_rounds", "sheet", "x"]
OPTION_VALUES = st.one_of(
    st.integers(-3, 12),
    st.integers(-(10**12), 10**12),
    st.booleans(),
    st.sampled_from(
        ["pyramid", "give_and_take", "flat", "questions", "gauntlet", "full_turn", "/etc/passwd", ""]
    ),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False),
)
CONFIGURE = st.fixed_dictionaries(
    {
        "game": st.sampled_from([*GAME_NAMES, "chess", "RIDE_THE_BUS", ""]),
        "options": st.dictionaries(st.sampled_from(OPTION_NAMES), OPTION_VALUES, max_size=4),
        "people": st.lists(st.booleans(), min_size=0, max_size=9),
        "bot": st.sampled_from(["best_odds", "random", "greedy", "bidder", "nobody", ""]),
        "seed": st.none() | st.integers(-5, 2**64),
    }
)

PLAYERS = {"ride_the_bus": (1, 5), "bus_and_stop": (2, 4), "busstop": (2, 5), "bus_city": (2, 3)}


@st.composite
def good_settings(draw) -> dict[str, Any]:
    """Settings a host's form would send: a game, a seat count it allows, people per seat."""
    game = draw(st.sampled_from(GAME_NAMES))
    players = draw(st.integers(*PLAYERS[game]))
    options = {"players": players}
    if game == "bus_city":
        options["max_rounds"] = draw(st.integers(1, 3))
    people = draw(st.lists(st.booleans(), min_size=players, max_size=players))
    return {
        "game": game,
        "options": options,
        "people": people,
        "bot": "random",
        "seed": draw(st.none() | st.integers(0, 99)),
    }


class LobbyMachine(RuleBasedStateMachine):
    """A lobby through the server: the host sends any settings at all, people join and are
    kicked. A refused command is one error to the host and changes nothing; accepted settings keep
    every joined person (on the seat their token holds); then the game starts and is played out."""

    @initialize(seed=st.integers(0, 2**16))
    def open_lobby(self, seed):
        self.t = SocketTable("ride_the_bus", {"players": 3}, seed, start=False, people=[True, True, False])
        self.rng = random.Random(seed)
        self.pages = {self.t.tokens[seat]: page for seat, page in self.t.seats.items()}
        self.names = 0

    def host(self, name: str, value: Any) -> bool:
        """A host command: True if it was applied, else exactly one error and nothing changed."""
        before = self.t.read(snapshot)
        self.t.host.send({"type": "command", "name": name, "value": value})
        came = self.t.host.barrier()
        errors = [m for m in came if m["type"] == "error"]
        after = self.t.read(snapshot)
        if errors:
            assert len(errors) == 1 and errors[0]["text"].strip()
            assert after == before, f"a refused {name} changed the lobby"
            return False
        assert after[0] == before[0] + 1, f"an accepted {name} is one change"
        return True

    @rule(value=CONFIGURE | good_settings() | good_settings())
    def configure(self, value):
        accepted = self.host("configure", value)
        event(f"settings {'accepted' if accepted else 'refused'}")
        if accepted:
            seats = self.t.read(lambda t: {s.token: s.seat for s in t.seats if s.token})
            assert set(seats) == set(self.pages), "joined people keep a seat"
            for token, page in self.pages.items():
                assert page.wait_frame(seq=self.t.read(lambda t: t.version))["table"]["you"] == seats[token]

    @rule()
    def join(self):
        self.names += 1
        page = Client(self.t.tc, {"type": "join", "code": self.t.code, "name": f"Guest {self.names}"})
        if page.welcome["type"] == "welcome":
            self.pages[page.welcome["token"]] = page
        else:
            assert page.welcome["type"] == "refused"
            while page.next(timeout=5) is not None:
                pass
            assert page.closed is not None and page.closed.code == 4409

    @rule(seat=st.integers(-1, 9))
    def kick(self, seat):
        token = self.t.read(lambda t: t.seats[seat].token if 0 <= seat < len(t.seats) else None)
        if self.host("kick", seat) and token is not None:
            page = self.pages.pop(token)
            while page.next(timeout=5) is not None:
                pass
            assert page.closed is not None and page.closed.code == 4403

    @invariant()
    def consistent(self):
        self.t.read(check_consistent)
        for page in self.pages.values():
            assert page.closed is None

    def teardown(self):
        if not hasattr(self, "t"):
            return
        try:
            self.t.command("start")
            seats = self.t.read(lambda t: {s.token: s.seat for s in t.seats if s.token})
            self.t.seats = {seats[token]: page for token, page in self.pages.items()}
            self.t.play_to_end(self.rng)
            self.t.read(check_consistent)
        finally:
            self.t.close()


LobbyMachine.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_lobby_machine = LobbyMachine.TestCase


@settings(max_examples=150, deadline=None)
@given(
    game=st.sampled_from([*GAME_NAMES, "chess", ""]) | JSON_VALUES,
    options=st.dictionaries(st.sampled_from(OPTION_NAMES), OPTION_VALUES | JSON_VALUES, max_size=4)
    | JSON_VALUES,
    people=st.lists(st.booleans() | st.integers(0, 1), max_size=9) | JSON_VALUES,
    bot=st.sampled_from(["best_odds", "random", "greedy", "nobody"]) | JSON_VALUES,
    seed=st.none() | st.integers(-5, 2**70) | JSON_VALUES,
)
def test_configure_takes_anything_and_refuses_with_a_table_error(game, options, people, bot, seed):
    """The lobby's settings straight on the table (as the notebook widget calls it, with no
    protocol in front): accepted, or a TableError with a text and nothing changed."""
    table = Table("CNFG2", game="ride_the_bus", options={"players": 3}, people=[True, True, False])
    table.join("Ann")
    before = snapshot(table)
    try:
        table.configure(game, options, people, bot, seed)
    except TableError as err:
        assert str(err).strip()
        assert snapshot(table) == before
        return
    assert table.seats[0].name == "Ann" or any(s.name == "Ann" for s in table.seats)
    check_consistent(table)
    table.start()
    settle(table)
    play_to_end(table, random.Random(0))
