"""The 21 Motines report page: built on the reference backend at a tiny scale, and its answer
read from synthetic runs whose seat shares are known."""

from __future__ import annotations

import base64
import re

import numpy as np
import pandas as pd
import pytest

import reports.motines as mo
from engines.motines.rules import Rules
from simulate.results import Results

SCALE = 0.0005  # 50 games per run (15 runs)


@pytest.fixture(scope="module")
def page():
    return mo.PAGE.build(scale=SCALE, backend="reference", progress=False, command="cmd")


def test_page_plays_both_policies_at_every_player_count(page):
    runs = page.tables["motines_runs.csv"]
    seats = runs[runs["preset"].isin(mo.SEAT_PRESETS)]
    assert sorted(zip(seats["preset"], seats["policy"], seats["players"], strict=True)) == \
        sorted((pr, po, p) for pr in mo.SEAT_PRESETS for po in mo.POLICIES
               for p in mo.PLAYER_COUNTS)
    others = runs[~runs["preset"].isin(mo.SEAT_PRESETS)]
    assert set(others["policy"]) == {"greedy"} and set(others["players"]) == {4}
    assert len(runs) == 15 and set(runs["games"]) == {50}


def test_seat_tables_keep_the_policy_apart(page):
    verdicts = page.tables["motines_seat_verdicts.csv"]
    assert list(verdicts.columns[:3]) == ["preset", "policy", "players"]
    assert len(verdicts) == 12 and not verdicts.duplicated(["preset", "policy", "players"]).any()
    seats = page.tables["motines_seats.csv"]
    total = seats.groupby(["preset", "policy", "players"])["share"].sum()
    assert np.allclose(total, 1.0)  # every game has one winner's share
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page.html)
    assert len(images) == 6  # seats per preset and policy (4), game length, scores
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)


def test_variants_compare_greedy_runs_only(page):
    variants = page.tables["motines_variants.csv"]
    assert set(variants["variant"]) == set(mo.VARIANTS)
    assert "Game length at 4 players (greedy)" in page.html
    assert "Paired on the same 50 games" in page.html


# ---------------------------------------------------------------- the answer, from known shares


def fake_run(preset: str, policy: str, players: int, weak: int, n: int = 4000,
             seed: int = 0) -> Results:
    """Games in which seat ``weak`` wins 5% and the others share the rest evenly."""
    rng = np.random.default_rng(seed)
    others = [s for s in range(players) if s != weak]
    winner = np.where(rng.random(n) < 0.05, weak, rng.choice(others, n))
    frame = pd.DataFrame({"game": np.arange(n), "players": players,
                          "rounds": rng.integers(20, 26, n), "truncated": 0})
    for s in range(players):
        frame[f"win_{s}"] = (winner == s).astype(float)
        frame[f"score_{s}"] = rng.integers(10, 30, n) + 10 * (winner == s)
    rules = Rules.from_overrides({}, preset=preset)
    return Results(frame, {"preset": preset, "players": players, "seed": 1,
                           "rules_changed": rules.describe(), "policies": [policy] * players,
                           "backend": "fast", "elapsed_s": 0.1, "games": n})


def test_reading_names_the_weakest_seat_per_policy():
    weak = {"random": 0, "greedy": 1}
    results = {}
    for spec in mo.plan(1.0):
        results[spec.label] = fake_run(spec.preset, spec.policy, spec.players,
                                       weak[spec.policy], seed=spec.players)
    html = mo.PAGE.render(results, "cmd").html
    assert "The weakest seat is seat 0 at 3 players" in html
    assert "seat 1 at 4 players" in html
    assert "below the fair share with 95% simultaneous confidence" in html
    assert "at 4 players seat 0 under random but seat 1 under greedy" in html
    assert "unbalanced at 3, unbalanced at 4 and unbalanced at 5 players" in html
