"""Who leads after each round, for the game-feel columns every multi-player game records.

The readable reference paths call :func:`leader` and :func:`lead_story` on each round's
standings (each seat's running score at the round's end; the game's end is its last round).
Each fast path finds the round's leader from its own state and keeps the leaders in an array;
:func:`lead_story_at` is the one fast twin of :func:`lead_story` over that array, and the
equivalence tests hold the two paths to the same answers game for game.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines._jit import njit


def leader(standing: Sequence) -> int:
    """The one seat with the strictly highest standing; -1 when two or more share the top."""
    best = max(standing)
    top = [seat for seat, v in enumerate(standing) if v == best]
    return top[0] if len(top) == 1 else -1


def lead_story(standings: Sequence[Sequence]) -> tuple[int, int]:
    """(lead_changes, half_time_leader) from the standings after rounds 1..R.

    A lead change is a round whose leader is a seat other than the last round's leader that
    was a seat (rounds with a shared top are skipped): A, tie, B is one change. The half-time
    leader is the leader after round R // 2 (-1 when R < 2 or the top was shared then)."""
    leaders = [leader(standing) for standing in standings]
    changes, last = 0, -1
    for seat in leaders:
        if seat >= 0:
            if last >= 0 and seat != last:
                changes += 1
            last = seat
    half = leaders[len(leaders) // 2 - 1] if len(leaders) >= 2 else -1
    return changes, half


@njit(cache=True)
def lead_story_at(leaders, start, rounds):
    """:func:`lead_story` from the leaders of rounds 1..R already found, at
    ``leaders[start:start + rounds]`` (-1 where the top was shared)."""
    half = leaders[start + rounds // 2 - 1] if rounds >= 2 else -1
    changes = 0
    last = -1
    for r in range(rounds):
        seat = leaders[start + r]
        if seat >= 0:
            if last >= 0 and seat != last:
                changes += 1
            last = seat
    return changes, half
