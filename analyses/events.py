"""How often things happen in a game: per-game rates of declared counts, and shares of events.

For one run: each named count column's mean per game with a Student-t
interval (games are independent), and each named ratio of two count columns
as a ratio of totals with a delta-method interval over games (events of one
game are not independent of each other, so they are never counted as
separate trials). The game's page names what to count; this module knows no
game.

The answer keeps no rows: an :class:`EventsTally` fed chunk by chunk keeps the
sums those intervals are made of (per count its sum and sum of squares; per
ratio the sums of numerator and denominator, their squares and their
product), and tallies of disjoint games merge. :func:`event_rates` is the
tally fed the whole frame.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from analyses.stats import CONFIDENCE, mean_interval_from_moments, ratio_interval_from_moments

METHOD = ("Event rates: the mean per game of each count with a Student-t 95% interval; a "
          "share of events (e.g. hopeless re-rolls among bunk re-rolls) as a ratio of totals "
          "with a delta-method 95% interval over games, since the events of one game are not "
          "independent.")

COLUMNS = ["event", "kind", "value", "low", "high", "games"]


class EventsTally:
    """What :func:`event_rates` needs, fed chunk by chunk: the games, per count the sum and
    sum of squares of its column, per ratio the sums of numerator y and denominator x and
    of y², x² and x·y. Whole counts are summed as Python integers, so those sums, and the
    variances made of them, are exact."""

    def __init__(self, counts: Mapping[str, str], ratios: Mapping[str, tuple[str, str]] = ()):
        self.counts = dict(counts)
        self.ratios = dict(ratios)
        self.n = 0
        self.count_sums = {name: [0, 0] for name in self.counts}  # Σx, Σx²
        # Σy, Σx, Σy², Σx², Σxy
        self.ratio_sums = {name: [0, 0, 0, 0, 0] for name in self.ratios}

    def add(self, frame: pd.DataFrame) -> EventsTally:
        """Count a chunk of games."""
        self.n += len(frame)
        for name, column in self.counts.items():
            x = _column(frame, column)
            _add(self.count_sums[name], (x, x * x))
        for name, (num, den) in self.ratios.items():
            y, x = _column(frame, num), _column(frame, den)
            _add(self.ratio_sums[name], (y, x, y * y, x * x, x * y))
        return self

    def merge(self, other: EventsTally) -> EventsTally:
        """Add another tally of the same question (games of other indices)."""
        if (other.counts, other.ratios) != (self.counts, self.ratios):
            raise ValueError("cannot merge event tallies of different counts or ratios")
        self.n += other.n
        for name, sums in other.count_sums.items():
            _add(self.count_sums[name], sums)
        for name, sums in other.ratio_sums.items():
            _add(self.ratio_sums[name], sums)
        return self

    def answer(self, confidence: float = CONFIDENCE) -> pd.DataFrame:
        """Rows (event, kind 'per game' or 'share', value, low, high, games)."""
        rows = []
        for name, (total, squares) in self.count_sums.items():
            i = mean_interval_from_moments(self.n, total, squares, confidence)
            rows.append({"event": name, "kind": "per game", "value": i.estimate, "low": i.low,
                         "high": i.high, "games": self.n})
        for name, sums in self.ratio_sums.items():
            i = ratio_interval_from_moments(self.n, *sums, confidence)
            rows.append({"event": name, "kind": "share", "value": i.estimate, "low": i.low,
                         "high": i.high, "games": self.n})
        return pd.DataFrame(rows, columns=COLUMNS)


def event_rates(frame: pd.DataFrame, counts: Mapping[str, str],
                ratios: Mapping[str, tuple[str, str]] = (),
                confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Rows (event, kind 'per game' or 'share', value, low, high, games): ``counts`` maps a
    name to a column; ``ratios`` a name to (numerator column, denominator column). An
    :class:`EventsTally` fed the whole frame."""
    return EventsTally(counts, ratios).add(frame).answer(confidence)


def _column(frame: pd.DataFrame, column: str) -> np.ndarray:
    """A count column: int64 for whole numbers (summed exactly), else float64."""
    values = frame[column].to_numpy()
    if values.dtype.kind in "iub":
        return values.astype(np.int64)
    values = values.astype(np.float64)
    if np.isnan(values).any():
        raise ValueError("values contain NaN")  # as analyses.stats refuses them
    return values


def _add(sums: list, parts) -> None:
    """Add each part (an array, summed; or a number) to its running sum, in place."""
    for k, part in enumerate(parts):
        if isinstance(part, np.ndarray):
            part = int(part.sum()) if part.dtype.kind == "i" else float(part.sum())
        sums[k] += part
