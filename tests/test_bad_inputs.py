"""Bad and edge inputs across the commands: one stderr line, the right exit code, no traceback.

Each case is the exact command a hostile but realistic user would type (issue 11's list and
what it led to). Files the cases need are made in a temporary folder first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
        "list_for_bool.toml": "flip_after_draw = [1]\n",
        "unknown_table.toml": "[foo]\nx = 1\n",
        "short_list.toml": "deck_counts = [1, 2]\n",
        "string_list.toml": "deck_counts = \"12,12\"\n",
        "not_a_table.toml": "x = 3\n",
        "empty.toml": "",
        "v_unknown.toml": "[v]\nnosuch = 1\n",
        "v_string.toml": "[v]\nticket_cost = \"six\"\n",
        "v_big.toml": "[v]\nticket_cost = 99\n",
        "v_float.toml": "[v]\nticket_cost = 3.5\n",
        "v_bool.toml": "[v]\nticket_cost = true\n",
        "a_file.txt": "not a folder\n",
    }
    for name, text in made.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "big.toml").write_bytes(b"# x\n" * 300_000)
    (tmp_path / "garbage.toml").write_bytes(bytes(range(256)) * 8)  # binary, not UTF-8
    (tmp_path / "latin1.toml").write_bytes("# r\xe8gle\nticket_cost = 3\n".encode("latin-1"))
    (tmp_path / "folder.toml").mkdir()
    for link in ("link.csv", "link.parquet", "link.toml"):  # --out replaced the link itself
        (tmp_path / link).symlink_to(tmp_path / "empty.toml")
    (tmp_path / "folder.csv").mkdir()
    os.mkfifo(tmp_path / "fifo.toml")   # opening it would wait for a writer forever
    (tmp_path / "v_base.toml").write_text("[base]\nticket_cost = 4\n")
    (tmp_path / "v_short_a.toml").write_text("[short_a]\nticket_cost = 4\n")
    (tmp_path / "v_many.toml").write_text(
        "".join(f"[v{i}]\nticket_cost = {1 + i % 9}\n" for i in range(10_000)))
    return tmp_path


LONG = "c" * 300  # longer than any file system's name limit


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
    (["run", "rum-runner", "-n", "10", "--rules-file", "/dev/zero"], "is not a regular file"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/folder.toml"], "is a folder"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/" + "r" * 300 + ".toml"],
     "cannot be read: File name too long"),
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
    (["seats", "rum-rebellion", "--precision", "0.01", "--max-games", "abc"],
     "--max-games 'abc' is not a number"),
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
    # seats and thresholds keep no rows (they stream): only a count beyond the limit is refused
    (["seats", "rum-rebellion", "-p", "4", "-n", "1e11"], "is more than 1e+10"),
    (["thresholds", "-n", "1e11"], "is more than 1e+10"),
    # ---- added: every command and option family, each case run and seen to fail first
    # games / rules / play
    (["games", "--format", "xml"], "--format must be table, json or csv, not 'xml'"),
    (["games", "extra"], "unexpected extra argument"),
    (["rules", "rum-runner", "--format", "yaml"], "--format must be"),
    (["rules", ""], "unknown game ''"),
    (["play", "rum-runner", "--game-index", "-1"], "--game-index"),
    (["play", "rum-runner", "--game-index", "1e3"], "--game-index"),
    (["play", "rum-runner", "--preset", "lnog"], "(did you mean 'long'?)"),
    (["play", "rum-runner", "--rule", "draw_count=abc"], "expected int 1..16"),
    (["play", "montego-bay", "-p", "5..2"], "--players"),
    (["play", "rum-runner", "--rules-file", "{tmp}/garbage.toml"], "cannot be read"),
    # counts
    (["run", "rum-runner", "-n", "1e99"], "is more than 1e+10"),
    (["run", "rum-runner", "-n", "1e3.5"], "'1e3.5' is not a number"),
    (["run", "rum-runner", "-n", "abc"], "'abc' is not a number"),
    (["run", "rum-runner", "-n", ""], "game count '' is not a number"),
    (["run", "rum-runner", "-n", "nan"], "is not a finite number"),
    (["run", "rum-runner", "-n", "10", "--chunk-size", "0"], "chunk size must be at least 1"),
    (["run", "rum-runner", "-n", "10", "--chunk-size", "abc"], "chunk size 'abc'"),
    (["thresholds", "-n", "0"], "at least 1"),
    (["thresholds", "--slow-games", "-5"], "--slow-games must be at least 1"),
    (["thresholds", "--slow-games", "1e11"], "--slow-games '1e11' is more than"),
    (["variants", "rum-rebellion", "--preset", "short_a", "-n", "abc"], "'abc' is not a number"),
    (["matchup", "rum-rebellion", "--policy", "random", "-n", "0"], "at least 1"),
    # players
    (["run", "rum-runner", "-n", "10", "-p", "0"], "1-player game"),
    (["run", "motines", "-n", "10", "-p", "-3"], "3-5 players, not -3"),
    (["run", "montego-bay", "-n", "10", "-p", "2.5"], "--players"),
    (["seats", "rum-rebellion", "-p", "2.."], "not a player count"),
    (["seats", "rum-rebellion", "-p", "x"], "not a player count"),
    (["seats", "rum-rebellion", "-p", "5..2"], "names no player count"),
    (["seats", "rum-rebellion", "-p", ""], "names no player count"),
    (["seats", "rum-rebellion", "-p", "2..99"], "2-6 players, not 99"),
    (["seats", "rum-rebellion", "-p", "2,x"], "not a player count"),
    (["seats", "rum-runner"], "solo game"),
    (["matchup", "rum-runner", "--policy", "random", "-n", "1"], "two or more deals"),
    (["matchup", "rum-rebellion", "--policy", "random", "-p", "9"], "2-6 players, not 9"),
    (["variants", "rum-rebellion", "--preset", "short_a", "-p", "1"], "2-6 players, not 1"),
    (["bench", "rum-runner", "-p", "3"], "1-player game"),
    # seeds and workers
    (["run", "rum-runner", "-n", "10", "--seed", "1.5"], "--seed"),
    (["run", "rum-runner", "-n", "10", "--seed", str(2**63)], "--seed"),
    (["run", "rum-runner", "-n", "10", "--seed", ""], "--seed"),
    (["run", "rum-runner", "-n", "10", "--workers", "1000000000000"], "--workers must be"),
    (["run", "rum-runner", "-n", "10", "--workers", "x"], "--workers"),
    (["seats", "rum-rebellion", "-n", "10", "--workers", "0"], "--workers must be"),
    (["variants", "rum-rebellion", "--preset", "short_a", "-n", "10", "--workers", "0"],
     "--workers must be"),
    (["report", "rum-runner", "--workers", "-1", "--out", "{tmp}/r"], "--workers must be"),
    # precision, margin, power, scale, seconds
    (["seats", "rum-rebellion", "--margin", "nan"], "--margin must be"),
    (["seats", "rum-rebellion", "--margin", "inf"], "--margin must be"),
    (["seats", "rum-rebellion", "--margin", "0.5"], "--margin must be"),
    (["seats", "rum-rebellion", "--power", "nan"], "--power must be"),
    (["seats", "rum-rebellion", "--power", "-1"], "--power must be"),
    (["seats", "rum-rebellion", "--precision", "nan"], "--precision must be"),
    (["seats", "rum-rebellion", "--precision", "-0.01"], "--precision must be"),
    (["seats", "rum-rebellion", "--precision", "0.001", "--max-games", "1000"],
     "more than --max-games 1,000"),
    (["seats", "rum-rebellion", "--max-games", "0", "--precision", "0.01"],
     "--max-games must be at least 1"),
    (["report", "rum-runner", "--scale", "nan", "--out", "{tmp}/r"], "--scale"),
    (["report", "rum-runner", "--scale", "inf", "--out", "{tmp}/r"],
     "--scale must be a finite number"),
    # the report streams (no rows kept): a scale is refused only when a run would pass 1e10
    (["report", "rum-runner", "--scale", "1e9", "--out", "{tmp}/r", "-q"],
     "makes a run of 400,000,000,000,000 games, more than 1e+10"),
    (["bench", "--seconds", "0"], "--seconds"),
    (["bench", "--seconds", "nan"], "--seconds"),
    (["bench", "rum-runner", "--seconds", "inf"], "--seconds must be at most 3600"),
    (["bench", "--seconds", "1e12"], "--seconds must be at most 3600"),
    (["bench", "--repeats", "0"], "--repeats"),
    # names (with suggestions), rule values, policy parameters
    (["run", "RUM-RUNER", "-n", "10"], "(did you mean 'rum-runner'?)"),
    (["run", "rum-runner", "-n", "10", "--preset", ""], "unknown preset ''"),
    (["variants", "rum-rebellion", "--preset", "short_a", "--base-preset", ""],
     "unknown preset ''"),
    (["variants", "rum-rebellion", "--base-preset", "nosuch", "--preset", "short_a"],
     "unknown preset 'nosuch'"),
    (["variants", "rum-rebellion", "--rule", "nosuch=1"], "unknown rule 'nosuch'"),
    (["thresholds", "--preset", "nosuch"], "unknown preset 'nosuch'"),
    (["bench", "rum-runner", "--policy", "nosuch"], "unknown policy 'nosuch'"),
    (["bench", "rum-runner", "--json", "--policy", ""], "unknown policy ''"),
    (["run", "rum-runner", "-n", "10", "--backend", ""], "backend must be one of"),
    (["run", "rum-runner", "-n", "10", "--rule", "flip_after_draw=maybe"], "expected true|false"),
    (["run", "motines", "-n", "10", "--rule", "deck_counts=1,2"], "list of 5 integers"),
    (["run", "motines", "-n", "10", "--rule", "deck_counts=a,b,c,d,e"], "list of 5 integers"),
    (["run", "rum-runner", "-n", "10", "--rule", "draw_count=3", "--rule", "draw_count=4"],
     "--rule draw_count is given twice"),
    (["run", "rum-runner", "-n", "10", "--policy", "greedy:draw_threshold=1e400"],
     "is not a finite number"),
    (["run", "rum-runner", "-n", "10", "--policy", "greedy:draw_threshold"], "needs key=value"),
    (["run", "rum-runner", "-n", "10", "--policy", "greedy:nosuch=3"], "has no parameter"),
    (["run", "rum-runner", "-n", "10", "--policy", ""], "--policy is empty"),
    (["run", "rum-runner", "-n", "10", "--policy", "greedy,"], "names an empty seat"),
    (["seats", "rum-rebellion", "--policy", "random,,random"], "names an empty seat"),
    (["run", "rum-and-pirates", "-n", "10", "--policy", "rollout:samples=1e9"], "out of range"),
    (["matchup", "rum-and-pirates", "--policy", "rollout:samples=-1"], "out of range"),
    (["matchup", "rum-rebellion", "--policy", "random", "--field", "random,threshold"],
     "unknown policy 'random,threshold'"),
    (["thresholds", "-n", "10", "--policy", "greedy:draw_threshold=nan"],
     "is not a finite number"),
    (["thresholds", "--policy", "greedy,nosuch"], "unknown policy 'nosuch'"),
    (["thresholds", "--target", "nan,20,20,20,20,20"], "target split needs 6"),
    (["thresholds", "--target", "40,25,15,10,6,4,0"], "(7 numbers"),
    (["thresholds", "--target", ""], "target split needs 6"),
    # rules and variants files: missing, binary, invalid UTF-8, wrong types, wrong shapes
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/missing.toml"], "does not exist"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/garbage.toml"], "cannot be read"),
    (["run", "rum-rebellion", "-n", "10", "--rules-file", "{tmp}/latin1.toml"],
     "cannot be read"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/list_for_bool.toml"],
     "expected true|false"),
    (["run", "rum-runner", "-n", "10", "--rules-file", "{tmp}/unknown_table.toml"],
     "unknown rule 'foo'"),
    (["run", "motines", "-n", "10", "--rules-file", "{tmp}/short_list.toml"],
     "list of 5 integers"),
    (["run", "motines", "-n", "10", "--rules-file", "{tmp}/string_list.toml"],
     "list of 5 integers"),
    (["run", "rum-runner", "-n", "10", "--rules-file", ""], "is a folder"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/missing.toml"], "does not exist"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/fifo.toml"],
     "is not a regular file"),
    (["run", "rum-rebellion", "--rules-file", "{tmp}/fifo.toml"], "is not a regular file"),
    (["play", "rum-rebellion", "--rules-file", "{tmp}/fifo.toml"], "is not a regular file"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/v_base.toml"],
     "[base] is the name of the rules"),
    (["variants", "rum-rebellion", "--preset", "short_a", "--variants-file",
      "{tmp}/v_short_a.toml"], "has the name of a variant already given"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/v_many.toml"],
     "names 10,000 variants"),
    (["seats", "rum-rebellion", "--players", "2..1000000000"], "not 1000000000"),
    (["plan", "seats", "rum-rebellion", "-n", "1000", "--players", "2..1000000000"],
     "not 1000000000"),
    (["run", "rum-rebellion", "-n", "10", "--cluster", "local:\u00b2"], "is not local:N"),
    (["run", "rum-rebellion", "-n", "10", "--cluster", "local:100000"],
     "worker processes on this machine"),
    (["run", "rum-rebellion", "-n", "10", "--scheduler", "tls://127.0.0.1:1"],
     "tcp://HOST:PORT"),
    (["run", "rum-rebellion", "-n", "10", "--scheduler", "ucx://127.0.0.1:1"],
     "tcp://HOST:PORT"),
    (["play", "rum-rebellion", "--game-index", str(2**64)], "--game-index"),
    (["bench", "rum-rebellion", "--games", "1e40"], "is more than"),  # was silently ignored
    (["bench", "rum-rebellion", "--games", "1e5"], "with --cluster or --scheduler"),
    # \d matched any script's digits: a fullwidth '１' was taken as entry 1
    (["tune", "rum-rebellion", "--knob", "start_barrels_by_seat[\uff11]=0..2", "--goal",
      "first_player_edge=0"], "must be OPTION"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/garbage.toml"], "cannot be read"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/folder.toml"], "is a folder"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/not_a_table.toml"],
     "'x' must be a table"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/empty.toml"], "names no variants"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/v_unknown.toml"],
     "unknown rule 'nosuch'"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/v_string.toml"],
     "ticket_cost='six' is not allowed"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/v_big.toml"],
     "ticket_cost=99 is not allowed"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/v_float.toml"],
     "ticket_cost=3.5 is not allowed"),
    (["variants", "rum-rebellion", "--variants-file", "{tmp}/v_bool.toml"],
     "ticket_cost=True is not allowed"),
    # output paths: a missing folder, a folder, a wrong suffix, a name too long, /proc
    (["run", "rum-runner", "-n", "10", "--out", "{tmp}/folder.csv"], "is a folder, not a file"),
    (["run", "rum-runner", "-n", "10", "--out", "{tmp}/link.csv"], "is a symbolic link"),
    (["run", "rum-runner", "-n", "10", "--out", "{tmp}/link.parquet"], "is a symbolic link"),
    (["seats", "rum-rebellion", "-n", "10", "--out", "{tmp}/link.csv"], "is a symbolic link"),
    (["thresholds", "--out", "{tmp}/link.csv"], "is a symbolic link"),
    (["train", "rum-runner", "--out", "{tmp}/link.toml"], "is a symbolic link"),
    (["run", "rum-runner", "-n", "10", "--out", ""], "must end in .parquet or .csv"),
    (["run", "rum-runner", "-n", "10", "--format", "csv", "--out", "{tmp}/x.txt"],
     "must end in .parquet or .csv"),
    (["run", "rum-runner", "-n", "10", "--out", "/proc/x.csv"], "cannot write in '/proc'"),
    (["run", "rum-runner", "-n", "10", "--out", "{tmp}/" + LONG + "/x.csv"],
     "File name too long"),
    (["seats", "rum-rebellion", "--out", "{tmp}/" + LONG + "/x.csv"], "File name too long"),
    (["report", "rum-runner", "--out", "{tmp}/" + LONG], "cannot make the folder"),
    (["report", "--out", "{tmp}/a_file.txt"], "exists and is not a folder"),
    (["seats", "rum-rebellion", "--out", "{tmp}/nofolder/s.csv"], "does not exist"),
    (["thresholds", "--out", "{tmp}/x.parquet"], "must end in .csv"),
    (["thresholds", "--out", "/proc/x.csv"], "cannot write in '/proc'"),
    (["variants", "rum-rebellion", "--preset", "short_a", "--out", "{tmp}/v.txt"],
     "must end in .csv"),
    (["variants", "rum-rebellion", "--preset", "short_a", "--out", "/proc/x.csv"],
     "cannot write in '/proc'"),
    (["matchup", "rum-rebellion", "--policy", "random", "--out", "{tmp}/folder.csv"],
     "is a folder"),
    # conflicting options
    (["seats", "rum-rebellion", "--format", "csv", "--out", "{tmp}/s.parquet"],
     "must end in .csv"),
    (["seats", "rum-rebellion", "--precision", "0.01", "-n", "1e6", "--max-games", "1e5"],
     "is more than --max-games 100,000"),
    (["seats", "rum-rebellion", "-n", "1e6", "--max-games", "1000"],
     "--max-games is the limit of --precision"),
    (["variants", "rum-rebellion", "--preset", "short_a", "--base-preset", "short_a"],
     "has the same rules as the base"),
    (["variants", "rum-rebellion", "--rule", "ticket_cost=6"], "has the same rules as the base"),
    (["matchup", "rum-rebellion"], "Missing option '--policy'"),
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
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "reports.cli", "rules", "rum-runner"],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1 and "cannot write the output" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


RUMSIM = os.path.join(os.path.dirname(sys.executable), "rumsim")


@pytest.mark.parametrize("command", ["rules rum-runner", "play rum-runner",
                                     "rules motines --format json"])
def test_a_closed_pipe_exits_quietly(command):
    """`rumsim rules GAME | head -1`: the reader stopped reading; exit 0, nothing on stderr
    (Click turns the broken pipe into a silent exit 1 unless main catches it)."""
    if not os.path.exists(RUMSIM):
        pytest.skip("the rumsim script is not installed beside this Python")
    done = subprocess.run(["bash", "-c", f"set -o pipefail; '{RUMSIM}' {command} | head -1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert len(done.stdout.splitlines()) == 1


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_a_console_that_cannot_show_every_character(encoding):
    """A cp1252 or ASCII console: the narration's suits and dashes become '?' (or Click's
    UTF-8), never a traceback; a mistake with such a character is still one line."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    done = subprocess.run([sys.executable, "-m", "reports.cli", "play", "rum-runner"],
                          capture_output=True, env=env, timeout=300)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    assert len(done.stdout.splitlines()) > 5
    bad = subprocess.run([sys.executable, "-m", "reports.cli", "run", "r\u00fcm-runner"],
                         capture_output=True, env=env, timeout=300)
    err = bad.stderr.decode("utf-8", "replace")
    assert bad.returncode == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "unknown game" in err


def test_a_rules_file_with_a_byte_order_mark_is_read(tmp_path, capsys):
    """Some editors start a UTF-8 file with a byte-order mark; it is still a rules file."""
    path = tmp_path / "bom.toml"
    path.write_bytes("\ufeffflip_after_draw = false\n".encode("utf-8"))
    assert main(["run", "rum-runner", "-n", "20", "-q", "--rules-file", str(path)]) == 0
    assert "flip_after_draw" not in capsys.readouterr().err


def test_python_callers_get_the_empty_seat_refusal_too():
    from engines import get_game
    from engines._rules import RulesError

    with pytest.raises(RulesError, match="names an empty seat"):
        get_game("rum-rebellion").seat_policies("threshold,", 2)


@pytest.mark.parametrize("threads", ["0", "-2", "junk", "1e3"])
def test_a_wrong_numba_num_threads_is_one_line(capsys, monkeypatch, threads):
    monkeypatch.setenv("NUMBA_NUM_THREADS", threads)
    code = main(["run", "rum-rebellion", "-n", "10", "-q"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "NUMBA_NUM_THREADS" in err[0]


def test_a_long_text_is_not_echoed_whole(capsys):
    """A 100 KB goal name comes back as one line of a few hundred characters."""
    code = main(["tune", "rum-rebellion", "--goal", "x" * 100_000 + "=0",
                 "--knob", "ticket_cost=4,5"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and len(err[0]) < 500
    assert "unknown goal metric" in err[0] and "characters..." in err[0]


def test_a_closed_stdout_is_one_line():
    """`rumsim games >&-`: Python starts with no stdout; one line on stderr, exit 2."""
    done = subprocess.run([sys.executable, "-c", "import os, sys; os.close(1); "
                           "os.execv(sys.executable, [sys.executable, '-m', 'reports.cli', "
                           "'games'])"], capture_output=False, stderr=subprocess.PIPE,
                          text=True, timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and lines == [
        "rumsim: error: standard output is closed: there is nowhere to write the answer"]
