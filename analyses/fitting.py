"""Knobs fitted to the goals on pilot games instead of searched: Rum Runner's band edges.

Some knobs have a best value that follows from the games directly: the band
edges that give a target split are quantiles of the score. Searching them
would waste games, so ``--knob score_band_edges=fit`` fits them on pilot games
(indices ``0 .. pilot - 1``) for each setting of the other knobs, and the race
then compares each setting with its printed edges and with its fitted ones on
fresh games (indices after the pilot's), so the fit's own luck does not flatter
it. Each fitter is one entry of ``FITTERS``: the option, the goal family it
fits to, the summary its pilot keeps and the fit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from analyses.goals import Metric
from analyses.thresholds import ThresholdsAccumulator, calibrated_edges


@dataclass(frozen=True)
class Fitter:
    option: str                                  # the rule option it fits
    goal: str                                    # the goal family whose target it fits to
    tally: Callable[[], object]                  # a new pilot summary (``add(frame)``)
    fit: Callable[[object, Metric, object], tuple]  # (pilot, goal metric, rules) -> value
    method: str


def _band_edges(pilot: ThresholdsAccumulator, metric: Metric, rules) -> tuple:
    split = [100 * t for t in metric.target]
    return tuple(int(e) for e in calibrated_edges(pilot, split, rules)["edge"])


FITTERS = {f.option: f for f in (
    Fitter("score_band_edges", "band_distance", ThresholdsAccumulator, _band_edges,
           "each edge at the pilot's quantile of the target's cumulative share "
           "(analyses.thresholds.calibrated_edges)"),
)}
