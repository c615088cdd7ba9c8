"""The "Which choices matter" section: every declared choice forbidden to one seat, under the
page's skilled-play policy, on the same deals (``analyses.restrict``).

A page declares it with the policy and player count (``Restrict``); the section plays its
own lockstep run (a pilot, then the deals its intervals' widths ask for, capped by
``max_deals`` at scale 1), shows each choice's cost with its interval against the margin,
a table, and one sentence per dominant, useless or overused choice.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from analyses import restrict as R
from reports import figures
from reports._runs import scaled
from reports.sections import Section


@dataclass
class RestrictResult:
    answer: R.RestrictAnswer
    games: int
    seconds: float
    command: str


@dataclass(frozen=True)
class Restrict(Section):
    """Restricted play on a page: ``policy`` in every seat at ``players``, each choice
    forbidden to one seat in turn; at most ``max_deals`` deals at scale 1."""

    policy: str = "expert"
    players: int = 4
    max_deals: int = 20_000
    preset: str = "standard"
    seed: int = 0

    key = "restrict"

    def uses(self, meta: dict) -> str | None:
        return None  # plays its own lockstep run, not the page's planned runs

    def play(self, info, scale: float, backend: str, progress, workers, cluster,
             store=None) -> RestrictResult:
        self.function(info)  # refuses a game the analysis does not apply to
        import functools

        import simulate

        rules = info.rules_cls.from_overrides(info.rules_cls.preset(self.preset))
        policy = info.policy(self.policy).label()
        cap = scaled(self.max_deals, scale, 10)
        pilot = min(R.PILOT, cap)
        # each block is tallied where it is played (analyses.restrict.RestrictParts), so
        # ``store`` keeps it, and the same question asked at the terminal shares its blocks
        run = functools.partial(simulate.run, rules=rules, seed=self.seed, workers=workers,
                                backend=backend, progress=progress, cluster=cluster,
                                keep=False, store=store, tell=progress is not False)
        started = time.perf_counter()
        done = R.play(run, info, policy, info.choice_names, self.players, cap=cap, pilot=pilot)
        helps = {c.name: c.help for c in info.choices}
        answer = done.tally.answer(labels=helps)
        command = (f"rumsim restrict {info.name} --players {self.players} --policy {policy} "
                   f"--preset {self.preset} --seed {self.seed} --max-deals {cap}")
        return RestrictResult(answer, done.played * done.seatings,
                              time.perf_counter() - started, command)

    def analyse(self, info, results) -> None:
        return None  # a page rendered from runs alone has no restricted play

    def tables(self, result: RestrictResult | None) -> dict[str, pd.DataFrame]:
        return {"restrict": result.answer.table()} if result is not None else {}

    def write(self, page, result: RestrictResult | None) -> None:
        page.heading("Which choices matter")
        if result is None:
            page.paragraph("This page was built without restricted play.", css="note")
            return
        a = result.answer
        t = a.table()
        solo, u = a.solo, a.unit
        what = "mean score" if solo else "win share"
        page.paragraph(
            f"Each choice a player makes, forbidden to {'the player' if solo else 'one seat'} "
            f"playing {a.policy} {'' if solo else 'among unrestricted ' + a.policy + ' seats '}"
            f"on the same deals: what it costs in {what}. A choice is dominant when "
            f"forbidding it costs more than ±{a._v(a.margin, sign=False)} {u}; overused when "
            "the player is shown to do better without it (however little: such a choice is "
            "never called useless); useless when it is shown to cost less than the margin "
            "either way (an equivalence test); all verdicts together at a 5% error rate "
            f"(Bonferroni over the {len(a.choices)} choices).")
        rows = pd.DataFrame({"label": t["choice"], "estimate": t["loss"],
                             "low": t["loss_low"], "high": t["loss_high"]})
        page.figure(figures.interval_dots(
            rows, f"{what.capitalize()} lost when a choice is forbidden ({a.policy}, "
            f"{a.players} player{'s' if a.players > 1 else ''})",
            "points lost" if solo else "win share lost", reference=0.0, percent=not solo,
            band=a.margin),
            alt="each choice's loss when forbidden, with its interval and the margin",
            caption=f"Dots: the loss when the choice is forbidden (above 0: the choice "
                    f"helps); whiskers: {100 * (1 - 0.05 / len(a.choices)):.2f}% intervals "
                    f"(Bonferroni over {len(a.choices)} choices); grey: ±the margin. Same "
                    f"{a.deals:,} deals for every choice.")
        fmt = (lambda x, lo, hi: f"{x:+.1f} [{lo:+.1f}, {hi:+.1f}]") if solo else (
            lambda x, lo, hi: f"{100 * x:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]")
        cols = {"choice": t["choice"],
                "taken a game, unrestricted [CI]": [
                    f"{x:.2f} [{lo:.2f}, {hi:.2f}]" for x, lo, hi in
                    t[["taken", "taken_low", "taken_high"]].itertuples(index=False)],
                f"{what} lost, {u} [CI]": [fmt(*x) for x in
                                          t[["loss", "loss_low", "loss_high"]]
                                          .itertuples(index=False)]}
        if not solo:
            cols["score lost [CI]"] = [f"{x:+.1f} [{lo:+.1f}, {hi:+.1f}]" for x, lo, hi in
                                       t[["score_loss", "score_loss_low", "score_loss_high"]]
                                       .itertuples(index=False)]
        cols["verdict"] = t["verdict"]
        page.table(pd.DataFrame(cols), caption=f"{a.players} player"
                   f"{'s' if a.players > 1 else ''}, {a.policy}, {a.deals:,} deals")
        said = a.sentences(("dominant", "useless", "overused"))
        page.bullets([a.summary(), *said], css="answer")
        page.paragraph(f"Restricted play: {result.games:,} games in {result.seconds:,.1f} s. "
                       f"The same at the terminal: `{result.command}`.", css="source")

    def methods(self, result: RestrictResult | None) -> list[str]:
        return [result.answer.method()] if result is not None else []
