"""Monte Carlo helpers: seeded, vectorised simulation that returns an estimate with its error.

Every simulation takes a seed and uses its own ``numpy.random.Generator`` (never the global
random state). Large runs go in batches, with an optional progress bar (``tqdm.auto``: a bar
widget in notebooks, text in terminals).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

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
    samples = np.asarray(samples, dtype=float).ravel()
    if samples.size < 2:
        raise ValueError("an estimate needs at least two samples")
    return Estimate(float(samples.mean()), float(samples.std(ddof=1) / math.sqrt(samples.size)), int(samples.size))


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
        ValueError: ``n`` < 2 or ``batch`` < 1.
    """
    if n < 2 or batch < 1:
        raise ValueError(f"n={n}, batch={batch}: use n >= 2 trials and batch >= 1")
    rng = np.random.default_rng(seed)
    total = 0.0
    total_sq = 0.0
    done = 0
    bar = progress_bar(total=n, enabled=progress, description=description)
    try:
        while done < n:
            size = min(batch, n - done)
            values = np.asarray(trial(rng, size), dtype=float)
            if values.shape != (size,):
                raise ValueError(f"trial returned shape {values.shape}, expected ({size},)")
            total += float(values.sum())
            total_sq += float((values * values).sum())
            done += size
            if bar is not None:
                bar.update(size)
    finally:
        if bar is not None:
            bar.close()
    mean = total / n
    variance = max(total_sq / n - mean * mean, 0.0) * n / (n - 1)
    return Estimate(mean, math.sqrt(variance / n), n)


def progress_bar(total: int, enabled: bool = True, description: str = ""):
    """A ``tqdm.auto`` progress bar over ``total`` items, or ``None`` when disabled."""
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=description, unit="trial", leave=False)
