"""Are Rum Runner's printed score bands calibrated? (spec §5.3, §9.7)

For results of one or more runs this module measures, per run (a policy
under some rules):

* ``band_shares``      — the share of games in each printed band, with a 95% Wilson interval;
* ``edge_percentiles`` — the percentile at which each printed edge sits;
* ``calibrated_edges`` — the five edges that would give a target split
  (default 40/25/15/10/6/4 % from "broke" to "god"), with intervals;
* ``score_summary``    — mean, SD, percentiles, game length and stranded share.

``thresholds(results)`` combines them into a :class:`ThresholdsReport` that
renders as text, JSON or tidy DataFrames. Every statement is about the
policy that played the games, not about the game alone.

Streaming: every answer is computed from a :class:`ThresholdsAccumulator`,
the sufficient statistics of a run (integer histograms of ``score_0`` and
``turns``, the stranded count, the game count), fed chunk by chunk
(``simulate.run(..., keep=False, on_chunk=acc.add)``) or merged from parts.
A frame or Results is read as one accumulator fed the whole frame, so the
two paths give the same answer by construction; memory follows the span of
the scores, not the number of games.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import t as _t

from analyses import stats
from analyses._text import text_table
from engines.rum_runner.rules import BAND_NAMES, Rules
from simulate.codec import storable
from simulate.errors import UserError
from simulate.results import Results

DEFAULT_TARGET = (40, 25, 15, 10, 6, 4)
SCORE = "score_0"
STRANDED = 1  # end_reason code (spec §5.5)

TYPO_NOTE = ('The rules sheet prints ">200" for the first row; we read it as "<200" '
             '(a typo: ">200" would overlap every other row).')
EDGE_RULE_TEXT = {
    "lower_inclusive": "a score equal to an edge belongs to the band above it",
    "upper_inclusive": "a score equal to an edge belongs to the band below it",
}
PLACEMENT_NOTE = (
    "Scores are integers, so each calibrated edge is the integer whose share of games below it "
    "(under the edge rule) is nearest the target cumulative share (ties: the lower edge); edges "
    "are kept strictly increasing. The 95% interval is the distribution-free order-statistic "
    "interval of the target quantile, widened by one point on the side where the integer "
    "placement can land; 'achieved' is the split the chosen edges give in this sample."
)
METHOD_NOTE = (
    "Shares: 95% Wilson score intervals. Edge percentiles: share of games below the edge "
    "with a Wilson interval. Mean: Student-t interval. Percentiles: inverse empirical CDF."
)


# ================================================================ bands


def parse_target(text: str) -> tuple[float, ...]:
    """A target split typed by a user, '40,25,15,10,6,4' (commas, slashes or spaces), checked."""
    parts = [p for p in text.replace("/", ",").replace(" ", ",").split(",") if p]
    try:
        values = tuple(float(p) for p in parts)
    except ValueError:
        raise UserError(f"--target needs 6 numbers such as 40,25,15,10,6,4, not '{text}'") from None
    return check_target(values)


def check_target(target: Sequence[float]) -> tuple[float, ...]:
    """The target split as 6 floats (broke..god, percent), or a one-line UserError."""
    try:
        values = tuple(float(t) for t in target)
    except (TypeError, ValueError):
        raise UserError(f"target split must be 6 numbers, got {target!r}") from None
    if (len(values) != 6 or any(not math.isfinite(v) or v < 0 for v in values)
            or abs(sum(values) - 100) > 1e-6):
        shown = "/".join(f"{v:g}" for v in values)
        raise UserError(f"target split needs 6 non-negative percentages (broke..god) summing to "
                        f"100, got {shown} ({len(values)} numbers summing to {sum(values):g})")
    return values


def score_bands(scores: np.ndarray, rules: Rules) -> np.ndarray:
    """Band index 0..5 of each score under the rules' edges and edge rule (vectorised ``Rules.band``)."""
    side = "right" if rules.score_band_edge_rule == "lower_inclusive" else "left"
    return np.searchsorted(np.asarray(rules.score_band_edges), scores, side=side)


def printed_ranges(rules: Rules) -> list[str]:
    """The six score ranges as the sheet prints them: '<200', '200-250', ..., '350+'."""
    e = rules.score_band_edges
    return [f"<{e[0]}", *(f"{a}-{b}" for a, b in zip(e, e[1:], strict=False)), f"{e[-1]}+"]


def exact_ranges(rules: Rules) -> list[str]:
    """The six integer score ranges each band really holds under the edge rule."""
    e = rules.score_band_edges
    if rules.score_band_edge_rule == "lower_inclusive":
        return [f"<{e[0]}", *(f"{a}-{b - 1}" for a, b in zip(e, e[1:], strict=False)),
                f">={e[-1]}"]
    return [f"<={e[0]}", *(f"{a + 1}-{b}" for a, b in zip(e, e[1:], strict=False)),
            f">={e[-1] + 1}"]


# ================================================================ sufficient statistics

# A histogram wider than this many points is not a Rum Runner score (it would not fit
# the dense counts in memory either).
MAX_SPAN = 10_000_000


@storable
class Histogram:
    """Counts of whole numbers: ``counts[i]`` values equal to ``low + i`` (dense, int64).

    Everything the thresholds answer needs of a column is exact from it: the count, the
    number below any value, every order statistic, the integer sum and sum of squares.
    Its size is the span of the values, never the number of games.
    """

    def __init__(self, low: int = 0, counts: np.ndarray | None = None):
        self.low = int(low)
        self.counts = np.zeros(0, np.int64) if counts is None else np.asarray(counts, np.int64)

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def values(self) -> np.ndarray:
        return self.low + np.arange(self.counts.size, dtype=np.int64)

    def add(self, values: np.ndarray) -> None:
        if values.size == 0:
            return
        low, high = int(values.min()), int(values.max())
        self._cover(low, high)
        self.counts += np.bincount(values - self.low, minlength=self.counts.size)

    def merge(self, other: Histogram) -> Histogram:
        out = Histogram(self.low, self.counts.copy())
        nz = np.flatnonzero(other.counts)
        if nz.size:
            out._cover(other.low + int(nz[0]), other.low + int(nz[-1]))
            start = other.low - out.low + int(nz[0])
            out.counts[start:start + nz[-1] - nz[0] + 1] += other.counts[nz[0]:nz[-1] + 1]
        return out

    def _cover(self, low: int, high: int) -> None:
        if self.counts.size == 0:
            new_low, new_high = low, high
        else:
            new_low, new_high = min(low, self.low), max(high, self.low + self.counts.size - 1)
        if new_high - new_low + 1 > MAX_SPAN:
            raise UserError(f"scores span {new_low}..{new_high}: more than {MAX_SPAN:,} points, "
                            "not whole-number game scores")
        if self.counts.size and new_low == self.low and new_high == self.low + self.counts.size - 1:
            return
        grown = np.zeros(new_high - new_low + 1, np.int64)
        grown[self.low - new_low:self.low - new_low + self.counts.size] = self.counts
        self.low, self.counts = new_low, grown

    def below(self, x: float, inclusive: bool = False) -> int:
        """How many values are below ``x`` (``<= x`` when ``inclusive``)."""
        i = math.floor(x) - self.low + (1 if inclusive or x != math.floor(x) else 0)
        return int(self.counts[:max(min(i, self.counts.size), 0)].sum())

    def total(self) -> int:
        """The exact sum of the values (a Python int)."""
        return sum(int(v) * int(c) for v, c in self._present())

    def total_squares(self) -> int:
        return sum(int(v) * int(v) * int(c) for v, c in self._present())

    def min(self) -> int:
        return self.low + int(np.flatnonzero(self.counts)[0])

    def max(self) -> int:
        return self.low + int(np.flatnonzero(self.counts)[-1])

    def sorted_view(self) -> _SortedView:
        return _SortedView(self)

    def _present(self):
        nz = np.flatnonzero(self.counts)
        return zip(self.low + nz, self.counts[nz], strict=True)


class _SortedView:
    """The values in ascending order, as an array-like read by rank (``view[i]``: the
    (i+1)-th smallest), without expanding them: what ``stats.quantile_interval_sorted``
    reads, so quantiles from a histogram follow the very same rank rules as from a sort."""

    def __init__(self, hist: Histogram):
        self._cum = np.cumsum(hist.counts)
        self._low = hist.low
        self.size = int(self._cum[-1]) if self._cum.size else 0

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int) -> int:
        i = int(i)
        if i < 0:
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError(i)
        return self._low + int(np.searchsorted(self._cum, i + 1, side="left"))


def _whole(frame: pd.DataFrame, column: str) -> np.ndarray:
    values = frame[column].to_numpy()
    if values.dtype.kind == "f":
        if not np.all(np.isfinite(values)) or np.any(values != np.floor(values)):
            raise UserError(f"'{column}' holds values that are not whole numbers")
    return values.astype(np.int64, copy=False)


@storable
class ThresholdsAccumulator:
    """Everything ``thresholds`` needs of one run, from its rows chunk by chunk.

    ``add(frame)`` takes a frame of the run's rows (``simulate.run(..., keep=False,
    on_chunk=acc.add)``); ``merge`` combines two accumulators of disjoint games (the order
    does not matter). It keeps integer histograms of ``score_0`` and ``turns``, the count
    of stranded games (``end_reason`` 1) and the game count: memory follows the span of
    the scores, not the number of games, and every answer (shares, edges, exact quantiles,
    mean and SD) is computed from these counts alone. ``meta`` is the run's metadata (the
    runs table reads it); set it once the run has finished. A frame given to any function
    of this module is read as one accumulator fed the whole frame.
    """

    def __init__(self, meta: Mapping | None = None):
        self.meta: dict = dict(meta or {})
        self.n = 0
        self.scores = Histogram()
        self.turns: Histogram | None = None
        self.stranded: int | None = None
        self._fed = False  # has seen a frame (which columns the run has)

    @classmethod
    def of(cls, results: Results | pd.DataFrame | ThresholdsAccumulator) -> ThresholdsAccumulator:
        """An accumulator of a whole run (Results or frame); an accumulator as it is."""
        if isinstance(results, ThresholdsAccumulator):
            return results
        if isinstance(results, Results):
            acc = cls(results.meta)
            acc.add(results.frame)
            return acc
        acc = cls()
        acc.add(results)
        return acc

    def add(self, frame: pd.DataFrame) -> None:
        """Count one chunk of rows (any number, none included)."""
        if SCORE not in frame:
            raise UserError(f"the results have no '{SCORE}' column: thresholds needs Rum "
                            "Runner results")
        self.scores.add(_whole(frame, SCORE))
        has_turns, has_end = "turns" in frame, "end_reason" in frame
        if not self._fed:
            self.turns = Histogram() if has_turns else None
            self.stranded = 0 if has_end else None
            self._fed = True
        if self.turns is not None:
            if has_turns:
                self.turns.add(_whole(frame, "turns"))
            else:
                self.turns = None
        if self.stranded is not None:
            if has_end:
                self.stranded += int(np.count_nonzero(frame["end_reason"].to_numpy() == STRANDED))
            else:
                self.stranded = None
        self.n += len(frame)

    def merge(self, other: ThresholdsAccumulator) -> ThresholdsAccumulator:
        """A new accumulator of both runs' games (metadata: this one's)."""
        out = ThresholdsAccumulator(self.meta)
        if not other._fed or not self._fed:
            src = self if self._fed else other
            out.scores = Histogram(src.scores.low, src.scores.counts.copy())
            out.turns = (None if src.turns is None
                         else Histogram(src.turns.low, src.turns.counts.copy()))
            out.stranded, out.n, out._fed = src.stranded, src.n, src._fed
            return out
        out.n = self.n + other.n
        out.scores = self.scores.merge(other.scores)
        out.turns = (self.turns.merge(other.turns)
                     if self.turns is not None and other.turns is not None else None)
        out.stranded = (self.stranded + other.stranded
                        if self.stranded is not None and other.stranded is not None else None)
        out._fed = True
        return out

    def _checked(self) -> ThresholdsAccumulator:
        if self.n == 0:
            raise UserError("the results hold no games")
        return self


def _verify_histogram(hist, games: int, what: str) -> None:
    if type(hist) is not Histogram or type(hist.low) is not int \
            or not isinstance(hist.counts, np.ndarray) or hist.counts.dtype != np.int64 \
            or hist.counts.ndim != 1 or hist.counts.size > MAX_SPAN:
        raise ValueError(f"its {what} are not a histogram of whole numbers")
    if (hist.counts.size and hist.counts.min() < 0) or int(hist.counts.sum()) != games:
        raise ValueError(f"its {what} count other than {games} games")


def verify_accumulator(acc, games: int) -> None:
    """Refuse a stored :class:`ThresholdsAccumulator` that is not a tally of ``games`` games
    (a block's, made by :class:`ThresholdsPart`): its type, counts and histograms."""
    if type(acc) is not ThresholdsAccumulator or type(acc.n) is not int or acc.n != games:
        raise ValueError(f"not a thresholds tally of {games} games")
    if acc._fed is not True or not isinstance(acc.meta, dict):
        raise ValueError("a thresholds tally that has not seen its games")
    _verify_histogram(acc.scores, games, "scores")
    if acc.turns is not None:
        _verify_histogram(acc.turns, games, "turns")
    if acc.stranded is not None and (type(acc.stranded) is not int
                                     or not 0 <= acc.stranded <= games):
        raise ValueError(f"its stranded count is not one of {games} games")


@storable
@dataclass(frozen=True)
class ThresholdsPart:
    """A block's :class:`ThresholdsAccumulator`, made where the block is played (a run's
    ``part``; the run merges them in block order), and kept by the run store
    (``simulate.store``). Holds nothing: the accumulator reads the columns it needs."""

    # The version of what the run store keeps of a block (bump it when what
    # ``ThresholdsAccumulator`` keeps changes). A class attribute, not a field.
    store_version = 1

    def __call__(self, frame: pd.DataFrame) -> ThresholdsAccumulator:
        return ThresholdsAccumulator.of(frame)

    def verify(self, result, games: int) -> None:
        """Refuse a stored block that cannot be a thresholds tally of ``games`` games."""
        verify_accumulator(result, games)


Run = Results | pd.DataFrame | ThresholdsAccumulator  # what every answer here reads


def _acc(data) -> ThresholdsAccumulator:
    """The accumulator of a run: a frame or Results is one accumulator fed the whole frame."""
    return ThresholdsAccumulator.of(data)._checked()


def band_shares(frame: Run, rules: Rules | None = None,
                confidence: float = stats.CONFIDENCE) -> pd.DataFrame:
    """Per printed band 0..5: label, printed and exact range, games, share % and Wilson interval %.

    Bands are recomputed from ``score_0`` with ``rules`` (so the same games
    can be judged against other edges); the ``band_0`` column is not used.
    ``frame``: a frame of rows, Results or a :class:`ThresholdsAccumulator`.
    """
    rules = rules or Rules()
    acc = _acc(frame)
    hist = acc.scores
    counts = np.bincount(score_bands(hist.values, rules), weights=hist.counts,
                         minlength=6).astype(np.int64)
    rows = []
    for band, (label, printed, exact) in enumerate(
            zip(BAND_NAMES, printed_ranges(rules), exact_ranges(rules), strict=True)):
        w = stats.wilson_interval(int(counts[band]), acc.n, confidence)
        rows.append({"band": band, "label": label, "printed": printed, "range": exact,
                     "games": int(counts[band]), "share_pct": 100 * w.estimate,
                     "low_pct": 100 * w.low, "high_pct": 100 * w.high})
    return pd.DataFrame(rows)


def edge_percentiles(frame: Run, rules: Rules | None = None,
                     confidence: float = stats.CONFIDENCE) -> pd.DataFrame:
    """Per printed edge: the percentile at which it sits, with a Wilson interval.

    The percentile is the share of games scoring below the edge under the
    edge rule: ``score < edge`` (lower_inclusive) or ``score <= edge``
    (upper_inclusive), i.e. the share of games in the bands beneath it.
    """
    rules = rules or Rules()
    acc = _acc(frame)
    inclusive = rules.score_band_edge_rule == "upper_inclusive"
    rows = []
    for k, edge in enumerate(rules.score_band_edges):
        w = stats.wilson_interval(acc.scores.below(edge, inclusive), acc.n, confidence)
        rows.append({"edge_index": k + 1, "between": _between(k), "edge": int(edge),
                     "percentile": 100 * w.estimate, "low_pct": 100 * w.low,
                     "high_pct": 100 * w.high})
    return pd.DataFrame(rows)


def calibrated_edges(frame: Run, target: Sequence[float] = DEFAULT_TARGET,
                     rules: Rules | None = None,
                     confidence: float = stats.CONFIDENCE) -> pd.DataFrame:
    """The five band edges that give the ``target`` split (percent, broke..god) in these games.

    Edge k is placed for the cumulative target c_k = target[0] + ... + target[k-1]
    (see ``PLACEMENT_NOTE``): the integer whose share below it under the
    edge rule is nearest c_k. Its interval is the order-statistic interval
    [X_(l), X_(u)] of the c_k-quantile, widened by one point upward
    (lower_inclusive: the edge may sit one above the quantile) or downward
    (upper_inclusive). A cumulative target of 0 or 100% puts the edge just
    below the lowest or above the highest score, with no interval (NaN).
    Columns also give the printed edge and the split the chosen edges achieve.
    """
    target = check_target(target)
    rules = rules or Rules()
    acc = _acc(frame)
    hist, n = acc.scores, acc.n
    ordered = hist.sorted_view()  # order statistics read from the histogram, exact
    upper = rules.score_band_edge_rule == "upper_inclusive"

    def below(edge: int) -> float:
        return hist.below(edge, inclusive=upper) / n

    shift = -1 if upper else 0  # the upper_inclusive edge sits one lower for the same split
    cumulative = np.cumsum(target)[:5] / 100
    rows, previous = [], None
    for k, c in enumerate(cumulative):
        low = high = math.nan
        if c <= 1e-12:
            edge = int(ordered[0]) + shift
        elif c >= 1 - 1e-12:
            edge = int(ordered[-1]) + 1 + shift
        else:
            q = stats.quantile_interval_sorted(ordered, float(c), confidence)
            xi = int(q.estimate)
            # Below xi + shift fewer than c of the games fall, at xi + 1 + shift at least c.
            lo_edge, hi_edge = xi + shift, xi + 1 + shift
            edge = lo_edge if c - below(lo_edge) <= below(hi_edge) - c else hi_edge
            low, high = q.low + shift, q.high + 1 + shift
        forced = previous is not None and edge <= previous
        if forced:
            edge = previous + 1
        previous = edge
        rows.append({"edge_index": k + 1, "between": _between(k),
                     "target_below_pct": 100 * c, "edge": edge, "edge_low": low,
                     "edge_high": high, "achieved_below_pct": 100 * below(edge),
                     "printed_edge": int(rules.score_band_edges[k]),
                     "forced_up": bool(forced)})
    return pd.DataFrame(rows)


def achieved_split(calibrated: pd.DataFrame) -> list[float]:
    """The six band shares (percent, broke..god) that calibrated edges give in the sample."""
    below = calibrated.sort_values("edge_index")["achieved_below_pct"].to_numpy()
    return list(np.diff(np.concatenate([[0.0], below, [100.0]])))


def score_summary(frame: Run, confidence: float = stats.CONFIDENCE) -> dict:
    """Mean (with interval), SD, 5/50/95th percentiles, max, mean/max turns, stranded share.

    From the counts alone: the mean and SD from the exact integer sum and sum of squares
    (one rounding each), the percentiles as order statistics of the histogram.
    """
    acc = _acc(frame)
    hist, n = acc.scores, acc.n
    mean, sd = _mean_sd(hist)
    if n == 1:
        low, high = -math.inf, math.inf
    else:
        half = float(_t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
        low, high = mean - half, mean + half
    ordered = hist.sorted_view()
    pct = {f"p{int(q * 100)}": stats.quantile_interval_sorted(ordered, q, confidence).estimate
           for q in (0.05, 0.5, 0.95)}
    out = {"games": n, "mean": mean, "mean_low": low, "mean_high": high, "sd": sd,
           **pct, "max": hist.max()}
    if acc.turns is not None:
        out["mean_turns"] = acc.turns.total() / n
        out["max_turns"] = acc.turns.max()
    if acc.stranded is not None:
        w = stats.wilson_interval(acc.stranded, n, confidence)
        out.update(stranded_pct=100 * w.estimate, stranded_low_pct=100 * w.low,
                   stranded_high_pct=100 * w.high)
    return out


def _mean_sd(hist: Histogram) -> tuple[float, float]:
    """Mean and sample SD (ddof=1; NaN for one value) from exact integer sums."""
    n, total = hist.n, hist.total()
    mean = total / n  # int / int: correctly rounded
    if n < 2:
        return mean, math.nan
    # n * sum(x^2) - sum(x)^2 is exact in integers, so the variance is one division.
    var = (n * hist.total_squares() - total * total) / (n * (n - 1))
    return mean, math.sqrt(max(var, 0.0))


def target_distance(bands: pd.DataFrame, target: Sequence[float] = DEFAULT_TARGET) -> float:
    """Total variation distance (percentage points) between observed band shares and the target.

    Half the sum of |observed - target| over the six bands: the share of
    games that would have to move band for the printed bands to give the
    target split. 0 is a perfect fit, 100 no overlap at all.
    """
    target = check_target(target)
    return 0.5 * float(np.abs(bands["share_pct"].to_numpy() - np.asarray(target)).sum())


def target_distance_interval(bands: pd.DataFrame, target: Sequence[float] = DEFAULT_TARGET,
                             confidence: float = stats.CONFIDENCE) -> stats.Interval:
    """The 'off target' distance (:func:`target_distance`, percentage points) with an interval.

    The plug-in distance is biased upwards (noise in any band adds to it), so it needs an
    interval that says how small the true distance can be. Method: simultaneous Wilson
    intervals for the six band shares (Bonferroni, each at 1 - alpha/6) make a box that
    holds the true shares with probability at least ``confidence``; the interval is the
    smallest and the largest distance from the target over that box within the simplex
    (shares summing to 1), found by linear programming (scipy's HiGHS). Conservative: it
    covers at least ``confidence`` whatever the shares.
    """
    from itertools import product

    from scipy.optimize import linprog

    t = np.asarray(check_target(target), dtype=float) / 100
    counts = bands["games"].to_numpy()
    n = int(counts.sum())
    k = len(counts)
    level = 1 - (1 - confidence) / k
    box = [stats.wilson_interval(int(c), n, level)[1:] for c in counts]
    estimate = target_distance(bands, target)
    # Smallest: min sum(e) / 2 with e >= |p - t|, box bounds and sum(p) = 1; variables p, e.
    cost = np.r_[np.zeros(k), np.full(k, 0.5)]
    eye = np.eye(k)
    upper = np.block([[eye, -eye], [-eye, -eye]])
    rhs = np.r_[t, -t]
    bounds = [*box, *[(0, 1)] * k]
    equal = np.r_[np.ones(k), np.zeros(k)][None, :]
    low = linprog(cost, A_ub=upper, b_ub=rhs, A_eq=equal, b_eq=[1.0], bounds=bounds,
                  method="highs")
    # Largest: |x| = max over signs, so the maximum is the best of the linear programs
    # max sum(sign * (p - t)) / 2 over the box and the simplex, one per sign pattern.
    high = 0.0
    for signs in product((-1.0, 1.0), repeat=k):
        sign = np.asarray(signs)
        best = linprog(-0.5 * sign, A_eq=np.ones((1, k)), b_eq=[1.0], bounds=box,
                       method="highs")
        if best.status == 0:
            high = max(high, -best.fun - 0.5 * float(sign @ t))
    return stats.Interval(estimate, 100 * max(low.fun, 0.0), min(100 * high, 100.0))


def _pct(x: float) -> str:
    if 0 < x < 0.01:
        return "<0.01"
    if 99.99 < x < 100:
        return ">99.99"
    return f"{x:.2f}"


def pct_ci(value: float, low: float, high: float) -> str:
    """A percentage with its interval as the band tables print it: '12.34% [11.02, 13.71]'
    (shares within 0.01 of 0 or 100 as '<0.01' and '>99.99')."""
    return f"{_pct(value)}% [{_pct(low)}, {_pct(high)}]"


def _pct_ci(row, column: str = "share_pct") -> str:
    return pct_ci(row[column], row["low_pct"], row["high_pct"])


def _edge_ci(row) -> str:
    if math.isnan(row["edge_low"]):
        ci = "[-]"
    else:
        ci = f"[{row['edge_low']:g}, {row['edge_high']:g}]"
    flag = " forced" if row["forced_up"] else ""
    return f"{row['edge']} {ci} -> {row['achieved_below_pct']:.1f}%{flag}"


def _fmt_opt(row, key: str, fmt: str) -> str:
    return fmt.format(row[key]) if key in row and not pd.isna(row[key]) else "-"


def _between(k: int) -> str:
    return f"{BAND_NAMES[k]}|{BAND_NAMES[k + 1]}"


# ================================================================ the combined answer


@dataclass
class ThresholdsReport:
    """The band-calibration answer for several runs: tidy tables plus text and JSON views.

    ``bands``, ``edges``, ``calibrated`` and ``summary`` are long-format
    DataFrames keyed by ``label`` (one label per run: its policy, plus its
    rules when the runs' rules differ). All runs are judged against the same
    printed bands, ``rules.score_band_edges`` under ``rules.score_band_edge_rule``.
    """

    rules: Rules
    target: tuple[float, ...]
    runs: pd.DataFrame
    bands: pd.DataFrame
    edges: pd.DataFrame
    calibrated: pd.DataFrame
    summary: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    skills: SkillBands | None = None  # the edges per skill level (rumsim thresholds --skills)

    @property
    def labels(self) -> list[str]:
        return list(self.runs["label"])

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tidy tables by name (for CSV files)."""
        out = {"runs": self.runs, "bands": self.bands, "edges": self.edges,
               "calibrated": self.calibrated, "summary": self.summary}
        if self.skills is not None:
            out["skills"] = self.skills.table
        return out

    def to_json(self) -> dict:
        """The whole report as plain JSON types (NaN and infinities as None): ``json.dumps``-ready."""
        return {
            "analysis": "thresholds",
            "game": "rum-runner",
            "band_edges": list(self.rules.score_band_edges),
            "edge_rule": self.rules.score_band_edge_rule,
            "target_pct": list(self.target),
            "notes": [TYPO_NOTE, *self.notes, METHOD_NOTE, PLACEMENT_NOTE],
            **{name: _records(frame) for name, frame in self.tables().items()},
            **({} if self.skills is None else
               {"skills_verdict": self.skills.fit_sentence(),
                "skills_method": SKILL_METHOD_NOTE}),
        }

    def to_csv(self) -> str:
        """All tables as one long CSV: a ``table`` column (runs, bands, edges, calibrated,
        summary) then the union of their columns, blank where a table has no such column."""
        # Nullable dtypes keep integers integral where other tables leave the column blank.
        frames = [_nullable(frame).assign(table=name) for name, frame in self.tables().items()]
        combined = pd.concat(frames, ignore_index=True)
        return combined[["table", *[c for c in combined.columns if c != "table"]]].to_csv(
            index=False)

    def render_skills(self) -> str:
        """The per-skill answer at a terminal: the edges each skill level needs for the
        target split, its median game's printed band, and which level the printed bands fit."""
        if self.skills is None:
            raise ValueError("this report has no skill levels")
        r = self.rules
        split = "/".join(f"{t:g}" for t in self.target)
        edges = ", ".join(str(e) for e in r.score_band_edges)
        table = skill_table(self.skills)
        out = [f"Rum Runner: which score bands to print, per skill level "
               f"(rules: {self.runs['rules'].iloc[0]})", "",
               TYPO_NOTE,
               f"Printed edges {edges}; {EDGE_RULE_TEXT[r.score_band_edge_rule]}.",
               f"Target split {split} % ({' .. '.join(BAND_NAMES[::5])}): the designer's "
               "choice (--target), not a rule.", *self.notes, "",
               "Band edges that give the target split, per skill level (each band from its "
               "edge; 95% intervals)",
               text_table(list(table.columns), table.astype(str).values.tolist()), "",
               self.skills.fit_sentence(), "",
               "  " + "; ".join(f"{row['player']}: {row['policy']}, "
                                f"{row['games']:,} games, seed {seed}"
                                for (_, row), seed in zip(self.skills.table.iterrows(),
                                                          self.runs["seed"], strict=True)),
               "", SKILL_METHOD_NOTE]
        return "\n".join(out)

    def render_text(self) -> str:
        """A terminal rendering: band table, edge percentiles, calibrated edges, summary."""
        r = self.rules
        labels = self.labels
        games = dict(zip(self.runs["label"], self.runs["games"], strict=True))
        edges = ", ".join(str(e) for e in r.score_band_edges)
        out = ["Rum Runner score bands: are the printed bands calibrated?", "",
               TYPO_NOTE,
               f"Edges {edges}; {EDGE_RULE_TEXT[r.score_band_edge_rule]} "
               f"(score_band_edge_rule={r.score_band_edge_rule}).", *self.notes, ""]
        for _, run in self.runs.iterrows():
            out.append(f"  {run['label']}: policy {run['policy']}, rules {run['rules']}, "
                       f"seed {run['seed']}, {run['games']:,} games")
        out += ["", "Share of games in each printed band (95% Wilson interval)"]
        by = self.bands.set_index(["label", "band"])
        rows = []
        for band, (label, printed) in enumerate(zip(BAND_NAMES, printed_ranges(r), strict=True)):
            rows.append([printed, label, *(_pct_ci(by.loc[(lab, band)]) for lab in labels)])
        out.append(text_table(["score", "band",
                               *(f"{lab} (n={games[lab]:,})" for lab in labels)], rows))
        out += ["", "Percentile at which each printed edge sits (share of games below it, 95% CI)"]
        by = self.edges.set_index(["label", "edge_index"])
        rows = [[str(e), _between(k), *(_pct_ci(by.loc[(lab, k + 1)], "percentile")
                                        for lab in labels)]
                for k, e in enumerate(r.score_band_edges)]
        out.append(text_table(["edge", "between", *labels], rows))
        split = "/".join(f"{t:g}" for t in self.target)
        out += ["", f"Edges that would give the target split {split} % (broke..god), 95% CI"]
        by = self.calibrated.set_index(["label", "edge_index"])
        rows = []
        for k, e in enumerate(r.score_band_edges):
            first = by.loc[(labels[0], k + 1)]
            rows.append([_between(k), f"{first['target_below_pct']:g}%", str(e),
                         *(_edge_ci(by.loc[(lab, k + 1)]) for lab in labels)])
        out.append(text_table(["edge", "target below", "printed", *labels], rows))
        for lab in labels:
            got = achieved_split(self.calibrated[self.calibrated["label"] == lab])
            out.append(f"  {lab}: achieved split " + "/".join(f"{g:.1f}" for g in got) + " %")
        out += ["", "Scores"]
        rows = []
        for _, s in self.summary.iterrows():
            rows.append([s["label"], f"{s['mean']:.1f} [{s['mean_low']:.1f}, {s['mean_high']:.1f}]",
                         f"{s['sd']:.1f}", f"{s['p5']:g} / {s['p50']:g} / {s['p95']:g}",
                         f"{s['max']:g}", _fmt_opt(s, "mean_turns", "{:.2f}"),
                         _fmt_opt(s, "stranded_pct", "{:.2f}%"),
                         f"{s['target_distance_pct']:.1f} [{s['target_distance_low_pct']:.1f}, "
                         f"{s['target_distance_high_pct']:.1f}]"])
        out.append(text_table(["run", "mean [95% CI]", "SD", "5/50/95%", "max", "turns",
                               "stranded", "off target (pp) [95% CI]"], rows))
        out += ["", METHOD_NOTE, PLACEMENT_NOTE, OFF_TARGET_NOTE]
        return "\n".join(out)


# "Calibrated" verdict: at most this share of games (percentage points) would have to
# change band for the printed bands to give the target split.
CALIBRATION_MARGIN_PP = 10.0


def calibration(low_pct: float, high_pct: float, margin_pp: float = CALIBRATION_MARGIN_PP) -> str:
    """The bands' verdict from the interval of the 'off target' share: calibrated (the whole
    interval within the margin), not calibrated (wholly beyond), else undetermined."""
    if high_pct <= margin_pp:
        return "calibrated"
    if low_pct > margin_pp:
        return "not calibrated"
    return "undetermined"


OFF_TARGET_NOTE = (
    "'off target' is the share of games (percentage points) that would have to change band "
    "for the printed bands to give the target split (the total variation distance). The "
    "estimate from the games is biased upwards (noise in any band adds to it); its interval is "
    "the range of the distance over the 95% simultaneous Wilson box of the six band shares "
    "(Bonferroni), which covers at least 95% of the time.")


def thresholds(results: Mapping[str, Results | ThresholdsAccumulator]
               | Sequence[Results | ThresholdsAccumulator] | Results | ThresholdsAccumulator,
               target: Sequence[float] = DEFAULT_TARGET, rules: Rules | None = None,
               confidence: float = stats.CONFIDENCE) -> ThresholdsReport:
    """Judge the printed Rum Runner bands against each run's scores.

    ``results``: one run, a list (labelled by policy, plus rules when they
    differ between runs) or a dict label -> run; a run is Results (its whole
    frame is fed to one :class:`ThresholdsAccumulator`) or an accumulator
    already fed, e.g. chunk by chunk, with the run's ``meta``. Both give the
    same answer for the same games. ``rules`` sets the bands to judge
    against; by default those of the first run's rules, so every column is
    measured against the same edges.
    """
    target = check_target(target)
    labelled = _label(results)
    if rules is None:
        rules = rules_of(next(iter(labelled.values())))
    runs, bands, edges, calibrated, summary = [], [], [], [], []
    for label, res in labelled.items():
        meta = res.meta
        acc = _acc(res)
        runs.append({"label": label, "policy": ",".join(meta.get("policies", ["?"])),
                     "rules": meta.get("rules_changed", "default"), "seed": meta.get("seed"),
                     "games": acc.n, "backend": meta.get("backend"),
                     "elapsed_s": meta.get("elapsed_s")})
        b = band_shares(acc, rules, confidence)
        bands.append(b.assign(label=label))
        edges.append(edge_percentiles(acc, rules, confidence).assign(label=label))
        calibrated.append(calibrated_edges(acc, target, rules, confidence).assign(label=label))
        dist = target_distance_interval(b, target, confidence)
        summary.append({"label": label, **score_summary(acc, confidence),
                        "target_distance_pct": dist.estimate,
                        "target_distance_low_pct": dist.low,
                        "target_distance_high_pct": dist.high})
    notes = []
    if rules.score_band_edges != Rules().score_band_edges:
        notes.append("Edges changed from the printed 200, 250, 300, 325, 350 by the rules.")
    return ThresholdsReport(
        rules=rules, target=target, runs=pd.DataFrame(runs),
        bands=_label_first(pd.concat(bands, ignore_index=True)),
        edges=_label_first(pd.concat(edges, ignore_index=True)),
        calibrated=_label_first(pd.concat(calibrated, ignore_index=True)),
        summary=pd.DataFrame(summary), notes=notes)


def rules_of(res: Results | ThresholdsAccumulator) -> Rules:
    """The Rules a run was made with, rebuilt from its metadata (defaults if absent)."""
    values = res.meta.get("rules")
    if not values:
        return Rules()
    defaults = Rules().to_dict()
    changed = {k: v for k, v in values.items()
               if k in defaults and _plain(v) != _plain(defaults[k])}
    return Rules.from_overrides(changed)


def _label(results) -> dict[str, Results | ThresholdsAccumulator]:
    if isinstance(results, (Results, ThresholdsAccumulator)):
        results = [results]
    if isinstance(results, Mapping):
        if not results:
            raise UserError("thresholds needs at least one run")
        return dict(results)
    results = list(results)
    if not results:
        raise UserError("thresholds needs at least one run")
    differ = len({r.meta.get("rules_changed", "default") for r in results}) > 1
    out: dict[str, Results | ThresholdsAccumulator] = {}
    for r in results:
        label = ",".join(r.meta.get("policies", ["run"]))
        if differ:
            label += f" ({r.meta.get('rules_changed', 'default')})"
        base, k = label, 2
        while label in out:
            label, k = f"{base} #{k}", k + 1
        out[label] = r
    return out


def _plain(v):
    return list(v) if isinstance(v, tuple) else v


def _nullable(frame: pd.DataFrame) -> pd.DataFrame:
    kinds = {"i": "Int64", "b": "boolean"}
    return frame.astype({c: kinds[t.kind] for c, t in frame.dtypes.items()
                         if getattr(t, "kind", "") in kinds})


def _label_first(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[["label", *[c for c in frame.columns if c != "label"]]]


def _records(frame: pd.DataFrame) -> list[dict]:
    out = []
    for row in frame.to_dict(orient="records"):
        out.append({k: _json_value(v) for k, v in row.items()})
    return out


def _json_value(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return None if math.isnan(v) or math.isinf(v) else float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v


# ================================================================ bands per skill level

# The skill levels a designer prints bands for, weakest first (the page and
# ``rumsim thresholds --skills`` fill them from the game's strength ladder).
SKILL_LEVELS = ("beginner", "expert", "expert + search", "best measured")

SKILL_METHOD_NOTE = (
    "Per skill level: each edge is placed for the target split as in the calibrated edges "
    "(its 95% interval is the distribution-free order-statistic interval of the target "
    "quantile); the median score's 95% interval is the order-statistic interval of the "
    "median, and its band is the printed band it falls in (two bands named when the interval "
    "crosses a printed edge). Fit of the printed bands: the share of the level's games that "
    "would have to change band to give the target split (total variation distance), with "
    "intervals simultaneous over the levels (Bonferroni: each at 1 - 5%/L over the "
    "simultaneous Wilson box of the six shares). A level fits best only when its interval "
    "lies wholly below every other level's (family-wise error at most 5%); otherwise the "
    "levels whose intervals reach the best one's cannot be told apart.")


def band_of(score: float, rules: Rules) -> int:
    """The printed band index of one score under the rules' edges and edge rule."""
    return int(score_bands(np.asarray([int(round(score))]), rules)[0])


def band_span(low: float, high: float, rules: Rules) -> str:
    """The printed band(s) an interval of scores falls in, by name: 'poor', or 'poor to
    modest profit' when the interval crosses a printed edge."""
    a, b = band_of(low, rules), band_of(high, rules)
    return BAND_NAMES[a] if a == b else f"{BAND_NAMES[a]} to {BAND_NAMES[b]}"


@dataclass
class SkillBands:
    """The band edges a target split needs, per skill level, with the printed bands' fit.

    ``table``: one row per level (in the order given): the level, the player in words, its
    policy, games, the five edges with their intervals (``edge_k``, ``edge_k_low``,
    ``edge_k_high``, k = 1..5: the lower edge of band k), the split those edges achieve in
    these games, the median score with its interval and printed band, and the printed
    bands' off-target share with its simultaneous interval. ``best``: the level the printed
    bands fit best; ``tied``: the levels that cannot be told apart from it (empty when the
    best one is shown best).
    """

    rules: Rules
    target: tuple[float, ...]
    confidence: float
    table: pd.DataFrame
    best: str
    tied: list[str]

    @property
    def shown_best(self) -> bool:
        return not self.tied

    def row(self, level: str) -> pd.Series:
        return self.table.set_index("level").loc[level]

    def edges_of(self, level: str) -> list[int]:
        r = self.row(level)
        return [int(r[f"edge_{k}"]) for k in range(1, 6)]

    def fit_sentence(self, name=lambda level, player: f"the {level}" if player == level
                     else player) -> str:
        """Which level the printed bands fit best, with its measure and uncertainty.
        ``name(level, player)`` words a level (default: the player as named)."""
        t = self.table.set_index("level")

        def off(level: str) -> str:
            r = t.loc[level]
            return (f"{r['off_target_pct']:.1f}% [{r['off_target_low_pct']:.1f}, "
                    f"{r['off_target_high_pct']:.1f}]")

        def who(level: str) -> str:
            return name(level, t.loc[level, "player"])

        best = self.best
        margin = CALIBRATION_MARGIN_PP
        state = calibration(t.loc[best, "off_target_low_pct"], t.loc[best, "off_target_high_pct"])
        within = {"calibrated": f", within our {margin:g}% margin",
                  "not calibrated": f", more than our {margin:g}% margin",
                  "undetermined": f", which straddles our {margin:g}% margin"}[state]
        if len(t) == 1:
            return (f"For {who(best)}, {off(best)} of games would have to change band for the "
                    f"printed bands to give the target split{within}.")
        if self.shown_best:
            others = [lv for lv in t.index if lv != best]
            return (f"The printed bands fit {who(best)} best: {off(best)} of its games would "
                    f"have to change band to give the target split{within}, against at least "
                    f"{min(t.loc[lv, 'off_target_low_pct'] for lv in others):.1f}% for "
                    f"every other level.")
        tied = [best, *self.tied]
        return (f"The printed bands fit {_join([who(lv) for lv in tied])} about equally: "
                f"{_join([f'{who(lv)} {off(lv)}' for lv in tied])} of games would have to "
                f"change band to give the target split, and these intervals overlap, so "
                f"which of them the bands fit best cannot be told apart.")


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def skill_bands(runs: Mapping[str, Run], target: Sequence[float] = DEFAULT_TARGET,
                rules: Rules | None = None, players: Mapping[str, str] | None = None,
                confidence: float = stats.CONFIDENCE) -> SkillBands:
    """The edges that give ``target`` for each skill level's games, and the printed fit.

    ``runs``: skill level -> its run (Results, frame or :class:`ThresholdsAccumulator`),
    weakest first; ``players``: level -> the player in a designer's words (default: the
    run's policy); ``rules``: whose printed edges to judge (default: the first run's).
    Edges and the median come from :func:`calibrated_edges` and the order statistics of
    each run; the fit from :func:`target_distance_interval` at 1 - (1 - confidence)/L, so
    the L intervals hold together (``SKILL_METHOD_NOTE``).
    """
    target = check_target(target)
    if not runs:
        raise UserError("skill bands need at least one skill level's games")
    if rules is None:
        rules = rules_of(_acc(next(iter(runs.values()))))
    players = dict(players or {})
    joint = 1 - (1 - confidence) / len(runs)
    rows = []
    for level, run in runs.items():
        acc = _acc(run)
        policy = ",".join(acc.meta.get("policies", ["?"])) if acc.meta else "?"
        cal = calibrated_edges(acc, target, rules, confidence).sort_values("edge_index")
        row = {"level": level, "player": players.get(level, policy), "policy": policy,
               "games": acc.n}
        for _, e in cal.iterrows():
            k = int(e["edge_index"])
            row[f"edge_{k}"] = int(e["edge"])
            row[f"edge_{k}_low"] = e["edge_low"]
            row[f"edge_{k}_high"] = e["edge_high"]
        row["achieved_split"] = "/".join(f"{g:.1f}" for g in achieved_split(cal))
        med = stats.quantile_interval_sorted(acc.scores.sorted_view(), 0.5, confidence)
        row.update(median=med.estimate, median_low=med.low, median_high=med.high,
                   median_band=BAND_NAMES[band_of(med.estimate, rules)],
                   median_bands=band_span(med.low, med.high, rules))
        off = target_distance_interval(band_shares(acc, rules, confidence), target, joint)
        row.update(off_target_pct=off.estimate, off_target_low_pct=off.low,
                   off_target_high_pct=off.high)
        rows.append(row)
    table = pd.DataFrame(rows)
    by = table.set_index("level")
    best = str(by["off_target_pct"].idxmin())
    tied = [lv for lv in by.index
            if lv != best and by.loc[lv, "off_target_low_pct"] <= by.loc[best, "off_target_high_pct"]]
    return SkillBands(rules, target, confidence, table, best, tied)


def edge_cell(edge: int, low: float, high: float) -> str:
    """An edge with its interval as the tables print it: '219 [218, 220]'."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return f"{edge}"
    return f"{edge} [{low:.0f}, {high:.0f}]"


def skill_table(skills: SkillBands, preset: str | None = None,
                spec: bool = False) -> pd.DataFrame:
    """The per-skill table as a designer reads it: a row per level; the lower edge of every
    band above 'broke' with its interval; the median game's score and printed band; the
    printed bands' off-target share. ``preset`` adds a rules column, ``spec`` the policy's
    exact specification."""
    out = []
    for _, r in skills.table.iterrows():
        row = {} if preset is None else {"rules": preset}
        row.update({"skill level": r["level"], "player": r["player"]})
        if spec:
            row["specification"] = r["policy"]
        row["games"] = f"{r['games']:,}"
        for k in range(1, 6):
            row[f"{BAND_NAMES[k]} from [95% CI]"] = edge_cell(
                int(r[f"edge_{k}"]), r[f"edge_{k}_low"], r[f"edge_{k}_high"])
        row["split they give, %"] = r["achieved_split"]
        row["median game [95% CI]: printed band"] = (
            f"{r['median']:.0f} [{r['median_low']:.0f}, {r['median_high']:.0f}]: "
            f"{r['median_bands']}")
        row["printed bands: % of games off target [95% CI]"] = (
            f"{r['off_target_pct']:.1f} [{r['off_target_low_pct']:.1f}, "
            f"{r['off_target_high_pct']:.1f}]")
        out.append(row)
    return pd.DataFrame(out)
