"""``rumsim matchup GAME --policy P``: head to head, one seat of a policy among seats of
another, rotated through every seat on the same deals; for a solo game, the two policies'
scores on the same deals."""

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
    """Head to head: one seat of a policy among seats of another, rotated through every seat
    (solo game: the policy's score against --field's on the same deals)."""
    from analyses.matchup import MatchupTally, rotations

    n_games = parse_count(n)
    info = get_game(game)
    players = info.check_players(players)
    if players < 2:
        return _solo(info, policy, field, n_games, rules, seed, workers, output, playing)
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


def _solo(info, policy, field, n_games, rules, seed, workers, output, playing) -> None:
    """A solo game's head to head: both policies play the same deals (game indices), and the
    answer is the focal policy's score lead over the field's per deal (the skill ladder's
    solo rung: gains and losses over deals, upset rate, variance shares)."""
    from analyses.ladder import ScoreLadderTally, score_ladder
    from analyses.stats import CONFIDENCE, mean_interval_from_moments

    if n_games < 2:
        raise UserError(f"--games {n_games:,}: a paired comparison needs two or more deals")
    rules_obj = rules.build(info)
    focal = info.policy(policy).label()
    field_label = info.policy(field or info.default_policy).label()
    output.check_out()
    tally = ScoreLadderTally((field_label, focal))
    with playing.games(seed=seed, workers=workers) as play:
        res = play(info, n_games, rules=rules_obj, seatings=[(field_label,), (focal,)],
                   players=1, label=f"{focal} and {field_label} on the same deals",
                   on_chunk=tally.add)
    if not res.meta["games"]:
        raise Interrupted("stopped before any game finished, so there is nothing to compare")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of((f"{focal} and {field_label}", res.meta["games"], n_games), [],
                             "policies", ["both"])
    answer = score_ladder(tally, CONFIDENCE)
    row = answer.table.iloc[0]
    n, sa, sb, saa, sbb = tally.sums[:, 0, :5].sum(axis=0)
    means = {field_label: mean_interval_from_moments(int(n), sa, saa, CONFIDENCE),
             focal: mean_interval_from_moments(int(n), sb, sbb, CONFIDENCE)}
    lead = (row["lead"], row["lead_low"], row["lead_high"])
    verdict = ("stronger" if lead[1] > 0 else "weaker" if lead[2] < 0 else "not shown to differ")

    def text() -> str:
        return "\n\n".join([
            f"Head to head (solo): {focal} and {field_label} on the same {int(row['games']):,} "
            f"deals",
            "Mean score (Student-t 95%): " + "; ".join(
                f"{k} {v.estimate:.1f} [{v.low:.1f}, {v.high:.1f}]" for k, v in means.items()),
            *answer.sentences,
            f"Verdict: {focal} scores {lead[0]:+.1f} [{lead[1]:+.1f}, {lead[2]:+.1f}] points a "
            f"deal more than {field_label}: {verdict} (95% interval "
            + ("wholly above 0)." if verdict == "stronger" else "wholly below 0)."
               if verdict == "weaker" else "holds 0; it does not show the two are equal)."),
            f"Method: {answer.method}"])

    data = {"game": info.name, "players": 1, "focal": focal, "field": field_label,
            "verdict": verdict, "method": answer.method,
            "mean_score": {k: {"estimate": v.estimate, "low": v.low, "high": v.high}
                           for k, v in means.items()},
            "rows": answer.table.to_dict(orient="records")}
    output.emit(answer.table.to_csv(index=False), data, text, partial)
