"""simulate.compile: the engines compiled ahead of play, one process per core."""

from __future__ import annotations

import pytest

from simulate import compile as ahead


def test_an_engine_is_ready_after_it(capsys):
    assert ahead.main(["rum-runner", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "compiling 1 engine (rum-runner)" in err and "Rum Runner engine ready in" in err
    # compiled (or loaded) now: one more game is quick and plays
    assert ahead.compile_engine("rum-runner") < 30


def test_an_unknown_game_is_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        ahead.main(["nosuch"])
    assert stop.value.code == 2 and "unknown game 'nosuch'" in capsys.readouterr().err
