"""Details of BUS (the city grid game) rules seen through event data, views and the notation.

Scenarios use the grid of ``test_bus_city_rules.py`` (or that grid with two cards exchanged, said
where it is); expected values are worked out from the rules and that picture.
"""

from __future__ import annotations

import pytest
from test_bus_city_rules import LAYOUT, chance, do, events, give_hand, labels, new_state, put_bus, started

import bus_lab
from bus_lab import IllegalActionError
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.phases import BusCityPhase

#: The lesson grid with the construction site and the blue destination exchanged: the site on
#: a1-a2 with its symbol on the E side, blue on b1-b2 (E).
SITE_WEST = [*LAYOUT[:2], "site/E", "blue/E", *LAYOUT[4:]]


# -- challenging play: the side of the street at the end of a move (BUS-CH-SIDE) -------------------
def test_site_is_used_only_from_its_side_of_the_street():
    """BUS-CH-SIDE: the site on a1-a2 lies on the E side. Heading N on a vertical street the
    right-hand side is E: usable. Heading S the right-hand side is W: not usable, and the turn ends."""
    north = started(layout=SITE_WEST, challenging=True)
    put_bus(north, 0, "a2-b2 W")  # ahead a2: a1-a2 N or a2-a3 S
    do(north, "a1-a2 N")
    assert north.decision_kind() is BusCityPhase.CONSTRUCTION and north.current_player() == 0
    south = started(layout=SITE_WEST, challenging=True)
    put_bus(south, 0, "a1-b1 W")  # ahead a1: only a1-a2 S
    mark = len(south.events())
    do(south, "a1-a2 S")
    assert south.decision_kind() is BusCityPhase.MOVE and south.current_player() == 1
    far = events(south, "BUS-CH-SIDE", mark)
    assert [e.data for e in far] == [{"what": "site", "seat": 0, "slot": "a1-a2"}]
    assert far[0].text == (
        "The construction site on a1-a2 is on the other side of the street: it cannot be used from here."
    )
    basic = started(layout=SITE_WEST)
    put_bus(basic, 0, "a1-b1 W")
    do(basic, "a1-a2 S")  # the basic game ignores the side
    assert basic.decision_kind() is BusCityPhase.CONSTRUCTION


def test_bus_stop_is_used_only_from_its_side_of_the_street():
    """BUS-CH-SIDE: stop3 on a3-b3 lies on the N side. Heading W on a horizontal street the
    right-hand side is N: a pick-up. Heading E it is S: no pick-up."""
    west = started(challenging=True)
    put_bus(west, 0, "b3-c3 W")  # ahead b3: a3-b3 W or b2-b3 N
    do(west, "a3-b3 W")
    assert west.decision_kind() is BusCityPhase.PICKUP
    mark = len(west.events())
    assert [e.data for e in events(west, "BUS-ONE-ACTION", mark - 1)] == [
        {"what": "at_stop", "seat": 0, "slot": "a3-b3"}
    ]
    east = started(challenging=True)
    put_bus(east, 0, "a2-a3 S")  # ahead a3: only a3-b3 E
    mark = len(east.events())
    do(east, "a3-b3 E")
    assert east.decision_kind() is BusCityPhase.MOVE and east.current_player() == 1
    assert [e.data for e in events(east, "BUS-CH-SIDE", mark)] == [
        {"what": "stop", "seat": 0, "slot": "a3-b3"}
    ]
    assert events(east, "BUS-CH-SIDE", mark)[0].text == (
        "The bus stop on a3-b3 is on the other side of the street: no pick-up from here."
    )


def test_symbols_work_from_both_sides_in_the_basic_game():
    """BUS-CH-SIDE applies in challenging play only."""
    state = started()
    assert all(state.symbol_usable(s, h) for s in range(G.NUM_SLOTS) for h in (0, 1))
    hard = started(challenging=True)
    # b1-c1 has red on N: usable heading W (right-hand side N), not heading E
    assert hard.symbol_usable(G.SLOT_INDEX["b1-c1"], 1) and not hard.symbol_usable(G.SLOT_INDEX["b1-c1"], 0)


# -- drop-offs and progress ------------------------------------------------------------------------
def test_a_destination_drops_off_only_the_cards_with_its_colour():
    """BUS-DROPOFF, BUS-PROGRESS: with red-pink and yellow-green in progress, the red destination
    drops the red passenger only: yellow-green keeps both its passengers."""
    state = started()
    give_hand(state, 0, held=[("red-pink", []), ("yellow-green", [])])
    mark = len(state.events())
    do(state, "b1-c1 E drop red")
    drops = events(state, "BUS-DROPOFF", mark)
    assert [e.data for e in drops] == [{"seat": 0, "card": "red-pink", "colour": "red", "slot": "b1-c1"}]
    assert drops[0].text == "Seat 0 drops off the red passenger of red-pink at b1-c1."
    seat = state.view()["seats"][0]
    assert [(c["id"], c["dropped"]) for c in seat["half"]] == [("red-pink", ["red"])]
    assert [(c["id"], c["dropped"]) for c in seat["picked_up"]] == [("yellow-green", [])]
    assert sorted(seat["waiting"]) == ["green", "pink", "yellow"]


def test_passing_the_starting_card_is_recorded_with_its_slot():
    """BUS-MOVE-END: a1-a2 S is entered only from a1, so a bus on a1-b1 E passes a1-b1 (heading W)."""
    state = started()
    give_hand(state, 0, held=[])
    mark = len(state.events())
    do(state, "a1-a2 S")
    passed = events(state, "BUS-MOVE-END", mark)
    assert [e.data for e in passed] == [{"seat": 0, "slot": "a1-b1"}]
    assert passed[0].text == (
        "Seat 0 passes its starting card a1-b1; that is allowed as long as the move does not end there."
    )


def test_completing_a_card_is_recorded_with_its_value_and_count():
    """BUS-PROGRESS: red-pink with pink already dropped completes at the red destination."""
    state = started()
    give_hand(state, 0, held=[("red-pink", ["pink"])], complete=["yellow-green"])
    mark = len(state.events())
    do(state, "b1-c1 E drop red")
    done = events(state, "BUS-PROGRESS", mark)
    value = state.sheet.passenger_by_id("red-pink").value
    assert [e.data for e in done] == [{"seat": 0, "card": "red-pink", "value": value, "complete": 2}]
    assert state.complete[0][-1] == state.sheet.passenger_by_id("red-pink").index
    assert state.held[0] == []


# -- the end ---------------------------------------------------------------------------------------
def test_win_data_names_the_winners_the_tie_and_the_complete_cards():
    """BUS-WIN: the most points win; on a tie of points, the most complete cards."""
    for seed in range(40):
        session = bus_lab.Session(bus_lab.load_game("bus_city", players=2), seed=seed, bots="greedy")
        session.run_to_end()
        state = session.state
        (win,) = events(state, "BUS-WIN")
        scores = state.returns()
        assert win.data["best"] == max(scores)
        assert win.data["tied"] == [s for s in (0, 1) if scores[s] == max(scores)]
        assert win.data["complete"] == [len(state.complete[0]), len(state.complete[1])]
        assert win.data["winners"] == state.winners()
        scored = events(state, "BUS-SCORE")
        assert [e.data["seat"] for e in scored] == [0, 1]
        for e in scored:
            cards = state.complete[e.data["seat"]]
            assert e.data["values"] == [state.sheet.passengers[c].value for c in cards]
            assert e.data["points"] == sum(e.data["values"])


# -- notation --------------------------------------------------------------------------------------
def test_a_street_card_already_laid_is_refused_by_its_label():
    """BUS-SETUP: a label naming a street card already on the grid names that card, either side."""
    state = bus_lab.load_game("bus_city").new_initial_state()
    chance(state, "stop1/S")  # a1-b1
    for label in ("stop1/S", "stop1/N", "STOP1/e", "stop1/w"):
        with pytest.raises(IllegalActionError, match="the street card stop1 is already on the grid"):
            state.string_to_action(label)
    chance(state, "red/N")  # b1-c1
    chance(state, "blue/E")  # a1-a2
    with pytest.raises(IllegalActionError, match="blue is already on the grid"):
        state.string_to_action("blue/E")
    with pytest.raises(IllegalActionError, match="no move has that name"):
        state.string_to_action("blue/X")
    with pytest.raises(IllegalActionError, match="no move has that name"):
        state.string_to_action("bus/S")


def test_a_passenger_card_not_in_the_deck_is_refused_by_its_label():
    """BUS-FACEUP: a card face up is not in the deck."""
    state = new_state(faceup=("red-pink",))
    assert state.phase() is BusCityPhase.FACEUP
    with pytest.raises(IllegalActionError, match="red-pink is not in the deck"):
        state.string_to_action("RED-PINK")


@pytest.mark.parametrize(
    "label",
    [
        "swap a1-b1 zz",
        "swap zz a1-b1",
        "swap a1-b1",
        "swap a1-b1 b2-c2 sides",
        "swap a1-b1 b2-c2 sides n x",
        "swap a1-b1 b2-c2 ways n s",
        "turn zz",
        "turn",
        "start zz e",
        "start a1-b1 x",
        "start a1-b1",
        "take nobody",
        "take",
        "a1-b1 x",
        "zz e",
        "a1-b1 e drop purple",
        "a1-b1 e drop",
        "a1-b1 e pick red",
        "a1-b1 e drop red extra",
    ],
)
def test_labels_of_no_move_are_refused_as_such(label):
    state = started()
    with pytest.raises(IllegalActionError, match="no move has that name"):
        state.string_to_action(label)


def test_construction_labels_legal_or_not():
    """BUS-CONSTRUCTION: swaps named in grid order, of cards with no bus, each keeping its side."""
    state = started()
    do(state, "b1-b2 S")
    assert state.decision_kind() is BusCityPhase.CONSTRUCTION
    assert state.string_to_action("SWAP b1-c1 B2-B3") == state.string_to_action("swap b1-c1 b2-b3")
    for label, reason in [
        ("swap b2-b3 b1-c1", "in grid order"),
        ("swap b2-c2 a3-b3", "a bus is on a3-b3"),
        ("swap a1-b1 b1-b2", "a bus is on b1-b2"),
        ("swap b1-c1 b2-b3 sides s w", "keeps its orientation"),
        ("turn b1-c1", "challenging play only"),
        ("b1-c1 e", "choose two street cards to swap, or pass"),
    ]:
        with pytest.raises(IllegalActionError) as caught:
            state.string_to_action(label)
        assert reason in caught.value.reason, (label, caught.value.reason)
    hard = started(challenging=True)
    do(hard, "b1-b2 N")
    with pytest.raises(
        IllegalActionError, match="a bus is on a3-b3: only a card with no bus on it can be turned"
    ):
        hard.string_to_action("turn a3-b3")
    assert hard.string_to_action("swap b1-c1 b2-c2 sides s n") in hard.legal_actions()


def test_labels_at_the_start_legal_or_not():
    """BUS-START: a bus starts on a bus stop; a face-up card is taken by its id."""
    state = new_state()
    with pytest.raises(
        IllegalActionError, match="a bus starts on a bus stop, and b1-c1 E is a red destination"
    ):
        state.string_to_action("start b1-c1 E")
    with pytest.raises(IllegalActionError, match="must place the bus on a bus stop first"):
        state.string_to_action("take red-pink")
    do(state, "start a1-b1 E")
    with pytest.raises(IllegalActionError, match="green-blue is not one of the face-up passenger cards"):
        state.string_to_action("take green-blue")
    assert labels(state) == ["draw blind", "take red-pink", "take yellow-green"]


def test_ending_on_the_starting_card_is_refused_with_its_reason():
    """BUS-MOVE-END: from b2-c2 E no move ends on b2-c2, either heading; the reason names the card."""
    state = started()
    give_hand(state, 0, held=[])  # no speed limit: both headings on b2-c2 are a loop away
    put_bus(state, 0, "b2-c2 E")
    assert not any(label.startswith("b2-c2") for label in labels(state))
    for label in ("b2-c2 W", "b2-c2 E", "b2-c2 W drop red"):
        with pytest.raises(IllegalActionError) as caught:
            state.string_to_action(label)
        assert caught.value.reason == (
            "a bus may pass its starting card b2-c2 but may not end its move there (BUS-MOVE-END)"
        )


def test_side_of_the_street_drop_off_events_carry_the_sides():
    """BUS-CH-SIDE: red on b1-c1 lies on the N side: heading E (right-hand side S) no drop-off;
    heading W (right-hand side N) the drop-off counts."""
    state = started(challenging=True)
    mark = len(state.events())
    do(state, "b1-c1 E")
    assert [e.data for e in events(state, "BUS-CH-SIDE", mark)] == [
        {"what": "no_dropoff", "seat": 0, "slot": "b1-c1", "colour": "red", "heading": "E", "side": "N"}
    ]
    other = started(challenging=True)
    put_bus(other, 0, "c1-c2 N")
    mark = len(other.events())
    do(other, "b1-c1 W drop red")
    assert [e.data for e in events(other, "BUS-CH-SIDE", mark)] == [
        {"what": "dropoff", "seat": 0, "colour": "red", "side": "N"}
    ]
    assert events(other, "BUS-CH-SIDE", mark)[0].text == (
        "The red destination is on the bus's right-hand side (N), so it counts."
    )


def test_construction_events_carry_the_cards_and_sides():
    """BUS-CONSTRUCTION, BUS-CH-ROTATE: a swap names both slots and the cards arriving on them;
    a turn names the card and its new side."""
    state = started()
    do(state, "b1-b2 S")
    mark = len(state.events())
    do(state, "swap b1-c1 b2-b3")
    swap, flip = events(state, "BUS-CONSTRUCTION", mark)
    assert swap.data == {
        "what": "swap",
        "seat": 0,
        "slots": ["b1-c1", "b2-b3"],
        "cards": ["pink", "red"],
        "sides": None,
    }
    assert swap.text == (
        "Seat 0 swaps the street cards of b1-c1 and b2-b3: pink to b1-c1, red to b2-b3 "
        "(each keeps its orientation)."
    )
    assert flip.data == {"what": "flip", "seat": 0}
    hard = started(challenging=True)
    do(hard, "b1-b2 N")
    mark = len(hard.events())
    do(hard, "swap b1-c1 b2-c2 sides S N")
    assert events(hard, "BUS-CONSTRUCTION", mark)[0].data["sides"] == ["S", "N"]
    assert [e.data["what"] for e in events(hard, "BUS-CH-ROTATE", mark)] == ["swap_sides"]
    turned = started(challenging=True)
    do(turned, "b1-b2 N")
    mark = len(turned.events())
    do(turned, "turn b1-c1")
    assert [e.data for e in events(turned, "BUS-CH-ROTATE", mark)] == [
        {"what": "turn", "seat": 0, "slot": "b1-c1", "card": "red", "side": "S"}
    ]
    assert turned.site_used == [True, False]
