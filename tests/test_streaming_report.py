"""The report pages keep no rows: each page's runs are tallied block by block (runs on the
same games in lockstep), and the page equals the one built from the runs' whole frames.

For every page, at a small scale and in blocks of 137 games: the page from
``run_plan`` (streamed) and the page rendered from each run's whole frame (played
separately, kept in memory) have the same tables, counts identical and every number equal
to floating-point rounding.
"""

from __future__ import annotations

import pandas as pd
import pytest

import simulate
import simulate.runner as runner
from engines import get_game
from reports.build import PAGES

SCALE = 0.004


def whole_frames(page, specs) -> dict:
    """Each planned run played on its own and kept whole (what the pages did before)."""
    info = get_game(page.game)
    out = {}
    for spec in specs:
        rules = info.rules_cls.from_overrides({}, preset=spec.preset)
        res = simulate.run(info, spec.games, rules=rules, policies=spec.policy,
                           players=spec.players, seed=spec.seed, progress=False)
        frame = res.frame[[c for c in res.frame if page.keeps(c)]]
        out[spec.label] = simulate.Results(frame, {**res.meta, "preset": spec.preset, **(
            {"together": spec.together} if spec.together else {})})
    return out


@pytest.mark.parametrize("name", list(PAGES))
def test_a_streamed_page_equals_the_page_of_whole_frames(monkeypatch, name):
    page = PAGES[name]
    specs = page.plan(SCALE)
    seen = []
    real = simulate.run

    def run(*args, **kwargs):
        seen.append(kwargs.get("keep", True))
        return real(*args, **kwargs)
    monkeypatch.setattr(runner, "default_chunk", lambda *args: 137)
    monkeypatch.setattr(simulate, "run", run)
    streamed = page.render(page.run_plan(specs, progress=False), "cmd")
    assert seen and not any(seen)  # no run of the page kept its rows
    monkeypatch.setattr(simulate, "run", real)
    whole = page.render(whole_frames(page, specs), "cmd")
    assert set(streamed.tables) == set(whole.tables)
    for table in streamed.tables:
        if table.endswith("_runs.csv"):  # the runs' times differ, and lockstep shares them
            assert list(streamed.tables[table]["games"]) == list(whole.tables[table]["games"])
            continue
        pd.testing.assert_frame_equal(streamed.tables[table], whole.tables[table],
                                      check_exact=False, rtol=1e-9, atol=1e-12)
