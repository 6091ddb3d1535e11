"""The frames a class table sends to its pages: a seat's, the projector's and the host's.

Each frame is the board part of :func:`bus_lab.board.frame.board_frame` plus what the board
module (``core.js`` in table mode) reads::

    {
      "game", "view", "heading", "to_move", "moves", "blocked",   # board_frame
      "seq": 12,                         # the table's version; a move sends it back
      "title": "Ride the Bus",
      "status": {"last": ..., "now": ..., "hint": ...},
      "message": None | {"kind": "error" | "note", "text": ...},
      "prompt": "Your move, Ana:" | "",
      "seats": [{"seat", "name", "kind": "person" | "bot" | "away", "points", "to_move", "winner"}],
      "scores": {...},                   # detail lines only once the game is over
      "log": {"total": int, "events": [{"rule", "text"}, ...]},   # newest first
      "controls": None, "deal": None, "animate": bool,
      "table": {"code", "phase", "you": seat | None, "holding": text | None, "paused": bool,
                "title"},
    }

A seat's frame draws that seat's ``view(seat)`` and lists moves only when that seat is a
person's, it is its decision and the game is being played (not paused). The projector's draws
the game's public view (``state.public_view()``: no seat's private information) and never has
moves. Every text of a frame (heading, status, hint, prompt, message, log, moves' words,
blocked reasons, scores, the view's ``status``) names a seat a person took by that person's
name instead of the games' ``"Seat 1"`` (:func:`name_seats`); bots' seats keep their number.
The host's is the projector's plus the lobby (``"lobby"``, ``"options_schema"``,
``"games"``, ``"bots"``). No frame holds a seat's token, the host key, the seed or the history.
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from bus_lab.board.frame import adapter_for, board_frame, step_text
from bus_lab.engine.core import State
from bus_lab.engine.registry import load_game, registered_games

if TYPE_CHECKING:
    from bus_lab.table.table import Table

__all__ = [
    "MAX_LOG",
    "SEAT_PHRASE",
    "host_frame",
    "name_seats",
    "projector_frame",
    "seat_frame",
    "seat_names",
]

#: How many of the latest events a frame's log carries (newest first).
MAX_LOG = 40

#: How the games' texts name a seat: ``"Seat 1"`` (also in ``"Seat 1's"``) and ``"seat 1"`` (move
#: labels such as ``"give to seat 1"``). The number is matched whole: ``"Seat 1"`` is never found
#: inside ``"Seat 10"``, and ``"seats 0 to 3"`` names no seat.
SEAT_PHRASE = re.compile(r"\b[Ss]eat (\d+)\b")


def seat_names(table: Table) -> dict[int, str]:
    """The names that replace ``"Seat n"`` in a table's texts: each seat a person has taken (also
    while a bot plays it for them). Bot seats and seats no one has taken keep ``"Seat n"``."""
    return {
        info.seat: info.name
        for info in table.seats
        if info.claimed and (info.kind == "person" or info.away_person) and info.name != f"Seat {info.seat}"
    }


def name_seats(text: str, names: Mapping[int, str]) -> str:
    """``text`` with every seat phrase (:data:`SEAT_PHRASE`) of a seat in ``names`` replaced by
    its name, in one pass (a name that looks like a seat phrase is never replaced again).

    Args:
        text (str): a text made by a game or the table (status, event, move label, ...).
        names (Mapping[int, str]): seat -> name (:func:`seat_names`).

    Returns:
        str: the text as the table's pages show it.
    """
    if not names or not text:
        return text

    def swap(match: re.Match[str]) -> str:
        return names.get(int(match.group(1)), match.group(0))

    return SEAT_PHRASE.sub(swap, text)


def _named(value: Any, names: Mapping[int, str]) -> Any:
    """Every string inside ``value`` (dicts, lists) passed through :func:`name_seats`."""
    if isinstance(value, str):
        return name_seats(value, names)
    if isinstance(value, dict):
        return {k: _named(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    return value


def _movable(table: Table, seat: int | None, state: State) -> bool:
    """Whether ``seat``'s page may move now: a person's seat, its decision, the game on."""
    if seat is None or table.phase != "playing" or table.session is None:
        return False
    if state.is_terminal() or state.is_chance_node():
        return False
    return table.seats[seat].kind == "person" and state.current_player() == seat


def _hint(table: Table, seat: int | None, state: State, movable: bool) -> str:
    """What happens next, in words for the page (never a button the page does not have)."""
    if table.phase == "closed":
        return "This table is closed."
    if table.phase == "lobby":
        return "Waiting for the host to start the game."
    if table.phase == "over":
        if state.is_terminal():
            return "The game is over: the scores show who won."
        return "The host ended the game before its end."
    if table.phase == "paused":
        return "The host has paused the game: wait a moment."
    holding = table.holding()
    if holding is not None:
        return holding
    if movable:
        return "Your move: tap a highlighted place on the board, or a choice beside it."
    if state.is_chance_node():
        return "The next draw comes in a moment."
    player = state.current_player()
    info = table.seats[player]
    if info.kind == "bot":
        return f"Seat {player} is played by the {info.bot} bot: its move comes in a moment."
    if seat is not None and player == seat:
        return "Your move."
    return f"Waiting for Seat {player} to move."


#: What the pages say once the host ended a game before its end.
ENDED_EARLY = "The host ended the game before its end: these are the points so far."


def _finished(table: Table, state: State) -> bool:
    """Whether the game is over: played to its end, or ended by the host (then every score's
    detail is shown, as at the end)."""
    return state.is_terminal() or (table.session is not None and table.phase in ("over", "closed"))


def _scores(table: Table, state: State, scores: dict[str, Any]) -> dict[str, Any]:
    """The scores table, saying so when the host ended the game before its end."""
    if _finished(table, state) and not state.is_terminal():
        scores = {**scores, "result": ENDED_EARLY}
    return scores


def _now(table: Table, state: State) -> str:
    if table.phase == "lobby":
        joined = table.people_count()
        places = sum(1 for s in table.seats if s.kind == "person")
        return f"{table.title}: {joined} of {places} seats for people taken."
    if table.phase in ("over", "closed") and not state.is_terminal():
        return ENDED_EARLY
    status: str = cast(Any, state).status()  # every game states its position in words
    return status


def _base(table: Table, seat: int | None, message: dict[str, str] | None, movable: bool) -> dict[str, Any]:
    state = table.state()
    if seat is None:
        frame = board_frame(state, None, movable=False, view=state.public_view())
    else:
        frame = board_frame(state, seat, movable=movable)
    adapter = adapter_for(table.game_name)
    deciding = not state.is_terminal() and not state.is_chance_node()
    to_move = state.current_player() if deciding and table.phase != "lobby" else None
    frame["to_move"] = to_move
    returns = state.returns()
    winners = set(state.winners())
    events = state.events() if table.session is not None else []
    last = step_text(events[table.last_events_count() :]) if table.session is not None else ""
    if message is None and table.notice:
        message = {"kind": "note", "text": table.notice}

    def name_of(s: int) -> str:
        return f"Seat {s}"  # named like the games' texts; every text gets the people's names below

    def kind_of(s: int) -> str:
        info = table.seats[s]
        if info.away_person:
            return f"away, the {info.bot} bot plays"
        return "person" if info.kind == "person" else f"{info.bot} bot"

    holding = table.holding()
    frame.update(
        seq=table.version,
        title=table.title,
        heading=frame["heading"],
        status={"last": last, "now": _now(table, state), "hint": _hint(table, seat, state, movable)},
        message=None if message is None else {"kind": str(message["kind"]), "text": str(message["text"])},
        prompt=f"Your move, Seat {seat}:" if movable and seat is not None else "",
        seats=[
            {
                "seat": info.seat,
                "name": info.name,
                "kind": "away" if info.away_person else info.kind,
                "points": returns[info.seat],
                "to_move": info.seat == to_move,
                "winner": info.seat in winners,
            }
            for info in table.seats
        ],
        scores=_scores(table, state, adapter.scores(state, name_of, kind_of, detail=_finished(table, state))),
        log={
            "total": len(events),
            "events": [{"rule": e.rule, "text": e.text} for e in events[-MAX_LOG:][::-1]],
        },
        controls=None,
        deal=None,
        animate=table.animate,
        table={
            "code": table.code,
            "phase": table.phase,
            "you": seat,
            "holding": holding,
            "paused": table.phase == "paused",
            "title": table.title,
        },
    )
    # the texts name seats as the games do ("Seat 1"); a person's seat reads their name instead
    names = seat_names(table)
    for key in ("heading", "status", "message", "prompt", "scores", "log", "blocked"):
        frame[key] = _named(frame[key], names)
    for move in frame["moves"]:  # the words only: "path" holds the board's target keys
        for key in ("label", "choice", "hint"):
            move[key] = _named(move[key], names)
    frame["table"]["holding"] = _named(frame["table"]["holding"], names)
    view = frame["view"]
    if isinstance(view, dict) and isinstance(view.get("status"), str):  # the board's own status line
        frame["view"] = {**view, "status": name_seats(view["status"], names)}
    return frame


def seat_frame(table: Table, seat: int, message: dict[str, str] | None = None) -> dict[str, Any]:
    """The frame of ``seat``'s page (see the module docstring).

    Args:
        table (Table): the table.
        seat (int): a seat of the table (checked by :meth:`Table.seat_frame`).
        message (dict | None): ``{"kind", "text"}`` for this page only (an error it caused); by
            default the table's notice, as a note.

    Returns:
        dict: the frame, JSON-safe.
    """
    state = table.state()
    return _base(table, seat, message, _movable(table, seat, state))


def projector_frame(table: Table) -> dict[str, Any]:
    """The projector's frame: the game's public view, no moves, ``you: None``.

    Args:
        table (Table): the table.

    Returns:
        dict: the frame, JSON-safe.
    """
    return _base(table, None, None, False)


@functools.cache
def games_schema() -> list[dict[str, Any]]:
    """Every registered game's lobby form: ``[{name, title, params}]`` (see :func:`host_frame`).

    Built once (it loads every game, which takes about a second the first time), so host frames
    stay cheap; the server builds it when it starts, before any table is busy.
    """
    from bus_lab.table.table import options_schema

    return [
        {"name": name, "title": load_game(name).title or name, "params": options_schema(name)}
        for name in registered_games()
    ]


def host_frame(table: Table) -> dict[str, Any]:
    """The host's frame: the projector's frame plus ``lobby`` (:meth:`Table.lobby_info`: seats
    with names, kind, claimed and connected, never tokens), ``options_schema`` (the lobby form of
    the current game), ``games`` (``[{name, title, params}]`` of every game, ``params`` its lobby form
    as in ``options_schema``: names, choices or bounds, defaults, the number of players among them,
    so the host page switches game with the right seats at once), ``bots`` (the current
    game's bot names) and ``can_record`` (a game has started, or one was played before
    :meth:`Table.again`, so a record can be saved).

    Args:
        table (Table): the table.

    Returns:
        dict: the frame, JSON-safe.
    """
    from bus_lab.table.table import options_schema

    frame = projector_frame(table)
    frame["lobby"] = table.lobby_info()
    frame["options_schema"] = options_schema(table.game_name)
    frame["games"] = copy.deepcopy(games_schema())
    frame["bots"] = sorted(table.game.policies())
    frame["can_record"] = table.has_record()
    return frame
