"""The rumsim command line: real output for good input, one line and exit code 2 for mistakes."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from reports.cli import main
from simulate.results import Results


def rumsim(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- user mistakes


MISTAKES = [
    (["run", "rum-runer", "-n", "10"], "unknown game 'rum-runer' (did you mean 'rum-runner'?)"),
    (["run", "rum-runner", "-n", "10", "--policy", "gready"],
     "unknown policy 'gready' for rum-runner (did you mean 'greedy'?)"),
    (["run", "rum-runner", "-n", "10", "--preset", "lon"], "unknown preset 'lon' (did you mean 'long'?)"),
    (["run", "rum-runner", "-n", "10", "--rule", "flip_after_drow=false"],
     "unknown rule 'flip_after_drow' (did you mean 'flip_after_draw'?)"),
    (["run", "rum-runner", "-n", "10", "--rule", "draw_count=0"],
     "rule draw_count='0' is not allowed: expected int 1..16"),
    (["run", "rum-runner", "-n", "10", "--rule", "bounce_mode=bouncy"],
     "rule bounce_mode='bouncy' is not allowed: expected reflect|stop_at_end|wrap"),
    (["run", "rum-runner", "-n", "10", "--rule", "flip_after_draw"], "--rule needs key=value"),
    (["run", "rum-runner", "-n", "1e6x"], "game count '1e6x' is not a number"),
    (["run", "rum-runner", "-n", "2.5"], "game count '2.5' is not a whole number"),
    (["run", "rum-runner", "-n", "-5"], "game count must be at least 1"),
    (["run", "rum-runner", "-n", "10", "--policy", "greedy:draw_threshold=abc"],
     "policy parameter greedy:draw_threshold='abc' is not a number"),
    (["run", "rum-runner", "-n", "10", "--policy", "rollout:samples=0"],
     "policy parameter rollout:samples=0 is out of range"),
    (["run", "rum-runner", "-n", "10", "--players", "3"], "rum-runner is a 1-player game"),
    (["run", "rum-runner", "-n", "10", "--format", "xml"], "--format must be table, json or csv"),
    (["run", "rum-runner", "-n", "10", "--out", "results.txt"], "must end in .parquet or .csv"),
    (["run", "rum-runner", "-n", "10", "--out", "no/such/folder/r.csv"], "does not exist"),
    (["rules", "montego"], "unknown game 'montego'"),
    (["play", "rum-runner", "--policy", "best"], "unknown policy 'best'"),
    (["thresholds", "-n", "100", "--target", "50,50"], "target"),
    (["run", "rum-runner", "--frobnicate"], "no such option --frobnicate"),
    (["nonsense"], "No such command 'nonsense'"),
]


@pytest.mark.parametrize("args, message", MISTAKES, ids=[" ".join(a) for a, _ in MISTAKES])
def test_user_mistake_is_one_line_and_exit_code_2(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = rumsim(capsys, *args)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("rumsim: error: ")
    assert message in lines[0]
    assert "Traceback" not in err


def test_rules_file_mistakes(capsys, tmp_path):
    missing = tmp_path / "missing.toml"
    broken = tmp_path / "broken.toml"
    broken.write_text("flip_after_draw = = false\n")
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("flip_after_drew = false\n")
    wrong_type = tmp_path / "wrong.toml"
    wrong_type.write_text("draw_count = 'three'\n")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    cases = [(missing, "does not exist"), (broken, "is not valid TOML"),
             (unknown, "did you mean 'flip_after_draw'?"), (wrong_type, "draw_count"),
             (binary, "cannot be read")]
    for path, message in cases:
        code, out, err = rumsim(capsys, "run", "rum-runner", "-n", "5", "--rules-file", str(path))
        assert code == 2, path
        assert len(err.strip().splitlines()) == 1
        assert message in err, (path, err)


def test_rules_file_is_applied(capsys, tmp_path):
    path = tmp_path / "long.toml"
    path.write_text("[rules]\nflip_after_draw = false\nmax_turns = 60\n")
    code, out, err = rumsim(capsys, "run", "rum-runner", "-n", "50", "--rules-file", str(path),
                            "--backend", "reference", "--format", "json", "-q")
    assert code == 0, err
    meta = json.loads(out)["meta"]
    assert meta["rules"]["flip_after_draw"] is False
    assert meta["rules"]["max_turns"] == 60
    assert "flip_after_draw=false" in meta["rules_changed"]


def test_a_failed_command_keeps_what_was_already_written(capsys, tmp_path):
    target = tmp_path / "old.csv"
    target.write_text("precious\n")
    code, _, _ = rumsim(capsys, "run", "rum-runner", "-n", "10", "--rule", "bad=1",
                        "--out", str(target))
    assert code == 2
    assert target.read_text() == "precious\n"
    assert [p.name for p in tmp_path.iterdir()] == ["old.csv"]


# ---------------------------------------------------------------- good input


def test_games_lists_rum_runner(capsys):
    code, out, _ = rumsim(capsys, "games")
    assert code == 0
    assert "rum-runner" in out and "greedy" in out and "score_0" in out
    code, out, _ = rumsim(capsys, "games", "--format", "json")
    data = json.loads(out)
    assert data[0]["game"] == "rum-runner" and data[0]["players"] == "1"


def test_rules_lists_every_option_and_preset(capsys):
    from engines.rum_runner.rules import Rules

    code, out, _ = rumsim(capsys, "rules", "rum-runner")
    assert code == 0
    for opt in Rules.options():
        assert opt.key in out
    assert "long: " in out and "flip_after_draw=false" in out
    code, out, _ = rumsim(capsys, "rules", "rum-runner", "--format", "json")
    data = json.loads(out)
    assert {o["key"] for o in data["options"]} == {o.key for o in Rules.options()}
    assert data["presets"]["long"]["overrides"] == {"flip_after_draw": False}


def test_play_narrates_a_game_card_by_card(capsys):
    code, out, _ = rumsim(capsys, "play", "rum-runner", "--seed", "3")
    assert code == 0
    assert "Setup: ports" in out
    assert "Turn 1:" in out and "plays" in out and "lands on port" in out and "flips port" in out
    assert "Game over after" in out and "Score " in out


def test_play_json_accounts_for_every_card(capsys):
    code, out, _ = rumsim(capsys, "play", "rum-runner", "--seed", "3", "--json")
    assert code == 0
    record = json.loads(out)
    final = record["final"]
    places = ([p["card"] for p in final["ports"]] + final["movement_deck"] + final["hand"]
              + final["discard"] + final["collection"]
              + [c for pile in final["rum_piles"].values() for c in pile])
    assert len(places) == 52 and len(set(places)) == 52
    assert record["outcome"]["score_0"] >= 0
    assert record["events"][0]["event"] == "setup"
    # the machine record and the narration describe the same game
    _, text, _ = rumsim(capsys, "play", "rum-runner", "--seed", "3")
    assert f"Score {record['outcome']['score_0']}:" in text


def test_run_accepts_counts_as_people_write_them(capsys):
    for written, games in (("1e2", 100), ("1_50", 150), ("2.5e1", 25)):
        code, out, err = rumsim(capsys, "run", "rum-runner", "-n", written, "--backend",
                                "reference", "--format", "json", "-q")
        assert code == 0, err
        assert json.loads(out)["meta"]["games"] == games


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_run_saves_rows_with_metadata(capsys, tmp_path, suffix):
    path = tmp_path / f"rows{suffix}"
    code, out, err = rumsim(capsys, "run", "rum-runner", "-n", "40", "--policy", "random",
                            "--rule", "flip_after_draw=false", "--seed", "9", "--backend",
                            "reference", "--out", str(path), "-q")
    assert code == 0, err
    loaded = Results.load(path)
    assert len(loaded.frame) == 40
    assert loaded.meta["seed"] == 9 and loaded.meta["policies"] == ["random"]
    assert loaded.meta["rules"]["flip_after_draw"] is False
    assert list(loaded.frame["game"]) == list(range(40))
    assert "score_0" in out


def test_run_csv_summary(capsys):
    code, out, _ = rumsim(capsys, "run", "rum-runner", "-n", "30", "--backend", "reference",
                          "--format", "csv", "-q")
    assert code == 0
    frame = pd.read_csv(__import__("io").StringIO(out))
    assert list(frame.columns) == ["column", "mean", "sd", "min", "p5", "p50", "p95", "max"]
    assert "score_0" in set(frame["column"])


def test_bench_prints_records_with_the_agreed_fields(capsys):
    code, out, err = rumsim(capsys, "bench", "rum-runner", "--policy", "random", "--seconds",
                            "0.02", "--repeats", "1", "--json")
    assert code == 0, err
    (record,) = json.loads(out)
    assert {"game", "policy", "players", "fast_1", "fast_all", "reference", "speedup"} <= set(record)
    assert record["game"] == "rum-runner" and record["policy"] == "random"
    assert record["fast_1"] > 0 and record["reference"] > 0
    assert record["speedup"] == pytest.approx(record["fast_1"] / record["reference"], rel=0.01)
    code, out, _ = rumsim(capsys, "bench", "rum-runner", "--policy", "random", "--seconds",
                          "0.02", "--repeats", "1")
    assert code == 0 and "fast 1 thread" in out and "speedup" in out


def test_bench_mistakes(capsys):
    code, _, err = rumsim(capsys, "bench", "rum-runner", "--policy", "grredy")
    assert code == 2 and "did you mean 'greedy'" in err
    code, _, err = rumsim(capsys, "bench", "montego-bay", "-p", "7")
    assert code == 2 and "2-4 players" in err


def test_seats_answers_with_intervals_a_verdict_and_the_rail_order(capsys):
    code, out, err = rumsim(capsys, "seats", "montego-bay", "-p", "3", "--policy", "random",
                            "-n", "3000", "-q")
    assert code == 0, err
    assert "Win share by rail order place" in out and "Win share by seat" in out
    assert "Win share by first rail position" in out and "Verdict" in out
    code, out, _ = rumsim(capsys, "seats", "rum-rebellion", "-p", "3", "-n", "2000", "-q",
                          "--format", "json")
    data = json.loads(out)
    assert data["players"] == 3 and len(data["seats"]) == 3
    assert data["verdict"] in {"balanced", "unbalanced", "undetermined"}
    assert abs(sum(s["share"] for s in data["seats"]) - 1) < 1e-9


def test_seats_answers_a_range_of_player_counts(capsys):
    code, out, err = rumsim(capsys, "seats", "rum-rebellion", "-p", "2..3", "-n", "1000", "-q")
    assert code == 0, err
    assert "rum-rebellion: 2 players" in out and "rum-rebellion: 3 players" in out
    assert out.count("Verdict (margin") == 2
    code, out, _ = rumsim(capsys, "seats", "rum-rebellion", "-p", "3,2", "-n", "1000", "-q",
                          "--format", "csv")
    table = pd.read_csv(__import__("io").StringIO(out))
    assert list(table.columns[:2]) == ["players", "seat"]
    assert list(table[table["table"] == "seats"]["players"]) == [3, 3, 3, 2, 2]
    code, out, _ = rumsim(capsys, "seats", "rum-rebellion", "-p", "2..3", "-n", "1000", "-q",
                          "--format", "json")
    data = json.loads(out)
    assert [d["players"] for d in data["by_players"]] == [2, 3]
    # a single count answers exactly as before (and as the same count within a range)
    code, out, _ = rumsim(capsys, "seats", "rum-rebellion", "-p", "2", "-n", "1000", "-q",
                          "--format", "json")
    single = json.loads(out)
    assert single["seats"] == data["by_players"][0]["seats"]


def test_seats_player_range_mistakes(capsys):
    for bad, words in ((["-p", "2..9"], "2-6 players, not 9"), (["-p", "x"], "not a player count"),
                       (["-p", "2..3", "--policy", "random,random"], "one player count")):
        code, _, err = rumsim(capsys, "seats", "rum-rebellion", "-n", "10", *bad)
        assert code == 2 and words in err and "Traceback" not in err, err


def test_seats_precision_plays_enough_games_for_an_anytime_valid_interval(capsys):
    code, out, err = rumsim(capsys, "seats", "rum-rebellion", "-p", "2", "-n", "100",
                            "--precision", "0.05", "-q", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["sequential"] is True
    seat0 = data["seats"][0]
    assert (seat0["high"] - seat0["low"]) / 2 <= 0.05 + 1e-12
    assert data["games"] > 100


def test_seats_precision_alone_plays_what_it_needs_and_n_sets_a_minimum(capsys):
    from analyses import plan as seat_plan

    code, out, err = rumsim(capsys, "seats", "rum-rebellion", "-p", "2", "--precision", "0.05",
                            "-q", "--format", "json")
    assert code == 0, err
    games = json.loads(out)["games"]
    plan = seat_plan.planned_games(0.05, 2)
    chunk = seat_plan.check_every(plan)  # checkpoints every 5% of the plan
    # stopped at a checkpoint once the interval was narrow enough
    assert games % chunk == 0 and games <= plan + 2 * chunk
    code, out, err = rumsim(capsys, "seats", "rum-rebellion", "-p", "2", "--precision", "0.05",
                            "-n", "5000", "-q", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == max(-(-5000 // chunk) * chunk, games)
    seat0 = data["seats"][0]
    assert (seat0["high"] - seat0["low"]) / 2 <= 0.05


def test_seats_mistakes(capsys):
    code, _, err = rumsim(capsys, "seats", "rum-runner", "-n", "100")
    assert code == 2 and "solo game" in err
    code, _, err = rumsim(capsys, "seats", "montego-bay", "--precision", "0.00001",
                          "--max-games", "1e5")
    assert code == 2 and "needs about" in err
    code, _, err = rumsim(capsys, "seats", "montego-bay", "--margin", "2")
    assert code == 2 and "--margin" in err


def test_seats_csv_is_one_tidy_table_when_a_game_gives_two_answers(capsys, tmp_path):
    out = tmp_path / "s.csv"
    code, _, err = rumsim(capsys, "seats", "montego-bay", "-p", "3", "--policy", "random",
                          "-n", "600", "-q", "--out", str(out))
    assert code == 0, err
    table = pd.read_csv(out)
    assert list(table.columns[:2]) == ["answer", "seat"]
    assert table.groupby(["answer", "table"]).size().to_dict() == {
        ("place", "seats"): 3, ("seat", "seats"): 3, ("seat", "first rail position"): 5}


def test_seats_adjusts_every_equal_shares_test_it_shows(capsys):
    """Montego Bay's answer shows three tests (rail order place, seat, first rail position):
    one line gives each Holm-adjusted over all three, and the JSON carries them."""
    assert main(["seats", "montego-bay", "-p", "3", "-n", "600", "-q"]) == 0
    out = capsys.readouterr().out
    assert "Multiplicity: the 3 equal-shares tests above, Holm-adjusted" in out
    assert "rail order place p" in out and "first rail position p" in out
    assert main(["seats", "rum-rebellion", "-p", "2..3", "-n", "600", "-q", "--format",
                 "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["holm_p"]) == {"2 players, seat", "3 players, seat"}
