"""Loaded by each worker process of a ``--cluster local:N`` cluster (Dask's ``preload``).

A terminal's Ctrl-C goes to the whole process group, the workers included. rumsim itself
stops the run at a block boundary and closes the cluster in order; a worker that took the
signal too would die mid-task and print its own KeyboardInterrupt traceback, dozens of lines
that buried rumsim's answer. So the workers ignore SIGINT; they stop when rumsim closes them.
"""

from __future__ import annotations

import signal
import threading


def dask_setup(worker) -> None:
    """Dask calls this in the worker process as it starts."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
