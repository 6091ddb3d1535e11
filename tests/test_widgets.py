"""Headless tests of the widgets on the touchable board: build them, play and step with the same
methods the page calls (``w.step()``, ``w.play(...)``, ``w.handle_message(...)``), and read the
frame the page draws (``w.frame``: view, moves with their targets, odds and consequences, status,
message line, scores, log, controls).

Expected odds are counted by hand here from a deck listed in the test (ranks 2..14, suits C D H S),
not taken from the engine.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import ipywidgets
import pytest
from widget_helpers import widget_count

from bus_lab import ParameterError, Session, load_game
from bus_lab.board.adapters.ride_the_bus import ADAPTER, ANSWER_WORDS
from bus_lab.board.frame import adapter_for, format_odds
from bus_lab.games.ride_the_bus.cards import card_code, card_label
from bus_lab.games.ride_the_bus.phases import RideTheBusPhase
from bus_lab.prob import guess_odds
from bus_lab.widgets import FoldingPanel, GameWidget, RideTheBusWidget
from bus_lab.widgets.base import BoardWidget

RANK_OF = {r: v for v, r in enumerate("23456789TJQKA", start=2)}
FULL_DECK = [(rank, suit) for rank in range(2, 15) for suit in "CDHS"]


def hand_count(seen: list[str], test) -> Fraction:
    """Chance that the next card passes ``test(rank, suit)``, counted over the unseen cards."""
    seen_cards = {(RANK_OF[c[0]], c[1]) for c in seen}
    unseen = [card for card in FULL_DECK if card not in seen_cards]
    return Fraction(sum(1 for rank, suit in unseen if test(rank, suit)), len(unseen))


# -- reading the frame as the page draws it ------------------------------------------------------
def moves(w) -> list[dict]:
    """The moves a person can make now (empty when no person is to move)."""
    return w.frame["moves"]


def move(w, label: str) -> dict:
    """The move whose label is ``label`` (exactly one)."""
    found = [m for m in moves(w) if m["label"] == label]
    assert len(found) == 1, [m["label"] for m in moves(w)]
    return found[0]


def shown_points(w) -> list[int]:
    """Points per seat in the scores table, seat by seat."""
    rows = w.frame["scores"]["rows"]
    assert [r["seat"] for r in rows] == list(range(w.session.game.num_players))
    return [r["points"] for r in rows]


def shown_winners(w) -> list[int]:
    return list(w.frame["scores"]["winners"])


def log_lines(w) -> list[str]:
    """The event log as shown, ``"[RULE-ID] text"``, newest first."""
    return [f"[{e['rule']}] {e['text']}" for e in w.frame["log"]["events"]]


def play_until(w, done, rng: random.Random | None = None, limit: int = 3000) -> int:
    """Play a person's move (random, or the first) when one is due, else Step, until ``done()``."""
    taken = 0
    while not done():
        assert taken < limit, "the game did not end"
        legal = moves(w)
        if legal:
            w.handle_message(
                {
                    "type": "move",
                    "action": (rng.choice(legal) if rng else legal[0])["action"],
                    "seq": w.frame["seq"],
                }
            )
        else:
            w.step()
        assert w.last_error is None, w.message_text
        taken += 1
    return taken


def test_import_bus_lab_does_not_import_ipywidgets():
    code = "import sys, bus_lab; bus_lab.load_game('ride_the_bus'); print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_whole_game_played_through_shows_the_right_scores_and_winners():
    """RTB-Q-ORDER … RTB-B-END, RTB-SCORE-LOW, RTB-SCORE-TIE: a 4-player game with a human seat."""
    w = RideTheBusWidget(players=4, humans=(0,), seed=12)
    rng = random.Random(5)
    parts_seen = set()
    human_moves = 0
    while not w.session.state.is_terminal():
        assert human_moves + w.session.position < 3000
        parts_seen.update(re.findall(r"Part \d of 3|Game over", w.frame["heading"]))
        legal = moves(w)
        if legal:
            assert w.session.waiting_for_human() and w.session.state.current_player() == 0
            assert w.frame["to_move"] == 0 and w.frame["prompt"] == "Your move, Seat 0:"
            w.play(rng.choice(legal)["action"])
            human_moves += 1
        else:
            assert not w.session.waiting_for_human()
            w.step()
        assert w.last_error is None, w.message_text
    parts_seen.update(re.findall(r"Part \d of 3|Game over", w.frame["heading"]))
    state = w.session.state
    points = shown_points(w)
    assert points == state.returns() == [s["points"] for s in w.frame["seats"]]
    lowest = min(points)
    assert shown_winners(w) == [s for s, p in enumerate(points) if p == lowest] == state.winners()
    for seat, p in enumerate(points):  # the breakdown adds up to the points shown
        assert sum(line["points"] for line in state.score_breakdown(seat)) == p
    assert w.frame["scores"]["result"].startswith("Result:")
    assert [r["winner"] for r in w.frame["scores"]["rows"]] == [p == lowest for p in points]
    assert w.status_text.count(state.status()) == 1 and "Game over" in state.status()
    assert parts_seen == {"Part 1 of 3", "Part 2 of 3", "Part 3 of 3", "Game over"}
    assert human_moves >= 4  # seat 0 answered the four questions (RTB-Q1..Q4)
    assert moves(w) == [] and not w.frame["controls"]["can_step"] and not w.frame["controls"]["autoplay"]
    w.step()  # Step after the end: a note, nothing changes
    assert "game is over" in w.message_text and w.session.state is state and w.last_error is None


def test_give_is_a_tap_on_every_other_seats_row():
    """RTB-Q-RIGHT: a right guess lets its player choose who takes the points: each other seat's
    row is a target (a tap plays it); the giver's own row is blocked, with the reason."""
    w = RideTheBusWidget(players=4, humans=(0,), deck=["7H"])
    w.play("red")  # 7H is red: right
    w.step()  # deal 7H
    gives = moves(w)
    assert [m["label"] for m in gives] == ["give to seat 1", "give to seat 2", "give to seat 3"]
    assert [m["path"] for m in gives] == [["seat:1"], ["seat:2"], ["seat:3"]]
    assert all(m["choice"] is None and m["odds"] is None for m in gives)
    assert [m["hint"] for m in gives] == [f"Seat {k} takes 1 point: 0 → 1 (RTB-Q-RIGHT)" for k in (1, 2, 3)]
    assert list(w.frame["blocked"]) == ["seat:0"] and "another player" in w.frame["blocked"]["seat:0"]
    w.handle_message({"type": "move", "action": move(w, "give to seat 2")["action"], "seq": w.frame["seq"]})
    assert shown_points(w) == [0, 0, 1, 0]
    assert log_lines(w)[0] == "[RTB-Q-RIGHT] Seat 0 gives 1 point to Seat 2."


def test_first_question_odds_are_one_half_on_a_fresh_deck():
    """RTB-Q1: before any card is seen, red and black are each right with 26/52 = 1/2."""
    w = RideTheBusWidget(players=4, humans=(0, 1), seed=3, deck=["7H"])
    red = hand_count([], lambda rank, suit: suit in "DH")
    black = hand_count([], lambda rank, suit: suit in "CS")
    assert red == black == Fraction(1, 2)
    assert [(m["choice"], m["odds"]) for m in moves(w)] == [
        ("Red ♥♦", "1/2 (50.0%)"),
        ("Black ♣♠", "1/2 (50.0%)"),
    ]
    assert all(m["path"] == ["card:next"] for m in moves(w))
    assert "you take 1 point (RTB-Q-WRONG)" in moves(w)[0]["hint"]
    # seat 1's Q1 after 7H was dealt to seat 0: 25 red and 26 black cards among 51
    w.play("black")  # wrong: seat 0 takes 1 point (RTB-Q-WRONG)
    w.step()
    red = hand_count(["7H"], lambda rank, suit: suit in "DH")
    black = hand_count(["7H"], lambda rank, suit: suit in "CS")
    assert (red, black) == (Fraction(25, 51), Fraction(26, 51))
    assert [m["odds"] for m in moves(w)] == ["25/51 (49.0%)", "26/51 (51.0%)"]


def test_second_question_odds_after_a_seven():
    """RTB-Q2: higher/lower than a first card 7; the same rank is wrong, so sevens count for neither."""
    w = RideTheBusWidget(players=2, humans=(0,), deck=["7H", "2C"])
    w.play("black")  # wrong: no give step
    play_until(w, lambda: w.session.waiting_for_human())
    seen = ["7H", "2C"]
    higher = hand_count(seen, lambda rank, suit: rank > 7)
    lower = hand_count(seen, lambda rank, suit: rank < 7)
    assert (higher, lower) == (Fraction(28, 50), Fraction(19, 50))
    assert [(m["choice"], m["odds"]) for m in moves(w)] == [
        ("Higher", "14/25 (56.0%)"),
        ("Lower", "19/50 (38.0%)"),
    ]
    odds = guess_odds(w.session.state)
    assert sorted(odds.values()) == [lower, higher]
    # The same count with only the seven seen gives the textbook 28/51 (one fresh deck):
    assert hand_count(["7H"], lambda rank, suit: rank > 7) == Fraction(28, 51)


def test_back_and_forward_change_board_and_position():
    w = RideTheBusWidget(players=4, humans=(), seed=4)
    views = [w.frame["view"]]
    for _ in range(6):
        w.step()
        views.append(w.frame["view"])
    c = w.frame["controls"]
    assert w.session.position == 6 and c["position"] == 6 and c["last"] == 6
    w.back()
    assert w.session.position == 5 and w.frame["view"] == views[5] != views[6]
    assert w.frame["controls"]["position"] == 5 and w.frame["controls"]["can_forward"]
    w.handle_message({"type": "control", "name": "back", "value": None, "seq": w.frame["seq"]})
    assert w.frame["view"] == views[4]
    w.forward()
    w.forward()
    assert w.session.position == 6 and w.frame["view"] == views[6] and not w.frame["controls"]["can_forward"]
    w.forward()  # nothing to redo: a note, not an error
    assert w.last_error is None and "nothing to redo" in w.message_text
    assert w.frame["message"]["kind"] == "note"
    for _ in range(6):
        w.back()
    assert w.session.position == 0 and not w.frame["controls"]["can_back"] and w.frame["view"] == views[0]


def test_new_game_with_a_new_seed_replays_a_fresh_session():
    w = RideTheBusWidget(players=4, humans=(), seed=1)
    for _ in range(5):
        w.step()
    w.handle_message({"type": "control", "name": "reset", "value": 7, "seq": w.frame["seq"]})
    assert w.session.position == 0 and w.session.seed == 7 and len(w.session) == 1
    assert w.frame["controls"]["seed"] == 7 and w.settings["seed"].value == 7
    play_until(w, lambda: w.session.state.is_terminal())
    fresh = Session(load_game("ride_the_bus", players=4), seed=7, bots="best_odds")
    fresh.run_to_end()
    assert w.session.state.history() == fresh.state.history()
    assert shown_points(w) == fresh.state.returns()
    other = Session(load_game("ride_the_bus", players=4), seed=8, bots="best_odds")
    other.run_to_end()
    assert other.state.history() != fresh.state.history()  # the seed matters


def test_timeline_rewinds_the_log_and_board():
    w = RideTheBusWidget(players=3, humans=(), seed=2)
    for _ in range(12):
        w.step()
    late = w.session.state.events()[-1]
    assert log_lines(w)[0] == f"[{late.rule}] {late.text}"
    view = w.frame["view"]
    w.handle_message({"type": "control", "name": "goto", "value": 2, "seq": w.frame["seq"]})
    assert w.session.position == 2 and w.frame["view"] != view and not w.frame["animate"]
    events = w.session.state_at(2).events()
    assert log_lines(w) == [f"[{e.rule}] {e.text}" for e in reversed(events)]  # newest first, nothing later
    assert f"[{late.rule}] {late.text}" not in log_lines(w)
    w.goto(12)
    assert (
        w.session.position == 12
        and log_lines(w)[0] == f"[{late.rule}] {late.text}"
        and w.frame["view"] == view
    )
    w.back()
    assert w.frame["controls"]["position"] == 11  # the timeline follows the position


def test_step_while_a_human_must_act_shows_a_note_and_changes_nothing():
    """RTB-Q1: seat 0 (human) must answer; Step does not answer for them."""
    w = RideTheBusWidget(players=4, humans=(0,), seed=0)
    view, history = w.frame["view"], w.session.state.history()
    assert not w.frame["controls"]["can_step"]
    w.step()
    assert "Seat 0 must choose a move" in w.message_text
    assert w.last_error is None
    assert w.frame["view"] == view and w.session.state.history() == history == []
    w.play(moves(w)[0]["action"])  # a successful action clears the line
    assert w.message_text == "" and w.session.position == 1


def test_an_exception_in_a_step_is_shown_in_the_widget():
    """A scripted card that cannot come up raises inside Step; the widget shows it. (A deck that
    repeats a card is refused when the widget is made, so the repeat is added afterwards.)"""
    w = RideTheBusWidget(players=2, humans=(), deck=["7H"])
    w.session.deck.append("7H")
    position = view = None
    for _ in range(10):
        position, view = w.session.position, w.frame["view"]
        w.step()
        if w.last_error is not None:
            break
    assert isinstance(w.last_error, ValueError)
    assert w.frame["message"]["kind"] == "error"
    assert "Error (ValueError)" in w.message_text and "7H" in w.message_text
    assert w.session.position == position and w.frame["view"] == view  # the state did not change
    w.back()
    assert w.message_text == "" and w.last_error is None


def test_an_illegal_or_stale_move_from_the_page_is_refused_with_the_state_unchanged():
    """RTB-Q-RIGHT: giving to oneself is refused with the engine's reason; a move sent from an
    older board is not played."""
    w = RideTheBusWidget(players=3, humans=(0,), deck=["7H"])
    w.play("red")
    w.step()
    history = w.session.state.history()
    w.handle_message({"type": "move", "action": 200, "seq": w.frame["seq"]})  # give to seat 0 (itself)
    assert isinstance(w.last_error, Exception) and "another player" in w.message_text
    assert w.session.state.history() == history
    stale = w.frame["seq"] - 1
    w.handle_message({"type": "move", "action": 201, "seq": stale})
    assert "board changed" in w.message_text and w.session.state.history() == history


def test_autoplay_takes_one_step_per_tick_and_stops_for_a_human():
    w = RideTheBusWidget(players=3, humans=(2,), seed=9)
    assert w.frame["controls"]["interval"] >= 200
    w.handle_message({"type": "control", "name": "autoplay", "value": True, "seq": w.frame["seq"]})
    assert w.frame["controls"]["autoplay"]
    ticks = 0
    while w.autoplay:
        before = w.session.position
        w.handle_message({"type": "control", "name": "tick", "value": None, "seq": w.frame["seq"]})
        ticks += 1
        assert w.session.position == before + 1
        assert ticks < 100
    assert w.session.waiting_for_human() and w.session.state.current_player() == 2
    assert not w.frame["controls"]["autoplay"] and not w.frame["controls"]["can_step"]
    assert len(moves(w)) == 2
    before = w.session.position
    w.tick()  # a late tick after the stop: nothing happens, and no error
    assert w.session.position == before and w.last_error is None and not w.autoplay


def test_view_as_offers_the_spectator_and_every_seat():
    w = RideTheBusWidget(players=4, humans=(), seed=1)
    labels = [label for label, _ in w.frame["controls"]["viewers"]]
    assert labels == ["All cards (spectator)", "Seat 0", "Seat 1", "Seat 2", "Seat 3"]
    assert w.frame["view"]["viewer"] is None
    w.handle_message({"type": "control", "name": "viewer", "value": 2, "seq": w.frame["seq"]})
    assert w.frame["view"]["viewer"] == 2 and w.viewer_seat == 2 and w.frame["controls"]["viewer"] == 2
    w.step()
    assert w.frame["view"]["viewer"] == 2
    w.set_viewer(7)  # no such seat: refused, the view stays
    assert "there is no seat 7" in w.message_text and w.frame["view"]["viewer"] == 2


def test_no_widget_is_created_per_step():
    w = RideTheBusWidget(players=4, humans=(0,), seed=6)
    rng = random.Random(1)
    before = widget_count()
    for _ in range(20):
        legal = moves(w)
        w.play(rng.choice(legal)["action"]) if legal else w.step()
        assert w.last_error is None
    w.goto(3)
    w.set_autoplay(True)
    w.tick()
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


def test_every_move_has_a_label_a_target_and_a_consequence():
    """8 players: seven give-to rows (RTB-Q-RIGHT), two answers (RTB-Q1), each with its words."""
    w = RideTheBusWidget(players=8, humans=tuple(range(8)), seed=1)
    kinds = set()
    while len(kinds) < 2:
        legal = moves(w)
        assert legal
        for m in legal:
            assert m["label"].strip() and m["hint"].strip() and m["path"]
            assert (m["choice"] is None) == (m["kind"] == "give")
        kinds.add(legal[0]["kind"])
        if legal[0]["kind"] == "give":
            assert len(legal) == 7
        w.play(legal[0]["action"])
        play_until(w, lambda: bool(moves(w)))


def test_pick_cards_deals_the_chosen_card():
    """RTB-Q-ORDER: the card dealt after a guess goes into the guesser's row."""
    w = RideTheBusWidget(players=2, humans=(0,), pick_cards=True)
    assert w.frame["deal"] is None
    w.play("red")
    assert len(w.frame["deal"]) == 52 and w.frame["deal"][51]["label"].startswith("AS")
    w.handle_message({"type": "deal", "action": 51, "seq": w.frame["seq"]})  # the ace of spades
    # the log names the card as the board draws it: A♠, not the code AS (the event's data keeps the code)
    assert w.session.state.rows[0] == [51]
    assert "[RTB-Q-ORDER] A♠ is dealt face up into Seat 0's row." in log_lines(w)
    dealt = [e for e in w.session.state.events() if e.rule == "RTB-Q-ORDER"]
    assert dealt[-1].data["card"] == "AS" and w.frame["view"]["rows"][0] == ["AS"]
    assert shown_points(w) == [1, 0]  # black card, red was called: RTB-Q-WRONG
    w.deal(0)  # no card is to be dealt now (seat 1 is a bot to move): a note, nothing changes
    assert "no card is to be dealt" in w.message_text and w.session.state.rows[1] == []


def test_the_base_widget_works_for_any_session():
    session = Session(load_game("ride_the_bus", players=2), seed=3, bots="random")
    w = GameWidget(session)
    assert w.frame["game"] == "ride_the_bus" and w.frame["view"]["players"] == 2
    w.step()
    assert w.session.position == 1 and w.frame["title"] == "Ride the Bus"
    assert w.frame["heading"].startswith("Part 1 of 3")  # the adapter's heading
    assert isinstance(w.widget, BoardWidget)
    assert "application/vnd.jupyter.widget-view+json" in w._repr_mimebundle_()[0]


# -- every table setting, played in the widget ----------------------------------------------------
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


HAND_TESTS = {
    "red": lambda r, s, ranks: s in "DH",
    "black": lambda r, s, ranks: s in "CS",
    "higher": lambda r, s, ranks: r > ranks[0],
    "lower": lambda r, s, ranks: r < ranks[0],
    "inside": lambda r, s, ranks: min(ranks[:2]) < r < max(ranks[:2]),
    "outside": lambda r, s, ranks: r < min(ranks[:2]) or r > max(ranks[:2]),
    "clubs": lambda r, s, ranks: s == "C",
    "diamonds": lambda r, s, ranks: s == "D",
    "hearts": lambda r, s, ranks: s == "H",
    "spades": lambda r, s, ranks: s == "S",
}


def hand_odds(state, label: str, reference: list[str]) -> Fraction:
    """Chance that guess ``label`` is right on the next card, counted by hand over the draw pile
    (ties lose; with two equal ranks only "outside" can win, RTB-Q3)."""
    ranks = [RANK_OF[c[0]] for c in reference]
    pile = unseen_codes(state)
    return Fraction(sum(1 for c in pile if HAND_TESTS[label](RANK_OF[c[0]], c[1], ranks)), len(pile))


def odds_text(p: Fraction) -> str:
    """An exact chance as the page prints it, rounded half up to 0.1% by hand."""
    percent = (Decimal(p.numerator) * 100 / Decimal(p.denominator)).quantize(Decimal("0.1"), ROUND_HALF_UP)
    return {0: "0 (impossible)", 1: "1 (certain)"}.get(p, f"{p.numerator}/{p.denominator} ({percent}%)")


def check_bus_odds_shown(w) -> int:
    """On a questions-bus or a bus/ride guess, every answer shows the hand-counted odds; returns
    how many answers were checked."""
    state = w.session.state
    if state.phase() is RideTheBusPhase.QB_GUESS:
        reference = [card_code(c) for c in state.run]
    elif state.phase() is RideTheBusPhase.BUS_GUESS:
        reference = [card_code(state.card_to_beat)]
    else:
        return 0
    checked = 0
    for m in moves(w):
        assert m["odds"] == odds_text(hand_odds(state, m["label"], reference)), (m["label"], reference)
        assert m["path"] == ["card:next"] and m["choice"] == ANSWER_WORDS[m["label"]]
        checked += 1
    return checked


PART = r"Part \d of \d — the [A-Za-z&\s]+?(?= board|:)|Solo gauntlet[^:]*:|Game over"


def play_in_widget(w, rng: random.Random, limit: int = 4000) -> tuple[set[str], int]:
    """Play a random legal move when a human seat must act, else Step, until the end. Returns the
    heading parts seen and how many bus/ride answers had their odds checked."""
    parts, checked, taken = set(), 0, 0
    while not w.session.state.is_terminal():
        assert taken < limit, "the game did not end"
        parts.update(re.findall(PART, w.frame["heading"]))
        legal = moves(w)
        if legal:
            assert w.session.waiting_for_human()
            assert [m["label"] for m in legal] == [
                w.session.state.action_to_string(a) for a in w.session.state.legal_actions()
            ]
            checked += check_bus_odds_shown(w)
            w.play(rng.choice(legal)["action"])
        else:
            assert not w.session.waiting_for_human()
            w.step()
        assert w.last_error is None, w.message_text
        taken += 1
    parts.update(re.findall(r"Game over", w.frame["heading"]))
    return parts, checked


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(o.values()))
def test_every_classic_variant_plays_to_the_end(options):
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
    assert w.frame["scores"]["result"].startswith("Result:") and state.status() in w.status_text
    view = w.frame["view"]
    assert (len(view["pyramid"]), len(view["spots"])) == (
        (10, 0) if options["board"] == "pyramid" else (0, 8)
    )
    # each position's points per card follow the row (RTB-P-POINTS, RTB-GT-POINTS)
    flat = options["row_points"] == "flat"
    for place in view["pyramid"] + view["spots"]:
        assert place["points"] == (1 if flat else place["row"])
    assert view["bus"]["kind"] == options["bus"] and view["options"] == w.session.game.params
    assert moves(w) == [] and not w.frame["controls"]["can_step"]


@pytest.mark.parametrize("players, seed", [(1, 1), (1, 3), (3, 1)], ids=["1-lone-loses", "1-lone-wins", "3"])
def test_gauntlet_plays_to_the_end(players, seed):
    """RTB-SG-FLOW, RTB-SG-ORDER, RTB-SG-RIDE, RTB-SG-WIN: no Part 2 or 3; seat 0 rides by tapping."""
    w = RideTheBusWidget(players=players, humans=(0,), seed=seed, mode="gauntlet", streak=4)
    parts, checked = play_in_widget(w, random.Random(players))
    state = w.session.state
    assert parts == {"Solo gauntlet, Part 1 — the four questions:", "Solo gauntlet — the rides:", "Game over"}
    calls = [e for e in state.events() if e.rule == "RTB-SG-RIDE" and e.text.startswith("Seat 0 calls")]
    assert len(calls) > 0 and checked == 2 * len(calls)  # each of seat 0's calls: two answers, odds checked
    assert shown_winners(w) == state.winners()
    scores = w.frame["scores"]
    best = [r["best"] for r in scores["rows"]]
    assert best == state.ride_best and len(best) == players
    assert [r["cells"] for r in scores["rows"]] == [[str(p), str(b)] for p, b in zip(state.points, best)]
    if state.winners():
        assert max(best) == best[state.winners()[0]] and scores["result"].startswith("Result:")
        assert "RTB-SG-WIN" in scores["result"] and [r["winner"] for r in scores["rows"]].count(True) >= 1
        assert players > 1 or best == [4]  # a lone rider wins only by making 4 in a row
    else:  # a lone rider who never made 4 in a row has no win (RTB-SG-WIN)
        assert players == 1 and max(best) < 4 and scores["result"].startswith("Result: no winner")
    assert (seed, players, bool(state.winners())) in {(1, 1, False), (3, 1, True), (1, 3, True)}
    view = w.frame["view"]
    assert view["pyramid"] == [] and view["spots"] == [] and view["gauntlet"]["best"] == best
    assert view["gauntlet"]["order"] == sorted(range(players), key=lambda s: (-state.points[s], s))
    assert "solo gauntlet" in w.frame["heading"] and "4 in a row to win" in w.frame["heading"]


@pytest.mark.parametrize("options", [dict(bus="questions"), dict(mode="gauntlet")])
def test_bus_and_ride_answers_show_hand_counted_odds(options):
    """RTB-QB-ORDER, RTB-QB-COMPARE, RTB-SG-RIDE: every seat human, so every bus guess is made."""
    w = RideTheBusWidget(players=2, humans=(0, 1), seed=8, **options)
    _, checked = play_in_widget(w, random.Random(4))
    assert checked >= 2 * w.session.state.bus_guesses > 0  # at least two answers per bus guess


def test_gauntlet_heading_and_view_follow_the_rider_and_the_ride():
    """RTB-SG-ORDER, RTB-SG-RIDES: ride k of N counts 10 rides each; the rider is the k-th in order."""
    w = RideTheBusWidget(players=4, humans=(), seed=2, mode="gauntlet", streak=7)
    while w.session.state.part != "rides":
        w.step()
    state = w.session.state
    g = w.frame["view"]["gauntlet"]
    assert (g["ride"], g["total_rides"]) == (1, 40)  # 4 players × 10 rides
    assert w.frame["view"]["bus"]["rider"] == state.ride_order[0]
    assert "Solo gauntlet — the rides: ride 1 of 40" in w.frame["heading"]
    while w.session.state.ride_number < 2:
        w.step()
    assert w.frame["view"]["gauntlet"]["ride"] == 3 and w.frame["view"]["bus"]["rider"] == state.ride_order[2]
    assert f"ride 3 of 40, Seat {state.ride_order[2]} rides" in w.frame["heading"]


def test_give_and_take_view_keeps_reflipped_cards_on_their_spot():
    """RTB-GT-LAYOUT, RTB-GT-REFLIP: a spot flipped again keeps every flip, the last on top."""
    w = RideTheBusWidget(players=4, humans=(), seed=3, board="give_and_take")
    state = w.session.state
    while not (state.part == "give_and_take" and state.node == "spot_flip" and state.spots[state.spot_index]):
        w.step()
        state = w.session.state
    index = state.spot_index
    flips = len(state.spots[index])  # a reflip is coming on this spot
    assert (
        f"Flip the {state.spot_kind(index).capitalize()} spot of row {index // 2 + 1}"
        in w.frame["view"]["status"]
    )
    w.step()  # flip it again
    state = w.session.state
    spot = w.frame["view"]["spots"][index]
    assert len(spot["cards"]) == flips + 1 and spot["cards"] == [card_code(c) for c in state.spots[index]]
    assert spot["current"] == bool(state.in_play)


# -- the table settings panel ------------------------------------------------------------------
def test_settings_panel_is_filled_in_from_the_options_and_closed():
    w = RideTheBusWidget(
        players=3, board="give_and_take", bus="questions", streak=4, humans=(1,), bot="random"
    )
    assert isinstance(w.settings_panel, FoldingPanel) and not w.settings_panel.is_open
    assert isinstance(w.widget, ipywidgets.VBox)
    assert w.widget.children == (w.settings_panel, w.board, w.position_panel)
    assert isinstance(w.position_panel, FoldingPanel) and not w.position_panel.is_open
    assert w.settings_panel.body.layout.display == "none"
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
    assert w.frame["heading"].startswith(
        "Table: 3 players, Give & Take board, escalating row points, questions bus"
    )


def test_deal_button_makes_a_game_with_the_chosen_settings():
    w = RideTheBusWidget(players=4, humans=(0,), seed=1)
    w.play("red")
    w.set_viewer(3)
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
    assert w.last_error is None and "a new game is dealt" in w.message_text
    s = w.session
    assert s is not old and s.position == 0 and s.seed == 44 and w.frame["controls"]["seed"] == 44
    assert s.game.params == dict(
        players=5, board="give_and_take", row_points="flat", bus="questions", streak=6, mode="classic"
    )
    assert s.human_seats() == [1, 3]
    assert {seat: bot.name for seat, bot in s.bots.items()} == {0: "random", 2: "best_odds", 4: "random"}
    c = w.frame["controls"]
    assert [label for label, _ in c["viewers"]] == ["All cards (spectator)"] + [f"Seat {k}" for k in range(5)]
    assert c["viewer"] == 3 and c["position"] == 0 and c["last"] == 0
    assert "5 players, Give & Take board, flat row points, questions bus, streak 6" in w.frame["heading"]
    assert [c.layout.display for c in w.seat_controls] == [None] * 5 + ["none"] * 3
    # the same seed and settings deal the same game as a fresh session would
    twin = Session(
        load_game("ride_the_bus", **w.settings_values()),
        seed=44,
        bots={0: "random", 2: "best_odds", 4: "random"},
    )
    w.step()  # seat 0 is a bot: it answers Q1
    twin.step()
    assert w.session.state.history() == twin.state.history()


def test_an_invalid_combination_shows_the_engine_error_and_keeps_the_game():
    """RTB-SG-FLOW: the gauntlet has no Part 2, so a board choice is refused."""
    w = RideTheBusWidget(players=3, humans=(), seed=2)
    for _ in range(4):
        w.step()
    session, position, view = w.session, w.session.position, w.frame["view"]
    w.settings["mode"].value = "gauntlet"
    w.settings["board"].value = "give_and_take"  # possible from code even though the control is disabled
    w.deal_button.click()
    with pytest.raises(ParameterError) as info:
        load_game("ride_the_bus", players=3, mode="gauntlet", board="give_and_take")
    assert isinstance(w.last_error, ParameterError) and w.frame["message"]["kind"] == "error"
    assert "Error (ParameterError)" in w.message_text and str(info.value) in w.message_text
    assert w.session is session and w.session.position == position and w.frame["view"] == view


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
    assert w.session.game.num_players == 1 and "Solo gauntlet" in w.frame["heading"]
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
    assert [m["label"] for m in moves(w)] == ["red", "black"]  # Q1 for the lone player
    assert "nothing happens (you play alone" in moves(w)[0]["hint"]  # RTB-Q-RIGHT


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
    w.step()
    with pytest.raises(TypeError, match="needs a Session"):
        w.set_session("ride_the_bus")
    assert w.session.position == 1  # unchanged
    other = Session(load_game("ride_the_bus", players=6, bus="questions"), seed=9, bots="best_odds")
    w.set_session(other)
    c = w.frame["controls"]
    assert w.session is other and c["seed"] == 9 and c["last"] == 0
    assert [value for _, value in c["viewers"]] == [-1, 0, 1, 2, 3, 4, 5]
    w.step()
    assert other.position == 1 and w.frame["controls"]["position"] == 1


def test_seat_names_and_kinds_are_shown_on_the_seats():
    w = RideTheBusWidget(players=3, humans=(1,), bot="random")
    assert [(s["name"], s["kind"]) for s in w.frame["seats"]] == [
        ("Seat 0", "random bot"),
        ("Seat 1", "human"),
        ("Seat 2", "random bot"),
    ]
    assert [s["to_move"] for s in w.frame["seats"]] == [True, False, False]


# -- the plain drawing (print(state), state in a notebook) still names cards by their symbols -------
#: A card code (rank letter, suit letter) standing on its own: the board names cards "8♠", never "8S".
CARD_CODE = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[CDHS](?![\w])")


@pytest.mark.parametrize(
    "options", [*VARIANTS[::3], dict(mode="gauntlet")], ids=lambda o: "-".join(o.values())
)
def test_the_state_drawing_names_cards_by_their_symbols(options):
    """RTB-B-FLIP, RTB-QB-ORDER, RTB-SG-RIDE: ``state._repr_html_()`` and ``print(state)`` (used
    outside the widget) keep working through a whole game, and name every card with its suit
    symbol ("Card to beat: 8♠"), never as a code ("8S")."""
    import html

    w = RideTheBusWidget(players=3, humans=(), seed=5, **options)
    beats = 0
    while True:
        state = w.session.state
        page = state._repr_html_()
        svg = page[page.index("<svg") :]
        texts = [html.unescape(t) for t in re.findall(r"<text [^>]*>([^<]*)</text>", svg)]
        label = html.unescape(re.search(r'aria-label="([^"]*)"', svg).group(1))
        assert not [t for t in texts + [label] if CARD_CODE.search(t)]
        assert not CARD_CODE.search(str(state))
        beat = [t for t in texts if t.startswith("Card to beat: ")]
        if beat:
            assert beat == [f"Card to beat: {card_label(state.card_to_beat)} (the last card)"]
            beats += 1
        if state.is_terminal():
            break
        w.step()
    assert beats > 0 or options.get("bus") == "questions"


# -- the board adapter: every move on a target the drawing has ------------------------------------
def drawn_targets(view: dict) -> set[str]:
    """The targets the drawer (static/games/ride_the_bus.js) draws for ``view``: every seat's row,
    and the next card while a guess is asked or waits for its card (Part 1 outside a hand-out of
    points; the questions bus with a question asked; a higher/lower bus or ride with a card to
    beat, until the end)."""
    keys = {f"seat:{seat}" for seat in range(view["players"])}
    bus = view["bus"]
    if view["gives"]:
        return keys
    if view["phase"] == "questions" and view["question"]:
        keys.add("card:next")
    elif view["phase"] in ("bus", "rides") and bus["rider"] is not None:
        if bus["kind"] == "questions" and bus["question"] is not None:
            keys.add("card:next")
        if bus["kind"] == "higher_lower" and bus["card_to_beat"] is not None:
            keys.add("card:next")
    return keys


OPTION_SETS = [
    (dict(board="pyramid", bus="higher_lower"), 4),
    (dict(board="pyramid", bus="questions", row_points="flat"), 2),
    (dict(board="give_and_take", bus="higher_lower", streak=3), 8),
    (dict(board="give_and_take", bus="questions"), 5),
    (dict(mode="gauntlet"), 1),
    (dict(mode="gauntlet", streak=3), 6),
]


@pytest.mark.parametrize("options, players", OPTION_SETS, ids=lambda o: str(o))
def test_every_move_acts_on_a_target_the_board_draws(options, players):
    """Every legal move of whole seeded games (every seat a person, random moves) goes through a
    target the drawing has: a guess through the next card, with its answer beside it (RTB-Q1 …
    RTB-Q4, RTB-B-GUESS, RTB-QB-ORDER, RTB-SG-RIDE); a give through the taker's row (RTB-Q-RIGHT,
    RTB-P-GIVE, RTB-GT-GIVE), whose consequence gives the taker's total after it; the giver's row
    is blocked. The odds are the exact guess odds: one Fraction per answer, summing to 1 where the
    answers cover every card (red/black, the suits) and to 1 minus the tying cards otherwise."""
    assert adapter_for("ride_the_bus") is ADAPTER
    for seed in (1, 2):
        w = RideTheBusWidget(players=players, humans=tuple(range(players)), seed=seed, **options)
        rng = random.Random(seed)
        kinds = set()
        while not w.session.state.is_terminal():
            state, frame = w.session.state, w.frame
            if frame["moves"]:
                view = frame["view"]
                drawn = drawn_targets(view)
                legal = state.legal_moves()
                assert [m["action"] for m in frame["moves"]] == [m.action for m in legal]
                for entry in frame["moves"]:
                    assert entry["path"] and entry["path"][0] in drawn, (entry, sorted(drawn))
                kind = frame["moves"][0]["kind"]
                kinds.add(kind)
                if kind == "guess":
                    exact = guess_odds(state)
                    assert ADAPTER.odds(state, legal) == exact
                    assert [e["odds"] for e in frame["moves"]] == [
                        format_odds(exact[m.action]) for m in legal
                    ]
                    assert all(e["path"] == ["card:next"] for e in frame["moves"])
                    assert [e["choice"] for e in frame["moves"]] == [
                        ANSWER_WORDS[e["label"]] for e in frame["moves"]
                    ]
                    labels = {e["label"] for e in frame["moves"]}
                    total = sum(exact.values())
                    if labels <= {"red", "black", "clubs", "diamonds", "hearts", "spades"}:
                        assert total == 1
                    else:  # higher/lower or inside/outside: the cards that tie win neither answer
                        reference = [card_code(c) for c in state.guess_reference()]
                        ranks = sorted({RANK_OF[c[0]] for c in reference[: 1 if "higher" in labels else 2]})
                        pile = unseen_codes(state)
                        ties = Fraction(sum(1 for c in pile if RANK_OF[c[0]] in ranks), len(pile))
                        if "inside" in labels and len(ranks) == 1:  # a pair: outside wins on any other rank
                            ties = Fraction(sum(1 for c in pile if RANK_OF[c[0]] == ranks[0]), len(pile))
                        assert total == 1 - ties
                    assert frame["blocked"] == {}
                else:
                    give = view["gives"][0]
                    assert frame["blocked"].keys() == {f"seat:{give['giver']}"}
                    assert "another player" in frame["blocked"][f"seat:{give['giver']}"]
                    for entry in frame["moves"]:
                        taker = int(entry["path"][0].split(":")[1])
                        assert taker != give["giver"] and entry["choice"] is None
                        now = view["points"][taker]
                        assert f"takes {give['points']} point" in entry["hint"]
                        assert entry["hint"].split(": ")[1].startswith(f"{now} → {now + give['points']} ")
                    pick = rng.choice(frame["moves"])
                    taker = int(pick["path"][0].split(":")[1])
                    before = view["points"][taker]
                    w.play(pick["action"])
                    assert w.frame["view"]["points"][taker] == before + give["points"]
                    continue
                w.play(rng.choice(frame["moves"])["action"])
            else:
                w.step()
            assert w.last_error is None, w.message_text
        assert "guess" in kinds and (players == 1 or "give" in kinds)


def test_guess_consequences_say_the_points_at_stake():
    """RTB-Q-WRONG / RTB-Q-RIGHT: the question's points are at stake; RTB-B-STREAK: a bus miss
    costs 1 point and resets the streak; RTB-QB-MISS: back to question 1."""

    def until(w, phase):
        while w.session.state.decision_kind() is not phase:
            legal = moves(w)
            w.play(legal[0]["action"]) if legal else w.step()
        return moves(w)

    w = RideTheBusWidget(players=3, humans=(0, 1, 2), seed=4)
    while not (w.session.state.decision_kind() is RideTheBusPhase.GUESS and w.session.state.q_round == 3):
        legal = moves(w)
        w.play(legal[0]["action"]) if legal else w.step()
    q4 = moves(w)
    assert [m["choice"] for m in q4] == ["♣ Clubs", "♦ Diamonds", "♥ Hearts", "♠ Spades"]
    assert {m["hint"] for m in q4} == {
        "Wrong: you take 4 points (RTB-Q-WRONG); right: you give 4 points to a player you pick (RTB-Q-RIGHT)"
    }
    assert sum(guess_odds(w.session.state).values()) == 1
    calls = until(w, RideTheBusPhase.BUS_GUESS)
    state = w.session.state
    beat = card_label(state.card_to_beat)
    assert {m["hint"] for m in calls} == {
        f"Against {beat}: hit, streak {state.streak + 1} of 5; miss: +1 point, streak back to 0 (RTB-B-STREAK)"
    }
    q = RideTheBusWidget(players=2, humans=(0, 1), seed=4, bus="questions")
    first = until(q, RideTheBusPhase.QB_GUESS)
    assert [m["choice"] for m in first] == ["Red ♥♦", "Black ♣♠"]
    assert {m["hint"] for m in first} == {
        "Right: on to question 2. Miss: +1 point, back to question 1 (RTB-QB-MISS)"
    }
