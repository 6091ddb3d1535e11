"""The board of BUS (the city grid game): which target each move acts on, and what it does.

Targets drawn by ``games/bus_city.js``:

* ``"slot:<slot>"``: a street card of the grid (e.g. ``"slot:a1-b1"``). Driving there (BUS-MOVE)
  is one tap; when several moves end on that card (another heading, or other passengers dropped
  off on the way, BUS-DROPOFF) each is a choice button beside it ("via b1-c1, c1-c2 (heading S):
  drops off red, blue"). At the start a bus stop is tapped, then the heading (BUS-START). On the
  construction site two cards are tapped to swap them (BUS-CONSTRUCTION; in challenging play the
  sides are choices, and a single card may be turned instead, BUS-CH-ROTATE).
* ``"faceup:<card id>"``: a face-up passenger card to take (BUS-PICKUP, BUS-START).
* ``"deck"``: the deck, to draw its top card blind.

Passing (BUS-ONE-ACTION) is a choice beside the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from bus_lab.board.frame import BoardAdapter
from bus_lab.engine.core import State
from bus_lab.engine.moves import Move
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.moves import (
    DRAW_BLIND,
    DrawBlind,
    Drive,
    Pass,
    PlaceBus,
    SwapCards,
    TakeCard,
    TurnCard,
    drive_action,
    drive_parts,
    place_action,
    rotate_action,
    swap_action,
    take_action,
)
from bus_lab.games.bus_city.phases import BusCityPhase, Stage

DECK = "deck"


def slot_key(slot: int) -> str:
    """The target key of street slot ``slot`` (0–11), e.g. ``"slot:a1-b1"``."""
    return f"slot:{G.SLOTS[slot].name}"


def faceup_key(card_id: str) -> str:
    """The target key of the face-up passenger card ``card_id``, e.g. ``"faceup:red-pink"``."""
    return f"faceup:{card_id}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def drop_outcome(state, seat: int, mask: int) -> tuple[list[str], int, int | None]:
    """What dropping off the passenger colours of ``mask`` does to ``seat``'s cards (BUS-DROPOFF,
    BUS-PROGRESS, BUS-SPEED).

    Args:
        state (BusCityState): the position before the move.
        seat (int): the seat whose passengers are dropped off.
        mask (int): a drop mask (bit ``i``: the ``i``-th colour of the component sheet).

    Returns:
        tuple: the ids of the cards this completes, the points they score (BUS-SCORE), and the
        speed limit the seat would have afterwards (``None``: no limit; before any pick-up).
    """
    completed: list[str] = []
    points = 0
    speeds: list[int] = []
    for card, done in state.held[seat]:
        bits = state._card_bits[card]
        p = state.sheet.passengers[card]
        if (done | (mask & bits)) == bits:
            completed.append(p.id)
            points += p.value
        else:
            speeds.append(p.speed)
    return completed, points, (min(speeds) if speeds else state.empty_speed)


def _limit_words(limit: int | None) -> str:
    return "no speed limit" if limit is None else f"speed limit {limit}"


def _route_words(route: Sequence[int]) -> str:
    """The slots entered on the way to the last one (``"via b1-c1, c1-c2"``), or ``"direct"``."""
    names = [G.SLOTS[n // 2].name for n in route[:-1]]
    return "via " + ", ".join(names) if names else "direct"


class BusCityAdapter(BoardAdapter):
    """Board hooks of BUS (see the module docstring for the targets)."""

    game = "bus_city"

    # -- heading -------------------------------------------------------------------------------
    def heading(self, state: State) -> str:
        """The round, whose turn it is, the speed limit and the phase in words, with rule IDs.

        Args:
            state (BusCityState): the position shown.

        Returns:
            str: e.g. ``"Round 3 of at most 50: Seat 1 drives the bus (speed limit 2) [BUS-MOVE,
            BUS-SPEED]"`` (BUS-SETUP, BUS-START, BUS-TURN, BUS-WIN for the other parts).
        """
        stage = state.stage
        if stage is Stage.SETUP:
            return "Setup: laying the grid and turning up two passenger cards [BUS-SETUP]"
        if stage is Stage.START:
            seat = state.actor
            what = (
                "places the bus on a bus stop"
                if state.node is BusCityPhase.PLACE
                else "takes a first passenger card"
            )
            return f"Start: Seat {seat} {what} [BUS-START]"
        if stage is Stage.TURNS:
            final = ", final round" if state.end_trigger is not None else ""
            node = state.node
            if node is BusCityPhase.MOVE:
                limit = _limit_words(state.speed_limit)
                part = f"drives the bus ({limit}) [BUS-MOVE, BUS-SPEED]"
            elif node is BusCityPhase.PICKUP:
                part = "may pick up a passenger card [BUS-PICKUP]"
            elif node is BusCityPhase.CONSTRUCTION:
                part = "may use the construction site [BUS-CONSTRUCTION]"
            elif node is BusCityPhase.DRAW:
                part = "draws the deck's top passenger card blind [BUS-PICKUP]"
            else:
                part = "waits: a passenger card is turned face up [BUS-FACEUP]"
            return f"Round {state.round} of at most {state.max_rounds}{final}: Seat {state.turn} {part}"
        return "Game over: most points wins, then most complete cards [BUS-WIN]"

    # -- targets -------------------------------------------------------------------------------
    def target(self, state: State, move: Move) -> tuple[list[str], str | None]:
        """The targets tapped to make ``move`` and the words of its choice button.

        Drive, place: the street card (a choice when several moves end there: the route, heading
        and drop-offs of a drive, BUS-DROPOFF; the heading of a start, BUS-START); swap: the two
        cards in grid order (the sides as a choice in challenging play, BUS-CH-ROTATE); turn: the
        card, then a choice; take: the face-up card; draw blind: the deck; pass: a choice beside
        the board (BUS-ONE-ACTION).

        Args:
            state (BusCityState): the position, with ``move`` legal in it.
            move (Move): one of ``state.legal_moves()``.

        Returns:
            tuple[list[str], str | None]: the target keys in tapping order, and the choice text
            (``None``: the last tap plays the move).
        """
        if isinstance(move, Drive):
            here = [a for a in state.move_routes() if drive_parts(a)[0] // 2 == move.slot]
            if len(here) == 1:
                return [slot_key(move.slot)], None
            return [slot_key(move.slot)], self.drive_choice(move)
        if isinstance(move, PlaceBus):
            heading = G.SLOTS[move.slot].heading_name(move.heading)
            return [slot_key(move.slot)], f"facing {heading}"
        if isinstance(move, SwapCards):
            path = [slot_key(move.first), slot_key(move.second)]
            if not state.challenging:
                return path, None
            first, second = G.SLOTS[move.first], G.SLOTS[move.second]
            return path, (
                f"symbols {first.side_name(move.first_side)} on {first.name}, "
                f"{second.side_name(move.second_side)} on {second.name}"
            )
        if isinstance(move, TurnCard):
            return [slot_key(move.slot)], "turn this card 180°"
        if isinstance(move, TakeCard):
            return [faceup_key(state.sheet.passengers[move.card].id)], None
        if isinstance(move, DrawBlind):
            return [DECK], None
        if isinstance(move, Pass):
            word = "pick up" if state.node is BusCityPhase.PICKUP else "build"
            return [], f"Pass (do not {word})"
        return [], str(move)

    @staticmethod
    def drive_choice(move: Drive) -> str:
        """The words of a drive's choice button: its route, heading and drop-offs, e.g.
        ``"via b1-c1, c1-c2 (heading S): drops off red, blue"``."""
        heading = G.SLOTS[move.slot].heading_name(move.heading)
        drops = ", ".join(move.drops) if move.drops else "nobody"
        return f"{_route_words(move.route)} (heading {heading}): drops off {drops}"

    # -- consequences --------------------------------------------------------------------------
    def consequence(self, state: State, move: Move) -> str | None:
        """What the move does, in words with rule IDs: a drive's steps, drop-offs, the cards it
        completes and their points, the speed limit that follows (BUS-MOVE, BUS-DROPOFF,
        BUS-PROGRESS, BUS-SCORE, BUS-SPEED) and the card's action at its end (BUS-PICKUP,
        BUS-CONSTRUCTION, BUS-CH-SIDE); a pick-up's new speed limit; a swap or turn's cards.
        A blind draw says nothing of the deck (its order is hidden).

        Args:
            state (BusCityState): the position, with ``move`` legal in it.
            move (Move): one of ``state.legal_moves()``.

        Returns:
            str | None: the consequence, or ``None`` for a move this game does not have.
        """
        seat = state.actor
        if isinstance(move, Drive):
            return self._drive_words(state, seat, move)
        if isinstance(move, PlaceBus):
            info = G.SLOTS[move.slot]
            return f"start on the bus stop {info.name} facing {info.heading_name(move.heading)} (BUS-START)"
        if isinstance(move, TakeCard):
            p = state.sheet.passengers[move.card]
            speeds = [state.sheet.passengers[c].speed for c, _ in state.held[seat]] + [p.speed]
            return (
                f"take {p.id} (value {p.value}, speed {p.speed}): {_limit_words(min(speeds))} "
                "from your next turn (BUS-PICKUP, BUS-SPEED)"
            )
        if isinstance(move, DrawBlind):
            return "take the deck's top card without seeing it first (BUS-PICKUP)"
        if isinstance(move, Pass):
            return "use nothing on this card (BUS-ONE-ACTION)"
        if isinstance(move, SwapCards):
            a, b = state.street_at(move.first), state.street_at(move.second)
            return (
                f"swap {a.describe()} on {G.SLOTS[move.first].name} and {b.describe()} on "
                f"{G.SLOTS[move.second].name}; your site is then used (BUS-CONSTRUCTION)"
            )
        if isinstance(move, TurnCard):
            info = G.SLOTS[move.slot]
            side = info.side_name(1 - state.side_at(move.slot))
            return f"turn {info.name} by 180°: its symbol moves to the {side} side (BUS-CH-ROTATE)"
        return None

    def _drive_words(self, state, seat: int, move: Drive) -> str:
        steps = len(move.route)
        others = sum(1 for a in state.move_routes() if drive_parts(a)[0] // 2 == move.slot) > 1
        way = "" if others else f" {_route_words(move.route)}"  # a choice button says the route
        parts = [f"{_plural(steps, 'step')}{way} (BUS-MOVE)"]
        if move.drops:
            completed, points, limit = drop_outcome(state, seat, move.drop_mask)
            parts.append("drops off " + ", ".join(move.drops) + " (BUS-DROPOFF)")
            if completed:
                parts.append(
                    f"completes {', '.join(completed)}: +{_plural(points, 'point')} (BUS-PROGRESS, BUS-SCORE)"
                )
                if limit != state.speed_limit:
                    parts.append(f"{_limit_words(limit)} from your next turn (BUS-SPEED)")
        else:
            parts.append("drops off nobody")
        street = state.street_at(move.slot)
        usable = state.symbol_usable(move.slot, move.heading)
        if street.symbol == "stop" and usable and len(state.held[seat]) < 3 and state.supply():
            parts.append("ends on a bus stop: you may pick up (BUS-PICKUP)")
        elif street.symbol == "site" and usable and not state.site_used[seat]:
            parts.append("ends on the construction site: you may swap cards (BUS-CONSTRUCTION)")
        elif street.symbol in ("stop", "site") and not usable:
            parts.append(
                f"ends on the {street.describe()} from the wrong side: it cannot be used (BUS-CH-SIDE)"
            )
        return "; ".join(parts)

    # -- blocked targets -----------------------------------------------------------------------
    def blocked(self, state: State, moves: Sequence[Move]) -> dict[str, str]:
        """Street cards, face-up cards and the deck that no legal move uses now, each with the
        reason from ``why_illegal`` (BUS-MOVE, BUS-MOVE-END, BUS-SPEED, BUS-START,
        BUS-CONSTRUCTION, BUS-CH-ROTATE, BUS-PICKUP).

        Args:
            state (BusCityState): the position (a seat's decision).
            moves (Sequence[Move]): its legal moves.

        Returns:
            dict[str, str]: target key → why it cannot be played now.
        """
        used = {key for m in moves for key in self.target(state, m)[0]}
        node = state.node
        out: dict[str, str] = {}
        for slot in range(G.NUM_SLOTS):
            key = slot_key(slot)
            if key in used:
                continue
            why = self._slot_reason(state, slot, node)
            if why:
                out[key] = why
        for card in state.faceup:
            key = faceup_key(state.sheet.passengers[card].id)
            if key not in used:
                out[key] = state.why_illegal(take_action(card)) or "not now"
        if DECK not in used:
            if not state.deck:
                out[DECK] = "the deck is empty: no card can be drawn (BUS-PICKUP)"
            elif node in (BusCityPhase.MOVE, BusCityPhase.CONSTRUCTION, BusCityPhase.PLACE):
                out[DECK] = state.why_illegal(DRAW_BLIND) or "not now"
        return out

    @staticmethod
    def _slot_reason(state, slot: int, node) -> str | None:
        if node is BusCityPhase.MOVE:
            start = state.move_start
            near = min((0, 1), key=lambda h: G.DIST[start][G.node(slot, h)])
            return state.why_illegal(drive_action(G.node(slot, near), 0))
        if node is BusCityPhase.PLACE:
            return state.why_illegal(place_action(G.node(slot, 0)))
        if node is BusCityPhase.CONSTRUCTION:
            if state.challenging:
                return state.why_illegal(rotate_action(slot))
            other = next(s for s in range(G.NUM_SLOTS) if s != slot)
            i, j = sorted((slot, other))
            return state.why_illegal(swap_action(i, j, state.side_at(j), state.side_at(i)))
        if node is BusCityPhase.PICKUP:
            return "take a face-up passenger card, draw blind or pass now, not a street card (BUS-PICKUP)"
        if node is BusCityPhase.START_PICK:
            return "take a face-up passenger card or draw blind now, not a street card (BUS-START)"
        return None


#: The adapter :func:`bus_lab.board.frame.adapter_for` loads for ``"bus_city"``.
ADAPTER = BusCityAdapter()
