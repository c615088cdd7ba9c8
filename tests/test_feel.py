"""The game-feel metrics (analyses.feel) against a hand-computed fixture of six games."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyses import ANALYSES, FEEL_METRICS, get_analysis
from analyses.feel import METRICS, FeelTally, feel, feel_of_frame
from analyses.stats import (
    events_share_interval_from_moments,
    exact_share_interval,
    quantile_interval,
    skewed_mean_interval_from_moments,
)


def _hall(values) -> tuple[float, float]:
    """Hall's skewness-corrected interval of whole values, from their exact sums."""
    x = [int(v) for v in values]
    iv = skewed_mean_interval_from_moments(len(x), sum(x), sum(v * v for v in x),
                                           sum(v ** 3 for v in x))
    return iv.low, iv.high

# Six 3-player games, chosen so every count below can be done by hand:
#   g0: seat 0 wins by 2, led at half time;       g1: seats 1, 2 tie on 9, seat 1 wins the
#   tie-break, seat 2 led at half time (a comeback); g2: seat 2 wins by 8, led at half time;
#   g3: seats 0, 1 share the win (no sole winner);  g4: one round (no half time);
#   g5: no winner (a capped game).
FIXTURE = pd.DataFrame({
    "rounds": [4, 6, 5, 4, 1, 7],
    "turns": [12, 18, 15, 12, 3, 21],
    "score_0": [10, 7, 3, 6, 2, 0], "score_1": [8, 9, 4, 6, 0, 0],
    "score_2": [5, 9, 12, 1, 0, 0],
    "win_0": [1, 0, 0, 0.5, 1, 0], "win_1": [0, 1, 0, 0.5, 0, 0], "win_2": [0, 0, 1, 0, 0, 0],
    "lead_changes": [1, 2, 0, 3, 0, 1],
    "half_time_leader": [0, 2, 2, 1, -1, 0],
})


def _value(table: pd.DataFrame, statistic: str) -> pd.Series:
    return table.set_index("statistic").loc[statistic]


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return feel_of_frame(FIXTURE, players=3, close=2)


def test_length_by_hand(table):
    mean = _value(table, "mean rounds")
    assert mean["estimate"] == pytest.approx(27 / 6)
    assert (mean["low"], mean["high"]) == pytest.approx(_hall(FIXTURE["rounds"]))
    # Sorted rounds 1, 4, 4, 5, 6, 7: the median is the 3rd (ceil(6 * 0.5)), p90 the 6th.
    assert _value(table, "median rounds")["estimate"] == 4
    assert _value(table, "90th percentile rounds")["estimate"] == 7
    # Six games cannot put an order statistic above the 90th percentile with 97.5%
    # probability (1 - 0.9^6 = 47%): the upper end is unbounded, not the largest game.
    assert _value(table, "90th percentile rounds")["high"] == math.inf
    q = quantile_interval(FIXTURE["rounds"], 0.5)
    assert (_value(table, "median rounds")["low"], _value(table, "median rounds")["high"]) \
        == (q.low, q.high)
    assert _value(table, "mean turns")["estimate"] == pytest.approx(81 / 6)


def test_ties_and_margin_by_hand(table):
    # Five decided games; g1 and g3 have a shared top standing.
    ties = _value(table, "tied for first")
    assert ties["estimate"] == pytest.approx(2 / 5)
    assert (ties["low"], ties["high"]) == pytest.approx(exact_share_interval(2, 5)[1:])
    # Margins of the decided games: 2, 0, 8, 0, 2; four are at most 2.
    m = _value(table, "mean margin (score)")
    assert m["estimate"] == pytest.approx(12 / 5)
    assert (m["low"], m["high"]) == pytest.approx(_hall([2, 0, 8, 0, 2]))
    assert _value(table, "decided by at most 2")["estimate"] == pytest.approx(4 / 5)


def test_lead_changes_by_hand(table):
    assert _value(table, "lead changes per game")["estimate"] == pytest.approx(7 / 6)
    # Round boundaries (rounds - 1): 3, 5, 4, 3, 0, 6 = 21; 7 changes.
    rate = _value(table, "lead changes per round boundary")
    assert rate["estimate"] == pytest.approx(7 / 21)
    y, x = FIXTURE["lead_changes"], FIXTURE["rounds"] - 1  # at most one change a boundary
    want = events_share_interval_from_moments(6, y.sum(), x.sum(), (y * y).sum(),
                                              (x * x).sum(), (x * y).sum())
    assert (rate["low"], rate["high"]) == pytest.approx((want.low, want.high))
    assert rate["method"].startswith("Korn-Graubard")


def test_comebacks_by_hand(table):
    # Sole winners with a half-time leader: g0 (led), g1 (comeback), g2 (led); g4 has none.
    c = _value(table, "won by a seat not leading at half time")
    assert c["estimate"] == pytest.approx(1 / 3)
    assert (c["low"], c["high"]) == pytest.approx(exact_share_interval(1, 3)[1:])
    assert _value(table, "no sole leader at half time")["estimate"] == pytest.approx(1 / 4)


def test_blocks_give_the_whole_frame_answer(table):
    parts = [FeelTally(3, close=2).add(FIXTURE.iloc[:2]), FeelTally(3, close=2).add(
        FIXTURE.iloc[2:5]), FeelTally(3, close=2).add(FIXTURE.iloc[5:])]
    merged = parts[0].merge(parts[1]).merge(parts[2])
    pd.testing.assert_frame_equal(feel(merged), table)


def test_every_metric_is_registered_with_a_definition_and_source():
    assert {m.name for m in METRICS} == {name for name, *_ in FEEL_METRICS}
    for m in METRICS:
        assert m.definition and m.source
        assert get_analysis(f"feel.{m.name}").function is m.function
    assert ANALYSES["feel"].function is feel


def test_a_game_without_feel_columns_gives_only_what_it_can():
    plain = FIXTURE.drop(columns=["lead_changes", "half_time_leader", "turns"])
    t = feel_of_frame(plain, players=3)
    assert set(t["metric"]) == {"length", "ties", "margin"}
    assert not t["statistic"].str.contains("turns").any()
    assert np.isfinite(t["estimate"]).all() and not math.isnan(t["low"].iloc[0])


def test_a_solo_game_is_refused():
    with pytest.raises(ValueError, match="two or more players"):
        FeelTally(1)
