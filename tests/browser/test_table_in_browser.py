"""The class table's pages in real browsers, around the games: joining, refusals, the phone, the
connection coming back, accessibility, and the host's lobby form and controls.

A real :class:`~bus_lab.table.runner.TableServer` runs in this process (pace 0). Each device is a
browser context of its own, so its localStorage (where a seat's token is kept) is its own.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from board_checks import assert_no_serious_axe
from table_client import PageClient

from bus_lab.table.runner import TableServer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PHONE = dict(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, reduced_motion="reduce")
LAPTOP = dict(viewport={"width": 1366, "height": 768}, reduced_motion="reduce")


@pytest.fixture(scope="module")
def server():
    srv = TableServer(port=0, pace_s=0).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def device(browser):
    """A factory of fresh devices (browser contexts), all closed after the test."""
    made = []

    def make(name: str, options: dict = LAPTOP) -> PageClient:
        context = browser.new_context(**options)
        context.set_default_timeout(15_000)
        made.append(context)
        return PageClient(context, name)

    try:
        yield make
    finally:
        for context in made:
            context.close()


def new_table(server, **kwargs) -> str:
    return server.call(lambda: server.hub.create_table(**kwargs).code)


def on_table(server, code, fn):
    """``fn(table)`` on the server's loop; the table's listeners hear of any change."""

    def run():
        table = server.hub.tables[code]
        result = fn(table)
        table.changed()
        return result

    return server.call(run)


def test_join_on_a_phone_with_axe_and_no_sideways_scroll(server, device):
    """The join page, the lobby and a seat mid-game on a 360 px phone: no sideways scrolling, no
    serious axe finding; a mistyped code is said next to the form; an unknown code's page links
    back to the join page."""
    code = new_table(server, game="bus_and_stop", options={"players": 2}, seed=3)
    ana = device("Ana", PHONE)
    page = ana.page
    page.goto(server.url + "/")
    assert page.input_value("#tl-code") == ""
    assert ana.scroll_width() <= 360
    assert_no_serious_axe(page, "on the join page", selector="#tl-main")
    # a code that cannot be one is refused before anything is sent
    page.fill("#tl-code", "I0O1")
    page.fill("#tl-name", "Ana")
    page.click("#tl-join")
    assert "not a table code" in page.inner_text("#tl-form-error")
    assert page.get_attribute("#tl-code", "aria-invalid") == "true"
    # a well-formed code with no table: the server's words, next to the form
    page.fill("#tl-code", "ZZZZZ" if code != "ZZZZZ" else "YYYYY")
    page.click("#tl-join")
    page.wait_for_function("() => document.querySelector('#tl-form-error').textContent.length > 0")
    assert page.locator("#tl-join").is_enabled()
    assert page.evaluate("() => document.body.dataset.page") == "join"
    # the page of an unknown table says so and links back to the join page
    response = page.goto(server.url + "/t/ZZ9ZZ")
    assert response.status == 404
    assert "No table with this code" in page.inner_text("h1")
    page.click("text=Back to the join page")
    page.wait_for_selector("#tl-join-form")
    # the real code: the lobby
    ana.join(server, code)
    assert page.url == server.seat_url(code)
    assert ana.scroll_width() <= 360
    assert_no_serious_axe(page, "in the lobby", selector="#tl-main")
    ben = device("Ben", LAPTOP)
    ben.join(server, code)
    page.wait_for_function("() => document.querySelectorAll('.tl-lobby-seats li').length === 2")
    assert "Ben" in page.inner_text(".tl-lobby-seats")
    on_table(server, code, lambda t: t.start())
    page.wait_for_selector("#tl-app .bl-root", state="visible")
    page.wait_for_function("() => document.body.dataset.phase === 'playing'")
    assert ana.scroll_width() <= 360
    assert page.locator("#tl-app .bl-controls").first.is_hidden()  # no step controls at a table
    assert_no_serious_axe(page, "on a seat's page mid-game", selector="#tl-main")
    assert_no_serious_axe(ben.page, "on a laptop seat's page mid-game", selector="#tl-main")
    assert not ana.errors and not ben.errors


def test_forged_and_foreign_tokens_are_refused(server, device):
    """A token another table gave, or a made-up one, kept in this browser for a table: the table
    refuses it, the page says so clearly, forgets it and offers to join (it is still the lobby)."""
    first = new_table(server, game="busstop", options={"players": 2})
    second = new_table(server, game="busstop", options={"players": 2})
    ana = device("Ana")
    ana.join(server, first)
    token = ana.token(first)
    assert token
    for name, fake in (("foreign", token), ("forged", "x" * 32)):
        eve = device(f"Eve ({name})")
        eve.page.goto(server.url + "/")
        eve.page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"bus_lab.table.{second}", fake])
        eve.page.goto(server.seat_url(second))
        message = eve.page.locator(".tl-pagemsg")
        message.wait_for(state="visible")
        text = message.inner_text()
        assert f"Table {second} did not accept this browser's seat." in text, text
        assert "join again" in text
        refused = [m for m in eve.received if m["type"] == "refused"]
        assert len(refused) == 1 and refused[0]["text"] in text
        assert not eve.frames  # nothing of the table reached it
        assert eve.token(second) is None  # forgotten
        assert eve.page.locator("#tl-joinbox").is_visible()
        assert eve.page.get_attribute("#tl-conn", "data-state") == "refused"
    # nobody took a seat at the second table, and Ana still has hers at the first
    assert on_table(server, second, lambda t: [s.claimed for s in t.seats]) == [False, False]
    assert on_table(server, first, lambda t: t.resume(token)) == ana.latest()["table"]["you"]


def test_a_dropped_connection_comes_back_to_the_same_seat(server, device):
    """The network goes away (a locked phone, a lost Wi-Fi): the page says it is not connected
    and tries again by itself; once back, it resumes the same seat with its token."""
    code = new_table(server, game="ride_the_bus", options={"players": 2})
    ana = device("Ana", PHONE)
    ana.join(server, code)
    seat = ana.latest()["table"]["you"]
    welcomes = sum(1 for m in ana.received if m["type"] == "welcome")
    ana.context.set_offline(True)
    ana.page.wait_for_function("() => document.getElementById('tl-conn').dataset.state === 'waiting'")
    assert "Not connected" in ana.page.inner_text("#tl-conn")
    assert ana.page.locator("#tl-retry").is_visible()
    ana.context.set_offline(False)
    ana.page.wait_for_function(
        "() => document.getElementById('tl-conn').dataset.state === 'open'", timeout=20_000
    )
    again = [m for m in ana.received if m["type"] == "welcome"][welcomes:]
    assert again and again[-1]["seat"] == seat and "token" not in again[-1]  # a resume, not a new seat
    assert on_table(server, code, lambda t: [s.claimed for s in t.seats]) == [True, False]
    assert ana.page.locator("#tl-retry").is_hidden()
    # the QR code scanned again: the join page offers the seat this browser has
    ana.page.goto(server.join_url(code))
    ana.page.click("#tl-have-seat a")
    ana.page.wait_for_selector(".tl-lobby-seats li.tl-you")
    assert ana.page.url == server.seat_url(code)
    assert on_table(server, code, lambda t: [s.claimed for s in t.seats]) == [True, False]


def test_the_host_sets_up_runs_and_closes_a_table(server, device):
    """The host's page: the lobby form (another game, an option, a seat for a bot, a seed),
    Start, Pause and Resume, hand a seat to a bot and back, End (asked twice), the record as a
    download, Close (asked twice): the students' pages follow and end on a clear message."""
    code = new_table(server)  # Ride the Bus, 4 seats, by default
    host = device("host")
    host.page.goto(server.host_url(code))
    page = host.page
    page.wait_for_selector("#tl-game")
    assert page.evaluate("() => location.hash") == ""  # the key left the address bar
    ana = device("Ana", PHONE)
    ana.join(server, code)
    # another game that allows 4 players keeps the 4 seats
    page.select_option("#tl-game", "busstop")
    page.wait_for_selector("#tl-opt-passenger_bonus")
    page.wait_for_function("() => document.querySelector('#tl-opt-players').value === '4'")
    lobby = host.latest()["lobby"]
    assert lobby["game"] == "busstop" and len(lobby["people"]) == 4
    # another game: the form is rebuilt from that game's options (BUS has 2 to 3 players: 3)
    page.select_option("#tl-game", "bus_city")
    page.wait_for_selector("#tl-opt-max_rounds")
    lobby = host.latest()["lobby"]
    assert lobby["game"] == "bus_city" and len(lobby["people"]) == 3
    page.fill("#tl-opt-players", "2")
    page.locator("#tl-opt-players").dispatch_event("change")
    page.wait_for_function("() => document.querySelectorAll('input[name=person]').length === 2")
    assert len(host.latest()["lobby"]["people"]) == 2
    # the host frame knew BUS's number of players: the new game was set at the first try
    assert not [m for m in host.received if m["type"] == "error"]
    page.fill("#tl-opt-max_rounds", "2")
    page.locator("#tl-opt-max_rounds").dispatch_event("change")
    page.wait_for_function("() => document.body.dataset.phase === 'lobby'")
    page.locator('input[name="person"][data-seat="1"]').uncheck()
    page.fill("#tl-seed", "5")
    page.locator("#tl-seed").dispatch_event("change")
    for _ in range(100):  # let the last configure arrive (up to 10 s on a busy machine)
        page.wait_for_timeout(100)
        lobby = host.latest()["lobby"]
        if lobby["fixed_seed"] and lobby["people"] == [True, False]:
            break
    assert lobby["options"]["max_rounds"] == 2, [m for m in host.received if m["type"] != "frame"]
    assert lobby["people"] == [True, False], lobby
    assert lobby["fixed_seed"] is True
    ana.page.wait_for_function("() => document.querySelector('.tl-lobby').textContent.includes('BUS')")
    # a reload keeps the host's page (the key stays with this tab, not in the address)
    page.reload()
    page.wait_for_selector("#tl-opt-max_rounds")
    assert page.input_value("#tl-opt-max_rounds") == "2"
    # a bad value: the table's words on the host page, nothing changes
    page.fill("#tl-opt-max_rounds", "500")
    page.locator("#tl-opt-max_rounds").dispatch_event("change")
    page.wait_for_function("() => document.getElementById('tl-host-message').textContent.length > 0")
    assert host.latest()["lobby"]["options"]["max_rounds"] == 2
    # start; pause and resume
    page.click('[data-command="start"]')
    ana.page.wait_for_function("() => document.body.dataset.phase === 'playing'")
    # the host's line says what the game waits for (whose move, a draw)
    page.wait_for_function("() => /Playing\\. \\S/.test(document.getElementById('tl-phase').textContent)")
    page.click('[data-command="pause"]')
    ana.page.wait_for_selector(".tl-notice:has-text('paused')")
    # while paused (so the bots wait too): Ana's seat to a bot and back
    page.click(f'.tl-seat-list [data-command="bot"][data-seat="{ana.latest()["table"]["you"]}"]')
    page.wait_for_selector('.tl-seat-list [data-command="person"]')
    assert "away" in page.inner_text(".tl-seat-list")
    page.click('.tl-seat-list [data-command="person"]')
    page.wait_for_selector('.tl-seat-list [data-command="bot"]')
    page.click('[data-command="resume"]')
    ana.page.wait_for_function("() => document.body.dataset.phase === 'playing'")
    # the record, as a file
    with page.expect_download() as got:
        page.click('[data-command="record"]')
    record = json.loads(open(got.value.path(), encoding="utf-8").read())
    assert record["names"][0] == "Ana"
    # End asks once more
    page.click('[data-command="end"]')
    assert on_table(server, code, lambda t: t.phase) == "playing"
    page.click('[data-command="end"][data-confirm="yes"]')
    ana.page.wait_for_function("() => document.body.dataset.phase === 'over'")
    # Close asks once more; the students' page says the table has closed
    page.click('[data-command="close"]')
    page.click('[data-command="close"][data-confirm="yes"]')
    ana.page.wait_for_selector(".tl-pagemsg:has-text('closed')")
    assert ana.token(code) is None
    assert not host.errors and not ana.errors


def wait_for_moves(client: PageClient) -> dict:
    client.page.wait_for_function(
        "() => document.querySelectorAll('#tl-app .bl-legal, #tl-app .bl-choice').length > 0"
    )
    frame = client.ready_to_move()
    assert frame is not None
    return frame


def first_tap(client: PageClient, move: dict) -> None:
    """Tap ``move``'s targets and choice (no wait for a new frame: the answer may not come)."""
    page = client.page
    for key in move["path"]:
        target = page.locator(f'#tl-app [data-target="{key}"]').first
        if "bl-selected" not in (target.get_attribute("class") or "").split():
            target.click()
    if move["choice"] is not None:
        page.locator(f'#tl-app .bl-choice[data-action="{move["action"]}"]').first.click()


def test_a_refused_move_is_said_to_that_seat_only(server, device):
    """The host paused a moment before Ana's tap reached the table (her page did not know yet):
    the table refuses the move and says why on Ana's board only; Ben's page shows nothing."""
    code = new_table(server, game="bus_and_stop", options={"players": 2}, seed=4)
    ana, ben = device("Ana"), device("Ben")
    ana.join(server, code)
    ben.join(server, code)
    on_table(server, code, lambda t: t.start())
    mover = next(
        c for c in (ana, ben) if c.page.wait_for_selector("#tl-app .bl-root") and c.latest()["moves"]
    )
    other = ben if mover is ana else ana
    frame = wait_for_moves(mover)
    server.call(lambda: server.hub.tables[code].pause())  # no changed(): the pages do not know yet
    first_tap(mover, frame["moves"][0])
    mover.page.wait_for_selector("#tl-app .bl-message.bl-error")
    errors = [m for m in mover.received if m["type"] == "error"]
    assert errors and errors[-1]["text"] in mover.page.inner_text("#tl-app .bl-message")
    assert not [m for m in other.received if m["type"] == "error"]
    assert errors[-1]["text"] not in other.page.inner_text("body")
    assert mover.page.locator("#tl-app .bl-banner").is_hidden()


def test_no_answer_for_a_while_is_not_a_kernel_restart(server, device):
    """The table does not answer a move for more than 5 s (a busy or stalled server): the board
    says so in the table's words and reconnects; it never speaks of a Python kernel, and once the
    table answers the seat plays on."""
    code = new_table(server, game="bus_and_stop", options={"players": 2}, seed=5)
    ana, ben = device("Ana"), device("Ben")
    ana.join(server, code)
    ben.join(server, code)
    on_table(server, code, lambda t: t.start())
    for c in (ana, ben):
        c.page.wait_for_selector("#tl-app .bl-root")
    mover = ana if ana.latest()["moves"] else ben
    frame = wait_for_moves(mover)
    stalled = threading.Event()

    def stall_the_loop() -> None:
        stalled.set()
        time.sleep(8)  # the server's loop answers nobody meanwhile

    stall = threading.Thread(target=lambda: server.call(stall_the_loop, timeout=30))
    stall.start()
    try:
        assert stalled.wait(10)
        first_tap(mover, frame["moves"][0])
        mover.page.wait_for_function(
            "() => document.querySelector('#tl-app .bl-message').textContent.includes('No answer from the table')",
            timeout=12_000,
        )
        assert mover.page.locator("#tl-app .bl-banner").is_hidden()
        assert "kernel" not in mover.page.inner_text("body").lower()
    finally:
        stall.join()
    mover.page.wait_for_function("() => document.getElementById('tl-conn').dataset.state === 'open'")
    seq = server.call(lambda: server.hub.tables[code].version)
    mover.page.wait_for_function(
        f"() => Number(document.querySelector('#tl-app .bl-root').dataset.seq) === {seq}"
    )
    assert "kernel" not in mover.page.inner_text("body").lower()
    assert not mover.errors


def test_a_student_the_host_removed_can_join_again(server, device):
    """In the lobby the host removes a student (a wrong name): the student's page says so in the
    table's words and shows the name form again; joining again gives a seat and the lobby."""
    code = new_table(server, game="busstop", options={"players": 2})
    host, ana = device("host"), device("Ana", PHONE)
    ana.join(server, code)
    host.page.goto(server.host_url(code))
    host.page.click('.tl-seat-list [data-command="kick"]')
    ana.page.wait_for_selector(".tl-pagemsg:has-text('did not accept')")
    refused = [m for m in ana.received if m["type"] == "refused"]
    assert refused and refused[-1]["text"] in ana.page.inner_text(".tl-pagemsg")
    assert ana.token(code) is None
    assert ana.page.locator("#tl-name").is_visible()
    ana.page.fill("#tl-name", "Anna")
    ana.page.click("#tl-join")
    ana.page.wait_for_selector(".tl-lobby-seats li.tl-you:has-text('Anna')")
    assert ana.page.locator("#tl-name").is_hidden() and ana.page.locator(".tl-pagemsg").is_hidden()
    assert ana.token(code)
    host.page.wait_for_selector(".tl-seat-list li:has-text('Anna')")
    assert not ana.errors and not host.errors


def test_a_phone_that_wakes_up_checks_its_connection(server, device):
    """A phone comes back from its lock screen (visibilitychange): the page pings the table; a
    socket that does not answer in a few seconds is given up and a new one resumes the seat."""
    code = new_table(server, game="ride_the_bus", options={"players": 2})
    ana = device("Ana", PHONE)
    ana.join(server, code)
    seat = ana.latest()["table"]["you"]
    welcomes = sum(1 for m in ana.received if m["type"] == "welcome")
    stalled = threading.Event()

    def stall_the_loop() -> None:
        stalled.set()
        time.sleep(8)

    stall = threading.Thread(target=lambda: server.call(stall_the_loop, timeout=30))
    stall.start()
    try:
        assert stalled.wait(10)
        ana.page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        ana.page.wait_for_function(
            "() => document.getElementById('tl-conn').dataset.state !== 'open'", timeout=10_000
        )
    finally:
        stall.join()
    ana.page.wait_for_function(
        "() => document.getElementById('tl-conn').dataset.state === 'open'", timeout=20_000
    )
    again = [m for m in ana.received if m["type"] == "welcome"][welcomes:]
    assert again and again[-1]["seat"] == seat
    assert not ana.errors


def test_every_page_numbers_the_seats_from_0_like_the_engine(server, device):
    """The host's lobby form, its seat list, the lobby on a student's page and the projector all
    say Seat 0 for the first seat (the engine's number), with the name of who sits there."""
    code = new_table(server, game="bus_and_stop", options={"players": 3})
    host = device("host")
    host.page.goto(server.host_url(code))
    host.page.wait_for_selector('input[name="person"][data-seat="2"]')
    ana = device("Ana", PHONE)
    ana.join(server, code)
    host.page.wait_for_selector(".tl-seat-list:has-text('Ana')")
    labels = host.page.locator(".tl-people label").all_inner_texts()
    assert [t.strip() for t in labels] == ["Seat 0 · Ana: a person", "Seat 1: a person", "Seat 2: a person"]
    listed = host.page.locator(".tl-seat-list .tl-seat-name").all_inner_texts()
    assert listed == ["Seat 0 · Ana", "Seat 1", "Seat 2"]
    lobby = ana.page.locator(".tl-lobby-seats .tl-seat-name").all_inner_texts()
    assert lobby == ["Seat 0 · Ana", "Seat 1", "Seat 2"]
    watch = device("projector")
    watch.page.goto(server.watch_url(code))
    watch.page.wait_for_selector(".tl-lobby-seats")
    assert watch.page.locator(".tl-lobby-seats .tl-seat-name").all_inner_texts() == lobby
    # a name is plain text everywhere: characters of markup show as typed
    odd = device('Bo & "Al" &amp;')
    odd.join(server, code)
    host.page.wait_for_selector(".tl-seat-list :text('Seat 1 · Bo')")
    assert host.page.locator(".tl-seat-list .tl-seat-name").all_inner_texts()[1] == 'Seat 1 · Bo & "Al" &amp;'
    on_table(server, code, lambda t: t.start())
    watch.page.wait_for_selector("#tl-app .bl-seats")
    assert 'Bo & "Al" &amp;' in watch.page.inner_text("#tl-app .bl-seats")
    assert 'Bo & "Al" &amp;' in odd.page.inner_text("#tl-app")
    assert not host.errors and not ana.errors and not watch.errors and not odd.errors


def test_the_host_page_offers_no_value_where_an_option_allows_it(server, device):
    """BUS's speed limit with no card in progress: "none" (no limit, the default) or 5; the host
    page sets each, and "none" reaches the table as no value."""
    code = new_table(server, game="bus_city", options={"players": 2, "empty_speed": 5})
    host = device("host")
    host.page.goto(server.host_url(code))
    select = host.page.locator("#tl-opt-empty_speed")
    select.wait_for()
    assert select.locator("option").all_inner_texts() == ["none", "5"]
    assert select.locator("option:checked").inner_text() == "5"
    select.select_option(label="none")
    deadline = time.monotonic() + 10
    while on_table(server, code, lambda t: t.options["empty_speed"]) is not None:
        assert time.monotonic() < deadline, [m for m in host.received if m["type"] != "frame"]
        time.sleep(0.05)
    select.select_option(label="5")
    while on_table(server, code, lambda t: t.options["empty_speed"]) != 5:
        assert time.monotonic() < deadline + 10
        time.sleep(0.05)
    assert not host.errors
