"""Ride the Bus: the facts each event carries (``Event.data``) and the view's fields, worked out by
hand from the rules on scripted decks (the sentences are made from these facts alone)."""

from __future__ import annotations

from rtb_script import NO_MATCH_PYRAMID, deal, events_since, new_state, say

from bus_lab.games.ride_the_bus.narrate import narrate
from bus_lab.games.ride_the_bus.state import CHANCE_NODES

# Part 1 rows that make every answer of ALL_WRONG wrong (see test_ride_the_bus_rules.py).
ALL_WRONG = ["red", "higher", "inside", "hearts"]
ROWS = [["2C", "2D", "3C", "3D"], ["4S", "4H", "5S", "5C"]]


def questions_bus():
    """Two players, every Part 1 answer wrong (10 points each), no pyramid match: Seat 0 rides the
    questions bus (4 cards each, 10 points each: the earlier seat)."""
    state = new_state(2, bus="questions")
    for r in range(4):
        for seat in range(2):
            say(state, ALL_WRONG[r])
            deal(state, ROWS[seat][r])
    for code in NO_MATCH_PYRAMID:
        deal(state, code)
    return state


def test_chance_nodes_are_the_draws():
    assert CHANCE_NODES == ("deal", "flip", "spot_flip", "bus_start", "bus_deal", "qb_deal")


def test_questions_bus_answers_carry_the_rider_the_run_and_the_guess_count():
    """RTB-QB-ORDER / RTB-QB-COMPARE: Q1 compares with nothing, Q2 with the run's first card, Q3
    with its first two; each answer is one of the 40 guesses (RTB-QB-END)."""
    state = questions_bus()
    start = len(state.events())
    say(state, "red")
    (q1,) = events_since(state, start, "RTB-QB-ORDER")
    assert q1.data == {
        "guess": "red",
        "question": 1,
        "rider": 0,
        "against": [],
        "number": 1,
        "max_guesses": 40,
    }
    deal(state, "8H")
    say(state, "higher")
    deal(state, "QD")
    start = len(state.events())
    assert state.status() == (
        "Seat 0 on the questions bus, Q3: inside or outside the run's first two cards 8♥ and Q♦? "
        "Guess 3 of 40."
    )
    say(state, "inside")
    (q3,) = events_since(state, start, "RTB-QB-COMPARE")
    assert q3.data["against"] == ["8H", "QD"] and q3.data["number"] == 3 and q3.data["question"] == 3
    assert q3.text == narrate(q3) and "(against 8♥ and Q♦), guess 3 of 40" in q3.text
    assert state.view()["bus"]["streak"] == 2
    deal(state, "KC")  # K is outside 8..Q: a miss
    (miss,) = events_since(state, start, "RTB-QB-MISS")
    assert miss.data == {
        "card": "KC",
        "hit": False,
        "cards": ["8H", "QD", "KC"],
        "question": 3,
        "rider": 0,
    }
    view = state.view()
    assert view["bus"]["streak"] == 0 and view["bus"]["best_streak"] == 2 and view["bus"]["question"] == 1


def test_questions_bus_status_on_q2_names_the_runs_first_card():
    state = questions_bus()
    say(state, "black")
    deal(state, "8S")
    assert state.status() == (
        "Seat 0 on the questions bus, Q2: higher or lower than the run's first card 8♠? Guess 2 of 40."
    )
    say(state, "lower")
    deal(state, "3H")
    say(state, "outside")
    deal(state, "AD")
    assert state.status() == "Seat 0 on the questions bus, Q4: which suit? Guess 4 of 40."
