"""Rum & Pirates: the rollout over the expert (``rollout:base=expert``, issue 25).

The search ranks its candidate moves by the base policy's nets, plays every seat of every
playout with the base policy, weighs a playout's coins, rum and rendezvous at the base's
weights of the round, and decides as the base outside D1 / D2 (with its own
``reroll_can_win``). With ``base=greedy`` (the default) it is the spec's rollout; the
equivalence suite's rollout cases hold that unchanged. Here both paths must agree game for
game with the expert as the base, at every player count, both horizons, beside other
rollouts (each seat's playouts follow its own base) and under the rule options that change
a rollout's candidates. The reference plays every candidate on every sample in Python
(about 0.5 s a game at 2 samples of 2 moves, 2 s to the end of the game), so few games:
8 in all, chosen by the cases below.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines.rum_and_pirates import GAME
from engines.rum_and_pirates.rules import Rules

EXPERT = "rollout:samples=2:width=2:base=expert"

CASES = [
    ({}, f"{EXPERT},greedy,random,expert", 4, 1),
    # a horizon-1 playout crosses rounds: the expert's round weights follow it
    ({"num_rounds": 3}, f"expert,{EXPERT}:horizon=1", 2, 1),
    # seat 0 searches over the expert, seat 2 over greedy: each decision's playouts follow
    # the deciding seat's base; seat 0 also takes the bunk re-roll rule of its own
    ({}, f"{EXPERT}:width=3:reroll_can_win=1,expert,rollout:samples=2:width=2", 3, 1),
    ({}, "rollout:samples=1:width=2:base=expert,heuristic,greedy,random,expert", 5, 1),
    # READINGS.md "further readings" 8: D2's candidates end with STOP and BOARD
    ({"board_after_move_same_turn": True}, f"{EXPERT},expert,random", 3, 2),
    ({"zero_hand_may_rest": True, "rest_coin": 1, "map_price": 1},
     f"{EXPERT},greedy,expert", 3, 1),
    ({"lone_player_free_moves": False, "tiebreak": "most_coins"},
     f"random,{EXPERT},expert", 3, 1),
]


@pytest.mark.parametrize("overrides, policies, players, games", CASES)
def test_reference_equals_fast(overrides, policies, players, games):
    both_ways(GAME, Rules.from_overrides(overrides), policies, players, 41, games)


def fast(policy_text: str, players: int, games: int) -> np.ndarray:
    return GAME.fast(Rules(), GAME.seat_policies(policy_text, players), players, 7, 0, games)


def test_the_base_changes_the_games():
    greedy = fast("rollout:samples=2:width=2,expert,expert,expert", 4, 20)
    expert = fast(f"{EXPERT},expert,expert,expert", 4, 20)
    assert not np.array_equal(greedy, expert)


def test_greedy_is_the_default_base():
    a = fast("rollout:samples=2:width=2,greedy,expert", 3, 10)
    b = fast("rollout:samples=2:width=2:base=greedy,greedy,expert", 3, 10)
    np.testing.assert_array_equal(a, b)


def test_enough_games_are_compared():
    assert sum(g for *_, g in CASES) == 8
