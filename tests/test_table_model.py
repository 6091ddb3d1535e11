"""The class table's model: codes, limits, names, the rules of a table, its frames and the hub.

Games are played to the end through ``Table.move`` with moves taken from each seat's OWN frame
(what that seat's page offers), and ``Table.run_automatic`` for cards drawn and bots. Every frame
on the way is plain JSON and holds no secret (tokens, the host key, the seed, the history) and,
in Busstop, no other seat's face-down tile (BSB-ROUND-BID, swap test on the frames' JSON).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
from typing import Any

import pytest
from async_run import run_async

from bus_lab import Session, load_game
from bus_lab.table import (
    Hub,
    Limits,
    NotYourTurnError,
    StaleMoveError,
    Table,
    TableClosedError,
    TableError,
    TableFullError,
    UnknownTableError,
)
from bus_lab.table.codes import ALPHABET, new_code, new_secret, normalize_code, same_secret
from bus_lab.table.frames import ENDED_EARLY
from bus_lab.table.table import HOLDING_TEXT, clean_name, options_schema, players_kept
from bus_lab.widgets import GameWidget

SEED = 918_273_645  # large, so it cannot appear in a frame by chance
MAX_ROUNDS = 5000

GAMES = [
    ("ride_the_bus", {"players": 3}),
    ("ride_the_bus", {"players": 3, "board": "give_and_take", "row_points": "flat"}),
    ("ride_the_bus", {"players": 2, "mode": "gauntlet", "streak": 3}),
    ("bus_and_stop", {"players": 2}),
    ("bus_and_stop", {"players": 3, "final_round": "full_turn"}),
    ("busstop", {"players": 3}),
    ("busstop", {"players": 5, "passenger_bonus": True, "end_bonus": True}),
    ("bus_city", {"players": 2}),
    ("bus_city", {"players": 3, "challenging": True, "max_rounds": 12}),
]


# -- helpers -----------------------------------------------------------------------------------------


def strings(value: Any) -> list[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def all_frames(table: Table) -> list[dict[str, Any]]:
    return [table.projector_frame(), table.host_frame()] + [
        table.seat_frame(s) for s in range(len(table.seats))
    ]


def check_frames(table: Table, hub: Hub | None = None) -> list[dict[str, Any]]:
    """Every frame of the table is plain JSON and holds no secret."""
    frames = all_frames(table)
    secrets = [s.token for s in table.seats if s.token] + ([hub.host_key] if hub else [])
    history = table.session.state.history() if table.session else []
    for frame in frames:
        text = json.dumps(frame, allow_nan=False)
        assert json.loads(text) == frame  # plain JSON: nothing lost on the way
        for secret in secrets:
            assert secret not in text
        assert str(SEED) not in text
        assert not {"token", "seed", "history", "host_key", "key"} & keys(frame)
        if len(history) >= 12:
            assert json.dumps(history) not in text
            assert ", ".join(map(str, history[:12])) not in text
        assert frame["seq"] == table.version
        assert frame["table"]["code"] == table.code
        # texts read as the table: never a widget's button
        for s in strings(frame["status"]) + [frame["prompt"]]:
            assert "Step" not in s and "New game" not in s and "Auto-play" not in s
    projector, host = frames[0], frames[1]
    assert projector["moves"] == [] and host["moves"] == []
    assert projector["table"]["you"] is None and host["table"]["you"] is None
    for seat, frame in enumerate(frames[2:]):
        assert frame["table"]["you"] == seat
    return frames


def make_table(
    game: str, options: dict[str, Any], names: list[str] | None = None, seed: int = SEED, **kw: Any
) -> Table:
    players = load_game(game, **options).num_players
    table = Table("ABCDE", game=game, options=options, seed=seed, **kw)
    for name in names if names is not None else [f"P{i}" for i in range(players)]:
        table.join(name)
    return table


def person_to_move(table: Table) -> int | None:
    """The seat whose own frame offers moves now (at most one)."""
    movers = [s for s in range(len(table.seats)) if table.seat_frame(s)["moves"]]
    assert len(movers) <= 1
    return movers[0] if movers else None


def play_to_end(table: Table, rng: random.Random, *, check_every: int = 1, hub: Hub | None = None) -> int:
    """Play through ``Table.move`` (a random move of the mover's own frame) and ``run_automatic``
    until the game is over; the host taps Continue whenever the table holds. Returns moves made."""
    moves = 0
    for turn in range(MAX_ROUNDS):
        if table.phase != "playing":
            return moves
        if table.run_automatic():
            table.changed()
            continue
        if table.holding() is not None:
            table.continue_()
            table.changed()
            continue
        seat = person_to_move(table)
        assert seat is not None, "the game waits for nobody"
        frame = table.seat_frame(seat)
        assert frame["prompt"] == f"Your move, {table.seats[seat].name}:"
        assert "tap a highlighted place" in frame["status"]["hint"]
        legal = table.session.state.legal_actions()
        assert sorted(m["action"] for m in frame["moves"]) == legal
        table.move(seat, rng.choice(frame["moves"])["action"], frame["seq"])
        table.changed()
        moves += 1
        if turn % check_every == 0:
            check_frames(table, hub)
    raise AssertionError("the game did not end")


# -- codes and limits ----------------------------------------------------------------------------------


def test_a_join_code_is_short_plain_and_new():
    taken = {new_code(()) for _ in range(50)}
    for code in taken:
        assert len(code) == 5 and set(code) <= set(ALPHABET)
    assert not set("0O1IL") & set(ALPHABET)
    fresh = new_code(taken)
    assert fresh not in taken
    assert len(new_code((), length=8)) == 8
    with pytest.raises(ValueError):
        new_code((), length=3)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("abcde", "ABCDE"),
        ("  k7q-pm ", "K7QPM"),
        ("K7 QPM", "K7QPM"),
        ("ABC0E", None),  # 0 is not in a code: not guessed as O
        ("ABCIE", None),
        ("AB", None),
        ("ABCDEFGHJ", None),
        ("", None),
        ("<b>ABCD", None),
        (12345, None),
        (None, None),
        ("A" * 500, None),
    ],
)
def test_a_typed_code_is_read_forgivingly_but_never_guessed(typed, code):
    assert normalize_code(typed) == code


def test_secrets_are_long_random_and_compared_safely():
    a, b = new_secret(), new_secret()
    assert a != b and len(a) >= 32
    assert same_secret(a, a) and not same_secret(a, b)
    assert not same_secret(a, None) and not same_secret("é", "é") and not same_secret(a, a[:-1])


def test_limits_are_frozen_with_their_documented_defaults():
    limits = Limits()
    assert (limits.max_tables, limits.max_name_chars, limits.max_message_chars) == (40, 20, 2000)
    assert (limits.idle_close_s, limits.lobby_idle_close_s, limits.ended_close_s) == (7200, 3600, 1800)
    assert limits.pace_s == 0.7
    with pytest.raises(dataclasses.FrozenInstanceError):
        limits.max_tables = 3  # type: ignore[misc]
    assert dataclasses.replace(limits, pace_s=0).pace_s == 0


# -- names -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "clean"),
    [
        ("  Ana  ", "Ana"),
        ("Ana\n\tMaria", "Ana Maria"),
        ("A\x00n\x1ba\u200b", "Ana"),
        ("Ana\u2028\x1fLee", "Ana Lee"),
        ("\ud800Bo", "Bo"),
        ("Zo\u00eb", "Zoë"),
        ("<script>x</script>", "scriptx/script"),
        ("x" * 50, "x" * 20),
        ("\u202eevil", "evil"),
        ("   ", ""),
        (42, ""),
    ],
)
def test_a_name_is_plain_text_of_limited_length(typed, clean):
    assert clean_name(typed, 20) == clean


def test_names_are_made_unique_and_an_empty_name_is_refused():
    table = Table("ABCDE", game="ride_the_bus", options={"players": 5})
    assert table.join("Ana") == (0, table.seats[0].token)
    table.join("ana")
    table.join("Ana")
    table.join("Seat 4")  # would be mistaken for the empty seat's label
    assert [s.name for s in table.seats[:4]] == ["Ana", "ana (2)", "Ana (3)", "Seat 4 (2)"]
    with pytest.raises(TableError, match="name"):
        table.join(" \x00 ")
    long = table.seats[0].name
    table2 = Table("ABCDF", game="ride_the_bus", options={"players": 2})
    table2.join("B" * 30)
    table2.join("B" * 30)
    assert table2.seats[1].name == "B" * 16 + " (2)" and len(table2.seats[1].name) == 20
    assert long == "Ana"


# -- joining, leaving, configuring -----------------------------------------------------------------------


def test_join_resume_leave_and_a_full_table():
    table = Table("ABCDE", game="busstop", options={"players": 3}, people=[True, False, True])
    assert table.phase == "lobby" and table.session is None
    s0, t0 = table.join("Ana")
    s2, t2 = table.join("Ben")
    assert (s0, s2) == (0, 2) and t0 != t2
    with pytest.raises(TableFullError):
        table.join("Cy")
    assert table.resume(t0) == 0 and table.resume(t2) == 2
    with pytest.raises(TableError):
        table.resume("not a token")
    table.leave(0)
    assert table.seats[0].name == "Seat 0" and table.seats[0].token is None and not table.seats[0].claimed
    with pytest.raises(TableError):
        table.resume(t0)  # a freed seat's token no longer works
    assert table.join("Cy")[0] == 0
    table.start()
    with pytest.raises(TableError, match="started"):
        table.join("Dan")
    with pytest.raises(TableError):
        table.leave(0)
    assert table.resume(t2) == 2  # a person comes back during the game
    table.end()
    assert table.resume(t2) == 2
    table.close()
    with pytest.raises(TableClosedError):
        table.resume(t2)
    with pytest.raises(TableClosedError):
        table.join("Eve")


def test_configure_changes_the_game_and_keeps_who_has_joined():
    table = Table("ABCDE")
    assert table.game_name == "ride_the_bus" and len(table.seats) == 4
    _, ana = table.join("Ana")
    _, ben = table.join("Ben")
    table.configure("busstop", {"players": 3, "end_bonus": True}, [False, True, True], bot="greedy", seed=7)
    assert (table.game_name, table.options["players"], table.options["end_bonus"]) == ("busstop", 3, True)
    assert table.resume(ben) == 1  # Ben keeps seat 1: it stays a person's seat
    assert table.resume(ana) == 2  # Ana's seat 0 became a bot's: she moves to the free seat 2
    assert [s.kind for s in table.seats] == ["bot", "person", "person"]
    assert table.seats[0].bot == "greedy"
    before = (table.game_name, dict(table.options), list(table.seats))
    bad = [
        ("chess", {}, [True]),
        ("busstop", {"players": 9}, [True] * 9),
        ("busstop", {"colour": "red"}, [True] * 4),
        ("busstop", {"players": 3}, [True, True]),
        ("busstop", {"players": 3}, [True, False, False]),  # two people have joined
        ("busstop", {"players": 3}, [1, 1, 1]),
    ]
    for game, options, people in bad:
        with pytest.raises(TableError):
            table.configure(game, options, people)
    with pytest.raises(TableError, match="bot"):
        table.configure("busstop", {"players": 3}, [True] * 3, bot="oracle")
    with pytest.raises(TableError, match="seed"):
        table.configure("busstop", {"players": 3}, [True] * 3, seed=True)  # type: ignore[arg-type]
    assert (table.game_name, table.options, table.seats) == before
    table.start()
    with pytest.raises(TableError, match="started"):
        table.configure("busstop", {"players": 3}, [True] * 3)


def test_the_default_bot_is_the_games_best_bot():
    assert Table("ABCDE", game="ride_the_bus").bot == "best_odds"
    assert Table("ABCDE", game="busstop").bot == "greedy"
    assert Table("ABCDE", game="bus_city", bot="random").bot == "random"


def test_start_gives_empty_person_seats_to_the_bot_and_says_so():
    table = Table("ABCDE", game="ride_the_bus", options={"players": 3}, seed=SEED)
    table.join("Ana")
    table.start()
    assert [s.kind for s in table.seats] == ["person", "bot", "bot"]
    assert table.session is not None and table.session.seed == SEED
    assert sorted(table.session.bots) == [1, 2]
    assert "Seat 1, Seat 2 have nobody" in table.notice
    assert table.projector_frame()["message"] == {"kind": "note", "text": table.notice}
    with pytest.raises(TableError):
        table.start()


def test_a_table_without_a_fixed_seed_draws_a_secret_one():
    seeds = set()
    for _ in range(3):
        table = Table("ABCDE")
        table.start()
        seeds.add(table.session.seed)
    assert len(seeds) == 3


def test_options_schema_lists_the_choices_and_ranges_but_not_a_sheet():
    schema = {o["name"]: o for o in options_schema("busstop")}
    assert set(schema) == {"players", "passenger_bonus", "end_bonus"}
    assert schema["players"]["bounds"] == [2, 5] and schema["players"]["default"] == 4
    assert schema["end_bonus"]["choices"] == [False, True]
    with pytest.raises(TableError):
        options_schema("chess")


# -- playing whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_whole_game_through_table_moves(game, options):
    hub = Hub(limits=Limits(pace_s=0))
    table = hub.create_table(game, options, seed=SEED)
    players = len(table.seats)
    people = max(1, players - 1)
    for i in range(people):
        table.join(f"Player {i}")
    check_frames(table, hub)
    table.start()
    table.changed()
    moves = play_to_end(table, random.Random(SEED), check_every=3, hub=hub)
    state = table.session.state
    assert table.phase == "over" and state.is_terminal() and table.ended_at is not None
    assert moves > 0
    frames = check_frames(table, hub)
    # the scores' detail lines come at the end
    for frame in frames:
        assert frame["scores"]["winners"] == state.winners()
        assert [row["points"] for row in frame["seats"]] == list(state.returns())
    # the record replays in the notebook widget to the same game
    record = json.loads(table.record())
    assert record["names"] == [s.name for s in table.seats]
    widget = GameWidget(Session.from_json(table.record()))
    assert widget.session.state.history() == state.history()
    assert widget.session.state.returns() == state.returns()
    assert widget.frame["scores"]["winners"] == state.winners()
    assert sorted(int(k) for k in record["bots"]) == list(range(people, players))
    widget.close()
    with pytest.raises(TableError, match="over"):
        table.move(0, 0, table.version)


def test_the_scores_detail_is_shown_only_at_the_end():
    table = make_table("bus_and_stop", {"players": 2})
    table.start()
    frame = table.projector_frame()
    assert all(row["cells"][1] == "shown at the end" for row in frame["scores"]["rows"])
    play_to_end(table, random.Random(1), check_every=50)
    rows = table.projector_frame()["scores"]["rows"]
    assert all("[BAS-" in row["cells"][1] or row["cells"][1] == "no points" for row in rows)


def test_a_finished_game_with_no_points_says_so():
    """At the end a seat without points reads "no points" (not "nothing yet"), and its 0 is shown."""
    from bus_lab import Session
    from bus_lab.board.frame import scores_table

    game = load_game("bus_city", players=2, max_rounds=3)
    for seed in range(40):  # a short game in which some seat scores nothing
        session = Session(game, seed=seed, bots="random")
        session.run_to_end()
        if 0 in session.state.returns():
            break
    else:
        pytest.fail("no seeded game left a seat at 0 points")
    rows = scores_table(session.state, lambda s: f"Seat {s}", lambda s: "random bot")["rows"]
    nothing = [row for row in rows if row["points"] == 0]
    assert nothing and all(row["cells"] == ["0", "no points"] for row in nothing)


def test_a_game_the_host_ends_early_shows_the_points_so_far_with_their_detail():
    table = make_table("ride_the_bus", {"players": 2})
    table.start()
    table.run_automatic()
    rng = random.Random(3)
    for _ in range(3):  # a few guesses of Part 1, then the host ends the game
        seat = person_to_move(table)
        assert seat is not None
        frame = table.seat_frame(seat)
        table.move(seat, rng.choice(frame["moves"])["action"], frame["seq"])
        table.changed()
        table.run_automatic()
    table.end()
    table.changed()
    state = table.session.state
    assert not state.is_terminal()
    for frame in (table.projector_frame(), table.seat_frame(0)):
        assert frame["scores"]["result"] == ENDED_EARLY
        assert frame["status"]["now"] == ENDED_EARLY
        for row in frame["scores"]["rows"]:
            lines = state.score_breakdown(row["seat"])
            assert row["points"] == sum(line["points"] for line in lines)
            assert row["cells"][1] != "shown at the end"
            assert all(f"[{line['rule']}]" in row["cells"][1] for line in lines)


def test_frames_in_the_lobby_draw_the_board_before_the_deal():
    hub = Hub()
    table = hub.create_table("busstop", {"players": 3})
    _, token = table.join("Ana")
    frames = check_frames(table, hub)
    seat = frames[2]
    assert seat["game"] == "busstop" and seat["moves"] == [] and seat["prompt"] == ""
    assert seat["table"] == {
        "code": table.code,
        "phase": "lobby",
        "you": 0,
        "holding": None,
        "paused": False,
        "title": "Busstop: The Boardgame",
    }
    assert seat["status"]["hint"] == "Waiting for the host to start the game."
    assert seat["controls"] is None and seat["deal"] is None
    host = frames[1]
    assert [o["name"] for o in host["options_schema"]] == ["players", "passenger_bonus", "end_bonus"]
    assert {g["name"] for g in host["games"]} == {"ride_the_bus", "bus_and_stop", "busstop", "bus_city"}
    assert host["lobby"]["seats"][0] == {
        "seat": 0,
        "name": "Ana",
        "kind": "person",
        "bot": None,
        "claimed": True,
        "connected": False,
    }
    assert token not in json.dumps(host)
    assert host["lobby"]["people"] == [True, True, True]


# -- refusals ----------------------------------------------------------------------------------------------


def snapshot(table: Table) -> tuple:
    history = table.session.state.history() if table.session else None
    return table.version, table.phase, history, [dataclasses.astuple(s) for s in table.seats]


def test_refused_moves_change_nothing():
    table = make_table("ride_the_bus", {"players": 3}, names=["Ana", "Ben", "Cy"])
    with pytest.raises(TableError, match="not started"):
        table.move(0, 0, table.version)
    table.start()
    table.changed()
    table.run_automatic()
    table.changed()
    state = table.session.state
    mover = state.current_player()
    other = (mover + 1) % 3
    legal = state.legal_actions()
    illegal = next(a for a in range(1000) if a not in legal)
    before = snapshot(table)
    with pytest.raises(NotYourTurnError, match=f"{table.seats[mover].name} is to move"):
        table.move(other, legal[0], table.version)
    with pytest.raises(StaleMoveError, match="changed before your move arrived"):
        table.move(mover, legal[0], table.version - 1)
    with pytest.raises(TableError) as refused:
        table.move(mover, illegal, table.version)
    for label in [state.action_to_string(a) for a in legal]:
        assert label in str(refused.value)  # the legal moves are listed (for that seat only)
    for action in (True, 1.0, "1", None):
        with pytest.raises(TableError):
            table.move(mover, action, table.version)  # type: ignore[arg-type]
    with pytest.raises(TableError):
        table.move(mover, legal[0], True)  # type: ignore[arg-type]
    with pytest.raises(TableError):
        table.move(7, legal[0], table.version)
    table.pause()
    paused = snapshot(table)
    with pytest.raises(TableError, match="paused"):
        table.move(mover, legal[0], table.version)
    assert not table.next_automatic() and not table.advance()
    assert snapshot(table) == paused
    table.resume_play()
    assert snapshot(table) == before
    table.end()
    assert table.phase == "over" and "before its end" in table.notice
    ended = snapshot(table)
    for seat in range(3):
        with pytest.raises(TableError, match="over"):
            table.move(seat, legal[0], table.version)
    assert snapshot(table) == ended
    table.close()
    with pytest.raises(TableClosedError):
        table.move(mover, legal[0], table.version)
    for command in (table.start, table.pause, table.resume_play, table.end, table.continue_):
        with pytest.raises(TableClosedError):
            command()
    table.close()  # closing twice does nothing
    assert table.phase == "closed"


def test_host_commands_refused_in_the_wrong_phase():
    table = make_table("bus_city", {"players": 2})
    for command in (table.pause, table.resume_play, table.end, table.continue_):
        with pytest.raises(TableError):
            command()
    with pytest.raises(TableError):
        table.set_bot(0, True)
    table.start()
    with pytest.raises(TableError):
        table.resume_play()
    with pytest.raises(TableError, match="nothing is waiting"):
        table.continue_()
    with pytest.raises(TableError):
        table.leave(0)
    with pytest.raises(TableError):
        Table("ABCDE").record()


def test_a_move_is_checked_against_the_seats_own_turn_not_the_page():
    """A person cannot move for a bot seat, nor while a card is to be drawn."""
    table = make_table("ride_the_bus", {"players": 3}, names=["Ana"])
    table.start()
    frame = table.seat_frame(0)  # Ana answers the first question (RTB-Q1)
    table.move(0, frame["moves"][0]["action"], frame["seq"])
    table.changed()
    assert table.session.state.is_chance_node()  # the card that answers it is to be dealt
    with pytest.raises(NotYourTurnError, match="card"):
        table.move(0, 0, table.version)
    with pytest.raises(NotYourTurnError, match="bot"):
        table.move(1, 0, table.version)


# -- automatic steps, bots, set_bot -------------------------------------------------------------------------


def test_advance_takes_one_automatic_step_at_a_time():
    table = make_table("bus_and_stop", {"players": 2}, names=[])
    assert not table.next_automatic() and not table.advance()  # the lobby
    table.start()
    steps = 0
    while table.next_automatic():
        before = len(table.session.state.history())
        assert table.advance()
        assert len(table.session.state.history()) == before + 1
        steps += 1
    assert table.phase == "over" and steps > 20
    assert not table.advance() and table.run_automatic() == 0


def test_set_bot_hands_a_persons_seat_to_the_bot_and_back():
    table = make_table("ride_the_bus", {"players": 2}, names=["Ana", "Ben"])
    table.start()
    table.run_automatic()
    with pytest.raises(TableError):
        table.set_bot(0, False)  # Ana plays her own seat already
    table.set_bot(0, True)
    assert table.seats[0].kind == "bot" and table.seats[0].away_person
    assert 0 in table.session.bots and "plays for Ana" in table.notice
    with pytest.raises(TableError):
        table.set_bot(0, True)
    assert table.projector_frame()["seats"][0]["kind"] == "away"
    assert table.seat_frame(0)["moves"] == []
    with pytest.raises(NotYourTurnError, match="bot"):
        table.move(0, 0, table.version)
    # the bot plays Ana's turns until she is back
    rng = random.Random(5)
    bot_moves = 0
    for _ in range(8):
        state = table.session.state
        if not state.is_chance_node() and state.current_player() == 0:
            assert table.next_automatic()
            bot_moves += 1
        table.run_automatic()
        if table.phase != "playing":
            break
        seat = person_to_move(table)
        if seat is None:
            assert table.holding() is not None
            table.continue_()
            continue
        assert seat == 1
        frame = table.seat_frame(1)
        table.move(1, rng.choice(frame["moves"])["action"], frame["seq"])
    assert table.phase == "playing" and bot_moves >= 1
    table.set_bot(0, False)
    assert table.seats[0].kind == "person" and not table.seats[0].away_person
    assert 0 not in table.session.bots
    assert json.loads(table.session.to_json())["bots"] == {}
    table.changed()
    play_to_end(table, rng, check_every=10)
    assert table.phase == "over"
    replay = Session.from_json(table.record())
    assert replay.state.history() == table.session.state.history()


def test_set_bot_refuses_a_seat_nobody_joined_and_unknown_seats():
    table = make_table("busstop", {"players": 3}, names=["Ana"])
    table.start()
    with pytest.raises(TableError, match="no person"):
        table.set_bot(1, False)
    with pytest.raises(TableError):
        table.set_bot(3, True)
    with pytest.raises(TableError):
        table.set_bot(True, True)  # type: ignore[arg-type]


# -- holding for the host's Continue (Ride the Bus, Part 2) -----------------------------------------------


def flip_steps(state, flip_rule: str, match_rules: set[str]) -> dict[int, bool]:
    """Each Part 2 flip's step and whether it matched someone."""
    events = state.events()
    return {
        e.step: any(m.step == e.step and m.rule in match_rules for m in events)
        for e in events
        if e.rule == flip_rule
    }


@pytest.mark.parametrize(
    ("board", "flip_rule", "match_rules"),
    [
        ("pyramid", "RTB-P-FLIP", {"RTB-P-MATCH"}),
        ("give_and_take", "RTB-GT-LAYOUT", {"RTB-GT-GIVE", "RTB-GT-TAKE"}),
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_a_flip_that_matches_someone_the_host_taps_continue(board, flip_rule, match_rules, seed):
    """RTB-P-MATCH / RTB-P-GIVE (RTB-GT-GIVE, RTB-GT-TAKE on the Give & Take board): after a flip
    that matched someone, once the points are handed over, the table holds before the next card
    until the host taps Continue; a flip that matched nobody moves straight on (RTB-P-NOMATCH)."""
    table = Table("ABCDE", game="ride_the_bus", options={"players": 4, "board": board}, seed=seed)
    table.join("Ana")
    table.join("Ben")
    table.start()
    rng = random.Random(seed)
    held_after: list[int] = []  # the step of the flip each hold followed
    for _ in range(MAX_ROUNDS):
        table.run_automatic()
        if table.phase != "playing":
            break
        held = table.holding()
        if held is not None:
            assert held == HOLDING_TEXT
            state = table.session.state
            assert state.is_chance_node()
            last_flip = max(flip_steps(state, flip_rule, match_rules))
            held_after.append(last_flip)
            assert not table.next_automatic() and not table.advance()
            for frame in all_frames(table):
                assert frame["table"]["holding"] == HOLDING_TEXT
                assert frame["status"]["hint"] == HOLDING_TEXT
            table.pause()
            assert table.holding() == HOLDING_TEXT  # a pause keeps the hold
            table.resume_play()
            version = table.version
            table.continue_()
            assert table.version == version and table.holding() is None
            assert table.next_automatic() and table.advance()
            continue
        seat = person_to_move(table)
        assert seat is not None
        frame = table.seat_frame(seat)
        table.move(seat, rng.choice(frame["moves"])["action"], frame["seq"])
    assert table.phase == "over"
    flips = flip_steps(table.session.state, flip_rule, match_rules)
    assert held_after == [step for step, matched in sorted(flips.items()) if matched]
    assert any(flips.values()) and not all(flips.values())


def test_no_hold_in_the_gauntlet_or_in_other_games():
    for game, options in [("ride_the_bus", {"players": 2, "mode": "gauntlet"}), ("busstop", {"players": 3})]:
        table = Table("ABCDE", game=game, options=options, seed=1)
        table.start()
        while table.advance():
            assert table.holding() is None
        assert table.phase == "over"


# -- Busstop: a face-down tile never reaches another seat's frame ---------------------------------------------


def table_at(
    game: str, options: dict[str, Any], history: list[int], names: list[str], seed: int = SEED
) -> Table:
    """A table whose game went through ``history`` (moves replayed as they came)."""
    table = Table("ABCDE", game=game, options=options, seed=seed)
    for name in names:
        table.join(name)
    table.start()
    session = table.session
    for action in history:
        session.play(action)
    table._events_before = len(session.state_at(len(history) - 1).events())
    return table


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_face_down_tile_never_reaches_another_seats_frame(players):
    """BSB-ROUND-BID, swap test: while seat ``owner``'s tile is face down, every frame but the
    owner's (other seats', the projector's, the host's) is the same JSON whichever tile it chose.
    Games are played (seeds SEED, SEED + 1, ...) until five such moments have been compared; a
    game has about two with 2 players."""
    names = [f"P{i}" for i in range(players)]
    options = {"players": players}
    rng = random.Random(players)
    compared = 0
    for game_number in range(10):
        if compared >= 5:
            break
        compared += compare_face_down_moments(players, names, options, SEED + game_number, rng)
    assert compared >= 5


def compare_face_down_moments(
    players: int, names: list[str], options: dict[str, Any], seed: int, rng: random.Random
) -> int:
    """Play one Busstop table to the end with random moves and compare, at every moment a tile is
    face down, each frame but its owner's with the twin game's; returns how many were compared."""
    table = make_table("busstop", options, names=names, seed=seed)
    table.start()
    compared = 0
    for _ in range(400):
        table.run_automatic()
        if table.phase != "playing":
            break
        state = table.session.state
        history = state.history()
        public = state.public_view()
        hidden = [k for k in range(players) if public["bids"][k]["state"] == "hidden"]
        for owner in hidden[:1]:
            twin = twin_history(table.session, owner)
            if twin is None:
                continue
            table._events_before = len(table.session.state_at(len(history) - 1).events())
            other = table_at("busstop", options, twin, names, seed)
            other.version, other.animate = table.version, table.animate
            assert other.session.state.view(None)["bids"][owner] != state.view(None)["bids"][owner]
            mine_frames = [table.projector_frame(), table.host_frame()]
            twin_frames = [other.projector_frame(), other.host_frame()]
            for seat in range(players):
                if seat != owner:
                    mine_frames.append(table.seat_frame(seat))
                    twin_frames.append(other.seat_frame(seat))
            assert json.dumps(mine_frames) == json.dumps(twin_frames)
            tile = state.view(None)["bids"][owner]["tile"]
            named = re.compile(rf"(Seat {owner}|{names[owner]})'s tile {tile}\b")
            assert not any(named.search(s) for s in strings(mine_frames))
            compared += 1
        seat = person_to_move(table)
        assert seat is not None
        frame = table.seat_frame(seat)
        table.move(seat, rng.choice(frame["moves"])["action"], frame["seq"])
        table.changed()
    return compared


def twin_history(session: Session, owner: int) -> list[int] | None:
    """The history of the position shown, but ``owner`` chose another tile face down; ``None``
    when no other tile replays to a like position."""
    state = session.state
    at = max(
        i for i in range(session.position) if session.state_at(i).view(None)["bids"][owner]["tile"] is None
    )
    before = session.state_at(at)
    history = state.history()
    chosen = history[at]
    for other_action in before.legal_actions():
        if other_action == chosen:
            continue
        other = before.clone()
        other.apply_action(other_action)
        try:
            for action in history[at + 1 :]:
                other.apply_action(action)
        except Exception:  # a later choice that depended on this one
            continue
        return other.history()
    return None


# -- listeners and the hub ------------------------------------------------------------------------------


def test_changed_bumps_the_version_and_calls_every_listener():
    now = [100.0]
    table = Table("ABCDE", clock=lambda: now[0])
    calls: list[tuple[str, int]] = []

    def broken(t: Table) -> None:
        raise RuntimeError("a page went away")

    def first(t: Table) -> None:
        calls.append(("first", t.version))

    def second(t: Table) -> None:
        calls.append(("second", t.version))

    table.add_listener(first)
    table.add_listener(broken)
    table.add_listener(second)
    now[0] = 130.0
    table.changed()
    assert table.version == 1 and table.last_activity == 130.0 and table.created_at == 100.0
    assert calls == [("first", 1), ("second", 1)]
    table.remove_listener(first)
    table.remove_listener(first)  # not there any more: ignored
    table.changed()
    assert calls[-1] == ("second", 2) and len(calls) == 3


def test_the_hub_makes_tables_with_fresh_codes_up_to_its_limit():
    hub = Hub(limits=Limits(max_tables=3))
    tables = [hub.create_table() for _ in range(3)]
    assert len({t.code for t in tables}) == 3
    with pytest.raises(TableError, match="tables open"):
        hub.create_table()
    table = tables[1]
    assert hub.table(table.code.lower()) is table
    assert hub.table(f" {table.code[:2]}-{table.code[2:]} ") is table
    for typed in ("", "ZZZZZ" if "ZZZZZ" not in hub.tables else "YYYYY", "O0O0O", 5):
        with pytest.raises(UnknownTableError):
            hub.table(typed)  # type: ignore[arg-type]
    table.close()
    with pytest.raises(UnknownTableError):
        hub.table(table.code)
    assert len(hub.host_key) >= 32
    hub.create_table("busstop", {"players": 2}, seed=3)  # a closed table frees its place
    with pytest.raises(TableError):
        hub.create_table("chess")
    assert tables[0].public_summary() == {
        "code": tables[0].code,
        "game": "ride_the_bus",
        "title": "Ride the Bus",
        "phase": "lobby",
        "people": 0,
        "seats": 4,
        "created": tables[0].created_at,
    }


def test_sweep_closes_idle_and_ended_tables():
    now = [0.0]
    limits = Limits()
    hub = Hub(limits=limits, clock=lambda: now[0])
    lobby = hub.create_table()
    playing = hub.create_table("bus_city")
    playing.join("Ana")
    playing.start()
    ended = hub.create_table("bus_and_stop")
    ended.start()
    ended.end()
    told: list[str] = []
    lobby.add_listener(lambda t: told.append(t.phase))
    now[0] = limits.ended_close_s - 1
    assert hub.sweep() == []
    now[0] = limits.ended_close_s
    assert hub.sweep() == [ended.code] and ended.phase == "closed"
    now[0] = limits.lobby_idle_close_s
    assert hub.sweep() == [lobby.code] and told == ["closed"]
    playing.changed()  # activity at lobby_idle_close_s
    now[0] = limits.lobby_idle_close_s + limits.idle_close_s - 1
    assert hub.sweep() == []
    now[0] += 1
    assert hub.sweep() == [playing.code]
    assert hub.tables == {}


def test_failed_joins_are_limited_per_address_and_minute():
    now = [0.0]
    hub = Hub(limits=Limits(failed_joins_per_minute=3), clock=lambda: now[0])
    assert [hub.note_failed_join("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert hub.joins_blocked("10.0.0.1") and not hub.joins_blocked("10.0.0.2")
    assert hub.note_failed_join("10.0.0.2")
    now[0] = 61.0
    assert hub.note_failed_join("10.0.0.1")
    hub.sweep()
    now[0] = 200.0
    hub.sweep()
    assert hub._failed == {}


def test_the_package_exports_its_names_lazily():
    import bus_lab.table as package

    assert package.Table is Table and package.Hub is Hub
    with pytest.raises(AttributeError):
        package.Nothing  # noqa: B018
    assert "TableServer" in dir(package)


def test_drive_takes_the_automatic_steps_at_the_hubs_pace():
    """Pace 0: every automatic step at once, one change; a pace: one change per step, and a
    pause stops the driver."""
    hub = Hub(pace_s=0)
    table = hub.create_table("bus_and_stop", {"players": 2}, seed=3)
    table.start()
    seen: list[int] = []
    table.add_listener(lambda t: seen.append(t.version))
    taken = run_async(hub.drive(table))
    assert taken > 20 and table.phase == "over" and seen == [1]
    assert run_async(hub.drive(table)) == 0 and seen == [1]

    paced = Hub(pace_s=0.001)
    table = paced.create_table("ride_the_bus", {"players": 2}, seed=3)
    table.join("Ana")
    table.start()
    frame = table.seat_frame(0)
    table.move(0, frame["moves"][0]["action"], frame["seq"])  # Ana's first guess (RTB-Q1)
    table.changed()
    assert table.animate  # a step of the game: the pages may show it moving
    versions: list[int] = []
    table.add_listener(lambda t: versions.append(t.version))
    taken = run_async(paced.drive(table))
    assert taken >= 1 and versions == list(range(2, 2 + taken))  # one change per step
    assert table.session.state.current_player() == 0
    table.changed()
    assert not table.animate  # nothing moved since the last change

    async def pause_soon() -> int:
        task = asyncio.ensure_future(paced.drive(table))
        await asyncio.sleep(0)
        table.pause()
        return await task

    frame = table.seat_frame(0)
    assert frame["moves"]  # Part 1 never holds: Ana is to move again
    table.move(0, frame["moves"][0]["action"], frame["seq"])
    assert run_async(pause_soon()) == 0 and table.phase == "paused"


# -- play again ----------------------------------------------------------------------------------------


def test_play_again_keeps_the_people_and_opens_the_lobby():
    """After a game, Play again: the table is back in the lobby with the same people in the same
    seats (same names, same tokens, so their pages follow), a seat handed to a bot is its
    person's again, a person seat nobody took is open to join again, the last game can still be
    downloaded, and the next game is a new deal that starts and plays to the end."""
    table = make_table("busstop", {"players": 3}, names=["Ana", "Ben"], seed=None)
    tokens = [s.token for s in table.seats]
    table.start()
    table.changed()
    assert table.seats[2].kind == "bot"  # nobody took seat 2: a bot played it
    table.set_bot(1, True)  # Ben left for a while
    with pytest.raises(TableError, match="playing again is not possible now: the game has started"):
        table.again()
    play_to_end(table, random.Random(3))
    assert table.phase == "over"
    first = json.loads(table.record())
    version = table.version
    table.again()
    table.changed()
    assert table.phase == "lobby" and table.session is None and table.ended_at is None
    assert table.version == version + 1
    assert [(s.name, s.kind, s.claimed, s.token) for s in table.seats] == [
        ("Ana", "person", True, tokens[0]),
        ("Ben", "person", True, tokens[1]),
        ("Seat 2", "person", False, None),
    ]
    assert not table.seats[1].away_person
    assert [table.resume(tokens[0]), table.resume(tokens[1])] == [0, 1]
    assert json.loads(table.record()) == first  # the game just played, until the next starts
    assert table.host_frame()["can_record"]
    assert "everyone keeps their seat" in table.projector_frame()["message"]["text"]
    check_frames(table)
    assert table.join("Chloé") == (2, table.seats[2].token)
    table.configure("bus_and_stop", {"players": 3}, [True, True, True])  # another game, same people
    assert [s.name for s in table.seats] == ["Ana", "Ben", "Chloé"]
    table.start()
    table.changed()
    assert table.session is not None and table.game_name == "bus_and_stop"
    assert json.loads(table.record())["game"] != first["game"]
    play_to_end(table, random.Random(4))
    assert table.phase == "over"


def test_play_again_only_after_a_game():
    """Play again is refused in the lobby, during a game and on a closed table; nothing changes."""
    table = make_table("bus_city", {"players": 2})
    for phase_change in (None, table.start, table.pause):
        if phase_change is not None:
            phase_change()
        before = (table.phase, [dataclasses.astuple(s) for s in table.seats])
        with pytest.raises(TableError, match="playing again is not possible now"):
            table.again()
        assert (table.phase, [dataclasses.astuple(s) for s in table.seats]) == before
    table.close()
    with pytest.raises(TableClosedError):
        table.again()


def test_switching_games_keeps_the_number_of_players_when_the_new_game_allows_it():
    assert players_kept("busstop", 5) == 5  # 2 to 5
    assert players_kept("bus_city", 3) == 3  # 2 to 3
    assert players_kept("bus_city", 5) == 3  # too many: the most BUS allows
    assert players_kept("bus_and_stop", 8) == 4
    assert players_kept("bus_and_stop", 1) == 2  # too few: the fewest
    assert players_kept("ride_the_bus", 1) == 1  # the solo gauntlet
    with pytest.raises(TableError, match="there is no game 'chess'"):
        players_kept("chess", 2)
