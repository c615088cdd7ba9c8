"""Results of a run: one row per game (pandas) plus the metadata that says how it was made.

Saved as Parquet (metadata in the file's schema) or CSV (metadata in a sidecar
``<name>.meta.json``, so that ``pandas.read_csv(path)`` and the ``csv`` module
read the rows with no options). Writes go to a temporary file that is renamed
into place, so an interrupted save never leaves a half-written file behind.

Two writers make the same files: :meth:`Results.save` writes rows held in memory;
:class:`RowWriter` writes a run's rows as its chunks finish (``run --out``), so a run's
memory does not grow with its games. Its file appears, whole, when the run ends, and
``Results.load`` reads either alike.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from engines._rules import shown
from simulate.errors import UserError
from simulate.signals import deferred
from simulate.tempfiles import temp_beside

META_KEY = b"rumsim"
CSV_PREFIX = "# rumsim-meta: "  # how CSV files carried their metadata before the sidecar
FORMATS = (".parquet", ".csv")


@dataclass
class Results:
    """A results frame and its metadata (game, rules, policies, seed, games, versions, elapsed)."""

    frame: pd.DataFrame
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.frame)

    def __repr__(self) -> str:
        m = self.meta
        return (f"Results({m.get('game')}, {len(self.frame)} games, seed={m.get('seed')}, "
                f"policies={m.get('policies')}, rules={m.get('rules_changed') or 'default'})")

    # ------------------------------------------------------------ files

    def save(self, path: str | Path) -> Path:
        """Write to .parquet or .csv atomically; returns the path."""
        path = Path(path)
        suffix = check_output_path(path)
        meta_text = json.dumps(self.meta, default=_jsonable)
        if suffix == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            with _atomic(path) as tmp:
                table = pa.Table.from_pandas(self.frame, preserve_index=False)
                merged = {**(table.schema.metadata or {}), META_KEY: meta_text.encode()}
                pq.write_table(table.replace_schema_metadata(merged), tmp)
        else:
            # The rows and their sidecar are written beside them and renamed together, so
            # the pair is never from two different saves.
            with _atomic(path, meta_path(path)) as (tmp, side):
                with open(tmp, "w", encoding="utf-8", newline="") as fh:
                    self.frame.to_csv(fh, index=False)
                Path(side).write_text(meta_text + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> Results:
        """Read a file written by :meth:`save`."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in FORMATS:
            raise UserError(f"cannot read '{path}': expected a .parquet or .csv file")
        if not path.exists():
            raise UserError(f"results file '{path}' does not exist")
        try:
            if suffix == ".parquet":
                import pyarrow.parquet as pq

                table = pq.read_table(path)
                raw = (table.schema.metadata or {}).get(META_KEY)
                if raw is None:  # a file whose stored Arrow schema predates its metadata
                    raw = (pq.read_metadata(path).metadata or {}).get(META_KEY)
                meta = json.loads(raw) if raw else {}
                frame = table.to_pandas()
            else:
                side = meta_path(path)
                meta = json.loads(side.read_text(encoding="utf-8")) if side.exists() else {}
                with open(path, encoding="utf-8") as fh:
                    first = fh.readline()
                    if first.startswith(CSV_PREFIX):  # a file from before the sidecar
                        meta = meta or json.loads(first[len(CSV_PREFIX):])
                    else:
                        fh.seek(0)
                    frame = pd.read_csv(fh)
        except (OSError, ValueError) as exc:
            raise UserError(f"cannot read results file '{path}': {exc}") from None
        return cls(frame, meta)


ROW_GROUP = 65_536  # rows a streamed Parquet row group holds at least (but its last)


class RowWriter:
    """A run's rows written as its chunks finish, into a temporary file beside ``path``.

    ``write(frame)`` takes each chunk (Parquet: row groups of at least ``ROW_GROUP`` rows
    through one ``ParquetWriter``; CSV: appended); ``commit(results)`` writes the run's
    metadata (``results.meta``; a run stopped by a signal says ``interrupted`` and how many
    games) and renames the file (and a CSV's sidecar) into place, as :meth:`Results.save`
    would have written them. Leaving the ``with`` block without a commit (an error, a full
    disk, a second Ctrl-C) removes the temporary files and leaves any older file untouched.

    Parquet schema metadata is read from the file's footer, which is written at the end:
    the writer stores no Arrow schema (it would fix the metadata when the file opens) and
    adds the pandas and rumsim keys at close, so ``pyarrow.parquet.read_table(path)``
    sees both, as in a saved file.
    """

    def __init__(self, path: str | Path, row_group: int | None = None):
        self.path = Path(path)
        self.suffix = check_output_path(self.path)
        self.row_group = max(1, int(ROW_GROUP if row_group is None else row_group))
        self.rows = 0  # rows written or waiting in the buffer
        self._pending: list[pd.DataFrame] = []
        self._pending_rows = 0
        self._writer = None  # ParquetWriter, or the CSV file
        self._schema = None
        self._atomic = (_atomic(self.path) if self.suffix == ".parquet"
                        else _atomic(self.path, meta_path(self.path)))
        self._tmps: tuple[str, ...] = ()
        self.committed = False

    def __enter__(self) -> RowWriter:
        tmps = self._atomic.__enter__()
        self._tmps = (tmps,) if isinstance(tmps, str) else tuple(tmps)
        return self

    def write(self, frame: pd.DataFrame) -> None:
        """Take one finished chunk of rows."""
        if self.committed:
            raise RuntimeError("rows written after the file was committed")
        self._pending.append(frame)
        self._pending_rows += len(frame)
        self.rows += len(frame)
        if self._pending_rows >= self.row_group:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        frame = (self._pending[0] if len(self._pending) == 1
                 else pd.concat(self._pending, ignore_index=True))
        self._pending, self._pending_rows = [], 0
        if self.suffix == ".parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(frame, preserve_index=False)
            if self._writer is None:
                self._schema = table.schema
                self._writer = pq.ParquetWriter(self._tmps[0], table.schema, store_schema=False)
            self._writer.write_table(table)
        else:
            if self._writer is None:
                self._writer = open(self._tmps[0], "w", encoding="utf-8", newline="")
                frame.to_csv(self._writer, index=False)
            else:
                frame.to_csv(self._writer, index=False, header=False)

    def commit(self, results: Results) -> Path:
        """Write what is buffered and the metadata, close, and rename into place. A run with
        no finished chunk writes its empty frame (the columns, no rows)."""
        if self._writer is None and not self._pending:
            self._pending.append(results.frame.iloc[:0])
        self._flush()
        meta_text = json.dumps(results.meta, default=_jsonable)
        writer, self._writer = self._writer, None
        if self.suffix == ".parquet":
            writer.add_key_value_metadata({**(self._schema.metadata or {}),
                                           META_KEY: meta_text.encode()})
            writer.close()
        else:
            writer.close()
            Path(self._tmps[1]).write_text(meta_text + "\n", encoding="utf-8")
        self._atomic.__exit__(None, None, None)  # renamed together, signals held
        self.committed = True
        return self.path

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.committed:
            return
        writer, self._writer = self._writer, None
        if writer is not None:
            try:
                writer.close()
            except Exception:  # a full disk fails the close too; the file goes anyway
                pass
        self._atomic.__exit__(exc_type or RuntimeError, exc, tb)  # removes the temporary files


def meta_path(path: Path) -> Path:
    """Where a CSV results file keeps its metadata: ``rows.csv`` -> ``rows.csv.meta.json``."""
    return path.with_name(path.name + ".meta.json")


def check_output_path(path: Path) -> str:
    """The format of an output path, or a UserError before any work is done."""
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise UserError(f"--out '{shown(path)}' must end in .parquet or .csv")
    parent = checked_folder(path)
    # the longest name written: a CSV's metadata sidecar
    longest = meta_path(path).name if suffix == ".csv" else path.name
    probe_writable(parent, longest, f"--out '{shown(path)}'")  # first: a name too long for
    check_not_folder_or_link(path)                        # the file system fails a look-up
    return suffix


def check_not_folder_or_link(path: Path) -> None:
    """Refuse an --out that is a folder, or a symbolic link: the file is written beside it and
    renamed over it, so a link would be replaced by a file, not written through; neither is
    what the user meant, so they are told before any game is played."""
    if path.is_symlink():
        raise UserError(f"--out '{shown(path)}' is a symbolic link; name the file it points to "
                        "(rumsim replaces the file it writes, so the link would be lost)")
    if path.is_dir():
        raise UserError(f"--out '{shown(path)}' is a folder, not a file")


def checked_folder(path: Path) -> Path:
    """The folder an output file goes into, or a UserError: it does not exist, or a part of
    the path cannot even be looked up (a folder name longer than the file system allows)."""
    parent = path.parent if str(path.parent) else Path(".")
    try:
        exists = parent.is_dir()
    except OSError as exc:
        raise UserError(f"--out '{shown(path)}': {exc.strerror or exc}") from None
    if not exists:
        raise UserError(f"--out '{shown(path)}': folder '{shown(parent)}' does not exist")
    return parent


def probe_writable(folder: Path, name: str, what: str) -> None:
    """Refuse, before any game is played, an output that could not be written: a name longer
    than the file system allows, or a folder where no file can be made (read-only, /proc)."""
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    if len(name.encode("utf-8", "replace")) > limit:
        raise UserError(f"{what}: the name is {len(name.encode('utf-8', 'replace'))} bytes; "
                        f"this file system allows {limit}")
    try:
        with deferred():  # a signal never leaves the probe behind
            fd, tmp = tempfile.mkstemp(prefix=".rumsim-probe-", dir=folder)
            os.close(fd)
            os.unlink(tmp)
    except OSError as exc:
        raise UserError(f"{what}: cannot write in '{folder}' ({exc.strerror or exc})") from None


def _umask() -> int:
    """The process umask (reading it means setting it; it is put back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class _atomic:
    """Context manager: yields a temporary path beside each of ``paths`` (one path: just it);
    renames them all over ``paths`` when the block succeeds, removes them when it fails or is
    interrupted. Naming and renaming run with the stop signals held (``deferred``), so a
    signal never leaves a temporary file behind or renames only some of the files."""

    def __init__(self, *paths: str | Path):
        self.paths = [Path(p) for p in paths]
        self.tmps: list[str] = []

    def __enter__(self):
        with deferred():
            try:
                for path in self.paths:
                    self.tmps.append(temp_beside(path))
            except BaseException:
                self._remove()
                raise
        return self.tmps[0] if len(self.tmps) == 1 else tuple(self.tmps)

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self._remove()
            return
        with deferred():
            try:
                # mkstemp makes the file 0600; a written file follows the umask like any other
                # tool's (a shared or web-served report folder must stay readable).
                mode = 0o666 & ~_umask()
                for tmp in self.tmps:
                    os.chmod(tmp, mode)
                for tmp, path in zip(self.tmps, self.paths, strict=True):
                    os.replace(tmp, path)
            except BaseException:
                self._remove()
                raise

    def _remove(self) -> None:
        for tmp in self.tmps:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write a text file atomically (temporary file, then rename)."""
    path = Path(path)
    with _atomic(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    path = Path(path)
    with _atomic(path) as tmp:
        Path(tmp).write_bytes(data)


def atomic_write_files(files: dict[Path, bytes]) -> None:
    """Write several files that belong together (a page and its tables): each to a temporary
    file beside it, then all renamed into place at once, so they are never from two writes."""
    with _atomic(*files) as tmps:
        for tmp, data in zip([tmps] if len(files) == 1 else tmps, files.values(), strict=True):
            Path(tmp).write_bytes(data)


def _jsonable(obj):
    if isinstance(obj, tuple):
        return list(obj)
    if hasattr(obj, "item"):
        return obj.item()
    return str(obj)
