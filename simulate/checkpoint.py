"""Checkpoints: every finished block of a run saved as it completes, so a run resumes.

``--checkpoint DIR`` keeps one folder per run of the command (``run-0``, ``run-1``, ... in
the order the command plays them). Each holds ``run.json``, the run's fingerprint (game,
players, rules, policies, seed, games, block size, backend, what a block is reduced to,
rumsim version), and one file per finished block, named by its index and game range.
A block is data, never code (``simulate.codec``: NumPy arrays and a JSON skeleton, read
with ``allow_pickle=False``), and carries its run's fingerprint hash, its index, its games
and a checksum, all checked before it is used: a block from another run, another place,
or a damaged one is one line naming the file. A file is written to a fresh temporary name
(created exclusively, so a link planted there is never followed) and renamed into place,
so after a ``kill -9`` or a lost machine every block file present is whole. ``--resume``
loads them and plays only
the missing blocks; the blocks are then consumed in the same order as in an uninterrupted
run, so the answer is identical bit for bit. A checkpoint made under other arguments is
refused, naming the first difference.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from simulate import codec
from simulate.errors import UserError
from simulate.signals import deferred
from simulate.tempfiles import temp_beside

MANIFEST = "run.json"
BLOCK = re.compile(r"block-(\d{9})-(\d+)-(\d+)\.npz")


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
        self.run_hash = hashlib.sha256(json.dumps(self.fingerprint, sort_keys=True)
                                       .encode()).hexdigest()
        if manifest.exists() or manifest.is_symlink():
            saved = _read_manifest(manifest)
            difference = first_difference(saved, self.fingerprint)
            if difference:
                raise UserError(f"checkpoint {folder} was made {difference}: resume with the "
                                "same arguments, or give another --checkpoint folder")
        else:
            if folder.is_dir() and any(folder.glob("block-*")):
                raise UserError(f"checkpoint {folder} holds blocks but no {MANIFEST}: it cannot "
                                "be told which run they belong to; give another --checkpoint "
                                "folder")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UserError(f"--checkpoint {folder}: {exc.strerror or exc}") from None
            _atomic_write(manifest, json.dumps(self.fingerprint, indent=1).encode())
        for stale in folder.glob(".*.tmp"):  # a write cut by kill -9 before its rename
            stale.unlink(missing_ok=True)   # (a link is removed, never what it points to)
        self.saved: dict[int, tuple[Path, tuple[int, int]]] = {}
        for path in sorted(folder.glob("block-*")):
            match = BLOCK.fullmatch(path.name)
            if match is None:
                old = path.suffix == ".pkl"
                raise UserError(
                    f"checkpoint block {path}: " + (
                        "a pickled block of an older rumsim, which is not read (loading a "
                        "pickle can run code)" if old else "not a block name this run writes")
                    + "; give another --checkpoint folder")
            i, start, count = (int(x) for x in match.groups())
            self.saved[i] = (path, (start, count))
        self.loaded = 0  # blocks this run took from the checkpoint instead of playing

    def has(self, i: int) -> bool:
        return i in self.saved

    def load(self, i: int) -> Any:
        path, block = self.saved[i]
        try:
            if path.is_symlink() or not path.is_file():
                raise codec.BlockError("not a regular file")
            part = codec.loads(path.read_bytes(), self._header(i, block))
        except (codec.BlockError, OSError) as exc:
            raise UserError(f"checkpoint block {path}: {exc}; delete it to play that block "
                            "again") from None
        self.loaded += 1
        return part

    def save(self, i: int, block: tuple[int, int], part: Any) -> None:
        block = (int(block[0]), int(block[1]))
        path = self.folder / f"block-{i:09d}-{block[0]}-{block[1]}.npz"
        _atomic_write(path, codec.dumps(part, self._header(i, block)))
        self.saved[i] = (path, block)

    def _header(self, i: int, block: tuple[int, int]) -> dict:
        """What a block file must say of itself: its run, its index, its games."""
        return {"run": self.run_hash, "block": int(i), "games": [int(block[0]), int(block[1])]}

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


def _read_manifest(manifest: Path) -> dict:
    """run.json as a dict, or one line saying why it is not one."""
    try:
        if manifest.is_symlink() or not manifest.is_file():
            raise ValueError("not a regular file")
        saved = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"checkpoint {manifest} cannot be read ({exc})") from None
    if not isinstance(saved, dict):
        raise UserError(f"checkpoint {manifest} holds {type(saved).__name__}, not a run's "
                        "fingerprint")
    return saved


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a fresh temporary file beside it, created
    exclusively (``temp_beside``: O_EXCL, a random name, so no planted link is followed; a
    killed writer's leftovers swept), renamed over it (a rename replaces a link at ``path``
    itself, never its target)."""
    with deferred():
        tmp = temp_beside(path)
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
