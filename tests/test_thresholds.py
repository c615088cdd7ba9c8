"""Rum Runner band calibration on synthetic score distributions whose answers are known."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

import simulate
from analyses import ANALYSES, get_analysis
from analyses.thresholds import (
    DEFAULT_TARGET,
    TYPO_NOTE,
    ThresholdsAccumulator,
    achieved_split,
    band_shares,
    calibrated_edges,
    check_target,
    edge_percentiles,
    parse_target,
    rules_of,
    score_bands,
    score_summary,
    thresholds,
)
from engines.rum_runner.rules import BAND_NAMES, Rules
from simulate.errors import UserError
from simulate.results import Results

UPPER = Rules.from_overrides({"score_band_edge_rule": "upper_inclusive"})


def frame_of(scores) -> pd.DataFrame:
    scores = np.asarray(scores, dtype=np.int64)
    return pd.DataFrame({"game": np.arange(scores.size), "score_0": scores,
                         "turns": 16, "end_reason": (scores % 50 == 0).astype(int)})


def results_of(scores, policy="greedy", rules: Rules | None = None) -> Results:
    rules = rules or Rules()
    return Results(frame_of(scores), {"game": "rum-runner", "policies": [policy],
                                      "rules": rules.to_dict(), "rules_changed": rules.describe(),
                                      "seed": 0})


# Every score 0..499 exactly 20 times: each printed band's share is known exactly.
FLAT = np.repeat(np.arange(500), 20)


def test_vectorised_bands_match_rules_band_both_edge_rules():
    scores = np.arange(-5, 560)
    for rules in (Rules(), UPPER):
        assert list(score_bands(scores, rules)) == [rules.band(int(s)) for s in scores]


def test_band_shares_flat_distribution_lower_inclusive():
    b = band_shares(frame_of(FLAT), Rules())
    assert list(b["label"]) == list(BAND_NAMES)
    assert list(b["printed"]) == ["<200", "200-250", "250-300", "300-325", "325-350", "350+"]
    assert list(b["range"]) == ["<200", "200-249", "250-299", "300-324", "325-349", ">=350"]
    assert b["share_pct"].to_numpy() == pytest.approx([40, 10, 10, 5, 5, 30])
    assert b["games"].sum() == FLAT.size
    assert (b["low_pct"] < b["share_pct"]).all() and (b["share_pct"] < b["high_pct"]).all()


def test_band_shares_flat_distribution_upper_inclusive():
    b = band_shares(frame_of(FLAT), UPPER)
    assert b["printed"].iloc[0] == "<200"  # the sheet's text does not depend on the edge rule
    assert list(b["range"]) == ["<=200", "201-250", "251-300", "301-325", "326-350", ">=351"]
    assert b["share_pct"].to_numpy() == pytest.approx([40.2, 10, 10, 5, 5, 29.8])


def test_band_shares_agree_with_engine_band_column():
    res = simulate.run("rum-runner", 150, policies="greedy", rules={"flip_after_draw": False},
                       backend="reference", seed=3)
    counts = np.bincount(res.frame["band_0"], minlength=6)
    assert list(band_shares(res.frame, rules_of(res))["games"]) == list(counts)


def test_edge_percentiles_both_edge_rules():
    e = edge_percentiles(frame_of(FLAT), Rules())
    assert list(e["edge"]) == [200, 250, 300, 325, 350]
    assert e["percentile"].to_numpy() == pytest.approx([40, 50, 60, 65, 70])
    u = edge_percentiles(frame_of(FLAT), UPPER)
    assert u["percentile"].to_numpy() == pytest.approx([40.2, 50.2, 60.2, 65.2, 70.2])
    assert ((e["low_pct"] <= e["percentile"]) & (e["percentile"] <= e["high_pct"])).all()


def test_calibrated_edges_exact_on_flat_distribution():
    c = calibrated_edges(frame_of(FLAT), DEFAULT_TARGET, Rules())
    assert list(c["edge"]) == [200, 325, 400, 450, 480]
    assert c["achieved_below_pct"].to_numpy() == pytest.approx([40, 65, 80, 90, 96])
    assert achieved_split(c) == pytest.approx(list(DEFAULT_TARGET))
    assert list(c["printed_edge"]) == [200, 250, 300, 325, 350]
    assert ((c["edge_low"] <= c["edge"]) & (c["edge"] <= c["edge_high"])).all()
    # A score equal to the edge falls below it under upper_inclusive: same split, one lower.
    u = calibrated_edges(frame_of(FLAT), DEFAULT_TARGET, UPPER)
    assert list(u["edge"]) == [199, 324, 399, 449, 479]
    assert achieved_split(u) == pytest.approx(list(DEFAULT_TARGET))


def test_calibrated_edges_reproduce_target_on_random_scores():
    rng = np.random.default_rng(5)
    scores = rng.integers(0, 1000, size=200_000)  # true q-quantile edge: 1000 q
    target = (10, 20, 30, 20, 15, 5)
    c = calibrated_edges(frame_of(scores), target, Rules())
    assert achieved_split(c) == pytest.approx(list(target), abs=0.3)
    true_edges = 1000 * np.cumsum(target)[:5] / 100
    assert ((c["edge_low"] <= true_edges) & (true_edges <= c["edge_high"])).all()
    # On skewed integer scores (Rum Runner-like) one score value holds up to ~0.9% of games,
    # so the nearest integer edge misses each cumulative target by at most half that atom.
    skewed = np.round(rng.gamma(9, 15, size=100_000)).astype(int)
    c = calibrated_edges(frame_of(skewed), DEFAULT_TARGET, Rules())
    half_atom = 50 * np.bincount(skewed).max() / skewed.size
    miss = np.abs(c["achieved_below_pct"] - c["target_below_pct"])
    assert (miss <= half_atom + 1e-9).all()


def test_calibrated_edges_stay_increasing_on_degenerate_scores():
    c = calibrated_edges(frame_of([100] * 50), DEFAULT_TARGET, Rules())
    assert (np.diff(c["edge"]) > 0).all()
    assert c["forced_up"].any()
    ends = calibrated_edges(frame_of(FLAT), (100, 0, 0, 0, 0, 0), Rules())
    assert list(ends["edge"]) == [500, 501, 502, 503, 504]
    assert ends["edge_low"].isna().all()
    starts = calibrated_edges(frame_of(FLAT), (0, 0, 0, 0, 0, 100), Rules())
    assert list(starts["edge"]) == [0, 1, 2, 3, 4]
    assert achieved_split(starts)[-1] == pytest.approx(100 - 4 * 0.2)  # 0..3 fall below 4


@pytest.mark.parametrize("bad", [
    (40, 25, 15, 10, 6),            # five numbers
    (40, 25, 15, 10, 6, 5),         # sums to 101
    (50, 25, 15, 10, 6, -6),        # negative
    (40, 25, 15, 10, 6, float("nan")),
    ("a", 1, 2, 3, 4, 5),
])
def test_bad_targets_are_rejected_with_one_line(bad):
    with pytest.raises(UserError) as err:
        check_target(bad)
    assert "\n" not in str(err.value)
    assert isinstance(err.value, ValueError)
    with pytest.raises(ValueError):
        calibrated_edges(frame_of(FLAT), bad, Rules())


def test_parse_target_from_user_text():
    assert parse_target("40,25,15,10,6,4") == DEFAULT_TARGET
    assert parse_target("50/20/10/10/5/5") == (50, 20, 10, 10, 5, 5)
    for bad in ("50,50", "a,b,c,d,e,f", "40,25,15,10,6,5"):
        with pytest.raises(UserError, match="target"):
            parse_target(bad)


def test_csv_holds_every_table_once():
    rep = thresholds(results_of(FLAT))
    frame = pd.read_csv(io.StringIO(rep.to_csv()))
    assert frame["table"].value_counts().to_dict() == {
        "runs": 1, "bands": 6, "edges": 5, "calibrated": 5, "summary": 1}
    assert frame.loc[frame["table"] == "bands", "printed"].iloc[0] == "<200"


def test_any_valid_target_is_accepted():
    assert check_target([0, 0, 50, 50, 0, 0]) == (0, 0, 50, 50, 0, 0)
    assert sum(check_target((100 / 6,) * 6)) == pytest.approx(100)


def test_report_text_reads_lt200_and_states_the_typo():
    rep = thresholds([results_of(FLAT, "greedy"), results_of(FLAT // 2, "random")])
    text = rep.render_text()
    assert TYPO_NOTE in text and '">200"' in text and '"<200"' in text
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("score"))
    assert lines[header + 2].startswith("<200")  # first band row, after the dashed rule
    assert " broke " in lines[header + 2]
    assert "40.00% [" in lines[header + 2]
    assert "greedy (n=10,000)" in lines[header]
    assert "target split 40/25/15/10/6/4" in text


def test_report_labels_tables_and_json():
    runs = [results_of(FLAT, "greedy"),
            results_of(FLAT, "greedy", Rules.from_overrides({}, preset="long"))]
    rep = thresholds(runs)
    assert rep.labels == ["greedy (default)", "greedy (flip_after_draw=false)"]
    assert set(rep.tables()) == {"runs", "bands", "edges", "calibrated", "summary"}
    assert len(rep.bands) == 12 and len(rep.edges) == 10 and len(rep.calibrated) == 10
    data = json.loads(json.dumps(rep.to_json(), allow_nan=False))
    assert data["band_edges"] == [200, 250, 300, 325, 350]
    assert data["bands"][0]["printed"] == "<200"
    assert TYPO_NOTE in data["notes"]
    # Same rules, same policy: labels still unique; a dict keeps the caller's labels.
    assert thresholds([runs[0], runs[0]]).labels == ["greedy", "greedy #2"]
    assert thresholds({"mine": runs[1]}).labels == ["mine"]
    summary = rep.summary.set_index("label").loc["greedy (default)"]
    assert summary["mean"] == pytest.approx(249.5)
    assert summary["stranded_pct"] == pytest.approx(2.0)  # scores divisible by 50
    assert summary["target_distance_pct"] == pytest.approx(0.5 * (0 + 15 + 5 + 5 + 1 + 26))


def test_report_judges_every_run_against_the_first_runs_bands():
    upper = results_of(FLAT, "greedy", UPPER)
    rep = thresholds([upper, results_of(FLAT, "random")])
    assert rep.rules.score_band_edge_rule == "upper_inclusive"
    assert "score_band_edge_rule=upper_inclusive" in rep.render_text()
    assert rep.bands["share_pct"].iloc[0] == pytest.approx(40.2)
    assert rep.bands["share_pct"].iloc[6] == pytest.approx(40.2)


def test_rules_of_round_trips_changed_options():
    rules = Rules.from_overrides({"score_band_edges": "100,150,200,250,300",
                                  "flip_after_draw": "false"})
    assert rules_of(results_of(FLAT, rules=rules)) == rules
    assert rules_of(Results(frame_of(FLAT), {})) == Rules()


def test_thresholds_refuses_results_without_scores():
    with pytest.raises(UserError, match="score_0"):
        thresholds(Results(pd.DataFrame({"x": [1]}), {}))


def test_registry_lists_thresholds():
    entry = get_analysis("thresholds")
    assert entry.function is thresholds
    assert entry.applies_to("rum-runner") and not entry.applies_to("montego-bay")
    assert entry.description and "thresholds" in ANALYSES
    with pytest.raises(UserError, match="did you mean 'thresholds'"):
        get_analysis("threshold")


def test_off_target_distance_has_an_interval_that_holds_the_estimate_and_narrows():
    """The plug-in distance lies inside its interval; on target the interval starts at 0 and
    its top shrinks with more games; far off target it excludes 0."""
    from analyses.thresholds import target_distance_interval

    def bands(counts):
        c = np.asarray(counts)
        return pd.DataFrame({"games": c, "share_pct": 100 * c / c.sum()})

    small = target_distance_interval(bands([40, 25, 15, 10, 6, 4]))
    large = target_distance_interval(bands([4000, 2500, 1500, 1000, 600, 400]))
    assert small.estimate == large.estimate == 0 and small.low == large.low == 0
    assert 0 < large.high < small.high < 100
    off = target_distance_interval(bands([800, 150, 20, 20, 6, 4]))
    assert off.estimate == pytest.approx(40.0)
    assert off.low <= off.estimate <= off.high and off.low > 30


# ---------------------------------------------------------------- streaming: chunks, merge


def _sorted_calibrated_edges(scores, target, rules):
    """The calibrated edges as they were computed before streaming, from the sorted scores:
    the oracle the histogram's order statistics are held to."""
    from analyses import stats

    ordered = np.sort(np.asarray(scores, dtype=np.int64))
    n = ordered.size
    upper = rules.score_band_edge_rule == "upper_inclusive"
    shift = -1 if upper else 0
    out, previous = [], None
    for c in np.cumsum(target)[:5] / 100:

        def below(edge):
            return np.searchsorted(ordered, edge, side="right" if upper else "left") / n

        low = high = np.nan
        if c <= 1e-12:
            edge = int(ordered[0]) + shift
        elif c >= 1 - 1e-12:
            edge = int(ordered[-1]) + 1 + shift
        else:
            q = stats.quantile_interval_sorted(ordered, float(c))
            xi = int(q.estimate)
            lo_edge, hi_edge = xi + shift, xi + 1 + shift
            edge = lo_edge if c - below(lo_edge) <= below(hi_edge) - c else hi_edge
            low, high = q.low + shift, q.high + 1 + shift
        edge = previous + 1 if previous is not None and edge <= previous else edge
        previous = edge
        out.append((edge, low, high, 100 * below(edge)))
    return out


def _fed(frame: pd.DataFrame, size: int, meta=None) -> ThresholdsAccumulator:
    acc = ThresholdsAccumulator(meta)
    for start in range(0, len(frame), size):
        acc.add(frame.iloc[start:start + size])
    return acc


def _assert_same_report(a, b):
    """Counts, shares, quantiles and edges identical; means and intervals to rounding."""
    for name, x in a.tables().items():
        if name == "runs":  # the runs' own metadata: timings and chunk sizes differ
            x, y = x[["label", "policy", "rules", "seed", "games"]], b.runs[x.columns[:5]]
        else:
            y = b.tables()[name]
        pd.testing.assert_frame_equal(x, y, check_exact=False, rtol=1e-12)
    for name in ("bands", "edges", "calibrated"):
        exact = [c for c in a.tables()[name] if c not in ("low_pct", "high_pct")]
        pd.testing.assert_frame_equal(a.tables()[name][exact], b.tables()[name][exact],
                                      check_exact=True)
    exact = ["label", "games", "p5", "p50", "p95", "max", "max_turns", "stranded_pct"]
    pd.testing.assert_frame_equal(a.summary[exact], b.summary[exact], check_exact=True)


@pytest.fixture(scope="module")
def real_runs():
    """Real games small enough to hold: random and greedy, standard and long rules."""
    return {f"{pol} ({preset})": simulate.run(
        "rum-runner", 3_000, policies=pol, seed=11, progress=False,
        rules=Rules.from_overrides({}, preset=preset))
        for pol in ("random", "greedy") for preset in ("standard", "long")}


@pytest.mark.parametrize("size", [1, 137, None])
def test_streamed_answer_equals_the_full_frame_answer(real_runs, size):
    for rules in (Rules(), UPPER):
        full = thresholds(real_runs, rules=rules)
        streamed = thresholds({lab: _fed(res.frame, size or len(res.frame), res.meta)
                               for lab, res in real_runs.items()}, rules=rules)
        _assert_same_report(full, streamed)
        assert streamed.render_text() == full.render_text()
        assert json.dumps(streamed.to_json()) == json.dumps(full.to_json())


def test_full_frame_answer_agrees_with_sorted_scores(real_runs):
    """An oracle apart from the histogram: sort, count and average the raw scores."""
    from analyses import stats

    for rules in (Rules(), UPPER):
        rep = thresholds(real_runs, rules=rules)
        for lab, res in real_runs.items():
            scores = res.frame["score_0"].to_numpy()
            bands = rep.bands[rep.bands["label"] == lab]
            assert list(bands["games"]) == list(np.bincount(score_bands(scores, rules),
                                                            minlength=6))
            edges = rep.edges[rep.edges["label"] == lab]
            cut = np.asarray(rules.score_band_edges)[:, None]
            side = scores <= cut if rules is UPPER else scores < cut
            assert list(edges["percentile"]) == pytest.approx(
                list(100 * side.sum(axis=1) / scores.size), rel=1e-12)
            cal = rep.calibrated[rep.calibrated["label"] == lab]
            got = list(zip(cal["edge"], cal["edge_low"], cal["edge_high"],
                           cal["achieved_below_pct"], strict=True))
            want = _sorted_calibrated_edges(scores, DEFAULT_TARGET, rules)
            assert [g[0] for g in got] == [w[0] for w in want]
            np.testing.assert_array_equal(np.array(got, float), np.array(want, float))
            s = rep.summary.set_index("label").loc[lab]
            ordered = np.sort(scores)
            for q in (0.05, 0.5, 0.95):
                assert s[f"p{int(q * 100)}"] == stats.quantile_interval_sorted(ordered, q).estimate
            mean = stats.mean_interval(scores)
            assert (s["mean"], s["mean_low"], s["mean_high"]) == pytest.approx(tuple(mean),
                                                                               rel=1e-12)
            assert s["sd"] == pytest.approx(scores.std(ddof=1), rel=1e-12)
            assert s["max"] == scores.max()
            assert s["mean_turns"] == pytest.approx(res.frame["turns"].mean(), rel=1e-12)
            assert s["max_turns"] == res.frame["turns"].max()
            assert s["stranded_pct"] == 100 * (res.frame["end_reason"] == 1).mean()


def test_on_chunk_accumulator_equals_kept_rows():
    """The path the CLI takes: simulate.run(keep=False, on_chunk=acc.add) keeps no row."""
    kept = simulate.run("rum-runner", 2_000, policies="greedy", seed=5, progress=False)
    acc = ThresholdsAccumulator()
    res = simulate.run("rum-runner", 2_000, policies="greedy", seed=5, progress=False,
                       keep=False, on_chunk=acc.add, chunk_size=137)
    assert len(res.frame) == 0 and acc.n == 2_000
    acc.meta = res.meta
    _assert_same_report(thresholds({"g": kept}), thresholds({"g": acc}))


def test_merging_two_halves_equals_one_pass(real_runs):
    for res in real_runs.values():
        frame = res.frame
        one = _fed(frame, len(frame), res.meta)
        first, second = _fed(frame.iloc[:1234], 500), _fed(frame.iloc[1234:], 999)
        for merged in (first.merge(second), second.merge(first),
                       ThresholdsAccumulator().merge(first).merge(second),
                       first.merge(second).merge(ThresholdsAccumulator())):
            assert merged.n == one.n and merged.stranded == one.stranded
            assert merged.scores.min() == one.scores.min()
            np.testing.assert_array_equal(merged.scores.counts[
                merged.scores.low - one.scores.low:][:one.scores.counts.size], one.scores.counts)
            merged.meta = res.meta
            _assert_same_report(thresholds(one), thresholds(merged))
        assert first.n == 1234  # merge leaves its operands as they were


def test_histograms_are_exact_and_flat_in_the_number_of_games():
    """Order statistics, counts below and sums from the histogram equal the sorted values';
    feeding the same games again grows the counts, not the memory."""
    rng = np.random.default_rng(0)
    values = rng.integers(-40, 700, 5_000)
    acc = ThresholdsAccumulator()
    for part in np.array_split(values, 7):
        acc.add(pd.DataFrame({"score_0": part}))
    view, ordered = acc.scores.sorted_view(), np.sort(values)
    assert [view[i] for i in range(values.size)] == list(ordered) and view[-1] == ordered[-1]
    for x in (-41, -40, 0, 199.5, 200, 699, 700):
        assert acc.scores.below(x) == np.count_nonzero(values < x)
        assert acc.scores.below(x, inclusive=True) == np.count_nonzero(values <= x)
    assert acc.scores.total() == values.sum()
    assert acc.scores.total_squares() == (values * values).sum()
    assert acc.turns is None and acc.stranded is None
    size = acc.scores.counts.nbytes
    for _ in range(20):
        acc.add(pd.DataFrame({"score_0": values}))
    assert acc.n == 21 * values.size and acc.scores.counts.nbytes == size


def test_accumulator_refuses_what_is_not_a_score():
    acc = ThresholdsAccumulator()
    with pytest.raises(UserError, match="score_0"):
        acc.add(pd.DataFrame({"x": [1]}))
    with pytest.raises(UserError, match="whole numbers"):
        acc.add(pd.DataFrame({"score_0": [1.5]}))
    with pytest.raises(UserError, match="no games"):
        thresholds(ThresholdsAccumulator({"policies": ["greedy"]}))
    acc.add(pd.DataFrame({"score_0": [3.0, 4.0]}))  # whole floats (a CSV's) are fine
    assert acc.n == 2 and score_summary(acc)["max"] == 4
