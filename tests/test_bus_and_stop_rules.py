"""Unit tests per rule of Bus & Stop (rule IDs ``BAS-…``, ``shared/rules/bus_and_stop.md``).

Scenarios are set up with scripted deals (``deal(state, "YB", ...)``: the chance outcomes by
label) and, where reaching a position by play would take dozens of moves, by placing cards from
the deck straight into a bus or handing destination cards to a seat (``board(...)``, which keeps
every card somewhere). Expected values are worked out by hand from the rule catalogue's figures
(written out below), not read back from the engine.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest

from bus_lab import IllegalActionError, ParameterError, Session
from bus_lab.games.bus_and_stop import (
    CHOOSE_BASE,
    NO_SKEDADDLE,
    PASS,
    PICK_BASE,
    SKEDADDLE_BASE,
    UNHAPPY_DONE,
    BusAndStopGame,
    BusAndStopPhase,
    ComponentSheetError,
    default_sheet_data,
    drop_action,
    load_sheet,
)

# -- the placeholder figures, written out from the catalogue (BAS-COMP-*) ------------------------
COLOURS = {"Y": "yellow", "G": "green", "B": "blue", "P": "purple", "R": "red"}
TYPES = {"B": "businessman", "T": "tennis player", "M": "mother", "S": "student", "E": "senior"}
PER_COLOUR = {"B": 4, "T": 3, "M": 3, "S": 3, "E": 2}
BEST = {  # a stack's best card: counts -> points (BAS-COMP-SIDES)
    "office": ([4, 5, 6, 7], [6, 10, 14, 20]),
    "park": ([3, 4, 5, 6], [4, 7, 11, 16]),
    "school": ([2, 3, 4, 5], [2, 4, 7, 11]),
    "tennis court": ([2, 4, 6], [2, 7, 14]),
    "multicoloured": ([2, 3, 4, 5], [2, 5, 9, 14]),
}
STACK_SIZES = {"office": 4, "park": 4, "school": 4, "tennis court": 4, "multicoloured": 2}
STACK_INDEX = {name: i for i, name in enumerate(BEST)}
ALL_CODES = [c + t for c in COLOURS for t in TYPES]


def card_points(stack: str, k: int) -> list[int]:
    """Points of the k-th card (1 = top) of a stack: k - 1 fewer per count, never below 1."""
    return [max(1, p - (k - 1)) for p in BEST[stack][1]]


# -- helpers ----------------------------------------------------------------------------------
def new_state(players: int = 2, **params):
    return BusAndStopGame(players=players, **params).new_initial_state()


def deal(state, *codes: str) -> None:
    """Apply chance outcomes by their labels (passenger codes)."""
    for code in codes:
        assert state.is_chance_node(), state.status()
        state.apply_action(state.string_to_action(code))


def play(state, *labels: str) -> None:
    """Apply decisions by their labels, e.g. ``"pick up yellow"``."""
    for label in labels:
        assert not state.is_chance_node(), state.status()
        state.apply_action(state.string_to_action(label))


def labels(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def kind(state, code: str) -> int:
    return state.sheet.parse(code)


def place(state, seat: int, *codes: str) -> None:
    """Move passenger cards from the deck into ``seat``'s bus."""
    for code in codes:
        k = kind(state, code)
        assert state.deck[k] > 0, f"no {code} left in the deck"
        state.deck[k] -= 1
        state.bus[seat][k] += 1


def hand_out(state, seat: int, stack: str, count: int) -> int:
    """Give ``seat`` the top card of ``stack`` as if claimed with ``count`` passengers; returns its points."""
    s = STACK_INDEX[stack]
    index = state.stacks[s].pop(0)
    points = state.sheet.stacks[s].cards[index].points_for(count)
    state.claimed[seat].append((s, index, count, points))
    return points


def board(players: int = 2, stop=("YB", "GT", "BM", "PS", "RB"), buses=None, given=(), **params):
    """A game whose stop is ``stop`` and where, before seat 0's first turn starts, ``buses[seat]``
    passengers are in the buses and ``given`` destination cards ``(seat, stack, count)`` are claimed."""
    state = new_state(players, **params)
    deal(state, *stop[:4])
    for seat, codes in (buses or {}).items():
        place(state, seat, *codes)
    for seat, stack, count in given:
        hand_out(state, seat, stack, count)
    deal(state, stop[4])
    return state


def all_cards(state) -> Counter:
    """Every passenger card, wherever it is, by code."""
    sheet = state.sheet
    out = Counter()
    for k, c in enumerate(state.deck):
        out[sheet.code(k)] += c
    out.update(sheet.code(k) for k in state.stop)
    for seat in range(state.num_players):
        for k, c in enumerate(state.bus[seat]):
            out[sheet.code(k)] += c
        for pile in (state.seniors, state.seniors_lost, state.skedaddled, state.unhappy, state.dropped):
            out.update(sheet.code(k) for k in pile[seat])
    if state.pending is not None:
        out.update(sheet.code(k) for k in state.pending[2])
    return out


def full_deck() -> Counter:
    return Counter({c + t: PER_COLOUR[t] for c in COLOURS for t in TYPES})


def events_since(state, start: int, rule: str | None = None):
    return [e for e in state.events()[start:] if rule is None or e.rule == rule]


def tiny_sheet(cards_per_colour: int = 3) -> dict:
    """Two colours, businessmen and seniors only: 2 * (cards_per_colour + 1) passenger cards; one
    stack of 7 one-passenger office cards worth 1 point each."""
    return {
        "colours": [{"name": "yellow", "code": "Y"}, {"name": "green", "code": "G"}],
        "types": [{"name": "businessman", "code": "B"}, {"name": "senior", "code": "E", "senior": True}],
        "deck": {"businessman": cards_per_colour, "senior": 1},
        "stacks": [
            {
                "name": "office",
                "kind": "type",
                "type": "businessman",
                "cards": [{"counts": [1], "points": [1]}] * 7,
            }
        ],
    }


# -- components ---------------------------------------------------------------------------------
def test_BAS_COMP_PASSENGERS_placeholder_deck():
    """BAS-COMP-PASSENGERS: five colours x five types; per colour 4 businessmen, 3 tennis players,
    3 mothers, 3 students, 2 seniors: 75 cards; each card kind has a two-letter code."""
    sheet = load_sheet()
    assert [c.name for c in sheet.colours] == list(COLOURS.values())
    assert [t.name for t in sheet.types] == list(TYPES.values())
    assert [t.name for t in sheet.types if t.senior] == ["senior"]
    assert sheet.deck_size() == 5 * (4 + 3 + 3 + 3 + 2) == 75
    for code in ALL_CODES:
        k = sheet.parse(code)
        assert sheet.code(k) == code
        assert sheet.deck[k] == PER_COLOUR[code[1]]
        assert sheet.name(k) == f"{COLOURS[code[0]]} {TYPES[code[1]]}"
    state = new_state()
    assert all_cards(state) == full_deck()
    assert state.events()[0].rule == "BAS-COMP-PASSENGERS" and "75 passenger cards" in state.events()[0].text


def test_BAS_COMP_DESTINATIONS_four_of_each_kind_and_two_multicoloured():
    """BAS-COMP-DESTINATIONS: 4 office, 4 park, 4 school, 4 tennis court, 2 multicoloured = 18."""
    sheet = load_sheet()
    assert {s.name: len(s.cards) for s in sheet.stacks} == STACK_SIZES
    assert sheet.destination_count() == 18
    assert new_state().destinations_left() == 18
    kinds = {
        s.name: (s.kind, None if s.type_index is None else sheet.types[s.type_index].name)
        for s in sheet.stacks
    }
    assert kinds == {
        "office": ("type", "businessman"),
        "park": ("type", "mother"),
        "school": ("type", "student"),
        "tennis court": ("type", "tennis player"),
        "multicoloured": ("multicoloured", None),
    }


def test_BAS_COMP_SIDES_counts_and_points_per_card():
    """BAS-COMP-SIDES: the office's known best card 4/5/6/7 -> 6/10/14/20; the placeholder best cards;
    the k-th card of a stack scores k-1 fewer points per count, minimum 1."""
    sheet = load_sheet()
    for stack in sheet.stacks:
        counts, _ = BEST[stack.name]
        got = sorted(
            ([list(c.counts), list(c.points)] for c in stack.cards), key=lambda x: x[1], reverse=True
        )
        want = [[counts, card_points(stack.name, k)] for k in range(1, STACK_SIZES[stack.name] + 1)]
        assert got == want, stack.name
    office = sheet.stacks[STACK_INDEX["office"]].cards[0]
    assert office.points_for(7) == 20 and office.points_for(4) == 6
    with pytest.raises(ValueError, match="accepts 4, 5, 6, 7"):
        office.points_for(3)
    assert card_points("school", 4) == [1, 1, 4, 8]  # the minimum of 1 at work


BAD_SHEETS = [
    (lambda d: d["stacks"][1]["cards"][2].update(points=[1, 2, 3]), r"stacks\[1\]\.cards\[2\]\.points"),
    (
        lambda d: d["stacks"][0]["cards"][0].update(counts=[5, 4, 6, 7]),
        r"stacks\[0\]\.cards\[0\]\.counts: must increase",
    ),
    (
        lambda d: d["stacks"][0]["cards"][0].update(counts=[4, 5, 6, 11]),
        r"stacks\[0\]\.cards\[0\]\.counts.*BAS-PICK-LIMIT",
    ),
    (
        lambda d: d["stacks"][4]["cards"][0].update(counts=[2, 6]),
        r"stacks\[4\]\.cards\[0\]\.counts.*5 colours",
    ),
    (lambda d: d["stacks"][0].update(type="pilot"), r"stacks\[0\]\.type: must be a passenger type"),
    (lambda d: d["stacks"][0].update(type="senior"), r"stacks\[0\]\.type.*BAS-SENIOR"),
    (lambda d: d["stacks"][0].update(kind="colour"), r"stacks\[0\]\.kind"),
    (lambda d: d["stacks"][2].update(name="Office"), r"stacks\[2\]\.name: 'Office' is used twice"),
    (
        lambda d: d.__setitem__(
            "stacks", d["stacks"][:1] + [dict(d["stacks"][4], cards=d["stacks"][4]["cards"][:1])]
        ),
        r"stacks: hold 5 destination cards.*BAS-END-TRIGGER",
    ),
    (lambda d: d["deck"].pop("mother"), r"deck\.mother: is missing"),
    (lambda d: d["deck"].update(senior=-1), r"deck\.senior: must be a whole number from 0 to 200"),
    (lambda d: d["deck"].update(senior={"yellow": 2}), r"deck\.senior\.green: is missing"),
    (lambda d: d["deck"].update(pilot=3), r"deck\.pilot: is not a passenger type"),
    (lambda d: d["colours"][1].update(code="Y"), r"colours\[1\]\.code: 'Y' is used twice"),
    (lambda d: d["colours"][0].update(code="yy"), r"colours\[0\]\.code: must be one capital letter"),
    (lambda d: d["colours"][0].update(ink="orange"), r"colours\[0\]\.ink"),
    (lambda d: d["types"][0].update(senior=True), r"types: marks more than one type as senior"),
    (lambda d: d.__setitem__("colours", d["colours"][:1]), r"colours: must be a list of 2 to 9 entries"),
    (lambda d: d.__setitem__("passengers", []), r"passengers: is not a field"),
]


@pytest.mark.parametrize("spoil, message", BAD_SHEETS, ids=[f"sheet{i}" for i in range(len(BAD_SHEETS))])
def test_BAS_COMP_SIDES_bad_sheet_names_the_field(spoil, message):
    """BAS-COMP-PASSENGERS, BAS-COMP-DESTINATIONS, BAS-COMP-SIDES: a bad component sheet raises
    ComponentSheetError (a ParameterError) naming the field."""
    data = default_sheet_data()
    spoil(data)
    with pytest.raises(ComponentSheetError, match=message):
        BusAndStopGame(sheet=data)
    with pytest.raises(ParameterError):
        load_sheet(data)


def test_BAS_COMP_SIDES_a_teachers_sheet_from_a_file_or_a_dict(tmp_path):
    """BAS-COMP-SIDES: another sheet (file or dict) replaces the placeholders; params stay JSON-safe
    and a saved game replays under the same sheet."""
    data = default_sheet_data()
    data["stacks"][0]["cards"][3] = {"counts": [4, 5, 6, 7], "points": [7, 11, 15, 25]}  # a better 4th card
    data["deck"]["senior"] = {"yellow": 2, "green": 2, "blue": 3, "purple": 2, "red": 2}
    path = tmp_path / "my_box.json"
    path.write_text(json.dumps(data))
    for sheet in (data, str(path), path):
        game = BusAndStopGame(players=3, sheet=sheet)
        state = game.new_initial_state()
        assert state.sheet.deck_size() == 75 + 1  # blue has one more senior
        top = state.top_card(STACK_INDEX["office"])
        assert list(top.points) == [7, 11, 15, 25]  # now the best office card: on top (BAS-SETUP-ORDER)
        json.dumps(game.params)
        session = Session(game, seed=5, bots="random")
        session.run_to_end()
        saved = json.loads(json.dumps(session.state.to_dict()))
        assert game.state_from_dict(saved).history() == session.state.history()
    game = BusAndStopGame(sheet=data)
    data["stacks"][0]["cards"][3]["points"][0] = 99  # the game keeps its own copy
    assert game.params["sheet"]["stacks"][0]["cards"][3]["points"][0] == 7
    assert max(c.points[0] for c in game.sheet.stacks[0].cards) == 7
    assert BusAndStopGame(sheet=path).params["sheet"] == json.loads(path.read_text())  # contents, not path
    with pytest.raises(ComponentSheetError, match="cannot read the component sheet file"):
        BusAndStopGame(sheet=str(tmp_path / "missing.json"))
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(ComponentSheetError, match="not valid JSON"):
        BusAndStopGame(sheet=str(tmp_path / "broken.json"))


def test_parameters_are_checked():
    """BAS-END-FINAL, BAS-SCORE-EMPTY options and the 2-4 players: bad values name what is allowed."""
    for bad, message in [
        (dict(players=5), "players=5 is out of range"),
        (dict(players=1), "players=1"),
        (dict(final_round="none"), "final_round='none' is not allowed"),
        (dict(leftover_penalty=1), "leftover_penalty=1 is not allowed"),
        (dict(sheet=3), "sheet=3"),
    ]:
        with pytest.raises(ParameterError, match=message):
            BusAndStopGame(**bad)
    game = BusAndStopGame(players=2, final_round="full_turn", leftover_penalty=True)
    assert game.params == {"players": 2, "final_round": "full_turn", "leftover_penalty": True, "sheet": None}
    assert hash(game) == hash(BusAndStopGame(players=2, final_round="full_turn", leftover_penalty=True))
    same = [BusAndStopGame(sheet=default_sheet_data()) for _ in range(2)]
    assert same[0] == same[1] and hash(same[0]) == hash(same[1])


# -- setup ---------------------------------------------------------------------------------------
def test_BAS_SETUP_STACKS_only_the_top_card_can_be_claimed():
    """BAS-SETUP-STACKS: stacks by kind, face up; a drop-off takes the top card, and the next card
    becomes the top."""
    state = board(buses={0: ["YB", "GB", "BB", "PB", "RB"]})
    view = state.view(1)
    assert [s["name"] for s in view["stacks"]] == list(BEST)
    assert view["stacks"][0]["top"] == {"counts": [4, 5, 6, 7], "points": [6, 10, 14, 20]}
    assert [s["cards_left"] for s in view["stacks"]] == list(STACK_SIZES.values())
    play(state, "drop 4 at office")
    while state.phase() is BusAndStopPhase.CHOOSE:
        play(state, labels(state)[0])
    view = state.view(None)
    assert view["stacks"][0]["top"]["points"] == card_points("office", 2)
    assert view["stacks"][0]["cards_left"] == 3


def test_BAS_SETUP_ORDER_highest_values_on_top():
    """BAS-SETUP-ORDER: sorted by the points for the largest count, then for the smallest."""
    data = default_sheet_data()
    data["stacks"][2]["cards"] = [  # school, listed in a muddled order
        {"counts": [2, 3], "points": [1, 5]},
        {"counts": [2, 3], "points": [3, 4]},
        {"counts": [2, 3], "points": [2, 5]},
        {"counts": [2, 3], "points": [9, 9]},
    ]
    state = BusAndStopGame(sheet=data).new_initial_state()
    school = state.sheet.stacks[2].cards
    assert [list(school[i].points) for i in state.stacks[2]] == [[9, 9], [2, 5], [1, 5], [3, 4]]
    assert any(e.rule == "BAS-SETUP-ORDER" for e in state.events())


def test_BAS_SETUP_STOP_five_cards_dealt_one_chance_step_each():
    """BAS-SETUP-STOP: the stop is 5 cards dealt face up, each a chance step with probability
    (cards of that kind left) / (cards left)."""
    state = new_state()
    first = dict(state.chance_outcomes())
    assert len(first) == 25 and sum(first.values()) == 1
    assert first[kind(state, "YB")] == Fraction(4, 75) and first[kind(state, "RE")] == Fraction(2, 75)
    deal(state, "YB")
    second = dict(state.chance_outcomes())
    assert second[kind(state, "YB")] == Fraction(3, 74) and second[kind(state, "GB")] == Fraction(4, 74)
    deal(state, "YB", "YB", "YB")
    assert kind(state, "YB") not in dict(state.chance_outcomes())
    with pytest.raises(IllegalActionError, match="no yellow businessman"):
        state.apply_action(kind(state, "YB"))
    deal(state, "RE")
    assert state.stop == [kind(state, c) for c in ("YB", "YB", "YB", "YB", "RE")]
    assert state.view(0)["stop"] == ["YB", "YB", "YB", "YB", "RE"] and state.view(0)["deck"] == 70
    assert sum(e.rule == "BAS-SETUP-STOP" for e in state.events()) == 1 + 5


def test_BAS_SETUP_SAMECOLOUR_reshuffles_until_mixed():
    """BAS-SETUP-SAMECOLOUR: five of one colour go back and five more are dealt."""
    state = new_state()
    deal(state, "YB", "YM", "YT", "YS", "YE")
    assert state.stop == [] and sum(state.deck) == 75 and state.is_chance_node()
    assert state.events()[-1].rule == "BAS-SETUP-SAMECOLOUR"
    deal(state, "GB", "GB", "GM", "GT", "YE")
    assert state.phase() is BusAndStopPhase.TURN and state.view(0)["stop"] == ["GB", "GB", "GM", "GT", "YE"]


def test_BAS_SETUP_SAMECOLOUR_at_most_100_reshuffles():
    """BAS-SETUP-SAMECOLOUR ruling: after 100 reshuffles the 101st one-colour deal stands."""
    state = new_state()
    for _ in range(100):
        deal(state, "RB", "RB", "RM", "RT", "RS")
        assert state.is_chance_node() and state.stop == []
    deal(state, "RB", "RB", "RM", "RT", "RS")
    assert state.phase() is BusAndStopPhase.TURN and len(state.stop) == 5
    same = [e for e in state.events() if e.rule == "BAS-SETUP-SAMECOLOUR"]
    assert len(same) == 101 and "play starts anyway" in same[-1].text


def test_BAS_SETUP_FIRST_seat_zero_starts_then_seat_order():
    """BAS-SETUP-FIRST: seat 0 moves first; then 1, 2, wrapping round."""
    state = board(players=3)
    assert state.current_player() == 0
    seen = []
    for _ in range(4):
        seen.append(state.current_player())
        colour = labels(state)[0]
        assert colour.startswith("pick up")
        play(state, colour)
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
    assert seen == [0, 1, 2, 0]


# -- a turn ----------------------------------------------------------------------------------------
def test_BAS_TURN_pick_up_or_drop_off_and_no_pass():
    """BAS-TURN: the legal moves are pick-ups and drop-offs; passing is not one of them."""
    state = board(buses={0: ["YT", "GT"]})
    assert labels(state) == [
        "pick up yellow",
        "pick up green",
        "pick up blue",
        "pick up purple",
        "pick up red",
        "drop 2 at tennis court",
        "drop 2 at multicoloured",
    ]
    assert state.why_illegal(PASS) == "passing is allowed only in the final round (BAS-TURN, BAS-END-FINAL)"
    assert state.events()[-1].rule == "BAS-TURN"


def test_BAS_PICK_ALL_takes_every_card_of_the_colour():
    """BAS-PICK-ALL: all yellows leave the stop for seat 0; the others stay."""
    state = board(stop=("YB", "GT", "YM", "BM", "YE"))
    play(state, "pick up yellow")
    assert state.view(0)["buses"][0]["bus"] == ["YB", "YM"]
    assert state.view(0)["stop"] == ["GT", "BM"]
    assert state.why_illegal(state.string_to_action("GT")) is None  # refilling now
    text = [e for e in state.events() if e.rule == "BAS-PICK-ALL"][-1].text
    assert text == "Seat 0 picks up every yellow passenger at the stop: YB YM YE."


def test_BAS_PICK_LIMIT_a_colour_that_would_overflow_cannot_be_picked():
    """BAS-PICK-LIMIT: 10 seats; every non-senior card of the colour must fit; seniors do not count."""
    nine = ["PB", "PB", "PB", "PB", "PT", "PT", "PT", "RS", "RS"]
    state = board(stop=("YB", "YM", "GT", "BE", "BE"), buses={0: nine})
    assert state.bus_size(0) == 9
    assert labels(state)[:3] == [
        "pick up green",
        "pick up blue",
        "drop 4 at office",
    ]  # not yellow: 9 + 2 > 10
    reason = state.why_illegal(PICK_BASE + 0)  # yellow
    assert reason == (
        "yellow would put 2 passengers in Seat 0's bus, which has 9 of 10 seats taken: all of them "
        "must fit (BAS-PICK-LIMIT)"
    )
    with pytest.raises(IllegalActionError, match="BAS-PICK-LIMIT"):
        state.apply_action(PICK_BASE + 0)
    assert state.why_illegal(PICK_BASE + 4) == "there is no red passenger at the bus stop (BAS-PICK-ALL)"
    play(state, "pick up blue")  # two seniors: no seat needed
    assert state.bus_size(0) == 9 and len(state.seniors[0]) == 2


def test_BAS_PICK_LIMIT_exactly_full_is_allowed():
    """BAS-PICK-LIMIT: 8 + 2 = 10 fits."""
    state = board(stop=("YB", "YM", "GT", "BM", "RS"), buses={0: ["PB"] * 4 + ["PT"] * 3 + ["RS"]})
    play(state, "pick up yellow")
    assert state.bus_size(0) == 10


def test_BAS_SENIOR_seniors_sit_beside_the_bus_for_a_point():
    """BAS-SENIOR: picked-up seniors go face down beside the bus, 1 point each, no seat."""
    state = board(stop=("GE", "GB", "GE", "BM", "RB"))
    play(state, "pick up green")
    assert state.bus_size(0) == 1 and [state.sheet.code(k) for k in state.seniors[0]] == ["GE", "GE"]
    assert state.returns() == [2, 0]
    assert state.score_breakdown(0) == [
        {"label": "seniors beside the bus", "rule": "BAS-SCORE-SENIOR", "points": 2, "times": 2}
    ]
    assert sum(e.rule == "BAS-SENIOR" for e in state.events()) == 2


def test_BAS_SENIOR_CAP_seniors_beyond_ten_leave_the_game():
    """BAS-SENIOR-CAP: a player holding 10 seniors may still pick up; the 11th scores nothing."""
    data = default_sheet_data()
    data["deck"]["senior"] = 3  # 15 seniors, so a player can reach 11
    state = new_state(2, sheet=data)
    deal(state, "YE", "GB", "BM", "PS")
    for code in ("YE", "YE", "GE", "GE", "GE", "BE", "BE", "BE", "PE", "PE"):
        k = kind(state, code)
        state.deck[k] -= 1
        state.seniors[0].append(k)
    deal(state, "RB")
    assert "pick up yellow" in labels(state)
    play(state, "pick up yellow")
    assert len(state.seniors[0]) == 10 and [state.sheet.code(k) for k in state.seniors_lost[0]] == ["YE"]
    assert state.returns()[0] == 10
    assert state.events()[-1].rule == "BAS-SENIOR-CAP" and "scores nothing" in state.events()[-1].text
    assert all_cards(state)["YE"] == 3  # the lost senior is still accounted for, out of play


def test_BAS_REFILL_one_card_at_a_time_from_the_deck():
    """BAS-REFILL: after a pick-up the stop is refilled to 5, one chance step per card."""
    state = board(stop=("YB", "YM", "YT", "BM", "RB"))
    play(state, "pick up yellow")
    steps = 0
    for code in ("GS", "PT", "PT"):
        assert state.phase() is BusAndStopPhase.REFILL and len(state.stop) == 2 + steps
        deal(state, code)
        steps += 1
    assert state.phase() is BusAndStopPhase.TURN and state.current_player() == 1
    assert state.view(1)["stop"] == ["BM", "RB", "GS", "PT", "PT"]
    assert sum(state.deck) == 75 - 5 - 3


def test_BAS_REFILL_empty_deck_leaves_the_stop_short():
    """BAS-REFILL ruling and BAS-END-TRIGGER: the deck runs out, the stop stays short, the end is triggered."""
    state = new_state(2, sheet=tiny_sheet())  # 8 cards: YB YB YB YE GB GB GB GE
    deal(state, "YB", "YB", "GB", "GB", "YE")
    assert sum(state.deck) == 3
    play(state, "pick up green")
    deal(state, "GB", "YB")  # stop: YB YB YE GB YB
    play(state, "pick up yellow")  # seat 1 takes 3 yellows + the senior, one card (GE) left
    deal(state, "GE")
    assert state.view(0)["stop"] == ["GB", "GE"] and sum(state.deck) == 0
    rules = [e.rule for e in state.events()]
    at = rules.index("BAS-END-TRIGGER")
    assert rules[at - 2 : at + 2] == ["BAS-REFILL", "BAS-REFILL", "BAS-END-TRIGGER", "BAS-END-FINAL"]
    assert state.trigger == {"seat": 1, "reason": "the bus stop cannot be refilled to 5"}
    assert "stays short with 2 cards" in [e.text for e in state.events() if e.rule == "BAS-REFILL"][-1]


def test_BAS_REFILL_SAMECOLOUR_reshuffle_once_then_play_on():
    """BAS-REFILL-SAMECOLOUR: a one-colour stop after a refill is reshuffled and redealt once; if the
    new five share a colour again, play goes on."""
    state = board(stop=("YB", "YM", "GT", "GB", "GM"))
    play(state, "pick up yellow")
    deal(state, "GS", "GE")
    assert state.stop == [] and state.phase() is BusAndStopPhase.REFILL
    assert sum(state.deck) == 75 - 2  # only the two yellows left the game's deck-and-stop
    deal(state, "GB", "GT", "GM", "GS", "GE")
    assert state.phase() is BusAndStopPhase.TURN and state.current_player() == 1
    same = [e for e in state.events() if e.rule == "BAS-REFILL-SAMECOLOUR"]
    assert [e.data["redeal"] for e in same] == [True, False]


# -- dropping off ---------------------------------------------------------------------------------
def test_BAS_DROP_TOP_counts_listed_on_the_top_card():
    """BAS-DROP-TOP: only counts the top card lists; only with enough passengers."""
    state = board(buses={0: ["YB", "GB", "BB", "PB", "PB", "RM"]})
    drops = [lab for lab in labels(state) if lab.startswith("drop")]
    assert drops == [
        "drop 4 at office",
        "drop 5 at office",
        "drop 2 at multicoloured",
        "drop 3 at multicoloured",
        "drop 4 at multicoloured",
        "drop 5 at multicoloured",
    ]
    assert (
        state.why_illegal(drop_action(0, 3))
        == "the top office card accepts 4/5/6/7 passengers, not 3 (BAS-DROP-TOP)"
    )
    assert (
        state.why_illegal(drop_action(0, 6))
        == "Seat 0 has 5 businessman passengers, fewer than 6 (BAS-DROP-TYPE)"
    )
    assert (
        state.why_illegal(drop_action(1, 3)) == "Seat 0 has 1 mother passenger, fewer than 3 (BAS-DROP-TYPE)"
    )


def test_BAS_DROP_TYPE_any_colours_of_the_type_and_keep_the_rest():
    """BAS-DROP-TYPE: drop exactly k of the type, colours free; chosen one by one; the rest stay."""
    state = board(buses={0: ["YB", "YB", "GB", "BB", "PB", "RM"], 1: ["RB"]})
    play(state, "drop 4 at office")
    assert state.phase() is BusAndStopPhase.CHOOSE
    assert labels(state) == [
        "choose yellow businessman",
        "choose green businessman",
        "choose blue businessman",
        "choose purple businessman",
    ]
    with pytest.raises(IllegalActionError, match=r"takes businessman passengers only \(BAS-DROP-TYPE\)"):
        state.apply_action(CHOOSE_BASE + kind(state, "RM"))
    play(state, "choose yellow businessman", "choose yellow businessman", "choose purple businessman")
    assert labels(state) == ["choose green businessman", "choose blue businessman"]
    play(state, "choose blue businessman")
    view = state.view(None)
    assert view["buses"][0]["bus"] == ["GB", "RM"]
    assert view["buses"][0]["dropped"] == ["YB", "YB", "BB", "PB"]
    assert view["buses"][0]["claimed"] == [{"stack": "office", "count": 4, "points": 6}]


def test_BAS_DROP_TYPE_forced_choices_are_made_for_you():
    """BAS-DROP-TYPE: with exactly k passengers of the type there is nothing to choose."""
    state = board(buses={0: ["YS", "GS", "RM"]})
    play(state, "drop 2 at school")
    assert (
        state.phase() is BusAndStopPhase.TURN and state.current_player() == 1
    )  # no skedaddle possible: seat 1's bus is empty
    assert state.view(None)["buses"][0]["claimed"] == [{"stack": "school", "count": 2, "points": 2}]
    assert [e.data.get("forced") for e in state.events() if e.rule == "BAS-DROP-TYPE"] == [True, True]


def test_BAS_DROP_MULTI_colours_must_be_pairwise_different():
    """BAS-DROP-MULTI: k passengers of pairwise different colours, any types."""
    state = board(buses={0: ["YB", "YM", "GT", "BM"]})
    assert "drop 4 at multicoloured" not in labels(state)  # 3 colours only
    assert state.why_illegal(drop_action(4, 4)) == (
        "Seat 0's bus has passengers of 3 colours: 4 pairwise different colours are needed (BAS-DROP-MULTI)"
    )
    play(state, "drop 3 at multicoloured", "choose yellow mother")
    # the yellow businessman is no longer allowed; the green and blue ones are forced
    assert state.phase() is BusAndStopPhase.TURN
    view = state.view(None)
    assert view["buses"][0]["bus"] == ["YB"] and sorted(view["buses"][0]["dropped"]) == ["BM", "GT", "YM"]
    assert view["buses"][0]["claimed"] == [{"stack": "multicoloured", "count": 3, "points": 5}]


def test_BAS_DROP_MULTI_a_second_card_of_a_colour_is_refused():
    """BAS-DROP-MULTI: choosing a colour already chosen is illegal, with the reason."""
    state = board(buses={0: ["YB", "YM", "GT", "GM", "BM", "BT"]})
    play(state, "drop 2 at multicoloured", "choose yellow businessman")
    assert labels(state) == [
        "choose green tennis player",
        "choose green mother",
        "choose blue tennis player",
        "choose blue mother",
    ]
    with pytest.raises(IllegalActionError, match=r"pairwise different \(BAS-DROP-MULTI\)"):
        state.apply_action(CHOOSE_BASE + kind(state, "YM"))
    assert state.why_illegal(CHOOSE_BASE + kind(state, "YM")).startswith(
        "a yellow passenger is already chosen"
    )


def test_BAS_DROP_CLAIM_you_choose_the_count_and_it_fixes_the_points():
    """BAS-DROP-CLAIM: the count chosen fixes the card's points; dropped passengers lie by the player."""
    for count, points in zip(*BEST["office"]):
        if count > 7:
            continue
        codes = (["YB", "GB", "BB", "PB", "RB", "YB", "GB"])[:count]
        state = board(buses={0: codes + ["RM"]})
        assert f"drop {count} at office" in labels(state)
        play(state, f"drop {count} at office")
        while state.phase() is BusAndStopPhase.CHOOSE:
            play(state, labels(state)[0])
        assert state.returns()[0] == points
        assert state.view(None)["buses"][0]["dropped"] == sorted(codes, key=ALL_CODES.index)
        claim = [e for e in state.events() if e.rule == "BAS-DROP-CLAIM"][-1]
        assert claim.data == {
            "seat": 0,
            "stack": "office",
            "count": count,
            "points": points,
            "cards": sorted(codes, key=ALL_CODES.index),  # chosen lowest kind first
            "multicoloured": False,
        }


# -- skedaddling ----------------------------------------------------------------------------------
def test_BAS_SKEDADDLE_offered_to_every_other_seat_once_in_seat_order():
    """BAS-SKEDADDLE: after seat 1 drops off at the office, seats 2, 3 and 0 are asked in that order, each
    once; a seat with no businessman is passed over; skedaddling is optional and scores 1."""
    state = board(players=4, buses={1: ["YB", "GB", "BB", "PB"], 2: ["RB", "RM"], 3: ["YM"], 0: ["GB", "YS"]})
    play(state, "pick up red")  # seat 0 takes the red businessman from the stop
    deal(state, "RT")
    assert state.current_player() == 1
    start = len(state.events())
    play(state, "drop 4 at office")  # forced: four businessmen
    asked = []
    while state.phase() is BusAndStopPhase.SKEDADDLE:
        seat = state.current_player()
        asked.append(seat)
        if seat == 2:
            assert labels(state) == ["skedaddle red businessman", "no skedaddle"]
            play(state, "skedaddle red businessman")
        else:
            assert labels(state) == [
                "skedaddle green businessman",
                "skedaddle red businessman",
                "no skedaddle",
            ]
            play(state, "no skedaddle")
    assert asked == [2, 0]
    offers = [
        (e.data["seat"], e.data.get("offered", True))
        for e in events_since(state, start, "BAS-SKEDADDLE")
        if "skedaddled" not in e.data
    ]
    assert offers == [(2, True), (3, False), (0, True)]
    assert state.skedaddled == [[], [], [kind(state, "RB")], []]
    assert state.returns() == [0, 6, 1, 0] and state.current_player() == 2  # then seat 2's own turn


def test_BAS_SKEDADDLE_multicoloured_matches_a_colour_just_dropped():
    """BAS-SKEDADDLE ruling: for a multicoloured drop, "the same colour" is any colour just dropped."""
    state = board(players=2, buses={0: ["YB", "GM"], 1: ["GT", "BS", "PS"]})
    play(state, "drop 2 at multicoloured")  # forced: yellow and green
    assert state.current_player() == 1 and state.phase() is BusAndStopPhase.SKEDADDLE
    assert labels(state) == ["skedaddle green tennis player", "no skedaddle"]  # blue, purple: not dropped
    assert state.why_illegal(SKEDADDLE_BASE + kind(state, "BS")) == (
        "a blue student does not match this drop-off (BAS-SKEDADDLE)"
    )
    assert state.why_illegal(SKEDADDLE_BASE + kind(state, "GM")) == "Seat 1 has no green mother in the bus"


def test_BAS_SKEDADDLE_can_empty_a_bus():
    """BAS-SKEDADDLE ruling: a skedaddle may take the last passenger out of a bus."""
    state = board(players=2, buses={0: ["YS", "GS"], 1: ["BS"]})
    play(state, "drop 2 at school", "skedaddle blue student")
    assert state.bus_size(1) == 0 and state.returns() == [2, 1]


# -- unhappy passengers --------------------------------------------------------------------------
FULL_NO_DROP = ["YB", "GB", "BB", "YM", "GM", "YT", "GT", "BT", "YS", "GS"]  # 3 B, 2 M, 3 T, 2 S


def unhappy_board(**params):
    """Seat 0's bus is full, every colour at the stop has a non-senior, and no drop-off is possible
    (school, tennis court and multicoloured stacks handed to seat 1; 3 businessmen < 4, 2 mothers < 3)."""
    given = [(1, "school", 2)] * 4 + [(1, "tennis court", 2)] * 4 + [(1, "multicoloured", 2)] * 2
    return board(buses={0: FULL_NO_DROP}, given=given, **params)


def test_BAS_UNHAPPY_neither_move_possible_forces_a_discard():
    """BAS-UNHAPPY: seat 0 must discard one or more passengers, face up, -1 each; that is the turn."""
    state = unhappy_board()
    assert state.phase() is BusAndStopPhase.UNHAPPY and state.current_player() == 0
    assert state.events()[-1].rule == "BAS-UNHAPPY"
    assert all(lab.startswith("unhappy ") for lab in labels(state)) and len(labels(state)) == 10
    assert state.why_illegal(UNHAPPY_DONE) == "at least one passenger must be discarded first (BAS-UNHAPPY)"
    points_before = state.returns()[0]
    play(state, "unhappy yellow businessman")
    assert "stop discarding" in labels(state)
    play(state, "unhappy green mother", "stop discarding")
    assert state.returns()[0] == points_before - 2 and state.bus_size(0) == 8
    assert state.current_player() == 1 and state.phase() is BusAndStopPhase.TURN
    assert state.view(None)["buses"][0]["unhappy"] == ["YB", "GM"]
    assert {
        "label": "unhappy passengers",
        "rule": "BAS-SCORE-UNHAPPY",
        "points": -2,
        "times": 2,
    } in state.score_breakdown(0)


def test_BAS_UNHAPPY_discarding_everything_ends_the_turn():
    """BAS-UNHAPPY: once the bus is empty the discards stop by themselves."""
    state = unhappy_board()
    while state.current_player() == 0:
        play(state, [lab for lab in labels(state) if lab != "stop discarding"][0])
    assert state.bus_size(0) == 0 and len(state.unhappy[0]) == 10


# -- the end --------------------------------------------------------------------------------------
def eleven_claimed(seat: int = 1) -> list[tuple[int, str, int]]:
    """Eleven destination cards handed to ``seat`` (seven left): all of park, school and tennis
    court, and the first three office cards... minus one: 4 + 4 + 3 = 11."""
    return [(seat, "park", 3)] * 4 + [(seat, "school", 2)] * 4 + [(seat, "tennis court", 2)] * 3


def test_BAS_END_TRIGGER_six_destinations_left_after_a_drop_off():
    """BAS-END-TRIGGER: after a drop-off leaves 6 destination cards, the end is triggered; the
    triggering turn (with its skedaddles) is over, then the final round starts."""
    state = board(players=3, buses={0: ["YT", "GT"], 2: ["BT"]}, given=eleven_claimed())
    assert state.destinations_left() == 7
    play(state, "drop 2 at tennis court")
    assert state.destinations_left() == 6
    assert state.trigger == {"seat": 0, "reason": "only 6 destination cards are left"}
    assert (
        state.phase() is BusAndStopPhase.SKEDADDLE and state.current_player() == 2
    )  # seat 1 has no tennis player
    play(state, "no skedaddle")
    # the final round: nobody has a legal drop-off left (the tennis court stack is empty), so
    # seats 1, 2 and 0 pass in turn and the game is over
    passes = [e.data["seat"] for e in state.events() if e.rule == "BAS-END-FINAL" and e.data.get("passed")]
    assert passes == [1, 2, 0] and state.is_terminal()
    assert [e.rule for e in state.events()].count("BAS-END-TRIGGER") == 1


def test_BAS_END_TRIGGER_not_before_six():
    """BAS-END-TRIGGER: seven left after a drop-off is not the end."""
    state = board(players=2, buses={0: ["YT", "GT"]}, given=eleven_claimed()[:-1])
    play(state, "drop 2 at tennis court")
    assert state.destinations_left() == 7 and state.trigger is None and state.stage == "play"


def test_BAS_END_FINAL_one_drop_off_each_from_the_next_seat_to_the_trigger():
    """BAS-END-FINAL: after seat 0 triggers, seats 1, 2, then 0 may each drop off once or pass; no
    pick-up; a seat with no legal drop-off passes by itself; skedaddling still applies."""
    state = board(
        players=3,
        buses={0: ["YT", "GT", "YS", "GS"], 1: ["BM", "PM", "RM"], 2: ["PB"]},
        given=eleven_claimed(2),
    )
    play(state, "drop 2 at tennis court")  # 6 destination cards left: the trigger
    assert state.stage == "final" and state.final_order == [1, 2, 0]
    assert state.current_player() == 1
    assert labels(state) == ["drop 2 at multicoloured", "drop 3 at multicoloured", "pass"]
    assert (
        state.why_illegal(PICK_BASE + 0)
        == "the final round allows one drop-off or a pass, no pick-up (BAS-END-FINAL)"
    )
    play(state, "drop 3 at multicoloured")  # forced: the blue, purple and red mothers
    assert (
        state.phase() is BusAndStopPhase.SKEDADDLE and state.current_player() == 2
    )  # purple was dropped: its businessman may go
    play(state, "skedaddle purple businessman")
    # seat 0 is passed over for the skedaddle (no blue, purple or red passenger); seat 2's bus is
    # now empty, so its final turn passes by itself; last comes seat 0, the trigger player
    passes = [e.data["seat"] for e in state.events() if e.rule == "BAS-END-FINAL" and e.data.get("passed")]
    assert passes == [2]
    assert state.current_player() == 0 and labels(state) == ["drop 2 at multicoloured", "pass"]
    assert not any(e.rule == "BAS-UNHAPPY" for e in state.events())
    play(state, "pass")
    assert state.is_terminal()
    assert [e.data["seat"] for e in state.events() if e.rule == "BAS-END-FINAL" and e.data.get("passed")] == [
        2,
        0,
    ]


def test_BAS_END_FINAL_full_turn_allows_a_pick_up():
    """BAS-END-FINAL option final_round="full_turn": a whole final turn, pick-ups included."""
    state = board(
        players=2,
        buses={0: ["YT", "GT"]},
        given=eleven_claimed(),
        final_round="full_turn",
        stop=("YB", "GT", "BM", "PS", "RE"),
    )
    play(state, "drop 2 at tennis court")
    assert state.stage == "final" and state.current_player() == 1
    assert "pick up red" in labels(state) and "pass" in labels(state)
    play(state, "pick up red")  # a senior: +1
    deal(state, "RB")
    assert state.current_player() == 0 and state.stage == "final"
    play(state, "pass")
    assert state.is_terminal() and len(state.seniors[1]) == 1


def test_BAS_SCORE_DEST_SENIOR_UNHAPPY_EMPTY_and_WIN_at_the_end():
    """BAS-SCORE-DEST, BAS-SCORE-SENIOR, BAS-SCORE-UNHAPPY, BAS-SCORE-EMPTY, BAS-WIN: the final tally,
    worked out by hand."""
    state = board(players=2, buses={0: ["YT", "GT"], 1: ["RM"]}, given=eleven_claimed())
    state.seniors[1].append(kind(state, "PE"))
    state.deck[kind(state, "PE")] -= 1
    state.unhappy[0].append(kind(state, "PS"))
    state.deck[kind(state, "PS")] -= 1
    play(state, "drop 2 at tennis court")  # seat 0: 1 point (4th tennis card: max(1, 2-3))
    assert state.is_terminal()  # seat 1 has no drop-off, seat 0's bus is empty: both pass by themselves
    seat1_dest = (
        sum(card_points("park", k)[0] for k in range(1, 5))
        + sum(card_points("school", k)[0] for k in range(1, 5))
        + sum(card_points("tennis court", k)[0] for k in range(1, 4))
    )
    assert seat1_dest == (4 + 3 + 2 + 1) + (2 + 1 + 1 + 1) + (2 + 1 + 1)
    seat0 = card_points("tennis court", 4)[0] - 1 + 3  # destination, one unhappy, empty bus
    seat1 = seat1_dest + 1  # one senior; one passenger left in the bus costs nothing by default
    assert state.returns() == [seat0, seat1] == [3, 20]
    assert state.winners() == [1]
    rules = {e.rule for e in state.events()[-8:]}
    assert {"BAS-SCORE-DEST", "BAS-SCORE-SENIOR", "BAS-SCORE-UNHAPPY", "BAS-SCORE-EMPTY", "BAS-WIN"} <= rules
    assert state.score_breakdown(0) == [
        {"label": "tennis court card, 2 passengers", "rule": "BAS-SCORE-DEST", "points": 1, "times": 1},
        {"label": "unhappy passengers", "rule": "BAS-SCORE-UNHAPPY", "points": -1, "times": 1},
        {"label": "empty bus bonus", "rule": "BAS-SCORE-EMPTY", "points": 3, "times": 1},
    ]


def test_BAS_SCORE_EMPTY_bonus_only_at_the_end_and_the_leftover_penalty():
    """BAS-SCORE-EMPTY: +3 for an empty bus at the end only; option leftover_penalty: -1 per passenger left."""
    fresh = board(players=2)
    assert fresh.returns() == [0, 0] and fresh.score_breakdown(1) == []  # empty buses mid-game: no bonus yet
    for penalty, expected in ((False, [1 + 3, 0]), (True, [1 + 3, -2])):
        state = board(
            players=2,
            buses={0: ["YT", "GT"], 1: ["RM", "RB"]},
            given=eleven_claimed(seat=0),
            leftover_penalty=penalty,
        )
        before = state.returns()
        play(state, "drop 2 at tennis court")  # the 4th tennis card: 1 point; the trigger
        assert state.is_terminal()  # seat 1 cannot drop off (one colour, two businessmen short)
        assert [r - b for r, b in zip(state.returns(), before)] == expected
        if penalty:
            assert {
                "label": "passengers left in the bus",
                "rule": "BAS-SCORE-EMPTY",
                "points": -2,
                "times": 2,
            } in state.score_breakdown(1)


def test_BAS_WIN_tie_goes_to_seniors_plus_skedaddled_then_shared():
    """BAS-WIN: equal totals -> most seniors + skedaddled; still equal -> they share the win.

    By hand: seat 0 holds park (count 3, 1st card) 4 + office (count 4, 1st card) 6 + three tennis
    cards (count 2) 2 + 1 + 1 = 14, then drops at the 4th tennis card for 1: 15, +3 empty bus = 18.
    Seat 1 holds park (2nd card) 3 + office (2nd card) 5 + four school cards (count 2)
    2 + 1 + 1 + 1 = 13, +3 empty bus = 16.
    """
    given = (
        [(0, "park", 3), (1, "park", 3), (0, "office", 4), (1, "office", 4)]
        + [(1, "school", 2)] * 4
        + [(0, "tennis court", 2)] * 3
    )

    def finish(seniors1=(), skedaddled0=(), unhappy0=()):
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

    assert (s := finish()).returns() == [18, 16] and s.winners() == [0]
    s = finish(seniors1=["RE", "GE"])
    assert s.returns() == [18, 18] and s.winners() == [1]  # 2 seniors against 0
    assert "tie on 18 points" in s.events()[-1].text and s.events()[-1].rule == "BAS-WIN"
    s = finish(seniors1=["RE", "GE", "BE", "PE"], skedaddled0=["RB", "RM"])
    assert s.returns() == [20, 20] and s.winners() == [1]  # 4 against 2
    s = finish(seniors1=["RE", "GE"], skedaddled0=["RB", "RM"], unhappy0=["BB", "BM"])
    assert s.returns() == [18, 18] and s.winners() == [0, 1]  # 2 against 2: shared
    assert "share the win" in s.events()[-1].text and "share the win" in s.status()


def test_cards_are_conserved_in_every_move():
    """BAS-SETUP-STOP, BAS-PICK-ALL, BAS-REFILL, BAS-DROP-CLAIM, BAS-SKEDADDLE, BAS-UNHAPPY: every card is
    somewhere, once, through whole seeded games."""
    for seed in range(3):
        session = Session(BusAndStopGame(players=4), seed=seed, bots="random")
        while session.step() is not None:
            assert all_cards(session.state) == full_deck()
        assert session.state.is_terminal()


def test_scripted_deck_through_a_session():
    """BAS-SETUP-STOP, BAS-PICK-ALL: a Session's scripted deck uses the passenger codes."""
    session = Session(BusAndStopGame(players=2), seed=1, deck=["YB", "YM", "GT", "BM", "RE", "PS"])
    session.run_to_end()
    assert session.state.view(0)["stop"] == ["YB", "YM", "GT", "BM", "RE"]
    session.play("pick up yellow")
    session.step()
    assert session.state.view(0)["stop"] == ["GT", "BM", "RE", "PS"]
    assert session.state.action_to_string(NO_SKEDADDLE) == "no skedaddle"
