"""Headless tests of ``BusAndStopWidget``: build it, click, read what it shows.

Positions that would take many moves to reach are arranged by moving cards from the deck into a
bus of the session's current state (every card stays somewhere), then redrawing.
"""

from __future__ import annotations

import html
import random
import re

import ipywidgets
import pytest
from widget_helpers import shown_points, visible, widget_count

from bus_lab import ParameterError
from bus_lab.games.bus_and_stop import BusAndStopPhase
from bus_lab.widgets import BusAndStopWidget

STOP = ["YB", "GT", "BM", "PS", "RB"]


def pick_buttons(w) -> list[ipywidgets.Button]:
    return [b for b in w.pick_buttons if b.layout.display != "none"]


def place(state, seat: int, *codes: str) -> None:
    for code in codes:
        k = state.sheet.parse(code)
        assert state.deck[k] > 0
        state.deck[k] -= 1
        state.bus[seat][k] += 1


def log_rules(w) -> list[str]:
    return re.findall(r"<code[^>]*>\[([A-Z0-9-]+)\]</code>", w.log.value)


def test_a_four_player_game_with_one_human_plays_to_the_end():
    """BAS-TURN … BAS-WIN: seat 0 clicks (pick-up buttons, the drop-off chooser, move buttons), the bots
    step; the game ends and the scores shown are the engine's, with their breakdown."""
    w = BusAndStopWidget(players=4, humans=(0,), seed=12)
    rng = random.Random(3)
    kinds = set()
    for _ in range(2000):
        state = w.session.state
        if state.is_terminal():
            break
        if w.session.waiting_for_human():
            assert state.current_player() == 0
            kinds.add(state.decision_kind())
            if state.decision_kind() is BusAndStopPhase.TURN:
                assert w.human_panel.layout.display is None
                assert all(not b.description.startswith(("pick up", "drop ")) for b in visible(w))
                picks = [b for b in pick_buttons(w) if not b.disabled]
                if not w.drop_button.disabled and (rng.random() < 0.6 or not picks):
                    w.drop_button.click()
                elif picks:
                    rng.choice(picks).click()
                else:
                    rng.choice(visible(w)).click()  # the final round's pass
            else:
                assert w.human_panel.layout.display == "none"
                rng.choice(visible(w)).click()
        else:
            w.step_button.click()
        assert w.last_error is None, w.error.value
    state = w.session.state
    assert state.is_terminal() and "Game over" in html.unescape(w.status.value)
    assert BusAndStopPhase.TURN in kinds and state.claimed[0], kinds  # seat 0 dropped off at least once
    assert shown_points(w) == state.returns()
    assert f"data-winners='{','.join(map(str, state.winners()))}'" in w.scores.value
    assert "BAS-SCORE-DEST" in w.scores.value
    assert "BAS-WIN" in log_rules(w) and "BAS-WIN" in w.header.value
    assert w.step_button.disabled and visible(w) == []


def test_pick_up_buttons_say_why_a_colour_cannot_be_picked():
    """BAS-PICK-LIMIT: with 9 passengers aboard, a colour with two non-seniors at the stop is disabled
    and the reason is in its tooltip and in the line below; a colour of seniors only stays enabled."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=["YB", "YM", "GT", "BE", "BE"])
    w.step_button.click()
    assert not w.session.waiting_for_human()
    w.session.run_to_end()  # deals the stop
    place(w.session.state, 0, "PB", "PB", "PB", "PB", "PT", "PT", "PT", "RS", "RS")
    w.refresh()
    buttons = {b.description.split(" ")[0]: b for b in pick_buttons(w)}
    assert list(buttons) == ["yellow", "green", "blue", "purple", "red"]
    assert buttons["yellow"].disabled and "BAS-PICK-LIMIT" in buttons["yellow"].tooltip
    assert buttons["yellow"].description == "yellow (YB YM)"
    assert not buttons["green"].disabled and not buttons["blue"].disabled
    assert buttons["purple"].disabled and "no purple passenger" in buttons["purple"].tooltip
    assert "yellow: yellow would put 2 passengers" in html.unescape(w.pick_reasons.value)
    assert "purple" not in w.pick_reasons.value  # nothing to pick there: no need to explain
    buttons["blue"].click()
    assert len(w.session.state.seniors[0]) == 2 and w.last_error is None


def test_drop_off_chooser_destination_count_then_cards():
    """BAS-DROP-TOP, BAS-DROP-TYPE, BAS-DROP-CLAIM: the chooser lists only the stacks and counts that
    are possible, with their points; the passengers are then chosen with the move buttons."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=STOP)
    w.session.run_to_end()
    place(w.session.state, 0, "YB", "YB", "GB", "BB", "PB", "RM")
    w.refresh()
    dests = dict((v, label) for label, v in w.drop_destination.options)
    assert list(dests) == [0, 4]  # office and multicoloured
    assert dests[0] == "office: 4/5/6/7 → 6/10/14/20 points"
    w.drop_destination.value = 0
    assert [label for label, _ in w.drop_count.options] == [
        "4 passengers → 6 points",
        "5 passengers → 10 points",
    ]
    w.drop_count.value = 4
    w.drop_button.click()
    assert "choose which passengers" in w.error.value
    labels = [b.description for b in visible(w)]
    assert labels == [
        "drop YB (yellow businessman)",
        "drop GB (green businessman)",
        "drop BB (blue businessman)",
        "drop PB (purple businessman)",
    ]
    assert all("BAS-DROP-TYPE" in b.tooltip for b in visible(w))
    for _ in range(4):
        visible(w)[0].click()
        if w.session.state.phase() is not BusAndStopPhase.CHOOSE:
            break
    view = w.session.state.view(None)
    assert view["buses"][0]["claimed"] == [{"stack": "office", "count": 4, "points": 6}]
    assert shown_points(w)[0] == 6
    assert "BAS-DROP-CLAIM" in log_rules(w)


def test_skedaddle_prompt_for_a_human_when_a_bot_drops_off():
    """BAS-SKEDADDLE: when the greedy bot at seat 0 drops off at the office, human seat 1 is asked,
    with buttons for each matching passenger and one to decline."""
    w = BusAndStopWidget(players=2, humans=(1,), deck=STOP)
    while w.session.state.is_chance_node():  # deal the stop, and stop before the bot's move
        w.session.step()
    state = w.session.state
    assert state.current_player() == 0 and state.phase() is BusAndStopPhase.TURN
    place(state, 0, "PB", "PB", "PB", "PB", "GB")
    place(state, 1, "YB", "RB", "YM")
    w.step_button.click()  # the bot drops 5 at the office (10 points)
    while not w.session.waiting_for_human():
        w.step_button.click()
    assert w.session.state.phase() is BusAndStopPhase.SKEDADDLE
    assert [b.description for b in visible(w)] == [
        "skedaddle YB (yellow businessman)",
        "skedaddle RB (red businessman)",
        "no skedaddle",
    ]
    assert "you may skedaddle" in html.unescape(w.status.value)
    visible(w)[1].click()
    assert w.session.state.returns()[1] == 1 and w.session.state.current_player() == 1
    assert w.session.state.phase() is BusAndStopPhase.TURN and w.human_panel.layout.display is None


def test_unhappy_chooser_needs_one_discard_then_offers_to_stop():
    """BAS-UNHAPPY: a human who can neither pick up nor drop off gets discard buttons; "stop
    discarding" appears after the first."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=STOP[:4])
    for _ in range(4):
        w.session.step()
    state = w.session.state
    assert state.phase() is BusAndStopPhase.DEAL and len(state.stop) == 4
    place(state, 0, "YB", "GB", "BB", "YM", "GM", "YT", "GT", "BT", "YS", "GS")
    for s in (2, 3, 4):  # school, tennis court and multicoloured: nothing left to claim
        state.stacks[s] = []
    w.session.play("RB")
    w.refresh()
    assert w.session.state.phase() is BusAndStopPhase.UNHAPPY
    labels = [b.description for b in visible(w)]
    assert len(labels) == 10 and all(lab.startswith("unhappy ") for lab in labels)
    assert "BAS-UNHAPPY" in html.unescape(w.status.value)
    visible(w)[0].click()
    assert visible(w)[-1].description == "stop discarding"
    visible(w)[-1].click()
    assert w.session.state.current_player() == 1 and len(w.session.state.unhappy[0]) == 1


def test_back_restores_the_panel_and_no_widget_is_made_per_step():
    """BAS-PICK-ALL: Back after a pick-up shows the pick-up buttons again; stepping a whole bot game
    creates no widgets."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=STOP)
    w.session.run_to_end()
    w.refresh()
    before = [b.description for b in pick_buttons(w)]
    pick_buttons(w)[0].click()
    assert w.human_panel.layout.display == "none"
    while w.session.state.current_player() != 0 or w.session.state.is_chance_node():
        w.back_button.click()
    assert [b.description for b in pick_buttons(w)] == before and w.human_panel.layout.display is None
    demo = BusAndStopWidget(players=3, humans=(), bot="random", seed=4)
    count = widget_count()
    while not demo.session.state.is_terminal():
        demo.step_button.click()
    assert widget_count() == count


def test_colour_is_never_the_only_cue():
    """BAS-COMP-PASSENGERS: tokens carry the type letter and the colour letter; the SVG has a text
    description; buttons name colours in words."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=STOP)
    w.session.run_to_end()
    w.refresh()
    board = w.board.value
    assert 'role="img"' in board and "aria-label=" in board
    assert "Bus stop: yellow businessman, green tennis player" in html.unescape(board)
    for letter in ("B", "T", "M", "S"):
        assert re.search(f'fill="#(000|fff)" font-family="sans-serif">{letter}</text>', board), letter
    assert [b.description.split(" ")[0] for b in pick_buttons(w)] == [
        "yellow",
        "green",
        "blue",
        "purple",
        "red",
    ]
    assert all(b.tooltip for b in pick_buttons(w)) and w.drop_button.tooltip


def test_final_round_shows_a_pass_button_and_bad_parameters_raise():
    """BAS-END-FINAL: in the final round a human may pass; bad settings raise before anything is built."""
    w = BusAndStopWidget(players=2, humans=(0, 1), deck=STOP)
    w.session.run_to_end()
    state = w.session.state
    place(state, 0, "YT", "GT")
    place(state, 1, "RM", "RB", "BS")
    for s, n in ((1, 4), (2, 4), (3, 3)):  # eleven destination cards gone: seven left
        del state.stacks[s][:n]
    w.refresh()
    w.drop_destination.value = 3
    w.drop_button.click()  # the last tennis court card: six left, the end is triggered
    state = w.session.state
    assert state.stage == "final" and state.current_player() == 1
    assert [b.description for b in visible(w)] == ["pass"]
    assert "Final round" in w.header.value and "BAS-END-FINAL" in w.header.value
    visible(w)[0].click()
    assert w.session.state.is_terminal()
    with pytest.raises(ParameterError, match="humans"):
        BusAndStopWidget(players=2, humans=(2,))
    with pytest.raises(ParameterError, match="players=5"):
        BusAndStopWidget(players=5)


def test_state_draws_itself_as_html_and_text():
    """BAS-SETUP-STOP, BAS-SETUP-STACKS: a state shows the stop, the stacks and the buses, in HTML and text."""
    w = BusAndStopWidget(players=3, humans=(), seed=2)
    for _ in range(30):
        w.step_button.click()
    state = w.session.state
    page = state._repr_html_()
    assert (
        page.startswith("<div class='bus-lab-bas'><svg") and html.escape(state.status(), quote=False) in page
    )
    text = str(state)
    assert text.splitlines()[1].startswith("Stop: " + " ".join(state.view()["stop"]))
    assert all(f"Seat {s}:" in text for s in range(3)) and "office" in text


# -- readable on a classroom projector: text size, width, nothing overlapping --------------------
from svg_layout import attributes, crowding, smallest_text_on_screen  # noqa: E402

from bus_lab.games.bus_and_stop.render import table_svg  # noqa: E402


def crowded_view() -> dict:
    """A four-seat view with every part as full as it gets: a full bus, ten seniors, fifteen
    skedaddled and seven unhappy passengers, nine destinations claimed, a long stack name, a card
    with ten counts, two lines of stacks and a drop-off under way."""
    w = BusAndStopWidget(players=4, humans=(), seed=3)
    for _ in range(60):
        w.step_button.click()
    view = w.session.state.view(None)
    bus = view["buses"][0]
    bus["bus"] = ["YB", "GT", "BM", "PS", "RB", "YE", "GT", "BM", "PS", "RB"]
    bus["seats_used"] = 10
    bus["seniors"] = ["YE", "YE", "GE", "GE", "BE", "BE", "PE", "PE", "RE", "RE"]
    bus["skedaddled"] = ["YB", "GT", "BM", "PS", "RB"] * 3
    bus["unhappy"] = ["YB", "GT", "BM", "PS", "RB", "YM", "GS"]
    bus["claimed"] = [
        {"stack": s, "count": c, "points": p}
        for s, c, p in [
            ("multicoloured", 5, 12),
            ("tennis court", 6, 14),
            ("office", 7, 20),
            ("park", 3, 4),
            ("school", 2, 1),
            ("office", 4, 6),
            ("multicoloured", 2, 1),
            ("park", 6, 16),
            ("school", 5, 11),
        ]
    ]
    bus["points"], bus["tie_break"] = -123, 10
    view["buses"][1]["claimed"] = bus["claimed"][:4]
    view["buses"][2]["seniors"] = ["RE"] * 11
    view["to_move"] = 0
    view["pending_drop"] = {"stack": view["stacks"][2]["name"], "count": 3, "chosen": []}
    view["stacks"][0]["name"] = "the very long destination name"
    view["stacks"][1]["top"] = {"counts": list(range(1, 11)), "points": [1, 2, 3, 5, 8, 13, 21, 34, 55, 1000]}
    view["stacks"] += [dict(s, name=s["name"] + " 2") for s in view["stacks"]]
    return view


def test_the_board_text_is_classroom_size_and_the_board_is_not_shrunk():
    """BAS-COMP-PASSENGERS: in a 940 px output area the board is drawn at full size (at most 900 px
    wide, no wider than its viewBox, shrinking only in a narrower area) and no text is smaller than
    11 px on screen -- token letters, chips, labels -- at every table size, all game long."""
    for players in (2, 3, 4):
        w = BusAndStopWidget(players=players, humans=(), seed=players)
        for step in range(300):
            if step % 10 == 0 or w.session.state.is_terminal():
                svg = w.board.value[w.board.value.index("<svg") :]
                head = attributes(re.search(r"<svg [^>]*>", svg).group(0))
                assert (
                    float(head["width"]) <= 900 and head["viewBox"] == f"0 0 {head['width']} {head['height']}"
                )
                assert "max-width:100%" in head["style"] and "height:auto" in head["style"]
                assert smallest_text_on_screen(svg) >= 11, (players, step)
            if w.session.state.is_terminal():
                break
            w.step_button.click()
    assert smallest_text_on_screen(table_svg(crowded_view())) >= 11


def test_no_text_on_the_board_overlaps_other_text_or_shapes():
    """BAS-SENIOR, BAS-SKEDADDLE, BAS-UNHAPPY: the piles set aside are chips whose letters stay
    readable (no stacked tokens covering each other), the seat's header line does not run into the
    first bus seat, and nothing else collides -- all game long, and on the most crowded table."""
    for players, seed in ((2, 5), (3, 1), (4, 3)):
        w = BusAndStopWidget(players=players, humans=(), seed=seed)
        while not w.session.state.is_terminal():
            w.step_button.click()
            svg = w.board.value[w.board.value.index("<svg") :]
            assert crowding(svg) == [], (players, w.session.state.turns)
    svg = table_svg(crowded_view())
    assert crowding(svg) == []
    assert "the very long desti" in svg and "…" in svg and "+6" in svg  # shortened, and the pile's overflow
    assert "more destinations: " in svg and ">and more below<" in svg
    assert re.search(r">Seat 0 ◀ to move</text>", svg)
    chips = re.findall(r'font-family="sans-serif">([a-z][A-Z])</text>', svg)
    assert "rE" in chips and "yB" in chips  # each chip names its colour and type
