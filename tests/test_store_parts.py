"""The strength ladder and the thresholds kept in the run store: a part per block, merged.

``rumsim ladder`` (multi-player and solo), the report's strength section and ``rumsim
thresholds`` reduce each block to a storable tally (``StrengthParts``, ``SoloLadderParts``,
``ThresholdsPart``): a second run of the same question takes the first run's blocks from
the store and plays only the rest, and answers byte for byte as one run with no store. A
tally merged from blocks is the tally of all the games, and a stored block that is not
this ladder's tally of its games is refused.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from clitools import run_cli

import simulate
from analyses.solo_ladder import SoloLadderParts, SoloLadderTally
from analyses.solo_ladder import seatings as solo_seatings
from analyses.strength import StrengthParts, StrengthTally, seatings
from analyses.thresholds import ThresholdsAccumulator, ThresholdsPart
from engines import get_game
from simulate import codec
from simulate.store import Store, storable

# a slow rung makes the run's blocks 64 deals (simulate.runner.default_chunk), so 128 deals
# then 256 share two blocks
MB_RUNGS = "random,sampler:base=expert:n_samples=2"
RR_RUNGS = "random,rollout:base=expert:samples=1"


def _twice_then_once(capsys, tmp_path, args: list[str], first: list[str], second: list[str]
                     ) -> tuple[str, str]:
    """The command with ``first`` then ``second`` into one store, and ``second`` with no
    store: the second run's stderr, and its output (which must be the no-store run's)."""
    store = str(tmp_path / "s")
    code, _, err = run_cli(capsys, *args, *first, "--store", store)
    assert code == 0, err
    assert "from the run store" not in err  # an empty store gives nothing
    code, stored, err = run_cli(capsys, *args, *second, "--store", store)
    assert code == 0, err
    code, alone, err_alone = run_cli(capsys, *args, *second, "--no-store")
    assert code == 0, err_alone
    assert stored == alone  # byte for byte
    return err, stored


def test_ladder_second_run_takes_the_first_runs_deals(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("analyses.strength.LADDER_BLOCK", 64)  # 256 deals a block: slower
    err, out = _twice_then_once(capsys, tmp_path, ["ladder", "montego-bay", "--rungs", MB_RUNGS,
                                                   "-q", "--format", "json"],
                                ["-n", "128"], ["-n", "256"])
    assert "128 games from the run store" in err and "; 128 played" in err
    answer = json.loads(out)
    assert answer["deals"] == 256 and answer["players"] == 3
    assert {r["by"] for r in answer["seat_edges"]} == {"seat", "place"}


def test_solo_ladder_second_run_takes_the_first_runs_deals(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("analyses.strength.LADDER_BLOCK", 64)
    err, out = _twice_then_once(capsys, tmp_path, ["ladder", "rum-runner", "--rungs", RR_RUNGS,
                                                   "-q"], ["-n", "128"], ["-n", "256"])
    assert "128 games from the run store" in err and "; 128 played" in err
    assert "on the same 256 deals" in out


def test_thresholds_second_run_takes_the_first_runs_games(capsys, tmp_path):
    args = ["thresholds", "--policy", "random", "--policy", "rollout:samples=1", "-n", "300",
            "-q"]
    err, out = _twice_then_once(capsys, tmp_path, args, ["--slow-games", "64"],
                                ["--slow-games", "128"])
    # random: its one block of 300 again; rollout (blocks of 64): the first block
    assert "random: 300 games from the run store" in err
    assert "64 games from the run store" in err and "; 64 played" in err
    assert "random" in out


# ---------------------------------------------------------------- merged tallies


def _frames(game: str, arms, players: int, deals: int):
    """One frame per seating, of the same ``deals`` games (one block)."""
    got = []
    simulate.run(game, deals, seatings=arms, players=players, seed=3, keep=False,
                 on_chunk=got.append, chunk_size=deals, progress=False)
    (frames,) = got
    return frames


def _in_blocks(parts, frames, cuts=(0, 1, 138)):
    """``parts``' tally of every block of ``frames`` (cut at ``cuts``), merged in order."""
    tally = parts.tally()
    ends = [*cuts[1:], len(frames[0])]
    for a, b in zip(cuts, ends, strict=True):
        tally.merge(parts([f.iloc[a:b].reset_index(drop=True) for f in frames]))
    return tally


def test_merged_strength_tally_is_the_tally_of_every_deal():
    info = get_game("montego-bay")
    rungs = ("random", "greedy")
    parts = StrengthParts.of(rungs, 3, info.extra.get("seat_views", {}),
                             info.extra["turn_order"][1])
    frames = _frames("montego-bay", seatings(rungs, 3), 3, 240)
    whole = StrengthTally(rungs, 3, info.extra.get("seat_views", {}),
                          info.extra["turn_order"][1]).add(frames)
    merged = _in_blocks(parts, frames)
    assert merged.deals == whole.deals == 240
    assert json.dumps(merged.answer().to_json()) == json.dumps(whole.answer().to_json())


def test_merged_solo_ladder_tally_is_the_tally_of_every_deal():
    rules = get_game("rum-runner").rules_cls()
    rungs = ("random", "greedy", "expert")
    frames = _frames("rum-runner", solo_seatings(rungs, None), 1, 240)
    whole = SoloLadderTally(rungs).add(frames)
    merged = _in_blocks(SoloLadderParts.of(rungs), frames)
    assert json.dumps(merged.answer(rules).to_json()) == json.dumps(whole.answer(rules).to_json())
    # with a ceiling (any policy stands in for one here): its sums merge too
    ceiling = SoloLadderParts.of(rungs[:2], "expert")
    whole = SoloLadderTally(rungs[:2], "expert").add(frames)
    merged = _in_blocks(ceiling, frames)
    assert json.dumps(merged.answer(rules).to_json()) == json.dumps(whole.answer(rules).to_json())


def test_thresholds_parts_merge_to_the_accumulator_of_every_game():
    frame = _frames("rum-runner", [("greedy",)], 1, 240)[0]
    whole = ThresholdsAccumulator.of(frame)
    merged = ThresholdsAccumulator()
    for a, b in ((0, 1), (1, 138), (138, 240)):
        merged = merged.merge(ThresholdsPart()(frame.iloc[a:b]))
    assert (merged.n, merged.stranded) == (whole.n, whole.stranded)
    assert merged.scores.total() == whole.scores.total()
    assert np.array_equal(merged.scores.counts, whole.scores.counts)


# ---------------------------------------------------------------- what a part is


def test_parts_are_storable_data_with_a_store_version():
    parts = [StrengthParts.of(("random", "greedy"), 3, {"rail": "first_rail_pos_{seat}"},
                              "first_rail_pos_{seat}"),
             SoloLadderParts.of(("random", "greedy"), "expert"), ThresholdsPart()]
    for part in parts:
        assert storable(part) and isinstance(part.store_version, int) \
            and part.store_version >= 1
        assert "store_version" not in vars(part)  # a class attribute, not a field
        blob = codec.dumps(part, {"key": "k"})  # nothing in it but data
        again = codec.loads(blob, {"key": "k"})
        assert again == part and repr(again) == repr(part)


@pytest.fixture(scope="module")
def blocks():
    """A block's result of each part, and the part, for 40 deals."""
    info = get_game("montego-bay")
    rungs = ("random", "greedy")
    strength = StrengthParts.of(rungs, 3, info.extra.get("seat_views", {}),
                                info.extra["turn_order"][1])
    solo = SoloLadderParts.of(rungs, "expert")
    return {
        "strength": (strength, strength(_frames("montego-bay", seatings(rungs, 3), 3, 40))),
        "solo": (solo, solo(_frames("rum-runner", solo_seatings(rungs, "expert"), 1, 40))),
        "thresholds": (ThresholdsPart(),
                       ThresholdsPart()(_frames("rum-runner", [("greedy",)], 1, 40)[0])),
    }


@pytest.mark.parametrize("name", ["strength", "solo", "thresholds"])
def test_a_stored_block_passes_its_parts_check(blocks, name):
    part, result = blocks[name]
    header = {"key": "k", "games": [0, 40]}
    part.verify(codec.loads(codec.dumps(result, header), header), 40)


def _damaged(result, change):
    header = {"key": "k", "games": [0, 40]}
    copy = codec.loads(codec.dumps(result, header), header)
    change(copy)
    return copy


def _seat_sums(t):
    t.by_seat[0].sums = np.zeros(5)


def _place(t):
    t.by_place = None


def _head(t):
    t.heads[0].wins[1].n = 39


def _change(t):
    t.changes[0][0].sums[0][1] = 0.5


def _view(t):
    next(iter(t.by_seat[1].by_view.values())).cross["ww"] = np.zeros((1, 2))


def _rungs(t):
    t.rungs = ("random", "expert")


@pytest.mark.parametrize("change", [_seat_sums, _place, _head, _change, _view, _rungs])
def test_a_wrong_strength_block_is_refused(blocks, change):
    part, result = blocks["strength"]
    with pytest.raises(ValueError):
        part.verify(_damaged(result, change), 40)


def test_a_strength_block_of_other_deals_or_kind_is_refused(blocks):
    part, result = blocks["strength"]
    for games in (39, 41):
        with pytest.raises(ValueError):
            part.verify(result, games)
    with pytest.raises(ValueError):
        part.verify(blocks["solo"][1], 40)
    with pytest.raises(ValueError):  # the same ladder without head to heads
        StrengthParts(part.rungs, part.players, part.views, part.place_pattern,
                      heads=False).verify(result, 40)


def _above(t):
    t.above = np.zeros(3, dtype=np.int64)


def _against(t):
    t.against[1, 0] = 39


def _bands(t):  # a histogram's first count is its lowest score's: one game or more
    t.bands[1].scores.counts = t.bands[1].scores.counts[1:]


def _leads(t):
    t.scores.sums = t.scores.sums[:, :, :6]


@pytest.mark.parametrize("change", [_above, _against, _bands, _leads])
def test_a_wrong_solo_ladder_block_is_refused(blocks, change):
    part, result = blocks["solo"]
    with pytest.raises(ValueError):
        part.verify(_damaged(result, change), 40)
    with pytest.raises(ValueError):
        SoloLadderParts(part.rungs, None).verify(result, 40)  # the same rungs, no ceiling


def test_a_wrong_thresholds_block_is_refused(blocks):
    part, result = blocks["thresholds"]
    with pytest.raises(ValueError):
        part.verify(result, 41)

    def turns(t):
        t.turns.counts = t.turns.counts.astype(float)

    def stranded(t):
        t.stranded = 41

    for change in (turns, stranded):
        with pytest.raises(ValueError):
            part.verify(_damaged(result, change), 40)
    with pytest.raises(ValueError):
        part.verify(blocks["solo"][1], 40)


def test_the_strength_section_passes_its_store_on(tmp_path):
    from reports.sections.strength import Strength

    info = get_game("montego-bay")
    section = Strength(rungs=("random", "greedy"), players=(3, 2), deals=60, other_deals=40)
    store = Store(tmp_path / "s")

    def play(store):
        r = section.play(info, 1.0, "fast", False, None, None, store=store)
        return r, {p: json.dumps(a.to_json()) for p, a in r.answers.items()}

    _, first = play(store)
    assert store.questions() and sum(q["games"] for q in store.questions()) == 100
    _, again = play(store)
    _, alone = play(None)
    assert first == again == alone
    default = section.play(info, 1.0, "fast", False, None, None)  # as the page calls it
    assert {p: json.dumps(a.to_json()) for p, a in default.answers.items()} == alone
