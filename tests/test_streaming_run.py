"""`rumsim run` keeps no rows: its summary is built from chunk summaries and its --out file is
written as the chunks finish. On runs small enough to hold in memory both equal what the
full frame gives: the same counts, min/max and exact quantiles, means and SDs to rounding,
and the same rows and metadata as ``Results.save``; a stopped run leaves a readable file of
the chunks that finished, marked interrupted; a fault leaves an older file untouched.
"""

from __future__ import annotations

import errno
import json
import os
import signal

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from clitools import run_cli

import simulate
import simulate.blocks as blocks
import simulate.results as results_mod
import simulate.runner as runner
from engines import GAMES
from simulate.errors import UserError
from simulate.results import Results, RowWriter, meta_path
from simulate.summary import StreamSummary, quantiles_from_counts, summarise, summary_frame

EXACT = ["min", "p5", "p50", "p95", "max"]


def streamed(frame: pd.DataFrame, chunk: int, cap: int | None = None) -> StreamSummary:
    stream = StreamSummary() if cap is None else StreamSummary(cap)
    for start in range(0, len(frame), chunk):
        stream.add(frame.iloc[start:start + chunk].reset_index(drop=True))
    return stream


def assert_same_summary(streamed_table: pd.DataFrame, full: pd.DataFrame) -> None:
    assert list(streamed_table.columns) == list(full.columns)
    assert streamed_table["column"].tolist() == full["column"].tolist()
    for stat in EXACT:  # identical, not close
        pd.testing.assert_series_equal(streamed_table[stat], full[stat], check_exact=True)
    for stat in ("mean", "sd"):
        np.testing.assert_allclose(streamed_table[stat], full[stat], rtol=1e-12, atol=1e-12)


def leftovers(folder) -> list[str]:
    return [p.name for p in folder.rglob("*") if p.name.startswith(".") or
            p.name.endswith(".tmp")]


# ---------------------------------------------------------------- summary


@pytest.mark.parametrize("game", GAMES)
def test_the_streamed_summary_equals_the_full_frame_summary(game):
    full = simulate.run(game, 3000, seed=11, progress=False)
    want = summary_frame(full)
    for chunk in (137, 1000, 3000):
        assert_same_summary(streamed(full.frame, chunk).frame(list(full.frame.columns)), want)
    # and from a run that keeps no rows, chunked by the runner itself
    stream = StreamSummary()
    kept = simulate.run(game, 3000, seed=11, progress=False, chunk_size=137, keep=False,
                        on_chunk=stream.add)
    assert len(kept.frame) == 0 and kept.meta["games"] == 3000
    assert_same_summary(stream.frame(list(kept.frame.columns)), want)
    assert stream.approximate == []


@pytest.mark.parametrize("seed", range(40))
def test_quantiles_from_counts_are_numpys(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 3, 5, 20, 101, 1000, 4097]))
    ints = rng.integers(-5, int(rng.choice([2, 10, 1000])), size=n)
    values, counts = np.unique(ints, return_counts=True)
    got = quantiles_from_counts(values, counts)
    assert got == list(np.quantile(ints, [0.05, 0.5, 0.95]))
    shares = rng.choice([0.0, 1 / 3, 0.5, 1.0, 0.25], size=n)
    values, counts = np.unique(shares, return_counts=True)
    assert quantiles_from_counts(values, counts) == list(np.quantile(shares, [0.05, 0.5, 0.95]))


def test_edge_columns_wide_ranges_one_row_and_no_rows():
    frame = pd.DataFrame({"game": range(7), "wide": [0, 10**12, -3, 5, 10**12, 7, 1],
                          "tiny": [2.5, -1.0, 0.1, 0.1, 7.0, 2.5, 3.0],
                          "neg": [-9, -2, -2, -5, -9, -1, -4]})
    want = summary_frame(Results(frame))
    for chunk in (1, 2, 7):
        assert_same_summary(streamed(frame, chunk).frame(), want)
    one = frame.iloc[:1]
    assert_same_summary(streamed(one, 1).frame(), summary_frame(Results(one)))
    empty = StreamSummary().frame(list(frame.columns))
    assert empty["column"].tolist() == ["wide", "tiny", "neg"]
    assert empty[list(EXACT)].isna().all().all()


def test_past_the_cap_quantiles_are_binned_and_said_to_be():
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"x": rng.normal(size=5000), "k": rng.integers(0, 4, 5000)})
    stream = streamed(frame, 333, cap=64)
    assert stream.approximate == ["x"]
    got, want = stream.frame(), summary_frame(Results(frame))
    row, ref = got.iloc[0], want.iloc[0]
    assert row["min"] == ref["min"] and row["max"] == ref["max"]  # kept exactly
    assert row["mean"] == pytest.approx(ref["mean"]) and row["sd"] == pytest.approx(ref["sd"])
    for q, stat in ((0.05, "p5"), (0.5, "p50"), (0.95, "p95")):  # within a bin of 5000/64
        rank = (frame["x"] <= row[stat]).mean()
        assert abs(rank - q) < 2 * 64 / 5000 + 0.02
    assert_same_summary(got.iloc[1:].reset_index(drop=True), want.iloc[1:].reset_index(drop=True))


# ---------------------------------------------------------------- the file


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_the_streamed_file_equals_a_saved_one_row_for_row(tmp_path, suffix):
    full = simulate.run("rum-rebellion", 2000, seed=4, progress=False, chunk_size=137)
    saved = full.save(tmp_path / f"saved{suffix}")
    with RowWriter(tmp_path / f"streamed{suffix}", row_group=500) as writer:
        part = simulate.run("rum-rebellion", 2000, seed=4, progress=False, chunk_size=137,
                            keep=False, on_chunk=writer.write)
        path = writer.commit(part)
    back, ref = Results.load(path), Results.load(saved)
    pd.testing.assert_frame_equal(back.frame, ref.frame, check_exact=True)
    pd.testing.assert_frame_equal(back.frame, full.frame, check_exact=True)
    drop = {"elapsed_s"}
    assert ({k: v for k, v in back.meta.items() if k not in drop}
            == {k: v for k, v in ref.meta.items() if k not in drop})
    if suffix == ".parquet":
        a, b = pq.read_table(path).schema, pq.read_table(saved).schema
        assert a.equals(b) and a.metadata[b"pandas"] == b.metadata[b"pandas"]
        assert pq.ParquetFile(path).metadata.num_row_groups == 4  # 548, 548, 548, 356 rows
    else:
        assert path.read_bytes() == saved.read_bytes()  # the same text, byte for byte
        assert meta_path(path).exists()
    assert leftovers(tmp_path) == []


def test_a_run_with_no_finished_chunk_writes_the_columns(tmp_path):
    for suffix in (".parquet", ".csv"):
        empty = simulate.run("rum-runner", 10, keep=False, progress=False)
        empty.meta["games"] = 0
        with RowWriter(tmp_path / f"e{suffix}") as writer:
            writer.commit(empty)
        back = Results.load(tmp_path / f"e{suffix}")
        assert len(back.frame) == 0 and list(back.frame.columns) == list(empty.frame.columns)


def test_an_error_leaves_no_temporary_and_the_old_file(tmp_path):
    path = tmp_path / "r.parquet"
    simulate.run("rum-runner", 5, progress=False).save(path)
    before = path.read_bytes()
    with pytest.raises(RuntimeError), RowWriter(path, row_group=10) as writer:
        writer.write(simulate.run("rum-runner", 50, progress=False).frame)
        raise RuntimeError("boom")
    assert path.read_bytes() == before and leftovers(tmp_path) == []


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_run_out_writes_what_save_would_and_prints_the_same_summary(tmp_path, capsys, suffix):
    out = tmp_path / f"rows{suffix}"
    code, text, err = run_cli(capsys, "run", "motines", "-n", "2500", "--chunk-size", "137",
                              "-q", "--out", str(out), "--format", "json", "--seed", "9")
    assert code == 0 and "wrote 2,500 rows" in err
    full = simulate.run("motines", 2500, seed=9, progress=False)
    back = Results.load(out)
    pd.testing.assert_frame_equal(back.frame, full.frame, check_exact=True)
    assert back.meta["games"] == 2500 and back.meta["interrupted"] is False
    got, want = json.loads(text)["summary"], json.loads(summarise(full, "json"))["summary"]
    assert got.keys() == want.keys()
    for name in want:
        for stat in EXACT:
            assert got[name][stat] == want[name][stat], (name, stat)
        for stat in ("mean", "sd"):
            assert got[name][stat] == pytest.approx(want[name][stat], rel=1e-12, abs=1e-12)
    assert leftovers(tmp_path) == []


def signal_at_chunk(monkeypatch, sig: int, at: int) -> None:
    real = blocks.to_frame
    calls: list[int] = []

    def signalling(block, columns):
        calls.append(len(block))
        if len(calls) == at:
            os.kill(os.getpid(), sig)
        return real(block, columns)

    monkeypatch.setattr(blocks, "to_frame", signalling)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stopped_run_leaves_a_readable_file_of_its_finished_chunks(
        tmp_path, monkeypatch, capsys, suffix, sig):
    monkeypatch.setattr(results_mod, "ROW_GROUP", 150)  # row groups written mid-run
    signal_at_chunk(monkeypatch, sig, at=3)
    out = tmp_path / f"rows{suffix}"
    code, text, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--chunk-size", "100",
                              "-q", "--out", str(out), "--format", "csv")
    assert code == 130 and "(partial: its metadata says interrupted)" in err
    kept = Results.load(out)
    assert len(kept.frame) == kept.meta["games"] == 300
    assert kept.meta["interrupted"] is True and kept.meta["requested"] == 1000
    full = simulate.run("rum-runner", 300, progress=False)
    pd.testing.assert_frame_equal(kept.frame, full.frame, check_exact=True)
    table = pd.read_csv(pd.io.common.StringIO(text))
    assert table["partial"].all()
    want = summary_frame(full)
    np.testing.assert_allclose(table["p50"], want["p50"], rtol=1e-5)
    if suffix == ".parquet":
        assert pq.ParquetFile(out).metadata.num_row_groups == 2
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_second_signal_mid_run_removes_the_file_being_written(tmp_path, monkeypatch, capsys,
                                                                  suffix):
    """Stop at once (a second signal while a row group is written): nothing half-written is
    left and an older file is untouched."""
    out = tmp_path / f"rows{suffix}"
    simulate.run("rum-runner", 7, seed=3, progress=False).save(out)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.setattr(results_mod, "ROW_GROUP", 200)
    signal_at_chunk(monkeypatch, signal.SIGINT, at=2)  # the first flush is in chunk 2
    real = RowWriter._flush

    def flush(self):
        os.kill(os.getpid(), signal.SIGINT)  # the second signal of the command
        return real(self)

    monkeypatch.setattr(RowWriter, "_flush", flush)
    code, _, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--chunk-size", "100",
                           "-q", "--out", str(out))
    assert code == 130 and "interrupted" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_a_full_disk_mid_run_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch,
                                                                       capsys, suffix):
    out = tmp_path / f"rows{suffix}"
    simulate.run("rum-runner", 7, seed=3, progress=False).save(out)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    monkeypatch.setattr(results_mod, "ROW_GROUP", 200)
    real = RowWriter._flush
    flushes = []

    def flush(self):
        flushes.append(1)
        if len(flushes) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), self._tmps[0])
        return real(self)

    monkeypatch.setattr(RowWriter, "_flush", flush)
    code, text, err = run_cli(capsys, "run", "rum-runner", "-n", "1000", "--chunk-size", "100",
                              "-q", "--out", str(out))
    assert code == 1 and "No space left on device" in err and text == ""
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert leftovers(tmp_path) == []


def test_a_run_that_keeps_no_rows_is_not_refused_for_memory(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(runner, "available_memory", lambda: 1 << 20)  # 1 MiB free
    with pytest.raises(UserError, match="of rows in memory"):
        simulate.run("rum-runner", 1000, progress=False)
    assert simulate.run("rum-runner", 1000, progress=False, keep=False).meta["games"] == 1000
    code, text, _ = run_cli(capsys, "run", "rum-runner", "-n", "1000", "-q",
                            "--out", str(tmp_path / "r.parquet"))
    assert code == 0 and "rum-runner: 1,000 games" in text
