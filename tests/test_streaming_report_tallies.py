"""The scores, events and composition answers streamed chunk by chunk (chunks of 1, 137 and all
games of real runs) equal the whole-frame answer, two halves merged equal one pass, and the
tallies' from-counts and from-sums statistics equal the raw-value formulas they replace."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import simulate
from analyses import stats
from analyses.composition import CompositionTally, composition
from analyses.events import EventsTally, event_rates
from analyses.scores import ScoresTally, ValueCounts, winners_and_others
from analyses.stats import mean_interval_from_moments, ratio_interval_from_moments
from reports import figures
from reports.rum_and_pirates import COUNTS, RATIOS

SIZES = [1, 137, None]  # 1 on the first 200 games; None: the whole frame in one chunk
REL = 1e-12
EXACT = ("games", "winner_p10", "winner_p90", "others_p10", "others_p90")


def chunks(frame: pd.DataFrame, size: int | None):
    size = size or max(len(frame), 1)
    return [frame.iloc[i:i + size] for i in range(0, len(frame), size)]


def framed(frame: pd.DataFrame, size: int | None) -> pd.DataFrame:
    return frame.iloc[:200] if size == 1 else frame


@pytest.fixture(scope="module")
def pirates() -> pd.DataFrame:
    return simulate.run("rum-and-pirates", 3000, players=3, seed=5, progress=False).frame


@pytest.fixture(scope="module", params=["montego-bay", "rum-rebellion"])
def game(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def scored(game) -> pd.DataFrame:
    return simulate.run(game, 3000, players=3, seed=5, progress=False).frame


# ---------------------------------------------------------------- scores


def assert_same_counts(a: ValueCounts, b: ValueCounts):
    assert np.array_equal(a.values, b.values) and np.array_equal(a.counts, b.counts)


def assert_same_scores(a, b):
    for name in ("winner", "others", "lead", "rounds"):
        assert_same_counts(getattr(a, name), getattr(b, name))
    sa, sb = a.summary(), b.summary()
    assert sa.keys() == sb.keys()
    for key in sa:
        if key in EXACT:
            assert sa[key] == sb[key], key
        else:
            assert sa[key] == pytest.approx(sb[key], rel=REL, nan_ok=True), key


@pytest.mark.parametrize("size", SIZES)
def test_streamed_scores_equal_the_whole_frame(scored, size):
    frame = framed(scored, size)
    tally = ScoresTally(3)
    for part in chunks(frame, size):
        tally.add(part)
    assert_same_scores(tally.answer(), winners_and_others(frame, 3))


def test_merged_scores_equal_one_pass(scored):
    merged = ScoresTally(3).add(scored.iloc[:1234]).merge(ScoresTally(3).add(scored.iloc[1234:]))
    assert_same_scores(merged.answer(), winners_and_others(scored, 3))


def test_scores_from_counts_equal_the_raw_arrays(scored):
    """The summary the raw arrays gave before the counters: same keys, same numbers."""
    scores = scored[[f"score_{s}" for s in range(3)]].to_numpy(dtype=float)
    wins = scored[[f"win_{s}" for s in range(3)]].to_numpy(dtype=float)
    top = np.sort(scores, axis=1)
    w, o, lead = top[:, -1], scores[wins == 0], top[:, -1] - top[:, -2]
    z = stats.z_value()
    se = w.std(ddof=1) / np.sqrt(w.size)
    q = lambda x, p: float(np.quantile(x, p, method="inverted_cdf"))  # noqa: E731
    want = {"games": w.size, "winner_mean": w.mean(), "winner_low": w.mean() - z * se,
            "winner_high": w.mean() + z * se, "winner_p10": q(w, 0.1), "winner_p90": q(w, 0.9),
            "others_mean": o.mean(), "others_p10": q(o, 0.1), "others_p90": q(o, 0.9),
            "lead_mean": lead.mean(), "tied_top_share": float(np.mean(lead == 0)),
            "rounds_mean": scored["rounds"].mean()}
    got = winners_and_others(scored, 3).summary()
    assert got.keys() == want.keys()
    for key, value in want.items():
        assert got[key] == (value if key in EXACT else pytest.approx(value, rel=REL)), key


def test_a_streamed_run_that_keeps_no_rows_gives_the_same_scores(game, scored):
    # The runner's own chunks: simulate.run(keep=False, on_chunk=tally.add).
    tally = ScoresTally(3)
    kept = simulate.run(game, 3000, players=3, seed=5, progress=False, chunk_size=137,
                        keep=False, on_chunk=tally.add)
    assert len(kept.frame) == 0
    assert_same_scores(tally.answer(), winners_and_others(scored, 3))


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 30, 100, 101, 1000, 4097])
def test_counted_quantiles_are_numpys_inverted_cdf(n):
    # 100 * 0.07 is 7.000000000000001 in floating point, and numpy then takes the 8th value:
    # the counter must take numpy's rank there too.
    rng = np.random.default_rng(n)
    x = rng.integers(-5, 40, n) + rng.choice([0.0, 0.5, 0.25], n)  # floats, many repeats
    counts = ValueCounts()
    for part in np.array_split(x, 3):
        counts.add(part)
    assert counts.size == n and counts.min() == x.min() and counts.max() == x.max()
    assert counts.mean() == pytest.approx(x.mean(), rel=REL)
    if n > 1:
        assert counts.std(ddof=1) == pytest.approx(x.std(ddof=1), rel=REL)
    for q in (0.01, 0.07, 0.1, 0.25, 0.3, 1 / 3, 0.5, 0.9, 0.99, 1.0):
        assert counts.quantile(q) == np.quantile(x, q, method="inverted_cdf"), (n, q)


def test_empty_counts_read_as_nothing():
    empty = ValueCounts().add(np.array([]))
    assert empty.size == 0 and empty.values.size == 0
    assert np.isnan(empty.mean()) and np.isnan(empty.quantile(0.5)) and np.isnan(empty.min())


def test_score_panels_draw_a_counter_as_its_raw_values(scored):
    ans = winners_and_others(scored, 3)
    scores = scored[[f"score_{s}" for s in range(3)]].to_numpy(dtype=float)
    wins = scored[[f"win_{s}" for s in range(3)]].to_numpy(dtype=float)
    raw = {"p": {"winner": scores.max(axis=1), "others": scores[wins == 0]}}
    counted = {"p": {"winner": ans.winner, "others": ans.others}}
    assert figures.score_panels(counted, "t") == figures.score_panels(raw, "t")


# ---------------------------------------------------------------- events


def event_question():
    counts = {label: column for label, column in COUNTS}
    counts["turns / 7"] = "turns_sevenths"  # a float column, summed as floats
    ratios = {label: (num, den) for label, num, den in RATIOS}
    ratios["dark moves (of all moves)"] = ("dark_moves", "moves")
    return counts, ratios


def with_floats(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(turns_sevenths=frame["turns"] / 7)


def assert_same_table(a: pd.DataFrame, b: pd.DataFrame, exact: tuple[str, ...]):
    assert list(a.columns) == list(b.columns) and len(a) == len(b)
    for col in a.columns:
        if col in exact:
            assert list(a[col]) == list(b[col]), col
        else:
            assert list(a[col]) == pytest.approx(list(b[col]), rel=REL, nan_ok=True), col


@pytest.mark.parametrize("size", SIZES)
def test_streamed_events_equal_the_whole_frame(pirates, size):
    frame = framed(with_floats(pirates), size)
    counts, ratios = event_question()
    tally = EventsTally(counts, ratios)
    for part in chunks(frame, size):
        tally.add(part)
    assert_same_table(tally.answer(), event_rates(frame, counts, ratios),
                      ("event", "kind", "games"))


def test_merged_events_equal_one_pass(pirates):
    frame = with_floats(pirates)
    counts, ratios = event_question()
    halves = EventsTally(counts, ratios).add(frame.iloc[:1234]).merge(
        EventsTally(counts, ratios).add(frame.iloc[1234:]))
    assert_same_table(halves.answer(), event_rates(frame, counts, ratios),
                      ("event", "kind", "games"))


def test_events_from_sums_equal_the_raw_value_intervals(pirates):
    frame = with_floats(pirates)
    counts, ratios = event_question()
    table = event_rates(frame, counts, ratios, confidence=0.9).set_index("event")
    n = len(frame)
    for name, column in counts.items():  # Hall's interval from the per-game values
        x = frame[column].to_numpy(dtype=float)
        want = stats.skewed_mean_interval_from_moments(n, x.sum(), (x * x).sum(),
                                                       (x ** 3).sum(), 0.9)
        got = table.loc[name, ["value", "low", "high"]].tolist()
        assert got == pytest.approx(list(want), rel=REL, nan_ok=True), name
    for name, (num, den) in ratios.items():  # hits among tries: Korn-Graubard; else delta
        y, x = frame[num].to_numpy(dtype=float), frame[den].to_numpy(dtype=float)
        nested = bool(np.all((y >= 0) & (y <= x)))
        want = (stats.events_share_interval_from_moments(
            n, y.sum(), x.sum(), (y * y).sum(), (x * x).sum(), (x * y).sum(), 0.9) if nested
            else stats.ratio_interval(y, x, 0.9))
        assert table.loc[name, "kind"] == ("share" if nested else "ratio"), name
        got = table.loc[name, ["value", "low", "high"]].tolist()
        assert got == pytest.approx(list(want), rel=REL), name
    assert set(table["games"]) == {len(frame)}


@pytest.mark.parametrize("y, x", [([], []), ([3], [4]), ([0, 0, 0], [0, 0, 0]),
                                  ([1, 0, 1], [2, 0, 2]), ([2, 5, 1, 0], [4, 6, 3, 1])])
def test_edge_cases_from_sums_are_the_raw_value_intervals(y, x):
    """No game, one game, no event, no spread: what mean_interval and ratio_interval say."""
    y, x = np.asarray(y, dtype=np.int64), np.asarray(x, dtype=np.int64)
    n = len(x)
    sums = [int(v) for v in (y.sum(), x.sum(), (y * y).sum(), (x * x).sum(), (x * y).sum())]
    got = ratio_interval_from_moments(n, *sums)
    assert list(got) == pytest.approx(list(stats.ratio_interval(y, x)), rel=REL, nan_ok=True)
    got = mean_interval_from_moments(n, sums[1], sums[3])
    assert list(got) == pytest.approx(list(stats.mean_interval(x)), rel=REL, nan_ok=True)


# ---------------------------------------------------------------- composition


def hall(x: np.ndarray) -> stats.Interval:
    return stats.skewed_mean_interval_from_moments(len(x), x.sum(), (x * x).sum(),
                                                   (x ** 3).sum())


def old_composition(frame: pd.DataFrame, players: int) -> pd.DataFrame:
    """The whole-frame composition from the per-game values (then Hall's interval on them),
    to check the tally's sums reproduce it."""
    cats = [c[3:-2] for c in frame.columns if c.startswith("vp_") and c.endswith("_0")]
    seats = range(players)
    wins = frame[[f"win_{s}" for s in seats]].to_numpy(dtype=float)
    totals = sum(frame[[f"vp_{c}_{s}" for s in seats]].to_numpy(dtype=float).mean(axis=1)
                 for c in cats)
    grand = float(totals.mean())
    rows = []
    for c in cats:
        vp = frame[[f"vp_{c}_{s}" for s in seats]].to_numpy(dtype=float)
        player = hall(vp.mean(axis=1))  # the per-game values' Hall interval
        winner = hall((vp * wins).sum(axis=1))
        rows.append({"category": c, "player": player.estimate, "player_low": player.low,
                     "player_high": player.high, "winner": winner.estimate,
                     "winner_low": winner.low, "winner_high": winner.high,
                     "share": player.estimate / grand, "games": len(frame)})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("size", SIZES)
def test_streamed_composition_equals_the_whole_frame(pirates, size):
    frame = framed(pirates, size)
    tally = CompositionTally(3)
    for part in chunks(frame, size):
        tally.add(part)
    assert_same_table(tally.answer(), composition(frame, 3), ("category", "games"))


def test_merged_composition_equals_one_pass(pirates):
    halves = CompositionTally(3).add(pirates.iloc[:1234]).merge(
        CompositionTally(3).add(pirates.iloc[1234:]))
    assert_same_table(halves.answer(), composition(pirates, 3), ("category", "games"))
    # an unfed tally merges as nothing, either way round
    assert_same_table(CompositionTally(3).merge(halves).merge(CompositionTally(3)).answer(),
                      composition(pirates, 3), ("category", "games"))


def test_composition_from_sums_equals_the_per_game_values(pirates):
    assert_same_table(composition(pirates, 3), old_composition(pirates, 3),
                      ("category", "games"))
    # and with fractional points, summed as floats
    halves = pirates.assign(**{c: pirates[c] / 2 for c in pirates.columns if c.startswith("vp_")})
    assert_same_table(composition(halves, 3), old_composition(halves, 3), ("category", "games"))


def test_composition_without_categories_is_refused_at_the_first_chunk():
    with pytest.raises(ValueError, match="vp_<category>_<seat>"):
        CompositionTally(2).add(pd.DataFrame({"win_0": [1.0], "win_1": [0.0]}))
    with pytest.raises(ValueError, match="vp_<category>_<seat>"):
        CompositionTally(2).answer()
