"""The Rum Runner page of the balance report: are the printed score bands calibrated?

``build_page`` plays the planned runs (random, greedy and rollout under the
``standard`` rules and the ``long`` preset, fixed seeds), judges them with
``analyses.thresholds`` and returns the page HTML and its tables;
``reports.build`` writes them. ``render_page`` does the second half alone,
so a page can be made from results already on disk.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyses.thresholds import (
    DEFAULT_TARGET,
    EDGE_RULE_TEXT,
    METHOD_NOTE,
    PLACEMENT_NOTE,
    TYPO_NOTE,
    ThresholdsReport,
    achieved_split,
    printed_ranges,
    thresholds,
)
from engines import get_game
from engines.rum_runner.rules import BAND_LABELS, Rules
from reports import figures
from reports._runs import RunSpec, join_words, play, scaled
from reports.html import Page
from simulate.results import Results

GAME = "rum-runner"
FILENAME = "rum_runner.html"
TITLE = "Rum Runner: are the printed score bands calibrated?"
BLURB = "share of games in each printed score band per policy, and the edges a target split needs"

# Games per run at scale 1, sized for about 2 minutes on 2 cores. Measured on the fast
# path: random ~160k games/s, greedy ~60-70k/s, rollout (samples=16, which replays the
# game 16 times per option at every decision) only ~44/s standard and ~27/s long.
FAST_GAMES = 400_000
ROLLOUT_GAMES = 1_000
ROLLOUT_SAMPLES = 16
SEED = 1  # one seed for every run: each policy and preset plays the same deals
PRESETS = ("standard", "long")
POLICIES = ("random", "greedy", "rollout")
# "Calibrated" verdict: at most this share of games (percentage points) would have to
# change band for the printed bands to give the target split.
CALIBRATION_MARGIN_PP = 10.0
KEEP_COLUMNS = ("score_0", "band_0", "turns", "end_reason")


@dataclass
class PageOutput:
    """A built page: its file name, title, index blurb, HTML text and tables (CSV name -> frame)."""

    filename: str
    title: str
    blurb: str
    html: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    elapsed_s: float = 0.0


def plan(scale: float = 1.0) -> list[RunSpec]:
    """The runs of the page: every preset x policy, counts scaled (at least one game each)."""
    out = []
    for preset in PRESETS:
        for name in POLICIES:
            if name == "rollout":
                games = ROLLOUT_GAMES
                policy = "rollout" if ROLLOUT_SAMPLES == 16 else f"rollout:samples={ROLLOUT_SAMPLES}"
            else:
                games, policy = FAST_GAMES, name
            out.append(RunSpec(preset, policy, 1, scaled(games, scale), SEED,
                               f"{policy} ({preset})"))
    return out


def run_plan(specs: list[RunSpec], backend: str = "fast", progress: bool | None = None,
             workers: int | None = None) -> dict[str, Results]:
    """Play every planned run; label -> Results (frames cut to the columns the page uses)."""
    return play(get_game(GAME), specs, lambda c: c in KEEP_COLUMNS, backend, progress, workers)


def build_page(scale: float = 1.0, backend: str = "fast", progress: bool | None = None,
               workers: int | None = None, command: str = "rumsim report rum-runner --out DIR",
               target=DEFAULT_TARGET) -> PageOutput:
    """Run the plan at ``scale`` and render the page."""
    started = time.perf_counter()
    results = run_plan(plan(scale), backend=backend, progress=progress, workers=workers)
    return render_page(results, command=command, target=target, started=started)


def render_page(results: dict[str, Results], command: str, target=DEFAULT_TARGET,
                started: float | None = None) -> PageOutput:
    """The page for runs already made (label -> Results, meta may carry 'preset').

    ``started`` (a ``time.perf_counter()`` value) lets the page state how long
    the whole build took, simulations included.
    """
    report = thresholds(results, target=target)
    rules = report.rules
    presets = {label: res.meta.get("preset", res.meta.get("rules_changed", "default"))
               for label, res in results.items()}
    runs = report.runs.assign(preset=[presets[lab] for lab in report.labels])
    tables = {f"rum_runner_{name}.csv": frame for name, frame in report.tables().items()}
    tables["rum_runner_runs.csv"] = runs

    page = Page(TITLE, "rumsim balance report - Rum Runner (solo card game), spec sections 5.3 and 9.7")
    page.heading("The answer")
    for text in reading(report, presets):
        page.paragraph(text, css="answer")

    page.heading("How to read this page")
    page.paragraph(TYPO_NOTE)
    edges = ", ".join(str(e) for e in rules.score_band_edges)
    page.paragraph(f"Printed edges: {edges}; {EDGE_RULE_TEXT[rules.score_band_edge_rule]} "
                   f"(score_band_edge_rule={rules.score_band_edge_rule}).")
    split = "/".join(f"{t:g}" for t in report.target)
    page.paragraph(
        f"The target split {split} % (broke to god) is our yardstick for a calibrated score "
        f"table, not a rule: most games broke or poor, a few rich, very few gods. We call the "
        f"printed bands calibrated for a run when at most {CALIBRATION_MARGIN_PP:g}% of its games "
        f"would have to change band to give that split ('off target', the total variation "
        f"distance). Every figure is about the policy that played the games, not the game alone.")

    page.heading("Share of games in each printed band")
    for preset in dict.fromkeys(presets.values()):
        labels = [lab for lab in report.labels if presets[lab] == preset]
        scores = {lab: results[lab].frame["score_0"].to_numpy() for lab in labels}
        changed = results[labels[0]].meta.get("rules_changed", "default")
        page.figure(figures.score_distribution(scores, rules, f"Final scores, {preset} rules "
                                               f"({changed})"),
                    alt=f"score distribution, {preset} rules",
                    caption="Share of games per 5 points; shading marks the printed bands.")
        page.figure(figures.band_shares_chart(report.bands[report.bands["label"].isin(labels)],
                                              f"Share of games per printed band, {preset} rules"),
                    alt=f"band shares, {preset} rules",
                    caption="Bars: share of games; whiskers: 95% Wilson intervals.")
    page.table(bands_wide(report), caption="Share of games per band, % [95% Wilson interval]")

    page.heading("Where the printed edges sit")
    page.table(edges_wide(report), caption="Percentile of each printed edge: % of games scoring "
               "below it [95% interval]")

    page.heading("Edges that would give the target split")
    page.paragraph(PLACEMENT_NOTE, css="note")
    page.figure(figures.edges_chart(report.calibrated, rules,
                                    f"Printed edges vs edges for the target split {split} %"),
                alt="calibrated vs printed edges",
                caption="Dashed lines: printed edges. Points: the edge each run needs for the "
                        "target split, with its 95% interval.")
    page.table(calibrated_wide(report), caption="Calibrated edge [95% interval] -> % of games "
               "below it in this sample")

    page.heading("Scores")
    page.table(summary_table(report), caption="Final score and game length per run",
               formats={"SD": "{:.1f}", "mean turns": "{:.2f}", "off target (pp)": "{:.1f}"})

    page.heading("How this page was made")
    page.table(runs_table(runs), caption="Runs (each game of a run seeded from (seed, game index))",
               formats={"seconds": "{:.1f}"})
    first = next(iter(results.values())).meta
    versions = ", ".join(f"{k} {v}" for k, v in first.get("versions", {}).items())
    backends = ", ".join(sorted({str(r.meta.get("backend")) for r in results.values()}))
    page.bullets([
        f"Rules: the spec's defaults ('standard') and the 'long' preset "
        f"({Rules.PRESETS['long'][0]}); changed options are in the runs table.",
        f"Policies: {', '.join(dict.fromkeys(str(r.meta.get('policies', ['?'])[0]) for r in results.values()))}.",
        f"Seeds: {', '.join(str(s) for s in dict.fromkeys(runs['seed']))}; games: "
        f"{int(runs['games'].sum()):,} in all; backend: {backends}.",
        f"Simulation time: {runs['elapsed_s'].sum():,.1f} s"
        + (f"; whole page: {time.perf_counter() - started:,.1f} s." if started else "."),
        f"Versions: {versions}." if versions else "Versions: not recorded.",
        METHOD_NOTE,
    ])
    page.paragraph("Reproduce this page (same seeds, same numbers; the times will differ):")
    page.code(command)
    page.paragraph("Tables as CSV: " + ", ".join(sorted(tables)) + ".", css="note")
    elapsed = time.perf_counter() - started if started else 0.0
    return PageOutput(FILENAME, TITLE, BLURB, page.render(), tables, elapsed)


# ================================================================ the reading


def reading(report: ThresholdsReport, presets: dict[str, str]) -> list[str]:
    """A few plain sentences answering the question, computed from the tables."""
    bands = report.bands.set_index(["label", "band"])
    summary = report.summary.set_index("label")
    out = []
    for preset in dict.fromkeys(presets.values()):
        labels = [lab for lab in report.labels if presets[lab] == preset]
        broke = [f"{bands.loc[(lab, 0), 'share_pct']:.1f}% of {_policy(lab)} games" for lab in labels]
        high = {lab: sum(bands.loc[(lab, b), "share_pct"] for b in (3, 4, 5)) for lab in labels}
        best_lab = max(high, key=high.get)
        well_off = f"'{_name(3)}' ({report.rules.score_band_edges[2]} or more)"
        reach = (f"no game reaches {well_off}" if high[best_lab] == 0 else
                 f"{_policy(best_lab)} reaches {well_off} most often, in {high[best_lab]:.1f}% "
                 f"of its games")
        out.append(f"Under the {preset} rules, {join_words(broke)} end '{_name(0)}' (below "
                   f"{report.rules.score_band_edges[0]}); {reach}.")
    best = summary["target_distance_pct"].idxmin()
    dist = summary.loc[best, "target_distance_pct"]
    split = "/".join(f"{t:g}" for t in report.target)
    if dist <= CALIBRATION_MARGIN_PP:
        verdict = (f"Within our {CALIBRATION_MARGIN_PP:g}-point margin the printed bands are "
                   f"calibrated for {best}: only {dist:.1f}% of its games would have to change "
                   f"band to give the {split} split.")
    else:
        verdict = (f"The printed bands are not calibrated for any policy simulated here: even "
                   f"the closest fit, {best}, would need {dist:.1f}% of its games to change band "
                   f"to give the {split} split (our margin is {CALIBRATION_MARGIN_PP:g}%).")
    cal = report.calibrated[report.calibrated["label"] == best].sort_values("edge_index")
    printed = ", ".join(str(e) for e in report.rules.score_band_edges)
    needed = ", ".join(str(e) for e in cal["edge"])
    out.append(verdict + f" For {best} that split needs edges {needed} instead of {printed}.")
    shifts = []
    for lab in report.labels:
        for other in report.labels:
            if (presets[lab] == PRESETS[0] and presets[other] == PRESETS[1]
                    and _policy(lab) == _policy(other)):
                shifts.append(f"{_policy(lab)} {summary.loc[lab, 'mean']:.0f} -> "
                              f"{summary.loc[other, 'mean']:.0f}")
    if shifts:
        out.append(f"Mean score, {PRESETS[0]} -> {PRESETS[1]} rules: {'; '.join(shifts)}.")
    return out


def _name(band: int) -> str:
    return BAND_LABELS[band].rstrip(".")


def _policy(label: str) -> str:
    return label.split(" (")[0]


# ================================================================ wide tables for the page


def _ci(value: float, low: float, high: float, unit: str = "%") -> str:
    def f(x: float) -> str:
        if 0 < x < 0.01:
            return "<0.01"
        if 99.99 < x < 100:
            return ">99.99"
        return f"{x:.2f}"

    return f"{f(value)}{unit} [{f(low)}, {f(high)}]"


def bands_wide(report: ThresholdsReport) -> pd.DataFrame:
    """One row per band, one column per run: share % [interval]."""
    by = report.bands.set_index(["label", "band"])
    rows = []
    for band, (printed, label) in enumerate(zip(printed_ranges(report.rules), BAND_LABELS,
                                                strict=True)):
        row = {"score": printed, "band": label}
        for lab in report.labels:
            r = by.loc[(lab, band)]
            row[lab] = _ci(r["share_pct"], r["low_pct"], r["high_pct"])
        rows.append(row)
    return pd.DataFrame(rows)


def edges_wide(report: ThresholdsReport) -> pd.DataFrame:
    by = report.edges.set_index(["label", "edge_index"])
    rows = []
    for k, edge in enumerate(report.rules.score_band_edges):
        row = {"edge": edge, "between": by.loc[(report.labels[0], k + 1), "between"]}
        for lab in report.labels:
            r = by.loc[(lab, k + 1)]
            row[lab] = _ci(r["percentile"], r["low_pct"], r["high_pct"])
        rows.append(row)
    return pd.DataFrame(rows)


def calibrated_wide(report: ThresholdsReport) -> pd.DataFrame:
    by = report.calibrated.set_index(["label", "edge_index"])
    rows = []
    for k, edge in enumerate(report.rules.score_band_edges):
        first = by.loc[(report.labels[0], k + 1)]
        row = {"edge": first["between"], "target below": f"{first['target_below_pct']:g}%",
               "printed": edge}
        for lab in report.labels:
            r = by.loc[(lab, k + 1)]
            ci = ("" if np.isnan(r["edge_low"])
                  else f" [{r['edge_low']:g}, {r['edge_high']:g}]")
            forced = " (forced up)" if r["forced_up"] else ""
            row[lab] = f"{r['edge']}{ci} -> {r['achieved_below_pct']:.1f}%{forced}"
        rows.append(row)
    split = {"edge": "achieved split", "target below": "/".join(f"{t:g}" for t in report.target),
             "printed": ""}
    for lab in report.labels:
        got = achieved_split(report.calibrated[report.calibrated["label"] == lab])
        split[lab] = "/".join(f"{g:.1f}" for g in got)
    rows.append(split)
    return pd.DataFrame(rows)


def summary_table(report: ThresholdsReport) -> pd.DataFrame:
    rows = []
    for _, s in report.summary.iterrows():
        rows.append({
            "run": s["label"], "games": int(s["games"]),
            "mean [95% CI]": f"{s['mean']:.1f} [{s['mean_low']:.1f}, {s['mean_high']:.1f}]",
            "SD": s["sd"], "5% / 50% / 95%": f"{s['p5']:g} / {s['p50']:g} / {s['p95']:g}",
            "max": int(s["max"]), "mean turns": s.get("mean_turns", np.nan),
            "stranded": (_ci(s["stranded_pct"], s["stranded_low_pct"], s["stranded_high_pct"])
                         if "stranded_pct" in s else "-"),
            "off target (pp)": s["target_distance_pct"],
        })
    return pd.DataFrame(rows)


def runs_table(runs: pd.DataFrame) -> pd.DataFrame:
    return runs[["label", "policy", "preset", "rules", "seed", "games", "backend",
                 "elapsed_s"]].rename(columns={"rules": "rules changed", "elapsed_s": "seconds"})
