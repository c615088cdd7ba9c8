"""A checkpoint block as data: a file that can be read without running any of its contents.

A block is whatever a run hands on per chunk: its rows (a DataFrame, or one per arm), or a
command's tally of them (objects of rumsim's own classes holding numbers and NumPy
arrays). Pickle could store all of that, but loading a pickle runs whatever code the file
names, so a planted block would run code on ``--resume``. Here a block is a NumPy ``.npz``
archive read with ``allow_pickle=False``: every array as itself, and one JSON skeleton
that says how the arrays and plain values nest (tuples, lists, dicts, DataFrames, Series,
NumPy scalars, and objects). An object is rebuilt only when its class is one of the few
tally classes that declare themselves storable (:func:`storable`, a fixed registry of exact
``module:qualname`` names): the class is looked up in that registry, never imported, and its
``__module__`` and ``__qualname__`` must be the name the file gives; its ``__new__`` is
object's, and its attributes are set without calling any of its code. (Before, any class of a
module under ``analyses.``/``simulate.``/... was rebuilt, and walking a qualname with
``getattr`` left rumsim's code: ``simulate.tempfiles:tempfile._TemporaryFileCloser``
passed the check, and its destructor deletes any file. Audit issue 36 item 11.)

The skeleton also carries a header (format, version, the run's fingerprint hash, the
block's index and games) and a SHA-256 of the skeleton and of every array's bytes, so a
block from another run or another place in this run, or a damaged one, is refused before
use (:class:`BlockError`).
"""

from __future__ import annotations

import hashlib
import io
import json
from typing import Any

import numpy as np
import pandas as pd

FORMAT, VERSION = "rumsim-block", 1
SKELETON = "skeleton"
# The classes a block may hold, by exact "module:qualname": each a tally of numbers and
# arrays, registered by the class itself (@storable), never by a file.
REGISTRY: dict[str, type] = {}
MAX_BYTES = 1 << 30  # a block's arrays, uncompressed: a tally is kilobytes, rows megabytes


def storable(cls: type) -> type:
    """Class decorator: objects of ``cls`` may be saved in a block and rebuilt from one (their
    attributes set without calling any of the class's code)."""
    if cls.__new__ is not object.__new__ or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__qualname__}: only plain classes with a __dict__ are storable")
    REGISTRY[f"{cls.__module__}:{cls.__qualname__}"] = cls
    return cls


class BlockError(ValueError):
    """A block file that is not what its run saved (damaged, foreign, or not a block)."""


# ---------------------------------------------------------------- encoding


class _Encoder:
    def __init__(self):
        self.arrays: list[np.ndarray] = []

    def array(self, a: np.ndarray) -> dict:
        if a.dtype.hasobject:
            return {"t": "olist", "v": [self.value(x) for x in a.tolist()], "shape": a.shape}
        self.arrays.append(np.ascontiguousarray(a))
        return {"t": "nd", "i": len(self.arrays) - 1}

    def value(self, obj) -> Any:
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, (int, float)) and type(obj) in (int, float):
            return {"t": "float", "v": repr(obj)} if isinstance(obj, float) else obj
        if isinstance(obj, np.generic):
            return {"t": "np", "dtype": obj.dtype.str, "v": self.value(obj.item())}
        if isinstance(obj, np.ndarray):
            return self.array(obj)
        if isinstance(obj, (list, tuple)):
            return {"t": type(obj).__name__, "v": [self.value(x) for x in obj]}
        if isinstance(obj, dict) and type(obj) is dict:
            return {"t": "dict", "k": [self.value(k) for k in obj],
                    "v": [self.value(v) for v in obj.values()]}
        if isinstance(obj, pd.DataFrame):
            return {"t": "frame", "columns": [self.value(c) for c in obj.columns],
                    "data": [self.series_values(obj[c]) for c in obj.columns],
                    "index": self.array(obj.index.to_numpy())}
        if isinstance(obj, pd.Series):
            return {"t": "series", "name": self.value(obj.name),
                    "data": self.series_values(obj), "index": self.array(obj.index.to_numpy())}
        return self.instance(obj)

    def series_values(self, s: pd.Series) -> dict:
        if isinstance(s.dtype, pd.CategoricalDtype):
            return {"t": "cat", "codes": self.array(s.cat.codes.to_numpy()),
                    "categories": self.value(list(s.cat.categories)),
                    "ordered": bool(s.cat.ordered)}
        return self.array(s.to_numpy())

    def instance(self, obj) -> dict:
        cls = type(obj)
        name = f"{cls.__module__}:{cls.__qualname__}"
        if REGISTRY.get(name) is not cls:
            raise TypeError(f"a block cannot hold {name} (not a storable tally class)")
        return {"t": "obj", "class": name,
                "state": self.value(dict(vars(obj)))}


# ---------------------------------------------------------------- decoding


class _Decoder:
    def __init__(self, arrays: dict[str, np.ndarray]):
        self.arrays = arrays

    def value(self, node) -> Any:
        if node is None or isinstance(node, (bool, str, int)):
            return node
        if not isinstance(node, dict) or "t" not in node:
            raise BlockError(f"unexpected {type(node).__name__} in the skeleton")
        t = node["t"]
        if t == "float":
            return float(node["v"])
        if t == "np":
            dtype = np.dtype(str(node["dtype"]))
            if dtype.kind not in "biuf" or dtype.itemsize > 8:
                raise BlockError(f"a scalar of type {dtype} in the skeleton")
            return dtype.type(self.value(node["v"]))
        if t == "nd":
            key = f"a{int(node['i'])}"
            if key not in self.arrays:
                raise BlockError(f"the skeleton names a missing array {key}")
            return self.arrays[key]
        if t == "olist":
            items = [self.value(x) for x in node["v"]]
            out = np.empty(len(items), dtype=object)
            out[:] = items
            return out.reshape([int(d) for d in node["shape"]])
        if t in ("list", "tuple"):
            items = [self.value(x) for x in node["v"]]
            return items if t == "list" else tuple(items)
        if t == "dict":
            return dict(zip((self.value(k) for k in node["k"]),
                            (self.value(v) for v in node["v"]), strict=True))
        if t == "frame":
            columns = [self.value(c) for c in node["columns"]]
            data = {i: self.series_values(d) for i, d in enumerate(node["data"])}
            frame = pd.DataFrame(data, index=pd.Index(self.value(node["index"])), copy=False)
            frame.columns = columns
            return frame
        if t == "series":
            return pd.Series(self.series_values(node["data"]),
                             index=pd.Index(self.value(node["index"])),
                             name=self.value(node["name"]))
        if t == "obj":
            return self.instance(node)
        raise BlockError(f"unknown kind {t!r} in the skeleton")

    def series_values(self, node):
        if isinstance(node, dict) and node.get("t") == "cat":
            return pd.Categorical.from_codes(self.value(node["codes"]),
                                             categories=self.value(node["categories"]),
                                             ordered=bool(node["ordered"]))
        return self.value(node)

    def instance(self, node) -> Any:
        name = node.get("class")
        cls = REGISTRY.get(name) if isinstance(name, str) else None
        if cls is None or f"{cls.__module__}:{cls.__qualname__}" != name \
                or cls.__new__ is not object.__new__:
            raise BlockError(f"it names {name!r}, which is not one of rumsim's storable tally "
                             "classes")
        state = self.value(node["state"])
        if not isinstance(state, dict):
            raise BlockError(f"the state of {node['class']} is not a mapping")
        obj = object.__new__(cls)
        obj.__dict__.update(state)   # no __setattr__, no __setstate__: none of its code runs
        return obj


# ---------------------------------------------------------------- files


def _digest(skeleton: bytes, arrays: list[np.ndarray]) -> str:
    h = hashlib.sha256(skeleton)
    for a in arrays:
        h.update(a.dtype.str.encode() + repr(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def dumps(obj, header: dict, compress: bool = False) -> bytes:
    """The block file's bytes: ``obj`` as arrays and a skeleton, under ``header``;
    ``compress``: deflated (a tally's skeleton shrinks about 4x; rows are left as they are,
    where compressing would cost more time than it saves)."""
    enc = _Encoder()
    body = json.dumps(enc.value(obj), allow_nan=False).encode()
    head = {"format": FORMAT, "version": VERSION, **header,
            "sha256": _digest(body, enc.arrays)}
    skeleton = json.dumps({"header": head, "body": body.decode()}).encode()
    buf = io.BytesIO()
    (np.savez_compressed if compress else np.savez)(
        buf, **{SKELETON: np.frombuffer(skeleton, dtype=np.uint8)},
        **{f"a{i}": a for i, a in enumerate(enc.arrays)})
    return buf.getvalue()


def loads(data: bytes, expect: dict) -> Any:
    """The object a block file holds, after checking its header against ``expect`` (the
    run's fingerprint hash, the block's index and games) and its checksum.

    Nothing is decompressed before the header is checked, and no array before its stored
    header (dtype and shape) is: a block whose arrays would take more than ``MAX_BYTES``, or
    hold objects, is refused unread (a small file can hold a huge compressed array)."""
    try:
        z = np.load(io.BytesIO(data), allow_pickle=False)
    except Exception as exc:  # a damaged zip or array: zipfile, numpy and OS errors alike
        raise BlockError(f"not a readable block ({type(exc).__name__}: {exc})") from None
    if not isinstance(z, np.lib.npyio.NpzFile):
        raise BlockError("not a rumsim block (not an archive of arrays)")
    with z:
        if SKELETON not in z.files:
            raise BlockError("not a rumsim block (no skeleton)")
        sizes = {name: _stored_size(z, name) for name in z.files}
        if sum(sizes.values()) > MAX_BYTES:
            raise BlockError(f"its arrays would take {sum(sizes.values()):,} bytes, more than a "
                             f"block holds ({MAX_BYTES:,})")
        try:
            raw = z[SKELETON]
        except Exception as exc:
            raise BlockError(f"its skeleton cannot be read ({type(exc).__name__})") from None
        if raw.dtype != np.uint8 or raw.ndim != 1:
            raise BlockError("not a rumsim block (no skeleton)")
        try:
            outer = json.loads(raw.tobytes())
            head, body = outer["header"], outer["body"].encode()
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            raise BlockError("its skeleton cannot be read") from None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise BlockError("not a rumsim block")
        if head.get("version") != VERSION:
            raise BlockError(f"a block of format version {head.get('version')}, not {VERSION}")
        for key, want in expect.items():
            if head.get(key) != want:
                raise BlockError(f"it was saved with {key} {json.dumps(head.get(key))}, not "
                                 f"{json.dumps(want)}")
        names = [n for n in z.files if n != SKELETON]
        if sorted(names) != sorted(f"a{i}" for i in range(len(names))):
            raise BlockError("it holds arrays its skeleton does not name")
        try:
            arrays = {n: z[n] for n in names}
        except Exception as exc:
            raise BlockError(f"an array cannot be read ({type(exc).__name__}: {exc})") from None
    order = [arrays[f"a{i}"] for i in range(len(arrays))]
    if head.get("sha256") != _digest(body, order):
        raise BlockError("its checksum does not match its contents")
    try:
        return _Decoder(arrays).value(json.loads(body))
    except BlockError:
        raise
    except (ValueError, KeyError, TypeError, IndexError, RecursionError) as exc:
        raise BlockError(f"its skeleton does not describe its arrays ({type(exc).__name__})"
                         ) from None


def _stored_size(z, name: str) -> int:
    """The bytes array ``name`` of an archive would take, from its stored header alone (no
    data read); a header that cannot be read, or an array of objects, is refused."""
    try:
        with z.zip.open(f"{name}.npy") as fh:
            major, _ = np.lib.format.read_magic(fh)
            read = (np.lib.format.read_array_header_1_0 if major == 1
                    else np.lib.format.read_array_header_2_0)
            shape, _, dtype = read(fh)
    except Exception as exc:
        raise BlockError(f"array {name} has no readable header ({type(exc).__name__})") from None
    if dtype.hasobject:
        raise BlockError(f"array {name} holds objects")
    if any(int(d) < 0 for d in shape):  # numpy's header reader lets one through, and its
        raise BlockError(f"array {name} has a negative dimension")  # size cancels a huge one's
    count = 1
    for d in shape:
        count *= int(d)
    return count * dtype.itemsize


def check_finite(obj, depth: int = 0) -> None:
    """Refuse a decoded block holding a NaN or an infinity (a tally of games holds neither):
    a forged block with its hashes recomputed must not slip a NaN into an answer."""
    if depth > 64:
        raise BlockError("nested too deeply")
    if isinstance(obj, float) or isinstance(obj, np.floating):
        if not np.isfinite(obj):
            raise BlockError(f"it holds {obj}, which no tally of games holds")
    elif isinstance(obj, np.ndarray):
        if obj.dtype.kind in "fc" and not np.isfinite(obj).all():
            raise BlockError("it holds an array with NaN or infinite values")
        if obj.dtype.hasobject:
            for x in obj.ravel():
                check_finite(x, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            check_finite(x, depth + 1)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            check_finite(k, depth + 1)
            check_finite(v, depth + 1)
    elif isinstance(obj, pd.DataFrame):
        check_finite(obj.select_dtypes("number").to_numpy(dtype=float), depth + 1)
    elif hasattr(obj, "__dict__") and type(obj) in REGISTRY.values():
        check_finite(vars(obj), depth + 1)
