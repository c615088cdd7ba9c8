"""`rumsim tune` end to end on real games, small budgets: the answer as a table, JSON and
CSV, the same whatever the workers, and one line with exit code 2 for each mistake.

Rum Runner (quick) carries most checks; Rum & Pirates (a few thousand games a second)
gives the two-player-count case on a tiny budget."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from tests.clitools import run_cli

RUM_RUNNER = ["tune", "rum-runner", "--knob", "flip_after_draw", "--knob", "draw_count=2,3",
              "--goal", "band_distance=0", "--budget", "40000", "-q"]
SETTINGS = {f"flip_after_draw={f}, draw_count={d}" for f in ("false", "true") for d in (2, 3)}


def settings(names) -> set[str]:
    return {n.removesuffix(" (the current rules)") for n in names}


def test_the_table_recommends_a_setting(capsys):
    code, out, err = run_cli(capsys, *RUM_RUNNER)
    assert code == 0, err
    assert "Recommendation: " in out
    line = next(x for x in out.splitlines() if x.startswith("Recommendation: "))
    assert settings([line.removeprefix("Recommendation: ")]) <= SETTINGS
    assert "band_distance[40,25,15,10,6,4]" in out
    assert "Error rate: the truly best of the raced settings is dropped with probability " \
           "at most 5%" in out


def test_the_csv_has_one_row_per_setting(capsys):
    code, out, err = run_cli(capsys, *RUM_RUNNER, "--format", "csv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert len(table) == 4
    assert settings(table["setting"]) == SETTINGS
    assert {"players", "setting", "flip_after_draw", "draw_count", "status", "games",
            "objective"} <= set(table.columns)
    assert (table["status"] == "best").sum() == 1


def _without_seconds(data):
    if isinstance(data, dict):
        return {k: _without_seconds(v) for k, v in data.items() if k != "seconds"}
    if isinstance(data, list):
        return [_without_seconds(v) for v in data]
    return data


def test_the_json_answer_is_the_same_whatever_the_workers(capsys):
    runs = {}
    for workers in ("1", "2"):
        code, out, err = run_cli(capsys, *RUM_RUNNER, "--format", "json", "--workers", workers)
        assert code == 0, err
        runs[workers] = json.loads(out)
    assert _without_seconds(runs["1"]) == _without_seconds(runs["2"])
    check_json(runs["2"])


def check_json(data) -> None:
    (answer,) = data["answers"]
    assert answer["players"] == 1 and answer["knobs"] == ["flip_after_draw", "draw_count"]
    assert answer["goals"] == ["band_distance[40,25,15,10,6,4] = 0%"]
    best = answer["best"]
    assert settings([best["setting"]]) <= SETTINGS
    (row,) = best["goals"]
    assert row["low"] <= row["estimate"] <= row["high"]
    assert settings(c["setting"] for c in answer["candidates"]) == SETTINGS
    race = answer["race"]
    assert 0 < race["games_played"] <= 40_000
    assert race["error_rate"] == 0.05 and race["looks"]
    assert race["games_played"] == answer["games_played"]  # no screening for 4 settings
    assert not race["interrupted"] and not race["none_feasible"]
    statuses = [c["status"] for c in answer["candidates"]]
    assert statuses.count("best") == 1
    dropped = [c for c in answer["candidates"] if c["status"].startswith("dropped")]
    assert len(dropped) == sum(len(x["dropped"]) for x in race["looks"])


MISTAKES = [
    (["--goal", "band_distanse=0"], "unknown goal metric 'band_distanse' (did you mean "
                                    "'band_distance'?)"),
    (["--goal", "first_player_edge=0"], "does not apply to this game at 1 player"),
    (["--goal", "band_distance=0:weight=0"], "the weight must be a positive number"),
    (["--goal", "band_distance"], "needs METRIC=TARGET"),
    (["--knob", "draw_cont=2,3"], "unknown rule 'draw_cont' (did you mean 'draw_count'?)"),
    (["--knob", "draw_count=0..3"], "outside draw_count's range"),
    (["--knob", "draw_count=3"], "has one value"),
    (["--knob", "draw_count=2,3", "--knob", "draw_count=4,5"], "set the same rule"),
    (["--budget", "500"], "too small for 2 settings"),
    (["--budget", "lots"], "is not a number"),
    (["--error-rate", "0.7"], "--error-rate must lie from 1e-06 to below 0.5"),
    (["--error-rate", "0"], "--error-rate must lie from 1e-06 to below 0.5"),
    (["--error-rate", "1e-300"], "--error-rate must lie from 1e-06"),
    # NaN passes every comparison: it raced the whole budget to "n/a"
    (["--goal", "band_distance[nan,20,20,20,20,20]=0"], "needs six percentages"),
    (["--goal", "band_distance[inf,20,20,20,20,-inf]=0"], "needs six percentages"),
]


@pytest.mark.parametrize("extra, message", MISTAKES, ids=[" ".join(e) for e, _ in MISTAKES])
def test_a_mistake_is_one_line_and_exit_code_2(capsys, extra, message):
    args = ["tune", "rum-runner", "-q"]
    if "--knob" not in extra:
        args += ["--knob", "draw_count=2,3"]
    if "--goal" not in extra:
        args += ["--goal", "band_distance=0"]
    code, out, err = run_cli(capsys, *args, *extra)
    assert code == 2, (out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert message in lines[0]


@pytest.mark.parametrize("missing, message", [("--goal", "at least one --goal"),
                                              ("--knob", "at least one --knob")])
def test_a_tuning_needs_goals_and_knobs(capsys, missing, message):
    args = {"--goal": ["--goal", "band_distance=0"], "--knob": ["--knob", "draw_count=2,3"]}
    del args[missing]
    code, out, err = run_cli(capsys, "tune", "rum-runner", "-q", *sum(args.values(), []))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_each_player_count_gets_its_answer(capsys):
    code, out, err = run_cli(capsys, "tune", "rum-and-pirates", "--players", "2..3",
                             "--knob", "rest_coin=0,1", "--goal", "first_player_edge=0",
                             "--budget", "1600", "--format", "json", "-q")
    assert code == 0, err
    answers = json.loads(out)["answers"]
    assert [a["players"] for a in answers] == [2, 3]
    for a in answers:
        assert a["race"]["games_played"] <= 1600
        assert settings(c["setting"] for c in a["candidates"]) == {"rest_coin=0", "rest_coin=1"}
        assert a["best"]["goals"][0]["metric"] == "first_player_edge"


def test_base_rules_typed_as_strings_take_list_entry_knobs():
    """The report's questions give their base rules as --rule strings: a knob on one entry of
    a list option must set that entry of the parsed list, not of the string's characters."""
    from analyses.tune import simulate_arena, tune
    from engines import get_game

    info = get_game("rum-and-pirates")
    policies = info.seat_policies("random", 2)
    arena = simulate_arena(info, 2, policies, seed=3, progress=False)
    answer = tune(info, 2, {"starting_coins_by_seat": "2,2,2,2,2"},
                  ["first_player_edge=0"], ["starting_coins_by_seat[0]=2,3"], arena,
                  budget=2_000, policies_label="random", seed=3)
    assert sorted(answer.labels) == ["starting_coins_by_seat[0]=2 (the current rules)",
                                     "starting_coins_by_seat[0]=3"]
    assert not answer.skipped


def test_every_player_count_is_checked_before_a_game_is_played(capsys, monkeypatch):
    """`tune --players 4,3` with a goal only 4 players have raced 4 players for minutes, then
    refused the 3-player goal and printed nothing: now it is refused before any game."""
    import analyses.tune

    def no_games(*args, **kwargs):
        raise AssertionError("a game was played before the question was checked")

    monkeypatch.setattr(analyses.tune, "simulate_arena", no_games)
    code, out, err = run_cli(capsys, "tune", "motines", "-q", "--players", "4,3",
                             "--knob", "start_money_captain=2..3", "--goal", "place_gap[3]=0")
    assert code == 2, (out, err)
    assert err.strip() == "rumsim: error: place_gap[3]: K must be from 0 to 2 at 3 players"
