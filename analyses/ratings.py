"""One rating per policy from a ladder's head to heads: Bradley-Terry in Luce's form for P players.

A head to head seats one focal policy A among P-1 seats of a field policy B. In
Luce's choice model (the Bradley-Terry model for more than two players: each
player i has a strength e^θ_i and wins a game with probability e^θ_i / Σ_j e^θ_j)
the focal seat wins

    s = e^θ_A / (e^θ_A + (P-1) e^θ_B),   so   θ_A - θ_B = ln(s (P-1) / (1 - s)).

The ladder's pairings join each policy to the one below it, a chain: the maximum
likelihood fit of the model to those pairings reproduces each pairing's share
exactly, so each policy's rating is the sum of the steps below it, each step the
pairing's share mapped by the formula above (Luce 1959; Hunter, "MM algorithms for
generalized Bradley-Terry models", Ann. Statist. 32, 2004). Ratings are shown on
the Elo scale, 400 log10 of the odds (the first rung at 0): +400 is a policy that
wins ten times as often as an equal player's odds would say.

Intervals: a step's interval is its head to head's share interval mapped through
the same increasing function, so it has the share's coverage exactly. A rating
sums several steps whose head to heads share deals, so their errors may be
dependent: each step enters at level 1 - α/m (Bonferroni over the m steps summed),
which covers whatever that dependence (conservative). Each rating, and each gap
between two ratings, is one such statement at 95%.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from analyses.stats import CONFIDENCE, Interval

ELO = 400.0 / math.log(10.0)  # Elo points per unit of Luce strength (natural log odds)


def luce_step(share: float, players: int) -> float:
    """θ_A - θ_B from the focal seat's share among P-1 seats of B (±inf at 1 and 0)."""
    if share >= 1.0:
        return math.inf
    if share <= 0.0:
        return -math.inf
    return math.log(share * (players - 1) / (1.0 - share))


def elo_step(share: Interval, players: int) -> Interval:
    """A head to head's share interval as Elo points of the focal policy over the field."""
    return Interval(*(ELO * luce_step(x, players) for x in share))


@dataclass(frozen=True)
class Rating:
    """A policy's rating (Elo points over the ladder's first rung) and its rung's step over
    the rung below (95% each)."""

    policy: str
    rating: Interval
    step: Interval | None  # over the rung below; None for the first rung


class Ratings:
    """The ratings of a chain of policies, weakest first, from ``share_at(k, confidence)``:
    the share interval of rung k's head to head (policy k + 1 focal among policy k)."""

    def __init__(self, policies: Sequence[str], players: int,
                 share_at: Callable[[int, float], Interval], confidence: float = CONFIDENCE):
        self.policies = tuple(policies)
        self.players, self.share_at, self.confidence = players, share_at, confidence

    def gap(self, low: int, high: int, confidence: float | None = None) -> Interval:
        """Policy ``high``'s rating over policy ``low``'s (indices into the chain): the sum
        of the steps between, each at 1 - α/m (Bonferroni over the m steps)."""
        confidence = self.confidence if confidence is None else confidence
        if low == high:
            return Interval(0.0, 0.0, 0.0)
        if low > high:
            g = self.gap(high, low, confidence)
            return Interval(-g.estimate, -g.high, -g.low)
        m = high - low
        level = 1 - (1 - confidence) / m
        steps = [elo_step(self.share_at(k, level), self.players) for k in range(low, high)]
        return Interval(*(sum(s[i] for s in steps) for i in range(3)))

    def table(self) -> list[Rating]:
        """Every policy's rating over the first, and its step over the one below."""
        return [Rating(p, self.gap(0, k), self.gap(k - 1, k) if k else None)
                for k, p in enumerate(self.policies)]


def method_text(players: int) -> str:
    """How the ratings were made, for a page or a command's answer."""
    return ("Ratings: Bradley-Terry in Luce's form for several players (a player of "
            "strength e^θ wins with probability e^θ over the table's sum), fitted by maximum "
            "likelihood to the ladder's head to heads; with each policy paired to the one "
            "below, the fit is exact: a rung's step is ln(s (P-1) / (1 - s)) for its share s "
            f"among {players - 1} others, shown as Elo points (400 log10 of the odds, the "
            "first rung at 0). A step's interval is its share's mapped (exact coverage); a "
            "rating sums the steps below it, each at 1 - 5%/m for the m steps summed "
            "(Bonferroni: 95% whatever the dependence of head to heads on the same deals; "
            "conservative).")
