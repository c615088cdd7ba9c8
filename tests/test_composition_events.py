"""Score composition and event rates: hand-computed fixtures, and the ratio interval's coverage."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyses.composition import categories, composition
from analyses.events import event_rates
from analyses.stats import exact_share_interval, ratio_interval
from reports.sections.matchup import Matchup


def test_composition_by_hand():
    # Two games, two players, categories a and b; game 1 won by seat 0, game 2 shared.
    frame = pd.DataFrame({
        "win_0": [1.0, 0.5], "win_1": [0.0, 0.5],
        "vp_a_0": [4, 2], "vp_a_1": [0, 2],
        "vp_b_0": [6, -2], "vp_b_1": [2, 0],
    })
    assert categories(frame) == ["a", "b"]
    t = composition(frame, 2).set_index("category")
    # a player: game means (4+0)/2 = 2 and (2+2)/2 = 2 -> 2; b: 4 and -1 -> 1.5
    assert t.loc["a", "player"] == pytest.approx(2.0)
    assert t.loc["b", "player"] == pytest.approx(1.5)
    # the winner: game 1 seat 0 (4, 6); game 2 split (2, -1) -> a 3, b 2.5
    assert t.loc["a", "winner"] == pytest.approx(3.0)
    assert t.loc["b", "winner"] == pytest.approx(2.5)
    assert t.loc["a", "share"] == pytest.approx(2.0 / 3.5)
    # a player's a is 2 in both games: two games alike say nothing of others, no interval
    assert np.isnan(t.loc["a", "player_low"]) and np.isnan(t.loc["a", "player_high"])
    assert t.loc["b", "player_low"] < 1.5 < t.loc["b", "player_high"]


def test_composition_needs_category_columns():
    with pytest.raises(ValueError, match="vp_"):
        composition(pd.DataFrame({"win_0": [1.0], "score_0": [3]}), 1)


def test_event_rates_by_hand():
    frame = pd.DataFrame({"moves": [2, 4, 6], "hit": [1, 0, 1], "tries": [2, 0, 2]})
    t = event_rates(frame, {"moves": "moves"}, {"hit share": ("hit", "tries")}).set_index(
        "event")
    assert t.loc["moves", "value"] == pytest.approx(4.0)
    assert t.loc["moves", "kind"] == "per game"
    assert t.loc["hit share", "value"] == pytest.approx(0.5)
    assert t.loc["hit share", "kind"] == "share"
    # y - R x = (0, 0, 0): no spread between games, yet 2 hits of 4 tries say little: the
    # Korn-Graubard interval is Clopper-Pearson on the 4 tries (at t(2)'s few games' size),
    # never zero width as the delta method's was
    assert t.loc["hit share", "low"] < exact_share_interval(2, 4).low
    assert t.loc["hit share", "high"] > exact_share_interval(2, 4).high


def test_a_count_the_same_in_every_game_has_no_interval():
    """No event in 25 games: not [0, 0] (the symmetric interval's claim), but none."""
    t = event_rates(pd.DataFrame({"rare": [0] * 25}), {"rare": "rare"}).iloc[0]
    assert t["value"] == 0 and np.isnan(t["low"]) and np.isnan(t["high"])


def test_event_sums_are_the_same_whatever_the_blocks():
    from analyses.events import EventsTally

    rng = np.random.default_rng(4)
    x = rng.poisson(3, 137)
    frame = pd.DataFrame({"y": rng.binomial(x, 0.3), "x": x, "c": rng.poisson(0.4, 137)})
    whole = EventsTally({"c": "c"}, {"s": ("y", "x")}).add(frame).answer()
    parts = [EventsTally({"c": "c"}, {"s": ("y", "x")}).add(frame.iloc[i:i + 10])
             for i in range(0, 137, 10)]
    merged = parts[0]
    for p in parts[1:]:
        merged.merge(p)
    pd.testing.assert_frame_equal(merged.answer(), whole)


def test_ratio_interval_without_events_claims_nothing():
    r = ratio_interval([0, 0, 0], [0, 0, 0])
    assert np.isnan(r.estimate) and r.low == -np.inf and r.high == np.inf


def test_ratio_interval_covers_the_true_share_of_clustered_events():
    """Games with a Poisson number of events, each a 'hit' with a per-game chance drawn from a
    Beta (so events of one game are correlated): the true share of hits among events is
    E[x p] / E[x] = E[p] = 0.3 (x and p independent). The interval must cover it about 95%
    of the time, where a binomial count of events as independent trials would not."""
    rng = np.random.default_rng(11)
    reps, n = 2000, 300
    covered = naive = 0
    for _ in range(reps):
        x = rng.poisson(3.0, n)
        p = rng.beta(1.5, 3.5, n)          # mean 0.3, strong between-game spread
        y = rng.binomial(x, p)
        r = ratio_interval(y, x)
        covered += r.low <= 0.3 <= r.high
        share = y.sum() / x.sum()
        half = 1.96 * np.sqrt(share * (1 - share) / x.sum())
        naive += share - half <= 0.3 <= share + half
    assert 0.935 <= covered / reps <= 0.965
    assert naive / reps < 0.92  # the independent-trials interval undercovers here


def test_matchup_tells_a_parameterised_policy_from_its_defaults():
    m = Matchup(focal="greedy:reroll_can_win=1", field="greedy", players=3)
    meta = {"players": 3, "policies": ["greedy", "greedy:reroll_can_win=1", "greedy"]}
    assert m.seat_of(meta) == 1
    assert m.seat_of({"players": 3, "policies": ["greedy"] * 3}) is None
    bare = Matchup(focal="rollout", field="greedy", players=3)
    assert bare.seat_of({"players": 3, "policies": ["rollout:samples=2", "greedy",
                                                    "greedy"]}) == 0
