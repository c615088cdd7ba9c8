"""What does a rule variant really do? Paired comparison of variants against the base rules.

Every variant is played on the same seed and game indices as the base rules
(common random numbers: game ``i`` starts from the same world stream under
every variant), so each game gives a paired difference. For each variant and
each metric the answer is the base value, the variant value and their
difference with a 95% interval from the paired differences, plus the
variance-reduction factor pairing achieved against independent samples.

Metrics (each only where the game has the columns):

* game length: mean, median, mid-median and 90th percentile of ``rounds`` and of ``turns``;
* share of games that hit the cap (``capped``, or ``truncated``);
* win share of every seat, and the first player's edge ``win_0 - 1/P``;
* score spread: the standard deviation of the final scores (all seats pooled).

Methods. Means: paired differences d_i, interval mean(d) ± z·sd(d)/√n; shares of 0/1
outcomes: Newcombe's 1998 paired score interval, method 10, and McNemar's exact p-value
(the normal interval fails for rare events). Quantiles: paired Poisson bootstrap over games
(the same weights for base and variant), percentile interval with its p-value from the
same replicates (so a star never contradicts its interval). The score spread: the delta
method on per-game influence values (a smooth function of per-game moments). Variance
reduction: (variance of the difference with independent samples) / (with paired ones).
Multiplicity: Holm's step-down over every difference of the answer (all metrics of all
variants, family-wise error 5%); intervals are per-comparison 95%, and are labelled so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial

import numpy as np
import pandas as pd
from scipy import stats as st

from analyses._text import text_table, zero_share
from analyses.stats import CONFIDENCE, holm, paired_share_from_counts, z_value
from simulate.codec import storable

N_BOOT = 2000
N_BOOT_GAIN = 400   # independent resamples for the pairing gain (a variance ratio, not an end)
WEIGHT_CELLS = 4_000_000  # bootstrap weights drawn at once (replicates x distinct games)


@dataclass(frozen=True)
class Metric:
    """One quantity compared between variants."""

    name: str
    label: str
    kind: str            # "mean" (paired t), "boot" (paired bootstrap), "delta" (linearised)
    values: Callable[[pd.DataFrame], np.ndarray]  # per-game values (for "boot": what it needs)
    # "boot": statistic(values, weights), the statistic of the distinct per-game values, each
    # counted by a row of ``weights`` (replicates x values), one figure per replicate;
    # "delta": the statistic of per-game moments (its interval: the delta method).
    statistic: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    unit: str = ""                               # "" | "%" (shares) | "pp" (edges)
    source: str = ""                             # metrics of one source share their values
    offset: float = 0.0                          # added to the base and variant values shown


def metrics_for(frame: pd.DataFrame, players: int) -> list[Metric]:
    """The metrics a results frame (or its column names) supports, in reading order."""
    out: list[Metric] = []
    for col in ("rounds", "turns"):
        if col in frame:
            out += [
                Metric(f"{col}_mean", f"mean {col}", "mean", _col(col)),
                Metric(f"{col}_median", f"median {col}", "boot", _int_col(col),
                       partial(weighted_quantile, q=0.5), source=col),
                Metric(f"{col}_midmedian", f"mid-median {col}", "boot", _int_col(col),
                       partial(weighted_midquantile, q=0.5), source=col),
                Metric(f"{col}_p90", f"90th percentile {col}", "boot", _int_col(col),
                       partial(weighted_quantile, q=0.9), source=col),
            ]
    # the flag of a game stopped by its length cap: 'capped' or (the spec's word) 'truncated'
    for col in ("capped", "truncated"):
        if col in frame:
            out.append(Metric("capped_share", "capped games", "mean", _col(col), unit="%"))
            break
    if players >= 2 and all(f"win_{s}" in frame for s in range(players)):
        fair = 1.0 / players
        # Compared as seat 0's win share (so 0/1 wins get the paired score interval), shown
        # less the fair share.
        out.append(Metric("first_player_edge", "first player's edge (win_0 - 1/P)", "mean",
                          _col("win_0"), unit="pp", offset=-fair))
        out += [Metric(f"win_{s}", f"seat {s} win share", "mean", _col(f"win_{s}"), unit="%")
                for s in range(players)]
    elif "win_0" in frame:
        out.append(Metric("win_0", "win share", "mean", _col("win_0"), unit="%"))
    scores = tuple(f"score_{s}" for s in range(max(players, 1)) if f"score_{s}" in frame)
    if scores:
        out.append(Metric("score_spread", "score spread (SD of final scores)", "delta",
                          partial(_score_moments, columns=scores),
                          partial(pooled_sd, seats=len(scores))))
    return out


def _counts(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of x and, per row of weights w (replicates x values), the weight
    on each distinct value."""
    support, at = np.unique(x, return_inverse=True)
    w2 = np.atleast_2d(w).astype(float)
    if support.size <= 256:  # few distinct values (game lengths): one matrix product
        hist = w2 @ (at[:, None] == np.arange(support.size)[None, :]).astype(float)
    else:
        hist = np.stack([np.bincount(at, weights=row, minlength=support.size) for row in w2])
    return support, hist


def weighted_quantile(x: np.ndarray, w: np.ndarray, q: float):
    """The q-quantile (inverse empirical CDF: the smallest value with at least a share q of
    the weight at or below it) of values x counted w times; w may be one weight vector
    (a float back) or a matrix of replicates x values (an array back)."""
    support, hist = _counts(np.asarray(x), w)
    cum = np.cumsum(hist, axis=1)
    # round(): 0.9 * 10 is 9.000000000000002 in floating point, which would skip the 9th value
    target = np.round(q * cum[:, -1:], 9)
    k = np.minimum((cum < target).sum(axis=1), support.size - 1)
    # a resample that drew no game at all (all weights 0) has no quantile
    out = np.where(cum[:, -1] > 0, support[k].astype(float), np.nan)
    return float(out[0]) if np.ndim(w) == 1 else out


def weighted_midquantile(x: np.ndarray, w: np.ndarray, q: float):
    """The q mid-quantile of values x counted w times (Ma, Genton and Parzen 2011): the
    linear interpolation of the values against their mid-distribution F(x) - P(X = x)/2.
    Unlike the median of whole numbers it moves when the distribution moves (a median that
    stays at 25 while a third of the games lose a round has a mid-median that falls)."""
    support, hist = _counts(np.asarray(x), w)
    cum = np.cumsum(hist, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mid = (cum - hist / 2) / cum[:, -1:]
    out = np.empty(hist.shape[0])
    for j in range(hist.shape[0]):
        seen = hist[j] > 0
        # a resample that drew no game at all (all weights 0) has no mid-quantile
        out[j] = np.interp(q, mid[j, seen], support[seen]) if seen.any() else np.nan
    return float(out[0]) if np.ndim(w) == 1 else out


def _score_moments(frame: pd.DataFrame, columns: tuple[str, ...],
                   centre: float | None = None) -> np.ndarray:
    """Per game: the sum and the sum of squares of its final scores, about a fixed centre
    (the SD does not depend on it; centring keeps the sums of squares exact enough)."""
    x = frame[list(columns)].to_numpy(dtype=float)
    if centre is None:
        centre = float(np.round(x.mean())) if x.size else 0.0
    x = x - centre
    return np.column_stack([x.sum(axis=1), (x * x).sum(axis=1)])


def pooled_sd(moments: np.ndarray, w: np.ndarray, seats: int):
    """SD (n - 1 divisor) of every final score, all seats pooled, from per-game sums and sums
    of squares (:func:`_score_moments`), game i counted w[i] times."""
    w2 = np.atleast_2d(w).astype(float)
    total = seats * w2.sum(axis=1)
    s1, s2 = w2 @ moments[:, 0], w2 @ moments[:, 1]
    mean = s1 / np.maximum(total, 1)
    var = np.maximum(s2 - total * mean * mean, 0.0) / np.maximum(total - 1, 1)
    out = np.sqrt(var)
    return float(out[0]) if np.ndim(w) == 1 else out


def weighted_sd(x: np.ndarray, w: np.ndarray) -> float:
    """SD (n - 1 divisor) of the rows of x (all seats pooled), row i counted w[i] times."""
    x2 = np.atleast_2d(np.asarray(x, dtype=float).T).T
    return pooled_sd(np.column_stack([x2.sum(axis=1), (x2 * x2).sum(axis=1)]), w, x2.shape[1])


def _col(name: str) -> Callable[[pd.DataFrame], np.ndarray]:
    return lambda f: f[name].to_numpy(dtype=float)


def _int_col(name: str) -> Callable[[pd.DataFrame], np.ndarray]:
    return lambda f: f[name].to_numpy(dtype=np.int64)


@dataclass
class VariantsAnswer:
    """Differences of every variant from the base rules, metric by metric."""

    table: pd.DataFrame   # variant, metric, label, base, value, diff, low, high, p, p_holm, significant, vrf
    games: int
    base_label: str
    method: str
    meta: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"games": self.games, "base": self.base_label, "method": self.method,
                "rows": [{k: _plain(v) for k, v in r.items()}
                         for r in self.table.to_dict(orient="records")],
                "meta": self.meta}

    def to_csv(self) -> str:
        return self.table.to_csv(index=False, float_format="%.6g")

    def cell(self, variant: str, metric: str, with_ci: bool = True) -> str:
        hit = self.table[(self.table["variant"] == variant) & (self.table["metric"] == metric)]
        if not len(hit):
            return ""
        r = hit.iloc[0]
        return _cell(r, with_ci) + (" *" if r["significant"] else "")

    def summary(self) -> pd.DataFrame:
        """One row per variant: the headline differences from the base (with intervals)."""
        present = set(self.table["metric"])
        columns = [(label, metric, ci) for label, metric, ci in SUMMARY
                   if metric in present and SUMMARY_UNLESS.get(metric) not in present]
        rows = []
        for variant in dict.fromkeys(self.table["variant"]):
            row = {"variant": variant}
            for label, metric, ci in columns:
                row[label] = self.cell(variant, metric, ci)
            rows.append(row)
        return pd.DataFrame(rows)

    def render_text(self, details: bool = False) -> str:
        lines = []
        m = self.meta
        if m:
            lines.append(f"{m.get('game')}: {m.get('players')} players, policy "
                         f"{', '.join(m.get('policies', []))}, seed {m.get('seed')}, "
                         f"{self.games:,} games per variant (the same games for every variant)")
        lines.append(f"Base rules: {self.base_label}. Differences are variant minus base "
                     f"[95% CI, unadjusted]; * = significant after Holm over all "
                     f"{len(self.table):,} differences (family-wise 5%).")
        lines.append("")
        summary = self.summary()
        lines.append(text_table(list(summary.columns),
                                [list(r) for r in summary.itertuples(index=False)]))
        lines.append("")
        lines.append("Variants: " + "; ".join(
            f"{v} = {r}" for v, r in dict.fromkeys(zip(self.table["variant"],
                                                       self.table["rules"], strict=True))))
        base_rows = self.table.drop_duplicates("metric")
        lines.append("Base values: " + ", ".join(
            f"{r['label']} {_fmt(r['base'], r['unit'], self.games)}"
            for _, r in base_rows.iterrows()
            if r["metric"] in {m for _, m, _ in SUMMARY}))
        if details:
            for variant, block in self.table.groupby("variant", sort=False):
                lines.append("")
                lines.append(f"{variant}  [{block['rules'].iloc[0]}]")
                rows = []
                for _, r in block.iterrows():
                    rows.append([r["label"], _fmt(r["base"], r["unit"], self.games),
                                 _fmt(r["value"], r["unit"], self.games), _cell(r),
                                 _p(r["p_holm"]) + (" *" if r["significant"] else ""),
                                 f"{r['vrf']:.1f}x" if math.isfinite(r["vrf"]) else "-"])
                lines.append(text_table(["metric", "base", "variant", "difference [95% CI]",
                                         "Holm p", "pairing gain"], rows))
        gains = self.table.loc[self.table["kind"] == "mean", "vrf"]
        gains = gains[np.isfinite(gains)]
        lines.append("")
        if len(gains):
            lines.append(f"Pairing on common random numbers cut the variance of the mean "
                         f"differences by {gains.min():.2f}x to {gains.max():.2f}x (median "
                         f"{gains.median():.2f}x) compared with independent samples.")
        lines.append(self.method)
        if not details:
            lines.append("(--details shows every metric of every variant with Holm p-values.)")
        return "\n".join(lines)


# The summary table's columns: (heading, metric, with interval)
SUMMARY = (
    ("mean rounds", "rounds_mean", True),
    ("median rounds", "rounds_median", False),
    ("mid-median rounds", "rounds_midmedian", True),
    ("p90 rounds", "rounds_p90", False),
    ("mean turns", "turns_mean", True),
    ("median turns", "turns_median", False),
    ("mid-median turns", "turns_midmedian", True),
    ("p90 turns", "turns_p90", False),
    ("capped", "capped_share", True),
    ("first-player edge", "first_player_edge", True),
    ("win share", "win_0", True),
    ("score spread", "score_spread", True),
)
# Shown only when the metric in brackets is absent (keeps the table narrow).
SUMMARY_UNLESS = {"turns_median": "rounds_median", "turns_p90": "rounds_p90",
                  "turns_midmedian": "rounds_midmedian",
                  "win_0": "first_player_edge"}


def compare(base: pd.DataFrame, variants: Mapping[str, pd.DataFrame], players: int,
            rules_text: Mapping[str, str] | None = None, base_label: str = "default",
            confidence: float = CONFIDENCE, n_boot: int = N_BOOT, seed: int = 0,
            meta: dict | None = None) -> VariantsAnswer:
    """Compare each variant frame with the base frame, game by game (rows must pair up): a
    :class:`VariantsTally` fed the whole frames."""
    if not variants:
        raise ValueError("no variants to compare with the base rules")
    tally = VariantsTally(players, list(variants))
    tally.add(base, variants)
    return tally.answer(rules_text, base_label, confidence, n_boot, seed, meta)


@lru_cache(maxsize=64)
def _metrics_of(columns: tuple[str, ...], players: int) -> list[Metric]:
    """The metrics of a frame with these columns: one list per (columns, players), so a
    tally's metrics are the same objects however often it asks (and it keeps only the
    columns, which a run store can hold; a metric holds functions)."""
    return metrics_for(columns, players)


@storable
class VariantsTally:
    """What a comparison needs, fed chunk by chunk (the same games of the base and of every
    variant at a time): per (variant, metric) the paired sums of a mean (and the 2 x 2
    table of a 0/1 share), the distinct value pairs with their game counts for a quantile
    (the pooled bootstrap reads nothing else), and the sums and cross-products of the
    per-game score moments for the score spread. Memory does not grow with the games.

    ``merge`` adds a tally of later games (a block's, :class:`VariantsParts`): the pair
    tables exactly, the sums as one tally fed both would add them (the same additions in
    the same order when the blocks are merged in game order). The score moments are taken
    about a centre, the first block's mean score rounded; a block merged with another
    centre is moved to it (exact for whole-number scores)."""

    def __init__(self, players: int, names: list[str]):
        if not names:
            raise ValueError("no variants to compare with the base rules")
        self.players, self.names = players, list(names)
        self.columns: tuple[str, ...] | None = None  # the frames' columns (its metrics)
        self.n = 0
        self.centre: float | None = None
        self.sums: dict = {}

    @property
    def metrics(self) -> list[Metric] | None:
        if self.columns is None:
            return None
        return _metrics_of(self.columns, self.players)

    def add(self, base: pd.DataFrame, variants: Mapping[str, pd.DataFrame]) -> VariantsTally:
        if set(variants) != set(self.names):
            raise ValueError("every chunk needs the base and every variant")
        for name, frame in variants.items():
            if len(frame) != len(base) or not np.array_equal(frame["game"].to_numpy(),
                                                              base["game"].to_numpy()):
                raise ValueError(f"variant '{name}' was not played on the same games as the "
                                 "base")
        if self.columns is None:
            self.columns = tuple(str(c) for c in base.columns)
        if len(base) == 0:
            return self
        self.n += len(base)
        for metric in self.metrics:
            if metric.kind == "delta" and self.centre is None:
                cols = [c for c in base if c.startswith("score_")]
                self.centre = float(np.round(base[cols].to_numpy(dtype=float).mean()))
            x = self._values(metric, base)
            for name in self.names:
                y = self._values(metric, variants[name])
                key = (name, metric.source or metric.name) if metric.kind == "boot" else (
                    name, metric.name)
                if metric.kind == "boot":
                    if metric is self._first_of_source(metric):  # once per source and chunk
                        self._add_pairs(key, _rows(x), _rows(y))
                elif metric.kind == "delta":
                    v = np.hstack([x, y])
                    got = self.sums.setdefault(key, {"s": np.zeros(4), "ss": np.zeros((4, 4))})
                    got["s"] += v.sum(axis=0)
                    got["ss"] += v.T @ v
                else:
                    got = self.sums.setdefault(key, {"sx": 0.0, "sy": 0.0, "sxx": 0.0,
                                                     "syy": 0.0, "sdd": 0.0, "binary": True,
                                                     "table": np.zeros(4)})
                    d = y - x
                    got["sx"] += float(x.sum())
                    got["sy"] += float(y.sum())
                    got["sxx"] += float((x * x).sum())
                    got["syy"] += float((y * y).sum())
                    got["sdd"] += float((d * d).sum())
                    binary = bool(np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all())
                    got["binary"] = got["binary"] and binary
                    if got["binary"]:
                        got["table"] += [np.sum((x == 1) & (y == 1)), np.sum((x == 1) & (y == 0)),
                                         np.sum((x == 0) & (y == 1)), np.sum((x == 0) & (y == 0))]
        return self

    def merge(self, other: VariantsTally) -> VariantsTally:
        """Add a tally of other games of the same comparison (class docstring)."""
        if (other.players, list(other.names)) != (self.players, self.names):
            raise ValueError("cannot merge a comparison of other variants or players")
        if other.columns is None:
            return self
        if self.columns is None:
            self.columns = tuple(other.columns)
        elif tuple(other.columns) != self.columns:
            raise ValueError("cannot merge a comparison of frames with other columns")
        if other.n == 0:
            return self
        if self.centre is None:
            self.centre = other.centre
        self.n += other.n
        for metric in self.metrics:
            for name in self.names:
                key = (name, metric.source or metric.name) if metric.kind == "boot" else (
                    name, metric.name)
                theirs = other.sums[key]
                if metric.kind == "boot":
                    if metric is self._first_of_source(metric):
                        self._merge_pairs(key, *theirs)
                elif metric.kind == "delta":
                    s, ss = _recentre(theirs["s"], theirs["ss"], other.n,
                                      metric.statistic.keywords["seats"],
                                      self.centre - other.centre)
                    got = self.sums.setdefault(key, {"s": np.zeros(4), "ss": np.zeros((4, 4))})
                    got["s"] += s
                    got["ss"] += ss
                else:
                    got = self.sums.setdefault(key, {"sx": 0.0, "sy": 0.0, "sxx": 0.0,
                                                     "syy": 0.0, "sdd": 0.0, "binary": True,
                                                     "table": np.zeros(4)})
                    for k in ("sx", "sy", "sxx", "syy", "sdd"):
                        got[k] += theirs[k]
                    got["binary"] = got["binary"] and theirs["binary"]
                    if got["binary"]:
                        got["table"] += theirs["table"]
        return self

    def _first_of_source(self, metric: Metric) -> Metric:
        return next(m for m in self.metrics if (m.source or m.name) == (metric.source or
                                                                        metric.name))

    def _values(self, metric: Metric, frame: pd.DataFrame) -> np.ndarray:
        if metric.kind == "delta":
            return metric.values(frame, centre=self.centre)
        return metric.values(frame)

    def _add_pairs(self, key, x: np.ndarray, y: np.ndarray) -> None:
        """Count the chunk's distinct (base, variant) value pairs into the running table."""
        pairs, counts = np.unique(np.hstack([x, y]), axis=0, return_counts=True)
        if key in self.sums:
            old_pairs, old_counts, _ = self.sums[key]
            pairs, at = np.unique(np.vstack([old_pairs, pairs]), axis=0, return_inverse=True)
            counts = np.bincount(at.ravel(), weights=np.concatenate([old_counts, counts]))
            counts = counts.astype(np.int64)
        self.sums[key] = (pairs, counts, x.shape[1])

    def _merge_pairs(self, key, pairs: np.ndarray, counts: np.ndarray, width: int) -> None:
        """Add another tally's table of distinct value pairs (as :meth:`_add_pairs` adds a
        chunk's)."""
        if key in self.sums:
            old_pairs, old_counts, _ = self.sums[key]
            pairs, at = np.unique(np.vstack([old_pairs, pairs]), axis=0, return_inverse=True)
            counts = np.bincount(at.ravel(), weights=np.concatenate([old_counts, counts]))
            counts = counts.astype(np.int64)
        self.sums[key] = (pairs, counts, width)

    def answer(self, rules_text: Mapping[str, str] | None = None, base_label: str = "default",
               confidence: float = CONFIDENCE, n_boot: int = N_BOOT, seed: int = 0,
               meta: dict | None = None) -> VariantsAnswer:
        if self.n == 0:
            raise ValueError("no games to compare")
        z = z_value(confidence)
        metrics = self.metrics
        boot = _paired_bootstrap([m for m in metrics if m.kind == "boot"], self.sums,
                                 self.names, confidence, n_boot, seed)
        rows = []
        for name in self.names:
            for metric in metrics:
                if metric.kind == "mean":
                    row = _paired_mean(self.sums[(name, metric.name)], self.n, z)
                elif metric.kind == "delta":
                    row = _paired_delta(metric, self.sums[(name, metric.name)], self.n, z)
                else:
                    row = boot[(name, metric.name)]
                row = {**row, "base": row["base"] + metric.offset,
                       "value": row["value"] + metric.offset}
                rows.append({"variant": name, "rules": (rules_text or {}).get(name, name),
                             "metric": metric.name, "label": metric.label, "unit": metric.unit,
                             "kind": metric.kind, **row})
        return _answer(pd.DataFrame(rows), self.n, len(self.names), base_label, confidence,
                       n_boot, meta)


def _recentre(s: np.ndarray, ss: np.ndarray, n: int, seats: int,
              shift: float) -> tuple[np.ndarray, np.ndarray]:
    """The sums ``s`` and cross-products ``ss`` of n games' score moments (m0, m1 of the base,
    then of the variant: :func:`_score_moments`) about a centre c, moved to the centre
    c + ``shift``: per game m0' = m0 - P·shift and m1' = m1 - 2·shift·m0 + P·shift², an
    affine map v' = v A + b of each game's moments, so s' = s A + n b and
    ss' = A'·ss·A + (s A)'b + b'(s A) + n b'b. Whole-number scores and centres keep every
    term a whole number: the same sums as moments taken about c + shift to begin with."""
    if shift == 0:
        return s, ss
    step = np.array([[1.0, -2.0 * shift], [0.0, 1.0]])
    a = np.zeros((4, 4))
    a[:2, :2] = a[2:, 2:] = step
    b = np.array([-seats * shift, seats * shift * shift] * 2)
    sa = s @ a
    return sa + n * b, a.T @ ss @ a + np.outer(sa, b) + np.outer(b, sa) + n * np.outer(b, b)


@storable
@dataclass(frozen=True)
class VariantsParts:
    """One block's :class:`VariantsTally`, made where the block is played (a run's ``part``,
    kept in the run store): the block's frames under the base rules and under each variant
    in ``names`` order (a lockstep run's arms), tallied. Holds the question only."""

    players: int
    names: tuple[str, ...]

    # the version of what the run store keeps of a block (``simulate.store``): bump it when
    # what VariantsTally.add keeps changes
    store_version = 1

    def __call__(self, frames) -> VariantsTally:
        frames = list(frames)
        if len(frames) != 1 + len(self.names):
            raise ValueError(f"need the base and every variant's frame ({1 + len(self.names)}),"
                             f" got {len(frames)}")
        tally = VariantsTally(self.players, list(self.names))
        return tally.add(frames[0], dict(zip(self.names, frames[1:], strict=True)))

    def verify(self, result, games: int) -> None:
        """Refuse a stored block that cannot be this part's tally of ``games`` games: its
        type, variants, count, and every table's shape and counts."""
        if type(result) is not VariantsTally:
            raise ValueError("not a variants tally")
        if (result.players, result.names) != (self.players, list(self.names)):
            raise ValueError("a tally of other variants or players")
        if type(result.n) is not int or result.n != games:
            raise ValueError(f"it counts {result.n} games, not {games}")
        columns = result.columns
        if not isinstance(columns, tuple) or not all(isinstance(c, str) for c in columns):
            raise ValueError("its columns are not names")
        metrics = result.metrics
        if not isinstance(result.sums, dict):
            raise ValueError("its sums are not a table")
        keys = set()
        for metric in metrics:
            for name in self.names:
                if metric.kind == "boot":
                    key = (name, metric.source or metric.name)
                    keys.add(key)
                    _check_pairs(result.sums.get(key), games)
                elif metric.kind == "delta":
                    key = (name, metric.name)
                    keys.add(key)
                    got = result.sums.get(key)
                    if (not isinstance(got, dict) or set(got) != {"s", "ss"}
                            or not _array(got["s"], (4,)) or not _array(got["ss"], (4, 4))
                            or not isinstance(result.centre, float)):
                        raise ValueError(f"its score moments of {name} are not sums")
                else:
                    key = (name, metric.name)
                    keys.add(key)
                    _check_mean(result.sums.get(key), games)
        if set(result.sums) != keys:
            raise ValueError("its sums are not those of the metrics of its columns")


def _array(a, shape: tuple[int, ...]) -> bool:
    return isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == shape


def _check_pairs(got, games: int) -> None:
    """A table of distinct (base, variant) value pairs and their game counts, for ``games``."""
    if not isinstance(got, tuple) or len(got) != 3:
        raise ValueError("not a table of value pairs")
    pairs, counts, width = got
    if (type(width) is not int or width < 1 or not isinstance(pairs, np.ndarray)
            or pairs.ndim != 2 or pairs.shape[1] != 2 * width
            or not isinstance(counts, np.ndarray) or counts.dtype.kind != "i"
            or counts.shape != (pairs.shape[0],)):
        raise ValueError("its value pairs are not a table")
    if counts.size and (counts.min() < 1 or int(counts.sum()) != games):
        raise ValueError(f"its value pairs do not count {games} games")


def _check_mean(got, games: int) -> None:
    """A mean's paired sums (and the 2 x 2 table of a share), for ``games``."""
    names = {"sx", "sy", "sxx", "syy", "sdd", "binary", "table"}
    if not isinstance(got, dict) or set(got) != names:
        raise ValueError("not a mean's sums")
    if (any(not isinstance(got[k], float) for k in ("sx", "sy", "sxx", "syy", "sdd"))
            or not isinstance(got["binary"], bool) or not _array(got["table"], (4,))):
        raise ValueError("its sums are not numbers")
    if min(got["sxx"], got["syy"], got["sdd"]) < 0:
        raise ValueError("its sums of squares are below 0")
    if got["binary"] and (got["table"].min() < 0 or got["table"].sum() != games):
        raise ValueError(f"its 2 x 2 table does not count {games} games")


def _answer(table: pd.DataFrame, games: int, n_variants: int, base_label: str,
            confidence: float, n_boot: int, meta: dict | None) -> VariantsAnswer:
    # One family: every difference the answer holds (each metric of each variant), so a star
    # anywhere in any of its tables keeps the chance of a false one at 5% overall.
    table["p_holm"] = holm(table["p"].to_numpy())
    table["significant"] = table["p_holm"] < (1 - confidence)
    method = (f"Differences: variant minus base on the same {games:,} games (common random "
              f"numbers). Means: paired normal interval; shares of 0/1 outcomes such as capped "
              f"games: Newcombe's paired score interval (method 10) with McNemar's exact p, "
              f"which hold for rare events (a share with no event reads '0 of N (<= 3/N)', the "
              f"rule of three); medians, mid-medians and 90th percentiles: paired Poisson "
              f"bootstrap ({n_boot:,} resamples; percentile interval, and p from the same "
              f"replicates, so a star never contradicts its interval); the score spread: the "
              f"delta method on the paired per-game influence values. The median of whole "
              f"numbers moves in whole steps; the mid-median (Ma, Genton and Parzen 2011, the "
              f"median of the mid-distribution) moves whenever the distribution does, which "
              f"explains a median difference of 0 beside a moved mean. 'pairing gain' = "
              f"variance of the difference with independent samples / with paired ones. "
              f"Multiplicity: * marks a difference significant after Holm's step-down "
              f"adjustment over all {len(table):,} differences of this answer (every metric of "
              f"every variant; the chance of any false * is at most 5%). The intervals are 95% "
              f"each, not adjusted: one can exclude 0 without a *. No * is not evidence that a "
              f"variant changes nothing: the interval says how large a change the games can "
              f"rule out.")
    return VariantsAnswer(table, games, base_label, method, meta or {})


def _paired_bootstrap(metrics: list[Metric], tables: Mapping, names: list[str],
                      confidence: float, n_boot: int, seed: int) -> dict:
    """Bootstrap rows for every (variant, metric) of kind 'boot', from each variant's table
    of distinct (base, variant) value pairs and their game counts.

    The Poisson bootstrap: in each replicate every game gets a Poisson(1) weight, the same
    for its base and its variant outcome (paired). Games with the same pair of values are
    interchangeable, so a group of c games gets one Poisson(c) weight, the sum of theirs (the
    same distribution, far fewer draws). The pairing gain compares with ``N_BOOT_GAIN``
    independent replicates (base and variant weighed apart, each by its own values).
    """
    if not metrics:
        return {}
    rng = np.random.default_rng(seed)
    alpha = 1 - confidence
    by_source: dict[str, list[Metric]] = {}
    for m in metrics:
        by_source.setdefault(m.source or m.name, []).append(m)
    out = {}
    for v in names:
        for source, group in by_source.items():
            pairs, counts, width = tables[(v, source)]
            px, py = _flat(pairs[:, :width]), _flat(pairs[:, width:])
            paired = {m.name: np.empty(n_boot) for m in group}
            for lo, (w,) in _poisson_blocks(rng, (counts,), n_boot):
                for m in group:
                    paired[m.name][lo:lo + len(w)] = m.statistic(py, w) - m.statistic(px, w)
            (ux, cx), (uy, cy) = (_marginal(a, counts) for a in (pairs[:, :width],
                                                                 pairs[:, width:]))
            n_gain = min(n_boot, N_BOOT_GAIN)
            indep = {m.name: np.empty(n_gain) for m in group}
            for lo, (wx, wy) in _poisson_blocks(rng, (cx, cy), n_gain):
                for m in group:
                    indep[m.name][lo:lo + len(wx)] = (m.statistic(_flat(uy), wy)
                                                      - m.statistic(_flat(ux), wx))
            for m in group:
                b0, v0 = m.statistic(_flat(ux), cx), m.statistic(_flat(uy), cy)
                low, high, p = bootstrap_interval_and_p(paired[m.name], alpha)
                var_p, var_i = (float(np.nanvar(r, ddof=1)) if np.isfinite(r).sum() > 1
                                else math.nan for r in (paired[m.name], indep[m.name]))
                vrf = var_i / var_p if var_p > 0 else (math.inf if var_i > 0 else math.nan)
                out[(v, m.name)] = {"base": b0, "value": v0, "diff": v0 - b0, "low": low,
                                    "high": high, "p": p, "vrf": vrf}
    return out


def _marginal(rows: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of one side of the pairs and how many games have each."""
    values, at = np.unique(rows, axis=0, return_inverse=True)
    return values, np.bincount(at.ravel(), weights=counts, minlength=len(values)).astype(np.int64)


def _rows(values: np.ndarray) -> np.ndarray:
    return values.reshape(len(values), -1)


def _flat(rows: np.ndarray) -> np.ndarray:
    return rows[:, 0] if rows.shape[1] == 1 else rows


def _poisson_blocks(rng: np.random.Generator, counts: tuple[np.ndarray, ...], n: int):
    """``n`` replicates of Poisson(count) weights for each array of group sizes, in blocks of
    replicates small enough to keep memory flat: yields (first replicate, weight matrices)."""
    size = max(1, WEIGHT_CELLS // max(max(c.size for c in counts), 1))
    for lo in range(0, n, size):
        k = min(size, n - lo)
        yield lo, tuple(rng.poisson(c, size=(k, c.size)).astype(float) for c in counts)


def bootstrap_interval_and_p(reps: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """The percentile interval and a two-sided p-value from the same bootstrap replicates,
    so that the two can never disagree: p = 2 * min(share of replicates <= 0, share >= 0)
    (capped at 1), and the interval's ends are the order statistics k and B-1-k with
    k = ceil(alpha * B / 2) - 1; then p < alpha exactly when the interval excludes 0. For an
    integer statistic (a median of game lengths) replicates at exactly 0 count on both sides,
    so a difference of 0 is never 'significant'."""
    x = np.asarray(reps, dtype=float)
    # A resample that drew no game (possible only for a handful of games) is not a sample.
    x = np.sort(x[np.isfinite(x)])
    b = x.size
    if b == 0:
        return math.nan, math.nan, math.nan
    k = max(0, math.ceil(alpha * b / 2) - 1)
    low, high = float(x[k]), float(x[b - 1 - k])
    below, above = int(np.count_nonzero(x <= 0)), int(np.count_nonzero(x >= 0))
    return low, high, min(1.0, 2 * min(below, above) / b)


def _paired_mean(sums: dict, n: int, z: float) -> dict:
    """A mean's paired difference from the sums of x, y, their squares and the squared
    differences; 0/1 outcomes go to :func:`_paired_share`."""
    if sums["binary"]:
        return _paired_share(sums, n, z)
    mx, my = sums["sx"] / n, sums["sy"] / n
    diff = my - mx
    var_d = max(sums["sdd"] - n * diff * diff, 0.0) / (n - 1) if n > 1 else 0.0
    var_x = max(sums["sxx"] - n * mx * mx, 0.0) / (n - 1) if n > 1 else 0.0
    var_y = max(sums["syy"] - n * my * my, 0.0) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var_d / n)
    vrf = _gain(var_x + var_y, var_d)
    return {"base": mx, "value": my, "diff": diff, "low": diff - z * se, "high": diff + z * se,
            "p": _p_value(diff, se), "vrf": vrf}


def _paired_share(sums: dict, n: int, z: float) -> dict:
    """A share of 0/1 outcomes (capped games, a seat's outright wins): Newcombe's paired score
    interval and McNemar's exact p (``stats.paired_share_from_counts``), which hold for rare
    events where the paired normal interval claims certainty."""
    confidence = 2 * st.norm.cdf(z) - 1
    a, b, c, d = (float(v) for v in sums["table"])
    diff, p = paired_share_from_counts(a, b, c, d, confidence)
    mx, my = (a + b) / n, (a + c) / n
    var_d = ((b + c) - n * (my - mx) ** 2) / (n - 1) if n > 1 else 0.0
    var_x = n * mx * (1 - mx) / (n - 1) if n > 1 else 0.0
    var_y = n * my * (1 - my) / (n - 1) if n > 1 else 0.0
    return {"base": mx, "value": my, "diff": diff.estimate, "low": diff.low,
            "high": diff.high, "p": p, "vrf": _gain(var_x + var_y, max(var_d, 0.0))}


def _paired_delta(metric: Metric, sums: dict, n: int, z: float) -> dict:
    """The score spread compared by the delta method, from the sums and cross-products of
    the per-game moments (m0, m1) of base and variant: each SD's influence on a game is
    linear in its moments, phi = (m1 - mean m1) / (2 SD P) - mean a / (SD P) (m0 - mean m0)
    with a = m0 / P, so the variance of the paired difference is c' Cov c."""
    seats = metric.statistic.keywords["seats"]
    s, ss = sums["s"], sums["ss"]
    cov = (ss - np.outer(s, s) / n) / (n - 1) if n > 1 else np.zeros((4, 4))
    out, coef = [], []
    for k in (0, 2):  # base moments, then variant moments
        total = seats * n
        mean = s[k] / total
        var = max(s[k + 1] - total * mean * mean, 0.0) / max(total - 1, 1)
        sd = math.sqrt(var)
        out.append(sd)
        coef += ([-mean / (sd * seats), 1 / (2 * sd * seats)] if sd > 0 else [0.0, 0.0])
    b0, v0 = out
    c = np.array([-coef[0], -coef[1], coef[2], coef[3]])
    var_d = float(c @ cov @ c)
    var_indep = float(c[:2] @ cov[:2, :2] @ c[:2] + c[2:] @ cov[2:, 2:] @ c[2:])
    se = math.sqrt(max(var_d, 0.0) / n)
    diff = v0 - b0
    return {"base": b0, "value": v0, "diff": diff, "low": diff - z * se, "high": diff + z * se,
            "p": _p_value(diff, se), "vrf": _gain(var_indep, var_d)}


def _gain(var_indep: float, var_paired: float) -> float:
    """The pairing gain: variance of the difference with independent samples / paired."""
    if var_paired > 0:
        return var_indep / var_paired
    return math.inf if var_indep > 0 else math.nan


def _p_value(diff: float, se: float) -> float:
    if not math.isfinite(se):
        return math.nan
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return float(2 * st.norm.sf(abs(diff) / se))


def _fmt(x: float, unit: str, games: int | None = None) -> str:
    if not math.isfinite(x):
        return "-"
    if unit == "%" and x == 0 and games:
        return zero_share(games)
    if unit == "%":
        return f"{x:.2%}"
    if unit == "pp":
        return f"{x * 100:+.2f} pp"
    return f"{x:.2f}"


def _cell(r, with_ci: bool = True) -> str:
    unit = r["unit"]
    if unit in ("%", "pp"):
        text = f"{r['diff'] * 100:+.2f} pp"
        ci = f" [{r['low'] * 100:+.2f}, {r['high'] * 100:+.2f}]"
    else:
        text = f"{r['diff']:+.2f}"
        ci = f" [{r['low']:+.2f}, {r['high']:+.2f}]"
    return text + (ci if with_ci else "")


def _p(p: float) -> str:
    if not math.isfinite(p):
        return "-"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


def _plain(v):
    if isinstance(v, (np.floating, np.integer, np.bool_)):
        return v.item()
    return v
