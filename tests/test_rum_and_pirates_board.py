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
from test_rum_and_pirates_rules import REF_DARKS, REF_ROADS  # spec §3.8, written once

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
    want = sorted(tuple(map(int, x.replace(":", "-").split("-"))) for x in REF_ROADS)
    assert got == want
    assert " ".join(f"{c}@{pos}.P{g}:{n}" for c, n, pos, g in darks) == " ".join(REF_DARKS)

