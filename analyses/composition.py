"""Where the points come from: mean score per category, for every player and for the winner.

For one multi-player run of a game whose outcome row carries each seat's
points by category (``vp_<category>_<seat>``, declared by the game): per
category, the mean a player scores (each game's mean over its seats), the
mean the game's winner scores (win-weighted, so a shared win splits), and
the category's share of a player's total. Games are independent, so each
mean gets an interval over the per-game values: Hall's skewness-corrected
Student-t (points by category are skewed, a rare bonus most of all, and slow
policies give runs of 20-30 games, where the symmetric interval under-covered).

The answer keeps no rows: a :class:`CompositionTally` fed chunk by chunk keeps
per category the sums of the two per-game values, their squares and cubes, and
the sum of each game's total, and tallies of disjoint games merge.
:func:`composition` is the tally fed the whole frame.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from analyses.stats import CONFIDENCE, Interval, skewed_mean_interval_from_moments

METHOD = ("Score composition: per category, each game's mean over its seats (a player's "
          "points) and the win-weighted mean (the winner's points; a shared win splits), "
          "averaged over games with Hall's skewness-corrected Student-t 95% interval (games "
          "are independent; the seats of one game are not, so they are averaged first; "
          "points are skewed, and the symmetric interval did not hold at 20-30 games; none "
          "when every game gave the same value).")

NO_CATEGORIES = "the run has no vp_<category>_<seat> columns to break scores down by"


def categories(frame: pd.DataFrame) -> list[str]:
    """The categories the run's frame carries (``vp_<category>_0`` columns), in order."""
    return [m.group(1) for c in frame.columns if (m := re.fullmatch(r"vp_(.+)_0", c))]


class CompositionTally:
    """What :func:`composition` needs, fed chunk by chunk: the games and, per category, the
    sums of each game's seat total (P times its per-seat mean: whole points sum exactly as
    Python integers) and of each game's win-weighted value, of their squares and cubes, and
    the
    sum of each game's total over the categories. The categories are the first chunk's."""

    def __init__(self, players: int):
        self.players = players
        self.cats: list[str] | None = None  # known at the first chunk
        self.n = 0
        self.player: dict[str, list] = {}   # category -> [Σ seat total, its Σ², Σ³]
        self.winner: dict[str, list] = {}   # category -> [Σ win-weighted, its Σ², Σ³]
        self.total = 0                      # Σ over games and categories of the seat total

    def add(self, frame: pd.DataFrame) -> CompositionTally:
        """Count a chunk of games (the first names the categories)."""
        if self.cats is None:
            cats = categories(frame)
            if not cats:
                raise ValueError(NO_CATEGORIES)
            self.cats = cats
            self.player = {c: [0, 0, 0] for c in cats}
            self.winner = {c: [0.0, 0.0, 0.0] for c in cats}
        seats = range(self.players)
        wins = frame[[f"win_{s}" for s in seats]].to_numpy(dtype=float)
        self.n += len(frame)
        for c in self.cats:
            vp = frame[[f"vp_{c}_{s}" for s in seats]].to_numpy()
            if vp.dtype.kind not in "iub":
                vp = vp.astype(float)
            seat_total = vp.sum(axis=1)
            won = (vp * wins).sum(axis=1)
            _add(self.player[c], seat_total)
            _add(self.winner[c], won)
            self.total += _sum(seat_total)
        return self

    def merge(self, other: CompositionTally) -> CompositionTally:
        """Add another tally of the same question (games of other indices)."""
        if other.cats is None:
            return self
        if self.cats is None:
            self.cats = list(other.cats)
            self.player = {c: [0, 0, 0] for c in other.cats}
            self.winner = {c: [0.0, 0.0, 0.0] for c in other.cats}
        if other.cats != self.cats or other.players != self.players:
            raise ValueError("cannot merge score compositions of other categories or players")
        self.n += other.n
        for c in self.cats:
            self.player[c] = [a + b for a, b in zip(self.player[c], other.player[c], strict=True)]
            self.winner[c] = [a + b for a, b in zip(self.winner[c], other.winner[c], strict=True)]
        self.total += other.total
        return self

    def answer(self, confidence: float = CONFIDENCE) -> pd.DataFrame:
        """One row per category: player mean [low, high], winner mean [low, high], share."""
        if self.cats is None:
            raise ValueError(NO_CATEGORIES)
        n, p = self.n, self.players
        grand = self.total / (n * p) if n else float("nan")  # a player's mean total
        rows = []
        for c in self.cats:
            # The per-seat mean is the seat total / P: scale its interval, not the sums.
            seat = skewed_mean_interval_from_moments(n, *self.player[c], confidence)
            player = Interval(*(v / p for v in seat))
            winner = skewed_mean_interval_from_moments(n, *self.winner[c], confidence)
            rows.append({"category": c, "player": player.estimate, "player_low": player.low,
                         "player_high": player.high, "winner": winner.estimate,
                         "winner_low": winner.low, "winner_high": winner.high,
                         "share": player.estimate / grand if grand else float("nan"),
                         "games": n})
        return pd.DataFrame(rows)


def composition(frame: pd.DataFrame, players: int,
                confidence: float = CONFIDENCE) -> pd.DataFrame:
    """One row per category: player mean [low, high], winner mean [low, high], share of
    total. A :class:`CompositionTally` fed the whole frame."""
    return CompositionTally(players).add(frame).answer(confidence)


def _sum(values: np.ndarray):
    # Whole points as an exact Python integer; anything else as a float.
    return int(values.sum()) if values.dtype.kind in "iu" else float(values.sum())


def _add(sums: list, values: np.ndarray) -> None:
    """Add an array's sums of values, squares and cubes to ``sums`` = [Σ, Σ², Σ³], in
    place."""
    sums[0] += _sum(values)
    sums[1] += _sum(values * values)
    sums[2] += _sum(values * values * values)
