"""Who leads after each round (engines/_standings.py): the reference functions every game's
readable path calls, on hand-made standings from each game, and the fast twin on the same."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from engines._standings import lead_story, lead_story_at, leader

A, B, C = 0, 1, 2


# ---------------------------------------------------------------- Montego Bay (VP, fractions under tie_rounding=exact_fraction)


def test_leader_is_the_one_seat_strictly_on_top_montego_bay():
    assert leader([3, 5, 2]) == B
    assert leader([5, 5, 2]) == -1
    assert leader([5, 2, 5]) == -1
    assert leader([0, 0]) == -1
    assert leader([2, 4, 4, 9]) == 3
    assert leader([0, 0, 1]) == C
    # tie_rounding=exact_fraction: fractional VP
    assert leader([Fraction(9, 2), 4, Fraction(13, 3)]) == A
    assert leader([Fraction(8, 2), 4, 1]) == -1


@pytest.mark.parametrize("standings, expected", [
    # A, tie, B: one change (the tied round is skipped)
    ([[3, 1, 0], [3, 3, 0], [3, 4, 0]], (1, A)),
    # A, A, B, A: two changes; half time is round 2
    ([[2, 1, 0], [3, 1, 0], [3, 4, 0], [6, 4, 0]], (2, A)),
    # A, tie, A: no change
    ([[1, 0, 0], [1, 1, 0], [2, 1, 0]], (0, A)),
    # tie, A, B: the first seat leader is no change
    ([[0, 0, 0], [1, 0, 0], [1, 2, 0]], (1, -1)),
    # nobody scores in the first rounds (the usual start), then B, then A at the end
    ([[0, 0, 0], [0, 0, 0], [0, 5, 0], [0, 5, 0], [9, 5, 0]], (1, -1)),
    # A, tie at half time, A, C
    ([[1, 0, 0], [1, 1, 0], [2, 1, 0], [2, 1, 3]], (1, -1)),
    # A, B, C, B, A: four changes; 5 rounds, half time is round 2
    ([[1, 0, 0], [1, 2, 0], [1, 2, 3], [1, 4, 3], [5, 4, 3]], (4, B)),
    # two rounds: half time is round 1
    ([[0, 1], [2, 1]], (1, B)),
    # fewer than two rounds: no half time
    ([[0, 1, 0]], (0, -1)),
    ([], (0, -1)),
])
def test_lead_story_on_hand_made_standings_montego_bay(standings, expected):
    assert lead_story(standings) == expected


def test_lead_story_counts_at_most_one_change_a_round_montego_bay():
    standings = [[int(r % 3 == s) for s in range(3)] for r in range(12)]  # A, B, C, A, ...
    assert lead_story(standings) == (11, C)  # half time: round 6, led by C


# ---------------------------------------------------------------- 21 Motines (PV)


def test_leader_is_the_one_seat_strictly_on_top_motines():
    assert leader([3, 5, 2]) == B
    assert leader([5, 5, 2]) == -1
    assert leader([5, 2, 5]) == -1
    assert leader([4, 4, 4, 4]) == -1
    assert leader([2, 4, 4, 9, 1]) == 3
    assert leader([-3, -1, -2]) == B  # PV may go negative (pv_floor=none)
    assert leader([0, 0, 1]) == C


@pytest.mark.parametrize("standings, expected", [
    # A, tie, B: one change (the tied round is skipped)
    ([[3, 1, 0], [3, 3, 0], [3, 4, 0]], (1, A)),
    # A, A, B, A: two changes; half time is round 2
    ([[2, 1, 0], [3, 1, 0], [3, 4, 0], [6, 4, 0]], (2, A)),
    # A, tie, A: no change
    ([[1, 0, 0], [1, 1, 0], [2, 1, 0]], (0, A)),
    # tie, A, B: the first seat leader is no change
    ([[0, 0, 0], [1, 0, 0], [1, 2, 0]], (1, -1)),
    # A, tie at half time, A, C
    ([[1, 0, 0], [1, 1, 0], [2, 1, 0], [2, 1, 3]], (1, -1)),
    # A, B, C, B, A: four changes; 5 rounds, half time is round 2
    ([[1, 0, 0], [1, 2, 0], [1, 2, 3], [1, 4, 3], [5, 4, 3]], (4, B)),
    # the top shared at every round end
    ([[0, 0, 0], [2, 2, 1], [3, 1, 3]], (0, -1)),
    # two rounds: half time is round 1
    ([[0, 1, 0], [2, 1, 0]], (1, B)),
    # fewer than two rounds: no half time
    ([[0, 1, 0]], (0, -1)),
    ([], (0, -1)),
])
def test_lead_story_on_hand_made_standings_motines(standings, expected):
    assert lead_story(standings) == expected


def test_lead_story_counts_at_most_one_change_a_round_motines():
    standings = [[int(r % 3 == s) for s in range(3)] for r in range(12)]  # A, B, C, A, ...
    assert lead_story(standings) == (11, C)  # half time: round 6, led by C


# ---------------------------------------------------------------- Rum & Pirates (scores)


@pytest.mark.parametrize(("standing", "want"), [
    ([10, 5, 3], 0),
    ([3, 9], 1),
    ([5, 5, 1], -1),          # the top shared
    ([7, 3, 3], 0),           # a tie below the top does not matter
    ([0, 0, 0, 0, 0], -1),    # before anybody scored
    ([1, 2, 3, 3], -1),
    ([-2, -4], 0),            # scorpions: standings may be negative
])
def test_leader_rum_and_pirates(standing, want):
    assert leader(standing) == want


@pytest.mark.parametrize(("standings", "changes", "half"), [
    ([[3, 1]], 0, -1),                                        # R = 1: no half time
    ([[3, 1], [1, 3]], 1, 0),                                 # R = 2: half time is round 1
    ([[3, 1], [2, 2], [1, 3]], 1, 0),                         # A, tie, B: one change
    ([[5, 1, 0], [6, 2, 0], [1, 9, 0], [9, 1, 0]], 2, 0),     # A, A, B, A: two
    ([[3, 1], [2, 2], [4, 1]], 0, 0),                         # A, tie, A: none
    ([[1, 1], [1, 1], [2, 1], [0, 3]], 1, -1),                # tie, tie, A, B; half shared
    ([[0, 0], [2, 2], [3, 3], [4, 4], [5, 5]], 0, -1),        # never a leader
    ([[0, 1, 0], [0, 0, 2], [3, 0, 0], [0, 4, 0], [5, 0, 0]], 4, 2),  # B C A B A, half C
])
def test_lead_story_rum_and_pirates(standings, changes, half):
    assert lead_story(standings) == (changes, half)


# ---------------------------------------------------------------- Rum Rebellion (progress scores)


@pytest.mark.parametrize(("standing", "want"), [
    ([10, 5, 3], 0),
    ([3, 9], 1),
    ([5, 5, 1], -1),          # the top shared
    ([7, 3, 3], 0),           # a tie below the top does not matter
    ([4, 4, 4, 4], -1),
    ([1, 2, 3, 3], -1),
    ([2025, 1030, 3000], 2),  # the winner's stage 3
    ([-20, -5], 1),           # net barrels may be negative
])
def test_leader_rum_rebellion(standing, want):
    assert leader(standing) == want


@pytest.mark.parametrize(("standings", "changes", "half"), [
    ([[3, 1]], 0, -1),                                        # R = 1: no half time
    ([[3, 1], [1, 3]], 1, 0),                                 # R = 2: half time is round 1
    ([[3, 1], [2, 2], [1, 3]], 1, 0),                         # A, tie, B: one change
    ([[5, 1, 0], [6, 2, 0], [1, 9, 0], [9, 1, 0]], 2, 0),     # A, A, B, A: two
    ([[3, 1], [2, 2], [4, 1]], 0, 0),                         # A, tie, A: none
    ([[1, 1], [1, 1], [2, 1], [0, 3]], 1, -1),                # tie, tie, A, B; half shared
    ([[1, 1], [2, 2], [3, 3]], 0, -1),                        # never a leader
    ([[0, 1, 0], [0, 0, 2], [3, 0, 0], [0, 4, 0], [5, 0, 0]], 4, 2),  # B C A B A, half C
])
def test_lead_story_rum_rebellion(standings, changes, half):
    assert lead_story(standings) == (changes, half)


def test_no_rounds_noted_rum_rebellion():
    assert lead_story([]) == (0, -1)


# ---------------------------------------------------------------- the fast twin


@pytest.mark.parametrize("standings", [
    [], [[0, 1, 0]], [[0, 1], [2, 1]], [[3, 1, 0], [3, 3, 0], [3, 4, 0]],
    [[2, 1, 0], [3, 1, 0], [3, 4, 0], [6, 4, 0]], [[1, 0, 0], [1, 1, 0], [2, 1, 0], [2, 1, 3]],
    [[0, 1, 0], [0, 0, 2], [3, 0, 0], [0, 4, 0], [5, 0, 0]],
    [[int(r % 3 == s) for s in range(3)] for r in range(12)],
])
def test_the_fast_twin_reads_the_leaders_as_the_reference_does(standings):
    leaders = [leader(s) for s in standings]
    # anywhere in an array, as the engines keep it after their state
    at = np.array([7, 7, *leaders, 7], dtype=np.int64)
    assert lead_story_at(at, 2, len(leaders)) == lead_story(standings)
