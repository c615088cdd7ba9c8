"""Where the points come from: mean score per category, for every player and for the winner.

For one multi-player run of a game whose outcome row carries each seat's
points by category (``vp_<category>_<seat>``, declared by the game): per
category, the mean a player scores (each game's mean over its seats), the
mean the game's winner scores (win-weighted, so a shared win splits), and
the category's share of a player's total. Games are independent, so each
mean gets a Student-t interval over the per-game values.
"""

from __future__ import annotations

import re

import pandas as pd

from analyses.stats import CONFIDENCE, mean_interval

METHOD = ("Score composition: per category, each game's mean over its seats (a player's "
          "points) and the win-weighted mean (the winner's points; a shared win splits), "
          "averaged over games with a Student-t 95% interval (games are independent; the "
          "seats of one game are not, so they are averaged first).")


def categories(frame: pd.DataFrame) -> list[str]:
    """The categories the run's frame carries (``vp_<category>_0`` columns), in order."""
    return [m.group(1) for c in frame.columns if (m := re.fullmatch(r"vp_(.+)_0", c))]


def composition(frame: pd.DataFrame, players: int,
                confidence: float = CONFIDENCE) -> pd.DataFrame:
    """One row per category: player mean [low, high], winner mean [low, high], share of total."""
    cats = categories(frame)
    if not cats:
        raise ValueError("the run has no vp_<category>_<seat> columns to break scores down by")
    seats = range(players)
    wins = frame[[f"win_{s}" for s in seats]].to_numpy(dtype=float)
    rows = []
    totals = sum(frame[[f"vp_{c}_{s}" for s in seats]].to_numpy(dtype=float).mean(axis=1)
                 for c in cats)
    grand = float(totals.mean()) if len(frame) else float("nan")
    for c in cats:
        vp = frame[[f"vp_{c}_{s}" for s in seats]].to_numpy(dtype=float)
        player = mean_interval(vp.mean(axis=1), confidence)
        winner = mean_interval((vp * wins).sum(axis=1), confidence)
        rows.append({"category": c, "player": player.estimate, "player_low": player.low,
                     "player_high": player.high, "winner": winner.estimate,
                     "winner_low": winner.low, "winner_high": winner.high,
                     "share": player.estimate / grand if grand else float("nan"),
                     "games": len(frame)})
    return pd.DataFrame(rows)
