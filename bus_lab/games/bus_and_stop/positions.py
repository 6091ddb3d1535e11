"""Bus & Stop positions a teacher sets up: ``game.state_from_position(position)`` and
``state.position()``.

A position is taken **at a decision that starts a turn**: phase ``"turn"`` (pick up, drop off, or
in the final round pass) or phase ``"unhappy"`` (the seat can do neither and discards unhappy
passengers, possibly after some discards already). In the middle of a drop-off (choosing its
passengers, the skedaddles after it), at a card being dealt and at the end there is no position:
:func:`position_of` raises :class:`~bus_lab.engine.errors.PositionError` saying so.

Every card is face up and the deck is not ordered: the passenger cards still in the deck are the
sheet's cards minus every card on the table (the stop, the buses, the seniors, the skedaddled,
unhappy and dropped passengers), and each refill draws a kind with probability ``cards of that
kind / cards in the deck``, as in a game played from the start. A position cannot fix the deck's
order (the game has none to fix).

The shape is :class:`Position` (JSON-safe; passengers by their two-letter codes such as
``"YB"``, destination stacks by their names). Example: see ``README.md``, "Setting up a position".
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Literal, TypedDict, cast

from bus_lab.games.bus_and_stop.components import BUS_SEATS, END_DESTINATIONS_LEFT, STOP_SIZE, Sheet
from bus_lab.games.bus_and_stop.phases import BusAndStopPhase, Stage
from bus_lab.games.positions import PositionError, PositionFormat

if TYPE_CHECKING:
    from bus_lab.games.bus_and_stop.game import BusAndStopGame
    from bus_lab.games.bus_and_stop.state import BusAndStopState

__all__ = [
    "Position",
    "SeatPosition",
    "ClaimPosition",
    "TriggerPosition",
    "position_of",
    "state_from_position",
]

#: Most seniors a seat keeps beside its bus (BAS-SENIOR-CAP); the same as ``state.SENIOR_CAP``.
SENIOR_CAP = 10
#: The phases a position may be taken at.
POSITION_PHASES = (BusAndStopPhase.TURN, BusAndStopPhase.UNHAPPY)


class ClaimPosition(TypedDict):
    """A destination card a seat has claimed (BAS-DROP-CLAIM).

    Keys:
        stack (str): the name of its stack (``"office"``).
        card (int): which card of the stack: its place in the stack as set up (BAS-SETUP-ORDER),
            0 = the card on top at the start. The cards of a stack are claimed from the top, so
            a stack with ``k`` cards claimed has claimed its cards ``0`` to ``k − 1``.
        count (int): passengers dropped off for it (one of the counts the card accepts); its
            points follow from the card.
    """

    stack: str
    card: int
    count: int


class SeatPosition(TypedDict):
    """One seat's cards (passenger codes; the order of a list does not matter except ``claimed``).

    Keys:
        bus (list[str]): passengers in the bus (at most 10, BAS-PICK-LIMIT; no seniors).
        seniors (list[str]): seniors beside the bus (at most 10, BAS-SENIOR-CAP).
        seniors_lost (list[str]): seniors beyond the cap that left the game.
        skedaddled (list[str]): passengers skedaddled (BAS-SKEDADDLE).
        unhappy (list[str]): passengers discarded unhappy (BAS-UNHAPPY).
        dropped (list[str]): passengers dropped off at destinations (as many as the claims' counts).
        claimed (list[ClaimPosition]): destination cards claimed, in the order claimed.
    """

    bus: list[str]
    seniors: list[str]
    seniors_lost: list[str]
    skedaddled: list[str]
    unhappy: list[str]
    dropped: list[str]
    claimed: list[ClaimPosition]


class TriggerPosition(TypedDict):
    """Who triggered the end of the game and why (BAS-END-TRIGGER).

    Keys:
        seat (int): the seat (0-based); the final round starts with the next seat.
        reason (str): why, in words.
    """

    seat: int
    reason: str


class _PositionRequired(TypedDict):
    stage: Literal["play", "final"]
    phase: Literal["turn", "unhappy"]
    seat: int
    turns: int
    stop: list[str]
    stacks: dict[str, int]
    seats: list[SeatPosition]
    unhappy_discards: int
    trigger: TriggerPosition | None


class Position(_PositionRequired, total=False):
    """A Bus & Stop position: what ``state.position()`` gives and ``state_from_position`` takes.

    Keys:
        stage (str): ``"play"`` (regular turns) or ``"final"`` (the final round, BAS-END-FINAL).
        phase (str): ``"turn"`` (the seat picks up, drops off or, in the final round, passes) or
            ``"unhappy"`` (the seat can do neither and must discard, BAS-UNHAPPY; regular turns
            only). It must be what the table gives: a seat that can move is at ``"turn"``.
        seat (int): whose turn it is (0-based).
        turns (int): turns begun so far, this one included (at least 1; ``view()["turns"]``).
        stop (list[str]): the passengers at the bus stop, in the order dealt (5 while the deck
            has cards, BAS-REFILL).
        stacks (dict[str, int]): destination cards left in each stack, by stack name (every stack
            of the sheet; at most its cards). In regular play more than 6 are left in all.
        seats (list[SeatPosition]): every seat's cards, by seat.
        unhappy_discards (int): passengers already discarded this turn (phase ``"unhappy"``; 0
            otherwise).
        trigger (TriggerPosition | None): who triggered the end (required in the final round,
            ``None`` in regular play).
        deck (dict[str, int]): optional, read only: the passenger cards left in the deck by code
            (kinds with none left omitted). It follows from the rest; when given it must match.

    Raises (from ``state_from_position``):
        PositionError: a missing key, a wrong type, an unknown passenger code, stack or seat, or a
            table no game reaches (more cards of a kind than the sheet has, a bus over 10 seats,
            a senior in a bus, a destination card claimed twice or still in its stack, a stop of
            fewer than 5 while cards are left, a phase the table does not give...).
    """

    deck: dict[str, int]


@functools.lru_cache(maxsize=32)
def _format(game: BusAndStopGame) -> PositionFormat:
    sheet: Any = game.sheet  # its lookup tables by kind are set when it is built
    players = game.num_players
    codes = {"enum": list(sheet.codes), "x-expected": "a passenger code such as " + repr(sheet.codes[0])}
    cards = {"type": "array", "items": codes}
    seat_no = {"type": "integer", "minimum": 0, "maximum": players - 1}
    claim = {
        "type": "object",
        "title": "a claimed destination card",
        "required": ["stack", "card", "count"],
        "additionalProperties": False,
        "properties": {
            "stack": {"enum": [s.name for s in sheet.stacks]},
            "card": {"type": "integer", "minimum": 0},
            "count": {"type": "integer", "minimum": 1},
        },
    }
    seat_keys = ["bus", "seniors", "seniors_lost", "skedaddled", "unhappy", "dropped"]
    seat = {
        "type": "object",
        "title": "a seat",
        "required": [*seat_keys, "claimed"],
        "additionalProperties": False,
        "properties": {**{k: cards for k in seat_keys}, "claimed": {"type": "array", "items": claim}},
    }
    schema = {
        "type": "object",
        "title": "a Bus & Stop position",
        "required": list(_PositionRequired.__annotations__),
        "additionalProperties": False,
        "properties": {
            "stage": {"enum": ["play", "final"]},
            "phase": {"enum": ["turn", "unhappy"]},
            "seat": seat_no,
            "turns": {"type": "integer", "minimum": 1},
            "stop": {"type": "array", "items": codes, "maxItems": STOP_SIZE},
            "stacks": {
                "type": "object",
                "title": "the stacks",
                "required": [s.name for s in sheet.stacks],
                "additionalProperties": False,
                "properties": {
                    s.name: {"type": "integer", "minimum": 0, "maximum": len(s.cards)} for s in sheet.stacks
                },
            },
            "seats": {"type": "array", "items": seat, "minItems": players, "maxItems": players},
            "unhappy_discards": {"type": "integer", "minimum": 0},
            "trigger": {
                "anyOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "title": "a trigger",
                        "required": ["seat", "reason"],
                        "additionalProperties": False,
                        "properties": {"seat": seat_no, "reason": {"type": "string"}},
                    },
                ],
                "x-expected": "null or {'seat': a seat number, 'reason': a string}",
            },
            "deck": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 1},
                "propertyNames": codes,
            },
        },
    }
    return PositionFormat("Bus & Stop", schema)


def _stack_order(sheet: Sheet, stack: int) -> list[int]:
    """The card indices of ``stack`` as set up, top first (BAS-SETUP-ORDER, as the state sorts them)."""
    cards = sheet.stacks[stack].cards
    return sorted(range(len(cards)), key=lambda i: cards[i].order_key(), reverse=True)


def position_of(state: BusAndStopState) -> Position:
    """``state.position()``: the table as a :class:`Position`.

    Raises:
        PositionError: the game is not at the start of a turn or at an unhappy discard.
    """
    node = state.node
    if node not in POSITION_PHASES:
        where = "the game is over" if node is None else f"the game is at phase {node.value!r}"
        raise PositionError(
            "a Bus & Stop position is taken at a decision that starts a turn (phase 'turn' or "
            f"'unhappy'), not in the middle of a drop-off or at a card being dealt: {where}"
        )
    sheet: Any = state.sheet
    codes: tuple[str, ...] = sheet.codes

    def cards(kinds: list[int]) -> list[str]:
        return [codes[k] for k in sorted(kinds)]

    seats: list[SeatPosition] = []
    for p in range(state.num_players):
        claimed: list[ClaimPosition] = []
        for s, index, count, _points in state.claimed[p]:
            rank = _stack_order(sheet, s).index(index)
            claimed.append({"stack": sheet.stacks[s].name, "card": rank, "count": count})
        seats.append(
            {
                "bus": [codes[k] for k, c in enumerate(state.bus[p]) for _ in range(c)],
                "seniors": cards(state.seniors[p]),
                "seniors_lost": cards(state.seniors_lost[p]),
                "skedaddled": cards(state.skedaddled[p]),
                "unhappy": cards(state.unhappy[p]),
                "dropped": cards(state.dropped[p]),
                "claimed": claimed,
            }
        )
    trigger: TriggerPosition | None = None
    if state.trigger is not None:
        trigger = {"seat": int(state.trigger["seat"]), "reason": str(state.trigger["reason"])}
    return {
        "stage": "final" if state.stage is Stage.FINAL else "play",
        "phase": "unhappy" if node is BusAndStopPhase.UNHAPPY else "turn",
        "seat": state.seat,
        "turns": state.turns,
        "stop": [codes[k] for k in state.stop],
        "stacks": {spec.name: len(state.stacks[s]) for s, spec in enumerate(sheet.stacks)},
        "seats": seats,
        "unhappy_discards": state.unhappy_count if node is BusAndStopPhase.UNHAPPY else 0,
        "trigger": trigger,
        "deck": {codes[k]: c for k, c in enumerate(state.deck) if c},
    }


def state_from_position(game: BusAndStopGame, position: Any) -> BusAndStopState:
    """``game.state_from_position(position)``: a state at ``position`` (see :class:`Position`).

    Raises:
        PositionError: the first problem found, naming the field and what it should be.
    """
    sheet: Any = game.sheet
    n = game.num_players
    fmt = _format(game)
    pos = fmt.check(position)
    kind = {code: k for k, code in enumerate(sheet.codes)}
    state = cast("BusAndStopState", game.new_initial_state())
    state._events = []  # the story before a position is not part of it

    def kinds(cards: list[str]) -> list[int]:
        return sorted(kind[c] for c in cards)

    # -- the cards: none more often than the sheet has --------------------------------------
    seen = [0] * sheet.num_kinds
    stop = [kind[c] for c in pos["stop"]]
    for k in stop:
        seen[k] += 1
    for p, seat in enumerate(pos["seats"]):
        for key in ("bus", "seniors", "seniors_lost", "skedaddled", "unhappy", "dropped"):
            for c in seat[key]:
                seen[kind[c]] += 1
        bus = kinds(seat["bus"])
        if len(bus) > BUS_SEATS:
            raise fmt.error(("seats", p, "bus"), f"{len(bus)} passengers, but a bus has {BUS_SEATS} seats")
        old = [sheet.codes[k] for k in bus if sheet.is_senior(k)]
        if old:
            raise fmt.error(
                ("seats", p, "bus"), f"{old[0]} is a senior: seniors sit beside the bus (BAS-SENIOR)"
            )
        for key in ("seniors", "seniors_lost"):
            young = [c for c in seat[key] if not sheet.is_senior(kind[c])]
            if young:
                raise fmt.error(("seats", p, key), f"{young[0]} is not a senior")
        if len(seat["seniors"]) > SENIOR_CAP:
            raise fmt.error(
                ("seats", p, "seniors"),
                f"{len(seat['seniors'])} seniors, but a seat keeps at most {SENIOR_CAP} (BAS-SENIOR-CAP)",
            )
        if seat["seniors_lost"] and len(seat["seniors"]) < SENIOR_CAP:
            raise fmt.error(
                ("seats", p, "seniors_lost"),
                f"seniors are lost only beyond the cap of {SENIOR_CAP}, and this seat has "
                f"{len(seat['seniors'])} (BAS-SENIOR-CAP)",
            )
    for k, count in enumerate(seen):
        if count > sheet.deck[k]:
            raise fmt.error(
                (),
                f"{count} {sheet.code(k)} cards ({sheet.name(k)}) are on the table, but the game has only "
                f"{sheet.deck[k]} (a card twice?)",
            )
    deck = [sheet.deck[k] - seen[k] for k in range(sheet.num_kinds)]
    if "deck" in pos:
        derived = {sheet.codes[k]: c for k, c in enumerate(deck) if c}
        if dict(pos["deck"]) != derived:
            raise fmt.error(
                ("deck",), f"the deck holds what is not on the table: {derived}, not {dict(pos['deck'])}"
            )
    if len(stop) < STOP_SIZE and sum(deck):
        raise fmt.error(
            ("stop",),
            f"{len(stop)} passengers, but the stop is refilled to {STOP_SIZE} while the deck has cards "
            f"({sum(deck)} left, BAS-REFILL)",
        )

    # -- the destination cards: each claimed once, from the top ----------------------------
    names = [s.name for s in sheet.stacks]
    claimed: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
    taken: dict[int, dict[int, tuple[int, int]]] = {s: {} for s in range(len(names))}
    for p, seat in enumerate(pos["seats"]):
        for i, claim in enumerate(seat["claimed"]):
            where = ("seats", p, "claimed", i)
            s = names.index(claim["stack"])
            spec = sheet.stacks[s]
            rank = claim["card"]
            if rank >= len(spec.cards):
                raise fmt.error(
                    (*where, "card"),
                    f"the {spec.name} stack has {len(spec.cards)} cards: 0 to {len(spec.cards) - 1}",
                )
            if rank in taken[s]:
                q, j = taken[s][rank]
                raise fmt.error(
                    (*where, "card"),
                    f"{spec.name} card {rank} is claimed twice (also seats[{q}].claimed[{j}])",
                )
            taken[s][rank] = (p, i)
            card = spec.cards[_stack_order(sheet, s)[rank]]
            if claim["count"] not in card.counts:
                raise fmt.error(
                    (*where, "count"),
                    f"{spec.name} card {rank} ({card.text()}) accepts {'/'.join(map(str, card.counts))} "
                    f"passengers, not {claim['count']}",
                )
            index = _stack_order(sheet, s)[rank]
            claimed[p].append((s, index, claim["count"], card.points_for(claim["count"])))
        dropped = sum(c[2] for c in claimed[p])
        if dropped != len(seat["dropped"]):
            raise fmt.error(
                ("seats", p, "dropped"),
                f"{len(seat['dropped'])} passengers, but the claims of this seat took {dropped}",
            )
    for s, spec in enumerate(sheet.stacks):
        gone = len(spec.cards) - pos["stacks"][spec.name]
        if sorted(taken[s]) != list(range(gone)):
            raise fmt.error(
                ("stacks", spec.name),
                f"{pos['stacks'][spec.name]} cards left, so its top {gone} were claimed (cards 0 to "
                f"{gone - 1}), but the seats claimed {sorted(taken[s]) or 'none'}",
            )

    # -- the turn ------------------------------------------------------------------------------
    final = pos["stage"] == "final"
    trigger = pos["trigger"]
    left = sum(pos["stacks"].values())
    if final and trigger is None:
        raise fmt.error(
            ("trigger",), "the final round needs who triggered the end: {'seat': ..., 'reason': ...}"
        )
    if not final:
        if trigger is not None:
            raise fmt.error(("trigger",), "in regular play the end is not triggered yet: use null")
        if left <= END_DESTINATIONS_LEFT:
            raise fmt.error(
                ("stacks",),
                f"{left} destination cards are left: the end is triggered at {END_DESTINATIONS_LEFT} "
                "(BAS-END-TRIGGER); use stage 'final' with a trigger",
            )
    if pos["unhappy_discards"] and pos["phase"] != "unhappy":
        raise fmt.error(("unhappy_discards",), "passengers are discarded only in phase 'unhappy'")
    seat_no = pos["seat"]
    if pos["unhappy_discards"] > len(pos["seats"][seat_no]["unhappy"]):
        raise fmt.error(
            ("unhappy_discards",),
            f"{pos['unhappy_discards']} discards this turn, but seat {seat_no} has "
            f"{len(pos['seats'][seat_no]['unhappy'])} unhappy passengers",
        )

    state.deck = deck
    state.stop = stop
    for p, seat in enumerate(pos["seats"]):
        state.bus[p] = [0] * sheet.num_kinds
        for k in kinds(seat["bus"]):
            state.bus[p][k] += 1
        state.seniors[p] = kinds(seat["seniors"])
        state.seniors_lost[p] = kinds(seat["seniors_lost"])
        state.skedaddled[p] = kinds(seat["skedaddled"])
        state.unhappy[p] = kinds(seat["unhappy"])
        state.dropped[p] = kinds(seat["dropped"])
        state.claimed[p] = claimed[p]
    state.stacks = [
        _stack_order(sheet, s)[len(spec.cards) - pos["stacks"][spec.name] :]
        for s, spec in enumerate(sheet.stacks)
    ]
    state.stage = Stage.FINAL if final else Stage.PLAY
    state.seat = seat_no
    state.turns = pos["turns"]
    state.trigger = None if trigger is None else {"seat": trigger["seat"], "reason": trigger["reason"]}
    if final:
        t = trigger["seat"]
        state.final_order = [(t + i) % n for i in range(1, n + 1)]
        state.final_index = state.final_order.index(seat_no)
    state.unhappy_count = pos["unhappy_discards"]

    moves = state._turn_actions(seat_no)
    if pos["phase"] == "unhappy":
        if final:
            raise fmt.error(("phase",), "in the final round a seat drops off or passes: use phase 'turn'")
        if moves and not pos["unhappy_discards"]:
            raise fmt.error(
                ("phase",),
                f"seat {seat_no} can pick up or drop off, so its turn is at phase 'turn' (BAS-UNHAPPY)",
            )
        if not any(state.bus[seat_no]):
            raise fmt.error(
                ("phase",), f"seat {seat_no}'s bus is empty: there is nobody to discard (BAS-UNHAPPY)"
            )
        state.node = BusAndStopPhase.UNHAPPY
    else:
        if not moves:
            raise fmt.error(
                ("phase",),
                f"seat {seat_no} can neither pick up nor drop off: its turn is at phase 'unhappy' (BAS-UNHAPPY)",
            )
        if final and len(moves) == 1:
            raise fmt.error(
                ("phase",),
                f"seat {seat_no} has no move in the final round but to pass, which happens by itself",
            )
        state.node = BusAndStopPhase.TURN
    return state


def _seat(**cards: Any) -> SeatPosition:
    seat: dict[str, Any] = {
        k: [] for k in ("bus", "seniors", "seniors_lost", "skedaddled", "unhappy", "dropped", "claimed")
    }
    seat.update(cards)
    return seat  # type: ignore[return-value]


#: An example (the README's): seat 0's drop-off at the last school card leaves seat 1 (a full bus of 3 businessmen, 2 mothers,
#: a tennis player and 4 students, with the tennis court, multicoloured and school stacks empty)
#: with no move: unhappy (BAS-UNHAPPY). Played from the start, this takes some 20 scripted cards.
EXAMPLE: Position = {
    "stage": "play",
    "phase": "turn",
    "seat": 0,
    "turns": 21,
    "stop": ["GB", "GT", "GM", "BB", "BT"],
    "stacks": {"office": 4, "park": 4, "school": 1, "tennis court": 0, "multicoloured": 0},
    "seats": [
        _seat(
            bus=["YS", "GS"],
            dropped=["YT", "GT", "BT", "PT", "YB", "GB", "PS", "RS"],
            claimed=[
                {"stack": "tennis court", "card": 0, "count": 2},
                {"stack": "multicoloured", "card": 0, "count": 2},
                {"stack": "tennis court", "card": 1, "count": 2},
                {"stack": "school", "card": 0, "count": 2},
            ],
        ),
        _seat(
            bus=["YB", "BB", "PB", "YM", "PM", "RT", "YS", "BS", "RS", "GS"],
            dropped=["RT", "YT", "GT", "BT", "PB", "RB", "YS", "GS", "BS", "PS"],
            claimed=[
                {"stack": "tennis court", "card": 2, "count": 2},
                {"stack": "tennis court", "card": 3, "count": 2},
                {"stack": "multicoloured", "card": 1, "count": 2},
                {"stack": "school", "card": 1, "count": 2},
                {"stack": "school", "card": 2, "count": 2},
            ],
        ),
    ],
    "unhappy_discards": 0,
    "trigger": None,
}  # fmt: skip
