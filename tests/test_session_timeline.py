"""``Session``'s timeline (live state, snapshots, rebuilt steps) against the plain way: one clone
per step. Every state the session shows must equal the state a plain replay of its actions gives,
whatever the order of steps, moves and time travel; no state handed out may change afterwards; and
records saved before load and replay to the same states."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import bus_lab
from bus_lab import Session, load_game
from bus_lab.engine import session as session_module
from bus_lab.engine.policies import sample_chance
from bus_lab.engine.streams import STREAMS, step_rng

GAMES = bus_lab.registered_games()


def fingerprint(state) -> tuple:
    """Everything a reader sees of a state: history, points, spectator view, events, whose turn."""
    return (
        state.history(),
        state.returns(),
        json.dumps(state.view(None), sort_keys=True),
        [(e.rule, e.step, json.dumps(e.data, sort_keys=True), e.text) for e in state.events()],
        state.current_player(),
        state.is_terminal(),
    )


def _digest(state) -> str:
    """Short digest of a state's spectator view, events and points (as stored in OLD_RECORDS)."""
    view = json.dumps(state.view(None), sort_keys=True)
    events = json.dumps([[e.rule, e.step, e.data, e.text] for e in state.events()], sort_keys=True)
    return hashlib.sha256((view + events + json.dumps(state.returns())).encode()).hexdigest()[:16]


class PlainTimeline:
    """The reference: a list of states, one clone per step, and a position."""

    def __init__(self, game, seed, bots):
        self.game, self.seed, self.bots = game, seed, bots
        self.states = [game.new_initial_state()]
        self.position = 0

    def next_action(self):
        state = self.states[self.position]
        if state.is_terminal():
            return None
        if state.is_chance_node():
            return sample_chance(state, step_rng(STREAMS, self.seed, "chance", self.position))
        seat = state.current_player()
        if seat not in self.bots:
            return None
        policy = self.game.policies()[self.bots[seat]]
        return policy(state, step_rng(STREAMS, self.seed, "bot", self.position))

    def apply(self, action):
        new = self.states[self.position].clone()
        new.apply_action(action)
        del self.states[self.position + 1 :]
        self.states.append(new)
        self.position += 1


def table_bots(game) -> dict[int, str]:
    """Seat 0 is a person; the others are bots, the last one the game's strongest named bot."""
    named = [p for p in game.policies() if p != "random"]
    bots = {seat: "random" for seat in range(1, game.num_players)}
    bots[game.num_players - 1] = named[-1] if named else "random"
    return bots


@pytest.mark.parametrize("every", [3, 32])
@pytest.mark.parametrize("name", GAMES)
def test_every_step_matches_a_plain_replay_after_random_time_travel(name, every, monkeypatch):
    """Random sequences of step, run_to_end, play, undo, redo, goto and reset: position, length,
    the current state and every ``state_at(i)`` equal the plain one-clone-per-step timeline, and
    every state handed out earlier is unchanged at the end."""
    monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", every)
    game = load_game(name)
    bots = table_bots(game)
    for seed in (1, 2):
        pick = random.Random(seed)
        session = Session(game, seed=seed, bots=bots)
        plain = PlainTimeline(game, seed, bots)
        kept = []  # (state handed out, its fingerprint then)
        moved = 0
        for op_number in range(200):
            op = pick.choice(["step", "step", "step", "run", "play", "play", "undo", "redo", "goto", "reset"])
            if op == "step":
                expected = plain.next_action()
                assert session.step() == expected
                if expected is not None:
                    plain.apply(expected)
            elif op == "run" and pick.random() < 0.3:
                taken = session.run_to_end()
                while (action := plain.next_action()) is not None:
                    plain.apply(action)
                assert plain.position == session.position and taken >= 0
            elif op == "play":
                legal = plain.states[plain.position].legal_actions()
                if legal:
                    action = pick.choice(legal)
                    assert session.play(action) == action
                    plain.apply(action)
            elif op == "undo":
                assert session.undo() == (plain.position > 0)
                plain.position = max(0, plain.position - 1)
            elif op == "redo":
                assert session.redo() == (plain.position + 1 < len(plain.states))
                plain.position = min(plain.position + 1, len(plain.states) - 1)
            elif op == "goto":
                index = pick.randrange(len(plain.states))
                if pick.random() < 0.5:
                    assert session.goto(index) is session.state
                else:
                    while session.position > index:  # undo and redo read no state
                        session.undo()
                    while session.position < index:
                        session.redo()
                plain.position = index
            elif op == "reset" and pick.random() < 0.2:
                session.reset()
                plain = PlainTimeline(game, seed, bots)
            moved += session.position
            assert (session.position, len(session)) == (plain.position, len(plain.states))
            if pick.random() < 0.4:  # read now and then: unread states are changed in place
                current = session.state
                assert fingerprint(current) == fingerprint(plain.states[plain.position])
                assert session.state_at(session.position) is current
                kept.append((current, fingerprint(current)))
                if session.position > 0:  # what a widget's status line reads
                    before = session.state_at(session.position - 1)
                    assert fingerprint(before) == fingerprint(plain.states[plain.position - 1])
                    kept.append((before, fingerprint(before)))
            if op_number % 40 == 39:
                for i in range(len(session)):
                    assert fingerprint(session.state_at(i)) == fingerprint(plain.states[i]), (op, i)
                for i in reversed(range(len(session))):
                    state = session.state_at(i)
                    assert state.history() == plain.states[i].history()
                    kept.append((state, fingerprint(state)))
        assert moved > 0  # the sequences did travel
        for state, seen in kept:
            assert fingerprint(state) == seen
        assert json.loads(session.to_json())["history"] == plain.states[-1].history()


@pytest.mark.parametrize("name", GAMES)
def test_bots_only_game_is_the_plain_game(name):
    """``run_to_end`` with every seat a bot (the in-place path) plays exactly the game of the plain
    timeline, and the states it shows afterwards are the plain ones (with snapshots in between)."""
    game = load_game(name)
    named = [p for p in game.policies() if p != "random"]
    for policy in ["random", *named]:
        bots = {seat: policy for seat in range(game.num_players)}
        session = Session(game, seed=5, bots=policy)
        taken = session.run_to_end()
        plain = PlainTimeline(game, 5, bots)
        while (action := plain.next_action()) is not None:
            plain.apply(action)
        assert taken == plain.position == len(session) - 1 > session_module.SNAPSHOT_EVERY
        assert session.state.is_terminal()
        for i in (0, 1, session_module.SNAPSHOT_EVERY, taken // 2, taken - 1, taken):
            assert fingerprint(session.state_at(i)) == fingerprint(plain.states[i])


def test_a_state_kept_across_steps_stays_put():
    """The session copies a state it has handed out before stepping on, so a caller may keep it."""
    session = Session(load_game("ride_the_bus", players=2), seed=3, bots="random")
    first = session.state
    session.step()
    second = session.state
    session.step()
    assert first.history() == [] and len(second.history()) == 1 and len(session.state.history()) == 2
    assert session.undo() and session.state_at(1).history() == second.history()
    assert session.step() is not None and len(second.history()) == 1


def test_a_callable_bot_may_keep_the_states_it_sees():
    """A bot of the caller's own gets states the session will not change afterwards."""
    seen = []

    def first_move(state, rng):
        seen.append((state, state.history()))
        return state.legal_actions()[0]

    session = Session(load_game("ride_the_bus", players=2), seed=4, bots=first_move)
    session.run_to_end()
    assert len(seen) > 10 and all(state.history() == history for state, history in seen)


def test_rng_for_step_follows_the_history_length():
    """The generator of a step comes from seed, kind and the number of actions so far."""
    session = Session(load_game("bus_city"), seed=9, bots="random")
    for _ in range(40):
        session.step()
    session.goto(17)
    for kind in ("chance", "bot"):
        expected = step_rng(STREAMS, 9, kind, len(session.state.history()))
        assert session.rng_for_step(kind).random() == expected.random()


def test_a_refused_move_after_undo_leaves_every_state_alone():
    """An illegal move changes nothing: the position, the timeline and the state shown."""
    session = Session(load_game("ride_the_bus", players=2), seed=2)
    session.play("red")
    session.play("7H")  # right: seat 0 hands a point over
    give = session.play("give to seat 1")
    session.undo()
    shown = session.state
    seen = fingerprint(shown)
    with pytest.raises(bus_lab.IllegalActionError):
        session.play("red")
    assert session.position == 2 and len(session) == 4
    assert fingerprint(session.state) == seen == fingerprint(shown)
    assert session.redo() and session.state.history()[-1] == give


def test_a_new_line_of_play_forgets_the_states_built_after_it():
    """A state built for ``state_at`` after the point where a new line of play starts is not shown
    again: the steps at and after that point are the new line's."""
    game = load_game("busstop")
    bots = {seat: "random" for seat in range(game.num_players)}
    session = Session(game, seed=7, bots="random")
    for _ in range(40):
        session.step()
    old = session.state_at(30).history()
    at_20 = PlainTimeline(game, 7, bots)
    for action in old[:20]:
        at_20.apply(action)
    other = next(a for a in at_20.states[20].legal_actions() if a != old[20])
    while session.position > 20:  # undo reads no state (goto hands the state out)
        session.undo()
    assert session.state_at(21).history() == old[:21]  # built after the point of the new line
    session.play(other)  # the current state was not read: no copy is made
    for _ in range(15):
        session.step()
    plain = PlainTimeline(game, 7, bots)
    for action in session.state.history():
        plain.apply(action)
    for i in (21, 29, 30, 31, 35):
        assert fingerprint(session.state_at(i)) == fingerprint(plain.states[i])
    assert session.state_at(30).history() != old


def test_fork_shares_nothing_that_changes():
    """A fork steps on without changing the session it came from, and the other way round."""
    session = Session(load_game("busstop"), seed=6, bots="random")
    for _ in range(70):
        session.step()
    session.goto(40)
    twin = session.fork()
    assert len(twin) == 41 and twin.position == 40
    twin.run_to_end()
    assert session.position == 40 and len(session) == 71
    plain = PlainTimeline(session.game, 6, {seat: "random" for seat in range(session.game.num_players)})
    while (action := plain.next_action()) is not None:
        plain.apply(action)
    for i in (0, 32, 39, 40):
        assert fingerprint(session.state_at(i)) == fingerprint(plain.states[i])
    assert twin.state.history() == plain.states[-1].history()
    session.run_to_end()
    assert session.state.history() == plain.states[-1].history()


#: Records saved by the Session that cloned every step, with digests of the state at the saved
#: position and at the end (view, events and points; see ``_digest``).
OLD_RECORDS = [
    (
        (
            '{"game": "bus_and_stop", "params": {"players": 3, "final_round": "drop_off", "leftover_penalty":'
            ' false, "sheet": null}, "seed": 21, "deck": [], "bots": {"0": "greedy", "1": "random", "2": "gre'
            'edy"}, "history": [8, 1, 18, 0, 21, 100, 8, 12, 104, 4, 101, 2, 20, 104, 9, 101, 10, 242, 282, 4'
            "01, 521, 103, 5, 101, 5, 101, 21, 100, 23, 10, 102, 23, 15, 16, 282, 600, 505, 103, 15, 5, 103, "
            "13, 101, 4, 104, 1, 20, 9, 104, 6, 101, 22, 24, 102, 23, 204, 505, 515, 100, 19, 3, 243, 418, 41"
            "3, 104, 3, 10, 17, 262, 600, 100, 15, 2, 103, 11, 8, 7, 100, 24, 262, 223, 502, 502, 102, 1, 6, "
            "242, 423, 523, 104, 11, 102, 17, 103, 20, 104, 12, 262, 102, 16, 103, 14, 102, 14, 102, 0, 100, "
            "12, 18, 103, 10, 101, 20, 7, 13, 262, 506, 104, 13, 102, 0, 22, 7, 5, 100, 15, 103, 21, 223, 417"
            ', 412, 407, 204, 520, 600, 242, 403, 413, 518], "position": 93}'
        ),
        "cbd510f73545b182",
        "d5af04c2e330d326",
    ),
    (
        (
            '{"game": "bus_city", "params": {"players": 2, "challenging": false, "empty_speed": null, "max_ro'
            'unds": 50, "sheet": null}, "seed": 22, "deck": [], "bots": {"0": "greedy", "1": "greedy"}, "hist'
            'ory": [19, 23, 5, 20, 10, 6, 0, 12, 3, 17, 8, 14, 104, 107, 423, 307, 108, 419, 308, 112, 13594,'
            " 200, 111, 15393, 14354, 15632, 304, 114, 14609, 200, 105, 11285, 12584, 14864, 200, 110, 13584,"
            " 312, 100, 14096, 15136, 13856, 200, 101, 15632, 314, 109, 10004, 201, 14864, 200, 106, 13858, 3"
            '09, 113, 12336, 13080, 10768, 10800, 10256, 1274, 15888, 313, 102], "position": 43}'
        ),
        "eca007b041e92fdf",
        "4bac80e8d2fef17d",
    ),
    (
        (
            '{"game": "busstop", "params": {"players": 3, "passenger_bonus": false, "end_bonus": false, "shee'
            't": null}, "seed": 23, "deck": [], "bots": {"0": "bidder", "1": "greedy", "2": "random"}, "histo'
            'ry": [1, 4, 8, 106, 108, 108, 201, 202, 304, 313, 332, 312, 317, 309, 0, 10, 5, 104, 104, 110, 2'
            "00, 202, 317, 340, 307, 323, 400, 304, 4, 10, 2, 110, 109, 102, 200, 201, 317, 317, 401, 340, 30"
            "0, 2, 10, 1, 108, 110, 109, 200, 202, 313, 340, 316, 4, 4, 7, 107, 107, 107, 202, 201, 316, 313,"
            " 319, 312, 400, 1, 4, 6, 101, 105, 105, 200, 201, 300, 316, 311, 311, 4, 1, 3, 101, 101, 105, 20"
            "2, 200, 316, 301, 400, 315, 307, 309, 300, 400, 400, 4, 0, 2, 106, 104, 103, 202, 201, 308, 308,"
            " 300, 2, 10, 3, 103, 109, 103, 202, 201, 311, 341, 319, 3, 3, 2, 201, 200, 315, 309, 402, 401, 3"
            '13, 300, 309, 301], "position": 87}'
        ),
        "1de38240a59e2ff0",
        "3000b4d29bf368ae",
    ),
    (
        (
            '{"game": "ride_the_bus", "params": {"players": 3, "board": "pyramid", "row_points": "escalating"'
            ', "bus": "higher_lower", "streak": 5, "mode": "classic"}, "seed": 24, "deck": ["7H", "KD"], "bot'
            's": {"0": "best_odds", "1": "random", "2": "random"}, "history": [100, 22, 202, 100, 45, 200, 10'
            "1, 19, 201, 102, 16, 103, 43, 200, 103, 47, 105, 32, 201, 104, 1, 104, 38, 200, 107, 28, 107, 12"
            ", 107, 2, 37, 201, 33, 202, 25, 10, 51, 49, 31, 202, 14, 202, 4, 30, 42, 103, 3, 102, 9, 102, 5,"
            " 103, 11, 102, 26, 103, 17, 102, 50, 102, 13, 103, 36, 103, 20, 102, 48, 102, 24, 102, 44, 102, "
            '18, 103, 40, 103, 0, 102, 8, 102, 27, 102, 46, 103, 35], "position": 57}'
        ),
        "f1cb69238ac86028",
        "5fd463d6a016e9e5",
    ),
]


@pytest.mark.parametrize("record, at_position, at_end", OLD_RECORDS)
def test_records_saved_before_load_and_replay(record, at_position, at_end):
    """A record saved by the Session that cloned every step (before streams version 2) loads to
    the same states, saves back to the same record (now saying its streams version, 1), and a new
    session with its seed, bots and streams version 1 plays the same game."""
    text = "".join(record)
    data = json.loads(text)
    loaded = Session.from_json(text)
    assert loaded.position == data["position"] and len(loaded) == len(data["history"]) + 1
    assert _digest(loaded.state) == at_position
    assert _digest(loaded.state_at(len(loaded) - 1)) == at_end
    assert json.loads(loaded.to_json()) == {**data, "streams": 1}
    game = load_game(data["game"], **data["params"])
    bots = {int(seat): name for seat, name in data["bots"].items()}
    again = Session(game, seed=data["seed"], bots=bots, deck=data["deck"], streams=1)
    again.run_to_end()
    assert again.state.history() == data["history"]
