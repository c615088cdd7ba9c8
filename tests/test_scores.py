"""Winners' and others' scores on small hand-made games whose answer can be read off."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyses import get_analysis
from analyses.scores import winners_and_others

# Three 3-player games: a clear winner, a two-way tie for the top, a winner by one point.
GAMES = pd.DataFrame({
    "score_0": [30, 25, 10], "score_1": [20, 25, 12], "score_2": [10, 5, 11],
    "win_0": [1.0, 0.5, 0.0], "win_1": [0.0, 0.5, 1.0], "win_2": [0.0, 0.0, 0.0],
    "rounds": [5, 6, 7],
})


def counted(counter) -> list[float]:
    """A counter's values, each as often as it was seen (ascending: games are not kept)."""
    return list(np.repeat(counter.values, counter.counts))


def test_winners_others_and_the_lead_are_split_per_game():
    ans = winners_and_others(GAMES, 3)
    assert counted(ans.winner) == [12, 25, 30]
    # Who did not win or share the win: both losers of game 0, seat 2 of game 1, two of game 2.
    assert counted(ans.others) == [5, 10, 10, 11, 20]
    assert counted(ans.lead) == [0, 1, 10]
    assert counted(ans.rounds) == [5, 6, 7]


def test_summary_states_means_ranges_ties_and_length():
    row = winners_and_others(GAMES, 3).summary()
    assert row["games"] == 3
    assert row["winner_mean"] == pytest.approx(67 / 3)
    assert row["winner_low"] < row["winner_mean"] < row["winner_high"]
    assert (row["winner_p10"], row["winner_p90"]) == (12, 30)  # scores that occurred
    assert row["others_mean"] == pytest.approx(56 / 5)
    assert row["tied_top_share"] == pytest.approx(1 / 3)
    assert row["lead_mean"] == pytest.approx(11 / 3) and row["rounds_mean"] == 6


def test_a_single_game_has_no_interval_and_solo_games_are_refused():
    row = winners_and_others(GAMES.head(1), 3).summary()
    assert np.isnan(row["winner_low"]) and np.isnan(row["winner_high"])
    with pytest.raises(ValueError, match="two or more players"):
        winners_and_others(GAMES, 1)


def test_registry_lists_scores_for_any_game():
    entry = get_analysis("scores")
    assert entry.function is winners_and_others
    assert entry.applies_to("montego-bay") and entry.applies_to("rum-rebellion")
