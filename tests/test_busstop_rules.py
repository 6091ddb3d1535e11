"""One or more unit tests per rule of Busstop (rule IDs ``BSB-…``).

Scenarios are scripted: the tests apply chance outcomes and decisions by their labels
(``"Gi"`` = a girl turned up on the line-up, ``"tile 3"``, ``"girl to bus 1"`` …), so each value
asserted is worked out by hand from the rules and the packaged component sheet, whose placeholder
figures are written out here (not read from the game):

* zone with 3 positions: P1 q1+W, P2 q2,q3+W (conductor), P3 W;
  4 positions: P1 q1+W, P2 q2,q3+W (conductor), P3 q4+W, P4 W;
  5 positions: P1 q1+W, P2 q2+W, P3 q3,q4+W (conductor), P4 q5+W, P5 W;
* bus seats 3, 4, 5 (the third bus locked at first);
* player tiles 1-2 baby, 3-4 child, 5-6 girl, 7-8 salary man, 9-10 granny;
* colour i favours sort i (baby, child, girl, salaryman, granny) and has end requirement i
  (empty queue, a VIP scored, all five sorts scored, third bus opened, 3 ETs scored).

A few scoring tests write passengers straight onto a finished game's boards (marked as such):
there the point is the arithmetic of the scoring rule, not how the passengers got there.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import bus_lab
from bus_lab import IllegalActionError, ParameterError, Session, load_game
from bus_lab.games.busstop import BOARD_BASE, PLACE_BASE, QUEUE_DEST, SheetError, default_sheet_data
from bus_lab.games.busstop.moves import StopBoarding
from bus_lab.games.busstop.phases import BusstopPhase
from bus_lab.games.busstop.state import TILE_BASE

SORT_OF_TILE = {
    1: "baby",
    2: "baby",
    3: "child",
    4: "child",
    5: "girl",
    6: "girl",
    7: "salaryman",
    8: "salaryman",
    9: "granny",
    10: "granny",
}
ORDINARY = ["Ba", "Ch", "Gi", "Sa", "Gr"]
VIPS = ["VBa", "VCh", "VGi", "VSa", "VGr"]
ET_CLASS = 10


# -- helpers --------------------------------------------------------------------------------------
def new(players: int = 3, **params):
    return load_game("busstop", players=players, **params).new_initial_state()


def act(state, *labels: str) -> None:
    """Apply each label in turn: a draw (``"Gi"``), a tile (``"tile 3"``), a pick, a placement."""
    for label in labels:
        state.apply_action(state.string_to_action(label))


def labels(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def first_legal(state, rng=None) -> int:
    return state.legal_actions()[0]


def finish_round(state) -> None:
    """Make every decision of the rest of this round with the first legal move."""
    start = state.round
    while not state.is_terminal() and state.round == start and not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])


def rules_of(state, since: int = 0) -> list[str]:
    return [e.rule for e in state.events()[since:]]


def three_player_round_one():
    """3 players, round 1: line-up girl, girl, ET; seat 0 (conductor) plays 3 face up, seat 1 plays 1
    and seat 2 plays 3 face down. Order: seat 1 (1), then the tie on 3 clockwise from the conductor:
    seat 0, seat 2."""
    state = new(3)
    act(state, "Gi", "Gi", "ET", "tile 3", "tile 1", "tile 3")
    return state


def queue_everything(state, rng) -> int:
    """A bot that puts every passenger it may in the queue, never boards from it, and plays its
    lowest tile; ETs board the first bus offered. Used to grow long queues."""
    moves = state.legal_moves()
    if state.decision_kind() is BusstopPhase.PLACE:
        queued = [m for m in moves if m.to_queue]
        return (queued or moves)[0].action
    if state.decision_kind() is BusstopPhase.BOARD:
        return StopBoarding().action
    return moves[0].action


# -- components -------------------------------------------------------------------------------------
def test_stack_composition_and_draw_odds():
    """BSB-COMP-PASSENGERS: 50 tiles, 8 of each sort, one VIP of each sort, 5 ETs: the first draw
    of the line-up is a girl with chance 8/50, the VIP girl 1/50, an ET 5/50."""
    state = new(3)
    assert state.is_chance_node()
    odds = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    expected = {code: Fraction(8, 50) for code in ORDINARY}
    expected.update({code: Fraction(1, 50) for code in VIPS})
    expected["ET"] = Fraction(5, 50)
    assert odds == expected
    assert sum(odds.values()) == 1
    act(state, "VGi", "Gi")
    odds = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert "VGi" not in odds  # the only VIP girl is on the line-up now
    assert odds["Gi"] == Fraction(7, 48) and odds["ET"] == Fraction(5, 48)
    with pytest.raises(IllegalActionError, match="no VIP girl is left"):
        state.apply_action(7)  # the VIP girl's draw


def test_draw_labels_and_aliases():
    """BSB-COMP-PASSENGERS: a draw can be named by its code or by the passenger's name."""
    state = new(3)
    act(state, "girl", "VIP salaryman", "alien")
    assert [state.action_to_string(k) for k in state.lineup] == ["Gi", "VSa", "ET"]


def test_player_tiles_are_numbered_passengers():
    """BSB-COMP-PLAYERTILES: tiles 1-10 in hand; each is a passenger of the sort printed on it (the
    placeholder sorts of the sheet)."""
    state = new(3)
    assert [b["hand"] for b in state.view(None)["boards"]] == [list(range(1, 11))] * 3
    assert state.view(None)["tile_sorts"] == {str(t): s for t, s in SORT_OF_TILE.items()}
    act(state, "Gi", "Gi", "ET", "tile 3", "tile 1", "tile 3")
    assert [b["hand"] for b in state.view(None)["boards"]] == [
        [t for t in range(1, 11) if t != played] for played in (3, 1, 3)
    ]
    # seat 1 (P1) takes seat 2's tile 3 and seat 0 (P2) seat 1's tile 1: a child and a baby
    act(state, "take Seat 2's 3", "take Seat 1's 1")
    assert "child to bus 1" in labels(state)
    finish_round(state)
    pile_or_bus = [t for b in state.view(None)["boards"][0]["buses"] for t in b["passengers"]]
    assert "1/1" in pile_or_bus + state.view(None)["boards"][0]["queue"]


def test_board_buses_and_locked_third_bus():
    """BSB-COMP-BOARD: bus 1 has 3 seats, bus 2 has 4, the third bus (5 seats) is locked at first;
    the queue has 13 spaces on the board."""
    state = three_player_round_one()
    act(state, "take Seat 2's 3", "take Seat 1's 1")
    view = state.view(None)
    for board in view["boards"]:
        assert [b["seats"] for b in board["buses"]] == [3, 4, 5]
        assert [b["open"] for b in board["buses"]] == [True, True, False]
    assert view["queue_spaces"] == 13
    assert "girl to bus 3" not in labels(state)
    with pytest.raises(IllegalActionError, match="third bus is locked"):
        state.apply_action(PLACE_BASE + 4 * 2 + 2)  # a girl to bus 3


def test_zone_icons_from_the_sheet():
    """BSB-COMP-ZONE: every queue slot has one arrow, there are as many white icons as positions,
    and the conductor symbol is on the middle position, for 3, 4 and 5 positions."""
    expected = {
        3: ([[1], [2, 3], []], 2),
        4: ([[1], [2, 3], [4], []], 2),
        5: ([[1], [2], [3, 4], [5], []], 3),
    }
    for players, (black, conductor) in expected.items():
        view = new(players).view(None)
        assert [p["black"] for p in view["zone"]] == black
        assert all(p["white"] for p in view["zone"])
        assert [i + 1 for i, p in enumerate(view["zone"]) if p["conductor"]] == [conductor]
        assert view["slots"] == players
    # two players use the 3-position zone (the proxy bus counts)
    assert [p["black"] for p in new(2).view(None)["zone"]] == expected[3][0]


# -- the component sheet: checked on load, replaceable ------------------------------------------------
def _sheet(**changes):
    data = default_sheet_data()
    for path, value in changes.items():
        target = data
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return data


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"zones__4__positions__2__black": [3]}, "zones.4.positions[3].black"),  # q3 gets a second arrow
        ({"zones__4__positions__2__black": []}, "zones.4.positions"),  # q4 has no arrow
        ({"zones__5__positions__4__white": False}, "zones.5.positions[5].white"),  # 4 white icons for 5
        ({"zones__5__passengers": 6}, "zones.5.passengers"),  # 60 passengers > 50
        ({"zones__3__conductor": 4}, "zones.3.conductor"),
        ({"bus_seats": [3, 4]}, "bus_seats"),
        ({"bus_seats": [3, 0, 5]}, "bus_seats[2]"),
        ({"player_tiles__7": "pilot"}, "player_tiles.7"),
        ({"passenger_bonus": ["baby", "baby", "girl", "salaryman", "granny"]}, "passenger_bonus"),
        ({"end_bonus": ["empty_queue", "vip_scored", "all_sorts", "third_bus", "fly"]}, "end_bonus[4]"),
    ],
)
def test_bad_sheets_are_refused_naming_the_field(changes, field):
    """BSB-COMP-ZONE, BSB-COMP-BOARD, BSB-COMP-PLAYERTILES, BSB-ROUND-LINEUP: a sheet that breaks a
    rule is refused on load, and the message names the field."""
    with pytest.raises(SheetError) as info:
        load_game("busstop", players=4, sheet=_sheet(**changes))
    assert f"field {field}:" in str(info.value)
    assert isinstance(info.value, ParameterError)


def test_missing_and_unknown_sheet_fields():
    """BSB-COMP-ZONE: missing or unknown fields are named."""
    data = default_sheet_data()
    del data["bus_seats"]
    with pytest.raises(SheetError, match="field bus_seats: is missing"):
        load_game("busstop", sheet=data)
    data = default_sheet_data()
    data["colours"] = ["red"]
    with pytest.raises(SheetError, match="field colours: is not a field"):
        load_game("busstop", sheet=data)
    with pytest.raises(SheetError, match="cannot read the component sheet file"):
        load_game("busstop", sheet="/no/such/sheet.json")


def test_a_teacher_sheet_from_a_file_replaces_the_placeholders(tmp_path):
    """BSB-COMP-BOARD, BSB-COMP-PLAYERTILES: another sheet (a JSON file with comments) changes the
    game; the game keeps it as plain data, so a saved game carries its sheet."""
    data = default_sheet_data()
    data["_note"] = "my classroom board"
    data["bus_seats"] = [2, 2, 6]
    data["player_tiles"]["1"] = "granny"
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(data))
    game = load_game("busstop", players=3, sheet=str(path))
    assert game.params["sheet"]["bus_seats"] == [2, 2, 6] and "_note" not in game.params["sheet"]
    state = game.new_initial_state()
    assert [b["seats"] for b in state.view(None)["boards"][0]["buses"]] == [2, 2, 6]
    assert state.view(None)["tile_sorts"]["1"] == "granny"
    session = Session(game, seed=3, bots="greedy")
    session.run_to_end()
    again = Session.from_json(session.to_json())
    assert again.state.history() == session.state.history()
    assert (
        bus_lab.state_from_dict(json.loads(json.dumps(session.state.to_dict()))).returns()
        == session.state.returns()
    )
    # with 2-seat buses, two girls fill bus 1 and it leaves at once
    state = game.new_initial_state()
    act(state, "Gi", "Gi", "Gi", "tile 1", "tile 2", "tile 3")
    act(state, "take Seat 0's 1")  # seat 0 (P1) takes its own tile 1, now a granny
    act(state, "take Seat 1's 2")  # seat 1 (P2) takes a baby; seat 2 gets the tile 3 (child)
    act(state, "girl to bus 1")
    assert state.view(None)["boards"][0]["buses"][0]["passengers"] == ["Gi"]
    assert "granny to bus 2" in labels(state)


# -- setup -------------------------------------------------------------------------------------------
def test_setup_players_and_hands():
    """BSB-SETUP: 2 to 5 players, each with tiles 1-10 and an empty board; a 50-tile stack."""
    for players in (2, 3, 4, 5):
        view = new(players).view(0)
        assert view["players"] == players
        assert view["stack"]["left"] == 50
        for board in view["boards"]:
            assert board["hand"] == list(range(1, 11))
            assert board["queue"] == [] and board["pile"] == []
    for bad in (1, 6, True, "3"):
        with pytest.raises(ParameterError, match="players"):
            load_game("busstop", players=bad)


def test_first_conductor_is_seat_0():
    """BSB-SETUP-CONDUCTOR: seat 0 is the first conductor: it lines up and chooses first, face up."""
    state = new(4)
    assert state.view(None)["conductor"] == 0
    act(state, "Ba", "Ch", "Gi", "Sa")
    assert state.current_player() == 0
    assert "face up" in state.status()


# -- a round -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players, per_round", [(2, 3), (3, 3), (4, 4), (5, 5)])
def test_lineup_size_per_round(players, per_round):
    """BSB-ROUND-LINEUP: the conductor lines up one passenger per queue slot, one per position (the
    proxy counted); with 5 players the 50 tiles last exactly 10 rounds."""
    session = Session(load_game("busstop", players=players), seed=5, bots="random")
    session.run_to_end()
    state = session.state
    draws = [e for e in state.events() if e.rule == "BSB-ROUND-LINEUP" and "slot" in e.data]
    assert len(draws) == 10 * per_round
    assert state.view(None)["stack"]["left"] == 50 - 10 * per_round


def test_conductor_bids_face_up_others_face_down_and_hidden():
    """BSB-ROUND-BID: the conductor's tile is face up; the others choose face down, clockwise, and
    no other seat's view (nor the event log) shows a face-down tile until the reveal."""
    state = new(3)
    act(state, "Gi", "Ba", "Ch", "tile 7")
    assert state.current_player() == 1
    assert [state.view(s)["bids"][0] for s in (0, 1, 2, None)] == [{"state": "shown", "tile": 7}] * 4
    act(state, "tile 4")
    assert state.current_player() == 2
    assert state.view(1)["bids"][1] == {"state": "shown", "tile": 4}
    assert state.view(None)["bids"][1] == {"state": "shown", "tile": 4}
    for other in (0, 2):
        view = state.view(other)
        assert view["bids"][1] == {"state": "hidden", "tile": None}
        assert 4 in view["boards"][1]["hand"]  # the hand still counts the face-down tile
    assert 4 not in state.view(1)["boards"][1]["hand"]
    bid_event = state.events()[-1]
    assert bid_event.rule == "BSB-ROUND-BID" and "4" not in bid_event.text and "tile" not in bid_event.data
    act(state, "tile 4")
    assert all(state.view(s)["bids"][k]["state"] == "shown" for s in range(3) for k in range(3))
    with pytest.raises(IllegalActionError):
        act(state, "tile 4")  # not a bidding node any more


def test_each_tile_is_used_once():
    """BSB-ROUND-BID: a tile already played cannot be chosen again."""
    state = three_player_round_one()
    finish_round(state)
    act(state, "Ba", "Ba", "Ba")
    conductor = state.current_player()
    played = {0: 3, 1: 1, 2: 3}[conductor]  # what each seat played in round 1
    assert f"tile {played}" not in labels(state)
    with pytest.raises(IllegalActionError, match="already played tile"):
        state.apply_action(100 + played)


def test_order_ties_clockwise_from_the_conductor_rulebook_examples():
    """BSB-ROUND-ORDER: lowest tile first; ties clockwise from the conductor. The rulebook's first
    example: A (conductor) 2, B 5, C 3, D 5 gives A, C, B, D; the second: all play 8, A B C D."""
    state = new(4)
    act(state, "Ba", "Ch", "Gi", "Sa", "tile 2", "tile 5", "tile 3", "tile 5")
    assert state.zone_holders == [0, 2, 1, 3]
    state = new(4)
    act(state, "Ba", "Ch", "Gi", "Sa", "tile 8", "tile 8", "tile 8", "tile 8")
    assert state.zone_holders == [0, 1, 2, 3]


def test_tie_order_wraps_round_from_a_later_conductor():
    """BSB-ROUND-ORDER, BSB-ROUND-CONDUCTOR: with 4 players the conductor symbol is on P2. Seat 2
    lands there in round 1 and conducts round 2; a four-way tie then goes 2, 3, 0, 1."""
    state = new(4)
    act(state, "Ba", "Ch", "Gi", "Sa", "tile 1", "tile 9", "tile 2", "tile 9")
    assert state.zone_holders == [0, 2, 1, 3]
    assert state.next_conductor == 2
    finish_round(state)
    assert state.round == 2 and state.conductor == 2
    act(state, "Ba", "Ch", "Gi", "Sa")
    assert state.current_player() == 2  # the new conductor chooses first, face up
    act(state, "tile 8", "tile 8", "tile 8", "tile 8")
    assert state.zone_holders == [2, 3, 0, 1]


def test_new_conductor_is_on_the_conductor_space():
    """BSB-ROUND-CONDUCTOR: the player on the position with the conductor symbol (P2 with 3 players,
    P3 with 5) conducts the next round."""
    state = three_player_round_one()  # order seat 1, seat 0, seat 2: P2 is seat 0
    assert state.next_conductor == 0
    state = new(5)
    act(state, "Ba", "Ch", "Gi", "Sa", "Gr", "tile 5", "tile 1", "tile 2", "tile 3", "tile 4")
    assert state.zone_holders == [1, 2, 3, 4, 0]
    assert state.next_conductor == 3
    finish_round(state)
    assert state.conductor == 3


def test_taking_black_forced_white_chosen_own_tile_allowed():
    """BSB-ROUND-TAKE: in position order, black icons give their slots' passengers (no choice),
    before the white icon's pick among the tiles still on the zone; your own tile is allowed; the
    last position gets the last tile."""
    state = three_player_round_one()
    # P1 = seat 1: q1's girl is taken first; then a choice of all three played tiles
    assert state.node == "white" and state.current_player() == 1
    assert state.view(None)["boards"][1]["received"] == ["Gi"]
    assert labels(state) == ["take Seat 0's 3", "take Seat 1's 1", "take Seat 2's 3"]
    act(state, "take Seat 1's 1")  # its own tile
    # P2 = seat 0: both black passengers (q2, q3) arrive before its white pick
    assert state.current_player() == 0
    assert state.view(None)["boards"][0]["received"] == ["Gi", "ET"]
    assert labels(state) == ["take Seat 0's 3", "take Seat 2's 3"]
    act(state, "take Seat 2's 3")
    # P3 = seat 2 had no choice left: seat 0's 3 (a child) is its passenger
    view = state.view(None)
    assert view["boards"][2]["received"] == ["0/3"]
    assert view["boards"][1]["received"] == ["Gi", "1/1"]
    assert view["boards"][0]["received"] == ["Gi", "ET", "2/3"]
    assert all(slot is None for slot in view["lineup"])


def test_distribution_in_player_order_every_passenger_placed():
    """BSB-ROUND-DISTRIBUTE: after all taking, P1's player places all of their passengers, one at a
    time in the order they like, then P2's, then P3's; player tiles are ordinary passengers."""
    state = three_player_round_one()
    act(state, "take Seat 2's 3", "take Seat 1's 1")
    assert state.node == "place" and state.current_player() == 1
    assert labels(state) == [
        "child to bus 1",
        "child to bus 2",
        "child to queue",
        "girl to bus 1",
        "girl to bus 2",
        "girl to queue",
    ]
    act(state, "child to bus 2")  # the player tile first: seat 1's own order
    assert state.current_player() == 1
    act(state, "girl to bus 1")
    assert state.current_player() == 0  # seat 1 is done (empty queue), seat 0 (P2) places next
    assert state.view(None)["boards"][1]["buses"][1]["passengers"] == ["2/3"]
    assert state.view(None)["boards"][1]["buses"][1]["sort"] == "child"


def test_one_sort_per_bus_ets_wild_vip_counts_as_its_sort():
    """BSB-BOARD-SORT: a bus takes one sort; an ET boards any bus and a bus of ETs only takes its sort
    from the next passenger who is not an ET; a VIP counts as its sort."""
    state = three_player_round_one()
    act(state, "take Seat 2's 3", "take Seat 1's 1", "child to bus 2", "girl to bus 1")
    # seat 0 has a girl, an ET and seat 1's tile 1 (a baby); no bus of its own carries anything yet
    assert "ET to queue" not in labels(state)
    act(state, "ET to bus 1")
    view = state.view(None)["boards"][0]
    assert view["buses"][0]["sort"] is None  # only an ET: no sort yet
    act(state, "baby to bus 1")
    assert state.view(None)["boards"][0]["buses"][0]["sort"] == "baby"
    assert "girl to bus 1" not in labels(state)
    with pytest.raises(IllegalActionError, match="bus 1 carries babies"):
        state.apply_action(PLACE_BASE + 4 * 2 + 0)
    act(state, "girl to bus 2")
    # round 2: seat 0 conducts; a VIP girl joins the bus of girls
    finish_round(state)
    act(state, "VGi", "Ba", "Ba", "tile 1", "tile 9", "tile 9")  # seat 0 takes P1 and the VIP girl
    act(state, "take Seat 0's 1", "take Seat 1's 9")
    assert state.current_player() == 0
    assert "VIP girl to bus 2" in labels(state) and "VIP girl to bus 1" not in labels(state)
    act(state, "VIP girl to bus 2")
    assert state.view(None)["boards"][0]["buses"][1]["passengers"] == ["Gi", "VGi"]


def _leave_scenario():
    """3 players. Round 1: line-up baby, girl, girl; seat 0 (3) is P2 behind seat 1 (1); seat 0
    takes seat 2's tile 5 (a girl) and puts two girls on bus 1. Round 2 (seat 0 conducts): line-up
    girl, baby, baby; seat 0 plays 2 and is P1: a girl and its own tile 2 (a baby)."""
    state = new(3)
    act(state, "Ba", "Gi", "Gi", "tile 3", "tile 1", "tile 5")
    act(state, "take Seat 1's 1", "take Seat 2's 5")
    act(state, "baby to bus 1", "baby to bus 1")  # seat 1: two babies on bus 1
    act(state, "girl to bus 1", "girl to bus 1", "girl to bus 2")  # seat 0: bus 1 = 2 girls
    act(state, "child to queue", "stop boarding")  # seat 2: seat 0's tile 3 waits
    assert state.round == 2 and state.conductor == 0
    act(state, "Gi", "Ba", "Ba", "tile 2", "tile 4", "tile 6")
    act(state, "take Seat 0's 2", "take Seat 1's 4")
    return state


def test_full_bus_leaves_mid_boarding_and_takes_another_sort():
    """BSB-BOARD-LEAVE: the third girl fills bus 1 (3 seats): it leaves at once, although seat 0 still
    has a passenger to place; its 3 passengers go to the score pile and the empty bus takes a baby."""
    state = _leave_scenario()
    assert state.current_player() == 0 and state.node == "place"
    before = len(state.events())
    act(state, "girl to bus 1")
    board = state.view(None)["boards"][0]
    assert board["buses"][0]["passengers"] == [] and board["buses"][0]["sort"] is None
    assert sorted(board["pile"]) == sorted(["Gi", "Gi", "Gi"])
    assert board["received"] == ["0/2"]  # still to place: mid-boarding
    assert "BSB-BOARD-LEAVE" in rules_of(state, before)
    assert "baby to bus 1" in labels(state)
    act(state, "baby to bus 1")
    assert state.view(None)["boards"][0]["buses"][0]["sort"] == "baby"
    assert state.returns()[0] == 3  # three ordinary passengers, 1 point each


def test_ets_never_queue_and_the_queue_keeps_its_order():
    """BSB-QUEUE: an ET can never join the queue; other passengers join at the tail and keep their
    order."""
    state = three_player_round_one()
    act(state, "take Seat 2's 3", "take Seat 1's 1", "child to queue", "girl to queue")
    assert state.view(None)["boards"][1]["queue"] == ["2/3", "Gi"]
    act(state, "stop boarding")
    assert state.current_player() == 0
    assert not any(lab.startswith("ET to queue") for lab in labels(state))
    with pytest.raises(IllegalActionError, match="an ET may never queue"):
        state.apply_action(PLACE_BASE + 4 * ET_CLASS + QUEUE_DEST)


def test_queue_goes_on_off_the_board_beyond_13():
    """BSB-QUEUE: a queue longer than 13 goes on off the board (the 14th joins "off the board")."""
    session = Session(load_game("busstop", players=3), seed=2, bots=queue_everything)
    session.run_to_end()
    longest = max(len(b["queue"]) for b in session.state.view(None)["boards"])
    assert longest > 13
    off = [e for e in session.state.events() if e.rule == "BSB-QUEUE" and "off the board" in e.text]
    assert off and all(e.data["place"] > 13 for e in off)


def test_queue_boarding_only_from_the_head_in_order():
    """BSB-QUEUE-BOARD: after placing, the head of the queue may board; the next one only after it;
    the player may stop at any time."""
    state = three_player_round_one()
    act(state, "take Seat 2's 3", "take Seat 1's 1", "girl to queue", "child to queue")
    assert state.node == "board"
    assert labels(state) == ["head to bus 1", "head to bus 2", "stop boarding"]
    act(state, "head to bus 1")  # the girl, the head, boards bus 1
    view = state.view(None)["boards"][1]
    assert view["queue"] == ["2/3"] and view["buses"][0]["passengers"] == ["Gi"]
    assert labels(state) == ["head to bus 2", "stop boarding"]  # the child may not join the girl
    with pytest.raises(IllegalActionError, match="bus 1 carries girls.*only the head may board"):
        state.apply_action(BOARD_BASE + 0)  # the head (a child) to bus 1
    act(state, "stop boarding")
    assert state.view(None)["boards"][1]["queue"] == ["2/3"]
    assert state.current_player() == 0


def test_no_boarding_offered_when_the_head_fits_no_bus():
    """BSB-QUEUE-BOARD: when no bus takes the head, nobody behind it may board either, so the
    player is not asked."""
    state = _leave_scenario()
    act(state, "girl to bus 1", "baby to bus 1")  # seat 0 done; its queue is empty
    # seat 1 (P2): two babies arrive at its bus of two babies; seat 1's tile 4 is a child
    assert state.current_player() == 1
    act(state, "baby to bus 1")  # bus 1 (3 seats) leaves with three babies
    act(state, "child to queue", "baby to queue")
    # head: the child; bus 1 and bus 2 are empty, so it may board
    assert state.node == "board" and "head to bus 1" in labels(state)
    act(state, "head to bus 2", "head to bus 1")
    assert state.view(None)["boards"][1]["queue"] == []


def test_extra_bus_opens_once_at_nine():
    """BSB-EXTRA-BUS: the first time a queue holds 9 or more at the end of a round, the third bus
    opens from the next round on (once: it is never announced again)."""
    session = Session(load_game("busstop", players=3), seed=4, bots=queue_everything)
    session.run_to_end()
    state = session.state
    opened = [e for e in state.events() if e.rule == "BSB-EXTRA-BUS"]
    seats = [e.data["participant"] for e in opened]
    assert seats and len(seats) == len(set(seats))
    # replay round by round: the bus is open exactly from the round after a queue of 9+
    ends = {}
    for i in range(1, len(session)):
        before, after = session.state_at(i - 1), session.state_at(i)
        if after.round != before.round or after.is_terminal():
            ends[before.round] = [len(b.queue) for b in after.boards]
            opened_now = [b.extra_open for b in after.boards]
            for k in range(3):
                first_nine = min((r for r, q in ends.items() if q[k] >= 9), default=None)
                assert opened_now[k] == (first_nine is not None)
    third_bus_moves = [
        e
        for e in state.events()
        if e.rule in ("BSB-BOARD-SORT", "BSB-QUEUE-BOARD") and e.data.get("bus") == 3
    ]
    assert all(state.boards[e.data["participant"]].extra_open for e in third_bus_moves)


def test_extra_bus_boarding_is_refused_before_and_allowed_after():
    """BSB-EXTRA-BUS: in the round a queue first reaches 9 the third bus is still locked; from the
    next round on, passengers may board it."""
    session = Session(load_game("busstop", players=3), seed=4, bots=queue_everything)
    session.run_to_end()
    step = next(
        i
        for i in range(1, len(session))
        if any(e.rule == "BSB-EXTRA-BUS" for e in session.state_at(i).events())
    )
    seat = next(e for e in session.state_at(step).events() if e.rule == "BSB-EXTRA-BUS").data["participant"]
    opened_round = session.state_at(step - 1).round
    for i in range(len(session)):
        state = session.state_at(i)
        if state.node == "place" and state.acting_participant() == seat:
            to_bus_3 = [lab for lab in labels(state) if lab.endswith("to bus 3")]
            assert bool(to_bus_3) == (i >= step and state.round > opened_round), (i, state.round)


def test_game_ends_after_ten_rounds():
    """BSB-END: after the 10th round the game is over: every tile played, nothing legal."""
    session = Session(load_game("busstop", players=4), seed=8, bots="greedy")
    session.run_to_end()
    state = session.state
    assert state.is_terminal() and state.legal_actions() == []
    starts = [e for e in state.events() if e.rule == "BSB-ROUND-LINEUP" and "round" in e.data]
    assert [e.data["round"] for e in starts] == list(range(1, 11))
    assert all(b["hand"] == [] for b in state.view(None)["boards"])
    assert rules_of(state)[-1] == "BSB-WIN" and "BSB-END" in rules_of(state)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(0)


# -- scoring ---------------------------------------------------------------------------------------
def _finished(players=3, seed=1, **params):
    session = Session(load_game("busstop", players=players, **params), seed=seed, bots="greedy")
    session.run_to_end()
    return session.state.clone()


def _set_board(state, seat, pile=(), queue=(), buses=((), (), ()), penalty=(), extra=False):
    """Write passengers (codes such as "Gi", "VGi", "ET", or (owner, tile)) onto a board."""

    def token(code):
        if isinstance(code, tuple):
            return TILE_BASE + 10 * code[0] + code[1] - 1
        return (ORDINARY + VIPS + ["ET"]).index(code)

    board = state.boards[seat]
    board.pile = [token(c) for c in pile]
    board.queue = [token(c) for c in queue]
    board.buses = [[token(c) for c in bus] for bus in buses]
    board.penalty = [token(c) for c in penalty]
    board.extra_open = extra


def test_score_pile_values():
    """BSB-SCORE-PILE: +1 a passenger in the score pile (player tiles too), +3 a VIP, 0 an ET;
    passengers still on a bus score nothing. (Passengers written onto a finished board.)"""
    state = _finished()
    _set_board(state, 0, pile=["Gi", "Gi", (1, 7), "VBa", "ET", "ET"], buses=(["Ch", "Ch"], ["VGr"], ()))
    assert state.returns()[0] == 1 + 1 + 1 + 3 + 0 + 0
    assert sum(line["points"] for line in state.score_breakdown(0)) == 6


def test_queue_costs_two_and_a_vip_six():
    """BSB-SCORE-QUEUE: −2 for each passenger waiting in the queue, −6 for a queued VIP. Scripted:
    seat 1 puts the VIP girl it takes from q1 in its queue."""
    state = new(3)
    act(state, "VGi", "Ba", "Ba", "tile 5", "tile 1", "tile 6")  # seat 1 is P1
    act(state, "take Seat 1's 1", "take Seat 0's 5")
    act(state, "VIP girl to queue", "baby to bus 1", "stop boarding")
    assert state.returns()[1] == -6
    lines = state.score_breakdown(1)
    assert [(line["rule"], line["points"]) for line in lines] == [("BSB-SCORE-QUEUE", -6)]
    state = _finished()
    _set_board(state, 2, pile=["Gi"], queue=["Ba", "Ba", (0, 9), "VSa"])
    assert state.returns()[2] == 1 - 2 - 2 - 2 - 6


def test_winner_highest_total_ties_to_fewest_ets_then_shared():
    """BSB-WIN: the highest total wins; a tie goes to the fewest ETs in the score pile, on the buses
    and in the queue; still tied, the win is shared. (Passengers written onto a finished board.)"""
    state = _finished(players=3)
    _set_board(state, 0, pile=["Gi"] * 6 + ["ET"])  # 6 points, 1 ET
    _set_board(state, 1, pile=["Ba"] * 7, buses=(["ET"], ["ET"], ()))  # 7 points, 2 ETs
    _set_board(state, 2, pile=["Ch"] * 9, queue=["Gr"], buses=((), (), ()))  # 7 points, 0 ETs
    assert state.returns() == [6, 7, 7]
    assert state.winners() == [2]
    _set_board(state, 2, pile=["Ch"] * 9 + ["ET", "ET"], queue=["Gr"])  # 7 points, 2 ETs
    assert state.winners() == [1, 2]
    assert "share the win" in state.status()


# -- two players: the proxy bus ------------------------------------------------------------------------
def test_proxy_bus_plays_a_third_board_with_random_tiles():
    """BSB-PROXY: two players get a proxy bus with its own board; its tile is drawn at random from its
    shuffled tiles (here: at the reveal, each of its 10 tiles 1/10)."""
    state = new(2)
    view = state.view(0)
    assert view["participants"] == 3 and view["names"] == ["Seat 0", "Seat 1", "the proxy bus"]
    act(state, "Gi", "Ba", "Ch", "tile 5")
    assert state.current_player() == 1
    act(state, "tile 5")
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes] == [f"proxy-{t}" for t in range(1, 11)]
    assert all(p == Fraction(1, 10) for _, p in outcomes)
    act(state, "proxy 5")  # the alias with a space works too
    assert state.view(1)["bids"][2] == {"state": "shown", "tile": 5}
    outcomes_later = None
    finish_round(state)
    act(state, "Gi", "Ba", "Ch")
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    outcomes_later = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
    assert "proxy-5" not in outcomes_later and len(outcomes_later) == 9


def test_proxy_sits_after_the_seats():
    """BSB-PROXY-SEAT: clockwise is seat 0, seat 1, the proxy: a three-way tie with seat 0 conducting
    goes 0, 1, proxy."""
    state = new(2)
    act(state, "Gi", "Ba", "Ch", "tile 5", "tile 5", "proxy-5")
    assert state.zone_holders == [0, 1, 2]


def test_proxy_conductor_tile_first_and_lineup_automatic():
    """BSB-PROXY-CONDUCTOR: when the proxy lands on the conductor space (P2 of 3), the next round's
    line-up is automatic and its tile is drawn and shown before the players choose; ties then go
    proxy, seat 0, seat 1."""
    state = new(2)
    act(state, "Gi", "Ba", "Ch", "tile 1", "tile 9", "proxy-4")
    assert state.zone_holders == [0, 2, 1] and state.next_conductor == 2
    finish_round(state)
    assert state.conductor == 2
    start = [e for e in state.events() if e.rule == "BSB-ROUND-LINEUP"][-1]
    assert "automatically" in start.text
    act(state, "Gi", "Ba", "Ch")
    assert state.node == "proxy_bid" and state.is_chance_node()
    act(state, "proxy-6")
    assert state.events()[-1].rule == "BSB-PROXY-CONDUCTOR"
    assert state.view(0)["bids"][2] == {"state": "shown", "tile": 6}
    assert state.current_player() == 0
    act(state, "tile 6", "tile 6")
    assert state.zone_holders == [2, 0, 1]


def test_proxy_player_alternates_starting_with_the_non_conductor():
    """BSB-PROXY-CHOICES: seat 1 (not the first conductor) makes the proxy's choices in round 1, seat 0
    in round 2, and so on: every decision about the proxy's board or pick is asked of that seat."""
    state = new(2)
    assert state.proxy_player == 1
    act(state, "Gi", "Ba", "Ch", "tile 9", "tile 8", "proxy-1")  # the proxy is P1
    assert state.zone_holders == [2, 1, 0]
    assert state.node == "white" and state.current_player() == 1
    assert "Seat 1 chooses for it" in state.status()
    session = Session(load_game("busstop", players=2), seed=6, bots="random")
    session.run_to_end()
    asked = {}
    for i in range(len(session)):
        st = session.state_at(i)
        if not st.is_terminal() and not st.is_chance_node() and st.acting_participant() == 2:
            asked.setdefault(st.round, set()).add(st.current_player())
    assert len(asked) >= 6 and {r % 2 for r in asked} == {0, 1}  # a round may have only forced moves
    assert all(asked[r] == {1 if r % 2 else 0} for r in asked)


def test_proxy_bus_fills_and_the_proxy_player_banks_it():
    """BSB-PROXY-LEAVE: three girls on the proxy's bus 1 (3 seats): it leaves and the 3 passengers
    score for seat 1, the proxy player of round 1."""
    state = new(2)
    act(state, "Gi", "Gi", "Gi", "tile 9", "tile 8", "proxy-1")
    # order: proxy (1) P1, seat 1 (8) P2, seat 0 (9) P3; the proxy gets q1 and a pick
    act(state, "take the proxy's 1")  # seat 1 picks for the proxy: its own baby tile
    act(state, "take Seat 0's 9")  # seat 1 (P2) gets q2, q3 and seat 0's granny; seat 0 gets the 8
    act(state, "girl to bus 1", "baby to bus 2")  # the proxy's passengers, placed by seat 1
    act(state, "girl to bus 1", "girl to bus 1", "granny to bus 2")  # seat 1's own board
    act(state, "salaryman to bus 1")  # seat 0
    assert state.round == 2 and state.proxy_player == 0
    # round 2: seat 1 was P2, so seat 1 conducts; make the proxy P1 again and give it two girls
    act(state, "Gi", "Gi", "Ba", "tile 7", "tile 6", "proxy-2")
    # clockwise from seat 1: seat 1 (7), proxy, seat 0 (6) -> order proxy (2), seat 0 (6), seat 1 (7)
    assert state.zone_holders == [2, 0, 1]
    assert state.current_player() == 0  # seat 0 is the proxy player now
    act(state, "take Seat 0's 6")  # a girl tile for the proxy
    act(state, "take Seat 1's 7")
    before = list(state.returns())
    act(state, "girl to bus 1")  # the proxy's bus 1: girl, girl
    assert state.boards[2].buses[0] and len(state.boards[2].buses[0]) == 2
    act(state, "girl to bus 1")  # third girl: the proxy's bus leaves
    assert state.boards[2].buses[0] == []
    assert state.returns()[0] == before[0] + 3 and state.returns()[1] == before[1]
    assert state.events()[-1].rule == "BSB-PROXY-LEAVE"


def _round_ends(session):
    """(state before, state after) for every step that ended a round."""
    for i in range(1, len(session)):
        before, after = session.state_at(i - 1), session.state_at(i)
        if after.round != before.round or after.is_terminal():
            yield before, after


def test_proxy_penalty_at_fourteen():
    """BSB-PROXY-PENALTY: at the end of a round, a proxy queue of 14 or more goes to the current proxy
    player as penalty tiles (−2 each, a VIP −6) and the proxy queue is emptied."""
    seen = 0
    for seed in range(6):
        session = Session(load_game("busstop", players=2), seed=seed, bots=queue_everything)
        session.run_to_end()
        for before, after in _round_ends(session):
            fired = [e for e in after.events()[len(before.events()) :] if e.rule == "BSB-PROXY-PENALTY"]
            if not fired:
                continue
            seen += 1
            seat = before.proxy_player
            assert fired[0].data["seat"] == seat
            assert after.boards[2].queue == []
            gained = after.boards[seat].penalty[len(before.boards[seat].penalty) :]
            assert len(gained) == fired[0].data["tiles"] >= 14
            codes = [after.token_code(t) for t in after.boards[seat].penalty]
            by_hand = sum(-6 if code in VIPS else -2 for code in codes)
            assert (
                sum(
                    line["points"]
                    for line in after.score_breakdown(seat)
                    if line["rule"] == "BSB-PROXY-PENALTY"
                )
                == by_hand
            )
    assert seen, "no seed gave a proxy queue of 14"


def test_penalty_tiles_do_not_open_the_extra_bus():
    """BSB-PROXY-PENALTY, BSB-EXTRA-BUS: a player's third bus opens on their own queue only, never on
    penalty tiles; the proxy board has its own third bus."""
    for seed in range(6):
        session = Session(load_game("busstop", players=2), seed=seed, bots=queue_everything)
        session.run_to_end()
        reached = [False, False, False]
        for before, after in _round_ends(session):
            new_events = after.events()[len(before.events()) :]
            fired = {e.data["participant"] for e in new_events if e.rule == "BSB-EXTRA-BUS"}
            penalty = [e.data["tiles"] for e in new_events if e.rule == "BSB-PROXY-PENALTY"]
            for k in range(3):
                own_queue = len(after.boards[k].queue)
                if k == 2 and penalty:  # the proxy queue was checked before it was handed over
                    own_queue = penalty[0]
                newly = own_queue >= 9 and not reached[k]
                assert (k in fired) == newly, (seed, after.round, k)
                reached[k] = reached[k] or own_queue >= 9


def test_proxy_queue_of_thirteen_is_no_penalty():
    """BSB-PROXY-PENALTY: the penalty comes exactly when the proxy queue ends a round at 14 or more
    (13 is not yet a penalty)."""
    sizes = set()
    for seed in range(6):
        session = Session(load_game("busstop", players=2), seed=seed, bots=queue_everything)
        session.run_to_end()
        for before, after in _round_ends(session):
            new_events = after.events()[len(before.events()) :]
            ended_with = len(before.boards[2].queue) + sum(
                1 for e in new_events if e.rule == "BSB-QUEUE" and e.data["participant"] == 2
            )
            sizes.add(ended_with)
            assert any(e.rule == "BSB-PROXY-PENALTY" for e in new_events) == (ended_with >= 14)
    assert 13 in sizes or 12 in sizes  # the seeds reach the edge


# -- options ------------------------------------------------------------------------------------------
def test_passenger_bonus_doubles_the_colour_sort_in_the_pile_only():
    """BSB-OPT-BONUS: with the passenger bonus, colour 2 (seat 2) favours girls: each girl in the
    score pile is worth 2 (player tiles too), the VIP girl 6; queue penalties stay as they were.
    (Passengers written onto a finished board.)"""
    for bonus, expected in ((False, 1 + 1 + 3 + 1 + 1 - 2), (True, 2 + 2 + 6 + 1 + 1 - 2)):
        state = _finished(players=3, passenger_bonus=bonus)
        _set_board(state, 2, pile=["Gi", (0, 5), "VGi", "Ba", "Ch"], queue=["Gi"])
        assert state.returns()[2] == expected
        assert sum(line["points"] for line in state.score_breakdown(2)) == expected
    assert any(line["rule"] == "BSB-OPT-BONUS" for line in state.score_breakdown(2))


@pytest.mark.parametrize(
    "seat, met, unmet",
    [
        (0, dict(pile=["Gi"]), dict(pile=["Gi"], penalty=["Ba"])),  # empty queue (penalty counts)
        (1, dict(pile=["VCh"]), dict(pile=["Ch"] * 5)),  # a VIP scored
        (2, dict(pile=["Ba", "Ch", "VGi", "Sa", (0, 9)]), dict(pile=["Ba", "Ch", "Gi", "Sa"])),  # all sorts
        (3, dict(extra=True), dict(extra=False)),  # third bus opened
        (4, dict(pile=["ET", "ET", "ET"]), dict(pile=["ET", "ET"], buses=(["ET"], (), ()))),  # 3 ETs scored
    ],
)
def test_end_bonus_requirements(seat, met, unmet):
    """BSB-OPT-ENDBONUS: colour i has requirement i, worth 5 at the end when met: empty queue
    (penalty tiles count as queued), a VIP scored, all five sorts scored (a VIP counts as its sort),
    the third bus opened, 3 ETs scored. (Passengers written onto a finished board.)"""
    state = _finished(players=5, end_bonus=True)
    _set_board(state, seat, **met)
    with_bonus = state.returns()[seat]
    assert any(
        line["rule"] == "BSB-OPT-ENDBONUS" and line["points"] == 5 for line in state.score_breakdown(seat)
    )
    _set_board(state, seat, **unmet)
    assert not any(line["rule"] == "BSB-OPT-ENDBONUS" for line in state.score_breakdown(seat))
    base = sum(line["points"] for line in state.score_breakdown(seat))
    assert state.returns()[seat] == base
    _set_board(state, seat, **met)
    assert state.returns()[seat] == with_bonus


def test_end_bonus_counts_only_at_the_end():
    """BSB-OPT-ENDBONUS: before the game is over nobody has the bonus yet (an empty queue at the start
    is not "met at the end")."""
    state = new(3, end_bonus=True)
    assert state.returns() == [0, 0, 0]
    state = _finished(players=3, end_bonus=True)
    _set_board(state, 0, pile=["Gi"])
    assert state.returns()[0] == 1 + 5


def test_options_combine_and_play_to_the_end():
    """BSB-OPT-BONUS, BSB-OPT-ENDBONUS: both options at once, every table size, every bot."""
    for players in (2, 3, 4, 5):
        game = load_game("busstop", players=players, passenger_bonus=True, end_bonus=True)
        for bot in ("random", "greedy", "bidder"):
            session = Session(game, seed=players, bots=bot)
            session.run_to_end()
            assert session.state.is_terminal()
            for seat in range(players):
                assert (
                    sum(x["points"] for x in session.state.score_breakdown(seat))
                    == session.state.returns()[seat]
                )


# -- hidden information and protocol details -------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_views_never_show_another_seats_unrevealed_tile(players):
    """BSB-ROUND-BID: across whole seeded games, while a tile is face down, no other seat's view (as
    JSON) contains it as that seat's bid, and the hand shown still holds it."""
    session = Session(load_game("busstop", players=players), seed=11, bots="bidder")
    session.run_to_end()
    for i in range(len(session)):
        state = session.state_at(i)
        if state.zone_holders:
            continue
        for k in range(state.participants):
            tile = state.bids[k]
            if tile is None or k == state.conductor:
                continue
            for seat in range(players):
                view = state.view(seat)
                if seat == k:
                    assert view["bids"][k] == {"state": "shown", "tile": tile}
                else:
                    assert view["bids"][k] == {"state": "hidden", "tile": None}
                    assert tile in view["boards"][k]["hand"]
                    assert json.dumps(view["bids"]).count("null") >= 1


def test_illegal_moves_explain_themselves():
    """BSB-ROUND-DISTRIBUTE, BSB-BOARD-SORT: a passenger the player does not have, or a bus of another
    sort, is refused with the reason and the legal moves, and the state is unchanged."""
    state = three_player_round_one()
    act(state, "take Seat 2's 3", "take Seat 1's 1", "girl to bus 1")
    before = json.dumps(state.view(None), sort_keys=True)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(PLACE_BASE + 4 * 0 + 0)  # a baby: seat 1 has none
    assert "has no baby waiting" in info.value.reason
    with pytest.raises(IllegalActionError, match="bus 1 carries girls"):
        state.apply_action(PLACE_BASE + 4 * 1 + 0)  # the child to bus 1
    assert json.dumps(state.view(None), sort_keys=True) == before


def test_games_are_bounded_and_seeded():
    """BSB-END: random games end within a fixed number of steps (10 rounds; every passenger is placed
    once and every boarding shortens a queue), and a seed fixes the game."""
    rng = random.Random(0)
    for players in (2, 3, 4, 5):
        for _ in range(3):
            seed = rng.randrange(10**6)
            a = Session(load_game("busstop", players=players), seed=seed, bots="random")
            b = Session(load_game("busstop", players=players), seed=seed, bots="random")
            assert a.run_to_end() == b.run_to_end()
            assert a.state.history() == b.state.history()
            passengers = 10 * (3 if players == 2 else players)
            tiles = 10 * (3 if players == 2 else players)
            assert len(a.state.history()) <= passengers * 3 + tiles * 4
