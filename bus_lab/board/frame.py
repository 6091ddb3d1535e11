"""Frames: what the browser board draws, built from one seat's view and the legal moves.

A frame is a JSON-safe ``dict``. Its board part (:func:`board_frame`) is::

    {
      "game": "bus_and_stop",          # which drawer the browser uses
      "view": {...},                   # state.view(viewer): the only way state reaches the page
      "heading": "Turn 3 of 12 ...",   # what part of the game is on, in words
      "to_move": 0 | None,             # the seat whose decision is pending (None: chance or end)
      "moves": [                       # the legal moves the page may make (empty if none)
        {"action": 101,                # the int sent back (Move.action)
         "kind": "drop_off",           # Move.kind
         "label": "drop 2 at Shops",   # the move's label (str(move))
         "path": ["stack:Shops"],      # board targets tapped in order (may be empty)
         "choice": "2 passengers",     # a button beside the last target, or None (tap = play)
         "odds": "28/51 (54.9%)" | None,   # exact chance it comes off (guesses)
         "hint": "+5 points" | None},  # the consequence, said on hover or focus
        ...],
      "blocked": {"stack:Park": "why not now", ...},   # targets drawn but not playable now
    }

The game-specific part is a :class:`BoardAdapter` per game (``bus_lab.board.adapters.<game>``):
which target each move acts on, its consequence in words, its odds, and why the other targets
cannot be played. The default adapter puts every move in the side panel as a plain choice.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from bus_lab.engine.core import State
from bus_lab.engine.events import Event
from bus_lab.engine.moves import Move
from bus_lab.engine.words import points_text

#: The key of a target that stands for "the choices beside the board" (moves with an empty path).
PANEL = ""
#: The most events of one step that the status line repeats (the log has them all).
MAX_STATUS_EVENTS = 3
#: The detail cell of a score row while the detail is held back (a table shows it at the end).
DETAIL_AT_THE_END = "shown at the end"


def format_odds(p: Fraction) -> str:
    """An exact chance as a fraction and a percentage, e.g. ``"28/51 (54.9%)"``; ``"0 (impossible)"``
    and ``"1 (certain)"`` at the ends. The percentage is exact to 0.1, halves rounded up (1/16 is 6.3%).

    Args:
        p (Fraction): a probability between 0 and 1.

    Returns:
        str: the chance in words for a person.
    """
    p = Fraction(p)
    if p == 0:
        return "0 (impossible)"
    if p == 1:
        return "1 (certain)"
    tenths = math.floor(p * 1000 + Fraction(1, 2))  # the percentage to 0.1, halves rounded up
    return f"{p.numerator}/{p.denominator} ({tenths // 10}.{tenths % 10}%)"


class BoardAdapter:
    """How one game's moves are made on its board. Subclass per game and override the hooks.

    The default puts every move in the side panel as a choice named by its label, with no
    consequence, no odds and no blocked targets; it works for any game (a new game plays at once).
    """

    #: The game's registered name (``load_game`` name); ``""`` for the default.
    game: str = ""

    def heading(self, state: State) -> str:
        """One line saying what part of the game is on (with its rule ID), or ``""``."""
        return ""

    def target(self, state: State, move: Move) -> tuple[list[str], str | None]:
        """The board targets a person taps, in order, to make ``move``, and the words of the button
        beside the last target that plays it (``None``: the last tap plays it).

        Target keys are short strings such as ``"stack:Shops"`` or ``"slot:B3"``; the game's
        drawer marks the same keys on the elements it draws. An empty path puts the move in the
        side panel as a choice.
        """
        return [], str(move)

    def consequence(self, state: State, move: Move) -> str | None:
        """What the move would do, in words (points won or lost, who boards, ...), or ``None``."""
        return None

    def odds(self, state: State, moves: Sequence[Move]) -> dict[int, Fraction]:
        """Exact chance that each move comes off, by action (may leave moves out)."""
        return {}

    def blocked(self, state: State, moves: Sequence[Move]) -> dict[str, str]:
        """Targets drawn on the board that no legal move uses now, each with the reason in words
        (from ``why_illegal``). ``moves`` are the legal moves. Only what the mover may know."""
        return {}

    def scores(
        self,
        state: State,
        name_of: Callable[[int], str],
        kind_of: Callable[[int], str],
        *,
        detail: bool = True,
    ) -> dict[str, Any]:
        """The scores table of a frame (default: :func:`scores_table`; a game with another goal
        overrides it)."""
        return scores_table(state, name_of, kind_of, detail=detail)


_ADAPTERS: dict[str, BoardAdapter] = {}


def adapter_for(game: str) -> BoardAdapter:
    """The board adapter of the game named ``game`` (``bus_lab.board.adapters.<game>.ADAPTER``),
    or the default :class:`BoardAdapter` for a game without one."""
    if game not in _ADAPTERS:
        try:
            module = importlib.import_module(f"bus_lab.board.adapters.{game}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bus_lab.board.adapters.{game}":
                raise
            _ADAPTERS[game] = BoardAdapter()
        else:
            _ADAPTERS[game] = module.ADAPTER
    return _ADAPTERS[game]


def move_entries(state: State, adapter: BoardAdapter) -> list[dict[str, Any]]:
    """The legal moves of the seat to move, as frame entries (see the module docstring)."""
    legal = state.legal_moves()
    odds = adapter.odds(state, legal)
    entries = []
    for move in legal:
        path, choice = adapter.target(state, move)
        chance = odds.get(move.action)
        entries.append(
            {
                "action": move.action,
                "kind": move.kind,
                "label": str(move),
                "path": list(path),
                "choice": choice,
                "odds": None if chance is None else format_odds(chance),
                "hint": adapter.consequence(state, move),
            }
        )
    return entries


def board_frame(
    state: State, viewer: int | None, *, movable: bool, view: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The board part of a frame: ``viewer``'s view, the heading, and (when ``movable``) the moves.

    Args:
        state (State): the position shown.
        viewer (int | None): the seat whose view is drawn (``None``: the spectator, every card).
        movable (bool): whether the page may make the pending decision (a person's seat to move and
            a page allowed to act for it). When False, ``moves`` and ``blocked`` are empty.
        view (Mapping | None): the view to draw instead of ``state.view(viewer)``, e.g. the
            public view ``state.public_view()`` a class table's projector shows.

    Returns:
        dict: ``game``, ``view``, ``heading``, ``to_move``, ``moves``, ``blocked`` (JSON-safe).
    """
    adapter = adapter_for(state.get_game().name)
    deciding = not state.is_terminal() and not state.is_chance_node()
    moves = move_entries(state, adapter) if movable and deciding else []
    blocked = adapter.blocked(state, state.legal_moves()) if moves else {}
    return {
        "game": state.get_game().name,
        "view": state.view(viewer) if view is None else dict(view),
        "heading": adapter.heading(state),
        "to_move": state.current_player() if deciding else None,
        "moves": moves,
        "blocked": blocked,
    }


def scores_table(
    state: State,
    name_of: Callable[[int], str],
    kind_of: Callable[[int], str],
    *,
    detail: bool = True,
) -> dict[str, Any]:
    """The scores table of a frame: points per seat with where they came from, and the result.

    Args:
        state (State): the position scored.
        name_of (Callable[[int], str]): a seat's name (``"Seat 2"``, ``"Ana"``).
        kind_of (Callable[[int], str]): who plays a seat, in words (``"human"``, ``"best_odds bot"``).
        detail (bool): give each row's breakdown (``score_breakdown``) with its rule IDs; when
            False the cell reads :data:`DETAIL_AT_THE_END` (a class table shows points only
            during play).

    Returns:
        dict: ``columns``, ``rows`` (``seat``, ``name``, ``points``, ``winner``, ``cells``),
        ``caption``, ``result``, ``winners``, ``summary``.
    """
    game = state.get_game()
    returns = state.returns()
    winners = state.winners()
    rows = []
    for seat, points in enumerate(returns):
        text = DETAIL_AT_THE_END
        if detail:
            lines = state.score_breakdown(seat)
            text = "; ".join(
                f"{line['label']} [{line['rule']}]"
                + (f" ×{line['times']}" if line.get("times", 1) > 1 else "")
                + f": {line['points']}"
                for line in lines
            )
        rows.append(
            {
                "seat": seat,
                "name": f"{name_of(seat)} ({kind_of(seat)})",
                "points": points,
                "winner": seat in winners,
                "cells": [str(points), text or ("no points" if state.is_terminal() else "nothing yet")],
            }
        )
    if winners:
        names = " and ".join(name_of(s) for s in winners)
        verb = "share the win" if len(winners) > 1 else "wins"
        result = f"Result: {names} {verb} with {points_text(returns[winners[0]])}."
    else:
        result = "No winner yet: the game is in progress."
    rule = "lowest total wins" if game.lower_score_wins else "highest total wins"
    return {
        "columns": ["Seat", "Points", "Where the points came from"],
        "rows": rows,
        "caption": f"Points ({rule})",
        "result": result,
        "winners": winners,
        "summary": ", ".join(f"{name_of(s)} {p}" for s, p in enumerate(returns)),
    }


def step_text(new: Sequence[Event]) -> str:
    """What one step did, in words: its events with their rule IDs (at most
    :data:`MAX_STATUS_EVENTS`, the first ones, then how many more), ``" · "`` between them.

    Args:
        new (Sequence[Event]): the events the step recorded (empty: ``""``).
    """
    shown = [f"{e.text} [{e.rule}]" for e in new[:MAX_STATUS_EVENTS]]
    if len(new) > MAX_STATUS_EVENTS:
        shown.append(f"and {len(new) - MAX_STATUS_EVENTS} more in the event log")
    return " · ".join(shown)
