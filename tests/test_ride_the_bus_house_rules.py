"""Ride the Bus house rules (RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES, RTB-HR-FLIP, RTB-HR-STAY).

Every exact figure is checked against an independent count written plainly here: the cards that
make a guess right are counted one by one with this file's own rank order and comparisons (never
the engine's ``judge``), over the remaining cards or over every deal of a few cards; one
multi-step figure is checked against a seeded simulation with a tolerance of 4 standard errors.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import combinations, permutations, product

import pytest
from rtb_script import NO_MATCH_PYRAMID, at_give, deal, events_since, give, new_state, say

from bus_lab import load_game
from bus_lab.engine.errors import ParameterError
from bus_lab.engine.session import Session
from bus_lab.games.ride_the_bus import bus_odds, part1_odds, pyramid_odds
from bus_lab.games.ride_the_bus.odds import best_guess, guess_odds, guess_odds_fast
from bus_lab.games.ride_the_bus.policies import best_odds_policy

RANKS = "23456789TJQKA"
SUITS = "CDHS"
RED = "DH"
HOUSE = [
    {"ties": "win"},
    {"inside": "inclusive"},
    {"aces": "low"},
    {"ties": "win", "inside": "inclusive", "aces": "low"},
]


# -- the plain count ---------------------------------------------------------------------------
def place(code: str, aces: str) -> int:
    """Where a card's rank sits, 0 lowest: A is 0 when aces are low, else 12 (RTB-HR-ACES)."""
    order = "A23456789TJQK" if aces == "low" else "23456789TJQKA"
    return order.index(code[0])


def plain_right(guess: str, code: str, against: list[str], ties="lose", inside="strict", aces="high") -> bool:
    r = place(code, aces)
    if guess in ("red", "black"):
        return (code[1] in RED) == (guess == "red")
    if guess in ("higher", "lower"):
        first = place(against[0], aces)
        if r == first:
            return ties == "win"  # RTB-HR-TIES (RTB-Q2: a tie loses)
        return r > first if guess == "higher" else r < first
    if guess in ("inside", "outside"):
        a, b = sorted(place(c, aces) for c in against[:2])
        if guess == "outside":
            return r < a or r > b
        return a <= r <= b if inside == "inclusive" else a < r < b  # RTB-HR-INSIDE
    return code[1] == {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}[guess]


def code(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def guess_states(params: dict, seeds=range(4)):
    """Every guessing decision of seeded random games with these options."""
    game = load_game("ride_the_bus", **params)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and state.is_guess(state.legal_actions()[0]):
                yield state.clone()
            state.apply_action(rng.choice(state.legal_actions()))


# -- options and refusals ----------------------------------------------------------------------
def test_defaults_are_the_base_rules_and_leave_params_and_records_as_before():
    """The five house rules default to the base rules; at those values they stay out of
    ``game.params`` (and so out of saved records and ``view()["options"]``)."""
    game = load_game("ride_the_bus")
    assert game.house_rules() == {
        "ties": "lose",
        "inside": "strict",
        "aces": "high",
        "pyramid_order": "bottom_up",
        "played_cards": "leave",
    }
    assert list(game.params) == ["players", "board", "row_points", "bus", "streak", "mode"]
    assert load_game("ride_the_bus", ties="lose", aces="high") == game
    house = load_game("ride_the_bus", aces="low", played_cards="stay")
    assert house.params["aces"] == "low" and "ties" not in house.params and house.params["ties"] == "lose"
    assert house.new_initial_state().view()["options"] == house.params
    assert eval(repr(house), {"load_game": load_game}) == house
    restored = Session.from_json(Session(house, seed=3).to_json())
    assert restored.game == house and restored.game.house_rules()["played_cards"] == "stay"
    state = new_state(2)
    assert not [e for e in state.events() if e.rule.startswith("RTB-HR-")]


@pytest.mark.parametrize("option", [{"pyramid_order": "top_down"}, {"played_cards": "stay"}])
def test_part_two_house_rules_are_refused_in_the_gauntlet(option):
    """RTB-HR-FLIP, RTB-HR-STAY: the gauntlet has no Part 2 (RTB-SG-FLOW)."""
    with pytest.raises(ParameterError, match="does not apply in mode='gauntlet'.*RTB-SG-FLOW"):
        load_game("ride_the_bus", players=2, mode="gauntlet", **option)


def test_top_down_is_refused_on_the_give_and_take_board():
    """RTB-HR-FLIP: the Give & Take board has no pyramid."""
    with pytest.raises(ParameterError, match="board='give_and_take'.*RTB-HR-FLIP"):
        load_game("ride_the_bus", board="give_and_take", pyramid_order="top_down")
    load_game("ride_the_bus", board="give_and_take", played_cards="stay")  # RTB-HR-STAY applies there


@pytest.mark.parametrize("option", [{"ties": "win"}, {"inside": "inclusive"}, {"aces": "low"}])
def test_guess_house_rules_play_in_the_gauntlet(option):
    load_game("ride_the_bus", players=1, mode="gauntlet", **option)


@pytest.mark.parametrize("option", [{"ties": "draw"}, {"aces": "middle"}, {"played_cards": "keep"}])
def test_unknown_house_rule_values_are_refused(option):
    with pytest.raises(ParameterError):
        load_game("ride_the_bus", **option)


# -- the engine's events -----------------------------------------------------------------------
def test_rtb_hr_ties_a_same_rank_card_is_right_for_higher():
    """RTB-HR-TIES: 7♣ then higher and a 7♦: right under ties win, with its own event."""
    state = new_state(2, ties="win")
    say(state, "black")
    deal(state, "7C")
    give(state, 1)
    say(state, "red")
    deal(state, "2D")
    give(state, 0)
    say(state, "higher")
    start = len(state.events())
    deal(state, "7D")
    (event,) = events_since(state, start, "RTB-HR-TIES")
    assert event.data == {
        "option": "ties",
        "setting": "win",
        "guess": "higher",
        "card": "7D",
        "against": ["7C"],
        "right": True,
    }
    assert (
        event.text
        == "House rule: a card of the same rank counts as right for higher or lower, so higher is right with 7♦."
    )
    assert events_since(state, start, "RTB-Q-RIGHT") and at_give(state)


def test_base_rule_same_rank_is_wrong_and_no_house_event():
    state = new_state(2)
    say(state, "black")
    deal(state, "7C")
    give(state, 1)
    say(state, "red")
    deal(state, "2D")
    give(state, 0)
    say(state, "higher")
    start = len(state.events())
    deal(state, "7D")
    assert not [e for e in state.events()[start:] if e.rule.startswith("RTB-HR-")]
    assert events_since(state, start, "RTB-Q-WRONG")


def test_rtb_hr_inside_and_rtb_hr_aces_decide_question_three():
    """RTB-HR-INSIDE: 3 and 9, inside, a 9: right when inclusive. RTB-HR-ACES: 2 and A, inside, a K:
    wrong when aces are low (A is below 2, so nothing is strictly between A and 2)."""
    state = new_state(1, mode="gauntlet", inside="inclusive", aces="low")
    for guess, card in (("red", "3D"), ("higher", "9S")):
        say(state, guess)
        deal(state, card)
    say(state, "inside")
    start = len(state.events())
    deal(state, "9H")
    (event,) = events_since(state, start, "RTB-HR-INSIDE")
    assert event.data["right"] is True and event.data["against"] == ["3D", "9S"]
    assert state.events()[0].data == {"aces": "low"} and "aces are low" in state.events()[0].text

    state = new_state(1, mode="gauntlet", aces="low")
    for guess, card in (("red", "2D"), ("lower", "AS")):
        say(state, guess)
        deal(state, card)
    say(state, "inside")
    start = len(state.events())
    deal(state, "KH")
    (event,) = events_since(state, start, "RTB-HR-ACES")
    assert event.data["right"] is False and event.data["guess"] == "inside"
    setup = [e for e in state.events() if e.rule == "RTB-HR-ACES" and "guess" not in e.data]
    assert setup[0].data == {"option": "aces", "setting": "low"}


def _two_rows(params: dict):
    """Two players, every answer wrong, rows 2C 2D 3C 3D and 4S 4H 5S 5C."""
    state = new_state(2, **params)
    rows = [["2C", "2D", "3C", "3D"], ["4S", "4H", "5S", "5C"]]
    for r, guess in enumerate(["red", "higher", "inside", "hearts"]):
        for seat in range(2):
            say(state, guess)
            deal(state, rows[seat][r])
    return state


def test_rtb_hr_flip_top_down_flips_the_top_card_first_at_its_row_points():
    """RTB-HR-FLIP: the first flip is position 9 (row 4, 4 points per card), then 7, 8 (row 3)."""
    state = _two_rows({"pyramid_order": "top_down"})
    assert state.status() == "Flip pyramid card 10 of 10 (row 4)."
    from bus_lab.board.adapters.ride_the_bus import part_line

    assert part_line(state).endswith("[RTB-P-FLIP], flip 1 of 10, top card first [RTB-HR-FLIP]")
    start = len(state.events())
    deal(state, "2H")
    flip = events_since(state, start, "RTB-P-FLIP")[0]
    assert flip.data == {"index": 9, "row": 4, "card": "2H", "order": "RTB-HR-FLIP"}
    assert events_since(state, start, "RTB-P-POINTS")[0].data == {"row": 4, "points": 4}
    give(state, 1)
    give(state, 1)
    assert state.points[1] == 10 + 8
    deal(state, "9C")
    assert state.pyramid[7] is not None and state.pyramid[0] is None


def test_rtb_hr_stay_played_cards_stay_and_play_again():
    """RTB-HR-STAY: a played 2 stays in the row and is played again by the next 2 flipped."""
    state = _two_rows({"played_cards": "stay"})
    start = len(state.events())
    deal(state, "2H")
    (stay,) = events_since(state, start, "RTB-HR-STAY")
    assert stay.data == {"option": "played_cards", "setting": "stay", "seat": 0, "cards": ["2C", "2D"]}
    assert all(e.data["source"] != "rows" for e in events_since(state, start, "RTB-DISCARD"))
    give(state, 1)
    give(state, 1)
    assert [code(c) for c in state.rows[0]] == ["2C", "2D", "3C", "3D"]
    start = len(state.events())
    deal(state, "2S")
    assert events_since(state, start, "RTB-P-MATCH")[0].data["cards"] == ["2C", "2D"]


def test_rtb_hr_stay_rider_is_chosen_on_the_rows():
    """RTB-HR-STAY with RTB-B-RIDER: every row keeps 4 cards, so the rider is the one with more
    points (then the earlier seat)."""
    state = _two_rows({"played_cards": "stay"})
    for card in NO_MATCH_PYRAMID:
        deal(state, card)
    rider = [e for e in state.events() if e.rule == "RTB-B-RIDER"][0]
    assert rider.data["cards"] == [4, 4] and rider.data["rider"] == 0


@pytest.mark.parametrize(
    "params",
    [
        {"played_cards": "stay", "board": "give_and_take"},
        {"played_cards": "stay", "pyramid_order": "top_down", "ties": "win"},
        {"mode": "gauntlet", "players": 3, "ties": "win", "aces": "low", "inside": "inclusive"},
        {"bus": "questions", "ties": "win", "inside": "inclusive", "aces": "low"},
    ],
)
def test_house_rules_play_to_the_end_within_the_length_bound(params):
    from bus_lab.games.ride_the_bus.encoding import max_game_length

    game = load_game("ride_the_bus", **params)
    for seed in range(6):
        session = Session(game, seed=seed, bots="random")
        session.run_to_end()
        assert session.state.is_terminal()
        assert len(session.state.history()) <= max_game_length(game)


# -- guess odds at every guess, against the plain count over the draw pile ---------------------
@pytest.mark.parametrize("house", HOUSE, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
@pytest.mark.parametrize("variant", [{}, {"bus": "questions"}, {"mode": "gauntlet", "players": 2}])
def test_guess_odds_fast_path_bot_and_board_count_the_draw_pile(house, variant):
    """RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES: every guess's chance is (cards of the draw pile that
    make it right, counted plainly) / (cards in the draw pile)."""
    from bus_lab.board.adapters.ride_the_bus import RideTheBusAdapter

    checked = 0
    for state in guess_states({**variant, **house}):
        if not state.draw:
            continue
        against = (
            [code(c) for c in state.rows[state.q_seat]]
            if state.part == "questions"
            else [code(c) for c in state.run]
            if state.bus_kind == "questions" and not state.gauntlet
            else [code(state.card_to_beat)]
        )
        draw = [code(c) for c in state.draw]
        expected = {
            a: Fraction(
                sum(plain_right(state.action_to_string(a), c, against, **house) for c in draw), len(draw)
            )
            for a in state.legal_actions()
        }
        assert guess_odds(state) == expected
        assert guess_odds_fast(state) == expected
        moves = state.legal_moves()
        assert RideTheBusAdapter().odds(state, moves) == expected
        best = max(expected.values())
        assert expected[best_odds_policy(state, random.Random(checked))] == best
        assert best_guess(state)[1] == best
        checked += 1
    assert checked > 20


# -- Part 1 tables and chances, against every deal --------------------------------------------
DECK = [r + s for r in RANKS for s in SUITS]


@pytest.mark.parametrize("ties,aces", list(product(("lose", "win"), ("high", "low"))))
def test_q2_table_counts_the_51_other_cards(ties, aces):
    """RTB-HR-TIES, RTB-HR-ACES on question 2."""
    table = part1_odds.q2_table(ties=ties, aces=aces)
    for rank in RANKS:
        first = rank + "C"
        rest = [c for c in DECK if c != first]
        for guess in ("higher", "lower"):
            count = sum(plain_right(guess, c, [first], ties=ties, aces=aces) for c in rest)
            assert table[rank][guess] == Fraction(count, 51), (rank, guess)
    assert list(table)[0] == ("A" if aces == "low" else "2")


@pytest.mark.parametrize("inside,aces", list(product(("strict", "inclusive"), ("high", "low"))))
def test_q3_table_counts_the_50_other_cards(inside, aces):
    """RTB-HR-INSIDE, RTB-HR-ACES on question 3 (a pair: inclusive inside wins only on its rank)."""
    table = part1_odds.q3_table(inside=inside, aces=aces)
    for r1, r2 in product(RANKS, repeat=2):
        row = [r1 + "C", r2 + "D"]
        rest = [c for c in DECK if c not in row]
        for guess in ("inside", "outside"):
            count = sum(plain_right(guess, c, row, inside=inside, aces=aces) for c in rest)
            assert table[(r1, r2)][guess] == Fraction(count, 50), (r1, r2, guess)
    if inside == "inclusive":
        assert table[("7", "7")]["inside"] == Fraction(2, 50)


def plain_question_chances(ties="lose", inside="strict", aces="high") -> dict[int, Fraction]:
    """A lone player's chance of each of Q2 and Q3 right under best odds (tied best guesses split
    evenly), over every ordered deal of the first three cards."""
    q2 = Fraction(0)
    for first in DECK:
        rest = [c for c in DECK if c != first]
        counts = [
            sum(plain_right(g, c, [first], ties, inside, aces) for c in rest) for g in ("higher", "lower")
        ]
        q2 += Fraction(max(counts), 51)
    q3 = Fraction(0)
    for first, second in permutations(DECK, 2):
        rest = [c for c in DECK if c not in (first, second)]
        counts = [
            sum(plain_right(g, c, [first, second], ties, inside, aces) for c in rest)
            for g in ("inside", "outside")
        ]
        q3 += Fraction(max(counts), 50)
    return {2: q2 / 52, 3: q3 / (52 * 51)}


@pytest.mark.parametrize("house", HOUSE, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
def test_question_right_chances_count_every_deal(house):
    """RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES: P(Q2 right) and P(Q3 right) for a lone best-odds
    player; Q1 (1/2) and Q4 (13/49) do not depend on the house rules."""
    exact = part1_odds.question_right_chances("best_odds", **house)
    plain = plain_question_chances(**house)
    assert exact[2] == plain[2] and exact[3] == plain[3]
    assert exact[1] == Fraction(1, 2) and exact[4] == Fraction(13, 49)


def test_question_two_figures_the_lesson_compares():
    """RTB-Q2 and RTB-HR-TIES: a fresh deck, a lone best-odds player: 160/221 with ties losing and
    173/221 with ties winning. With replacement (every card any of 52, as a forum answer counts):
    120/169 with ties losing, 133/169 with ties winning: plain counts over the 13 first ranks."""
    assert part1_odds.question_right_chances()[2] == Fraction(160, 221)
    assert part1_odds.question_right_chances(ties="win")[2] == Fraction(173, 221)
    lose = sum(max(12 - r, r) for r in range(13))  # ranks strictly above / below, out of 13
    win = sum(max(13 - r, r + 1) for r in range(13))  # the same rank counts for either call
    assert Fraction(lose, 169) == Fraction(120, 169) and Fraction(win, 169) == Fraction(133, 169)


def test_all_four_right_with_ties_winning_against_a_seeded_simulation():
    """RTB-HR-TIES and RTB-HR-INSIDE, a multi-step figure: P(all four right) for a lone best-odds
    player, against 10,000 plainly simulated deals (seed 2026). The simulated share has standard
    error sqrt(p (1 - p) / n), about 0.0026 here (p is about 0.075); 4 standard errors leave a false
    alarm chance below 1 in 15,000."""
    house = {"ties": "win", "inside": "inclusive"}
    exact = part1_odds.all_four_right("best_odds", **house)
    rng = random.Random(2026)
    n, wins = 10_000, 0
    guesses = (
        ("red", "black"),
        ("higher", "lower"),
        ("inside", "outside"),
        ("clubs", "diamonds", "hearts", "spades"),
    )
    for _ in range(n):
        deck = DECK[:]
        rng.shuffle(deck)
        row: list[str] = []
        ok = True
        for k in range(4):
            unseen = deck[k:]
            counts = [sum(plain_right(g, c, row, **house) for c in unseen) for g in guesses[k]]
            best = [g for g, c in zip(guesses[k], counts) if c == max(counts)]
            if not plain_right(rng.choice(best), deck[k], row, **house):
                ok = False
                break
            row.append(deck[k])
        wins += ok
    share = wins / n
    se = math.sqrt(float(exact) * (1 - float(exact)) / n)
    assert abs(share - float(exact)) < 4 * se, (share, float(exact), se)


# -- the bus chains (with replacement), against plain sums over rank sequences ------------------
def plain_bus_off(streak: int, guesses: int, ties: str, aces: str) -> Fraction:
    """P(streak hits in a row within ``guesses`` calls), each card any of 52 (13 equally likely
    ranks), best call (more ranks on its side; a tie of sides: higher), summed over every sequence
    of ranks."""
    order = list(range(13))  # places; the rank names do not matter with replacement...
    if aces == "low":  # ...but count them in the relabelled order anyway
        order = [place(r + "C", "low") for r in RANKS]
    total = Fraction(0)
    for seq in product(order, repeat=guesses + 1):
        s = 0
        for prev, nxt in zip(seq, seq[1:]):
            higher = 12 - prev >= prev
            if nxt == prev:
                hit = ties == "win"
            else:
                hit = nxt > prev if higher else nxt < prev
            s = s + 1 if hit else 0
            if s == streak:
                total += 1
                break
    return total / 13 ** (guesses + 1)


@pytest.mark.parametrize("ties,aces", list(product(("lose", "win"), ("high", "low"))))
def test_bus_off_chance_counts_every_rank_sequence(ties, aces):
    """RTB-HR-TIES, RTB-HR-ACES on the higher/lower bus (RTB-B-GUESS, RTB-B-STREAK)."""
    assert bus_odds.bus_off_chance(2, 3, ties=ties, aces=aces) == plain_bus_off(2, 3, ties, aces)
    assert bus_odds.bus_off_by_guess(2, 3, ties=ties)[2] == plain_bus_off(2, 2, ties, aces)


def test_gauntlet_one_ride_counts_every_rank_sequence():
    """RTB-HR-TIES in the gauntlet: one ride, 2 in a row wins; a miss ends the ride."""
    for ties in ("lose", "win"):
        total = Fraction(0)
        for a, b, c in product(range(13), repeat=3):
            calls = [(a, b), (b, c)]
            hits = 0
            for prev, nxt in calls:
                higher = 12 - prev >= prev
                hit = (ties == "win") if nxt == prev else (nxt > prev if higher else nxt < prev)
                if not hit:
                    break
                hits += 1
            total += hits == 2
        assert bus_odds.gauntlet_win_chance(2, 1, ties=ties) == total / 13**3


@pytest.mark.parametrize("house", HOUSE, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
def test_questions_bus_first_four_cards_count_every_deal(house):
    """RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES on the questions bus: off in 4 guesses means four
    right answers on four cards drawn with replacement; summed over every first three cards (the
    fourth, a suit, is right with 13 of 52)."""
    total = Fraction(0)
    colour = 26
    for c1 in DECK:
        for c2 in DECK:
            q2 = [sum(plain_right(g, c, [c1], **house) for c in DECK) for g in ("higher", "lower")]
            g2 = ("higher", "lower")[q2.index(max(q2))]
            if not plain_right(g2, c2, [c1], **house):
                continue
            q3 = [sum(plain_right(g, c, [c1, c2], **house) for c in DECK) for g in ("inside", "outside")]
            g3 = ("inside", "outside")[q3.index(max(q3))]
            wins = sum(plain_right(g3, c3, [c1, c2], **house) for c3 in DECK)
            total += Fraction(wins, 52)
    expected = Fraction(colour, 52) * total / 52**2 * Fraction(13, 52)
    assert bus_odds.questions_bus_off_chance(4, **house) == expected


# -- the pyramid: top-down flips and cards that stay --------------------------------------------
@pytest.mark.parametrize(
    "house",
    [
        {"pyramid_order": "top_down"},
        {"played_cards": "stay"},
        {"pyramid_order": "top_down", "played_cards": "stay"},
    ],
)
def test_pyramid_odds_last_two_flips_against_every_ordered_draw(house):
    """RTB-HR-FLIP, RTB-HR-STAY: with two flips left, the expected points, cards played and
    no-match flips are averages over every ordered pair of draw-pile cards, played on the engine."""
    state = _two_rows(house)
    for card in ["9C", "9D", "9H", "9S", "TC", "TD", "TH", "2H"]:
        deal(state, card)
        while at_give(state):
            give(state, 1 - state.gives[0][0])
    assert state.pyramid_index == 8 and state.is_chance_node()
    figures = pyramid_odds.pyramid_odds_from_state(state)
    draw = sorted(state.draw)
    points = played = no_match = 0
    pairs = 0
    for a, b in permutations(draw, 2):
        trial = state.clone()
        for card in (a, b):
            before = len(trial.events())
            trial.apply_action(card)
            while at_give(trial):
                give(trial, 1 - trial.gives[0][0])
            for e in trial.events()[before:]:
                if e.rule == "RTB-P-MATCH":
                    played += len(e.data["cards"])
                elif e.rule == "RTB-P-NOMATCH":
                    no_match += 1
                elif e.rule == "RTB-P-GIVE":
                    points += e.data["points"]
        pairs += 1
    done_points = sum(
        e.data["points"] for e in state.events() if e.rule == "RTB-P-GIVE"
    )  # Part 1 gives are none (every answer wrong)
    done_played = sum(len(e.data["cards"]) for e in state.events() if e.rule == "RTB-P-MATCH")
    done_no_match = sum(1 for e in state.events() if e.rule == "RTB-P-NOMATCH")
    assert figures.expected_points == done_points + Fraction(points, pairs)
    assert figures.expected_cards_played == done_played + Fraction(played, pairs)
    assert figures.expected_no_match == done_no_match + Fraction(no_match, pairs)


@pytest.mark.parametrize("house", [{"pyramid_order": "top_down"}, {"played_cards": "stay"}])
def test_pyramid_fresh_deck_flip_figures_count_where_the_rank_sits(house):
    """RTB-HR-FLIP, RTB-HR-STAY, fresh deck, 2 players: flip j's card has 3 other cards of its
    rank, equally likely in any 3 of the 51 other places (8 in the rows, j earlier flips, the
    rest). Counted plainly over those C(51, 3) placements: its points and whether it matches."""
    figures = pyramid_odds.pyramid_fresh_deck(2, **house)
    order_rows = (
        [4, 3, 3, 2, 2, 2, 1, 1, 1, 1]
        if house.get("pyramid_order") == "top_down"
        else [1, 1, 1, 1, 2, 2, 2, 3, 3, 4]
    )
    stay = house.get("played_cards") == "stay"
    total_points = Fraction(0)
    for j in range(10):
        places = ["row"] * 8 + ["earlier"] * j + ["rest"] * (51 - 8 - j)
        matched = points = 0
        for trio in combinations(range(51), 3):
            kinds = [places[i] for i in trio]
            in_rows = kinds.count("row")
            if not stay and "earlier" in kinds:
                continue  # an earlier flip of this rank already took the row cards
            if in_rows:
                matched += 1
                points += in_rows * order_rows[j]
        ways = math.comb(51, 3)
        assert figures[f"no_match_flip{j + 1}"] == 1 - Fraction(matched, ways)
        total_points += Fraction(points, ways)
    assert figures["points"] == total_points


# -- Session records with the defaults --------------------------------------------------------
def test_default_games_are_unchanged_by_the_new_options():
    """The base rules, spelled out or left out, give the very same game."""
    plain = Session(load_game("ride_the_bus", players=3), seed=9, bots="best_odds")
    spelled = Session(
        load_game(
            "ride_the_bus",
            players=3,
            ties="lose",
            inside="strict",
            aces="high",
            pyramid_order="bottom_up",
            played_cards="leave",
        ),
        seed=9,
        bots="best_odds",
    )
    plain.run_to_end()
    spelled.run_to_end()
    assert plain.state.history() == spelled.state.history()
    assert [e.text for e in plain.state.events()] == [e.text for e in spelled.state.events()]


# -- the widget's "Table settings" panel --------------------------------------------------------
def _odds_text(p: Fraction) -> str:
    from decimal import ROUND_HALF_UP, Decimal

    percent = (Decimal(p.numerator) * 100 / Decimal(p.denominator)).quantize(Decimal("0.1"), ROUND_HALF_UP)
    return {0: "0 (impossible)", 1: "1 (certain)"}.get(p, f"{p.numerator}/{p.denominator} ({percent}%)")


def test_widget_panel_sets_the_house_rules_and_plays_with_their_odds():
    """RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES, RTB-HR-FLIP, RTB-HR-STAY from the panel: the new
    table plays to the end, and every answer on the board shows the plainly counted odds."""
    from bus_lab.widgets import RideTheBusWidget

    w = RideTheBusWidget(players=3, humans=(0,), seed=5)
    for name in ("ties", "inside", "aces", "pyramid_order", "played_cards"):
        control = w.settings[name]
        assert control.description and "RTB-HR-" in control.tooltip and not control.disabled
    w.settings["ties"].value = "win"
    w.settings["inside"].value = "inclusive"
    w.settings["aces"].value = "low"
    w.settings["pyramid_order"].value = "top_down"
    w.settings["played_cards"].value = "stay"
    w.deal_button.click()
    assert w.last_error is None, w.message_text
    house = {"ties": "win", "inside": "inclusive", "aces": "low"}
    assert w.session.game.house_rules() == {**house, "pyramid_order": "top_down", "played_cards": "stay"}
    assert (
        "house rules: ties win, inclusive inside, aces low, pyramid top down, played cards stay"
        in (w.frame["heading"])
    )
    rng = random.Random(4)
    checked = steps = 0
    while not w.session.state.is_terminal():
        assert steps < 3000
        state = w.session.state
        legal = w.frame["moves"]
        if legal:
            if state.is_guess(state.legal_actions()[0]) and state.draw:
                against = (
                    [code(c) for c in state.rows[state.q_seat]]
                    if state.part == "questions"
                    else [code(state.card_to_beat)]
                )
                draw = [code(c) for c in state.draw]
                for m in legal:
                    right = sum(plain_right(m["label"], c, against, **house) for c in draw)
                    assert m["odds"] == _odds_text(Fraction(right, len(draw))), m["label"]
                    checked += 1
            w.play(rng.choice(legal)["action"])
        else:
            w.step()
        assert w.last_error is None, w.message_text
        steps += 1
    assert checked >= 8  # seat 0's four questions, two answers each, at least
    assert any(e.rule == "RTB-HR-STAY" for e in w.session.state.events())


def test_widget_panel_turns_off_house_rules_that_do_not_apply():
    """RTB-HR-FLIP has no pyramid on the Give & Take board; RTB-HR-FLIP and RTB-HR-STAY have no
    Part 2 in the gauntlet (RTB-SG-FLOW): those controls go back to the standard rule, disabled."""
    from bus_lab.widgets import RideTheBusWidget

    w = RideTheBusWidget(players=2, humans=(), seed=1)
    w.settings["pyramid_order"].value = "top_down"
    w.settings["played_cards"].value = "stay"
    w.settings["board"].value = "give_and_take"
    assert w.settings["pyramid_order"].value == "bottom_up" and w.settings["pyramid_order"].disabled
    assert "RTB-HR-FLIP" in w.settings["pyramid_order"].tooltip and not w.settings["played_cards"].disabled
    w.deal_button.click()
    assert w.last_error is None and w.session.game.params["played_cards"] == "stay"
    w.settings["mode"].value = "gauntlet"
    assert w.settings["played_cards"].value == "leave" and w.settings["played_cards"].disabled
    w.settings["ties"].value = "win"  # applies to the rides
    w.deal_button.click()
    assert w.last_error is None and w.session.game.house_rules()["ties"] == "win"
    w.settings["mode"].value = "classic"  # the classic choices come back
    assert w.settings["played_cards"].value == "stay" and w.settings["board"].value == "give_and_take"


# -- a seat at a table ------------------------------------------------------------------------------
def test_table_question_two_with_ties_winning_counts_every_deal():
    """RTB-HR-TIES at a table of two, seat 0: before question 2 it has seen its own first card and
    seat 1's first card; the best guess is counted over the 50 unseen cards, for every such deal."""
    total = Fraction(0)
    for own, other in permutations(DECK, 2):
        unseen = [c for c in DECK if c not in (own, other)]
        best = max(sum(plain_right(g, c, [own], ties="win") for c in unseen) for g in ("higher", "lower"))
        total += Fraction(best, 50)
    expected = total / (52 * 51)
    assert part1_odds.table_question_right_chances(2, 0, ties="win")[2] == expected


def test_table_question_three_inclusive_counts_every_deal_of_ranks():
    """RTB-HR-INSIDE at a table of two, seat 0: before question 3 it has seen its two cards and
    seat 1's two; suits do not matter here, so the deals are counted by rank, each weighted by the
    ways of dealing those ranks from one deck."""
    total = Fraction(0)
    for a, b, x, y in product(range(13), repeat=4):
        left = [4] * 13
        ways = 1
        for r in (a, b, x, y):
            ways *= left[r]
            left[r] -= 1
        if not ways:
            continue
        lo, hi = min(a, b), max(a, b)
        n_in = sum(left[r] for r in range(13) if lo <= r <= hi)
        n_out = sum(left[r] for r in range(13) if r < lo or r > hi)
        total += ways * Fraction(max(n_in, n_out), 48)
    expected = total / (52 * 51 * 50 * 49)
    assert part1_odds.table_question_right_chances(2, 0, inside="inclusive")[3] == expected


def test_seat_expectations_follow_the_house_rules_exactly_and_refuse_to_simulate_them():
    """RTB-HR-TIES: the exact parts follow the house rule; the table simulation plays the base rules
    only, so it is refused rather than mixed in."""
    lone = part1_odds.seat_expectations(1, 0, ties="win")
    assert lone.question_right == part1_odds.question_right_chances(ties="win") and lone.exact
    table = part1_odds.seat_expectations(3, 1, n=0, ties="win")
    assert table.question_right == part1_odds.table_question_right_chances(3, 1, ties="win")
    with pytest.raises(ValueError, match="base rules only"):
        part1_odds.seat_expectations(3, 1, n=100, ties="win")


def test_pyramid_odds_with_both_pyramid_house_rules_against_seeded_engine_playouts():
    """RTB-HR-FLIP and RTB-HR-STAY together, a multi-step figure: the expected points and no-match
    flips of a whole pyramid from fixed rows, against 1,000 seeded playouts on the engine itself.
    Each estimate's standard error comes from its own sample (about 0.1 points); 4 standard errors
    leave a false alarm chance below 1 in 15,000 per figure."""
    rows = [["2C", "5D", "9H", "KS"], ["2D", "7C", "JH", "AS"], ["3C", "3D", "TH", "QS"]]
    house = {"pyramid_order": "top_down", "played_cards": "stay"}
    exact = pyramid_odds.pyramid_odds(rows, **house)
    measured = pyramid_odds.engine_playouts(rows, n=1_000, seed=11, **house)
    for name, value in (("points", exact.expected_points), ("no_match", exact.expected_no_match)):
        estimate = measured[name]
        assert abs(estimate.mean - float(value)) < 4 * estimate.stderr, (name, estimate, float(value))
    assert measured["rider_cards=4"].mean == 1.0 == exact.rider_cards[4]  # RTB-HR-STAY: rows keep 4


def plain_finite_off(counts: list[int], r: int, s: int, k: int, streak: int, ties: str) -> Fraction:
    """P(reach ``streak`` within ``k`` more calls) from a card of rank ``r`` to beat and the draw
    pile's rank ``counts``; the rider calls the side with more cards of the pile (equal: either,
    half each); with ``ties="win"`` a card of the same rank is a hit (RTB-HR-TIES)."""
    if s == streak:
        return Fraction(1)
    if k == 0:
        return Fraction(0)
    total = sum(counts)
    above, below = sum(counts[r + 1 :]), sum(counts[:r])
    sides = [True] if above > below else [False] if below > above else [True, False]
    value = Fraction(0)
    for higher in sides:
        for r2, c in enumerate(counts):
            if not c:
                continue
            if r2 == r:
                hit = ties == "win"
            else:
                hit = r2 > r if higher else r2 < r
            left = counts[:r2] + [c - 1] + counts[r2 + 1 :]
            value += Fraction(c, total) * plain_finite_off(left, r2, s + 1 if hit else 0, k - 1, streak, ties)
    return value / len(sides)


@pytest.mark.parametrize("ties", ["lose", "win"])
def test_finite_deck_bus_off_chance_follows_ties(ties):
    """RTB-HR-TIES on the real deck (no replacement): 2 in a row within 3 calls from a fresh deck."""
    total = Fraction(0)
    for r in range(13):
        counts = [4] * 13
        counts[r] -= 1
        total += Fraction(4, 52) * plain_finite_off(counts, r, 0, 3, 2, ties)
    assert bus_odds.bus_off_chance(2, 3, replacement=False, ties=ties) == total


def test_bus_and_gauntlet_simulations_follow_ties():
    """RTB-HR-TIES in the seeded simulations, against the exact chains (with replacement): within 4
    standard errors (each estimate's own)."""
    bus = bus_odds.simulate_bus(40_000, seed=5, replacement=True, ties="win")
    exact = float(bus_odds.bus_off_chance(ties="win"))
    assert abs(bus.off.mean - exact) < 4 * bus.off.stderr
    ride = bus_odds.simulate_gauntlet(40_000, streak=3, rides=2, seed=5, replacement=True, ties="win")
    exact = float(bus_odds.gauntlet_win_chance(3, 2, ties="win"))
    assert abs(ride.win.mean - exact) < 4 * ride.win.stderr
