"""Busstop's event sentences, made from each event's rule and data (the rules hold no wording).

:func:`narrate` is the state's narrator (``BusstopState.NARRATE``): it looks the event's rule up in
:data:`SENTENCES` and builds the sentence from ``event.data`` alone. Several events share a rule
(the setup line and the in-game line of ``BSB-PROXY``, say); the data they carry tells them apart.

Passengers in the data: ``passenger`` is the code shown in views (``"Gi"``, ``"VGi"``, ``"ET"``, a
player tile ``"1/7"``); for a player tile ``whose`` (``"Seat 1's"``, ``"the proxy's"``) and
``sort`` (``"salaryman"``) say whose tile it is and which sort it counts as.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bus_lab.engine.events import Event
from bus_lab.games.busstop.components import (
    END_BONUS_REQUIREMENTS,
    KIND_CODES,
    KIND_NAMES,
    QUEUE_SPACES,
    ROUNDS,
    SORT_PLURALS,
    SORTS,
    VIP_BASE,
)

#: What is printed on each kind of passenger on the board and names it in the log: the sort's
#: letters, a VIP adds a star (``"Gi★"``), ``"ET"``.
KIND_LABELS = KIND_CODES[:VIP_BASE] + tuple(f"{c}★" for c in KIND_CODES[:VIP_BASE]) + ("ET",)
_KIND_OF_CODE = {code: k for k, code in enumerate(KIND_CODES)}
_PLURAL_OF_SORT = dict(zip(SORTS, SORT_PLURALS))

Data = dict[str, Any]


def zone_text(black: Sequence[Sequence[int]], white: Sequence[bool], conductor: int) -> str:
    """The zone's icons in words, e.g. ``"P1 q1+W, P2 q2,q3+W (conductor), P3 W"``; ``black``
    lists the queue slots (1-based) each position takes, ``conductor`` is the 0-based position."""
    parts = []
    for i, (slots, has_white) in enumerate(zip(black, white)):
        icons = ",".join(f"q{s}" for s in slots)
        icons = icons + ("+W" if has_white and icons else "W" if has_white else "")
        parts.append(f"P{i + 1} {icons}" + (" (conductor)" if i == conductor else ""))
    return ", ".join(parts)


def passenger_text(data: Data) -> str:
    """A passenger in words from ``passenger`` (and ``whose``/``sort`` for a tile): ``"a girl"``,
    ``"the VIP girl"``, ``"an ET"``, ``"Seat 1's tile 7 (salaryman)"``."""
    code = data["passenger"]
    if "/" in code:
        return f"{data['whose']} tile {code.split('/')[1]} ({data['sort']})"
    kind = _KIND_OF_CODE[code]
    if kind == len(KIND_CODES) - 1:
        return "an ET"
    if kind >= VIP_BASE:
        return f"the {KIND_NAMES[kind]}"
    return f"a {KIND_NAMES[kind]}"


def _names(names: Sequence[str]) -> str:
    return " and ".join(names)


# -- components and setup -------------------------------------------------------------------
def _passengers(d: Data) -> str:
    return (
        f"The stack: {d['passengers']} passengers, 8 of each of the 5 sorts, "
        "one VIP of each sort and 5 extra-terrestrials (ETs)."
    )


def _player_tiles(d: Data) -> str:
    tiles = ", ".join(f"{t} {sort}" for t, sort in enumerate(d["tile_sorts"], start=1))
    return f"Each colour has player tiles 1-10, also passengers: {tiles}."


def _board(d: Data) -> str:
    seats = d["seats"]
    return (
        f"Each board: bus 1 ({seats[0]} seats), bus 2 ({seats[1]} seats), a locked "
        f"third bus ({seats[2]} seats) and a queue of {d['queue_spaces']} spaces."
    )


def _zone(d: Data) -> str:
    return (
        f"Player-order zone for {d['positions']} positions: "
        f"{zone_text(d['black'], d['white'], d['conductor'])}."
    )


def _setup(d: Data) -> str:
    return f"The stack is shuffled face down; {', '.join(d['names'])} each take a board and tiles 1-10."


def _conductor_first(d: Data) -> str:
    return f"Seat {d['conductor']} (who rode a bus most recently) is the first conductor."


def _proxy(d: Data) -> str:
    if "tile" in d:
        return f"The proxy bus's face-down tile is its top tile: {d['tile']}."
    return (
        "Two players: the proxy bus plays a third board; its tiles are shuffled "
        "face down and it plays the top one each round."
    )


def _proxy_seat(d: Data) -> str:
    return "The proxy bus sits after seat 1: clockwise order is seat 0, seat 1, the proxy bus."


def _proxy_choices(d: Data) -> str:
    if d["round"] == 1:
        return (
            "The two players take turns making the proxy bus's choices, one round "
            f"each: Seat {d['seat']}, who is not the first conductor, starts."
        )
    return f"Seat {d['seat']} makes the proxy bus's choices this round."


def _bonus(d: Data) -> str:
    if "seat" in d:
        return f"{d['name']}'s {_PLURAL_OF_SORT[d['sort']]} in the pile count double: {d['points']:+d} more."
    favs = ", ".join(f"{name}: {_PLURAL_OF_SORT[sort]}" for name, sort in zip(d["names"], d["sorts"]))
    return f"Passenger bonus: your colour's sort scores 2 in your pile (its VIP 6): {favs}."


def _end_bonus(d: Data) -> str:
    if "seat" in d:
        verdict = f"met, +{d['bonus']}." if d["met"] else "not met."
        return f"{d['name']}: {END_BONUS_REQUIREMENTS[d['requirement']]}: {verdict}"
    reqs = "; ".join(
        f"{name}: {END_BONUS_REQUIREMENTS[req]}" for name, req in zip(d["names"], d["requirements"])
    )
    return f"End-game bonus, {d['bonus']} points if met: {reqs}."


# -- a round ------------------------------------------------------------------------------------
def _lineup(d: Data) -> str:
    if "slot" in d:
        kind = _KIND_OF_CODE[d["kind"]]
        return f"q{d['slot']}: {KIND_NAMES[kind]} ({KIND_LABELS[kind]})."
    how = " (automatically)" if d["automatic"] else ""
    return (
        f"Round {d['round']} of {ROUNDS}: the conductor, {d['name']}, lines up "
        f"{d['passengers']} passengers from the stack{how}."
    )


def _proxy_conductor(d: Data) -> str:
    return (
        f"The proxy bus is the conductor: its top tile, {d['tile']}, is turned "
        "face up before the players choose."
    )


def _bid(d: Data) -> str:
    if "tiles" in d:
        shown = ", ".join(f"{name} {tile}" for name, tile in zip(d["names"], d["tiles"]))
        return f"Reveal: {shown}."
    last = " (the only tile left)" if d["forced"] else ""
    if "tile" in d:
        return f"{d['name']}, the conductor, plays tile {d['tile']} face up{last}."
    return f"{d['name']} chooses a tile face down{last}."


def _order(d: Data) -> str:
    order = ", ".join(f"P{i + 1} {d['names'][k]} ({d['tiles'][k]})" for i, k in enumerate(d["order"]))
    return f"Player order, lowest first, ties clockwise from the conductor: {order}."


def _next_conductor(d: Data) -> str:
    return f"{d['name']} is on the conductor space (P{d['position']}) and will be the next conductor."


def _take(d: Data) -> str:
    head = f"P{d['position']}: {d['name']} takes {passenger_text(d)}"
    if "slot" in d:
        return f"{head} from q{d['slot']} (black icon)."
    how = " (the only one left)" if d["forced"] else ""
    by = f", chosen by the proxy player Seat {d['chosen_by']}" if d["chosen_by"] is not None else ""
    return f"{head} (white icon){how}{by}."


def _distribute(d: Data) -> str:
    return (
        "Everyone places the passengers they received, one at a time, on a bus "
        "or at the tail of their queue, in player order."
    )


def _queue(d: Data) -> str:
    off = " (off the board)" if d["place"] > QUEUE_SPACES else ""
    how = " (no other choice)" if d["forced"] else ""
    return f"{d['name']}: {passenger_text(d)} joins the queue at space {d['place']}{off}{how}."


def _boards(d: Data, how: str) -> str:
    return f"{d['name']}: {passenger_text(d)} boards bus {d['bus']} ({d['riders']}/{d['seats']}){how}."


def _board_sort(d: Data) -> str:
    return _boards(d, " (no other choice)" if d["forced"] else "")


def _queue_board(d: Data) -> str:
    if "bus" not in d:
        return f"{d['name']} lets no more of the queue board this round."
    return _boards(d, " from the head of the queue")


def _leave(d: Data) -> str:
    if d["proxy"]:
        return f"The proxy's bus {d['bus']} is full and leaves."
    return (
        f"{d['name']}'s bus {d['bus']} is full and leaves: {d['passengers']} passengers go to the score pile."
    )


def _proxy_leave(d: Data) -> str:
    return (
        f"Seat {d['seat']}, the proxy player, banks its {d['passengers']} passengers in their own score pile."
    )


def _extra_bus(d: Data) -> str:
    return (
        f"{d['name']} has {d['waiting']} waiting at the end of round "
        f"{d['round']}: the third bus opens from the next round on."
    )


def _proxy_penalty(d: Data) -> str:
    return (
        f"The proxy queue holds {d['tiles']}: Seat {d['seat']}, "
        f"the proxy player, takes them as penalty tiles and the proxy queue is emptied."
    )


# -- the end ------------------------------------------------------------------------------------
def _end(d: Data) -> str:
    return f"After round {d['rounds']} the game ends and is scored."


def _score_pile(d: Data) -> str:
    return (
        f"{d['name']}'s score pile: {d['passengers']} passengers ({d['vips']} VIP, "
        f"{d['ets']} ET): {d['points']:+d}."
    )


def _score_queue(d: Data) -> str:
    extra = f" (with {d['penalty']} penalty tiles)" if d["penalty"] else ""
    return f"{d['name']}'s queue: {d['waiting']} waiting{extra}: {d['points']:+d}."


def _win(d: Data) -> str:
    if "points" in d:
        totals = ", ".join(
            f"{name} {points} ({ets} ET)" for name, points, ets in zip(d["names"], d["points"], d["ets"])
        )
        return f"Totals: {totals}."
    names = _names(d["names"])
    if len(d["winners"]) > 1:
        return f"{names} tie on points and on ETs: they share the win."
    return f"{names} wins (highest total; ties go to the fewest ETs)."


#: The sentence of each rule's events, from their data.
SENTENCES: dict[str, Callable[[Data], str]] = {
    "BSB-COMP-PASSENGERS": _passengers,
    "BSB-COMP-PLAYERTILES": _player_tiles,
    "BSB-COMP-BOARD": _board,
    "BSB-COMP-ZONE": _zone,
    "BSB-SETUP": _setup,
    "BSB-SETUP-CONDUCTOR": _conductor_first,
    "BSB-PROXY": _proxy,
    "BSB-PROXY-SEAT": _proxy_seat,
    "BSB-PROXY-CHOICES": _proxy_choices,
    "BSB-OPT-BONUS": _bonus,
    "BSB-OPT-ENDBONUS": _end_bonus,
    "BSB-ROUND-LINEUP": _lineup,
    "BSB-PROXY-CONDUCTOR": _proxy_conductor,
    "BSB-ROUND-BID": _bid,
    "BSB-ROUND-ORDER": _order,
    "BSB-ROUND-CONDUCTOR": _next_conductor,
    "BSB-ROUND-TAKE": _take,
    "BSB-ROUND-DISTRIBUTE": _distribute,
    "BSB-QUEUE": _queue,
    "BSB-BOARD-SORT": _board_sort,
    "BSB-QUEUE-BOARD": _queue_board,
    "BSB-BOARD-LEAVE": _leave,
    "BSB-PROXY-LEAVE": _proxy_leave,
    "BSB-EXTRA-BUS": _extra_bus,
    "BSB-PROXY-PENALTY": _proxy_penalty,
    "BSB-END": _end,
    "BSB-SCORE-PILE": _score_pile,
    "BSB-SCORE-QUEUE": _score_queue,
    "BSB-WIN": _win,
}


def narrate(event: Event) -> str:
    """The sentence of a Busstop event (``BusstopState.NARRATE``)."""
    return SENTENCES[event.rule](event.data)
