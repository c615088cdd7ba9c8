"""Small statistics helpers every analysis shares: intervals for shares, means and quantiles.

Each function returns an :class:`Interval` (estimate, low, high) and its
docstring names the method, so a report can cite how every figure was made.
Intervals are two-sided at ``confidence`` (default 95%).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import stats as _st

CONFIDENCE = 0.95


class Interval(NamedTuple):
    """A point estimate with a two-sided confidence interval."""

    estimate: float
    low: float
    high: float


def z_value(confidence: float = CONFIDENCE) -> float:
    """The two-sided normal critical value (1.959964 for 95%)."""
    _check_confidence(confidence)
    return float(_st.norm.ppf(0.5 + confidence / 2))


def wilson_interval(successes: float, n: float, confidence: float = CONFIDENCE) -> Interval:
    """Share ``successes / n`` with the Wilson score interval.

    Method: Wilson (1927) score interval, p = (p̂ + z²/2n ± z·sqrt(p̂(1-p̂)/n + z²/4n²)) / (1 + z²/n).
    Unlike the Wald interval it stays inside [0, 1] and keeps near-nominal
    coverage for shares near 0 or 1 (e.g. 0/10 gives [0, 0.278]).
    ``n`` may be fractional (an effective sample size, see :func:`share_interval`).
    With ``n == 0`` nothing is known: the estimate is NaN and the interval [0, 1].
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return Interval(math.nan, 0.0, 1.0)
    z = z_value(confidence)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
    # At p = 0 or 1 the bound is exactly 0 or 1; rounding must not push it across.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, low, high)


def share_interval(values, confidence: float = CONFIDENCE) -> Interval:
    """Mean of values in [0, 1] (e.g. win shares 0, 1/k, 1 with ties) with an interval.

    Method: Wilson on an effective sample size. With mean m and population
    variance v of the n values, n_eff = n · m(1-m)/v: the number of 0/1
    outcomes that would carry the same variance of the mean. Plain 0/1 data
    gives n_eff = n (the ordinary Wilson interval); ties shrink v and so
    widen n_eff and narrow the interval. When v = 0 (all values equal), or
    m is 0 or 1, n_eff = n.
    """
    x = _as_1d(values)
    if x.size and (x.min() < 0 or x.max() > 1):
        raise ValueError("share_interval needs values in [0, 1]")
    if x.size == 0:
        return Interval(math.nan, 0.0, 1.0)
    return share_interval_from_moments(x.size, float(x.mean()), float(x.var()), confidence)


def share_interval_from_moments(n: float, mean: float, variance: float,
                                confidence: float = CONFIDENCE) -> Interval:
    """:func:`share_interval` from the count, mean and population variance of the values
    (what a run that keeps no rows has: sums and sums of squares)."""
    if n == 0:
        return Interval(math.nan, 0.0, 1.0)
    n_eff = effective_n(n, mean, variance)
    w = wilson_interval(mean * n_eff, n_eff, confidence)
    return Interval(mean, w.low, w.high)


def effective_n(n: float, mean: float, variance: float) -> float:
    """The number of 0/1 outcomes with the same variance of the mean as n values in [0, 1] of
    this mean and population variance: n m (1 - m) / v (n itself for 0/1 values, more when
    ties counted 1/k shrink the variance)."""
    m, v = mean, variance
    # A variance that is only rounding (every value the same) counts as none.
    return n * m * (1 - m) / v if v > 1e-12 * m * (1 - m) and 0 < m < 1 else float(n)


def exact_share_interval_from_moments(n: float, mean: float, variance: float,
                                      confidence: float = CONFIDENCE) -> Interval:
    """:func:`exact_share_interval` (Clopper-Pearson) on the effective sample size of
    :func:`share_interval_from_moments`: exact (never under-covering) for 0/1 values, where
    Wilson's one-sided bounds under-cover by up to about 1 point in places; with ties
    counted 1/k the effective-n version is an approximation, not exact."""
    if n == 0:
        return Interval(math.nan, 0.0, 1.0)
    n_eff = effective_n(n, mean, variance)
    if n_eff < 1:
        return Interval(mean, 0.0, 1.0)
    e = exact_share_interval(mean * n_eff, n_eff, confidence)
    return Interval(mean, e.low, e.high)


def mean_interval(values, confidence: float = CONFIDENCE) -> Interval:
    """Mean with the Student-t interval, mean ± t(n-1) · s/sqrt(n) (s: sample SD, ddof=1).

    Valid for large n whatever the distribution (central limit theorem);
    with one value the interval is (-inf, inf); with none, all NaN.
    """
    x = _as_1d(values)
    n = x.size
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    m = float(x.mean())
    if n == 1:
        return Interval(m, -math.inf, math.inf)
    _check_confidence(confidence)
    half = float(_st.t.ppf(0.5 + confidence / 2, n - 1)) * float(x.std(ddof=1)) / math.sqrt(n)
    return Interval(m, m - half, m + half)


def mean_interval_from_moments(n: int, total: float, squares: float,
                               confidence: float = CONFIDENCE) -> Interval:
    """:func:`mean_interval` from the count, sum and sum of squares of the values (what a
    run that keeps no rows has): mean ± t(n-1) · s/sqrt(n), s the sample SD (ddof=1);
    with one value (-inf, inf), with none all NaN. Exact sums (whole values summed as
    Python integers) give the variance with one rounding; float sums agree with the
    values' own to floating-point rounding."""
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    m = total / n
    if n == 1:
        return Interval(m, -math.inf, math.inf)
    _check_confidence(confidence)
    variance = max((n * squares - total * total) / (n * (n - 1)), 0.0)
    half = float(_st.t.ppf(0.5 + confidence / 2, n - 1)) * math.sqrt(variance) / math.sqrt(n)
    return Interval(m, m - half, m + half)


def ratio_interval_from_moments(n: int, y: float, x: float, yy: float, xx: float, xy: float,
                                confidence: float = CONFIDENCE) -> Interval:
    """:func:`ratio_interval` from the games n and the sums of the numerators y,
    denominators x, y², x² and x·y: R = Σy/Σx with the delta-method
    Var(R) = Σ(y - R·x)² / (n (n-1) x̄²) and a Student-t(n-1) interval; with no event
    (Σx = 0) or under two games, (-inf, inf)."""
    if n < 2 or x == 0:
        return Interval(y / x if x else math.nan, -math.inf, math.inf)
    _check_confidence(confidence)
    r = y / x
    # Σ(y - R·x)² · (Σx)², expanded into the sums (exact for whole counts; >= 0 in exact
    # arithmetic, so a negative value is rounding).
    spread = x * x * yy - 2 * x * y * xy + y * y * xx
    se = math.sqrt(max(spread * n / (x ** 4 * (n - 1)), 0.0))
    half = float(_st.t.ppf(0.5 + confidence / 2, n - 1)) * se
    return Interval(r, r - half, r + half)


def exact_share_interval(successes: float, n: float, confidence: float = CONFIDENCE) -> Interval:
    """Share ``successes / n`` with the exact (Clopper-Pearson) interval.

    Method: Clopper & Pearson (1934), the beta quantiles of the binomial; it never
    under-covers, and with no success its upper end is 1 - ((1 - confidence)/2)^(1/n), the
    rule of three at that level. For rare 0/1 features, where Wilson's bounds are too tight
    for a handful of events.
    """
    if n < 1:
        return Interval(math.nan, 0.0, 1.0)
    _check_confidence(confidence)
    miss = 1 - confidence
    k = round(successes)
    lo = float(_st.beta.ppf(miss / 2, k, n - k + 1)) if k > 0 else 0.0
    hi = float(_st.beta.ppf(1 - miss / 2, k + 1, n - k)) if k < n else 1.0
    return Interval(k / n, lo, hi)


def paired_share_difference(x, y, confidence: float = CONFIDENCE) -> tuple[Interval, float]:
    """Difference of two paired shares of 0/1 outcomes (y's share minus x's, the same games),
    with an interval and a p-value that hold for rare events.

    Method: Newcombe's (1998) method 10, a hybrid score interval built from the two Wilson
    intervals and the phi correlation of the pairs; it stays inside [-1, 1] and, unlike the
    paired Wald interval, keeps near-nominal coverage for shares near 0 (with no event in
    either arm it is about ±z²/n, never [0, 0]). The p-value is McNemar's exact test: the
    discordant games, a binomial(b + c, 1/2) two-sided.
    """
    x, y = _as_1d(x), _as_1d(y)
    n = x.size
    if n == 0 or x.shape != y.shape:
        raise ValueError("need paired 0/1 outcomes of equal, non-zero length")
    a = float(np.sum((x == 1) & (y == 1)))
    b = float(np.sum((x == 1) & (y == 0)))
    c = float(np.sum((x == 0) & (y == 1)))
    return paired_share_from_counts(a, b, c, float(n - a - b - c), confidence)


def paired_share_from_counts(a: float, b: float, c: float, d: float,
                             confidence: float = CONFIDENCE) -> tuple[Interval, float]:
    """:func:`paired_share_difference` from the 2 x 2 table of the pairs: a games with the
    event in both arms, b only in x's, c only in y's, d in neither."""
    n = a + b + c + d
    p1, l1, u1 = wilson_interval(a + b, n, confidence)
    p2, l2, u2 = wilson_interval(a + c, n, confidence)
    denom = (a + b) * (c + d) * (a + c) * (b + d)
    phi = (a * d - b * c) / math.sqrt(denom) if denom > 0 else 0.0
    # theta = p1 - p2 (Newcombe's orientation), then turned round to p2 - p1
    theta = p1 - p2
    delta = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)
                          + (u2 - p2) ** 2))
    eps = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2)
                        + (p2 - l2) ** 2))
    low, high = max(-1.0, theta - delta), min(1.0, theta + eps)
    discordant = int(b + c)
    p = 1.0 if discordant == 0 else float(_st.binomtest(int(c), discordant, 0.5).pvalue)
    return Interval(p2 - p1, -high, -low), p


def ratio_interval(numerators, denominators, confidence: float = CONFIDENCE) -> Interval:
    """Ratio of totals sum(y) / sum(x) over independent units (games) with an interval.

    Method: the ratio estimator R = Σy/Σx with its linearised (delta-method) variance
    Var(R) ≈ Σ(y - R·x)² / (n (n-1) x̄²), and a Student-t(n-1) interval. It is the share
    of events of one kind among events that cluster within a game (re-rolls per game),
    where counting events as independent would understate the error. With no event
    (Σx = 0) nothing is known: NaN and (-inf, inf).
    """
    y, x = _as_1d(numerators), _as_1d(denominators)
    if y.shape != x.shape:
        raise ValueError(f"numerators and denominators differ in length: {y.size}, {x.size}")
    n, total = x.size, float(x.sum())
    if n < 2 or total == 0:
        return Interval(float(y.sum()) / total if total else math.nan, -math.inf, math.inf)
    _check_confidence(confidence)
    r = float(y.sum()) / total
    xbar = total / n
    se = math.sqrt(float(((y - r * x) ** 2).sum()) / (n * (n - 1))) / xbar
    half = float(_st.t.ppf(0.5 + confidence / 2, n - 1)) * se
    return Interval(r, r - half, r + half)


def order_statistic_ranks(n: int, q: float, confidence: float = CONFIDENCE) -> tuple[int, int]:
    """1-based ranks (l, u) with P(X_(l) <= quantile_q <= X_(u)) >= confidence.

    Method: the number of draws below the true q-quantile is Binomial(n, q);
    l = the α/2 quantile of that binomial, u = its 1-α/2 quantile + 1
    (α = 1 - confidence), so each tail misses with probability at most α/2.
    Distribution-free; conservative for discrete data. When n is too small
    for the tail the rank is clipped to 1 or n and the coverage is lower
    than nominal (see :func:`order_statistic_coverage`).
    """
    if n < 1:
        raise ValueError("need at least one value for a quantile interval")
    _check_quantile(q)
    alpha = 1 - confidence
    _check_confidence(confidence)
    l = int(_st.binom.ppf(alpha / 2, n, q))
    u = int(_st.binom.ppf(1 - alpha / 2, n, q)) + 1
    return max(l, 1), min(u, n)


def order_statistic_coverage(n: int, q: float, l: int, u: int) -> float:
    """Exact coverage of [X_(l), X_(u)] for a continuous distribution's q-quantile."""
    return float(_st.binom.cdf(u - 1, n, q) - _st.binom.cdf(l - 1, n, q))


def quantile_interval(values, q: float, confidence: float = CONFIDENCE) -> Interval:
    """The q-quantile with a distribution-free interval from order statistics.

    Estimate: the inverse empirical CDF, X_(ceil(n·q)) (the smallest value
    with at least a share q of the data at or below it; numpy's
    ``inverted_cdf``). Interval: [X_(l), X_(u)] with the binomial ranks of
    :func:`order_statistic_ranks`.
    """
    x = np.sort(_as_1d(values))
    return quantile_interval_sorted(x, q, confidence)


def quantile_interval_sorted(sorted_values: np.ndarray, q: float,
                             confidence: float = CONFIDENCE) -> Interval:
    """:func:`quantile_interval` for values already sorted ascending (no copy, no sort)."""
    n = sorted_values.size
    l, u = order_statistic_ranks(n, q, confidence)
    # round() first: 0.07 * 100 is 7.000000000000001 in floating point, whose ceil is 8.
    k = min(max(math.ceil(round(n * q, 9)), 1), n)
    return Interval(float(sorted_values[k - 1]), float(sorted_values[l - 1]),
                    float(sorted_values[u - 1]))


def share_below(values, x: float, inclusive: bool = False,
                confidence: float = CONFIDENCE) -> Interval:
    """ECDF share of values below ``x`` (``<= x`` when ``inclusive``) with a Wilson interval.

    Method: count the values below x and apply :func:`wilson_interval`;
    this is the percentile at which x sits in the sample.
    """
    v = _as_1d(values)
    hits = int(np.count_nonzero(v <= x if inclusive else v < x))
    return wilson_interval(hits, v.size, confidence)


def holm(p: np.ndarray) -> np.ndarray:
    """Holm step-down adjusted p-values (controls the family-wise error rate)."""
    p = np.asarray(p, dtype=float)
    m = p.size
    order = np.argsort(p)
    adjusted = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        value = p[i] * (m - rank) if math.isfinite(p[i]) else math.nan
        running = max(running, min(value, 1.0)) if math.isfinite(value) else running
        adjusted[i] = running if math.isfinite(value) else math.nan
    return adjusted


def _as_1d(values) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64).ravel()
    if np.isnan(x).any():
        raise ValueError("values contain NaN")
    return x


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")


def _check_quantile(q: float) -> None:
    if not 0 < q < 1:
        raise ValueError(f"quantile must be strictly between 0 and 1, not {q}")
