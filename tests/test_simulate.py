"""``bus_lab.simulate``: seeded full games through the engine, the same rows on any executor."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bus_lab import Session, load_game, registered_games
from bus_lab.engine.policies import draw_outcome, sample_chance
from bus_lab.engine.streams import BOT_SALT, StepRandom
from bus_lab.prob.montecarlo import game_seeds
from bus_lab.simulate import (
    _game_by_name,
    _play_chunk,
    _play_game,
    _policies,
    _reseed,
    game_seed,
    ride_the_bus_extras,
    simulate,
)


def test_game_seeds_are_the_spawned_children_of_the_master_seed():
    """Game i's seed is the first word of the i-th child of SeedSequence(seed).spawn(...)."""
    children = np.random.SeedSequence(42).spawn(5)
    assert [game_seed(42, i) for i in range(5)] == [int(c.generate_state(1)[0]) for c in children]
    assert len({game_seed(42, i) for i in range(100)}) == 100
    assert game_seed(42, 3) != game_seed(43, 3)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.one_of(st.integers(0, 2**32 + 2), st.integers(0, 2**200)),
    start=st.one_of(st.integers(0, 100), st.integers(2**32 - 3, 2**32 + 3), st.integers(0, 2**70)),
    count=st.integers(0, 8),
)
def test_game_seeds_of_a_range_are_numpys_seed_sequence(seed, start, count):
    """game_seeds (the whole range at once) gives each game the seed numpy's SeedSequence gives it,
    for master seeds and indices of one, two or more 32-bit words, and across the 2**32 boundary."""
    assert game_seeds(seed, start, start + count) == [game_seed(seed, i) for i in range(start, start + count)]


def test_game_seeds_across_word_boundaries_and_bad_ranges():
    """A range crossing 2**32 and 2**64 (where an index gains a 32-bit word) and the errors."""
    for low in (2**32 - 2, 2**64 - 2):
        assert game_seeds(7, low, low + 4) == [game_seed(7, i) for i in range(low, low + 4)]
    assert game_seeds(0, 0, 3) == [game_seed(0, i) for i in range(3)]
    with pytest.raises(ValueError, match="stop=2 is below start=3"):
        game_seeds(1, 3, 2)
    with pytest.raises(ValueError, match="seed=-1"):
        game_seeds(-1, 0, 2)
    with pytest.raises(ValueError, match="start=True"):
        game_seeds(1, True, 2)


class _TopWords:
    """Stands in for StepWords: every word from ``top`` down, so the chance draws of a lean loop
    meet words at or above 2**64 - 2**32 (where the short cut does not apply) at every step, and
    words in the top few, which a fair draw must throw away."""

    def __init__(self, seed: int) -> None:
        self.words: list[int] = []
        self.seed = seed

    def word(self, step: int) -> int:
        if step % 2:  # the last 97 words below 2**64: many are redrawn by StepRandom._randbelow
            return (1 << 64) - 1 - ((step * 7 + self.seed) % 97)
        return (1 << 64) - 1 - ((step * 2654435761 + self.seed) % (1 << 33))


@pytest.mark.parametrize("name", registered_games())
def test_lean_loop_draws_as_the_plain_steps_do_for_any_word(name, monkeypatch):
    """The lean loop's short cut for equally likely outcomes (the word modulo their number) and its
    other draws give what sample_chance and the bots draw from StepRandom(word) (and word ^ BOT_SALT)
    step by step, also for words where the short cut does not apply."""
    import sys

    sim = sys.modules["bus_lab.simulate"]  # the module (bus_lab.simulate is also the function's name)
    game = load_game(name)
    policies = _policies(game, "random")
    monkeypatch.setattr(sim, "StepWords", _TopWords)
    for seed in (1, 2):
        words = _TopWords(seed)
        state = game.new_initial_state()
        step = len(state.history())
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_chance(state, StepRandom(words.word(step)))
            else:
                action = policies[state.current_player()](state, StepRandom(words.word(step) ^ BOT_SALT))
            state.apply_action(action)
            step += 1
        assert _play_game(game, policies, seed).history() == state.history()


def test_draw_outcome_follows_the_weights():
    """draw_outcome picks by one randrange over the common denominator: tickets 0-1 of weights
    (2, 4, 6) (in units of 2: 1, 2, 3 tickets of 6) go to the first outcome, 1-2 to the second."""

    class Ticket:
        def __init__(self, value: int) -> None:
            self.value = value
            self.asked: list[int] = []

        def randrange(self, n: int) -> int:
            self.asked.append(n)
            return self.value

    picks = []
    for value in range(6):
        rng = Ticket(value)
        picks.append(draw_outcome([10, 20, 30], [2, 4, 6], rng))
        assert rng.asked == [6]
    assert picks == [10, 20, 20, 30, 30, 30]
    assert draw_outcome([5, 6, 7], None, Ticket(2)) == 7
    with pytest.raises(ValueError, match="no outcomes"):
        draw_outcome([], None, Ticket(0))


def test_same_rows_with_a_process_pool():
    """Same master seed: identical rows (extras included) in this process and on 2 worker processes,
    whatever the chunking."""
    here = simulate("ride_the_bus", 30, seed=7, players=3, extras=ride_the_bus_extras)
    with ProcessPoolExecutor(2) as pool:
        there = simulate(
            "ride_the_bus", 30, seed=7, players=3, extras=ride_the_bus_extras, executor=pool, chunk_size=4
        )
    assert there == here
    with ThreadPoolExecutor(3) as pool:
        assert (
            simulate("ride_the_bus", 30, seed=7, players=3, extras=ride_the_bus_extras, executor=pool) == here
        )
    assert [row["game_index"] for row in here] == list(range(30))
    assert simulate("ride_the_bus", 30, seed=8, players=3) != [
        {k: row[k] for k in ("game_index", "seed", "winners", "scores", "length")} for row in here
    ]


def test_rows_are_valid_and_replayable():
    """Each row is a real game: replaying its seed with the same bots gives the same scores and
    length; winners are the seats with the lowest total (RTB-SCORE-LOW, RTB-SCORE-TIE)."""
    game = load_game("ride_the_bus", players=4, row_points="flat")
    rows = simulate(game, 12, bots="best_odds", seed=3, extras=ride_the_bus_extras)
    for row in rows:
        assert row["length"] > 0
        assert row["winners"] and set(row["winners"]) <= set(range(4))
        low = min(row["scores"])
        assert row["winners"] == [s for s, p in enumerate(row["scores"]) if p == low]
        assert row["part1_points"] + row["part2_points"] + row["bus_points"] == sum(row["scores"])
        assert row["part1_points"] == 40  # every question hands its points to somebody: 4 × (1+2+3+4)
        assert 0 <= row["rider_cards"] <= 4 and row["rider"] in range(4)
        if row["bus_guesses"] < 40:  # RTB-B-END: only the target streak stops the bus early
            assert row["got_off"]
        if row["got_off"]:  # the last five calls were hits; each miss cost 1 point (RTB-B-STREAK)
            assert row["bus_points"] <= row["bus_guesses"] - 5
        session = Session(game, seed=row["seed"], bots="best_odds")
        session.run_to_end()
        assert session.state.returns() == row["scores"]
        assert len(session.state.history()) == row["length"]


def test_gauntlet_rows():
    """RTB-SG-WIN: a gauntlet's winners are the target-streak rider or the longest streaks; the
    extras give the rides and best streaks."""
    rows = simulate("ride_the_bus", 20, seed=1, players=3, mode="gauntlet", extras=ride_the_bus_extras)
    for row in rows:
        best = row["best_streaks"]
        # RTB-SG-ORDER: most Part 1 points first (a gauntlet's scores are its Part 1 points), ties by seat
        assert row["ride_order"] == sorted(range(3), key=lambda s: (-row["scores"][s], s))
        assert row["part2_points"] == 0 and row["bus_points"] == 0 and row["rider_cards"] is None
        if row["got_off"]:
            assert len(row["winners"]) == 1 and best[row["winners"][0]] == 5
        else:
            assert row["rides"] == 30
            assert row["winners"] == [s for s in range(3) if best[s] == max(best)]


def test_extras_and_bots_by_seat():
    rows = simulate(
        "ride_the_bus",
        3,
        bots={0: "best_odds", 1: "random"},
        players=2,
        extras=lambda state: {"phase": state.part},
    )
    assert [row["phase"] for row in rows] == ["over"] * 3
    with pytest.raises(ValueError, match="may not overwrite"):
        simulate("ride_the_bus", 1, extras=lambda state: {"length": 0})
    with pytest.raises(ValueError, match="must return a dict"):
        simulate("ride_the_bus", 1, extras=lambda state: 3)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n_games": 0}, "positive integer"),
        ({"seed": -1}, "non-negative"),
        ({"bots": "clever"}, "'best_odds', 'random'"),
        ({"bots": {0: "random"}}, "every seat 0 to 3"),
        ({"bots": {0: "random", 1: "x", 2: "random", 3: "random"}}, "'best_odds', 'random'"),
        ({"executor": "all cores"}, "concurrent.futures.Executor"),
        ({"chunk_size": 0}, "positive integer"),
        ({"extras": "scores"}, "extras"),
        ({"players": 9}, "from 2 to 8"),
    ],
)
def test_bad_arguments(kwargs, message):
    args = {"n_games": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        simulate("ride_the_bus", **args)


def test_bad_game():
    with pytest.raises(ValueError, match="registered games are"):
        simulate("ride_the_train", 2)
    with pytest.raises(ValueError, match="with a Game object"):
        simulate(load_game("ride_the_bus"), 2, players=3)
    with pytest.raises(ValueError, match="finished Ride the Bus"):
        ride_the_bus_extras(load_game("ride_the_bus").new_initial_state())


def test_progress_bar_does_not_change_the_rows(capsys):
    quiet = simulate("ride_the_bus", 6, seed=2, players=2)
    assert simulate("ride_the_bus", 6, seed=2, players=2, progress=True, chunk_size=2) == quiet
    assert "games" in capsys.readouterr().err  # tqdm writes its bar to stderr in a terminal


@pytest.mark.parametrize(
    "params",
    [{"players": 4}, {"players": 3, "board": "give_and_take"}, {"players": 2, "bus": "questions"}],
)
def test_points_by_part_add_up_to_the_scores(params):
    """The Part 1, 2 and 3 points of ride_the_bus_extras add up to the seats' returns() together, and
    each part is the sum of the score lines that the score breakdown files under that part (its label
    reads "Part 1: ...", "Part 2: ..." or "Part 3: ...")."""
    for seed in range(8):
        session = Session(load_game("ride_the_bus", **params), seed=seed, bots="random")
        session.run_to_end()
        state = session.state
        extras = ride_the_bus_extras(state)
        by_label = {"Part 1": 0, "Part 2": 0, "Part 3": 0}
        for seat in range(state.num_players):
            for line in state.score_breakdown(seat):
                by_label[line["label"].split(":")[0]] += line["points"]
        assert (extras["part1_points"], extras["part2_points"], extras["bus_points"]) == (
            by_label["Part 1"],
            by_label["Part 2"],
            by_label["Part 3"],
        )
        assert sum(by_label.values()) == sum(state.returns())


def _session_rows(game, bots, seed, n_games):
    """The rows of a run played by a real Session per game (the plain reference of the lean loop)."""
    rows = []
    for index in range(n_games):
        s = game_seed(seed, index)
        session = Session(game, seed=s, bots=bots)
        session.run_to_end()
        state = session.state
        assert state.is_terminal()
        rows.append(
            {
                "game_index": index,
                "seed": s,
                "winners": list(state.winners()),
                "scores": list(state.returns()),
                "length": len(state.history()),
            }
        )
    return rows


@pytest.mark.parametrize("name", registered_games())
def test_lean_loop_plays_the_games_a_session_plays(name):
    """simulate plays without a Session; its rows are exactly those of a Session with the same seed
    and bots, for every registered game and each of its named bots (and a bot per seat)."""
    game = load_game(name)
    named = sorted(game.policies())
    for bots in named:
        assert simulate(game, 4, bots=bots, seed=11) == _session_rows(game, bots, 11, 4)
    mixed = {seat: named[seat % len(named)] for seat in range(game.num_players)}
    rows = simulate(game, 4, bots=mixed, seed=12)
    assert rows == _session_rows(game, mixed, 12, 4)
    assert all(row["length"] > 0 for row in rows)


def test_pool_tasks_carry_the_game_by_name():
    """A registered game travels to a worker as (name, params); a game the registry cannot remake
    travels as itself; both give the serial rows."""
    game = load_game("ride_the_bus", players=3, board="give_and_take")
    assert _game_by_name(game) == ("ride_the_bus", game.params)
    assert (
        _play_chunk(("ride_the_bus", game.params), "random", 5, (2, 5), None)
        == simulate(game, 5, seed=5)[2:5]
    )

    class Unregistered(type(game)):
        name = "not_registered"

    odd = Unregistered(players=3)
    assert _game_by_name(odd) is odd


def _pid(state):
    """extras: the id of the process that played the game."""
    return {"pid": os.getpid()}


def test_same_rows_on_a_dask_cluster():
    """Two worker processes of a dask.distributed LocalCluster, through client.get_executor(), give
    the serial rows (extras included)."""
    distributed = pytest.importorskip(
        "distributed", reason="dask[distributed] is not installed (pip install -r requirements/test.txt)"
    )
    here = simulate("ride_the_bus", 40, seed=9, players=3, extras=ride_the_bus_extras)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        there = simulate(
            "ride_the_bus",
            40,
            seed=9,
            players=3,
            extras=ride_the_bus_extras,
            executor=client.get_executor(),
            chunk_size=7,
        )
        pids = {
            row["pid"] for row in simulate("ride_the_bus", 6, extras=_pid, executor=client.get_executor())
        }
    assert there == here
    assert pids and os.getpid() not in pids  # played in the worker processes
    assert [row["game_index"] for row in there] == list(range(40))


def test_reseeding_draws_what_a_fresh_generator_draws():
    """_reseed(rng, text) gives the stream of random.Random(text), after any earlier use of rng."""
    import random

    rng = random.Random(3)
    for text in ["0:chance:0", "4294967295:bot:135", "12:chance:7", "", "é:bot:1"]:
        rng.gauss(0, 1)  # leaves a second normal deviate cached, which re-seeding must drop
        fresh = random.Random(text)
        again = _reseed(rng, text)
        assert again is rng
        assert [again.randrange(52) for _ in range(20)] == [fresh.randrange(52) for _ in range(20)]
        assert again.gauss(0, 1) == fresh.gauss(0, 1) and again.gauss(0, 1) == fresh.gauss(0, 1)
        assert again.getrandbits(100) == fresh.getrandbits(100)
