"""One or more unit tests per rule of the default Ride the Bus game (rule IDs ``RTB-…``).

Every scenario is set up with a scripted deck: the tests apply the card actions themselves
(``state.apply_action(parse_card("7H"))``), so each value asserted here is worked out by hand
from the rules, not read back from the engine.
"""

from __future__ import annotations

import json
import re
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

import bus_lab
from bus_lab import IllegalActionError, ParameterError, Session, UnknownGameError, load_game
from bus_lab.games.ride_the_bus import HIGHER, LOWER, card_code, parse_card
from bus_lab.games.ride_the_bus.cards import card_label
from bus_lab.games.ride_the_bus.moves import Give
from bus_lab.games.ride_the_bus.render import describe

QUESTION_POINTS = {1: 1, 2: 2, 3: 3, 4: 4}

# Part 1 rows that make every guess of ALL_WRONG wrong (worked out by hand):
# Q1 "red" on a black card; Q2 "higher" on the same rank; Q3 "inside" with two equal ranks
# (inside cannot win); Q4 "hearts" on a card that is not a heart. Each seat takes 1+2+3+4 = 10.
ALL_WRONG = ["red", "higher", "inside", "hearts"]
WRONG_ROWS = [
    ["2C", "2D", "3C", "3D"],
    ["4S", "4H", "5S", "5C"],
    ["6S", "6H", "7S", "7C"],
]
# NO_MATCH_PYRAMID: ten pyramid cards whose ranks (9, T, J) are in none of WRONG_ROWS; 8C starts the bus.


# -- helpers --------------------------------------------------------------------------------
def rank_of(code: str) -> int:
    return RANKS.index(code[0])


def play_part1(state, rows, guesses=None, give_to=None) -> None:
    """Play Part 1: seat ``s`` guesses ``guesses[s][r]`` in round ``r`` and is dealt ``rows[s][r]``;
    points won by a right guess go to ``give_to(giver)`` (default: the next seat)."""
    n = len(rows)
    guesses = guesses or [ALL_WRONG] * n
    for r in range(4):
        for seat in range(n):
            assert state.current_player() == seat
            say(state, guesses[seat][r])
            deal(state, rows[seat][r])
            if at_give(state):
                give(state, give_to(seat) if give_to else (seat + 1) % n)


def flip(state, code: str, give_to=None) -> None:
    """Flip ``code`` on the pyramid and hand out every card's points (default: to the next seat)."""
    deal(state, code)
    n = state.get_game().num_players
    while at_give(state):
        giver = state.current_player()
        give(state, give_to(giver) if give_to else (giver + 1) % n)


def to_bus(players: int = 2, **params):
    """A state at the bus's first flip: all Part 1 guesses wrong (10 points each), no pyramid match."""
    state = new_state(players, **params)
    play_part1(state, WRONG_ROWS[:players])
    for code in NO_MATCH_PYRAMID:
        flip(state, code)
    assert state.view()["phase"] == "bus"
    return state


def bus_miss(state) -> str:
    """Make the rider call and deal a card that makes the call a miss; returns the card dealt."""
    beat = state.view()["bus"]["card_to_beat"]
    draw = state.clone()
    say(draw, "higher")
    pile = [card_code(a) for a in draw.legal_actions()]
    low = [c for c in pile if rank_of(c) <= rank_of(beat)]
    if low:
        say(state, "higher")
        code = low[0]
    else:
        say(state, "lower")
        code = pile[0]  # every card left is higher: "lower" misses
    deal(state, code)
    return code


def bus_hit(state) -> str | None:
    """Make the rider call and deal a card that makes the call a hit; returns the card dealt, or
    ``None`` (and does nothing) when every card left has the rank of the card to beat."""
    beat = state.view()["bus"]["card_to_beat"]
    draw = state.clone()
    say(draw, "higher")
    pile = [card_code(a) for a in draw.legal_actions()]
    higher = sorted((c for c in pile if rank_of(c) > rank_of(beat)), key=rank_of)
    lower = sorted((c for c in pile if rank_of(c) < rank_of(beat)), key=rank_of)
    if not higher and not lower:
        return None
    if len(higher) >= len(lower):
        say(state, "higher")
        code = higher[0]
    else:
        say(state, "lower")
        code = lower[-1]
    deal(state, code)
    return code


def to_seat0_question(number: int, seat0, seat1):
    """A 2-player state at seat 0's question ``number`` (1-4), seat 0's row being ``seat0`` and
    seat 1's row ``seat1`` (the first ``number - 1`` cards each); earlier guesses are wrong-or-right
    as the cards fall, right guesses hand points to the other seat."""
    state = new_state(2)
    for r in range(number - 1):
        for seat, row in ((0, seat0), (1, seat1)):
            say(state, ALL_WRONG[r])
            deal(state, row[r])
            if at_give(state):
                give(state, 1 - seat)
    assert state.current_player() == 0 and state.view()["question"]["number"] == number
    return state


def answer(state, guess: str, code: str, give_to: int | None = None):
    """Seat to act answers ``guess`` and is dealt ``code``. Returns (right, events start index)."""
    start = len(state.events())
    seat = state.current_player()
    say(state, guess)
    deal(state, code)
    right = at_give(state) and state.current_player() == seat
    if right and give_to is not None:
        give(state, give_to)
    return right, start


# -- setup and scoring ----------------------------------------------------------------------
def test_rtb_setup_deck_one_shuffled_52_card_deck():
    """RTB-SETUP-DECK: the first deal can be any of 52 distinct cards, each with chance 1/52."""
    state = new_state(3)
    assert [e.rule for e in state.events()][:1] == ["RTB-SETUP-DECK"]
    say(state, "red")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52
    assert all(p == Fraction(1, 52) for _, p in outcomes)
    assert sorted(state.action_to_string(a) for a, _ in outcomes) == sorted(ALL_CODES)
    assert len(set(ALL_CODES)) == 52
    for code in ALL_CODES:
        assert card_code(parse_card(code)) == code


@pytest.mark.parametrize(
    "guess, first, card, right",
    [
        ("higher", "AH", "2C", False),  # aces high, no wrap: nothing beats an ace
        ("higher", "AH", "KC", False),
        ("lower", "AH", "KC", True),
        ("lower", "2H", "AC", False),  # an ace is not below a two
        ("higher", "2H", "AC", True),
        ("higher", "TH", "JC", True),  # ranks 2 … 9, T, J, Q, K, A
        ("lower", "QH", "JC", True),
        ("higher", "KH", "QC", False),
    ],
)
def test_rtb_setup_deck_aces_high_no_wrap(guess, first, card, right):
    """RTB-SETUP-DECK: aces are high and ranks do not wrap (checked with RTB-Q2)."""
    state = to_seat0_question(2, [first], ["9S"])
    got, _ = answer(state, guess, card)
    assert got is right


@pytest.mark.parametrize("players", range(2, 9))
def test_rtb_setup_players_classic_2_to_8(players):
    """RTB-SETUP-PLAYERS: classic takes 2-8 players; seats 0 … n-1; seat 0 acts first."""
    state = new_state(players)
    event = [e for e in state.events() if e.rule == "RTB-SETUP-PLAYERS"]
    assert len(event) == 1 and event[0].data["players"] == players
    assert state.current_player() == 0
    assert state.view()["players"] == players
    assert state.returns() == [0] * players


@pytest.mark.parametrize("players", [1, 0, 9, -1])
def test_rtb_setup_players_out_of_range_refused(players):
    """RTB-SETUP-PLAYERS: one player (classic), 0 and 9 are refused with the allowed range."""
    with pytest.raises(ParameterError) as info:
        load_game("ride_the_bus", players=players)
    assert "integer from 2 to 8" in str(info.value)
    assert f"players={players}" in str(info.value)


def test_rtb_setup_players_one_player_needs_gauntlet():
    """RTB-SETUP-PLAYERS: players=1 is refused in classic mode with a message naming the gauntlet;
    the solo gauntlet takes one player and plays to the end (1-8 players there)."""
    with pytest.raises(ParameterError, match="gauntlet"):
        load_game("ride_the_bus", players=1)
    with pytest.raises(ParameterError, match="gauntlet"):
        load_game("ride_the_bus", players=1, mode="classic")
    game = load_game("ride_the_bus", players=1, mode="gauntlet")
    assert game.num_players == 1
    session = Session(game, seed=5, bots="best_odds")
    session.run_to_end()
    state = session.state
    assert state.is_terminal()
    assert len(state.view()["rows"]) == 1 and len(state.view()["rows"][0]) == 4
    for players in (0, 9):
        with pytest.raises(ParameterError, match="integer from 1 to 8"):
            load_game("ride_the_bus", players=players, mode="gauntlet")


@pytest.mark.parametrize("value", ["4", 2.0, True, None])
def test_rtb_setup_players_must_be_an_integer(value):
    """RTB-SETUP-PLAYERS: the player count is an integer (2 to 8 in classic mode)."""
    with pytest.raises(ParameterError, match="integer from 2 to 8"):
        load_game("ride_the_bus", players=value)


def test_rtb_score_low_every_part_adds_to_one_total():
    """RTB-SCORE-LOW: Part 1, pyramid and bus points add to one running total; lowest total wins."""
    state = new_state(2)
    play_part1(state, WRONG_ROWS[:2])
    assert state.returns() == [10, 10]  # 1 + 2 + 3 + 4 wrong each
    flip(state, "2H")  # row 1: seat 0 plays 2C, 2D: 1 point each to seat 1
    assert state.returns() == [10, 12]
    flip(state, "4C")  # row 1: seat 1 plays 4S, 4H: 1 point each to seat 0
    assert state.returns() == [12, 12]
    flip(state, "9C")
    flip(state, "9D")
    flip(state, "5D")  # row 2: seat 1 plays 5S, 5C: 2 points each to seat 0
    assert state.returns() == [16, 12]
    flip(state, "9H")
    flip(state, "9S")
    flip(state, "3H")  # row 3: seat 0 plays 3C, 3D: 3 points each to seat 1
    assert state.returns() == [16, 18]
    flip(state, "TC")
    flip(state, "TD")
    view = state.view()
    assert view["rows"] == [[], []]
    assert view["bus"]["rider"] == 1  # no cards either: more points rides (RTB-B-RIDER)
    deal(state, "8C")
    misses = 0
    while not state.is_terminal():
        bus_miss(state)
        misses += 1
    assert misses == 40
    assert state.returns() == [16, 18 + 40]
    assert state.winners() == [0]
    final = [e for e in state.events() if e.rule == "RTB-SCORE-LOW"][-1]
    assert final.data["points"] == [16, 58]
    by_rule = {line["rule"]: line["points"] for line in state.score_breakdown(1)}
    assert by_rule == {"RTB-Q-WRONG": 10, "RTB-P-GIVE": 2 + 6, "RTB-B-STREAK": 40}
    by_rule = {line["rule"]: line["points"] for line in state.score_breakdown(0)}
    assert by_rule == {"RTB-Q-WRONG": 10, "RTB-P-GIVE": 2 + 4}


def test_rtb_score_low_game_is_lower_score_wins():
    """RTB-SCORE-LOW: the game object says lower scores win, and winners() takes the minimum."""
    game = load_game("ride_the_bus", players=3)
    assert game.lower_score_wins is True
    for seed in range(5):
        session = Session(game, seed=seed, bots="random")
        session.run_to_end()
        points = session.state.returns()
        assert session.state.winners() == [s for s in range(3) if points[s] == min(points)]


@pytest.mark.parametrize("misses, points, winners", [(0, [10, 10], [0, 1]), (1, [11, 10], [1])])
def test_rtb_score_tie_scripted(misses, points, winners):
    """RTB-SCORE-TIE: both seats on 10 after Part 1, nobody matches the pyramid; a bus of five
    straight hits leaves a tie (both win), one miss first gives seat 1 the win alone."""
    state = to_bus(2)
    deal(state, "8C")
    for _ in range(misses):
        bus_miss(state)
    for _ in range(5):
        bus_hit(state)
    assert state.is_terminal()
    assert state.returns() == points
    assert state.winners() == winners
    tie = [e for e in state.events() if e.rule == "RTB-SCORE-TIE"]
    assert len(tie) == 1 and tie[0].data == {"winners": winners, "points": min(points)}
    assert ("share the win" in tie[0].text) is (len(winners) > 1)


def test_rtb_score_tie_tied_lowest_share_the_win():
    """RTB-SCORE-TIE: players tied on the lowest total share the win (seeded games, one with a
    tie and one without)."""
    game = load_game("ride_the_bus", players=3)
    seen_tie = seen_single = False
    for seed in range(300):
        session = Session(game, seed=seed, bots="random")
        session.run_to_end()
        state = session.state
        points = state.returns()
        lowest = [s for s in range(3) if points[s] == min(points)]
        event = [e for e in state.events() if e.rule == "RTB-SCORE-TIE"]
        assert len(event) == 1 and event[0].data["winners"] == lowest
        assert state.winners() == lowest
        assert state.view()["winners"] == lowest
        if len(lowest) > 1:
            seen_tie = True
            assert "share the win" in event[0].text
        else:
            seen_single = True
        if seen_tie and seen_single:
            break
    assert seen_tie and seen_single


def test_rtb_discard_pyramid_cards_after_their_flip_is_resolved():
    """RTB-DISCARD: played row cards go to the discard at once; the flipped pyramid card goes
    there once its points are handed out."""
    state = new_state(2)
    play_part1(state, WRONG_ROWS[:2])
    assert state.view()["discard"] == []
    start = len(state.events())
    deal(state, "2H")  # row 1: matches 2C, 2D (seat 0)
    view = state.view()
    assert view["discard"] == ["2C", "2D"]
    assert view["rows"][0] == ["3C", "3D"]
    assert view["pyramid"][0]["card"] == "2H" and view["pyramid"][0]["current"] is True
    discard_events = events_since(state, start, "RTB-DISCARD")
    assert [e.data["cards"] for e in discard_events] == [["2C", "2D"]]
    give(state, 1)
    assert state.view()["discard"] == ["2C", "2D"]  # 2H is still being resolved
    give(state, 1)
    assert state.view()["discard"] == ["2C", "2D", "2H"]
    assert events_since(state, start, "RTB-DISCARD")[-1].data["cards"] == ["2H"]


def test_rtb_discard_unmatched_flip_and_old_bus_cards():
    """RTB-DISCARD: an unmatched pyramid card is discarded at once; on the bus the old card to
    beat is discarded when the next card is dealt, the new card stays in play."""
    state = new_state(2)
    play_part1(state, WRONG_ROWS[:2])
    deal(state, "9C")
    assert state.view()["discard"] == ["9C"]
    for code in NO_MATCH_PYRAMID[1:]:
        flip(state, code)
    assert state.view()["discard"] == NO_MATCH_PYRAMID
    deal(state, "8C")
    say(state, "higher")
    assert state.view()["discard"] == NO_MATCH_PYRAMID
    start = len(state.events())
    deal(state, "KD")
    assert state.view()["discard"] == NO_MATCH_PYRAMID + ["8C"]
    assert state.view()["bus"]["card_to_beat"] == "KD"
    assert [e.data["cards"] for e in events_since(state, start, "RTB-DISCARD")] == [["8C"]]


def test_rtb_deck_empty_reshuffles_the_discard_pile_only():
    """RTB-DECK-EMPTY: when the draw pile runs out on the bus, the discard pile becomes the new
    draw pile; rows and the card to beat stay where they are, and the event says so."""
    state = to_bus(2)
    deal(state, "8C")
    rows = state.view()["rows"]
    # 8 row cards + 10 pyramid cards + the first bus card are out: 33 cards are left to draw.
    dealt = 0
    while True:
        view = state.view()
        if view["draw_pile"] == 0:
            break
        assert view["draw_pile"] == 33 - dealt
        bus_miss(state)
        dealt += 1
    assert dealt == 33 and not state.is_terminal()
    view = state.view()
    assert view["bus"]["guesses"] == 33 and view["bus"]["streak"] == 0
    former_discard = list(view["discard"])
    beat = view["bus"]["card_to_beat"]
    assert len(former_discard) == 52 - 8 - 1 == 43
    assert beat not in former_discard
    start = len(state.events())
    say(state, "higher")  # the next card must be drawn: the reshuffle happens now
    empty = events_since(state, start, "RTB-DECK-EMPTY")
    assert len(empty) == 1 and empty[0].data["cards"] == 43
    assert "rows" in empty[0].text and "card to beat" in empty[0].text
    new_pile = sorted(state.action_to_string(a) for a in state.legal_actions())
    assert new_pile == sorted(former_discard)
    assert all(p == Fraction(1, 43) for _, p in state.chance_outcomes())
    view = state.view()
    assert view["discard"] == [] and view["draw_pile"] == 43
    assert view["rows"] == rows
    assert view["bus"]["card_to_beat"] == beat
    for code in [beat] + [c for row in rows for c in row]:
        with pytest.raises(IllegalActionError, match="not in the draw pile"):
            state.apply_action(parse_card(code))
    # play on: the old card to beat goes to the (new) discard pile as usual
    deal(state, sorted(former_discard, key=rank_of)[0])
    assert state.view()["discard"] == [beat]


# -- Part 1 -----------------------------------------------------------------------------------
def test_rtb_q_order_four_rounds_in_seat_order():
    """RTB-Q-ORDER: four rounds; each round every seat in order guesses, then is dealt the next
    card face up into its row; rows grow to 4 cards."""
    state = new_state(3)
    rows = WRONG_ROWS
    order = []
    drawn = 0
    for r in range(4):
        for seat in range(3):
            order.append(state.current_player())
            question = state.view()["question"]
            assert question["number"] == r + 1 and question["seat"] == seat
            say(state, ALL_WRONG[r])
            assert state.is_chance_node()
            assert len(state.chance_outcomes()) == 52 - drawn
            start = len(state.events())
            deal(state, rows[seat][r])
            drawn += 1
            dealt = events_since(state, start, "RTB-Q-ORDER")
            assert [(e.data["seat"], e.data["card"]) for e in dealt] == [(seat, rows[seat][r])]
            assert state.view()["rows"][seat] == rows[seat][: r + 1]
    assert order == [0, 1, 2] * 4
    assert state.view()["rows"] == rows
    assert state.view()["phase"] == "pyramid"


@pytest.mark.parametrize(
    "guess, card, right",
    [
        ("red", "7H", True),
        ("red", "7D", True),
        ("red", "7C", False),
        ("red", "7S", False),
        ("black", "7C", True),
        ("black", "7S", True),
        ("black", "7H", False),
        ("black", "7D", False),
    ],
)
def test_rtb_q1_red_or_black_worth_1(guess, card, right):
    """RTB-Q1: red or black, worth 1 point."""
    state = new_state(2)
    got, start = answer(state, guess, card, give_to=1)
    asked = events_since(state, start, "RTB-Q1")
    assert len(asked) == 1 and asked[0].data["points"] == 1
    assert got is right
    assert state.returns() == ([0, 1] if right else [1, 0])


@pytest.mark.parametrize(
    "guess, card, right",
    [
        ("higher", "8C", True),
        ("higher", "AC", True),
        ("higher", "6C", False),
        ("higher", "7C", False),
        ("lower", "6C", True),
        ("lower", "2C", True),
        ("lower", "8C", False),
        ("lower", "7D", False),
    ],
)
def test_rtb_q2_higher_or_lower_worth_2_same_rank_wrong(guess, card, right):
    """RTB-Q2: higher or lower than the first card, worth 2; the same rank is wrong."""
    state = to_seat0_question(2, ["7H"], ["KS"])
    before = state.returns()
    assert before == [0, 2]  # seat 0 right on Q1 (gave 1 to seat 1); seat 1 wrong on Q1
    got, start = answer(state, guess, card, give_to=1)
    asked = events_since(state, start, "RTB-Q2")
    assert len(asked) == 1 and asked[0].data["points"] == 2
    assert got is right
    expected = [before[0], before[1] + 2] if right else [before[0] + 2, before[1]]
    assert state.returns() == expected


@pytest.mark.parametrize(
    "first, second, guess, card, right",
    [
        ("5H", "9C", "inside", "7D", True),
        ("5H", "9C", "inside", "6S", True),
        ("9C", "5H", "inside", "8S", True),  # the order of the two cards does not matter
        ("5H", "9C", "inside", "5D", False),  # matching either rank is wrong
        ("5H", "9C", "inside", "9S", False),
        ("5H", "9C", "inside", "3C", False),
        ("5H", "9C", "inside", "JD", False),
        ("5H", "9C", "outside", "3C", True),
        ("5H", "9C", "outside", "JD", True),
        ("5H", "9C", "outside", "5S", False),
        ("5H", "9C", "outside", "9D", False),
        ("5H", "9C", "outside", "7D", False),
        ("5H", "6C", "inside", "7D", False),  # adjacent ranks: nothing is strictly inside
        ("5H", "6C", "outside", "7D", True),
    ],
)
def test_rtb_q3_inside_or_outside_worth_3(first, second, guess, card, right):
    """RTB-Q3: inside or outside the first two cards, worth 3; matching either rank is wrong."""
    state = to_seat0_question(3, [first, second], ["KS", "KD"])
    before = state.returns()
    got, start = answer(state, guess, card, give_to=1)
    asked = events_since(state, start, "RTB-Q3")
    assert len(asked) == 1 and asked[0].data["points"] == 3
    assert got is right
    expected = [before[0], before[1] + 3] if right else [before[0] + 3, before[1]]
    assert state.returns() == expected


@pytest.mark.parametrize("card", ["8D", "8S", "2C", "7D", "9D", "AS"])
def test_rtb_q3_ruling_two_equal_ranks(card):
    """RTB-Q3 ruling: with two equal ranks "inside" cannot win; "outside" wins on any other rank."""
    inside = to_seat0_question(3, ["8H", "8C"], ["KS", "KD"])
    outside = inside.clone()
    got_inside, _ = answer(inside, "inside", card)
    got_outside, _ = answer(outside, "outside", card)
    assert got_inside is False
    assert got_outside is (rank_of(card) != rank_of("8H"))


@pytest.mark.parametrize(
    "guess, card, right",
    [
        ("clubs", "QC", True),
        ("diamonds", "QD", True),
        ("hearts", "QH", True),
        ("spades", "QS", True),
        ("clubs", "QS", False),
        ("diamonds", "QH", False),
        ("hearts", "QD", False),
        ("spades", "QC", False),
    ],
)
def test_rtb_q4_which_suit_worth_4(guess, card, right):
    """RTB-Q4: which suit, worth 4."""
    state = to_seat0_question(4, ["2C", "3C", "4C"], ["KS", "KD", "KH"])
    before = state.returns()
    got, start = answer(state, guess, card, give_to=1)
    asked = events_since(state, start, "RTB-Q4")
    assert len(asked) == 1 and asked[0].data["points"] == 4
    assert got is right
    expected = [before[0], before[1] + 4] if right else [before[0] + 4, before[1]]
    assert state.returns() == expected


@pytest.mark.parametrize(
    "number, guess, card",
    [
        (1, "red", "2C"),
        (2, "higher", "2D"),
        (3, "inside", "AD"),
        (4, "hearts", "AS"),
    ],
)
def test_rtb_q_wrong_guesser_takes_the_points(number, guess, card):
    """RTB-Q-WRONG: a wrong guess adds the question's points to the guesser; play moves on."""
    state = to_seat0_question(number, ["5C", "9C", "7C"], ["KS", "KD", "KH"])
    before = state.returns()
    wrong_before = sum(line["points"] for line in state.score_breakdown(0) if line["rule"] == "RTB-Q-WRONG")
    got, start = answer(state, guess, card)
    assert got is False
    assert state.returns() == [before[0] + number, before[1]]
    wrong = events_since(state, start, "RTB-Q-WRONG")
    assert len(wrong) == 1 and wrong[0].data == {"seat": 0, "points": number}
    assert state.current_player() == 1  # no decision for seat 0: seat 1 guesses next
    wrong_after = sum(line["points"] for line in state.score_breakdown(0) if line["rule"] == "RTB-Q-WRONG")
    assert wrong_after == wrong_before + number


def test_rtb_q_right_guesser_chooses_who_takes_the_points():
    """RTB-Q-RIGHT: a right guess lets the guesser pick another player to take the points."""
    state = new_state(4)
    say(state, "red")
    start = len(state.events())
    deal(state, "9H")
    assert state.current_player() == 0
    assert state.legal_actions() == [Give(1).action, Give(2).action, Give(3).action]
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "give to seat 1",
        "give to seat 2",
        "give to seat 3",
    ]
    with pytest.raises(IllegalActionError, match="another player"):
        give(state, 0)
    give(state, 2)
    assert state.returns() == [0, 0, 1, 0]
    right = events_since(state, start, "RTB-Q-RIGHT")
    assert right[-1].data == {"giver": 0, "taker": 2, "points": 1}
    assert state.current_player() == 1
    assert state.score_breakdown(2) == [
        {
            "label": "Part 1: given by others for their right guesses",
            "rule": "RTB-Q-RIGHT",
            "points": 1,
            "times": 1,
        }
    ]


def test_rtb_q_right_worth_of_each_question():
    """RTB-Q-RIGHT: right answers to Q1-Q4 hand 1, 2, 3 and 4 points to the chosen player."""
    state = new_state(3)
    rows = [["2H", "5C", "3D", "9C"], ["KS", "KD", "KH", "KC"], ["AS", "AD", "AH", "AC"]]
    guesses = [["red", "higher", "inside", "clubs"], ALL_WRONG, ALL_WRONG]
    # seat 0 is right four times (2H red; 5 > 2; 3 between 2 and 5; 9C a club) and gives to seat 2
    play_part1(state, rows, guesses, give_to=lambda giver: 2 if giver == 0 else (giver + 1) % 3)
    assert state.returns() == [0, 10, 10 + 1 + 2 + 3 + 4]
    gave = [e.data for e in state.events() if e.rule == "RTB-Q-RIGHT" and e.data.get("giver") == 0]
    assert [d["points"] for d in gave] == [1, 2, 3, 4]
    assert all(d["taker"] == 2 for d in gave)


# -- Part 2: the pyramid ------------------------------------------------------------------------
def test_rtb_p_layout_ten_cards_rows_4_3_2_1():
    """RTB-P-LAYOUT: ten face-down cards in rows of 4, 3, 2 and 1 (bottom row of 4)."""
    state = new_state(2)
    play_part1(state, WRONG_ROWS[:2])
    assert [e.rule for e in state.events()][-1] == "RTB-P-LAYOUT"
    view = state.view()
    assert view["phase"] == "pyramid"
    assert [spot["row"] for spot in view["pyramid"]] == [1, 1, 1, 1, 2, 2, 2, 3, 3, 4]
    assert all(spot["card"] is None for spot in view["pyramid"])
    assert state.is_chance_node()


def test_rtb_p_flip_one_at_a_time_bottom_row_first_left_to_right():
    """RTB-P-FLIP: flips go one at a time, bottom row first, left to right."""
    state = new_state(2)
    play_part1(state, WRONG_ROWS[:2])
    for index, code in enumerate(NO_MATCH_PYRAMID):
        assert state.is_chance_node()
        assert len(state.chance_outcomes()) == 52 - 8 - index
        start = len(state.events())
        flip(state, code)
        flipped = events_since(state, start, "RTB-P-FLIP")
        assert len(flipped) == 1
        expected_row = [1, 1, 1, 1, 2, 2, 2, 3, 3, 4][index]
        assert flipped[0].data == {"index": index, "row": expected_row, "card": code}
        cards = [spot["card"] for spot in state.view()["pyramid"]]
        assert cards == NO_MATCH_PYRAMID[: index + 1] + [None] * (9 - index)


def test_rtb_p_match_every_matching_card_is_played_in_seat_order():
    """RTB-P-MATCH: every player holding the flipped rank plays every matching card at once;
    several players choose their recipients in seat order."""
    state = new_state(3)
    rows = [["7C", "7D", "2C", "3C"], ["KS", "7S", "KH", "KC"], ["AS", "AD", "AH", "AC"]]
    play_part1(state, rows, [ALL_WRONG] * 3)
    before = state.returns()
    start = len(state.events())
    deal(state, "7H")
    matches = events_since(state, start, "RTB-P-MATCH")
    assert [(e.data["seat"], e.data["cards"]) for e in matches] == [(0, ["7C", "7D"]), (1, ["7S"])]
    assert state.view()["rows"] == [["2C", "3C"], ["KS", "KH", "KC"], ["AS", "AD", "AH", "AC"]]
    choosers = []
    while at_give(state):
        choosers.append(state.current_player())
        give(state, 2)
    assert choosers == [0, 0, 1]
    assert state.returns() == [before[0], before[1], before[2] + 3]  # row 1: 1 point per card


@pytest.mark.parametrize("row_points, worth", [("escalating", [1, 2, 3, 4]), ("flat", [1, 1, 1, 1])])
def test_rtb_p_points_by_row(row_points, worth):
    """RTB-P-POINTS: escalating (default) is 1, 2, 3, 4 points per card from the bottom row up;
    row_points="flat" is 1 per card on every row."""
    state = new_state(2, row_points=row_points)
    rows = [["2C", "3C", "4C", "5C"], ["KS", "KD", "KH", "KC"]]
    play_part1(state, rows)
    # one flip per row matches one of seat 0's cards; every other flip matches nobody.
    flips = ["2H", "9C", "9D", "9H", "3H", "9S", "TC", "4H", "TD", "5H"]
    assert [spot["points"] for spot in state.view()["pyramid"]] == [1] * 4 + [worth[1]] * 3 + [
        worth[2]
    ] * 2 + [worth[3]]
    got = []
    for code in flips:
        before = state.returns()
        start = len(state.events())
        flip(state, code, give_to=lambda giver: 1)
        got.append(state.returns()[1] - before[1])
        for e in events_since(state, start, "RTB-P-POINTS"):
            assert e.data["points"] == got[-1]
    assert [got[0], got[4], got[7], got[9]] == worth
    assert [got[i] for i in (1, 2, 3, 5, 6, 8)] == [0] * 6


def test_rtb_p_give_one_choice_per_card_played():
    """RTB-P-GIVE: for each card played its player picks another player to take its points."""
    state = new_state(3)
    rows = [["2C", "2D", "2H", "3C"], ["KS", "KD", "KH", "KC"], ["AS", "AD", "AH", "AC"]]
    play_part1(state, rows)
    for code in ("9C", "9D", "9H", "9S"):  # row 1, no match
        flip(state, code)
    before = state.returns()
    start = len(state.events())
    deal(state, "2S")  # row 2: seat 0 plays three twos, 2 points each
    assert state.current_player() == 0
    assert state.legal_actions() == [Give(1).action, Give(2).action]
    with pytest.raises(IllegalActionError):
        give(state, 0)
    give(state, 1)
    give(state, 2)
    assert state.current_player() == 0
    give(state, 1)
    assert not at_give(state) and state.is_chance_node()
    assert state.returns() == [before[0], before[1] + 4, before[2] + 2]
    gave = events_since(state, start, "RTB-P-GIVE")
    assert [(e.data["giver"], e.data["taker"], e.data["points"]) for e in gave] == [
        (0, 1, 2),
        (0, 2, 2),
        (0, 1, 2),
    ]


def test_rtb_p_nomatch_moves_straight_on():
    """RTB-P-NOMATCH: a flip nobody matches moves straight on to the next card."""
    state = new_state(2)
    play_part1(state, WRONG_ROWS[:2])
    before = state.returns()
    start = len(state.events())
    deal(state, "9C")
    assert "RTB-P-NOMATCH" in rules_since(state, start)
    assert "RTB-P-MATCH" not in rules_since(state, start)
    assert state.is_chance_node()  # the next flip, no decision in between
    assert state.returns() == before
    assert state.view()["rows"] == WRONG_ROWS[:2]


# -- Part 3: the bus ----------------------------------------------------------------------------
def test_rtb_b_rider_most_cards_rides():
    """RTB-B-RIDER: the player with the most cards left in their row rides (even with the fewest
    points and the last seat)."""
    state = new_state(3)
    play_part1(state, WRONG_ROWS)  # 10 points each
    flip(state, "2H", give_to=lambda giver: 1)  # seat 0 plays 2C, 2D: 1 point each to seat 1
    flip(state, "4C", give_to=lambda giver: 0)  # seat 1 plays 4S, 4H: 1 point each to seat 0
    for code in ("9C", "9D", "9H", "9S", "TC", "TD", "TH", "TS"):
        flip(state, code)
    view = state.view()
    assert [len(r) for r in view["rows"]] == [2, 2, 4]
    assert view["points"] == [12, 12, 10]
    assert view["bus"]["rider"] == 2
    event = [e for e in state.events() if e.rule == "RTB-B-RIDER"]
    assert len(event) == 1 and event[0].data == {"rider": 2, "cards": [2, 2, 4]}


def test_rtb_b_rider_tie_goes_to_more_points():
    """RTB-B-RIDER: equal cards: the player with more points rides."""
    state = new_state(2)
    # seat 0 is right on Q1 (2H is red) and gives 1 point to seat 1: 2+3+4 = 9 against 10+1 = 11
    play_part1(state, [["2H", "2D", "3C", "3D"], WRONG_ROWS[1]])
    assert state.returns() == [9, 11]
    for code in NO_MATCH_PYRAMID:
        flip(state, code)
    assert [len(r) for r in state.view()["rows"]] == [4, 4]
    assert state.view()["bus"]["rider"] == 1


def test_rtb_b_rider_tie_on_cards_and_points_goes_to_earlier_seat():
    """RTB-B-RIDER: equal cards and equal points: the earlier seat rides."""
    two = to_bus(2)
    view = two.view()
    assert view["points"] == [10, 10] and [len(r) for r in view["rows"]] == [4, 4]
    assert view["bus"]["rider"] == 0
    # three players: seat 0 drops out of the race; seats 1 and 2 tie on 4 cards and 11 points
    three = new_state(3)
    play_part1(three, WRONG_ROWS)
    takers = iter([1, 2])
    flip(three, "2H", give_to=lambda giver: next(takers))  # seat 0 plays 2C, 2D: 1 to seat 1, 1 to seat 2
    for code in NO_MATCH_PYRAMID[1:]:
        flip(three, code)
    view = three.view()
    assert [len(r) for r in view["rows"]] == [2, 4, 4]
    assert view["points"] == [10, 11, 11]
    assert view["bus"]["rider"] == 1


def test_rtb_b_flip_starts_the_bus_with_a_face_up_card():
    """RTB-B-FLIP: one card is flipped face up to start the bus; it is the card to beat."""
    state = to_bus(2)
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 52 - 8 - 10
    start = len(state.events())
    deal(state, "8C")
    flipped = events_since(state, start, "RTB-B-FLIP")
    assert len(flipped) == 1 and flipped[0].data == {"card": "8C"}
    view = state.view()
    assert view["bus"]["card_to_beat"] == "8C" and view["bus"]["cards"] == ["8C"]
    assert state.current_player() == view["bus"]["rider"] == 0
    assert state.legal_actions() == [HIGHER, LOWER]


@pytest.mark.parametrize(
    "guess, card, hit",
    [
        ("higher", "QD", True),
        ("higher", "AD", True),
        ("higher", "7D", False),
        ("higher", "8D", False),
        ("lower", "7D", True),
        ("lower", "4D", True),
        ("lower", "KD", False),
        ("lower", "8H", False),
    ],
)
def test_rtb_b_guess_higher_or_lower_same_rank_misses(guess, card, hit):
    """RTB-B-GUESS: higher or lower than the last face-up card; the same rank is a miss; the new
    card becomes the card to beat."""
    state = to_bus(2)
    deal(state, "8C")
    start = len(state.events())
    say(state, guess)
    # seat 0 rides (both seats hold four cards and 10 points: the earlier seat), first of 40 guesses
    assert events_since(state, start, "RTB-B-GUESS")[0].data == {
        "guess": guess,
        "rider": 0,
        "card_to_beat": "8C",
        "number": 1,
        "max_guesses": 40,
    }
    deal(state, card)
    streak = events_since(state, start, "RTB-B-STREAK")
    assert len(streak) == 1 and streak[0].data["hit"] is hit
    assert state.view()["bus"]["card_to_beat"] == card
    assert state.view()["bus"]["cards"] == ["8C", card]


def test_rtb_b_streak_hit_adds_one_miss_costs_a_point_and_resets():
    """RTB-B-STREAK: a hit adds 1 to the streak; a miss costs the rider 1 point, streak back to 0."""
    state = to_bus(2)
    deal(state, "8C")
    rider = state.view()["bus"]["rider"]
    base = state.returns()
    for expected in (1, 2, 3):
        bus_hit(state)
        assert state.view()["bus"]["streak"] == expected
        assert state.returns() == base
    start = len(state.events())
    bus_miss(state)
    view = state.view()
    assert view["bus"]["streak"] == 0 and view["bus"]["best_streak"] == 3
    expected_points = list(base)
    expected_points[rider] += 1
    assert state.returns() == expected_points
    assert events_since(state, start, "RTB-B-STREAK")[0].data["hit"] is False
    lines = [line for line in state.score_breakdown(rider) if line["rule"] == "RTB-B-STREAK"]
    assert lines == [{"label": "Part 3: misses on the bus", "rule": "RTB-B-STREAK", "points": 1, "times": 1}]


@pytest.mark.parametrize("target", [3, 4, 5, 6, 7])
def test_rtb_b_end_streak_reaches_the_target(target):
    """RTB-B-END: the bus ends when the streak reaches the target (option streak=3..7)."""
    state = to_bus(2, streak=target)
    deal(state, "8C")
    assert state.view()["bus"]["target"] == target
    # target-1 hits, a miss (the streak starts again), then target hits
    for _ in range(target - 1):
        bus_hit(state)
    bus_miss(state)
    for k in range(1, target + 1):
        assert not state.is_terminal()
        start = len(state.events())
        bus_hit(state)
        assert ("RTB-B-END" in rules_since(state, start)) is (k == target)
    assert state.is_terminal()
    assert state.view()["bus"]["guesses"] == 2 * target
    assert state.legal_actions() == []


def test_rtb_b_end_after_40_guesses():
    """RTB-B-END: the bus stops after 40 guesses even without a full streak; each miss costs 1."""
    state = to_bus(2)
    deal(state, "8C")
    base = state.returns()
    for guess in range(1, 41):
        assert not state.is_terminal()
        start = len(state.events())
        bus_miss(state)
        assert ("RTB-B-END" in rules_since(state, start)) is (guess == 40)
    assert state.is_terminal()
    assert state.returns() == [base[0] + 40, base[1]]
    assert state.view()["bus"]["guesses"] == 40


def test_rtb_b_end_40_guesses_with_hits_in_between():
    """RTB-B-END: hits count toward the 40 guesses too (up to 4 hits, then a miss, and again)."""
    state = to_bus(2)
    deal(state, "8C")
    hits = misses = run = 0
    while not state.is_terminal():
        if run < 4 and bus_hit(state) is not None:
            hits += 1
            run += 1
        else:
            bus_miss(state)
            misses += 1
            run = 0
    view = state.view()
    assert hits + misses == view["bus"]["guesses"] == 40
    assert hits >= 28 and view["bus"]["best_streak"] == 4
    assert state.returns() == [10 + misses, 10]


# -- options and errors -------------------------------------------------------------------------
@pytest.mark.parametrize("streak", [3, 4, 5, 6, 7])
def test_rtb_b_end_streak_option_in_range(streak):
    """RTB-B-END: streak takes 3-7."""
    assert load_game("ride_the_bus", streak=streak).params["streak"] == streak


@pytest.mark.parametrize("streak", [2, 8, 0, "5", 5.0, True])
def test_rtb_b_end_streak_option_out_of_range(streak):
    """RTB-B-END: a streak outside 3-7 is refused naming the range."""
    with pytest.raises(ParameterError, match="integer from 3 to 7"):
        load_game("ride_the_bus", streak=streak)


@pytest.mark.parametrize(
    "option, value, phase, rules",
    [
        ("board", "give_and_take", "give_and_take", {"RTB-GT-LAYOUT", "RTB-GT-END"}),
        ("bus", "questions", "bus", {"RTB-QB-ORDER", "RTB-QB-END"}),
        ("mode", "gauntlet", "rides", {"RTB-SG-FLOW", "RTB-SG-ORDER", "RTB-SG-RIDE", "RTB-SG-WIN"}),
    ],
)
def test_variant_options_are_playable(option, value, phase, rules):
    """The Give & Take board (RTB-GT-LAYOUT), the questions bus (RTB-QB-ORDER) and the solo
    gauntlet (RTB-SG-FLOW) are built: each loads, reaches its own phase, applies its own rules and
    plays to the end; the option shows in the view."""
    game = load_game("ride_the_bus", players=3, **{option: value})
    assert game.params[option] == value
    session = Session(game, seed=11, bots="random")
    session.run_to_end()
    assert session.state.is_terminal()
    phases = {session.state_at(i).view()["phase"] for i in range(len(session))}
    assert phase in phases
    assert rules <= {e.rule for e in session.state.events()}
    assert session.state.view()["options"][option] == value


@pytest.mark.parametrize(
    "option, value, allowed",
    [
        ("board", "tower", ["pyramid", "give_and_take"]),
        ("row_points", "double", ["escalating", "flat"]),
        ("bus", "train", ["higher_lower", "questions"]),
        ("mode", "solo", ["classic", "gauntlet"]),
    ],
)
def test_bad_option_values_name_the_allowed_values(option, value, allowed):
    """Bad option values raise ParameterError naming every allowed value."""
    with pytest.raises(ParameterError) as info:
        load_game("ride_the_bus", **{option: value})
    for name in allowed:
        assert repr(name) in str(info.value)


def test_unknown_parameter_and_unknown_game():
    """An unknown parameter names the allowed ones; an unknown game lists the registered names."""
    with pytest.raises(ParameterError, match="streak"):
        load_game("ride_the_bus", colour="red")
    with pytest.raises(UnknownGameError) as info:
        load_game("ride_the_tram")
    for name in bus_lab.registered_games():
        assert name in str(info.value)
    assert "ride_the_bus" in bus_lab.registered_games()


def test_rtb_view_is_json_safe_and_same_for_every_seat():
    """RTB-Q-ORDER: Part 1 cards are face up, so every seat sees the same table."""
    state = to_seat0_question(3, ["5H", "9C"], ["KS", "KD"])
    views = [state.view(seat) for seat in (None, 0, 1)]
    texts = [json.dumps({k: v for k, v in view.items() if k != "viewer"}) for view in views]
    assert texts[0] == texts[1] == texts[2]
    assert views[0]["rows"] == [["5H", "9C"], ["KS", "KD"]]
    with pytest.raises(ParameterError, match="no seat 2"):
        state.view(2)


# -- card names in sentences -----------------------------------------------------------------
BARE_CODE = re.compile(r"\b[2-9TJQKA][CDHS]\b")


def test_rtb_event_texts_name_cards_as_the_board_does():
    """RTB-Q-ORDER, RTB-P-FLIP, RTB-P-MATCH, RTB-DISCARD, RTB-B-FLIP, RTB-B-GUESS, RTB-B-STREAK: the
    sentences of the log and the status say "10♦" and "A♣" (rank and suit symbol, as the cards on the
    board), never the codes "TD" and "AC"; the machine-readable data and the action labels keep the codes."""
    state = new_state(2)
    play_part1(state, [["TD", "AC", "2C", "3C"], ["4S", "4H", "5S", "5C"]])
    events = state.events()
    dealt = [e for e in events if e.rule == "RTB-Q-ORDER"]
    assert [e.text for e in dealt[:2]] == [
        "10♦ is dealt face up into Seat 0's row.",
        "4♠ is dealt face up into Seat 1's row.",
    ]
    assert [e.data["card"] for e in dealt[:2]] == ["TD", "4S"]  # the payload keeps the codes
    assert state.action_to_string(parse_card("TD")) == "TD"  # and so do the action labels
    flip(state, "TS")  # seat 0 holds TD: it matches and is played
    flip(state, "AH")  # seat 0 holds AC
    texts = [e.text for e in state.events()[len(events) :]]
    assert "Pyramid card 1 of 10 (row 1) is flipped: 10♠." in texts
    assert "Seat 0 matches and plays 10♦." in texts and "10♦ goes to the discard pile." in texts
    assert "Seat 0 matches and plays A♣." in texts and "The flipped A♥ goes to the discard pile." in texts
    match = [e for e in state.events() if e.rule == "RTB-P-MATCH"]
    assert [e.data["cards"] for e in match] == [["TD"], ["AC"]]
    for code in ["9C", "9D", "9H", "9S", "JC", "JD", "JH", "JS"]:  # ranks nobody holds
        flip(state, code)
    deal(state, "8C")  # the bus starts: Seat 1 (four cards left) rides
    assert "The bus starts: 8♣ is flipped face up." in [e.text for e in state.events()]
    assert "higher or lower than 8♣?" in state.status()
    say(state, "higher")
    deal(state, "KD")
    texts = [e.text for e in state.events()]
    assert "Seat 1 calls higher than 8♣ (guess 1 of 40)." in texts
    assert (
        "K♦: a hit, streak 1 of 5." in texts
        and "8♣ is no longer needed and goes to the discard pile." in texts
    )
    for event in state.events():
        assert not BARE_CODE.search(event.text), event


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"board": "give_and_take"},
        {"bus": "questions"},
        {"mode": "gauntlet", "players": 2},
        {"board": "give_and_take", "bus": "questions", "row_points": "flat"},
    ],
)
def test_rtb_no_card_code_in_any_sentence(options):
    """Whole games at every table setting: no event text, status, board description (aria-label) or
    text table (``print(state)``) names a card by its code; each card named in an event's data
    appears in its sentence as rank and suit symbol (card_label), and each card in a row in the
    text table."""
    params = {"players": 3, **options}
    for seed in range(3):
        session = Session(load_game("ride_the_bus", **params), seed=seed, bots="random")
        statuses = [session.state.status()]
        while not session.state.is_terminal():
            session.step()
            statuses.append(session.state.status())
            if session.position % 7 == 0 or session.state.is_terminal():
                table, view = str(session.state), session.state.view()
                statuses.append(table)
                for seat, row in enumerate(view["rows"]):
                    assert " ".join(card_label(parse_card(c)) for c in row) in table.splitlines()[1 + seat]
        for event in session.state.events():
            assert not BARE_CODE.search(event.text), event
            named = [event.data.get("card")] + list(
                event.data.get("cards") or [] if event.rule != "RTB-DECK-EMPTY" else []
            )
            for code in (c for c in named if isinstance(c, str)):  # RTB-B-RIDER's "cards" are counts
                assert card_label(parse_card(code)) in event.text, event
        for text in statuses:
            assert not BARE_CODE.search(text), text
        assert not BARE_CODE.search(describe(session.state.view()))  # the board's aria-label too
