"""Rum Rebellion: the Numba fast path (``GAME.fast``) equals the reference path game for game.

Every column of every game must be identical to the reference path's (``GAME.reference``) for the
same rules, per-seat policies, seed and game index: across P = 2..6, the
three policies and mixes of them (with several risk values), every preset,
the non-default value of every house rule and of every other rule option
(``test_every_rule_option_is_exercised`` keeps that list complete), and
capped games. Rows must not depend on the thread count, on how the games are
split into calls, or on the fast path's replay of games whose promissory
notes outgrow its first notes region.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines._fast import FastPath
from engines._rules import RulesError
from engines.rum_rebellion import GAME, engine
from engines.rum_rebellion.rules import Rules


def assert_same(rules, policy_text, players, seed, games, first=0):
    """Play games first .. first + games - 1 both ways; every column must match exactly."""
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


# ---------------------------------------------------------------- player counts and policies


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("policy", ["random", "threshold", "blocker"])
def test_default_rules_every_player_count_and_policy(players, policy):
    fast = assert_same(Rules(), policy, players, 100 + players, 70)
    cols = GAME.column_names(players)
    assert fast[:, cols.index("coups_attempted")].sum() >= 70   # real games, all won
    assert fast[:, cols.index("capped")].sum() == 0


@pytest.mark.parametrize(("players", "mix"), [
    (2, "random,blocker"),
    (2, "threshold:risk=1,threshold:risk=0"),
    (3, "random,threshold,blocker:risk=0.75"),
    (4, "threshold:risk=0,threshold:risk=1,blocker,random"),
    (4, "threshold:risk=0.3,blocker:risk=0.9,threshold:risk=0.49,blocker:risk=0"),
    (5, "blocker,random,threshold:risk=0.2,random,threshold"),
    (6, "random,random,threshold,blocker,threshold:risk=0.9,blocker:risk=0"),
])
def test_policy_mixes(players, mix):
    assert_same(Rules(), mix, players, 11, 60)


# ---------------------------------------------------------------- presets


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_presets(preset):
    rules = Rules.from_overrides(preset=preset)
    for players, policy in ((2, "threshold"), (3, "random,threshold,blocker"), (4, "random"),
                            (5, "threshold,blocker,random,threshold,random"), (6, "blocker")):
        assert_same(rules, policy, players, 5, 14)


# ---------------------------------------------------------------- house rules and other options

HOUSE_RULES = [
    {"side_bet_stake": 1},
    {"side_bet_stake": 3, "win_lose_after_draw": "iid"},
    {"allow_vote_trading": True},
    {"allow_vote_trading": True, "votes_for_coup": 75, "challenge_min_votes": 30},
    {"max_consecutive_doubles": 1},
    {"max_consecutive_doubles": 3},
    {"sneak_turn_probability": 0.3},
    {"sneak_turn_probability": 1.0},
    {"exact_start_bonus": 4},
    {"coup_delay": "next_turn_any"},
    {"coup_delay": "none"},
    {"start_barrels_by_seat": (0, 1, 2, 3, 0, 0)},
    {"start_barrels_by_seat": (0, 3, 3, 3, 3, 3)},
]

OTHER_OPTIONS = [
    {"ticket_cost": 2, "commission_cost": 5},
    {"lose_cards_removed": 11, "gaol_cards_removed": 4, "fine_cards_removed": 1},
    {"votes_for_coup": 20},
    {"starting_level": "ticket_of_leave", "ticket_assignment": "choose"},
    {"starting_level": "rum_corps", "tickets_per_player": 1},
    {"bond_store_supply": "unlimited"},
    {"bond_store_supply": 0, "max_rounds": 60},
    {"bond_store_supply": 30, "store_shortfall": "pay_nothing", "max_rounds": 60},
    {"bond_store_supply": 40, "store_empty_vote_sale": "once_per_event", "max_rounds": 60},
    {"bond_store_supply": 40, "store_empty_vote_sale": "off", "max_rounds": 60},
    {"bond_store_supply": 50, "store_empty_vote_price": 3, "max_rounds": 80},
    {"bond_store_seat": 1, "bond_store_bonus": 5},
    {"bond_store_seat": 0, "bond_store_bonus": 0},
    {"start_barrels_by_seat": (0, 3, 3, 3, 3, 3), "bond_store_supply": 15, "max_rounds": 60},
    {"start_barrels_by_seat": (100, 0, 50, 7, 0, 100), "bond_store_supply": "unlimited"},
    {"start_barrels_by_seat": (0, 5, 10, 15, 20, 25), "bond_store_seat": 2,
     "store_shortfall": "pay_nothing"},
    {"income_convict": 1, "income_ticket_of_leave": 2, "income_captain": 3, "income_major": 6,
     "major_vote_option_barrels": 1},
    {"start_landing_counts_as_pass": False},
    {"non_parole_rotations": 0, "tol_min_rotations": 2},
    {"non_parole_rotations": 3},
    {"ticket_cost_mode": "all_barrels"},
    {"tickets_per_player": 1},
    {"ticket_assignment": "choose"},
    {"max_level_ups_per_turn": 2, "non_parole_rotations": 0},
    {"win_cards": 6, "lose_cards": 18, "go_free_cards": 1, "fine_cards": 7, "gaol_cards": 2},
    {"win_cards": 30, "lose_cards": 2, "go_free_cards": 0},
    {"win_lose_after_draw": "iid"},
    {"bonus_shuffles_decks": False},
    {"fine_unpaid": "part_pay_then_gaol"},
    {"crime_win_amount": 6},
    {"crime_win_amount": 0},
    {"challenge_stake": 20, "challenge_min_votes": 30},
    {"challenge_min_votes": 0},
    {"challenge_targets": "same_level"},
    {"vote_model": "points"},
    {"vote_model": "points", "coup_fail_votes_lost": "all", "challenge_stake": 5},
    {"vote_model": "points", "challenge_stake": 15, "votes_for_coup": 43},
    {"vote_pack": (10, 7, 40, 5, 2, 30)},
    {"vote_pack": (5, 1, 3, 10, 20, 14, 5, 9, 2), "votes_for_coup": 33},
    {"vote_top_visible": False},
    {"vote_top_visible": False, "vote_pack": (10, 6, 30, 10, 9, 10)},
    {"max_vote_buys_per_landing": 3},
    {"promotion_cost": 5},
    {"duel_fine": 25, "duel_missed_turns": 4},
    {"duel_fine": 0, "duel_missed_turns": 0},
    {"note_interest": 3},
    {"note_interest": 0},
    {"part_payment_before_note": False},
    {"payment_order": "barrels_first"},
    {"note_interest_on_transfer": True},
    {"store_notes": False},
    {"coup_requires_rum_corps": False, "votes_for_coup": 40},
    {"coup_attempt_ends_turn": False},
    {"coup_fail_votes_lost": "all"},
    {"votes_for_coup": 57},     # not a multiple of 5: overpayment and change (§4.8)
    {"redeem_timing": "any_time"},
    {"redeem_timing": "any_time", "payment_order": "barrels_first", "note_interest": 2},
    {"missed_turn_markers_limit": 4},
    {"missed_turn_markers_limit": 0},
    {"doubles_after_penalty": "consume_marker"},
    {"doubles_after_penalty": "take_anyway", "sneak_turn_probability": 0.1},
    {"votes_for_coup": 480, "max_rounds": 50, "cap_resolution": "progress"},
    {"votes_for_coup": 200, "max_rounds": 50},
    {"board_rum_corps": ("START", "BV", "DU", "PR", "CH", "OC1", "BV", "DU", "PL", "CH", "BV",
                         "PR", "MF2", "GD3"),
     "occupation_rents": (2, 2, 3, 3, 4, 4, 2, 3, 3, 4, 4, 5, 7)},
    {"board_convict": ("START", "GD1", "CR1", "BV", "CH", "OC2", "MF1", "CR6", "GD1", "BO2",
                       "DU", "PR"),
     "occupation_rents": (9, 2, 2, 3, 3, 4, 4, 2, 3, 3, 4, 4, 5), "max_rounds": 150},
    {"board_ticket_of_leave": ("START", "OC1", "OC2", "OC3", "OC4", "OC5", "OC6", "BO0",
                               "CR9", "MF1", "CH", "PL", "GD0"),
     "occupation_rents": (1, 2, 3, 4, 5, 6)},
]


def _ids(overrides):
    return ",".join(f"{k}={v}" for k, v in overrides.items())[:70]


def _ids_of(values):
    return "".join(map(str, values))


def _seat_sets(overrides):
    players = 2 if overrides.get("tickets_per_player") == 3 else 4
    return ((players, "threshold"), (5, "random"), (3, "blocker,random,threshold"),
            (6, "random,threshold:risk=1,blocker,threshold:risk=0,random,blocker:risk=0.9"))


@pytest.mark.parametrize("overrides", HOUSE_RULES, ids=_ids)
def test_house_rules(overrides):
    rules = Rules.from_overrides(overrides)
    for players, policy in _seat_sets(overrides):
        assert_same(rules, policy, players, 23, 20)


@pytest.mark.parametrize("overrides", OTHER_OPTIONS, ids=_ids)
def test_other_options(overrides):
    rules = Rules.from_overrides(overrides)
    for players, policy in _seat_sets(overrides):
        assert_same(rules, policy, players, 29, 8)


@pytest.mark.parametrize("start", [(0, 1, 2, 3, 0, 0), (0, 3, 3, 3, 3, 3)], ids=_ids_of)
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("policy", ["random", "threshold", "blocker"])
def test_start_barrels_by_seat_every_policy(players, policy, start):
    assert_same(Rules(start_barrels_by_seat=start), policy, players, 37 + players, 60)


@pytest.mark.parametrize(("players", "mix"), [
    (2, "random,blocker"),
    (4, "threshold:risk=0,threshold:risk=1,blocker,random"),
    (6, "random,random,threshold,blocker,threshold:risk=0.9,blocker:risk=0"),
])
def test_start_barrels_by_seat_policy_mixes(players, mix):
    for start in ((0, 1, 2, 3, 0, 0), (0, 3, 3, 3, 3, 3)):
        assert_same(Rules(start_barrels_by_seat=start), mix, players, 13, 60)


def test_every_rule_option_is_exercised():
    named = {key for group in (HOUSE_RULES, OTHER_OPTIONS) for o in group for key in o}
    named |= {key for name in Rules.preset_names() for key in Rules.PRESETS[name][1]}
    missing = {f.name for f in dataclasses.fields(Rules)} - named
    assert not missing, f"rule options without an equivalence test: {sorted(missing)}"


def test_capped_games_and_progress_wins_match():
    rules = Rules(votes_for_coup=480, max_rounds=50, cap_resolution="progress")
    fast = assert_same(rules, "threshold", 3, 4, 6)
    cols = GAME.column_names(3)
    assert (fast[:, cols.index("capped")] == 1).all()
    assert np.allclose(fast[:, [cols.index(f"win_{p}") for p in range(3)]].sum(axis=1), 1.0)


def test_a_game_replayed_for_a_larger_notes_region_is_unchanged(monkeypatch):
    # Games whose notes outgrow the fast path's first notes region are replayed with a
    # larger one; with a region of one note nearly every game takes that path.
    rules = Rules(redeem_timing="start_of_turn")
    policies = GAME.seat_policies("random", 6)
    before = GAME.fast(rules, policies, 6, 3, 0, 40)
    monkeypatch.setattr(engine, "NOTE_CAP", 1)
    after = GAME.fast(rules, policies, 6, 3, 0, 40)
    cols = GAME.column_names(6)
    assert before[:, cols.index("notes_written")].max() > 4
    np.testing.assert_array_equal(before, after)
    assert_same(rules, "random", 6, 3, 15)


# ---------------------------------------------------------------- restricted play

# Every choice forbidden and forced somewhere, restricted seats beside unrestricted ones,
# every policy (the searches below), P = 2..6.
RESTRICTED = [
    (2, "random:forbid=crime+challenge,threshold:force=crime+challenge", 250),
    (3, "random:force=buy_vote+promotion+redeem,blocker:forbid=buy_vote+redeem,"
        "expert:force=announce", 200),
    (4, "threshold:forbid=ticket,random:force=major_vote+store_vote,"
        "expert:forbid=major_vote+commission,random", 200),
    (5, "expert:force=challenge+crime,random:forbid=promotion+announce+store_vote,threshold,"
        "blocker:force=commission+ticket,random:force=challenge", 150),
    (6, "random,random:forbid=redeem+crime,expert:forbid=challenge+announce,"
        "heuristic:force=buy_vote+major_vote,threshold:risk=0:force=challenge,"
        "blocker:risk=0.9:forbid=buy_vote", 120),
    (4, "random:force=redeem+ticket+commission+store_vote+major_vote+crime+challenge+"
        "buy_vote+promotion+announce,expert,threshold:risk=0:force=challenge+crime,random", 200),
    (3, "threshold:forbid=redeem+store_vote+major_vote+crime+challenge+buy_vote+promotion,"
        "random:forbid=ticket,expert:force=challenge", 200),
]


@pytest.mark.parametrize(("players", "mix", "games"), RESTRICTED)
def test_restricted_seats(players, mix, games):
    fast = assert_same(Rules(bond_store_supply=80), mix, players, 31 + players, games)
    cols = GAME.column_names(players)
    assert fast[:, [c.startswith("took_") for c in cols]].sum() > 0


RESTRICTED_OPTIONS = [
    {"coup_delay": "none"},
    {"redeem_timing": "any_time"},
    {"max_level_ups_per_turn": 2, "max_vote_buys_per_landing": 3, "non_parole_rotations": 0},
    {"vote_top_visible": False, "bond_store_supply": 40, "max_rounds": 60},
    {"challenge_targets": "same_level", "challenge_min_votes": 0},
    {"starting_level": "rum_corps", "tickets_per_player": 1},
    {"side_bet_stake": 2, "allow_vote_trading": True},
]


@pytest.mark.parametrize("overrides", RESTRICTED_OPTIONS, ids=_ids)
def test_restricted_seats_under_rule_options(overrides):
    rules = Rules.from_overrides(overrides)
    assert_same(rules, "random:force=challenge+announce+crime,expert:forbid=buy_vote+announce,"
                "threshold:force=major_vote+store_vote:forbid=redeem,random:forbid=challenge",
                4, 19, 80)
    assert_same(rules, "blocker:force=redeem+buy_vote+promotion,random:forbid=crime+commission,"
                "expert:force=challenge", 3, 21, 80)


# The searches under restrictions: a rollout seat's own (read from its own row, not its
# base's), and the other seats' in its playouts; a rollout forced to challenge searches
# only whom.
RESTRICTED_SEARCHES = [
    (2, "rollout:samples=2:confidence=0:from_level=0:force=challenge,threshold:forbid=buy_vote",
     Rules(), 4),
    (3, "rollout:base=expert:samples=2:confidence=0:from_level=0:force=challenge:forbid=crime,"
        "expert:force=crime,random:force=challenge", Rules(), 3),
    (4, "random:forbid=announce,rollout:samples=1:confidence=0:from_level=0:force=buy_vote+"
        "announce:forbid=major_vote,blocker:forbid=challenge,"
        "rollout:base=expert:samples=2:confidence=0:from_level=1:force=commission", Rules(), 2),
    (3, "rollout:base=expert:samples=2:confidence=0:from_level=0:forbid=announce+ticket,"
        "rollout:samples=1:confidence=0:from_level=0:force=major_vote,expert",
        Rules(coup_delay="none", starting_level="rum_corps", tickets_per_player=1), 3),
]


@pytest.mark.parametrize(("players", "mix", "rules", "games"), RESTRICTED_SEARCHES)
def test_restricted_searches(players, mix, rules, games):
    assert_same(rules, mix, players, 43 + players, games)


# ---------------------------------------------------------------- seeds and game indices


def test_seeds_differ_and_large_seeds_and_game_indices_work():
    policies = GAME.seat_policies("threshold", 4)
    a = GAME.fast(Rules(), policies, 4, 1, 0, 50)
    b = GAME.fast(Rules(), policies, 4, 2, 0, 50)
    assert not np.array_equal(a[:, 1:], b[:, 1:])
    assert_same(Rules(), "random,threshold", 2, 2**63 + 12345, 5, first=10**12)


# ---------------------------------------------------------------- the API's checks


def test_the_fast_path_is_the_games_declared_fast_path():
    # the declaration finds this engine (its compiled driver), and its rows are the reference's
    assert GAME.module("engine") is engine and isinstance(engine.FAST, FastPath)
    assert_same(Rules(), "threshold", 5, 3, 20, first=7)


def test_bad_policy_count_and_player_dependent_rules_are_user_errors():
    with pytest.raises(RulesError, match="policies"):
        GAME.fast(Rules(), GAME.seat_policies("threshold", 3), 4, 1, 0, 5)
    with pytest.raises(RulesError, match="bond_store_seat"):
        GAME.fast(Rules(bond_store_seat=4), GAME.seat_policies("threshold", 3), 3, 1, 0, 5)
    with pytest.raises(RulesError, match="tickets_per_player"):
        GAME.fast(Rules(tickets_per_player=2), GAME.seat_policies("random", 4), 4, 1, 0, 5)
