"""Ride the Bus and the engine contract: typed moves, card notation, scripted decks, phases and the
shape of ``view(seat)`` (every option set, every seat, every phase of a few seeded games)."""

from __future__ import annotations

import json
import random
import types
import typing

import pytest
from rtb_script import ALL_CODES, deal, new_state, say
from test_invariants import CONFIGS

import bus_lab
from bus_lab import IllegalActionError, InputTypeError, ParameterError, Session, load_game
from bus_lab.engine import Actor
from bus_lab.engine.policies import sample_chance
from bus_lab.games.ride_the_bus import moves as M
from bus_lab.games.ride_the_bus.cards import parse_card
from bus_lab.games.ride_the_bus.moves import Deal, Give, Guess
from bus_lab.games.ride_the_bus.phases import PHASES, Part, RideTheBusPhase
from bus_lab.games.ride_the_bus.views import RideTheBusView

RTB_CONFIGS = [params for name, params in CONFIGS if name == "ride_the_bus"]
RTB_IDS = ["-".join(f"{k}={v}" for k, v in params.items()) for params in RTB_CONFIGS]


def walk(game, seed: int):
    """Every state of one seeded random game, the first included."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


# -- typed moves -----------------------------------------------------------------------------------
def test_moves_encode_the_action_numbers_of_the_history():
    """Cards are 0-51 (rank * 4 + suit), guesses 100-109 in answer order, gives 200 + seat."""
    assert Deal("2C").action == 0 and Deal("AS").action == 51 and Deal("TD").action == 8 * 4 + 1
    assert [Guess(a).action for a in M.ANSWERS] == list(range(100, 110))
    assert (M.RED, M.BLACK, M.HIGHER, M.SPADES) == (100, 101, 102, 109)
    assert [Give(k).action for k in range(8)] == list(range(200, 208))
    assert Guess("red") == Guess("red", label="anything") and hash(Guess("red")) == hash(Guess("red"))
    assert (Guess.kind, Give.kind, Deal.kind) == ("guess", "give", "deal")


#: The documented numbering of every move (the history format): cards, guesses, gives.
NUMBERED = (
    {card: Deal(code) for card, code in enumerate(r + s for r in "23456789TJQKA" for s in "CDHS")}
    | dict(zip(range(100, 110), (Guess(a) for a in M.ANSWERS)))
    | {200 + seat: Give(seat) for seat in range(8)}
)


@pytest.mark.parametrize("action", range(-5, 260))
def test_decode_reverses_every_action_and_nothing_else(action):
    move = M.decode(action)
    assert move == NUMBERED.get(action)
    if move is None:
        assert M.label(action) is None
    else:
        assert move.action == action


def test_bad_moves_are_refused_with_their_reason():
    with pytest.raises(ValueError, match="'purple' is not a guess"):
        Guess("purple").action  # noqa: B018
    with pytest.raises(ValueError, match="no seat 8"):
        Give(8).action  # noqa: B018
    with pytest.raises(ValueError, match="is not a card code"):
        Deal("ZZ").action  # noqa: B018
    with pytest.raises(ValueError, match="not a give"):
        M.give_seat(M.RED)
    with pytest.raises(ValueError, match="not a suit guess"):
        M.suit_guessed(M.RED)
    assert M.give_seat(203) == 3 and [M.suit_guessed(a) for a in M.SUIT_GUESSES] == [0, 1, 2, 3]


def test_state_moves_carry_their_labels_and_apply():
    state = new_state(3)
    assert state.legal_moves() == [Guess("red"), Guess("black")]
    assert [str(m) for m in state.legal_moves()] == ["red", "black"]
    state.apply_action(Guess("black"))
    moves = state.legal_moves()
    assert len(moves) == 52 and moves[0] == Deal("2C") and str(moves[-1]) == "AS"
    state.apply_action(Deal("7S"))  # black: right, seat 0 hands 1 point on
    assert state.legal_moves() == [Give(1), Give(2)]
    assert str(state.move(Give(2).action)) == "give to seat 2"
    state.apply_action(Give(2))
    assert state.returns() == [0, 0, 1] and state.history() == [101, parse_card("7S"), 202]
    with pytest.raises(IllegalActionError, match="no move has that number"):
        state.move(150)


# -- notation ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text", ["TH", "th", "10H", "10h", "10♥", "10♡", "t♥", "T♥", " 10 h ", "ten of hearts", "Ten of Heart"]
)
def test_every_spelling_of_a_card_names_it(text):
    state = new_state(2)
    say(state, "red")
    assert state.string_to_action(text) == parse_card("TH")


@pytest.mark.parametrize(
    ("text", "code"), [("A♠", "AS"), ("2♣", "2C"), ("q♦", "QD"), ("jack of clubs", "JC")]
)
def test_suit_symbols_and_letters(text, code):
    state = new_state(2)
    say(state, "red")
    assert state.string_to_action(text) == parse_card(code)
    if " " not in text:
        assert parse_card(text) == parse_card(code)


def test_parse_label_knows_every_move_of_the_game_legal_or_not():
    state = new_state(3)
    for action in [*range(52), *range(100, 110), 200, 201, 202]:
        label = state.action_to_string(action)
        assert state._parse_label(state._normalize_label(M.fold_label(label))) == action
    assert state._parse_label("give to seat 3") is None  # only three seats at this table
    assert state._parse_label("purple") is None and state._parse_label("1z") is None


def test_a_real_move_that_is_not_legal_now_is_refused_with_the_rules_reason():
    state = new_state(3)
    with pytest.raises(IllegalActionError, match="is not a move now"):
        state.string_to_action("7H")  # a card, but a guess is due
    with pytest.raises(IllegalActionError) as caught:
        state.string_to_action("higher")
    assert "Seat 0, Q1" in caught.value.reason
    say(state, "black")
    deal(state, "7S")
    with pytest.raises(IllegalActionError, match="another player"):
        state.string_to_action("give to seat 0")  # seat 0 hands the points out
    say(state, "give to seat 1")
    say(state, "red")
    with pytest.raises(IllegalActionError, match="7S is not in the draw pile"):
        state.string_to_action("7♠")
    with pytest.raises(IllegalActionError, match="no move has that name"):
        state.string_to_action("ZZ")


# -- scripted decks ---------------------------------------------------------------------------------
def test_scripted_deck_accepts_every_spelling():
    game = load_game("ride_the_bus")
    deck = ["10H", "TD", "10♣", "ts", "a♠", "2h", "Q♦"]
    assert game.check_scripted_deck(deck) == [
        parse_card(c) for c in ("TH", "TD", "TC", "TS", "AS", "2H", "QD")
    ]
    assert game.check_scripted_deck([]) == []
    assert game.check_scripted_deck(ALL_CODES) == list(range(52))


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (["7H", "ZZ"], r"entry #1 'ZZ' is not a card"),
        (["7H", "8C", "7h"], r"entry #2 '7h' repeats entry #0 \(7H\)"),
        (["10♥", "9C", "TH"], r"entry #2 'TH' repeats entry #0 \(TH\)"),
        (["give to seat 1"], r"entry #0 'give to seat 1' is not a card"),
        (["red"], r"entry #0 'red' is not a card"),
    ],
)
def test_scripted_deck_names_the_bad_entry_and_its_position(deck, message):
    with pytest.raises(ParameterError, match=message):
        load_game("ride_the_bus").check_scripted_deck(deck)


def test_scripted_deck_may_repeat_a_card_after_the_first_full_deck():
    """Cards after the first 52 come from the reshuffled discard pile (RTB-DECK-EMPTY)."""
    game = load_game("ride_the_bus")
    assert game.check_scripted_deck(ALL_CODES + ["2C"])[-1] == 0
    with pytest.raises(InputTypeError, match="entry #1"):
        game.check_scripted_deck(["7H", 7])


def test_scripted_deck_plays_in_any_spelling():
    session = Session(load_game("ride_the_bus", players=2), seed=1, deck=["10♥", "9c"], bots="random")
    session.run_to_end()
    cards = [session.state.action_to_string(a) for a in session.state.history() if M.is_card(a)]
    assert cards[:2] == ["TH", "9C"]


# -- phases -----------------------------------------------------------------------------------------
def test_phase_table_names_a_handler_and_an_actor_for_every_phase():
    assert set(PHASES) == set(RideTheBusPhase)
    state = new_state(2)
    for phase, rule in PHASES.items():
        assert callable(getattr(state, rule.handler)) and rule.rule.startswith("RTB-")
        assert (rule.actor is Actor.CHANCE) is (
            phase in {"deal", "flip", "spot_flip", "bus_start", "bus_deal", "qb_deal"}
        )


def test_phase_and_part_through_a_game():
    state = new_state(2)
    assert state.phase() is RideTheBusPhase.GUESS and state.decision_kind() is RideTheBusPhase.GUESS
    assert state.part == "questions" and state.part is Part.QUESTIONS
    say(state, "red")
    assert state.phase() is RideTheBusPhase.DEAL and state.decision_kind() is None
    deal(state, "7H")
    assert state.phase() is RideTheBusPhase.GIVE and state.decision_kind() == "give"
    session = Session(load_game("ride_the_bus", players=2), seed=3, bots="random")
    session.run_to_end()
    assert session.state.phase() is None and session.state.part == "over"
    assert session.state.part is Part.OVER and session.state.view()["phase"] == "over"


# -- views ------------------------------------------------------------------------------------------
def check_shape(value, hint, where: str) -> None:
    """``value`` matches the type ``hint`` exactly: TypedDict keys, list items, unions, None."""
    origin = typing.get_origin(hint)
    if typing.is_typeddict(hint):
        assert isinstance(value, dict), where
        hints = typing.get_type_hints(hint)
        # every required key, in order; a NotRequired key (a house rule in the options) only
        # when present, in its place
        expected = [k for k in hints if k in hint.__required_keys__ or k in value]
        assert list(value) == expected, f"{where}: keys {list(value)} != {expected}"
        for key in expected:
            check_shape(value[key], hints[key], f"{where}.{key}")
    elif origin in (typing.Union, types.UnionType):
        errors = []
        for option in typing.get_args(hint):
            try:
                check_shape(value, option, where)
                return
            except AssertionError as err:
                errors.append(str(err))
        raise AssertionError(f"{where}: {value!r} matches none of {hint}: {errors}")
    elif origin is list:
        assert type(value) is list, f"{where}: {type(value).__name__} is not a list"
        (item,) = typing.get_args(hint)
        for i, v in enumerate(value):
            check_shape(v, item, f"{where}[{i}]")
    elif hint is type(None):
        assert value is None, f"{where}: {value!r} is not None"
    else:
        assert type(value) is hint, f"{where}: {value!r} is a {type(value).__name__}, not {hint.__name__}"


@pytest.mark.parametrize("params", RTB_CONFIGS, ids=RTB_IDS)
def test_view_matches_its_typed_shape_for_every_seat_and_phase(params):
    game = load_game("ride_the_bus", **params)
    seen_phases = set()
    for seed in (0, 1):
        for state in walk(game, seed):
            seen_phases.add(state.phase())
            spectator = state.view(None)
            check_shape(spectator, RideTheBusView, "view")
            json.dumps(spectator)
            for seat in range(game.num_players):
                view = state.view(seat)
                assert view["viewer"] == seat
                assert {**view, "viewer": None} == spectator  # every card is face up
    # the walks reach a bus card (or a ride) and the end
    assert None in seen_phases and seen_phases & {RideTheBusPhase.BUS_DEAL, RideTheBusPhase.QB_DEAL}


@pytest.mark.parametrize("bad", ["0", 1.0, True])
def test_view_and_score_breakdown_check_the_seat(bad):
    state = new_state(2)
    with pytest.raises(InputTypeError, match="seat"):
        state.view(bad)
    with pytest.raises(InputTypeError, match="seat"):
        state.score_breakdown(bad)
    with pytest.raises(ParameterError, match="no seat 2: seats are 0 to 1"):
        state.score_breakdown(2)
    with pytest.raises(ParameterError, match="no seat -1"):
        state.view(-1)
    with pytest.raises(InputTypeError):
        state.score_breakdown(None)


def test_registered():
    assert "ride_the_bus" in bus_lab.registered_games()
