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
    assert main(["matchup", "rum-runner", "--policy", "greedy", "-n", "1"]) == 2
    assert "two or more deals" in capsys.readouterr().err
    assert main(["matchup", "rum-rebellion", "--policy", "blocker", "-n", "2", "-p", "3"]) == 2
    assert "fewer than one game per seat" in capsys.readouterr().err
    assert main(["matchup", "rum-rebellion", "--policy", "nosuch"]) == 2


def shared_deals(rng, players: int, n: int, flip: float, q: float,
                 favour: float = 0.0) -> dict[int, pd.DataFrame]:
    """Rotations on the same n deals (game indices). A deal has a winner under the field
    everywhere (uniform); in rotation s the focal seat changes the game with chance ``flip``
    (then it wins with chance ``q``, else a field seat does), otherwise the deal's winner
    stands. With ``favour`` the focal seat also wins outright, wherever it sits, on the deals
    that favour it (a share ``favour`` of them): wins correlated across rotations."""
    base = rng.integers(0, players, n)
    good = rng.random(n) < favour
    runs = {}
    for s in range(players):
        winner = base.copy()
        changed = rng.random(n) < flip
        focal_wins = rng.random(n) < q
        others = (s + rng.integers(1, players, n)) % players
        winner[changed] = np.where(focal_wins[changed], s, others[changed])
        winner[good] = s
        frame = pd.DataFrame({"game": np.arange(n)})
        for k in range(players):
            frame[f"win_{k}"] = (winner == k).astype(float)
            frame[f"score_{k}"] = 10.0 * (winner == k)
        runs[s] = frame.sample(frac=1.0, random_state=int(rng.integers(1 << 30)))  # any order
    return runs


def test_shared_deals_are_clustered_and_cover_the_truth():
    """A small change to a policy (it plays differently on 10% of deals and then wins 60%):
    the pooled share's interval, clustered by deal, covers the true 0.9/4 + 0.1 * 0.6 about
    95% of the time and is much narrower than Wilson on the same games."""
    rng = np.random.default_rng(5)
    players, truth = 4, 0.9 / 4 + 0.1 * 0.6
    reps, covered, ratio = 400, 0, []
    for _ in range(reps):
        runs = shared_deals(rng, players, 400, flip=0.1, q=0.6)
        a = matchup(runs, players, "x", "y")
        covered += a.share.low <= truth <= a.share.high
        plain = matchup({s: f.drop(columns="game") for s, f in runs.items()}, players, "x", "y")
        ratio.append((a.share.high - a.share.low) / (plain.share.high - plain.share.low))
    assert 0.93 <= covered / reps <= 0.97
    assert np.median(ratio) < 0.6
    assert "clustered by deal" in a.method


def test_deals_that_favour_the_focal_policy_everywhere_widen_the_interval():
    """When a deal favours the focal seat wherever it sits, a deal's games are positively
    correlated: Wilson on the games as independent undercovers, the clustered interval
    keeps its level."""
    rng = np.random.default_rng(9)
    players = 3
    truth = 0.3 + 0.7 * (0.5 * 0.5 + 0.5 / 3)   # favour 30%; else flip 50% at q = 0.5
    reps, covered, naive = 400, 0, 0
    for _ in range(reps):
        runs = shared_deals(rng, players, 300, flip=0.5, q=0.5, favour=0.3)
        a = matchup(runs, players, "x", "y")
        covered += a.share.low <= truth <= a.share.high
        plain = matchup({s: f.drop(columns="game") for s, f in runs.items()}, players, "x", "y")
        naive += plain.share.low <= truth <= plain.share.high
    assert 0.93 <= covered / reps <= 0.97
    assert naive / reps < 0.90


def test_rotations_on_different_games_are_not_clustered():
    rng = np.random.default_rng(4)
    runs = shared_deals(rng, 3, 200, flip=0.2, q=0.5)
    runs[1] = runs[1].assign(game=runs[1]["game"] + 1000)
    a = matchup(runs, 3, "x", "y")
    assert "Wilson interval on the tie-adjusted effective sample size of the pooled" in a.method


def test_solo_command_compares_scores_on_the_same_deals(capsys):
    """Rum Runner: the two policies' scores on the same deals, the lead by gains and losses
    over deals, equal to the difference computed from the runs themselves."""
    import json

    from scipy import stats as st

    from analyses.deals import DealDifferences
    from engines import get_game
    from simulate import run

    assert main(["matchup", "rum-runner", "--policy", "greedy", "--field", "random",
                 "-n", "400", "--seed", "5", "-q", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    info = get_game("rum-runner")
    a = run(info, 400, policies="random", seed=5, progress=False).frame["score_0"].to_numpy()
    b = run(info, 400, policies="greedy", seed=5, progress=False).frame["score_0"].to_numpy()
    d = b - a
    want = DealDifferences(0.0).add(d).interval()  # the gains-and-losses interval of d
    half = st.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    row = data["rows"][0]
    assert row["games"] == 400 and row["lead"] == pytest.approx(d.mean())
    assert (row["lead_low"], row["lead_high"]) == pytest.approx((want.low, want.high))
    assert row["lead_low"] == pytest.approx(d.mean() - half, rel=0.05)  # near Student-t's
    assert data["mean_score"]["greedy"]["estimate"] == pytest.approx(b.mean())
    assert data["verdict"] == ("stronger" if want.low > 0 else "not shown to differ")


def test_rare_one_sided_gains_are_covered_on_both_sides():
    """The outside audit's case: two players, the focal seat plays differently on 2% of
    400 shared deals and then always wins (about 8 deals differ, all gains). Student-t over
    deals covered 89.7% (2,000 replications), 9.7% of its intervals below the truth; the
    gains-and-losses interval covers, and misses on the high side no more than nominal."""
    rng = np.random.default_rng(12)
    players, flip, q = 2, 0.02, 1.0
    truth = (1 - flip) / players + flip * q
    reps, low, high = 600, 0, 0
    for _ in range(reps):
        a = matchup(shared_deals(rng, players, 400, flip=flip, q=q), players, "x", "y")
        low += truth < a.share.low
        high += truth > a.share.high
    assert 1 - (low + high) / reps >= 0.94
    assert high / reps <= 0.03
    assert "Hall's (1992) skewness-corrected t" in a.method


def test_the_answer_is_the_same_whatever_the_blocks():
    """Blocks of 1, 137 or all deals, merged in any order: the same answer to the last bit
    (every sum is exact)."""
    from analyses.matchup import MatchupTally

    rng = np.random.default_rng(8)
    runs = shared_deals(rng, 3, 500, flip=0.05, q=0.7, favour=0.02)
    frames = [runs[s].sort_values("game").reset_index(drop=True) for s in range(3)]
    for s in range(3):  # non-dyadic values: ties of three and fractional scores
        frames[s][[f"win_{k}" for k in range(3)]] = np.where(
            (frames[s]["game"] % 41 == 0).to_numpy()[:, None], 1 / 3,
            frames[s][[f"win_{k}" for k in range(3)]])
        frames[s]["score_0"] += 0.1 * frames[s]["game"]
    whole = MatchupTally(3).add(frames).answer("x", "y")
    for size in (1, 137):
        parts = [MatchupTally(3).add([f.iloc[lo:lo + size] for f in frames])
                 for lo in range(0, 500, size)]
        for order in (parts, parts[::-1]):
            merged = MatchupTally(3)
            for p in order:
                merged.merge(p)
            got = merged.answer("x", "y")
            assert (got.share, got.lead, got.p_below) == (whole.share, whole.lead,
                                                          whole.p_below)
            pd.testing.assert_frame_equal(got.table, whole.table, check_exact=True)


def test_p_below_is_the_interval_read_the_other_way():
    """p_below < 2.5% exactly when the 95% interval lies wholly below 1/P."""
    for q, flip in ((0.05, 0.3), (0.2, 0.3), (0.25, 0.1), (0.6, 0.1)):
        a = matchup(shared_deals(np.random.default_rng(4), 4, 400, flip=flip, q=q), 4, "x",
                    "y")
        assert (a.p_below < 0.025) == (a.share.high < 0.25)
        assert 0 <= a.p_below <= 1
