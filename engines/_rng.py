"""The one random-number generator of rumsim, in two identical twins.

Every random draw of every engine comes from here. The generator is
xoshiro256** seeded by SplitMix64 from the triple (seed, game, stream) alone,
so game ``i`` of a run with seed ``s`` replays the same way whatever the chunk
size, thread count, backend or order of execution.

Streams separate independent sources of randomness inside one game:
``WORLD`` (shuffles, dice, chance events) and ``POLICY + seat`` (a seat's
random choices and look-ahead). Keeping the world apart means every policy
and every rule variant that does not change the deal sees the same deal for
the same (seed, game): common random numbers for free.

Two implementations yield the identical stream:

* the Numba functions (``rng_seed``, ``rng_next``, ``rng_below``,
  ``rng_shuffle``, ...) work on a ``uint64[4]`` state array and are called
  from the fast paths;
* :class:`Rng` is the pure-Python twin used by the reference paths.

Bounded integers use Lemire's multiply-and-reject method on the top 32 bits
(unbiased); shuffles are Fisher–Yates from the last position down.
"""

from __future__ import annotations

import numpy as np

from engines import _cache
from engines._jit import njit

_cache.install()  # before the first @njit of the engines: see engines/_cache.py

WORLD = 0
POLICY = 1  # seat k uses stream POLICY + k

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


# ---------------------------------------------------------------- pure Python


def _mix64(z: int) -> int:
    """SplitMix64's output function: a bijection that scrambles all 64 bits."""
    z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
    return z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK64


def stream_key(seed: int, game: int, stream: int) -> int:
    """The 64-bit SplitMix64 starting point of one (seed, game, stream)."""
    h = _mix64((seed + _GAMMA) & _MASK64)
    h = _mix64(((h ^ (game & _MASK64)) + _GAMMA) & _MASK64)
    h = _mix64(((h ^ (stream & _MASK64)) + _GAMMA) & _MASK64)
    return h


class Rng:
    """Pure-Python twin of the Numba generator (same stream, draw for draw)."""

    __slots__ = ("s", "draws")

    def __init__(self, seed: int, game: int, stream: int = WORLD):
        x = stream_key(seed, game, stream)
        s = []
        for _ in range(4):
            x = (x + _GAMMA) & _MASK64
            s.append(_mix64(x))
        self.s = s
        self.draws = 0  # how many 64-bit words were used; handy in tests

    def next_u64(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (_rotl((s1 * 5) & _MASK64, 7) * 9) & _MASK64
        t = (s1 << 17) & _MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = _rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        self.draws += 1
        return result

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), 1 <= n < 2**32 (Lemire, unbiased)."""
        m = (self.next_u64() >> 32) * n
        low = m & _MASK32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & _MASK32
        return m >> 32

    def dice(self, sides: int = 6) -> int:
        """One die roll, 1..sides."""
        return 1 + self.below(sides)

    def uniform(self) -> float:
        """Float in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / 9007199254740992.0)

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place: for i = n-1 .. 1 swap items[i] with items[below(i+1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


# ---------------------------------------------------------------- Numba twin

_U_GAMMA = np.uint64(_GAMMA)
_U_MIX1 = np.uint64(_MIX1)
_U_MIX2 = np.uint64(_MIX2)
_U_MASK32 = np.uint64(_MASK32)
_U32 = np.uint64(32)
_U2_32 = np.uint64(1 << 32)


@njit(cache=True, inline="always")
def _nb_mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _U_MIX1
    z = (z ^ (z >> np.uint64(27))) * _U_MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _nb_rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def rng_seed(state, seed, game, stream):
    """Seed ``state`` (uint64[4]) for one (seed, game, stream)."""
    h = _nb_mix64(np.uint64(seed) + _U_GAMMA)
    h = _nb_mix64((h ^ np.uint64(game)) + _U_GAMMA)
    h = _nb_mix64((h ^ np.uint64(stream)) + _U_GAMMA)
    for k in range(4):
        h = h + _U_GAMMA
        state[k] = _nb_mix64(h)


@njit(cache=True, inline="always")
def rng_next_words(s0, s1, s2, s3):
    """xoshiro256** on a state held in four words: (the next word, s0, s1, s2, s3).

    For hot loops that keep a stream's state in locals: a state left in an array
    goes through memory on every draw when the compiler cannot tell that array
    from the others written between draws.
    """
    result = _nb_rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _nb_rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, inline="always")
def rng_below_words(s0, s1, s2, s3, n):
    """:func:`rng_below` on a state held in four words: (the draw, s0, s1, s2, s3)."""
    un = np.uint64(n)
    x, s0, s1, s2, s3 = rng_next_words(s0, s1, s2, s3)
    m = (x >> _U32) * un
    low = m & _U_MASK32
    if low < un:
        threshold = (_U2_32 - un) % un
        while low < threshold:
            x, s0, s1, s2, s3 = rng_next_words(s0, s1, s2, s3)
            m = (x >> _U32) * un
            low = m & _U_MASK32
    return np.int64(m >> _U32), s0, s1, s2, s3


@njit(cache=True, inline="always")
def rng_next(state):
    """Next 64-bit word of xoshiro256**."""
    result, s0, s1, s2, s3 = rng_next_words(state[0], state[1], state[2], state[3])
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(cache=True, inline="always")
def rng_below(state, n):
    """Uniform int64 in [0, n), 1 <= n < 2**32 (Lemire, unbiased)."""
    x, s0, s1, s2, s3 = rng_below_words(state[0], state[1], state[2], state[3], n)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return x


@njit(cache=True, inline="always")
def rng_dice(state, sides):
    """One die roll, 1..sides."""
    return 1 + rng_below(state, sides)


@njit(cache=True, inline="always")
def rng_uniform(state):
    """Float in [0, 1) with 53 random bits."""
    return np.float64(rng_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def rng_shuffle(state, arr, lo, n):
    """Fisher–Yates on ``arr[lo:lo+n]`` in place, same order of draws as :meth:`Rng.shuffle`."""
    for i in range(n - 1, 0, -1):
        j = rng_below(state, i + 1)
        tmp = arr[lo + i]
        arr[lo + i] = arr[lo + j]
        arr[lo + j] = tmp


def new_state() -> np.ndarray:
    """An unseeded state array for the Numba functions."""
    return np.zeros(4, dtype=np.uint64)
