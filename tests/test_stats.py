"""The statistics helpers: known values, agreement with scipy, and coverage by simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from analyses import stats


@pytest.mark.parametrize("k, n, low, high", [
    # Published Wilson 95% limits (e.g. Newcombe 1998, Table I; Brown, Cai & DasGupta 2001).
    (0, 10, 0.0, 0.2775),
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_matches_published_values(k, n, low, high):
    w = stats.wilson_interval(k, n)
    assert w.estimate == pytest.approx(k / n)
    assert w.low == pytest.approx(low, abs=1e-4)
    assert w.high == pytest.approx(high, abs=1e-4)


@pytest.mark.parametrize("k, n", [(0, 1), (3, 7), (50, 100), (999, 1000), (1, 500_000)])
def test_wilson_matches_scipy(k, n):
    ref = st.binomtest(k, n).proportion_ci(confidence_level=0.9, method="wilson")
    w = stats.wilson_interval(k, n, confidence=0.9)
    assert (w.low, w.high) == pytest.approx((ref.low, ref.high), abs=1e-12)


def test_wilson_edge_cases():
    assert math.isnan(stats.wilson_interval(0, 0).estimate)
    assert stats.wilson_interval(0, 0)[1:] == (0.0, 1.0)
    with pytest.raises(ValueError):
        stats.wilson_interval(5, 4)
    with pytest.raises(ValueError):
        stats.wilson_interval(1, 10, confidence=1.5)


def test_wilson_coverage_is_near_nominal():
    # 20,000 simulated samples of n=60 at p=0.2: Wilson's coverage wobbles around 95%.
    rng = np.random.default_rng(7)
    p, n = 0.2, 60
    hits = rng.binomial(n, p, size=20_000)
    covered = np.mean([lo <= p <= hi for lo, hi in
                       (stats.wilson_interval(int(k), n)[1:] for k in hits)])
    assert 0.93 <= covered <= 0.97


def test_share_interval_reduces_to_wilson_for_zero_one_data():
    values = np.array([1] * 30 + [0] * 70)
    assert stats.share_interval(values) == pytest.approx(tuple(stats.wilson_interval(30, 100)))


def test_share_interval_with_ties_is_narrower_and_covers():
    # Half-wins (ties) carry less variance than 0/1 outcomes with the same mean.
    ties = np.array([0.5] * 60 + [1.0] * 20 + [0.0] * 20)
    plain = np.array([1.0] * 50 + [0.0] * 50)
    t, p = stats.share_interval(ties), stats.share_interval(plain)
    assert t.estimate == pytest.approx(0.5) == p.estimate
    assert t.high - t.low < p.high - p.low
    # Coverage of the effective-n interval for a 3-valued outcome with mean 0.45.
    rng = np.random.default_rng(3)
    draws = rng.choice([0.0, 0.5, 1.0], p=[0.4, 0.3, 0.3], size=(4000, 80))
    covered = np.mean([lo <= 0.45 <= hi for _, lo, hi in map(stats.share_interval, draws)])
    assert 0.93 <= covered <= 0.97


def test_share_interval_rejects_values_outside_unit_interval():
    with pytest.raises(ValueError):
        stats.share_interval([0.2, 1.5])


def test_mean_interval_matches_scipy_t():
    x = np.random.default_rng(1).exponential(size=50)
    m = stats.mean_interval(x)
    lo, hi = st.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=st.sem(x))
    assert (m.low, m.high) == pytest.approx((lo, hi))
    assert m.estimate == pytest.approx(x.mean())
    assert stats.mean_interval([3.0]).low == -math.inf


def test_order_statistic_ranks_known_case_and_coverage():
    # n=100, median: the classic ranks 40 and 61 (exact coverage 0.9648).
    assert stats.order_statistic_ranks(100, 0.5) == (40, 61)
    assert stats.order_statistic_coverage(100, 0.5, 40, 61) == pytest.approx(0.9648, abs=1e-4)
    for n, q in [(50, 0.1), (1000, 0.96), (200_000, 0.4)]:
        l, u = stats.order_statistic_ranks(n, q)
        assert stats.order_statistic_coverage(n, q, l, u) >= 0.95


def test_quantile_interval_contains_true_quantile():
    # Exponential(1): true q-quantile is -log(1-q). Exact coverage here is 0.955; with
    # 2,000 repeats the simulated share has SE 0.005, so 0.94 is a 3-SE floor.
    rng = np.random.default_rng(12)
    q = 0.9
    truth = -math.log(1 - q)
    samples = rng.exponential(size=(2000, 400))
    covered = [lo <= truth <= hi for _, lo, hi in (stats.quantile_interval(s, q) for s in samples)]
    assert np.mean(covered) >= 0.94
    one = stats.quantile_interval(samples[0], q)
    assert one.low <= one.estimate <= one.high


def test_quantile_estimate_is_inverse_ecdf():
    x = [5, 1, 4, 2, 3]
    assert stats.quantile_interval(x, 0.4).estimate == np.quantile(x, 0.4, method="inverted_cdf")
    assert stats.quantile_interval(x, 0.41).estimate == 3
    # n*q is integral although 0.07 * 100 = 7.000000000000001 in floating point.
    assert stats.quantile_interval(np.arange(100), 0.07).estimate == 6
    with pytest.raises(ValueError):
        stats.quantile_interval(x, 1.0)


def test_share_below_strict_and_inclusive():
    x = np.arange(100)  # 0..99
    assert stats.share_below(x, 40).estimate == pytest.approx(0.40)
    assert stats.share_below(x, 40, inclusive=True).estimate == pytest.approx(0.41)
    w = stats.share_below(x, 40)
    assert w == pytest.approx(tuple(stats.wilson_interval(40, 100)))


def test_the_exact_share_interval_is_clopper_pearson():
    from scipy.stats import binomtest

    from analyses.stats import exact_share_interval

    for k, n in ((0, 800), (1, 800), (4, 800), (400, 800), (800, 800), (3, 30)):
        iv = exact_share_interval(k, n)
        ref = binomtest(k, n).proportion_ci(0.95, method="exact")
        assert iv.estimate == k / n
        assert iv.low == pytest.approx(ref.low, abs=1e-12)
        assert iv.high == pytest.approx(ref.high, abs=1e-12)


def test_hall_interval_is_student_t_without_skewness_and_reaches_up_with_it():
    from analyses.stats import hall_mean_interval_from_moments, mean_interval

    x = np.array([-2.0, -1.0, 0.0, 1.0, 2.0] * 20)      # skewness 0
    got = hall_mean_interval_from_moments(x.size, x.sum(), (x * x).sum(), (x ** 3).sum())
    assert tuple(got) == pytest.approx(tuple(mean_interval(x)))
    y = np.r_[np.zeros(990), np.ones(10)]               # 10 rare gains of 1000
    t = mean_interval(y)
    h = hall_mean_interval_from_moments(y.size, y.sum(), y.sum(), y.sum())
    assert h.estimate == t.estimate and h.high > t.high and h.low > t.low
    assert hall_mean_interval_from_moments(5, 5.0, 5.0, 5.0)[1:] == (1.0, 1.0)  # no spread


def test_mover_of_wald_parts_is_the_wald_interval_of_the_difference():
    from analyses.stats import Interval, mover_difference

    a, b, r = Interval(3.0, 1.0, 5.0), Interval(1.0, 0.0, 2.0), 0.3
    half = np.sqrt(2 ** 2 + 1 ** 2 - 2 * r * 2 * 1)
    assert tuple(mover_difference(a, b, r)) == pytest.approx((2.0, 2.0 - half, 2.0 + half))


def test_exact_sum_is_exact_and_order_free():
    from fractions import Fraction

    from analyses.deals import as_float, exact_sum

    x = np.r_[np.random.default_rng(0).normal(0, 1e3, 1000), 1 / 3, -1 / 3, 1e-300, 5e-324,
              1e300, -1e300, 0.0]
    assert Fraction(exact_sum(x), 1 << 1200) == sum(Fraction(float(v)) for v in x)
    assert exact_sum(x[::-1]) == exact_sum(x[:500]) + exact_sum(x[500:]) == exact_sum(x)
    assert as_float(exact_sum(x)) == float(sum(Fraction(float(v)) for v in x))
    with pytest.raises(ValueError, match="finite"):
        exact_sum(np.array([1.0, np.nan]))
