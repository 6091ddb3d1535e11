"""The Bus & Stop component sheet: every limit of its schema and every cross-field check, at the
limit (accepted) and one past it (refused, naming the field), on a small two-colour sheet.

Limits (BAS-COMP-PASSENGERS, BAS-COMP-DESTINATIONS, BAS-COMP-SIDES): 2-9 colours and types, 0-200
cards of a kind per colour, at least 5 cards (the bus stop, BAS-SETUP-STOP) of at least two colours
(BAS-SETUP-SAMECOLOUR), 1-10 stacks of 1-20 cards, more than 6 destination cards (BAS-END-TRIGGER),
counts increasing from 1 up to 10 seats (BAS-PICK-LIMIT), or up to the number of colours for a
multicoloured stack, and 0-1000 points per count.
"""

from __future__ import annotations

import copy

import pytest

from bus_lab.games.bus_and_stop.components import (
    ComponentSheetError,
    DestinationCard,
    load_sheet,
)

ONE_POINT = {"counts": [1], "points": [1]}
TINY = {
    "colours": [{"name": "yellow", "code": "Y"}, {"name": "green", "code": "G", "ink": "#009E73"}],
    "types": [{"name": "businessman", "code": "B"}, {"name": "senior", "code": "E", "senior": True}],
    "deck": {"businessman": 3, "senior": 1},
    "stacks": [{"name": "office", "kind": "type", "type": "businessman", "cards": [ONE_POINT] * 7}],
}


def tiny(**changes) -> dict:
    data = copy.deepcopy(TINY)
    data.update(copy.deepcopy(changes))
    return data


def refused(data: dict, message: str) -> None:
    with pytest.raises(ComponentSheetError) as info:
        load_sheet(data)
    assert str(info.value) == "component sheet, " + message


def office(cards: list[dict]) -> list[dict]:
    return [{"name": "office", "kind": "type", "type": "businessman", "cards": cards}]


def test_the_tiny_sheet():
    sheet = load_sheet(TINY)
    assert [(c.name, c.code, c.ink) for c in sheet.colours] == [
        ("yellow", "Y", "#999999"),  # the default ink
        ("green", "G", "#009E73"),
    ]
    assert [(t.name, t.code, t.senior) for t in sheet.types] == [
        ("businessman", "B", False),
        ("senior", "E", True),
    ]
    assert sheet.deck == (3, 1, 3, 1)  # kind = colour * 2 + type: YB, YE, GB, GE
    assert sheet.codes == ("YB", "YE", "GB", "GE")
    assert sheet.title == "Bus & Stop component sheet" and sheet.notes == ()
    (stack,) = sheet.stacks
    assert (stack.name, stack.kind, stack.type_index, stack.known) == ("office", "type", 0, "")
    assert stack.cards == (DestinationCard((1,), (1,)),) * 7
    assert sheet.to_dict() == TINY and sheet.to_dict() is not sheet.data


def test_the_table_of_the_tiny_sheet():
    assert load_sheet(TINY).table().splitlines() == [
        "Bus & Stop component sheet",
        "",
        "Passenger deck (BAS-COMP-PASSENGERS): 8 cards",
        "       " + "  businessman" + "       senior",
        " yellow" + " " * 12 + "3" + " " * 12 + "1",
        "  green" + " " * 12 + "3" + " " * 12 + "1",
        "",
        "Destination stacks (BAS-COMP-DESTINATIONS, BAS-COMP-SIDES): 7 cards; counts → points",
        "  office (7 cards, needs businessman passengers (any colours)):",
        *["      1 → 1"] * 7,
    ]


def test_names_are_read_without_case_or_outer_spaces():
    data = tiny(
        colours=[{"name": " yellow ", "code": "Y"}, {"name": "green", "code": "G"}],
        deck={" BusinessMan": {"YELLOW": 2, "green ": 4}, "Senior": 0},
        stacks=[{"name": " office ", "kind": "type", "type": "BUSINESSMAN ", "cards": [ONE_POINT] * 7}],
        title="My box",
        notes=["a note"],
    )
    sheet = load_sheet(data)
    assert sheet.colours[0].name == "yellow" and sheet.stacks[0].name == "office"
    assert sheet.deck == (2, 0, 4, 0) and sheet.stacks[0].type_index == 0
    assert sheet.title == "My box" and sheet.notes == ("a note",)


@pytest.mark.parametrize("count", [0, 200])
def test_cards_of_a_kind_per_colour_from_0_to_200(count):
    sheet = load_sheet(tiny(deck={"businessman": count, "senior": {"yellow": 200, "green": 200}}))
    assert sheet.deck == (count, 200, count, 200)


@pytest.mark.parametrize("count", [-1, 201])
def test_cards_of_a_kind_per_colour_outside_0_to_200(count):
    expected = (
        "must be a whole number from 0 to 200 (cards of each colour) or {colour name: whole number from 0 "
        "to 200}, not "
    )
    refused(tiny(deck={"businessman": count, "senior": 1}), f"field deck.businessman: {expected}{count}")
    per_colour = {"yellow": count, "green": 1}
    refused(tiny(deck={"businessman": 3, "senior": per_colour}), f"field deck.senior: {expected}{per_colour}")


def test_the_deck_needs_every_type_and_only_types_and_every_colour():
    refused(
        tiny(deck={"businessman": 3}), "field deck.senior: is missing: give the number of cards of every type"
    )
    refused(
        tiny(deck={"businessman": 3, "senior": 1, "pilot": 2}),
        "field deck.pilot: is not a passenger type: use businessman, senior",
    )
    refused(
        tiny(deck={"businessman": {"yellow": 3}, "senior": 1}),
        "field deck.businessman.green: is missing: give every colour",
    )
    refused(
        tiny(deck={"businessman": {"yellow": 3, "green": 3, "blue": 1}, "senior": 1}),
        "field deck.businessman.blue: is not a colour: use yellow, green",
    )


def test_at_least_five_cards_for_the_bus_stop():
    assert load_sheet(tiny(deck={"businessman": {"yellow": 3, "green": 2}, "senior": 0})).deck_size() == 5
    refused(
        tiny(deck={"businessman": {"yellow": 2, "green": 2}, "senior": 0}),
        "field deck: has 4 cards: the bus stop alone needs 5 (BAS-SETUP-STOP)",
    )


def test_cards_of_at_least_two_colours():
    # each colour has cards of its first type only: still two colours
    assert load_sheet(tiny(deck={"businessman": 3, "senior": 0})).colour_counts() == [3, 3]
    refused(
        tiny(deck={"businessman": {"yellow": 6, "green": 0}, "senior": {"yellow": 1, "green": 0}}),
        "field deck: has cards of fewer than two colours: the same-colour reshuffle (BAS-SETUP-SAMECOLOUR) "
        "needs at least two",
    )


def _named(prefix: str, n: int) -> list[dict]:
    return [{"name": f"{prefix}{i}", "code": str(i)} for i in range(n)]


def test_two_to_nine_colours():
    assert len(load_sheet(tiny(colours=_named("colour", 9))).colours) == 9
    refused(
        tiny(colours=_named("colour", 10)),
        "field colours: must be a list of 2 to 9 entries, not a list of 10 entries",
    )
    refused(
        tiny(colours=_named("colour", 1)),
        "field colours: must be a list of 2 to 9 entries, not [{'name': 'colour0', 'code': '0'}]",
    )


def test_two_to_nine_types():
    types = [
        {"name": "businessman", "code": "B"},
        *_named("type", 7),
        {"name": "senior", "code": "E", "senior": True},
    ]
    deck = {t["name"]: 1 for t in types}
    assert len(load_sheet(tiny(types=types, deck=deck)).types) == 9
    types.insert(0, {"name": "extra", "code": "X"})
    refused(
        tiny(types=types, deck={**deck, "extra": 1}),
        "field types: must be a list of 2 to 9 entries, not a list of 10 entries",
    )


def test_names_and_codes_are_unique():
    refused(
        tiny(types=[{"name": "Senior", "code": "B"}, {"name": "senior ", "code": "E", "senior": True}]),
        "field types[1].name: 'senior ' is used twice",
    )
    refused(
        tiny(colours=[{"name": "yellow", "code": "Y"}, {"name": "green", "code": "Y"}]),
        "field colours[1].code: 'Y' is used twice",
    )
    two = office([ONE_POINT] * 4) + [
        {"name": "Office", "kind": "type", "type": "businessman", "cards": [ONE_POINT] * 4}
    ]
    refused(tiny(stacks=two), "field stacks[1].name: 'Office' is used twice")


def test_one_senior_type_at_most():
    both = [
        {"name": "businessman", "code": "B", "senior": True},
        {"name": "senior", "code": "E", "senior": True},
    ]
    refused(
        tiny(types=both),
        "field types: marks more than one type as senior: at most one type sits beside the bus",
    )
    neither = [{"name": "businessman", "code": "B"}, {"name": "senior", "code": "E", "senior": False}]
    assert load_sheet(tiny(types=neither)).kind_senior == (False, False, False, False)
    refused(
        tiny(types=[{"name": "businessman", "code": "B", "senior": "yes"}, TINY["types"][1]]),
        "field types[0].senior: must be true or false, not 'yes'",
    )


@pytest.mark.parametrize("n", [1, 10])
def test_one_to_ten_stacks(n):
    stacks = [
        {"name": f"office{i}", "kind": "type", "type": "businessman", "cards": [ONE_POINT] * 7}
        for i in range(n)
    ]
    assert len(load_sheet(tiny(stacks=stacks)).stacks) == n


def test_eleven_stacks_or_none_are_refused():
    stacks = [
        {"name": f"office{i}", "kind": "type", "type": "businessman", "cards": [ONE_POINT]} for i in range(11)
    ]
    refused(tiny(stacks=stacks), "field stacks: must be a list of 1 to 10 entries, not a list of 11 entries")
    refused(tiny(stacks=[]), "field stacks: must be a list of 1 to 10 entries, not []")


def test_one_to_twenty_cards_a_stack():
    assert len(load_sheet(tiny(stacks=office([ONE_POINT] * 20))).stacks[0].cards) == 20
    refused(
        tiny(stacks=office([ONE_POINT] * 21)),
        "field stacks[0].cards: must be a list of 1 to 20 entries, not a list of 21 entries",
    )
    refused(
        tiny(stacks=office([]) + office([ONE_POINT] * 7)),
        "field stacks[0].cards: must be a list of 1 to 20 entries, not []",
    )


def test_more_destination_cards_than_the_end_trigger_leaves():
    assert load_sheet(tiny(stacks=office([ONE_POINT] * 7))).destination_count() == 7
    refused(
        tiny(stacks=office([ONE_POINT] * 6)),
        "field stacks: hold 6 destination cards: the game ends when 6 are left (BAS-END-TRIGGER), so use more "
        "than that",
    )


@pytest.mark.parametrize("points", [0, 1000])
def test_points_from_0_to_1000(points):
    card = (
        load_sheet(tiny(stacks=office([{"counts": [1, 2], "points": [points, points]}] * 7)))
        .stacks[0]
        .cards[0]
    )
    assert card.points == (points, points)


@pytest.mark.parametrize("points", [-1, 1001])
def test_points_outside_0_to_1000(points):
    refused(
        tiny(stacks=office([ONE_POINT] * 6 + [{"counts": [1, 2], "points": [1, points]}])),
        f"field stacks[0].cards[6].points[1]: must be a whole number from 0 to 1000, not {points}",
    )


def test_counts_increase_from_one_up_to_the_seats_of_a_bus():
    card = (
        load_sheet(tiny(stacks=office([ONE_POINT] * 6 + [{"counts": [1, 10], "points": [1, 2]}])))
        .stacks[0]
        .cards[6]
    )
    assert card.counts == (1, 10) and card.points_for(10) == 2
    seats = "a whole number of passengers from 1 to 10: a bus holds 10 passengers (BAS-PICK-LIMIT)"
    for counts, message in [
        ([], "field stacks[0].cards[6].counts: must be a list of at least 1 entry, not []"),
        ([2, 2], "field stacks[0].cards[6].counts: must increase, not [2, 2]"),
        ([3, 2], "field stacks[0].cards[6].counts: must increase, not [3, 2]"),
        ([0, 2], f"field stacks[0].cards[6].counts[0]: must be {seats}, not 0"),
        ([2, 11], f"field stacks[0].cards[6].counts[1]: must be {seats}, not 11"),
        ([1, 2, 3], "field stacks[0].cards[6].points: must list one number per count (3), not [1, 2]"),
    ]:
        refused(tiny(stacks=office([ONE_POINT] * 6 + [{"counts": counts, "points": [1, 2]}])), message)


def test_a_multicoloured_stack():
    multi = {
        "name": "multicoloured",
        "kind": "multicoloured",
        "cards": [{"counts": [2], "points": [3]}],
        "known": "?",
    }
    sheet = load_sheet(tiny(stacks=office([ONE_POINT] * 6) + [multi]))
    stack = sheet.stacks[1]
    assert (stack.kind, stack.type_index, stack.multicoloured, stack.known) == (
        "multicoloured",
        None,
        True,
        "?",
    )
    assert sheet.needs_text(stack) == "passengers of pairwise different colours (any types)"
    refused(
        tiny(stacks=office([ONE_POINT] * 6) + [{**multi, "cards": [{"counts": [3], "points": [3]}]}]),
        "field stacks[1].cards[0].counts: must lie between 1 and 2: there are 2 colours and 10 seats; got [3]",
    )
    refused(
        tiny(stacks=office([ONE_POINT] * 6) + [{**multi, "type": "businessman"}]),
        "field stacks[1].type: must be left out: a multicoloured stack takes passengers of pairwise different "
        "colours, not of one type, not 'businessman'",
    )


def test_a_stack_of_one_type_names_a_type_that_can_be_dropped_off():
    no_type = [{"name": "office", "kind": "type", "cards": [ONE_POINT] * 7}]
    refused(tiny(stacks=no_type), "field stacks[0].type: is missing")
    refused(
        tiny(stacks=[{**no_type[0], "type": "pilot"}]),
        "field stacks[0].type: must be a passenger type (businessman, senior), not 'pilot'",
    )
    refused(
        tiny(stacks=[{**no_type[0], "type": "Senior"}]),
        "field stacks[0].type: 'Senior' sits beside the bus (BAS-SENIOR) and cannot be dropped off",
    )
    refused(
        tiny(stacks=[{**no_type[0], "type": "businessman", "kind": "colour"}]),
        "field stacks[0].kind: must be one of 'type', 'multicoloured', not 'colour'",
    )
