"""How the winners score against the others: final scores, the winner's lead and game length.

For one multi-player run: each game's top score (the winner's), the scores
of every player who did not win or share the win, the top score's lead over
the second, and the game length, with a summary row (means with a normal
95% interval for the winners, 10th and 90th percentiles, the share of games
whose top score is tied).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyses.stats import CONFIDENCE, z_value


@dataclass
class ScoresAnswer:
    """The scores of one run, split into winners and others."""

    winner: np.ndarray   # each game's top score
    others: np.ndarray   # the scores of every player who did not win or share the win
    lead: np.ndarray     # top score minus the second score, per game
    rounds: np.ndarray   # game length in rounds

    def summary(self, confidence: float = CONFIDENCE) -> dict:
        """Games, the winner's mean [interval] and 10%/90%, the others' too, lead, ties, rounds."""
        w, o = self.winner, self.others
        z = z_value(confidence)
        se = w.std(ddof=1) / np.sqrt(w.size) if w.size > 1 else np.nan
        return {"games": w.size, "winner_mean": w.mean(), "winner_low": w.mean() - z * se,
                "winner_high": w.mean() + z * se,
                "winner_p10": _quantile(w, 0.1), "winner_p90": _quantile(w, 0.9),
                "others_mean": o.mean() if o.size else np.nan,
                "others_p10": _quantile(o, 0.1), "others_p90": _quantile(o, 0.9),
                "lead_mean": self.lead.mean(),
                "tied_top_share": float(np.mean(self.lead == 0)),
                "rounds_mean": self.rounds.mean()}


def winners_and_others(frame: pd.DataFrame, players: int) -> ScoresAnswer:
    """The answer for a frame with ``score_<seat>``, ``win_<seat>`` and ``rounds`` columns."""
    if players < 2:
        raise ValueError("winners and others need a game of two or more players")
    scores = frame[[f"score_{s}" for s in range(players)]].to_numpy(dtype=float)
    wins = frame[[f"win_{s}" for s in range(players)]].to_numpy(dtype=float)
    top = np.sort(scores, axis=1)
    return ScoresAnswer(top[:, -1], scores[wins == 0], top[:, -1] - top[:, -2],
                        frame["rounds"].to_numpy())


def _quantile(x: np.ndarray, q: float) -> float:
    # The inverse empirical CDF: always a score that occurred, never an interpolation.
    return float(np.quantile(x, q, method="inverted_cdf")) if x.size else np.nan
