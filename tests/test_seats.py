"""Seat advantage statistics on synthetic outcome tables with and without a known seat effect."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyses import sequential
from analyses.seats import reseat, seat_advantage, win_share_by


def synthetic(shares, n, seed=0, tie_rate=0.0, no_winner=0.0):
    """n games where seat s wins with probability shares[s]; some ties split 1/2; some no winner."""
    rng = np.random.default_rng(seed)
    players = len(shares)
    winner = rng.choice(players, size=n, p=np.asarray(shares) / np.sum(shares))
    wins = np.zeros((n, players))
    wins[np.arange(n), winner] = 1.0
    tied = rng.random(n) < tie_rate
    other = (winner + 1 + rng.integers(0, players - 1, size=n)) % players
    wins[tied, winner[tied]] = 0.5
    wins[tied, other[tied]] = 0.5
    none = rng.random(n) < no_winner
    wins[none] = 0.0
    frame = pd.DataFrame({f"win_{s}": wins[:, s] for s in range(players)})
    frame.insert(0, "game", np.arange(n))
    return frame


def test_a_known_first_player_edge_is_found():
    frame = synthetic([0.30, 0.24, 0.23, 0.23], 200_000, seed=1)
    ans = seat_advantage(frame, 4)
    assert ans.verdict == "unbalanced"
    assert "seat 0" in ans.verdict_text
    row = ans.table.iloc[0]
    assert row["low"] < 0.30 < row["high"]
    assert row["gap"] == pytest.approx(0.05, abs=0.005)
    assert ans.p_value < 1e-6


def test_fair_seats_are_called_balanced_only_when_the_intervals_fit():
    frame = synthetic([1, 1, 1], 200_000, seed=2)
    ans = seat_advantage(frame, 3, margin=0.02)
    assert ans.verdict == "balanced"
    assert (ans.table["sim_low"] > -0.02).all() and (ans.table["sim_high"] < 0.02).all()
    assert ans.p_value > 1e-3
    # the same seats with a margin too tight for the sample cannot be called balanced
    tight = seat_advantage(frame, 3, margin=0.001)
    assert tight.verdict == "undetermined"
    assert tight.more_games is not None and tight.more_games > 0


def test_undetermined_says_how_many_more_games_and_that_many_settle_it():
    small = synthetic([1, 1, 1], 2_000, seed=3)
    ans = seat_advantage(small, 3, margin=0.02)
    assert ans.verdict == "undetermined"
    assert "more games" in ans.verdict_text
    # with the suggested number of games (plus a little slack) the verdict is reached
    bigger = synthetic([1, 1, 1], 2_000 + int(ans.more_games * 1.3), seed=4)
    assert seat_advantage(bigger, 3, margin=0.02).verdict == "balanced"


def test_ties_count_one_over_k_and_games_without_winner_count_for_nobody():
    frame = synthetic([1, 1], 50_000, seed=5, tie_rate=0.2, no_winner=0.1)
    ans = seat_advantage(frame, 2)
    total = ans.table["wins"].sum()
    assert total == pytest.approx(frame[["win_0", "win_1"]].to_numpy().sum())
    assert total < 50_000
    # tied wins are exactly halves, so shares need not be multiples of 1/n
    assert (frame[["win_0", "win_1"]].to_numpy() % 0.5 == 0).all()


def test_per_seat_intervals_cover_the_truth_about_95_percent():
    hits = 0
    trials = 200
    for k in range(trials):
        frame = synthetic([0.4, 0.3, 0.3], 2_000, seed=100 + k)
        row = seat_advantage(frame, 3).table.iloc[0]
        hits += row["low"] <= 0.4 <= row["high"]
    assert 0.90 <= hits / trials <= 0.99


def test_views_give_win_share_per_value_and_find_a_planted_effect():
    rng = np.random.default_rng(7)
    n, players = 60_000, 3
    pos = np.array([rng.permutation(4)[:3] + 1 for _ in range(n)])
    # the player whose first worker is at rail position 1 wins half the time when present
    wins = np.zeros((n, players))
    for g in range(n):
        first = np.where(pos[g] == 1)[0]
        if first.size and rng.random() < 0.5:
            wins[g, first[0]] = 1
        else:
            wins[g, rng.integers(players)] = 1
    frame = pd.DataFrame({**{f"win_{s}": wins[:, s] for s in range(players)},
                          **{f"first_rail_pos_{s}": pos[:, s] for s in range(players)}})
    table, (chi2, dof, p) = win_share_by(frame, players, "first_rail_pos_{seat}")
    assert list(table["value"]) == [1, 2, 3, 4]
    assert table.loc[table["value"] == 1, "share"].item() > 0.6
    assert dof == 3 and p < 1e-6
    ans = seat_advantage(frame, players, views={"first rail position": "first_rail_pos_{seat}"})
    assert "Win share by first rail position" in ans.render_text()


def test_render_and_json_carry_the_verdict_and_method():
    ans = seat_advantage(synthetic([1, 1, 1, 1], 20_000, seed=8), 4)
    text = ans.render_text()
    assert "Verdict" in text and "Wilson" in text and "Bonferroni" in text
    data = ans.to_json()
    assert data["verdict"] == ans.verdict and len(data["seats"]) == 4
    assert "seats" in ans.to_csv()


def test_confidence_sequence_is_wider_than_fixed_n_and_shrinks():
    h1 = sequential.halfwidth(10_000)
    h2 = sequential.halfwidth(40_000)
    assert h2 < h1
    assert h1 > 1.96 * 0.5 / np.sqrt(10_000)
    n = sequential.games_for(0.005)
    assert sequential.halfwidth(n) <= 0.005 < sequential.halfwidth(int(n * 0.95))


def test_confidence_sequence_holds_over_a_whole_run_about_95_percent():
    """Peeking after every batch must not break coverage (the point of a confidence sequence)."""
    rng = np.random.default_rng(9)
    p, alpha, trials, batches, batch = 0.3, 0.05, 300, 40, 250
    rho = sequential.tuned_rho(batch * batches, alpha)
    ever_missed = 0
    for _ in range(trials):
        x = rng.random(batch * batches) < p
        sums = np.cumsum(x)
        missed = False
        for b in range(1, batches + 1):
            k = b * batch
            if abs(sums[k - 1] / k - p) > sequential.halfwidth(k, alpha, rho):
                missed = True
                break
        ever_missed += missed
    assert ever_missed / trials <= alpha + 0.03


def test_bad_inputs():
    frame = synthetic([1, 1], 100)
    with pytest.raises(ValueError):
        seat_advantage(frame, 1)
    with pytest.raises(ValueError):
        seat_advantage(frame, 2, margin=0)


def test_reseat_orders_wins_by_a_per_seat_turn_order_column():
    frame = pd.DataFrame({"first_rail_pos_0": [3, 1], "first_rail_pos_1": [1, 4],
                          "first_rail_pos_2": [2, 2], "win_0": [1.0, 0.0],
                          "win_1": [0.0, 0.5], "win_2": [0.0, 0.5]})
    ranked = reseat(frame, 3, "first_rail_pos_{seat}")
    assert ranked.to_dict("list") == {"win_0": [0.0, 0.0], "win_1": [0.0, 0.5],
                                      "win_2": [1.0, 0.5]}
