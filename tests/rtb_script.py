"""Playing Ride the Bus by hand in the rule tests: scripted cards, guesses and hand-overs."""

from __future__ import annotations

from bus_lab import load_game
from bus_lab.games.ride_the_bus import parse_card
from bus_lab.games.ride_the_bus.moves import Give
from bus_lab.games.ride_the_bus.phases import RideTheBusPhase

RANKS = "23456789TJQKA"
SUITS = "CDHS"
ALL_CODES = [r + s for r in RANKS for s in SUITS]
#: A pyramid no Part 1 row of ranks 2 to 8 can match (nines, tens and two jacks).
NO_MATCH_PYRAMID = ["9C", "9D", "9H", "9S", "TC", "TD", "TH", "TS", "JC", "JD"]


def new_state(players: int = 2, **params):
    """A new game's first state (``load_game`` options as keywords)."""
    return load_game("ride_the_bus", players=players, **params).new_initial_state()


def deal(state, code: str) -> None:
    """Apply the chance outcome ``code`` (the card drawn)."""
    assert state.is_chance_node(), state.status()
    state.apply_action(parse_card(code))


def say(state, label: str) -> None:
    """Apply the decision whose label is ``label`` (a guess such as ``"higher"``)."""
    state.apply_action(state.string_to_action(label))


def give(state, seat: int) -> None:
    """Hand the points at stake to ``seat``."""
    state.apply_action(Give(seat))


def at_give(state) -> bool:
    """Whether the player to move must choose who takes points."""
    return state.decision_kind() is RideTheBusPhase.GIVE


def rules_since(state, start: int) -> list[str]:
    """The rule IDs of the events from number ``start`` on."""
    return [e.rule for e in state.events()[start:]]


def events_since(state, start: int, rule: str):
    """The events from number ``start`` on that cite ``rule``."""
    return [e for e in state.events()[start:] if e.rule == rule]
