"""Temporary files: a writer killed outright leaves one behind; the next writer of the same name
removes it, and never one whose writer is still running or that is not rumsim's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import simulate
from simulate.results import atomic_write_text
from simulate.tempfiles import sweep_dead, temp_beside

ROOT = Path(__file__).resolve().parent.parent


def _dead_pid() -> int:
    """The id of a process that has exited (and been reaped), so no process has it now."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_dead_writers_file_is_swept_and_nothing_else(tmp_path):
    dead = _dead_pid()
    stale = tmp_path / f".rows.parquet.{dead}.k3j9.tmp"
    live = tmp_path / f".rows.parquet.{os.getpid()}.a1b2.tmp"   # a run writing right now
    other = tmp_path / f".notes.csv.{dead}.zz.tmp"              # another file's
    legacy = tmp_path / ".rows.parquet.k3j9xyz.tmp"             # no process id: not ours to judge
    for f in (stale, live, other, legacy):
        f.write_bytes(b"partial")
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep")
    link = tmp_path / f".rows.parquet.{dead}.link.tmp"
    link.symlink_to(target)
    assert sweep_dead(tmp_path, "rows.parquet") == [stale.name]
    assert not stale.exists()
    assert live.exists() and other.exists() and legacy.exists() and link.is_symlink()
    assert target.read_text() == "keep"


def test_a_new_temporary_file_carries_the_writers_id(tmp_path):
    tmp = Path(temp_beside(tmp_path / "answer.csv"))
    assert tmp.parent == tmp_path and tmp.name.startswith(f".answer.csv.{os.getpid()}.")
    assert tmp.name.endswith(".tmp") and tmp.read_bytes() == b""


def test_writing_a_file_sweeps_the_leftover_of_a_killed_write(tmp_path):
    stale = tmp_path / f".page.html.{_dead_pid()}.q.tmp"
    stale.write_bytes(b"<html")
    atomic_write_text(tmp_path / "page.html", "<html></html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]


def test_a_run_killed_mid_write_leaves_nothing_after_the_next_run(tmp_path):
    """SIGKILL a run writing --out rows.parquet while its temporary file grows; the next run
    of the same --out removes that file (before: it stayed for good, one per killed run)."""
    simulate.run("rum-rebellion", 1, players=4, progress=False)  # compiled once, here
    out = tmp_path / "rows.parquet"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    victim = subprocess.Popen([sys.executable, "-m", "reports.cli", "run", "rum-rebellion",
                               "-n", "1e8", "-q", "--out", str(out)], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not any(p.stat().st_size for p in tmp_path.glob(".rows.parquet.*.tmp")):
        assert victim.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    assert len(list(tmp_path.glob(".rows.parquet.*.tmp"))) == 1
    code = subprocess.run([sys.executable, "-m", "reports.cli", "run", "rum-rebellion", "-n",
                           "200", "-q", "--out", str(out)], cwd=ROOT, env=env,
                          capture_output=True).returncode
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.parquet"]
