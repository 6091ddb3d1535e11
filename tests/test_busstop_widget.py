"""Headless tests of ``BusstopWidget``: build it, make moves as the page sends them, read the frame.

The scripted line-ups and the expected placements are worked out by hand from the rules
(``BSB-…``) and the packaged component sheet (3 positions: P1 q1+W, P2 q2,q3+W (conductor),
P3 W; buses of 3, 4 and 5 seats; tiles 1-2 baby, 3-4 child, 5-6 girl, 7-8 salary man, 9-10 granny).
"""

from __future__ import annotations

import html
import random
import re

import pytest
from svg_layout import crowding, overflow, smallest_text_on_screen
from widget_helpers import widget_count

from bus_lab import ParameterError, Session, load_game
from bus_lab.games.busstop.render import table_summary, table_svg
from bus_lab.widgets import BusstopWidget


def labels(w) -> list[str]:
    return [m["label"] for m in w.frame["moves"]]


def entry(w, label: str) -> dict:
    found = [m for m in w.frame["moves"] if m["label"] == label]
    assert len(found) == 1, labels(w)
    return found[0]


def tap(w, label: str) -> None:
    """Play the move ``label`` exactly as the page sends it when its target is tapped."""
    w.handle_message({"type": "move", "action": entry(w, label)["action"], "seq": w.frame["seq"]})
    assert w.last_error is None, w.message_text


def step_until_human(w, limit: int = 200) -> None:
    for _ in range(limit):
        if w.session.waiting_for_human() or w.session.state.is_terminal():
            return
        w.handle_message({"type": "control", "name": "step", "value": None, "seq": w.frame["seq"]})
        assert w.last_error is None, w.message_text
    raise AssertionError("no human move came up")


def log_lines(w) -> list[str]:
    """The event log as the frame gives it, ``"[RULE-ID] text"``, newest first."""
    return [f"[{e['rule']}] {e['text']}" for e in w.frame["log"]["events"]]


def seat_points(w) -> list[int]:
    return [s["points"] for s in w.frame["seats"]]


SCRIPT = ["Gi", "Gi", "ET"]  # round 1's line-up: q1 girl, q2 girl, q3 ET


def test_three_player_game_with_one_human_plays_to_the_end():
    """BSB-END, BSB-WIN: a 3-player game with you at seat 0 and two bidder bots, tapped through to
    the end with random moves: the points shown are the engine's and the winner is marked."""
    w = BusstopWidget(players=3, humans=(0,), seed=5)
    rng = random.Random(1)
    for _ in range(2000):
        if w.session.state.is_terminal():
            break
        if w.frame["moves"]:
            tap(w, rng.choice(labels(w)))
        else:
            w.step()
            assert w.last_error is None, w.message_text
    state = w.session.state
    assert state.is_terminal()
    assert seat_points(w) == state.returns()
    assert [s["seat"] for s in w.frame["seats"] if s["winner"]] == state.winners()
    assert [r["points"] for r in w.frame["scores"]["rows"]] == state.returns()
    assert "Game over" in w.status_text and "[BSB-WIN]" in w.frame["heading"]
    assert not w.frame["controls"]["can_step"] and w.frame["moves"] == []


def test_the_human_bids_face_down_and_bots_stay_hidden_until_the_reveal():
    """BSB-ROUND-BID: you are seat 2; seat 0 (the conductor, a bot) shows its tile, seat 1 (a bot)
    chooses before you, face down: in your frame its tile is face down until the reveal, and
    nothing (log, hints, blocked targets) names it."""
    w = BusstopWidget(players=3, humans=(2,), seed=2, deck=SCRIPT)
    assert w.viewer == 2  # the widget starts in your own view
    step_until_human(w)
    state = w.session.state
    assert labels(w) == [f"tile {t}" for t in range(1, 11)]
    assert [m["path"] for m in w.frame["moves"]] == [[f"tile:{t}"] for t in range(1, 11)]
    assert "choose a player tile face down" in w.status_text
    assert "face down until the reveal" in w.frame["moves"][0]["hint"]
    bids = w.frame["view"]["bids"]
    assert bids[0]["state"] == "shown" and bids[1] == {"state": "hidden", "tile": None}
    hidden_tile = state.bids[1]
    assert not any(f"tile {hidden_tile}" in line or f"Seat 1 {hidden_tile}" in line for line in log_lines(w))
    w.set_viewer(None)  # the spectator sees every tile
    assert w.frame["view"]["bids"][1] == {"state": "shown", "tile": hidden_tile}
    w.set_viewer(2)
    tap(w, "tile 7")  # the last tile: the reveal follows at once
    assert all(b["state"] == "shown" for b in w.frame["view"]["bids"])
    assert any(
        line.startswith("[BSB-ROUND-BID] Reveal:") and f"Seat 1 {hidden_tile}" in line
        for line in log_lines(w)
    )


def test_placement_targets_hints_and_rules():
    """BSB-ROUND-TAKE, BSB-BOARD-SORT, BSB-QUEUE: you are seat 0, the conductor, and play tile 1, so
    you are P1 (a tie on 1 goes to the conductor): you take q1's girl and pick a played tile on the
    zone; then each passenger is tapped, then a bus that takes it or the queue, with what it costs;
    the locked third bus says why not."""
    w = BusstopWidget(players=3, humans=(0,), seed=3, deck=SCRIPT)
    step_until_human(w)
    tap(w, "tile 1")  # seat 0 conducts and plays 1 face up: P1 unless a bot also plays 1
    step_until_human(w)
    state = w.session.state
    assert state.zone_holders[0] == 0  # a tie on 1 goes to the conductor first
    assert state.node == "white"
    for m in w.frame["moves"]:  # "take Seat 1's 5": tap Seat 1's tile on the zone
        owner = re.match(r"take Seat (\d)", m["label"]).group(1)
        assert m["path"] == [f"played:{owner}"]
    tap(w, "take Seat 0's 1")  # its own tile: a baby
    step_until_human(w)
    moves = {m["label"]: m for m in w.frame["moves"]}
    assert set(moves) == {
        "girl to bus 1",
        "girl to bus 2",
        "girl to queue",
        "baby to bus 1",
        "baby to bus 2",
        "baby to queue",
    }
    received = w.frame["view"]["boards"][0]["received"]
    assert received == ["Gi", "0/1"]
    assert moves["girl to bus 1"]["path"] == ["passenger:0", "bus:0:0"]
    assert moves["baby to queue"]["path"] == ["passenger:1", "queue:0"]
    assert (
        "−2 points" in moves["girl to queue"]["hint"] and "BSB-SCORE-QUEUE" in moves["girl to queue"]["hint"]
    )
    assert moves["girl to bus 1"]["hint"] == "Bus 1: 1 of 3 seats taken, carrying girls (BSB-BOARD-SORT)."
    assert "BSB-EXTRA-BUS" in w.frame["blocked"]["bus:0:2"]  # locked until a queue of 9
    tap(w, "girl to bus 1")
    assert labels(w) == ["baby to bus 2", "baby to queue"]  # bus 1 carries girls now
    assert "carries girls" in w.frame["blocked"]["bus:0:0"]
    tap(w, "baby to queue")
    assert any("[BSB-QUEUE]" in line for line in log_lines(w))
    assert seat_points(w)[0] == -2


def test_queue_boarding_on_the_board():
    """BSB-QUEUE-BOARD: with two passengers queued, the queue is where boarding starts: the head
    boards a tapped bus that takes it, or "Stop boarding" beside the queue ends it."""
    w = BusstopWidget(players=3, humans=(0,), seed=3, deck=SCRIPT)
    step_until_human(w)
    tap(w, "tile 1")
    step_until_human(w)
    tap(w, "take Seat 0's 1")
    step_until_human(w)
    tap(w, "girl to queue")
    tap(w, "baby to queue")
    assert [(m["label"], m["path"], m["choice"]) for m in w.frame["moves"]] == [
        ("head to bus 1", ["queue:0", "bus:0:0"], None),
        ("head to bus 2", ["queue:0", "bus:0:1"], None),
        ("stop boarding", ["queue:0"], "Stop boarding"),
    ]
    assert (
        "+2" not in entry(w, "head to bus 1")["hint"]
        and "2 points less to lose" in entry(w, "head to bus 1")["hint"]
    )
    tap(w, "head to bus 2")
    assert labels(w) == ["head to bus 1", "stop boarding"]  # a baby may not join the girl
    assert "carries girls" in w.frame["blocked"]["bus:0:1"]
    tap(w, "stop boarding")
    assert w.session.state.view(None)["boards"][0]["queue"] == ["0/1"]


def test_two_players_decide_for_the_proxy_in_turn():
    """BSB-PROXY-CHOICES: two humans; in round 1 seat 1 makes the proxy bus's choices, and the
    hint says so."""
    w = BusstopWidget(players=2, humans=(0, 1), seed=4, deck=["Gi", "Ba", "Ch", "proxy-1"])
    assert "and the proxy bus" in w.frame["title"]
    step_until_human(w)
    tap(w, "tile 9")
    tap(w, "tile 8")
    step_until_human(w)  # the proxy's tile (1) is turned up: the proxy is P1
    state = w.session.state
    assert state.zone_holders[0] == 2 and state.current_player() == 1
    assert "BSB-PROXY-CHOICES" in w.frame["moves"][0]["hint"]
    assert w.frame["prompt"] == "Your move, Seat 1:"


def test_pick_the_passenger_to_turn_up():
    """BSB-ROUND-LINEUP: with ``pick_cards`` the learner chooses each passenger turned up, from the
    kinds still in the stack with their exact chances."""
    w = BusstopWidget(players=3, humans=(0,), seed=1, pick_cards=True)
    options = {d["label"]: d["action"] for d in w.frame["deal"]}
    assert "ET (1/10)" in options and "Gi (4/25)" in options and "VGi (1/50)" in options
    w.handle_message({"type": "deal", "action": options["VGi (1/50)"], "seq": w.frame["seq"]})
    assert w.last_error is None
    assert w.session.state.view(None)["lineup"] == ["VGi"]
    assert "VGi (1/50)" not in {d["label"] for d in w.frame["deal"]}


def test_log_scores_and_sheet_panel():
    """BSB-COMP-ZONE, BSB-SCORE-PILE: the log cites rule IDs, the scores show the breakdown lines
    with theirs, and the sheet panel shows the zone icons of the component sheet."""
    w = BusstopWidget(players=4, humans=(), seed=6)
    w.session.run_to_end()
    w.refresh()
    assert all(re.match(r"\[BSB-[A-Z0-9-]+\] ", line) for line in log_lines(w))
    assert any("[BSB-SCORE-PILE]" in " ".join(r["cells"]) for r in w.frame["scores"]["rows"])
    sheet = w.sheet_panel.body.value
    assert "P2: ●q2 ●q3 ○W ♛" in html.unescape(sheet)
    assert "[BSB-COMP-ZONE]" in sheet
    assert w.sheet_panel in w.widget.children and w.board in w.widget.children


def test_no_widgets_are_created_per_step():
    """Stepping through a game creates no widgets: the board is one model whose frame changes."""
    w = BusstopWidget(players=5, humans=(), seed=7)
    for _ in range(5):
        w.step()
    before = widget_count()
    for _ in range(60):
        w.step()
        assert w.last_error is None
    assert widget_count() == before


def test_bad_settings_are_explained():
    """BSB-SETUP: a seat that is not at the table, a bad player count or an unknown bot is refused."""
    with pytest.raises(ParameterError, match="not a seat at the table"):
        BusstopWidget(players=3, humans=(3,))
    with pytest.raises(ParameterError, match="players"):
        BusstopWidget(players=6)
    with pytest.raises(ValueError, match="unknown bot policy"):
        BusstopWidget(players=3, bot="clever")


def test_a_step_at_your_move_says_what_to_do():
    """Step does not move for you: it says that your move is needed, and nothing changes."""
    w = BusstopWidget(players=3, humans=(0,), seed=1, deck=SCRIPT)
    step_until_human(w)
    position = w.session.position
    w.step()
    assert "must choose a move" in w.message_text
    assert w.session.waiting_for_human() and w.session.position == position


def test_the_log_names_a_vip_as_the_board_prints_it():
    """BSB-ROUND-LINEUP: a VIP turned up reads "VIP child (Ch★)" in the log, the letters and star
    the board prints on its token; the draw's label and the event's data keep the kind code."""
    w = BusstopWidget(players=3, humans=(), seed=1, deck=["Gi", "VCh", "ET"])
    for _ in range(3):
        w.step()
    lines = log_lines(w)
    assert "[BSB-ROUND-LINEUP] q1: girl (Gi)." in lines
    assert "[BSB-ROUND-LINEUP] q2: VIP child (Ch★)." in lines
    assert "[BSB-ROUND-LINEUP] q3: extra-terrestrial (ET)." in lines
    assert not any("VCh" in line for line in lines)
    assert w.frame["view"]["lineup"] == ["Gi", "VCh", "ET"]  # the drawer prints VCh as Ch★
    event = [e for e in w.session.state.events() if e.rule == "BSB-ROUND-LINEUP"][-2]
    assert event.data == {"slot": 2, "kind": "VCh"}
    assert w.session.state.action_to_string(w.session.state.history()[-2]) == "VCh"  # the draw's label


# -- the state's own HTML (``state`` in a notebook) stays readable --------------------------------
def test_the_state_html_is_classroom_size_and_nothing_overlaps():
    """BSB-COMP-BOARD: the table ``state._repr_html_()`` draws (880 px wide) keeps its text at 11 px
    or more, nothing overlaps or overflows, at every table size with both options, and on the most
    crowded board (a queue past its 13 spaces, many passengers to place, a full hand)."""
    for players in (2, 3, 4, 5):
        session = Session(
            load_game("busstop", players=players, passenger_bonus=True, end_bonus=True),
            seed=players,
            bots="bidder",
        )
        for step in range(1000):
            if step % 40 == 0 or session.state.is_terminal():
                svg = table_svg(session.state.public_view())
                assert smallest_text_on_screen(svg) >= 11, (players, step)
                assert crowding(svg) == [] and overflow(svg) == [], (players, step)
            if session.state.is_terminal():
                break
            session.step()
        assert session.state.is_terminal()
        assert "<svg" in session.state._repr_html_() and "Busstop, round" in str(session.state)
    session = Session(
        load_game("busstop", players=5, passenger_bonus=True, end_bonus=True), seed=5, bots="bidder"
    )
    for _ in range(40):
        session.step()
    view = session.state.view(None)
    for k, board in enumerate(view["boards"]):
        board.update(
            queue=["VGi", "ET", "Sa", "0/7"] * 5,
            received=["VGr", "ET", "1/10", "Ba"] * 3,
            hand=list(range(1, 11)),
            pile=["Gi"] * 48,
            penalty=["Gi"] * 12,
            requirement="empty_queue",
            bonus_sort="salaryman",
        )
        view["scores"][k] = -148
    view["acting"], view["node"], view["conductor"] = 3, "place", 3
    svg = table_svg(view)
    assert smallest_text_on_screen(svg) >= 11 and crowding(svg) == [] and overflow(svg) == []
    assert "+7 off board" in svg and ">Gr★<" in svg and "-148 pts" in svg


def test_the_board_in_words_has_the_line_up_the_tiles_played_and_the_hands():
    """BSB-ROUND-LINEUP, BSB-ROUND-BID, BSB-PROXY: the state HTML's aria-label says who turned up in
    each queue slot, which tiles were played (a tile another seat chose face down only as "a tile
    face down"), the tiles left for the white icons and each board's hand -- the proxy's only as a
    number of tiles face down -- and only what the viewer's view shows."""
    session = Session(load_game("busstop", players=2), seed=1, bots="bidder", deck=["Gi", "VCh", "ET"])
    state = session.state
    assert "Line-up: nobody has turned up yet." in table_summary(state.view(0))
    while state.node != "proxy_reveal":  # Seat 0 (the conductor) face up, Seat 1 face down
        session.step()
        state = session.state
    spectator = state.view(None)
    shown, hidden = spectator["bids"][0]["tile"], spectator["bids"][1]["tile"]
    for viewer, seen in ((0, False), (1, True), (None, True)):
        view = state.view(viewer)
        words = table_summary(view)
        assert "Line-up: q1 girl, q2 VIP child, q3 ET." in words
        assert f"Tiles played: Seat 0 tile {shown}, " in words
        assert (f"Seat 1 tile {hidden}." in words) == seen
        assert ("Seat 1 a tile face down." in words) == (not seen)
        assert "Seat 0: bus 1 0/3; bus 2 0/4; bus 3 0/5 locked; queue 0; score pile 0; hand " in words
        hand = view["boards"][1]["hand"]
        assert (hidden in hand) == (not seen)  # a tile chosen face down still counts as in the hand
        assert ("hand " + ", ".join(map(str, hand[:-1])) + f" and {hand[-1]}.") in words
        proxy = words[words.rindex("the proxy bus: ") :]
        assert proxy.endswith("; 10 tiles face down.") and "hand" not in proxy
        assert words in html.unescape(re.search(r'aria-label="([^"]*)"', table_svg(view)).group(1))
    while not state.played:
        session.step()
        state = session.state
    words = table_summary(state.view(0))
    assert "Left for white icons: " in words and "Zone: P1 " in words
    assert re.search(
        r"Left for white icons: (?:(?:Seat \d|the proxy bus)'s tile \d+ \([a-z]+\)(?:, |\.))+", words
    )
