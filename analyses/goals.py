"""What a rule tuning aims at: per-game features, the goal metrics built on them, goals.

A candidate rule set's games are reduced to a few whole-numbered features per
game (``FEATURES``: each seat's win, each turn-order place's win, rounds,
turns, a tie for first, a capped game, the score range, Rum Runner's band),
so that sums over games are exact integers and a tuning answer does not depend
on how its games were chunked. Every goal metric is one entry of ``FAMILIES``,
built from those features:

- *linear* metrics are the mean of one feature plus an offset (a seat's gap
  from 1/P, mean rounds, the share of ties). Their intervals are normal (CLT,
  sample variance), and two candidates that played the same games compare
  by the paired difference of the feature, which is where common random
  numbers pay;
- *box* metrics are a function of several linear ones (the largest seat gap,
  the band split's distance from a target). Their interval is the function's
  range over the simultaneous (Bonferroni) box of the components' intervals:
  conservative, and never paired;
- *quantile* metrics (median rounds) read exact value counts, with the
  distribution-free order-statistic interval.

A goal (``parse_goal``) is ``METRIC=TARGET`` (aim at a value), ``METRIC<=BOUND``
or ``METRIC>=BOUND`` (a constraint), each optionally ``:weight=W``.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyses.scores import ValueCounts
from analyses.stats import exact_share_interval, paired_share_from_counts, z_value
from engines._rules import closest
from engines.rum_runner.rules import BAND_NAMES
from simulate.errors import UserError

WIN_SCALE = 60  # lcm(1..6): a win shared by k <= 6 players is 1/k, times this a whole number
BANDS = BAND_NAMES  # Rum Runner's six printed bands, by their one name
DEFAULT_SPLIT = (40, 25, 15, 10, 6, 4)  # the target split of analyses.thresholds


# ---------------------------------------------------------------- per-game features

@dataclass(frozen=True)
class Layout:
    """What a game's outcome rows give: player count, the turn-order column (or None:
    seat 0 plays first), and which optional columns exist."""

    players: int
    turn_order: str | None
    columns: frozenset

    @classmethod
    def of(cls, info, players: int) -> Layout:
        order = info.extra.get("turn_order")
        return cls(players, order[1] if order else None,
                   frozenset(c.name for c in info.columns(players)))

    @property
    def multi(self) -> bool:
        return self.players >= 2

    def has(self, feature: str) -> bool:
        return feature in self.features()

    def features(self) -> tuple[str, ...]:
        """The feature names this game gives, in a fixed order."""
        p, cols = self.players, self.columns
        names = [f"win_{s}" for s in range(p)]
        if self.multi:
            names += [f"place_{k}" for k in range(p)]
        names += [c for c in ("rounds", "turns") if c in cols]
        if self.multi and f"score_{p - 1}" in cols:
            names += ["tie", "score_range"]
        if any(c in cols for c in ("capped", "truncated")):
            names.append("capped")
        if not self.multi and "score_0" in cols:
            names.append("score")
        if "band_0" in cols:
            names += [f"band_{j}" for j in range(len(BANDS))]
        return tuple(names)


def scale(feature: str) -> int:
    """The factor a feature's values were multiplied by to make them whole."""
    return WIN_SCALE if feature.startswith(("win_", "place_")) else 1


def features(frame: pd.DataFrame, layout: Layout) -> dict[str, np.ndarray]:
    """Each game's features (int64, one entry per row of ``frame``)."""
    p = layout.players
    wins = np.column_stack([frame[f"win_{s}"].to_numpy(dtype=float) for s in range(p)])
    out: dict[str, np.ndarray] = {}
    whole = np.rint(wins * WIN_SCALE)
    for s in range(p):
        out[f"win_{s}"] = whole[:, s].astype(np.int64)
    if layout.multi:
        if layout.turn_order:  # place k: the player with the (k+1)-th smallest order value
            key = np.column_stack([frame[layout.turn_order.format(seat=s)].to_numpy()
                                   for s in range(p)])
            placed = np.take_along_axis(whole, np.argsort(key, axis=1, kind="stable"), axis=1)
        else:
            placed = whole
        for k in range(p):
            out[f"place_{k}"] = placed[:, k].astype(np.int64)
    for col in ("rounds", "turns"):
        if col in frame:
            out[col] = frame[col].to_numpy(dtype=np.int64)
    if "tie" in layout.features():
        scores = np.column_stack([frame[f"score_{s}"].to_numpy(dtype=float) for s in range(p)])
        top = np.sort(scores, axis=1)
        decided = wins.sum(axis=1) > 0
        out["tie"] = (decided & (top[:, -1] == top[:, -2])).astype(np.int64)
        out["score_range"] = np.rint(top[:, -1] - top[:, 0]).astype(np.int64)
    for col in ("capped", "truncated"):
        if col in frame:
            out["capped"] = frame[col].to_numpy().astype(np.int64)
            break
    if "score" in layout.features():
        out["score"] = frame["score_0"].to_numpy(dtype=np.int64)
    if "band_0" in frame:
        band = frame["band_0"].to_numpy(dtype=np.int64)
        for j in range(len(BANDS)):
            out[f"band_{j}"] = (band == j).astype(np.int64)
    return out


# ---------------------------------------------------------------- the statistics a metric reads

class Moments:
    """What a metric of one arm (and its pairing with another) is computed from; the
    tally in ``analyses.racing`` provides it."""

    def n(self, arm: int) -> int: ...
    def mean(self, arm: int, feature: str) -> float: ...
    def var(self, arm: int, feature: str) -> float: ...
    def diff_var(self, a: int, b: int, feature: str) -> float: ...
    def sum(self, arm: int, feature: str) -> int: ...
    def both(self, a: int, b: int, feature: str) -> int: ...   # sum of the products
    def counts(self, arm: int, feature: str) -> ValueCounts: ...


@functools.lru_cache(maxsize=256)
def _z(miss: float) -> float:
    return z_value(1 - miss)  # a race asks the same few levels thousands of times


def _normal(mean: float, var: float, n: int, miss: float) -> tuple[float, float]:
    if n < 2:
        return (-math.inf, math.inf)
    half = _z(miss) * math.sqrt(max(var, 0.0) / n)
    return (mean - half, mean + half)


# ---------------------------------------------------------------- metrics

@dataclass(frozen=True)
class Metric:
    """One goal metric, built by a family of ``FAMILIES`` for a game's layout.

    ``kind``: "linear" (mean of ``parts[0]`` / its scale, plus ``offset``), "max_gap"
    (the largest |share - 1/P| over the ``parts``), "distance" (total variation distance of
    the ``parts``' shares from ``target``) or "median" (of the feature ``parts[0]``).
    """

    name: str
    label: str
    unit: str          # "pp" (a gap) or "%" (a share), both shown x100; "rounds", "points"
    kind: str
    parts: tuple[str, ...]
    offset: float = 0.0
    target: tuple[float, ...] = ()
    # What the parts' per-game values are divided by (0: the feature's own ``scale``), for
    # a feature summed over several games of one deal (a trained seat's rotations).
    divisor: float = 0.0

    def per(self, feature: str) -> float:
        """The factor between a part's stored values and the metric's units."""
        return self.divisor or scale(feature)

    @property
    def share(self) -> bool:
        """Shares and gaps are fractions, shown x100 ("%" a share, "pp" a gap)."""
        return self.unit in ("pp", "%")

    def estimate(self, m: Moments, arm: int) -> float:
        return KINDS[self.kind].estimate(self, m, arm)

    def interval(self, m: Moments, arm: int, miss: float) -> tuple[float, float]:
        """Two-sided interval that misses the truth with probability at most ``miss``."""
        return KINDS[self.kind].interval(self, m, arm, miss)

    def paired(self, m: Moments, a: int, b: int, miss: float) -> tuple[float, float] | None:
        """Interval of metric(a) - metric(b) from the games both played (None: not paired)."""
        if self.kind != "linear" or m.n(a) != m.n(b):
            return None
        f = self.parts[0]
        if binary(f) and not self.divisor:   # Newcombe's paired score interval from the 2 x 2 table of the games
            n, both = m.n(a), m.both(a, b, f)
            only_b, only_a = m.sum(b, f) - both, m.sum(a, f) - both
            iv, _ = paired_share_from_counts(both, only_b, only_a, n - both - only_a - only_b,
                                             1 - miss)
            return (iv.low, iv.high)
        d = m.mean(a, f) - m.mean(b, f)
        lo, hi = _normal(d, m.diff_var(a, b, f), m.n(a), miss)
        return (lo / self.per(f), hi / self.per(f))

    def method(self) -> str:
        return KINDS[self.kind].method


@dataclass(frozen=True)
class Kind:
    estimate: Callable[[Metric, Moments, int], float]
    interval: Callable[[Metric, Moments, int, float], tuple[float, float]]
    method: str


def _linear_estimate(metric: Metric, m: Moments, arm: int) -> float:
    f = metric.parts[0]
    return m.mean(arm, f) / metric.per(f) + metric.offset


def binary(feature: str) -> bool:
    """A feature that is 0 or 1 in every game (a tie, a capped game, a band): its share's
    interval is exact, never the normal one, which is [0, 0] with no event."""
    return feature in ("tie", "capped") or feature.startswith("band_")


def _share_interval(share: float, n: int, miss: float) -> tuple[float, float]:
    """A 0/1 share's exact interval at two-sided ``miss`` (``stats.exact_share_interval``).
    Exact, not Wilson: Wilson's bounds are too tight for a handful of events (a check of
    shares of 0.05-2% at 30-5,000 games found 92.6% coverage at 95%), and a race's promise
    is only as good as its intervals; with no event it gives the rule of three, so a sample
    without an event never looks surely event-free."""
    if n < 1:
        return (0.0, 1.0)
    iv = exact_share_interval(share * n, n, 1 - miss)
    return (iv.low, iv.high)


def _linear_interval(metric: Metric, m: Moments, arm: int, miss: float) -> tuple[float, float]:
    f = metric.parts[0]
    if binary(f) and not metric.divisor:   # (a divisor: sums over several games, not 0/1)
        lo, hi = _share_interval(m.mean(arm, f), m.n(arm), miss)
        return (lo + metric.offset, hi + metric.offset)
    lo, hi = _normal(m.mean(arm, f), m.var(arm, f), m.n(arm), miss)
    return (lo / metric.per(f) + metric.offset, hi / metric.per(f) + metric.offset)


def _box(metric: Metric, m: Moments, arm: int, miss: float) -> list[tuple[float, float]]:
    """The parts' intervals, simultaneous at ``miss`` (Bonferroni over the parts)."""
    each = miss / len(metric.parts)
    out = []
    for f in metric.parts:
        lo, hi = _normal(m.mean(arm, f), m.var(arm, f), m.n(arm), each)
        out.append((lo / metric.per(f), hi / metric.per(f)))
    return out


def _dist(lo: float, hi: float, t: float) -> tuple[float, float]:
    """The smallest and largest |x - t| over x in [lo, hi]."""
    near = 0.0 if lo <= t <= hi else min(abs(lo - t), abs(hi - t))
    return near, max(abs(lo - t), abs(hi - t))


def _shares(metric: Metric, m: Moments, arm: int) -> np.ndarray:
    return np.array([m.mean(arm, f) / metric.per(f) for f in metric.parts])


def _max_gap_estimate(metric: Metric, m: Moments, arm: int) -> float:
    return float(np.max(np.abs(_shares(metric, m, arm) - 1 / len(metric.parts))))


def _max_gap_interval(metric: Metric, m: Moments, arm: int, miss: float) -> tuple[float, float]:
    fair = 1 / len(metric.parts)
    d = [_dist(lo, hi, fair) for lo, hi in _box(metric, m, arm, miss)]
    return (max(x for x, _ in d), max(y for _, y in d))


def _distance_estimate(metric: Metric, m: Moments, arm: int) -> float:
    return 0.5 * float(np.abs(_shares(metric, m, arm) - np.asarray(metric.target)).sum())


def _distance_interval(metric: Metric, m: Moments, arm: int, miss: float) -> tuple[float, float]:
    d = [_dist(lo, hi, t) for (lo, hi), t in zip(_box(metric, m, arm, miss), metric.target,
                                                 strict=True)]
    return (0.5 * sum(x for x, _ in d), min(1.0, 0.5 * sum(y for _, y in d)))


def _median_estimate(metric: Metric, m: Moments, arm: int) -> float:
    return m.counts(arm, metric.parts[0]).quantile(0.5)


def _median_interval(metric: Metric, m: Moments, arm: int, miss: float) -> tuple[float, float]:
    iv = m.counts(arm, metric.parts[0]).quantile_interval(0.5, 1 - miss)
    return (iv.low, iv.high)


KINDS = {
    "linear": Kind(_linear_estimate, _linear_interval,
                   "normal interval on the mean over games (sample variance); paired "
                   "differences on the same games; a 0/1 share (ties, capped games, a band): "
                   "exact Clopper-Pearson interval (with no event: the rule of three), "
                   "and Newcombe's paired score interval for differences"),
    "max_gap": Kind(_max_gap_estimate, _max_gap_interval,
                    "range of max |share - 1/P| over the Bonferroni box of the shares' normal "
                    "intervals (conservative)"),
    "distance": Kind(_distance_estimate, _distance_interval,
                     "range of the total variation distance over the Bonferroni box of the "
                     "six band shares' normal intervals (conservative)"),
    "median": Kind(_median_estimate, _median_interval,
                   "distribution-free order-statistic interval from exact value counts"),
}


# ---------------------------------------------------------------- the families, declared once

@dataclass(frozen=True)
class Family:
    """A named kind of goal metric: ``name`` or ``name[ARG]``, and how to build it."""

    name: str
    help: str
    build: Callable[[Layout, str | None], Metric | None]  # None: not for this game
    side: bool = False    # shown among "what else the change moves"
    arg: str = ""         # what goes in brackets, if anything
    # the K a "K" family takes at a layout (shown for every one among the side metrics)
    keys: Callable[[Layout], range] = lambda layout: range(layout.players)


def _index(arg: str | None, count: int, what: str) -> int:
    try:
        k = int(arg)
    except (TypeError, ValueError):
        raise UserError(f"{what}[K] needs a whole number K from 0 to {count - 1}, "
                        f"not '{arg}'") from None
    if not 0 <= k < count:
        raise UserError(f"{what}[{k}]: K must be from 0 to {count - 1}"
                        + (f" at {count} players" if what.endswith("gap") else ""))
    return k


def _gap(prefix: str, word: str, name: str):
    def build(layout: Layout, arg: str | None) -> Metric | None:
        if not layout.multi:
            return None
        k = _index(arg, layout.players, name)
        return Metric(f"{name}[{k}]", f"{word} {k}'s win share - 1/P", "pp", "linear",
                      (f"{prefix}_{k}",), offset=-1 / layout.players)
    return build


def _max_gap(prefix: str, word: str, name: str):
    def build(layout: Layout, arg: str | None) -> Metric | None:
        if not layout.multi:
            return None
        return Metric(name, f"largest |win share - 1/P| over the {word}s", "pp", "max_gap",
                      tuple(f"{prefix}_{k}" for k in range(layout.players)))
    return build


def _first(layout: Layout, arg: str | None) -> Metric | None:
    if not layout.multi:
        return None
    who = "the first player in turn order" if layout.turn_order is None else "turn-order place 0"
    return Metric("first_player_edge", f"{who}'s win share - 1/P", "pp", "linear",
                  ("place_0",), offset=-1 / layout.players)


def _mean(feature: str, unit: str, label: str, name: str, share: bool = False,
          solo: bool = False):
    def build(layout: Layout, arg: str | None) -> Metric | None:
        if not layout.has(feature) or (solo and layout.multi):
            return None
        return Metric(name, label, "%" if share else unit, "linear", (feature,))
    return build


def _median(feature: str):
    def build(layout: Layout, arg: str | None) -> Metric | None:
        if not layout.has(feature):
            return None
        return Metric(f"median_{feature}", f"median {feature}", feature, "median", (feature,))
    return build


def _band_share(layout: Layout, arg: str | None) -> Metric | None:
    if not layout.has("band_0"):
        return None
    k = _index(arg, len(BANDS), "band_share")
    return Metric(f"band_share[{k}]", f"games in band {k} ({BANDS[k]})", "%", "linear",
                  (f"band_{k}",))


def _band_distance(layout: Layout, arg: str | None) -> Metric | None:
    if not layout.has("band_0"):
        return None
    split = DEFAULT_SPLIT
    if arg is not None:
        try:
            split = tuple(float(x) for x in re.split(r"[,/ ]+", arg.strip()) if x)
        except ValueError:
            split = ()
        # NaN passes every comparison, so finiteness is checked first (a NaN split raced the
        # whole budget to "n/a")
        if (len(split) != len(BANDS) or not all(math.isfinite(x) for x in split)
                or min(split) < 0 or abs(sum(split) - 100) > 0.5):
            raise UserError(f"band_distance[SPLIT] needs six percentages (broke..god) summing "
                            f"to 100, such as band_distance[40,25,15,10,6,4], not '{arg}'")
    text = ",".join(f"{x:g}" for x in split)
    return Metric(f"band_distance[{text}]", f"share of games off the target split {text} "
                  "(total variation distance)", "%", "distance",
                  tuple(f"band_{j}" for j in range(len(BANDS))),
                  target=tuple(x / 100 for x in split))


FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("first_player_edge", "the first player's win share - 1/P (turn-order place 0 "
           "where seats are not turn order)", _first, side=True),
    Family("place_gap", "turn-order place K's win share - 1/P (K from 0)",
           _gap("place", "turn-order place", "place_gap"), side=True, arg="K"),
    Family("seat_gap", "seat K's win share - 1/P (K from 0, as in the rule options by seat)",
           _gap("win", "seat", "seat_gap"), side=True, arg="K"),
    Family("max_place_gap", "the largest |win share - 1/P| over the turn-order places",
           _max_gap("place", "turn-order place", "max_place_gap")),
    Family("max_seat_gap", "the largest |win share - 1/P| over the seats",
           _max_gap("win", "seat", "max_seat_gap")),
    Family("mean_rounds", "mean game length in rounds",
           _mean("rounds", "rounds", "mean rounds", "mean_rounds"), side=True),
    Family("median_rounds", "median game length in rounds", _median("rounds")),
    Family("mean_turns", "mean game length in turns",
           _mean("turns", "turns", "mean turns", "mean_turns"), side=True),
    Family("median_turns", "median game length in turns", _median("turns")),
    Family("tie_share", "share of games whose top final standing is shared (before the "
           "tie-break)", _mean("tie", "", "games tied for first", "tie_share", share=True),
           side=True),
    Family("score_range", "mean of each game's top score minus its bottom score",
           _mean("score_range", "points", "score range (top - bottom)", "score_range"),
           side=True),
    Family("capped_share", "share of games stopped by their length cap",
           _mean("capped", "", "capped games", "capped_share", share=True), side=True),
    Family("mean_score", "mean final score (solo)",
           _mean("score", "points", "mean score", "mean_score"), side=True),
    Family("win_share", "share of games scored a win (solo)",
           _mean("win_0", "", "win share", "win_share", share=True, solo=True), side=True),
    Family("band_share", "share of games in band K (0: broke .. 5: god)", _band_share,
           side=True, arg="K", keys=lambda layout: range(len(BANDS))),
    Family("band_distance", "share of games that would have to change band to give the "
           "target split (default 40,25,15,10,6,4)", _band_distance, arg="SPLIT"),
)}


def metric(text: str, layout: Layout) -> Metric:
    """The metric a user named (``seat_gap[1]``, ``mean_rounds``), or a one-line UserError."""
    name, arg = text.strip(), None
    if "[" in name:
        if not name.endswith("]"):
            raise UserError(f"goal metric '{text}': a bracket must close the name, as in "
                            "seat_gap[1]")
        name, arg = name[:-1].split("[", 1)
    family = FAMILIES.get(name)
    if family is None:
        raise UserError(f"unknown goal metric '{name}'" + closest(name, list(FAMILIES))
                        + f"; metrics: {', '.join(FAMILIES)} (rumsim tune --help)")
    if arg is not None and not family.arg:
        raise UserError(f"goal metric {name} takes no [..] argument")
    if arg is None and family.arg == "K":
        raise UserError(f"goal metric {name} needs a place or seat, as in {name}[0]")
    built = family.build(layout, arg)
    if built is None:
        raise UserError(f"goal metric {name} does not apply to this game at "
                        f"{layout.players} player{'s' if layout.players > 1 else ''}")
    return built


def side_metrics(layout: Layout) -> list[Metric]:
    """What else a change moves: every side family that applies, every place and seat."""
    out: list[Metric] = []
    for family in FAMILIES.values():
        if not family.side:
            continue
        if family.arg == "K":
            if family.name == "seat_gap" and layout.turn_order is None:
                continue  # seats are turn order: the places say it already
            out += [m for k in family.keys(layout)
                    if (m := family.build(layout, str(k))) is not None]
        elif family.name != "first_player_edge":  # place_gap[0] is the same metric
            built = family.build(layout, None)
            if built is not None:
                out.append(built)
    return out


# ---------------------------------------------------------------- goals

OPS = ("<=", ">=", "=")


@dataclass(frozen=True)
class Goal:
    """``metric op value``: '=' aims at the value (loss weight x |metric - value|), '<=' and
    '>=' are constraints."""

    metric: Metric
    op: str
    value: float
    weight: float = 1.0

    @property
    def constraint(self) -> bool:
        return self.op != "="

    def text(self) -> str:
        v = self.value * 100 if self.metric.share else self.value
        unit = {"pp": " pp", "%": "%"}.get(self.metric.unit, "")
        w = f" (weight {self.weight:g})" if self.weight != 1 else ""
        return f"{self.metric.name} {self.op} {v:g}{unit}{w}"

    def holds(self, x: float) -> bool:
        """Does a value meet this constraint?"""
        return x <= self.value if self.op == "<=" else x >= self.value

    def met(self, lo: float, hi: float) -> str:
        """'met', 'not met' or 'undetermined' for a constraint, from an interval."""
        ok, bad = (hi <= self.value, lo > self.value) if self.op == "<=" else \
            (lo >= self.value, hi < self.value)
        return "met" if ok else "not met" if bad else "undetermined"


def parse_goal(text: str, layout: Layout) -> Goal:
    """``METRIC=TARGET``, ``METRIC<=BOUND`` or ``METRIC>=BOUND``, then ``:weight=W``.

    Share metrics take fractions (0.02) or points with a unit (2pp, 2%)."""
    body, weight = text, 1.0
    if ":" in text:
        body, _, extra = text.partition(":")
        key, _, raw = extra.partition("=")
        if key.strip() != "weight":
            raise UserError(f"--goal '{text}': after ':' only weight=W is allowed")
        try:
            weight = float(raw)
        except ValueError:
            weight = -1.0
        if not weight > 0 or not math.isfinite(weight):
            raise UserError(f"--goal '{text}': the weight must be a positive number")
    for op in OPS:
        if op in body:
            name, _, raw = body.partition(op)
            break
    else:
        raise UserError(f"--goal '{text}' needs METRIC=TARGET, METRIC<=BOUND or "
                        "METRIC>=BOUND, such as first_player_edge=0 or max_seat_gap<=0.02")
    m = metric(name, layout)
    raw = raw.strip().lower()
    per = 1.0
    for unit in ("pp", "%"):
        if raw.endswith(unit):
            if not m.share:
                raise UserError(f"--goal '{text}': {m.name} is not a share; give a plain "
                                "number")
            raw, per = raw[: -len(unit)].strip(), 0.01
    try:
        value = float(raw) * per
    except ValueError:
        raise UserError(f"--goal '{text}': '{raw}' is not a number") from None
    if not math.isfinite(value):
        raise UserError(f"--goal '{text}': the target must be finite")
    if m.share and abs(value) > 1:
        raise UserError(f"--goal '{text}': {m.name} is a share; give it as a fraction "
                        f"({value / 100:g}) or in points ({value:g}pp)")
    return Goal(m, op, value, weight)


def check_goals(goals: list[Goal]) -> None:
    """Refuse a goal list that asks nothing, or the same target twice."""
    if not goals:
        raise UserError("name at least one --goal, such as --goal first_player_edge=0")
    seen = set()
    for g in goals:
        if g.op == "=" and g.metric.name in seen:
            raise UserError(f"--goal {g.metric.name} has two targets; give one")
        if g.op == "=":
            seen.add(g.metric.name)
