"""Where compile time goes: own times per function add up to the whole, and a function
compiled for two signatures is counted twice (what `rumsim bench --compile` lists)."""

from __future__ import annotations

import numba
import pytest
from clitools import run_cli

from simulate.compile_cost import cold, compile_times
from simulate.errors import UserError


def test_own_times_add_up_and_a_second_signature_is_counted():
    @numba.njit
    def inner(x):
        return x * 2

    @numba.njit
    def outer(x):
        return inner(x) + 1

    def work():
        outer(1)      # outer and inner for int64
        outer(1.5)    # both again for float64: a second signature each

    got = compile_times(work)
    by = {f["function"].rsplit(".", 1)[-1]: f for f in got["own"]}
    assert set(by) == {"inner", "outer"}
    assert by["inner"]["signatures"] == 2 and by["outer"]["signatures"] == 2
    assert got["functions"] == 2 and got["signatures"] == 4
    own = sum(f["seconds"] for f in got["own"])
    assert 0 < own <= got["seconds"] + 0.01
    assert own >= 0.5 * got["seconds"]  # the recorder sees the compiles, not just a sliver
    assert got["own"] == sorted(got["own"], key=lambda f: -f["seconds"])


def test_bench_compile_refuses_what_it_does_not_use(capsys):
    code, _, err = run_cli(capsys, "bench", "rum-runner", "--compile", "--policy", "greedy")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--compile" in err
    with pytest.raises(UserError, match="no-such-game"):
        cold("no-such-game")
