"""Ride the Bus: the 52-card guessing game (four questions, the pyramid, the bus).

``bus_lab.load_game("ride_the_bus", players=4)``; rules ``RTB-…`` in the rule catalogue.
"""

from bus_lab.games.ride_the_bus.cards import card_code, parse_card
from bus_lab.games.ride_the_bus.game import RideTheBusGame
from bus_lab.games.ride_the_bus.moves import Deal, Give, Guess
from bus_lab.games.ride_the_bus.phases import Part, RideTheBusPhase
from bus_lab.games.ride_the_bus.state import (
    BLACK,
    CLUBS,
    DIAMONDS,
    GIVE_BASE,
    HEARTS,
    HIGHER,
    INSIDE,
    LOWER,
    OUTSIDE,
    QUESTIONS,
    RED,
    SPADES,
    RideTheBusState,
    judge,
)

__all__ = [
    "RideTheBusGame",
    "RideTheBusState",
    "RideTheBusPhase",
    "Part",
    "Guess",
    "Give",
    "Deal",
    "card_code",
    "parse_card",
    "judge",
    "QUESTIONS",
    "RED",
    "BLACK",
    "HIGHER",
    "LOWER",
    "INSIDE",
    "OUTSIDE",
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "SPADES",
    "GIVE_BASE",
]
