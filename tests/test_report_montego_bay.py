"""The Montego Bay report page, and an index of the one page built.

Everything is built on the reference backend at a tiny scale, so the test does
not depend on the fast engine (or its compile time).
"""

from __future__ import annotations

import base64
import importlib.util
import re

import numpy as np
import pandas as pd
import pytest
from conftest import quick_ladder

import reports.montego_bay as mb
import reports.motines as mo
from engines import get_game
from engines.montego_bay.rules import Rules
from reports import figures
from reports.build import PAGES, build_report
from simulate.errors import UserError
from simulate.results import Results

SCALE = 0.001  # 100 games per expert run of Montego Bay (six runs)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "site"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mo, "STRONG_PARAMS", ":base=expert:samples=1:width=2")  # and Motines
        quick_ladder(mp, mb)
        written = build_report(out, games=["montego-bay"], scale=SCALE, backend="fast",
                               progress=False)
    return out, written


def test_the_index_lists_the_page_built(built):
    # The whole report's index (every page, in order) is checked where the whole report is
    # built, in tests/test_pages_in_browser.py.
    out, written = built
    index = (out / "index.html").read_text()
    links = list(dict.fromkeys(re.findall(r'<a href="([^"]+)">', index)))
    assert links == ["montego_bay.html"]
    assert written[-1].name == "index.html"
    assert (PAGES["montego-bay"].filename, PAGES["montego-bay"].blurb) == (mb.PAGE.filename,
                                                                          mb.PAGE.blurb)


def test_page_writes_tables_and_embeds_figures(built):
    out, written = built
    names = {p.name for p in written}
    assert {"montego_bay.html", "montego_bay_verdicts.csv", "montego_bay_shares.csv",
            "montego_bay_scores.csv", "montego_bay_runs.csv"} <= names
    html = (out / "montego_bay.html").read_text()
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    # the strength ladder; win shares per preset (2), scores, the edge by policy, the variation's shift by policy,
    # the skill ladder, the game feel; what would fix it (the largest place gap)
    # and which choices matter
    # and the answer block's ladder ("why we believe it")
    assert len(images) == 13  # and the shorter games among experts  # what would fix it: for the expert and for greedy
    assert "Which choices matter" in html and "rumsim restrict montego-bay" in html
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert "<script" not in html and "http" not in html.split("<body>")[1]


def test_page_states_how_it_was_made(built):
    out, _ = built
    html = (out / "montego_bay.html").read_text()
    assert f"rumsim report montego-bay --out {out} --scale 0.001" in html
    assert "Seeds: 1;" in html and "whole page:" in html
    assert "Policies: expert, random, greedy, sampler:q_myopic=0.3:base=expert." in html
    # the expert's six runs of 100 games, random's and greedy's of 40, the search's of 2; the
    # ladder's rungs (greedy among random and the expert among greedy: 3 x 10 games each; the
    # search among experts: 3 x 2, at least two a seat)
    assert f"games: {6 * 100 + 12 * 40 + 6 * 2 + 2 * 3 * 10 + 3 * 2:,} in all; backend: fast" \
        in html
    assert "freight_ships=9, stack_b_size=3" in html and "chi-square" in html.lower()


def test_csv_tables_are_tidy(built):
    out, _ = built
    verdicts = pd.read_csv(out / "montego_bay_verdicts.csv")
    assert list(zip(verdicts["preset"], verdicts["players"], strict=True)) == [
        (p, n) for p in mb.PRESETS for n in mb.PLAYER_COUNTS]
    assert set(verdicts["order_verdict"]) <= {"balanced", "unbalanced", "undetermined"}
    shares = pd.read_csv(out / "montego_bay_shares.csv")
    assert set(shares["view"]) == {"rail order", "first rail position", "seat"}
    by_order = shares[shares["view"] == "rail order"].groupby(["preset", "players"])["share"]
    assert np.allclose(by_order.sum(), 1.0)  # one winner's share per game, spread over ranks
    scores = pd.read_csv(out / "montego_bay_scores.csv")
    assert (scores["winner_mean"] > scores["others_mean"]).all()
    runs = pd.read_csv(out / "montego_bay_runs.csv")
    assert list(runs["games"][:6]) == [100] * 6  # the expert's runs; then the others' and ladder's
    assert list(runs["policy"][:6]) == ["expert"] * 6
    assert runs["hash"].str.fullmatch(r"[0-9a-f]{12}").all() and runs["hash"].is_unique


# ---------------------------------------------------------------- analysis and reading


def fake_run(preset: str, players: int, first_mover_wins: float, n: int = 1500,
             seed: int = 0, policy: str = "expert") -> Results:
    """Games with a random rail; the first mover wins with the given probability."""
    rng = np.random.default_rng(seed)
    workers = 2 * players
    owner = np.tile(np.arange(players), 2)
    frame = pd.DataFrame({"game": np.arange(n), "players": players,
                          "rounds": rng.integers(3, 7, n)})
    pos = np.zeros((n, players), dtype=int)
    for g in range(n):
        rail = rng.permutation(workers)  # rail[k] = worker at position k + 1
        for s in range(players):
            pos[g, s] = 1 + int(np.flatnonzero(owner[rail] == s)[0])
    first = pos.argmin(axis=1)
    other = (first + rng.integers(1, players, n)) % players
    winner = np.where(rng.random(n) < first_mover_wins, first, other)
    for s in range(players):
        frame[f"first_rail_pos_{s}"] = pos[:, s]
        frame[f"win_{s}"] = (winner == s).astype(float)
        frame[f"score_{s}"] = rng.integers(20, 60, n) + 30 * (winner == s)
    rules = Rules.from_overrides({}, preset=preset)
    return Results(frame, {"preset": preset, "players": players, "seed": 1,
                           "rules_changed": rules.describe(), "policies": [policy] * players,
                           "backend": "fast", "elapsed_s": 0.5, "games": n})


def fake_results(first_mover_wins: dict[int, float]) -> dict[str, Results]:
    return {f"standard, {p} players": fake_run("standard", p, share, seed=p)
            for p, share in first_mover_wins.items()}


def test_reading_answers_from_the_numbers():
    no = mb.PAGE.render(fake_results({2: 0.30, 3: 0.10}), "cmd")
    assert "No: among expert players the player who moves first on the rail wins less often " \
           "than the fair share in every setting" in no.html
    assert "Rail order verdicts within ±2 percentage points: unbalanced at 2 players " \
           "(standard) and 3 players (standard)" in no.html
    assert "Simulation time: 1.0 s." in no.html and "cmd" in no.html
    yes = mb.PAGE.render(fake_results({2: 0.70, 3: 0.60}), "cmd")
    assert "Yes: among expert players the player who moves first on the rail wins more often" \
        in yes.html
    assert "1st at 2 players" in yes.html
    mixed = mb.PAGE.render(fake_results({2: 0.70, 3: 0.10}), "cmd")
    assert ("It depends: of the 2 settings, among expert players the player who moves first on "
            "the rail wins more often than the fair share in 1 and less often than the fair "
            "share in 1") in mixed.html


def test_scores_summarise_winners_and_others():
    page = mb.PAGE.render(fake_results({3: 0.4}), "cmd")
    table = page.tables["montego_bay_scores.csv"]
    assert table["winner_mean"].iloc[0] > table["others_mean"].iloc[0] + 15
    assert "winners average" in page.html and "ahead of the runner-up by" in page.html


# ---------------------------------------------------------------- plan, errors, figures


def test_plan_covers_presets_and_player_counts():
    full = [s for s in mb.plan() if s.policy == mb.POLICY and "among" not in s.label]
    assert mb.POLICY == "expert"
    assert [(s.preset, s.players) for s in full] == [
        (p, n) for p in mb.PRESETS for n in mb.PLAYER_COUNTS]
    assert {s.games for s in full} == {mb.GAMES} and {s.seed for s in mb.plan()} == {mb.SEED}
    # the beginners and the search over the expert play the same settings, at their own counts
    search = get_game("montego-bay").policy(mb.SEARCH).label()
    assert search == "sampler:q_myopic=0.3:base=expert"
    for policy, games in (("random", mb.OTHER_GAMES), ("greedy", mb.OTHER_GAMES),
                          (search, mb.SLOW_GAMES)):
        part = [s for s in mb.plan() if s.policy == policy]
        assert [(s.preset, s.players) for s in part] == [(p, n) for p in mb.PRESETS
                                                         for n in mb.PLAYER_COUNTS]
        assert {s.games for s in part} == {games}
    # the ladder's rungs: greedy among random, the expert among greedy, the search among experts
    rungs = [s.policy for s in mb.plan() if "," in s.policy]
    assert rungs[3:6] == ["expert,greedy,greedy", "greedy,expert,greedy", "greedy,greedy,expert"]
    assert rungs[6] == f"{search},expert,expert"
    assert {s.games for s in mb.plan(1e-9)} == {2}
    with pytest.raises(UserError):
        mb.plan(0)


def test_the_fix_questions_are_the_experts_and_a_beginners_once_each():
    asks = [q.ask for q in mb.FIX]
    assert len(set(asks)) == len(asks) == 2
    assert [q.policy for q in mb.FIX] == ["expert", "greedy"]
    assert mb.ASKED.fix_question == mb.FIX_EXPERT.ask and mb.FIX_EXPERT.policy == "expert"
    assert mb.ASKED.fix_words(["2", "0"]) == ("give the player whose worker stands first on the "
                                              "rail 2 coins at set-up and the second 0")


def test_the_sentences_answer_for_experts_then_say_what_beginners_do(built):
    out, _ = built
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (out / "montego_bay.html").read_text()))
    text = text.replace("&#x27;", "'")
    first = text.index("among expert players the player who moves first on the rail")
    beginners = text.index("Among the spec's beginners (standard rules;")
    assert first < beginners
    assert "among greedy players" in text and "among random players" in text
    assert "With a better player than the expert (expert + search, 16 opponent profiles " \
           "drawn per decision;" in text
    assert "expert players: winners average" in text
    # the beginners stand beside the expert in the sensitivity tables
    sens = pd.read_csv(out / "montego_bay_sensitivity.csv")
    assert set(sens["policy"]) == {"random", "greedy", "expert", "sampler"}
    feel = pd.read_csv(out / "montego_bay_feel.csv")
    assert set(feel["policy"]) == {"random", "greedy", "expert", "sampler"}
    shifts = pd.read_csv(out / "montego_bay_variant_sensitivity.csv")
    assert set(shifts["policy"]) == {"random", "greedy", "expert", "sampler"}
    assert not re.search(r"\bnan\b|\binf\b|-0\.00\b", text)


def test_missing_fast_engine_is_a_user_error(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(UserError, match="backend='reference'"):
        mb.PAGE.run_plan(mb.plan(1e-9), backend="fast")


def test_share_figures_render_with_blank_panels():
    shares = pd.DataFrame({"row": ["a", "a", "b"], "col": ["2p", "3p", "2p"], "x": [1, 1, 1],
                           "share": [0.5, 0.3, 0.5], "low": [0.4, 0.2, 0.4],
                           "high": [0.6, 0.4, 0.6], "fair": [0.5, 1 / 3, 0.5]})
    assert figures.win_share_panels(shares, "t", margin=0.02).startswith(b"\x89PNG")
    assert figures.score_panels({"p": {"winner": np.array([5, 9]), "others": np.array([])}},
                                "t").startswith(b"\x89PNG")


def test_unequal_seats_are_named_in_the_reading():
    res = fake_results({3: 0.4})
    frame = res["standard, 3 players"].frame
    to_seat0 = np.arange(len(frame)) % 2 == 0  # every other game goes to seat 0
    for s in range(3):
        frame.loc[to_seat0, f"win_{s}"] = float(s == 0)
    page = mb.PAGE.render(res, "cmd")
    assert re.search(r"finds unequal seats where seat 0 wins 6\d\.\d% at 3 players \(standard\)",
                     page.html)
    fair = mb.PAGE.render(fake_results({3: 0.4}), "cmd")
    assert "detects no unequal seats (not evidence that they are equal)" in fair.html
