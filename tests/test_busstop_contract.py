"""Busstop's contract with everything above the rules: typed moves and their labels, phases,
hidden information, narrated events, the shape of ``view(seat)`` and picklable bots."""

from __future__ import annotations

import json
import pickle
import random

import pytest

import bus_lab
from bus_lab import IllegalActionError, InputTypeError, ParameterError, Session, load_game
from bus_lab.engine import Event
from bus_lab.engine.core import _fold
from bus_lab.engine.policies import sample_chance
from bus_lab.games.busstop import moves as M
from bus_lab.games.busstop.narrate import narrate
from bus_lab.games.busstop.phases import PHASES, BusstopPhase
from bus_lab.games.busstop.policies import make_policy

ALL_PARAMS = [
    {"players": p, "passenger_bonus": pb, "end_bonus": eb}
    for p in (2, 3, 4, 5)
    for pb in (False, True)
    for eb in (False, True)
]
ACTIONS = range(0, 420)


def walk(game, seed: int, bots: str | None = None):
    """Every state of one seeded game (random moves, or a named bot's), the initial one included."""
    rng = random.Random(seed)
    policy = game.policies()[bots] if bots else None
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        elif policy is not None:
            action = policy(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        yield state


# -- typed moves ------------------------------------------------------------------------------------
def test_every_move_encodes_back_to_its_action():
    """Each action int of the game is one typed move and back; the others are no move."""
    numbers = [a for a in range(-5, 1000) if M.decode(a) is not None]
    assert len(numbers) == 11 + 10 + 10 + 5 + 11 * 4 + 3 + 1
    for action in numbers:
        assert M.decode(action).action == action
    assert M.decode(7) == M.PassengerDrawn(passenger=7)
    assert M.decode(23) == M.ProxyTileDrawn(tile=3)
    assert M.decode(110) == M.ChooseTile(tile=10)
    assert M.decode(202) == M.TakeTile(owner=2)
    assert M.decode(300 + 4 * 2 + 1) == M.PlacePassenger(passenger_class=2, bus=1)
    assert M.decode(300 + 4 * 9 + 3) == M.PlacePassenger(passenger_class=9, bus=None)
    assert M.decode(402) == M.HeadBoards(bus=2)
    assert M.decode(409) == M.StopBoarding()
    assert M.PlacePassenger(9, None).to_queue and M.PlacePassenger(9, None).dest == M.QUEUE_DEST
    assert not M.PlacePassenger(9, 0).to_queue and M.PlacePassenger(9, 0).dest == 0
    for bad in (11, 20, 31, 100, 111, 205, 344, 403, 408, 410):
        assert M.decode(bad) is None


def test_moves_read_in_the_games_words():
    """A placement's move says the class and the bus (None: the queue); its label is the same."""
    state = load_game("busstop", players=3).new_initial_state()
    for label in ("Gi", "Gi", "ET", "tile 3", "tile 1", "tile 3", "take Seat 0's 3", "take Seat 1's 1"):
        state.apply_action(state.string_to_action(label))
    # seat 1 (P1) received the girl from q1 and seat 0's tile 3 (a child)
    assert state.decision_kind() is BusstopPhase.PLACE and state.current_player() == 1
    moves = state.legal_moves()
    assert all(isinstance(m, M.PlacePassenger) for m in moves)
    assert [(m.passenger_class, m.bus) for m in moves] == [
        (1, 0),
        (1, 1),
        (1, None),
        (2, 0),
        (2, 1),
        (2, None),
    ]
    assert [str(m) for m in moves][-3:] == ["girl to bus 1", "girl to bus 2", "girl to queue"]
    assert state.move(M.PlacePassenger(2, None).action).label == "girl to queue"
    with pytest.raises(IllegalActionError, match="no move has that number"):
        state.move(999)
    with pytest.raises(InputTypeError):
        state.move("girl to queue")


# -- notation ---------------------------------------------------------------------------------------
def _states_of_every_phase():
    """A state of each phase, 2 and 3 players."""
    found = {}
    for players in (2, 3):
        for state in walk(load_game("busstop", players=players), seed=players):
            key = (players, state.phase())
            if key not in found:
                found[key] = state.clone()
    return found


def test_every_label_names_its_move_legal_or_not():
    """Every label of every move (legal now or not, any case) names its action: a legal one is
    accepted, another one is refused with the rule's reason, never as an unknown name."""
    for (players, _), state in _states_of_every_phase().items():
        participants = 3 if players == 2 else players
        legal = set(state.legal_actions())
        for action in ACTIONS:
            move = M.decode(action)
            if move is None or (isinstance(move, M.TakeTile) and move.owner >= participants):
                continue
            label = state.action_to_string(action)
            assert state._parse_label(state._normalize_label(_fold(label))) == action, label
            for typed in (label, label.upper(), f"  {label.lower()} "):
                if action in legal:
                    assert state.string_to_action(typed) == action
                else:
                    with pytest.raises(IllegalActionError) as caught:
                        state.string_to_action(typed)
                    assert caught.value.reason != "no move has that name", typed
                    assert caught.value.reason == (state.why_illegal(action) or caught.value.reason)


def test_draw_aliases_and_proxy_draws_parse_at_any_state():
    """Draws by name ("girl", "VIP girl", "vip-girl", "alien", "salary man") and "proxy 7" parse
    to their actions, legal now or not."""
    state = load_game("busstop", players=2).new_initial_state()
    expected = {
        "girl": 2,
        "GIRL": 2,
        "VIP girl": 7,
        "vip-Girl": 7,
        "alien": 10,
        "extra-terrestrial": 10,
        "Salary Man": 3,
        "vip salary man": 8,
        "proxy 7": 27,
        "Proxy-7": 27,
    }
    for text, action in expected.items():
        assert state._parse_label(state._normalize_label(_fold(text))) == action, text
    assert state.string_to_action("Vip Girl") == 7
    with pytest.raises(IllegalActionError, match="a passenger kind .0-10. must be drawn now"):
        state.string_to_action("proxy 7")
    with pytest.raises(IllegalActionError, match="no move has that name"):
        state.string_to_action("take the bus")


def test_a_white_move_may_be_named_by_its_owner_after_the_reveal():
    """After the reveal "take Seat 0's tile" names the same move as "take Seat 0's 3"."""
    state = load_game("busstop", players=3).new_initial_state()
    for label in ("Gi", "Gi", "ET", "tile 3", "tile 1", "tile 3"):
        state.apply_action(state.string_to_action(label))
    assert state.string_to_action("take seat 0's tile") == M.TakeTile(0).action
    assert state.string_to_action("TAKE SEAT 0'S 3") == M.TakeTile(0).action


# -- phases -----------------------------------------------------------------------------------------
def test_phases_table_and_dispatch():
    """Each phase names its handler, its actor and its rule; the state is in one of them."""
    game = load_game("busstop", players=2)
    state = game.new_initial_state()
    assert type(state).PHASES is PHASES and set(PHASES) == set(BusstopPhase)
    assert {p.value for p in BusstopPhase} == {
        "lineup",
        "proxy_bid",
        "bid",
        "proxy_reveal",
        "white",
        "place",
        "board",
    }
    assert BusstopPhase.BID == "bid" and str(BusstopPhase.BID) == "bid"
    seen = set()
    for state in walk(game, seed=4):
        phase = state.phase()
        if state.is_terminal():
            assert phase is None and state.view(None)["node"] is None
            continue
        seen.add(phase)
        assert state.view(None)["node"] == phase.value and type(state.view(None)["node"]) is str
        assert (PHASES[phase].actor.value == "chance") == state.is_chance_node()
        assert state.decision_kind() is (None if state.is_chance_node() else phase)
    assert seen == set(BusstopPhase)


# -- hidden information -----------------------------------------------------------------------------
def _bidding_states(players: int, seed: int):
    """(state, history) at every bidding state of a seeded game of greedy bots."""
    for state in walk(load_game("busstop", players=players), seed, bots="greedy"):
        if state.phase() is BusstopPhase.BID or (
            state.phase() is BusstopPhase.PROXY_REVEAL and state.bids.count(None) == 1
        ):
            yield state


def _face_down(state) -> list[tuple[int, int]]:
    """(seat, tile) of every tile chosen face down and not revealed yet."""
    if state.zone_holders:
        return []
    return [
        (k, t)
        for k, t in enumerate(state.bids)
        if t is not None and k != state.conductor and k != state.proxy
    ]


def _what_others_see(state, owner: int):
    """Everything shown to a seat other than ``owner``: labels, reasons and error messages of every
    action int, every event's text and data, their views, str and HTML of the state."""
    out = []
    for action in ACTIONS:
        out.append(state.action_to_string(action))
        out.append(state.why_illegal(action))
        if state.why_illegal(action) is not None:
            with pytest.raises(IllegalActionError) as caught:
                state.apply_action(action)
            out.append(str(caught.value))
    out += [(e.rule, e.text, json.dumps(e.data, sort_keys=True)) for e in state.events()]
    out += [json.dumps(state.view(s), sort_keys=True) for s in range(state.num_players) if s != owner]
    out += [json.dumps(state.public_view(), sort_keys=True), str(state), state._repr_html_()]
    return out


def _with_other_tile(state, owner: int, tile: int):
    """The same game with ``owner``'s face-down ``tile`` replaced by another tile of its hand, or
    ``None`` when it had no other choice."""
    others = sorted(state.hands[owner])
    if not others:
        return None
    history = state.history()
    bid = [e for e in state.events() if e.rule == "BSB-ROUND-BID" and e.data.get("seat") == owner][-1]
    step = bid.step
    assert history[step] == M.ChooseTile(tile).action
    history[step] = M.ChooseTile(others[0]).action
    return state.get_game().state_from_dict({**state.to_dict(), "history": history})


@pytest.mark.parametrize("players", [2, 3, 5])
def test_nothing_shown_to_another_seat_names_a_face_down_tile(players):
    """BSB-ROUND-BID: at every bidding state of seeded games, what another seat is shown (the label,
    reason and error message of every action int, the events' texts and data, its view, the table's
    str and HTML) is the same whichever tile was chosen face down, and names no face-down tile."""
    checked = 0
    for state in _bidding_states(players, seed=players):
        for owner, tile in _face_down(state):
            seen = _what_others_see(state, owner)
            labels = [state.action_to_string(a) for a in ACTIONS]
            assert f"take Seat {owner}'s {tile}" not in labels
            assert f"take Seat {owner}'s tile" in labels
            other = _with_other_tile(state, owner, tile)
            if other is None:
                continue
            assert other.bids[owner] != tile and other.phase() is state.phase()
            assert _what_others_see(other, owner) == seen
            checked += 1
    assert checked >= 5


def test_white_labels_name_the_tile_after_the_reveal():
    """After the reveal a white move names the tile: "take Seat 1's 1"."""
    state = load_game("busstop", players=3).new_initial_state()
    for label in ("Gi", "Gi", "ET", "tile 3", "tile 1"):
        state.apply_action(state.string_to_action(label))
    assert state.action_to_string(M.TakeTile(1).action) == "take Seat 1's tile"
    assert state.action_to_string(M.TakeTile(0).action) == "take Seat 0's tile"
    state.apply_action(state.string_to_action("tile 3"))
    assert state.action_to_string(M.TakeTile(1).action) == "take Seat 1's 1"
    assert state.action_to_string(M.TakeTile(2).action) == "take Seat 2's 3"


# -- events -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("params", ALL_PARAMS[::3], ids=str)
def test_events_are_told_from_their_data_alone(params):
    """Every event's sentence is made by narrate() from its rule and JSON data (nothing else)."""
    game = load_game("busstop", **params)
    state = list(walk(game, seed=2, bots="bidder"))[-1]
    for event in state.events():
        data = json.loads(json.dumps(event.data))
        assert data == event.data
        assert narrate(Event(event.rule, None, event.step, data)) == event.text
        assert pickle.loads(pickle.dumps(event)) == event


def test_event_data_of_a_scripted_round():
    """The facts of a scripted 3-player round, as event data."""
    state = load_game("busstop", players=3).new_initial_state()
    for label in ("Gi", "Gi", "ET", "tile 3", "tile 1", "tile 3"):
        state.apply_action(state.string_to_action(label))
    events = state.events()
    bids = [e.data for e in events if e.rule == "BSB-ROUND-BID"]
    assert bids == [
        {"seat": 0, "tile": 3, "name": "Seat 0", "forced": False},
        {"seat": 1, "name": "Seat 1", "forced": False},
        {"seat": 2, "name": "Seat 2", "forced": False},
        {"tiles": [3, 1, 3], "names": ["Seat 0", "Seat 1", "Seat 2"]},
    ]
    order = next(e for e in events if e.rule == "BSB-ROUND-ORDER")
    assert order.data["order"] == [1, 0, 2]
    conductor = next(e for e in events if e.rule == "BSB-ROUND-CONDUCTOR")
    assert conductor.data == {"conductor": 0, "name": "Seat 0", "position": 2}
    black = [e.data for e in events if e.rule == "BSB-ROUND-TAKE"]
    assert black == [
        {"participant": 1, "slot": 1, "name": "Seat 1", "position": 1, "passenger": "Gi"},
    ]
    assert state.action_to_string(M.TakeTile(0).action) == "take Seat 0's 3"
    state.apply_action(M.TakeTile(0))  # seat 1 takes seat 0's tile 3 (a child)
    take = [e for e in state.events() if e.rule == "BSB-ROUND-TAKE"][1]
    assert take.data == {
        "participant": 1,
        "owner": 0,
        "name": "Seat 1",
        "position": 1,
        "forced": False,
        "chosen_by": None,
        "passenger": "0/3",
        "whose": "Seat 0's",
        "sort": "child",
    }
    assert take.text == "P1: Seat 1 takes Seat 0's tile 3 (child) (white icon)."


# -- views ------------------------------------------------------------------------------------------
def test_view_fields_of_a_scripted_round():
    """The view's fields in a scripted 3-player round, worked out by hand."""
    state = load_game("busstop", players=3).new_initial_state()
    for label in ("Gi", "Gi", "ET", "tile 3", "tile 1"):
        state.apply_action(state.string_to_action(label))
    for seat, expected in ((0, "hidden"), (2, "hidden"), (1, "shown"), (None, "shown")):
        view = state.view(seat)
        assert view["bids"][1]["state"] == expected
        assert view["boards"][1]["hand"] == (
            list(range(1, 11)) if expected == "hidden" else [2, 3, 4, 5, 6, 7, 8, 9, 10]
        )
        assert view["viewer"] == seat and view["node"] == "bid" and view["to_move"] == 2
        assert view["played"] == [] and view["next_conductor"] is None
        assert [p["holder"] for p in view["zone"]] == [None] * 3
    public = state.public_view()
    assert public["viewer"] is None and public["bids"][0] == {"state": "shown", "tile": 3}
    assert public["bids"][1] == {"state": "hidden", "tile": None}
    state.apply_action(state.string_to_action("tile 3"))
    view = state.view(2)
    assert view["bids"] == [{"state": "shown", "tile": t} for t in (3, 1, 3)]
    assert view["played"] == [{"owner": 1, "tile": 1}, {"owner": 0, "tile": 3}, {"owner": 2, "tile": 3}]
    assert [(p["holder"], p["tile"]) for p in view["zone"]] == [(1, 1), (0, 3), (2, 3)]
    assert view["next_conductor"] == 0 and view["take_position"] == 0 and view["acting"] == 1
    assert view["boards"][1]["received"] == ["Gi"]
    assert view["lineup"] == [None, "Gi", "ET"]
    assert view["stack"]["left"] == 47 and view["stack"]["by_kind"]["girl"] == 6
    assert view["stack"]["by_kind"]["extra-terrestrial"] == 4


@pytest.mark.parametrize("bad", ["0", True, 1.0, 3.0])
def test_seats_are_checked(bad):
    state = load_game("busstop", players=3).new_initial_state()
    with pytest.raises(InputTypeError, match="seat"):
        state.view(bad)
    with pytest.raises(InputTypeError, match="seat"):
        state.score_breakdown(bad)
    with pytest.raises(ParameterError, match="no seat 3"):
        state.view(3)
    with pytest.raises(ParameterError, match="no seat 3"):
        state.score_breakdown(3)
    with pytest.raises(InputTypeError):
        state.score_breakdown(None)


# -- bots -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("bot", sorted(load_game("busstop").policies()))
def test_every_named_bot_pickles_and_plays_on_identically(players, bot):
    """A session with named bots pickles; the copy plays on exactly as the original."""
    session = Session(load_game("busstop", players=players), seed=1, bots=bot)
    for _ in range(60):
        session.step()
    copy = pickle.loads(pickle.dumps(session))
    assert copy.state.history() == session.state.history()
    session.run_to_end()
    copy.run_to_end()
    assert copy.state.history() == session.state.history()
    assert copy.state.returns() == session.state.returns()


def test_bidding_strategies_pickle_and_keep_their_names():
    for bid in ("random", "lowest", "highest", "value"):
        policy = make_policy(bid)
        assert policy.name == f"greedy_{bid}"
        assert pickle.loads(pickle.dumps(policy)) == policy
    assert make_policy("value", name="bidder").name == "bidder"
    assert load_game("busstop").policies()["greedy"].name == "greedy"
    with pytest.raises(ValueError, match="unknown bidding strategy"):
        make_policy("loud")
    with pytest.raises(ValueError, match="decision node"):
        make_policy()(load_game("busstop").new_initial_state(), random.Random(0))
    pickle.dumps(bus_lab.Session(bus_lab.load_game("busstop"), seed=1, bots="greedy"))
