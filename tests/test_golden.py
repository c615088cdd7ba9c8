"""Recorded narrated games (``rumsim play`` output) that must replay word for word.

Every ``tests/golden/*.txt`` is one recording: its first line is the command
that made it (``$ rumsim play ...``), the rest is what the command printed.
A change to the rules, the draw order or the narration shows up here first.
If the change is intended, rewrite the recordings from their commands with
``make golden`` (``pytest tests/test_golden.py --update-golden``), read the
diff, and say why in the commit. A new recording is a new file: its first
line, then ``make golden``.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from reports.cli import main

HERE = Path(__file__).parent / "golden"
PROMPT = "$ rumsim "


def recordings() -> list[Path]:
    return sorted(HERE.glob("*.txt"))


def command(path: Path) -> list[str]:
    """The CLI arguments on a recording's first line."""
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    assert first.startswith(PROMPT), f"{path.name}: the first line must be '{PROMPT}...'"
    return shlex.split(first[len(PROMPT):])


def test_there_are_recordings_of_every_game():
    from engines import GAMES

    played = {command(path)[1] for path in recordings()}
    assert set(GAMES) <= played, f"games without a golden narration: {set(GAMES) - played}"


@pytest.mark.parametrize("path", recordings(), ids=lambda p: p.stem)
def test_recorded_game_replays_word_for_word(capsys, request, path):
    args = command(path)
    assert args[0] == "play"
    assert main(args) == 0
    out, _ = capsys.readouterr()
    first, recorded = path.read_text(encoding="utf-8").split("\n", 1)
    if request.config.getoption("--update-golden"):
        path.write_text(f"{first}\n{out}", encoding="utf-8")
        return
    assert out == recorded
