"""The head-to-head section: does one policy beat a field of another, seat for seat?

Presents the registered ``matchup`` analysis for the runs in which one seat
plays ``focal`` and every other seat ``field`` at ``players`` players, one
run per focal seat (:func:`plan` makes them): a figure of the focal
policy's win share per seat and pooled, a table, and the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analyses.matchup import MatchupAnswer, MatchupTally, rotations
from reports import figures
from reports._runs import RunSpec, scaled
from reports.sections import Section
from reports.words import percent_interval


def plan(info, preset: str, focal: str, field: str, players: int, games: int, seed: int,
         scale: float = 1.0, least: int = 2) -> list[RunSpec]:
    """One run per focal seat, ``games`` (scaled) split evenly between them."""
    each = scaled(max(1, games // players), scale, least)
    focal_label, field_label = info.policy(focal).label(), info.policy(field).label()
    return [RunSpec(preset, text, players, each, seed,
                    f"{preset}, {focal_label} in seat {seat} among {field_label}, "
                    f"{players} players")
            for seat, text in rotations(focal_label, field_label, players).items()]


def _matches(wanted: str, label: str) -> bool:
    return label == wanted if ":" in wanted else label.split(":")[0] == wanted


@dataclass(frozen=True)
class Matchup(Section):
    """One ``focal`` seat among ``field`` seats at ``players`` players, rotated."""

    focal: str
    field: str
    players: int
    heading: str = "Head to head: one {focal} seat among {field} seats"

    key = "matchup"

    def seat_of(self, meta: dict) -> int | None:
        """The focal seat of a rotation run, None for any other run. A policy named bare
        ('rollout') matches it with any parameters; one named with parameters
        ('greedy:reroll_can_win=1') only that label, so it can meet its own defaults."""
        labels = meta.get("policies", [])
        if int(meta["players"]) != self.players:
            return None
        wanted = rotations(self.focal, self.field, self.players)
        return next((s for s, t in wanted.items()
                     if len(labels) == self.players
                     and all(_matches(w, got) for w, got in zip(t.split(","), labels,
                                                                 strict=True))), None)

    def uses(self, meta: dict) -> str | None:
        return self.key if self.seat_of(meta) is not None else None

    def pairs(self, info, metas: list[dict]) -> list[tuple[list[int], MatchupTally]]:
        seats = {self.seat_of(m): i for i, m in enumerate(metas) if self.seat_of(m) is not None}
        if sorted(seats) != list(range(self.players)):
            return []
        return [([seats[s] for s in range(self.players)], MatchupTally(self.players))]

    def analyse(self, info, results) -> MatchupAnswer:
        from reports._runs import tallied

        self.function(info)  # refuses a game the analysis does not apply to
        runs = tallied(info, (self,), results)
        chosen = {self.seat_of(r.meta): r for r in runs.values()
                  if self.seat_of(r.meta) is not None}
        if sorted(chosen) != list(range(self.players)):
            raise ValueError(f"need one run per focal seat 0..{self.players - 1}, got "
                             f"{sorted(chosen)}")
        labels = {(r.meta["policies"][s], r.meta["policies"][(s + 1) % self.players])
                  for s, r in chosen.items()}
        if len(labels) != 1:
            raise ValueError(f"the {self.focal} runs differ in their policies: {labels}")
        (focal, field), = labels
        return chosen[0].tallies[self.key].answer(focal, field)

    def tables(self, answer: MatchupAnswer) -> dict[str, pd.DataFrame]:
        return {"matchup": answer.rows().assign(focal=answer.focal, field=answer.field,
                                        players=answer.players, fair=answer.fair)}

    def write(self, page, answer: MatchupAnswer) -> None:
        page.heading(self.heading.format(focal=answer.focal, field=answer.field))
        frame = self.tables(answer)["matchup"]
        shares = frame.assign(x=frame["seat"].astype(str), col=f"{answer.players} players")
        page.figure(figures.win_share_panels(
            shares, f"Win share of one {answer.focal} seat among {answer.field} seats"),
            alt=f"win share of the {answer.focal} seat per seat and pooled",
            caption="Points: the focal policy's win share when it sits in each seat, and over "
                    "all seats ('all'); whiskers: 95% intervals; dashed: the fair share 1/P.")
        page.table(pd.DataFrame({
            f"{answer.focal} seat": frame["seat"].astype(str),
            "games": frame["games"],
            "win share % [95% CI]": [percent_interval(*r) for r in
                                     frame[["share", "low", "high"]].itertuples(index=False)],
            "score lead [95% CI]": [f"{a:+.2f} [{b:+.2f}, {c:+.2f}]" for a, b, c in
                                    frame[["lead", "lead_low", "lead_high"]].itertuples(
                                        index=False)],
        }), caption=f"One {answer.focal} seat among {answer.field} seats: win share and score "
                    f"lead over the {answer.field} seats' mean, per seat and pooled")
        page.paragraph(answer.verdict_text[0].upper() + answer.verdict_text[1:] + ".")

    def methods(self, answer: MatchupAnswer) -> list[str]:
        return [answer.method]
