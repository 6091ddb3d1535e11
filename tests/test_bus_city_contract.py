"""BUS (the city grid game) and the engine contract: typed moves, phases, notation, views, narration,
seat checks and sessions that pickle with their bots.

Expected values come from the rules and the grid picture of ``test_bus_city_rules.py``.
"""

from __future__ import annotations

import pickle
import random
import types
import typing

import pytest
from test_bus_city_rules import chance, do, events, give_hand, new_state, put_bus, started
from test_invariants import CONFIGS

import bus_lab
from bus_lab import IllegalActionError, InputTypeError, ParameterError
from bus_lab.engine import Actor
from bus_lab.engine.policies import sample_chance
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city import moves as M
from bus_lab.games.bus_city.narrate import NARRATORS
from bus_lab.games.bus_city.phases import PHASES, BusCityPhase
from bus_lab.games.bus_city.views import BusCityView

BUS_CONFIGS = [params for name, params in CONFIGS if name == "bus_city"]


def slot(name: str) -> int:
    return G.SLOT_INDEX[name]


def walk(params: dict, seed: int, policy: str = "random"):
    """Every state of one seeded game (bots ``policy`` at every seat), the initial one included."""
    game = bus_lab.load_game("bus_city", **params)
    bot = game.policies()[policy]
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance_node() else bot(state, rng)
        state.apply_action(action)
        yield state


# -- typed moves ----------------------------------------------------------------------------------
def test_moves_encode_and_decode_every_int_of_the_game():
    """Each move's .action decodes back to an equal move; ints outside the moves decode to None."""
    streets, passengers, colours = 12, 15, 6
    seen = 0
    for action in range(-3, M.MOVE_BASE + G.NUM_NODES * M.MASK_SPAN + 3):
        move = M.decode(action, streets, passengers, colours)
        if move is None:
            continue
        seen += 1
        assert move.action == action
        assert M.decode(move.action, streets, passengers, colours) == move
    # 24 street outcomes, 15 passenger draws, draw blind, pass, 15 takes, 24 starts, 12 turns,
    # 66 pairs x 4 sides of swaps, 24 nodes x 64 drop masks of drives
    assert seen == 24 + 15 + 2 + 15 + 24 + 12 + 66 * 4 + 24 * 64


def test_moves_name_the_game_fields():
    """The fields of each kind of move say what it does, in the game's words."""
    assert M.StreetCardDrawn(card=3, side=1).action == 7
    assert M.PassengerCardDrawn(card=2).action == M.PASSENGER_BASE + 2
    assert M.TakeCard(card=4).action == M.TAKE_BASE + 4
    assert M.PlaceBus(slot=slot("b2-c2"), heading=1).node == G.node(slot("b2-c2"), 1)
    assert M.TurnCard(slot=5).action == M.ROTATE_BASE + 5
    swap = M.SwapCards(first=1, second=3, first_side=1, second_side=0)
    assert swap.action == M.SWAP_BASE + (1 * 12 + 3) * 4 + 2
    drive = M.Drive(slot=slot("b1-b2"), heading=0, drop_mask=0b101)
    assert drive.action == M.MOVE_BASE + G.node(slot("b1-b2"), 0) * M.MASK_SPAN + 5
    assert M.decode(M.SWAP_BASE + (3 * 12 + 1) * 4, 12, 15, 6) is None  # slots out of grid order
    assert M.decode(M.drive_action(0, 64), 12, 15, 6) is None  # a seventh colour on a six-colour sheet
    assert M.Drive(0, 0, 1, route=(1, 2)) == M.Drive(0, 0, 1)  # the route is not compared


def test_legal_moves_of_a_move_decision_carry_drops_and_routes():
    """BUS-MOVE, BUS-DROPOFF: a drive names its end, heading and drop-offs, with a route entering
    every card from the bus's node and dropping off exactly those colours."""
    state = started()
    give_hand(state, 0, held=[("red-pink", [])])  # seat 0 at a1-b1 E, speed 2 from red-pink
    moves = state.legal_moves()
    assert all(isinstance(m, M.Drive) for m in moves)
    by_label = {str(m): m for m in moves}
    drop = by_label["b1-c1 E drop red"]
    assert (drop.slot, drop.heading, drop.drops) == (slot("b1-c1"), 0, ("red",))
    assert drop.route == (G.node(slot("b1-c1"), 0),)
    plain = by_label["b1-b2 S"]
    assert plain.drops == () and plain.drop_mask == 0 and len(plain.route) == 1


def test_moves_of_each_decision_kind():
    """BUS-START, BUS-PICKUP, BUS-ONE-ACTION, BUS-CONSTRUCTION, BUS-CH-ROTATE: the typed moves offered."""
    state = new_state()
    places = state.legal_moves()
    assert {type(m) for m in places} == {M.PlaceBus}
    assert {state.sheet.streets[state.slots[m.slot][0]].symbol for m in places} == {"stop"}
    do(state, "start a1-b1 E")
    picks = state.legal_moves()
    assert [type(m) for m in picks] == [M.DrawBlind, M.TakeCard, M.TakeCard]
    assert sorted(state.sheet.passengers[m.card].id for m in picks[1:]) == ["red-pink", "yellow-green"]
    state = started(challenging=True)
    put_bus(state, 0, "b2-b3 N")
    do(state, "b1-b2 N")  # heading N the right-hand side is E: the site is usable
    assert state.decision_kind() is BusCityPhase.CONSTRUCTION
    kinds = {type(m) for m in state.legal_moves()}
    assert kinds == {M.Pass, M.SwapCards, M.TurnCard}
    busy = {slot("b1-b2"), slot("a3-b3")}  # seat 0 now on b1-b2, seat 1 on a3-b3
    turns = {m.slot for m in state.legal_moves() if isinstance(m, M.TurnCard)}
    assert turns == set(range(12)) - busy


def test_chance_moves_are_typed_outcomes():
    state = bus_lab.load_game("bus_city").new_initial_state()
    outcomes = state.legal_moves()
    assert len(outcomes) == 24 and {type(m) for m in outcomes} == {M.StreetCardDrawn}
    assert {(m.card, m.side) for m in outcomes} == {(c, s) for c in range(12) for s in (0, 1)}
    for label in ["stop1/S", "red/N", "blue/E", "site/E", "green/W", "yellow/N"]:
        chance(state, label)
    for label in ["stop2/S", "plain1/W", "pink/W", "orange/E", "stop3/N", "plain2/S"]:
        chance(state, label)
    drawn = state.legal_moves()
    assert {type(m) for m in drawn} == {M.PassengerCardDrawn} and len(drawn) == 15


# -- phases ---------------------------------------------------------------------------------------
def test_phase_table_names_every_phase_and_its_handler():
    state = bus_lab.load_game("bus_city").new_initial_state()
    assert set(PHASES) == set(BusCityPhase)
    for phase, rule in PHASES.items():
        assert callable(getattr(state, rule.handler)) and rule.rule.startswith("BUS-")
        chance_phase = phase in (BusCityPhase.STREET, BusCityPhase.FACEUP, BusCityPhase.DRAW)
        assert (rule.actor is Actor.CHANCE) == chance_phase
    assert BusCityPhase.MOVE == "move" and str(BusCityPhase.START_PICK) == "start_pick"


def test_phases_follow_the_game():
    """BUS-SETUP, BUS-START, BUS-TURN: street cards, face-up cards, then place and pick, then moves."""
    state = bus_lab.load_game("bus_city").new_initial_state()
    assert state.phase() is BusCityPhase.STREET and state.decision_kind() is None
    state = new_state()
    assert state.phase() is BusCityPhase.PLACE and state.decision_kind() is BusCityPhase.PLACE
    assert state.stage == "start"
    do(state, "start a1-b1 E")
    assert state.phase() is BusCityPhase.START_PICK
    do(state, "draw blind")
    assert state.phase() is BusCityPhase.DRAW and state.decision_kind() is None
    chance(state, "green-blue")
    assert state.phase() is BusCityPhase.PLACE and state.current_player() == 1
    do(state, "start a3-b3 W")
    do(state, "take red-pink")
    assert state.phase() is BusCityPhase.FACEUP  # the face-up card taken is replaced
    chance(state, "orange-pink")
    assert state.phase() is BusCityPhase.MOVE and state.stage == "turns"


# -- notation -------------------------------------------------------------------------------------
def test_labels_are_read_in_any_case_and_drop_offs_in_any_order():
    state = started()
    give_hand(state, 0, held=[("red-pink", [])])
    assert state.string_to_action("B1-C1 e DROP Red") == state.string_to_action("b1-c1 E drop red")
    state = started()
    give_hand(state, 0, held=[("red-pink", []), ("yellow-green", [])], complete=())
    state.speed_limit = None
    state._invalidate()
    several = [label for label in map(state.action_to_string, state.legal_actions()) if "+" in label]
    assert several
    for label in several:
        head, colours = label.split(" drop ")
        backwards = "+".join(reversed(colours.split("+")))
        assert state.string_to_action(f"{head} drop {backwards}") == state.string_to_action(label)


def test_every_label_of_the_game_parses_legal_or_not():
    """A label names its move at any time: an illegal one is refused with the rule's reason."""
    state = started()  # seat 0 moves from a1-b1 E
    for label, reason in [
        ("take green-blue", "picked up only after a move that ends on a bus stop"),
        ("draw blind", "picked up only after a move"),
        ("swap a1-b1 b2-c2", "construction site is used only after a move that ends on it"),
        ("turn a1-b1", "construction site is used only after"),
        ("start a1-b1 E", "must move the bus now"),
        ("pass", "must move the bus now"),
        ("red-pink", "must move the bus now"),
        ("stop1/S", "must move the bus now"),
        ("a1-b1 W", "may pass its starting card a1-b1 but may not end its move there"),
        ("b1-c1 E drop pink", "drops off exactly pink"),
    ]:
        with pytest.raises(IllegalActionError) as caught:
            state.string_to_action(label)
        assert reason in caught.value.reason, (label, caught.value.reason)
    with pytest.raises(IllegalActionError, match="no move has that name"):
        state.string_to_action("drive somewhere")


def test_chance_labels_parse_at_the_draw():
    """BUS-SETUP: a street card already laid is refused; the side letters follow the slot."""
    state = bus_lab.load_game("bus_city").new_initial_state()
    chance(state, "stop1/S")  # a1-b1
    chance(state, "RED/n")  # b1-c1, any case
    assert state.slots[slot("b1-c1")] == [state.sheet.street_by_id("red").index, 0]
    with pytest.raises(IllegalActionError, match="already on the grid"):
        state.string_to_action("stop1/W")
    assert state.string_to_action("blue/E") == M.street_action(state.sheet.street_by_id("blue").index, 1)


# -- views ----------------------------------------------------------------------------------------
def _check(value, hint, where: str) -> None:
    """``value`` has exactly the type ``hint`` (TypedDicts key by key, lists item by item)."""
    origin = typing.get_origin(hint)
    if typing.is_typeddict(hint):
        assert isinstance(value, dict), where
        hints = typing.get_type_hints(hint)
        assert set(value) == set(hints), (where, set(value) ^ set(hints))
        for key, sub in hints.items():
            _check(value[key], sub, f"{where}.{key}")
    elif origin in (typing.Union, types.UnionType):
        errors = []
        for option in typing.get_args(hint):
            try:
                _check(value, option, where)
                return
            except AssertionError as err:
                errors.append(err)
        raise AssertionError((where, value, hint, errors))
    elif origin is list:
        assert type(value) is list, where
        (item,) = typing.get_args(hint)
        for i, v in enumerate(value):
            _check(v, item, f"{where}[{i}]")
    elif hint is type(None):
        assert value is None, where
    else:
        assert type(value) is hint, (where, value, hint)  # bool is not int here


@pytest.mark.parametrize("params", BUS_CONFIGS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
def test_view_matches_its_typed_dict_for_every_seat_and_phase(params):
    phases = set()
    for seed, policy in ((0, "random"), (1, "greedy")):
        for state in walk(params, seed, policy):
            phases.add(state.phase())
            for seat in [None, *range(state.num_players)]:
                view = state.view(seat)
                _check(view, BusCityView, "view")
                assert view["viewer"] == seat
    assert {BusCityPhase.STREET, BusCityPhase.FACEUP, BusCityPhase.PLACE, BusCityPhase.MOVE, None} <= phases


def test_view_fields_follow_the_rules():
    """BUS-START, BUS-SPEED, BUS-PROGRESS, BUS-MOVE: what the view says about seats, cards and moves."""
    state = started()  # seat 0 took red-pink (speed 2), seat 1 yellow-green
    view = state.view(1)
    assert view["phase"] == "turns" and view["node"] == "move" and view["turn"] == 0
    assert view["to_move"] == 0 and view["round"] == 1 and view["deck"] == len(state.deck)
    red_pink = state.sheet.passenger_by_id("red-pink")
    seat0 = view["seats"][0]
    assert seat0["bus"] == {"slot": "a1-b1", "heading": "E", "site_used": False}
    assert [c["id"] for c in seat0["picked_up"]] == ["red-pink"] and seat0["half"] == []
    assert seat0["picked_up"][0] == {
        "id": "red-pink",
        "colours": ["red", "pink"],
        "value": red_pink.value,
        "speed": red_pink.speed,
        "dropped": [],
    }
    assert sorted(seat0["waiting"]) == ["pink", "red"]
    assert view["speed_limit"] == red_pink.speed == seat0["speed_limit_next"]
    assert (seat0["side"], seat0["picked_up_slot"], seat0["dropped_off_slot"]) == ("south", "a3-b3", "b3-c3")
    assert view["seats"][1]["side"] == "north"
    assert view["grid"][slot("a1-b1")]["buses"] == [0] and view["grid"][slot("a3-b3")]["buses"] == [1]
    assert view["grid"][slot("b1-c1")] == {
        "slot": "b1-c1",
        "kind": "h",
        "a": [0, 1],
        "b": [0, 2],
        "card": "red",
        "symbol": "destination",
        "colour": "red",
        "side": "N",
        "buses": [],
    }
    do(state, "b1-c1 E drop red")
    view = state.view(None)
    assert view["route"] == ["a1-b1 E", "b1-c1 E"]
    half = view["seats"][0]["half"]
    assert [(c["id"], c["dropped"]) for c in half] == [("red-pink", ["red"])]
    assert view["seats"][0]["waiting"] == ["pink"]
    assert view["end"] == {"trigger": None, "final_turns": [], "at": 5}
    assert view["options"]["challenging"] is False and view["winners"] == []


def test_reachable_slots_are_the_ends_of_the_legal_drives():
    state = started()
    view = state.view()
    ends = sorted({G.SLOTS[m.slot].name for m in state.legal_moves()})
    assert view["reachable"] == ends and "a1-b1" not in ends


# -- seat checks ----------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["0", True, 1.0, [0]])
def test_view_and_score_breakdown_check_the_seat(bad):
    state = started()
    with pytest.raises(InputTypeError, match="seat"):
        state.view(bad)
    with pytest.raises(InputTypeError, match="seat"):
        state.score_breakdown(bad)
    with pytest.raises(ParameterError, match="no seat 2"):
        state.view(2)
    with pytest.raises(ParameterError, match="no seat -1"):
        state.score_breakdown(-1)
    with pytest.raises(InputTypeError):
        state.score_breakdown(None)
    assert state.score_breakdown(1) == []


# -- narration ------------------------------------------------------------------------------------
def test_every_rule_of_an_event_has_a_narrator():
    seen = set()
    for params in ({"players": 3, "challenging": True}, {"players": 2, "max_rounds": 2}):
        state = next(s for s in walk(params, 3) if s.is_terminal())
        for event in state.events():
            seen.add(event.rule)
            assert event.text and event.rule in NARRATORS
    assert {"BUS-MOVE", "BUS-SETUP", "BUS-WIN", "BUS-SCORE"} <= seen


def test_event_data_carries_the_facts_of_the_sentence():
    """BUS-START, BUS-SPEED, BUS-MOVE, BUS-DROPOFF: the data says what the sentence says."""
    state = new_state()
    do(state, "start a1-b1 E")
    place = events(state, "BUS-START")[-1]
    assert place.data == {"what": "place", "seat": 0, "slot": "a1-b1", "heading": "E", "sharing": []}
    assert place.text == "Seat 0 places the bus on the bus stop a1-b1, heading E."
    do(state, "take red-pink")
    take = events(state, "BUS-START")[-1]
    red_pink = state.sheet.passenger_by_id("red-pink")
    assert take.data["card"] == "red-pink" and take.data["blind"] is False
    assert take.data["colours"] == ["red", "pink"] and take.data["in_progress"] == 1
    assert (take.data["value"], take.data["speed"]) == (red_pink.value, red_pink.speed)
    chance(state, "green-blue")
    do(state, "start a1-b1 W")
    shared = events(state, "BUS-START")[-1]
    assert shared.data["sharing"] == [0] and shared.text.endswith("(sharing it with Seat 0).")
    do(state, "take yellow-green")
    chance(state, "orange-pink")
    speed = events(state, "BUS-SPEED")[-1]
    assert speed.data == {"seat": 0, "limit": red_pink.speed, "speeds": [red_pink.speed]}
    mark = len(state.events())
    do(state, "b1-c1 E drop red")
    move = events(state, "BUS-MOVE", mark)[0]
    assert move.data == {
        "seat": 0,
        "route": ["b1-c1 E"],
        "start": "a1-b1 E",
        "limit": red_pink.speed,
    }
    assert move.text == f"Seat 0 drives 1 step (limit {red_pink.speed}) from a1-b1 E: b1-c1 E."


def test_blind_draw_event_and_start_pick_reason():
    """BUS-START: a player must take a card at the start; a blind draw is recorded as blind."""
    state = new_state()
    do(state, "start a1-b1 E")
    with pytest.raises(IllegalActionError, match="every player must take a passenger card"):
        state.string_to_action("pass")
    do(state, "draw blind")
    chance(state, "green-blue")
    take = events(state, "BUS-START")[-1]
    assert take.data["blind"] is True and take.data["card"] == "green-blue"
    assert "draws blind from the deck: green-blue" in take.text


# -- sessions -------------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", sorted(bus_lab.load_game("bus_city").policies()))
def test_a_session_with_named_bots_pickles_and_plays_on_identically(bot):
    session = bus_lab.Session(bus_lab.load_game("bus_city"), seed=1, bots=bot)
    copy = pickle.loads(pickle.dumps(session))
    for _ in range(40):
        session.step()
    middle = pickle.loads(pickle.dumps(session))
    session.run_to_end()
    copy.run_to_end()
    middle.run_to_end()
    assert copy.state.history() == session.state.history() == middle.state.history()
    assert copy.state.returns() == session.state.returns()
    assert session.state.is_terminal()
