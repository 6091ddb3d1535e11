"""Bus & Stop events: the facts each rule records (its data) and the sentence made from them,
worked out by hand from the catalogue's figures on the positions of the rules tests."""

from __future__ import annotations

from test_bus_and_stop_rules import (
    board,
    card_points,
    deal,
    eleven_claimed,
    kind,
    new_state,
    play,
    unhappy_board,
)

from bus_lab.games.bus_and_stop import BusAndStopGame


def _ends(state, rule: str) -> list[tuple[dict, str]]:
    return [(e.data, e.text) for e in state.events() if e.rule == rule]


def _tally_board(penalty: bool = False):
    """Seat 0 empties its bus on the 4th tennis card (1 point) and has one unhappy passenger; seat
    1 holds eleven destinations, one senior and one passenger (the scoring test's position)."""
    state = board(
        players=2, buses={0: ["YT", "GT"], 1: ["RM"]}, given=eleven_claimed(), leftover_penalty=penalty
    )
    state.seniors[1].append(kind(state, "PE"))
    state.deck[kind(state, "PE")] -= 1
    state.unhappy[0].append(kind(state, "PS"))
    state.deck[kind(state, "PS")] -= 1
    play(state, "drop 2 at tennis court")
    assert state.is_terminal()
    return state


def test_the_final_tally_events_carry_their_figures():
    """BAS-SCORE-DEST, BAS-SCORE-SENIOR, BAS-SCORE-UNHAPPY, BAS-SCORE-EMPTY, BAS-WIN."""
    state = _tally_board()
    seat1_dest = (
        sum(card_points("park", k)[0] for k in range(1, 5))
        + sum(card_points("school", k)[0] for k in range(1, 5))
        + sum(card_points("tennis court", k)[0] for k in range(1, 4))
    )
    assert seat1_dest == 19
    assert _ends(state, "BAS-SCORE-DEST") == [
        ({"seat": 0, "points": 1, "destinations": 1}, "Seat 0: 1 destination for 1 point."),
        ({"seat": 1, "points": 19, "destinations": 11}, "Seat 1: 11 destinations for 19 points."),
    ]
    assert _ends(state, "BAS-SCORE-SENIOR") == [
        (
            {"seat": 0, "points": 0, "seniors": 0, "skedaddled": 0},
            "Seat 0: 0 seniors and 0 skedaddled, +1 each.",
        ),
        (
            {"seat": 1, "points": 1, "seniors": 1, "skedaddled": 0},
            "Seat 1: 1 senior and 0 skedaddled, +1 each.",
        ),
    ]
    assert _ends(state, "BAS-SCORE-UNHAPPY") == [
        ({"seat": 0, "points": -1, "passengers": 1}, "Seat 0: 1 unhappy passenger, -1 each.")
    ]
    # seat 1 keeps one passenger, which costs nothing without the leftover penalty
    assert _ends(state, "BAS-SCORE-EMPTY") == [
        ({"seat": 0, "points": 3, "left": 0}, "Seat 0's bus is empty: +3.")
    ]
    assert _ends(state, "BAS-WIN") == [
        (
            {"winners": [1], "scores": [3, 20], "best": 20, "tied": [1], "tie_break": 1},
            "Final scores: Seat 0 3, Seat 1 20. Seat 1 wins with 20 points.",
        )
    ]
    assert state.view(None)["winners"] == [1]


def test_the_leftover_penalty_event():
    """BAS-SCORE-EMPTY with the leftover penalty: seat 1's one passenger costs 1."""
    state = _tally_board(penalty=True)
    assert _ends(state, "BAS-SCORE-EMPTY") == [
        ({"seat": 0, "points": 3, "left": 0}, "Seat 0's bus is empty: +3."),
        (
            {"seat": 1, "points": -1, "left": 1},
            "Seat 1 has 1 passenger left in the bus: -1 each (leftover penalty).",
        ),
    ]
    assert state.returns() == [3, 19]


def _tie_board(seniors1=(), skedaddled0=(), unhappy0=()):
    """The tie-break test's position: 18 points to 16 before the seniors, skedaddles and discards."""
    given = (
        [(0, "park", 3), (1, "park", 3), (0, "office", 4), (1, "office", 4)]
        + [(1, "school", 2)] * 4
        + [(0, "tennis court", 2)] * 3
    )
    state = board(players=2, buses={0: ["YT", "GT"]}, given=given)
    for pile, seat, codes in (
        (state.seniors, 1, seniors1),
        (state.skedaddled, 0, skedaddled0),
        (state.unhappy, 0, unhappy0),
    ):
        for code in codes:
            state.deck[kind(state, code)] -= 1
            pile[seat].append(kind(state, code))
    play(state, "drop 2 at tennis court")
    assert state.is_terminal()
    return state


def test_the_win_events_of_a_tie():
    """BAS-WIN: a tie on points goes to seniors plus skedaddled, else the win is shared."""
    state = _tie_board(seniors1=["RE", "GE"])
    assert _ends(state, "BAS-WIN") == [
        (
            {"winners": [1], "scores": [18, 18], "best": 18, "tied": [0, 1], "tie_break": 2},
            "Final scores: Seat 0 18, Seat 1 18. Seat 0 and Seat 1 tie on 18 points; Seat 1 wins with "
            "the most seniors and skedaddled passengers (2).",
        )
    ]
    state = _tie_board(seniors1=["RE", "GE"], skedaddled0=["RB", "RM"], unhappy0=["BB", "BM"])
    assert _ends(state, "BAS-WIN") == [
        (
            {"winners": [0, 1], "scores": [18, 18], "best": 18, "tied": [0, 1], "tie_break": 2},
            "Final scores: Seat 0 18, Seat 1 18. Seat 0 and Seat 1 tie on 18 points; Seat 0 and Seat 1 "
            "also tie on seniors and skedaddled (2) and share the win.",
        )
    ]
    assert state.status() == "Game over: Seat 0 and Seat 1 share the win with 18 points."
    state = _tie_board()
    assert state.status() == "Game over: Seat 0 wins with 18 points."


def test_the_tenth_senior_is_kept():
    """BAS-SENIOR, BAS-SENIOR-CAP: a player with 9 seniors keeps a 10th (1 point); none is lost."""
    state = new_state(2)
    deal(state, "YE", "GB", "BM", "PS")
    for code in ("YE", "GE", "GE", "BE", "BE", "PE", "PE", "RE", "RE"):
        state.deck[kind(state, code)] -= 1
        state.seniors[0].append(kind(state, code))
    deal(state, "RB")
    play(state, "pick up yellow")
    assert len(state.seniors[0]) == 10 and state.seniors_lost[0] == []
    assert _ends(state, "BAS-SENIOR") == [
        (
            {"seat": 0, "seniors": 10, "card": "YE"},
            "YE is a senior: not in the bus but face down beside it (1 point at the end); "
            "Seat 0 has 10 seniors.",
        )
    ]
    assert _ends(state, "BAS-SENIOR-CAP") == []
    assert state.view(0)["buses"][0]["seniors_lost"] == 0 and state.returns()[0] == 10


def test_the_eleventh_senior_event():
    data = BusAndStopGame().sheet.to_dict()
    data["deck"]["senior"] = 3
    state = new_state(2, sheet=data)
    deal(state, "YE", "GB", "BM", "PS")
    for code in ("YE", "YE", "GE", "GE", "GE", "BE", "BE", "BE", "PE", "PE"):
        state.deck[kind(state, code)] -= 1
        state.seniors[0].append(kind(state, code))
    deal(state, "RB")
    play(state, "pick up yellow")
    assert _ends(state, "BAS-SENIOR-CAP") == [
        (
            {"seat": 0, "card": "YE", "cap": 10},
            "Seat 0 already holds 10 seniors: YE leaves the game and scores nothing.",
        )
    ]
    assert state.view(None)["buses"][0]["seniors_lost"] == 1


def test_the_status_names_the_deal_only_after_a_redeal():
    """BAS-SETUP-SAMECOLOUR: the status counts the cards dealt, and the deal once the stop was redealt."""
    state = new_state(2)
    assert state.status() == "Deal card 1 of 5 to the bus stop."
    deal(state, "YB", "YB", "YM")
    assert state.status() == "Deal card 4 of 5 to the bus stop."
    deal(state, "YT", "YS")  # one colour: redealt
    assert state.setup_deals == 2
    assert state.status() == "Deal card 1 of 5 to the bus stop (deal 2)."
    assert state.view(None)["status"] == state.status()
    same = [e for e in state.events() if e.rule == "BAS-SETUP-SAMECOLOUR"]
    assert [(e.data, e.text) for e in same] == [
        (
            {"deal": 2, "colour": "yellow"},
            "All 5 passengers at the stop are yellow: they go back into the deck, which is reshuffled, "
            "and 5 are dealt again (deal 2).",
        )
    ]


def test_unhappy_discards_events_and_view():
    """BAS-UNHAPPY: the forced turn, each discard and the stop are recorded with their facts; the view
    counts the discards of the turn under way only."""
    state = unhappy_board()
    assert state.view(0)["unhappy_discards"] == 0 and state.view(0)["node"] == "unhappy"
    assert (state.events()[-1].data, state.events()[-1].text) == (
        {"seat": 0, "what": "must"},
        "Seat 0 can neither pick up (no colour fits in the bus) nor drop off: Seat 0 must discard one or "
        "more passengers as unhappy (-1 each).",
    )
    play(state, "unhappy yellow businessman")
    assert state.view(1)["unhappy_discards"] == 1
    assert (state.events()[-1].data, state.events()[-1].text) == (
        {"seat": 0, "card": "YB", "what": "discard", "name": "yellow businessman"},
        "Seat 0 discards YB (yellow businessman) face up as an unhappy passenger (-1).",
    )
    play(state, "unhappy green mother")
    assert state.view(None)["unhappy_discards"] == 2
    play(state, "stop discarding")
    assert (state.events()[-2].data, state.events()[-2].text) == (
        {"seat": 0, "what": "stop"},
        "Seat 0 stops discarding; the turn is over.",
    )
    assert state.view(None)["unhappy_discards"] == 0 and state.view(None)["node"] == "turn"
    assert state.view(None)["buses"][0]["unhappy"] == ["YB", "GM"]
