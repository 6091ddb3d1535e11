"""BUS (the city grid game) as a whole: parameters, whole seeded games with both bots and every
option, game-specific invariants (cards conserved, events cite catalogue rules, moves are distinct
outcomes), saving, and the greedy router against random play.

The generic invariant suite (``test_invariants.py``) covers the protocol over the registered game;
these tests build the game class directly (``BusCityGame``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bus_lab import IllegalActionError, ParameterError, Session
from bus_lab.games.bus_city import BusCityGame, default_sheet_dict
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.state import END_AT, MASK_SPAN, MOVE_BASE

CATALOGUE = Path(__file__).resolve().parents[2] / "shared" / "rules" / "bus_city.md"
OPTIONS = [
    {"players": 2},
    {"players": 3},
    {"players": 2, "challenging": True},
    {"players": 3, "challenging": True},
    {"players": 2, "empty_speed": 5},
    {"players": 3, "challenging": True, "empty_speed": 5},
]


def catalogue_ids() -> set[str]:
    """Rule IDs listed in the rule catalogue (``- BUS-XYZ:`` lines), read from the shared spec."""
    if not CATALOGUE.exists():
        pytest.skip("the rule catalogue is not beside the project")
    return set(re.findall(r"^- (BUS-[A-Z0-9-]+):", CATALOGUE.read_text(), flags=re.M))


def test_parameters_are_checked():
    """BUS-SETUP: 2 or 3 players; the options take only their listed values."""
    for bad in (
        {"players": 1},
        {"players": 4},
        {"challenging": "yes"},
        {"empty_speed": 3},
        {"max_rounds": 0},
        {"max_rounds": 101},
        {"colour": "red"},
    ):
        with pytest.raises(ParameterError):
            BusCityGame(**bad)
    game = BusCityGame(players=3, challenging=True, empty_speed=5, max_rounds=10)
    assert game.params == {
        "players": 3,
        "challenging": True,
        "empty_speed": 5,
        "max_rounds": 10,
        "sheet": None,
    }
    assert hash(BusCityGame(sheet=default_sheet_dict())) == hash(BusCityGame(sheet=default_sheet_dict()))


@pytest.mark.parametrize("params", OPTIONS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_seeded_bot_games_finish_with_every_option(params):
    """BUS-END, BUS-END-CAP, BUS-SCORE, BUS-WIN: random and greedy games end, scores add up, the same
    seed replays the same game, and every event cites a rule of the catalogue."""
    ids = catalogue_ids()
    game = BusCityGame(**params)
    mixed = {seat: ("greedy", "random")[seat % 2] for seat in range(game.num_players)}
    for bots in ("random", "greedy", mixed):
        for seed in (0, 1):
            session = Session(game, seed=seed, bots=bots)
            session.run_to_end()
            state = session.state
            assert state.is_terminal()
            again = Session(BusCityGame(**params), seed=seed, bots=bots)
            again.run_to_end()
            assert again.state.history() == state.history()
            assert {e.rule for e in state.events()} <= ids
            for seat in range(game.num_players):
                assert sum(line["points"] for line in state.score_breakdown(seat)) == state.returns()[seat]
            ended = [e.rule for e in state.events() if e.rule in ("BUS-END", "BUS-END-CAP")]
            assert ended, "the game says why it ended"
            if "BUS-END-CAP" not in ended:
                assert max(len(c) for c in state.complete) >= END_AT


def cards_check(state) -> None:
    """BUS-COMP-PASSENGERS, BUS-FACEUP: every passenger card is in exactly one place (deck, face up,
    a seat's cards in progress or complete); at most 2 face up, and 2 while the deck lasts outside a
    draw; every street card is on the grid once after setup."""
    places = list(state.deck) + list(state.faceup)
    for seat in range(state.num_players):
        places += state.in_progress(seat) + list(state.complete[seat])
        assert len(state.in_progress(seat)) <= 3
    assert sorted(places) == list(range(len(state.sheet.passengers)))
    assert len(state.faceup) <= 2
    if state.deck and state.node not in ("faceup", "street") and state.stage != "setup":
        assert len(state.faceup) == 2
    if state.stage != "setup":
        assert sorted(s[0] for s in state.slots) == list(range(12))


@pytest.mark.parametrize("params", OPTIONS[:4], ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_cards_conserved_and_moves_are_distinct_outcomes(params):
    """BUS-MOVE, BUS-SPEED, BUS-MOVE-END, BUS-DROPOFF: at every move decision each legal move is one
    outcome (end slot, heading, colours dropped) with a route of 1..limit steps, no U-turn, not
    ending on the starting card, dropping exactly the colours in its label."""
    for bots in ("random", "greedy"):
        session = Session(BusCityGame(**params), seed=5, bots=bots)
        session.run_to_end()
        for i in range(len(session)):
            state = session.state_at(i)
            cards_check(state)
            if state.node != "move":
                continue
            start = state.buses[state.actor]
            for action, route in state.move_routes().items():
                end, mask = divmod(action - MOVE_BASE, MASK_SPAN)
                assert route[-1] == end and end // 2 != start // 2
                assert 1 <= len(route) <= (state.speed_limit or 99)
                for here, there in zip([start] + route, route):
                    assert there in G.SUCCESSORS[here]
                trial = state.clone()
                trial.apply_action(action)
                dropped = {
                    e.data["colour"] for e in trial.events()[len(state.events()) :] if e.rule == "BUS-DROPOFF"
                }
                assert dropped == set(state.colours_of(mask))


def test_illegal_moves_say_why_and_change_nothing():
    """BUS-TURN, BUS-PICKUP: a pick-up during a move decision is refused with its rule; nothing changes."""
    session = Session(BusCityGame(players=2), seed=2, bots="random")
    while session.state.node != "move":
        session.step()
    state = session.state
    before = json.dumps(state.to_dict()), json.dumps(state.view())
    with pytest.raises(IllegalActionError, match="BUS-PICKUP"):
        state.apply_action(300)
    with pytest.raises(IllegalActionError, match="BUS-CONSTRUCTION"):
        state.apply_action(1001)
    assert (json.dumps(state.to_dict()), json.dumps(state.view())) == before


def test_save_and_load_with_a_custom_sheet_dict():
    """BUS-COMP-STREETS: a game with a replaced sheet (a dict) saves to JSON and loads back equal."""
    sheet = default_sheet_dict()
    sheet["title"] = "more bus stops"
    sheet["streets"][10] = {"id": "stop4", "symbol": "stop"}
    game = BusCityGame(players=3, sheet=sheet)
    session = Session(game, seed=9, bots="greedy")
    session.run_to_end()
    data = json.loads(json.dumps(session.state.to_dict()))
    again = game.state_from_dict(data)
    assert again.view() == session.state.view()
    assert sum(1 for e in again.view()["grid"] if e["symbol"] == "stop") == 4
    assert "more bus stops" in repr(game)


def test_views_are_json_and_show_no_deck_card():
    """BUS-FACEUP: the view shows the deck as a count only; no card of the deck is named in any view."""
    session = Session(BusCityGame(players=3), seed=4, bots="greedy")
    session.run_to_end()
    for i in range(0, len(session), 7):
        state = session.state_at(i)
        text = json.dumps(state.view(0))
        for card in state.deck:
            assert not re.search(rf"(?<![\w-]){re.escape(state.card_name(card))}(?![\w-])", text)
        same = [{k: v for k, v in state.view(seat).items() if k != "viewer"} for seat in (0, 1)]
        assert same[0] == same[1]  # nothing is hidden from one seat and shown to another
    assert isinstance(state.view(None)["deck"], int)
    assert "<svg" in state._repr_html_() and "Seat 0" in str(state)


def test_greedy_beats_random_in_points_per_turn():
    """BUS-SCORE, BUS-WIN: over seeded 2-player games the greedy router wins most games against random."""
    game = BusCityGame(players=2)
    wins = 0
    for seed in range(12):
        session = Session(
            game, seed=seed, bots={0: "greedy", 1: "random"} if seed % 2 else {0: "random", 1: "greedy"}
        )
        session.run_to_end()
        greedy = 0 if seed % 2 else 1
        wins += greedy in session.state.winners()
    assert wins >= 10
