"""BUS (the city grid game): the rules, as a step-through state.

Rules: ``shared/rules/bus_city.md`` (IDs ``BUS-…``); every applied action records events citing
them. The grid is :mod:`.grid` (12 street slots between 3×3 intersections), the cards come from
the component sheet (:mod:`.components`).

Phases (:mod:`.phases`; every shuffle is drawn when a card is revealed, so the order of what is
still hidden is never decided in advance): chance lays each street card (``STREET``, BUS-SETUP),
turns up passenger cards (``FACEUP``) and deals a blind draw (``DRAW``); the seats place their
buses (``PLACE``), take a first card (``START_PICK``), then each turn ``MOVE``, and perhaps
``PICKUP`` or use the ``CONSTRUCTION`` site.

Moves (:mod:`.moves`, the only place that knows their ints; labels in brackets): a street card
laid (``"red/N"``: card id, then the side of the street its symbol is on, N/S on a horizontal
slot, W/E on a vertical one), a passenger card drawn (``"red-pink"``), placing the bus
(``"start a3-b3 E"``), taking a face-up card (``"take red-pink"``), ``"draw blind"``, ``"pass"``
(BUS-ONE-ACTION), driving to a card with a heading and the passengers dropped off on the way
(``"b1-b2 S"``, ``"b1-b2 S drop red+pink"``: one move per distinct outcome, BUS-MOVE,
BUS-DROPOFF), swapping two street cards (``"swap a1-b1 b2-c2"``; in challenging play
``"swap a1-b1 b2-c2 sides N S"``) and turning one (challenging play, ``"turn a1-b1"``).
"""

from __future__ import annotations

import unicodedata
from fractions import Fraction
from typing import Any

from bus_lab.engine.core import CHANCE, TERMINAL, State
from bus_lab.engine.moves import Move
from bus_lab.engine.words import points_text
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city import moves as M
from bus_lab.games.bus_city.components import Sheet
from bus_lab.games.bus_city.moves import (
    DRAW_BLIND,
    MASK_SPAN,
    MOVE_BASE,
    PASS,
    PASSENGER_BASE,
    PLACE_BASE,
    ROTATE_BASE,
    SWAP_BASE,
    TAKE_BASE,
)
from bus_lab.games.bus_city.narrate import narrate, seat_name
from bus_lab.games.bus_city.narrate import plural as _plural
from bus_lab.games.bus_city.phases import CHANCE_PHASES, PHASES, BusCityPhase, Stage
from bus_lab.games.bus_city.views import BusCityView, build_view

Ph = BusCityPhase
#: Passenger cards a player may have in progress at once (BUS-PICKUP).
MAX_IN_PROGRESS = 3
#: Face-up passenger cards while the deck lasts (BUS-FACEUP).
FACE_UP = 2
#: Complete cards that trigger the end (BUS-END).
END_AT = 5
#: The chance phases (kept under their earlier name).
CHANCE_NODES = CHANCE_PHASES
__all__ = [
    "BusCityState",
    "BusCityPhase",
    "DRAW_BLIND",
    "MASK_SPAN",
    "MOVE_BASE",
    "PASS",
    "PASSENGER_BASE",
    "PLACE_BASE",
    "ROTATE_BASE",
    "SWAP_BASE",
    "TAKE_BASE",
    "MAX_IN_PROGRESS",
    "FACE_UP",
    "END_AT",
    "seat_name",
]


#: Slot index by folded slot name.
_SLOTS = {s.name.casefold(): s.index for s in G.SLOTS}
#: Side of the street by its letter: N (horizontal slot) or W (vertical) is side 0, S or E side 1.
_SIDE_LETTERS = {"n": 0, "w": 0, "s": 1, "e": 1}


def _fold(text: str) -> str:
    """Lower case (NFKC), surrounding and repeated spaces dropped: how labels are compared."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _node(slot: str, heading: str) -> int | None:
    """The node named by a slot name and heading letter (``"b1-b2"``, ``"s"``), or ``None``."""
    if slot not in _SLOTS:
        return None
    info = G.SLOTS[_SLOTS[slot]]
    for h in (0, 1):
        if info.heading_name(h).casefold() == heading:
            return G.node(info.index, h)
    return None


def _side_of(slot: G.Slot, letter: str) -> int | None:
    """The side of ``slot`` named by ``letter`` (``"n"``/``"s"`` or ``"w"``/``"e"``), or ``None``."""
    for side in (0, 1):
        if slot.side_name(side).casefold() == letter:
            return side
    return None


class BusCityState(State):
    """A game of BUS in progress.

    Phases: ``"setup"`` (the grid is laid and two passenger cards turned up), ``"start"`` (each
    seat places its bus and takes a first passenger card), ``"turns"``, ``"over"``.

    Public attributes (read them, do not change them): ``slots`` (per slot ``[card index,
    side]`` or ``None``), ``buses`` (per seat a node or ``None``), ``held`` (per seat the cards
    in progress as ``[card index, dropped colour mask]``, in pick-up order), ``complete`` (per
    seat the complete card indices), ``faceup`` (card indices), ``deck`` (card indices not yet
    seen), ``site_used`` (per seat), ``round`` (1, 2, …), ``turn`` (the seat whose turn it is),
    ``speed_limit`` (fixed at the start of the turn; ``None`` = no limit), ``end_trigger`` (the
    seat that triggered the end, or ``None``).
    """

    RENDER = ("bus_lab.games.bus_city.render", "grid_html", "grid_text")
    PHASES = PHASES  # type: ignore[assignment]
    NARRATE = narrate  # type: ignore[assignment]  # a plain function, not a method

    def __init__(self, game):
        super().__init__(game)
        p = game.params
        self.sheet: Sheet = game.sheet
        self.num_players: int = p["players"]
        self.challenging: bool = bool(p["challenging"])
        self.empty_speed: int | None = p["empty_speed"]
        self.max_rounds: int = p["max_rounds"]
        n = self.num_players
        self.slots: list[list[int] | None] = [None] * G.NUM_SLOTS
        self.street_pool: set[int] = set(range(len(self.sheet.streets)))
        self.deck: set[int] = set(range(len(self.sheet.passengers)))
        self.faceup: list[int] = []
        self.buses: list[int | None] = [None] * n
        self.site_used: list[bool] = [False] * n
        self.held: list[list[list[int]]] = [[] for _ in range(n)]
        self.complete: list[list[int]] = [[] for _ in range(n)]
        #: the part of the game: "setup", "start", "turns" or "over" (the view's "phase")
        self.stage = Stage.SETUP
        #: the phase (what is decided or drawn next), ``None`` once the game is over
        self.node: BusCityPhase | None = Ph.STREET
        self.actor = 0
        self.turn = 0
        self.round = 0
        self.speed_limit: int | None = None
        self.move_start: int | None = None
        self.end_trigger: int | None = None
        self.final_turns: list[int] = []
        self.last_route: list[int] = []
        self._move_cache: dict[int, list[int]] | None = None
        self._legal_cache: list[int] | None = None
        colour_bits = {c: 1 << i for i, c in enumerate(self.sheet.colours)}
        self._card_bits = [
            colour_bits[a] | colour_bits[b] for a, b in (c.colours for c in self.sheet.passengers)
        ]
        self._colour_bits = colour_bits
        #: " drop red+pink" for each drop mask (the end of a move's label)
        self._drop_text = [
            ("" if not m else " drop " + "+".join(c for c, b in colour_bits.items() if m & b))
            for m in range(1 << len(self.sheet.colours))
        ]
        streets = self.sheet.streets
        counts = {
            sym: sum(1 for s in streets if s.symbol == sym)
            for sym in ("destination", "stop", "site", "plain")
        }
        self._log("BUS-GRID")
        self._log("BUS-COMP-STREETS", sheet=self.sheet.title, **counts)
        self._log("BUS-COMP-PASSENGERS", cards=len(self.sheet.passengers))
        self._log("BUS-SETUP", what="table", players=n, sides=[G.PROGRESS_SIDES[s][0] for s in range(n)])
        if self.challenging:
            self._log("BUS-CH-SIDE", what="rules")

    # -- small helpers -------------------------------------------------------------------
    def _invalidate(self) -> None:
        self._move_cache = None
        self._legal_cache = None

    def card_name(self, card: int) -> str:
        """The id of passenger card ``card`` (e.g. ``"red-pink"``)."""
        return self.sheet.passengers[card].id

    def street_at(self, slot: int):
        """The :class:`~.components.StreetCard` on ``slot``, or ``None`` before setup placed it."""
        placed = self.slots[slot]
        return None if placed is None else self.sheet.streets[placed[0]]

    def side_at(self, slot: int) -> int | None:
        """The side (0/1) of ``slot``'s street its symbol is on, or ``None`` before setup."""
        placed = self.slots[slot]
        return None if placed is None else placed[1]

    def symbol_usable(self, slot: int, heading: int) -> bool:
        """Whether a bus on ``slot`` with ``heading`` may use the card's symbol: always in the basic
        game; in challenging play only from the right-hand side (BUS-CH-SIDE)."""
        if not self.challenging:
            return True
        return self.slots[slot][1] == G.SLOTS[slot].right_side(heading)

    def in_progress(self, seat: int) -> list[int]:
        """Card indices ``seat`` has in progress (picked up, not complete), in pick-up order."""
        return [card for card, _ in self.held[seat]]

    def waiting_colours(self, seat: int) -> list[str]:
        """The colours of ``seat``'s picked-up passengers not dropped off yet (one per passenger)."""
        out = []
        for card, dropped in self.held[seat]:
            for colour in self.sheet.passengers[card].colours:
                if not dropped & self._colour_bits[colour]:
                    out.append(colour)
        return out

    def _carried_bits(self, seat: int) -> int:
        bits = 0
        for card, dropped in self.held[seat]:
            bits |= self._card_bits[card] & ~dropped
        return bits

    def colours_of(self, mask: int) -> list[str]:
        """The colour names of a drop mask, in sheet order."""
        return [c for c, b in self._colour_bits.items() if mask & b]

    def limit_for(self, seat: int) -> int | None:
        """The speed limit ``seat`` would have if its turn started now (BUS-SPEED): the lowest
        speed among its cards in progress, else ``empty_speed`` (``None``: no limit)."""
        speeds = [self.sheet.passengers[card].speed for card, _ in self.held[seat]]
        return min(speeds) if speeds else self.empty_speed

    def supply(self) -> int:
        """Passenger cards that can still be taken: face up plus the deck."""
        return len(self.faceup) + len(self.deck)

    def _drop_bits(self, slot: int, heading: int, wanted: int) -> int:
        card = self.sheet.streets[self.slots[slot][0]]
        if card.symbol != "destination":
            return 0
        bit = self._colour_bits[card.colour]
        if not wanted & bit:
            return 0
        if self.challenging and self.slots[slot][1] != G.SLOTS[slot].right_side(heading):
            return 0
        return bit

    # -- the protocol --------------------------------------------------------------------
    def phase(self) -> BusCityPhase | None:
        """What is decided or drawn next (see :mod:`.phases`), ``None`` once the game is over."""
        return self.node

    def current_player(self) -> int:
        if self.node is None:
            return TERMINAL
        if self.node in CHANCE_PHASES:
            return CHANCE
        return self.actor

    def _street_outcomes(self) -> list[int]:
        return [M.street_action(card, side) for card in self.street_pool for side in (0, 1)]

    def _chance_outcomes(self) -> list[tuple[int, Fraction]]:
        if self.node is Ph.STREET:
            return self._uniform(self._street_outcomes())
        return self._uniform(M.passenger_action(card) for card in self.deck)

    def chance_weights(self) -> tuple[list[int], list[int] | None]:
        """The outcomes of :meth:`chance_outcomes`, sorted, all equally likely (``None`` weights);
        ``([], None)`` at a decision or terminal node: its fast form for drawing."""
        if self.node is Ph.STREET:
            return sorted(self._street_outcomes()), None
        if self.node in CHANCE_PHASES:
            return sorted(M.passenger_action(card) for card in self.deck), None
        return [], None

    def _legal_actions(self) -> list[int]:
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        return self._legal_cache

    def _compute_legal(self) -> list[int]:
        node = self.node
        if node is Ph.PLACE:
            return [
                M.place_action(G.node(slot, h))
                for slot in range(G.NUM_SLOTS)
                if self.street_at(slot).symbol == "stop"
                for h in (0, 1)
            ]
        if node in (Ph.START_PICK, Ph.PICKUP):
            actions = [M.take_action(card) for card in self.faceup]
            if self.deck:
                actions.append(DRAW_BLIND)
            if node is Ph.PICKUP:
                actions.append(PASS)  # picking up is optional (BUS-ONE-ACTION)
            return sorted(actions)
        if node is Ph.MOVE:
            return sorted(self.move_routes())
        if node is Ph.CONSTRUCTION:
            return self._construction_actions()
        return []

    def _construction_actions(self) -> list[int]:
        occupied = {b // 2 for b in self.buses if b is not None}
        free = [s for s in range(G.NUM_SLOTS) if s not in occupied]
        actions = [PASS]
        for x, i in enumerate(free):
            for j in free[x + 1 :]:
                if self.challenging:
                    actions += [M.swap_action(i, j, si, sj) for si in (0, 1) for sj in (0, 1)]
                else:  # each card keeps its side (BUS-CONSTRUCTION)
                    actions.append(M.swap_action(i, j, self.slots[j][1], self.slots[i][1]))
        if self.challenging:
            actions += [M.rotate_action(s) for s in free]
        return sorted(actions)

    def _is_legal(self, action: int) -> bool:
        node = self.node
        if node is Ph.STREET or node in CHANCE_PHASES:
            move = self._plain_move(action)
            if node is Ph.STREET:
                return isinstance(move, M.StreetCardDrawn) and move.card in self.street_pool
            return isinstance(move, M.PassengerCardDrawn) and move.card in self.deck
        if node is Ph.MOVE:
            return action in self.move_routes()
        return action in self._legal_actions()

    def move_routes(self) -> dict[int, list[int]]:
        """At a move decision: every distinct outcome (BUS-MOVE) with a shortest route to it.

        Returns:
            ``{move action: [node entered at each step]}``; a route is a list of nodes
            (``slot * 2 + heading``, see :mod:`.grid`). Empty when no move is being decided.

        The bus takes 1 to ``speed_limit`` steps (BUS-SPEED), never a U-turn (BUS-MOVE), may pass
        but not end on its starting card (BUS-MOVE-END); every card entered drops off matching
        passengers (BUS-DROPOFF, and BUS-CH-SIDE in challenging play). Two routes to the same
        card and heading are one action when they drop off the same passengers.
        """
        if self.node is not Ph.MOVE:
            return {}
        if self._move_cache is None:
            self._move_cache = self._enumerate_moves()
        return self._move_cache

    def _enumerate_moves(self) -> dict[int, list[int]]:
        start = self.buses[self.actor]
        start_slot = start // 2
        wanted = self._carried_bits(self.actor)
        limit = self.speed_limit
        seen = {(start, 0)}
        frontier: dict[tuple[int, int], list[int]] = {(start, 0): []}
        out: dict[int, list[int]] = {}
        depth = 0
        while frontier and (limit is None or depth < limit):
            depth += 1
            nxt: dict[tuple[int, int], list[int]] = {}
            for (here, mask), route in frontier.items():
                for there in G.SUCCESSORS[here]:
                    got = (mask | self._drop_bits(there // 2, there % 2, wanted & ~mask)) if wanted else 0
                    key = (there, got)
                    if key in seen:
                        continue
                    seen.add(key)
                    nxt[key] = route + [there]
            frontier = nxt
            for (there, mask), route in nxt.items():
                if there // 2 != start_slot:
                    out.setdefault(M.drive_action(there, mask), route)
        return out

    # -- labels --------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """A readable label: ``"red/N"`` (a street card laid), ``"red-pink"`` (a passenger card
        revealed), ``"start a3-b3 E"``, ``"take red-pink"``, ``"draw blind"``, ``"pass"``,
        ``"b1-b2 S drop red+pink"``, ``"swap a1-b1 b2-c2"`` (``"… sides N S"`` in challenging
        play) or ``"turn a1-b1"``. Labels parse back with :meth:`string_to_action`."""
        if type(action) is int:  # the most common label: keep it fast
            drive = M.drive_parts(action)
            if drive is not None:
                n, mask = drive
                if mask < len(self._drop_text):
                    return G.NODE_LABELS[n] + self._drop_text[mask]
                return f"<not an action: {action!r}>"
        if isinstance(action, bool) or not isinstance(action, int):
            return f"<not an action: {action!r}>"
        move = self._plain_move(action)
        if move is None:
            return f"<not an action: {action!r}>"
        return self._label(move)

    def _label(self, move: Move) -> str:
        sheet = self.sheet
        if isinstance(move, M.StreetCardDrawn):
            slot = G.SLOTS[self._setup_slot()] if self.node is Ph.STREET else None
            letter = slot.side_name(move.side) if slot is not None else ("N", "S")[move.side]
            return f"{sheet.streets[move.card].id}/{letter}"
        if isinstance(move, M.PassengerCardDrawn):
            return sheet.passengers[move.card].id
        if isinstance(move, M.DrawBlind):
            return "draw blind"
        if isinstance(move, M.Pass):
            return "pass"
        if isinstance(move, M.TakeCard):
            return f"take {sheet.passengers[move.card].id}"
        if isinstance(move, M.PlaceBus):
            return f"start {G.node_label(move.node)}"
        if isinstance(move, M.TurnCard):
            return f"turn {G.SLOTS[move.slot].name}"
        if isinstance(move, M.SwapCards):
            first, second = G.SLOTS[move.first], G.SLOTS[move.second]
            label = f"swap {first.name} {second.name}"
            if self.challenging:
                label += f" sides {first.side_name(move.first_side)} {second.side_name(move.second_side)}"
            return label
        assert isinstance(move, M.Drive)
        return G.NODE_LABELS[move.node] + self._drop_text[move.drop_mask]

    def _plain_move(self, action: int) -> Move | None:
        """The move of ``action`` (any int) without its label or route, ``None`` for no move."""
        sheet = self.sheet
        return M.decode(action, len(sheet.streets), len(sheet.passengers), len(sheet.colours))

    def _decode_move(self, action: int) -> Move | None:
        move = self._plain_move(action)
        if isinstance(move, M.Drive):
            route = self.move_routes().get(action, ())
            move = M.Drive(
                move.slot, move.heading, move.drop_mask, tuple(self.colours_of(move.drop_mask)), tuple(route)
            )
        return move

    def _setup_slot(self) -> int:
        return sum(1 for s in self.slots if s is not None)

    # -- notation ------------------------------------------------------------------------
    def _names(self) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
        """Street card, passenger card and colour names (folded as labels are) by index."""
        names = self.__dict__.get("_folded_names")
        if names is None:
            sheet = self.sheet
            names = (
                {_fold(c.id): i for i, c in enumerate(sheet.streets)},
                {_fold(c.id): i for i, c in enumerate(sheet.passengers)},
                {_fold(c): i for i, c in enumerate(sheet.colours)},
            )
            self.__dict__["_folded_names"] = names
        return names

    def _normalize_label(self, text: str) -> str:
        """Drop-offs in any order name the same move: ``"b1-b2 s drop pink+red"`` is read as the
        label's ``"b1-b2 s drop red+pink"`` (colours in sheet order)."""
        head, sep, drops = text.partition(" drop ")
        if not sep:
            return text
        colours = self._names()[2]
        parts = [c.strip() for c in drops.split("+")]
        if not all(c in colours for c in parts):
            return text
        return head + sep + "+".join(sorted(set(parts), key=colours.__getitem__))

    def _parse_label(self, text: str) -> int | None:
        """The action a (folded, normalized) label names, legal now or not: every label
        :meth:`action_to_string` makes, street and passenger cards drawn included."""
        streets, passengers, colours = self._names()
        if text == "draw blind":
            return DRAW_BLIND
        if text == "pass":
            return PASS
        if text in passengers:
            return M.passenger_action(passengers[text])
        words = text.split(" ")
        if words[0] == "take" and len(words) == 2 and words[1] in passengers:
            return M.take_action(passengers[words[1]])
        if words[0] == "turn" and len(words) == 2 and words[1] in _SLOTS:
            return M.rotate_action(_SLOTS[words[1]])
        if words[0] == "start" and len(words) == 3:
            node = _node(words[1], words[2])
            return None if node is None else M.place_action(node)
        if words[0] == "swap":
            return self._parse_swap(words[1:])
        if "/" in text:
            card, _, letter = text.rpartition("/")
            side = _SIDE_LETTERS.get(letter)
            return None if card not in streets or side is None else M.street_action(streets[card], side)
        return self._parse_drive(words, colours)

    def _parse_swap(self, words: list[str]) -> int | None:
        if len(words) not in (2, 5) or words[0] not in _SLOTS or words[1] not in _SLOTS:
            return None
        i, j = _SLOTS[words[0]], _SLOTS[words[1]]
        if len(words) == 2:  # each keeps its side (BUS-CONSTRUCTION)
            if i == j or self.slots[i] is None or self.slots[j] is None:
                return None
            first, second = (i, j) if i < j else (j, i)
            return M.swap_action(i, j, self.slots[second][1], self.slots[first][1])
        if words[2] != "sides":
            return None
        sides = [_side_of(G.SLOTS[i], words[3]), _side_of(G.SLOTS[j], words[4])]
        if None in sides:
            return None
        return M.swap_action(i, j, sides[0], sides[1])  # type: ignore[arg-type]

    def _parse_drive(self, words: list[str], colours: dict[str, int]) -> int | None:
        if len(words) == 2:
            mask = 0
        elif len(words) == 4 and words[2] == "drop":
            parts = words[3].split("+")
            if not all(c in colours for c in parts):
                return None
            mask = sum({1 << colours[c] for c in parts})
        else:
            return None
        node = _node(words[0], words[1])
        return None if node is None else M.drive_action(node, mask)

    def _why_not_legal(self, action: int) -> str:
        node = self.node
        label = self.action_to_string(action)
        move = self._plain_move(action)
        if node is Ph.STREET:
            if isinstance(move, M.StreetCardDrawn):
                return f"the street card {self.sheet.streets[move.card].id} is already on the grid"
            return "a street card and its side must be drawn now (BUS-SETUP)"
        if node in CHANCE_PHASES:
            if isinstance(move, M.PassengerCardDrawn):
                return f"{label} is not in the deck"
            return "a passenger card must come off the deck now"
        if node is Ph.MOVE:
            return self._why_not_move(action)
        if node is Ph.PLACE:
            if isinstance(move, M.PlaceBus):
                card = self.street_at(move.slot)
                return f"a bus starts on a bus stop, and {label[6:]} is a {card.describe()} (BUS-START)"
            return f"{seat_name(self.actor)} must place the bus on a bus stop first (BUS-START)"
        if node in (Ph.START_PICK, Ph.PICKUP):
            if isinstance(move, M.TakeCard):
                return f"{label[5:]} is not one of the face-up passenger cards (BUS-FACEUP)"
            if isinstance(move, M.Pass) and node is Ph.START_PICK:
                return "at the start every player must take a passenger card (BUS-START)"
            return f"{label} is not a choice now: take a face-up card or draw blind (BUS-PICKUP)"
        if node is Ph.CONSTRUCTION:
            return self._why_not_construction(action)
        return "that is not one of the moves allowed now"

    def _why_not_move(self, action: int) -> str:
        drive = M.drive_parts(action)
        if drive is None:
            move = self._plain_move(action)
            if isinstance(move, (M.TakeCard, M.DrawBlind)):
                return "passengers are picked up only after a move that ends on a bus stop (BUS-PICKUP)"
            if M.in_construction_block(action):
                return "the construction site is used only after a move that ends on it (BUS-CONSTRUCTION)"
            return f"{seat_name(self.actor)} must move the bus now (BUS-TURN)"
        n, mask = drive
        slot = G.SLOTS[n // 2]
        if n // 2 == self.move_start // 2:
            return (
                f"a bus may pass its starting card {slot.name} but may not end its move there (BUS-MOVE-END)"
            )
        routes = self.move_routes()
        if not any(M.drive_parts(a)[0] == n for a in routes):  # type: ignore[index]
            limit = "no limit" if self.speed_limit is None else f"a speed limit of {self.speed_limit}"
            steps = G.DIST[self.move_start][n]
            return (
                f"{G.node_label(n)} is {_plural(steps, 'step')} away without a U-turn (BUS-MOVE), "
                f"beyond {limit} (BUS-SPEED)"
            )
        colours = "+".join(self.colours_of(mask)) or "nobody"
        return (
            f"no route of at most {self.speed_limit or 'any number of'} steps to {G.node_label(n)} drops off "
            f"exactly {colours}: drop-offs are automatic on every card entered (BUS-DROPOFF)"
        )

    def _why_not_construction(self, action: int) -> str:
        occupied = {b // 2: s for s, b in enumerate(self.buses) if b is not None}
        move = self._plain_move(action)
        if isinstance(move, M.TurnCard):
            if not self.challenging:
                return "turning a card instead of swapping is challenging play only (BUS-CH-ROTATE)"
            slot = move.slot
            return f"a bus is on {G.SLOTS[slot].name}: only a card with no bus on it can be turned (BUS-CH-ROTATE)"
        swap = M.swap_parts(action)
        if swap is not None:
            i, j = swap[0], swap[1]
            if i >= j:
                return "name a swap by its two slots in grid order (the first before the second)"
            busy = [G.SLOTS[s].name for s in (i, j) if s in occupied]
            if busy:
                return (
                    f"a bus is on {' and '.join(busy)}: only cards with no bus on them can be swapped "
                    "(BUS-CONSTRUCTION)"
                )
            return (
                "in the basic game a swapped card keeps its orientation; changing sides is challenging play "
                "(BUS-CONSTRUCTION, BUS-CH-ROTATE)"
            )
        return "choose two street cards to swap, or pass (BUS-CONSTRUCTION)"

    # -- applying ------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        getattr(self, PHASES[self.node].handler)(action)  # type: ignore[index]
        self._invalidate()

    def _on_street(self, action: int) -> None:
        move = self._plain_move(action)
        assert isinstance(move, M.StreetCardDrawn)
        card, side = move.card, move.side
        slot = self._setup_slot()
        self.street_pool.discard(card)
        self.slots[slot] = [card, side]
        info = G.SLOTS[slot]
        street = self.sheet.streets[card]
        self._log(
            "BUS-SETUP",
            what="street",
            slot=info.name,
            card=street.id,
            side=info.side_name(side),
            symbol=street.symbol,
            describe=street.describe(),
        )
        if slot + 1 == G.NUM_SLOTS:
            self._continue()

    def _drawn_card(self, action: int) -> int:
        move = self._plain_move(action)
        assert isinstance(move, M.PassengerCardDrawn)
        return move.card

    def _on_faceup(self, action: int) -> None:
        card = self._drawn_card(action)
        self.deck.discard(card)
        self.faceup.append(card)
        p = self.sheet.passengers[card]
        self._log("BUS-FACEUP", what="faceup", card=p.id, deck=len(self.deck), value=p.value, speed=p.speed)
        self._continue()

    def _on_draw(self, action: int) -> None:
        card = self._drawn_card(action)
        self.deck.discard(card)
        self._give(self.actor, card, blind=True)
        self._continue()

    def _give(self, seat: int, card: int, blind: bool) -> None:
        self.held[seat].append([card, 0])
        p = self.sheet.passengers[card]
        rule = "BUS-START" if self.stage is Stage.START else "BUS-PICKUP"
        self._log(
            rule,
            what="take",
            seat=seat,
            card=p.id,
            blind=blind,
            colours=list(p.colours),
            value=p.value,
            speed=p.speed,
            in_progress=len(self.held[seat]),
        )

    def _continue(self) -> None:
        """After a passenger card moved: refill the face-up cards (BUS-FACEUP), then go on."""
        if len(self.faceup) < FACE_UP and self.deck:
            self.node = Ph.FACEUP
            return
        if self.stage is Stage.SETUP:
            self.stage = Stage.START
            self.actor = 0
            self.node = Ph.PLACE
        elif self.stage is Stage.START:
            self._next_start()
        else:
            self._end_turn()

    def _on_place(self, action: int) -> None:
        move = self._plain_move(action)
        assert isinstance(move, M.PlaceBus)
        n = move.node
        seat = self.actor
        self.buses[seat] = n
        others = [
            s
            for s in range(self.num_players)
            if s != seat and self.buses[s] is not None and self.buses[s] // 2 == n // 2
        ]
        info = G.SLOTS[n // 2]
        self._log(
            "BUS-START",
            what="place",
            seat=seat,
            slot=info.name,
            heading=info.heading_name(n % 2),
            sharing=others,
        )
        if self.supply():
            self.node = Ph.START_PICK
        else:
            self._log("BUS-PICKUP", what="empty")
            self._next_start()

    def _on_start_pick(self, action: int) -> None:
        self._on_pickup(action)

    def _on_pickup(self, action: int) -> None:
        seat = self.actor
        move = self._plain_move(action)
        if isinstance(move, M.Pass):
            self._log("BUS-ONE-ACTION", what="no_pickup", seat=seat)
            self._end_turn()
            return
        if isinstance(move, M.DrawBlind):
            self.node = Ph.DRAW
            return
        assert isinstance(move, M.TakeCard)
        card = move.card
        self.faceup.remove(card)
        self._give(seat, card, blind=False)
        if self.deck:
            self._log("BUS-FACEUP", what="refill")
        self._continue()

    def _next_start(self) -> None:
        if self.actor + 1 < self.num_players:
            self.actor += 1
            self.node = Ph.PLACE
            return
        self.stage = Stage.TURNS
        self.round = 1
        self._begin_turn(0)

    def _begin_turn(self, seat: int) -> None:
        self.turn = self.actor = seat
        self.speed_limit = self.limit_for(seat)
        self.move_start = self.buses[seat]
        self.node = Ph.MOVE
        self._log("BUS-TURN", seat=seat, round=self.round)
        speeds = [self.sheet.passengers[c].speed for c, _ in self.held[seat]]
        self._log("BUS-SPEED", seat=seat, limit=self.speed_limit, speeds=speeds)

    def _on_move(self, action: int) -> None:
        seat = self.actor
        route = self.move_routes()[action]
        start = self.buses[seat]
        self.last_route = [start] + list(route)
        wanted_before = self._carried_bits(seat)
        passed_start = any(n // 2 == start // 2 for n in route)
        self._log(
            "BUS-MOVE",
            seat=seat,
            route=[G.node_label(n) for n in route],
            start=G.node_label(start),
            limit=self.speed_limit,
        )
        if passed_start:
            self._log("BUS-MOVE-END", seat=seat, slot=G.SLOTS[start // 2].name)
        for n in route:
            self._enter(seat, n)
        self.buses[seat] = route[-1]
        dropped = wanted_before & ~self._carried_bits(seat)
        if dropped != M.drive_parts(action)[1]:  # type: ignore[index]  # pragma: no cover - a bug guard
            raise RuntimeError("the route dropped other passengers than its action says")
        self._end_move(seat, route[-1])

    def _enter(self, seat: int, n: int) -> None:
        """The bus of ``seat`` enters node ``n``: automatic drop-offs (BUS-DROPOFF)."""
        slot = n // 2
        street = self.street_at(slot)
        if street.symbol != "destination":
            return
        bit = self._colour_bits[street.colour]
        if not self._carried_bits(seat) & bit:
            return
        info = G.SLOTS[slot]
        if self.challenging and not self.symbol_usable(slot, n % 2):
            self._log(
                "BUS-CH-SIDE",
                what="no_dropoff",
                seat=seat,
                slot=info.name,
                colour=street.colour,
                heading=info.heading_name(n % 2),
                side=info.side_name(self.slots[slot][1]),
            )
            return
        finished = []
        for entry in self.held[seat]:
            card, done = entry
            if self._card_bits[card] & bit and not done & bit:
                entry[1] |= bit
                p = self.sheet.passengers[card]
                self._log("BUS-DROPOFF", seat=seat, card=p.id, colour=street.colour, slot=info.name)
                if self.challenging:
                    self._log(
                        "BUS-CH-SIDE",
                        what="dropoff",
                        seat=seat,
                        colour=street.colour,
                        side=info.side_name(self.slots[slot][1]),
                    )
                if entry[1] == self._card_bits[card]:
                    finished.append(entry)
        for entry in finished:
            self.held[seat].remove(entry)
            self.complete[seat].append(entry[0])
            p = self.sheet.passengers[entry[0]]
            self._log(
                "BUS-PROGRESS",
                seat=seat,
                card=p.id,
                value=p.value,
                complete=len(self.complete[seat]),
            )

    def _end_move(self, seat: int, n: int) -> None:
        slot = n // 2
        street = self.street_at(slot)
        info = G.SLOTS[slot]
        if street.symbol == "stop":
            if self.challenging and not self.symbol_usable(slot, n % 2):
                self._log("BUS-CH-SIDE", what="stop", seat=seat, slot=info.name)
            elif len(self.held[seat]) >= MAX_IN_PROGRESS:
                self._log("BUS-PICKUP", what="full", seat=seat, slot=info.name, max=MAX_IN_PROGRESS)
            elif not self.supply():
                self._log("BUS-PICKUP", what="supply_gone", seat=seat, slot=info.name)
            else:
                self._log("BUS-ONE-ACTION", what="at_stop", seat=seat, slot=info.name)
                self.node = Ph.PICKUP
                return
        elif street.symbol == "site":
            if self.site_used[seat]:
                self._log("BUS-CONSTRUCTION", what="site_used", seat=seat)
            elif self.challenging and not self.symbol_usable(slot, n % 2):
                self._log("BUS-CH-SIDE", what="site", seat=seat, slot=info.name)
            else:
                self._log("BUS-ONE-ACTION", what="at_site", seat=seat)
                self.node = Ph.CONSTRUCTION
                return
        self._end_turn()

    def _on_construction(self, action: int) -> None:
        seat = self.actor
        move = self._plain_move(action)
        if isinstance(move, M.Pass):
            self._log("BUS-ONE-ACTION", what="no_construction", seat=seat)
            self._end_turn()
            return
        self.site_used[seat] = True
        if isinstance(move, M.TurnCard):
            slot = move.slot
            self.slots[slot][1] ^= 1
            info = G.SLOTS[slot]
            self._log(
                "BUS-CH-ROTATE",
                what="turn",
                seat=seat,
                slot=info.name,
                card=self.street_at(slot).id,
                side=info.side_name(self.slots[slot][1]),
            )
        else:
            assert isinstance(move, M.SwapCards)
            i, j = move.first, move.second
            side_i, side_j = move.first_side, move.second_side
            card_i, card_j = self.slots[i][0], self.slots[j][0]
            self.slots[i] = [card_j, side_i]
            self.slots[j] = [card_i, side_j]
            a, b = G.SLOTS[i], G.SLOTS[j]
            self._log(
                "BUS-CONSTRUCTION",
                what="swap",
                seat=seat,
                slots=[a.name, b.name],
                cards=[self.sheet.streets[card_j].id, self.sheet.streets[card_i].id],
                sides=[a.side_name(side_i), b.side_name(side_j)] if self.challenging else None,
            )
            if self.challenging:
                self._log("BUS-CH-ROTATE", what="swap_sides", seat=seat)
        self._log("BUS-CONSTRUCTION", what="flip", seat=seat)
        self._end_turn()

    def _end_turn(self) -> None:
        seat = self.turn
        n = self.num_players
        done = len(self.complete[seat])
        if self.end_trigger is not None:
            self.final_turns.pop(0)
            if done >= END_AT and seat != self.end_trigger:
                self._log("BUS-END", what="no_second", seat=seat, complete=done)
        elif done >= END_AT:
            self.end_trigger = seat
            self.final_turns = [(seat + k) % n for k in range(1, n + 1)]
            self._log("BUS-END", what="trigger", seat=seat, order=list(self.final_turns), complete=done)
        nxt = (seat + 1) % n
        if self.end_trigger is not None:
            if not self.final_turns:
                self._log("BUS-END", what="ends")
                self._finish()
                return
            nxt = self.final_turns[0]
        elif seat == n - 1:
            if self.round >= self.max_rounds:
                self._log("BUS-END-CAP", what="rounds", rounds=self.round, max_rounds=self.max_rounds)
                self._finish()
                return
            if not self.supply() and not any(self.held):
                self._log("BUS-END-CAP", what="stuck")
                self._finish()
                return
        if nxt <= seat:  # past the last seat: a new round
            self.round += 1
        self._begin_turn(nxt)

    def _finish(self) -> None:
        self.stage = Stage.OVER
        self.node = None
        for seat in range(self.num_players):
            cards = self.complete[seat]
            values = [self.sheet.passengers[c].value for c in cards]
            self._log("BUS-SCORE", seat=seat, points=self.points(seat), values=values)
        winners = self.winners()
        scores = self.returns()
        best = max(scores)
        tied = [s for s in range(self.num_players) if scores[s] == best]
        self._log("BUS-WIN", winners=winners, best=best, tied=tied, complete=[len(c) for c in self.complete])

    # -- results -------------------------------------------------------------------------
    def points(self, seat: int) -> int:
        """Points of ``seat``: the values of its complete cards (BUS-SCORE)."""
        return sum(self.sheet.passengers[c].value for c in self.complete[seat])

    def returns(self) -> list[int]:
        """Points per seat so far (BUS-SCORE): complete cards' values; incomplete cards score 0."""
        return [self.points(s) for s in range(self.num_players)]

    def winners(self) -> list[int]:
        """Seats sharing the win at the end (BUS-WIN): the most points; a tie goes to the most complete
        cards; still tied, they share. ``[]`` before the end."""
        if self.node is not None:
            return []
        key = [(self.points(s), len(self.complete[s])) for s in range(self.num_players)]
        best = max(key)
        return [s for s in range(self.num_players) if key[s] == best]

    def score_breakdown(self, seat: int) -> list[dict[str, Any]]:
        """One line per complete card (BUS-SCORE): ``{"label", "rule", "points"}``, adding up to
        ``returns()[seat]``.

        Raises:
            InputTypeError: ``seat`` is not an integer.
            ParameterError: no such seat.
        """
        seat = self._check_seat(seat, spectator=False)
        return [
            {
                "label": f"{self.card_name(c)} complete",
                "rule": "BUS-SCORE",
                "points": self.sheet.passengers[c].value,
            }
            for c in self.complete[seat]
        ]

    # -- views ---------------------------------------------------------------------------
    def status(self) -> str:
        """One sentence saying what happens next, for status lines and screen readers."""
        node = self.node
        if node is None:
            winners = self.winners()
            verb = "wins" if len(winners) == 1 else "share the win"
            return (
                f"Game over: {' and '.join(seat_name(s) for s in winners)} {verb} with "
                f"{points_text(self.points(winners[0]))}."
            )
        if node is Ph.STREET:
            slot = G.SLOTS[self._setup_slot()]
            return f"Setup: draw the street card for {slot.name} ({self._setup_slot() + 1} of 12)."
        if node is Ph.FACEUP:
            return "Turn the deck's top passenger card face up."
        if node is Ph.DRAW:
            return f"{seat_name(self.actor)} draws the deck's top passenger card blind."
        who = seat_name(self.actor)
        if node is Ph.PLACE:
            return f"{who}: place your bus on a bus stop, facing either way."
        if node is Ph.START_PICK:
            return f"{who}: take a face-up passenger card or draw one blind."
        if node is Ph.PICKUP:
            return f"{who}: take a face-up passenger card, draw one blind, or pass."
        if node is Ph.CONSTRUCTION:
            what = "swap two street cards or turn one" if self.challenging else "swap two street cards"
            return f"{who}: {what} with no bus on them, or pass."
        limit = "no speed limit" if self.speed_limit is None else f"speed limit {self.speed_limit}"
        final = " (final round)" if self.end_trigger is not None else ""
        return f"Round {self.round}{final}, {who}: move your bus ({limit}) from {G.node_label(self.buses[self.actor])}."

    def view(self, seat: int | None = None) -> BusCityView:
        """Everything on the table, JSON-safe; the same for every seat (all cards are face up except
        the deck, which shows only its size; complete cards lie face down but were seen by all).

        Raises:
            InputTypeError: ``seat`` is neither an integer nor ``None``.
            ParameterError: ``seat`` is not at the table (``None`` is the spectator).

        Returns:
            BusCityView: the table, key by key as documented in :mod:`.views`.
        """
        seat = self._check_seat(seat)
        return build_view(self, seat)

    def public_view(self) -> BusCityView:  # type: ignore[override]
        """The table as everyone may see it (a projector): every card of this game is face up
        and a seat's view hides only the deck's order, so this is the view of no seat
        (``viewer`` is ``None``), the same as every seat's apart from ``viewer``."""
        return self.view(None)

    # -- copying -------------------------------------------------------------------------
    def clone(self) -> BusCityState:
        other = BusCityState.__new__(BusCityState)
        other.__dict__.update(self.__dict__)
        self._copy_base_into(other)
        other.slots = [None if s is None else list(s) for s in self.slots]
        other.street_pool = set(self.street_pool)
        other.deck = set(self.deck)
        other.faceup = list(self.faceup)
        other.buses = list(self.buses)
        other.site_used = list(self.site_used)
        other.held = [[list(e) for e in h] for h in self.held]
        other.complete = [list(c) for c in self.complete]
        other.final_turns = list(self.final_turns)
        other.last_route = list(self.last_route)
        return other
