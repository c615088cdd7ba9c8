"""``rumsim run GAME``: play N games and summarise every outcome column; the rows saved with
``--out``.

Without ``--out`` each block is summarised where it is played (``RunSummaryPart``) and the
summaries are merged in block order: a storable tally, so the run store keeps them and a later
run of the same question plays only the blocks it lacks. With ``--out`` every row is written,
so the chunks' rows come here (``on_chunk``) and nothing is stored; both give the same table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import echo
from reports.cli.options import (
    FormatOpt,
    GameArg,
    GamesOpt,
    PlayersOpt,
    Playing,
    PolicyOpt,
    RulesChoice,
    SeedOpt,
    WorkersOpt,
    app,
    check_format,
)
from simulate.counts import parse_count
from simulate.summary import RunSummaryPart  # imported here: rumsim store can read its blocks


@app.command()
def run(
    game: GameArg,
    *,
    n: GamesOpt = "100_000",
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    rules: RulesChoice,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="save the rows to FILE.parquet "
                                             "or FILE.csv (metadata kept)")] = None,
    fmt: FormatOpt = "table",
    chunk_size: Annotated[str | None, typer.Option("--chunk-size", help="games per chunk "
                                                   "(results do not depend on it)")] = None,
    backend: Annotated[str, typer.Option("--backend", help="fast (Numba) or reference "
                                         "(readable Python, slow)")] = "fast",
    playing: Playing,
) -> None:
    """Play N games and summarise every outcome column (rows saved with --out)."""
    from contextlib import ExitStack

    from simulate.results import RowWriter, check_output_path
    from simulate.summary import StreamSummary, summarise

    check_format(fmt)
    n_games = parse_count(n)
    chunk = parse_count(chunk_size, "chunk size") if chunk_size else None
    info = get_game(game)
    players = info.check_players(players)
    rules_obj = rules.build(info)
    policies = info.seat_policies(policy, players)
    if out is not None:
        check_output_path(out)  # fail before the work, not after
    # No rows are kept, so memory stays flat in N. Without --out each block is summarised
    # where it is played and the summaries merged in block order (a storable tally: the run
    # store keeps them). With --out each chunk's rows go into the summary and into the file as
    # it finishes (rows are never stored); the file is renamed into place at the end.
    stream = StreamSummary()
    with ExitStack() as stack:
        play = stack.enter_context(playing.games(seed=seed, workers=workers))
        writer = stack.enter_context(RowWriter(out)) if out is not None else None

        def take(frame) -> None:
            stream.add(frame)
            writer.write(frame)

        reduce = (dict(part=RunSummaryPart(), on_part=stream.merge) if writer is None
                  else dict(on_chunk=take))
        results = play(info, n_games, rules=rules_obj, policies=policies, players=players,
                       chunk_size=chunk, backend=backend, **reduce)
        if results.meta["interrupted"]:
            typer.echo(f"interrupted: kept the {results.meta['games']:,} games that finished",
                       err=True)
        if writer is not None:
            writer.commit(results)
            typer.echo(f"wrote {writer.rows:,} rows to {out}"
                       + (" (partial: its metadata says interrupted)"
                          if results.meta["interrupted"] else ""), err=True)
    echo(summarise(results, fmt, stream))
