"""Monte Carlo helpers: seeded, vectorised simulation that returns an estimate with its error.

Every simulation takes a seed and uses its own ``numpy.random.Generator`` (never the global
random state). Large runs go in batches, with an optional progress bar (``tqdm.auto``: a bar
widget in notebooks, text in terminals).

* :func:`run_batches`: the batch loop (one seeded generator, the progress bar) that every
  simulation in :mod:`bus_lab.prob` runs on;
* :class:`Moments`: running sums of named figures → :class:`Estimate` objects;
* :func:`monte_carlo`: both together for one figure; :func:`estimate`: a kept array of samples;
* :func:`game_seed`: the seed of game ``i`` of a run of whole games with one master seed;
  :func:`game_seeds` the seeds of a range of games at once.

numpy is imported when a helper runs, not with the module.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Estimate:
    """A simulated mean with its standard error.

    Attributes:
        mean (float): the sample mean (a probability when the samples are 0/1).
        stderr (float): standard error of the mean (sample standard deviation / sqrt(n)).
        n (int): number of samples.
    """

    mean: float
    stderr: float
    n: int

    def ci(self, level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation confidence interval ``(low, high)`` at ``level`` (0.80–0.999)."""
        if not 0.5 < level < 1:
            raise ValueError(f"level={level!r}: use a confidence level between 0.5 and 1, e.g. 0.95")
        z = _normal_quantile(0.5 + level / 2)
        return self.mean - z * self.stderr, self.mean + z * self.stderr

    def z_score(self, exact: Fraction | float) -> float:
        """How many standard errors the estimate lies from ``exact`` (0 when both agree exactly)."""
        gap = self.mean - float(exact)
        if self.stderr == 0:
            return 0.0 if gap == 0 else math.copysign(math.inf, gap)
        return gap / self.stderr

    def agrees_with(self, exact: Fraction | float, sigmas: float = 3.0) -> bool:
        """True when ``exact`` lies within ``sigmas`` standard errors of the estimate."""
        return abs(self.z_score(exact)) <= sigmas

    def __str__(self) -> str:
        lo, hi = self.ci()
        return f"{self.mean:.4f} ± {self.stderr:.4f} (95% CI {lo:.4f} to {hi:.4f}, n={self.n:,})"


def _normal_quantile(p: float) -> float:
    """Inverse of the standard normal CDF (statistics.NormalDist from the standard library)."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(p)


def estimate(samples: np.ndarray) -> Estimate:
    """Summarise a 1-D array of samples (floats or 0/1 outcomes) as an :class:`Estimate`.

    Raises:
        ValueError: fewer than two samples.
    """
    import numpy as np

    samples = np.asarray(samples, dtype=float).ravel()
    if samples.size < 2:
        raise ValueError("an estimate needs at least two samples")
    return Estimate(
        float(samples.mean()), float(samples.std(ddof=1) / math.sqrt(samples.size)), int(samples.size)
    )


class Moments:
    """Running sums of named figures, turned into :class:`Estimate` objects at the end.

    For simulations that produce many figures per trial, batch by batch, without keeping the
    samples: each :meth:`add` folds in one batch (the sum and the sum of squares of every figure,
    as floats), :meth:`estimate` gives the mean and its standard error over all trials added.

    Args:
        names (Sequence[str]): the figures, e.g. ``("off", "guesses")``.
    """

    def __init__(self, names: Sequence[str]):
        self.names = tuple(names)
        self.total = {k: 0.0 for k in self.names}
        self.total_sq = {k: 0.0 for k in self.names}
        self.n = 0

    def add(self, values: Mapping[str, Any], count: int | None = None) -> None:
        """Fold in one batch.

        Args:
            values (Mapping[str, array-like]): for each name, the batch's values (a 1-D array with
                one value per trial, or a single number when ``count`` is 1); other keys are ignored.
            count (int | None): trials in the batch; default: the size of the first figure's values.
        """
        import numpy as np

        for k in self.names:
            v = np.asarray(values[k], dtype=float)
            self.total[k] += float(v.sum())
            self.total_sq[k] += float((v * v).sum())
        self.n += np.size(values[self.names[0]]) if count is None else count

    def estimate(self, name: str) -> Estimate:
        """The mean of figure ``name`` over every trial added, with its standard error.

        Raises:
            ValueError: fewer than two trials added.
        """
        n = self.n
        if n < 2:
            raise ValueError("an estimate needs at least two samples")
        mean = self.total[name] / n
        variance = max(self.total_sq[name] / n - mean * mean, 0.0) * n / (n - 1)
        return Estimate(mean, math.sqrt(variance / n), n)

    def estimates(self) -> dict[str, Estimate]:
        """``{name: Estimate}`` for every figure, in the order of ``names``."""
        return {k: self.estimate(k) for k in self.names}


def run_batches(
    play: Callable[[np.random.Generator, int, int], Any],
    n: int,
    batch: int = 100_000,
    seed: int = 0,
    progress: bool = False,
    description: str = "simulating",
) -> None:
    """Run ``n`` trials as ``play(rng, start, size)`` calls, batch by batch, with one generator.

    The loop every simulation here shares: one ``numpy.random.Generator`` seeded with ``seed`` is
    made once and handed to every batch in turn, so the results depend only on ``seed`` and
    ``batch`` (never on the progress bar). The batches cover trials ``0 … n - 1`` in order:
    ``start`` = 0, ``batch``, ``2 * batch``, …, each ``size = min(batch, n - start)`` trials. The
    caller's ``play`` simulates them and keeps what it needs (e.g. in a :class:`Moments`);
    ``batch=1`` plays trial by trial (``start`` is then the trial's index).

    Args:
        play: ``play(rng, start, size)``; its return value is ignored.
        n (int): trials, at least 1 (callers check their own lower bound first).
        batch (int): trials per call, at least 1.
        seed (int): seed of the generator (a ``play`` that does not draw may ignore ``rng``).
        progress (bool): show a progress bar (:func:`progress_bar`) advanced after each batch and
            closed at the end, also when ``play`` raises.
        description (str): the progress bar's label.

    Raises:
        ValueError: ``n`` < 1 or ``batch`` < 1; whatever ``play`` raises.
    """
    if n < 1 or batch < 1:
        raise ValueError(f"n={n}, batch={batch}: use n >= 1 trials and batch >= 1")
    import numpy as np

    rng = np.random.default_rng(seed)
    bar = progress_bar(total=n, enabled=progress, description=description)
    try:
        start = 0
        while start < n:
            size = min(batch, n - start)
            play(rng, start, size)
            start += size
            if bar is not None:
                bar.update(size)
    finally:
        if bar is not None:
            bar.close()


def monte_carlo(
    trial: Callable[[np.random.Generator, int], np.ndarray],
    n: int,
    seed: int = 0,
    batch: int = 100_000,
    progress: bool = False,
    description: str = "simulating",
) -> Estimate:
    """Run ``n`` independent trials in vectorised batches and estimate their mean.

    Args:
        trial: ``trial(rng, size) -> array of size values`` (one value per simulated game or
            deal; 0/1 for a probability).
        n (int): number of trials, at least 2.
        seed (int): seed of the ``numpy.random.Generator``; the same seed gives the same estimate.
        batch (int): trials per call of ``trial``.
        progress (bool): show a progress bar.
        description (str): the progress bar's label.

    Returns:
        an :class:`Estimate` (mean, standard error, n).

    Raises:
        ValueError: ``n`` < 2 or ``batch`` < 1, or ``trial`` returned the wrong shape.
    """
    if n < 2 or batch < 1:
        raise ValueError(f"n={n}, batch={batch}: use n >= 2 trials and batch >= 1")
    sums = Moments(("value",))

    import numpy as np

    def play(rng: np.random.Generator, start: int, size: int) -> None:
        values = np.asarray(trial(rng, size), dtype=float)
        if values.shape != (size,):
            raise ValueError(f"trial returned shape {values.shape}, expected ({size},)")
        sums.add({"value": values}, size)

    run_batches(play, n, batch, seed, progress, description)
    return sums.estimate("value")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run with master seed ``seed``.

    ``numpy.random.SeedSequence(seed, spawn_key=(index,))`` is the ``index``-th child of
    ``SeedSequence(seed).spawn(...)``; its first 32-bit word is the game's seed. Children of one master
    seed are statistically independent, and the value depends on nothing but ``(seed, index)``.

    Args:
        seed (int): the master seed, ≥ 0.
        index (int): the game's index in the run, ≥ 0.

    Returns:
        an int from 0 to 2**32 − 1.

    Raises:
        ValueError: a negative or non-integer seed or index.
    """
    for name, value in (("seed", seed), ("index", index)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name}={value!r}: use a non-negative integer")
    import numpy as np

    return int(np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(1)[0])


#: Constants of numpy's ``SeedSequence`` (O'Neill's ``seed_seq`` hash), for :func:`game_seeds`.
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R, _MASK32 = 0xCA01F9DD, 0x4973F715, 0xFFFFFFFF


def _words32(n: int) -> list[int]:
    """``n`` as little-endian 32-bit words (``[0]`` for 0), as ``SeedSequence`` reads an int."""
    words = [n & _MASK32]
    n >>= 32
    while n:
        words.append(n & _MASK32)
        n >>= 32
    return words


def game_seeds(seed: int, start: int, stop: int) -> list[int]:
    """The seeds of games ``start`` to ``stop - 1`` of a run: ``[game_seed(seed, i) for i in
    range(start, stop)]``, computed for the whole range at once.

    ``SeedSequence(seed, spawn_key=(i,))`` pads the master seed's 32-bit words to its pool of four
    and mixes them first, then each word of ``i``, so the first part is worked out once, in Python
    ints, and only the last mixing rounds run per game, on numpy arrays of all the indices
    (unsigned 32-bit arithmetic, which wraps as the C code's does). ``tests/test_simulate.py``
    checks it against :func:`game_seed` (numpy's ``SeedSequence`` itself) over small, large and
    huge seeds and indices.

    Args:
        seed (int): the master seed, ≥ 0.
        start (int): the first game's index, ≥ 0.
        stop (int): one past the last game's index, ≥ ``start``.

    Returns:
        a list of ints from 0 to 2**32 − 1, one per game.

    Raises:
        ValueError: a negative or non-integer seed, start or stop, or ``stop`` < ``start``.
    """
    for name, value in (("seed", seed), ("start", start), ("stop", stop)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name}={value!r}: use a non-negative integer")
    if stop < start:
        raise ValueError(f"stop={stop} is below start={start}")
    import numpy as np

    u32 = np.uint32
    hash_const = _INIT_A

    def hashmix(value):  # uint32 arrays; advances hash_const as the C code does
        nonlocal hash_const
        value = value ^ u32(hash_const)
        hash_const = (hash_const * _MULT_A) & _MASK32
        value = value * u32(hash_const)
        return value ^ (value >> u32(16))

    def mix(x, y):
        result = u32(_MIX_L) * x - u32(_MIX_R) * y
        return result ^ (result >> u32(16))

    run = _words32(seed)
    run += [0] * (4 - len(run))  # padded to the pool's size, since a spawn key follows
    words = [np.array([word], dtype=u32) for word in run]  # one-element arrays: no overflow warnings
    pool = [hashmix(word) for word in words[:4]]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src]))
    for word in words[4:]:
        for i_dst in range(4):
            pool[i_dst] = mix(pool[i_dst], hashmix(word))
    seeds: list[int] = []
    low, mixed_so_far = start, hash_const
    while low < stop:  # indices with the same number of 32-bit words share the rest of the mixing
        size = len(_words32(low))
        high = min(stop, 1 << (32 * size))
        indices = np.arange(low, high, dtype=object)
        hash_const = mixed_so_far  # every game's own words are mixed from the same point
        mixer = list(pool)  # each broadcasts against the indices' words
        for k in range(size):
            word = ((indices >> (32 * k)) & _MASK32).astype(np.uint64).astype(u32)
            for i_dst in range(4):
                mixer[i_dst] = mix(mixer[i_dst], hashmix(word))
        state = (mixer[0] ^ u32(_INIT_B)) * u32((_INIT_B * _MULT_B) & _MASK32)  # generate_state(1)
        seeds += np.broadcast_to(state ^ (state >> u32(16)), (high - low,)).tolist()
        low = high
    return seeds


def progress_bar(total: int, enabled: bool = True, description: str = ""):
    """A ``tqdm.auto`` progress bar over ``total`` items, or ``None`` when disabled."""
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=description, unit="trial", leave=False)
