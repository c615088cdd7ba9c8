"""How often things happen in a game: per-game rates of declared counts, and shares of events.

For one run: each named count column's mean per game with a Student-t
interval (games are independent), and each named ratio of two count columns
as a ratio of totals with a delta-method interval over games (events of one
game are not independent of each other, so they are never counted as
separate trials). The game's page names what to count; this module knows no
game.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from analyses.stats import CONFIDENCE, mean_interval, ratio_interval

METHOD = ("Event rates: the mean per game of each count with a Student-t 95% interval; a "
          "share of events (e.g. hopeless re-rolls among bunk re-rolls) as a ratio of totals "
          "with a delta-method 95% interval over games, since the events of one game are not "
          "independent.")


def event_rates(frame: pd.DataFrame, counts: Mapping[str, str],
                ratios: Mapping[str, tuple[str, str]] = (),
                confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Rows (event, kind 'per game' or 'share', value, low, high, games): ``counts`` maps a
    name to a column; ``ratios`` a name to (numerator column, denominator column)."""
    rows = []
    for name, column in counts.items():
        i = mean_interval(frame[column].to_numpy(dtype=float), confidence)
        rows.append({"event": name, "kind": "per game", "value": i.estimate, "low": i.low,
                     "high": i.high, "games": len(frame)})
    for name, (num, den) in dict(ratios).items():
        i = ratio_interval(frame[num].to_numpy(dtype=float), frame[den].to_numpy(dtype=float),
                           confidence)
        rows.append({"event": name, "kind": "share", "value": i.estimate, "low": i.low,
                     "high": i.high, "games": len(frame)})
    return pd.DataFrame(rows, columns=["event", "kind", "value", "low", "high", "games"])
