"""The variants section: what each rule variation does, against the base rules on the same games.

Presents the registered ``variants`` analysis for the runs at one player
count: the ``base`` preset and every other preset played there, on the same
seed (common random numbers). It shows the game length under each
variation (an ECDF figure and a table of values), the differences from the
base rules with intervals, and the pairing gain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analyses.thresholds import Histogram
from analyses.variants import VariantsAnswer, VariantsTally
from reports import figures
from reports.sections import Section, policy_names, policy_of

# The metrics of the difference and pairing tables: (heading, metric name in analyses.variants).
METRICS = (
    ("mean rounds", "rounds_mean"),
    ("median rounds", "rounds_median"),
    ("p90 rounds", "rounds_p90"),
    ("mean turns", "turns_mean"),
    ("capped", "capped_share"),
    ("first-player edge", "first_player_edge"),
    ("score spread", "score_spread"),
)
# The values table: metric -> (heading, shown in percent, format).
LEVELS = {
    "rounds_mean": ("mean rounds", False, "{:.2f}"),
    "rounds_median": ("median rounds", False, "{:.0f}"),
    "rounds_p90": ("p90 rounds", False, "{:.0f}"),
    "turns_mean": ("mean turns", False, "{:.1f}"),
    "capped_share": ("capped %", True, "{:.2f}"),
    "win_0": ("seat 0 wins %", True, "{:.2f}"),
    "score_spread": ("score spread", False, "{:.1f}"),
}


class VariantRuns:
    """The runs a variants section pairs (base first), fed one frame per run and block: the
    comparison's tally and each run's histogram of game length."""

    def __init__(self, players: int, names: list[str], length: str):
        self.names, self.length = names, length
        self.tally = VariantsTally(players, names[1:])
        self.lengths = {name: Histogram() for name in names}

    def add(self, frames) -> None:
        self.tally.add(frames[0], dict(zip(self.names[1:], frames[1:], strict=True)))
        for name, frame in zip(self.names, frames, strict=True):
            self.lengths[name].add(frame[self.length].to_numpy(dtype=np.int64))


@dataclass
class Comparison:
    """The variants answer, the runs it compared (preset -> run, base first) and each run's
    histogram of game length."""

    answer: VariantsAnswer
    runs: dict[str, Any]
    base: str
    players: int
    lengths: dict[str, Histogram]

    @property
    def names(self) -> list[str]:
        """The variations, in the order compared."""
        return list(dict.fromkeys(self.answer.table["variant"]))

    @property
    def policy(self) -> str:
        return policy_names([self.runs[self.base].meta])


@dataclass(frozen=True)
class Variants(Section):
    """The presets played at ``players`` players against the ``base`` preset (only the runs
    of ``policy``, a ``policy_of`` value, when the page also plays others there)."""

    base: str
    players: int
    policy: str | None = None
    length: str = "rounds"  # the outcome column the length figure shows ('turns' when every
    #                         game lasts its rounds)

    key = "variants"

    def members(self, metas: list[dict]) -> list[int]:
        """The runs compared, base first (indices into ``metas``)."""
        chosen = [i for i, m in enumerate(metas) if self.uses(m)]
        return sorted(chosen, key=lambda i: metas[i]["preset"] != self.base)

    def pairs(self, info, metas: list[dict]) -> list[tuple[list[int], VariantRuns]]:
        members = self.members(metas)
        if len(members) < 2 or metas[members[0]]["preset"] != self.base:
            return []
        return [(members, VariantRuns(self.players, [metas[i]["preset"] for i in members],
                                      self.length))]

    def analyse(self, info, results) -> Comparison:
        from reports._runs import tallied

        self.function(info)  # refuses a game the analysis does not apply to
        runs = tallied(info, (self,), results)
        at_p = {r.meta["preset"]: r for r in runs.values() if self.uses(r.meta)}
        if self.base not in at_p or len(at_p) < 2:
            raise ValueError(f"need the {self.base} rules and at least one variant at "
                             f"{self.players} players")
        base = at_p[self.base]
        paired: VariantRuns = base.tallies[self.key]
        at_p = {name: at_p[name] for name in paired.names}
        answer = paired.tally.answer(
            rules_text={name: at_p[name].meta["rules_changed"] for name in paired.names[1:]},
            base_label=f"{self.base} (the spec's defaults)", seed=int(base.meta["seed"]),
            meta=base.meta)
        return Comparison(answer, at_p, self.base, self.players, paired.lengths)

    def uses(self, meta: dict) -> str | None:
        if meta["players"] != self.players or (
                self.policy is not None and policy_of(meta) != self.policy):
            return None
        return f"{self.key} (base)" if meta["preset"] == self.base else self.key

    def tables(self, c: Comparison) -> dict[str, pd.DataFrame]:
        return {"variants": c.answer.table, "lengths": levels_table(c),
                self.length: rounds_distribution(c.lengths, self.length)}

    def write(self, page, c: Comparison) -> None:
        page.heading("Game length under each variation")
        n = self.length
        page.figure(figures.length_ecdf(c.lengths, f"{n.capitalize()} per game, {c.players} "
                                        f"players, {c.policy} policy ({c.answer.games:,} games "
                                        "each)", xlabel=n, base=c.base),
                    alt=f"ECDF of {n} per game for the {c.base} rules and every variation",
                    caption=f"Share of games that ended within each number of {n}; the black "
                            f"line is the {c.base} rules. Dotted lines: 50% (median) and 90% "
                            "(90th percentile).")
        page.table(levels_table(c).drop(columns=["games"]),
                   caption=f"Values per variation, {c.players} players",
                   formats={heading: fmt for heading, _, fmt in LEVELS.values()})

        page.heading(f"Differences from the {c.base} rules")
        page.table(by_metric(c, lambda v, m: c.answer.cell(v, m, with_ci=True)),
                   caption=f"Variation minus {c.base} [95% interval, unadjusted]; * = "
                           f"significant after Holm over all {len(c.answer.table)} differences "
                           "of the comparison (family-wise 5%)")
        t = c.answer.table.set_index(["variant", "metric"])
        page.table(by_metric(c, lambda v, m: _gain(t.loc[(v, m), "vrf"])),
                   caption="Pairing gain: variance of the difference with independent samples / "
                           "with the paired games (1.0x = pairing did not help)")

    def methods(self, c: Comparison) -> list[str]:
        return [c.answer.method]


def presets_table(info, base: str, names: list[str]) -> pd.DataFrame:
    """The base preset and each variation: the rulebook's words and the rules they change."""
    cls = info.rules_cls
    rows = [{"preset": base, "rulebook": cls.PRESETS[base][0], "rules changed": "-"}]
    for name in names:
        desc, overrides = cls.PRESETS.get(name, (name, {}))
        rows.append({"preset": name, "rulebook": desc,
                     "rules changed": cls.from_overrides(overrides).describe()})
    return pd.DataFrame(rows)


def levels_table(c: Comparison) -> pd.DataFrame:
    """One row per rules set (base first): the metric values themselves, not differences."""
    t = c.answer.table

    def values(block: pd.DataFrame, column: str) -> dict:
        b = block.set_index("metric")
        return {heading: b.loc[m, column] * (100 if percent else 1)
                for m, (heading, percent, _) in LEVELS.items() if m in b.index}

    rows = [{"rules": c.base, "games": c.answer.games,
             **values(t[t["variant"] == t["variant"].iloc[0]], "base")}]
    for variant, block in t.groupby("variant", sort=False):
        rows.append({"rules": variant, "games": c.answer.games, **values(block, "value")})
    return pd.DataFrame(rows)


def by_metric(c: Comparison, cell) -> pd.DataFrame:
    """One row per variation, one column per metric of ``METRICS`` it has: ``cell(v, m)``."""
    present = set(c.answer.table["metric"])
    return pd.DataFrame([{"variation": v, **{heading: cell(v, m) for heading, m in METRICS
                                              if m in present}}
                         for v in c.names])


def rounds_distribution(lengths: dict[str, Histogram], length: str = "rounds") -> pd.DataFrame:
    """Share of games ending at each length (``rounds``, or ``turns``), per rules set (the
    data behind the ECDF figure), from each run's histogram."""
    parts = []
    for name, hist in lengths.items():
        seen = hist.counts > 0
        counts, values = hist.counts[seen], hist.values[seen]
        parts.append(pd.DataFrame({"rules": name, length: values, "games": counts,
                                   "share": counts / counts.sum(),
                                   "cumulative": counts.cumsum() / counts.sum()}))
    return pd.concat(parts, ignore_index=True)


def _gain(vrf: float) -> str:
    return f"{vrf:.2f}x" if np.isfinite(vrf) else "-"
