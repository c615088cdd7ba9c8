"""The strength ladder: seatings, the tally of every rung on the same deals, Luce ratings,
the convergence verdict, and `rumsim ladder` end to end (small, fixed seeds)."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from analyses import convergence, ratings
from analyses.deals import DealDifferences
from analyses.stats import Interval
from analyses.strength import StrengthTally, seatings
from tests.clitools import run_cli


def test_seatings_play_every_rung_in_every_seat_then_each_against_the_one_below():
    s = seatings(("a", "b", "c"), 3)
    assert s[:3] == [("a",) * 3, ("b",) * 3, ("c",) * 3]
    assert s[3:6] == [("b", "a", "a"), ("a", "b", "a"), ("a", "a", "b")]
    assert s[6:] == [("c", "b", "b"), ("b", "c", "b"), ("b", "b", "c")]


def _frame(games, winners, players):
    wins = np.zeros((len(games), players))
    wins[np.arange(len(games)), winners] = 1.0
    return pd.DataFrame({"game": games, **{f"win_{s}": wins[:, s] for s in range(players)},
                         **{f"score_{s}": wins[:, s] for s in range(players)}})


def test_the_tally_reads_each_seating_in_its_place():
    rng = np.random.default_rng(1)
    rungs, players, n = ("a", "b", "c"), 3, 3000
    tally = StrengthTally(rungs, players)
    games = np.arange(n)
    # a: seat 0 wins a third; b and c: seat 0 wins half; the stronger seat of a head to
    # head always wins (so its share is 1)
    frames = [_frame(games, rng.integers(0, 3, n), players),
              _frame(games, np.where(rng.random(n) < 0.5, 0, 1 + rng.integers(0, 2, n)), 3)]
    frames.append(frames[1].copy())
    for _ in range(2):
        frames += [_frame(games, np.full(n, s), players) for s in range(players)]
    answer = tally.add(frames).answer()
    table = answer.table()
    assert list(table["policy"]) == list(rungs)
    assert abs(table["first_edge"][0] - 0) < 0.03
    assert abs(table["first_edge"][1] - (0.5 - 1 / 3)) < 0.03
    assert table["head_share"][1] == table["head_share"][2] == 1.0
    # b and c play every deal alike: no change, and the interval shows it equal
    assert answer.converged.state == "converged"
    assert answer.converged.difference.estimate == 0
    assert answer.deals == n
    with pytest.raises(ValueError, match="one frame per seating"):
        tally.add(frames[:-1])
    shifted = [f.assign(game=f["game"] + (k == 4)) for k, f in enumerate(frames)]
    with pytest.raises(ValueError, match="same deals"):
        tally.add(shifted)


def test_turn_order_first_player_is_read_from_the_order_column():
    tally = StrengthTally(("a", "b"), 2, place_pattern="pos_{seat}")
    f = pd.DataFrame({"game": [0, 1], "win_0": [1.0, 0.0], "win_1": [0.0, 1.0],
                      "pos_0": [5, 1], "pos_1": [2, 3]})
    # game 0: seat 1 is first (pos 2) and lost; game 1: seat 0 is first and lost
    wins = tally._unit_wins(f)
    assert list(wins[:, 0]) == [0.0, 0.0] and list(wins[:, 1]) == [1.0, 1.0]
    assert tally.unit_names() == ["place 1", "place 2"]


def _seat_diffs(changes):
    """One DealDifferences per column of a deals x seats array of changes."""
    return [DealDifferences(0.0).add(changes[:, s]) for s in range(changes.shape[1])]


def test_a_follower_that_moves_is_not_converged_though_the_first_player_stays():
    # 21 Motines' case: the first player's edge stays, the second seat's moves by 6 pp
    rng = np.random.default_rng(3)
    n = 20000
    moved = (rng.random(n) < 0.06).astype(float)
    changes = np.column_stack([np.zeros(n), moved, -moved, np.zeros(n)])
    first_only = convergence.verdict(DealDifferences(0.0).add(changes[:, 0]), "top", "below")
    assert first_only.state == "converged"      # what a first-player-only check says
    v = convergence.verdict_every(_seat_diffs(changes), [f"seat {s}" for s in range(4)],
                                  "top", "below", stronger=True)
    assert v.state == "not converged"
    assert v.largest in ("seat 1", "seat 2")
    assert "largest change of a seat's edge" in v.sentence()


def test_equal_rungs_that_agree_are_not_called_converged():
    n = 4000
    changes = np.zeros((n, 3))
    names = ["place 1", "place 2", "place 3"]
    weak = convergence.verdict_every(_seat_diffs(changes), names, "top", "below",
                                     stronger=False)
    assert weak.state == "undetermined" and weak.decide_deals is None
    assert "not shown stronger" in weak.sentence()
    assert convergence.verdict_every(_seat_diffs(changes), names, "top", "below",
                                     stronger=True).state == "converged"
    # unmeasured (no head to head at this player count): the edges decide
    assert convergence.verdict_every(_seat_diffs(changes), names, "top", "below").state \
        == "converged"


def test_every_seat_undetermined_says_the_deals_that_would_decide_it():
    rng = np.random.default_rng(5)
    n = 300
    a = (rng.random(n) < 0.05).astype(float) - (rng.random(n) < 0.04).astype(float)
    changes = np.column_stack([a, -a])
    v = convergence.verdict_every(_seat_diffs(changes), ["seat 0", "seat 1"], "t", "b")
    assert v.state == "undetermined"
    assert v.decide_deals > n and "deals in all would decide it" in v.sentence()
    assert "-0.0" not in v.sentence()


def test_luce_step_inverts_the_model():
    for players in (2, 3, 5):
        for gap in (-1.0, 0.0, 0.7):
            share = math.exp(gap) / (math.exp(gap) + players - 1)
            assert ratings.luce_step(share, players) == pytest.approx(gap)
    assert ratings.luce_step(0.25, 4) == 0.0
    assert ratings.luce_step(1.0, 4) == math.inf


def test_ratings_sum_the_steps_and_widen_with_bonferroni():
    calls = []

    def share_at(k, level):
        calls.append(level)
        return Interval(0.5, 0.4, 0.6) if level == 0.95 else Interval(0.5, 0.35, 0.65)

    chain = ratings.Ratings(("r", "g", "e"), 3, share_at)
    table = chain.table()
    assert table[0].rating == (0.0, 0.0, 0.0) and table[0].step is None
    step = ratings.elo_step(Interval(0.5, 0.4, 0.6), 3)
    assert table[1].rating.estimate == pytest.approx(step.estimate)
    assert table[2].rating.estimate == pytest.approx(2 * step.estimate)
    # a two-step rating takes each step at 97.5%: wider than twice the 95% steps
    assert 0.975 in calls
    assert table[2].rating.high > 2 * step.high
    back = chain.gap(2, 0)
    assert back.estimate == pytest.approx(-table[2].rating.estimate)


@pytest.mark.parametrize("values, state", [
    (np.zeros(2000), "converged"),
    (np.r_[np.full(300, 1.0), np.zeros(1700)], "not converged"),
    (np.r_[np.full(20, 1.0), np.full(15, -1.0), np.zeros(165)], "undetermined"),
])
def test_convergence_states(values, state):
    v = convergence.verdict(DealDifferences(0.0).add(values), "top", "below")
    assert v.state == state
    text = v.sentence()
    assert text.startswith(state.capitalize())
    if state == "undetermined":
        assert v.decide_deals > len(values) and "deals in all would decide it" in text
    else:
        assert v.decide_deals is None


def test_not_shown_apart_is_never_called_converged():
    # a small change on few deals: not shown apart, but its interval is wider than the margin
    values = np.r_[np.full(6, 1.0), np.full(4, -1.0), np.zeros(90)]
    v = convergence.verdict(DealDifferences(0.0).add(values), "top", "below")
    assert v.difference.low < 0 < v.difference.high
    assert v.state == "undetermined"


RUNGS = "random,greedy,expert"


def test_ladder_cli_end_to_end(capsys):
    code, out, err = run_cli(capsys, "ladder", "rum-and-pirates", "-p", "3", "-n", "60",
                             "--rungs", RUNGS, "--quiet")
    assert code == 0, err
    assert "Strength ladder of Rum & Pirates, 3 players, on the same 60 deals" in out
    assert "Skilled play: Among skilled players at 3 players (expert, rated" in out
    assert "above greedy" in out
    assert "Edge (win share minus 33.3%) by seat, per rung" in out


def test_ladder_is_the_same_whatever_the_threads(capsys):
    answers = []
    for workers in ("1", "2"):
        code, out, err = run_cli(capsys, "ladder", "montego-bay", "-p", "3", "-n", "40",
                                 "--rungs", RUNGS, "--quiet", "--format", "json",
                                 "--workers", workers)
        assert code == 0, err
        answers.append(json.loads(out))
    assert answers[0]["table"] == answers[1]["table"]
    # Montego Bay's first player is the first on the rail: edges by place and by seat
    assert {r["by"] for r in answers[0]["seat_edges"]} == {"seat", "place"}


@pytest.mark.parametrize("args, words", [
    (["ladder", "rum-runner", "--converge", "-1", "--rungs", RUNGS], "--converge must be"),
    (["ladder", "motines", "--rungs", "greedy"], "two or more policies"),
    (["ladder", "motines", "--rungs", "greedy,greedy"], "names a policy twice"),
    (["ladder", "motines", "--rungs", "greedy,nosuch"], "unknown policy 'nosuch'"),
    (["ladder", "motines", "--rungs", "greedy,,random"], "names an empty rung"),
    (["ladder", "motines", "--rungs", RUNGS, "-n", "1"], "two or more deals"),
    (["ladder", "motines", "--rungs", RUNGS, "--converge", "0"], "--converge must be"),
    (["ladder", "motines", "--rungs", RUNGS, "--converge", "2"], "below 1 (a share)"),
    (["ladder", "motines", "--rungs", RUNGS, "--margin", "0"], "--margin must be"),
    (["ladder", "motines", "--rungs", RUNGS, "-p", "9"], "3-5 players, not 9"),
])
def test_ladder_mistakes_are_one_line(capsys, args, words):
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1


def test_solo_ladder_end_to_end(capsys):
    code, out, err = run_cli(capsys, "ladder", "rum-runner", "-n", "200", "--quiet",
                             "--rungs", "random,greedy,expert")
    assert code == 0, err
    assert "Strength ladder of Rum Runner (solo) on the same 200 deals" in out
    assert "Skilled play: Among skilled players (expert), a game scores" in out
    assert "printed bands" in out


def test_without_head_to_heads_only_the_rungs_in_every_seat_are_played():
    assert seatings(("a", "b"), 3, heads=False) == [("a",) * 3, ("b",) * 3]
    rng = np.random.default_rng(2)
    tally = StrengthTally(("a", "b"), 3, heads=False)
    games = np.arange(500)
    tally.add([_frame(games, rng.integers(0, 3, 500), 3) for _ in range(2)])
    answer = tally.answer()
    assert answer.ratings is None and "rating" not in answer.table()
    assert "rated" not in answer.skilled_sentence()
    assert answer.converged.state in convergence.STATES
