"""``rumsim tune GAME``: tune rule options toward goals by racing every setting of the knobs
on the same games (``analyses.tune``)."""

from __future__ import annotations

from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import Partial, plural
from reports.cli.options import (
    Cluster,
    GameArg,
    Output,
    PlayerCountsOpt,
    PolicyOpt,
    QuietOpt,
    RulesChoice,
    SeedOpt,
    WorkersOpt,
    app,
    player_counts,
    progress_flag,
)
from simulate.counts import parse_count
from simulate.errors import Interrupted


@app.command()
def tune(
    game: GameArg,
    *,
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
    rules: RulesChoice,
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
    output: Output,
    where: Cluster,
    quiet: QuietOpt = False,
) -> None:
    """Tune rule options toward goals: race every setting of the knobs on the same games,
    drop those shown worse (at a stated error rate), and answer with the best setting, the
    ones that cannot be told apart from it and what the change moves, each with intervals."""
    import pandas as pd

    from analyses.tune import check_question, policies_text, simulate_arena
    from analyses.tune import tune as tune_rules

    info = get_game(game)
    counts = player_counts(info, players)
    base = rules.build(info)
    overrides = base.changed()
    n_budget = parse_count(budget)
    output.check_out()
    for p in counts:  # every count's question is checked before the first game is played
        info.seat_policies(policy, p)
        check_question(info, p, overrides, goal or [], knob or [], error_rate)
    answers = []
    with where.backend() as backend:
        for p in counts:
            policies = info.seat_policies(policy, p)
            label = policies_text(policies)
            arena = simulate_arena(info, p, policies, seed, workers, cluster=backend,
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
            partial = Partial(f"interrupted at {plural(cut[0].players, 'player')}; that answer rests "
                              "on the looks that finished"
                              + (f"; not played: {', '.join(partial.not_played)}"
                                 if partial and partial.not_played else ""))
    csv_text = pd.concat([a.rows() for a in answers]).to_csv(index=False)
    data = {"answers": [a.to_json() for a in answers]}
    output.emit(csv_text, data, lambda: "\n\n".join(a.render_text() for a in answers), partial)
