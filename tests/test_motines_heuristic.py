"""21 Motines' ``heuristic`` policy: greedy at its defaults, the reference path's games
on the fast path under any weights, and every weight read.

``heuristic`` (policies.HeuristicPolicy) is greedy's one-step choice under a weighted
valuation whose weights are declared parameters, tuned by ``rumsim train``. Its
defaults are greedy's values (new weights 0), so its games must be greedy's, row for
row. The trainer searches each weight's declared box (``Param.search``), so reference =
fast is checked at weight vectors drawn from the boxes as well as at the defaults, at
every player count, in mixes with the other policies and under other rules. The
reference path is slow (a tenth of a second or more a game), so those comparisons play
few games each; the fast path's own checks play more.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_same as both_ways

from engines.motines import GAME, POLICIES
from engines.motines.rules import Rules

SPEC = POLICIES["heuristic"]
# a point of the box like the ones the trainer found (every weight away from its default)
TUNED = ("heuristic:w_money=0.754:w_cash=0.326:cash_target=1.68:w_fish=0.942:w_ice=0.321:"
         "ice_excess=0.132:w_sale=1.145:w_treasure=2.22:sell_min=9.36:captain_bonus=2.32:"
         "captain_bonus_early=1.77:captain_bonus_late=1.52:mutiny_denial=0.612:lam=0.29:"
         "money_reserve=3")


def assert_same(rules, policy_text, players, seed, games, first=0):
    return both_ways(GAME, rules, policy_text, players, seed, games, first)


def make_rules(overrides) -> Rules:
    overrides = dict(overrides)
    return Rules.from_overrides(overrides, preset=overrides.pop("preset", None))


def fast(rules, policy_text, players, seed, games):
    return GAME.fast(rules, GAME.seat_policies(policy_text, players), players, seed, 0, games)


def label(values) -> str:
    return "heuristic:" + ":".join(f"{p.name}={v!r}" for p, v in zip(SPEC.params, values,
                                                                        strict=True))


UNTRAINED = {"lam": (0.0, 1.5)}  # not searched by the trainer; still checked both ways here


def box(p):
    """The box a parameter's values are drawn from: its search box, or UNTRAINED's."""
    return p.search if p.search is not None else UNTRAINED[p.name]


def drawn(rng) -> tuple:
    """A weight vector drawn uniformly from the search boxes (whole numbers rounded)."""
    out = []
    for p in SPEC.params:
        v = float(rng.uniform(*box(p)))
        out.append(float(round(v)) if p.integer else round(v, 4))
    return tuple(out)


# ---------------------------------------------------------------- the declaration


def test_declared_weights_have_reasons_and_boxes():
    # a trained set (base "heuristic") shares the heuristic's code; a declared policy never does
    assert SPEC.code not in {s.code for n, s in POLICIES.items()
                             if n != "heuristic" and s.base is None}
    assert 8 <= len(SPEC.params) <= 24
    # lam reads a follower's private cards: a user may set it, the trainer leaves it alone
    assert [p.name for p in SPEC.params if p.search is None] == list(UNTRAINED)
    for p in SPEC.params:
        assert p.help, p.name
        lo, hi = box(p)
        assert p.low <= lo < hi <= p.high, p.name
        assert lo <= p.default <= hi, p.name
    # the weights it shares with greedy start at greedy's values
    greedy = POLICIES["greedy"]
    for p in greedy.params:
        assert SPEC.default(p.name) == p.default


# ---------------------------------------------------------------- defaults == greedy


DEFAULT_PAIRS = [
    ({}, 3, "heuristic", 300),
    ({}, 4, "heuristic", 300),
    ({}, 5, "heuristic", 300),
    ({}, 4, "heuristic,random,planner,greedy", 150),
    ({}, 5, "random,heuristic:money_reserve=2,greedy,heuristic,random", 150),
    ({"preset": "short"}, 4, "heuristic", 150),
    ({"hidden_hands": False, "sale_optional": False}, 3, "heuristic", 150),
    ({"mutiny_pv": (-1, 1, 2, 4), "treasure_modified_until_marker": 0}, 4, "heuristic", 150),
    ({"free_round_resolution": "placement_order", "sf_buy_mandatory": False}, 5,
     "heuristic,greedy,random,heuristic,planner", 100),
]


@pytest.mark.parametrize(("overrides", "players", "mix", "games"), DEFAULT_PAIRS)
def test_defaults_play_greedys_games(overrides, players, mix, games):
    rules = make_rules(overrides)
    as_greedy = ",".join("greedy" if part.startswith("heuristic") else part
                         for part in mix.split(","))
    a = fast(rules, mix, players, 31, games)
    b = fast(rules, as_greedy, players, 31, games)
    assert np.array_equal(a, b), f"{mix} differs from {as_greedy}"


def test_defaults_play_greedys_games_on_the_reference_path():
    row = GAME.reference(Rules(), GAME.seat_policies("heuristic,greedy,heuristic", 3), 3, 7, 2)
    assert row == GAME.reference(Rules(), GAME.seat_policies("greedy", 3), 3, 7, 2)


# ---------------------------------------------------------------- reference == fast


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_player_count(players):
    assert_same(Rules(), "heuristic", players, 40 + players, 2)
    rest = ",".join(["greedy"] * (players - 1))
    assert_same(Rules(), f"{TUNED},{rest}", players, 50 + players, 3)


MIXES = [
    (3, f"random,{TUNED},planner"),
    (4, f"{TUNED},random,{TUNED.replace('lam=0.29', 'lam=0')},greedy"),
    (5, f"planner,{TUNED},random,random,heuristic:w_cash=1.2:cash_target=5:sell_min=8"),
]


@pytest.mark.parametrize(("players", "mix"), MIXES)
def test_mixes(players, mix):
    assert_same(Rules(), mix, players, 13, 3)


RULES = [
    {"preset": "short"},
    {"preset": "very_short"},
    {"hidden_hands": False, "market_slots_exclusive": False},
    {"sale_optional": False, "sf_buy_mandatory": False, "if_return_to": "top"},
    {"free_round_resolution": "placement_order", "free_round_slots_exclusive": False},
    {"mutiny_pv": (0, 3, 1, 10), "treasure_modified_until_marker": 0,
     "auto_use_simple_treasures": False},
    {"last_captain_mutiny": "forbidden", "previous_action_rule": "none", "num_mutinies": 4},
]


@pytest.mark.parametrize("overrides", RULES, ids=lambda o: ",".join(o)[:40])
def test_rules_options(overrides):
    rules = make_rules(overrides)
    assert_same(rules, f"{TUNED},random,greedy,random", 4, 17, 2)


def test_random_weight_vectors_from_the_search_boxes():
    rng = np.random.default_rng(2024)
    corners = [tuple(box(p)[0] for p in SPEC.params), tuple(box(p)[1] for p in SPEC.params)]
    vectors = corners + [drawn(rng) for _ in range(14)]
    for k, values in enumerate(vectors):
        players = 3 + k % 3
        others = ["greedy", "random", "planner", "greedy"][:players - 1]
        mix = ",".join([label(values), *others])
        assert_same(Rules(), mix, players, 100 + k, 3)


# ---------------------------------------------------------------- every weight is read


# a value inside the box for each weight, away from its default
MOVED = {"w_money": 0.7, "w_cash": 1.0, "cash_target": 6, "w_fish": 1.0, "w_ice": 0.5,
         "ice_excess": 0.5, "w_sale": 1.4, "w_treasure": 2.0, "sell_min": 4,
         "captain_bonus": 3.0, "captain_bonus_early": -1.0, "captain_bonus_late": 0.0,
         "mutiny_denial": 0.5, "lam": 0.5, "money_reserve": 0}
BASE_OF = {"cash_target": "w_cash=0.8"}  # cash_target is read through w_cash


def test_every_weight_changes_the_games():
    assert set(MOVED) == {p.name for p in SPEC.params}
    for p in SPEC.params:
        base = "heuristic" + (":" + BASE_OF[p.name] if p.name in BASE_OF else "")
        moved = f"{base}:{p.name}={MOVED[p.name]}"
        a = fast(Rules(), f"{base},greedy,greedy,greedy", 4, 3, 200)
        b = fast(Rules(), f"{moved},greedy,greedy,greedy", 4, 3, 200)
        assert not np.array_equal(a, b), f"{p.name} changed no game"
