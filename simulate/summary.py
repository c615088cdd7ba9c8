"""A run's outcome columns summarised for the terminal (table), a program (json) or a sheet (csv)."""

from __future__ import annotations

import json

import pandas as pd

from simulate.results import Results

SKIP = ("game", "players")
STATS = ("mean", "sd", "min", "p5", "p50", "p95", "max")


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
        q = col.quantile([0.05, 0.5, 0.95])
        rows.append({"column": name, "mean": col.mean(), "sd": col.std(ddof=1) if len(col) > 1 else 0.0,
                     "min": col.min(), "p5": q.iloc[0], "p50": q.iloc[1], "p95": q.iloc[2],
                     "max": col.max()})
    return pd.DataFrame(rows)


def headline(results: Results) -> str:
    m = results.meta
    rate = m["games"] / m["elapsed_s"] if m.get("elapsed_s") else float("nan")
    return (f"{m['game']}: {m['games']:,} games, seed {m['seed']}, players {m['players']}, "
            f"policy {', '.join(m['policies'])}, rules: {m['rules_changed']}; "
            f"{m['elapsed_s']:.2f} s ({rate:,.0f} games/s, {m['backend']}, "
            f"{m['workers']} thread{'s' if m['workers'] != 1 else ''})")


def partial_note(meta: dict) -> str | None:
    """What a run stopped by a signal played, or None for a run that finished."""
    if not meta.get("interrupted"):
        return None
    return (f"interrupted after {meta['games']:,} of {meta['requested']:,} games; these "
            "figures are for the games that finished")


def summarise(results: Results, fmt: str = "table") -> str:
    """The summary of every outcome column; a run stopped by a signal is marked as partial in
    every format (a first line in the table, a ``partial`` field in JSON, a ``partial``
    column in CSV)."""
    table = summary_frame(results)
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
