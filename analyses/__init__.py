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


# The game-feel metrics (analyses.feel): name, one-line definition, where it comes from.
FEEL_METRICS = (
    ("length", "game length in rounds (and turns): mean, median and 90th percentile",
     "Browne (2008) 'duration'; Ludii DurationTurns"),
    ("ties", "share of decided games whose top final standing is shared before the tie-break",
     "Browne (2008) 'uncertainty' at the end: shared wins"),
    ("margin", "the winner's final standing minus the best of the others', and the share of "
     "games decided by at most a declared margin", "Browne (2008) and Ludii 'decisiveness'"),
    ("lead_changes", "round ends whose sole leader differs from the last sole leader (shared "
     "tops skipped), per game and per round boundary",
     "Browne (2008) 'lead change'; Ludii LeadChange"),
    ("comebacks", "share of games won alone by a seat that was not the sole leader after "
     "round floor(R/2)", "Browne (2008) 'drama': a player behind who wins; Ludii Drama"),
)

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
    Analysis("compare", "analyses.compare:compare",
             "shorter-game variations among skilled players on the same games: how much "
             "shorter, the first player's edge before and after, what the game feel loses or "
             "gains, and whether a search player agrees (one Holm family of verdicts)",
             games=("rum-rebellion", "motines", "rum-and-pirates", "montego-bay")),
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
    Analysis("restrict", "analyses.restrict:play",
             "which choices matter: each declared choice forbidden to one seat among "
             "unrestricted seats on the same deals: its cost with an interval, how often it "
             "is taken, a verdict (dominant, useless, matters, overused) across all choices"),
    Analysis("strength", "analyses.strength:strength_ladder",
             "the strength ladder: every rung (random up to search over the expert) in every "
             "seat and against the rung below on the same deals: ratings, the seat answer per "
             "rung and whether the skilled-play answer converged (solo: scores and a ceiling)"),
    Analysis("sensitivity", "analyses.sensitivity:seat_sensitivity",
             "does a seat answer survive a change of player: the first player's edge under each "
             "policy, and whether the conclusion holds"),
    Analysis("variant_sensitivity", "analyses.sensitivity:edge_shifts",
             "does a rule variant's effect on the first player's win share hold under every "
             "policy: paired changes on the same games, per policy"),
    Analysis("ladder", "analyses.ladder:ladder",
             "skill and luck: each policy against the next weaker one on the same deals, seats "
             "rotated, the stronger one's win share (or score lead), and how much is luck"),
    Analysis("tune", "analyses.tune:tune",
             "rule tuning: every setting of the knobs raced on the same games toward the "
             "goals; the best setting with intervals, those not told apart, what it moves"),
    Analysis("feel", "analyses.feel:feel",
             "how the game feels: length, ties for first, the winner's margin, lead changes "
             "and comebacks, each with an interval (every feel.<metric> below)"),
    # One entry per game-feel metric, from its one declaration (FEEL_METRICS).
    *(Analysis(f"feel.{name}", f"analyses.feel:{name}", definition)
      for name, definition, _source in FEEL_METRICS),
)

ANALYSES: dict[str, Analysis] = {a.name: a for a in _REGISTRY}


def get_analysis(name: str) -> Analysis:
    """The registered analysis ``name`` (UserError with a suggestion if unknown)."""
    if name not in ANALYSES:
        raise UserError(f"unknown analysis '{name}'" + closest(name, list(ANALYSES))
                        + f"; analyses: {', '.join(ANALYSES)}")
    return ANALYSES[name]


__all__ = ["ANALYSES", "Analysis", "get_analysis"]
