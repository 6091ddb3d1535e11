"""The sentences of BUS (the city grid game)'s events, made from each event's rule and data.

The rules (:mod:`.state`) record only facts: the rule ID and JSON-safe data (seat numbers, card
and slot names, counts). :func:`narrate` turns them into the sentence shown in the event log. A
rule that can happen in several ways has a ``"what"`` field saying which (``"pass"``,
``"refill"``...). Seats are named ``"Seat 0"``, ``"Seat 1"``... (:func:`seat_name`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bus_lab.engine.events import Event

__all__ = ["narrate", "seat_name", "plural", "NARRATORS"]

Data = dict[str, Any]


def seat_name(seat: int) -> str:
    """``"Seat 2"``: how players are named in events and views (seats are numbered from 0)."""
    return f"Seat {seat}"


def plural(k: int, word: str) -> str:
    """``"1 step"``, ``"3 steps"``."""
    return f"{k} {word}{'' if k == 1 else 's'}"


def _names(seats: list[int], last: str = " and ") -> str:
    return last.join(seat_name(s) for s in seats)


def _grid(d: Data) -> str:
    return (
        "The City Grid: four blocks in a 2x2 square; its 12 streets between 3x3 "
        "intersections (a1 to c3) each hold one street card."
    )


def _comp_streets(d: Data) -> str:
    return (
        f"Street cards ({d['sheet']}): {d['destination']} passenger "
        f"destinations, {d['stop']} bus stops, {d['site']} construction site and "
        f"{d['plain']} plain cards; each symbol is on one side of its street."
    )


def _comp_passengers(d: Data) -> str:
    return (
        f"{d['cards']} passenger cards, each with two "
        "passengers of different colours, a value and a speed limit."
    )


def _setup(d: Data) -> str:
    if d["what"] == "street":
        where = "" if d["symbol"] == "plain" else f", symbol on the {d['side']} side"
        return f"Street card {d['card']} ({d['describe']}) is laid on {d['slot']}{where}."
    sides = ", ".join(f"{seat_name(s)} the {side} side" for s, side in enumerate(d["sides"]))
    return (
        f"{d['players']} players. The street cards are shuffled into the grid with random "
        f"orientations, the passenger cards into a deck with 2 turned face up; progress areas: {sides}."
    )


def _ch_side(d: Data) -> str:
    what = d["what"]
    if what == "rules":
        return "Challenging play: a symbol works only from its side of the street; buses drive on the right."
    if what == "no_dropoff":
        return (
            f"{seat_name(d['seat'])} passes the {d['colour']} destination on {d['slot']} "
            f"heading {d['heading']}, but it is on the other side of the street "
            f"({d['side']}): no drop-off."
        )
    if what == "dropoff":
        return f"The {d['colour']} destination is on the bus's right-hand side ({d['side']}), so it counts."
    if what == "stop":
        return f"The bus stop on {d['slot']} is on the other side of the street: no pick-up from here."
    return (
        f"The construction site on {d['slot']} is on the other side of the "
        "street: it cannot be used from here."
    )


def _faceup(d: Data) -> str:
    if d["what"] == "refill":
        return "The face-up cards are refilled at once from the deck."
    return (
        f"{d['card']} (value {d['value']}, speed {d['speed']}) is turned face up; "
        f"{plural(d['deck'], 'card')} left in the deck."
    )


def _take(d: Data) -> str:
    how = "draws blind from the deck" if d["blind"] else "takes the face-up card"
    return (
        f"{seat_name(d['seat'])} {how}: {d['card']} ({' and '.join(d['colours'])} passengers, "
        f"value {d['value']}, speed {d['speed']}) goes to Picked Up "
        f"({plural(d['in_progress'], 'card')} in progress)."
    )


def _start(d: Data) -> str:
    if d["what"] == "take":
        return _take(d)
    others = d["sharing"]
    share = f" (sharing it with {_names(others)})" if others else ""
    return (
        f"{seat_name(d['seat'])} places the bus on the bus stop {d['slot']}, heading {d['heading']}{share}."
    )


def _pickup(d: Data) -> str:
    what = d["what"]
    if what == "take":
        return _take(d)
    if what == "empty":
        return "No passenger card is left to take."
    if what == "full":
        return (
            f"{seat_name(d['seat'])} ends on the bus stop {d['slot']} but already has "
            f"{d['max']} cards in progress: a fourth cannot be taken."
        )
    return (
        f"{seat_name(d['seat'])} ends on the bus stop {d['slot']}, but the deck and the "
        "face-up cards are gone: nothing to pick up."
    )


def _one_action(d: Data) -> str:
    who = seat_name(d["seat"])
    what = d["what"]
    if what == "no_pickup":
        return f"{who} takes no passenger card (picking up is optional)."
    if what == "at_stop":
        return f"{who} ends on the bus stop {d['slot']} and may pick up one passenger card (or pass)."
    if what == "at_site":
        return f"{who} ends on the construction site and may use it (once per game) or pass."
    return f"{who} does not use the construction site."


def _turn(d: Data) -> str:
    return f"Round {d['round']}: {seat_name(d['seat'])}'s turn; the bus must move."


def _speed(d: Data) -> str:
    if d["speeds"]:
        speeds = ", ".join(str(s) for s in d["speeds"])
        text = f"speed limit {d['limit']} (the lowest of {speeds}) for this whole turn"
    elif d["limit"] is None:
        text = "no card in progress, so no speed limit"
    else:
        text = f"no card in progress: the empty-bus limit of {d['limit']} applies"
    return f"{seat_name(d['seat'])}: {text}."


def _move(d: Data) -> str:
    route = d["route"]
    limit = "no limit" if d["limit"] is None else f"limit {d['limit']}"
    return (
        f"{seat_name(d['seat'])} drives {plural(len(route), 'step')} ({limit}) from "
        f"{d['start']}: {' → '.join(route)}."
    )


def _move_end(d: Data) -> str:
    return (
        f"{seat_name(d['seat'])} passes its starting card {d['slot']}; "
        "that is allowed as long as the move does not end there."
    )


def _dropoff(d: Data) -> str:
    return f"{seat_name(d['seat'])} drops off the {d['colour']} passenger of {d['card']} at {d['slot']}."


def _progress(d: Data) -> str:
    return (
        f"{d['card']} is complete: both passengers delivered; it lies face down "
        f"(worth {d['value']}) and stops limiting {seat_name(d['seat'])}'s speed from the next turn. "
        f"{plural(d['complete'], 'complete card')}."
    )


def _construction(d: Data) -> str:
    who = seat_name(d["seat"])
    what = d["what"]
    if what == "site_used":
        return f"{who} ends on the construction site but has used it already (once per game)."
    if what == "flip":
        return (
            f"{who} flips the bus card to its used side, heading kept: the "
            "construction site is used for this game."
        )
    a, b = d["slots"]
    card_a, card_b = d["cards"]
    if d["sides"] is None:
        how = "each keeps its orientation"
    else:
        how = f"symbols now on the {d['sides'][0]} and {d['sides'][1]} sides"
    return f"{who} swaps the street cards of {a} and {b}: {card_a} to {a}, {card_b} to {b} ({how})."


def _rotate(d: Data) -> str:
    if d["what"] == "swap_sides":
        return "In challenging play a swap may also change the cards' orientations."
    return (
        f"{seat_name(d['seat'])} turns {d['card']} on {d['slot']} by 180°: "
        f"its symbol moves to the {d['side']} side."
    )


def _end(d: Data) -> str:
    what = d["what"]
    if what == "ends":
        return "Every player has taken the last turn: the game ends."
    who, done = seat_name(d["seat"]), plural(d["complete"], "complete card")
    if what == "no_second":
        return f"{who} also has {done}, but the end is already triggered: no second trigger."
    order = ", ".join(seat_name(s) for s in d["order"])
    return f"{who} has {done}: the end is triggered. Everyone takes one more turn: {order}."


def _end_cap(d: Data) -> str:
    if d["what"] == "rounds":
        return (
            f"No end was triggered in {plural(d['max_rounds'], 'round')}: the game ends after "
            "this round and is scored."
        )
    return (
        "The passenger cards are all taken and nobody has a card in progress: "
        "nothing can change, so the game ends after this round and is scored."
    )


def _score(d: Data) -> str:
    values = " + ".join(str(v) for v in d["values"]) or "nothing"
    return (
        f"{seat_name(d['seat'])}: {plural(len(d['values']), 'complete card')} score {values} = "
        f"{d['points']} points; cards still in progress score nothing."
    )


def _win(d: Data) -> str:
    winners, tied, best = d["winners"], d["tied"], d["best"]
    names = _names(winners)
    if len(tied) == 1:
        return f"{names} wins with {plural(best, 'point')}."
    if len(winners) == 1:
        return (
            f"{_names(tied)} tie on {best} points; {names} has the most complete "
            f"cards ({d['complete'][winners[0]]}) and wins."
        )
    names = ", ".join(seat_name(s) for s in winners[:-1]) + f" and {seat_name(winners[-1])}"
    return f"{names} tie on {best} points and on complete cards: they share the win."


#: The sentence maker of each rule ID.
NARRATORS: dict[str, Callable[[Data], str]] = {
    "BUS-GRID": _grid,
    "BUS-COMP-STREETS": _comp_streets,
    "BUS-COMP-PASSENGERS": _comp_passengers,
    "BUS-SETUP": _setup,
    "BUS-CH-SIDE": _ch_side,
    "BUS-FACEUP": _faceup,
    "BUS-START": _start,
    "BUS-PICKUP": _pickup,
    "BUS-ONE-ACTION": _one_action,
    "BUS-TURN": _turn,
    "BUS-SPEED": _speed,
    "BUS-MOVE": _move,
    "BUS-MOVE-END": _move_end,
    "BUS-DROPOFF": _dropoff,
    "BUS-PROGRESS": _progress,
    "BUS-CONSTRUCTION": _construction,
    "BUS-CH-ROTATE": _rotate,
    "BUS-END": _end,
    "BUS-END-CAP": _end_cap,
    "BUS-SCORE": _score,
    "BUS-WIN": _win,
}


def narrate(event: Event) -> str:
    """The sentence of a BUS event, from its rule ID and data."""
    return NARRATORS[event.rule](event.data)
