"""Rum & Pirates' printed components as tables, and the board assembler (spec §2, §3).

The board is nine square tiles laid 3x3, each possibly turned. The spec
gives, per tile, its four corners (action squares), the roads between them
and the eight ports on its edges (§3.3-3.5); :func:`assemble` joins a layout
into the 64 roads and 24 dark half-roads of a board (§3.6), in exactly the
order the spec appends them, because road and dark ids are the option order
of every move decision (§8.2). :func:`generate_layout` draws a random layout
(§3.7, with the RNG order of §4). Both engine paths use these tables; the
fast path gets them flattened by :func:`board_table`.
"""

from __future__ import annotations

import numpy as np

from engines._rules import slots

# ---------------------------------------------------------------- corner actions (§2.3)

COIN, HQ, PIRATE, SUPPLIES, RENDEZVOUS, MAP, PUB, CHEST, RUM, GUARD = range(10)
ACTION_CODES = ("COIN", "HQ", "PIRATE", "SUPPLIES", "RENDEZVOUS", "MAP", "PUB", "CHEST", "RUM",
                "GUARD")
ACTION_NAMES = ("coin", "headquarters", "pirate", "pirate supplies", "rendezvous",
                "treasure map", "pub", "treasure chest", "rum", "guard")

# Colours of MAP and PUB corners and tiles (NONE for every other corner).
NONE, RED, BLUE, GREEN, YELLOW = -1, 0, 1, 2, 3
COLOUR_CODES = ("red", "blue", "green", "yellow")
PUB_COLOURS = (RED, BLUE, GREEN)     # pub tiles, in stack order (§4 conventions)
MAP_COLOURS = (RED, GREEN, YELLOW)   # map tiles, in stack order


def colour_name(colour: int) -> str:
    return "none" if colour == NONE else COLOUR_CODES[colour]


# ---------------------------------------------------------------- the corner table (§3.3)

N_CORNERS = 36
N_TILES = 9
HQ_CORNER = 2  # tile 1, corner c: the Captain's start
LOCAL = "abcd"

# corner id -> (action, colour); id = 4 * (tile - 1) + local index
CORNERS = (
    (PIRATE, NONE), (COIN, NONE), (HQ, NONE), (RUM, NONE),                  # tile 1
    (MAP, RED), (RUM, NONE), (RENDEZVOUS, NONE), (COIN, NONE),              # tile 2
    (COIN, NONE), (SUPPLIES, NONE), (GUARD, NONE), (RENDEZVOUS, NONE),      # tile 3
    (RENDEZVOUS, NONE), (SUPPLIES, NONE), (COIN, NONE), (MAP, RED),         # tile 4
    (MAP, GREEN), (PUB, BLUE), (COIN, NONE), (PIRATE, NONE),                # tile 5
    (RUM, NONE), (MAP, YELLOW), (COIN, NONE), (GUARD, NONE),                # tile 6
    (MAP, GREEN), (GUARD, NONE), (COIN, NONE), (CHEST, NONE),               # tile 7
    (PIRATE, NONE), (CHEST, NONE), (PUB, GREEN), (COIN, NONE),              # tile 8
    (MAP, YELLOW), (COIN, NONE), (PUB, RED), (SUPPLIES, NONE),              # tile 9
)
CORNER_ACTION = tuple(a for a, _ in CORNERS)
CORNER_COLOUR = tuple(c for _, c in CORNERS)
CORNER_TILE = tuple(1 + cid // 4 for cid in range(N_CORNERS))
# the tile's numbered coin corner (index 0 unused), used by the dead-end relocation (§5.4)
COIN_CORNER_OF_TILE = (-1, 1, 7, 8, 14, 18, 22, 26, 31, 33)


def cid(tile: int, local: str) -> int:
    """Global corner id of corner ``local`` ('a'..'d') of tile ``tile`` (1..9)."""
    return 4 * (tile - 1) + LOCAL.index(local)


def corner_name(corner: int) -> str:
    """'17 (blue pub, tile 5)' for narrations."""
    action, colour = CORNERS[corner]
    what = ACTION_NAMES[action] if colour == NONE else f"{COLOUR_CODES[colour]} "\
        f"{ACTION_NAMES[action]}"
    return f"{corner} ({what}, tile {CORNER_TILE[corner]})"


# ---------------------------------------------------------------- roads inside a tile (§3.4)

# (tile, from, to, spaces), in the spec's order: the order roads are appended
INTERNAL_ROADS = (
    (1, "a", "b", 2), (1, "a", "c", 3), (1, "b", "c", 1), (1, "b", "d", 2), (1, "c", "d", 2),
    (2, "a", "b", 2), (2, "a", "d", 3), (2, "b", "c", 2), (2, "b", "d", 3), (2, "c", "d", 2),
    (3, "a", "b", 3), (3, "a", "c", 3), (3, "a", "d", 3), (3, "b", "c", 2), (3, "c", "d", 2),
    (4, "a", "b", 2), (4, "a", "c", 2), (4, "b", "d", 2), (4, "c", "d", 2),
    (5, "a", "b", 1), (5, "b", "c", 2), (5, "b", "d", 2),
    (6, "a", "b", 2), (6, "a", "c", 2), (6, "b", "d", 2), (6, "c", "d", 2),
    (7, "a", "b", 1), (7, "a", "c", 3), (7, "a", "d", 3), (7, "b", "d", 2), (7, "c", "d", 1),
    (8, "a", "b", 2), (8, "a", "c", 2), (8, "b", "c", 3), (8, "b", "d", 1),
    (9, "a", "b", 2), (9, "a", "c", 2), (9, "a", "d", 3), (9, "b", "d", 2), (9, "c", "d", 2),
)

# ---------------------------------------------------------------- ports (§3.5)

# tile -> the eight ports P0..P7 clockwise from the top-left, each "corner:spaces"
PORTS = {
    1: "b:1 a:0 a:1 c:2 c:2 d:1 d:0 b:1",
    2: "a:1 b:1 b:2 c:0 c:1 d:0 d:1 a:0",
    3: "a:0 b:1 b:0 c:1 c:1 d:1 d:0 a:1",
    4: "a:1 b:2 b:1 d:0 d:1 c:1 c:1 a:0",
    5: "b:2 a:1 a:0 d:0 d:1 c:1 c:1 b:2",
    6: "a:1 a:2 b:1 d:2 d:1 c:1 c:0 a:1",
    7: "b:1 a:1 a:2 c:1 c:1 d:1 d:2 b:1",
    8: "b:2 a:1 c:1 c:1 c:2 d:0 d:0 b:2",
    9: "a:0 b:0 b:1 d:1 d:1 c:1 c:0 a:1",
}


def port(tile: int, k: int) -> tuple[int, int]:
    """(global corner id, spaces) that port P``k`` of ``tile`` leads to."""
    local, spaces = PORTS[tile].split()[k].split(":")
    return cid(tile, local), int(spaces)


# ---------------------------------------------------------------- tile sets (§2.2)

# Every stack is built in this order, then shuffled (spec §4 conventions).
PUB_VALUES = (2, 2, 3, 3, 3, 3, 4, 4, 4, 5)          # per colour
MAP_VALUES = (3, 3, 4, 4, 4, 5, 5, 5, 6, 6)          # per colour
CHEST_VALUES = (4, 4, 4, 5, 5, 5, 5, 5, 5, 6, 6, 6)
SCORPION_THRESHOLDS = tuple(range(10, 22))           # 10..21
BIG_GUARDS = (4, 4, 4, 5, 5, 5, 6, 6, 6)             # guard counts, no coin
SMALL_GUARDS = (1, 1, 1, 2, 2, 2, 3, 3, 3)           # coin symbol on the 1s and 2s
SUPPLY_KINDS = ("eye patch", "hat", "hook", "parrot", "peg leg")
SUPPLY_VALUES = (2, 3, 4, 5)                         # per kind
BUNKS = (6, 6, 7, 7, 8)
HAMMOCKS = (3, 3, 4, 4, 5)
BEDROLLS = (1, 1, 1, 2, 2)

# Rendezvous targets (§6.5): the corner kind (and colour) each matches, and its VP.
RDV_RED_MAP, RDV_GREEN_MAP, RDV_YELLOW_MAP, RDV_CHEST, RDV_RUM, RDV_GUARD, RDV_PUB, \
    RDV_PIRATE, RDV_SUPPLIES = range(9)
RDV_TARGETS = (  # (name, action, colour or NONE for any, VP)
    ("red map", MAP, RED, 6),
    ("green map", MAP, GREEN, 6),
    ("yellow map", MAP, YELLOW, 6),
    ("treasure chest", CHEST, NONE, 6),
    ("rum barrels", RUM, NONE, 4),
    ("guard", GUARD, NONE, 4),
    ("pub", PUB, NONE, 4),
    ("pirate", PIRATE, NONE, 4),
    ("pirate supplies", SUPPLIES, NONE, 4),
)
RDV_COPIES = 2
RDV_MEAN_VALUE = sum(t[3] for t in RDV_TARGETS) / len(RDV_TARGETS)  # 4.89 (§8.4)


def rdv_matches(target: int, corner: int) -> bool:
    """Does rendezvous ``target`` match ``corner`` (the corner's kind, and colour for maps)?"""
    _, action, colour, _ = RDV_TARGETS[target]
    return CORNER_ACTION[corner] == action and (colour == NONE or CORNER_COLOUR[corner] == colour)


# The eleven stacks, shuffled in this order at set-up (§4 step 2). Tiles are int codes:
STACKS = ("pubs", "maps", "chests", "scorpions", "big_guards", "small_guards", "supplies",
          "rendezvous", "bunks", "hammocks", "bedrolls")


def pub_code(colour_index: int, value: int) -> int:
    """A pub tile: 10 * colour + value (colour RED/BLUE/GREEN = 0/1/2)."""
    return 10 * colour_index + value


def map_code(colour: int, value: int) -> int:
    """A map tile: 10 * colour + value (colour RED/GREEN/YELLOW = 0/2/3)."""
    return 10 * colour + value


def supply_code(kind: int, value: int) -> int:
    """A pirate-supplies tile: 10 * kind + value."""
    return 10 * kind + value


def tile_colour(code: int) -> int:
    return code // 10


def tile_value(code: int) -> int:
    return code % 10


def small_guard_coin(count: int) -> bool:
    """The coin symbol: on every small guard of count 1 or 2."""
    return count <= 2


def initial_stacks() -> dict[str, list[int]]:
    """Each stack as the ordered list the shuffle starts from (§4 conventions); the top is
    the last element. Pubs and maps are coded ``10 * colour + value``, supplies
    ``10 * kind + value``, rendezvous by target, guards by count, chests by value, scorpions
    by threshold, sleeping tiles by value."""
    return {
        "pubs": [pub_code(c, v) for c in PUB_COLOURS for v in PUB_VALUES],
        "maps": [map_code(c, v) for c in MAP_COLOURS for v in MAP_VALUES],
        "chests": list(CHEST_VALUES),
        "scorpions": list(SCORPION_THRESHOLDS),
        "big_guards": list(BIG_GUARDS),
        "small_guards": list(SMALL_GUARDS),
        "supplies": [supply_code(k, v) for k in range(len(SUPPLY_KINDS)) for v in SUPPLY_VALUES],
        "rendezvous": [t for t in range(len(RDV_TARGETS)) for _ in range(RDV_COPIES)],
        "bunks": list(BUNKS),
        "hammocks": list(HAMMOCKS),
        "bedrolls": list(BEDROLLS),
    }


SET_SIZES = {name: len(tiles) for name, tiles in initial_stacks().items()}
PUB_DISPLAY = 4
MAP_DISPLAY = 4
PIRATES_PER_PLAYER = 15
MAX_PLAYERS = 5

# ---------------------------------------------------------------- the board (§3.6, §3.7)

N_ROADS = 64
N_DARKS = 24
MAX_CORNER_ROADS = 5
MAX_CORNER_DARKS = 3

# Board positions 3 * row + col; the reference layout of §3.8 (tile 1 in the centre).
REFERENCE_LAYOUT = ((2, 0), (3, 0), (4, 0), (5, 0), (1, 0), (6, 0), (7, 0), (8, 0), (9, 0))


class Board:
    """An assembled board: roads (u, v, len) and dark halves (corner, len, pos, port) by id."""

    def __init__(self, layout):
        self.layout = tuple((int(t), int(r)) for t, r in layout)
        self.roads, self.darks = assemble(self.layout)
        self.corner_roads = [[] for _ in range(N_CORNERS)]
        self.corner_darks = [[] for _ in range(N_CORNERS)]
        for r, (u, v, _) in enumerate(self.roads):
            self.corner_roads[u].append(r)
            self.corner_roads[v].append(r)
        for d, (c, _, _, _) in enumerate(self.darks):
            self.corner_darks[c].append(d)

    def other_end(self, road: int, corner: int) -> int:
        u, v, _ = self.roads[road]
        return v if u == corner else u

    def road_name(self, road: int) -> str:
        u, v, n = self.roads[road]
        return f"road {min(u, v)}-{max(u, v)} ({n})"

    def dark_name(self, dark: int) -> str:
        c, n, pos, g = self.darks[dark]
        return f"{c}@{pos}.P{g}:{n}"


def assemble(layout) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int, int]]]:
    """Spec §3.6: a layout of 9 (tile, quarter-turns clockwise) by position -> the roads
    ``(u, v, len)`` and dark halves ``(corner, len, position, global port)``, in id order."""
    if sorted(t for t, _ in layout) != list(range(1, 10)):
        raise ValueError(f"a layout places each tile 1-9 once, not {layout}")
    ports = {}
    roads = []
    for pos, (t, rot) in enumerate(layout):
        for tile, a, b, s in INTERNAL_ROADS:
            if tile == t:
                roads.append((cid(t, a), cid(t, b), s))
        for k in range(8):
            ports[(pos, (k + 2 * rot) % 8)] = port(t, k)
    darks = []
    for pos in range(9):
        row, col = divmod(pos, 3)
        for g in range(8):
            c, s = ports[(pos, g)]
            if g in (2, 3) and col < 2:          # east side: joined to the right neighbour
                c2, s2 = ports[(pos + 1, 9 - g)]
                roads.append((c, c2, s + 1 + s2))
            elif g in (6, 7) and col > 0:        # west side: joined from the left neighbour
                pass
            elif g in (4, 5) and row < 2:        # south side: joined to the lower neighbour
                c2, s2 = ports[(pos + 3, 5 - g)]
                roads.append((c, c2, s + 1 + s2))
            elif g in (0, 1) and row > 0:        # north side: joined from the upper neighbour
                pass
            else:                                # on the rim
                darks.append((c, s + 1, pos, g))
    return roads, darks


def generate_layout(rng, hq_tile_position: str = "random", tile_rotation: str = "random"):
    """A random layout (spec §3.7) with the draws of §4 (1): a Fisher-Yates shuffle of the
    tiles (``[1..9]``, or ``[2..9]`` around tile 1 in the centre), then one rotation per
    position in position order (none drawn when tiles are not turned)."""
    if hq_tile_position == "center":
        others = list(range(2, 10))
        rng.shuffle(others)
        tiles = others[:4] + [1] + others[4:]
    else:
        tiles = list(range(1, 10))
        rng.shuffle(tiles)
    rots = [rng.below(4) if tile_rotation == "random" else 0 for _ in range(9)]
    return tuple(zip(tiles, rots, strict=True))


def board_table() -> np.ndarray:
    """The fixed tables the fast path reads, flattened (see :data:`TABLE`)."""
    parts = [np.array(CORNER_ACTION), np.array(CORNER_COLOUR), np.array(CORNER_TILE),
             np.array(COIN_CORNER_OF_TILE),
             np.array([[t, cid(t, a), cid(t, b), s] for t, a, b, s in INTERNAL_ROADS]).ravel(),
             np.array([[x for k in range(8) for x in port(t, k)] for t in range(1, 10)]).ravel()]
    return np.concatenate(parts).astype(np.int64)


# Offsets of each table inside board_table() (the fast path's data block).
TABLE = slots("board_table", [
    ("ACTION", N_CORNERS), ("COLOUR", N_CORNERS), ("TILE", N_CORNERS), ("COIN_CORNER", 10),
    ("ROADS", 4 * len(INTERNAL_ROADS)),   # rows (tile, u, v, spaces)
    ("PORTS", 9 * 8 * 2),                 # tile 1..9 x port 0..7 x (corner, spaces)
])
