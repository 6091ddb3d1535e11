"""Reading a game widget as a person sees it, for the widget tests of every game.

The board is drawn in the browser from the widget's frame (``w.frame``, see
:mod:`bus_lab.board.frame`), so what a person sees is read from the frame, and a tap on the board
is the message the page sends (:func:`tap`).
"""

from __future__ import annotations

from typing import Any

import ipywidgets


def visible(w) -> list[dict[str, Any]]:
    """The moves a person can make now, as the board offers them (frame entries, in the order of
    ``state.legal_moves()``); empty when no person is to move."""
    return list(w.frame["moves"])


def labels(w) -> list[str]:
    """The labels of the moves a person can make now."""
    return [move["label"] for move in w.frame["moves"]]


def tap(w, label: str) -> None:
    """Make the move labelled ``label`` (or, if none is, the only one starting with it) as the page
    does: a move message with the action and the frame's ``seq``."""
    moves = [m for m in w.frame["moves"] if m["label"] == label] or [
        m for m in w.frame["moves"] if m["label"].startswith(label)
    ]
    assert len(moves) == 1, (label, labels(w))
    w.handle_message({"type": "move", "action": moves[0]["action"], "seq": w.frame["seq"]})


def shown_points(w) -> list[int]:
    """The points per seat in the scores table, seat by seat."""
    rows = w.frame["scores"]["rows"]
    assert [row["seat"] for row in rows] == list(range(w.session.game.num_players))
    return [row["points"] for row in rows]


def shown_winners(w) -> list[int]:
    """The winning seats the scores table names (empty while the game is on)."""
    return list(w.frame["scores"]["winners"])


def log_lines(w) -> list[str]:
    """The event log as shown, one ``"[RULE-ID] text"`` string per event, newest first."""
    return [f"[{event['rule']}] {event['text']}" for event in w.frame["log"]["events"]]


def widget_count() -> int:
    """Live widget models (ipywidgets 8 keeps them in ``widget._instances``)."""
    registry = getattr(ipywidgets.widgets.widget, "_instances", None)
    if registry is None:  # older ipywidgets
        registry = ipywidgets.Widget.widgets
    return len(registry)
