"""Compile the engines ahead of play, one process per core: ``python -m simulate.compile``.

Numba compiles a game's fast path on its first call and keeps it in the on-disk cache
(``engines/_cache.py``), where every later process finds it. Run before a test session
(``make test``), this compiles each engine once, the engines in parallel, so two test
workers never compile the same engine at the same time and no test waits on a compile.
One line per engine on stderr says what is compiling and how long it took; an engine
already in the cache loads in about a second.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context


def compile_engine(name: str) -> float:
    """Play one game of ``name`` on its fast path (compiling it unless cached); seconds."""
    from engines import get_game
    from simulate.warm import ready

    return ready(get_game(name), say=False)


def main(argv: list[str] | None = None) -> int:
    from engines import GAMES, get_game

    parser = argparse.ArgumentParser(prog="python -m simulate.compile", description=__doc__)
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"engines to compile (default: all of {', '.join(GAMES)})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes at once (default: one per core)")
    args = parser.parse_args(argv)
    args.games = args.games or list(GAMES)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; games: {', '.join(GAMES)}")
    what = "engine" if len(args.games) == 1 else "engines"
    print(f"compiling {len(args.games)} {what} ({', '.join(args.games)}) once for this "
          f"machine, {args.jobs} at a time; a cached engine loads in about a second",
          file=sys.stderr, flush=True)
    start = time.perf_counter()
    # spawn: a fresh interpreter per engine (a forked Numba process is not safe to compile in)
    with ProcessPoolExecutor(max(1, args.jobs), mp_context=get_context("spawn")) as pool:
        jobs = {pool.submit(compile_engine, g): g for g in args.games}
        for job in as_completed(jobs):
            title = get_game(jobs[job]).title
            print(f"  {title} engine ready in {job.result():.0f} s (at "
                  f"{time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
