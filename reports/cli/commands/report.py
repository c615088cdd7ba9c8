"""``rumsim report [GAME]...``: write the balance report (HTML pages with figures, tables as
CSV) into a folder (``reports.build``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from engines import get_game
from reports.cli.options import (
    Cluster,
    NoStoreOpt,
    QuietOpt,
    StoreOpt,
    WorkersOpt,
    app,
    progress_flag,
)
from simulate.errors import UserError


@app.command()
def report(
    *,
    games_: Annotated[list[str] | None, typer.Argument(
        metavar="[GAME]...", help="games to report on (default: every game with a page)")] = None,
    out: Annotated[Path, typer.Option("--out", help="folder to write the report into")] = Path("report"),
    scale: Annotated[float | None, typer.Option(
        "--scale", help="multiply every game count by this (default 1)", min=0.0001)] = None,
    quick: Annotated[bool, typer.Option(
        "--quick", help="the same pages at a tenth of the game counts (said on the index)")]
        = False,
    workers: WorkersOpt = None,
    where: Cluster,
    quiet: QuietOpt = False,
    store: StoreOpt = None,
    no_store: NoStoreOpt = False,
    no_evidence: Annotated[bool, typer.Option(
        "--no-evidence", help="do not take the shipped evidence (reports/evidence): the "
                              "ladders play only the report's own deals")] = False,
) -> None:
    """Write the balance report (HTML pages with figures, tables as CSV) into a folder. Its
    skilled-play ladders take the shipped evidence (reports/evidence, made by `make
    evidence`) and the run store's games before playing their own."""
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
    from reports import evidence
    from simulate.store import from_environment

    if store is not None and no_store:
        raise UserError("--store and --no-store: give one")
    user = from_environment(store, no_store)
    stores = evidence.Layered(None if no_evidence else evidence.pack(), user)
    try:
        with where.backend() as backend:
            written = build_report(out, games=chosen, scale=scale,
                                   progress=progress_flag(quiet), workers=workers,
                                   cluster=backend, store=stores)
    finally:
        stores.close()
    index = next((p for p in written if Path(p).name == "index.html"), None)
    typer.echo(f"wrote {len(written)} files to {out}" + (f"; open {index}" if index else ""))
