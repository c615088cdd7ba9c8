"""``rumsim compare``: shorter-game variations among skilled players, paired on common random
numbers (analyses.compare, reports.compare_page, reports/cli/commands/compare.py).

Small fixed-seed runs of 21 Motines (its fast engine; a few hundred games): a preset equal to
the base changes nothing, exactly; a shorter preset is shorter; the search check of a player
against itself finds no difference, exactly; blocks merged equal one tally; the same answer
with one thread or two, and from the run store; the page and JSON hold no NaN, infinity or
'-0.0' and name players in a designer's words; a user's mistake is exit code 2.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

import simulate
import simulate.runner
from analyses import compare as C
from engines import get_game
from simulate import codec
from tests.clitools import run_cli

GAME = "motines"
CHEAP_CHECK = "rollout:base=expert:samples=1:width=2"  # the cheapest search over the expert


@pytest.fixture(scope="module")
def info():
    return get_game(GAME)


@pytest.fixture(scope="module")
def answer(info):
    """'standard' (the base itself) and 'short' against the standard rules, 300 games, the
    check played by the expert itself on 40 deals."""
    return C.compare(info, ["standard", "short"], n=300, seed=3, check="expert", check_n=40)


# ---------------------------------------------------------------- the pairing


def test_a_preset_equal_to_the_base_changes_nothing_exactly(answer):
    same = answer.rows[answer.rows["variation"] == "standard"]
    assert len(same) >= 8
    assert (same["diff"] == 0).all()
    assert (same["base"] == same["value"]).all()
    # no test calls a change that is not there
    assert not same["verdict"].isin(["shorter", "longer", "rises", "falls", "fewer",
                                     "more"]).any()
    assert "same rules as the base" in answer.sentences()[0]


def test_a_shorter_preset_is_shorter(answer):
    r = answer.row("short", "rounds_mean")
    assert r["diff"] < 0 and r["high"] < 0 and r["verdict"] == "shorter"
    assert answer.row("short", "rounds_median")["value"] < answer.row("short",
                                                                      "rounds_median")["base"]
    assert "shorter by" in answer.sentences()[1]


def test_a_search_check_of_a_player_against_itself_is_exactly_no_difference(answer):
    # the check's two arms on the same deals: its per-deal difference is 0 in every deal
    for name in ("standard", "short"):
        r = answer.row(name, "check")
        assert r["diff"] == 0 and r["base"] == r["value"]
    assert answer.row("standard", "check")["verdict"] != "disagrees"


def test_every_verdict_is_tested_in_one_holm_family(answer):
    rows = answer.rows
    raw = np.concatenate([rows["p"].to_numpy(float), rows["p_equiv"].to_numpy(float)])
    tested = int(np.isfinite(raw).sum())
    assert answer.meta["tests"] == tested
    assert f"all {tested} tests" in " ".join(answer.method)
    adjusted = np.concatenate([rows["p_holm"].to_numpy(float),
                               rows["p_equiv_holm"].to_numpy(float)])
    ok = np.isfinite(raw)
    assert (adjusted[ok] >= raw[ok]).all()


# ---------------------------------------------------------------- tallies


def _frames(info, n: int):
    rules = (info.rules_cls.from_overrides({}),
             info.rules_cls.from_overrides(info.rules_cls.preset("very_short")))
    frames = []
    simulate.run(info, n, rules=rules, policies="expert", players=4, seed=5, keep=False,
                 progress=False, on_chunk=lambda fs: frames.append(list(fs)))
    return [pd.concat([f[k] for f in frames], ignore_index=True) for k in range(2)]


def test_blocks_merged_equal_one_tally_and_survive_the_store_codec(info):
    base, short = _frames(info, 400)
    part = C.CompareParts(4, ("very_short",), None, "score", 2.0)
    whole = part([base, short])
    for size in (1, 137):
        merged = C.CompareTally(4, ["very_short"], None, "score", 2.0)
        for lo in range(0, len(base), size):
            block = part([base.iloc[lo:lo + size], short.iloc[lo:lo + size]])
            back = codec.loads(codec.dumps(block, {"k": 1}), {"k": 1})  # as the store keeps it
            part.verify(back, len(base.iloc[lo:lo + size]))
            merged.merge(back)
        assert merged.n == whole.n == 400
        for key, got in whole.feel.items():   # whole numbers: exactly equal
            assert np.array_equal(merged.feel[key]["s"], got["s"])
            assert np.array_equal(merged.feel[key]["ss"], got["ss"])
        a = C.answer(merged, None, {"very_short": "v"}, _meta(400))
        b = C.answer(whole, None, {"very_short": "v"}, _meta(400))
        pd.testing.assert_frame_equal(a.rows, b.rows, rtol=1e-12)
    with pytest.raises(ValueError):
        part.verify(whole, 399)


def _meta(games: int) -> dict:
    return {"games": games, "base_label": "the standard rules", "players_text": "expert",
            "headline": "h", "title": "t"}


def test_feel_values_follow_the_feel_tally(info):
    """The paired form counts what analyses.feel counts (one arm's shares agree)."""
    from analyses.feel import FeelTally, feel

    base, _ = _frames(info, 200)
    ours = C.feel_values(base, 4, "score", 2.0)
    theirs = feel(FeelTally(4, "score", 2.0).add(base)).set_index("statistic")["estimate"]
    share = {"close": "decided by at most 2", "ties": "tied for first",
             "comebacks": "won by a seat not leading at half time",
             "lead_changes": "lead changes per game",
             "lead_rate": "lead changes per round boundary"}
    for name, statistic in share.items():
        num, den = ours[name]
        assert math.isclose(num.sum() / den.sum(), theirs[statistic], rel_tol=1e-12), name


# ---------------------------------------------------------------- the command


def _cli(capsys, *args):
    return run_cli(capsys, "compare", GAME, *args, "--quiet", "--no-store")


def test_json_and_page_hold_no_nan_and_read_as_a_designer_reads(capsys, tmp_path):
    out = tmp_path / "diff"
    code, text, err = _cli(capsys, "--preset", "short", "--preset", "very_short", "-n", "300",
                           "--check", CHEAP_CHECK, "--check-n", "16", "--out", str(out),
                           "--json")
    assert code == 0, err
    def refuse(constant):
        raise AssertionError(f"JSON holds {constant}")

    data = json.loads(text, parse_constant=refuse)
    assert data["answer"][0].startswith("'short'")
    assert {p.name for p in out.iterdir()} == {"compare.html", "compare.json", "compare.csv"}
    json.loads((out / "compare.json").read_text(), parse_constant=refuse)
    for name in ("compare.json", "compare.csv"):
        assert not re.search(r"-0(\.0*)?(?![.\d])", (out / name).read_text()), name
    page = (out / "compare.html").read_text()
    words = re.sub(r"<[^>]+>", " ", re.sub(r'src="data:[^"]+"', "", page))
    for bad in (r"\bnan\b", r"\binf\b", r"-0\.0+\b(?!\d)"):
        assert not re.search(bad, words, re.IGNORECASE), bad
    assert "None" not in words
    # percentage points in words at first use, the short form after
    assert words.index("percentage points") < words.index(" pp")
    # players in a designer's words: the exact specification only in the footnote and the
    # command
    prose = re.sub(r'<p class="source">.*?</p>|<pre>.*?</pre>', "", page, flags=re.S)
    assert "rollout:" not in prose and "expert + search, 1 playouts" in prose
    assert "rumsim compare motines --preset short --preset very_short" in page
    assert page.index("The answer") < page.index("<table")
    assert len(pd.read_csv(out / "compare.csv")) == len(data["rows"])


@pytest.mark.parametrize("args, says", [
    (["--preset", "shortt"], "unknown preset 'shortt'"),
    (["--base-preset", "nope"], "unknown preset 'nope'"),
    (["-n", "lots"], "is not a number"),
    (["--check-n", "-3"], "--check-n"),
    (["--check", "rollout:samples=x"], "not a number"),
    (["--players", "9"], "players"),
])
def test_a_users_mistake_is_one_line_and_exit_2(capsys, args, says):
    code, out, err = _cli(capsys, *args)
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1


def test_a_solo_game_is_refused(capsys):
    code, _, err = run_cli(capsys, "compare", "rum-runner", "--quiet", "--no-store")
    assert code == 2 and "first player" in err


def test_same_answer_with_one_thread_or_two_and_from_the_store(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(simulate.runner, "default_chunk", lambda *a, **k: 100)
    args = ["compare", GAME, "--preset", "short", "-n", "250", "--check", CHEAP_CHECK,
            "--check-n", "8", "--json", "--quiet"]
    one = run_cli(capsys, *args, "--workers", "1", "--no-store")
    two = run_cli(capsys, *args, "--workers", "2", "--no-store")
    assert one[0] == two[0] == 0 and one[1] == two[1]
    store = ["--store", str(tmp_path / "store")]
    run_cli(capsys, *args, "-n", "150", *store)    # the first blocks stored
    again = run_cli(capsys, *args, *store)
    assert "games from the run store" in again[2]
    assert again[1] == one[1]


# ---------------------------------------------------------------- declarations


def test_the_declarations_are_the_pages(info):
    """Each game's main player count is its page's ladder's; its close margin, its unit and
    margin column are its page's game-feel section's; its shorter presets exist and say they
    shorten; the default check is the ladder's top rung."""
    from analyses import ANALYSES
    from reports.build import PAGES

    assert set(ANALYSES["compare"].games) == set(C.GAMES)
    assert ANALYSES["compare"].function is C.compare
    from reports.sections.feel import Feel
    from reports.sections.strength import Strength

    for game, decl in C.GAMES.items():
        g = get_game(game)
        sections = PAGES[game].sections
        strength = next(s for s in sections if isinstance(s, Strength))
        feel = next(s for s in sections if isinstance(s, Feel))
        assert decl.players == strength.players[0], game
        assert (decl.margin_prefix, decl.close, decl.unit) == (
            feel.margin_prefix, feel.close, feel.unit), game
        for name in decl.shorter:
            text = g.rules_cls.PRESETS[name][0]
            assert "short" in name and any(w in text for w in ("short", "instead", "rounds",
                                                               "mutinies", "ships")), name
        assert C.default_rungs(g) == g.extra["ladder"][-1]
        assert decl.pace is None   # no rules spec gives a pace (shared/rules/*.md)
