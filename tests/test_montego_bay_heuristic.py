"""Montego Bay's ``heuristic`` policy: greedy's look-ahead scored by weighted named features.

* at its declared defaults it decides exactly as greedy (identical outcome rows);
* the reference path (``policies.HeuristicPolicy``) equals the fast path game for game at
  every player count, in mixes with the other policies, under rule options and at weight
  vectors drawn inside the box ``rumsim train`` searches;
* every parameter moved from its default changes some games (each feature reaches a
  decision).

The reference path is slow (a quarter of a second a game at 3 players), so the reference
checks play few games each; the heuristic mostly sits among cheaper random seats there.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines.montego_bay import GAME, POLICIES
from engines.montego_bay.data import DEFAULT_SHIPS
from engines.montego_bay.rules import Rules

HEURISTIC = POLICIES["heuristic"]
NEW = [p for p in HEURISTIC.params if p.name not in {q.name for q in POLICIES["greedy"].params}]

# Every weight away from its default (inside the search box).
HAND = ("heuristic:gamma=0.35:hire_threshold=1.5:w_g=1.2:w_c=0.6:w_x=1.4:lambda_load=0.6:"
        "gamma_far=-0.1:gamma_end=0.3:deny_load=0.5:fill_risk=0.5:deny_move=0.4:w_risk=0.3:"
        "w_next=0.2:w_late=0.8:w_unload=0.5:w_c_late=-0.4:hire_late=-1.5")


def assert_same(rules, policy_text, players, seed, games, first=0):
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


def rules_of(overrides):
    rest = {k: v for k, v in overrides.items() if k != "preset"}
    return Rules.from_overrides(rest, preset=overrides.get("preset"))


def fast(rules, policy_text, players, seed, games):
    return GAME.fast(rules, GAME.seat_policies(policy_text, players), players, seed, 0, games)


def col(rows, players, name):
    return rows[:, GAME.column_names(players).index(name)]


# ---------------------------------------------------------------- the declaration


def test_declared_parameters_and_search_boxes():
    assert 8 <= len(HEURISTIC.params) <= 24
    greedy = POLICIES["greedy"]
    # greedy's parameters first, in greedy's columns, with greedy's defaults
    for p, g in zip(HEURISTIC.params, greedy.params, strict=False):
        assert (p.name, p.default) == (g.name, g.default)
    assert HEURISTIC.slots().gamma == greedy.slots().gamma
    for p in HEURISTIC.params:
        assert p.search is not None, p.name
        lo, hi = p.search
        assert p.low <= lo < hi <= p.high, p.name
        assert lo <= p.default <= hi, p.name
        assert p.help, p.name
    for p in NEW:
        assert p.default == 0.0, p.name


# ---------------------------------------------------------------- defaults == greedy


IDENTITY = [
    ({}, 2, "{h}", 150),
    ({}, 3, "{h}", 300),
    ({}, 4, "{h}", 200),
    ({}, 3, "{h},random,greedy", 200),
    ({}, 4, "random,{h},sampler:n_samples=1,{h}", 60),
    ({"preset": "short"}, 3, "{h}", 200),
    ({"lazy_jack_allocation": "auction", "start_coins_by_seat": (6, 6, 3, 0)}, 3,
     "{h}:hire_threshold=-3,{h},random", 150),
    ({"must_load_all": False, "fill_bonus": 0,
      "ship_table": tuple(x for _ in range(15) for x in (2, 6, 3, 1, 7, 4, 2))}, 3,
     "{h}:gamma=10,{h},{h}", 100),
    ({"path_end_spaces": 2, "pub_entry": "left_bottom"}, 4, "{h}", 100),
    ({"tie_rounding": "exact_fraction", "lazy_jack_cost": 2}, 2, "{h},random", 100),
]


@pytest.mark.parametrize(("overrides", "players", "mix", "games"), IDENTITY,
                         ids=[f"{i}" for i in range(len(IDENTITY))])
def test_defaults_decide_exactly_as_greedy(overrides, players, mix, games):
    rules = rules_of(overrides)
    heuristic = fast(rules, mix.format(h="heuristic"), players, 31, games)
    greedy = fast(rules, mix.format(h="greedy"), players, 31, games)
    np.testing.assert_array_equal(heuristic, greedy)


def test_defaults_decide_as_greedy_on_the_reference_path_too():
    policies = {name: GAME.seat_policies(name, 3) for name in ("greedy", "heuristic")}
    for game in range(2):
        rows = [GAME.reference(Rules(), policies[name], 3, 8, game) for name in policies]
        assert rows[0] == rows[1]


# ---------------------------------------------------------------- reference == fast


@pytest.mark.parametrize(("players", "games"), [(2, 2), (3, 5), (4, 4)])
@pytest.mark.parametrize("policy", ["heuristic", HAND])
def test_reference_equals_fast_every_player_count(policy, players, games):
    assert_same(Rules(), policy, players, 50 + players, games)


MIXES = [
    (2, f"{HAND},random", 4),
    (2, "greedy,heuristic:deny_move=1:w_risk=1:lambda_load=1", 2),
    (3, f"random,{HAND},greedy", 5),
    (3, f"{HAND},random,sampler:n_samples=1", 3),
    (4, f"random,random,{HAND},greedy", 4),
    (4, f"random,{HAND},random,heuristic:deny_load=1:gamma_end=0.5:hire_late=-3", 3),
]


@pytest.mark.parametrize(("players", "mix", "games"), MIXES)
def test_reference_equals_fast_in_mixes(players, mix, games):
    rows = assert_same(Rules(), mix, players, 61, games)
    assert (col(rows, players, "rounds") >= 3).all()


OPTIONS = [
    {"preset": "short"},
    {"preset": "no_lazy_jack"},
    {"lazy_jack_allocation": "auction", "start_coins_by_seat": (6, 6, 3, 0)},
    {"lazy_jack_cost": 2, "lazy_jack_blocked": "stay_with_companion_unresolved",
     "lazy_jack_distinct_card": False},
    {"must_load_all": False, "fill_bonus": 0,
     "ship_table": tuple(x for _ in range(15) for x in (2, 6, 3, 1, 7, 4, 2))},
    {"path_end_spaces": 2, "pub_entry": "left_bottom"},
    {"resolution_order": "warehouse_columns", "tie_rounding": "exact_fraction"},
    {"majority_zero_mode": "lowest_loader_zero", "barrels_per_player": 8,
     "load_count": "while_stock"},
    {"freight_ships": 6, "stack_b_size": 0, "end_threshold": 2},
    {"ship_table": DEFAULT_SHIPS + (10, 12, 6, 3, 13, 7, 4), "bank_coins": 10,
     "lazy_jack_collects_coin": False},
]


@pytest.mark.parametrize("overrides", OPTIONS, ids=lambda o: ",".join(o)[:50])
def test_reference_equals_fast_under_rule_options(overrides):
    rules = rules_of(overrides)
    assert_same(rules, f"{HAND},random,{HAND.replace('deny_move=0.4', 'deny_move=-0.3')}",
                3, 71, 2)
    assert_same(rules, f"random,{HAND},random,random", 4, 72, 2)


def _search_box_vectors(n, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        values = [rng.uniform(*p.search) for p in HEURISTIC.params]
        out.append("heuristic:" + ":".join(f"{p.name}={v!r}"
                                           for p, v in zip(HEURISTIC.params, values,
                                                           strict=True)))
    return out


VECTORS = _search_box_vectors(15, 2024)


@pytest.mark.parametrize("k", range(len(VECTORS)))
def test_reference_equals_fast_at_weights_inside_the_search_box(k):
    players = 2 + k % 3
    seats = ["random"] * players
    seats[k % players] = VECTORS[k]
    if players == 4:
        seats[(k + 2) % players] = VECTORS[(k + 1) % len(VECTORS)]
    assert_same(Rules(), ",".join(seats), players, 900 + k, 4 if players == 2 else 8)


# ---------------------------------------------------------------- every feature matters


@pytest.mark.parametrize("param", HEURISTIC.params, ids=lambda p: p.name)
def test_each_parameter_changes_some_decision(param):
    """Moved to either end of its search box, each parameter changes some of 300 games."""
    base = fast(Rules(), "heuristic,greedy,greedy", 3, 5, 300)
    changed = [not np.array_equal(base, fast(Rules(), f"heuristic:{param.name}={end!r},"
                                             "greedy,greedy", 3, 5, 300))
               for end in param.search]
    assert any(changed)
