"""The skilled-play section: the seat answer at every rung of the strength ladder, and whether it converged.

A page declares its ladder (``Strength``: the rungs weakest first, the player counts, the
deals). The section plays it itself (``play``; the ladder is one lockstep run per player
count, not a planned run): at the page's main player count every rung in every seat and
against the rung below (ratings, head to heads), at its other player counts every rung in
every seat only; on a solo page every rung and the game's ceiling on the same deals. It
shows the first player's edge against the rung (with intervals, one line per player
count), a table per player count, and per player count the skilled-play sentence and the
convergence verdict. Its first sentence leads the answer of a page without a declared
question (``lead``); a page with one words its answer from this section's result
(``reports.answer``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pandas as pd

from analyses.solo_ladder import SoloLadderAnswer, SoloLadderParts
from analyses.solo_ladder import seatings as solo_seatings
from analyses.stats import Interval
from analyses.strength import StrengthAnswer, StrengthParts, ladder_block, seatings
from engines import get_game
from reports import figures
from reports._runs import scaled
from reports.sections import Section
from reports.words import elo_interval, percent_interval, player_labels


@dataclass
class StrengthResult:
    """The ladder's answer per player count (main first), its games and its time; per
    player count where its deals came from (``sources``: the shipped evidence, the run
    store, played now) and whether the shipped evidence was stale."""

    answers: dict[int, StrengthAnswer | SoloLadderAnswer]
    main: int
    games: int
    seconds: float
    seed: int
    commands: dict[int, str]
    sources: dict[int, dict[str, int]] = field(default_factory=dict)
    stale: dict[int, bool] = field(default_factory=dict)
    origins: dict[int, list[str]] = field(default_factory=dict)
    # per player count: seconds a deal took where its deals were played (None: not known)
    seconds_per_game: dict[int, float | None] = field(default_factory=dict)
    game: str = ""

    @property
    def lead(self):
        return self.answers[self.main]


@dataclass
class MainRun:
    """One player count's ladder run (``Strength.run_one``): its answer, time, the deals
    played now and where the others came from."""

    answer: StrengthAnswer | SoloLadderAnswer
    deals: int
    arms: int
    seconds: float
    played: int
    sources: dict[str, int]
    store_key: str | None
    command: str


@dataclass(frozen=True)
class Strength(Section):
    """The page's strength ladder: ``rungs`` (labels, weakest first) at ``players`` (the
    first is the main count, with head to heads), ``deals`` at the main count and
    ``other_deals`` at the others, at scale 1. ``evidence_deals``: the deals at the main
    count that ``make evidence`` plays into the shipped evidence pack (``reports.evidence``),
    which the page then takes whole."""

    rungs: tuple[str, ...]
    players: tuple[int, ...]
    deals: int
    other_deals: int
    preset: str = "standard"
    seed: int = 0
    evidence_deals: int = 0

    key = "strength"

    def uses(self, meta: dict) -> str | None:
        return None  # plays its own lockstep runs, not the page's planned runs

    def play(self, info, scale: float, backend: str, progress, workers, cluster,
             store=None) -> StrengthResult:
        """Play the ladder at every player count, each block tallied where it is played and
        merged in order; ``store`` (a ``simulate.store`` store, or None) keeps the blocks
        and gives back those it holds (the answer is the same either way). At the main
        player count the page takes every deal the store holds (the shipped evidence)."""
        self.function(info)  # refuses a game the analysis does not apply to
        started, games = time.perf_counter(), 0
        result = StrengthResult({}, self.players[0], 0, 0.0, self.seed, {}, game=info.name)
        for k, p in enumerate(self.players):
            main = k == 0
            n = scaled(self.deals if main else self.other_deals, scale, 2)
            one = self.run_one(info, p, n, main, store=store, backend=backend,
                               progress=progress, workers=workers, cluster=cluster,
                               all_stored=main)
            games += one.deals * one.arms
            result.answers[p] = one.answer
            result.commands[p] = one.command
            result.sources[p] = {**one.sources, "played now": one.played}
            rate = store.seconds_per_game(one.store_key) if store is not None else None
            if rate is None and one.played:
                rate = one.seconds / one.played
            result.seconds_per_game[p] = rate
            if main and store is not None:
                result.stale[p] = store.stale_for(self._job(info, p, True), info)
                result.origins[p] = [o for o in store.origins(one.store_key)
                                     if o.startswith("make evidence")]
        result.games = games
        result.seconds = time.perf_counter() - started
        return result

    def _arms(self, info, players: int, main: bool):
        rungs = tuple(info.policy(r).label() for r in self.rungs)
        if players == 1:
            ceiling = info.extra.get("ceiling")
            return rungs, SoloLadderParts.of(rungs, ceiling), solo_seatings(rungs, ceiling)
        parts = StrengthParts.of(rungs, players, info.extra.get("seat_views", {}),
                                 info.extra.get("turn_order", (None, None))[1], heads=main)
        return rungs, parts, seatings(rungs, players, heads=main)

    def _job(self, info, players: int, main: bool):
        """The run's job (what the store keys), without playing it."""
        from simulate.blocks import Job
        from simulate.runner import resolve

        rules = info.rules_cls.from_overrides(info.rules_cls.preset(self.preset))
        _, parts, arms = self._arms(info, players, main)
        seated = tuple(resolve(info, rules, a, players)[2] for a in arms)
        return Job(info.name, (rules,) * len(arms), seated, players, self.seed, "fast", parts)

    def run_one(self, info, players: int, deals: int, main: bool, store=None,
                backend: str = "fast", progress=None, workers=None, cluster=None,
                all_stored: bool = False) -> MainRun:
        """One player count's ladder on ``deals`` deals (with ``all_stored``: at least, and
        every deal ``store`` holds for it)."""
        import simulate

        rules = info.rules_cls.from_overrides(info.rules_cls.preset(self.preset))
        rungs, parts, arms = self._arms(info, players, main)
        tally = parts.tally()
        started = time.perf_counter()
        res = simulate.run(info, deals, rules=rules, seatings=arms, players=players,
                           seed=self.seed, workers=workers, backend=backend,
                           progress=progress, cluster=cluster, keep=False, part=parts,
                           on_part=tally.merge, store=store, all_stored=all_stored,
                           # a quiet report still says where its deals came from, on the page
                           tell=progress is not False, chunk_size=ladder_block(info, rungs),
                           label=f"strength ladder, {players} "
                                 f"player{'s' if players > 1 else ''}")
        n = int(res.meta["games"])
        stored = res.meta.get("store", {})
        taken = dict(stored.get("sources", {}))
        answer = tally.answer(rules) if players == 1 else tally.answer()
        command = (f"rumsim ladder {info.name} --players {players} -n {n} --seed {self.seed} "
                   f"--preset {self.preset} --rungs {','.join(rungs)}")
        return MainRun(answer, n, len(arms), time.perf_counter() - started,
                       n - sum(taken.values()), taken, stored.get("key"), command)

    def main_run(self, info, deals: int, store=None, cluster=None, progress=None,
                 workers=None) -> MainRun:
        """The main player count's ladder on ``deals`` deals (``make evidence``)."""
        return self.run_one(info, self.players[0], deals, True, store=store, cluster=cluster,
                            progress=progress, workers=workers)

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
            self._write_sources(page, result, result.main)
        else:
            self._write_seats(page, result)
        page.paragraph(f"The ladder played {result.games:,} games in {result.seconds:,.0f} s "
                       "(every rung on the same deals, seed "
                       f"{result.seed}). The same at the terminal: "
                       + "; ".join(f"`{c}`" for c in result.commands.values()) + ".",
                       css="source")

    def _write_seats(self, page, result: StrengthResult) -> None:
        info = get_game(result.game)
        labels = player_labels(info, result.lead.rungs)
        rows = []
        for p, a in result.answers.items():
            for _, r in a.table().iterrows():
                rows.append({"rung": int(r["rung"]), "label": labels[r["policy"]], "players": p,
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
            cols = {"player": [labels[r] for r in t["policy"]],
                    f"edge of {who} [95% CI]": [
                        _pp(*x) for x in t[["first_edge", "first_edge_low",
                                            "first_edge_high"]].itertuples(index=False)],
                    "seat verdict (±2 pp)": t["seat_verdict"]}
            if "rating" in t:
                cols["rating, Elo [95% CI]"] = [
                    elo_interval(Interval(x, lo, hi), unit="").replace("  ", " ")
                    for x, lo, hi in
                    t[["rating", "rating_low", "rating_high"]].itertuples(index=False)]
                cols["one among the rung below wins [95% CI]"] = ["-"] + [
                    percent_interval(*x) + (" (order wrong)" if w else "") for *x, w in
                    t[["head_share", "head_low", "head_high", "order_wrong"]].iloc[1:]
                    .itertuples(index=False)]
            page.table(pd.DataFrame(cols),
                       caption=f"{p} players, {a.deals:,} deals" +
                       (" (with head to heads and ratings)" if "rating" in t else ""))
            page.bullets([in_words(a.skilled_sentence(), labels),
                          in_words(a.converged.sentence(), labels)], css="answer")
            self._write_sources(page, result, p)
        page.table(pd.DataFrame({"player": list(labels.values()),
                                 "exact specification (rumsim --policy)": list(labels)}),
                   caption="The players of the ladder, weakest first")

    def _write_sources(self, page, result: StrengthResult, players: int) -> None:
        sentence = sources_sentence(result, players)
        if sentence:
            page.paragraph(sentence, css="note")

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


def in_words(text: str, labels: dict[str, str]) -> str:
    """A sentence with each policy string replaced by the player's label (longest first, so
    'rollout:samples=32' is not read as 'rollout:samples=3')."""
    for spec in sorted(labels, key=len, reverse=True):
        text = text.replace(spec, labels[spec])
    return text


def sources_sentence(result: StrengthResult, players: int) -> str | None:
    """Where a player count's deals came from: the shipped evidence (and what made it), the
    run store, played for this page; and whether the shipped evidence was stale."""
    sources = {k: v for k, v in result.sources.get(players, {}).items() if v}
    if not sources:
        return None
    total = sum(sources.values())
    names = {"played now": "played for this page"}
    text = (f"{players} player{'s' if players > 1 else ''}: these {total:,} deals are "
            + ", ".join(f"{g:,} {'from ' if k != 'played now' else ''}{names.get(k, k)}"
                        for k, g in sources.items()))
    origins = result.origins.get(players)
    if origins and any(k == "the shipped evidence" for k in sources):
        text += f" (the shipped evidence was made by {'; '.join(origins)})"
    text += "."
    if result.stale.get(players):
        text += (" The shipped evidence for this ladder is stale: the game's engine has changed "
                 "since `make evidence` played it, so none of it was used; `make evidence` "
                 "plays it again.")
    return text


def _pp(x: float, low: float, high: float) -> str:
    return f"{100 * x:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}]"
