"""A paired difference over shared deals that is mostly zero: its mean and interval, streamed.

Two policies compared on the same deals (game indices) play most deals alike, when
one is a small change to the other: a deal's difference is then exactly its null
value (the focal policy's mean win over its rotations is 1/P, its score lead 0) on
most deals, and a handful of deals differ, often all one way. Student-t over the
deals under-covers there and misses on the high side (the outside audit: 92.5-93.6%
with 8-40 deals differing, 5.1-6.5% of intervals below the truth): a sample that
happened to catch few gains also has a small spread, so its upper bound is too low.

:class:`DealDifferences` splits each deal's difference from the null value into its
gain (the positive part) and its loss (the negative part). Each part is a rare,
right-skewed, non-negative value whose skewness is real, so its mean gets Hall's
skewness-corrected t interval (``stats.hall_mean_interval_from_moments``), and the
two are combined by MOVER (``stats.mover_difference``) with their correlation (a deal
is a gain or a loss, never both, so Cov = -mean(gain)·mean(loss)). A Hall interval on
the whole difference would read skewness into the few deals of a two-sided
difference of equal policies (86% coverage with 8 of 1,000 deals differing, either
sign); the split does not. With many deals differing it is Student-t's interval.

The tally keeps the count and the exact sums of each part, its square and its cube
(:func:`exact_sum`), so memory is flat in the deals and the answer is the same,
to the last bit, whatever the blocks and the order of merging.
"""

from __future__ import annotations

import math

import numpy as np

from analyses.stats import (
    CONFIDENCE,
    Interval,
    hall_mean_interval_from_moments,
    mover_difference,
)
from simulate.codec import storable

# Every finite float64 is an integer multiple of 2^-1074; sums are kept as integers in
# units of 2^-_SHIFT (a margin for the 53-bit mantissa), so adding is exact and in any order.
_SHIFT = 1200
_LOW = (1 << 26) - 1


def exact_sum(values: np.ndarray) -> int:
    """The exact sum of finite float64 ``values`` as an integer in units of 2^-1200.

    Each value is its 53-bit integer mantissa times a power of two (``np.frexp``); the
    mantissas of one exponent are summed as two 26-bit halves in int64 (no overflow below
    2^36 values), then shifted into place as Python integers."""
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size == 0:
        return 0
    if not np.isfinite(x).all():
        raise ValueError("exact_sum needs finite values")
    x = x[x != 0.0]  # most deals do not differ: their zeros add nothing
    if x.size == 0:
        return 0
    frac, exp = np.frexp(x)
    mant = (frac * 2.0 ** 53).astype(np.int64)          # exact: |frac| < 1
    order = np.argsort(exp, kind="stable")
    exp, mant = exp[order], mant[order]
    starts = np.flatnonzero(np.r_[True, exp[1:] != exp[:-1]])
    high = np.add.reduceat(mant >> 26, starts)          # arithmetic shift: floor
    low = np.add.reduceat(mant & _LOW, starts)
    return sum(((int(h) << 26) + int(lo)) << (int(e) - 53 + _SHIFT)
               for h, lo, e in zip(high, low, exp[starts], strict=True))


def as_float(total: int) -> float:
    """An :func:`exact_sum` (or a sum of them) as the nearest float."""
    return total / (1 << _SHIFT)   # int / int is correctly rounded


@storable
class DealDifferences:
    """Per-deal values around a null value ``centre`` (no difference), streamed: ``add``
    takes a block of deals' values, ``merge`` a tally of other deals; ``interval`` is the
    mean value's (module docstring)."""

    def __init__(self, centre: float = 0.0):
        self.centre = centre
        self.n = 0
        # [gain, loss] x [sum, sum of squares, sum of cubes], exact (units of 2^-1200)
        self.sums = [[0, 0, 0], [0, 0, 0]]

    def add(self, values: np.ndarray) -> DealDifferences:
        d = np.asarray(values, dtype=float) - self.centre
        self.n += d.size
        for part, v in zip(self.sums, (np.maximum(d, 0.0), np.maximum(-d, 0.0)), strict=True):
            for k, power in enumerate((v, v * v, v * v * v)):
                part[k] += exact_sum(power)
        return self

    def merge(self, other: DealDifferences) -> DealDifferences:
        if other.centre != self.centre:
            raise ValueError("cannot merge differences from other null values")
        self.n += other.n
        for mine, theirs in zip(self.sums, other.sums, strict=True):
            for k in range(3):
                mine[k] += theirs[k]
        return self

    def moments(self) -> tuple[int, float, float]:
        """The count, sum and sum of squares of the values themselves (not centred)."""
        (g1, g2, _), (l1, l2, _) = self.sums
        s1 = as_float(g1 - l1)                       # Σd
        s2 = as_float(g2 + l2)                       # Σd² (gain·loss = 0 on every deal)
        c = self.centre
        return self.n, s1 + self.n * c, s2 + 2 * c * s1 + self.n * c * c

    def interval(self, confidence: float = CONFIDENCE) -> Interval:
        """The mean value with the gain-and-loss interval (Hall per part, MOVER)."""
        n = self.n
        if n == 0:
            return Interval(math.nan, math.nan, math.nan)
        if n == 1:
            return Interval(self.centre + as_float(self.sums[0][0] - self.sums[1][0]),
                            -math.inf, math.inf)
        gain, loss = (hall_mean_interval_from_moments(n, *(as_float(t) for t in part),
                                                      confidence) for part in self.sums)
        vg = as_float(self.sums[0][1]) / n - gain.estimate ** 2
        vl = as_float(self.sums[1][1]) / n - loss.estimate ** 2
        r = -gain.estimate * loss.estimate / math.sqrt(vg * vl) if vg > 0 and vl > 0 else 0.0
        d = mover_difference(gain, loss, max(r, -1.0))
        return Interval(self.centre + d.estimate, self.centre + d.low, self.centre + d.high)
