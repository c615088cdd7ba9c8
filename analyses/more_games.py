"""The games an undetermined seat verdict asks for, or why no number of games can be promised.

An 'undetermined' seat answer (:mod:`analyses.seats`) says two things:

* **games in all** (:func:`games_to_decide`): the games after which the deciding interval
  would just clear the margin if the estimates stayed where they are (the test then
  decides about half the time);
* **N more games** (:func:`games_for_verdict`): the games that give the deciding test
  ``power`` (80%) if the truth is at a *conservative* gap: each seat's one-sided
  ``PLAN_LEVEL`` (80%) bound nearest the margin, not its estimate. Planning at the estimate
  failed near the margin: an estimate that happened to fall far from the margin asked for
  too few games (64% and 71% power in the outside audit's settings, issue 24 item 3).
  When that bound reaches the margin the data cannot rule out a gap on the margin, where
  no number of games decides (each verdict is then reached at most 5% of the time), and
  the answer says that more games alone cannot be promised to decide it.

Both are solved on the width of the interval the verdict will be read from: ``z sqrt(v /
n)`` for a fixed-n run, and for ``--precision`` runs the confidence sequence's own width
``a / n + floor`` (:func:`analyses.sequential.eb_width_terms`), which never narrows below
its floor; a seat that needs a narrower interval than the floor is never decided by that
run, however long.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyses import sequential
from analyses.stats import z_value

PLAN_LEVEL = 0.8   # one-sided confidence of the conservative gap the power plan is made at
MOST_GAMES = 10**12


@dataclass(frozen=True)
class Widths:
    """The half-width of a seat's interval after ``n`` games, for a test at one-sided level
    ``alpha``: a fixed-n interval, or (with ``n_plan``) the confidence sequence of a
    ``--precision`` run, its bets tuned to ``n_plan`` games."""

    n_plan: float | None = None

    def terms(self, variance: float, alpha: float) -> tuple[float, float]:
        """(a, floor) with half-width ``a / n + floor`` (sequence) or ``sqrt(a / n)``
        (fixed n, floor 0)."""
        if self.n_plan is None:
            return z_value(1 - 2 * alpha) ** 2 * variance, 0.0
        # the sequence of a one-sided test at alpha is the two-sided one at 2 alpha
        return sequential.eb_width_terms(max(variance, 1e-6), 2 * alpha, self.n_plan)

    def games_for(self, distance: float, variance: float, alpha: float,
                  z_power: float = 0.0) -> float:
        """Games after which the half-width plus ``z_power`` standard errors of the estimate
        is at most ``distance`` (infinite when never: a distance at or under the floor)."""
        a, floor = self.terms(variance, alpha)
        room = distance - floor
        if not room > 0:
            return math.inf
        if self.n_plan is None:  # (sqrt(a) + z_power sqrt(v)) / sqrt(n) = distance
            return (math.sqrt(a) + z_power * math.sqrt(max(variance, 0.0))) ** 2 / room ** 2
        # a u^2 + z_power sqrt(v) u = room, u = 1 / sqrt(n)
        b = z_power * math.sqrt(max(variance, 0.0))
        u = (-b + math.sqrt(b * b + 4 * a * room)) / (2 * a)
        return 1.0 / (u * u)

    def floor(self, variance: float, alpha: float) -> float:
        return self.terms(variance, alpha)[1]


@dataclass(frozen=True)
class Plan:
    """The games to ask for: ``games`` in all (infinite when none can be promised), the
    seat it rests on, and why none can: ``"margin"`` (the conservative bound reaches the
    margin) or ``"floor"`` (the sequence cannot narrow to what the seat needs: ``needed``
    against its ``floor``)."""

    games: float
    seat: int
    reason: str = ""
    bound: float = math.nan     # the seat's conservative gap (a one-sided PLAN_LEVEL bound)
    needed: float = math.nan
    floor: float = 0.0


def _target(gaps: np.ndarray, margin: float) -> str:
    """The verdict more games would reach if the gaps are as observed."""
    return "unbalanced" if np.any(np.abs(gaps) >= margin) else "balanced"


def games_for_verdict(table: pd.DataFrame, n: int, margin: float, alpha: float, power: float,
                      widths: Widths = Widths(), level: float = PLAN_LEVEL) -> Plan:
    """Games in all at which the deciding test has ``power`` if each seat's true gap is at
    its conservative value: the one-sided ``level`` bound of its gap nearest the margin,
    ``|gap| +- z_level sqrt(v / n)``.

    If every gap is inside the margin the verdict to reach is 'balanced': every seat's TOST
    must pass (one-sided tests at alpha), so each seat is planned at power ``power ** (1 /
    P)`` (the product is ``power``) at the distance ``margin - (|gap| + z_level se)``, and
    the seat needing the most games sets the count. Otherwise it is 'unbalanced' through a
    seat beyond the margin (its one-sided test at alpha / P) at the distance ``|gap| -
    z_level se - margin``, the seat needing the fewest. A distance of 0 or less (the bound
    reaches the margin) gives no number; nor does a sequence whose floor is at or above the
    distance less the power's share.
    """
    gaps = table["gap"].to_numpy()
    var = table["variance"].to_numpy()
    players = len(gaps)
    z_level = z_value(2 * level - 1)
    se = np.sqrt(var / n)
    if _target(gaps, margin) == "unbalanced":
        seats = np.flatnonzero(np.abs(gaps) >= margin)
        test_alpha, z_power, pick = alpha / players, z_value(2 * power - 1), min
        bound = np.abs(gaps) - z_level * se
        distance = bound - margin
    else:
        seats = np.arange(players)
        test_alpha, z_power, pick = alpha, z_value(2 * power ** (1 / players) - 1), max
        bound = np.abs(gaps) + z_level * se
        distance = margin - bound
    plans = []
    for s in seats:
        s = int(s)
        games = widths.games_for(float(distance[s]), float(var[s]), test_alpha, z_power)
        plan = Plan(games, s, bound=float(np.sign(gaps[s]) * bound[s]))
        if not math.isfinite(games):
            floor = widths.floor(float(var[s]), test_alpha)
            reason = "margin" if distance[s] <= 0 or floor == 0 else "floor"
            plan = Plan(math.inf, s, reason, plan.bound, float(distance[s]), floor)
        plans.append(plan)
    best = pick(plans, key=lambda p: p.games)
    if best.games >= MOST_GAMES and best.reason == "":  # a bound a hair from the margin
        best = Plan(math.inf, best.seat, "margin", best.bound, float(distance[best.seat]))
    return best


def games_to_decide(table: pd.DataFrame, n: int, margin: float,
                    widths: Widths = Widths(), alpha: float = 0.05) -> tuple[float, int]:
    """Games in all after which the deciding interval would no longer straddle the margin, if
    the estimates stay where they are: (games, the seat it rests on); infinite games when an
    estimate lies on the margin, where more games alone cannot decide, or when a sequence's
    floor is wider than the distance.

    Fixed n: an interval's half-width shrinks as 1/sqrt(n), so a bound at ``h`` from its
    estimate, which must come within the distance ``d`` from the estimate to the margin,
    gets there after about ``n (h / d)^2`` games in all (``h`` read off the table's
    intervals). A ``--precision`` sequence: the games at which its width ``a / n + floor``
    (with the seat's variance) is ``d``. If every gap is inside the margin the verdict to
    reach is 'balanced': every seat's two 90% bounds (``eq_*``) inside (-margin, +margin), so
    the seat needing the most games sets the count. Otherwise it is 'unbalanced' through a
    seat beyond the margin: its one-sided bound at alpha/P (``ub_*``) beyond it, the seat
    needing the fewest. This is where the test decides about half the time; the power plan
    (:func:`games_for_verdict`) asks for more.
    """
    gaps = table["gap"].to_numpy()
    players = len(gaps)
    if _target(gaps, margin) == "unbalanced":
        low, high = table["ub_low"].to_numpy(), table["ub_high"].to_numpy()
        seats, test_alpha, pick = np.flatnonzero(np.abs(gaps) >= margin), alpha / players, min
        distance = np.abs(gaps) - margin
        half = np.where(gaps > 0, gaps - low, high - gaps)
    else:
        low, high = table["eq_low"].to_numpy(), table["eq_high"].to_numpy()
        seats, test_alpha, pick = np.arange(players), alpha, max
        # the binding side of each seat: the one whose bound is relatively nearer the margin
        upper = (high - gaps) / (margin - gaps) >= (gaps - low) / (margin + gaps)
        distance = np.where(upper, margin - gaps, margin + gaps)
        half = np.where(upper, high - gaps, gaps - low)
    games = {}
    for s in seats:
        s = int(s)
        if not distance[s] > 0:
            games[s] = math.inf
        elif widths.n_plan is None:
            games[s] = n * (half[s] / distance[s]) ** 2
        else:
            games[s] = widths.games_for(float(distance[s]), float(table["variance"].iloc[s]),
                                        test_alpha)
    seat = pick(games, key=games.get)
    value = games[seat]
    if not value < MOST_GAMES:  # an estimate on the margin (to rounding) or a hair from it
        return math.inf, seat
    return max(float(n), value), seat
