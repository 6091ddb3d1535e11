"""Headless tests of the widgets: build them, click buttons, set values, read what they show.

Expected odds are counted by hand here from a deck listed in the test (ranks 2..14, suits C D H S),
not taken from the engine.
"""

from __future__ import annotations

import html
import random
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import ipywidgets
import pytest
from widget_helpers import log_lines, shown_points, shown_winners, visible, widget_count

from bus_lab import ParameterError, Session, load_game
from bus_lab.games.ride_the_bus.cards import card_code, card_label
from bus_lab.games.ride_the_bus.phases import RideTheBusPhase
from bus_lab.prob import guess_odds
from bus_lab.widgets import FoldingPanel, GameWidget, RideTheBusWidget

RANK_OF = {r: v for v, r in enumerate("23456789TJQKA", start=2)}
FULL_DECK = [(rank, suit) for rank in range(2, 15) for suit in "CDHS"]


def hand_count(seen: list[str], test) -> Fraction:
    """Chance that the next card passes ``test(rank, suit)``, counted over the unseen cards."""
    seen_cards = {(RANK_OF[c[0]], c[1]) for c in seen}
    unseen = [card for card in FULL_DECK if card not in seen_cards]
    return Fraction(sum(1 for rank, suit in unseen if test(rank, suit)), len(unseen))


def button(w, starts: str) -> ipywidgets.Button:
    matches = [b for b in visible(w) if b.description.startswith(starts)]
    assert len(matches) == 1, [b.description for b in visible(w)]
    return matches[0]


def play_until(w, done, rng: random.Random | None = None, limit: int = 3000) -> int:
    """Click a move button when a human must act, else Step, until ``done()``."""
    clicks = 0
    while not done():
        assert clicks < limit, "the game did not end"
        moves = visible(w)
        (rng.choice(moves) if moves and rng else moves[0] if moves else w.step_button).click()
        assert w.last_error is None, w.error.value
        clicks += 1
    return clicks


def test_import_bus_lab_does_not_import_ipywidgets():
    code = "import sys, bus_lab; bus_lab.load_game('ride_the_bus'); print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_whole_game_clicked_through_shows_the_right_scores_and_winners():
    """RTB-Q-ORDER … RTB-B-END, RTB-SCORE-LOW, RTB-SCORE-TIE: a 4-player game with a human seat."""
    w = RideTheBusWidget(players=4, humans=(0,), seed=12)
    rng = random.Random(5)
    parts_seen = set()
    human_moves = 0
    while not w.session.state.is_terminal():
        assert human_moves + w.session.position < 3000
        parts_seen.update(re.findall(r"Part \d of 3|Game over", w.header.value))
        moves = visible(w)
        if moves:
            assert w.session.waiting_for_human() and w.session.state.current_player() == 0
            rng.choice(moves).click()
            human_moves += 1
        else:
            assert not w.session.waiting_for_human()
            w.step_button.click()
        assert w.last_error is None, w.error.value
    parts_seen.update(re.findall(r"Part \d of 3|Game over", w.header.value))
    state = w.session.state
    points = shown_points(w)
    assert points == state.returns()
    lowest = min(points)
    assert shown_winners(w) == [s for s, p in enumerate(points) if p == lowest] == state.winners()
    for seat, p in enumerate(points):  # the breakdown adds up to the points shown
        assert sum(line["points"] for line in state.score_breakdown(seat)) == p
    assert "Result:" in w.scores.value and "★ winner" in w.scores.value
    assert state.status() in html.unescape(w.status.value) and "Game over" in state.status()
    assert parts_seen == {"Part 1 of 3", "Part 2 of 3", "Part 3 of 3", "Game over"}
    assert human_moves >= 4  # seat 0 answered the four questions (RTB-Q1..Q4)
    assert visible(w) == [] and w.step_button.disabled and w.play.disabled
    w.step_button.click()  # Step after the end: a note, nothing changes
    assert "game is over" in w.error.value and w.session.state is state


def test_give_buttons_offer_every_other_seat():
    """RTB-Q-RIGHT: a right guess lets its player choose who takes the points."""
    w = RideTheBusWidget(players=4, humans=(0,), deck=["7H"])
    button(w, "red").click()  # 7H is red: right
    w.step_button.click()  # deal 7H
    gives = visible(w)
    assert [b.description for b in gives] == ["give to seat 1", "give to seat 2", "give to seat 3"]
    assert all("RTB-Q-RIGHT" in b.tooltip and "1 point" in b.tooltip for b in gives)
    gives[1].click()
    assert shown_points(w) == [0, 0, 1, 0]
    assert log_lines(w)[0] == "[RTB-Q-RIGHT] Seat 0 gives 1 point to Seat 2."


def test_first_question_odds_are_one_half_on_a_fresh_deck():
    """RTB-Q1: before any card is seen, red and black are each right with 26/52 = 1/2."""
    w = RideTheBusWidget(players=4, humans=(0, 1), seed=3, deck=["7H"])
    red = hand_count([], lambda rank, suit: suit in "DH")
    black = hand_count([], lambda rank, suit: suit in "CS")
    assert red == black == Fraction(1, 2)
    assert [b.description for b in visible(w)] == ["red — 1/2 (50.0%)", "black — 1/2 (50.0%)"]
    assert "1/2 (50.0%)" in visible(w)[0].tooltip
    # seat 1's Q1 after 7H was dealt to seat 0: 25 red and 26 black cards among 51
    button(w, "black").click()  # wrong: seat 0 takes 1 point (RTB-Q-WRONG)
    w.step_button.click()
    red = hand_count(["7H"], lambda rank, suit: suit in "DH")
    black = hand_count(["7H"], lambda rank, suit: suit in "CS")
    assert (red, black) == (Fraction(25, 51), Fraction(26, 51))
    assert [b.description for b in visible(w)] == ["red — 25/51 (49.0%)", "black — 26/51 (51.0%)"]


def test_second_question_odds_after_a_seven():
    """RTB-Q2: higher/lower than a first card 7; the same rank is wrong, so sevens count for neither."""
    w = RideTheBusWidget(players=2, humans=(0,), deck=["7H", "2C"])
    button(w, "black").click()  # wrong: no give step
    play_until(w, lambda: w.session.waiting_for_human())
    seen = ["7H", "2C"]
    higher = hand_count(seen, lambda rank, suit: rank > 7)
    lower = hand_count(seen, lambda rank, suit: rank < 7)
    assert (higher, lower) == (Fraction(28, 50), Fraction(19, 50))
    labels = [b.description for b in visible(w)]
    assert labels == [
        f"higher — 14/25 ({float(higher) * 100:.1f}%)",
        f"lower — 19/50 ({float(lower) * 100:.1f}%)",
    ]
    assert labels == ["higher — 14/25 (56.0%)", "lower — 19/50 (38.0%)"]
    odds = guess_odds(w.session.state)
    assert sorted(odds.values()) == [lower, higher]
    # The same count with only the seven seen gives the textbook 28/51 (one fresh deck):
    assert hand_count(["7H"], lambda rank, suit: rank > 7) == Fraction(28, 51)


def test_back_and_forward_change_board_and_position():
    w = RideTheBusWidget(players=4, humans=(), seed=4)
    boards = [w.board.value]
    for _ in range(6):
        w.step_button.click()
        boards.append(w.board.value)
    assert w.session.position == 6 and w.timeline.value == 6 and w.timeline.max == 6
    w.back_button.click()
    assert w.session.position == 5 and w.board.value == boards[5] != boards[6]
    assert w.timeline.value == 5 and not w.forward_button.disabled
    w.back_button.click()
    assert w.board.value == boards[4]
    w.forward_button.click()
    w.forward_button.click()
    assert w.session.position == 6 and w.board.value == boards[6] and w.forward_button.disabled
    w.forward_button.click()  # nothing to redo: a note, not an error
    assert w.last_error is None and "nothing to redo" in w.error.value
    for _ in range(6):
        w.back_button.click()
    assert w.session.position == 0 and w.back_button.disabled and w.board.value == boards[0]


def test_reset_with_a_new_seed_replays_a_fresh_session():
    w = RideTheBusWidget(players=4, humans=(), seed=1)
    for _ in range(5):
        w.step_button.click()
    w.seed_box.value = 7
    w.reset_button.click()
    assert w.session.position == 0 and w.session.seed == 7 and len(w.session) == 1
    play_until(w, lambda: w.session.state.is_terminal())
    fresh = Session(load_game("ride_the_bus", players=4), seed=7, bots="best_odds")
    fresh.run_to_end()
    assert w.session.state.history() == fresh.state.history()
    assert shown_points(w) == fresh.state.returns()
    other = Session(load_game("ride_the_bus", players=4), seed=8, bots="best_odds")
    other.run_to_end()
    assert other.state.history() != fresh.state.history()  # the seed matters


def test_timeline_slider_rewinds_the_log_and_board():
    w = RideTheBusWidget(players=3, humans=(), seed=2)
    for _ in range(12):
        w.step_button.click()
    late = w.session.state.events()[-1]
    assert log_lines(w)[0] == f"[{late.rule}] {late.text}"
    board = w.board.value
    w.timeline.value = 2
    assert w.session.position == 2 and w.board.value != board
    events = w.session.state_at(2).events()
    assert log_lines(w) == [f"[{e.rule}] {e.text}" for e in reversed(events)]  # newest first, nothing later
    assert f"[{late.rule}] {late.text}" not in log_lines(w)
    w.timeline.value = 12
    assert (
        w.session.position == 12
        and log_lines(w)[0] == f"[{late.rule}] {late.text}"
        and w.board.value == board
    )
    w.back_button.click()
    assert w.timeline.value == 11  # the slider follows the position


def test_step_while_a_human_must_act_shows_a_note_and_changes_nothing():
    """RTB-Q1: seat 0 (human) must answer; Step does not answer for them."""
    w = RideTheBusWidget(players=4, humans=(0,), seed=0)
    board, history = w.board.value, w.session.state.history()
    w.step_button.click()
    assert "Seat 0 must choose a move" in w.error.value
    assert w.last_error is None
    assert w.board.value == board and w.session.state.history() == history == []
    visible(w)[0].click()  # a successful action clears the line
    assert w.error.value == "" and w.session.position == 1


def test_an_exception_in_a_callback_is_shown_in_the_widget():
    """A scripted card that cannot come up raises inside Step; the widget shows it. (A deck that
    repeats a card is refused when the widget is made, so the repeat is added afterwards.)"""
    w = RideTheBusWidget(players=2, humans=(), deck=["7H"])
    w.session.deck.append("7H")
    position = None
    for _ in range(10):
        position = w.session.position
        w.step_button.click()
        if w.last_error is not None:
            break
    assert isinstance(w.last_error, ValueError)
    assert "Error (ValueError)" in w.error.value and "7H" in w.error.value and "role='alert'" in w.error.value
    assert w.session.position == position  # the state did not change
    w.back_button.click()
    assert w.error.value == "" and w.last_error is None


def test_play_ticks_take_one_step_each_and_stop_for_a_human():
    w = RideTheBusWidget(players=3, humans=(2,), seed=9)
    assert w.play.interval >= 200
    w.play.playing = True
    ticks = 0
    while w.play.playing:
        before = w.session.position
        w.play.value += 1
        ticks += 1
        assert w.session.position == before + 1
        assert ticks < 100
    assert w.session.waiting_for_human() and w.session.state.current_player() == 2
    assert w.play.disabled and len(visible(w)) == 2
    before = w.session.position
    w.play.value += 1  # a late tick after the stop: nothing happens, and no error
    assert w.session.position == before and w.last_error is None and not w.play.playing


def test_viewer_dropdown_has_a_spectator_and_every_seat():
    seen = []

    class Spy(RideTheBusWidget):
        def render_board(self, state, viewer):
            seen.append(viewer)
            return super().render_board(state, viewer)

    w = Spy(players=4, humans=(), seed=1)
    labels = [label for label, _ in w.viewer.options]
    assert labels == ["All cards (spectator)", "Seat 0", "Seat 1", "Seat 2", "Seat 3"]
    assert seen[-1] is None
    w.viewer.value = 2
    assert seen[-1] == 2 and w.viewer_seat == 2
    w.step_button.click()
    assert seen[-1] == 2


def test_no_widget_is_created_per_step():
    w = RideTheBusWidget(players=4, humans=(0,), seed=6)
    rng = random.Random(1)
    before = widget_count()
    for _ in range(20):
        moves = visible(w)
        (rng.choice(moves) if moves else w.step_button).click()
        assert w.last_error is None
    w.timeline.value = 3
    w.play.value += 1
    assert widget_count() == before
    w.close()
    assert widget_count() < before


def test_bad_parameters_raise_at_construction():
    """RTB-SETUP-PLAYERS: 2 to 8 players in classic mode."""
    with pytest.raises(ParameterError, match="players=9"):
        RideTheBusWidget(players=9)
    with pytest.raises(ParameterError, match="seats are 0 to 3"):
        RideTheBusWidget(players=4, humans=(4,))
    with pytest.raises(ValueError, match="at least 200 ms"):
        RideTheBusWidget(interval=100)
    with pytest.raises(ValueError, match="unknown bot policy"):
        RideTheBusWidget(bot="psychic")


def test_every_button_has_a_label_and_a_tooltip():
    w = RideTheBusWidget(players=8, humans=(0,), seed=1)
    assert len(w.action_buttons) >= 7  # seven give-to choices at 8 players (RTB-Q-RIGHT)
    fixed = [w.step_button, w.back_button, w.forward_button, w.reset_button]
    for b in fixed + visible(w):
        assert b.description.strip() and b.tooltip.strip()
    assert w.play.tooltip and w.seed_box.tooltip and w.timeline.tooltip and w.viewer.tooltip


def test_pick_cards_deals_the_chosen_card():
    """RTB-Q-ORDER: the card dealt after a guess goes into the guesser's row."""
    w = RideTheBusWidget(players=2, humans=(0,), pick_cards=True)
    assert w.pick_row.layout.display == "none"
    button(w, "red").click()
    assert w.pick_row.layout.display != "none" and len(w.pick_box.options) == 52
    w.pick_box.value = 51  # the ace of spades
    w.pick_button.click()
    # the log names the card as the board draws it: A♠, not the code AS (the event's data keeps the code)
    assert w.session.state.rows[0] == [
        51
    ] and "[RTB-Q-ORDER] A♠ is dealt face up into Seat 0's row." in log_lines(w)
    dealt = [e for e in w.session.state.events() if e.rule == "RTB-Q-ORDER"]
    assert dealt[-1].data["card"] == "AS" and ">A<" in w.board.value and "♠" in w.board.value
    assert shown_points(w) == [1, 0]  # black card, red was called: RTB-Q-WRONG


def test_the_base_widget_works_for_any_session():
    session = Session(load_game("ride_the_bus", players=2), seed=3, bots="random")
    w = GameWidget(session)
    assert w.board.value.startswith("<pre>") and '"players": 2' in html.unescape(w.board.value)
    w.step_button.click()
    assert w.session.position == 1 and "Ride the Bus" in w.header.value
    assert isinstance(w.widget, ipywidgets.VBox)
    assert "application/vnd.jupyter.widget-view+json" in w._repr_mimebundle_()


# -- every table setting, played in the widget ----------------------------------------------------
SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}
VARIANTS = [
    dict(board=board, bus=bus, row_points=points)
    for board in ("pyramid", "give_and_take")
    for bus in ("higher_lower", "questions")
    for points in ("escalating", "flat")
]


def unseen_codes(state) -> list[str]:
    """The pile the next card comes from, as card codes (rank letter then suit letter): the draw
    pile, or the discard pile when the draw pile is empty (it is reshuffled, RTB-DECK-EMPTY)."""
    pile = state.draw or state.discard
    return ["23456789TJQKA"[c // 4] + "CDHS"[c % 4] for c in sorted(pile)]


def hand_odds(state, label: str, reference: list[str]) -> Fraction:
    """Chance that guess ``label`` is right on the next card, counted by hand over the draw pile
    (ties lose; with two equal ranks only "outside" can win, RTB-Q3)."""
    ranks = [RANK_OF[c[0]] for c in reference]
    tests = {
        "red": lambda r, s: s in "DH",
        "black": lambda r, s: s in "CS",
        "higher": lambda r, s: r > ranks[0],
        "lower": lambda r, s: r < ranks[0],
        "inside": lambda r, s: min(ranks[:2]) < r < max(ranks[:2]),
        "outside": lambda r, s: r < min(ranks[:2]) or r > max(ranks[:2]),
        "clubs": lambda r, s: s == "C",
        "diamonds": lambda r, s: s == "D",
        "hearts": lambda r, s: s == "H",
        "spades": lambda r, s: s == "S",
    }
    pile = unseen_codes(state)
    return Fraction(sum(1 for c in pile if tests[label](RANK_OF[c[0]], c[1])), len(pile))


def check_bus_odds_shown(w) -> int:
    """On a questions-bus or gauntlet guess, every button shows the hand-counted odds; returns
    how many buttons were checked."""
    state = w.session.state
    if state.phase() is RideTheBusPhase.QB_GUESS:
        reference = ["23456789TJQKA"[c // 4] + "CDHS"[c % 4] for c in state.run]
    elif state.phase() is RideTheBusPhase.BUS_GUESS:
        reference = ["23456789TJQKA"[state.card_to_beat // 4] + "CDHS"[state.card_to_beat % 4]]
    else:
        return 0
    checked = 0
    for b in visible(w):
        label, odds = b.description.split(" — ")
        p = hand_odds(state, label, reference)
        percent = (Decimal(p.numerator) * 100 / Decimal(p.denominator)).quantize(
            Decimal("0.1"), ROUND_HALF_UP
        )
        expected = {0: "0 (impossible)", 1: "1 (certain)"}.get(
            p, f"{p.numerator}/{p.denominator} ({percent}%)"
        )
        assert odds == expected, (label, reference)
        assert odds in b.tooltip
        checked += 1
    return checked


def play_in_widget(w, rng: random.Random, limit: int = 4000) -> tuple[set[str], int]:
    """Click a legal move button when a human seat must act, else Step, until the end. Returns
    the header parts seen and how many bus/ride guess buttons had their odds checked."""
    parts, checked, clicks = set(), 0, 0
    while not w.session.state.is_terminal():
        assert clicks < limit, "the game did not end"
        parts.update(
            re.findall(
                r"Part \d of \d — the [A-Za-z&;\s]+?(?= board|:)|Solo gauntlet[^:]*:"
                r"|Game over",
                html.unescape(w.header.value),
            )
        )
        moves = visible(w)
        if moves:
            assert w.session.waiting_for_human()
            assert [b.description.split(" — ")[0] for b in moves] == [
                w.session.state.action_to_string(a) for a in w.session.state.legal_actions()
            ]
            checked += check_bus_odds_shown(w)
            rng.choice(moves).click()
        else:
            assert not w.session.waiting_for_human()
            w.step_button.click()
        assert w.last_error is None, w.error.value
        clicks += 1
    parts.update(re.findall(r"Game over", w.header.value))
    return parts, checked


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(o.values()))
def test_every_classic_variant_plays_to_the_end_by_clicking(options):
    """RTB-P-*, RTB-GT-*, RTB-B-*, RTB-QB-*, RTB-SCORE-LOW: seat 0 human, two best_odds bots."""
    w = RideTheBusWidget(players=3, humans=(0,), seed=21, **options)
    assert w.session.game.params == dict(players=3, streak=5, mode="classic", **options)
    parts, _ = play_in_widget(w, random.Random(3))
    state = w.session.state
    board_name = "the pyramid" if options["board"] == "pyramid" else "the Give & Take"
    bus_name = "the bus" if options["bus"] == "higher_lower" else "the questions bus"
    assert parts == {
        "Part 1 of 3 — the four questions",
        f"Part 2 of 3 — {board_name}",
        f"Part 3 of 3 — {bus_name}",
        "Game over",
    }
    points = shown_points(w)
    assert points == state.returns()
    assert shown_winners(w) == state.winners() == [s for s, p in enumerate(points) if p == min(points)]
    assert "Result:" in w.scores.value and state.status() in html.unescape(w.status.value)
    svg = w.board.value
    assert 'role="img"' in svg and 'aria-label="' in svg
    if options["board"] == "pyramid":
        assert ">Pyramid<" in svg and "Give &amp; Take board" not in svg
    else:
        assert "Give &amp; Take board" in svg and ">Pyramid<" not in svg
        assert svg.count(">Give<") == 1 and svg.count(">Take<") == 1
    # each of the four rows is labelled with its points per card (RTB-P-POINTS, RTB-GT-POINTS)
    shown = re.findall(r">row (\d)</text><text[^>]*>×(\d)<", svg)
    flat = options["row_points"] == "flat"
    assert shown == [(str(row), "1" if flat else str(row)) for row in (1, 2, 3, 4)]
    assert ("flat row points" in svg) == (options["row_points"] == "flat")
    assert ("The questions bus" in svg) == (options["bus"] == "questions")
    assert visible(w) == [] and w.step_button.disabled


@pytest.mark.parametrize("players, seed", [(1, 6), (1, 7), (3, 6)], ids=["1-lone-loses", "1-lone-wins", "3"])
def test_gauntlet_plays_to_the_end_by_clicking(players, seed):
    """RTB-SG-FLOW, RTB-SG-ORDER, RTB-SG-RIDE, RTB-SG-WIN: no Part 2 or 3; seat 0 rides by clicking."""
    w = RideTheBusWidget(players=players, humans=(0,), seed=seed, mode="gauntlet", streak=4)
    parts, checked = play_in_widget(w, random.Random(players))
    state = w.session.state
    assert parts == {"Solo gauntlet, Part 1 — the four questions:", "Solo gauntlet — the rides:", "Game over"}
    calls = [e for e in state.events() if e.rule == "RTB-SG-RIDE" and e.text.startswith("Seat 0 calls")]
    assert len(calls) > 0 and checked == 2 * len(calls)  # each of seat 0's calls: two buttons, odds checked
    assert shown_winners(w) == state.winners()
    best = [int(b) for b in re.findall(r"data-best='(\d+)'", w.scores.value)]
    assert best == state.ride_best and len(best) == players
    if state.winners():
        assert max(best) == best[state.winners()[0]] and "Result:" in w.scores.value
        assert "★ winner" in w.scores.value
        assert players > 1 or best == [4]  # a lone rider wins only by making 4 in a row
    else:  # a lone rider who never made 4 in a row has no win (RTB-SG-WIN)
        assert players == 1 and max(best) < 4 and "Result: no winner" in w.scores.value
    assert (seed, players, bool(state.winners())) in {(6, 1, False), (7, 1, True), (6, 3, True)}
    svg = w.board.value
    assert "Solo gauntlet" in svg and ">Pyramid<" not in svg and "Give &amp; Take" not in svg
    assert "4 hits in a row win on the spot" in svg and 'role="img"' in svg
    order = re.findall(r">\d\. Seat (\d)<", svg)
    assert (
        [int(s) for s in order]
        == state.ride_order
        == sorted(range(players), key=lambda s: (-state.points[s], s))
    )


@pytest.mark.parametrize("options", [dict(bus="questions"), dict(mode="gauntlet")])
def test_bus_and_ride_buttons_show_hand_counted_odds(options):
    """RTB-QB-ORDER, RTB-QB-COMPARE, RTB-SG-RIDE: every seat human, so every bus guess is clicked."""
    w = RideTheBusWidget(players=2, humans=(0, 1), seed=8, **options)
    _, checked = play_in_widget(w, random.Random(4))
    assert checked >= 2 * w.session.state.bus_guesses > 0  # at least two buttons per bus guess


def test_gauntlet_board_marks_the_rider_and_the_ride():
    """RTB-SG-ORDER, RTB-SG-RIDES: ride k of N counts 10 rides each; the rider is marked in words."""
    w = RideTheBusWidget(players=4, humans=(), seed=2, mode="gauntlet", streak=7)
    while w.session.state.part != "rides":
        w.step_button.click()
    state = w.session.state
    svg = html.unescape(w.board.value)
    assert "Ride 1 of 40" in svg  # 4 players × 10 rides
    assert "▶</text>" in svg and re.search(rf"▶</text><text[^>]*>1\. Seat {state.ride_order[0]}<", svg)
    assert "Solo gauntlet — the rides: ride 1 of 40" in html.unescape(w.header.value)
    while w.session.state.ride_number < 2:
        w.step_button.click()
    svg = html.unescape(w.board.value)
    assert "Ride 3 of 40" in svg and re.search(rf"▶</text><text[^>]*>3\. Seat {state.ride_order[2]}<", svg)


def test_give_and_take_board_stacks_reflipped_cards_and_marks_the_spot():
    """RTB-GT-LAYOUT, RTB-GT-REFLIP: a spot flipped again shows how many flips it took."""
    w = RideTheBusWidget(players=4, humans=(), seed=3, board="give_and_take")
    state = w.session.state
    while not (state.part == "give_and_take" and state.node == "spot_flip" and state.spots[state.spot_index]):
        w.step_button.click()
        state = w.session.state
    flips = len(state.spots[state.spot_index])  # a reflip is coming on this spot
    svg = html.unescape(w.board.value)
    assert "▲ next" in svg
    if flips > 1:
        assert f"{flips} flips" in svg
    w.step_button.click()  # flip it again
    state = w.session.state
    svg = html.unescape(w.board.value)
    assert f"{flips + 1} flips" in svg
    assert ("▲ now" in svg) == bool(state.in_play)
    label = re.search(r'aria-label="([^"]*)"', svg).group(1)
    for spot in state.spots:  # every card flipped on a spot is still listed for screen readers, named as
        for card in spot:  # the board prints it ("10♦", not the code "TD")
            assert card_label(card) in label and not re.search(rf"\b{card_code(card)}\b", label)


# -- the table settings panel ------------------------------------------------------------------
def test_settings_panel_is_filled_in_from_the_options_and_closed():
    w = RideTheBusWidget(
        players=3, board="give_and_take", bus="questions", streak=4, humans=(1,), bot="random"
    )
    assert isinstance(w.settings_panel, FoldingPanel) and not w.settings_panel.is_open
    assert w.settings_panel.body.layout.display == "none" and w.settings_panel in w.widget.children
    assert w.settings_panel.toggle.description == "Table settings" and w.settings_panel.toggle.tooltip
    w.settings_panel.toggle.value = True  # Enter or a click on the title button opens it
    assert w.settings_panel.body.layout.display is None and w.settings_panel.is_open
    assert "open" in w.settings_panel.toggle.description and w.settings_panel.toggle.icon == "chevron-down"
    assert w.settings_values() == dict(
        players=3, board="give_and_take", row_points="escalating", bus="questions", streak=4, mode="classic"
    )
    assert w.seat_kinds() == ["random", "human", "random"]
    assert [c.layout.display for c in w.seat_controls] == [None] * 3 + ["none"] * 5
    assert w.settings["seed"].value == w.session.seed == 0
    assert "Give &amp; Take board" in w.header.value and "questions bus" in w.header.value


def test_deal_button_makes_a_game_with_the_chosen_settings():
    w = RideTheBusWidget(players=4, humans=(0,), seed=1)
    w.step_button.click()
    w.viewer.value = 3
    old = w.session
    w.settings["players"].value = 5
    w.settings["board"].value = "give_and_take"
    w.settings["row_points"].value = "flat"
    w.settings["bus"].value = "questions"
    w.settings["streak"].value = 6
    w.settings["seed"].value = 44
    for seat, kind in enumerate(["random", "human", "best_odds", "human", "random"]):
        w.seat_controls[seat].value = kind
    assert w.session is old  # nothing changes before the button is pressed
    w.deal_button.click()
    assert w.last_error is None and "a new game is dealt" in w.error.value
    s = w.session
    assert s is not old and s.position == 0 and s.seed == 44 and w.seed_box.value == 44
    assert s.game.params == dict(
        players=5, board="give_and_take", row_points="flat", bus="questions", streak=6, mode="classic"
    )
    assert s.human_seats() == [1, 3]
    assert {seat: bot.name for seat, bot in s.bots.items()} == {0: "random", 2: "best_odds", 4: "random"}
    assert [label for label, _ in w.viewer.options] == ["All cards (spectator)"] + [
        f"Seat {k}" for k in range(5)
    ]
    assert w.viewer.value == 3 and w.timeline.value == 0 and w.timeline.max == 0
    assert "5 players, Give &amp; Take board, flat row points, questions bus, streak 6" in w.header.value
    assert [c.layout.display for c in w.seat_controls] == [None] * 5 + ["none"] * 3
    # the same seed and settings deal the same game as a fresh session would
    twin = Session(
        load_game("ride_the_bus", **w.settings_values()),
        seed=44,
        bots={0: "random", 2: "best_odds", 4: "random"},
    )
    w.step_button.click()  # seat 0 is a bot: it answers Q1
    twin.step()
    assert w.session.state.history() == twin.state.history()


def test_an_invalid_combination_shows_the_engine_error_and_keeps_the_game():
    """RTB-SG-FLOW: the gauntlet has no Part 2, so a board choice is refused."""
    w = RideTheBusWidget(players=3, humans=(), seed=2)
    for _ in range(4):
        w.step_button.click()
    session, position, board = w.session, w.session.position, w.board.value
    w.settings["mode"].value = "gauntlet"
    w.settings["board"].value = "give_and_take"  # possible from code even though the control is disabled
    w.deal_button.click()
    with pytest.raises(ParameterError) as info:
        load_game("ride_the_bus", players=3, mode="gauntlet", board="give_and_take")
    assert isinstance(w.last_error, ParameterError)
    assert "Error (ParameterError)" in w.error.value and html.escape(str(info.value)) in w.error.value
    assert w.session is session and w.session.position == position and w.board.value == board
    assert "role='alert'" in w.error.value


def test_gauntlet_disables_the_part_2_and_3_settings():
    """RTB-SG-FLOW: board, row points and bus do not apply in the gauntlet; players may be 1."""
    w = RideTheBusWidget(players=3, board="give_and_take", row_points="flat", bus="questions")
    part23 = [w.settings[name] for name in ("board", "row_points", "bus")]
    assert not any(c.disabled for c in part23) and w.settings["players"].min == 2
    w.settings["mode"].value = "gauntlet"
    assert all(c.disabled for c in part23)
    assert all("RTB-SG-FLOW" in c.tooltip for c in part23) and "RTB-SG-FLOW" in w.settings_note.value
    assert [c.value for c in part23] == ["pyramid", "escalating", "higher_lower"]  # what the gauntlet plays
    assert w.settings["players"].min == 1
    w.settings["players"].value = 1
    assert [c.layout.display for c in w.seat_controls] == [None] + ["none"] * 7
    w.deal_button.click()
    assert w.last_error is None and w.session.game.params["mode"] == "gauntlet"
    assert w.session.game.num_players == 1 and "Solo gauntlet" in w.header.value
    w.settings["mode"].value = "classic"  # the classic choices come back; one player moves up to two
    assert [c.value for c in part23] == ["give_and_take", "flat", "questions"]
    assert not any(c.disabled for c in part23) and w.settings_note.value == ""
    assert w.settings["players"].value == 2 and w.settings["players"].min == 2
    assert not any("RTB-SG-FLOW" in c.tooltip for c in part23)


def test_a_widget_made_as_a_gauntlet_starts_with_the_part_2_and_3_settings_off():
    w = RideTheBusWidget(players=1, mode="gauntlet", streak=3)
    assert w.settings_values() == dict(
        players=1, board="pyramid", row_points="escalating", bus="higher_lower", streak=3, mode="gauntlet"
    )
    assert w.settings["board"].disabled and w.settings["bus"].disabled and w.settings["players"].min == 1
    assert len(visible(w)) == 2  # Q1, red or black, for the lone player


def test_no_widget_is_created_when_dealing_new_games():
    w = RideTheBusWidget(players=2, humans=(0,), seed=6)
    before = widget_count()
    for players, mode in [(8, "classic"), (1, "gauntlet"), (5, "classic")]:
        w.settings["mode"].value = mode
        w.settings["players"].value = players
        w.deal_button.click()
        assert w.last_error is None and w.session.game.num_players == players
        play_until(w, lambda: w.session.position >= 12, random.Random(players))
    assert widget_count() == before
    w.settings["mode"].value = "gauntlet"
    w.settings["bus"].value = "questions"
    w.deal_button.click()  # refused: still nothing created
    assert w.last_error is not None and widget_count() == before


def test_settings_controls_have_labels_and_tooltips():
    w = RideTheBusWidget(players=2)
    for name, control in w.settings.items():
        assert control.description.strip() and control.tooltip.strip(), name
    for control in w.seat_controls:
        assert control.description.startswith("Seat ") and control.tooltip.strip()
        assert [label for label, _ in control.options] == ["human", "best_odds bot", "random bot"]
    assert w.deal_button.description == "Deal a new game with these settings" and w.deal_button.tooltip


def test_set_session_shows_another_game_in_the_same_widget():
    w = GameWidget(Session(load_game("ride_the_bus", players=2), seed=3, bots="random"))
    w.step_button.click()
    with pytest.raises(TypeError, match="needs a Session"):
        w.set_session("ride_the_bus")
    assert w.session.position == 1  # unchanged
    other = Session(load_game("ride_the_bus", players=6, bus="questions"), seed=9, bots="best_odds")
    w.set_session(other)
    assert w.session is other and w.seed_box.value == 9 and w.timeline.max == 0
    assert [value for _, value in w.viewer.options] == [-1, 0, 1, 2, 3, 4, 5]
    w.step_button.click()
    assert other.position == 1 and w.timeline.value == 1


# -- the Ride the Bus board: fits a narrow output area, names cards by their symbols ---------------
#: A card code (rank letter, suit letter) standing on its own: the board names cards "8♠", never "8S".
CARD_CODE = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[CDHS](?![\w])")


@pytest.mark.parametrize(
    "options", [*VARIANTS[::3], dict(mode="gauntlet")], ids=lambda o: "-".join(o.values())
)
def test_the_board_scales_down_to_fit_and_names_cards_by_their_symbols(options):
    """RTB-B-FLIP, RTB-QB-ORDER, RTB-SG-RIDE: the SVG has a viewBox, ``max-width:100%`` and
    ``height:auto`` and no minimum width, so in a 700 px output area (a 1024 px window with the file
    browser open) it shrinks to fit instead of scrolling sideways; every card the board or its
    aria-label names is written with its suit symbol ("Card to beat: 8♠"), never as a code ("8S")."""
    w = RideTheBusWidget(players=3, humans=(), seed=5, **options)
    beats = 0
    while True:
        svg = w.board.value[w.board.value.index("<svg") :]
        head = dict(re.findall(r'([a-z][\w-]*)="([^"]*)"', re.match(r"<svg [^>]*>", svg).group(0)))
        assert head["viewBox"] == f"0 0 {head['width']} {head['height']}" and int(head["width"]) <= 900
        assert "max-width:100%" in head["style"] and "height:auto" in head["style"]
        assert "min-width" not in head["style"]
        texts = [html.unescape(t) for t in re.findall(r"<text [^>]*>([^<]*)</text>", svg)]
        named = texts + [html.unescape(head["aria-label"])]
        assert not [t for t in named if CARD_CODE.search(t)], [t for t in named if CARD_CODE.search(t)]
        state = w.session.state
        beat = [t for t in texts if t.startswith("Card to beat: ")]
        if beat:
            assert beat == [f"Card to beat: {card_label(state.card_to_beat)} (the last card)"]
            beats += 1
        if state.is_terminal():
            break
        w.step_button.click()
    assert beats > 0 or options.get("bus") == "questions"
