"""The page frame and its sections: pages found from their declarations, sections keyed by the
analyses registry, the runs table, the seat section's tables.

Made-up results only, so nothing here plays a game.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd
import pytest

import reports.montego_bay as mb
import reports.rum_rebellion as rr
from analyses import ANALYSES
from engines import GAMES, get_game
from reports.build import PAGES
from reports.page import GamePage
from reports.sections.bands import ScoreBands
from reports.sections.seats import SeatAdvantage
from simulate.errors import UserError
from simulate.results import Results


def run(preset: str, players: int, n: int = 400, seed: int = 0) -> Results:
    """A Rum Rebellion-like run: a random winner per game."""
    rng = np.random.default_rng(seed)
    winner = rng.integers(0, players, n)
    frame = pd.DataFrame({"game": np.arange(n), "players": players,
                          "rounds": rng.integers(15, 40, n), "turns": 100, "capped": 0})
    for s in range(players):
        frame[f"win_{s}"] = (winner == s).astype(float)
        frame[f"score_{s}"] = 1000 * (winner == s) + rng.integers(0, 300, n)
    return Results(frame, {"preset": preset, "players": players, "seed": 1,
                           "rules_changed": "default", "policies": [rr.POLICY] * players,
                           "backend": "fast", "elapsed_s": 0.25, "games": n})


def mb_run(players: int, n: int = 300) -> Results:
    """A Montego Bay-like run: each game deals the players distinct rail positions."""
    res = run("standard", players, n)
    rail = np.argsort(np.random.default_rng(5).random((n, players)), axis=1) + 1
    for s in range(players):
        res.frame[f"first_rail_pos_{s}"] = rail[:, s]
    res.meta["policies"] = [mb.POLICY] * players
    return res


def test_pages_are_the_declared_page_modules_in_the_games_order():
    declared = [g for g in GAMES if importlib.util.find_spec("reports." + g.replace("-", "_"))]
    assert declared and list(PAGES) == declared
    for game, page in PAGES.items():
        assert isinstance(page, GamePage) and page.game == game
        assert page.filename == f"{page.stem}.html"


def test_every_section_presents_a_registered_analysis_of_its_game():
    for page in PAGES.values():
        assert page.sections
        for section in page.sections:
            assert ANALYSES[section.key].applies_to(page.game), (page.game, section.key)


def test_a_section_refuses_a_game_its_analysis_does_not_apply_to():
    with pytest.raises(UserError, match="thresholds analysis does not apply to montego-bay"):
        ScoreBands().analyse(get_game("montego-bay"), {})


def test_a_page_has_one_section_per_analysis():
    with pytest.raises(ValueError, match="one section per analysis"):
        GamePage(game="rum-rebellion", filename="x.html", title="t", subtitle="s", blurb="b",
                 plan=rr.plan, sections=(SeatAdvantage(), SeatAdvantage()),
                 reading=lambda answers: [], how_to_read=lambda page, answers: None)


def test_the_runs_table_says_what_each_run_served_only_when_that_differs():
    results = {f"{preset}, 4 players": run(preset, 4, seed=1) for preset in ("standard", "short_a")}
    results["standard, 2 players"] = run("standard", 2, seed=2)
    runs = rr.PAGE.render(results, "cmd").tables["rum_rebellion_runs.csv"]
    assert list(runs["used for"]) == [
        "variants (base) and seats and sensitivity and variant_sensitivity and feel",
        "variants and variant_sensitivity", "seats and sensitivity and feel"]
    # Every Montego Bay run serves both of its sections: no column to say so.
    assert "used for" not in mb.PAGE.render(
        {"standard, 3 players": mb_run(3)}, "cmd").tables["montego_bay_runs.csv"]


def test_seat_tables_have_a_column_per_seat_seen_blank_where_a_setting_has_none():
    section = next(s for s in rr.PAGE.sections if s.key == "seats")
    answer = section.analyse(get_game("rum-rebellion"),
                             {"a": run("standard", 3, seed=3), "b": run("standard", 2, seed=4),
                              "c": run("short_a", 2, seed=5)})  # not a preset of the section
    assert [s.name for s in answer.settings] == ["2 players", "3 players"]
    wide = section.wide(answer, "seat")
    assert list(wide.columns) == ["players", "games", "seat 0", "seat 1", "seat 2",
                                  "seat 0 - fair", "equal-shares p (Holm)", "verdict"]
    assert wide.loc[0, "seat 2"] == "" and wide.loc[1, "seat 2"] != ""
    # the p shown is Holm-adjusted over the section's tests (one per setting here)
    raw = [s.seat.p_value for s in answer.settings]
    adjusted = answer.holm_p()
    assert set(adjusted) == {(s.name, "seat") for s in answer.settings}
    assert all(adjusted[(s.name, "seat")] >= p for s, p in zip(answer.settings, raw, strict=True))
    assert list(wide["games"]) == [400, 400]


def test_holm_covers_every_test_of_a_seat_section_with_views():
    """Montego Bay's section shows three tests per setting (rail order, rail position, seat):
    all of them form one Holm family, and the verdicts table shows the adjusted p."""
    section = next(s for s in mb.PAGE.sections if s.key == "seats")
    answer = section.analyse(get_game("montego-bay"), {"standard, 3 players": mb_run(3)})
    tests = answer.tests()
    assert len(tests) == 3 and {v for _, v in tests} == {"rail order", "seat",
                                                         mb.view_name(answer.settings[0])}
    from analyses.stats import holm

    assert list(answer.holm_p().values()) == list(holm(np.array(list(tests.values()))))
    frame = mb.verdicts_frame(answer)
    assert (frame["seat_p_holm"] >= frame["seat_p"]).all()
