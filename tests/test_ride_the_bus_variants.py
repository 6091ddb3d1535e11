"""Unit tests per rule of the Ride the Bus variants: the Give & Take board (``RTB-GT-…``), the
questions bus (``RTB-QB-…``) and the solo gauntlet (``RTB-SG-…``), plus the exact odds and the
best-odds bots on every variant.

Every scenario is played on a scripted deck: the tests apply the card actions themselves
(``state.apply_action(parse_card("7H"))``). Guesses are worked out here from the card ranks,
colours and suits, and every value asserted (points, rows, odds) is counted by hand from the
rules, not read back from the engine.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from rtb_script import (
    ALL_CODES,
    NO_MATCH_PYRAMID,
    RANKS,
    at_give,
    deal,
    events_since,
    give,
    new_state,
    rules_since,
    say,
)

from bus_lab import IllegalActionError, ParameterError, Session, load_game
from bus_lab.games.ride_the_bus import INSIDE, OUTSIDE, judge, parse_card
from bus_lab.games.ride_the_bus.moves import Give
from bus_lab.prob.ride_the_bus import guess_odds

SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
GUESS_WORDS = (
    "red",
    "black",
    "higher",
    "lower",
    "inside",
    "outside",
    "clubs",
    "diamonds",
    "hearts",
    "spades",
)
# Ten pyramid cards of ranks 9, T and J: none of the rows below holds those ranks.
ROWS_LOW = [["2C", "3C", "4C", "5C"], ["6S", "7S", "2S", "3S"]]  # ranks 2-7 only


# -- helpers: cards, worked out by hand ------------------------------------------------------------
def rank(code: str) -> int:
    return RANKS.index(code[0])


def is_red(code: str) -> bool:
    return code[1] in "DH"


def right_guess(number: int, before: list[str], code: str) -> str | None:
    """The guess that is right on question ``number`` (1-4) when ``code`` is dealt, ``before``
    being the cards compared against; ``None`` when no guess can be right (a tied rank)."""
    r = rank(code)
    if number == 1:
        return "red" if is_red(code) else "black"
    if number == 2:
        first = rank(before[0])
        return "higher" if r > first else "lower" if r < first else None
    if number == 3:
        lo, hi = sorted(rank(c) for c in before[:2])
        if lo < r < hi:
            return "inside"
        return "outside" if r < lo or r > hi else None
    return SUIT_WORDS[code[1]]


def wrong_guess(number: int, before: list[str], code: str) -> str:
    """A guess that is wrong on question ``number`` when ``code`` is dealt."""
    if number == 1:
        return "black" if is_red(code) else "red"
    if number == 2:
        return "lower" if rank(code) > rank(before[0]) else "higher"
    if number == 3:
        return "outside" if right_guess(3, before, code) == "inside" else "inside"
    return next(word for suit, word in SUIT_WORDS.items() if suit != code[1])


# -- helpers: acting ------------------------------------------------------------------------------
def labels(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def draw_pile(state, guess: str) -> list[str]:
    """The cards that can be drawn after ``guess`` (read from a copy; the state is unchanged)."""
    copy = state.clone()
    say(copy, guess)
    return [copy.action_to_string(a) for a in copy.legal_actions()]


def play_part1(state, rows, right=None, give_to=None) -> None:
    """Play Part 1: seat ``s`` is dealt ``rows[s][r]`` in round ``r`` and answers right exactly on
    the question numbers in ``right[s]`` (default: every answer wrong). Points of a right answer go
    to ``give_to[(seat, number)]`` (default: the next seat)."""
    n = len(rows)
    right = right or {}
    give_to = give_to or {}
    for r in range(4):
        for seat in range(n):
            assert state.current_player() == seat
            number, before, code = r + 1, rows[seat][:r], rows[seat][r]
            guess = (
                right_guess(number, before, code)
                if number in right.get(seat, ())
                else wrong_guess(number, before, code)
            )
            assert guess is not None
            say(state, guess)
            deal(state, code)
            if at_give(state):
                give(state, give_to.get((seat, number), (seat + 1) % n))


def resolve_gives(state, to: list[int]) -> None:
    """Hand out every pending give, the k-th one to seat ``to[k]``; all of them must be used."""
    for taker in to:
        assert at_give(state)
        give(state, taker)
    assert not at_give(state)


def to_questions_bus(**params):
    """Two players, all Part 1 answers wrong (10 points each), ten pyramid flips that match
    nobody: the questions bus starts with Seat 0 riding (4 cards each, 10 points each, earlier
    seat). 18 cards are out; 34 are left to draw."""
    state = new_state(2, bus="questions", **params)
    play_part1(state, ROWS_LOW)
    for code in NO_MATCH_PYRAMID:
        deal(state, code)
    return state


def qb_answer(state, guess: str, code: str) -> None:
    say(state, guess)
    deal(state, code)


def qb_used() -> list[str]:
    return [c for row in ROWS_LOW for c in row] + NO_MATCH_PYRAMID


def ride_hit(state) -> str:
    """The rider calls and is dealt a card that makes the call a hit (picked by rank)."""
    beat = state.view()["bus"]["card_to_beat"]
    pile = draw_pile(state, "higher")
    higher = sorted((c for c in pile if rank(c) > rank(beat)), key=rank)
    lower = sorted((c for c in pile if rank(c) < rank(beat)), key=rank)
    assert higher or lower
    if len(higher) >= len(lower):
        say(state, "higher")
        code = higher[0]
    else:
        say(state, "lower")
        code = lower[-1]
    deal(state, code)
    return code


def ride_miss(state) -> str:
    """The rider calls and is dealt a card that makes the call a miss (same rank or the wrong way)."""
    beat = state.view()["bus"]["card_to_beat"]
    pile = draw_pile(state, "higher")
    low = [c for c in pile if rank(c) <= rank(beat)]
    if low:
        say(state, "higher")
        code = low[0]
    else:
        say(state, "lower")
        code = pile[0]
    deal(state, code)
    return code


def ride(state, hits: int) -> None:
    """One whole ride of the gauntlet: ``hits`` hits, then a miss."""
    for _ in range(hits):
        ride_hit(state)
    ride_miss(state)


# == Give & Take board =============================================================================
GT_ROWS_3 = [["2C", "3C", "4C", "5C"], ["6S", "7S", "8S", "9S"], ["TS", "JS", "QS", "KS"]]


def to_give_and_take(rows, **params):
    state = new_state(len(rows), board="give_and_take", **params)
    play_part1(state, rows)
    assert state.returns() == [10] * len(rows)  # 1 + 2 + 3 + 4 wrong each
    return state


def test_rtb_gt_layout_eight_spots_give_then_take_drawn_when_their_turn_comes():
    """RTB-GT-LAYOUT: eight spots in four rows, each row a Give spot then a Take spot, played in
    order; no pyramid. Ruling: a spot's card is drawn from the whole draw pile when its turn
    comes (44 cards after Part 1 with two players, each 1/44)."""
    state = to_give_and_take(ROWS_LOW)
    view = state.view()
    assert view["phase"] == "give_and_take" and view["pyramid"] == []
    assert [s["kind"] for s in view["spots"]] == ["give", "take"] * 4
    assert [s["row"] for s in view["spots"]] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert all(s["cards"] == [] and not s["current"] for s in view["spots"])
    assert "RTB-GT-LAYOUT" in [e.rule for e in state.events()]
    assert state.is_chance_node() and view["draw_pile"] == 44
    rows = {c for row in ROWS_LOW for c in row}
    outcomes = state.chance_outcomes()
    assert sorted(state.action_to_string(a) for a, _ in outcomes) == sorted(set(ALL_CODES) - rows)
    assert {p for _, p in outcomes} == {Fraction(1, 44)}
    assert "Give spot of row 1" in state.status()
    # spot 1 (Give, row 1): 4H matches Seat 0's 4C only
    start = len(state.events())
    deal(state, "4H")
    spot_events = events_since(state, start, "RTB-GT-LAYOUT")
    assert [e.data["card"] for e in spot_events] == ["4H"] and spot_events[0].data["kind"] == "give"
    assert state.view()["spots"][0] == {
        "row": 1,
        "kind": "give",
        "points": 1,
        "cards": ["4H"],
        "current": True,
    }
    give(state, 1)
    # the next spot is the Take spot of row 1, drawn from the pile now: 43 cards left
    view = state.view()
    assert state.is_chance_node() and view["draw_pile"] == 43
    assert not view["spots"][0]["current"] and "Take spot of row 1" in state.status()
    deal(state, "6H")
    assert state.view()["spots"][1]["cards"] == ["6H"] and state.view()["spots"][1]["kind"] == "take"


def test_rtb_gt_reflip_nobody_holds_the_rank_flip_the_spot_again():
    """RTB-GT-REFLIP: a flipped rank nobody holds goes to the discard pile and the same spot is
    flipped again (a new card), until someone holds it; the spot keeps its row and kind."""
    state = to_give_and_take(ROWS_LOW)
    start = len(state.events())
    deal(state, "AH")  # nobody holds an ace
    assert rules_since(state, start).count("RTB-GT-REFLIP") == 1
    view = state.view()
    assert state.is_chance_node() and view["phase"] == "give_and_take"
    assert view["spots"][0]["cards"] == ["AH"] and view["discard"] == ["AH"]
    assert view["draw_pile"] == 43 and view["points"] == [10, 10]
    deal(state, "KD")  # nobody holds a king either
    assert state.view()["spots"][0]["cards"] == ["AH", "KD"] and state.view()["discard"] == ["AH", "KD"]
    start = len(state.events())
    deal(state, "4H")  # Seat 0 holds 4C: the Give spot of row 1 is resolved
    assert "RTB-GT-REFLIP" not in rules_since(state, start)
    assert "RTB-GT-GIVE" in rules_since(state, start)
    give(state, 1)
    view = state.view()
    assert view["points"] == [10, 11]  # row 1: 1 point for one card
    assert view["rows"][0] == ["2C", "3C", "5C"]
    assert view["spots"][0]["cards"] == ["AH", "KD", "4H"] and view["spots"][1]["cards"] == []
    assert view["discard"] == ["AH", "KD", "4C", "4H"]


def test_rtb_gt_reflip_ruling_part_ends_when_no_card_left_can_match():
    """RTB-GT-REFLIP ruling: before each reflip, if no card in the draw or discard pile has a rank
    a player still holds, Part 2 ends. Seat 0 holds all four 2s and Seat 1 all four 3s, so after
    a first flip that matches nobody, no card anywhere else can match: straight to the bus."""
    rows = [["2C", "2D", "2H", "2S"], ["3C", "3D", "3H", "3S"]]
    state = to_give_and_take(rows)
    start = len(state.events())
    deal(state, "4C")  # the first flip of a spot is made (the ruling is checked before reflips)
    reflip = events_since(state, start, "RTB-GT-REFLIP")
    assert len(reflip) == 1 and "ends" in reflip[0].text
    assert "RTB-GT-END" not in rules_since(state, start)
    view = state.view()
    assert view["phase"] == "bus" and view["spots"][0]["cards"] == ["4C"]
    assert all(spot["cards"] == [] for spot in view["spots"][1:])
    assert view["points"] == [10, 10] and view["rows"] == rows
    assert view["bus"]["rider"] == 0  # 4 cards and 10 points each: the earlier seat (RTB-B-RIDER)
    assert state.is_chance_node() and view["draw_pile"] == 52 - 8 - 1


def test_rtb_gt_reflip_ruling_goes_on_while_a_held_rank_is_still_in_the_pile():
    """RTB-GT-REFLIP ruling: while the draw pile still has a card of a held rank, a miss is
    flipped again (here 3S and then the 4s are still in the pile)."""
    rows = [["2C", "2D", "2H", "2S"], ["3C", "3D", "3H", "4S"]]
    state = to_give_and_take(rows)
    deal(state, "5C")  # nobody holds a five; 3S, 4C, 4D, 4H are in the pile: flip again
    assert state.view()["phase"] == "give_and_take" and state.is_chance_node()
    deal(state, "3S")  # Give spot of row 1: Seat 1 plays 3C, 3D, 3H: three choices of 1 point
    resolve_gives(state, [0, 0, 0])
    assert state.view()["points"] == [13, 10] and state.view()["rows"][1] == ["4S"]
    start = len(state.events())
    deal(state, "6C")  # Take spot of row 1: nobody holds a six; 4C, 4D, 4H left: flip again
    assert [e.rule for e in events_since(state, start, "RTB-GT-REFLIP")] == ["RTB-GT-REFLIP"]
    assert state.view()["phase"] == "give_and_take"
    deal(state, "4D")  # Seat 1 plays 4S and takes 1 point; Seat 1 has no card left
    view = state.view()
    assert view["points"] == [13, 11] and view["rows"] == [["2C", "2D", "2H", "2S"], []]
    assert view["phase"] == "bus"  # RTB-GT-END: only one player still has cards


def test_rtb_gt_give_one_choice_per_card_in_seat_order():
    """RTB-GT-GIVE: on a Give spot everyone holding the rank plays those cards, and picks another
    player to take each card's points (ruling: one choice per card played), in seat order."""
    rows = [["2C", "2D", "5C", "6C"], ["2H", "7S", "8S", "9S"], ["TS", "JS", "QS", "KS"]]
    state = to_give_and_take(rows)
    start = len(state.events())
    deal(state, "2S")
    plays = events_since(state, start, "RTB-GT-GIVE")
    assert [(e.data["seat"], e.data["cards"]) for e in plays] == [(0, ["2C", "2D"]), (1, ["2H"])]
    assert state.view()["rows"] == [["5C", "6C"], ["7S", "8S", "9S"], ["TS", "JS", "QS", "KS"]]
    assert state.view()["gives"] == [{"giver": 0, "points": 1}] * 2 + [{"giver": 1, "points": 1}]
    # Seat 0 decides twice, then Seat 1 once; nobody may give to themselves
    assert state.current_player() == 0 and state.legal_actions() == [Give(1).action, Give(2).action]
    with pytest.raises(IllegalActionError):
        give(state, 0)
    give(state, 1)
    assert state.current_player() == 0 and state.view()["points"] == [10, 11, 10]
    give(state, 2)
    assert state.current_player() == 1 and state.legal_actions() == [Give(0).action, Give(2).action]
    give(state, 0)
    assert state.view()["points"] == [11, 11, 11]
    assert state.is_chance_node() and state.view()["gives"] == []
    handed = [
        (e.data["giver"], e.data["taker"], e.data["points"])
        for e in events_since(state, start, "RTB-GT-GIVE")
        if "taker" in e.data
    ]
    assert handed == [(0, 1, 1), (0, 2, 1), (1, 0, 1)]
    assert {
        "label": "Part 2: Give spot points given by others",
        "rule": "RTB-GT-GIVE",
        "points": 1,
        "times": 1,
    } in state.score_breakdown(2)


def test_rtb_gt_take_players_take_the_points_themselves():
    """RTB-GT-TAKE: on a Take spot everyone holding the rank plays those cards and takes the
    points themselves: no decision, the next spot follows at once."""
    rows = [["2C", "2D", "5C", "6C"], ["2H", "7S", "8S", "9S"], ["TS", "JS", "QS", "KS"]]
    state = to_give_and_take(rows)
    deal(state, "5D")  # Give spot, row 1: Seat 0 plays 5C
    resolve_gives(state, [2])
    start = len(state.events())
    deal(state, "2S")  # Take spot, row 1: Seat 0 plays 2C, 2D and takes 2; Seat 1 plays 2H and takes 1
    takes = events_since(state, start, "RTB-GT-TAKE")
    assert [(e.data["seat"], e.data["cards"]) for e in takes] == [(0, ["2C", "2D"]), (1, ["2H"])]
    view = state.view()
    assert view["points"] == [12, 11, 11]
    assert view["rows"] == [["6C"], ["7S", "8S", "9S"], ["TS", "JS", "QS", "KS"]]
    assert state.is_chance_node() and view["gives"] == [] and "Give spot of row 2" in state.status()
    assert {
        "label": "Part 2: Take spot points",
        "rule": "RTB-GT-TAKE",
        "points": 2,
        "times": 1,
    } in state.score_breakdown(0)


# The eight spots of GT_ROWS_3, each matching one card: (card flipped, seat playing, taker of a Give)
EIGHT_SPOTS = [
    ("2H", 0, 1),
    ("6H", 1, None),
    ("3H", 0, 2),
    ("7H", 1, None),
    ("TH", 2, 0),
    ("4H", 0, None),
    ("JH", 2, 1),
    ("8H", 1, None),
]


@pytest.mark.parametrize(
    "row_points, worth, final",
    [
        # escalating: row r is worth r per card. Seat 0: 10 + 3 (given, row 3) + 3 (taken, row 3);
        # Seat 1: 10 + 1 (given) + 1 + 2 (taken) + 4 (given) + 4 (taken); Seat 2: 10 + 2 (given).
        ("escalating", [1, 1, 2, 2, 3, 3, 4, 4], [16, 22, 12]),
        # flat: 1 per card on every spot. Seat 0: 10 + 2; Seat 1: 10 + 5; Seat 2: 10 + 1.
        ("flat", [1] * 8, [12, 15, 11]),
    ],
)
def test_rtb_gt_points_escalate_by_row_or_flat(row_points, worth, final):
    """RTB-GT-POINTS: the first Give/Take pair is row 1 (1 point per card) … the last row 4
    (4 per card); with ``row_points="flat"`` every card is worth 1. RTB-GT-END: the part ends after
    the eighth spot."""
    state = to_give_and_take(GT_ROWS_3, row_points=row_points)
    assert [s["points"] for s in state.view()["spots"]] == worth
    for index, (code, seat, taker) in enumerate(EIGHT_SPOTS):
        before = state.returns()
        start = len(state.events())
        deal(state, code)
        if taker is not None:
            resolve_gives(state, [taker])
        points = events_since(state, start, "RTB-GT-POINTS")
        assert [(e.data["row"], e.data["points"]) for e in points] == [(index // 2 + 1, worth[index])]
        gained = [after - b for after, b in zip(state.returns(), before)]
        expected = [0, 0, 0]
        expected[seat if taker is None else taker] = worth[index]
        assert gained == expected, f"spot {index + 1}"
        if index < 7:
            assert "RTB-GT-END" not in rules_since(state, start)
    end = events_since(state, 0, "RTB-GT-END")
    assert len(end) == 1 and "eighth" in end[0].text
    view = state.view()
    assert view["points"] == final and view["phase"] == "bus"
    assert view["rows"] == [["5C"], ["9S"], ["QS", "KS"]]
    assert [s["cards"] for s in view["spots"]] == [[code] for code, _, _ in EIGHT_SPOTS]
    assert view["bus"]["rider"] == 2  # most cards left (RTB-B-RIDER)


def test_rtb_gt_end_sooner_when_only_one_player_has_cards():
    """RTB-GT-END: the part ends as soon as at most one player still has cards (here after the
    second spot of eight)."""
    rows = [["2C", "2D", "3C", "3D"], ["6S", "7S", "8S", "9S"]]
    state = to_give_and_take(rows)
    deal(state, "2H")  # Give, row 1: Seat 0 plays 2C, 2D: 1 point each to Seat 1
    resolve_gives(state, [1, 1])
    assert state.view()["phase"] == "give_and_take"
    start = len(state.events())
    deal(state, "3H")  # Take, row 1: Seat 0 plays 3C, 3D and takes 2; no card left
    end = events_since(state, start, "RTB-GT-END")
    assert len(end) == 1 and "early" in end[0].text
    view = state.view()
    assert view["phase"] == "bus" and view["points"] == [12, 12]
    assert view["rows"] == [[], ["6S", "7S", "8S", "9S"]] and view["bus"]["rider"] == 1
    assert [len(s["cards"]) for s in view["spots"]] == [1, 1, 0, 0, 0, 0, 0, 0]


def test_rtb_gt_end_when_nobody_has_cards_left():
    """RTB-GT-END: when the last cards of every player go on one spot, the part ends too; the
    rider is then picked on points (RTB-B-RIDER: 0 cards each, more points rides)."""
    rows = [["2C", "2D", "4C", "4D"], ["2H", "4H", "5C", "5D"]]
    state = to_give_and_take(rows)
    deal(state, "5H")  # Give, row 1: Seat 1 plays 5C, 5D: 1 + 1 to Seat 0
    resolve_gives(state, [0, 0])
    deal(state, "4S")  # Take, row 1: Seat 0 plays 4C, 4D (takes 2), Seat 1 plays 4H (takes 1)
    assert state.view()["points"] == [14, 11]
    start = len(state.events())
    deal(state, "2S")  # Give, row 2: Seat 0 plays 2C, 2D, Seat 1 plays 2H: 2 points a card
    resolve_gives(state, [1, 1, 0])
    assert len(events_since(state, start, "RTB-GT-END")) == 1
    view = state.view()
    assert view["rows"] == [[], []] and view["points"] == [16, 15]
    assert view["phase"] == "bus" and view["bus"]["rider"] == 0


# == Questions bus =================================================================================
def test_rtb_qb_order_no_starting_card_four_questions_in_order():
    """RTB-QB-ORDER: the rider answers the four questions again in order, each on a new card; no
    card is flipped first: Q1 (red or black) is answered on a new card."""
    state = to_questions_bus()
    view = state.view()
    assert view["phase"] == "bus" and view["bus"]["kind"] == "questions"
    assert not state.is_chance_node() and state.current_player() == 0 == view["bus"]["rider"]
    assert view["bus"]["card_to_beat"] is None and view["bus"]["cards"] == [] and view["bus"]["run"] == []
    assert view["draw_pile"] == 34 and view["bus"]["question"] == 1
    assert "RTB-QB-ORDER" in [e.rule for e in state.events()]
    assert "RTB-B-FLIP" not in [e.rule for e in state.events()]
    script = [("red", "8H"), ("higher", "QD"), ("inside", "JH"), ("hearts", "2H")]
    expected_choices = [
        ["red", "black"],
        ["higher", "lower"],
        ["inside", "outside"],
        ["clubs", "diamonds", "hearts", "spades"],
    ]
    for k, ((guess, code), choices) in enumerate(zip(script, expected_choices)):
        assert state.current_player() == 0 and labels(state) == choices
        assert state.view()["bus"]["question"] == k + 1
        qb_answer(state, guess, code)
        assert state.view()["bus"]["run"] == [c for _, c in script[: k + 1]]
        assert state.view()["draw_pile"] == 34 - (k + 1)
    assert state.is_terminal()


def test_rtb_qb_compare_against_the_runs_first_cards():
    """RTB-QB-COMPARE: higher/lower compares with the run's first card and inside/outside with its
    first two; cards missed before the run began do not count."""
    state = to_questions_bus()
    qb_answer(state, "red", "8H")
    start = len(state.events())
    qb_answer(state, "higher", "3D")  # a miss: the run starts again
    assert state.view()["bus"]["run"] == []
    assert "RTB-QB-COMPARE" in rules_since(state, start)
    qb_answer(state, "black", "KS")
    # against KS (the run's first card), not 3D (the last card laid) nor 8H
    qb_answer(state, "lower", "QC")
    assert state.view()["bus"]["run"] == ["KS", "QC"] and state.view()["points"] == [11, 10]
    start = len(state.events())
    say(state, "outside")
    compare = events_since(state, start, "RTB-QB-COMPARE")
    # the sentence names the cards as the board draws them (K♠, Q♣), never by code
    assert len(compare) == 1 and "(against K♠ and Q♣)" in compare[0].text and "KS" not in compare[0].text
    deal(state, "AC")  # above KS: outside the first two
    assert state.view()["bus"]["run"] == ["KS", "QC", "AC"]
    qb_answer(state, "clubs", "6C")
    assert state.is_terminal() and state.view()["points"] == [11, 10]


@pytest.mark.parametrize(
    "run, guess, code, right",
    [
        (["8H"], "higher", "8C", False),  # the same rank is wrong on higher/lower (RTB-Q2)
        (["8H"], "lower", "8C", False),
        (["8H"], "lower", "7C", True),
        (["5D", "8C"], "inside", "8H", False),  # matching either rank is wrong (RTB-Q3)
        (["5D", "8C"], "outside", "5S", False),
        (["5D", "8C"], "inside", "7D", True),
        (["5D", "8C"], "outside", "KH", True),
        (["8C", "5D"], "inside", "6D", True),  # the order of the two does not matter
    ],
)
def test_rtb_qb_compare_ties_lose_on_the_bus(run, guess, code, right):
    """RTB-QB-COMPARE with RTB-Q2/RTB-Q3 on the bus: a tied rank loses."""
    state = to_questions_bus()
    qb_answer(state, right_guess(1, [], run[0]), run[0])
    if len(run) == 2:
        qb_answer(state, right_guess(2, run, run[1]), run[1])
    assert state.view()["bus"]["run"] == run
    qb_answer(state, guess, code)
    if right:
        assert state.view()["bus"]["run"] == run + [code] and state.view()["points"] == [10, 10]
    else:
        assert state.view()["bus"]["run"] == [] and state.view()["points"] == [11, 10]


@pytest.mark.parametrize("code", ["2C", "7H", "8D", "9S", "AS"])
def test_rtb_qb_compare_equal_ranks_ruling_on_the_bus(code):
    """RTB-QB-COMPARE and the RTB-Q3 ruling (also on the questions bus): against two cards of
    one rank, inside cannot win and outside wins on any other rank. On the bus the run's first two
    cards never share a rank (the same rank misses Q2 and restarts the run), so the ruling is
    checked on the comparison the bus uses, with a run as the reference."""
    run = [parse_card("8H"), parse_card("8C")]
    assert judge(INSIDE, parse_card(code), run) is False
    assert judge(OUTSIDE, parse_card(code), run) is (rank(code) != rank("8H"))
    # and the run can never hold two eights at Q3: the second eight misses Q2
    state = to_questions_bus()
    qb_answer(state, "red", "8H")
    qb_answer(state, "higher", "8D")
    assert state.view()["bus"]["run"] == [] and state.view()["bus"]["question"] == 1


def test_rtb_qb_miss_one_point_back_to_q1_run_to_discard():
    """RTB-QB-MISS: a miss costs the rider 1 point and sends them back to Q1; ruling: the run's
    cards and the missed card go to the discard pile."""
    state = to_questions_bus()
    qb_answer(state, "red", "8H")
    qb_answer(state, "higher", "QD")
    pile_before = state.view()["draw_pile"]
    start = len(state.events())
    qb_answer(state, "inside", "KC")  # K is outside 8..Q: a miss
    miss = events_since(state, start, "RTB-QB-MISS")
    assert len(miss) == 1 and miss[0].data["cards"] == ["8H", "QD", "KC"]
    view = state.view()
    assert view["points"] == [11, 10] and view["bus"]["run"] == [] and view["bus"]["question"] == 1
    assert labels(state) == ["red", "black"]
    assert view["discard"][-3:] == ["8H", "QD", "KC"] and sorted(view["discard"]) == sorted(
        NO_MATCH_PYRAMID + ["8H", "QD", "KC"]
    )
    assert view["draw_pile"] == pile_before - 1
    assert {
        "label": "Part 3: misses on the bus",
        "rule": "RTB-QB-MISS",
        "points": 1,
        "times": 1,
    } in state.score_breakdown(0)
    # a miss on Q1 discards just the missed card
    qb_answer(state, "black", "4D")
    assert state.view()["discard"][-1] == "4D" and state.view()["points"] == [12, 10]
    assert state.view()["bus"]["guesses"] == 4


def test_rtb_qb_end_all_four_right_in_a_row():
    """RTB-QB-END: the bus ends once all four are answered right in a row (three right then a
    miss is not enough); the rider takes 1 point per miss only."""
    state = to_questions_bus()
    for guess, code in [("red", "8H"), ("higher", "QD"), ("inside", "JH"), ("spades", "2H")]:
        qb_answer(state, guess, code)  # three right, then a miss on Q4
    assert not state.is_terminal() and state.view()["points"] == [11, 10]
    start = len(state.events())
    for guess, code in [("black", "5S"), ("lower", "3D"), ("outside", "KH"), ("diamonds", "6D")]:
        qb_answer(state, guess, code)
    end = events_since(state, start, "RTB-QB-END")
    assert len(end) == 1 and "four" in end[0].text
    assert state.is_terminal() and state.view()["bus"]["guesses"] == 8
    assert state.returns() == [11, 10] and state.winners() == [1]


def test_rtb_qb_end_after_40_guesses_and_the_run_survives_a_reshuffle():
    """RTB-QB-END: the bus stops after 40 guesses. On the way the draw pile runs out while a run
    is on the table: RTB-DECK-EMPTY reshuffles the discard pile only, the run's cards stay."""
    state = to_questions_bus()
    misses = 0
    while state.view()["draw_pile"] > 1:  # 33 misses on Q1 use up all but one card
        pile = draw_pile(state, "red")
        black = [c for c in pile if not is_red(c)]
        if black:
            qb_answer(state, "red", black[0])
        else:
            qb_answer(state, "black", pile[0])
        misses += 1
    assert misses == 33 and state.view()["points"] == [10 + 33, 10]
    last = draw_pile(state, "red")
    assert len(last) == 1
    qb_answer(state, right_guess(1, [], last[0]), last[0])  # right: the run is that card
    assert state.view()["bus"]["run"] == last and state.view()["draw_pile"] == 0
    # the discard pile: the ten pyramid cards and the 33 missed cards
    expected_pile = set(ALL_CODES) - set(last) - {c for row in ROWS_LOW for c in row}
    not_higher = sorted(c for c in expected_pile if rank(c) <= rank(last[0]))
    start = len(state.events())
    say(state, "higher" if not_higher else "lower")  # a card must be drawn: the reshuffle happens now
    empty = events_since(state, start, "RTB-DECK-EMPTY")
    assert len(empty) == 1 and "run" in empty[0].text and empty[0].data["cards"] == 10 + 33
    new_pile = {state.action_to_string(a) for a in state.legal_actions()}
    assert new_pile == expected_pile and len(new_pile) == 43
    assert state.view()["bus"]["run"] == last
    # a miss on Q2, then misses on Q1 until the count reaches 40 guesses
    deal(state, not_higher[0] if not_higher else sorted(expected_pile)[0])
    assert state.view()["bus"]["run"] == []
    guesses = 35
    while not state.is_terminal():
        pile = draw_pile(state, "red")
        black = [c for c in pile if not is_red(c)]
        qb_answer(state, "red", black[0])
        guesses += 1
    assert guesses == 40 == state.view()["bus"]["guesses"]
    assert state.view()["points"] == [10 + 33 + 1 + 5, 10]
    assert "40" in [e for e in state.events() if e.rule == "RTB-QB-END"][0].text


def test_rtb_qb_end_40_guesses_with_right_answers_in_between():
    """RTB-QB-END: every guess counts toward 40, right or wrong: 20 times Q1 right then a miss on
    Q2 is 40 guesses and 20 points."""
    state = to_questions_bus()
    for _ in range(20):
        pile = draw_pile(state, "red")
        first = pile[0]
        qb_answer(state, right_guess(1, [], first), first)
        pile = draw_pile(state, "higher")
        same_or_lower = [c for c in pile if rank(c) <= rank(first)]
        if same_or_lower:
            qb_answer(state, "higher", same_or_lower[0])
        else:
            qb_answer(state, "lower", pile[0])
    assert state.is_terminal() and state.view()["bus"]["guesses"] == 40
    assert state.returns() == [30, 10]


def test_rtb_qb_guess_odds_by_hand():
    """Exact odds (bus_lab.prob.ride_the_bus.guess_odds) on each question of the questions bus,
    against a count of the cards not yet seen."""
    state = to_questions_bus()
    used = qb_used()
    run: list[str] = []
    seen_odds = []
    for number, code in enumerate(["8H", "QD", "JH", "2H"], start=1):
        left = [c for c in ALL_CODES if c not in used]
        assert len(left) == 34 - (number - 1)
        odds = {state.action_to_string(a): p for a, p in guess_odds(state).items()}
        expected = {}
        for word in labels(state):
            wins = sum(1 for c in left if right_guess(number, run, c) == word)
            expected[word] = Fraction(wins, len(left))
        assert odds == expected
        seen_odds.append(odds)
        qb_answer(state, right_guess(number, run, code), code)
        run.append(code)
        used.append(code)
    # written out. Q1: 34 cards left, the reds used are 9D 9H TD TH JD: 21 red, 13 black.
    assert seen_odds[0] == {"red": Fraction(21, 34), "black": Fraction(13, 34)}
    # Q2 against 8H: above 8, the pyramid took the 9s, Ts, JC and JD: JH JS + 4 Q + 4 K + 4 A = 14;
    # below 8, ranks 2-7 are 24 cards, 8 of them in the rows: 16; 33 cards left.
    assert seen_odds[1] == {"higher": Fraction(14, 33), "lower": Fraction(16, 33)}
    # Q3 between 8H and QD: only JH and JS are inside; 2 of 32.
    assert seen_odds[2]["inside"] == Fraction(2, 32)


# == Solo gauntlet =================================================================================
@pytest.mark.parametrize(
    "option, value", [("board", "give_and_take"), ("row_points", "flat"), ("bus", "questions")]
)
@pytest.mark.parametrize("players", [1, 4])
def test_rtb_sg_flow_board_bus_and_row_points_do_not_apply(option, value, players):
    """RTB-SG-FLOW: board, row_points and bus do not apply to the gauntlet: asking for a
    non-default value raises ParameterError naming the option and the rule."""
    with pytest.raises(ParameterError) as info:
        load_game("ride_the_bus", players=players, mode="gauntlet", **{option: value})
    assert option in str(info.value) and "RTB-SG-FLOW" in str(info.value)


def test_rtb_sg_flow_part_1_then_straight_to_the_rides():
    """RTB-SG-FLOW: Part 1, then the rides at once: no pyramid, no Give & Take board, no bus
    rider; the defaults may be given explicitly and the streak option is accepted."""
    game = load_game(
        "ride_the_bus",
        players=2,
        mode="gauntlet",
        board="pyramid",
        row_points="escalating",
        bus="higher_lower",
        streak=4,
    )
    state = game.new_initial_state()
    play_part1(state, ROWS_LOW)
    view = state.view()
    assert view["phase"] == "rides" and view["pyramid"] == [] and view["spots"] == []
    assert view["bus"]["kind"] == "higher_lower" and view["bus"]["target"] == 4
    assert state.is_chance_node() and view["draw_pile"] == 44
    rules = {e.rule for e in state.events()}
    assert "RTB-SG-FLOW" in rules
    assert not rules & {"RTB-P-LAYOUT", "RTB-GT-LAYOUT", "RTB-B-RIDER", "RTB-B-FLIP", "RTB-QB-ORDER"}


def test_rtb_sg_questions_lone_player_loses_nothing_for_a_right_guess():
    """RTB-SG-QUESTIONS and RTB-Q-RIGHT (lone-player clause): alone, a right guess gives nobody
    anything and asks no decision; a wrong one still takes the points (here 3 + 4)."""
    state = new_state(1, mode="gauntlet")
    row = ["8H", "QD", "KC", "2H"]
    start = len(state.events())
    play_part1(state, [row], right={0: {1, 2}})
    assert state.returns() == [3 + 4]
    right = events_since(state, start, "RTB-Q-RIGHT")
    assert len(right) == 2 and all("loses nothing" in e.text for e in right)
    assert len(events_since(state, start, "RTB-Q-WRONG")) == 2
    assert state.view()["phase"] == "rides"


def test_rtb_sg_questions_all_right_alone_is_zero_points():
    """RTB-SG-QUESTIONS: a lone player who answers all four right has 0 points; no give is ever
    asked (the only legal actions are guesses)."""
    state = new_state(1, mode="gauntlet")
    row = ["8H", "QD", "TC", "2H"]
    for r, code in enumerate(row):
        assert not at_give(state) and set(labels(state)) <= set(GUESS_WORDS)
        say(state, right_guess(r + 1, row[:r], code))
        deal(state, code)
    assert state.returns() == [0] and state.view()["phase"] == "rides"


def test_rtb_sg_questions_two_players_still_give_points_away():
    """RTB-SG-QUESTIONS and RTB-Q-RIGHT: in a gauntlet of two or more, a right guess still hands
    its points to another player."""
    state = new_state(2, mode="gauntlet")
    say(state, "red")
    deal(state, "8H")
    assert at_give(state) and state.current_player() == 0 and state.legal_actions() == [Give(1).action]
    give(state, 1)
    assert state.returns() == [0, 1]


def test_rtb_sg_questions_points_only_decide_the_ride_order():
    """RTB-SG-QUESTIONS: Part 1 points only set who rides first; the winner is decided by the
    rides (RTB-SG-WIN), so the player with more points can win. Seat 0 answers all wrong (10),
    Seat 1 all right (each right answer's points to Seat 0): 20 against 0."""
    state = new_state(2, mode="gauntlet", streak=3)
    play_part1(
        state,
        [["2C", "3C", "4C", "5C"], ["8H", "QD", "TC", "2H"]],
        right={1: {1, 2, 3, 4}},
        give_to={(1, n): 0 for n in range(1, 5)},
    )
    assert state.returns() == [20, 0] and state.view()["gauntlet"]["order"] == [0, 1]
    deal(state, "7D")
    for _ in range(3):
        ride_hit(state)
    assert state.is_terminal() and state.winners() == [0] and state.returns() == [20, 0]


SG_ORDER_ROWS = [["2C", "5C", "9C", "KC"], ["3D", "6D", "TD", "QD"], ["4H", "7H", "JH", "AH"]]


def sg_order_state(**params):
    """Three players: Seat 0 right on Q2 (2 points to Seat 1), Seat 1 right on Q1 (1 point to Seat 2),
    everything else wrong: Seat 0 has 10 - 2 = 8, Seat 1 10 + 2 - 1 = 11, Seat 2 10 + 1 = 11."""
    state = new_state(3, mode="gauntlet", **params)
    play_part1(state, SG_ORDER_ROWS, right={0: {2}, 1: {1}}, give_to={(0, 2): 1, (1, 1): 2})
    assert state.returns() == [8, 11, 11]
    return state


def test_rtb_sg_order_most_points_first_ties_to_the_earlier_seat_then_cycle():
    """RTB-SG-ORDER: everyone rides, most points first, ties to the earlier seat (11, 11, 8:
    Seat 1, Seat 2, Seat 0); ruling: rides cycle through that order."""
    state = sg_order_state()
    assert state.view()["gauntlet"]["order"] == [1, 2, 0]
    order = events_since(state, 0, "RTB-SG-ORDER")
    assert len(order) == 1 and order[0].data["order"] == [1, 2, 0]
    deal(state, "8S")
    riders = []
    for _ in range(7):
        riders.append(state.current_player())
        ride_miss(state)
    assert riders == [1, 2, 0, 1, 2, 0, 1]
    assert state.view()["gauntlet"]["ride"] == 8


def test_rtb_sg_ride_fresh_first_card_then_the_missed_card_is_the_card_to_beat():
    """RTB-SG-RIDE: a ride is a higher/lower bus; a miss ends it and the next player takes over.
    Ruling: the first ride starts from a freshly flipped card; the card that caused a miss is the
    card to beat for the next ride (no new flip). Misses cost no points in the gauntlet."""
    state = sg_order_state()
    assert state.is_chance_node() and state.view()["bus"]["card_to_beat"] is None
    assert state.view()["draw_pile"] == 52 - 12
    start = len(state.events())
    deal(state, "8S")  # the fresh first card
    assert "RTB-SG-RIDE" in rules_since(state, start)
    view = state.view()
    assert view["bus"]["card_to_beat"] == "8S" and state.current_player() == 1 and view["draw_pile"] == 39
    twin = state.clone()  # the same rank misses: the rider calls higher, an eight comes
    say(twin, "higher")
    deal(twin, "8C")
    assert twin.current_player() == 2 and twin.view()["bus"]["card_to_beat"] == "8C"
    say(state, "higher")
    deal(state, "TS")  # a hit: Seat 1 rides on
    assert state.current_player() == 1 and state.view()["bus"]["card_to_beat"] == "TS"
    assert state.view()["bus"]["streak"] == 1 and state.view()["discard"] == ["8S"]
    say(state, "higher")
    start = len(state.events())
    deal(state, "4S")  # a miss: Seat 1's ride ends, Seat 2 goes on from 4S
    miss = [e for e in events_since(state, start, "RTB-SG-RIDE") if e.data.get("hit") is False]
    assert len(miss) == 1 and miss[0].data["streak"] == 1
    view = state.view()
    assert not state.is_chance_node() and state.current_player() == 2
    assert view["bus"]["card_to_beat"] == "4S" and view["bus"]["streak"] == 0
    assert view["discard"] == ["8S", "TS"] and view["draw_pile"] == 37
    assert view["gauntlet"]["best"] == [0, 1, 0] and view["points"] == [8, 11, 11]
    say(state, "higher")
    deal(state, "6H")  # Seat 2's first guess is against 4S
    assert state.view()["bus"]["streak"] == 1 and state.current_player() == 2


def test_rtb_sg_rides_ten_each():
    """RTB-SG-RIDES: each player gets 10 rides (two players: 20 rides, then the end)."""
    state = new_state(2, mode="gauntlet")
    play_part1(state, ROWS_LOW)
    deal(state, "8S")
    counts = [0, 0]
    for ride_no in range(20):
        assert not state.is_terminal(), f"over after {ride_no} rides"
        counts[state.current_player()] += 1
        ride_miss(state)
    assert state.is_terminal() and counts == [10, 10]
    assert state.view()["gauntlet"]["ride"] == 20 and state.view()["gauntlet"]["total_rides"] == 20


def test_rtb_sg_win_target_wins_on_the_spot():
    """RTB-SG-WIN: five hits in a row (the default target) win on the spot, even on a later ride;
    four are not enough."""
    state = new_state(2, mode="gauntlet")
    play_part1(state, ROWS_LOW)
    deal(state, "8S")
    ride(state, 4)  # Seat 0: four hits then a miss
    assert not state.is_terminal() and state.view()["gauntlet"]["best"] == [4, 0]
    ride(state, 2)  # Seat 1
    for _ in range(5):  # Seat 0's second ride (the third ride)
        assert not state.is_terminal()
        ride_hit(state)
    assert state.is_terminal() and state.winners() == [0]
    win = events_since(state, 0, "RTB-SG-WIN")
    assert len(win) == 1 and win[0].data["streak"] == 5
    assert state.view()["gauntlet"]["best"] == [5, 2] and "Seat 0 wins" in state.status()


@pytest.mark.parametrize("bests, winners", [([2, 3], [1]), ([3, 3], [0, 1]), ([0, 0], [0, 1]), ([4, 1], [0])])
def test_rtb_sg_win_longest_streak_wins_ties_share(bests, winners):
    """RTB-SG-WIN: when nobody makes the target, the longest single ride wins and ties share."""
    state = new_state(2, mode="gauntlet")
    play_part1(state, ROWS_LOW)
    deal(state, "8S")
    for ride_no in range(20):
        seat = state.current_player()
        ride(state, bests[seat] if ride_no // 2 == 4 else 0)  # the fifth ride each is the best
    assert state.is_terminal()
    assert state.view()["gauntlet"]["best"] == bests
    assert state.winners() == winners


def test_rtb_sg_win_lone_rider_short_of_the_target_loses():
    """RTB-SG-WIN: alone, the longest streak does not win: a lone rider who never makes the target
    loses (no winner), even with a best ride of 4."""
    state = new_state(1, mode="gauntlet")
    play_part1(state, [ROWS_LOW[0]])
    deal(state, "8S")
    for ride_no in range(10):
        ride(state, 4 if ride_no == 3 else 0)
    assert state.is_terminal() and state.view()["gauntlet"]["best"] == [4]
    assert state.winners() == [] and "loses" in state.status()
    assert "lone rider loses" in events_since(state, 0, "RTB-SG-WIN")[0].text


def test_rtb_sg_win_lone_rider_making_the_target_wins():
    """RTB-SG-WIN: a lone rider who makes the target wins."""
    state = new_state(1, mode="gauntlet")
    play_part1(state, [ROWS_LOW[0]])
    deal(state, "8S")
    ride(state, 1)
    for _ in range(5):
        ride_hit(state)
    assert state.is_terminal() and state.winners() == [0]


@pytest.mark.parametrize("streak", [3, 7])
def test_rtb_sg_win_streak_option_sets_the_target(streak):
    """RTB-SG-WIN ruling: the ``streak`` option (3-7) is the gauntlet's target too."""
    state = new_state(1, mode="gauntlet", streak=streak)
    play_part1(state, [ROWS_LOW[0]])
    deal(state, "8S")
    for _ in range(streak - 1):
        ride_hit(state)
    assert not state.is_terminal() and state.view()["bus"]["target"] == streak
    ride_hit(state)
    assert state.is_terminal() and state.winners() == [0]


def test_rtb_sg_ride_guess_odds_by_hand():
    """Exact odds (guess_odds) on a gauntlet ride, against a count of the unseen cards."""
    state = new_state(2, mode="gauntlet")
    play_part1(state, ROWS_LOW)
    deal(state, "8S")
    seen = [c for row in ROWS_LOW for c in row] + ["8S"]
    seen_odds = []
    for beat, nxt in [("8S", "TS"), ("TS", "4D")]:
        left = [c for c in ALL_CODES if c not in seen]
        odds = {state.action_to_string(a): p for a, p in guess_odds(state).items()}
        assert odds == {
            "higher": Fraction(sum(rank(c) > rank(beat) for c in left), len(left)),
            "lower": Fraction(sum(rank(c) < rank(beat) for c in left), len(left)),
        }
        seen_odds.append(odds)
        say(state, "higher")
        deal(state, nxt)
        seen.append(nxt)
    # written out. Against 8S: 43 cards left; 9 to A is 24 cards, none seen; 2 to 7 is 24 cards,
    # 8 of them in the rows: 16.
    assert seen_odds[0] == {"higher": Fraction(24, 43), "lower": Fraction(16, 43)}
    # against TS (8S discarded): 42 left; J to A: 16; 2 to 9: 32 cards less the 8 row cards and 8S: 23.
    assert seen_odds[1] == {"higher": Fraction(16, 42), "lower": Fraction(23, 42)}


# == bots on every variant ==========================================================================
VARIANTS = [
    dict(board=b, row_points=r, bus=q)
    for b, r, q in itertools.product(
        ("pyramid", "give_and_take"), ("escalating", "flat"), ("higher_lower", "questions")
    )
]
VARIANTS += [dict(mode="gauntlet", players=1), dict(mode="gauntlet", players=3)]


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_best_odds_bots_play_every_variant_to_the_end(params):
    """The best-odds bots finish every variant; every guess they make has the best exact odds
    (guess_odds), and every state on the way is a JSON-safe view."""
    params = {"players": 3, **params}
    game = load_game("ride_the_bus", **params)
    for seed in (0, 1):
        session = Session(game, seed=seed, bots="best_odds")
        session.run_to_end()
        assert session.state.is_terminal()
        history = session.state.history()
        for i in range(len(session) - 1):
            st = session.state_at(i)
            if st.is_chance_node() or not st.is_guess(history[i]):
                continue
            odds = guess_odds(st)
            assert odds[history[i]] == max(odds.values())
        json.dumps(session.state.view())
        assert session.state.view()["options"] == game.params
