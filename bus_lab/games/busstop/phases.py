"""Busstop's phases: what is drawn or decided at each point of a round, and the handler that applies it.

A round (BSB-ROUND-*): the line-up is turned up (chance), the proxy bus's tile when it is the
conductor (chance), the seats bid, the proxy's face-down tile at the reveal (chance), the white
icons, then each participant places what it received and lets the head of its queue board.
"""

from __future__ import annotations

from bus_lab.engine.moves import Actor, Phase, PhaseRule


class BusstopPhase(Phase):
    """The phases of a Busstop round (members compare equal to the strings used before)."""

    LINEUP = "lineup"
    PROXY_BID = "proxy_bid"
    BID = "bid"
    PROXY_REVEAL = "proxy_reveal"
    WHITE = "white"
    PLACE = "place"
    BOARD = "board"


#: Who acts in each phase and which method of :class:`~bus_lab.games.busstop.state.BusstopState`
#: applies its actions.
PHASES: dict[BusstopPhase, PhaseRule] = {
    BusstopPhase.LINEUP: PhaseRule(
        Actor.CHANCE, "_on_lineup", "BSB-ROUND-LINEUP", "the next passenger of the line-up is turned up"
    ),
    BusstopPhase.PROXY_BID: PhaseRule(
        Actor.CHANCE,
        "_on_proxy_bid",
        "BSB-PROXY-CONDUCTOR",
        "the proxy bus, conductor, turns up its top tile before the players choose",
    ),
    BusstopPhase.BID: PhaseRule(
        Actor.SEAT, "_on_bid", "BSB-ROUND-BID", "a seat chooses a player tile (the conductor face up)"
    ),
    BusstopPhase.PROXY_REVEAL: PhaseRule(
        Actor.CHANCE, "_on_proxy_reveal", "BSB-PROXY", "the proxy bus's face-down tile is turned up"
    ),
    BusstopPhase.WHITE: PhaseRule(
        Actor.SEAT, "_on_white", "BSB-ROUND-TAKE", "a white icon: take one of the played tiles"
    ),
    BusstopPhase.PLACE: PhaseRule(
        Actor.SEAT,
        "_on_place",
        "BSB-ROUND-DISTRIBUTE",
        "a received passenger goes on a bus or at the tail of the queue",
    ),
    BusstopPhase.BOARD: PhaseRule(
        Actor.SEAT, "_on_board", "BSB-QUEUE-BOARD", "the head of the queue boards a bus, or boarding stops"
    ),
}

#: The phases at which chance acts.
CHANCE_PHASES = frozenset(p for p, rule in PHASES.items() if rule.actor is Actor.CHANCE)
