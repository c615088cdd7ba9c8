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


def hall_mean_interval_from_moments(n: int, total: float, squares: float, cubes: float,
                                    confidence: float = CONFIDENCE) -> Interval:
    """Mean with Hall's skewness-corrected t interval, from the count and the sums of the
    values, their squares and their cubes.

    Method: Hall (1992), "On the removal of skewness by transformation", J. R. Stat. Soc.
    B 54: with u = (x̄ - μ)/s (s the sample SD) and γ the sample skewness, the monotone
    cubic √n·(u + γu²/3 + γ²u³/27 + γ/(6n)) is nearer N(0, 1) than Student's t (the
    skewness term of t's Edgeworth expansion is removed); the interval inverts it at
    ±t(n-1) in closed form. A right-skewed sample's interval reaches further up than
    Student-t's (a sample with few large values also has a small spread). γ = 0 gives
    Student-t's interval; with no spread the interval has no width; with one value
    (-inf, inf); with none, all NaN.
    """
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    m = total / n
    if n == 1:
        return Interval(m, -math.inf, math.inf)
    _check_confidence(confidence)
    var = max(squares / n - m * m, 0.0)                 # population variance
    if var <= 1e-14 * max(m * m, squares / n):          # no spread but rounding
        return Interval(m, m, m)
    s = math.sqrt(var * n / (n - 1))
    gamma = (cubes / n - 3 * m * squares / n + 2 * m ** 3) / var ** 1.5
    return hall_interval(m, s / math.sqrt(n), n, gamma, confidence)


def hall_interval(mean: float, se: float, n: int, skew: float,
                  confidence: float = CONFIDENCE) -> Interval:
    """Hall's (1992) transformation of T = (mean - mu) / se, g(T) = T + aT^2 + a^2 T^3 / 3
    + b with a = skew / (3 sqrt n), b = skew / (6 sqrt n), inverted in closed form at the
    t(n-1) quantiles (g is increasing: one root). The one place both skewness-corrected
    intervals (:func:`hall_mean_interval_from_moments`, population skewness g1, and
    :func:`skewed_mean_interval_from_moments`, adjusted G1) are computed."""
    t = float(_st.t.ppf(0.5 + confidence / 2, n - 1))
    a, b = skew / (3 * math.sqrt(n)), skew / (6 * math.sqrt(n))

    def inverse(y: float) -> float:
        return y - b if abs(a) < 1e-12 else (math.cbrt(1 + 3 * a * (y - b)) - 1) / a

    return Interval(mean, mean - se * inverse(t), mean - se * inverse(-t))


def mover_difference(a: Interval, b: Interval, r: float = 0.0) -> Interval:
    """a - b from an interval for each and the correlation r of their estimates.

    Method: MOVER (Zou & Donner 2008, "Construction of confidence limits about effect
    measures", Stat. Med. 27), the square-and-add of Newcombe's (1998) method 10: the
    distances from each estimate to its bounds stand for its spread on that side, so a
    skewed part keeps its skewness in the difference; with symmetric Wald parts it is the
    Wald interval of the difference.
    """
    d = a.estimate - b.estimate
    lo_a, hi_a = a.estimate - a.low, a.high - a.estimate
    lo_b, hi_b = b.estimate - b.low, b.high - b.estimate
    down = math.sqrt(max(lo_a ** 2 + hi_b ** 2 - 2 * r * lo_a * hi_b, 0.0))
    up = math.sqrt(max(hi_a ** 2 + lo_b ** 2 - 2 * r * hi_a * lo_b, 0.0))
    return Interval(d, d - down, d + up)


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


def skewed_mean_interval_from_moments(n: int, total: float, squares: float, cubes: float,
                                      confidence: float = CONFIDENCE) -> Interval:
    """Mean from the count and the sums of the values, their squares and cubes, with Hall's
    skewness-corrected Student-t interval.

    Method: Hall (1992, "On the removal of skewness by transformation", JRSS B 54) turns
    T = (mean - mu) / se by g(T) = T + aT^2 + a^2 T^3 / 3 + b, a = G1 / (3 sqrt n),
    b = G1 / (6 sqrt n), G1 the adjusted sample skewness, and inverts g at the t(n-1)
    quantiles: the interval leans toward the long tail. Why: counts per game are skewed
    (rare events, a few long games), and at 20-30 games the symmetric Student-t interval
    covered 89-92% of them; this one 94.5-99% (``analyses.validation``). It is the
    Student-t interval when the values are symmetric, and nearly so at large n.
    Every value alike (no spread, e.g. no event in any game): nothing says how often the
    others occur, so no interval (NaN ends); one value: (-inf, inf)."""
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    m = total / n
    if n == 1:
        return Interval(m, -math.inf, math.inf)
    _check_confidence(confidence)
    # Central sums times n^2 and n^3 (exact for whole values summed as Python integers).
    c2 = n * squares - total * total
    c3 = n * n * cubes - 3 * n * total * squares + 2 * total ** 3
    if c2 <= 1e-12 * max(n * squares, 1e-300):
        return Interval(m, math.nan, math.nan)
    sd = math.sqrt(c2 / (n * (n - 1)))
    se = sd / math.sqrt(n)
    # G1 = g1 sqrt(n (n - 1)) / (n - 2), g1 = m3 / m2^1.5 (population moments)
    g1 = (c3 / n ** 3) / (c2 / n ** 2) ** 1.5
    skew = g1 * math.sqrt(n * (n - 1)) / (n - 2) if n > 2 else 0.0
    return hall_interval(m, se, n, skew, confidence)


def events_share_interval_from_moments(n: int, y: float, x: float, yy: float, xx: float,
                                       xy: float, confidence: float = CONFIDENCE) -> Interval:
    """A share of events, Σy/Σx with 0 <= y <= x in every game (hits among tries), with an
    interval over games that holds at a few games and for rare hits.

    Method: Korn & Graubard (1998, Survey Methodology 24): the Clopper-Pearson interval at
    the effective number of events n* = R(1 - R) / Var(R), Var(R) the delta method's over
    games (as :func:`ratio_interval_from_moments`), at most Σx (a design effect below 1 is
    not trusted), times (z / t(n-1))^2 for the few games the variance rests on. Why: at
    20-30 games the delta method's symmetric interval covered a 10% share in 85-89% and
    never went past 0 or 1; this one stays in [0, 1] and covered 96-99%
    (``analyses.validation``). No event (Σx = 0): the estimate is NaN, the interval [0, 1]."""
    if x == 0 or n < 2:
        return Interval(y / x if x else math.nan, 0.0, 1.0)
    _check_confidence(confidence)
    r = y / x
    spread = x * x * yy - 2 * x * y * xy + y * y * xx  # as in ratio_interval_from_moments
    var = max(spread * n / (x ** 4 * (n - 1)), 0.0)  # the delta method's Var(R)
    events = float(x)
    n_eff = min(r * (1 - r) / var, events) if var > 0 else events
    z, t = z_value(confidence), float(_st.t.ppf(0.5 + confidence / 2, n - 1))
    n_eff *= (z / t) ** 2
    k, miss = r * n_eff, 1 - confidence
    lo = float(_st.beta.ppf(miss / 2, k, n_eff - k + 1)) if k > 0 else 0.0
    hi = float(_st.beta.ppf(1 - miss / 2, k + 1, n_eff - k)) if k < n_eff else 1.0
    return Interval(r, lo, hi)


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
