"""Montego Bay's printed components as tables (spec §2.3, §2.4): warehouse tiles and ships.

The contents of the eight warehouse tiles and the fifteen freight ships were
not found in any public source; the spec's [assumed] defaults are here as
data, and the rule options ``warehouse_tiles`` and ``ship_table`` replace
them. The tables are stored flat (the way the options hold them) and read
back as small named records.
"""

from __future__ import annotations

from typing import NamedTuple

# ---------------------------------------------------------------- warehouse tiles (§2.3)

# One tile is 6 integers: room A (good, broken, coin), room B (good, broken, coin).
TILE_FIELDS = 6
# Seed constraint: a room holds 0-4 good barrels or 0-2 broken barrels, and 0 or 1 coin.
MAX_GOOD, MAX_BROKEN, MAX_COIN = 4, 2, 1

DEFAULT_TILES = (
    4, 0, 0, 0, 2, 1,   # T1: 4g         | 2b + coin
    3, 0, 0, 0, 1, 0,   # T2: 3g         | 1b
    3, 0, 1, 1, 0, 0,   # T3: 3g + coin  | 1g
    2, 0, 0, 2, 0, 0,   # T4: 2g         | 2g
    2, 0, 0, 0, 0, 1,   # T5: 2g         | 0g + coin
    1, 0, 0, 3, 0, 0,   # T6: 1g         | 3g
    0, 1, 1, 4, 0, 0,   # T7: 1b + coin  | 4g
    2, 0, 1, 1, 0, 0,   # T8: 2g + coin  | 1g   (4 players only)
)
N_TILES = 8  # the first 7 are used with 2-3 players, all 8 with 4


class Room(NamedTuple):
    """What a room gives the figure resolved in front of it, every round."""

    good: int
    broken: int
    coin: int

    def __str__(self) -> str:
        parts = []
        if self.good or not (self.broken or self.coin):
            parts.append(f"{self.good}g")
        if self.broken:
            parts.append(f"{self.broken}b")
        if self.coin:
            parts.append("coin")
        return "+".join(parts)


class Tile(NamedTuple):
    name: str
    room_a: Room
    room_b: Room


def tiles_from(flat: tuple[int, ...]) -> list[Tile]:
    """The tiles of a flat ``warehouse_tiles`` table, named T1, T2, ..."""
    out = []
    for i in range(len(flat) // TILE_FIELDS):
        g1, b1, c1, g2, b2, c2 = flat[i * TILE_FIELDS:(i + 1) * TILE_FIELDS]
        out.append(Tile(f"T{i + 1}", Room(g1, b1, c1), Room(g2, b2, c2)))
    return out


def room_problem(room: Room) -> str | None:
    """Why a room breaks the seed's limits, or None."""
    if not 0 <= room.good <= MAX_GOOD:
        return f"good barrels {room.good} not in 0..{MAX_GOOD}"
    if not 0 <= room.broken <= MAX_BROKEN:
        return f"broken barrels {room.broken} not in 0..{MAX_BROKEN}"
    if not 0 <= room.coin <= MAX_COIN:
        return f"coins {room.coin} not in 0..{MAX_COIN}"
    if room.good and room.broken:
        return "a room holds good or broken barrels, not both"
    return None


# ---------------------------------------------------------------- ships (§2.4)

# One ship is 7 integers: capacity, 2-3-player side v1 v2 v3, 4-player side v1 v2 v3.
SHIP_FIELDS = 7
DEFAULT_CAPACITIES = (3, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 9)  # F01..F15


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def ship_row(capacity: int) -> tuple[int, ...]:
    """The spec's formulae behind the ship table: one ship's 7 numbers from its capacity."""
    return (capacity,
            capacity + 1, ceil_div(capacity, 2), capacity // 3,
            capacity + 2, ceil_div(capacity, 2) + 1, ceil_div(capacity, 3))


DEFAULT_SHIPS = tuple(x for cap in DEFAULT_CAPACITIES for x in ship_row(cap))
N_FREIGHT_SHIPS = len(DEFAULT_CAPACITIES)


class ShipCard(NamedTuple):
    """A printed freight ship: its hold and the VP for ranks 1-3 on each side."""

    name: str
    capacity: int
    values_23: tuple[int, int, int]  # 2-3-player side
    values_4: tuple[int, int, int]   # 4-player side

    def values(self, players: int) -> tuple[int, int, int]:
        return self.values_4 if players == 4 else self.values_23


def ships_from(flat: tuple[int, ...]) -> list[ShipCard]:
    """The freight ships of a flat ``ship_table``, named F01, F02, ..."""
    out = []
    for i in range(len(flat) // SHIP_FIELDS):
        row = flat[i * SHIP_FIELDS:(i + 1) * SHIP_FIELDS]
        out.append(ShipCard(f"F{i + 1:02d}", row[0], tuple(row[1:4]), tuple(row[4:7])))
    return out


PILOT_NAME = "pilot boat"
