"""Compile the engines ahead of play, one process per core: ``python -m simulate.compile``.

Numba compiles a game's fast path on its first call and keeps it in the on-disk cache
(``engines/_cache.py``), where every later process finds it. Run before a test session
(``make test``), this compiles each engine once, the engines in parallel, so two test
workers never compile the same engine at the same time and no test waits on a compile.
One line per engine on stderr says what is compiling and how long it took; an engine
already in the cache loads in about a second.

:class:`Ahead` does the same in the background for a command that plays several games in
turn (``rumsim report``): the engines compile in other processes, in the order the command
needs them, while it plays the games whose engines are ready.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context

from simulate.errors import Interrupted


def compile_engine(name: str) -> float:
    """Play one game of ``name`` on its fast path (compiling it unless cached); seconds."""
    from engines import get_game
    from simulate.warm import ready

    return ready(get_game(name), say=False)


def _quiet_worker() -> None:
    # A terminal's Ctrl-C reaches every process of the group: the command that owns the
    # workers decides what an interrupt stops (Ahead.close ends them), not each worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Ahead:
    """``names``' engines compiling (or loading) in ``jobs`` other processes, started in that
    order; :meth:`wait` before playing one; :meth:`close` when done (it ends any compile
    still running, e.g. after an interrupt: Numba writes a cache file whole or not at all)."""

    def __init__(self, names, jobs: int | None = None, say: bool = True):
        self.say = say
        # spawn: a fresh interpreter (a forked Numba process is not safe to compile in), one
        # per engine, so a compile's memory is returned when it ends
        self.pool = get_context("spawn").Pool(max(1, jobs or os.cpu_count() or 1),
                                              initializer=_quiet_worker, maxtasksperchild=1)
        self.jobs = {name: self.pool.apply_async(compile_engine, (name,)) for name in names}

    def wait(self, name: str, stop=None) -> None:
        """Block until ``name``'s engine is in the cache (at once if it already was). A
        compile that failed in its process is left to the run, which compiles it here.
        ``stop()`` true (a stop signal came): :class:`~simulate.errors.Interrupted` at once."""
        from engines import get_game
        from simulate.warm import SAY_AFTER, expected, tell

        job = self.jobs.pop(name, None)
        if job is None:
            return
        title = get_game(name).title
        waited = not job.ready()
        if waited and self.say:
            tell(f"waiting for the {title} engine, compiling in another process "
                 f"({expected(name)}) ...")
        while not job.ready():
            job.wait(0.25)
            if stop is not None and stop():
                raise Interrupted(f"stopped while the {title} engine compiled")
        try:
            seconds = job.get()
        except Exception:  # noqa: BLE001 (the run compiles it itself and reports any error)
            return
        if self.say and seconds > SAY_AFTER:
            tell(f"  the {title} engine compiled in {seconds:.0f} s in another process "
                 + ("(now ready)" if waited else "while this one played"))

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def main(argv: list[str] | None = None) -> int:
    from engines import GAMES, get_game
    from simulate.warm import COLD_SECONDS

    parser = argparse.ArgumentParser(prog="python -m simulate.compile", description=__doc__)
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"engines to compile (default: all of {', '.join(GAMES)})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes at once (default: one per core)")
    args = parser.parse_args(argv)
    args.games = args.games or list(GAMES)
    # longest first: with one process per core the last one to start should be a short one
    args.games.sort(key=lambda g: -COLD_SECONDS.get(g, 0))
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
