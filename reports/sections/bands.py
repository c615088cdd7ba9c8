"""The score-bands section: how often games land in each printed band, and where the edges should be.

Presents the registered ``thresholds`` analysis (Rum Runner's printed score
bands) for every run: per preset, the score distribution and the share of
games per band; the percentile of each printed edge; the edges a target
split needs; and a summary of the scores. Its analysis tabulates the runs
itself, so that table is the page's runs table. The section reads each run
once into its accumulator (``analyses.thresholds.ThresholdsAccumulator``)
and keeps only that: the tables and the score figure come from its counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyses.thresholds import (
    DEFAULT_TARGET,
    METHOD_NOTE,
    OFF_TARGET_NOTE,
    PLACEMENT_NOTE,
    SKILL_METHOD_NOTE,
    SkillBands,
    ThresholdsAccumulator,
    ThresholdsReport,
    pct_ci,
    printed_ranges,
    skill_bands,
)
from engines.rum_runner.rules import BAND_NAMES
from reports import figures
from reports.sections import Section
from reports.words import player_label
from simulate.results import Results


def skill_players(info) -> dict[str, str]:
    """The skill levels a designer prints bands for, from the game's strength ladder
    (``extra["ladder"]``): beginner = greedy (the rules sheet's one-step player), expert,
    expert + search (the ladder's first search over the expert) and the best measured
    player (the ladder's top, when it is another player). Level -> policy label."""
    ladder = [info.policy(r) for r in info.extra["ladder"]]
    out = {"beginner": info.policy("greedy").label(), "expert": info.policy("expert").label()}
    search = [p for p in ladder if player_label(p).startswith("expert + search")]
    if search:
        out["expert + search"] = search[0].label()
    if ladder[-1].label() not in out.values():
        out["best measured"] = ladder[-1].label()
    return out


@dataclass
class Bands:
    """The thresholds report, each run's preset (label -> preset) and its accumulator."""

    report: ThresholdsReport
    presets: dict[str, str]
    accumulators: dict[str, ThresholdsAccumulator]
    # per preset: the edges per skill level (when the page declares its skill levels)
    skills: dict[str, SkillBands] = field(default_factory=dict)

    def labels_of(self, preset: str) -> list[str]:
        return [lab for lab in self.report.labels if self.presets[lab] == preset]


@dataclass(frozen=True)
class ScoreBands(Section):
    """Every run judged against the printed bands, and the edges that would give ``target``."""

    target: tuple[float, ...] = DEFAULT_TARGET
    # (level, policy label) weakest first: the runs of each preset whose policy is the
    # level's make the per-skill table (``skill_players``); none: no such table
    skills: tuple[tuple[str, str], ...] = ()

    key = "thresholds"

    def uses(self, meta: dict) -> str | None:
        return None if meta.get("together") else self.key  # not another section's lockstep runs

    def tally(self, info, meta: dict) -> ThresholdsAccumulator:
        return ThresholdsAccumulator()

    def analyse(self, info, results) -> Bands:
        thresholds = self.function(info)  # refuses a game the analysis does not apply to
        runs = {}
        for label, res in results.items():
            if getattr(res, "meta", {}).get("together"):  # another section's lockstep runs
                continue
            acc = (res if isinstance(res, ThresholdsAccumulator)
                   else ThresholdsAccumulator.of(res) if isinstance(res, Results)
                   else res.tallies[self.key])
            acc.meta = {**acc.meta, **getattr(res, "meta", {})}
            runs[label] = acc
        report = thresholds(runs, target=self.target)
        presets = {label: acc.meta.get("preset", acc.meta.get("rules_changed", "default"))
                   for label, acc in runs.items()}
        skills = {}
        for preset in dict.fromkeys(presets.values()):
            mine = {",".join(runs[lab].meta.get("policies", [])): lab for lab in runs
                    if presets[lab] == preset}
            levels = {level: mine[policy] for level, policy in self.skills if policy in mine}
            if levels:
                skills[preset] = skill_bands(
                    {level: runs[lab] for level, lab in levels.items()}, self.target,
                    rules=None, players={level: player_label(info.policy(policy))
                                         for level, policy in self.skills})
        return Bands(report, presets, runs, skills)

    def tables(self, b: Bands) -> dict[str, pd.DataFrame]:
        out = {name: frame for name, frame in b.report.tables().items() if name != "runs"}
        if b.skills:  # the edges per skill level, one row per preset and level
            out["skills"] = pd.concat([sb.table.assign(preset=preset)
                                       for preset, sb in b.skills.items()], ignore_index=True)
        return out

    def runs(self, b: Bands) -> tuple[pd.DataFrame, pd.DataFrame]:
        runs = b.report.runs.assign(preset=[b.presets[lab] for lab in b.report.labels])
        shown = runs[["label", "policy", "preset", "rules", "seed", "games", "backend",
                      "elapsed_s"]].rename(columns={"rules": "rules changed",
                                                    "elapsed_s": "seconds"})
        return runs, shown

    def write(self, page, b: Bands) -> None:
        report, rules = b.report, b.report.rules
        split = "/".join(f"{t:g}" for t in report.target)
        page.heading("Share of games in each printed band")
        for preset in dict.fromkeys(b.presets.values()):
            labels = b.labels_of(preset)
            scores = {lab: _scores(b.accumulators[lab]) for lab in labels}
            changed = b.accumulators[labels[0]].meta.get("rules_changed", "default")
            page.figure(figures.score_distribution(scores, rules, f"Final scores, {preset} rules "
                                                   f"({changed})"),
                        alt=f"score distribution, {preset} rules",
                        caption="Share of games per 5 points; shading marks the printed bands.")
            page.figure(figures.band_shares_chart(
                report.bands[report.bands["label"].isin(labels)],
                f"Share of games per printed band, {preset} rules"),
                alt=f"band shares, {preset} rules",
                caption="Bars: share of games; whiskers: 95% Wilson intervals.")
        page.table(bands_wide(report), caption="Share of games per band, % [95% Wilson interval]")

        page.heading("Where the printed edges sit")
        page.table(edges_wide(report), caption="Percentile of each printed edge: % of games "
                   "scoring below it [95% interval]")

        page.heading("Edges that would give the target split")
        page.paragraph(PLACEMENT_NOTE, css="note")
        page.figure(figures.edges_chart(report.calibrated, rules,
                                        f"Printed edges vs edges for the target split {split} %"),
                    alt="calibrated vs printed edges",
                    caption="Dashed lines: printed edges. Points: the edge each run needs for the "
                            "target split, with its 95% interval.")
        page.paragraph("The edges per run are those of the table at the top of the page "
                       "(per skill level); every run's are in the calibrated CSV.", css="note")

        page.heading("Scores")
        page.table(summary_table(report), caption="Final score and game length per run",
                   formats={"SD": "{:.1f}", "mean turns": "{:.2f}"})

    def methods(self, b: Bands) -> list[str]:
        return [METHOD_NOTE, OFF_TARGET_NOTE, *([SKILL_METHOD_NOTE] if b.skills else [])]


def _scores(acc: ThresholdsAccumulator) -> np.ndarray:
    """The run's scores in ascending order, rebuilt from its histogram for the figure (which
    bins them per 5 points; only the counts matter)."""
    return np.repeat(acc.scores.values, acc.scores.counts)


def band_name(band: int) -> str:
    """A band's one name (``engines.rum_runner.rules.BAND_NAMES``): 'broke'."""
    return BAND_NAMES[band]


# ---------------------------------------------------------------- wide tables: a column per run


def _per_run(report: ThresholdsReport, by: pd.DataFrame, key: int, value: str) -> dict[str, str]:
    """One run per column: ``value`` % [interval] of row ``key`` of each run."""
    return {lab: pct_ci(by.loc[(lab, key), value], by.loc[(lab, key), "low_pct"],
                        by.loc[(lab, key), "high_pct"]) for lab in report.labels}


def bands_wide(report: ThresholdsReport) -> pd.DataFrame:
    """One row per band, one column per run: share % [interval]."""
    by = report.bands.set_index(["label", "band"])
    return pd.DataFrame([{"score": printed, "band": label,
                          **_per_run(report, by, band, "share_pct")}
                         for band, (printed, label) in enumerate(zip(
                             printed_ranges(report.rules), BAND_NAMES, strict=True))])


def edges_wide(report: ThresholdsReport) -> pd.DataFrame:
    """One row per printed edge, one column per run: its percentile [interval]."""
    by = report.edges.set_index(["label", "edge_index"])
    return pd.DataFrame([{"edge": edge, "between": by.loc[(report.labels[0], k + 1), "between"],
                          **_per_run(report, by, k + 1, "percentile")}
                         for k, edge in enumerate(report.rules.score_band_edges)])


def summary_table(report: ThresholdsReport) -> pd.DataFrame:
    rows = []
    for _, s in report.summary.iterrows():
        rows.append({
            "run": s["label"], "games": int(s["games"]),
            "mean [95% CI]": f"{s['mean']:.1f} [{s['mean_low']:.1f}, {s['mean_high']:.1f}]",
            "SD": s["sd"], "5% / 50% / 95%": f"{s['p5']:g} / {s['p50']:g} / {s['p95']:g}",
            "max": int(s["max"]), "mean turns": s.get("mean_turns", np.nan),
            "stranded": (pct_ci(s["stranded_pct"], s["stranded_low_pct"], s["stranded_high_pct"])
                         if "stranded_pct" in s else "-"),
            "off target (pp) [95% CI]": (f"{s['target_distance_pct']:.1f} "
                                         f"[{s['target_distance_low_pct']:.1f}, "
                                         f"{s['target_distance_high_pct']:.1f}]"),
        })
    return pd.DataFrame(rows)
