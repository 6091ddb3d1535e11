"""The moves of Ride the Bus, and the only place that turns them into action ints and back.

Three kinds of move (``Move.kind``):

* :class:`Guess` (``"guess"``): an answer to a question of Part 1 or the questions bus, or a
  higher/lower call on the bus and the gauntlet's rides; ``answer`` is one of :data:`ANSWERS`.
* :class:`Give` (``"give"``): hand the points at stake to ``seat`` (RTB-Q-RIGHT, RTB-P-GIVE,
  RTB-GT-GIVE).
* :class:`Deal` (``"deal"``): the chance outcome of every draw, the card that comes up, by its
  code (``"7H"``, ``"TD"``; :mod:`.cards`).

Action ints (the history format, unchanged): ``0``–``51`` a card (``rank * 4 + suit``),
``100``–``109`` the guesses in the order of :data:`ANSWERS`, ``200 + k`` give to seat ``k``.

Labels (``State.action_to_string``) are the card code, the answer, or ``"give to seat k"``;
:func:`parse_label` also reads the forgiving spellings of a card (``10H``, ``TH``, ``10♥``,
``th``, ``ten of hearts``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import ClassVar

from bus_lab.engine.moves import Move
from bus_lab.games.ride_the_bus import cards as C

#: Every answer a guess can give, in action order (``RED`` … ``SPADES``).
ANSWERS: tuple[str, ...] = (
    "red",
    "black",
    "higher",
    "lower",
    "inside",
    "outside",
    "clubs",
    "diamonds",
    "hearts",
    "spades",
)
#: The action of the first guess; the others follow in the order of :data:`ANSWERS`.
GUESS_BASE = 100
RED, BLACK, HIGHER, LOWER, INSIDE, OUTSIDE, CLUBS, DIAMONDS, HEARTS, SPADES = range(
    GUESS_BASE, GUESS_BASE + len(ANSWERS)
)
#: The action of "give to seat 0"; seat ``k`` is ``GIVE_BASE + k``.
GIVE_BASE = 200
#: The most seats at a table (RTB-SETUP-PLAYERS).
MAX_SEATS = 8
#: The number of cards (and of card actions, ``0``–``51``).
DECK_SIZE = 52
#: Label of each guess action.
GUESS_LABELS: dict[int, str] = {GUESS_BASE + i: answer for i, answer in enumerate(ANSWERS)}
#: The four suit guesses, in suit order (clubs, diamonds, hearts, spades: :mod:`.cards`).
SUIT_GUESSES: tuple[int, ...] = (CLUBS, DIAMONDS, HEARTS, SPADES)


@dataclass(frozen=True)
class Guess(Move):
    """An answer (``"red"``, ``"higher"``, ``"inside"``, ``"hearts"``…): one of :data:`ANSWERS`."""

    answer: str
    kind: ClassVar[str] = "guess"

    @property
    def action(self) -> int:
        return guess_action(self.answer)


@dataclass(frozen=True)
class Give(Move):
    """Hand the points at stake to ``seat`` (0-based)."""

    seat: int
    kind: ClassVar[str] = "give"

    @property
    def action(self) -> int:
        return give_action(self.seat)


@dataclass(frozen=True)
class Deal(Move):
    """A chance outcome: the card ``card`` (a code such as ``"7H"``) comes up."""

    card: str
    kind: ClassVar[str] = "deal"
    chance: ClassVar[bool] = True

    @property
    def action(self) -> int:
        return C.parse_card(self.card)


@dataclass(frozen=True)
class Question:
    """One of the four questions of Part 1 (asked again on the questions bus).

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
    Question(4, "RTB-Q4", 4, "which suit", SUIT_GUESSES),
)


# -- encoding ----------------------------------------------------------------------------------
def guess_action(answer: str) -> int:
    """The action of the guess ``answer``.

    Raises:
        ValueError: not one of :data:`ANSWERS`.
    """
    if answer not in ANSWERS:
        raise ValueError(f"{answer!r} is not a guess: use one of {', '.join(ANSWERS)}")
    return GUESS_BASE + ANSWERS.index(answer)


def give_action(seat: int) -> int:
    """The action "give to seat ``seat``".

    Raises:
        ValueError: no table has that seat.
    """
    if not 0 <= seat < MAX_SEATS:
        raise ValueError(f"there is no seat {seat}: seats are 0 to {MAX_SEATS - 1}")
    return GIVE_BASE + seat


def give_actions(players: int, giver: int) -> list[int]:
    """The actions handing points from ``giver`` to each other seat of a ``players``-seat table."""
    return [give_action(k) for k in range(players) if k != giver]


# -- decoding ----------------------------------------------------------------------------------
def is_card(action: int) -> bool:
    """True for a card action (``0``–``51``)."""
    return 0 <= action < DECK_SIZE


def is_guess(action: int) -> bool:
    """True for a guess action (``RED`` … ``SPADES``)."""
    return action in GUESS_LABELS


def is_give(action: int) -> bool:
    """True for a "give to seat k" action."""
    return GIVE_BASE <= action < GIVE_BASE + MAX_SEATS


def give_seat(action: int) -> int:
    """The seat that a give action hands the points to.

    Raises:
        ValueError: not a give action.
    """
    if not is_give(action):
        raise ValueError(f"{action!r} is not a give action")
    return action - GIVE_BASE


def suit_guessed(action: int) -> int:
    """The suit index (0–3, :mod:`.cards`) named by a suit guess.

    Raises:
        ValueError: not a suit guess.
    """
    if action not in SUIT_GUESSES:
        raise ValueError(f"{action!r} is not a suit guess")
    return SUIT_GUESSES.index(action)


def decode(action: int) -> Move | None:
    """The move whose action is ``action``, or ``None`` when no move has that number."""
    if is_card(action):
        return Deal(C.card_code(action))
    if is_guess(action):
        return Guess(GUESS_LABELS[action])
    if is_give(action):
        return Give(action - GIVE_BASE)
    return None


def label(action: int) -> str | None:
    """The label of ``action`` (card code, answer, ``"give to seat k"``), or ``None``."""
    if is_card(action):
        return C.card_code(action)
    if is_guess(action):
        return GUESS_LABELS[action]
    if is_give(action):
        return f"give to seat {action - GIVE_BASE}"
    return None


# -- notation ----------------------------------------------------------------------------------
#: Suit symbols (filled and outline) and words, to the suit letter of a card code.
SUIT_SPELLINGS: dict[str, str] = {symbol: letter.lower() for symbol, letter in C.SYMBOL_SUITS.items()} | {
    "club": "c",
    "diamond": "d",
    "heart": "h",
    "spade": "s",
}
RANK_WORDS: dict[str, str] = {name: C.RANKS[i].lower() for i, name in enumerate(C.RANK_NAMES)}
_CARD = re.compile(r"^(10|[2-9tjqka]) ?([cdhs♣♦♥♠♧♢♡♤])$")
_CARD_WORDS = re.compile(r"^(\w+) of (club|diamond|heart|spade)s?$")
_GIVE = re.compile(r"^give to seat (\d+)$")


def normalize_card(text: str) -> str | None:
    """The lower-case card code (``"th"``) of a card spelled ``text`` (already lower case), or
    ``None`` when ``text`` is not a card: ``10h``, ``th``, ``10♥``, ``t♡``, ``10 h``,
    ``ten of hearts`` all give ``"th"``."""
    found = _CARD.match(text)
    if found:
        rank, suit = found.groups()
        return ("t" if rank == "10" else rank) + SUIT_SPELLINGS.get(suit, suit)
    found = _CARD_WORDS.match(text)
    if found and found.group(1) in RANK_WORDS:
        return RANK_WORDS[found.group(1)] + SUIT_SPELLINGS[found.group(2)]
    return None


def fold_label(text: str) -> str:
    """``text`` in lower case (NFKC) with single spaces, as the engine folds a typed label."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def normalize_label(text: str) -> str:
    """One canonical spelling of a label already folded to lower case: a card becomes its
    lower-case code; anything else is left as it is."""
    card = normalize_card(text)
    return text if card is None else card


def parse_label(text: str, players: int = MAX_SEATS) -> int | None:
    """The action a normalized label names (legal now or not), or ``None``.

    Args:
        text (str): a label after :func:`normalize_label` (lower case).
        players (int): seats at the table; a give to a seat beyond them names no move.
    """
    card = normalize_card(text)
    if card is not None:
        return C.parse_card(card)
    if text in ANSWERS:
        return guess_action(text)
    found = _GIVE.match(text)
    if found and int(found.group(1)) < players:
        return give_action(int(found.group(1)))
    return None
