"""The phases of Bus & Stop: who acts at each point of the game and which handler applies it.

:class:`BusAndStopPhase` names the points of decision or chance (``state.phase()``); the table
:data:`PHASES` says who acts in each and which method of
:class:`~bus_lab.games.bus_and_stop.state.BusAndStopState` applies its actions.
:class:`Stage` is the coarser part of the game (setup, regular play, the final round, over), shown
as ``view()["phase"]``.
"""

from __future__ import annotations

import enum

from bus_lab.engine.moves import Actor, Phase, PhaseRule

__all__ = ["BusAndStopPhase", "Stage", "PHASES", "CHANCE_PHASES"]


class BusAndStopPhase(Phase):
    """Where the game is (``state.phase()``, also ``view()["node"]``)."""

    #: chance: a passenger card is dealt to the bus stop at setup
    DEAL = "deal"
    #: chance: a passenger card refills the bus stop after a pick-up
    REFILL = "refill"
    #: a seat picks up a colour, drops off at a destination, or (final round) passes
    TURN = "turn"
    #: the seat dropping off chooses the next passenger to get off
    CHOOSE = "choose"
    #: another seat may skedaddle a passenger matching the drop-off
    SKEDADDLE = "skedaddle"
    #: a seat that can do nothing else discards unhappy passengers
    UNHAPPY = "unhappy"


class Stage(str, enum.Enum):
    """The part of the game (``view()["phase"]``)."""

    #: the bus stop is being dealt
    SETUP = "setup"
    #: regular turns
    PLAY = "play"
    #: the final round, after the end was triggered
    FINAL = "final"
    #: the game is over
    OVER = "over"

    def __str__(self) -> str:
        return str(self.value)


#: Who acts in each phase and which state method applies its actions.
PHASES: dict[BusAndStopPhase, PhaseRule] = {
    BusAndStopPhase.DEAL: PhaseRule(
        Actor.CHANCE, "_on_deal", "BAS-SETUP-STOP", "a passenger card is dealt face up to the bus stop"
    ),
    BusAndStopPhase.REFILL: PhaseRule(
        Actor.CHANCE, "_on_refill", "BAS-REFILL", "a passenger card refills the bus stop"
    ),
    BusAndStopPhase.TURN: PhaseRule(
        Actor.SEAT, "_on_turn", "BAS-TURN", "pick up one colour, drop off at a destination, or pass (final)"
    ),
    BusAndStopPhase.CHOOSE: PhaseRule(
        Actor.SEAT, "_on_choose", "BAS-DROP-TYPE", "choose the next passenger of the drop-off"
    ),
    BusAndStopPhase.SKEDADDLE: PhaseRule(
        Actor.SEAT, "_on_skedaddle", "BAS-SKEDADDLE", "skedaddle a passenger matching the drop-off, or not"
    ),
    BusAndStopPhase.UNHAPPY: PhaseRule(
        Actor.SEAT, "_on_unhappy", "BAS-UNHAPPY", "discard an unhappy passenger, or stop after one"
    ),
}

#: The phases where chance acts (a passenger card is turned up).
CHANCE_PHASES = frozenset(p for p, rule in PHASES.items() if rule.actor is Actor.CHANCE)
