"""Where an engine's compile time goes, measured cold: ``rumsim bench --compile``.

A cold compile is measured in a fresh interpreter whose Numba cache is an empty folder
(``NUMBA_CACHE_DIR``), so nothing is loaded from an earlier compile and the project's own
cache is neither read nor written. Inside, Numba's event API (``numba.core.event``, the
``numba:compile`` events) times every function it compiles; a function's *own* time is its
compile minus the compiles of the functions it called for the first time, so the own
times add up to the whole. A function compiled for more than one signature (int32 against
int64 arguments, readonly against writable arrays) is listed with its count: each extra
signature is a whole second compile of that function.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

from simulate.errors import UserError


def profile(name: str) -> dict:
    """Compile ``name``'s engine in this process, recording Numba's compile events (the
    cache must be empty for a cold figure: see :func:`cold`)."""
    from engines import get_game
    from simulate.warm import play_one

    info = get_game(name)
    return {"game": info.name, "title": info.title, **compile_times(lambda: play_one(info))}


def compile_times(work) -> dict:
    """Call ``work()`` while recording Numba's compile events: the whole time, and per
    function its own compile time (nested first compiles of its callees taken out) and the
    signatures it was compiled for, the slowest first."""
    from numba.core import event

    start = time.perf_counter()
    with event.install_recorder("numba:compile") as rec:
        work()
    total = time.perf_counter() - start
    own: dict[str, float] = defaultdict(float)
    signatures: dict[str, int] = defaultdict(int)
    stack: list[list] = []  # [function, started, time spent in nested compiles]
    for t, ev in rec.buffer:
        func = ev.data["dispatcher"].py_func
        fn = f"{func.__module__}.{func.__qualname__}"
        if ev.is_start:
            stack.append([fn, t, 0.0])
            continue
        fn0, started, nested = stack.pop()
        took = t - started
        own[fn0] += took - nested
        signatures[fn0] += 1
        if stack:
            stack[-1][2] += took
    top = sorted(own.items(), key=lambda kv: -kv[1])
    return {"seconds": round(total, 2), "functions": len(own),
            "signatures": sum(signatures.values()),
            "own": [{"function": f, "seconds": round(s, 3), "signatures": signatures[f]}
                    for f, s in top]}


def cold(name: str) -> dict:
    """:func:`profile` in a fresh interpreter with an empty Numba cache."""
    with tempfile.TemporaryDirectory(prefix="rumsim-cold-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        started = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "simulate.compile_cost", name],
                             env=env, capture_output=True, text=True)
        wall = time.perf_counter() - started
    if out.returncode != 0:
        raise UserError(f"the cold compile of {name} failed: "
                        + (out.stderr.strip().splitlines() or ["(no message)"])[-1])
    record = json.loads(out.stdout)
    record["wall"] = round(wall, 2)  # with the interpreter's start and imports
    return record


if __name__ == "__main__":
    print(json.dumps(profile(sys.argv[1])))
