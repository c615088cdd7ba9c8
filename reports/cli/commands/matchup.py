"""``rumsim matchup GAME --policy P``: head to head, one seat of a policy among seats of
another, rotated through every seat on the same deals; for a solo game, the two policies'
scores on the same deals."""

from __future__ import annotations

from dataclasses import dataclass
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
from simulate.codec import storable
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
    # 0, 1, ...) on the same game indices, and tallied where it is played (MatchupParts: so
    # the run store keeps it); no rows are kept, and a stop keeps the blocks every rotation
    # finished.
    tally = MatchupTally(players)
    seatings = list(rotations(focal, field_label, players).values())
    with playing.games(seed=seed, workers=workers) as play:
        res = play(info, n_games // players, rules=rules_obj, seatings=seatings, players=players,
                   label=f"{focal} in every seat", part=MatchupParts(players),
                   on_part=tally.merge)
    if not res.meta["games"]:
        raise Interrupted("stopped before any game finished, so there is nothing to compare")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of((f"every rotation of {focal}", res.meta["games"],
                              res.meta["requested"]), [], "rotation", ["all"])
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
                   part=SoloMatchupParts((field_label, focal)), on_part=tally.merge)
    if not res.meta["games"]:
        raise Interrupted("stopped before any game finished, so there is nothing to compare")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of((f"{focal} and {field_label}", res.meta["games"],
                              res.meta["requested"]), [], "policies", ["both"])
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


# ---------------------------------------------------------------- a block's tally


@storable
@dataclass(frozen=True)
class MatchupParts:
    """One block's :class:`analyses.matchup.MatchupTally`, made where the block is played (a
    run's ``part``, kept in the run store): the frames of every rotation (the focal policy in
    seat 0, 1, ...) on the block's deals. Every sum is exact, so the merged blocks give the
    answer of one tally fed every game."""

    players: int

    # the version of what the run store keeps of a block (``simulate.store``): bump it when
    # what MatchupTally.add keeps changes
    store_version = 1

    def __call__(self, frames):
        from analyses.matchup import MatchupTally

        return MatchupTally(self.players).add(frames)

    def verify(self, result, games: int) -> None:
        """Refuse a stored block that cannot be this part's tally of ``games`` deals (each
        played in every rotation)."""
        from analyses.matchup import MatchupTally

        p = self.players
        if type(result) is not MatchupTally or result.players != p:
            raise ValueError("not a head-to-head tally of this player count")
        if not isinstance(result.by_deal, bool) or not result.by_deal:
            raise ValueError("its rotations were not played on the same deals")
        for moments in (result.wins, result.leads):
            if not isinstance(moments, list) or len(moments) != p:
                raise ValueError("its tallies are not one per focal seat")
        for m in (*result.wins, *result.leads):
            _check_moments(m, games)
        for m in (result.pooled_wins, result.pooled_leads):
            _check_moments(m, games * p)
        for m, total in ((w, w._total) for w in (*result.wins, result.pooled_wins)):
            if total < 0 or total > m.n << 1200:  # wins are 0..1 a game (units of 2^-1200)
                raise ValueError("its wins are not 0 to 1 a game")
        from analyses.ladder import verify_differences

        verify_differences(result.deal_wins, 1.0 / p, games)
        verify_differences(result.deal_leads, 0.0, games)


@storable
@dataclass(frozen=True)
class SoloMatchupParts:
    """One block's :class:`analyses.ladder.ScoreLadderTally` of a solo head to head: the
    frames of ``policies`` (the field's, then the focal policy's) on the block's deals."""

    policies: tuple[str, ...]

    store_version = 1   # as MatchupParts

    def __call__(self, frames):
        from analyses.ladder import ScoreLadderTally

        return ScoreLadderTally(self.policies).add(frames)

    def verify(self, result, games: int) -> None:
        """Refuse a stored block that cannot be this part's tally of ``games`` deals."""
        import numpy as np

        from analyses.ladder import ScoreLadderTally, verify_differences

        fresh = ScoreLadderTally(self.policies)
        if type(result) is not ScoreLadderTally or tuple(result.policies) != fresh.policies:
            raise ValueError("not a score ladder of these policies")
        if (result.groups, result.column) != (fresh.groups, fresh.column):
            raise ValueError("a score ladder of other groups or scores")
        sums = result.sums
        if (not isinstance(sums, np.ndarray) or sums.dtype != np.float64
                or sums.shape != fresh.sums.shape):
            raise ValueError("its sums are not one row of moments per group and rung")
        if sums[:, :, 0].min() < 0 or sums[:, :, 0].sum() != games:
            raise ValueError(f"its groups do not count {games} deals")
        if not isinstance(result.leads, list) or len(result.leads) != len(fresh.leads):
            raise ValueError("its score leads are not one per rung")
        for lead in result.leads:
            verify_differences(lead, 0.0, games)


def _check_moments(m, n: int) -> None:
    """Refuse anything but exact moments of ``n`` values."""
    from analyses.matchup import _Moments

    if type(m) is not _Moments or type(m.n) is not int or m.n != n:
        raise ValueError(f"its moments do not count {n} values")
    if type(m._total) is not int or type(m._squares) is not int or m._squares < 0:
        raise ValueError("its moments are not exact sums")


