"""Headless tests of ``BusAndStopWidget``: build it, make moves as the page sends them, read the frame.

Positions that would take many moves to reach are arranged by moving cards from the deck into a
bus of the session's current state (every card stays somewhere), then redrawing.
"""

from __future__ import annotations

import random
import re

import pytest
from widget_helpers import widget_count

from bus_lab import ParameterError
from bus_lab.games.bus_and_stop import BusAndStopPhase
from bus_lab.games.bus_and_stop.render import table_html
from bus_lab.widgets import BusAndStopWidget

STOP = ["YB", "GT", "BM", "PS", "RB"]


def place(state, seat: int, *codes: str) -> None:
    for code in codes:
        k = state.sheet.parse(code)
        assert state.deck[k] > 0
        state.deck[k] -= 1
        state.bus[seat][k] += 1


def tap(w, move: dict) -> None:
    """Send ``move`` (a frame entry) exactly as the page does when it is tapped."""
    w.handle_message({"type": "move", "action": move["action"], "seq": w.frame["seq"]})
    assert w.last_error is None, w.message_text


def moves_at(w, key: str) -> list[dict]:
    return [m for m in w.frame["moves"] if m["path"][:1] == [key]]


def panel(w) -> list[str]:
    """The side panel's choices (moves with no target on the board)."""
    return [m["choice"] for m in w.frame["moves"] if not m["path"]]


def log_rules(w) -> list[str]:
    return [e["rule"] for e in w.frame["log"]["events"]]


def test_a_four_player_game_with_one_human_plays_to_the_end():
    """BAS-TURN … BAS-WIN: seat 0 taps the board (a stop colour, a stack then a count, a passenger)
    or a side choice; the bots step; the game ends and the scores shown are the engine's."""
    w = BusAndStopWidget(players=4, humans=(0,), seed=12)
    rng = random.Random(3)
    kinds = set()
    for _ in range(3000):
        state = w.session.state
        if state.is_terminal():
            break
        if w.session.waiting_for_human():
            assert state.current_player() == 0 and w.frame["to_move"] == 0
            kinds.add(state.decision_kind())
            moves = w.frame["moves"]
            assert sorted(m["action"] for m in moves) == sorted(state.legal_actions())
            drops = [m for m in moves if m["kind"] == "drop_off"]
            tap(w, rng.choice(drops if drops and rng.random() < 0.6 else moves))
        else:
            assert w.frame["moves"] == [] and w.frame["controls"]["can_step"]
            w.step()
        assert w.last_error is None, w.message_text
    state = w.session.state
    assert state.is_terminal() and "Game over" in w.frame["heading"] and "BAS-WIN" in w.frame["heading"]
    assert BusAndStopPhase.TURN in kinds and state.claimed[0], kinds  # seat 0 dropped off at least once
    rows = w.frame["scores"]["rows"]
    assert [r["points"] for r in rows] == state.returns() == [s["points"] for s in w.frame["seats"]]
    assert w.frame["scores"]["winners"] == state.winners()
    assert "BAS-SCORE-DEST" in rows[0]["cells"][1]
    assert "BAS-WIN" in log_rules(w)
    assert not w.frame["controls"]["can_step"] and w.frame["moves"] == []


def test_a_stop_colour_that_does_not_fit_says_why():
    """BAS-PICK-LIMIT: with 9 passengers aboard, a colour with two non-seniors at the stop cannot be
    tapped and says why; a colour of seniors only can (BAS-SENIOR); a colour absent from the stop is
    not drawn at all."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=["YB", "YM", "GT", "BE", "BE"])
    w.step()
    assert not w.session.waiting_for_human()
    w.session.run_to_end()  # deals the stop
    place(w.session.state, 0, "PB", "PB", "PB", "PB", "PT", "PT", "PT", "RS", "RS")
    w.refresh()
    picks = {m["path"][0]: m for m in w.frame["moves"] if m["kind"] == "pick_up"}
    assert sorted(picks) == ["stop:blue", "stop:green"]
    assert all(m["choice"] is None for m in picks.values())  # one tap picks up
    blocked = w.frame["blocked"]
    assert "BAS-PICK-LIMIT" in blocked["stop:yellow"] and "2 passengers" in blocked["stop:yellow"]
    assert "stop:purple" not in blocked and "stop:red" not in blocked  # nothing there to tap
    assert "2 seniors beside the bus, +2" in picks["stop:blue"]["hint"]
    assert "0 blue passengers board (9 of 10 seats taken)" in picks["stop:blue"]["hint"]
    tap(w, picks["stop:blue"])
    assert len(w.session.state.seniors[0]) == 2


def test_drop_off_is_a_stack_then_a_count_then_the_passengers():
    """BAS-DROP-TOP, BAS-DROP-TYPE, BAS-DROP-CLAIM: only the stacks a drop-off is possible at can be
    tapped; their count buttons say the points; the passengers are then tapped in the bus."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=STOP)
    w.session.run_to_end()
    place(w.session.state, 0, "YB", "YB", "GB", "BB", "PB", "RM")
    w.refresh()
    drops = [m for m in w.frame["moves"] if m["kind"] == "drop_off"]
    assert sorted({m["path"][0] for m in drops}) == ["stack:multicoloured", "stack:office"]
    office = moves_at(w, "stack:office")
    # the office's top card: 4/5/6/7 passengers for 6/10/14/20 points (BAS-COMP-SIDES, known)
    assert [(m["choice"], m["hint"].split(":")[0]) for m in office] == [
        ("4 passengers", "+6 points"),
        ("5 passengers", "+10 points"),
    ]
    assert "BAS-DROP-TYPE" in w.frame["blocked"]["stack:park"]
    tap(w, office[0])
    assert w.session.state.phase() is BusAndStopPhase.CHOOSE
    assert [m["path"] for m in w.frame["moves"]] == [["bus:0:YB"], ["bus:0:GB"], ["bus:0:BB"], ["bus:0:PB"]]
    assert all("BAS-DROP-TYPE" in m["hint"] for m in w.frame["moves"])
    assert "BAS-DROP-TYPE" in w.frame["blocked"]["bus:0:RM"]  # a mother does not go to the office
    while w.session.state.phase() is BusAndStopPhase.CHOOSE:
        tap(w, w.frame["moves"][0])
    view = w.session.state.view(None)
    assert view["buses"][0]["claimed"] == [{"stack": "office", "count": 4, "points": 6}]
    assert w.frame["seats"][0]["points"] == 6
    assert "BAS-DROP-CLAIM" in log_rules(w)


def test_skedaddle_is_a_tap_on_a_matching_passenger_or_no_skedaddle():
    """BAS-SKEDADDLE: when the greedy bot at seat 0 drops off at the office, human seat 1 may tap a
    matching passenger in its bus (+1) or choose "No skedaddle"; a passenger that does not match
    says why."""
    w = BusAndStopWidget(players=2, humans=(1,), deck=STOP)
    while w.session.state.is_chance_node():  # deal the stop, and stop before the bot's move
        w.session.step()
    state = w.session.state
    assert state.current_player() == 0 and state.phase() is BusAndStopPhase.TURN
    place(state, 0, "PB", "PB", "PB", "PB", "GB")
    place(state, 1, "YB", "RB", "YM")
    w.step()  # the bot drops 5 at the office (10 points)
    while not w.session.waiting_for_human():
        w.step()
    assert w.session.state.phase() is BusAndStopPhase.SKEDADDLE
    assert [m["path"] for m in w.frame["moves"]] == [["bus:1:YB"], ["bus:1:RB"], []]
    assert panel(w) == ["No skedaddle"]
    assert all(m["hint"].startswith("+1 point") for m in w.frame["moves"][:2])
    assert "BAS-SKEDADDLE" in w.frame["blocked"]["bus:1:YM"]
    assert "BAS-SKEDADDLE" in w.frame["heading"]
    tap(w, moves_at(w, "bus:1:RB")[0])
    state = w.session.state
    assert state.returns()[1] == 1 and state.current_player() == 1
    assert state.phase() is BusAndStopPhase.TURN and any(m["kind"] == "pick_up" for m in w.frame["moves"])


def test_unhappy_discards_are_taps_then_stop_discarding():
    """BAS-UNHAPPY: a human who can neither pick up nor drop off taps passengers in the bus to discard
    them (−1 each); "Stop discarding" appears after the first."""
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
    moves = w.frame["moves"]
    assert len(moves) == 10 and all(
        m["kind"] == "unhappy" and m["path"][0].startswith("bus:0:") for m in moves
    )
    assert all(m["hint"].startswith("−1 point") for m in moves)
    assert "BAS-UNHAPPY" in w.frame["heading"] and panel(w) == []
    tap(w, moves[0])
    assert panel(w) == ["Stop discarding"]
    tap(w, [m for m in w.frame["moves"] if not m["path"]][0])
    assert w.session.state.current_player() == 1 and len(w.session.state.unhappy[0]) == 1


def test_back_restores_the_moves_and_no_widget_is_made_per_step():
    """BAS-PICK-ALL: Back after a pick-up shows the same moves again; stepping a whole bot game
    creates no widgets."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=STOP)
    w.session.run_to_end()
    w.refresh()
    before = w.frame["moves"]
    tap(w, before[0])
    assert w.frame["moves"] != before
    while w.session.state.current_player() != 0 or w.session.state.is_chance_node():
        w.back()
    assert w.frame["moves"] == before
    demo = BusAndStopWidget(players=3, humans=(), bot="random", seed=4)
    count = widget_count()
    while not demo.session.state.is_terminal():
        demo.step()
    assert widget_count() == count


def test_targets_name_colours_in_words_and_the_view_has_letters():
    """BAS-COMP-PASSENGERS: the stop's targets are named by colour in words; every colour and type has
    its own letter (the board writes them on each passenger), so colour is never the only cue."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=STOP)
    w.session.run_to_end()
    w.refresh()
    view = w.frame["view"]
    assert [m["path"] for m in w.frame["moves"] if m["kind"] == "pick_up"] == [
        ["stop:yellow"],
        ["stop:green"],
        ["stop:blue"],
        ["stop:purple"],
        ["stop:red"],
    ]
    colour_codes = [c["code"] for c in view["colours"]]
    type_codes = [t["code"] for t in view["types"]]
    assert len(set(colour_codes)) == 5 and len(set(type_codes)) == 5
    assert all(m["hint"] for m in w.frame["moves"])


def test_final_round_offers_pass_and_bad_parameters_raise():
    """BAS-END-FINAL: in the final round a human may pass (a side choice); bad settings raise before
    anything is built."""
    w = BusAndStopWidget(players=2, humans=(0, 1), deck=STOP)
    w.session.run_to_end()
    state = w.session.state
    place(state, 0, "YT", "GT")
    place(state, 1, "RM", "RB", "BS")
    for s, n in ((1, 4), (2, 4), (3, 3)):  # eleven destination cards gone: seven left
        del state.stacks[s][:n]
    w.refresh()
    tennis = moves_at(w, "stack:tennis court")
    assert [m["choice"] for m in tennis] == ["2 passengers"]
    assert "the end is triggered [BAS-END-TRIGGER]" in tennis[0]["hint"]
    tap(w, tennis[0])  # the last tennis court card: six left, the end is triggered
    state = w.session.state
    assert state.stage == "final" and state.current_player() == 1
    assert panel(w) == ["Pass"]  # a drop-off (three colours at the multicoloured) or a pass, no pick-up
    assert [m["kind"] for m in w.frame["moves"]] == ["drop_off", "pass"]
    assert all("BAS-END-FINAL" in w.frame["blocked"][f"stop:{c}"] for c in ("yellow", "green", "purple"))
    assert "Final round" in w.frame["heading"] and "BAS-END-FINAL" in w.frame["heading"]
    tap(w, w.frame["moves"][-1])  # pass; seat 0 (who triggered) has an empty bus: no final drop-off
    assert w.session.state.is_terminal()
    with pytest.raises(ParameterError, match="humans"):
        BusAndStopWidget(players=2, humans=(2,))
    with pytest.raises(ParameterError, match="players=5"):
        BusAndStopWidget(players=5)


def test_options_reach_the_game_and_the_sheet_panel():
    """BAS-END-FINAL, BAS-SCORE-EMPTY: the table options reach the game and are shown in words."""
    w = BusAndStopWidget(players=3, humans=(), final_round="full_turn", leftover_penalty=True, seed=1)
    assert w.frame["view"]["options"] == {
        "final_round": "full_turn",
        "leftover_penalty": True,
        "sheet": "built-in",
    }
    assert "final round: full turn, leftover penalty on" in w.table_settings()
    assert w.sheet_panel.body.value.startswith("<p>Table: 3 players")
    assert w.widget.children[0] is w.board


def test_state_draws_itself_as_html_and_text():
    """BAS-SETUP-STOP, BAS-SETUP-STACKS: a state shows the stop, the stacks and the buses, in HTML and text."""
    w = BusAndStopWidget(players=3, humans=(), seed=2)
    for _ in range(30):
        w.step()
    state = w.session.state
    page = state._repr_html_()
    assert page.startswith("<div class='bus-lab-bas'><svg") and state.status().split(":")[0] in page
    text = str(state)
    assert text.splitlines()[1].startswith("Stop: " + " ".join(state.view()["stop"]))
    assert all(f"Seat {s}:" in text for s in range(3)) and "office" in text


# -- the state's own drawing (State._repr_html_) stays readable: text size, nothing overlapping ----
from svg_layout import attributes, crowding, smallest_text_on_screen  # noqa: E402

from bus_lab.games.bus_and_stop.render import table_svg  # noqa: E402


def crowded_view() -> dict:
    """A four-seat view with every part as full as it gets: a full bus, ten seniors, fifteen
    skedaddled and seven unhappy passengers, nine destinations claimed, a long stack name, a card
    with ten counts, two lines of stacks and a drop-off under way."""
    w = BusAndStopWidget(players=4, humans=(), seed=3)
    for _ in range(60):
        w.session.step()
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


def test_the_state_drawing_text_is_classroom_size():
    """BAS-COMP-PASSENGERS: a state's own drawing is at most 900 px wide, no wider than its viewBox,
    and no text is smaller than 11 px on screen, at every table size, all game long."""
    for players in (2, 3, 4):
        w = BusAndStopWidget(players=players, humans=(), seed=players)
        for step in range(300):
            if step % 10 == 0 or w.session.state.is_terminal():
                page = table_html(w.session.state.view(None))
                svg = page[page.index("<svg") :]
                head = attributes(re.search(r"<svg [^>]*>", svg).group(0))
                assert (
                    float(head["width"]) <= 900 and head["viewBox"] == f"0 0 {head['width']} {head['height']}"
                )
                assert "max-width:100%" in head["style"] and "height:auto" in head["style"]
                assert smallest_text_on_screen(svg) >= 11, (players, step)
            if w.session.state.is_terminal():
                break
            w.session.step()
    assert smallest_text_on_screen(table_svg(crowded_view())) >= 11


def test_no_text_in_the_state_drawing_overlaps():
    """BAS-SENIOR, BAS-SKEDADDLE, BAS-UNHAPPY: in a state's own drawing the piles set aside are chips
    whose letters stay readable and nothing collides -- all game long, and on the most crowded table."""
    for players, seed in ((2, 5), (3, 1), (4, 3)):
        w = BusAndStopWidget(players=players, humans=(), seed=seed)
        while not w.session.state.is_terminal():
            w.session.step()
            assert crowding(table_svg(w.session.state.view(None))) == [], (players, w.session.state.turns)
    svg = table_svg(crowded_view())
    assert crowding(svg) == []
    assert "the very long desti" in svg and "…" in svg and "+6" in svg  # shortened, and the pile's overflow
    assert "more destinations: " in svg and ">and more below<" in svg
    assert re.search(r">Seat 0 ◀ to move</text>", svg)
    chips = re.findall(r'font-family="sans-serif">([a-z][A-Z])</text>', svg)
    assert "rE" in chips and "yB" in chips  # each chip names its colour and type
