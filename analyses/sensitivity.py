"""Does a conclusion survive a change of player? Seat answers and variant effects across policies.

A seat answer (``analyses.seats``) or a rule variant's effect on the first
player's edge is measured under one policy in every seat; it may be a
property of how that policy plays rather than of the seat or the rule. This
module compares the same question answered under several policies (from
weakest to strongest, as the page declares them) and says in one sentence
whether the conclusion holds across them:

- :func:`seat_sensitivity`: per player count, the first player's edge under
  each policy (ahead / behind / no edge the interval can show), the seat
  verdict and the weakest seat; the conclusion *holds* when every policy
  gives the same direction and the same weakest seat (where it is clear).
- :class:`EdgeShiftTally`: per policy, the paired change in the first
  player's win share that each variant makes on the same games (common
  random numbers: the variant and the base rules play the same game
  indices), with a Student-t interval over games; :func:`edge_shifts`
  words whether each variant's effect has the same sign under every policy.

Directions come from 95% intervals; "no edge shown" is absence of evidence,
and is worded so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats as _st

from analyses.stats import CONFIDENCE, Interval, mean_interval_from_moments

AHEAD, BEHIND, NONE = "ahead", "behind", "no edge shown"


def direction(iv: Interval) -> str:
    """'ahead' when the interval is wholly above 0, 'behind' when wholly below, else none."""
    if iv.low > 0:
        return AHEAD
    if iv.high < 0:
        return BEHIND
    return NONE


def _pp(iv: Interval) -> str:
    return f"{100 * iv.estimate:+.2f} pp [{100 * iv.low:+.2f}, {100 * iv.high:+.2f}]"


@dataclass(frozen=True)
class SeatView:
    """One policy's seat answer at one player count, as the sensitivity reads it."""

    policy: str
    players: int
    games: int
    edge: Interval        # the first player's gap from the fair share
    verdict: str          # balanced | unbalanced | undetermined
    weakest: int          # the seat with the smallest share
    weakest_clear: bool   # its simultaneous interval lies wholly below the fair share


def seat_view(policy: str, answer) -> SeatView:
    """A :class:`SeatView` of an ``analyses.seats.SeatAnswer``."""
    t = answer.table
    k = int(t["share"].to_numpy().argmin())
    return SeatView(policy, answer.players, answer.games, answer.headline, answer.verdict,
                    int(t["seat"].iloc[k]) if "seat" in t else k,
                    bool(t["sim_high"].iloc[k] < 0))


@dataclass(frozen=True)
class SeatSensitivity:
    """Whether one player count's seat conclusion holds across the policies, and the words."""

    players: int
    views: tuple[SeatView, ...]
    holds: bool
    sentence: str
    state: str = "holds"  # holds | depends (shown to change) | unshown (directions differ only
    #                       in what the intervals can show)

    def rows(self) -> list[dict]:
        return [{"players": self.players, "policy": v.policy, "games": v.games,
                 "edge": v.edge.estimate, "low": v.edge.low, "high": v.edge.high,
                 "direction": direction(v.edge), "verdict": v.verdict,
                 "weakest_seat": v.weakest, "weakest_clear": v.weakest_clear,
                 "holds": self.holds, "state": self.state} for v in self.views]


def differ(a: Interval, b: Interval, alpha: float) -> bool:
    """Whether two estimates differ at level ``alpha`` (two-sided z test on their difference,
    standard errors read off their 95% intervals). Runs that share deals are positively
    correlated, so treating them as independent overstates the difference's variance: the
    test is conservative."""
    z95 = 1.959963984540054
    se = math.hypot((a.high - a.low) / (2 * z95), (b.high - b.low) / (2 * z95))
    if not (se > 0 and math.isfinite(se)):
        return False
    return abs(a.estimate - b.estimate) / se > float(_st.norm.ppf(1 - alpha / 2))


def _differing(items: Sequence[tuple[str, Interval]]) -> list[tuple[str, str]]:
    """The pairs of policies whose estimates differ, Bonferroni over all pairs at 5%."""
    pairs = list(combinations(items, 2))
    alpha = 0.05 / max(len(pairs), 1)
    return [(a, b) for (a, x), (b, y) in pairs if differ(x, y, alpha)]


def seat_sensitivity(views: Sequence[SeatView], first: str = "the first player",
                     seat_word: str = "seat") -> SeatSensitivity:
    """One player count's seat answers under several policies, in one sentence.

    The conclusion *holds* when the first player's direction (ahead / behind /
    no edge shown) is the same under every policy, no two policies' edges
    differ (z test, Bonferroni over the pairs, family-wise 5%) and no two
    policies clearly name different weakest seats. It *depends on the
    players* when two edges differ significantly or the clearly weakest seat
    moves; otherwise the directions differ only in what the intervals can
    show, and the sentence says so (absence of evidence is not evidence).
    """
    views = tuple(views)
    players = views[0].players
    dirs = [direction(v.edge) for v in views]
    clear = {v.weakest for v in views if v.weakest_clear}
    differs = _differing([(v.policy, v.edge) for v in views])
    holds = len(set(dirs)) == 1 and not differs and len(clear) <= 1
    each = "; ".join(f"{v.policy} {_pp(v.edge)} ({v.games:,} games, {v.verdict})"
                     for v in views)
    names = [v.policy for v in views]
    by = {}
    for v, d in zip(views, dirs, strict=True):
        by.setdefault(d, []).append(v.policy)
    if holds:
        what = {AHEAD: f"{first} is ahead", BEHIND: f"{first} is behind",
                NONE: f"no policy shows {first} ahead or behind (not evidence of no edge)"}[
                    dirs[0]]
        text = (f"At {players} players the seat conclusion holds across "
                f"{_join(names)}: {what} under every one ({each})")
        if clear:
            text += f"; the weakest {seat_word} is {seat_word} {clear.pop()} wherever it is clear"
    elif differs or len(clear) > 1:
        parts = []
        if differs:
            parts.append("the edge under " + "; under ".join(f"{a} differs from under {b}"
                                                           for a, b in differs))
        if len(clear) > 1:
            parts.append(f"the clearly weakest {seat_word} moves (" + ", ".join(
                f"{seat_word} {v.weakest} under {v.policy}" for v in views if v.weakest_clear)
                + ")")
        text = (f"At {players} players the seat conclusion depends on the players: "
                + " and ".join(parts) + f" ({each}): the seat's edge is a property of how the "
                "players play, not of the seat alone")
    else:
        shown = [f"{first} is {d} under {_join(p)}" for d, p in by.items() if d != NONE]
        text = (f"At {players} players " + " and ".join(shown) + "; under "
                + _join(by.get(NONE, [])) + " no edge is shown, but no policy's edge differs "
                f"significantly from another's, so this is not evidence that the answer "
                f"changes with the players ({each})")
    state = "holds" if holds else "depends" if differs or len(clear) > 1 else "unshown"
    return SeatSensitivity(players, views, holds, text + ".", state)


def _join(words: Sequence[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class EdgeShiftTally:
    """Per variant, the paired change in the first player's win share on the same games.

    Fed a block at a time with ``add(frames)``: the base run's frame first, then
    each variant's, all of the same game indices (a lockstep block). The first
    player is seat 0, or the seat in column ``first_seat`` of each row (e.g.
    Montego Bay's ``first_rail_seat``). Keeps the count, sum and sum of squares
    of each variant's per-game difference; ``merge`` adds other games.
    """

    def __init__(self, variants: Sequence[str], first_seat: str | None = None):
        self.variants = tuple(variants)
        self.first_seat = first_seat
        self.n = 0
        self.sums = np.zeros(len(self.variants))
        self.squares = np.zeros(len(self.variants))
        self.base_sum = 0.0

    def _first_win(self, frame: pd.DataFrame) -> np.ndarray:
        if self.first_seat is None:
            return frame["win_0"].to_numpy(dtype=float)
        seats = frame[self.first_seat].to_numpy(dtype=np.int64)
        players = int(frame["players"].iloc[0]) if "players" in frame else seats.max() + 1
        wins = frame[[f"win_{s}" for s in range(players)]].to_numpy(dtype=float)
        return wins[np.arange(len(frame)), seats]

    def add(self, frames) -> EdgeShiftTally:
        frames = list(frames)
        if len(frames) != len(self.variants) + 1:
            raise ValueError(f"need the base and {len(self.variants)} variant frames, got "
                             f"{len(frames)}")
        games = [f["game"].to_numpy() for f in frames if "game" in f]
        if len(games) == len(frames) and not all(np.array_equal(games[0], g) for g in games):
            raise ValueError("the variant frames must hold the base run's games, in order")
        base = self._first_win(frames[0])
        self.n += base.size
        self.base_sum += float(base.sum())
        for k, f in enumerate(frames[1:]):
            d = self._first_win(f) - base
            self.sums[k] += float(d.sum())
            self.squares[k] += float((d * d).sum())
        return self

    def merge(self, other: EdgeShiftTally) -> EdgeShiftTally:
        if other.variants != self.variants:
            raise ValueError("cannot merge edge shifts of other variants")
        self.n += other.n
        self.base_sum += other.base_sum
        self.sums += other.sums
        self.squares += other.squares
        return self

    def shifts(self, confidence: float = CONFIDENCE) -> dict[str, Interval]:
        """Variant -> its change of the first player's win share (variant - base)."""
        return {v: mean_interval_from_moments(self.n, float(self.sums[k]),
                                              float(self.squares[k]), confidence)
                for k, v in enumerate(self.variants)}


def edge_shifts(by_policy: dict[str, dict[str, Interval]], games: dict[str, int],
                players: int) -> tuple[pd.DataFrame, list[str]]:
    """The tidy table (policy, variant, shift, low, high, direction) and one sentence per
    variant saying whether its effect on the first player's edge has the same direction
    under every policy."""
    rows, sentences = [], []
    policies = list(by_policy)
    variants = list(dict.fromkeys(v for s in by_policy.values() for v in s))
    for v in variants:
        shifts = {p: by_policy[p][v] for p in policies if v in by_policy[p]}
        for p, iv in shifts.items():
            rows.append({"players": players, "policy": p, "variant": v, "games": games[p],
                         "shift": iv.estimate, "low": iv.low, "high": iv.high,
                         "direction": {AHEAD: "raises", BEHIND: "lowers",
                                       NONE: "no change shown"}[direction(iv)]})
        dirs = {p: direction(iv) for p, iv in shifts.items()}
        each = "; ".join(f"{p} {_pp(iv)}" for p, iv in shifts.items())
        differs = _differing(list(shifts.items()))
        if differs:
            sentences.append(f"'{v}' moves the first player's win share differently by "
                             "policy (" + "; ".join(f"{a} differs from {b}" for a, b in differs)
                             + f"; {each}): its effect depends on how people play.")
        elif len(set(dirs.values())) == 1:
            d = next(iter(dirs.values()))
            what = {AHEAD: "raises the first player's win share under every policy",
                    BEHIND: "lowers the first player's win share under every policy",
                    NONE: "shows no change of the first player's win share under any policy "
                          "(not evidence of none)"}[d]
            sentences.append(f"'{v}' {what} ({each}).")
        else:
            moved = [p for p, d in dirs.items() if d != NONE]
            sentences.append(f"'{v}' changes the first player's win share under "
                             f"{_join(moved)} only; the other policies show no change, but no "
                             f"two differ significantly ({each}).")
    return pd.DataFrame(rows), sentences
