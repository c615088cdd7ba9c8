"""Checkpoints: a run killed with SIGKILL and resumed gives the answer of an unbroken run, bit
for bit, playing only the blocks it lacks; a checkpoint of other arguments is refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from clitools import run_cli

import simulate
import simulate.blocks as blocks
from analyses.seats import SeatParts, SeatTally
from simulate.checkpoint import Checkpoint, first_difference
from simulate.errors import UserError

ROOT = Path(__file__).resolve().parent.parent


def played_blocks(monkeypatch) -> list[int]:
    """The first game index of every block this process plays from now on."""
    seen: list[int] = []
    real = blocks.Job.play

    def play(self, start, count):
        seen.append(start)
        return real(self, start, count)
    monkeypatch.setattr(blocks.Job, "play", play)
    return seen


def seats_with(folder: Path, resume: bool, n: int = 5_000, seed: int = 4) -> SeatTally:
    tally = SeatTally(3)
    simulate.run("montego-bay", n, players=3, seed=seed, chunk_size=1_000,
                 part=SeatParts(3), on_part=lambda p: tally.merge(p[0]), keep=False,
                 progress=False, checkpoint=Checkpoint(folder, resume))
    return tally


def test_a_resumed_run_plays_only_the_missing_blocks(tmp_path, monkeypatch):
    whole = seats_with(tmp_path / "a", resume=False)
    folder = tmp_path / "b"
    seats_with(folder, resume=False)
    for name in ("block-000000001-1000-1000.npz", "block-000000003-3000-1000.npz"):
        (folder / "run-0" / name).unlink()
    seen = played_blocks(monkeypatch)
    again = seats_with(folder, resume=True)
    assert seen == [1000, 3000]
    assert again.n == whole.n and np.array_equal(again.sums, whole.sums)
    assert np.array_equal(again.products, whole.products)
    seen.clear()
    seats_with(folder, resume=True)  # complete: nothing to play
    assert seen == []


def test_a_write_cut_by_kill_leaves_no_half_block(tmp_path, monkeypatch):
    folder = tmp_path / "c"
    seats_with(folder, resume=False)
    (folder / "run-0" / "block-000000002-2000-1000.npz").rename(
        folder / "run-0" / ".block-000000002-2000-1000.npz.tmp")
    seen = played_blocks(monkeypatch)
    seats_with(folder, resume=True)
    assert seen == [2000] and not list((folder / "run-0").glob(".*.tmp"))


def test_other_arguments_are_refused_naming_the_difference(tmp_path):
    seats_with(tmp_path / "d", resume=False)
    with pytest.raises(UserError, match=r"was made with seed 4, not 5"):
        seats_with(tmp_path / "d", resume=True, seed=5)
    with pytest.raises(UserError, match=r"was made with games 5000, not 6000"):
        seats_with(tmp_path / "d", resume=True, n=6_000)
    with pytest.raises(UserError, match=r"already holds files: add --resume"):
        seats_with(tmp_path / "d", resume=False)


def test_first_difference_reads_nested_rules():
    assert first_difference({"rules": {"a": 1, "b": 2}}, {"rules": {"a": 1, "b": 3}}) == (
        "with rules b 2, not 3")
    assert first_difference({"rumsim": "0.1.0"}, {"rumsim": "0.2.0"}) == (
        'with rumsim "0.1.0", not "0.2.0"')
    assert first_difference({"x": 1}, {"x": 1}) is None


@pytest.mark.parametrize("args, message", [
    (("--resume",), "--resume continues a run saved with --checkpoint DIR"),
])
def test_resume_without_a_folder_is_one_line(capsys, args, message):
    code, text, err = run_cli(capsys, "seats", "rum-rebellion", "-n", "100", "-q", *args)
    assert code == 2 and text == "" and message in err


def test_a_rules_change_is_refused(tmp_path, capsys):
    folder = tmp_path / "e"
    assert run_cli(capsys, "thresholds", "-n", "2000", "-q", "--policy", "greedy",
                   "--checkpoint", str(folder))[0] == 0
    code, _, err = run_cli(capsys, "thresholds", "-n", "2000", "-q", "--policy", "greedy",
                           "--rule", "flip_after_draw=false", "--checkpoint", str(folder),
                           "--resume")
    assert code == 2 and "was made with rules flip_after_draw true, not false" in err


def rumsim(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "reports.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("command", [
    ("seats", "rum-rebellion", "-p", "4", "-n", "6e5", "-q"),
    ("variants", "rum-rebellion", "--preset", "short_a", "-n", "1e5", "-q",
     "--format", "json"),
], ids=["seats", "variants"])
def test_kill_9_then_resume_equals_an_unbroken_run(tmp_path, command):
    """SIGKILL a run once it has saved a block; the same command with --resume prints
    exactly what the run prints without any checkpoint."""
    folder = tmp_path / "ck"
    simulate.run("rum-rebellion", 1, players=4, progress=False)  # compiled once, here
    victim = rumsim(*command, "--checkpoint", str(folder))
    deadline = time.monotonic() + 300
    while len(list(folder.glob("run-0/block-*.npz"))) < 1:
        assert victim.poll() is None, victim.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    saved = len(list(folder.glob("run-0/block-*.npz")))
    total = 6 if command[0] == "seats" else 2  # variants: 2 arms share 100,000-row blocks
    assert 1 <= saved < total  # killed mid-run
    resumed = rumsim(*command, "--checkpoint", str(folder), "--resume")
    unbroken = rumsim(*command)
    (out_r, err_r), (out_u, err_u) = resumed.communicate(), unbroken.communicate()
    assert resumed.returncode == unbroken.returncode == 0, (err_r, err_u)
    if command[0] == "variants":  # the run's timing and where it ran differ, nothing else
        out_r, out_u = json.loads(out_r), json.loads(out_u)
        for meta in (out_r["meta"], out_u["meta"]):
            for key in ("elapsed_s", "checkpoint"):
                meta.pop(key, None)
    assert out_r == out_u
    assert len(list(folder.glob("run-0/block-*.npz"))) == total
