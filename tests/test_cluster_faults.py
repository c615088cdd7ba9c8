"""A cluster that fails: one line and a bounded wait, never a hang, a traceback or lost work.

Each case was found by an outside audit (issue 24, items 11-13): a "scheduler" that never
speaks Dask held rumsim for good; a scheduler with no worker ignored SIGTERM for two minutes
and then crashed in the error handler; a scheduler killed mid-run discarded every finished
block; a terminal's Ctrl-C to a local cluster printed dozens of lines of worker tracebacks;
a cluster given up on could leave worker processes behind.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest
from clitools import run_cli

import simulate
import simulate.cluster
from simulate.cluster import DaskBackend
from simulate.errors import UserError

distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed")
ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def rumsim(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "reports.cli", *args], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


@pytest.fixture
def silent_server():
    """A TCP server that accepts connections and never says a word (as an HTTP server
    waiting for a request does)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []

    def accept():
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return
    threading.Thread(target=accept, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    server.close()
    for conn in held:
        conn.close()


@pytest.fixture(scope="module")
def empty_scheduler():
    """A scheduler with no worker."""
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp",
                                  dashboard_address=":0") as c:
        yield c.scheduler_address


def test_a_server_that_is_not_a_scheduler_is_one_line(monkeypatch, capsys, silent_server):
    monkeypatch.setattr(simulate.cluster, "CONNECT_SECONDS", 1)
    start = time.monotonic()
    code, out, err = run_cli(capsys, "run", "rum-rebellion", "-n", "100", "-q",
                             "--scheduler", silent_server)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "nothing there answered as a Dask scheduler within 1 s" in err
    assert time.monotonic() - start < 30


def test_a_scheduler_without_workers_is_one_line(monkeypatch, capsys, empty_scheduler):
    monkeypatch.setattr(simulate.cluster, "WORKER_SECONDS", 1)
    code, out, err = run_cli(capsys, "run", "rum-rebellion", "-n", "100", "-q",
                             "--scheduler", empty_scheduler)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert "no worker joined the scheduler within 1 s" in err


def test_sigterm_while_waiting_for_a_worker_stops_at_once(empty_scheduler):
    victim = rumsim("run", "rum-rebellion", "-n", "100", "-q", "--scheduler", empty_scheduler)
    time.sleep(6)  # imports and connecting; then it waits (60 s) for a worker
    assert victim.poll() is None
    sent = time.monotonic()
    victim.send_signal(signal.SIGTERM)
    out, err = victim.communicate(timeout=60)
    assert time.monotonic() - sent < 10
    assert victim.returncode == 130 and out == ""
    assert err.strip() == ("rumsim: interrupted: stopped while waiting for a worker to join "
                           "the scheduler; no game was played")


def test_a_scheduler_lost_mid_run_keeps_what_finished(tmp_path):
    """The scheduler is killed once the first rows are written: the rows that finished are
    saved (marked partial), the answer is shown, and one line says what failed; exit 1."""
    simulate.run("rum-rebellion", 1, players=4, progress=False)  # compiled once, here
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli"]
    scheduler = subprocess.Popen([*dask[:2], "distributed.cli.dask_scheduler", "--port",
                                  str(port), "--no-dashboard"], env=ENV,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([*dask[:2], "distributed.cli.dask_worker", address,
                               "--nthreads", "1", "--no-dashboard"], env=ENV,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = tmp_path / "rows.parquet"
    try:
        victim = rumsim("run", "rum-rebellion", "-n", "1e8", "-q", "--scheduler", address,
                        "--out", str(out))
        deadline = time.monotonic() + 240
        while not any(p.stat().st_size for p in tmp_path.glob(".rows.parquet.*.tmp")):
            assert victim.poll() is None, victim.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        scheduler.kill()
        text, err = victim.communicate(timeout=120)
    finally:
        for p in (scheduler, worker):
            p.kill()
            p.wait()
    assert victim.returncode == 1, err
    assert text.startswith("PARTIAL: interrupted after ")
    last = err.strip().splitlines()[-1]
    assert last.startswith("rumsim: error: the Dask cluster failed after ")
    assert last.endswith("what finished is kept and shown above")
    rows = pd.read_parquet(out)
    assert 0 < len(rows) < 1e8 and f"{len(rows):,} games" in text
    assert "Traceback" not in err


def test_ctrl_c_from_a_terminal_to_a_local_cluster_is_quiet(tmp_path):
    """A terminal sends Ctrl-C to the whole process group, workers included: rumsim stops
    at a block and says so in a line or two; the workers do not print their tracebacks."""
    folder = tmp_path / "ck"
    victim = rumsim("run", "rum-rebellion", "-n", "1e8", "-q", "--cluster", "local:2",
                    "--checkpoint", str(folder), start_new_session=True)
    deadline = time.monotonic() + 240
    while not list(folder.glob("run-0/block-*.npz")):
        assert victim.poll() is None, victim.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.1)
    os.killpg(victim.pid, signal.SIGINT)
    out, err = victim.communicate(timeout=120)
    assert victim.returncode == 130
    assert out.startswith("PARTIAL: interrupted after ")
    assert err.strip().splitlines() == [
        err.strip().splitlines()[0], "rumsim: interrupted"], err
    assert err.startswith("interrupted: kept the ") and "Traceback" not in err


def _dask_children() -> set[int]:
    """This process's living worker processes (a zombie has exited: it is not left over)."""
    out = set()
    for p in psutil.Process().children(recursive=True):
        try:
            line = " ".join(p.cmdline())
        except (psutil.ZombieProcess, psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if "spawn_main" in line or "dask" in line:
            out.add(p.pid)
    return out


def test_a_cluster_that_does_not_start_in_time_leaves_no_process(monkeypatch):
    before = _dask_children()
    monkeypatch.setattr(simulate.cluster, "START_SECONDS", 0.2)
    with pytest.raises(UserError, match=r"--cluster local:2: its workers did not start "
                                        r"within 0.2 s"):
        with DaskBackend(cluster="local:2"):
            pass
    deadline = time.monotonic() + 120
    while _dask_children() - before:  # the late cluster is closed as soon as it is made
        assert time.monotonic() < deadline, _dask_children() - before
        time.sleep(0.5)
