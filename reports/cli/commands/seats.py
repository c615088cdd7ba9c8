"""``rumsim seats GAME``: first-player / seat advantage, win share per seat with intervals and
a verdict, at one player count or several; with ``--precision``, played until the first
player's anytime-valid interval is that narrow. ``rumsim plan seats`` (``commands.plan``)
reads the same tallies."""

from __future__ import annotations

from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import Partial
from reports.cli.options import (
    GameArg,
    Output,
    PlayerCountsOpt,
    Playing,
    PolicyOpt,
    RulesChoice,
    SeedOpt,
    WorkersOpt,
    app,
    player_counts,
)
from simulate.counts import parse_count
from simulate.errors import Interrupted, UserError

PRECISION_ALPHA = 0.05  # --precision's intervals are 95% confidence sequences


@app.command()
def seats(
    game: GameArg,
    *,
    n: Annotated[str | None, typer.Option(
        "--games", "-n", help="how many games (1e6, 250_000 ...); default 100_000, or with "
                              "--precision as many as it needs (-n then sets a minimum)")] = None,
    players: PlayerCountsOpt = None,
    policy: PolicyOpt = None,
    rules: RulesChoice,
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
    output: Output,
    playing: Playing,
) -> None:
    """First-player / seat advantage: win share per seat with intervals and a verdict."""
    n_games = parse_count(n) if n is not None else (1 if precision is not None else 100_000)
    if max_games is not None and precision is None:
        raise UserError("--max-games is the limit of --precision; without --precision, -n sets "
                        "how many games are played")
    cap = parse_count(max_games if max_games is not None else "1e9", "--max-games")
    if precision is not None and n is not None and n_games > cap:
        raise UserError(f"-n {n_games:,} (the least --precision plays) is more than --max-games "
                        f"{cap:,}")
    info = get_game(game)
    counts = seat_counts(info, players)
    if not 0 < margin < 0.5:
        raise UserError(f"--margin must be between 0 and 0.5, not {margin}")
    if not 0.5 <= power < 1:
        raise UserError(f"--power must be at least 0.5 and below 1, not {power}")
    rules_obj = seat_rules(info, counts, players, policy, rules)
    output.check_out()
    runs = []
    cut, not_played = None, []
    with playing.games(seed=seed, workers=workers) as play:
        for i, p in enumerate(counts):
            try:
                answer = _seat_answer(info, p, n_games, cap, rules_obj, policy, margin,
                                      precision, power, play)
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
    output.emit(csv_text, data, text, partial)


def seat_counts(info, players: str | None) -> list[int]:
    """The player counts of ``--players`` a seat answer is asked at (a solo game has none)."""
    counts = player_counts(info, players)
    if any(p < 2 for p in counts):
        raise UserError(f"{info.name} is a solo game: it has no seat advantage to measure")
    return counts


def seat_rules(info, counts: list[int], players: str | None, policy: str | None,
               rules: RulesChoice):
    """The rules of a seat answer, checked with ``--policy`` at every player count, so every
    mistake is reported before the first game is played."""
    if len(counts) > 1 and policy and len([x for x in policy.split(",") if x.strip()]) > 1:
        raise UserError("--policy names one policy per seat: give it one player count, not "
                        f"{players}")
    rules_obj = rules.build(info)
    for p in counts:
        rules_obj.check_players(p)
        info.seat_policies(policy, p)
    return rules_obj


def _seat_answer(info, players: int, n_games: int, cap: int, rules_obj, policy, margin: float,
                 precision: float | None, power: float, play):
    """One player count's seat answers (by turn order first when seats are colours), their
    JSON data and a function rendering the text; ``play`` plays the games
    (``Playing.games``)."""
    policies = info.seat_policies(policy, players)
    turn_order = info.extra.get("turn_order")
    plan = None
    stop_when = None
    chunk = None
    if precision is not None:
        plan, chunk = precision_plan(precision, players)
        if plan[1] > cap:
            raise UserError(f"--precision {precision} needs about {plan[1]:,} games, more than "
                            f"--max-games {cap:,}")
        n_minimum, n_games = n_games, cap
    by_seat, by_place, parts, take = seat_tallies(info, players, plan)
    headline = (by_place or by_seat).sequences.get(("ci", 0))

    if precision is not None:
        def stop_when(part) -> bool:
            return headline.t >= n_minimum and headline.halfwidth() <= precision
    results = play(info, n_games, rules=rules_obj, policies=policies, players=players,
                   chunk_size=chunk, stop_when=stop_when, part=parts, on_part=take)
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
        return "\n".join([*parts, answer.render_text(), *([f"Note: {note}"] if note else []),
                          *([pooled] if pooled else [])])

    pooled = pooled_note(results.meta, precision is not None)
    if pooled:
        data["store"] = {**results.meta["store"], "note": pooled}
    if info.extra.get("seat_note"):
        data["note"] = info.extra["seat_note"]
    return answers, data, text, results.meta


def pooled_note(meta: dict, sequential: bool) -> str | None:
    """What an answer that took games from the run store says of its intervals: fixed-sample
    ones hold for one look, so a verdict read again as games are added (--more) should be
    read on --precision's anytime-valid intervals."""
    taken = meta.get("store", {}).get("from_store", 0)
    if not taken or sequential:
        return None
    return (f"{taken:,} of these {meta['games']:,} games were played for an earlier answer to "
            "the same question (the run store). The intervals above are fixed-sample: each "
            "holds at 95% for one look. If you decide by reading the verdict again as games "
            "are added (--more), use --precision, whose anytime-valid intervals hold at every "
            "look.")


def precision_plan(precision: float, players: int) -> tuple[tuple[float, int], int]:
    """``seats --precision``'s plan (alpha, planned games) and its games between two looks
    at the interval (every ~5% of the plan): fixed by the arguments alone, so the stopping
    point does not depend on threads or anything else (``analyses.plan``)."""
    from analyses import plan

    if not 0 < precision < 0.5:
        raise UserError(f"--precision must be between 0 and 0.5, not {precision}")
    n_plan = plan.planned_games(precision, players, PRECISION_ALPHA)
    return (PRECISION_ALPHA, n_plan), plan.check_every(n_plan)


def seat_tallies(info, players: int, plan: tuple[float, int] | None):
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
