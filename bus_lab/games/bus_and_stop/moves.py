"""The moves of Bus & Stop, named in the game's words, and their action ints.

This module is the only place that turns a move into its int and back. Everything else asks the
state for :meth:`~bus_lab.engine.core.State.legal_moves` and reads the fields below; passengers are
named by their *kind* (colour × type index of the component sheet, see
:mod:`bus_lab.games.bus_and_stop.components`), colours and destination stacks by their index.

Action ints (kept in histories and saved games, never renumbered):

* ``0`` … ``num_kinds − 1``: :class:`PassengerDrawn`, a passenger card turned up at the stop;
* ``PICK_BASE + colour``: :class:`PickUp`;
* ``DROP_BASE + DROP_SPAN * stack + count``: :class:`DropOff`;
* ``CHOOSE_BASE + kind``: :class:`ChoosePassenger`;
* ``SKEDADDLE_BASE + kind``: :class:`Skedaddle`; ``NO_SKEDADDLE``: :class:`NoSkedaddle`;
* ``UNHAPPY_BASE + kind``: :class:`UnhappyDiscard`; ``UNHAPPY_DONE``: :class:`StopDiscarding`;
* ``PASS``: :class:`Pass`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bus_lab.engine.moves import Move

PICK_BASE = 100
DROP_BASE = 200
#: ``DROP_BASE + DROP_SPAN * stack + count``: room for counts 1 to 19 at each stack.
DROP_SPAN = 20
CHOOSE_BASE = 400
SKEDADDLE_BASE = 500
NO_SKEDADDLE = 600
UNHAPPY_BASE = 700
UNHAPPY_DONE = 800
PASS = 900

__all__ = [
    "PICK_BASE",
    "DROP_BASE",
    "DROP_SPAN",
    "CHOOSE_BASE",
    "SKEDADDLE_BASE",
    "NO_SKEDADDLE",
    "UNHAPPY_BASE",
    "UNHAPPY_DONE",
    "PASS",
    "PassengerDrawn",
    "PickUp",
    "DropOff",
    "ChoosePassenger",
    "Skedaddle",
    "NoSkedaddle",
    "UnhappyDiscard",
    "StopDiscarding",
    "Pass",
    "decode",
    "pick_up_action",
    "drop_action",
    "choose_action",
    "skedaddle_action",
    "unhappy_action",
]


@dataclass(frozen=True)
class PassengerDrawn(Move):
    """Chance: a passenger card of kind ``passenger`` is turned up at the bus stop (a deal at setup,
    BAS-SETUP-STOP, or a refill, BAS-REFILL). Label: the card's code (``"YB"``)."""

    passenger: int
    kind: ClassVar[str] = "draw"
    chance: ClassVar[bool] = True

    @property
    def action(self) -> int:
        return self.passenger


@dataclass(frozen=True)
class PickUp(Move):
    """Pick up every passenger of colour index ``colour`` at the stop (BAS-PICK-ALL).
    Label: ``"pick up yellow"``."""

    colour: int
    kind: ClassVar[str] = "pick_up"

    @property
    def action(self) -> int:
        return pick_up_action(self.colour)


@dataclass(frozen=True)
class DropOff(Move):
    """Drop ``count`` passengers off at the top card of stack index ``stack`` (BAS-DROP-TOP); the
    passengers are then chosen one by one (:class:`ChoosePassenger`). Label: ``"drop 5 at office"``."""

    stack: int
    count: int
    kind: ClassVar[str] = "drop_off"

    @property
    def action(self) -> int:
        return drop_action(self.stack, self.count)


@dataclass(frozen=True)
class ChoosePassenger(Move):
    """During a drop-off: the next passenger to get off is one of kind ``passenger``
    (BAS-DROP-TYPE, BAS-DROP-MULTI). Label: ``"choose yellow businessman"``."""

    passenger: int
    kind: ClassVar[str] = "choose"

    @property
    def action(self) -> int:
        return choose_action(self.passenger)


@dataclass(frozen=True)
class Skedaddle(Move):
    """Another seat's reaction to a drop-off: skedaddle one passenger of kind ``passenger``
    (BAS-SKEDADDLE). Label: ``"skedaddle green mother"``."""

    passenger: int
    kind: ClassVar[str] = "skedaddle"

    @property
    def action(self) -> int:
        return skedaddle_action(self.passenger)


@dataclass(frozen=True)
class NoSkedaddle(Move):
    """Decline to skedaddle (BAS-SKEDADDLE). Label: ``"no skedaddle"``."""

    kind: ClassVar[str] = "no_skedaddle"

    @property
    def action(self) -> int:
        return NO_SKEDADDLE


@dataclass(frozen=True)
class UnhappyDiscard(Move):
    """A player who can neither pick up nor drop off discards a passenger of kind ``passenger`` as
    unhappy, −1 (BAS-UNHAPPY). Label: ``"unhappy blue student"``."""

    passenger: int
    kind: ClassVar[str] = "unhappy"

    @property
    def action(self) -> int:
        return unhappy_action(self.passenger)


@dataclass(frozen=True)
class StopDiscarding(Move):
    """Stop discarding unhappy passengers, after at least one (BAS-UNHAPPY). Label:
    ``"stop discarding"``."""

    kind: ClassVar[str] = "stop_discarding"

    @property
    def action(self) -> int:
        return UNHAPPY_DONE


@dataclass(frozen=True)
class Pass(Move):
    """Pass the turn: in the final round only (BAS-END-FINAL). Label: ``"pass"``."""

    kind: ClassVar[str] = "pass"

    @property
    def action(self) -> int:
        return PASS


# The encoders, for the rules' inner loops (the same ints as the moves' ``.action``).
def pick_up_action(colour: int) -> int:
    """``PickUp(colour).action``."""
    return PICK_BASE + colour


def drop_action(stack: int, count: int) -> int:
    """The action "drop ``count`` passengers at stack ``stack``" (``DropOff(stack, count).action``)."""
    return DROP_BASE + DROP_SPAN * stack + count


def choose_action(passenger: int) -> int:
    """``ChoosePassenger(passenger).action``."""
    return CHOOSE_BASE + passenger


def skedaddle_action(passenger: int) -> int:
    """``Skedaddle(passenger).action``."""
    return SKEDADDLE_BASE + passenger


def unhappy_action(passenger: int) -> int:
    """``UnhappyDiscard(passenger).action``."""
    return UNHAPPY_BASE + passenger


_SINGLE: dict[int, Move] = {NO_SKEDADDLE: NoSkedaddle(), UNHAPPY_DONE: StopDiscarding(), PASS: Pass()}
_BY_KIND: tuple[tuple[int, type[ChoosePassenger] | type[Skedaddle] | type[UnhappyDiscard]], ...] = (
    (CHOOSE_BASE, ChoosePassenger),
    (SKEDADDLE_BASE, Skedaddle),
    (UNHAPPY_BASE, UnhappyDiscard),
)


def decode(action: int, kinds: int, colours: int, stacks: int) -> Move | None:
    """The move of ``action`` in a game whose sheet has ``kinds`` passenger kinds, ``colours``
    colours and ``stacks`` destination stacks, or ``None`` when no move has that number.

    Args:
        action (int): an action int.
        kinds, colours, stacks (int): the sheet's sizes (``sheet.num_kinds``,
            ``len(sheet.colours)``, ``len(sheet.stacks)``).
    """
    if 0 <= action < kinds:
        return PassengerDrawn(action)
    if PICK_BASE <= action < PICK_BASE + colours:
        return PickUp(action - PICK_BASE)
    if DROP_BASE <= action < DROP_BASE + DROP_SPAN * stacks:
        stack, count = divmod(action - DROP_BASE, DROP_SPAN)
        return DropOff(stack, count) if count else None
    for base, cls in _BY_KIND:
        if base <= action < base + kinds:
            return cls(action - base)
    return _SINGLE.get(action)
