"""engines._jit.njit: a call from compiled code never specialises on a constant argument."""

import numpy as np

from engines._jit import PlainCallDispatcher, njit


@njit
def _add(a, n, flag):
    return a[0] + n + (1 if flag else 0)


@njit(cache=False)
def _caller(a, k):
    # constants 8 and 9, True and False, a variable: numba.njit compiles _add four times
    return _add(a, 8, True) + _add(a, 9, False) + _add(a, k, True) + _add(a, a[1], False)


def test_one_compile_serves_every_constant():
    a = np.arange(4, dtype=np.int64)
    assert _caller(a, 3) == _caller.py_func(a, 3) == 8 + 1 + 9 + 3 + 1 + 1
    assert len(_add.signatures) == 1
    assert [str(t) for t in _add.signatures[0][1:]] == ["int64", "bool"]


def test_numba_alone_would_compile_once_per_constant():
    # the reason for engines._jit: if this starts failing, Numba stopped specialising on
    # literals and the wrapper can go
    import numba

    add = numba.njit(_add.py_func)
    a = np.arange(4, dtype=np.int64)

    @numba.njit
    def call_plain(a, k):
        return add(a, 8, True) + add(a, 9, False) + add(a, k, True)

    call_plain(a, 3)
    assert len(add.signatures) == 3


def test_engine_functions_use_it():
    from engines._rng import rng_shuffle
    from engines.rum_rebellion import engine

    assert isinstance(rng_shuffle, PlainCallDispatcher)
    assert isinstance(engine.advance, PlainCallDispatcher)
