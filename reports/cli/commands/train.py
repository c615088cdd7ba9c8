"""``rumsim train GAME``: tune a policy's declared parameters toward winning, race the
finalists, check the answer on fresh deals, and save it as a trained set (a policy)."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import echo, finite
from reports.cli.options import (
    Cluster,
    FormatOpt,
    GameArg,
    PlayersOpt,
    QuietOpt,
    RulesChoice,
    SeedOpt,
    WorkersOpt,
    app,
    check_format,
)
from simulate.counts import parse_count
from simulate.errors import UserError

CHECKPOINT_FILE = "training.json"


@app.command()
def train(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    start: Annotated[str, typer.Option(
        "--from", help="the policy whose trainable parameters are tuned, from its values "
                       "(e.g. 'heuristic', or 'heuristic:w_coin=1.5')")] = "heuristic",
    field: Annotated[str | None, typer.Option(
        "--field", help="the field's policies, comma separated (default: the game's declared "
                        "fast policies but random and the trained one's own); each stage's "
                        "champion joins them")] = None,
    budget: Annotated[str, typer.Option(
        "--budget", help="games for the search and the race (1e6, 4_000_000 ...); the check "
                         "on fresh deals comes on top")] = "2e6",
    objective: Annotated[str | None, typer.Option(
        "--objective", help="what is maximised: win_share (multi-player, the default), or for "
                            "a solo game mean_score (default) or band_share[K]")] = None,
    presets: Annotated[str | None, typer.Option(
        "--presets", help="train across several presets, comma separated (each deal played "
                          "under each, the objective their mean); instead of --preset")] = None,
    rules: RulesChoice,
    seed: SeedOpt = 0,
    check_games: Annotated[str, typer.Option(
        "--check-games", help="games of each check on fresh deals (each field policy at each "
                              "player count)")] = "20_000",
    out: Annotated[Path | None, typer.Option(
        "--out", help="write the trained set to FILE.toml (its name is the file's; put it in "
                      "engines/<game>/trained/ to make it a policy of the game)")] = None,
    workers: WorkersOpt = None,
    fmt: FormatOpt = "table",
    cluster: Cluster,
    checkpoint: Annotated[Path | None, typer.Option(
        "--checkpoint", help="save every finished generation in folder DIR, so a killed "
                             "training can be resumed")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="continue the training saved in --checkpoint DIR (same arguments "
                         "required); the answer equals an unbroken training's")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Train a policy: CMA-ES over its declared parameters against a pool of policies on
    common deals, the finalists raced, the answer checked on fresh deals at every player
    count; --out saves it as a trained set."""
    import simulate
    from analyses import training
    from engines.trained import render, write
    from reports.provenance import commit

    check_format(fmt)
    info = get_game(game)
    players = info.check_players(players)
    start_policy = info.policy(start)
    if start_policy.spec.slow:
        raise UserError(f"--from {start_policy.name} is a slow policy; train a fast one")
    n_budget = parse_count(budget, "--budget")
    n_check = parse_count(check_games, "--check-games")
    if presets is not None and rules.preset is not None:
        raise UserError("give --preset or --presets, not both")
    rule_sets = _rule_sets(info, rules, presets)
    field_policies = _field(info, start_policy, field, players)
    training.target(objective, info, players)  # an unknown objective fails before any game
    if out is not None:
        _check_out(out)
    if resume and checkpoint is None:
        raise UserError("--resume continues a training saved with --checkpoint DIR: give the "
                        "folder")
    fp = training.fingerprint(info, start_policy, players, rule_sets, field_policies, n_budget,
                              seed, objective, None)
    saved = None
    history = None
    if checkpoint is not None:
        if checkpoint.exists() and not checkpoint.is_dir():
            raise UserError(f"--checkpoint {checkpoint} is a file; give a folder")
        saved = checkpoint / CHECKPOINT_FILE
        if resume:
            history = training.load_history(saved, fp)
        elif saved.exists():
            raise UserError(f"--checkpoint {checkpoint} already holds a training: add --resume "
                            "to continue it, or give another folder")
        else:
            checkpoint.mkdir(parents=True, exist_ok=True)
    if workers is not None:
        simulate.runner.set_workers(workers)  # a wrong count fails before any game
    counts = list(range(info.min_players, info.max_players + 1)) if players > 1 else [1]
    say = _Progress(quiet)
    kept: list = list(history or [])

    def keep(gen, answer):
        kept.append(gen)
        if saved is not None:
            training.save_history(saved, fp, kept)

    say(f"training {start_policy.label()} for {info.name} at {players} "
        f"player{'s' * (players > 1)}, {n_budget:,} games"
        + (f", resuming after {len(history)} saved generations" if history else "")
        + " (the first games compile the engine if this machine has not yet)")
    with cluster.backend() as where:
        answer = training.train(info, start_policy, players, rule_sets, field_policies,
                                n_budget, seed, objective, check_players=counts,
                                check_games=n_check, workers=workers,
                                cluster=where, history=history, on_generation=keep,
                                progress=say)
    command = _command(info, players, start_policy, field, field_policies, n_budget, objective,
                       rules, presets, seed, out)
    if out is not None:
        made = answer.made(command, simulate.runner.VERSION, commit())
        write(out, render(start_policy.spec.base or start_policy.name, answer.values, made))
    if fmt == "json":
        echo(json.dumps(finite({**answer.to_json(), "command": command,
                                "out": None if out is None else str(out)}), indent=2,
                        allow_nan=False))
    elif fmt == "csv":
        import pandas as pd

        echo(pd.DataFrame(answer.check_rows()).to_csv(index=False).rstrip("\n"))
    else:
        echo(answer.render_text())
        echo("")
        echo(f"Made again by: {command}")
        if out is not None:
            from engines.trained import folder

            home = folder(info)
            echo(f"Wrote {out}: " + (f"it is {info.name}'s policy '{out.stem}' now."
                                     if out.resolve().parent == home else
                                     f"in {home} it would be {info.name}'s policy "
                                     f"'{out.stem}'."))


def _rule_sets(info, rules: RulesChoice, presets: str | None) -> list:
    if presets is None:
        return [rules.build(info)]
    names = [p.strip() for p in presets.split(",") if p.strip()]
    if not names:
        raise UserError("--presets names no preset")
    if len(set(names)) != len(names):
        raise UserError(f"--presets '{presets}' names a preset twice")
    return [RulesChoice(rules.rule, name, rules.rules_file).build(info) for name in names]


def _field(info, start, text: str | None, players: int) -> list:
    """The field's policies: those named, or the game's declared fast policies but random and
    the trained policy's own kind (a solo game has none)."""
    if players == 1:
        if text is not None:
            raise UserError(f"{info.name} is a solo game: it has no field to train against")
        return []
    own = start.spec.base or start.name
    if text is None:
        names = [n for n, s in info.policies.items()
                 if s.base is None and not s.slow and n not in ("random", own)]
        if not names:
            names = ["random"]
    else:
        names = [n.strip() for n in text.split(",")]
        if any(not n for n in names):
            raise UserError(f"--field '{text}' names an empty policy")
    out = []
    for name in names:
        p = info.policy(name)
        if p.spec.slow:
            raise UserError(f"--field {p.name} is a slow policy; the training plays millions "
                            "of games: give fast ones")
        out.append(p)
    return out


def _check_out(out: Path) -> None:
    if out.suffix != ".toml":
        raise UserError(f"--out {out}: a trained set is a .toml file")
    if out.is_symlink():  # the set is written beside it and renamed: the link would be lost
        raise UserError(f"--out {out} is a symbolic link; name the file it points to")
    if out.is_dir():
        raise UserError(f"--out {out} is a folder; give a file name ending in .toml")
    if not out.parent.is_dir():
        raise UserError(f"--out {out}: the folder {out.parent} does not exist")
    from engines.trained import NAME

    if not NAME.match(out.stem):
        raise UserError(f"--out {out}: the set's name '{out.stem}' must be lower-case letters, "
                        "digits, '-' or '_', starting with a letter")


def _command(info, players, start, field_text, field_policies, budget, objective, rules,
             presets, seed, out) -> str:
    """The command that makes the same parameters again (what fixes them, nothing else)."""
    args = ["rumsim", "train", info.name]
    if players != info.default_players:
        args += ["--players", str(players)]
    args += ["--from", start.label()]
    if field_text is not None:
        args += ["--field", ",".join(p.label() for p in field_policies)]
    args += ["--budget", f"{budget:_}"]
    if objective is not None:
        args += ["--objective", objective]
    if presets is not None:
        args += ["--presets", presets]
    args += rules.flags()
    args += ["--seed", str(seed)]
    if out is not None:
        args += ["--out", str(out)]
    return " ".join(shlex.quote(a) for a in args)


class _Progress:
    """The training's progress on stderr: on a terminal each line replaces the last; without
    one a line every 20 s (and every stage's race and check line)."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, text: str) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if text.startswith("generation"):
            if self.tty:
                sys.stderr.write("\r\033[K" + text)
                sys.stderr.flush()
                return
            if now - self.last < 20:
                return
        elif self.tty:
            sys.stderr.write("\r\033[K")
        self.last = now
        typer.echo(text, err=True)
