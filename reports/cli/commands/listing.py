"""``rumsim games``, ``rumsim rules GAME`` and ``rumsim play GAME``: what there is to play, and
one game told event by event."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from engines import GAMES, get_game
from reports.cli.answers import echo, finite
from reports.cli.options import (
    FormatOpt,
    GameArg,
    PlayersOpt,
    PolicyOpt,
    RulesChoice,
    SeedOpt,
    app,
    check_format,
)


@app.command()
def games(fmt: FormatOpt = "table") -> None:
    """List the games: players, policies and outcome columns."""
    check_format(fmt)
    rows = []
    for name in GAMES:
        info = get_game(name)
        players = (f"{info.min_players}" if info.min_players == info.max_players
                   else f"{info.min_players}-{info.max_players}")
        rows.append({
            "game": info.name, "title": info.title, "players": players,
            "policies": list(info.policies), "default_policy": info.default_policy,
            "columns": info.column_names(info.default_players), "summary": info.summary,
        })
    if fmt == "json":
        echo(json.dumps(finite(rows), indent=2, allow_nan=False))
        return
    if fmt == "csv":
        echo("game,title,players,policies,default_policy")
        for r in rows:
            echo(f"{r['game']},{r['title']},{r['players']},{' '.join(r['policies'])},"
                 f"{r['default_policy']}")
        return
    for r in rows:
        plural = "player" if r["players"] == "1" else "players"
        echo(f"{r['game']:<14} {r['title']} ({r['players']} {plural}): {r['summary']}")
        echo(f"{'':<14} policies: {', '.join(r['policies'])} (default {r['default_policy']}; "
             "`rumsim rules GAME` lists their parameters)")
        echo(f"{'':<14} columns: {', '.join(r['columns'])}")


@app.command()
def rules(game: GameArg, fmt: FormatOpt = "table") -> None:
    """Every rule option of GAME: default, allowed values, help; and the presets."""
    check_format(fmt)
    info = get_game(game)
    cls = info.rules_cls
    options = cls.options()
    if fmt == "json":
        echo(json.dumps({
            "game": info.name,
            "options": [{"key": o.key, "default": o.show(o.default), "allowed": o.allowed(),
                         "help": o.help} for o in options],
            "presets": {name: {"help": text, "overrides": over}
                        for name, (text, over) in cls.PRESETS.items()},
            "policies": [_policy_record(spec) for spec in info.policies.values()],
            "choices": [{"name": c.name, "help": c.help} for c in info.choices],
        }, indent=2, default=list))
        return
    if fmt == "csv":
        echo("key,default,allowed,help")
        for o in options:
            echo(",".join(_csv_cell(x) for x in (o.key, o.show(o.default), o.allowed(), o.help)))
        return
    width = max(len(o.key) for o in options)
    dwidth = max(len(_short(o.show(o.default))) for o in options)
    echo(f"{info.title} rule options (--rule key=value):")
    for o in options:
        echo(f"  {o.key:<{width}}  {_short(o.show(o.default)):<{dwidth}}  {o.allowed()}")
        echo(f"  {'':<{width}}  {'':<{dwidth}}  {o.help}")
    if any(_short(o.show(o.default)) != o.show(o.default) for o in options):
        echo("  (long lists are shortened here; `--format json` shows them whole)")
    echo("")
    echo("Presets (--preset NAME):")
    for name, (text, over) in cls.PRESETS.items():
        shown = ", ".join(f"{k}={cls.option(k).show(v)}" for k, v in over.items()) or "no changes"
        echo(f"  {name}: {text} [{shown}]")
    echo("")
    echo("Policies (--policy NAME, or NAME:key=value to change a parameter):")
    for spec in info.policies.values():
        kind = " (slow)" if spec.slow else ""
        echo(f"  {spec.name}{kind}: {spec.help}")
        if spec.params:
            echo("    " + ", ".join(_param_text(p) for p in spec.params))
        if spec.made:
            made = spec.made
            echo(f"    trained by: {made.get('command', '?')} (rumsim {made.get('rumsim', '?')}"
                 f", {made.get('games', 0):,} games)")
            for key, line in (made.get("check") or {}).items():
                echo(f"    check {key}: {line}")
    if info.choices:
        echo("")
        echo("Choices (a seat's restriction: --policy expert:forbid=NAME, or force=NAME, "
             "several as NAME+NAME; `rumsim restrict` forbids each in turn):")
        width = max(len(c.name) for c in info.choices)
        for c in info.choices:
            echo(f"  {c.name:<{width}}  {c.help}")


def _param_text(p) -> str:
    """'samples=16', or 'base=greedy (greedy|expert)' for a policy-valued parameter."""
    if p.policies is None:
        return f"{p.name}={_num(p.default)}"
    return f"{p.name}={p.shown(p.default)} ({'|'.join(p.policies)})"


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _policy_record(spec) -> dict:
    """A policy as `rules --format json` lists it."""
    return {"name": spec.name, "help": spec.help, "slow": spec.slow, "base": spec.base,
            "params": [{"name": p.name, "default": p.default, "low": p.low, "high": p.high,
                        "integer": p.integer, "help": p.help, "policies": p.policies,
                        "search": list(p.search) if p.search else None} for p in spec.params],
            "made": spec.made}


def _short(text: str, width: int = 24) -> str:
    """A long list value cut for the table, saying how many items it has."""
    if len(text) <= width:
        return text
    items = text.count(",") + 1
    return text[:width - 12].rsplit(",", 1)[0] + f",... ({items})"


def _csv_cell(x: str) -> str:
    return f'"{x}"' if ("," in x or '"' in x) else x


@app.command()
def play(
    game: GameArg,
    *,
    seed: SeedOpt = 0,
    index: Annotated[int, typer.Option("--game-index", help="which game of the seed",
                                       min=0, max=2**63 - 1)] = 0,
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    rules: RulesChoice,
    as_json: Annotated[bool, typer.Option("--json", help="print a machine record of the "
                                          "whole game instead of the narration")] = False,
) -> None:
    """Play one game with the reference path and tell it event by event."""
    info = get_game(game)
    players = info.check_players(players)
    rules_obj = rules.build(info)
    policies = info.seat_policies(policy, players)
    lines, record = info.narrate(rules_obj, policies, players, seed, index)
    if as_json:
        echo(json.dumps(finite(record), indent=2, default=list, allow_nan=False))
        return
    echo(f"{info.title}, seed {seed}, game {index}; policy {', '.join(p.label() for p in policies)}; "
         f"rules: {rules_obj.describe()}")
    for line in lines:
        echo(line)
