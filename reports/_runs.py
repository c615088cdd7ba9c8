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

import pandas as pd

import simulate
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


def scaled(games: int, scale: float, least: int = 1) -> int:
    """A page's game count times the report scale (never below ``least``)."""
    if not (scale > 0 and math.isfinite(scale)):
        raise UserError(f"report scale must be a positive finite number, not {scale}")
    return max(least, round(games * scale))


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


def play(info, specs: Iterable[RunSpec], keep: Callable[[str], bool], backend: str = "fast",
         progress: bool | None = None, workers: int | None = None,
         complete: bool = False) -> dict[str, Results]:
    """Play every planned run; label -> Results cut to the columns ``keep`` accepts.

    A run stopped by a signal (Ctrl-C, SIGTERM, SIGHUP) ends the page with ``Interrupted``,
    whichever run it is, the last included: a page's figures and verdicts rest on every run
    at its planned count, so a page is never written from a run cut short. (``complete`` is
    kept for the pages that say they compare runs on the same games; every page is held to
    it now.)
    """
    engine = info.package + ".engine"
    if backend == "fast" and importlib.util.find_spec(engine) is None:
        raise UserError(f"the {info.title} fast engine ({engine}) is not available; build the "
                        "report with backend='reference' and a small scale")
    out = {}
    specs = list(specs)
    for i, spec in enumerate(specs):
        rules = info.rules_cls.from_overrides({}, preset=spec.preset)
        try:
            res = simulate.run(info, spec.games, rules=rules, policies=spec.policy,
                               players=spec.players, seed=spec.seed, backend=backend,
                               progress=progress, workers=workers, label=spec.label)
        except Interrupted:
            raise Interrupted(f"stopped before run {i + 1} of {len(specs)} ({spec.label}) of "
                              f"the {info.title} page") from None
        if res.meta["interrupted"]:
            raise Interrupted(f"run {i + 1} of {len(specs)} ({spec.label}) of the {info.title} "
                              f"page stopped after {res.meta['games']:,} of {spec.games:,} "
                              "games")
        frame = res.frame[[c for c in res.frame if keep(c)]]
        out[spec.label] = Results(frame, {**res.meta, "preset": spec.preset})
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
                     "games": int(m.get("games", len(res.frame))),
                     "backend": m.get("backend"), "elapsed_s": float(m.get("elapsed_s", 0.0)),
                     **({"used for": used_for[label]} if used_for else {})})
    return pd.DataFrame(rows)
