"""The class table cannot be cheated or overrun: who may do what, what each page is told, limits.

Most tests go through the real app with Starlette's ``TestClient`` (one event loop for every page,
as in the server); the message-size and flooding tests also run a real uvicorn server
(:class:`~bus_lab.table.runner.TableServer`) with ``websockets`` clients.

* A page acts only for its own seat; forged, foreign and misused secrets are refused (4403) and
  change nothing; host commands need the host key; failed hellos per address are limited (4429).
* No message sent to a page holds another seat's private information (the swap test: Busstop's
  face-down tiles), the seed, the history, a token other than its own (in its welcome) or the
  host key; the projector gets the public view only.
* Oversized messages and floods are refused without touching the other pages; idle tables are
  closed by the sweep; tables and connections are limited; unknown codes get a 404 page and a
  refused socket; every page has the security headers; the command line listens on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import json
import random
import threading
import time
from typing import Any

import pytest
from async_run import run_async
from table_clients import Client, SocketTable, game_over, mover, refused

from bus_lab.table import Hub, Table
from bus_lab.table import frames as table_frames
from bus_lab.table.limits import Limits
from bus_lab.table.protocol import COMMANDS
from bus_lab.table.table import TableError

pytestmark = pytest.mark.timeout(120)

#: A seed no frame may show (big enough not to appear by chance in a frame's numbers).
SEED = 271_828_182

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'"
)


class FakeClock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


def snapshot(table: Table) -> tuple:
    """What a refused request must leave as it was."""
    history = tuple(table.session.state.history()) if table.session is not None else ()
    seats = [(s.seat, s.kind, s.name, s.token, s.claimed, s.away_person) for s in table.seats]
    return table.version, table.phase, history, seats, table.game_name, dict(table.options)


@pytest.fixture
def rtb():
    """A started 3-seat Ride the Bus table with its host, seat and projector pages."""
    t = SocketTable("ride_the_bus", {"players": 3}, seed=5)
    yield t
    t.close()


# -- who may act ----------------------------------------------------------------------------------


def test_a_page_moves_only_for_its_own_seat(rtb):
    version, seat = rtb.read(lambda t: (t.version, mover(t)))
    frame = rtb.seats[seat].wait_frame(seq=version)
    action = frame["moves"][0]["action"]
    before = rtb.read(snapshot)
    for other, page in rtb.seats.items():
        if other == seat:
            continue
        assert page.wait_frame(seq=version)["moves"] == [], "only the mover's frame offers moves"
        page.send({"type": "move", "action": action, "seq": version})
        errors = [m for m in page.barrier() if m["type"] == "error"]
        assert len(errors) == 1 and "not your turn" in errors[0]["text"]
        # naming the seat to act for is not part of the protocol
        page.send({"type": "move", "action": action, "seq": version, "seat": seat})
        assert [m["type"] for m in page.barrier()].count("error") == 1
    rtb.projector.send({"type": "move", "action": action, "seq": version})
    assert any(m["type"] == "error" for m in rtb.projector.barrier())
    assert rtb.read(snapshot) == before
    # the mover's own page still plays it
    rtb.seats[seat].send({"type": "move", "action": action, "seq": version})
    rtb.seats[seat].wait_frame(seq=version + 1)
    assert rtb.read(lambda t: t.session.state.history())[len(before[2])] == action


def test_forged_foreign_and_misused_secrets_are_refused_and_change_nothing(rtb):
    other = rtb.call(rtb.hub.create_table, "busstop", {"players": 3}, None, "best_odds", 3)
    stranger = Client(rtb.tc, {"type": "join", "code": other.code, "name": "Olga"})
    other_token = stranger.welcome["token"]
    own_token = rtb.tokens[0]
    before = (rtb.read(snapshot), rtb.call(snapshot, other))
    cases = [
        {"type": "resume", "code": rtb.code, "token": "x" * 32},
        {
            "type": "resume",
            "code": rtb.code,
            "token": own_token[:-1] + ("A" if own_token[-1] != "A" else "B"),
        },
        {"type": "resume", "code": rtb.code, "token": other_token},  # another table's seat
        {"type": "resume", "code": other.code, "token": own_token},
        {"type": "host", "code": rtb.code, "key": own_token},  # a seat's token as the host key
        {"type": "host", "code": rtb.code, "key": Hub().host_key},  # another server's key
    ]
    for hello in cases:
        message, code = refused(rtb.tc, hello)
        assert code == 4403, hello
        assert message is not None and message["text"].strip()
        assert own_token not in json.dumps(message) and rtb.hub.host_key not in json.dumps(message)
    assert (rtb.read(snapshot), rtb.call(snapshot, other)) == before
    # the real token still works, on its own table only
    page = Client(rtb.tc, {"type": "resume", "code": rtb.code, "token": own_token})
    assert page.welcome["type"] == "welcome" and page.welcome["seat"] == 0
    assert "token" not in page.welcome, "a resumed seat is not sent its token again"
    page.close()
    stranger.close()


def test_host_commands_need_the_host_key(rtb):
    before = rtb.read(snapshot)
    commands = [
        ("pause", None),
        ("end", None),
        ("close", None),
        ("record", None),
        ("bot", 1),
        ("kick", 1),
        ("continue", None),
        ("start", None),
        ("again", None),
        ("person", 1),
        ("resume", None),
        ("configure", {"game": "busstop", "options": {}, "people": [True] * 4, "bot": "random", "seed": 1}),
    ]
    assert {name for name, _ in commands} == set(COMMANDS)  # every host command is tried
    for page in [*rtb.seats.values(), rtb.projector]:
        for name, value in commands:
            page.send({"type": "command", "name": name, "value": value})
            came = page.barrier()
            assert [m["type"] for m in came if m["type"] != "frame"] == ["error"], (name, came)
            assert not any(m["type"] == "record" for m in came)
    assert rtb.read(snapshot) == before
    # with the key, the same command works
    rtb.command("pause")
    assert rtb.read(lambda t: t.phase) == "paused"


def test_failed_hellos_per_address_are_limited():
    clock = FakeClock()
    limits = Limits(pace_s=0, failed_joins_per_minute=3)
    t = SocketTable("ride_the_bus", {"players": 2}, seed=1, limits=limits, clock=clock)
    try:
        codes = [
            refused(t.tc, {"type": "resume", "code": t.code, "token": f"forged{i}"})[1] for i in range(3)
        ]
        assert codes == [4403, 4403, 4403]
        assert refused(t.tc, {"type": "watch", "code": "ZZZZZ"})[1] == 4429  # unknown codes count too
        # blocked now, until the minute is over
        assert refused(t.tc, {"type": "resume", "code": t.code, "token": "forged9"})[1] == 4429
        assert refused(t.tc, {"type": "host", "code": t.code, "key": "forged10"})[1] == 4429
        t.seats[0].barrier()  # pages already connected are not touched
        assert t.seats[0].closed is None
        clock.now += 61
        page = Client(t.tc, {"type": "resume", "code": t.code, "token": t.tokens[0]})
        assert page.welcome["type"] == "welcome"
        page.close()
    finally:
        t.close()


def test_hub_counts_failed_joins_per_address():
    clock = FakeClock()
    hub = Hub(limits=Limits(failed_joins_per_minute=2), clock=clock)
    assert [hub.note_failed_join("10.0.0.1") for _ in range(3)] == [True, True, False]
    assert hub.note_failed_join("10.0.0.2"), "another address has its own count"
    clock.now += 61
    assert hub.note_failed_join("10.0.0.1")


# -- what each page is told -----------------------------------------------------------------------


def walk(value: Any):
    """Every dict key and every list in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield "key", key
            yield from walk(item)
    elif isinstance(value, list):
        yield "list", value
        for item in value:
            yield from walk(item)


def check_no_secrets(t: SocketTable, seed: int, history: list[int]) -> None:
    """No message to any page holds the seed, the history, the host key, or a token other than
    the page's own in its welcome."""
    tokens = set(t.tokens.values())
    for page in t.pages():
        own = page.welcome.get("token") if page.welcome else None
        for i, (text, message) in enumerate(zip(page.texts, page.messages)):
            assert t.hub.host_key not in text
            for token in tokens:
                if token in text:
                    assert token == own and i == 0 and message["type"] == "welcome", "a token leaked"
            assert str(seed) not in text, "the seed leaked"
            if message["type"] == "record":
                assert page is t.host
                continue
            for kind, item in walk(message):
                if kind == "key":
                    assert item not in ("seed", "history", "token", "host_key", "key", "deck") or (
                        item == "token" and i == 0 and page is not t.host
                    ), f"{item!r} in a message to a page"
                elif len(item) >= 8:
                    assert item != history[: len(item)], "the history leaked"


def shown_public_view(table: Table, state) -> dict[str, Any]:
    """The public view as the projector page shows it: the game's ``public_view()``, with people's
    names in place of their seat numbers in the board's status line."""
    view = state.public_view()
    if isinstance(view.get("status"), str):
        view = {**view, "status": table_frames.name_seats(view["status"], table_frames.seat_names(table))}
    return view


def play_recording(t: SocketTable, rng: random.Random) -> dict[int, dict[str, Any]]:
    """Play to the end honestly; returns, per table version, what the table was then."""
    seen: dict[int, dict[str, Any]] = {}

    def record(table: Table) -> None:
        state = table.session.state if table.session is not None else None
        seen[table.version] = {
            "history": list(state.history()) if state is not None else [],
            "public": shown_public_view(table, state) if state is not None else None,
            "notice": table.notice,
        }

    t.call(t.table.add_listener, record)
    t.read(record)
    t.play_to_end(rng)
    t.sync_all()
    return seen


def twin_frame(t: SocketTable, history: list[int], seat: int | None, notice: str | None) -> dict[str, Any]:
    """The frame ``seat`` (``None``: the projector) would get had the table's game gone through
    ``history``: a fresh table of the same game and seed, driven there by its own rules."""
    info = t.read(lambda table: (table.game_name, dict(table.options), table.seed))
    twin = Table(
        t.code, game=info[0], options={k: v for k, v in info[1].items() if k != "sheet"}, seed=info[2]
    )
    for i in range(len(twin.seats)):
        twin.join(f"Player {i}")
    twin.start()
    names = t.read(lambda table: [s.name for s in table.seats])
    for info_seat, name in zip(twin.seats, names):
        info_seat.name = name
    state = twin.session.state
    for action in history:
        if state.is_chance_node():
            twin.session.play(action)
        else:
            twin.move(state.current_player(), action, twin.version)
        twin.changed()
        state = twin.session.state
    twin.notice = notice
    return twin.seat_frame(seat) if seat is not None else twin.projector_frame()


def without_seq(frame: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in frame.items() if k != "seq"}


BID = range(101, 111)  # Busstop: choosing tile 1-10 (ChooseTile.action)


def hidden_bid_swaps(history: list[int], game, viewer: int | None, view: dict[str, Any]) -> list[list[int]]:
    """For each participant whose tile is hidden in ``view``, the history with that participant's
    face-down tile swapped for another one it could have chosen (same everything else)."""
    state = game.new_initial_state()
    last_bid: dict[int, int] = {}
    states = []
    for i, action in enumerate(history):
        states.append(state.clone())
        if not state.is_chance_node() and action in BID:
            last_bid[state.current_player()] = i
        state.apply_action(action)
    swaps = []
    for k, bid in enumerate(view["bids"]):
        if bid["state"] != "hidden" or k == viewer or k not in last_bid:
            continue
        i = last_bid[k]
        others = [a for a in states[i].legal_actions() if a in BID and a != history[i]]
        if others:
            swaps.append([*history[:i], others[0], *history[i + 1 :]])
    return swaps


@pytest.mark.parametrize("players", [2, 3])
def test_no_page_learns_a_face_down_tile_the_seed_the_history_or_a_secret(players):
    """Busstop, 2 (with the proxy bus) and 3 people: every frame each seat and the projector received is the same frame it
    would have received had another participant chosen another face-down tile (the swap test);
    and no message holds the seed, the history, the host key or another page's token. Tables
    (seeds SEED, SEED + 1, ...) are played until five frames with a face-down tile were checked."""
    rng = random.Random(7)
    hidden_frames = 0
    for game_number in range(8):
        if hidden_frames >= 5:
            break
        hidden_frames += check_one_table(players, SEED + game_number, rng)
    assert hidden_frames >= 5


def check_one_table(players: int, seed: int, rng: random.Random) -> int:
    """Play one Busstop table over sockets and run the swap test on every frame with a face-down
    tile and the secrets check; returns how many such frames there were (all of them checked)."""
    t = SocketTable("busstop", {"players": players}, seed=seed)
    try:
        seen = play_recording(t, rng)
        game = t.read(lambda table: table.session.game)
        history = t.read(lambda table: table.session.state.history())
        checked = 0
        hidden_frames = 0
        pages = [(seat, page) for seat, page in t.seats.items()] + [(None, t.projector)]
        for seat, page in pages:
            for frame in page.frames:
                if frame["seq"] not in seen:
                    continue
                then = seen[frame["seq"]]
                view = frame["view"]
                if seat is None:
                    assert view == then["public"], "the projector shows the public view"
                    assert frame["moves"] == [] and frame["table"]["you"] is None
                swaps = hidden_bid_swaps(then["history"], game, seat, view)
                hidden_frames += bool(swaps)
                for swapped in swaps[:1]:
                    other = twin_frame(t, swapped, seat, then["notice"])
                    assert without_seq(other) == without_seq(frame), (
                        f"seat {seat}'s frame at seq {frame['seq']} depends on a face-down tile"
                    )
                    checked += 1
        assert checked == hidden_frames
        check_no_secrets(t, seed, history)
    finally:
        t.close()
    return hidden_frames


def test_secret_seed_never_shown():
    """A table with no fixed seed: its secret seed is in no message (and the host's lobby says
    only that no seed was fixed)."""
    t = SocketTable("ride_the_bus", {"players": 2}, seed=None)
    try:
        seen = play_recording(t, random.Random(3))
        assert seen
        seed = t.read(lambda table: table.session.seed)
        history = t.read(lambda table: table.session.state.history())
        check_no_secrets(t, seed, history)
        assert t.host.latest()["lobby"]["fixed_seed"] is False
    finally:
        t.close()


def test_the_record_goes_to_the_host_only(rtb):
    for page in rtb.seats.values():
        page.send({"type": "command", "name": "record", "value": None})
        assert not any(m["type"] == "record" for m in page.barrier())
    rtb.host.send({"type": "command", "name": "record", "value": None})
    record = rtb.host.until("record")
    assert json.loads(record["record"])["history"] == rtb.read(lambda t: t.session.state.history())


# -- size, rate and flood -------------------------------------------------------------------------


def test_oversized_messages_are_refused_and_the_page_stays(rtb):
    limit = Limits().max_message_chars
    page = rtb.seats[0]
    before = rtb.read(snapshot)
    for text in ["x" * (limit + 1), json.dumps({"type": "ping", "pad": "y" * limit}), "[" * 100_000]:
        page.send(text)
        errors = [m for m in page.barrier() if m["type"] == "error"]
        assert len(errors) == 1 and "too long" in errors[0]["text"]
    assert page.closed is None and rtb.read(snapshot) == before
    for other in [rtb.host, rtb.seats[1], rtb.projector]:
        assert other.barrier() is not None and other.closed is None


def test_flooding_gets_errors_then_a_close_and_spares_the_others():
    clock = FakeClock()
    limits = Limits(pace_s=0, rate_per_second=1.0, rate_burst=5, flood_close_after=20)
    t = SocketTable("ride_the_bus", {"players": 2}, seed=2, limits=limits, clock=clock)
    try:
        flooder, other = t.seats[0], t.seats[1]
        before = t.read(snapshot)
        for _ in range(60):
            flooder.send({"type": "ping"})
        while flooder.next(timeout=5) is not None:
            pass
        kinds = [m["type"] for m in flooder.messages if m["type"] in ("pong", "error")]
        assert kinds[:5] == ["pong"] * 5, "the burst is served"
        assert kinds[5:] == ["error"] * 20, "then errors, until the flood limit"
        assert flooder.closed is not None and flooder.closed.code == 1008
        assert t.read(snapshot) == before
        clock.now += 10
        assert other.barrier() is not None and other.closed is None
        t.host.barrier()
        # the close is not a ban: the flooder's page comes back with its token, and the game goes on
        back = Client(t.tc, {"type": "resume", "code": t.code, "token": t.tokens[0]})
        assert back.welcome["type"] == "welcome" and back.welcome["seat"] == 0
        t.seats[0] = back
        version, seat = t.read(lambda table: (table.version, mover(table)))
        page = t.seats[seat]
        move = page.wait_frame(seq=version)["moves"][0]["action"]
        page.send({"type": "move", "action": move, "seq": version})
        page.wait_frame(seq=version + 1)
        assert other.wait_frame(seq=version + 1)["seq"] > version
    finally:
        t.close()


# -- real server: ws_max_size and flooding over TCP -----------------------------------------------


def test_real_server_refuses_frames_over_ws_max_size_and_keeps_the_others():
    from websockets.exceptions import ConnectionClosed

    from bus_lab.table.runner import WS_MAX_SIZE, TableServer

    hub = Hub(limits=Limits(pace_s=0), pace_s=0)
    with TableServer(hub=hub) as server:
        table = server.call(hub.create_table, "ride_the_bus", {"players": 2}, None, "best_odds", 4)
        url = server.url.replace("http://", "ws://") + "/ws"

        async def scenario() -> tuple[int | None, list[str], list[str]]:
            from websockets.asyncio.client import connect

            async with connect(url) as big, connect(url) as calm:
                for ws in (big, calm):
                    await ws.send(json.dumps({"type": "watch", "code": table.code}))
                    assert json.loads(await ws.recv())["type"] == "welcome"
                    await ws.recv()  # first frame
                await big.send(json.dumps({"type": "ping", "pad": "z" * (WS_MAX_SIZE + 100)}))
                code = None
                try:
                    while True:
                        await asyncio.wait_for(big.recv(), 5)
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else None
                # the calm page still talks, and still gets frames
                await calm.send(json.dumps({"type": "ping"}))
                calm_got = [json.loads(await asyncio.wait_for(calm.recv(), 5))["type"]]
                server.call(lambda: (table.join("Late"), table.changed()))
                calm_got.append(json.loads(await asyncio.wait_for(calm.recv(), 5))["type"])
                # a message over max_message_chars but under ws_max_size: an error, not a close
                await calm.send(json.dumps({"type": "ping", "pad": "q" * (Limits().max_message_chars + 10)}))
                errors = [json.loads(await asyncio.wait_for(calm.recv(), 5))["type"]]
                return code, calm_got, errors

        code, calm_got, errors = run_async(scenario())
        assert code == 1009, "uvicorn closes a socket that sends a message over ws_max_size"
        assert calm_got == ["pong", "frame"]
        assert errors == ["error"]


# -- idle tables, limits --------------------------------------------------------------------------


def test_idle_tables_are_closed_by_the_sweep_with_their_pages_told():
    clock = FakeClock()
    limits = Limits(pace_s=0)
    t = SocketTable("ride_the_bus", {"players": 2}, seed=1, limits=limits, clock=clock, start=False)
    try:
        sweep = t.app.state.tables.sweep
        clock.now += limits.lobby_idle_close_s - 1
        assert t.call(sweep) == []
        clock.now += 2
        assert t.call(sweep) == [t.code]
        for page in t.pages():
            while page.next(timeout=5) is not None:
                pass
            assert page.messages[-1]["type"] == "closed" and page.closed is not None
        assert t.code not in t.hub.tables
        assert refused(t.tc, {"type": "watch", "code": t.code})[1] == 4404
        assert t.tc.get(f"/t/{t.code}").status_code == 404
    finally:
        t.close()


@pytest.mark.parametrize("phase", ["lobby", "playing", "over"])
def test_idle_lobbies_games_and_ended_games_are_closed(phase):
    """Each phase has its own idle time (Limits); a table is closed only once it is over."""
    clock = FakeClock()
    limits = Limits(pace_s=0)
    hub = Hub(limits=limits, clock=clock, pace_s=0)
    people = [False, False] if phase == "over" else None
    table = hub.create_table("bus_and_stop", {"players": 2}, people, "random", 1)
    fresh = hub.create_table("bus_and_stop", {"players": 2}, None, "random", 2)
    if phase == "playing":
        table.join("Ann")
        table.join("Bo")
    if phase != "lobby":
        table.start()
        table.run_automatic()
        table.changed()
    assert table.phase == phase
    wait = {"lobby": limits.lobby_idle_close_s, "playing": limits.idle_close_s, "over": limits.ended_close_s}[
        phase
    ]
    clock.now += wait - 1
    fresh.changed()  # activity keeps a table open
    assert hub.sweep() == []
    clock.now += 2
    assert hub.sweep() == [table.code]
    assert table.phase == "closed" and table.code not in hub.tables and fresh.code in hub.tables


def test_tables_per_hub_are_limited():
    hub = Hub(limits=Limits(max_tables=2))
    first = hub.create_table()
    hub.create_table()
    with pytest.raises(TableError):
        hub.create_table()
    first.close()
    hub.sweep()
    hub.create_table()  # a closed table frees its place


def test_connections_per_table_are_limited():
    limits = Limits(pace_s=0, max_connections_per_table=4)
    t = SocketTable("ride_the_bus", {"players": 2}, seed=1, limits=limits)  # host + 2 seats + projector
    try:
        before = t.read(snapshot)
        message, code = refused(t.tc, {"type": "watch", "code": t.code})
        assert code == 4409 and message["text"].strip()
        assert t.read(snapshot) == before
        for page in t.pages():
            assert page.barrier() is not None and page.closed is None
        t.projector.close()
        time.sleep(0.05)
        again = Client(t.tc, {"type": "watch", "code": t.code})
        for _ in range(50):
            if again.welcome["type"] == "welcome":
                break
            time.sleep(0.05)
            again = Client(t.tc, {"type": "watch", "code": t.code})
        assert again.welcome["type"] == "welcome", "a place freed is taken again"
        again.close()
    finally:
        t.close()


def test_projector_pages_are_capped_apart_so_a_seat_always_finds_room():
    """Watching needs only the code: a script opening many projector pages is refused once the
    projector cap is reached, while a seat's page (its token) and the host still get in."""
    limits = Limits(pace_s=0, max_projectors_per_table=2)
    t = SocketTable("ride_the_bus", {"players": 2}, seed=1, limits=limits)  # one projector open
    extra = []
    try:
        extra.append(Client(t.tc, {"type": "watch", "code": t.code}))
        assert extra[-1].welcome["type"] == "welcome"
        message, code = refused(t.tc, {"type": "watch", "code": t.code})
        assert code == 4409 and "projector" in message["text"]
        again = Client(t.tc, {"type": "resume", "code": t.code, "token": t.tokens[0]})
        assert again.welcome["type"] == "welcome" and again.welcome["role"] == "seat"
        extra.append(again)
    finally:
        for client in extra:
            client.close()
        t.close()


def test_joining_a_started_table_is_refused(rtb):
    assert refused(rtb.tc, {"type": "join", "code": rtb.code, "name": "Late"})[1] == 4409


# -- HTTP -----------------------------------------------------------------------------------------


def test_unknown_codes_get_a_404_page_and_a_refused_socket(rtb):
    for path in ["/t/ZZZZZ", "/watch/ZZZZZ", "/host/ZZZZZ", "/t/%3Cscript%3E", "/t/" + "A" * 500]:
        response = rtb.tc.get(path)
        assert response.status_code == 404, path
        assert "text/html" in response.headers["content-type"]
        assert "join page" in response.text.lower() and 'href="../' in response.text, "a link back to /"
        assert "<script>" not in response.text.lower(), "the code is not echoed as markup"
    message, code = refused(rtb.tc, {"type": "watch", "code": "ZZZZZ"})
    assert code == 4404 and message["text"].strip()
    message, code = refused(rtb.tc, {"type": "join", "code": "ZZZZZ", "name": "Ann"})
    assert code == 4404


def test_security_headers_on_every_page(rtb):
    paths = [
        "/",
        f"/?code={rtb.code}",
        f"/t/{rtb.code}",
        f"/watch/{rtb.code}",
        f"/host/{rtb.code}",
        "/t/ZZZZZ",
        "/healthz",
        "/static/table.js",
        "/static/board.js",
        "/static/table.css",
        "/static/icon.svg",
    ]
    for path in paths:
        response = rtb.tc.get(path)
        assert response.headers["content-security-policy"] == CSP, path
        assert response.headers["x-content-type-options"] == "nosniff", path
        assert response.headers["referrer-policy"] == "no-referrer", path
        if path.startswith(("/t/", "/watch/", "/host/", "/?", "/healthz")) or path == "/":
            assert response.headers["cache-control"] == "no-store", path
    assert rtb.tc.get("/healthz").text == "ok"
    icon = rtb.tc.get("/static/icon.svg")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert "<script" not in icon.text
    # the host key is never in a page (it travels in the URL fragment)
    for path in paths:
        assert rtb.hub.host_key not in rtb.tc.get(path).text


def test_the_command_line_listens_on_this_computer_only_by_default():
    from bus_lab.table.__main__ import build_parser
    from bus_lab.table.runner import TableServer, serve

    assert build_parser().parse_args([]).host == "127.0.0.1"
    assert inspect.signature(serve).parameters["host"].default == "127.0.0.1"
    assert inspect.signature(TableServer).parameters["host"].default == "127.0.0.1"
    out, stop = io.StringIO(), threading.Event()
    runner = threading.Thread(target=serve, kwargs={"port": 0, "out": out, "stop": stop})
    runner.start()
    try:
        for _ in range(200):
            if "Join page" in out.getvalue():
                break
            time.sleep(0.05)
        text = out.getvalue()
        assert "Join page: http://127.0.0.1:" in text
        assert "anyone on this network" not in text
    finally:
        stop.set()
        runner.join(20)
    assert not runner.is_alive()


def test_game_over_frames_offer_no_moves(rtb):
    rtb.play_to_end(random.Random(2))
    assert rtb.read(game_over)
    for page in rtb.seats.values():
        assert page.latest()["moves"] == []


def test_names_are_plain_text_and_cannot_pass_for_another_seat():
    t = SocketTable("ride_the_bus", {"players": 4}, seed=1, start=False, people=[True, True, False, False])
    try:
        first = t.read(lambda table: table.seats[0].name)
        for name in ['<img src=x onerror="alert(1)">', first, "Seat 3", "Ana\u202eevil\u200b", " "]:
            t.call(lambda n=name: (t.table.leave(1), t.table.changed()))
            page = Client(t.tc, {"type": "join", "code": t.code, "name": name})
            if page.welcome["type"] != "welcome":
                assert page.welcome["type"] == "refused"
                continue
            names = [s["name"] for s in page.latest()["seats"]]
            mine = names[page.welcome["seat"]]
            assert "<" not in mine and ">" not in mine and "\u202e" not in mine and "\u200b" not in mine
            others = [n for i, n in enumerate(names) if i != page.welcome["seat"]]
            assert mine.casefold() not in {n.casefold() for n in others}, f"{mine!r} passes for another seat"
            page.close()
    finally:
        t.close()


# -- more of who may do what ----------------------------------------------------------------------


def test_a_secret_seed_is_too_big_to_search():
    """A table with no fixed seed deals from a secret seed; every chance draw follows from it
    (``Random(f"{seed}:chance:{step}")``), so the seed must be too big to find by trying every
    one against the cards already shown: at least 64 bits, as a host's fixed seed may be."""
    seeds = []
    for _ in range(40):
        table = Table("SEED2", game="ride_the_bus", options={"players": 2})
        table.join("Ann")
        table.join("Bo")
        table.start()
        seeds.append(table.session.seed)
    assert max(seeds) >= 2**40, f"every secret seed is below 2**40 (largest {max(seeds)})"


def test_a_page_that_says_nothing_is_closed_after_the_hello_timeout():
    limits = Limits(pace_s=0, hello_timeout_s=0.3)
    t = SocketTable("ride_the_bus", {"players": 2}, seed=1, limits=limits)
    try:
        silent = Client(t.tc)
        message = silent.next(timeout=5)
        while silent.closed is None and silent.next(timeout=5) is not None:
            pass
        assert silent.closed is not None and silent.closed.code == 1008
        assert message is not None and message["type"] == "refused"
        for page in t.pages():
            assert page.barrier() is not None and page.closed is None
    finally:
        t.close()


def test_a_kicked_seat_is_closed_and_its_token_no_longer_works():
    t = SocketTable("ride_the_bus", {"players": 3}, seed=1, start=False)
    try:
        token = t.tokens[1]
        kicked = t.seats[1]
        t.command("kick", 1)
        while kicked.next(timeout=5) is not None:
            pass
        assert kicked.closed is not None and kicked.closed.code == 4403
        assert refused(t.tc, {"type": "resume", "code": t.code, "token": token})[1] == 4403
        for seat in (0, 2):
            assert t.seats[seat].barrier() is not None and t.seats[seat].closed is None
        newcomer = Client(t.tc, {"type": "join", "code": t.code, "name": "Dee"})
        assert newcomer.welcome["seat"] == 1 and newcomer.welcome["token"] != token
        t.command("start")
        with pytest.raises(AssertionError, match="refused"):
            t.command("kick", 2)  # only in the lobby
    finally:
        t.close()


def test_new_settings_move_each_page_with_its_person():
    """The host changes the settings after people joined: each person moves to a new seat, and
    each open page acts for the seat its token now holds, never for the seat number it had."""
    t = SocketTable("ride_the_bus", {"players": 2}, seed=1, start=False)
    try:
        old = {seat: page for seat, page in t.seats.items()}
        settings_ = {"game": "ride_the_bus", "options": {"players": 3}, "people": [False, True, True]}
        t.command("configure", {**settings_, "bot": "random", "seed": 9})
        t.command("start")
        version = t.sync_all()
        now = t.read(lambda table: {s.token: s.seat for s in table.seats if s.token})
        assert now[t.tokens[0]] != 0, "seat 0 is the bot's now"
        for was, page in old.items():
            assert page.latest()["table"]["you"] == now[t.tokens[was]]
        # play the game out through these pages, each acting for its new seat only
        t.seats = {now[t.tokens[was]]: page for was, page in old.items()}
        t.tokens = {now[token]: token for token in t.tokens.values()}
        assert version == t.read(lambda table: table.version)
        t.play_to_end(random.Random(4))
        assert t.read(game_over)
        for page in t.seats.values():
            assert not any(m["type"] == "error" for m in page.messages)
    finally:
        t.close()


def test_the_host_closing_a_table_tells_every_page(rtb):
    rtb.host.send({"type": "command", "name": "close", "value": None})
    for page in rtb.pages():
        while page.next(timeout=5) is not None:
            pass
        assert page.closed is not None
        assert page.messages[-1]["type"] == "closed" and page.messages[-1]["text"].strip()
    assert refused(rtb.tc, {"type": "resume", "code": rtb.code, "token": rtb.tokens[0]})[1] == 4404
    assert rtb.tc.get(f"/t/{rtb.code}").status_code == 404


@pytest.mark.parametrize(
    "game, options",
    [
        ("ride_the_bus", {"players": 2}),
        ("bus_and_stop", {"players": 2}),
        ("busstop", {"players": 2}),
        ("bus_city", {"players": 2, "max_rounds": 2}),
    ],
)
def test_the_projector_and_the_host_see_the_public_view_only(game, options):
    t = SocketTable(game, options, seed=11)
    try:
        seen = play_recording(t, random.Random(5))
        checked = 0
        for page in (t.projector, t.host):
            for frame in page.frames:
                if frame["seq"] in seen and seen[frame["seq"]]["public"] is not None:
                    assert frame["view"] == seen[frame["seq"]]["public"]
                    assert frame["moves"] == [] and frame["blocked"] == {} and frame["table"]["you"] is None
                    checked += 1
        assert checked > 10
    finally:
        t.close()


def test_only_the_four_static_files_are_served(rtb):
    for path in [
        "/static/../table.py",
        "/static/%2e%2e/server.py",
        "/static/..%2fserver.py",
        "/static/core.js",
        "/static/table.js/../../table.py",
        "/t/ABCDE/../../etc/passwd",
    ]:
        response = rtb.tc.get(path)
        assert response.status_code == 404, path
        assert "import" not in response.text and "def " not in response.text


def test_real_server_flood_is_closed_and_the_others_keep_playing():
    """Over TCP: a page sends 400 messages at once without reading; it gets its burst, then
    errors, then a close (1008); meanwhile the other seat's pings are answered and its moves
    played."""
    from websockets.exceptions import ConnectionClosed

    from bus_lab.table.runner import TableServer

    limits = Limits(pace_s=0, rate_per_second=2.0, rate_burst=10, flood_close_after=50)
    hub = Hub(limits=limits, pace_s=0)
    with TableServer(hub=hub) as server:
        table = server.call(hub.create_table, "ride_the_bus", {"players": 2}, None, "best_odds", 8)
        url = server.url.replace("http://", "ws://") + "/ws"

        async def scenario() -> tuple[list[str], int | None, int]:
            from websockets.asyncio.client import connect

            async with connect(url) as flooder, connect(url) as calm, connect(url) as host:
                joined = {}
                for ws, name in ((flooder, "Flo"), (calm, "Cal")):
                    await ws.send(json.dumps({"type": "join", "code": table.code, "name": name}))
                    joined[name] = json.loads(await ws.recv())["seat"]
                await host.send(json.dumps({"type": "host", "code": table.code, "key": hub.host_key}))
                await host.recv()
                await host.send(json.dumps({"type": "command", "name": "start", "value": None}))
                for _ in range(400):
                    await flooder.send(json.dumps({"type": "ping"}))
                kinds, code = [], None
                try:
                    while True:
                        kinds.append(json.loads(await asyncio.wait_for(flooder.recv(), 10))["type"])
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else None
                # the calm page still gets answers and frames, and can move when it is its turn
                answered = 0
                await calm.send(json.dumps({"type": "ping"}))
                while True:
                    message = json.loads(await asyncio.wait_for(calm.recv(), 10))
                    if message["type"] == "pong":
                        answered += 1
                        break
                return kinds, code, answered

        kinds, code, answered = run_async(scenario())
        assert code == 1008
        assert kinds.count("pong") >= 10 and kinds.count("error") >= 40
        assert answered == 1
        assert server.call(lambda: table.phase) == "playing"


def test_pages_do_not_echo_markup_from_the_address(rtb):
    for path in [
        "/?code=<script>alert(1)</script>",
        '/?code="><img src=x onerror=alert(1)>',
        '/t/"><svg onload=alert(1)>',
        "/watch/%3Cimg%20src=x%3E",
        "/host/%3Cscript%3E",
    ]:
        text = rtb.tc.get(path).text.lower()
        for bad in ("<script>alert", "onerror=", "<svg onload", "<img src=x"):
            assert bad not in text, (path, bad)


def table_twin(table: Table, history: list[int]) -> Table:
    """A fresh table like ``table`` (same code, game, options, seed, names) driven through
    ``history`` by its own rules."""
    options = {k: v for k, v in table.options.items() if k != "sheet"}
    twin = Table(table.code, game=table.game_name, options=options, seed=table.seed)
    for info in table.seats:
        twin.join(info.name)
    twin.start()
    for action in history:
        state = twin.session.state
        if state.is_chance_node():
            twin.session.play(action)
        else:
            twin.move(state.current_player(), action, twin.version)
        twin.changed()
    twin.notice = table.notice
    return twin


@pytest.mark.parametrize(
    "players, bonus, end_bonus, seed", [(3, True, False, 21), (4, False, True, 22), (5, True, True, 23)]
)
def test_swap_test_of_every_seat_frame_over_busstop_options(players, bonus, end_bonus, seed):
    """Straight on the table, for every seat at every decision of a whole game: the seat's frame is
    the same whichever tile another participant chose face down."""
    options = {"players": players, "passenger_bonus": bonus, "end_bonus": end_bonus}
    table = Table("SWAP2", game="busstop", options=options, seed=seed)
    for i in range(players):
        table.join(f"P{i}")
    table.start()
    table.run_automatic()
    table.changed()
    rng = random.Random(seed)
    checked = 0
    while table.phase == "playing":
        state = table.session.state
        history = list(state.history())
        for seat in range(players):
            frame = table.seat_frame(seat)
            for swapped in hidden_bid_swaps(history, table.session.game, seat, frame["view"])[:1]:
                assert without_seq(table_twin(table, swapped).seat_frame(seat)) == without_seq(frame)
                checked += 1
        mover_seat = state.current_player()
        moves = table.seat_frame(mover_seat)["moves"]
        table.move(mover_seat, rng.choice(moves)["action"], table.version)
        table.run_automatic()
        table.changed()
        if checked > 60:
            break
    assert checked >= 10
