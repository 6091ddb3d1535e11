"""Ride the Bus positions: the README's example, exact guess odds over the unseen cards, where a
position can be taken, and each kind of impossible position with its message. The round trip at
every position of seeded games of every option set is in ``test_positions.py``."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

import bus_lab
from bus_lab.engine import PositionError
from bus_lab.engine.session import Session
from bus_lab.games.ride_the_bus import cards as C
from bus_lab.games.ride_the_bus.moves import BLACK, HIGHER, INSIDE, LOWER, OUTSIDE, RED
from bus_lab.games.ride_the_bus.odds import guess_odds
from bus_lab.games.ride_the_bus.positions import EXAMPLE

#: Part 1, question 3 for seat 1 of three: seat 0 has answered it (three cards), seats 1 and 2 not.
QUESTION_3 = {
    "phase": "guess",
    "question": 3,
    "seat": 1,
    "rows": [["7H", "KS", "2D"], ["4C", "QH"], ["7S", "5D"]],
    "points": [5, 3, 4],  # questions 1 and 2 for all three (3 each), question 3 for seat 0: 12
    "pyramid": [None] * 10,
    "spots": None,
    "spot": None,
    "discard": [],
    "bus": None,
}


def _rtb(**params):
    return bus_lab.load_game("ride_the_bus", players=3, **params)


def _error(base, change, match, **params):
    pos = copy.deepcopy(base)
    change(pos)
    with pytest.raises(PositionError, match=match):
        _rtb(**params).state_from_position(pos)


def test_the_readme_example_a_seven_makes_two_seats_hand_out_points():
    state = _rtb().state_from_position(EXAMPLE)
    assert state.is_chance_node() and state.phase().value == "flip"
    # 12 cards in the rows, nothing discarded: 40 cards left, each 1/40
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 52 - 12 and set(outcomes.values()) == {Fraction(1, 40)}
    state.apply_action(state.string_to_action("7D"))
    assert [e.data["seat"] for e in state.events() if e.rule == "RTB-P-MATCH"] == [0, 2]
    assert state.phase().value == "give" and [g["giver"] for g in state.view()["gives"]] == [0, 2]
    state.apply_action(state.string_to_action("give to seat 1"))
    state.apply_action(state.string_to_action("give to seat 1"))
    assert state.returns() == [12, 9 + 1 + 1, 11]  # row 1 is worth 1 point a card
    assert state.view()["rows"][0] == ["KS", "2D", "9C"] and state.view()["discard"] == ["7H", "7S", "7D"]
    assert state.position()["pyramid"][:2] == ["7D", None]


def test_guess_odds_from_a_position_count_the_unseen_cards():
    state = _rtb().state_from_position(QUESTION_3)
    seen = {C.parse_card(c) for row in QUESTION_3["rows"] for c in row}
    unseen = [c for c in C.DECK if c not in seen]
    assert len(unseen) == 52 - 7
    # seat 1's row is 4C, QH: inside is a 5 … J, strictly
    inside = sum(1 for c in unseen if 2 < C.rank(c) < 10)  # ranks 5..J are indexes 3..9
    outside = sum(1 for c in unseen if C.rank(c) < 2 or C.rank(c) > 10)
    assert guess_odds(state) == {INSIDE: Fraction(inside, 45), OUTSIDE: Fraction(outside, 45)}
    # 5-J: 7 ranks x 4 = 28, less 7H, 7S, 5D seen; 2, 3, K, A: 16, less KS, 2D
    assert (inside, outside) == (25, 14)


def test_guess_odds_at_question_1_and_2_from_a_position():
    pos = copy.deepcopy(QUESTION_3)
    pos.update(question=1, seat=0, rows=[[], [], []], points=[0, 0, 0])
    state = _rtb().state_from_position(pos)
    assert guess_odds(state) == {RED: Fraction(1, 2), BLACK: Fraction(1, 2)}
    pos.update(question=2, seat=2, rows=[["AH", "KH"], ["AS", "2C"], ["7D"]], points=[3, 1, 3])
    state = _rtb(ties="win").state_from_position(pos)
    # 52 - 5 seen; a 7 ties and wins both ways (two 7s left of 4, one is 7D itself: three)
    higher = sum(1 for c in range(52) if C.rank(c) >= 5) - 4  # 8..A and 7s, less AH KH AS and 7D
    lower = sum(1 for c in range(52) if C.rank(c) <= 5) - 2  # 2..7, less 2C and 7D
    assert guess_odds(state) == {HIGHER: Fraction(higher, 47), LOWER: Fraction(lower, 47)}


def test_a_session_starts_at_a_part_1_question():
    session = Session(_rtb(), seed=3, bots="random", start=QUESTION_3)
    assert session.state.current_player() == 1
    session.run_to_end(max_steps=400)
    assert session.state.is_terminal()
    assert session.goto(0).position() == QUESTION_3


def test_where_a_position_is_taken():
    state = _rtb().state_from_position(QUESTION_3)
    state.apply_action(INSIDE)
    with pytest.raises(PositionError, match=r"start of a Part 1 question .* the game is at phase 'deal'"):
        state.position()
    state = _rtb().state_from_position(EXAMPLE)
    state.apply_action(state.string_to_action("7D"))
    with pytest.raises(PositionError, match=r"the game is at phase 'give'"):
        state.position()


#: The higher/lower bus: seat 1 rides with a streak of 2 against the 9D (RTB-B-GUESS).
ON_THE_BUS = {
    "phase": "bus_guess",
    "question": None,
    "seat": None,
    "rows": [["KS"], ["4C", "QH", "JD"], ["5D"]],
    "points": [14, 16, 15],
    "pyramid": ["7D", "2C", "3C", "4D", "KH", "KD", "5S", "6S", "8S", "JS"],
    "spots": None,
    "spot": None,
    "discard": ["7H", "7S", "7D", "2C", "3C", "4D", "2D", "KH", "KD", "5S", "6S", "8S", "9C", "JS", "AC", "8H",
                "3D", "TD"],
    "bus": {"rider": 1, "card_to_beat": "9D", "cards": ["3D", "TD", "9D"], "streak": 1, "best_streak": 1,
            "guesses": 2, "run": [], "rides": 0, "ride_best": [0, 0, 0]},
}  # fmt: skip


def test_a_bus_ride_from_a_position():
    state = _rtb().state_from_position(ON_THE_BUS)
    assert state.position() == ON_THE_BUS
    assert state.current_player() == 1
    assert state.status() == "Seat 1 on the bus: higher or lower than 9♦? Streak 1 of 5, guess 3 of 40."
    unseen = [
        c
        for c in C.DECK
        if C.card_code(c) not in {*sum(ON_THE_BUS["rows"], []), *ON_THE_BUS["discard"], "9D"}
    ]
    higher = sum(1 for c in unseen if C.rank(c) > C.rank(C.parse_card("9D")))
    assert guess_odds(state)[HIGHER] == Fraction(higher, len(unseen))


def test_impossible_buses():
    _error(
        ON_THE_BUS,
        lambda p: p["bus"].update(rider=0),
        r"field bus\.rider: seat 0 has 1 cards, but the rider has the longest row",
    )
    _error(
        ON_THE_BUS,
        lambda p: p["bus"].update(card_to_beat="TD"),
        r"field bus\.card_to_beat: TD is on the table twice",
    )
    _error(
        ON_THE_BUS,
        lambda p: p["bus"].update(card_to_beat="QD"),
        r"field bus\.card_to_beat: the last card of bus\.cards",
    )
    _error(
        ON_THE_BUS,
        lambda p: p["bus"].update(streak=5, best_streak=5),
        r"field bus\.streak: a streak of 5 has got off the bus",
    )
    _error(
        ON_THE_BUS,
        lambda p: p["bus"].update(best_streak=0),
        r"field bus\.best_streak: at least the streak now",
    )
    _error(
        ON_THE_BUS,
        lambda p: p["bus"].update(guesses=3),
        r"field bus\.cards: 3 cards, but a first flip and 3 calls flip 4",
    )
    _error(ON_THE_BUS, lambda p: p["bus"].update(rides=1), r"field bus\.rides: rides are the solo gauntlet's")
    _error(ON_THE_BUS, lambda p: p.update(bus=None), r"field bus: the bus, once it has started")
    _error(
        ON_THE_BUS, lambda p: p["pyramid"].__setitem__(9, None), r"field pyramid: the bus starts once all 10"
    )
    _error(
        ON_THE_BUS,
        lambda p: p.update(phase="qb_guess"),
        r"field phase: the pyramid board rides the higher/lower bus",
    )
    _error(
        ON_THE_BUS,
        lambda p: p.update(phase="bus_guess"),
        r"field phase: the questions bus has no higher/lower call",
        bus="questions",
    )


def test_a_gauntlet_ride_goes_to_the_seat_whose_turn_it_is():
    pos = {
        "phase": "bus_guess", "question": None, "seat": None,
        "rows": [["7H", "KS", "2D", "9C"], ["4C", "QH", "JD", "3S"]],
        "points": [4, 16], "pyramid": None, "spots": None, "spot": None, "discard": ["3D"],
        "bus": {"rider": 0, "card_to_beat": "TD", "cards": ["3D", "TD"], "streak": 0, "best_streak": 1,
                "guesses": 1, "rides": 1, "run": [], "ride_best": [0, 1]},
    }  # fmt: skip
    game = bus_lab.load_game("ride_the_bus", players=2, mode="gauntlet")
    state = game.state_from_position(pos)
    assert state.status() == "Seat 0, ride 2 of 20: higher or lower than 10♦? Streak 0 of 5."
    pos["bus"]["rider"] = 1
    with pytest.raises(PositionError, match=r"field bus\.rider: after 1 rides in the order \[1, 0\]"):
        game.state_from_position(pos)


def test_missing_keys_wrong_types_and_unknown_codes():
    _error(
        EXAMPLE,
        lambda p: p.pop("rows"),
        r"Ride the Bus position, field rows: is missing \(it should be a list",
    )
    _error(EXAMPLE, lambda p: p.update(points=[1, 2]), r"field points: must be a list of exactly 3 entries")
    _error(EXAMPLE, lambda p: p["points"].__setitem__(0, "3"), r"field points\[0\]: must be a whole number")
    _error(
        EXAMPLE,
        lambda p: p["rows"][1].__setitem__(0, "1C"),
        r"field rows\[1\]\[0\]: must be a card code such as 'TD'",
    )
    _error(
        QUESTION_3,
        lambda p: p.update(seat=3),
        r"field seat: must be null or a whole number from 0 to 2, not 3",
    )
    _error(
        EXAMPLE, lambda p: p.update(phase="bus"), r"field phase: must be one of 'guess', 'flip', 'spot_flip'"
    )
    _error(EXAMPLE, lambda p: p.update(extra=1), r"field extra: is not a field of a Ride the Bus position")
    _error(
        EXAMPLE, lambda p: p["rows"][0].append("3H"), r"field rows\[0\]: must be a list of at most 4 entries"
    )


def test_impossible_tables():
    _error(
        EXAMPLE,
        lambda p: p["rows"][2].__setitem__(0, "7H"),
        r"field rows\[2\]\[0\]: 7H is on the table twice \(also at rows\[0\]\[0\]\)",
    )
    _error(
        QUESTION_3,
        lambda p: p["rows"][1].append("2C"),
        r"field rows\[1\]: 3 cards, but at question 3 for seat 1 this seat has answered 2 questions",
    )
    _error(
        QUESTION_3,
        lambda p: p.update(points=[5, 3, 5]),
        r"field points: 13 points in all, but the questions answered put 12 at stake",
    )
    _error(QUESTION_3, lambda p: p.update(discard=["2C"]), r"field discard: nothing is discarded in Part 1")
    _error(
        EXAMPLE,
        lambda p: p.update(points=[0, 0, 0]),
        r"field points: 0 points in all, but Part 1 alone hands out 10 per seat \(30\)",
    )
    _error(
        EXAMPLE,
        lambda p: p["pyramid"].__setitem__(4, "2C"),
        r"field pyramid: 1 cards flipped, so spots \[0\]",
    )
    _error(
        EXAMPLE,
        lambda p: p["pyramid"].__setitem__(0, "2C"),
        r"field pyramid\[0\]: 2C was flipped, so it is in the discard pile",
    )
    _error(
        EXAMPLE,
        lambda p: p.update(spots=[[]] * 8),
        r"field spots: the pyramid board has no Give & Take spots: use null",
    )
    _error(
        EXAMPLE,
        lambda p: p.update(phase="spot_flip"),
        r"field phase: the pyramid board has no Give & Take spot",
    )
    _error(EXAMPLE, lambda p: p.update(question=1), r"field question: null after Part 1")
    _error(QUESTION_3, lambda p: p.update(question=None), r"field question: a whole number in Part 1")
    # played cards stay in their row: a Part 2 row keeps its four cards
    _error(
        EXAMPLE,
        lambda p: p["rows"][0].pop(),
        r"field rows\[0\]: 3 cards, but played cards stay in their row",
        played_cards="stay",
    )
    # all 52 cards on the table: the discard pile would have been reshuffled
    everything = [
        c for c in (C.card_code(x) for x in C.DECK) if c not in {x for r in EXAMPLE["rows"] for x in r}
    ]
    _error(EXAMPLE, lambda p: p.update(discard=everything), r"field discard: no card is left to draw")


GIVE_AND_TAKE = {
    "phase": "spot_flip",
    "question": None,
    "seat": None,
    "rows": [["7H", "KS"], ["4C"], ["7S", "5D", "AC", "8H"]],
    "points": [12, 9, 13],
    "pyramid": None,
    "spots": [["2S"], ["3D", "9D"], [], [], [], [], [], []],
    "spot": 1,
    "discard": ["2S", "2D", "9C", "QH", "JD", "3S", "3D"],
    "bus": None,
}


def test_give_and_take_spot_flip_and_its_checks():
    game = _rtb(board="give_and_take")
    state = game.state_from_position(GIVE_AND_TAKE)
    assert state.position() == GIVE_AND_TAKE
    assert state.status() == "Flip the Take spot of row 1."
    assert len(state.chance_outcomes()) == 52 - 7 - 7
    state.apply_action(state.string_to_action("7C"))  # seats 0 and 2 take 1 point for their sevens
    assert state.returns() == [13, 9, 14]
    pos = copy.deepcopy(GIVE_AND_TAKE)
    pos["spots"][0] = []
    with pytest.raises(PositionError, match=r"field spots\[0\]: spot 1 is flipped now, so spot 0 was played"):
        game.state_from_position(pos)
    pos = copy.deepcopy(GIVE_AND_TAKE)
    pos["spots"][3] = ["TC"]
    with pytest.raises(
        PositionError, match=r"field spots\[3\]: spot 1 is flipped now, so spot 3 is not flipped"
    ):
        game.state_from_position(pos)
    pos = copy.deepcopy(GIVE_AND_TAKE)
    pos["rows"] = [[], [], ["7S"]]
    with pytest.raises(PositionError, match=r"field rows: 1 seat holds cards: Part 2 ends then"):
        game.state_from_position(pos)
    pos = copy.deepcopy(GIVE_AND_TAKE)
    pos["pyramid"] = [None] * 10
    with pytest.raises(PositionError, match=r"field pyramid: the Give & Take board has no pyramid: use null"):
        game.state_from_position(pos)


def test_more_cards_twice_and_missing_bus_keys():
    _error(
        ON_THE_BUS,
        lambda p: p["discard"].append("KS"),
        r"field discard\[18\]: KS is on the table twice \(also at rows\[0\]\[0\]\)",
    )
    _error(ON_THE_BUS, lambda p: p["discard"].append("ZZ"), r"field discard\[18\]: must be a card code")
    _error(
        ON_THE_BUS,
        lambda p: p["bus"].pop("streak"),
        r"field bus\.streak: is missing \(it should be a whole number",
    )
    _error(
        ON_THE_BUS,
        lambda p: p["bus"].update(rider=-1),
        r"field bus\.rider: must be a whole number from 0 to 2",
    )
    _error(EXAMPLE, lambda p: p.update(bus=ON_THE_BUS["bus"]), r"field bus: null before the bus")
    _error(ON_THE_BUS, lambda p: p.update(bus="x"), r"field bus: must be null or the bus: .*, not 'x'")
    _error(ON_THE_BUS, lambda p: p["bus"].update(x=1), r"field bus\.x: is not a field of the bus")
