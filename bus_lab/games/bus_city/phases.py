"""The phases of BUS (the city grid game): who acts in each and which handler applies its actions.

The setup lays the grid and turns up two passenger cards (chance), the start has each seat place
its bus and take a first card, then the turns: move, then perhaps pick up or use the construction
site. A blind draw is a chance phase of its own, and so is each refill of the face-up cards.
"""

from __future__ import annotations

import enum

from bus_lab.engine.moves import Actor, Phase, PhaseRule


class Stage(str, enum.Enum):
    """The part of the game (``view()["phase"]``; a member equals its word, e.g. ``"turns"``)."""

    #: the grid is laid and two passenger cards are turned up (BUS-SETUP)
    SETUP = "setup"
    #: each seat places its bus and takes a first card (BUS-START)
    START = "start"
    #: the turns: move, then pick up or build (BUS-TURN)
    TURNS = "turns"
    #: the game is over
    OVER = "over"

    def __str__(self) -> str:
        return str(self.value)


class BusCityPhase(Phase):
    """What is decided or drawn next (a member equals its old string, e.g. ``"move"``)."""

    #: the next street card of the grid is laid (chance)
    STREET = "street"
    #: the deck's top passenger card is turned face up (chance)
    FACEUP = "faceup"
    #: the deck's top passenger card is drawn blind by the player (chance)
    DRAW = "draw"
    #: a seat puts its bus on a bus stop
    PLACE = "place"
    #: a seat takes its first passenger card
    START_PICK = "start_pick"
    #: a seat moves its bus
    MOVE = "move"
    #: a seat on a bus stop may pick up a passenger card
    PICKUP = "pickup"
    #: a seat on the construction site may swap (or turn) street cards
    CONSTRUCTION = "construction"


PHASES: dict[BusCityPhase, PhaseRule] = {
    BusCityPhase.STREET: PhaseRule(
        Actor.CHANCE, "_on_street", "BUS-SETUP", "a street card is laid on the next slot, side up at random"
    ),
    BusCityPhase.FACEUP: PhaseRule(
        Actor.CHANCE, "_on_faceup", "BUS-FACEUP", "the deck's top passenger card is turned face up"
    ),
    BusCityPhase.DRAW: PhaseRule(
        Actor.CHANCE, "_on_draw", "BUS-PICKUP", "the deck's top passenger card is drawn blind"
    ),
    BusCityPhase.PLACE: PhaseRule(
        Actor.SEAT, "_on_place", "BUS-START", "a seat puts its bus on a bus stop, facing either way"
    ),
    BusCityPhase.START_PICK: PhaseRule(
        Actor.SEAT, "_on_start_pick", "BUS-START", "a seat takes a face-up passenger card or draws one blind"
    ),
    BusCityPhase.MOVE: PhaseRule(
        Actor.SEAT, "_on_move", "BUS-MOVE", "a seat drives its bus 1 to speed-limit steps"
    ),
    BusCityPhase.PICKUP: PhaseRule(
        Actor.SEAT, "_on_pickup", "BUS-PICKUP", "a seat on a bus stop picks up a passenger card or passes"
    ),
    BusCityPhase.CONSTRUCTION: PhaseRule(
        Actor.SEAT,
        "_on_construction",
        "BUS-CONSTRUCTION",
        "a seat on the construction site swaps two street cards (or turns one) or passes",
    ),
}

#: The phases at which chance acts.
CHANCE_PHASES = frozenset(p for p, rule in PHASES.items() if rule.actor is Actor.CHANCE)
