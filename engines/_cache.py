"""Numba's on-disk cache of the engines, made stale by any source it was compiled from.

Numba keeps a compiled function next to its source file and reuses it while
that one file is unchanged. But a fast path is compiled from more than one
file: its ``engine.py`` reads the rule indices ``R`` derived in ``rules.py``,
the policy columns declared in ``__init__.py``, and inlines ``engines._rng``
and the driver of ``engines._fast``. Adding a rule option would shift every
index while the cache kept the old ones: silently wrong games. So here a
function's freshness is a hash of every source its code can come from: all
``*.py`` files of its own game folder and the shared ``engines/_*.py``.
Editing any of them recompiles that game (and only that game, unless a
shared file changed).

This plugs into Numba's cache locators (``numba.core.caching``), which the
project's pinned Numba range provides; ``install`` is called once, from
``engines/__init__.py``, before any engine is compiled.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ENGINES = Path(__file__).resolve().parent


def sources(py_file: str | Path) -> list[Path]:
    """The files whose change must recompile a function defined in ``py_file``."""
    path = Path(py_file).resolve()
    shared = sorted(ENGINES.glob("_*.py"))
    if path.parent == ENGINES:
        return shared
    return shared + sorted(path.parent.glob("*.py"))


def stamp(py_file: str | Path) -> str:
    """A hash of the contents of :func:`sources` (names included)."""
    files = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in sources(py_file))
    return _hash(files)


@functools.cache
def _hash(files: tuple) -> str:
    # keyed by (path, mtime, size), so a file edited while the process runs is hashed anew
    h = hashlib.sha256()
    for name, _, _ in files:
        h.update(Path(name).relative_to(ENGINES).as_posix().encode())
        h.update(Path(name).read_bytes())
    return h.hexdigest()


def install() -> None:
    """Put the engines' locators first in Numba's list (idempotent)."""
    from numba.core import caching

    class TreeStamp:
        """Freshness of the whole set of sources, for functions under ``engines/``."""

        @classmethod
        def from_function(cls, py_func, py_file):
            if not Path(py_file).resolve().is_relative_to(ENGINES):
                return None
            return super().from_function(py_func, py_file)

        def get_source_stamp(self):
            return stamp(self._py_file)

    class UserDirTree(TreeStamp, caching.UserProvidedCacheLocator):
        """NUMBA_CACHE_DIR, when the user set it."""

    class InTree(TreeStamp, caching.InTreeCacheLocator):
        """``__pycache__`` beside the source, as Numba does by default."""

    impl = caching.CacheImpl
    if any(getattr(c, "_rumsim", False) for c in impl._locator_classes):
        return
    for cls in (UserDirTree, InTree):
        cls._rumsim = True
    impl._locator_classes = [UserDirTree, InTree, *impl._locator_classes]
