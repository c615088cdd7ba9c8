"""The analyses: each turns Results into tidy tables, and is registered here by name.

``ANALYSES`` maps a name to an :class:`Analysis` (where the function lives,
a one-line description, the games it applies to). The report's sections
(``reports.sections``) are keyed by these names and call the functions
through here. Functions are imported only when used, which keeps listing
cheap; a new analysis adds one entry to ``_REGISTRY``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from engines._rules import closest
from simulate.errors import UserError


@dataclass(frozen=True)
class Analysis:
    """One registered analysis: its name, ``module:function`` and a one-line description."""

    name: str
    target: str
    description: str
    games: tuple[str, ...] = ()  # the games it applies to; () means any game

    @property
    def function(self) -> Callable:
        module, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module), attr)

    def applies_to(self, game: str) -> bool:
        return not self.games or game in self.games


_REGISTRY = (
    Analysis("thresholds", "analyses.thresholds:thresholds",
             "Rum Runner score bands: share of games per printed band with intervals, the "
             "percentile of each printed edge, and the edges that give a target split",
             games=("rum-runner",)),
    Analysis("seats", "analyses.seats:seat_advantage",
             "seat (turn-order) advantage: win share per seat with intervals, the gap from 1/P, "
             "a chi-square test of equal seats and a verdict within a margin"),
    Analysis("variants", "analyses.variants:compare",
             "rule variants against the base rules on the same games: game length, capped "
             "games, seat shares, first-player edge and score spread, as paired differences"),
    Analysis("matchup", "analyses.matchup:matchup",
             "head to head: one seat of a focal policy among seats of a field policy, rotated "
             "through every seat: pooled win share against 1/P, score lead, a verdict"),
    Analysis("scores", "analyses.scores:winners_and_others",
             "final scores of the winners and of the others, the winner's lead over the "
             "runner-up, tied top scores and game length"),
    Analysis("composition", "analyses.composition:composition",
             "where the points come from: mean score per category for a player and for the "
             "winner, with intervals, and each category's share of the total",
             games=("rum-and-pirates",)),
    Analysis("events", "analyses.events:event_rates",
             "how often things happen: per-game rates of counted events and shares of events, "
             "with intervals over games"),
)

ANALYSES: dict[str, Analysis] = {a.name: a for a in _REGISTRY}


def get_analysis(name: str) -> Analysis:
    """The registered analysis ``name`` (UserError with a suggestion if unknown)."""
    if name not in ANALYSES:
        raise UserError(f"unknown analysis '{name}'" + closest(name, list(ANALYSES))
                        + f"; analyses: {', '.join(ANALYSES)}")
    return ANALYSES[name]


__all__ = ["ANALYSES", "Analysis", "get_analysis"]
