"""People's names in every text a class table's pages show, and one seat numbering everywhere."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bus_lab.table.frames import SEAT_PHRASE, name_seats, seat_names
from bus_lab.table.table import Table

NAMES = ["Ana", "Ben", "Cy", "Dee"]
GAMES = [
    ("ride_the_bus", {"players": 3}),
    ("bus_and_stop", {"players": 3}),
    ("busstop", {"players": 2}),
    ("busstop", {"players": 3}),
    ("bus_city", {"players": 3}),
]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Seat 1 draws.", "Ana draws."),
        ("Seat 1's tile 7", "Ana's tile 7"),
        ("give to seat 1", "give to Ana"),
        ("Seat 10 and Seat 1", "Seat 10 and Ana"),
        ("Seat 12", "Seat 12"),
        ("seats 0 to 3; seat 0, seat 1, the proxy bus", "seats 0 to 3; Seat 0, Ana, the proxy bus"),
        ("Seat 2 is played by the bot", "Seat 2 is played by the bot"),
        ("Seat 3 waits for Seat 1", "Seat 3 (2) waits for Ana"),
        ("Seat 1: 7 points", "Ana: 7 points"),
        ("Seats 1", "Seats 1"),
        ("Seat 1x", "Seat 1x"),
        ("", ""),
    ],
)
def test_a_seat_phrase_is_replaced_exactly(text, named):
    names = {1: "Ana", 3: "Seat 3 (2)"}
    assert name_seats(text.replace("Seat 0, ", "seat 0, ", 1), names).replace("seat 0", "Seat 0") == named


def test_names_are_replaced_once_even_when_a_name_looks_like_a_seat():
    assert name_seats("Seat 0 then Seat 1", {0: "Seat 1 fan", 1: "Bo"}) == "Seat 1 fan then Bo"
    assert name_seats("Seat 0", {0: r"\1 $0 \g<0>"}) == r"\1 $0 \g<0>"


def test_only_seats_people_took_are_named():
    table = Table(
        "ABCDE", game="ride_the_bus", options={"players": 4}, people=[True, True, True, False], seed=3
    )
    table.join("Ana")
    assert seat_names(table) == {0: "Ana"}  # seat 1 and 2 wait for people, seat 3 is a bot
    table.start()
    assert seat_names(table) == {0: "Ana"}
    table.set_bot(0, True)  # the bot plays for Ana: it is still Ana's seat
    assert seat_names(table) == {0: "Ana"}


def texts(frame: dict[str, Any]) -> dict[str, list[str]]:
    """Every text of a frame outside the view, by kind."""
    scores = frame["scores"]
    return {
        "status": [frame["status"]["last"], frame["status"]["now"]],
        "heading": [frame["heading"]],
        "hint": [frame["status"]["hint"]],
        "prompt": [frame["prompt"]],
        "log": [e["text"] for e in frame["log"]["events"]],
        "move label": [m["label"] for m in frame["moves"]] + [m["choice"] or "" for m in frame["moves"]],
        "move hint": [m["hint"] or "" for m in frame["moves"]],
        "blocked": list(frame["blocked"].values()),
        "scores": [scores["result"], scores["summary"]]
        + [r["name"] for r in scores["rows"]]
        + [c for r in scores["rows"] for c in r["cells"]],
        "message": [frame["message"]["text"]] if frame["message"] else [],
        "holding": [frame["table"]["holding"] or ""],
        "board status": [frame["view"].get("status", "")],
    }


def left_over(text: str, people: set[int]) -> list[str]:
    return [m.group(0) for m in SEAT_PHRASE.finditer(text) if int(m.group(1)) in people]


def positions(table: Table, rng: random.Random):
    """Play to the end through the table (random moves of the mover's own frame, the host's
    Continue when it holds), yielding at every position."""
    for _ in range(5000):
        yield
        if table.phase != "playing":
            return
        if table.run_automatic():
            table.changed()
            continue
        if table.holding() is not None:
            table.continue_()
            table.changed()
            continue
        movers = [s for s in range(len(table.seats)) if table.seat_frame(s)["moves"]]
        assert movers, "the game waits for nobody"
        frame = table.seat_frame(movers[0])
        table.move(movers[0], rng.choice(frame["moves"])["action"], frame["seq"])
        table.changed()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_text_names_the_people_not_their_seat_numbers(game, options):
    players = options["players"]
    table = Table("ABCDE", game=game, options=options, seed=11)
    for name in NAMES[:players]:
        table.join(name)
    table.start()
    table.changed()
    rng = random.Random(5)
    people = set(range(players))
    seen: dict[str, int] = {}
    for _ in positions(table, rng):
        frames = [table.projector_frame(), table.host_frame()] + [table.seat_frame(s) for s in range(players)]
        for frame in frames:
            for kind, found in texts(frame).items():
                for text in found:
                    assert not left_over(text, people), (kind, text)
                    if any(name in text for name in NAMES[:players]):
                        seen[kind] = seen.get(kind, 0) + 1
            if frame["moves"]:
                assert frame["prompt"] == f"Your move, {NAMES[frame['table']['you']]}:"
    assert table.state().is_terminal()
    assert {"status", "hint", "prompt", "log", "scores", "board status"} <= set(seen), seen
    # the seat strip keeps its own names and seat numbers
    assert [s["name"] for s in table.seat_frame(0)["seats"]] == NAMES[:players]


def test_each_kind_of_text_shows_a_name_in_some_game():
    """Headings, move labels and hints, and blocked reasons name seats only in some games."""
    seen: set[str] = set()
    for game, options in GAMES:
        players = options["players"]
        table = Table("ABCDE", game=game, options=options, seed=2)
        for name in NAMES[:players]:
            table.join(name)
        table.start()
        for _ in positions(table, random.Random(1)):
            for s in range(players):
                for kind, found in texts(table.seat_frame(s)).items():
                    if any(name in text for text in found for name in NAMES[:players]):
                        seen.add(kind)
    assert {
        "status",
        "heading",
        "hint",
        "prompt",
        "log",
        "move label",
        "move hint",
        "blocked",
        "scores",
    } <= seen, seen


def test_bot_seats_keep_their_seat_number():
    table = Table("ABCDE", game="bus_and_stop", options={"players": 3}, people=[True, False, False], seed=4)
    table.join("Ana")
    table.start()
    table.run_automatic()
    frame = table.projector_frame()
    every = " ".join(t for found in texts(frame).values() for t in found)
    assert "Seat 1" in every or "Seat 2" in every
    assert not left_over(every, {0})
    assert [s["name"] for s in frame["seats"]] == ["Ana", "Seat 1", "Seat 2"]


def test_presence_listeners_hear_of_pages_without_a_new_version():
    table = Table("ABCDE", game="ride_the_bus", options={"players": 2})
    heard: list[str] = []
    table.add_listener(lambda t: heard.append("changed"))
    table.add_presence_listener(lambda t: heard.append("presence"))
    table.add_presence_listener(lambda t: 1 / 0)  # a failing listener does not stop the others
    table.add_presence_listener(lambda t: heard.append("presence 2"))
    version = table.version
    table.presence_changed()
    assert heard == ["presence", "presence 2"] and table.version == version
    table.changed()
    assert heard[-1] == "changed" and table.version == version + 1
    table.remove_presence_listener(table._presence_listeners[0])
    table.remove_presence_listener(print)  # not added: ignored
    heard.clear()
    table.presence_changed()
    assert heard == ["presence 2"]


def test_the_host_frame_has_every_games_options_with_their_players():
    from bus_lab.engine.registry import load_game, registered_games
    from bus_lab.table.table import options_schema

    frame = Table("ABCDE", game="ride_the_bus").host_frame()
    games = {g["name"]: g for g in frame["games"]}
    assert set(games) == set(registered_games())
    for name, entry in games.items():
        assert entry["params"] == options_schema(name)
        players = next(p for p in entry["params"] if p["name"] == "players")
        assert players["default"] == load_game(name).num_players
        assert players["bounds"] is not None or players["choices"] is not None
        assert "sheet" not in {p["name"] for p in entry["params"]}
    bus = {p["name"]: p for p in games["bus_city"]["params"]}
    assert bus["empty_speed"]["choices"] == [None, 5] and bus["empty_speed"]["default"] is None
    assert frame["options_schema"] == games["ride_the_bus"]["params"]


@pytest.mark.parametrize(
    ("game", "options", "says"),
    [
        ("bus_city", {"sheet": "/etc/passwd"}, "'sheet' cannot be set at a class table"),
        ("busstop", {"sheet": None}, "'sheet' cannot be set at a class table"),
        ("ride_the_bus", {"colour": 3}, "has no option 'colour'"),
    ],
)
def test_configure_refuses_options_a_table_may_not_set(game, options, says):
    from bus_lab.table.table import TableError

    table = Table("ABCDE", game="ride_the_bus", options={"players": 3})
    table.join("Ana")
    before = (table.game_name, dict(table.options), [(s.name, s.kind) for s in table.seats])
    with pytest.raises(TableError, match=says):
        table.configure(game, options, [True, True])
    assert (table.game_name, dict(table.options), [(s.name, s.kind) for s in table.seats]) == before
    with pytest.raises(TableError, match=says):
        Table("ABCDE", game=game, options=options)
    # options with choices or a range are set as before
    table.configure("bus_city", {"empty_speed": 5, "max_rounds": 3}, [True, True])
    assert (table.options["empty_speed"], table.options["max_rounds"]) == (5, 3)
