"""``rumsim restrict GAME``: which choices matter. Every declared choice forbidden to one seat
among unrestricted seats, on the same deals: what it costs, how often the unrestricted
player takes it, and a verdict (dominant, useless, matters, overused, undetermined) at a
stated error rate across all choices."""

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
def restrict(
    game: GameArg,
    *,
    policy: Annotated[str | None, typer.Option(
        "--policy", help="the policy of every seat, restricted in one (default: the trained "
        "expert)")] = None,
    players: PlayersOpt = None,
    choices: Annotated[str | None, typer.Option(
        "--choices", help="the choices to forbid, separated by commas (default: every choice "
        "the game declares; `rumsim rules GAME` lists them)")] = None,
    seat: Annotated[int | None, typer.Option(
        "--seat", help="restrict this seat only (a seat question: what the choice is worth to "
        "seat 0); default: every seat in turn")] = None,
    n: Annotated[str | None, typer.Option(
        "--games", "-n", help="deals, each played in every seating (default: planned from a "
        "pilot's spread, to the --width)")] = None,
    margin: Annotated[float | None, typer.Option(
        "--margin", help="the loss that counts as mattering: a win share (default 0.02), for a "
        "solo game points of score (default 5)")] = None,
    width: Annotated[float | None, typer.Option(
        "--width", help="the planned half-width of the widest loss interval (default 0.0075; "
        "solo: 2 points)")] = None,
    max_deals: Annotated[str, typer.Option(
        "--max-deals", help="the most deals a plan may ask for")] = "40_000",
    rules: RulesChoice,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    output: Output,
    playing: Playing,
) -> None:
    """Which choices matter: each choice forbidden to one seat among unrestricted seats (solo:
    to the player), on the same deals; its cost with an interval and a verdict.

    --more N: the pilot's deals, the deals the run store holds after them, and N more."""
    from analyses import restrict as R

    info = get_game(game)
    players = info.check_players(players)
    solo = players < 2
    if not info.choices:
        raise UserError(f"{info.name} declares no choices to restrict")
    names = _choices(info, choices)
    label = info.policy(policy or ("expert" if "expert" in info.policies
                                   else info.default_policy))
    if label.restriction:
        raise UserError(f"--policy {label.label()} is already restricted: name the policy "
                        "unrestricted; rumsim restricts one choice at a time")
    label = label.label()
    if seat is not None and not 0 <= seat < players:
        raise UserError(f"--seat {seat}: the game has seats 0..{players - 1}")
    if margin is None:
        margin = R.SOLO_MARGIN if solo else R.MARGIN
    if not 0 < margin < (math.inf if solo else 1):
        raise UserError(f"--margin must be above 0{'' if solo else ' and below 1 (a share)'}, "
                        f"not {margin}")
    if width is None:
        width = R.SOLO_WIDTH if solo else R.WIDTH
    if not width > 0:
        raise UserError(f"--width must be above 0, not {width}")
    cap = parse_count(max_deals)
    fixed = parse_count(n) if n is not None else None
    if fixed is not None and fixed < 2:
        raise UserError(f"--games {fixed:,}: the losses are compared over two or more deals")
    if cap < 2:
        raise UserError(f"--max-deals {cap:,}: the losses are compared over two or more deals")
    rules_obj = rules.build(info)
    more = playing.more_games()
    if more is not None and playing.run_store() is None:
        raise UserError("--more adds deals to an answer in the run store; with --no-store "
                        "(or RUMSIM_STORE=off) there is none")
    output.check_out()
    with playing.games(seed=seed, workers=workers) as run:
        # each block tallied where it is played, so the run store keeps it (the pilot's
        # deals first, then the rest: a planned answer and one of -n deals share blocks)
        done = R.play(run, info, label, names, players, seat, fixed, width, cap,
                      more=more, rules=rules_obj)
    if not done.played:
        raise Interrupted("stopped before any deal finished, so there is nothing to compare")
    partial = None
    if done.interrupted:
        partial = Partial.of(("every seating", done.played, done.planned), [], "seating",
                             ["all"])
    tally, planned = done.tally, done.planned
    helps = {c.name: c.help for c in info.choices}
    answer = tally.answer(margin, labels=helps)
    who = "" if seat is None else f", seat {seat} restricted"
    title = (f"Which choices matter in {info.title}, {players} player{'s' if players > 1 else ''}"
             f"{who}, under {label}, on the same {answer.deals:,} deals (seed {seed}; rules: "
             f"{rules_obj.describe()})")
    data = {"game": info.name, "seed": seed, "rules": rules_obj.to_dict(),
            "planned_deals": planned, **answer.to_json()}
    output.emit(answer.table().to_csv(index=False, float_format="%.6g"), data,
                lambda: render(title, answer), partial)


def _choices(info, text: str | None) -> tuple[str, ...]:
    """The choices to forbid, checked against the game's (a slip is one line)."""
    declared = info.choice_names
    if text is None:
        return declared
    parts = [p.strip() for p in text.split(",")]
    if any(not p for p in parts):
        raise UserError(f"--choices '{text}' names an empty choice")
    info.restriction(forbid=parts)   # one line naming the game's choices for an unknown one
    if len(set(parts)) != len(parts):
        raise UserError(f"--choices names a choice twice ({text})")
    return tuple(parts)


def render(title: str, answer) -> str:
    """The answer at the terminal: one row per choice, then the verdicts in words."""
    from analyses._text import text_table

    u = answer.unit
    rows = []
    for c in answer.choices:
        rows.append([c.name, f"{c.taken.estimate:.2f} [{c.taken.low:.2f}, {c.taken.high:.2f}]",
                     f"{answer.ci(c.loss)} {u}",
                     "-" if answer.solo else
                     f"{c.score_loss.estimate:+.1f} [{c.score_loss.low:+.1f}, "
                     f"{c.score_loss.high:+.1f}]",
                     f"{c.waived.estimate:.2f}", c.verdict])
    what = "score" if answer.solo else "win share"
    heads = ["choice", "taken a game", f"{what} lost when forbidden", "score lost",
             "taken anyway", "verdict"]
    base = answer.base
    fair = "" if answer.solo else f" (fair {100 / answer.players:.1f}%)"
    shown = (f"{base.estimate:.1f} [{base.low:.1f}, {base.high:.1f}]" if answer.solo else
             f"{100 * base.estimate:.1f}% [{100 * base.low:.1f}, {100 * base.high:.1f}]")
    # averaged over every seat the unrestricted share is 1/P by construction: said only for
    # one seat, or a solo game's score
    said = (f"Unrestricted, {answer.who()} {'scores' if answer.solo else 'wins'} {shown}{fair}."
            if answer.solo or answer.seat is not None else
            f"Each seat in turn restricted among {answer.players - 1} unrestricted seats.")
    lines = [title, "", said, "", text_table(heads, rows), "",
             answer.summary(), *answer.sentences(("dominant", "useless", "overused")),
             "", "Taken anyway: times a game the restricted seat took the choice because "
             "nothing else was legal.", "Method: " + answer.method()]
    undecided = [c for c in answer.choices if c.verdict == "undetermined"]
    if undecided:
        lines.insert(-2, "Undetermined: " + ", ".join(c.name for c in undecided)
                     + " (more deals with -n, or a wider --margin).")
    return "\n".join(lines)
