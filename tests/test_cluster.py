"""The Dask backend gives the local backend's answer, whatever the workers, the block size or
a worker killed mid-run (DESIGN.md, "Beyond one machine").

One LocalCluster of 2 worker processes serves the module. Each test compares a run on it
with the same run in this process: the tallies that come back (sums, histograms, the seat
answer's text) must be identical, not merely close.
"""

from __future__ import annotations

import json
import os
import signal
import threading

import numpy as np
import pandas as pd
import pytest
from clitools import run_cli

import simulate
import simulate.cluster
from analyses.seats import SeatParts, SeatTally
from analyses.thresholds import ThresholdsAccumulator
from simulate.cluster import DaskBackend, backend_for, run_token
from simulate.errors import UserError

distributed = pytest.importorskip("distributed", reason="the Dask extra is not installed "
                                  "(pip install 'rumsim[dask]')")


@pytest.fixture(scope="module")
def cluster():
    with DaskBackend(cluster="local:2") as backend:
        yield backend


def seat_run(players: int, n: int, chunk: int, where=None, on_part=None, seed: int = 3):
    tally = SeatTally(players)

    def take(part):
        tally.merge(part[0])
        if on_part is not None:
            on_part()
    res = simulate.run("rum-rebellion", n, players=players, seed=seed, chunk_size=chunk,
                       part=SeatParts(players), on_part=take, keep=False, progress=False,
                       cluster=where)
    return tally, res


def same_tally(a: SeatTally, b: SeatTally) -> None:
    assert a.n == b.n
    for name in ("sums", "squares", "products"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


def test_a_cluster_gives_the_local_answer_bit_for_bit(cluster):
    local, _ = seat_run(4, 12_000, 1_000)
    remote, res = seat_run(4, 12_000, 1_000, where=cluster)
    same_tally(local, remote)
    assert res.meta["games"] == 12_000 and res.meta["where"].startswith("Dask at")


def test_the_block_size_changes_no_count(cluster):
    # Wins are 0/1 (or 1/k for ties): the per-seat sums of 0/1 wins are exact whatever the
    # split, so the shares agree exactly; sums of 1/k agree to rounding.
    a, _ = seat_run(3, 6_000, 500, where=cluster)
    b, _ = seat_run(3, 6_000, 1_777, where=cluster)
    assert a.n == b.n
    assert np.allclose(a.sums, b.sums, rtol=0, atol=1e-9)
    assert np.allclose(a.products, b.products, rtol=0, atol=1e-9)


def test_a_worker_killed_mid_run_changes_nothing(cluster):
    """Kill -9 a worker once the first block is back: Dask replays its blocks on the other
    worker (or its restarted self) and the answer is the same."""
    pids = cluster.client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = threading.Event()

    def kill_once():
        if not killed.is_set():
            killed.set()
            os.kill(victim, signal.SIGKILL)
    local, _ = seat_run(4, 200_000, 1_000)
    remote, res = seat_run(4, 200_000, 1_000, where=cluster, on_part=kill_once)
    assert killed.is_set() and victim not in cluster.client.run(os.getpid).values()
    same_tally(local, remote)
    assert res.meta["games"] == 200_000 and not res.meta["interrupted"]


def test_thresholds_histograms_come_back_identical(cluster):
    def play(where):
        total = [ThresholdsAccumulator()]

        def take(part):
            total[0] = total[0].merge(part)
        simulate.run("rum-runner", 9_000, policies="greedy", seed=2, chunk_size=1_000,
                     part=ThresholdsAccumulator.of, on_part=take, keep=False, progress=False,
                     cluster=where)
        return total[0]
    a, b = play(None), play(cluster)
    assert a.n == b.n == 9_000 and a.stranded == b.stranded
    assert np.array_equal(a.scores.counts, b.scores.counts) and a.scores.low == b.scores.low
    assert np.array_equal(a.turns.counts, b.turns.counts)


def test_rows_come_back_in_game_order(cluster):
    """With no part the rows travel: a run that keeps them equals the local run's frame."""
    frames = []
    simulate.run("montego-bay", 3_000, seed=8, chunk_size=400, on_chunk=frames.append,
                 keep=False, progress=False, cluster=cluster)
    local = simulate.run("montego-bay", 3_000, seed=8, progress=False)
    pd.testing.assert_frame_equal(pd.concat(frames, ignore_index=True), local.frame)


def test_precision_stops_at_the_same_game(cluster):
    def run(where):
        tally = SeatTally(4, sequential_plan=(0.05, 4_000))
        seq = tally.sequences[("ci", 0)]
        res = simulate.run("rum-rebellion", 50_000, seed=1, chunk_size=500,
                           part=SeatParts(4, ordered=True), on_part=lambda p: tally.merge(p[0]),
                           keep=False, progress=False, cluster=where,
                           stop_when=lambda _: seq.halfwidth() <= 0.02)
        return res.meta, seq.interval()
    (m1, i1), (m2, i2) = run(None), run(cluster)
    assert m1["stop_condition_met"] and m1["games"] == m2["games"] < 50_000
    assert (i1.estimate, i1.low, i1.high) == (i2.estimate, i2.low, i2.high)


def test_the_task_keys_name_the_run():
    a = simulate.blocks.Job("rum-runner", simulate.runner.resolve("rum-runner")[1], (), 1, 0)
    b = simulate.blocks.Job("rum-runner", simulate.runner.resolve("rum-runner")[1], (), 1, 1)
    assert run_token(a) != run_token(b) and run_token(a) == run_token(a)


def test_the_cli_answer_is_the_same_with_cluster(capsys):
    args = ("seats", "montego-bay", "-p", "3", "-n", "20000", "-q")
    code, local, _ = run_cli(capsys, *args)
    code2, remote, _ = run_cli(capsys, *args, "--cluster", "local:2")
    assert code == code2 == 0 and local == remote and "win share" in local.lower()


@pytest.mark.parametrize("flags, message", [
    (("--cluster", "local:0"), "--cluster 'local:0' is not local:N"),
    (("--cluster", "yarn"), "--cluster 'yarn' is not local:N"),
    (("--cluster", "local:2", "--scheduler", "tcp://127.0.0.1:1"), "not both"),
    (("--cluster", "local:2", "--workers", "1"), "--workers sets this machine's threads"),
])
def test_bad_cluster_flags_are_one_line(capsys, flags, message):
    code, text, err = run_cli(capsys, "seats", "rum-rebellion", "-n", "100", "-q", *flags)
    assert code == 2 and text == "" and message in err and len(err.strip().splitlines()) == 1


def test_without_dask_the_flags_say_how_to_install_it(monkeypatch, capsys):
    import builtins

    real = builtins.__import__

    def no_distributed(name, *args, **kwargs):
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError(name)
        return real(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(UserError, match=r"pip install 'rumsim\[dask\]'"):
        backend_for("local:2", None)
    code, _, err = run_cli(capsys, "thresholds", "-n", "100", "-q", "--cluster", "local:2")
    assert code == 2 and err.strip() == ("rumsim: error: --cluster and --scheduler need Dask's "
                                         "distributed scheduler: pip install 'rumsim[dask]'")


def test_the_scheduler_variable_is_read(monkeypatch):
    monkeypatch.setenv("RUMSIM_SCHEDULER", "tcp://127.0.0.1:9")
    backend = backend_for(None, None)
    assert isinstance(backend, DaskBackend) and backend.address == "tcp://127.0.0.1:9"
    monkeypatch.delenv("RUMSIM_SCHEDULER")
    assert backend_for(None, None) is None


def test_an_unreachable_scheduler_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(simulate.cluster, "CONNECT_SECONDS", 1)
    code, _, err = run_cli(capsys, "seats", "rum-rebellion", "-n", "100", "-q", "--scheduler",
                           "tcp://127.0.0.1:9")
    assert code == 2 and "cannot start or reach a Dask cluster there" in err
    assert len(err.strip().splitlines()) == 1


def test_a_stop_signal_ends_a_cluster_run_at_a_block_and_cancels_the_rest(cluster):
    """Ctrl-C works as on this machine: the run ends after the block being consumed, keeps
    every block before it, and no block is left running on the cluster."""
    import time

    seen = []

    def take(part):
        seen.append(part[0].n)
        if len(seen) == 2:
            os.kill(os.getpid(), signal.SIGINT)
    res = simulate.run("rum-rebellion", 400_000, players=4, seed=3, chunk_size=2_000,
                       part=SeatParts(4), on_part=take, keep=False, progress=False,
                       cluster=cluster)
    assert res.meta["interrupted"] and res.meta["games"] == 4_000 and seen == [2_000, 2_000]
    deadline = time.monotonic() + 30
    while any(cluster.client.processing().values()):
        assert time.monotonic() < deadline, cluster.client.processing()
        time.sleep(0.1)


def test_scheduler_flag_and_variable_send_the_run_to_an_existing_cluster(cluster, capsys,
                                                                         monkeypatch):
    address = cluster.client.scheduler.address
    args = ("thresholds", "-n", "20000", "-q", "--policy", "greedy")
    code, local, _ = run_cli(capsys, *args)
    code2, remote, _ = run_cli(capsys, *args, "--scheduler", address)
    monkeypatch.setenv("RUMSIM_SCHEDULER", address)
    code3, by_variable, _ = run_cli(capsys, *args)
    assert code == code2 == code3 == 0 and local == remote == by_variable


@pytest.mark.parametrize("args", [
    ("variants", "rum-rebellion", "--preset", "short_a", "-n", "6000", "-q"),
    ("matchup", "montego-bay", "--policy", "random", "-n", "3000", "-p", "3", "-q"),
], ids=["variants", "matchup"])
def test_lockstep_commands_give_the_local_answer_on_a_cluster(cluster, capsys, args):
    """Arms in lockstep (base and variants; the rotations of a matchup) travel as one frame
    per arm and block, and the answer is the local one."""
    code, local, _ = run_cli(capsys, *args)
    code2, remote, _ = run_cli(capsys, *args, "--scheduler", cluster.client.scheduler.address)
    assert code == code2 == 0 and local == remote


def test_a_tuning_race_gives_the_local_answer_on_a_cluster(cluster, capsys):
    """Every look of a race is a lockstep run; on a cluster the race drops the same settings
    at the same looks and answers the same (apart from the time it took)."""
    args = ("tune", "rum-runner", "--knob", "draw_count=2,3,4", "--knob", "flip_after_draw",
            "--goal", "band_distance=0", "--budget", "60_000", "-q", "--format", "json")

    def answer(*extra):
        code, text, _ = run_cli(capsys, *args, *extra)
        assert code == 0
        data = json.loads(text)
        for a in data["answers"]:
            a.pop("seconds")
        return data

    assert answer() == answer("--scheduler", cluster.client.scheduler.address)


def test_a_report_page_built_on_a_cluster_has_the_same_tables(cluster):
    from reports.build import PAGES

    page = PAGES["montego-bay"]
    specs = page.plan(0.001)
    here = page.render(page.run_plan(specs, progress=False), "cmd")
    there = page.render(page.run_plan(specs, progress=False, cluster=cluster), "cmd")
    for name, table in here.tables.items():
        if not name.endswith("_runs.csv"):  # times differ
            pd.testing.assert_frame_equal(table, there.tables[name])
