"""Checkpoints: every finished block of a run saved as it completes, so a run resumes.

``--checkpoint DIR`` keeps one folder per run of the command (``run-0``, ``run-1``, ... in
the order the command plays them). Each holds ``run.json``, the run's fingerprint (game,
players, rules, policies, seed, games, block size, backend, what a block is reduced to,
rumsim version), and one pickle per finished block, named by its index and game range.
A block file is written to a temporary name and renamed into place, so after a ``kill -9``
or a lost machine every block file present is whole. ``--resume`` loads them and plays only
the missing blocks; the blocks are then consumed in the same order as in an uninterrupted
run, so the answer is identical bit for bit. A checkpoint made under other arguments is
refused, naming the first difference.
"""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path
from typing import Any

from simulate.errors import UserError
from simulate.signals import deferred

MANIFEST = "run.json"


class Checkpoint:
    """The checkpoint folder of one command; :meth:`run` hands out each run's store."""

    def __init__(self, root: Path, resume: bool):
        self.root, self.resume = Path(root), resume
        if self.root.exists() and not self.root.is_dir():
            raise UserError(f"--checkpoint {self.root}: not a folder")
        if not resume and self.root.is_dir() and any(self.root.iterdir()):
            raise UserError(f"--checkpoint {self.root} already holds files: add --resume to "
                            "continue that run, or give an empty or new folder")
        self.count = 0

    def run(self, fingerprint: dict) -> RunStore:
        store = RunStore(self.root / f"run-{self.count}", fingerprint)
        self.count += 1
        return store


class RunStore:
    """One run's saved blocks."""

    def __init__(self, folder: Path, fingerprint: dict):
        self.folder, self.fingerprint = folder, _plain(fingerprint)
        manifest = folder / MANIFEST
        if manifest.exists():
            try:
                saved = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise UserError(f"checkpoint {manifest} cannot be read ({exc})") from None
            difference = first_difference(saved, self.fingerprint)
            if difference:
                raise UserError(f"checkpoint {folder} was made {difference}: resume with the "
                                "same arguments, or give another --checkpoint folder")
        else:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UserError(f"--checkpoint {folder}: {exc.strerror or exc}") from None
            _atomic_write(manifest, json.dumps(self.fingerprint, indent=1).encode())
        for stale in folder.glob(".*.tmp"):  # a write cut by kill -9 before its rename
            stale.unlink(missing_ok=True)
        self.saved = {int(p.name.split("-")[1]): p for p in folder.glob("block-*.pkl")}
        self.loaded = 0  # blocks this run took from the checkpoint instead of playing

    def has(self, i: int) -> bool:
        return i in self.saved

    def load(self, i: int) -> Any:
        self.loaded += 1
        with open(self.saved[i], "rb") as fh:
            return pickle.load(fh)

    def save(self, i: int, block: tuple[int, int], part: Any) -> None:
        path = self.folder / f"block-{i:09d}-{block[0]}-{block[1]}.pkl"
        _atomic_write(path, pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL))
        self.saved[i] = path

    def __len__(self) -> int:
        return len(self.saved)


def first_difference(saved: dict, wanted: dict) -> str | None:
    """'with seed 1, not 0' for the first key whose value differs, else None."""
    for key in dict.fromkeys([*wanted, *saved]):
        if saved.get(key) != wanted.get(key):
            if isinstance(saved.get(key), dict) and isinstance(wanted.get(key), dict):
                inner = first_difference(saved[key], wanted[key])
                return f"with {key} {inner.removeprefix('with ')}"
            return f"with {key} {_show(saved.get(key))}, not {_show(wanted.get(key))}"
    return None


def _show(value) -> str:
    return "(none)" if value is None else json.dumps(value)


def _plain(obj):
    """The fingerprint as JSON would give it back (tuples become lists)."""
    return json.loads(json.dumps(obj))


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with deferred():
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
