"""Shared test machinery: the one reference = fast harness every game's equivalence test calls.

``assert_same(info, rules, policy_text, players, seed, games)`` plays the
same games on both paths of a game (``GameInfo.reference`` and
``GameInfo.fast``) and fails, naming the first differing game and its
columns, unless every column of every game is identical.

Golden narrations: ``--update-golden`` rewrites ``tests/golden/*.txt`` from
the command on each file's first line (``make golden``); see test_golden.py.
"""

from __future__ import annotations

import numpy as np
import pytest


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/*.txt from the command on their first line")


def assert_same(info, rules, policy_text: str, players: int, seed: int, games: int,
                first: int = 0) -> np.ndarray:
    """Games first .. first + games - 1 of ``seed`` both ways; every column must match exactly.

    Returns the fast path's rows (for the test's own checks of what the games did).
    """
    policies = info.seat_policies(policy_text, players)
    fast = info.fast(rules, policies, players, seed, first, games)
    columns = info.column_names(players)
    assert fast.shape == (games, len(columns)) and fast.dtype == np.float64
    bad = []
    for j in range(games):
        row = info.reference(rules, policies, players, seed, first + j)
        diff = {c: (row[c], fast[j, k]) for k, c in enumerate(columns) if row[c] != fast[j, k]}
        if diff:
            bad.append((first + j, diff))
    if bad:
        game, diff = bad[0]
        pytest.fail(f"{info.name}: {len(bad)} of {games} games differ ({policy_text}, "
                    f"P={players}, seed {seed}, rules: {rules.describe()}); the first is game "
                    f"{game}: column (reference, fast) {diff}")
    return fast
