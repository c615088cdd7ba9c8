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


def test_mid_median_follows_the_mid_distribution_by_hand():
    """Values 1, 2, 2, 3: mid-CDF 1/8 at 1, 1/2 at 2, 7/8 at 3, so the mid-median is 2; with
    one more 3 (1, 2, 2, 3, 3): mid-CDF 0.1, 0.4, 0.8, and 0.5 lies a quarter of the way from
    2 to 3 (Ma, Genton and Parzen 2011, section 2)."""
    from analyses.variants import weighted_midquantile

    assert weighted_midquantile(np.array([1, 2, 2, 3]), np.ones(4), 0.5) == 2.0
    assert weighted_midquantile(np.array([1, 2, 2, 3, 3]), np.ones(5), 0.5) == pytest.approx(2.25)
    # weights count values: 1, 2 (x2), 3 (x2) again
    assert weighted_midquantile(np.array([1, 2, 3]), np.array([1.0, 2.0, 2.0]), 0.5) == \
        pytest.approx(2.25)
    # a matrix of weights: one figure per row
    w = np.array([[1.0, 2.0, 1.0], [1.0, 2.0, 2.0]])
    assert np.allclose(weighted_midquantile(np.array([1, 2, 3]), w, 0.5), [2.0, 2.25])


def test_a_median_that_stays_beside_a_moved_mean_is_explained_by_the_mid_median():
    """Issue 11's case again: the median difference is 0 but the distribution moved; the
    mid-median moves with it, with an interval that excludes 0, and the summary shows it."""
    rng = np.random.default_rng(4)
    n = 20_000
    rounds = 15 + rng.poisson(10, n)
    base = pd.DataFrame({"game": np.arange(n), "rounds": rounds})
    variant = base.assign(rounds=rounds - (rng.random(n) < 0.3))
    ans = compare(base, {"v": variant}, players=1)
    t = ans.table.set_index("metric")
    assert t.loc["rounds_median", "diff"] == 0 and not t.loc["rounds_median", "significant"]
    mid = t.loc["rounds_midmedian"]
    assert mid["high"] < 0 and mid["significant"] and -0.45 < mid["diff"] < -0.15
    assert "mid-median rounds" in ans.summary().columns


def test_pooled_bootstrap_matches_resampling_every_game():
    """Games with the same (base, variant) pair share one Poisson(count) weight: the same
    distribution as a Poisson(1) weight per game, so the bootstrap spread agrees with the
    per-game bootstrap (within Monte Carlo error of 2,000 replicates, about 3% on an SD)."""
    from analyses.variants import weighted_quantile

    rng = np.random.default_rng(6)
    n = 5_000
    x = 15 + rng.poisson(10, n)
    y = x - (rng.random(n) < 0.5) * rng.integers(0, 3, n)
    base = pd.DataFrame({"game": np.arange(n), "rounds": x})
    row = compare(base, {"v": base.assign(rounds=y)}, players=1).table.set_index(
        "metric").loc["rounds_midmedian"]
    from analyses.variants import weighted_midquantile
    reps = []
    for _ in range(2000):
        w = rng.poisson(1.0, n).astype(float)
        reps.append(weighted_midquantile(y, w, 0.5) - weighted_midquantile(x, w, 0.5))
    low, high = np.quantile(reps, [0.025, 0.975])
    assert row["low"] == pytest.approx(low, abs=0.1 * (high - low))
    assert row["high"] == pytest.approx(high, abs=0.1 * (high - low))
    assert weighted_quantile(x, np.ones(n), 0.5) == np.quantile(x, 0.5, method="inverted_cdf")


def test_score_spread_delta_interval_covers_a_known_change():
    """The score spread by the delta method: SDs 10 and 11 on paired games; the interval
    covers the true difference of 1 about 95% of the time."""
    rng = np.random.default_rng(9)
    reps, covered = 300, 0
    for _ in range(reps):
        n = 2000
        z = rng.normal(0, 1, (n, 2))
        e = rng.normal(0, 1, (n, 2))
        base = pd.DataFrame({"game": np.arange(n), "score_0": 10 * z[:, 0],
                             "score_1": 10 * z[:, 1]})
        var = pd.DataFrame({"game": np.arange(n),
                            "score_0": 11 * (0.8 * z[:, 0] + 0.6 * e[:, 0]),
                            "score_1": 11 * (0.8 * z[:, 1] + 0.6 * e[:, 1])})
        row = compare(base, {"v": var}, players=2).table.set_index("metric").loc[
            "score_spread"]
        covered += row["low"] <= 1.0 <= row["high"]
    assert 0.92 <= covered / reps <= 0.98


def test_stars_are_adjusted_over_every_difference_and_intervals_say_unadjusted():
    base, common = games(3_000, 11)
    variants = {f"v{k}": games(3_000, 20 + k, correlated_with=common)[0] for k in range(3)}
    ans = compare(base, variants, players=2, n_boot=200)
    assert np.allclose(ans.table["p_holm"], holm(ans.table["p"].to_numpy()), equal_nan=True)
    text = ans.render_text()
    assert "unadjusted" in text and f"all {len(ans.table)} differences" in text
    assert "not evidence that a variant changes nothing" in ans.method


def test_a_share_with_no_event_reads_by_the_rule_of_three():
    base, _ = games(3_000, 12)
    text = compare(base, {"same": base.copy()}, players=2, n_boot=50).render_text(details=True)
    assert "0 of 3,000 (<= 0.10% by the rule of three)" in text
    assert "0.00%" not in text
