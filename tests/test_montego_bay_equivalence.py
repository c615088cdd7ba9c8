"""Montego Bay: the Numba fast path (``GAME.fast``) equals the reference path game for game.

Every column of every game must be identical to the reference path's (``GAME.reference``) for the
same rules, per-seat policies, seed and game index: across P = 2, 3, 4, the
three policies (the sampler with few samples, so the reference stays cheap)
and per-seat mixes with non-default parameters, every preset, and the
non-default values of every rule option (``test_every_rule_option_is_exercised``
keeps that list complete). Rows must not depend on the thread count or on how
the games are split into calls. Some tests also check that the games really
reach the rare branches they are there for (blocked Lazy Jacks, auctions,
fractional scores, empty stacks).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines._fast import FastPath
from engines._rules import RulesError
from engines.montego_bay import GAME, engine
from engines.montego_bay.data import DEFAULT_SHIPS, DEFAULT_TILES, ship_row
from engines.montego_bay.rules import Rules


def assert_same(rules, policy_text, players, seed, games, first=0):
    """Play games first .. first + games - 1 both ways; every column must match exactly."""
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


def col(fast, players, name):
    return fast[:, GAME.column_names(players).index(name)]


# ---------------------------------------------------------------- player counts and policies

POLICY_GAMES = {"random": 300, "greedy": 80, "sampler:n_samples=2": 30}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", list(POLICY_GAMES))
def test_default_rules_every_player_count_and_policy(players, policy):
    games = POLICY_GAMES[policy]
    fast = assert_same(Rules(), policy, players, 100 + players, games)
    assert (col(fast, players, "rounds") >= 3).all()
    assert col(fast, players, "ships_sailed_full").sum() > 0
    wins = fast[:, [GAME.column_names(players).index(f"win_{s}") for s in range(players)]]
    np.testing.assert_allclose(wins.sum(axis=1), 1.0)


MIXES = [
    (2, "random,greedy"),
    (2, "sampler:n_samples=3:q_myopic=0.9,random"),
    (2, "greedy:gamma=0.3:hire_threshold=0,sampler:n_samples=2:lambda_load=2:w_c=2"),
    (3, "random,greedy,sampler:n_samples=2"),
    (3, "greedy:w_g=0.5:w_c=3:w_x=2,greedy:hire_threshold=-1,random"),
    (3, "sampler:n_samples=4:q_myopic=0:gamma=1,sampler:n_samples=2:q_myopic=1,greedy"),
    (4, "random,greedy,sampler:n_samples=2,greedy:hire_threshold=0.5"),
    (4, "greedy:gamma=0:w_x=-1,random,random,sampler:n_samples=3:hire_threshold=-2"),
]
MIX_GAMES = 50


@pytest.mark.parametrize(("players", "mix"), MIXES)
def test_policy_mixes(players, mix):
    fast = assert_same(Rules(), mix, players, 11, MIX_GAMES)
    assert sum(col(fast, players, f"lazy_jack_hires_{s}").sum() for s in range(players)) > 0


# ---------------------------------------------------------------- presets


PRESET_SEATS = (
    (2, "greedy,random", 30),
    (2, "sampler:n_samples=2", 8),
    (3, "random,greedy,sampler:n_samples=2", 20),
    (4, "random", 60),
    (4, "greedy,sampler:n_samples=2,random,greedy", 15),
)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_presets(preset):
    rules = Rules.from_overrides(preset=preset)
    for players, policy, games in PRESET_SEATS:
        assert_same(rules, policy, players, 5, games)


# ---------------------------------------------------------------- every other rule option

_SCALED_SHIPS = tuple(x for cap in (3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13) for x in ship_row(cap))

OPTIONS = [
    {"workers_per_player_2p": 2},
    {"two_player_extra_workers": "both_big"},
    {"two_player_extra_workers": "both_small"},
    {"warehouse_tiles": DEFAULT_TILES[6:] + DEFAULT_TILES[:6]},
    {"warehouse_tiles": (0, 2, 1, 4, 0, 1) * 8},
    {"tile_orientation_random": False},
    {"path_end_spaces": 1},
    {"path_end_spaces": 2},
    {"pub_entry": "left_bottom"},
    {"resolution_order": "warehouse_columns"},
    {"ship_table": DEFAULT_SHIPS + (10, 12, 6, 3, 13, 7, 4)},
    {"ship_table": _SCALED_SHIPS, "freight_ships": 12, "stack_b_size": 4},
    {"freight_ships": 6, "stack_b_size": 0},
    {"stack_b_size": 9},
    {"reshuffle_rule": "every_round_drawing_b"},
    {"reshuffle_rule": "never"},
    {"lazy_jack_cost": 2},
    {"lazy_jack_cost": 5, "start_coins_by_seat": (5, 4, 3, 2)},
    {"lazy_jack_allocation": "auction", "start_coins_by_seat": (4, 5, 3, 3)},
    {"lazy_jack_tiebreak": "fewer_coins", "lazy_jack_cost": 2},
    {"lazy_jack_tiebreak": "random", "lazy_jack_cost": 2},
    {"lazy_jack_allocation": "auction", "lazy_jack_tiebreak": "random",
     "start_coins_by_seat": (4, 4, 3, 3)},
    {"lazy_jack_distinct_card": False, "lazy_jack_cost": 2},
    {"lazy_jack_collects_coin": False},
    {"lazy_jack_blocked": "stay_with_companion_unresolved", "lazy_jack_cost": 2},
    {"start_coins_by_seat": (0, 1, 1, 2)},
    {"bank_coins": 10, "start_coins_by_seat": (3, 3, 2, 2)},
    {"start_coins_by_place": (0, 1, 2, 3)},
    {"start_coins_by_place": (3, 2, 1, 0), "start_coins_by_seat": (0, 1, 1, 2)},
    {"start_coins_by_place": (4, 3, 2, 1), "start_coins_by_seat": (1, 1, 1, 1),
     "lazy_jack_cost": 2, "lazy_jack_tiebreak": "fewer_coins"},
    {"bank_coins": 30},
    {"barrels_per_player": 8},
    {"barrels_per_player": 8, "load_count": "while_stock"},
    {"barrels_per_player": 20},
    {"must_load_all": False},
    {"fill_bonus": 0},
    {"fill_bonus": 2},
    {"majority_zero_mode": "lowest_loader_zero"},
    {"tie_rounding": "floor"},
    {"tie_rounding": "exact_fraction"},
    {"end_threshold": 2},
    {"final_tiebreak": "shared"},
]

# overflow_rule has a single value: there is nothing else to compare.
SINGLE_VALUED = {"overflow_rule"}


def _ids(overrides):
    return ",".join(f"{k}={v}" for k, v in overrides.items())[:60]


SEAT_SETS = (
    (2, "random,greedy:gamma=5", 10),
    (2, "sampler:n_samples=2,greedy", 4),
    (3, "greedy,random,sampler:n_samples=2:hire_threshold=0", 8),
    (3, "random", 30),
    (4, "greedy,random,greedy:hire_threshold=0,sampler:n_samples=2", 6),
    (4, "random,random,random,greedy", 20),
)


@pytest.mark.parametrize("overrides", OPTIONS, ids=_ids)
def test_rule_options(overrides):
    rules = Rules.from_overrides(overrides)
    for players, policy, games in SEAT_SETS:
        assert_same(rules, policy, players, 23, games)


def test_every_rule_option_is_exercised():
    named = {key for o in OPTIONS for key in o}
    named |= {key for name in Rules.preset_names() for key in Rules.PRESETS[name][1]}
    missing = {f.name for f in dataclasses.fields(Rules)} - named - SINGLE_VALUED
    assert not missing, f"rule options without an equivalence test: {sorted(missing)}"


# ---------------------------------------------------------------- the rare branches are reached


def test_blocked_lazy_jacks_and_hires_match():
    rules = Rules(lazy_jack_cost=2, start_coins_by_seat=(2, 2, 2, 2))
    fast = assert_same(rules, "random", 4, 3, 150)
    assert col(fast, 4, "lazy_jack_blocked").sum() > 0
    assert all(col(fast, 4, f"lazy_jack_hires_{s}").sum() > 0 for s in range(4))


def test_auction_with_rich_greedy_and_sampler_bidders():
    rules = Rules(lazy_jack_allocation="auction", start_coins_by_seat=(6, 6, 3, 0))
    fast = assert_same(rules, "greedy:hire_threshold=-3,sampler:n_samples=2:hire_threshold=-3,"
                       "random", 3, 9, 25)
    assert col(fast, 3, "lazy_jack_hires_0").sum() + col(fast, 3, "lazy_jack_hires_1").sum() > 0


def test_fractional_scores_match():
    rules = Rules(tie_rounding="exact_fraction")
    fast = assert_same(rules, "random,greedy,sampler:n_samples=2,random", 4, 17, 40)
    scores = fast[:, [GAME.column_names(4).index(f"score_{s}") for s in range(4)]]
    assert (scores != np.round(scores)).any()
    assert np.all(np.round(scores * 12) == scores * 12)


def test_greedy_and_sampler_stop_loading_when_every_pier_loses():
    # Ships of capacity 2 and gamma = 10: filling a ship that already holds an own barrel
    # is worth less than keeping it, so with must_load_all=false greedy (D4) and the
    # sampler's load_gain choose STOP. The games then differ from must_load_all=true.
    ships = tuple(x for _ in range(15) for x in (2, 6, 3, 1, 7, 4, 2))
    mix = "greedy:gamma=10,sampler:n_samples=2:gamma=10,greedy"
    rules = Rules(must_load_all=False, ship_table=ships, fill_bonus=0)
    fast = assert_same(rules, mix, 3, 23, 20)
    must = GAME.fast(Rules(ship_table=ships, fill_bonus=0),
                            GAME.seat_policies(mix, 3), 3, 23, 0, 20)
    assert not np.array_equal(fast, must)


def test_short_games_with_empty_stacks_and_reshuffles():
    rules = Rules(freight_ships=6, stack_b_size=2, reshuffle_rule="every_round_drawing_b",
                  end_threshold=2)
    fast = assert_same(rules, "greedy,random,random", 3, 31, 60)
    assert (col(fast, 3, "reshuffle_round") > 0).any()
    assert (col(fast, 3, "rounds") <= rules.max_rounds).all()


PLACE_COINS = [
    ((0, 1, 2, 3), (0, 0, 0, 0)),
    ((3, 2, 1, 0), (1, 0, 2, 1)),
]
PLACE_SEATS = ((2, "greedy", 40), (2, "random", 200), (3, "greedy", 30), (3, "random", 200),
               (4, "greedy", 25), (4, "random", 200))


@pytest.mark.parametrize(("by_place", "by_seat"), PLACE_COINS, ids=str)
@pytest.mark.parametrize(("players", "policy", "games"), PLACE_SEATS)
def test_start_coins_by_place(by_place, by_seat, players, policy, games):
    rules = Rules(start_coins_by_place=by_place, start_coins_by_seat=by_seat, lazy_jack_cost=2)
    fast = assert_same(rules, policy, players, 41 + players, games)
    plain = GAME.fast(Rules(start_coins_by_seat=by_seat, lazy_jack_cost=2),
                      GAME.seat_policies(policy, players), players, 41 + players, 0, games)
    assert not np.array_equal(fast, plain)


def test_start_coins_by_place_go_to_the_rail_places_in_the_fast_path():
    # Lazy Jack cannot be hired, so coins only come in from coin rooms: the player last in
    # rail place order (largest first_rail_pos, the order the seat analysis re-seats by)
    # ends with at least the 9 coins of that place, the others with at most 15 - 9.
    for players in (2, 3, 4):
        by_place = tuple(9 if k == players - 1 else 0 for k in range(4))
        rules = Rules(start_coins_by_place=by_place, lazy_jack_cost="never")
        fast = assert_same(rules, "random", players, 43, 60)
        pos = np.column_stack([col(fast, players, f"first_rail_pos_{s}")
                               for s in range(players)])
        coins = np.column_stack([col(fast, players, f"coins_{s}") for s in range(players)])
        last = np.argsort(pos, axis=1, kind="stable")[:, players - 1]
        rows = np.arange(len(fast))
        assert (coins[rows, last] >= 9).all()
        assert (coins.sum(axis=1) - coins[rows, last] <= 6).all()


# ---------------------------------------------------------------- restricted play

# Seats with restrictions (engines._restrict) mixed with unrestricted ones: every choice
# forbidden and forced, a seat left with one card vector (forced to 3, Lazy Jack to 5),
# every card forbidden (every card kept), every policy incl. the trained expert and both
# samplers; Lazy Jack cheap so that hires (and his restricted card) are frequent.
RESTRICTED = [
    (2, "random:force=card_3,random:forbid=card_1+card_2+lazy_jack", 400),
    (2, "random:force=lazy_jack+card_3:forbid=card_1+card_2+card_4,random:force=card_5", 300),
    (3, "random:forbid=card_5,random:force=lazy_jack+card_1,random", 400),
    (4, "random:force=card_2+card_4,random,random:forbid=card_3+card_4+card_5,"
        "random:force=card_5:forbid=lazy_jack", 300),
    (4, "random:forbid=card_1+card_2+card_3+card_4+card_5,random:force=card_1+card_2+"
        "card_3+card_4+card_5,random:force=card_4:forbid=card_5,random", 200),
    (2, "greedy:forbid=card_1,greedy:force=lazy_jack", 60),
    (3, "greedy:force=card_5,random:forbid=lazy_jack,greedy:force=card_2:forbid=card_1", 50),
    (3, "greedy:force=lazy_jack+card_3:forbid=card_1+card_2+card_4,greedy,"
        "greedy:forbid=card_3+card_4", 50),
    (4, "expert:forbid=card_3,greedy:force=card_1+card_2,heuristic:force=lazy_jack,random", 40),
    (3, "expert:force=card_4,expert:forbid=lazy_jack+card_2,expert", 40),
    (2, "heuristic:deny_move=0.5:w_next=0.3:forbid=card_5,expert:force=card_1+lazy_jack", 40),
    (2, "sampler:n_samples=2:force=lazy_jack+card_2,sampler:base=expert:n_samples=2:"
        "forbid=card_5", 10),
    (3, "sampler:n_samples=2:forbid=card_3+card_4:force=card_5,greedy,"
        "sampler:base=expert:n_samples=2:force=lazy_jack", 8),
    (4, "sampler:base=expert:n_samples=2:force=card_3,random:force=card_3,"
        "greedy:forbid=card_3,expert", 8),
]
CHEAP_HIRES = Rules(lazy_jack_cost=2, start_coins_by_seat=(2, 3, 2, 3))
RESTRICTED_RULES = {
    "default": Rules(),
    "cheap_hires": CHEAP_HIRES,
    "cards_may_repeat": dataclasses.replace(CHEAP_HIRES, lazy_jack_distinct_card=False),
}


def _short(text):
    return text.replace("n_samples=2", "n2").replace("card_", "c")[:70]


@pytest.mark.parametrize("rules", list(RESTRICTED_RULES))
@pytest.mark.parametrize(("players", "mix", "games"), RESTRICTED,
                         ids=[_short(m) for _, m, _ in RESTRICTED])
def test_restricted_seats(rules, players, mix, games):
    fast = assert_same(RESTRICTED_RULES[rules], mix, players, 29, games)
    for s in range(players):  # the took counts are written (every figure plays a card)
        cards = sum(col(fast, players, f"took_card_{k}_{s}") for k in range(1, 6))
        assert (cards >= col(fast, players, "rounds") * 2).all()


def test_every_choice_is_forbidden_and_forced_in_the_restricted_cases():
    policies = [GAME.policy(text) for _, mix, _ in RESTRICTED for text in mix.split(",")]
    for choice in GAME.choice_names:
        assert any(choice in p.restriction.forbid for p in policies), choice
        assert any(choice in p.restriction.force for p in policies), choice
    assert any(not p.restriction for p in policies)


def test_restricted_auctions():
    # a seat forced to bid values its hire only when it must bid or take its companion;
    # forced and forbidden bidders among free ones, rich and poor
    rules = Rules(lazy_jack_allocation="auction", start_coins_by_seat=(5, 6, 3, 1))
    for players, mix, games in (
            (3, "greedy:force=lazy_jack,sampler:n_samples=2:force=lazy_jack,"
                "expert:force=lazy_jack", 25),
            (4, "expert:force=lazy_jack+card_2,random:force=lazy_jack,greedy:forbid=lazy_jack,"
                "heuristic:force=lazy_jack", 25),
            (4, "random:force=lazy_jack,random,random:forbid=lazy_jack,random:force=card_1", 200)):
        fast = assert_same(rules, mix, players, 31, games)
        assert col(fast, players, "took_lazy_jack_0").sum() > 0


# ---------------------------------------------------------------- seeds and game indices


def test_seeds_differ_and_large_seeds_and_game_indices_work():
    policies = GAME.seat_policies("greedy", 3)
    a = GAME.fast(Rules(), policies, 3, 1, 0, 50)
    b = GAME.fast(Rules(), policies, 3, 2, 0, 50)
    assert not np.array_equal(a[:, 1:], b[:, 1:])
    assert_same(Rules(), "random,greedy", 2, 2**63 + 12345, 5, first=10**12)


# ---------------------------------------------------------------- the API


def test_the_fast_path_is_the_games_declared_fast_path():
    # the declaration finds this engine (its compiled driver), and its rows are the reference's
    assert GAME.module("engine") is engine and isinstance(engine.FAST, FastPath)
    assert_same(Rules(), "greedy,random,random,greedy", 4, 3, 20, first=7)


def test_bad_player_and_policy_counts_are_user_errors():
    with pytest.raises(RulesError, match="policies"):
        GAME.fast(Rules(), GAME.seat_policies("greedy", 3), 4, 1, 0, 5)
    with pytest.raises(RulesError, match="2-4 players"):
        GAME.fast(Rules(), GAME.seat_policies("greedy", 5), 5, 1, 0, 5)


def test_enough_games_are_compared():
    planned = (3 * sum(POLICY_GAMES.values()) + len(MIXES) * MIX_GAMES
               + len(Rules.preset_names()) * sum(g for _, _, g in PRESET_SEATS)
               + len(OPTIONS) * sum(g for _, _, g in SEAT_SETS)
               + len(PLACE_COINS) * sum(g for _, _, g in PLACE_SEATS))
    assert planned >= 5000, planned
    restricted = len(RESTRICTED_RULES) * sum(g for _, _, g in RESTRICTED)
    assert restricted >= 4000, restricted
