"""21 Motines: the ``lead_changes`` and ``half_time_leader`` columns.

The standing after a round is each seat's PV on the track as the round ends; after the
last round (the free round) it is the final PV (``score_<seat>``). The leader is the one
seat with the strictly highest standing (-1 when the top is shared); ``half_time_leader``
is the leader after round rounds // 2, ``lead_changes`` the round ends whose leader is a
seat other than the last seat that led.

(a) ``leader`` and ``lead_story`` on hand-made standings are in tests/test_standings.py; (b) what
must hold on thousands of fast-path games at every player count; (c) both columns
recomputed here from the reference path's per-round standings (``Table.standings``,
checked against the PV in the narration's round headers) equal the fast path's.
"""

from __future__ import annotations

import re
from itertools import pairwise

import numpy as np
import pytest

from engines._play import play_table
from engines.motines import GAME
from engines.motines.rules import Rules

A, B, C = 0, 1, 2


# (a) the hand-made standings of leader and lead_story: tests/test_standings.py


# ---------------------------------------------------------------- (b) fast-path invariants


def columns(fast, players, *names):
    cols = GAME.column_names(players)
    return [fast[:, cols.index(n)] for n in names]


MIX = "planner,random,greedy,random,planner"  # its first P seats


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy, games", [("random", 3000), ("greedy", 1000), (MIX, 300)])
def test_what_must_hold_on_fast_path_games(players, policy, games):
    policy = ",".join(policy.split(",")[:players])
    fast = GAME.fast(Rules(), GAME.seat_policies(policy, players), players, 41, 0, games)
    changes, half, rounds, tied = columns(fast, players, "lead_changes", "half_time_leader",
                                          "rounds", "tied_first")
    scores = fast[:, [GAME.column_names(players).index(f"score_{s}") for s in range(players)]]
    assert np.array_equal(changes, np.round(changes)) and np.array_equal(half, np.round(half))
    assert ((half >= -1) & (half <= players - 1)).all()
    assert ((changes >= 0) & (changes <= rounds - 1)).all()
    assert (rounds >= 3).all()  # a normal round, the last Captain round, the free round
    # the final standing is the final score: a sole top score is the last round's leader,
    # so a game without a lead change was led, whenever a seat led, by that seat
    sole = tied == 1
    final_leader = np.argmax(scores, axis=1)
    steady = sole & (changes == 0)
    assert ((half[steady] == -1) | (half[steady] == final_leader[steady])).all()
    # ... and a half-time leader who is not the sole final leader saw the lead change
    turned = sole & (half >= 0) & (half != final_leader)
    assert (changes[turned] >= 1).all()
    # not degenerate: the lead changes in some games, every seat leads at half time in some
    assert (changes > 0).any() and turned.any()
    if policy == "random":
        assert set(np.unique(half).astype(int)) >= set(range(-1, players))


# ---------------------------------------------------------------- (c) recomputed from standings


def recount(standings: list) -> tuple[int, int]:
    """The two columns from per-round standings, written apart from ``reference.lead_story``:
    the lead changes are the changes between consecutive seats in the list of sole leaders."""
    leaders = [st.index(max(st)) if st.count(max(st)) == 1 else -1 for st in standings]
    seats = [seat for seat in leaders if seat != -1]
    changes = sum(1 for a, b in pairwise(seats) if a != b)
    return changes, (leaders[len(leaders) // 2 - 1] if len(leaders) >= 2 else -1)


HEADER = re.compile(r"^Round (\d+) \(")
PV = re.compile(r"\b([A-E]) (-?\d+) PV\b")


def narrated_standings(log: list) -> dict:
    """Round r -> the PV of every seat in the header of round r + 1 (the standing after r)."""
    out = {}
    for line in log:
        m = HEADER.match(line)
        if m and int(m.group(1)) > 1:
            out[int(m.group(1)) - 1] = [int(v) for _, v in PV.findall(line.split(":", 1)[1])]
    return out


@pytest.mark.parametrize("rules, policy, players, games", [
    (Rules(), "random", 3, 80), (Rules(), "random", 4, 80), (Rules(), "random", 5, 60),
    (Rules(), "greedy", 4, 12), (Rules(), "greedy,random,planner", 3, 8),
    (Rules.from_overrides(preset="very_short"), "random", 4, 100),
    (Rules.from_overrides(preset="short"), "greedy", 5, 10),
])
def test_columns_recomputed_from_reference_standings_equal_the_fast_path(rules, policy,
                                                                          players, games):
    seed = 7
    policies = GAME.seat_policies(policy, players)
    fast = GAME.fast(rules, policies, players, seed, 0, games)
    names = GAME.column_names(players)
    for game in range(games):
        t = play_table(GAME, rules, policies, players, seed, game)
        assert len(t.standings) == t.round == fast[game, names.index("rounds")]
        assert t.standings[-1] == [p.pv for p in t.seats]  # the last standing: final PV
        assert t.standings[-1] == [fast[game, names.index(f"score_{s}")]
                                   for s in range(players)]
        got = (fast[game, names.index("lead_changes")],
               fast[game, names.index("half_time_leader")])
        assert recount(t.standings) == got, f"game {game}: standings {t.standings}"


@pytest.mark.parametrize("game", range(4))
def test_standings_are_the_pv_the_narration_shows_between_rounds(game):
    rules, policies = Rules(), GAME.seat_policies("random", 4)
    log, record = GAME.narrate(rules, policies, 4, 3, game)
    t = play_table(GAME, rules, policies, 4, 3, game)
    shown = narrated_standings(log)
    # every round but the last is followed by a header showing the PV it left
    assert sorted(shown) == list(range(1, t.round))
    for r, pv in shown.items():
        assert t.standings[r - 1] == pv, f"round {r}"
    outcome = record["outcome"]
    assert (outcome["lead_changes"], outcome["half_time_leader"]) == recount(t.standings)
