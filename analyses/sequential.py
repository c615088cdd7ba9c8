"""Intervals that stay valid when a run keeps playing until they are narrow enough.

``--precision`` stops a run once an interval's half-width is small enough;
the stopping time then depends on the data, and a fixed-n interval computed
at that time no longer has its stated coverage in general. A *confidence
sequence* does: it holds at every sample size simultaneously, so it holds at
any stopping time whatever rule chose it.

Method: the predictable plug-in empirical-Bernstein confidence sequence of
Waudby-Smith & Ramdas (2023, "Estimating means of bounded random variables by
betting", JRSS B, Theorem 2), for values in [0, 1] (a win, or 1/k for a k-way
tie) taken in game-index order. With bets ``lambda_t`` that use only earlier
values,

    C_t = sum(lambda_i x_i) / sum(lambda_i)
          +- (log(2/alpha) + sum(v_i psi(lambda_i))) / sum(lambda_i)

where ``v_i = 4 (x_i - mean_{i-1})**2`` and ``psi(l) = (-log(1 - l) - l) / 4``.
It adapts to the observed variance: a win share near 1/4 needs about 40%
fewer games than a variance-free (sub-Gaussian) boundary would. The bets are
tuned to a planned sample size fixed before the run (:func:`eb_games_for`);
any predictable choice keeps the sequence valid, the plan only decides where
it is tightest. The price of validity at any stopping time is a wider
interval, about 1.4x a fixed-n Wilson interval at the planned size.
"""

from __future__ import annotations

import math

import numpy as np

from analyses.stats import Interval

EB_MAX_BET = 0.5  # the cap c on lambda_t (Waudby-Smith & Ramdas use 1/2 or 3/4)


def _psi(lam):
    """psi_E(lambda) = (-log(1 - lambda) - lambda) / 4."""
    return (-np.log1p(-lam) - lam) / 4.0


def eb_interval(x, alpha: float = 0.05, n_plan: float | None = None) -> Interval:
    """The empirical-Bernstein confidence-sequence interval after the values ``x`` (in order).

    ``x`` lies in [0, 1] and is taken in the order it was observed (the game
    index): the bets are predictable, each using only the values before it.
    ``n_plan`` is the sample size the bets are tuned for, fixed before the run
    (default: ``len(x)``, right only when that too was fixed in advance).
    """
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n == 0:
        return Interval(math.nan, 0.0, 1.0)
    if np.any((x < 0) | (x > 1)):
        raise ValueError("empirical-Bernstein intervals need values in [0, 1]")
    n_plan = float(n if n_plan is None else n_plan)
    log_term = math.log(2.0 / alpha)
    t = np.arange(1, n + 1, dtype=np.float64)
    mu = (0.5 + np.cumsum(x)) / (t + 1.0)                       # mu_hat_t
    var = (0.25 + np.cumsum((x - mu) ** 2)) / (t + 1.0)         # sigma_hat^2_t
    mu_before = np.concatenate(([0.5], mu[:-1]))                # mu_hat_{t-1}
    var_before = np.concatenate(([0.25], var[:-1]))             # sigma_hat^2_{t-1}
    lam = np.minimum(np.sqrt(2.0 * log_term / (var_before * n_plan)), EB_MAX_BET)
    bets = lam.sum()
    centre = float((lam * x).sum() / bets)
    half = float((log_term + (4.0 * (x - mu_before) ** 2 * _psi(lam)).sum()) / bets)
    return Interval(float(x.mean()), max(0.0, centre - half), min(1.0, centre + half))


def eb_halfwidth(x, alpha: float = 0.05, n_plan: float | None = None) -> float:
    """Half the width of :func:`eb_interval` (before clipping to [0, 1])."""
    ci = eb_interval(x, alpha, n_plan)
    return (ci.high - ci.low) / 2


def eb_expected_halfwidth(n: float, variance: float, alpha: float = 0.05,
                          n_plan: float | None = None) -> float:
    """The half-width :func:`eb_interval` settles to after ``n`` values of the given variance."""
    n_plan = n if n_plan is None else n_plan
    log_term = math.log(2.0 / alpha)
    lam = min(math.sqrt(2.0 * log_term / (max(variance, 1e-12) * n_plan)), EB_MAX_BET)
    return (log_term + n * 4.0 * variance * float(_psi(lam))) / (n * lam)


def eb_games_for(halfwidth_wanted: float, variance: float, alpha: float = 0.05) -> int:
    """Games after which values of this variance give about the wanted half-width (a plan)."""
    lo, hi = 1, 2
    while eb_expected_halfwidth(hi, variance, alpha) > halfwidth_wanted:
        lo, hi = hi, hi * 2
        if hi > 10**13:
            return hi
    while hi - lo > max(1, lo // 200):
        mid = (lo + hi) // 2
        if eb_expected_halfwidth(mid, variance, alpha) > halfwidth_wanted:
            lo = mid
        else:
            hi = mid
    return hi
