"""``rumsim evidence make | ls | check``: the report's shipped evidence pack (``reports.evidence``):
play it (``make evidence``), list it, and replay a sample of its blocks against this engine."""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path
from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import echo
from reports.cli.options import Cluster, CommandApp, QuietOpt, WorkersOpt, app, progress_flag
from simulate.errors import UserError

evidence_app = CommandApp(help="The report's shipped evidence: the deals its skilled-play "
                                "verdicts rest on (reports/evidence).", no_args_is_help=True)
app.add_typer(evidence_app, name="evidence")


def _games(names: list[str] | None) -> list[str] | None:
    from reports.evidence import plan

    if not names:
        return None
    chosen = [get_game(g).name for g in names]
    planned = {p.game for p in plan()}
    missing = [g for g in chosen if g not in planned]
    if missing:
        raise UserError(f"no evidence is planned for {', '.join(missing)}; planned: "
                        f"{', '.join(sorted(planned))}")
    return chosen


@evidence_app.command("make")
def evidence_make(
    games_: Annotated[list[str] | None, typer.Argument(
        metavar="[GAME]...", help="only these games (default: every page with evidence)")] = None,
    *,
    pack: Annotated[Path | None, typer.Option(
        "--pack", help="the pack's folder (default: reports/evidence)", show_default=False)]
        = None,
    deals: Annotated[str | None, typer.Option(
        "--deals", help="play this many deals per question instead of the page's (a smaller "
                        "pack, to try it)", show_default=False)] = None,
    workers: WorkersOpt = None,
    where: Cluster,
    quiet: QuietOpt = False,
) -> None:
    """Play the evidence pack into reports/evidence (only the deals it lacks).

    Each page's strength ladder at its main player count, on the page's declared evidence
    deals."""
    from reports import evidence
    from reports.provenance import commit
    from simulate.counts import parse_count

    chosen = _games(games_)
    root = evidence.PACK if pack is None else pack
    limit = None if deals is None else parse_count(deals, "--deals")
    made = commit()
    if made is None or made.endswith("+changes"):
        typer.echo(f"note: the work tree is not a clean commit ({made}); the pack records it "
                   "as such", err=True)
    if workers is not None:
        from simulate.runner import set_workers

        set_workers(workers)
    with where.backend() as backend:
        done = evidence.make(root, games=chosen, cluster=backend, progress=progress_flag(quiet),
                             workers=workers if backend is None else None, deals=limit,
                             say=lambda text: typer.echo(text, err=True))
    for d in done:
        cut = "" if d["deals"] >= d["planned"] else f" (stopped: {d['planned']:,} planned)"
        echo(f"{get_game(d['game']).title}, {evidence._at(d['players'])}: {d['deals']:,} deals{cut} in "
             f"{d['seconds']:,.0f} s (question {str(d['key'])[:12]})")
    echo(f"the pack: {root} ({evidence.size_bytes(root) / 1e6:.2f} MB); its "
         f"{evidence.MANIFEST} says what made each block")


@evidence_app.command("ls")
def evidence_ls(
    as_json: Annotated[bool, typer.Option("--json", help="print a list of records")] = False,
) -> None:
    """The pack's questions: deals, size, and whether they are current or stale.

    Stale: this engine's code has changed since the pack was made."""
    from reports import evidence

    rows = evidence.describe()
    if as_json:
        echo(json.dumps(rows, indent=1))
        return
    if not rows:
        echo(f"no evidence pack at {evidence.PACK}: `make evidence` plays it")
        return
    for r in rows:
        echo(f"{get_game(r['game']).title}, {evidence._at(r['players'])}: {r['deals']:,} deals, "
             f"{r['blocks']} blocks, {r['bytes'] / 1e3:,.0f} KB, "
             f"{'current' if r['current'] else 'STALE (' + r['stale_because'] + ': make evidence)'}; "
             f"{'; '.join(r['origins'])}")


@evidence_app.command("check")
def evidence_check(
    sample: Annotated[int, typer.Option(
        "--blocks", help="blocks to replay per question", min=1)] = 1,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="which blocks (default: a fresh choice, said)", min=0,
        max=2**63 - 1, show_default=False)] = None,
) -> None:
    """Replay a random sample of the pack's blocks and compare them with the pack.

    Byte for byte, with this engine; exit 1 when one differs or the pack is stale."""
    from reports import evidence

    seed = secrets.randbelow(2**31) if seed is None else seed
    result = evidence.check(random.Random(seed), per_question=sample)
    for line in result["lines"]:
        echo(line)
    echo(f"--seed {seed}: {result['checked']} blocks replayed, {result['matched']} matched"
         + (f"; stale: {', '.join(result['stale'])}" if result["stale"] else ""))
    if result["stale"] or result["checked"] != result["matched"]:
        raise typer.Exit(1)
