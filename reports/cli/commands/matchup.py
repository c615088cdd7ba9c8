"""``rumsim matchup GAME --policy P``: head to head, one seat of a policy among seats of
another, rotated through every seat on the same deals."""

from __future__ import annotations

from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import Partial
from reports.cli.options import (
    GameArg,
    Output,
    PlayersOpt,
    Playing,
    RulesChoice,
    SeedOpt,
    WorkersOpt,
    app,
)
from simulate.counts import parse_count
from simulate.errors import Interrupted, UserError


@app.command()
def matchup(
    game: GameArg,
    *,
    policy: Annotated[str, typer.Option("--policy", help="the focal policy, e.g. 'rollout' or "
                                        "'rollout:samples=16'")],
    field: Annotated[str | None, typer.Option(
        "--field", help="the policy of every other seat (default: the game's)")] = None,
    n: Annotated[str, typer.Option("--games", "-n", help="games in all, split evenly over "
                                   "the focal seat's places")] = "2_000",
    players: PlayersOpt = None,
    rules: RulesChoice,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    output: Output,
    playing: Playing,
) -> None:
    """Head to head: one seat of a policy among seats of another, rotated through every seat."""
    from analyses.matchup import MatchupTally, rotations

    n_games = parse_count(n)
    info = get_game(game)
    players = info.check_players(players)
    if players < 2:
        raise UserError(f"{info.name} is a solo game: there is no field to play against")
    if n_games < players:
        raise UserError(f"--games {n_games:,} is fewer than one game per seat ({players})")
    rules_obj = rules.build(info)
    focal = info.policy(policy).label()
    field_label = info.policy(field or info.default_policy).label()
    output.check_out()
    # Lockstep: each block of deals is played by every rotation (the focal policy in seat
    # 0, 1, ...) on the same game indices, and tallied at once; no rows are kept, and a stop
    # keeps the blocks every rotation finished.
    tally = MatchupTally(players)
    seatings = list(rotations(focal, field_label, players).values())
    with playing.games(seed=seed, workers=workers) as play:
        res = play(info, n_games // players, rules=rules_obj, seatings=seatings, players=players,
                   label=f"{focal} in every seat", on_chunk=tally.add)
    if not res.meta["games"]:
        raise Interrupted("stopped before any game finished, so there is nothing to compare")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of((f"every rotation of {focal}", res.meta["games"],
                              n_games // players), [], "rotation", ["all"])
    answer = tally.answer(focal, field_label)
    output.emit(answer.to_csv(), answer.to_json(), answer.render_text, partial)
