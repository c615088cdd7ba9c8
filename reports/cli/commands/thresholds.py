"""``rumsim thresholds``: Rum Runner's printed score bands against how games really score."""

from __future__ import annotations

from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import Partial
from reports.cli.options import GamesOpt, Output, Playing, RulesChoice, SeedOpt, WorkersOpt, app
from simulate.counts import parse_count
from simulate.errors import Interrupted, UserError


@app.command()
def thresholds(
    *,
    n: GamesOpt = "200_000",
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", help="policy to measure (repeatable, or several separated by commas; "
                         "default: random and greedy, or with --skills the skill levels)")] = None,
    skills: Annotated[bool, typer.Option(
        "--skills", help="print the band edges per skill level: beginner (greedy), expert, "
                         "expert + search and the best measured player (the game's strength "
                         "ladder), or each --policy as a level")] = False,
    rules: RulesChoice,
    target: Annotated[str | None, typer.Option(
        "--target", help="target split of the six bands in percent, broke..god: the "
                         "designer's choice, not a rule (default 40,25,15,10,6,4)")] = None,
    slow_games: Annotated[str, typer.Option(
        "--slow-games", help="games for slow policies such as rollout")] = "2_000",
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    output: Output,
    playing: Playing,
) -> None:
    """Rum Runner's printed score bands against how games really score."""
    from analyses import thresholds as th
    from reports.sections.bands import skill_players
    from reports.words import player_labels

    n_games = parse_count(n)
    n_slow = parse_count(slow_games, "--slow-games")
    info = get_game("rum-runner")
    rules_obj = rules.build(info)
    split = th.parse_target(target) if target is not None else th.DEFAULT_TARGET
    texts = [p.strip() for given in (policy or []) for p in given.split(",")]
    if any(not t for t in texts):
        raise UserError(f"--policy names an empty policy in '{','.join(policy or [])}'")
    levels: dict[str, str] = {}  # a skill level's label -> its level
    if skills and not texts:
        ladder = skill_players(info)
        texts = list(ladder.values())
        levels = {info.policy(t).label(): level for level, t in ladder.items()}
    chosen = [info.policy(p) for p in (texts or ["random", "greedy"])]
    if len({p.label() for p in chosen}) < len(chosen):
        raise UserError("--policy names the same policy twice")
    output.check_out()
    results = {}
    cut, not_played = None, []
    with playing.games(seed=seed, workers=workers) as play:
        for i, pol in enumerate(chosen):
            count = min(n_games, n_slow) if pol.spec.slow else n_games
            # Streamed: each block is counted into an accumulator where it is played, and
            # only the counts come back, so memory stays flat whatever the number of games.
            total = [th.ThresholdsAccumulator()]

            def take(part, total=total) -> None:
                total[0] = total[0].merge(part)
            try:
                res = play(info, count, rules=rules_obj, policies=(pol,), label=pol.label(),
                           part=th.ThresholdsPart(), on_part=take)
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
    if skills:
        words = player_labels(info, list(results))
        runs = {levels.get(lab, words[lab]): acc for lab, acc in results.items()}
        report.skills = th.skill_bands(
            runs, target=split, rules=report.rules,
            players={levels.get(lab, words[lab]): words[lab] for lab in results})
    output.emit(report.to_csv(), report.to_json(),
                report.render_skills if skills else report.render_text, partial)
