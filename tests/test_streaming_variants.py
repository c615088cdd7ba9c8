"""The variants comparison streamed chunk by chunk equals the comparison of whole frames,
for every game (real runs small enough to keep): the same pair tables, so the same
bootstrap; means, shares and the score spread to floating-point rounding."""

from __future__ import annotations

import numpy as np
import pytest

import simulate
from analyses.variants import VariantsTally, compare
from engines import GAMES, get_game

COLUMNS = ["base", "value", "diff", "low", "high", "p", "vrf", "p_holm"]


@pytest.fixture(scope="module", params=GAMES)
def runs(request):
    info = get_game(request.param)
    players = info.check_players(None)
    preset = next(p for p in info.rules_cls.PRESETS if p not in ("standard", "default"))
    base = simulate.run(info, 2000, players=players, seed=3, progress=False).frame
    variant = simulate.run(info, 2000, rules=info.rules_cls.from_overrides({}, preset=preset),
                           players=players, seed=3, progress=False).frame
    return players, base, {preset: variant}


@pytest.mark.parametrize("size", [137, 2000])
def test_a_streamed_comparison_equals_the_whole_frames(runs, size):
    players, base, variants = runs
    whole = compare(base, variants, players, n_boot=300).table
    tally = VariantsTally(players, list(variants))
    for i in range(0, len(base), size):
        tally.add(base.iloc[i:i + size], {k: v.iloc[i:i + size] for k, v in variants.items()})
    streamed = tally.answer(n_boot=300).table
    assert list(whole["metric"]) == list(streamed["metric"])
    a, b = whole[COLUMNS].to_numpy(float), streamed[COLUMNS].to_numpy(float)
    assert np.allclose(a, b, rtol=1e-9, atol=1e-12, equal_nan=True)
    assert (whole["significant"] == streamed["significant"]).all()


def test_a_chunk_must_hold_every_variant_on_the_same_games(runs):
    players, base, variants = runs
    tally = VariantsTally(players, list(variants))
    with pytest.raises(ValueError, match="every variant"):
        tally.add(base, {})
    with pytest.raises(ValueError, match="same games"):
        tally.add(base.iloc[:10], {k: v.iloc[10:20] for k, v in variants.items()})
