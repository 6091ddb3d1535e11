"""Headless tests of ``BusstopWidget``: build it, click its buttons, read what it shows.

The scripted line-ups and the expected placements are worked out by hand from the rules
(``BSB-…``) and the packaged component sheet (3 positions: P1 q1+W, P2 q2,q3+W (conductor),
P3 W; buses of 3, 4 and 5 seats; tiles 1-2 baby, 3-4 child, 5-6 girl, 7-8 salary man, 9-10 granny).
"""

from __future__ import annotations

import html
import random
import re

import pytest
from svg_layout import attributes, crowding, overflow, smallest_text_on_screen
from widget_helpers import log_lines, shown_points, shown_winners, visible, widget_count

from bus_lab import ParameterError
from bus_lab.games.busstop.render import table_svg
from bus_lab.widgets import BusstopWidget


def descriptions(w) -> list[str]:
    return [b.description for b in visible(w)]


def click(w, starts: str) -> None:
    matches = [b for b in visible(w) if b.description == starts] or [
        b for b in visible(w) if b.description.startswith(starts)
    ]
    assert len(matches) == 1, descriptions(w)
    matches[0].click()
    assert w.last_error is None, w.error.value


def step_until_human(w, limit: int = 200) -> None:
    for _ in range(limit):
        if w.session.waiting_for_human() or w.session.state.is_terminal():
            return
        w.step_button.click()
        assert w.last_error is None, w.error.value
    raise AssertionError("no human move came up")


SCRIPT = ["Gi", "Gi", "ET"]  # round 1's line-up: q1 girl, q2 girl, q3 ET


def test_three_player_game_with_one_human_plays_to_the_end():
    """BSB-END, BSB-WIN: a 3-player game with you at seat 0 and two bidder bots, clicked through to the
    end with random moves: the scores shown are the engine's and the winner is marked."""
    w = BusstopWidget(players=3, humans=(0,), seed=5)
    rng = random.Random(1)
    clicks = 0
    while not w.session.state.is_terminal():
        assert clicks < 2000
        moves = visible(w)
        (rng.choice(moves) if moves else w.step_button).click()
        assert w.last_error is None, w.error.value
        clicks += 1
    state = w.session.state
    assert shown_points(w) == state.returns()
    assert shown_winners(w) == state.winners()
    assert "Game over" in w.status.value and "[BSB-WIN]" in w.header.value
    assert w.play.disabled and w.step_button.disabled


def test_the_human_bids_face_down_and_bots_stay_hidden_until_the_reveal():
    """BSB-ROUND-BID: you are seat 2; seat 0 (the conductor, a bot) shows its tile, seat 1 (a bot) chooses
    before you, face down: in your view its tile is a face-down '?' until the reveal."""
    w = BusstopWidget(players=3, humans=(2,), seed=2, deck=SCRIPT)
    assert w.viewer_seat == 2  # the widget starts in your own view
    step_until_human(w)
    state = w.session.state
    assert descriptions(w) == [f"tile {t}" for t in range(1, 11)]
    assert "choose a player tile face down" in w.status.value
    assert "face down until the reveal" in visible(w)[0].tooltip
    assert state.view(2)["bids"][0]["state"] == "shown" and state.view(2)["bids"][1]["state"] == "hidden"
    assert w.board.value.count("a tile chosen face down") == 1
    hidden_tile = state.bids[1]
    assert not any(f"tile {hidden_tile}" in line or f"Seat 1 {hidden_tile}" in line for line in log_lines(w))
    w.viewer.value = -1  # the spectator sees every tile
    assert "a tile chosen face down" not in w.board.value
    w.viewer.value = 2
    click(w, "tile 7")  # the last tile: the reveal follows at once
    assert "a tile chosen face down" not in w.board.value
    assert any(
        line.startswith("[BSB-ROUND-BID] Reveal:") and f"Seat 1 {hidden_tile}" in line
        for line in log_lines(w)
    )


def test_placement_buttons_hints_and_rules():
    """BSB-ROUND-TAKE, BSB-BOARD-SORT, BSB-QUEUE: you are seat 0, the conductor, and play tile 1, so you
    are P1 (a tie on 1 goes to the conductor): you take q1's girl and pick a played tile; then the
    buttons offer each passenger on each bus that takes it or the queue, with what it costs."""
    w = BusstopWidget(players=3, humans=(0,), seed=3, deck=SCRIPT)
    step_until_human(w)
    click(w, "tile 1")  # seat 0 conducts and plays 1 face up: P1 unless a bot also plays 1
    step_until_human(w)
    state = w.session.state
    assert state.zone_holders[0] == 0  # a tie on 1 goes to the conductor first
    assert state.node == "white"
    picks = descriptions(w)
    assert all(p.startswith("take ") and p.endswith(")") for p in picks)
    click(w, "take Seat 0's 1")  # its own tile: a baby
    step_until_human(w)
    labels = descriptions(w)
    assert "girl to queue (−2)" in labels and "baby to queue (−2)" in labels
    assert "girl to bus 1 (1/3)" in labels and "girl to bus 2 (1/4)" in labels
    assert not any("bus 3" in lab for lab in labels)  # locked (BSB-EXTRA-BUS)
    tip = next(b.tooltip for b in visible(w) if b.description.startswith("girl to bus 1"))
    assert "BSB-BOARD-SORT" in tip
    click(w, "girl to bus 1")
    assert "girl to bus 1" not in " ".join(descriptions(w))  # no girl left to place
    assert "baby to bus 1" not in " ".join(descriptions(w))  # bus 1 carries girls now
    click(w, "baby to queue")
    assert any("[BSB-QUEUE]" in line for line in log_lines(w))
    assert shown_points(w)[0] == -2


def test_queue_boarding_buttons():
    """BSB-QUEUE-BOARD: with two passengers queued, the head may board (a button per bus that takes it)
    or you stop."""
    w = BusstopWidget(players=3, humans=(0,), seed=3, deck=SCRIPT)
    step_until_human(w)
    click(w, "tile 1")
    step_until_human(w)
    click(w, "take Seat 0's 1")
    step_until_human(w)
    click(w, "girl to queue")
    click(w, "baby to queue")
    assert descriptions(w) == ["head to bus 1 (1/3)", "head to bus 2 (1/4)", "stop boarding"]
    click(w, "head to bus 2")
    assert descriptions(w) == ["head to bus 1 (1/3)", "stop boarding"]  # a baby may not join the girl
    click(w, "stop boarding")
    assert w.session.state.view(None)["boards"][0]["queue"] == ["0/1"]


def test_two_players_decide_for_the_proxy_in_turn():
    """BSB-PROXY-CHOICES: two humans; in round 1 seat 1 makes the proxy bus's choices, and the tooltip
    says so."""
    w = BusstopWidget(players=2, humans=(0, 1), seed=4, deck=["Gi", "Ba", "Ch", "proxy-1"])
    assert "and the proxy bus" in w.header.value
    step_until_human(w)
    click(w, "tile 9")
    click(w, "tile 8")
    step_until_human(w)  # the proxy's tile (1) is turned up: the proxy is P1
    state = w.session.state
    assert state.zone_holders[0] == 2 and state.current_player() == 1
    assert "BSB-PROXY-CHOICES" in visible(w)[0].tooltip
    assert "Your move, Seat 1" in w.prompt.value


def test_pick_the_passenger_to_turn_up():
    """BSB-ROUND-LINEUP: with ``pick_cards`` the learner chooses each passenger turned up, from the
    kinds still in the stack with their exact chances."""
    w = BusstopWidget(players=3, humans=(0,), seed=1, pick_cards=True)
    assert w.pick_row.layout.display != "none"
    options = dict(w.pick_box.options)
    assert "ET (1/10)" in options and "Gi (4/25)" in options and "VGi (1/50)" in options
    w.pick_box.value = options["VGi (1/50)"]
    w.pick_button.click()
    assert w.last_error is None
    assert w.session.state.view(None)["lineup"] == ["VGi"]
    assert "VGi (1/50)" not in dict(w.pick_box.options)


def test_log_scores_and_sheet_panel():
    """BSB-COMP-ZONE, BSB-SCORE-PILE: the log cites rule IDs, the scores show the breakdown lines with
    theirs, and the sheet panel shows the zone icons of the component sheet."""
    w = BusstopWidget(players=4, humans=(), seed=6)
    w.session.run_to_end()
    w.refresh()
    assert all(re.match(r"\[BSB-[A-Z0-9-]+\] ", line) for line in log_lines(w))
    assert "[BSB-SCORE-PILE]" in w.scores.value
    sheet = w.sheet_panel.body.value
    assert "P2: ●q2 ●q3 ○W ♛" in html.unescape(sheet)
    assert "[BSB-COMP-ZONE]" in sheet


def test_no_widgets_are_created_per_step():
    """Stepping through a game reuses the same widgets (a fixed pool of move buttons)."""
    w = BusstopWidget(players=5, humans=(), seed=7)
    for _ in range(5):
        w.step_button.click()
    before = widget_count()
    for _ in range(60):
        w.step_button.click()
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
    """The Step button does not move for you: it says that your move is needed."""
    w = BusstopWidget(players=3, humans=(0,), seed=1, deck=SCRIPT)
    step_until_human(w)
    w.step_button.click()
    assert "must choose a move" in w.error.value
    assert w.session.waiting_for_human()


# -- fitting a JupyterLab output area ---------------------------------------------------------
def test_the_board_fits_a_900_pixel_output_area():
    """BSB-COMP-BOARD: a JupyterLab output area is about 964 px wide; the Busstop board is at most
    880 px (no width above 900 anywhere in it) and shrinks with a narrower one (viewBox,
    max-width:100%, height:auto), at every table size, with both options, all game long."""
    for players in (2, 3, 4, 5):
        w = BusstopWidget(players=players, humans=(), seed=players, passenger_bonus=True, end_bonus=True)
        for step in range(400):
            if step % 9 == 0 or w.session.state.is_terminal():
                board = w.board.value
                svg = re.search(r"<svg [^>]*>", board).group(0)
                head = attributes(svg)
                assert head["width"] == "880" and head["viewBox"] == f"0 0 880 {head['height']}"
                assert "max-width:100%" in head["style"] and "height:auto" in head["style"]
                fixed = [
                    int(v)
                    for v in re.findall(r'width="(\d+)', board) + re.findall(r"width:\s*(\d+)px", board)
                ]
                assert max(fixed) <= 900, (players, step, max(fixed))
                assert overflow(board[board.index("<svg") :]) == [], (players, step)
            if w.session.state.is_terminal():
                break
            w.step_button.click()
            assert w.last_error is None, w.error.value
        assert w.session.state.is_terminal()


def test_a_crowded_board_still_fits():
    """BSB-QUEUE, BSB-ROUND-DISTRIBUTE: the longest things a row can hold -- a queue past its 13 spaces,
    many passengers to place, a full hand, both option lines, a big score and penalty tiles -- stay
    inside the 880 px drawing."""
    w = BusstopWidget(players=5, humans=(), seed=5, passenger_bonus=True, end_bonus=True)
    for _ in range(40):
        w.step_button.click()
    view = w.session.state.view(None)
    for k, board in enumerate(view["boards"]):
        board["queue"] = ["VGi", "ET", "Sa", "0/7"] * 5  # 20: seven off the board
        board["received"] = ["VGr", "ET", "1/10", "Ba"] * 3
        board["hand"] = list(range(1, 11))
        board["pile"] = ["Gi"] * 48
        board["penalty"] = ["Gi"] * 12
        board["requirement"] = "empty_queue"
        board["bonus_sort"] = "salaryman"
        view["scores"][k] = -148
    view["acting"], view["node"], view["conductor"] = 3, "place", 3
    svg = table_svg(view)
    assert overflow(svg) == []
    assert "+7 off board" in svg and ">Gr★<" in svg and "−148 pts" not in svg and "-148 pts" in svg


def test_the_log_names_a_vip_as_the_board_prints_it():
    """BSB-ROUND-LINEUP: a VIP turned up reads "VIP child (Ch★)" in the log, the letters and star the
    board prints on its tile; the draw's label and the event's data keep the kind code "VCh"."""
    w = BusstopWidget(players=3, humans=(), seed=1, deck=["Gi", "VCh", "ET"])
    for _ in range(3):
        w.step_button.click()
    lines = log_lines(w)
    assert "[BSB-ROUND-LINEUP] q1: girl (Gi)." in lines
    assert "[BSB-ROUND-LINEUP] q2: VIP child (Ch★)." in lines
    assert "[BSB-ROUND-LINEUP] q3: extra-terrestrial (ET)." in lines
    assert not any("VCh" in line for line in lines)
    assert ">Ch★<" in w.board.value and ">Gi<" in w.board.value
    event = [e for e in w.session.state.events() if e.rule == "BSB-ROUND-LINEUP"][-2]
    assert event.data == {"slot": 2, "kind": "VCh"}
    assert w.session.state.action_to_string(w.session.state.history()[-2]) == "VCh"  # the draw's label


# -- readable on a classroom projector; the board in words --------------------------------------
from bus_lab.games.busstop.render import table_summary  # noqa: E402


def test_the_board_text_is_classroom_size_and_nothing_overlaps():
    """BSB-COMP-BOARD: at full size (880 px in a 940 px output area) no text on the board is smaller
    than 11 px -- passenger letters, tile numbers, queue slots, zone icons -- and no text overlaps
    other text or runs into a shape it does not sit inside, at every table size all game long and
    on the most crowded board."""
    for players in (2, 3, 4, 5):
        w = BusstopWidget(players=players, humans=(), seed=players, passenger_bonus=True, end_bonus=True)
        for step in range(400):
            if step % 7 == 0 or w.session.state.is_terminal():
                svg = w.board.value[w.board.value.index("<svg") :]
                assert smallest_text_on_screen(svg) >= 11, (players, step)
                assert crowding(svg) == [], (players, step)
            if w.session.state.is_terminal():
                break
            w.step_button.click()
    w = BusstopWidget(players=5, humans=(), seed=5, passenger_bonus=True, end_bonus=True)
    for _ in range(40):
        w.step_button.click()
    view = w.session.state.view(None)
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
    view["zone"][0]["black"] = [1, 2, 3, 4, 5]  # a teacher's sheet: more arrows than fit as icons
    view["acting"], view["node"], view["conductor"] = 3, "place", 3
    svg = table_svg(view)
    assert smallest_text_on_screen(svg) >= 11 and crowding(svg) == [] and overflow(svg) == []
    assert ">q1 q2 q3<" in svg and ">q4 q5 W<" in svg  # the arrows said in words, on two lines


def test_the_board_in_words_has_the_line_up_the_tiles_played_and_the_hands():
    """BSB-ROUND-LINEUP, BSB-ROUND-BID, BSB-PROXY: the aria-label says who turned up in each queue
    slot, which tiles were played (a tile another seat chose face down only as "a tile face
    down"), the tiles left for the white icons and each board's hand -- the proxy's only as a
    number of tiles face down -- and only what the viewer's view shows."""
    w = BusstopWidget(players=2, humans=(), seed=1, deck=["Gi", "VCh", "ET"])
    state = w.session.state
    assert "Line-up: nobody has turned up yet." in table_summary(state.view(0))
    while state.node != "proxy_reveal":  # Seat 0 (the conductor) face up, Seat 1 face down
        w.step_button.click()
        state = w.session.state
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
        w.step_button.click()
        state = w.session.state
    words = table_summary(state.view(0))
    assert "Left for white icons: " in words and "Zone: P1 " in words
    assert re.search(
        r"Left for white icons: (?:(?:Seat \d|the proxy bus)'s tile \d+ \([a-z]+\)(?:, |\.))+", words
    )
