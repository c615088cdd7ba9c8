"""Results files: round trips with metadata, atomic writes, clear errors."""

from __future__ import annotations

import pandas as pd
import pytest

from simulate.counts import parse_count
from simulate.errors import UserError
from simulate.results import Results


def sample() -> Results:
    frame = pd.DataFrame({"game": [0, 1, 2], "score_0": [10, 250, 99], "win_0": [0.0, 1.0, 0.5]})
    meta = {"game": "rum-runner", "seed": 5, "policies": ["greedy"], "rules": {"x": [1, 2]}}
    return Results(frame, meta)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_round_trip_keeps_rows_types_and_metadata(tmp_path, suffix):
    res = sample()
    path = res.save(tmp_path / f"r{suffix}")
    back = Results.load(path)
    pd.testing.assert_frame_equal(back.frame, res.frame)
    assert back.meta == res.meta


def test_failed_save_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "r.csv"
    path.write_text("old\n")

    def boom(*a, **k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", boom)
    with pytest.raises(RuntimeError):
        sample().save(path)
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


def test_bad_paths_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="must end in .parquet or .csv"):
        sample().save(tmp_path / "r.xlsx")
    with pytest.raises(UserError, match="does not exist"):
        Results.load(tmp_path / "missing.parquet")
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    with pytest.raises(UserError, match="cannot read"):
        Results.load(bad)


@pytest.mark.parametrize("text, value", [("1e6", 1_000_000), ("250_000", 250_000),
                                         ("2.5e5", 250_000), ("1000", 1000), (" 7 ", 7),
                                         (12, 12)])
def test_counts_as_people_write_them(text, value):
    assert parse_count(text) == value


@pytest.mark.parametrize("text", ["0", "-1", "1.5", "abc", "1e", "nan", "inf", "1e20", ""])
def test_bad_counts(text):
    with pytest.raises(UserError):
        parse_count(text)


def test_written_files_follow_the_umask(tmp_path):
    import os
    import stat

    from simulate.results import atomic_write_text

    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "a.csv", "x\n")
        assert stat.S_IMODE((tmp_path / "a.csv").stat().st_mode) == 0o644
        os.umask(0o077)
        atomic_write_text(tmp_path / "b.csv", "x\n")
        assert stat.S_IMODE((tmp_path / "b.csv").stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_csv_reads_with_no_options(tmp_path):
    """pandas.read_csv(path) and the csv module read the rows as they are; the metadata is in
    a sidecar that load() reads back."""
    import csv

    import simulate

    res = simulate.run("rum-runner", 50, policies="random", seed=3)
    path = res.save(tmp_path / "rows.csv")
    plain = pd.read_csv(path)
    assert list(plain.columns) == list(res.frame.columns) and len(plain) == 50
    with open(path, newline="") as fh:
        assert next(csv.reader(fh)) == list(res.frame.columns)
    back = simulate.Results.load(path)
    assert back.meta["seed"] == 3 and back.meta["games"] == 50
    assert (tmp_path / "rows.csv.meta.json").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_metadata_added_to_a_parquet_footer_at_close_is_read(tmp_path):
    """A file whose stored Arrow schema was fixed when its writer opened, and whose metadata
    was added at close, still loads with its metadata."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    res = sample()
    table = pa.Table.from_pandas(res.frame, preserve_index=False)
    path = tmp_path / "r.parquet"
    with pq.ParquetWriter(path, table.schema) as writer:
        writer.write_table(table)
        writer.add_key_value_metadata({b"rumsim": json.dumps(res.meta).encode()})
    back = Results.load(path)
    assert back.meta == res.meta
    pd.testing.assert_frame_equal(back.frame, res.frame)
