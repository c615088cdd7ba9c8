"""Rum Rebellion's ``lead_changes`` and ``half_time_leader`` columns.

A seat's standing after a round is its progress score then (spec §5: 1000 x stage + 10 x
votes + net barrels, the winner's stage 3); a successful coup ends the last round at its
moment, a capped game at the end of round ``max_rounds``. The leader is the one seat
strictly on top (-1 when shared); the half-time leader is the leader after round
``rounds // 2``; a lead change is a round end whose leader is a seat other than the last
seat leader (shared tops skipped).

(a) leader and lead_story on hand-made standings: tests/test_standings.py; (b) the
columns' ranges over thousands of fast-path games at every player count; (c) both columns
recomputed, independently, from the reference's own per-round standings and compared with
the fast path's row of the same game.
"""

from __future__ import annotations

import numpy as np
import pytest

from engines._play import play_table
from engines.rum_rebellion import GAME
from engines.rum_rebellion import reference as ref
from engines.rum_rebellion.rules import Rules

# (a) the hand-made standings of leader and lead_story: tests/test_standings.py


# ---------------------------------------------------------------- (b) ranges, fast path


MIX = ("threshold", "random", "blocker", "threshold:risk=1", "random", "blocker")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_columns_in_range_every_player_count(players):
    cols = GAME.column_names(players)
    mix = ",".join(MIX[:players])
    rows = GAME.fast(Rules(), GAME.seat_policies(mix, players), players, 7, 0, 3000)
    changes = rows[:, cols.index("lead_changes")]
    half = rows[:, cols.index("half_time_leader")]
    rounds = rows[:, cols.index("rounds")]
    assert np.all(changes == np.round(changes)) and np.all(half == np.round(half))
    assert np.all((half >= -1) & (half <= players - 1))
    assert np.all((changes >= 0) & (changes <= rounds - 1))
    assert np.all(half[rounds < 2] == -1)
    # the columns carry information: leads do change, and some half times are shared or not
    assert changes.max() >= 2 and (half >= 0).mean() > 0.5


# ---------------------------------------------------------------- (c) against the standings


def leaders_of(standings):
    """The leader of each round end, written apart from the reference's function."""
    out = []
    for standing in standings:
        order = sorted(range(len(standing)), key=lambda p: -standing[p])
        alone = len(standing) == 1 or standing[order[0]] > standing[order[1]]
        out.append(order[0] if alone else -1)
    return out


def story_of(standings):
    seats = [q for q in leaders_of(standings) if q >= 0]
    changes = sum(1 for a, b in zip(seats, seats[1:], strict=False) if a != b)
    R = len(standings)
    half = leaders_of(standings)[R // 2 - 1] if R >= 2 else -1
    return changes, half


@pytest.mark.parametrize(("rules", "policy", "players", "games"), [
    (Rules(), "threshold", 4, 150),
    (Rules(), "random,blocker", 2, 100),
    (Rules(), "blocker,threshold,random,threshold,random,blocker", 6, 60),
    # capped games: the last round end is round max_rounds
    (Rules(bond_store_supply=20, max_rounds=50), "threshold", 5, 60),
])
def test_columns_follow_the_reference_standings(rules, policy, players, games):
    policies = GAME.seat_policies(policy, players)
    seed = 31
    fast = GAME.fast(rules, policies, players, seed, 0, games)
    cols = GAME.column_names(players)
    capped = 0
    for j in range(games):
        t = play_table(GAME, rules, policies, players, seed, j)
        row = ref.outcome(t, j)
        assert len(t.standings) == t.round == row["rounds"]
        assert t.standings[-1] == [row[f"score_{p}"] for p in range(players)]
        if t.winner is not None:
            assert leaders_of(t.standings)[-1] == t.winner
        capped += t.capped
        want = story_of(t.standings)
        assert (row["lead_changes"], row["half_time_leader"]) == want
        got = (fast[j, cols.index("lead_changes")], fast[j, cols.index("half_time_leader")])
        assert got == want, f"game {j}"
    if rules.max_rounds == 50:
        assert capped > 0
