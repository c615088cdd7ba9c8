"""The Rum Rebellion report page: files, figures, reproduction command, and a reading computed
from the numbers.

The page is built on the reference backend at a tiny scale, so the test does
not depend on the fast engine or its compile time.
"""

from __future__ import annotations

import base64
import importlib.util
import re

import numpy as np
import pandas as pd
import pytest
from conftest import quick_ladder

import reports.rum_rebellion as rr
from engines.rum_rebellion.rules import Rules
from reports import figures
from reports.build import PAGES, build_report
from simulate.errors import UserError
from simulate.results import Results

SCALE = 0.002  # 260 games per run of the expert, 12 runs


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "site"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rr, "ROLLOUT_PARAMS", ":samples=1")  # keeps the search quick
        quick_ladder(mp, rr)
        written = build_report(out, games=["rum-rebellion"], scale=SCALE, backend="fast",
                               progress=False)
    return out, written


def test_page_tables_and_index_are_written(built):
    out, written = built
    names = {p.name for p in written}
    assert {"rum_rebellion.html", "index.html", "rum_rebellion_variants.csv",
            "rum_rebellion_lengths.csv", "rum_rebellion_rounds.csv", "rum_rebellion_seats.csv",
            "rum_rebellion_seat_verdicts.csv", "rum_rebellion_runs.csv"} <= names
    assert written[-1].name == "index.html"
    assert 'href="rum_rebellion.html"' in (out / "index.html").read_text()
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_page_embeds_two_png_figures(built):
    out, _ = built
    html = (out / "rum_rebellion.html").read_text()
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    # the strength ladder, the length ECDFs, the seat shares; the edge by policy, the variations' shifts by
    # policy, the skill ladder, the game feel; what would fix it (its length and edge); which
    # choices matter under the expert (restricted play: its declared choices)
    assert len(images) == 14  # and the shorter games among experts  # what would fix it: for the expert and for threshold; the answer
    assert "Which choices matter" in html
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert "<script" not in html and "http" not in html.split("<body>")[1]


def test_page_states_how_it_was_made(built):
    out, _ = built
    html = (out / "rum_rebellion.html").read_text()
    assert f"rumsim report rum-rebellion --out {out} --scale 0.002" in html
    assert "Seeds: 1;" in html and "whole page:" in html and "Simulation time:" in html
    assert ("Policies: expert, random, blocker, threshold, rollout:samples=1:base=expert."
            in html)
    # the expert's 12 runs of 260, each beginner's 12 of 70, the search's 12 of 2 (250 scaled,
    # at least 2), the ladder's 3 x 4 of 20 and the search's rung 4 of 2 (800 scaled, split)
    assert f"games: {12 * 260 + 36 * 70 + 12 * 2 + 12 * 20 + 4 * 2:,} in all; backend: fast" \
        in html
    for preset in rr.VARIANTS:
        assert preset in html
    assert "votes_for_coup=40" in html and "Holm" in html and "Wilson" in html


def test_csv_tables_are_tidy(built):
    out, _ = built
    variants = pd.read_csv(out / "rum_rebellion_variants.csv")
    assert list(dict.fromkeys(variants["variant"])) == list(rr.VARIANTS)
    assert {"rounds_mean", "rounds_p90", "first_player_edge", "score_spread"} <= set(
        variants["metric"])
    runs = pd.read_csv(out / "rum_rebellion_runs.csv")
    assert list(runs["games"][:12]) == [260] * 12  # the expert's; then the sensitivity's
    assert list(runs["policy"][:12]) == [rr.POLICY] * 12 and rr.POLICY == "expert"
    # the beginners beside the expert and the search in the sensitivity tables
    for name in ("sensitivity", "variant_sensitivity", "feel"):
        table = pd.read_csv(out / f"rum_rebellion_{name}.csv")
        assert set(table["policy"]) == set(rr.POLICIES), name
    ladder = pd.read_csv(out / "rum_rebellion_ladder.csv")
    assert list(ladder["weaker"]) == list(rr.POLICIES[:-1])  # blocker sits below threshold
    assert sorted(runs["players"].unique()) == [2, 3, 4, 5, 6]
    seats = pd.read_csv(out / "rum_rebellion_seats.csv")
    assert len(seats) == 2 + 3 + 4 + 5 + 6
    assert np.allclose(seats.groupby("players")["share"].sum(), 1.0)  # a winner every game
    rounds = pd.read_csv(out / "rum_rebellion_rounds.csv")
    assert np.allclose(rounds.groupby("rules")["cumulative"].max(), 1.0)
    lengths = pd.read_csv(out / "rum_rebellion_lengths.csv")
    assert lengths["rules"].iloc[0] == "standard" and len(lengths) == 1 + len(rr.VARIANTS)


# ---------------------------------------------------------------- the reading, on made-up data


def fake_run(preset: str, players: int, rounds: np.ndarray, first_wins: float = None,
             seed: int = 0) -> Results:
    """A results frame like the engine's: a random winner per game unless ``first_wins``."""
    rng = np.random.default_rng(seed)
    n = rounds.size
    winner = rng.integers(0, players, n)
    if first_wins is not None:
        winner = np.where(rng.random(n) < first_wins, 0, rng.integers(1, players, n))
    frame = pd.DataFrame({"game": np.arange(n), "players": players, "rounds": rounds,
                          "turns": rounds * players, "capped": 0})
    for s in range(players):
        frame[f"win_{s}"] = (winner == s).astype(float)
        frame[f"score_{s}"] = 1000 * (winner == s) + rng.integers(0, 300, n)
    rules = Rules.from_overrides({}, preset=preset)
    return Results(frame, {"preset": preset, "players": players, "seed": 1,
                           "rules_changed": rules.describe(), "policies": ["expert"] * players,
                           "backend": "fast", "elapsed_s": 0.25, "games": n})


def fake_results(cuts: dict[str, int], first_wins: dict[str, float] | None = None,
                 n: int = 2000) -> dict[str, Results]:
    base = np.random.default_rng(7).integers(15, 40, n)
    out = {"standard, 4 players": fake_run("standard", 4, base, seed=1)}
    for preset, cut in cuts.items():
        share = (first_wins or {}).get(preset)
        # The same winners as the base (seed 1) unless the first player's share is forced.
        out[f"{preset}, 4 players"] = fake_run(preset, 4, base - cut, share, seed=1)
    out["standard, 2 players"] = fake_run("standard", 2, base, seed=3)
    return out


def test_reading_names_the_variation_that_shortens_most():
    page = rr.PAGE.render(fake_results({"short_a": 2, "short_b": 9, "short_c": 0}), "cmd")
    assert "short_b (b: 4 Lose cards removed) shortens the game most" in page.html
    assert "2 of 3 variations shorten it significantly; the least is short_a" in page.html
    assert "No change in mean length detected for short_c" in page.html
    assert "not evidence of no change" in page.html
    other = rr.PAGE.render(fake_results({"short_a": 2, "short_d": 5}), "cmd")
    assert "short_d (d: 40 votes for a coup) shortens the game most" in other.html
    assert "Simulation time: 1.0 s." in other.html and "cmd" in other.html


def test_reading_reports_a_changed_first_player_edge():
    page = rr.PAGE.render(fake_results({"short_a": 2, "short_e_tol": 4},
                                       first_wins={"short_e_tol": 0.6}), "cmd")
    assert re.search(r"short_e_tol raises it by 3\d\.\d\d pp", page.html)
    assert "significant after Holm over the whole comparison" in page.html
    same = rr.PAGE.render(fake_results({"short_a": 2}), "cmd")
    assert "no variation&#x27;s change of it is detected" in same.html
    assert "not evidence that they leave it alone" in same.html


def test_longer_variations_and_seat_verdicts_are_reported():
    page = rr.PAGE.render(fake_results({"short_c": -6}), "cmd")
    assert "Among experts, no variation is shown to shorten the game" in page.html
    assert "Longer games under short_c (+6.00" in page.html
    assert "at 2 players (fair 50.0%)" in page.html


# ---------------------------------------------------------------- plan, errors, figures


def test_page_speaks_of_experts_first_then_beginners_then_search(built):
    out, _ = built
    html = (out / "rum_rebellion.html").read_text()
    answer = html.split('id="beginners"')[1].split("</details>")[0]
    assert "Among experts, " in answer and "first player&#x27;s edge among experts" in answer
    assert answer.index("Among experts") < answer.index("What beginners see differently")
    assert "edge among beginners is random " in answer and "threshold " in answer
    assert ("Does it survive a better player? One expert + search, 1 playouts per option of a "
            "searched decision among 3 experts") in answer
    assert "rollout" not in answer and "blocker" in answer
    asks = [q.ask for q in rr.FIX]
    assert rr.ASKED.fix_question == asks[0] and "(expert players)" in asks[0]
    assert len(set(asks)) == len(asks) and rr.FIX[1].policy == "threshold"


def test_plan_runs_every_preset_at_four_players_and_the_other_counts_once():
    full = [s for s in rr.plan() if s.policy == rr.POLICY]
    assert [(s.preset, s.players) for s in full] == (
        [("standard", 4), *[(p, 4) for p in rr.VARIANTS]] + [("standard", p) for p in (2, 3, 5, 6)])
    assert {s.games for s in full} == {rr.VARIANT_GAMES, rr.SEAT_GAMES}
    # the beginners and the search play the same settings at their own counts
    for policy, games in (("random", rr.OTHER_GAMES), ("blocker", rr.OTHER_GAMES),
                          ("threshold", rr.OTHER_GAMES),
                          ("rollout:samples=16:base=expert", rr.ROLLOUT_GAMES)):
        part = [s for s in rr.plan() if s.policy == policy]
        assert [(s.preset, s.players) for s in part] == \
            [(p, n) for p, n in ((s.preset, s.players) for s in full)]
        assert {s.games for s in part} == {games}
    full = rr.plan()
    assert len({s.label for s in full}) == len(full) and {s.seed for s in full} == {rr.SEED}
    assert {s.games for s in rr.plan(1e-9)} == {2}
    with pytest.raises(UserError):
        rr.plan(-1)


def test_missing_fast_engine_is_a_user_error(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError, match="backend='reference'"):
        rr.PAGE.run_plan(rr.plan(1e-9), backend="fast")


def test_page_is_registered_after_rum_runner():
    assert list(PAGES)[:2] == ["rum-runner", "rum-rebellion"]
    spec = PAGES["rum-rebellion"]
    assert (spec.filename, spec.blurb) == (rr.PAGE.filename, rr.PAGE.blurb)


def test_length_ecdf_renders_with_an_empty_run():
    png = figures.length_ecdf({"standard": np.array([3, 5, 5, 9]), "x": np.array([], dtype=int)},
                              "t", base="standard")
    assert png.startswith(b"\x89PNG")
