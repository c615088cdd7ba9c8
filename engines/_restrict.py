"""Restricted play: the one rule that narrows a seat's legal options to what it may choose.

A game declares the kinds of option its players choose (``GameInfo.choices``: 21 Motines'
Mutiny, Rum Runner's draw); a seat's restriction (``expert:forbid=mutiny``,
``expert:force=sell``) is two bit masks over them, read once from the seat's own encoded
row (``engines._game.FORBID_COLUMN``, ``FORCE_COLUMN``) into the game's state, so a search's
playouts keep every seat's restriction too. It is a house rule for that seat, whichever
policy plays it. At every decision, with the legal options' kinds (-1: an option of no
declared kind, such as "pass" or "do not sell"):

1. when some legal option is of a forced kind, the seat may choose only those;
2. otherwise it may choose every legal option not of a forbidden kind;
3. when that leaves nothing, every legal option (a restriction never stops the game: a seat
   whose only legal moves are forbidden makes one of them).

The policy then chooses among what is kept exactly as it would among legal options (a
random policy draws over the kept ones), and a decision left with one option is taken as
the game takes a decision with one legal option. Both paths call :func:`keeps`: the
reference as it is, the fast path compiled (:data:`keeps_fast`), so the rule is written once.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines._jit import njit


def keeps(kind, forbid, force, forced_any, allowed_any):
    """Whether an option of ``kind`` stays, given the masks and, over all legal options of
    the decision, whether any is of a forced kind (``forced_any``) and any is not of a
    forbidden kind (``allowed_any``)."""
    if forced_any:
        return kind >= 0 and (force >> kind) & 1 == 1
    if allowed_any:
        return kind < 0 or (forbid >> kind) & 1 == 0
    return True


def is_forced(kind, force):
    """Whether an option of ``kind`` is of a forced kind."""
    return kind >= 0 and (force >> kind) & 1 == 1


def is_allowed(kind, forbid):
    """Whether an option of ``kind`` is not of a forbidden kind."""
    return kind < 0 or (forbid >> kind) & 1 == 0


keeps_fast = njit(cache=True)(keeps)
is_forced_fast = njit(cache=True)(is_forced)
is_allowed_fast = njit(cache=True)(is_allowed)


def kept(options: Sequence, kinds: Sequence[int], forbid: int, force: int) -> list:
    """The options a seat with masks ``forbid``/``force`` may choose, in their order (the
    reference path's whole rule; ``kinds[i]`` is option i's choice bit, -1 for none)."""
    forced_any = any(is_forced(k, force) for k in kinds)
    allowed_any = any(is_allowed(k, forbid) for k in kinds)
    return [o for o, k in zip(options, kinds, strict=True)
            if keeps(k, forbid, force, forced_any, allowed_any)]


def kept_binary(kind: int, forbid: int, force: int) -> bool | None:
    """A yes/no decision whose "yes" is of ``kind`` and whose "no" is of none: True when the
    seat must say yes, False when it must say no, None when it chooses."""
    if is_forced(kind, force):
        return True
    if not is_allowed(kind, forbid):
        return False
    return None


@njit(cache=True)
def kept_binary_fast(kind, forbid, force):
    """:func:`kept_binary` for the fast path: 1 must say yes, 0 must say no, -1 chooses."""
    if is_forced_fast(kind, force):
        return 1
    if not is_allowed_fast(kind, forbid):
        return 0
    return -1
