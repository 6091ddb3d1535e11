"""Positions a teacher sets up: ``game.state_from_position`` and ``state.position()``.

For every game with positions and every option set of the invariant suite: at every state of two
seeded random games where a position can be taken (a bounded number), the position survives JSON,
sets up a state whose position is the same, and that state plays on exactly like the original
(legal actions and labels, chance outcomes and probabilities, every seat's view, returns), also
after the same next actions. Elsewhere ``position()`` says where a position can be taken. Then
the checks of impossible positions (each kind of error, with its message), records and sessions
that start from a position, and the examples of the README.
"""

from __future__ import annotations

import copy
import importlib
import json
import pickle
import random
import re
import types
import typing
from fractions import Fraction
from pathlib import Path

import pytest
from test_invariants import CONFIG_IDS, CONFIGS

import bus_lab
from bus_lab.engine import IllegalActionError, PositionError
from bus_lab.engine.policies import sample_chance
from bus_lab.engine.session import Session
from bus_lab.games.bus_and_stop.positions import EXAMPLE
from bus_lab.games.bus_city.positions import EXAMPLE as BUS_EXAMPLE
from bus_lab.games.busstop.positions import EXAMPLE as BUSSTOP_EXAMPLE

GAMES_WITH_POSITIONS = ("bus_and_stop", "busstop", "bus_city", "ride_the_bus")
POSITION_CONFIGS = [(c, i) for c, i in zip(CONFIGS, CONFIG_IDS) if c[0] in GAMES_WITH_POSITIONS]
#: positions checked per seeded game (spread over the game)
MAX_CHECKED = 40
#: actions played on after each rebuilt position
PLAY_ON = 6


def _next(state, rng):
    return sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())


def assert_same_play(a, b) -> None:
    """Everything a player or bot can observe is the same at ``a`` and ``b``."""
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    assert a.phase() == b.phase()
    assert a.legal_actions() == b.legal_actions()
    assert [a.action_to_string(x) for x in a.legal_actions()] == [
        b.action_to_string(x) for x in b.legal_actions()
    ]
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    for seat in [None, *range(a.get_game().num_players)]:
        assert a.view(seat) == b.view(seat), seat
    assert a.returns() == b.returns()
    assert a.winners() == b.winners()


def _walk_positions(game, seed):
    """``(state, position)`` for the states of a seeded game where a position can be taken, and
    the number of states where it cannot (each checked to raise)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found, refused = [], 0
    while True:
        try:
            pos = state.position()
        except PositionError as err:
            assert "position is taken" in str(err)
            refused += 1
        else:
            found.append((state.clone(), pos))
        if state.is_terminal():
            return found, refused
        state.apply_action(_next(state, rng))


@pytest.mark.parametrize(
    ("name", "params"), [c for c, _ in POSITION_CONFIGS], ids=[i for _, i in POSITION_CONFIGS]
)
def test_position_round_trip_plays_on_like_the_original(name, params):
    game = bus_lab.load_game(name, **params)
    for seed in (0, 1):
        found, refused = _walk_positions(game, seed)
        assert found, "no position could be taken in a whole game"
        assert refused, "a terminal state has no position"
        step = max(1, len(found) // MAX_CHECKED)
        for i, (state, pos) in enumerate(found[::step]):
            pos = json.loads(json.dumps(pos))  # JSON-safe, and a plain copy
            rebuilt = game.state_from_position(pos)
            assert rebuilt.position() == pos
            assert rebuilt.history() == []
            assert_same_play(state, rebuilt)
            rng = random.Random(f"{seed}:{i}")
            for _ in range(PLAY_ON):
                if state.is_terminal():
                    break
                action = _next(state, rng)
                state.apply_action(action)
                rebuilt.apply_action(action)
                assert_same_play(state, rebuilt)


def _check(value, hint, where: str, every: bool = True) -> None:
    """``value`` has exactly the type ``hint`` (TypedDicts key by key, lists and dicts item by item);
    ``every``: a TypedDict's optional keys are there too (as ``position()`` gives them)."""
    origin = typing.get_origin(hint)
    if typing.is_typeddict(hint):
        assert isinstance(value, dict), where
        hints = typing.get_type_hints(hint)
        keys = set(hints) if every else set(value)
        assert hint.__required_keys__ <= keys == set(value) <= set(hints), (where, set(value) ^ set(hints))
        for key in keys:
            _check(value[key], hints[key], f"{where}.{key}", every)
    elif origin in (typing.Union, types.UnionType):
        errors = []
        for option in typing.get_args(hint):
            try:
                _check(value, option, where, every)
                return
            except AssertionError as err:
                errors.append(err)
        raise AssertionError((where, value, hint, errors))
    elif origin is typing.Literal:
        assert value in typing.get_args(hint), (where, value)
    elif origin is list:
        assert type(value) is list, where
        (item,) = typing.get_args(hint)
        for i, v in enumerate(value):
            _check(v, item, f"{where}[{i}]", every)
    elif origin is dict:
        assert type(value) is dict, where
        key_hint, item = typing.get_args(hint)
        for k, v in value.items():
            assert type(k) is key_hint, (where, k)
            _check(v, item, f"{where}[{k!r}]", every)
    elif hint is type(None):
        assert value is None, where
    else:
        assert type(value) is hint, (where, value, hint)  # bool is not int here


@pytest.mark.parametrize("name", GAMES_WITH_POSITIONS)
def test_position_matches_its_typed_dict(name):
    module = importlib.import_module(f"bus_lab.games.{name}.positions")
    for players in (2, 3):
        game = bus_lab.load_game(name, players=players)
        found, _ = _walk_positions(game, 11)
        for _state, pos in found[:: max(1, len(found) // 10)]:
            _check(pos, module.Position, "position")
    _check(module.EXAMPLE, module.Position, "EXAMPLE", every=False)  # the optional keys left out


@pytest.mark.parametrize("name", GAMES_WITH_POSITIONS)
def test_a_state_from_a_position_is_a_good_engine_citizen(name):
    game = bus_lab.load_game(name)
    found, _ = _walk_positions(game, 3)
    state, pos = found[len(found) // 2]
    rebuilt = game.state_from_position(pos)
    assert rebuilt.starting_position() == pos
    twin = rebuilt.clone()
    rng = random.Random(4)
    for _ in range(12):
        if rebuilt.is_terminal():
            break
        rebuilt.apply_action(_next(rebuilt, rng))
    assert twin.position() == pos, "the clone changed with the original"
    data = json.loads(json.dumps(rebuilt.to_dict()))
    assert data["start"] == pos and data["history"] == rebuilt.history()
    again = game.state_from_dict(data)
    assert again.history() == rebuilt.history()
    assert_same_play(again, rebuilt)
    # a record saved before positions existed (no "start") still loads from the initial state
    old = state.to_dict()
    assert "start" not in old
    assert game.state_from_dict(old).history() == state.history()


@pytest.mark.parametrize("name", GAMES_WITH_POSITIONS)
def test_a_session_starts_from_a_position_and_travels_in_time(name):
    game = bus_lab.load_game(name)
    found, _ = _walk_positions(game, 5)
    _state, pos = found[len(found) // 3]
    session = Session(game, seed=9, bots="random", start=pos)
    assert session.state.position() == pos
    session.run_to_end(max_steps=40)
    end = session.position
    assert end > 0
    middle = session.goto(end // 2)
    assert session.undo() and session.position == end // 2 - 1 or end // 2 == 0
    session.goto(0)
    assert session.state.position() == pos
    assert not session.undo(), "step 0 is the position: nothing before it"
    saved = session.to_json()
    assert json.loads(saved)["start"] == pos
    loaded = Session.from_json(saved)
    assert loaded.position == 0 and loaded.state.position() == pos
    assert_same_play(loaded.goto(end // 2), middle)
    assert_same_play(loaded.goto(end), session.goto(end))
    fork = session.fork()
    assert fork.state_at(0).position() == pos


def test_a_session_saved_before_positions_loads_as_before():
    session = Session(bus_lab.load_game("bus_and_stop", players=2), seed=1, bots="random")
    session.run_to_end(max_steps=30)
    data = json.loads(session.to_json())
    assert "start" not in data
    loaded = Session.from_json(json.dumps(data))
    assert loaded.start is None and loaded.state.history() == session.state.history()


def test_a_game_without_positions_says_so():
    from bus_lab.games.ride_the_bus.game import RideTheBusGame

    class NoPositions(RideTheBusGame):
        POSITIONS = None

    game = NoPositions()
    with pytest.raises(NotImplementedError, match="has no positions"):
        game.state_from_position({})
    with pytest.raises(NotImplementedError, match="has no positions"):
        game.new_initial_state().position()


@pytest.mark.parametrize("name", GAMES_WITH_POSITIONS)
def test_games_played_from_positions_keep_the_engine_contract(name):
    """The checks of ``test_contract.py`` on whole games played on from a few positions (the
    README's example and some taken from a seeded game): typed moves and their labels, labels that
    parse back, phases that say who acts, pickling, and records that replay."""
    game = bus_lab.load_game(name, players=2)
    examples = {"bus_and_stop": EXAMPLE, "busstop": None, "bus_city": BUS_EXAMPLE, "ride_the_bus": None}
    found, _ = _walk_positions(game, 7)
    positions = [pos for _s, pos in found[:: max(1, len(found) // 3)]]
    if examples[name] is not None:
        positions.append(examples[name])
    table = type(game.new_initial_state()).PHASES
    for k, pos in enumerate(positions):
        state = game.state_from_position(pos)
        rng = random.Random(k)
        while not state.is_terminal():
            moves = state.legal_moves()
            assert [m.action for m in moves] == state.legal_actions()
            for move in moves:
                assert str(move) == state.action_to_string(move.action)
                assert state.string_to_action(str(move)) == move.action
            phase = state.phase()
            actor = table[phase].actor.value
            assert (actor == "chance") == state.is_chance_node()
            assert state.decision_kind() == (phase if actor == "seat" else None)
            state.apply_action(_next(state, rng))
        assert state.phase() is None and state.decision_kind() is None
        again = game.state_from_dict(pickle.loads(pickle.dumps(state.to_dict())))
        assert_same_play(again, state)
        assert again.returns() == state.returns()


# -- Bus & Stop ------------------------------------------------------------------------------------
#: Seat 0's drop-off at the last school card leaves seat 1 unhappy (the README's example).
UNHAPPY_NEXT = EXAMPLE


def _bas():
    return bus_lab.load_game("bus_and_stop", players=2)


def test_bus_and_stop_a_drop_off_that_leaves_the_next_seat_unhappy():
    state = _bas().state_from_position(UNHAPPY_NEXT)
    assert state.current_player() == 0
    assert state.view(None)["deck"] == 75 - 5 - 2 - 8 - 10 - 10  # every card of the 75 not on the table
    state.apply_action(state.string_to_action("drop 2 at school"))  # its two students get off
    assert state.current_player() == 1 and state.phase().value == "skedaddle"
    state.apply_action(state.string_to_action("skedaddle yellow student"))
    # one seat free, but every colour at the stop brings two or more: nothing fits, no drop-off
    assert state.current_player() == 1 and state.phase().value == "unhappy"
    assert state.status().endswith("discard at least one passenger as unhappy.")
    # five claims of 2 passengers on lower cards, 1 point each (tennis 1/5/12, 1/4/11; multicoloured
    # 1/4/8/13; school 1/3/6/10, 1/2/5/9), and 1 for the skedaddled student
    assert state.returns()[1] == 5 * 1 + 1


def _bas_error(change, match):
    pos = copy.deepcopy(UNHAPPY_NEXT)
    change(pos)
    with pytest.raises(PositionError, match=match):
        _bas().state_from_position(pos)


def test_bus_and_stop_missing_key_says_what_it_should_be():
    _bas_error(lambda p: p.pop("seat"), r"field seat: is missing \(it should be a whole number from 0 to 1\)")
    _bas_error(
        lambda p: p["seats"][1].pop("bus"), r"field seats\[1\]\.bus: is missing \(it should be a list\)"
    )


def test_bus_and_stop_wrong_types_and_unknown_names():
    _bas_error(lambda p: p.update(seat="0"), r"field seat: must be a whole number from 0 to 1, not '0'")
    _bas_error(lambda p: p.update(seat=2), r"field seat: must be a whole number from 0 to 1, not 2")
    _bas_error(lambda p: p.update(turns=1.0), r"field turns: must be a whole number")
    _bas_error(
        lambda p: p["stop"].__setitem__(4, "XX"),
        r"field stop\[4\]: must be a passenger code such as .YB., not .XX.",
    )
    _bas_error(lambda p: p["stop"].append("GE"), r"field stop: must be a list of at most 5 entries")
    _bas_error(lambda p: p["stacks"].update(zoo=1), r"field stacks\.zoo: is not a field of the stacks")
    _bas_error(lambda p: p.update(phase="choose"), r"field phase: must be one of 'turn', 'unhappy'")
    with pytest.raises(PositionError, match="a position is a dict, not list"):
        _bas().state_from_position([])


def test_bus_and_stop_impossible_tables():
    _bas_error(
        lambda p: p["seats"][0]["bus"].extend(["YB"] * 9),
        r"field seats\[0\]\.bus: 11 passengers, but a bus has 10 seats",
    )
    _bas_error(
        lambda p: p["seats"][0]["bus"].append("YS"),
        r"4 YS cards \(yellow student\) are on the table, but the game has only 3 \(a card twice\?\)",
    )
    _bas_error(
        lambda p: p["seats"][0]["bus"].append("YE"),
        r"field seats\[0\]\.bus: YE is a senior: seniors sit beside the bus",
    )
    _bas_error(
        lambda p: p["seats"][1]["claimed"][4].update(card=1),
        r"field seats\[1\]\.claimed\[4\]\.card: school card 1 is claimed twice \(also seats\[1\]\.claimed\[3\]\)",
    )
    _bas_error(
        lambda p: p["stacks"].update(school=2),
        r"field stacks\.school: 2 cards left, so its top 2 were claimed \(cards 0 to 1\), but the seats "
        r"claimed \[0, 1, 2\]",
    )
    _bas_error(
        lambda p: p["seats"][0]["claimed"][0].update(count=3),
        r"tennis court card 0 \(2/4/6 → 2/7/14\) accepts 2/4/6 passengers, not 3",
    )
    _bas_error(lambda p: p["stop"].pop(), r"field stop: 4 passengers, but the stop is refilled to 5")
    _bas_error(lambda p: p.update(phase="unhappy"), r"field phase: seat 0 can pick up or drop off")
    _bas_error(
        lambda p: p.update(trigger={"seat": 1, "reason": "x"}),
        r"field trigger: in regular play the end is not triggered yet",
    )
    _bas_error(
        lambda p: p.update(stage="final"), r"field trigger: the final round needs who triggered the end"
    )
    _bas_error(lambda p: p.update(deck={"YB": 1}), r"field deck: the deck holds what is not on the table")


def test_bus_and_stop_position_is_taken_at_the_start_of_a_turn_only():
    state = _bas().state_from_position(UNHAPPY_NEXT)
    state.apply_action(state.string_to_action("drop 2 at school"))
    with pytest.raises(PositionError, match=r"taken at a decision that starts a turn .* phase 'skedaddle'"):
        state.position()
    with pytest.raises(PositionError, match="the game is at phase 'deal'"):
        _bas().new_initial_state().position()


def test_bus_and_stop_illegal_move_from_a_position_is_refused_as_usual():
    state = _bas().state_from_position(UNHAPPY_NEXT)
    with pytest.raises(IllegalActionError, match="fewer than 4"):
        state.apply_action(state.string_to_action("drop 4 at office"))


# -- Busstop ---------------------------------------------------------------------------------------
def _bsb():
    return bus_lab.load_game("busstop", players=3)


def test_busstop_a_queue_of_nine_costs_points_and_opened_the_third_bus():
    state = _bsb().state_from_position(BUSSTOP_EXAMPLE)
    assert state.returns() == [-2 * 9, 2 * 1 + 1 + 1, 4 * 1 + 0]  # queue −2 each; pile 1 each, ET 0
    assert state.is_chance_node() and state.phase().value == "lineup"
    # 9 drawn passengers and 9 tiles on the boards: the stack is the 50 less 3 rounds of 3
    assert sum(p for _a, p in state.chance_outcomes()) == 1
    assert state.view(None)["stack"]["left"] == 50 - 9
    assert state.view(None)["boards"][0]["buses"][2]["open"] is True
    session = Session(_bsb(), seed=1, bots="random", start=BUSSTOP_EXAMPLE)
    while not (session.state.phase().value == "board" and session.state.acting_participant() == 0):
        assert session.step() is not None
    # the head of the queue, a girl, may board any empty open bus, the third one too
    assert session.state.view(None)["boards"][0]["queue"][0] == "Gi"
    assert "head to bus 3" in [str(m) for m in session.state.legal_moves()]


def _bsb_error(change, match):
    pos = copy.deepcopy(BUSSTOP_EXAMPLE)
    change(pos)
    with pytest.raises(PositionError, match=match):
        _bsb().state_from_position(pos)


def test_busstop_missing_keys_and_wrong_types():
    _bsb_error(
        lambda p: p.pop("round"),
        r"Busstop position, field round: is missing \(it should be a whole number from 1 to 10\)",
    )
    _bsb_error(
        lambda p: p["boards"][1].pop("hand"), r"field boards\[1\]\.hand: is missing \(it should be a list\)"
    )
    _bsb_error(lambda p: p.update(conductor=3), r"field conductor: must be a whole number from 0 to 2, not 3")
    _bsb_error(
        lambda p: p["boards"][0].update(extra_bus="yes"),
        r"field boards\[0\]\.extra_bus: must be true or false",
    )
    _bsb_error(
        lambda p: p["boards"][0]["queue"].__setitem__(0, "Girl"),
        r"field boards\[0\]\.queue\[0\]: must be a passenger code",
    )
    _bsb_error(lambda p: p["boards"].pop(), r"field boards: must be a list of exactly 3 entries")


def test_busstop_impossible_tables():
    _bsb_error(
        lambda p: p["boards"][2]["pile"].append("1/2"),
        r"field boards\[2\]\.pile\[5\]: tile '1/2' is on the table twice \(also at boards\[0\]\.queue\[6\]\)",
    )
    _bsb_error(
        lambda p: p["boards"][0]["hand"].__setitem__(0, 1),
        r"field boards\[0\]\.hand: tile 1 is in the hand and played \(at boards\[1\]\.pile\[0\]\)",
    )
    _bsb_error(
        lambda p: p["boards"][0]["hand"].pop(),
        r"field boards\[0\]\.hand: 6 tiles, but at the start of round 4 every participant holds 7",
    )
    _bsb_error(
        lambda p: p["boards"][1]["pile"].append("5/1"), r"tile '5/1' has owner 5, but participants are 0 to 2"
    )
    _bsb_error(
        lambda p: p["boards"][1]["pile"].extend(["VGi", "VGi"]),
        r"2 VGi passengers are on the boards, but the stack has only 1",
    )
    _bsb_error(
        lambda p: p["boards"][1]["pile"].append("Ba"),
        r"10 drawn passengers are on the boards, but by the start of round 4 9 were turned up",
    )
    _bsb_error(
        lambda p: p["boards"][0].update(extra_bus=False),
        r"field boards\[0\]\.extra_bus: a queue of 9 opened the third bus",
    )
    _bsb_error(
        lambda p: p["boards"][0]["queue"].__setitem__(2, "ET"),
        r"field boards\[0\]\.queue: an ET never queues",
    )

    def full_bus(p):
        p["boards"][1]["buses"][0] = ["Ba", "Ba", "Ba"]
        p["boards"][0]["queue"][3:6] = []

    _bsb_error(
        full_bus,
        r"field boards\[1\]\.buses\[0\]: 3 passengers, but bus 1 leaves as soon as its 3 seats are full",
    )

    def two_sorts(p):
        p["boards"][1]["buses"][1] = ["Ba", "ET", "Ch"]
        p["boards"][0]["queue"][3:5] = []
        p["boards"][2]["pile"].remove("ET")

    _bsb_error(two_sorts, r"field boards\[1\]\.buses\[1\]: babies and children: a bus carries one sort")
    _bsb_error(
        lambda p: p["boards"][1]["penalty"].append("Gr"),
        r"penalty tiles come from a proxy bus, which only 2 players have",
    )
    _bsb_error(
        lambda p: p.update(stack={"Ba": 41}),
        r"field stack\.Ba: 41 left and 2 on the boards, but the stack has only 8",
    )
    _bsb_error(lambda p: p.update(proxy_player=1), r"field proxy_player: must be None in round 4")


def test_busstop_position_is_taken_at_the_start_of_a_round_only():
    state = _bsb().state_from_position(BUSSTOP_EXAMPLE)
    state.apply_action(state.string_to_action("Gi"))
    with pytest.raises(PositionError, match=r"taken at the start of a round, .*phase 'lineup' of round 4"):
        state.position()


# -- BUS -------------------------------------------------------------------------------------------
def _bus():
    return bus_lab.load_game("bus_city")


def test_bus_city_a_grid_with_buses_placed_and_a_card_one_step_from_complete():
    state = _bus().state_from_position(BUS_EXAMPLE)
    assert state.current_player() == 0 and state.speed_limit == 5  # red-pink's speed (BUS-SPEED)
    assert state.returns() == [5, 0]  # blue-pink complete: its value
    assert state.view(None)["deck"] == 15 - 2 - 1 - 1 - 1  # the cards on the table are not in it
    state.apply_action(state.string_to_action("b1-c1 E drop pink"))
    assert state.returns() == [5 + 1, 0]  # red-pink complete: its value, 1 (BUS-PROGRESS)
    assert state.current_player() == 1 and state.phase().value == "move"
    assert state.position()["seats"][0]["complete"] == ["blue-pink", "red-pink"]
    assert state.position()["route"] == ["a1-b1 E", "b1-c1 E"]


def _bus_error(change, match):
    pos = copy.deepcopy(BUS_EXAMPLE)
    change(pos)
    with pytest.raises(PositionError, match=match):
        _bus().state_from_position(pos)


def test_bus_city_missing_keys_and_wrong_types():
    _bus_error(
        lambda p: p["grid"].pop("b2-b3"),
        r"BUS position, field grid\['b2-b3'\]: is missing \(it should be an object\)",
    )
    _bus_error(
        lambda p: p.pop("end_trigger"),
        r"field end_trigger: is missing \(it should be null or a seat from 0 to 1\)",
    )
    _bus_error(lambda p: p.update(seat=2), r"field seat: must be a whole number from 0 to 1, not 2")
    _bus_error(
        lambda p: p["seats"][1].update(bus="a3-b3"),
        r"field seats\[1\]\.bus: must be a node label such as 'a3-b3 E', not 'a3-b3'",
    )
    _bus_error(
        lambda p: p["faceup"].__setitem__(0, "red-red"),
        r"field faceup\[0\]: must be a passenger card id such as 'red-pink'",
    )
    _bus_error(
        lambda p: p["seats"][0].update(site_used=0),
        r"field seats\[0\]\.site_used: must be true or false, not 0",
    )


def test_bus_city_impossible_tables():
    _bus_error(
        lambda p: p["grid"]["b3-c3"].update(card="plain1"),
        r"field grid\['b3-c3'\]\.card: street card 'plain1' is laid twice \(also on b1-b2\)",
    )
    _bus_error(
        lambda p: p["grid"]["a1-a2"].update(side="N"),
        r"field grid\['a1-a2'\]\.side: a1-a2 runs north–south: its sides are W and E, not N",
    )
    _bus_error(
        lambda p: p["seats"][1]["complete"].append("red-pink"),
        r"field seats\[1\]\.complete\[0\]: passenger card 'red-pink' is on the table twice \(also at seats\[0\]\.held\[0\]\.card\)",
    )
    _bus_error(
        lambda p: p["seats"][0]["held"][0].update(dropped=["blue"]),
        r"field seats\[0\]\.held\[0\]\.dropped: red-pink carries red and pink passengers, not blue",
    )
    _bus_error(
        lambda p: p["seats"][0]["held"].extend(
            {"card": c, "dropped": []} for c in ("red-green", "red-orange", "blue-red")
        ),
        r"field seats\[0\]\.held: must be a list of at most 3 entries",
    )
    _bus_error(
        lambda p: p["faceup"].pop(), r"field faceup: 1 card, but 2 are face up while the deck has cards"
    )
    _bus_error(
        lambda p: p["seats"][1]["complete"].extend(
            ["red-green", "red-orange", "blue-red", "blue-yellow", "green-pink"]
        ),
        r"field end_trigger: seat 1 has 5 cards complete: the end was triggered",
    )
    _bus_error(
        lambda p: p.update(end_trigger=0),
        r"field end_trigger: seat 0 has 1 card complete: the end is triggered with 5",
    )
    _bus_error(lambda p: p.update(deck=[]), r"field deck: the deck holds the cards not on the table")


def test_bus_city_position_is_taken_at_the_start_of_a_turn_only():
    state = _bus().state_from_position(BUS_EXAMPLE)
    state.apply_action(state.string_to_action("a2-b2 W"))  # ends on stop2: a pick-up follows
    with pytest.raises(
        PositionError, match=r"taken at the start of a turn \(phase 'move'\): the game is at phase 'pickup'"
    ):
        state.position()


def test_a_scripted_deck_fixes_what_is_drawn_after_a_position():
    """A position does not order the unseen cards (none of these games has an ordered deck); a
    session's scripted deck fixes what comes up after it, and is checked against what is left."""
    session = Session(_bsb(), seed=3, start=BUSSTOP_EXAMPLE, deck=["VGi", "ET", "Ba"])
    for _ in range(3):
        session.step()
    assert session.state.view(None)["lineup"] == ["VGi", "ET", "Ba"]
    assert session.state.history() == [7, 10, 0]  # VGi, ET and Ba are kinds 7, 10 and 0
    twice = Session(_bsb(), seed=3, start=BUSSTOP_EXAMPLE, deck=["VGi", "VGi"])
    twice.step()
    with pytest.raises(ValueError, match=r"scripted outcome #1 'VGi' cannot come up now"):
        twice.step()
    # the ET in seat 2's pile is not in the stack: 4 of the 5 ETs among the 50 − 9 passengers left
    state = _bsb().state_from_position(BUSSTOP_EXAMPLE)
    assert dict(state.chance_outcomes())[10] == Fraction(5 - 1, 50 - 9)


# -- the README ------------------------------------------------------------------------------------
def test_readme_setting_up_a_position_examples_run():
    """The README's "Setting up a position" section: its Python blocks run as written."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Setting up a position", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 1
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
