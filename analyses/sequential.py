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


class EBSequence:
    """The empirical-Bernstein confidence sequence's running state, fed values in order.

    ``update`` takes the next values (a chunk of games in index order) and keeps only sums,
    so a run of any length needs constant memory; ``interval`` is the sequence's interval
    after every value seen so far. Feeding the values in chunks gives the same interval as
    feeding them at once, to floating-point rounding. ``n_plan`` (the sample size the bets
    are tuned for) must be fixed before the first value.
    """

    def __init__(self, alpha: float = 0.05, n_plan: float = 1.0):
        self.alpha, self.n_plan = alpha, float(n_plan)
        self.log_term = math.log(2.0 / alpha)
        self.t = 0             # values seen
        self.sum_x = 0.0       # their sum
        self.sum_sq = 0.0      # sum of (x_i - mu_hat_i)^2
        self.mu = 0.5          # mu_hat after the last value (0.5 before any)
        self.var = 0.25        # sigma_hat^2 after the last value (0.25 before any)
        self.bets = 0.0        # sum of lambda_i
        self.bet_x = 0.0       # sum of lambda_i x_i
        self.penalty = 0.0     # sum of v_i psi(lambda_i)

    def update(self, x) -> EBSequence:
        x = np.asarray(x, dtype=np.float64)
        if x.size == 0:
            return self
        if np.any((x < 0) | (x > 1)):
            raise ValueError("empirical-Bernstein intervals need values in [0, 1]")
        t = self.t + np.arange(1, x.size + 1, dtype=np.float64)
        mu = (0.5 + self.sum_x + np.cumsum(x)) / (t + 1.0)                # mu_hat_t
        var = (0.25 + self.sum_sq + np.cumsum((x - mu) ** 2)) / (t + 1.0)  # sigma_hat^2_t
        mu_before = np.concatenate(([self.mu], mu[:-1]))                  # mu_hat_{t-1}
        var_before = np.concatenate(([self.var], var[:-1]))               # sigma_hat^2_{t-1}
        lam = np.minimum(np.sqrt(2.0 * self.log_term / (var_before * self.n_plan)), EB_MAX_BET)
        self.bets += float(lam.sum())
        self.bet_x += float((lam * x).sum())
        self.penalty += float((4.0 * (x - mu_before) ** 2 * _psi(lam)).sum())
        self.t += x.size
        self.sum_x += float(x.sum())
        self.sum_sq += float(((x - mu) ** 2).sum())
        self.mu, self.var = float(mu[-1]), float(var[-1])
        return self

    def interval(self) -> Interval:
        if self.t == 0:
            return Interval(math.nan, 0.0, 1.0)
        centre = self.bet_x / self.bets
        half = (self.log_term + self.penalty) / self.bets
        return Interval(self.sum_x / self.t, max(0.0, centre - half), min(1.0, centre + half))

    def halfwidth(self) -> float:
        """Half the width of :meth:`interval` (as clipped to [0, 1])."""
        ci = self.interval()
        return (ci.high - ci.low) / 2


def eb_interval(x, alpha: float = 0.05, n_plan: float | None = None) -> Interval:
    """The empirical-Bernstein confidence-sequence interval after the values ``x`` (in order).

    ``x`` lies in [0, 1] and is taken in the order it was observed (the game
    index): the bets are predictable, each using only the values before it.
    ``n_plan`` is the sample size the bets are tuned for, fixed before the run
    (default: ``len(x)``, right only when that too was fixed in advance).
    """
    x = np.asarray(x, dtype=np.float64)
    return EBSequence(alpha, x.size if n_plan is None else n_plan).update(x).interval()


def eb_halfwidth(x, alpha: float = 0.05, n_plan: float | None = None) -> float:
    """Half the width of :func:`eb_interval` (as clipped to [0, 1])."""
    x = np.asarray(x, dtype=np.float64)
    return EBSequence(alpha, x.size if n_plan is None else n_plan).update(x).halfwidth()


def eb_width_terms(variance: float, alpha: float, n_plan: float) -> tuple[float, float]:
    """The two terms of the half-width the sequence settles to after ``n`` values of the given
    variance, its bets tuned to ``n_plan``: ``a / n + floor``, where with the settled bet
    ``lam = min(sqrt(2 log(2/alpha) / (variance n_plan)), 1/2)``, ``a = log(2/alpha) / lam``
    and ``floor = 4 variance psi(lam) / lam``. The floor is the narrowest the interval ever
    gets, however many values follow: past its plan the sequence keeps its bets, so its
    width stops shrinking as 1/sqrt(n) (about ``variance lam / 2``)."""
    log_term = math.log(2.0 / alpha)
    lam = min(math.sqrt(2.0 * log_term / (max(variance, 1e-12) * n_plan)), EB_MAX_BET)
    return log_term / lam, 4.0 * variance * float(_psi(lam)) / lam


def eb_expected_halfwidth(n: float, variance: float, alpha: float = 0.05,
                          n_plan: float | None = None) -> float:
    """The half-width :func:`eb_interval` settles to after ``n`` values of the given variance
    (:func:`eb_width_terms`)."""
    a, floor = eb_width_terms(variance, alpha, n if n_plan is None else n_plan)
    return a / n + floor


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
