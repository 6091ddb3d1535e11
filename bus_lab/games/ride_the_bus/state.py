"""Ride the Bus: the rules, as a step-through state.

Every draw is a chance node whose outcomes are the cards of the draw pile, each with the same
exact probability. Each applied action records events that cite the rule they apply
(``shared/rules/ride_the_bus.md``).

Actions (ints):

* ``0``–``51``: a card drawn (see :mod:`.cards`; label = card code such as ``"7H"``);
* ``RED``, ``BLACK``, ``HIGHER``, ``LOWER``, ``INSIDE``, ``OUTSIDE``, ``CLUBS`` …
  ``SPADES``: guesses;
* ``GIVE_BASE + k``: hand the points at stake to seat ``k``.

Sentences (event texts and :meth:`RideTheBusState.status`) name a card the way the board draws it,
rank and suit symbol (``"10♦"``, :func:`.cards.card_label`); action labels, scripted decks and the
machine-readable ``Event.data`` keep the card codes (``"TD"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bus_lab.engine.core import CHANCE, TERMINAL, State
from bus_lab.games.ride_the_bus import cards as C

RED, BLACK, HIGHER, LOWER, INSIDE, OUTSIDE, CLUBS, DIAMONDS, HEARTS, SPADES = range(100, 110)
GIVE_BASE = 200
GUESS_LABELS = {
    RED: "red",
    BLACK: "black",
    HIGHER: "higher",
    LOWER: "lower",
    INSIDE: "inside",
    OUTSIDE: "outside",
    CLUBS: "clubs",
    DIAMONDS: "diamonds",
    HEARTS: "hearts",
    SPADES: "spades",
}
MAX_BUS_GUESSES = 40  # RTB-B-END, RTB-QB-END
PYRAMID_ROWS = (4, 3, 2, 1)  # RTB-P-LAYOUT: bottom row first
GIVE_TAKE_SPOTS = 8  # RTB-GT-LAYOUT: four rows of a Give spot then a Take spot
RIDES_EACH = 10  # RTB-SG-RIDES
CHANCE_NODES = ("deal", "flip", "spot_flip", "bus_start", "bus_deal", "qb_deal")


@dataclass(frozen=True)
class Question:
    """One of the four questions of Part 1.

    Attributes: number (1–4), rule (ID), points (at stake), text, guesses (actions).
    """

    number: int
    rule: str
    points: int
    text: str
    guesses: tuple[int, ...]


QUESTIONS = (
    Question(1, "RTB-Q1", 1, "red or black", (RED, BLACK)),
    Question(2, "RTB-Q2", 2, "higher or lower than your first card", (HIGHER, LOWER)),
    Question(3, "RTB-Q3", 3, "inside or outside your first two cards", (INSIDE, OUTSIDE)),
    Question(4, "RTB-Q4", 4, "which suit", (CLUBS, DIAMONDS, HEARTS, SPADES)),
)


def judge(guess: int, card: int, reference: list[int]) -> bool:
    """Whether ``guess`` is right for the drawn ``card``.

    Args:
        guess (int): a guess action (``RED`` … ``SPADES``).
        card (int): the card drawn (0–51).
        reference (list[int]): the cards compared against: the guesser's row in Part 1
            (higher/lower uses its first card, inside/outside its first two), or ``[card to
            beat]`` on the bus.

    Returns:
        True when right. The same rank is wrong on higher/lower (RTB-Q2, RTB-B-GUESS); matching
        either rank is wrong on inside/outside, and with two equal ranks only "outside" can win,
        on any other rank (RTB-Q3).

    Raises:
        ValueError: ``guess`` is not a guess, or ``reference`` is too short for it.
    """
    r = C.rank(card)
    if guess in (RED, BLACK):
        return C.is_red(card) == (guess == RED)
    if guess in (HIGHER, LOWER):
        if not reference:
            raise ValueError("higher/lower needs a card to compare with")
        first = C.rank(reference[0])
        return r > first if guess == HIGHER else r < first
    if guess in (INSIDE, OUTSIDE):
        if len(reference) < 2:
            raise ValueError("inside/outside needs two cards to compare with")
        lo, hi = sorted((C.rank(reference[0]), C.rank(reference[1])))
        return lo < r < hi if guess == INSIDE else (r < lo or r > hi)
    if CLUBS <= guess <= SPADES:
        return C.suit(card) == guess - CLUBS
    raise ValueError(f"{guess!r} is not a guess")


def seat_name(seat: int) -> str:
    """``"Seat 2"``: how players are named in events and views (seats are numbered from 0)."""
    return f"Seat {seat}"


class RideTheBusState(State):
    """A game of Ride the Bus in progress, with any table settings.

    Phases: ``"questions"`` (Part 1); ``"pyramid"`` or ``"give_and_take"`` (Part 2);
    ``"bus"`` (Part 3, higher/lower or questions bus); ``"rides"`` (the solo gauntlet, which has
    no Part 2 or 3); ``"over"``.
    Everything on the table is face up; the only unknown is the order of the draw pile, which
    is not decided until a card is drawn (a chance node), so :meth:`view` is the same for every
    seat.
    """

    RENDER = ("bus_lab.games.ride_the_bus.render", "table_html", "table_text")

    def __init__(self, game):
        super().__init__(game)
        p = game.params
        self.num_players: int = p["players"]
        self.target: int = p["streak"]
        self.flat_rows: bool = p["row_points"] == "flat"
        self.board: str = p["board"]
        self.bus_kind: str = p["bus"]
        self.gauntlet: bool = p["mode"] == "gauntlet"
        n = self.num_players
        self.draw: set[int] = set(C.DECK)
        self.discard: list[int] = []
        self.rows: list[list[int]] = [[] for _ in range(n)]
        self.points: list[int] = [0] * n
        self.ledger: list[list[tuple[str, str, int]]] = [[] for _ in range(n)]
        self.phase = "questions"
        self.node = "guess"
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
        self._log(
            "RTB-SETUP-DECK", "One standard 52-card deck is shuffled; aces are high (2 lowest, A highest)."
        )
        seats = (
            "one player sits at seat 0"
            if n == 1
            else f"{n} players sit at seats 0 to {n - 1}; play goes in seat order"
        )
        self._log("RTB-SETUP-PLAYERS", f"{seats[0].upper()}{seats[1:]}.", players=n)
        self._log(
            "RTB-SCORE-LOW",
            "Points are bad: every part adds to one running total, and the lowest total wins.",
        )

    # -- protocol ------------------------------------------------------------------------
    def current_player(self) -> int:
        node = self.node
        if node is None:
            return TERMINAL
        if node in CHANCE_NODES:
            return CHANCE
        if node == "guess":
            return self.q_seat
        if node == "give":
            return self.gives[0][0]
        return self.rider  # bus_guess, qb_guess

    def is_chance_node(self) -> bool:
        """True at a draw (``current_player() == CHANCE``, read straight from the node)."""
        return self.node in CHANCE_NODES

    def is_terminal(self) -> bool:
        """True once the game is over (``current_player() == TERMINAL``, read straight from the node)."""
        return self.node is None

    def _legal_actions(self) -> list[int]:
        if self.node == "guess":
            return list(QUESTIONS[self.q_round].guesses)
        if self.node == "give":
            giver = self.gives[0][0]
            return [GIVE_BASE + k for k in range(self.num_players) if k != giver]
        if self.node == "qb_guess":
            return list(QUESTIONS[len(self.run)].guesses)
        return [HIGHER, LOWER]  # bus_guess

    def _chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return self._uniform(self.draw)

    def chance_weights(self) -> tuple[list[int], list[int] | None]:
        """The cards of the draw pile, sorted, all equally likely (``None`` weights); ``([], None)``
        at a decision or terminal node. The fast form of :meth:`chance_outcomes` for drawing."""
        if self.node in CHANCE_NODES:
            return sorted(self.draw), None
        return [], None

    def _is_legal(self, action: int) -> bool:
        if self.node in CHANCE_NODES:
            return action in self.draw
        return action in self._legal_actions()

    def _why_not_legal(self, action: int) -> str:
        if self.is_chance_node():
            if 0 <= action < 52:
                return f"{C.card_code(action)} is not in the draw pile"
            return "a card (0-51) must be drawn now"
        if self.node == "give" and action == GIVE_BASE + self.gives[0][0]:
            return "points must go to another player, not to the one who hands them out"
        return f"{self.action_to_string(action)} is not a move now ({self.status()})"

    def action_to_string(self, action: int) -> str:
        """Card code for a draw (``"7H"``), the guess (``"higher"``), or ``"give to seat 2"``."""
        if isinstance(action, int) and not isinstance(action, bool):
            if 0 <= action < 52:
                return C.card_code(action)
            if action in GUESS_LABELS:
                return GUESS_LABELS[action]
            if GIVE_BASE <= action < GIVE_BASE + 8:
                return f"give to seat {action - GIVE_BASE}"
        return f"<not an action: {action!r}>"

    def _apply_action(self, action: int) -> None:
        handler = getattr(self, "_on_" + self.node)
        handler(action)

    # -- Part 1: the four questions ------------------------------------------------------
    def _on_guess(self, guess: int) -> None:
        q = QUESTIONS[self.q_round]
        seat = self.q_seat
        self.pending_guess = guess
        self._log(
            q.rule,
            f"{seat_name(seat)} answers Q{q.number} ({q.text}): {GUESS_LABELS[guess]}, "
            f"{q.points} point{'s' if q.points > 1 else ''} at stake.",
            seat=seat,
            guess=GUESS_LABELS[guess],
            points=q.points,
        )
        self._to_chance("deal")

    def _on_deal(self, card: int) -> None:
        q = QUESTIONS[self.q_round]
        seat = self.q_seat
        self.draw.discard(card)
        right = judge(self.pending_guess, card, self.rows[seat])
        self.pending_guess = None
        self.rows[seat].append(card)
        self._log(
            "RTB-Q-ORDER",
            f"{C.card_label(card)} is dealt face up into {seat_name(seat)}'s row.",
            seat=seat,
            card=C.card_code(card),
        )
        if right and self.num_players > 1:
            self._log(
                "RTB-Q-RIGHT",
                f"Right! {seat_name(seat)} hands {q.points} point"
                f"{'s' if q.points > 1 else ''} to another player.",
                seat=seat,
                points=q.points,
            )
            self.gives.append(
                (seat, q.points, "RTB-Q-RIGHT", "Part 1: given by others for their right guesses")
            )
            self.node = "give"
        else:
            if right:
                self._log(
                    "RTB-Q-RIGHT", f"Right! {seat_name(seat)} plays alone and loses nothing.", seat=seat
                )
            else:
                self._add_points(seat, q.points, "Part 1: wrong guesses", "RTB-Q-WRONG")
                self._log(
                    "RTB-Q-WRONG",
                    f"Wrong: {seat_name(seat)} takes {q.points} point{'s' if q.points > 1 else ''}.",
                    seat=seat,
                    points=q.points,
                )
            self._next_question_turn()

    def _next_question_turn(self) -> None:
        self.pending_guess = None
        self.q_seat += 1
        if self.q_seat == self.num_players:
            self.q_seat = 0
            self.q_round += 1
        if self.q_round < len(QUESTIONS):
            self.node = "guess"
        elif self.gauntlet:
            self._start_rides()
        elif self.board == "give_and_take":
            self._start_give_and_take()
        else:
            self._start_pyramid()

    # -- handing out points (Part 1 and the pyramid) -------------------------------------
    def _on_give(self, action: int) -> None:
        giver, points, rule, what = self.gives.pop(0)
        taker = action - GIVE_BASE
        self._add_points(taker, points, what, rule)
        self._log(
            rule,
            f"{seat_name(giver)} gives {points} point{'s' if points > 1 else ''} to {seat_name(taker)}.",
            giver=giver,
            taker=taker,
            points=points,
        )
        if self.gives:
            return
        if self.phase == "questions":
            self._next_question_turn()
        elif self.phase == "pyramid":
            self._finish_flip()
        else:
            self._finish_spot()

    def _add_points(self, seat: int, points: int, label: str, rule: str) -> None:
        self.points[seat] += points
        self.ledger[seat].append((label, rule, points))

    # -- Part 2: the pyramid -------------------------------------------------------------
    def _start_pyramid(self) -> None:
        self.phase = "pyramid"
        self._log(
            "RTB-P-LAYOUT",
            "Part 2: ten cards lie face down in a pyramid of rows of 4, 3, 2 and 1. "
            "Each is turned up from the top of the deck when its turn comes.",
        )
        self._to_chance("flip")

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

    def _on_flip(self, card: int) -> None:
        index = self.pyramid_index
        row = self.pyramid_row(index)
        worth = self.row_points(row)
        self.draw.discard(card)
        self.pyramid[index] = card
        self.in_play = [card]
        self._log(
            "RTB-P-FLIP",
            f"Pyramid card {index + 1} of 10 (row {row}) is flipped: {C.card_label(card)}.",
            index=index,
            row=row,
            card=C.card_code(card),
        )
        for seat in range(self.num_players):  # RTB-P-MATCH: seat order
            matching = [c for c in self.rows[seat] if C.rank(c) == C.rank(card)]
            if not matching:
                continue
            self.rows[seat] = [c for c in self.rows[seat] if C.rank(c) != C.rank(card)]
            self.discard.extend(matching)
            codes = [C.card_code(c) for c in matching]
            names = ", ".join(C.card_label(c) for c in matching)
            self._log("RTB-P-MATCH", f"{seat_name(seat)} matches and plays {names}.", seat=seat, cards=codes)
            self._log(
                "RTB-DISCARD",
                f"{names} go{'es' if len(codes) == 1 else ''} to the discard pile.",
                cards=codes,
            )
            for _card in matching:
                self.gives.append((seat, worth, "RTB-P-GIVE", "Part 2: pyramid points given by others"))
        if self.gives:
            self._log(
                "RTB-P-POINTS",
                f"Each card played on row {row} is worth {worth} point"
                f"{'s' if worth > 1 else ''}; its player picks who takes them.",
                row=row,
                points=worth,
            )
            self.node = "give"
        else:
            name = C.RANK_NAMES[C.rank(card)]
            self._log(
                "RTB-P-NOMATCH",
                f"Nobody holds {'an' if name[0] in 'aeiou' else 'a'} {name}: on to the next card.",
            )
            self._finish_flip()

    def _finish_flip(self) -> None:
        card = self.in_play.pop()
        self.discard.append(card)
        self._log(
            "RTB-DISCARD",
            f"The flipped {C.card_label(card)} goes to the discard pile.",
            cards=[C.card_code(card)],
        )
        self.pyramid_index += 1
        if self.pyramid_index == len(self.pyramid):
            self._start_bus()
        else:
            self._to_chance("flip")

    # -- Part 2 variant: the Give & Take board -------------------------------------------
    def _start_give_and_take(self) -> None:
        self.phase = "give_and_take"
        self._log(
            "RTB-GT-LAYOUT",
            "Part 2 on the Give & Take board: eight spots in four rows, a Give spot then a "
            "Take spot; each spot's card comes from the top of the deck when its turn comes.",
        )
        self._to_chance("spot_flip")

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
        again = " again" if len(self.spots[index]) > 1 else ""
        self._log(
            "RTB-GT-LAYOUT",
            f"The {kind.capitalize()} spot of row {row} is flipped{again}: {C.card_label(card)}.",
            index=index,
            kind=kind,
            card=C.card_code(card),
        )
        rule = "RTB-GT-GIVE" if kind == "give" else "RTB-GT-TAKE"
        matched = False
        for seat in range(self.num_players):
            matching = [c for c in self.rows[seat] if C.rank(c) == C.rank(card)]
            if not matching:
                continue
            matched = True
            self.rows[seat] = [c for c in self.rows[seat] if C.rank(c) != C.rank(card)]
            self.discard.extend(matching)
            codes = [C.card_code(c) for c in matching]
            names = ", ".join(C.card_label(c) for c in matching)
            if kind == "give":
                self._log(
                    rule,
                    f"{seat_name(seat)} plays {names} and picks who takes the points.",
                    seat=seat,
                    cards=codes,
                )
                for _ in matching:
                    self.gives.append((seat, worth, rule, "Part 2: Give spot points given by others"))
            else:
                self._add_points(seat, worth * len(matching), "Part 2: Take spot points", rule)
                self._log(
                    rule,
                    f"{seat_name(seat)} plays {names} and takes {worth * len(matching)} "
                    f"point{'s' if worth * len(matching) > 1 else ''}.",
                    seat=seat,
                    cards=codes,
                )
            self._log(
                "RTB-DISCARD",
                f"{names} go{'es' if len(codes) == 1 else ''} to the discard pile.",
                cards=codes,
            )
        if matched:
            self._log(
                "RTB-GT-POINTS",
                f"Row {row} is worth {worth} point{'s' if worth > 1 else ''} per card played.",
                row=row,
                points=worth,
            )
            if self.gives:
                self.node = "give"
            else:
                self._finish_spot()
            return
        # RTB-GT-REFLIP: nobody holds it; flip this spot again, unless no card left can match.
        self.in_play = []
        self.discard.append(card)
        held = {C.rank(c) for row_cards in self.rows for c in row_cards}
        if not any(C.rank(c) in held for c in list(self.draw) + self.discard):
            self._log(
                "RTB-GT-REFLIP",
                f"Nobody holds {C.card_label(card)}'s rank, and no card left in the draw or "
                f"discard pile matches a card in anyone's row: Part 2 ends.",
            )
            self._end_part_two()
        else:
            self._log(
                "RTB-GT-REFLIP",
                f"Nobody holds {C.card_label(card)}'s rank: it goes to the discard pile and "
                f"the spot is flipped again.",
            )
            self._to_chance("spot_flip")

    def _finish_spot(self) -> None:
        card = self.in_play.pop()
        self.discard.append(card)
        self._log(
            "RTB-DISCARD",
            f"The spot's {C.card_label(card)} goes to the discard pile.",
            cards=[C.card_code(card)],
        )
        self.spot_index += 1
        holders = sum(1 for row_cards in self.rows if row_cards)
        if self.spot_index == GIVE_TAKE_SPOTS:
            self._log("RTB-GT-END", "The eighth spot is done: Part 2 ends.")
            self._end_part_two()
        elif holders <= 1:
            self._log(
                "RTB-GT-END",
                f"{'Only one player still has' if holders else 'Nobody still has'} cards: Part 2 ends early.",
            )
            self._end_part_two()
        else:
            self._to_chance("spot_flip")

    def _end_part_two(self) -> None:
        self._start_bus()

    # -- Part 3: the bus -----------------------------------------------------------------
    def _start_bus(self) -> None:
        self.phase = "bus"
        n = self.num_players
        rider = max(range(n), key=lambda s: (len(self.rows[s]), self.points[s], -s))
        self.rider = rider
        self._log(
            "RTB-B-RIDER",
            f"{seat_name(rider)} holds the most cards ({len(self.rows[rider])}) "
            f"and rides the bus (ties: more points, then the earlier seat).",
            rider=rider,
            cards=[len(r) for r in self.rows],
        )
        if self.bus_kind == "questions":
            self._log(
                "RTB-QB-ORDER",
                f"The questions bus: {seat_name(rider)} answers the four questions again, "
                f"each on a new card; there is no starting card.",
            )
            self.node = "qb_guess"
        else:
            self._to_chance("bus_start")

    def _on_bus_start(self, card: int) -> None:
        self.draw.discard(card)
        self.card_to_beat = card
        self.in_play = [card]
        self.bus_cards.append(card)
        if self.gauntlet:
            self._log(
                "RTB-SG-RIDE",
                f"The first ride starts: {C.card_label(card)} is flipped face up.",
                card=C.card_code(card),
            )
        else:
            self._log(
                "RTB-B-FLIP",
                f"The bus starts: {C.card_label(card)} is flipped face up.",
                card=C.card_code(card),
            )
        self.node = "bus_guess"

    def _on_bus_guess(self, guess: int) -> None:
        self.pending_guess = guess
        if self.gauntlet:
            what = (
                f"(ride {self.ride_number + 1} of {len(self.ride_order) * RIDES_EACH}, streak {self.streak})"
            )
        else:
            what = f"(guess {self.bus_guesses + 1} of {MAX_BUS_GUESSES})"
        self._log(
            "RTB-SG-RIDE" if self.gauntlet else "RTB-B-GUESS",
            f"{seat_name(self.rider)} calls "
            f"{GUESS_LABELS[guess]} than {C.card_label(self.card_to_beat)} {what}.",
            guess=GUESS_LABELS[guess],
        )
        self._to_chance("bus_deal")

    def _on_bus_deal(self, card: int) -> None:
        self.draw.discard(card)
        old = self.card_to_beat
        hit = judge(self.pending_guess, card, [old])
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
                f"{C.card_label(card)}: a hit, streak {self.streak} of {self.target}.",
                card=C.card_code(card),
                hit=True,
                streak=self.streak,
            )
        else:
            self.streak = 0
            self._add_points(rider, 1, "Part 3: misses on the bus", "RTB-B-STREAK")
            self._log(
                "RTB-B-STREAK",
                f"{C.card_label(card)}: a miss; {seat_name(rider)} takes 1 point and "
                f"the streak goes back to 0.",
                card=C.card_code(card),
                hit=False,
                streak=0,
            )
        self._log(
            "RTB-DISCARD",
            f"{C.card_label(old)} is no longer needed and goes to the discard pile.",
            cards=[C.card_code(old)],
        )
        if self.gauntlet:
            if self.node is not None:
                self.node = "bus_guess"
            return
        if self.streak >= self.target:
            self._log("RTB-B-END", f"{self.target} hits in a row: {seat_name(rider)} gets off the bus.")
            self._finish()
        elif self.bus_guesses >= MAX_BUS_GUESSES:
            self._log("RTB-B-END", f"{MAX_BUS_GUESSES} guesses made: the bus stops.")
            self._finish()
        else:
            self.node = "bus_guess"

    # -- Part 3 variant: the questions bus -----------------------------------------------
    def _on_qb_guess(self, guess: int) -> None:
        q = QUESTIONS[len(self.run)]
        self.pending_guess = guess
        rule = "RTB-QB-COMPARE" if q.number in (2, 3) else "RTB-QB-ORDER"
        against = ""
        if q.number in (2, 3):
            against = " (against " + " and ".join(C.card_label(c) for c in self.run[: q.number - 1]) + ")"
        self._log(
            rule,
            f"{seat_name(self.rider)} answers Q{q.number} ({q.text}) on the bus: "
            f"{GUESS_LABELS[guess]}{against}, guess {self.bus_guesses + 1} of {MAX_BUS_GUESSES}.",
            guess=GUESS_LABELS[guess],
            question=q.number,
        )
        self._to_chance("qb_deal")

    def _on_qb_deal(self, card: int) -> None:
        self.draw.discard(card)
        q = QUESTIONS[len(self.run)]
        right = judge(self.pending_guess, card, self.run)
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
                f"{C.card_label(card)}: right on Q{q.number}.",
                card=C.card_code(card),
                hit=True,
                streak=self.streak,
            )
        else:
            lost = self.run + [card]
            self.discard.extend(lost)
            self.run = []
            self.in_play = []
            self.streak = 0
            self._add_points(rider, 1, "Part 3: misses on the bus", "RTB-QB-MISS")
            codes = [C.card_code(c) for c in lost]
            names = ", ".join(C.card_label(c) for c in lost)
            self._log(
                "RTB-QB-MISS",
                f"{C.card_label(card)}: a miss on Q{q.number}; {seat_name(rider)} takes 1 point, "
                f"goes back to Q1, and the run ({names}) goes to the discard pile.",
                card=C.card_code(card),
                hit=False,
                cards=codes,
            )
        if len(self.run) == len(QUESTIONS):
            self._log("RTB-QB-END", f"All four answered right in a row: {seat_name(rider)} gets off the bus.")
            self._finish()
        elif self.bus_guesses >= MAX_BUS_GUESSES:
            self._log("RTB-QB-END", f"{MAX_BUS_GUESSES} guesses made: the bus stops.")
            self._finish()
        else:
            self.node = "qb_guess"

    # -- the solo gauntlet ---------------------------------------------------------------
    def _start_rides(self) -> None:
        self.phase = "rides"
        n = self.num_players
        self.ride_order = sorted(range(n), key=lambda s: (-self.points[s], s))
        self.rider = self.ride_order[0]
        self.streak = 0
        self._log(
            "RTB-SG-FLOW", "The gauntlet has no pyramid and no bus: the rides start straight after Part 1."
        )
        self._log("RTB-SG-QUESTIONS", "Part 1 points only set the ride order.", points=list(self.points))
        order = ", ".join(f"{seat_name(s)} ({self.points[s]})" for s in self.ride_order)
        self._log(
            "RTB-SG-ORDER",
            f"Ride order, most points first, ties to the earlier seat: {order}.",
            order=list(self.ride_order),
        )
        self._log(
            "RTB-SG-RIDES",
            f"Each player gets {RIDES_EACH} rides; {self.target} hits in a row wins on the spot.",
        )
        self._to_chance("bus_start")

    def _gauntlet_result(self, card: int, hit: bool) -> None:
        rider = self.rider
        code = C.card_code(card)  # Event.data keeps the code; the sentences name the card as the board does
        label = C.card_label(card)
        if hit:
            self.ride_best[rider] = max(self.ride_best[rider], self.streak)
            if self.streak >= self.target:
                self._log(
                    "RTB-SG-WIN",
                    f"{label}: {self.target} hits in a row! {seat_name(rider)} wins on the spot.",
                    card=code,
                    hit=True,
                    streak=self.streak,
                )
                self.gauntlet_winners = [rider]
                self._finish()
            else:
                self._log(
                    "RTB-SG-RIDE",
                    f"{label}: a hit, streak {self.streak}.",
                    card=code,
                    hit=True,
                    streak=self.streak,
                )
            return
        self.ride_number += 1
        total = len(self.ride_order) * RIDES_EACH
        self._log(
            "RTB-SG-RIDE",
            f"{label}: a miss ends {seat_name(rider)}'s ride {self.ride_number} of {total} "
            f"(streak {self.streak}); {label} is the card to beat for the next ride.",
            card=code,
            hit=False,
            streak=self.streak,
        )
        self.streak = 0
        if self.ride_number >= total:
            best = max(self.ride_best)
            if len(self.ride_order) == 1:
                self.gauntlet_winners = []
                self._log(
                    "RTB-SG-WIN",
                    f"All {RIDES_EACH} rides are used without {self.target} hits in a row: "
                    f"the lone rider loses (best ride {best}).",
                )
            else:
                self.gauntlet_winners = [s for s in range(self.num_players) if self.ride_best[s] == best]
                names = " and ".join(seat_name(s) for s in self.gauntlet_winners)
                self._log(
                    "RTB-SG-WIN",
                    f"Nobody made {self.target} in a row; the longest streak ({best}) wins: {names}.",
                    winners=list(self.gauntlet_winners),
                )
            self._finish()
        else:
            self.rider = self.ride_order[self.ride_number % len(self.ride_order)]

    def _finish(self) -> None:
        self.phase = "over"
        self.node = None
        if self.gauntlet:
            return
        scores = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(self.points))
        best = min(self.points)
        winners = [s for s, p in enumerate(self.points) if p == best]
        self._log("RTB-SCORE-LOW", f"Final points: {scores}. Lowest total wins.", points=list(self.points))
        if len(winners) > 1:
            names = " and ".join(seat_name(s) for s in winners)
            self._log("RTB-SCORE-TIE", f"{names} tie on {best} points and share the win.", winners=winners)
        else:
            self._log(
                "RTB-SCORE-TIE", f"{seat_name(winners[0])} wins alone with {best} points.", winners=winners
            )

    # -- drawing -------------------------------------------------------------------------
    def _to_chance(self, node: str) -> None:
        """Make the next node a draw; reshuffle the discard pile first if the deck is empty."""
        self.node = node
        if not self.draw:
            if not self.discard:  # cannot happen with 52 cards and at most 32 in rows
                raise RuntimeError("no card left to draw and nothing to reshuffle")
            count = len(self.discard)
            self.draw = set(self.discard)
            self.discard = []
            if self.run:  # questions bus: the current run is never reshuffled
                kept = f"cards in rows and the {len(self.run)} card{'s' if len(self.run) > 1 else ''} of the current run"
            elif self.card_to_beat is not None:
                kept = "cards in rows and the card to beat"
            else:
                kept = "cards in rows"
            self._log(
                "RTB-DECK-EMPTY",
                f"The draw pile is empty: the {count} discarded cards are shuffled into "
                f"a new draw pile ({kept} stay where they are).",
                cards=count,
            )

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
            IndexError: no such seat.
        """
        if not 0 <= seat < self.num_players:
            raise IndexError(f"seat {seat} is not at the table: seats are 0 to {self.num_players - 1}")
        lines: dict[tuple[str, str], dict[str, Any]] = {}
        for label, rule, pts in self.ledger[seat]:
            line = lines.setdefault((label, rule), {"label": label, "rule": rule, "points": 0, "times": 0})
            line["points"] += pts
            line["times"] += 1
        return list(lines.values())

    # -- views ---------------------------------------------------------------------------
    def current_question(self) -> Question | None:
        """The Part 1 question being asked, or ``None`` outside Part 1."""
        return QUESTIONS[self.q_round] if self.phase == "questions" else None

    def guess_reference(self) -> list[int]:
        """The cards the pending or next guess compares against (see :func:`judge`)."""
        if self.phase == "questions":
            return list(self.rows[self.q_seat])
        if self.node in ("qb_guess", "qb_deal"):
            return list(self.run)
        if self.phase in ("bus", "rides") and self.card_to_beat is not None:
            return [self.card_to_beat]
        return []

    def is_guess(self, action: int) -> bool:
        """True for a guess action (``RED`` … ``SPADES``)."""
        return action in GUESS_LABELS

    def pending_guess_right(self, card: int) -> bool:
        """At a deal after a guess: would drawing ``card`` make that guess right?

        Raises:
            ValueError: no guess is waiting for its card.
        """
        if self.pending_guess is None or self.node not in ("deal", "bus_deal", "qb_deal"):
            raise ValueError("no guess is waiting for a card")
        return judge(self.pending_guess, card, self.guess_reference())

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
            return f"Game over: {' and '.join(winners)} {verb} with {min(self.points)} points."
        if node == "guess":
            q = QUESTIONS[self.q_round]
            return f"{seat_name(self.q_seat)}, Q{q.number} for {q.points} point{'s' if q.points > 1 else ''}: {q.text}?"
        if node == "deal":
            return f"Deal the next card to {seat_name(self.q_seat)} ({GUESS_LABELS[self.pending_guess]} was called)."
        if node == "give":
            giver, points, _, _ = self.gives[0]
            return f"{seat_name(giver)}: who takes {points} point{'s' if points > 1 else ''}?"
        if node == "spot_flip":
            i = self.spot_index
            return f"Flip the {self.spot_kind(i).capitalize()} spot of row {i // 2 + 1}."
        if node == "qb_guess":
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
        if node == "qb_deal":
            return f"Deal the next bus card ({GUESS_LABELS[self.pending_guess]} was called)."
        if node == "bus_guess" and self.gauntlet:
            return (
                f"{seat_name(self.rider)}, ride {self.ride_number + 1} of {len(self.ride_order) * RIDES_EACH}: "
                f"higher or lower than {C.card_label(self.card_to_beat)}? Streak {self.streak} of {self.target}."
            )
        if node == "bus_start" and self.gauntlet:
            return f"{seat_name(self.rider)} takes the first ride: flip the first card."
        if node == "flip":
            return f"Flip pyramid card {self.pyramid_index + 1} of 10 (row {self.pyramid_row(self.pyramid_index)})."
        if node == "bus_start":
            return f"{seat_name(self.rider)} rides the bus: flip the first card."
        if node == "bus_guess":
            return (
                f"{seat_name(self.rider)} on the bus: higher or lower than {C.card_label(self.card_to_beat)}? "
                f"Streak {self.streak} of {self.target}, guess {self.bus_guesses + 1} of {MAX_BUS_GUESSES}."
            )
        return f"Deal the next bus card ({GUESS_LABELS[self.pending_guess]} was called)."

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything on the table, JSON-safe: the same for every seat (all cards are face up;
        the draw pile shows only its size).

        Raises:
            IndexError: ``seat`` is not at the table (``None`` is the spectator).
        """
        if seat is not None and not 0 <= seat < self.num_players:
            raise IndexError(f"seat {seat} is not at the table: seats are 0 to {self.num_players - 1}")
        code = C.card_code
        q = self.current_question()
        return {
            "game": "ride_the_bus",
            "viewer": seat,
            "players": self.num_players,
            "phase": self.phase,
            "to_move": self.current_player(),
            "status": self.status(),
            "points": list(self.points),
            "rows": [[code(c) for c in row] for row in self.rows],
            "question": None
            if q is None
            else {"number": q.number, "text": q.text, "points": q.points, "seat": self.q_seat},
            "pending_guess": None if self.pending_guess is None else GUESS_LABELS[self.pending_guess],
            "gives": [{"giver": g, "points": p} for g, p, _, _ in self.gives],
            "pyramid": [
                {
                    "row": self.pyramid_row(i),
                    "points": self.row_points(self.pyramid_row(i)),
                    "card": None if c is None else code(c),
                    "current": bool(self.in_play) and self.phase == "pyramid" and i == self.pyramid_index,
                }
                for i, c in enumerate(self.pyramid)
            ]
            if self.board == "pyramid" and not self.gauntlet
            else [],
            "spots": [
                {
                    "row": i // 2 + 1,
                    "kind": self.spot_kind(i),
                    "points": self.spot_points(i),
                    "cards": [code(c) for c in cards],
                    "current": bool(self.in_play) and self.phase == "give_and_take" and i == self.spot_index,
                }
                for i, cards in enumerate(self.spots)
            ]
            if self.board == "give_and_take" and not self.gauntlet
            else [],
            "bus": {
                "rider": self.rider,
                "card_to_beat": None if self.card_to_beat is None else code(self.card_to_beat),
                "cards": [code(c) for c in self.bus_cards],
                "streak": self.streak,
                "best_streak": self.best_streak,
                "target": self.target,
                "guesses": self.bus_guesses,
                "max_guesses": MAX_BUS_GUESSES,
                "kind": "higher_lower" if self.gauntlet else self.bus_kind,
                "run": [code(c) for c in self.run],
                "question": len(self.run) + 1 if self.node in ("qb_guess", "qb_deal") else None,
            },
            "gauntlet": None
            if not self.gauntlet
            else {
                "order": list(self.ride_order),
                "ride": self.ride_number + 1 if self.node else self.ride_number,
                "total_rides": self.num_players * RIDES_EACH,
                "best": list(self.ride_best),
            },
            "options": dict(self._game.params),
            "draw_pile": len(self.draw),
            "discard": [code(c) for c in self.discard],
            "winners": self.winners(),
        }

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
