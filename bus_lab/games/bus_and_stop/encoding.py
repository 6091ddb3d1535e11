"""Bus & Stop for search and learning libraries: dense actions, a length bound, observations.

* Decision actions: a pick-up per colour, a drop-off per stack and count its cards accept, then
  choose / skedaddle / discard as unhappy per passenger kind, "no skedaddle", "stop discarding"
  and "pass". Chance outcomes: the passenger kinds the sheet's deck holds.
* :func:`max_game_length`: a bound on the actions of a whole game, from the rules and the sheet.
* :func:`layout` / :func:`encode`: the observation vector of ``view(seat)``. Everything on the
  table is open in Bus & Stop; the view hides only the order of the deck, which the vector never
  sees (it shows the number of cards left).
"""

from __future__ import annotations

from bus_lab.games.bus_and_stop import moves as M
from bus_lab.games.bus_and_stop.components import BUS_SEATS, STOP_SIZE
from bus_lab.games.bus_and_stop.phases import BusAndStopPhase, Stage
from bus_lab.games.bus_and_stop.state import MAX_SETUP_RESHUFFLES
from bus_lab.games.tensors import Layout

STAGES = tuple(s.value for s in Stage)
NODES = tuple(p.value for p in BusAndStopPhase)
#: Drop-off counts a destination card can name (``DROP_SPAN`` leaves room for 1 to 19).
MAX_COUNT = M.DROP_SPAN - 1


def decision_actions(game) -> list[int]:
    """Every decision this sheet allows, sorted."""
    sheet = game.sheet
    actions = [M.pick_up_action(c) for c in range(len(sheet.colours))]
    for s, stack in enumerate(sheet.stacks):
        counts = sorted({count for card in stack.cards for count in card.counts})
        actions += [M.drop_action(s, count) for count in counts]
    for k in range(sheet.num_kinds):
        actions += [M.choose_action(k), M.skedaddle_action(k), M.unhappy_action(k)]
    actions += [M.NO_SKEDADDLE, M.UNHAPPY_DONE, M.PASS]
    return sorted(actions)


def chance_actions(game) -> list[int]:
    """The passenger kinds with at least one card in the deck (BAS-COMP-PASSENGERS)."""
    return [M.PassengerDrawn(k).action for k, count in enumerate(game.sheet.deck) if count]


def max_game_length(game) -> int:
    """A bound on the actions (decisions and draws) of a whole game, from the rules.

    With ``D`` passenger cards, ``S`` destination cards, ``n`` seats and ``R`` the most times the
    stop is dealt again at setup (BAS-SETUP-SAMECOLOUR):

    * Draws: each takes a card from the deck; cards go back only when the stop is dealt again, at
      setup (at most ``R`` times, five cards each) or at most once per pick-up
      (BAS-REFILL-SAMECOLOUR, five cards): at most ``D + 5 R + 5 P`` draws for ``P`` pick-ups.
    * Pick-ups (BAS-PICK-ALL): each takes at least one card off the stop for good: ``P <= D``.
    * Drop-offs (BAS-DROP-TOP): each claims a destination card, at most ``S``; each is followed by
      at most one skedaddle answer from each other seat (BAS-SKEDADDLE): ``n S`` actions.
    * Choosing a passenger, skedaddling one and discarding one as unhappy (BAS-DROP-TYPE,
      BAS-SKEDADDLE, BAS-UNHAPPY) each take a passenger off a bus for good: at most ``D``; "stop
      discarding" follows at least one discard: at most ``D``.
    * Passes: only in the final round, one per seat (BAS-END-FINAL): ``n``.

    In all: ``9 D + 5 R + n S + n``.
    """
    sheet = game.sheet
    n = game.num_players
    d = sheet.deck_size()
    return 9 * d + STOP_SIZE * MAX_SETUP_RESHUFFLES + n * sheet.destination_count() + n


def layout(game) -> Layout:
    """The observation fields for this table (``K`` passenger kinds of the sheet, colour by colour
    then type by type as in ``view()["colours"]`` × ``view()["types"]``; ``S`` stacks)."""
    sheet = game.sheet
    n, k, s, c = game.num_players, sheet.num_kinds, len(sheet.stacks), len(sheet.colours)
    return (
        Layout()
        .add("viewer", n, "1 at the seat whose view this is (all 0 for the spectator)")
        .add("to_move", n + 2, "1 at the seat to act; position n: a card is to be drawn; n+1: game over")
        .add("stage", len(STAGES), "1 at the part of the game: " + ", ".join(STAGES))
        .add("node", len(NODES), "1 at what happens next: " + ", ".join(NODES) + " (all 0 once over)")
        .add("turn", n, "1 at the seat whose turn it is")
        .add("stop", k, f"passengers of each kind at the bus stop (at most {STOP_SIZE} in all)")
        .add("deck", 1, "passenger cards left in the deck (their order is hidden)")
        .add("stacks_left", s, "destination cards left in each stack")
        .add(
            "top_points",
            s * MAX_COUNT,
            f"for each stack, {MAX_COUNT} entries: points its top card gives for 1..{MAX_COUNT} passengers (0: not accepted)",
        )
        .add("bus", n * k, "for each seat, passengers of each kind in its bus")
        .add("dropped", n * k, "for each seat, passengers of each kind it has dropped off")
        .add(
            "seat_totals",
            n * 7,
            f"for each seat: seats used (of {BUS_SEATS}), seniors kept, seniors lost, skedaddled, unhappy, points, tie-break",
        )
        .add("pending_stack", s, "1 at the stack of the drop-off being chosen")
        .add(
            "pending",
            1 + k,
            "the drop-off being chosen: its count, then passengers of each kind chosen so far",
        )
        .add(
            "skedaddle",
            2 * n + s + c,
            "the skedaddle offered: 1 at the seat asked, 1 at the dropper, 1 at the stack, 1 at each colour dropped",
        )
        .add("unhappy_discards", 1, "passengers discarded so far in this unhappy turn")
        .add("trigger", n, "1 at the seat that triggered the end (BAS-END-TRIGGER)")
        .add("destinations_left", 1, "destination cards left in all stacks")
    )


def encode(view: dict, game) -> object:
    """The observation vector of ``view`` (a ``view(seat)`` of this game)."""
    sheet = game.sheet
    n, k, s = game.num_players, sheet.num_kinds, len(sheet.stacks)
    kind = {code: i for i, code in enumerate(sheet.codes)}
    stack_index = {stack.name: i for i, stack in enumerate(sheet.stacks)}
    colour_index = {colour.name: i for i, colour in enumerate(sheet.colours)}
    v = game.observation_layout().vector()
    v.one_hot("viewer", view["viewer"])
    to_move = view["to_move"]
    v.one_hot("to_move", to_move if to_move >= 0 else (n if to_move == -1 else n + 1))
    v.choice("stage", view["phase"], STAGES)
    v.choice("node", view["node"], NODES)
    v.one_hot("turn", view["turn"])
    v.count("stop", (kind[code] for code in view["stop"]))
    v.put("deck", view["deck"])
    for i, stack in enumerate(view["stacks"]):
        v.put("stacks_left", stack["cards_left"], at=i)
        if stack["top"] is not None:
            for count, points in zip(stack["top"]["counts"], stack["top"]["points"]):
                v.put("top_points", points, at=i * MAX_COUNT + count - 1)
    for seat, bus in enumerate(view["buses"]):
        v.count("bus", (kind[code] for code in bus["bus"]), at=seat * k)
        v.count("dropped", (kind[code] for code in bus["dropped"]), at=seat * k)
        totals = [
            bus["seats_used"],
            len(bus["seniors"]),
            bus["seniors_lost"],
            len(bus["skedaddled"]),
            len(bus["unhappy"]),
            bus["points"],
            bus["tie_break"],
        ]
        v.put("seat_totals", totals, at=seat * 7)
    pending = view["pending_drop"]
    if pending is not None:
        v.one_hot("pending_stack", stack_index[pending["stack"]])
        v.put("pending", pending["count"])
        v.count("pending", (kind[code] for code in pending["chosen"]), at=1)
    sked = view["skedaddle"]
    if sked is not None:
        v.one_hot("skedaddle", sked["seat"])
        v.one_hot("skedaddle", n + sked["dropper"])
        v.one_hot("skedaddle", 2 * n + stack_index[sked["stack"]])
        v.count("skedaddle", (colour_index[c] for c in sked["colours"]), at=2 * n + s)
    v.put("unhappy_discards", view["unhappy_discards"])
    if view["trigger"] is not None:
        v.one_hot("trigger", view["trigger"]["seat"])
    v.put("destinations_left", view["destinations_left"])
    return v.done()
