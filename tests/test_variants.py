"""Variant comparison on synthetic paired data with a known effect, and through the CLI."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analyses.variants import compare, holm, weighted_quantile
from reports.cli import main


def games(n, seed, shift=0.0, edge=0.0, players=2, correlated_with=None):
    """A synthetic results frame: rounds ~ base length (+ shift); seat 0 wins 1/P + edge."""
    rng = np.random.default_rng(seed)
    common = correlated_with if correlated_with is not None else rng.poisson(20, n)
    noise = rng.poisson(2, n)
    rounds = common + noise + int(shift)
    win0 = (rng.random(n) < 1 / players + edge).astype(float)
    frame = pd.DataFrame({"game": np.arange(n), "players": players, "rounds": rounds,
                          "turns": rounds * players, "capped": np.zeros(n, dtype=int),
                          "win_0": win0, "win_1": 1 - win0,
                          "score_0": rng.normal(100, 10, n), "score_1": rng.normal(100, 10, n)})
    return frame, common


def test_a_known_shortening_is_measured_with_an_interval_and_pairing_helps():
    base, common = games(20_000, 1)
    shorter, _ = games(20_000, 2, shift=-3, correlated_with=common)
    ans = compare(base, {"shorter": shorter}, players=2, n_boot=100)
    row = ans.table.set_index("metric").loc["rounds_mean"]
    assert row["low"] <= -3.0 <= row["high"]
    assert row["high"] - row["low"] < 0.2
    assert row["significant"]
    # the shared part of the length cancels in the pairs: a large variance reduction
    assert row["vrf"] > 5
    median = ans.table.set_index("metric").loc["rounds_median"]
    assert median["diff"] == pytest.approx(-3, abs=1)


def test_no_effect_is_not_called_significant_and_intervals_cover_zero():
    base, common = games(20_000, 3)
    same, _ = games(20_000, 4, correlated_with=common)
    ans = compare(base, {"same": same}, players=2, n_boot=100)
    edge = ans.table.set_index("metric").loc["first_player_edge"]
    assert edge["low"] <= 0 <= edge["high"]
    assert not edge["significant"]


def test_a_known_first_player_edge_change_is_found():
    base, common = games(40_000, 5)
    tilted, _ = games(40_000, 6, edge=0.05, correlated_with=common)
    ans = compare(base, {"tilted": tilted}, players=2, n_boot=50)
    edge = ans.table.set_index("metric").loc["first_player_edge"]
    assert edge["low"] <= 0.05 <= edge["high"] and edge["significant"]


def test_holm_adjustment():
    p = np.array([0.01, 0.04, 0.03, 0.2])
    assert np.allclose(holm(p), [0.04, 0.09, 0.09, 0.2])
    assert np.allclose(holm(np.array([0.5])), [0.5])


def test_several_variants_are_adjusted_together():
    base, common = games(5_000, 7)
    variants = {f"v{k}": games(5_000, 10 + k, correlated_with=common)[0] for k in range(4)}
    ans = compare(base, variants, players=2, n_boot=30)
    block = ans.table[ans.table["metric"] == "rounds_mean"]
    assert (block["p_holm"] >= block["p"]).all()
    assert "Holm" in ans.method


def test_variants_must_pair_with_the_base_games():
    base, _ = games(100, 8)
    other, _ = games(99, 9)
    with pytest.raises(ValueError, match="same games"):
        compare(base, {"x": other}, players=2)


def test_weighted_quantile_matches_numpy_on_plain_samples():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 50, 1001)
    w = np.ones(x.size)
    for q in (0.1, 0.5, 0.9):
        assert weighted_quantile(x, w, q) == np.quantile(x, q, method="inverted_cdf")
        assert weighted_quantile(x.astype(float), w, q) == np.quantile(x, q, method="inverted_cdf")


def test_rumsim_variants_runs_any_game(capsys):
    code = main(["variants", "rum-runner", "--preset", "long", "--rule", "draw_count=2",
                 "-n", "3000", "-q", "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    rows = pd.DataFrame(data["rows"])
    long_turns = rows[(rows["variant"] == "long") & (rows["metric"] == "turns_mean")].iloc[0]
    # the long preset lengthens Rum Runner by about 8 turns (spec §9.7)
    assert 6 < long_turns["diff"] < 10 and long_turns["significant"]
    assert set(rows["variant"]) == {"long", "draw_count=2"}


def test_rumsim_variants_mistakes(capsys, tmp_path):
    assert main(["variants", "rum-runner", "-n", "100"]) == 2
    assert "name at least one variant" in capsys.readouterr().err
    bad = tmp_path / "v.toml"
    bad.write_text("[cheap]\nflip_after_drow = false\n")
    assert main(["variants", "rum-runner", "--variants-file", str(bad), "-n", "100"]) == 2
    assert "did you mean 'flip_after_draw'" in capsys.readouterr().err


def test_rumsim_variants_file(capsys, tmp_path):
    path = tmp_path / "v.toml"
    path.write_text("[longer_hand]\npreset = 'long'\ndraw_count = 4\n")
    code = main(["variants", "rum-runner", "--variants-file", str(path), "-n", "2000", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "longer_hand" in out and "flip_after_draw=false" in out and "draw_count=4" in out


def test_a_median_that_does_not_move_gets_no_star():
    """Issue 11's case: rounds = 15 + Poisson(10), the variant = rounds - Bernoulli(0.3) on the
    same games, so the true median difference is exactly 0 (while the mean moves by -0.3). The
    bootstrap p-value comes from the same replicates as the interval: a star at most as often
    as the nominal 5% (it was 28-33% with the normal approximation), and never a star on an
    interval that holds 0."""
    from analyses.variants import bootstrap_interval_and_p

    rng = np.random.default_rng(2)
    reps, stars = 60, 0
    for _ in range(reps):
        n = 2000
        rounds = 15 + rng.poisson(10, n)
        base = pd.DataFrame({"game": np.arange(n), "rounds": rounds})
        variant = base.assign(rounds=rounds - (rng.random(n) < 0.3))
        row = compare(base, {"v": variant}, players=1, n_boot=200,
                      seed=int(rng.integers(1 << 30))).table.set_index("metric").loc[
                          "rounds_median"]
        stars += bool(row["significant"])
        assert row["significant"] == (row["low"] > 0 or row["high"] < 0)
    assert stars / reps <= 0.10  # nominal 5%; Monte Carlo slack for 60 runs
    # the interval and p agree by construction, at any alpha
    x = rng.normal(0.1, 0.05, 999)
    for alpha in (0.01, 0.05, 0.2):
        low, high, p = bootstrap_interval_and_p(x, alpha)
        assert (p < alpha) == (low > 0 or high < 0)
    assert bootstrap_interval_and_p(np.zeros(200), 0.05) == (0.0, 0.0, 1.0)


@pytest.mark.parametrize("rate, extra, n, least, most", [(0.001, 0.001, 2000, 0.93, 1.0),
                                                          (0.3, 0.05, 2000, 0.935, 0.965)])
def test_paired_share_interval_covers_rare_and_common_shares(rate, extra, n, least, most):
    """Capped games near 0.1% (the paired Wald interval covered 61-77% there and printed
    [+0.00, +0.00] when nothing happened) and an ordinary share: Newcombe's paired score
    interval covers the true difference at least about 95% of the time (conservatively for
    rare events, as score intervals do)."""
    from analyses.stats import paired_share_difference

    rng = np.random.default_rng(8)
    reps, covered = 1500, 0
    for _ in range(reps):
        u = rng.random(n)
        x, y = (u < rate).astype(float), (u < rate + extra).astype(float)
        i, _ = paired_share_difference(x, y)
        covered += i.low <= extra <= i.high
    assert least <= covered / reps <= most


def test_no_event_in_either_arm_is_not_certainty():
    base, _ = games(2000, 5)
    ans = compare(base, {"same": base.copy()}, players=2, n_boot=50)
    row = ans.table.set_index("metric").loc["capped_share"]
    assert row["diff"] == 0 and row["low"] < 0 < row["high"] and row["p"] == 1.0
    assert row["high"] == pytest.approx(1.96 ** 2 / (2000 + 1.96 ** 2), rel=1e-3)


def test_mcnemar_p_is_exact():
    from scipy.stats import binomtest

    from analyses.stats import paired_share_difference

    x = np.array([1] * 7 + [0] * 2 + [1] * 5 + [0] * 86, dtype=float)
    y = np.array([0] * 7 + [1] * 2 + [1] * 5 + [0] * 86, dtype=float)
    diff, p = paired_share_difference(x, y)
    assert diff.estimate == pytest.approx(-5 / 100)
    assert p == pytest.approx(binomtest(2, 9, 0.5).pvalue)
    # 7 games lost the event, 2 gained it: p = 0.07, and the interval holds 0 as well
    assert p > 0.05 and diff.low < -0.05 < 0 < diff.high
