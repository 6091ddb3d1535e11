"""BUS (the city grid) for search and learning libraries: dense actions, a length bound,
observations.

* Decision actions: draw blind, pass, take each passenger card, start on each node, turn each
  street card (challenging play only), swap each pair of street cards with each choice of sides,
  and drive to each node dropping off each set of colours. Chance outcomes: each street card on
  either side, each passenger card.
* :func:`max_game_length`: a bound on the actions of a whole game, from the rules.
* :func:`layout` / :func:`encode`: the observation vector of ``view(seat)``. Every card in play is
  open in BUS; the view hides only the order of the passenger deck, which the vector never sees.
"""

from __future__ import annotations

from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city import moves as M
from bus_lab.games.bus_city.phases import BusCityPhase, Stage
from bus_lab.games.tensors import Layout

STAGES = tuple(s.value for s in Stage)
NODES = tuple(p.value for p in BusCityPhase)
STREET_CARDS = G.NUM_SLOTS


def decision_actions(game) -> list[int]:
    """Every decision this sheet and these options allow, sorted."""
    sheet = game.sheet
    passengers = len(sheet.passengers)
    actions = [M.DRAW_BLIND, M.PASS]
    actions += [M.take_action(card) for card in range(passengers)]
    actions += [M.place_action(node) for node in range(G.NUM_NODES)]
    if game.params["challenging"]:
        actions += [M.rotate_action(slot) for slot in range(G.NUM_SLOTS)]
    for first in range(G.NUM_SLOTS):
        for second in range(first + 1, G.NUM_SLOTS):
            actions += [M.swap_action(first, second, a, b) for a in (0, 1) for b in (0, 1)]
    masks = range(1 << len(sheet.colours))
    actions += [M.drive_action(node, mask) for node in range(G.NUM_NODES) for mask in masks]
    return sorted(actions)


def chance_actions(game) -> list[int]:
    """Each street card on either side (BUS-SETUP), each passenger card (BUS-FACEUP, BUS-PICKUP)."""
    streets = [M.street_action(card, side) for card in range(len(game.sheet.streets)) for side in (0, 1)]
    return sorted(streets + [M.passenger_action(card) for card in range(len(game.sheet.passengers))])


def max_game_length(game) -> int:
    """A bound on the actions (decisions and draws) of a whole game, from the rules.

    With ``n`` seats, ``C`` passenger cards and at most ``R`` rounds (``max_rounds``, BUS-END-CAP):
    12 street cards are laid (BUS-SETUP); each passenger card comes off the deck at most once, face
    up or blind (BUS-FACEUP, BUS-PICKUP; the deck is never refilled): ``C`` draws; each seat places
    its bus and takes or asks for a first card (BUS-START): ``2 n``; a turn is one move and at most
    one more decision, a pick-up, a pass or the construction site (BUS-TURN, BUS-ONE-ACTION). Without
    an end triggered the game stops after round ``R``; a trigger gives every seat one more turn
    (BUS-END), so at most ``n (R + 1)`` turns. In all ``12 + C + 2 n + 2 n (R + 1)``.
    """
    n = game.num_players
    return STREET_CARDS + len(game.sheet.passengers) + 2 * n + 2 * n * (game.params["max_rounds"] + 1)


def layout(game) -> Layout:
    """The observation fields (``n`` seats, ``S`` street cards and ``C`` passenger cards of the
    sheet in sheet order, ``K`` colours; slots in reading order ``a1-b1, b1-c1, a1-a2, ...``; a node
    is ``slot * 2 + heading``, heading 0 = east or south)."""
    sheet = game.sheet
    n, s, c, k = game.num_players, len(sheet.streets), len(sheet.passengers), len(sheet.colours)
    seat = G.NUM_NODES + 1 + 3 * c + k + 2
    return (
        Layout()
        .add("viewer", n, "1 at the seat whose view this is (all 0 for the spectator)")
        .add("to_move", n + 2, "1 at the seat to act; position n: a card is to be drawn; n+1: game over")
        .add("stage", len(STAGES), "1 at the part of the game: " + ", ".join(STAGES))
        .add("node", len(NODES), "1 at what happens next: " + ", ".join(NODES) + " (all 0 once over)")
        .add("round", 1, "the round (1 on the first turn; 0 before)")
        .add("turn", n, "1 at the seat whose turn it is")
        .add("speed_limit", 1, "the speed limit of the move to make (0: none, or not moving now)")
        .add(
            "grid",
            G.NUM_SLOTS * (s + 1 + n),
            "for each slot: 1 at its street card, its symbol's side (1: south or east), 1 at each seat's bus on it",
        )
        .add("reachable", G.NUM_SLOTS, "1 at each slot the bus to move can reach")
        .add("faceup", c, "1 at each face-up passenger card")
        .add("deck", 1, "passenger cards left in the deck (their order is hidden)")
        .add(
            "seats",
            n * seat,
            "for each seat: 1 at its bus's node, construction site used, 1 at each card picked up / half delivered / complete, 1 at each colour waiting, points, next speed limit (0: none)",
        )
        .add("end", n + 1, "1 at the seat that triggered the end (BUS-END), then final turns left")
        .add("points", n, "each seat's points so far")
    )


def _heading(slot: G.Slot, name: str) -> int:
    return 0 if slot.heading_name(0) == name else 1


def encode(view: dict, game) -> object:
    """The observation vector of ``view`` (a ``view(seat)`` of this game)."""
    sheet = game.sheet
    n, s, c, k = game.num_players, len(sheet.streets), len(sheet.passengers), len(sheet.colours)
    street = {card.id: i for i, card in enumerate(sheet.streets)}
    passenger = {card.id: i for i, card in enumerate(sheet.passengers)}
    colour = {name: i for i, name in enumerate(sheet.colours)}
    v = game.observation_layout().vector()
    v.one_hot("viewer", view["viewer"])
    to_move = view["to_move"]
    v.one_hot("to_move", to_move if to_move >= 0 else (n if to_move == -1 else n + 1))
    v.choice("stage", view["phase"], STAGES)
    v.choice("node", view["node"], NODES)
    v.put("round", view["round"])
    v.one_hot("turn", view["turn"])
    v.put("speed_limit", view["speed_limit"] or 0)
    width = s + 1 + n
    for i, slot in enumerate(view["grid"]):
        if slot["card"] is not None:
            v.one_hot("grid", i * width + street[slot["card"]])
            v.put("grid", float(slot["side"] in ("S", "E")), at=i * width + s)
        v.count("grid", slot["buses"], at=i * width + s + 1)
    v.count("reachable", (G.SLOT_INDEX[name] for name in view["reachable"]))
    v.count("faceup", (passenger[card["id"]] for card in view["faceup"]))
    v.put("deck", view["deck"])
    width = G.NUM_NODES + 1 + 3 * c + k + 2
    for i, seat in enumerate(view["seats"]):
        at = i * width
        if seat["bus"] is not None:
            slot = G.SLOTS[G.SLOT_INDEX[seat["bus"]["slot"]]]
            v.one_hot("seats", at + M.node_of(slot.index, _heading(slot, seat["bus"]["heading"])))
            v.put("seats", float(seat["bus"]["site_used"]), at=at + G.NUM_NODES)
        at += G.NUM_NODES + 1
        for j, pile in enumerate(("picked_up", "half", "complete")):
            v.count("seats", (passenger[card["id"]] for card in seat[pile]), at=at + j * c)
        at += 3 * c
        v.count("seats", (colour[name] for name in seat["waiting"]), at=at)
        v.put("seats", [seat["points"], seat["speed_limit_next"] or 0], at=at + k)
    end = view["end"]
    v.one_hot("end", end["trigger"])
    v.put("end", len(end["final_turns"]), at=n)
    v.put("points", view["points"])
    return v.done()
