"""``rumsim plan seats GAME``: how many games a seat answer needs for a target precision, and
how long they take on this machine, from a short measured pilot run of the games ``rumsim
seats`` would play first."""

from __future__ import annotations

import math
from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import emit_answer, plural
from reports.cli.commands.seats import (
    PRECISION_ALPHA,
    precision_plan,
    seat_counts,
    seat_rules,
    seat_tallies,
)
from reports.cli.options import (
    CommandApp,
    FormatOpt,
    GameArg,
    PlayerCountsOpt,
    PolicyOpt,
    RulesChoice,
    SeedOpt,
    WorkersOpt,
    app,
    check_format,
)
from simulate.counts import parse_count
from simulate.errors import Interrupted, UserError

plan_app = CommandApp(
    name="plan", no_args_is_help=True,
    help="How many games an answer needs and how long they take on this machine, from a "
         "short measured pilot run.")
app.add_typer(plan_app, name="plan")

PILOT_SECONDS = 2.0  # wall time of a player count's pilot run, compilation excluded
PILOT_LEAST = 1_000  # a pilot of fewer games plans at the fair share 1/P instead of its own


@plan_app.command("seats")
def plan_seats(
    game: GameArg,
    *,
    precision: Annotated[float | None, typer.Option(
        "--precision", help="the half-width to reach, as `rumsim seats --precision` "
                            "(e.g. 0.002): the first player's anytime-valid 95% interval")] = None,
    n: Annotated[str | None, typer.Option(
        "--games", "-n", help="instead of --precision: how long this many games take "
                              "(as `rumsim seats -n`)")] = None,
    players: PlayerCountsOpt = None,
    policy: PolicyOpt = None,
    rules: RulesChoice,
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
    counts = seat_counts(info, players)
    rules_obj = seat_rules(info, counts, players, policy, rules)
    flags = _seats_flags(policy, rules, seed, workers)
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
                     f"{plural(rows[0]['pilot']['threads'], 'thread')}), compilation "
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

    emit_answer(None, fmt, pd.DataFrame(csv_rows).to_csv(index=False, float_format="%.6g"),
                data, text)


def _plan_count(info, players: int, precision: float | None, n_games: int | None, rules_obj,
                policy, seed: int, workers, backend: str, pilot_seconds: float,
                flags: list[str]) -> dict:
    """One player count's plan: the pilot run, the games, the time and the command."""
    from analyses import plan

    policies = info.seat_policies(policy, players)
    if precision is not None:
        plan_, chunk = precision_plan(precision, players)
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

    by_seat, by_place, parts, take = seat_tallies(info, players, plan_)
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


def _seats_flags(policy, rules: RulesChoice, seed, workers) -> list[str]:
    """The options a `rumsim seats` command needs to play what a plan timed."""
    flags = ["--policy", policy] if policy is not None else []
    flags += rules.flags()
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


def _counts_text(counts: list[int]) -> str:
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}..{counts[-1]}"
    return ",".join(str(p) for p in counts)


def _command(args: list[str]) -> str:
    import shlex

    return " ".join(shlex.quote(a) for a in args)
