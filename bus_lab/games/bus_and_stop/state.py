"""Bus & Stop: the rules, as a step-through state.

Every card dealt to the bus stop is a chance node whose outcomes are the passenger *kinds* still
in the deck (cards of one colour and type are identical), each with its exact probability
``cards of that kind / cards in the deck``: the deck's order is decided one card at a time, when a
card is turned up, so a reshuffle needs no chance step of its own. Everything else is face up.
Each applied action records events citing the rules it applies (``shared/rules/bus_and_stop.md``).

Actions (ints):

* ``0`` … ``num_kinds − 1``: a passenger card drawn (label = its code, e.g. ``"YB"`` for a
  yellow businessman, ``"RE"`` for a red senior; see :mod:`.components`);
* ``PICK_BASE + colour``: pick up every passenger of that colour from the stop (``"pick up yellow"``);
* ``DROP_BASE + 20 * stack + count``: drop ``count`` passengers at that stack's top card
  (``"drop 5 at office"``); then ``CHOOSE_BASE + kind`` picks the passengers one by one
  (``"choose yellow businessman"``) unless the choice is forced;
* ``SKEDADDLE_BASE + kind`` (``"skedaddle green mother"``) or ``NO_SKEDADDLE``: another seat's
  reaction to a drop-off;
* ``UNHAPPY_BASE + kind`` (``"unhappy blue student"``) or ``UNHAPPY_DONE``: discards of a player
  who can do nothing else;
* ``PASS``: in the final round only.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bus_lab.engine.core import CHANCE, TERMINAL, State
from bus_lab.games.bus_and_stop.components import (
    BUS_SEATS,
    END_DESTINATIONS_LEFT,
    STOP_SIZE,
    Sheet,
)

PICK_BASE = 100
DROP_BASE = 200
DROP_SPAN = 20  # DROP_BASE + DROP_SPAN * stack + count
CHOOSE_BASE = 400
SKEDADDLE_BASE = 500
NO_SKEDADDLE = 600
UNHAPPY_BASE = 700
UNHAPPY_DONE = 800
PASS = 900
#: Most seniors a player may hold (BAS-SENIOR-CAP).
SENIOR_CAP = 10
#: Most reshuffles of a same-colour stop at setup (BAS-SETUP-SAMECOLOUR ruling).
MAX_SETUP_RESHUFFLES = 100
#: Points for an empty bus at the end (BAS-SCORE-EMPTY).
EMPTY_BUS_BONUS = 3
CHANCE_NODES = ("deal", "refill")


def seat_name(seat: int) -> str:
    """``"Seat 2"``: how players are named in events and views (seats are numbered from 0)."""
    return f"Seat {seat}"


def _plural(k: int, word: str, many: str | None = None) -> str:
    return f"{k} {word if k == 1 else (many or word + 's')}"


def _place(spec) -> str:
    """How a destination reads after "the": ``"office"``, ``"multicoloured destination"``."""
    return f"{spec.name} destination" if spec.multicoloured else spec.name


def drop_action(stack: int, count: int) -> int:
    """The action "drop ``count`` passengers at stack ``stack``"."""
    return DROP_BASE + DROP_SPAN * stack + count


class BusAndStopState(State):
    """A game of Bus & Stop in progress.

    Phases: ``"setup"`` (dealing the stop), ``"play"`` (regular turns), ``"final"`` (the final round
    after the end is triggered), ``"over"``. Nodes: ``"deal"`` and ``"refill"`` (chance), ``"turn"``,
    ``"choose"`` (which passengers to drop), ``"skedaddle"``, ``"unhappy"``, ``None`` (game over).

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
    """

    RENDER = ("bus_lab.games.bus_and_stop.render", "table_html", "table_text")

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
        self.phase = "setup"
        self.node: str | None = "deal"
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
        n = self.num_players
        colours = ", ".join(c.name for c in sheet.colours)
        types = ", ".join(t.name for t in sheet.types)
        self._log(
            "BAS-COMP-PASSENGERS",
            f"{sheet.deck_size()} passenger cards in {len(sheet.colours)} colours "
            f"({colours}) and {len(sheet.types)} types ({types}).",
            cards=sheet.deck_size(),
        )
        self._log(
            "BAS-COMP-DESTINATIONS",
            f"{sheet.destination_count()} destination cards in "
            f"{len(sheet.stacks)} stacks: "
            + ", ".join(f"{s.name} ({len(s.cards)})" for s in sheet.stacks)
            + ".",
            cards=sheet.destination_count(),
        )
        self._log(
            "BAS-COMP-SIDES",
            "Each destination card lists the passenger counts it accepts and the points "
            "for each count (figures from the component sheet).",
        )
        for stack in sheet.stacks:
            order = sorted(range(len(stack.cards)), key=lambda i: stack.cards[i].order_key(), reverse=True)
            self.stacks.append(order)
        self._log(
            "BAS-SETUP-STACKS",
            "The destination cards are stacked by kind, face up; only a stack's top card can be claimed.",
        )
        tops = "; ".join(f"{s.name} {s.cards[self.stacks[i][0]].text()}" for i, s in enumerate(sheet.stacks))
        self._log("BAS-SETUP-ORDER", f"Each stack is ordered with its highest values on top: {tops}.")
        self._log(
            "BAS-SETUP-STOP",
            f"The passenger deck is shuffled and {STOP_SIZE} cards are dealt face up: the "
            f"bus stop. {n} players, seats 0 to {n - 1}.",
            players=n,
        )

    # -- protocol ------------------------------------------------------------------------
    def current_player(self) -> int:
        node = self.node
        if node is None:
            return TERMINAL
        if node in CHANCE_NODES:
            return CHANCE
        if node == "skedaddle":
            return self.sked_seat  # type: ignore[return-value]
        return self.seat

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
        if node == "turn":
            seat = self.seat
            if action == PASS:
                return self.phase == "final"
            if PICK_BASE <= action < PICK_BASE + len(self.sheet.colours):
                return (self.phase == "play" or self.full_final) and action - PICK_BASE in self.pickable(seat)
            stack, count = divmod(action - DROP_BASE, DROP_SPAN)
            if action < DROP_BASE or stack >= len(self.stacks):
                return False
            card = self.top_card(stack)
            return card is not None and count in card.counts and count <= self.supply(seat, stack)
        return action in self._legal_actions()

    def _legal_actions(self) -> list[int]:
        node = self.node
        if node == "turn":
            return self._turn_actions(self.seat)
        if node == "choose":
            return [CHOOSE_BASE + k for k in self.choosable()]
        if node == "skedaddle":
            return [SKEDADDLE_BASE + k for k in self.skedaddle_options(self.sked_seat)] + [NO_SKEDADDLE]
        # unhappy
        kinds = [UNHAPPY_BASE + k for k, c in enumerate(self.bus[self.seat]) if c]
        return kinds + ([UNHAPPY_DONE] if self.unhappy_count else [])

    def _turn_actions(self, seat: int) -> list[int]:
        actions = []
        if self.phase == "play" or self.full_final:
            actions += [PICK_BASE + c for c in self.pickable(seat)]
        actions += [drop_action(s, k) for s, k in self.droppable(seat)]
        if self.phase == "final":
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
        out = []
        for s in range(len(self.stacks)):
            card = self.top_card(s)
            if card is None:
                continue
            have = self.supply(seat, s)
            out += [(s, k) for k in card.counts if k <= have]
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

    # -- labels and reasons --------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """Passenger code for a draw (``"YB"``), else the move in words (``"pick up yellow"``,
        ``"drop 5 at office"``, ``"choose red mother"``, ``"skedaddle red mother"``, ``"no skedaddle"``,
        ``"unhappy red mother"``, ``"stop discarding"``, ``"pass"``)."""
        if isinstance(action, bool) or not isinstance(action, int):
            return f"<not an action: {action!r}>"
        sheet = self.sheet
        nk = sheet.num_kinds
        if 0 <= action < nk:
            return sheet.code(action)
        if PICK_BASE <= action < PICK_BASE + len(sheet.colours):
            return f"pick up {sheet.colours[action - PICK_BASE].name}"
        if DROP_BASE <= action < DROP_BASE + DROP_SPAN * len(sheet.stacks):
            stack, count = divmod(action - DROP_BASE, DROP_SPAN)
            if count:
                return f"drop {count} at {sheet.stacks[stack].name}"
        for base, word in ((CHOOSE_BASE, "choose"), (SKEDADDLE_BASE, "skedaddle"), (UNHAPPY_BASE, "unhappy")):
            if base <= action < base + nk:
                return f"{word} {sheet.name(action - base)}"
        return {NO_SKEDADDLE: "no skedaddle", UNHAPPY_DONE: "stop discarding", PASS: "pass"}.get(
            action, f"<not an action: {action!r}>"
        )

    def _why_not_legal(self, action: int) -> str:
        sheet = self.sheet
        nk = sheet.num_kinds
        if self.is_chance_node():
            if 0 <= action < nk:
                return f"no {sheet.name(action)} ({sheet.code(action)}) is left in the deck"
            return "a passenger card must be drawn now"
        label = self.action_to_string(action)
        node = self.node
        seat = self.current_player()
        who = seat_name(seat)
        if node == "turn":
            if PICK_BASE <= action < PICK_BASE + len(sheet.colours):
                colour = action - PICK_BASE
                name = sheet.colours[colour].name
                if self.phase == "final" and not self.full_final:
                    return "the final round allows one drop-off or a pass, no pick-up (BAS-END-FINAL)"
                if colour not in self.stop_colours():
                    return f"there is no {name} passenger at the bus stop (BAS-PICK-ALL)"
                load = self.pick_load(colour)
                return (
                    f"{name} would put {_plural(load, 'passenger')} in {who}'s bus, which has "
                    f"{self.bus_size(seat)} of {BUS_SEATS} seats taken: all of them must fit (BAS-PICK-LIMIT)"
                )
            if (
                DROP_BASE <= action < DROP_BASE + DROP_SPAN * len(sheet.stacks)
                and (action - DROP_BASE) % DROP_SPAN
            ):
                stack, count = divmod(action - DROP_BASE, DROP_SPAN)
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
            if action == PASS:
                return "passing is allowed only in the final round (BAS-TURN, BAS-END-FINAL)"
            return f"{label} is not a move now: pick up or drop off (BAS-TURN)"
        if node == "choose" and CHOOSE_BASE <= action < CHOOSE_BASE + nk:
            kind = action - CHOOSE_BASE
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
        if node == "skedaddle" and SKEDADDLE_BASE <= action < SKEDADDLE_BASE + nk:
            kind = action - SKEDADDLE_BASE
            if not self.bus[seat][kind]:
                return f"{who} has no {sheet.name(kind)} in the bus"
            return f"a {sheet.name(kind)} does not match this drop-off (BAS-SKEDADDLE)"
        if node == "unhappy":
            if action == UNHAPPY_DONE:
                return "at least one passenger must be discarded first (BAS-UNHAPPY)"
            if UNHAPPY_BASE <= action < UNHAPPY_BASE + nk:
                return f"{who} has no {sheet.name(action - UNHAPPY_BASE)} in the bus"
        return f"{label} is not a move now ({self.status()})"

    # -- applying ------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        getattr(self, "_on_" + self.node)(action)  # type: ignore[operator]

    def _on_deal(self, kind: int) -> None:
        sheet = self.sheet
        self.deck[kind] -= 1
        self.stop.append(kind)
        self._log(
            "BAS-SETUP-STOP",
            f"{sheet.code(kind)} ({sheet.name(kind)}) is dealt to the bus stop "
            f"({len(self.stop)} of {STOP_SIZE}).",
            card=sheet.code(kind),
        )
        if len(self.stop) < STOP_SIZE:
            return
        colours = {sheet.colour_of(k) for k in self.stop}
        if len(colours) == 1:
            name = sheet.colours[colours.pop()].name
            if self.setup_deals <= MAX_SETUP_RESHUFFLES:
                self._return_stop()
                self.setup_deals += 1
                self._log(
                    "BAS-SETUP-SAMECOLOUR",
                    f"All {STOP_SIZE} passengers at the stop are {name}: they go back "
                    f"into the deck, which is reshuffled, and {STOP_SIZE} are dealt again (deal "
                    f"{self.setup_deals}).",
                    deal=self.setup_deals,
                )
                return
            self._log(
                "BAS-SETUP-SAMECOLOUR",
                f"All {STOP_SIZE} are {name} again, after "
                f"{MAX_SETUP_RESHUFFLES} reshuffles: play starts anyway.",
            )
        self.phase = "play"
        self._log(
            "BAS-SETUP-FIRST",
            "Seat 0 starts (the player who most recently rode a bus); play goes in seat order.",
        )
        self._begin_turn(0)

    def _return_stop(self) -> None:
        for k in self.stop:
            self.deck[k] += 1
        self.stop = []

    def _begin_turn(self, seat: int) -> None:
        self.seat = seat
        self.turns += 1
        self.unhappy_count = 0
        who = seat_name(seat)
        if self.phase == "final":
            if len(self._turn_actions(seat)) == 1:  # only PASS
                what = "drop-off" if not self.full_final else "pick-up or drop-off"
                self._log("BAS-END-FINAL", f"{who} has no legal {what} and passes.", seat=seat, passed=True)
                self._end_turn()
                return
            self.node = "turn"
            what = "one final drop-off" if not self.full_final else "one final turn (pick up or drop off)"
            self._log("BAS-END-FINAL", f"{who} may take {what}, or pass.", seat=seat)
            return
        if not self._turn_actions(seat):
            self.node = "unhappy"
            self._log(
                "BAS-UNHAPPY",
                f"{who} can neither pick up (no colour fits in the bus) nor drop off: "
                f"{who} must discard one or more passengers as unhappy (-1 each).",
                seat=seat,
            )
            return
        self.node = "turn"
        self._log("BAS-TURN", f"{who}'s turn {self.turns}: pick up one colour or drop off.", seat=seat)

    def _on_turn(self, action: int) -> None:
        if action == PASS:
            self._log(
                "BAS-END-FINAL", f"{seat_name(self.seat)} passes the final turn.", seat=self.seat, passed=True
            )
            self._end_turn()
        elif action < DROP_BASE:
            self._pick_up(action - PICK_BASE)
        else:
            stack, count = divmod(action - DROP_BASE, DROP_SPAN)
            self._start_drop(stack, count)

    # -- picking up ----------------------------------------------------------------------
    def _pick_up(self, colour: int) -> None:
        sheet = self.sheet
        seat = self.seat
        who = seat_name(seat)
        name = sheet.colours[colour].name
        taken = [k for k in self.stop if sheet.colour_of(k) == colour]
        self.stop = [k for k in self.stop if sheet.colour_of(k) != colour]
        riders = [k for k in taken if not sheet.is_senior(k)]
        olds = [k for k in taken if sheet.is_senior(k)]
        for k in riders:
            self.bus[seat][k] += 1
        self._log(
            "BAS-PICK-ALL",
            f"{who} picks up every {name} passenger at the stop: {' '.join(sheet.code(k) for k in taken)}.",
            seat=seat,
            colour=name,
            cards=[sheet.code(k) for k in taken],
        )
        if riders:
            self._log(
                "BAS-PICK-LIMIT",
                f"{_plural(len(riders), 'passenger')} board{'s' if len(riders) == 1 else ''}: "
                f"{self.bus_size(seat)} of {BUS_SEATS} seats taken.",
                seat=seat,
                seats=self.bus_size(seat),
            )
        for k in olds:
            if len(self.seniors[seat]) < SENIOR_CAP:
                self.seniors[seat].append(k)
                self._log(
                    "BAS-SENIOR",
                    f"{sheet.code(k)} is a senior: not in the bus but face down beside it "
                    f"(1 point at the end); {who} has {_plural(len(self.seniors[seat]), 'senior')}.",
                    seat=seat,
                    seniors=len(self.seniors[seat]),
                )
            else:
                self.seniors_lost[seat].append(k)
                self._log(
                    "BAS-SENIOR-CAP",
                    f"{who} already holds {SENIOR_CAP} seniors: {sheet.code(k)} leaves the "
                    f"game and scores nothing.",
                    seat=seat,
                )
        self.refill_redealt = False
        self._refill_or_go_on()

    def _refill_or_go_on(self) -> None:
        """BAS-REFILL, BAS-REFILL-SAMECOLOUR, BAS-END-TRIGGER: draw the next card, or finish the refill."""
        sheet = self.sheet
        if len(self.stop) < STOP_SIZE:
            if sum(self.deck):
                self.node = "refill"
                return
            self._log(
                "BAS-REFILL",
                f"The deck is empty: the stop stays short with {_plural(len(self.stop), 'card')}.",
                stop=len(self.stop),
            )
            if self.phase == "play":
                self._trigger("the bus stop cannot be refilled to 5")
            self._end_turn()
            return
        colours = {sheet.colour_of(k) for k in self.stop}
        if len(colours) == 1:
            name = sheet.colours[colours.pop()].name
            if not self.refill_redealt:
                self.refill_redealt = True
                self._return_stop()
                self._log(
                    "BAS-REFILL-SAMECOLOUR",
                    f"All {STOP_SIZE} passengers at the stop are {name}: they go back "
                    f"into the deck, which is reshuffled, and {STOP_SIZE} are dealt again (once).",
                    redeal=True,
                )
                self.node = "refill"
                return
            self._log(
                "BAS-REFILL-SAMECOLOUR", f"All {STOP_SIZE} are {name} again: play goes on.", redeal=False
            )
        self._end_turn()

    def _on_refill(self, kind: int) -> None:
        sheet = self.sheet
        self.deck[kind] -= 1
        self.stop.append(kind)
        self._log(
            "BAS-REFILL",
            f"{sheet.code(kind)} ({sheet.name(kind)}) refills the stop "
            f"({len(self.stop)} of {STOP_SIZE}; {sum(self.deck)} left in the deck).",
            card=sheet.code(kind),
        )
        self._refill_or_go_on()

    # -- dropping off --------------------------------------------------------------------
    def _start_drop(self, stack: int, count: int) -> None:
        spec = self.sheet.stacks[stack]
        card = self.top_card(stack)
        self._log(
            "BAS-DROP-TOP",
            f"{seat_name(self.seat)} drops off {count} at the {_place(spec)}: its top card takes "
            f"{card.text()} points, so {count} pay{'s' if count == 1 else ''} "
            f"{card.points_for(count)}.",
            seat=self.seat,
            stack=spec.name,
            count=count,
        )
        self.pending = (stack, count, [])
        self.node = "choose"
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
        self._choose(action - CHOOSE_BASE, forced=False)
        self._choose_forced()

    def _choose(self, kind: int, forced: bool) -> None:
        sheet = self.sheet
        stack, count, chosen = self.pending  # type: ignore[misc]
        self.bus[self.seat][kind] -= 1
        chosen.append(kind)
        rule = "BAS-DROP-MULTI" if sheet.stacks[stack].multicoloured else "BAS-DROP-TYPE"
        left = count - len(chosen)
        self._log(
            rule,
            f"{seat_name(self.seat)} drops {sheet.code(kind)} ({sheet.name(kind)})"
            f"{' (the only choice)' if forced else ''}; {left} more to choose.",
            seat=self.seat,
            card=sheet.code(kind),
            forced=forced,
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
        codes = " ".join(sheet.code(k) for k in chosen)
        self._log(
            "BAS-DROP-CLAIM",
            f"{seat_name(seat)} lays {codes} face up and takes the {_place(spec)} card turned to "
            f"{count}: {_plural(points, 'point')}.",
            seat=seat,
            stack=spec.name,
            count=count,
            points=points,
        )
        left = self.destinations_left()
        if self.phase == "play" and self.trigger is None and left <= END_DESTINATIONS_LEFT:
            self._trigger(f"only {left} destination cards are left")
        colours = tuple(sorted({sheet.colour_of(k) for k in chosen}))
        self.sked_from = (seat, stack, colours)
        n = self.num_players
        self.sked_queue = [(seat + i) % n for i in range(1, n)]
        self._next_skedaddle()

    def _trigger(self, reason: str) -> None:
        self.trigger = {"seat": self.seat, "reason": reason}
        self._log(
            "BAS-END-TRIGGER",
            f"The end is triggered by {seat_name(self.seat)}: {reason}. That turn is over; "
            "a final round follows.",
            seat=self.seat,
        )

    # -- skedaddling ---------------------------------------------------------------------
    def _next_skedaddle(self) -> None:
        sheet = self.sheet
        dropper, stack, colours = self.sked_from  # type: ignore[misc]
        spec = sheet.stacks[stack]
        if spec.multicoloured:
            names = [sheet.colours[c].name for c in colours]
            either = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
            match = f"a {either} passenger (a colour just dropped)"
        else:
            match = f"a {sheet.types[spec.type_index].name}"
        while self.sked_queue:
            seat = self.sked_queue.pop(0)
            if self.skedaddle_options(seat):
                self.sked_seat = seat
                self.node = "skedaddle"
                self._log(
                    "BAS-SKEDADDLE",
                    f"{seat_name(seat)} may skedaddle {match} after {seat_name(dropper)}'s drop-off.",
                    seat=seat,
                )
                return
            self._log(
                "BAS-SKEDADDLE",
                f"{seat_name(seat)} has no passenger that could skedaddle ({match}).",
                seat=seat,
                offered=False,
            )
        self.sked_seat = None
        self.sked_from = None
        self._end_turn()

    def _on_skedaddle(self, action: int) -> None:
        seat = self.sked_seat
        who = seat_name(seat)  # type: ignore[arg-type]
        if action == NO_SKEDADDLE:
            self._log("BAS-SKEDADDLE", f"{who} does not skedaddle.", seat=seat, skedaddled=None)
        else:
            kind = action - SKEDADDLE_BASE
            self.bus[seat][kind] -= 1  # type: ignore[index]
            self.skedaddled[seat].append(kind)  # type: ignore[index]
            self._log(
                "BAS-SKEDADDLE",
                f"{who} skedaddles {self.sheet.code(kind)} ({self.sheet.name(kind)}): face down "
                f"by the bus, 1 point.",
                seat=seat,
                skedaddled=self.sheet.code(kind),
            )
        self._next_skedaddle()

    # -- unhappy passengers --------------------------------------------------------------
    def _on_unhappy(self, action: int) -> None:
        seat = self.seat
        who = seat_name(seat)
        if action == UNHAPPY_DONE:
            self._log("BAS-UNHAPPY", f"{who} stops discarding; the turn is over.", seat=seat)
            self._end_turn()
            return
        kind = action - UNHAPPY_BASE
        self.bus[seat][kind] -= 1
        self.unhappy[seat].append(kind)
        self.unhappy_count += 1
        self._log(
            "BAS-UNHAPPY",
            f"{who} discards {self.sheet.code(kind)} ({self.sheet.name(kind)}) face up as an "
            f"unhappy passenger (-1).",
            seat=seat,
            card=self.sheet.code(kind),
        )
        if not self.bus_size(seat):
            self._log("BAS-UNHAPPY", f"{who}'s bus is empty; the turn is over.", seat=seat)
            self._end_turn()

    # -- turn order and the end ------------------------------------------------------------
    def _end_turn(self) -> None:
        n = self.num_players
        if self.phase == "final":
            self.final_index += 1
            if self.final_index >= n:
                self._finish()
            else:
                self._begin_turn(self.final_order[self.final_index])
            return
        if self.trigger is not None:
            self.phase = "final"
            t = self.trigger["seat"]
            self.final_order = [(t + i) % n for i in range(1, n + 1)]
            self.final_index = 0
            order = ", ".join(seat_name(s) for s in self.final_order)
            self._log(
                "BAS-END-FINAL",
                f"Final round, in seat order after the trigger: {order}. Skedaddling still applies.",
                order=list(self.final_order),
            )
            self._begin_turn(self.final_order[0])
            return
        self._begin_turn((self.seat + 1) % n)

    def _finish(self) -> None:
        self.phase = "over"
        self.node = None
        for seat in range(self.num_players):
            who = seat_name(seat)
            dest = sum(c[3] for c in self.claimed[seat])
            self._log(
                "BAS-SCORE-DEST",
                f"{who}: {_plural(len(self.claimed[seat]), 'destination')} for {_plural(dest, 'point')}.",
                seat=seat,
                points=dest,
            )
            self._log(
                "BAS-SCORE-SENIOR",
                f"{who}: {_plural(len(self.seniors[seat]), 'senior')} and "
                f"{len(self.skedaddled[seat])} skedaddled, +1 each.",
                seat=seat,
                points=len(self.seniors[seat]) + len(self.skedaddled[seat]),
            )
            if self.unhappy[seat]:
                self._log(
                    "BAS-SCORE-UNHAPPY",
                    f"{who}: {_plural(len(self.unhappy[seat]), 'unhappy passenger')}, -1 each.",
                    seat=seat,
                    points=-len(self.unhappy[seat]),
                )
            left = self.bus_size(seat)
            if not left:
                self._log(
                    "BAS-SCORE-EMPTY",
                    f"{who}'s bus is empty: +{EMPTY_BUS_BONUS}.",
                    seat=seat,
                    points=EMPTY_BUS_BONUS,
                )
            elif self.penalty:
                self._log(
                    "BAS-SCORE-EMPTY",
                    f"{who} has {_plural(left, 'passenger')} left in the bus: -1 each (leftover penalty).",
                    seat=seat,
                    points=-left,
                )
        scores = self.returns()
        best = max(scores)
        tied = [s for s, p in enumerate(scores) if p == best]
        winners = self.winners()
        text = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(scores))
        if len(tied) == 1:
            self._log(
                "BAS-WIN",
                f"Final scores: {text}. {seat_name(tied[0])} wins with {best} points.",
                winners=winners,
                scores=scores,
            )
        else:
            names = " and ".join(seat_name(s) for s in tied)
            extra = self.tie_break_value(winners[0])
            if len(winners) == 1:
                how = (
                    f"{seat_name(winners[0])} wins with the most seniors and skedaddled passengers ({extra})"
                )
            else:
                how = (
                    " and ".join(seat_name(s) for s in winners)
                    + f" also tie on seniors and skedaddled ({extra}) "
                    "and share the win"
                )
            self._log(
                "BAS-WIN",
                f"Final scores: {text}. {names} tie on {_plural(best, 'point')}; {how}.",
                winners=winners,
                scores=scores,
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
            IndexError: no such seat.
        """
        if not 0 <= seat < self.num_players:
            raise IndexError(f"seat {seat} is not at the table: seats are 0 to {self.num_players - 1}")
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
        if node == "deal":
            again = f" (deal {self.setup_deals})" if self.setup_deals > 1 else ""
            return f"Deal card {len(self.stop) + 1} of {STOP_SIZE} to the bus stop{again}."
        if node == "refill":
            return (
                f"Refill the bus stop: card {len(self.stop) + 1} of {STOP_SIZE} "
                f"({sum(self.deck)} left in the deck)."
            )
        who = seat_name(self.current_player())
        if node == "turn":
            if self.phase == "final":
                what = "one final drop-off" if not self.full_final else "a final turn (pick up or drop off)"
                return f"Final round: {who} may take {what}, or pass."
            return f"{who}: pick up one colour from the stop, or drop off at a destination."
        if node == "choose":
            stack, count, chosen = self.pending  # type: ignore[misc]
            spec = sheet.stacks[stack]
            left = count - len(chosen)
            kind = "of new colours" if spec.multicoloured else f"of type {sheet.types[spec.type_index].name}"
            return f"{who} drops {count} at the {_place(spec)}: choose {left} more passenger{'s' if left != 1 else ''} {kind}."
        if node == "skedaddle":
            dropper, stack, _c = self.sked_from  # type: ignore[misc]
            return (
                f"{who}: skedaddle one matching passenger after {seat_name(dropper)}'s drop-off at the "
                f"{_place(sheet.stacks[stack])}, or not?"
            )
        if self.unhappy_count:
            return f"{who} may discard more unhappy passengers, or stop."
        return f"{who} can neither pick up nor drop off: discard at least one passenger as unhappy."

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything on the table, JSON-safe; the same for every seat: all cards are face up and
        only the deck's order is hidden (its size and make-up by colour are not shown here).

        Raises:
            IndexError: ``seat`` is not at the table (``None`` is the spectator).
        """
        if seat is not None and not 0 <= seat < self.num_players:
            raise IndexError(f"seat {seat} is not at the table: seats are 0 to {self.num_players - 1}")
        sheet = self.sheet
        table = sheet.codes

        def code(kind: int) -> str:
            return table[kind]

        def codes(kinds) -> list[str]:
            return [table[k] for k in sorted(kinds)]

        stacks = []
        for s, spec in enumerate(sheet.stacks):
            card = self.top_card(s)
            stacks.append(
                {
                    "name": spec.name,
                    "kind": spec.kind,
                    "type": None if spec.multicoloured else sheet.types[spec.type_index].name,
                    "needs": sheet.needs_text(spec),
                    "cards_left": len(self.stacks[s]),
                    "top": None
                    if card is None
                    else {"counts": list(card.counts), "points": list(card.points)},
                }
            )
        players = []
        scores = self.returns()
        for p in range(self.num_players):
            passengers = [table[k] for k, c in enumerate(self.bus[p]) for _ in range(c)]
            players.append(
                {
                    "bus": passengers,
                    "seats_used": len(passengers),
                    "seats": BUS_SEATS,
                    "seniors": codes(self.seniors[p]),
                    "seniors_lost": len(self.seniors_lost[p]),
                    "skedaddled": codes(self.skedaddled[p]),
                    "unhappy": codes(self.unhappy[p]),
                    "dropped": codes(self.dropped[p]),
                    "claimed": [
                        {"stack": sheet.stacks[s].name, "count": k, "points": pts}
                        for s, _i, k, pts in self.claimed[p]
                    ],
                    "points": scores[p],
                    "tie_break": self.tie_break_value(p),
                }
            )
        pending = None
        if self.pending is not None:
            stack, count, chosen = self.pending
            pending = {"stack": sheet.stacks[stack].name, "count": count, "chosen": [code(k) for k in chosen]}
        sked = None
        if self.node == "skedaddle":
            dropper, stack, colours = self.sked_from  # type: ignore[misc]
            sked = {
                "seat": self.sked_seat,
                "dropper": dropper,
                "stack": sheet.stacks[stack].name,
                "colours": [sheet.colours[c].name for c in colours],
            }
        return {
            "game": "bus_and_stop",
            "viewer": seat,
            "players": self.num_players,
            "phase": self.phase,
            "node": self.node,
            "to_move": self.current_player(),
            "turn": self.seat,
            "turns": self.turns,
            "status": self.status(),
            "stop": [code(k) for k in self.stop],
            "deck": sum(self.deck),
            "stacks": stacks,
            "destinations_left": self.destinations_left(),
            "buses": players,
            "points": scores,
            "pending_drop": pending,
            "skedaddle": sked,
            "unhappy_discards": self.unhappy_count if self.node == "unhappy" else 0,
            "trigger": None if self.trigger is None else dict(self.trigger),
            "final_order": list(self.final_order),
            "colours": [{"name": c.name, "code": c.code, "ink": c.ink} for c in sheet.colours],
            "types": [{"name": t.name, "code": t.code, "senior": t.senior} for t in sheet.types],
            "options": {
                "final_round": self._game.params["final_round"],
                "leftover_penalty": self._game.params["leftover_penalty"],
                "sheet": "built-in" if self._game.params["sheet"] is None else "custom",
            },
            "winners": self.winners(),
        }

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
