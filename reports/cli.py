"""The ``rumsim`` command line (Typer): the answers presented at the terminal.

It sits at the top of the layers (engines <- simulate <- analyses <- reports):
it plays runs through ``simulate``, asks ``analyses`` for the answer and
prints it as a table, JSON or CSV, or builds the report pages. Every command
reads its game, rules and policies through the game's own declaration, so a
new game needs no change here. A user's mistake ends with
one line on stderr and exit code 2 (see :func:`main`); nothing is written
until the work it describes has succeeded.
"""

from __future__ import annotations

import json
import math
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from engines import GAMES, get_game
from engines._rules import RulesError, read_toml
from simulate.counts import parse_count
from simulate.errors import Interrupted, UserError

try:  # Typer >= 0.2x vendors click; older releases depend on it
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover
    from click import exceptions as click_errors

app = typer.Typer(
    name="rumsim",
    help="Monte Carlo balance analysis for Rum Runner, Rum Rebellion, 21 Motines, "
         "Rum & Pirates and Montego Bay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

FORMATS = ("table", "json", "csv")

# ---------------------------------------------------------------- shared options

GameArg = Annotated[str, typer.Argument(help=f"the game: {', '.join(GAMES)}", show_default=False)]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p",
                                                help="number of players (default: the game's)")]
PolicyOpt = Annotated[str | None, typer.Option(
    "--policy", help="policy for all seats ('greedy'), or per seat ('greedy,random'); "
                     "parameters as 'greedy:draw_threshold=3'")]
RuleOpt = Annotated[list[str] | None, typer.Option(
    "--rule", help="rule option key=value (repeatable); see `rumsim rules GAME`")]
PresetOpt = Annotated[str | None, typer.Option("--preset", help="named rule preset")]
RulesFileOpt = Annotated[Path | None, typer.Option(
    "--rules-file", help="TOML file of rule options (key = value)")]
SeedOpt = Annotated[int, typer.Option("--seed", help="the run's seed (0 .. 2**63-1)", min=0,
                                      max=2**63 - 1)]
WorkersOpt = Annotated[int | None, typer.Option("--workers", help="threads (default: all cores)")]
GamesOpt = Annotated[str, typer.Option("--games", "-n", help="how many games (1e6, 250_000 ...)")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")]
FormatOpt = Annotated[str, typer.Option("--format", help="output: table, json or csv")]
CsvOutOpt = Annotated[Path | None, typer.Option("--out", help="also write the tables to "
                                                "FILE.csv")]
ClusterOpt = Annotated[str | None, typer.Option(
    "--cluster", help="play on a Dask cluster started on this machine: local:N (N worker "
                      "processes; needs rumsim[dask]); the answer does not change")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="play on the Dask cluster whose scheduler is at tcp://HOST:PORT "
                        "(default: $RUMSIM_SCHEDULER); the answer does not change")]
CheckpointOpt = Annotated[Path | None, typer.Option(
    "--checkpoint", help="save every finished block of games in folder DIR as it completes, "
                         "so a killed run can be resumed")]
ResumeOpt = Annotated[bool, typer.Option(
    "--resume", help="continue the run saved in --checkpoint DIR: play only the blocks it "
                     "lacks (same arguments required); the answer equals an unbroken run's")]


def build_rules(info, preset: str | None, rules_file: Path | None, rule: list[str] | None):
    """Rules from preset, then rules file, then --rule pairs (later ones win)."""
    cls = info.rules_cls
    overrides: dict = {}
    if preset is not None:  # '--preset ""' is a mistake, not the defaults
        overrides.update(cls.preset(preset))
    if rules_file is not None:
        overrides.update(cls.read_file(rules_file))
    given: dict[str, str] = {}
    for pair in rule or []:  # one value per option: a second one is a slip, not an override
        for key, value in cls.from_strings([pair]).items():
            if key in given and given[key] != value:
                raise UserError(f"--rule {key} is given twice ({given[key]}, then {value}); "
                                "give each option once")
            given[key] = value
    overrides.update(given)
    return cls.from_overrides(overrides)


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise UserError(f"--format must be table, json or csv, not '{fmt}'")
    return fmt


def echo(text: str = "") -> None:
    typer.echo(text)


def progress_flag(quiet: bool) -> bool | None:
    return False if quiet else None


# ---------------------------------------------------------------- games / rules


@contextmanager
def playing(cluster: str | None, scheduler: str | None, checkpoint: Path | None,
            resume: bool):
    """Where a command's runs are played (None: this process, else a Dask backend) and the
    checkpoint they save into (None without --checkpoint)."""
    from simulate.checkpoint import Checkpoint
    from simulate.cluster import backend_for

    if resume and checkpoint is None:
        raise UserError("--resume continues a run saved with --checkpoint DIR: give the folder")
    saved = Checkpoint(checkpoint, resume) if checkpoint is not None else None
    backend = backend_for(cluster, scheduler)
    if backend is None:
        yield None, saved
        return
    with backend:
        yield backend, saved


@app.command()
def games(fmt: FormatOpt = "table") -> None:
    """List the games: players, policies and outcome columns."""
    check_format(fmt)
    rows = []
    for name in GAMES:
        info = get_game(name)
        players = (f"{info.min_players}" if info.min_players == info.max_players
                   else f"{info.min_players}-{info.max_players}")
        rows.append({
            "game": info.name, "title": info.title, "players": players,
            "policies": list(info.policies), "default_policy": info.default_policy,
            "columns": info.column_names(info.default_players), "summary": info.summary,
        })
    if fmt == "json":
        echo(json.dumps(_finite(rows), indent=2, allow_nan=False))
        return
    if fmt == "csv":
        echo("game,title,players,policies,default_policy")
        for r in rows:
            echo(f"{r['game']},{r['title']},{r['players']},{' '.join(r['policies'])},"
                 f"{r['default_policy']}")
        return
    for r in rows:
        plural = "player" if r["players"] == "1" else "players"
        echo(f"{r['game']:<14} {r['title']} ({r['players']} {plural}): {r['summary']}")
        echo(f"{'':<14} policies: {', '.join(r['policies'])} (default {r['default_policy']})")
        echo(f"{'':<14} columns: {', '.join(r['columns'])}")


@app.command()
def rules(game: GameArg, fmt: FormatOpt = "table") -> None:
    """Every rule option of GAME: default, allowed values, help; and the presets."""
    check_format(fmt)
    info = get_game(game)
    cls = info.rules_cls
    options = cls.options()
    if fmt == "json":
        echo(json.dumps({
            "game": info.name,
            "options": [{"key": o.key, "default": o.show(o.default), "allowed": o.allowed(),
                         "help": o.help} for o in options],
            "presets": {name: {"help": text, "overrides": over}
                        for name, (text, over) in cls.PRESETS.items()},
        }, indent=2, default=list))
        return
    if fmt == "csv":
        echo("key,default,allowed,help")
        for o in options:
            echo(",".join(_csv_cell(x) for x in (o.key, o.show(o.default), o.allowed(), o.help)))
        return
    width = max(len(o.key) for o in options)
    dwidth = max(len(_short(o.show(o.default))) for o in options)
    echo(f"{info.title} rule options (--rule key=value):")
    for o in options:
        echo(f"  {o.key:<{width}}  {_short(o.show(o.default)):<{dwidth}}  {o.allowed()}")
        echo(f"  {'':<{width}}  {'':<{dwidth}}  {o.help}")
    if any(_short(o.show(o.default)) != o.show(o.default) for o in options):
        echo("  (long lists are shortened here; `--format json` shows them whole)")
    echo("")
    echo("Presets (--preset NAME):")
    for name, (text, over) in cls.PRESETS.items():
        shown = ", ".join(f"{k}={cls.option(k).show(v)}" for k, v in over.items()) or "no changes"
        echo(f"  {name}: {text} [{shown}]")


def _short(text: str, width: int = 24) -> str:
    """A long list value cut for the table, saying how many items it has."""
    if len(text) <= width:
        return text
    items = text.count(",") + 1
    return text[:width - 12].rsplit(",", 1)[0] + f",... ({items})"


def _csv_cell(x: str) -> str:
    return f'"{x}"' if ("," in x or '"' in x) else x


# ---------------------------------------------------------------- play


@app.command()
def play(
    game: GameArg,
    seed: SeedOpt = 0,
    index: Annotated[int, typer.Option("--game-index", help="which game of the seed", min=0)] = 0,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    rule: RuleOpt = None,
    preset: PresetOpt = None,
    rules_file: RulesFileOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print a machine record of the "
                                          "whole game instead of the narration")] = False,
) -> None:
    """Play one game with the reference path and tell it event by event."""
    info = get_game(game)
    players = info.check_players(players)
    rules_obj = build_rules(info, preset, rules_file, rule)
    policies = info.seat_policies(policy, players)
    lines, record = info.narrate(rules_obj, policies, players, seed, index)
    if as_json:
        echo(json.dumps(_finite(record), indent=2, default=list, allow_nan=False))
        return
    echo(f"{info.title}, seed {seed}, game {index}; policy {', '.join(p.label() for p in policies)}; "
         f"rules: {rules_obj.describe()}")
    for line in lines:
        echo(line)


# ---------------------------------------------------------------- run


@app.command()
def run(
    game: GameArg,
    n: GamesOpt = "100_000",
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    rule: RuleOpt = None,
    preset: PresetOpt = None,
    rules_file: RulesFileOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="save the rows to FILE.parquet "
                                             "or FILE.csv (metadata kept)")] = None,
    fmt: FormatOpt = "table",
    chunk_size: Annotated[str | None, typer.Option("--chunk-size", help="games per chunk "
                                                   "(results do not depend on it)")] = None,
    backend: Annotated[str, typer.Option("--backend", help="fast (Numba) or reference "
                                         "(readable Python, slow)")] = "fast",
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    checkpoint: CheckpointOpt = None,
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Play N games and summarise every outcome column (rows saved with --out)."""
    from contextlib import ExitStack

    import simulate
    from simulate.results import RowWriter, check_output_path
    from simulate.summary import StreamSummary, summarise

    check_format(fmt)
    n_games = parse_count(n)
    chunk = parse_count(chunk_size, "chunk size") if chunk_size else None
    info = get_game(game)
    players = info.check_players(players)
    rules_obj = build_rules(info, preset, rules_file, rule)
    policies = info.seat_policies(policy, players)
    if out is not None:
        check_output_path(out)  # fail before the work, not after
    # No rows are kept: each chunk goes into the summary and, with --out, into the file as
    # it finishes, so memory stays flat in N; the file is renamed into place at the end.
    stream = StreamSummary()
    with ExitStack() as stack:
        where, saved = stack.enter_context(playing(cluster, scheduler, checkpoint, resume))
        writer = stack.enter_context(RowWriter(out)) if out is not None else None

        def take(frame) -> None:
            stream.add(frame)
            if writer is not None:
                writer.write(frame)

        results = simulate.run(info, n_games, rules=rules_obj, policies=policies,
                               players=players, seed=seed, workers=workers, chunk_size=chunk,
                               backend=backend, progress=progress_flag(quiet), on_chunk=take,
                               keep=False, cluster=where, checkpoint=saved)
        if results.meta["interrupted"]:
            typer.echo(f"interrupted: kept the {results.meta['games']:,} games that finished",
                       err=True)
        if writer is not None:
            writer.commit(results)
            typer.echo(f"wrote {writer.rows:,} rows to {out}"
                       + (" (partial: its metadata says interrupted)"
                          if results.meta["interrupted"] else ""), err=True)
    echo(summarise(results, fmt, stream))


# ---------------------------------------------------------------- thresholds


@app.command()
def thresholds(
    n: GamesOpt = "200_000",
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", help="policy to measure (repeatable; default: random and greedy)")] = None,
    rule: RuleOpt = None,
    preset: PresetOpt = None,
    rules_file: RulesFileOpt = None,
    target: Annotated[str | None, typer.Option(
        "--target", help="target split of the six bands in percent, broke..god "
                         "(default 40,25,15,10,6,4)")] = None,
    slow_games: Annotated[str, typer.Option(
        "--slow-games", help="games for slow policies such as rollout")] = "2_000",
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    fmt: FormatOpt = "table",
    out: CsvOutOpt = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    checkpoint: CheckpointOpt = None,
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Rum Runner's printed score bands against how games really score."""
    import simulate
    from analyses import thresholds as th

    check_format(fmt)
    n_games = parse_count(n)
    n_slow = parse_count(slow_games, "--slow-games")
    info = get_game("rum-runner")
    rules_obj = build_rules(info, preset, rules_file, rule)
    split = th.parse_target(target) if target is not None else th.DEFAULT_TARGET
    chosen = [info.policy(p) for p in (policy or ["random", "greedy"])]
    _check_csv_out(out)
    results = {}
    cut, not_played = None, []
    with playing(cluster, scheduler, checkpoint, resume) as (where, saved):
        for i, pol in enumerate(chosen):
            count = min(n_games, n_slow) if pol.spec.slow else n_games
            # Streamed: each block is counted into an accumulator where it is played, and
            # only the counts come back, so memory stays flat whatever the number of games.
            total = [th.ThresholdsAccumulator()]

            def take(part, total=total) -> None:
                total[0] = total[0].merge(part)
            try:
                res = simulate.run(info, count, rules=rules_obj, policies=(pol,), seed=seed,
                                   workers=workers, progress=progress_flag(quiet),
                                   label=pol.label(), keep=False,
                                   part=th.ThresholdsAccumulator.of, on_part=take,
                                   cluster=where, checkpoint=saved)
            except Interrupted:  # stopped between two runs: this one and the rest not played
                not_played = [p.label() for p in chosen[i:]]
                break
            acc = total[0]
            acc.meta = res.meta
            if res.meta["games"]:
                results[pol.label()] = acc
            if res.meta["interrupted"]:
                cut = (f"policy {pol.label()}", res.meta["games"], count)
                not_played = [p.label() for p in chosen[i + 1:]]
                break
    partial = Partial.of(cut, not_played, "policy", [p.label() for p in chosen])
    if not results:
        raise Interrupted(f"{partial.note}; no game finished, so there is nothing to show")
    report = th.thresholds(results, target=split)
    _emit_answer(out, fmt, report.to_csv(), report.to_json(), report.render_text, partial)


# ---------------------------------------------------------------- seats

# One player count or several (seats and plan seats).
PlayerCountsOpt = Annotated[str | None, typer.Option(
    "--players", "-p", help="number of players (default: the game's), or several: '2..5' or "
                            "'2,4'")]

@app.command()
def seats(
    game: GameArg,
    n: Annotated[str | None, typer.Option(
        "--games", "-n", help="how many games (1e6, 250_000 ...); default 100_000, or with "
                              "--precision as many as it needs (-n then sets a minimum)")] = None,
    players: PlayerCountsOpt = None,
    policy: PolicyOpt = None,
    rule: RuleOpt = None,
    preset: PresetOpt = None,
    rules_file: RulesFileOpt = None,
    margin: Annotated[float, typer.Option("--margin", help="balanced means every seat within "
                                          "this many points of 1/P (0.02 = 2 pp)")] = 0.02,
    power: Annotated[float, typer.Option("--power", help="the chance that the games an "
                                         "undetermined verdict asks for reach a verdict")] = 0.8,
    precision: Annotated[float | None, typer.Option(
        "--precision", help="play until the first player's interval half-width is at most "
                            "this (e.g. 0.005); intervals are then anytime-valid")] = None,
    max_games: Annotated[str | None, typer.Option(
        "--max-games", help="upper limit for --precision (default 1e9)")] = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    fmt: FormatOpt = "table",
    out: CsvOutOpt = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    checkpoint: CheckpointOpt = None,
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """First-player / seat advantage: win share per seat with intervals and a verdict."""
    check_format(fmt)
    n_games = parse_count(n) if n is not None else (1 if precision is not None else 100_000)
    if max_games is not None and precision is None:
        raise UserError("--max-games is the limit of --precision; without --precision, -n sets "
                        "how many games are played")
    cap = parse_count(max_games if max_games is not None else "1e9", "--max-games")
    if precision is not None and n is not None and n_games > cap:
        raise UserError(f"-n {n_games:,} (the least --precision plays) is more than --max-games "
                        f"{cap:,}")
    info = get_game(game)
    counts = player_counts(info, players)
    if any(p < 2 for p in counts):
        raise UserError(f"{info.name} is a solo game: it has no seat advantage to measure")
    if not 0 < margin < 0.5:
        raise UserError(f"--margin must be between 0 and 0.5, not {margin}")
    if not 0.5 <= power < 1:
        raise UserError(f"--power must be at least 0.5 and below 1, not {power}")
    if len(counts) > 1 and policy and len([x for x in policy.split(",") if x.strip()]) > 1:
        raise UserError("--policy names one policy per seat: give it one player count, not "
                        f"{players}")
    rules_obj = build_rules(info, preset, rules_file, rule)
    for p in counts:  # every mistake is reported before the first game is played
        rules_obj.check_players(p)
        info.seat_policies(policy, p)
    _check_csv_out(out)
    runs = []
    cut, not_played = None, []
    with playing(cluster, scheduler, checkpoint, resume) as (where, saved):
        for i, p in enumerate(counts):
            try:
                answer = _seat_answer(info, p, n_games, cap, rules_obj, policy, margin,
                                      precision, seed, workers, quiet, power, where, saved)
            except Interrupted:  # stopped before this count's games: it and the rest not played
                not_played = counts[i:]
                break
            runs.append(answer[:3])
            meta = answer[3]
            if meta["interrupted"]:
                cut = (f"{p} players", meta["games"], meta["requested"])
                not_played = counts[i + 1:]
                break
    partial = Partial.of(cut, [f"{p} players" for p in not_played], "player count",
                         [f"{p} players" for p in counts])
    if not runs:
        raise Interrupted(f"{partial.note}; no game finished, so there is nothing to show")
    planned, counts = counts, counts[:len(runs)]
    import io

    import numpy as np
    import pandas as pd

    # One tidy table: each answer's rows, with its player count in front when there are several
    # and which answer it is (turn order place or seat) when a game gives two.
    several = len(planned) > 1  # the shape asked for, even when a stop cut it short
    two = any(len(answers) > 1 for answers, _, _ in runs)
    frames = []
    for p, (answers, _, _) in zip(counts, runs, strict=True):
        for a in answers:
            f = pd.read_csv(io.StringIO(a.to_csv()))
            if two:
                f.insert(0, "answer", a.unit)
            if several:
                f.insert(0, "players", p)
            frames.append(f)
    csv_text = pd.concat(frames, ignore_index=True).to_csv(index=False, float_format="%.6g")
    if several:
        data = {"by_players": [d for _, d, _ in runs]}

        def answer_text() -> str:
            return "\n\n".join(t() for _, _, t in runs)
    else:
        _, data, answer_text = runs[0]
    # Several equal-shares tests in one output (turn order, a seat view, seat; several player
    # counts): each p is also shown Holm-adjusted over all of them.
    from analyses.seats import equal_share_tests, multiplicity_line
    from analyses.stats import holm

    tests = {}
    for p, (answers, _, _) in zip(counts, runs, strict=True):
        for a in answers:
            tests.update(equal_share_tests(a, f"{p} players, " if several else ""))
    text = answer_text
    if len(tests) > 1:
        data = {**data, "holm_p": dict(zip(tests, holm(np.array(list(tests.values()))).tolist(),
                                           strict=True))}

        def text() -> str:
            return answer_text() + "\n\n" + multiplicity_line(tests)
    _emit_answer(out, fmt, csv_text, data, text, partial)


def player_counts(info, text: str | None) -> list[int]:
    """The player counts of ``--players``: one ('4'), a range ('2..5') or a list ('2,4')."""
    if text is None:
        return [info.check_players(None)]
    raw = text.strip()
    try:
        if ".." in raw:
            low, high = (int(x) for x in raw.split("..", 1))
            counts = list(range(low, high + 1))
        else:
            counts = [int(x) for x in raw.split(",") if x.strip()]
    except ValueError:
        raise UserError(f"--players '{text}' is not a player count, a range like 2..5 or a "
                        "list like 2,4") from None
    if not counts:
        raise UserError(f"--players '{text}' names no player count")
    return [info.check_players(p) for p in dict.fromkeys(counts)]


def _seat_answer(info, players: int, n_games: int, cap: int, rules_obj, policy, margin: float,
                 precision: float | None, seed: int, workers, quiet: bool, power: float,
                 where=None, saved=None):
    """One player count's seat answers (by turn order first when seats are colours), their
    JSON data and a function rendering the text."""

    import simulate

    policies = info.seat_policies(policy, players)
    turn_order = info.extra.get("turn_order")
    plan = None
    stop_when = None
    chunk = None
    if precision is not None:
        plan, chunk = _precision_plan(precision, players)
        if plan[1] > cap:
            raise UserError(f"--precision {precision} needs about {plan[1]:,} games, more than "
                            f"--max-games {cap:,}")
        n_minimum, n_games = n_games, cap
    by_seat, by_place, parts, take = _seat_tallies(info, players, plan)
    headline = (by_place or by_seat).sequences.get(("ci", 0))

    if precision is not None:
        def stop_when(part) -> bool:
            return headline.t >= n_minimum and headline.halfwidth() <= precision
    results = simulate.run(info, n_games, rules=rules_obj, policies=policies, players=players,
                           seed=seed, workers=workers, progress=progress_flag(quiet),
                           chunk_size=chunk, stop_when=stop_when, part=parts, on_part=take,
                           keep=False, cluster=where, checkpoint=saved)
    if results.meta["interrupted"] and not results.meta["games"]:
        raise Interrupted("stopped before any game finished")
    if results.meta["interrupted"]:
        typer.echo(f"interrupted: analysing the {results.meta['games']:,} games that finished",
                   err=True)
    elif precision is not None and not results.meta["stop_condition_met"]:
        typer.echo(f"--max-games {cap:,} reached before the first player's interval was "
                   f"±{precision}", err=True)
    same = len(set(policies)) == 1
    answer = by_seat.answer(margin, same_policy=same, meta=results.meta, power=power,
                            order_note="seats are colours, with no turn order" if turn_order
                            else None)
    answers = [answer]
    if by_place is not None:
        # Seats are colours here; the game's turn order comes from a per-seat column.
        answers.insert(0, by_place.answer(margin, same_policy=same, meta=results.meta,
                                          unit="place", about=f"{turn_order[0]} place",
                                          first_number=1, order_note="place 1 moves first",
                                          power=power))
    data = answer.to_json()
    if turn_order:
        data["turn_order"] = {"name": turn_order[0], **answers[0].to_json()}

    def text() -> str:
        parts = []
        if precision is not None:
            first = f"{turn_order[0]} place 1" if turn_order else "the first player"
            parts.append(f"--precision {precision}: stopped after {results.meta['games']:,} "
                         f"games (planned about {plan[1]:,}), when {first}'s anytime-valid 95% "
                         f"interval was ±{answers[0].headline_halfwidth:.4f}")
        if turn_order:
            parts += [f"{info.title} has no seat order: turn order is the {turn_order[0]}. First "
                      f"the answer by {turn_order[0]} place, then by seat (colour).",
                      answers[0].render_text(), ""]
        note = info.extra.get("seat_note")
        return "\n".join([*parts, answer.render_text(), *([f"Note: {note}"] if note else [])])

    if info.extra.get("seat_note"):
        data["note"] = info.extra["seat_note"]
    return answers, data, text, results.meta



def _precision_plan(precision: float, players: int) -> tuple[tuple[float, int], int]:
    """``seats --precision``'s plan (alpha, planned games) and its games between two looks
    at the interval (every ~5% of the plan): fixed by the arguments alone, so the stopping
    point does not depend on threads or anything else (``analyses.plan``)."""
    from analyses import plan

    if not 0 < precision < 0.5:
        raise UserError(f"--precision must be between 0 and 0.5, not {precision}")
    n_plan = plan.planned_games(precision, players, PRECISION_ALPHA)
    return (PRECISION_ALPHA, n_plan), plan.check_every(n_plan)


def _seat_tallies(info, players: int, plan: tuple[float, int] | None):
    """What ``rumsim seats`` tallies one player count's games into: (by seat, by turn-order
    place or None, the per-block part, the function merging a part).

    The answers are tallied block by block where each block is played (no rows are kept, so
    memory does not grow with the games): by seat with the game's seat views, and by turn
    order place when seats are colours (the wins re-seated by the game's turn-order column).
    Only the tallies come back, and they are merged in block order; with a ``plan``
    (``--precision``) every tally is a confidence sequence, fed the wins in game order."""
    from analyses import seats as seat_analysis

    turn_order = info.extra.get("turn_order")
    views = info.extra.get("seat_views")
    by_seat = seat_analysis.SeatTally(players, views, plan)
    by_place = seat_analysis.SeatTally(players, sequential_plan=plan) if turn_order else None
    parts = seat_analysis.SeatParts(players, tuple((views or {}).items()),
                                    turn_order[1] if turn_order else None,
                                    ordered=plan is not None)

    def take(part) -> None:
        by_seat.merge(part[0])
        if by_place is not None:
            by_place.merge(part[1])

    return by_seat, by_place, parts, take


PRECISION_ALPHA = 0.05  # --precision's intervals are 95% confidence sequences


def _check_csv_out(out: Path | None) -> None:
    if out is None:
        return
    from simulate.results import checked_folder, probe_writable, shown

    if out.suffix.lower() != ".csv":
        raise UserError(f"--out '{shown(out)}' must end in .csv")
    folder = checked_folder(out)
    probe_writable(folder, out.name, f"--out '{shown(out)}'")
    if out.is_dir():
        raise UserError(f"--out '{shown(out)}' is a folder, not a file")


def _finite(obj):
    """JSON has no NaN or infinity: an unknown or unbounded figure is written as null."""
    if isinstance(obj, float) or (hasattr(obj, "dtype") and getattr(obj, "ndim", 1) == 0):
        value = float(obj) if hasattr(obj, "dtype") and obj.dtype.kind == "f" else obj
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return value
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


class Partial:
    """What an answer stopped by a signal rests on, said the same way by every command: a
    first line ``PARTIAL: ...`` in the text, a ``partial`` field in JSON and a ``partial``
    column in CSV (True on every row: it is the answer, not a row, that is partial; complete
    answers keep their columns as they are)."""

    def __init__(self, note: str, cut: dict | None = None, not_played: list[str] = ()):
        self.note, self.cut, self.not_played = note, cut, list(not_played)

    @classmethod
    def of(cls, cut: tuple[str, int, int] | None, not_played: list[str], what: str,
           planned: list[str]) -> Partial | None:
        """None when nothing was cut short or left out; else the note: 'interrupted after N of
        M games of WHAT; not played: X, Y' (``planned``: every run the command meant to play)."""
        if cut is None and not not_played:
            return None
        parts = []
        if cut is not None:
            name, games, requested = cut
            parts.append(f"interrupted after {games:,} of {requested:,} games of {name}")
        else:
            parts.append(f"interrupted before {what} {not_played[0]}")
        if not_played:
            parts.append(f"not played: {', '.join(not_played)}")
        parts.append(f"{len(planned) - len(not_played)} of {len(planned)} planned "
                     f"{'runs' if len(planned) > 1 else 'run'} shown")
        return cls("; ".join(parts),
                   {"name": cut[0], "games": cut[1], "requested": cut[2]} if cut else None,
                   not_played)

    def json(self) -> dict:
        return {"note": self.note, "cut_short": self.cut, "not_played": self.not_played}

    def csv(self, csv_text: str) -> str:
        import io

        import pandas as pd

        frame = pd.read_csv(io.StringIO(csv_text), dtype=str, keep_default_na=False)
        frame.insert(0, "partial", "True")
        return frame.to_csv(index=False)


def _emit_answer(out: Path | None, fmt: str, csv_text: str, json_data, text,
                 partial: Partial | None = None) -> None:
    """Write the CSV to ``--out`` if asked, then print the answer in the chosen format; an
    answer cut short by a signal is marked as partial in every one of them (``Partial``).

    ``text`` is a callable so only the chosen rendering is built.
    """
    if partial is not None:
        csv_text = partial.csv(csv_text)
        if isinstance(json_data, dict):
            json_data = {"partial": partial.json(), **json_data}
        typer.echo(f"partial: {partial.note}", err=True)
    if out is not None:
        from simulate.results import atomic_write_text

        atomic_write_text(out, csv_text)
        typer.echo(f"wrote {out}" + (" (partial)" if partial else ""), err=True)
    if fmt == "json":
        echo(json.dumps(_finite(json_data), indent=2, default=float, allow_nan=False))
    elif fmt == "csv":
        echo(csv_text.rstrip("\n"))
    elif partial is not None:
        echo(f"PARTIAL: {partial.note}\n\n{text()}")
    else:
        echo(text())


# ---------------------------------------------------------------- plan

plan_app = typer.Typer(
    name="plan", no_args_is_help=True,
    help="How many games an answer needs and how long they take on this machine, from a "
         "short measured pilot run.")
app.add_typer(plan_app, name="plan")

PILOT_SECONDS = 2.0  # wall time of a player count's pilot run, compilation excluded
PILOT_LEAST = 1_000  # a pilot of fewer games plans at the fair share 1/P instead of its own


@plan_app.command("seats")
def plan_seats(
    game: GameArg,
    precision: Annotated[float | None, typer.Option(
        "--precision", help="the half-width to reach, as `rumsim seats --precision` "
                            "(e.g. 0.002): the first player's anytime-valid 95% interval")] = None,
    n: Annotated[str | None, typer.Option(
        "--games", "-n", help="instead of --precision: how long this many games take "
                              "(as `rumsim seats -n`)")] = None,
    players: PlayerCountsOpt = None,
    policy: PolicyOpt = None,
    rule: RuleOpt = None,
    preset: PresetOpt = None,
    rules_file: RulesFileOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    backend: Annotated[str, typer.Option("--backend", help="time the fast (Numba) or the "
                                         "reference (readable Python) path")] = "fast",
    pilot_seconds: Annotated[float, typer.Option(
        "--pilot-seconds", help="wall time of each player count's pilot run, after "
                                "compilation")] = PILOT_SECONDS,
    fmt: FormatOpt = "table",
) -> None:
    """Games a seat answer needs for a target precision, and how long they take here."""
    from simulate.blocks import BACKENDS

    check_format(fmt)
    if (precision is None) == (n is None):
        raise UserError("name the target: --precision H (the half-width `rumsim seats "
                        "--precision` stops at) or -n GAMES")
    if precision is not None and not 0 < precision < 0.5:
        raise UserError(f"--precision must be between 0 and 0.5, not {precision}")
    n_games = parse_count(n) if n is not None else None
    if not (math.isfinite(pilot_seconds) and 0.05 <= pilot_seconds <= 600):
        raise UserError(f"--pilot-seconds must be from 0.05 to 600, not {pilot_seconds}")
    if backend not in BACKENDS:
        raise UserError(f"--backend must be one of {', '.join(BACKENDS)}, not '{backend}'")
    info = get_game(game)
    counts = player_counts(info, players)
    if any(p < 2 for p in counts):
        raise UserError(f"{info.name} is a solo game: it has no seat advantage to measure")
    if len(counts) > 1 and policy and len([x for x in policy.split(",") if x.strip()]) > 1:
        raise UserError("--policy names one policy per seat: give it one player count, not "
                        f"{players}")
    rules_obj = build_rules(info, preset, rules_file, rule)
    for p in counts:  # every mistake is reported before the first pilot game
        rules_obj.check_players(p)
        info.seat_policies(policy, p)
    flags = _seats_flags(policy, rule, preset, rules_file, seed, workers)
    rows = [_plan_count(info, p, precision, n_games, rules_obj, policy, seed, workers, backend,
                        pilot_seconds, flags) for p in counts]
    total = sum(r["seconds"] for r in rows)
    target = ["--precision", repr(precision)] if precision is not None else ["-n", str(n_games)]
    everything = _command(["rumsim", "seats", info.name, "-p", _counts_text(counts), *target,
                           *flags, *_max_games_flag(rows)])
    turn_order = info.extra.get("turn_order")
    first = f"{turn_order[0]} place 1" if turn_order else "the first player"
    if precision is not None:
        interval = (f"{first}'s anytime-valid 95% interval (the empirical-Bernstein confidence "
                    f"sequence `rumsim seats --precision` stops on, looked at every 5% of its "
                    f"plan)")
    else:
        interval = f"{first}'s 95% Wilson interval (what `rumsim seats -n` shows)"
    data = {"target": "seats", "game": info.name, "precision": precision, "games": n_games,
            "interval": interval, "backend": backend, "seed": seed,
            "rules_changed": rules_obj.describe(), "compilation_excluded": True,
            "by_players": rows, "seconds": total, "command": everything}
    csv_rows = [{"players": r["players"], "share": r["share"], "share_from": r["share_from"],
                 "variance": r["variance"], "games_needed": r["games_needed"],
                 "halfwidth": r["halfwidth"], "seconds": r["seconds"],
                 "pilot_games": r["pilot"]["games"], "pilot_seconds": r["pilot"]["seconds"],
                 "pilot_rate": r["pilot"]["rate"], "command": r["command"]} for r in rows]

    def text() -> str:
        from analyses._text import text_table
        from analyses.plan import duration

        asked = f"--precision {precision!r}" if precision is not None else f"-n {n_games}"
        labels = list(dict.fromkeys(r["policies"][0] if len(set(r["policies"])) == 1
                                    else ", ".join(r["policies"]) for r in rows))
        lines = [f"Plan for `rumsim seats {info.name} {asked}`: policy {'; '.join(labels)}, "
                 f"rules: {rules_obj.describe()}, seed {seed}"]
        if precision is not None:
            lines.append(f"Target: {interval} at ±{precision!r}")
        else:
            lines.append(f"Target: {n_games:,} games, and how narrow {interval} is then")
        lines.append(f"Times: at the pilot run's rate on this machine ({backend} path, "
                     f"{_plural(rows[0]['pilot']['threads'], 'thread')}), compilation "
                     "excluded")
        head = ("players", f"{first.removeprefix('the ')}'s share", "games" + (" needed" if precision else ""),
                "interval then", "estimated time", "pilot run")
        table = []
        for r in rows:
            pilot = r["pilot"]
            share = (f"{r['share']:.2%}" if r["share_from"] == "pilot"
                     else f"{r['share']:.2%} (1/{r['players']}: pilot too small)")
            reached = r["games_needed"] is not None
            table.append([str(r["players"]), share,
                          f"{r['games_needed']:,}" if reached else "never",
                          f"±{r['halfwidth']:.4f}" if reached else "",
                          duration(r["seconds"]),
                          f"{pilot['games']:,} games in {pilot['seconds']:.2f} s = "
                          f"{pilot['rate']:,.0f} games/s"])
        lines.append(text_table(list(head), table))
        lines.append("")
        if precision is not None:
            looks = "; ".join(f"every {r['check_every']:,} games, 5% of a plan of "
                              f"{r['planned_games']:,}"
                              + (f" at {r['players']} players" if len(rows) > 1 else "")
                              for r in rows)
            lines.append(f"games needed: where the run stops if the share is as in the pilot, "
                         f"the first look at the interval ({looks}, fixed by the arguments) "
                         f"that finds it ±{precision!r} or narrower.")
        else:
            lines.append("interval then: its half-width after the games, if the share is as in "
                         "the pilot.")
        if backend != "fast":
            lines.append(f"`rumsim seats` plays on the fast path; these times are the "
                         f"{backend} path's.")
        for r in rows:
            lines.append(f"{r['players']} players: {r['command']}")
        if len(rows) > 1:
            lines.append(f"All of them, about {duration(total)} in all: {everything}")
        return "\n".join(lines)

    import pandas as pd

    _emit_answer(None, fmt, pd.DataFrame(csv_rows).to_csv(index=False, float_format="%.6g"),
                 data, text)


def _plan_count(info, players: int, precision: float | None, n_games: int | None, rules_obj,
                policy, seed: int, workers, backend: str, pilot_seconds: float,
                flags: list[str]) -> dict:
    """One player count's plan: the pilot run, the games, the time and the command."""
    from analyses import plan

    policies = info.seat_policies(policy, players)
    if precision is not None:
        plan_, chunk = _precision_plan(precision, players)
    else:
        from simulate.runner import default_chunk

        plan_, chunk = None, default_chunk(info, policies, backend)
    pilot = _seat_pilot(info, players, rules_obj, policies, seed, workers, backend, plan_,
                        chunk, pilot_seconds)
    share, variance = pilot.pop("share"), pilot.pop("variance")
    source = "pilot"
    if pilot["tallied"] < PILOT_LEAST:
        share, variance, source = 1.0 / players, plan.fair_variance(players), "fair share"
    if precision is not None:
        needed = plan.games_needed(share, precision, players, PRECISION_ALPHA, variance)
        half = (None if needed is None else
                plan.halfwidth_at(needed, variance, plan_[1], PRECISION_ALPHA))
        target = ["--precision", repr(precision)]
    else:
        needed, half = n_games, plan.fixed_halfwidth(n_games, variance)
        target = ["-n", str(n_games)]
    seconds = math.inf if needed is None else plan.seconds_for(needed, pilot["rate"])
    row = {"players": players, "policies": [p.label() for p in policies], "share": share,
           "variance": variance, "share_from": source,
           "planned_games": plan_[1] if plan_ else None, "check_every": chunk if plan_ else None,
           "games_needed": needed, "halfwidth": half, "seconds": seconds, "pilot": pilot}
    row["command"] = _command(["rumsim", "seats", info.name, "-p", str(players), *target,
                               *flags, *_max_games_flag([row])])
    return row


def _seat_pilot(info, players: int, rules_obj, policies, seed: int, workers, backend: str,
                plan_, chunk: int, seconds: float) -> dict:
    """A short run of the games ``rumsim seats`` would play first (from game 0, in its blocks
    of ``chunk``, tallied as it tallies them): after a warm-up that compiles the engine (or
    loads it from the cache), blocks that grow until ``seconds`` of wall time are spent.
    Returns the timed games, their seconds and rate, every game tallied, and the headline's
    (seat 0's, or turn-order place 1's) share and variance of wins."""
    import time

    import simulate

    by_seat, by_place, parts, take = _seat_tallies(info, players, plan_)
    slow = backend == "reference" or any(p.spec.slow for p in policies)
    played = 0

    def play(count: int):
        nonlocal played
        res = simulate.run(info, count, rules=rules_obj, policies=policies, players=players,
                           seed=seed, workers=workers, backend=backend, progress=False,
                           first_game=played, chunk_size=min(chunk, count), part=parts,
                           on_part=take, keep=False)
        if res.meta["interrupted"]:
            raise Interrupted("stopped during the pilot run, so there is nothing to plan from")
        played += count
        return res.meta

    play(2 if slow else 64)  # compiles the engine, or loads it from the cache: not timed
    block = min(chunk, 4 if slow else 2_000)
    timed_games, timed, meta = 0, 0.0, None
    while True:
        start = time.perf_counter()
        meta = play(block)
        timed += time.perf_counter() - start
        timed_games += block
        left = seconds - timed
        if left <= 0.05 * seconds:
            break
        block = max(1, min(int(timed_games / timed * left), 8 * block))
    headline = by_place or by_seat
    share = float(headline.sums[0] / headline.n)
    variance = float(max(headline.squares[0] / headline.n - share * share, 0.0))
    return {"games": timed_games, "seconds": round(timed, 4), "rate": timed_games / timed,
            "tallied": headline.n, "warmup_games": headline.n - timed_games,
            "threads": meta["workers"], "share": share, "variance": variance}


def _seats_flags(policy, rule, preset, rules_file, seed, workers) -> list[str]:
    """The options a `rumsim seats` command needs to play what a plan timed."""
    flags = []
    if policy is not None:
        flags += ["--policy", policy]
    if preset is not None:
        flags += ["--preset", preset]
    if rules_file is not None:
        flags += ["--rules-file", str(rules_file)]
    for pair in rule or []:
        flags += ["--rule", pair]
    if seed:
        flags += ["--seed", str(seed)]
    if workers is not None:
        flags += ["--workers", str(workers)]
    return flags


def _max_games_flag(rows: list[dict]) -> list[str]:
    """`--max-games` when a --precision plan or its stop passes the default limit (1e9)."""
    most = max((max(r["planned_games"], r["games_needed"] or 0) for r in rows
                if r["planned_games"] is not None), default=0)
    if most * 1.25 <= 10**9:
        return []
    from simulate.counts import MAX_GAMES

    step = 10 ** max(0, int(math.log10(most * 1.25)) - 1)  # up to two significant figures
    return ["--max-games", str(min(MAX_GAMES, -(-int(most * 1.25) // step) * step))]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _counts_text(counts: list[int]) -> str:
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}..{counts[-1]}"
    return ",".join(str(p) for p in counts)


def _command(args: list[str]) -> str:
    import shlex

    return " ".join(shlex.quote(a) for a in args)



# ---------------------------------------------------------------- variants


@app.command()
def variants(
    game: GameArg,
    preset_: Annotated[list[str] | None, typer.Option(
        "--preset", help="a preset to compare with the base rules (repeatable)")] = None,
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", help="a single rule change key=value to compare (repeatable; each is its "
                       "own variant)")] = None,
    variants_file: Annotated[Path | None, typer.Option(
        "--variants-file", help="TOML file of named variants: [name] then key = value lines "
                                "(optionally preset = 'NAME')")] = None,
    base_preset: Annotated[str | None, typer.Option(
        "--base-preset", help="preset of the base rules (default: the defaults)")] = None,
    n: GamesOpt = "100_000",
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    details: Annotated[bool, typer.Option("--details", help="every metric of every variant, "
                                          "with Holm p-values and pairing gains")] = False,
    fmt: FormatOpt = "table",
    out: CsvOutOpt = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    checkpoint: CheckpointOpt = None,
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Compare rule variants with the base rules on the same games (common random numbers)."""
    import simulate
    from analyses.variants import VariantsTally

    check_format(fmt)
    n_games = parse_count(n)
    info = get_game(game)
    players = info.check_players(players)
    policies = info.seat_policies(policy, players)
    cls = info.rules_cls
    base_overrides = cls.preset(base_preset) if base_preset is not None else {}
    base_rules = cls.from_overrides(base_overrides)
    chosen: dict[str, object] = {}
    for name in preset_ or []:
        chosen[name] = cls.from_overrides({**base_overrides, **cls.preset(name)})
    for pair in rule or []:
        chosen[pair] = cls.from_overrides({**base_overrides, **cls.from_strings([pair])})
    if variants_file is not None:
        for name, overrides in read_variants_file(cls, variants_file).items():
            chosen[name] = cls.from_overrides({**base_overrides, **overrides})
    if not chosen:
        raise UserError("name at least one variant: --preset NAME, --rule key=value or "
                        "--variants-file FILE.toml")
    for name, rules_obj in chosen.items():  # a variant that changes nothing compares nothing
        if rules_obj == base_rules:
            raise UserError(f"variant '{name}' has the same rules as the base "
                            f"({base_rules.describe()}); nothing would be compared")
    _check_csv_out(out)
    label = f"preset {base_preset}" if base_preset is not None else "the defaults"
    runs = {"base": (base_rules, label)}
    runs.update({name: (r, r.describe()) for name, r in chosen.items()})
    # Lockstep: each block of games is played under the base rules and every variant, on
    # the same game indices, and fed into the tally at once; no rows are kept. A stop keeps
    # the blocks that finished, every variant on the same games.
    names = [name for name in runs if name != "base"]
    tally = VariantsTally(players, names)

    def take(frames) -> None:
        tally.add(frames[0], dict(zip(names, frames[1:], strict=True)))

    with playing(cluster, scheduler, checkpoint, resume) as (where, saved):
        res = simulate.run(info, n_games, rules=tuple(r for r, _ in runs.values()),
                           policies=policies, players=players, seed=seed, workers=workers,
                           progress=progress_flag(quiet), label="base and variants",
                           on_chunk=take, keep=False, cluster=where, checkpoint=saved)
    if not res.meta["games"]:
        raise Interrupted("stopped before any game finished, so there is nothing to compare")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of(("the base and every variant", res.meta["games"], n_games), [],
                             "variant", ["all"])
    answer = tally.answer({k: runs[k][1] for k in names},
                          label if base_rules.describe() == "default"
                          else f"{label} ({base_rules.describe()})", seed=seed, meta=res.meta)
    _emit_answer(out, fmt, answer.to_csv(), answer.to_json(),
                 lambda: answer.render_text(details=details), partial)


@app.command()
def tune(
    game: GameArg,
    goal: Annotated[list[str] | None, typer.Option(
        "--goal", help="METRIC=TARGET (aim at it), METRIC<=BOUND or METRIC>=BOUND (a "
                       "constraint), optionally ':weight=W'; shares as 0.02 or 2pp; metrics: "
                       "first_player_edge, place_gap[K], seat_gap[K], max_place_gap, "
                       "max_seat_gap, mean_rounds, median_rounds, mean_turns, median_turns, "
                       "tie_share, score_range, capped_share, mean_score, win_share, "
                       "band_share[K], band_distance[SPLIT] (repeatable)")] = None,
    knob: Annotated[list[str] | None, typer.Option(
        "--knob", help="a rule option to turn: OPTION (every value of a bool or choice), "
                       "OPTION=V1,V2, OPTION=LOW..HIGH, or list entries OPTION[I]=... / "
                       "OPTION[I:]=... (repeatable)")] = None,
    players: PlayerCountsOpt = None,
    policy: PolicyOpt = None,
    rule: RuleOpt = None,
    preset: PresetOpt = None,
    rules_file: RulesFileOpt = None,
    budget: Annotated[str, typer.Option(
        "--budget", help="games to play in all, per player count (screening and race)")]
        = "400_000",
    error_rate: Annotated[float, typer.Option(
        "--error-rate", help="the chance the race drops the truly best setting")] = 0.05,
    trials: Annotated[int, typer.Option(
        "--trials", min=8, max=10_000, help="settings Optuna proposes when the knobs span "
                                            "more than 64 settings or a float range")] = 96,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    fmt: FormatOpt = "table",
    out: CsvOutOpt = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Tune rule options toward goals: race every setting of the knobs on the same games,
    drop those shown worse (at a stated error rate), and answer with the best setting, the
    ones that cannot be told apart from it and what the change moves, each with intervals."""
    import pandas as pd

    from analyses.tune import policies_text, simulate_arena
    from analyses.tune import tune as tune_rules

    check_format(fmt)
    info = get_game(game)
    counts = player_counts(info, players)
    base = build_rules(info, preset, rules_file, rule)
    overrides = base.changed()
    n_budget = parse_count(budget)
    _check_csv_out(out)
    answers = []
    with playing(cluster, scheduler, None, False) as (where, _):
        for p in counts:
            policies = info.seat_policies(policy, p)
            label = policies_text(policies)
            arena = simulate_arena(info, p, policies, seed, workers, cluster=where,
                                   progress=progress_flag(quiet))
            try:
                answer = tune_rules(info, p, overrides, goal or [], knob or [], arena,
                                    n_budget, label, alpha=error_rate, seed=seed,
                                    trials=trials)
            except Interrupted:
                if not answers:
                    raise
                break  # the player counts that finished are answered, the rest said
            answers.append(answer)
            if answer.race.interrupted:
                break
    cut = [a for a in answers if a.race.interrupted]
    partial = None
    if cut or len(answers) < len(counts):
        partial = Partial.of(None, [f"{p} players" for p in counts[len(answers):]],
                             "player count", [f"{p} players" for p in counts])
        if cut:
            partial = Partial(f"interrupted at {_plural(cut[0].players, 'player')}; that answer rests "
                              "on the looks that finished"
                              + (f"; not played: {', '.join(partial.not_played)}"
                                 if partial and partial.not_played else ""))
    csv_text = pd.concat([a.rows() for a in answers]).to_csv(index=False)
    data = {"answers": [a.to_json() for a in answers]}
    _emit_answer(out, fmt, csv_text, data,
                 lambda: "\n\n".join(a.render_text() for a in answers), partial)


@app.command()
def matchup(
    game: GameArg,
    policy: Annotated[str, typer.Option("--policy", help="the focal policy, e.g. 'rollout' or "
                                        "'rollout:samples=16'")],
    field: Annotated[str | None, typer.Option(
        "--field", help="the policy of every other seat (default: the game's)")] = None,
    n: Annotated[str, typer.Option("--games", "-n", help="games in all, split evenly over "
                                   "the focal seat's places")] = "2_000",
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    preset: PresetOpt = None,
    rules_file: RulesFileOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    fmt: FormatOpt = "table",
    out: CsvOutOpt = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    checkpoint: CheckpointOpt = None,
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Head to head: one seat of a policy among seats of another, rotated through every seat."""
    import simulate
    from analyses.matchup import MatchupTally, rotations

    check_format(fmt)
    n_games = parse_count(n)
    info = get_game(game)
    players = info.check_players(players)
    if players < 2:
        raise UserError(f"{info.name} is a solo game: there is no field to play against")
    if n_games < players:
        raise UserError(f"--games {n_games:,} is fewer than one game per seat ({players})")
    rules_obj = build_rules(info, preset, rules_file, rule)
    focal = info.policy(policy).label()
    field_label = info.policy(field or info.default_policy).label()
    _check_csv_out(out)
    # Lockstep: each block of deals is played by every rotation (the focal policy in seat
    # 0, 1, ...) on the same game indices, and tallied at once; no rows are kept, and a stop
    # keeps the blocks every rotation finished.
    tally = MatchupTally(players)
    seatings = list(rotations(focal, field_label, players).values())
    with playing(cluster, scheduler, checkpoint, resume) as (where, saved):
        res = simulate.run(info, n_games // players, rules=rules_obj, seatings=seatings,
                           players=players, seed=seed, workers=workers,
                           progress=progress_flag(quiet), label=f"{focal} in every seat",
                           on_chunk=tally.add, keep=False, cluster=where, checkpoint=saved)
    if not res.meta["games"]:
        raise Interrupted("stopped before any game finished, so there is nothing to compare")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of((f"every rotation of {focal}", res.meta["games"],
                              n_games // players), [], "rotation", ["all"])
    answer = tally.answer(focal, field_label)
    _emit_answer(out, fmt, answer.to_csv(), answer.to_json(), answer.render_text, partial)


def read_variants_file(cls, path: Path) -> dict[str, dict]:
    """Named override sets from TOML: a table per variant; 'preset' names a preset to start from."""
    data = read_toml(path, "variants file")
    out = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise UserError(f"variants file '{path}': '{name}' must be a table ([{name}])")
        table = dict(table)
        base = table.pop("preset", None)
        if base is not None and not isinstance(base, str):
            raise UserError(f"variants file '{path}': [{name}] preset must be a preset's name "
                            f"in quotes, not {base!r}")
        overrides = cls.preset(base) if base is not None else {}
        for key in table:
            cls.option(key)
        overrides.update(table)
        out[name] = overrides
    if not out:
        raise UserError(f"variants file '{path}' names no variants")
    return out


# ---------------------------------------------------------------- report


@app.command()
def report(
    games_: Annotated[list[str] | None, typer.Argument(
        metavar="[GAME]...", help="games to report on (default: every game with a page)")] = None,
    out: Annotated[Path, typer.Option("--out", help="folder to write the report into")] = Path("report"),
    scale: Annotated[float | None, typer.Option(
        "--scale", help="multiply every game count by this (default 1)", min=0.0001)] = None,
    quick: Annotated[bool, typer.Option(
        "--quick", help="the same pages at a tenth of the game counts (said on the index)")]
        = False,
    workers: WorkersOpt = None,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Write the balance report (HTML pages with figures, tables as CSV) into a folder."""
    from reports.build import PAGES, QUICK_SCALE, build_report

    if quick and scale is not None:
        raise UserError("give --quick or --scale, not both (--quick is --scale "
                        f"{QUICK_SCALE:g})")
    scale = QUICK_SCALE if quick else 1.0 if scale is None else scale

    chosen = None
    if games_:
        chosen = [get_game(g).name for g in games_]
        missing = [g for g in chosen if g not in PAGES]
        if missing:
            raise UserError(f"no report page for {', '.join(missing)} yet; "
                            f"pages: {', '.join(PAGES)}")
    if not math.isfinite(scale):
        raise UserError(f"--scale must be a finite number, not {scale}")
    if workers is not None:  # refused before the report folder is made
        from simulate.runner import set_workers

        set_workers(workers)
    with playing(cluster, scheduler, None, False) as (where, _):
        written = build_report(out, games=chosen, scale=scale, progress=progress_flag(quiet),
                               workers=workers, cluster=where)
    index = next((p for p in written if Path(p).name == "index.html"), None)
    typer.echo(f"wrote {len(written)} files to {out}" + (f"; open {index}" if index else ""))


# ---------------------------------------------------------------- bench


@app.command()
def bench(
    games_: Annotated[list[str] | None, typer.Argument(
        metavar="[GAME]...", help="games to measure (default: all)")] = None,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", help="policies to measure (repeatable; default: each of the game's)")] = None,
    players: PlayersOpt = None,
    seconds: Annotated[float, typer.Option("--seconds", help="wall time per measurement",
                                           min=0.01)] = 1.0,
    repeats: Annotated[int, typer.Option("--repeats", help="runs per measurement; the best "
                                         "counts", min=1)] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="print a list of records")] = False,
    cluster: ClusterOpt = None,
    scheduler: SchedulerOpt = None,
    n: Annotated[str, typer.Option("--games", "-n", help="with --cluster or --scheduler: "
                                   "games per run")] = "1e7",
) -> None:
    """Games per second: fast path on 1 thread and all threads, reference path, and the ratio;
    with --cluster or --scheduler, one run here against the same run on Dask instead."""
    from simulate import bench as b

    if not math.isfinite(seconds) or seconds > 3600:
        raise UserError(f"--seconds must be at most 3600 (an hour per measurement), not "
                        f"{seconds:g}")
    names = [get_game(g).name for g in games_] if games_ else None
    for name in names or GAMES:
        for p in policy or []:
            get_game(name).policy(p)
        if players is not None:
            get_game(name).check_players(players)
    if cluster is not None or scheduler is not None:
        _bench_backends(names or ["rum-rebellion"], policy, players, parse_count(n), cluster,
                        scheduler, as_json)
        return
    header_done = False
    width = max(len("game"), *(len(n) for n in names or GAMES))  # the game column

    def show(rec):
        nonlocal header_done
        if as_json:
            return
        if not header_done:
            echo(f"{'game':<{width}} {'policy':<10} {'players':>7} {'fast 1 thread':>14} "
                 f"{'fast ' + str(rec['threads']) + ' threads':>15} {'scaling':>8} "
                 f"{'reference':>10} {'speedup':>8}")
            header_done = True
        echo(f"{rec['game']:<{width}} {rec['policy']:<10} {rec['players']:>7} {rec['fast_1']:>14,.0f} "
             f"{rec['fast_all']:>15,.0f} {rec['scaling']:>7.2f}x {rec['reference']:>10,.1f} "
             f"{rec['speedup']:>7,.0f}x")

    records = b.bench(names, policy, seconds=seconds, on_record=show, repeats=repeats,
                      players=players)
    if as_json:
        echo(json.dumps(_finite(records), indent=2, allow_nan=False))
    else:
        echo("games/s; speedup = fast 1 thread / reference; scaling = all threads / 1 thread")


def _bench_backends(names, policy, players, n_games, cluster, scheduler, as_json) -> None:
    """``rumsim bench --cluster``: each game's run here, then the same run on Dask."""
    from simulate import bench as b

    records = []
    with playing(cluster, scheduler, None, False) as (where, _):
        for name in names:
            for p in policy or [None]:
                rec = b.bench_backends(name, n_games, where, p, players)
                records.append(rec)
                if not as_json:
                    echo(f"{rec['game']} ({rec['players']} players, {rec['policy']}), "
                         f"{rec['games']:,} games: here ({rec['local_threads']} threads) "
                         f"{rec['local_rate']:,.0f} games/s in {rec['local_s']} s; "
                         f"{rec['cluster']} {rec['dask_rate']:,.0f} games/s in "
                         f"{rec['dask_s']} s; Dask/here = {rec['ratio']:.0%}; "
                         f"{'identical' if rec['same'] else 'DIFFERENT'} summaries")
    if as_json:
        echo(json.dumps(_finite(records), indent=2, allow_nan=False))


# ---------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; user mistakes become one line on stderr and exit code 2."""
    from simulate.runner import command_scope

    for stream in (sys.stdout, sys.stderr):
        # A console that cannot show a card suit or a dash gets a '?', not a traceback.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    command = typer.main.get_command(app)
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # a bare `rumsim`: what it can do, not an empty error
        argv = ["--help"]
    try:
        with command_scope() as stop:
            code = command.main(args=argv, prog_name="rumsim", standalone_mode=False)
            sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        if stop.requested or code == 130:
            # The command kept and reported what finished; the exit code says it stopped.
            typer.echo("rumsim: interrupted", err=True)
            return 130
        if isinstance(code, int) and code:
            return code
    except Interrupted as exc:
        typer.echo(f"rumsim: interrupted: {exc}", err=True)
        return 130
    except (UserError, RulesError) as exc:
        return _fail(str(exc))
    except getattr(click_errors, "NoArgsIsHelpError", ()) as exc:
        # `rumsim plan`: the group's help (already printed when rich formats it), as a bare
        # `rumsim` gives its own; not a mistake.
        if exc.format_message().strip():
            echo(exc.format_message())
        return 0
    except click_errors.NoSuchOption as exc:
        hint = f" (did you mean {exc.possibilities[0]}?)" if exc.possibilities else ""
        return _fail(f"no such option {exc.option_name}{hint}")
    except click_errors.ClickException as exc:
        return _fail(" ".join(exc.format_message().split()))
    except (getattr(click_errors, "Abort", typer.Abort), typer.Abort):
        typer.echo("rumsim: interrupted", err=True)
        return 130
    except typer.Exit as exc:
        return exc.exit_code
    except BrokenPipeError:
        return _reader_gone()
    except SystemExit as exc:
        # Click turns a closed pipe into a silent exit(1); the reader having stopped reading
        # is not a failure of ours.
        if isinstance(exc.__context__, BrokenPipeError):
            return _reader_gone()
        raise
    except OSError as exc:
        # A fault while writing (a full disk, a vanished folder): one line; an older file of
        # that name is kept, since every file is written beside it and renamed at the end.
        from simulate.results import shown

        where = (f" {shown(Path(os.fsdecode(exc.filename)))}" if getattr(exc, "filename", None)
                 else " the output")
        typer.echo(f"rumsim: error: cannot write{where}: {exc.strerror or exc}", err=True)
        return 1
    except KeyboardInterrupt:
        typer.echo("rumsim: interrupted", err=True)
        return 130
    return 0


def _reader_gone() -> int:
    """`rumsim rules GAME | head -1`: the reader has what it wanted. Point stdout at /dev/null
    so that the interpreter's last flush does not complain either; exit quietly with 0."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())
    except (OSError, AttributeError, ValueError):
        pass
    return 0


def _fail(message: str) -> int:
    typer.echo(f"rumsim: error: {message}", err=True)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
