"""The skilled-play section: the seat answer at every rung of the strength ladder, and whether it converged.

A page declares its ladder (``Strength``: the rungs weakest first, the player counts, the
deals). The section plays it itself (``play``; the ladder is one lockstep run per player
count, not a planned run): at the page's main player count every rung in every seat and
against the rung below (ratings, head to heads), at its other player counts every rung in
every seat only; on a solo page every rung and the game's ceiling on the same deals. It
shows the first player's edge against the rung (with intervals, one line per player
count), a table per player count, and per player count the skilled-play sentence and the
convergence verdict. Its first sentence leads the page's answer (``lead``) and the index's
"skilled play" column (``index_cell``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pandas as pd

from analyses.solo_ladder import SoloLadderAnswer, SoloLadderParts
from analyses.solo_ladder import seatings as solo_seatings
from analyses.strength import StrengthAnswer, StrengthParts, seatings
from reports import figures
from reports._runs import scaled
from reports.sections import Section
from reports.words import percent_interval


@dataclass
class StrengthResult:
    """The ladder's answer per player count (main first), its games and its time."""

    answers: dict[int, StrengthAnswer | SoloLadderAnswer]
    main: int
    games: int
    seconds: float
    seed: int
    commands: dict[int, str]

    @property
    def lead(self):
        return self.answers[self.main]


@dataclass(frozen=True)
class Strength(Section):
    """The page's strength ladder: ``rungs`` (labels, weakest first) at ``players`` (the
    first is the main count, with head to heads), ``deals`` at the main count and
    ``other_deals`` at the others, at scale 1."""

    rungs: tuple[str, ...]
    players: tuple[int, ...]
    deals: int
    other_deals: int
    preset: str = "standard"
    seed: int = 0

    key = "strength"

    def uses(self, meta: dict) -> str | None:
        return None  # plays its own lockstep runs, not the page's planned runs

    def play(self, info, scale: float, backend: str, progress, workers, cluster,
             store=None) -> StrengthResult:
        """Play the ladder at every player count, each block tallied where it is played and
        merged in order; ``store`` (a ``simulate.store`` store, or None) keeps the blocks
        and gives back those it holds (the answer is the same either way)."""
        self.function(info)  # refuses a game the analysis does not apply to
        import simulate

        rules = info.rules_cls.from_overrides(info.rules_cls.preset(self.preset))
        rungs = tuple(info.policy(r).label() for r in self.rungs)
        started, games, answers, commands = time.perf_counter(), 0, {}, {}
        for k, p in enumerate(self.players):
            main = k == 0
            n = scaled(self.deals if main else self.other_deals, scale, 2)
            if p == 1:
                ceiling = info.extra.get("ceiling")
                parts = SoloLadderParts.of(rungs, ceiling)
                arms = solo_seatings(rungs, ceiling)
            else:
                parts = StrengthParts.of(rungs, p, info.extra.get("seat_views", {}),
                                         info.extra.get("turn_order", (None, None))[1],
                                         heads=main)
                arms = seatings(rungs, p, heads=main)
            tally = parts.tally()
            res = simulate.run(info, n, rules=rules, seatings=arms, players=p, seed=self.seed,
                               workers=workers, backend=backend, progress=progress,
                               cluster=cluster, keep=False, part=parts, on_part=tally.merge,
                               store=store,
                               label=f"strength ladder, {p} player{'s' if p > 1 else ''}")
            games += int(res.meta["games"]) * len(arms)
            answers[p] = tally.answer(rules) if p == 1 else tally.answer()
            commands[p] = (f"rumsim ladder {info.name} --players {p} -n {n} --seed {self.seed} "
                           f"--preset {self.preset} --rungs {','.join(rungs)}")
        return StrengthResult(answers, self.players[0], games, time.perf_counter() - started,
                              self.seed, commands)

    def analyse(self, info, results) -> None:
        return None  # a page rendered from runs alone has no ladder

    def lead(self, result: StrengthResult | None) -> list[str]:
        """The page's first sentence: skilled play at the main player count."""
        return [result.lead.skilled_sentence()] if result is not None else []

    def tables(self, result: StrengthResult | None) -> dict[str, pd.DataFrame]:
        if result is None:
            return {}
        return {"strength": pd.concat([a.table() for a in result.answers.values()],
                                      ignore_index=True)}

    def write(self, page, result: StrengthResult | None) -> None:
        page.heading("Skilled play: the answer as the players get better")
        if result is None:
            page.paragraph("This page was built without its strength ladder.", css="note")
            return
        first = result.lead
        if isinstance(first, SoloLadderAnswer):
            self._write_solo(page, first)
        else:
            self._write_seats(page, result)
        page.paragraph(f"The ladder played {result.games:,} games in {result.seconds:,.0f} s "
                       "(every rung on the same deals, seed "
                       f"{result.seed}). The same at the terminal: "
                       + "; ".join(f"`{c}`" for c in result.commands.values()) + ".",
                       css="source")

    def _write_seats(self, page, result: StrengthResult) -> None:
        rows = []
        for p, a in result.answers.items():
            for _, r in a.table().iterrows():
                rows.append({"rung": int(r["rung"]), "label": r["policy"], "players": p,
                             "estimate": r["first_edge"], "low": r["first_edge_low"],
                             "high": r["first_edge_high"]})
        who = ("the first player in turn order" if result.lead.places is not None
               else "seat 0")
        page.figure(figures.edge_by_rung(pd.DataFrame(rows), f"Edge of {who} at each rung"),
                    alt="the first player's edge against the rung of the strength ladder",
                    caption="Dots: the first player's win share minus 1/P with every seat "
                            "playing the rung's policy; whiskers: 95% intervals; one line per "
                            "player count; rungs weakest (left) to strongest (right), on the "
                            "same deals.")
        for p, a in result.answers.items():
            t = a.table()
            cols = {"rung": t["policy"],
                    f"edge of {who} [95% CI]": [
                        _pp(*x) for x in t[["first_edge", "first_edge_low",
                                            "first_edge_high"]].itertuples(index=False)],
                    "seat verdict (±2 pp)": t["seat_verdict"]}
            if "rating" in t:
                cols["rating, Elo [95% CI]"] = [
                    f"{x:+.0f} [{lo:+.0f}, {hi:+.0f}]" for x, lo, hi in
                    t[["rating", "rating_low", "rating_high"]].itertuples(index=False)]
                cols["one among the rung below wins [95% CI]"] = ["-"] + [
                    percent_interval(*x) + (" (order wrong)" if w else "") for *x, w in
                    t[["head_share", "head_low", "head_high", "order_wrong"]].iloc[1:]
                    .itertuples(index=False)]
            page.table(pd.DataFrame(cols),
                       caption=f"{p} players, {a.deals:,} deals" +
                       (" (with head to heads and ratings)" if "rating" in t else ""))
            page.bullets([a.skilled_sentence(), a.converged.sentence()], css="answer")

    def _write_solo(self, page, a: SoloLadderAnswer) -> None:
        t = a.table()
        page.figure(figures.interval_dots(
            pd.DataFrame({"label": t["policy"], "estimate": t["mean"], "low": t["mean_low"],
                          "high": t["mean_high"]}),
            "Mean score at each rung, on the same deals", "mean score"),
            alt="each rung's mean score with its interval",
            caption="Dots: the rung's mean score; whiskers: 95% intervals; rungs weakest (top) "
                    "to strongest (bottom), every rung on the same deals.")
        if a.ceiling_policy is not None:
            rows = pd.DataFrame({"label": t["policy"], "estimate": t["of_ceiling"],
                                 "low": t["of_ceiling_low"], "high": t["of_ceiling_high"]})
            page.figure(figures.interval_dots(
                rows, f"Mean score as a share of {a.ceiling_policy}'s on the same deals",
                "share of the ceiling", percent=True),
                alt="each rung's mean score as a share of the clairvoyant ceiling",
                caption="Dots: the rung's total score over the clairvoyant ceiling's on the "
                        "same deals; whiskers: 95% intervals (delta method over deals).")
        cols = {"rung": t["policy"],
                "mean score [95% CI]": [f"{x:.1f} [{lo:.1f}, {hi:.1f}]" for x, lo, hi in
                                        t[["mean", "mean_low", "mean_high"]]
                                        .itertuples(index=False)]}
        if a.ceiling_policy is not None:
            cols["share of the ceiling"] = [percent_interval(*x) for x in
                                            t[["of_ceiling", "of_ceiling_low",
                                               "of_ceiling_high"]].itertuples(index=False)]
        cols["printed bands"] = [f"{b} ({o:.1f}% off)" for b, o in
                                 zip(t["bands"], t["off_target_pct"], strict=True)]
        page.table(pd.DataFrame(cols), caption=f"Every rung on the same {a.deals:,} deals")
        page.bullets([a.skilled_sentence(), a.converged.sentence()], css="answer")

    def methods(self, result: StrengthResult | None) -> list[str]:
        return [result.lead.method()] if result is not None else []

    def index_cell(self, result: StrengthResult | None) -> str:
        """The index's "skilled play" cell: per player count, the top rung's edge (or score)
        and the convergence verdict."""
        if result is None:
            return ""
        parts = []
        for p, a in result.answers.items():
            if isinstance(a, SoloLadderAnswer):
                top = a.rows.iloc[-1]
                parts.append(f"{top['policy']}: {top['mean']:.0f} points, bands "
                             f"{top['bands']}; {a.converged.state}")
            else:
                e = a.first[-1].headline
                parts.append(f"{p}p {a.rungs[-1]}: {_pp(*e)}, {a.converged.state}")
        return "; ".join(parts)


def _pp(x: float, low: float, high: float) -> str:
    return f"{100 * x:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}]"
