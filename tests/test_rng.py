"""The one RNG (engines/_rng.py): the pure-Python ``Rng`` and the Numba functions are twins,
and the draws they make are uniform.

Chi-square tests use fixed seeds (so they are deterministic, never flaky) and alpha = 1e-4.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from numba import njit
from scipy.stats import chisquare

from engines._rng import (
    POLICY,
    WORLD,
    Rng,
    new_state,
    rng_below,
    rng_below_words,
    rng_dice,
    rng_next,
    rng_seed,
    rng_shuffle,
    rng_uniform,
    stream_key,
)

ALPHA = 1e-4
MASK64 = (1 << 64) - 1


def _triples():
    fixed = [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0), (42, 7, WORLD), (42, 7, POLICY),
             (2**32 - 1, 2**32, 5), (2**63 - 1, 2**63 - 1, 2**63 - 1), (123456789, 10**12, 3)]
    gen = np.random.default_rng(20240601)
    randoms = [(int(gen.integers(0, 2**63 - 1)), int(gen.integers(0, 2**40)),
                int(gen.integers(0, 8))) for _ in range(40)]
    return fixed + randoms


TRIPLES = _triples()


def numba_state(seed, game, stream):
    state = new_state()
    rng_seed(state, seed, game, stream)
    return state


@pytest.mark.parametrize(("seed", "game", "stream"), TRIPLES)
def test_twins_give_identical_streams(seed, game, stream):
    py = Rng(seed, game, stream)
    state = numba_state(seed, game, stream)
    assert [int(x) for x in state] == py.s
    # raw 64-bit words
    words_nb = [int(rng_next(state)) for _ in range(1000)]
    words_py = [py.next_u64() for _ in range(1000)]
    assert words_nb == words_py
    assert py.draws == 1000
    # bounded integers, including n = 1, non-powers of two and n close to 2**32
    ns = [1, 2, 3, 5, 6, 7, 10, 16, 52, 53, 100, 1000, 2**31 - 1, 2**31, 2**31 + 1,
          3 * 2**30 + 1, 2**32 - 1]
    for k in range(1500):
        n = ns[k % len(ns)]
        a, b = int(rng_below(state, n)), py.below(n)
        assert a == b and 0 <= a < n
    # dice and floats
    for sides in (2, 6, 20) * 100:
        assert int(rng_dice(state, sides)) == py.dice(sides)
    for _ in range(300):
        u_nb, u_py = float(rng_uniform(state)), py.uniform()
        assert u_nb == u_py and 0.0 <= u_py < 1.0
    # shuffles of whole arrays and of a window inside a larger array
    for size in (0, 1, 2, 3, 4, 16, 52):
        arr = np.arange(size, dtype=np.int64)
        items = list(range(size))
        rng_shuffle(state, arr, 0, size)
        py.shuffle(items)
        assert arr.tolist() == items
    arr = np.arange(30, dtype=np.int64)
    items = list(range(5, 5 + 20))
    rng_shuffle(state, arr, 5, 20)
    py.shuffle(items)
    assert arr[5:25].tolist() == items
    assert arr[:5].tolist() == list(range(5)) and arr[25:].tolist() == list(range(25, 30))
    # still in step afterwards (the same number of words was used)
    assert int(rng_next(state)) == py.next_u64()


@njit(cache=True)
def _below_words_run(state, ns, out):
    """Draws ``below(ns[k])`` with the state in four locals, as the hot loops do."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for k in range(ns.size):
        out[k], s0, s1, s2, s3 = rng_below_words(s0, s1, s2, s3, ns[k])
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@pytest.mark.parametrize(("seed", "game", "stream"), TRIPLES[:12])
def test_state_in_words_gives_the_same_stream(seed, game, stream):
    py = Rng(seed, game, stream)
    state = numba_state(seed, game, stream)
    ns = np.array([1, 2, 3, 6, 52, 2**31 + 1, 2**32 - 1] * 300, dtype=np.int64)
    out = np.empty(ns.size, dtype=np.int64)
    _below_words_run(state, ns, out)
    assert out.tolist() == [py.below(int(n)) for n in ns]
    assert [int(x) for x in state] == py.s  # in step afterwards


def test_twins_agree_on_the_full_64_bit_range_with_uint64_arguments():
    """Seeds beyond int64 (the CLI allows 0..2**63-1) still agree when passed as uint64."""
    for seed, game, stream in [(2**64 - 1, 2**63, 3), (2**63 + 5, 2**64 - 1, 2**64 - 1)]:
        state = new_state()
        rng_seed(state, np.uint64(seed), np.uint64(game), np.uint64(stream))
        py = Rng(seed, game, stream)
        assert [int(x) for x in state] == py.s
        assert [int(rng_next(state)) for _ in range(50)] == [py.next_u64() for _ in range(50)]


def test_known_first_words_are_stable():
    """The stream is part of the replay contract: it must not change silently."""
    py = Rng(0, 0, 0)
    first = [py.next_u64() for _ in range(3)]
    again = Rng(0, 0, 0)
    assert first == [again.next_u64() for _ in range(3)]
    assert stream_key(0, 0, 0) == stream_key(0, 0, 0) != stream_key(0, 0, 1)
    assert all(0 <= w <= MASK64 for w in first) and len(set(first)) == 3


# ---------------------------------------------------------------- uniformity


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 10, 13, 16, 52, 100, 1000])
def test_below_is_uniform_small_n(n):
    draws_per_bin = 1000
    state = numba_state(7, n, 0)
    py = Rng(7, n, 0)
    counts = np.zeros(n, dtype=np.int64)
    total = draws_per_bin * n
    values = [py.below(n) for _ in range(total)]
    for v in values:
        counts[v] += 1
    assert counts.sum() == total
    assert chisquare(counts).pvalue > ALPHA
    # the Numba twin draws the very same values
    assert [int(rng_below(state, n)) for _ in range(200)] == values[:200]


def _exact_bin_sizes(n: int, bins: int) -> np.ndarray:
    """How many integers of [0, n) fall in each bin v * bins // n."""
    edges = [-(-(b * n) // bins) for b in range(bins + 1)]  # ceil(b * n / bins)
    return np.diff(np.array(edges, dtype=np.float64))


def test_below_is_uniform_large_n_binned():
    """n = 3 * 2**30 + 1: rejection matters (about a quarter of the words are rejected)."""
    n = 3 * 2**30 + 1
    bins = 64
    py = Rng(11, 0, 0)
    total = 192_000
    values = np.array([py.below(n) for _ in range(total)], dtype=np.int64)
    assert values.min() >= 0 and values.max() < n
    assert py.draws > total * 1.2             # the rejections happened (expected ~1.33 words)
    counts = np.bincount(values * bins // n, minlength=bins)
    expected = _exact_bin_sizes(n, bins) / n * total
    assert chisquare(counts, expected).pvalue > ALPHA
    # finer structure: without rejection the values would favour one residue mod 3 (each value
    # has one or two 32-bit pre-images, in a pattern of period ~3). Bin by (coarse bin, v mod 3).
    coarse = 8
    keys = (values * coarse // n) * 3 + values % 3
    counts = np.bincount(keys, minlength=coarse * 3)
    expected = np.zeros(coarse * 3)
    for b in range(coarse):
        lo = -(-(b * n) // coarse)
        hi = -(-((b + 1) * n) // coarse)
        for r in range(3):
            first = lo + ((r - lo) % 3)
            expected[b * 3 + r] = 0 if first >= hi else (hi - 1 - first) // 3 + 1
    expected = expected / n * total
    assert chisquare(counts, expected).pvalue > ALPHA


def test_residue_check_would_catch_a_biased_generator():
    """The mod-3 test above has teeth: Lemire's method without rejection fails it."""
    n = 3 * 2**30 + 1
    py = Rng(11, 0, 0)
    total = 64_000
    values = np.array([((py.next_u64() >> 32) * n) >> 32 for _ in range(total)], dtype=np.int64)
    counts = np.bincount((values * 8 // n) * 3 + values % 3, minlength=24)
    assert chisquare(counts).pvalue < ALPHA


@pytest.mark.parametrize("size", [3, 4])
def test_shuffle_is_uniform_over_permutations(size):
    perms = {p: i for i, p in enumerate(itertools.permutations(range(size)))}
    k = math.factorial(size)
    per_perm = 1000
    counts = np.zeros(k, dtype=np.int64)
    py = Rng(5, size, 0)
    for _ in range(per_perm * k):
        items = list(range(size))
        py.shuffle(items)
        counts[perms[tuple(items)]] += 1
    assert chisquare(counts).pvalue > ALPHA
    assert counts.min() > 0


def test_numba_shuffle_is_uniform_over_the_24_permutations():
    perms = {p: i for i, p in enumerate(itertools.permutations(range(4)))}
    counts = np.zeros(24, dtype=np.int64)
    state = numba_state(6, 4, 0)
    arr = np.zeros(6, dtype=np.int64)
    for _ in range(24_000):
        arr[1:5] = np.arange(4)
        rng_shuffle(state, arr, 1, 4)
        counts[perms[tuple(arr[1:5].tolist())]] += 1
    assert chisquare(counts).pvalue > ALPHA


def test_dice_and_uniform_ranges():
    py = Rng(3, 3, 3)
    rolls = [py.dice(6) for _ in range(6000)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert chisquare(np.bincount(rolls, minlength=7)[1:]).pvalue > ALPHA
    floats = np.array([py.uniform() for _ in range(20_000)])
    assert floats.min() >= 0.0 and floats.max() < 1.0
    assert chisquare(np.histogram(floats, bins=20, range=(0, 1))[0]).pvalue > ALPHA
    assert py.dice() in range(1, 7)


# ---------------------------------------------------------------- independence of streams


def test_streams_for_different_seeds_games_and_streams_differ():
    firsts = {}
    for seed in range(6):
        for game in range(6):
            for stream in range(4):
                py = Rng(seed, game, stream)
                firsts[seed, game, stream] = tuple(py.next_u64() for _ in range(4))
    assert len(set(firsts.values())) == len(firsts)
    # and no two streams share a word among their first four
    words = [w for ws in firsts.values() for w in ws]
    assert len(set(words)) == len(words)
    assert Rng(1, 2, WORLD).s != Rng(1, 2, POLICY).s
    assert Rng(1, 2, 0).s != Rng(2, 1, 0).s          # the triple's order matters


def test_world_and_policy_streams_look_independent():
    """A crude correlation check between neighbouring streams and games."""
    pa, pb, pc = Rng(9, 0, WORLD), Rng(9, 0, POLICY), Rng(9, 1, WORLD)
    xa = np.array([pa.uniform() for _ in range(5000)])
    xb = np.array([pb.uniform() for _ in range(5000)])
    xc = np.array([pc.uniform() for _ in range(5000)])
    assert abs(np.corrcoef(xa, xb)[0, 1]) < 0.06
    assert abs(np.corrcoef(xa, xc)[0, 1]) < 0.06
