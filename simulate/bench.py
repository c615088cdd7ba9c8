"""Games per second: the fast path on one thread and on all threads, against the reference path.

A benchmark, not a test: it sizes each measurement to take about
``seconds`` of wall time, after one warm-up call that pays for compilation
(or loading it from the cache), and keeps the best of ``repeats`` runs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba
import numpy as np

from engines import GAMES, get_game
from simulate.codec import storable
from simulate.runner import available_threads, resolve


def _rate(play, seconds: float, start_count: int, repeats: int = 3,
          first_game: int = 10_000_000) -> float:
    """Games/s of ``play(first_game, count)``: the best of ``repeats`` runs of about ``seconds``.

    The best run, not the mean, because on a shared machine every disturbance
    only ever slows a run down.
    """
    count = start_count
    while True:
        t0 = time.perf_counter()
        play(first_game, count)
        elapsed = time.perf_counter() - t0
        if elapsed >= 0.25 * seconds or count >= 50_000_000:
            break
        count *= 4 if elapsed < 0.05 * seconds else 2
    count = max(1, int(count * seconds / max(elapsed, 1e-9)))
    best = 0.0
    for k in range(repeats):
        t0 = time.perf_counter()
        play(first_game + (k + 1) * count, count)
        best = max(best, count / (time.perf_counter() - t0))
    return best


def bench_one(game: str, policy: str, players: int | None = None, seconds: float = 1.0,
              rules=None, repeats: int = 3) -> dict:
    """One record: game, policy, players, fast_1, fast_all, reference, speedup (fast_1/reference)."""
    info, rules, policies, players = resolve(game, rules, policy, players)
    slow = any(p.spec.slow for p in policies)

    def fast(first, count):
        return info.fast(rules, policies, players, 12345, first, count)

    def reference(first, count):
        for g in range(first, first + count):
            info.reference(rules, policies, players, 12345, g)

    threads = available_threads()
    try:
        numba.set_num_threads(1)
        fast(0, 4)  # compile or load from cache
        fast_1 = _rate(fast, seconds, 10 if slow else 1000, repeats)
        numba.set_num_threads(threads)
        fast_all = _rate(fast, seconds, 10 if slow else 1000, repeats)
    finally:
        numba.set_num_threads(threads)
    ref = _rate(reference, seconds, 1, repeats)
    return {
        "game": info.name,
        "policy": policies[0].label() if len(set(policies)) == 1 else ",".join(p.label() for p in policies),
        "players": players,
        "threads": threads,
        "fast_1": round(fast_1, 1),
        "fast_all": round(fast_all, 1),
        "scaling": round(fast_all / fast_1, 3),
        "reference": round(ref, 2),
        "speedup": round(fast_1 / ref, 1),
    }


def bench(games: list[str] | None = None, policies: list[str] | None = None,
          seconds: float = 1.0, on_record=None, repeats: int = 3,
          players: int | None = None) -> list[dict]:
    """Records for every (game, policy): the game's own policies unless ``policies`` is given."""
    records = []
    for name in games or GAMES:
        info = get_game(name)
        for policy in policies or list(info.policies):
            record = bench_one(info.name, policy, players, seconds=seconds, repeats=repeats)
            records.append(record)
            if on_record is not None:
                on_record(record)
    return records


def column_sums(frame) -> np.ndarray:
    """A block's column sums: a summary as small as a tally, for timing the backends."""
    return frame.to_numpy(dtype=np.float64).sum(axis=0)


def bench_backends(game: str, n_games: int, backend, policy: str | None = None,
                   players: int | None = None) -> dict:
    """Games/s of one run of ``n_games`` in this process and on ``backend`` (a started
    ``simulate.cluster.DaskBackend``), measured one after the other in one sitting. Both
    play the same blocks and reduce each to its column sums where it is played; a short run
    on each first pays for compilation, so neither figure includes it. ``same`` says
    whether the two runs' sums are identical (they must be)."""
    from simulate.runner import run

    def one(where, n):
        sums: list[np.ndarray] = []
        t0 = time.perf_counter()
        res = run(game, n, policies=policy, players=players, part=column_sums,
                  on_part=sums.append, keep=False, progress=False, cluster=where)
        return time.perf_counter() - t0, np.sum(sums, axis=0), res.meta

    one(None, 1_000)
    one(backend, 1_000)
    local_s, local_sums, meta = one(None, n_games)
    dask_s, dask_sums, dask_meta = one(backend, n_games)
    return {"game": meta["game"], "players": meta["players"],
            "policy": ",".join(dict.fromkeys(meta["policies"])), "games": n_games,
            "local_threads": meta["workers"], "cluster": dask_meta["where"],
            "local_s": round(local_s, 2), "dask_s": round(dask_s, 2),
            "local_rate": round(n_games / local_s, 1), "dask_rate": round(n_games / dask_s, 1),
            "ratio": round(local_s / dask_s, 3),
            "same": bool(np.array_equal(local_sums, dask_sums))}


@storable
@dataclass(frozen=True)
class ColumnSums:
    """A block's column sums as a storable tally (``simulate.store``), for timing the store."""

    store_version = 1

    def __call__(self, frame) -> np.ndarray:
        return column_sums(frame)

    def verify(self, result, games: int) -> None:
        if not isinstance(result, np.ndarray) or result.ndim != 1 or result[0] < 0:
            raise ValueError("not a block's column sums")


def bench_store(game: str, n_games: int, policy: str | None = None, players: int | None = None,
                repeats: int = 3) -> dict:
    """What the run store costs a run and saves it: the same run of ``n_games`` (blocks reduced
    to column sums where they are played) with no store, into an empty store (every block
    played and saved) and from a full one (every block read), each the best of ``repeats``,
    interleaved in one sitting. ``same``: all three gave identical sums (they must)."""
    import shutil
    import tempfile
    from pathlib import Path

    from simulate.runner import run
    from simulate.store import Store

    def one(store) -> tuple[float, np.ndarray]:
        sums: list[np.ndarray] = []
        t0 = time.perf_counter()
        run(game, n_games, policies=policy, players=players, part=ColumnSums(),
            on_part=sums.append, keep=False, progress=False, store=store, seed=12345,
            tell=False)
        return time.perf_counter() - t0, np.sum(sums, axis=0)

    run(game, 1_000, policies=policy, players=players, part=column_sums, on_part=lambda x: x,
        keep=False, progress=False)  # compiled (or loaded) before any clock starts
    base = Path(tempfile.mkdtemp(prefix="rumsim-bench-store-"))
    best = {"none": np.inf, "saving": np.inf, "reading": np.inf}
    sums = {}
    try:
        for k in range(repeats):
            fresh = Store(base / f"empty-{k}")
            for name, store in (("none", None), ("saving", fresh), ("reading", fresh)):
                seconds, sums[name] = one(store)
                best[name] = min(best[name], seconds)
            fresh.close()
        size = sum(f.stat().st_size for f in (base / "empty-0").rglob("*") if f.is_file())
    finally:
        shutil.rmtree(base, ignore_errors=True)
    info = get_game(game)
    return {"game": info.name, "players": players or info.check_players(None),
            "policy": policy or "default", "games": n_games,
            "none_s": round(best["none"], 3), "saving_s": round(best["saving"], 3),
            "reading_s": round(best["reading"], 3),
            "saving_ratio": round(best["saving"] / best["none"], 3),
            "reading_ratio": round(best["reading"] / best["none"], 4),
            "store_bytes": size,
            "same": bool(np.array_equal(sums["none"], sums["saving"])
                         and np.array_equal(sums["none"], sums["reading"]))}
