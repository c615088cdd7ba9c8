"""Rum Runner's band edges per skill level: the edges give the target split on their own
games, one name per band on the page and at the terminal, 'overused' is never 'useless',
and the CLI's mistakes are one line with exit code 2. Small and seeded (fast path)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import reports.rum_runner as rr
import simulate
from analyses import restrict as R
from analyses.stats import Interval
from analyses.thresholds import (
    DEFAULT_TARGET,
    skill_bands,
)
from engines import get_game
from engines.rum_runner.rules import BAND_LABELS, BAND_NAMES, Rules
from reports.cli import main
from reports.sections.bands import skill_players
from simulate.results import Results

# The other names the same six bands have had (the sheet's lines, and two short sets).
OLD_NAMES = [label.rstrip(".") for label in BAND_LABELS] + ["fair", "good"]


def rumsim(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run(policy: str, games: int, preset: str = "standard", seed: int = 3) -> Results:
    info = get_game("rum-runner")
    rules = info.rules_cls.from_overrides({}, preset=preset)
    res = simulate.run(info, games, rules=rules, policies=policy, seed=seed, backend="fast",
                       progress=False, keep=True)
    res.meta["preset"] = preset
    return res


@pytest.fixture(scope="module")
def played():
    return {"beginner": run("greedy", 6_000), "expert": run("expert", 6_000)}


def below(scores: np.ndarray, edge: float) -> float:
    return float(np.mean(scores < edge))  # lower_inclusive: an edge starts its band


def test_skill_levels_come_from_the_ladder():
    levels = skill_players(get_game("rum-runner"))
    assert list(levels) == ["beginner", "expert", "expert + search", "best measured"]
    assert levels["beginner"] == "greedy" and levels["expert"] == "expert"
    assert "base=expert" in levels["expert + search"] and "base=expert" in levels["best measured"]


def test_edges_give_the_target_split_on_their_own_games(played):
    sb = skill_bands(played, DEFAULT_TARGET)
    cumulative = np.cumsum(DEFAULT_TARGET)[:5] / 100
    for level, res in played.items():
        scores = res.frame["score_0"].to_numpy()
        row = sb.row(level)
        for k, c in enumerate(cumulative, start=1):
            edge, low, high = row[f"edge_{k}"], row[f"edge_{k}_low"], row[f"edge_{k}_high"]
            assert low <= edge <= high
            # The interval brackets the target: below its low end at most c of the games
            # fall, below its high end at least c.
            assert below(scores, low) <= c <= below(scores, high)
            # The edge is the integer nearest the target: one point either way is no closer.
            gap = abs(below(scores, edge) - c)
            assert gap <= abs(below(scores, edge - 1) - c) + 1e-12
            assert gap <= abs(below(scores, edge + 1) - c) + 1e-12
        med = row["median"]
        assert row["median_low"] <= np.median(scores) <= row["median_high"]
        assert row["median_band"] == BAND_NAMES[Rules().band(int(med))]


def test_fit_verdict_separates_or_says_it_cannot(played):
    sb = skill_bands(played)
    t = sb.table.set_index("level")
    # greedy's standard games are nearly all broke, the expert's spread over the bands
    assert sb.best == "expert" and sb.shown_best
    assert t.loc["expert", "off_target_high_pct"] < t.loc["beginner", "off_target_low_pct"]
    assert "fit the expert best" in sb.fit_sentence()
    # the same games twice cannot be told apart
    same = skill_bands({"expert": played["expert"], "expert again": played["expert"]})
    assert same.tied and "cannot be told apart" in same.fit_sentence()


def _check_words(text: str) -> None:
    assert not re.search(r"\bnan\b|\binf\b|-0\.0+\b", text), re.findall(
        r".{30}(?:\bnan\b|\binf\b|-0\.0+\b).{30}", text)
    for old in OLD_NAMES:
        assert not re.search(rf"\b{re.escape(old)}\b", text, re.IGNORECASE), old
    assert not re.search(r"\bmodest\b(?! profit)", text)


def fake(policy: str, preset: str, center: int, n: int = 400) -> Results:
    rng = np.random.default_rng(center)
    scores = np.clip(rng.normal(center, 35, n).round(), 0, 518).astype(np.int64)
    rules = Rules.from_overrides({}, preset=preset)
    frame = pd.DataFrame({"game": np.arange(n), "score_0": scores, "turns": 16,
                          "end_reason": 0})
    return Results(frame, {"policies": [policy], "rules": rules.to_dict(), "seed": 1,
                           "rules_changed": rules.describe(), "preset": preset,
                           "backend": "fast", "elapsed_s": 0.5, "players": 1})


def test_page_puts_the_skill_table_first_with_one_name_per_band():
    centers = {"standard": (135, 276, 317, 334), "long": (200, 455, 490, 503)}
    runs = {f"{p} ({preset})": fake(p, preset, c)
            for preset, cs in centers.items() for (_, p), c in zip(rr.SKILLS, cs, strict=True)}
    out = rr.PAGE.render(runs, command="c")
    html = out.html
    answer = html.index("The answer")
    table = html.index("poor from [95% CI]")
    assert answer < html.index("Which score bands should Rum Runner print") < table
    assert table < html.index("How to read this page")
    assert "a choice, not a rule" in html and "--target" in html
    _check_words(re.sub(r"<[^>]+>", " ", html.split("<body>")[1]))
    frame, sentences = rr.skill_answer(_answers(runs))
    assert len(sentences) == 3 and sentences[0].endswith("?") and sentences[2].startswith("Fix")
    assert list(frame["rules"].unique()) == ["standard", "long"]
    assert set(frame["skill level"]) == {"beginner", "expert", "expert + search", "best measured"}
    assert "rollout:" not in " ".join(sentences)  # players in words in prose


def _answers(runs):
    from reports._runs import tallied
    info = get_game("rum-runner")
    page = rr.PAGE
    results = tallied(info, page.sections, runs, page.keeps)
    return {s.key: s.analyse(info, results) for s in page.sections}


def test_cli_prints_the_skill_table_with_one_name_per_band(capsys):
    code, out, err = rumsim(capsys, "thresholds", "--skills", "-n", "3000", "--slow-games",
                            "3", "--seed", "2", "-q", "--no-store")
    assert code == 0, err
    assert "poor from [95% CI]" in out and "beginner" in out and "best measured" in out
    assert "the designer's choice (--target), not a rule" in out
    _check_words(out)
    code, out, _ = rumsim(capsys, "thresholds", "--policy", "greedy,expert", "--skills",
                          "--target", "50,20,10,10,5,5", "-n", "2000", "-q", "--no-store")
    assert code == 0 and "Target split 50/20/10/10/5/5" in out
    _check_words(out)


@pytest.mark.parametrize("args, message", [
    (["--target", "50,50"], "target"),
    (["--policy", "greedy,greedy"], "the same policy twice"),
    (["--policy", "greedy,"], "empty policy"),
    (["--skills", "--policy", "gready"], "unknown policy 'gready'"),
])
def test_cli_mistakes_are_one_line_and_exit_2(capsys, args, message):
    code, out, err = rumsim(capsys, "thresholds", "-n", "100", "--no-store", *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in err


@pytest.mark.parametrize("high", [-1e-9, -0.001, -0.019, -0.03])
def test_a_choice_the_player_is_better_without_is_never_useless(high):
    # whatever the equivalence interval says, a loss shown below 0 is 'overused'
    for low in (high - 0.001, high - 0.01, -0.05):
        loss = Interval((low + high) / 2, low, high)
        tost = Interval(loss.estimate, low + 0.0005, high - 0.0005)
        assert R.classify(loss, tost, 0.02) == "overused"
