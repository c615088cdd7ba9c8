"""Head to head: does one policy beat a field of another, seat for seat?

One *focal* policy plays one seat among ``players - 1`` seats of a *field*
policy; the focal seat is rotated through every seat (a run per seat, the
same number of games each), so the seat's own advantage cancels out. For any
multi-player game's results:

* the focal policy's win share, pooled over the rotations, with a 95%
  interval, against the fair share 1/P, and per focal seat;
* its score lead: per game, the focal seat's score minus the mean of the
  field's scores, with a Student-t interval;
* a verdict at 95%: *stronger than the field* when the share's interval lies
  wholly above 1/P, *weaker* when wholly below, otherwise *not shown to
  differ* (an interval that holds 1/P does not show the two are equal).

When the rotations play the same game indices (as ``rumsim matchup`` and
the report pages plan them), they play the same deals (the world stream is
seeded from seed and game index), so a deal's P games are not independent.
The pooled share's interval is then clustered by deal: per game index, the
focal policy's mean win over its P seats, with an interval over the deals that
holds when only a few deals differ (``analyses.deals``: the deals' gains and
losses against 1/P, each mean by Hall's skewness-corrected t, combined by
MOVER; Student-t's interval when many differ). Since the win shares of one game
add up to 1, the same deal with the field in every seat gives each seat 1/P on
average, so this mean minus 1/P is a paired difference on common deals: when
focal and field rarely play differently (a small change to a policy), most
deals give exactly 1/P and the interval is far narrower than one that treats
the games as independent; when a deal favours the focal seat wherever it sits,
it is wider, as it must be. The score lead per deal (its mean over the
rotations, 0 when every rotation plays the deal alike) gets the same interval.
Without shared game indices (or a ``game`` column) the games are
independent and the interval is Wilson on the tie-adjusted effective sample
size (``share_interval``); with the same number of games per seat that
stratified sample's true variance is at most the pooled one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyses._text import text_table
from analyses.deals import DealDifferences, as_float, exact_sum
from analyses.stats import (
    CONFIDENCE,
    Interval,
    mean_interval_from_moments,
    share_interval_from_moments,
    wilson_interval,
)
from simulate.codec import storable

STRONGER, WEAKER, UNSHOWN = "stronger", "weaker", "not shown to differ"


def rotations(focal: str, field: str, players: int) -> dict[int, str]:
    """Focal seat -> the per-seat policy text of its run ('rollout,greedy,greedy')."""
    return {s: ",".join(focal if k == s else field for k in range(players))
            for s in range(players)}


@dataclass
class MatchupAnswer:
    """The head-to-head answer: pooled and per-seat shares, score lead, verdict."""

    players: int
    focal: str
    field: str
    games: int
    share: Interval            # pooled win share of the focal policy
    lead: Interval             # focal score minus the field's mean score, per game
    table: pd.DataFrame        # seat, games, share, low, high, lead, lead_low, lead_high
    verdict: str
    verdict_text: str
    method: str
    # One-sided p-value of "the focal share is at least 1/P": half the miss rate of the
    # widest interval (of this method) wholly below 1/P; 1 when the share is not below it.
    # A ladder adjusts these over its rungs before it says its order is wrong.
    p_below: float = math.nan

    @property
    def fair(self) -> float:
        return 1.0 / self.players

    @property
    def gap(self) -> Interval:
        f = self.fair
        return Interval(self.share.estimate - f, self.share.low - f, self.share.high - f)

    def rows(self) -> pd.DataFrame:
        """The per-seat rows and the pooled row ('all')."""
        pooled = {"seat": "all", "games": self.games, "share": self.share.estimate,
                  "low": self.share.low, "high": self.share.high, "lead": self.lead.estimate,
                  "lead_low": self.lead.low, "lead_high": self.lead.high}
        return pd.concat([self.table.astype({"seat": object}), pd.DataFrame([pooled])],
                         ignore_index=True)

    def to_csv(self) -> str:
        return self.rows().assign(focal=self.focal, field=self.field, players=self.players,
                                  fair=self.fair).to_csv(index=False)

    def render_text(self) -> str:
        rows = [[str(r["seat"]), f"{int(r['games']):,}", f"{r['share']:.2%}",
                 f"[{r['low']:.2%}, {r['high']:.2%}]", f"{r['lead']:+.2f}",
                 f"[{r['lead_low']:+.2f}, {r['lead_high']:+.2f}]"]
                for _, r in self.rows().iterrows()]
        return "\n".join([
            f"Head to head: one {self.focal} seat among {self.players - 1} {self.field} seats, "
            f"in every seat (fair share 1/{self.players} = {self.fair:.1%}; ties count 1/k)",
            text_table([f"{self.focal} seat", "games", "win share", "95% CI", "score lead",
                        "95% CI"], rows),
            "",
            f"Verdict: {self.verdict_text}.",
            f"Method: {self.method}"])

    def to_json(self) -> dict:
        return {"players": self.players, "focal": self.focal, "field": self.field,
                "games": self.games, "fair": self.fair,
                "share": self.share._asdict(), "lead": self.lead._asdict(),
                "seats": self.table.to_dict(orient="records"), "verdict": self.verdict,
                "verdict_text": self.verdict_text, "method": self.method,
                "p_below": self.p_below}


def _lead(frame: pd.DataFrame, seat: int, players: int) -> np.ndarray:
    scores = frame[[f"score_{s}" for s in range(players)]].to_numpy(dtype=float)
    field = np.delete(scores, seat, axis=1)
    return scores[:, seat] - field.mean(axis=1)


@storable
class _Moments:
    """Count, sum and sum of squares of a stream of values (exact sums, so the answer is
    the same whatever the blocks)."""

    def __init__(self):
        self.n, self._total, self._squares = 0, 0, 0

    def add(self, x: np.ndarray) -> None:
        self.n += x.size
        self._total += exact_sum(x)
        self._squares += exact_sum(x * x)

    def merge(self, other: _Moments) -> None:
        self.n += other.n
        self._total += other._total
        self._squares += other._squares

    @property
    def total(self) -> float:
        return as_float(self._total)

    @property
    def squares(self) -> float:
        return as_float(self._squares)

    def mean_interval(self, confidence: float) -> Interval:
        return mean_interval_from_moments(self.n, self.total, self.squares, confidence)

    def share_interval(self, confidence: float) -> Interval:
        if self.n == 0:
            return share_interval_from_moments(0, math.nan, math.nan, confidence)
        m = self.total / self.n
        return share_interval_from_moments(self.n, m, max(0.0, self.squares / self.n - m * m),
                                           confidence)


@storable
class MatchupTally:
    """What a head-to-head needs, fed a block of games at a time: the P rotation runs'
    frames of the same block (``add(frames)``, frame s being the focal seat s run). Per
    focal seat the moments of its wins and score leads; pooled, the same; and, while every
    block's rotations play the same game indices, the moments of each deal's mean win and
    mean lead over the rotations, as gains and losses against a deal played alike (1/P, 0:
    the clustered-by-deal interval, ``analyses.deals``). Memory does not grow with the games;
    ``merge`` adds a tally of other game indices, and the answer is the same whatever the
    blocks and the order of merging (every sum is exact)."""

    def __init__(self, players: int):
        self.players = players
        self.wins = [_Moments() for _ in range(players)]
        self.leads = [_Moments() for _ in range(players)]
        self.pooled_wins, self.pooled_leads = _Moments(), _Moments()
        self.deal_wins = DealDifferences(1.0 / players)
        self.deal_leads = DealDifferences(0.0)
        self.by_deal = True  # every block so far paired the rotations by game index

    def add(self, frames) -> MatchupTally:
        frames = list(frames.values()) if isinstance(frames, Mapping) else list(frames)
        if len(frames) != self.players:
            raise ValueError(f"need one run per focal seat 0..{self.players - 1}, got "
                             f"{len(frames)}")
        wins = [f[f"win_{s}"].to_numpy(dtype=float) for s, f in enumerate(frames)]
        leads = [_lead(f, s, self.players) for s, f in enumerate(frames)]
        for s in range(self.players):
            self.wins[s].add(wins[s])
            self.leads[s].add(leads[s])
            self.pooled_wins.add(wins[s])
            self.pooled_leads.add(leads[s])
        order = _common_deals(frames)
        if order is None:
            self.by_deal = False
        elif self.by_deal:
            self.deal_wins.add(sum(w[o] for w, o in zip(wins, order, strict=True)) / self.players)
            self.deal_leads.add(sum(v[o] for v, o in zip(leads, order, strict=True))
                                / self.players)
        return self

    def merge(self, other: MatchupTally) -> MatchupTally:
        for mine, theirs in zip([*self.wins, *self.leads, self.pooled_wins, self.pooled_leads,
                                 self.deal_wins, self.deal_leads],
                                [*other.wins, *other.leads, other.pooled_wins,
                                 other.pooled_leads, other.deal_wins, other.deal_leads],
                                strict=True):
            mine.merge(theirs)
        self.by_deal = self.by_deal and other.by_deal
        return self

    def share(self, confidence: float = CONFIDENCE) -> Interval:
        """The pooled win share with its interval (clustered by deal when it can be)."""
        if not self.by_deal:
            return self.pooled_wins.share_interval(confidence)
        # A share cannot leave [0, 1]: clipping the interval keeps its coverage. When every
        # deal gave the same mean (the focal policy won every game, say), the interval has
        # no width; Wilson on the deals says what so many deals allow.
        n = self.deal_wins.n
        t = self.deal_wins.interval(confidence)
        if t.high - t.low <= 1e-9 and n:  # no width but float noise
            w = wilson_interval(min(max(t.estimate, 0.0), 1.0) * n, n, confidence)
            t = Interval(t.estimate, w.low, w.high)
        return Interval(t.estimate, max(t.low, 0.0), min(t.high, 1.0))

    def answer(self, focal: str, field: str, confidence: float = CONFIDENCE) -> MatchupAnswer:
        players = self.players
        rows = []
        for seat in range(players):
            sh, m = self.wins[seat].share_interval(confidence), \
                self.leads[seat].mean_interval(confidence)
            rows.append({"seat": seat, "games": self.wins[seat].n, "share": sh.estimate,
                         "low": sh.low, "high": sh.high, "lead": m.estimate,
                         "lead_low": m.low, "lead_high": m.high})
        share = self.share(confidence)
        lead = (self.deal_leads.interval(confidence) if self.by_deal
                else self.pooled_leads.mean_interval(confidence))
        answer = _answer(players, focal, field, self.pooled_wins.n, share, lead, rows,
                         self.deal_wins.n if self.by_deal else None)
        answer.p_below = p_below(self.share, 1.0 / players)
        return answer


def p_below(interval_at, value: float) -> float:
    """One-sided p-value of "the truth is at least ``value``" from a family of two-sided
    intervals ``interval_at(confidence)``: (1 - c)/2 for the confidence c whose upper bound
    is ``value`` (found by bisection; the upper bound grows with c), so p < (1 - c)/2
    exactly when the interval at c lies wholly below ``value``; 1 when the estimate is not
    below it."""
    if not interval_at(0.5).estimate < value:
        return 1.0
    lo, hi = 1e-9, 1.0 - 1e-12
    if interval_at(hi).high < value:
        return (1.0 - hi) / 2
    if interval_at(lo).high >= value:
        return (1.0 - lo) / 2
    for _ in range(40):  # the level to 1e-12
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if interval_at(mid).high < value else (lo, mid)
    return (1.0 - hi) / 2


def _common_deals(frames) -> list[np.ndarray] | None:
    """Per frame, the row order that lines the frames up by game index; None unless every
    frame holds the same game indices, each once."""
    if not all("game" in f for f in frames):
        return None
    games = [f["game"].to_numpy() for f in frames]
    first = np.sort(games[0])
    if len(np.unique(first)) != len(first):
        return None
    orders = []
    for g in games:
        o = np.argsort(g, kind="stable")
        if len(g) != len(first) or not np.array_equal(g[o], first):
            return None
        orders.append(o)
    return orders


def matchup(runs: Mapping[int, pd.DataFrame], players: int, focal: str,
            field: str) -> MatchupAnswer:
    """The answer from ``runs``: focal seat -> the results frame of that rotation (a
    :class:`MatchupTally` fed the whole frames)."""
    if sorted(runs) != list(range(players)):
        raise ValueError(f"need one run per focal seat 0..{players - 1}, got {sorted(runs)}")
    return MatchupTally(players).add([runs[s] for s in range(players)]).answer(focal, field)


def _answer(players: int, focal: str, field: str, games: int, share: Interval, lead: Interval,
            rows: list[dict], deals: int | None) -> MatchupAnswer:
    fair = 1.0 / players
    if share.low > fair:
        verdict = STRONGER
    elif share.high < fair:
        verdict = WEAKER
    else:
        verdict = UNSHOWN
    level = f"{CONFIDENCE:.0%}"
    text = (f"one {focal} seat among {players - 1} {field} seats wins {share.estimate:.1%} "
            f"[{share.low:.1%}, {share.high:.1%}] of {games:,} games against the fair "
            f"{fair:.1%} ({100 * (share.estimate - fair):+.2f} pp [{100 * (share.low - fair):+.2f}"
            f", {100 * (share.high - fair):+.2f}]): ")
    text += {STRONGER: f"{focal} is stronger than {field} ({level} interval wholly above the "
                       "fair share)",
             WEAKER: f"{focal} is weaker than {field} ({level} interval wholly below the fair "
                     "share)",
             UNSHOWN: f"not shown to differ from {field} (the {level} interval holds the fair "
                      "share; more games could still find a difference)"}[verdict]
    pooled = ("Wilson interval on the tie-adjusted effective sample size of the pooled games "
              "(conservative for this stratified sample)" if deals is None else
              f"the rotations play the same {deals:,} deals (game indices), so the "
              f"pooled share is clustered by deal: per deal the {focal} policy's mean win over "
              "its seats, a paired comparison with the field, whose seats average 1/P on every "
              "deal; interval over deals by gains and losses: the deals' gains above 1/P and "
              "losses below it, each mean with Hall's (1992) skewness-corrected t interval, "
              "combined by MOVER (Zou & Donner 2008), which holds when only a few deals "
              "differ and is Student-t's when many do")
    lead_text = ("Student-t interval" if deals is None else
                 "over deals by gains and losses, clustered as the share")
    method = (f"Head to head: one {focal} seat among {field} seats, the {focal} seat rotated "
              f"through every seat with the same number of games each. Win share: {pooled}; "
              "per seat: Wilson on the tie-adjusted effective sample size; score lead: the "
              f"focal seat's score minus the field's mean per game, {lead_text}.")
    return MatchupAnswer(players, focal, field, games, share, lead, pd.DataFrame(rows), verdict,
                         text, method)
