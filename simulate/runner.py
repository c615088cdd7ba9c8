"""Running playouts: chunking, threads, progress, Ctrl-C, and the Results they make.

``run(game, n_games, ...)`` plays games ``first_game .. first_game + n_games - 1``
of a seed. Each game is seeded from (seed, game index) alone, so the rows do
not depend on chunk size, thread count or backend. Chunks run one after
another (each spread over all threads by the engine's ``prange``); between
chunks the progress bar moves and a Ctrl-C is honoured: the run stops,
keeping every finished chunk, and ``meta['interrupted']`` says so.
"""

from __future__ import annotations

import os
import platform
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from typing import Any

import numpy as np
import pandas as pd

from engines import get_game
from engines._game import GameInfo, Policy
from simulate import warm
from simulate.blocks import BACKENDS, Blocks, Job, LocalBackend, to_frame
from simulate.checkpoint import Checkpoint
from simulate.errors import Interrupted, UserError
from simulate.results import Results
from simulate.signals import STOP_SIGNALS, deferred

VERSION = "0.1.0"


def available_threads() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def set_workers(workers: int | None) -> int:
    """Set the engine thread count (default: all); returns it."""
    import numba

    most = available_threads()
    if workers is None:
        workers = most
    if not 1 <= workers <= most:
        raise UserError(f"--workers must be between 1 and {most} on this machine, not {workers}")
    numba.set_num_threads(workers)
    return workers


def resolve(game: str | GameInfo, rules=None, policies=None, players: int | None = None):
    """(GameInfo, Rules, policies tuple, players) from names, dicts or objects."""
    info = get_game(game) if isinstance(game, str) else game
    players = info.check_players(players)
    if isinstance(rules, (tuple, list)):  # rule sets played in lockstep (see simulate.blocks)
        rules = tuple(resolve(info, r, None, players)[1] for r in rules)
    elif rules is None:
        rules = info.rules_cls()
    elif isinstance(rules, dict):
        rules = info.rules_cls.from_overrides(rules)
    if policies is None or isinstance(policies, str):
        policies = info.seat_policies(policies, players)
    elif isinstance(policies, Policy):
        policies = (policies,) * players
    else:
        policies = tuple(info.policy(p) if isinstance(p, str) else p for p in policies)
        if len(policies) != players:
            raise UserError(f"{len(policies)} policies given for {players} players")
    return info, rules, policies, players


def available_memory() -> int | None:
    """Bytes of memory this process could still take (MemAvailable), None if unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


def rows_memory(n_games: int, n_columns: int) -> int:
    """Bytes a run that keeps its rows needs at its peak: float64 rows, twice (the chunks and
    the frame they are joined into), plus the interpreter and the engines."""
    return 2 * 8 * n_games * n_columns + (400 << 20)


def check_memory(n_games: int, n_columns: int) -> None:
    """Refuse, before any game, a run whose rows would not fit in memory. Only a run that
    keeps its rows is checked (``run(keep=True)``); one that hands each chunk to ``on_chunk``
    and keeps none (``rumsim run``: a streamed summary and ``--out`` file) needs the same
    memory at any N and is never refused."""
    need, have = rows_memory(n_games, n_columns), available_memory()
    if have is not None and need > have:
        raise UserError(f"{n_games:,} games would keep about {need / 1e9:.1f} GB of rows in "
                        f"memory; this machine has {have / 1e9:.1f} GB free. Play at most about "
                        f"{max(1, (have - (400 << 20)) // (16 * n_columns)):,} games (a game's "
                        "result depends only on the seed and its index, so runs can be split)")


CHUNK_ROWS = 100_000  # rows of outcomes per chunk on the fast path, all arms together


def default_chunk(info: GameInfo, policies, backend: str, arms: int = 1) -> int:
    """Games per chunk: arms in lockstep share one chunk's rows, so a chunk's memory does
    not grow with the number of arms (nor, as ever, with the games)."""
    if backend == "reference":
        return 200
    if any(p.spec.slow for p in policies):
        return 64
    return max(1_000, CHUNK_ROWS // arms)


# Ctrl-C, a scheduler's SIGTERM and a closed terminal's SIGHUP all mean "stop, keep what
# finished" (simulate.signals.STOP_SIGNALS).


HARD_STOP = 3  # the signal that stops everything at once, whatever is being done


class StopFlag:
    """Turns a stop signal into a request honoured between chunks (main thread only). A
    second signal while a chunk is being played stops that chunk at once (it is dropped; the
    chunks that finished are kept and answered, as after one signal); a second signal while
    the answer is being made from them is absorbed, so the answer is not lost to an impatient
    double Ctrl-C; a third stops everything at once (KeyboardInterrupt).

    One ``run`` holds its own flag. A command that plays several runs holds one for all of
    them (``with StopFlag():`` around the command, as the CLI does): a stop then ends the run
    in progress at its next chunk boundary and refuses every later run (``Interrupted``), so
    no later answer is presented as complete.
    """

    active: StopFlag | None = None  # the command-wide flag, while one is held

    def __init__(self):
        self.requested = False
        self.cut: list[dict] = []  # the runs this stop cut short: label, games, requested
        self.fault: str | None = None  # what failed, when a fault (not a signal) stopped it
        self.refused = False  # a run was not started because of the stop
        self.playing = False  # a run's chunk is being played (a second signal drops it)
        self.signals = 0
        self._old = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self._old[sig] = signal.getsignal(sig)
                signal.signal(sig, self._handle)
        return self

    def fault_at(self, text: str) -> None:
        """A fault (a lost cluster) ended the run: later runs are refused as after a stop,
        and the command says ``text`` and exits with 1 after showing what finished."""
        self.fault = text
        self.requested = True

    def _handle(self, signum, frame):
        self.signals += 1
        if self.requested and (self.playing or self.signals > HARD_STOP - 1):
            raise KeyboardInterrupt
        self.requested = True

    @property
    def changed_the_answer(self) -> bool:
        """Whether the stop cut a run short or kept one from starting (else it came after
        every game was played, and the answer is the complete one)."""
        return bool(self.cut) or self.refused

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)
        return False


class command_scope:
    """The stop flag of a whole command (see :class:`StopFlag`)."""

    def __enter__(self) -> StopFlag:
        self.flag = StopFlag().__enter__()
        StopFlag.active = self.flag
        return self.flag

    def __exit__(self, *exc):
        StopFlag.active = None
        return self.flag.__exit__(*exc)


class _RunFlag:
    """A run's stop flag: the command's when one is held, else its own."""

    def __enter__(self) -> StopFlag:
        shared = StopFlag.active
        if shared is not None:
            if shared.requested:
                shared.refused = True
            if shared.fault is not None:
                raise Interrupted(f"not started: {shared.fault}")
            if shared.requested:
                raise Interrupted("interrupted before this run started; nothing more was "
                                  "played")
            self.own = None
            return shared
        self.own = StopFlag().__enter__()
        return self.own

    def __exit__(self, *exc):
        return self.own.__exit__(*exc) if self.own is not None else False


def run(game: str | GameInfo, n_games: int, rules=None, policies=None, players: int | None = None,
        seed: int = 0, workers: int | None = None, chunk_size: int | None = None,
        backend: str = "fast", progress: bool | None = None, first_game: int = 0,
        on_chunk: Callable[[pd.DataFrame], Any] | None = None, keep: bool = True,
        label: str | None = None,
        stop_when: Callable[[Any], bool] | None = None,
        part: Callable[[pd.DataFrame], Any] | None = None,
        on_part: Callable[[Any], Any] | None = None,
        cluster=None, checkpoint: Checkpoint | None = None,
        seatings: list | None = None, store=None, more: int | None = None,
        all_stored: bool = False, tell: bool = True) -> Results:
    """Play ``n_games`` games and return their outcome rows with metadata.

    ``rules``: a Rules object, a dict of overrides, or None (defaults).
    ``policies``: 'greedy', 'greedy,random' (per seat), Policy objects, or None.
    ``on_chunk`` sees every finished chunk (for aggregating runs too large to
    keep; pass ``keep=False`` then). ``progress=None`` shows a bar on a terminal.
    ``stop_when`` sees every finished chunk too; when it returns True the run
    ends there (``meta["stop_condition_met"]``), e.g. once an interval is narrow
    enough. Where it can stop depends on the chunk size, so pass ``chunk_size``
    with it to keep the result independent of anything but the arguments.

    ``part`` reduces each chunk's rows to a summary where the chunk is played (a Dask
    worker, or here); ``on_part`` then sees the summaries in chunk order (and so does
    ``stop_when``), and no row reaches this process. ``cluster`` is a backend from
    ``simulate.cluster`` (None: this process). ``checkpoint`` saves each finished chunk's
    summary (or rows) and, on resume, plays only the chunks it lacks.

    ``store`` (a ``simulate.store.Store``) takes the blocks of this run's question it holds
    instead of playing them, and keeps the blocks it plays, when ``part`` is a storable tally
    (rows are never stored); the answer is the same as with no store. ``more``: play the games
    the store holds for this question from ``first_game`` (without a gap) and ``more`` after
    them (``n_games`` is then ignored). ``all_stored``: play at least ``n_games``, and as many
    as the store holds for this question from ``first_game`` on without a gap (a report takes
    all the evidence there is). ``tell``: say on stderr how many games came from the store.

    Arms in lockstep (``simulate.blocks``): ``rules`` a tuple of rule sets, and optionally
    ``seatings`` a seating per arm (each like ``policies``); each chunk then hands
    ``on_chunk`` (or ``part``) one frame per arm, of the same games.
    """
    if seatings is not None:
        if not isinstance(rules, tuple):
            rules = (rules,) * len(seatings)
        if len(seatings) != len(rules):
            raise ValueError("one seating per arm (rule set)")
        arms = [resolve(game, r, s, players) for r, s in zip(rules, seatings, strict=True)]
        info, _, _, players = arms[0]
        rules = tuple(a[1] for a in arms)
        policies = tuple(a[2] for a in arms)
    else:
        info, rules, policies, players = resolve(game, rules, policies, players)
    if backend not in BACKENDS:
        raise UserError(f"backend must be one of {', '.join(BACKENDS)}, not '{backend}'")
    if not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**63:
        raise UserError(f"--seed must be a whole number from 0 to 2**63-1, not {seed}")
    if more is not None:
        if more < 1:
            raise UserError(f"--more must be at least 1 game, not {more}")
        n_games = 1  # checked below; the games stored come first
    if n_games < 1:
        raise UserError(f"the game count must be at least 1, not {n_games}")
    if backend == "reference" and workers not in (None, 1):
        raise UserError(f"--workers {workers}: the reference backend plays on one thread")
    if cluster is not None and workers is not None:
        raise UserError("--workers sets this machine's threads; on a Dask cluster each worker "
                        "uses its own")
    if part is not None and (on_chunk is not None or keep):
        raise ValueError("a run reduced by part= keeps no rows: pass on_part, keep=False")
    if isinstance(rules, tuple) and keep:
        raise ValueError("rule sets in lockstep give a frame per rule set: pass on_chunk, "
                         "keep=False")
    workers = set_workers(workers) if backend == "fast" and cluster is None else 1
    job = Job(info.name, rules, tuple(policies), players, int(seed), backend, part)
    seated = [p for _, seating in job.arms for p in seating]
    chunk = int(chunk_size or default_chunk(info, seated, backend, len(job.arms)))
    if chunk < 1:
        raise UserError(f"chunk size must be at least 1, not {chunk}")
    columns = info.columns(players)
    pool = store.pool(job, info) if store is not None else None
    if more is not None:
        if pool is None:
            raise UserError("--more adds games to an answer in the run store; this one is not "
                            "stored (no store, or an answer that keeps rows)")
        n_games = pool.prefix(first_game, chunk) + more
    elif all_stored and pool is not None:
        n_games = max(n_games, pool.prefix(first_game, chunk))
    if keep and stop_when is None:
        check_memory(n_games, len(columns))
    blocks = Blocks(first_game, n_games, chunk)
    consume = on_part if part is not None else on_chunk
    store = None
    if checkpoint is not None:
        store = checkpoint.run({**job.describe(), "first_game": int(first_game),
                                "games": int(n_games), "block": chunk, "rumsim": VERSION})
    where = cluster or LocalBackend()
    if cluster is None and backend == "fast":
        # compiled (or loaded) before the clock and the bar start: said while it compiles,
        # and no rate counts it (a Dask cluster warms its workers itself, in ``warm``)
        warm.ready(info, say=progress is not False)

    frames: list[pd.DataFrame] = []
    done = 0
    satisfied = False
    started = time.perf_counter()
    bar = _progress_bar(progress, n_games, label or f"{info.name} {seated[0].label()}")
    with _RunFlag() as stop, bar:
        if cluster is not None and any(not _stored(blocks[i], i, store, pool)
                                       for i in range(len(blocks))):
            cluster.warm(job, stop)
        order = _in_order(job, blocks, where, store, pool)
        with closing(order):  # a stop closes it: the blocks a cluster has in flight are cancelled
            try:
                stop.playing = True
                for i, result in enumerate(order):
                    # A finished chunk is taken whole (written, merged, counted) with the stop
                    # signals held: a second Ctrl-C drops the chunk being played, never half
                    # of one being taken.
                    stop.playing = False
                    with deferred():
                        count = blocks[i][1]
                        if consume is not None:
                            consume(result)
                        if keep:
                            frames.append(result)
                        done += count
                        bar.advance(count)
                        satisfied = stop_when is not None and bool(stop_when(result))
                    if stop.requested or satisfied:  # after the held signals are delivered
                        break
                    stop.playing = True
            except KeyboardInterrupt:
                if not stop.requested or stop.signals >= HARD_STOP:  # not ours, or a third
                    raise
                # a second signal while a chunk was played: the chunks before it stand
            except Exception as exc:
                # A cluster failing mid-run (its scheduler lost, its workers killed) ends the
                # run as a stop does: what finished is kept and written, and the fault is said
                # (StopFlag.fault), instead of a traceback that discarded every finished block.
                if cluster is None or isinstance(exc, (UserError, Interrupted)):
                    raise
                stop.fault_at(f"the Dask cluster failed after {done:,} of {n_games:,} games "
                              f"({type(exc).__name__}: {' '.join(str(exc).split())[:200]})")
            finally:
                stop.playing = False
    elapsed = time.perf_counter() - started
    frame = pd.concat(frames, ignore_index=True) if frames else to_frame(
        np.zeros((0, len(columns))), columns)
    meta = make_meta(info, job.arms[0][0], job.arms[0][1], players, seed,
                     first_game,
                     n_games, done, backend, workers, chunk, elapsed,
                     interrupted=done < n_games and not satisfied)
    if job.lockstep:
        meta["lockstep_rules"] = [r.describe() for r in rules]
        meta["lockstep_policies"] = [[p.label() for p in seating] for _, seating in job.arms]
    meta["stop_condition_met"] = satisfied
    if stop.fault is not None:
        meta["fault"] = stop.fault
    meta["where"] = where.describe()
    if cluster is not None:
        meta["workers"] = cluster.threads()
    if store is not None:
        meta["checkpoint"] = {"folder": str(store.folder), "blocks": len(store),
                              "loaded": store.loaded}
    if pool is not None:
        meta["store"] = pool.meta()
        pool.finish()
        if pool.loaded_games and tell:
            import sys

            print(f"{label or info.name}: {pool.said()}; {done - pool.loaded_games:,} played",
                  file=sys.stderr, flush=True)
    if meta["interrupted"]:
        stop.cut.append({"label": label or info.name, "games": done, "requested": n_games})
    return Results(frame, meta)


def _stored(block, i: int, store, pool) -> bool:
    return (store is not None and store.has(i)) or (pool is not None and pool.has(block))


def _in_order(job: Job, blocks: Blocks, where, store, pool=None) -> Iterator[Any]:
    """Every block's result in block order: from the checkpoint when it has the block, else
    from the run store when it has it, else played by ``where`` (and then saved to both).
    The generator is closed when the run stops early, which cancels the blocks still in
    flight. A stored block found damaged is said, dropped and played here."""
    if store is None and pool is None:
        yield from where.ordered(job, (blocks[i] for i in range(len(blocks))))
        return
    # Which blocks to play is decided once, before any is taken: a stored block found damaged
    # below leaves the pool, and a lazily filtered list would then hand the backend that
    # block again in place of the next missing one (its games counted twice, the other's
    # never, and saved under the other's range).
    todo = [blocks[i] for i in range(len(blocks)) if not _stored(blocks[i], i, store, pool)]
    missing = where.ordered(job, iter(todo))
    try:
        for i in range(len(blocks)):
            block = blocks[i]
            result, seconds = None, None
            if store is not None and store.has(i):
                result = store.load(i)
            elif pool is not None and pool.has(block):
                result = pool.load(block)
                if result is None:  # damaged: played again, alone
                    with closing(where.ordered(job, iter([block]))) as again:
                        result = next(again)
                    pool.save(block, result, None)
                if store is not None:
                    store.save(i, block, result)
                yield result
                continue
            else:
                # The wall time the run waited for this block: summed over a run's blocks, its
                # playing time (the store keeps it, so a question can say what more costs).
                waited = time.perf_counter()
                result = next(missing)
                seconds = time.perf_counter() - waited
                if store is not None:
                    store.save(i, block, result)
            if pool is not None and not pool.has(block):
                pool.save(block, result, seconds)
            yield result
    finally:
        missing.close()


def make_meta(info, rules, policies, players, seed, first_game, requested, games, backend,
              workers, chunk, elapsed, interrupted) -> dict:
    import numba

    return {
        "game": info.name,
        "players": players,
        "rules": {k: (list(v) if isinstance(v, tuple) else v) for k, v in rules.to_dict().items()},
        "rules_changed": rules.describe(),
        "policies": [p.label() for p in policies],
        "seed": int(seed),
        "first_game": int(first_game),
        "games": int(games),
        "requested": int(requested),
        "interrupted": bool(interrupted),
        "backend": backend,
        "workers": workers,
        "chunk_size": chunk,
        "elapsed_s": round(elapsed, 4),
        "versions": {
            "rumsim": VERSION,
            "numba": numba.__version__,
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "python": platform.python_version(),
        },
    }


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def advance(self, n: int) -> None:
        pass


class _LineBar:
    """Progress without a terminal (a log, a pipe, CI): one plain line on stderr every
    ``every`` seconds once a run has taken that long, so long work is never silent."""

    def __init__(self, total: int, label: str, every: float = 30.0):
        self.total, self.label, self.every = total, label, every
        self.start = self.last = time.perf_counter()
        self.done = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def advance(self, n: int) -> None:
        import sys

        self.done += n
        now = time.perf_counter()
        if now - self.last < self.every or self.done >= self.total or sys.stderr is None:
            return
        self.last = now
        rate = self.done / max(now - self.start, 1e-9)
        left = (self.total - self.done) / max(rate, 1e-9)
        print(f"{self.label}: {self.done:,} of {self.total:,} games "
              f"({100 * self.done / self.total:.0f}%), {rate:,.0f} games/s, about "
              f"{left:,.0f} s left", file=sys.stderr, flush=True)


class _RichBar:
    """A rich progress bar on stderr with games/s."""

    def __init__(self, total: int, label: str):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
            console=Console(stderr=True), transient=False,
        )
        self.task = self.progress.add_task(label, total=total, rate="")
        self.start = time.perf_counter()
        self.done = 0

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def advance(self, n: int) -> None:
        self.done += n
        rate = self.done / max(time.perf_counter() - self.start, 1e-9)
        self.progress.update(self.task, advance=n, rate=f"{rate:,.0f} games/s")


def _progress_bar(progress: bool | None, total: int, label: str):
    import sys

    if progress is None:  # a terminal gets the bar; a log or a pipe a line now and then
        return _RichBar(total, label) if sys.stderr.isatty() else _LineBar(total, label)
    return _RichBar(total, label) if progress else _NoBar()
