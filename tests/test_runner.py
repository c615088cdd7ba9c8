"""The runner: same seed, same rows, whatever the threads, chunks or backend; Ctrl-C keeps what finished."""

from __future__ import annotations

import os
import signal

import pandas as pd
import pytest

import simulate
from simulate.errors import UserError


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_same_rows_for_any_thread_count_and_chunk_size(policy):
    one = simulate.run("rum-runner", 3000, policies=policy, seed=11, workers=1, chunk_size=3000)
    two = simulate.run("rum-runner", 3000, policies=policy, seed=11, workers=2, chunk_size=3000)
    small = simulate.run("rum-runner", 3000, policies=policy, seed=11, workers=2, chunk_size=417)
    pd.testing.assert_frame_equal(one.frame, two.frame)
    pd.testing.assert_frame_equal(one.frame, small.frame)
    assert two.meta["workers"] == 2 and small.meta["chunk_size"] == 417


def test_same_rows_for_fast_and_reference_backends():
    rules = {"flip_after_draw": False}
    fast = simulate.run("rum-runner", 150, rules=rules, policies="greedy", seed=4)
    ref = simulate.run("rum-runner", 150, rules=rules, policies="greedy", seed=4,
                       backend="reference")
    pd.testing.assert_frame_equal(fast.frame, ref.frame)


def test_a_later_slice_equals_the_same_games_of_a_longer_run():
    whole = simulate.run("rum-runner", 500, policies="random", seed=3)
    tail = simulate.run("rum-runner", 200, policies="random", seed=3, first_game=300)
    pd.testing.assert_frame_equal(whole.frame.iloc[300:].reset_index(drop=True), tail.frame)


def test_different_seeds_give_different_games():
    a = simulate.run("rum-runner", 200, policies="random", seed=1)
    b = simulate.run("rum-runner", 200, policies="random", seed=2)
    assert not a.frame["score_0"].equals(b.frame["score_0"])


def test_metadata_says_how_the_rows_were_made():
    res = simulate.run("rum-runner", 100, rules={"flip_after_draw": "false"},
                       policies="greedy:draw_threshold=3", seed=8, workers=1)
    meta = res.meta
    assert meta["game"] == "rum-runner" and meta["games"] == 100 and meta["seed"] == 8
    assert meta["policies"] == ["greedy:draw_threshold=3"]
    assert meta["rules"]["flip_after_draw"] is False
    assert meta["rules_changed"] == "flip_after_draw=false"
    assert meta["interrupted"] is False and meta["elapsed_s"] >= 0
    assert {"numba", "numpy", "python", "rumsim"} <= set(meta["versions"])


def test_ctrl_c_stops_after_the_current_chunk_and_keeps_it():
    seen = []
    before = signal.getsignal(signal.SIGINT)  # whatever this test process had

    def interrupt_after_first(frame):
        seen.append(len(frame))
        if len(seen) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    res = simulate.run("rum-runner", 1000, policies="random", seed=5, chunk_size=100,
                       on_chunk=interrupt_after_first)
    assert res.meta["interrupted"] is True
    assert len(res.frame) == res.meta["games"] == 100 * len(seen)
    assert len(seen) < 10
    full = simulate.run("rum-runner", len(res.frame), policies="random", seed=5)
    pd.testing.assert_frame_equal(res.frame, full.frame)
    # the handler is restored afterwards
    assert signal.getsignal(signal.SIGINT) is before


def test_a_stop_condition_ends_the_run_at_a_chunk_boundary():
    scores = []

    def enough(frame):
        scores.extend(frame["score_0"].tolist())
        return sum(scores) >= 20_000

    res = simulate.run("rum-runner", 10_000, policies="random", seed=7, chunk_size=100,
                       stop_when=enough)
    played = res.meta["games"]
    assert res.meta["stop_condition_met"] is True and res.meta["interrupted"] is False
    assert played % 100 == 0 and played < 10_000 and len(res.frame) == played
    assert res.frame["score_0"].sum() >= 20_000 > res.frame["score_0"][:played - 100].sum()
    full = simulate.run("rum-runner", played, policies="random", seed=7)
    pd.testing.assert_frame_equal(res.frame, full.frame)
    never = simulate.run("rum-runner", 300, policies="random", seed=7, chunk_size=100,
                         stop_when=lambda frame: False)
    assert never.meta["games"] == 300 and never.meta["stop_condition_met"] is False


def test_aggregating_without_keeping_rows():
    total = []
    res = simulate.run("rum-runner", 1000, policies="random", seed=6, chunk_size=250,
                       on_chunk=lambda f: total.append(int(f["score_0"].sum())), keep=False)
    assert len(res.frame) == 0 and res.meta["games"] == 1000 and len(total) == 4
    kept = simulate.run("rum-runner", 1000, policies="random", seed=6)
    assert sum(total) == int(kept.frame["score_0"].sum())


def test_runner_rejects_bad_requests():
    with pytest.raises(UserError):
        simulate.run("rum-runner", 10, workers=99)
    with pytest.raises(UserError):
        simulate.run("rum-runner", 10, seed=-3)
    with pytest.raises(UserError):
        simulate.run("rum-runner", 10, backend="gpu")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_keeps_what_finished_and_exits_130(tmp_path, monkeypatch, capsys, sig):
    """A signal during a command's run: the run stops at the next chunk boundary, the rows
    that finished are written, no temporary file is left and the exit code is 130."""
    import simulate.blocks as blocks
    from reports.cli import main

    real = blocks.to_frame
    calls = []

    def signalling(block, columns):
        calls.append(len(block))
        if len(calls) == 1:
            os.kill(os.getpid(), sig)
        return real(block, columns)

    monkeypatch.setattr(blocks, "to_frame", signalling)
    before = signal.getsignal(sig)
    out = tmp_path / "rows.parquet"
    code = main(["run", "rum-runner", "-n", "500000", "--policy", "random", "-q",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 130 and "rumsim: interrupted" in err and "Traceback" not in err
    kept = simulate.Results.load(out)
    assert len(kept.frame) == calls[0] < 500_000 and kept.meta["interrupted"] is True
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert signal.getsignal(sig) is before  # the handlers are put back


def test_after_a_stop_a_command_plays_no_later_run():
    """Within one command, a stop ends the run in progress and refuses every later run, so no
    later answer is presented as complete."""
    from simulate.errors import Interrupted
    from simulate.runner import command_scope

    def stop_after_first(frame):
        os.kill(os.getpid(), signal.SIGTERM)

    with command_scope():
        first = simulate.run("rum-runner", 1000, policies="random", seed=5, chunk_size=100,
                             on_chunk=stop_after_first)
        assert first.meta["interrupted"] is True and len(first.frame) == 100
        with pytest.raises(Interrupted):
            simulate.run("rum-runner", 1000, policies="random", seed=5)
    # outside a command each run has its own flag again
    assert not simulate.run("rum-runner", 200, policies="random", seed=5).meta["interrupted"]


def test_without_a_terminal_long_runs_say_how_far_they_are(capsys):
    from simulate.runner import _LineBar, _NoBar, _progress_bar

    bar = _LineBar(1_000, "seats", every=0.0)
    with bar:
        bar.advance(250)
        bar.advance(750)  # the last block: the command's answer follows, no line
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("seats: 250 of 1,000 games (25%)")
    assert "games/s" in err[0] and "s left" in err[0]
    quiet = _LineBar(1_000, "seats")  # every 30 s: a short run says nothing
    quiet.advance(10)
    assert capsys.readouterr().err == ""
    assert isinstance(_progress_bar(None, 10, "x"), _LineBar)  # pytest's stderr is no terminal
    assert isinstance(_progress_bar(False, 10, "x"), _NoBar)   # --quiet
