"""Ride the Bus: what a guess compares with (``guess_reference``), and the view's fields, at the
edges of each part (before the first bus card, after the end), on scripted decks."""

from __future__ import annotations

import pytest
from rtb_script import NO_MATCH_PYRAMID, deal, new_state, say

from bus_lab.games.ride_the_bus.cards import parse_card
from bus_lab.games.ride_the_bus.phases import Part, RideTheBusPhase

ALL_WRONG = ["red", "higher", "inside", "hearts"]  # wrong on every card of ROWS (10 points each)
ROWS = [["2C", "2D", "3C", "3D"], ["4S", "4H", "5S", "5C"]]


def part1(state, players: int) -> None:
    for r in range(4):
        for seat in range(players):
            say(state, ALL_WRONG[r])
            deal(state, ROWS[seat][r])


def test_guess_reference_before_and_after_the_bus():
    """RTB-B-GUESS: the call compares with the card to beat; before the bus's first card there is
    none, and once the game is over no guess compares with anything."""
    state = new_state(2)
    part1(state, 2)
    assert state.guess_reference() == []  # the pyramid: nothing to guess
    for code in NO_MATCH_PYRAMID:
        deal(state, code)
    assert state.phase() is RideTheBusPhase.BUS_START and state.part is Part.BUS
    assert state.guess_reference() == []
    deal(state, "8C")
    assert state.guess_reference() == [parse_card("8C")]
    # five hits in a row: K above 8, 7 below K, A above 7, 2 below A, 6 above 2 (RTB-B-END)
    for call, code in [
        ("higher", "KC"),
        ("lower", "7C"),
        ("higher", "AC"),
        ("lower", "2H"),
        ("higher", "6D"),
    ]:
        say(state, call)
        assert state.pending_guess_right(parse_card(code)) is True
        deal(state, code)
    assert state.is_terminal() and state.part is Part.OVER
    assert state.view()["bus"]["card_to_beat"] == "6D" and state.view()["bus"]["streak"] == 5
    assert state.guess_reference() == []
    with pytest.raises(ValueError, match="no guess is waiting"):
        state.pending_guess_right(parse_card("9C"))


def test_guess_reference_before_the_first_ride():
    """RTB-SG-RIDE: the first ride starts on a fresh card; until it is flipped nothing compares."""
    state = new_state(1, mode="gauntlet")
    part1(state, 1)
    assert state.part is Part.RIDES and state.phase() is RideTheBusPhase.BUS_START
    assert state.guess_reference() == [] and state.view()["bus"]["card_to_beat"] is None
    deal(state, "9H")
    assert state.guess_reference() == [parse_card("9H")]


def test_a_ride_call_carries_the_ride_number_and_the_streak():
    """RTB-SG-RIDE: each call says which ride of the 10 per seat it is and the streak so far."""
    state = new_state(1, mode="gauntlet")
    part1(state, 1)
    deal(state, "9H")
    start = len(state.events())
    say(state, "higher")
    (call,) = [e for e in state.events()[start:] if e.rule == "RTB-SG-RIDE"]
    assert call.data == {
        "guess": "higher",
        "rider": 0,
        "card_to_beat": "9H",
        "ride": 1,
        "total_rides": 10,
        "streak": 0,
    }
    assert call.text == "Seat 0 calls higher than 9♥ (ride 1 of 10, streak 0)."
    deal(state, "KD")  # a hit
    say(state, "lower")
    deal(state, "KH")  # the same rank: a miss ends ride 1
    start = len(state.events())
    say(state, "lower")
    (call,) = [e for e in state.events()[start:] if e.rule == "RTB-SG-RIDE"]
    assert (call.data["ride"], call.data["streak"], call.data["card_to_beat"]) == (2, 0, "KH")
    assert state.view()["gauntlet"]["ride"] == 2 and state.view()["gauntlet"]["best"] == [1]


@pytest.mark.parametrize("bad", [True, False, "7H", 1.0, None])
def test_a_label_of_something_that_is_not_an_action(bad):
    state = new_state(2)
    assert state.action_to_string(bad) == f"<not an action: {bad!r}>"
