"""The run store keeps its promises (``simulate.store``).

A run of a question the store has partly played takes those blocks and plays only the rest,
and its answer is every number of one uninterrupted run's (on an empty store, and with no
store); ``--more`` adds to what is stored. Another question (seed, rules, a policy
parameter, player count, the engine's source) never reads these blocks. Two processes
filling one store at once register each block once, and a third run of their union answers
as one run of it. Rows and ordered (``--precision``) tallies are never stored. A store that
cannot be written (read-only, full, its blocks folder not a folder) is said once and the run
answers the same.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest
from clitools import run_cli

import simulate
import simulate.blocks as blocks
import simulate.checkpoint as checkpoint
import simulate.store as store_module
from analyses.seats import SeatParts
from engines import get_game
from reports.cli.commands.seats import seat_tallies
from simulate import codec
from simulate.store import Store

ROOT = Path(__file__).resolve().parent.parent
GAME, PLAYERS, CHUNK, N = "montego-bay", 3, 500, 1_000  # N: two blocks
CHEAP = ("rum-rebellion", 2)  # the cheapest seats question, for the CLI's 100,000-game blocks
SAID = "going on without storing"


def play(root: Path | None, n: int = N, *, game: str = GAME, players: int = PLAYERS,
         seed: int = 0, rules=None, policy=None, first: int = 0, more: int | None = None,
         chunk: int = CHUNK) -> tuple[tuple[int, str], dict]:
    """``rumsim seats``' tallies (as ``seat_tallies`` makes them) of games first ..
    first + n - 1 in blocks of ``chunk``, with the run store at ``root`` (None: no store).
    Returns (the games and a SHA-256 of every number the answer is made of, the run's meta)."""
    info = get_game(game)
    by_seat, by_place, parts, take = seat_tallies(info, players, None)
    store = Store(root) if root is not None else None
    try:
        results = simulate.run(info, n, rules=rules, policies=policy, players=players,
                               seed=seed, chunk_size=chunk, first_game=first, part=parts,
                               on_part=take, keep=False, store=store, more=more,
                               progress=False)
    finally:
        if store is not None:
            store.close()
    numbers = hashlib.sha256(codec.dumps((by_seat, by_place), {})).hexdigest()
    return (by_seat.n, numbers), results.meta


def registry(root: Path) -> list[tuple]:
    """Every registered block: (key, first, games, sha256)."""
    with closing(sqlite3.connect(root / store_module.REGISTRY)) as conn:
        return conn.execute("SELECT key, first, games, sha256 FROM blocks "
                            "ORDER BY key, first, games").fetchall()


def played_blocks(monkeypatch) -> list[int]:
    """The first game of every block this process plays from now on."""
    seen: list[int] = []
    real = blocks.Job.play

    def play_block(self, start, count):
        seen.append(start)
        return real(self, start, count)
    monkeypatch.setattr(blocks.Job, "play", play_block)
    return seen


@pytest.fixture(scope="module")
def clean() -> dict:
    """Answers of runs with no store, by (n, seed, first)."""
    cache: dict = {}

    def get(n: int = N, seed: int = 0, first: int = 0, **kw):
        key = (n, seed, first, json.dumps(kw, sort_keys=True))
        if key not in cache:
            cache[key] = play(None, n, seed=seed, first=first, **kw)[0]
        return cache[key]
    return get


# ---------------------------------------------------------------- pooling


def test_n_then_2n_takes_n_from_the_store_and_answers_as_one_run(tmp_path, capsys,
                                                                 monkeypatch, clean):
    root = tmp_path / "store"
    first, meta = play(root, N)
    assert meta["store"]["from_store"] == 0 and meta["store"]["saved"] == N
    assert first == clean(N)
    capsys.readouterr()
    seen = played_blocks(monkeypatch)
    again, meta = play(root, 2 * N)
    err = capsys.readouterr().err
    assert seen == [N, N + CHUNK]                    # only the games the store lacks
    assert meta["store"]["from_store"] == N and meta["store"]["saved"] == N
    assert f"{N:,} games from the run store ({root})" in err and f"{N:,} played" in err
    assert again == clean(2 * N) == play(tmp_path / "empty", 2 * N)[0]
    seen.clear()
    whole, meta = play(root, 2 * N)                  # all of it stored: nothing played
    assert seen == [] and meta["store"]["from_store"] == 2 * N and whole == clean(2 * N)
    assert [r[1:3] for r in registry(root)] == [(0, CHUNK), (CHUNK, CHUNK), (N, CHUNK),
                                                 (N + CHUNK, CHUNK)]


def test_more_adds_to_what_is_stored(tmp_path, monkeypatch, clean):
    root = tmp_path / "store"
    play(root, N)
    seen = played_blocks(monkeypatch)
    more, meta = play(root, 1, more=N)       # n is ignored: the stored N, then N more
    assert seen == [N, N + CHUNK]
    assert meta["games"] == 2 * N and meta["store"]["from_store"] == N
    assert more == clean(2 * N)


def answer(out: str) -> tuple[dict, dict]:
    """A ``seats --format json`` answer, and its meta without what differs between runs of
    the same games (the time, and where the games came from)."""
    data = json.loads(out)
    meta = data.pop("meta")
    data.pop("store", None)  # the note an answer that took stored games adds (seats)
    return data, {k: v for k, v in meta.items() if k not in ("elapsed_s", "store")}


def test_the_cli_n_then_2n_and_more_answer_as_one_run(tmp_path, capsys):
    game, p = CHEAP
    seats = ("seats", game, "-p", str(p), "-q", "--format", "json")
    root = tmp_path / "store"
    code, out, err = run_cli(capsys, *seats, "-n", "1e5", "--store", str(root))
    assert code == 0 and json.loads(out)["meta"]["store"]["from_store"] == 0, err
    shutil.copytree(root, tmp_path / "for-more")
    code, pooled, err = run_cli(capsys, *seats, "-n", "2e5", "--store", str(root))
    assert code == 0
    assert f"{game}: 100,000 games from the run store ({root}) (question " in err
    assert "; 100,000 played" in err
    assert json.loads(pooled)["meta"]["store"]["from_store"] == 100_000
    code, fresh, err = run_cli(capsys, *seats, "-n", "2e5", "--store", str(tmp_path / "new"))
    assert code == 0 and "from the run store" not in err
    code, none, _ = run_cli(capsys, *seats, "-n", "2e5", "--no-store")
    assert code == 0 and "store" not in json.loads(none)["meta"]
    code, more, err = run_cli(capsys, *seats, "--more", "1e5", "--store",
                              str(tmp_path / "for-more"))
    assert code == 0 and "100,000 games from the run store" in err
    assert answer(pooled) == answer(fresh) == answer(none) == answer(more)
    assert answer(none)[0]["games"] == 200_000


def test_more_needs_a_store(capsys):
    code, out, err = run_cli(capsys, "seats", CHEAP[0], "-p", "2", "-q", "--more", "10",
                             "--no-store")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--more adds games to an answer in the run store" in err


# ---------------------------------------------------------------- keys


@pytest.mark.parametrize("change", [{"seed": 1}, {"rules": {"fill_bonus": 2}},
                                    {"policy": "greedy:gamma=0.6"}, {"players": 4}],
                         ids=["seed", "rules", "policy parameter", "players"])
def test_another_question_never_reads_these_blocks(tmp_path, clean, change):
    root = tmp_path / "store"
    _, base = play(root, N)
    other, meta = play(root, N, **change)
    assert meta["store"]["from_store"] == 0 and meta["store"]["saved"] == N
    assert meta["store"]["key"] != base["store"]["key"]
    assert other == clean(N, **change) != clean(N)
    assert len({r[0] for r in registry(root)}) == 2
    assert play(root, N)[1]["store"]["from_store"] == N   # both still there, apart


def test_a_changed_engine_gives_a_new_key(tmp_path, monkeypatch, clean):
    root = tmp_path / "store"
    _, base = play(root, N)
    monkeypatch.setattr(store_module, "engine_fingerprint", lambda info: "e" * 24)
    again, meta = play(root, N)
    assert meta["store"]["from_store"] == 0 and meta["store"]["key"] != base["store"]["key"]
    assert again == clean(N)
    with closing(sqlite3.connect(root / store_module.REGISTRY)) as conn:
        engines = sorted(e for (e,) in conn.execute("SELECT engine FROM questions"))
    assert len(engines) == 2 and "e" * 24 in engines


# ---------------------------------------------------------------- two processes at once


WRITER = textwrap.dedent("""
    import hashlib, json, sys, time
    from pathlib import Path
    import simulate
    from analyses.seats import SeatParts, SeatTally
    from engines import get_game
    from simulate import codec, warm
    from simulate.store import from_environment

    me, other, first, n = sys.argv[1:5]
    info = get_game("rum-rebellion")
    warm.ready(info, say=False)          # the engine loaded before the two start together
    Path(me).touch()
    deadline = time.time() + 120
    while not Path(other).exists() and time.time() < deadline:
        time.sleep(0.01)
    by_seat = SeatTally(2)               # what seat_tallies makes for this game
    store = from_environment()          # RUMSIM_STORE
    meta = simulate.run(info, int(n), players=2, chunk_size=500, first_game=int(first),
                        part=SeatParts(2), on_part=lambda p: by_seat.merge(p[0]),
                        keep=False, store=store,
                        progress=False).meta
    store.close()
    numbers = hashlib.sha256(codec.dumps((by_seat, None), {})).hexdigest()
    print(json.dumps({"answer": [by_seat.n, numbers], "store": meta["store"]}))
""")


def test_two_processes_at_once_then_a_third(tmp_path, clean):
    root = tmp_path / "store"
    env = {**os.environ, store_module.ENV: str(root), "PYTHONPATH": str(ROOT)}
    ranges = [(0, 10_000), (5_000, 10_000)]   # overlapping in [5,000, 10,000)
    ready = [tmp_path / "ready-a", tmp_path / "ready-b"]
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(ready[i]),
                               str(ready[1 - i]), str(first), str(n)], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i, (first, n) in enumerate(ranges)]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0 and "Traceback" not in err and "damaged" not in err, err
    for (first, n), (out, _) in zip(ranges, outs, strict=True):
        got = json.loads(out)
        assert tuple(got["answer"]) == clean(n, first=first, game="rum-rebellion", players=2)
    rows = registry(root)
    assert len({r[0] for r in rows}) == 1
    assert [(a, g) for _, a, g, _ in rows] == [(i, 500) for i in range(0, 15_000, 500)]
    for key, a, g, sha in rows:    # one row per block, and it is the file's own hash
        block = root / "blocks" / key[:2] / key / f"{a}-{g}.npz"
        assert hashlib.sha256(block.read_bytes()).hexdigest() == sha
    union, meta = play(root, 15_000, game="rum-rebellion", players=2)
    assert meta["store"]["from_store"] == 15_000 and meta["store"]["saved"] == 0
    assert union == clean(15_000, game="rum-rebellion", players=2)


# ---------------------------------------------------------------- what is never stored


def test_rows_are_never_stored(tmp_path):
    root = tmp_path / "store"
    kept = simulate.run(GAME, N, players=PLAYERS, chunk_size=CHUNK, progress=False,
                        store=Store(root))
    seen = []
    streamed = simulate.run(GAME, N, players=PLAYERS, chunk_size=CHUNK, progress=False,
                            keep=False, on_chunk=seen.append, store=Store(root))
    assert len(kept) == sum(map(len, seen)) == N
    assert "store" not in kept.meta and "store" not in streamed.meta
    assert not root.exists()           # not even the folder: nothing was offered to it


def test_an_ordered_tally_is_never_stored(tmp_path, capsys):
    root = tmp_path / "store"
    tally = []
    meta = simulate.run(GAME, N, players=PLAYERS, chunk_size=CHUNK, progress=False,
                        keep=False, part=SeatParts(PLAYERS, ordered=True),
                        on_part=tally.append, store=Store(root)).meta
    assert len(tally) == 2 and "store" not in meta
    code, out, err = run_cli(capsys, "seats", CHEAP[0], "-p", "2", "-q", "--precision",
                             "0.05", "--store", str(root))
    assert code == 0 and "--precision 0.05: stopped after" in out, err
    assert not root.exists()


# ---------------------------------------------------------------- a store that cannot be written


def failing_write(err: int):
    def write(path, data):
        raise OSError(err, os.strerror(err), str(path))
    return write


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EACCES, errno.EROFS],
                         ids=["disk full", "permission denied", "read-only file system"])
def test_a_store_that_cannot_be_written_goes_on(tmp_path, capsys, monkeypatch, clean, err):
    root = tmp_path / "store"
    play(root, N)
    before = registry(root)
    monkeypatch.setattr(checkpoint, "_atomic_write", failing_write(err))
    capsys.readouterr()
    again, meta = play(root, 3 * N)          # four blocks to play, none storable
    said = capsys.readouterr().err
    assert said.count(SAID) == 1 and os.strerror(err) in said, said
    assert meta["store"]["from_store"] == N and meta["store"]["saved"] == 0
    assert meta["store"]["saving"] is False and meta["games"] == 3 * N
    assert again == clean(3 * N)
    assert registry(root) == before


class FullRegistry:
    """A registry connection whose every INSERT fails as SQLite does on a full disk."""

    def __init__(self, conn):
        self.conn = conn

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.conn, name)


def test_a_full_registry_goes_on_and_its_unregistered_files_are_ignored(tmp_path, capsys,
                                                                        monkeypatch, clean):
    root = tmp_path / "store"
    play(root, N)
    real = Store._connect
    with monkeypatch.context() as m:
        m.setattr(Store, "_connect", lambda self, create: (
            None if (conn := real(self, create)) is None else FullRegistry(conn)))
        capsys.readouterr()
        again, meta = play(root, 2 * N)
        said = capsys.readouterr().err
    assert said.count(SAID) == 1 and "database or disk is full" in said
    assert again == clean(2 * N) and meta["store"]["saved"] == 0
    assert len(registry(root)) == 2          # the block file written is not registered ...
    seen = played_blocks(monkeypatch)
    third, meta = play(root, 2 * N)          # ... so it is never read, only played again
    assert seen == [N, N + CHUNK] and meta["store"]["from_store"] == N
    assert third == clean(2 * N) and len(registry(root)) == 4


def test_blocks_that_is_a_file_goes_on(tmp_path, capsys, clean):
    root = tmp_path / "store"
    root.mkdir()
    (root / "blocks").write_text("not a folder")
    got, meta = play(root, 2 * N)
    said = capsys.readouterr().err
    assert said.count(SAID) == 1 and got == clean(2 * N) and meta["store"]["saved"] == 0
    assert registry(root) == [] and (root / "blocks").read_text() == "not a folder"


def chmod_stops_writes(folder: Path) -> bool:
    """Whether a folder of mode 0555 refuses a new file here: not for root (CI), unless it
    runs without CAP_DAC_OVERRIDE (``setpriv --bounding-set=-dac_override``)."""
    probe = folder / "probe"
    probe.mkdir(mode=0o555)
    try:
        (probe / "x").touch()
    except PermissionError:
        return True
    finally:
        probe.chmod(0o755)
    return False


@pytest.mark.parametrize("locked", ["folders", "folders and registry", "an empty folder"])
def test_a_read_only_store_folder_is_read_and_not_written(tmp_path, capsys, clean, locked):
    if not chmod_stops_writes(tmp_path):
        pytest.skip("chmod 0555 does not stop this user's writes (root): "
                    "test_a_store_that_cannot_be_written_goes_on fakes the refusal")
    root = tmp_path / "store"
    if locked == "an empty folder":
        root.mkdir()
    else:
        play(root, N)
    files = [root / store_module.REGISTRY] if locked == "folders and registry" else []
    folders = [root, *(p for p in root.rglob("*") if p.is_dir())]
    try:
        for f in files + folders:
            f.chmod(0o444 if f in files else 0o555)
        capsys.readouterr()
        got, meta = play(root, 2 * N)
        said = capsys.readouterr().err
    finally:
        for f in files + folders:
            f.chmod(0o755)
    stored = 0 if locked == "an empty folder" else N
    assert said.count(SAID) == 1, said
    assert meta["store"]["from_store"] == stored and meta["store"]["saved"] == 0
    assert got == clean(2 * N)
    assert sorted(p.name for p in root.iterdir()) == ([] if stored == 0 else
                                                      ["blocks", store_module.REGISTRY])
    if stored:
        assert len(registry(root)) == 2
