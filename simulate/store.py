"""The run store: every finished block of every answer, kept under the question it answers.

A game is a pure function of (seed, game index), so two runs that ask the same *question*
(the same game, rules, seating of policies with every parameter value, player count, seed
stream, backend and tally, played by the same engine code) play the same games: a block of
game indices one of them finished is the other's too, bit for bit. The store keeps each
finished block of a storable tally (``part.store_version``; rows are never stored) under
its question's key and its game range, and a later run of the same question takes those
blocks and plays only the ranges it lacks (``simulate.runner``). The answer is the one an
uninterrupted run gives: the same blocks, merged in the same order.

On disk, under one folder (``RUMSIM_STORE``, ``--store PATH``; default
``$XDG_CACHE_HOME/rumsim/store``, i.e. ``~/.cache/rumsim/store``):

* ``registry.sqlite``: the questions (key, game, the question as JSON, the engine
  fingerprint, the tally's description as a codec blob so a block can be replayed) and
  the blocks (key, first game, games, SHA-256 of the file, size, when, by which command);
* ``blocks/<kk>/<key>/<first>-<games>.npz``: a block as ``simulate.codec`` data (arrays and
  named numbers of a fixed registry of tally classes; no file ever names a class to build).

The *engine fingerprint* in the key is a hash of the sources that play the game: every
``*.py`` of its game folder and the shared ``engines/_*.py`` (``engines._cache``). A hash of
a fixed replay would miss a change that only shows in rare positions; a source hash cannot
miss one, at the cost of also invalidating evidence for a change that alters no game (a
comment): ``make evidence`` then plays it again. Trained sets enter by their values (every
seat's full parameter row is in the key).

A block is trusted for nothing beyond its key and hash: its file's SHA-256 must be the
registry's, its header must name its key and range, its contents must be numbers of the
registered classes, and the part checks what it can of them (``part.verify``: the games
counted, the shapes). A block that fails any of this is said in one line, dropped and played
again. Paths are made from the key and the range, never read from the registry, and never
through a link. Two processes adding the same block write the same bytes under the same name
(a rename is atomic) and the registry keeps one row per (key, range), so nothing is counted
twice. A store that cannot be written (read-only, full) is said once; the run goes on.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate import codec
from simulate.errors import UserError

ENV = "RUMSIM_STORE"
OFF = ("off", "none", "no", "0")
REGISTRY = "registry.sqlite"
BLOCKS = "blocks"
SCHEMA = 1

_TABLES = """
CREATE TABLE IF NOT EXISTS questions (
    key TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL, question TEXT NOT NULL,
    engine TEXT NOT NULL, part BLOB, created REAL NOT NULL, used REAL NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (
    key TEXT NOT NULL, first INTEGER NOT NULL, games INTEGER NOT NULL, sha256 TEXT NOT NULL,
    bytes INTEGER NOT NULL, made REAL NOT NULL, command TEXT, seconds REAL, origin TEXT,
    PRIMARY KEY (key, first, games));
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT);
"""


def default_root() -> Path:
    """Where the store is when nothing says otherwise."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "rumsim" / "store"


def from_environment(path: str | Path | None = None, off: bool = False) -> Store | None:
    """The store a command uses: ``--no-store`` none, ``--store PATH`` that one, else
    ``RUMSIM_STORE`` (``off`` for none), else the default folder."""
    if off:
        return None
    if path is None:
        env = os.environ.get(ENV)
        if env is not None and env.strip().lower() in OFF:
            return None
        path = env if env else default_root()
    return Store(Path(path).expanduser())


def command_line() -> str:
    """The command this process was started with, as a user would type it."""
    argv = list(sys.argv)
    if argv and argv[0].endswith(("rumsim", "__main__.py")):
        argv[0] = "rumsim"
    return " ".join(argv)[:2000]


# ---------------------------------------------------------------- questions


def engine_fingerprint(info) -> str:
    """A hash of every source file that plays ``info``'s games (module docstring)."""
    import importlib.util

    from engines import _cache

    engine = Path(importlib.util.find_spec(f"{info.package}.engine").origin)
    files = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size)
                  for p in _cache.sources(engine))
    return _cache._hash(files)[:24]


def _seat(policy) -> dict:
    """One seat's policy as the games see it: its name, every parameter value (so a trained
    set is named by its values), its restriction and, for a search, its base."""
    out = {"policy": policy.spec.name, "values": [repr(float(v)) for v in policy.values],
           "label": policy.label()}
    if policy.base is not None:
        out["base"] = _seat(policy.base)
    return out


def question_of(job, info) -> dict:
    """What a run's games answer (everything but the game range): the store's key is its
    hash."""
    from simulate.runner import VERSION

    arms = job.arms
    return {
        "game": job.game, "players": int(job.players),
        "rules": [_plain(r.to_dict()) for r, _ in arms],
        "seatings": [[_seat(p) for p in seating] for _, seating in arms],
        "seed": int(job.seed), "backend": job.backend,
        "tally": describe_tally(job.part), "tally_version": int(job.part.store_version),
        "engine": engine_fingerprint(info), "rumsim": VERSION,
    }


def describe_tally(part) -> str:
    from simulate.blocks import describe_part

    return describe_part(part)


def storable(part) -> bool:
    """Whether a run reduced by ``part`` may be stored: a tally that declares a store version
    (its size does not grow with the games). Rows never are."""
    return part is not None and getattr(part, "store_version", None) is not None


def key_of(question: dict) -> str:
    return hashlib.sha256(json.dumps(question, sort_keys=True).encode()).hexdigest()[:32]


def _plain(obj):
    return json.loads(json.dumps(obj, default=lambda x: list(x) if isinstance(x, tuple)
                                 else str(x)))


# ---------------------------------------------------------------- the store


def _check_tables(conn: sqlite3.Connection) -> None:
    """Every column the store reads is there: a registry.sqlite of another program (or a
    damaged one) is then one sqlite3 error when it is opened, not a traceback later."""
    conn.execute("SELECT key, game, players, question, engine, part, created, used "
                 "FROM questions LIMIT 0")
    conn.execute("SELECT key, first, games, sha256, bytes, made, command, seconds, origin "
                 "FROM blocks LIMIT 0")


class Store:
    """One store folder. Opened lazily: nothing is created until a run saves a block."""

    def __init__(self, root: Path, readonly: bool = False, origin: str = "played",
                 name: str | None = None):
        self.root = Path(root)
        # a shipped evidence pack is read, never written (nor its registry's journal)
        self.disabled: str | None = "is read-only" if readonly else None
        self._db: sqlite3.Connection | None = None
        self.readonly = readonly
        self.origin = origin  # what saved blocks say of where they came from
        self.name = name or f"the run store ({self.root})"

    def __repr__(self) -> str:
        return f"Store({str(self.root)!r})"

    # -------------------------------------------------------- opening

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        if self._db is not None:
            return self._db
        db = self.root / REGISTRY
        if self.readonly:
            if db.is_symlink() or not db.is_file():
                return None
            try:
                conn = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)
                _check_tables(conn)
            except sqlite3.Error as exc:
                raise UserError(f"{self.name}: {REGISTRY} cannot be read ({exc})") from None
            self._db = conn
            return conn
        if db.is_symlink():
            raise UserError(f"run store {self.root}: {REGISTRY} is a link; give a store folder "
                            "of rumsim's own (--store PATH)")
        if not db.exists():
            if not create:
                return None
            try:
                self._real_folder(self.root, make=True)
            except OSError as exc:
                self._disable(f"cannot be created ({exc.strerror or exc})")
                return None
        try:
            conn = sqlite3.connect(str(db), timeout=60, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = 60000")
            tables = {t for (t,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables - {"questions", "blocks", "meta"}:  # another program's: never written
                conn.close()
                raise UserError(f"run store {self.root}: {REGISTRY} is not a rumsim registry "
                                "(it holds tables of another program); give another --store "
                                "folder or --no-store")
            conn.executescript(_TABLES)
            row = conn.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()
            if row is None:
                conn.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            elif row[0] != str(SCHEMA):
                raise UserError(f"run store {self.root} has schema {row[0]}, not {SCHEMA}; "
                                "give another --store folder")
            _check_tables(conn)
        except sqlite3.OperationalError as exc:
            if "readonly" in str(exc) or "read-only" in str(exc) or "unable to open" in str(exc):
                try:  # a store we may read but not write: take its blocks, add none
                    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=60)
                    _check_tables(conn)
                except sqlite3.Error:
                    self._disable(f"cannot be opened ({exc})")
                    return None
                self.readonly = True
                self._disable("is read-only")
            else:
                raise UserError(f"run store {self.root}: {REGISTRY} cannot be read ({exc}); "
                                "give another --store folder or --no-store") from None
        except sqlite3.DatabaseError as exc:
            raise UserError(f"run store {self.root}: {REGISTRY} is not a rumsim registry "
                            f"({exc}); give another --store folder or --no-store") from None
        self._db = conn
        return conn

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _disable(self, why: str) -> None:
        """Say once that nothing more is stored, and why; the run goes on."""
        if self.disabled is None:
            self.disabled = why
            print(f"run store {self.root} {why}: going on without storing", file=sys.stderr,
                  flush=True)

    def _real_folder(self, folder: Path, make: bool) -> Path:
        """``folder`` inside the store, each part a real folder, never a link (so nothing is
        written outside the place the user named)."""
        root = self.root
        if root.is_symlink() and not root.resolve().is_dir():
            raise OSError(f"{root} is a link to nothing")
        if make:
            root.mkdir(parents=True, exist_ok=True)
        rel = folder.relative_to(root)
        at = root
        for part in rel.parts:
            at = at / part
            if at.is_symlink():
                raise OSError(f"{at} is a link")
            if make:
                at.mkdir(exist_ok=True)
        return at

    def block_path(self, key: str, first: int, games: int) -> Path:
        return self.root / BLOCKS / key[:2] / key / f"{int(first)}-{int(games)}.npz"

    # -------------------------------------------------------- a run's question

    def pool(self, job, info) -> Pool | None:
        """The stored blocks of ``job``'s question, or None when its tally is not storable
        or the store cannot be read."""
        if not storable(job.part):
            return None
        question = question_of(job, info)
        return Pool(self, key_of(question), question, job.part)

    def ranges(self, key: str) -> dict[tuple[int, int], str]:
        """(first, games) -> SHA-256 of every block stored under ``key``."""
        conn = self._connect(create=False)
        if conn is None:
            return {}
        # a row whose range is not whole numbers (an edited registry) names no block
        rows = conn.execute("SELECT first, games, sha256 FROM blocks WHERE key = ? AND "
                            "typeof(first) = 'integer' AND typeof(games) = 'integer'", (key,))
        return {(int(a), int(b)): str(h) for a, b, h in rows}

    def save(self, pool: Pool, first: int, games: int, result: Any,
             seconds: float | None) -> bool:
        """Store one finished block (False when the store cannot be written)."""
        if self.disabled is not None:
            return False
        conn = self._connect(create=True)
        if conn is None or self.disabled is not None:
            return False
        from simulate.checkpoint import _atomic_write

        path = self.block_path(pool.key, first, games)
        try:
            data = codec.dumps(result, pool.header(first, games), compress=True)
            self._real_folder(path.parent, make=True)
            _atomic_write(path, data)
            now = time.time()
            conn.execute("INSERT OR IGNORE INTO questions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (pool.key, pool.question["game"], pool.question["players"],
                          json.dumps(pool.question, sort_keys=True), pool.question["engine"],
                          pool.part_blob(), now, now))
            conn.execute("INSERT OR REPLACE INTO blocks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (pool.key, int(first), int(games), hashlib.sha256(data).hexdigest(),
                          len(data), now, command_line(), seconds, self.origin))
        except (OSError, sqlite3.Error) as exc:
            self._disable(f"cannot be written ({getattr(exc, 'strerror', None) or exc})")
            return False
        except TypeError as exc:  # a tally holding something a block cannot: a bug, said
            self._disable(f"cannot hold this tally ({exc})")
            return False
        return True

    def load(self, pool: Pool, first: int, games: int, sha: str) -> Any | None:
        """A stored block's result, or None (said in one line, and dropped) when it is not
        what the registry says it is."""
        path = self.block_path(pool.key, first, games)
        try:
            self._real_folder(path.parent, make=False)  # never read through a linked folder
            if path.is_symlink() or not path.is_file():
                raise codec.BlockError("missing, or not a regular file")
            if path.stat().st_size > codec.MAX_BYTES:  # a planted (sparse) file: never read
                raise codec.BlockError(f"it is larger than any block ({codec.MAX_BYTES:,} "
                                       "bytes)")
            data = path.read_bytes()
            if hashlib.sha256(data).hexdigest() != sha:
                raise codec.BlockError("its SHA-256 is not the registry's")
            result = codec.loads(data, pool.header(first, games))
            check = getattr(pool.part, "verify", None)
            if check is not None:
                check(result, games)
            codec.check_finite(result)
        except (codec.BlockError, ValueError, TypeError, OSError, AttributeError) as exc:
            print(f"run store: block {first:,}..{first + games - 1:,} of question "
                  f"{pool.key[:12]} is damaged ({exc}); playing it again", file=sys.stderr,
                  flush=True)
            self.drop(pool.key, first, games)
            return None
        return result

    def drop(self, key: str, first: int, games: int) -> None:
        conn = self._connect(create=False)
        try:
            if conn is not None and not self.readonly:
                conn.execute("DELETE FROM blocks WHERE key = ? AND first = ? AND games = ?",
                             (key, int(first), int(games)))
            path = self.block_path(key, first, games)
            if not self.readonly and (path.is_symlink() or path.is_file()):
                self._real_folder(path.parent, make=False)  # never unlink through a link
                path.unlink()
        except (OSError, sqlite3.Error):
            pass

    def touch(self, key: str) -> None:
        conn = self._connect(create=False)
        if conn is None or self.readonly:
            return
        try:
            conn.execute("UPDATE questions SET used = ? WHERE key = ?", (time.time(), key))
        except sqlite3.Error:
            pass

    # -------------------------------------------------------- what is there

    def questions(self) -> list[dict]:
        """Every question with its blocks' count, games (the union of their ranges), bytes,
        and the commands that made them."""
        conn = self._connect(create=False)
        if conn is None:
            return []
        out = []
        for key, game, players, question, engine, created, used in conn.execute(
                "SELECT key, game, players, question, engine, created, used FROM questions "
                "ORDER BY used DESC"):
            blocks = conn.execute("SELECT first, games, bytes, command, made, origin, seconds "
                                  "FROM blocks WHERE key = ? ORDER BY first, games",
                                  (key,)).fetchall()
            timed = [(int(r[1]), float(r[6])) for r in blocks if r[6] is not None]
            out.append({"key": key, "game": game, "players": players,
                        "question": json.loads(question), "engine": engine,
                        "created": created, "used": used,
                        "blocks": len(blocks), "games": covered([(a, b) for a, b, *_ in blocks]),
                        "bytes": sum(int(r[2]) for r in blocks),
                        "commands": list(dict.fromkeys(r[3] for r in blocks if r[3])),
                        "origins": sorted({r[5] or "played" for r in blocks}),
                        "ranges": [(int(a), int(b)) for a, b, *_ in blocks],
                        # seconds a game took where it was played (the blocks that say)
                        "seconds_per_game": (sum(t for _, t in timed) / sum(g for g, _ in timed)
                                             if timed and sum(g for g, _ in timed) else None)})
        return out

    def seconds_per_game(self, key: str | None) -> float | None:
        """How long a game of question ``key`` took where its blocks were played (None: not
        held, or not timed)."""
        return next((q["seconds_per_game"] for q in self.questions() if q["key"] == key), None)

    def stale_for(self, job, info) -> bool:
        """Whether this store holds ``job``'s question for another engine (the game's source
        has changed since it was played) or another version of its tally, so a run of it
        takes none of those games."""
        if not storable(job.part):
            return False
        asked = question_of(job, info)
        wanted = _sans_engine(asked)
        return any(key_of(q["question"]) != key_of(asked)
                   and _sans_engine(q["question"]) == wanted for q in self.questions())

    def origins(self, key: str | None) -> list[str]:
        """What made the blocks of question ``key`` (their origins), empty when not held."""
        return next((q["origins"] for q in self.questions() if q["key"] == key), [])

    def find(self, prefix: str) -> dict:
        """The one question whose key starts with ``prefix``."""
        hits = [q for q in self.questions() if q["key"].startswith(prefix)]
        if not prefix or not hits:
            raise UserError(f"run store {self.root} holds no question {prefix!r} (rumsim store "
                            "ls lists them)")
        if len(hits) > 1:
            raise UserError(f"{prefix!r} names {len(hits)} questions; give more of the key")
        return hits[0]

    def part_of(self, key: str):
        """The tally a question's blocks were reduced with, rebuilt from its codec blob."""
        conn = self._connect(create=False)
        row = conn.execute("SELECT part FROM questions WHERE key = ?", (key,)).fetchone()
        if row is None or row[0] is None:
            return None
        return codec.loads(bytes(row[0]), {"key": key})

    def forget(self, key: str) -> int:
        """Drop a question and every block of it; the bytes freed."""
        conn = self._connect(create=False)
        if conn is None:
            return 0
        freed = 0
        for first, games, size in conn.execute(
                "SELECT first, games, bytes FROM blocks WHERE key = ?", (key,)).fetchall():
            self.drop(key, first, games)
            freed += int(size)
        conn.execute("DELETE FROM questions WHERE key = ?", (key,))
        folder = self.root / BLOCKS / key[:2] / key
        try:
            if folder.is_dir() and not folder.is_symlink():
                folder.rmdir()
        except OSError:
            pass
        return freed


def _sans_engine(question: dict) -> dict:
    """A question without what makes its games stale rather than another question: the
    engine, rumsim's version and the version of the tally kept."""
    return {k: v for k, v in question.items()
            if k not in ("engine", "rumsim", "tally_version")}


def covered(ranges: list[tuple[int, int]]) -> int:
    """How many distinct game indices the ranges (first, games) cover."""
    total, end = 0, None
    for first, games in sorted(ranges):
        stop = first + games
        if end is None or first >= end:
            total += games
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total


@dataclass
class Pool:
    """One question's stored blocks, as a run sees them: a snapshot of its ranges taken when
    the run starts, what the run took from it and what it added."""

    store: Store
    key: str
    question: dict
    part: Any
    loaded_games: int = 0
    saved_games: int = 0

    def __post_init__(self):
        self.have = self.store.ranges(self.key)

    def header(self, first: int, games: int) -> dict:
        return {"key": self.key, "games": [int(first), int(games)]}

    def part_blob(self) -> bytes | None:
        try:
            return codec.dumps(self.part, {"key": self.key})
        except TypeError:
            return None

    def has(self, block: tuple[int, int]) -> bool:
        return (int(block[0]), int(block[1])) in self.have

    def load(self, block: tuple[int, int]) -> Any | None:
        first, games = int(block[0]), int(block[1])
        result = self.store.load(self, first, games, self.have[(first, games)])
        if result is None:
            del self.have[(first, games)]
        else:
            self.loaded_games += games
        return result

    def save(self, block: tuple[int, int], result: Any, seconds: float | None) -> None:
        first, games = int(block[0]), int(block[1])
        if self.store.save(self, first, games, result, seconds):
            self.saved_games += games

    def prefix(self, first_game: int, size: int) -> int:
        """The games stored from ``first_game`` on in blocks of ``size`` (the last may be
        shorter), without a gap: what ``--more`` adds to."""
        at = first_game
        while (at, size) in self.have:
            at += size
        shorter = [g for (a, g) in self.have if a == at and g < size]
        return at - first_game + (max(shorter) if shorter else 0)

    def sources(self) -> dict[str, int]:
        """Where the games taken came from: name -> games."""
        return {self.store.name: self.loaded_games} if self.loaded_games else {}

    def said(self) -> str:
        return (" and ".join(f"{g:,} games from {name}" for name, g in self.sources().items())
                + f" (question {self.key[:12]})")

    def meta(self) -> dict:
        return {"root": str(self.store.root), "key": self.key,
                "from_store": self.loaded_games, "sources": self.sources(),
                "saved": self.saved_games, "saving": self.store.disabled is None}

    def finish(self) -> None:
        self.store.touch(self.key)


class Layered:
    """Several stores read as one: blocks are taken from the first that holds them (a
    shipped evidence pack first), and played blocks are saved to the last (the user's run
    store) only. Gives a run the same ``pool`` as one store does."""

    def __init__(self, *stores: Store | None):
        self.stores = [s for s in stores if s is not None]
        self.root = self.stores[-1].root if self.stores else None

    def pool(self, job, info) -> LayeredPool | None:
        pools = [s.pool(job, info) for s in self.stores]
        pools = [p for p in pools if p is not None]
        return LayeredPool(pools) if pools else None

    def close(self) -> None:
        for s in self.stores:
            s.close()

    def stale_for(self, job, info) -> bool:
        """Whether a store read first (a shipped pack) holds ``job``'s question for another
        engine."""
        return any(s.stale_for(job, info) for s in self.stores)

    def origins(self, key: str | None) -> list[str]:
        return [o for s in self.stores for o in s.origins(key)]

    def seconds_per_game(self, key: str | None) -> float | None:
        return next((t for s in self.stores if (t := s.seconds_per_game(key)) is not None),
                    None)


class LayeredPool:
    """A run's view of one question in several stores (:class:`Layered`)."""

    def __init__(self, pools: list[Pool]):
        self.pools = pools
        self.key = pools[0].key
        self.store = pools[-1].store
        self.saved_games = 0

    @property
    def have(self) -> dict:
        out = {}
        for p in reversed(self.pools):
            out.update(p.have)
        return out

    @property
    def loaded_games(self) -> int:
        return sum(p.loaded_games for p in self.pools)

    def has(self, block) -> bool:
        return any(p.has(block) for p in self.pools)

    def load(self, block) -> Any | None:
        for p in self.pools:
            if p.has(block):
                result = p.load(block)
                if result is not None:
                    return result
        return None

    def save(self, block, result, seconds) -> None:
        if not any(p.has(block) for p in self.pools[:-1]):  # not again what a pack holds
            before = self.pools[-1].saved_games
            self.pools[-1].save(block, result, seconds)
            self.saved_games += self.pools[-1].saved_games - before

    def prefix(self, first_game: int, size: int) -> int:
        return Pool.prefix(self, first_game, size)

    def sources(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.pools:
            for name, g in p.sources().items():
                out[name] = out.get(name, 0) + g
        return out

    def said(self) -> str:
        return Pool.said(self)

    def meta(self) -> dict:
        return {**self.pools[-1].meta(), "from_store": self.loaded_games,
                "sources": self.sources(), "saved": self.saved_games}

    def finish(self) -> None:
        for p in self.pools:
            p.finish()


# ---------------------------------------------------------------- managing
# What `rumsim store ls | show | verify | gc` read and do (reports/cli/commands/store.py says
# it): a question's blocks one by one, whether this rumsim still asks a question under its
# key, a block replayed and compared, and what a size limit drops.


def blocks_of(store: Store, key: str) -> list[dict]:
    """Every block stored under ``key``, in game order, with where it came from."""
    conn = store._connect(create=False)
    if conn is None:
        return []
    rows = conn.execute("SELECT first, games, sha256, bytes, made, command, seconds, origin "
                        "FROM blocks WHERE key = ? ORDER BY first, games", (key,)).fetchall()
    return [{"first": int(a), "games": int(b), "sha256": str(h), "bytes": int(n), "made": m,
             "command": c, "seconds": s, "origin": o or "played"}
            for a, b, h, n, m, c, s, o in rows]


def job_of(question: dict, part):
    """The :class:`simulate.blocks.Job` that plays ``question``'s games, rebuilt from its JSON
    as ``simulate.runner.run`` builds it (one arm: a rule set and a seating; several: a rule
    set and a seating per arm, in lockstep), with ``part`` (``Store.part_of``). Raises
    RulesError (a UserError too) when this rumsim cannot ask it any more (a policy or a rule
    it no longer has), KeyError / TypeError / ValueError for a question of another shape."""
    from engines import get_game
    from simulate.blocks import Job

    info = get_game(question["game"])
    rules = tuple(info.rules_cls.from_overrides(dict(r)) for r in question["rules"])
    seatings = tuple(tuple(info.policy(seat["label"]) for seat in seating)
                     for seating in question["seatings"])
    players = info.check_players(int(question["players"]))
    if not rules or len(rules) != len(seatings) or any(len(s) != players for s in seatings):
        raise ValueError("its rule sets and seatings do not match its player count")
    if len(rules) == 1:
        return Job(info.name, rules[0], seatings[0], players, int(question["seed"]),
                   question["backend"], part)
    return Job(info.name, rules, seatings, players, int(question["seed"]), question["backend"],
               part)


def _changed(old: dict, new: dict) -> str:
    """What differs between a stored question and the one this rumsim asks, in words."""
    said = {"engine": "the engine's code changed", "rumsim": "another rumsim version",
            "tally_version": "the tally's store version changed",
            "tally": "the tally changed", "seatings": "a policy's values changed (a trained set?)",
            "rules": "the rules' options changed"}
    keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
    return "; ".join(said.get(k, f"its {k} changed") for k in keys) or "its key changed"


def staleness(store: Store, q: dict, part=None, engines: dict | None = None) -> str | None:
    """None when this rumsim asks question ``q`` (a row of ``Store.questions``) under its key,
    so a run uses its blocks; else why not, in words: the engine's code changed (its source
    fingerprint), another rumsim version, a trained set's values, the tally's version; or the
    game, a policy or a rule option is gone. ``part``: the question's tally (read from the
    store when not given); ``engines``: game -> fingerprint, filled as games are met."""
    from engines import get_game
    from engines._rules import RulesError
    from simulate.runner import VERSION

    question = q["question"]
    if key_of(question) != q["key"]:
        return "its question does not hash to its key (the registry was changed)"
    try:
        info = get_game(q["game"])
    except RulesError:
        return f"this rumsim has no game {q['game']!r}"
    engines = {} if engines is None else engines
    if info.name not in engines:
        engines[info.name] = engine_fingerprint(info)
    if engines[info.name] != q["engine"] or question.get("engine") != q["engine"]:
        return "the engine's code changed"
    if question.get("rumsim") != VERSION:
        return f"made by rumsim {question.get('rumsim')}, this is {VERSION}"
    if part is None:
        try:
            part = store.part_of(q["key"])
        except (codec.BlockError, sqlite3.Error) as exc:
            return f"its tally cannot be read ({exc})"
        if part is None:  # kept no tally: nothing more can be checked
            return None
    try:
        now = question_of(job_of(question, part), info)
    except (RulesError, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return f"this rumsim cannot ask it any more ({' '.join(str(exc).split())[:200]})"
    if key_of(now) != q["key"]:
        return _changed(question, now)
    return None


def read_block(store: Store, key: str, block: dict, part) -> Any:
    """A stored block's result, checked as a run checks it (``Store.load``) but neither said
    nor dropped when it fails: raises codec.BlockError (or ValueError, TypeError, OSError)."""
    first, games = block["first"], block["games"]
    path = store.block_path(key, first, games)
    if path.is_symlink() or not path.is_file():
        raise codec.BlockError("missing, or not a regular file")
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != block["sha256"]:
        raise codec.BlockError("its SHA-256 is not the registry's")
    result = codec.loads(data, {"key": key, "games": [int(first), int(games)]})
    check = getattr(part, "verify", None)
    if check is not None:
        check(result, games)
    codec.check_finite(result)
    return result


def replay_matches(job, key: str, block: dict, stored: Any) -> bool:
    """Play ``block``'s games again with ``job`` and say whether the result, encoded as a block
    file, is byte for byte the stored one encoded the same way."""
    first, games = int(block["first"]), int(block["games"])
    header = {"key": key, "games": [first, games]}
    return codec.dumps(job.play(first, games), header) == codec.dumps(stored, header)


def folder_bytes(root: Path) -> int:
    """The bytes of every regular file under ``root`` (links not followed)."""
    total = 0
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            try:
                if not path.is_symlink():
                    total += path.stat().st_size
            except OSError:
                pass
    return total


_UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12,
          "ki": 2**10, "mi": 2**20, "gi": 2**30, "ti": 2**40}


def parse_size(text: str, what: str = "--max-size") -> int:
    """Bytes from '500M', '2G', '1.5GB', '512KiB', '1e9' or '0'; UserError otherwise."""
    import re

    raw = str(text).strip().replace("_", "")
    match = re.fullmatch(r"([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([kKmMgGtT]?i?)[bB]?", raw)
    if match is None:
        raise UserError(f"{what} '{text}' is not a size (try 500M, 2G or 1e9 bytes)")
    number, unit = float(match.group(1)), _UNITS.get(match.group(2).lower())
    if unit is None or number != number or number * unit >= 2**63:
        raise UserError(f"{what} '{text}' is not a size (try 500M, 2G or 1e9 bytes)")
    return int(number * unit)


def gc_plan(questions: list[dict], stale: dict[str, str] | None = None,
            older_than: float | None = None, max_size: int | None = None,
            now: float | None = None) -> list[tuple[dict, str]]:
    """The questions to drop, each with why: those in ``stale`` (key -> why, from
    :func:`staleness`), those not used for ``older_than`` seconds, then the least recently
    used until the blocks of those kept take at most ``max_size`` bytes."""
    now = time.time() if now is None else now
    drop: dict[str, tuple[dict, str]] = {}
    for q in questions:
        if stale and q["key"] in stale:
            drop[q["key"]] = (q, f"stale: {stale[q['key']]}")
        elif older_than is not None and q["used"] < now - older_than:
            drop[q["key"]] = (q, f"not used for {(now - q['used']) / 86400:,.1f} days")
    if max_size is not None:
        kept = sorted((q for q in questions if q["key"] not in drop),
                      key=lambda q: (q["used"], q["key"]))
        size = sum(q["bytes"] for q in kept)
        for q in kept:
            if size <= max_size:
                break
            drop[q["key"]] = (q, "least recently used, beyond the size limit")
            size -= q["bytes"]
    return [drop[q["key"]] for q in questions if q["key"] in drop]


def drop_questions(store: Store, keys: list[str]) -> int:
    """Forget every question of ``keys`` with its blocks, remove the folders left empty and
    compact the registry; the blocks' bytes freed."""
    freed = sum(store.forget(key) for key in keys)
    for key in keys:
        shard = store.root / BLOCKS / key[:2]
        try:
            if shard.is_dir() and not shard.is_symlink() and not any(shard.iterdir()):
                shard.rmdir()
        except OSError:
            pass
    conn = store._connect(create=False)
    if keys and conn is not None:
        try:
            conn.execute("VACUUM")
        except sqlite3.Error:
            pass
    return freed
