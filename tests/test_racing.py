"""The tuner's race (analyses.racing) and screening (analyses.screening) on synthetic games
with a known truth.

The games come from ``analyses.validation.synthetic_arena``: in game g seat 0 wins when
U_g < p (so a setting's first-player edge is p - 1/2, known exactly) and the game lasts
rint(rounds + 4 Z_g) rounds; U_g and Z_g depend only on the seed and g, so every setting
plays the same draws (common random numbers) unless it is put on its own stream.
Replication counts are modest (tens): each rate is checked against its promise within
three Monte Carlo standard errors.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyses.goals import features, parse_goal
from analyses.knobs import parse_knob
from analyses.racing import ArmTally, Objective, first_look, looks_bound, race
from analyses.screening import screen
from analyses.validation import (
    RACE_LAYOUT,
    Truth,
    race_truths,
    synthetic_arena,
)

ALPHA = 0.05


def mc_bound(alpha: float, reps: int) -> float:
    """Three Monte Carlo standard errors of an error rate ``alpha`` over ``reps``."""
    return 3 * math.sqrt(alpha * (1 - alpha) / reps)


def check_record(r, budget: int) -> None:
    """What any race's record must say, whatever the data: within the budget; each dropped
    setting named by exactly the look that dropped it; survivors never dropped; the
    settings racing shrink by the dropped ones; every setting still racing has played
    every look's games; the stated per-interval miss is the Bonferroni split of alpha."""
    assert r.played <= budget
    assert r.miss == pytest.approx(r.alpha / (r.looks_max * r.objective.statements(
        len(r.labels))), rel=1e-12)
    assert 1 <= len(r.looks) <= r.looks_max
    for i, alive in enumerate(r.alive):
        named = [k + 1 for k, look in enumerate(r.looks) if i in look.dropped]
        if alive:
            assert r.dropped_at[i] is None and named == []
        else:
            assert named == [r.dropped_at[i]], (i, named, r.dropped_at[i], r.reason[i])
            assert r.reason[i]
    racing = len(r.labels)
    for look in r.looks:
        assert look.racing == racing
        racing -= len(look.dropped)
    assert racing == len(r.survivors)
    assert all(r.tally.n(i) == r.looks[-1].games for i in r.survivors)
    assert sorted(set(r.survivors)) == r.survivors and r.best in r.survivors


# ---------------------------------------------------------------- the synthetic arena


def test_the_synthetic_games_depend_only_on_their_index():
    """The helper every race below rests on: a game's draws do not depend on how the games
    are split, and settings on one stream see the same draws (on two, different ones)."""
    got = {}

    def keep(name):
        def take(frames):
            got.setdefault(name, []).append(frames)
        return take

    truths = [Truth(0.5), Truth(0.6), Truth(0.5, stream=1)]
    synthetic_arena(5)(truths, 100, 9000, keep("whole"), "whole")
    synthetic_arena(5, block=137)(truths, 100, 4000, keep("split"), "a")
    synthetic_arena(5, block=1000)(truths, 4100, 5000, keep("split"), "b")
    for name in got:
        assert all(len(block) == 3 for block in got[name])
    whole = [pd.concat([b[k] for b in got["whole"]], ignore_index=True) for k in range(3)]
    split = [pd.concat([b[k] for b in got["split"]], ignore_index=True) for k in range(3)]
    for a, b in zip(whole, split, strict=True):
        pd.testing.assert_frame_equal(a, b)
    assert len(whole[0]) == 9000
    same, other = whole[0], whole[2]
    assert (same["rounds"] == whole[1]["rounds"]).all()  # same stream: the same lengths
    assert not (same["rounds"] == other["rounds"]).all()
    # common random numbers: a setting with a larger p wins every game the smaller one does
    assert (whole[1]["win_0"] >= same["win_0"]).all()
    assert abs(same["win_0"].mean() - 0.5) < 0.02 and abs(whole[1]["win_0"].mean() - 0.6) < 0.02
    assert abs(same["rounds"].mean() - 20) < 0.2


# ---------------------------------------------------------------- a) the race finds the optimum

GAPS = (-0.06, -0.03, 0.0, 0.01, 0.03, 0.06)
TRUE_BEST = GAPS.index(0.0)


def test_the_race_keeps_the_true_best_and_drops_the_clearly_bad():
    """Six settings with first-player edges GAPS, goal edge 0: the truly best (edge 0)
    survives in at least 1 - alpha of the replications (less 3 MC SE); the recommended
    setting is a survivor, almost always the best or the one 1 pp from it; and the settings
    6 pp off are dropped in most replications (the race does drop)."""
    reps, budget = 40, 60_000
    truths = [Truth(0.5 + g) for g in GAPS]
    kept = near = bad_dropped = 0
    for seed in range(reps):
        r = race_truths(truths, seed, budget, alpha=ALPHA)
        check_record(r, budget)
        kept += r.alive[TRUE_BEST]
        near += abs(GAPS[r.best]) <= 0.01
        bad_dropped += not r.alive[0] and not r.alive[-1]
        if r.alive[TRUE_BEST]:
            est = r.objective.point
            assert est(r.tally, r.best) <= est(r.tally, TRUE_BEST)
    assert kept / reps >= 1 - ALPHA - mc_bound(ALPHA, reps)
    assert near / reps >= 0.9
    assert bad_dropped / reps >= 0.9


# ---------------------------------------------------------------- b) the error rate, simulated

EQUAL = {
    "rotated common draws, edge +3 pp": [Truth(0.53, shift=k / 6) for k in range(6)],
    "independent draws, edge +3 pp": [Truth(0.53, stream=k) for k in range(6)],
    "independent draws, edge 0": [Truth(0.5, stream=k) for k in range(6)],
}


EQUAL_CASES = [(kind, goals) for kind in EQUAL
               for goals in (("first_player_edge=0",), ("max_place_gap=0",))] + [
    ("rotated common draws, edge +3 pp", ("first_player_edge=0", "mean_rounds=18:weight=0.01"))]


@pytest.mark.parametrize("kind, goals", EQUAL_CASES,
                         ids=[f"{k}: {' '.join(g)}" for k, g in EQUAL_CASES])
def test_no_setting_is_dropped_when_all_are_equal(kind, goals):
    """Every setting truly equal, so every one is 'the best': the share of replications
    dropping any of them is at most alpha (+ 3 MC SE). With a +3 pp edge against a target
    of 0 the paired differences are in play; on independent streams they pair nothing."""
    reps, budget = 30, 20_000
    wrong = 0
    for seed in range(reps):
        r = race_truths(EQUAL[kind], 1000 + seed, budget, goals=goals, alpha=ALPHA)
        check_record(r, budget)
        wrong += not all(r.alive)
    assert wrong / reps <= ALPHA + mc_bound(ALPHA, reps)


def test_a_generous_error_rate_still_holds():
    """alpha = 0.3 (a far looser Bonferroni split): the error stays below it."""
    reps, alpha = 60, 0.3
    wrong = sum(not all(race_truths(EQUAL["independent draws, edge +3 pp"], 2000 + s, 20_000,
                                    alpha=alpha).alive) for s in range(reps))
    assert wrong / reps <= alpha + mc_bound(alpha, reps)


def test_the_bonferroni_split_is_the_one_stated():
    r = race_truths([Truth(0.5 + g) for g in GAPS], 0, 60_000)
    first = first_look(60_000, 6)
    assert first == 1200 and r.looks[0].games == first
    assert r.looks_max == looks_bound(60_000, first) == 2 + 5
    assert r.miss == pytest.approx(0.05 / (7 * 3 * 1 * 5))
    # each look doubles the games of the one before, until the budget runs short
    games = [x.games for x in r.looks]
    assert all(b == 2 * a for a, b in zip(games, games[1:-1], strict=False))


def test_every_look_plays_fresh_games_and_the_current_rules_play_every_look():
    """Looks play contiguous game indices from first_game on, every setting in the race on
    the same ones; the current rules (base) keep playing after they are dropped."""
    layout = RACE_LAYOUT
    calls, played = [], []

    def arena(truths, first_game, games, take, label):
        played.append(len(truths))
        return synthetic_arena(9, calls=calls)(truths, first_game, games, take, label)

    truths = [Truth(0.5 + g) for g in GAPS]
    objective = Objective((parse_goal("first_player_edge=0", layout),))
    r = race(arena, truths, [str(k) for k in range(6)], layout, objective, 60_000,
             first_game=5000, base=0)
    check_record(r, 60_000)
    assert not r.alive[0] and r.first_game == 5000
    assert calls[0][0] == 5000
    for (a, n, _), (b, _, _) in zip(calls, calls[1:], strict=False):
        assert b == a + n
    assert r.tally.n(0) == r.tally.n(r.best) == calls[-1][0] + calls[-1][1] - 5000
    # look k plays the settings racing at it, and the base once it was dropped before it
    gone = r.dropped_at[0]
    assert played == [x.racing + (gone < k) for k, x in enumerate(r.looks, start=1)]
    assert r.played == sum(n * k for (_, n, _), k in zip(calls, played, strict=True))


# ---------------------------------------------------------------- c) constraints


def test_a_constraint_drops_the_settings_that_break_it():
    """mean_rounds <= 20 with settings at true means 18, 20.5 and 25: only 18 survives, 25
    is dropped for breaking the constraint, and some setting is feasible."""
    truths = [Truth(0.5, rounds=x) for x in (18, 20.5, 25)]
    for goals in (("mean_rounds<=20",), ("first_player_edge=0", "mean_rounds<=20")):
        for seed in range(3):
            r = race_truths(truths, seed, 20_000, goals=goals)
            check_record(r, 20_000)
            assert r.alive == [True, False, False], (goals, r.reason)
            assert r.reason[2] == "shown to break mean_rounds <= 20"
            assert not r.none_feasible and r.best == 0


def test_no_setting_feasible_is_said_so():
    """Every setting clearly over mean_rounds <= 20 (25, 26, 30): the race says none is
    feasible, and the nearest one (25) is the answer."""
    truths = [Truth(0.5, rounds=x) for x in (25, 26, 30)]
    for goals in (("mean_rounds<=20",), ("first_player_edge=0", "mean_rounds<=20")):
        r = race_truths(truths, 0, 20_000, goals=goals)
        assert r.none_feasible, goals
        assert r.reason[0] == "shown to break mean_rounds <= 20"
        assert r.best == 0
        assert r.alive[0]


def test_a_race_with_nothing_feasible_records_each_drop_at_its_look():
    # BUG (analyses/racing.py, race(), the `if dropped is None:` branch): when every setting
    # is shown to break a constraint, the race re-runs _drop on the relaxed objective after
    # the look was already appended to out.looks, so _drop's `look = len(out.looks) + 1`
    # is one too many: the settings dropped at look 1 get dropped_at == 2 (and the status
    # line says "dropped at look 2") while the only look's record lists them. Fix: compute
    # the relaxed drop before appending the Look, or pass the look number to _drop.
    truths = [Truth(0.5, rounds=x) for x in (25, 26, 30)]
    r = race_truths(truths, 0, 20_000, goals=("mean_rounds<=20",))
    check_record(r, 20_000)


def test_the_feasible_best_is_kept_against_a_better_scoring_infeasible_rival():
    # BUG (analyses/racing.py, _drop): a setting is dropped as "shown worse than b" for any
    # rival b not yet *shown* to break a constraint, so a feasible setting (edge 5 pp,
    # 18 rounds) is dropped as worse than one with edge 0 whose true mean (20.1 rounds)
    # breaks mean_rounds <= 20 but has not yet been shown to; b is dropped later, or is
    # recommended. The truly best setting (the best feasible one) is lost in ~70% of
    # replications at alpha 5%. Fix: only let a rival that is shown to MEET every
    # constraint (Goal.met(...) == "met", at the same miss) drop another as worse, and count
    # those intervals in Objective.statements (constraints x K instead of constraints).
    truths = [Truth(0.55, rounds=18), Truth(0.5, rounds=20.1), Truth(0.5, rounds=25)]
    reps = 20
    kept = sum(race_truths(truths, seed, 60_000,
                           goals=("first_player_edge=0", "mean_rounds<=20")).alive[0]
               for seed in range(reps))
    assert kept / reps >= 1 - ALPHA - mc_bound(ALPHA, reps)


# ---------------------------------------------------------------- d) pairing pays


def test_common_random_numbers_tell_apart_what_independent_draws_cannot():
    """Edges +3 pp and +4 pp against a target of 0 (both on one side): on the same draws
    the per-game difference is 1 in 1% of games, so the worse is dropped within two looks
    every time; on independent draws the difference's variance is 50 times larger, and it
    is dropped in few replications, never sooner."""
    budget, reps = 40_000, 10
    apart_dropped = 0
    for seed in range(reps):
        paired = race_truths([Truth(0.53), Truth(0.54)], seed, budget)
        apart = race_truths([Truth(0.53, stream=1), Truth(0.54, stream=2)], seed, budget)
        check_record(paired, budget)
        check_record(apart, budget)
        assert paired.alive == [True, False]
        assert paired.dropped_at[1] <= 2
        assert paired.reason[1] == "shown worse than 0"
        assert apart.alive[0]
        apart_dropped += not apart.alive[1]
        assert (apart.dropped_at[1] or math.inf) >= paired.dropped_at[1]
        assert apart.played >= paired.played
    assert apart_dropped <= reps // 2


# ---------------------------------------------------------------- e) chunking changes nothing


def _frames(n: int, seed: int) -> list[pd.DataFrame]:
    out = []
    synthetic_arena(seed, block=n)([Truth(0.45), Truth(0.5, rounds=22), Truth(0.58, shift=0.3)],
                                   0, n, out.extend, "all")
    return out


def test_the_tally_is_the_same_whatever_the_blocks():
    n = 1000
    frames = _frames(n, 11)
    tallies = []
    for block in (1, 137, n):
        t = ArmTally(3, RACE_LAYOUT.features())
        for start in range(0, n, block):
            t.add([0, 1, 2], [features(f.iloc[start:start + block], RACE_LAYOUT)
                              for f in frames])
        tallies.append(t)
    ref = tallies[0]
    assert ref.games.tolist() == [n, n, n]
    for t in tallies[1:]:
        assert np.array_equal(t.games, ref.games)
        for f in ref.names:
            assert t.s1[f].dtype == np.int64 and t.s2[f].dtype == np.int64
            assert np.array_equal(t.s1[f], ref.s1[f]) and np.array_equal(t.s2[f], ref.s2[f])
        for f in ref.hist:
            for a, b in zip(t.hist[f], ref.hist[f], strict=True):
                assert np.array_equal(a.values, b.values)
                assert np.array_equal(a.counts, b.counts)
    # the exact sums are the frames' own
    win = (frames[0]["win_0"] * 60).astype(int)
    assert int(ref.s1["win_0"][0]) == win.sum()
    assert int(ref.s2["win_0"][0, 2]) == int(win @ (frames[2]["win_0"] * 60).astype(int))
    assert ref.diff_var(0, 1, "rounds") == pytest.approx(
        float((frames[0]["rounds"] - frames[1]["rounds"]).var()))


def test_a_subset_of_arms_adds_only_to_them():
    frames = _frames(300, 12)
    t = ArmTally(4, RACE_LAYOUT.features())
    t.add([0, 2, 3], [features(f, RACE_LAYOUT) for f in frames])
    t.add([0, 3], [features(frames[0], RACE_LAYOUT), features(frames[2], RACE_LAYOUT)])
    assert t.games.tolist() == [600, 0, 300, 600]
    assert t.s2["rounds"][1].tolist() == [0, 0, 0, 0]
    assert t.counts(0, "rounds").size == 600 and t.counts(2, "rounds").size == 300


@pytest.mark.parametrize("goals", [("first_player_edge=0", "median_rounds=20"),
                                   ("max_place_gap<=0.05", "mean_rounds=19")])
def test_the_race_answers_the_same_whatever_the_blocks(goals):
    truths = [Truth(0.5 + g, rounds=19 + 0.3 * k) for k, g in enumerate(GAPS)]
    runs = [race_truths(truths, 3, 24_000, goals=goals, block=b) for b in (137, 1000, 10**6)]
    ref = runs[0]
    for r in runs[1:]:
        assert r.alive == ref.alive and r.reason == ref.reason
        assert r.dropped_at == ref.dropped_at and r.played == ref.played
        assert [vars(x) for x in r.looks] == [vars(x) for x in ref.looks]
        for f in ref.tally.names:
            assert np.array_equal(r.tally.s2[f], ref.tally.s2[f])
    assert not all(ref.alive)  # something was decided


# ---------------------------------------------------------------- f) screening


def _screen(knob_texts, truth_of, seed, trials=24, games=2000, calls=None):
    from engines import get_game

    cls = get_game("rum-runner").rules_cls
    knobs = [parse_knob(cls, k) for k in knob_texts]
    objective = Objective((parse_goal("first_player_edge=0", RACE_LAYOUT),))
    return screen(synthetic_arena(seed, calls=calls), knobs, truth_of, RACE_LAYOUT, objective,
                  trials, games, seed)


def _draw_count_truth(values):
    """draw_count v: edge 2 pp x (v - 9), best at 9; draw_count 4 is 'impossible'."""
    (v,) = values
    return None if v == 4 else Truth(0.5 + 0.02 * (v - 9))


def test_screening_is_seeded_and_finds_the_neighbourhood_of_the_optimum():
    calls = []
    one = _screen(["draw_count=1..16"], _draw_count_truth, 7, calls=calls)
    two = _screen(["draw_count=1..16"], _draw_count_truth, 7)
    assert one.tried == two.tried
    assert len(one.tried) == 24
    assert all(1 <= v <= 16 and isinstance(v, int) for (v,), _ in one.tried)
    # every batch plays the same screening games, 0 .. games - 1
    assert calls and all(first == 0 and games == 2000 for first, games, _ in calls)
    played = sum(1 for (v,), _ in one.tried if v != 4)
    assert one.played == 2000 * played
    assert all(math.isinf(s) for (v,), s in one.tried if v == 4)
    finalists = one.finalists(3)
    assert len(finalists) == len(set(finalists)) == 3
    assert any(abs(v - 9) <= 1 for (v,) in finalists), one.tried
    assert (4,) not in finalists


def test_screening_a_number_knob_with_a_choice_knob():
    """Two knobs (CMA-ES over the number, TPE for the rest): seeded, and it finds the
    best's neighbourhood (draw_count 9 with flip_after_draw false)."""
    def truth(values):
        v, flip = values
        return Truth(0.5 + 0.02 * (v - 9) + (0.04 if flip else 0.0))

    one = _screen(["draw_count=1..16", "flip_after_draw"], truth, 3, trials=32)
    two = _screen(["draw_count=1..16", "flip_after_draw"], truth, 3, trials=32)
    assert one.tried == two.tried
    best = one.finalists(3)
    assert any(abs(v - 9) <= 1 and not flip for v, flip in best), one.tried


# ---------------------------------------------------------------- rare 0/1 features


def test_a_share_with_no_event_is_never_shown_to_be_zero():
    """A 0/1 feature with no event yet (capped games, ties, a band) gets an exact interval
    whose upper end is the rule of three at the race's level, not [0, 0]; so a
    setting that has not yet shown a capped game is not 'shown to meet' capped<=0.1%."""
    from analyses.goals import _share_interval

    for n, miss in ((800, 0.05), (800, 0.005), (5000, 0.01), (30, 0.05)):
        lo, hi = _share_interval(0.0, n, miss)
        three = 1 - (miss / 2) ** (1 / n)   # the exact bound with no event
        assert lo == 0.0 and hi == pytest.approx(three, rel=1e-9) and three > 0
        lo1, hi1 = _share_interval(1.0, n, miss)
        assert hi1 == 1.0 and lo1 == pytest.approx(1 - three, rel=1e-9)
    # 800 games without a capped one cannot show a share under 0.1%: the bound is ~0.5%
    assert _share_interval(0.0, 800, 0.05)[1] > 0.004


def test_the_zero_event_interval_covers_rare_truths():
    """Coverage by simulation: shares of 0.05%-2% at 30-5,000 games, 95% (two-sided);
    Wilson's interval fell to 92.6% here (800 games, 0.5%)."""
    from analyses.goals import _share_interval

    rng = np.random.default_rng(3)
    for n in (30, 800, 5000):
        for p in (0.0005, 0.0015, 0.003, 0.005, 0.0065, 0.01, 0.02):
            hits = rng.binomial(n, p, size=3000) / n
            covered = [lo <= p <= hi for lo, hi in (_share_interval(h, n, 0.05) for h in hits)]
            assert np.mean(covered) >= 0.94, (n, p, np.mean(covered))


def test_a_paired_share_difference_with_no_event_is_not_zero_width():
    """Two arms on the same 800 games, neither with a tie yet: the paired interval of the
    difference is Newcombe's, about +-z^2/n, never [0, 0]."""
    tally = ArmTally(2, ("tie",))
    zeros = {"tie": np.zeros(800, dtype=np.int64)}
    tally.add([0, 1], [zeros, zeros])
    from analyses.goals import Metric
    share = Metric("tie_share", "ties", "%", "linear", ("tie",))
    lo, hi = share.paired(tally, 0, 1, 0.05)
    assert lo < 0 < hi and hi - lo > 0.004
    lo, hi = share.interval(tally, 0, 0.05)
    assert lo == 0 and hi > 0.004


def test_the_recommendation_is_shown_at_the_race_simultaneous_level():
    """The recommendation was chosen as the best on the games its interval reads, so its
    interval (and every setting's) is simultaneous over the settings raced and the looks,
    and says so (the coverage: analyses.validation's recommendation cases)."""
    from analyses.tune import TuneAnswer
    from analyses.validation import EIGHT_EQUAL

    got = race_truths(EIGHT_EQUAL, 5, 30_000)
    answer = TuneAnswer("synthetic", 2, "", list(got.objective.goals), [], got.labels,
                        [()] * 8, got, [], 0)
    metric = got.objective.goals[0].metric
    row = answer.goal_rows(answer.best)[0]
    assert got.shown_miss == pytest.approx(ALPHA / (8 * got.looks_max))
    assert (row["low"], row["high"]) == metric.interval(got.tally, answer.best,
                                                        got.shown_miss)
    narrow = metric.interval(got.tally, answer.best, ALPHA)
    assert row["low"] < narrow[0] and row["high"] > narrow[1]
    text = answer.render_text()
    assert "95% simultaneous over the 8 settings raced and up to" in text
    assert answer.to_json()["settings_intervals"]["confidence"] == pytest.approx(0.95)
