"""The sentences of Ride the Bus events, made from each event's rule and data.

The rules record facts only (``state._log(rule, **data)``); :func:`narrate` turns an event into the
sentence shown in logs, by the rule ID. Sentences name a card the way the board draws it, rank and
suit symbol (``"10♦"``, :func:`.cards.card_label`), while ``Event.data`` keeps card codes (``"TD"``).

Where one rule has several sentences, the data tells them apart (the keys that the sentence needs
are present, or a flag such as ``source``, ``early`` or ``got_off``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bus_lab.engine.events import Event
from bus_lab.engine.words import points_text
from bus_lab.games.ride_the_bus import cards as C
from bus_lab.games.ride_the_bus.moves import QUESTIONS

Data = dict[str, Any]


def seat_name(seat: int) -> str:
    """``"Seat 2"``: how players are named in events and views (seats are numbered from 0)."""
    return f"Seat {seat}"


def _s(k: int) -> str:
    return "s" if k > 1 else ""


def _label(code: str) -> str:
    return C.card_label(C.parse_card(code))


def _names(codes: list[str]) -> str:
    return ", ".join(_label(c) for c in codes)


def _seats(seats: list[int]) -> str:
    return " and ".join(seat_name(s) for s in seats)


# -- setup and scoring -------------------------------------------------------------------------
def _setup_deck(d: Data) -> str:
    if d.get("aces") == "low":
        return "One standard 52-card deck is shuffled; aces are low (A lowest, K highest)."
    return "One standard 52-card deck is shuffled; aces are high (2 lowest, A highest)."


def _setup_players(d: Data) -> str:
    n = d["players"]
    seats = (
        "one player sits at seat 0"
        if n == 1
        else f"{n} players sit at seats 0 to {n - 1}; play goes in seat order"
    )
    return f"{seats[0].upper()}{seats[1:]}."


def _score_low(d: Data) -> str:
    if "points" not in d:
        return "Points are bad: every part adds to one running total, and the lowest total wins."
    scores = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(d["points"]))
    return f"Final points: {scores}. Lowest total wins."


def _score_tie(d: Data) -> str:
    winners, best = d["winners"], d["points"]
    if len(winners) > 1:
        return f"{_seats(winners)} tie on {best} points and share the win."
    return f"{seat_name(winners[0])} wins alone with {points_text(best)}."


def _deck_empty(d: Data) -> str:
    run = d["run"]
    if run:  # questions bus: the current run is never reshuffled
        kept = f"cards in rows and the {run} card{_s(run)} of the current run"
    elif d["card_to_beat"] is not None:
        kept = "cards in rows and the card to beat"
    else:
        kept = "cards in rows"
    return (
        f"The draw pile is empty: the {d['cards']} discarded cards are shuffled into "
        f"a new draw pile ({kept} stay where they are)."
    )


def _discard(d: Data) -> str:
    source, codes = d["source"], d["cards"]
    if source == "pyramid":
        return f"The flipped {_label(codes[0])} goes to the discard pile."
    if source == "spot":
        return f"The spot's {_label(codes[0])} goes to the discard pile."
    if source == "bus":
        return f"{_label(codes[0])} is no longer needed and goes to the discard pile."
    return f"{_names(codes)} go{'es' if len(codes) == 1 else ''} to the discard pile."


def _give(d: Data) -> str:
    points = d["points"]
    return f"{seat_name(d['giver'])} gives {points} point{_s(points)} to {seat_name(d['taker'])}."


# -- Part 1 --------------------------------------------------------------------------------------
def _question(d: Data) -> str:
    q = QUESTIONS[d["question"] - 1]
    points = d["points"]
    return (
        f"{seat_name(d['seat'])} answers Q{q.number} ({q.text}): {d['guess']}, "
        f"{points} point{_s(points)} at stake."
    )


def _q_order(d: Data) -> str:
    return f"{_label(d['card'])} is dealt face up into {seat_name(d['seat'])}'s row."


def _q_right(d: Data) -> str:
    if "taker" in d:
        return _give(d)
    if "points" in d:
        points = d["points"]
        return f"Right! {seat_name(d['seat'])} hands {points} point{_s(points)} to another player."
    return f"Right! {seat_name(d['seat'])} plays alone and loses nothing."


def _q_wrong(d: Data) -> str:
    points = d["points"]
    return f"Wrong: {seat_name(d['seat'])} takes {points} point{_s(points)}."


# -- Part 2: the pyramid -------------------------------------------------------------------------
def _p_layout(d: Data) -> str:
    return (
        "Part 2: ten cards lie face down in a pyramid of rows of 4, 3, 2 and 1. "
        "Each is turned up from the top of the deck when its turn comes."
    )


def _p_flip(d: Data) -> str:
    text = f"Pyramid card {d['index'] + 1} of 10 (row {d['row']}) is flipped: {_label(d['card'])}."
    if d.get("order") == "RTB-HR-FLIP":
        return text[:-1] + " (house rule: the top row first)."
    return text


def _p_match(d: Data) -> str:
    return f"{seat_name(d['seat'])} matches and plays {_names(d['cards'])}."


def _p_points(d: Data) -> str:
    worth = d["points"]
    return (
        f"Each card played on row {d['row']} is worth {worth} point"
        f"{_s(worth)}; its player picks who takes them."
    )


def _p_nomatch(d: Data) -> str:
    name = d["rank"]
    return f"Nobody holds {'an' if name[0] in 'aeiou' else 'a'} {name}: on to the next card."


# -- Part 2: the Give & Take board -------------------------------------------------------------
def _gt_layout(d: Data) -> str:
    if "card" not in d:
        return (
            "Part 2 on the Give & Take board: eight spots in four rows, a Give spot then a "
            "Take spot; each spot's card comes from the top of the deck when its turn comes."
        )
    again = " again" if d["again"] else ""
    return f"The {d['kind'].capitalize()} spot of row {d['row']} is flipped{again}: {_label(d['card'])}."


def _gt_give(d: Data) -> str:
    if "taker" in d:
        return _give(d)
    return f"{seat_name(d['seat'])} plays {_names(d['cards'])} and picks who takes the points."


def _gt_take(d: Data) -> str:
    points = d["points"]
    return f"{seat_name(d['seat'])} plays {_names(d['cards'])} and takes {points} point{_s(points)}."


def _gt_points(d: Data) -> str:
    worth = d["points"]
    return f"Row {d['row']} is worth {worth} point{_s(worth)} per card played."


def _gt_reflip(d: Data) -> str:
    label = _label(d["card"])
    if d["ends"]:
        return (
            f"Nobody holds {label}'s rank, and no card left in the draw or "
            f"discard pile matches a card in anyone's row: Part 2 ends."
        )
    return f"Nobody holds {label}'s rank: it goes to the discard pile and the spot is flipped again."


def _gt_end(d: Data) -> str:
    if not d["early"]:
        return "The eighth spot is done: Part 2 ends."
    return f"{'Only one player still has' if d['holders'] else 'Nobody still has'} cards: Part 2 ends early."


# -- Part 3: the bus -----------------------------------------------------------------------------
def _b_rider(d: Data) -> str:
    rider = d["rider"]
    return (
        f"{seat_name(rider)} holds the most cards ({d['cards'][rider]}) "
        f"and rides the bus (ties: more points, then the earlier seat)."
    )


def _b_flip(d: Data) -> str:
    return f"The bus starts: {_label(d['card'])} is flipped face up."


def _b_guess(d: Data) -> str:
    return (
        f"{seat_name(d['rider'])} calls {d['guess']} than {_label(d['card_to_beat'])} "
        f"(guess {d['number']} of {d['max_guesses']})."
    )


def _b_streak(d: Data) -> str:
    label = _label(d["card"])
    if d["hit"]:
        return f"{label}: a hit, streak {d['streak']} of {d['target']}."
    return f"{label}: a miss; {seat_name(d['rider'])} takes 1 point and the streak goes back to 0."


def _b_end(d: Data) -> str:
    if d["got_off"]:
        return f"{d['target']} hits in a row: {seat_name(d['rider'])} gets off the bus."
    return f"{d['guesses']} guesses made: the bus stops."


# -- Part 3: the questions bus -------------------------------------------------------------------
def _qb_order(d: Data) -> str:
    if "hit" in d:
        return f"{_label(d['card'])}: right on Q{d['question']}."
    if "guess" in d:
        return _qb_answer(d)
    return (
        f"The questions bus: {seat_name(d['rider'])} answers the four questions again, "
        f"each on a new card; there is no starting card."
    )


def _qb_answer(d: Data) -> str:
    q = QUESTIONS[d["question"] - 1]
    against = ""
    if d["against"]:
        against = " (against " + " and ".join(_label(c) for c in d["against"]) + ")"
    return (
        f"{seat_name(d['rider'])} answers Q{q.number} ({q.text}) on the bus: "
        f"{d['guess']}{against}, guess {d['number']} of {d['max_guesses']}."
    )


def _qb_miss(d: Data) -> str:
    return (
        f"{_label(d['card'])}: a miss on Q{d['question']}; {seat_name(d['rider'])} takes 1 point, "
        f"goes back to Q1, and the run ({_names(d['cards'])}) goes to the discard pile."
    )


def _qb_end(d: Data) -> str:
    if d["got_off"]:
        return f"All four answered right in a row: {seat_name(d['rider'])} gets off the bus."
    return f"{d['guesses']} guesses made: the bus stops."


# -- the solo gauntlet ---------------------------------------------------------------------------
def _sg_flow(d: Data) -> str:
    return "The gauntlet has no pyramid and no bus: the rides start straight after Part 1."


def _sg_questions(d: Data) -> str:
    return "Part 1 points only set the ride order."


def _sg_order(d: Data) -> str:
    order = ", ".join(f"{seat_name(s)} ({d['points'][s]})" for s in d["order"])
    return f"Ride order, most points first, ties to the earlier seat: {order}."


def _sg_rides(d: Data) -> str:
    return f"Each player gets {d['rides']} rides; {d['target']} hits in a row wins on the spot."


def _sg_ride(d: Data) -> str:
    if "guess" in d:
        return (
            f"{seat_name(d['rider'])} calls {d['guess']} than {_label(d['card_to_beat'])} "
            f"(ride {d['ride']} of {d['total_rides']}, streak {d['streak']})."
        )
    label = _label(d["card"])
    if "hit" not in d:
        return f"The first ride starts: {label} is flipped face up."
    if d["hit"]:
        return f"{label}: a hit, streak {d['streak']}."
    return (
        f"{label}: a miss ends {seat_name(d['rider'])}'s ride {d['ride']} of {d['total_rides']} "
        f"(streak {d['streak']}); {label} is the card to beat for the next ride."
    )


def _sg_win(d: Data) -> str:
    if "card" in d:
        return f"{_label(d['card'])}: {d['target']} hits in a row! {seat_name(d['rider'])} wins on the spot."
    if "winners" in d:
        return (
            f"Nobody made {d['target']} in a row; the longest streak ({d['best']}) wins: "
            f"{_seats(d['winners'])}."
        )
    return (
        f"All {d['rides']} rides are used without {d['target']} hits in a row: "
        f"the lone rider loses (best ride {d['best']})."
    )


#: The sentence of each rule ID, from the event's data.
# -- house rules -------------------------------------------------------------------------------
_HOUSE_WORDS = {
    ("ties", "win"): "a card of the same rank counts as right for higher or lower",
    ("inside", "inclusive"): "a card matching either of the first two ranks counts as inside",
    ("aces", "low"): "aces are low (A below 2, K highest)",
    ("pyramid_order", "top_down"): "the pyramid is flipped from the top card down",
    ("played_cards", "stay"): "played cards stay in their row and play again on every later match",
}


def _house_rule(d: Data) -> str:
    words = _HOUSE_WORDS[(d["option"], d["setting"])]
    if "guess" in d:
        outcome = "right" if d["right"] else "wrong"
        return f"House rule: {words}, so {d['guess']} is {outcome} with {_label(d['card'])}."
    if "seat" in d:
        return f"House rule: {_names(d['cards'])} stay{'s' if len(d['cards']) == 1 else ''} in {seat_name(d['seat'])}'s row."
    return f"House rule: {words}."


SENTENCES: dict[str, Callable[[Data], str]] = {
    "RTB-HR-TIES": _house_rule,
    "RTB-HR-INSIDE": _house_rule,
    "RTB-HR-ACES": _house_rule,
    "RTB-HR-FLIP": _house_rule,
    "RTB-HR-STAY": _house_rule,
    "RTB-SETUP-DECK": _setup_deck,
    "RTB-SETUP-PLAYERS": _setup_players,
    "RTB-SCORE-LOW": _score_low,
    "RTB-SCORE-TIE": _score_tie,
    "RTB-DECK-EMPTY": _deck_empty,
    "RTB-DISCARD": _discard,
    "RTB-Q1": _question,
    "RTB-Q2": _question,
    "RTB-Q3": _question,
    "RTB-Q4": _question,
    "RTB-Q-ORDER": _q_order,
    "RTB-Q-RIGHT": _q_right,
    "RTB-Q-WRONG": _q_wrong,
    "RTB-P-LAYOUT": _p_layout,
    "RTB-P-FLIP": _p_flip,
    "RTB-P-MATCH": _p_match,
    "RTB-P-POINTS": _p_points,
    "RTB-P-GIVE": _give,
    "RTB-P-NOMATCH": _p_nomatch,
    "RTB-GT-LAYOUT": _gt_layout,
    "RTB-GT-GIVE": _gt_give,
    "RTB-GT-TAKE": _gt_take,
    "RTB-GT-POINTS": _gt_points,
    "RTB-GT-REFLIP": _gt_reflip,
    "RTB-GT-END": _gt_end,
    "RTB-B-RIDER": _b_rider,
    "RTB-B-FLIP": _b_flip,
    "RTB-B-GUESS": _b_guess,
    "RTB-B-STREAK": _b_streak,
    "RTB-B-END": _b_end,
    "RTB-QB-ORDER": _qb_order,
    "RTB-QB-COMPARE": _qb_answer,
    "RTB-QB-MISS": _qb_miss,
    "RTB-QB-END": _qb_end,
    "RTB-SG-FLOW": _sg_flow,
    "RTB-SG-QUESTIONS": _sg_questions,
    "RTB-SG-ORDER": _sg_order,
    "RTB-SG-RIDES": _sg_rides,
    "RTB-SG-RIDE": _sg_ride,
    "RTB-SG-WIN": _sg_win,
}


def narrate(event: Event) -> str:
    """The sentence of a Ride the Bus event, from its rule and data.

    Raises:
        KeyError: no sentence is known for the event's rule.
    """
    return SENTENCES[event.rule](event.data)
