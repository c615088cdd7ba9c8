"""The skill ladder and its luck measures (analyses.ladder), against hand computations."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyses.deals import DealDifferences
from analyses.ladder import (
    LUCK_WORDS,
    ScoreLadderTally,
    jackknife,
    ladder,
    luck_index,
    luck_words,
    score_ladder,
    variance_shares,
)
from analyses.matchup import MatchupTally
from analyses.stats import Interval, mean_interval


def test_luck_index_maps_the_share_and_its_interval():
    # 4 players: an equal player loses 3/4 of games. Winning 62.5% leaves 37.5% upsets,
    # half of an equal player's: luck index 0.5; the bounds swap (the map decreases).
    got = luck_index(Interval(0.625, 0.6, 0.65), 4)
    assert got == pytest.approx((0.5, 0.35 / 0.75, 0.4 / 0.75))
    assert luck_index(Interval(0.25, 0.2, 0.3), 4).estimate == pytest.approx(1.0)
    assert luck_index(Interval(1.0, 1.0, 1.0), 3).estimate == 0.0


def test_luck_words_cover_every_index_in_order():
    bounds = [b for b, _ in LUCK_WORDS]
    assert bounds == sorted(bounds)
    assert luck_words(0.0) == LUCK_WORDS[0][1]
    assert luck_words(0.99) == LUCK_WORDS[-1][1]


def _rung(players: int, wins_of_focal: float, games: int = 400) -> MatchupTally:
    """A rung whose focal seat wins share ``wins_of_focal`` of every rotation's games."""
    rng = np.random.default_rng(0)
    frames = []
    for s in range(players):
        won = rng.random(games) < wins_of_focal
        wins = np.zeros((games, players))
        wins[won, s] = 1.0
        other = [k for k in range(players) if k != s]
        wins[~won, np.array(other)[rng.integers(0, players - 1, (~won).sum())]] = 1.0
        frame = pd.DataFrame({f"win_{k}": wins[:, k] for k in range(players)})
        frame = frame.assign(game=np.arange(games),
                             **{f"score_{k}": wins[:, k] * 10 for k in range(players)})
        frames.append(frame)
    return MatchupTally(players).add(frames)


def test_ladder_words_a_clear_and_a_reversed_rung():
    strong = _rung(4, 0.9).answer("greedy", "random")
    reversed_ = _rung(4, 0.05).answer("sampler", "greedy")
    answer = ladder([strong, reversed_])
    t = answer.table
    assert list(t["stronger"]) == ["greedy", "sampler"]
    assert t["upset"].iloc[0] == pytest.approx(1 - t["share"].iloc[0])
    assert t["luck"].iloc[0] == pytest.approx((1 - t["share"].iloc[0]) / 0.75)
    assert "skill dominates" in answer.sentences[0]
    assert "weaker than greedy" in answer.sentences[1]
    assert "wrong at this rung" in t["reading"].iloc[1]


def _solo_frames(n: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    deal = rng.normal(0, 10, n)
    game = np.arange(n)
    return [pd.DataFrame({"game": game, "score_0": deal + shift + rng.normal(0, 5, n)})
            for shift in (0.0, 12.0, 30.0)]


def test_score_ladder_lead_and_upsets_by_hand():
    frames = _solo_frames(3000)
    answer = score_ladder(ScoreLadderTally(("a", "b", "c")).add(frames))
    t = answer.table
    d = frames[1]["score_0"] - frames[0]["score_0"]
    got = (t["lead"].iloc[0], t["lead_low"].iloc[0], t["lead_high"].iloc[0])
    assert got == tuple(DealDifferences(0.0).add(d.to_numpy()).interval())
    # every deal differs, nearly symmetrically: close to Student-t's interval
    assert got == pytest.approx(tuple(mean_interval(d)), rel=1e-3)
    upsets = ((frames[0]["score_0"] > frames[1]["score_0"]).mean()
              + 0.5 * (frames[0]["score_0"] == frames[1]["score_0"]).mean())
    assert t["upset"].iloc[0] == pytest.approx(upsets)
    assert answer.solo and len(answer.sentences) == 2


def test_variance_shares_match_an_anova_by_hand():
    a = np.array([1.0, 4.0, 2.0, 7.0, 5.0])
    b = np.array([3.0, 5.0, 5.0, 9.0, 6.0])
    n = a.size
    m = np.array([n, a.sum(), b.sum(), (a * a).sum(), (b * b).sum(), (a * b).sum()])
    y = np.stack([a, b], axis=1)
    grand = y.mean()
    ss_deal = 2 * ((y.mean(axis=1) - grand) ** 2).sum()
    ss_policy = n * ((y.mean(axis=0) - grand) ** 2).sum()
    ss_rest = ((y - grand) ** 2).sum() - ss_deal - ss_policy
    ms_rest = ss_rest / (n - 1)
    parts = np.array([(ss_deal / (n - 1) - ms_rest) / 2, (ss_policy - ms_rest) / (2 * n),
                      ms_rest])
    assert variance_shares(m) == pytest.approx(parts / parts.sum())


def test_jackknife_of_a_mean_is_the_student_t_interval():
    # For a mean of equal-sized groups the delete-a-group jackknife variance is the
    # variance of the group means over G: the t interval over the groups' means.
    groups = np.arange(1.0, 9.0)[:, None] * np.array([[1.0, 1.0]])  # (sum, count) per group
    sums = np.concatenate([groups[:, :1], np.ones((8, 1))], axis=1)
    (iv,) = jackknife(lambda s: np.array([s[0] / s[1]]), sums)
    assert tuple(iv) == pytest.approx(tuple(mean_interval(np.arange(1.0, 9.0))))


def test_blocks_and_merges_give_the_whole_answer():
    frames = _solo_frames(1000)
    whole = score_ladder(ScoreLadderTally(("a", "b", "c")).add(frames)).table
    parts = ScoreLadderTally(("a", "b", "c"))
    for lo in range(0, 1000, 137):
        parts.merge(ScoreLadderTally(("a", "b", "c")).add([f.iloc[lo:lo + 137]
                                                           for f in frames]))
    pd.testing.assert_frame_equal(score_ladder(parts).table, whole, rtol=1e-9)


def test_frames_of_other_games_are_refused():
    frames = _solo_frames(10)
    with pytest.raises(ValueError, match="same games"):
        ScoreLadderTally(("a", "b", "c")).add([frames[0], frames[1].iloc[::-1], frames[2]])


def test_a_rung_the_stronger_always_wins_keeps_an_interval_of_width():
    # Every deal: the focal seat wins. The clustered t interval has no width; Wilson on the
    # 400 deals gives what 400 deals allow ([0.990, 1]).
    answer = _rung(4, 1.0).answer("greedy", "random")
    assert answer.share.estimate == 1.0 and answer.share.high == 1.0
    assert 0.98 < answer.share.low < 1.0
    luck = ladder([answer]).table.iloc[0]
    assert luck["luck_low"] == 0.0 and luck["luck_high"] > 0.0


def test_a_ladder_of_equal_policies_corrects_its_wrong_order_across_rungs():
    """Four rungs of equal policies; on one the stronger's 95% interval happens to lie below
    1/P (one-sided p 1.6%). Uncorrected that rung said the ladder's order is wrong (a ladder
    of four equal rungs said so somewhere in about 10% of ladders); after Holm over the four
    rungs (1.6% x 4 > 2.5%) it says only that it looks weaker, not that the order is wrong.
    Alone, the same rung is one whose interval says it."""
    from analyses.matchup import matchup
    from analyses.validation import _shared_deal_runs

    low = matchup(_shared_deal_runs(np.random.default_rng(11), 4, 400, 0.1, 0.25), 4, "b",
                  "a")
    assert low.share.high < 0.25 and 0.00625 < low.p_below < 0.025
    even = [_rung(4, 0.25).answer(f"p{k}", f"p{k - 1}") for k in range(3)]
    t = ladder([*even, low]).table
    assert not any("order is wrong" in r for r in t["reading"])
    assert "not after Holm's correction over the ladder's 4 rungs" in t["reading"].iloc[3]
    assert t["p_weaker_holm"].iloc[3] == pytest.approx(4 * low.p_below)
    alone = ladder([low]).table
    assert "the ladder's order is wrong at this rung" in alone["reading"].iloc[0]
