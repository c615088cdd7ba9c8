"""The Dask backend: a run's blocks as pure tasks on a ``dask.distributed`` cluster.

``--cluster local:N`` starts a :class:`distributed.LocalCluster` of N worker processes on
this machine (the machine's cores shared out between them); ``--scheduler tcp://HOST:PORT``
or ``RUMSIM_SCHEDULER`` uses a cluster someone started (``dask scheduler``, ``dask worker``,
dask-jobqueue, Kubernetes). Each block is submitted as ``Job.play(start, count)`` under a
key made from the run's fingerprint and the block, so Dask may recompute it after a lost
worker and get the same summary. Results are consumed in block order, a few blocks ahead in
flight per worker thread, so merging, ``--precision`` stopping and a stop between blocks
happen exactly as on this machine's backend, and the answer is identical to it.

Dask is an optional extra (``pip install 'rumsim[dask]'``); without it these flags say so
in one line.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from simulate.blocks import Job
from simulate.errors import Interrupted, UserError

SCHEDULER_ENV = "RUMSIM_SCHEDULER"
INSTALL_HINT = "pip install 'rumsim[dask]'"
CONNECT_SECONDS = 10  # how long --scheduler waits for a scheduler to answer, in all
WORKER_SECONDS = 60   # how long a run waits for a first worker to join the scheduler
START_SECONDS = 120   # how long --cluster local:N may take to start its workers
POLL = 0.2            # seconds between looks while waiting (a stop is honoured at each)
AHEAD = 2  # blocks in flight per worker thread: one running, one queued behind it


def _distributed():
    try:
        import distributed
    except ImportError:
        raise UserError(f"--cluster and --scheduler need Dask's distributed scheduler: "
                        f"{INSTALL_HINT}") from None
    return distributed


def parse_local(spec: str) -> int:
    """'local:N' -> N worker processes."""
    kind, _, count = spec.partition(":")
    count = count.strip()
    # ASCII digits only: '²'.isdigit() is True, and int() refuses it
    if kind != "local" or not (count.isascii() and count.isdecimal()) or int(count) < 1:
        raise UserError(f"--cluster '{spec}' is not local:N (N worker processes on this "
                        "machine, e.g. local:2); for a cluster elsewhere use --scheduler "
                        "tcp://HOST:PORT")
    most = MAX_LOCAL_PER_CORE * (os.cpu_count() or 1)
    if int(count) > most:
        raise UserError(f"--cluster {spec}: at most {most} worker processes on this machine "
                        f"({MAX_LOCAL_PER_CORE} a core); each is a whole Python process")
    return int(count)


MAX_LOCAL_PER_CORE = 4


class DaskBackend:
    """Plays a run's blocks on a Dask cluster; a context manager that closes what it opened."""

    name = "dask"

    def __init__(self, cluster: str | None = None, scheduler: str | None = None):
        self.spec = cluster
        self.address = scheduler
        self._cluster = None
        self.client = None

    def __enter__(self) -> DaskBackend:
        distributed = _distributed()
        # rumsim says itself, in one line, what failed (a lost scheduler, a cluster that does
        # not start); Dask's own log lines about it (reconnecting, closing, tearing down
        # after a Ctrl-C) would only bury that line and the answer.
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        if self.spec is not None:
            n = parse_local(self.spec)
            cores = os.cpu_count() or 1
            per_worker = max(1, cores // n)

            def start():
                cluster = distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True,
                    dashboard_address=":0", silence_logs=50,
                    preload=["simulate.dask_worker"],
                    env={"NUMBA_NUM_THREADS": str(per_worker)})
                try:
                    return distributed.Client(cluster)
                except BaseException:
                    cluster.close()
                    raise

            self.client = _within(start, START_SECONDS, f"--cluster {self.spec}",
                                  f"its workers did not start within {START_SECONDS} s")
            self._cluster = self.client.cluster
        else:
            self.client = _within(
                lambda: distributed.Client(self.address, timeout=f"{CONNECT_SECONDS}s"),
                CONNECT_SECONDS + 5, f"--scheduler {self.address}",
                f"nothing there answered as a Dask scheduler within {CONNECT_SECONDS} s")
        return self

    def __exit__(self, *exc) -> bool:
        # Closing is best effort and quiet: after a lost scheduler or a stop, what is left
        # to close may already be gone, and its errors would only hide the answer.
        for thing in (self.client, self._cluster):
            if thing is not None:
                try:
                    thing.close()
                except Exception:
                    pass
        return False

    def threads(self) -> int:
        """Worker threads in the cluster now (at least 1 while waiting for workers; the last
        count seen once the scheduler is gone)."""
        try:
            self._threads = max(1, sum(self.client.nthreads().values()))
        except Exception:  # a lost scheduler: the answer still says where it was played
            pass
        return getattr(self, "_threads", 1)

    def warm(self, job: Job, stop=None) -> None:
        """Compile (or load from Numba's cache) the engine on every worker before the run,
        by playing one game there; the answer never sees this game. A scheduler with no
        worker is waited for ``WORKER_SECONDS`` (a stop ends the wait at once), then refused."""
        deadline = time.monotonic() + WORKER_SECONDS
        while not self.client.nthreads():
            _check_stop("while waiting for a worker to join the scheduler", stop)
            if time.monotonic() > deadline:
                raise UserError(f"--scheduler {self.address}: no worker joined the scheduler "
                                f"within {WORKER_SECONDS} s; start one with 'dask worker "
                                f"{self.address}'")
            time.sleep(POLL)
        start = Job(job.game, job.rules, job.policies, job.players, job.seed, job.backend)
        if self._cluster is not None:
            # Workers on this machine share its Numba cache: compile once here, so they
            # load the engine instead of each compiling it at the same time.
            start.rows(0, 1)
        self.client.run(start.rows, 0, 1)

    def ordered(self, job: Job, blocks: Iterator[tuple[int, int]]) -> Iterator[Any]:
        """The blocks' results in block order, keeping a few blocks per thread in flight;
        closing the iterator (a stop, an error) cancels the blocks not consumed."""
        token = run_token(job)
        pending: deque = deque()
        blocks = iter(blocks)
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < AHEAD * self.threads():
                    block = next(blocks, None)
                    if block is None:
                        exhausted = True
                        break
                    start, count = block
                    pending.append(self.client.submit(
                        job.play, start, count, key=f"rumsim-{token}-{start}-{count}",
                        pure=False))
                if not pending:
                    return
                future = pending.popleft()
                result = future.result()
                future.release()
                yield result
        finally:
            for future in pending:
                future.cancel()

    def describe(self) -> str:
        try:
            info = self.client.scheduler_info()
            running = self.client.status == "running"
        except Exception:
            info, running = {}, False
        if not running:  # a lost scheduler: say so, the rest of the answer stands
            return f"Dask at {self.address or self.spec} (lost during the run)"
        workers = info.get("workers", {})
        return (f"Dask at {info.get('address', self.address)}: {len(workers)} workers, "
                f"{sum(w.get('nthreads', 0) for w in workers.values())} threads")


def _within(make: Callable[[], Any], seconds: float, what: str, late: str) -> Any:
    """``make()`` (a Dask client) in a helper thread, waited for at most ``seconds`` and
    given up at a stop; a client made after it was given up is closed there and then, with
    its cluster, so no worker process outlives the refusal.

    Dask's own timeouts do not bound everything: a server that accepts the connection but
    never speaks Dask (an HTTP server) held the client for good, and SIGTERM was not even
    heard until it gave up. Its errors (refused, an absurd reply) become one line."""
    box: dict[str, Any] = {}
    lock = threading.Lock()

    def target():
        try:
            value = make()
        except BaseException as exc:  # reported below, in the main thread
            box["error"] = exc
            return
        with lock:
            if not box.get("abandoned"):
                box["value"] = value
                return
        _close(value)  # too late: nobody will use it

    thread = threading.Thread(target=target, name="rumsim-dask-start", daemon=True)
    thread.start()
    deadline = time.monotonic() + seconds
    try:
        while thread.is_alive():
            thread.join(POLL)
            _check_stop(f"while starting {what}")
            if thread.is_alive() and time.monotonic() > deadline:
                raise UserError(f"{what}: {late}")
    except BaseException:
        with lock:
            box["abandoned"] = True
            late_value = box.pop("value", None)
        if late_value is not None:  # made between the last look and now
            _close(late_value)
        raise
    if "error" in box:
        exc = box["error"]
        if isinstance(exc, UserError):
            raise exc
        text = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise UserError(f"{what}: cannot start or reach a Dask cluster there ({text})") from None
    return box["value"]


def _close(client) -> None:
    """Close a Dask client and the local cluster it was made for, if any; quietly."""
    for thing in (client, getattr(client, "cluster", None)):
        if thing is not None:
            try:
                thing.close()
            except Exception:
                pass


def _check_stop(doing: str, flag=None) -> None:
    """Refuse to go on once a stop (Ctrl-C, SIGTERM) was asked for: nothing was played yet.
    ``flag``: the run's stop flag (default: the command's, while one is held)."""
    from simulate.runner import StopFlag

    flag = flag or StopFlag.active
    if flag is not None and flag.requested:
        raise Interrupted(f"stopped {doing}; no game was played")


def run_token(job: Job) -> str:
    """A short hash of what fixes every block's result (the task keys' prefix)."""
    text = json.dumps(job.describe(), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def backend_for(cluster: str | None, scheduler: str | None):
    """The backend the flags ask for: Dask when --cluster, --scheduler or RUMSIM_SCHEDULER
    names one, else None (this process)."""
    if cluster is not None and scheduler is not None:
        raise UserError("give --cluster (a cluster on this machine) or --scheduler (one "
                        "elsewhere), not both")
    if cluster is None and not scheduler:
        scheduler = os.environ.get(SCHEDULER_ENV)
    if cluster is None and not scheduler:
        return None
    if cluster is not None:
        parse_local(cluster)
    elif not str(scheduler).startswith("tcp://") or len(str(scheduler)) > 300:
        # tls:// needs certificates rumsim does not take, ucx:// a library it does not ship
        shown = str(scheduler) if len(str(scheduler)) <= 80 else str(scheduler)[:60] + "..."
        raise UserError(f"--scheduler {shown}: give the scheduler's address as "
                        "tcp://HOST:PORT (the only protocol rumsim connects with)")
    _distributed()
    return DaskBackend(cluster=cluster, scheduler=scheduler)
