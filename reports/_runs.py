"""The runs behind a report page: what each page plans, plays and lists, shared by every page.

A page plans :class:`RunSpec` s with :func:`grid` (presets x policies x
player counts, a game count and a seed), plays them with :func:`play` and
lists them with :func:`runs_frame`, so each page states the rules, policies,
seeds and game counts it used.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

import pandas as pd

import simulate
from simulate.counts import MAX_GAMES
from simulate.errors import Interrupted, UserError
from simulate.results import Results


@dataclass(frozen=True)
class RunSpec:
    """One planned run: a rules preset, a policy, a player count, a game count and a seed."""

    preset: str
    policy: str
    players: int
    games: int
    seed: int
    label: str
    # Runs with the same non-empty tag (and players, games, seed) play in lockstep even when
    # only some seat a slow policy: a section pairs them game for game (a solo ladder).
    together: str = ""


def scaled(games: int, scale: float, least: int = 1) -> int:
    """A page's game count times the report scale (never below ``least``)."""
    if not (scale > 0 and math.isfinite(scale)):
        raise UserError(f"report scale must be a positive finite number, not {scale}")
    n = max(least, round(games * scale))
    if n > MAX_GAMES:
        raise UserError(f"report scale {scale:g} makes a run of {n:,} games, more than "
                        f"{MAX_GAMES:.0e}")
    return n


def grid(info, presets: Iterable[str], policies: Iterable[str], players: Iterable[int],
         games: int, seed: int, scale: float = 1.0, least: int = 1,
         slow_games: int | None = None,
         label: str = "{preset}, {players} players") -> list[RunSpec]:
    """Every preset x policy x player count (in that nesting), one seed, counts scaled.

    A policy the game declares slow plays ``slow_games`` instead of ``games``
    (both scaled, at least ``least``). Policies are named as the game labels
    them ('rollout', not 'rollout:samples=16'); ``label`` is formatted with
    ``preset``, ``policy`` and ``players``.
    """
    counts = {False: scaled(games, scale, least),
              True: scaled(games if slow_games is None else slow_games, scale, least)}
    out = []
    for preset, text, p in product(presets, policies, players):
        policy = info.policy(text)
        name = policy.label()
        out.append(RunSpec(preset, name, p, counts[policy.spec.slow], seed,
                           label.format(preset=preset, policy=name, players=p)))
    return out


@dataclass
class Tallied:
    """One run as the sections see it: its metadata and each section's tally of its games
    (a paired section's tally, e.g. variants, is shared by the runs it pairs)."""

    meta: dict
    tallies: dict[str, Any]


class Feed:
    """The sections' tallies of runs played on the same games, fed one frame per run at a
    time (only the columns the page keeps)."""

    def __init__(self, info, sections, metas: list[dict], keep: Callable[[str], bool]):
        self.keep = keep
        self.per_run = [{s.key: t for s in sections if (t := s.tally(info, m)) is not None}
                        for m in metas]
        self.pairs = [(s.key, members, t) for s in sections
                      for members, t in s.pairs(info, metas)]

    def add(self, frames) -> None:
        frames = [f[[c for c in f if self.keep(c)]] for f in frames]
        for tallies, frame in zip(self.per_run, frames, strict=True):
            for t in tallies.values():
                t.add(frame)
        for _, members, t in self.pairs:
            t.add([frames[i] for i in members])

    def runs(self, metas: list[dict]) -> list[Tallied]:
        out = [Tallied(m, dict(t)) for m, t in zip(metas, self.per_run, strict=True)]
        for key, members, t in self.pairs:
            for i in members:
                out[i].tallies[key] = t
        return out


def tallied(info, sections, results: Mapping[str, Results | Tallied],
            keep: Callable[[str], bool] = lambda c: True) -> dict[str, Tallied]:
    """Runs as the sections read them: a Results' whole frame is its tallies fed once."""
    if all(isinstance(r, Tallied) for r in results.values()):
        return dict(results)
    labels = list(results)
    metas = [{**results[k].meta, "games": results[k].meta.get("games", len(results[k].frame))}
             for k in labels]
    feed = Feed(info, sections, metas, keep)
    feed.add([results[k].frame for k in labels])
    return dict(zip(labels, feed.runs(metas), strict=True))


def lockstep_groups(info, specs: list[RunSpec]) -> list[list[int]]:
    """The planned runs that play the same games (players, game count, seed, and slow or
    fast policy alike), each group in plan order: a group is played in lockstep, block by
    block, so the runs a section pairs are tallied side by side."""
    groups: dict[tuple, list[int]] = {}
    for i, spec in enumerate(specs):
        slow = any(p.spec.slow for p in info.seat_policies(spec.policy, spec.players))
        groups.setdefault((spec.players, spec.games, spec.seed, spec.together or slow),
                          []).append(i)
    return list(groups.values())


def play(info, specs: Iterable[RunSpec], sections, keep: Callable[[str], bool],
         backend: str = "fast", progress: bool | None = None,
         workers: int | None = None, cluster=None) -> dict[str, Tallied]:
    """Play every planned run; label -> its metadata and the sections' tallies. No row is
    kept: the runs that play the same games are played in lockstep, and every block's
    frames go into the tallies and are dropped, so memory does not grow with the games.

    A run stopped by a signal (Ctrl-C, SIGTERM, SIGHUP) ends the page with ``Interrupted``,
    whichever run it is, the last included: a page's figures and verdicts rest on every run
    at its planned count, so a page is never written from a run cut short.
    """
    engine = info.package + ".engine"
    if backend == "fast" and importlib.util.find_spec(engine) is None:
        raise UserError(f"the {info.title} fast engine ({engine}) is not available; build the "
                        "report with backend='reference' and a small scale")
    specs = list(specs)
    played: dict[int, Tallied] = {}
    for group in lockstep_groups(info, specs):
        arms = [specs[i] for i in group]
        which = (f"run {group[0] + 1} of {len(specs)} ({arms[0].label})" if len(arms) == 1
                 else f"runs {', '.join(str(i + 1) for i in group)} of {len(specs)} "
                      f"({', '.join(a.label for a in arms)})")
        rules = tuple(info.rules_cls.from_overrides({}, preset=a.preset) for a in arms)
        planned = [{"game": info.name, "preset": a.preset, "players": a.players,
                    "seed": a.seed, "policies": [p.label() for p in
                                                 info.seat_policies(a.policy, a.players)],
                    **({"together": a.together} if a.together else {})}
                   for a in arms]
        feed = Feed(info, sections, planned, keep)
        try:
            res = simulate.run(info, arms[0].games, rules=rules,
                               seatings=[a.policy for a in arms], players=arms[0].players,
                               seed=arms[0].seed, backend=backend, progress=progress,
                               workers=workers, label=" + ".join(a.label for a in arms),
                               on_chunk=feed.add, keep=False, cluster=cluster)
        except Interrupted:
            raise Interrupted(f"stopped before {which} of the {info.title} page") from None
        if res.meta["interrupted"]:
            raise Interrupted(f"{which} of the {info.title} page stopped after "
                              f"{res.meta['games']:,} of {arms[0].games:,} games")
        metas = [arm_meta(res.meta, r, m, len(arms)) for r, m in zip(rules, planned, strict=True)]
        played.update(zip(group, feed.runs(metas), strict=True))
    return {specs[i].label: played[i] for i in range(len(specs))}  # in plan order


def arm_meta(meta: dict, rules, planned: dict, arms: int) -> dict:
    """One arm's metadata from its lockstep run's: its own rules, policies and preset; the
    run's time shared out equally (every arm plays the same games)."""
    out = {k: v for k, v in meta.items() if not k.startswith("lockstep_")}
    out.update(rules={k: (list(v) if isinstance(v, tuple) else v)
                      for k, v in rules.to_dict().items()},
               rules_changed=rules.describe(), preset=planned["preset"],
               policies=planned["policies"], elapsed_s=round(meta["elapsed_s"] / arms, 4),
               **({"together": planned["together"]} if "together" in planned else {}))
    return out


def runs_frame(results: Mapping[str, Results],
               used_for: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per run: label, preset, players, policy, rules changed, seed, games, seconds.

    ``used_for`` (label -> words) adds a column saying what each run served.
    """
    rows = []
    for label, res in results.items():
        m = res.meta
        rows.append({"label": label, "preset": m["preset"], "players": m["players"],
                     "policy": ", ".join(dict.fromkeys(m.get("policies", []))),
                     "rules changed": m.get("rules_changed", "default"), "seed": m.get("seed"),
                     "games": int(m["games"]),
                     "backend": m.get("backend"), "elapsed_s": float(m.get("elapsed_s", 0.0)),
                     "hash": m.get("hash", ""),
                     **({"used for": used_for[label]} if used_for else {})})
    return pd.DataFrame(rows)
