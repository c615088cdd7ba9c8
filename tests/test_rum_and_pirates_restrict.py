"""Rum & Pirates: restricted play (issue 27) does what it says, on the fast path.

A seat's restriction (``random:forbid=pub``, ``greedy:force=dark_road``) narrows every D1 /
D2 (a road move by the action of the corner it reaches, a dark move, REST, BOARD), every D9
re-roll and every D7 pub join (``__init__.CHOICES``, engines._restrict). Here: a forbidden
choice is never taken where the rules always leave another option; a forced one is taken at
least as often as unrestricted; the ``took_<choice>_<seat>`` counts add up to what the game's
own columns count; a restriction naming no choice of the game is one clear error. That both
paths agree under restrictions is ``test_rum_and_pirates_equivalence.py``'s.
"""

from __future__ import annotations

import numpy as np
import pytest

from engines._rules import RulesError
from engines.rum_and_pirates import ACTION_CHOICE, GAME
from engines.rum_and_pirates.rules import Rules

GAMES = 2_000
PLAYERS = 4
MOVE_CHOICES = (*dict.fromkeys(ACTION_CHOICE), "dark_road")
NAMES = GAME.choice_names


def fast(policy_text: str, games: int = GAMES, players: int = PLAYERS, rules=None):
    return GAME.fast(rules or Rules(), GAME.seat_policies(policy_text, players), players, 61,
                     0, games)


def col(rows, name, players=PLAYERS):
    return rows[:, GAME.column_names(players).index(name)]


def took(rows, choice, seat, players=PLAYERS):
    return col(rows, f"took_{choice}_{seat}", players)


def took_all(rows, choice, players=PLAYERS):
    return sum(took(rows, choice, s, players) for s in range(players))


def seats(first: str, players: int = PLAYERS, others: str = "random") -> str:
    return ",".join([first] + [others] * (players - 1))


# every choice but board: the rules always leave a seat another option (D1 always offers
# BOARD to an active seat with pirates, D2 STOP, D7 DECLINE, D9 KEEP; default rules: no seat
# is active without pirates). BOARD is the only option of a D1 without moves or rest.
ALWAYS_AVOIDABLE = tuple(n for n in NAMES if n != "board")


@pytest.mark.parametrize("policy", ["random", "greedy", "expert"])
@pytest.mark.parametrize("choice", ALWAYS_AVOIDABLE)
def test_a_forbidden_choice_is_never_taken(choice, policy):
    games = GAMES if policy == "random" else GAMES // 4
    plain = fast(seats(policy), games)
    rows = fast(seats(f"{policy}:forbid={choice}"), games)
    assert took(rows, choice, 0).sum() == 0
    assert took_all(rows, choice).sum() > 0   # the other seats still take it
    if policy == "random":
        assert took(plain, choice, 0).sum() > 0, "unrestricted, seat 0 takes it"


def test_forbidding_board_leaves_only_the_boardings_it_cannot_avoid():
    plain = fast(seats("random"))
    rows = fast(seats("random:forbid=board"))
    # (about 2.0 a game against 3.8: it moves and rests while it can, so it boards late,
    # or runs out of pirates before)
    assert took(rows, "board", 0).sum() < 0.6 * took(plain, "board", 0).sum()
    assert took(rows, "rest", 0).sum() > took(plain, "rest", 0).sum()


@pytest.mark.parametrize("choice", NAMES)
def test_a_forced_choice_is_taken_at_least_as_often(choice):
    for policy in ("random", "greedy"):
        plain = fast(seats(policy), GAMES // 2)
        rows = fast(seats(f"{policy}:force={choice}"), GAMES // 2)
        assert took(rows, choice, 0).sum() >= took(plain, choice, 0).sum(), policy
        assert took(rows, choice, 0).sum() > 0, policy


def test_a_seat_forced_to_board_boards_at_its_first_turn_of_every_round():
    rows = fast(seats("expert:force=board", others="expert"), 500)
    np.testing.assert_array_equal(took(rows, "board", 0), col(rows, "rounds"))
    for choice in MOVE_CHOICES + ("rest",):
        assert took(rows, choice, 0).sum() == 0, choice


def test_forbidding_every_move_but_one_kind_leaves_that_kind():
    # a random seat that may not go anywhere but to a pub still moves (to pubs), rests, boards
    others = "+".join(c for c in MOVE_CHOICES if c != "pub")
    rows = fast(seats(f"random:forbid={others}"))
    for choice in MOVE_CHOICES:
        if choice != "pub":
            assert took(rows, choice, 0).sum() == 0, choice
    assert took(rows, "pub", 0).sum() > 0


TALLY_RULES = [
    {},
    {"board_after_move_same_turn": True, "rerolls_per_rum": 2, "rum_per_visit": 3},
    {"zero_hand_may_rest": True, "reroll_window": "after_column", "bunk_tie_rule": "reroll"},
]


@pytest.mark.parametrize("overrides", TALLY_RULES, ids=lambda o: ",".join(o) or "default")
@pytest.mark.parametrize("players", [2, 3, 5])
def test_took_counts_add_up_to_the_games_columns(players, overrides):
    rules = Rules.from_overrides(overrides)
    mix = ",".join(["random", "greedy:force=reroll:forbid=coin", "expert", "random:force=pub",
                    "greedy"][:players])
    rows = fast(mix, 500, players, rules)
    moves = sum(took_all(rows, c, players) for c in MOVE_CHOICES)
    np.testing.assert_array_equal(moves, col(rows, "moves", players))
    np.testing.assert_array_equal(took_all(rows, "dark_road", players),
                                  col(rows, "dark_moves", players))
    np.testing.assert_array_equal(took_all(rows, "rest", players), col(rows, "rests", players))
    np.testing.assert_array_equal(took_all(rows, "reroll", players),
                                  col(rows, "rerolls", players))
    np.testing.assert_array_equal(took_all(rows, "pub_join", players),
                                  col(rows, "pub_fees", players))
    # a seat boards at most once a round (by a decision: not counted when it runs out)
    for s in range(players):
        assert (took(rows, "board", s, players) <= col(rows, "rounds", players)).all()
    assert (col(rows, "rerolls", players) > 0).any()


def test_unrestricted_rows_end_with_the_took_columns():
    names = GAME.column_names(3)
    took_names = [f"took_{c}_{s}" for c in NAMES for s in range(3)]
    assert names[-len(took_names):] == took_names
    assert len(NAMES) == 14 and len(set(NAMES)) == 14


def test_a_restriction_naming_no_choice_is_one_clear_error():
    with pytest.raises(RulesError, match="no choice 'mutiny'.*its choices: coin, crew,"):
        GAME.seat_policies("greedy:forbid=mutiny", 2)
    with pytest.raises(RulesError, match="both forbidden and forced"):
        GAME.seat_policies("expert:forbid=pub:force=pub", 2)
    policy = GAME.seat_policies("expert:forbid=map+pub:force=dark_road", 2)[0]
    assert policy.label() == "expert:forbid=map+pub:force=dark_road"


@pytest.mark.parametrize("rule, policy, words", [
    ({"rest_coin": 0}, "greedy:force=rest", "force=rest needs rest_coin >= 1"),
    ({"dark_same_corner": True}, "random:force=dark_road", "dark_same_corner"),
])
def test_a_forced_choice_the_rules_would_let_go_on_for_ever_is_refused(rule, policy, words):
    from engines import get_game

    info = get_game("rum-and-pirates")
    rules = info.rules_cls.from_overrides(rule)
    policies = info.seat_policies(f"{policy},greedy,greedy", 3)
    with pytest.raises(RulesError, match=words):
        info.check_seats(rules, policies, 3)
    # forbidding them, or forcing them under other rules, is fine
    info.check_seats(rules, info.seat_policies("greedy:forbid=rest+dark_road,greedy,greedy", 3), 3)
