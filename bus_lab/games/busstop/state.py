"""Busstop: the rules, as a step-through state.

A round (BSB-ROUND-*): the conductor lines up passengers from the face-down stack (one chance node
per passenger, drawn when it is turned face up); the conductor picks a player tile face up and the
others face down, one after another (``view(seat)`` hides a face-down tile from the other seats
until the reveal); the tiles are revealed and ordered on the player-order zone; each position
takes its passengers (black icons: the queue slots its arrows point at; white: one played tile,
chosen); then every player places what they received on their buses or in their queue and may
let the head of the queue board. Ten rounds, then scoring. Each applied action records events
citing the rule it applies (``shared/rules/busstop.md``).

With 2 players a proxy bus is a third board (participant 2, after the seats, BSB-PROXY-SEAT); its
tile is drawn from its own shuffled tiles (a chance node) and the "proxy player" of the round
makes its choices (BSB-PROXY-CHOICES).

Actions (ints):

* ``0``-``10``: the kind of passenger drawn onto the line-up (label = kind code: ``"Ba"``,
  ``"Ch"``, ``"Gi"``, ``"Sa"``, ``"Gr"``, the VIPs ``"VBa"`` … ``"VGr"``, ``"ET"``);
* ``PROXY_DRAW_BASE + t``: the proxy bus's tile ``t`` drawn (label ``"proxy-7"``);
* ``BID_BASE + t``: choose player tile ``t`` (label ``"tile 7"``);
* ``WHITE_BASE + k``: take the tile played by participant ``k`` (white icon);
* ``PLACE_BASE + 4 * c + d``: place a received passenger of class ``c`` (0-4 a sort, 5-9 the VIP
  of a sort, 10 an ET) on bus ``d`` (0-2) or in the queue (``d = 3``);
* ``BOARD_BASE + b``: the head of the queue boards bus ``b``; ``STOP``: stop boarding.

Passengers ("tokens") are ints too: ``0``-``10`` a drawn passenger of that kind, and
``TILE_BASE + 10 * owner + (number - 1)`` a player tile.
"""

from __future__ import annotations

import importlib
import re
from fractions import Fraction
from typing import Any, TypeVar

from bus_lab.engine.core import CHANCE, TERMINAL, State
from bus_lab.engine.moves import Move
from bus_lab.engine.words import points_text
from bus_lab.games.busstop.components import (
    END_BONUS_POINTS,
    END_BONUS_REQUIREMENTS,
    ET,
    EXTRA_BUS_AT,
    KIND_CODES,
    KIND_NAMES,
    PROXY_PENALTY_AT,
    QUEUE_SPACES,
    ROUNDS,
    SORT_PLURALS,
    SORTS,
    STACK_COUNTS,
    TILES,
    VIP_BASE,
)
from bus_lab.games.busstop.moves import (
    BID_BASE,
    BOARD_BASE,
    PLACE_BASE,
    PROXY_DRAW_BASE,
    QUEUE_DEST,
    STOP,
    WHITE_BASE,
    ChooseTile,
    HeadBoards,
    PassengerDrawn,
    PlacePassenger,
    ProxyTileDrawn,
    StopBoarding,
    TakeTile,
    bid_action,
    board_action,
    decode,
    place_action,
    proxy_draw_action,
    take_action,
)
from bus_lab.games.busstop.narrate import KIND_LABELS, narrate, passenger_text, zone_text
from bus_lab.games.busstop.phases import CHANCE_PHASES, PHASES, BusstopPhase
from bus_lab.games.busstop.views import PUBLIC, BusstopView, build_view

__all__ = [
    "BusstopState",
    "Board",
    "BusstopPhase",
    "PHASES",
    "BID_BASE",
    "BOARD_BASE",
    "PLACE_BASE",
    "PROXY_DRAW_BASE",
    "QUEUE_DEST",
    "STOP",
    "WHITE_BASE",
    "TILE_BASE",
    "CLASS_NAMES",
    "KIND_LABELS",
    "seat_name",
    "move_label",
]

TILE_BASE = 100
_M = TypeVar("_M", bound=Move)
#: The phases at which chance acts (a passenger or a proxy tile is turned up).
CHANCE_NODES = CHANCE_PHASES
#: How a class of passenger reads in move labels (class = sort 0-4, VIP of a sort 5-9, ET 10).
CLASS_NAMES = SORTS + tuple(f"VIP {s}" for s in SORTS) + ("ET",)
#: ``KIND_LABELS`` (imported from :mod:`.narrate`): what is printed on each kind of passenger.

#: Aliases accepted by :meth:`BusstopState.string_to_action` for draws (lower case), by kind.
_DRAW_ALIASES = {name.lower(): k for k, name in enumerate(KIND_NAMES)}
_DRAW_ALIASES.update({f"vip-{s}": VIP_BASE + i for i, s in enumerate(SORTS)})
_DRAW_ALIASES.update({"salary man": 3, "vip salary man": 8, "alien": ET})
#: Every spelling of a draw, folded, mapped to the kind code it names (folded).
_DRAW_SPELLINGS = {alias: KIND_CODES[k].lower() for alias, k in _DRAW_ALIASES.items()}
#: The folded labels that do not depend on the state (all but the white icon's), and their actions.
_FIXED_LABELS: dict[str, int] = {}
#: ``take seat 1's 7``, ``take the proxy's tile`` (folded): the owner and the tile or ``tile``.
_TAKE_LABEL = re.compile(r"take (?:seat (\d+)|(the proxy))'s (tile|\d+)")


def seat_name(participant: int, proxy: int | None = None) -> str:
    """``"Seat 2"``, or ``"the proxy bus"`` for the proxy's participant number."""
    return "the proxy bus" if participant == proxy else f"Seat {participant}"


class Board:
    """One player board (BSB-COMP-BOARD): three buses (the third locked at first), the temporary
    queue, the score pile, penalty tiles taken from the proxy, and the passengers received this
    round and not yet placed. Lists hold passenger tokens (see the module docstring)."""

    __slots__ = ("buses", "queue", "pile", "penalty", "received", "extra_open")

    def __init__(self) -> None:
        self.buses: list[list[int]] = [[], [], []]
        self.queue: list[int] = []
        self.pile: list[int] = []
        self.penalty: list[int] = []
        self.received: list[int] = []
        self.extra_open = False

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.buses = [list(b) for b in self.buses]
        other.queue = list(self.queue)
        other.pile = list(self.pile)
        other.penalty = list(self.penalty)
        other.received = list(self.received)
        other.extra_open = self.extra_open
        return other


class BusstopState(State):
    """A game of Busstop in progress.

    Phases (:class:`~bus_lab.games.busstop.phases.BusstopPhase`, ``phase()`` and the attribute
    ``node``; each compares equal to its old string): ``LINEUP`` (chance: the next passenger turned
    up), ``PROXY_BID`` (chance: the proxy conductor's tile, shown at once), ``BID`` (a seat picks a
    tile), ``PROXY_REVEAL`` (chance: the proxy's face-down tile, turned at the reveal), ``WHITE`` (a
    position holder picks a played tile), ``PLACE`` (a received passenger goes on a bus or in the
    queue), ``BOARD`` (the head of the queue may board); ``None`` once the game is over. A decision
    with a single legal move is made automatically (and logged). Moves are the typed values of
    :mod:`~bus_lab.games.busstop.moves` (``state.legal_moves()``).

    Attributes (read them; change them only through ``apply_action``): ``round`` (1-10),
    ``conductor``, ``lineup`` (tokens, ``None`` once taken), ``bids`` (tile per participant or
    ``None``), ``zone_holders`` (participant per position after the reveal), ``boards``,
    ``hands`` (tiles not yet played), ``proxy`` (participant number of the proxy bus or ``None``),
    ``proxy_player`` (the seat making the proxy's choices this round).
    """

    RENDER = ("bus_lab.games.busstop.render", "table_html", "table_text")
    NARRATE = narrate
    PHASES = PHASES

    def __init__(self, game):
        super().__init__(game)
        p = game.params
        sheet = game.sheet
        self.sheet = sheet
        self.num_players: int = p["players"]
        self.proxy: int | None = 2 if self.num_players == 2 else None
        self.participants: int = 3 if self.proxy is not None else self.num_players
        self.zone = sheet.zones[self.participants]
        self.bus_seats: tuple = sheet.bus_seats
        #: token -> class (sort 0-4, VIP 5-9, ET 10), fixed by the sheet: shared by clones, never changed
        self._classes: tuple = tuple(k if k <= ET else None for k in range(TILE_BASE)) + tuple(
            sheet.tile_sort(i % 10 + 1) for i in range(10 * self.participants)
        )
        self.passenger_bonus: bool = bool(p["passenger_bonus"])
        #: token -> code in views ("Gi", "VGi", "ET", "owner/number"); fixed, shared by clones
        self._codes: tuple = tuple(KIND_CODES[k] if k <= ET else None for k in range(TILE_BASE)) + tuple(
            f"{i // 10}/{i % 10 + 1}" for i in range(10 * self.participants)
        )
        self.end_bonus: bool = bool(p["end_bonus"])
        n = self.participants
        #: per participant, token -> points in its score pile (BSB-SCORE-PILE, BSB-OPT-BONUS); fixed
        self._pile_values: tuple = tuple(
            tuple(
                self._pile_value(k, t) if self._classes[t] is not None else 0
                for t in range(len(self._classes))
            )
            for k in range(n)
        )
        self.stack: list[int] = list(STACK_COUNTS)
        self.hands: list[set[int]] = [set(TILES) for _ in range(n)]
        self.boards: list[Board] = [Board() for _ in range(n)]
        self.round = 1
        self.conductor = 0  # BSB-SETUP-CONDUCTOR
        self.next_conductor: int | None = None
        self.proxy_player: int | None = 1 if self.proxy is not None else None  # BSB-PROXY-CHOICES
        self.lineup: list[int | None] = []
        self.bids: list[int | None] = [None] * n
        self.bid_order: list[int] = []
        self.bid_index = 0
        self.zone_holders: list[int] = []
        self.played: list[int] = []  # participants whose played tile is still on the zone
        self.take_pos = 0
        self.dist_index = 0
        self.stage = BusstopPhase.PLACE
        self.node: BusstopPhase | None = BusstopPhase.LINEUP
        self._legal_cache: list[int] | None = None  # legal actions at this node (reset by every action)
        self._log("BSB-COMP-PASSENGERS", passengers=sum(STACK_COUNTS))
        self._log("BSB-COMP-PLAYERTILES", tile_sorts=[SORTS[sheet.tile_sort(t)] for t in TILES])
        self._log("BSB-COMP-BOARD", seats=list(self.bus_seats), queue_spaces=QUEUE_SPACES)
        zone = self.zone
        self._log(
            "BSB-COMP-ZONE",
            positions=n,
            black=[[s + 1 for s in slots] for slots in zone.black],
            white=[bool(w) for w in zone.white],
            conductor=zone.conductor,
        )
        self._log("BSB-SETUP", players=self.num_players, names=[self.name(k) for k in range(n)])
        if self.proxy is not None:
            self._log("BSB-PROXY")
            self._log("BSB-PROXY-SEAT")
            self._log("BSB-PROXY-CHOICES", seat=1, round=1)
        self._log("BSB-SETUP-CONDUCTOR", conductor=0)
        seats = range(self.num_players)
        if self.passenger_bonus:
            self._log(
                "BSB-OPT-BONUS",
                names=[self.name(k) for k in seats],
                sorts=[SORTS[self.bonus_sort(k)] for k in seats],
            )
        if self.end_bonus:
            self._log(
                "BSB-OPT-ENDBONUS",
                names=[self.name(k) for k in seats],
                requirements=[self.requirement(k) for k in seats],
                bonus=END_BONUS_POINTS,
            )
        self._start_round()

    # -- names and passengers -------------------------------------------------------------
    def name(self, participant: int) -> str:
        """``"Seat 1"`` or ``"the proxy bus"``."""
        return seat_name(participant, self.proxy)

    def zone_text(self) -> str:
        """The zone's icons in words, e.g. ``"P1 q1+W, P2 q2,q3+W (conductor), P3 W"``."""
        zone = self.zone
        return zone_text([[s + 1 for s in slots] for slots in zone.black], zone.white, zone.conductor)

    def bonus_sort(self, participant: int) -> int:
        """The sort favoured by ``participant``'s colour (BSB-OPT-BONUS; colour i = participant i)."""
        return self.sheet.passenger_bonus[participant]

    def requirement(self, participant: int) -> str:
        """The end-game requirement of ``participant``'s colour (BSB-OPT-ENDBONUS)."""
        return self.sheet.end_bonus[participant]

    @staticmethod
    def tile_token(owner: int, number: int) -> int:
        """The token of player tile ``number`` (1-10) of ``owner``."""
        return TILE_BASE + 10 * owner + number - 1

    def token_class(self, token: int) -> int:
        """Class of a passenger: its sort (0-4), the VIP of a sort (5-9) or ET (10). Player tiles
        are ordinary passengers of their sort (BSB-ROUND-DISTRIBUTE)."""
        return self._classes[token]

    def token_sort(self, token: int) -> int | None:
        """The sort a passenger counts as (a VIP counts as its sort, BSB-BOARD-SORT); ``None`` for an ET."""
        cls = self.token_class(token)
        return None if cls == ET else cls % 5

    def token_code(self, token: int) -> str:
        """How a passenger is written in views: a drawn one by its kind code (``"Gi"``,
        ``"VGi"``, ``"ET"``), a player tile as ``"owner/number"`` (``"1/7"``)."""
        return self._codes[token]

    def token_text(self, token: int) -> str:
        """A passenger in words: ``"a girl"``, ``"the VIP girl"``, ``"an ET"``,
        ``"Seat 1's tile 7 (salaryman)"``."""
        return passenger_text(self.passenger_data(token))

    def passenger_data(self, token: int) -> dict[str, str]:
        """A passenger as event data: ``{"passenger": code}`` (the code of views), and for a
        player tile ``whose`` (``"Seat 1's"``, ``"the proxy's"``) and ``sort`` (its sort's name)."""
        code = self.token_code(token)
        if token < TILE_BASE:
            return {"passenger": code}
        owner = (token - TILE_BASE) // 10
        whose = "the proxy's" if owner == self.proxy else f"Seat {owner}'s"
        return {"passenger": code, "whose": whose, "sort": SORTS[self.token_class(token)]}

    def bus_sort(self, participant: int, bus: int) -> int | None:
        """The sort a bus carries now: that of its first passenger who is not an ET; ``None`` when
        it is empty or holds only ETs (BSB-BOARD-SORT)."""
        classes = self._classes
        for token in self.boards[participant].buses[bus]:
            cls = classes[token]
            if cls != ET:
                return cls % 5
        return None

    def bus_open(self, participant: int, bus: int) -> bool:
        """Buses 1 and 2 always; the third once opened (BSB-EXTRA-BUS)."""
        return bus < 2 or self.boards[participant].extra_open

    def bus_accepts(self, participant: int, bus: int, cls: int) -> bool:
        """Whether a passenger of class ``cls`` may board ``bus`` now (BSB-BOARD-SORT): the bus is
        open and carries that sort or none yet; an ET may board any open bus."""
        if not self.bus_open(participant, bus):
            return False
        if cls == ET:
            return True
        sort = self.bus_sort(participant, bus)
        return sort is None or sort == cls % 5

    def decider(self, participant: int) -> int:
        """The seat that makes ``participant``'s choices: itself, or the proxy player for the proxy."""
        return self.proxy_player if participant == self.proxy else participant

    # -- protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        node = self.node
        if node is None:
            return TERMINAL
        if node in CHANCE_NODES:
            return CHANCE
        if node is BusstopPhase.BID:
            return self.bid_order[self.bid_index]
        if node is BusstopPhase.WHITE:
            return self.decider(self.zone_holders[self.take_pos])
        return self.decider(self.zone_holders[self.dist_index])  # place, board

    def acting_participant(self) -> int | None:
        """Whose board or tile the decision is about (the proxy's when the proxy player decides
        for it); ``None`` at chance nodes and at the end."""
        if self.node is BusstopPhase.WHITE:
            return self.zone_holders[self.take_pos]
        if self.node in (BusstopPhase.PLACE, BusstopPhase.BOARD):
            return self.zone_holders[self.dist_index]
        if self.node is BusstopPhase.BID:
            return self.bid_order[self.bid_index]
        return None

    def _chance_outcomes(self) -> list[tuple[int, Fraction]]:
        if self.node is BusstopPhase.LINEUP:
            total = sum(self.stack)
            return [(k, Fraction(c, total)) for k, c in enumerate(self.stack) if c]
        return self._uniform(proxy_draw_action(t) for t in self.hands[self.proxy])

    def _legal_actions(self) -> list[int]:
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        return list(self._legal_cache)

    def _compute_legal(self) -> list[int]:
        node = self.node
        if node is BusstopPhase.BID:
            return [bid_action(t) for t in sorted(self.hands[self.bid_order[self.bid_index]])]
        if node is BusstopPhase.WHITE:
            return [take_action(k) for k in sorted(self.played)]
        if node is BusstopPhase.PLACE:
            return self._placements(self.zone_holders[self.dist_index])
        if node is BusstopPhase.BOARD:
            who = self.zone_holders[self.dist_index]
            cls = self.token_class(self.boards[who].queue[0])
            boards = [board_action(b) for b in range(3) if self.bus_accepts(who, b, cls)]
            return boards + [STOP]
        return []

    def _placements(self, who: int) -> list[int]:
        out = []
        for cls in sorted({self.token_class(t) for t in self.boards[who].received}):
            out += [place_action(cls, b) for b in range(3) if self.bus_accepts(who, b, cls)]
            if cls != ET:
                out.append(place_action(cls, None))
        return out

    def _is_legal(self, action: int) -> bool:
        if self.node is BusstopPhase.LINEUP:
            move = decode(action)
            return isinstance(move, PassengerDrawn) and self.stack[move.passenger] > 0
        if self.node in (BusstopPhase.PROXY_BID, BusstopPhase.PROXY_REVEAL):
            move = decode(action)
            return isinstance(move, ProxyTileDrawn) and move.tile in self.hands[self.proxy]
        return action in self._legal_actions()

    def _why_not_legal(self, action: int) -> str:
        node = self.node
        move = decode(action)
        if node is BusstopPhase.LINEUP:
            if isinstance(move, PassengerDrawn):
                return f"no {KIND_NAMES[move.passenger]} is left in the stack (BSB-COMP-PASSENGERS)"
            return "a passenger kind (0-10) must be drawn now"
        if node in (BusstopPhase.PROXY_BID, BusstopPhase.PROXY_REVEAL):
            if isinstance(move, ProxyTileDrawn):
                return f"the proxy bus has already played its tile {move.tile} (BSB-PROXY)"
            return "one of the proxy bus's tiles must be drawn now"
        who = self.acting_participant()
        if node is BusstopPhase.BID:
            if isinstance(move, ChooseTile):
                return (
                    f"{self.name(who)} has already played tile {move.tile}: each tile is used once "
                    "(BSB-ROUND-BID)"
                )
            return f"choose one of your tiles now ({self.status()})"
        if node is BusstopPhase.WHITE:
            if isinstance(move, TakeTile) and move.owner < self.participants:
                return f"{self.name(move.owner)}'s tile is no longer on the zone (BSB-ROUND-TAKE)"
            return f"take one of the played tiles now ({self.status()})"
        if node is BusstopPhase.PLACE and isinstance(move, PlacePassenger):
            cls = move.passenger_class
            board = self.boards[who]
            if cls not in {self.token_class(t) for t in board.received}:
                return (
                    f"{self.name(who)} has no {CLASS_NAMES[cls]} waiting to be placed (BSB-ROUND-DISTRIBUTE)"
                )
            if move.bus is None:
                return "an ET may never queue: it must board a bus (BSB-QUEUE)"
            return self._why_bus_refuses(who, move.bus, cls)
        if node is BusstopPhase.BOARD and isinstance(move, HeadBoards):
            cls = self.token_class(self.boards[who].queue[0])
            return self._why_bus_refuses(who, move.bus, cls) + " (only the head may board, BSB-QUEUE-BOARD)"
        return f"that is not one of the moves allowed now ({self.status()})"

    def _why_bus_refuses(self, who: int, bus: int, cls: int) -> str:
        if not self.bus_open(who, bus):
            return (
                f"the third bus is locked until a queue of {EXTRA_BUS_AT} or more at the end of a round "
                f"opens it (BSB-EXTRA-BUS)"
            )
        sort = self.bus_sort(who, bus)
        return (
            f"bus {bus + 1} carries {SORT_PLURALS[sort]}: a {CLASS_NAMES[cls]} may not board it "
            f"(BSB-BOARD-SORT)"
        )

    def action_to_string(self, action: int) -> str:
        """``"Gi"`` (a girl drawn), ``"proxy-7"``, ``"tile 7"``, ``"take Seat 1's 7"``,
        ``"girl to bus 2"``, ``"VIP girl to queue"``, ``"head to bus 1"``, ``"stop boarding"``.

        A white move names the tile only once the tiles are revealed (``"take Seat 1's tile"``
        before): a tile chosen face down stays hidden (BSB-ROUND-BID)."""
        if isinstance(action, bool) or not isinstance(action, int):
            return f"<not an action: {action!r}>"
        move = decode(action)
        if move is None:
            return f"<not an action: {action!r}>"
        if isinstance(move, TakeTile):
            k = move.owner
            tile = self.bids[k] if k < len(self.bids) and self.zone_holders else None
            who = "the proxy's" if k == self.proxy else f"Seat {k}'s"
            return f"take {who} {tile}" if tile is not None else f"take {who} tile"
        return move_label(move)

    def _decode_move(self, action: int) -> Move | None:
        return decode(action)

    def phase(self) -> BusstopPhase | None:
        """The phase of the round (:class:`~bus_lab.games.busstop.phases.BusstopPhase`), ``None`` at the end."""
        return self.node

    def _normalize_label(self, text: str) -> str:
        """Draws by name (``"girl"``, ``"VIP girl"``, ``"vip-girl"``, ``"alien"``) read as their
        kind codes, ``"proxy 7"`` as ``"proxy-7"``, and a white move named by its owner
        (``"take Seat 1's tile"``) as its label once the tile is revealed."""
        if text in _DRAW_SPELLINGS:
            return _DRAW_SPELLINGS[text]
        if text.startswith("proxy "):
            return text.replace(" ", "-", 1)
        found = _TAKE_LABEL.fullmatch(text)
        if found and found.group(3) == "tile" and self.zone_holders:
            owner = self._take_owner(found)
            tile = self.bids[owner] if owner is not None and owner < len(self.bids) else None
            if tile is not None:
                return f"{text[: found.start(3)]}{tile}"
        return text

    def _take_owner(self, found: re.Match[str]) -> int | None:
        if found.group(2):
            return self.proxy
        return int(found.group(1))

    def _parse_label(self, text: str) -> int | None:
        """The action named by a normalized label, whether legal now or not."""
        if not _FIXED_LABELS:
            for action in range(STOP + 1):
                move = decode(action)
                if move is not None and not isinstance(move, TakeTile):
                    _FIXED_LABELS[move_label(move).casefold()] = action
        if text in _FIXED_LABELS:
            return _FIXED_LABELS[text]
        found = _TAKE_LABEL.fullmatch(text)
        if found:
            owner = self._take_owner(found)
            if owner is not None and owner < self.participants:
                return TakeTile(owner).action
        return None

    def _apply_action(self, action: int) -> None:
        self._legal_cache = None
        getattr(self, PHASES[self.node].handler)(action)
        self._legal_cache = None
        self._auto()

    def _auto(self) -> None:
        """Make every forced decision (a single legal move) at once, logging it."""
        while self.node in _FORCED_PHASES:
            legal = self._compute_legal()
            if len(legal) != 1:
                return
            getattr(self, PHASES[self.node].handler)(legal[0], forced=True)

    # -- a round -------------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.lineup = []
        self.bids = [None] * self.participants
        self.zone_holders = []
        self.played = []
        self.node = BusstopPhase.LINEUP
        self._log(
            "BSB-ROUND-LINEUP",
            round=self.round,
            conductor=self.conductor,
            name=self.name(self.conductor),
            passengers=self.zone.passengers,
            automatic=self.conductor == self.proxy,
        )

    def _on_lineup(self, action: int) -> None:
        kind = _decoded(action, PassengerDrawn).passenger
        self.stack[kind] -= 1
        self.lineup.append(kind)
        self._log("BSB-ROUND-LINEUP", slot=len(self.lineup), kind=KIND_CODES[kind])
        if len(self.lineup) == self.zone.passengers:
            self._start_bidding()

    def _start_bidding(self) -> None:
        n = self.participants
        clockwise = [(self.conductor + i) % n for i in range(n)]
        self.bid_order = [k for k in clockwise if k != self.proxy]
        self.bid_index = 0
        self.node = BusstopPhase.PROXY_BID if self.conductor == self.proxy else BusstopPhase.BID

    def _on_proxy_bid(self, action: int) -> None:
        tile = _decoded(action, ProxyTileDrawn).tile
        self.hands[self.proxy].discard(tile)
        self.bids[self.proxy] = tile
        self._log("BSB-PROXY-CONDUCTOR", tile=tile)
        self.node = BusstopPhase.BID

    def _on_bid(self, action: int, forced: bool = False) -> None:
        seat = self.bid_order[self.bid_index]
        tile = _decoded(action, ChooseTile).tile
        self.hands[seat].discard(tile)
        self.bids[seat] = tile
        if seat == self.conductor:
            self._log("BSB-ROUND-BID", seat=seat, tile=tile, name=self.name(seat), forced=forced)
        else:  # face down: the event (public) does not name the tile
            self._log("BSB-ROUND-BID", seat=seat, name=self.name(seat), forced=forced)
        self.bid_index += 1
        if self.bid_index < len(self.bid_order):
            return
        if self.proxy is not None and self.conductor != self.proxy:
            self.node = BusstopPhase.PROXY_REVEAL
        else:
            self._reveal()

    def _on_proxy_reveal(self, action: int) -> None:
        tile = _decoded(action, ProxyTileDrawn).tile
        self.hands[self.proxy].discard(tile)
        self.bids[self.proxy] = tile
        self._log("BSB-PROXY", tile=tile)
        self._reveal()

    def play_order(self) -> list[int]:
        """Participants in zone order: lowest tile first, ties clockwise from the conductor
        (BSB-ROUND-ORDER). Needs every bid made."""
        n = self.participants
        return sorted(range(n), key=lambda k: (self.bids[k], (k - self.conductor) % n))

    def _reveal(self) -> None:
        names = [self.name(k) for k in range(self.participants)]
        self._log("BSB-ROUND-BID", tiles=list(self.bids), names=names)
        self.zone_holders = self.play_order()
        self._log("BSB-ROUND-ORDER", order=list(self.zone_holders), tiles=list(self.bids), names=names)
        self.next_conductor = self.zone_holders[self.zone.conductor]
        self._log(
            "BSB-ROUND-CONDUCTOR",
            conductor=self.next_conductor,
            name=self.name(self.next_conductor),
            position=self.zone.conductor + 1,
        )
        self.played = list(self.zone_holders)
        self.take_pos = 0
        self._take_black()

    def _take_black(self) -> None:
        """Black icons of the current position, then its white icon (a decision), then on."""
        while self.take_pos < self.participants:
            holder = self.zone_holders[self.take_pos]
            for slot in self.zone.black[self.take_pos]:
                token = self.lineup[slot]
                self.lineup[slot] = None
                self.boards[holder].received.append(token)
                self._log(
                    "BSB-ROUND-TAKE",
                    participant=holder,
                    slot=slot + 1,
                    name=self.name(holder),
                    position=self.take_pos + 1,
                    **self.passenger_data(token),
                )
            if self.zone.white[self.take_pos]:
                self.node = BusstopPhase.WHITE
                return
            self.take_pos += 1
        self._start_distribution()

    def _on_white(self, action: int, forced: bool = False) -> None:
        holder = self.zone_holders[self.take_pos]
        owner = _decoded(action, TakeTile).owner
        self.played.remove(owner)
        token = self.tile_token(owner, self.bids[owner])
        self.boards[holder].received.append(token)
        self._log(
            "BSB-ROUND-TAKE",
            participant=holder,
            owner=owner,
            name=self.name(holder),
            position=self.take_pos + 1,
            forced=forced,
            chosen_by=self.proxy_player if holder == self.proxy and not forced else None,
            **self.passenger_data(token),
        )
        self.take_pos += 1
        self._take_black()

    def _start_distribution(self) -> None:
        self.dist_index = 0
        self.stage = BusstopPhase.PLACE
        self._log("BSB-ROUND-DISTRIBUTE")
        self._next_distribution()

    def _next_distribution(self) -> None:
        while self.dist_index < self.participants:
            who = self.zone_holders[self.dist_index]
            board = self.boards[who]
            if self.stage is BusstopPhase.PLACE:
                if board.received:
                    self.node = BusstopPhase.PLACE
                    return
                self.stage = BusstopPhase.BOARD
            if board.queue and any(
                self.bus_accepts(who, b, self.token_class(board.queue[0])) for b in range(3)
            ):
                self.node = BusstopPhase.BOARD
                return
            self.dist_index += 1
            self.stage = BusstopPhase.PLACE
        self._end_round()

    def _on_place(self, action: int, forced: bool = False) -> None:
        who = self.zone_holders[self.dist_index]
        board = self.boards[who]
        move = _decoded(action, PlacePassenger)
        cls = move.passenger_class
        token = next(t for t in board.received if self.token_class(t) == cls)
        board.received.remove(token)
        if move.bus is None:
            board.queue.append(token)
            self._log(
                "BSB-QUEUE",
                participant=who,
                place=len(board.queue),
                name=self.name(who),
                forced=forced,
                **self.passenger_data(token),
            )
        else:
            self._board(who, token, move.bus, "BSB-BOARD-SORT", forced)
        self._next_distribution()

    def _board(self, who: int, token: int, bus: int, rule: str, forced: bool = False) -> None:
        board = self.boards[who]
        board.buses[bus].append(token)
        seats = self.bus_seats[bus]
        extra = {"forced": forced} if rule == "BSB-BOARD-SORT" else {}
        self._log(
            rule,
            participant=who,
            bus=bus + 1,
            name=self.name(who),
            riders=len(board.buses[bus]),
            seats=seats,
            **extra,
            **self.passenger_data(token),
        )
        if len(board.buses[bus]) == seats:
            riders = board.buses[bus]
            board.buses[bus] = []
            if who == self.proxy:
                self.boards[self.proxy_player].pile.extend(riders)
                self._log(
                    "BSB-BOARD-LEAVE",
                    participant=who,
                    bus=bus + 1,
                    name=self.name(who),
                    passengers=len(riders),
                    proxy=True,
                )
                self._log("BSB-PROXY-LEAVE", seat=self.proxy_player, passengers=len(riders))
            else:
                board.pile.extend(riders)
                self._log(
                    "BSB-BOARD-LEAVE",
                    participant=who,
                    bus=bus + 1,
                    name=self.name(who),
                    passengers=len(riders),
                    proxy=False,
                )

    def _on_board(self, action: int) -> None:
        who = self.zone_holders[self.dist_index]
        if isinstance(decode(action), StopBoarding):
            self._log("BSB-QUEUE-BOARD", participant=who, name=self.name(who))
            self.dist_index += 1
            self.stage = BusstopPhase.PLACE
        else:
            token = self.boards[who].queue.pop(0)
            bus = _decoded(action, HeadBoards).bus
            self._board(who, token, bus, "BSB-QUEUE-BOARD")
        self._next_distribution()

    def _end_round(self) -> None:
        for k in range(self.participants):
            board = self.boards[k]
            if not board.extra_open and len(board.queue) >= EXTRA_BUS_AT:
                board.extra_open = True
                self._log(
                    "BSB-EXTRA-BUS",
                    participant=k,
                    name=self.name(k),
                    waiting=len(board.queue),
                    round=self.round,
                )
        if self.proxy is not None:
            queue = self.boards[self.proxy].queue
            if len(queue) >= PROXY_PENALTY_AT:
                self.boards[self.proxy_player].penalty.extend(queue)
                self._log("BSB-PROXY-PENALTY", seat=self.proxy_player, tiles=len(queue))
                self.boards[self.proxy].queue = []
        if self.round == ROUNDS:
            self._finish()
            return
        self.round += 1
        self.conductor = self.next_conductor
        if self.proxy is not None:
            self.proxy_player = 1 - self.proxy_player
            self._log("BSB-PROXY-CHOICES", seat=self.proxy_player, round=self.round)
        self._start_round()

    def _finish(self) -> None:
        self.node = None
        self.lineup = []
        self._log("BSB-END", rounds=ROUNDS)
        for seat in range(self.num_players):
            board = self.boards[seat]
            lines = self.score_breakdown(seat)

            def total(*rules: str, lines: list = lines) -> int:
                return sum(line["points"] for line in lines if line["rule"] in rules)

            classes = [self.token_class(t) for t in board.pile]
            vips = sum(VIP_BASE <= c < ET for c in classes)
            ets = sum(c == ET for c in classes)
            name = self.name(seat)
            self._log(
                "BSB-SCORE-PILE",
                seat=seat,
                points=total("BSB-SCORE-PILE"),
                name=name,
                passengers=len(classes),
                vips=vips,
                ets=ets,
            )
            if self.passenger_bonus:
                self._log(
                    "BSB-OPT-BONUS",
                    seat=seat,
                    points=total("BSB-OPT-BONUS"),
                    name=name,
                    sort=SORTS[self.bonus_sort(seat)],
                )
            self._log(
                "BSB-SCORE-QUEUE",
                seat=seat,
                points=total("BSB-SCORE-QUEUE", "BSB-PROXY-PENALTY"),
                name=name,
                waiting=len(board.queue) + len(board.penalty),
                penalty=len(board.penalty),
            )
            if self.end_bonus:
                self._log(
                    "BSB-OPT-ENDBONUS",
                    seat=seat,
                    met=self.requirement_met(seat),
                    name=name,
                    requirement=self.requirement(seat),
                    bonus=END_BONUS_POINTS,
                )
        seats = range(self.num_players)
        self._log(
            "BSB-WIN",
            points=self.returns(),
            names=[self.name(s) for s in seats],
            ets=[self.ets(s) for s in seats],
        )
        winners = self.winners()
        self._log("BSB-WIN", winners=winners, names=[self.name(s) for s in winners])

    # -- scoring --------------------------------------------------------------------------------
    def passenger_points(self, participant: int, token: int) -> int:
        """What a passenger in ``participant``'s score pile is worth: 1, a VIP 3, an ET 0
        (BSB-SCORE-PILE); with the passenger bonus, the colour's sort 2 and its VIP 6 (BSB-OPT-BONUS)."""
        return self._pile_values[participant][token]

    def _pile_value(self, participant: int, token: int) -> int:
        cls = self._classes[token]
        if cls == ET:
            return 0
        base = 3 if cls >= VIP_BASE else 1
        if self.passenger_bonus and cls % 5 == self.bonus_sort(participant):
            return 2 * base
        return base

    def requirement_met(self, seat: int) -> bool:
        """Whether ``seat`` meets its end-game requirement now (BSB-OPT-ENDBONUS)."""
        board = self.boards[seat]
        req = self.requirement(seat)
        classes = [self.token_class(t) for t in board.pile]
        if req == "empty_queue":
            return not board.queue and not board.penalty
        if req == "vip_scored":
            return any(VIP_BASE <= c < ET for c in classes)
        if req == "all_sorts":
            return {c % 5 for c in classes if c != ET} == set(range(5))
        if req == "third_bus":
            return board.extra_open
        return sum(c == ET for c in classes) >= 3  # three_ets

    def ets(self, seat: int) -> int:
        """ETs a seat holds in its score pile, buses and queue (the tie-break, BSB-WIN)."""
        board = self.boards[seat]
        return board.pile.count(ET) + board.queue.count(ET) + sum(bus.count(ET) for bus in board.buses)

    def returns(self) -> list[int]:
        """Points per seat so far (final once the game is over): score pile minus queue and penalty
        tiles, plus the end-game bonus at the end (BSB-SCORE-PILE, BSB-SCORE-QUEUE); the same
        total as the lines of :meth:`score_breakdown`."""
        return [self._points(s) for s in range(self.num_players)]

    def _points(self, seat: int) -> int:
        board = self.boards[seat]
        values = self._pile_values[seat]
        points = sum(values[t] for t in board.pile)
        classes = self._classes
        for token in board.queue + board.penalty:
            points -= 6 if classes[token] >= VIP_BASE else 2
        if self.end_bonus and self.node is None and self.requirement_met(seat):
            points += END_BONUS_POINTS
        return points

    def score_breakdown(self, seat: int) -> list[dict[str, Any]]:
        """Lines ``{"label", "rule", "points", "times"}`` adding up to ``returns()[seat]``.

        Raises:
            InputTypeError: ``seat`` is not an integer.
            ParameterError: no such seat.
        """
        seat = self._check_seat(seat, spectator=False)
        board = self.boards[seat]
        fav = self.bonus_sort(seat) if self.passenger_bonus else None
        lines: list[dict[str, Any]] = []

        def add(label: str, rule: str, points: int, times: int) -> None:
            if times:
                lines.append({"label": label, "rule": rule, "points": points, "times": times})

        pile = [self.token_class(t) for t in board.pile]
        plain = sum(c < VIP_BASE and c != fav for c in pile)
        vips = sum(VIP_BASE <= c < ET and c % 5 != fav for c in pile)
        add("passengers in the score pile, 1 each", "BSB-SCORE-PILE", plain, plain)
        add("VIPs in the score pile, 3 each", "BSB-SCORE-PILE", 3 * vips, vips)
        add("ETs in the score pile, 0 each", "BSB-SCORE-PILE", 0, sum(c == ET for c in pile))
        if fav is not None:
            favs = sum(c == fav for c in pile)
            fav_vip = sum(c == fav + VIP_BASE for c in pile)
            add(
                f"{SORT_PLURALS[fav]} (your colour's sort) in the pile, 2 each",
                "BSB-OPT-BONUS",
                2 * favs,
                favs,
            )
            add(
                f"VIP {SORTS[fav]} (your colour's sort) in the pile, 6", "BSB-OPT-BONUS", 6 * fav_vip, fav_vip
            )
        queue = [self.token_class(t) for t in board.queue]
        q_vip = sum(c >= VIP_BASE for c in queue)
        add("waiting in the queue, -2 each", "BSB-SCORE-QUEUE", -2 * (len(queue) - q_vip), len(queue) - q_vip)
        add("VIPs waiting in the queue, -6 each", "BSB-SCORE-QUEUE", -6 * q_vip, q_vip)
        pen = [self.token_class(t) for t in board.penalty]
        p_vip = sum(c >= VIP_BASE for c in pen)
        add(
            "penalty tiles from the proxy queue, -2 each",
            "BSB-PROXY-PENALTY",
            -2 * (len(pen) - p_vip),
            len(pen) - p_vip,
        )
        add("penalty VIPs from the proxy queue, -6 each", "BSB-PROXY-PENALTY", -6 * p_vip, p_vip)
        if self.end_bonus and self.node is None and self.requirement_met(seat):
            add(
                f"end-game bonus: {END_BONUS_REQUIREMENTS[self.requirement(seat)]}",
                "BSB-OPT-ENDBONUS",
                END_BONUS_POINTS,
                1,
            )
        return lines

    def winners(self) -> list[int]:
        """Seats sharing the win once the game is over, else ``[]``: the highest total; ties go to
        the fewest ETs (score pile, buses and queue); still tied, they share (BSB-WIN)."""
        if self.node is not None:
            return []
        scores = self.returns()
        best = max(scores)
        top = [s for s in range(self.num_players) if scores[s] == best]
        fewest = min(self.ets(s) for s in top)
        return [s for s in top if self.ets(s) == fewest]

    # -- views ------------------------------------------------------------------------------------
    def status(self) -> str:
        """One sentence saying what happens next, for status lines and screen readers."""
        node = self.node
        if node is None:
            winners = self.winners()
            names = " and ".join(self.name(s) for s in winners)
            verb = "share the win" if len(winners) > 1 else "wins"
            return f"Game over: {names} {verb} with {points_text(self.returns()[winners[0]])}."
        r = f"Round {self.round} of {ROUNDS}"
        if node is BusstopPhase.LINEUP:
            return f"{r}: turn up passenger {len(self.lineup) + 1} of {self.zone.passengers} for the line-up."
        if node is BusstopPhase.PROXY_BID:
            return f"{r}: turn up the proxy bus's tile (it is the conductor)."
        if node is BusstopPhase.PROXY_REVEAL:
            return f"{r}: turn up the proxy bus's face-down tile for the reveal."
        who = self.acting_participant()
        if node is BusstopPhase.BID:
            how = "face up (you are the conductor)" if who == self.conductor else "face down"
            return f"{r}: {self.name(who)}, choose a player tile {how}."
        if node is BusstopPhase.WHITE:
            for_proxy = f" (Seat {self.proxy_player} chooses for it)" if who == self.proxy else ""
            return f"{r}: {self.name(who)} at P{self.take_pos + 1} takes one of the played tiles{for_proxy}."
        board = self.boards[who]
        for_proxy = f" (Seat {self.proxy_player} decides for it)" if who == self.proxy else ""
        if node is BusstopPhase.PLACE:
            n = len(board.received)
            return (
                f"{r}: {self.name(who)}{for_proxy}, place your passengers: {n} to go, each on a bus "
                f"or at the tail of the queue."
            )
        head = self.token_text(board.queue[0])
        return f"{r}: {self.name(who)}{for_proxy}, let the head of the queue ({head}) board, or stop."

    def view(self, seat: int | None = None) -> BusstopView:  # type: ignore[override]
        """What ``seat`` may see, JSON-safe (``None``: the spectator, every tile shown); the shape
        is :class:`~bus_lab.games.busstop.views.BusstopView`.

        Hidden from a seat: the order of the passenger stack (only how many of each kind are left,
        which anyone can count) and the tiles other seats chose face down this round (shown as
        ``"hidden"`` until the reveal; their hands then still include that tile).

        Raises:
            InputTypeError: ``seat`` is not an integer or ``None``.
            ParameterError: ``seat`` is not at the table.
        """
        return build_view(self, self._check_seat(seat))

    def public_view(self) -> BusstopView:
        """The table as everyone sees it: the spectator's view with every face-down tile hidden
        (BSB-ROUND-BID). ``str(state)`` and the state's HTML draw this one."""
        return build_view(self, PUBLIC)

    def _render(self, which: int) -> str:
        module = importlib.import_module(self.RENDER[0])
        return getattr(module, self.RENDER[which])(self.public_view())

    # -- copying ------------------------------------------------------------------------------------
    def clone(self) -> BusstopState:
        other = BusstopState.__new__(BusstopState)
        other.__dict__.update(self.__dict__)
        self._copy_base_into(other)
        other.stack = list(self.stack)
        other.hands = [set(h) for h in self.hands]
        other.boards = [b.copy() for b in self.boards]
        other.lineup = list(self.lineup)
        other.bids = list(self.bids)
        other.bid_order = list(self.bid_order)
        other.zone_holders = list(self.zone_holders)
        other.played = list(self.played)
        return other


#: Phases whose single legal move is made at once (BSB-ROUND-BID, BSB-ROUND-TAKE, BSB-ROUND-DISTRIBUTE).
_FORCED_PHASES = (BusstopPhase.BID, BusstopPhase.WHITE, BusstopPhase.PLACE)


def _decoded(action: int, kind: type[_M]) -> _M:
    """The move of ``action``, known to be a ``kind`` (the phase's handler is given legal actions only)."""
    move = decode(action)
    assert isinstance(move, kind)
    return move


def move_label(move: Move) -> str:
    """The label of a move as it reads at every state (a white move's before the reveal)."""
    if isinstance(move, PassengerDrawn):
        return KIND_CODES[move.passenger]
    if isinstance(move, ProxyTileDrawn):
        return f"proxy-{move.tile}"
    if isinstance(move, ChooseTile):
        return f"tile {move.tile}"
    if isinstance(move, TakeTile):
        return f"take Seat {move.owner}'s tile"
    if isinstance(move, PlacePassenger):
        where = "queue" if move.bus is None else f"bus {move.bus + 1}"
        return f"{CLASS_NAMES[move.passenger_class]} to {where}"
    if isinstance(move, HeadBoards):
        return f"head to bus {move.bus + 1}"
    return "stop boarding"
