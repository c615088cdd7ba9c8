"""Matplotlib figures for the balance report, returned as PNG bytes.

Figures are drawn on bare ``Figure`` objects with the Agg canvas, never
through pyplot, so building a report never opens a window or touches global
plotting state (safe in threads, tests and headless machines).
"""

from __future__ import annotations

import io
from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from engines.rum_runner.rules import Rules

BAND_SHORT = ("broke", "poor", "modest", "well off", "rich", "god")
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
        ax.text((lo + hi) / 2, 0.98, BAND_SHORT[band].replace(" ", "\n"),
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
    ax.set_xticks(x, [f"{p}\n{s}" for p, s in zip(printed, BAND_SHORT, strict=True)])
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
