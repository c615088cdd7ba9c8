"""`rumsim plan seats`: the games `rumsim seats --precision` needs, against a hand computation
and against where a real run stops; the command it prints; its mistakes; and the seats
verdict's "games in all" for an undetermined answer."""

from __future__ import annotations

import io
import json
import math
import re
import shlex

import numpy as np
import pandas as pd
import pytest

from analyses import plan, sequential
from analyses.seats import games_to_decide, seat_advantage
from tests.clitools import run_cli


def test_games_needed_matches_a_hand_computation():
    """4 players, share 1/4 with no ties, precision 0.01, alpha 5%: the bets are tuned to the
    plan, and the settled half-width (log(2/a) + n 4 v psi(lam)) / (n lam) reaches 0.01 at
    n = log(2/a) / (lam h - 4 v psi(lam)), rounded up to a look (every 5% of the plan)."""
    h, v, log_term = 0.01, 0.25 * 0.75, math.log(40)
    n_plan = plan.planned_games(h, 4)
    reached = sequential.eb_games_for(h, v, 0.05)
    assert n_plan == math.ceil(reached * 20 / 19.5)  # half a look beyond
    # eb_games_for is where the fair share's settled half-width first reaches h (to 0.5%)
    assert sequential.eb_expected_halfwidth(reached, v, 0.05) <= h
    assert sequential.eb_expected_halfwidth(int(reached * 0.99), v, 0.05) > h
    lam = min(math.sqrt(2 * log_term / (v * n_plan)), 0.5)
    psi = (-math.log(1 - lam) - lam) / 4
    by_hand = math.ceil(log_term / (lam * h - 4 * v * psi))
    assert plan.games_needed(0.25, h, 4, checkpoints=False) == by_hand
    step = max(50, math.ceil(n_plan / 20))
    assert plan.check_every(n_plan) == step
    assert plan.games_needed(0.25, h, 4) == math.ceil(by_hand / step) * step
    # at the fair share the stop is the plan, to within one look
    assert abs(plan.games_needed(0.25, h, 4) - n_plan) <= step
    # exactly where the settled half-width crosses h
    assert plan.halfwidth_at(by_hand, v, n_plan) <= h < plan.halfwidth_at(by_hand - 1, v, n_plan)


@pytest.mark.parametrize("players, precision", [(2, 0.02), (4, 0.005), (3, 0.01)])
def test_at_the_fair_share_the_run_stops_at_the_predicted_look(players, precision):
    """A first player at exactly 1/P, its wins fed to the confidence sequence and looked at
    as `seats --precision` looks: it stops at the look `plan seats` predicts. With the plan
    where the fair share reaches the precision (on the 20th look) it stopped one look later
    in 89.5%, 18.8% and 36.2% of 400 runs; half a look beyond, in none of 400."""
    rng = np.random.default_rng(players)
    n_plan = plan.planned_games(precision, players)
    step = plan.check_every(n_plan)
    predicted = plan.games_needed(1 / players, precision, players)
    stops = []
    for _ in range(150):
        seq = sequential.EBSequence(0.05, n_plan)
        while not seq.t or seq.halfwidth() > precision:
            seq.update((rng.random(step) < 1 / players).astype(float))
        stops.append(seq.t)
    assert np.mean(np.array(stops) == predicted) >= 0.95


def test_games_needed_follows_the_variance_and_the_minimum():
    base = plan.games_needed(0.30, 0.005, 4, checkpoints=False)
    assert plan.games_needed(0.30, 0.005, 4, variance=0.30 * 0.70, checkpoints=False) == base
    # ties counted 1/k make the wins less variable: fewer games; a share nearer 1/2, more
    assert plan.games_needed(0.30, 0.005, 4, variance=0.18, checkpoints=False) < base
    assert plan.games_needed(0.45, 0.005, 4, checkpoints=False) > base
    assert plan.games_needed(0.30, 0.005, 4, minimum=10**7) >= 10**7
    # bets tuned to a fair share of 1/20 cannot get a share of 1/2 that narrow
    assert plan.games_needed(0.5, 0.01, 20) is None
    for bad in (0, 0.5, -1, math.nan):
        with pytest.raises(ValueError):
            plan.games_needed(0.25, bad, 4)


def test_duration_words():
    assert plan.duration(7.31) == "7.3 s"
    assert plan.duration(200) == "3.3 min"
    assert plan.duration(3 * 3600) == "3 h"
    assert plan.duration(5 * 86_400) == "5 days"
    assert plan.duration(0.2) == "under 1 s"


def test_the_plan_prints_the_games_and_a_command_that_stops_there(capsys):
    """The plan's games for rum-rebellion at 3 players, precision 0.01, are where the
    command it prints stops (within one look, 5% of the plan: the pilot's share is an
    estimate), and the text shows the numbers and the command."""
    code, out, err = run_cli(capsys, "plan", "seats", "rum-rebellion", "-p", "3",
                             "--precision", "0.01", "--pilot-seconds", "0.3",
                             "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    (row,) = data["by_players"]
    assert row["players"] == 3 and row["share_from"] == "pilot"
    assert row["pilot"]["games"] > 0 and row["pilot"]["rate"] > 0
    assert row["seconds"] == pytest.approx(row["games_needed"] / row["pilot"]["rate"])
    assert row["command"] == "rumsim seats rum-rebellion -p 3 --precision 0.01"
    args = shlex.split(row["command"])
    assert args[0] == "rumsim"
    code, out, err = run_cli(capsys, *args[1:], "-q", "--format", "json")
    assert code == 0, err
    stopped = json.loads(out)["games"]
    assert abs(stopped - row["games_needed"]) <= row["check_every"]
    assert row["check_every"] == plan.check_every(row["planned_games"])

    code, out, err = run_cli(capsys, "plan", "seats", "rum-rebellion", "-p", "3",
                             "--precision", "0.01", "--pilot-seconds", "0.2", "--seed", "5",
                             "--policy", "blocker")
    assert code == 0, err
    assert "rumsim seats rum-rebellion -p 3 --precision 0.01 --policy blocker --seed 5" in out
    assert "anytime-valid 95% interval" in out and "games/s" in out
    assert "compilation excluded" in out
    row_line = next(x for x in out.splitlines() if x.startswith("3 "))
    # the games needed and the pilot's games, with thousands separators
    assert len(re.findall(r"\b\d{1,3}(?:,\d{3})+\b", row_line)) >= 2


def test_a_game_count_target_and_csv(capsys):
    code, out, err = run_cli(capsys, "plan", "seats", "rum-rebellion", "-p", "2,3", "-n", "1e6",
                             "--pilot-seconds", "0.1", "--format", "csv")
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert list(table["players"]) == [2, 3] and list(table["games_needed"]) == [10**6] * 2
    assert list(table["command"]) == [f"rumsim seats rum-rebellion -p {p} -n 1000000"
                                      for p in (2, 3)]
    # the half-width a fixed-n run of that many games shows (Wilson, to its normal form)
    assert table["halfwidth"].between(0.0008, 0.0011).all()


@pytest.mark.parametrize("args, words", [
    (["--precision", "0"], "--precision must be between 0 and 0.5"),
    (["--precision", "0.5"], "--precision must be between 0 and 0.5"),
    (["--precision", "-0.01"], "--precision must be between 0 and 0.5"),
    (["--precision", "nan"], "--precision must be between 0 and 0.5"),
    ([], "name the target"),
    (["--precision", "0.01", "-n", "100"], "name the target"),
    (["--precision", "0.01", "-p", "9"], "2-6 players, not 9"),
    (["--precision", "0.01", "-p", "x"], "not a player count"),
    (["--precision", "0.01", "--policy", "gready"], "unknown policy 'gready'"),
    (["--precision", "0.01", "--backend", "slow"], "--backend must be one of"),
    (["--precision", "0.01", "--pilot-seconds", "0"], "--pilot-seconds must be"),
    (["-n", "0"], "game count must be at least 1"),
])
def test_plan_mistakes_are_one_line_and_exit_2(capsys, args, words):
    code, out, err = run_cli(capsys, "plan", "seats", "rum-rebellion", *args)
    assert code == 2 and words in err, err
    assert err.strip().count("\n") == 0 and out == ""


@pytest.mark.parametrize("game, words", [
    ("rum-rebelion", "unknown game 'rum-rebelion' (did you mean 'rum-rebellion'?)"),
    ("rum-runner", "rum-runner is a solo game"),
])
def test_plan_refuses_a_game_it_cannot_plan(capsys, game, words):
    code, out, err = run_cli(capsys, "plan", "seats", game, "--precision", "0.002")
    assert code == 2 and words in err and err.strip().count("\n") == 0


def test_plan_alone_shows_its_help(capsys):
    code, _, _ = run_cli(capsys, "plan")
    assert code == 0


# ---------------------------------------------------------------- the seats verdict


def _frame(shares, n, seed):
    rng = np.random.default_rng(seed)
    winner = rng.choice(len(shares), size=n, p=shares)
    return pd.DataFrame({f"win_{s}": (winner == s).astype(float) for s in range(len(shares))})


def test_undetermined_says_how_many_games_in_all_would_decide():
    frame = _frame([1 / 3] * 3, 3_000, seed=1)
    ans = seat_advantage(frame, 3, margin=0.02)
    assert ans.verdict == "undetermined"
    assert "games in all would shrink seat" in ans.verdict_text
    assert "`rumsim plan seats ... -n" in ans.verdict_text
    assert not re.search(r"\w[.;!?] [A-Z]", ans.verdict_text)  # one sentence
    # n (h / d)^2 from the answer's own bounds (its table keeps them), rounded up in the text
    in_all, seat = games_to_decide(ans.table, ans.games, 0.02)
    shown = int(ans.verdict_text.split("about ")[1].split(" games in all")[0].replace(",", ""))
    assert in_all <= shown < in_all * 1.1
    assert f"seat {seat}'s interval" in ans.verdict_text
    # that many games bring the binding 90% bound to about the margin (as 1/sqrt(n))
    row = ans.table.iloc[seat]
    bigger = seat_advantage(_frame([1 / 3] * 3, int(in_all), seed=2), 3, margin=0.02)
    half_then = (bigger.table.iloc[seat]["eq_high"] - bigger.table.iloc[seat]["eq_low"]) / 2
    assert half_then == pytest.approx(0.02 - abs(row["gap"]), rel=0.1)


def test_an_estimate_on_the_margin_cannot_be_decided_by_more_games():
    table = pd.DataFrame({"gap": [0.02, -0.02], "eq_low": [0.0, -0.04], "eq_high": [0.04, 0.0],
                          "ub_low": [-0.01, -0.05], "ub_high": [0.05, 0.01]})
    in_all, _ = games_to_decide(table, 1_000, 0.02)
    assert in_all == math.inf
    # two seats exactly on the fair share minus and plus the margin, 1,000 games each
    wins = np.zeros((1_000, 2))
    wins[:520, 0] = 1
    wins[520:, 1] = 1
    frame = pd.DataFrame({"win_0": wins[:, 0], "win_1": wins[:, 1]})
    ans = seat_advantage(frame, 2, margin=0.02)
    assert ans.verdict == "undetermined" and ans.more_games is None
    assert "more games alone cannot be promised to decide it" in ans.verdict_text
    # a lack of evidence either way, never worded as evidence that the gap is on the margin
    assert "not evidence that the gap is on the margin" in ans.verdict_text
    assert "balanced within" not in ans.verdict_text
