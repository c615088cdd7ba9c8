"""Rum & Pirates' ``heuristic`` policy: greedy's one-step value plus weighted features.

* At its declared defaults it is greedy, decision for decision (identical outcome rows).
* Reference (``policies.HeuristicPolicy``) == fast (``engine.heur_move``) game for game: at
  every player count, in mixes with the other policies, under every preset and the rule
  options its features read, and at random weight vectors drawn inside the ``search`` box
  the trainer explores.
* Every parameter is read: moved from its default, it changes the games.

The reference path plays about 5-15 games a second, so the compared games are few and
spread over many settings; the fast-only checks play hundreds.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines.rum_and_pirates import GAME, POLICIES
from engines.rum_and_pirates.rules import Rules

HEURISTIC = POLICIES["heuristic"]
NEW = [p for p in HEURISTIC.params if p.name not in {q.name for q in POLICIES["greedy"].params}]

# every feature on (weights near those a short CMA-ES run found; not the defaults)
ALL_ON = ("heuristic:w_coin=2.6:w_rum=1.1:w_hand=0.6:tau=-2.1:p_rdv=0.65:w_recruit=1.2:"
          "pub_join_share=1.3:reroll_can_win=1:w_deny=0.4:w_cont=0.75:w_bunk_boarded=0.8:"
          "w_bunk_active=0.85:coin_round=-0.1:coin_last=-0.6:rum_last=-0.3:rdv_round=-0.04:"
          "map_odd=0.8:tau_boarded=-0.6")


def assert_same(rules, policy_text, players, seed, games, first=0):
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


def fast(rules, policy_text, players, seed, games, first=0):
    return GAME.fast(rules, GAME.seat_policies(policy_text, players), players, seed, first,
                     games)


def label(values: dict) -> str:
    return "heuristic:" + ":".join(f"{k}={v!r}" for k, v in values.items())


# ---------------------------------------------------------------- defaults == greedy


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_defaults_decide_as_greedy(players):
    mixes = ["{h}", ",".join(["{h}", "random"] + ["greedy"] * (players - 2))]
    for mix in mixes:
        a = fast(Rules(), mix.format(h="heuristic"), players, 41, 250)
        b = fast(Rules(), mix.format(h="greedy"), players, 41, 250)
        np.testing.assert_array_equal(a, b)


def test_defaults_decide_as_greedy_under_other_rules():
    for overrides in ({"num_rounds": 3, "map_price": 1},
                      {"board_after_move_same_turn": True, "lone_player_free_moves": False}):
        rules = Rules.from_overrides(overrides)
        np.testing.assert_array_equal(fast(rules, "heuristic", 4, 43, 150),
                                      fast(rules, "greedy", 4, 43, 150))


def test_defaults_decide_as_greedy_on_the_reference_path():
    policies = {name: GAME.seat_policies(f"{name},random,{name}", 3)
                for name in ("heuristic", "greedy")}
    for game in range(2):
        assert GAME.reference(Rules(), policies["heuristic"], 3, 47, game) == \
            GAME.reference(Rules(), policies["greedy"], 3, 47, game)


# ---------------------------------------------------------------- reference == fast

MIXES = [
    (2, f"{ALL_ON},random", 16),
    (2, f"greedy,{ALL_ON}", 12),
    (3, f"greedy,{ALL_ON},random", 10),
    (4, f"{ALL_ON},greedy,heuristic:w_deny=1.2:w_cont=-0.3,random", 8),
    (5, f"random,{ALL_ON},greedy,heuristic:w_bunk_active=1.5:tau_boarded=0.8,greedy", 6),
]


@pytest.mark.parametrize(("players", "mix", "games"), MIXES)
def test_reference_equals_fast(players, mix, games):
    assert_same(Rules(), mix, players, 53, games)


def test_reference_equals_fast_beside_a_rollout():
    assert_same(Rules(), f"rollout:samples=2:width=2,{ALL_ON},greedy", 3, 59, 1)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_presets(preset):
    rules = Rules.from_overrides(preset=preset)
    assert_same(rules, f"{ALL_ON},greedy,random,{ALL_ON}", 4, 61, 4)


# the options the features read (move-again coin, lone moves, map price, guards, rounds,
# the mast, rests and boarding) and a few that change the corners' worth
OPTIONS = [
    {"num_rounds": 3, "starting_hand": 13},
    {"move_again_coin": 2, "lone_player_free_moves": False, "dark_coin": 0},
    {"map_price": 1, "coin_supply": 15, "rum_supply": 12},
    {"guard_stack_visible": True, "guard_win_rule": "greater_or_equal"},
    {"board_after_move_same_turn": True, "zero_hand_may_rest": True, "rest_coin": 1,
     "starting_coins_by_seat": (5, 5, 5, 5, 5)},
    {"stop_after_move_boards": True, "dead_end_next_move_free": True},
    {"hq_dark_pair_any": False, "hq_tile_position": "center", "forced_dark_free": False},
    {"pub_join_requires_active": True, "supply_scoring": "best_per_kind",
     "bunk_tie_rule": "reroll"},
]


@pytest.mark.parametrize("overrides", OPTIONS, ids=lambda o: ",".join(o))
def test_rule_options(overrides):
    rules = Rules.from_overrides(overrides)
    assert_same(rules, f"{ALL_ON},random,greedy", 3, 67, 5)


def random_vectors(n: int, seed: int) -> list[dict]:
    """``n`` weight vectors drawn uniformly inside every parameter's search box."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        values = {}
        for p in HEURISTIC.params:
            lo, hi = p.search
            v = rng.uniform(lo, hi)
            values[p.name] = int(round(v)) if p.integer else round(float(v), 4)
        out.append(values)
    return out


VECTORS = random_vectors(16, 2027)


@pytest.mark.parametrize("k", range(len(VECTORS)))
def test_random_weight_vectors_in_the_search_box(k):
    players = 2 + k % 4
    others = ["greedy", "random", "greedy", "heuristic"][:players - 1]
    mix = ",".join([label(VECTORS[k]), *others])
    assert_same(Rules(), mix, players, 71 + k, 10)


@pytest.mark.parametrize("corner", [0, 1], ids=["low", "high"])
def test_the_search_box_corners(corner):
    values = {p.name: (int(p.search[corner]) if p.integer else float(p.search[corner]))
              for p in HEURISTIC.params}
    assert_same(Rules(), f"{label(values)},greedy,random,greedy", 4, 79 + corner, 6)


def test_the_search_box_lies_within_the_legal_range():
    for p in HEURISTIC.params:
        assert p.search is not None, p.name
        lo, hi = p.search
        assert p.low <= lo < hi <= p.high, p.name
        assert lo <= p.default <= hi, p.name


# ---------------------------------------------------------------- every parameter is read


@pytest.mark.parametrize("param", HEURISTIC.params, ids=lambda p: p.name)
def test_each_parameter_changes_the_games(param):
    lo, hi = param.search
    moved = hi if abs(hi - param.default) >= abs(lo - param.default) else lo
    value = int(moved) if param.integer else moved
    base = fast(Rules(), "greedy,heuristic,greedy,greedy", 4, 73, 300)
    other = fast(Rules(), f"greedy,heuristic:{param.name}={value},greedy,greedy", 4, 73, 300)
    assert not np.array_equal(base, other), param.name


def test_the_new_features_enter_with_weight_zero():
    greedy = POLICIES["greedy"]
    assert [p.name for p in HEURISTIC.params[:len(greedy.params)]] == \
        [p.name for p in greedy.params]
    for p, q in zip(HEURISTIC.params, greedy.params, strict=False):
        assert (p.default, p.low, p.high, p.integer) == (q.default, q.low, q.high, q.integer)
    for p in NEW:
        assert p.default == (0.4 if p.name == "map_odd" else 0.0), p.name
