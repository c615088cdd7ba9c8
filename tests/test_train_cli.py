"""``rumsim train``: the command trains, writes a trained set that loads as a policy, makes the
same parameters again from its recorded command, resumes, and refuses mistakes in one line."""

from __future__ import annotations

import json
import shlex

import pytest
from clitools import run_cli

from engines import get_game
from engines.trained import load_file

SMALL = ["--budget", "60_000", "--check-games", "600", "--seed", "3", "-q"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One small training of Rum Rebellion's heuristic, written to a file."""
    from reports.cli import main

    folder = tmp_path_factory.mktemp("train")
    out = folder / "quick.toml"
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["train", "rum-rebellion", *SMALL, "--workers", "1", "--out", str(out),
                     "--format", "json"])
    assert code == 0
    return out, json.loads(buf.getvalue())


def test_the_trained_set_loads_as_a_policy_with_the_answer_s_values(trained):
    out, answer = trained
    info = get_game("rum-rebellion")
    spec = load_file(info, out)
    assert spec.base == "heuristic" and spec.name == "quick"
    values = {p.name: p.default for p in spec.params}
    assert {k: values[k] for k in answer["values"]} == answer["values"]
    made = spec.made
    assert made["seed"] == 3 and made["games"] == answer["games"]
    assert made["command"] == answer["command"]
    assert made["command"].startswith("rumsim train rum-rebellion --from heuristic")
    # every player count of the game, against each field policy
    assert set(made["check"]) == {f"{p}p_{f}" for p in range(2, 7)
                                  for f in ("threshold", "blocker")}
    assert [r["players"] for r in answer["check"]] == [p for p in range(2, 7) for _ in "ab"]


def test_its_command_makes_the_same_parameters_again(trained, capsys, tmp_path):
    out, answer = trained
    args = shlex.split(answer["command"])[1:]
    i = args.index("--out")
    args[i + 1] = str(tmp_path / "again.toml")
    code, stdout, err = run_cli(capsys, *args, "--check-games", "600", "--workers", "2", "-q",
                                "--format", "json")
    assert code == 0, err
    again = json.loads(stdout)
    assert again["values"] == answer["values"]
    assert again["history"] == answer["history"]


def test_a_killed_training_resumes_to_the_same_answer(trained, capsys, tmp_path):
    out, answer = trained
    from analyses import training

    ck = tmp_path / "ck"
    code, _, err = run_cli(capsys, "train", "rum-rebellion", *SMALL, "--checkpoint", str(ck),
                           "--format", "json")
    assert code == 0, err
    saved = json.loads((ck / "training.json").read_text())
    # as if killed after two generations: keep those, then resume
    saved["generations"] = saved["generations"][:2]
    (ck / "training.json").write_text(json.dumps(saved))
    code, stdout, err = run_cli(capsys, "train", "rum-rebellion", *SMALL, "--checkpoint",
                                str(ck), "--resume", "--format", "json")
    assert code == 0, err
    resumed = json.loads(stdout)
    assert resumed["values"] == answer["values"]
    assert resumed["games"] < answer["games"]
    assert len(training.load_history(ck / "training.json", saved["fingerprint"])) == len(
        answer["history"])
    code, _, err = run_cli(capsys, "train", "rum-rebellion", *SMALL, "--checkpoint", str(ck))
    assert code == 2 and "already holds a training" in err


@pytest.mark.parametrize("extra, message", [
    (["--from", "random"], "declares no trainable parameter"),
    (["--from", "nope"], "unknown policy 'nope'"),
    (["--field", "threshold,,blocker"], "names an empty policy"),
    (["--budget", "5000"], "too small to train"),
    (["--budget", "lots"], "--budget"),
    (["--objective", "mean_score"], "is for solo games"),
    (["--objective", "wins"], "unknown --objective"),
    (["--out", "x.json"], "a trained set is a .toml file"),
    (["--out", "no/such/folder/x.toml"], "does not exist"),
    (["--out", "Bad Name.toml"], "must be lower-case"),
    (["--presets", "standard,standard"], "names a preset twice"),
    (["--presets", "standard", "--preset", "standard"], "not both"),
    (["--presets", "nope"], "unknown preset"),
    (["--resume"], "--resume continues a training"),
    (["--workers", "99"], "--workers must be between"),
    (["--players", "9"], "is played by 2-6 players"),
])
def test_a_mistake_is_one_line_and_exit_code_2(capsys, extra, message):
    code, out, err = run_cli(capsys, "train", "rum-rebellion", "-q", *extra)
    assert code == 2, err
    assert message in err and err.count("\n") == 1 and not out


def test_a_solo_game_has_no_field(capsys):
    code, _, err = run_cli(capsys, "train", "rum-runner", "--field", "greedy")
    assert code == 2 and "solo game" in err
    code, _, err = run_cli(capsys, "train", "rum-runner", "--from", "rollout")
    assert code == 2 and "slow policy" in err


def test_rules_lists_the_policies_and_their_parameters(capsys):
    code, out, _ = run_cli(capsys, "rules", "rum-rebellion")
    assert code == 0 and "Policies (--policy NAME" in out and "threshold: " in out
    assert "risk=0.5" in out
    code, out, _ = run_cli(capsys, "rules", "rum-rebellion", "--format", "json")
    names = [p["name"] for p in json.loads(out)["policies"]]
    assert names[:3] == ["random", "threshold", "blocker"]
