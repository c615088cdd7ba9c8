"""The README's worked tunings are the report pages' own questions, word for word: each
page's "What would fix it" command appears in the README, so the two cannot drift."""

from __future__ import annotations

from pathlib import Path

import pytest

from reports.build import PAGES
from reports.sections.tune import Tune

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
QUESTIONS = [(game, q) for game, page in PAGES.items() for s in page.sections
             if isinstance(s, Tune) for q in s.questions]


def test_every_page_asks_a_question():
    assert {game for game, _ in QUESTIONS} == set(PAGES)


@pytest.mark.parametrize("game,question", QUESTIONS,
                         ids=[f"{g}-{i}" for i, (g, _) in enumerate(QUESTIONS)])
def test_the_readme_shows_the_command(game, question):
    assert question.command(game) in README, (
        f"README lacks the worked tuning of {game}: {question.command(game)}")
