"""The runs behind a report page: what each page plans, plays and lists, shared by every page.

A page plans :class:`RunSpec` s (preset, policy, players, games, seed),
plays them with :func:`play` and shows them with :func:`runs_frame`, so each
page states the rules, policies, seeds and game counts it used.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pandas as pd

import simulate
from analyses.stats import CONFIDENCE
from simulate.errors import UserError
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
    if not scale > 0:
        raise UserError(f"report scale must be positive, not {scale}")
    return max(least, round(games * scale))


def play(info, specs: Iterable[RunSpec], keep: Callable[[str], bool], backend: str = "fast",
         progress: bool | None = None, workers: int | None = None,
         complete: bool = False) -> dict[str, Results]:
    """Play every planned run; label -> Results cut to the columns ``keep`` accepts.

    ``complete=True`` refuses a run stopped by Ctrl-C (a paired comparison
    needs every run on the same games).
    """
    engine = info.rules_cls.__module__.rsplit(".", 1)[0] + ".engine"
    if backend == "fast" and importlib.util.find_spec(engine) is None:
        raise UserError(f"the {info.title} fast engine ({engine}) is not available; build the "
                        "report with backend='reference' and a small scale")
    out = {}
    for spec in specs:
        rules = info.rules_cls.from_overrides({}, preset=spec.preset)
        res = simulate.run(info, spec.games, rules=rules, policies=spec.policy,
                           players=spec.players, seed=spec.seed, backend=backend,
                           progress=progress, workers=workers, label=spec.label)
        if complete and res.meta["interrupted"]:
            raise UserError("interrupted: the comparison needs every run complete")
        frame = res.frame[[c for c in res.frame if keep(c)]]
        out[spec.label] = Results(frame, {**res.meta, "preset": spec.preset})
    return out


def runs_frame(results: dict[str, Results],
               extra: Callable[[dict], dict] | None = None) -> pd.DataFrame:
    """One row per run: label, preset, players, policy, rules changed, seed, games, seconds."""
    rows = []
    for label, res in results.items():
        m = res.meta
        rows.append({"label": label, "preset": m["preset"], "players": m["players"],
                     "policy": ", ".join(dict.fromkeys(m.get("policies", []))),
                     "rules changed": m.get("rules_changed", "default"), "seed": m.get("seed"),
                     "games": int(m.get("games", len(res.frame))),
                     "backend": m.get("backend"), "elapsed_s": float(m.get("elapsed_s", 0.0)),
                     **(extra(m) if extra else {})})
    return pd.DataFrame(rows)


def join_words(items: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def seats_method(players: Iterable[int], units: str, chi_square: str, holm_over: str) -> str:
    """How a page's seat figures were computed, for every player count at once.

    ``units`` names what the verdict's intervals range over ("seats"),
    ``chi_square`` says what the test compares, ``holm_over`` what its
    p-values are adjusted across.
    """
    levels = ", ".join(f"{1 - (1 - CONFIDENCE) / p:.2%} at {p}" for p in players)
    return (f"Intervals: Wilson score intervals (tied wins count 1/k). Verdicts use "
            f"simultaneous intervals over the P {units} (Bonferroni, each at 1 - 0.05/P: "
            f"{levels} players). Chi-square: goodness of fit of {chi_square} to equal shares; "
            f"in the answer the seat test's p-values are Holm-adjusted across {holm_over}.")
