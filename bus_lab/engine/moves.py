"""Typed moves and named phases: the contract between a game's rules and everything above them.

A game's actions are ints (the history format, OpenSpiel's convention), but nothing above a game
does arithmetic on them. Each game defines its moves as small immutable values named in its own
words (a guess, a bid, a drive to a street card) in its ``moves`` module, the only place that turns
a move into its int and back. A front end asks the state for :meth:`~bus_lab.engine.core.State.legal_moves`
and reads the moves' fields; it sends back a move (or its ``.action``).

Phases are named too: each game has one :class:`Phase` enum and one table ``{phase: PhaseRule}``
saying who acts in that phase and which handler of the state applies its actions.

Standard library only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class Move:
    """One move of a game, named in the game's own words.

    Subclasses are frozen dataclasses whose fields describe the move (``Guess(answer="red")``,
    ``Bid(tile=7)``, ``Drive(card=12, route=(3, 4))``) and which define :attr:`action`, the int
    kept in :meth:`~bus_lab.engine.core.State.history`. Moves are immutable, hashable and
    picklable; two moves are equal when their fields are (the label is not compared).

    Attributes:
        label (str): how the move reads at the state it came from, the same text as
            ``state.action_to_string(move.action)``; ``str(move)`` gives it. Set by the state
            (:meth:`~bus_lab.engine.core.State.move`), empty on a move made by hand.
    """

    label: str = field(default="", compare=False, kw_only=True, repr=False)

    #: The game's name for this kind of move (``"guess"``, ``"bid"``...), also used by front ends
    #: to choose how a move is offered. Subclasses set it.
    kind: ClassVar[str] = "move"
    #: True for the outcome of a chance node (a card dealt, a passenger drawn), False for a
    #: seat's decision. Chance moves are what a scripted deck lists.
    chance: ClassVar[bool] = False

    @property
    def action(self) -> int:
        """The int of this move in ``legal_actions()`` and in the history."""
        raise NotImplementedError(f"{type(self).__name__} does not define its action")

    def __str__(self) -> str:
        return self.label or repr(self)

    def __index__(self) -> int:
        """A move may be given wherever an action int is expected (``operator.index(move)``)."""
        return self.action


class Actor(enum.Enum):
    """Who acts in a phase."""

    #: a draw or reveal: ``current_player()`` is ``CHANCE``
    CHANCE = "chance"
    #: a seat decides: ``current_player()`` is that seat
    SEAT = "seat"
    #: nobody: the game is over
    NOBODY = "nobody"


class Phase(str, enum.Enum):
    """Base of each game's phase enum (members are strings, so they print and save as words).

    A game subclasses it with its own members, e.g. ``class RideTheBusPhase(Phase): GUESS = "guess"``.
    A member compares equal to its string (``Phase.GUESS == "guess"``), which keeps records and code
    written against the earlier string phases working.
    """

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class PhaseRule:
    """One row of a game's phase table: who acts in a phase and what applies its actions.

    Attributes:
        actor (Actor): chance, a seat, or nobody (the end).
        handler (str): name of the state's method that applies an action in this phase
            (``""`` for the end).
        rule (str): ID of the numbered rule that governs the phase (``"RTB-Q1"``...).
        doc (str): one line saying what is decided or drawn in this phase.
    """

    actor: Actor
    handler: str
    rule: str = ""
    doc: str = ""
