"""Rule tuning: which setting of the knobs best meets the goals, with intervals.

``tune`` turns goals (``analyses.goals``) and knobs (``analyses.knobs``) into
candidate rule sets, races them on common random numbers
(``analyses.racing``; a space too large to race whole is first screened by
Optuna, ``analyses.screening``), and answers with a ``TuneAnswer``: the best
setting with each goal metric's interval, every setting the race could not
tell apart from it, and what the best setting moves against the current
rules (length, each place's or seat's share, ties, score range), each as a
paired difference on the same games with its interval.

Everything is a function of the arguments: the games are fixed by the seed
and their indices, the sums are exact integers, and Optuna is seeded, so the
answer is the same whatever the workers, chunks or backend.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as st

from analyses.goals import Goal, Layout, Metric, check_goals, parse_goal, side_metrics
from analyses.knobs import (
    Knob,
    base_values,
    check_knobs,
    grid,
    grid_size,
    label,
    parse_knob,
    rules_for,
)
from analyses.racing import ALPHA, LEAST_LOOK, Arena, Objective, Race, first_look, race
from analyses.screening import screen
from analyses.stats import holm
from engines._rules import RulesError
from simulate.errors import Interrupted, UserError

MAX_GRID = 64      # settings raced whole; more (or a float knob) are screened first
FINALISTS = 8      # settings the screening sends on to the race (the current rules join)
TRIALS = 96        # settings the screening proposes (default)
CONFIDENCE = 0.95  # the changes against the current rules (per comparison, Holm)
# the least --error-rate: split over looks and statements, a smaller one leaves a per-interval
# miss that rounds 1 - miss to 1.0 (no finite interval), and no budget could drop anything
MIN_ERROR_RATE = 1e-6


def policies_text(policies) -> str:
    """How an answer names its seats' policies: each distinct label once ('greedy')."""
    return ",".join(dict.fromkeys(p.label() for p in policies))


def simulate_arena(info, players: int, policies, seed: int, workers: int | None = None,
                   backend: str = "fast", cluster=None, progress: bool | None = None) -> Arena:
    """An arena that plays rule sets in lockstep with ``simulate.run`` (no rows kept)."""
    import simulate

    def arena(rules, first_game, games, take, label):
        one = len(rules) == 1
        res = simulate.run(info, games, rules=rules[0] if one else tuple(rules),
                           policies=policies, players=players, seed=seed, workers=workers,
                           backend=backend, progress=progress, first_game=first_game,
                           on_chunk=(lambda f: take([f])) if one else take, keep=False,
                           label=label, cluster=cluster)
        return res.meta

    return arena


@dataclass
class TuneAnswer:
    """A tuning's answer for one player count (see the module)."""

    game: str
    players: int
    policies: str
    goals: list[Goal]
    knobs: list[Knob]
    labels: list[str]
    values: list[tuple]
    race: Race
    skipped: list[str]
    seed: int
    screening: dict | None = None
    seconds: float = 0.0
    side: list[dict] = field(default_factory=list)

    # ------------------------------------------------------------ figures

    @property
    def best(self) -> int:
        return self.race.best

    @property
    def metrics(self) -> list[Metric]:
        """The goals' metrics, each once, in the goals' order."""
        return Objective(tuple(self.goals)).metrics()

    @property
    def tied(self) -> list[int]:
        """Survivors other than the best: the race could not tell them from it."""
        return [i for i in self.race.survivors if i != self.best]

    @property
    def played(self) -> int:
        return self.race.played + (self.screening or {}).get("played", 0)

    @property
    def saved(self) -> float:
        full = self.race.full_cost
        return 1 - self.race.played / full if full else 0.0

    def goal_rows(self, arm: int) -> list[dict]:
        """Each goal metric of ``arm`` once, with its interval (simultaneous over the settings
        raced: ``Race.shown_miss``) and, for the constraints on it, whether the interval
        shows each met."""
        t, out = self.race.tally, []
        for m in self.metrics:
            est = m.estimate(t, arm)
            lo, hi = self.race.interval(m, arm)
            out.append({"metric": m.name, "label": m.label, "estimate": est, "low": lo,
                        "high": hi,
                        "unit": m.unit, "method": m.method(),
                        "constraints": {g.text(): g.met(lo, hi) for g in self.goals
                                        if g.constraint and g.metric.name == m.name}})
        return out

    def status(self, arm: int) -> str:
        if arm == self.best:
            return "best"
        if self.race.alive[arm]:
            return "not told apart from the best"
        return f"dropped at look {self.race.dropped_at[arm]}: {self.race.reason[arm]}"

    # ------------------------------------------------------------ outputs

    def rows(self) -> pd.DataFrame:
        """One row per candidate: its knob values, status, games and goal metrics."""
        t, out = self.race.tally, []
        for i, lab in enumerate(self.labels):
            row = {"players": self.players, "setting": lab}
            for k, v in zip(self.knobs, self.values[i], strict=True):
                row[k.name] = k.show(v) if v is not None else ""
            row.update({"status": self.status(i), "games": t.n(i),
                        "objective": self.race.objective.point(t, i)})
            for g in self.goal_rows(i):
                row.update({f"{g['metric']}": g["estimate"], f"{g['metric']}_low": g["low"],
                            f"{g['metric']}_high": g["high"], **g["constraints"]})
            out.append(row)
        return pd.DataFrame(out)

    def to_json(self) -> dict:
        r = self.race
        return {
            "game": self.game, "players": self.players, "policies": self.policies,
            "goals": [g.text() for g in self.goals], "knobs": [k.name for k in self.knobs],
            "best": {"setting": self.labels[self.best], "goals": self.goal_rows(self.best)},
            "not_told_apart": [{"setting": self.labels[i], "goals": self.goal_rows(i)}
                               for i in self.tied],
            "moves": self.side,
            "candidates": self.rows().to_dict(orient="records"),
            "race": {"error_rate": r.alpha, "per_interval_miss": r.miss,
                     "looks_max": r.looks_max, "looks": [vars(x) for x in r.looks],
                     "games_played": r.played, "games_to_play_all": r.full_cost,
                     "saved": self.saved, "first_game": r.first_game,
                     "interrupted": r.interrupted, "none_feasible": r.none_feasible},
            "screening": self.screening, "skipped": self.skipped, "seed": self.seed,
            "games_played": self.played, "seconds": self.seconds,
            "settings_intervals": {"confidence": 1 - r.alpha, "per_interval": 1 - r.shown_miss,
                                   "level": r.level},
            "moves_confidence": CONFIDENCE,
        }

    def render_text(self) -> str:
        r = self.race
        lines = [f"Tuning {self.game} at {self.players} player"
                 f"{'s' if self.players > 1 else ''} ({self.policies}): "
                 f"{len(self.labels)} settings of {', '.join(k.name for k in self.knobs)}",
                 "Goals: " + "; ".join(g.text() for g in self.goals), ""]
        if r.none_feasible:
            lines += ["No setting meets the constraints: every one still racing was shown to "
                      "break one, so the race went on ranking them by how near they come (the "
                      "constraints' metrics, pushed inward).", ""]
        lines.append(f"Recommendation: {self.labels[self.best]}")
        lines += [f"  {goal_line(g)}" for g in self.goal_rows(self.best)]
        lines.append(f"  (intervals {r.level}: they hold for the setting chosen as the best)")
        if self.tied:
            lines += ["", f"Not told apart from it ({len(self.tied)}; the race could not show "
                      "them worse):"]
            for i in self.tied:
                lines.append(f"  {self.labels[i]}: "
                             + "; ".join(goal_line(g) for g in self.goal_rows(i)))
        if self.side:
            current = self.labels[r.base].removesuffix(" (the current rules)")
            lines += ["", f"What it moves against the current rules ({current}), "
                      "paired on the same games (95% intervals; 'moves' after Holm over "
                      "these rows):"]
            width = max(len(s["metric"]) for s in self.side)
            for s in self.side:
                lines.append(f"  {s['metric']:<{width}}  {shown_value(s['current'], s['unit'])} -> "
                             f"{shown_value(s['best'], s['unit'])}  change {shown_value(s['change'], s['unit'], True)} "
                             f"[{shown_value(s['low'], s['unit'], True)}, "
                             f"{shown_value(s['high'], s['unit'], True)}]  "
                             f"{s['verdict']}")
        dropped = [i for i in range(len(self.labels)) if not r.alive[i]]
        lines += ["", f"Race: {len(r.looks)} looks, games per setting "
                  + ", ".join(f"{x.games:,} ({x.racing} racing)" for x in r.looks)
                  + f"; {len(dropped)} setting{'' if len(dropped) == 1 else 's'} dropped."]
        lines.append(f"Error rate: the truly best of the raced settings is dropped with "
                     f"probability at most {r.alpha:.0%} (Bonferroni: each interval of a "
                     f"comparison misses with probability {r.miss:.2g}, over at most "
                     f"{r.looks_max} looks).")
        lines.append(f"Games: {self.played:,} played"
                     + (f" ({self.screening['played']:,} in {self.screening['text']})"
                        if self.screening else "")
                     + f"; playing all {len(self.labels)} raced settings to "
                     f"{r.full_cost // max(len(self.labels), 1):,} games would take "
                     f"{r.full_cost:,}: racing saved {self.saved:.0%}. {self.seconds:.0f} s.")
        if self.skipped:
            lines.append(f"Skipped {len(self.skipped)} impossible settings, e.g. "
                         f"{self.skipped[0]}")
        if r.interrupted:
            lines.append("Interrupted: the answer rests on the looks that finished.")
        lines.append("Intervals: each setting's as above, the changes' 95% per comparison; "
                     + "; ".join(
            sorted({f"{g.metric.name}: {g.metric.method()}" for g in self.goals})) + ".")
        return "\n".join(lines)


def shown_value(x: float | None, unit: str, change: bool = False) -> str:
    """A figure as read: gaps and changes signed, shares and gaps in points x100."""
    if x is None or not math.isfinite(x):
        return "n/a"
    if unit in ("pp", "%"):
        signed = change or unit == "pp"
        return f"{100 * x:+.1f} pp" if signed else f"{100 * x:.1f}%"
    return f"{x:+.2f}" if change else f"{x:.2f}"


def goal_line(g: dict, plain: bool = False) -> str:
    """'metric estimate [low, high]' and each constraint's state, as read (``plain``: the
    metric's label, for a designer, rather than its name)."""
    unit = g["unit"]
    name = g.get("label", g["metric"]) if plain else g["metric"]
    text = (f"{name} {shown_value(g['estimate'], unit)} [{shown_value(g['low'], unit)}, "
            f"{shown_value(g['high'], unit)}]")
    if g["constraints"]:
        text += " (" + "; ".join(f"{c.removeprefix(g['metric']).strip()}: {state}"
                                 for c, state in g["constraints"].items()) + ")"
    return text


# ---------------------------------------------------------------- the tuning

def check_question(info, players: int, base_overrides: dict, goals: list[str],
                   knobs: list[str], alpha: float = ALPHA):
    """The goals, knobs and base rules of a tuning at ``players``, or the user's mistake.

    The CLI calls it for every player count before the first game, so a goal that does not
    apply at the last count is refused at once, not after the first counts' races."""
    layout = Layout.of(info, players)
    goal_list = [parse_goal(g, layout) for g in goals]
    check_goals(goal_list)
    knob_list = [parse_knob(info.rules_cls, k) for k in knobs]
    check_knobs(knob_list)
    if not MIN_ERROR_RATE <= alpha < 0.5:
        raise UserError(f"--error-rate must lie from {MIN_ERROR_RATE:g} to below 0.5, "
                        f"not {alpha:g}")
    base = info.rules_cls.from_overrides(base_overrides)
    try:
        base.check_players(players)
    except RulesError as exc:
        raise UserError(str(exc)) from None
    return goal_list, knob_list, base


def tune(info, players: int, base_overrides: dict, goals: list[str], knobs: list[str],
         arena: Arena, budget: int, policies_label: str, alpha: float = ALPHA,
         seed: int = 0, max_grid: int = MAX_GRID, look: int = LEAST_LOOK,
         trials: int = TRIALS) -> TuneAnswer:
    """Tune ``knobs`` toward ``goals`` at ``players`` within ``budget`` games in all.

    ``look``: the least games per setting at the race's first look (a fit's pilot plays at
    least five times as many); the report's tiny test scales lower it."""
    start = time.perf_counter()
    cls = info.rules_cls
    goal_list, knob_list, base = check_question(info, players, base_overrides, goals, knobs,
                                                alpha)
    base_overrides = base.changed()  # parsed values, so knobs set list entries on lists
    layout = Layout.of(info, players)
    objective = Objective(tuple(goal_list))
    skipped: dict[tuple, str] = {}  # each impossible setting once, however often proposed

    def make(values):
        try:
            return rules_for(cls, base_overrides, base, knob_list, values, players)
        except RulesError as exc:
            skipped.setdefault(values, f"{label(knob_list, values)} ({exc})")
            return None

    screening = None
    first_game = 0
    flags: list[bool] = []  # per setting: its fit knob was fitted (not the base's value)
    fit = [k for k in knob_list if k.fit]
    size = grid_size([k for k in knob_list if not k.fit])
    if fit:
        settings, first_game, note = _fitted_settings(arena, knob_list, goal_list, make,
                                                      base, budget, size, max_grid,
                                                      PILOT_LOOKS * look)
        budget -= note["played"]
        screening = note
        flags = [v[-1] != "printed" for v in settings]
        settings = [tuple(getattr(base, k.option.key) if x == "printed" else x
                          for k, x in zip(knob_list, v, strict=True)) for v in settings]
    elif size <= max_grid:
        settings = grid(knob_list)
    else:
        games = max(200, budget // 2 // trials // 100 * 100)
        found = screen(arena, knob_list, make, layout, objective, trials, games, seed)
        settings = found.finalists(FINALISTS)
        screening = {"tried": len(found.tried), "games": games, "played": found.played,
                     "settings": "infinite" if math.isinf(size) else int(size),
                     "sampler": "Optuna (CMA-ES over number knobs, TPE otherwise; seeded)",
                     "text": f"screening {len(found.tried)} settings with Optuna (CMA-ES over "
                             f"the number knobs, TPE otherwise) on the same {games:,} games "
                             "each, then the race on fresh games"}
        first_game = games
        budget -= found.played
        if found.interrupted:
            raise Interrupted("stopped during the screening, before any setting was raced; "
                              "nothing to answer")
    rules, labels, values = [base], [_current(knob_list, base)], [base_values(knob_list, base)]
    for i, v in enumerate(settings):
        r = make(v)
        if r is None or r in rules[1:]:
            continue
        if r == base:
            labels[0] = label(knob_list, v) + " (the current rules)"
            values[0] = v
            continue
        rules.append(r)
        labels.append(label(knob_list, v) + (" (fitted)" if flags and flags[i] else ""))
        values.append(v)
    if len(rules) < 2:
        raise UserError("the knobs give no setting other than the current rules"
                        + (f" ({len(skipped)} impossible, e.g. {next(iter(skipped.values()))})"
                           if skipped else ""))
    if budget < 2 * len(rules) * look:
        raise UserError(f"--budget is too small for {len(rules)} settings: the race has "
                        f"{max(budget, 0):,} games left; give at least "
                        f"{least_budget(info, players, knobs, goals, look):,} games")
    raced = race(arena, rules, labels, layout, objective, budget, alpha,
                 first=first_look(budget, len(rules), look), first_game=first_game, base=0)
    answer = TuneAnswer(info.title, players, policies_label, goal_list, knob_list, labels,
                        values, raced, list(skipped.values()), seed, screening)
    answer.side = moves(raced, side_metrics(layout), answer.best)
    answer.seconds = time.perf_counter() - start
    return answer


def _fitted_settings(arena: Arena, knobs: list[Knob], goals: list[Goal], make, base,
                     budget: int, size: float, max_grid: int, least: int):
    """Each setting of the other knobs twice, with the fit knob at the base rules' value
    ("printed") and fitted on pilot games; (settings, first race game, pilot note)."""
    from analyses.fitting import FITTERS

    fit = [k for k in knobs if k.fit]
    if len(fit) > 1:
        raise UserError("--knob ...=fit: fit one knob at a time")
    knob = fit[0]
    if knobs[-1] is not knob:
        raise UserError(f"--knob {knob.name}=fit must be the last --knob")
    fitter = FITTERS.get(knob.option.key)
    if fitter is None:
        raise UserError(f"--knob {knob.name}=fit: only {', '.join(FITTERS)} can be fitted")
    goal = next((g for g in goals if g.metric.name.split("[")[0] == fitter.goal), None)
    if goal is None:
        raise UserError(f"--knob {knob.name}=fit fits to a --goal {fitter.goal}=...; give one")
    if size > max_grid:
        raise UserError(f"--knob {knob.name}=fit: the other knobs span {size:g} settings; "
                        f"at most {max_grid} can be fitted")
    others = grid(knobs[:-1]) if len(knobs) > 1 else [()]
    playable = [(v, r) for v in others if (r := make(v + (getattr(base, knob.option.key),)))
                is not None]
    if not playable:
        raise UserError("the knobs give no setting the rules allow")
    pilot = max(least, budget // 4 // len(playable) // 100 * 100)
    tallies = [fitter.tally() for _ in playable]

    def take(frames):
        for t, f in zip(tallies, frames, strict=True):
            t.add(f)

    meta = arena([r for _, r in playable], 0, pilot, take,
                 f"pilot: {len(playable)} settings x {pilot:,} games")
    if meta.get("interrupted"):
        raise Interrupted("stopped during the pilot, before any setting was raced; nothing "
                          "to answer")
    settings = []
    for (v, r), t in zip(playable, tallies, strict=True):
        settings += [v + ("printed",), v + (fitter.fit(t, goal.metric, r),)]
    note = {"tried": len(playable), "games": pilot, "played": pilot * len(playable),
            "settings": len(playable), "sampler": f"fitted {knob.name}: {fitter.method}",
            "text": f"a pilot of {pilot:,} games for each of {len(playable)} settings to fit "
                    f"{knob.name} ({fitter.method}), then the race on fresh games"}
    return settings, pilot, note


PILOT_LOOKS = 5  # a fit's pilot plays at least this many first looks' games per setting


def least_budget(info, players: int, knobs, goals, look: int = LEAST_LOOK) -> int:
    """The smallest budget a tuning of these knobs can be played with: two looks of the
    race's least size for every raced setting and the current rules, plus the pilot or the
    screening."""
    knob_list = [parse_knob(info.rules_cls, k) for k in knobs]
    size = grid_size([k for k in knob_list if not k.fit])
    if any(k.fit for k in knob_list):
        raced, extra = 2 * size, PILOT_LOOKS * look * size
    elif size <= MAX_GRID:
        raced, extra = size, 0
    else:
        raced, extra = FINALISTS, TRIALS * look
    return int(2 * (raced + 1) * look + extra)


def _current(knobs: list[Knob], base) -> str:
    v = base_values(knobs, base)
    return (label(knobs, v) if all(x is not None for x in v) else base.describe()) + \
        " (the current rules)"


def moves(raced: Race, metrics: list[Metric], best: int) -> list[dict]:
    """Each side metric at the current rules and at the best setting, and the paired change
    with its 95% interval; 'moves' where the change's Holm-adjusted p is below 5%."""
    t, base = raced.tally, raced.base
    if best == base:
        return []
    rows, ps = [], []
    z = st.norm.ppf(0.5 + CONFIDENCE / 2)
    for m in metrics:
        d = m.paired(t, best, base, 1 - CONFIDENCE)
        if d is None:
            continue
        change = m.estimate(t, best) - m.estimate(t, base)
        se = (d[1] - d[0]) / (2 * z)
        p = 1.0 if se == 0 and change == 0 else 0.0 if se == 0 else \
            float(2 * st.norm.sf(abs(change) / se))
        rows.append({"metric": m.name, "label": m.label, "unit": m.unit,
                     "current": m.estimate(t, base), "best": m.estimate(t, best),
                     "change": change, "low": d[0], "high": d[1], "p": p})
        ps.append(p)
    if rows:
        adjusted = holm(np.asarray(ps))
        for row, p in zip(rows, adjusted, strict=True):
            row["p_holm"] = float(p)
            row["verdict"] = "moves" if p < 1 - CONFIDENCE else "not shown to move"
    return rows
