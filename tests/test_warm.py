"""A run says when it is compiling its engine, once, and its rate excludes the compile."""

from __future__ import annotations

import time

import simulate
import simulate.warm as warm


def test_a_slow_engine_load_is_said_once_and_quiet_keeps_quiet(monkeypatch, capsys):
    monkeypatch.setattr(warm, "_READY", set())
    monkeypatch.setattr(warm, "SAY_AFTER", 0.05)
    monkeypatch.setattr(warm, "TICK", 0.1)
    calls = []

    original = warm.play_one

    def slow(info):  # a compile that takes a while
        calls.append(info.name)
        time.sleep(0.35)
        return original(info)

    monkeypatch.setattr(warm, "play_one", slow)
    res = simulate.run("rum-runner", 50, policies="random", progress=None)
    err = capsys.readouterr().err
    assert calls == ['rum-runner'] and res.meta["games"] == 50
    assert err.startswith("compiling the Rum Runner engine, once for this machine")
    assert "  still compiling the Rum Runner engine: " in err
    assert "the Rum Runner engine is ready" in err
    # the run's clock starts after the compile: its seconds exclude the 0.35 s
    assert res.meta["elapsed_s"] < 0.35
    simulate.run("rum-runner", 50, policies="random", progress=None)  # once a process
    assert calls == ['rum-runner'] and capsys.readouterr().err == ""
    monkeypatch.setattr(warm, "_READY", set())
    simulate.run("rum-runner", 50, policies="random", progress=False)  # --quiet
    assert calls == ['rum-runner'] * 2 and capsys.readouterr().err == ""
