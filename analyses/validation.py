"""The validation suite: every interval's coverage and every verdict's error rate, on data with a
known truth.

Each case simulates one replication and says whether the method got it right (an
interval covered the truth, a test did not reject a true null, a planned run
reached a verdict); :func:`run` repeats each case and compares the observed
rate with the promise. ``tests/test_validation.py`` runs every case in CI
(``ci_reps`` replications: 2,000, fewer for the slow ones); ``make validate``
runs 1,000 replications per case and prints the table (a rate holds when it is
within three Monte Carlo standard errors of its promise, or better)::

    .venv/bin/python -m analyses.validation [--reps 1000] [--out validation.csv]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _st

from analyses import convergence, restrict
from analyses.deals import DealDifferences
from analyses.goals import Layout, parse_goal
from analyses.matchup import matchup
from analyses.racing import Objective, race
from analyses.seats import SeatTally, clustered_equal_shares, seat_advantage
from analyses.stats import (
    mean_interval,
    paired_share_difference,
    ratio_interval,
    share_interval,
    wilson_interval,
)
from analyses.variants import compare


@dataclass(frozen=True)
class Case:
    """One check: ``trial(rng)`` is True when the method did what it promises this time."""

    name: str
    promise: str           # what the rate must be: "coverage >= 95%", "error <= 5%", ...
    target: float          # the promised rate of successes (coverage, 1 - error, power)
    trial: Callable[[np.random.Generator], bool]
    ci_reps: int = 2000    # replications in the CI test (fewer for the slow cases)


def synthetic_wins(rng, shares, n):
    """games x seats wins with seat s winning with probability shares[s] (no ties)."""
    winner = rng.choice(len(shares), size=n, p=np.asarray(shares) / np.sum(shares))
    wins = np.zeros((n, len(shares)))
    wins[np.arange(n), winner] = 1.0
    return pd.DataFrame({f"win_{s}": wins[:, s] for s in range(len(shares))})


def gap_shares(players, gap):
    """Seat 0 at 1/P + gap, the others sharing the rest equally."""
    fair = 1 / players
    return [fair + gap] + [(1 - fair - gap) / (players - 1)] * (players - 1)


def wilson(rng) -> bool:
    return _covers(wilson_interval(rng.binomial(400, 0.1), 400), 0.1)


def _covers(interval, truth) -> bool:
    return interval.low <= truth <= interval.high


def tied_share(rng) -> bool:
    """Win shares with 15% two-way ties (1/2 each): the effective-sample-size Wilson."""
    u = rng.random(600)
    w = np.where(u < 0.25, 1.0, np.where(u < 0.40, 0.5, 0.0))
    return _covers(share_interval(w), 0.25 + 0.15 / 2)


def paired_mean(rng) -> bool:
    x = rng.poisson(20, 500).astype(float)
    y = x - 1 + rng.normal(0, 2, 500)
    return _covers(mean_interval(y - x), -1.0)


def rare_paired_share(rng) -> bool:
    u = rng.random(2000)
    diff, _ = paired_share_difference((u < 0.001).astype(float), (u < 0.002).astype(float))
    return _covers(diff, 0.001)


def paired_share(rng) -> bool:
    u = rng.random(1000)
    diff, _ = paired_share_difference((u < 0.3).astype(float), (u < 0.35).astype(float))
    return _covers(diff, 0.05)


def clustered_ratio(rng) -> bool:
    x = rng.poisson(3.0, 300)
    y = rng.binomial(x, rng.beta(1.5, 3.5, 300))
    return _covers(ratio_interval(y, x), 0.3)


def _shared_deal_runs(rng, players: int, n: int, flip: float, q: float) -> dict:
    """Rotations on n shared deals: a deal's winner stands unless, in rotation s, the focal
    seat plays differently (chance ``flip``) and then wins with chance ``q`` (else one of
    the field seats wins). The focal policy's true share is (1 - flip)/P + flip * q."""
    base = rng.integers(0, players, n)
    runs = {}
    for s in range(players):
        winner = base.copy()
        changed = rng.random(n) < flip
        others = (s + rng.integers(1, players, n)) % players
        winner[changed] = np.where(rng.random(n)[changed] < q, s, others[changed])
        columns = {"game": np.arange(n)}
        for k in range(players):
            columns[f"win_{k}"] = (winner == k).astype(float)
            columns[f"score_{k}"] = 10.0 * (winner == k)
        runs[s] = pd.DataFrame(columns)
    return runs


def deal_clustered_matchup(rng) -> bool:
    """One focal seat changes 10% of shared deals and then wins 60% of them."""
    return _covers(matchup(_shared_deal_runs(rng, 4, 400, 0.1, 0.6), 4, "x", "y").share,
                   0.9 / 4 + 0.1 * 0.6)


# The outside audit's rare, one-sided differences: a focal policy that plays differently
# on a few deals and then nearly always wins them. Student-t over deals covered 92.5-93.6%,
# missing on the high side (a sample with few gains also has a small spread).
def rare_gains_matchup(rng, n: int, flip: float, q: float) -> bool:
    players = 4
    share = matchup(_shared_deal_runs(rng, players, n, flip, q), players, "x", "y").share
    return _covers(share, (1 - flip) / players + flip * q)


def rare_gains_8(rng) -> bool:
    """About 8 of 1,000 deals differ (the focal seat plays differently on 0.3% of each
    rotation's games and then always wins)."""
    return rare_gains_matchup(rng, 1000, 0.003, 1.0)


def rare_gains_40(rng) -> bool:
    """About 36 of 1,000 deals differ, 97% of them gains (changes on 1.3%, won 90%)."""
    return rare_gains_matchup(rng, 1000, 0.013, 0.9)


def rare_solo_lead(rng) -> bool:
    """Rum Runner's rung: two policies score the same on a deal but for 2% of 1,000 deals,
    where the stronger scores 1 + Poisson(2) points more (9 times in 10) or less: the
    interval of the mean lead covers its truth 0.02 * 0.8 * 3."""
    from analyses.ladder import ScoreLadderTally, score_ladder

    n = 1000
    deal = rng.integers(20, 60, n).astype(float)
    differs = rng.random(n) < 0.02
    sign = np.where(rng.random(n) < 0.9, 1.0, -1.0)
    gain = np.where(differs, sign * (1 + rng.poisson(2, n)), 0.0)
    game = np.arange(n)
    frames = [pd.DataFrame({"game": game, "score_0": deal}),
              pd.DataFrame({"game": game, "score_0": deal + gain})]
    row = score_ladder(ScoreLadderTally(("weak", "strong")).add(frames)).table.iloc[0]
    return bool(row["lead_low"] <= 0.02 * 0.8 * 3 <= row["lead_high"])


def equal_ladder(rng) -> bool:
    """A ladder of five equal policies (four rungs of 4 players, 400 shared deals each; the
    stronger plays differently on 10% of deals and wins those at the fair 1/4): no rung
    says the ladder's order is wrong (uncorrected, some rung said it in 8.6% of ladders)."""
    from analyses.ladder import ladder

    rungs = [matchup(_shared_deal_runs(rng, 4, 400, 0.1, 0.25), 4, f"p{k + 1}", f"p{k}")
             for k in range(4)]
    return not any("order is wrong" in r for r in ladder(rungs).table["reading"])


def position_test_level(rng) -> bool:
    """No position effect, Montego-Bay-like positions: the clustered test does not reject."""
    players, n = 3, 1000
    keys = np.log(np.array([0.4, 0.3, 0.2, 0.1]))[None, :] + rng.gumbel(size=(n, 4))
    values = np.concatenate([np.ones((n, 1), int), np.argsort(-keys, axis=1)[:, :2] + 2], 1)
    values = np.take_along_axis(values, np.argsort(rng.random((n, players)), axis=1), 1)
    wins = np.zeros((n, players))
    wins[np.arange(n), rng.integers(0, players, n)] = 1.0
    return clustered_equal_shares(values, wins, np.unique(values))[2] >= 0.05


def seat_test_level_with_ties(rng) -> bool:
    """Fair seats, 10% of games a two-way tie (1/2 each): the equal-seats test does not
    reject."""
    players, n = 4, 2000
    winner = rng.integers(0, players, n)
    wins = np.zeros((n, players))
    wins[np.arange(n), winner] = 1.0
    tied = rng.random(n) < 0.10
    other = (winner + rng.integers(1, players, n)) % players
    wins[tied, winner[tied]] = 0.5
    wins[tied, other[tied]] = 0.5
    frame = pd.DataFrame({f"win_{s}": wins[:, s] for s in range(players)})
    return seat_advantage(frame, players).p_value >= 0.05


def no_false_balanced(rng) -> bool:
    """True gap exactly the margin: 'balanced' would be wrong."""
    frame = synthetic_wins(rng, gap_shares(4, 0.02), 20_000)
    return seat_advantage(frame, 4, margin=0.02).verdict != "balanced"


def no_false_unbalanced(rng) -> bool:
    frame = synthetic_wins(rng, gap_shares(4, 0.02), 20_000)
    return seat_advantage(frame, 4, margin=0.02).verdict != "unbalanced"


def synthetic_tally(rng, shares, n: int) -> SeatTally:
    """What :func:`synthetic_wins` would tally, drawn at once (no ties: the winners' counts
    are multinomial), so a case can follow advice of millions of games in microseconds."""
    return tally_of_counts(rng.multinomial(n, np.asarray(shares) / np.sum(shares)))


def tally_of_counts(wins) -> SeatTally:
    """The seat tally of games with no tie in which seat s won ``wins[s]`` of them."""
    counts = np.asarray(wins, dtype=float)
    tally = SeatTally(len(counts))
    tally.n, tally.sums, tally.squares, tally.products = (int(counts.sum()), counts,
                                                          counts.copy(), np.diag(counts))
    return tally


def follow_advice(rng, shares, games: int, margin: float) -> str:
    """Play ``games`` games; if the answer is undetermined, play the more games it asks for
    (at most 10^9) and ask again: 'decided' (at first), 'cannot' (no number promised),
    'reached' or 'failed' (a verdict after the more games, or none)."""
    first = synthetic_tally(rng, shares, games)
    answer = first.answer(margin)
    if answer.verdict != "undetermined":
        return "decided"
    if answer.more_games is None:
        if "more games alone cannot be promised to decide it" not in answer.verdict_text:
            raise AssertionError(answer.verdict_text)
        return "cannot"
    more = synthetic_tally(rng, shares, min(answer.more_games, 10**9))
    return "reached" if first.merge(more).answer(margin).verdict != "undetermined" else "failed"


def _advice_power(rng, shares, games: int, margin: float) -> bool:
    """Among runs that ask for N more games: do those games reach a verdict?"""
    while (got := follow_advice(rng, shares, games, margin)) not in ("reached", "failed"):
        pass
    return got == "reached"


def planned_games_decide(rng) -> bool:
    """3 players, 3,000 games, true gap 1 pp, margin 3 pp."""
    return _advice_power(rng, gap_shares(3, 0.01), 3_000, 0.03)


def planned_games_near_margin_2p(rng) -> bool:
    """The outside audit's first setting: 2 players, 2,000 games, true gap 1.5 pp, margin 2
    pp (planned at the observed gap: 64.9% of 925 runs)."""
    return _advice_power(rng, gap_shares(2, 0.015), 2_000, 0.02)


def planned_games_near_margin_4p(rng) -> bool:
    """4 players, 5,000 games, true gap 2.5 pp (beyond the 2 pp margin); 71.0% of 906 runs
    planned at the observed gap."""
    return _advice_power(rng, gap_shares(4, 0.025), 5_000, 0.02)


def on_margin_cannot(rng) -> bool:
    """Two seats exactly at +-2 pp of the fair 25% (5,000 games), where no number of games
    decides: the advice says that none can be promised (planned at the observed gaps it
    gave a number in 99% of runs, of which 4.3% reached a verdict)."""
    while (got := follow_advice(rng, (0.27, 0.23, 0.25, 0.25), 5_000, 0.02)) == "decided":
        pass
    return got == "cannot"


def precision_floor_advice(rng) -> bool:
    """``--precision 0.01``, 4 players, true gap 2.5 pp (margin 2 pp): the sequences' floor
    for the 'unbalanced' test (about 0.57 pp) is beyond the 0.5 pp the truth leaves, so no
    number of games decides that run. Right advice: it says so, or the games it asks for
    reach a verdict (the widened fixed-n plan reached one in 10% of 59 runs)."""
    from analyses.plan import check_every, planned_games

    shares = gap_shares(4, 0.025)
    n_plan = planned_games(0.01, 4)
    while True:
        tally = SeatTally(4, sequential_plan=(0.05, n_plan))
        while not tally.n or tally.sequences[("ci", 0)].halfwidth() > 0.01:
            tally.add(synthetic_wins(rng, shares, check_every(n_plan)))
        answer = tally.answer(0.02)
        if answer.verdict == "undetermined":
            break
    if answer.more_games is None:  # past the floor, or a bound across the margin
        return "more games alone cannot" in answer.verdict_text
    target = tally.n + answer.more_games
    while tally.n < target:
        tally.add(synthetic_wins(rng, shares, min(target - tally.n, 200_000)))
    return tally.answer(0.02).verdict != "undetermined"


def _one_round_less(rng, n: int = 2000) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Issue 11's case: rounds = 15 + Poisson(10); the variant loses a round in 30% of the
    same games, so its median stays (25) while its distribution moves."""
    rounds = 15 + rng.poisson(10, n)
    base = pd.DataFrame({"game": np.arange(n), "rounds": rounds})
    return base, base.assign(rounds=rounds - (rng.random(n) < 0.3))


def median_star(rng) -> bool:
    """A median that does not move (rounds - Bernoulli(0.3)): no star."""
    base, variant = _one_round_less(rng)
    row = compare(base, {"v": variant}, players=1, n_boot=200,
                  seed=int(rng.integers(1 << 30))).table.set_index("metric").loc[
                      "rounds_median"]
    return not bool(row["significant"])


def mid_median_shift(rng) -> bool:
    """rounds = 15 + Poisson(10), the variant loses a round in 30% of games: the paired
    bootstrap interval of the mid-median difference covers the population's."""
    base, variant = _one_round_less(rng)
    row = compare(base, {"v": variant}, players=1, n_boot=1000,
                  seed=int(rng.integers(1 << 30))).table.set_index("metric").loc[
                      "rounds_midmedian"]
    return bool(row["low"] <= MID_MEDIAN_SHIFT <= row["high"])


def _population_mid_median_shift() -> float:
    from scipy import stats as st

    from analyses.variants import weighted_midquantile

    k = np.arange(0, 80)
    px = st.poisson.pmf(k, 10)
    py = 0.7 * px + 0.3 * np.append(px[1:], 0.0)  # Y = X - Bernoulli(0.3), X = k + 15
    return (weighted_midquantile(k + 15, py, 0.5) - weighted_midquantile(k + 15, px, 0.5))


MID_MEDIAN_SHIFT = _population_mid_median_shift()


def score_spread_shift(rng) -> bool:
    """Final scores with SD 10 under the base rules and 11 under the variant, correlated on
    the same games: the delta-method interval covers the difference of 1."""
    n = 2000
    z, e = rng.normal(0, 1, (n, 2)), rng.normal(0, 1, (n, 2))
    base = pd.DataFrame({"game": np.arange(n), "score_0": 10 * z[:, 0], "score_1": 10 * z[:, 1]})
    varied = 11 * (0.8 * z + 0.6 * e)
    variant = pd.DataFrame({"game": np.arange(n), "score_0": varied[:, 0],
                            "score_1": varied[:, 1]})
    row = compare(base, {"v": variant}, players=2).table.set_index("metric").loc["score_spread"]
    return bool(row["low"] <= 1.0 <= row["high"])


def off_target_distance(rng) -> bool:
    """Rum Runner's 'off target' distance: band shares 4 pp off the target split in two bands,
    2,000 games; the interval over the simultaneous box covers the true distance."""
    from analyses.thresholds import DEFAULT_TARGET, target_distance_interval

    truth = np.asarray(DEFAULT_TARGET, dtype=float) + np.array([4, -4, 0, 0, 0, 0])
    counts = rng.multinomial(2000, truth / 100)
    bands = pd.DataFrame({"games": counts, "share_pct": 100 * counts / counts.sum()})
    got = target_distance_interval(bands)
    return bool(got.low <= 4.0 <= got.high)


def deal_variance_share(rng) -> bool:
    """Rum Runner's luck measure: 2,000 deals played by two policies, score = deal + policy
    + noise (deal SD 10, policy means 20 apart, noise SD 15); the jackknife interval of the
    deal's share of the score variance covers its true value 100 / (100 + 100 + 225)."""
    from analyses.ladder import ScoreLadderTally, score_ladder

    n = 2000
    deal = rng.normal(0, 10, n)
    game = np.arange(n)
    frames = [pd.DataFrame({"game": game, "score_0": deal + shift + rng.normal(0, 15, n)})
              for shift in (0.0, 20.0)]
    row = score_ladder(ScoreLadderTally(("weak", "strong")).add(frames)).table.iloc[0]
    return bool(row["deal_low"] <= 100 / 425 <= row["deal_high"])


# ---------------------------------------------------------------- the tuner's race

RACE_LAYOUT = Layout(2, None, frozenset({"win_0", "win_1", "rounds", "score_0", "score_1",
                                          "capped"}))
RACE_PAGE = 4096  # games per page of draws: a game's draws depend on its index alone
RACE_ROUNDS_SD = 4.0


@dataclass(frozen=True)
class Truth:
    """A synthetic rule set with a known effect, for races (``synthetic_arena``): in game g
    seat 0 wins when (U_g + shift) mod 1 < p, else seat 1 (so seat 0's true edge is
    p - 1/2); the game lasts rint(rounds + 4 Z_g) rounds. U_g and Z_g come from the draw
    stream ``stream``: settings on one stream share them (common random numbers), on
    different streams they are independent; a ``shift`` gives the same p on different but
    correlated wins."""

    p: float
    rounds: float = 20.0
    stream: int = 0
    shift: float = 0.0
    capped: float = 0.0   # the share of games stopped by a cap (a rare 0/1 feature)


def _race_draws(seed: int, stream: int, first: int, games: int) -> tuple[np.ndarray, ...]:
    """U and Z of games first .. first + games - 1 (pages of RACE_PAGE games, each from
    its own generator, so any split of the games gives the same draws)."""
    pages = range(first // RACE_PAGE, (first + games - 1) // RACE_PAGE + 1) if games else ()
    u, z = [np.empty(0)], [np.empty(0)]
    for j in pages:
        rng = np.random.default_rng([seed, stream, j])
        u.append(rng.random(RACE_PAGE))
        z.append(rng.standard_normal(RACE_PAGE))
    at = first - (first // RACE_PAGE) * RACE_PAGE
    return tuple(np.concatenate(x)[at:at + games] for x in (u, z))


def synthetic_frame(truth: Truth, u: np.ndarray, z: np.ndarray) -> pd.DataFrame:
    """The outcome rows of ``truth`` on the games with draws ``u`` and ``z``."""
    win = (np.mod(u + truth.shift, 1.0) < truth.p).astype(float)
    # capped from the normal draw's probability: independent of the win, common to settings
    capped = (_st.norm.cdf(z) < truth.capped).astype(np.int64)
    return pd.DataFrame({"win_0": win, "win_1": 1.0 - win,
                         "rounds": np.rint(truth.rounds + RACE_ROUNDS_SD * z).astype(np.int64),
                         "score_0": win, "score_1": 1.0 - win, "capped": capped})


def synthetic_arena(seed: int, block: int = RACE_PAGE, calls: list | None = None):
    """An arena (``analyses.racing.Arena``) playing ``Truth`` rule sets: every rule set on
    the same game indices, handed to ``take`` in blocks of ``block`` games; each call's
    (first game, games, label) is appended to ``calls`` if given."""

    def arena(truths, first_game, games, take, label):
        if calls is not None:
            calls.append((first_game, games, label))
        draws = {s: _race_draws(seed, s, first_game, games) for s in {t.stream for t in truths}}
        for start in range(0, games, block):
            stop = min(start + block, games)
            take([synthetic_frame(t, draws[t.stream][0][start:stop],
                                  draws[t.stream][1][start:stop]) for t in truths])
        return {"interrupted": False, "games": games}

    return arena


def race_truths(truths, seed: int, budget: int, goals=("first_player_edge=0",),
                alpha: float = 0.05, block: int = RACE_PAGE, first: int | None = None,
                calls: list | None = None):
    """``analyses.racing.race`` over synthetic ``truths`` (setting k labelled 'k')."""
    objective = Objective(tuple(parse_goal(g, RACE_LAYOUT) for g in goals))
    return race(synthetic_arena(seed, block, calls), list(truths),
                [str(k) for k in range(len(truths))], RACE_LAYOUT, objective, budget, alpha,
                first=first)


# A unique best (edge 0, setting 2) close to the others.
NEAR_BEST = tuple(Truth(0.5 + g) for g in (0.02, -0.015, 0.0, 0.01, -0.025, 0.03))


def _box_covers(layout: Layout, frame: pd.DataFrame, goal: str, truth: float) -> bool:
    """Does a box metric's 95% interval (``goals.Metric.interval``) cover its truth?"""
    from analyses.goals import features
    from analyses.racing import ArmTally

    metric = parse_goal(goal, layout).metric
    tally = ArmTally(1, layout.features())
    tally.add([0], [features(frame, layout)])
    lo, hi = metric.interval(tally, 0, 0.05)
    return lo <= truth <= hi


GAP_SHARES = (0.38, 0.33, 0.29)  # three places; the largest gap from 1/3 is 4.67 pp


def largest_gap_box(rng) -> bool:
    """The largest place gap's interval (the range of max |share - 1/P| over the Bonferroni
    box of the shares) covers the true largest gap, 2,000 games."""
    frame = synthetic_wins(rng, GAP_SHARES, 2000)
    layout = Layout(3, None, frozenset(frame.columns))
    truth = max(abs(x - 1 / 3) for x in GAP_SHARES)
    return _box_covers(layout, frame, "max_place_gap=0", truth)


BAND_TRUTH = (0.45, 0.22, 0.15, 0.09, 0.05, 0.04)  # against 40/25/15/10/6/4: distance 5 pp


def band_distance_box(rng) -> bool:
    """The band split's distance from a target (total variation) over the Bonferroni box
    of the six band shares covers the true distance, 3,000 games."""
    band = rng.choice(6, size=3000, p=BAND_TRUTH)
    frame = pd.DataFrame({"win_0": (band > 0).astype(float), "band_0": band})
    layout = Layout(1, None, frozenset(frame.columns))
    truth = 0.5 * sum(abs(p - t / 100) for p, t in zip(BAND_TRUTH, (40, 25, 15, 10, 6, 4),
                                                      strict=True))
    return _box_covers(layout, frame, "band_distance=0", truth)


def race_keeps_best(rng) -> bool:
    """Six settings, the best's edge 0 and the next 1 pp away, common random numbers: the
    race keeps the truly best (error rate 5%)."""
    got = race_truths(NEAR_BEST, int(rng.integers(2**62)), 30_000)
    return bool(got.alive[2])


def race_all_equal(rng) -> bool:
    """Six settings all at a 3 pp edge (target 0, so the paired differences are in play),
    each on its own rotation of the same draws: the race drops none (each one is the
    best)."""
    truths = [Truth(0.53, shift=k / 6) for k in range(6)]
    got = race_truths(truths, int(rng.integers(2**62)), 30_000)
    return all(got.alive)


# The truly best feasible setting (edge 10 pp, never capped) and a rival with the better edge
# that breaks a rare constraint: capped in RIVAL_CAPPED of its games against a 0.1% bound.
# With a normal interval the rival's first looks (no capped game yet) gave [0, 0], "shown
# to meet" the bound, and the best was dropped as shown worse in 9.7% (0.3%) and 30% (0.15%)
# of races (the outside audit, 800 games a look).
def race_rare_constraint(rng, rival_capped: float) -> bool:
    """The race keeps the truly best feasible setting against an infeasible rival whose
    rare events it has not seen yet (800 games at the first look)."""
    truths = (Truth(0.60), Truth(0.50, capped=rival_capped))
    got = race_truths(truths, int(rng.integers(2**62)), 24_000,
                      goals=("first_player_edge=0", "capped_share<=0.1%"), first=800)
    return bool(got.alive[0])


def race_rare_constraint_03(rng) -> bool:
    return race_rare_constraint(rng, 0.003)


def race_rare_constraint_015(rng) -> bool:
    return race_rare_constraint(rng, 0.0015)


def race_rare_objective_term(rng) -> bool:
    """The race keeps the truly best setting when a rare 0/1 feature is a term of the
    objective: the rival plays the edge 2 pp better but is capped in 0.3% of its games,
    which at weight 10 costs it 3 pp (0.03 against the best's 0.02). A rival that has shown
    no capped game yet must not look free of them (normal intervals said [0, 0]; the audit
    measured the best dropped in 29% of races)."""
    truths = (Truth(0.52), Truth(0.50, capped=0.003))
    got = race_truths(truths, int(rng.integers(2**62)), 24_000,
                      goals=("first_player_edge=0", "capped_share=0:weight=10"), first=800)
    return bool(got.alive[0])


# The recommendation `rumsim tune` shows was chosen as the best on the very games its interval
# reads: at 95% per setting, the best of 8 equal settings was covered in 84% of races.
EIGHT_EQUAL = tuple(Truth(0.53, shift=k / 8) for k in range(8))
EIGHT_ONE_BEST = NEAR_BEST + (Truth(0.515), Truth(0.49))


def recommendation_covers(truths, rng) -> bool:
    """The interval ``rumsim tune`` shows for its recommendation (``TuneAnswer.goal_rows``)
    covers the recommended setting's true first-player edge."""
    from analyses.tune import TuneAnswer

    got = race_truths(truths, int(rng.integers(2**62)), 30_000)
    answer = TuneAnswer("synthetic", 2, "", list(got.objective.goals), [], got.labels,
                        [()] * len(truths), got, [], 0)
    row = answer.goal_rows(answer.best)[0]
    return bool(row["low"] <= truths[answer.best].p - 0.5 <= row["high"])


def recommendation_eight_equal(rng) -> bool:
    return recommendation_covers(EIGHT_EQUAL, rng)


def recommendation_one_best(rng) -> bool:
    return recommendation_covers(EIGHT_ONE_BEST, rng)


# ---------------------------------------------------------------- a slow policy's 20-30 games

def _games(rng) -> int:
    return int(rng.integers(20, 31))


def _skewed_counts(rng, mean: float, k: float, size) -> np.ndarray:
    """Negative binomial counts (a gamma mixture of Poissons): variance mean + mean^2 / k."""
    return rng.poisson(rng.gamma(k, mean / k, size))


def event_count_small(rng) -> bool:
    """A skewed count per game (mean 2, variance 10), 20-30 games: its interval covers 2."""
    from analyses.events import event_rates

    frame = pd.DataFrame({"x": _skewed_counts(rng, 2.0, 0.5, _games(rng))})
    row = event_rates(frame, {"x": "x"}).iloc[0]
    return bool(row["low"] <= 2.0 <= row["high"])


def event_share_small(rng) -> bool:
    """A rare share of clustered events (Poisson(2) tries a game, each a hit with the game's
    chance, Beta(0.5, 4.5): mean 10%), 20-30 games: its interval covers 10%."""
    from analyses.events import event_rates

    n = _games(rng)
    x = rng.poisson(2.0, n)
    frame = pd.DataFrame({"y": rng.binomial(x, rng.beta(0.5, 4.5, n)), "x": x})
    row = event_rates(frame, {}, {"hits": ("y", "x")}).iloc[0]
    return bool(row["low"] <= 0.1 <= row["high"])


def winner_points_small(rng) -> bool:
    """Three seats score skewed points in a category (mean 4, variance 20) and a winner is
    drawn apart from them, 20-30 games: the winner's mean points' interval covers 4."""
    from analyses.composition import composition

    n = _games(rng)
    points = _skewed_counts(rng, 4.0, 1.0, (n, 3))
    winner = rng.integers(0, 3, n)
    frame = pd.DataFrame({**{f"win_{s}": (winner == s).astype(float) for s in range(3)},
                          **{f"vp_a_{s}": points[:, s] for s in range(3)}})
    row = composition(frame, 3).iloc[0]
    return bool(row["winner_low"] <= 4.0 <= row["winner_high"])


FEEL_TIE = 0.05       # games whose top standing is shared
FEEL_MARGIN_P = 0.25  # the sole winner's margin: Geometric(0.25), mean 4
FEEL_ROUNDS = (15, 10.0, 2.0)  # rounds: 15 + negative binomial (mean 10, k 2)


def _feel_frame(rng, n: int) -> pd.DataFrame:
    """n 3-player games with known feel: a tie for first in FEEL_TIE of them, else a sole
    winner ahead by a Geometric(FEEL_MARGIN_P) margin; skewed lengths; Poisson(1.5) lead
    changes (at most the round boundaries)."""
    base, mean, k = FEEL_ROUNDS
    rounds = base + _skewed_counts(rng, mean, k, n)
    margin = np.where(rng.random(n) < FEEL_TIE, 0, rng.geometric(FEEL_MARGIN_P, n))
    w = rng.integers(0, 3, n)
    scores = 20 - rng.integers(1, 10, (n, 3))
    scores[np.arange(n), (w + 1) % 3] = 20
    scores[np.arange(n), w] = 20 + margin
    frame = {"rounds": rounds, "lead_changes": np.minimum(rng.poisson(1.5, n), rounds - 1)}
    frame.update({f"score_{s}": scores[:, s] for s in range(3)})
    frame.update({f"win_{s}": (w == s).astype(float) for s in range(3)})
    return pd.DataFrame(frame)


def _feel_covers(rng, statistic: str, truth: float) -> bool:
    from analyses.feel import feel_of_frame

    row = feel_of_frame(_feel_frame(rng, _games(rng)), 3).set_index("statistic").loc[statistic]
    return bool(row["low"] <= truth <= row["high"])


def feel_tie_small(rng) -> bool:
    return _feel_covers(rng, "tied for first", FEEL_TIE)


def feel_margin_small(rng) -> bool:
    return _feel_covers(rng, "mean margin (score)", (1 - FEEL_TIE) / FEEL_MARGIN_P)


def _rounds_p90() -> float:
    base, mean, k = FEEL_ROUNDS
    return base + float(_st.nbinom.ppf(0.9, k, k / (k + mean)))


def feel_p90_small(rng) -> bool:
    return _feel_covers(rng, "90th percentile rounds", _rounds_p90())


def _rung_changes(rng, n: int, below: float, change: float, same: float) -> np.ndarray:
    """Per deal, the first player's win under a top rung minus under the rung below: the top
    plays a deal as the rung below with probability ``same`` (the same winner), else afresh
    at a share that makes its overall share ``below + change``."""
    w_below = (rng.random(n) < below).astype(float)
    fresh = (rng.random(n) < below + change / (1 - same)).astype(float)
    return np.where(rng.random(n) < same, w_below, fresh) - w_below


def _convergence_state(rng, n: int, change: float, same: float) -> str:
    diff = DealDifferences(0.0).add(_rung_changes(rng, n, 0.27, change, same))
    return convergence.verdict(diff, "top", "below").state


def no_false_not_converged(rng) -> bool:
    return _convergence_state(rng, 4000, 0.0, 0.5) != "not converged"


def no_false_converged(rng) -> bool:
    return _convergence_state(rng, 4000, convergence.MARGIN, 0.5) != "converged"


def no_false_not_converged_rare(rng) -> bool:
    return _convergence_state(rng, 1000, 0.0, 0.98) != "not converged"


def no_false_converged_rare(rng) -> bool:
    return _convergence_state(rng, 1000, convergence.MARGIN, 0.9) != "converged"


# Restricted play (analyses.restrict): eight choices with known true losses, the whole
# procedure (a 400-deal pilot, deals planned by its spread, Bonferroni verdicts) on P = 4.
RESTRICT_TRUTHS = (0.0, 0.0, restrict.MARGIN, -restrict.MARGIN, 0.5 * restrict.MARGIN,
                   2.5 * restrict.MARGIN, restrict.MARGIN, 0.0)


def _restricted_losses(rng, n: int, truths, same) -> list[np.ndarray]:
    """Per choice, n deals' losses: the mean over 4 rotations of the seat's win unrestricted
    (one winner a deal) minus restricted, where a restricted seat keeps its result with
    probability ``same`` and otherwise wins afresh at the share that makes its loss true."""
    players = 4
    winner = rng.integers(players, size=n)
    base = (winner[:, None] == np.arange(players)).astype(float)
    out = []
    for truth, keep in zip(truths, same, strict=True):
        q = 1 / players - truth / (1 - keep)
        fresh = (rng.random((n, players)) < q).astype(float)
        restricted = np.where(rng.random((n, players)) < keep, base, fresh)
        out.append((base - restricted).mean(axis=1))
    return out


def _false_restrict_verdict(verdict: str, truth: float, margin: float) -> bool:
    """Whether the verdict claims something the truth denies."""
    return {"dominant": truth <= margin, "useless": abs(truth) >= margin,
            "matters": truth <= 0, "overused": truth >= 0}.get(verdict, False)


def _restrict_family(rng, same) -> bool:
    """True when no choice of the eight gets a false verdict (family-wise)."""
    truths = RESTRICT_TRUTHS
    tally = [DealDifferences(0.0) for _ in truths]
    for d, losses in zip(tally, _restricted_losses(rng, restrict.PILOT, truths, same),
                         strict=True):
        d.add(losses)
    spread = max(math.sqrt(max(m2 / n - (m1 / n) ** 2, 0.0))
                 for n, m1, m2 in (d.moments() for d in tally))
    deals = restrict.plan(spread, restrict.WIDTH, len(truths), restrict.PILOT, 6_000)
    for d, losses in zip(tally, _restricted_losses(rng, deals - restrict.PILOT, truths,
                                                   same), strict=True):
        d.add(losses)
    k, alpha = len(truths), 0.05
    for d, truth in zip(tally, truths, strict=True):
        state = restrict.classify(d.interval(1 - alpha / k), d.interval(1 - 2 * alpha / k),
                                  restrict.MARGIN)
        if _false_restrict_verdict(state, truth, restrict.MARGIN):
            return False
    return True


def _seat_changes(rng, n: int, below, change, same: float) -> list:
    """Per seat, the tally of per-deal changes of a seat's win from a rung below (win shares
    ``below``) to a top rung that plays a deal as the rung below with probability ``same``
    (the same winner), else afresh at shares that make its overall shares below + change."""
    below, change = np.asarray(below, float), np.asarray(change, float)
    players = below.size
    w_below = rng.choice(players, size=n, p=below)
    fresh = rng.choice(players, size=n, p=below + change / (1 - same))
    w_top = np.where(rng.random(n) < same, w_below, fresh)
    eye = np.eye(players)
    diffs = eye[w_top] - eye[w_below]
    return [DealDifferences(0.0).add(diffs[:, s]) for s in range(players)]


SEATS_BELOW = (0.27, 0.25, 0.24, 0.24)


def _every_seat_state(rng, n: int, change, same: float) -> str:
    diffs = _seat_changes(rng, n, SEATS_BELOW, change, same)
    names = [f"seat {s}" for s in range(len(diffs))]
    return convergence.verdict_every(diffs, names, "top", "below", stronger=True).state


def every_seat_no_false_not_converged(rng) -> bool:
    return _every_seat_state(rng, 4000, (0, 0, 0, 0), 0.5) != "not converged"


def every_seat_no_false_converged(rng) -> bool:
    # the first player stays; one follower gains the margin from another
    m = convergence.MARGIN
    return _every_seat_state(rng, 4000, (0, m, -m, 0), 0.5) != "converged"


def every_seat_no_false_not_converged_rare(rng) -> bool:
    return _every_seat_state(rng, 1000, (0, 0, 0, 0), 0.98) != "not converged"


def every_seat_no_false_converged_rare(rng) -> bool:
    m = convergence.MARGIN
    return _every_seat_state(rng, 1000, (0, m, -m, 0), 0.9) != "converged"


def restrict_family(rng) -> bool:
    return _restrict_family(rng, (0.5,) * len(RESTRICT_TRUTHS))


def restrict_family_rare(rng) -> bool:
    # most deals unchanged: the zero-loss choices are rarely taken (98%, 99.5% of deals
    # alike), the margin-sized ones as rarely as a margin-sized loss allows (90%)
    return _restrict_family(rng, (0.98, 0.995, 0.9, 0.9, 0.9, 0.8, 0.9, 0.98))


CASES = (
    Case("Wilson interval, share 10% of 400", "coverage >= 95%", 0.95, wilson),
    Case("share with 15% ties (effective n)", "coverage >= 95%", 0.95, tied_share),
    Case("paired mean difference", "coverage >= 95%", 0.95, paired_mean),
    Case("paired share at 0.1% (Newcombe)", "coverage >= 95%", 0.95, rare_paired_share),
    Case("paired share at 30% (Newcombe)", "coverage >= 95%", 0.95, paired_share),
    Case("ratio of totals, clustered events", "coverage >= 95%", 0.95, clustered_ratio),
    Case("head to head on shared deals", "coverage >= 95%", 0.95, deal_clustered_matchup,
         300),
    Case("head to head, rare one-sided gains (~8 of 1,000 deals differ)", "coverage >= 95%",
         0.95, rare_gains_8, 300),
    Case("head to head, rare one-sided gains (~36 of 1,000 deals differ)", "coverage >= 95%",
         0.95, rare_gains_40, 300),
    Case("solo score lead, 2% of 1,000 deals differ, 90% gains", "coverage >= 95%", 0.95,
         rare_solo_lead, 1000),
    Case("ladder of equal policies: 'order is wrong' on some rung", "false verdict <= 5%",
         0.95, equal_ladder, 150),
    Case("rail-position test, no effect", "false rejection <= 5%", 0.95, position_test_level),
    Case("equal-seats test, 10% ties", "false rejection <= 5%", 0.95,
         seat_test_level_with_ties, 1000),
    Case("'balanced' at a true gap = margin", "false verdict <= 5%", 0.95, no_false_balanced,
         600),
    Case("'unbalanced' at a true gap = margin", "false verdict <= 5%", 0.95,
         no_false_unbalanced, 600),
    Case("'needs about N more games'", "power >= 80%", 0.80, planned_games_decide, 150),
    Case("'N more games' near the margin (2 players, gap 1.5 pp)", "power >= 80%", 0.80,
         planned_games_near_margin_2p, 300),
    Case("'N more games' near the margin (4 players, gap 2.5 pp)", "power >= 80%", 0.80,
         planned_games_near_margin_4p, 300),
    Case("'cannot be promised' with two seats on +-the margin", "says so >= 60%", 0.60,
         on_margin_cannot, 300),
    Case("--precision 0.01 advice past the sequence's floor", "right advice >= 80%", 0.80,
         precision_floor_advice, 30),
    Case("median star when it does not move", "false star <= 5%", 0.95, median_star, 150),
    Case("mid-median shift (paired bootstrap)", "coverage >= 95%", 0.95, mid_median_shift,
         150),
    Case("score spread shift (delta method)", "coverage >= 95%", 0.95, score_spread_shift,
         1000),
    Case("Rum Runner off-target distance", "coverage >= 95%", 0.95, off_target_distance, 200),
    Case("deal's share of score variance (jackknife)", "coverage >= 95%", 0.95,
         deal_variance_share, 400),
    Case("largest place gap (Bonferroni box)", "coverage >= 95%", 0.95, largest_gap_box, 1000),
    Case("band split distance (Bonferroni box)", "coverage >= 95%", 0.95, band_distance_box,
         1000),
    Case("racing keeps the truly best setting", "error <= 5%", 0.95, race_keeps_best, 150),
    Case("racing with all settings equal", "error <= 5%", 0.95, race_all_equal, 150),
    Case("racing vs a rare infeasible rival (0.3% capped, bound 0.1%)", "error <= 5%", 0.95,
         race_rare_constraint_03, 150),
    Case("racing vs a rare infeasible rival (0.15% capped, bound 0.1%)", "error <= 5%", 0.95,
         race_rare_constraint_015, 150),
    Case("recommendation's interval, 8 equal settings", "coverage >= 95%", 0.95,
         recommendation_eight_equal, 200),
    Case("recommendation's interval, one best of 8", "coverage >= 95%", 0.95,
         recommendation_one_best, 200),
    Case("skewed count per game, 20-30 games (Hall)", "coverage >= 95%", 0.95,
         event_count_small),
    Case("rare share of clustered events, 20-30 games (Korn-Graubard)", "coverage >= 95%",
         0.95, event_share_small),
    Case("winner's points by category, 20-30 games (Hall)", "coverage >= 95%", 0.95,
         winner_points_small),
    Case("feel: ties for first at 5%, 20-30 games (exact)", "coverage >= 95%", 0.95,
         feel_tie_small, 1000),
    Case("feel: mean margin, 20-30 games (Hall)", "coverage >= 95%", 0.95,
         feel_margin_small, 1000),
    Case("feel: 90th percentile rounds, 20-30 games", "coverage >= 95%", 0.95,
         feel_p90_small, 1000),
    # new cases go last: each case's random stream is seeded by its place in this list
    Case("racing with a rare term in the objective (0.3% capped, weight 10)", "error <= 5%",
         0.95, race_rare_objective_term, 150),
    Case("convergence: 'not converged' at a true change of 0 (4,000 deals)",
         "false verdict <= 5%", 0.95, no_false_not_converged, 1000),
    Case("convergence: 'converged' at a true change = margin (4,000 deals)",
         "false verdict <= 5%", 0.95, no_false_converged, 1000),
    Case("convergence: 'not converged' at 0, ~2% of 1,000 deals differ",
         "false verdict <= 5%", 0.95, no_false_not_converged_rare, 1000),
    Case("convergence: 'converged' at the margin, ~10% of 1,000 deals differ",
         "false verdict <= 5%", 0.95, no_false_converged_rare, 1000),
    Case("restricted play: any false verdict of 8 choices (losses 0 to 2.5x margin, "
         "planned deals)", "family-wise error <= 5%", 0.95, restrict_family, 300),
    Case("restricted play: any false verdict of 8 choices, most deals unchanged",
         "family-wise error <= 5%", 0.95, restrict_family_rare, 300),
    Case("convergence, every seat: 'not converged' at no change (4 seats, 4,000 deals)",
         "false verdict <= 5%", 0.95, every_seat_no_false_not_converged, 1000),
    Case("convergence, every seat: 'converged' with a follower's change = margin, "
         "the first player's 0 (4,000 deals)", "false verdict <= 5%", 0.95,
         every_seat_no_false_converged, 1000),
    Case("convergence, every seat: 'not converged' at 0, ~2% of 1,000 deals differ",
         "false verdict <= 5%", 0.95, every_seat_no_false_not_converged_rare, 1000),
    Case("convergence, every seat: 'converged' at a follower's margin, ~10% of 1,000 "
         "deals differ", "false verdict <= 5%", 0.95, every_seat_no_false_converged_rare,
         1000),
)


def run(reps: int, seed: int = 0, cases=CASES) -> pd.DataFrame:
    """Each case ``reps`` times: the observed rate, its Monte Carlo standard error, the
    promise, and whether the rate is within three standard errors of it or better."""
    rows = []
    for k, case in enumerate(cases):
        rng = np.random.default_rng([seed, k])
        hits = sum(bool(case.trial(rng)) for _ in range(reps))
        rate = hits / reps
        se = math.sqrt(case.target * (1 - case.target) / reps)
        rows.append({"case": case.name, "promise": case.promise, "reps": reps,
                     "rate": rate, "mc_se": se, "holds": rate >= case.target - 3 * se})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="also write the table as CSV")
    args = parser.parse_args(argv)
    table = run(args.reps, args.seed)
    shown = table.assign(rate=(100 * table["rate"]).round(2).astype(str) + "%",
                         mc_se=(100 * table["mc_se"]).round(2).astype(str) + " pp")
    print(shown.to_string(index=False))
    if args.out:
        table.to_csv(args.out, index=False)
    return 0 if table["holds"].all() else 1


if __name__ == "__main__":
    sys.exit(main())
