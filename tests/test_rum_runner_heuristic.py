"""Rum Runner's ``heuristic`` policy: greedy's decisions valued by a weighted sum of features.

* At its default weights it is greedy: identical outcome rows on the same seeds, on both paths
  and under the presets.
* Reference = fast (conftest.assert_same) at the defaults, at weight vectors drawn inside the
  search box (where ``rumsim train`` goes), and under every rule option.
* Every new weight, moved from its default, changes some games (each feature is read).

Rum Runner is a solo game, so there are no policy mixes to seat.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways
from test_rum_runner_equivalence import OPTION_CASES, _case_id

from engines import get_game
from engines.rum_runner import POLICIES
from engines.rum_runner.rules import Rules

GAME = get_game("rum-runner")
SPEC = POLICIES["heuristic"]
GREEDY_PARAMS = ("draw_threshold", "replenish_weight")

# A vector of the kind training finds (a short CMA-ES run on the mean score under both the
# standard and long presets): it draws for chains, values exhausted piles and suit sets, keeps
# ports in reach open (and under `long` closes them as refuelling stops): every feature counts.
TRAINED = {
    "draw_threshold": 19.55, "replenish_weight": 4.22, "w_card": 6.59, "w_scarce": -2.63,
    "w_pair": 0.92, "w_exhausted": 8.11, "w_chain": 0.37, "w_stop": 3.06, "w_draw_free": 33.73,
    "w_draw_hand": -2.51, "w_draw_open": 4.96, "w_flip_reach": 16.28, "w_flip_same": 8.41,
    "w_flip_left": 11.97, "w_free_replenish": 12.34, "w_free_reach": -35.42,
    "w_free_same": -10.47, "w_free_stop": 6.54,
}


def policy_text(values: dict[str, float]) -> str:
    return ":".join(["heuristic"] + [f"{k}={v:.4f}" for k, v in values.items()])


def box_vectors(n: int, seed: int) -> list[dict[str, float]]:
    """``n`` weight vectors drawn uniformly inside each parameter's search box."""
    gen = np.random.default_rng(seed)
    return [{p.name: float(gen.uniform(*p.search)) for p in SPEC.params} for _ in range(n)]


def fast_rows(rules: Rules, text: str, seed: int, n: int) -> np.ndarray:
    return GAME.fast(rules, GAME.seat_policies(text, 1), 1, seed, 0, n)


# ---------------------------------------------------------------- the declaration


def test_declaration():
    names = [p.name for p in SPEC.params]
    assert len(names) == len(set(names)) <= 24
    # a trained set (base "heuristic") shares the heuristic's code; a declared policy never does
    assert SPEC.code not in [s.code for n, s in POLICIES.items()
                             if n != "heuristic" and s.base is None]
    greedy = POLICIES["greedy"]
    for p in SPEC.params:
        assert p.search is not None and p.search[0] < p.search[1], p.name
        assert p.low <= p.search[0] and p.search[1] <= p.high, p.name
        assert p.help and not p.help.endswith("."), p.name
        if p.name in GREEDY_PARAMS:
            assert p.default == greedy.default(p.name)  # greedy's values
        else:
            assert p.default == 0.0  # a new feature enters with weight 0
        assert p.search[0] <= p.default <= p.search[1], p.name


# ---------------------------------------------------------------- defaults == greedy


@pytest.mark.parametrize("preset", ["standard", "long", "combined", "exclusive_sets"])
def test_defaults_play_exactly_as_greedy(preset):
    rules = Rules.from_overrides(preset=preset)
    n = 300 if preset == "exclusive_sets" else 3000
    assert (fast_rows(rules, "heuristic", 41, n) == fast_rows(rules, "greedy", 41, n)).all()


@pytest.mark.parametrize("overrides", [
    {"flipped_port_effect": "replenish_and_collect", "replenish_amount": "turn_steps"},
    {"flipped_ports_count_as_spaces": False, "replenish_includes_played_card": False},
    {"bounce_mode": "stop_at_end", "replenish_amount": "cards_played_this_turn",
     "flip_after_draw": False},
], ids=["collect-turn-steps", "skip-closed-keep-played", "stop-cards-long"])
def test_defaults_play_as_greedy_under_options(overrides):
    rules = Rules.from_overrides(overrides)
    text = "greedy:draw_threshold=3:replenish_weight=0.5"
    same = "heuristic:draw_threshold=3:replenish_weight=0.5"
    assert (fast_rows(rules, same, 42, 2000) == fast_rows(rules, text, 42, 2000)).all()


def test_defaults_play_as_greedy_on_the_reference_path():
    rules = Rules.from_overrides(preset="long")
    greedy = GAME.seat_policies("greedy", 1)
    heuristic = GAME.seat_policies("heuristic", 1)
    for game in range(15):
        assert (GAME.reference(rules, heuristic, 1, 43, game)
                == GAME.reference(rules, greedy, 1, 43, game))


# ---------------------------------------------------------------- reference == fast


def test_reference_equals_fast_at_the_defaults():
    both_ways(GAME, Rules(), "heuristic", 1, 44, 40)


@pytest.mark.parametrize("preset", ["standard", "long"])
def test_reference_equals_fast_at_trained_weights(preset):
    both_ways(GAME, Rules.from_overrides(preset=preset), policy_text(TRAINED), 1, 45, 50)


@pytest.mark.parametrize("w_chain", [-0.5, 0.0, 1.5])
def test_reference_equals_fast_whatever_the_chain_weight(w_chain):
    """A negative w_chain turns off the fast path's exact pruning; 0 and the box's top keep it."""
    values = dict(TRAINED, w_chain=w_chain)
    both_ways(GAME, Rules(), policy_text(values), 1, 52, 25)


@pytest.mark.parametrize("i,values", list(enumerate(box_vectors(16, seed=46))),
                         ids=[f"box{i}" for i in range(16)])
def test_reference_equals_fast_inside_the_search_box(i, values):
    preset = ("standard", "long", "combined", "long")[i % 4]
    both_ways(GAME, Rules.from_overrides(preset=preset), policy_text(values), 1, 47 + i, 30)


@pytest.mark.parametrize("overrides", OPTION_CASES, ids=[_case_id(c) for c in OPTION_CASES])
def test_reference_equals_fast_under_rule_options(overrides):
    both_ways(GAME, Rules.from_overrides(overrides), policy_text(TRAINED), 1, 48, 4)


def test_reference_equals_fast_with_exclusive_sets():
    # the reference's exclusive-sets DP is slow in Python: a few games
    both_ways(GAME, Rules.from_overrides(preset="exclusive_sets"), policy_text(TRAINED), 1, 49,
              3)


# ---------------------------------------------------------------- every feature is read


@pytest.mark.parametrize("param", [p for p in SPEC.params if p.name not in GREEDY_PARAMS],
                         ids=lambda p: p.name)
def test_each_new_weight_changes_some_decisions(param):
    """From the trained vector, moving one weight to an end of its search box changes games
    (the free-draw terms under the long preset, where they apply)."""
    rules = Rules.from_overrides(preset="long" if "free" in param.name else "standard")
    base = dict(TRAINED)
    moved = dict(TRAINED)
    lo, hi = param.search
    moved[param.name] = lo if abs(base[param.name] - lo) > abs(base[param.name] - hi) else hi
    one = fast_rows(rules, policy_text(base), 50, 400)
    two = fast_rows(rules, policy_text(moved), 50, 400)
    assert not (one == two).all(), param.name


@pytest.mark.parametrize("param", [p for p in SPEC.params if p.name not in GREEDY_PARAMS],
                         ids=lambda p: p.name)
def test_each_new_weight_alone_moves_greedy(param):
    """From the defaults (greedy), one new weight at an end of its box changes games."""
    rules = Rules.from_overrides(preset="long" if "free" in param.name else "standard")
    lo, hi = param.search
    value = hi if abs(hi) >= abs(lo) else lo
    one = fast_rows(rules, "greedy", 51, 400)
    two = fast_rows(rules, f"heuristic:{param.name}={value}", 51, 400)
    assert not (one == two).all(), param.name
