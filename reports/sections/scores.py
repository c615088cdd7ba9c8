"""The scores section: how the winners score against the others, per setting.

Presents the registered ``scores`` analysis for every run of the chosen
presets: a panel of score distributions per setting (winners and others),
a table of means, 10%-90% ranges, the lead over the runner-up, tied top
scores and game length, and the same as CSV.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyses.scores import ScoresAnswer, ScoresTally
from reports import figures
from reports.sections import SettingsSection, policy_names, policy_of


@dataclass
class ScoreSetting:
    """One run's scores."""

    preset: str
    players: int
    name: str
    scores: ScoresAnswer
    meta: dict


@dataclass(frozen=True)
class Scores(SettingsSection):
    """Winners' and others' scores for the runs of ``presets`` (None: every run).

    ``unit`` is what a score counts ('VP'); the panels stand in one column
    per player count.
    """

    unit: str = "points"

    key = "scores"

    def new_tally(self, info, meta: dict) -> ScoresTally:
        return ScoresTally(int(meta["players"]))

    def analyse(self, info, results) -> list[ScoreSetting]:
        self.function(info)  # refuses a game the analysis does not apply to
        return [ScoreSetting(r.meta["preset"], int(r.meta["players"]), name, tally.answer(),
                             r.meta) for r, tally, name in self.compared(info, results)]

    def tables(self, answer: list[ScoreSetting]) -> dict[str, pd.DataFrame]:
        return {"scores": summary_frame(answer)}

    def write(self, page, answer: list[ScoreSetting]) -> None:
        u = self.unit
        policy = policy_names(s.meta for s in answer)
        page.heading("Scores")
        page.figure(figures.score_panels(
            {s.name: {"winner": s.scores.winner, "others": s.scores.others} for s in answer},
            f"Final {u}, {policy} policy: the winner's and the others'", xlabel=f"final {u}",
            ncols=len({s.players for s in answer})),
            alt="score distributions of winners and others",
            caption=f"Share of scores per {u} (or per bin of {u}); 'winner' is each game's top "
                    "score, 'others' the scores of every player who did not win or share the win.")
        page.table(self.summary_table(answer), caption=f"Final {u} and game length per setting")

    def summary_table(self, answer: list[ScoreSetting]) -> pd.DataFrame:
        f = summary_frame(answer)
        u = self.unit
        return pd.DataFrame({
            "setting": [s.name for s in answer],
            "games": f["games"],
            f"winner {u} [95% CI]": [f"{m:.1f} [{lo:.1f}, {hi:.1f}]" for m, lo, hi
                                     in zip(f["winner_mean"], f["winner_low"], f["winner_high"],
                                            strict=True)],
            "winner 10%-90%": _ranges(f["winner_p10"], f["winner_p90"]),
            f"others {u}": f["others_mean"].round(1),
            "others 10%-90%": _ranges(f["others_p10"], f["others_p90"]),
            "lead over runner-up": f["lead_mean"].round(2),
            f"top {u} tied %": (100 * f["tied_top_share"]).round(2),
            "mean rounds": f["rounds_mean"].round(2),
        })

    def methods(self, answer: list[ScoreSetting]) -> list[str]:
        return [f"Mean {self.unit}: normal 95% interval."]


def summary_frame(answer: list[ScoreSetting]) -> pd.DataFrame:
    """One row per setting: preset, players and the analysis' summary."""
    return pd.DataFrame([{"preset": s.preset, "policy": policy_of(s.meta), "players": s.players,
                          **s.scores.summary()} for s in answer])


def _ranges(low: pd.Series, high: pd.Series) -> list[str]:
    return [f"{a:g}-{b:g}" for a, b in zip(low, high, strict=True)]
