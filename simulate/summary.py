"""A run's outcome columns summarised for the terminal (table), a program (json) or a sheet (csv).

Two ways to the same table: :func:`summary_frame` reads a results frame held in memory;
:class:`StreamSummary` takes a run's chunks one by one (``run(..., on_chunk=summary.add,
keep=False)``) and keeps per column only a histogram of its values (exact for whole-number
columns and for the few distinct values of a share column), its min and max, and its count,
mean and sum of squared deviations merged chunk by chunk (Chan et al.). From those come the
same counts, min/max and quantiles (numpy's linear interpolation between the two order
statistics, reproduced step for step) and the same mean and SD to floating-point rounding,
whatever the chunk size; its memory does not grow with the games.

A chunk's summary can also be made where the chunk is played and kept in the run store
(:class:`RunSummaryPart`, a storable tally: ``run(..., part=RunSummaryPart(),
on_part=summary.merge)``). ``StreamSummary.of(frame)`` is one chunk's summary, exact: its
histograms are never binned, whatever the cap (a chunk's distinct values are at most its
rows), and its mean is the chunk's own. ``add(frame)`` *is* ``merge(StreamSummary.of(frame))``,
so merging chunk summaries in chunk order gives, number for number, the summary that adding
their frames in that order gives: the same Chan combination of the same (n, mean, M2) in the
same order, and the same histogram, binned (past the cap) at the same points, since binning
happens only in the summary merged into and only after each chunk. (Had a chunk's summary
applied the cap itself, a chunk of more distinct values than the cap would be binned before
the merge where adding its rows would bin only their union: other bins.) Merging two
summaries of several chunks each combines their moments in the same way, to rounding.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simulate.codec import storable
from simulate.results import Results

SKIP = ("game", "players")
STATS = ("mean", "sd", "min", "p5", "p50", "p95", "max")
QUANTILES = (0.05, 0.5, 0.95)


def summary_frame(results: Results) -> pd.DataFrame:
    """One row per outcome column: mean, sd, min, 5/50/95th percentiles, max."""
    frame = results.frame
    rows = []
    for name in frame.columns:
        if name in SKIP:
            continue
        col = frame[name]
        if len(col) == 0:
            rows.append({"column": name, **{k: float("nan") for k in STATS}})
            continue
        q = col.quantile(list(QUANTILES))
        rows.append({"column": name, "mean": col.mean(), "sd": col.std(ddof=1) if len(col) > 1 else 0.0,
                     "min": col.min(), "p5": q.iloc[0], "p50": q.iloc[1], "p95": q.iloc[2],
                     "max": col.max()})
    return pd.DataFrame(rows)


DENSE_SPAN = 1 << 20  # a whole-number column's histogram is an array while its range fits
DISTINCT_CAP = 1 << 20  # distinct values a column keeps exactly; beyond, quantiles are binned


@storable
class _Histogram:
    """Counts of each value of one column, merged chunk by chunk.

    Whole numbers in a span up to ``DENSE_SPAN`` are counted in an array (``np.bincount``);
    other values as sorted (value, count) pairs. Past ``cap`` distinct pairs, neighbouring
    pairs are merged (into their count-weighted mean) and ``approximate`` is set: its
    quantiles are then near, not exact (no column of the current games comes near).
    ``cap=None``: never binned (one chunk's histogram, :meth:`of`)."""

    def __init__(self, integer: bool, cap: int | None = DISTINCT_CAP):
        self.integer = integer
        self.cap = cap
        self.offset: int | None = None  # dense: the value of counts[0]
        self.counts: np.ndarray | None = None
        self.values: np.ndarray | None = None  # sparse: sorted distinct values
        self.approximate = False

    @classmethod
    def of(cls, v: np.ndarray, integer: bool) -> _Histogram:
        """One chunk's values, exactly (never binned), as sorted (value, count) pairs: a
        chunk's histogram is kept as pairs, whatever its span, so a stored one holds no
        more numbers than the chunk has distinct values."""
        hist = cls(integer, cap=None)
        if len(v) == 0:
            return hist
        if integer:
            lo, hi = int(v.min()), int(v.max())
            if hi - lo < DENSE_SPAN:
                counts = np.bincount(v - lo, minlength=hi - lo + 1)
                used = np.flatnonzero(counts)
                hist.values = (used + lo).astype(np.int64)
                hist.counts = counts[used].astype(np.int64)
                return hist
        values, counts = np.unique(v, return_counts=True)
        hist.values, hist.counts = values, counts.astype(np.int64)
        return hist

    def add(self, v: np.ndarray) -> _Histogram:
        return self.merge(_Histogram.of(v, self.integer))

    def merge(self, other: _Histogram) -> _Histogram:
        """Add ``other``'s counts (another chunk's, or several chunks'): the same histogram as
        adding its values; binned past this one's cap as ``add`` bins."""
        if other.integer != self.integer:
            raise ValueError("a whole-number histogram merges only with another")
        self.approximate = self.approximate or other.approximate
        values, counts = other.pairs()
        if len(values) == 0:
            return self
        if self.integer and self.values is None and values.dtype.kind in "iu":
            lo, hi = int(values[0]), int(values[-1])
            start = lo if self.offset is None else min(lo, self.offset)
            end = hi if self.offset is None else max(hi, self.offset + len(self.counts) - 1)
            if end - start < DENSE_SPAN:
                if self.offset is None or start < self.offset or end >= self.offset + len(self.counts):
                    grown = np.zeros(end - start + 1, dtype=np.int64)
                    if self.offset is not None:
                        grown[self.offset - start:self.offset - start + len(self.counts)] = self.counts
                    self.offset, self.counts = start, grown
                self.counts[values - self.offset] += counts  # distinct values: one add each
                return self
            self._to_sparse()
        elif self.integer and self.values is None:
            self._to_sparse()  # binned counts (not whole numbers) go into pairs
        self._merge(values, counts)
        return self

    def _to_sparse(self) -> None:
        if self.counts is None:
            self.values, self.counts = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
            return
        used = np.flatnonzero(self.counts)
        self.values = (used + self.offset).astype(np.int64)
        self.counts = self.counts[used]

    def _merge(self, values: np.ndarray, counts: np.ndarray) -> None:
        if self.values is None:
            self.values, self.counts = values, counts
        else:
            both = np.concatenate([self.values, values])
            self.values, where = np.unique(both, return_inverse=True)
            merged = np.zeros(len(self.values), dtype=np.int64)
            np.add.at(merged, where, np.concatenate([self.counts, counts]))
            self.counts = merged
        while self.cap is not None and len(self.values) > self.cap:
            self.approximate = True
            even = len(self.values) - len(self.values) % 2
            v = self.values[:even].astype(np.float64).reshape(-1, 2)
            c = self.counts[:even].reshape(-1, 2)
            pairs = c.sum(axis=1)
            centre = (v * c).sum(axis=1) / pairs  # a pair becomes its count-weighted mean
            self.values = np.concatenate([centre, self.values[even:].astype(np.float64)])
            self.counts = np.concatenate([pairs, self.counts[even:]])

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """(distinct values, their counts), values ascending, no zero count."""
        if self.values is not None:
            return self.values, self.counts
        if self.counts is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        used = np.flatnonzero(self.counts)
        return (used + self.offset).astype(np.int64), self.counts[used]


def quantiles_from_counts(values: np.ndarray, counts: np.ndarray, qs=QUANTILES) -> list:
    """``np.quantile(x, qs)`` (method 'linear', as ``Series.quantile``) of the sample in which
    each ``values[i]`` occurs ``counts[i]`` times, from the counts alone: the same virtual
    index, the same two order statistics and the same interpolation, step for step."""
    n = int(counts.sum())
    cum = np.cumsum(counts)
    q = np.asarray(qs, dtype=np.float64)
    virtual = (n - 1) * q  # numpy's virtual index for method 'linear'
    previous = np.floor(virtual)
    following = previous + 1
    above = virtual >= n - 1
    previous[above], following[above] = n - 1, n - 1
    below = virtual < 0
    previous[below], following[below] = 0, 0
    previous, following = previous.astype(np.intp), following.astype(np.intp)
    gamma = virtual - np.where(above, -1, previous)  # numpy measures it from index -1 there
    a = values[np.searchsorted(cum, previous, side="right")]
    b = values[np.searchsorted(cum, following, side="right")]
    diff = b - a
    out = np.add(a, diff * gamma)
    np.subtract(b, diff * (1 - gamma), out=out, where=gamma >= 0.5, casting="unsafe")
    return [out[i] for i in range(len(q))]


@storable
class _Column:
    """One column's histogram, plus its count, mean and sum of squared deviations merged chunk
    by chunk (Chan et al.) and its min and max: what the table needs, whatever the rows."""

    def __init__(self, integer: bool, cap: int | None = DISTINCT_CAP):
        self.integer = integer
        self.rows = 0  # rows seen, missing values too (as len(col) counts them)
        self.hist = _Histogram(integer, cap)
        self.n = 0  # values seen (not missing), their mean and sum of squared deviations
        self.mean = 0.0
        self.m2 = 0.0
        self.lo = None
        self.hi = None

    @classmethod
    def of(cls, v: np.ndarray, integer: bool) -> _Column:
        """One chunk's column: its own count, mean and M2 (not yet combined with anything),
        min, max and exact histogram (:meth:`_Histogram.of`)."""
        col = cls(integer, cap=None)
        col.rows = len(v)
        if not integer:
            v = v[~np.isnan(v)]
        if len(v) == 0:
            return col
        col.n, col.mean = len(v), float(v.mean())
        col.m2 = float(((v - col.mean) ** 2).sum())
        col.lo, col.hi = v.min(), v.max()
        col.hist = _Histogram.of(v, integer)
        return col

    def add(self, v: np.ndarray) -> _Column:
        return self.merge(_Column.of(v, self.integer))

    def merge(self, other: _Column) -> _Column:
        """Combine ``other`` (a chunk's column, or several chunks'): Chan's pairwise update of
        the count, mean and M2, as ``add`` has always made it chunk by chunk."""
        if other.integer != self.integer:
            raise ValueError("a whole-number column merges only with another")
        self.rows += other.rows
        if other.n == 0:
            return self
        n = other.n
        total = self.n + n
        delta = other.mean - self.mean
        self.mean += delta * n / total
        self.m2 += other.m2 + delta * delta * self.n * n / total
        self.n = total
        lo, hi = other.lo, other.hi
        self.lo = lo if self.lo is None else min(self.lo, lo)
        self.hi = hi if self.hi is None else max(self.hi, hi)
        self.hist.merge(other.hist)
        return self

    def row(self, name: str) -> dict:
        if self.rows == 0 or self.n == 0:
            return {"column": name, **{k: float("nan") for k in STATS}}
        values, counts = self.hist.pairs()
        n = self.n
        if self.integer and not self.hist.approximate:
            # exact whole numbers: the mean is the exact sum over n (as pandas sums them), and
            # the variance is rounded once, at the end
            ints, c = [int(x) for x in values], [int(x) for x in counts]
            s1 = sum(ci * xi for ci, xi in zip(c, ints, strict=True))
            s2 = sum(ci * xi * xi for ci, xi in zip(c, ints, strict=True))
            mean = float(s1) / n
            sd = math.sqrt((n * s2 - s1 * s1) / (n * (n - 1))) if self.rows > 1 else 0.0
        else:
            mean = self.mean
            sd = math.sqrt(self.m2 / (n - 1)) if self.rows > 1 and n > 1 else 0.0
        q = quantiles_from_counts(values, counts)
        return {"column": name, "mean": mean, "sd": sd, "min": self.lo, "p5": q[0],
                "p50": q[1], "p95": q[2], "max": self.hi}


@storable
class StreamSummary:
    """The summary table of a run, built from its chunks as they finish (see the module
    docstring); ``add`` is an ``on_chunk`` callback, ``merge`` an ``on_part`` one (with
    :class:`RunSummaryPart`). ``cap=None``: never binned (one chunk's summary, :meth:`of`)."""

    def __init__(self, cap: int | None = DISTINCT_CAP):
        self.cap = cap
        self.columns: dict[str, _Column] = {}

    @classmethod
    def of(cls, frame: pd.DataFrame) -> StreamSummary:
        """One chunk's summary, exact (never binned): what :class:`RunSummaryPart` keeps."""
        summary = cls(cap=None)
        for name in frame.columns:
            if name in SKIP:
                continue
            values = frame[name].to_numpy()
            summary.columns[name] = _Column.of(values, values.dtype.kind in "iu")
        return summary

    def add(self, frame: pd.DataFrame) -> StreamSummary:
        return self.merge(StreamSummary.of(frame))

    def merge(self, other: StreamSummary) -> StreamSummary:
        """Add ``other``'s chunks after this one's: chunk summaries merged in chunk order
        equal, number for number, the summary of their frames added in that order."""
        for name, theirs in other.columns.items():
            col = self.columns.get(name)
            if col is None:
                col = self.columns[name] = _Column(theirs.integer, self.cap)
            col.merge(theirs)
        return self

    @property
    def approximate(self) -> list[str]:
        """The columns whose quantiles are binned (more distinct values than the cap)."""
        return [name for name, col in self.columns.items() if col.hist.approximate]

    def frame(self, columns=None) -> pd.DataFrame:
        """The table :func:`summary_frame` gives for the same rows; ``columns`` (a frame's
        column names) names and orders the rows, so a run with no finished chunk has them."""
        names = [c for c in (self.columns if columns is None else columns) if c not in SKIP]
        return pd.DataFrame([self.columns[name].row(name) if name in self.columns
                             else {"column": name, **{k: float("nan") for k in STATS}}
                             for name in names])


@storable
@dataclass(frozen=True)
class RunSummaryPart:
    """``rumsim run``'s tally of one block, made where the block is played (a run's
    ``part``): the block's exact summary (:meth:`StreamSummary.of`), merged in block order
    into the run's (``on_part=StreamSummary.merge``) and kept in the run store."""

    store_version = 1  # bump when what StreamSummary.of keeps changes

    def __call__(self, frame: pd.DataFrame) -> StreamSummary:
        return StreamSummary.of(frame)

    def verify(self, result, games: int) -> None:
        """Refuse a stored part that cannot be this part's result for ``games`` games: a
        block's summary, exact, of ``games`` rows in every column, its histograms sorted
        pairs that count its values."""
        if type(result) is not StreamSummary or set(vars(result)) != {"cap", "columns"}:
            raise ValueError("not a run summary")
        if result.cap is not None or type(result.columns) is not dict or not result.columns:
            raise ValueError("not one block's summary (binned, or no columns)")
        column_fields, hist_fields = set(vars(_Column(True))), set(vars(_Histogram(True)))
        for name, col in result.columns.items():
            if type(name) is not str or name in SKIP:
                raise ValueError(f"a column named {name!r}")
            if type(col) is not _Column or set(vars(col)) != column_fields:
                raise ValueError(f"column {name}: not a column summary")
            if type(col.integer) is not bool or type(col.rows) is not int \
                    or type(col.n) is not int:
                raise ValueError(f"column {name}: its kind or counts are not numbers")
            if col.rows != games:
                raise ValueError(f"column {name} counts {col.rows} rows, not {games}")
            if not 0 <= col.n <= games or (col.integer and col.n != games):
                raise ValueError(f"column {name} counts {col.n} values of {games} rows")
            if type(col.mean) is not float or type(col.m2) is not float or col.m2 < 0:
                raise ValueError(f"column {name}: its mean or M2 is not a number")
            hist = col.hist
            if type(hist) is not _Histogram or set(vars(hist)) != hist_fields \
                    or hist.integer is not col.integer or hist.cap is not None \
                    or hist.approximate is not False or hist.offset is not None:
                raise ValueError(f"column {name}: not one block's exact histogram")
            if col.n == 0:
                if col.lo is not None or col.hi is not None or hist.values is not None \
                        or hist.counts is not None:
                    raise ValueError(f"column {name}: counts values it does not have")
                continue
            values, counts = hist.values, hist.counts
            kind = "i" if col.integer else "f"
            if not isinstance(values, np.ndarray) or not isinstance(counts, np.ndarray) \
                    or values.ndim != 1 or values.shape != counts.shape or len(values) == 0 \
                    or values.dtype != np.dtype(f"{kind}8") or counts.dtype != np.int64:
                raise ValueError(f"column {name}: its histogram is not (value, count) pairs")
            if counts.min() < 1 or int(counts.sum()) != col.n \
                    or (len(values) > 1 and not (np.diff(values) > 0).all()):
                raise ValueError(f"column {name}: its histogram does not count its "
                                 f"{col.n} values")
            if not isinstance(col.lo, np.generic) or not isinstance(col.hi, np.generic) \
                    or col.lo.dtype != values.dtype or col.hi.dtype != values.dtype \
                    or col.lo != values[0] or col.hi != values[-1]:
                raise ValueError(f"column {name}: its min or max is not its histogram's")
            try:  # the merge the run will make, tried on a fresh column first
                _Column(col.integer).merge(col)
            except Exception as exc:  # noqa: BLE001 - any failure means it is not a column
                raise ValueError(f"column {name}: it does not merge ({type(exc).__name__})"
                                 ) from None


def headline(results: Results) -> str:
    m = results.meta
    rate = m["games"] / m["elapsed_s"] if m.get("elapsed_s") else float("nan")
    return (f"{m['game']}: {m['games']:,} games, seed {m['seed']}, players {m['players']}, "
            f"policy {', '.join(m['policies'])}, rules: {m['rules_changed']}; "
            f"{m['elapsed_s']:.2f} s ({rate:,.0f} games/s, {m['backend']}, "
            + (f"{m['workers']} thread{'s' if m['workers'] != 1 else ''})"
               if not m.get("where", "").startswith("Dask") else f"on {m['where']})"))


def partial_note(meta: dict) -> str | None:
    """What a run stopped by a signal played, or None for a run that finished."""
    if not meta.get("interrupted"):
        return None
    return (f"interrupted after {meta['games']:,} of {meta['requested']:,} games; these "
            "figures are for the games that finished")


def summarise(results: Results, fmt: str = "table", stream: StreamSummary | None = None) -> str:
    """The summary of every outcome column; a run stopped by a signal is marked as partial in
    every format (a first line in the table, a ``partial`` field in JSON, a ``partial``
    column in CSV). ``stream``: the run's chunks summarised as they came (the run kept no
    rows); otherwise the rows of ``results``."""
    table = (summary_frame(results) if stream is None
             else stream.frame(list(results.frame.columns) or None))
    partial = partial_note(results.meta)
    if fmt == "json":
        summary = table.astype(object).where(table.notna(), None)  # JSON has no NaN
        return json.dumps({**({"partial": partial} if partial else {}), "meta": results.meta,
                           "summary": summary.set_index("column").to_dict(orient="index")},
                          indent=2, default=float, allow_nan=False)
    if fmt == "csv":
        if partial:
            table.insert(0, "partial", True)
        return table.to_csv(index=False, float_format="%.6g").rstrip("\n")
    lines = [*([f"PARTIAL: {partial}"] if partial else []), headline(results), ""]
    width = max(len(c) for c in table["column"]) if len(table) else 6
    lines.append(f"{'column':<{width}} " + " ".join(f"{s:>9}" for s in STATS))
    for _, row in table.iterrows():
        lines.append(f"{row['column']:<{width}} " + " ".join(_cell(row[s]) for s in STATS))
    return "\n".join(lines)


def _cell(x: float) -> str:
    if x != x:
        return f"{'-':>9}"
    if float(x).is_integer() and abs(x) < 1e9:
        return f"{int(x):>9,}"
    return f"{x:>9.3f}"
