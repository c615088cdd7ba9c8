"""The 21 Motines report page: built on the reference backend at a tiny scale, and its answer
read from synthetic runs whose seat shares are known."""

from __future__ import annotations

import base64
import re

import numpy as np
import pandas as pd
import pytest
from conftest import quick_ladder

import reports.motines as mo
from engines.motines.rules import Rules
from simulate.results import Results

SCALE = 0.0005  # 40 games per expert run, 20 per random and greedy run


@pytest.fixture(scope="module")
def page():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mo, "STRONG_PARAMS", ":base=expert:samples=1:width=2")  # a quick search
        quick_ladder(mp, mo)
        return mo.PAGE.build(scale=SCALE, backend="fast", progress=False, command="cmd")


def test_page_plays_the_expert_at_every_player_count_and_the_beginners_beside_it(page):
    runs = page.tables["motines_runs.csv"]
    assert mo.POLICY == "expert"
    seats = runs[(runs["policy"] == "expert") & runs["preset"].isin(mo.SEAT_PRESETS)]
    assert sorted(zip(seats["preset"], seats["players"], strict=True)) == \
        sorted((pr, p) for pr in mo.SEAT_PRESETS for p in mo.PLAYER_COUNTS)
    assert set(seats["games"]) == {40}  # GAMES 80k at scale 0.0005
    others = runs[~runs["preset"].isin(mo.SEAT_PRESETS) & (runs["policy"] == "expert")]
    assert set(others["players"]) == {4} and set(others["games"]) == {40}
    assert set(others["preset"]) == set(mo.VARIANTS) - set(mo.SEAT_PRESETS)
    # the beginners: the standard rules at every player count, every variant at 4 players
    for policy, games in (("random", 20), ("greedy", 20), ("planner", 5)):
        part = runs[runs["policy"] == policy]
        assert set(part[part["players"] == 4]["preset"]) == set(mo.VARIANTS) | {mo.BASE}
        assert set(part[part["preset"] == mo.BASE]["players"]) == set(mo.PLAYER_COUNTS)
        assert set(part["games"]) == {games} and len(part) == 3 + len(mo.VARIANTS)
    # the rotations: the ladder's rungs below the search (planner among random, greedy among
    # planner, the expert among greedy) and the search among experts (the head to head)
    mixed = runs[runs["policy"].str.contains(",")]
    assert len(mixed) == 4 * 4
    assert len(runs) == 6 + 3 + 3 * (3 + len(mo.VARIANTS)) + len(mixed)


def test_seat_tables_show_the_expert(page):
    verdicts = page.tables["motines_seat_verdicts.csv"]
    # one player (the expert) in every setting: no policy column
    assert list(verdicts.columns[:3]) == ["preset", "players", "games"]
    assert len(verdicts) == 6 and set(verdicts["games"]) == {40}
    assert "win share by seat per player count, expert players, standard rules" in page.html
    seats = page.tables["motines_seats.csv"]
    total = seats.groupby(["preset", "players"])["share"].sum()
    assert np.allclose(total, 1.0)  # every game has one winner's share
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page.html)
    # the strength ladder, seats per preset (2), game length, matchup, scores; the edge by
    # policy, the variations' shifts by policy, the skill ladder, the game feel; what would
    # fix it (two seats' gaps under each of the expert and greedy), which choices matter
    # under the expert (restricted play: its declared choices)
    assert len(images) == 17  # and the shorter games among experts  # and the answer block's ladder
    assert "Which choices matter" in page.html
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)


def test_the_beginners_stand_beside_the_expert_in_the_sensitivity_tables(page):
    want = {"random", "planner", "greedy", "expert"}
    assert set(page.tables["motines_sensitivity.csv"]["policy"]) == want
    assert set(page.tables["motines_variant_sensitivity.csv"]["policy"]) == want
    assert set(page.tables["motines_feel.csv"]["policy"]) == want
    ladder = page.tables["motines_ladder.csv"]
    assert list(ladder["weaker"]) == ["random", "planner", "greedy", "expert"]


def test_head_to_head_rotates_the_search_seat_among_experts(page):
    table = page.tables["motines_matchup.csv"]
    assert list(table["seat"].astype(str)) == ["0", "1", "2", "3", "all"]
    assert set(table["focal"]) == {"rollout:samples=1:width=2:base=expert"}
    assert set(table["field"]) == {"expert"}
    assert table["games"].iloc[-1] == table["games"].iloc[:-1].sum() == 8  # two a seat
    text = page.html.replace("&#x27;", "'")
    assert "A better player: one seat played by expert + search (1 playouts per option) among " \
           "3 expert seats" in text
    assert "Head to head: one expert + search seat among expert seats" in text


def test_the_sentences_answer_for_experts_then_say_what_beginners_do(page):
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.html)).replace("&#x27;", "'")
    first = text.index("Among expert players the first Captain's edge")
    beginners = text.index("Among the spec's beginners the first Captain's edge")
    assert first < beginners
    assert "among random players" in text and "among greedy players" in text
    assert "Game length at 4 expert players" in text
    assert "Paired on the same 40 games (expert players, 4 players)" in text
    assert not re.search(r"\bnan\b|\binf\b|-0\.00\b", text)


def test_the_fix_questions_are_the_experts_and_a_beginners_once_each():
    asks = [q.ask for q in mo.FIX]
    assert len(set(asks)) == len(asks) == 2
    assert [q.policy for q in mo.FIX] == ["expert", "greedy"]
    assert mo.ASKED.fix_question == mo.FIX_EXPERT.ask


# ---------------------------------------------------------------- the answer, from known shares


def fake_run(preset: str, policies: list[str], weak: int, strong: int | None = None,
             n: int = 4000, seed: int = 0) -> Results:
    """Games in which seat ``weak`` wins 5% (seat ``strong``, if any, 40%) and the others share
    the rest evenly."""
    players = len(policies)
    rng = np.random.default_rng(seed)
    p = np.ones(players)
    p[weak] = 0.0
    p *= (0.95 - (0.40 if strong is not None else 0.0)) / p.sum()
    p[weak] = 0.05
    if strong is not None:
        p[strong] = 0.40 if strong != weak else 0.45
        p /= p.sum()
    winner = rng.choice(players, n, p=p)
    frame = pd.DataFrame({"game": np.arange(n), "players": players,
                          "rounds": rng.integers(20, 26, n), "truncated": 0})
    for s in range(players):
        frame[f"win_{s}"] = (winner == s).astype(float)
        frame[f"score_{s}"] = rng.integers(10, 30, n) + 10 * (winner == s)
    rules = Rules.from_overrides({}, preset=preset)
    return Results(frame, {"preset": preset, "players": players, "seed": 1,
                           "rules_changed": rules.describe(), "policies": policies,
                           "backend": "fast", "elapsed_s": 0.1, "games": n})


def test_reading_names_the_weakest_seat_per_policy():
    weak = {"random": 0, "greedy": 1, "planner": 1, "expert": 2}
    results = {}
    for spec in mo.plan(1.0):
        policies = spec.policy.split(",") * (1 if "," in spec.policy else spec.players)
        strong = next((k for k, p in enumerate(policies) if p.startswith(mo.STRONG)), None)
        field = next(p for p in policies if not p.startswith(mo.STRONG))
        results[spec.label] = fake_run(spec.preset, policies, weak[field], strong,
                                       seed=spec.players)
    html = mo.PAGE.render(results, "cmd").html.replace("&#x27;", "'")
    assert "Among expert players the first Captain's edge" in html
    assert "The weakest seat is seat 2 at 3 players" in html
    assert "below the fair share with 95% simultaneous confidence" in html
    assert "unbalanced at 3, unbalanced at 4 and unbalanced at 5 players" in html
    # the beginners' weakest seats beside the expert's
    assert "among random players (weakest seat 0)" in html
    assert "among greedy players (weakest seat 1)" in html
    assert "among experts (weakest seat 2)" in html
    assert "The clearly weakest seat depends on how people play" in html
    assert "A better player: one seat played by expert + search (4 playouts per option) " \
           "among 3 expert seats wins" in html
    assert "it is stronger than the experts" in html
    # seat 2 wins 5% among experts with or without equal money: seat 0 is ahead in both
    assert "In words: seat 0 was ahead already and gains more at 3 players, 4 players and 5 " \
           "players" in html
