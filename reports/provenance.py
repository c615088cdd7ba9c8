"""Where a report's numbers came from: versions, the project's commit and a hash of each run.

``run_hash(meta)`` fingerprints what decides a run's games (game, players,
rules, policies, seed, first game and count): two runs with the same hash
play the same games, whatever machine, thread count or backend. ``commit()``
is the project's git commit when the source is a git checkout (with
'+changes' when the work tree differs from it), else None.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What decides a run's games; the hash covers exactly these.
HASHED = ("game", "players", "rules", "policies", "seed", "first_game", "games")


def run_hash(meta: dict) -> str:
    """A 12-digit hex fingerprint of the run's game, players, rules, policies, seed and games."""
    what = {k: meta.get(k) for k in HASHED}
    text = json.dumps(what, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@lru_cache(maxsize=1)
def commit() -> str | None:
    """The project's git commit ('abc1234', or 'abc1234+changes'), None outside a checkout."""
    if not (ROOT / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=10, check=True)
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def versions_line(meta: dict) -> str:
    """'rumsim 0.1.0, commit abc1234, Python 3.11.7, Numba 0.60.0, NumPy 2.0.1, pandas 2.2'."""
    v = meta.get("versions", {})
    names = (("rumsim", "rumsim"), ("python", "Python"), ("numba", "Numba"),
             ("numpy", "NumPy"), ("pandas", "pandas"))
    parts = [f"{label} {v[k]}" for k, label in names if k in v]
    c = commit()
    parts.insert(1, f"git commit {c}" if c else "git commit: not a git checkout")
    return ", ".join(parts)
