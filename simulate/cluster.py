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
import os
from collections import deque
from collections.abc import Iterator
from typing import Any

from simulate.blocks import Job
from simulate.errors import UserError

SCHEDULER_ENV = "RUMSIM_SCHEDULER"
INSTALL_HINT = "pip install 'rumsim[dask]'"
CONNECT_TIMEOUT = "10s"  # how long --scheduler waits for the scheduler to answer
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
        if self.spec is not None:
            n = parse_local(self.spec)
            cores = os.cpu_count() or 1
            per_worker = max(1, cores // n)
            self._cluster = distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                silence_logs=50, env={"NUMBA_NUM_THREADS": str(per_worker)})
            self.client = distributed.Client(self._cluster)
        else:
            try:
                self.client = distributed.Client(self.address, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError, ValueError) as exc:
                raise UserError(f"--scheduler {self.address}: cannot reach a Dask scheduler "
                                f"there ({exc})") from None
        return self

    def __exit__(self, *exc) -> bool:
        if self.client is not None:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()
        return False

    def threads(self) -> int:
        """Worker threads in the cluster now (at least 1 while waiting for workers)."""
        return max(1, sum(self.client.nthreads().values()))

    def warm(self, job: Job) -> None:
        """Compile (or load from Numba's cache) the engine on every worker before the run,
        by playing one game there; the answer never sees this game."""
        if not self.client.nthreads():
            self.client.wait_for_workers(1, timeout=120)
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
        info = self.client.scheduler_info()
        workers = info.get("workers", {})
        return (f"Dask at {info.get('address', self.address)}: {len(workers)} workers, "
                f"{sum(w.get('nthreads', 0) for w in workers.values())} threads")


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
