"""The score-composition section: which categories a player's points, and a winner's, come from.

Presents the registered ``composition`` analysis for every run of the chosen
presets and policies: one stacked bar per setting (a player's mean points by
category), a table of each category's mean for a player and for the winner
with intervals, and the same as CSV.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyses.composition import METHOD, CompositionTally
from reports import figures
from reports.sections import SettingsSection


@dataclass(frozen=True)
class Composition(SettingsSection):
    """Score by category for the runs of ``presets`` and ``policies`` (None: every run)."""

    unit: str = "points"
    heading: str = "Where the points come from"
    labels: tuple[tuple[str, str], ...] = ()  # category column name -> what the page calls it

    key = "composition"

    def new_tally(self, info, meta: dict) -> CompositionTally:
        return CompositionTally(int(meta["players"]))

    def analyse(self, info, results) -> pd.DataFrame:
        self.function(info)  # refuses a game the analysis does not apply to
        parts = [tally.answer().assign(
                     setting=name, preset=r.meta["preset"], players=int(r.meta["players"]))
                 for r, tally, name in self.compared(info, results)]
        out = pd.concat(parts, ignore_index=True)
        return out.assign(category=out["category"].replace(dict(self.labels)))

    def tables(self, answer: pd.DataFrame) -> dict[str, pd.DataFrame]:
        return {"composition": answer}

    def write(self, page, answer: pd.DataFrame) -> None:
        u = self.unit
        page.heading(self.heading)
        page.figure(figures.composition_bars(
            answer.rename(columns={"player": "value"}),
            f"A player's mean {u} by category", xlabel=f"mean {u} per player"),
            alt=f"stacked bars of a player's mean {u} by category, one bar per setting",
            caption=f"Each bar: a player's mean final {u}, split by category (negative "
                    "categories to the left of zero). Intervals in the table below.")
        wide = {}
        for setting, part in answer.groupby("setting", sort=False):
            for who in ("player", "winner"):
                wide[f"{setting}: {who}"] = [_cell(*r) for r in part[
                    [who, f"{who}_low", f"{who}_high"]].itertuples(index=False)]
        categories = list(dict.fromkeys(answer["category"]))
        page.table(pd.DataFrame({"category": categories, **wide}),
                   caption=f"Mean {u} by category for a player and for the winner [95% "
                           "interval]")

    def methods(self, answer) -> list[str]:
        return [METHOD]


def _cell(mean: float, low: float, high: float) -> str:
    if low != low:  # every game the same value: the games say nothing of the others
        return f"{mean:.1f} (the same in every game: no interval)"
    return f"{mean:.1f} [{low:.1f}, {high:.1f}]"
