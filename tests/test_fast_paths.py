"""The engine's fast paths give exactly what the plain reference code gives.

Speed-ups in the engine and the games are separate functions next to the plain code they replace;
each is checked here against that plain code at states reached by seeded random playouts of every
registered game (its default options, each other value of a choice option, and the fewest and most
players):

* :func:`~bus_lab.engine.policies.sample_chance` (integer weights from ``chance_weights()``) draws
  the same outcome as :func:`~bus_lab.engine.policies.sample_chance_exact` (the common-denominator
  method over ``chance_outcomes()``) from the same generator, and leaves the generator in the same
  state, so seeded games are unchanged;
* each game's ``chance_weights()`` gives the outcomes and probabilities of ``chance_outcomes()``;
* each game's ``_is_legal(a)`` equals ``a in legal_actions()`` for every int tried;
* ``is_terminal()`` / ``is_chance_node()`` agree with ``current_player()``;
* ``apply_action`` refuses exactly what ``why_illegal`` refuses and accepts a legal int subclass;
* ``Event`` built by its hand-written ``__init__`` behaves as the frozen dataclass it is;
* :func:`~bus_lab.prob.guess_odds` (one Fraction per guess: right cards / cards of the draw pile)
  equals summing the exact ``chance_outcomes()`` probabilities of the right cards, at every guess,
  and so does :func:`~bus_lab.games.ride_the_bus.odds.guess_odds_fast` (the bots' form).
"""

from __future__ import annotations

import enum
import pickle
import random
from fractions import Fraction

import pytest

import bus_lab
from bus_lab import (
    CHANCE,
    TERMINAL,
    Event,
    IllegalActionError,
    OptionNotBuiltError,
    ParameterError,
    State,
    load_game,
)
from bus_lab.engine.core import _one_in
from bus_lab.engine.policies import random_policy, sample_chance, sample_chance_exact

PLAYOUTS = 3  # seeded random games per configuration
MAX_STEPS = 5_000


def _configs() -> list[tuple[str, dict]]:
    """Every registered game: defaults, each other value of each choice option, fewest and most players."""
    out = []
    for name in bus_lab.registered_games():
        game = load_game(name)
        variants = [{}]
        for p in game.PARAMS:
            if p.choices is not None:
                variants += [{p.name: v} for v in p.choices if v != p.default]
            elif p.name == "players" and p.bounds is not None:
                variants += [{"players": p.bounds[0]}, {"players": p.bounds[1]}]
        for params in variants:
            try:
                load_game(name, **params)
            except (ParameterError, OptionNotBuiltError):
                continue
            out.append((name, params))
    return out


CONFIGS = _configs()
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in params.items()) or 'defaults'}" for name, params in CONFIGS]


def _playout_states(name: str, params: dict, seed: int) -> list[State]:
    """Every state of one seeded random game, start to end (clones, so each stays as it was)."""
    rng = random.Random(seed)
    state = load_game(name, **params).new_initial_state()
    states = [state.clone()]
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return states
        action = sample_chance(state, rng) if state.is_chance_node() else random_policy(state, rng)
        state.apply_action(action)
        states.append(state.clone())
    raise AssertionError(f"{name} {params} seed {seed} did not end within {MAX_STEPS} steps")


@pytest.fixture(scope="module", params=range(len(CONFIGS)), ids=IDS)
def playouts(request) -> list[State]:
    name, params = CONFIGS[request.param]
    return [st for seed in range(PLAYOUTS) for st in _playout_states(name, params, seed)]


def test_configurations_cover_every_game():
    assert {name for name, _ in CONFIGS} == set(bus_lab.registered_games())


def test_sample_chance_draws_what_the_exact_method_draws(playouts):
    chance = [st for st in playouts if st.is_chance_node()]
    assert chance, "a game with no draw at all"
    for i, state in enumerate(chance):
        for k in range(3):
            fast, exact = random.Random(1000 * i + k), random.Random(1000 * i + k)
            assert sample_chance(state, fast) == sample_chance_exact(state, exact)
            assert fast.getstate() == exact.getstate()  # the same random numbers were used


def test_sample_chance_follows_weighted_probabilities():
    # A hand-made chance node with unequal odds: 1/6, 2/6 (=1/3) and 3/6 (=1/2).
    class Weighted(State):
        def current_player(self):
            return CHANCE

        def _chance_outcomes(self):
            return [(7, Fraction(1, 6)), (3, Fraction(1, 3)), (5, Fraction(1, 2))]

    state = Weighted(load_game("ride_the_bus"))
    assert state.chance_weights() == ([3, 5, 7], [2, 3, 1])  # sorted by action, over denominator 6
    counts = {3: 0, 5: 0, 7: 0}
    for k in range(600):
        rng, ref = random.Random(k), random.Random(k)
        drawn = sample_chance(state, rng)
        assert drawn == sample_chance_exact(state, ref) and rng.getstate() == ref.getstate()
        counts[drawn] += 1
    # every ticket 0-5 of randrange(6) maps to one outcome: 2 tickets for 3, 3 for 5, 1 for 7
    assert {a: counts[a] / 600 for a in counts} == pytest.approx({3: 2 / 6, 5: 3 / 6, 7: 1 / 6}, abs=0.06)

    class Scaled(Weighted):  # a game's own weights need not be in lowest terms: 4:6:2 is 2:3:1
        def chance_weights(self):
            return [3, 5, 7], [4, 6, 2]

    scaled = Scaled(load_game("ride_the_bus"))
    for k in range(50):
        rng, ref = random.Random(k), random.Random(k)
        assert (
            sample_chance(scaled, rng) == sample_chance_exact(state, ref) and rng.getstate() == ref.getstate()
        )


def test_sample_chance_refuses_a_decision_node():
    state = load_game("ride_the_bus", players=2).new_initial_state()
    assert not state.is_chance_node()
    for draw in (sample_chance, sample_chance_exact):
        with pytest.raises(ValueError, match="not a chance node"):
            draw(state, random.Random(0))


def test_chance_weights_match_chance_outcomes(playouts):
    for state in playouts:
        actions, weights = state.chance_weights()
        if not state.is_chance_node():
            assert (actions, weights) == ([], None)
            continue
        outcomes = state.chance_outcomes()
        assert actions == [a for a, _ in outcomes]
        if weights is None:
            assert len({p for _, p in outcomes}) == 1
        else:
            assert all(type(w) is int and w > 0 for w in weights)
            total = sum(weights)
            assert [Fraction(w, total) for w in weights] == [p for _, p in outcomes]
        # and the same as the plain version the base class derives from chance_outcomes()
        base_actions, base_weights = State.chance_weights(state)
        assert base_actions == actions
        if (weights is None) != (base_weights is None):
            assert len(set(weights or base_weights)) == 1  # equal weights, said either way


def _plain_guess_odds(state) -> dict[int, Fraction]:
    """The reference: each guess's chance as the sum of ``chance_outcomes()`` over its right cards."""
    odds = {}
    for guess in (a for a in state.legal_actions() if state.is_guess(a)):
        after = state.clone()
        after.apply_action(guess)
        odds[guess] = sum(
            (p for card, p in after.chance_outcomes() if after.pending_guess_right(card)), Fraction(0)
        )
    return odds


RTB_CONFIGS = [i for i, (name, _) in enumerate(CONFIGS) if name == "ride_the_bus"]


@pytest.mark.parametrize("config", RTB_CONFIGS, ids=[IDS[i] for i in RTB_CONFIGS])
def test_guess_odds_equal_summed_chance_outcomes(config):
    from bus_lab.games.ride_the_bus.odds import guess_odds_fast
    from bus_lab.prob.ride_the_bus import best_guess, guess_odds

    name, params = CONFIGS[config]
    guesses = [
        st
        for seed in range(PLAYOUTS)
        for st in _playout_states(name, params, seed)
        if not st.is_chance_node() and not st.is_terminal() and st.is_guess(st.legal_actions()[0])
    ]
    assert guesses
    for state in guesses:
        odds = guess_odds(state)
        assert odds == _plain_guess_odds(state)
        fast = guess_odds_fast(state)
        assert fast == odds and list(fast) == list(odds)
        assert all(type(p) is Fraction for p in fast.values())
        assert all(type(p) is Fraction for p in odds.values())
        action, p = best_guess(state)
        assert p == max(odds.values()) and odds[action] == p


#: House rules together, where each one alone is covered by CONFIGS (RTB-HR-TIES, RTB-HR-INSIDE,
#: RTB-HR-ACES decide the guesses; RTB-HR-FLIP and RTB-HR-STAY change which cards are seen).
RTB_HOUSE_CONFIGS = [
    {"ties": "win", "inside": "inclusive", "aces": "low"},
    {"bus": "questions", "ties": "win", "inside": "inclusive", "aces": "low"},
    {"mode": "gauntlet", "players": 2, "ties": "win", "aces": "low"},
    {"played_cards": "stay", "pyramid_order": "top_down", "ties": "win"},
    {"board": "give_and_take", "played_cards": "stay", "inside": "inclusive"},
]


@pytest.mark.parametrize(
    "params", RTB_HOUSE_CONFIGS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items())
)
def test_guess_odds_fast_follows_combined_house_rules(params):
    """RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES together: the fast path gives the very Fractions of
    the plain sum of ``chance_outcomes()`` over the right cards at every guess."""
    from bus_lab.games.ride_the_bus.odds import guess_odds_fast

    checked = 0
    for seed in range(PLAYOUTS):
        for state in _playout_states("ride_the_bus", params, seed):
            if state.is_chance_node() or state.is_terminal() or not state.is_guess(state.legal_actions()[0]):
                continue
            fast = guess_odds_fast(state)
            assert fast == _plain_guess_odds(state) and list(fast) == state.legal_actions()
            checked += 1
    assert checked


def _candidates(state) -> set[int]:
    legal = state.legal_actions()
    near = {a + d for a in legal for d in (-2, -1, 0, 1, 2)}
    return near | set(range(-3, 1_000, 1)) | {10**6, -(10**6)}


def test_is_legal_is_membership_in_legal_actions(playouts):
    checked = 0
    for i, state in enumerate(playouts):
        if state.is_terminal() or i % 3:  # every third state: the candidates are many
            continue
        legal = set(state.legal_actions())
        for action in _candidates(state):
            assert state._is_legal(action) == (action in legal), (state.action_to_string(action), action)
        checked += 1
    assert checked


def test_node_kind_shortcuts_agree_with_current_player(playouts):
    for state in playouts:
        player = state.current_player()
        assert state.is_terminal() == (player == TERMINAL)
        assert state.is_chance_node() == (player == CHANCE)


class _Seat(enum.IntEnum):
    FIRST = 0


class _Action(int):
    """An int subclass: apply_action takes the long way through why_illegal for it."""


def test_apply_action_refuses_what_why_illegal_refuses(playouts):
    for state in playouts[:: max(1, len(playouts) // 40)]:
        legal = state.legal_actions()
        player = state.current_player()
        others = [s for s in range(state.get_game().num_players) if s != player]
        attempts = [(a, None) for a in (-1, 10**6, True, 1.0, "1", None)]
        if legal:
            attempts += [(legal[0], others[0])] if others else []
        for action, seat in attempts:
            reason = state.why_illegal(action, seat)
            copy = state.clone()
            if reason is None:
                copy.apply_action(action, seat=seat)
                continue
            with pytest.raises(IllegalActionError) as info:
                copy.apply_action(action, seat=seat)
            assert info.value.reason == reason
            assert copy.history() == state.history() and copy.view(None) == state.view(None)
        if legal:
            copy, plain = state.clone(), state.clone()
            copy.apply_action(_Action(legal[0]), seat=_Seat.FIRST if player == 0 else None)
            plain.apply_action(legal[0])
            assert copy.history() == plain.history()
            assert (
                copy.num_chance_steps()
                == plain.num_chance_steps()
                == state.num_chance_steps() + (player == CHANCE)
            )


def test_event_is_immutable_and_compares_by_its_fields():
    by_keyword = Event(rule="RTB-Q1", text="Seat 0 answers Q1.", step=2, data={"seat": 0})
    by_position = Event("RTB-Q1", "Seat 0 answers Q1.", 2, {"seat": 0})
    assert by_keyword == by_position and by_keyword != Event("RTB-Q1", "Seat 0 answers Q1.", 3, {"seat": 0})
    assert hash(by_keyword) == hash(by_position)
    assert (by_position.rule, by_position.text, by_position.step, by_position.data) == (
        "RTB-Q1",
        "Seat 0 answers Q1.",
        2,
        {"seat": 0},
    )
    with pytest.raises(AttributeError):
        by_keyword.step = 3  # type: ignore[misc]
    bare, other = Event("R", "t"), Event("R", "t", data=None)
    assert bare.step == 0 and bare.data == {} and other.data == {}
    bare.data["x"] = 1
    assert other.data == {}  # each event has its own empty dict
    assert pickle.loads(pickle.dumps(by_keyword)) == by_keyword


def _narrate_for_test(event):
    _narrate_for_test.calls += 1
    return f"Seat {event.data['seat']} answers."


_narrate_for_test.calls = 0


def test_event_sentence_is_made_by_the_narrator_once_when_first_read():
    event = Event("RTB-Q1", None, 4, {"seat": 3}, narrator=_narrate_for_test)
    assert _narrate_for_test.calls == 0
    assert event.text == "Seat 3 answers." and str(event) == "[RTB-Q1] Seat 3 answers."
    assert event.text == "Seat 3 answers." and _narrate_for_test.calls == 1
    assert event == Event("RTB-Q1", "Seat 3 answers.", 4, {"seat": 3})
    assert event.to_dict() == {"rule": "RTB-Q1", "text": "Seat 3 answers.", "step": 4, "data": {"seat": 3}}
    assert pickle.loads(pickle.dumps(event)) == event


def test_uniform_probability_is_shared_and_exact():
    assert _one_in(43) == Fraction(1, 43) and _one_in(43) is _one_in(43)
    outcomes = State._uniform([5, 1, 3])
    assert outcomes == [(1, Fraction(1, 3)), (3, Fraction(1, 3)), (5, Fraction(1, 3))]
