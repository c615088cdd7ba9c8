"""Intervals that stay valid when a run keeps playing until they are narrow enough.

``--precision`` stops a run once an interval's half-width is small enough;
the stopping time then depends on the data, and a fixed-n interval computed
at that time no longer has its stated coverage in general. A *confidence
sequence* does: it holds at every sample size simultaneously, so it holds at
any stopping time whatever rule chose it.

Method: the two-sided normal-mixture boundary for sub-Gaussian sums (Robbins
1970; Howard, Ramdas, McAuliffe & Sekhon 2021, eq. 14). Values in [0, 1] are
sub-Gaussian with sigma = 1/2, so with V = n/4,

    |mean_n - mu| <= sqrt((V + rho) * log((V + rho) / (rho * alpha**2))) / n    for all n

with probability at least 1 - alpha. ``rho`` only moves where the boundary is
tightest; :func:`tuned_rho` puts that near the expected final sample size.
The price of validity at any stopping time is a wider interval (about 1.5x
a fixed-n Wilson interval at the sizes rumsim uses).
"""

from __future__ import annotations

import math

from analyses.stats import Interval

SIGMA = 0.5  # a value in [0, 1] is 1/2-sub-Gaussian


def tuned_rho(n_target: float, alpha: float = 0.05, sigma: float = SIGMA) -> float:
    """The mixture parameter that makes the boundary tightest near ``n_target`` samples."""
    log_term = -2.0 * math.log(alpha) + math.log(-2.0 * math.log(alpha) + 1.0)
    return max(sigma * sigma * n_target / log_term, 1e-9)


def halfwidth(n: int, alpha: float = 0.05, rho: float | None = None,
              sigma: float = SIGMA) -> float:
    """Half-width on the mean after ``n`` values (valid uniformly over n)."""
    if n <= 0:
        return math.inf
    rho = tuned_rho(n, alpha, sigma) if rho is None else rho
    v = sigma * sigma * n
    return math.sqrt((v + rho) * math.log((v + rho) / (rho * alpha * alpha))) / n


def interval(mean: float, n: int, alpha: float = 0.05, rho: float | None = None,
             low: float = 0.0, high: float = 1.0) -> Interval:
    """The confidence-sequence interval around ``mean``, clipped to [low, high]."""
    h = halfwidth(n, alpha, rho)
    return Interval(mean, max(low, mean - h), min(high, mean + h))


def games_for(halfwidth_wanted: float, alpha: float = 0.05, rho: float | None = None,
              start: int = 1000, most: int = 10**12) -> int:
    """Smallest n (to within 1%) whose half-width is at most ``halfwidth_wanted``."""
    lo, hi = 1, max(start, 2)
    while halfwidth(hi, alpha, rho) > halfwidth_wanted:
        lo, hi = hi, hi * 2
        if hi > most:
            return most
    while hi - lo > max(1, lo // 100):
        mid = (lo + hi) // 2
        if halfwidth(mid, alpha, rho) > halfwidth_wanted:
            lo = mid
        else:
            hi = mid
    return hi
