"""Ride the Bus: the rules, as a step-through state.

Every draw is a chance node whose outcomes are the cards of the draw pile, each with the same
exact probability. Each applied action records events that cite the rule they apply
(``shared/rules/ride_the_bus.md``); their sentences are made by :mod:`.narrate`.

Moves (:mod:`.moves`, the only place that turns a move into its int and back):

* :class:`~.moves.Deal`: a card drawn (action ``0``–``51``, see :mod:`.cards`; label = card code
  such as ``"7H"``);
* :class:`~.moves.Guess`: ``RED``, ``BLACK``, ``HIGHER``, ``LOWER``, ``INSIDE``, ``OUTSIDE``,
  ``CLUBS`` … ``SPADES``;
* :class:`~.moves.Give`: hand the points at stake to seat ``k`` (label ``"give to seat k"``).

Sentences (event texts and :meth:`RideTheBusState.status`) name a card the way the board draws it,
rank and suit symbol (``"10♦"``, :func:`.cards.card_label`); action labels, scripted decks and the
machine-readable ``Event.data`` keep the card codes (``"TD"``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from bus_lab.engine.core import CHANCE, TERMINAL, State
from bus_lab.engine.moves import Move
from bus_lab.engine.words import points_text
from bus_lab.games.ride_the_bus import cards as C
from bus_lab.games.ride_the_bus import moves as M
from bus_lab.games.ride_the_bus import narrate, views
from bus_lab.games.ride_the_bus.moves import (  # noqa: F401  (re-exported: the names of the guesses)
    BLACK,
    CLUBS,
    DIAMONDS,
    GIVE_BASE,
    GUESS_LABELS,
    HEARTS,
    HIGHER,
    INSIDE,
    LOWER,
    OUTSIDE,
    QUESTIONS,
    RED,
    SPADES,
    Question,
)
from bus_lab.games.ride_the_bus.narrate import seat_name
from bus_lab.games.ride_the_bus.phases import (
    ANSWER_PHASES,
    CHANCE_PHASES,
    PHASES,
    Part,
    RideTheBusPhase,
)

P = RideTheBusPhase
MAX_BUS_GUESSES = 40  # RTB-B-END, RTB-QB-END
PYRAMID_ROWS = (4, 3, 2, 1)  # RTB-P-LAYOUT: bottom row first
GIVE_TAKE_SPOTS = 8  # RTB-GT-LAYOUT: four rows of a Give spot then a Take spot
RIDES_EACH = 10  # RTB-SG-RIDES
#: The phases at which a card is drawn, by their words.
CHANCE_NODES = tuple(p.value for p in RideTheBusPhase if p in CHANCE_PHASES)

__all__ = [
    "RideTheBusState",
    "judge",
    "JUDGE_DEFAULTS",
    "HOUSE_RULE_IDS",
    "PYRAMID_ORDERS",
    "seat_name",
    "Question",
    "QUESTIONS",
    "GUESS_LABELS",
    "GIVE_BASE",
    "MAX_BUS_GUESSES",
    "PYRAMID_ROWS",
    "GIVE_TAKE_SPOTS",
    "RIDES_EACH",
    "CHANCE_NODES",
]


#: The house rules that decide whether a guess is right, with their defaults (the base rules).
JUDGE_DEFAULTS = {"ties": "lose", "inside": "strict", "aces": "high"}
#: The rule ID of each house rule option (RTB-HR-*).
HOUSE_RULE_IDS = {
    "ties": "RTB-HR-TIES",
    "inside": "RTB-HR-INSIDE",
    "aces": "RTB-HR-ACES",
    "pyramid_order": "RTB-HR-FLIP",
    "played_cards": "RTB-HR-STAY",
}
#: The pyramid positions (0-3 bottom row … 9 top) in the order they are flipped (RTB-P-FLIP,
#: RTB-HR-FLIP): left to right within a row.
PYRAMID_ORDERS = {"bottom_up": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9), "top_down": (9, 7, 8, 4, 5, 6, 0, 1, 2, 3)}


def judge(
    guess: int,
    card: int,
    reference: list[int],
    *,
    ties: str = "lose",
    inside: str = "strict",
    aces: str = "high",
) -> bool:
    """Whether ``guess`` is right for the drawn ``card``.

    Args:
        guess (int): a guess action (``RED`` … ``SPADES``).
        card (int): the card drawn (0–51).
        reference (list[int]): the cards compared against: the guesser's row in Part 1
            (higher/lower uses its first card, inside/outside its first two), or ``[card to
            beat]`` on the bus.
        ties (str): ``"lose"`` (default) or ``"win"`` (RTB-HR-TIES: the same rank is right for
            higher and for lower).
        inside (str): ``"strict"`` (default) or ``"inclusive"`` (RTB-HR-INSIDE: matching either
            rank counts as inside; with a pair, inside wins only on that rank).
        aces (str): ``"high"`` (default) or ``"low"`` (RTB-HR-ACES: A below 2).

    Returns:
        True when right. With the defaults: the same rank is wrong on higher/lower (RTB-Q2,
        RTB-B-GUESS); matching either rank is wrong on inside/outside, and with two equal ranks
        only "outside" can win, on any other rank (RTB-Q3).

    Raises:
        ValueError: ``guess`` is not a guess, or ``reference`` is too short for it.
    """
    r = C.rank_order(card, aces)
    if guess in (RED, BLACK):
        return C.is_red(card) == (guess == RED)
    if guess in (HIGHER, LOWER):
        if not reference:
            raise ValueError("higher/lower needs a card to compare with")
        first = C.rank_order(reference[0], aces)
        if r == first:
            return ties == "win"
        return r > first if guess == HIGHER else r < first
    if guess in (INSIDE, OUTSIDE):
        if len(reference) < 2:
            raise ValueError("inside/outside needs two cards to compare with")
        lo, hi = sorted((C.rank_order(reference[0], aces), C.rank_order(reference[1], aces)))
        if guess == OUTSIDE:
            return r < lo or r > hi
        return lo <= r <= hi if inside == "inclusive" else lo < r < hi
    if guess in M.SUIT_GUESSES:
        return C.suit(card) == M.suit_guessed(guess)
    raise ValueError(f"{guess!r} is not a guess")


class RideTheBusState(State):
    """A game of Ride the Bus in progress, with any table settings.

    Parts (:attr:`part`, :class:`~.phases.Part`; ``view()["phase"]`` as a word): ``"questions"``
    (Part 1); ``"pyramid"`` or ``"give_and_take"`` (Part 2); ``"bus"`` (Part 3, higher/lower or
    questions bus); ``"rides"`` (the solo gauntlet, which has no Part 2 or 3); ``"over"``.
    Phases (:meth:`phase`, :class:`~.phases.RideTheBusPhase`): the kind of step within a part,
    listed with who acts and the handler in :data:`~.phases.PHASES`; :attr:`node` holds it.

    ``state.phase`` was the part's word before phases were named; it is now the method
    :meth:`phase`, and the part is :attr:`part` (whose members still equal those words).

    Everything on the table is face up; the only unknown is the order of the draw pile, which
    is not decided until a card is drawn (a chance node), so :meth:`view` is the same for every
    seat.
    """

    RENDER = ("bus_lab.games.ride_the_bus.render", "table_html", "table_text")
    PHASES = PHASES
    NARRATE = narrate.narrate  # type: ignore[assignment]  # a plain function, read off the class

    def __init__(self, game):
        super().__init__(game)
        p = game.params
        self.num_players: int = p["players"]
        self.target: int = p["streak"]
        self.flat_rows: bool = p["row_points"] == "flat"
        self.board: str = p["board"]
        self.bus_kind: str = p["bus"]
        self.gauntlet: bool = p["mode"] == "gauntlet"
        house = game.house_rules()
        #: The house rules that decide a guess (RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES).
        self.judge_rules: dict[str, str] = {k: house[k] for k in JUDGE_DEFAULTS}
        #: Pyramid positions in flip order (RTB-P-FLIP, RTB-HR-FLIP).
        self.flip_order: tuple[int, ...] = PYRAMID_ORDERS[house["pyramid_order"]]
        #: RTB-HR-STAY: played cards stay in their row.
        self.cards_stay: bool = house["played_cards"] == "stay"
        n = self.num_players
        self.draw: set[int] = set(C.DECK)
        self.discard: list[int] = []
        self.rows: list[list[int]] = [[] for _ in range(n)]
        self.points: list[int] = [0] * n
        self.ledger: list[list[tuple[str, str, int]]] = [[] for _ in range(n)]
        self.part: Part = Part.QUESTIONS
        self.node: RideTheBusPhase | None = P.GUESS
        self.q_round = 0
        self.q_seat = 0
        self.pending_guess: int | None = None
        self.gives: list[tuple[int, int, str, str]] = []  # (giver, points, rule, what for)
        self.pyramid: list[int | None] = [None] * sum(PYRAMID_ROWS)
        self.pyramid_index = 0
        self.spots: list[list[int]] = [[] for _ in range(GIVE_TAKE_SPOTS)]  # cards flipped per spot
        self.spot_index = 0
        self.run: list[int] = []  # questions bus: the cards of the current run
        self.ride_order: list[int] = []  # gauntlet
        self.ride_number = 0  # gauntlet: rides finished so far
        self.ride_best: list[int] = [0] * n  # gauntlet: best single ride per seat
        self.gauntlet_winners: list[int] = []
        self.in_play: list[int] = []
        self.rider: int | None = None
        self.card_to_beat: int | None = None
        self.bus_cards: list[int] = []
        self.streak = 0
        self.best_streak = 0
        self.bus_guesses = 0
        if self.judge_rules["aces"] == "low":
            self._log("RTB-SETUP-DECK", aces="low")
        else:
            self._log("RTB-SETUP-DECK")
        self._log("RTB-SETUP-PLAYERS", players=n)
        self._log("RTB-SCORE-LOW")
        standard = {q.name: q.default for q in game.PARAMS}
        for option, rule in HOUSE_RULE_IDS.items():  # each house rule in force, said once
            if house[option] != standard[option]:
                self._log(rule, option=option, setting=house[option])

    # -- protocol ------------------------------------------------------------------------
    def phase(self) -> RideTheBusPhase | None:
        """The phase (:class:`~.phases.RideTheBusPhase`: a guess, a deal, a give, a flip...),
        ``None`` once the game is over. The part of the game is :attr:`part`."""
        return self.node

    def current_player(self) -> int:
        node = self.node
        if node is None:
            return TERMINAL
        if node in CHANCE_PHASES:
            return CHANCE
        if node is P.GUESS:
            return self.q_seat
        if node is P.GIVE:
            return self.gives[0][0]
        return self.rider  # bus_guess, qb_guess

    def is_chance_node(self) -> bool:
        """True at a draw (``current_player() == CHANCE``, read straight from the node)."""
        return self.node in CHANCE_PHASES

    def is_terminal(self) -> bool:
        """True once the game is over (``current_player() == TERMINAL``, read straight from the node)."""
        return self.node is None

    def _legal_actions(self) -> list[int]:
        if self.node is P.GUESS:
            return list(QUESTIONS[self.q_round].guesses)
        if self.node is P.GIVE:
            return M.give_actions(self.num_players, self.gives[0][0])
        if self.node is P.QB_GUESS:
            return list(QUESTIONS[len(self.run)].guesses)
        return [HIGHER, LOWER]  # bus_guess

    def _chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return self._uniform(self.draw)

    def chance_weights(self) -> tuple[list[int], list[int] | None]:
        """The cards of the draw pile, sorted, all equally likely (``None`` weights); ``([], None)``
        at a decision or terminal node. The fast form of :meth:`chance_outcomes` for drawing."""
        if self.node in CHANCE_PHASES:
            return sorted(self.draw), None
        return [], None

    def _is_legal(self, action: int) -> bool:
        if self.node in CHANCE_PHASES:
            return action in self.draw
        return action in self._legal_actions()

    def _why_not_legal(self, action: int) -> str:
        if self.is_chance_node():
            if M.is_card(action):
                return f"{C.card_code(action)} is not in the draw pile"
            return "a card (0-51) must be drawn now"
        if self.node is P.GIVE and action == M.give_action(self.gives[0][0]):
            return "points must go to another player, not to the one who hands them out"
        return f"{self.action_to_string(action)} is not a move now ({self.status()})"

    def action_to_string(self, action: int) -> str:
        """Card code for a draw (``"7H"``), the guess (``"higher"``), or ``"give to seat 2"``."""
        if isinstance(action, int) and not isinstance(action, bool):
            label = M.label(action)
            if label is not None:
                return label
        return f"<not an action: {action!r}>"

    def _decode_move(self, action: int) -> Move | None:
        return M.decode(action)

    def _normalize_label(self, text: str) -> str:
        """Every spelling of a card (``10H``, ``TH``, ``10♥``, ``th``…) becomes its lower-case code."""
        return M.normalize_label(text)

    def _parse_label(self, text: str) -> int | None:
        """The action a normalized label names, legal now or not: a card, a guess, or a give to
        a seat of this table."""
        return M.parse_label(text, self.num_players)

    def _apply_action(self, action: int) -> None:
        getattr(self, PHASES[self.node].handler)(action)

    # -- judging a guess under the house rules -------------------------------------------
    def judge(self, guess: int, card: int, reference: list[int]) -> bool:
        """:func:`judge` under this table's house rules (RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES)."""
        return judge(guess, card, reference, **self.judge_rules)

    def _judge_logged(self, guess: int, card: int, reference: list[int]) -> bool:
        """:meth:`judge`, logging each house rule that decided the outcome: the guess would have
        gone the other way with that one option at its default."""
        right = self.judge(guess, card, reference)
        for option, default in JUDGE_DEFAULTS.items():
            if self.judge_rules[option] == default:
                continue
            base = judge(guess, card, reference, **{**self.judge_rules, option: default})
            if base != right:
                self._log(
                    HOUSE_RULE_IDS[option],
                    option=option,
                    setting=self.judge_rules[option],
                    guess=GUESS_LABELS[guess],
                    card=C.card_code(card),
                    against=[C.card_code(c) for c in reference[: 1 if guess in (HIGHER, LOWER) else 2]],
                    right=right,
                )
        return right

    # -- Part 1: the four questions ------------------------------------------------------
    def _on_guess(self, guess: int) -> None:
        q = QUESTIONS[self.q_round]
        seat = self.q_seat
        self.pending_guess = guess
        self._log(q.rule, seat=seat, guess=GUESS_LABELS[guess], points=q.points, question=q.number)
        self._to_chance(P.DEAL)

    def _on_deal(self, card: int) -> None:
        q = QUESTIONS[self.q_round]
        seat = self.q_seat
        self.draw.discard(card)
        reference = list(self.rows[seat])
        self.rows[seat].append(card)
        self._log("RTB-Q-ORDER", seat=seat, card=C.card_code(card))
        right = self._judge_logged(self.pending_guess, card, reference)
        self.pending_guess = None
        if right and self.num_players > 1:
            self._log("RTB-Q-RIGHT", seat=seat, points=q.points)
            self.gives.append(
                (seat, q.points, "RTB-Q-RIGHT", "Part 1: given by others for their right guesses")
            )
            self.node = P.GIVE
        else:
            if right:
                self._log("RTB-Q-RIGHT", seat=seat)
            else:
                self._add_points(seat, q.points, "Part 1: wrong guesses", "RTB-Q-WRONG")
                self._log("RTB-Q-WRONG", seat=seat, points=q.points)
            self._next_question_turn()

    def _next_question_turn(self) -> None:
        self.pending_guess = None
        self.q_seat += 1
        if self.q_seat == self.num_players:
            self.q_seat = 0
            self.q_round += 1
        if self.q_round < len(QUESTIONS):
            self.node = P.GUESS
        elif self.gauntlet:
            self._start_rides()
        elif self.board == "give_and_take":
            self._start_give_and_take()
        else:
            self._start_pyramid()

    # -- handing out points (Part 1 and the pyramid) -------------------------------------
    def _on_give(self, action: int) -> None:
        giver, points, rule, what = self.gives.pop(0)
        taker = M.give_seat(action)
        self._add_points(taker, points, what, rule)
        self._log(rule, giver=giver, taker=taker, points=points)
        if self.gives:
            return
        if self.part is Part.QUESTIONS:
            self._next_question_turn()
        elif self.part is Part.PYRAMID:
            self._finish_flip()
        else:
            self._finish_spot()

    def _add_points(self, seat: int, points: int, label: str, rule: str) -> None:
        self.points[seat] += points
        self.ledger[seat].append((label, rule, points))

    # -- Part 2: the pyramid -------------------------------------------------------------
    def _start_pyramid(self) -> None:
        self.part = Part.PYRAMID
        self._log("RTB-P-LAYOUT")
        self._to_chance(P.FLIP)

    def pyramid_row(self, index: int) -> int:
        """Row number 1 (bottom, four cards) … 4 (top) of pyramid position ``index`` (0–9)."""
        start = 0
        for row, size in enumerate(PYRAMID_ROWS, start=1):
            if index < start + size:
                return row
            start += size
        raise ValueError(f"pyramid position {index} does not exist: use 0 to {start - 1}")

    def row_points(self, row: int) -> int:
        """Points per card played on pyramid row ``row`` (1–4): the row number, or 1 when flat
        (RTB-P-POINTS)."""
        return 1 if self.flat_rows else row

    def pyramid_position(self) -> int:
        """The pyramid position (0–9, see :meth:`pyramid_row`) flipped now or next: the
        :attr:`pyramid_index`-th of the flip order (bottom row first, or top first under
        RTB-HR-FLIP); the last position once all ten are flipped."""
        return self.flip_order[min(self.pyramid_index, len(self.flip_order) - 1)]

    def _play_matches(self, seat: int, card: int) -> list[int]:
        """The cards of ``seat``'s row matching ``card``'s rank, played (RTB-P-MATCH, RTB-GT-GIVE,
        RTB-GT-TAKE): they leave the row for the discard pile, or stay in it (RTB-HR-STAY)."""
        matching = [c for c in self.rows[seat] if C.rank(c) == C.rank(card)]
        if matching and not self.cards_stay:
            self.rows[seat] = [c for c in self.rows[seat] if C.rank(c) != C.rank(card)]
            self.discard.extend(matching)
        return matching

    def _log_played(self, codes: list[str], seat: int) -> None:
        if self.cards_stay:
            self._log("RTB-HR-STAY", option="played_cards", setting="stay", seat=seat, cards=codes)
        else:
            self._log("RTB-DISCARD", cards=codes, source="rows")

    def _on_flip(self, card: int) -> None:
        index = self.pyramid_position()
        row = self.pyramid_row(index)
        worth = self.row_points(row)
        self.draw.discard(card)
        self.pyramid[index] = card
        self.in_play = [card]
        if self.flip_order != PYRAMID_ORDERS["bottom_up"]:
            self._log("RTB-P-FLIP", index=index, row=row, card=C.card_code(card), order="RTB-HR-FLIP")
        else:
            self._log("RTB-P-FLIP", index=index, row=row, card=C.card_code(card))
        for seat in range(self.num_players):  # RTB-P-MATCH: seat order
            matching = self._play_matches(seat, card)
            if not matching:
                continue
            codes = [C.card_code(c) for c in matching]
            self._log("RTB-P-MATCH", seat=seat, cards=codes)
            self._log_played(codes, seat)
            for _card in matching:
                self.gives.append((seat, worth, "RTB-P-GIVE", "Part 2: pyramid points given by others"))
        if self.gives:
            self._log("RTB-P-POINTS", row=row, points=worth)
            self.node = P.GIVE
        else:
            self._log("RTB-P-NOMATCH", rank=C.RANK_NAMES[C.rank(card)])
            self._finish_flip()

    def _finish_flip(self) -> None:
        card = self.in_play.pop()
        self.discard.append(card)
        self._log("RTB-DISCARD", cards=[C.card_code(card)], source="pyramid")
        self.pyramid_index += 1
        if self.pyramid_index == len(self.pyramid):
            self._start_bus()
        else:
            self._to_chance(P.FLIP)

    # -- Part 2 variant: the Give & Take board -------------------------------------------
    def _start_give_and_take(self) -> None:
        self.part = Part.GIVE_AND_TAKE
        self._log("RTB-GT-LAYOUT")
        self._to_chance(P.SPOT_FLIP)

    def spot_kind(self, index: int) -> str:
        """``"give"`` or ``"take"`` for Give & Take spot ``index`` (0–7) (RTB-GT-LAYOUT)."""
        return "give" if index % 2 == 0 else "take"

    def spot_points(self, index: int) -> int:
        """Points per card played on Give & Take spot ``index``: its row 1–4, or 1 when flat
        (RTB-GT-POINTS)."""
        return 1 if self.flat_rows else index // 2 + 1

    def _on_spot_flip(self, card: int) -> None:
        index = self.spot_index
        kind, worth, row = self.spot_kind(index), self.spot_points(index), index // 2 + 1
        self.draw.discard(card)
        self.spots[index].append(card)
        self.in_play = [card]
        self._log(
            "RTB-GT-LAYOUT",
            index=index,
            kind=kind,
            card=C.card_code(card),
            row=row,
            again=len(self.spots[index]) > 1,
        )
        rule = "RTB-GT-GIVE" if kind == "give" else "RTB-GT-TAKE"
        matched = False
        for seat in range(self.num_players):
            matching = self._play_matches(seat, card)
            if not matching:
                continue
            matched = True
            codes = [C.card_code(c) for c in matching]
            if kind == "give":
                self._log(rule, seat=seat, cards=codes)
                for _ in matching:
                    self.gives.append((seat, worth, rule, "Part 2: Give spot points given by others"))
            else:
                taken = worth * len(matching)
                self._add_points(seat, taken, "Part 2: Take spot points", rule)
                self._log(rule, seat=seat, cards=codes, points=taken)
            self._log_played(codes, seat)
        if matched:
            self._log("RTB-GT-POINTS", row=row, points=worth)
            if self.gives:
                self.node = P.GIVE
            else:
                self._finish_spot()
            return
        # RTB-GT-REFLIP: nobody holds it; flip this spot again, unless no card left can match.
        self.in_play = []
        self.discard.append(card)
        held = {C.rank(c) for row_cards in self.rows for c in row_cards}
        if not any(C.rank(c) in held for c in list(self.draw) + self.discard):
            self._log("RTB-GT-REFLIP", card=C.card_code(card), ends=True)
            self._end_part_two()
        else:
            self._log("RTB-GT-REFLIP", card=C.card_code(card), ends=False)
            self._to_chance(P.SPOT_FLIP)

    def _finish_spot(self) -> None:
        card = self.in_play.pop()
        self.discard.append(card)
        self._log("RTB-DISCARD", cards=[C.card_code(card)], source="spot")
        self.spot_index += 1
        holders = sum(1 for row_cards in self.rows if row_cards)
        if self.spot_index == GIVE_TAKE_SPOTS:
            self._log("RTB-GT-END", early=False, holders=holders)
            self._end_part_two()
        elif holders <= 1:
            self._log("RTB-GT-END", early=True, holders=holders)
            self._end_part_two()
        else:
            self._to_chance(P.SPOT_FLIP)

    def _end_part_two(self) -> None:
        self._start_bus()

    # -- Part 3: the bus -----------------------------------------------------------------
    def _start_bus(self) -> None:
        self.part = Part.BUS
        n = self.num_players
        rider = max(range(n), key=lambda s: (len(self.rows[s]), self.points[s], -s))
        self.rider = rider
        self._log("RTB-B-RIDER", rider=rider, cards=[len(r) for r in self.rows])
        if self.bus_kind == "questions":
            self._log("RTB-QB-ORDER", rider=rider)
            self.node = P.QB_GUESS
        else:
            self._to_chance(P.BUS_START)

    def _on_bus_start(self, card: int) -> None:
        self.draw.discard(card)
        self.card_to_beat = card
        self.in_play = [card]
        self.bus_cards.append(card)
        self._log("RTB-SG-RIDE" if self.gauntlet else "RTB-B-FLIP", card=C.card_code(card))
        self.node = P.BUS_GUESS

    def _on_bus_guess(self, guess: int) -> None:
        self.pending_guess = guess
        beat = C.card_code(self.card_to_beat)
        if self.gauntlet:
            self._log(
                "RTB-SG-RIDE",
                guess=GUESS_LABELS[guess],
                rider=self.rider,
                card_to_beat=beat,
                ride=self.ride_number + 1,
                total_rides=len(self.ride_order) * RIDES_EACH,
                streak=self.streak,
            )
        else:
            self._log(
                "RTB-B-GUESS",
                guess=GUESS_LABELS[guess],
                rider=self.rider,
                card_to_beat=beat,
                number=self.bus_guesses + 1,
                max_guesses=MAX_BUS_GUESSES,
            )
        self._to_chance(P.BUS_DEAL)

    def _on_bus_deal(self, card: int) -> None:
        self.draw.discard(card)
        old = self.card_to_beat
        hit = self._judge_logged(self.pending_guess, card, [old])
        self.pending_guess = None
        self.bus_guesses += 1
        self.discard.append(old)
        self.card_to_beat = card
        self.in_play = [card]
        self.bus_cards.append(card)
        rider = self.rider
        if hit:
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        if self.gauntlet:
            self._gauntlet_result(card, hit)
        elif hit:
            self._log(
                "RTB-B-STREAK",
                card=C.card_code(card),
                hit=True,
                streak=self.streak,
                target=self.target,
                rider=rider,
            )
        else:
            self.streak = 0
            self._add_points(rider, 1, "Part 3: misses on the bus", "RTB-B-STREAK")
            self._log(
                "RTB-B-STREAK", card=C.card_code(card), hit=False, streak=0, target=self.target, rider=rider
            )
        self._log("RTB-DISCARD", cards=[C.card_code(old)], source="bus")
        if self.gauntlet:
            if self.node is not None:
                self.node = P.BUS_GUESS
            return
        if self.streak >= self.target:
            self._log("RTB-B-END", got_off=True, rider=rider, target=self.target, guesses=self.bus_guesses)
            self._finish()
        elif self.bus_guesses >= MAX_BUS_GUESSES:
            self._log("RTB-B-END", got_off=False, rider=rider, target=self.target, guesses=self.bus_guesses)
            self._finish()
        else:
            self.node = P.BUS_GUESS

    # -- Part 3 variant: the questions bus -----------------------------------------------
    def _on_qb_guess(self, guess: int) -> None:
        q = QUESTIONS[len(self.run)]
        self.pending_guess = guess
        rule = "RTB-QB-COMPARE" if q.number in (2, 3) else "RTB-QB-ORDER"
        # Q2 compares with the run's first card, Q3 with its first two: the whole run so far
        against = [C.card_code(c) for c in self.run] if q.number in (2, 3) else []
        self._log(
            rule,
            guess=GUESS_LABELS[guess],
            question=q.number,
            rider=self.rider,
            against=against,
            number=self.bus_guesses + 1,
            max_guesses=MAX_BUS_GUESSES,
        )
        self._to_chance(P.QB_DEAL)

    def _on_qb_deal(self, card: int) -> None:
        self.draw.discard(card)
        q = QUESTIONS[len(self.run)]
        right = self._judge_logged(self.pending_guess, card, self.run)
        self.pending_guess = None
        self.bus_guesses += 1
        self.bus_cards.append(card)
        rider = self.rider
        if right:
            self.run.append(card)
            self.in_play = list(self.run)
            self.streak = len(self.run)
            self.best_streak = max(self.best_streak, self.streak)
            self._log(
                "RTB-QB-ORDER",
                card=C.card_code(card),
                hit=True,
                streak=self.streak,
                question=q.number,
                rider=rider,
            )
        else:
            lost = self.run + [card]
            self.discard.extend(lost)
            self.run = []
            self.in_play = []
            self.streak = 0
            self._add_points(rider, 1, "Part 3: misses on the bus", "RTB-QB-MISS")
            self._log(
                "RTB-QB-MISS",
                card=C.card_code(card),
                hit=False,
                cards=[C.card_code(c) for c in lost],
                question=q.number,
                rider=rider,
            )
        if len(self.run) == len(QUESTIONS):
            self._log("RTB-QB-END", got_off=True, rider=rider, guesses=self.bus_guesses)
            self._finish()
        elif self.bus_guesses >= MAX_BUS_GUESSES:
            self._log("RTB-QB-END", got_off=False, rider=rider, guesses=self.bus_guesses)
            self._finish()
        else:
            self.node = P.QB_GUESS

    # -- the solo gauntlet ---------------------------------------------------------------
    def _start_rides(self) -> None:
        self.part = Part.RIDES
        n = self.num_players
        self.ride_order = sorted(range(n), key=lambda s: (-self.points[s], s))
        self.rider = self.ride_order[0]
        self.streak = 0
        self._log("RTB-SG-FLOW")
        self._log("RTB-SG-QUESTIONS", points=list(self.points))
        self._log("RTB-SG-ORDER", order=list(self.ride_order), points=list(self.points))
        self._log("RTB-SG-RIDES", rides=RIDES_EACH, target=self.target)
        self._to_chance(P.BUS_START)

    def _gauntlet_result(self, card: int, hit: bool) -> None:
        rider = self.rider
        code = C.card_code(card)
        if hit:
            self.ride_best[rider] = max(self.ride_best[rider], self.streak)
            if self.streak >= self.target:
                self._log(
                    "RTB-SG-WIN", card=code, hit=True, streak=self.streak, target=self.target, rider=rider
                )
                self.gauntlet_winners = [rider]
                self._finish()
            else:
                self._log("RTB-SG-RIDE", card=code, hit=True, streak=self.streak)
            return
        self.ride_number += 1
        total = len(self.ride_order) * RIDES_EACH
        self._log(
            "RTB-SG-RIDE",
            card=code,
            hit=False,
            streak=self.streak,
            rider=rider,
            ride=self.ride_number,
            total_rides=total,
        )
        self.streak = 0
        if self.ride_number >= total:
            best = max(self.ride_best)
            if len(self.ride_order) == 1:
                self.gauntlet_winners = []
                self._log("RTB-SG-WIN", rides=RIDES_EACH, target=self.target, best=best)
            else:
                self.gauntlet_winners = [s for s in range(self.num_players) if self.ride_best[s] == best]
                self._log("RTB-SG-WIN", winners=list(self.gauntlet_winners), target=self.target, best=best)
            self._finish()
        else:
            self.rider = self.ride_order[self.ride_number % len(self.ride_order)]

    def _finish(self) -> None:
        self.part = Part.OVER
        self.node = None
        if self.gauntlet:
            return
        best = min(self.points)
        winners = [s for s, p in enumerate(self.points) if p == best]
        self._log("RTB-SCORE-LOW", points=list(self.points))
        self._log("RTB-SCORE-TIE", winners=winners, points=best)

    # -- drawing -------------------------------------------------------------------------
    def _to_chance(self, node: RideTheBusPhase) -> None:
        """Make the next node a draw; reshuffle the discard pile first if the deck is empty."""
        self.node = node
        if not self.draw:
            if not self.discard:  # cannot happen with 52 cards and at most 32 in rows
                raise RuntimeError("no card left to draw and nothing to reshuffle")
            count = len(self.discard)
            self.draw = set(self.discard)
            self.discard = []
            beat = None if self.card_to_beat is None else C.card_code(self.card_to_beat)
            self._log("RTB-DECK-EMPTY", cards=count, run=len(self.run), card_to_beat=beat)

    # -- results -------------------------------------------------------------------------
    def returns(self) -> list[int]:
        """Points per seat (bad: lowest total wins, RTB-SCORE-LOW). In the gauntlet these are
        the Part 1 points, which only set the ride order (RTB-SG-QUESTIONS)."""
        return list(self.points)

    def winners_by_total(self) -> bool:
        """False in the gauntlet, where the longest streak wins, not the points (RTB-SG-WIN)."""
        return not self.gauntlet

    def winners(self) -> list[int]:
        """Seats sharing the win once the game is over (RTB-SCORE-TIE), else ``[]``. In the
        gauntlet: the rider who made the target streak, else the longest streak (ties share);
        a lone rider who never made it has no win (RTB-SG-WIN)."""
        if self.node is not None:
            return []
        if self.gauntlet:
            return list(self.gauntlet_winners)
        return super().winners()

    def score_breakdown(self, seat: int) -> list[dict[str, Any]]:
        """Lines ``{"label", "rule", "points", "times"}`` adding up to ``returns()[seat]``.

        Raises:
            InputTypeError: ``seat`` is not an integer.
            ParameterError: no such seat.
        """
        seat = self._check_seat(seat, spectator=False)
        lines: dict[tuple[str, str], dict[str, Any]] = {}
        for label, rule, pts in self.ledger[seat]:
            line = lines.setdefault((label, rule), {"label": label, "rule": rule, "points": 0, "times": 0})
            line["points"] += pts
            line["times"] += 1
        return list(lines.values())

    # -- views ---------------------------------------------------------------------------
    def current_question(self) -> Question | None:
        """The Part 1 question being asked, or ``None`` outside Part 1."""
        return QUESTIONS[self.q_round] if self.part is Part.QUESTIONS else None

    def guess_reference(self) -> list[int]:
        """The cards the pending or next guess compares against (see :func:`judge`)."""
        if self.part is Part.QUESTIONS:
            return list(self.rows[self.q_seat])
        if self.node in (P.QB_GUESS, P.QB_DEAL):
            return list(self.run)
        if self.part in (Part.BUS, Part.RIDES) and self.card_to_beat is not None:
            return [self.card_to_beat]
        return []

    def is_guess(self, action: int) -> bool:
        """True for a guess action (``RED`` … ``SPADES``)."""
        return M.is_guess(action)

    def pending_guess_right(self, card: int) -> bool:
        """At a deal after a guess: would drawing ``card`` make that guess right?

        Raises:
            ValueError: no guess is waiting for its card.
        """
        if self.pending_guess is None or self.node not in ANSWER_PHASES:
            raise ValueError("no guess is waiting for a card")
        return self.judge(self.pending_guess, card, self.guess_reference())

    def status(self) -> str:
        """One sentence saying what happens next, for status lines and screen readers."""
        node = self.node
        if node is None:
            winners = [seat_name(s) for s in self.winners()]
            verb = f"win{'s' if len(winners) == 1 else ''}"
            if self.gauntlet:
                if not winners:
                    return f"Game over: the lone rider never made {self.target} in a row and loses."
                return f"Game over: {' and '.join(winners)} {verb} with a streak of {max(self.ride_best)}."
            return f"Game over: {' and '.join(winners)} {verb} with {points_text(min(self.points))}."
        if node is P.GUESS:
            q = QUESTIONS[self.q_round]
            return f"{seat_name(self.q_seat)}, Q{q.number} for {q.points} point{'s' if q.points > 1 else ''}: {q.text}?"
        if node is P.DEAL:
            return f"Deal the next card to {seat_name(self.q_seat)} ({GUESS_LABELS[self.pending_guess]} was called)."
        if node is P.GIVE:
            giver, points, _, _ = self.gives[0]
            return f"{seat_name(giver)}: who takes {points} point{'s' if points > 1 else ''}?"
        if node is P.SPOT_FLIP:
            i = self.spot_index
            return f"Flip the {self.spot_kind(i).capitalize()} spot of row {i // 2 + 1}."
        if node is P.QB_GUESS:
            q = QUESTIONS[len(self.run)]
            run = [C.card_label(c) for c in self.run]
            text = {
                2: f"higher or lower than the run's first card {run[0]}" if run else q.text,
                3: f"inside or outside the run's first two cards {' and '.join(run[:2])}",
            }.get(q.number, q.text)
            return (
                f"{seat_name(self.rider)} on the questions bus, Q{q.number}: {text}? "
                f"Guess {self.bus_guesses + 1} of {MAX_BUS_GUESSES}."
            )
        if node is P.QB_DEAL:
            return f"Deal the next bus card ({GUESS_LABELS[self.pending_guess]} was called)."
        if node is P.BUS_GUESS and self.gauntlet:
            return (
                f"{seat_name(self.rider)}, ride {self.ride_number + 1} of {len(self.ride_order) * RIDES_EACH}: "
                f"higher or lower than {C.card_label(self.card_to_beat)}? Streak {self.streak} of {self.target}."
            )
        if node is P.BUS_START and self.gauntlet:
            return f"{seat_name(self.rider)} takes the first ride: flip the first card."
        if node is P.FLIP:
            index = self.pyramid_position()
            return f"Flip pyramid card {index + 1} of 10 (row {self.pyramid_row(index)})."
        if node is P.BUS_START:
            return f"{seat_name(self.rider)} rides the bus: flip the first card."
        if node is P.BUS_GUESS:
            return (
                f"{seat_name(self.rider)} on the bus: higher or lower than {C.card_label(self.card_to_beat)}? "
                f"Streak {self.streak} of {self.target}, guess {self.bus_guesses + 1} of {MAX_BUS_GUESSES}."
            )
        return f"Deal the next bus card ({GUESS_LABELS[self.pending_guess]} was called)."

    def view(self, seat: int | None = None) -> views.RideTheBusView:  # type: ignore[override]
        """Everything on the table, JSON-safe: the same for every seat (all cards are face up;
        the draw pile shows only its size). Its shape: :class:`~.views.RideTheBusView`.

        Raises:
            InputTypeError: ``seat`` is not an integer or ``None``.
            ParameterError: ``seat`` is not at the table (``None`` is the spectator).
        """
        return views.build_view(self, self._check_seat(seat))

    def public_view(self) -> views.RideTheBusView:  # type: ignore[override]
        """The table as everyone may see it (a projector): every card of this game is face up
        and a seat's view hides only the deck's order, so this is the view of no seat
        (``viewer`` is ``None``), the same as every seat's apart from ``viewer``."""
        return self.view(None)

    # -- copying -------------------------------------------------------------------------
    def clone(self) -> RideTheBusState:
        other = RideTheBusState.__new__(RideTheBusState)
        other.__dict__.update(self.__dict__)
        self._copy_base_into(other)
        other.draw = set(self.draw)
        other.discard = list(self.discard)
        other.rows = [list(r) for r in self.rows]
        other.points = list(self.points)
        other.ledger = [list(x) for x in self.ledger]
        other.gives = list(self.gives)
        other.pyramid = list(self.pyramid)
        other.in_play = list(self.in_play)
        other.bus_cards = list(self.bus_cards)
        other.spots = [list(x) for x in self.spots]
        other.run = list(self.run)
        other.ride_order = list(self.ride_order)
        other.ride_best = list(self.ride_best)
        other.gauntlet_winners = list(self.gauntlet_winners)
        return other
