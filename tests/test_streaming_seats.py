"""The seat answer streamed chunk by chunk equals the answer from the whole frame, for every
multi-player game (real runs small enough to keep), and merging parts equals one pass."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import simulate
from analyses.seats import SeatTally, reseat, seat_advantage
from engines import GAMES, get_game

MULTI = [g for g in GAMES if get_game(g).max_players >= 2 and get_game(g).min_players >= 2]


def assert_same(a, b):
    assert a.games == b.games and a.verdict == b.verdict and a.dof == b.dof
    assert a.more_games == b.more_games or abs(a.more_games - b.more_games) <= 1
    for col in a.table.columns:
        assert np.allclose(a.table[col], b.table[col], rtol=1e-9, atol=1e-12), col
    assert np.isclose(a.chi2, b.chi2, rtol=1e-7, atol=1e-9)
    assert np.isclose(a.p_value, b.p_value, rtol=1e-7, atol=1e-12)
    assert set(a.views) == set(b.views)
    for name in a.views:
        pd.testing.assert_frame_equal(a.views[name], b.views[name], rtol=1e-9)
        assert np.allclose(a.view_tests[name], b.view_tests[name], rtol=1e-7, atol=1e-12)


def chunks(frame: pd.DataFrame, size: int):
    return [frame.iloc[i:i + size] for i in range(0, len(frame), size)]


@pytest.fixture(scope="module", params=MULTI)
def run(request):
    info = get_game(request.param)
    players = info.check_players(None)
    return info, players, simulate.run(info, 3000, players=players, seed=5, progress=False)


@pytest.mark.parametrize("size", [1, 137, 3000])
def test_a_streamed_seat_answer_equals_the_whole_frame(run, size):
    info, players, res = run
    views = info.extra.get("seat_views")
    frame = res.frame if size > 1 else res.frame.iloc[:400]
    whole = seat_advantage(frame, players, views=views)
    tally = SeatTally(players, views)
    for part in chunks(frame, size):
        tally.add(part)
    assert_same(whole, tally.answer())
    turn_order = info.extra.get("turn_order")
    if turn_order:  # Montego Bay: by rail order place, re-seated chunk by chunk
        placed = SeatTally(players)
        for part in chunks(frame, size):
            placed.add(reseat(part, players, turn_order[1]))
        assert_same(seat_advantage(reseat(frame, players, turn_order[1]), players),
                    placed.answer())


def test_merging_two_halves_equals_one_pass(run):
    info, players, res = run
    views = info.extra.get("seat_views")
    first, second = res.frame.iloc[:1234], res.frame.iloc[1234:]
    merged = SeatTally(players, views).add(first).merge(SeatTally(players, views).add(second))
    assert_same(seat_advantage(res.frame, players, views=views), merged.answer())


def test_a_sequential_answer_streams_in_game_order(run):
    info, players, res = run
    plan = (0.05, 2000.0)
    whole = seat_advantage(res.frame, players, sequential_plan=plan)
    tally = SeatTally(players, sequential_plan=plan)
    for part in chunks(res.frame, 250):
        tally.add(part)
    assert_same(whole, tally.answer())
    with pytest.raises(ValueError, match="in order"):
        tally.merge(SeatTally(players, sequential_plan=plan))
