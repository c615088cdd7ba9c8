"""``rumsim store ls | show | verify | gc``: what the run store holds, one question whole,
a replayed sample of its blocks compared with what is stored, and dropping what is stale,
old or over a size (``simulate.store`` keeps the blocks and does the work; this module says
it)."""

from __future__ import annotations

import json
import math
import secrets
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from reports.cli.answers import echo, finite, plural
from reports.cli.options import CommandApp, app
from simulate.errors import UserError

store_app = CommandApp(
    name="store", no_args_is_help=True,
    help="The run store: what it holds (ls, show), whether its blocks replay to what is "
         "stored (verify), and dropping what is stale, old or over a size (gc).")
app.add_typer(store_app, name="store")

StorePathOpt = Annotated[Path | None, typer.Option(
    "--store", help="the run store folder (default: $RUMSIM_STORE, else ~/.cache/rumsim/store)",
    show_default=False)]
ShowOpt = Annotated[str, typer.Option("--format", help="output: table or json")]
KeyArg = Annotated[str, typer.Argument(help="a question's key, or enough of its start to name "
                                            "one (`rumsim store ls` lists them)",
                                       show_default=False)]

PROGRESS_EVERY = 10.0  # seconds between progress lines of a long verify


# ---------------------------------------------------------------- shared


def _format(fmt: str) -> str:
    if fmt not in ("table", "json"):
        raise UserError(f"--format must be table or json, not '{fmt}'")
    return fmt


def _open(path: Path | None):
    """The store ``--store`` / $RUMSIM_STORE / the default names (None when it is off)."""
    from simulate.store import from_environment

    store = from_environment(path)
    if store is not None and store.root.exists() and not store.root.is_dir():
        raise UserError(f"run store {store.root} is not a folder; give a store folder with "
                        "--store PATH")
    return store


def _need(path: Path | None):
    store = _open(path)
    if store is None:
        raise UserError("the run store is off (RUMSIM_STORE=off): name one with --store PATH")
    return store


def _tallies() -> None:
    """Register every storable tally class (each registers itself when its module is
    imported; a stored tally names its class, which the codec only looks up): the modules of
    ``analyses`` that declare one, ``simulate.bench``, ``simulate.summary`` and matchup's. A module that cannot be imported
    leaves its tallies unreadable, which is said where they are met."""
    import importlib

    import analyses

    # beyond analyses: the run summary, the bench's sums, matchup's parts (in its command)
    names = ["simulate.bench", "simulate.summary", "reports.cli.commands.matchup"]
    for folder in analyses.__path__:
        for path in sorted(Path(folder).glob("*.py")):
            try:
                if "@storable" in path.read_text(encoding="utf-8", errors="replace"):
                    names.append(f"analyses.{path.stem}")
            except OSError:
                pass
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a tally that cannot be read is said as such
            pass


def size_text(n: int | float) -> str:
    """Bytes as a user reads them (decimal units, as --max-size takes them)."""
    n = float(n)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(n) < 1000 or unit == "TB":
            return f"{int(n)} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"  # pragma: no cover


def _when(t: float | None) -> str:
    return "-" if t is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def _iso(t: float | None) -> str | None:
    return None if t is None else time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(t))


def _arms(question: dict) -> list[tuple[dict, list[dict]]]:
    rules, seatings = question.get("rules") or [], question.get("seatings") or []
    return list(zip(rules, seatings, strict=False))


def _policies(question: dict) -> str:
    """The seats' labels: one when every seat has the same, else one per seat; arms by |."""
    out = []
    for _, seating in _arms(question):
        labels = [str(s.get("label", s.get("policy", "?"))) for s in seating]
        out.append(labels[0] if len(set(labels)) == 1 else ",".join(labels))
    return " | ".join(out) or "?"


def _rules_changed(question: dict) -> str:
    """The rule options that differ from the game's defaults ('default' when none); arms
    by |."""
    from engines import get_game

    try:
        info = get_game(question["game"])
        said = [info.rules_cls.from_overrides(dict(r)).describe() for r, _ in _arms(question)]
    except Exception:  # noqa: BLE001 - a question this rumsim cannot read: shown as such
        return "?"
    return "default" if all(s == "default" for s in said) else " | ".join(said)


def _tally_kind(question: dict) -> str:
    return str(question.get("tally", "?")).split("(", 1)[0].rsplit(".", 1)[-1]


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def _range(first: int, games: int) -> str:
    return f"games {first:,}..{first + games - 1:,}"


# ---------------------------------------------------------------- ls


def _row(store, q: dict, engines: dict) -> dict:
    from simulate.store import staleness

    question = q["question"]
    why = staleness(store, q, engines=engines)
    return {"key": q["key"], "game": q["game"], "players": q["players"],
            "policies": _policies(question), "rules": _rules_changed(question),
            "seed": question.get("seed"), "tally": _tally_kind(question),
            "backend": question.get("backend"), "blocks": q["blocks"], "games": q["games"],
            "bytes": q["bytes"], "created": _iso(q["created"]), "used": _iso(q["used"]),
            "used_epoch": q["used"], "engine": "stale" if why else "current",
            "stale": why, "commands": q["commands"], "origins": q["origins"]}


@store_app.command("ls")
def store_ls(*, store: StorePathOpt = None, fmt: ShowOpt = "table") -> None:
    """One line per question the run store holds, and the store's size.

    Each line: its key, game, seats, rules, seed, tally, blocks, games, size, when it was last
    used, whether this rumsim still asks it (current) or not (stale: its engine's code, rumsim
    or a trained set changed), and the commands that made it."""
    from simulate.store import folder_bytes

    _format(fmt)
    st = _open(store)
    if st is None:
        if fmt == "json":
            echo(json.dumps({"store": None, "questions": []}, indent=2))
        else:
            echo("the run store is off (RUMSIM_STORE=off); name one with --store PATH")
        return
    questions = st.questions()
    if questions:
        _tallies()
    engines: dict = {}
    rows = [_row(st, q, engines) for q in questions]
    on_disk = folder_bytes(st.root) if st.root.is_dir() else 0
    st.close()
    if fmt == "json":
        echo(json.dumps(finite({"store": str(st.root), "bytes": on_disk,
                                "block_bytes": sum(r["bytes"] for r in rows),
                                "questions": rows}), indent=2, allow_nan=False))
        return
    if not rows:
        where = "has no folder yet" if not st.root.exists() else "holds no games"
        echo(f"the run store {st.root} {where}: a command that answers a question (rumsim "
             "seats, thresholds ...) fills it")
        return
    head = ("key", "game", "P", "policies", "rules", "seed", "tally", "blocks", "games", "size",
            "last used", "engine", "made by")
    table = [head]
    for r in rows:
        made = r["commands"][0] if r["commands"] else "-"
        if len(r["commands"]) > 1:
            made += f" (+{len(r['commands']) - 1} more)"
        table.append((r["key"][:12], r["game"], str(r["players"]), _cut(r["policies"], 40),
                      _cut(r["rules"], 40), str(r["seed"]), r["tally"], f"{r['blocks']:,}",
                      f"{r['games']:,}", size_text(r["bytes"]), _when(r["used_epoch"]),
                      r["engine"], made))
    widths = [max(len(line[i]) for line in table) for i in range(len(head) - 1)]
    right = {2, 5, 7, 8, 9}
    for line in table:
        cells = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(line, widths, strict=False))]
        echo("  ".join([*cells, line[-1]]).rstrip())
    blocks = sum(r["blocks"] for r in rows)
    echo()
    echo(f"{plural(len(rows), 'question')}, {plural(blocks, 'block')}, "
         f"{sum(r['games'] for r in rows):,} games, {size_text(sum(r['bytes'] for r in rows))} "
         f"of blocks; the store {st.root} takes {size_text(on_disk)}")
    stale = [r for r in rows if r["stale"]]
    if stale:
        echo(f"{len(stale)} stale (no run of this rumsim asks {'it' if len(stale) == 1 else 'them'}"
             f": `rumsim store show KEY` says why): `rumsim store gc --stale` drops "
             f"{'it' if len(stale) == 1 else 'them'}")


# ---------------------------------------------------------------- show


def _values(info, seat: dict) -> str:
    """A seat's parameter values, named when this rumsim knows its policy."""
    values = [str(v) for v in seat.get("values", [])]
    shown = []
    spec = info.policies.get(seat.get("policy")) if info is not None else None
    names = [p.name for p in spec.params] if spec is not None else []
    for i, v in enumerate(values):
        try:
            x = float(v)
            v = str(int(x)) if x.is_integer() else repr(x)
        except ValueError:
            pass
        shown.append(f"{names[i]}={v}" if len(names) == len(values) else v)
    return ", ".join(shown) or "no parameters"


def _rule_value(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, list):
        return "[" + ", ".join(_rule_value(x) for x in v) + "]"
    return str(v)


@store_app.command("show")
def store_show(key: KeyArg, *, store: StorePathOpt = None, fmt: ShowOpt = "table") -> None:
    """One question whole, and its blocks.

    Its game, players, rules, every seat's policy with its values, seed, backend, tally,
    engine and rumsim version; then its blocks with their size, date, command and origin."""
    from engines import get_game
    from simulate.store import blocks_of, staleness

    _format(fmt)
    st = _need(store)
    q = st.find(key.strip().lower())
    _tallies()
    why = staleness(st, q)
    blocks = blocks_of(st, q["key"])
    st.close()
    question = q["question"]
    if fmt == "json":
        echo(json.dumps(finite({
            "key": q["key"], "store": str(st.root), "engine": "stale" if why else "current",
            "stale": why, "created": _iso(q["created"]), "used": _iso(q["used"]),
            "games": q["games"], "bytes": q["bytes"], "question": question,
            "blocks": [{**b, "made": _iso(b["made"])} for b in blocks]}),
            indent=2, allow_nan=False))
        return
    try:
        info = get_game(q["game"])
    except Exception:  # noqa: BLE001 - a game this rumsim lacks: its values shown unnamed
        info = None
    try:
        defaults = info.rules_cls().to_dict() if info is not None else {}
    except Exception:  # noqa: BLE001
        defaults = {}
    lines = [f"question {q['key']} ({'stale: ' + why if why else 'current'})",
             f"  game        {q['game']}, {plural(int(q['players']), 'player')}",
             f"  seed        {question.get('seed')}",
             f"  backend     {question.get('backend')}",
             f"  tally       {question.get('tally')}, store version "
             f"{question.get('tally_version')}",
             f"  engine      {question.get('engine')}",
             f"  rumsim      {question.get('rumsim')}",
             f"  created     {_when(q['created'])}",
             f"  last used   {_when(q['used'])}"]
    arms = _arms(question)
    for i, (rules, seating) in enumerate(arms):
        if len(arms) > 1:
            lines.append(f"  arm {i + 1} of {len(arms)}")
        runs: list[list] = []  # consecutive seats of the same policy and values, said once
        for s, seat in enumerate(seating):
            if runs and runs[-1][2] == seat:
                runs[-1][1] = s
            else:
                runs.append([s, s, seat])
        for i, (low, high, seat) in enumerate(runs):
            which = f"seat {low}" if low == high else f"seats {low}-{high}"
            lines.append(f"  {'seats' if i == 0 else '':<11} {which}: {seat.get('label')} "
                         f"({seat.get('policy')}: {_values(info, seat)})")
            base = seat.get("base")
            while isinstance(base, dict):
                lines.append(f"  {'':<11}   playing out with {base.get('label')} "
                             f"({base.get('policy')}: {_values(info, base)})")
                base = base.get("base")
        changed = [k for k in rules if k in defaults
                   and _rule_value(rules[k]) != _rule_value(_plain(defaults[k]))]
        lines.append(f"  {'rules':<11} " + (", ".join(f"{k}={_rule_value(rules[k])}"
                                                      for k in changed) or "default")
                     + " (every option below; * differs from the default)")
        for k, v in rules.items():
            lines.append(f"  {'':<11} {'*' if k in changed else ' '} {k} = {_rule_value(v)}")
    lines.append("")
    lines.append(f"{plural(len(blocks), 'block')}, {q['games']:,} games, "
                 f"{size_text(q['bytes'])}:")
    for b in blocks:
        took = "" if b["seconds"] is None else f", {b['seconds']:.1f} s"
        lines.append(f"  {_range(b['first'], b['games'])} ({b['games']:,}), "
                     f"{size_text(b['bytes'])}, {_when(b['made'])}{took}, {b['origin']}: "
                     f"{b['command'] or '-'}")
    echo("\n".join(lines))


def _plain(v):
    return list(v) if isinstance(v, tuple) else v


# ---------------------------------------------------------------- verify


class _Progress:
    """A line on stderr every PROGRESS_EVERY seconds of a long verify."""

    def __init__(self, blocks: int, games: int):
        self.blocks, self.games = blocks, games
        self.done_blocks = self.done_games = 0
        self.start = self.last = time.perf_counter()

    def advance(self, games: int) -> None:
        self.done_blocks += 1
        self.done_games += games
        now = time.perf_counter()
        if now - self.last < PROGRESS_EVERY or self.done_blocks >= self.blocks:
            return
        self.last = now
        rate = self.done_games / max(now - self.start, 1e-9)
        left = (self.games - self.done_games) / max(rate, 1e-9)
        typer.echo(f"rumsim store verify: {self.done_blocks:,} of {self.blocks:,} blocks "
                   f"({self.done_games:,} of {self.games:,} games), about {left:,.0f} s left",
                   err=True)


def _sample(blocks: list[dict], fraction: float, rng) -> list[dict]:
    """A random share ``fraction`` of ``blocks`` (at least one), in game order."""
    if not blocks:
        return []
    count = min(len(blocks), max(1, math.ceil(fraction * len(blocks) - 1e-9)))
    chosen = sorted(rng.sample(range(len(blocks)), count))
    return [blocks[i] for i in chosen]


@store_app.command("verify")
def store_verify(
    key: Annotated[str | None, typer.Argument(
        help="only this question (its key, or enough of its start)", show_default=False)] = None,
    *,
    sample: Annotated[float, typer.Option(
        "--sample", help="the share of each question's blocks to replay (at least one "
                         "block each); 1 replays every block")] = 0.1,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="which blocks the sample takes (default: a fresh choice, said in the "
                       "output)", min=0, max=2**63 - 1, show_default=False)] = None,
    store: StorePathOpt = None,
    fmt: ShowOpt = "table",
) -> None:
    """Play a sample of the stored blocks again and compare each with what is stored.

    A block that differs is a fault (exit code 1); a stale question (this rumsim no longer asks
    it) is not compared; a damaged block is said (a run drops it and plays it again)."""
    import random

    from engines import get_game
    from simulate import warm
    from simulate.runner import StopFlag
    from simulate.store import blocks_of, job_of, read_block, replay_matches, staleness

    _format(fmt)
    if not (math.isfinite(sample) and 0 < sample <= 1):
        raise UserError(f"--sample must be a share of the blocks above 0 and at most 1, not "
                        f"{sample}")
    st = _need(store)
    questions = [st.find(key.strip().lower())] if key is not None else st.questions()
    seed = secrets.randbelow(2**31) if seed is None else seed
    rng = random.Random(seed)
    if questions:
        _tallies()
    plan = []
    for q in questions:
        blocks = blocks_of(st, q["key"])
        plan.append((q, blocks, _sample(blocks, sample, rng)))
    total_blocks = sum(len(chosen) for _, _, chosen in plan)
    progress = _Progress(total_blocks, sum(b["games"] for _, _, c in plan for b in c))
    stop = StopFlag.active
    reports, engines = [], {}
    cut = False
    for q, blocks, chosen in plan:
        report = {"key": q["key"], "game": q["game"], "players": q["players"],
                  "policies": _policies(q["question"]), "blocks": len(blocks),
                  "sampled": len(chosen),
                  "sampled_blocks": [[b["first"], b["games"]] for b in chosen], "checked": 0, "matched": 0, "mismatched": [],
                  "stale": 0, "stale_reason": None, "damaged": []}
        reports.append(report)
        if cut or (stop is not None and stop.requested):
            cut = True
            continue
        part = None
        try:
            part = st.part_of(q["key"])
        except Exception as exc:  # noqa: BLE001 - said as the reason it is not replayed
            why = f"its tally cannot be read ({' '.join(str(exc).split())[:200]})"
        else:
            why = ("its tally was not kept, so its blocks cannot be replayed" if part is None
                   else staleness(st, q, part, engines))
        if why is not None:
            report["stale"], report["stale_reason"] = len(chosen), why
            for b in chosen:
                progress.advance(b["games"])
            continue
        job = job_of(q["question"], part)
        if job.backend == "fast":
            warm.ready(get_game(job.game), say=fmt != "json" or sys.stderr.isatty())
        for b in chosen:
            if stop is not None and stop.requested:
                cut = True
                break
            try:
                stored = read_block(st, q["key"], b, part)
            except Exception as exc:  # noqa: BLE001 - a damaged block, in its own words
                report["damaged"].append({"first": b["first"], "games": b["games"],
                                          "why": " ".join(str(exc).split())[:200]})
                progress.advance(b["games"])
                continue
            same = replay_matches(job, q["key"], b, stored)
            report["checked"] += 1
            if same:
                report["matched"] += 1
            else:
                report["mismatched"].append({"first": b["first"], "games": b["games"]})
            progress.advance(b["games"])
    st.close()
    mismatched = sum(len(r["mismatched"]) for r in reports)
    checked = sum(r["checked"] for r in reports)
    if cut and stop is not None:
        stop.cut.append({"label": "rumsim store verify", "games": progress.done_games,
                         "requested": progress.games})
    if fmt == "json":
        echo(json.dumps(finite({
            "store": str(st.root), "sample": sample, "seed": seed, "interrupted": cut,
            "checked": checked, "matched": sum(r["matched"] for r in reports),
            "mismatched": mismatched, "stale": sum(r["stale"] for r in reports),
            "damaged": sum(len(r["damaged"]) for r in reports), "questions": reports}),
            indent=2, allow_nan=False))
    else:
        echo(_verify_text(st.root, reports, sample, seed, cut))
    if mismatched:
        raise typer.Exit(1)


def _verify_text(root, reports: list[dict], sample: float, seed: int, cut: bool) -> str:
    if not reports:
        return f"the run store {root} holds no games: nothing to verify"
    lines = [f"replaying {sample:.0%} of each question's blocks (at least one; --seed {seed} "
             f"picks the same ones again) from {root}"]
    if cut:
        lines.insert(0, "PARTIAL: interrupted; the blocks replayed before the stop are shown")
    width = max(len(r["game"]) for r in reports)
    for r in reports:
        parts = []
        if r["checked"]:
            parts.append(f"{r['matched']} matched")
        if r["mismatched"]:
            parts.append(f"{len(r['mismatched'])} DO NOT MATCH")
        if r["stale"]:
            parts.append(f"{r['stale']} stale, not compared ({r['stale_reason']})")
        if r["damaged"]:
            parts.append(f"{len(r['damaged'])} damaged")
        lines.append(f"{r['key'][:12]}  {r['game']:<{width}}  {r['players']}p  "
                     f"{_cut(r['policies'], 30)}: {r['sampled']} of "
                     f"{plural(r['blocks'], 'block')} sampled: "
                     f"{', '.join(parts) or 'none replayed'}")
        for m in r["mismatched"]:
            lines.append(f"    {_range(m['first'], m['games'])}: played again, they give "
                         "another tally than the one stored")
        for d in r["damaged"]:
            lines.append(f"    {_range(d['first'], d['games'])}: damaged ({d['why']}); a run "
                         "drops it and plays it again")
    checked = sum(r["checked"] for r in reports)
    bad = sum(len(r["mismatched"]) for r in reports)
    stale = sum(r["stale"] for r in reports)
    damaged = sum(len(r["damaged"]) for r in reports)
    lines.append("")
    if bad:
        lines.append(f"{bad} of {plural(checked, 'block')} replayed DO NOT MATCH what is "
                     "stored: the same games played again give another answer (the engine "
                     "is not deterministic, or the blocks were changed with their hashes); "
                     "`rumsim store gc` cannot tell which: drop the question and play it again")
    elif checked:
        lines.append(f"{plural(checked, 'block')} replayed: every one matches what is stored")
    else:
        lines.append("no block was replayed")
    notes = []
    if stale:
        notes.append(f"{stale} stale, not replayed (`rumsim store gc --stale` drops stale "
                     "questions)")
    if damaged:
        notes.append(f"{damaged} damaged")
    if notes:
        lines[-1] += "; " + ", ".join(notes)
    return "\n".join(lines)


# ---------------------------------------------------------------- gc


@store_app.command("gc")
def store_gc(
    *,
    stale: Annotated[bool, typer.Option(
        "--stale", help="drop the questions this rumsim no longer asks (its engine's code, "
                        "rumsim or a trained set changed: `rumsim store ls` says stale)")] = False,
    older_than: Annotated[float | None, typer.Option(
        "--older-than", metavar="DAYS", help="drop the questions not used for DAYS days",
        show_default=False)] = None,
    max_size: Annotated[str | None, typer.Option(
        "--max-size", metavar="SIZE", help="then drop the least recently used questions "
                                           "until the blocks take at most SIZE (500M, 2G, 1e9 "
                                           "bytes)", show_default=False)] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="say what would be dropped; drop nothing")] = False,
    store: StorePathOpt = None,
    fmt: ShowOpt = "table",
) -> None:
    """Drop stale, unused or least recently used questions, with all their blocks.

    Stale ones (--stale), ones not used for a while (--older-than), then the least recently
    used beyond a size (--max-size). Says what went and the bytes freed."""
    import os

    from simulate.store import REGISTRY, drop_questions, gc_plan, parse_size, staleness

    _format(fmt)
    if not stale and older_than is None and max_size is None:
        raise UserError("rumsim store gc: say what to drop: --stale, --older-than DAYS or "
                        "--max-size SIZE (with --dry-run to see it first)")
    if older_than is not None and not (math.isfinite(older_than) and older_than >= 0):
        raise UserError(f"--older-than must be a number of days from 0, not {older_than}")
    limit = parse_size(max_size) if max_size is not None else None
    st = _need(store)
    questions = st.questions()
    reasons: dict[str, str] = {}
    if stale and questions:
        _tallies()
        engines: dict = {}
        for q in questions:
            why = staleness(st, q, engines=engines)
            if why is not None:
                reasons[q["key"]] = why
    drops = gc_plan(questions, reasons, None if older_than is None else older_than * 86400,
                    limit)
    if drops and not dry_run:
        registry = st.root / REGISTRY
        if st.readonly or not (os.access(registry, os.W_OK) and os.access(st.root, os.W_OK)):
            raise UserError(f"run store {st.root} cannot be changed (read-only)")
        freed = drop_questions(st, [q["key"] for q, _ in drops])
    else:
        freed = sum(q["bytes"] for q, _ in drops)
    kept = [q for q in questions if q["key"] not in {d["key"] for d, _ in drops}]
    st.close()
    if fmt == "json":
        echo(json.dumps(finite({
            "store": str(st.root), "dry_run": dry_run, "freed": freed,
            "dropped": [{"key": q["key"], "game": q["game"], "blocks": q["blocks"],
                         "games": q["games"], "bytes": q["bytes"], "why": why}
                        for q, why in drops],
            "kept": len(kept), "kept_bytes": sum(q["bytes"] for q in kept)}),
            indent=2, allow_nan=False))
        return
    verb = "would drop" if dry_run else "dropped"
    lines = [f"{verb} {q['key'][:12]}  {q['game']} {q['players']}p "
             f"{_cut(_policies(q['question']), 30)}: {plural(q['blocks'], 'block')}, "
             f"{q['games']:,} games, {size_text(q['bytes'])} ({why})" for q, why in drops]
    if not drops:
        lines.append(f"nothing to drop from {st.root} "
                     f"({plural(len(questions), 'question')}, "
                     f"{size_text(sum(q['bytes'] for q in questions))})")
    else:
        lines.append(f"{verb} {plural(len(drops), 'question')}: {size_text(freed)} "
                     f"{'would be ' if dry_run else ''}freed; "
                     f"{plural(len(kept), 'question')} ({size_text(sum(q['bytes'] for q in kept))}"
                     f") kept in {st.root}")
    echo("\n".join(lines))
