"""The host's panel of a class table (``TableHost``), driven headless: a real server in this
process, a real table, a real student joining over a websocket."""

from __future__ import annotations

import html
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import segno

from bus_lab.engine.session import Session
from bus_lab.table.codes import ALPHABET
from bus_lab.table.host_widget import _SERVERS, NETWORK_WARNING, QR_SVG, TableHost, lobby_words
from bus_lab.table.table import TableError
from bus_lab.widgets import GameWidget

pytestmark = pytest.mark.timeout(120)

#: How long a live change may take to reach the panel (it comes from the server's thread).
LIVE_S = 10.0


def wait_for(condition: Callable[[], Any], timeout: float = LIVE_S) -> Any:
    """Poll ``condition`` until it is truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"not true within {timeout} s: {condition}")


def get(url: str) -> tuple[int, str]:
    """GET ``url`` straight (no proxy from the environment): status and body."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=5) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def server_answers(url: str) -> bool:
    try:
        return get(url.rstrip("/") + "/healthz") == (200, "ok")
    except OSError:
        return False


@pytest.fixture
def make_host() -> Iterator[Callable[..., TableHost]]:
    """TableHost(...) with pace 0 (automatic steps at once); every host is closed at the end."""
    made: list[TableHost] = []

    def make(*args: Any, **kwargs: Any) -> TableHost:
        kwargs.setdefault("pace_s", 0)
        host = TableHost(*args, **kwargs)
        made.append(host)
        return host

    yield make
    for host in made:
        host.close()


def on_loop(host: TableHost, fn: Callable[..., Any], *args: Any) -> Any:
    """Run ``fn(*args)`` on the server's loop (where the table lives)."""
    return host.server.call(fn, *args)


def table_value(host: TableHost, read: Callable[[Any], Any]) -> Any:
    return on_loop(host, lambda: read(host.table))


# -- the server, the code, the address -----------------------------------------------------------------


def test_the_panel_starts_a_server_and_shows_the_code_and_the_join_address(make_host):
    host = make_host("ride_the_bus")
    assert len(host.code) == 5 and set(host.code) <= set(ALPHABET)
    assert host.code == table_value(host, lambda t: t.code)
    assert host.join_url == f"http://127.0.0.1:{host.port}/"
    assert server_answers(host.join_url)
    status, page = get(host.join_url)
    assert status == 200 and "<html" in page.lower()
    # the code in large letters and the join address, as the projector shows them
    assert f">{host.code}<" in host.address.value and host.join_url in host.address.value
    assert host.phase == "lobby" and "Lobby" in host.status.value
    assert host.watch_url == f"{host.join_url}watch/{host.code}"
    assert host.host_url.startswith(f"{host.join_url}host/{host.code}#key=")
    assert get(host.watch_url)[0] == 200
    # only this computer can reach it: no network warning
    assert not host.network and NETWORK_WARNING not in host.network_note.value


def test_the_qr_code_holds_the_join_address_with_the_code(make_host):
    host = make_host("busstop", options={"players": 3})
    assert host.qr_url == f"{host.join_url}?code={host.code}"
    again = segno.make(host.qr_url, error="m")
    assert again.matrix == host.qr_code.matrix
    assert again.svg_inline(**QR_SVG) in host.qr.value
    # another address gives another symbol: the SVG shown really depends on the address
    other = segno.make(f"{host.join_url}?code=ZZZZZ", error="m")
    assert other.svg_inline(**QR_SVG) not in host.qr.value
    assert f'aria-label="QR code of {host.qr_url}"' in host.qr.value


def test_two_tables_of_one_kernel_share_one_server_which_stops_with_the_last(make_host):
    first = make_host("ride_the_bus")
    second = make_host("bus_city")
    assert first.server is second.server and first.code != second.code
    url = first.join_url
    first.close()
    assert first.phase == "closed" and server_answers(url)
    assert second.phase == "lobby"
    second.close()
    assert not server_answers(url)
    assert all(shared.server is not first.server for shared in _SERVERS)


def test_close_closes_the_table_and_stops_the_server(make_host):
    host = make_host("ride_the_bus")
    url, table = host.join_url, host.table
    assert server_answers(url)
    host.close()
    assert table.phase == "closed"
    assert not server_answers(url)
    assert host.phase == "closed" and "closed" in host.status.value.lower()
    assert "Nothing of it is kept" in host.message_text
    host.close()  # twice is harmless
    host.start()  # and the buttons now only explain
    assert "closed" in host.message_text and host.last_error is not None


def test_when_the_kernel_shuts_down_every_server_it_started_stops(make_host):
    from bus_lab.table import host_widget

    host = make_host("ride_the_bus")
    url = host.join_url
    host_widget.stop_servers()  # registered with atexit: what runs when the kernel shuts down
    assert not server_answers(url) and not host_widget._SERVERS
    host.close()  # after the server is gone, closing still works and says so
    assert host.phase == "closed" and host.closed


# -- the lobby ---------------------------------------------------------------------------------------------


def test_lobby_changes_reach_the_table(make_host):
    host = make_host("ride_the_bus", options={"players": 4})
    assert set(host.option_controls) == {"players", "board", "row_points", "bus", "streak", "mode"} | {
        "ties",  # the house rules (RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES, RTB-HR-FLIP, RTB-HR-STAY)
        "inside",
        "aces",
        "pyramid_order",
        "played_cards",
    }
    host.option_controls["players"].value = 3
    assert table_value(host, lambda t: len(t.seats)) == 3
    assert [c.layout.display for c in host.seat_controls[:4]] == [None, None, None, "none"]
    host.option_controls["board"].value = "give_and_take"
    assert table_value(host, lambda t: t.options["board"]) == "give_and_take"
    host.seat_controls[2].value = False
    assert table_value(host, lambda t: [s.kind for s in t.seats]) == ["person", "person", "bot"]
    host.lobby["bot"].value = "random"
    assert table_value(host, lambda t: t.seats[2].bot) == "random"
    # another game: its own options (no sheet path), its own bot policies
    host.lobby["game"].value = "busstop"
    assert table_value(host, lambda t: t.game_name) == "busstop"
    # the same 3 players and the same people's seats: Busstop allows 2 to 5
    assert table_value(host, lambda t: [s.kind for s in t.seats]) == ["person", "person", "bot"]
    assert host.option_controls["players"].value == 3
    assert set(host.option_controls) == {"players", "passenger_bonus", "end_bonus"}
    assert "bidder" in [value for _, value in host.lobby["bot"].options]
    host.option_controls["passenger_bonus"].value = True
    assert table_value(host, lambda t: t.options["passenger_bonus"]) is True
    # the same from code
    host.configure("bus_and_stop", {"players": 2}, people=[True, False])
    assert table_value(host, lambda t: (t.game_name, [s.kind for s in t.seats])) == (
        "bus_and_stop",
        ["person", "bot"],
    )
    assert host.last_error is None and not host.message_text.startswith("Error")
    # 8 players of Ride the Bus do not fit BUS (2 to 3): the most it allows then
    host.configure("ride_the_bus", {"players": 8})
    host.lobby["game"].value = "bus_city"
    assert table_value(host, lambda t: (t.game_name, len(t.seats))) == ("bus_city", 3)


def test_a_bad_setting_is_explained_in_the_message_line_and_changes_nothing(make_host):
    host = make_host("ride_the_bus")
    before = table_value(host, lambda t: (t.game_name, dict(t.options)))
    host.configure(bot="no_such_bot")
    assert host.message_text.startswith("Error")
    assert table_value(host, lambda t: (t.game_name, dict(t.options))) == before
    host.configure(game="no_such_game")
    assert "no_such_game" in host.message_text and host.last_error is not None
    # a component sheet (possibly a file on this computer) is not a table's option
    host.configure(game="bus_city", options={"sheet": "/etc/passwd"})
    assert "'sheet' cannot be set at a class table" in host.message_text
    assert table_value(host, lambda t: (t.game_name, dict(t.options))) == before
    with pytest.raises(TableError, match="'sheet' cannot be set"):
        make_host("busstop", options={"sheet": "/etc/passwd"})


# -- students join --------------------------------------------------------------------------------------


def test_a_student_joining_over_a_websocket_appears_in_the_panel(make_host):
    from websockets.sync.client import connect

    host = make_host("ride_the_bus", options={"players": 3})
    ws_url = host.join_url.replace("http://", "ws://") + "ws"
    with connect(ws_url, proxy=None, origin=host.join_url.rstrip("/")) as ws:
        ws.send(json.dumps({"type": "join", "code": host.code, "name": "Ana"}))
        welcome = json.loads(ws.recv(timeout=LIVE_S))
        assert welcome["type"] == "welcome" and welcome["role"] == "seat"
        seat = welcome["seat"]
        # nobody asked the panel: the table's listener brought the news
        wait_for(lambda: host.joined == ["Ana"])
        assert "Ana" in host.seat_list.value and "1 student joined" in host.seat_list.value
        frame = json.loads(ws.recv(timeout=LIVE_S))
        assert frame["type"] == "frame" and frame["frame"]["table"]["you"] == seat
        host.refresh()  # pages opening and closing show at the next change, or now
        assert host.seats[seat]["claimed"] and host.seats[seat]["connected"] == 1
        assert "1 page open" in host.seat_list.value
    wait_for(lambda: host.refresh() or host.seats[seat]["connected"] == 0)


# -- the controls --------------------------------------------------------------------------------------------


def test_the_controls_change_the_tables_phase(make_host):
    host = make_host("busstop", options={"players": 3}, people=[True, False, False], seed=5)
    b = host.buttons
    assert not b["start"].disabled and b["pause"].disabled and b["end"].disabled
    assert "Lobby: 0 of 1 students' seats taken, waiting for students to join." in html.unescape(
        host.status.value
    )
    on_loop(host, lambda: (host.table.join("Ana"), host.table.changed()))
    wait_for(lambda: "Lobby: the student's seat is taken. Press Start" in html.unescape(host.status.value))
    assert host.lobby_panel.is_open
    b["start"].click()
    assert table_value(host, lambda t: t.phase) == "playing" == host.phase
    assert not host.lobby_panel.is_open and host.lobby["game"].disabled  # the lobby is over
    assert "The table says: The game has started." in host.status.value  # its notice
    # and what the game waits for: Ana's move (the bots and the draws go at once)
    wait_for(lambda: "Playing. Waiting for Ana to move." in host.status.value)
    assert b["start"].disabled and not b["pause"].disabled
    b["pause"].click()
    assert table_value(host, lambda t: t.phase) == "paused" == host.phase
    assert b["pause"].description == "Resume"
    # Ana steps out: a bot plays her seat (paused, so that the bots do not finish the game at once)
    host.seat_choice.value = 0
    b["bot"].click()
    assert table_value(host, lambda t: (t.seats[0].kind, t.seats[0].away_person)) == ("bot", True)
    assert "Ana (a greedy bot plays while away)" in host.seat_list.value
    b["person"].click()
    assert table_value(host, lambda t: (t.seats[0].kind, t.seats[0].away_person)) == ("person", False)
    b["pause"].click()
    assert table_value(host, lambda t: t.phase) == "playing" == host.phase
    assert b["pause"].description == "Pause"
    assert b["again"].disabled  # only once the game is over
    b["end"].click()
    assert table_value(host, lambda t: t.phase) == "over" == host.phase
    assert not b["record"].disabled and not b["again"].disabled
    b["again"].click()  # another game with the same people
    assert table_value(host, lambda t: t.phase) == "lobby" == host.phase
    assert table_value(host, lambda t: (t.seats[0].name, t.seats[0].kind)) == ("Ana", "person")
    assert host.lobby_panel.is_open and not host.lobby["game"].disabled and not b["start"].disabled
    assert not b["record"].disabled and b["again"].disabled  # the game just played is kept
    assert "Lobby: the student's seat is taken. Press Start" in html.unescape(host.status.value)  # still in
    assert '"names"' in (host.record() or "")
    b["close"].click()
    assert host.phase == "closed" and host.closed


def test_the_lobby_line_counts_the_students_seats_taken():
    person = {"kind": "person", "claimed": False}
    taken = {"kind": "person", "claimed": True}
    bot = {"kind": "bot", "claimed": False}
    assert lobby_words([taken, person, bot, person]).startswith("Lobby: 1 of 3 students' seats taken")
    assert lobby_words([taken, bot, taken]).startswith("Lobby: both students' seats are taken.")
    assert lobby_words([taken, taken, taken]).startswith("Lobby: all 3 students' seats are taken.")
    assert "waiting for students to join" in lobby_words([person, bot])
    assert lobby_words([bot, taken]).startswith("Lobby: the student's seat is taken.")
    assert lobby_words([bot, bot]).startswith("Lobby: every seat is a bot's.")


def test_continue_lets_the_table_go_on_after_it_holds(make_host):
    host = make_host("ride_the_bus", options={"players": 2}, people=[False, False], seed=3)
    host.start()
    held = 0
    while host.settle() and host.holding and held < 40:
        assert not host.buttons["continue"].disabled and "Continue" in host.status.value
        host.continue_()
        held += 1
    assert held > 0, "a pyramid flip that matches someone makes the table wait for Continue"
    assert host.phase == "over"
    # the panel says who won, in the game's own words
    result = table_value(host, lambda t: t.session.state.status())
    assert result.startswith("Game over: ")
    wait_for(lambda: result in html.unescape(host.status.value))


def test_errors_show_in_the_message_line_never_as_a_traceback(make_host):
    host = make_host("ride_the_bus")
    host.pause()  # nothing to pause in the lobby
    assert host.message_text.startswith("Error") and host.last_error is not None
    host.start()
    assert host.last_error is None and not host.message_text.startswith("Error")
    host.start()  # already started
    assert host.message_text.startswith("Error") and "Error" in host.message.value
    host.hand_to_bot(9)  # no such seat
    assert host.message_text.startswith("Error")
    host.option_controls["players"].value = 2  # the lobby is over
    assert table_value(host, lambda t: len(t.seats)) == 4


# -- what the projector shows ---------------------------------------------------------------------------


def _face_down(view: dict) -> list[int]:
    return [k for k, bid in enumerate(view["bids"]) if bid["state"] == "hidden"]


def test_the_projector_never_shows_a_face_down_tile(make_host):
    """Busstop: a tile chosen face down is hidden on the projector until the reveal, although
    its owner's page shows it."""
    host = make_host("busstop", options={"players": 3}, seed=11)
    for name in ("Ana", "Ben", "Cy"):
        on_loop(host, host.table.join, name)
    host.start()
    seen_hidden = 0
    for _ in range(60):
        assert host.settle()
        if host.phase != "playing":
            break

        def look(t: Any) -> tuple[dict, dict, list[int], int, int]:
            state = t.session.state
            owner_views = {k: state.view(k) for k in range(t.session.game.num_players)}
            hidden = sorted({k for v in owner_views.values() for k in _face_down(v)})
            seat = state.current_player()
            return t.projector_frame(), owner_views, hidden, seat, t.version

        frame, views, hidden, seat, version = on_loop(host, look, host.table)
        wait_for(lambda v=version: host.projector.frame.get("seq", -1) >= v)
        shown = host.projector.frame
        assert shown["view"] == frame["view"]
        assert shown["moves"] == [] and shown["table"]["you"] is None and shown["controls"] is None
        for k in hidden:  # hidden from someone: hidden on the projector too
            assert shown["view"]["bids"][k] == {"state": "hidden", "tile": None}
            assert views[k]["bids"][k]["state"] == "shown"  # its owner sees it
            seen_hidden += 1
        text = json.dumps(shown)
        secrets_ = table_value(host, lambda t: [s.token for s in t.seats if s.token]) + [
            host.server.hub.host_key
        ]
        assert not any(secret in text for secret in secrets_)
        legal = table_value(host, lambda t: t.session.state.legal_actions())
        on_loop(
            host, lambda s=seat, a=legal[0]: (host.table.move(s, a, host.table.version), host.table.changed())
        )
    assert seen_hidden > 0, "no face-down tile was ever on the table"
    # the board hides its step controls when a frame has none (its own style keeps them hidden)
    assert "bl-projector" in host.projector._dom_classes
    assert ".bl-root [hidden]" in host.projector._css


# -- the record -----------------------------------------------------------------------------------------


def test_the_record_replays_in_the_game_widget_move_by_move(make_host):
    host = make_host("bus_and_stop", options={"players": 2}, people=[False, False], seed=4)
    assert host.record() is None and host.message_text.startswith("Error")  # nothing played yet
    host.start()
    assert host.settle()
    assert host.phase == "over"
    text = host.record()
    played = table_value(host, lambda t: t.session.state.history())
    data = json.loads(text)
    assert data["game"] == "bus_and_stop" and len(data["names"]) == 2
    replay = GameWidget(Session.from_json(text))
    assert replay.session.state.history() == played
    replay.goto(0)
    for step in range(1, len(replay.session)):
        replay.forward()
        assert replay.session.position == step and replay.last_error is None
    assert replay.session.state.is_terminal()
    # the download link holds the same record
    host.buttons["record"].click()
    assert f'download="table-{host.code}.json"' in host.record_link.value
    import base64

    encoded = host.record_link.value.split("base64,", 1)[1].split('"', 1)[0]
    assert json.loads(base64.b64decode(encoded)) == data


# -- addresses on a network and behind JupyterHub ---------------------------------------------------------


def test_behind_jupyterhub_the_join_address_goes_through_the_server_proxy(make_host, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/ana/")
    host = make_host("ride_the_bus")
    assert host.join_url == f"/user/ana/proxy/{host.port}/"
    assert host.qr_url == f"/user/ana/proxy/{host.port}/?code={host.code}"
    assert host.watch_url == f"/user/ana/proxy/{host.port}/watch/{host.code}"
    assert "public_url" in host.address.value  # says how to give a full address
    assert "<svg" not in host.qr.value  # a phone cannot open a path alone
    full = make_host("ride_the_bus", public_url="https://hub.example/user/ana/proxy/8765")
    assert full.join_url == "https://hub.example/user/ana/proxy/8765/"
    assert full.qr_url == f"https://hub.example/user/ana/proxy/8765/?code={full.code}"
    assert "public_url" not in full.address.value
    assert segno.make(full.qr_url, error="m").svg_inline(**QR_SVG) in full.qr.value


def test_open_to_the_network_it_shows_the_address_to_share_and_one_warning(make_host, monkeypatch):
    import bus_lab.table.host_widget as hw

    monkeypatch.setattr(hw, "lan_addresses", lambda: ["192.168.1.20"])
    host = make_host("ride_the_bus", host="0.0.0.0")
    assert host.network
    assert host.join_url == f"http://192.168.1.20:{host.port}/"
    assert host.network_note.value.count(NETWORK_WARNING) == 1
    assert f"http://192.168.1.20:{host.port}/" in host.network_note.value
    assert server_answers(f"http://127.0.0.1:{host.port}/")


def test_the_panel_sees_pages_open_and_close_without_the_table_changing(make_host):
    """Who is connected reaches the panel by itself (no refresh, no change of the table): its
    version stays, so a move sent before another page opened is still current."""
    from websockets.sync.client import connect

    host = make_host("ride_the_bus", options={"players": 3}, people=[True, False, False])
    ws_url = host.join_url.replace("http://", "ws://") + "ws"
    origin = host.join_url.rstrip("/")

    def next_frame(ws: Any) -> dict[str, Any]:
        while True:
            message = json.loads(ws.recv(timeout=LIVE_S))
            if message["type"] == "frame":
                return message["frame"]
            assert message["type"] in ("welcome", "pong"), message

    with connect(ws_url, proxy=None, origin=origin) as ana:
        ana.send(json.dumps({"type": "join", "code": host.code, "name": "Ana"}))
        welcome = json.loads(ana.recv(timeout=LIVE_S))
        seat, token = welcome["seat"], welcome["token"]
        wait_for(lambda: host.seats[seat]["connected"] == 1)
        on_loop(host, lambda: (host.table.start(), host.table.run_automatic(), host.table.changed()))
        frame = next_frame(ana)
        while not frame["moves"]:
            frame = next_frame(ana)
        version = table_value(host, lambda t: t.version)
        assert frame["seq"] == version
        with connect(ws_url, proxy=None, origin=origin) as phone:  # Ana's second page
            phone.send(json.dumps({"type": "resume", "code": host.code, "token": token}))
            assert json.loads(phone.recv(timeout=LIVE_S))["type"] == "welcome"
            wait_for(lambda: host.seats[seat]["connected"] == 2)
            assert "2 pages open" in host.seat_list.value
            assert table_value(host, lambda t: t.version) == version
        wait_for(lambda: host.seats[seat]["connected"] == 1)
        assert table_value(host, lambda t: t.version) == version
        # the move made with the frame from before the second page is not stale
        ana.send(json.dumps({"type": "move", "action": frame["moves"][0]["action"], "seq": frame["seq"]}))
        after = next_frame(ana)  # an error (a stale move) would stop next_frame
        assert after["seq"] > version
        assert after["message"] is None or after["message"]["kind"] != "error"
    wait_for(lambda: host.seats[seat]["connected"] == 0)


def test_the_panel_numbers_seats_from_0_like_the_engine_and_the_pages(make_host):
    host = make_host("bus_and_stop", options={"players": 3})
    on_loop(host, lambda: (host.table.join("Ana"), host.table.changed()))
    wait_for(lambda: host.joined == ["Ana"])
    shown = [c.description for c in host.seat_controls if c.layout.display != "none"]
    assert shown[:3] == ["Seat 0", "Seat 1", "Seat 2"]
    assert "<td>Seat 0</td><td>Ana</td>" in host.seat_list.value
    assert "<td>Seat 2</td>" in host.seat_list.value and "Seat 3" not in host.seat_list.value
    assert [label for label, _ in host.seat_choice.options] == ["Seat 0", "Seat 1", "Seat 2"]
