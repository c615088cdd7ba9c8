"""Recorded narrated games (``rumsim play`` output) that must replay word for word.

A change to the rules, the draw order or the narration shows up here first.
If the change is intended, regenerate the file with the command in GOLDEN
and say why in the commit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulate.cli import main

HERE = Path(__file__).parent / "golden"

GOLDEN = {
    "rum_runner_seed3_greedy.txt": ["play", "rum-runner", "--seed", "3"],
    "rum_runner_seed5_random_long.txt": ["play", "rum-runner", "--seed", "5", "--policy", "random",
                                         "--preset", "long"],
    "rum_runner_seed7_game2_combined_stop.txt": [
        "play", "rum-runner", "--seed", "7", "--game-index", "2",
        "--rule", "multi_card_mode=combined", "--rule", "bounce_mode=stop_at_end"],
    "rum_rebellion_p3_seed2.txt": ["play", "rum-rebellion", "-p", "3", "--seed", "2"],
    "montego_bay_p4_seed1.txt": ["play", "montego-bay", "-p", "4", "--seed", "1"],
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_recorded_game_replays_word_for_word(capsys, name):
    assert main(GOLDEN[name]) == 0
    out, _ = capsys.readouterr()
    assert out == (HERE / name).read_text(encoding="utf-8")
