"""The HTML balance report: files written, figures embedded, reproduction command, computed reading.

The page is built on the reference backend at a tiny scale (rollout with 2
samples) so the test does not depend on the fast engine or its compile time.
"""

from __future__ import annotations

import base64
import importlib.util
import re

import numpy as np
import pandas as pd
import pytest
from conftest import quick_ladder

import reports.rum_runner as rr
from engines.rum_runner.rules import Rules
from reports import figures
from reports.build import PAGES, build_report, report_command
from reports.html import Page, format_cell
from simulate.errors import UserError
from simulate.results import Results

SCALE = 0.001  # 400 greedy/expert games per preset, 2 games of each search over the expert


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "site"
    with pytest.MonkeyPatch.context() as mp:
        quick_ladder(mp, rr)
        # The Rum Runner page alone: the whole report is built once, in
        # test_report_montego_bay.py (it checks the index of every page).
        written = build_report(out, games=["rum-runner"], scale=SCALE, backend="reference",
                               progress=False)
    return out, written


def test_report_writes_pages_and_tables(built):
    out, written = built
    names = {p.name for p in written}
    assert {"index.html", "rum_runner.html", "rum_runner_bands.csv", "rum_runner_edges.csv",
            "rum_runner_calibrated.csv", "rum_runner_summary.csv", "rum_runner_runs.csv",
            "rum_runner_skills.csv"} <= names
    assert written[-1].name == "index.html"
    assert all(p.exists() and p.parent == out for p in written)
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]  # atomic writes left nothing
    assert 'href="rum_runner.html"' in (out / "index.html").read_text()


def test_page_embeds_png_figures(built):
    out, _ = built
    html = (out / "rum_runner.html").read_text()
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    # the strength ladder's scores; which choices matter; distribution + bands for each
    # preset, the edges chart, the policy ladder, tune (one goal, for greedy and for the expert)
    assert len(images) == 10
    assert "Which choices matter" in html and "rumsim restrict rum-runner" in html
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert "<script" not in html and "http" not in html.split("<body>")[1]  # self-contained


def test_page_states_how_it_was_made(built):
    out, _ = built
    html = (out / "rum_runner.html").read_text()
    assert f"rumsim report rum-runner --out {out} --scale 0.001 --backend reference" in html
    assert "&quot;&gt;200&quot;" in html and "&quot;&lt;200&quot;" in html  # the typo note
    assert "flip_after_draw=false" in html
    for label in ("greedy (standard)", "expert (long)",
                  "expert + search, 2 imagined games per option at each decision (long)"):
        assert label in html
    assert "Seeds: 1;" in html and "whole page:" in html and "\x00" not in html


def test_csv_tables_are_tidy(built):
    out, _ = built
    bands = pd.read_csv(out / "rum_runner_bands.csv")
    assert len(bands) == 6 * 8  # six bands for eight runs (four skill levels, two presets)
    assert bands["printed"].iloc[0] == "<200"
    runs = pd.read_csv(out / "rum_runner_runs.csv")
    # the eight band runs, then the ladder's three (every policy on the same deals)
    assert list(runs["games"]) == [400, 400, 2, 2, 400, 400, 2, 2, 2, 2, 2]
    skills = pd.read_csv(out / "rum_runner_skills.csv")
    assert list(skills["level"]) == ["beginner", "expert", "expert + search",
                                     "best measured"] * 2
    assert set(skills["preset"]) == {"standard", "long"}
    assert set(runs["preset"]) == {"standard", "long"}
    calibrated = pd.read_csv(out / "rum_runner_calibrated.csv")
    assert (calibrated.groupby("label")["edge"].apply(lambda e: e.is_monotonic_increasing)).all()


def fake(scores, policy, preset) -> Results:
    rules = Rules.from_overrides({}, preset=preset)
    frame = pd.DataFrame({"score_0": np.asarray(scores), "turns": 16, "end_reason": 0})
    return Results(frame, {"policies": [policy], "rules": rules.to_dict(), "seed": 5,
                           "rules_changed": rules.describe(), "preset": preset,
                           "backend": "fast", "elapsed_s": 0.5})


def test_reading_is_computed_from_the_numbers():
    # Greedy's scores fall into the printed bands exactly in the target split.
    on_target = np.repeat([100, 220, 270, 310, 330, 400], [800, 500, 300, 200, 120, 80])
    page = rr.PAGE.render({"random (standard)": fake(np.full(100, 90), "random", "standard"),
                           "greedy (long)": fake(on_target, "greedy", "long")},
                          command="rumsim report rum-runner --out X")
    assert re.search(r"they fit the beginner \(greedy\) best, with 0\.0% \[0\.0, [0-9.]+\] "
                     r"of its games in the wrong band; they are shown within our 10% margin "
                     r"only for the beginner \(greedy\) \(long\)", page.html)
    # a hundred games on target are too few to tell: the interval straddles the margin
    few = rr.PAGE.render({"greedy (long)": fake(np.repeat([100, 220, 270, 310, 330, 400],
                                                          [40, 25, 15, 10, 6, 4]),
                                                "greedy", "long")}, command="c")
    assert "no level is shown within our 10% margin" in few.html
    assert "Simulation time: 1.0 s." in page.html
    assert "100.0% of games by random end &#x27;broke&#x27;" in page.html
    assert "rumsim report rum-runner --out X" in page.html
    off = rr.PAGE.render({"random (standard)": fake(np.full(100, 90), "random", "standard")},
                         command="c")
    assert "not calibrated for any player" in off.html
    assert "no game reaches" in off.html
    both = rr.PAGE.render({"random (standard)": fake(np.full(100, 90), "random", "standard"),
                           "random (long)": fake(np.full(100, 150), "random", "long")},
                          command="c")
    assert "Mean score, standard -&gt; long rules: random 90 -&gt; 150." in both.html
    assert set(off.tables) == {"rum_runner_runs.csv", "rum_runner_bands.csv",
                               "rum_runner_edges.csv", "rum_runner_calibrated.csv",
                               "rum_runner_summary.csv"}
    assert "rum_runner_skills.csv" in page.tables  # greedy: the beginner's row


def test_plan_scales_counts_and_rejects_bad_scale():
    full = [s for s in rr.plan() if not s.together]  # the bands' runs (not the ladder's)
    assert [(s.preset, s.policy) for s in full] == [
        (p, q) for p in rr.PRESETS for q in ("greedy", "expert", "rollout:samples=8:base=expert",
                                             "rollout:base=expert")]
    assert full[2].label == "expert + search, 8 imagined games per option at each decision " \
        "(standard)"
    assert {s.games for s in full} == {rr.FAST_GAMES, rr.ROLLOUT_GAMES}
    assert {s.games for s in rr.plan(1e-9) if not s.together} == {1}
    with pytest.raises(UserError):
        rr.plan(0)


def test_build_rejects_unknown_game_and_bad_out(tmp_path):
    with pytest.raises(UserError, match="did you mean 'rum-runner'"):
        build_report(tmp_path, games=["rum-runer"])
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserError, match="not a folder"):
        build_report(tmp_path / "file", scale=0.001, backend="reference")
    assert "rum-runner" in PAGES


def test_missing_fast_engine_is_a_user_error(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError, match="backend='reference'"):
        rr.PAGE.run_plan(rr.plan(1e-9), backend="fast")


def test_report_command_lists_only_non_default_settings():
    assert report_command("out", ["rum-runner"]) == "rumsim report rum-runner --out out"
    assert report_command("o", ["rum-runner"], 0.5, "reference").endswith(
        "--scale 0.5 --backend reference")


def test_html_builder_escapes_and_formats():
    page = Page("A <b> title")
    page.table(pd.DataFrame({"x": [1.23456, float("nan")], "s": ["<200", "ok"]}),
               formats={"x": "{:.1f}"})
    html = page.render()
    assert "A &lt;b&gt; title" in html and "&lt;200" in html and "<td class=\"num\">1.2</td>" in html
    assert format_cell(np.int64(1234)) == "1,234" and format_cell(float("inf")) == "-"


def test_figures_render_png_even_for_an_empty_run():
    scores = {"a": np.array([10, 200, 260]), "b": np.array([], dtype=int)}
    assert figures.score_distribution(scores, Rules(), "t").startswith(b"\x89PNG")
