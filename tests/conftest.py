"""Shared test machinery: the one reference = fast harness every game's equivalence test calls.

``assert_same(info, rules, policy_text, players, seed, games)`` plays the
same games on both paths of a game (``GameInfo.reference`` and
``GameInfo.fast``) and fails, naming the first differing game and its
columns, unless every column of every game is identical.

Golden narrations: ``--update-golden`` rewrites ``tests/golden/*.txt`` from
the command on each file's first line (``make golden``); see test_golden.py.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

# The run store (simulate.store) is on by default for a user; a test that did not ask for it
# must neither read another test's games nor fill the user's cache folder. Tests of the store
# name their own folder (--store PATH, or RUMSIM_STORE set by monkeypatch).
os.environ["RUMSIM_STORE"] = "off"


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


# Each page's strength ladder with the search rungs at the smallest budgets that still
# double (the page's own budgets take minutes on the reference backend); the rungs below
# are the page's own.
QUICK_LADDERS = {
    "rum-and-pirates": ("random", "greedy", "expert", "rollout:base=expert:samples=1:width=2",
                        "rollout:base=expert:samples=2:width=2"),
    "motines": ("random", "greedy", "expert", "rollout:base=expert:samples=1:width=2",
                "rollout:base=expert:samples=2:width=2"),
    "montego-bay": ("random", "greedy", "expert", "sampler:base=expert:n_samples=2",
                    "sampler:base=expert:n_samples=4"),
    "rum-rebellion": ("random", "threshold", "expert", "rollout:base=expert:samples=2",
                      "rollout:base=expert:samples=4"),
    "rum-runner": ("random", "greedy", "expert", "rollout:base=expert:samples=1",
                   "rollout:base=expert:samples=2"),
}


def quick_ladder(mp: pytest.MonkeyPatch, module) -> None:
    """Give the report page of ``module`` (``reports.<game>``) its quick strength ladder,
    both as ``module.PAGE`` and in ``reports.build.PAGES``, for as long as ``mp`` lasts."""
    import dataclasses

    from reports.build import PAGES
    from reports.sections.strength import Strength

    page = module.PAGE
    sections = tuple(dataclasses.replace(s, rungs=QUICK_LADDERS[page.game])
                     if isinstance(s, Strength) else s for s in page.sections)
    if hasattr(module, "SKILLS"):  # Rum Runner's skill levels: the quick ladder's searches
        from engines import get_game
        from reports.sections.bands import ScoreBands

        rungs = [get_game(page.game).policy(r).label() for r in QUICK_LADDERS[page.game]]
        skills = (("beginner", "greedy"), ("expert", "expert"),
                  ("expert + search", rungs[3]), ("best measured", rungs[4]))
        mp.setattr(module, "SKILLS", skills)
        sections = tuple(dataclasses.replace(s, skills=skills)
                         if isinstance(s, ScoreBands) else s for s in sections)
    assert sections != page.sections, f"{page.game}'s page has no strength ladder"
    quick = dataclasses.replace(page, sections=sections)
    mp.setattr(module, "PAGE", quick)
    mp.setitem(PAGES, page.game, quick)
