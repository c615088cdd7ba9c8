"""Rum Rebellion's ``heuristic`` policy: reference = fast, defaults = threshold(0.5), every
feature matters.

``heuristic`` scores every decision by declared feature weights (``POLICIES["heuristic"]``,
``policies.HeuristicPolicy``, ``engine.h_*``). The trainer moves those weights anywhere in
their search boxes, so the two paths are compared there too, not only at the defaults.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways
from test_rum_rebellion_equivalence import HOUSE_RULES, OTHER_OPTIONS

from engines.rum_rebellion import GAME
from engines.rum_rebellion.rules import Rules

SPEC = GAME.policies["heuristic"]

# Weights with every feature switched on (near what a short CMA-ES run against threshold
# found), so the option sweeps exercise the features and not threshold's decisions.
ACTIVE = ("heuristic:crime_limit=4.5:crime_gain=2.9:crime_jail=2.1:crime_need=0.5"
          ":crime_threat=2.1:chal_votes=0.1:chal_edge_threat=4.1:chal_base=0.1:chal_odds=7.6"
          ":chal_threat=2.1:chal_risk=-3.6:chal_reach=-1.5:chal_knock=2:vote_worth=1.13"
          ":buy_reach=4:ann_base=0.8:ann_odds=5.7:ann_later=2:ann_thin=-0.5:rc_reserve=1")


def assert_same(rules, policy_text, players, seed, games, first=0):
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


def fast(rules, policy_text, players, seed, games):
    return GAME.fast(rules, GAME.seat_policies(policy_text, players), players, seed, 0, games)


def search_vectors(n, seed):
    """``n`` policy texts with every weight drawn uniformly inside its search box."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        pairs = []
        for p in SPEC.params:
            lo, hi = p.search
            value = rng.uniform(lo, hi)
            pairs.append(f"{p.name}={round(value) if p.integer else value!r}")
        out.append("heuristic:" + ":".join(pairs))
    return out


# ---------------------------------------------------------------- the declaration


def test_declaration_is_trainable():
    assert 8 <= len(SPEC.params) <= 24
    for p in SPEC.params:
        assert p.help and p.search is not None, p.name
        lo, hi = p.search
        assert p.low <= lo < hi <= p.high, p.name
        assert lo <= p.default <= hi, p.name


# ---------------------------------------------------------------- defaults = threshold(0.5)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_defaults_play_exactly_threshold(players):
    a = fast(Rules(), "heuristic", players, 3 + players, 3000)
    b = fast(Rules(), "threshold", players, 3 + players, 3000)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_defaults_play_exactly_threshold_under_presets(preset):
    rules = Rules.from_overrides(preset=preset)
    a = fast(rules, "heuristic,random,heuristic,blocker", 4, 17, 800)
    b = fast(rules, "threshold,random,threshold,blocker", 4, 17, 800)
    assert np.array_equal(a, b)


def test_defaults_play_exactly_threshold_on_the_reference_path():
    policies = GAME.seat_policies("heuristic,threshold,random", 3)
    threshold = GAME.seat_policies("threshold,threshold,random", 3)
    for game in range(12):
        assert (GAME.reference(Rules(), policies, 3, 5, game)
                == GAME.reference(Rules(), threshold, 3, 5, game))


# ---------------------------------------------------------------- reference = fast


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count(players):
    assert_same(Rules(), "heuristic", players, 41 + players, 25)
    assert_same(Rules(), ACTIVE, players, 51 + players, 25)


@pytest.mark.parametrize(("players", "mix"), [
    (2, f"{ACTIVE},threshold"),
    (3, f"random,{ACTIVE},blocker"),
    (4, f"{ACTIVE},threshold,threshold,threshold"),
    (5, f"blocker,{ACTIVE},random,heuristic,threshold:risk=0.2"),
    (6, f"{ACTIVE},{ACTIVE},random,blocker,threshold,heuristic:chal_votes=-1"),
])
def test_policy_mixes(players, mix):
    assert_same(Rules(), mix, players, 13, 25)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_presets(preset):
    rules = Rules.from_overrides(preset=preset)
    assert_same(rules, f"{ACTIVE},threshold,random,heuristic", 4, 7, 6)


@pytest.mark.parametrize("overrides", HOUSE_RULES + OTHER_OPTIONS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())[:70])
def test_rule_options(overrides):
    players = 2 if overrides.get("tickets_per_player") == 3 else 4
    rules = Rules.from_overrides(overrides)
    mix = ",".join([ACTIVE, "threshold", "random", ACTIVE][:players])
    assert_same(rules, mix, players, 31, 2)


@pytest.mark.parametrize("k", range(14))
def test_weights_anywhere_in_the_search_box(k):
    text = search_vectors(14, 2024)[k]
    players = 2 + k % 5
    mix = ",".join([text] + ["threshold", "random", ACTIVE, "blocker", text][:players - 1])
    assert_same(Rules(), mix, players, 100 + k, 20)


# ---------------------------------------------------------------- every feature matters

# (parameter, moved value, other parameters moved with it so the feature can bite): at
# threshold's defaults some features cannot change a decision (chal_base = 1 challenges
# whatever a positive term adds), so those are tried where the decision is open.
MOVES = [
    ("crime_limit", 5.0, ""),
    ("crime_gain", 2.0, ""),
    ("crime_jail", 2.0, ""),
    ("crime_need", 2.0, ""),
    ("crime_threat", -2.0, ""),
    ("chal_votes", -1.0, ""),
    ("chal_edge_threat", 5.0, ":chal_votes=0"),
    ("chal_base", -1.0, ""),
    ("chal_odds", 5.0, ""),
    ("chal_threat", -3.0, ""),
    ("chal_risk", -3.0, ""),
    ("chal_reach", -2.0, ""),
    ("chal_knock", 4.0, ":chal_base=-1"),
    ("vote_worth", 0.7, ""),
    ("buy_reach", 5.0, ":vote_worth=0.7"),
    ("ann_base", -0.5, ":ann_odds=5"),
    ("ann_odds", 10.0, ""),
    ("ann_later", 10.0, ""),
    ("ann_thin", -2.0, ""),
    ("rc_reserve", 4.0, ""),
]


def test_moves_cover_every_parameter():
    assert sorted(m[0] for m in MOVES) == sorted(p.name for p in SPEC.params)


@pytest.mark.parametrize(("name", "value", "extra"), MOVES, ids=[m[0] for m in MOVES])
def test_each_feature_changes_some_decision(name, value, extra):
    base = f"heuristic{extra}"
    moved = f"{base}:{name}={value}"
    a = fast(Rules(), f"{base},threshold,threshold,threshold", 4, 61, 2000)
    b = fast(Rules(), f"{moved},threshold,threshold,threshold", 4, 61, 2000)
    changed = int(np.any(a != b, axis=1).sum())
    assert changed > 0, f"{name}={value} changed no game"
