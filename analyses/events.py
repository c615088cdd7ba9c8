"""How often things happen in a game: per-game rates of declared counts, and shares of events.

For one run: each named count column's mean per game with Hall's
skewness-corrected Student-t interval (games are independent; counts are
skewed, and slow policies give runs of 20-30 games), and each named share of
events (numerator events among denominator events, 0 <= y <= x in every game)
as a ratio of totals with the Korn-Graubard interval over games (events of
one game are not independent of each other, so they are never counted as
separate trials); a ratio whose numerator exceeds its denominator in some
game is not a share and keeps the delta method. The game's page names what
to count; this module knows no game.

The answer keeps no rows: an :class:`EventsTally` fed chunk by chunk keeps the
sums those intervals are made of (per count its sum, sum of squares and sum of
cubes; per ratio the sums of numerator and denominator, their squares and
their product, and whether every game was a share), and tallies of disjoint
games merge. :func:`event_rates` is the
tally fed the whole frame.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from analyses.stats import (
    CONFIDENCE,
    events_share_interval_from_moments,
    ratio_interval_from_moments,
    skewed_mean_interval_from_moments,
)

METHOD = ("Event rates: the mean per game of each count with Hall's skewness-corrected "
          "Student-t 95% interval (counts are skewed; it holds at 20-30 games, where the "
          "symmetric one did not; none when every game gave the same count); a share of "
          "events (e.g. hopeless re-rolls among bunk re-rolls) as a ratio of totals with the "
          "Korn-Graubard 95% interval over games (Clopper-Pearson at the effective number of "
          "events), since the events of one game are not independent.")

COLUMNS = ["event", "kind", "value", "low", "high", "games"]


class EventsTally:
    """What :func:`event_rates` needs, fed chunk by chunk: the games, per count the sum and
    sum of squares and cubes of its column, per ratio the sums of numerator y and
    denominator x and of y², x² and x·y, and whether 0 <= y <= x in every game (a share).
    Whole counts are summed as Python integers, so those sums, and the moments made of
    them, are exact."""

    def __init__(self, counts: Mapping[str, str], ratios: Mapping[str, tuple[str, str]] = ()):
        self.counts = dict(counts)
        self.ratios = dict(ratios)
        self.n = 0
        self.count_sums = {name: [0, 0, 0] for name in self.counts}  # Σx, Σx², Σx³
        # Σy, Σx, Σy², Σx², Σxy
        self.ratio_sums = {name: [0, 0, 0, 0, 0] for name in self.ratios}
        self.nested = {name: True for name in self.ratios}  # 0 <= y <= x in every game

    def add(self, frame: pd.DataFrame) -> EventsTally:
        """Count a chunk of games."""
        self.n += len(frame)
        for name, column in self.counts.items():
            x = _column(frame, column)
            _add(self.count_sums[name], (x, x * x, x * x * x))
        for name, (num, den) in self.ratios.items():
            y, x = _column(frame, num), _column(frame, den)
            _add(self.ratio_sums[name], (y, x, y * y, x * x, x * y))
            self.nested[name] &= bool(np.all((y >= 0) & (y <= x)))
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
            self.nested[name] &= other.nested[name]
        return self

    def answer(self, confidence: float = CONFIDENCE) -> pd.DataFrame:
        """Rows (event, kind 'per game', 'share' or 'ratio', value, low, high, games); a
        count whose games all gave the same value has no interval (NaN ends)."""
        rows = []
        for name, sums in self.count_sums.items():
            i = skewed_mean_interval_from_moments(self.n, *sums, confidence)
            rows.append({"event": name, "kind": "per game", "value": i.estimate, "low": i.low,
                         "high": i.high, "games": self.n})
        for name, sums in self.ratio_sums.items():
            share = self.nested[name]
            i = (events_share_interval_from_moments if share else ratio_interval_from_moments)(
                self.n, *sums, confidence)
            rows.append({"event": name, "kind": "share" if share else "ratio",
                         "value": i.estimate, "low": i.low,
                         "high": i.high, "games": self.n})
        return pd.DataFrame(rows, columns=COLUMNS)


def event_rates(frame: pd.DataFrame, counts: Mapping[str, str],
                ratios: Mapping[str, tuple[str, str]] = (),
                confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Rows (event, kind 'per game', 'share' or 'ratio', value, low, high, games): ``counts`` maps a
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
