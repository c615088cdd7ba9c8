"""Rum Runner: the Numba fast path (engine.py) replays the reference path (reference.py) exactly.

For the same rules, policy, seed and game index both paths must give the identical
outcome row, all 14 columns. The games below cover random and greedy on the default
rules, greedy with other parameters, the ``long`` preset, every rule option at each
non-default value, and the rollout policy (threads, chunking and indexing:
test_fast_path_contract.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines import get_game
from engines.rum_runner import engine
from engines.rum_runner.cards import Card
from engines.rum_runner.rules import Rules
from engines.rum_runner.scoring import score_with_rules

GAME = get_game("rum-runner")


def assert_same(rules: Rules, policy_text: str, seed: int, n: int, first: int = 0) -> None:
    both_ways(GAME, rules, policy_text, 1, seed, n, first)


# ---------------------------------------------------------------- default rules, policies


def test_random_default_rules():
    assert_same(Rules(), "random", seed=11, n=1500)


def test_greedy_default_rules():
    assert_same(Rules(), "greedy", seed=12, n=700)


@pytest.mark.parametrize("policy", [
    "greedy:draw_threshold=0",
    "greedy:draw_threshold=4",
    "greedy:replenish_weight=0.5",
    "greedy:draw_threshold=-1:replenish_weight=2.5",
])
def test_greedy_parameters(policy):
    assert_same(Rules(), policy, seed=13, n=150)


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_long_preset(policy):
    rules = Rules.from_overrides(preset="long")
    assert not rules.flip_after_draw
    assert_same(rules, policy, seed=14, n=200)


# ---------------------------------------------------------------- every rule option

# Each non-default value of every option of rules.py at least once, plus combinations
# where options interact (movement when closed ports are skipped, replenishment
# with a reshuffling deck, exclusive sets with the hand scoring).
OPTION_CASES = [
    {"start_end": "left"},
    {"start_end": "right"},
    {"start_end": "random"},
    {"port_topology": "ring"},
    {"flipped_ports_count_as_spaces": False},
    {"flipped_ports_count_as_spaces": False, "port_topology": "ring"},
    {"flipped_ports_count_as_spaces": False, "bounce_mode": "stop_at_end"},
    {"multi_card_mode": "combined"},
    {"bounce_mode": "stop_at_end"},
    {"bounce_mode": "wrap"},
    {"flipped_port_effect": "replenish_and_collect"},
    {"flipped_port_effect": "nothing"},
    {"replenish_amount": "turn_steps"},
    {"replenish_amount": "cards_played_this_turn"},
    {"replenish_includes_played_card": False},
    {"replenish_includes_played_card": False, "multi_card_mode": "combined",
     "flipped_port_effect": "replenish_and_collect", "reshuffle_discard_when_deck_empty": True},
    {"exhausted_pile_take": 0},
    {"exhausted_pile_take": 1},
    {"exhausted_pile_take": 16},
    {"draw_count": 1},
    {"draw_count": 5},
    {"draw_count": 16},
    {"draw_when_short": "forbid"},
    {"draw_when_short": "forbid", "reshuffle_discard_when_deck_empty": True},
    {"flip_after_draw": False},
    {"flip_on_pass": False},
    {"reshuffle_discard_when_deck_empty": True},
    {"reshuffle_discard_when_deck_empty": True, "flip_after_draw": False,
     "replenish_amount": "turn_steps"},
    {"hand_scores": True},
    {"suit_set_value": 0},
    {"suit_set_value": -20},
    {"suit_set_value": 100},
    {"pair_rule": "all_if_two_or_more"},
    {"score_band_edges": (50, 100, 120, 150, 200)},
    {"score_band_edges": (50, 100, 120, 150, 200), "score_band_edge_rule": "upper_inclusive"},
    {"win_threshold": 100},
    {"end_on_stranded": False},
    {"end_on_stranded": False, "max_turns": 16},
    {"max_turns": 16},
    {"flip_after_draw": False, "flip_on_pass": False, "end_on_stranded": False,
     "max_turns": 40},
]


def _case_id(overrides: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in overrides.items())


@pytest.mark.parametrize("overrides", OPTION_CASES, ids=[_case_id(c) for c in OPTION_CASES])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_rule_option(overrides, policy):
    assert_same(Rules.from_overrides(overrides), policy, seed=21, n=60)


# The reference scores exclusive suit sets with a slow Python DP (about 30 ms a greedy game),
# so fewer games here; test_fast_scoring_matches_reference covers the DP itself broadly.
@pytest.mark.parametrize("overrides,policy,n", [
    ({"suit_set_mode": "exclusive"}, "random", 150),
    ({"suit_set_mode": "exclusive"}, "greedy", 20),
    ({"suit_set_mode": "exclusive", "hand_scores": True, "pair_rule": "all_if_two_or_more"},
     "random", 40),
], ids=["exclusive-random", "exclusive-greedy", "exclusive-hand-pairs-random"])
def test_exclusive_suit_sets(overrides, policy, n):
    assert_same(Rules.from_overrides(overrides), policy, seed=22, n=n)


def test_large_seed_and_offset_games():
    assert_same(Rules(), "random", seed=2**64 - 7, n=40, first=10**12)


# ---------------------------------------------------------------- rollout


@pytest.mark.slow
def test_rollout_default_rules():
    assert_same(Rules(), "rollout:samples=2", seed=31, n=14)


@pytest.mark.slow
@pytest.mark.parametrize("overrides", [
    {"multi_card_mode": "combined"},
    {"flip_after_draw": False, "reshuffle_discard_when_deck_empty": True,
     "start_end": "random"},
    {"replenish_includes_played_card": False, "flipped_port_effect": "replenish_and_collect",
     "hand_scores": True},
], ids=["combined", "reshuffle-long-random-start", "keep-played-collect-hand"])
def test_rollout_rule_options(overrides):
    assert_same(Rules.from_overrides(overrides), "rollout:samples=1", seed=32, n=4)


# The rollout's playouts follow its `base` policy (issue 25): greedy by default, or the trained
# expert (the heuristic with expert.toml's values) on both paths. Few games: the reference's
# heuristic playouts take about 1-2 s a game at samples=1.
@pytest.mark.parametrize("preset,n", [("standard", 3), ("long", 2), ("combined", 1)])
def test_rollout_with_expert_playouts(preset, n):
    assert_same(Rules.from_overrides(preset=preset), "rollout:samples=1:base=expert", seed=33, n=n)


# The fast path's scores of rollout:samples=3 (seed 7, games 0-19), recorded before the rollout
# took a `base` (commit bc0ad25): its default, greedy, must play exactly as before.
ROLLOUT_BEFORE_BASE = {
    "standard": [224, 217, 227, 220, 209, 214, 216, 152, 191, 222, 229, 281, 226, 285, 210, 189,
                 247, 168, 181, 189],
    "long": [364, 345, 332, 303, 470, 412, 368, 383, 362, 328, 359, 396, 330, 320, 415, 365, 329,
             382, 421, 353],
}


@pytest.mark.parametrize("preset", ["standard", "long"])
def test_rollout_default_base_plays_as_before(preset):
    rules = Rules.from_overrides(preset=preset)
    for text in ("rollout:samples=3", "rollout:samples=3:base=greedy"):
        policies = GAME.seat_policies(text, 1)
        assert policies[0].label() == "rollout:samples=3"
        rows = GAME.fast(rules, policies, 1, 7, 0, 20)
        assert rows[:, 2].astype(int).tolist() == ROLLOUT_BEFORE_BASE[preset]


# ---------------------------------------------------------------- scoring on its own


@pytest.mark.parametrize("overrides", [
    {},
    {"suit_set_mode": "exclusive"},
    {"pair_rule": "all_if_two_or_more"},
    {"suit_set_mode": "exclusive", "pair_rule": "all_if_two_or_more", "suit_set_value": 7},
    {"suit_set_mode": "exclusive", "suit_set_value": -5},
])
def test_fast_scoring_matches_reference(overrides):
    """Fast scores after each card added (and each card's predicted gain) equal scoring.score."""
    rules = Rules.from_overrides(overrides)
    exclusive = rules.suit_set_mode == "exclusive"
    gen = np.random.default_rng(5)
    for _ in range(120):
        # the reference's exclusive DP is slow in Python on big collections
        size = int(gen.integers(1, 13 if exclusive else 37))
        cards = gen.permutation(36)[:size].astype(np.int64)
        fast = engine.score_cards(rules.encode(), cards)
        collection = [Card(int(c) // 4 + 2, int(c) % 4) for c in cards]
        expected = [score_with_rules(collection[:i + 1], rules)
                    for i in range(len(cards)) if not exclusive or i == len(cards) - 1]
        assert (fast != -(1 << 40)).all()  # score_plus mispredicted a card's gain
        assert (fast[-1:] if exclusive else fast).tolist() == expected


@pytest.mark.parametrize("overrides,all_36,without_2c,rum_only", [
    ({}, 550, 518, 374),
    ({"suit_set_mode": "exclusive"}, 350, 339, 230),
    ({"pair_rule": "all_if_two_or_more"}, 550, 518, 374),
])
def test_fast_scoring_of_large_collections(overrides, all_36, without_2c, rum_only):
    """Spec §9.1's big collections (too slow for the reference's exclusive DP)."""
    enc = Rules.from_overrides(overrides).encode()
    assert engine.score_cards(enc, np.arange(36, dtype=np.int64))[-1] == all_36
    assert engine.score_cards(enc, np.arange(1, 36, dtype=np.int64))[-1] == without_2c
    assert engine.score_cards(enc, np.arange(16, 36, dtype=np.int64))[-1] == rum_only


# ---------------------------------------------------------------- restricted play

# (rule overrides, policy, games): every choice forbidden and forced somewhere, every policy,
# rule options that change what can be chosen (a fixed start end, combined moves whose counts
# share their value's kind, draws that close no port, a reshuffling deck)
RESTRICTED = [
    ({}, "random:forbid=draw", 400),
    ({}, "random:force=draw+close_jack", 300),
    ({}, "random:forbid=start_left+chain+close_ace", 300),
    ({}, "random:force=start_right+play_2", 300),
    ({}, "random:force=start_left+chain:forbid=close_king+close_queen", 300),
    ({}, "random:forbid=start_right+play_4+play_5", 300),
    ({"multi_card_mode": "combined"}, "random:force=play_3+close_king", 300),
    ({"multi_card_mode": "combined"}, "random:forbid=play_2+play_3+draw", 200),
    ({"flip_after_draw": False}, "random:force=play_4+play_5+close_queen:forbid=close_jack", 300),
    ({"start_end": "left", "reshuffle_discard_when_deck_empty": True},
     "random:force=close_ace+chain:forbid=start_left", 300),
    ({}, "greedy:forbid=draw", 300),
    ({}, "greedy:force=draw+start_left", 200),
    ({}, "greedy:force=chain+play_3:forbid=start_right", 200),
    ({}, "greedy:forbid=chain+play_2+close_ace", 200),
    ({"flip_after_draw": False}, "greedy:force=close_ace+play_5", 200),
    ({"multi_card_mode": "combined"}, "greedy:draw_threshold=6:forbid=play_4+close_jack", 150),
    ({}, "expert:forbid=draw+start_left", 100),
    ({}, "expert:force=chain+close_queen+start_right", 100),
    ({"flip_after_draw": False}, "expert:forbid=chain+close_king:force=play_4", 60),
    ({"multi_card_mode": "combined"}, "expert:force=play_2+draw", 60),
    ({}, "heuristic:w_chain=0.5:forbid=play_5+close_ace", 100),
    ({"flip_after_draw": False}, "heuristic:w_chain=1:force=play_3", 60),
]


def _restricted_id(case) -> str:
    overrides, policy, _ = case
    return policy + (f":{_case_id(overrides)}" if overrides else "")


@pytest.mark.parametrize("overrides, policy, games", RESTRICTED,
                         ids=[_restricted_id(c) for c in RESTRICTED])
def test_restricted_play(overrides, policy, games):
    rules = Rules.from_overrides(overrides)
    fast = both_ways(GAME, rules, policy, 1, 41, games)
    plain = GAME.fast(rules, (GAME.policy(policy).unrestricted(),), 1, 41, 0, games)
    assert not np.array_equal(fast[:, :14], plain[:, :14]), "the restriction changed no game"


# the search under a restriction, its playouts (greedy or the expert) keeping it: few games,
# the reference path plays every option to the end
RESTRICTED_ROLLOUTS = [
    ({}, "rollout:samples=1:forbid=draw+start_right", 3),
    ({}, "rollout:samples=2:force=chain+close_ace", 3),
    ({"flip_after_draw": False}, "rollout:samples=1:base=expert:force=play_2+start_left:"
                                 "forbid=close_queen", 2),
    ({"multi_card_mode": "combined"}, "rollout:samples=1:base=expert:forbid=play_5+chain", 2),
]


@pytest.mark.parametrize("overrides, policy, games", RESTRICTED_ROLLOUTS,
                         ids=[_restricted_id(c) for c in RESTRICTED_ROLLOUTS])
def test_restricted_rollout(overrides, policy, games):
    both_ways(GAME, Rules.from_overrides(overrides), policy, 1, 43, games)


def test_every_choice_is_forbidden_and_forced_in_the_restricted_cases():
    said = {"forbid": set(), "force": set()}
    for _, policy, _ in RESTRICTED + RESTRICTED_ROLLOUTS:
        restriction = GAME.policy(policy).restriction
        said["forbid"] |= set(restriction.forbid)
        said["force"] |= set(restriction.force)
    for key, names in said.items():
        assert names == set(GAME.choice_names), (key, set(GAME.choice_names) - names)
    policies = {GAME.policy(p).name for _, p, _ in RESTRICTED + RESTRICTED_ROLLOUTS}
    assert set(GAME.policies) <= policies | {"expert-top"}, set(GAME.policies) - policies
