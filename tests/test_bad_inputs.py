"""Bad and edge inputs across the commands: one stderr line, the right exit code, no traceback.

Each case is the exact command a hostile but realistic user would type (issue 11's list and
what it led to). Files the cases need are made in a temporary folder first.
"""

from __future__ import annotations

import json
import os

import pytest

from reports.cli import main


def files(tmp_path):
    """Rules and variants files that are wrong in one way each."""
    made = {
        "both.toml": "flip_after_draw = false\n[rules]\ndraw_count = 3\n",
        "deep.toml": "a = " + "[" * 2000 + "]" * 2000 + "\n",
        "preset5.toml": "[fast]\npreset = 5\n",
        "presetlist.toml": "[fast]\npreset = [\"long\"]\n",
        "huge_int.toml": "draw_count = 99999999999999999999999\n",
    }
    for name, text in made.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "big.toml").write_bytes(b"# x\n" * 300_000)
    (tmp_path / "folder.toml").mkdir()
    return tmp_path


# (arguments, words the one stderr line must hold); every case must exit with code 2
CASES = [
    (["run", "rum-runner", "-n", "2,5e3"], "commas only between thousands"),
    (["run", "rum-runner", "-n", "1,00"], "commas only between thousands"),
    (["run", "rum-runner", "-n", "10", "--policy", "greedy:draw_threshold=nan"],
     "is not a finite number"),
    (["run", "rum-runner", "-n", "10", "--policy", "greedy:draw_threshold=inf"],
     "is not a finite number"),
    (["run", "montego-bay", "-n", "10", "--policy", "greedy:gamma=-inf"],
     "is not a finite number"),
    (["run", "rum-runner", "-n", "10", "--rule", "draw_count=99999999999999999999999"],
     "is not allowed"),
    (["run", "motines", "-n", "10", "--rule", "deck_counts=1e300,12,12,12,6"],
     "is not allowed"),
    (["play", "rum-runner", "--seed", str(2**64)], "--seed"),
    (["play", "rum-runner", "--seed", "-1"], "--seed"),
    (["run", "rum-runner", "-n", "10", "--backend", "reference", "--workers", "99"],
     "reference backend plays on one thread"),
    (["run", "rum-runner", "-n", "10", "--workers", "99"], "--workers must be between"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/both.toml"],
     "both at the top level"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/deep.toml"], "rules file"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/big.toml"], "larger than 1 MB"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "/dev/zero"], "larger than 1 MB"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/folder.toml"], "is a folder"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/huge_int.toml"],
     "is not allowed"),
    (["variants", "rum-rebellion", "-n", "10", "--variants-file", "{tmp}/preset5.toml"],
     "preset must be a preset's name"),
    (["variants", "rum-rebellion", "-n", "10", "--variants-file", "{tmp}/presetlist.toml"],
     "preset must be a preset's name"),
    (["seats", "rum-and-pirates", "-p", "1..3", "-n", "10"], "2-5 players, not 1"),
    (["seats", "rum-and-pirates", "-p", "3..2", "-n", "10"], "names no player count"),
    (["seats", "rum-and-pirates", "-p", "2..x", "-n", "10"], "not a player count"),
    (["run", "rum-and-pirates", "-n", "10", "--rule", "layout=1,2"], "is not allowed"),
    (["run", "rum-and-pirates", "-n", "10", "--rule",
      "layout=2,0,3,0,4,0,5,0,1,0,6,0,7,0,8,0,9,9"], "turns are 0-3"),
    (["run", "rum-and-pirates", "-n", "10", "--rule",
      "layout=2,0,2,0,4,0,5,0,1,0,6,0,7,0,8,0,9,0"], "each tile 1-9 once"),
    (["run", "rum-and-pirates", "-n", "10", "-p", "3", "--rule", "first_start_seat=4"],
     "first_start_seat=4 is not a seat"),
    (["run", "rum-and-pirates", "-n", "10", "--rule", "zero_hand_may_rest=true",
      "--rule", "rest_coin=0"], "zero_hand_may_rest"),
    (["run", "rum-and-pirates", "-n", "10", "--rule", "coin_supply=7"], "coin_supply=7"),
    # outputs that could not be written are refused before any game is played
    (["run", "rum-runner", "-n", "10", "--out", "/proc/x.parquet"], "cannot write in '/proc'"),
    (["seats", "rum-rebellion", "-n", "10", "--out", "/proc/x.csv"], "cannot write in"),
    (["report", "rum-runner", "--out", "/proc/rumsim-report"], "cannot make the folder"),
    (["report", "rum-runner", "--out", "/dev/null/x"], "cannot make the folder"),
    (["run", "rum-runner", "-n", "10", "--out", "{tmp}/" + "a" * 300 + ".csv"],
     "this file system allows"),
    (["seats", "rum-rebellion", "-n", "10", "--out", "{tmp}/" + "b" * 300 + ".csv"],
     "this file system allows"),
    (["run", "rum-runner", "-n", "10", "--out", "{tmp}/folder.toml"], "must end in"),
    # names, counts, players, seeds, workers, formats, backends across the commands
    (["run", "nosuchgame", "-n", "10"], "unknown game 'nosuchgame'"),
    (["report", "nosuch", "--out", "{tmp}/r"], "unknown game 'nosuch'"),
    (["bench", "nosuch"], "unknown game"),
    (["run", "rum-runner", "-n", "0"], "at least 1"),
    (["run", "rum-runner", "-n", "-1e3"], "at least 1"),
    (["run", "rum-runner", "-n", "1e11"], "more than"),
    (["run", "rum-runner", "-n", "10", "--seed", "abc"], "--seed"),
    (["run", "rum-runner", "-n", "10", "--workers", "0"], "--workers must be between"),
    (["run", "rum-runner", "-n", "10", "--workers", "-2"], "--workers must be between"),
    (["run", "rum-runner", "-n", "10", "--backend", "gpu"], "backend must be one of"),
    (["run", "rum-runner", "-n", "10", "--format", "yaml"], "--format must be"),
    (["run", "montego-bay", "-n", "10", "-p", "9"], "2-4 players, not 9"),
    (["run", "montego-bay", "-n", "10", "-p", "abc"], "--players"),
    (["run", "montego-bay", "-n", "10", "--policy", "greedy,random"], "names 2 seats"),
    (["run", "rum-runner", "-n", "10", "--rule", "=3"], "unknown rule"),
    (["run", "rum-runner", "-n", "10", "--rule", "draw_count="], "is not allowed"),
    (["run", "rum-runner", "-n", "10", "--policy", ":"], "unknown policy"),
    (["run", "rum-runner", "-n", "10", "--policy", "greedy:=3"], "has no parameter"),
    (["run", "rum-and-pirates", "-n", "10", "--policy", "greedy:reroll_can_win=0.5"],
     "must be a whole number"),
    (["play", "rum-runner", "-p", "2"], "1-player game"),
    (["play", "motines", "-p", "2"], "3-5 players"),
    (["play", "rum-and-pirates", "--policy", "rollout:horizon=2"], "out of range"),
    (["seats", "rum-rebellion", "--margin", "0"], "--margin must be"),
    (["seats", "rum-rebellion", "--margin", "-1"], "--margin must be"),
    (["seats", "rum-rebellion", "--power", "1"], "--power must be"),
    (["seats", "rum-rebellion", "--power", "0.2"], "--power must be"),
    (["seats", "rum-rebellion", "--precision", "0"], "--precision must be"),
    (["seats", "rum-rebellion", "--precision", "0.6"], "--precision must be"),
    (["seats", "rum-rebellion", "--max-games", "abc"], "--max-games 'abc' is not a number"),
    (["seats", "rum-and-pirates", "-p", "2..5", "--policy", "greedy,random"],
     "one player count"),
    (["matchup", "rum-rebellion", "--policy", "nosuch"], "unknown policy 'nosuch'"),
    (["matchup", "rum-rebellion", "--policy", "random", "--field", "nosuch"],
     "unknown policy 'nosuch'"),
    (["matchup", "rum-rebellion", "--policy", "random", "-n", "1"], "fewer than one game"),
    (["variants", "rum-rebellion"], "name at least one variant"),
    (["variants", "rum-rebellion", "--preset", "nosuch"], "unknown preset 'nosuch'"),
    (["report", "rum-runner", "--scale", "0", "--out", "{tmp}/r"], "--scale"),
    (["report", "rum-runner", "--scale", "-1", "--out", "{tmp}/r"], "--scale"),
    (["thresholds", "--target", "1,2"], "target split needs 6"),
    (["thresholds", "--target", "a,b,c,d,e,f"], "--target needs 6 numbers"),
    (["thresholds", "-n", "10", "--policy", "nosuch"], "unknown policy 'nosuch'"),
    (["rules"], "Missing argument"),
    (["play"], "Missing argument"),
    # a run whose rows would not fit in memory is refused before it starts
    (["seats", "rum-rebellion", "-p", "4", "-n", "1e10"], "of rows in memory"),
    (["thresholds", "-n", "1e10"], "of rows in memory"),
]


@pytest.mark.parametrize("args, words", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input_is_one_line_and_exit_code_2(capsys, tmp_path, args, words):
    folder = files(tmp_path)
    args = [a.replace("{tmp}", str(folder)) for a in args]
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("rumsim: error: "), err
    assert words in lines[0], lines[0]
    assert len(lines[0]) < 400  # one readable line, never a file's contents


def test_a_bare_rumsim_shows_what_it_can_do(capsys):
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert "Commands" in out and "seats" in out and "error" not in err


def test_json_never_holds_nan(capsys):
    """A figure that is unknown (no variance in two games, say) is null in JSON: strict readers
    reject NaN."""
    code = main(["variants", "rum-rebellion", "--preset", "short_a", "-n", "2", "-q",
                 "--format", "json"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "NaN" not in out and "Infinity" not in out
    json.loads(out, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))


def test_output_that_cannot_be_written_is_one_line():
    """stdout on a full device: one line on stderr, exit code 1 (a fault, not a mistake)."""
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "reports.cli", "rules", "rum-runner"],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1 and "cannot write the output" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
