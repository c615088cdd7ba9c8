"""21 Motines: the Numba fast path (``GAME.fast``) equals the reference path game for game.

Every column of every game must be identical to the reference path's (``GAME.reference``)
for the same rules, per-seat policies, seed and game index: at P = 3, 4 and 5, for
each policy alone and in per-seat mixes with non-default parameters, under every
preset and under non-default values of every rule option (every choice value, every
bool flipped, lists changed; ``test_every_rule_option_is_exercised`` keeps that list
complete). A rule option's games must also differ from the standard rules' games
(the option really changed something the compared games did), and the rare branches
(gifts brought by a gift, reshuffled discards, an empty treasure deck, market and
joker treasures, sales at final scoring, truncated games) are shown to be reached by
counting them in the reference while it plays.
"""

from __future__ import annotations

import collections
import dataclasses

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines._fast import FastPath
from engines._rules import RulesError
from engines.motines import GAME, engine, reference
from engines.motines.data import DEFAULT_MARKET, T_JOKER, T_MARKET
from engines.motines.rules import Rules


def assert_same(rules, policy_text, players, seed, games, first=0):
    """Play games first .. first + games - 1 both ways; every column must match exactly."""
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


def col(fast, players, name):
    return fast[:, GAME.column_names(players).index(name)]


def seat_cols(fast, players, prefix):
    names = GAME.column_names(players)
    return fast[:, [names.index(f"{prefix}_{s}") for s in range(players)]]


@pytest.fixture
def spy(monkeypatch):
    """``spy(name, key, before)`` counts the calls of ``reference.<name>`` while the
    reference plays, under ``key(*args, result=..., before=...)`` (None or False: not
    counted), ``before`` being ``before(*args)`` taken before the call; ``spy.calls``
    holds the counts."""
    calls = collections.Counter()

    def watch(name, key=lambda *args, result, before: True, before=None):
        original = getattr(reference, name)

        def wrapper(*args, **kwargs):
            ahead = None if before is None else before(*args)
            result = original(*args, **kwargs)
            what = key(*args, result=result, before=ahead)
            if what is not None and what is not False:
                calls[(name, what)] += 1
            return result

        monkeypatch.setattr(reference, name, wrapper)

    watch.calls = calls
    return watch


# ---------------------------------------------------------------- player counts and policies

POLICY_GAMES = {"random": 300, "greedy": 80, "planner": 12}


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", list(POLICY_GAMES))
def test_default_rules_every_player_count_and_policy(players, policy):
    fast = assert_same(Rules(), policy, players, 100 + players, POLICY_GAMES[policy])
    assert (col(fast, players, "mutinies") == 21).all()
    assert (col(fast, players, "rounds") >= 23).all()
    np.testing.assert_allclose(seat_cols(fast, players, "win").sum(axis=1), 1.0)
    assert seat_cols(fast, players, "sales").sum() > 0


MIXES = [
    (3, "greedy,random,planner"),
    (3, "random,planner:lam=0:margin=-1,greedy:captain_bonus=-2"),
    (4, "greedy,random,planner,greedy"),
    (4, "random,random,greedy:money_reserve=0,planner:sell_floor=0:ice_target_slack=2"),
    (4, "planner:lam=2:captain_bonus=0.5:captain_bonus_late=3:margin=1:money_reserve=5,"
        "greedy,greedy,random"),
    (5, "random,greedy,random,planner,greedy"),
    (5, "greedy:captain_bonus=0:money_reserve=10,random,random,random,random"),
    (5, "planner:ice_target_slack=-4:sell_floor=30,greedy,random,greedy,planner:lam=-1"),
]
MIX_GAMES = 30


@pytest.mark.parametrize(("players", "mix"), MIXES)
def test_policy_mixes(players, mix):
    fast = assert_same(Rules(), mix, players, 11, MIX_GAMES)
    assert seat_cols(fast, players, "mut").sum() > 0


def test_policy_parameters_change_the_games():
    # the seats' parameters are read: other values, other games (same seeds)
    for players, mix in MIXES:
        if ":" not in mix:
            continue
        plain = ",".join(part.split(":")[0] for part in mix.split(","))
        a = GAME.fast(Rules(), GAME.seat_policies(mix, players), players, 11, 0, MIX_GAMES)
        b = GAME.fast(Rules(), GAME.seat_policies(plain, players), players, 11, 0, MIX_GAMES)
        assert not np.array_equal(a, b), mix


# ---------------------------------------------------------------- presets

PRESET_SEATS = (
    (3, "greedy", 20),
    (3, "random", 40),
    (4, "random", 50),
    (4, "greedy,random,planner,greedy", 10),
    (5, "planner,random,random,greedy,random", 6),
    (5, "random", 30),
)


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_presets(preset):
    rules = Rules.from_overrides(preset=preset)
    for players, policy, games in PRESET_SEATS:
        fast = assert_same(rules, policy, players, 5, games)
        assert (col(fast, players, "mutinies") == rules.num_mutinies).all()


# ---------------------------------------------------------------- every other rule option

_MARKET_LOW = tuple(max(0, v - 4) for v in DEFAULT_MARKET)
_MARKET_ODD = (9, 1, 12, 0) * 6  # not monotone in the ice level

OPTIONS = [
    {"num_mutinies": 3},
    {"num_mutinies": 40},
    {"treasure_modified_until_marker": 0},
    {"treasure_modified_until_marker": 12},
    {"start_money_captain": 0},
    {"start_money_other": 1},
    {"start_money_by_seat": (0, 10, 2, 7, 30)},
    {"start_money_by_seat": (-1, 0, -1, 6, -1)},
    {"start_ice": 0},
    {"start_ice": 3},
    {"first_captain_seat": 2},
    {"ice_supply": 15},
    {"ice_supply": 60},
    {"deck_counts": (4, 4, 4, 4, 4)},
    {"deck_counts": (20, 5, 10, 2, 12)},
    {"fish_prices": (0, 1, 2, 0, 1, 1, 0, 2, 3, 0)},
    {"fish_icons_rule": "colour_table", "fish_icons": (0, 0, 1, 0, 2)},
    {"fish_icons_rule": "colour_table", "fish_icons": (0, 2, 1, 3, 4)},
    {"market_table": _MARKET_LOW},
    {"market_table": _MARKET_ODD},
    {"market_ice_cap": 1},
    {"market_ice_cap": 3},
    {"market_slots_exclusive": False},
    {"sale_optional": False},
    {"if_prices": (0, 1, 2, 2, 2)},
    {"if_prices": (0, 0, 1, 1, 2)},
    {"if_ice_gift": (1, 0, 1, 2, 3)},
    {"if_pile_size": 5},
    {"if_pile_size": 20},
    {"if_return_to": "top"},
    {"if_return_to": "shuffle_in"},
    {"sf_display_size": (3, 4, 8)},
    {"sf_display_size": (1, 1, 2)},
    {"sf_buy_mandatory": False},
    {"sf_fifth_gets_blind": False},
    {"ice_factory_gifts": (0, 1, 1, 0, 2, 0, 0, 2, 1, 1)},
    {"ice_factory_roll": "d6_plus_1"},
    {"ice_factory_roll": "two_d6"},
    {"treasure_thresholds": (0, 3, 3, 5, 6)},
    {"treasure_roll_mode": "max_of_two"},
    {"treasure_roll_mode": "sum_of_two"},
    {"treasure_captain_coin": False},
    {"treasure_ice_gift": (1, 1, 0, 0, 2)},
    {"treasure_counts": (6, 2, 2, 8, 2, 2, 2)},
    {"treasure_counts": (1, 1, 1, 1, 1, 1, 1), "treasure_modified_until_marker": 0},
    {"treasure_ice_amount": 1},
    {"treasure_ice_amount": 4},
    {"auto_use_simple_treasures": False},
    {"mutiny_pv": (-1, 1, 2, 4)},
    {"mutiny_pv": (0, 3, 1, 10)},
    {"mutiny_money_check": "resolution"},
    {"previous_action_rule": "same_captain_only"},
    {"previous_action_rule": "none"},
    {"last_captain_mutiny": "forbidden"},
    {"free_round_slots_exclusive": False},
    {"free_round_slots_exclusive": False, "market_slots_exclusive": False},
    {"free_round_resolution": "placement_order"},
    {"gift_thresholds": (6, 5, 25, 35)},
    {"gift_thresholds": (3, 4, 5, 6), "gift_once_per_player": False},
    {"gift_once_per_player": False},
    {"pv_floor": "zero"},
    {"final_market_sales": False},
    {"final_tiebreak": "leftover_coin_then_fewer_ice"},
    {"final_tiebreak": "shared"},
    {"hidden_hands": False},
    {"max_rounds": 50, "num_mutinies": 40},
]


def _ids(overrides):
    return ",".join(f"{k}={v}" for k, v in overrides.items())[:60]


SEAT_SETS = (
    (3, "random,greedy,planner", 5),
    (3, "random", 12),
    (4, "greedy,random,random,greedy", 10),
    (4, "random", 16),
    (5, "random,random,greedy,random,planner", 4),
    (5, "random", 12),
)


@pytest.mark.parametrize("overrides", OPTIONS, ids=_ids)
def test_rule_options(overrides):
    rules = Rules.from_overrides(overrides)
    changed = False
    for players, policy, games in SEAT_SETS:
        fast = assert_same(rules, policy, players, 23, games)
        standard = GAME.fast(Rules(), GAME.seat_policies(policy, players), players, 23, 0,
                             games)
        changed = changed or not np.array_equal(fast, standard)
    assert changed, f"{_ids(overrides)} changed none of the compared games"


def test_every_rule_option_is_exercised():
    named = {key for o in OPTIONS for key in o}
    named |= {key for name in Rules.preset_names() for key in Rules.PRESETS[name][1]}
    missing = {f.name for f in dataclasses.fields(Rules)} - named
    assert not missing, f"rule options without an equivalence test: {sorted(missing)}"
    for opt in Rules.options():  # every other value of a choice, every flip of a bool
        values = {o[opt.key] for o in OPTIONS if opt.key in o}
        if opt.kind == "choice":
            assert values == set(opt.choices) - {opt.default}, opt.key
        elif opt.kind == "bool":
            assert values == {not opt.default}, opt.key


# ---------------------------------------------------------------- the rare branches are reached


def test_gifts_brought_by_a_gift(monkeypatch):
    # money at 6 PV, a treasure at 5: while treasures are replaced, reaching 5 brings +1 PV,
    # which reaches 6 from inside the first gift
    depth = [0]
    nested = collections.Counter()
    original = reference.gifts

    def gifts(t, seat, before, after):
        depth[0] += 1
        try:
            if depth[0] > 1 and any(before < pv <= after for pv in t.rules.gift_thresholds):
                nested[depth[0]] += 1
            return original(t, seat, before, after)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(reference, "gifts", gifts)
    rules = Rules(gift_thresholds=(6, 5, 25, 35), treasure_modified_until_marker=12)
    assert_same(rules, "random", 4, 41, 60)
    assert_same(rules, "greedy,random,planner", 3, 41, 12)
    assert_same(dataclasses.replace(rules, gift_once_per_player=False), "random", 5, 41, 40)
    assert nested[2] > 0 and set(nested) == {2}


def test_reshuffles_short_displays_and_empty_piles(spy):
    spy("reshuffle_discard")
    spy("refill_display", key=lambda t, result, before: any(c is None for c in t.display))
    rules = Rules(deck_counts=(4, 4, 4, 4, 4), if_pile_size=5, sf_display_size=(8, 8, 8))
    assert_same(rules, "random", 3, 3, 60)
    assert_same(rules, "greedy,random,greedy,planner", 4, 3, 12)
    assert_same(rules, "random,greedy,random,random,greedy", 5, 3, 30)
    assert spy.calls[("reshuffle_discard", True)] > 0
    assert spy.calls[("refill_display", True)] > 0  # the display stayed short


def test_empty_treasure_deck_and_every_treasure_used(spy):
    spy("gain_treasure", key=lambda t, seat, why, result, before: before,
        before=lambda t, seat, why: not t.tdeck)
    spy("use_treasure", key=lambda t, seat, kind, result, before: kind)
    spy("discard_treasure", key=lambda t, seat, kind, result, before: kind)
    spy("offer_sale", key=lambda t, seat, combos, why, result, before: why if result else None)
    rules = Rules(treasure_counts=(3, 1, 1, 4, 1, 1, 1), treasure_modified_until_marker=0)
    assert_same(rules, "random", 4, 8, 80)
    assert_same(rules, "greedy,planner,random", 3, 8, 15)
    assert_same(dataclasses.replace(rules, auto_use_simple_treasures=False),
                "greedy,random,random,planner,greedy", 5, 8, 12)
    calls = spy.calls
    assert calls[("gain_treasure", True)] > 0  # replaced because the deck was empty
    assert all(calls[("use_treasure", kind)] > 0 for kind in range(1, 7))
    assert calls[("discard_treasure", T_JOKER)] > 0  # a joker treasure in a sale
    assert calls[("offer_sale", "market treasure")] > 0
    assert calls[("offer_sale", "final market treasure")] > 0
    assert calls[("discard_treasure", T_MARKET)] > 0


def test_truncated_games():
    rules = Rules(num_mutinies=40, max_rounds=50)
    fast = assert_same(rules, "random", 3, 13, 60)
    assert col(fast, 3, "truncated").sum() > 0
    trunc = col(fast, 3, "truncated") == 1
    assert (col(fast, 3, "normal_rounds")[trunc] == 50).all()
    assert (col(fast, 3, "rounds")[trunc] == 51).all()


def test_returned_blind_fish_and_placement_order_free_rounds(monkeypatch, spy):
    returned = collections.Counter()
    drawn = []
    fishing, draw = reference.fishing_blind, reference.draw_blind

    def draw_blind(t):
        drawn.append(1)
        return draw(t)

    def fishing_blind(t, pawn):
        drawn.clear()
        fish = t.seats[pawn.seat].fish
        fishing(t, pawn)
        if drawn and t.seats[pawn.seat].fish == fish:
            returned[t.rules.if_return_to] += 1

    monkeypatch.setattr(reference, "draw_blind", draw_blind)
    monkeypatch.setattr(reference, "fishing_blind", fishing_blind)
    monkeypatch.setitem(reference.STEPS, reference.IF, fishing_blind)
    spy("ice_hand_out", key=lambda t, pawns, result, before:
        t.phase == reference.FREE and len(pawns))
    for where in ("bottom", "top", "shuffle_in"):
        rules = Rules(if_return_to=where, free_round_resolution="placement_order")
        assert_same(rules, "random", 5, 17, 40)
        assert_same(rules, "greedy,random,greedy,planner", 4, 17, 8)
    assert all(returned[w] > 0 for w in ("bottom", "top", "shuffle_in"))
    assert any(spy.calls[("ice_hand_out", n)] > 0 for n in (2, 3, 4, 5))


# ---------------------------------------------------------------- seeds and game indices


def test_seeds_differ_and_large_seeds_and_game_indices_work():
    policies = GAME.seat_policies("greedy", 4)
    a = GAME.fast(Rules(), policies, 4, 1, 0, 50)
    b = GAME.fast(Rules(), policies, 4, 2, 0, 50)
    assert not np.array_equal(a[:, 1:], b[:, 1:])
    assert_same(Rules(), "random,greedy,planner", 3, 2**63 + 12345, 5, first=10**12)


# ---------------------------------------------------------------- the API


def test_the_fast_path_is_the_games_declared_fast_path():
    assert GAME.module("engine") is engine and isinstance(engine.FAST, FastPath)
    assert_same(Rules(), "greedy,random,planner,random", 4, 3, 12, first=7)


def test_bad_player_and_policy_counts_are_user_errors():
    with pytest.raises(RulesError, match="policies"):
        GAME.fast(Rules(), GAME.seat_policies("greedy", 3), 4, 1, 0, 5)
    with pytest.raises(RulesError, match="3-5 players"):
        GAME.fast(Rules(), GAME.seat_policies("greedy", 2), 2, 1, 0, 5)


# rollout plays every D1/D2/D9 option to the end many times on the reference path (about
# 0.7 s a game with 2 samples of 2 options), so it is compared on few games, small settings
ROLLOUT_CASES = [
    ({}, "rollout:samples=2:width=2,greedy,random,greedy", 4, 5),
    ({}, "greedy,rollout:samples=1:width=3:score_weight=0,greedy", 3, 3),
    ({"hidden_hands": False}, "random,greedy,rollout:samples=2:width=2", 3, 3),
    ({"free_round_resolution": "placement_order", "num_mutinies": 5},
     "rollout:samples=3:width=4,planner,greedy,greedy,rollout:samples=1:width=2", 5, 3),
]


@pytest.mark.parametrize("overrides, policies, players, games", ROLLOUT_CASES)
def test_rollout(overrides, policies, players, games):
    assert_same(Rules.from_overrides(overrides), policies, players, 29, games)


def test_enough_games_are_compared():
    planned = (3 * sum(POLICY_GAMES.values()) + len(MIXES) * MIX_GAMES
               + len(Rules.preset_names()) * sum(g for _, _, g in PRESET_SEATS)
               + len(OPTIONS) * sum(g for _, _, g in SEAT_SETS))
    assert planned >= 5000, planned


# ---------------------------------------------------------------- restricted play

# (rules, seats, players, games): every choice forbidden and forced somewhere, restricted
# seats next to unrestricted ones, every policy, 3-5 players, a few rule options that change
# what can be chosen (sales that must be made, no Mutiny in the last Captain round)
RESTRICTED = [
    ({}, "random:forbid=mutiny,random:force=sell,random:force=subvention", 3, 400),
    ({}, "random:force=if+sf,random:forbid=ice+treasures+market,random,random:force=offers",
     4, 400),
    ({}, "random:force=mutiny,random:forbid=sell,random:force=market+treasures,random,"
         "random:forbid=if+sf+offers+subvention", 5, 300),
    ({}, "random:force=ice,random:forbid=if+sf+ice+treasures+market+offers,random:force=sf",
     3, 300),
    ({"sale_optional": False}, "random:forbid=sell,random:force=sell,random,random:force=market",
     4, 300),
    ({"last_captain_mutiny": "forbidden", "num_mutinies": 8},
     "random:force=mutiny,random:force=mutiny+subvention,random:forbid=subvention", 3, 300),
    ({}, "greedy:forbid=mutiny,greedy:force=ice,greedy", 3, 40),
    ({}, "greedy:force=mutiny,planner:forbid=subvention,planner:force=mutiny,greedy:forbid=sell",
     4, 30),
    ({}, "planner:force=market,greedy:force=sell,planner:forbid=mutiny+subvention,"
         "heuristic:force=treasures,expert:forbid=offers", 5, 20),
    ({}, "planner:force=subvention,planner:forbid=sell,planner:force=if+offers", 3, 20),
    ({}, "expert:forbid=mutiny,expert,expert:force=sf,expert:force=subvention", 4, 30),
    ({}, "heuristic:lam=1:forbid=market+sf,expert:force=sell,heuristic:lam=0.5:force=ice,"
         "greedy", 4, 20),
    ({"sale_optional": False, "free_round_slots_exclusive": False},
     "expert:force=market+sell,planner:forbid=sell+mutiny,random:force=offers,expert", 4, 30),
]


def _restricted_ids(case):
    overrides, seats, players, _ = case
    return f"P{players}:{seats}" + (f":{_ids(overrides)}" if overrides else "")


@pytest.mark.parametrize("overrides, seats, players, games", RESTRICTED, ids=[
    _restricted_ids(c) for c in RESTRICTED])
def test_restricted_play(overrides, seats, players, games):
    fast = assert_same(Rules.from_overrides(overrides), seats, players, 31, games)
    unrestricted = ",".join(":".join(p for p in part.split(":")
                                     if not p.startswith(("forbid=", "force=")))
                            for part in seats.split(","))
    plain = GAME.fast(Rules.from_overrides(overrides),
                      GAME.seat_policies(unrestricted, players), players, 31, 0, games)
    assert not np.array_equal(fast, plain), "the restrictions changed none of the games"


# a search under a restriction, and its playouts keeping every seat's (few games: the
# reference path plays every candidate to the end)
RESTRICTED_ROLLOUTS = [
    ({}, "rollout:samples=2:width=2:forbid=mutiny,greedy:force=mutiny,random,greedy", 4, 3),
    ({}, "rollout:base=expert:samples=1:width=3:force=sell+ice,expert:forbid=subvention,"
         "random:force=offers", 3, 3),
    ({"num_mutinies": 6}, "greedy:forbid=if+ice,rollout:samples=2:width=3:force=subvention,"
                          "expert:force=market,rollout:base=expert:samples=1:width=2:"
                          "forbid=sell+treasures,random", 5, 2),
]


@pytest.mark.parametrize("overrides, seats, players, games", RESTRICTED_ROLLOUTS, ids=[
    _restricted_ids(c) for c in RESTRICTED_ROLLOUTS])
def test_restricted_rollout(overrides, seats, players, games):
    assert_same(Rules.from_overrides(overrides), seats, players, 37, games)


def test_every_choice_is_forbidden_and_forced_in_the_restricted_cases():
    said = {"forbid": set(), "force": set()}
    for _, seats, players, _ in RESTRICTED + RESTRICTED_ROLLOUTS:
        for policy in GAME.seat_policies(seats, players):
            said["forbid"] |= set(policy.restriction.forbid)
            said["force"] |= set(policy.restriction.force)
    for key, names in said.items():
        assert names == set(GAME.choice_names), (key, set(GAME.choice_names) - names)
    restricted = {p.name for _, seats, players, _ in RESTRICTED + RESTRICTED_ROLLOUTS
                  for p in GAME.seat_policies(seats, players) if p.restriction}
    assert restricted == {"random", "greedy", "planner", "heuristic", "expert", "rollout"}
    assert {players for _, _, players, _ in RESTRICTED} == {3, 4, 5}
    assert sum(games for *_, games in RESTRICTED) >= 2000
