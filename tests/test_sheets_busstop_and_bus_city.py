"""The component sheets of Busstop and BUS: the limits of their schemas and their cross-field checks,
at the limit (accepted) and past it (refused, naming the field and what is expected).

Busstop (BSB-COMP-ZONE, BSB-COMP-BOARD, BSB-COMP-PLAYERTILES, BSB-OPT-BONUS, BSB-OPT-ENDBONUS): a
zone for 3, 4 and 5 positions, 1 to 5 passengers a round (10 rounds from a stack of 50), every queue
slot with exactly one black arrow, a white icon on every position; 3 buses of 1-20 seats; a sort for
each player tile 1-10; 5 different sorts and 5 different requirements. Positions, arrows and buses
count from 1 in messages, colours from 0.

BUS (BUS-COMP-STREETS, BUS-COMP-PASSENGERS, BUS-GRID, BUS-START, BUS-FACEUP): 1-8 different colours,
exactly 12 street cards (a colour on destinations only, one bus stop at least), 2-60 passenger cards
of two different served colours, value and speed 1-9, ids unique and not words of the game.
"""

from __future__ import annotations

import pytest

from bus_lab.games.bus_city.components import default_sheet_dict
from bus_lab.games.bus_city.components import load_sheet as load_bus_sheet
from bus_lab.games.busstop.components import default_sheet_data
from bus_lab.games.busstop.components import load_sheet as load_busstop_sheet
from bus_lab.games.sheets import ComponentSheetError


def refused(load, data: dict, message: str) -> None:
    with pytest.raises(ComponentSheetError) as info:
        load(data)
    assert str(info.value) == "component sheet, field " + message


# -- Busstop ---------------------------------------------------------------------------------------------
def busstop(**changes) -> dict:
    data = default_sheet_data()
    data.update(changes)
    return data


def zone3(*positions, passengers=3, conductor=2) -> dict:
    zones = default_sheet_data()["zones"]
    zones["3"] = {
        "passengers": passengers,
        "conductor": conductor,
        "positions": [{"black": black, "white": True} for black in positions],
    }
    return busstop(zones=zones)


def test_busstop_packaged_sheet():
    sheet = load_busstop_sheet()
    assert sheet.bus_seats == (3, 4, 5)
    assert [sheet.tile_sort(n) for n in range(1, 11)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert sheet.passenger_bonus == (0, 1, 2, 3, 4)
    assert sheet.end_bonus == ("empty_queue", "vip_scored", "all_sorts", "third_bus", "three_ets")
    zone = sheet.zones[4]
    assert (zone.passengers, zone.conductor, zone.positions) == (4, 1, 4)
    assert zone.black == ((0,), (1, 2), (3,), ()) and zone.white == (True,) * 4


def test_busstop_arrows_may_point_anywhere_once_each():
    sheet = load_busstop_sheet(zone3([1, 2], [], [3], conductor=3))
    assert sheet.zones[3].black == ((0, 1), (), (2,)) and sheet.zones[3].conductor == 2
    sheet = load_busstop_sheet(zone3([1], [], [], passengers=1, conductor=1))
    assert sheet.zones[3].passengers == 1 and sheet.zones[3].conductor == 0


@pytest.mark.parametrize(
    "data, message",
    [
        (zone3([1], [2, 3], [4]), "zones.3.positions[3].black: queue slot 4 is not between 1 and 3"),
        (
            zone3([1], [2, 1], []),
            "zones.3.positions[2].black: queue slot 1 already has an arrow from position 1: every slot has exactly one",
        ),
        (
            zone3([1], [2], []),
            "zones.3.positions: queue slot(s) 3 have no arrow: every slot has exactly one (BSB-COMP-ZONE)",
        ),
        (
            zone3([], [], []),
            "zones.3.positions: queue slot(s) 1, 2, 3 have no arrow: every slot has exactly one (BSB-COMP-ZONE)",
        ),
        (
            zone3([1], [2, 0], [3]),
            "zones.3.positions[2].black[2]: must be a whole number of at least 1, not 0",
        ),
        (
            zone3([1], [2, 3], [], passengers=0),
            "zones.3.passengers: must be a whole number of passengers from 1 to 5: the passengers of 10 rounds come from the stack of 50 (BSB-ROUND-LINEUP), not 0",
        ),
        (zone3([1], [2, 3], [], conductor=0), "zones.3.conductor: must be a whole number from 1 to 3, not 0"),
        (zone3([1], [2, 3], [], conductor=4), "zones.3.conductor: must be a whole number from 1 to 3, not 4"),
        (
            zone3([1], [2, 3]),
            "zones.3.positions: must be a list of exactly 3 positions (one per player, the proxy bus counted), not a list of 2 entries",
        ),
        (
            zone3([1], [2, 3], [], []),
            "zones.3.positions: must be a list of exactly 3 positions (one per player, the proxy bus counted), "
            "not a list of 4 entries",
        ),
        (busstop(bus_seats=[3, 4, 21]), "bus_seats[3]: must be a whole number from 1 to 20, not 21"),
        (busstop(bus_seats=[0, 4, 5]), "bus_seats[1]: must be a whole number from 1 to 20, not 0"),
        (
            busstop(bus_seats=[3, 4, 5, 6]),
            "bus_seats: must be the seats of 3 buses (bus 1, bus 2, the third bus), e.g. [3, 4, 5], not [3, 4, 5, 6]",
        ),
        (
            busstop(passenger_bonus=["baby", "child", "girl", "salaryman"]),
            "passenger_bonus: must be 5 different sorts, one per colour 0-4 (BSB-OPT-BONUS), not ['baby', 'child', 'girl', 'salaryman']",
        ),
        (
            busstop(passenger_bonus=["baby", "child", "pilot", "salaryman", "granny"]),
            "passenger_bonus[2]: must be one of 'baby', 'child', 'girl', 'salaryman', 'granny', not 'pilot'",
        ),
        (
            busstop(end_bonus=["empty_queue"] * 5),
            "end_bonus: must be 5 different requirements, one per colour 0-4 (BSB-OPT-ENDBONUS), not a list of 5 entries",
        ),
    ],
)
def test_busstop_bad_sheets(data, message):
    refused(load_busstop_sheet, data, message)


def test_busstop_five_colours_have_five_bonus_tiles():
    sorts = ["baby", "child", "girl", "salaryman", "granny"]
    refused(
        load_busstop_sheet,
        busstop(passenger_bonus=[*sorts, "baby"]),
        "passenger_bonus: must be 5 different sorts, one per colour 0-4 (BSB-OPT-BONUS), not "
        "['baby', 'child', 'girl', 'salaryman', 'granny', 'baby']",
    )
    ends = ["empty_queue", "vip_scored", "all_sorts", "third_bus", "three_ets"]
    refused(
        load_busstop_sheet,
        busstop(end_bonus=ends[:4]),
        "end_bonus: must be 5 different requirements, one per colour 0-4 (BSB-OPT-ENDBONUS), not "
        "['empty_queue', 'vip_scored', 'all_sorts', 'third_bus']",
    )
    refused(
        load_busstop_sheet,
        busstop(end_bonus=[*ends, "fly"]),
        "end_bonus: must be 5 different requirements, one per colour 0-4 (BSB-OPT-ENDBONUS), not a list of 6 entries",
    )


def test_busstop_fields_of_objects():
    data = busstop()
    data["zones"]["3"]["positions"][0] = {"black": [1]}
    refused(load_busstop_sheet, data, "zones.3.positions[1].white: is missing")
    data["zones"]["3"]["positions"][0] = {"black": [1], "white": True, "red": 1}
    refused(
        load_busstop_sheet, data, "zones.3.positions[1].red: is not a field of a position: use black, white"
    )
    data = busstop()
    data["zones"]["3"]["passengers"] = 3.0
    refused(
        load_busstop_sheet,
        data,
        "zones.3.passengers: must be a whole number of passengers from 1 to 5: the passengers of 10 rounds come from the stack of 50 (BSB-ROUND-LINEUP), not 3.0",
    )
    data = busstop()
    data["zones"]["3"]["extra"] = 1
    refused(
        load_busstop_sheet,
        data,
        "zones.3.extra: is not a field of a zone: use passengers, conductor, positions",
    )
    data = busstop()
    del data["zones"]["5"]
    refused(load_busstop_sheet, data, "zones.5: is missing")
    data["zones"]["5"], data["zones"]["6"] = default_sheet_data()["zones"]["5"], {}
    refused(
        load_busstop_sheet,
        data,
        "zones.6: is not a field of the zones (one per number of positions: 2 players use 3 with the proxy "
        "bus): use 3, 4, 5",
    )
    data = busstop()
    del data["player_tiles"]["10"]
    refused(load_busstop_sheet, data, "player_tiles.10: is missing")
    data["player_tiles"]["10"], data["player_tiles"]["11"] = "baby", "baby"
    refused(
        load_busstop_sheet,
        data,
        "player_tiles.11: is not a field of the player tiles (1 to 10): use 1, 2, 3, 4, 5, 6, 7, 8, 9, 10",
    )


def test_busstop_limits_accepted():
    sheet = load_busstop_sheet(
        busstop(bus_seats=[1, 20, 20], passenger_bonus=["granny", "salaryman", "girl", "child", "baby"])
    )
    assert sheet.bus_seats == (1, 20, 20) and sheet.passenger_bonus == (4, 3, 2, 1, 0)
    zones = default_sheet_data()["zones"]
    zones["5"]["passengers"] = 5
    assert load_busstop_sheet(busstop(zones=zones)).zones[5].passengers == 5


def test_busstop_comments_and_number_keys():
    data = default_sheet_data()
    data["_about"] = "mine"
    data["zones"]["_about"] = "zones"
    data["zones"]["3"]["positions"][0]["_note"] = "first"
    data["zones"] = {int(k) if k.isdigit() else k: v for k, v in data["zones"].items()}
    data["player_tiles"] = {int(k): v for k, v in data["player_tiles"].items()}
    sheet = load_busstop_sheet(data)
    assert sheet.data == default_sheet_data() and sheet.zones == load_busstop_sheet().zones


# -- BUS -------------------------------------------------------------------------------------------------
def bus(**changes) -> dict:
    data = default_sheet_dict()
    data.update(changes)
    return data


def test_bus_packaged_sheet_round_trips():
    sheet = load_bus_sheet()
    assert load_bus_sheet(sheet.to_dict()) == sheet
    assert [(s.index, s.id) for s in sheet.streets[:2]] == [(0, "red"), (1, "orange")]
    assert sheet.streets[6].colour is None and sheet.streets[0].colour == "red"
    assert sheet.passengers[0].to_dict() == {
        "id": "red-pink",
        "colours": ["red", "pink"],
        "value": 1,
        "speed": 5,
    }
    assert sheet.title == "BUS placeholder component sheet"
    bare = {k: v for k, v in default_sheet_dict().items() if k not in ("title", "about")}
    assert (load_bus_sheet(bare).title, load_bus_sheet(bare).about) == ("custom component sheet", "")


def test_bus_limits_accepted():
    data = bus(colours=[*default_sheet_dict()["colours"], "c7", "c8"])
    assert len(load_bus_sheet(data).colours) == 8
    data = bus()
    data["passengers"] = data["passengers"][:2]
    data["passengers"][0].update(value=9, speed=9)
    data["passengers"][1].update(value=1, speed=1, id="x" * 24)
    sheet = load_bus_sheet(data)
    assert [(p.value, p.speed) for p in sheet.passengers] == [(9, 9), (1, 1)]
    data["passengers"] = [
        {"id": f"card{i}", "colours": ["red", "pink"], "value": 1, "speed": 1} for i in range(60)
    ]
    assert len(load_bus_sheet(data).passengers) == 60
    data["passengers"].append({"id": "card60", "colours": ["red", "pink"], "value": 1, "speed": 1})
    refused(
        load_bus_sheet,
        data,
        "passengers: must be a list of 2 to 60 passenger cards (2 lie face up, BUS-FACEUP), not a list of 61 entries",
    )


def _passenger(**changes) -> dict:
    return {"id": "new", "colours": ["red", "pink"], "value": 2, "speed": 3, **changes}


@pytest.mark.parametrize(
    "data, message",
    [
        (
            bus(colours=list("abcdefghi")),
            "colours: must be a list of 1 to 8 different colour names, not ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']",
        ),
        (
            bus(colours=["red", "red"]),
            "colours: must be a list of 1 to 8 different colour names, not ['red', 'red']",
        ),
        (bus(colours=[]), "colours: must be a list of 1 to 8 different colour names, not []"),
        (
            bus(colours=["red one"]),
            "colours[0]: must be a colour name (letters, digits, '-' or '_'), not 'red one'",
        ),
        (
            bus(passengers=[_passenger()]),
            "passengers: must be a list of 2 to 60 passenger cards (2 lie face up, BUS-FACEUP), not a list of 1 entry",
        ),
        (
            bus(passengers=[_passenger(), _passenger(id="x", value=10)]),
            "passengers[1].value: must be a whole number from 1 to 9, not 10",
        ),
        (
            bus(passengers=[_passenger(), _passenger(id="x", speed=0)]),
            "passengers[1].speed: must be a whole number from 1 to 9, not 0",
        ),
        (
            bus(passengers=[_passenger(), _passenger(id="x", speed=10)]),
            "passengers[1].speed: must be a whole number from 1 to 9, not 10",
        ),
        (
            bus(passengers=[_passenger(), _passenger()]),
            "passengers[1].id: 'new' is used twice; every card needs its own id",
        ),
        (
            bus(passengers=[_passenger(), _passenger(id="stop1")]),
            "passengers[1].id: 'stop1' is also a colour, a street card or a word of the game; choose another id",
        ),
        (
            bus(passengers=[_passenger(id="pass"), _passenger(id="x")]),
            "passengers[0].id: 'pass' is also a colour, a street card or a word of the game; choose another id",
        ),
        (
            bus(passengers=[_passenger(id="pink"), _passenger(id="x")]),
            "passengers[0].id: 'pink' is also a colour, a street card or a word of the game; choose another id",
        ),
        (
            bus(passengers=[_passenger(id="x" * 25), _passenger()]),
            "passengers[0].id: must be a short id: 1-24 letters, digits, '-' or '_', starting with a letter or digit, not '"
            + "x" * 25
            + "'",
        ),
        (
            bus(passengers=[_passenger(id="-x"), _passenger()]),
            "passengers[0].id: must be a short id: 1-24 letters, digits, '-' or '_', starting with a letter or digit, not '-x'",
        ),
        (
            bus(passengers=[_passenger(colours=["red", "pink", "blue"]), _passenger(id="x")]),
            "passengers[0].colours: must be two different colours: a passenger card shows two passengers of different colours, not ['red', 'pink', 'blue']",
        ),
        (
            bus(passengers=[_passenger(colours=["red", "mauve"]), _passenger(id="x")]),
            "passengers[0].colours[1]: 'mauve' is not one of the colours red, orange, yellow, green, blue, pink",
        ),
        (
            bus(passengers=[_passenger(x=1), _passenger(id="x")]),
            "passengers[0].x: is not a field of a passenger card: use id, colours, value, speed",
        ),
    ],
)
def test_bus_bad_sheets(data, message):
    refused(load_bus_sheet, data, message)


def test_bus_a_passenger_card_shows_two_colours():
    refused(
        load_bus_sheet,
        bus(passengers=[_passenger(colours=["red"]), _passenger(id="x")]),
        "passengers[0].colours: must be two different colours: a passenger card shows two passengers of "
        "different colours, not ['red']",
    )


def test_bus_cards_by_id():
    sheet = load_bus_sheet()
    assert sheet.street_by_id("stop2").index == 7 and sheet.street_by_id("red").index == 0
    assert sheet.passenger_by_id("green-blue").index == 5 and sheet.passenger_by_id("red-pink").index == 0
    with pytest.raises(KeyError, match="no street card 'stop9': the street cards are red, orange"):
        sheet.street_by_id("stop9")
    with pytest.raises(
        KeyError, match="no passenger card 'red': the passenger cards are red-pink, orange-blue"
    ):
        sheet.passenger_by_id("red")


def test_bus_streets():
    data = bus()
    data["streets"].append({"id": "plain3", "symbol": "plain"})
    refused(
        load_bus_sheet,
        data,
        "streets: must be exactly 12 street cards: the grid has 12 street slots (BUS-GRID), not a list of 13 entries",
    )
    data = bus()
    data["streets"][6]["colour"] = "red"
    refused(
        load_bus_sheet,
        data,
        "streets[6].colour: must be left out: only a destination has a colour, not 'red'",
    )
    data = bus()
    del data["streets"][0]["colour"]
    refused(load_bus_sheet, data, "streets[0].colour: is missing")
    data["streets"][0] = {"id": "red", "symbol": "destination", "colour": "red", "side": "N"}
    refused(load_bus_sheet, data, "streets[0].side: is not a field of a street card: use id, symbol, colour")
    data = bus()
    data["streets"][0] = {"id": "red", "symbol": "plain"}  # no red destination any more
    refused(
        load_bus_sheet,
        data,
        "passengers[0].colours[0]: no street card is a red destination, so this passenger could never be "
        "dropped off",
    )
    data = bus()
    data["streets"][6] = {"id": "x" * 24, "symbol": "site"}
    assert load_bus_sheet(data).streets[6].describe() == "construction site"
