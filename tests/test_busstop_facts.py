"""Busstop facts recorded for people and front ends: event data, status sentences, reasons and the
score lines, each worked out by hand from the rules (BSB-…) and the packaged placeholder sheet
(zone for 3 positions: P1 q1+W, P2 q2,q3+W (conductor), P3 W; tiles 1-2 baby, 3-4 child, 5-6 girl,
7-8 salaryman, 9-10 granny; colour i has end requirement i: empty queue, a VIP scored, all sorts,
third bus, 3 ETs)."""

from __future__ import annotations

import random

import pytest

from bus_lab import Session, load_game
from bus_lab.engine.policies import sample_chance
from bus_lab.games.busstop import moves as M
from bus_lab.games.busstop.components import END_BONUS_REQUIREMENTS, KIND_CODES
from bus_lab.games.busstop.phases import BusstopPhase
from bus_lab.games.busstop.state import CLASS_NAMES, TILE_BASE


def act(state, *labels: str) -> None:
    for label in labels:
        state.apply_action(state.string_to_action(label))


def takes(state) -> list:
    return [e for e in state.events() if e.rule == "BSB-ROUND-TAKE" and "owner" in e.data]


def _finished(players=3, seed=1, **params):
    session = Session(load_game("busstop", players=players, **params), seed=seed, bots="greedy")
    session.run_to_end()
    return session.state.clone()


def _token(code) -> int:
    if isinstance(code, tuple):
        return TILE_BASE + 10 * code[0] + code[1] - 1
    return KIND_CODES.index(code)


def _set_board(state, seat, pile=(), queue=(), penalty=()):
    """Write passengers onto a finished game's board (codes, or (owner, tile))."""
    board = state.boards[seat]
    board.pile = [_token(c) for c in pile]
    board.queue = [_token(c) for c in queue]
    board.buses = [[], [], []]
    board.penalty = [_token(c) for c in penalty]
    board.extra_open = False


# -- the white icon --------------------------------------------------------------------------------
def test_white_picks_say_whose_tile_and_who_chose():
    """BSB-ROUND-TAKE: 3 players; seat 0 conducts with 3, seat 1 plays 1, seat 2 plays 3. P1 is
    seat 1, P2 seat 0 (tie on 3, clockwise from the conductor), P3 seat 2. Seat 1 takes seat 0's
    3 (a child); seat 0 takes seat 1's 1 (a baby); seat 2 is left its own 3 (forced)."""
    state = load_game("busstop", players=3).new_initial_state()
    act(state, "Gi", "Gi", "ET", "tile 3", "tile 1", "tile 3")
    assert state.status() == "Round 1 of 10: Seat 1 at P1 takes one of the played tiles."
    act(state, "take Seat 0's 3")
    assert state.status() == "Round 1 of 10: Seat 0 at P2 takes one of the played tiles."
    act(state, "take Seat 1's 1")
    first, second, third = (e.data for e in takes(state))
    assert first["passenger"] == "0/3" and first["whose"] == "Seat 0's" and first["sort"] == "child"
    assert second == {
        "participant": 0,
        "owner": 1,
        "name": "Seat 0",
        "position": 2,
        "forced": False,
        "chosen_by": None,
        "passenger": "1/1",
        "whose": "Seat 1's",
        "sort": "baby",
    }
    assert third["participant"] == 2 and third["owner"] == 2 and third["forced"] is True
    assert (third["passenger"], third["whose"], third["sort"]) == ("2/3", "Seat 2's", "child")
    texts = [e.text for e in takes(state)]
    assert texts[1] == "P2: Seat 0 takes Seat 1's tile 1 (baby) (white icon)."
    assert texts[2] == "P3: Seat 2 takes Seat 2's tile 3 (child) (white icon) (the only one left)."
    assert state.status() == (
        "Round 1 of 10: Seat 1, place your passengers: 2 to go, each on a bus or at the tail of the queue."
    )


def test_the_proxy_players_pick_is_recorded_as_theirs():
    """BSB-PROXY-CHOICES: 2 players; seat 0 conducts with 8, seat 1 plays 5, the proxy's tile is
    2: the proxy is P1 and seat 1 chooses its white pick (seat 0's 8, a salaryman); seat 1 (P2)
    takes the proxy's 2 (a baby); seat 0 (P3) is left seat 1's 5."""
    state = load_game("busstop", players=2).new_initial_state()
    act(state, "Gi", "Gi", "Ba", "tile 8", "tile 5", "proxy-2")
    assert state.status() == (
        "Round 1 of 10: the proxy bus at P1 takes one of the played tiles (Seat 1 chooses for it)."
    )
    act(state, "take Seat 0's 8", "take the proxy's 2")
    proxy, seat1, seat0 = (e.data for e in takes(state))
    assert proxy["participant"] == 2 and proxy["chosen_by"] == 1 and proxy["forced"] is False
    assert (proxy["passenger"], proxy["whose"], proxy["sort"]) == ("0/8", "Seat 0's", "salaryman")
    assert seat1["chosen_by"] is None and seat1["whose"] == "the proxy's" and seat1["passenger"] == "2/2"
    assert seat0["chosen_by"] is None and seat0["forced"] is True and seat0["whose"] == "Seat 1's"
    assert takes(state)[0].text == (
        "P1: the proxy bus takes Seat 0's tile 8 (salaryman) (white icon), chosen by the proxy player Seat 1."
    )
    assert state.acting_participant() == 2 and state.current_player() == 1
    assert state.status() == (
        "Round 1 of 10: the proxy bus (Seat 1 decides for it), place your passengers: 2 to go, each on "
        "a bus or at the tail of the queue."
    )


# -- setup ------------------------------------------------------------------------------------------
def test_setup_events_name_the_first_conductor_and_proxy_player():
    """BSB-SETUP-CONDUCTOR: seat 0 conducts first; BSB-PROXY-CHOICES: with 2 players seat 1 makes
    the proxy's choices in round 1."""
    state = load_game("busstop", players=2).new_initial_state()
    events = {e.rule: e for e in state.events()}
    assert events["BSB-SETUP-CONDUCTOR"].data == {"conductor": 0}
    assert (
        events["BSB-SETUP-CONDUCTOR"].text == "Seat 0 (who rode a bus most recently) is the first conductor."
    )
    assert events["BSB-PROXY-CHOICES"].data == {"seat": 1, "round": 1}
    assert "Seat 1, who is not the first conductor, starts" in events["BSB-PROXY-CHOICES"].text
    assert events["BSB-COMP-PASSENGERS"].data == {"passengers": 50}
    zone = events["BSB-COMP-ZONE"].data
    assert zone == {
        "positions": 3,
        "black": [[1], [2, 3], []],
        "white": [True, True, True],
        "conductor": 1,
    }
    assert events["BSB-COMP-ZONE"].text == (
        "Player-order zone for 3 positions: P1 q1+W, P2 q2,q3+W (conductor), P3 W."
    )
    three = load_game("busstop", players=3).new_initial_state()
    assert not [e for e in three.events() if e.rule.startswith("BSB-PROXY")]


# -- boarding ---------------------------------------------------------------------------------------
def _walk(players: int, seed: int):
    rng = random.Random(seed)
    game = load_game("busstop", players=players)
    bot = game.policies()["greedy"]
    state = game.new_initial_state()
    while not state.is_terminal():
        yield state
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else bot(state, rng))
    yield state


@pytest.mark.parametrize("players", [2, 4])
def test_a_bus_leaves_when_the_passenger_just_boarded_fills_it(players):
    """BSB-BOARD-LEAVE: each departure follows the boarding that filled that very bus."""
    state = list(_walk(players, seed=3))[-1]
    events = state.events()
    leaves = [i for i, e in enumerate(events) if e.rule == "BSB-BOARD-LEAVE"]
    assert leaves
    for i in leaves:
        leave, boarded = events[i].data, events[i - 1].data
        assert events[i - 1].rule in ("BSB-BOARD-SORT", "BSB-QUEUE-BOARD")
        assert (boarded["participant"], boarded["bus"]) == (leave["participant"], leave["bus"])
        assert boarded["riders"] == boarded["seats"] == leave["passengers"]
        assert leave["proxy"] is (leave["participant"] == state.proxy)


@pytest.mark.parametrize("players", [2, 3])
def test_only_the_head_of_the_queue_is_judged_when_it_may_not_board(players):
    """BSB-QUEUE-BOARD, BSB-BOARD-SORT: the reason a bus refuses names the head's class."""
    checked = 0
    for state in _walk(players, seed=1):
        if state.phase() is not BusstopPhase.BOARD:
            continue
        who = state.acting_participant()
        head = state.boards[who].queue[0]
        for bus in range(3):
            reason = state.why_illegal(M.HeadBoards(bus))
            if reason is None:
                continue
            assert reason.endswith("(only the head may board, BSB-QUEUE-BOARD)")
            if bus < 2 or state.boards[who].extra_open:
                assert f"a {CLASS_NAMES[state.token_class(head)]} may not board it" in reason
            else:
                assert "the third bus is locked" in reason
            checked += 1
    assert checked


# -- scoring ----------------------------------------------------------------------------------------
def test_queued_and_penalty_vips_cost_six_even_the_vip_baby():
    """BSB-SCORE-QUEUE, BSB-PROXY-PENALTY: −2 a passenger, −6 a VIP (the VIP baby included)."""
    state = _finished(players=3)
    _set_board(state, 0, queue=["VBa"])
    assert state.returns()[0] == -6
    _set_board(state, 0, penalty=["VBa", "Gi"])
    assert state.returns()[0] == -8
    assert [(x["rule"], x["points"], x["times"]) for x in state.score_breakdown(0)] == [
        ("BSB-PROXY-PENALTY", -2, 1),
        ("BSB-PROXY-PENALTY", -6, 1),
    ]
    _set_board(state, 0, penalty=["VGr", "VGi"])
    assert [(x["points"], x["times"]) for x in state.score_breakdown(0)] == [(-12, 2)]


def test_the_end_bonus_line_and_a_vip_requirement_that_an_et_does_not_meet():
    """BSB-OPT-ENDBONUS: seat 1's colour needs a VIP in its score pile; an ET is not a VIP. The
    bonus is one line of 5 points, counted once."""
    state = _finished(players=5, end_bonus=True)
    _set_board(state, 1, pile=["ET", "Ch"])
    assert not state.requirement_met(1)
    assert state.returns()[1] == 1
    assert [x["rule"] for x in state.score_breakdown(1)] == ["BSB-SCORE-PILE", "BSB-SCORE-PILE"]
    _set_board(state, 1, pile=["ET", "VCh"])
    assert state.requirement_met(1) and state.returns()[1] == 3 + 5
    assert state.score_breakdown(1)[-1] == {
        "label": f"end-game bonus: {END_BONUS_REQUIREMENTS['vip_scored']}",
        "rule": "BSB-OPT-ENDBONUS",
        "points": 5,
        "times": 1,
    }


@pytest.mark.parametrize("players", [2, 5])
def test_final_score_events_count_the_pile(players):
    """BSB-SCORE-PILE, BSB-SCORE-QUEUE, BSB-WIN: the final events count what the view shows."""
    state = _finished(players=players, seed=4, passenger_bonus=True, end_bonus=True)
    view = state.view(None)
    for seat in range(players):
        board = view["boards"][seat]
        pile = [e.data for e in state.events() if e.rule == "BSB-SCORE-PILE" and e.data["seat"] == seat]
        assert len(pile) == 1
        vips = sum(code.startswith("V") for code in board["pile"])
        assert pile[0]["passengers"] == len(board["pile"]) and pile[0]["vips"] == vips
        assert pile[0]["ets"] == board["pile"].count("ET")
        queue = [e.data for e in state.events() if e.rule == "BSB-SCORE-QUEUE" and e.data["seat"] == seat]
        assert queue[0]["waiting"] == len(board["queue"]) + len(board["penalty"])
        assert queue[0]["penalty"] == len(board["penalty"])
        met = [e.data for e in state.events() if e.rule == "BSB-OPT-ENDBONUS" and e.data.get("seat") == seat]
        assert met[0]["met"] is state.requirement_met(seat) and met[0]["bonus"] == 5
    totals = [e.data for e in state.events() if e.rule == "BSB-WIN" and "points" in e.data]
    assert totals == [{"points": view["scores"], "names": view["names"][:players], "ets": view["ets"]}]
