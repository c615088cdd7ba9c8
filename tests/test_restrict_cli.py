"""``rumsim restrict``: an answer for every game, the same whatever the threads, the seat
question, and one clear line for every slip."""

from __future__ import annotations

import json

import pytest

from engines import GAMES, get_game
from tests.clitools import run_cli


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_choices_and_answers(capsys, game):
    info = get_game(game)
    assert 4 <= len(info.choices) <= 30
    players = 1 if info.max_players == 1 else info.min_players
    code, out, _ = run_cli(capsys, "restrict", game, "-n", "60", "--players", str(players),
                           "--quiet", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert [r["choice"] for r in data["table"]] == list(info.choice_names)
    assert data["deals"] == 60
    for row in data["table"]:
        assert row["verdict"] in ("dominant", "matters", "useless", "overused", "undetermined")
        assert row["loss_low"] <= row["loss"] <= row["loss_high"]
        assert row["taken"] >= 0


def test_the_answer_is_the_same_whatever_the_threads_and_blocks(capsys):
    first = run_cli(capsys, "restrict", "rum-runner", "-n", "300", "--workers", "1", "--quiet",
                    "--format", "json")
    again = run_cli(capsys, "restrict", "rum-runner", "-n", "300", "--workers", "2", "--quiet",
                    "--format", "json")
    assert first[0] == again[0] == 0
    assert json.loads(first[1])["table"] == json.loads(again[1])["table"]


def test_a_planned_run_plays_the_pilot_then_what_its_spread_asks(capsys):
    code, out, _ = run_cli(capsys, "restrict", "rum-runner", "--max-deals", "900", "--quiet",
                           "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert 400 <= data["deals"] == data["planned_deals"] <= 900


def test_the_text_answer_names_every_choice_and_its_verdict(capsys):
    info = get_game("montego-bay")
    code, out, _ = run_cli(capsys, "restrict", "montego-bay", "-n", "100", "--quiet")
    assert code == 0
    assert "Which choices matter in Montego Bay, 3 players" in out
    for name in info.choice_names:
        assert name in out
    assert "family-wise error at most 5%" in out and "Method: Restricted play" in out


def test_a_seat_question_restricts_that_seat(capsys):
    code, out, _ = run_cli(capsys, "restrict", "montego-bay", "-n", "60", "--seat", "0",
                           "--quiet", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["seat"] == 0 and all(r["seat"] == 0 for r in data["table"])


@pytest.mark.parametrize("args, words", [
    (("--choices", "nonsense"), "has no choice 'nonsense'"),
    (("--choices", "a,,b"), "names an empty choice"),
    (("--seat", "7"), "--seat 7"),
    (("--margin", "1.5"), "--margin"),
    (("--width", "0"), "--width"),
    (("-n", "1"), "two or more deals"),
    (("--policy", "expert:forbid=lazy_jack"), "already restricted"),
    (("--policy", "nobody"), "unknown policy"),
])
def test_a_slip_is_one_line_and_exit_2(capsys, args, words):
    code, out, err = run_cli(capsys, "restrict", "montego-bay", *args, "--quiet")
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1
