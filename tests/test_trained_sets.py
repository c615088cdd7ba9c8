"""Trained parameter sets (engines/trained.py): a TOML file names a policy, plays as its base
policy with the file's values on both paths, and a wrong file gets one clear line."""

from __future__ import annotations

import numpy as np
import pytest

from engines import get_game
from engines._game import Policy
from engines._rules import RulesError
from engines.trained import load_file, render


def write(tmp_path, name: str, text: str):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


def test_a_set_plays_as_its_base_policy_with_its_values_on_both_paths(tmp_path):
    info = get_game("rum-rebellion")
    path = write(tmp_path, "bold", render("threshold", {"risk": 0.875},
                                          {"command": "by hand", "seed": 3}))
    spec = load_file(info, path)
    assert (spec.name, spec.base, spec.code) == ("bold", "threshold", 1)
    assert spec.made == {"command": "by hand", "seed": 3}
    trained = Policy(spec, tuple(p.default for p in spec.params))
    assert trained.label() == "bold" and trained.params() == {"risk": 0.875}
    base = info.policy("threshold:risk=0.875")
    assert info.declared(trained) == base
    info.policies["bold"] = spec
    try:
        rules = info.rules_cls()
        a = info.fast(rules, (trained,) * 4, 4, 11, 0, 300)
        b = info.fast(rules, (base,) * 4, 4, 11, 0, 300)
        np.testing.assert_array_equal(a, b)
        assert not np.array_equal(a, info.fast(rules, (info.policy("threshold"),) * 4, 4, 11,
                                               0, 300))
        cols = info.column_names(4)
        for g in range(20):
            row = info.reference(rules, (trained,) * 4, 4, 11, g)
            assert [row[c] for c in cols] == list(a[g])
        # its name takes parameters like any policy's, over the trained defaults
        assert info.policy("bold:risk=0.25").params() == {"risk": 0.25}
    finally:
        del info.policies["bold"]


@pytest.mark.parametrize("text, message", [
    ('policy = "nope"\n', "is not a declared policy"),
    ('policy = "threshold"\n[values]\nrisky = 0.3\n', "has no parameter 'risky'"),
    ('policy = "threshold"\n[values]\nrisk = 3.0\n', "out of range"),
    ('policy = "threshold"\n[values]\nrisk = "high"\n', "is not a number"),
    ('policy = "threshold"\n[values]\nrisk = nan\n', "not a finite number"),
    ('policy = "threshold"\nvalues = 3\n', "must be a table"),
    ('policy = "threshold"\ncode = "import os"\n', "unknown key 'code'"),
    ('policy = "threshold"\nhelp = 3\n', "help must be a string"),
    ('policy = [1, 2\n', "is not valid TOML"),
])
def test_a_wrong_file_gets_one_line(tmp_path, text, message):
    info = get_game("rum-rebellion")
    with pytest.raises(RulesError, match=message) as err:
        load_file(info, write(tmp_path, "bad", text))
    assert "\n" not in str(err.value)


def test_whole_number_parameters_and_names(tmp_path):
    info = get_game("rum-runner")
    with pytest.raises(RulesError, match="must be a whole number"):
        load_file(info, write(tmp_path, "roll", 'policy = "rollout"\n[values]\nsamples = 2.5\n'))
    with pytest.raises(RulesError, match="would hide the declared policy"):
        load_file(info, write(tmp_path, "greedy", 'policy = "greedy"\n'))
    with pytest.raises(RulesError, match="must be lower-case"):
        load_file(info, write(tmp_path, "Bad Name", 'policy = "greedy"\n'))
    slow = load_file(info, write(tmp_path, "deep", 'policy = "rollout"\n[values]\nsamples = 8\n'))
    assert slow.slow and slow.params[0].default == 8


def test_render_reads_back_exactly(tmp_path):
    info = get_game("rum-runner")
    values = {"draw_threshold": 2.0 / 3.0, "replenish_weight": -1e-7}
    made = {"command": 'rumsim train rum-runner --seed 1 --note "x"', "seed": 1, "games": 10,
            "check": {"default": "1.0 [0.9, 1.1]", "flip_after_draw=false": "2.0"}}
    spec = load_file(info, write(tmp_path, "exact", render("greedy", values, made)))
    assert {p.name: p.default for p in spec.params} == values
    assert spec.made == made


def test_every_game_loads_its_trained_folder():
    from engines import GAMES

    for name in GAMES:
        info = get_game(name)
        for spec in info.policies.values():
            if spec.base is not None:
                assert spec.code == info.policies[spec.base].code
                assert isinstance(spec.made.get("command"), str), spec.name
