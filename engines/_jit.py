"""The engines' ``njit``: Numba's, except that a call never specialises on a constant.

Called from compiled code, a Numba function is compiled once per distinct tuple of its
arguments' types, and a constant argument has a type of its own: ``shuffle(rng, s, POOL, 8)``
and ``shuffle(rng, s, DECK, 9)`` are typed ``Literal[int](8)`` and ``Literal[int](9)``, so
they are two whole compiles of ``shuffle`` and of everything it calls for the first time
(so are ``advance(..., True)`` and ``advance(..., False)``). Measured cold with
``rumsim bench --compile`` before this: 137 compiles of 90 functions in the Rum & Pirates
engine, and Rum Rebellion's ``advance`` compiled twice at about 110 s each.

No engine function branches on a constant argument at compile time, so here a call is typed
with its arguments' plain types (``int64``, ``bool``): one compile serves every constant,
and LLVM still folds a constant into a callee it inlines, so the machine code is as fast.
Everything else (options, caching, inlining) is Numba's ``njit`` unchanged.
"""

from __future__ import annotations

import copy as _copy
import threading as _threading

from numba import njit as numba_njit
from numba.core import inline_closurecall as _inline
from numba.core import ir as _ir
from numba.core import types
from numba.core.registry import CPUDispatcher


class PlainCallDispatcher(CPUDispatcher):
    """A CPU dispatcher whose calls from compiled code are typed without literal types."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


def njit(*args, **options):
    """``numba.njit`` (same arguments and uses: ``@njit``, ``@njit(cache=True, ...)``) making a
    :class:`PlainCallDispatcher`."""
    if args and callable(args[0]) and not options and len(args) == 1:
        return _plain(numba_njit(args[0]))
    decorate = numba_njit(*args, **options)
    return lambda func: _plain(decorate(func))


def _plain(disp):
    # The dispatcher is made by Numba's own decorator (its options, its cache) and then
    # given this class: the subclass adds one method and no state.
    disp.__class__ = PlainCallDispatcher
    return disp


# ---------------------------------------------------------------- Numba's inliner, made linear
#
# ``inline="always"`` inlines a callee's Numba IR into its caller, copying the callee's IR
# first (``InlineWorker.inline_ir``'s ``copy_ir``). It deep-copies each block on its own, and
# every block refers to the function's one scope, which holds every variable: so each block
# copies all the variables again, blocks x variables, and a large callee made of inlined
# steps is copied that way twice per inlining. Profiled cold (cProfile, Rum Rebellion's turn
# inlined into its game loop): 310 of 400 s in ``copy.deepcopy`` under ``copy_ir``. Here
# the blocks of one IR copied within one ``inline_ir`` call share one deep-copy memo, so the
# scope and its variables are copied once and the copied blocks share one scope, as the
# original blocks do. The copy is otherwise the same objects Numba would make; the engines'
# reference = fast suites check the games compiled this way.

_memos = _threading.local()


class _BlockCopy:
    """The ``copy`` module as ``numba.core.inline_closurecall`` sees it: ``deepcopy`` of a
    block inside ``inline_ir`` uses the memo of that block's scope."""

    def __getattr__(self, name):
        return getattr(_copy, name)

    @staticmethod
    def deepcopy(x, memo=None):
        shared = getattr(_memos, "by_scope", None)
        if memo is None and shared is not None and isinstance(x, _ir.Block):
            memo = shared.setdefault(id(x.scope), {})
        return _copy.deepcopy(x, memo)


def _sharing_memos(inline_ir):
    def wrapped(*args, **kwargs):
        outer = getattr(_memos, "by_scope", None)
        _memos.by_scope = {}  # the originals stay alive in each memo, so no id is reused
        try:
            return inline_ir(*args, **kwargs)
        finally:
            _memos.by_scope = outer
    wrapped._rumsim = True
    return wrapped


if not getattr(_inline.InlineWorker.inline_ir, "_rumsim", False):
    _inline.copy = _BlockCopy()
    _inline.InlineWorker.inline_ir = _sharing_memos(_inline.InlineWorker.inline_ir)
