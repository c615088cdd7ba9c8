"""``rumsim store ls | show | verify | gc`` on a small store made by real runs: what it lists,
a replay that matches, a forged block (its hash made to fit) that does not, a stale question
and what gc drops; every mistake one line and exit code 2."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import shutil
import sqlite3
import sys
import time
from unittest import mock

import pytest
from clitools import run_cli

from reports.cli import main

SEED7 = 7  # the question played in blocks of 400 games (five blocks), by the API


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A store of three questions: montego-bay seats (one block of 3,000 games), rum-rebellion
    seats at 3 players (one block of 2,000) and the same at seed 7 in five blocks of 400."""
    import simulate
    from analyses.seats import SeatParts
    from simulate.store import Store

    root = tmp_path_factory.mktemp("made") / "store"
    for args in (["seats", "montego-bay", "-n", "3000", "--store", str(root), "-q"],
                 ["seats", "rum-rebellion", "-p", "3", "-n", "2000", "--store", str(root), "-q"]):
        # the store keeps the command line that made a block: this one, not pytest's
        with mock.patch.object(sys, "argv", ["rumsim", *args]), \
                contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main(args) == 0
    store = Store(root)
    simulate.run("rum-rebellion", 2000, players=3, seed=SEED7, chunk_size=400, store=store,
                 part=SeatParts(3), on_part=lambda part: None, keep=False, progress=False)
    store.close()
    return root


@pytest.fixture
def store(made, tmp_path):
    """A copy of the made store, for a test to change."""
    root = tmp_path / "store"
    shutil.copytree(made, root)
    return root


def registry(root) -> sqlite3.Connection:
    return sqlite3.connect(root / "registry.sqlite", isolation_level=None)


def key_of_game(root, game: str, seed: int = 0) -> str:
    with contextlib.closing(registry(root)) as db:
        for key, question in db.execute("SELECT key, question FROM questions WHERE game = ?",
                                        (game,)):
            if json.loads(question)["seed"] == seed:
                return key
    raise AssertionError(f"no {game} question of seed {seed}")


def ls_json(capsys, root) -> dict:
    code, out, _ = run_cli(capsys, "store", "ls", "--store", str(root), "--format", "json")
    assert code == 0
    return json.loads(out)


def one_line_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rumsim: error:"), err
    for w in words:
        assert w in lines[0], (w, lines[0])


# ---------------------------------------------------------------- ls and show


def test_ls_lists_every_question_current(capsys, store):
    code, out, err = run_cli(capsys, "store", "ls", "--store", str(store))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["key", "game", "P"]
    rows = lines[1:4]
    assert sum("montego-bay" in r for r in rows) == 1
    assert sum("rum-rebellion" in r for r in rows) == 2
    assert all(" current " in r and "SeatParts" in r for r in rows)
    assert "stale" not in out
    assert "rumsim seats montego-bay -n 3000" in out
    assert "3 questions, 7 blocks, 7,000 games" in out and str(store) in out

    data = ls_json(capsys, store)
    by_seed = {(q["game"], q["seed"]): q for q in data["questions"]}
    assert set(by_seed) == {("montego-bay", 0), ("rum-rebellion", 0), ("rum-rebellion", SEED7)}
    assert by_seed[("rum-rebellion", SEED7)]["blocks"] == 5
    assert by_seed[("rum-rebellion", SEED7)]["games"] == 2000
    assert by_seed[("montego-bay", 0)]["players"] == 3
    assert by_seed[("montego-bay", 0)]["policies"] == "greedy"
    assert by_seed[("rum-rebellion", 0)]["policies"] == "threshold"
    assert all(q["engine"] == "current" and q["stale"] is None for q in data["questions"])
    assert data["bytes"] >= data["block_bytes"] > 0


def test_ls_of_no_store_says_so(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "store", "ls", "--store", str(tmp_path / "none"))
    assert code == 0 and "has no folder yet" in out
    code, out, _ = run_cli(capsys, "store", "ls")  # tests run with RUMSIM_STORE=off
    assert code == 0 and "the run store is off" in out
    code, out, _ = run_cli(capsys, "store", "verify", "--store", str(tmp_path / "none"))
    assert code == 0 and "holds no games" in out
    code, out, _ = run_cli(capsys, "store", "gc", "--stale", "--store", str(tmp_path / "none"))
    assert code == 0 and "nothing to drop" in out


def test_show_prints_the_whole_question(capsys, store):
    key = key_of_game(store, "montego-bay")
    code, out, err = run_cli(capsys, "store", "show", key[:6], "--store", str(store))
    assert code == 0, err
    assert out.startswith(f"question {key} (current)")
    for text in ("montego-bay, 3 players", "seed        0", "backend     fast",
                 "SeatParts(players=3", "store version 1", "rumsim      0.1.0",
                 "seats 0-2: greedy (greedy:", "rules       default", "ship_table = [",
                 "1 block, 3,000 games", "games 0..2,999 (3,000)",
                 "played: rumsim seats montego-bay -n 3000"):
        assert text in out, text

    code, out, _ = run_cli(capsys, "store", "show", key, "--store", str(store), "--format",
                           "json")
    data = json.loads(out)
    with contextlib.closing(registry(store)) as db:
        stored = json.loads(db.execute("SELECT question FROM questions WHERE key = ?",
                                       (key,)).fetchone()[0])
    assert data["question"] == stored and data["engine"] == "current"
    assert [(b["first"], b["games"]) for b in data["blocks"]] == [(0, 3000)]


# ---------------------------------------------------------------- verify


def test_verify_replays_and_matches_every_block(capsys, store, monkeypatch):
    import reports.cli.commands.store as command

    monkeypatch.setattr(command, "PROGRESS_EVERY", 0.0)  # a line a block, as a long one says
    code, out, err = run_cli(capsys, "store", "verify", "--sample", "1", "--store", str(store))
    assert code == 0, err
    assert "7 blocks replayed: every one matches what is stored" in out
    assert "rumsim store verify: 6 of 7 blocks" in err and "s left" in err
    monkeypatch.undo()

    # a sample: a share of each question's blocks, at least one, the same for the same seed
    runs = []
    for _ in range(2):
        code, out, _ = run_cli(capsys, "store", "verify", "--sample", "0.3", "--seed", "5",
                               "--store", str(store), "--format", "json")
        assert code == 0
        runs.append(json.loads(out))
    assert runs[0]["questions"] == runs[1]["questions"]
    sampled = {q["blocks"]: q["sampled"] for q in runs[0]["questions"]}
    assert sampled == {1: 1, 5: 2}
    assert runs[0]["checked"] == runs[0]["matched"] == 4 and runs[0]["mismatched"] == 0


def test_verify_finds_a_forged_block(capsys, store):
    """A block changed with its hashes made to fit (the codec's own and the registry's) passes
    every check a run makes; played again, its games give another tally."""
    import analyses.seats  # noqa: F401 - its tallies are what the block holds
    from simulate import codec

    key = key_of_game(store, "montego-bay")
    path = next((store / "blocks" / key[:2] / key).glob("*.npz"))
    header = {"key": key, "games": [0, 3000]}
    by_seat, by_place = codec.loads(path.read_bytes(), header)
    by_seat.products[0, 1] += 1.0
    by_seat.products[1, 0] += 1.0
    data = codec.dumps((by_seat, by_place), header)
    path.write_bytes(data)
    with contextlib.closing(registry(store)) as db:
        db.execute("UPDATE blocks SET sha256 = ?, bytes = ? WHERE key = ?",
                   (hashlib.sha256(data).hexdigest(), len(data), key))

    code, out, err = run_cli(capsys, "store", "verify", "--sample", "1", "--store", str(store))
    assert code == 1, (out, err)
    assert "DO NOT MATCH" in out and "games 0..2,999: played again" in out
    assert "1 of 7 blocks replayed DO NOT MATCH" in out
    code, out, _ = run_cli(capsys, "store", "verify", key[:8], "--store", str(store),
                           "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["mismatched"] == 1 and len(data["questions"]) == 1
    # the other questions are sound
    other = key_of_game(store, "rum-rebellion")
    assert run_cli(capsys, "store", "verify", other, "--store", str(store))[0] == 0


def test_verify_says_a_damaged_block_and_keeps_it(capsys, store):
    key = key_of_game(store, "rum-rebellion", SEED7)
    path = store / "blocks" / key[:2] / key / "800-400.npz"
    path.write_bytes(path.read_bytes()[:-40])
    code, out, err = run_cli(capsys, "store", "verify", key, "--sample", "1", "--store",
                             str(store))
    assert code == 0, err
    assert "4 matched, 1 damaged" in out and "games 800..1,199: damaged" in out
    assert path.exists()  # verify changes nothing; a run drops it and plays it again


# ---------------------------------------------------------------- stale questions, gc


def test_a_changed_engine_is_stale_and_gc_drops_it(capsys, store):
    key = key_of_game(store, "rum-rebellion")
    with contextlib.closing(registry(store)) as db:
        db.execute("UPDATE questions SET engine = 'an older engine' WHERE key = ?", (key,))
    data = ls_json(capsys, store)
    stale = {q["key"]: q["stale"] for q in data["questions"] if q["engine"] == "stale"}
    assert list(stale) == [key] and "engine" in stale[key]
    code, out, _ = run_cli(capsys, "store", "ls", "--store", str(store))
    assert "1 stale" in out and "gc --stale" in out
    code, out, _ = run_cli(capsys, "store", "verify", key, "--store", str(store))
    assert code == 0 and "1 stale, not compared" in out

    code, out, _ = run_cli(capsys, "store", "gc", "--stale", "--dry-run", "--store", str(store))
    assert code == 0 and f"would drop {key[:12]}" in out
    assert len(ls_json(capsys, store)["questions"]) == 3
    code, out, _ = run_cli(capsys, "store", "gc", "--stale", "--store", str(store))
    assert code == 0 and f"dropped {key[:12]}" in out and "dropped 1 question" in out
    assert "2 questions" in out and "kept" in out
    left = ls_json(capsys, store)["questions"]
    assert key not in {q["key"] for q in left} and len(left) == 2
    assert not (store / "blocks" / key[:2] / key).exists()


def test_new_engine_code_makes_its_questions_stale(capsys, store, monkeypatch):
    """What happens when a game's engine sources change: its fingerprint differs, so every
    question of that game is stale (and only those)."""
    import simulate.store as st

    real = st.engine_fingerprint
    monkeypatch.setattr(st, "engine_fingerprint",
                        lambda info: "f" * 24 if info.name == "rum-rebellion" else real(info))
    states = {(q["game"], q["engine"]) for q in ls_json(capsys, store)["questions"]}
    assert states == {("montego-bay", "current"), ("rum-rebellion", "stale")}
    code, out, _ = run_cli(capsys, "store", "gc", "--stale", "--store", str(store))
    assert code == 0 and "dropped 2 questions" in out
    assert [q["game"] for q in ls_json(capsys, store)["questions"]] == ["montego-bay"]


def test_gc_max_size_drops_the_least_recently_used(capsys, store):
    data = ls_json(capsys, store)["questions"]
    sizes = {q["key"]: q["bytes"] for q in data}
    oldest = key_of_game(store, "montego-bay")
    with contextlib.closing(registry(store)) as db:
        db.execute("UPDATE questions SET used = 1000 WHERE key = ?", (oldest,))
    keep = sum(sizes.values()) - sizes[oldest]
    code, out, _ = run_cli(capsys, "store", "gc", "--max-size", str(keep), "--store",
                           str(store))
    assert code == 0 and f"dropped {oldest[:12]}" in out and "dropped 1 question" in out
    assert len(ls_json(capsys, store)["questions"]) == 2

    code, out, _ = run_cli(capsys, "store", "gc", "--max-size", "1", "--dry-run", "--store",
                           str(store), "--format", "json")
    assert code == 0 and json.loads(out)["kept"] == 0
    assert len(ls_json(capsys, store)["questions"]) == 2
    code, out, _ = run_cli(capsys, "store", "gc", "--max-size", "1", "--store", str(store))
    assert code == 0 and "dropped 2 questions" in out and "0 questions (0 B) kept" in out
    assert ls_json(capsys, store)["questions"] == []
    assert not list((store / "blocks").rglob("*.npz"))
    code, out, _ = run_cli(capsys, "store", "ls", "--store", str(store))
    assert code == 0 and "holds no games" in out


def test_gc_older_than_reads_when_a_question_was_last_used(capsys, store):
    old = key_of_game(store, "rum-rebellion", SEED7)
    with contextlib.closing(registry(store)) as db:
        db.execute("UPDATE questions SET used = ? WHERE key = ?",
                   (time.time() - 10 * 86400, old))
    code, out, _ = run_cli(capsys, "store", "gc", "--older-than", "20", "--store", str(store))
    assert code == 0 and "nothing to drop" in out
    code, out, _ = run_cli(capsys, "store", "gc", "--older-than", "5", "--store", str(store),
                           "--format", "json")
    data = json.loads(out)
    assert code == 0 and [d["key"] for d in data["dropped"]] == [old]
    assert "not used for 10.0 days" in data["dropped"][0]["why"]
    assert data["kept"] == 2 and data["freed"] > 0


# ---------------------------------------------------------------- mistakes


def test_mistakes_are_one_line_and_exit_2(capsys, store, tmp_path):
    s = ["--store", str(store)]
    one_line_error(*run_cli(capsys, "store", "show", "0123456789abcdef", *s), "no question")
    one_line_error(*run_cli(capsys, "store", "verify", "zz", *s), "no question")
    one_line_error(*run_cli(capsys, "store", "show", "", *s), "no question")
    one_line_error(*run_cli(capsys, "store", "gc", *s), "--stale", "--max-size")
    one_line_error(*run_cli(capsys, "store", "gc", "--max-size", "12Q", *s), "12Q", "size")
    one_line_error(*run_cli(capsys, "store", "gc", "--max-size", "-5", *s), "size")
    one_line_error(*run_cli(capsys, "store", "gc", "--older-than", "-1", *s), "--older-than")
    one_line_error(*run_cli(capsys, "store", "verify", "--sample", "0", *s), "--sample")
    one_line_error(*run_cli(capsys, "store", "verify", "--sample", "1.5", *s), "--sample")
    one_line_error(*run_cli(capsys, "store", "verify", "--sample", "all", *s))
    one_line_error(*run_cli(capsys, "store", "ls", "--format", "csv", *s), "table or json")
    one_line_error(*run_cli(capsys, "store", "show", "ab"))  # RUMSIM_STORE=off
    afile = tmp_path / "a-file"
    afile.write_text("not a store")
    one_line_error(*run_cli(capsys, "store", "ls", "--store", str(afile)), "not a folder")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "registry.sqlite").write_text("not a registry" * 100)
    one_line_error(*run_cli(capsys, "store", "ls", "--store", str(broken)), "registry")


def test_sizes_parse():
    from simulate.store import parse_size

    assert parse_size("500M") == 500_000_000
    assert parse_size("2G") == 2_000_000_000
    assert parse_size("1e9") == 1_000_000_000
    assert parse_size("1.5GiB") == 3 << 29
    assert parse_size("64kb") == 64_000
    assert parse_size("0") == 0
    for bad in ("", "M", "2X", "1e99", "nan", "-1", "2 G B"):
        with pytest.raises(Exception, match="not a size"):
            parse_size(bad)


# ---------------------------------------------------------------- rebuilding a question


def test_every_kind_of_question_is_rebuilt_under_its_own_key():
    """``store verify`` replays a block from the question's JSON alone: for every game, every
    policy (trained sets, a search with its playout policy, a restricted seat), a preset and
    several arms in lockstep, the job rebuilt from the JSON asks the same question (the same
    key) as the job that played it."""
    from analyses.seats import SeatParts
    from engines import GAMES, get_game
    from simulate.blocks import Job
    from simulate.runner import resolve
    from simulate.store import job_of, key_of, question_of

    checked = 0
    for name in GAMES:
        info = get_game(name)
        p = info.default_players
        presets = info.rules_cls.preset_names()
        rule_sets = [info.rules_cls()]
        if presets:
            rule_sets.append(info.rules_cls.from_overrides({}, preset=presets[-1]))
        labels = list(info.policies)
        param = [(n, s) for n, s in info.policies.items()
                 if any(q.policies for q in s.params)]
        for n, spec in param:
            q = next(q for q in spec.params if q.policies)
            labels += [f"{n}:{q.name}={choice}" for choice in q.policies]
        if info.choice_names:
            labels.append(f"{info.default_policy}:forbid={info.choice_names[0]}")
        part = SeatParts(p)
        for rules in rule_sets:
            for label in labels:
                _, r, policies, players = resolve(info, rules, label, p)
                job = Job(info.name, r, policies, players, 11, "fast", part)
                question = question_of(job, info)
                assert key_of(question_of(job_of(question, part), info)) == key_of(question), \
                    (name, label, rules.describe())
                checked += 1
        # arms in lockstep: two rule sets, a seating each
        seatings = [info.seat_policies(labels[0], p), info.seat_policies(labels[-1], p)]
        job = Job(info.name, (rule_sets[0], rule_sets[-1]), tuple(seatings), p, 3, "reference",
                  part)
        question = question_of(job, info)
        again = job_of(question, part)
        assert again.lockstep and key_of(question_of(again, info)) == key_of(question)
    assert checked > 40
