"""Busstop for search and learning libraries: dense actions, a length bound, observations, and
the hidden tiles a search may guess.

* Decision actions: choose tile 1-10, take the tile of each participant, place each passenger
  class on each bus or in the queue, board each bus, stop boarding. Chance outcomes: the eleven
  passenger kinds, and with two players the proxy bus's ten tiles (BSB-PROXY).
* :func:`max_game_length`: a bound on the actions of a whole game, from the rules.
* :func:`layout` / :func:`encode`: the observation vector of ``view(seat)``. A tile chosen face down
  is hidden from the other seats until the reveal (BSB-ROUND-BID): the vector shows it as
  "hidden" and the owner's hand with it still in, exactly as the view does.
* :func:`resample_hidden`: a state the seat cannot tell from the real one, with the other seats'
  face-down tiles drawn again at random (for information-set search).
"""

from __future__ import annotations

import random

from bus_lab.games.busstop import moves as M
from bus_lab.games.busstop.components import KIND_CODES, ROUNDS, SORTS, STACK_COUNTS, TILES
from bus_lab.games.busstop.phases import BusstopPhase
from bus_lab.games.tensors import Layout

NODES = tuple(p.value for p in BusstopPhase)
#: A token (passenger or player tile) is one of: the 11 passenger kinds, then a player tile by its sort.
TOKEN_CLASSES = len(KIND_CODES) + len(SORTS)
BID_STATES = ("none", "shown", "hidden")
BUSES = M.NUM_BUSES


def decision_actions(game) -> list[int]:
    """Every decision of a table of this size, sorted."""
    participants = 3 if game.num_players == 2 else game.num_players
    actions = [M.bid_action(t) for t in TILES]
    actions += [M.take_action(owner) for owner in range(participants)]
    for cls in range(M.NUM_CLASSES):
        actions += [M.place_action(cls, bus) for bus in (*range(BUSES), None)]
    actions += [M.board_action(bus) for bus in range(BUSES)] + [M.STOP]
    return sorted(actions)


def chance_actions(game) -> list[int]:
    """The passenger kinds of the stack, and the proxy bus's tiles with two players."""
    actions = [M.PassengerDrawn(k).action for k, count in enumerate(STACK_COUNTS) if count]
    if game.num_players == 2:
        actions += [M.proxy_draw_action(t) for t in TILES]
    return sorted(actions)


def max_game_length(game) -> int:
    """A bound on the actions (decisions and draws) of a whole game, from the rules.

    With ``P`` participants (the seats, and the proxy bus with two players, BSB-PROXY) and ``L``
    passengers lined up per round (the zone of the sheet, BSB-COMP-ZONE), each of the 10 rounds
    (BSB-END) has at most: ``L`` draws onto the line-up (BSB-ROUND-LINEUP); two draws of the proxy's
    tile (BSB-PROXY-CONDUCTOR, BSB-PROXY); one tile chosen per participant (BSB-ROUND-BID); one
    white icon per zone position (BSB-ROUND-TAKE); one placement per passenger and tile received
    (BSB-ROUND-DISTRIBUTE: ``L + P``); one "stop boarding" per participant (BSB-QUEUE-BOARD). Each
    boarding moves a token that was placed in a queue onto a bus, so all boardings together are at
    most all placements, ``10 (L + P)``. In all ``10 (3 L + 5 P + 2)``.
    """
    participants = 3 if game.num_players == 2 else game.num_players
    lined_up = game.sheet.zones[participants].passengers
    return ROUNDS * (3 * lined_up + 5 * participants + 2)


def _participants(game) -> int:
    return 3 if game.num_players == 2 else game.num_players


def layout(game) -> Layout:
    """The observation fields (``n`` seats, ``P`` participants, ``L`` line-up slots; a *token
    class* is one of the 11 passenger kinds ``Ba Ch Gi Sa Gr VBa VCh VGi VSa VGr ET`` then a player
    tile by its sort ``baby child girl salaryman granny``: 16 classes)."""
    n, p = game.num_players, _participants(game)
    slots = game.sheet.zones[p].passengers
    t = TOKEN_CLASSES
    board = BUSES * (3 + len(SORTS) + t) + 2 * t + 1 + 1 + 1 + t + len(TILES) + 1 + len(SORTS)
    return (
        Layout()
        .add("viewer", n, "1 at the seat whose view this is (all 0 for the spectator)")
        .add("to_move", n + 2, "1 at the seat to act; position n: a draw; n+1: game over")
        .add("node", len(NODES), "1 at what happens next: " + ", ".join(NODES) + " (all 0 once over)")
        .add("acting", p, "1 at the participant the decision is about (the proxy's, for the proxy player)")
        .add("proxy_player", n, "1 at the seat making the proxy bus's choices this round (two players)")
        .add("round", 1, f"the round, 1 to {ROUNDS}")
        .add("conductor", p, "1 at this round's conductor")
        .add("next_conductor", p, "1 at the next conductor once the tiles are revealed")
        .add("stack", len(KIND_CODES) + 1, "passengers left in the stack by kind, then in all (order hidden)")
        .add(
            "lineup",
            slots * len(KIND_CODES),
            "for each line-up slot, 1 at the kind of passenger on it (0: taken or not drawn)",
        )
        .add(
            "zone",
            p * (slots + 3 + p),
            "for each zone position: 1 at each slot its black arrows take, white icon, conductor symbol, tile on it, 1 at its holder",
        )
        .add("take_position", p, "1 at the zone position whose white icon is being used")
        .add(
            "bids",
            p * (len(BID_STATES) + len(TILES)),
            "for each participant: 1 at none/shown/hidden, then 1 at the tile when shown",
        )
        .add(
            "played", p * len(TILES), "for each participant, 1 at its tile still on the zone after the reveal"
        )
        .add(
            "boards",
            p * board,
            "for each participant: for each bus (seats, open, passengers aboard, 1 at its sort, tokens aboard by class), the queue (tokens by class, 1 at the head's class, length), score pile size, penalty tiles, tokens received by class, 1 at each tile in hand, extra bus, 1 at the bonus sort",
        )
        .add("scores", n, "each seat's points so far")
        .add("ets", n, "extra-terrestrials each seat holds (the tie-break, BSB-WIN)")
    )


def _token_class(code: str, tile_sorts: dict[str, str]) -> int:
    """The token class of a token code: a passenger kind (``"VGi"``) or a tile (``"1/7"``)."""
    if "/" in code:
        return len(KIND_CODES) + SORTS.index(tile_sorts[code.split("/")[1]])
    return KIND_CODES.index(code)


def encode(view: dict, game) -> object:
    """The observation vector of ``view`` (a ``view(seat)`` of this game)."""
    n, p = game.num_players, _participants(game)
    slots = game.sheet.zones[p].passengers
    t = TOKEN_CLASSES
    sorts = view["tile_sorts"]
    v = game.observation_layout().vector()
    v.one_hot("viewer", view["viewer"])
    to_move = view["to_move"]
    v.one_hot("to_move", to_move if to_move >= 0 else (n if to_move == -1 else n + 1))
    v.choice("node", view["node"], NODES)
    v.one_hot("acting", view["acting"])
    v.one_hot("proxy_player", view["proxy_player"])
    v.put("round", view["round"])
    v.one_hot("conductor", view["conductor"])
    v.one_hot("next_conductor", view["next_conductor"])
    by_kind = view["stack"]["by_kind"]
    v.put("stack", [*by_kind.values(), view["stack"]["left"]])
    for slot, code in enumerate(view["lineup"]):
        if code is not None:
            v.one_hot("lineup", slot * len(KIND_CODES) + KIND_CODES.index(code))
    width = slots + 3 + p
    for i, pos in enumerate(view["zone"]):
        v.count("zone", (s - 1 for s in pos["black"]), at=i * width)
        v.put("zone", [float(pos["white"]), float(pos["conductor"]), pos["tile"] or 0], at=i * width + slots)
        if pos["holder"] is not None:
            v.one_hot("zone", i * width + slots + 3 + pos["holder"])
    v.one_hot("take_position", view["take_position"])
    width = len(BID_STATES) + len(TILES)
    for k, bid in enumerate(view["bids"]):
        v.one_hot("bids", k * width + BID_STATES.index(bid["state"]))
        if bid["tile"] is not None:
            v.one_hot("bids", k * width + len(BID_STATES) + bid["tile"] - 1)
    for played in view["played"]:
        v.one_hot("played", played["owner"] * len(TILES) + played["tile"] - 1)
    bus_width = 3 + len(SORTS) + t
    board_width = BUSES * bus_width + 2 * t + 1 + 1 + 1 + t + len(TILES) + 1 + len(SORTS)
    for k, board in enumerate(view["boards"]):
        at = k * board_width
        for b, bus in enumerate(board["buses"]):
            start = at + b * bus_width
            v.put("boards", [bus["seats"], float(bus["open"]), len(bus["passengers"])], at=start)
            if bus["sort"] is not None:
                v.one_hot("boards", start + 3 + SORTS.index(bus["sort"]))
            v.count("boards", (_token_class(c, sorts) for c in bus["passengers"]), at=start + 3 + len(SORTS))
        at += BUSES * bus_width
        queue = [_token_class(c, sorts) for c in board["queue"]]
        v.count("boards", queue, at=at)
        if queue:
            v.one_hot("boards", at + t + queue[0])
        v.put("boards", [len(queue), len(board["pile"]), len(board["penalty"])], at=at + 2 * t)
        at += 2 * t + 3
        v.count("boards", (_token_class(c, sorts) for c in board["received"]), at=at)
        at += t
        v.count("boards", (tile - 1 for tile in board["hand"]), at=at)
        at += len(TILES)
        v.put("boards", float(board["extra_bus"]), at=at)
        if board["bonus_sort"] is not None:
            v.one_hot("boards", at + 1 + SORTS.index(board["bonus_sort"]))
    v.put("scores", view["scores"])
    v.put("ets", view["ets"])
    return v.done()


# -- information-set search ------------------------------------------------------------------
_PREFIX: dict[str, object] = {}


def resample_hidden(state, seat: int, rng: random.Random):
    """A state ``seat`` cannot tell from ``state``: the other seats' face-down tiles of this round
    (BSB-ROUND-BID), which ``seat`` has not seen, are chosen again uniformly at random from the
    tiles each of them could have played; everything ``seat`` has seen stays as it is.

    Args:
        state: a Busstop state. seat (int): the seat whose knowledge is kept.
        rng (random.Random): the source of the new tiles.

    Returns:
        A new state with the same ``view(seat)`` as ``state`` (checked by the tests); ``state``
        itself is left alone.
    """
    positions = hidden_positions(state, seat)
    if not positions:
        return state.clone()
    history = state.history()
    game = state.get_game()
    start = positions[0]
    key = (game, tuple(history[:start]))
    if _PREFIX.get("key") == key:
        prefix = _PREFIX["value"]
    else:
        prefix = game.new_initial_state()
        for action in history[:start]:
            prefix.apply_action(action)
        _PREFIX["key"], _PREFIX["value"] = key, prefix
    redraw = set(positions)
    sample = prefix.clone()  # type: ignore[attr-defined]
    for i, action in enumerate(history[start:], start):
        if i in redraw:
            legal = sample.legal_actions()
            action = legal[rng.randrange(len(legal))]
        sample.apply_action(action)
    return sample


def hidden_positions(state, seat: int) -> list[int]:
    """The positions in ``state.history()`` of the actions ``seat`` has not seen: the other seats'
    face-down tiles of this round not revealed yet (BSB-ROUND-BID).

    The tiles of a round are chosen one after another, after the line-up is drawn and around the
    proxy bus's draw, so they are the last choices of the history, in the order the seats choose.
    """
    view = state.view(seat)
    hidden = {k for k, bid in enumerate(view["bids"]) if bid["state"] == "hidden"}
    if not hidden:
        return []
    history = state.history()
    bids: list[int] = []
    i = len(history) - 1
    while i >= 0:
        move = M.decode(history[i])
        if isinstance(move, M.ChooseTile):
            bids.append(i)
        elif not isinstance(move, M.ProxyTileDrawn):
            break
        i -= 1
    bids.reverse()
    return [i for i, k in zip(bids, state.bid_order) if k in hidden]
