"""The Rum & Pirates report page: built on the reference backend at a tiny scale, and its answer
read from synthetic runs whose seat shares, re-roll shares and score categories are known."""

from __future__ import annotations

import base64
import re

import numpy as np
import pandas as pd
import pytest
from conftest import quick_ladder

import reports.rum_and_pirates as rp
from engines.rum_and_pirates import CATEGORIES
from engines.rum_and_pirates.rules import Rules
from simulate.results import Results

SCALE = 0.0003  # 12 games per run of the expert, 9 of a beginner; the head to head 25 in all


@pytest.fixture(scope="module")
def page():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rp, "ROLLOUT_PARAMS", ":samples=1:width=2")  # keeps the ladder quick
        quick_ladder(mp, rp)
        return rp.PAGE.build(scale=SCALE, backend="fast", progress=False, command="cmd")


def test_page_plays_the_expert_at_every_player_count_and_the_beginners_beside_it(page):
    from reports._runs import scaled

    runs = page.tables["rum_and_pirates_runs.csv"]
    plain = runs[~runs["policy"].str.contains(",")]
    seats = plain[plain["preset"] == rp.BASE]
    # the main players: the expert in every seat at every player count, at the planned count
    expert = seats[seats["policy"] == rp.EXPERT]
    assert sorted(expert["players"]) == sorted(rp.PLAYER_COUNTS)
    assert set(expert["games"]) == {scaled(rp.GAMES, SCALE, 2)}
    # the beginners on the same settings, at theirs
    for policy in rp.BEGINNERS:
        part = seats[seats["policy"] == policy]
        assert sorted(part["players"]) == sorted(rp.PLAYER_COUNTS)
        assert set(part["games"]) == {scaled(rp.BEGINNER_GAMES, SCALE, 2)}
    variants = plain[plain["preset"] != rp.BASE]
    assert set(variants["preset"]) == set(rp.VARIANTS) and set(variants["players"]) == {4}
    # every variant under each player of the ladder (the search for the policy sensitivity)
    assert sorted(variants["policy"].str.split(":").str[0]) == sorted(
        [*rp.LADDER] * len(rp.VARIANTS))
    assert set(variants.loc[variants["policy"] == rp.EXPERT, "games"]) == {
        scaled(rp.GAMES, SCALE, 2)}
    search = seats[seats["policy"].str.startswith("rollout:")]
    assert sorted(search["players"]) == sorted(rp.PLAYER_COUNTS)
    assert search["policy"].str.contains("base=expert").all()
    matchup = runs[runs["policy"].str.contains("reroll_can_win")]
    ladder = runs[runs["policy"].str.contains(",") & ~runs.index.isin(matchup.index)]
    # three rungs (greedy among random, expert among greedy, the search among experts)
    assert len(matchup) == 4 and len(ladder) == 3 * 4
    assert ladder["policy"].str.contains("base=expert, expert").any()
    assert len(runs) == 3 * (4 + 7) + 4 + (4 + 7) + 12


def test_tables_and_figures(page):
    verdicts = page.tables["rum_and_pirates_seat_verdicts.csv"]
    assert len(verdicts) == 4 and sorted(verdicts["players"]) == list(rp.PLAYER_COUNTS)
    assert "policy" not in verdicts  # one player: the expert
    seats = page.tables["rum_and_pirates_seats.csv"]
    assert np.allclose(seats.groupby("players")["share"].sum(), 1.0)
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page.html)
    # the strength ladder, the experts' seats, game length, head to head, composition, scores;
    # the edge by policy, the variations' shifts by policy, the skill ladder, the game feel;
    # what would fix it (among experts at 4 players, among greedy at each of four player
    # counts), which choices matter under the expert (restricted play: its declared choices)
    assert len(images) == 18  # and the shorter games among experts  # and the answer
    assert "Which choices matter" in page.html
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    parts = page.tables["rum_and_pirates_composition.csv"]
    assert set(parts["category"]) == {label for _, label in rp.CATEGORY_LABELS}
    assert len(parts) == 4 * len(CATEGORIES)
    scores = page.tables["rum_and_pirates_scores.csv"]
    assert len(scores) == 4
    events = page.tables["rum_and_pirates_events.csv"]
    assert set(events["event"]) == {label for label, _ in rp.COUNTS} | {rp.HOPELESS}
    assert set(events["policy"]) == {rp.EXPERT, "greedy"}
    # the beginners stay beside the expert and the search in the sensitivity tables
    for name in ("sensitivity", "variant_sensitivity", "feel"):
        table = page.tables[f"rum_and_pirates_{name}.csv"]
        assert set(table["policy"]) == set(rp.LADDER), name
    ladder = page.tables["rum_and_pirates_ladder.csv"]
    assert list(ladder["weaker"]) == list(rp.LADDER[:-1])
    assert "Does the start player win? Among experts" in page.html
    assert "What beginners see differently: under random play seat 0 is" in page.html
    assert "Game length at 4 players among experts" in page.html
    assert "Experts play much longer games than beginners: greedy players take" in page.html
    assert "Does it survive a better player? One expert + search, 1 playouts per candidate " \
           "among 3 experts" in page.html
    assert "cannot win the column" in page.html
    # the fix the answer block reads is the experts' question, and the questions differ
    asks = [q.ask for q in rp.FIX]
    assert rp.ASKED.fix_question == asks[0] and "among experts" in asks[0]
    assert len(set(asks)) == len(asks) and rp.FIX[0].policy == rp.EXPERT
    assert any(q.policy == "greedy" for q in rp.FIX)
    assert "The fix:" in page.html
    # players in a designer's words in the page's sentences, never policy strings
    answer = page.html.split('id="beginners"')[1].split("</details>")[0]
    assert "rollout" not in answer and "reroll_can_win" not in answer


def test_composition_adds_up_to_the_mean_score(page):
    import simulate
    from analyses.composition import composition

    (spec,) = [s for s in rp.plan(SCALE) if s.players == 3 and s.policy == rp.EXPERT
               and s.preset == rp.BASE]
    frame = simulate.run(rp.PAGE.game, spec.games, rules={}, policies=spec.policy, players=3,
                         seed=spec.seed, backend="reference", progress=False).frame

    parts = composition(frame, 3)
    mean_score = frame[[f"score_{s}" for s in range(3)]].to_numpy().mean()
    assert parts["player"].sum() == pytest.approx(mean_score)


# ---------------------------------------------------------------- the answer, from known truths


def fake_run(preset: str, policies: list[str], p0: float, n: int = 6000, seed: int = 0,
             hopeless: float = 0.3) -> Results:
    """Games in which seat 0 wins with chance ``p0`` and the others share the rest; bunk
    re-rolls Poisson(3) per game, each hopeless with chance ``hopeless``; sleeping tiles the
    biggest category, pubs what winners have more of."""
    players = len(policies)
    rng = np.random.default_rng(seed)
    p = np.full(players, (1 - p0) / (players - 1))
    p[0] = p0
    winner = rng.choice(players, n, p=p)
    frame = pd.DataFrame({"game": np.arange(n), "players": players,
                          "rounds": Rules.from_overrides({}, preset=preset).num_rounds,
                          "turns": rng.integers(30, 50, n)})
    for _, column in rp.COUNTS:
        if column != "turns":
            frame[column] = rng.poisson(2.0, n)
    frame["bunk_rerolls"] = rng.poisson(3.0, n)
    frame["bunk_hopeless_rerolls"] = rng.binomial(frame["bunk_rerolls"], hopeless)
    for s in range(players):
        won = winner == s
        frame[f"win_{s}"] = won.astype(float)
        total = 0
        for c in CATEGORIES:
            base = {"sleep": 15, "pubs": 8, "scorpions": -2}.get(c, 3)
            v = base + rng.integers(0, 3, n) + (10 * won if c == "pubs" else 0)
            frame[f"vp_{c}_{s}"] = v
            total = total + v
        frame[f"score_{s}"] = total
    rules = Rules.from_overrides({}, preset=preset)
    return Results(frame, {"preset": preset, "players": players, "seed": 1,
                           "rules_changed": rules.describe(), "policies": policies,
                           "backend": "fast", "elapsed_s": 0.1, "games": n})


def test_reading_follows_the_numbers():
    # seat 0 far behind 1/P under random, ahead under greedy, the expert and the search
    edge = {"random": -0.2, "greedy": 0.20, "expert": 0.20, "rollout": 0.20}
    results = {}
    for spec in rp.plan(1.0):
        policies = spec.policy.split(",") * (1 if "," in spec.policy else spec.players)
        fair = 1 / spec.players
        p0 = fair if "," in spec.policy else min(0.9, max(0.05, fair + edge[
            spec.policy.split(":")[0]]))
        results[spec.label] = fake_run(spec.preset, policies, p0, seed=spec.players)
    html = rp.PAGE.render(results, "cmd").html
    assert "Does the start player win? Among experts" in html
    assert "at 2 players (ahead)" in html and "at 5 players (ahead)" in html
    assert "seat 0 strongest" in html
    assert ("What beginners see differently: under random play seat 0 is behind at 2, 3, 4 "
            "and 5 players; under greedy play seat 0 is ahead at 2, 3, 4 and 5 players") in html
    assert "differs from the experts&#x27; answer at 2, 3, 4 and 5 players" in html
    assert "not shown stronger than the expert" in html  # the search wins a fair share here
    share = re.search(r"Greedy&#x27;s bunk-fight re-rolls as the spec writes them \(spec §8.4 "
                      r"D9\): (\d+)% \[(\d+), (\d+)\] at 2 players", html)
    assert share and int(share.group(2)) <= 30 <= int(share.group(3))
    assert "The expert&#x27;s bunk-fight re-rolls that cannot win the column" in html
    assert "Among experts at 4 players: sleeping tiles bring the most points" in html
    assert "winners pull ahead most in pub tiles" in html
