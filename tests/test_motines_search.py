"""21 Motines' ``rollout`` over a base policy (``rollout:base=expert``, issue 25).

The search ranks its candidates with the base's one-step values, plays every seat of every
playout as the base and makes its other decisions (D3-D8) as the base. ``base=greedy`` is
the default and the rollout as it was (its games are the existing equivalence suite's and
the golden narration's, unchanged); ``base=expert`` is the trained heuristic
(``engines/motines/trained/expert.toml``). Both paths must give the same rows. The
reference path plays every option to the end several times (about a second a game at
these settings), so it is compared on 9 games in all, at 3, 4 and 5 players, with other
rules and per-seat mixes; the fast path's own checks play more.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines.motines import GAME
from engines.motines.policies import RolloutPolicy, build
from engines.motines.rules import Rules


def assert_same(overrides, policy_text, players, games):
    return both_ways(GAME, Rules.from_overrides(overrides), policy_text, players, 29, games)


def fast(policy_text, players, games, seed=7):
    return GAME.fast(Rules(), GAME.seat_policies(policy_text, players), players, seed, 0, games)


# 9 games on both paths: every case has a rollout over the expert; some mix in a rollout
# over greedy, so one block plays playouts of both bases
SEARCH_CASES = [
    ({}, "rollout:samples=2:width=2:base=expert,greedy,expert,greedy", 4, 3),
    ({}, "expert,rollout:samples=2:width=3:prior=0.3:base=expert,rollout:samples=1:width=2",
     3, 2),
    ({"hidden_hands": False}, "rollout:samples=2:width=2:base=expert,random,expert", 3, 2),
    ({"free_round_resolution": "placement_order", "num_mutinies": 5},
     "rollout:samples=2:width=3:base=expert,planner,expert,greedy,"
     "rollout:samples=1:width=2:base=expert", 5, 2),
]


@pytest.mark.parametrize("overrides, policies, players, games", SEARCH_CASES)
def test_search_over_the_expert_is_the_same_both_ways(overrides, policies, players, games):
    assert_same(overrides, policies, players, games)


def test_the_default_base_is_greedy():
    p = GAME.policy("rollout")
    assert p.label() == "rollout" and p.base.spec.name == "greedy"
    assert GAME.policy("rollout:base=greedy").label() == "rollout"
    e = GAME.policy("rollout:base=expert")
    assert e.label() == "rollout:base=expert"
    assert e.base.spec.name == "heuristic" and e.base.values == GAME.policy("expert").values


def test_one_candidate_plays_as_greedy():
    """width=1 plays no playout and draws nothing: over greedy (exact values in quarters but
    for expected values) the seat's games are greedy's."""
    text = "rollout:width=1,greedy,rollout:width=1,expert"
    assert np.array_equal(fast(text, 4, 300), fast("greedy,greedy,greedy,expert", 4, 300))


def test_one_candidate_plays_as_the_expert_but_for_near_ties(monkeypatch):
    """width=1 over the expert: every D1/D2/D9 is the expert's own choice unless its best two
    values are within the tolerance 1e-9 (the expert's scan keeps the earlier option, the
    ranking the larger value; the heuristic's float values meet such near-ties, game 115 of
    seed 7 has one); its other decisions are the expert's. Fast path: few games differ."""
    a = fast("rollout:width=1:base=expert,greedy,expert,expert", 4, 300)
    b = fast("expert,greedy,expert,expert", 4, 300)
    assert (a != b).any(axis=1).sum() <= 3
    decide = RolloutPolicy.decide
    seen = {"decisions": 0, "near ties": 0}

    def checked(self, t, seat, options, decision):
        mine = decide(self, t, seat, options, decision)
        theirs = getattr(self.base, decision)(t, seat, options)
        seen["decisions"] += 1
        if mine != theirs:
            values = self.base.option_values(t, seat, options, decision)
            gap = values[options.index(mine)] - values[options.index(theirs)]
            assert 0 < gap <= 1e-9, (decision, options, values)
            seen["near ties"] += 1
        return mine

    monkeypatch.setattr(RolloutPolicy, "decide", checked)
    policies = GAME.seat_policies("rollout:width=1:base=expert,greedy,expert,expert", 4)
    for game in (115, 0, 1):
        GAME.reference(Rules(), policies, 4, 7, game)
    assert seen["decisions"] > 50 and seen["near ties"] >= 1


def test_the_base_changes_the_search():
    greedy = fast("rollout:samples=2:width=2,greedy,greedy,greedy", 4, 40)
    expert = fast("rollout:samples=2:width=2:base=expert,greedy,greedy,greedy", 4, 40)
    assert (greedy != expert).any(axis=1).sum() >= 20


def test_the_prior_keeps_the_base_choice_more_often():
    """prior: the base's best option starts ahead; at 0 (the default) the rollout as it was."""
    plain = fast("rollout:samples=2:width=2:base=expert,expert,expert,expert", 4, 40)
    ahead = fast("rollout:samples=2:width=2:prior=0.3:base=expert,expert,expert,expert", 4, 40)
    assert (plain != ahead).any(axis=1).sum() >= 10
    assert GAME.policy("rollout:prior=0").label() == "rollout"


def test_a_base_is_built_from_the_resolved_policy():
    maker = build(GAME.declared(GAME.policy("rollout:base=expert")), None)
    assert type(maker.base).__name__ == "HeuristicPolicy"
    assert maker.base.w_treasure == GAME.policy("expert").param("w_treasure")
    with pytest.raises(ValueError, match="resolved"):
        RolloutPolicy(None, base=1)
