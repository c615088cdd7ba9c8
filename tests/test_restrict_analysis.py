"""Restricted play's analysis (``analyses.restrict``) on frames with a known answer: the
seatings, the per-deal losses, the verdicts and the plan."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyses import restrict as R
from analyses.stats import Interval


def _frame(games, wins, scores, took):
    """One seating's frame: wins/scores per seat (arrays n x P) and took[choice] (n x P)."""
    n, players = wins.shape
    cols = {"game": games}
    for s in range(players):
        cols[f"win_{s}"] = wins[:, s]
        cols[f"score_{s}"] = scores[:, s]
    for c, t in took.items():
        for s in range(players):
            cols[f"took_{c}_{s}"] = t[:, s]
    return pd.DataFrame(cols)


def test_seatings_rotate_one_restricted_seat_per_choice():
    arms = R.seatings("expert", ("a", "b"), 3)
    assert arms[0] == ("expert",) * 3
    assert arms[1:4] == [("expert:forbid=a", "expert", "expert"),
                         ("expert", "expert:forbid=a", "expert"),
                         ("expert", "expert", "expert:forbid=a")]
    assert arms[4] == ("expert:forbid=b", "expert", "expert")
    assert R.seatings("expert", ("a", "b"), 3, seat=1)[1:] == [
        ("expert", "expert:forbid=a", "expert"), ("expert", "expert:forbid=b", "expert")]


def _tally(n=4000, players=4, seed=0, seat=None):
    """Choice 'key': the restricted seat never wins (a large loss); choice 'idle': nothing
    changes (the unrestricted player never takes it); choice 'tiny': one deal in 400 moves
    a win from another seat to the restricted one and back (a loss of zero on average)."""
    rng = np.random.default_rng(seed)
    games = np.arange(n)
    winner = rng.integers(players, size=n)
    wins = (winner[:, None] == np.arange(players)).astype(float)
    scores = rng.integers(0, 50, size=(n, players)).astype(float) + 10 * wins
    took = {"key": np.ones((n, players)), "idle": np.zeros((n, players)),
            "tiny": np.zeros((n, players))}
    base = _frame(games, wins, scores, took)
    seats = range(players) if seat is None else (seat,)
    frames = [base]
    for c in ("key", "idle", "tiny"):
        for s in seats:
            w, sc = wins.copy(), scores.copy()
            t = {k: v.copy() for k, v in took.items()}
            if c == "key":
                lost = w[:, s] == 1
                w[lost, s] = 0
                w[lost, (s + 1) % players] = 1   # the next seat takes the win
                sc[:, s] -= 10
                t["key"][:, s] = 0
            frames.append(_frame(games, w, sc, t))
    tally = R.RestrictTally("expert", ("key", "idle", "tiny"), players, seat)
    for lo in range(0, n, 1000):   # blocks, as the runner hands them
        tally.add([f.iloc[lo:lo + 1000] for f in frames])
    return tally, wins


def test_losses_taken_and_verdicts_from_known_frames():
    tally, wins = _tally()
    answer = tally.answer()
    by = {c.name: c for c in answer.choices}
    # the restricted seat loses exactly its wins: 1/P of the deals on average
    assert by["key"].loss.estimate == pytest.approx(wins.mean(), abs=1e-12)
    assert by["key"].verdict == "dominant"
    assert by["key"].score_loss.estimate == pytest.approx(10.0)
    assert by["key"].taken.estimate == 1.0 and by["key"].waived.estimate == 0.0
    # never taken: every deal identical, shown within the margin
    assert by["idle"].loss.estimate == 0.0
    assert by["idle"].verdict == "useless"
    assert by["idle"].taken.estimate == 0.0
    assert answer.deals == 4000
    text = answer.sentence(by["key"])
    assert "dominant" in text and "pp" in text
    assert "2 dominant" not in answer.summary() and "1 dominant" in answer.summary()


def test_a_seat_question_restricts_that_seat_only():
    tally, wins = _tally(seat=0)
    answer = tally.answer()
    key = answer.choices[0]
    assert key.loss.estimate == pytest.approx(wins[:, 0].mean())
    assert answer.base.estimate == pytest.approx(wins[:, 0].mean())
    assert key.restricted.estimate == 0.0
    assert "seat 0's win share" in answer.sentence(key) and "its edge goes from" in answer.sentence(key)


def test_the_answer_does_not_depend_on_the_blocks():
    a, _ = _tally()
    b = R.RestrictTally("expert", ("key", "idle", "tiny"), 4)
    t, _ = _tally()
    # the same deals fed in other blocks give the same answer to the last bit
    assert a.answer().table().equals(t.answer().table())
    assert b.arms == a.arms


def test_frames_of_other_deals_are_refused():
    tally, _ = _tally(n=10)
    frames = [pd.DataFrame({"game": [0, 1]})] * tally.arms
    frames[1] = pd.DataFrame({"game": [0, 2]})
    with pytest.raises(ValueError, match="same deals"):
        tally.add(frames)
    with pytest.raises(ValueError, match="one frame per seating"):
        tally.add(frames[:-1])


@pytest.mark.parametrize("loss, tost, state", [
    ((0.05, 0.03, 0.07), (0.05, 0.035, 0.065), "dominant"),
    ((0.0, -0.015, 0.015), (0.0, -0.012, 0.012), "useless"),
    ((0.015, 0.005, 0.025), (0.015, 0.007, 0.023), "matters"),
    ((0.01, 0.002, 0.018), (0.01, 0.004, 0.016), "useless"),   # within the margin wins
    ((-0.03, -0.05, -0.01), (-0.03, -0.045, -0.015), "overused"),
    # the player does better without it, by less than the margin: overused, never useless
    ((-0.01, -0.018, -0.002), (-0.01, -0.016, -0.004), "overused"),
    ((0.01, -0.01, 0.03), (0.01, -0.005, 0.025), "undetermined"),
    ((0.02, 0.0, 0.04), (0.02, 0.005, 0.035), "undetermined"),
])
def test_classify(loss, tost, state):
    assert R.classify(Interval(*loss), Interval(*tost), 0.02) == state


def test_plan_asks_for_more_deals_for_more_spread_and_more_choices():
    base = R.plan(0.2, 0.0075, 8, 400, 10**9)
    assert R.plan(0.4, 0.0075, 8, 400, 10**9) == pytest.approx(4 * base, rel=0.01)
    assert R.plan(0.2, 0.0075, 16, 400, 10**9) > base
    assert R.plan(0.2, 0.0075, 8, 400, 5_000) == 5_000
    assert R.plan(0.0, 0.0075, 8, 400, 5_000) == 400   # nothing varies: the pilot is enough
    assert R.deals_to_decide(0.0, 0.0, 0.02, 0.05, 8) == math.inf
