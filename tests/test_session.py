"""``Session``: stepping, playing, time travel, scripted decks, bots, saving and loading."""

from __future__ import annotations

import json

import pytest

from bus_lab import IllegalActionError, ParameterError, Session, load_game
from bus_lab.games.ride_the_bus import BLACK, GIVE_BASE, HIGHER, RED, parse_card


def rtb(players: int = 2, **params):
    return load_game("ride_the_bus", players=players, **params)


def timeline(session: Session) -> list[list[int]]:
    return [session.state_at(i).history() for i in range(len(session))]


# -- stepping and playing -----------------------------------------------------------------------
def test_step_returns_none_when_a_human_must_act():
    """With no bots the first decision is seat 0's: step() does nothing and says so."""
    session = Session(rtb(), seed=1)
    assert session.waiting_for_human()
    assert session.next_action() is None
    assert session.step() is None
    assert session.position == 0 and len(session) == 1
    assert session.human_seats() == [0, 1]


def test_play_by_int_and_by_label():
    """play() takes an action number or its label (guesses, cards, hand-overs)."""
    session = Session(rtb(), seed=1)
    assert session.play("Red") == RED
    assert session.play(parse_card("7H")) == parse_card("7H")  # a learner may pick the card
    assert session.play("give to seat 1") == GIVE_BASE + 1
    assert session.play(BLACK) == BLACK
    assert session.play(" 9c ") == parse_card("9C")
    assert session.state.history() == [RED, parse_card("7H"), GIVE_BASE + 1, BLACK, parse_card("9C")]
    assert session.state.view()["rows"] == [["7H"], ["9C"]]
    assert session.state.returns() == [0, 1]
    assert session.position == 5


def test_step_draws_cards_and_plays_bots():
    """step() applies a chance draw or a bot's move and returns it."""
    session = Session(rtb(), seed=3, bots={1: "random"})
    session.play("red")
    drawn = session.step()
    assert 0 <= drawn < 52 and session.state.history() == [RED, drawn]
    if session.waiting_for_human():  # seat 0 was right and hands a point over
        session.play("give to seat 1")
    assert session.state.current_player() == 1
    bot_move = session.step()
    assert bot_move in (RED, BLACK)
    assert session.state.history()[-1] == bot_move


@pytest.mark.parametrize("bots", ["random", "best_odds", {0: "random", 1: "best_odds"}])
def test_run_to_end_with_bots(bots):
    """run_to_end() plays a bots-only game to the end and returns the steps taken."""
    session = Session(rtb(2), seed=11, bots=bots)
    taken = session.run_to_end()
    assert session.state.is_terminal()
    assert taken == session.position == len(session) - 1 == len(session.state.history())
    assert session.step() is None and session.run_to_end() == 0


def test_run_to_end_stops_for_a_human():
    """run_to_end() stops at a human seat's decision."""
    session = Session(rtb(2), seed=4, bots={0: "random"})
    session.run_to_end()
    assert not session.state.is_terminal()
    assert session.waiting_for_human() and session.state.current_player() == 1


def test_illegal_play_changes_nothing():
    """play() of an illegal move raises; position, timeline and state stay as they were."""
    session = Session(rtb(), seed=2)
    session.play("red")
    session.play("7S")
    before = (session.position, len(session), timeline(session), session.state.to_dict())
    for bad in (HIGHER, "higher", "7S", 999, GIVE_BASE):
        with pytest.raises(IllegalActionError):
            session.play(bad)
        assert (session.position, len(session), timeline(session), session.state.to_dict()) == before


def test_illegal_play_keeps_the_redo_timeline():
    """A refused move after undo does not cut the undone steps."""
    session = Session(rtb(), seed=2)
    session.play("red")
    session.play("7S")
    session.undo()
    with pytest.raises(IllegalActionError):
        session.play("red")  # a card must be drawn now
    assert session.position == 1 and len(session) == 3
    assert session.redo() and session.state.history() == [RED, parse_card("7S")]


# -- scripted decks -----------------------------------------------------------------------------
def test_scripted_deck_is_used_in_order_then_seeded_draws():
    """deck=[...] gives the first chance outcomes in order; later draws come from the seed."""
    deck = ["7H", "9C", "2D"]
    session = Session(rtb(), seed=8, deck=deck, bots="random")
    session.run_to_end()
    history = session.state.history()
    cards = [session.state.action_to_string(a) for a in history if a < 52]
    assert cards[:3] == deck
    assert len(cards) > 30
    dealt = next(
        session.state_at(i) for i in range(len(session)) if session.state_at(i).num_chance_steps() == 3
    )
    rows = dealt.view()["rows"]  # two players: round 1 deals seat 0, seat 1, then round 2 seat 0
    assert rows[0][:2] == ["7H", "2D"] and rows[1][:1] == ["9C"]
    again = Session(rtb(), seed=8, deck=deck, bots="random")
    again.run_to_end()
    assert again.state.history() == history
    other = Session(rtb(), seed=9, deck=deck, bots="random")
    other.run_to_end()
    other_cards = [other.state.action_to_string(a) for a in other.state.history() if a < 52]
    assert other_cards[:3] == deck and other_cards != cards


def test_scripted_deck_with_a_card_twice_is_refused_up_front():
    with pytest.raises(ParameterError, match=r"#1 '7H' repeats entry #0"):
        Session(rtb(), seed=1, deck=["7H", "7H"], bots="random")
    with pytest.raises(ParameterError, match=r"#1 'ZZ'"):
        Session(rtb(), seed=1, deck=["10H", "ZZ"], bots="random")


def test_scripted_card_that_cannot_come_up():
    """A scripted card no longer in the draw pile raises ValueError; the session is unchanged."""
    session = Session(rtb(), seed=1, deck=["7H"], bots="random")
    session.deck.append("7H")  # past the up-front check: the draw itself refuses it too
    with pytest.raises(ValueError, match="7H"):
        session.run_to_end()
    stuck = (session.position, len(session), session.state.to_dict())
    assert session.state.is_chance_node() and session.state.num_chance_steps() == 1
    with pytest.raises(ValueError, match="cannot come up"):
        session.step()
    assert (session.position, len(session), session.state.to_dict()) == stuck
    # the learner can still pick another card by hand
    session.play("8H")
    assert session.state.view()["rows"][1] == ["8H"]


def test_scripted_deck_rejects_bad_labels():
    """A scripted entry that is not a card label is refused when the session is made; one that
    gets past that check (changed afterwards) is refused at its step, and nothing changes."""
    with pytest.raises(ParameterError, match="#0 'ZZ' is not a card"):
        Session(rtb(), seed=1, deck=["ZZ"])
    session = Session(rtb(), seed=1, deck=["7H"])
    session.deck[0] = "ZZ"
    session.play("red")
    with pytest.raises(ValueError, match="ZZ"):
        session.step()
    assert session.position == 1


# -- bots -----------------------------------------------------------------------------------------
def test_unknown_bot_name_and_seat_raise():
    with pytest.raises(ValueError, match="best_odds"):
        Session(rtb(), bots={0: "genius"})
    with pytest.raises(ValueError, match="genius"):
        Session(rtb(), bots="genius")
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        Session(rtb(2), bots={2: "random"})


def test_callable_bot_and_saving_it():
    """A callable bot plays; an unnamed callable cannot be saved to JSON."""
    calls = []

    def always_first(state, rng):
        calls.append(state.current_player())
        return state.legal_actions()[0]

    session = Session(rtb(), seed=5, bots=always_first)
    session.run_to_end()
    assert session.state.is_terminal() and set(calls) == {0, 1}
    with pytest.raises(ValueError, match="not a named policy"):
        session.to_json()


# -- time travel ----------------------------------------------------------------------------------
def test_undo_redo_goto():
    session = Session(rtb(), seed=6, bots="random")
    assert not session.undo() and not session.redo()
    for _ in range(10):
        session.step()
    history = session.state.history()
    assert session.position == 10 and len(history) == 10
    assert session.undo() and session.position == 9 and session.state.history() == history[:9]
    assert session.undo() and session.state.history() == history[:8]
    assert session.redo() and session.state.history() == history[:9]
    assert session.goto(3).history() == history[:3] and session.position == 3
    assert session.state_at(10).history() == history
    assert session.goto(10) is session.state
    assert not session.redo()
    for bad in (-1, 11):
        with pytest.raises(IndexError, match="0 to 10"):
            session.goto(bad)
    assert session.position == 10


def test_undo_then_step_gives_the_same_step():
    """Each step's randomness comes from the seed and the step number."""
    session = Session(rtb(), seed=12, bots="random")
    session.run_to_end()
    history = session.state.history()
    session.goto(len(history) // 2)
    session.step()
    assert session.state.history() == history[: len(history) // 2 + 1]
    assert len(session) == session.position + 1  # stepping after undo cuts the old future


def test_play_after_undo_replaces_the_future():
    session = Session(rtb(), seed=1)
    session.play("red")
    session.play("7S")
    session.undo()
    session.undo()
    session.play("black")
    assert len(session) == 2 and session.state.history() == [BLACK]
    assert not session.redo()


def test_fork_is_independent():
    session = Session(rtb(), seed=13, bots="random")
    for _ in range(7):
        session.step()
    twin = session.fork()
    assert twin.state.history() == session.state.history() and twin.position == 7
    twin.run_to_end()
    assert twin.state.is_terminal()
    assert session.position == 7 and len(session) == 8 and not session.state.is_terminal()
    session.run_to_end()
    assert session.state.history() == twin.state.history()  # same seed, same game


def test_reset():
    session = Session(rtb(), seed=14, bots="random")
    session.run_to_end()
    first = session.state.history()
    session.reset()
    assert session.position == 0 and len(session) == 1 and session.state.history() == []
    session.run_to_end()
    assert session.state.history() == first
    session.reset(seed=15)
    assert session.seed == 15
    session.run_to_end()
    assert session.state.history() != first


# -- saving ---------------------------------------------------------------------------------------
def test_to_json_from_json_round_trip():
    session = Session(rtb(3, streak=4), seed=16, bots={0: "best_odds", 2: "random"}, deck=["AS", "KD"])
    session.run_to_end()  # stops at seat 1 (human) or the end
    while not session.state.is_terminal():
        session.play(session.state.legal_actions()[0])
        session.run_to_end()
    session.goto(20)
    text = session.to_json()
    data = json.loads(text)
    assert data["game"] == "ride_the_bus" and data["params"]["streak"] == 4
    assert data["seed"] == 16 and data["deck"] == ["AS", "KD"] and data["position"] == 20
    assert data["bots"] == {"0": "best_odds", "2": "random"}
    loaded = Session.from_json(text)
    assert loaded.game == session.game and loaded.seed == 16 and loaded.deck == ["AS", "KD"]
    assert loaded.position == 20 and len(loaded) == len(session)
    assert timeline(loaded) == timeline(session)
    assert loaded.state.view() == session.state.view()
    assert sorted(loaded.bots) == [0, 2] and loaded.human_seats() == [1]


def test_session_from_game_name_and_repr():
    session = Session("ride_the_bus", seed=17)
    assert session.game == load_game("ride_the_bus")
    assert session.game.num_players == 4
    assert "seed=17" in repr(session) and "step 0 of 0" in repr(session)
    fresh = Session("ride_the_bus")
    assert isinstance(fresh.seed, int)  # a fresh seed is kept so the game can be replayed


def test_set_bot_hands_a_seat_to_a_named_bot_and_back():
    session = Session(load_game("ride_the_bus", players=3), seed=4, bots={1: "random"})
    assert session.human_seats() == [0, 2]
    session.set_bot(0, "best_odds")
    assert session.human_seats() == [2] and session.bots[0].name == "best_odds"
    assert json.loads(session.to_json())["bots"] == {"0": "best_odds", "1": "random"}
    taken = session.run_to_end()
    assert taken > 0 and session.state.current_player() == 2  # seat 0's turns were played
    session.set_bot(0, None)
    session.set_bot(1, None)
    session.set_bot(2, None)  # a seat without a bot: nothing to take back
    assert session.bots == {} and session.human_seats() == [0, 1, 2]
    assert json.loads(session.to_json())["bots"] == {}
    assert session.step() is None  # seat 2, a person, is to move
    copy = Session.from_json(session.to_json())
    assert copy.state.history() == session.state.history() and copy.bots == {}


@pytest.mark.parametrize("seat", [-1, 3, True, 1.0, "1", None])
def test_set_bot_refuses_a_seat_not_at_the_table(seat):
    session = Session(load_game("ride_the_bus", players=3), seed=4)
    with pytest.raises(ValueError, match="not at the table"):
        session.set_bot(seat, "random")
    assert session.bots == {}


@pytest.mark.parametrize("name", ["oracle", "", 3, "greedy"])
def test_set_bot_refuses_an_unknown_policy_and_changes_nothing(name):
    session = Session(load_game("ride_the_bus", players=3), seed=4, bots={1: "random"})
    with pytest.raises(ValueError):
        session.set_bot(1, name)
    assert session.bots[1].name == "random"
    assert json.loads(session.to_json())["bots"] == {"1": "random"}
