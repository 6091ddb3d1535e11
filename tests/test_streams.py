"""The random streams of seeded games (bus_lab.engine.streams): the step generator against
SplitMix64's published outputs, unbiased whole numbers, the step words, sessions and simulations
on version 2, and records and runs made before version 2 replayed exactly as they were."""

from __future__ import annotations

import json
import random
import struct
from collections import Counter

import pytest

import bus_lab
from bus_lab import Session, load_game
from bus_lab.engine.streams import (
    BOT_SALT,
    LEGACY_STREAMS,
    STREAMS,
    StepRandom,
    StepWords,
    check_streams,
    step_rng,
)
from bus_lab.simulate import simulate

#: SplitMix64 started at 1234567: its first five outputs, as published with the reference C code
#: (Vigna, splitmix64.c) and reproduced by every port of it.
SPLITMIX_1234567 = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]

#: A Busstop session saved before streams version 2 (no "streams" field): seat 0 a person, who
#: made three moves; and what the game did next, then, once seat 0 was handed to the random bot.
OLD_RECORD = (
    '{"game": "busstop", "params": {"players": 3, "passenger_bonus": false, "end_bonus": false, '
    '"sheet": null}, "seed": 11, "deck": [], "bots": {"1": "bidder", "2": "random"}, '
    '"history": [0, 5, 10, 101, 101, 108, 200, 202, 300], "position": 9}'
)
OLD_RECORD_THEN = {
    "returns": [-14, 17, -16],
    "length": 134,
    "next10": [300, 320, 340, 313, 300, 4, 4, 7, 110, 104],
}

#: simulate("ride_the_bus", 4, seed=3, players=4, bots="best_odds") before version 2.
OLD_RUN = [
    {"seed": 819382448, "scores": [23, 15, 14, 16], "length": 107},
    {"seed": 1645421708, "scores": [13, 15, 17, 13], "length": 74},
    {"seed": 3451799802, "scores": [13, 15, 15, 16], "length": 72},
    {"seed": 118549108, "scores": [15, 11, 13, 14], "length": 77},
]


# ------------------------------------------------------------------------- the step generator


def test_the_first_draw_is_the_word_then_splitmix64_follows() -> None:
    rng = StepRandom(1234567)
    assert rng.getrandbits(64) == 1234567
    assert [rng.getrandbits(64) for _ in range(5)] == SPLITMIX_1234567
    rng = StepRandom(1234567)
    assert rng.random() == (1234567 >> 11) / 2**53
    assert rng.random() == (SPLITMIX_1234567[0] >> 11) / 2**53
    assert StepRandom(2**64 + 5).getrandbits(64) == 5, "only the low 64 bits of a word count"


def test_getrandbits_takes_the_top_bits_and_joins_64_bit_blocks() -> None:
    assert StepRandom(0xF000_0000_0000_0001).getrandbits(4) == 0xF
    rng = StepRandom(1234567)
    assert rng.getrandbits(0) == 0 and rng.getrandbits(64) == 1234567, "zero bits use no draw"
    wide = StepRandom(1234567).getrandbits(130)
    assert wide == (1234567 | SPLITMIX_1234567[0] << 64 | SPLITMIX_1234567[1] << 128) & (2**130 - 1)
    with pytest.raises(ValueError, match="non-negative"):
        StepRandom(1).getrandbits(-1)


def test_a_whole_number_below_n_is_the_draw_modulo_n_redrawn_only_at_the_very_top() -> None:
    refused = 0
    for word in (0, 1, 12345678901234567890, 2**64 - 2**32 - 1):
        for n in (1, 2, 3, 7, 52, 1000, 2**32, 2**40 + 3):
            if word < 2**64 - 2**64 % n:
                assert StepRandom(word).randrange(n) == word % n
            else:  # in the top partial block: the next draw decides
                refused += 1
                after = StepRandom(word)
                after.getrandbits(64)
                assert StepRandom(word).randrange(n) == after.getrandbits(64) % n
    assert refused == 1, "only 2**64 - 2**32 - 1 with n = 2**40 + 3 falls in a top block"
    # 2**64 % 3 == 1: the single top value 2**64 - 1 is refused and the next draw is used.
    top = StepRandom(2**64 - 1)
    expected = StepRandom(2**64 - 1)
    expected.getrandbits(64)  # the refused word
    assert top.randrange(3) == expected.getrandbits(64) % 3
    # Just under the top for n = 3 (2**64 - 2 < 2**64 - 1): accepted although above 2**64 - 2**32.
    assert StepRandom(2**64 - 2).randrange(3) == (2**64 - 2) % 3
    # Beyond 64 bits: the standard way, from getrandbits.
    big = StepRandom(99).randrange(2**70)
    assert 0 <= big < 2**70


def test_whole_numbers_are_uniform_over_many_step_generators() -> None:
    """Chi-square over 52 outcomes from 52,000 step generators (one draw each, as a step makes):
    the 0.1% critical value with 51 degrees of freedom is 87.0."""
    words = StepWords(2026)
    counts = Counter(StepRandom(words.word(k)).randrange(52) for k in range(52_000))
    chi2 = sum((counts[i] - 1000) ** 2 / 1000 for i in range(52))
    assert len(counts) == 52 and chi2 < 87.0, chi2
    # Later draws of one generator (SplitMix64's outputs) are uniform too.
    rng = StepRandom(words.word(0))
    later = Counter(rng.randrange(6) for _ in range(60_000))
    chi2 = sum((later[i] - 10_000) ** 2 / 10_000 for i in range(6))
    assert chi2 < 20.5, chi2  # 0.1% critical value, 5 degrees of freedom


def test_random_methods_work_and_state_round_trips() -> None:
    rng = StepRandom(77)
    cards = list(range(10))
    rng.shuffle(cards)
    assert sorted(cards) == list(range(10))
    assert rng.choice("abc") in "abc" and len(set(rng.sample(range(100), 5))) == 5
    state = rng.getstate()
    first = [rng.random(), rng.gauss(0, 1), rng.gauss(0, 1), rng.randrange(1000)]
    rng.setstate(state)
    assert [rng.random(), rng.gauss(0, 1), rng.gauss(0, 1), rng.randrange(1000)] == first
    with pytest.raises(ValueError, match="not a StepRandom state"):
        rng.setstate(random.Random(1).getstate())
    rng.seed(77)
    again = StepRandom(77)
    assert [rng.random() for _ in range(3)] == [again.random() for _ in range(3)]
    with pytest.raises(TypeError, match="seeded with an int"):
        rng.seed("77")


# ------------------------------------------------------------------------------ step words


def test_step_words_follow_the_documented_derivation_in_any_order() -> None:
    source = random.Random("bus_lab streams 2:41")
    blocks = [source.getrandbits(64 * 256).to_bytes(8 * 256, "little") for _ in range(2)]
    expected = [w for block in blocks for w in struct.unpack("<256Q", block)]
    backwards = StepWords(41)
    assert [backwards.word(k) for k in (300, 0, 255, 256)] == [expected[k] for k in (300, 0, 255, 256)]
    assert [StepWords(41).word(k) for k in range(512)] == expected
    assert StepWords(42).word(0) != expected[0]


def test_step_rng_for_each_version_and_kind() -> None:
    word = StepWords(5).word(17)
    assert step_rng(2, 5, "chance", 17).getrandbits(64) == word
    assert step_rng(2, 5, "bot", 17).getrandbits(64) == word ^ BOT_SALT
    assert step_rng(1, 5, "bot", 17).random() == random.Random("5:bot:17").random()
    with pytest.raises(ValueError, match="'chance' or 'bot'"):
        step_rng(2, 5, "card", 17)
    for bad in (0, 3, True, "2", None):
        with pytest.raises(ValueError, match="use 2 .new games. or 1"):
            check_streams(bad)
    assert (check_streams(1), check_streams(2)) == (LEGACY_STREAMS, STREAMS) == (1, 2)


# ------------------------------------------------------------------------- sessions and runs


def test_a_session_draws_each_step_from_its_step_generator() -> None:
    session = Session(load_game("bus_city"), seed=9, bots="random")
    for _ in range(40):
        session.step()
    session.goto(17)
    step = len(session.state.history())
    for kind in ("chance", "bot"):
        assert session.rng_for_step(kind).random() == step_rng(2, 9, kind, step).random()
    session.reset(seed=10)  # a new seed: new words
    assert session.rng_for_step("chance").random() == step_rng(2, 10, "chance", 0).random()


def test_legacy_sessions_draw_as_before() -> None:
    session = Session(load_game("bus_city"), seed=9, bots="random", streams=1)
    for _ in range(40):
        session.step()
    session.goto(17)
    step = len(session.state.history())
    for kind in ("chance", "bot"):
        assert session.rng_for_step(kind).random() == random.Random(f"9:{kind}:{step}").random()


def test_a_record_saved_before_version_2_goes_on_as_it_did_then() -> None:
    session = Session.from_json(OLD_RECORD)
    assert session.streams == LEGACY_STREAMS and session.position == 9
    session.set_bot(0, "random")
    session.run_to_end()
    history = session.state.history()
    assert history[9:19] == OLD_RECORD_THEN["next10"]
    assert len(history) == OLD_RECORD_THEN["length"]
    assert session.state.returns() == OLD_RECORD_THEN["returns"]
    again = json.loads(session.to_json())
    assert again["streams"] == 1, "saved again, it keeps its version"
    assert Session.from_json(session.to_json()).state.returns() == OLD_RECORD_THEN["returns"]


def test_a_new_record_keeps_version_2() -> None:
    session = Session(load_game("busstop", players=3), seed=11, bots="random")
    for _ in range(30):
        session.step()
    saved = json.loads(session.to_json())
    assert saved["streams"] == STREAMS
    loaded = Session.from_json(session.to_json())
    loaded.run_to_end()
    session.run_to_end()
    assert loaded.state.history() == session.state.history()


def test_a_fork_keeps_the_version() -> None:
    session = Session(load_game("ride_the_bus", players=2), seed=3, bots="random", streams=1)
    for _ in range(5):
        session.step()
    twin = session.fork()
    assert twin.streams == 1
    twin.run_to_end()
    session.run_to_end()
    assert twin.state.history() == session.state.history()


def test_a_run_made_before_version_2_is_repeated_with_streams_1() -> None:
    rows = simulate("ride_the_bus", 4, seed=3, players=4, bots="best_odds", streams=1)
    assert [{k: r[k] for k in ("seed", "scores", "length")} for r in rows] == OLD_RUN
    new = simulate("ride_the_bus", 4, seed=3, players=4, bots="best_odds")
    assert [r["seed"] for r in new] == [r["seed"] for r in OLD_RUN], "game seeds do not depend on the version"
    for row in new:
        session = Session(load_game("ride_the_bus", players=4), seed=row["seed"], bots="best_odds")
        session.run_to_end()
        assert session.state.returns() == row["scores"] and len(session.state.history()) == row["length"]
    with pytest.raises(ValueError, match="streams=3"):
        simulate("ride_the_bus", 2, streams=3)


def test_session_refuses_an_unknown_version() -> None:
    with pytest.raises(ValueError, match="streams=0"):
        Session(bus_lab.load_game("bus_city"), streams=0)


def test_randrange_gives_what_random_randrange_gives_from_the_same_state() -> None:
    """The short cut for randrange(n) draws exactly what random.Random.randrange would."""
    words = StepWords(8)
    cases = [(n,) for n in (1, 2, 3, 52, 1000, 2**32, 2**32 + 1, 2**70)] + [(3, 60), (5, 100, 7), (10, 0, -3)]
    for k in range(40):
        for args in cases:
            fast = StepRandom(words.word(k))
            plain = StepRandom(words.word(k))
            for _ in range(3):  # the first draw (the word) and later ones
                assert fast.randrange(*args) == random.Random.randrange(plain, *args), (k, args)
    for bad in ((0,), (-5,), (4, 4), (1, 5, 0)):
        with pytest.raises(ValueError):
            StepRandom(1).randrange(*bad)
    assert StepRandom(2**64 - 1).randrange(3) == StepRandom(2**64 - 1)._randbelow(3), (
        "the top word is redrawn"
    )


def test_the_lean_loop_restarts_its_generator_as_a_fresh_one_would() -> None:
    """simulate's loop re-starts one StepRandom per step; the games equal those of a Session."""
    game = load_game("busstop", players=3)
    rows = simulate(game, 3, seed=5, bots="bidder")
    for row in rows:
        session = Session(game, seed=row["seed"], bots="bidder")
        session.run_to_end()
        assert session.state.returns() == row["scores"] and len(session.state.history()) == row["length"]
