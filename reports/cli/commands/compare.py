"""``rumsim compare GAME``: shorter-game variations against the base rules among skilled
players, on the same games (common random numbers), with a search player's check of the first
player's edge; text, ``--json``, and ``--out DIR`` (a one-page HTML diff, JSON and CSV)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from engines import get_game
from reports.cli.answers import echo
from reports.cli.options import GameArg, PlayersOpt, Playing, SeedOpt, WorkersOpt, app
from simulate.counts import parse_count
from simulate.errors import Interrupted, UserError


@app.command()
def compare(
    game: GameArg,
    *,
    preset_: Annotated[list[str] | None, typer.Option(
        "--preset", help="a variation (preset) to compare with the base rules (repeatable; "
                         "default: the game's shorter-game presets)")] = None,
    base_preset: Annotated[str | None, typer.Option(
        "--base-preset", help="preset of the base rules (default: the standard rules)")] = None,
    players: PlayersOpt = None,
    policy: Annotated[str, typer.Option(
        "--policy", help="the skilled player, in every seat")] = "expert",
    check: Annotated[str | None, typer.Option(
        "--check", help="the search player that checks the first player's edge (default: the "
                        "top rung of the game's skill ladder)", show_default=False)] = None,
    n: Annotated[str, typer.Option("--games", "-n", help="games per variation (1e6, "
                                   "250_000 ...)")] = "20_000",
    check_n: Annotated[str, typer.Option(
        "--check-n", help="deals the search player plays under each rule set (a slow policy; "
                          "0: no check)")] = "2_000",
    seed: SeedOpt = 0,
    margin: Annotated[float, typer.Option(
        "--margin", help="'unchanged' and 'agrees' mean within ± this share (0.02 = 2 "
                         "percentage points)", min=0.001, max=0.5)] = 0.02,
    pace: Annotated[float | None, typer.Option(
        "--pace", help="minutes a round at your table (the rules give none), for minutes "
                       "saved", min=0.01, max=600, show_default=False)] = None,
    workers: WorkersOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="the answer as JSON")] = False,
    out: Annotated[Path | None, typer.Option(
        "--out", help="folder to write compare.html, compare.json and compare.csv into",
        show_default=False)] = None,
    playing: Playing,
) -> None:
    """Do shorter-game variations shorten the game among skilled players, and what do they
    break? Length, the first player's edge, game feel, and a search player's check."""
    import functools

    from analyses import compare as C
    from reports.words import player_label

    info = get_game(game)
    if game not in C.GAMES:
        raise UserError(f"compare needs a game of two or more players with a first player; "
                        f"{info.name} has none to compare (games: {', '.join(C.GAMES)})")
    n_games = parse_count(n)
    n_check = _check_count(check_n)
    cls = info.rules_cls
    presets = list(dict.fromkeys(preset_ or C.GAMES[game].shorter))
    for name in [*presets, *([base_preset] if base_preset is not None else [])]:
        cls.preset(name)   # an unknown preset: one line, before anything is played
    players = info.check_players(C.GAMES[game].players if players is None else players)
    info.seat_policies(policy, players)
    search = check if check is not None else C.default_rungs(info)
    if search is not None:
        info.seat_policies(search, players)
    folder = _check_out(out)
    labels = {policy: player_label(info.policy(policy))}
    if search is not None:
        labels[search] = player_label(info.policy(search))
    command = _command(game, presets, base_preset, players, policy, search, n_games, n_check,
                       seed, margin, pace, out)
    with playing.games(seed=seed, workers=workers) as play:
        answer = C.compare(info, presets, players, policy, n_games, seed,
                           check=search if n_check else None, check_n=n_check,
                           base_preset=base_preset, margin=margin, pace=pace,
                           play=functools.partial(_play, play), labels=labels.get,
                           meta={"command": command})
    if not answer.meta["games"]:
        raise Interrupted("stopped before any game finished, so there is nothing to compare")
    if folder is not None:
        from reports.compare_page import files
        from simulate.results import atomic_write_files

        written = {folder / k: v for k, v in files(answer, command).items()}
        atomic_write_files(written)
        typer.echo(f"wrote {', '.join(p.name for p in written)} to {folder}", err=True)
    if as_json:
        import json

        echo(json.dumps(C.finite({**answer.to_json(), "command": command}), indent=2,
                        allow_nan=False, ensure_ascii=False))
    else:
        echo(answer.render_text())
    if answer.partial():
        typer.echo(f"partial: {answer.partial()}", err=True)


def _check_count(text: str) -> int:
    """--check-n: a game count, or 0 for no check."""
    try:
        if float(text.strip().replace("_", "")) == 0:
            return 0
    except ValueError:
        pass
    return parse_count(text, "--check-n")


def _play(play, info, n, **kwargs):
    """``play`` (simulate.run with the command's options) with the seed given by the command;
    --more is the comparison's, not the search check's (which plays --check-n deals)."""
    kwargs.pop("seed", None)
    if kwargs.get("label") == "search check":
        kwargs["more"] = None
    return play(info, n, **kwargs)


def _check_out(out: Path | None) -> Path | None:
    """The --out folder, made if missing, or one line when it cannot be (before any game)."""
    if out is None:
        return None
    from simulate.results import probe_writable, shown

    if out.exists() and not out.is_dir():
        raise UserError(f"--out '{shown(out)}' exists and is not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--out '{shown(out)}': cannot make the folder "
                        f"({exc.strerror or exc})") from None
    probe_writable(out, "compare.html", f"--out '{shown(out)}'")
    return out


def _command(game, presets, base_preset, players, policy, search, n, check_n, seed, margin,
             pace, out) -> str:
    """The command that plays the same games and writes the same answer (every default
    spelled out, so a later change of a default does not change what it makes)."""
    parts = ["rumsim", "compare", game]
    for p in presets:
        parts += ["--preset", p]
    if base_preset is not None:
        parts += ["--base-preset", base_preset]
    parts += ["--players", str(players), "--policy", policy]
    if search is not None and check_n:
        parts += ["--check", search]
    parts += ["-n", str(n), "--check-n", str(check_n), "--seed", str(seed)]
    if margin != 0.02:
        parts += ["--margin", f"{margin:g}"]
    if pace is not None:
        parts += ["--pace", f"{pace:g}"]
    if out is not None:
        parts += ["--out", str(out)]
    return shlex.join(parts)
