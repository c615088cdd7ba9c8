"""The policy-sensitivity sections: do seat answers and variant effects survive better players?

:class:`Sensitivity` presents the registered ``sensitivity`` analysis: the
seat runs of the base rules under each of its policies (weakest first) at
every player count, with a figure of the first player's edge per policy and
a sentence per player count saying whether the conclusion holds.
:class:`VariantSensitivity` presents ``variant_sensitivity``: at one player
count, each variant's paired change of the first player's win share against
the base rules under every policy (the base and its variants play each block
in lockstep), with a figure, a table and a sentence per variant.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyses.sensitivity import (
    EdgeShiftTally,
    SeatSensitivity,
    edge_shifts,
    seat_sensitivity,
    seat_view,
)
from reports import figures
from reports.sections import Section, SettingsSection, policy_in, policy_of
from reports.sections.seats import SEAT, SeatRun


@dataclass
class SensitivityAnswer:
    """Per player count, whether the seat conclusion holds across the policies."""

    seats: list[SeatSensitivity]
    policies: tuple[str, ...]
    first: str = "the first player"

    @property
    def sentences(self) -> list[str]:
        return [s.sentence for s in self.seats]


@dataclass(frozen=True)
class Sensitivity(SettingsSection):
    """The first player's seat answer of the ``presets`` rules under each of ``policies``
    (weakest first), at every player count the runs cover, judged within ``margin``.

    ``first``: how the page calls the first player in turn order; ``note``:
    why these policies (e.g. a slow one at fewer games), shown on the page.
    """

    margin: float = 0.02
    first: str = "the first player"
    note: str = ""

    key = "sensitivity"

    def new_tally(self, info, meta: dict) -> SeatRun | None:
        if len(set(meta.get("policies", []))) != 1:  # every seat the same policy only
            return None
        return SeatRun(int(meta["players"]), {},
                       info.extra.get("turn_order", (SEAT, None))[1])

    def analyse(self, info, results) -> SensitivityAnswer:
        self.function(info)  # refuses a game the analysis does not apply to
        named = [(r, t) for r, t, _ in self.compared(info, results) if t is not None]
        views = {}
        for r, t in named:
            judged = t.by_place if t.by_place is not None else t.by_seat
            answer = judged.answer(self.margin, same_policy=True, meta=r.meta)
            name = policy_of(r.meta).split(":")[0]
            views.setdefault(int(r.meta["players"]), {})[name] = seat_view(name, answer)
        order = list(self.policies or dict.fromkeys(p for v in views.values() for p in v))
        seats = [seat_sensitivity([v[p] for p in order if p in v], self.first)
                 for _, v in sorted(views.items()) if len(v) > 1]
        return SensitivityAnswer(seats, tuple(order), self.first)

    def tables(self, answer: SensitivityAnswer) -> dict[str, pd.DataFrame]:
        if not answer.seats:
            return {}
        return {"sensitivity": pd.DataFrame([row for s in answer.seats for row in s.rows()])}

    def write(self, page, answer: SensitivityAnswer) -> None:
        page.heading("Does the seat answer survive a better player?")
        if not answer.seats:
            page.paragraph("This page was built without the seat runs of several policies.",
                           css="note")
            return
        if self.note:
            page.paragraph(self.note, css="note")
        rows = pd.DataFrame([{"label": f"{v.players} players, {v.policy}",
                              "estimate": v.edge.estimate, "low": v.edge.low,
                              "high": v.edge.high, "group": v.policy}
                             for s in answer.seats for v in s.views])
        if len(rows):
            page.figure(figures.interval_dots(
                rows, f"Edge of {self.first} (win share - 1/P) by policy", "edge",
                reference=0.0, percent=True),
                alt="first player's edge per player count and policy with intervals",
                caption="Dots: the edge; whiskers: 95% Wilson intervals (shifted by 1/P); "
                        "dashed: no edge.")
        page.bullets(answer.sentences, css="answer")

    def methods(self, answer: SensitivityAnswer) -> list[str]:
        return [f"Policy sensitivity of the seat answer: the same seat analysis (Wilson "
                f"intervals, verdict within ±{self.margin * 100:g} pp) under "
                f"{', '.join(answer.policies)} (weakest first); a conclusion holds when the "
                "first player's direction (95% interval wholly above 0, wholly below, or "
                "neither) is the same under every policy and no two policies clearly name "
                "different weakest seats (simultaneous intervals)."]


@dataclass
class VariantSensitivityAnswer:
    shifts: pd.DataFrame
    sentences: list[str]
    players: int


@dataclass(frozen=True)
class VariantSensitivity(Section):
    """Each of ``variants``' paired change of the first player's win share against ``base``
    at ``players`` players under each of ``policies`` (weakest first); ``first_seat``: the
    column naming the first player's seat when it is not seat 0."""

    policies: tuple[str, ...]
    base: str
    variants: tuple[str, ...]
    players: int
    first_seat: str | None = None

    key = "variant_sensitivity"

    def _arm(self, meta: dict) -> tuple[str, str] | None:
        """(policy, preset) of a run in the comparison, None for any other run."""
        if int(meta["players"]) != self.players or len(set(meta.get("policies", []))) != 1:
            return None
        if not policy_in(meta, self.policies) or meta["preset"] not in (self.base,
                                                                         *self.variants):
            return None
        return policy_of(meta).split(":")[0], meta["preset"]

    def uses(self, meta: dict) -> str | None:
        return self.key if self._arm(meta) is not None else None

    def pairs(self, info, metas: list[dict]) -> list[tuple[list[int], EdgeShiftTally]]:
        arms = {self._arm(m): i for i, m in enumerate(metas) if self._arm(m) is not None}
        out = []
        for policy in self.policies:
            wanted = [(policy, p) for p in (self.base, *self.variants)]
            if all(w in arms for w in wanted):
                tally = EdgeShiftTally(self.variants, self.first_seat)
                tally.policy = policy
                out.append(([arms[w] for w in wanted], tally))
        return out

    def analyse(self, info, results) -> VariantSensitivityAnswer:
        from reports._runs import tallied

        self.function(info)  # refuses a game the analysis does not apply to
        runs = tallied(info, (self,), results)
        by_policy, games = {}, {}
        for r in runs.values():
            t = r.tallies.get(self.key)
            if isinstance(t, EdgeShiftTally):
                if t.policy not in by_policy:
                    by_policy[t.policy], games[t.policy] = t.shifts(), t.n
        by_policy = {p: by_policy[p] for p in self.policies if p in by_policy}
        shifts, sentences = edge_shifts(by_policy, games, self.players)
        return VariantSensitivityAnswer(shifts, sentences, self.players)

    def tables(self, answer: VariantSensitivityAnswer) -> dict[str, pd.DataFrame]:
        return {"variant_sensitivity": answer.shifts} if len(answer.shifts) else {}

    def write(self, page, answer: VariantSensitivityAnswer) -> None:
        page.heading("Does each variation's effect survive a better player?")
        f = answer.shifts
        if not len(f):
            page.paragraph("This page was built without the variant runs of several policies.",
                           css="note")
            return
        page.figure(figures.interval_dots(
            f.assign(label=[f"{v}, {p}" for v, p in zip(f["variant"], f["policy"],
                                                          strict=True)],
                     estimate=f["shift"], group=f["policy"]),
            f"Change of the first player's win share by variation, {answer.players} players",
            "variation - base", reference=0.0, percent=True),
            alt="each variation's change of the first player's win share per policy",
            caption="Dots: paired change of the first player's win share (variation minus "
                    f"{self.base} rules, same games); whiskers: 95% intervals; dashed: no "
                    "change.")
        page.table(pd.DataFrame({
            "variant": f["variant"], "policy": f["policy"], "games": f["games"],
            "change, pp [95% CI]": [f"{100 * a:+.2f} [{100 * b:+.2f}, {100 * c:+.2f}]"
                                    for a, b, c in f[["shift", "low", "high"]].itertuples(
                                        index=False)],
            "reading": f["direction"]}),
            caption=f"Each variation against the {self.base} rules at {answer.players} players, "
                    "paired on the same games, under each policy")
        page.bullets(answer.sentences, css="answer")

    def methods(self, answer: VariantSensitivityAnswer) -> list[str]:
        return ["Policy sensitivity of each variation: per policy, the per-game change of the "
                "first player's win share (variation minus base) on the same game indices "
                "(common random numbers); Student-t interval over games. A variation's effect "
                "holds across policies when every interval points the same way (or none "
                "excludes 0)."]
