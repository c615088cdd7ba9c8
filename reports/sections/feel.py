"""The game-feel section: length, ties, close finishes, lead changes and comebacks per setting.

Presents the registered ``feel`` analysis (every ``feel.<metric>``) for the
runs of the chosen presets and policies: a figure of the comeback and
close-finish shares per setting, one table per player count (a row per
statistic, a column per policy), each figure with its 95% interval, and the
same as CSV (one tidy row per setting and statistic).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyses.feel import METRICS, FeelTally, feel
from reports import figures
from reports.sections import SettingsSection, policy_of


@dataclass
class FeelSetting:
    """One run's game-feel table."""

    preset: str
    policy: str
    players: int
    name: str
    table: pd.DataFrame
    meta: dict


def _cell(r) -> str:
    if r["unit"] == "share":
        return f"{100 * r['estimate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
    if r["low"] != r["low"]:  # every game the same value: nothing said of the others
        return f"{r['estimate']:.2f} (the same in every game: no interval)"
    # An unbounded end: too few games for an order statistic beyond the quantile.
    ends = [f"{x:.2f}" if abs(x) != float("inf") else "unbounded" for x in (r["low"], r["high"])]
    return f"{r['estimate']:.2f} [{ends[0]}, {ends[1]}]"


@dataclass(frozen=True)
class Feel(SettingsSection):
    """Game-feel metrics for the runs of ``presets`` and ``policies`` (None: every run).

    ``margin_prefix``: the per-seat column a margin is read from ('score');
    ``close``: the declared margin of a close game; ``unit``: what it counts.
    """

    margin_prefix: str = "score"
    close: float = 2.0
    unit: str = "points"

    key = "feel"

    def new_tally(self, info, meta: dict) -> FeelTally:
        return FeelTally(int(meta["players"]), self.margin_prefix, self.close)

    def analyse(self, info, results) -> list[FeelSetting]:
        self.function(info)  # refuses a game the analysis does not apply to
        return [FeelSetting(r.meta["preset"], policy_of(r.meta).split(":")[0],
                            int(r.meta["players"]), name,
                            feel(tally), r.meta)
                for r, tally, name in self.compared(info, results)]

    def tables(self, answer: list[FeelSetting]) -> dict[str, pd.DataFrame]:
        if not answer:
            return {}
        return {"feel": pd.concat([s.table.assign(preset=s.preset, policy=s.policy,
                                                  players=s.players, run=s.meta.get("label"))
                                   for s in answer], ignore_index=True)}

    def write(self, page, answer: list[FeelSetting]) -> None:
        page.heading("How the game feels")
        if not answer:
            page.paragraph("No run of this page feeds the game-feel metrics.", css="note")
            return
        order = {p: i for i, p in enumerate(self.policies or ())}
        answer = sorted(answer, key=lambda s: (s.players, order.get(s.policy, len(order))))
        dots = []
        for s in answer:
            t = s.table.set_index("statistic")
            for stat, short in (("won by a seat not leading at half time", "comeback"),
                                (f"decided by at most {self.close:g}", "close finish"),
                                ("lead changes per round boundary", "lead change / round")):
                if stat in t.index:
                    r = t.loc[stat]
                    dots.append({"label": f"{s.name}: {short}", "estimate": r["estimate"],
                                 "low": r["low"], "high": r["high"], "group": short})
        if dots:
            page.figure(figures.interval_dots(
                pd.DataFrame(dots), "Comebacks, close finishes and lead changes per setting",
                "share of games (lead changes: of round boundaries)", percent=True),
                alt="comeback, close-finish and lead-change shares per setting with intervals",
                caption=f"Dots: share; whiskers: 95% intervals. Comeback: won by a seat that "
                        f"was not the sole leader at half time. Close finish: the winner's "
                        f"margin at most {self.close:g} {self.unit}.")
        for players in dict.fromkeys(s.players for s in answer):
            part = [s for s in answer if s.players == players]
            stats = list(dict.fromkeys(st for s in part for st in s.table["statistic"]))
            frame = pd.DataFrame({"statistic": stats})
            for s in part:
                cells = {r["statistic"]: _cell(r) for _, r in s.table.iterrows()}
                frame[s.policy if len({x.preset for x in part}) == 1 else s.name] = [
                    cells.get(st, "") for st in stats]
            n = ", ".join(f"{s.meta.get('games', 0):,}" for s in part)
            page.table(frame, caption=f"{players} players: how the game feels, 95% intervals "
                                      f"(games: {n})")

    def methods(self, answer: list[FeelSetting]) -> list[str]:
        defs = "; ".join(f"{m.name}: {m.definition} ({m.source})" for m in METRICS)
        return [f"Game feel, per run: {defs}. Margins are in {self.unit} "
                f"({self.margin_prefix}_<seat>), a close game has a margin of at most "
                f"{self.close:g}. Standings after each round are each seat's running score "
                "(the outcome columns lead_changes and half_time_leader, recorded by both "
                "engine paths). Intervals hold at 20-30 games (slow policies give such runs). "
                "Means: Hall's skewness-corrected Student-t (the values are skewed); medians "
                "and 90th percentiles: distribution-free order-statistic intervals, an end "
                "unbounded when the games are too few for it (a 90th percentile's upper end "
                "under 36 games); shares: exact (Clopper-Pearson); lead changes per round "
                "boundary: Korn-Graubard (Clopper-Pearson at the effective number of "
                "boundaries, over games). Sources: C. Browne, Automatic Generation "
                "and Evaluation of Recombination Games, PhD thesis, QUT, 2008; the Ludii "
                "metrics (Ludii general game system, 2019-2022)."]
