"""``restrict``, ``variants`` and ``matchup`` in the run store: each block is tallied where it
is played (``RestrictParts``, ``VariantsParts``, ``MatchupParts``, ``SoloMatchupParts``), a
later run of the same question takes the stored blocks and plays only the rest, and its
answer is the one a single run of every game gives, byte for byte. The blocks' tallies merged
equal one tally fed every game, and a part refuses a result that is not its tally."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

import simulate
import simulate.results
import simulate.runner
from analyses import restrict as R
from analyses.variants import VariantsParts, VariantsTally
from engines import get_game
from reports.cli.commands.matchup import MatchupParts, SoloMatchupParts
from simulate import codec
from simulate.store import Store
from tests.clitools import run_cli

BLOCK = 50  # games a block in these tests, so a few hundred games make several blocks
FROM_STORE = "games from the run store"


@pytest.fixture
def blocks(monkeypatch):
    """Small blocks (the default is thousands of games): every run below crosses several."""
    monkeypatch.setattr(simulate.runner, "default_chunk", lambda *a, **k: BLOCK)


def _cli(capsys, *args):
    code, out, err = run_cli(capsys, *args, "--quiet")
    assert code == 0, err
    return out, err


def _stored_then_more(capsys, tmp_path, args, first, then, alone=None):
    """``args`` with ``first`` (a list of options) into an empty store, then ``then`` with the
    same store, then ``alone`` (default ``then``) with no store: the second's stdout must be
    the third's."""
    store = ["--store", str(tmp_path / "store")]
    _, err = _cli(capsys, *args, *first, *store)
    assert FROM_STORE not in err
    again, err = _cli(capsys, *args, *then, *store)
    assert FROM_STORE in err
    single, _ = _cli(capsys, *args, *(alone or then), "--no-store")
    assert again == single
    return again, err


# ---------------------------------------------------------------- the commands, stored


def test_restrict_adds_deals_to_the_stored_ones(capsys, tmp_path, blocks):
    # 250 deals, then 500: the pilot's 400 deals are a run of their own, then the rest
    args = ["restrict", "montego-bay", "--policy", "greedy", "--choices", "lazy_jack,card_1",
            "--seat", "0", "--format", "json"]
    out, err = _stored_then_more(capsys, tmp_path, args, ["-n", "250"], ["-n", "500"])
    assert json.loads(out)["deals"] == 500
    assert "250 games from the run store" in err


def test_restrict_more_and_a_planned_answer_share_the_stored_deals(capsys, tmp_path, blocks):
    args = ["restrict", "rum-runner", "--policy", "greedy", "--choices", "draw,chain"]
    store = ["--store", str(tmp_path / "store")]
    _cli(capsys, *args, "-n", "300", *store)
    # --more: the pilot's 400 deals (300 stored), then 150 more
    more, err = _cli(capsys, *args, "--more", "150", *store)
    assert "300 games from the run store" in err
    assert more == _cli(capsys, *args, "-n", "550", "--no-store")[0]
    # a planned answer: the pilot (stored) and the planned deals (those after 550 played)
    planned, err = _cli(capsys, *args, "--max-deals", "700", "--format", "json", *store)
    assert FROM_STORE in err
    assert planned == _cli(capsys, *args, "--max-deals", "700", "--format", "json",
                           "--no-store")[0]
    again, err = _cli(capsys, *args, "--max-deals", "700", "--format", "json", *store)
    assert again == planned and "; 0 played" in err


def test_restrict_more_needs_a_store(capsys):
    code, _, err = run_cli(capsys, "restrict", "rum-runner", "--more", "10", "--no-store", "-q")
    assert code == 2 and "--more" in err and len(err.strip().splitlines()) == 1


def test_restrict_answers_from_the_pilot_when_a_stop_refuses_the_rest():
    """A stop as the pilot's last deals finish: the rest is refused (not started), and the
    answer is the pilot's, said as partial (not lost)."""
    from simulate.errors import Interrupted

    calls = []

    def run(info, n, first_game=0, more=None, **kw):
        calls.append((first_game, n, more, type(kw["part"]).__name__))
        if first_game:
            raise Interrupted("interrupted before this run started")
        return simulate.results.Results(pd.DataFrame(), {"games": n, "interrupted": False,
                                                         "requested": n})

    done = R.play(run, get_game("rum-runner"), "greedy", ("draw",), 1, deals=1000)
    assert calls == [(0, 400, None, "RestrictParts"), (400, 600, None, "RestrictParts")]
    assert (done.played, done.planned, done.interrupted) == (400, 1000, True)


def test_variants_add_games_to_the_stored_ones(capsys, tmp_path, blocks):
    args = ["variants", "rum-rebellion", "--preset", "short_a", "--rule", "votes_for_coup=40",
            "--details"]
    out, err = _stored_then_more(capsys, tmp_path, args, ["-n", "120"], ["-n", "240"])
    assert "100 games from the run store" in err and "240 games per variant" in out


def test_variants_more(capsys, tmp_path, blocks):
    args = ["variants", "montego-bay", "--preset", "short", "--format", "csv"]
    _, err = _stored_then_more(capsys, tmp_path, args, ["-n", "100"], ["--more", "100"],
                               ["-n", "200"])
    assert "100 games from the run store" in err and "; 100 played" in err


def test_matchup_adds_deals_to_the_stored_ones(capsys, tmp_path, blocks):
    args = ["matchup", "motines", "--policy", "greedy", "--field", "random", "--format", "json"]
    out, err = _stored_then_more(capsys, tmp_path, args, ["-n", "400"], ["-n", "800"])
    assert json.loads(out)["games"] == 800 and "100 games from the run store" in err


def test_solo_matchup_adds_deals_to_the_stored_ones(capsys, tmp_path, blocks):
    args = ["matchup", "rum-runner", "--policy", "greedy", "--field", "random"]
    out, err = _stored_then_more(capsys, tmp_path, args, ["-n", "150"], ["-n", "300"])
    assert "150 games from the run store" in err and "same 300 deals" in out


# ---------------------------------------------------------------- tallies of blocks, merged


def _lockstep(game, n, chunk, **kw):
    """A lockstep run's frames, block by block."""
    got = []
    simulate.run(game, n, chunk_size=chunk, on_chunk=got.append, keep=False, progress=False,
                 **kw)
    return got


def _merged(part, blocks):
    tally = None
    for frames in blocks:
        tally = part(frames) if tally is None else tally.merge(part(frames))
    return tally


def _whole(blocks):
    return [pd.concat(arm, ignore_index=True) for arm in zip(*blocks, strict=True)]


@pytest.fixture(scope="module")
def restricted():
    info = get_game("montego-bay")
    arms = R.seatings("greedy", ("lazy_jack", "card_1"), 3)
    return R.RestrictParts("greedy", ("lazy_jack", "card_1"), 3), _lockstep(
        info, 300, 300, seatings=arms, players=3, seed=4)


@pytest.fixture(scope="module")
def varied():
    info = get_game("rum-rebellion")
    cls = info.rules_cls
    rules = (cls.from_overrides({}), cls.from_overrides(cls.preset("short_a")))
    return VariantsParts(4, ("short_a",)), _lockstep(info, 300, 300, rules=rules, players=4,
                                                     seed=5)


@pytest.fixture(scope="module")
def matched():
    from analyses.matchup import rotations

    seatings = list(rotations("greedy", "random", 4).values())
    return MatchupParts(4), _lockstep("motines", 300, 300, seatings=seatings, players=4, seed=6)


@pytest.fixture(scope="module")
def solo():
    return SoloMatchupParts(("random", "greedy")), _lockstep(
        "rum-runner", 300, 300, seatings=[("random",), ("greedy",)], players=1, seed=7)


def _text(data) -> str:
    """An answer's JSON as text (a NaN equals itself there)."""
    return json.dumps(data, sort_keys=True, default=str)


def _cut(frames, size):
    n = len(frames[0])
    return [[f.iloc[lo:lo + size].reset_index(drop=True) for f in frames]
            for lo in range(0, n, size)]


def test_restricted_blocks_merged_are_one_tally(restricted):
    part, got = restricted
    whole = _text(part(_whole(got)).answer().to_json())
    for size in (1, 37, 137):
        assert _text(_merged(part, _cut(_whole(got), size)).answer().to_json()) == whole
    other = R.RestrictTally("greedy", ("lazy_jack",), 3)
    with pytest.raises(ValueError, match="cannot merge"):
        part(got[0]).merge(other)


def test_variant_blocks_merged_are_one_tally(varied):
    """Blocks tallied apart and merged: exactly one tally fed the same blocks in turn (as
    ``variants`` did before the store); against one tally of every game the pair tables are
    the same (so the bootstrap), the sums equal to rounding (the score moments are taken
    about the first block's mean)."""
    part, got = varied
    whole = part(_whole(got))
    for size in (37, 137):
        blocks = _cut(_whole(got), size)
        merged = _merged(part, blocks)
        fed = VariantsTally(4, ["short_a"])
        for base, variant in blocks:
            fed.add(base, {"short_a": variant})
        table = merged.answer(n_boot=200).table
        pd.testing.assert_frame_equal(table, fed.answer(n_boot=200).table, check_exact=True)
        pd.testing.assert_frame_equal(table, whole.answer(n_boot=200).table, rtol=1e-12)
        for key, got_pairs in merged.sums.items():
            if isinstance(got_pairs, tuple):
                for a, b in zip(got_pairs, whole.sums[key], strict=True):
                    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="cannot merge"):
        part(got[0]).merge(VariantsTally(4, ["other"]))


def test_score_moments_of_another_centre_are_moved_exactly():
    """Blocks whose mean scores round to other centres merge into the moments a tally fed
    the blocks in turn takes about the first block's centre (whole-number scores: exactly)."""
    rng = np.random.default_rng(3)
    n = 400
    base = pd.DataFrame({"game": np.arange(n), "win_0": 0.0, "win_1": 1.0,
                         "score_0": rng.integers(0, 30, n), "score_1": rng.integers(0, 30, n)})
    base.loc[200:, ["score_0", "score_1"]] += 500  # later blocks centred far from the first
    variant = base.assign(score_1=base["score_1"] + rng.integers(0, 3, n))
    blocks = _cut([base, variant], 100)
    merged = _merged(VariantsParts(2, ("v",)), blocks)
    fed = VariantsTally(2, ["v"])
    for b, v in blocks:
        fed.add(b, {"v": v})
    assert merged.centre == fed.centre == 14.0
    key = ("v", "score_spread")
    np.testing.assert_array_equal(merged.sums[key]["s"], fed.sums[key]["s"])
    np.testing.assert_array_equal(merged.sums[key]["ss"], fed.sums[key]["ss"])


def test_head_to_head_blocks_merged_are_one_tally(matched, solo):
    from analyses.ladder import score_ladder

    part, got = matched
    whole = _text(part(_whole(got)).answer("greedy", "random").to_json())
    assert _text(_merged(part, _cut(_whole(got), 37)).answer("greedy", "random").to_json()) \
        == whole
    part, got = solo
    whole = score_ladder(part(_whole(got))).table
    pd.testing.assert_frame_equal(score_ladder(_merged(part, _cut(_whole(got), 37))).table,
                                  whole, check_exact=True)


# ---------------------------------------------------------------- a part refuses a stranger


@pytest.mark.parametrize("which", ["restricted", "varied", "matched", "solo"])
def test_a_part_refuses_a_result_that_is_not_its_tally(request, which):
    part, got = request.getfixturevalue(which)
    frames = got[0]
    games = len(frames[0])
    result = part(frames)
    part.verify(result, games)
    back = codec.loads(codec.dumps(result, {"k": 1}), {"k": 1})  # as the store reads it
    part.verify(back, games)
    with pytest.raises(ValueError):
        part.verify(result, games + 1)
    with pytest.raises(ValueError):
        part.verify(part(_cut(frames, games - 1)[0]), games)
    with pytest.raises(ValueError):
        part.verify(np.zeros(3), games)
    for other in _others(part):
        with pytest.raises(ValueError):
            other.verify(result, games)
    assert part.store_version == 1
    assert codec.loads(codec.dumps(part, {"k": 1}), {"k": 1}) == part  # data only
    assert all(not callable(getattr(part, f.name)) for f in dataclasses.fields(part))


def _others(part):
    """The same kind of part asking another question."""
    if isinstance(part, R.RestrictParts):
        return [dataclasses.replace(part, choices=("lazy_jack",)),
                dataclasses.replace(part, seat=1)]
    if isinstance(part, VariantsParts):
        return [VariantsParts(4, ("other",)), VariantsParts(3, part.names)]
    if isinstance(part, MatchupParts):
        return [MatchupParts(3)]
    return [SoloMatchupParts(("greedy", "random"))]


def test_a_stored_block_of_another_question_is_refused_and_played_again(tmp_path, capsys):
    """A stored block replaced with a valid file holding a tally of fewer deals: said,
    dropped, played again, and the answer is the one with no store."""
    info = get_game("rum-runner")
    choices = ("draw", "chain")
    arms = R.seatings("greedy", choices, 1)
    part = R.RestrictParts("greedy", choices, 1)
    store = Store(tmp_path / "store")
    seen = {}
    pool = store.pool

    def spy(job, info):
        seen["job"] = job
        return pool(job, info)

    store.pool = spy

    def answer(store):
        tally = R.RestrictTally("greedy", choices, 1)
        simulate.run(info, 200, seatings=arms, players=1, seed=9, chunk_size=BLOCK, part=part,
                     on_part=tally.merge, keep=False, progress=False, store=store)
        return tally.answer().to_json()

    first = answer(store)
    frames = _lockstep(info, BLOCK - 1, BLOCK, seatings=arms, players=1, seed=9)[0]
    store.save(pool(seen["job"], info), BLOCK, BLOCK, part(frames), None)  # 49 deals as 50
    capsys.readouterr()
    assert _text(answer(store)) == _text(first) == _text(answer(None))
    err = capsys.readouterr().err
    assert "is damaged (it counts 49 deals, not 50); playing it again" in err
    store.close()
