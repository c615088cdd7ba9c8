"""Racing candidate rule sets on common random numbers, with a stated error rate.

Every candidate still in the race plays the same block of game indices (the
same deals: common random numbers), then each is compared with each other
one. A candidate is dropped once the data show, at a stated error rate, that
its objective (``Objective``) is worse than another's, or that it breaks a
constraint; the survivors play twice as many games at the next look, until
one is left or the budget is spent.

The error rate: the truly best candidate is dropped only if one of the
statements its comparisons rest on fails. Per look and comparison each
objective term rests on three two-sided intervals (each candidate's metric
and their paired difference, ``Goal`` terms below), each constraint on one;
every interval misses with probability ``miss = alpha / (looks_max x
statements)``, where ``looks_max`` bounds the number of looks the budget
allows and ``statements = 3 x terms x (K - 1) + constraints``. By Bonferroni
the truly best of the K raced candidates survives with probability at least
1 - alpha, whatever the data do (``tests/test_racing.py`` simulates it).

The paired difference is what common random numbers buy: when both
candidates' metric sits on the same side of its target, the loss difference
is the metric difference, whose interval comes from the per-game paired
differences (``goals.Metric.paired``). Otherwise the bound is interval
arithmetic on the two candidates' own intervals.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyses.goals import Goal, Layout, Metric, Moments, features
from analyses.scores import ValueCounts
from simulate.errors import Interrupted

ALPHA = 0.05
COUNTED = ("rounds", "turns")  # features whose value counts are kept (for medians)


class ArmTally(Moments):
    """Exact integer sums of each arm's per-game features and of the products between arms
    (for paired differences), over the games each arm played; value counts of the
    counted features. Memory: K x K per feature, whatever the games."""

    def __init__(self, arms: int, names: Sequence[str]):
        self.arms, self.names = arms, tuple(names)
        self.games = np.zeros(arms, dtype=np.int64)
        self.s1 = {f: np.zeros(arms, dtype=np.int64) for f in self.names}
        self.s2 = {f: np.zeros((arms, arms), dtype=np.int64) for f in self.names}
        self.hist = {f: [ValueCounts() for _ in range(arms)] for f in self.names
                     if f in COUNTED}

    def add(self, arms: Sequence[int], values: Sequence[dict[str, np.ndarray]]) -> None:
        """One block: ``values[i]`` are arm ``arms[i]``'s features on the block's games."""
        ids = np.asarray(arms)
        self.games[ids] += len(next(iter(values[0].values())))
        for f in self.names:
            x = np.stack([v[f] for v in values])
            self.s1[f][ids] += x.sum(axis=1)
            self.s2[f][np.ix_(ids, ids)] += x @ x.T
            if f in self.hist:
                for i, arm in enumerate(arms):
                    self.hist[f][arm].add(x[i])

    # the Moments a metric reads
    def n(self, arm: int) -> int:
        return int(self.games[arm])

    def mean(self, arm: int, feature: str) -> float:
        n = self.n(arm)
        return int(self.s1[feature][arm]) / n if n else math.nan

    def _var(self, n: int, total: int, squares: int) -> float:
        return (n * squares - total * total) / (n * (n - 1)) if n > 1 else math.nan

    def var(self, arm: int, feature: str) -> float:
        return self._var(self.n(arm), int(self.s1[feature][arm]),
                         int(self.s2[feature][arm, arm]))

    def diff_var(self, a: int, b: int, feature: str) -> float:
        s1, s2 = self.s1[feature], self.s2[feature]
        squares = int(s2[a, a]) + int(s2[b, b]) - 2 * int(s2[a, b])
        return self._var(self.n(a), int(s1[a]) - int(s1[b]), squares)

    def sum(self, arm: int, feature: str) -> int:
        return int(self.s1[feature][arm])

    def both(self, a: int, b: int, feature: str) -> int:
        return int(self.s2[feature][a, b])

    def counts(self, arm: int, feature: str) -> ValueCounts:
        return self.hist[feature][arm]


# ---------------------------------------------------------------- the objective

@dataclass(frozen=True)
class Term:
    """One part of the objective: weight x |metric - target| (``target`` set), or weight x
    slope x metric (minimise a '<=' constraint's metric, maximise a '>=' one's, when no goal
    aims at a value)."""

    metric: Metric
    weight: float
    target: float | None = None
    slope: float = 1.0

    def value(self, x: float) -> float:
        return self.weight * (abs(x - self.target) if self.target is not None
                              else self.slope * x)

    def lower_difference(self, m: Moments, a: int, b: int, miss: float) -> float:
        """A lower bound of value(a) - value(b), valid when three intervals (a's, b's and
        the paired difference, each missing with probability ``miss``) hold."""
        la, ha = self.metric.interval(m, a, miss)
        lb, hb = self.metric.interval(m, b, miss)
        d = self.metric.paired(m, a, b, miss)
        if self.target is None:
            s = self.slope
            bound = la - hb if s > 0 else lb - ha
            if d is not None:
                bound = max(bound, d[0] if s > 0 else -d[1])
            return self.weight * abs(s) * bound
        t = self.target
        near_a = 0.0 if la <= t <= ha else min(abs(la - t), abs(ha - t))
        bound = near_a - max(abs(lb - t), abs(hb - t))
        if d is not None:  # both on one side of the target: the loss difference is d's
            if la >= t and lb >= t:
                bound = max(bound, d[0])
            elif ha <= t and hb <= t:
                bound = max(bound, -d[1])
        return self.weight * bound


@dataclass(frozen=True)
class Objective:
    """What the race minimises, from the goals: the '=' goals' weighted distances; without
    any, the constraints' metrics pushed inward (smaller for '<=', larger for '>=')."""

    goals: tuple[Goal, ...]
    # Metrics to make as large as possible, with no target and no constraint (a trained
    # policy's win share or mean score); when given, the goals may only constrain.
    maximise: tuple[Metric, ...] = ()

    @functools.cached_property  # read for every pair of every look
    def terms(self) -> tuple[Term, ...]:
        if self.maximise:
            return tuple(Term(m, 1.0, slope=-1.0) for m in self.maximise)
        aims = [g for g in self.goals if not g.constraint]
        if aims:
            return tuple(Term(g.metric, g.weight, target=g.value) for g in aims)
        return tuple(Term(g.metric, g.weight, slope=1.0 if g.op == "<=" else -1.0)
                     for g in self.goals)

    @functools.cached_property
    def constraints(self) -> tuple[Goal, ...]:
        return tuple(g for g in self.goals if g.constraint)

    def point(self, m: Moments, arm: int) -> float:
        return sum(t.value(t.metric.estimate(m, arm)) for t in self.terms)

    def penalised(self, m: Moments, arm: int) -> float:
        """The point objective plus a large penalty per unit a constraint's estimate misses
        by (for screening, where no candidate is dropped)."""
        miss = 0.0
        for g in self.constraints:
            x = g.metric.estimate(m, arm)
            miss += max(0.0, x - g.value) if g.op == "<=" else max(0.0, g.value - x)
        return self.point(m, arm) + 1e3 * miss

    def relaxed(self) -> Objective:
        """When no candidate meets the constraints: the constraints' metrics pushed inward
        alone, which ranks the candidates by how near they come."""
        return Objective(self.constraints)

    def statements(self, arms: int) -> int:
        """Intervals per look the truly best candidate's comparisons rest on (its objective
        or, once nothing meets the constraints, the relaxed one's, whichever has more)."""
        terms = max(len(self.terms), len(self.relaxed().terms) if self.constraints else 0)
        # its own constraints, and every rival's (a rival drops it only once shown to meet
        # every constraint)
        return 3 * terms * max(arms - 1, 1) + len(self.constraints) * arms

    def metrics(self) -> list[Metric]:
        out: dict[str, Metric] = {m.name: m for m in self.maximise}
        for g in self.goals:
            out.setdefault(g.metric.name, g.metric)
        return list(out.values())


# ---------------------------------------------------------------- the race

# arena(rule sets, first game, games, take(frames), label) -> the run's meta: plays the
# rule sets in lockstep on the same game indices and hands each finished block's frames
# (one per rule set) to take.
Arena = Callable[[list, int, int, Callable[[list[pd.DataFrame]], None], str], dict]


@dataclass
class Look:
    games: int          # games each arm in the race has played after this look
    racing: int         # candidates in the race during it
    dropped: list[int]  # candidates dropped at it


@dataclass
class Race:
    """The race's record: who was dropped when and why, and the tally of every game."""

    labels: list[str]
    tally: ArmTally
    objective: Objective
    alpha: float
    miss: float
    looks_max: int
    first_game: int
    base: int
    alive: list[bool]
    reason: list[str]
    dropped_at: list[int | None]
    looks: list[Look] = field(default_factory=list)
    played: int = 0
    interrupted: bool = False
    # Every candidate left was shown to break a constraint; from then on the race ranks
    # them by the relaxed objective (Objective.relaxed) and keeps no constraint.
    none_feasible: bool = False

    @property
    def survivors(self) -> list[int]:
        return [i for i, a in enumerate(self.alive) if a]

    @property
    def best(self) -> int:
        """The survivor with the smallest point objective among those whose estimates meet
        the constraints (if any does; ties: the earlier candidate)."""
        obj = self.objective

        def misses(i: int) -> bool:
            return not self.none_feasible and any(
                not g.holds(g.metric.estimate(self.tally, i)) for g in obj.constraints)

        return min(self.survivors, key=lambda i: (misses(i), obj.point(self.tally, i), i))

    @property
    def shown_miss(self) -> float:
        """Each shown interval's two-sided miss: alpha split over the K settings raced and
        the looks the budget allows (Bonferroni). Then every setting's interval holds
        together at 1 - alpha at whichever look the race stopped, so the recommendation's
        holds though the same games chose it as the best (95% each would not: the
        validation's races of 8 equal settings). One metric at a time: each goal metric's
        intervals are a family of their own."""
        return self.alpha / (len(self.labels) * self.looks_max)

    def interval(self, metric: Metric, arm: int) -> tuple[float, float]:
        """``arm``'s interval of ``metric`` as shown (see ``shown_miss``)."""
        return metric.interval(self.tally, arm, self.shown_miss)

    @property
    def level(self) -> str:
        """The shown intervals' level, in words."""
        return (f"{1 - self.alpha:.0%} simultaneous over the {len(self.labels)} settings "
                f"raced and up to {self.looks_max} looks (each {1 - self.shown_miss:.2%})")

    @property
    def full_cost(self) -> int:
        """Games every candidate would have played to reach the survivors' count."""
        return len(self.labels) * int(self.tally.games[self.survivors].max())


def looks_bound(budget: int, first: int) -> int:
    """Most looks a budget allows: full looks at first, 2 first, 4 first, ... games per arm
    (the l-th costs at least first x 2^(l-1), one arm's games), and one partial look."""
    return 2 + max(0, int(math.floor(math.log2(max(budget, first) / first))))


LEAST_LOOK = 200  # games per candidate at the first look, at least (so normal intervals hold)


def first_look(budget: int, arms: int, least: int = LEAST_LOOK) -> int:
    """Games per arm at the first look: an eighth of the budget over the arms, rounded to
    hundreds, at least ``least``."""
    return max(least, int(budget / (8 * arms)) // 100 * 100)


def race(arena: Arena, rules: Sequence, labels: Sequence[str], layout: Layout,
         objective: Objective, budget: int, alpha: float = ALPHA, first: int | None = None,
         first_game: int = 0, base: int = 0,
         featurize: Callable[[object], dict[str, np.ndarray]] | None = None) -> Race:
    """Race ``rules`` (candidate rule sets; ``base`` is the current rules, which plays every
    look, raced or not, so every answer can say what the change moves) within ``budget``
    games in all.

    The arena hands each block as one outcome frame per arm, reduced to features by
    ``goals.features``; or, with ``featurize``, as anything that function turns into the
    features ``layout.features()`` names (a trained policy's per-deal sums, say)."""
    k = len(rules)
    first = first or first_look(budget, k)
    looks_max = looks_bound(budget, first)
    miss = alpha / (looks_max * objective.statements(k))
    tally = ArmTally(k, layout.features())
    out = Race(list(labels), tally, objective, alpha, miss, looks_max, first_game, base,
               [True] * k, [""] * k, [None] * k)
    target = first
    while len(out.survivors) > 1 and len(out.looks) < looks_max:
        arms = sorted(set(out.survivors) | {base})
        done = int(tally.games[out.survivors[0]])
        games = target - done
        left = budget - out.played
        if games * len(arms) > left:
            games = left // len(arms)
            if games < max(first // 4, 50):
                break
        label = f"look {len(out.looks) + 1}: {len(out.survivors)} settings x {games:,} games"

        def take(frames, arms=arms):
            tally.add(arms, [featurize(f) if featurize else features(f, layout)
                             for f in frames])

        try:
            meta = arena([rules[i] for i in arms], first_game + done, games, take, label)
        except Interrupted:  # a stop between looks: the looks that finished stand
            if not out.looks:
                raise
            out.interrupted = True
            break
        played = int(tally.games[out.survivors[0]]) - done
        out.played += played * len(arms)
        look = len(out.looks) + 1
        dropped = _drop(out, miss, look) if played else []
        out.looks.append(Look(int(tally.games[arms[0]]),
                              len(out.survivors) + len(dropped or ()), dropped or []))
        if meta.get("interrupted"):
            out.interrupted = True
            break
        if dropped is None:  # nothing meets the constraints: race on how near each comes
            out.none_feasible = True
            out.objective = objective.relaxed()
            dropped = _drop(out, miss, look) or []
            out.looks[-1].dropped = dropped
        target *= 2
    if out.interrupted and not out.played:
        raise Interrupted("stopped before any game of the race finished; nothing to answer")
    return out


def _drop(out: Race, miss: float, look: int) -> list[int] | None:
    """Drop, all on this look's data, every candidate shown to break a constraint, then
    every other one shown worse than a rival that is shown to meet every constraint (a
    rival that may break one could beat the truly best unfairly). None when every candidate
    is shown to break a constraint (all are kept: the race then ranks them by the relaxed
    objective)."""
    tally, obj = out.tally, out.objective
    alive = out.survivors
    gone: dict[int, str] = {}
    states = {}
    for a in alive:
        states[a] = [g.met(*g.metric.interval(tally, a, miss)) for g in obj.constraints] \
            if not out.none_feasible else []
        broken = [g for g, state in zip(obj.constraints, states[a], strict=False)
                  if state == "not met"]
        if broken:
            gone[a] = f"shown to break {broken[0].text()}"
    if alive and len(gone) == len(alive):
        for a, why in gone.items():
            out.reason[a] = why
        return None
    rivals = [b for b in alive if b not in gone and all(x == "met" for x in states[b])]
    for a in alive:
        if a in gone:
            continue
        for b in rivals:
            if b != a and sum(t.lower_difference(tally, a, b, miss) for t in obj.terms) > 0:
                gone[a] = f"shown worse than {out.labels[b]}"
                break
    for a, why in gone.items():
        out.alive[a], out.reason[a], out.dropped_at[a] = False, why, look
    return sorted(gone)
