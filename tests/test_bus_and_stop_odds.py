"""Exact Bus & Stop chances (``bus_lab.games.bus_and_stop.odds``) against independent counts:
binomial formulas written out by hand, brute-force enumeration of every hand on small sheets, the
engine's own chance tree expanded exactly, and seeded engine games."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb
from types import SimpleNamespace

import pytest
from test_bus_and_stop_rules import board, play

from bus_lab.engine.policies import sample_chance
from bus_lab.games.bus_and_stop import BusAndStopGame, BusAndStopPhase, load_sheet
from bus_lab.games.bus_and_stop.odds import (
    claim_chances,
    first_refill_reshuffle_chance,
    refill_reshuffle_chance,
    same_colour_chance,
    stop_colour_distribution,
)


def test_BAS_SETUP_SAMECOLOUR_chance_of_a_one_colour_stop_by_hand():
    """BAS-SETUP-SAMECOLOUR: 5 colours of 15 cards: 5 * C(15, 5) / C(75, 5)."""
    assert same_colour_chance([15] * 5) == Fraction(5 * 3003, 17259390)
    assert same_colour_chance(load_sheet().colour_counts()) == Fraction(5 * comb(15, 5), comb(75, 5))
    # brute force on a small deck: 3 colours with 3, 2 and 1 cards, deal 2
    deck = ["a1", "a2", "a3", "b1", "b2", "c1"]
    same = sum(1 for h in combinations(deck, 2) if len({card[0] for card in h}) == 1)
    assert same_colour_chance([3, 2, 1], 2) == Fraction(same, comb(6, 2)) == Fraction(4, 15)
    with pytest.raises(ValueError, match="use 1 to 6"):
        same_colour_chance([3, 2, 1], 7)


def test_BAS_SETUP_SAMECOLOUR_stop_distribution_with_the_reshuffles():
    """BAS-SETUP-STOP, BAS-SETUP-SAMECOLOUR: a mixed make-up keeps its chance divided by
    (1 - p) (up to the 100-reshuffle limit); a one-colour stop stays only after 100 reshuffles."""
    dist = stop_colour_distribution()
    assert sum(dist.values()) == 1 and len(dist) == comb(5 + 4, 4)
    p = Fraction(5 * comb(15, 5), comb(75, 5))
    all_one = Fraction(15**5, comb(75, 5))
    assert dist[(1, 1, 1, 1, 1)] == all_one * (1 - p**101) / (1 - p)
    assert dist[(5, 0, 0, 0, 0)] == Fraction(comb(15, 5), comb(75, 5)) * p**100


def test_BAS_REFILL_SAMECOLOUR_refill_chance_by_hand():
    """BAS-REFILL-SAMECOLOUR: three greens left, deck 15/12/15/15/15 minus the two yellows picked:
    both refills must be green: C(12, 2) / C(70, 2)."""
    assert refill_reshuffle_chance([0, 3, 0, 0, 0], [13, 12, 15, 15, 15]) == Fraction(
        comb(12, 2), comb(70, 2)
    )
    assert refill_reshuffle_chance([0, 2, 1, 0, 0], [13, 12, 15, 15, 15]) == 0  # two colours left
    assert refill_reshuffle_chance([0, 0, 0, 0, 0], [1, 1, 1, 1, 1]) == 0  # the deck cannot refill
    assert refill_reshuffle_chance([0, 0, 0, 0, 0], [5, 5, 0, 0, 0]) == Fraction(2, comb(10, 5))


def expand_refill(state, p: Fraction = Fraction(1)) -> Fraction:
    """Exact chance, over the engine's own chance nodes, that the refill now under way ends in a
    one-colour stop that is sent back (a BAS-REFILL-SAMECOLOUR event with redeal=True)."""
    if state.phase() is not BusAndStopPhase.REFILL:
        return Fraction(0)
    total = Fraction(0)
    for action, q in state.chance_outcomes():
        child = state.clone()
        child.apply_action(action)
        if any(e.rule == "BAS-REFILL-SAMECOLOUR" and e.data["redeal"] for e in child.events()[-2:]):
            total += p * q
        elif child.phase() is BusAndStopPhase.REFILL:
            total += expand_refill(child, p * q)
    return total


def test_BAS_REFILL_SAMECOLOUR_matches_the_engine_chance_tree():
    """BAS-REFILL-SAMECOLOUR: the formula agrees with the engine's chance nodes, expanded exactly."""
    state = board(stop=("YB", "YM", "GT", "GB", "GM"))
    play(state, "pick up yellow")
    deck_colours = [sum(state.deck[c * 5 : (c + 1) * 5]) for c in range(5)]
    assert deck_colours == [13, 12, 15, 15, 15]
    assert expand_refill(state) == refill_reshuffle_chance([0, 3, 0, 0, 0], deck_colours)
    state = board(stop=("YB", "YM", "YT", "GB", "GE"))
    play(state, "pick up green")  # three yellows left; three refills needed
    assert (
        expand_refill(state)
        == Fraction(comb(15 - 3, 2), comb(70, 2))
        == refill_reshuffle_chance([3, 0, 0, 0, 0], [12, 13, 15, 15, 15])
    )


def small_sheet(per_kind: int = 2, colours: int = 3) -> dict:
    names = ["yellow", "green", "blue", "purple", "red"][:colours]
    return {
        "colours": [{"name": n, "code": n[0].upper()} for n in names],
        "types": [
            {"name": "businessman", "code": "B"},
            {"name": "tennis player", "code": "T"},
            {"name": "mother", "code": "M"},
            {"name": "senior", "code": "E", "senior": True},
        ],
        "deck": {"businessman": per_kind, "tennis player": per_kind, "mother": per_kind, "senior": 1},
        "stacks": [
            {
                "name": "office",
                "kind": "type",
                "type": "businessman",
                "cards": [{"counts": [3, 4], "points": [3, 5]}] * 3,
            },
            {"name": "park", "kind": "type", "type": "mother", "cards": [{"counts": [2], "points": [2]}] * 3},
            {"name": "multicoloured", "kind": "multicoloured", "cards": [{"counts": [3], "points": [4]}] * 2},
        ],
    }


def test_BAS_DROP_TYPE_and_BAS_DROP_MULTI_claim_chances_by_brute_force():
    """BAS-DROP-TYPE, BAS-DROP-MULTI: every hand of n passengers from 18 distinct non-senior cards
    (3 colours x 3 types x 2) is enumerated and judged by hand: office needs 3 businessmen, park 2
    mothers, multicoloured 3 different colours."""
    data = small_sheet()
    sheet = BusAndStopGame(sheet=data).sheet
    cards = [(c, t, i) for c in "YGB" for t in "BTM" for i in range(2)]
    for n in range(0, 7):
        tally = Counter()
        for hand in combinations(cards, n):
            types = Counter(t for _, t, _ in hand)
            ok = {
                "office": types["B"] >= 3,
                "park": types["M"] >= 2,
                "multicoloured": len({c for c, _, _ in hand}) >= 3,
            }
            ok["any"] = any(ok.values())
            tally.update(k for k, v in ok.items() if v)
        hands = comb(18, n)
        got = claim_chances(n, sheet)
        assert got == {k: Fraction(tally[k], hands) for k in ("office", "park", "multicoloured", "any")}, n
    # a stack left out of ``tops`` is empty: nothing to claim there
    assert claim_chances(4, sheet, tops={"park": [2]})["office"] == 0
    with pytest.raises(ValueError, match="use 0 to 10"):
        claim_chances(11)


def test_claim_chances_on_the_placeholder_sheet_by_hand():
    """BAS-DROP-TYPE, BAS-DROP-MULTI: 65 non-senior cards (20 businessmen, 15 of each other type):
    office needs 4 businessmen, school 2 students; multicoloured 2 colours fails only on one-colour
    buses (5 * C(13, n) of them)."""
    for n in (2, 4, 7, 10):
        got = claim_chances(n)
        office = sum(comb(20, j) * comb(45, n - j) for j in range(4, n + 1))
        assert got["office"] == Fraction(office, comb(65, n))
        school = sum(comb(15, j) * comb(50, n - j) for j in range(2, n + 1))
        assert got["school"] == Fraction(school, comb(65, n))
        assert got["multicoloured"] == 1 - Fraction(5 * comb(13, n), comb(65, n))
    assert claim_chances(1)["any"] == 0 and claim_chances(10)["any"] == 1


def test_first_refill_reshuffle_chance_matches_seeded_engine_games():
    """BAS-REFILL-SAMECOLOUR: on a two-colour sheet where it is common, the exact chance that the first
    refill is sent back agrees (within 3 standard errors) with 3000 seeded engine games in which
    seat 0 picks a colour at random."""
    data = {
        "colours": [{"name": "yellow", "code": "Y"}, {"name": "green", "code": "G"}],
        "types": [{"name": "businessman", "code": "B"}, {"name": "senior", "code": "E", "senior": True}],
        "deck": {"businessman": 5, "senior": 1},
        "stacks": [
            {
                "name": "office",
                "kind": "type",
                "type": "businessman",
                "cards": [{"counts": [9], "points": [1]}] * 7,
            }
        ],
    }
    game = BusAndStopGame(players=2, sheet=data)
    exact = first_refill_reshuffle_chance(game.sheet)
    assert 0.1 < float(exact) < 0.5  # with 6 cards of each of 2 colours a one-colour refill is common
    rng = random.Random(2024)
    hits, trials = 0, 3000
    for _ in range(trials):
        state = game.new_initial_state()
        while state.phase() is BusAndStopPhase.DEAL:
            state.apply_action(sample_chance(state, rng))
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        while state.phase() is BusAndStopPhase.REFILL and not any(
            e.rule == "BAS-REFILL-SAMECOLOUR" for e in state.events()
        ):
            state.apply_action(sample_chance(state, rng))
        hits += any(e.rule == "BAS-REFILL-SAMECOLOUR" and e.data["redeal"] for e in state.events())
    mean = hits / trials
    stderr = (mean * (1 - mean) / trials) ** 0.5
    assert abs(mean - float(exact)) < 3 * stderr, (mean, float(exact), stderr)


def test_same_colour_chance_of_one_card_and_of_no_card():
    """BAS-SETUP-SAMECOLOUR: a single card always shows one colour; dealing no card is refused."""
    assert same_colour_chance([3, 2, 1], 1) == 1
    assert same_colour_chance([3, 2, 1], 6) == 0  # all six cards never share a colour
    assert same_colour_chance([6, 2], 6) == Fraction(1, comb(8, 6))
    with pytest.raises(ValueError, match="k=0 cards cannot be dealt from 6: use 1 to 6"):
        same_colour_chance([3, 2, 1], 0)


def test_claim_chances_refuses_a_negative_bus():
    with pytest.raises(ValueError, match=r"n=-1 passengers: use 0 to 10"):
        claim_chances(-1)
    with pytest.raises(ValueError, match=r"n=11 passengers: use 0 to 10"):
        claim_chances(11)
    assert claim_chances(0)["any"] == 0  # an empty bus claims nothing


def test_a_deck_of_one_colour_always_deals_a_one_colour_stop():
    """BAS-SETUP-SAMECOLOUR: when every deal is one colour the redeals never help: after the 100
    reshuffles the one-colour stop stays, with certainty."""
    deck = SimpleNamespace(colour_counts=lambda: [7, 0])
    assert stop_colour_distribution(deck) == {(5, 0): 1}


def _first_refill_by_brute_force(sheet) -> Fraction:
    """The chance that the first refill is sent back, counted over every hand of distinct cards: the
    stop (one-colour hands redealt, at most 100 times), the colour seat 0 picks (uniformly among
    those present) and every set of cards that refills the stop."""
    cards = [sheet.colour_of(k) for k, n in enumerate(sheet.deck) for _ in range(n)]
    ids = range(len(cards))
    hands = list(combinations(ids, 5))
    same = [h for h in hands if len({cards[i] for i in h}) == 1]
    p_same = Fraction(len(same), len(hands))
    keep_mixed = sum(p_same**i for i in range(101))
    total = Fraction(0)
    for hand in hands:
        colours = {cards[i] for i in hand}
        weight = Fraction(1, len(hands)) * (p_same**100 if len(colours) == 1 else keep_mixed)
        rest = [i for i in ids if i not in hand]
        for picked in colours:
            left = [i for i in hand if cards[i] != picked]
            need = 5 - len(left)
            refills = list(combinations(rest, need))
            one_colour = sum(1 for r in refills if len({cards[i] for i in left + list(r)}) == 1)
            total += weight * Fraction(1, len(colours)) * Fraction(one_colour, len(refills))
    return total


def test_first_refill_reshuffle_chance_by_brute_force():
    """BAS-REFILL-SAMECOLOUR: the formula agrees with counting every hand on a two-colour sheet of
    six cards a colour."""
    data = {
        "colours": [{"name": "yellow", "code": "Y"}, {"name": "green", "code": "G"}],
        "types": [{"name": "businessman", "code": "B"}, {"name": "senior", "code": "E", "senior": True}],
        "deck": {"businessman": 5, "senior": 1},
        "stacks": [
            {
                "name": "office",
                "kind": "type",
                "type": "businessman",
                "cards": [{"counts": [9], "points": [1]}] * 7,
            }
        ],
    }
    sheet = load_sheet(data)
    assert first_refill_reshuffle_chance(sheet) == _first_refill_by_brute_force(sheet)
