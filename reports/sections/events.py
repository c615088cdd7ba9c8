"""The events section: how often things happen in a game, per setting, with intervals.

Presents the registered ``events`` analysis for every run of the chosen
presets and policies: the page names the count columns to show per game
(``counts``: label, column) and the shares of events (``ratios``: label,
numerator column, denominator column); one table, settings as columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyses.events import METHOD, EventsTally
from reports.sections import SettingsSection


@dataclass(frozen=True)
class Events(SettingsSection):
    """Per-game event rates and event shares for the runs of ``presets`` and ``policies``."""

    counts: tuple[tuple[str, str], ...] = ()
    ratios: tuple[tuple[str, str, str], ...] = ()
    heading: str = "How often things happen"

    key = "events"

    def new_tally(self, info, meta: dict) -> EventsTally:
        return EventsTally(dict(self.counts),
                           {label: (num, den) for label, num, den in self.ratios})

    def analyse(self, info, results) -> pd.DataFrame:
        self.function(info)  # refuses a game the analysis does not apply to
        parts = [tally.answer().assign(
                     setting=name, preset=r.meta["preset"], players=int(r.meta["players"]),
                     policy=", ".join(dict.fromkeys(r.meta["policies"])))
                 for r, tally, name in self.compared(info, results)]
        return pd.concat(parts, ignore_index=True)

    def tables(self, answer: pd.DataFrame) -> dict[str, pd.DataFrame]:
        return {"events": answer}

    def write(self, page, answer: pd.DataFrame) -> None:
        page.heading(self.heading)
        wide = {"event": list(dict.fromkeys(answer["event"]))}
        for setting, part in answer.groupby("setting", sort=False):
            wide[setting] = [_cell(r) for r in part.itertuples(index=False)]
        page.table(pd.DataFrame(wide), caption="Per game: mean count [95% interval]; shares: "
                                               "% of the events named [95% interval]")

    def methods(self, answer) -> list[str]:
        return [METHOD]


def _cell(r) -> str:
    if r.kind == "share":
        if r.value != r.value:  # NaN: no event of the kind to share out
            return "no such event"
        return f"{100 * r.value:.1f}% [{100 * max(r.low, 0):.1f}, {100 * min(r.high, 1):.1f}]"
    if r.low != r.low:  # every game the same count: the games say nothing of the others
        return f"{r.value:.2f} (the same in all {r.games:,} games: no interval)"
    return f"{r.value:.2f} [{r.low:.2f}, {r.high:.2f}]"
