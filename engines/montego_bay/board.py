"""The board's geometry (spec §2.2, §7 ``path_end_spaces``, ``pub_entry``, ``resolution_order``).

The path is a clockwise loop. Index ``i`` (0 <= i < W) faces the north room
of warehouse ``i`` along the top row; after ``e`` end spaces at the right end
the bottom row runs right to left, so the space in front of the south room
of warehouse ``i`` is ``W + e + (W - 1 - i)``; then ``e`` end spaces at the
left end close the loop. With the default ``e = 0``: L = 2W and
``opposite(p) = 2W - 1 - p``. End spaces have no room and no opposite.

Locations of figures are path indices (>= 0) or one of the off-path places
below. All of this is data computed once per game; nothing branches on it
elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

# Off-path locations of a figure.
LEFT_PUB = -1       # the big workers' pub, by the Tally-Man
RIGHT_PUB = -2      # the small workers' pub
SUPPLY = -3         # Lazy Jack when not hired, or sent back when blocked
WITH_COMPANION = -4  # Lazy Jack blocked under lazy_jack_blocked=stay_with_companion_unresolved

NORTH, SOUTH = "N", "S"


@dataclass(frozen=True)
class Board:
    """Path spaces, the room each faces, pub entries and the Tally-Man's order."""

    warehouses: int                    # W
    end_spaces: int                    # e, at each end
    length: int                        # L = 2W + 2e
    room_at: tuple                     # per index: (warehouse slot, NORTH|SOUTH) or None
    opposite: tuple                    # per index: the space across the warehouse, or -1
    entry: dict                        # pub -> the index a value-1 card lands on
    resolution_order: tuple            # indices in the order rooms are resolved

    def north(self, slot: int) -> int:
        return slot

    def south(self, slot: int) -> int:
        return self.warehouses + self.end_spaces + (self.warehouses - 1 - slot)

    def name(self, q: int) -> str:
        """'5 (N5)', '11 (S2)', '7 (end)', 'the left pub', ..."""
        if q == LEFT_PUB:
            return "the left pub"
        if q == RIGHT_PUB:
            return "the right pub"
        if q == SUPPLY:
            return "the supply"
        if q == WITH_COMPANION:
            return "beside its companion"
        room = self.room_at[q]
        return f"{q} ({room[1]}{room[0]})" if room else f"{q} (end)"


def make_board(warehouses: int, end_spaces: int = 0, pub_entry: str = "standard",
               resolution_order: str = "tallyman_loop") -> Board:
    W, e = warehouses, end_spaces
    L = 2 * W + 2 * e
    room_at: list = [None] * L
    for slot in range(W):
        room_at[slot] = (slot, NORTH)
        room_at[W + e + (W - 1 - slot)] = (slot, SOUTH)
    opposite = [-1] * L
    for slot in range(W):
        n, s = slot, W + e + (W - 1 - slot)
        opposite[n], opposite[s] = s, n
    south_of_0 = W + e + (W - 1)
    entry = {
        # Left pub: in front of N0 (standard) or S0 (left_bottom); right pub: in front of S_{W-1}.
        LEFT_PUB: 0 if pub_entry == "standard" else south_of_0,
        RIGHT_PUB: W + e,
    }
    if resolution_order == "tallyman_loop":
        # Anticlockwise from the left end: the bottom row left -> right, then the top row back.
        order = tuple(q for q in range(L - 1, -1, -1) if room_at[q] is not None)
    else:  # warehouse_columns: for each warehouse left -> right, north then south
        order = tuple(q for slot in range(W) for q in (slot, W + e + (W - 1 - slot)))
    return Board(W, e, L, tuple(room_at), tuple(opposite), entry, order)
