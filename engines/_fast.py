"""The one fast-path driver: blocks of games in parallel, each block with its own buffers.

A game's ``engine.py`` supplies only what is its own, in a :class:`FastPath`
made by :func:`fast_path`:

* ``play_one(ints, floats, rng, g, f, pol, P, seed, game, cap, out) -> bool``,
  an ``@njit`` function that plays game ``game`` of ``seed`` and writes its
  outcome row to ``out[0 : n_columns]``;
* ``sizes(g, players, cap) -> (n_int, n_float)``, the int64 and float64 work
  buffers one game needs (Python, called once per call of the driver);
* optionally ``setup_block(ints, floats, g, f, pol, P, cap)``, run once per
  block before its games (to copy the rules into the state, say);
  ``data(rules, players) -> int64[...]``, the game's tables appended to the
  rules vector; and ``capacity(replay) -> int``, for a game whose buffers are
  sized for the common case: the ``cap`` of the first call (replay 0) and of
  each replay of the games that reported a full buffer.

Everything else lives here once: the checks of player count, policies and
player-dependent rules (from ``GameInfo``); the encoding of the inputs; the
output sized from the game's declared columns; splitting the games into
blocks over ``prange``; per-block buffers padded so that no two threads
write to one cache line, allocated once per block and never inside the game
loop; the seeding of every game's random streams; and the replay of games
that report a full buffer (``play_one`` returned False) with a larger ``cap``.

What ``play_one`` receives, all as typed pointers (``int64*``, ``float64*``,
``uint64*``, indexed like arrays; see :func:`ptr`):

* ``ints``/``floats``: the block's work buffers (``sizes``), reused game
  after game, so a game starts by setting what it reads;
* ``rng``: the game's generator states, seeded here: stream ``WORLD`` in
  words 0-3, seat ``p``'s stream ``POLICY + p`` in words ``4 + 4p`` (take one
  with ``offset(rng, 4 * (1 + p))``);
* ``g``: ``Rules.encode()`` at the indices ``R = Rules.slots()``, then the
  game's ``data``; ``f``: ``Rules.encode_float()`` (``F = Rules.float_slots()``);
  ``pol``: seat ``p``'s ``Policy.encode()`` at ``pol[p * POLICY_WIDTH : ...]``
  (``engines._game.POLICY_WIDTH``);
  all read-only and shared by every thread;
* ``P`` players, ``seed`` and ``game`` (uint64), ``cap`` (``capacity(replay)``,
  or 0 for a game without one), and ``out``, the game's row.

Why pointers: an array argument is seven machine words plus an atomic
reference-count update on every call between non-inlined functions, which
cost more than the games themselves; a pointer is one word and no counting.
The owning arrays stay alive in the driver until its block ends.

Why the driver is compiled once per game, in the game's own file: Numba
inlines ``play_one`` into the driver and caches the result next to the
source file that defines the function, invalidated when that file changes.
:func:`fast_path` therefore makes the driver from this module's template
with the game's ``engine.py`` as its file, so its cache lives and dies with
the engine it runs (a closure would not do: Numba keys a closure's cache by
its cells, and a dispatcher there carries a new id in every process).
"""

from __future__ import annotations

import sys
import types as pytypes
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import get_num_threads, prange, types
from numba.extending import intrinsic

from engines._jit import njit
from engines._rng import POLICY, WORLD, rng_seed

PAD = 512  # words (4 KiB) before and after each block's buffers: no shared cache line
MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------- the pointer mechanism


@intrinsic
def ptr(typingctx, arr):
    """The data pointer of a contiguous array, typed (int64*, uint64*, float64*)."""
    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data
    return types.CPointer(arr.dtype)(arr), codegen


@intrinsic
def offset(typingctx, p, n):
    """``p + n`` (elements): a pointer to element ``n`` of what ``p`` points to."""
    def codegen(context, builder, signature, args):
        return builder.gep(args[0], [args[1]])
    return p(p, n), codegen


@intrinsic
def as_words(typingctx, p):
    """An ``int64*`` seen as ``uint64*`` (the same memory): a generator state kept in a
    game's int buffer, e.g. a look-ahead's own world stream (both are i64* to LLVM)."""
    def codegen(context, builder, signature, args):
        return args[0]
    return types.CPointer(types.uint64)(p), codegen


@njit(cache=True)
def no_block_setup(ints, floats, g, f, pol, P, cap):
    """The default ``setup_block``: nothing to prepare."""


# ---------------------------------------------------------------- the driver (a template)


def _play_blocks(g, f, pol, P, seed, games, n_blocks, n_int, n_float, cap, out, ok):
    """Play game ``games[j]`` into ``out[j]`` for every j; ``ok[j]`` as ``play_one`` returned.

    A template: :func:`fast_path` compiles it once per game with that game's
    ``play_one`` and ``setup_block`` as globals.
    """
    n_games = games.shape[0]
    n_cols = out.shape[1]
    n_words = 4 * (1 + P)
    for b in prange(n_blocks):
        lo = b * n_games // n_blocks
        hi = (b + 1) * n_games // n_blocks
        # the block's buffers, allocated once for all its games
        int_own = np.zeros(n_int + 2 * PAD, dtype=np.int64)
        float_own = np.zeros(n_float + 2 * PAD, dtype=np.float64)
        rng_own = np.zeros(n_words + 2 * PAD, dtype=np.uint64)
        ints = offset(ptr(int_own), PAD)
        floats = offset(ptr(float_own), PAD)
        rng = offset(ptr(rng_own), PAD)
        gp = ptr(g)
        fp = ptr(f)
        pp = ptr(pol)
        rows = ptr(out)
        setup_block(ints, floats, gp, fp, pp, P, cap)  # noqa: F821 (bound by fast_path)
        for j in range(lo, hi):
            game = np.uint64(games[j])
            rng_seed(rng, seed, game, WORLD)
            for p in range(P):
                rng_seed(offset(rng, 4 * (1 + p)), seed, game, POLICY + p)
            ok[j] = play_one(ints, floats, rng, gp, fp, pp, P, seed, game, cap,  # noqa: F821
                             offset(rows, j * n_cols))
        # the owners' last use: the pointers above are valid until here
        int_own[0] = 0
        float_own[0] = 0.0
        rng_own[0] = 0


@dataclass(frozen=True)
class FastPath:
    """A game's fast path: its compiled driver and the Python hooks that size and feed it."""

    blocks: Callable
    sizes: Callable[[np.ndarray, int, int], tuple[int, int]]
    data: Callable[..., np.ndarray] | None = None
    # None: a game never fills its buffers (play_one always returns True)
    capacity: Callable[[int], int] | None = None


def fast_path(module: str, play_one, sizes, setup_block=no_block_setup, data=None,
              capacity=None) -> FastPath:
    """The :class:`FastPath` of the engine module named ``module`` (pass ``__name__``).

    The driver is this module's template compiled with ``play_one`` and
    ``setup_block`` bound, as a function of the engine's own file (see the
    module docstring for why).
    """
    engine = sys.modules[module]
    name = "play_blocks"
    code = _play_blocks.__code__.replace(co_filename=engine.__file__, co_name=name,
                                         co_qualname=name)
    namespace = {**globals(), "play_one": play_one, "setup_block": setup_block,
                 "__name__": module}
    fn = pytypes.FunctionType(code, namespace, name)
    fn.__module__ = module
    fn.__doc__ = _play_blocks.__doc__
    return FastPath(njit(cache=True, parallel=True)(fn), sizes, data, capacity)


# ---------------------------------------------------------------- calling it


def play_many(info, rules, policies, players: int, seed: int, first_game: int,
              n_games: int) -> np.ndarray:
    """Games first_game .. first_game + n_games - 1 of ``seed`` as float64 outcome rows.

    Columns as ``info.columns(players)``; row j is game first_game + j and equals
    the reference path's row for it. Each game is seeded from (seed, game) alone,
    so the rows do not depend on how the games are split into calls or threads.
    """
    players = info.check_seats(rules, policies, players)
    n_games = int(n_games)
    out = np.empty((max(n_games, 0), len(info.columns(players))), dtype=np.float64)
    if n_games <= 0:
        return out
    fast: FastPath = info.module("engine").FAST
    g = rules.encode()
    if fast.data is not None:
        g = np.concatenate([g, fast.data(rules, players)]).astype(np.int64)
    f = rules.encode_float()
    # POLICY_WIDTH floats a seat, then for each seat the row of the policy its policy-valued
    # parameter names (a search's playout policy; zeros for none): seat s's at row P + s.
    resolved = [info.resolve(p) for p in policies]
    pol = np.concatenate([p.encode() for p in resolved] + [p.encode_base() for p in resolved])
    seed64 = np.uint64(int(seed) & MASK64)
    games = np.arange(int(first_game), int(first_game) + n_games, dtype=np.int64)
    ok = np.zeros(n_games, dtype=np.bool_)
    replay = 0
    _run(fast, g, f, pol, players, seed64, games, _cap(fast, replay), out, ok)
    rows = np.flatnonzero(~ok)
    # Rarely a game outgrows a buffer sized for the common case: replay just those, larger.
    while rows.size:
        if fast.capacity is None:
            raise RuntimeError(f"{info.name}: play_one returned False for game "
                               f"{int(games[rows[0]])}, but the game declares no capacity")
        replay += 1
        part = np.empty((rows.size, out.shape[1]), dtype=np.float64)
        part_ok = np.zeros(rows.size, dtype=np.bool_)
        _run(fast, g, f, pol, players, seed64, games[rows], _cap(fast, replay), part, part_ok)
        out[rows[part_ok]] = part[part_ok]
        rows = rows[~part_ok]
    return out


def _cap(fast: FastPath, replay: int) -> int:
    return 0 if fast.capacity is None else int(fast.capacity(replay))


def _run(fast: FastPath, g, f, pol, players, seed64, games, cap, out, ok) -> None:
    """One call of the compiled driver (``out`` and ``ok`` written in place)."""
    n_int, n_float = fast.sizes(g, players, cap)
    # Blocks only share out the work; each game's row depends on (seed, game) alone.
    n_blocks = min(int(games.size), 8 * get_num_threads())
    fast.blocks(g, f, pol, np.int64(players), seed64, games, np.int64(n_blocks),
                np.int64(n_int), np.int64(n_float), np.int64(cap), out, ok)
