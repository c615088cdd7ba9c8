"""The strength ladder of a multi-player game: the seat answer at every level of skill, on the same deals.

Rungs run from random up (the spec's heuristics, the trained expert, search over the
expert, search with a doubled budget). One lockstep run plays every deal (game index)
in every *seating* at once (``seatings``):

* each rung in every seat (its *self-play*): every seat's win share and edge, the
  first player's edge (by turn-order place where the game declares a turn order, as
  Montego Bay's rail), and the game's seat views;
* each rung against the rung below: one seat of it among P-1 seats of the one below,
  rotated through every seat (``analyses.matchup``): its head to head, the ladder's
  order check (``analyses.ladder``) and one rating per policy (``analyses.ratings``).

The *skilled-play* answer is the top rung's seat answer, and whether it has converged
is the top two rungs' edges of every seat (or turn-order place) compared on the same
deals, with the top rung shown stronger than the one below (``analyses.convergence``). Nothing keeps rows: each block of deals is tallied as it
finishes, so memory is flat in the number of deals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyses import convergence, ratings
from analyses.deals import DealDifferences
from analyses.ladder import LadderAnswer, ladder, verify_differences
from analyses.matchup import STRONGER, MatchupTally, _Moments, rotations
from analyses.seats import DEFAULT_MARGIN, LevelTally, SeatAnswer, SeatParts, SeatTally
from analyses.stats import CONFIDENCE
from simulate.codec import storable

# Deals a block of a ladder run with a slow (search) rung holds, on every path that plays a
# ladder (rumsim ladder, the pages' section, make evidence): one grid of blocks, so each can
# take the others' stored blocks (simulate.store keys a block by its game range). A block's
# tally does not grow with its deals, so larger blocks make a smaller store (about 25 KB a
# block); 256 deals of the slowest ladder take about half a minute on 2 cores. A ladder of
# fast rungs keeps the runner's default (thousands of deals a block).
LADDER_BLOCK = 256


def ladder_block(info, rungs: Sequence[str]) -> int | None:
    """The block size of a ladder of ``rungs`` (None: the runner's default)."""
    return LADDER_BLOCK if any(info.policy(r).spec.slow for r in rungs) else None


def seatings(rungs: Sequence[str], players: int, heads: bool = True) -> list[tuple[str, ...]]:
    """Every seating the ladder plays on each deal: each rung in every seat, then (with
    ``heads``) each rung k >= 1 in one seat among rung k - 1, the seat rotated (the order
    ``StrengthTally.add`` reads the frames in)."""
    own = [(r,) * players for r in rungs]
    pairs = [tuple(s.split(",")) for k in range(1, len(rungs))
             for s in rotations(rungs[k], rungs[k - 1], players).values()] if heads else []
    return own + pairs


def strength_ladder(tally, *args, **kwargs):
    """The ladder's answer from its tally (a multi-player :class:`StrengthTally`, or a solo
    ``analyses.solo_ladder.SoloLadderTally``, which takes the rules first)."""
    return tally.answer(*args, **kwargs)


@storable
class StrengthTally:
    """What the ladder's answer needs, fed one block of deals at a time: ``add(frames)``
    with one frame per seating of :func:`seatings`, all of the same game indices. Without
    ``heads`` only the self-play seatings: the seat answer per rung and the convergence
    verdict, no head to heads and no ratings (a page's other player counts)."""

    def __init__(self, rungs: Sequence[str], players: int, views: dict[str, str] | None = None,
                 place_pattern: str | None = None, heads: bool = True):
        self.rungs, self.players = tuple(rungs), players
        if len(self.rungs) < 2:
            raise ValueError("a ladder needs two or more rungs")
        if players < 2:
            raise ValueError("the strength ladder of seats needs two or more players")
        self.views = dict(views or {})
        self.parts = SeatParts(players, tuple(self.views.items()), place_pattern)
        self.by_seat = [SeatTally(players, self.views) for _ in self.rungs]
        self.by_place = ([SeatTally(players) for _ in self.rungs]
                         if place_pattern is not None else None)
        self.heads = [MatchupTally(players) for _ in self.rungs[1:]] if heads else []
        # per rung k >= 1 and seat (or turn-order place) s: per deal, s's win under rung k
        # minus under rung k - 1 (s = 0 is the first player's change)
        self.changes = [[DealDifferences(0.0) for _ in range(players)]
                        for _ in self.rungs[1:]]

    @property
    def arms(self) -> int:
        return len(self.rungs) + self.players * len(self.heads)

    def add(self, frames) -> StrengthTally:
        frames = list(frames)
        if len(frames) != self.arms:
            raise ValueError(f"need one frame per seating ({self.arms}), got {len(frames)}")
        game = frames[0]["game"].to_numpy()
        if not all(np.array_equal(game, f["game"].to_numpy()) for f in frames):
            raise ValueError("the ladder's frames must hold the same deals, in order")
        wins = []
        for k in range(len(self.rungs)):
            by_seat, by_place = self.parts(frames[k])
            self.by_seat[k].merge(by_seat)
            if by_place is not None:
                self.by_place[k].merge(by_place)
            wins.append(self._unit_wins(frames[k]))
        for k in range(1, len(self.rungs)):
            change = convergence.seat_changes(wins[k], wins[k - 1])
            for s, tally in enumerate(self.changes[k - 1]):
                tally.add(change[:, s])
            if self.heads:
                at = len(self.rungs) + (k - 1) * self.players
                self.heads[k - 1].add(frames[at:at + self.players])
        return self

    def merge(self, other: StrengthTally) -> StrengthTally:
        """Add a tally of the same ladder over other deals (a block's, :class:`StrengthParts`):
        the same answer as one tally fed both, exactly where its sums are exact (the head to
        heads and the changes), else to floating-point rounding (the seat sums, which hold
        whole wins and split ties)."""
        if (other.rungs, other.players, other.views, other.parts.place_pattern,
                len(other.heads)) != (self.rungs, self.players, self.views,
                                      self.parts.place_pattern, len(self.heads)):
            raise ValueError("cannot merge tallies of other ladders")
        for mine, theirs in zip(self.by_seat, other.by_seat, strict=True):
            mine.merge(theirs)
        if self.by_place is not None:
            for mine, theirs in zip(self.by_place, other.by_place, strict=True):
                mine.merge(theirs)
        for mine, theirs in zip([*self.heads, *(c for cs in self.changes for c in cs)],
                                [*other.heads, *(c for cs in other.changes for c in cs)],
                                strict=True):
            mine.merge(theirs)
        return self

    def _unit_wins(self, frame: pd.DataFrame) -> np.ndarray:
        """Each game's win of each seat (deals x seats), or, where the game declares a turn
        order (``place_pattern``), of the player at each turn-order place, first to last."""
        wins = np.column_stack([frame[f"win_{s}"].to_numpy(dtype=float)
                                for s in range(self.players)])
        pattern = self.parts.place_pattern
        if pattern is None:
            return wins
        key = np.column_stack([frame[pattern.format(seat=s)].to_numpy()
                               for s in range(self.players)])
        return np.take_along_axis(wins, np.argsort(key, axis=1, kind="stable"), axis=1)

    @property
    def deals(self) -> int:
        return self.by_seat[0].n

    def unit_names(self) -> list[str]:
        """What each change is of: 'seat 0', ... or 'place 1', ... (turn order)."""
        if self.parts.place_pattern is None:
            return [f"seat {s}" for s in range(self.players)]
        return [f"place {s + 1}" for s in range(self.players)]

    def answer(self, margin: float = DEFAULT_MARGIN,
               converge_margin: float = convergence.MARGIN,
               confidence: float = CONFIDENCE) -> StrengthAnswer:
        if self.deals == 0:
            raise ValueError("no deals to analyse")
        unit = "seat" if self.by_place is None else "place"
        first_number = 0 if self.by_place is None else 1
        seats = [t.answer(margin) for t in self.by_seat]
        places = ([t.answer(margin, unit=unit, first_number=first_number)
                   for t in self.by_place] if self.by_place is not None else None)
        heads = [h.answer(self.rungs[k + 1], self.rungs[k], confidence)
                 for k, h in enumerate(self.heads)]
        chain = (ratings.Ratings(self.rungs, self.players,
                                 lambda k, level: self.heads[k].share(level), confidence)
                 if self.heads else None)
        stronger = heads[-1].verdict == STRONGER if heads else None
        verdict = convergence.verdict_every(self.changes[-1], self.unit_names(),
                                            self.rungs[-1], self.rungs[-2], converge_margin,
                                            confidence, stronger)
        changes = [c[0].interval(confidence) for c in self.changes]
        # every step up the ladder, judged as the top step is (without the strength check):
        # where a fixed player's answer and the search's over it part
        steps = [convergence.verdict_every(c, self.unit_names(), self.rungs[k + 1],
                                           self.rungs[k], converge_margin, confidence)
                 for k, c in enumerate(self.changes)]
        return StrengthAnswer(self.rungs, self.players, self.deals, seats, places,
                              ladder(heads), chain.table() if chain else None, chain, changes,
                              verdict, steps)


@storable
@dataclass(frozen=True)
class StrengthParts:
    """One block's :class:`StrengthTally`, made where the block is played (a run's ``part``
    over the frames of :func:`seatings`); the run merges them in block order
    (``on_part=tally.merge``), and the run store keeps them (``simulate.store``). Data
    only: the ladder's rungs (labels), players, seat views as (name, column pattern) pairs,
    the turn-order column pattern, and whether the head to heads are played."""

    rungs: tuple[str, ...]
    players: int
    views: tuple[tuple[str, str], ...] = ()
    place_pattern: str | None = None
    heads: bool = True

    # The version of what the run store keeps of a block (bump it when what
    # ``StrengthTally`` keeps changes). A class attribute, not a field.
    store_version = 2   # 2: every seat's change between rungs, not the first player's only

    @classmethod
    def of(cls, rungs: Sequence[str], players: int, views: dict[str, str] | None = None,
           place_pattern: str | None = None, heads: bool = True) -> StrengthParts:
        """The part of the ladder a :class:`StrengthTally` of the same arguments tallies."""
        return cls(tuple(rungs), int(players), tuple((views or {}).items()), place_pattern,
                   bool(heads))

    def tally(self) -> StrengthTally:
        """An empty tally of this ladder (what the run's blocks are merged into)."""
        return StrengthTally(self.rungs, self.players, dict(self.views), self.place_pattern,
                             self.heads)

    def __call__(self, frames) -> StrengthTally:
        return self.tally().add(frames)

    def verify(self, result, games: int) -> None:
        """Refuse a stored block that cannot be this ladder's tally of ``games`` deals."""
        if type(result) is not StrengthTally:
            raise ValueError("not a strength ladder tally")
        k, p = len(self.rungs), self.players
        if (result.rungs, result.players) != (self.rungs, p) \
                or result.views != dict(self.views):
            raise ValueError("a tally of another ladder (rungs, players or seat views)")
        if not isinstance(result.parts, SeatParts) or result.parts != SeatParts(
                p, self.views, self.place_pattern):
            raise ValueError("a tally of another ladder (its seat parts)")
        by_place = result.by_place
        if not isinstance(result.by_seat, list) or len(result.by_seat) != k \
                or (by_place is None) != (self.place_pattern is None) \
                or (by_place is not None and (not isinstance(by_place, list)
                                              or len(by_place) != k)):
            raise ValueError("not one seat tally per rung")
        for r in range(k):
            result.parts.verify((result.by_seat[r], None if by_place is None else by_place[r]),
                                games)
            _verify_views(result.by_seat[r], self.views, p, games)
        heads = k - 1 if self.heads else 0
        if not isinstance(result.heads, list) or len(result.heads) != heads:
            raise ValueError("not one head to head per rung above the first")
        for h in result.heads:
            _verify_matchup(h, p, games)
        if not isinstance(result.changes, list) or len(result.changes) != k - 1 \
                or any(not isinstance(c, list) or len(c) != p for c in result.changes):
            raise ValueError("not one change per seat and rung above the first")
        for changes in result.changes:
            for c in changes:
                verify_differences(c, 0.0, games)


def _verify_views(tally: SeatTally, views: tuple[tuple[str, str], ...], players: int,
                  games: int) -> None:
    if tally.sequences != {} or tally.plan is not None:
        raise ValueError("a sequential seat tally (the ladder keeps none)")
    if not isinstance(tally.by_view, dict) or set(tally.by_view) != {n for n, _ in views}:
        raise ValueError("its seat views are not this ladder's")
    for level in tally.by_view.values():
        if type(level) is not LevelTally or not isinstance(level.k, int) or level.k < 0:
            raise ValueError("a seat view that is not a tally of levels")
        vectors = (level.count, level.wins, level.squares)
        squares = tuple(level.cross.get(key) for key in ("ww", "wn", "nn"))
        if any(not isinstance(a, np.ndarray) or a.shape != (level.k,) for a in vectors) \
                or set(level.cross) != {"ww", "wn", "nn"} \
                or any(not isinstance(a, np.ndarray) or a.shape != (level.k, level.k)
                       for a in squares):
            raise ValueError("a seat view's arrays are not one per level")
        if games and abs(level.count.sum() - games * players) > 1e-9:
            raise ValueError(f"a seat view counts other than {games} deals")


def _verify_matchup(m, players: int, games: int) -> None:
    if type(m) is not MatchupTally or m.players != players or m.by_deal is not True:
        raise ValueError("not a head to head of this player count, paired by deal")
    if not isinstance(m.wins, list) or not isinstance(m.leads, list) \
            or len(m.wins) != players or len(m.leads) != players:
        raise ValueError("not one tally per focal seat")
    counted = [(s, games) for s in (*m.wins, *m.leads)]
    counted += [(m.pooled_wins, players * games), (m.pooled_leads, players * games)]
    for moments, n in counted:
        if type(moments) is not _Moments or moments.n != n \
                or type(moments._total) is not int or type(moments._squares) is not int:
            raise ValueError(f"a head to head that counts other than {games} deals")
    verify_differences(m.deal_wins, 1.0 / players, games)
    verify_differences(m.deal_leads, 0.0, games)


@dataclass
class StrengthAnswer:
    """Per rung: its seat answer (``first``: by turn-order place where the game has one,
    else by seat), its head to head over the rung below, its rating; and the verdict on
    whether the top rung's first-player answer has converged."""

    rungs: tuple[str, ...]
    players: int
    deals: int
    seats: list[SeatAnswer]
    places: list[SeatAnswer] | None
    heads: LadderAnswer  # empty when played without head to heads
    ratings: list[ratings.Rating] | None
    chain: ratings.Ratings | None
    changes: list  # per rung k >= 1: the first player's edge under k minus under k - 1
    converged: convergence.Convergence
    # per rung k >= 1: the every-seat verdict on the step from rung k - 1 to rung k
    steps: list = field(default_factory=list)

    @property
    def first(self) -> list[SeatAnswer]:
        return self.places if self.places is not None else self.seats

    def table(self) -> pd.DataFrame:
        """One row per rung: rating, step, head to head, the first player's edge, its
        verdict and its change from the rung below."""
        rows = []
        for k, rung in enumerate(self.rungs):
            first = self.first[k]
            edge = first.headline
            row = {"rung": k, "policy": rung, "players": self.players, "deals": self.deals,
                   "first_edge": edge.estimate, "first_edge_low": edge.low,
                   "first_edge_high": edge.high, "seat_verdict": first.verdict}
            if self.ratings is not None:
                r = self.ratings[k].rating
                row.update({"rating": r.estimate, "rating_low": r.low, "rating_high": r.high})
            if k:
                c = self.changes[k - 1]
                row.update({"edge_change": c.estimate, "edge_change_low": c.low,
                            "edge_change_high": c.high})
            if k and self.ratings is not None:
                h, r = self.heads.table.iloc[k - 1], self.ratings[k].step
                row.update({"step": r.estimate, "step_low": r.low, "step_high": r.high,
                            "head_share": h["share"], "head_low": h["low"],
                            "head_high": h["high"], "head_verdict": h["verdict"],
                            "order_wrong": h["p_weaker_holm"] < (1 - CONFIDENCE) / 2})
            rows.append(row)
        return pd.DataFrame(rows)

    def seat_edges(self) -> pd.DataFrame:
        """Every seat's (and place's) edge at every rung, long form."""
        rows = []
        for k, rung in enumerate(self.rungs):
            for kind, answers in (("seat", self.seats), ("place", self.places)):
                if answers is None:
                    continue
                for _, s in answers[k].table.iterrows():
                    rows.append({"rung": k, "policy": rung, "by": kind,
                                 "index": int(s["seat"]) + answers[k].first_number,
                                 "share": s["share"], "edge": s["gap"],
                                 "edge_low": s["gap_low"], "edge_high": s["gap_high"]})
        return pd.DataFrame(rows)

    def skilled_sentence(self, reference: str | None = None) -> str:
        """The skilled-play answer in one sentence: the top rung's first-player edge, its
        rating over ``reference`` (default: the rung the spec's heuristic holds, the second)
        and the convergence verdict."""
        top = len(self.rungs) - 1
        ref = self.rungs.index(reference) if reference in self.rungs else min(1, top)
        rated = ""
        if self.chain is not None:
            gap = self.chain.gap(ref, top)
            rated = (f", rated {_elo(gap)} above {self.rungs[ref]}")
        first = self.first[top]
        e = first.headline
        who = ("the first player in turn order" if self.places is not None
               else "seat 0 (first in turn order)")
        state = self.converged.state
        return (f"Among skilled players at {self.players} players ({self.rungs[top]}{rated}), "
                f"{who} wins "
                f"{100 * (e.estimate + 1 / self.players):.1f}% of games, an edge of "
                f"{100 * e.estimate:+.1f} pp [{100 * e.low:+.1f}, {100 * e.high:+.1f}] "
                f"({first.verdict} within ±{100 * first.margin:g} pp); {state} (the edge "
                f"under {self.rungs[top]} against under {self.rungs[top - 1]}).")

    def method(self) -> str:
        return " ".join([
            "Strength ladder: every rung plays the same deals (game indices of one seed) in "
            "every seat, and one seat of it among the rung below, rotated through every "
            "seat. Edges: win share minus 1/P per seat (or turn-order place), Wilson on the "
            "tie-adjusted effective size; seat verdicts as `rumsim seats` (equivalence "
            "within the margin, Bonferroni over seats).",
            *([self.heads.method, ratings.method_text(self.players)] if self.chain else []),
            convergence.method_text(self.converged.margin)])

    def to_json(self) -> dict:
        return {"rungs": list(self.rungs), "players": self.players, "deals": self.deals,
                "table": self.table().to_dict(orient="records"),
                "seat_edges": self.seat_edges().to_dict(orient="records"),
                "head_to_head": self.heads.table.to_dict(orient="records"),
                "convergence": self.converged.to_json(),
                "skilled_play": self.skilled_sentence(), "method": self.method()}


def _elo(iv) -> str:
    """A rating gap in words where a bound is infinite (a rung that won every game)."""
    if not math.isfinite(iv.estimate):
        return "beyond what these games can rate"
    def b(x):
        return f"{x:+.0f}" if math.isfinite(x) else ("unbounded" if x > 0 else "unbounded below")
    return f"{iv.estimate:+.0f} [{b(iv.low)}, {b(iv.high)}] Elo"
