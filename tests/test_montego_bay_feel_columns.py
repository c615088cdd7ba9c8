"""Montego Bay: the ``lead_changes`` and ``half_time_leader`` columns.

The standing after a round is each seat's VP on the track as the round ends (ships still
at a pier score only at the end); after the last round it is the final VP
(``score_<seat>``). The leader is the one seat with the strictly highest standing (-1 when
the top is shared); ``half_time_leader`` is the leader after round rounds // 2,
``lead_changes`` the round ends whose leader is a seat other than the last seat that led.

(a) ``leader`` and ``lead_story`` on hand-made standings are in tests/test_standings.py; (b) what
must hold on thousands of fast-path games at every player count; (c) both columns
recomputed here from the reference path's per-round standings (``Table.standings``,
checked against the VP in the narration's round headers) equal the fast path's.
"""

from __future__ import annotations

import re
from itertools import pairwise

import numpy as np
import pytest

from engines._play import play_table
from engines.montego_bay import GAME
from engines.montego_bay.rules import Rules

A, B, C = 0, 1, 2


# (a) the hand-made standings of leader and lead_story: tests/test_standings.py


# ---------------------------------------------------------------- (b) fast-path invariants


def column(fast, players, name):
    return fast[:, GAME.column_names(players).index(name)]


MIX = "greedy,random,greedy,random"  # its first P seats


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("rules, policy, games", [
    (Rules(), "random", 4000), (Rules(), "greedy", 1000), (Rules(), MIX, 1000),
    (Rules.from_overrides(preset="short"), "random", 3000),
], ids=["random", "greedy", "mix", "short-random"])
def test_what_must_hold_on_fast_path_games(players, rules, policy, games):
    policy = ",".join(policy.split(",")[:players])
    fast = GAME.fast(rules, GAME.seat_policies(policy, players), players, 41, 0, games)
    changes = column(fast, players, "lead_changes")
    half = column(fast, players, "half_time_leader")
    rounds = column(fast, players, "rounds")
    scores = fast[:, [GAME.column_names(players).index(f"score_{s}") for s in range(players)]]
    assert np.array_equal(changes, np.round(changes)) and np.array_equal(half, np.round(half))
    assert ((half >= -1) & (half <= players - 1)).all()
    assert ((changes >= 0) & (changes <= rounds - 1)).all()
    assert ((rounds >= 1) & (rounds <= rules.max_rounds)).all()
    short = rounds < 2
    assert (half[short] == -1).all() and (changes[short] == 0).all()
    # the final standing is the final score: a sole top score is the last round's leader,
    # so a game without a lead change was led, whenever a seat led, by that seat
    top = scores.max(axis=1)
    sole = (scores == top[:, None]).sum(axis=1) == 1
    final_leader = np.argmax(scores, axis=1)
    steady = sole & (changes == 0)
    assert ((half[steady] == -1) | (half[steady] == final_leader[steady])).all()
    # ... and a half-time leader who is not the sole final leader saw the lead change
    turned = sole & (half >= 0) & (half != final_leader)
    assert (changes[turned] >= 1).all()
    # not degenerate: both cases arise, and every seat leads at half time in some game
    assert steady.any() and turned.any()
    assert set(np.unique(half).astype(int)) >= set(range(players))


# ---------------------------------------------------------------- (c) recomputed from standings


def recount(standings: list) -> tuple[int, int]:
    """The two columns from per-round standings, written apart from ``reference.lead_story``:
    the lead changes are the changes between consecutive seats in the list of sole leaders."""
    leaders = [st.index(max(st)) if st.count(max(st)) == 1 else -1 for st in standings]
    seats = [seat for seat in leaders if seat != -1]
    changes = sum(1 for a, b in pairwise(seats) if a != b)
    return changes, (leaders[len(leaders) // 2 - 1] if len(leaders) >= 2 else -1)


HEADER = re.compile(r"^Round (\d+): VP (.*?); coins")
VP = re.compile(r"\b([A-D]) (\d+)\b")


def narrated_standings(log: list) -> dict:
    """Round r -> the VP of every seat in the header of round r + 1 (the standing after r)."""
    out = {}
    for line in log:
        m = HEADER.match(line)
        if m and int(m.group(1)) > 1:
            out[int(m.group(1)) - 1] = [int(v) for _, v in VP.findall(m.group(2))]
    return out


@pytest.mark.parametrize("rules, policy, players, games", [
    (Rules(), "random", 2, 100), (Rules(), "random", 3, 100), (Rules(), "random", 4, 100),
    (Rules(), "greedy", 3, 15), (Rules(), "greedy,random,random,greedy", 4, 15),
    (Rules.from_overrides(preset="short"), "random", 3, 100),
    (Rules(tie_rounding="exact_fraction"), "random", 4, 60),
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
        assert t.standings[-1] == t.vp  # the last standing: the final VP
        assert [float(v) for v in t.standings[-1]] == [
            fast[game, names.index(f"score_{s}")] for s in range(players)]
        got = (fast[game, names.index("lead_changes")],
               fast[game, names.index("half_time_leader")])
        assert recount(t.standings) == got, f"game {game}: standings {t.standings}"


@pytest.mark.parametrize("game", range(4))
def test_standings_are_the_vp_the_narration_shows_between_rounds(game):
    rules, policies = Rules(), GAME.seat_policies("random", 3)
    log, record = GAME.narrate(rules, policies, 3, 3, game)
    t = play_table(GAME, rules, policies, 3, 3, game)
    shown = narrated_standings(log)
    # every round but the last is followed by a header showing the VP it left
    assert sorted(shown) == list(range(1, t.round))
    for r, vp in shown.items():
        assert t.standings[r - 1] == vp, f"round {r}"
    outcome = record["outcome"]
    assert (outcome["lead_changes"], outcome["half_time_leader"]) == recount(t.standings)
