"""What does a rule variant really do? Paired comparison of variants against the base rules.

Every variant is played on the same seed and game indices as the base rules
(common random numbers: game ``i`` starts from the same world stream under
every variant), so each game gives a paired difference. For each variant and
each metric the answer is the base value, the variant value and their
difference with a 95% interval from the paired differences, plus the
variance-reduction factor pairing achieved against independent samples.

Metrics (each only where the game has the columns):

* game length: mean, median and 90th percentile of ``rounds`` and of ``turns``;
* share of games that hit the cap (``capped``, or ``truncated``);
* win share of every seat, and the first player's edge ``win_0 - 1/P``;
* score spread: the standard deviation of the final scores (all seats pooled).

Methods. Means and shares: paired differences d_i, interval mean(d) ± z·sd(d)/√n
(a share of 0/1 outcomes: Newcombe's 1998 paired score interval, method 10, and
McNemar's exact p-value, since the normal interval fails for rare events),
variance reduction (var x + var y) / var(x - y). Quantiles and the spread:
paired bootstrap over games (the same resampled games for base and variant),
percentile interval with its p-value from the same replicates (so a star
never contradicts its interval); variance reduction = bootstrap variance of the
difference under independent resampling / under paired resampling.
Several variants at once: for each metric, p-values are adjusted across the
variants with Holm's step-down method (family-wise error rate 5%).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as st

from analyses._text import text_table
from analyses.stats import CONFIDENCE, paired_share_difference, z_value

N_BOOT = 200


@dataclass(frozen=True)
class Metric:
    """One quantity compared between variants."""

    name: str
    label: str
    kind: str                                    # "mean" (paired t) or "boot" (paired bootstrap)
    values: Callable[[pd.DataFrame], np.ndarray]  # per-game values (for "boot": the columns used)
    # statistic(values, weights): weights are per-game bootstrap counts (all ones: the sample)
    statistic: Callable[[np.ndarray, np.ndarray], float] | None = None
    unit: str = ""                               # "" | "%" (shares) | "pp" (edges)


def metrics_for(frame: pd.DataFrame, players: int) -> list[Metric]:
    """The metrics a results frame supports, in reading order."""
    out: list[Metric] = []
    for col in ("rounds", "turns"):
        if col in frame:
            out += [
                Metric(f"{col}_mean", f"mean {col}", "mean", _col(col)),
                Metric(f"{col}_median", f"median {col}", "boot", _int_col(col),
                       lambda x, w: weighted_quantile(x, w, 0.5)),
                Metric(f"{col}_p90", f"90th percentile {col}", "boot", _int_col(col),
                       lambda x, w: weighted_quantile(x, w, 0.9)),
            ]
    # the flag of a game stopped by its length cap: 'capped' or (the spec's word) 'truncated'
    for col in ("capped", "truncated"):
        if col in frame:
            out.append(Metric("capped_share", "capped games", "mean", _col(col), unit="%"))
            break
    if players >= 2 and all(f"win_{s}" in frame for s in range(players)):
        fair = 1.0 / players
        out.append(Metric("first_player_edge", "first player's edge (win_0 - 1/P)", "mean",
                          lambda f, fair=fair: f["win_0"].to_numpy(dtype=float) - fair, unit="pp"))
        out += [Metric(f"win_{s}", f"seat {s} win share", "mean", _col(f"win_{s}"), unit="%")
                for s in range(players)]
    elif "win_0" in frame:
        out.append(Metric("win_0", "win share", "mean", _col("win_0"), unit="%"))
    scores = [f"score_{s}" for s in range(max(players, 1)) if f"score_{s}" in frame]
    if scores:
        out.append(Metric("score_spread", "score spread (SD of final scores)", "boot",
                          lambda f, cols=tuple(scores): f[list(cols)].to_numpy(dtype=float),
                          weighted_sd))
    return out


def weighted_quantile(x: np.ndarray, w: np.ndarray, q: float) -> float:
    """The q-quantile (inverse empirical CDF) of values x repeated w times."""
    if x.dtype.kind in "iu" and x.size and x.min() >= 0:
        # Game lengths are small whole numbers: counting beats sorting.
        cum = np.cumsum(np.bincount(x, weights=w))
        return float(np.searchsorted(cum, q * cum[-1], side="left"))
    order = np.argsort(x, kind="stable")
    cum = np.cumsum(w[order])
    k = np.searchsorted(cum, q * cum[-1], side="left")
    return float(x[order][min(k, len(x) - 1)])


def weighted_sd(x: np.ndarray, w: np.ndarray) -> float:
    """SD (n - 1 divisor) of the rows of x (all seats pooled), row i counted w[i] times."""
    ww = np.repeat(w[:, None], x.shape[1], axis=1) if x.ndim == 2 else w
    total = ww.sum()
    mean = (ww * x).sum() / total
    return float(math.sqrt((ww * (x - mean) ** 2).sum() / max(total - 1, 1)))


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
                     f"[95% CI]; * = survives Holm's correction across the variants.")
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
            f"{r['label']} {_fmt(r['base'], r['unit'])}" for _, r in base_rows.iterrows()
            if r["metric"] in {m for _, m, _ in SUMMARY}))
        if details:
            for variant, block in self.table.groupby("variant", sort=False):
                lines.append("")
                lines.append(f"{variant}  [{block['rules'].iloc[0]}]")
                rows = []
                for _, r in block.iterrows():
                    rows.append([r["label"], _fmt(r["base"], r["unit"]),
                                 _fmt(r["value"], r["unit"]), _cell(r),
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
    ("p90 rounds", "rounds_p90", False),
    ("mean turns", "turns_mean", True),
    ("median turns", "turns_median", False),
    ("p90 turns", "turns_p90", False),
    ("capped", "capped_share", False),
    ("first-player edge", "first_player_edge", True),
    ("win share", "win_0", True),
    ("score spread", "score_spread", True),
)
# Shown only when the metric in brackets is absent (keeps the table narrow).
SUMMARY_UNLESS = {"turns_median": "rounds_median", "turns_p90": "rounds_p90",
                  "win_0": "first_player_edge"}


def compare(base: pd.DataFrame, variants: Mapping[str, pd.DataFrame], players: int,
            rules_text: Mapping[str, str] | None = None, base_label: str = "default",
            confidence: float = CONFIDENCE, n_boot: int = N_BOOT, seed: int = 0,
            meta: dict | None = None) -> VariantsAnswer:
    """Compare each variant frame with the base frame, game by game (rows must pair up)."""
    if not variants:
        raise ValueError("no variants to compare with the base rules")
    z = z_value(confidence)
    metrics = metrics_for(base, players)
    for name, frame in variants.items():
        if len(frame) != len(base) or not np.array_equal(frame["game"].to_numpy(),
                                                          base["game"].to_numpy()):
            raise ValueError(f"variant '{name}' was not played on the same games as the base")
    boot = _paired_bootstrap([m for m in metrics if m.kind == "boot"], base, variants,
                             confidence, n_boot, seed)
    rows = []
    for name, frame in variants.items():
        for metric in metrics:
            if metric.kind == "mean":
                row = _paired_mean(metric.values(base), metric.values(frame), z)
            else:
                row = boot[(name, metric.name)]
            rows.append({"variant": name, "rules": (rules_text or {}).get(name, name),
                         "metric": metric.name, "label": metric.label, "unit": metric.unit,
                         "kind": metric.kind, **row})
    table = pd.DataFrame(rows)
    table["p_holm"] = np.nan
    for _, idx in table.groupby("metric", sort=False).groups.items():
        table.loc[idx, "p_holm"] = holm(table.loc[idx, "p"].to_numpy())
    table["significant"] = table["p_holm"] < (1 - confidence)
    method = (f"Differences: variant minus base on the same {len(base):,} games (common random "
              f"numbers). Means and shares: paired normal interval (a share of 0/1 outcomes such as "
              f"capped games: Newcombe's paired score interval, method 10, with McNemar's exact "
              f"p, which hold for rare events); medians, 90th percentiles and "
              f"the score spread: paired Poisson bootstrap ({n_boot} resamples; percentile "
              f"interval, and its p-value from the same replicates, so a star never contradicts "
              f"its interval). 'pairing gain' = variance of the difference with independent samples "
              f"/ with paired ones. Holm p: adjusted across the {len(variants)} variant(s) for "
              f"each metric (Holm step-down, family-wise 5%); * marks a difference that "
              f"survives it.")
    return VariantsAnswer(table, len(base), base_label, method, meta or {})


def _paired_bootstrap(metrics: list[Metric], base: pd.DataFrame,
                      variants: Mapping[str, pd.DataFrame], confidence: float, n_boot: int,
                      seed: int) -> dict:
    """Bootstrap rows for every (variant, metric) of kind 'boot'.

    Poisson(1) weights per game stand in for resampling (the Poisson
    bootstrap): the paired replicate weighs base and variant with the same
    weights, the independent one with two different sets.
    """
    if not metrics:
        return {}
    rng = np.random.default_rng(seed)
    n = len(base)
    ones = np.ones(n)
    xs = {m.name: m.values(base) for m in metrics}
    ys = {(v, m.name): m.values(f) for v, f in variants.items() for m in metrics}
    paired = {key: np.empty(n_boot) for key in ys}
    indep = {key: np.empty(n_boot) for key in ys}
    for b in range(n_boot):
        w1 = rng.poisson(1.0, n).astype(float)
        w2 = rng.poisson(1.0, n).astype(float)
        for m in metrics:
            base_stat = m.statistic(xs[m.name], w1)
            for v in variants:
                y = ys[(v, m.name)]
                paired[(v, m.name)][b] = m.statistic(y, w1) - base_stat
                indep[(v, m.name)][b] = m.statistic(y, w2) - base_stat
    alpha = 1 - confidence
    out = {}
    for (v, name), reps in paired.items():
        m = next(mm for mm in metrics if mm.name == name)
        b0 = m.statistic(xs[name], ones)
        v0 = m.statistic(ys[(v, name)], ones)
        low, high, p = bootstrap_interval_and_p(reps, alpha)
        var_p, var_i = float(reps.var(ddof=1)), float(indep[(v, name)].var(ddof=1))
        vrf = var_i / var_p if var_p > 0 else (math.inf if var_i > 0 else math.nan)
        out[(v, name)] = {"base": b0, "value": v0, "diff": v0 - b0, "low": low,
                          "high": high, "p": p, "vrf": vrf}
    return out


def bootstrap_interval_and_p(reps: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """The percentile interval and a two-sided p-value from the same bootstrap replicates,
    so that the two can never disagree: p = 2 * min(share of replicates <= 0, share >= 0)
    (capped at 1), and the interval's ends are the order statistics k and B-1-k with
    k = ceil(alpha * B / 2) - 1; then p < alpha exactly when the interval excludes 0. For an
    integer statistic (a median of game lengths) replicates at exactly 0 count on both sides,
    so a difference of 0 is never 'significant'."""
    x = np.sort(np.asarray(reps, dtype=float))
    b = x.size
    k = max(0, math.ceil(alpha * b / 2) - 1)
    low, high = float(x[k]), float(x[b - 1 - k])
    below, above = int(np.count_nonzero(x <= 0)), int(np.count_nonzero(x >= 0))
    return low, high, min(1.0, 2 * min(below, above) / b)


def _paired_mean(x: np.ndarray, y: np.ndarray, z: float) -> dict:
    if x.size and np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all():
        return _paired_share(x, y, z)
    n = x.size
    d = y - x
    diff = float(d.mean())
    var_d = float(d.var(ddof=1)) if n > 1 else 0.0
    se = math.sqrt(var_d / n) if n else math.nan
    var_indep = float(x.var(ddof=1) + y.var(ddof=1)) if n > 1 else 0.0
    vrf = var_indep / var_d if var_d > 0 else (math.inf if var_indep > 0 else math.nan)
    return {"base": float(x.mean()), "value": float(y.mean()), "diff": diff,
            "low": diff - z * se, "high": diff + z * se, "p": _p_value(diff, se), "vrf": vrf}


def _paired_share(x: np.ndarray, y: np.ndarray, z: float) -> dict:
    """A share of 0/1 outcomes (capped games, a seat's outright wins): Newcombe's paired score
    interval and McNemar's exact p (``stats.paired_share_difference``), which hold for rare
    events where the paired normal interval claims certainty."""
    confidence = 2 * st.norm.cdf(z) - 1
    diff, p = paired_share_difference(x, y, confidence)
    var_d = float((y - x).var(ddof=1)) if x.size > 1 else 0.0
    var_indep = float(x.var(ddof=1) + y.var(ddof=1)) if x.size > 1 else 0.0
    vrf = var_indep / var_d if var_d > 0 else (math.inf if var_indep > 0 else math.nan)
    return {"base": float(x.mean()), "value": float(y.mean()), "diff": diff.estimate,
            "low": diff.low, "high": diff.high, "p": p, "vrf": vrf}


def _p_value(diff: float, se: float) -> float:
    if not math.isfinite(se):
        return math.nan
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return float(2 * st.norm.sf(abs(diff) / se))


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


def _fmt(x: float, unit: str) -> str:
    if not math.isfinite(x):
        return "-"
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
