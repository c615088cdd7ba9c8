"""Temporary files beside the file they will become, and the sweeping of dead writers' ones.

Every file rumsim writes (rows, answers, pages, checkpoint blocks) is written to a temporary
file in the same folder and renamed over its name when complete. The temporary file is made
exclusively (``mkstemp``: ``O_EXCL`` and a random part, so a planted link is never followed)
and named ``.NAME.PID.RANDOM.tmp`` with the writer's process id. A writer killed outright
(SIGKILL, the OOM killer, a power cut) cannot remove its file, so the next writer of the same
name removes every such file whose process is gone: a half-written ``.rows.parquet.*.tmp``
does not stay behind for good, growing the folder with each killed run.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def temp_beside(path: str | Path) -> str:
    """A new, empty temporary file beside ``path`` (its name is returned; it is closed),
    after removing the ones writers of ``path`` that have since died left behind."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    sweep_dead(folder, path.name)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                               dir=folder)
    os.close(fd)
    return tmp


def sweep_dead(folder: Path, name: str) -> list[str]:
    """Remove the temporary files of ``name`` in ``folder`` whose writer is no longer running
    (the names removed). Only rumsim's own pattern, only regular files; a file whose writer
    is alive (another run writing the same name right now) is left alone."""
    prefix = f".{name}."
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:  # the write that follows reports an unreadable folder itself
        return removed
    for entry in entries:
        if not (entry.name.startswith(prefix) and entry.name.endswith(".tmp")):
            continue
        pid, dot, _ = entry.name[len(prefix):-len(".tmp")].partition(".")
        if not (dot and pid.isascii() and pid.isdigit()) or _running(int(pid)):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:  # gone already, or not ours to remove: nothing is lost by leaving it
            pass
    return removed


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists on this machine (signal 0 checks without sending)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    except (OverflowError, OSError):  # no process can have such a number
        return False
    return True
