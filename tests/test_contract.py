"""The contract between every game and everything above it: typed moves, notation, phases, inputs.

Run over every registered game and option set (the configurations of the invariant suite), on
seeded random games, through the public API only.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from test_invariants import CONFIG_IDS, CONFIGS

import bus_lab
from bus_lab.engine import CHANCE, Actor, InputTypeError, Move, Phase
from bus_lab.engine.policies import sample_chance

SEEDS = (0, 1)


def _walk(game, seed: int, max_steps: int = 5_000):
    """Every state of one seeded random game, the initial one included."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    for _ in range(max_steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        yield state


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=CONFIG_IDS)
def test_typed_moves_match_the_actions_and_their_labels(name, params):
    game = bus_lab.load_game(name, **params)
    for seed in SEEDS:
        for state in _walk(game, seed):
            moves = state.legal_moves()
            legal = state.legal_actions()
            assert [m.action for m in moves] == legal
            for move in moves:
                assert isinstance(move, Move)
                assert str(move) == state.action_to_string(move.action)
                assert move == pickle.loads(pickle.dumps(move))
                assert hash(move) == hash(pickle.loads(pickle.dumps(move)))
            assert len(set(moves)) == len(moves), "two legal moves are equal values"
            assert state.legal_moves(labelled=False) == moves  # the same values, without labels


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=CONFIG_IDS)
def test_every_label_parses_back_to_its_action(name, params):
    game = bus_lab.load_game(name, **params)
    for seed in SEEDS:
        for state in _walk(game, seed):
            for action in state.legal_actions():
                label = state.action_to_string(action)
                assert state.string_to_action(label) == action, label
                assert state.string_to_action("  " + label.upper() + " ") == action, label


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=CONFIG_IDS)
def test_phases_are_named_and_say_who_acts(name, params):
    game = bus_lab.load_game(name, **params)
    state = game.new_initial_state()
    table = type(state).PHASES
    assert table, "the game has no phase table"
    phase_enums = {type(p) for p in table}
    assert len(phase_enums) == 1 and issubclass(phase_enums.pop(), Phase)
    for seed in SEEDS:
        for state in _walk(game, seed):
            phase = state.phase()
            if state.is_terminal():
                assert state.decision_kind() is None
                continue
            assert phase in table
            actor = table[phase].actor
            assert callable(getattr(state, table[phase].handler))
            if state.current_player() == CHANCE:
                assert actor is Actor.CHANCE and state.decision_kind() is None
            else:
                assert actor is Actor.SEAT and state.decision_kind() is phase


@pytest.mark.parametrize("name", bus_lab.registered_games())
def test_any_integer_type_and_a_move_are_accepted_as_actions(name):
    game = bus_lab.load_game(name)
    rng = random.Random(5)
    state = game.new_initial_state()
    by_int = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 300:
        if state.is_chance_node():
            action = sample_chance(state, rng)
            state.apply_action(np.int64(action))
        else:
            move = rng.choice(state.legal_moves())
            action = move.action
            state.apply_action(move)
        by_int.apply_action(action)
        steps += 1
    assert state.history() == by_int.history()
    assert all(type(a) is int for a in state.history())


@pytest.mark.parametrize("name", bus_lab.registered_games())
@pytest.mark.parametrize("bad", [None, 3, 2.5, b"red", ["red"]])
def test_a_label_that_is_not_a_string_is_refused_clearly(name, bad):
    state = bus_lab.load_game(name).new_initial_state()
    before = state.history()
    with pytest.raises(InputTypeError, match="string"):
        state.string_to_action(bad)
    assert state.history() == before


@pytest.mark.parametrize("name", bus_lab.registered_games())
@pytest.mark.parametrize("bad", ["0", True, 1.0, None])
def test_a_seat_that_is_not_an_integer_is_refused_clearly(name, bad):
    state = bus_lab.load_game(name).new_initial_state()
    if bad is not None:
        with pytest.raises(InputTypeError, match="seat"):
            state.view(bad)
    with pytest.raises(InputTypeError, match="seat"):
        state.score_breakdown(bad)
    with pytest.raises(bus_lab.ParameterError, match="no seat 9"):
        state.view(9)


@pytest.mark.parametrize("name", bus_lab.registered_games())
def test_an_illegal_label_says_the_rules_reason(name):
    """A label that names a real move that is not legal now is refused with why_illegal's reason."""
    game = bus_lab.load_game(name)
    for seed in SEEDS:
        rng = random.Random(seed)
        state = game.new_initial_state()
        seen_labels: dict[str, int] = {}
        for _ in range(400):
            if state.is_terminal():
                break
            if not state.is_chance_node():
                legal = set(state.legal_actions())
                legal_labels = {state.action_to_string(a).casefold() for a in legal}
                for label in seen_labels:
                    if label.casefold() in legal_labels:
                        continue
                    with pytest.raises(bus_lab.IllegalActionError) as caught:
                        state.string_to_action(label)
                    # the game knows the move it names and says why it is not allowed now
                    assert caught.value.reason != "no move has that name", label
                    assert state.history() == state.history()
                for action in legal:
                    seen_labels.setdefault(state.action_to_string(action), action)
                action = rng.choice(sorted(legal))
            else:
                action = sample_chance(state, rng)
            state.apply_action(action)


@pytest.mark.parametrize("name", bus_lab.registered_games())
def test_every_named_bot_pickles_in_a_session_and_plays_on_the_same(name):
    game = bus_lab.load_game(name)
    for bot in sorted(game.policies()):
        session = bus_lab.Session(game, seed=3, bots=bot)
        for _ in range(25):
            session.step()
        twin = pickle.loads(pickle.dumps(session))
        session.run_to_end()
        twin.run_to_end()
        assert twin.state.history() == session.state.history(), bot


@pytest.mark.parametrize("name", bus_lab.registered_games())
def test_a_scripted_deck_is_checked_up_front(name):
    """The chance outcomes of a played game, by label, make a deck that replays them; an entry that
    names nothing drawn in the game, or a decision, is refused when the session is made."""
    game = bus_lab.load_game(name)
    played = bus_lab.Session(game, seed=4, bots="random")
    played.run_to_end()
    replay = game.new_initial_state()
    deck, decision = [], None
    for action in played.state.history():
        if replay.is_chance_node():
            deck.append(replay.action_to_string(action))
        elif decision is None:
            decision = replay.action_to_string(action)
        replay.apply_action(action)
    deck = deck[:30]
    again = bus_lab.Session(game, seed=99, bots="random", deck=deck)
    again.run_to_end()
    drawn = []
    check = game.new_initial_state()
    for action in again.state.history():
        if check.is_chance_node():
            drawn.append(check.action_to_string(action))
        check.apply_action(action)
    used = min(len(drawn), len(deck))  # the other game may end before the deck is used up
    assert used >= 10 and drawn[:used] == deck[:used]
    for bad in ("ZZ", decision):
        with pytest.raises(bus_lab.ParameterError, match=r"#1 "):
            bus_lab.Session(game, seed=1, deck=[deck[0], bad])
