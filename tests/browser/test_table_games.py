"""The class table in real browsers: a whole game of each of the four games, played to its end by
students clicking their own boards, with the teacher's host page and the projector open.

A real :class:`~bus_lab.table.runner.TableServer` runs in this process (pace 0: draws and bots
happen at once). Each student is a browser context of its own (a 360 px phone, a laptop, a tablet):
they join from the join page (the code comes filled in from the QR link), wait in the lobby, the
host starts the game, and every move is made by tapping the board's highlighted targets and the
choices beside them. Ride the Bus pauses after a flip that matches someone: the host taps Continue.

Checked on the way: every frame a page receives is that seat's (``you``), only the seat to move
has moves; the phone never scrolls sideways; a reload in the middle of a game gets the seat back;
Busstop's face-down tiles never reach another seat before the reveal (neither in any websocket
message that page received nor in its page); the projector only ever gets the public view; no page
ever receives a seat's token or the host key; at the end every page shows the scores with their
breakdown, equal to the game's.
"""

from __future__ import annotations

import json
import random
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect
from table_client import PageClient, wait_a_moment

from bus_lab.table.frames import name_seats, seat_names
from bus_lab.table.runner import TableServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

#: The devices students use (each its own browser context: own localStorage).
DEVICES = {
    "phone": dict(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, reduced_motion="reduce"
    ),
    "laptop": dict(viewport={"width": 1366, "height": 768}),
    "tablet": dict(viewport={"width": 1024, "height": 768}, reduced_motion="reduce"),
}
NAMES = {"phone": "Ana", "laptop": "Ben", "tablet": "Chloé"}
#: Short games: few players, short options; a fixed seed so a failure can be replayed.
GAMES = [
    ("ride_the_bus", {"players": 3, "bus": "questions", "streak": 3}, ["phone", "laptop", "tablet"]),
    ("bus_and_stop", {"players": 2}, ["phone", "laptop"]),
    ("busstop", {"players": 3}, ["phone", "laptop", "tablet"]),
    ("bus_city", {"players": 2, "max_rounds": 3}, ["laptop", "phone"]),
]
MAX_GAME_S = 120


@pytest.fixture(scope="module")
def server():
    srv = TableServer(port=0, pace_s=0).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def contexts(browser):
    made = {name: browser.new_context(**options) for name, options in DEVICES.items()}
    made["projector"] = browser.new_context(viewport={"width": 1280, "height": 720}, reduced_motion="reduce")
    made["host"] = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    for context in made.values():
        context.set_default_timeout(15_000)
    try:
        yield made
    finally:
        for context in made.values():
            context.close()


def table_truth(server, code: str, fn):
    """``fn(table)`` run on the server's loop (the table lives there)."""
    return server.call(lambda: fn(server.hub.tables[code]))


def secrets_of(server, code: str) -> list[str]:
    return table_truth(server, code, lambda t: [s.token for s in t.seats if s.token]) + [server.hub.host_key]


def busstop_hidden_bids(server, code: str) -> dict[int, int]:
    """Busstop: the tiles chosen face down and not revealed yet, by seat (the server's truth)."""

    def hidden(table) -> dict[int, int]:
        state = table.session.state
        if state.is_terminal() or state.zone_holders:
            return {}
        return {
            k: tile
            for k, tile in enumerate(state.bids)
            if tile is not None and k != state.conductor and k < state.num_players
        }

    return table_truth(server, code, hidden)


BSB_DOM_JS = """(k) => {
  const board = document.querySelector(`#tl-app [data-board="${k}"]`);
  if (!board) return null;
  const down = board.querySelectorAll(`[data-anim="bid:${k}"]`);
  const hand = [...board.querySelectorAll('.bsb-hand [data-anim]')].map(e => e.dataset.anim);
  return {down: down.length, face: down.length ? down[0].dataset.face : null,
          text: down.length ? down[0].textContent : null, hand};
}"""


def check_busstop_page(student: PageClient, you: int, hidden: dict[int, int]) -> int:
    """On ``student``'s page every other seat's face-down tile shows face down ("?"), and that
    seat's hand still lists it (a gap would give it away). Returns how many were checked."""
    checked = 0
    for k, tile in hidden.items():
        if k == you:
            continue
        dom = student.page.evaluate(BSB_DOM_JS, k)
        assert dom is not None, (student.name, k)
        assert dom["down"] == 1 and dom["face"] == "down" and dom["text"] == "?", (student.name, k, dom)
        assert f"pt:{k}/{tile}" in dom["hand"], (student.name, k, tile, dom)
        checked += 1
    return checked


def check_busstop_frames(pages: list[PageClient], seats: dict[str, int]) -> int:
    """In every frame a seat's page received while tiles were being chosen, no other seat's tile
    is face up (the conductor's is played face up) and no hidden tile's number is there."""
    checked = 0
    for client in pages:
        you = seats.get(client.name)
        for frame in client.frames:
            view = frame["view"]
            if frame["table"]["phase"] != "playing" or view["node"] != "bid":
                continue
            for k, bid in enumerate(view["bids"]):
                if k == you or k == view["conductor"]:
                    continue
                assert bid["state"] in ("none", "hidden"), (client.name, frame["seq"], k, bid)
                assert bid["tile"] is None, (client.name, frame["seq"], k, bid)
                checked += bid["state"] == "hidden"
    return checked


def play_to_the_end(server, code, students, host, *, game, reload_at=None, phone=None):
    """Every seat plays its moves by clicking until the game is over; the host taps Continue
    when the table waits for it. Returns (moves made, Busstop DOM checks, the host's Continues)."""
    rng = random.Random(7)
    seats = {s.name: s.latest()["table"]["you"] for s in students}
    moves = dom_checks = continues = 0
    out_of_turn: set[str] = set()  # students who tapped the board while another seat was to move
    started = time.monotonic()
    while time.monotonic() - started < MAX_GAME_S:
        mover = None
        for student in students:
            frame = student.ready_to_move()
            if frame is not None:
                mover = (student, frame)
                break
        if mover is not None:
            student, frame = mover
            assert frame["table"]["you"] == seats[student.name]
            assert student.page.title().startswith("● Your move"), student.page.title()
            for other in students:  # only the seat to move has moves
                latest = other.latest()
                if other is not student and latest["seq"] == frame["seq"]:
                    assert latest["moves"] == [], (other.name, latest["seq"])
                    if other.name not in out_of_turn and other.dom_seq() == frame["seq"]:
                        if tap_out_of_turn(other):
                            out_of_turn.add(other.name)
            if game == "busstop" and frame["view"]["node"] == "bid":
                hidden = busstop_hidden_bids(server, code)
                for other in students:
                    dom_checks += check_busstop_page(other, seats[other.name], hidden)
            turn = student.page.locator(".tl-turn")
            if student is phone:  # the line at the top of a phone's screen (kept there when scrolled)
                box = turn.bounding_box()
                assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 740, box
                assert turn.inner_text().startswith("Your move"), turn.inner_text()
                assert "tl-mine" in (turn.get_attribute("class") or "")
            elif student.page.viewport_size["width"] >= 720:  # a wide screen has the board's own line
                assert turn.is_hidden()
            if phone is not None and moves % 15 == 0:
                assert phone.scroll_width() <= 360, f"the phone scrolls sideways ({game}, move {moves})"
            student.play(rng, frame)
            moves += 1
            if reload_at is not None and moves == reload_at:
                reload_seat(student, seats[student.name])
            continue
        if all(s.phase() == "over" for s in students):
            assert phone is None or phone.name in out_of_turn, f"{game}: the phone never tapped out of turn"
            assert len(out_of_turn) >= len(students) - 1, f"{game}: only {out_of_turn} tapped out of turn"
            return moves, dom_checks, continues
        cont = host.page.locator('[data-command="continue"]')
        if cont.count():
            try:
                cont.first.click(timeout=2_000)
            except PlaywrightTimeoutError:  # redrawn as the click came: the table had gone on
                continue
            continues += 1
            wait_a_moment(host.page, 30)
            continue
        wait_a_moment(students[0].page)
    pytest.fail(f"{game}: the game did not end within {MAX_GAME_S} s ({moves} moves made)")


def tap_out_of_turn(student: PageClient) -> bool:
    """Tap a place on the board of a student who has nothing to play: the page says what the
    game waits for, to that student, and sends nothing. False when the board has no place."""
    target = student.page.locator("#tl-app .bl-board [data-target]")
    if not target.count():
        return False
    sent = len(student.sent)
    target.first.click(force=True)  # marked aria-disabled, which Playwright will not click, but a finger does
    explain = student.page.locator("#tl-app .bl-explain")
    expect(explain).to_contain_text("Nothing to play here now.")
    assert "bl-refused" in (explain.get_attribute("class") or "")
    if student.page.viewport_size["width"] < 720:  # far below on a phone: the top line says it too
        turn = student.page.locator(".tl-turn")
        expect(turn).to_contain_text("Nothing to play here now.")
        assert "tl-said" in (turn.get_attribute("class") or "")
        box = turn.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 740, box
    wait_a_moment(student.page, 100)
    assert len(student.sent) == sent, student.sent[sent:]
    return True


def reload_seat(student: PageClient, seat: int) -> None:
    """Reload the seat's page in the middle of the game: it resumes the same seat (the token kept
    in this browser) and draws the table as it is now."""
    before = len(student.frames)
    student.page.reload()
    student.page.wait_for_function("() => document.body.dataset.page === 'seat'")
    student.page.wait_for_function(
        "() => { const r = document.querySelector('#tl-app .bl-root'); return r && Number(r.dataset.seq) >= 0; }"
    )
    assert len(student.frames) > before
    assert student.latest()["table"]["you"] == seat
    assert student.page.locator("#tl-joinbox").is_hidden()
    assert student.page.locator(".tl-pagemsg").is_hidden()


@pytest.mark.parametrize("game,options,devices", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_at_the_table(server, contexts, game, options, devices):
    code = server.call(lambda: server.hub.create_table(game=game, options=options, seed=11).code)
    projector = PageClient(contexts["projector"], "projector")
    host = PageClient(contexts["host"], "host")
    students = [PageClient(contexts[d], NAMES[d]) for d in devices]
    phone = next((s for s, d in zip(students, devices) if d == "phone"), None)
    everyone = [projector, host, *students]
    try:
        projector.page.goto(server.watch_url(code))
        projector.page.wait_for_selector(".tl-lobby")
        assert code in projector.page.inner_text(".tl-watch-head")
        host.page.goto(server.host_url(code))
        host.page.wait_for_selector('[data-command="start"]')
        assert "#key=" not in host.page.url  # the key leaves the address bar
        for student in students:
            student.join(server, code)
        # the lobby: everyone sees who has joined
        names = [s.name for s in students]
        projector.page.wait_for_function(
            "names => names.every(n => document.querySelector('.tl-lobby').textContent.includes(n))",
            arg=names,
        )
        if phone is not None:
            assert phone.scroll_width() <= 360
        host.page.click('[data-command="start"]')
        for student in students:
            student.page.wait_for_selector("#tl-app .bl-root", state="visible")
        moves, dom_checks, continues = play_to_the_end(
            server,
            code,
            students,
            host,
            game=game,
            reload_at=8 if game == "bus_and_stop" else None,
            phone=phone,
        )
        assert moves > 0
        if game == "ride_the_bus":
            assert continues > 0  # the pyramid waited for the host at least once
        # the end: every page says so and shows the scores, with where the points came from
        returns = table_truth(server, code, lambda t: t.session.state.returns())
        for student in students:
            page = student.page
            page.wait_for_selector(".tl-notice:has-text('The game is over')")
            result = student.latest()["status"]["now"]  # who won, in the board's words
            assert result.startswith("Game over: ") and result[11:] in page.inner_text(".tl-notice")
            assert page.locator("#tl-app .bl-scores").get_attribute("open") is not None
            points = page.eval_on_selector_all(
                "#tl-app .bl-scores tbody tr", "rows => rows.map(r => Number(r.dataset.points))"
            )
            assert points == returns, (student.name, points, returns)
            assert student.latest()["scores"]["rows"], student.name
        projector.page.wait_for_function("() => document.body.dataset.phase === 'over'")
        # the host's line says who won
        host.page.wait_for_function(
            "(t) => document.getElementById('tl-phase').textContent.includes(t)",
            arg=students[0].latest()["status"]["now"],
        )
        # the projector got the public view only: no moves, nobody's seat
        assert projector.frames and all(
            f["moves"] == [] and f["table"]["you"] is None for f in projector.frames
        )
        public = table_truth(server, code, lambda t: json.loads(json.dumps(t.state().public_view())))
        # the board's status line names the people, as every text of the table does
        names = table_truth(server, code, seat_names)
        public["status"] = name_seats(public["status"], names)
        projector.page.wait_for_function(
            "seq => Number(document.querySelector('#tl-app .bl-root').dataset.seq) >= seq",
            arg=max(f["seq"] for f in students[0].frames),
        )
        assert projector.latest()["view"] == public
        if game == "busstop":
            seats = {s.name: s.latest()["table"]["you"] for s in students}
            assert dom_checks > 0
            assert check_busstop_frames(students, seats) > 0
            assert check_busstop_frames([projector], {}) > 0
        # nothing any page received holds a seat's token or the host key
        hidden = secrets_of(server, code)
        for client in everyone:
            text = json.dumps(client.received)
            for secret in hidden:
                if client in students and secret == client.token(code):
                    continue  # a seat's own token came in its welcome
                assert secret not in text, client.name
        if game == "bus_city":  # the host plays again with the same people: nobody joins again
            host.page.click('[data-command="again"]')
            for student in students:
                student.page.wait_for_selector(".tl-lobby")
                assert student.name in student.page.inner_text(".tl-lobby .tl-you")
            projector.page.wait_for_selector(".tl-lobby")
            # the host sees that nobody has to join again
            seats = {1: "the student's seat is", 2: "both students' seats are"}.get(
                len(students), f"all {len(students)} students' seats are"
            ) + " taken"
            host.page.wait_for_function(
                "(t) => document.getElementById('tl-phase').textContent.includes(t)", arg=seats
            )
            host.page.click('[data-command="start"]')
            for student in students:
                student.page.wait_for_function(
                    "() => document.body.dataset.phase === 'playing' && document.querySelector('#tl-app .bl-root')"
                )
            before = {s.name: s.latest()["table"]["you"] for s in students}
            assert before == {s.name: s.frames[0]["table"]["you"] for s in students}  # the same seats
        for client in everyone:
            assert not client.errors, (client.name, client.errors)
    finally:
        for client in everyone:
            client.page.close()
