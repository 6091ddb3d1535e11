"""Per-game figures of a finished Bus & Stop game, for tournaments of bots.

:func:`game_summary` is a module-level function, so it can be passed as
``bus_lab.simulate.simulate(..., extras=game_summary)`` and pickled to other processes.
"""

from __future__ import annotations

from typing import Any

SOURCES = ("destinations", "seniors", "skedaddles", "unhappy", "empty_bus", "leftover")


def game_summary(state) -> dict[str, Any]:
    """Figures of a finished game.

    Args:
        state: a terminal ``BusAndStopState``.

    Returns:
        dict with

        * ``"sources"`` (list[dict[str, int]]): per seat, points by source (keys :data:`SOURCES`:
          BAS-SCORE-DEST, BAS-SCORE-SENIOR for seniors and skedaddles, BAS-SCORE-UNHAPPY,
          BAS-SCORE-EMPTY for the empty bus and the leftover penalty); they add up to the seat's score;
        * ``"turns"`` (int): turns begun, regular and final (BAS-TURN, BAS-END-FINAL);
        * ``"trigger"`` (str): ``"deck"`` (the stop could not be refilled) or ``"destinations"``
          (6 destination cards left), BAS-END-TRIGGER;
        * ``"claims"`` (list[int]): destination cards claimed per seat (BAS-DROP-CLAIM);
        * ``"refill_reshuffles"`` (int): one-colour refills sent back (BAS-REFILL-SAMECOLOUR);
        * ``"unhappy"`` (int): unhappy passengers of all seats together (BAS-UNHAPPY).

    Raises:
        ValueError: the state is not a finished Bus & Stop game.
    """
    if getattr(state.get_game(), "name", None) != "bus_and_stop" or not state.is_terminal():
        raise ValueError("game_summary needs a finished Bus & Stop game")
    seats = range(state.num_players)
    reason = state.trigger["reason"] if state.trigger else ""
    return {
        "sources": [state.score_by_source(s) for s in seats],
        "turns": state.turns,
        "trigger": "deck" if "refilled" in reason else "destinations",
        "claims": [len(state.claimed[s]) for s in seats],
        "refill_reshuffles": sum(
            1 for e in state.events() if e.rule == "BAS-REFILL-SAMECOLOUR" and e.data["redeal"]
        ),
        "unhappy": sum(len(state.unhappy[s]) for s in seats),
    }
