"""Headless tests of the widgets' "Set up a position" mode: ``start=`` on each game's widget, New
game returning to the position, and the panel (copy the position, edit it, start from it)."""

from __future__ import annotations

import copy
import html
import json

import pytest

import bus_lab
from bus_lab.engine.errors import PositionError
from bus_lab.games.bus_and_stop.positions import EXAMPLE as BUS_AND_STOP
from bus_lab.games.bus_city.positions import EXAMPLE as BUS_CITY
from bus_lab.games.busstop.positions import EXAMPLE as BUSSTOP
from bus_lab.widgets import BusAndStopWidget, BusCityWidget, BusstopWidget, RideTheBusWidget

CASES = [
    pytest.param(BusAndStopWidget, "bus_and_stop", 2, BUS_AND_STOP, id="bus_and_stop"),
    pytest.param(BusstopWidget, "busstop", 3, BUSSTOP, id="busstop"),
    pytest.param(BusCityWidget, "bus_city", 2, BUS_CITY, id="bus_city"),
]


def canonical(name: str, players: int, position: dict) -> dict:
    """The position as the game gives it back once set up (its own order of lists and keys)."""
    return bus_lab.load_game(name, players=players).state_from_position(position).position()


@pytest.mark.parametrize(("cls", "name", "players", "position"), CASES)
def test_start_keyword_begins_at_the_position_and_new_game_returns_to_it(cls, name, players, position):
    w = cls(players=players, humans=(), seed=5, start=position)
    expected = canonical(name, players, position)
    assert w.session.position == 0 and w.session.start is not None
    assert w.session.state.position() == expected
    assert json.loads(w.position_text.value) == expected
    assert w.position_panel is not None and w.position_panel in w.widget.children
    assert not w.position_panel.is_open
    for _ in range(3):
        w.step()
        assert w.last_error is None, w.message_text
    assert w.session.position == 3
    w.reset()
    assert w.last_error is None, w.message_text
    assert w.session.position == 0
    assert w.session.state.position() == expected


@pytest.mark.parametrize(("cls", "name", "players", "position"), CASES)
def test_panel_round_trip_copy_start_same_position(cls, name, players, position):
    w = cls(players=players, humans=(0,), seed=2, start=position)
    w.copy_position()
    assert w.last_error is None, w.message_text
    text = w.position_text.value
    before = w.session
    w.position_start_button.click()
    assert w.last_error is None, w.message_text
    assert w.session is not before, "a new game is started"
    assert w.session.bots.keys() == before.bots.keys() and w.session.seed == before.seed
    assert w.session.state.position() == json.loads(text)
    assert json.loads(w.position_text.value) == json.loads(text)
    w.position_copy_button.click()
    assert json.loads(w.position_text.value) == json.loads(text)


def test_a_teacher_edits_the_json_and_starts_from_it():
    """Busstop: the nine passengers of the first board's queue moved to the second board's, in the
    text area; the message says the third bus must then be open, and with it open the game starts."""
    w = BusstopWidget(players=3, humans=(0,), seed=1, start=BUSSTOP)
    edited = json.loads(w.position_text.value)
    nine = edited["boards"][0]["queue"]
    edited["boards"][0]["queue"], edited["boards"][1]["queue"] = [], nine
    assert len(edited["boards"][1]["queue"]) == 9
    session = w.session
    w.position_text.value = json.dumps(edited)
    w.position_start_button.click()
    assert w.session is session and isinstance(w.last_error, PositionError)
    assert "field boards[1].extra_bus" in w.message_text, "nine in a queue opened the third bus"
    edited["boards"][1]["extra_bus"] = True
    expected = canonical("busstop", 3, edited)
    w.position_text.value = json.dumps(edited)
    w.position_start_button.click()
    assert w.last_error is None, w.message_text
    assert w.session.state.position() == expected
    assert len(w.session.state.position()["boards"][1]["queue"]) == 9
    w.step()
    w.reset()
    assert w.session.state.position() == expected


def test_bad_json_shows_the_json_error_and_changes_nothing():
    w = BusAndStopWidget(players=2, humans=(0,), seed=0, start=BUS_AND_STOP)
    session, state_position = w.session, w.session.state.position()
    text = '{"stage": "play",'
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    w.start_from_position(text)
    assert w.session is session and w.session.state.position() == state_position
    assert isinstance(w.last_error, json.JSONDecodeError)
    assert str(caught.value) in w.message_text
    assert w.position_text.value == text, "the teacher's text is kept to be fixed"


@pytest.mark.parametrize(("cls", "name", "players", "position"), CASES)
def test_impossible_position_shows_the_position_error_and_changes_nothing(cls, name, players, position):
    w = cls(players=players, humans=(0,), seed=0, start=position)
    session, here = w.session, w.session.state.position()
    bad = copy.deepcopy(here)
    bad["seats" if "seats" in bad else "boards"].append(copy.deepcopy(bad.get("seats", bad.get("boards"))[0]))
    game = bus_lab.load_game(name, players=players)
    with pytest.raises(PositionError) as caught:
        game.state_from_position(bad)
    w.position_text.value = json.dumps(bad)
    w.position_start_button.click()
    assert w.session is session and w.session.state.position() == here
    assert isinstance(w.last_error, PositionError)
    assert str(caught.value) in w.message_text


def test_missing_key_names_the_field():
    w = BusCityWidget(players=2, humans=(0,), seed=0, start=BUS_CITY)
    bad = json.loads(w.position_text.value)
    del bad["seat"]
    w.start_from_position(json.dumps(bad))
    assert isinstance(w.last_error, PositionError)
    assert "field seat: is missing" in w.message_text


@pytest.mark.parametrize(
    ("cls", "name", "players"),
    [
        pytest.param(BusAndStopWidget, "bus_and_stop", 2, id="bus_and_stop"),
        pytest.param(BusstopWidget, "busstop", 3, id="busstop"),
        pytest.param(BusCityWidget, "bus_city", 2, id="bus_city"),
    ],
)
def test_a_position_that_cannot_be_taken_now_says_where_one_can(cls, name, players):
    w = cls(players=players, humans=(), seed=4)
    for _ in range(200):
        try:
            w.session.state.position()
        except PositionError as exc:
            expected = str(exc)
            break
        w.step()
    else:
        pytest.fail("every state reached allowed a position")
    w.position_text.value = "edited"
    w.copy_position()
    assert w.position_text.value == expected
    assert expected in w.message_text and w.last_error is None
    session = w.session
    w.position_start_button.click()
    assert w.session is session and isinstance(w.last_error, json.JSONDecodeError)


def test_ride_the_bus_widget_starts_from_a_position_and_new_game_returns_to_it():
    """Ride the Bus positions (a Part 1 question) through the widget: ``start=`` and its panel."""
    from bus_lab import Session

    session = Session(bus_lab.load_game("ride_the_bus", players=2), seed=4, bots="best_odds")
    for _ in range(5):
        session.step()
    position = session.state.position()
    w = RideTheBusWidget(players=2, start=position, seed=9)
    assert w.session.state.position() == position
    assert w.position_panel is not None
    w.step()
    w.reset()
    assert w.session.state.position() == position
    assert all(child is not None for child in w.widget.children)


@pytest.mark.parametrize("factory", [BusCityWidget, "plain"])
def test_close_leaves_no_widget_of_the_panel(factory):
    from widget_helpers import widget_count

    from bus_lab.widgets import GameWidget

    before = widget_count()
    if factory == "plain":
        w = GameWidget(bus_lab.Session(bus_lab.load_game("bus_city", players=2), seed=1, start=BUS_CITY))
    else:
        w = factory(players=2, humans=(0,), seed=1, start=BUS_CITY)
    assert w.position_panel is not None
    w.close()
    assert widget_count() == before


@pytest.mark.parametrize(("cls", "name", "players", "position"), CASES)
def test_the_check_line_follows_the_text_as_it_is_typed(cls, name, players, position):
    """The line under the text area says, on every edit and before Start is pressed, whether a
    game can start from the text: ready, the JSON error with its line and column, the position
    error, or that the text is not a JSON object."""
    w = cls(players=players, humans=(0,), seed=3, start=position)
    session = w.session
    assert w.position_check_text().startswith("This is the position on the board now")
    w.position_text.value = json.dumps(w.session.state.position(), indent=1)  # the same, spaced otherwise
    assert w.position_check_text() == "Ready: press Start from this position."
    assert "Ready" in w.position_check.value

    cut = w.position_text.value[:-1]
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(cut)
    w.position_text.value = cut
    err = caught.value
    assert w.position_check_text().startswith(f"Not JSON yet, at line {err.lineno}, column {err.colno}: ")
    assert html.escape(w.position_check_text()) in w.position_check.value

    bad = copy.deepcopy(json.loads(w._position_words()))
    bad["seats" if "seats" in bad else "boards"].append(copy.deepcopy(bad.get("seats", bad.get("boards"))[0]))
    with pytest.raises(PositionError) as refused:
        bus_lab.load_game(name, players=players).state_from_position(bad)
    w.position_text.value = json.dumps(bad)
    assert w.position_check_text() == f"Cannot start from this: {refused.value}"

    w.position_text.value = "[1, 2]"
    assert w.position_check_text().startswith("Not a position: it must be a JSON object")
    assert w.session is session and w.last_error is None, "checking the text never starts or refuses a game"


def test_the_check_line_explains_a_sentence_where_no_position_can_be_taken():
    w = BusCityWidget(players=2, humans=(0,), seed=0)
    with pytest.raises(PositionError) as caught:
        w.session.state.position()
    assert w.position_text.value == str(caught.value)
    assert w.position_check_text().startswith("No position here yet")
    w.position_text.value += " edited"
    assert w.position_check_text() == (
        "Not JSON yet, at line 1, column 1: a value is missing (is there a comma too many before a ] or }?)."
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '{"round": 4\n "conductor": 1}',
            "at line 2, column 2: a comma (,) is missing, often at the end of the line before.",
        ),
        ('{"round" 4}', "at line 1, column 10: a colon (:) is missing after a name."),
        ('{"round": 4,}', 'at line 1, column 13: a name in double quotes is expected, as in "round"'),
        ('{"round": "four}', "at line 1, column 11: a text in double quotes is not closed."),
        ('{"round": 4} x', "at line 1, column 14: there is more after the end of the position."),
    ],
)
def test_the_check_line_says_a_json_mistake_in_plain_words(text, words):
    w = BusstopWidget(players=3, humans=(0,), seed=1, start=BUSSTOP)
    w.position_text.value = text
    assert w.position_check_text().startswith("Not JSON yet, ") and words in w.position_check_text()


def test_after_start_the_check_line_says_the_text_is_the_board():
    w = BusstopWidget(players=3, humans=(0,), seed=1, start=BUSSTOP)
    edited = json.loads(w.position_text.value)
    edited["conductor"] = 2
    w.position_text.value = json.dumps(edited)
    assert w.position_check_text() == "Ready: press Start from this position."
    w.position_start_button.click()
    assert w.last_error is None, w.message_text
    assert w.position_check_text().startswith("This is the position on the board now")
