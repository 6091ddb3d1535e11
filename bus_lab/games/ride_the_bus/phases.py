"""The phases of Ride the Bus (who acts, and which handler applies the action) and the parts of
the game they belong to.

A *phase* is one kind of step (a Part 1 guess, the deal that answers it, a hand-over of points,
a pyramid flip…): :meth:`~bus_lab.games.ride_the_bus.state.RideTheBusState.phase` gives it, and
the table :data:`PHASES` says who acts in it and which method of the state applies its action.
A *part* is the stretch of the game a phase belongs to (the four questions, the pyramid, the bus…):
``state.part``, and ``view()["phase"]`` as a word.
"""

from __future__ import annotations

import enum

from bus_lab.engine.moves import Actor, Phase, PhaseRule


class RideTheBusPhase(Phase):
    """One kind of step of Ride the Bus (the value is the word used before phases were named)."""

    #: a Part 1 question: the seat to move answers (RTB-Q1 … RTB-Q4)
    GUESS = "guess"
    #: the card that answers a Part 1 question is dealt into the guesser's row (RTB-Q-ORDER)
    DEAL = "deal"
    #: a seat hands the points at stake to another seat (RTB-Q-RIGHT, RTB-P-GIVE, RTB-GT-GIVE)
    GIVE = "give"
    #: the next pyramid card is flipped (RTB-P-FLIP)
    FLIP = "flip"
    #: the current Give & Take spot is flipped (RTB-GT-LAYOUT)
    SPOT_FLIP = "spot_flip"
    #: the bus's (or the first ride's) first card is flipped (RTB-B-FLIP, RTB-SG-RIDE)
    BUS_START = "bus_start"
    #: the rider calls higher or lower than the card to beat (RTB-B-GUESS, RTB-SG-RIDE)
    BUS_GUESS = "bus_guess"
    #: the card that answers the rider's call is flipped (RTB-B-STREAK, RTB-SG-RIDE)
    BUS_DEAL = "bus_deal"
    #: the rider of the questions bus answers the next question (RTB-QB-ORDER)
    QB_GUESS = "qb_guess"
    #: the card that answers the questions-bus guess is dealt (RTB-QB-ORDER, RTB-QB-MISS)
    QB_DEAL = "qb_deal"


P = RideTheBusPhase

#: Who acts in each phase, the state's method that applies its action, and its rule.
PHASES: dict[Phase, PhaseRule] = {
    P.GUESS: PhaseRule(Actor.SEAT, "_on_guess", "RTB-Q-ORDER", "a seat answers a Part 1 question"),
    P.DEAL: PhaseRule(Actor.CHANCE, "_on_deal", "RTB-Q-ORDER", "the answering card is dealt into the row"),
    P.GIVE: PhaseRule(Actor.SEAT, "_on_give", "RTB-Q-RIGHT", "a seat picks who takes the points at stake"),
    P.FLIP: PhaseRule(Actor.CHANCE, "_on_flip", "RTB-P-FLIP", "the next pyramid card is flipped"),
    P.SPOT_FLIP: PhaseRule(
        Actor.CHANCE, "_on_spot_flip", "RTB-GT-LAYOUT", "the current Give & Take spot is flipped"
    ),
    P.BUS_START: PhaseRule(Actor.CHANCE, "_on_bus_start", "RTB-B-FLIP", "the bus's first card is flipped"),
    P.BUS_GUESS: PhaseRule(Actor.SEAT, "_on_bus_guess", "RTB-B-GUESS", "the rider calls higher or lower"),
    P.BUS_DEAL: PhaseRule(Actor.CHANCE, "_on_bus_deal", "RTB-B-STREAK", "the next bus card is flipped"),
    P.QB_GUESS: PhaseRule(
        Actor.SEAT, "_on_qb_guess", "RTB-QB-ORDER", "the rider answers the next question on the bus"
    ),
    P.QB_DEAL: PhaseRule(Actor.CHANCE, "_on_qb_deal", "RTB-QB-ORDER", "the next questions-bus card is dealt"),
}

#: The phases at which a card is drawn (``current_player() == CHANCE``).
CHANCE_PHASES: frozenset[RideTheBusPhase] = frozenset(
    p for p, rule in PHASES.items() if rule.actor is Actor.CHANCE and isinstance(p, RideTheBusPhase)
)
#: The phases at which a guess answers (the deal after a guess).
ANSWER_PHASES: frozenset[RideTheBusPhase] = frozenset((P.DEAL, P.BUS_DEAL, P.QB_DEAL))


class Part(str, enum.Enum):
    """The part of the game (``view()["phase"]`` as a word; members compare equal to it)."""

    #: Part 1: the four questions (RTB-Q1 … RTB-Q4)
    QUESTIONS = "questions"
    #: Part 2 on the pyramid (RTB-P-*)
    PYRAMID = "pyramid"
    #: Part 2 on the Give & Take board (RTB-GT-*)
    GIVE_AND_TAKE = "give_and_take"
    #: Part 3: the bus, higher/lower or questions (RTB-B-*, RTB-QB-*)
    BUS = "bus"
    #: the solo gauntlet's rides (RTB-SG-*)
    RIDES = "rides"
    #: the game is over
    OVER = "over"

    def __str__(self) -> str:
        return str(self.value)
