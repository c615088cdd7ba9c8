"""A policy-valued parameter (a search's playout policy, `rollout:base=expert`): parsed by
name, labelled by name, resolved to the declared policy both paths play, encoded after the
seats' rows, and refused in one line when it names no policy it can play."""

import numpy as np
import pytest

from engines import get_game
from engines._game import POLICY_WIDTH, Policy
from engines._rules import RulesError


@pytest.fixture()
def game():
    """Rum & Pirates, whose rollout declares its playout policy (``base``)."""
    info = get_game("rum-and-pirates")
    assert info.policies["rollout"].params[-1].policies == ("greedy", "expert")
    return info


def test_parsed_and_labelled_by_name(game):
    p = game.policy("rollout:base=expert")
    assert p.label() == "rollout:base=expert"
    assert game.policy("rollout").label() == "rollout"
    assert p.param("base") == 1.0


def test_resolved_to_the_declared_policy(game):
    p = game.policy("rollout:base=expert")
    expert = game.policy("expert")
    # a trained set plays as its base policy (the heuristic) with the set's values
    assert p.base.spec.name == expert.spec.base == "heuristic"
    assert p.base.values == expert.values
    assert game.policy("rollout").base.spec.name == "greedy"
    # a policy built without parsing (a trainer's) is resolved the same way
    bare = Policy(p.spec, p.values)
    assert game.resolve(bare).base == p.base
    assert game.declared(bare).base == p.base


def test_encoded_after_the_seats(game):
    p = game.policy("rollout:base=expert")
    assert np.array_equal(p.encode_base(), game.policy("expert").encode())
    assert not game.policy("greedy").encode_base().any()
    assert p.encode_base().shape == (POLICY_WIDTH,)


@pytest.mark.parametrize("text, words", [
    ("rollout:base=exprt", "did you mean 'expert'"),
    ("rollout:base=rollout", "names no policy it can play"),
    ("rollout:base=1", "names no policy it can play"),
])
def test_a_wrong_name_is_one_line(game, text, words):
    with pytest.raises(RulesError, match=words):
        game.policy(text)
