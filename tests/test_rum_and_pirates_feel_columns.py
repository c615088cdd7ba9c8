"""Rum & Pirates' ``lead_changes`` and ``half_time_leader`` columns.

A seat's standing after a round is spec §7's score of what it holds after that round's
bunk fight (the score the game would give if it ended then); the last round's standing is
the final score. The leader is the one seat strictly on top (-1 when shared); the
half-time leader is the leader after round ``rounds // 2``; a lead change is a round end
whose leader is a seat other than the last seat leader (shared tops skipped).

(a) leader and lead_story on hand-made standings: tests/test_standings.py; (b) the
columns' ranges over thousands of fast-path games at every player count; (c) both columns
recomputed, independently, from the reference's own per-round standings and compared with
the fast path's row of the same game.
"""

from __future__ import annotations

import numpy as np
import pytest

from engines._play import play_table
from engines.rum_and_pirates import GAME
from engines.rum_and_pirates import reference as ref
from engines.rum_and_pirates.rules import Rules

# (a) the hand-made standings of leader and lead_story: tests/test_standings.py


# ---------------------------------------------------------------- (b) ranges, fast path


MIX = ("greedy", "random", "greedy:tau=2", "random", "greedy")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("rules", [Rules(), Rules(num_rounds=3), Rules(num_rounds=1)],
                         ids=["5 rounds", "3 rounds", "1 round"])
def test_columns_in_range_every_player_count(players, rules):
    cols = GAME.column_names(players)
    for policy in ("greedy", ",".join(MIX[:players])):
        rows = GAME.fast(rules, GAME.seat_policies(policy, players), players, 7, 0, 2000)
        changes = rows[:, cols.index("lead_changes")]
        half = rows[:, cols.index("half_time_leader")]
        rounds = rows[:, cols.index("rounds")]
        assert np.all(rounds == rules.num_rounds)
        assert np.all(changes == np.round(changes)) and np.all(half == np.round(half))
        assert np.all((half >= -1) & (half <= players - 1))
        assert np.all((changes >= 0) & (changes <= rounds - 1))
        if rules.num_rounds < 2:
            assert np.all(half == -1)
        else:
            assert (half >= 0).mean() > 0.5 and changes.max() >= 1


# ---------------------------------------------------------------- (c) against the standings


def leaders_of(standings):
    """The leader of each round end, written apart from the reference's function."""
    out = []
    for standing in standings:
        order = sorted(range(len(standing)), key=lambda p: -standing[p])
        alone = standing[order[0]] > standing[order[1]]
        out.append(order[0] if alone else -1)
    return out


def story_of(standings):
    seats = [q for q in leaders_of(standings) if q >= 0]
    changes = sum(1 for a, b in zip(seats, seats[1:], strict=False) if a != b)
    R = len(standings)
    half = leaders_of(standings)[R // 2 - 1] if R >= 2 else -1
    return changes, half


@pytest.mark.parametrize(("rules", "policy", "players", "games"), [
    (Rules(), "greedy", 4, 120),
    (Rules(), "random,greedy", 2, 100),
    (Rules(), "greedy,random,greedy,random,greedy", 5, 60),
    (Rules(num_rounds=4, supply_scoring="best_per_kind"), "random", 3, 80),
])
def test_columns_follow_the_reference_standings(rules, policy, players, games):
    policies = GAME.seat_policies(policy, players)
    seed = 31
    fast = GAME.fast(rules, policies, players, seed, 0, games)
    cols = GAME.column_names(players)
    for j in range(games):
        t = play_table(GAME, rules, policies, players, seed, j)
        row = ref.outcome(t, j)
        assert len(t.standings) == t.round == row["rounds"] == rules.num_rounds
        assert t.standings[-1] == [row[f"score_{p}"] for p in range(players)]
        want = story_of(t.standings)
        assert (row["lead_changes"], row["half_time_leader"]) == want
        got = (fast[j, cols.index("lead_changes")], fast[j, cols.index("half_time_leader")])
        assert got == want, f"game {j}"
