"""Rum & Pirates: the fast path's layout generator and board assembler equal ``data.py``'s.

``engine.gen_layout`` and ``engine.assemble`` run inside every fast-path game
(the layout is the first thing drawn from the world stream), so they must
draw exactly what ``data.generate_layout`` draws and build exactly the roads,
dark halves (in id order: the option order of every move decision) and
per-corner lists that ``data.assemble`` / ``data.Board`` build, for every
``hq_tile_position`` and ``tile_rotation``.
"""

from __future__ import annotations

import numpy as np
import pytest

from engines._rng import WORLD, Rng, rng_next, rng_seed
from engines.rum_and_pirates import data, engine
from engines.rum_and_pirates.rules import R, Rules

SEEDS = 2500


def _state(rules: Rules) -> np.ndarray:
    s = np.zeros(engine.S_SIZE, dtype=np.int64)
    s[engine.S_RULES:engine.S_RULES + R.SIZE] = rules.encode()
    return s


def _board(s: np.ndarray):
    roads = [(int(s[engine.S_RU + r]), int(s[engine.S_RV + r]), int(s[engine.S_RL + r]))
             for r in range(data.N_ROADS)]
    darks = [(int(s[engine.S_DC + d]), int(s[engine.S_DL + d]), int(s[engine.S_DPOS + d]),
              int(s[engine.S_DG + d])) for d in range(data.N_DARKS)]
    corner_roads = [[int(s[engine.S_CR + 5 * c + i]) for i in range(s[engine.S_NCR + c])]
                    for c in range(data.N_CORNERS)]
    corner_darks = [[int(s[engine.S_CD + 3 * c + i]) for i in range(s[engine.S_NCD + c])]
                    for c in range(data.N_CORNERS)]
    return roads, darks, corner_roads, corner_darks


def _layout(s: np.ndarray):
    return tuple((int(s[engine.S_LAYOUT + 2 * i]), int(s[engine.S_LAYOUT + 2 * i + 1]))
                 for i in range(9))


@pytest.mark.parametrize("hq", ["random", "center"])
@pytest.mark.parametrize("rotation", ["random", "none"])
def test_generated_layouts_and_boards_equal_data(hq, rotation):
    rules = Rules(hq_tile_position=hq, tile_rotation=rotation)
    s = _state(rules)
    state = np.zeros(4, dtype=np.uint64)
    seen = set()
    for seed in range(SEEDS):
        world = Rng(seed, seed % 7, WORLD)
        want = data.generate_layout(world, hq, rotation)
        rng_seed(state, np.uint64(seed), np.uint64(seed % 7), np.uint64(WORLD))
        engine.gen_layout(s, state)
        assert _layout(s) == want, seed
        # the same number of draws: the streams continue alike
        assert int(rng_next(state)) == world.next_u64(), seed
        engine.assemble(s)
        board = data.Board(want)
        roads, darks, corner_roads, corner_darks = _board(s)
        assert roads == board.roads, seed
        assert darks == board.darks, seed
        assert corner_roads == board.corner_roads, seed
        assert corner_darks == board.corner_darks, seed
        if hq == "center":
            assert want[4][0] == 1
        if rotation == "none":
            assert all(r == 0 for _, r in want)
        seen.add(want)
    if rotation == "random":
        assert len(seen) == SEEDS  # a new board for every seed (9! 4^9 of them)


def test_reference_layout_and_fixed_layouts_assemble_like_data():
    for layout in (data.REFERENCE_LAYOUT,
                   ((9, 3), (8, 2), (7, 1), (6, 0), (5, 3), (4, 2), (3, 1), (2, 0), (1, 3))):
        rules = Rules(layout=tuple(x for pair in layout for x in pair))
        s = _state(rules)
        for i in range(18):
            s[engine.S_LAYOUT + i] = rules.layout[i]
        engine.assemble(s)
        board = data.Board(layout)
        roads, darks, corner_roads, corner_darks = _board(s)
        assert (roads, darks) == (board.roads, board.darks)
        assert (corner_roads, corner_darks) == (board.corner_roads, board.corner_darks)
    # spec 3.8: the reference layout's 64 roads and 24 halves, exactly
    s = _state(Rules())
    for i, (t, r) in enumerate(data.REFERENCE_LAYOUT):
        s[engine.S_LAYOUT + 2 * i], s[engine.S_LAYOUT + 2 * i + 1] = t, r
    engine.assemble(s)
    roads, darks, _, _ = _board(s)
    got = sorted((min(u, v), max(u, v), n) for u, v, n in roads)
    want = sorted(tuple(map(int, x.replace(":", "-").split("-"))) for x in SPEC_ROADS.split())
    assert got == want
    assert " ".join(f"{c}@{pos}.P{g}:{n}" for c, n, pos, g in darks) == " ".join(SPEC_DARKS.split())


SPEC_ROADS = """
0-1:2  0-2:3  0-10:2  0-20:3  1-2:1  1-3:2  1-11:3  1-16:2
2-3:2  2-22:3  2-28:4  3-19:1  3-29:4  4-5:2  4-7:3  5-6:2
5-7:3  5-8:4  6-7:2  6-11:1  6-16:3  7-17:3  8-9:3  8-10:3
8-11:3  9-10:2  9-12:1  10-11:2  10-14:3  12-13:2  12-14:2  13-15:2
14-15:2  14-20:3  15-20:4  16-17:1  17-18:2  17-19:2  18-25:3  19-24:3
20-21:2  20-22:2  21-23:2  22-23:2  22-32:2  23-33:2  24-25:1  24-26:3
24-27:3  24-29:5  25-27:2  26-27:1  26-31:2  28-29:2  28-30:2  29-30:3
29-31:1  30-32:3  30-34:2  32-33:2  32-34:2  32-35:3  33-35:2  34-35:2
"""
SPEC_DARKS = """
4@0.P0:2  5@0.P1:2  7@0.P6:2  4@0.P7:1  8@1.P0:1  9@1.P1:2
12@2.P0:2  13@2.P1:3  13@2.P2:2  15@2.P3:1  18@3.P6:2  17@3.P7:3
21@5.P2:2  23@5.P3:3  26@6.P4:2  27@6.P5:2  27@6.P6:3  25@6.P7:2
30@7.P4:3  31@7.P5:1  33@8.P2:2  35@8.P3:2  35@8.P4:2  34@8.P5:2
"""
