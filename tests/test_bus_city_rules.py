"""One or more unit tests per rule of BUS, the city grid game (rule IDs ``BUS-…``).

Every scenario lays a scripted grid (street cards by label, in slot order) and scripted passenger
cards, then plays labelled moves; to reach a position quickly a few scenarios also hand a seat
chosen cards (``give_hand``) or put its bus somewhere (``put_bus``). Expected values are worked out by hand from the picture below
and the rules, never read back from the engine. The grid used by most tests (symbol side in
brackets: N/S on a horizontal street, W/E on a vertical one)::

        a1 ──stop1(S)── b1 ──red(N)──── c1
        │               │               │
      blue(E)        site(E)        green(W)
        │               │               │
        a2 ──yellow(N)─ b2 ──stop2(S)── c2
        │               │               │
      plain1(W)      pink(W)       orange(E)
        │               │               │
        a3 ──stop3(N)── b3 ──plain2(S)─ c3

Moves are labelled "slot heading" (``"b1-c1 E"``), with " drop colour+colour" when the move
drops passengers off; a bus heading E on a horizontal street drives on its south half, so its
right-hand side is S (heading W: N; heading S: W; heading N: E).
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

import pytest

from bus_lab import IllegalActionError, ParameterError, Session
from bus_lab.games.bus_city import BusCityGame, ComponentSheetError, default_sheet_dict, load_sheet
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.policies import greedy_policy

LAYOUT = [
    "stop1/S",
    "red/N",
    "blue/E",
    "site/E",
    "green/W",
    "yellow/N",
    "stop2/S",
    "plain1/W",
    "pink/W",
    "orange/E",
    "stop3/N",
    "plain2/S",
]
SLOT_ORDER = [
    "a1-b1",
    "b1-c1",
    "a1-a2",
    "b1-b2",
    "c1-c2",
    "a2-b2",
    "b2-c2",
    "a2-a3",
    "b2-b3",
    "c2-c3",
    "a3-b3",
    "b3-c3",
]
COLOURS = ["red", "orange", "yellow", "green", "blue", "pink"]


# -- helpers --------------------------------------------------------------------------------
def new_state(players=2, layout=LAYOUT, faceup=("red-pink", "yellow-green"), **params):
    """A state right after setup: the scripted grid and the two face-up passenger cards."""
    state = BusCityGame(players=players, **params).new_initial_state()
    for label in list(layout) + list(faceup):
        chance(state, label)
    return state


def chance(state, label: str) -> None:
    assert state.is_chance_node(), state.status()
    state.apply_action(state.string_to_action(label))


def do(state, label: str) -> None:
    """Apply the decision labelled ``label``."""
    assert not state.is_chance_node() and not state.is_terminal(), state.status()
    state.apply_action(state.string_to_action(label))


def labels(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def move_labels(state) -> set[str]:
    return set(labels(state))


def ends(state) -> set[str]:
    """The "slot heading" ends of the legal moves, drops ignored."""
    return {" ".join(label.split()[:2]) for label in labels(state)}


def rules_since(state, start: int) -> list[str]:
    return [e.rule for e in state.events()[start:]]


def events(state, rule: str, start: int = 0):
    return [e for e in state.events()[start:] if e.rule == rule]


def started(
    players=2,
    places=("start a1-b1 E", "start a3-b3 W"),
    picks=("take red-pink", "take yellow-green"),
    refills=("green-blue", "orange-pink"),
    **params,
):
    """Setup, then each seat places its bus and takes a face-up card (refills scripted)."""
    state = new_state(players=players, **params)
    refills = list(refills)
    for seat in range(players):
        assert state.current_player() == seat and state.node == "place"
        do(state, places[seat])
        do(state, picks[seat])
        if picks[seat] == "draw blind":
            chance(state, refills.pop(0))
        elif state.is_chance_node():
            chance(state, refills.pop(0))
    assert state.node == "move" and state.current_player() == 0
    return state


def give_hand(state, seat: int, held=(), complete=()):
    """Doctor a scenario: ``seat`` holds ``held`` (``(card id, [colours already dropped])``) and
    has ``complete`` (card ids) complete; the cards leave the deck or face-up row. At a move
    decision of ``seat`` the speed limit is taken again, as at the start of that turn."""
    sheet = state.sheet
    bits = {c: 1 << i for i, c in enumerate(sheet.colours)}
    state.held[seat] = []
    state.complete[seat] = []
    for card_id, dropped in held:
        card = sheet.passenger_by_id(card_id).index
        state.deck.discard(card)
        if card in state.faceup:
            state.faceup.remove(card)
        mask = 0
        for colour in dropped:
            mask |= bits[colour]
        state.held[seat].append([card, mask])
    for card_id in complete:
        card = sheet.passenger_by_id(card_id).index
        state.deck.discard(card)
        if card in state.faceup:
            state.faceup.remove(card)
        state.complete[seat].append(card)
    if state.node == "move" and state.actor == seat:
        state.speed_limit = state.limit_for(seat)
    state._invalidate()


def put_bus(state, seat: int, where: str) -> None:
    """Doctor a scenario: move ``seat``'s bus to ``where`` ("slot heading"); at its move decision the
    move starts there."""
    state.buses[seat] = [k for k in range(G.NUM_NODES) if G.node_label(k) == where][0]
    if state.node == "move" and state.actor == seat:
        state.move_start = state.buses[seat]
    state._invalidate()


def play_turn(state, label: str | None = None) -> None:
    """Play one whole turn: the move ``label`` (default: the first legal move), then pass on any
    pick-up or construction it offers."""
    do(state, label or labels(state)[0])
    if state.node in ("pickup", "construction"):
        do(state, "pass")


# -- components and grid --------------------------------------------------------------------
def test_BUS_GRID_twelve_slots_between_nine_intersections():
    """BUS-GRID: 3 rows × 2 horizontal and 3 columns × 2 vertical streets; each side has 2."""
    assert [s.name for s in G.SLOTS] == SLOT_ORDER
    assert sum(s.kind == "h" for s in G.SLOTS) == 6 and sum(s.kind == "v" for s in G.SLOTS) == 6
    streets_at = {name: 0 for name in (c + r for c in "abc" for r in "123")}
    for s in G.SLOTS:
        for end in s.name.split("-"):
            streets_at[end] += 1
    # corners meet 2 streets, middles of the sides 3, the centre 4
    assert {k: v for k, v in streets_at.items()} == {
        "a1": 2,
        "c1": 2,
        "a3": 2,
        "c3": 2,
        "b1": 3,
        "a2": 3,
        "c2": 3,
        "b3": 3,
        "b2": 4,
    }
    sides = {side: set(pair) for side, pair in G.PROGRESS_SIDES}
    assert sides == {
        "south": {"a3-b3", "b3-c3"},
        "north": {"a1-b1", "b1-c1"},
        "west": {"a1-a2", "a2-a3"},
        "east": {"c1-c2", "c2-c3"},
    }


def test_BUS_GRID_every_card_can_reach_every_other():
    """BUS-GRID, BUS-MOVE: without U-turns the bus can still get from any slot and heading to any other."""
    for u in range(G.NUM_NODES):
        assert all(d >= 0 for d in G.DIST[u])
        assert all(G.ENTER[u][v] >= 1 for v in range(G.NUM_NODES))


def test_BUS_COMP_STREETS_default_sheet_symbols():
    """BUS-COMP-STREETS: 6 destinations (one per colour), 3 bus stops, 1 construction site, 2 plain."""
    sheet = load_sheet()
    symbols = [s.symbol for s in sheet.streets]
    assert len(sheet.streets) == 12
    assert symbols.count("destination") == 6 and symbols.count("stop") == 3
    assert symbols.count("site") == 1 and symbols.count("plain") == 2
    assert sorted(s.colour for s in sheet.streets if s.symbol == "destination") == sorted(COLOURS)


def test_BUS_COMP_PASSENGERS_default_sheet_cards():
    """BUS-COMP-PASSENGERS: 15 cards, one per colour pair, colours differ, speed = 6 - value, the
    values as listed in the catalogue (three cards per value)."""
    sheet = load_sheet()
    assert len(sheet.passengers) == 15
    pairs = {frozenset(p.colours) for p in sheet.passengers}
    assert pairs == {frozenset(pair) for pair in combinations(COLOURS, 2)}
    assert all(p.colours[0] != p.colours[1] and p.speed == 6 - p.value for p in sheet.passengers)
    by_value = {
        v: sorted(frozenset(p.colours) for p in sheet.passengers if p.value == v) for v in range(1, 6)
    }
    catalogue = {
        1: [("red", "pink"), ("orange", "blue"), ("yellow", "green")],
        2: [("orange", "pink"), ("yellow", "red"), ("green", "blue")],
        3: [("yellow", "pink"), ("green", "orange"), ("blue", "red")],
        4: [("green", "pink"), ("blue", "yellow"), ("red", "orange")],
        5: [("blue", "pink"), ("red", "green"), ("orange", "yellow")],
    }
    assert by_value == {v: sorted(frozenset(p) for p in pairs) for v, pairs in catalogue.items()}


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("passengers", 3, "value"), 0, "passengers[3].value"),
        (("passengers", 0, "speed"), "fast", "passengers[0].speed"),
        (("passengers", 2, "colours"), ["red", "red"], "passengers[2].colours"),
        (("passengers", 1, "colours"), ["red", "purple"], "passengers[1].colours[1]"),
        (("streets", 4, "symbol"), "tree", "streets[4].symbol"),
        (("streets", 0, "colour"), "mauve", "streets[0].colour"),
        (("streets", 7, "id"), "stop1", "streets[7].id"),
        (("passengers", 5, "id"), "red", "passengers[5].id"),
    ],
)
def test_BUS_COMP_PASSENGERS_bad_sheet_errors_name_the_field(path, value, field):
    """BUS-COMP-PASSENGERS, BUS-COMP-STREETS: a bad component sheet is refused with the field named."""
    data = default_sheet_dict()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(
        ComponentSheetError,
        match=r"component sheet, field " + field.replace("[", r"\[").replace("]", r"\]") + ":",
    ):
        BusCityGame(sheet=data)


def test_BUS_COMP_STREETS_sheet_needs_twelve_streets_and_a_bus_stop():
    """BUS-COMP-STREETS, BUS-GRID, BUS-START: 12 street cards, at least one a bus stop."""
    data = default_sheet_dict()
    data["streets"] = data["streets"][:11]
    with pytest.raises(ParameterError, match=r"field streets: must be exactly 12 street cards"):
        BusCityGame(sheet=data)
    data = default_sheet_dict()
    for s in data["streets"]:
        if s["symbol"] == "stop":
            s["symbol"] = "plain"
    with pytest.raises(ParameterError, match=r"bus stop"):
        BusCityGame(sheet=data)


def test_BUS_COMP_PASSENGERS_sheet_from_a_file_and_json_safe_params(tmp_path):
    """BUS-COMP-PASSENGERS: a replacement sheet from a path or a dict plays, and its game saves as JSON."""
    data = default_sheet_dict()
    data["title"] = "high values"
    for p in data["passengers"]:
        p["value"] += 4
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(data))
    for source in (path, str(path), data):
        game = BusCityGame(players=2, sheet=source)
        assert game.sheet.title == "high values"
        assert [p.value for p in game.sheet.passengers] == [p["value"] for p in data["passengers"]]
        session = Session(game, seed=4, bots="greedy")
        session.run_to_end()
        saved = json.loads(json.dumps(session.state.to_dict()))
        again = game.state_from_dict(saved)
        assert again.returns() == session.state.returns() and again.history() == session.state.history()
        # every complete card scores its (raised) value
        for seat in range(2):
            values = [data["passengers"][c]["value"] for c in session.state.complete[seat]]
            assert session.state.returns()[seat] == sum(values)
    with pytest.raises(ComponentSheetError, match="cannot read"):
        BusCityGame(sheet=str(tmp_path / "missing.json"))
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ComponentSheetError, match="not valid JSON"):
        BusCityGame(sheet=str(tmp_path / "bad.json"))


# -- setup -------------------------------------------------------------------------------------
def test_BUS_SETUP_streets_are_chance_nodes_with_random_orientation():
    """BUS-SETUP: each slot gets one of the street cards left, either way round, all equally likely;
    then two passenger cards are turned face up from the 15."""
    state = BusCityGame(players=2).new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 24 and all(p == Fraction(1, 24) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert "stop1/N" in labels(state) and "stop1/S" in labels(state)  # a1-b1 is horizontal
    chance(state, "stop1/S")
    assert len(state.chance_outcomes()) == 22 and state.chance_outcomes()[0][1] == Fraction(1, 22)
    chance(state, "red/N")
    assert "blue/W" in labels(state) and "blue/E" in labels(state)  # a1-a2 is vertical
    with pytest.raises(IllegalActionError, match="already on the grid"):
        state.apply_action(2 * load_sheet().street_by_id("stop1").index)  # stop1 is laid already
    for label in LAYOUT[2:]:
        chance(state, label)
    assert state.chance_outcomes()[0][1] == Fraction(1, 15)
    chance(state, "red-pink")
    assert len(state.chance_outcomes()) == 14 and state.chance_outcomes()[0][1] == Fraction(1, 14)
    chance(state, "yellow-green")
    view = state.view(None)
    assert [e["card"] for e in view["grid"]] == [label.split("/")[0] for label in LAYOUT]
    assert [e["side"] for e in view["grid"]] == [label.split("/")[1] for label in LAYOUT]
    assert [c["id"] for c in view["faceup"]] == ["red-pink", "yellow-green"] and view["deck"] == 13
    assert [s["side"] for s in view["seats"]] == ["south", "north"]


def test_BUS_SETUP_three_players_take_different_sides():
    """BUS-SETUP: sides are taken in seat order (ruling: south, north, west)."""
    state = new_state(players=3)
    assert [s["side"] for s in state.view()["seats"]] == ["south", "north", "west"]
    assert "BUS-SETUP" in rules_since(state, 0)


# -- start -------------------------------------------------------------------------------------
def test_BUS_START_buses_start_on_a_bus_stop_facing_either_way():
    """BUS-START: seat 0 first; a bus goes on any bus-stop card (3 stops × 2 headings); then a
    face-up card or the deck's top card, which is not optional."""
    state = new_state()
    assert state.current_player() == 0
    assert set(labels(state)) == {
        "start a1-b1 E",
        "start a1-b1 W",
        "start b2-c2 E",
        "start b2-c2 W",
        "start a3-b3 E",
        "start a3-b3 W",
    }
    with pytest.raises(IllegalActionError, match=r"bus stop.*BUS-START"):
        state.apply_action(400 + 2 * 1)  # b1-c1 (red) is no bus stop
    do(state, "start a1-b1 E")
    assert labels(state) == ["draw blind", "take red-pink", "take yellow-green"]  # no pass at the start
    do(state, "draw blind")
    chance(state, "blue-pink")  # the deck's top card
    assert state.current_player() == 1 and state.node == "place"
    do(state, "start a1-b1 W")  # buses may share a card
    do(state, "take yellow-green")
    chance(state, "green-blue")  # refill (BUS-FACEUP)
    assert state.stage == "turns" and state.current_player() == 0
    view = state.view()
    assert view["grid"][0]["buses"] == [0, 1]
    assert [c["id"] for c in view["seats"][0]["picked_up"]] == ["blue-pink"]
    assert [c["id"] for c in view["seats"][1]["picked_up"]] == ["yellow-green"]
    assert [c["id"] for c in view["faceup"]] == ["red-pink", "green-blue"]
    assert [e.text for e in events(state, "BUS-START")][-1].startswith("Seat 1 takes the face-up card")


def test_BUS_START_challenging_start_ignores_the_side_rule():
    """BUS-START, BUS-CH-SIDE: in challenging play a bus may still start facing either way."""
    state = new_state(challenging=True)
    assert len(labels(state)) == 6


def test_BUS_FACEUP_refill_at_once_while_the_deck_lasts():
    """BUS-FACEUP: taking a face-up card is followed at once by a draw from the 13 left."""
    state = new_state()
    do(state, "start a1-b1 E")
    do(state, "take red-pink")
    assert state.is_chance_node() and len(state.chance_outcomes()) == 13
    assert all(p == Fraction(1, 13) for _, p in state.chance_outcomes())
    chance(state, "orange-yellow")
    assert [c["id"] for c in state.view()["faceup"]] == ["yellow-green", "orange-yellow"]
    assert "BUS-FACEUP" in rules_since(state, 0)


# -- turns and moves ---------------------------------------------------------------------------
def test_BUS_TURN_seat_order_and_the_bus_must_move():
    """BUS-TURN: turns go seat 0, 1, 0, …; the only actions on a turn are moves (no pass)."""
    state = started()
    assert all(a >= 10000 for a in state.legal_actions())
    assert "pass" not in labels(state)
    do(state, "b1-c1 E drop red")
    assert state.current_player() == 1 and state.node == "move"
    do(state, "a2-a3 N")
    assert state.current_player() == 0 and state.round == 2


@pytest.mark.parametrize(
    "start, expected",
    [
        ("a1-b1 W", {"a1-a2 S"}),  # corner a1: only the turn
        ("a1-b1 E", {"b1-c1 E", "b1-b2 S"}),  # middle of a side b1: straight or right
        ("a2-b2 E", {"b2-c2 E", "b1-b2 N", "b2-b3 S"}),  # centre b2: straight, left or right
        ("b1-b2 S", {"a2-b2 W", "b2-c2 E", "b2-b3 S"}),
        ("c2-c3 N", {"c1-c2 N", "b2-c2 W"}),
    ],
)
def test_BUS_MOVE_one_step_never_a_u_turn(start, expected):
    """BUS-MOVE: a step goes through the intersection ahead onto any other street, never back."""
    slot, heading = start.split()
    n = [k for k in range(G.NUM_NODES) if G.node_label(k) == start][0]
    assert {G.node_label(k) for k in G.SUCCESSORS[n]} == expected
    assert all(G.SLOTS[k // 2].name != slot for k in G.SUCCESSORS[n])  # no U-turn onto the same street


def test_BUS_MOVE_legal_moves_at_speed_two():
    """BUS-MOVE, BUS-SPEED: from a1-b1 heading E with limit 2 (a speed-2 card), the ends are the
    one-step cards b1-c1 E, b1-b2 S and the two-step cards c1-c2 S, a2-b2 W, b2-c2 E, b2-b3 S."""
    state = started()
    give_hand(state, 0, held=[("green-pink", [])])  # speed 2, colours not on these streets first
    assert state.speed_limit == 2
    assert ends(state) == {"b1-c1 E", "b1-b2 S", "c1-c2 S", "a2-b2 W", "b2-c2 E", "b2-b3 S"}
    # c1-c2 is the green destination and b2-b3 the pink one: entering them drops those passengers
    assert move_labels(state) == {
        "b1-c1 E",
        "b1-b2 S",
        "c1-c2 S drop green",
        "a2-b2 W",
        "b2-c2 E",
        "b2-b3 S drop pink",
    }


def test_BUS_MOVE_END_may_pass_but_not_end_on_the_start_card():
    """BUS-MOVE-END: a1-a2 heading S can only be entered from a1, i.e. from a1-b1 heading W, so from
    a bus on a1-b1 every route to it passes the starting card; ending on a1-b1 either way is refused."""
    state = started()
    give_hand(state, 0, held=[])  # nothing in progress: no speed limit
    assert state.speed_limit is None
    assert "a1-a2 S" in labels(state)
    assert not any(label.startswith("a1-b1") for label in labels(state))
    a1b1_west = 10000 + (0 * 2 + 1) * 256  # slot 0 (a1-b1), heading 1 (W), no drop
    with pytest.raises(IllegalActionError, match="BUS-MOVE-END"):
        state.apply_action(a1b1_west)
    mark = len(state.events())
    do(state, "a1-a2 S")
    route = events(state, "BUS-MOVE", mark)[0].data["route"]
    assert "a1-b1 W" in route and route[-1] == "a1-a2 S"
    assert "BUS-MOVE-END" in rules_since(state, mark)


def test_BUS_SPEED_lowest_speed_in_progress_fixed_for_the_turn():
    """BUS-SPEED: limit = lowest speed among cards in progress (5 and 3 → 3), no route longer; with
    none in progress no limit, or 5 with empty_speed=5."""
    state = started()
    give_hand(state, 0, held=[("red-pink", []), ("blue-red", [])])  # speeds 5 and 3
    assert state.speed_limit == 3
    assert max(len(route) for route in state.move_routes().values()) == 3
    # a 4-step end: a1-b1 E → b1-c1 E → c1-c2 S → c2-c3 S → b3-c3 W
    assert not any(label.startswith("b3-c3 W") for label in labels(state))
    with pytest.raises(IllegalActionError, match="BUS-SPEED"):
        state.apply_action(10000 + G.SLOT_INDEX["b3-c3"] * 2 * 256 + 256 + 0)
    give_hand(state, 0, held=[])
    assert state.speed_limit is None and any(label.startswith("b3-c3 W") for label in labels(state))
    capped = started(empty_speed=5)
    give_hand(capped, 0, held=[])
    assert capped.speed_limit == 5
    assert max(len(route) for route in capped.move_routes().values()) <= 5
    free = {" ".join(label.split()[:2]) for label in labels(state)}
    assert free - ends(capped)  # some cards are more than 5 steps away
    assert ends(capped) < free


def test_BUS_SPEED_unchanged_mid_turn_and_new_next_turn():
    """BUS-SPEED, BUS-PROGRESS: b1-b2 S → b2-b3 S (pink) → a3-b3 W (stop3) completes green-pink
    (speed 2) on the way; at the pick-up this turn's limit is still 2, and from the next turn the
    limit is orange-blue's 5."""
    state = started(places=("start a1-b1 E", "start b2-c2 E"))
    put_bus(state, 0, "b1-b2 S")
    give_hand(state, 0, held=[("green-pink", ["green"]), ("orange-blue", [])])  # speeds 2 and 5
    assert state.speed_limit == 2
    do(state, "a3-b3 W drop pink")
    assert [state.card_name(c) for c in state.complete[0]] == ["green-pink"]
    assert state.node == "pickup" and state.speed_limit == 2  # unchanged mid-turn
    do(state, "pass")
    play_turn(state)
    assert state.current_player() == 0 and state.speed_limit == 5


def test_BUS_PICKUP_at_a_bus_stop_face_up_or_blind_or_pass():
    """BUS-PICKUP, BUS-ONE-ACTION: ending on a bus stop offers the face-up cards, the deck, or pass."""
    state = started()
    # seat 0 on a1-b1 E → b1-b2 S → a2-b2 W ... ends on stop2 (b2-c2 E) via b1-b2 S: 2 steps
    do(state, "b2-c2 E")
    assert state.node == "pickup" and state.current_player() == 0
    assert set(labels(state)) == {"draw blind", "pass", "take green-blue", "take orange-pink"}
    do(state, "take orange-pink")
    chance(state, "blue-yellow")
    assert [state.card_name(c) for c in state.in_progress(0)] == ["red-pink", "orange-pink"]
    assert state.current_player() == 1


def test_BUS_PICKUP_the_fourth_card_cannot_be_taken():
    """BUS-PICKUP: with 3 cards in progress a bus stop offers nothing: no pick-up decision at all."""
    state = started()
    give_hand(state, 0, held=[("red-pink", []), ("orange-blue", []), ("green-blue", [])])
    mark = len(state.events())
    do(state, "b2-c2 E")
    assert state.current_player() == 1 and state.node == "move"
    assert any("fourth cannot be taken" in e.text for e in events(state, "BUS-PICKUP", mark))
    assert len(state.in_progress(0)) == 3


def test_BUS_PICKUP_nothing_left_to_take():
    """BUS-PICKUP: once deck and face-up cards are gone, a bus stop offers nothing."""
    state = started()
    state.deck.clear()
    state.faceup.clear()
    state._invalidate()
    mark = len(state.events())
    do(state, "b2-c2 E")
    assert state.current_player() == 1
    assert any("nothing to pick up" in e.text for e in events(state, "BUS-PICKUP", mark))


def test_BUS_DROPOFF_passing_through_a_destination_drops_off():
    """BUS-DROPOFF, BUS-PROGRESS: a1-b1 E → b1-c1 E (red) → c1-c2 S → b2-c2 W → b2-b3 S (pink):
    red is dropped while passing, pink at the end, and red-pink (value 1) is complete."""
    state = started()
    assert "b2-b3 S drop red+pink" in labels(state)
    mark = len(state.events())
    do(state, "b2-b3 S drop red+pink")
    drops = events(state, "BUS-DROPOFF", mark)
    assert [(e.data["colour"], e.data["slot"]) for e in drops] == [("red", "b1-c1"), ("pink", "b2-b3")]
    assert events(state, "BUS-PROGRESS", mark)[0].data["card"] == "red-pink"
    assert state.returns() == [1, 0]


def test_BUS_DROPOFF_one_entry_drops_every_matching_passenger():
    """BUS-DROPOFF: entering red drops the red passengers of both red cards at once."""
    state = started()
    give_hand(state, 0, held=[("red-pink", []), ("yellow-red", [])])
    mark = len(state.events())
    do(state, "b1-c1 E drop red")
    assert sorted(e.data["card"] for e in events(state, "BUS-DROPOFF", mark)) == ["red-pink", "yellow-red"]
    assert state.waiting_colours(0) == ["pink", "yellow"]


def test_BUS_DROPOFF_the_start_card_does_not_count_until_entered():
    """BUS-DROPOFF (ruling): a bus standing on red (b1-c1 E) with a red passenger drops nothing by
    leaving; it must enter red again. Heading E, b1-c1 is left only into c1-c2 S, and the shortest
    way back into b1-c1 is c1-c2 S, b2-c2 W, b1-b2 N, b1-c1 E: 4 steps, and a move may not end on
    its starting card, so at speed 4 no move drops red; with no limit some do, passing b1-c1."""
    state = started()
    put_bus(state, 0, "b1-c1 E")
    give_hand(state, 0, held=[("yellow-red", [])])  # speed 4
    assert state.speed_limit == 4
    assert "c1-c2 S" in labels(state)
    assert not any("red" in label for label in labels(state))
    state.speed_limit = None
    state._invalidate()
    with_red = [a for a in state.legal_actions() if "red" in state.action_to_string(a)]
    assert with_red
    for action in with_red:
        route = [G.node_label(n) for n in state.move_routes()[action]]
        assert any(step.startswith("b1-c1") for step in route[:-1]) and len(route) >= 5


def test_BUS_PROGRESS_half_then_complete_in_either_order():
    """BUS-PROGRESS: one passenger dropped puts the card between the sides (half); both: complete."""
    state = started()
    do(state, "b1-c1 E drop red")
    view = state.view()
    assert [c["id"] for c in view["seats"][0]["half"]] == ["red-pink"]
    assert view["seats"][0]["half"][0]["dropped"] == ["red"]
    do(state, "a2-a3 N")
    give_hand(state, 1, held=[("yellow-green", ["green"])])  # seat 1's other order: green first
    assert state.view()["seats"][1]["half"][0]["dropped"] == ["green"]


def test_BUS_CONSTRUCTION_once_and_only_unoccupied_cards():
    """BUS-CONSTRUCTION, BUS-ONE-ACTION: ending on the site (b1-b2) offers swaps of two cards with no
    bus on them (not the site itself, not seat 1's card), each keeping its side, or pass; once used,
    the site offers nothing more."""
    state = started()
    do(state, "b1-b2 S")
    assert state.node == "construction"
    free = [s for s in SLOT_ORDER if s not in ("b1-b2", "a3-b3")]  # seat 0 on the site, seat 1 on a3-b3
    swaps = {f"swap {a} {b}" for a, b in combinations(free, 2)}
    assert set(labels(state)) == swaps | {"pass"}
    assert len(swaps) == 45
    with pytest.raises(IllegalActionError, match="a bus is on a3-b3"):
        state.apply_action(1000 + (G.SLOT_INDEX["b2-c2"] * 12 + G.SLOT_INDEX["a3-b3"]) * 4)
    do(state, "swap b1-c1 b2-b3")  # red <-> pink
    grid = {e["slot"]: e for e in state.view()["grid"]}
    assert grid["b1-c1"]["card"] == "pink" and grid["b2-b3"]["card"] == "red"
    # each keeps its side index: pink was W (first side) on a vertical street → N on a horizontal one
    assert grid["b1-c1"]["side"] == "N" and grid["b2-b3"]["side"] == "W"
    assert state.site_used == [True, False] and state.view()["seats"][0]["bus"]["site_used"]
    assert state.view()["seats"][0]["bus"]["heading"] == "S"
    do(state, "a2-a3 N")
    put_bus(state, 0, "a1-b1 E")  # one step from the site again
    mark = len(state.events())
    do(state, "b1-b2 S")
    assert state.node == "move" and state.current_player() == 1
    assert any("used it already" in e.text for e in events(state, "BUS-CONSTRUCTION", mark))


def test_BUS_ONE_ACTION_pass_is_allowed_and_ends_the_turn():
    """BUS-ONE-ACTION: the card's action is optional: pass at a bus stop takes nothing."""
    state = started()
    do(state, "b2-c2 E")
    do(state, "pass")
    assert state.current_player() == 1 and len(state.in_progress(0)) == 1
    assert "BUS-ONE-ACTION" in rules_since(state, 0)


# -- end and scoring -------------------------------------------------------------------------
def test_BUS_END_five_complete_cards_then_one_more_turn_each():
    """BUS-END: seat 1 completes its 5th card (green-pink, pink already dropped, green at c1-c2);
    then seat 2, seat 0 and seat 1 (the trigger player, last) each take one more turn; seat 0
    reaching 5 in that round does not trigger again."""
    state = started(
        players=3,
        places=("start a1-b1 E", "start a3-b3 W", "start a3-b3 E"),
        picks=("take red-pink", "take yellow-green", "take green-blue"),
        refills=("green-blue", "orange-pink", "blue-red"),
    )
    play_turn(state, "b1-b2 S")
    assert state.current_player() == 1
    give_hand(
        state,
        1,
        held=[("green-pink", ["pink"])],
        complete=["red-orange", "blue-yellow", "orange-yellow", "red-green"],
    )
    put_bus(state, 1, "b2-c2 E")
    mark = len(state.events())
    do(state, "c1-c2 N drop green")
    assert len(state.complete[1]) == 5
    trigger = events(state, "BUS-END", mark)
    assert len(trigger) == 1 and trigger[0].data["order"] == [2, 0, 1]
    assert state.current_player() == 2
    play_turn(state)
    assert state.current_player() == 0
    give_hand(
        state, 0, held=[], complete=["yellow-pink", "green-orange", "blue-pink", "orange-blue", "red-pink"]
    )
    mark = len(state.events())
    play_turn(state)
    assert any("no second trigger" in e.text for e in events(state, "BUS-END", mark))
    assert state.current_player() == 1 and not state.is_terminal()
    play_turn(state)
    assert state.is_terminal()
    assert [e.data["seat"] for e in events(state, "BUS-TURN", 0)][-4:] == [1, 2, 0, 1]


def test_BUS_END_CAP_max_rounds():
    """BUS-END-CAP: with max_rounds=2 and no trigger the game ends after round 2, scored."""
    session = Session(BusCityGame(players=3, max_rounds=2), seed=3, bots="random")
    session.run_to_end()
    state = session.state
    assert state.is_terminal() and state.round == 2
    turns = events(state, "BUS-TURN")
    assert [(e.data["round"], e.data["seat"]) for e in turns] == [
        (1, 0),
        (1, 1),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ]
    assert events(state, "BUS-END-CAP") and events(state, "BUS-SCORE")


def test_BUS_END_CAP_supply_gone_and_nothing_in_progress():
    """BUS-END-CAP: no passenger card left anywhere and none in progress: the round ends the game."""
    state = started()
    for seat in (0, 1):
        give_hand(state, seat, held=[], complete=[])
    state.deck.clear()
    state.faceup.clear()
    state.speed_limit = None
    state._invalidate()
    play_turn(state)
    assert not state.is_terminal()  # seat 1 still finishes the round
    play_turn(state)
    assert state.is_terminal()
    assert "nothing can change" in events(state, "BUS-END-CAP")[0].text


def test_BUS_SCORE_complete_cards_count_incomplete_do_not():
    """BUS-SCORE: complete cards score their values (4 + 5), a half card nothing."""
    state = started()
    give_hand(state, 0, held=[("green-pink", ["green"])], complete=["red-orange", "blue-pink"])
    assert state.returns()[0] == 9
    lines = state.score_breakdown(0)
    assert sorted(line["points"] for line in lines) == [4, 5]
    assert all(line["rule"] == "BUS-SCORE" for line in lines)


def _finish_with(complete_0, complete_1):
    state = started(max_rounds=1)
    give_hand(state, 0, complete=complete_0)
    give_hand(state, 1, complete=complete_1)
    state.speed_limit = None
    state._invalidate()
    play_turn(state)
    play_turn(state)
    assert state.is_terminal()
    return state


def test_BUS_WIN_most_points_then_most_complete_cards_then_share():
    """BUS-WIN: 5 points each, but 2 cards (2 + 3) beat 1 card (5); with equal cards they share."""
    state = _finish_with(["blue-pink"], ["orange-pink", "yellow-pink"])
    assert state.returns() == [5, 5] and state.winners() == [1]
    assert "most complete cards" in events(state, "BUS-WIN")[0].text
    state = _finish_with(["blue-pink"], ["red-green"])
    assert state.returns() == [5, 5] and state.winners() == [0, 1]
    state = _finish_with(["blue-pink", "red-pink"], ["red-green"])
    assert state.winners() == [0]


# -- challenging play --------------------------------------------------------------------------
def test_BUS_CH_SIDE_drop_off_only_from_the_right_hand_side():
    """BUS-CH-SIDE: red (b1-c1) is on its N side. Heading E the right-hand side is S: no drop.
    Heading W (from c1-c2 N) the right-hand side is N: red is dropped."""
    state = started(challenging=True)
    assert "b1-c1 E" in labels(state) and "b1-c1 E drop red" not in labels(state)
    mark = len(state.events())
    do(state, "b1-c1 E")
    assert any("other side of the street" in e.text for e in events(state, "BUS-CH-SIDE", mark))
    assert state.waiting_colours(0) == ["red", "pink"]
    other = started(challenging=True)
    put_bus(other, 0, "c1-c2 N")
    assert "b1-c1 W drop red" in labels(other) and "b1-c1 W" not in labels(other)
    basic = started()
    put_bus(basic, 0, "c1-c2 N")
    assert "b1-c1 W drop red" in labels(basic)


def test_BUS_CH_SIDE_pick_up_only_from_the_bus_stop_side():
    """BUS-CH-SIDE: stop2 on b2-c2 is on the S side: usable heading E (right = S), not heading W."""
    state = started(challenging=True)
    do(state, "b2-c2 E")
    assert state.node == "pickup"
    other = started(challenging=True)
    put_bus(other, 0, "b1-c1 E")  # then c1-c2 S, b2-c2 W
    mark = len(other.events())
    do(other, "b2-c2 W")
    assert other.node == "move" and other.current_player() == 1
    assert any("no pick-up" in e.text for e in events(other, "BUS-CH-SIDE", mark))


def test_BUS_CH_ROTATE_turn_a_card_or_swap_with_new_sides():
    """BUS-CH-ROTATE: in challenging play the site also offers turning one free card by 180° (10 free
    cards) and swaps with any sides (45 pairs × 4); the basic game offers neither turning nor sides."""
    state = started(challenging=True)
    # the site (b1-b2) is on its E side: usable heading N (right = E), reached by
    # b1-c1 E, c1-c2 S, b2-c2 W, b1-b2 N
    do(state, "b1-b2 N")
    assert state.node == "construction"
    turns = [label for label in labels(state) if label.startswith("turn ")]
    swaps = [label for label in labels(state) if label.startswith("swap ")]
    assert len(turns) == 10 and len(swaps) == 45 * 4
    do(state, "turn b1-c1")
    assert state.view()["grid"][1]["side"] == "S"  # red moves from N to S
    basic = started()
    do(basic, "b1-b2 S")
    assert not any(label.startswith("turn ") for label in labels(basic))
    with pytest.raises(IllegalActionError, match="BUS-CH-ROTATE"):
        basic.apply_action(500 + 1)
    other = started(challenging=True)
    do(other, "b1-b2 N")
    do(other, "swap b1-c1 b2-c2 sides S N")
    grid = {e["slot"]: e for e in other.view()["grid"]}
    assert (grid["b1-c1"]["card"], grid["b1-c1"]["side"]) == ("stop2", "S")
    assert (grid["b2-c2"]["card"], grid["b2-c2"]["side"]) == ("red", "N")
    assert "BUS-CH-ROTATE" in rules_since(other, 0)


# -- the greedy router ------------------------------------------------------------------------
def test_greedy_router_completes_a_card_and_ends_on_a_bus_stop():
    """BUS-MOVE, BUS-DROPOFF, BUS-PICKUP: with red-pink in progress (speed 5) the moves that
    complete it pass red (b1-c1, the only way out of a1-b1 E but b1-b2) then pink (b2-b3):
    b1-c1 E, c1-c2 S, then b2-c2 W, b2-b3 S (4 steps) and at most one more step, to a3-b3 W (stop3)
    or b3-c3 E (plain); or c2-c3 S, b3-c3 W, b2-b3 N (5 steps). The greedy router completes the card
    and ends on the bus stop, where it can pick up again."""
    import random

    state = started()
    completing = [label for label in labels(state) if label.endswith("drop red+pink")]
    assert sorted(completing) == [
        "a3-b3 W drop red+pink",
        "b2-b3 N drop red+pink",
        "b2-b3 S drop red+pink",
        "b3-c3 E drop red+pink",
    ]
    for seed in range(3):
        assert state.action_to_string(greedy_policy(state, random.Random(seed))) == "a3-b3 W drop red+pink"
