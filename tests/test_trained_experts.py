"""Every game's stored expert still beats what it was trained against.

A trained set is data (engines/<game>/trained/*.toml); a rule change, an engine change or a
change to its base policy can leave the numbers in place while the player they describe
gets worse. So each set plays a small fixed-seed head to head here, one seat among its
field's first policy (the spec's best fast policy), rotated through every seat on the same
deals, and its deal-clustered 95% interval must lie above the fair share. A solo set must
beat greedy's mean score on the same deals (paired Student-t interval above 0) under every
rule set it was trained on.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as st

import simulate
from analyses.matchup import MatchupTally
from engines import GAMES, get_game

# Games per check: enough for the edge each set showed in its training's check (the
# multi-player sets' margins run from about 3 points, Rum Rebellion's, to over 30).
GAMES_PER_CHECK = {"rum-rebellion": 40_000, "montego-bay": 6_000, "motines": 2_000,
                   "rum-and-pirates": 2_000, "rum-runner": 2_000}


def trained_sets():
    for name in GAMES:
        info = get_game(name)
        for spec in info.policies.values():
            if spec.base is not None:
                yield pytest.param(name, spec.name, id=f"{name}:{spec.name}")


def test_every_game_has_an_expert():
    for name in GAMES:
        spec = get_game(name).policies.get("expert")
        assert spec is not None and spec.base == "heuristic", name
        made = spec.made
        assert made["command"].startswith(f"rumsim train {name} ")
        assert made["seed"] == int(made["command"].split("--seed ")[1].split()[0])
        assert made["games"] > 0 and made["check"]


@pytest.mark.parametrize("game, name", list(trained_sets()))
def test_a_stored_set_still_beats_its_field(game, name):
    info = get_game(game)
    spec = info.policies[name]
    expert = info.policy(name)
    n = GAMES_PER_CHECK[game]
    if info.max_players == 1:
        for text in spec.made["rules"]:
            pairs = [] if text == "default" else text.split(", ")
            rules = info.rules_cls.from_overrides(info.rules_cls.from_strings(pairs))
            a = info.fast(rules, (expert,), 1, 91, 0, n)
            b = info.fast(rules, (info.policy("greedy"),), 1, 91, 0, n)
            col = info.column_names(1).index("score_0")
            d = a[:, col] - b[:, col]
            low = d.mean() - st.t.ppf(0.975, n - 1) * d.std(ddof=1) / np.sqrt(n)
            assert low > 0, (name, text, d.mean())
        return
    players = spec.made["players"]
    field = info.policy(spec.made["field"][0])
    tally = MatchupTally(players)
    seatings = [tuple(expert if k == s else field for k in range(players))
                for s in range(players)]
    simulate.run(info, n // players, rules=info.rules_cls(), seatings=seatings,
                 players=players, seed=91, progress=False, on_chunk=tally.add, keep=False)
    answer = tally.answer(name, field.label())
    assert answer.share.low > 1 / players, answer.verdict_text
