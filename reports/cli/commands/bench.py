"""``rumsim bench [GAME]...``: games per second of the fast path (one thread and all), the
reference path and their ratio; with ``--cluster`` or ``--scheduler``, a run here against the
same run on Dask (``simulate.bench``)."""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer

from engines import GAMES, get_game
from reports.cli.answers import echo, finite
from reports.cli.options import Cluster, PlayersOpt, app
from simulate.counts import parse_count
from simulate.errors import UserError


@app.command()
def bench(
    *,
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
    where: Cluster,
    n: Annotated[str, typer.Option("--games", "-n", help="with --cluster or --scheduler: "
                                   "games per run")] = "1e7",
    store_cost: Annotated[bool, typer.Option(
        "--store-cost", help="instead: what the run store costs a run of -n games (default "
                             "1e6) and saves it: no store, saving every block, reading every "
                             "block")] = False,
    compile_: Annotated[bool, typer.Option(
        "--compile", help="instead: each engine's cold compile time (a fresh interpreter, an "
                          "empty Numba cache; minutes per engine) and where it goes")] = False,
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
    n_games = parse_count(n)  # checked even where it is not used: a typo is never ignored
    if compile_:
        if policy or players is not None or where.cluster is not None \
                or where.scheduler is not None:
            raise UserError("--compile measures each engine's compile, which no --policy, "
                            "--players, --cluster or --scheduler changes")
        _bench_compile(names or list(GAMES), as_json)
        return
    if store_cost:
        if where.cluster is not None or where.scheduler is not None:
            raise UserError("--store-cost measures the store on this machine; no --cluster or "
                            "--scheduler")
        _bench_store(names or list(GAMES), policy, players, n_games if n != "1e7" else
                     1_000_000, repeats, as_json)
        return
    if where.cluster is not None or where.scheduler is not None:
        _bench_backends(names or ["rum-rebellion"], policy, players, n_games, where, as_json)
        return
    if n != "1e7":
        raise UserError("--games sets the games per run with --cluster or --scheduler; "
                        "on this machine bench measures for --seconds instead")
    header_done = False
    width = max(len("game"), *(len(n) for n in names or GAMES))  # the game column
    pwidth = max(len("policy"), *(len(p) for p in policy or ["expert-top"]))

    def show(rec):
        nonlocal header_done
        if as_json:
            return
        if not header_done:
            echo(f"{'game':<{width}} {'policy':<{pwidth}} {'players':>7} {'fast 1 thread':>14} "
                 f"{'fast ' + str(rec['threads']) + ' threads':>15} {'scaling':>8} "
                 f"{'reference':>10} {'speedup':>8}")
            header_done = True
        echo(f"{rec['game']:<{width}} {rec['policy']:<{pwidth}} {rec['players']:>7} {rec['fast_1']:>14,.0f} "
             f"{rec['fast_all']:>15,.0f} {rec['scaling']:>7.2f}x {rec['reference']:>10,.1f} "
             f"{rec['speedup']:>7,.0f}x")

    records = b.bench(names, policy, seconds=seconds, on_record=show, repeats=repeats,
                      players=players)
    if as_json:
        echo(json.dumps(finite(records), indent=2, allow_nan=False))
    else:
        echo("games/s; speedup = fast 1 thread / reference; scaling = all threads / 1 thread")


def _bench_backends(names, policy, players, n_games, where: Cluster, as_json) -> None:
    """``rumsim bench --cluster``: each game's run here, then the same run on Dask."""
    from simulate import bench as b

    records = []
    with where.backend() as backend:
        for name in names:
            for p in policy or [None]:
                rec = b.bench_backends(name, n_games, backend, p, players)
                records.append(rec)
                if not as_json:
                    echo(f"{rec['game']} ({rec['players']} players, {rec['policy']}), "
                         f"{rec['games']:,} games: here ({rec['local_threads']} threads) "
                         f"{rec['local_rate']:,.0f} games/s in {rec['local_s']} s; "
                         f"{rec['cluster']} {rec['dask_rate']:,.0f} games/s in "
                         f"{rec['dask_s']} s; Dask/here = {rec['ratio']:.0%}; "
                         f"{'identical' if rec['same'] else 'DIFFERENT'} summaries")
    if as_json:
        echo(json.dumps(finite(records), indent=2, allow_nan=False))


def _bench_store(names, policy, players, n_games, repeats, as_json) -> None:
    """``rumsim bench --store-cost``: each game's run with no store, saving, reading."""
    from simulate import bench as b

    records = []
    for name in names:
        for p in policy or [None]:
            rec = b.bench_store(name, n_games, p, players, repeats)
            records.append(rec)
            if not as_json:
                echo(f"{rec['game']} ({rec['players']} players, {rec['policy']}), "
                     f"{rec['games']:,} games: {rec['none_s']:.2f} s with no store, "
                     f"{rec['saving_s']:.2f} s saving every block "
                     f"({rec['saving_ratio']:.1%} of it), {rec['reading_s']:.3f} s reading "
                     f"them back ({rec['store_bytes'] / 1e3:,.0f} KB stored); "
                     f"{'identical' if rec['same'] else 'DIFFERENT'} sums")
    if as_json:
        echo(json.dumps(finite(records), indent=2, allow_nan=False))
    else:
        echo(f"best of {repeats} runs each, interleaved")


def _bench_compile(names: list[str], as_json: bool, top: int = 5) -> None:
    """``rumsim bench --compile``: each engine compiled cold, one after the other (each
    alone on the machine), with the functions that take most of it."""
    import sys

    from simulate.compile_cost import cold

    records = []
    for name in names:
        info = get_game(name)
        print(f"compiling the {info.title} engine from an empty cache (about a minute or "
              "two) ...", file=sys.stderr, flush=True)
        rec = cold(name)
        records.append(rec)
        if as_json:
            continue
        again = [f for f in rec["own"] if f["signatures"] > 1]
        echo(f"{rec['title']}: {rec['seconds']:.1f} s cold ({rec['wall']:.1f} s with the "
             f"interpreter's start), {rec['functions']} functions, {rec['signatures']} "
             f"signatures compiled"
             + (f" ({len(again)} functions more than once)" if again else ""))
        for f in rec["own"][:top]:
            echo(f"  {f['seconds']:7.1f} s  {f['function']}"
                 + (f" ({f['signatures']} signatures)" if f["signatures"] > 1 else ""))
    if as_json:
        echo(json.dumps(records, indent=2))
