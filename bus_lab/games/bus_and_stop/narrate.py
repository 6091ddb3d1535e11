"""The sentences of Bus & Stop's events, made from each event's rule ID and data.

The rules (:mod:`bus_lab.games.bus_and_stop.state`) record facts only (``state._log(rule, **data)``);
:func:`narrate` (the state's ``NARRATE``) turns an event into its sentence when it is first read,
with one function per rule ID in :data:`NARRATORS`. A rule that is told in several ways (a turn
offered, a pass, the order of the final round...) says which in its data, under ``"what"`` or by the
keys it carries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bus_lab.engine.events import Event
from bus_lab.games.bus_and_stop.components import BUS_SEATS, STOP_SIZE

__all__ = ["narrate", "NARRATORS", "seat_name", "plural", "place"]


def seat_name(seat: int) -> str:
    """``"Seat 2"``: how players are named in events and views (seats are numbered from 0)."""
    return f"Seat {seat}"


def plural(k: int, word: str, many: str | None = None) -> str:
    """``"1 point"``, ``"3 points"``."""
    return f"{k} {word if k == 1 else (many or word + 's')}"


def place(name: str, multicoloured: bool) -> str:
    """How a destination reads after "the": ``"office"``, ``"multicoloured destination"``."""
    return f"{name} destination" if multicoloured else name


def _passengers(d: dict[str, Any]) -> str:
    return (
        f"{d['cards']} passenger cards in {len(d['colours'])} colours ({', '.join(d['colours'])}) "
        f"and {len(d['types'])} types ({', '.join(d['types'])})."
    )


def _destinations(d: dict[str, Any]) -> str:
    return (
        f"{d['cards']} destination cards in {len(d['stacks'])} stacks: "
        + ", ".join(f"{s['name']} ({s['cards']})" for s in d["stacks"])
        + "."
    )


def _sides(d: dict[str, Any]) -> str:
    return (
        "Each destination card lists the passenger counts it accepts and the points "
        "for each count (figures from the component sheet)."
    )


def _stacks(d: dict[str, Any]) -> str:
    return "The destination cards are stacked by kind, face up; only a stack's top card can be claimed."


def _order(d: dict[str, Any]) -> str:
    tops = "; ".join(f"{t['stack']} {t['card']}" for t in d["tops"])
    return f"Each stack is ordered with its highest values on top: {tops}."


def _setup_stop(d: dict[str, Any]) -> str:
    if "card" in d:
        return f"{d['card']} ({d['name']}) is dealt to the bus stop ({d['at_stop']} of {STOP_SIZE})."
    n = d["players"]
    return (
        f"The passenger deck is shuffled and {STOP_SIZE} cards are dealt face up: the "
        f"bus stop. {n} players, seats 0 to {n - 1}."
    )


def _setup_same_colour(d: dict[str, Any]) -> str:
    if "deal" in d:
        return (
            f"All {STOP_SIZE} passengers at the stop are {d['colour']}: they go back "
            f"into the deck, which is reshuffled, and {STOP_SIZE} are dealt again (deal "
            f"{d['deal']})."
        )
    return f"All {STOP_SIZE} are {d['colour']} again, after {d['reshuffles']} reshuffles: play starts anyway."


def _first(d: dict[str, Any]) -> str:
    return "Seat 0 starts (the player who most recently rode a bus); play goes in seat order."


def _turn(d: dict[str, Any]) -> str:
    return f"{seat_name(d['seat'])}'s turn {d['turn']}: pick up one colour or drop off."


def _final(d: dict[str, Any]) -> str:
    what = d["what"]
    if what == "order":
        order = ", ".join(seat_name(s) for s in d["order"])
        return f"Final round, in seat order after the trigger: {order}. Skedaddling still applies."
    who = seat_name(d["seat"])
    if what == "passes":
        return f"{who} passes the final turn."
    if what == "no_move":
        move = "pick-up or drop-off" if d["full_turn"] else "drop-off"
        return f"{who} has no legal {move} and passes."
    move = "one final turn (pick up or drop off)" if d["full_turn"] else "one final drop-off"
    return f"{who} may take {move}, or pass."


def _unhappy(d: dict[str, Any]) -> str:
    who = seat_name(d["seat"])
    what = d["what"]
    if what == "must":
        return (
            f"{who} can neither pick up (no colour fits in the bus) nor drop off: "
            f"{who} must discard one or more passengers as unhappy (-1 each)."
        )
    if what == "discard":
        return f"{who} discards {d['card']} ({d['name']}) face up as an unhappy passenger (-1)."
    if what == "stop":
        return f"{who} stops discarding; the turn is over."
    return f"{who}'s bus is empty; the turn is over."


def _pick_all(d: dict[str, Any]) -> str:
    return (
        f"{seat_name(d['seat'])} picks up every {d['colour']} passenger at the stop: {' '.join(d['cards'])}."
    )


def _pick_limit(d: dict[str, Any]) -> str:
    riders = d["boarded"]
    return (
        f"{plural(riders, 'passenger')} board{'s' if riders == 1 else ''}: "
        f"{d['seats']} of {BUS_SEATS} seats taken."
    )


def _senior(d: dict[str, Any]) -> str:
    return (
        f"{d['card']} is a senior: not in the bus but face down beside it "
        f"(1 point at the end); {seat_name(d['seat'])} has {plural(d['seniors'], 'senior')}."
    )


def _senior_cap(d: dict[str, Any]) -> str:
    return (
        f"{seat_name(d['seat'])} already holds {d['cap']} seniors: {d['card']} leaves the "
        f"game and scores nothing."
    )


def _refill(d: dict[str, Any]) -> str:
    if "card" in d:
        return (
            f"{d['card']} ({d['name']}) refills the stop "
            f"({d['at_stop']} of {STOP_SIZE}; {d['deck']} left in the deck)."
        )
    return f"The deck is empty: the stop stays short with {plural(d['stop'], 'card')}."


def _refill_same_colour(d: dict[str, Any]) -> str:
    if d["redeal"]:
        return (
            f"All {STOP_SIZE} passengers at the stop are {d['colour']}: they go back "
            f"into the deck, which is reshuffled, and {STOP_SIZE} are dealt again (once)."
        )
    return f"All {STOP_SIZE} are {d['colour']} again: play goes on."


def _drop_top(d: dict[str, Any]) -> str:
    count = d["count"]
    return (
        f"{seat_name(d['seat'])} drops off {count} at the {place(d['stack'], d['multicoloured'])}: "
        f"its top card takes {d['card']} points, so {count} pay{'s' if count == 1 else ''} "
        f"{d['points']}."
    )


def _drop_passenger(d: dict[str, Any]) -> str:
    return (
        f"{seat_name(d['seat'])} drops {d['card']} ({d['name']})"
        f"{' (the only choice)' if d['forced'] else ''}; {d['left']} more to choose."
    )


def _claim(d: dict[str, Any]) -> str:
    return (
        f"{seat_name(d['seat'])} lays {' '.join(d['cards'])} face up and takes the "
        f"{place(d['stack'], d['multicoloured'])} card turned to "
        f"{d['count']}: {plural(d['points'], 'point')}."
    )


def _trigger(d: dict[str, Any]) -> str:
    return (
        f"The end is triggered by {seat_name(d['seat'])}: {d['reason']}. That turn is over; "
        "a final round follows."
    )


def _match(d: dict[str, Any]) -> str:
    if d["type"] is not None:
        return f"a {d['type']}"
    names = d["colours"]
    either = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f"a {either} passenger (a colour just dropped)"


def _skedaddle(d: dict[str, Any]) -> str:
    who = seat_name(d["seat"])
    if "skedaddled" in d:
        if d["skedaddled"] is None:
            return f"{who} does not skedaddle."
        return f"{who} skedaddles {d['skedaddled']} ({d['name']}): face down by the bus, 1 point."
    if d.get("offered", True):
        return f"{who} may skedaddle {_match(d)} after {seat_name(d['dropper'])}'s drop-off."
    return f"{who} has no passenger that could skedaddle ({_match(d)})."


def _score_dest(d: dict[str, Any]) -> str:
    return (
        f"{seat_name(d['seat'])}: {plural(d['destinations'], 'destination')} for "
        f"{plural(d['points'], 'point')}."
    )


def _score_senior(d: dict[str, Any]) -> str:
    return (
        f"{seat_name(d['seat'])}: {plural(d['seniors'], 'senior')} and {d['skedaddled']} skedaddled, +1 each."
    )


def _score_unhappy(d: dict[str, Any]) -> str:
    return f"{seat_name(d['seat'])}: {plural(d['passengers'], 'unhappy passenger')}, -1 each."


def _score_empty(d: dict[str, Any]) -> str:
    who = seat_name(d["seat"])
    if not d["left"]:
        return f"{who}'s bus is empty: +{d['points']}."
    return f"{who} has {plural(d['left'], 'passenger')} left in the bus: -1 each (leftover penalty)."


def _win(d: dict[str, Any]) -> str:
    scores, tied, winners, best = d["scores"], d["tied"], d["winners"], d["best"]
    text = ", ".join(f"{seat_name(s)} {p}" for s, p in enumerate(scores))
    if len(tied) == 1:
        return f"Final scores: {text}. {seat_name(tied[0])} wins with {plural(best, 'point')}."
    names = " and ".join(seat_name(s) for s in tied)
    extra = d["tie_break"]
    if len(winners) == 1:
        how = f"{seat_name(winners[0])} wins with the most seniors and skedaddled passengers ({extra})"
    else:
        how = (
            " and ".join(seat_name(s) for s in winners) + f" also tie on seniors and skedaddled ({extra}) "
            "and share the win"
        )
    return f"Final scores: {text}. {names} tie on {plural(best, 'point')}; {how}."


#: One sentence maker per rule ID: ``NARRATORS[event.rule](event.data) -> str``.
NARRATORS: dict[str, Callable[[dict[str, Any]], str]] = {
    "BAS-COMP-PASSENGERS": _passengers,
    "BAS-COMP-DESTINATIONS": _destinations,
    "BAS-COMP-SIDES": _sides,
    "BAS-SETUP-STACKS": _stacks,
    "BAS-SETUP-ORDER": _order,
    "BAS-SETUP-STOP": _setup_stop,
    "BAS-SETUP-SAMECOLOUR": _setup_same_colour,
    "BAS-SETUP-FIRST": _first,
    "BAS-TURN": _turn,
    "BAS-END-FINAL": _final,
    "BAS-UNHAPPY": _unhappy,
    "BAS-PICK-ALL": _pick_all,
    "BAS-PICK-LIMIT": _pick_limit,
    "BAS-SENIOR": _senior,
    "BAS-SENIOR-CAP": _senior_cap,
    "BAS-REFILL": _refill,
    "BAS-REFILL-SAMECOLOUR": _refill_same_colour,
    "BAS-DROP-TOP": _drop_top,
    "BAS-DROP-TYPE": _drop_passenger,
    "BAS-DROP-MULTI": _drop_passenger,
    "BAS-DROP-CLAIM": _claim,
    "BAS-END-TRIGGER": _trigger,
    "BAS-SKEDADDLE": _skedaddle,
    "BAS-SCORE-DEST": _score_dest,
    "BAS-SCORE-SENIOR": _score_senior,
    "BAS-SCORE-UNHAPPY": _score_unhappy,
    "BAS-SCORE-EMPTY": _score_empty,
    "BAS-WIN": _win,
}


def narrate(event: Event) -> str:
    """The sentence of a Bus & Stop event, from its rule ID and data."""
    return NARRATORS[event.rule](event.data)
