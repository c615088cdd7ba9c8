"""Matplotlib figures for the balance report, returned as PNG bytes.

Figures are drawn on bare ``Figure`` objects with the Agg canvas, never
through pyplot, so building a report never opens a window or touches global
plotting state (safe in threads, tests and headless machines).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from engines.rum_runner.rules import BAND_NAMES, Rules

BAND_SHADES = ("#f3e0dc", "#f6ecd2", "#eef3d6", "#dcefe3", "#d8e9f3", "#e6def3")
DPI = 100


def to_png(fig: Figure) -> bytes:
    """Render a figure to PNG bytes."""
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    # No timestamps in the file, so the same numbers give the same bytes.
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


def _shade_bands(ax, rules: Rules, x_max: float) -> None:
    """Shade and name the printed bands behind a score axis."""
    edges = [min(0.0, ax.get_xlim()[0]), *rules.score_band_edges, x_max]
    for band in range(6):
        lo, hi = edges[band], edges[band + 1]
        ax.axvspan(lo, hi, color=BAND_SHADES[band], zorder=0, lw=0)
        ax.text((lo + hi) / 2, 0.98, BAND_NAMES[band].replace(" ", "\n"),
                transform=ax.get_xaxis_transform(), ha="center", va="top", fontsize=7,
                color="#555555")


def score_distribution(scores: Mapping[str, np.ndarray], rules: Rules, title: str,
                       bin_width: int = 5) -> bytes:
    """Step histograms (share of games per ``bin_width`` points) per run, printed bands shaded."""
    fig = Figure(figsize=(8, 3.6))
    ax = fig.add_subplot()
    top = max([int(np.max(s)) for s in scores.values() if len(s)] + [0])
    x_max = max(top + 2 * bin_width, rules.score_band_edges[-1] + 30)
    low = min([int(np.min(s)) for s in scores.values() if len(s)] + [0])
    ax.set_xlim(min(low, 0), x_max)
    _shade_bands(ax, rules, x_max)
    for label, s in scores.items():
        s = np.asarray(s, dtype=np.int64)
        if not s.size:
            continue
        start = (s.min() // bin_width) * bin_width
        counts = np.bincount((s - start) // bin_width)
        edges = start + bin_width * np.arange(counts.size + 1)
        share = 100 * counts / s.size
        ax.stairs(share, edges, label=f"{label} (n={s.size:,})", lw=1.6, zorder=2)
    ax.set_xlabel("final score")
    ax.set_ylabel(f"% of games per {bin_width} points")
    ax.set_title(title, fontsize=11)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.15)  # headroom for the band names
    ax.legend(fontsize=8, loc="upper right", bbox_to_anchor=(1, 0.88), frameon=False)
    return to_png(fig)


def band_shares_chart(bands: pd.DataFrame, title: str) -> bytes:
    """Grouped bars: share of games per printed band for each run, with 95% interval whiskers.

    ``bands`` is the long table of ``analyses.thresholds`` (label, band,
    printed, share_pct, low_pct, high_pct).
    """
    fig = Figure(figsize=(8, 3.6))
    ax = fig.add_subplot()
    labels = list(dict.fromkeys(bands["label"]))
    width = 0.8 / max(len(labels), 1)
    x = np.arange(6)
    for j, label in enumerate(labels):
        part = bands[bands["label"] == label].sort_values("band")
        share = part["share_pct"].to_numpy()
        err = np.vstack([share - part["low_pct"].to_numpy(), part["high_pct"].to_numpy() - share])
        ax.bar(x - 0.4 + width * (j + 0.5), share, width, yerr=np.clip(err, 0, None),
               capsize=2, label=label, error_kw={"lw": 0.8})
    printed = bands.drop_duplicates("band").sort_values("band")["printed"]
    ax.set_xticks(x, [f"{p}\n{s}" for p, s in zip(printed, BAND_NAMES, strict=True)])
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 105)
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=8, frameon=False)
    return to_png(fig)


def edges_chart(calibrated: pd.DataFrame, rules: Rules, title: str) -> bytes:
    """Calibrated edges (points with 95% interval bars) per run against the printed edges (lines)."""
    labels = list(dict.fromkeys(calibrated["label"]))
    fig = Figure(figsize=(8, 0.9 + 0.45 * len(labels)))
    ax = fig.add_subplot()
    for k, edge in enumerate(rules.score_band_edges):
        ax.axvline(edge, color=f"C{k}", ls="--", lw=1, zorder=1)
        ax.text(edge, 1.01, str(edge), transform=ax.get_xaxis_transform(), ha="center",
                va="bottom", fontsize=8, color=f"C{k}")
    for row, label in enumerate(labels):
        part = calibrated[calibrated["label"] == label].sort_values("edge_index")
        for k, (_, e) in enumerate(part.iterrows()):
            err = None
            if pd.notna(e["edge_low"]):
                err = [[max(e["edge"] - e["edge_low"], 0)], [max(e["edge_high"] - e["edge"], 0)]]
            ax.errorbar(e["edge"], row, xerr=err, fmt="o", color=f"C{k}", ms=5, capsize=3,
                        zorder=2, label=e["between"] if row == 0 else None)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xlabel("score (dashed: printed edges; points: edges giving the target split)")
    ax.set_title(title, fontsize=11, pad=14)
    # In figure coordinates, so the legend sits under the axis label whatever the height.
    fig.legend(fontsize=7, ncol=5, loc="upper center", bbox_to_anchor=(0.5, 0.0), frameon=False)
    return to_png(fig)


def _whole_counts(values) -> tuple[np.ndarray, np.ndarray]:
    """Every whole number from the least to the greatest value, and how often each occurs,
    from raw values or from a histogram (an object with ``values`` and ``counts``)."""
    if hasattr(values, "counts"):
        vals = np.asarray(values.values, dtype=np.int64)
        counts = np.asarray(values.counts, dtype=np.int64)
        seen = counts > 0
        vals, counts = vals[seen], counts[seen]
    else:
        vals, counts = np.unique(np.asarray(values, dtype=np.int64), return_counts=True)
    if not vals.size:
        return vals, counts
    steps = np.arange(vals.min(), vals.max() + 1)
    dense = np.zeros(steps.size, np.int64)
    dense[vals - vals.min()] = counts
    return steps, dense


def length_ecdf(lengths: Mapping[str, Any], title: str, xlabel: str = "rounds",
                base: str | None = None) -> bytes:
    """Empirical CDFs of a whole-number game length, one step line per run, on one axis.

    ``base`` (a key of ``lengths``) is drawn in black and thicker, so every
    variant reads against it. Dotted lines at 50% and 90% let the median and
    the 90th percentile be read off where each curve crosses them.
    """
    fig = Figure(figsize=(8, 4.2))
    ax = fig.add_subplot()
    colour = 0
    top = 1
    for label, values in lengths.items():
        steps, counts = _whole_counts(values)
        if not counts.sum():
            continue
        cum = np.cumsum(counts) / counts.sum()
        top = max(top, int(steps[np.searchsorted(cum, 0.995)]))
        median = int(steps[np.searchsorted(cum, 0.5)])  # the inverted-CDF median
        if label == base:
            style = {"color": "black", "lw": 2.4, "zorder": 3}
        else:
            style = {"color": f"C{colour}", "lw": 1.4, "zorder": 2}
            colour += 1
        # Start the curve at 0 one step before the shortest game, so it rises from the axis.
        ax.step(np.concatenate([[steps[0] - 1], steps]), 100 * np.concatenate([[0.0], cum]),
                where="post", label=f"{label} (median {median})", **style)
    for level in (50, 90):
        ax.axhline(level, color="#999999", ls=":", lw=0.8, zorder=1)
    ax.set_xlim(0, top + 1)
    ax.set_ylim(0, 101)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("% of games ended by then")
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=8, loc="lower right", frameon=False)
    return to_png(fig)


def win_share_panels(shares: pd.DataFrame, title: str, xlabel: str = "seat",
                     margin: float | None = None) -> bytes:
    """A grid of panels: win share per position (points, 95% interval whiskers), fair share dashed.

    ``shares`` is long: ``row`` (panel row name, e.g. a view), ``col`` (panel
    column name, e.g. '3 players'), ``x`` (seat or position), ``share``,
    ``low``, ``high`` and ``fair`` (fractions). Rows and columns keep the
    order in which they first appear; a missing (row, col) panel is left blank.
    ``margin`` (a fraction) shades fair ± margin, the band a "balanced" verdict needs.
    """
    rows = list(dict.fromkeys(shares["row"])) if "row" in shares else [None]
    cols = list(dict.fromkeys(shares["col"]))
    fig = Figure(figsize=(min(3.0 * len(cols) + 0.6, 16), 2.5 * len(rows) + 0.7))
    axes = fig.subplots(len(rows), len(cols), squeeze=False)
    for i, row in enumerate(rows):
        for j, col in enumerate(cols):
            ax = axes[i][j]
            part = shares[shares["col"] == col]
            if row is not None:
                part = part[part["row"] == row]
            if not len(part):
                ax.set_axis_off()
                continue
            x = part["x"].to_numpy()
            share = 100 * part["share"].to_numpy(dtype=float)
            err = np.vstack([share - 100 * part["low"].to_numpy(dtype=float),
                             100 * part["high"].to_numpy(dtype=float) - share])
            fair = 100 * float(part["fair"].iloc[0])
            # Points, not bars from zero: the question is the distance from the fair line,
            # often a point or two, which a zero-based bar would hide.
            ax.errorbar(np.arange(len(x)), share, yerr=np.clip(err, 0, None), fmt="o", ms=4,
                        capsize=3, color=f"C{i}", lw=1)
            ax.axhline(fair, color="black", ls="--", lw=0.9)
            if margin:
                ax.axhspan(fair - 100 * margin, fair + 100 * margin, color="#e8e8e8", lw=0,
                           zorder=0)
            ax.set_xticks(np.arange(len(x)), [str(v) for v in x], fontsize=8)
            ax.set_xlim(-0.6, len(x) - 0.4)
            # The shown range holds every whisker, the fair line and the margin band's edges.
            band = 125 * (margin or 0.0)
            low = min(float(np.nanmin(100 * part["low"].to_numpy(dtype=float))), fair - band)
            high = max(float(np.nanmax(100 * part["high"].to_numpy(dtype=float))), fair + band)
            pad = max(0.5, 0.1 * (max(high, fair) - min(low, fair)))
            ax.set_ylim(max(0.0, min(low, fair) - pad), min(100.0, max(high, fair) + pad))
            ax.tick_params(axis="y", labelsize=8)
            if i == 0:
                ax.set_title(str(col), fontsize=10)
            if i == len(rows) - 1:
                ax.set_xlabel(xlabel if row is None else "", fontsize=8)
            if j == 0:
                ax.set_ylabel("% won" if row is None else f"{row}\n% won", fontsize=9)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return to_png(fig)


def score_panels(panels: Mapping[str, Mapping[str, object]], title: str,
                 xlabel: str = "final score", ncols: int = 3) -> bytes:
    """Small multiples of step histograms: one panel per key, one line per series in it.

    A series is raw values or a counter of them (``values`` and ``counts`` arrays, e.g.
    :class:`analyses.scores.ValueCounts`), so a run that kept no rows draws the same
    figure. Each series is drawn as the share of its values per bin, so series of
    different sizes (one winner against P - 1 others) compare directly.
    """
    def counted(v) -> tuple[np.ndarray, np.ndarray]:
        # (distinct values, their counts) of a counter or of raw values.
        if hasattr(v, "values") and hasattr(v, "counts"):
            return np.asarray(v.values, dtype=float), np.asarray(v.counts, dtype=float)
        return np.unique(np.asarray(v, dtype=float).ravel(), return_counts=True)

    names = list(panels)
    nrows = max(1, -(-len(names) // ncols))
    fig = Figure(figsize=(3.0 * ncols + 0.6, 2.4 * nrows + 0.8))
    axes = fig.subplots(nrows, ncols, squeeze=False)
    for k, ax in enumerate(axes.flat):
        if k >= len(names):
            ax.set_axis_off()
            continue
        series = {label: counted(v) for label, v in panels[names[k]].items()}
        filled = [v for v, _ in series.values() if v.size]
        if filled:
            low = np.floor(min(v.min() for v in filled))
            high = np.ceil(max(v.max() for v in filled))
            width = max(1.0, np.ceil((high - low + 1) / 60))  # at most ~60 bins a panel
            edges = np.arange(low, high + width + 1, width) - 0.5
            for j, (label, (values, weights)) in enumerate(series.items()):
                size = weights.sum()
                if size:
                    counts, _ = np.histogram(values, edges, weights=weights)
                    mean = float(np.sum(values * weights)) / size
                    ax.stairs(100 * counts / size, edges, color=f"C{j}", lw=1.4,
                              label=f"{label} (mean {mean:.1f})")
        ax.set_title(names[k], fontsize=9)
        ax.tick_params(labelsize=8)
        ax.set_xlabel(xlabel, fontsize=8)
        if k % ncols == 0:
            ax.set_ylabel("% of scores", fontsize=8)
        ax.legend(fontsize=7, frameon=False)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return to_png(fig)


def composition_bars(parts: pd.DataFrame, title: str, xlabel: str = "mean points") -> bytes:
    """One horizontal stacked bar per setting: the mean points of each category.

    ``parts`` is long: ``setting``, ``category``, ``value`` (settings and
    categories keep the order in which they first appear). Negative
    categories (penalties) stack to the left of zero, the others to the right.
    """
    settings = list(dict.fromkeys(parts["setting"]))
    cats = list(dict.fromkeys(parts["category"]))
    fig = Figure(figsize=(8.0, 0.45 * len(settings) + 1.6))
    ax = fig.subplots()
    y = np.arange(len(settings))
    right = np.zeros(len(settings))
    left = np.zeros(len(settings))
    for j, cat in enumerate(cats):
        part = parts[parts["category"] == cat].set_index("setting")["value"]
        v = np.array([float(part.get(s, 0.0)) for s in settings])
        start = np.where(v >= 0, right, left)
        ax.barh(y, v, left=start, color=f"C{j % 10}", label=cat, height=0.7)
        right = right + np.where(v >= 0, v, 0)
        left = left + np.where(v < 0, v, 0)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y, settings, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel, fontsize=9)
    ax.tick_params(axis="x", labelsize=8)
    ax.legend(fontsize=7, frameon=False, ncols=min(len(cats), 8), loc="upper center",
              bbox_to_anchor=(0.5, -0.18 if len(settings) > 3 else -0.35))
    ax.set_title(title, fontsize=11)
    fig.tight_layout()
    return to_png(fig)


def edge_by_rung(rows: pd.DataFrame, title: str, small: bool = False,
                 band: float | None = None) -> bytes:
    """The first player's edge against the ladder's rung: one line of dots with 95% whiskers
    per player count (``rung``, ``label``, ``players``, ``estimate``, ``low``, ``high``),
    rungs weakest to strongest left to right, a dashed line at no edge and, with ``band``
    (a share), a grey band of ±band around it. Rung labels are wrapped, never cut.
    ``small``: the answer block's figure (one player count, no legend)."""
    import textwrap

    labels = list(dict.fromkeys(rows.sort_values("rung")["label"]))
    fig = Figure(figsize=(6.4, 3.0) if small else (7.0, 3.8))
    ax = fig.add_subplot()
    counts = sorted(rows["players"].unique())
    for i, p in enumerate(counts):
        part = rows[rows["players"] == p].sort_values("rung")
        # players side by side within a rung, so whiskers do not hide each other
        x = part["rung"].to_numpy(dtype=float) + 0.12 * (i - (len(counts) - 1) / 2)
        est, low, high = (100 * part[k].to_numpy(dtype=float) for k in ("estimate", "low", "high"))
        ax.errorbar(x, est, yerr=[est - low, high - est], fmt="o-", ms=4, lw=1, capsize=2,
                    color=f"C{i}", label=f"{p} players")
    ax.axhline(0.0, color="#777777", ls="--", lw=1)
    if band:
        ax.axhspan(-100 * band, 100 * band, color="#dddddd", alpha=0.5, lw=0)
    ax.set_xticks(range(len(labels)), ["\n".join(textwrap.wrap(t, 16)) for t in labels],
                  fontsize=7)
    ax.set_ylabel("edge (percentage points)")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", color="#e5e5e5")
    if len(counts) > 1:
        ax.legend(fontsize=7, loc="best")
    return to_png(fig)


def interval_dots(rows: pd.DataFrame, title: str, xlabel: str, reference: float | None = None,
                  percent: bool = False, width: float = 7.0, band: float | None = None) -> bytes:
    """Dots with 95% whiskers, one line per row (``label``, ``estimate``, ``low``, ``high``,
    and optionally ``group`` for the colour), top to bottom in the frame's order; a dashed
    line at ``reference`` (e.g. the fair share or no effect), shaded ±``band`` around it.
    ``percent`` shows shares as %."""
    scale = 100.0 if percent else 1.0
    n = len(rows)
    fig = Figure(figsize=(width, 0.9 + 0.32 * max(n, 1)))
    ax = fig.add_subplot()
    groups = list(dict.fromkeys(rows["group"])) if "group" in rows else [None]
    colours = {g: f"C{i}" for i, g in enumerate(groups)}
    y = np.arange(n)[::-1]
    for g in groups:
        part = rows["group"] == g if g is not None else np.ones(n, dtype=bool)
        est, low, high = (scale * rows.loc[part, k].to_numpy(dtype=float)
                          for k in ("estimate", "low", "high"))
        # Unbounded whiskers (a one-game interval) are drawn to the data's edge, not forever.
        low, high = np.where(np.isfinite(low), low, est), np.where(np.isfinite(high), high, est)
        ax.errorbar(est, y[np.asarray(part)], xerr=[est - low, high - est], fmt="o", ms=4,
                    capsize=2, color=colours[g], label=g)
    if reference is not None:
        ax.axvline(scale * reference, color="#777777", ls="--", lw=1)
        if band is not None:
            ax.axvspan(scale * (reference - band), scale * (reference + band), color="#dddddd",
                       zorder=0)
    ax.set_yticks(y, list(rows["label"]), fontsize=8)
    ax.set_xlabel(xlabel + (" (%)" if percent else ""))
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", color="#e5e5e5")
    if groups != [None] and len(groups) > 1:
        ax.legend(fontsize=7, loc="best")
    return to_png(fig)
