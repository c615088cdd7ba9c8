"""A game's engine made ready before a run plays it here, saying so while it compiles.

Numba compiles a game's fast path on its first call (a minute to three on a 2-core
machine) and keeps it in the on-disk cache, from which a later process loads it in about
a second. Without a word, a first run's progress bar stood at 0 for the whole compile and
then reported a rate that counted it. So each process plays one game of the engine before
its first run of that game (:func:`ready`): a line on stderr says it is compiling when that
takes longer than a cached load, ``--quiet`` keeps it quiet, and the run's clock starts
after it, so rates and times exclude compilation. The game played is not part of any run.
"""

from __future__ import annotations

import sys
import threading
import time

SAY_AFTER = 3.0  # seconds: a cached engine loads in about 0.6 s; a longer wait is a compile
# Each engine's cold compile, alone on this project's 2-core machine (``rumsim bench
# --compile``, 2026-12-03, after the compile cuts of DESIGN.md "What the first run costs"):
# what a first run is told to expect, and the order ``simulate.compile`` starts them in
# (longest first, so the last engine does not finish alone).
COLD_SECONDS = {"motines": 60, "rum-rebellion": 57, "rum-and-pirates": 45, "montego-bay": 40,
                "rum-runner": 28}
TICK = 20.0      # seconds between "still compiling" lines
_READY: set[str] = set()  # the engines this process has compiled or loaded


def ready(info, say: bool = True) -> float:
    """Compile (or load) ``info``'s fast path by playing one game; the seconds it took
    (0 when this process already has it). ``say``: print what is happening on stderr."""
    if info.name in _READY:
        return 0.0
    start = time.perf_counter()
    done = threading.Event()
    said = threading.Event()

    def speak() -> None:
        if done.wait(SAY_AFTER):
            return
        said.set()
        tell(f"compiling the {info.title} engine, once for this machine: {expected(info.name)}"
             " (later runs load it in about a second) ...")
        while not done.wait(TICK):
            tell(f"  still compiling the {info.title} engine: "
                 f"{time.perf_counter() - start:.0f} s")

    speaker = threading.Thread(target=speak, name="rumsim-compiling", daemon=True)
    if say:
        speaker.start()
    try:
        play_one(info)
    finally:
        done.set()
        if say:
            speaker.join()
    seconds = time.perf_counter() - start
    if said.is_set():
        tell(f"  the {info.title} engine is ready ({seconds:.0f} s); the run's rate excludes "
             "this")
    _READY.add(info.name)
    return seconds


def expected(name: str) -> str:
    """What compiling ``name``'s engine takes, in words ("about 45 s on 2 cores")."""
    seconds = COLD_SECONDS.get(name)
    return f"about {seconds} s on 2 cores" if seconds else "a minute or so"


def play_one(info) -> None:
    """One game of the engine at its defaults (what compiles it, or loads it)."""
    players = info.default_players
    info.fast(info.rules_cls(), info.seat_policies(info.default_policy, players), players,
              0, 0, 1)


def tell(text: str) -> None:
    """One line on stderr (when there is one), flushed."""
    if sys.stderr is not None:
        print(text, file=sys.stderr, flush=True)
