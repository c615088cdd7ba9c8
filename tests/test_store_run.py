"""``rumsim run GAME`` (without ``--out``) is a storable tally (``RunSummaryPart``).

Each block's summary is made where the block is played and merged in block order; chunk
summaries merged that way equal, number for number, the summary of their frames added in
order (also past the histogram's cap: a block's own histogram is never binned). A run of N
then one of 2N through the store answers as one 2N run with no store, and says it took games
from the store; an ``--out`` run writes rows and stores nothing; a stored block that cannot be
the summary of its games is refused and played again.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from contextlib import closing

import numpy as np
import pandas as pd
import pytest
from clitools import run_cli

import simulate
import simulate.runner as runner
import simulate.store as store_module
from engines import GAMES
from simulate import codec
from simulate.summary import DISTINCT_CAP, RunSummaryPart, StreamSummary

CHUNK, N = 400, 800  # N: two blocks


@pytest.fixture
def small_blocks(monkeypatch):
    """The CLI's default block size made CHUNK games, so a small run has several blocks."""
    monkeypatch.setattr(runner, "default_chunk", lambda *args, **kwargs: CHUNK)


def state(summary: StreamSummary) -> dict:
    """Every number a summary holds, histograms as their (value, count) pairs."""
    out = {}
    for name, col in summary.columns.items():
        values, counts = col.hist.pairs()
        out[name] = (col.integer, col.rows, col.n, col.mean, col.m2, col.lo, col.hi,
                     values.tolist(), counts.tolist(), values.dtype.str, col.hist.approximate)
    return out


def assert_identical(a: StreamSummary, b: StreamSummary) -> None:
    assert list(a.columns) == list(b.columns)
    sa, sb = state(a), state(b)
    for name in sa:  # == on floats: identical, not close (NaN never occurs here)
        assert sa[name] == sb[name], name
    pd.testing.assert_frame_equal(a.frame(), b.frame(), check_exact=True)


def chunks(frame: pd.DataFrame, size: int) -> list[pd.DataFrame]:
    return [frame.iloc[i:i + size].reset_index(drop=True) for i in range(0, len(frame), size)]


def without_time(out: str) -> list[str]:
    """A table answer without what differs between runs of the same games: the time."""
    head, *rest = out.splitlines()
    return [head.rsplit("; ", 1)[0], *rest]


def json_answer(out: str) -> tuple[dict, dict]:
    data = json.loads(out)
    meta = data.pop("meta")
    return data, {k: v for k, v in meta.items() if k not in ("elapsed_s", "store")}


def blocks_of(root) -> list[tuple[int, int]]:
    with closing(sqlite3.connect(root / store_module.REGISTRY)) as db:
        return sorted(db.execute("SELECT first, games FROM blocks"))


# ---------------------------------------------------------------- merge equals add


@pytest.mark.parametrize("game", GAMES)
def test_merged_block_summaries_equal_the_added_frames(game):
    parts: list[StreamSummary] = []
    simulate.run(game, 1000, seed=5, chunk_size=300, keep=False, progress=False,
                 part=RunSummaryPart(), on_part=parts.append)
    full = simulate.run(game, 1000, seed=5, progress=False)
    assert [p.columns[next(iter(p.columns))].rows for p in parts] == [300, 300, 300, 100]
    merged, added = StreamSummary(), StreamSummary()
    for p in parts:
        merged.merge(p)
    for frame in chunks(full.frame, 300):
        added.add(frame)
    assert_identical(merged, added)
    # and through the codec, as the store keeps a block
    back = StreamSummary()
    for i, p in enumerate(parts):
        data = codec.dumps(p, {"key": "k", "games": [i, 1]}, compress=True)
        loaded = codec.loads(data, {"key": "k", "games": [i, 1]})
        RunSummaryPart().verify(loaded, 300 if i < 3 else 100)
        back.merge(loaded)
    assert_identical(back, added)


@pytest.mark.parametrize("size", [1, 7, 333, 1000, 5000])
def test_merge_equals_add_past_the_cap_and_across_kinds(size):
    """Binned quantiles (a cap of 64 distinct values), blocks larger than the cap, a
    whole-number column whose span outgrows the dense array mid-run, missing values and a
    block with none: the merged summary is the added one, bin for bin."""
    rng = np.random.default_rng(8)
    n = 5000
    wide = rng.integers(0, 50, n)
    wide[3100] = 10**9  # the histogram turns sparse in a later block
    x = rng.normal(size=n)
    x[rng.random(n) < 0.1] = np.nan
    x[2000:2000 + 1000] = np.nan  # one block of 1000 with no value at all
    frame = pd.DataFrame({"game": np.arange(n), "x": x, "k": rng.integers(-3, 4, n),
                          "wide": wide, "share": rng.choice([0.0, 1 / 3, 0.5, 1.0], n)})
    for cap in (64, DISTINCT_CAP):
        merged, added = StreamSummary(cap), StreamSummary(cap)
        for block in chunks(frame, size):
            part = RunSummaryPart()(block)
            RunSummaryPart().verify(part, len(block))
            assert part.cap is None and not any(c.hist.approximate
                                                for c in part.columns.values())
            merged.merge(part)
            added.add(block)
        assert_identical(merged, added)
        assert merged.approximate == (["x"] if cap == 64 else [])
        assert merged.columns["wide"].hist.values is not None  # went sparse
        assert list(merged.columns) == ["x", "k", "wide", "share"]


def test_merging_two_runs_summaries_is_their_union_to_rounding():
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"x": rng.normal(size=3000), "k": rng.integers(0, 9, 3000)})
    first, second, whole = StreamSummary(), StreamSummary(), StreamSummary()
    for block in chunks(frame.iloc[:1700], 500):
        first.add(block)
    for block in chunks(frame.iloc[1700:], 500):
        second.add(block)
    whole.add(frame)
    a, b = first.merge(second).frame(), whole.frame()
    pd.testing.assert_frame_equal(a.drop(columns=["mean", "sd"]), b.drop(columns=["mean", "sd"]),
                                  check_exact=True)
    np.testing.assert_allclose(a[["mean", "sd"]], b[["mean", "sd"]], rtol=1e-12)


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize("game", ["rum-runner", "montego-bay"])
def test_n_then_2n_through_the_store_answers_as_one_2n_run(tmp_path, capsys, small_blocks,
                                                          game):
    root = tmp_path / "s"
    code, first, err = run_cli(capsys, "run", game, "-n", str(N), "-q", "--store", str(root))
    assert code == 0 and "from the run store" not in err, err
    assert blocks_of(root) == [(0, CHUNK), (CHUNK, CHUNK)]
    code, pooled, err = run_cli(capsys, "run", game, "-n", str(2 * N), "-q", "--store",
                                str(root))
    assert code == 0, err
    assert f"{game}: {N:,} games from the run store ({root})" in err
    assert f"; {N:,} played" in err
    assert blocks_of(root) == [(i * CHUNK, CHUNK) for i in range(4)]
    code, alone, err = run_cli(capsys, "run", game, "-n", str(2 * N), "-q", "--no-store")
    assert code == 0 and "store" not in err
    assert without_time(pooled) == without_time(alone)
    # all of it stored now: nothing played, the same answer in JSON too
    code, whole, err = run_cli(capsys, "run", game, "-n", str(2 * N), "-q", "--store",
                               str(root), "--format", "json")
    assert code == 0 and f"{2 * N:,} games from the run store" in err and "; 0 played" in err
    assert json.loads(whole)["meta"]["store"]["from_store"] == 2 * N
    code, fresh, _ = run_cli(capsys, "run", game, "-n", str(2 * N), "-q", "--no-store",
                             "--format", "json")
    assert code == 0 and "store" not in json.loads(fresh)["meta"]
    assert json_answer(whole) == json_answer(fresh)


def test_more_adds_to_a_stored_run(tmp_path, capsys, small_blocks):
    root = tmp_path / "s"
    assert run_cli(capsys, "run", "rum-runner", "-n", str(N), "-q", "--store", str(root))[0] == 0
    code, more, err = run_cli(capsys, "run", "rum-runner", "--more", str(N), "-q", "--store",
                              str(root))
    assert code == 0 and f"{N:,} games from the run store" in err, err
    code, alone, _ = run_cli(capsys, "run", "rum-runner", "-n", str(2 * N), "-q", "--no-store")
    assert without_time(more) == without_time(alone)


def test_an_out_run_stores_nothing_and_answers_as_a_stored_one(tmp_path, capsys, small_blocks):
    root = tmp_path / "s"
    code, written, err = run_cli(capsys, "run", "montego-bay", "-n", str(N), "-q", "--store",
                                 str(root), "--out", str(tmp_path / "rows.parquet"))
    assert code == 0 and f"wrote {N:,} rows" in err and "from the run store" not in err
    assert not root.exists() or not any(root.rglob("*"))
    code, _, err = run_cli(capsys, "run", "montego-bay", "--more", "1", "-q", "--out",
                           str(tmp_path / "more.csv"), "--store", str(root))
    assert code == 2 and "--more adds games to an answer in the run store" in err
    code, stored, _ = run_cli(capsys, "run", "montego-bay", "-n", str(N), "-q", "--store",
                              str(root))
    assert code == 0 and blocks_of(root) == [(0, CHUNK), (CHUNK, CHUNK)]
    assert without_time(written) == without_time(stored)  # both paths: the same table


# ---------------------------------------------------------------- verify


@pytest.fixture(scope="module")
def block():
    frame = simulate.run("montego-bay", CHUNK, seed=3, progress=False).frame
    return frame, RunSummaryPart()(frame)


def mutated(summary: StreamSummary, change) -> StreamSummary:
    data = codec.dumps(summary, {"key": "k"})
    copy = codec.loads(data, {"key": "k"})
    change(copy)
    return copy


def set_col(name: str, attr: str, value):
    return lambda s: setattr(s.columns[name], attr, value)


def set_hist(name: str, attr: str, value):
    return lambda s: setattr(s.columns[name].hist, attr, value)


def test_a_block_summary_passes_its_check(block):
    frame, summary = block
    part = RunSummaryPart()
    part.verify(summary, CHUNK)
    assert part.store_version == 1 and repr(part) == "RunSummaryPart()"
    assert type(codec.loads(codec.dumps(part, {"key": "k"}), {"key": "k"})) is RunSummaryPart
    assert list(summary.columns) == [c for c in frame.columns if c not in ("game", "players")]


@pytest.mark.parametrize("change", [
    lambda s: setattr(s, "cap", DISTINCT_CAP),
    lambda s: setattr(s, "columns", {}),
    lambda s: s.columns.update(game=s.columns["rounds"]),
    lambda s: setattr(s, "extra", 1),
    set_col("rounds", "rows", CHUNK + 1),
    set_col("rounds", "n", CHUNK - 1),
    set_col("score_0", "n", CHUNK + 1),
    set_col("rounds", "integer", False),
    set_col("rounds", "m2", -1.0),
    set_col("rounds", "mean", np.float32(1)),
    set_col("rounds", "lo", np.int64(-7)),
    set_col("rounds", "hi", None),
    set_col("rounds", "hist", "histogram"),
    set_hist("rounds", "cap", 64),
    set_hist("rounds", "approximate", True),
    set_hist("rounds", "offset", 0),
    set_hist("rounds", "values", np.array([1.0, 2.0])),
    set_hist("rounds", "counts", np.array([CHUNK], dtype=np.int64)),
    set_hist("score_0", "values", None),
    lambda s: s.columns["rounds"].hist.counts.__setitem__(0, 0),
    lambda s: setattr(s.columns["score_0"].hist, "values",
                      s.columns["score_0"].hist.values[::-1].copy()),
], ids=["capped", "no columns", "a SKIP column", "a field more", "rows", "integer n",
        "float n", "kind", "negative M2", "mean not a float", "min", "max missing",
        "no histogram", "histogram capped", "binned", "dense", "values not whole",
        "pair shapes", "no values", "a zero count", "values not sorted"])
def test_a_wrong_block_summary_is_refused(block, change):
    _, summary = block
    bad = mutated(summary, change)
    with pytest.raises(ValueError):
        RunSummaryPart().verify(bad, CHUNK)
    RunSummaryPart().verify(mutated(summary, lambda s: None), CHUNK)  # the copy itself passes


def test_a_block_of_other_games_counts_or_not_a_summary_is_refused(block):
    frame, summary = block
    with pytest.raises(ValueError, match="rows, not"):
        RunSummaryPart().verify(summary, CHUNK + 1)
    with pytest.raises(ValueError, match="not a run summary"):
        RunSummaryPart().verify((summary, None), CHUNK)
    added = StreamSummary()
    added.add(frame)  # an accumulator, with the run's cap: not a block's summary
    with pytest.raises(ValueError, match="binned"):
        RunSummaryPart().verify(added, CHUNK)


def test_a_stored_block_that_fails_its_check_is_played_again(tmp_path, capsys, small_blocks):
    root = tmp_path / "s"
    code, first, _ = run_cli(capsys, "run", "rum-runner", "-n", str(N), "-q", "--store",
                             str(root))
    assert code == 0
    with closing(sqlite3.connect(root / store_module.REGISTRY)) as db:
        (key,) = db.execute("SELECT key FROM questions").fetchone()
    # the summary of one game fewer, under the second block's name and hash (a forgery
    # whose file and registry agree: only the check of its contents stands in the way)
    frame = simulate.run("rum-runner", CHUNK - 1, first_game=CHUNK, progress=False).frame
    forged = codec.dumps(RunSummaryPart()(frame), {"key": key, "games": [CHUNK, CHUNK]},
                         compress=True)
    path = root / "blocks" / key[:2] / key / f"{CHUNK}-{CHUNK}.npz"
    assert path.is_file()
    path.write_bytes(forged)
    with closing(sqlite3.connect(root / store_module.REGISTRY)) as db, db:
        db.execute("UPDATE blocks SET sha256 = ? WHERE key = ? AND first = ?",
                   (hashlib.sha256(forged).hexdigest(), key, CHUNK))
    code, again, err = run_cli(capsys, "run", "rum-runner", "-n", str(N), "-q", "--store",
                               str(root))
    assert code == 0
    damaged = [line for line in err.splitlines() if "is damaged" in line]
    assert len(damaged) == 1 and f"counts {CHUNK - 1} rows, not {CHUNK}" in damaged[0], err
    assert f"{CHUNK:,} games from the run store" in err and f"; {CHUNK:,} played" in err
    assert without_time(again) == without_time(first)
