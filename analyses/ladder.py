"""Skill and luck: each policy against the next weaker one, on the same deals, and how much is luck.

A *skill ladder* lists a game's policies from weakest to strongest and plays
each rung, a policy against the next weaker one, on the same deals (the world
stream is seeded from the seed and the game index, so every rung and every
rotation of a rung sees the same deals). Two kinds of game:

**Multi-player games.** A rung is a head to head (``analyses.matchup``):
one seat of the stronger policy among P-1 seats of the weaker, rotated
through every seat with the same number of games each, so seat effects
cancel. The answer per rung is the stronger policy's win share with its
interval (clustered by deal), and two luck measures derived from it:

- the *upset rate*, 1 - share: how often a weaker player wins the game;
- the *luck index*, (1 - share) / (1 - 1/P): the upset rate relative to the
  upset rate between equal players, (P-1)/P. 1 means the stronger policy
  wins no more often than an equal player would (the result is all luck at
  this gap in skill); 0 means it always wins (all skill). Its interval is
  the share's, mapped through the same (decreasing, linear) function, so it
  has the share's coverage exactly.

This follows the skill-versus-chance literature that measures luck by how
often a better player fails to win: Elias, Garfield & Gutschera,
*Characteristics of Games* (MIT Press, 2012), ch. 6 ("luck and skill"), and
Duersch, Lambrecht & Oechssler, "Measuring skill and chance in games",
*European Economic Review* 127 (2020), who compare a game's outcome spread
between players of different skill with that between equals.

**Rum Runner (solo).** A rung is the mean score difference, stronger minus
weaker, on the same deals (over deals by gains and losses, ``analyses.deals``: it
holds when the two policies differ on only a few deals), the share of deals on
which the weaker policy scores more (an upset; a tie counts half), and the
share of score variance due to the deal: a two-way layout (deal x policy,
one game each) whose ANOVA variance components (Searle, Casella & McCulloch,
*Variance Components*, Wiley, 1992) split the variance of a game's score
into the deal (what the shuffle gives: the same deal scores alike under both
policies), the policy (the difference of the two policies' means) and the
rest (how the two play a given deal differently, their own random choices
included). Intervals for the shares: a delete-a-group jackknife over
``GROUPS`` groups of deals (game index mod ``GROUPS``) with a Student-t(G-1)
critical value, which needs only each group's sums (no rows are kept) and
gives the same answer whatever the block size. Its coverage is checked by
simulation on data with known variance components
(``analyses.validation``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _st

from analyses.deals import DealDifferences
from analyses.matchup import MatchupAnswer
from analyses.stats import (
    CONFIDENCE,
    Interval,
    holm,
    share_interval_from_moments,
)
from simulate.codec import storable

GROUPS = 32  # jackknife groups of deals (game index mod GROUPS)

# The words for a rung's luck index (upper bounds, checked in order): what it means for a
# designer. Declared once; the page's sentences and the table read them.
LUCK_WORDS = ((0.2, "skill dominates"), (0.5, "skill matters more than luck"),
              (0.8, "luck matters more than skill"), (math.inf, "luck dominates"))


def luck_words(index: float) -> str:
    """What a luck index means, in words."""
    return next(w for bound, w in LUCK_WORDS if index < bound)


def wrong_order(rungs: Sequence[MatchupAnswer]) -> tuple[np.ndarray, np.ndarray]:
    """Per rung, the Holm-adjusted one-sided p-value of "the stronger policy's share is at
    least 1/P" (``MatchupAnswer.p_below``; a rung without one counts as 1) and whether the
    ladder's order is shown wrong there: adjusted p below (1 - CONFIDENCE)/2. Uncorrected,
    each rung's 95% interval lies below 1/P in 2.5% of equal-policy rungs, so a ladder of
    four equal rungs said "wrong" somewhere in 8.6% of 2,000 simulated ladders; Holm's
    step-down keeps that family-wise rate at most 2.5% whatever the rungs' dependence (they
    share deals; 1.4% simulated, ``analyses.validation``), and a one-rung ladder reads as
    its interval."""
    p = np.array([m.p_below if math.isfinite(m.p_below) else 1.0 for m in rungs], float)
    adjusted = holm(p) if p.size else p
    return adjusted, adjusted < (1 - CONFIDENCE) / 2


def _reading(m: MatchupAnswer, luck: Interval, wrong: bool = False, rungs: int = 1) -> str:
    """What a rung says: how much is luck, or that the ladder's order is wrong or unshown
    (``wrong``: shown wrong after the correction over the ladder's ``rungs``)."""
    if wrong:
        return (f"{m.focal} is weaker than {m.field} here (interval wholly below an equal "
                "player's share, also after Holm's correction over the ladder's "
                f"{rungs} rungs): the ladder's order is wrong at this rung")
    if m.share.high < m.fair:
        return (f"{m.focal} looks weaker than {m.field} here (its own 95% interval lies below "
                f"an equal player's share) but not after Holm's correction over the ladder's "
                f"{rungs} rungs: the ladder's order is not shown to be wrong at this rung")
    if m.share.low <= m.fair:
        return (f"{m.focal} is not shown to be stronger than {m.field} (the interval holds an "
                "equal player's share)")
    return f"{luck_words(luck.estimate)} between these two"


def luck_index(share: Interval, players: int) -> Interval:
    """(1 - share) / (1 - 1/P) with the share's interval mapped (bounds swap: decreasing)."""
    equal = 1.0 - 1.0 / players
    return Interval((1 - share.estimate) / equal, (1 - share.high) / equal,
                    (1 - share.low) / equal)


@dataclass
class LadderAnswer:
    """The rungs of a skill ladder: one row per rung, its words and its method."""

    table: pd.DataFrame
    sentences: list[str]
    method: str
    solo: bool


def ladder(rungs: Sequence[MatchupAnswer]) -> LadderAnswer:
    """The ladder of a multi-player game from its rungs' head-to-head answers (stronger
    policy focal, weaker the field), weakest rung first."""
    rows, sentences = [], []
    adjusted, wrong = wrong_order(rungs)
    for k, m in enumerate(rungs):
        luck = luck_index(m.share, m.players)
        reading = _reading(m, luck, bool(wrong[k]), len(rungs))
        upset = Interval(1 - m.share.estimate, 1 - m.share.high, 1 - m.share.low)
        rows.append({"stronger": m.focal, "weaker": m.field, "players": m.players,
                     "games": m.games, "fair": m.fair, "share": m.share.estimate,
                     "low": m.share.low, "high": m.share.high, "upset": upset.estimate,
                     "upset_low": upset.low, "upset_high": upset.high,
                     "luck": luck.estimate, "luck_low": luck.low, "luck_high": luck.high,
                     "verdict": m.verdict, "p_weaker_holm": float(adjusted[k]),
                     "reading": reading})
        sentences.append(
            f"One {m.focal} player among {m.players - 1} {m.field} players wins "
            f"{m.share.estimate:.1%} [{m.share.low:.1%}, {m.share.high:.1%}] of games (an "
            f"equal player would win {m.fair:.0%}); a {m.field} player wins the other "
            f"{upset.estimate:.1%} [{upset.low:.1%}, {upset.high:.1%}]. Luck index "
            f"{luck.estimate:.2f} [{luck.low:.2f}, {luck.high:.2f}] (1: no better than an "
            f"equal player, 0: always wins): {reading}.")
    if not rows:
        return LadderAnswer(pd.DataFrame(), [], "", solo=False)
    method = ("Skill ladder: each policy against the next weaker one, one seat of the stronger "
              "among the weaker, rotated through every seat with the same games per seat, on "
              "the same deals; win share clustered by deal (an interval over deals by gains "
              "and losses, see the head-to-head method). Upset rate = 1 - share; luck index "
              "= (1 - share) / (1 - 1/P), its interval the share's mapped (exact). The order "
              "is called wrong at a rung only when its one-sided p-value of 'the stronger "
              "policy wins at least 1/P' (its interval read the other way), Holm-adjusted "
              f"over the ladder's {len(rows)} rungs, is below 2.5%, so a ladder of equal "
              "policies says it on some rung with at most 2.5% chance (uncorrected, some "
              "rung of four equal ones said it in 8.6% of 2,000 simulated ladders; "
              "corrected, 1.4%). After Elias, Garfield & Gutschera, Characteristics of "
              "Games (2012), and Duersch, Lambrecht & Oechssler, Measuring skill and chance "
              "in games, Eur. Econ. Rev. (2020).")
    return LadderAnswer(pd.DataFrame(rows), sentences, method, solo=False)


# ---------------------------------------------------------------- Rum Runner: the same deals


@storable
class ScoreLadderTally:
    """The score ladder of a solo game, fed ``add(frames)``: one frame per policy (weakest
    first), of the same game indices. Per jackknife group (game index mod ``groups``) and
    per rung (policies j, j+1): games, sums of each score, of squares, of the product, and
    of the upset indicator (weaker scores more; a tie counts half) and its square."""

    def __init__(self, policies: Sequence[str], groups: int = GROUPS, column: str = "score_0"):
        self.policies = tuple(policies)
        if len(self.policies) < 2:
            raise ValueError("a ladder needs two or more policies")
        self.groups, self.column = groups, column
        rungs = len(self.policies) - 1
        # [group, rung, moment]: n, Σa, Σb, Σa², Σb², Σab, Σu, Σu² (a weaker, b stronger).
        self.sums = np.zeros((groups, rungs, 8))
        # per rung the score lead b - a per deal, as exact gains and losses (its interval)
        self.leads = [DealDifferences(0.0) for _ in range(rungs)]

    def add(self, frames) -> ScoreLadderTally:
        frames = list(frames)
        if len(frames) != len(self.policies):
            raise ValueError(f"need one frame per policy ({len(self.policies)}), got "
                             f"{len(frames)}")
        game = frames[0]["game"].to_numpy()
        if not all(np.array_equal(game, f["game"].to_numpy()) for f in frames):
            raise ValueError("the ladder's frames must hold the same games, in order")
        group = game % self.groups
        scores = [f[self.column].to_numpy(dtype=float) for f in frames]
        for r in range(len(self.policies) - 1):
            a, b = scores[r], scores[r + 1]
            u = (a > b) + 0.5 * (a == b)
            self.leads[r].add(b - a)
            for k, v in enumerate((np.ones_like(a), a, b, a * a, b * b, a * b, u, u * u)):
                self.sums[:, r, k] += np.bincount(group, weights=v, minlength=self.groups)
        return self

    def merge(self, other: ScoreLadderTally) -> ScoreLadderTally:
        if (other.policies, other.groups) != (self.policies, self.groups):
            raise ValueError("cannot merge ladders of other policies or groups")
        self.sums += other.sums
        for mine, theirs in zip(self.leads, other.leads, strict=True):
            mine.merge(theirs)
        return self


def verify_differences(d, centre: float, games: int) -> None:
    """Refuse a stored :class:`DealDifferences` that is not of ``games`` deals around
    ``centre`` (its sums whole gains and losses: what ``merge`` adds)."""
    if type(d) is not DealDifferences or d.centre != centre:
        raise ValueError("not a tally of per-deal values")
    if type(d.n) is not int or d.n != games:
        raise ValueError(f"it counts {d.n} deals, not {games}")
    if not isinstance(d.sums, list) or len(d.sums) != 2 or any(
            not isinstance(part, list) or len(part) != 3
            or any(type(x) is not int or x < 0 for x in part) for part in d.sums):
        raise ValueError("its sums are not exact gains and losses")


def verify_score_ladder(tally, policies: Sequence[str], games: int,
                        groups: int = GROUPS, column: str = "score_0") -> None:
    """Refuse a stored :class:`ScoreLadderTally` that is not of ``policies`` over ``games``
    deals (its type, policies, groups, column, the shape of its sums and the deals each
    counts)."""
    policies = tuple(policies)
    if type(tally) is not ScoreLadderTally or tally.policies != policies \
            or tally.groups != groups or tally.column != column:
        raise ValueError("not a score ladder of these policies")
    s = tally.sums
    if not isinstance(s, np.ndarray) or s.dtype != np.float64 \
            or s.shape != (groups, len(policies) - 1, 8):
        raise ValueError("its sums are not one per group, rung and moment")
    if np.any(s[:, :, 0].sum(axis=0) != games) or s[:, :, 0].min() < 0:
        raise ValueError(f"its sums count other than {games} deals")
    if not isinstance(tally.leads, list) or len(tally.leads) != len(policies) - 1:
        raise ValueError("not one score lead per rung")
    for d in tally.leads:
        verify_differences(d, 0.0, games)


def variance_shares(m: np.ndarray) -> np.ndarray:
    """(deal, policy, rest) shares of a game's score variance from one rung's sums
    (n, Σa, Σb, Σa², Σb², Σab): the two-way ANOVA variance components over their total.
    Not clipped: an estimate below 0 (a component too small to see) is kept, so the
    jackknife sees the estimator's real spread; :func:`score_ladder` clips what it shows."""
    n, sa, sb, saa, sbb, sab = m[:6]
    if n < 2:
        return np.full(3, np.nan)
    t = sa + sb
    ss_total = saa + sbb - t * t / (2 * n)
    ss_deal = (saa + sbb + 2 * sab) / 2 - t * t / (2 * n)
    ss_policy = (sa * sa + sb * sb) / n - t * t / (2 * n)
    ss_rest = max(ss_total - ss_deal - ss_policy, 0.0)
    ms_rest = ss_rest / (n - 1)
    deal = (ss_deal / (n - 1) - ms_rest) / 2
    policy = (ss_policy - ms_rest) / (2 * n)
    parts = np.array([deal, policy, ms_rest])
    total = parts.sum()
    return parts / total if total > 0 else np.full(3, np.nan)


def _clipped(iv: Interval) -> Interval:
    """A share and its interval shown within [0, 1] (a variance share cannot leave it)."""
    def c(x):
        return min(max(x, 0.0), 1.0)
    return Interval(c(iv.estimate), c(iv.low), c(iv.high))


def jackknife(theta, groups: np.ndarray, confidence: float = CONFIDENCE) -> list[Interval]:
    """Delete-a-group jackknife intervals of each component of ``theta(sums)``: ``groups``
    holds each group's sums (first axis); estimate from all groups, variance
    (G-1)/G · Σ(θ_(g) - θ̄)², Student-t(G-1) interval."""
    g = groups.shape[0]
    whole = groups.sum(axis=0)
    est = np.asarray(theta(whole), dtype=float)
    drops = np.array([theta(whole - groups[k]) for k in range(g)], dtype=float)
    var = (g - 1) / g * ((drops - drops.mean(axis=0)) ** 2).sum(axis=0)
    half = float(_st.t.ppf(0.5 + confidence / 2, g - 1)) * np.sqrt(var)
    return [Interval(float(e), float(e - h), float(e + h)) for e, h in zip(est, half,
                                                                            strict=True)]


def score_ladder(tally: ScoreLadderTally, confidence: float = CONFIDENCE) -> LadderAnswer:
    """The ladder of a solo game: per rung the score lead, the upset rate and the variance
    shares (deal, policy, rest), each with its interval."""
    rows, sentences = [], []
    for r in range(len(tally.policies) - 1):
        weak, strong = tally.policies[r], tally.policies[r + 1]
        g = tally.sums[:, r, :]
        n, sa, sb, saa, sbb, sab, su, suu = g.sum(axis=0)
        n = int(n)
        lead = tally.leads[r].interval(confidence)
        upset = (share_interval_from_moments(n, su / n, max(suu / n - (su / n) ** 2, 0.0),
                                             confidence) if n else Interval(math.nan, 0, 1))
        deal, policy, rest = (_clipped(iv) for iv in jackknife(variance_shares, g, confidence))
        rows.append({"stronger": strong, "weaker": weak, "players": 1, "games": n,
                     "lead": lead.estimate, "lead_low": lead.low, "lead_high": lead.high,
                     "upset": upset.estimate, "upset_low": upset.low, "upset_high": upset.high,
                     "deal_share": deal.estimate, "deal_low": deal.low, "deal_high": deal.high,
                     "policy_share": policy.estimate, "policy_low": policy.low,
                     "policy_high": policy.high, "rest_share": rest.estimate,
                     "rest_low": rest.low, "rest_high": rest.high})
        sentences.append(
            f"On the same {n:,} deals {strong} scores {lead.estimate:+.1f} "
            f"[{lead.low:+.1f}, {lead.high:+.1f}] points more than {weak}; {weak} scores more "
            f"on {upset.estimate:.1%} [{upset.low:.1%}, {upset.high:.1%}] of deals. The deal "
            f"explains {deal.estimate:.0%} [{deal.low:.0%}, {deal.high:.0%}] of the score "
            f"variance, the choice between the two policies {policy.estimate:.0%} "
            f"[{policy.low:.0%}, {policy.high:.0%}], the rest {rest.estimate:.0%}: "
            + ("the cards decide more than the player." if deal.estimate > policy.estimate
               else "the player decides more than the cards."))
    method = ("Skill ladder (solo): each policy against the next weaker one on the same deals "
              "(game indices). Score lead: the mean per-deal difference, its interval over deals "
              "by gains and losses (the deals' gains and losses, each mean with Hall's (1992) "
              "skewness-corrected t interval, combined by MOVER, Zou & Donner 2008; it holds "
              "when the two differ on few deals, and is Student-t's when they differ on many). "
              "Upset: the weaker policy scores more (ties count half), Wilson on the "
              "tie-adjusted effective size. Variance shares: ANOVA variance components of a "
              "deal x policy layout with one game per cell (Searle, Casella & McCulloch, "
              f"Variance Components, 1992), shown within [0, 1]; intervals by a delete-a-group "
              f"jackknife over {tally.groups} groups of deals (game index mod "
              f"{tally.groups}), Student-t({tally.groups - 1}).")
    return LadderAnswer(pd.DataFrame(rows), sentences, method, solo=True)
