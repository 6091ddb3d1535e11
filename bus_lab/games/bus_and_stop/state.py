"""Bus & Stop: the rules, as a step-through state.

Every card dealt to the bus stop is a chance node whose outcomes are the passenger *kinds* still
in the deck (cards of one colour and type are identical), each with its exact probability
``cards of that kind / cards in the deck``: the deck's order is decided one card at a time, when a
card is turned up, so a reshuffle needs no chance step of its own. Everything else is face up.
Each applied action records events citing the rules it applies (``shared/rules/bus_and_stop.md``).

Moves: :mod:`.moves` (a passenger card drawn, a pick-up, a drop-off and the choice of its
passengers, a skedaddle or not, an unhappy discard or stopping, a pass), the only module that
turns them into their action ints and back; phases: :mod:`.phases`; event sentences:
:mod:`.narrate`; the shape of ``view(seat)``: :mod:`.views`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from bus_lab.engine.core import CHANCE, TERMINAL, State, _fold
from bus_lab.engine.moves import Move
from bus_lab.games.bus_and_stop import views
from bus_lab.games.bus_and_stop.components import (
    BUS_SEATS,
    END_DESTINATIONS_LEFT,
    STOP_SIZE,
    Sheet,
)
from bus_lab.games.bus_and_stop.moves import (
    CHOOSE_BASE,
    DROP_BASE,
    DROP_SPAN,
    NO_SKEDADDLE,
    PASS,
    PICK_BASE,
    SKEDADDLE_BASE,
    UNHAPPY_BASE,
    UNHAPPY_DONE,
    ChoosePassenger,
    DropOff,
    NoSkedaddle,
    Pass,
    PassengerDrawn,
    PickUp,
    Skedaddle,
    StopDiscarding,
    UnhappyDiscard,
    choose_action,
    decode,
    drop_action,
    pick_up_action,
    skedaddle_action,
    unhappy_action,
)
from bus_lab.games.bus_and_stop.narrate import narrate, place, plural, seat_name
from bus_lab.games.bus_and_stop.phases import CHANCE_PHASES, PHASES, BusAndStopPhase, Stage

__all__ = [
    "BusAndStopState",
    "PICK_BASE",
    "DROP_BASE",
    "DROP_SPAN",
    "CHOOSE_BASE",
    "SKEDADDLE_BASE",
    "NO_SKEDADDLE",
    "UNHAPPY_BASE",
    "UNHAPPY_DONE",
    "PASS",
    "SENIOR_CAP",
    "MAX_SETUP_RESHUFFLES",
    "EMPTY_BUS_BONUS",
    "drop_action",
    "seat_name",
]
#: Most seniors a player may hold (BAS-SENIOR-CAP).
SENIOR_CAP = 10
#: Most reshuffles of a same-colour stop at setup (BAS-SETUP-SAMECOLOUR ruling).
MAX_SETUP_RESHUFFLES = 100
#: Points for an empty bus at the end (BAS-SCORE-EMPTY).
EMPTY_BUS_BONUS = 3
#: The phases where a passenger card is turned up (chance acts).
CHANCE_NODES = CHANCE_PHASES
_P = BusAndStopPhase
_plural = plural


def _place(spec) -> str:
    """How a destination reads after "the": ``"office"``, ``"multicoloured destination"``."""
    return place(spec.name, spec.multicoloured)


class BusAndStopState(State):
    """A game of Bus & Stop in progress.

    Stages (:class:`~.phases.Stage`, ``stage``): setup (dealing the stop), play (regular turns),
    final (the final round after the end is triggered), over. Phases
    (:class:`~.phases.BusAndStopPhase`, ``phase()``, kept in ``node``): deal and refill (chance),
    turn, choose (which passengers to drop), skedaddle, unhappy; ``None`` once the game is over.

    Attributes (read them; change the state only with ``apply_action``):
        sheet (Sheet): the component sheet. deck (list[int]): cards of each kind in the deck.
        stop (list[int]): kinds at the bus stop, in the order dealt.
        bus (list[list[int]]): per seat, passengers of each kind in the bus.
        seniors, skedaddled, unhappy, dropped (list[list[int]]): per seat, kinds beside the bus /
            skedaddled / discarded unhappy / dropped off at destinations.
        seniors_lost (list[list[int]]): per seat, seniors beyond the cap that left the game.
        claimed (list[list[tuple[int, int, int, int]]]): per seat, ``(stack, card, count, points)``.
        stacks (list[list[int]]): per stack, indices of its cards in ``sheet.stacks[s].cards``, top first.
        seat (int): whose turn it is. trigger (dict | None): who triggered the end and why.
        stage (Stage): the part of the game. node (BusAndStopPhase | None): the phase.
    """

    RENDER = ("bus_lab.games.bus_and_stop.render", "table_html", "table_text")
    PHASES = PHASES  # type: ignore[assignment]
    NARRATE = narrate  # type: ignore[assignment]  # a plain function, read from the class

    def __init__(self, game):
        super().__init__(game)
        sheet: Sheet = game.sheet
        self.sheet = sheet
        n = self.num_players = int(game.params["players"])
        self.full_final: bool = game.params["final_round"] == "full_turn"
        self.penalty: bool = bool(game.params["leftover_penalty"])
        self.deck: list[int] = list(sheet.deck)
        self.stop: list[int] = []
        k = sheet.num_kinds
        self.bus: list[list[int]] = [[0] * k for _ in range(n)]
        self.seniors: list[list[int]] = [[] for _ in range(n)]
        self.seniors_lost: list[list[int]] = [[] for _ in range(n)]
        self.skedaddled: list[list[int]] = [[] for _ in range(n)]
        self.unhappy: list[list[int]] = [[] for _ in range(n)]
        self.dropped: list[list[int]] = [[] for _ in range(n)]
        self.claimed: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        self.stacks: list[list[int]] = []
        self.stage = Stage.SETUP
        self.node: BusAndStopPhase | None = _P.DEAL
        self.seat = 0
        self.setup_deals = 1
        self.refill_redealt = False
        self.trigger: dict[str, Any] | None = None
        self.final_order: list[int] = []
        self.final_index = 0
        self.pending: tuple[int, int, list[int]] | None = None  # (stack, count, kinds chosen)
        self.sked_queue: list[int] = []
        self.sked_seat: int | None = None
        self.sked_from: tuple[int, int, tuple[int, ...]] | None = None  # (dropper, stack, colours dropped)
        self.unhappy_count = 0
        self.turns = 0
        self._setup_log()

    # -- setup ---------------------------------------------------------------------------
    def _setup_log(self) -> None:
        sheet = self.sheet
        self._log(
            "BAS-COMP-PASSENGERS",
            cards=sheet.deck_size(),
            colours=[c.name for c in sheet.colours],
            types=[t.name for t in sheet.types],
        )
        self._log(
            "BAS-COMP-DESTINATIONS",
            cards=sheet.destination_count(),
            stacks=[{"name": s.name, "cards": len(s.cards)} for s in sheet.stacks],
        )
        self._log("BAS-COMP-SIDES")
        for stack in sheet.stacks:
            order = sorted(range(len(stack.cards)), key=lambda i: stack.cards[i].order_key(), reverse=True)
            self.stacks.append(order)
        self._log("BAS-SETUP-STACKS")
        tops = [
            {"stack": s.name, "card": s.cards[self.stacks[i][0]].text()} for i, s in enumerate(sheet.stacks)
        ]
        self._log("BAS-SETUP-ORDER", tops=tops)
        self._log("BAS-SETUP-STOP", players=self.num_players)

    # -- protocol ------------------------------------------------------------------------
    def current_player(self) -> int:
        node = self.node
        if node is None:
            return TERMINAL
        if node in CHANCE_NODES:
            return CHANCE
        if node is _P.SKEDADDLE:
            return self.sked_seat  # type: ignore[return-value]
        return self.seat

    def phase(self) -> BusAndStopPhase | None:
        """The phase (:class:`~.phases.BusAndStopPhase`): who acts and what is decided or drawn;
        ``None`` once the game is over."""
        return self.node

    def _chance_outcomes(self) -> list[tuple[int, Fraction]]:
        total = sum(self.deck)
        key = (len(self._history), total)
        cached = self.__dict__.get("_outcomes")
        if cached is not None and cached[0] == key:  # asked twice per draw (sampling, then checking)
            return list(cached[1])
        outcomes = [(k, Fraction(c, total)) for k, c in enumerate(self.deck) if c]
        self._outcomes = (key, tuple(outcomes))
        return outcomes

    def chance_weights(self) -> tuple[list[int], list[int] | None]:
        """The passenger kinds left in the deck with their card counts as weights (probability =
        count / cards in the deck), ``([], None)`` at a decision or terminal node: the fast form
        of :meth:`chance_outcomes` for drawing."""
        if self.node not in CHANCE_NODES:
            return [], None
        deck = self.deck
        actions = [k for k, c in enumerate(deck) if c]
        return actions, [deck[k] for k in actions]

    def _is_legal(self, action: int) -> bool:
        """``action in legal_actions()`` without listing every legal action (the same answer for
        every int; checked in ``tests/test_fast_paths.py``)."""
        node = self.node
        if node in CHANCE_NODES:
            return 0 <= action < len(self.deck) and self.deck[action] > 0
        if node is _P.TURN:
            move = self._decode_move(action)
            seat = self.seat
            if isinstance(move, Pass):
                return self.stage is Stage.FINAL
            if isinstance(move, PickUp):
                return (self.stage is Stage.PLAY or self.full_final) and move.colour in self.pickable(seat)
            if not isinstance(move, DropOff):
                return False
            card = self.top_card(move.stack)
            return (
                card is not None and move.count in card.counts and move.count <= self.supply(seat, move.stack)
            )
        return action in self._legal_actions()

    def _legal_actions(self) -> list[int]:
        node = self.node
        if node is _P.TURN:
            return self._turn_actions(self.seat)
        if node is _P.CHOOSE:
            return [choose_action(k) for k in self.choosable()]
        if node is _P.SKEDADDLE:
            return [skedaddle_action(k) for k in self.skedaddle_options(self.sked_seat)] + [NO_SKEDADDLE]
        # unhappy
        kinds = [unhappy_action(k) for k, c in enumerate(self.bus[self.seat]) if c]
        return kinds + ([UNHAPPY_DONE] if self.unhappy_count else [])

    def _turn_actions(self, seat: int) -> list[int]:
        actions = []
        if self.stage is Stage.PLAY or self.full_final:
            actions += [pick_up_action(c) for c in self.pickable(seat)]
        actions += [drop_action(s, k) for s, k in self.droppable(seat)]
        if self.stage is Stage.FINAL:
            actions.append(PASS)
        return actions

    # -- what a seat can do --------------------------------------------------------------
    def bus_size(self, seat: int) -> int:
        """Passengers in ``seat``'s bus (seniors are not in it, BAS-SENIOR)."""
        return sum(self.bus[seat])

    def stop_colours(self) -> list[int]:
        """Colour indices present at the stop, sorted."""
        colour = self.sheet.kind_colour
        return sorted({colour[k] for k in self.stop})

    def pick_load(self, colour: int) -> int:
        """Non-senior passengers of ``colour`` at the stop: the seats a pick-up of it needs (BAS-PICK-LIMIT)."""
        of, senior = self.sheet.kind_colour, self.sheet.kind_senior
        return sum(1 for k in self.stop if of[k] == colour and not senior[k])

    def pickable(self, seat: int) -> list[int]:
        """Colours ``seat`` may pick up: present at the stop, and every non-senior one fits (BAS-PICK-ALL,
        BAS-PICK-LIMIT)."""
        room = BUS_SEATS - self.bus_size(seat)
        colour, senior = self.sheet.kind_colour, self.sheet.kind_senior
        load: dict[int, int] = {}  # colour -> pick_load(colour), in one pass over the stop
        for k in self.stop:
            load[colour[k]] = load.get(colour[k], 0) + (not senior[k])
        return [c for c in sorted(load) if load[c] <= room]

    def type_count(self, seat: int, ptype: int) -> int:
        """Passengers of type index ``ptype`` in ``seat``'s bus."""
        nt = len(self.sheet.types)
        return sum(self.bus[seat][ptype::nt])

    def colours_in_bus(self, seat: int) -> list[int]:
        """Distinct colours among the passengers in ``seat``'s bus, sorted."""
        colour = self.sheet.kind_colour
        return sorted({colour[k] for k, c in enumerate(self.bus[seat]) if c})

    def top_card(self, stack: int):
        """The top :class:`DestinationCard` of ``stack``, or ``None`` when the stack is empty (BAS-DROP-TOP)."""
        cards = self.stacks[stack]
        return self.sheet.stacks[stack].cards[cards[0]] if cards else None

    def supply(self, seat: int, stack: int) -> int:
        """How many passengers ``seat`` could drop at ``stack``: of its type (BAS-DROP-TYPE), or of
        pairwise different colours (BAS-DROP-MULTI)."""
        spec = self.sheet.stacks[stack]
        if spec.multicoloured:
            return len(self.colours_in_bus(seat))
        return self.type_count(seat, spec.type_index)

    def droppable(self, seat: int) -> list[tuple[int, int]]:
        """``(stack, count)`` pairs ``seat`` may drop off now (BAS-DROP-TOP, BAS-DROP-TYPE, BAS-DROP-MULTI)."""
        # supply() and top_card() for every stack, with the bus read once
        sheet = self.sheet
        bus = self.bus[seat]
        nt = len(sheet.types)
        colours = -1  # distinct colours in the bus, counted when a multicoloured stack asks
        out = []
        for s, cards in enumerate(self.stacks):
            if not cards:
                continue
            spec = sheet.stacks[s]
            if spec.multicoloured:
                if colours < 0:
                    colours = len(self.colours_in_bus(seat))
                have = colours
            else:
                have = sum(bus[spec.type_index :: nt])
            out += [(s, k) for k in spec.cards[cards[0]].counts if k <= have]
        return out

    def choosable(self) -> list[int]:
        """At a ``"choose"`` node: the kinds that may be dropped next (BAS-DROP-TYPE, BAS-DROP-MULTI)."""
        stack, _count, chosen = self.pending  # type: ignore[misc]
        sheet = self.sheet
        spec = sheet.stacks[stack]
        bus = self.bus[self.seat]
        if spec.multicoloured:
            colour = sheet.kind_colour
            used = {colour[k] for k in chosen}
            return [k for k, c in enumerate(bus) if c and colour[k] not in used]
        ptype = sheet.kind_type
        return [k for k, c in enumerate(bus) if c and ptype[k] == spec.type_index]

    def skedaddle_options(self, seat: int | None) -> list[int]:
        """Kinds ``seat`` may skedaddle after the drop-off being resolved (BAS-SKEDADDLE): the
        destination's type, or (multicoloured) a colour among those just dropped."""
        if seat is None or self.sked_from is None:
            return []
        _dropper, stack, colours = self.sked_from
        sheet = self.sheet
        spec = sheet.stacks[stack]
        bus = self.bus[seat]
        if spec.multicoloured:
            colour = sheet.kind_colour
            return [k for k, c in enumerate(bus) if c and colour[k] in colours]
        ptype = sheet.kind_type
        return [k for k, c in enumerate(bus) if c and ptype[k] == spec.type_index]

    def destinations_left(self) -> int:
        """Destination cards left in all stacks together (BAS-END-TRIGGER)."""
        return sum(len(s) for s in self.stacks)

    # -- moves, labels and reasons -------------------------------------------------------
    def _decode_move(self, action: int) -> Move | None:
        """The typed move of ``action`` (see :mod:`.moves`), or ``None`` when no move has that number."""
        sheet = self.sheet
        return decode(action, sheet.num_kinds, len(sheet.colours), len(sheet.stacks))

    def action_to_string(self, action: int) -> str:
        """Passenger code for a draw (``"YB"``), else the move in words (``"pick up yellow"``,
        ``"drop 5 at office"``, ``"choose red mother"``, ``"skedaddle red mother"``, ``"no skedaddle"``,
        ``"unhappy red mother"``, ``"stop discarding"``, ``"pass"``)."""
        if isinstance(action, bool) or not isinstance(action, int):
            return f"<not an action: {action!r}>"
        move = self._decode_move(action)
        if move is None:
            return f"<not an action: {action!r}>"
        return _label(self.sheet, move)

    def _parse_label(self, text: str) -> int | None:
        """The action named by the label ``text`` (already folded: case and spacing do not matter,
        ``"Pick up  Yellow"``, ``"yb"``), legal now or not: every label of the game
        (a passenger code, a pick-up, a drop-off, a choice, a skedaddle, an unhappy discard, no
        skedaddle, stop discarding, pass), or ``None``."""
        labels = self.__dict__.get("_all_labels")
        if labels is None:
            labels = _label_table(self.sheet)
            self._all_labels = labels
        return labels.get(text)

    def _why_not_legal(self, action: int) -> str:
        sheet = self.sheet
        move = self._decode_move(action)
        if self.is_chance_node():
            if isinstance(move, PassengerDrawn):
                k = move.passenger
                return f"no {sheet.name(k)} ({sheet.code(k)}) is left in the deck"
            return "a passenger card must be drawn now"
        label = self.action_to_string(action)
        node = self.node
        seat = self.current_player()
        who = seat_name(seat)
        if node is _P.TURN:
            if isinstance(move, PickUp):
                return self._why_not_pick_up(move.colour, seat)
            if isinstance(move, DropOff):
                return self._why_not_drop(move.stack, move.count, seat)
            if isinstance(move, Pass):
                return "passing is allowed only in the final round (BAS-TURN, BAS-END-FINAL)"
            return f"{label} is not a move now: pick up or drop off (BAS-TURN)"
        if node is _P.CHOOSE and isinstance(move, ChoosePassenger):
            kind = move.passenger
            stack, count, chosen = self.pending  # type: ignore[misc]
            spec = sheet.stacks[stack]
            if not self.bus[seat][kind]:
                return f"{who} has no {sheet.name(kind)} in the bus"
            if spec.multicoloured:
                return (
                    f"a {sheet.colours[sheet.colour_of(kind)].name} passenger is already chosen: the colours "
                    f"must be pairwise different (BAS-DROP-MULTI)"
                )
            return (
                f"the {spec.name} takes {sheet.types[spec.type_index].name} passengers only (BAS-DROP-TYPE)"
            )
        if node is _P.SKEDADDLE and isinstance(move, Skedaddle):
            kind = move.passenger
            if not self.bus[seat][kind]:
                return f"{who} has no {sheet.name(kind)} in the bus"
            return f"a {sheet.name(kind)} does not match this drop-off (BAS-SKEDADDLE)"
        if node is _P.UNHAPPY:
            if isinstance(move, StopDiscarding):
                return "at least one passenger must be discarded first (BAS-UNHAPPY)"
            if isinstance(move, UnhappyDiscard):
                return f"{who} has no {sheet.name(move.passenger)} in the bus"
        return f"{label} is not a move now ({self.status()})"

    def _why_not_pick_up(self, colour: int, seat: int) -> str:
        name = self.sheet.colours[colour].name
        if self.stage is Stage.FINAL and not self.full_final:
            return "the final round allows one drop-off or a pass, no pick-up (BAS-END-FINAL)"
        if colour not in self.stop_colours():
            return f"there is no {name} passenger at the bus stop (BAS-PICK-ALL)"
        load = self.pick_load(colour)
        return (
            f"{name} would put {_plural(load, 'passenger')} in {seat_name(seat)}'s bus, which has "
            f"{self.bus_size(seat)} of {BUS_SEATS} seats taken: all of them must fit (BAS-PICK-LIMIT)"
        )

    def _why_not_drop(self, stack: int, count: int, seat: int) -> str:
        sheet = self.sheet
        who = seat_name(seat)
        spec = sheet.stacks[stack]
        card = self.top_card(stack)
        if card is None:
            return f"the {spec.name} stack is empty (BAS-DROP-TOP)"
        if count not in card.counts:
            return (
                f"the top {spec.name} card accepts {'/'.join(map(str, card.counts))} passengers, "
                f"not {count} (BAS-DROP-TOP)"
            )
        have = self.supply(seat, stack)
        if spec.multicoloured:
            return (
                f"{who}'s bus has passengers of {_plural(have, 'colour')}: {count} pairwise different "
                f"colours are needed (BAS-DROP-MULTI)"
            )
        tname = sheet.types[spec.type_index].name
        return f"{who} has {have} {tname} passenger{'s' if have != 1 else ''}, fewer than {count} (BAS-DROP-TYPE)"

    # -- applying ------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        getattr(self, PHASES[self.node].handler)(action)  # type: ignore[index]

    def _on_deal(self, kind: int) -> None:
        sheet = self.sheet
        self.deck[kind] -= 1
        self.stop.append(kind)
        self._log(
            "BAS-SETUP-STOP",
            card=sheet.code(kind),
            name=sheet.name(kind),
            at_stop=len(self.stop),
        )
        if len(self.stop) < STOP_SIZE:
            return
        colours = {sheet.colour_of(k) for k in self.stop}
        if len(colours) == 1:
            name = sheet.colours[colours.pop()].name
            if self.setup_deals <= MAX_SETUP_RESHUFFLES:
                self._return_stop()
                self.setup_deals += 1
                self._log("BAS-SETUP-SAMECOLOUR", deal=self.setup_deals, colour=name)
                return
            self._log("BAS-SETUP-SAMECOLOUR", colour=name, reshuffles=MAX_SETUP_RESHUFFLES)
        self.stage = Stage.PLAY
        self._log("BAS-SETUP-FIRST")
        self._begin_turn(0)

    def _return_stop(self) -> None:
        for k in self.stop:
            self.deck[k] += 1
        self.stop = []

    def _begin_turn(self, seat: int) -> None:
        self.seat = seat
        self.turns += 1
        self.unhappy_count = 0
        if self.stage is Stage.FINAL:
            if len(self._turn_actions(seat)) == 1:  # only PASS
                self._log("BAS-END-FINAL", seat=seat, passed=True, what="no_move", full_turn=self.full_final)
                self._end_turn()
                return
            self.node = _P.TURN
            self._log("BAS-END-FINAL", seat=seat, what="may", full_turn=self.full_final)
            return
        if not self._turn_actions(seat):
            self.node = _P.UNHAPPY
            self._log("BAS-UNHAPPY", seat=seat, what="must")
            return
        self.node = _P.TURN
        self._log("BAS-TURN", seat=seat, turn=self.turns)

    def _on_turn(self, action: int) -> None:
        move = self._decode_move(action)
        if isinstance(move, Pass):
            self._log("BAS-END-FINAL", seat=self.seat, passed=True, what="passes")
            self._end_turn()
        elif isinstance(move, PickUp):
            self._pick_up(move.colour)
        else:
            self._start_drop(move.stack, move.count)  # type: ignore[union-attr]

    # -- picking up ----------------------------------------------------------------------
    def _pick_up(self, colour: int) -> None:
        sheet = self.sheet
        seat = self.seat
        name = sheet.colours[colour].name
        taken = [k for k in self.stop if sheet.colour_of(k) == colour]
        self.stop = [k for k in self.stop if sheet.colour_of(k) != colour]
        riders = [k for k in taken if not sheet.is_senior(k)]
        olds = [k for k in taken if sheet.is_senior(k)]
        for k in riders:
            self.bus[seat][k] += 1
        self._log("BAS-PICK-ALL", seat=seat, colour=name, cards=[sheet.code(k) for k in taken])
        if riders:
            self._log("BAS-PICK-LIMIT", seat=seat, seats=self.bus_size(seat), boarded=len(riders))
        for k in olds:
            if len(self.seniors[seat]) < SENIOR_CAP:
                self.seniors[seat].append(k)
                self._log("BAS-SENIOR", seat=seat, seniors=len(self.seniors[seat]), card=sheet.code(k))
            else:
                self.seniors_lost[seat].append(k)
                self._log("BAS-SENIOR-CAP", seat=seat, card=sheet.code(k), cap=SENIOR_CAP)
        self.refill_redealt = False
        self._refill_or_go_on()

    def _refill_or_go_on(self) -> None:
        """BAS-REFILL, BAS-REFILL-SAMECOLOUR, BAS-END-TRIGGER: draw the next card, or finish the refill."""
        sheet = self.sheet
        if len(self.stop) < STOP_SIZE:
            if sum(self.deck):
                self.node = _P.REFILL
                return
            self._log("BAS-REFILL", stop=len(self.stop))
            if self.stage is Stage.PLAY:
                self._trigger("the bus stop cannot be refilled to 5")
            self._end_turn()
            return
        colours = {sheet.colour_of(k) for k in self.stop}
        if len(colours) == 1:
            name = sheet.colours[colours.pop()].name
            if not self.refill_redealt:
                self.refill_redealt = True
                self._return_stop()
                self._log("BAS-REFILL-SAMECOLOUR", redeal=True, colour=name)
                self.node = _P.REFILL
                return
            self._log("BAS-REFILL-SAMECOLOUR", redeal=False, colour=name)
        self._end_turn()

    def _on_refill(self, kind: int) -> None:
        sheet = self.sheet
        self.deck[kind] -= 1
        self.stop.append(kind)
        self._log(
            "BAS-REFILL",
            card=sheet.code(kind),
            name=sheet.name(kind),
            at_stop=len(self.stop),
            deck=sum(self.deck),
        )
        self._refill_or_go_on()

    # -- dropping off --------------------------------------------------------------------
    def _start_drop(self, stack: int, count: int) -> None:
        spec = self.sheet.stacks[stack]
        card = self.top_card(stack)
        self._log(
            "BAS-DROP-TOP",
            seat=self.seat,
            stack=spec.name,
            count=count,
            multicoloured=spec.multicoloured,
            card=card.text(),
            points=card.points_for(count),
        )
        self.pending = (stack, count, [])
        self.node = _P.CHOOSE
        self._choose_forced()

    def _forced_choice(self) -> int | None:
        """The kind to choose when the passengers to drop are already determined, else ``None``."""
        stack, count, chosen = self.pending  # type: ignore[misc]
        options = self.choosable()
        if len(options) == 1:
            return options[0]
        remaining = count - len(chosen)
        bus = self.bus[self.seat]
        if self.sheet.stacks[stack].multicoloured:
            colours = {self.sheet.colour_of(k) for k in options}
            if len(colours) == remaining and len(options) == remaining:
                return options[0]
            return None
        if sum(bus[k] for k in options) == remaining:
            return options[0]
        return None

    def _choose_forced(self) -> None:
        while self.pending is not None and len(self.pending[2]) < self.pending[1]:
            kind = self._forced_choice()
            if kind is None:
                return
            self._choose(kind, forced=True)

    def _on_choose(self, action: int) -> None:
        move = self._decode_move(action)
        self._choose(move.passenger, forced=False)  # type: ignore[union-attr]
        self._choose_forced()

    def _choose(self, kind: int, forced: bool) -> None:
        sheet = self.sheet
        stack, count, chosen = self.pending  # type: ignore[misc]
        self.bus[self.seat][kind] -= 1
        chosen.append(kind)
        rule = "BAS-DROP-MULTI" if sheet.stacks[stack].multicoloured else "BAS-DROP-TYPE"
        left = count - len(chosen)
        self._log(
            rule, seat=self.seat, card=sheet.code(kind), forced=forced, name=sheet.name(kind), left=left
        )
        if left == 0:
            self._complete_drop()

    def _complete_drop(self) -> None:
        sheet = self.sheet
        stack, count, chosen = self.pending  # type: ignore[misc]
        seat = self.seat
        spec = sheet.stacks[stack]
        index = self.stacks[stack].pop(0)
        card = spec.cards[index]
        points = card.points_for(count)
        self.claimed[seat].append((stack, index, count, points))
        self.dropped[seat].extend(chosen)
        self.pending = None
        self._log(
            "BAS-DROP-CLAIM",
            seat=seat,
            stack=spec.name,
            count=count,
            points=points,
            cards=[sheet.code(k) for k in chosen],
            multicoloured=spec.multicoloured,
        )
        left = self.destinations_left()
        if self.stage is Stage.PLAY and self.trigger is None and left <= END_DESTINATIONS_LEFT:
            self._trigger(f"only {left} destination cards are left")
        colours = tuple(sorted({sheet.colour_of(k) for k in chosen}))
        self.sked_from = (seat, stack, colours)
        n = self.num_players
        self.sked_queue = [(seat + i) % n for i in range(1, n)]
        self._next_skedaddle()

    def _trigger(self, reason: str) -> None:
        self.trigger = {"seat": self.seat, "reason": reason}
        self._log("BAS-END-TRIGGER", seat=self.seat, reason=reason)

    # -- skedaddling ---------------------------------------------------------------------
    def _next_skedaddle(self) -> None:
        sheet = self.sheet
        dropper, stack, colours = self.sked_from  # type: ignore[misc]
        spec = sheet.stacks[stack]
        match: dict[str, Any] = {
            "dropper": dropper,
            "type": None if spec.multicoloured else sheet.types[spec.type_index].name,
            "colours": [sheet.colours[c].name for c in colours],
        }
        while self.sked_queue:
            seat = self.sked_queue.pop(0)
            if self.skedaddle_options(seat):
                self.sked_seat = seat
                self.node = _P.SKEDADDLE
                self._log("BAS-SKEDADDLE", seat=seat, **match)
                return
            self._log("BAS-SKEDADDLE", seat=seat, offered=False, **match)
        self.sked_seat = None
        self.sked_from = None
        self._end_turn()

    def _on_skedaddle(self, action: int) -> None:
        seat = self.sked_seat
        move = self._decode_move(action)
        if isinstance(move, NoSkedaddle):
            self._log("BAS-SKEDADDLE", seat=seat, skedaddled=None)
        else:
            kind = move.passenger  # type: ignore[union-attr]
            self.bus[seat][kind] -= 1  # type: ignore[index]
            self.skedaddled[seat].append(kind)  # type: ignore[index]
            self._log(
                "BAS-SKEDADDLE", seat=seat, skedaddled=self.sheet.code(kind), name=self.sheet.name(kind)
            )
        self._next_skedaddle()

    # -- unhappy passengers --------------------------------------------------------------
    def _on_unhappy(self, action: int) -> None:
        seat = self.seat
        move = self._decode_move(action)
        if isinstance(move, StopDiscarding):
            self._log("BAS-UNHAPPY", seat=seat, what="stop")
            self._end_turn()
            return
        kind = move.passenger  # type: ignore[union-attr]
        self.bus[seat][kind] -= 1
        self.unhappy[seat].append(kind)
        self.unhappy_count += 1
        self._log(
            "BAS-UNHAPPY", seat=seat, card=self.sheet.code(kind), what="discard", name=self.sheet.name(kind)
        )
        if not self.bus_size(seat):
            self._log("BAS-UNHAPPY", seat=seat, what="bus_empty")
            self._end_turn()

    # -- turn order and the end ------------------------------------------------------------
    def _end_turn(self) -> None:
        n = self.num_players
        if self.stage is Stage.FINAL:
            self.final_index += 1
            if self.final_index >= n:
                self._finish()
            else:
                self._begin_turn(self.final_order[self.final_index])
            return
        if self.trigger is not None:
            self.stage = Stage.FINAL
            t = self.trigger["seat"]
            self.final_order = [(t + i) % n for i in range(1, n + 1)]
            self.final_index = 0
            self._log("BAS-END-FINAL", order=list(self.final_order), what="order")
            self._begin_turn(self.final_order[0])
            return
        self._begin_turn((self.seat + 1) % n)

    def _finish(self) -> None:
        self.stage = Stage.OVER
        self.node = None
        for seat in range(self.num_players):
            self._log(
                "BAS-SCORE-DEST",
                seat=seat,
                points=sum(c[3] for c in self.claimed[seat]),
                destinations=len(self.claimed[seat]),
            )
            self._log(
                "BAS-SCORE-SENIOR",
                seat=seat,
                points=len(self.seniors[seat]) + len(self.skedaddled[seat]),
                seniors=len(self.seniors[seat]),
                skedaddled=len(self.skedaddled[seat]),
            )
            if self.unhappy[seat]:
                self._log(
                    "BAS-SCORE-UNHAPPY",
                    seat=seat,
                    points=-len(self.unhappy[seat]),
                    passengers=len(self.unhappy[seat]),
                )
            left = self.bus_size(seat)
            if not left:
                self._log("BAS-SCORE-EMPTY", seat=seat, points=EMPTY_BUS_BONUS, left=0)
            elif self.penalty:
                self._log("BAS-SCORE-EMPTY", seat=seat, points=-left, left=left)
        scores = self.returns()
        best = max(scores)
        winners = self.winners()
        self._log(
            "BAS-WIN",
            winners=winners,
            scores=scores,
            best=best,
            tied=[s for s, p in enumerate(scores) if p == best],
            tie_break=self.tie_break_value(winners[0]),
        )

    # -- results -------------------------------------------------------------------------
    def tie_break_value(self, seat: int) -> int:
        """Seniors plus skedaddled passengers of ``seat`` (the tie-break of BAS-WIN)."""
        return len(self.seniors[seat]) + len(self.skedaddled[seat])

    def returns(self) -> list[int]:
        """Points per seat so far (BAS-SCORE-*); the empty-bus bonus and the leftover penalty count
        only once the game is over (final then; the highest total wins, BAS-WIN)."""
        return [sum(line["points"] for line in self.score_breakdown(s)) for s in range(self.num_players)]

    def winners(self) -> list[int]:
        """Seats sharing the win at the end (BAS-WIN): the highest total; a tie goes to the most seniors
        plus skedaddled passengers; still tied, they share. ``[]`` before the end."""
        if self.node is not None:
            return []
        scores = self.returns()
        best = max(scores)
        tied = [s for s, p in enumerate(scores) if p == best]
        most = max(self.tie_break_value(s) for s in tied)
        return [s for s in tied if self.tie_break_value(s) == most]

    def score_breakdown(self, seat: int) -> list[dict[str, Any]]:
        """Lines ``{"label", "rule", "points", "times"}`` adding up to ``returns()[seat]``: one per
        destination claimed (BAS-SCORE-DEST), seniors and skedaddled (BAS-SCORE-SENIOR), unhappy
        passengers (BAS-SCORE-UNHAPPY), and at the end the empty bus or the leftover penalty
        (BAS-SCORE-EMPTY).

        Raises:
            InputTypeError: ``seat`` is not an integer.
            ParameterError: no such seat.
        """
        seat = cast(int, self._check_seat(seat, spectator=False))
        sheet = self.sheet
        lines = [
            {
                "label": f"{sheet.stacks[s].name} card, {_plural(count, 'passenger')}",
                "rule": "BAS-SCORE-DEST",
                "points": points,
                "times": 1,
            }
            for s, _i, count, points in self.claimed[seat]
        ]
        if self.seniors[seat]:
            k = len(self.seniors[seat])
            lines.append(
                {"label": "seniors beside the bus", "rule": "BAS-SCORE-SENIOR", "points": k, "times": k}
            )
        if self.skedaddled[seat]:
            k = len(self.skedaddled[seat])
            lines.append(
                {"label": "skedaddled passengers", "rule": "BAS-SCORE-SENIOR", "points": k, "times": k}
            )
        if self.unhappy[seat]:
            k = len(self.unhappy[seat])
            lines.append(
                {"label": "unhappy passengers", "rule": "BAS-SCORE-UNHAPPY", "points": -k, "times": k}
            )
        if self.node is None:
            left = self.bus_size(seat)
            if not left:
                lines.append(
                    {
                        "label": "empty bus bonus",
                        "rule": "BAS-SCORE-EMPTY",
                        "points": EMPTY_BUS_BONUS,
                        "times": 1,
                    }
                )
            elif self.penalty:
                lines.append(
                    {
                        "label": "passengers left in the bus",
                        "rule": "BAS-SCORE-EMPTY",
                        "points": -left,
                        "times": left,
                    }
                )
        return lines

    def score_by_source(self, seat: int) -> dict[str, int]:
        """Points of ``seat`` by source: ``destinations``, ``seniors``, ``skedaddles``, ``unhappy``,
        ``empty_bus`` and ``leftover`` (they add up to ``returns()[seat]``)."""
        out = {"destinations": 0, "seniors": 0, "skedaddles": 0, "unhappy": 0, "empty_bus": 0, "leftover": 0}
        for line in self.score_breakdown(seat):
            rule, label = line["rule"], line["label"]
            key = {"BAS-SCORE-DEST": "destinations", "BAS-SCORE-UNHAPPY": "unhappy"}.get(rule)
            if key is None and rule == "BAS-SCORE-SENIOR":
                key = "seniors" if label.startswith("seniors") else "skedaddles"
            if key is None:
                key = "empty_bus" if line["points"] > 0 else "leftover"
            out[key] += line["points"]
        return out

    # -- words and views -----------------------------------------------------------------
    def status(self) -> str:
        """One sentence saying what happens next, for status lines and screen readers."""
        node = self.node
        sheet = self.sheet
        if node is None:
            winners = self.winners()
            names = " and ".join(seat_name(s) for s in winners)
            best = self.returns()[winners[0]]
            verb = "wins" if len(winners) == 1 else "share the win"
            return f"Game over: {names} {verb} with {_plural(best, 'point')}."
        if node is _P.DEAL:
            again = f" (deal {self.setup_deals})" if self.setup_deals > 1 else ""
            return f"Deal card {len(self.stop) + 1} of {STOP_SIZE} to the bus stop{again}."
        if node is _P.REFILL:
            return (
                f"Refill the bus stop: card {len(self.stop) + 1} of {STOP_SIZE} "
                f"({sum(self.deck)} left in the deck)."
            )
        who = seat_name(self.current_player())
        if node is _P.TURN:
            if self.stage is Stage.FINAL:
                what = "one final drop-off" if not self.full_final else "a final turn (pick up or drop off)"
                return f"Final round: {who} may take {what}, or pass."
            return f"{who}: pick up one colour from the stop, or drop off at a destination."
        if node is _P.CHOOSE:
            stack, count, chosen = self.pending  # type: ignore[misc]
            spec = sheet.stacks[stack]
            left = count - len(chosen)
            kind = "of new colours" if spec.multicoloured else f"of type {sheet.types[spec.type_index].name}"
            return f"{who} drops {count} at the {_place(spec)}: choose {left} more passenger{'s' if left != 1 else ''} {kind}."
        if node is _P.SKEDADDLE:
            dropper, stack, _c = self.sked_from  # type: ignore[misc]
            return (
                f"{who}: skedaddle one matching passenger after {seat_name(dropper)}'s drop-off at the "
                f"{_place(sheet.stacks[stack])}, or not?"
            )
        if self.unhappy_count:
            return f"{who} may discard more unhappy passengers, or stop."
        return f"{who} can neither pick up nor drop off: discard at least one passenger as unhappy."

    def view(self, seat: int | None = None) -> views.BusAndStopView:  # type: ignore[override]
        """Everything on the table, JSON-safe; the same for every seat: all cards are face up and
        only the deck's order is hidden (its size and make-up by colour are not shown here). The
        shape is :class:`~.views.BusAndStopView` (every key documented there).

        Raises:
            InputTypeError: ``seat`` is not an integer or ``None``.
            ParameterError: ``seat`` is not at the table (``None`` is the spectator).
        """
        return views.table_view(self, self._check_seat(seat))

    def public_view(self) -> views.BusAndStopView:  # type: ignore[override]
        """The table as everyone may see it (a projector): every card of this game is face up
        and a seat's view hides only the deck's order, so this is the view of no seat
        (``viewer`` is ``None``), the same as every seat's apart from ``viewer``."""
        return self.view(None)

    # -- copying -------------------------------------------------------------------------
    def clone(self) -> BusAndStopState:
        other = BusAndStopState.__new__(BusAndStopState)
        other.__dict__.update(self.__dict__)
        self._copy_base_into(other)
        other.deck = list(self.deck)
        other.stop = list(self.stop)
        other.bus = [list(b) for b in self.bus]
        other.seniors = [list(x) for x in self.seniors]
        other.seniors_lost = [list(x) for x in self.seniors_lost]
        other.skedaddled = [list(x) for x in self.skedaddled]
        other.unhappy = [list(x) for x in self.unhappy]
        other.dropped = [list(x) for x in self.dropped]
        other.claimed = [list(x) for x in self.claimed]
        other.stacks = [list(x) for x in self.stacks]
        other.trigger = None if self.trigger is None else dict(self.trigger)
        other.final_order = list(self.final_order)
        other.pending = (
            None if self.pending is None else (self.pending[0], self.pending[1], list(self.pending[2]))
        )
        other.sked_queue = list(self.sked_queue)
        return other


_FIXED_LABELS: dict[type[Move], str] = {
    NoSkedaddle: "no skedaddle",
    StopDiscarding: "stop discarding",
    Pass: "pass",
}


def _label_table(sheet: Sheet) -> dict[str, int]:
    """Every label of a game on ``sheet`` (folded as typed labels are) with its action: what
    :meth:`BusAndStopState._parse_label` looks up."""
    moves: list[Move] = [NoSkedaddle(), StopDiscarding(), Pass()]
    for k in range(sheet.num_kinds):
        moves += [PassengerDrawn(k), ChoosePassenger(k), Skedaddle(k), UnhappyDiscard(k)]
    moves += [PickUp(c) for c in range(len(sheet.colours))]
    moves += [DropOff(s, n) for s in range(len(sheet.stacks)) for n in range(1, DROP_SPAN)]
    table: dict[str, int] = {}
    for move in moves:
        table.setdefault(_fold(_label(sheet, move)), move.action)
    return table


def _label(sheet: Sheet, move: Move) -> str:
    """The label of ``move`` on ``sheet`` (as :meth:`BusAndStopState.action_to_string` gives it)."""
    if isinstance(move, PassengerDrawn):
        return sheet.code(move.passenger)
    if isinstance(move, PickUp):
        return f"pick up {sheet.colours[move.colour].name}"
    if isinstance(move, DropOff):
        return f"drop {move.count} at {sheet.stacks[move.stack].name}"
    if isinstance(move, (ChoosePassenger, Skedaddle, UnhappyDiscard)):
        return f"{move.kind} {sheet.name(move.passenger)}"
    return _FIXED_LABELS[type(move)]
