"""How the winners score against the others: final scores, the winner's lead and game length.

For one multi-player run: each game's top score (the winner's), the scores
of every player who did not win or share the win, the top score's lead over
the second, and the game length, with a summary row (means with a normal
95% interval for the winners, 10th and 90th percentiles, the share of games
whose top score is tied).

The answer keeps no rows: a :class:`ScoresTally` fed chunk by chunk keeps an
exact count of each distinct value of the four (:class:`ValueCounts`), which
is all the summary and the figures read, and tallies of disjoint games merge.
:func:`winners_and_others` is the tally fed the whole frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyses.stats import CONFIDENCE, Interval, order_statistic_ranks, z_value


class ValueCounts:
    """An exact sparse count of values: the distinct ``values`` seen (ascending) and their
    ``counts``. Not bins: every statistic below is what the raw values would give, and any
    chunking or merging of the same values leaves the same counter."""

    def __init__(self, values=(), counts=None):
        values = np.asarray(values, dtype=float).ravel()
        if counts is None:
            values, counts = np.unique(values, return_counts=True)
        self.values = values
        self.counts = np.asarray(counts, dtype=np.int64)

    def add(self, values) -> ValueCounts:
        """Count more values (any shape, none included)."""
        return self.merge(ValueCounts(values))

    def merge(self, other: ValueCounts) -> ValueCounts:
        """Add another counter's counts."""
        values, inverse = np.unique(np.concatenate([self.values, other.values]),
                                    return_inverse=True)
        counts = np.zeros(values.size, dtype=np.int64)
        np.add.at(counts, inverse.ravel(), np.concatenate([self.counts, other.counts]))
        # New arrays, never changed in place, so a copy may share them.
        self.values, self.counts = values, counts
        return self

    def copy(self) -> ValueCounts:
        return ValueCounts(self.values, self.counts)

    @property
    def size(self) -> int:
        """How many values were counted."""
        return int(self.counts.sum())

    def count(self, value: float) -> int:
        """How many times ``value`` was seen."""
        return int(self.counts[self.values == value].sum())

    def sum(self) -> float:
        return float(np.sum(self.values * self.counts))

    def mean(self) -> float:
        n = self.size
        return self.sum() / n if n else math.nan

    def std(self, ddof: int = 0) -> float:
        """The standard deviation (``ddof=1``: the sample SD), NaN without enough values."""
        n = self.size
        if n - ddof <= 0:
            return math.nan
        # Centred on the mean over the distinct values: no cancellation, as np.std.
        deviations = self.values - self.mean()
        return math.sqrt(float(np.sum(self.counts * deviations * deviations)) / (n - ddof))

    def quantile(self, q: float) -> float:
        """``np.quantile(values, q, method="inverted_cdf")`` of the counted values: the
        smallest value with at least a share q at or below it (NaN when empty)."""
        n = self.size
        if n == 0:
            return math.nan
        # numpy's rank, rounding included: ceil of the floating-point n * q, within 1..n.
        rank = min(max(math.ceil(n * q), 1), n)
        return float(self.values[np.searchsorted(np.cumsum(self.counts), rank)])

    def quantile_interval(self, q: float, confidence: float = CONFIDENCE) -> Interval:
        """The q-quantile (:meth:`quantile`) with its distribution-free order-statistic
        interval (``analyses.stats.order_statistic_ranks``), read off the counts."""
        n = self.size
        if n == 0:
            return Interval(math.nan, math.nan, math.nan)
        low, high = order_statistic_ranks(n, q, confidence)
        cum = np.cumsum(self.counts)

        def at(rank: int) -> float:
            return float(self.values[np.searchsorted(cum, rank)])

        return Interval(self.quantile(q), at(low), at(high))

    def min(self) -> float:
        return float(self.values[0]) if self.values.size else math.nan

    def max(self) -> float:
        return float(self.values[-1]) if self.values.size else math.nan

    def __repr__(self) -> str:
        return f"ValueCounts({self.size} values, {self.values.size} distinct)"


@dataclass
class ScoresAnswer:
    """The scores of one run, split into winners and others, as exact value counts."""

    winner: ValueCounts   # each game's top score
    others: ValueCounts   # the scores of every player who did not win or share the win
    lead: ValueCounts     # top score minus the second score, per game
    rounds: ValueCounts   # game length in rounds

    def summary(self, confidence: float = CONFIDENCE) -> dict:
        """Games, the winner's mean [interval] and 10%/90%, the others' too, lead, ties, rounds."""
        w, o = self.winner, self.others
        z = z_value(confidence)
        se = w.std(ddof=1) / math.sqrt(w.size) if w.size > 1 else np.nan
        games = self.lead.size
        return {"games": w.size, "winner_mean": w.mean(), "winner_low": w.mean() - z * se,
                "winner_high": w.mean() + z * se,
                "winner_p10": w.quantile(0.1), "winner_p90": w.quantile(0.9),
                "others_mean": o.mean(),
                "others_p10": o.quantile(0.1), "others_p90": o.quantile(0.9),
                "lead_mean": self.lead.mean(),
                "tied_top_share": self.lead.count(0) / games if games else np.nan,
                "rounds_mean": self.rounds.mean()}


class ScoresTally:
    """What a scores answer needs, fed chunk by chunk (frames with ``score_<seat>``,
    ``win_<seat>`` and ``rounds``): exact counts of the top score, the others' scores, the
    lead and the rounds. Memory follows the distinct values, not the games."""

    def __init__(self, players: int):
        if players < 2:
            raise ValueError("winners and others need a game of two or more players")
        self.players = players
        self.winner, self.others = ValueCounts(), ValueCounts()
        self.lead, self.rounds = ValueCounts(), ValueCounts()

    def add(self, frame: pd.DataFrame) -> ScoresTally:
        """Count a chunk of games."""
        seats = range(self.players)
        scores = frame[[f"score_{s}" for s in seats]].to_numpy(dtype=float)
        wins = frame[[f"win_{s}" for s in seats]].to_numpy(dtype=float)
        top = np.sort(scores, axis=1)
        self.winner.add(top[:, -1])
        self.others.add(scores[wins == 0])
        self.lead.add(top[:, -1] - top[:, -2])
        self.rounds.add(frame["rounds"].to_numpy(dtype=float))
        return self

    def merge(self, other: ScoresTally) -> ScoresTally:
        """Add another tally of the same question (games of other indices)."""
        if other.players != self.players:
            raise ValueError(f"cannot merge scores of {other.players} players into "
                             f"{self.players}")
        self.winner.merge(other.winner)
        self.others.merge(other.others)
        self.lead.merge(other.lead)
        self.rounds.merge(other.rounds)
        return self

    def answer(self) -> ScoresAnswer:
        # Copies: feeding the tally on must not change an answer already given.
        return ScoresAnswer(self.winner.copy(), self.others.copy(), self.lead.copy(),
                            self.rounds.copy())


def winners_and_others(frame: pd.DataFrame, players: int) -> ScoresAnswer:
    """The answer for a frame with ``score_<seat>``, ``win_<seat>`` and ``rounds`` columns:
    a :class:`ScoresTally` fed the whole frame (a run that keeps no rows feeds it chunk by
    chunk instead, with the same answer)."""
    return ScoresTally(players).add(frame).answer()
