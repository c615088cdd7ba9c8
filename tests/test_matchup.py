"""The head-to-head analysis: its intervals cover a known truth, its verdicts, and the command."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyses.matchup import STRONGER, UNSHOWN, WEAKER, matchup, rotations
from reports.cli import main


def fake_runs(rng, focal_wins: list[float], n: int, tie: float = 0.0) -> dict[int, pd.DataFrame]:
    """One frame per focal seat: the focal seat wins with probability focal_wins[seat]; with
    probability ``tie`` it ties with one other seat instead (win 1/2 each)."""
    players = len(focal_wins)
    runs = {}
    for seat, q in enumerate(focal_wins):
        u = rng.random(n)
        other = (seat + rng.integers(1, players, n)) % players
        wins = np.zeros((n, players))
        alone = u < q
        tied = (u >= q) & (u < q + tie)
        wins[alone, seat] = 1.0
        wins[tied, seat] = 0.5
        wins[tied, other[tied]] = 0.5
        rest = ~(alone | tied)
        wins[rest, other[rest]] = 1.0
        frame = pd.DataFrame({f"win_{s}": wins[:, s] for s in range(players)})
        for s in range(players):
            frame[f"score_{s}"] = 10 * wins[:, s] + rng.normal(20, 3, n)
        runs[seat] = frame
    return runs


@pytest.mark.parametrize("tie", [0.0, 0.15])
def test_pooled_interval_covers_the_true_share(tie):
    rng = np.random.default_rng(7)
    q = [0.30, 0.25, 0.20, 0.35]
    truth = float(np.mean(q)) + tie / 2  # a tie is worth half a win
    reps, covered = 600, 0
    for _ in range(reps):
        a = matchup(fake_runs(rng, q, 150, tie), 4, "x", "y")
        covered += a.share.low <= truth <= a.share.high
    # binomial sd of the coverage at 95%: 0.9%; the stratified pooling is conservative
    assert covered / reps >= 0.93


def test_lead_interval_covers_the_true_lead():
    rng = np.random.default_rng(3)
    q = [0.4, 0.4, 0.4]
    # lead = focal score - mean of the other two; E = 10 q - 10 (1 - q) / 2
    truth = 10 * 0.4 - 10 * 0.6 / 2
    reps = 500
    covered = sum(
        (a := matchup(fake_runs(rng, q, 120), 3, "x", "y")).lead.low <= truth <= a.lead.high
        for _ in range(reps))
    assert covered / reps >= 0.93


def test_verdicts_follow_the_interval():
    rng = np.random.default_rng(1)
    strong = matchup(fake_runs(rng, [0.4] * 4, 2000), 4, "rollout", "greedy")
    assert strong.verdict == STRONGER and strong.share.low > 0.25
    assert "rollout is stronger than greedy" in strong.verdict_text
    weak = matchup(fake_runs(rng, [0.1] * 4, 2000), 4, "random", "greedy")
    assert weak.verdict == WEAKER and weak.share.high < 0.25
    even = matchup(fake_runs(np.random.default_rng(0), [0.25] * 4, 300), 4, "a", "b")
    assert even.verdict == UNSHOWN and even.share.low < 0.25 < even.share.high
    assert "not shown to differ" in even.verdict_text
    text = strong.render_text()
    assert "all" in text and "8,000" in text and "Verdict:" in text
    rows = strong.rows()
    assert list(rows["seat"].astype(str)) == ["0", "1", "2", "3", "all"]
    assert rows["games"].iloc[-1] == 8000


def test_every_rotation_is_needed():
    rng = np.random.default_rng(2)
    runs = fake_runs(rng, [0.3] * 3, 50)
    del runs[1]
    with pytest.raises(ValueError, match="one run per focal seat"):
        matchup(runs, 3, "a", "b")
    assert rotations("r", "g", 3) == {0: "r,g,g", 1: "g,r,g", 2: "g,g,r"}


def test_command_plays_every_seat_and_refuses_mistakes(capsys):
    assert main(["matchup", "rum-rebellion", "--policy", "blocker", "--field", "threshold",
                 "-p", "3", "-n", "300", "-q", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    frame = pd.read_csv(__import__("io").StringIO(out))
    assert list(frame["seat"].astype(str)) == ["0", "1", "2", "all"]
    assert list(frame["games"]) == [100, 100, 100, 300]
    assert main(["matchup", "rum-runner", "--policy", "greedy"]) == 2
    assert "solo game" in capsys.readouterr().err
    assert main(["matchup", "rum-rebellion", "--policy", "blocker", "-n", "2", "-p", "3"]) == 2
    assert "fewer than one game per seat" in capsys.readouterr().err
    assert main(["matchup", "rum-rebellion", "--policy", "nosuch"]) == 2
