"""How a game feels: its length, close finishes, ties, lead changes and comebacks, with intervals.

Each metric is a small function from a run's chunk summary (a
:class:`FeelTally`, fed block by block, no rows kept) to a tidy table, one
row per statistic: ``metric, statistic, estimate, low, high, unit, method``.
The metrics are declared once in ``METRICS`` (name, a one-line definition,
its source in the literature, the outcome columns it reads) and registered
by name in ``analyses.ANALYSES`` as ``feel.<name>``; :func:`feel` runs them
all. Definitions follow the game-quality literature where one exists:

- Browne, C. (2008). *Automatic Generation and Evaluation of Recombination
  Games*, PhD thesis, Queensland University of Technology: the aesthetic
  criteria *duration* (game length), *drama* (a player behind who comes
  back), *lead change* (how often the leader changes), *uncertainty* and
  *decisiveness* (the winner's margin).
- The Ludii metrics (Stephenson, Piette, Soemers & Browne, "Ludii as a
  competition platform", and the ``metrics`` package of the Ludii player,
  2019-2022): ``DurationTurns``, ``LeadChange``, ``Drama``, ``Decisiveness``.

Intervals, each good at 20-30 games (slow policies give such runs; the
symmetric ones covered 88-92% there): means are Hall's skewness-corrected
Student-t (lengths, margins and lead changes are skewed), from the exact
value counts; medians and 90th percentiles are distribution-free
order-statistic intervals (``analyses.stats``), with an end unbounded when
the games are too few for it (a 90th percentile's upper end under 36 games);
shares are exact (Clopper-Pearson); the lead-change rate (changes per round
boundary, a ratio of sums) is the Korn-Graubard interval of a share of
boundaries over games (the delta method if some game had more changes than
boundaries). Each game is independent of the others in a run (its own seed
from the game index), so these are intervals over games.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _st

from analyses import FEEL_METRICS
from analyses.scores import ValueCounts
from analyses.stats import (
    CONFIDENCE,
    Interval,
    events_share_interval_from_moments,
    exact_share_interval,
    ratio_interval_from_moments,
    skewed_mean_interval_from_moments,
)

# Rounds are the unit of standings (the engines record the leader at each round end).
ROUND_COLUMNS = ("rounds",)
TURN_COLUMN = "turns"
LEAD_COLUMN = "lead_changes"
HALF_TIME_COLUMN = "half_time_leader"


class FeelTally:
    """A run's chunk summary for the game-feel metrics, fed frames block by block.

    Standings are ``score_<seat>`` (ties for first: the top one shared).
    ``margin_prefix`` names the per-seat column the winner's margin over the
    best of the others is read from ('score' reads ``score_<seat>``; Rum
    Rebellion's votes are 'votes'); a shared win has margin 0. ``close`` is the
    declared margin at or under which a game counts as close. Keeps exact value counts of
    rounds, turns, margins and lead changes (memory follows distinct values,
    never the games) and counts of ties and comebacks; ``merge`` adds a tally
    of other games.
    """

    def __init__(self, players: int, margin_prefix: str = "score", close: float = 2.0):
        if players < 2:
            raise ValueError("game-feel metrics need a game of two or more players")
        self.players, self.margin_prefix, self.close = players, margin_prefix, float(close)
        self.rounds, self.turns = ValueCounts(), ValueCounts()
        self.margin, self.lead_changes = ValueCounts(), ValueCounts()
        self.games = 0
        self.decided = 0          # games with a winner (some win_<seat> > 0)
        self.tied_top = 0         # games whose top margin value is shared
        self.sole = 0             # games with one winner and a half-time leader
        self.comebacks = 0        # ... won by a seat that did not lead at half time
        self.no_half_leader = 0   # games with one winner and no half-time leader (tie or R<2)
        # Lead changes against round boundaries (rounds - 1), for the per-boundary rate.
        self.boundaries = ValueCounts()
        self.cross = 0.0          # Σ lead_changes · (rounds - 1)
        self.nested = True        # lead_changes <= rounds - 1 in every game (a share)

    def add(self, frame: pd.DataFrame) -> FeelTally:
        """Count a block of games."""
        seats = range(self.players)
        wins = frame[[f"win_{s}" for s in seats]].to_numpy(dtype=float)
        margins = [f"{self.margin_prefix}_{s}" for s in seats]
        # A frame without the margin's columns (a run that did not keep them) gives none.
        values = frame[margins].to_numpy(dtype=float) if all(c in frame for c in margins) \
            else None
        rounds = frame["rounds"].to_numpy(dtype=float)
        self.games += len(frame)
        self.rounds.add(rounds)
        if TURN_COLUMN in frame:
            self.turns.add(frame[TURN_COLUMN].to_numpy(dtype=float))
        standing = frame[[f"score_{s}" for s in seats]].to_numpy(dtype=float)
        decided = wins.sum(axis=1) > 0
        self.decided += int(decided.sum())
        top = np.sort(standing, axis=1)
        self.tied_top += int((decided & (top[:, -1] == top[:, -2])).sum())
        # The winner's margin over the best of the others; a shared win has none.
        sole = wins.max(axis=1) == 1.0
        winner = wins.argmax(axis=1)
        if values is not None:
            mine = values[np.arange(len(frame)), winner]
            others = np.where(np.arange(self.players) == winner[:, None], -np.inf, values)
            margin = np.where(sole, mine - others.max(axis=1), 0.0)
            self.margin.add(margin[decided])
        if LEAD_COLUMN in frame:
            changes = frame[LEAD_COLUMN].to_numpy(dtype=float)
            self.lead_changes.add(changes)
            gaps = np.maximum(rounds - 1, 0)
            self.boundaries.add(gaps)
            self.cross += float((changes * gaps).sum())
            self.nested &= bool(np.all(changes <= gaps))
        if HALF_TIME_COLUMN in frame:
            half = frame[HALF_TIME_COLUMN].to_numpy(dtype=np.int64)
            led = sole & (half >= 0)
            self.sole += int(led.sum())
            self.comebacks += int((led & (winner != half)).sum())
            self.no_half_leader += int((sole & (half < 0)).sum())
        return self

    def merge(self, other: FeelTally) -> FeelTally:
        """Add another tally of the same question (games of other indices)."""
        if (other.players, other.margin_prefix, other.close) != (
                self.players, self.margin_prefix, self.close):
            raise ValueError("cannot merge game-feel tallies of different questions")
        for name in ("rounds", "turns", "margin", "lead_changes", "boundaries"):
            getattr(self, name).merge(getattr(other, name))
        for name in ("games", "decided", "tied_top", "sole", "comebacks", "no_half_leader",
                     "cross"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.nested &= other.nested
        return self


# ---------------------------------------------------------------- intervals of counted values


def _mean(counts: ValueCounts, confidence: float) -> Interval:
    # Sums over the distinct values: whole values as Python integers (exact moments).
    whole = bool(np.all(counts.values == np.round(counts.values)))
    pairs = [(int(v) if whole else float(v), int(c))
             for v, c in zip(counts.values, counts.counts, strict=True)]
    sums = [sum(c * v ** k for v, c in pairs) for k in (1, 2, 3)]
    return skewed_mean_interval_from_moments(counts.size, *sums, confidence)


def _quantile(counts: ValueCounts, q: float, confidence: float) -> Interval:
    """The order-statistic interval, with an end unbounded where the games are too few for
    it: with n games the largest one is above the q-quantile with probability 1 - q^n, so
    an upper end needs 1 - q^n >= 1 - alpha/2 (36 games for a 90th percentile at 95%);
    a clipped rank would under-cover (88% at 20 games)."""
    iv, n, alpha = counts.quantile_interval(q, confidence), counts.size, 1 - confidence
    low = iv.low if _st.binom.ppf(alpha / 2, n, q) >= 1 else -math.inf
    high = iv.high if _st.binom.ppf(1 - alpha / 2, n, q) + 1 <= n else math.inf
    return Interval(iv.estimate, low, high)


def _share(k: int, n: int, confidence: float) -> Interval:
    return exact_share_interval(k, n, confidence)


def _row(metric: str, statistic: str, iv: Interval, unit: str, method: str) -> dict:
    return {"metric": metric, "statistic": statistic, "estimate": iv.estimate, "low": iv.low,
            "high": iv.high, "unit": unit, "method": method}


MEAN = "Hall's skewness-corrected Student-t interval over games"
QUANTILE = ("distribution-free order-statistic interval (an end unbounded when the games are "
            "too few for it)")
EXACT = "exact Clopper-Pearson interval"


# ---------------------------------------------------------------- the metrics


def length(t: FeelTally, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Game length in rounds (and turns, where the game records them): mean, median, p90."""
    rows = []
    for unit, counts in (("rounds", t.rounds), ("turns", t.turns)):
        if counts.size == 0:
            continue
        rows += [_row("length", f"mean {unit}", _mean(counts, confidence), unit, MEAN),
                 _row("length", f"median {unit}", _quantile(counts, 0.5, confidence), unit,
                      QUANTILE),
                 _row("length", f"90th percentile {unit}", _quantile(counts, 0.9, confidence),
                      unit, QUANTILE)]
    return pd.DataFrame(rows)


def ties(t: FeelTally, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The share of decided games whose top standing is shared (before tie-breaks)."""
    return pd.DataFrame([_row("ties", "tied for first", _share(t.tied_top, t.decided,
                                                               confidence), "share", EXACT)])


def margin(t: FeelTally, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The winner's margin over the best of the others: its mean, and the share of close
    games (margin at most ``close``)."""
    if t.margin.size == 0:
        return pd.DataFrame()
    close = sum(int(c) for v, c in zip(t.margin.values, t.margin.counts, strict=True)
                if v <= t.close)
    return pd.DataFrame([
        _row("margin", f"mean margin ({t.margin_prefix})", _mean(t.margin, confidence),
             t.margin_prefix, MEAN),
        _row("margin", f"decided by at most {t.close:g}", _share(close, t.margin.size,
                                                                 confidence), "share", EXACT)])


def lead_changes(t: FeelTally, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Lead changes per game, and per round boundary (the Ludii LeadChange rate)."""
    if t.lead_changes.size == 0:
        return pd.DataFrame()
    v, c = t.lead_changes.values, t.lead_changes.counts
    b, bc = t.boundaries.values, t.boundaries.counts
    rate = (events_share_interval_from_moments if t.nested else ratio_interval_from_moments)(
        t.lead_changes.size, float(np.sum(v * c)), float(np.sum(b * bc)),
        float(np.sum(v * v * c)), float(np.sum(b * b * bc)), t.cross, confidence)
    return pd.DataFrame([
        _row("lead_changes", "lead changes per game", _mean(t.lead_changes, confidence),
             "changes", MEAN),
        _row("lead_changes", "lead changes per round boundary", rate, "share",
             "Korn-Graubard interval of a share over games" if t.nested else
             "delta-method interval of a ratio of sums")])


def comebacks(t: FeelTally, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The share of games won (alone) by a seat that did not lead at half time."""
    if t.sole + t.no_half_leader == 0:
        return pd.DataFrame()
    return pd.DataFrame([
        _row("comebacks", "won by a seat not leading at half time",
             _share(t.comebacks, t.sole, confidence), "share", EXACT),
        _row("comebacks", "no sole leader at half time",
             _share(t.no_half_leader, t.sole + t.no_half_leader, confidence), "share",
             EXACT)])


# What each metric reads (per-seat columns as <prefix>_<seat>).
COLUMNS = {"length": ("rounds", "turns"), "ties": ("score_<seat>", "win_<seat>"),
           "margin": ("<margin>_<seat>", "win_<seat>"), "lead_changes": ("lead_changes", "rounds"),
           "comebacks": ("half_time_leader", "win_<seat>")}


@dataclass(frozen=True)
class Metric:
    """One game-feel metric: its name, a one-line definition, where the definition comes from,
    the outcome columns it reads, and the function from a :class:`FeelTally` to its rows."""

    name: str
    definition: str
    source: str
    columns: tuple[str, ...]
    function: Callable[[FeelTally, float], pd.DataFrame]


# Declared once in analyses.FEEL_METRICS (the registry lists them without importing this).
METRICS: tuple[Metric, ...] = tuple(
    Metric(name, definition, source, COLUMNS[name], globals()[name])
    for name, definition, source in FEEL_METRICS)
METRIC_NAMES = tuple(m.name for m in METRICS)


def feel(tally: FeelTally, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Every metric of ``METRICS`` for one run's tally, as one tidy table."""
    parts = [p for m in METRICS if len(p := m.function(tally, confidence))]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=["metric", "statistic", "estimate", "low", "high", "unit", "method"])


def feel_of_frame(frame: pd.DataFrame, players: int, margin_prefix: str = "score",
                  close: float = 2.0) -> pd.DataFrame:
    """:func:`feel` for a whole frame (a run that keeps no rows feeds the tally instead)."""
    return feel(FeelTally(players, margin_prefix, close).add(frame))
