"""Edge cases of the exact guess odds of Ride the Bus (``guess_odds`` and ``best_guess``).

Expected values are counted by hand or by enumerating the few cards that can come (with
``fractions.Fraction``), never read off the code under test. Rules: RTB-Q1, RTB-Q2, RTB-B-GUESS,
RTB-DECK-EMPTY.
"""

from __future__ import annotations

from fractions import Fraction

from bus_lab import load_game
from bus_lab.games.ride_the_bus import BLACK, HIGHER, LOWER, RED, parse_card
from bus_lab.games.ride_the_bus.odds import best_guess, guess_odds

RANKS = "23456789TJQKA"


def new_state(players=2, **params):
    return load_game("ride_the_bus", players=players, **params).new_initial_state()


def test_no_card_to_draw_means_no_chance_to_be_right(monkeypatch):
    """A guess after which no card can come (an empty draw pile, which the engine itself never
    leaves: it shuffles the discard pile in first, RTB-DECK-EMPTY) is right with chance 0, not an
    error and not a made-up figure; the tie between the two guesses goes to the lower action."""
    state = new_state(2)
    monkeypatch.setattr(type(state), "chance_weights", lambda self: ([], None))
    odds = guess_odds(state)
    assert odds == {RED: Fraction(0), BLACK: Fraction(0)}
    assert all(type(p) is Fraction for p in odds.values())
    assert best_guess(state) == (RED, Fraction(0))


def test_a_small_draw_pile_counted_card_by_card(monkeypatch):
    """RTB-Q2 over a draw pile cut down to three cards (2C, 7D, KS) after a first card 7H:
    enumerating the three equally likely cards, "higher" wins on KS only and "lower" on 2C only
    (the 7D ties and loses), so each is right with chance 1/3."""
    state = new_state(1, mode="gauntlet")
    state.apply_action(state.legal_actions()[0])
    state.apply_action(parse_card("7H"))
    assert sorted(state.legal_actions()) == [HIGHER, LOWER]
    pile = ["2C", "7D", "KS"]
    real = type(state).chance_weights

    def small_pile(self):
        cards, weights = real(self)
        return [c for c in cards if self.action_to_string(c) in pile], weights

    monkeypatch.setattr(type(state), "chance_weights", small_pile)
    expected = {
        HIGHER: Fraction(sum(RANKS.index(c[0]) > RANKS.index("7") for c in pile), len(pile)),
        LOWER: Fraction(sum(RANKS.index(c[0]) < RANKS.index("7") for c in pile), len(pile)),
    }
    assert expected == {HIGHER: Fraction(1, 3), LOWER: Fraction(1, 3)}
    assert guess_odds(state) == expected
    assert best_guess(state) == (min(HIGHER, LOWER), Fraction(1, 3))
