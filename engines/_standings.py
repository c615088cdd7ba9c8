"""Who leads after each round, for the game-feel columns every multi-player game records.

The readable reference paths call these on each round's standings (each seat's running score
at the round's end; the game's end is its last round); each fast path has a low-level twin,
and the equivalence tests hold the two to the same answers game for game.
"""

from __future__ import annotations

from collections.abc import Sequence


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
