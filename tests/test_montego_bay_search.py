"""Montego Bay's sampler searching over a base policy (``sampler:base=expert``, issue 25).

* ``base=greedy`` (the default) is the sampler as it was: its label stays ``sampler`` and the
  equivalence and golden suites run unchanged;
* ``base=expert`` values its options as the trained heuristic does (look-ahead tables, the
  opponents' myopic model, hire rule, loading), drawing ``n_samples`` opponent profiles in
  place of the heuristic's one myopic profile: with ``n_samples=1, q_myopic=1`` it plays
  exactly as the expert, and its own greedy-form parameters (gamma, the weights,
  lambda_load, hire_threshold) are not read;
* the reference path (``policies.SampledHeuristicPolicy``) equals the fast path game for
  game at 2, 3 and 4 players, in mixes and under the rule options that reach its decisions.

The reference search is slow (about 0.6 s a game at 2 players with two samples, 0.07 s at
3-4), so the reference checks play few games with two or three samples.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines.montego_bay import GAME
from engines.montego_bay.rules import Rules

SEARCH = "sampler:base=expert:n_samples=2"


def assert_same(rules, policy_text, players, seed, games, first=0):
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


def col(rows, players, name):
    return rows[:, GAME.column_names(players).index(name)]


def fast(rules, text, players, seed, games):
    return GAME.fast(rules, GAME.seat_policies(text, players), players, seed, 0, games)


# ---------------------------------------------------------------- the parameter


def test_base_is_named_and_greedy_by_default():
    assert GAME.policy("sampler").label() == "sampler"
    assert GAME.policy("sampler:base=greedy").label() == "sampler"
    searched = GAME.policy("sampler:base=expert")
    assert searched.label() == "sampler:base=expert"
    assert searched.base.spec.name == "heuristic"
    assert searched.base.values == GAME.policy("expert").values


# ---------------------------------------------------------------- what base=expert means


@pytest.mark.parametrize(("players", "games"), [(2, 120), (3, 200), (4, 150)])
def test_one_myopic_profile_plays_as_the_expert(players, games):
    # n_samples=1 and q_myopic=1: the one profile is the expert's myopic one (the draws
    # come from the seat's own stream, which nothing else reads).
    seats = ",".join(["{s}", "expert", "random", "greedy"][:players])
    one = "sampler:base=expert:n_samples=1:q_myopic=1"
    searched = fast(Rules(), seats.format(s=one), players, 41, games)
    expert = fast(Rules(), seats.format(s="expert"), players, 41, games)
    np.testing.assert_array_equal(searched, expert)


def test_one_myopic_profile_plays_as_the_expert_on_the_reference_path_too():
    rows = {}
    for text in ("sampler:base=expert:n_samples=1:q_myopic=1", "expert"):
        policies = GAME.seat_policies(f"{text},random,random", 3)
        rows[text] = [GAME.reference(Rules(), policies, 3, 43, game) for game in range(2)]
    assert rows["expert"] == rows["sampler:base=expert:n_samples=1:q_myopic=1"]


def test_the_samplers_own_weights_are_not_read_over_the_expert():
    mix = "{s},expert,greedy"
    plain = fast(Rules(), mix.format(s="sampler:base=expert:n_samples=3"), 3, 47, 150)
    moved = fast(Rules(), mix.format(
        s="sampler:base=expert:n_samples=3:gamma=3:lambda_load=-2:w_g=0.1:w_c=4:w_x=3:"
          "hire_threshold=9"), 3, 47, 150)
    np.testing.assert_array_equal(plain, moved)
    # ... while its search parameters are, and the base changes the games
    assert not np.array_equal(plain, fast(Rules(), mix.format(
        s="sampler:base=expert:n_samples=3:q_myopic=0.9"), 3, 47, 150))
    assert not np.array_equal(plain, fast(Rules(), mix.format(s="sampler:n_samples=3"),
                                          3, 47, 150))


# ---------------------------------------------------------------- reference == fast


@pytest.mark.parametrize(("players", "mix", "games"), [
    (2, f"{SEARCH},expert", 3),
    (2, "random,sampler:base=expert:n_samples=3:q_myopic=0.2", 2),
    (3, SEARCH, 6),
    (3, "random,sampler:base=expert:n_samples=3:q_myopic=0.8,sampler:n_samples=2", 5),
    (4, SEARCH, 4),
    (4, f"expert,{SEARCH},greedy,random", 5),
])
def test_reference_equals_fast(players, mix, games):
    rows = assert_same(Rules(), mix, players, 53, games)
    assert (col(rows, players, "rounds") >= 3).all()
    assert sum(col(rows, players, f"lazy_jack_hires_{s}").sum() for s in range(players)) > 0


OPTIONS = [
    ({"preset": "short"}, 3),
    ({"workers_per_player_2p": 2}, 2),
    ({"two_player_extra_workers": "both_small"}, 2),
    ({"path_end_spaces": 2, "pub_entry": "left_bottom"}, 4),
    ({"resolution_order": "warehouse_columns"}, 4),
    ({"freight_ships": 6, "stack_b_size": 0}, 4),
    ({"lazy_jack_cost": 2, "lazy_jack_distinct_card": False}, 4),
    ({"lazy_jack_cost": 2, "lazy_jack_blocked": "stay_with_companion_unresolved",
      "lazy_jack_collects_coin": False}, 4),
    ({"barrels_per_player": 8, "load_count": "while_stock"}, 4),
    ({"majority_zero_mode": "lowest_loader_zero", "tie_rounding": "exact_fraction"}, 4),
    ({"fill_bonus": 2, "end_threshold": 2}, 3),
    ({"must_load_all": False}, 3),
]


@pytest.mark.parametrize(("overrides", "players"), OPTIONS,
                         ids=[str(i) for i in range(len(OPTIONS))])
def test_reference_equals_fast_under_rule_options(overrides, players):
    rest = {k: v for k, v in overrides.items() if k != "preset"}
    rules = Rules.from_overrides(rest, preset=overrides.get("preset"))
    seats = f"{SEARCH},random" if players == 2 else ",".join(
        [SEARCH, "expert", "random", "random"][:players])
    assert_same(rules, seats, players, 59, 3 if players > 2 else 2)


def test_auction_bids_over_the_expert():
    rules = Rules(lazy_jack_allocation="auction", start_coins_by_seat=(6, 6, 3, 0))
    rows = assert_same(rules, f"{SEARCH},expert,random", 3, 61, 8)
    assert col(rows, 3, "lazy_jack_hires_0").sum() > 0
