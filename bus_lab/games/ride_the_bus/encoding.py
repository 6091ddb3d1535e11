"""Ride the Bus for search and learning libraries: dense actions, a length bound, observations.

* Decision actions: the ten guesses (:data:`.moves.ANSWERS`) and "give to seat k" for every seat
  of the table (none at a one-seat gauntlet). Chance outcomes: the 52 cards.
* :func:`max_game_length`: a bound on the actions of a whole game, from the rules.
* :func:`layout` / :func:`encode`: the observation vector of ``view(seat)``. Every card on the
  table in Ride the Bus is face up (hands are rows of open cards), so the view hides only the
  order of the draw pile, which the vector never sees.
"""

from __future__ import annotations

from bus_lab.games.ride_the_bus import cards as C
from bus_lab.games.ride_the_bus import moves as M
from bus_lab.games.ride_the_bus.phases import Part
from bus_lab.games.tensors import Layout

#: Cards in the deck.
DECK = M.DECK_SIZE
#: The most guesses on the bus before it ends anyway (RTB-B-END, RTB-QB-END).
MAX_BUS_GUESSES = 40
#: Rides per seat in the gauntlet (RTB-SG-RIDES).
RIDES_EACH = 10
#: Spots of the Give & Take board (RTB-GT-LAYOUT) and cards of the pyramid (RTB-P-LAYOUT).
GIVE_TAKE_SPOTS = 8
PYRAMID_CARDS = 10
PARTS = tuple(p.value for p in Part)


def decision_actions(game) -> list[int]:
    """The guesses, then a give to each seat (sorted: guesses are 100-109, gives 200+)."""
    guesses = [M.guess_action(answer) for answer in M.ANSWERS]
    gives = [M.give_action(k) for k in range(game.num_players)] if game.num_players > 1 else []
    return sorted(guesses + gives)


def chance_actions(game) -> list[int]:
    """The 52 cards (RTB-SETUP-DECK)."""
    return sorted(C.parse_card(C.card_code(card)) for card in range(DECK))


def max_game_length(game) -> int:
    """A bound on the actions (decisions and draws) of a whole game, from the rules.

    With ``n`` seats:

    * Part 1 (RTB-Q1 … RTB-Q4): each seat answers four questions; an answer is a guess and a draw,
      and a right answer at a table of two or more is followed by one give: at most ``3`` actions
      per question, ``12 n`` (``8`` for a lone gauntlet rider, who never gives).
    * The pyramid (RTB-P-LAYOUT, RTB-P-GIVE): ten flips; each card of a row matched is one give,
      and the rows hold ``4 n`` cards in all: ``10 + 4 n``.
    * The Give & Take board (RTB-GT-*): a spot is flipped again while nobody holds the card's rank
      (RTB-GT-REFLIP), but only while some card of the draw and discard piles could match: a
      matching card is met before the draw pile (at most 52 cards) runs out, or after one reshuffle
      before the reshuffled pile (at most 52) runs out, so a spot takes at most ``104`` flips; eight
      spots, plus one give per matched row card: ``8 * 104 + 4 n``.
    * Played cards that stay in their rows (RTB-HR-STAY): a row card can be played again on every
      flip of its rank, but a flip's rank has at most 3 other cards, so each flip or spot makes at
      most 3 gives: ``4 n`` becomes ``3 * 10`` on the pyramid and ``3 * 8`` on the Give & Take board.
    * The bus (RTB-B-END, RTB-QB-END): at most 40 guesses, each a guess and a draw, plus the first
      card of the higher/lower bus: ``81``.
    * The gauntlet (RTB-SG-RIDES, RTB-SG-WIN): ``10 n`` rides; a ride is at most ``streak − 1``
      hits and a miss (a streak of ``streak`` hits wins and ends the game), each hit or miss a
      guess and a draw, after the first card: ``1 + 2 * 10 n * streak``.
    """
    n = game.num_players
    part1 = 4 * (3 if n > 1 else 2) * n
    if game.params["mode"] == "gauntlet":
        return part1 + 1 + 2 * RIDES_EACH * n * game.params["streak"]
    stay = game.params.get("played_cards") == "stay"
    if game.params["board"] == "give_and_take":
        part2 = GIVE_TAKE_SPOTS * 2 * DECK + (3 * GIVE_TAKE_SPOTS if stay else 4 * n)
    else:
        part2 = PYRAMID_CARDS + (3 * PYRAMID_CARDS if stay else 4 * n)
    bus = 2 * MAX_BUS_GUESSES + (1 if game.params["bus"] == "higher_lower" else 0)
    return part1 + part2 + bus


def layout(game) -> Layout:
    """The observation fields for a table of ``n`` seats (cards are indexed 0-51 as the card
    actions are: ``rank * 4 + suit``, ranks 2 … A, suits C, D, H, S)."""
    n = game.num_players
    return (
        Layout()
        .add("viewer", n, "1 at the seat whose view this is (all 0 for the spectator)")
        .add("to_move", n + 2, "1 at the seat to act; position n: a card is to be drawn; n+1: game over")
        .add("part", len(PARTS), "1 at the part of the game: " + ", ".join(PARTS))
        .add("points", n, "each seat's points so far (lowest total wins, RTB-SCORE-LOW)")
        .add("rows", n * DECK, "for each seat in turn, 52 entries: 1 for each card in its row")
        .add("question", 4, "1 at the Part 1 question being asked (1-4), all 0 outside Part 1")
        .add("pending_guess", len(M.ANSWERS), "1 at the guess waiting for its card: " + ", ".join(M.ANSWERS))
        .add("gives", n, "points each seat still has to hand out (RTB-Q-RIGHT, RTB-P-GIVE, RTB-GT-GIVE)")
        .add("board", DECK, "for each card, how often it lies face up on the pyramid or a Give & Take spot")
        .add("board_position", GIVE_TAKE_SPOTS + PYRAMID_CARDS, "1 at the pyramid card or spot in play")
        .add("rider", n, "1 at the seat on the bus (or riding the gauntlet)")
        .add("card_to_beat", DECK, "1 at the bus card to beat (higher/lower bus and gauntlet)")
        .add("run", DECK, "1 for each card of the questions bus's run so far")
        .add("bus", 4, "the bus: streak, best streak, target streak, guesses made (of 40)")
        .add("gauntlet", 2 + n, "gauntlet: ride number, total rides, then each seat's best streak")
        .add("discard", DECK, "1 for each card on the discard pile")
        .add("draw_pile", 1, "cards left in the draw pile (their order is hidden)")
    )


def _card(code: str) -> int:
    return C.parse_card(code)


def encode(view: dict, game) -> object:
    """The observation vector of ``view`` (a ``view(seat)`` of this game)."""
    n = game.num_players
    v = layout_of(game).vector()
    v.one_hot("viewer", view["viewer"])
    to_move = view["to_move"]
    v.one_hot("to_move", to_move if to_move >= 0 else (n if to_move == -1 else n + 1))
    v.choice("part", view["phase"], PARTS)
    v.put("points", view["points"])
    for seat, row in enumerate(view["rows"]):
        v.count("rows", map(_card, row), at=seat * DECK)
    if view["question"] is not None:
        v.one_hot("question", view["question"]["number"] - 1)
    v.choice("pending_guess", view["pending_guess"], M.ANSWERS)
    owed = [0] * n
    for give in view["gives"]:
        owed[give["giver"]] += give["points"]
    v.put("gives", owed)
    board = [p["card"] for p in view["pyramid"] if p["card"]] + [c for s in view["spots"] for c in s["cards"]]
    v.count("board", map(_card, board))
    for i, spot in enumerate(view["spots"]):
        if spot["current"]:
            v.one_hot("board_position", i)
    for i, card in enumerate(view["pyramid"]):
        if card["current"]:
            v.one_hot("board_position", GIVE_TAKE_SPOTS + i)
    bus = view["bus"]
    v.one_hot("rider", bus["rider"])
    if bus["card_to_beat"] is not None:
        v.one_hot("card_to_beat", _card(bus["card_to_beat"]))
    v.count("run", map(_card, bus["run"]))
    v.put("bus", [bus["streak"], bus["best_streak"], bus["target"], bus["guesses"]])
    if view["gauntlet"] is not None:
        g = view["gauntlet"]
        v.put("gauntlet", [g["ride"], g["total_rides"], *g["best"]])
    v.count("discard", map(_card, view["discard"]))
    v.put("draw_pile", view["draw_pile"])
    return v.done()


def layout_of(game) -> Layout:
    """The game's layout (made once per game)."""
    return game.observation_layout()
