"""A run store folder is data: what a careless or hostile user can put there.

A block is used only when it is the registered file of its question and range, and holds
numbers of rumsim's storable tallies: a planted file is ignored, a block of another question
or another range, a damaged one, a link, a forged one naming a class outside the registry,
holding a NaN, a decompression bomb or a skeleton nested too deep is said in one line,
dropped and played again (never used: the answer is a clean run's), and no file outside the
store is read, written or deleted. A registry that is not one is one line and exit 2.
"""

from __future__ import annotations

import gc
import hashlib
import io
import json
import os
import shutil
import sqlite3
import struct
import zipfile
import zlib
from contextlib import closing
from pathlib import Path

import numpy as np
import pytest
from clitools import run_cli
from test_store import CHEAP, CHUNK, SAID, play, registry

import simulate.store as store_module
from simulate import codec

N = 3 * CHUNK  # three blocks: (0, 500), (500, 500), (1000, 500)


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    """A store holding N games of seed 0 and N of seed 1 (another question); their keys."""
    root = tmp_path_factory.mktemp("original") / "store"
    keys = [play(root, N, seed=seed)[1]["store"]["key"] for seed in (0, 1)]
    return root, keys


@pytest.fixture(scope="module")
def clean():
    """The answer of a run of n games of seed 0 with no store."""
    cache: dict[int, tuple] = {}

    def get(n: int):
        if n not in cache:
            cache[n] = play(None, n)[0]
        return cache[n]
    return get


@pytest.fixture
def store(original, tmp_path) -> tuple[Path, str, str]:
    """A copy of the original store for one test: (root, seed 0's key, seed 1's key)."""
    root = tmp_path / "store"
    shutil.copytree(original[0], root, symlinks=True)
    return root, *original[1]


def block(root: Path, key: str, first: int) -> Path:
    return root / "blocks" / key[:2] / key / f"{first}-{CHUNK}.npz"


def register(root: Path, key: str, first: int) -> None:
    """Make the registry's SHA-256 of a block the file's, so that only the content checks
    stand between whatever the file now holds and the answer."""
    sha = hashlib.sha256(block(root, key, first).read_bytes()).hexdigest()
    with closing(sqlite3.connect(root / store_module.REGISTRY)) as conn, conn:
        changed = conn.execute("UPDATE blocks SET sha256 = ? WHERE key = ? AND first = ?",
                               (sha, key, first)).rowcount
    assert changed == 1


def replay(capsys, root: Path, clean, n: int = N, stored: int = N) -> list[str]:
    """Play ``n`` games of seed 0 again with the store: the answer must be a clean run's, with
    ``stored`` games taken from the store; the lines saying a block was dropped."""
    capsys.readouterr()
    got, meta = play(root, n)
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    assert got == clean(n), "a bad block reached the answer"
    assert meta["store"]["from_store"] == stored, err
    lines = [line for line in err.splitlines() if "is damaged" in line]
    assert all(line.startswith("run store: block ") and line.endswith("playing it again")
               for line in lines)
    return lines


def one_line(code: int, out: str, err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith("rumsim: error: ") and all(w in lines[0] for w in words), err


# ---------------------------------------------------------------- files where blocks are


@pytest.mark.parametrize("planted", ["garbage", "a copy of block 0", "a link"])
def test_a_planted_file_where_a_block_would_be_is_ignored(capsys, tmp_path, store, clean,
                                                         planted):
    root, key, _ = store
    victim = tmp_path / "victim"
    victim.write_bytes(b"keep me")
    target = block(root, key, N)           # games 1500..1999: not registered
    if planted == "garbage":
        target.write_bytes(os.urandom(3000))
    elif planted == "a link":
        target.symlink_to(victim)
    else:
        shutil.copyfile(block(root, key, 0), target)
    assert replay(capsys, root, clean, n=N + CHUNK, stored=N) == []
    assert victim.read_bytes() == b"keep me"
    assert not target.is_symlink()         # replaced by the block played, and registered
    assert (key, N, CHUNK, hashlib.sha256(target.read_bytes()).hexdigest()) in registry(root)


def test_a_block_of_another_question_is_dropped_and_replayed(capsys, store, clean):
    root, key, other = store
    shutil.copyfile(block(root, other, CHUNK), block(root, key, CHUNK))
    register(root, key, CHUNK)
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    assert len(lines) == 1 and "500..999" in lines[0] and f'key "{other}"' in lines[0]
    assert replay(capsys, root, clean) == []     # played again, and stored right


@pytest.mark.parametrize("registered", [False, True], ids=["sha as saved", "sha updated"])
def test_swapped_blocks_are_dropped_and_replayed(capsys, store, clean, registered):
    root, key, _ = store
    a, b = block(root, key, 0), block(root, key, CHUNK)
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)
    if registered:
        register(root, key, 0)
        register(root, key, CHUNK)
    lines = replay(capsys, root, clean, stored=N - 2 * CHUNK)
    assert len(lines) == 2
    why = "saved with games" if registered else "SHA-256 is not the registry's"
    assert all(why in line for line in lines), lines


def middle_of(data: bytes, member: str) -> int:
    """Where the middle of ``member``'s data is in zip archive ``data`` (as stored: deflated
    or not)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        info = z.getinfo(member)
    at = info.header_offset
    name, extra = struct.unpack("<2H", data[at + 26:at + 30])   # the local header's lengths
    return at + 30 + name + extra + info.compress_size // 2


@pytest.mark.parametrize("registered", [False, True], ids=["sha as saved", "sha updated"])
@pytest.mark.parametrize("damage", ["flipped bytes", "truncated", "garbage", "empty"])
def test_a_damaged_block_is_dropped_and_replayed(capsys, store, clean, damage, registered):
    root, key, _ = store
    path = block(root, key, CHUNK)
    data = path.read_bytes()
    if damage == "flipped bytes":      # in the skeleton's data: its zip CRC no longer matches
        at = middle_of(data, f"{codec.SKELETON}.npy")
        data = data[:at] + bytes(x ^ 0x55 for x in data[at:at + 8]) + data[at + 8:]
    else:
        data = {"truncated": data[:len(data) // 2], "garbage": os.urandom(len(data)),
                "empty": b""}[damage]
    path.write_bytes(data)
    if registered:
        register(root, key, CHUNK)
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    assert len(lines) == 1 and "500..999" in lines[0]


def test_a_damaged_block_before_a_missing_one(capsys, store, clean):
    """The block played again in place of a damaged one is not also played in place of the
    next missing block (which would count its games twice, never the other's, and store
    them under the other's range)."""
    root, key, _ = store
    block(root, key, CHUNK).write_bytes(b"damaged")
    lines = replay(capsys, root, clean, n=N + CHUNK, stored=N - CHUNK)
    assert len(lines) == 1 and "500..999" in lines[0]
    assert replay(capsys, root, clean, n=N + CHUNK, stored=N + CHUNK) == []


def test_a_block_replaced_by_a_link_is_never_followed(capsys, tmp_path, store, clean):
    root, key, _ = store
    path = block(root, key, CHUNK)
    victim = tmp_path / "elsewhere.npz"
    shutil.move(path, victim)                  # the very bytes registered, behind a link
    path.symlink_to(victim)
    before = victim.read_bytes()
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    assert len(lines) == 1 and "not a regular file" in lines[0]
    assert victim.read_bytes() == before and not path.is_symlink()


def test_a_block_replaced_by_a_fifo_is_not_waited_for(capsys, store, clean):
    root, key, _ = store
    path = block(root, key, CHUNK)
    path.unlink()
    os.mkfifo(path)
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    assert len(lines) == 1 and "not a regular file" in lines[0]


def test_a_huge_planted_file_is_not_read(capsys, store, clean):
    root, key, _ = store
    path = block(root, key, CHUNK)
    with open(path, "r+b") as fh:              # sparse: takes no disk, and must take no memory
        fh.truncate(codec.MAX_BYTES + 1)
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    assert len(lines) == 1 and "larger than any block" in lines[0]


# ---------------------------------------------------------------- forged blocks


def forge(data: bytes, edit) -> bytes:
    """Block ``data`` with its skeleton's body (JSON text) and arrays edited by
    ``edit(body, arrays) -> (body, arrays)`` and the header's SHA-256 recomputed: a
    self-consistent forgery, as the codec writes one."""
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        arrays = {name: z[name] for name in z.files}
    outer = json.loads(arrays.pop(codec.SKELETON).tobytes())
    body, arrays = edit(outer["body"], arrays)
    order = [arrays[f"a{i}"] for i in range(len(arrays))]
    outer["header"]["sha256"] = codec._digest(body.encode(), order)
    outer["body"] = body
    skeleton = np.frombuffer(json.dumps(outer).encode(), dtype=np.uint8)
    buf = io.BytesIO()
    np.savez(buf, **{codec.SKELETON: skeleton}, **arrays)
    return buf.getvalue()


def plant(root: Path, key: str, edit, first: int = CHUNK) -> None:
    """Replace a stored block by its forgery, registered under its new SHA-256."""
    path = block(root, key, first)
    path.write_bytes(forge(path.read_bytes(), edit))
    register(root, key, first)


def attribute(body: dict, name: str, tally: int = 0) -> tuple[dict, int]:
    """The state node of one of the block's tallies and where attribute ``name`` is in it."""
    state = body["v"][tally]["state"]
    assert body["v"][tally]["class"] == "analyses.seats:SeatTally"
    return state, state["k"].index(name)


def test_a_forgery_is_refused_only_by_its_contents(capsys, store, clean):
    """The forging itself changes nothing: an unedited forgery is used as the block."""
    root, key, _ = store
    plant(root, key, lambda body, arrays: (body, arrays))
    assert replay(capsys, root, clean) == []


@pytest.mark.parametrize("name", ["simulate.tempfiles:tempfile._TemporaryFileCloser",
                                  "json:JSONDecoder", "builtins:object",
                                  "analyses.seats:SeatTally.__init__.__globals__",
                                  "analyses.seats:np.lib.npyio.DataSource"])
def test_a_forged_block_naming_another_class_is_refused(capsys, tmp_path, store, clean, name):
    root, key, _ = store
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    state = {"t": "dict", "k": ["file", "name", "delete", "close_called"],
             "v": [{"t": "list", "v": []}, str(victim), True, False]}

    def edit(body, arrays):
        body = json.loads(body)
        body["v"][0] = {"t": "obj", "class": name, "state": state}
        return json.dumps(body), arrays
    plant(root, key, edit)
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    gc.collect()                      # a _TemporaryFileCloser built would delete it now
    assert victim.read_text() == "keep me"
    assert len(lines) == 1 and repr(name) in lines[0] and "not one of rumsim's" in lines[0]


@pytest.mark.parametrize("where", ["an array", "a number"])
def test_a_nan_in_a_forged_block_is_refused(capsys, store, clean, where):
    root, key, _ = store

    def edit(body, arrays):
        body = json.loads(body)
        if where == "an array":        # squares: no count bounds them, only check_finite
            state, i = attribute(body, "squares")
            name = f"a{state['v'][i]['i']}"
            arrays[name] = arrays[name].copy()
            arrays[name][0] = np.nan
        else:
            state, i = attribute(body, "confidence")
            state["v"][i] = {"t": "float", "v": "nan"}
        return json.dumps(body), arrays
    plant(root, key, edit)
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    assert len(lines) == 1 and ("NaN" in lines[0] or "nan" in lines[0]), lines


@pytest.mark.parametrize("part", ["body", "header"])
def test_a_skeleton_nested_100000_deep_is_refused(capsys, store, clean, part):
    root, key, _ = store
    deep = 100_000
    path = block(root, key, CHUNK)
    if part == "body":
        nested = '{"t": "list", "v": [' * deep + "]}" * deep
        path.write_bytes(forge(path.read_bytes(), lambda body, arrays: (nested, arrays)))
    else:
        with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
        outer = json.loads(arrays.pop(codec.SKELETON).tobytes())
        outer["header"]["deep"] = "DEEP"
        text = json.dumps(outer).replace('"DEEP"', "[" * deep + "]" * deep)
        buf = io.BytesIO()
        np.savez(buf, **{codec.SKELETON: np.frombuffer(text.encode(), np.uint8)}, **arrays)
        path.write_bytes(buf.getvalue())
    register(root, key, CHUNK)
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    assert len(lines) == 1 and "skeleton" in lines[0]


# ---------------------------------------------------------------- decompression bombs


def npy_header(shape: tuple[int, ...]) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False,
                                               "shape": shape})
    return buf.getvalue()


def zip_of(entries: list[tuple[str, bytes, int, int, int]]) -> bytes:
    """A zip archive of (name, payload as stored, method, CRC-32, size) entries, written by
    hand so that a payload can be deflated data made without inflating it."""
    out, central = io.BytesIO(), []
    for name, payload, method, crc, size in entries:
        offset, raw = out.tell(), name.encode()
        out.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, method, 0, 0x21, crc,
                              len(payload), size, len(raw), 0) + raw + payload)
        central.append(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, method, 0, 0x21,
                                   crc, len(payload), size, len(raw), 0, 0, 0, 0, 0, offset)
                       + raw)
    start, directory = out.tell(), b"".join(central)
    out.write(directory + struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(entries),
                                      len(entries), len(directory), start, 0))
    return out.getvalue()


ZEROS = 90 * (1 << 21)   # float64 zeros: 1.5 GB declared


@pytest.fixture(scope="module")
def zeros_npy() -> tuple[bytes, int, int]:
    """A .npy of ZEROS float64 zeros, deflated (about 1.5 MB): (payload, CRC-32, size). A
    16 MiB piece compressed between full flushes is repeated, never the 1.5 GB inflated."""
    header, chunk = npy_header((ZEROS,)), bytes(1 << 24)
    pieces = ZEROS * 8 // len(chunk)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = c.compress(header) + c.flush(zlib.Z_FULL_FLUSH)
    piece = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
    payload = start + piece * pieces + c.flush(zlib.Z_FINISH)
    crc = zlib.crc32(header)
    for _ in range(pieces):
        crc = zlib.crc32(chunk, crc)
    return payload, crc, len(header) + pieces * len(chunk)


def bomb(data: bytes, zeros_npy, negative: bool) -> bytes:
    """Block ``data`` with one more array: ZEROS deflated zeros, and with ``negative`` one
    more whose negative size cancels theirs in a sum of sizes."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        entries = [(n, z.read(n), zipfile.ZIP_STORED, z.getinfo(n).CRC, z.getinfo(n).file_size)
                   for n in z.namelist()]
    k = len(entries) - 1
    entries.append((f"a{k}.npy", zeros_npy[0], zipfile.ZIP_DEFLATED, *zeros_npy[1:]))
    if negative:
        header = npy_header((-ZEROS,))
        entries.append((f"a{k + 1}.npy", header, zipfile.ZIP_STORED, zlib.crc32(header),
                        len(header)))
    return zip_of(entries)


@pytest.mark.parametrize("negative", [False, True], ids=["1.5 GB", "1.5 GB and -1.5 GB"])
def test_a_decompression_bomb_is_refused_unread(capsys, monkeypatch, store, clean, zeros_npy,
                                                negative):
    root, key, _ = store
    path = block(root, key, CHUNK)
    data = bomb(path.read_bytes(), zeros_npy, negative)
    assert len(data) < 4 << 20
    with zipfile.ZipFile(io.BytesIO(data)) as z:   # the bomb is real: 1.5 GB once inflated
        assert sum(i.file_size for i in z.infolist() if i.file_size > 0) > codec.MAX_BYTES
    why = "negative dimension" if negative else "more than a block holds"
    read = []
    with monkeypatch.context() as m:               # no array of it is ever read
        m.setattr(np.lib.format, "read_array", lambda *a, **k: read.append(a) or 1 / 0)
        with pytest.raises(codec.BlockError, match=why):
            codec.loads(data, {"key": key, "games": [CHUNK, CHUNK]})
    assert read == []
    path.write_bytes(data)
    register(root, key, CHUNK)
    lines = replay(capsys, root, clean, stored=N - CHUNK)
    assert len(lines) == 1 and why in lines[0]


# ---------------------------------------------------------------- the registry and folders


def foreign_registry(path: Path, table: str) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(f"CREATE TABLE {table} (x)")


@pytest.mark.parametrize("registry_file", ["garbage", "text", "another program's sqlite",
                                           "another program's blocks table", "a link",
                                           "a dangling link"])
def test_a_registry_that_is_not_one_is_one_line(capsys, tmp_path, original, registry_file):
    root = tmp_path / "store"
    root.mkdir()
    db = root / store_module.REGISTRY
    if registry_file == "garbage":
        db.write_bytes(os.urandom(8192))
    elif registry_file == "text":
        db.write_text("SQLite format 3 is what this is not\n" * 100)
    elif registry_file.startswith("another program"):
        foreign_registry(db, "blocks" if "blocks" in registry_file else "settings")
    elif registry_file == "a link":
        db.symlink_to(original[0] / store_module.REGISTRY)
    else:
        db.symlink_to(tmp_path / "nothing")
    before = db.read_bytes() if db.exists() else None
    code, out, err = run_cli(capsys, "seats", CHEAP[0], "-p", "2", "-n", "1000", "-q",
                             "--store", str(root))
    one_line(code, out, err, str(root), store_module.REGISTRY)
    if "blocks table" not in registry_file:   # (a table named as ours gets ours beside it)
        assert (db.read_bytes() if db.exists() else None) == before
    assert sorted(p.name for p in root.iterdir()) == [store_module.REGISTRY]


def test_a_registry_row_that_names_no_range_is_ignored(capsys, store, clean):
    root, key, _ = store
    with closing(sqlite3.connect(root / store_module.REGISTRY)) as conn, conn:
        conn.execute("UPDATE blocks SET first = 'x' WHERE key = ? AND first = ?", (key, CHUNK))
    assert replay(capsys, root, clean, stored=N - CHUNK) == []


def test_a_blocks_folder_linked_outside_is_never_written(capsys, tmp_path, clean):
    root, outside = tmp_path / "store", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "blocks").symlink_to(outside)
    capsys.readouterr()
    got, meta = play(root, N)
    err = capsys.readouterr().err
    assert err.count(SAID) == 1 and "is a link" in err
    assert got == clean(N) and meta["store"]["saved"] == 0
    assert list(outside.iterdir()) == [] and registry(root) == []


def test_blocks_behind_a_linked_folder_are_never_read_nor_deleted(capsys, tmp_path, store,
                                                                  clean):
    root, key, _ = store
    outside = tmp_path / "outside"
    shutil.move(root / "blocks", outside)
    (root / "blocks").symlink_to(outside)
    damaged = outside / key[:2] / key / f"{CHUNK}-{CHUNK}.npz"
    damaged.write_bytes(damaged.read_bytes()[:100])      # what a drop would delete
    files = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    lines = replay(capsys, root, clean, stored=0)
    assert len(lines) == 3 and all("is a link" in line for line in lines)
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == files
