"""The standard 52-card deck of Ride the Bus (rule RTB-SETUP-DECK: aces high, no wrap).

A card is an int 0–51: ``rank * 4 + suit``, rank 0 = two … 12 = ace, suit 0–3 = clubs,
diamonds, hearts, spades. Its code is rank then suit: ``"TD"`` (ten of diamonds), ``"AS"``.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
DECK = tuple(range(52))


def rank(card: int) -> int:
    """Rank index 0 (two) … 12 (ace) of ``card`` (int 0–51)."""
    return card // 4


def rank_order(card: int, aces: str = "high") -> int:
    """Where ``card``'s rank sits in the order used for higher/lower and inside/outside: 0 (lowest)
    … 12 (highest). ``aces="high"`` (RTB-SETUP-DECK): the rank index, 2 lowest, A highest;
    ``aces="low"`` (RTB-HR-ACES): A is 0, below 2, and K is 12. Never wraps."""
    if aces == "low":
        return (card // 4 + 1) % 13
    return card // 4


def suit(card: int) -> int:
    """Suit index 0–3 (clubs, diamonds, hearts, spades) of ``card``."""
    return card % 4


def is_red(card: int) -> bool:
    """True for diamonds and hearts."""
    return card % 4 in (1, 2)


def card_code(card: int) -> str:
    """Two-letter code, e.g. ``card_code(23) == "7S"``."""
    return RANKS[card // 4] + SUITS[card % 4]


def card_name(card: int) -> str:
    """Words, e.g. ``"seven of spades"``."""
    return f"{RANK_NAMES[card // 4]} of {SUIT_NAMES[card % 4]}"


def card_label(card: int) -> str:
    """Rank and suit symbol, e.g. ``"7♠"`` (the symbol, not colour, tells the suit)."""
    return ("10" if RANKS[card // 4] == "T" else RANKS[card // 4]) + SUIT_SYMBOLS[card % 4]


#: Suit symbols (filled and outline) read as the suit letters of a code.
SYMBOL_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}


def parse_card(code: str) -> int:
    """The card of a code such as ``"TD"``, ``"10d"``, ``"as"`` or ``"10♦"``.

    Raises:
        ValueError: not a card code (the message shows the format).
    """
    text = code.strip().upper()
    if text[-1:] in SYMBOL_SUITS:
        text = text[:-1] + SYMBOL_SUITS[text[-1]]
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(
            f"{code!r} is not a card code: use rank 2-9, T, J, Q, K, A then suit C, D, H, S or its symbol (e.g. 'TD')"
        )
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])
