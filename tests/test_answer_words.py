"""The answer block's words (reports.answer): verdicts worded alike on every page, never two
that read as a contradiction, and the command and time that would decide what is not decided."""

import numpy as np

from analyses import convergence
from analyses.deals import DealDifferences
from reports import answer


class _Lead:
    def __init__(self, converged):
        self.converged = converged


def _verdict(changes, stronger):
    diffs = [DealDifferences(0.0).add(changes[:, s]) for s in range(changes.shape[1])]
    return convergence.verdict_every(diffs, [f"seat {s}" for s in range(changes.shape[1])],
                                     "top", "below", stronger=stronger)


def test_each_convergence_state_reads_as_its_own_answer():
    n = 4000
    same = np.zeros((n, 3))
    moved = same.copy()
    moved[: n // 10, 1], moved[: n // 10, 2] = 1.0, -1.0
    texts = {
        "converged": answer._settled(_Lead(_verdict(same, True)), "top", "below"),
        "not converged": answer._settled(_Lead(_verdict(moved, True)), "top", "below"),
        "equal players": answer._settled(_Lead(_verdict(same, False)), "top", "below"),
    }
    assert texts["converged"].startswith("Yes:") and "shown stronger" in texts["converged"]
    assert texts["not converged"].startswith("No:") and ("seat 1" in texts["not converged"]
                                                       or "seat 2" in texts["not converged"])
    assert texts["equal players"].startswith("Not decided yet")
    assert "says nothing about stronger play" in texts["equal players"]
    # the seat verdict's words and convergence's never share a word that reverses the other
    for word in answer.SEAT_WORDS.values():
        assert word.split(":")[0] in ("Yes", "No", "Not decided yet")


def test_the_command_that_decides_has_its_deals_and_a_time_in_words():
    cmd = "rumsim ladder motines --players 4 -n 16000 --seed 1 --preset standard"
    assert answer._with_deals(cmd, 40000).split()[6] == "40000"
    assert answer._duration(30) == "about 30 seconds"
    assert answer._duration(40 * 60) == "about 40 minutes"
    assert answer._duration(3 * 3600) == "about 3.0 hours"


class _Ladder:
    def __init__(self, rungs, steps):
        self.rungs, self.steps = rungs, steps


def test_where_search_moves_the_experts_answer_the_page_says_so():
    n = 4000
    moved = np.zeros((n, 4))
    moved[: n // 16, 1], moved[: n // 16, 0] = 1.0, -1.0   # a follower gains 6 pp
    same = np.zeros((n, 4))
    rungs = ("random", "greedy", "expert", "search", "search2")
    parted = [None, None, _verdict(moved, None), _verdict(same, None)]
    text = answer._artefact(_Ladder(rungs, parted), {r: r for r in rungs})
    assert "artefact of its fixed play" in text and ("seat 1" in text or "seat 0" in text)
    agreed = [None, None, _verdict(same, None), _verdict(same, None)]
    assert answer._artefact(_Ladder(rungs, agreed), {r: r for r in rungs}) == ""
