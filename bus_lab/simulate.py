"""``simulate``: many seeded games through the step-through engine, on one core or many.

Each game ``i`` of a run with master seed ``s`` is played as a :class:`~bus_lab.engine.session.Session`
with seed :func:`game_seed` ``(s, i)`` and the same bots would play it (the same draws and choices,
from the same random streams), in a lean loop that keeps no timeline of states for undo. A game's
result depends only on ``(s, i)``: the same
master seed gives the same table whether the games run in this process, in a
``concurrent.futures.ProcessPoolExecutor`` over every local core, or on a cluster through a Dask
``distributed`` client's executor::

    from concurrent.futures import ProcessPoolExecutor
    from bus_lab.simulate import simulate

    rows = simulate("ride_the_bus", 1_000, bots="random", seed=1, players=4)
    with ProcessPoolExecutor() as pool:
        assert simulate("ride_the_bus", 1_000, seed=1, players=4, executor=pool) == rows

    from dask.distributed import Client          # a cluster, if you have one
    with Client("tcp://scheduler:8786") as client:
        rows = simulate("ride_the_bus", 100_000, seed=1, executor=client.get_executor())

Importing this module is cheap (the engine only): :mod:`bus_lab.prob.montecarlo` (seeds, progress bar)
and numpy are imported when games are played, ``concurrent.futures`` when an executor is used.
:func:`game_seed` is :func:`bus_lab.prob.montecarlo.game_seed`.
"""

from __future__ import annotations

import math
from _random import Random as _CRandom
from collections.abc import Callable, Mapping, Sequence
from hashlib import sha512
from random import Random
from typing import TYPE_CHECKING, Any

from bus_lab.engine.core import CHANCE, TERMINAL, Game, State
from bus_lab.engine.policies import draw_outcome, sample_chance
from bus_lab.engine.registry import load_game
from bus_lab.engine.streams import (
    _SURE_BELOW,
    _TWO_TO_32,
    BOT_SALT,
    LEGACY_STREAMS,
    STREAMS,
    StepRandom,
    StepWords,
    check_streams,
)

if TYPE_CHECKING:  # concurrent.futures is imported only when an executor is used
    import concurrent.futures as cf

__all__ = ["simulate", "game_seed", "ride_the_bus_extras"]

_seed_generator = _CRandom.seed  # the C seeding under random.Random.seed, given an int

ROW_KEYS = ("game_index", "seed", "winners", "scores", "length")


def _play_game(game: Game, policies: Mapping[int, Callable], seed: int, streams: int = STREAMS) -> State:
    """Play one game to the end with ``policies`` (a policy per seat) and return its final state.

    The lean loop of :func:`simulate`: it applies the actions a
    :class:`~bus_lab.engine.session.Session` with the same seed, bots and streams version would
    (``run_to_end``), drawn from the same random streams (:mod:`bus_lab.engine.streams`: the
    generator of each step derived from the seed, the kind of step and ``step``, the actions so
    far, as :meth:`Session.rng_for_step` derives them), but keeps no timeline of cloned states.
    One generator is re-started for every step (version 2: a :class:`StepRandom` given the step's
    word; version 1: re-seeded by :func:`_reseed`), so a policy must not keep its rng from one call
    to the next. A draw among equally likely outcomes is the step's word modulo their number, which
    is what ``StepRandom(word).randrange`` gives for all but the top 2**32 words (those, and weighted
    draws, go through the generator). ``tests/test_simulate.py`` checks it against a Session for
    every registered game, and step by step against the plain draws for words where the short cut
    does not apply.

    Args:
        game (Game): the game to play.
        policies (Mapping[int, Callable]): ``{seat: policy(state, rng) -> action}`` for every seat.
        seed (int): the game's seed (a Session's ``seed``).
        streams (int): the streams version (2, or 1 for runs made before version 2).

    Raises:
        RuntimeError: the game did not end within 100,000 steps (a Session's ``run_to_end`` limit).
    """
    if streams == LEGACY_STREAMS:
        return _play_game_legacy(game, policies, seed)
    state = game.new_initial_state()
    step = len(state.history())
    words = StepWords(seed)
    dealt = words.words  # the words dealt so far (a list that grows)
    rng = StepRandom(0)  # re-started in place from each step's word, as StepRandom(word) starts
    for _ in range(100_000):
        player = state.current_player()
        if player == TERMINAL:
            return state
        word = dealt[step] if step < len(dealt) else words.word(step)
        if player == CHANCE:
            actions, weights = state.chance_weights()
            count = len(actions)
            if weights is None and 0 < count <= _TWO_TO_32 and word < _SURE_BELOW:
                # equally likely outcomes: StepRandom(word).randrange(count) is word % count
                action = actions[word % count]
            else:
                rng._word = rng._first = word
                rng.gauss_next = None
                action = draw_outcome(actions, weights, rng)
        else:
            rng._word = rng._first = word ^ BOT_SALT
            rng.gauss_next = None
            action = policies[player](state, rng)
        state.apply_action(action)
        step += 1
    if state.is_terminal():
        return state
    raise RuntimeError(f"the game of seed {seed} did not end within 100,000 steps")


def _play_game_legacy(game: Game, policies: Mapping[int, Callable], seed: int) -> State:
    """:func:`_play_game` with version 1 streams (``random.Random(f"{seed}:{kind}:{step}")``)."""
    state = game.new_initial_state()
    step = len(state.history())
    rng = Random(0)  # re-seeded before every use (a seed given here spares a read of os.urandom)
    for _ in range(100_000):
        player = state.current_player()
        if player == TERMINAL:
            return state
        if player == CHANCE:
            action = sample_chance(state, _reseed(rng, f"{seed}:chance:{step}"))
        else:
            action = policies[player](state, _reseed(rng, f"{seed}:bot:{step}"))
        state.apply_action(action)
        step += 1
    if state.is_terminal():
        return state
    raise RuntimeError(f"the game of seed {seed} did not end within 100,000 steps")


def _reseed(rng: Random, text: str) -> Random:
    """Re-seed ``rng`` in place so it draws exactly what ``random.Random(text)`` draws, and return it.

    The fast path of a fresh ``Random(text)`` per step: it skips making a generator and goes
    straight to the C seeding with the integer ``Random.seed`` (version 2) derives from a string,
    ``int.from_bytes(text.encode() + sha512(text.encode()).digest())``. ``tests/test_simulate.py``
    checks the streams against ``Random(text)``.

    Args:
        rng (random.Random): the generator to re-seed (a ``random.Random``, not a subclass).
        text (str): the seed string.
    """
    data = text.encode()
    _seed_generator(rng, int.from_bytes(data + sha512(data).digest()))
    rng.gauss_next = None  # what Random.seed resets as well
    return rng


def _policies(game: Game, bots: Any) -> dict[int, Callable]:
    """``{seat: policy}`` for every seat from a checked ``bots`` (a name, a callable or a dict)."""
    named = game.policies()
    specs = bots if isinstance(bots, Mapping) else dict.fromkeys(range(game.num_players), bots)
    return {seat: named[spec] if isinstance(spec, str) else spec for seat, spec in specs.items()}


def _play_chunk(
    game: Game | tuple[str, dict[str, Any]],
    bots: Any,
    seed: int,
    indices: Sequence[int] | tuple[int, int],
    extras: Callable[[State], dict] | None,
    streams: int = STREAMS,
) -> list[dict[str, Any]]:
    """Play the games ``indices`` (module level, so process pools and clusters can pickle it).

    ``game`` may be ``(name, params)`` and ``indices`` a ``(start, stop)`` pair, so a task sent to
    another process carries a few words rather than a pickled game and a list of indices.
    """
    from bus_lab.prob.montecarlo import game_seed, game_seeds

    if isinstance(game, tuple):
        game = load_game(game[0], **game[1])
    if isinstance(indices, tuple):
        indices = range(*indices)
    policies = _policies(game, bots)
    if isinstance(indices, range) and indices.step == 1:
        seeds = game_seeds(seed, indices.start, max(indices.start, indices.stop))
    else:
        seeds = [game_seed(seed, index) for index in indices]
    rows = []
    for index, s in zip(indices, seeds):
        state = _play_game(game, policies, s, streams)
        row = {
            "game_index": index,
            "seed": s,
            "winners": list(state.winners()),
            "scores": list(state.returns()),
            "length": len(state.history()),
        }
        if extras is not None:
            more = extras(state)
            if not isinstance(more, Mapping):
                raise ValueError(f"extras(state) must return a dict, not {type(more).__name__}")
            clash = sorted(set(more) & set(ROW_KEYS))
            if clash:
                raise ValueError(f"extras(state) may not overwrite the keys {', '.join(clash)}")
            row.update(more)
        rows.append(row)
    return rows


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run with master seed ``seed``: the same as
    :func:`bus_lab.prob.montecarlo.game_seed` (kept here for saved code; see it for the method)."""
    from bus_lab.prob.montecarlo import game_seed as seed_of

    return seed_of(seed, index)


def _check_bots(game: Game, bots: Any) -> Any:
    named = game.policies()
    allowed = ", ".join(repr(n) for n in sorted(named))
    if isinstance(bots, str):
        if bots not in named:
            raise ValueError(
                f"bots={bots!r} is not a bot of {game.name}: use one of {allowed}, "
                f"or a dict {{seat: name}} covering every seat"
            )
        return bots
    if callable(bots):
        return bots
    if isinstance(bots, Mapping):
        seats = set(range(game.num_players))
        if set(bots) != seats:
            raise ValueError(
                f"bots={dict(bots)!r} must give a bot to every seat 0 to {game.num_players - 1} "
                f"(a simulation has no human players)"
            )
        for seat, spec in bots.items():
            if isinstance(spec, str) and spec not in named:
                raise ValueError(f"bots[{seat}]={spec!r} is not a bot of {game.name}: use one of {allowed}")
            if not isinstance(spec, str) and not callable(spec):
                raise ValueError(f"bots[{seat}]={spec!r}: use a bot name ({allowed}) or a policy function")
        return dict(bots)
    raise ValueError(
        f"bots={bots!r}: use a bot name ({allowed}), a dict {{seat: name}} for every seat, "
        f"or a policy function"
    )


def simulate(
    game_or_name: Game | str,
    n_games: int,
    bots: Any = "random",
    seed: int = 0,
    executor: cf.Executor | None = None,
    progress: bool = False,
    extras: Callable[[State], dict] | None = None,
    chunk_size: int | None = None,
    streams: int = STREAMS,
    **params: Any,
) -> list[dict[str, Any]]:
    """Play ``n_games`` seeded games to the end with bots and return one row per game.

    Args:
        game_or_name (Game | str): a game, or a registered name such as ``"ride_the_bus"`` (then
            ``**params`` are its parameters, e.g. ``players=4, board="give_and_take"``).
        n_games (int): games to play, ≥ 1.
        bots (str | dict | callable): the bot of every seat: a name from ``game.policies()``
            (``"random"``, ``"best_odds"`` for Ride the Bus), a dict ``{seat: name or policy}`` covering
            every seat, or a policy ``policy(state, rng) -> action``. With an executor, policies must
            be picklable (defined at module level).
        seed (int): master seed, ≥ 0; game ``i`` uses :func:`game_seed` ``(seed, i)``.
        executor (concurrent.futures.Executor | None): where to play. ``None`` plays here, in order;
            a ``ProcessPoolExecutor`` uses local cores; a Dask client's ``get_executor()`` a cluster.
            The rows are the same, in the same order, whatever the executor.
        progress (bool): show a progress bar (``tqdm.auto``) counting finished games.
        extras (callable | None): ``extras(state) -> dict`` of per-game figures computed from the
            final state and added to each row (e.g. :func:`ride_the_bus_extras`); picklable when an
            executor is used. It may not reuse the standard keys.
        chunk_size (int | None): games per task sent to the executor (default: about four tasks
            per worker when the executor says how many it has, else 50 games per task).
        streams (int): how each step's generator comes from the game's seed
            (:mod:`bus_lab.engine.streams`): 2, the default, or 1 to repeat a run made before
            version 2. Row ``i`` is the game ``Session(game, seed=row["seed"], bots=bots,
            streams=streams)`` plays to the end.
        **params: game parameters when ``game_or_name`` is a name.

    Returns:
        a list of ``n_games`` dicts in game order: ``{"game_index": i, "seed": the game's seed,
        "winners": [seats sharing the win], "scores": [points per seat, from state.returns()],
        "length": actions in the game (decisions and draws), **extras}``.

    Raises:
        ValueError: a bad ``n_games``, ``seed``, ``bots``, ``chunk_size`` or ``executor`` (the message
            names the allowed values); ``UnknownGameError``/``ParameterError`` (both ``ValueError``) for
            a bad name or parameter; parameters given together with a ``Game``.
    """
    game = _resolve_game(game_or_name, params)
    if not _is_count(n_games, 1):
        raise ValueError(f"n_games={n_games!r}: use a positive integer")
    if not _is_count(seed, 0):
        raise ValueError(f"seed={seed!r}: use a non-negative integer")
    bots = _check_bots(game, bots)
    _check_options(extras, executor, chunk_size)
    streams = check_streams(streams)
    from bus_lab.prob.montecarlo import progress_bar

    bar = progress_bar(total=n_games, enabled=progress, description="games")
    try:
        if executor is None:
            return _play_here(game, bots, seed, n_games, extras, chunk_size, bar, streams)
        return _play_on(executor, game, bots, seed, n_games, extras, chunk_size, bar, streams)
    finally:
        if bar is not None:
            bar.close()


def _resolve_game(game_or_name: Game | str, params: dict[str, Any]) -> Game:
    """The game to play: a Game as given (then no parameters), or a registered name made with them."""
    if isinstance(game_or_name, Game):
        if params:
            raise ValueError(
                f"parameters {sorted(params)} were given with a Game object: pass a game name "
                f"with parameters, or a Game already made with them"
            )
        return game_or_name
    if isinstance(game_or_name, str):
        return load_game(game_or_name, **params)
    raise ValueError(
        f"game_or_name={game_or_name!r}: use a Game or a registered game name such as 'ride_the_bus'"
    )


def _is_count(value: Any, low: int) -> bool:
    """An int (not a bool) of at least ``low``."""
    return not isinstance(value, bool) and isinstance(value, int) and value >= low


def _check_options(extras: Any, executor: Any, chunk_size: Any) -> None:
    """Refuse a bad ``extras``, ``executor`` or ``chunk_size`` (the message names the allowed values)."""
    if extras is not None and not callable(extras):
        raise ValueError(f"extras={extras!r}: use None or a function extras(state) -> dict")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(
            f"executor={executor!r}: use None or a concurrent.futures.Executor (e.g. "
            f"ProcessPoolExecutor(), or a Dask client's get_executor())"
        )
    if chunk_size is not None and not _is_count(chunk_size, 1):
        raise ValueError(f"chunk_size={chunk_size!r}: use None or a positive integer")


def _play_here(
    game: Game,
    bots: Any,
    seed: int,
    n_games: int,
    extras: Callable[[State], dict] | None,
    chunk_size: int | None,
    bar: Any,
    streams: int = STREAMS,
) -> list[dict[str, Any]]:
    """Play every game in this process, in order, a chunk at a time (the bar advances per chunk)."""
    step = chunk_size or max(1, min(100, math.ceil(n_games / 100)))
    rows: list[dict[str, Any]] = []
    for start in range(0, n_games, step):
        chunk = range(start, min(start + step, n_games))
        rows.extend(_play_chunk(game, bots, seed, chunk, extras, streams))
        if bar is not None:
            bar.update(len(chunk))
    return rows


def _default_chunk_size(executor: Any, n_games: int) -> int:
    """About four tasks per worker when the executor says how many it has (at most 500 games per
    task), else 50 games per task."""
    workers = getattr(executor, "_max_workers", None)
    chunk_size = max(1, math.ceil(n_games / (4 * workers))) if workers else 50
    return min(chunk_size, 500)


def _game_by_name(game: Game) -> Game | tuple[str, dict[str, Any]]:
    """``(name, params)`` when the registry makes an equal game from them (a task then carries a
    few words and the worker makes the game), else the game itself (pickled with each task)."""
    try:
        if load_game(game.name, **game.params) == game:
            return (game.name, dict(game.params))
    except Exception:  # not registered, or made in another way: send the object
        pass
    return game


def _play_on(
    executor: cf.Executor,
    game: Game,
    bots: Any,
    seed: int,
    n_games: int,
    extras: Callable[[State], dict] | None,
    chunk_size: int | None,
    bar: Any,
    streams: int = STREAMS,
) -> list[dict[str, Any]]:
    """Send chunks of games to ``executor`` and put the rows back in game order (a failure cancels
    the chunks not started)."""
    import concurrent.futures as cf

    chunk_size = chunk_size or _default_chunk_size(executor, n_games)
    sent = _game_by_name(game)
    futures = {}
    for start in range(0, n_games, chunk_size):
        chunk = (start, min(start + chunk_size, n_games))
        futures[executor.submit(_play_chunk, sent, bots, seed, chunk, extras, streams)] = start
    results: dict[int, list[dict[str, Any]]] = {}
    try:
        for future in cf.as_completed(futures):
            chunk_rows = future.result()
            results[futures[future]] = chunk_rows
            if bar is not None:
                bar.update(len(chunk_rows))
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return [row for start in sorted(results) for row in results[start]]


#: Each scoring rule of Ride the Bus and the ride_the_bus_extras figure its points count towards:
#: Part 1 (the questions), Part 2 (the pyramid or the Give & Take board), Part 3 (the bus).
RTB_POINTS_BY_RULE = {
    "RTB-Q-WRONG": "part1_points",
    "RTB-Q-RIGHT": "part1_points",
    "RTB-P-GIVE": "part2_points",
    "RTB-GT-GIVE": "part2_points",
    "RTB-GT-TAKE": "part2_points",
    "RTB-B-STREAK": "bus_points",
    "RTB-QB-MISS": "bus_points",
}


def ride_the_bus_extras(state: State) -> dict[str, Any]:
    """Per-game figures of a finished Ride the Bus game, for ``simulate(..., extras=...)``.

    Args:
        state: a terminal ``RideTheBusState`` (any options).

    Returns:
        dict with

        * ``"part1_points"``, ``"part2_points"``, ``"bus_points"`` (int): points added to all seats
          together in Part 1 (RTB-Q-WRONG, RTB-Q-RIGHT), Part 2 (RTB-P-GIVE, RTB-GT-GIVE, RTB-GT-TAKE)
          and Part 3 (RTB-B-STREAK, RTB-QB-MISS);
        * ``"rider"`` (int | None): the seat that rode the bus (the last rider in the gauntlet);
        * ``"rider_cards"`` (int | None): cards the rider still held (RTB-B-RIDER; ``None`` in the
          gauntlet, which has no Part 2);
        * ``"bus_guesses"`` (int): calls made on the bus, or on all rides of the gauntlet;
        * ``"got_off"`` (bool): the bus ended on the target streak, not on the 40-call limit
          (RTB-B-END, RTB-QB-END); in the gauntlet, somebody won on the spot (RTB-SG-WIN);
        * ``"part2_flips"`` (int): pyramid or Give & Take cards turned up (RTB-P-FLIP, RTB-GT-REFLIP);
        * ``"rides"`` (int | None): rides ended by a miss in the gauntlet (RTB-SG-RIDES; a win on the
          spot ends the game during a ride), else ``None``;
        * ``"best_streaks"`` (list[int] | None): each seat's best ride in the gauntlet, else ``None``;
        * ``"ride_order"`` (list[int] | None): the gauntlet's ride order (RTB-SG-ORDER), else ``None``.

    Raises:
        ValueError: the state is not a finished Ride the Bus game.
    """
    if getattr(state.get_game(), "name", None) != "ride_the_bus" or not state.is_terminal():
        raise ValueError("ride_the_bus_extras needs a finished Ride the Bus game")
    parts = {"part1_points": 0, "part2_points": 0, "bus_points": 0}
    for seat in range(state.num_players):  # the score lines, by the rule that gave the points
        for line in state.score_breakdown(seat):
            parts[RTB_POINTS_BY_RULE[line["rule"]]] += line["points"]
    gauntlet = state.gauntlet
    flips = sum(
        1
        for e in state.events()
        if e.rule == "RTB-P-FLIP" or (e.rule == "RTB-GT-LAYOUT" and "index" in e.data)
    )
    if gauntlet:
        got_off = bool(state.gauntlet_winners) and max(state.ride_best) >= state.target
    else:
        got_off = len(state.run) == 4 if state.bus_kind == "questions" else state.streak >= state.target
    return {
        **parts,
        "rider": state.rider,
        "rider_cards": None if gauntlet else len(state.rows[state.rider]),
        "bus_guesses": state.bus_guesses,
        "got_off": got_off,
        "part2_flips": flips,
        "rides": state.ride_number if gauntlet else None,
        "best_streaks": list(state.ride_best) if gauntlet else None,
        "ride_order": list(state.ride_order) if gauntlet else None,
    }
