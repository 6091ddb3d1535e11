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
from fractions import Fraction

import ipywidgets
import pytest

from bus_lab import ParameterError, Session, load_game
from bus_lab.prob import guess_odds
from bus_lab.widgets import GameWidget, RideTheBusWidget

RANK_OF = {r: v for v, r in enumerate("23456789TJQKA", start=2)}
FULL_DECK = [(rank, suit) for rank in range(2, 15) for suit in "CDHS"]


def hand_count(seen: list[str], test) -> Fraction:
    """Chance that the next card passes ``test(rank, suit)``, counted over the unseen cards."""
    seen_cards = {(RANK_OF[c[0]], c[1]) for c in seen}
    unseen = [card for card in FULL_DECK if card not in seen_cards]
    return Fraction(sum(1 for rank, suit in unseen if test(rank, suit)), len(unseen))


def visible(w) -> list[ipywidgets.Button]:
    return [b for b in w.action_buttons if b.layout.display != "none"]


def button(w, starts: str) -> ipywidgets.Button:
    matches = [b for b in visible(w) if b.description.startswith(starts)]
    assert len(matches) == 1, [b.description for b in visible(w)]
    return matches[0]


def shown_points(w) -> list[int]:
    rows = re.findall(r"data-seat='(\d+)' data-points='(-?\d+)'", w.scores.value)
    assert [int(s) for s, _ in rows] == list(range(w.session.game.num_players))
    return [int(p) for _, p in rows]


def shown_winners(w) -> list[int]:
    found = re.search(r"data-winners='([\d,]*)'", w.scores.value)
    assert found is not None
    return [int(s) for s in found.group(1).split(",") if s]


def log_lines(w) -> list[str]:
    """The event log as shown, one ``"[RULE-ID] text"`` string per event, newest first."""
    items = re.findall(r"<li><code>(\[[A-Z0-9-]+\])</code> (.*?)</li>", w.log.value)
    return [html.unescape(f"{tag} {text}") for tag, text in items]


def widget_count() -> int:
    """Live widget models (ipywidgets 8 keeps them in ``widget._instances``)."""
    registry = getattr(ipywidgets.widgets.widget, "_instances", None)
    if registry is None:  # older ipywidgets
        registry = ipywidgets.Widget.widgets
    return len(registry)


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
    assert labels == [f"higher — 14/25 ({float(higher) * 100:.1f}%)", f"lower — 19/50 ({float(lower) * 100:.1f}%)"]
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
    assert w.session.position == 12 and log_lines(w)[0] == f"[{late.rule}] {late.text}" and w.board.value == board
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
    """A scripted deck asking for a card already dealt raises inside Step; the widget shows it."""
    w = RideTheBusWidget(players=2, humans=(), deck=["7H", "7H"])
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
    assert w.session.state.rows[0] == [51] and "[RTB-Q-ORDER] AS is dealt face up into Seat 0's row." in log_lines(w)
    assert shown_points(w) == [1, 0]  # black card, red was called: RTB-Q-WRONG


def test_the_base_widget_works_for_any_session():
    session = Session(load_game("ride_the_bus", players=2), seed=3, bots="random")
    w = GameWidget(session)
    assert w.board.value.startswith("<pre>") and '"players": 2' in html.unescape(w.board.value)
    w.step_button.click()
    assert w.session.position == 1 and "Ride the Bus" in w.header.value
    assert isinstance(w.widget, ipywidgets.VBox)
    assert "application/vnd.jupyter.widget-view+json" in w._repr_mimebundle_()
