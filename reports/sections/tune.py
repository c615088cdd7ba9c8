"""The "What would fix it" section: worked rule tunings (``rumsim tune``) with intervals.

A page declares its questions (``Question``: the words, the players, the
policy, the base rules, the goals and knobs, the full-size budget). The
section plays each one itself (``play``: a race is adaptive, so it is not a
planned run) at the page's scale, and shows the recommendation with its goal
metrics' intervals, every setting the race could not tell apart from it,
a figure of each setting's first goal metric, what the change moves against
the current rules, the race's games and savings, and the one command that
asks the same question at the terminal.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

import pandas as pd

from analyses.racing import LEAST_LOOK
from analyses.tune import (
    TuneAnswer,
    goal_line,
    least_budget,
    policies_text,
    shown_value,
    simulate_arena,
    tune,
)
from reports import figures
from reports.sections import Section

SHOWN = 12  # settings in the figure and table: the best, its equals, then the closest dropped
LEAST_LOOK_AT_TINY_SCALE = 20  # a test's tiny page plays tiny looks, as its other runs are


def look_at(scale: float) -> int:
    """The least games per setting at a race's first look at a page scale: the race's own
    least at scale 0.1 (--quick) and above, shrinking below it."""
    return max(LEAST_LOOK_AT_TINY_SCALE, round(LEAST_LOOK * min(1.0, 10 * scale)))


@dataclass(frozen=True)
class Question:
    """One worked tuning: ``ask`` (the designer's question), ``players`` (one or more),
    ``policy``, ``rules`` (--rule pairs of the base), ``goals``, ``knobs`` and the budget
    per player count at scale 1."""

    ask: str
    goals: tuple[str, ...]
    knobs: tuple[str, ...]
    players: tuple[int, ...]
    policy: str | None = None
    rules: tuple[str, ...] = ()
    budget: int = 400_000
    seed: int = 0

    def budget_at(self, scale: float) -> int:
        return int(self.budget * scale)

    def command(self, game: str, budget: int | None = None) -> str:
        """The terminal command that asks this question (``budget``: default the
        question's own)."""
        parts = ["rumsim", "tune", game]
        p = self.players
        parts += ["--players", str(p[0]) if len(p) == 1 else f"{p[0]}..{p[-1]}"
                  if list(p) == list(range(p[0], p[-1] + 1)) else ",".join(map(str, p))]
        if self.policy:
            parts += ["--policy", self.policy]
        for r in self.rules:
            parts += ["--rule", r]
        for k in self.knobs:
            parts += ["--knob", k]
        for g in self.goals:
            parts += ["--goal", g]
        parts += ["--budget", f"{budget or self.budget:_}"]
        if self.seed:
            parts += ["--seed", str(self.seed)]
        return " ".join(shlex.quote(x) for x in parts)


@dataclass
class TuneResult:
    question: Question
    command: str
    answers: list[TuneAnswer]


@dataclass(frozen=True)
class Tune(Section):
    """The page's worked tunings, each asked at every player count of its question."""

    questions: tuple[Question, ...]

    key = "tune"

    def uses(self, meta: dict) -> str | None:
        return None  # plays its own races, not the page's planned runs

    def play(self, info, scale: float, backend: str, progress, workers, cluster,
             store=None) -> list[TuneResult]:
        """Ask every question at ``scale`` (each budget at least what its race needs)."""
        cls = info.rules_cls
        out = []
        for q in self.questions:
            overrides = cls.from_strings(list(q.rules))
            look = look_at(scale)
            budget = max(q.budget_at(scale),
                         least_budget(info, q.players[0], q.knobs, q.goals, look))
            answers = []
            for p in q.players:
                policies = info.seat_policies(q.policy, p)
                label = policies_text(policies)
                arena = simulate_arena(info, p, policies, q.seed, workers, backend, cluster,
                                       progress)
                answers.append(tune(info, p, overrides, list(q.goals), list(q.knobs), arena,
                                    budget, label, seed=q.seed, look=look))
            out.append(TuneResult(q, q.command(info.name, budget), answers))
        return out

    def analyse(self, info, results) -> list[TuneResult]:
        return []  # a page rendered from runs alone has no races

    def tables(self, answer: list[TuneResult]) -> dict[str, pd.DataFrame]:
        if not answer:
            return {}
        return {"tune": pd.concat([a.rows().assign(question=i + 1)
                                   for i, r in enumerate(answer) for a in r.answers])}

    def write(self, page, answer: list[TuneResult]) -> None:
        page.heading("What would fix it")
        if not answer:
            page.paragraph("This page was built without its rule tunings.", css="note")
            return
        page.paragraph("Each question below is a race (rumsim tune): every setting of the "
                       "knobs plays the same games, a setting is dropped once the games show "
                       "it worse than another at a stated error rate, and the survivors play "
                       "on. The recommendation is the survivor with the best estimate; the "
                       "settings the race could not tell apart from it are listed with it.")
        for i, r in enumerate(answer, 1):
            page.heading(f"{i}. {r.question.ask}", level=3)
            for a in r.answers:
                self._one(page, a)
            page.paragraph("The same question at the terminal:")
            page.code(r.command)

    def _one(self, page, a: TuneAnswer) -> None:
        page.paragraph(recommendation(a), css="answer")
        shown = order(a)[:SHOWN]
        t = a.race.tally
        for metric in a.metrics:  # one figure per goal metric
            goal = next(g for g in a.goals if g.metric.name == metric.name)
            rows = []
            for i in shown:
                lo, hi = a.race.interval(metric, i)
                rows.append({"label": _short(a.labels[i]), "estimate": metric.estimate(t, i),
                             "low": lo, "high": hi, "group": _group(a, i)})
            page.figure(figures.interval_dots(
                pd.DataFrame(rows), f"{metric.label} by setting, {_players(a)} "
                f"({a.policies})", metric.name, reference=goal.value, percent=metric.share),
                alt=f"{metric.name} of each setting with {a.race.level} intervals",
                caption=f"Dots: the estimate at the games each setting played; whiskers: "
                        f"intervals {a.race.level} ({metric.method()}); dashed: the goal "
                        f"({goal.text()}). "
                        "Shown: the best, the settings not told apart from it, then those "
                        "dropped last.")
        table = pd.DataFrame([{
            "setting": a.labels[i], "status": a.status(i), "games": t.n(i),
            **{g["metric"]: _cell(g) for g in a.goal_rows(i)}} for i in shown])
        page.table(table, caption=f"Settings at {_players(a)} (intervals {a.race.level})")
        if a.side:
            page.table(pd.DataFrame([{
                "metric": s["label"], "current rules": shown_value(s["current"], s["unit"]),
                "recommended": shown_value(s["best"], s["unit"]),
                "change [95% CI]": f"{shown_value(s['change'], s['unit'], True)} "
                                   f"[{shown_value(s['low'], s['unit'], True)}, "
                                   f"{shown_value(s['high'], s['unit'], True)}]",
                "verdict": s["verdict"]} for s in a.side]),
                caption="What the recommendation moves against the current rules, paired on "
                        "the same games ('moves': Holm over these rows at 5%)")
        page.paragraph(race_sentence(a), css="note")

    def methods(self, answer: list[TuneResult]) -> list[str]:
        if not answer:
            return []
        return ["What would fix it: a race on common random numbers (analyses.racing). Each "
                "look plays the same game indices for every setting still in the race; a "
                "setting is dropped when a lower bound of its objective minus another's is "
                "above 0, or a constraint's interval lies beyond its bound. Each interval a "
                "comparison rests on misses with probability alpha / (looks x statements), so "
                "the truly best of the raced settings is dropped with probability at most 5% "
                "(Bonferroni; simulated in the validation table). Spaces too large to race "
                "whole are screened first (Optuna, seeded) and the race plays fresh games; "
                "band edges are fitted on pilot games and raced on fresh ones. The settings' "
                "intervals are simultaneous at 95% over the settings raced and the looks "
                "(Bonferroni: each at 5% / (settings x looks)), so the recommendation's holds "
                "though the same games chose it as the best (95% each would not: simulated "
                "in the validation table); the 'moves' table: paired normal intervals, 95% "
                "per comparison, Holm over its rows."]


def order(a: TuneAnswer) -> list[int]:
    """The best, the settings not told apart from it, then the dropped by how late they
    went (later first) and their estimate."""
    t, obj = a.race.tally, a.race.objective
    dropped = [i for i in range(len(a.labels)) if not a.race.alive[i]]
    dropped.sort(key=lambda i: (-(a.race.dropped_at[i] or 0), obj.point(t, i)))
    tied = sorted(a.tied, key=lambda i: obj.point(t, i))
    return [a.best, *tied, *dropped]


def recommendation(a: TuneAnswer) -> str:
    """The answer in one or two sentences, each goal with its interval."""
    goals = "; ".join(goal_line(g) for g in a.goal_rows(a.best))
    head = f"{_players(a)} ({a.policies}): "
    if a.race.none_feasible:
        head += "no setting meets the constraints; the closest is "
    text = head + f"{a.labels[a.best]} ({goals}; intervals {a.race.level})."
    if a.tied:
        text += (f" {len(a.tied)} other setting{'s' if len(a.tied) > 1 else ''} could not be "
                 "told apart from it at these games.")
    else:
        text += " Every other setting was shown worse."
    return text


def race_sentence(a: TuneAnswer) -> str:
    r = a.race
    return (f"{a.played:,} games played in {a.seconds:.0f} s"
            + (f" ({a.screening['played']:,} of them in {a.screening['text']})"
               if a.screening else "")
            + f"; {len(r.looks)} looks; playing all {len(a.labels)} settings to the "
            f"survivors' games would take {r.full_cost:,}: racing saved {a.saved:.0%}. The "
            f"truly best of these settings is dropped with probability at most {r.alpha:.0%}.")


def _players(a: TuneAnswer) -> str:
    return f"{a.players} player{'s' if a.players > 1 else ''}"


def _group(a: TuneAnswer, i: int) -> str:
    if i == a.best:
        return "recommended"
    return "not told apart" if a.race.alive[i] else "dropped"


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _cell(g: dict) -> str:
    u = g["unit"]
    return f"{shown_value(g['estimate'], u)} [{shown_value(g['low'], u)}, {shown_value(g['high'], u)}]"
