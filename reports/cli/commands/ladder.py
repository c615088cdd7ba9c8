"""``rumsim ladder GAME``: the strength ladder, from random up to search over the expert, with
one rating per policy, the seat answer at every rung on the same deals, and whether the
skilled-play answer has converged."""

from __future__ import annotations

import math
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
def ladder(
    game: GameArg,
    *,
    players: PlayersOpt = None,
    n: Annotated[str | None, typer.Option(
        "--games", "-n", help="deals, each played in every seating (default: the game's "
        "declared ladder size)")] = None,
    rungs: Annotated[str | None, typer.Option(
        "--rungs", help="the policies, weakest first, separated by commas (a policy with "
        "parameters as 'rollout:base=expert:samples=8'; default: the game's declared ladder)"
    )] = None,
    margin: Annotated[float, typer.Option(
        "--margin", help="the seat verdicts' margin (win share minus 1/P)")] = 0.02,
    converge: Annotated[float | None, typer.Option(
        "--converge", help="the change between the top two rungs that counts as converged "
        "(equivalence test at 5%): of the first player's edge (a share, default 0.015), or "
        "for a solo game of the mean score (points, default 5)")] = None,
    rules: RulesChoice,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    output: Output,
    playing: Playing,
) -> None:
    """The strength ladder: each rung in every seat and against the rung below on the same
    deals; ratings, the seat answer at every rung, and whether it converged."""
    from analyses.convergence import MARGIN, SOLO_MARGIN
    from analyses.strength import StrengthParts, ladder_block, seatings

    info = get_game(game)
    players = info.check_players(players)
    solo = players < 2
    if not 0 < margin < 1:
        raise UserError(f"--margin must be between 0 and 1 (a share), not {margin}")
    if converge is None:
        converge = SOLO_MARGIN if solo else MARGIN
    if not 0 < converge < (math.inf if solo else 1):
        raise UserError(f"--converge must be above 0{'' if solo else ' and below 1 (a share)'}"
                        f", not {converge}")
    names = _rungs(info, rungs)
    declared = info.extra.get("ladder_deals", 2_000)
    deals = parse_count(n) if n is not None else int(declared)
    if deals < 2:
        raise UserError(f"--games {deals:,}: the ladder compares rungs over two or more deals")
    rules_obj = rules.build(info)
    output.check_out()
    if solo:
        return _solo(info, names, deals, rules_obj, converge, seed, workers, output, playing)
    # each block is tallied where it is played (and kept in the run store), then merged
    parts = StrengthParts.of(names, players, info.extra.get("seat_views", {}),
                             info.extra.get("turn_order", (None, None))[1])
    tally = parts.tally()
    with playing.games(seed=seed, workers=workers) as play:
        res = play(info, deals, rules=rules_obj, seatings=seatings(names, players),
                   players=players, label=f"{len(names)} rungs in every seating",
                   part=parts, on_part=tally.merge, chunk_size=ladder_block(info, names))
    if not res.meta["games"]:
        raise Interrupted("stopped before any deal finished, so there is no ladder to show")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of(("every seating of the ladder", res.meta["games"], deals), [],
                             "seating", ["all"])
    answer = tally.answer(margin, converge)
    title = (f"Strength ladder of {info.title}, {players} players, on the same "
             f"{answer.deals:,} deals (seed {seed}; rules: {rules_obj.describe()})")
    data = {"game": info.name, "seed": seed, "rules": rules_obj.to_dict(), **answer.to_json()}
    output.emit(answer.table().to_csv(index=False, float_format="%.6g"), data,
                lambda: render(title, answer), partial)


def _solo(info, names, deals, rules_obj, converge, seed, workers, output, playing) -> None:
    """A solo game's ladder: every rung (and the game's ceiling) on the same deals."""
    from analyses.solo_ladder import SoloLadderParts, seatings
    from analyses.strength import ladder_block

    ceiling = info.extra.get("ceiling")
    if ceiling is not None:
        ceiling = info.policy(ceiling).label()
    parts = SoloLadderParts.of(names, ceiling)
    tally = parts.tally()
    with playing.games(seed=seed, workers=workers) as play:
        res = play(info, deals, rules=rules_obj, seatings=seatings(names, ceiling), players=1,
                   label=f"{len(names)} rungs on the same deals", part=parts,
                   on_part=tally.merge, chunk_size=ladder_block(info, names))
    if not res.meta["games"]:
        raise Interrupted("stopped before any deal finished, so there is no ladder to show")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of(("every rung of the ladder", res.meta["games"], deals), [],
                             "rung", ["all"])
    answer = tally.answer(rules_obj, converge)
    title = (f"Strength ladder of {info.title} (solo) on the same {answer.deals:,} deals "
             f"(seed {seed}; rules: {rules_obj.describe()})")
    data = {"game": info.name, "seed": seed, "rules": rules_obj.to_dict(), **answer.to_json()}
    output.emit(answer.table().to_csv(index=False, float_format="%.6g"), data,
                lambda: render_solo(title, answer), partial)


def render_solo(title: str, answer) -> str:
    """A solo ladder at the terminal: mean score, share of the ceiling, bands, lead."""
    from analyses._text import text_table

    def ci(x, lo, hi, fmt="{:.1f}"):
        return f"{fmt.format(x)} [{fmt.format(lo)}, {fmt.format(hi)}]"

    rows = []
    for _, r in answer.table().iterrows():
        k = int(r["rung"])
        row = [str(k), r["policy"], ci(r["mean"], r["mean_low"], r["mean_high"])]
        if answer.ceiling_policy is not None:
            row.append(ci(100 * r["of_ceiling"], 100 * r["of_ceiling_low"],
                          100 * r["of_ceiling_high"], "{:.1f}%"))
        row += ["-" if k == 0 else ci(r["lead"], r["lead_low"], r["lead_high"], "{:+.1f}"),
                f"{r['bands']} ({r['off_target_pct']:.1f}% off)"]
        rows.append(row)
    heads = ["rung", "policy", "mean score"]
    if answer.ceiling_policy is not None:
        heads.append(f"of {answer.ceiling_policy}'s")
    heads += ["lead over the rung below", "printed bands"]
    lines = [title, "", text_table(heads, rows)]
    if answer.ceiling is not None:
        c = answer.ceiling
        lines.append(f"Ceiling ({answer.ceiling_policy}, knows the deal): mean "
                     f"{c.estimate:.1f} [{c.low:.1f}, {c.high:.1f}]")
        above = answer.table()["above_ceiling"].sum()
        if above:
            lines.append(f"WARNING: a rung outscored the ceiling on {int(above):,} deal-rungs: "
                         "it is not a bound there")
    lines += ["", "Skilled play: " + answer.skilled_sentence(), answer.converged.sentence(),
              "", *answer.leads.sentences, "", "Method: " + answer.method()]
    return "\n".join(lines)


def _rungs(info, text: str | None) -> tuple[str, ...]:
    """The ladder's policies as labels, weakest first, each checked (a slip is one line)."""
    if text is None:
        declared = info.extra.get("ladder")
        if not declared:
            raise UserError(f"{info.name} declares no ladder: name the rungs with --rungs")
        parts = list(declared)
    else:
        parts = [p.strip() for p in text.split(",")]
        if any(not p for p in parts):
            raise UserError(f"--rungs '{text}' names an empty rung")
    labels = tuple(info.policy(p).label() for p in parts)
    if len(labels) < 2:
        raise UserError("--rungs: a ladder needs two or more policies")
    if len(set(labels)) != len(labels):
        raise UserError(f"--rungs names a policy twice ({', '.join(labels)})")
    return labels


def render(title: str, answer) -> str:
    """The ladder at the terminal: one row per rung, every seat's edge, the verdict."""
    from analyses._text import text_table

    def pp(x, lo, hi):
        return f"{100 * x:+.1f} pp [{100 * lo:+.1f}, {100 * hi:+.1f}]"

    def elo(x, lo, hi):
        return f"{x:+.0f} [{lo:+.0f}, {hi:+.0f}]"

    table = answer.table()
    fair = 1 / answer.players
    rows = []
    for _, r in table.iterrows():
        k = int(r["rung"])
        head = ("-" if k == 0 else f"{100 * r['head_share']:.1f}% [{100 * r['head_low']:.1f}, "
                f"{100 * r['head_high']:.1f}]" + (" WRONG ORDER" if r["order_wrong"] else ""))
        rows.append([str(k), r["policy"],
                     "0" if k == 0 else elo(r["rating"], r["rating_low"], r["rating_high"]),
                     "-" if k == 0 else elo(r["step"], r["step_low"], r["step_high"]), head,
                     pp(r["first_edge"], r["first_edge_low"], r["first_edge_high"]),
                     r["seat_verdict"]])
    first = ("first in turn order" if answer.places is not None else "seat 0")
    lines = [title, "",
             text_table(["rung", "policy", "rating (Elo)", "over the rung below",
                         f"head to head (fair {fair:.0%})", f"edge of {first}", "verdict"],
                        rows), ""]
    edges = answer.seat_edges()
    for kind, group in edges.groupby("by", sort=False):
        unit = "place in turn order" if kind == "place" else "seat"
        cells = []
        for k, rung in enumerate(answer.rungs):
            g = group[group["rung"] == k]
            cells.append([rung] + [pp(e, lo, hi) for e, lo, hi in
                                   zip(g["edge"], g["edge_low"], g["edge_high"], strict=True)])
        index = [str(i) for i in group[group["rung"] == 0]["index"]]
        lines += [f"Edge (win share minus {fair:.1%}) by {unit}, per rung",
                  text_table(["policy", *index], cells), ""]
    lines += ["Skilled play: " + answer.skilled_sentence(), answer.converged.sentence(), "",
              *answer.heads.sentences, "", "Method: " + answer.method()]
    return "\n".join(lines)
