"""Rum & Pirates: the Numba fast path (``GAME.fast``) equals the reference path game for game.

Every column of every game must be identical to the reference path's (``GAME.reference``)
for the same rules, per-seat policies, seed and game index: at P = 2-5, for random and
greedy alone and in per-seat mixes (greedy with non-default parameters, ``reroll_can_win=1``
among them), under every preset, under every non-default value of every rule option
(``Rules.options()`` is iterated, so a new option is compared without editing this file:
every other choice, every bool flipped, numbers and lists changed), on drawn and fixed
layouts, and for the rollout on a few games with small settings (both horizons). Each
option must also change the fast path's games (it is read), and the branches that are rare
under the defaults are shown to be reached.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines._fast import FastPath
from engines._rules import RulesError
from engines.rum_and_pirates import GAME, data, engine
from engines.rum_and_pirates.rules import Rules

REFERENCE_LAYOUT = tuple(x for pair in data.REFERENCE_LAYOUT for x in pair)
TURNED_LAYOUT = (9, 3, 8, 2, 7, 1, 6, 0, 1, 3, 4, 2, 3, 1, 2, 0, 5, 1)


def assert_same(rules, policy_text, players, seed, games, first=0):
    """Play games first .. first + games - 1 both ways; every column must match exactly."""
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


def fast(rules, policy_text, players, seed, games, first=0):
    return GAME.fast(rules, GAME.seat_policies(policy_text, players), players, seed, first,
                     games)


def col(rows, players, name):
    return rows[:, GAME.column_names(players).index(name)]


def seat_cols(rows, players, prefix):
    names = GAME.column_names(players)
    return rows[:, [names.index(f"{prefix}_{s}") for s in range(players)]]


# ---------------------------------------------------------------- player counts and policies

POLICY_GAMES = {"random": 150, "greedy": 50}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("policy", list(POLICY_GAMES))
def test_default_rules_every_player_count_and_policy(players, policy):
    rows = assert_same(Rules(), policy, players, 100 + players, POLICY_GAMES[policy])
    assert (col(rows, players, "rounds") == 5).all()
    np.testing.assert_allclose(seat_cols(rows, players, "win").sum(axis=1), 1.0)
    assert col(rows, players, "dark_moves").sum() > 0
    assert col(rows, players, "dead_end_relocations").sum() > 0
    assert col(rows, players, "rerolls").sum() > 0
    assert (seat_cols(rows, players, "bunk").sum(axis=1) <= 5 * min(players, 3)).all()


MIXES = [
    (2, "greedy:reroll_can_win=1,random"),
    (3, "random,greedy:w_coin=0.7:tau=0.2,greedy"),
    (3, "greedy:pub_join_share=0.5:w_rum=1.5,greedy:reroll_can_win=1,random"),
    (4, "greedy,random,random,greedy"),
    (4, "random,greedy:w_hand=0.6:p_rdv=0.9:reroll_can_win=1,greedy:w_recruit=2,random"),
    (4, "greedy:tau=-1:w_coin=2,greedy:tau=3,greedy:pub_join_share=4,greedy:w_hand=0"),
    (5, "random,greedy,random,greedy:reroll_can_win=1:w_rum=0,random"),
    (5, "greedy:w_recruit=0:p_rdv=0,random,random,random,greedy:w_coin=0.3"),
]
MIX_GAMES = 30


@pytest.mark.parametrize(("players", "mix"), MIXES)
def test_policy_mixes(players, mix):
    assert_same(Rules(), mix, players, 11, MIX_GAMES)


def test_policy_parameters_change_the_games():
    # the seats' parameters are read: other values, other games (same seeds)
    for players, mix in MIXES:
        if ":" not in mix:
            continue
        plain = ",".join(part.split(":")[0] for part in mix.split(","))
        a = fast(Rules(), mix, players, 11, 200)
        b = fast(Rules(), plain, players, 11, 200)
        assert not np.array_equal(a, b), mix


def test_reroll_can_win_skips_hopeless_bunk_rerolls():
    plain = fast(Rules(), "greedy", 4, 5, 400)
    skip = fast(Rules(), "greedy:reroll_can_win=1", 4, 5, 400)
    assert col(plain, 4, "bunk_hopeless_rerolls").sum() > 0
    assert col(skip, 4, "bunk_hopeless_rerolls").sum() == 0
    assert_same(Rules(), "greedy:reroll_can_win=1", 4, 5, 20)


# ---------------------------------------------------------------- presets

PRESET_SEATS = (
    (2, "random", 20),
    (3, "greedy", 8),
    (4, "random,greedy,random,greedy:reroll_can_win=1", 12),
    (5, "random", 15),
)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_presets(preset):
    rules = Rules.from_overrides(preset=preset)
    for players, policy, games in PRESET_SEATS:
        rows = assert_same(rules, policy, players, 5, games)
        assert (col(rows, players, "rounds") == rules.num_rounds).all()


# ---------------------------------------------------------------- every other rule option

# Values for the number and list options (a new one falls back to its default +- 1).
VALUES = {
    "num_rounds": (3,),
    "starting_coins_by_seat": ((0, 4, 1, 3, 2),),
    "starting_hand": (7, 13),
    "first_start_seat": (1,),
    "layout": (REFERENCE_LAYOUT, TURNED_LAYOUT),
    "move_again_coin": (0, 2),
    "rest_coin": (0, 2),
    "dark_coin": (0, 2),
    "rum_per_visit": (1, 4),
    "rerolls_per_rum": (2,),
    "rum_supply": (3,),
    "coin_supply": (10,),
    "supply_sell_coins": (0, 3),
    "map_price": (1, 3),
    "scorpion_value": (0, -4),
    "max_turns_per_round": (),   # test_max_turns_per_round
}


def _values(opt):
    if opt.key in VALUES:
        return list(VALUES[opt.key])
    if opt.kind == "bool":
        return [not opt.default]
    if opt.kind == "choice":
        return [c for c in opt.choices if c != opt.default]
    if opt.kind == "int":
        up = opt.default + 1
        return [up if opt.high is None or up <= opt.high else opt.default - 1]
    if opt.kind == "intlist" and opt.length:
        first = opt.default[0] + 1
        if opt.high is not None and first > opt.high:
            first = opt.default[0] - 1
        return [(first, *opt.default[1:])]
    return []


OPTIONS = [{opt.key: v} for opt in Rules.options() for v in _values(opt)] + [
    # together, where one option matters only with another
    {"reroll_window": "after_column", "bunk_tie_rule": "reroll", "rerolls_per_rum": 2,
     "rum_per_visit": 4},
    {"reroll_window": "after_column", "bunk_tie_rule": "lower_wins", "rum_per_visit": 4},
    {"bunk_tie_rule": "reroll", "rum_per_visit": 4, "rum_supply": 12},
    {"zero_hand_may_rest": True, "starting_coins_by_seat": (6, 6, 6, 6, 6)},
    {"dead_end_rule": "no_free_road_or_half", "dark_same_corner": True},
    {"stop_after_move_boards": True, "board_after_move_same_turn": True},
    {"hq_dark_pair_any": False, "hq_tile_position": "center", "tile_rotation": "none"},
    {"coin_supply": 15, "rum_supply": 12, "map_price": 2, "forced_dark_free": False},
    {"dead_end_next_move_free": True, "lone_player_free_moves": False, "move_again_coin": 2},
    {"pub_take_rule": "all_below", "pub_join_requires_active": True, "tiebreak": "most_coins"},
    {"guard_stack_visible": True, "guard_win_rule": "greater_or_equal"},
    {"unawarded_sleeping_tiles": "return_to_bottom", "sleeping_tile_order": "ascending"},
    {"bedroll_with_2_3_players": True, "bunk_elimination_order": "pirates_at_pass_start"},
]
# options that may leave every fast-path game of the check unchanged (they are compared all
# the same): the dead-end tests differ only at a corner with a free dark half and no free
# partner half anywhere; a sleeping tile put under its stack of five is never revealed again
# in five rounds (it matters to a rollout's re-dealt stacks)
MAY_NOT_CHANGE = {"dead_end_rule", "unawarded_sleeping_tiles"}


def _ids(overrides):
    return ",".join(f"{k}={v}" for k, v in overrides.items())[:70]


SEAT_SETS = (
    (4, "random", 24),
    (3, "greedy,random,greedy:reroll_can_win=1", 10),
    (2, "random,greedy", 12),
    (5, "greedy", 5),
    (5, "random,greedy,random,random,greedy", 6),
)


@pytest.mark.parametrize("overrides", OPTIONS, ids=_ids)
def test_rule_options(overrides):
    rules = Rules.from_overrides(overrides)
    for players, policy, games in SEAT_SETS:
        assert_same(rules, policy, players, 23, games)
    if set(overrides) <= MAY_NOT_CHANGE:
        return
    changed = False
    for players, policy in ((4, "random"), (3, "greedy"), (2, "random"), (5, "greedy")):
        a = fast(rules, policy, players, 23, 300)
        b = fast(Rules(), policy, players, 23, 300)
        changed = changed or not np.array_equal(a, b)
    assert changed, f"{_ids(overrides)} changed none of 1200 fast-path games"


def test_every_rule_option_is_exercised():
    for opt in Rules.options():
        values = {o[opt.key] for o in OPTIONS if opt.key in o}
        if opt.key == "max_turns_per_round" or (opt.kind == "choice" and len(opt.choices) == 1):
            continue   # test_max_turns_per_round; an option with one value has no other
        assert values - {opt.default}, f"rule option {opt.key} without an equivalence case"
        if opt.kind == "choice":
            assert values == set(opt.choices) - {opt.default} or \
                values >= set(opt.choices) - {opt.default}, opt.key
        elif opt.kind == "bool":
            assert opt.default not in values, opt.key


def test_max_turns_per_round():
    # a round that reaches the limit is a bug: both paths raise
    rules = Rules(max_turns_per_round=3)
    policies = GAME.seat_policies("random", 4)
    with pytest.raises(RuntimeError):
        GAME.reference(rules, policies, 4, 1, 0)
    with pytest.raises(RuntimeError):
        GAME.fast(rules, policies, 4, 1, 0, 5)
    rules = Rules(max_turns_per_round=40)
    rows = assert_same(rules, "random", 4, 1, 20)
    assert (col(rows, 4, "max_round_turns") <= 40).all()


# ---------------------------------------------------------------- rare branches are reached


def test_rare_branches_on_the_compared_games():
    # stacks running out (chests, pubs, big guards), forced dark moves, HQ reclaims, ties
    rows = assert_same(Rules(), "greedy", 5, 31, 60)
    rows = np.vstack([rows, fast(Rules(), "greedy", 5, 31, 2000)])
    for name in ("chests_exhausted", "pubs_exhausted", "big_guards_exhausted",
                 "forced_dark_moves", "hq_visits", "dead_end_relocations"):
        assert col(rows, 5, name).sum() > 0, name
    assert (col(rows, 5, "tied_first") >= 2).any()
    rows = assert_same(Rules(num_rounds=5), "random", 2, 31, 60)
    assert (col(rows, 2, "recruits") > 0).any() and (col(rows, 2, "rests") > 0).any()


# ---------------------------------------------------------------- rollout


# the reference plays each candidate to the horizon on every sample (about 0.2 s a game at
# 2 samples of 2 moves, 0.7 s to the end of the game), so the rollout is compared on few games
ROLLOUT_CASES = [
    ({}, "rollout:samples=2:width=2,greedy,random,greedy", 4, 3),
    ({}, "random,rollout:samples=2:width=2:horizon=1", 2, 2),
    ({}, "greedy,rollout:samples=2:width=2:reroll_can_win=1,random", 3, 2),
    ({"zero_hand_may_rest": True, "rest_coin": 1, "map_price": 1},
     "rollout:samples=2:width=3,greedy,rollout:samples=1:width=2:horizon=1", 3, 2),
    # READINGS.md "further readings" 8: D2's candidates end with STOP and BOARD
    ({"board_after_move_same_turn": True}, "rollout:samples=2:width=2,greedy,random", 3, 2),
]


@pytest.mark.parametrize("overrides, policies, players, games", ROLLOUT_CASES)
def test_rollout(overrides, policies, players, games):
    assert_same(Rules.from_overrides(overrides), policies, players, 29, games)


# ---------------------------------------------------------------- restricted play (issue 27)

# Seats under a restriction (``greedy:forbid=pub``, ``expert:force=dark_road``) beside
# unrestricted ones, at every player count and policy: every declared choice is forbidden and
# forced in some case below (test_every_choice_is_restricted_both_ways), and the rule options
# that change D1 / D2 (BOARD after a move, zero-hand rests, automatic boarding), the re-rolls
# (the free second one, the after-column window) and the pub joins are among them.
RESTRICT_CASES = [
    ({}, 2, "random:forbid=dark_road+rest,random:force=pub_join", 400),
    ({}, 3, "random:force=coin,greedy:forbid=board,random", 300),
    ({}, 4, "greedy:force=reroll,random:forbid=pub_join+reroll,greedy:force=crew,"
     "random:force=dark_road", 200),
    ({}, 5, "random:force=rest,greedy:forbid=coin+crew+supplies,random:force=map,greedy,"
     "random:forbid=guard", 150),
    ({}, 3, "expert:forbid=map+pub+chest,expert:force=rendezvous,random:force=guard", 120),
    ({}, 4, "heuristic:force=board,expert:force=rum,random:forbid=rum+rendezvous,"
     "greedy:force=chest", 120),
    ({}, 2, "expert:force=supplies,greedy:force=pub:forbid=dark_road", 150),
    ({}, 5, "expert:forbid=reroll+board,random:force=board,greedy:forbid=pub_join,"
     "expert,random:forbid=coin+map+dark_road", 100),
    ({"board_after_move_same_turn": True}, 3,
     "random:forbid=board,greedy:force=board,random:force=coin+pub", 200),
    ({"board_after_move_same_turn": True, "stop_after_move_boards": True}, 4,
     "greedy:forbid=board+rest,random:force=dark_road+guard,expert:force=board,random", 120),
    ({"zero_hand_may_rest": True, "starting_coins_by_seat": (6, 6, 6, 6, 6)}, 4,
     "random:force=rest,greedy:forbid=rest,random:forbid=board,expert:force=rest", 120),
    ({"rerolls_per_rum": 2, "rum_per_visit": 4, "reroll_window": "after_column",
      "bunk_tie_rule": "reroll"}, 4,
     "random:force=reroll,greedy:force=reroll+pub_join,random:forbid=reroll,expert", 150),
    ({"pub_join_requires_active": True, "map_price": 2, "pub_take_rule": "choose_one"}, 3,
     "random:force=pub_join+map,greedy:force=pub,expert:forbid=pub_join", 150),
]
RESTRICT_ROLLOUT_CASES = [
    # the searcher's own restriction narrows its candidates; the others' hold in its playouts
    ({}, 3, "rollout:samples=2:width=2:forbid=board+rest,greedy:force=pub,random:force=coin", 4),
    ({}, 4, "rollout:samples=2:width=3:base=expert:force=dark_road,expert:forbid=coin,"
     "greedy,random:force=reroll", 2),
    ({"board_after_move_same_turn": True}, 3,
     "greedy:forbid=board,rollout:samples=2:width=2:force=board+map,expert", 4),
    ({}, 2, "rollout:samples=2:width=2:horizon=1:force=crew:forbid=reroll,"
     "expert:force=pub_join", 2),
]


def _restrict_id(case):
    overrides, players, policies, games = case
    return f"P{players}-{policies}-{_ids(overrides)}"[:90]


@pytest.mark.parametrize("case", RESTRICT_CASES, ids=_restrict_id)
def test_restricted_seats(case):
    overrides, players, policies, games = case
    rows = assert_same(Rules.from_overrides(overrides), policies, players, 47, games)
    plain = ",".join(part.split(":")[0] for part in policies.split(","))
    # the restrictions are read: other games than the same policies unrestricted
    assert not np.array_equal(rows, fast(Rules.from_overrides(overrides), plain, players, 47,
                                         games))


@pytest.mark.parametrize("case", RESTRICT_ROLLOUT_CASES, ids=_restrict_id)
def test_restricted_rollout(case):
    overrides, players, policies, games = case
    assert_same(Rules.from_overrides(overrides), policies, players, 53, games)


def test_every_choice_is_restricted_both_ways():
    said = {"forbid": set(), "force": set()}
    for _, players, policies, _ in RESTRICT_CASES + RESTRICT_ROLLOUT_CASES:
        for policy in GAME.seat_policies(policies, players):
            said["forbid"] |= set(policy.restriction.forbid)
            said["force"] |= set(policy.restriction.force)
    for how, names in said.items():
        assert names == set(GAME.choice_names), (how, set(GAME.choice_names) - names)


# ---------------------------------------------------------------- seeds, indices, the API


def test_seeds_differ_and_large_seeds_and_game_indices_work():
    a = fast(Rules(), "greedy", 4, 1, 50)
    b = fast(Rules(), "greedy", 4, 2, 50)
    assert not np.array_equal(a[:, 1:], b[:, 1:])
    assert_same(Rules(), "random,greedy,random", 3, 2**63 + 12345, 5, first=10**12)


def test_the_fast_path_is_the_games_declared_fast_path():
    assert GAME.module("engine") is engine and isinstance(engine.FAST, FastPath)
    # rows do not depend on how the games are split into calls
    whole = fast(Rules(), "greedy,random,random,greedy", 4, 3, 40)
    part = fast(Rules(), "greedy,random,random,greedy", 4, 3, 15, first=25)
    np.testing.assert_array_equal(whole[25:], part)


def test_bad_player_and_policy_counts_are_user_errors():
    with pytest.raises(RulesError, match="policies"):
        GAME.fast(Rules(), GAME.seat_policies("greedy", 3), 4, 1, 0, 5)
    with pytest.raises(RulesError, match="2-5 players"):
        GAME.fast(Rules(), GAME.seat_policies("greedy", 6), 6, 1, 0, 5)


def test_enough_games_are_compared():
    planned = (4 * sum(POLICY_GAMES.values()) + len(MIXES) * MIX_GAMES + 20
               + len(Rules.preset_names()) * sum(g for _, _, g in PRESET_SEATS)
               + len(OPTIONS) * sum(g for _, _, g in SEAT_SETS) + 20 + 60 + 60
               + sum(g for *_, g in ROLLOUT_CASES))
    assert planned >= 5000, planned
    assert sum(g for *_, g in RESTRICT_CASES) >= 2000
