"""``rumsim variants GAME``: rule variants against the base rules on the same games (common
random numbers), played in lockstep and tallied as they finish."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from engines import get_game
from engines._rules import read_toml
from reports.cli.answers import Partial
from reports.cli.options import (
    GameArg,
    GamesOpt,
    Output,
    PlayersOpt,
    Playing,
    PolicyOpt,
    SeedOpt,
    WorkersOpt,
    app,
)
from simulate.counts import parse_count
from simulate.errors import Interrupted, UserError


@app.command()
def variants(
    game: GameArg,
    *,
    preset_: Annotated[list[str] | None, typer.Option(
        "--preset", help="a preset to compare with the base rules (repeatable)")] = None,
    rule: Annotated[list[str] | None, typer.Option(
        "--rule", help="a single rule change key=value to compare (repeatable; each is its "
                       "own variant)")] = None,
    variants_file: Annotated[Path | None, typer.Option(
        "--variants-file", help="TOML file of named variants: [name] then key = value lines "
                                "(optionally preset = 'NAME')")] = None,
    base_preset: Annotated[str | None, typer.Option(
        "--base-preset", help="preset of the base rules (default: the defaults)")] = None,
    n: GamesOpt = "100_000",
    players: PlayersOpt = None,
    policy: PolicyOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    details: Annotated[bool, typer.Option("--details", help="every metric of every variant, "
                                          "with Holm p-values and pairing gains")] = False,
    output: Output,
    playing: Playing,
) -> None:
    """Compare rule variants with the base rules on the same games (common random numbers)."""
    from analyses.variants import VariantsParts, VariantsTally

    n_games = parse_count(n)
    info = get_game(game)
    players = info.check_players(players)
    policies = info.seat_policies(policy, players)
    cls = info.rules_cls
    base_overrides = cls.preset(base_preset) if base_preset is not None else {}
    base_rules = cls.from_overrides(base_overrides)
    chosen: dict[str, object] = {}
    for name in preset_ or []:
        chosen[name] = cls.from_overrides({**base_overrides, **cls.preset(name)})
    for pair in rule or []:
        chosen[pair] = cls.from_overrides({**base_overrides, **cls.from_strings([pair])})
    if variants_file is not None:
        for name, overrides in read_variants_file(cls, variants_file).items():
            if name in chosen:   # a table must not silently replace a variant of this line
                raise UserError(f"variants file '{variants_file}': [{name}] has the name of a "
                                "variant already given on the command line; rename the table")
            chosen[name] = cls.from_overrides({**base_overrides, **overrides})
    if not chosen:
        raise UserError("name at least one variant: --preset NAME, --rule key=value or "
                        "--variants-file FILE.toml")
    for name, rules_obj in chosen.items():  # a variant that changes nothing compares nothing
        if rules_obj == base_rules:
            raise UserError(f"variant '{name}' has the same rules as the base "
                            f"({base_rules.describe()}); nothing would be compared")
    output.check_out()
    label = f"preset {base_preset}" if base_preset is not None else "the defaults"
    runs = {"base": (base_rules, label)}
    runs.update({name: (r, r.describe()) for name, r in chosen.items()})
    # Lockstep: each block of games is played under the base rules and every variant, on
    # the same game indices, and tallied where it is played (VariantsParts: so the run store
    # keeps it); the blocks' tallies are merged in game order and no rows are kept. A stop
    # keeps the blocks that finished, every variant on the same games.
    names = [name for name in runs if name != "base"]
    tally = VariantsTally(players, names)
    with playing.games(seed=seed, workers=workers) as play:
        res = play(info, n_games, rules=tuple(r for r, _ in runs.values()), policies=policies,
                   players=players, label="base and variants",
                   part=VariantsParts(players, tuple(names)), on_part=tally.merge)
    if not res.meta["games"]:
        raise Interrupted("stopped before any game finished, so there is nothing to compare")
    partial = None
    if res.meta["interrupted"]:
        partial = Partial.of(("the base and every variant", res.meta["games"],
                              res.meta["requested"]), [], "variant", ["all"])
    answer = tally.answer({k: runs[k][1] for k in names},
                          label if base_rules.describe() == "default"
                          else f"{label} ({base_rules.describe()})", seed=seed, meta=res.meta)
    output.emit(answer.to_csv(), answer.to_json(), lambda: answer.render_text(details=details),
                partial)


MAX_VARIANTS = 64  # a variant plays every game: more than this is no one's comparison


def read_variants_file(cls, path: Path) -> dict[str, dict]:
    """Named override sets from TOML: a table per variant; 'preset' names a preset to start from."""
    data = read_toml(path, "variants file")
    if len(data) > MAX_VARIANTS:
        raise UserError(f"variants file '{path}' names {len(data):,} variants; at most "
                        f"{MAX_VARIANTS} are compared in one run (each plays every game)")
    if "base" in data:
        raise UserError(f"variants file '{path}': [base] is the name of the rules every variant "
                        "is compared with (--base-preset); give the table another name")
    out = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise UserError(f"variants file '{path}': '{name}' must be a table ([{name}])")
        table = dict(table)
        base = table.pop("preset", None)
        if base is not None and not isinstance(base, str):
            raise UserError(f"variants file '{path}': [{name}] preset must be a preset's name "
                            f"in quotes, not {base!r}")
        overrides = cls.preset(base) if base is not None else {}
        for key in table:
            cls.option(key)
        overrides.update(table)
        out[name] = overrides
    if not out:
        raise UserError(f"variants file '{path}' names no variants")
    return out
