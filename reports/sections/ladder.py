"""The skill-and-luck section: each policy against the next weaker one, and how much is luck.

Presents the registered ``ladder`` analysis. In a multi-player game each
rung is a head to head (one seat of the stronger policy among the weaker,
rotated through every seat, on the same deals; :func:`plan` makes the runs);
in a solo game (Rum Runner) every policy of the ladder plays the same deals
in lockstep and each rung compares two neighbours deal by deal. A figure of
each rung's win share (or score lead and the deal's share of the variance),
a table, and a sentence per rung saying what it means for a designer.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyses.ladder import LadderAnswer, ScoreLadderTally, ladder, score_ladder
from reports import figures
from reports._runs import RunSpec, scaled
from reports.sections import Section, policy_of
from reports.sections.matchup import Matchup
from reports.sections.matchup import plan as matchup_plan
from reports.words import percent_interval

TOGETHER = "ladder"  # the RunSpec tag that keeps a solo ladder's runs in one lockstep block


def plan(info, preset: str, policies: tuple[str, ...], players: int, games: int,
         slow_games: int, seed: int, scale: float = 1.0) -> list[RunSpec]:
    """The runs of a ladder: per rung the rotations of one stronger seat among weaker ones
    (``games`` in all, ``slow_games`` when a rung seats a slow policy); for a solo game one
    run per policy, all of ``slow_games`` when any is slow, played in lockstep."""
    slow = any(info.policy(p).spec.slow for p in policies)
    if players == 1:
        n = scaled(slow_games if slow else games, scale, 2)
        return [RunSpec(preset, info.policy(p).label(), 1, n, seed,
                        f"{preset}, ladder, {info.policy(p).label()}", together=TOGETHER)
                for p in policies]
    out = []
    for weak, strong in zip(policies, policies[1:], strict=False):
        rung_slow = info.policy(weak).spec.slow or info.policy(strong).spec.slow
        out += matchup_plan(info, preset, strong, weak, players,
                            slow_games if rung_slow else games, seed, scale)
    return out


@dataclass(frozen=True)
class Ladder(Section):
    """The ladder of ``policies`` (weakest first) at ``players`` players (1: solo)."""

    policies: tuple[str, ...]
    players: int
    preset: str = "standard"
    unit: str = "points"

    key = "ladder"

    def rungs(self) -> list[Matchup]:
        return [Matchup(focal=strong, field=weak, players=self.players)
                for weak, strong in zip(self.policies, self.policies[1:], strict=False)]

    def _solo_policy(self, meta: dict) -> str | None:
        if int(meta.get("players", 1)) != 1 or meta.get("preset") != self.preset:
            return None
        name = policy_of(meta).split(":")[0]
        return name if name in self.policies else None

    def uses(self, meta: dict) -> str | None:
        if self.players == 1:  # its own lockstep runs, not the page's other runs
            return self.key if meta.get("together") and self._solo_policy(meta) else None
        return self.key if any(r.seat_of(meta) is not None for r in self.rungs()) \
            and meta["preset"] == self.preset else None

    def pairs(self, info, metas: list[dict]):
        if self.players == 1:
            at = {self._solo_policy(m): i for i, m in enumerate(metas)
                  if self._solo_policy(m) is not None}
            if all(p in at for p in self.policies):
                return [([at[p] for p in self.policies], ScoreLadderTally(self.policies))]
            return []
        out = []
        for k, rung in enumerate(self.rungs()):
            chosen = [m if m["preset"] == self.preset else {**m, "players": -1} for m in metas]
            for members, tally in rung.pairs(info, chosen):
                tally.rung = k
                out.append((members, tally))
        return out

    def analyse(self, info, results) -> LadderAnswer:
        from reports._runs import tallied

        self.function(info)  # refuses a game the analysis does not apply to
        runs = tallied(info, (self,), results)
        if self.players == 1:
            tally = next((r.tallies[self.key] for r in runs.values() if self.key in r.tallies),
                         None)
            if tally is None:  # the page was rendered without the ladder's runs
                return LadderAnswer(pd.DataFrame(), [], "", solo=True)
            answer = score_ladder(tally)
        else:
            by_rung = {}
            for r in runs.values():
                t = r.tallies.get(self.key)
                if t is not None:
                    by_rung.setdefault(t.rung, t)
            rungs = self.rungs()
            answer = ladder([by_rung[k].answer(rungs[k].focal, rungs[k].field)
                             for k in sorted(by_rung)])
        return answer

    def tables(self, answer: LadderAnswer) -> dict[str, pd.DataFrame]:
        return {"ladder": answer.table} if len(answer.table) else {}

    def write(self, page, answer: LadderAnswer) -> None:
        page.heading("Skill and luck: each policy against the next weaker one")
        t = answer.table
        if not len(t):
            page.paragraph("The skill ladder's runs were not played for this page.", css="note")
            return
        if answer.solo:
            rows = pd.DataFrame([
                {"label": f"{r['stronger']} vs {r['weaker']}: {part}",
                 "estimate": r[f"{part}_share"], "low": r[f"{part}_low"],
                 "high": r[f"{part}_high"], "group": part}
                for _, r in t.iterrows() for part in ("deal", "policy", "rest")])
            page.figure(figures.interval_dots(
                rows, "What a score's variance comes from, per rung", "share of variance",
                percent=True),
                alt="share of score variance from the deal, the policy and the rest per rung",
                caption="Dots: share of the variance of a game's score due to the deal, the "
                        "choice of policy, and the rest; whiskers: 95% jackknife intervals.")
            page.table(pd.DataFrame({
                "rung": [f"{a} vs {b}" for a, b in zip(t["stronger"], t["weaker"],
                                                        strict=True)],
                "deals": t["games"],
                f"score lead, {self.unit} [95% CI]": [
                    f"{a:+.1f} [{b:+.1f}, {c:+.1f}]" for a, b, c in
                    t[["lead", "lead_low", "lead_high"]].itertuples(index=False)],
                "upset % [95% CI]": [percent_interval(*x) for x in
                                     t[["upset", "upset_low", "upset_high"]].itertuples(
                                         index=False)],
                "deal's share of variance": [percent_interval(*x) for x in
                                             t[["deal_share", "deal_low", "deal_high"]]
                                             .itertuples(index=False)],
                "policy's share": [percent_interval(*x) for x in
                                   t[["policy_share", "policy_low", "policy_high"]]
                                   .itertuples(index=False)]}),
                caption="Each policy against the next weaker one on the same deals")
        else:
            rows = pd.DataFrame([{"label": f"{r['stronger']} among {r['weaker']}",
                                  "estimate": r["share"], "low": r["low"], "high": r["high"]}
                                 for _, r in t.iterrows()])
            page.figure(figures.interval_dots(
                rows, f"Win share of one stronger player among weaker ones, {self.players} "
                      "players", "win share", reference=1 / self.players, percent=True),
                alt="win share of the stronger policy per rung of the ladder",
                caption="Dots: the stronger policy's win share (one seat among the weaker, "
                        "rotated); whiskers: 95% intervals clustered by deal; dashed: an "
                        "equal player's share 1/P.")
            page.table(pd.DataFrame({
                "rung": [f"{a} among {b}" for a, b in zip(t["stronger"], t["weaker"],
                                                           strict=True)],
                "games": t["games"],
                "stronger wins % [95% CI]": [percent_interval(*x) for x in
                                             t[["share", "low", "high"]].itertuples(
                                                 index=False)],
                "upset % [95% CI]": [percent_interval(*x) for x in
                                     t[["upset", "upset_low", "upset_high"]].itertuples(
                                         index=False)],
                "luck index [95% CI]": [f"{a:.2f} [{b:.2f}, {c:.2f}]" for a, b, c in
                                        t[["luck", "luck_low", "luck_high"]].itertuples(
                                            index=False)],
                "reading": t["reading"]}),
                caption=f"Each policy against the next weaker one at {self.players} players "
                        "(luck index: 1 = no better than an equal player, 0 = always wins)")
        page.bullets(answer.sentences, css="answer")

    def methods(self, answer: LadderAnswer) -> list[str]:
        return [answer.method] if answer.method else []
