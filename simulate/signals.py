"""The signals that mean "stop, keep what finished", and holding them over a file's commit.

Ctrl-C (SIGINT), a scheduler's SIGTERM and a closed terminal's SIGHUP all stop a command at
its next chunk boundary (``simulate.runner.StopFlag``); a second drops the chunk being
played, a third stops everything at once. The few
steps that make a written file visible (naming its temporary file, renaming it into place,
renaming a CSV and its metadata sidecar together) run under :func:`deferred`, so even a
"stop at once" lands before or after them, never between them: no temporary file is left
behind and a file and its sidecar are never from two different saves.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))


@contextmanager
def deferred() -> Iterator[None]:
    """Hold the stop signals for a few quick steps, then deliver them to the handlers that
    were in place (in the main thread; elsewhere signals are not delivered anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    old = {}
    for sig in STOP_SIGNALS:
        handler = signal.getsignal(sig)
        if handler is None:  # installed outside Python: leave it alone
            continue
        old[sig] = handler
        signal.signal(sig, lambda signum, frame: pending.append(signum))
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(pending):
            signal.raise_signal(sig)
