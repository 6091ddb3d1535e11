"""Reading a game widget as a person sees it, for the widget tests of every game."""

from __future__ import annotations

import html
import re

import ipywidgets


def visible(w) -> list[ipywidgets.Button]:
    """The move buttons in use (shown), in order."""
    return [b for b in w.action_buttons if b.layout.display != "none"]


def shown_points(w) -> list[int]:
    """The points per seat in the scores table, seat by seat."""
    rows = re.findall(r"data-seat='(\d+)' data-points='(-?\d+)'", w.scores.value)
    assert [int(s) for s, _ in rows] == list(range(w.session.game.num_players))
    return [int(p) for _, p in rows]


def shown_winners(w) -> list[int]:
    """The winning seats the scores panel names (empty while the game is on)."""
    found = re.search(r"data-winners='([\d,]*)'", w.scores.value)
    assert found is not None
    return [int(s) for s in found.group(1).split(",") if s]


def log_lines(w) -> list[str]:
    """The event log as shown, one ``"[RULE-ID] text"`` string per event, newest first."""
    items = re.findall(r"<li><code[^>]*>(\[[A-Z0-9-]+\])</code> (.*?)</li>", w.log.value)
    return [html.unescape(f"{tag} {text}") for tag, text in items]


def widget_count() -> int:
    """Live widget models (ipywidgets 8 keeps them in ``widget._instances``)."""
    registry = getattr(ipywidgets.widgets.widget, "_instances", None)
    if registry is None:  # older ipywidgets
        registry = ipywidgets.Widget.widgets
    return len(registry)
