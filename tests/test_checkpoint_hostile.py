"""A checkpoint folder is data: what a careless or hostile user can put there.

A planted pickle never runs, a block from another run or another place in this run is
refused naming it, a damaged or misnamed block or a run.json that is not a fingerprint is
one line and exit 2, and a link planted where rumsim writes its temporary files is never
followed. Each case failed before blocks became ``simulate.codec`` files.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from clitools import run_cli

from analyses.seats import SeatTally
from simulate import codec

SEATS = ("seats", "rum-rebellion", "-p", "4", "-n", "4e5", "-q", "--format", "json")  # 4 blocks


def saved(capsys, folder: Path, seed: int = 4) -> list[Path]:
    """A finished seats run checkpointed in ``folder``; its block files in order."""
    code, out, err = run_cli(capsys, *SEATS, "--seed", str(seed), "--checkpoint", str(folder))
    assert code == 0, err
    return sorted((folder / "run-0").glob("block-*.npz"))


def resume(capsys, folder: Path, seed: int = 4) -> tuple[int, str, str]:
    return run_cli(capsys, *SEATS, "--seed", str(seed), "--checkpoint", str(folder), "--resume")


class Payload:
    """What an attacker pickles: unpickling it would run a command."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    """One finished checkpoint of SEATS (seed 4) and one of seed 5, copied by each test."""
    root = tmp_path_factory.mktemp("ck")
    from reports.cli import main
    for seed in (4, 5):
        assert main([*SEATS, "--seed", str(seed), "--checkpoint", str(root / str(seed))]) == 0
    return root


def copy(original: Path, tmp_path: Path, seed: int = 4) -> tuple[Path, list[Path]]:
    folder = tmp_path / "ck"
    shutil.copytree(original / str(seed), folder)
    return folder, sorted((folder / "run-0").glob("block-*.npz"))


def one_line(code: int, out: str, err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith("rumsim: error: ") and all(w in lines[0] for w in words), err


@pytest.mark.parametrize("name", ["block-000000001-100000-100000.npz",
                                  "block-000000001-100000-100000.pkl"])
def test_a_planted_pickle_never_runs(capsys, tmp_path, original, name):
    folder, blocks = copy(original, tmp_path)
    marker = tmp_path / "ran"
    blocks[1].unlink()
    (folder / "run-0" / name).write_bytes(pickle.dumps(Payload(marker)))
    one_line(*resume(capsys, folder), "checkpoint block", name)
    assert not marker.exists()


def test_the_resumed_answer_is_the_unbroken_one(capsys, tmp_path, original):
    folder, _ = copy(original, tmp_path)
    code, resumed, _ = resume(capsys, folder)
    code2, unbroken, _ = run_cli(capsys, *SEATS, "--seed", "4")
    assert code == code2 == 0
    def answer(text: str) -> dict:   # the run's timing and where it ran differ, nothing else
        return {k: v for k, v in json.loads(text).items() if k != "meta"}
    assert answer(resumed) == answer(unbroken)


def test_a_block_of_another_run_is_refused(capsys, tmp_path, original):
    folder, blocks = copy(original, tmp_path)
    foreign = sorted((original / "5" / "run-0").glob("block-*.npz"))[1]
    shutil.copyfile(foreign, blocks[1])           # same name, another seed's games
    one_line(*resume(capsys, folder), blocks[1].name, "saved with run")


def test_swapped_blocks_are_refused(capsys, tmp_path, original):
    folder, blocks = copy(original, tmp_path)
    a, b = blocks[1].read_bytes(), blocks[2].read_bytes()
    blocks[1].write_bytes(b)
    blocks[2].write_bytes(a)
    one_line(*resume(capsys, folder), blocks[1].name, "saved with block 2, not 1")


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "flipped byte"])
def test_a_damaged_block_is_one_line_naming_it(capsys, tmp_path, original, damage):
    folder, blocks = copy(original, tmp_path)
    data = blocks[2].read_bytes()
    mid = len(data) // 2   # inside an array's bytes (the zip's directory is at the end)
    bad = {"truncated": data[:mid], "garbage": os.urandom(len(data)), "empty": b"",
           "flipped byte": data[:mid] + bytes([data[mid] ^ 0xFF]) + data[mid + 1:]}
    blocks[2].write_bytes(bad[damage])
    one_line(*resume(capsys, folder), "checkpoint block", blocks[2].name)


def test_a_misnamed_block_is_one_line(capsys, tmp_path, original):
    folder, blocks = copy(original, tmp_path)
    blocks[0].rename(blocks[0].with_name("block-abc.npz"))
    one_line(*resume(capsys, folder), "block-abc.npz", "not a block name")


@pytest.mark.parametrize("text", ["[1, 2]", "null", "{not json", ""])
def test_a_run_json_that_is_not_a_fingerprint_is_one_line(capsys, tmp_path, original, text):
    folder, _ = copy(original, tmp_path)
    (folder / "run-0" / "run.json").write_text(text)
    one_line(*resume(capsys, folder), "run.json")


def test_blocks_without_run_json_are_refused(capsys, tmp_path, original):
    folder, _ = copy(original, tmp_path)
    (folder / "run-0" / "run.json").unlink()
    one_line(*resume(capsys, folder), "no run.json")


@pytest.mark.parametrize("planted", [".run.json.tmp", ".block-000000000-0-100000.npz.tmp"])
def test_a_planted_link_is_never_followed(capsys, tmp_path, planted):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    folder = tmp_path / "ck"
    (folder / "run-0").mkdir(parents=True)
    (folder / "run-0" / planted).symlink_to(victim)
    code, _, err = resume(capsys, folder)
    assert code == 0, err
    assert victim.read_text() == "keep me"
    assert len(list((folder / "run-0").glob("block-*.npz"))) == 4


# ---------------------------------------------------------------- the codec itself


def test_the_codec_gives_back_what_it_was_given():
    frame = pd.DataFrame({"game": np.arange(5, dtype=np.int64), "score": np.linspace(0, 1, 5),
                          "kind": pd.Categorical(list("abcab"))})
    tally = SeatTally(3)
    tally.n = 7
    value = (frame, {1: [np.float32(2.5), None, float("nan")], "x": (True, "s", 2**70)},
             tally)
    header = {"run": "r", "block": 3, "games": [0, 5]}
    back = codec.loads(codec.dumps(value, header), header)
    pd.testing.assert_frame_equal(back[0], frame)
    assert back[1][1][0] == np.float32(2.5) and back[1][1][0].dtype == np.float32
    assert back[1][1][1] is None and np.isnan(back[1][1][2])
    assert back[1]["x"] == (True, "s", 2**70)
    assert type(back[2]) is SeatTally and back[2].n == 7
    assert np.array_equal(back[2].sums, tally.sums)


def test_the_codec_holds_only_rumsim_s_own_classes():
    with pytest.raises(TypeError, match="cannot hold"):
        codec.dumps(Path("x"), {})
    header = {"run": "r", "block": 0, "games": [0, 1]}
    data = codec.dumps(SeatTally(2), header)
    for name in ("posix:system", "builtins:eval", "subprocess:Popen", "pathlib:Path"):
        forged = data.replace(b"analyses.seats:SeatTally", name.encode())
        with pytest.raises(codec.BlockError):
            codec.loads(forged, header)
