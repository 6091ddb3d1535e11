"""How Bus & Stop is played on its board: which thing each move taps, what it would do, why not.

Target keys (the drawer ``bus_lab/board/static/games/bus_and_stop.js`` marks the same ones):

* ``"stop:<colour>"``: the passengers of one colour at the bus stop (``"stop:yellow"``); tapping
  it picks that colour up (BAS-PICK-ALL). Drawn for every colour present at the stop.
* ``"stack:<name>"``: a destination stack (``"stack:office"``); tapping it shows one button per
  count its top card accepts ("2 passengers"), which drops off (BAS-DROP-TOP). Drawn for every stack.
* ``"bus:<seat>:<code>"``: a passenger of kind ``code`` (``"YB"``) in the bus of ``seat``, the seat
  to move; drawn while that seat chooses passengers to drop (BAS-DROP-TYPE, BAS-DROP-MULTI),
  may skedaddle (BAS-SKEDADDLE) or discards unhappy passengers (BAS-UNHAPPY). Tapping it chooses,
  skedaddles or discards one passenger of that kind.

Moves that nothing on the board stands for (no skedaddle, stop discarding, pass) have an empty
path: they are choices in the side panel.

Odds: none. The exact chances of :mod:`bus_lab.games.bus_and_stop.odds` are about random decks and
buses (a one-colour stop, a random bus claiming a card); no move of a seat is a bet that comes off
or not, so no move carries a chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bus_lab.board.frame import BoardAdapter
from bus_lab.engine.core import State
from bus_lab.engine.moves import Move
from bus_lab.games.bus_and_stop.components import BUS_SEATS, END_DESTINATIONS_LEFT
from bus_lab.games.bus_and_stop.moves import (
    ChoosePassenger,
    DropOff,
    NoSkedaddle,
    Pass,
    PickUp,
    Skedaddle,
    StopDiscarding,
    UnhappyDiscard,
)
from bus_lab.games.bus_and_stop.phases import BusAndStopPhase, Stage
from bus_lab.games.bus_and_stop.state import SENIOR_CAP

__all__ = ["ADAPTER", "BusAndStopAdapter", "stop_key", "stack_key", "bus_key", "count_choice"]

#: Phases in which passengers in the mover's bus are board targets.
PASSENGER_PHASES = (BusAndStopPhase.CHOOSE, BusAndStopPhase.SKEDADDLE, BusAndStopPhase.UNHAPPY)


def stop_key(colour: str) -> str:
    """The target key of the passengers of colour ``colour`` (a colour name) at the stop."""
    return f"stop:{colour}"


def stack_key(name: str) -> str:
    """The target key of the destination stack named ``name``."""
    return f"stack:{name}"


def bus_key(seat: int, code: str) -> str:
    """The target key of the passengers of kind ``code`` (``"YB"``) in ``seat``'s bus."""
    return f"bus:{seat}:{code}"


def count_choice(count: int) -> str:
    """The words of the button that drops ``count`` passengers: ``"2 passengers"``, ``"1 passenger"``."""
    return f"{count} passenger{'s' if count != 1 else ''}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class BusAndStopAdapter(BoardAdapter):
    """The board hooks of Bus & Stop (see the module docstring for the target keys)."""

    game = "bus_and_stop"

    # -- heading ---------------------------------------------------------------------------------
    def heading(self, state: State) -> str:
        """What part of the game is on, with its rule ID, e.g. ``"Turn 4 · Seat 1: pick up or drop
        off [BAS-TURN] · 16 destination cards left, 52 passengers in the deck"``.

        Args:
            state (BusAndStopState): the position.

        Returns:
            str: one line.
        """
        stage, node, seat = state.stage, state.node, state.seat
        left = f"{_plural(state.destinations_left(), 'destination card')} left, "
        left += f"{_plural(sum(state.deck), 'passenger')} in the deck"
        if stage is Stage.SETUP:
            return "Setting up: dealing the bus stop [BAS-SETUP-STOP]"
        if stage is Stage.OVER:
            return "Game over: the highest total wins; a tie goes to seniors + skedaddled [BAS-WIN]"
        if node is BusAndStopPhase.CHOOSE:
            stack, count, chosen = state.pending
            spec = state.sheet.stacks[stack]
            rule = "BAS-DROP-MULTI" if spec.multicoloured else "BAS-DROP-TYPE"
            part = (
                f"Seat {seat} drops {count} at the {spec.name}: choosing passenger "
                f"{len(chosen) + 1} of {count} [{rule}]"
            )
        elif node is BusAndStopPhase.SKEDADDLE:
            dropper, stack, _colours = state.sked_from
            part = (
                f"Seat {state.sked_seat} may skedaddle one passenger after Seat {dropper}'s drop-off at "
                f"the {state.sheet.stacks[stack].name} [BAS-SKEDADDLE]"
            )
        elif node is BusAndStopPhase.UNHAPPY:
            part = f"Seat {seat} can neither pick up nor drop off: unhappy discards, −1 each [BAS-UNHAPPY]"
        elif node is BusAndStopPhase.REFILL:
            part = f"Seat {seat} picked up: refilling the bus stop [BAS-REFILL]"
        elif stage is Stage.FINAL:
            what = "a whole final turn" if state.full_final else "drop off or pass"
            part = f"Seat {seat}: {what} [BAS-END-FINAL]"
        else:
            part = f"Seat {seat}: pick up or drop off [BAS-TURN]"
        if stage is Stage.FINAL:
            why = state.trigger["reason"] if state.trigger else ""
            return f"Final round (end triggered: {why}) · {part} · {left}"
        return f"Turn {state.turns} · {part} · {left}"

    # -- targets ---------------------------------------------------------------------------------
    def target(self, state: State, move: Move) -> tuple[list[str], str | None]:
        """The board targets of ``move`` and the button beside the last one.

        Pick-up: the colour at the stop. Drop-off: the stack, then a count button
        (:func:`count_choice`). Choose / skedaddle / unhappy: the passenger in the mover's bus.
        No skedaddle, stop discarding and pass: side-panel choices (empty path).
        """
        sheet = state.sheet
        if isinstance(move, PickUp):
            return [stop_key(sheet.colours[move.colour].name)], None
        if isinstance(move, DropOff):
            return [stack_key(sheet.stacks[move.stack].name)], count_choice(move.count)
        if isinstance(move, (ChoosePassenger, Skedaddle, UnhappyDiscard)):
            return [bus_key(state.current_player(), sheet.code(move.passenger))], None
        if isinstance(move, NoSkedaddle):
            return [], "No skedaddle"
        if isinstance(move, StopDiscarding):
            return [], "Stop discarding"
        if isinstance(move, Pass):
            return [], "Pass"
        return [], str(move)

    # -- consequences ----------------------------------------------------------------------------
    def consequence(self, state: State, move: Move) -> str | None:
        """What ``move`` would do, in words with rule IDs: the points a drop-off's count scores at the
        stack's top card (``"+10 points: ..."``), a skedaddle's +1, an unhappy discard's −1, who
        boards a pick-up and whether the seniors fit.

        Args:
            state (BusAndStopState): the position (the mover's seat to act).
            move (Move): one of its legal moves.

        Returns:
            str | None: the consequence, or ``None`` when there is nothing to say.
        """
        sheet = state.sheet
        seat = state.current_player()
        if isinstance(move, PickUp):
            colour = sheet.colours[move.colour].name
            riders = state.pick_load(move.colour)
            seniors = sum(1 for k in state.stop if sheet.colour_of(k) == move.colour and sheet.is_senior(k))
            after = state.bus_size(seat) + riders
            text = f"{_plural(riders, colour + ' passenger')} board ({after} of {BUS_SEATS} seats taken)"
            if seniors:
                room = max(0, SENIOR_CAP - len(state.seniors[seat]))
                kept = min(seniors, room)
                text += f"; {_plural(kept, 'senior')} beside the bus, +{kept} at the end [BAS-SENIOR]"
                if kept < seniors:
                    text += (
                        f"; {seniors - kept} beyond the cap of {SENIOR_CAP} leave the game [BAS-SENIOR-CAP]"
                    )
            return text + " [BAS-PICK-ALL]"
        if isinstance(move, DropOff):
            spec = sheet.stacks[move.stack]
            points = state.top_card(move.stack).points_for(move.count)
            text = f"+{_plural(points, 'point')}: the top {spec.name} card for {_plural(move.count, 'passenger')} [BAS-DROP-CLAIM]"
            left = state.destinations_left() - 1
            if state.stage is Stage.PLAY and state.trigger is None and left <= END_DESTINATIONS_LEFT:
                text += f"; only {left} destination cards are left: the end is triggered [BAS-END-TRIGGER]"
            return text
        if isinstance(move, ChoosePassenger):
            stack, count, chosen = state.pending
            spec = sheet.stacks[stack]
            rule = "BAS-DROP-MULTI" if spec.multicoloured else "BAS-DROP-TYPE"
            return (
                f"this {sheet.name(move.passenger)} gets off at the {spec.name} "
                f"(passenger {len(chosen) + 1} of {count}) [{rule}]"
            )
        if isinstance(move, Skedaddle):
            return (
                f"+1 point: this {sheet.name(move.passenger)} leaves your bus face down "
                "[BAS-SKEDADDLE, BAS-SCORE-SENIOR]"
            )
        if isinstance(move, NoSkedaddle):
            return "0 points: keep your passengers; skedaddling is optional [BAS-SKEDADDLE]"
        if isinstance(move, UnhappyDiscard):
            return (
                f"−1 point: this {sheet.name(move.passenger)} is discarded as an unhappy passenger "
                "[BAS-UNHAPPY, BAS-SCORE-UNHAPPY]"
            )
        if isinstance(move, StopDiscarding):
            return f"end the turn after {_plural(state.unhappy_count, 'unhappy passenger')} [BAS-UNHAPPY]"
        if isinstance(move, Pass):
            return "0 points: end your final turn without moving [BAS-END-FINAL]"
        return None

    def odds(self, state: State, moves: Sequence[Move]) -> dict[int, Fraction]:
        """No move of Bus & Stop is a bet: no odds (see the module docstring)."""
        return {}

    # -- blocked targets -------------------------------------------------------------------------
    def drawn_targets(self, state: State) -> dict[str, Move]:
        """Every target the drawer marks now, each with a move it stands for (for its why-not):
        the stop's colours, every stack, and the passengers in the mover's bus in the phases where
        they are tapped.

        Returns:
            dict[str, Move]: target key → a representative move (the smallest count at a stack).
        """
        sheet = state.sheet
        out: dict[str, Move] = {}
        for c in state.stop_colours():
            out[stop_key(sheet.colours[c].name)] = PickUp(c)
        for s, spec in enumerate(sheet.stacks):
            card = state.top_card(s)
            out[stack_key(spec.name)] = DropOff(s, card.counts[0] if card is not None else 1)
        node = state.node
        if node in PASSENGER_PHASES:
            seat = state.current_player()
            cls = {
                BusAndStopPhase.CHOOSE: ChoosePassenger,
                BusAndStopPhase.SKEDADDLE: Skedaddle,
                BusAndStopPhase.UNHAPPY: UnhappyDiscard,
            }[node]
            for k, n in enumerate(state.bus[seat]):
                if n:
                    out[bus_key(seat, sheet.code(k))] = cls(k)
        return out

    def blocked(self, state: State, moves: Sequence[Move]) -> dict[str, str]:
        """Every drawn target that no legal move taps now (:meth:`drawn_targets`), with the reason
        from ``why_illegal`` (e.g. BAS-PICK-LIMIT for a colour that does not fit, BAS-DROP-TYPE for a
        stack whose smallest count the bus cannot meet, BAS-DROP-MULTI for a passenger of a colour
        already chosen). Everything on the Bus & Stop table is face up, so nothing is revealed.
        """
        used = set()
        for move in moves:
            path, _choice = self.target(state, move)
            used.update(path)
        reasons = {}
        for key, move in self.drawn_targets(state).items():
            if key not in used:
                reasons[key] = state.why_illegal(move) or "not a move now"
        return reasons


#: The adapter ``adapter_for("bus_and_stop")`` loads.
ADAPTER = BusAndStopAdapter()
