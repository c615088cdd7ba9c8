"""Policy sensitivity (analyses.sensitivity): the three states, the z test, the paired shifts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyses.sensitivity import (
    EdgeShiftTally,
    SeatView,
    differ,
    direction,
    edge_shifts,
    seat_sensitivity,
)
from analyses.stats import Interval, mean_interval


def view(policy, edge, half=0.01, weakest=3, clear=False, games=10_000):
    return SeatView(policy, 4, games, Interval(edge, edge - half, edge + half), "unbalanced",
                    weakest, clear)


def test_direction_reads_the_interval():
    assert direction(Interval(0.02, 0.01, 0.03)) == "ahead"
    assert direction(Interval(-0.02, -0.03, -0.01)) == "behind"
    assert direction(Interval(0.01, -0.01, 0.03)) == "no edge shown"


def test_differ_is_a_z_test_on_the_difference():
    # se of each = 0.01 / 1.96; difference 0.03 over sqrt(2) * se: z = 3.0 > 1.96.
    a, b = Interval(0.03, 0.02, 0.04), Interval(0.0, -0.01, 0.01)
    assert differ(a, b, 0.05)
    assert not differ(a, Interval(0.025, 0.015, 0.035), 0.05)


def test_the_same_direction_everywhere_holds():
    s = seat_sensitivity([view("random", 0.02), view("greedy", 0.025)])
    assert s.holds and s.state == "holds"
    assert "holds across random and greedy" in s.sentence
    assert "ahead under every one" in s.sentence


def test_opposite_significant_edges_depend_on_the_players():
    s = seat_sensitivity([view("random", 0.03), view("greedy", -0.03)])
    assert not s.holds and s.state == "depends"
    assert "depends on the players" in s.sentence and "not of the seat alone" in s.sentence


def test_one_clear_edge_and_one_unclear_is_not_called_a_change():
    # greedy is ahead; random's wide interval holds 0 and greedy's estimate alike.
    s = seat_sensitivity([view("random", 0.01, half=0.03), view("greedy", 0.02)])
    assert s.state == "unshown" and not s.holds
    assert "not evidence that the answer changes" in s.sentence


def test_a_moving_clearly_weakest_seat_depends_on_the_players():
    s = seat_sensitivity([view("random", 0.0, weakest=1, clear=True),
                          view("greedy", 0.0, weakest=2, clear=True)])
    assert s.state == "depends" and "weakest seat moves" in s.sentence


def _frames(n=500, seed=3):
    rng = np.random.default_rng(seed)
    game = np.arange(n)

    def frame(p0):
        w0 = (rng.random(n) < p0).astype(float)
        return pd.DataFrame({"game": game, "players": 2, "win_0": w0, "win_1": 1 - w0,
                             "first_rail_seat": rng.integers(0, 2, n)})

    return [frame(0.5), frame(0.6), frame(0.4)]


def test_edge_shift_is_the_paired_mean_difference():
    frames = _frames()
    tally = EdgeShiftTally(("up", "down")).add(frames)
    got = tally.shifts()
    for k, name in enumerate(("up", "down")):
        want = mean_interval(frames[k + 1]["win_0"] - frames[0]["win_0"])
        assert tuple(got[name]) == pytest.approx(tuple(want))


def test_edge_shift_reads_the_first_seat_column():
    frames = _frames()
    tally = EdgeShiftTally(("up", "down"), first_seat="first_rail_seat").add(frames)

    def first(f):
        w = f[["win_0", "win_1"]].to_numpy()
        return w[np.arange(len(f)), f["first_rail_seat"].to_numpy()]

    want = mean_interval(first(frames[1]) - first(frames[0]))
    assert tuple(tally.shifts()["up"]) == pytest.approx(tuple(want))


def test_blocks_and_merges_give_the_whole_shift():
    frames = _frames()
    whole = EdgeShiftTally(("up", "down")).add(frames).shifts()
    parts = EdgeShiftTally(("up", "down"))
    for lo in range(0, 500, 77):
        parts.merge(EdgeShiftTally(("up", "down")).add([f.iloc[lo:lo + 77] for f in frames]))
    for name in whole:
        assert tuple(parts.shifts()[name]) == pytest.approx(tuple(whole[name]))


def test_frames_of_other_games_are_refused():
    frames = _frames()
    with pytest.raises(ValueError, match="base run's games"):
        EdgeShiftTally(("up", "down")).add([frames[0], frames[1].iloc[::-1], frames[2]])


def test_edge_shift_sentences():
    by_policy = {"random": {"short": Interval(-0.03, -0.05, -0.01)},
                 "greedy": {"short": Interval(-0.02, -0.04, -0.005)}}
    table, sentences = edge_shifts(by_policy, {"random": 100, "greedy": 100}, 4)
    assert list(table["direction"]) == ["lowers", "lowers"]
    assert "lowers the first player's win share under every policy" in sentences[0]
    by_policy["greedy"]["short"] = Interval(0.04, 0.02, 0.06)
    _, sentences = edge_shifts(by_policy, {"random": 100, "greedy": 100}, 4)
    assert "depends on how people play" in sentences[0]
