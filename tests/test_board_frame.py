"""The board protocol, headless: the frames Python sends the page (``bus_lab.board.frame`` and
``GameWidget.build_frame``) and the messages the page sends back (``GameWidget.handle_message``).

Checked for each of the four games on seeded games:

* every frame is plain JSON (``json.dumps`` with no ``default`` and no NaN, and it reads back
  equal: no tuples, no integer keys) and small;
* ``moves`` are exactly ``state.legal_moves()`` in order while a person must move, and empty
  otherwise: the page can never act for a bot or a chance step;
* a malformed message (not a dict, a field missing, extra or of the wrong type, a bool for a
  number, oversized, an unknown type or control, NaN, nested junk) changes nothing and says so;
  a move from an older frame (stale ``seq``) is refused; an illegal action is refused with the
  rule's reason and the legal moves;
* the controls do what they say, and ``animate`` is on only after a step, a tick or a move;
* hidden information (Busstop's face-down tiles, BSB-ROUND-BID) never reaches another seat's frame.
"""

from __future__ import annotations

import json
import math
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bus_lab import Session, load_game
from bus_lab.board.frame import board_frame
from bus_lab.widgets.base import CONTROLS, MAX_MESSAGE_CHARS, SPECTATOR, GameWidget

GAMES = ("ride_the_bus", "bus_and_stop", "busstop", "bus_city")
PLAYERS = 3
#: The largest frame sent to the page, in characters of JSON (a frame goes over the wire per step).
MAX_FRAME_CHARS = 64_000
#: Steps at most to reach a person's turn or the end (every game here ends well before).
MAX_STEPS = 2_000


def make_widget(game: str, seed: int = 1, humans: tuple[int, ...] = (), players: int = PLAYERS) -> GameWidget:
    """A widget over a fresh session: the ``humans`` seats are people, the others random bots."""
    bots = {seat: "random" for seat in range(players) if seat not in humans}
    return GameWidget(Session(load_game(game, players=players), seed=seed, bots=bots))


def snapshot(w: GameWidget) -> tuple:
    """Everything a message could change: the timeline, the state, the seat shown, auto-play and
    the seed of the next game."""
    s = w.session
    timeline = [s.state_at(i).history() for i in range(len(s))]
    return (s.position, timeline, s.state.to_dict(), w.viewer, w.autoplay, w.next_seed)


def to_human(w: GameWidget) -> None:
    """Step bots and chance until a person must move (fails if the game ends first)."""
    for _ in range(MAX_STEPS):
        if w.session.waiting_for_human():
            return
        assert not w.session.state.is_terminal(), "the game ended before a person had a move"
        w.step()
    raise AssertionError("no person's turn reached")


def send(w: GameWidget, **msg: Any) -> None:
    """Send ``msg`` as the page does, stamped with the frame's current ``seq``."""
    w.handle_message({**msg, "seq": w.frame["seq"]})


def assert_plain_json(frame: dict[str, Any]) -> None:
    text = json.dumps(frame, allow_nan=False)  # no default: only JSON types pass
    assert len(text) <= MAX_FRAME_CHARS, f"a frame of {len(text)} characters"
    assert json.loads(text) == frame, "the frame does not read back equal (a tuple or a non-str key?)"


# -- frames ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_frame_of_a_bot_game_is_small_plain_json(game, seed):
    w = make_widget(game, seed=seed)
    frames = 0
    while True:
        assert_plain_json(w.frame)
        for viewer in [None, *range(PLAYERS)]:  # the page may be set to any seat's view
            assert_plain_json(board_frame(w.session.state, viewer, movable=False))
        frames += 1
        if w.session.state.is_terminal():
            break
        w.step()
        assert w.last_error is None, repr(w.last_error)
        assert frames < MAX_STEPS
    assert frames > 10 and w.frame["controls"]["position"] == frames - 1


@pytest.mark.parametrize("game", GAMES)
def test_moves_are_the_legal_moves_while_a_person_moves_and_empty_otherwise(game):
    """Seat 0 is a person and plays through the page (a random legal move each turn) to the end."""
    w = make_widget(game, seed=3, humans=(0,))
    pick = random.Random(3)
    human_turns = 0
    for _ in range(MAX_STEPS):
        state = w.session.state
        frame = w.frame
        if state.is_terminal():
            assert frame["moves"] == [] and frame["to_move"] is None and frame["blocked"] == {}
            break
        if w.session.waiting_for_human():
            human_turns += 1
            legal = state.legal_moves()
            assert [(m["action"], m["label"], m["kind"]) for m in frame["moves"]] == [
                (m.action, str(m), m.kind) for m in legal
            ]
            assert frame["to_move"] == state.current_player() == 0
            assert not frame["controls"]["can_step"]
            send(w, type="move", action=pick.choice(legal).action)
            assert w.last_error is None and w.frame["message"] is None, w.message_text
            assert w.session.state.history()[:-1] == state.history()
        else:
            assert frame["moves"] == [] and frame["blocked"] == {}
            assert frame["to_move"] == (None if state.is_chance_node() else state.current_player())
            assert frame["controls"]["can_step"]
            w.step()
    else:
        raise AssertionError("the game did not end")
    assert human_turns >= 3


@pytest.mark.parametrize("game", GAMES)
def test_the_page_cannot_act_for_a_bot_or_a_chance_step(game):
    """A move message while no person is to move is refused, even with an action that is legal for
    the bot (or a card that could be drawn); so is a deal when cards are not picked by hand."""
    w = make_widget(game, seed=4)
    kinds = set()
    for _ in range(MAX_STEPS):
        state = w.session.state
        kind = "end" if state.is_terminal() else "chance" if state.is_chance_node() else "bot"
        candidates = [12345] if kind == "end" else state.legal_actions()[:2]
        for action in candidates:
            before = snapshot(w)
            send(w, type="move", action=action)
            assert snapshot(w) == before
            assert w.frame["message"]["kind"] == "error"
            assert "no person is to move" in w.message_text.lower()
        if kind == "chance":
            before = snapshot(w)
            send(w, type="deal", action=state.legal_actions()[0])
            assert snapshot(w) == before and "no card is to be dealt" in w.message_text.lower()
        kinds.add(kind)
        if kind == "end":
            break
        w.step()
    assert kinds == {"chance", "bot", "end"}


def test_a_deal_is_played_only_when_cards_are_picked_by_hand():
    w = GameWidget(Session(load_game("ride_the_bus", players=2), seed=5, bots={1: "random"}), pick_cards=True)
    to_human(w)
    send(w, type="move", action=w.frame["moves"][0]["action"])
    state = w.session.state
    assert state.is_chance_node()
    deal = w.frame["deal"]
    assert [d["action"] for d in deal] == [a for a, _ in state.chance_outcomes()]
    card = deal[-1]["action"]
    send(w, type="deal", action=card)
    assert w.session.state.history() == [*state.history(), card]


# -- malformed, stale and illegal messages ------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)
FIELDS = ("type", "action", "seq", "name", "value")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def well_formed(msg: Any) -> bool:
    """Whether ``msg`` has one of the shapes the page sends (core.js), whatever its ``seq``."""
    if not isinstance(msg, dict):
        return False
    kind = msg.get("type")
    if kind == "ping":
        return set(msg) == {"type"}
    if kind in ("move", "deal"):
        return set(msg) == {"type", "action", "seq"} and _is_int(msg["action"]) and _is_int(msg["seq"])
    if kind == "control":
        if set(msg) != {"type", "name", "value", "seq"} or not _is_int(msg["seq"]):
            return False
        name, value = msg["name"], msg["value"]
        if not isinstance(name, str) or name not in CONTROLS:
            return False
        wanted = CONTROLS[name]
        return value is None if wanted is None else type(value) is wanted
    return False


def valid_messages(seq: int) -> list[dict[str, Any]]:
    """One well-formed message of each shape (what mutations start from)."""
    return [
        {"type": "move", "action": 101, "seq": seq},
        {"type": "deal", "action": 101, "seq": seq},
        {"type": "control", "name": "step", "value": None, "seq": seq},
        {"type": "control", "name": "goto", "value": 0, "seq": seq},
        {"type": "control", "name": "autoplay", "value": True, "seq": seq},
        {"type": "control", "name": "viewer", "value": 1, "seq": seq},
    ]


@st.composite
def malformed_messages(draw) -> Any:
    """A message the page never sends: junk, or a well-formed message with one thing wrong."""
    how = draw(st.sampled_from(["junk", "drop", "extra", "retype", "bool", "huge", "unknown"]))
    if how == "junk":
        return draw(JSON_VALUES)
    base = dict(draw(st.sampled_from(valid_messages(seq=0))))
    seq_placeholder = "<seq>"
    base["seq"] = seq_placeholder
    if how == "drop":
        del base[draw(st.sampled_from(sorted(base)))]
    elif how == "extra":
        unused = [f for f in FIELDS if f not in base]
        names = st.text(max_size=8).filter(lambda k: k not in base)
        key = draw(st.sampled_from(unused) | names if unused else names)
        base[key] = draw(JSON_VALUES)
    elif how == "retype":
        base[draw(st.sampled_from(sorted(base)))] = draw(JSON_VALUES)
    elif how == "bool":  # True and False are ints in Python, never numbers in a message
        field = draw(st.sampled_from([k for k in ("action", "seq", "value") if k in base]))
        if field == "value" and base["name"] == "autoplay":
            base["value"] = draw(st.sampled_from([0, 1]))
        else:
            base[field] = draw(st.booleans())
    elif how == "huge":
        field = draw(st.sampled_from(sorted(base)))
        base[field] = "9" * (MAX_MESSAGE_CHARS + 1)
    elif how == "unknown":
        if base["type"] == "control":
            base["name"] = draw(st.text(max_size=12).filter(lambda n: n not in CONTROLS))
        else:
            base["type"] = draw(
                st.text(max_size=12).filter(lambda t: t not in ("move", "deal", "control", "ping"))
            )
    return base


def stamp(msg: Any, seq: int) -> Any:
    """``msg`` with the placeholder ``seq`` replaced by the frame's current one."""
    if isinstance(msg, dict) and msg.get("seq") == "<seq>":
        return {**msg, "seq": seq}
    return msg


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(msg=malformed_messages())
def test_a_malformed_message_changes_nothing_and_says_so(game, msg):
    w = _FUZZ_WIDGETS.get(game) or _FUZZ_WIDGETS.setdefault(game, make_widget(game, seed=6, humans=(0,)))
    if not w.session.waiting_for_human():
        to_human(w)
    msg = stamp(msg, w.frame["seq"])
    if well_formed(msg):  # a mutation that happens to give a real message (e.g. junk = a ping)
        return
    before = snapshot(w)
    moves_before = w.frame["moves"]
    w.handle_message(msg)
    assert snapshot(w) == before
    assert w.frame["moves"] == moves_before
    assert w.frame["message"] is not None and w.frame["message"]["kind"] == "error", msg
    assert w.message_text.strip()


_FUZZ_WIDGETS: dict[str, GameWidget] = {}


@pytest.mark.parametrize(
    "msg",
    [
        [],
        "step",
        None,
        7,
        {},
        {"type": "move", "action": 101},  # no seq
        {"type": "move", "seq": "<seq>"},  # no action
        {"action": 101, "seq": "<seq>"},  # no type
        {"type": "move", "action": 101, "seq": "<seq>", "extra": 1},
        {"type": "move", "action": "101", "seq": "<seq>"},
        {"type": "move", "action": 101.0, "seq": "<seq>"},
        {"type": "move", "action": True, "seq": "<seq>"},
        {"type": "move", "action": 101, "seq": True},
        {"type": "move", "action": math.nan, "seq": "<seq>"},
        {"type": "move", "action": [101], "seq": "<seq>"},
        {"type": "move", "action": {"action": 101}, "seq": "<seq>"},
        {"type": "move", "action": 101, "seq": "<seq>", "pad": "x" * (MAX_MESSAGE_CHARS + 1)},
        {"type": "MOVE", "action": 101, "seq": "<seq>"},
        {"type": "control", "name": "explode", "value": None, "seq": "<seq>"},
        {"type": "control", "name": "step", "value": 3, "seq": "<seq>"},
        {"type": "control", "name": "step", "seq": "<seq>"},
        {"type": "control", "name": "goto", "value": True, "seq": "<seq>"},
        {"type": "control", "name": "goto", "value": 1.0, "seq": "<seq>"},
        {"type": "control", "name": "goto", "value": math.nan, "seq": "<seq>"},
        {"type": "control", "name": "reset", "value": "7", "seq": "<seq>"},
        {"type": "control", "name": "autoplay", "value": 1, "seq": "<seq>"},
        {"type": "control", "name": "viewer", "value": None, "seq": "<seq>"},
        {"type": "control", "name": ["step"], "value": None, "seq": "<seq>"},
        {"type": "control", "name": "step", "value": None, "seq": "<seq>", "then": "back"},
    ],
    ids=repr,
)
def test_each_kind_of_malformed_message_is_refused(msg):
    w = make_widget("busstop", seed=7, humans=(0,))
    to_human(w)
    msg = stamp(msg, w.frame["seq"])
    assert not well_formed(msg)
    before = snapshot(w)
    w.handle_message(msg)
    assert snapshot(w) == before
    assert w.frame["message"]["kind"] == "error" and w.message_text


@pytest.mark.parametrize("game", GAMES)
def test_a_move_from_an_older_frame_is_refused(game):
    w = make_widget(game, seed=8, humans=(0,))
    to_human(w)
    action = w.frame["moves"][0]["action"]
    for offset in (-1, 1, -100):  # an older frame, one not sent yet, a long-gone one
        before = snapshot(w)
        w.handle_message({"type": "move", "action": action, "seq": w.frame["seq"] + offset})
        assert snapshot(w) == before
        assert w.frame["message"]["kind"] == "error" and "board changed" in w.message_text.lower()
    send(w, type="move", action=action)  # the same move from the frame shown is played
    assert w.session.state.history()[-1] == action


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_is_refused_with_the_reason_and_the_legal_moves(game):
    """An action of the game that is not legal now (one the bots made elsewhere in the game)."""
    bots = make_widget(game, seed=9)
    used = set()
    while not bots.session.state.is_terminal():
        if not bots.session.state.is_chance_node():
            used |= set(bots.session.state.legal_actions())
        bots.session.step()
    w = make_widget(game, seed=9, humans=(0,))
    to_human(w)
    state = w.session.state
    legal = state.legal_moves()
    for action in (min(used - {m.action for m in legal}), 10**9, -1):
        reason = state.why_illegal(action)
        assert reason, f"{action} should be illegal"
        before = snapshot(w)
        send(w, type="move", action=action)
        assert snapshot(w) == before
        text = w.message_text
        assert w.frame["message"]["kind"] == "error" and reason in text
        assert all(f"{m.action} ({m})" in text for m in legal), text
        assert w.frame["moves"] and [m["action"] for m in w.frame["moves"]] == [m.action for m in legal]


# -- controls ---------------------------------------------------------------------------------------


def control(w: GameWidget, name: str, value: Any = None) -> None:
    send(w, type="control", name=name, value=value)


@pytest.mark.parametrize("game", GAMES)
def test_the_controls_move_along_the_timeline_and_say_when_to_animate(game):
    w = make_widget(game, seed=10)
    assert w.frame["animate"] is False
    for n in range(1, 6):
        control(w, "step")
        assert w.session.position == n and w.frame["controls"]["position"] == n
        assert w.frame["animate"] is True
    assert w.frame["controls"]["last"] == 5 and not w.frame["controls"]["can_forward"]
    history = w.session.state.history()
    control(w, "back")
    assert w.session.position == 4 and w.frame["animate"] is False
    assert w.frame["controls"]["can_forward"] and w.frame["controls"]["last"] == 5
    control(w, "forward")
    assert w.session.position == 5 and w.frame["animate"] is False
    assert w.session.state.history() == history
    control(w, "goto", 2)
    assert w.session.position == 2 and w.frame["animate"] is False
    assert w.session.state.history() == history[:2]
    assert len(w.session) == 6  # the steps after stay on the timeline
    control(w, "goto", 99)  # past the end: refused in words, nothing moves
    assert w.session.position == 2 and w.frame["message"]["kind"] == "error"
    control(w, "forward")
    assert w.session.position == 3 and w.frame["message"] is None
    control(w, "back")
    control(w, "back")
    control(w, "back")
    assert w.session.position == 0
    control(w, "back")  # already at the start: a note, not an error
    assert w.session.position == 0 and w.frame["message"]["kind"] == "note"
    assert not w.frame["controls"]["can_back"]


@pytest.mark.parametrize("game", GAMES)
def test_new_game_uses_the_seed_chosen(game):
    w = make_widget(game, seed=11)
    for _ in range(4):
        control(w, "step")
    control(w, "reset", 42)
    same = make_widget(game, seed=42)
    assert w.session.position == 0 and len(w.session) == 1 and w.session.seed == 42
    assert w.frame["controls"]["seed"] == 42 and w.frame["animate"] is False
    for _ in range(4):
        control(w, "step")
        same.step()
    assert w.session.state.history() == same.session.state.history()
    control(w, "reset", 42)  # the same seed again: the same game
    assert w.session.state.history() == same.session.state_at(0).history()


@pytest.mark.parametrize("game", GAMES)
def test_view_as_draws_the_seat_chosen_without_motion(game):
    w = make_widget(game, seed=12)
    for _ in range(6):
        w.step()
    state = w.session.state
    options = w.frame["controls"]["viewers"]
    assert [value for _, value in options] == [SPECTATOR, *range(PLAYERS)]
    for seat in range(PLAYERS):
        control(w, "viewer", seat)
        assert w.viewer == seat and w.frame["controls"]["viewer"] == seat
        assert w.frame["view"] == json.loads(json.dumps(state.view(seat)))
        assert w.frame["animate"] is False
    control(w, "viewer", SPECTATOR)
    assert w.viewer is None and w.frame["view"] == json.loads(json.dumps(state.view(None)))
    before = snapshot(w)
    control(w, "viewer", PLAYERS)  # no such seat
    assert snapshot(w) == before and w.frame["message"]["kind"] == "error"


@pytest.mark.parametrize("game", GAMES)
def test_auto_play_stops_at_a_persons_turn_and_at_the_end(game):
    w = make_widget(game, seed=13, humans=(0,))
    to_human(w)
    control(w, "autoplay", True)  # a person must move: auto-play does not start
    assert not w.autoplay and not w.frame["controls"]["autoplay"] and "auto-play stopped" in w.message_text
    send(w, type="move", action=w.frame["moves"][0]["action"])
    assert w.frame["animate"] is True
    if w.session.waiting_for_human():
        return  # seat 0 moves again at once: nothing for auto-play to do here
    control(w, "autoplay", True)
    assert w.autoplay and w.frame["controls"]["autoplay"]
    position = w.session.position
    w.handle_message({"type": "control", "name": "tick", "value": None, "seq": w.frame["seq"] - 1})
    assert w.session.position == position  # a tick from an older frame is dropped
    for _ in range(MAX_STEPS):
        if not w.autoplay:
            break
        control(w, "tick")
        assert w.frame["animate"] is True  # 500 ms a step: with motion
    assert w.session.waiting_for_human() and not w.frame["controls"]["autoplay"]
    position = w.session.position
    control(w, "tick")  # a last tick already sent by the page: nothing happens
    assert w.session.position == position

    bots = make_widget(game, seed=13)
    control(bots, "autoplay", True)
    for _ in range(MAX_STEPS):
        if not bots.autoplay:
            break
        control(bots, "tick")
    assert bots.session.state.is_terminal() and not bots.frame["controls"]["autoplay"]
    control(bots, "autoplay", True)
    assert not bots.autoplay and "game is over" in bots.message_text
    control(bots, "step")
    assert bots.session.state.is_terminal() and "game is over" in bots.message_text


@pytest.mark.parametrize("game", GAMES)
def test_going_back_stops_auto_play(game):
    w = make_widget(game, seed=14)
    control(w, "step")
    control(w, "step")
    control(w, "autoplay", True)
    control(w, "goto", 1)
    assert not w.autoplay and w.session.position == 1
    control(w, "autoplay", True)
    control(w, "reset", 3)
    assert not w.autoplay


# -- hidden information -----------------------------------------------------------------------------


def strings(value: Any) -> list[str]:
    """Every string in a JSON value (keys too)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def without(frame: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in frame.items() if k not in keys}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_face_down_tile_never_reaches_another_seats_frame(players, seed):
    """Busstop (BSB-ROUND-BID): while a seat's tile is face down, the frame drawn for another seat
    is exactly the same whichever of its tiles that seat chose: the tile cannot be read from it
    (the view, the moves and their hints, the status and the log). The spectator sees it."""
    human = players - 1  # the last seat to bid is a person: the page then has moves to draw
    w = make_widget("busstop", seed=seed, humans=(human,), players=players)
    found = 0
    for _ in range(MAX_STEPS):
        state = w.session.state
        if state.is_terminal():
            break
        spectator = state.view(None)["bids"]
        for owner in range(players):
            tile = spectator[owner]["tile"]
            if tile is None:
                continue
            for viewer in range(players):
                if state.view(viewer)["bids"][owner]["state"] != "hidden":
                    continue
                found += 1
                check_hidden(w, owner, tile, viewer)
        if w.session.waiting_for_human():
            w.play(w.session.state.legal_moves()[0])
        else:
            w.step()
    assert found >= 5, "too few face-down tiles seen"


def twin(session: Session, owner: int):
    """The position shown, but ``owner`` chose another tile face down (a bid, or the proxy bus's
    draw); ``None`` when no other choice replays to a position like this one with another tile."""
    state = session.state
    at = max(
        i for i in range(session.position) if session.state_at(i).view(None)["bids"][owner]["tile"] is None
    )
    before = session.state_at(at)
    history = state.history()
    chosen = history[len(before.history())]
    for other_action in before.legal_actions():
        if other_action == chosen:
            continue
        other = before.clone()
        other.apply_action(other_action)
        try:
            for action in history[len(before.history()) + 1 :]:
                other.apply_action(action)
        except Exception:  # a later choice that depended on this one: try another tile
            continue
        if other.view(None)["bids"][owner]["tile"] != state.view(None)["bids"][owner]["tile"]:
            return other
    return None  # e.g. the last tile of a hand: the hand already tells it (BSB-ROUND-BID)


def check_hidden(w: GameWidget, owner: int, tile: int, viewer: int) -> None:
    state = w.session.state
    seen = board_frame(state, viewer, movable=False)
    assert seen["moves"] == [] and seen["blocked"] == {}
    assert seen["view"]["bids"][owner] == {"state": "hidden", "tile": None}
    named = re.compile(rf"Seat {owner}'s tile {tile}\b")  # how events and labels name a player tile
    assert not any(named.search(s) for s in strings(seen))
    assert board_frame(state, None, movable=False)["view"]["bids"][owner] == {"state": "shown", "tile": tile}
    w.set_viewer(viewer)
    widget_frame = w.frame
    assert widget_frame["view"] == seen["view"]
    assert not any(named.search(s) for s in strings(widget_frame))
    other = twin(w.session, owner)
    if other is not None:
        assert other.view(None)["bids"][owner]["tile"] != tile
        assert board_frame(other, viewer, movable=False) == seen
        if viewer == w.session.state.current_player() and w.session.waiting_for_human():
            # the person's own moves, hints and blocked targets cannot tell the tile either
            mine = board_frame(state, viewer, movable=True)
            assert mine["moves"], "a person to move has moves"
            assert board_frame(other, viewer, movable=True) == mine
    w.set_viewer(None)
