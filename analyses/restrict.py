"""Which choices matter: every declared choice forbidden to one seat, on the same deals.

Restricted play (Jaffe et al., "Evaluating competitive game balance with restricted play",
AIIDE 2012): a player who may never take option X is measured against the same player
unrestricted. An option every good player needs is *dominant*; one it never needs is dead
weight. Each game declares its choices once (``GameInfo.choices``); a seat's restriction is
a house rule for that seat (``engines._restrict``), whichever policy plays it.

One lockstep run plays every deal (game index) in every *seating* (:func:`seatings`): the
policy in every seat (the base), then for each choice the policy forbidden that choice in
one seat among unrestricted seats, the seat rotated through every seat (or one named seat
only, for a seat question). Per deal and choice, the *loss* is the restricted seat's win
(ties 1/k) in the base seating minus its win when restricted, averaged over the rotations;
its mean is the win share forbidding the choice costs, with an interval over deals by gains
and losses (``analyses.deals``: exact sums, and it holds when few deals differ, as when the
policy seldom takes the choice). The score loss is the same with the score column. The base
seating gives how often the unrestricted player takes each choice (``took_<choice>_<seat>``
per game), and the restricted seatings how often a restricted seat took it anyway (only when
nothing else was legal).

Verdicts, at a family-wise error rate α (5%) across all K choices (Bonferroni: each
choice's claims at α/K, so all claims hold together with probability at least 1 - α):

* **dominant**: the loss exceeds the margin (the 1 - α/K interval lies above it);
* **useless**: the loss is shown within ± the margin (an equivalence test, two one-sided
  tests at α/K: the 1 - 2α/K interval lies inside it);
* **matters**: the loss is shown above 0, not beyond the margin; **overused**: shown below
  0 (the player does better without it: a fact about the player, not the game). Overused
  is checked before useless: a choice the player is shown to do better without is
  overused even when the gain is within the margin, never "useless";
* **undetermined**: none of these, with the deals that would decide it at the estimates.

"Not shown to cost" is never worded as useless: only the equivalence test says that.
The deals are planned by the intervals' widths (:func:`plan`): a pilot's per-deal spread
sets how many deals bring the widest interval to a target half-width. Error rates are
simulated on data with a known truth, rare choices and few differing deals included
(``analyses.validation``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyses.convergence import _round_up
from analyses.deals import DealDifferences
from analyses.ladder import verify_differences
from analyses.stats import CONFIDENCE, Interval, z_value
from simulate.codec import storable
from simulate.errors import Interrupted

MARGIN = 0.02        # a win share a choice may cost and still be "useless" (±2 pp)
SOLO_MARGIN = 5.0    # a solo game: points of mean score (a fifth of Rum Runner's 25-point bands)
WIDTH = 0.0075       # the planned half-width of the widest loss interval (0.75 pp)
SOLO_WIDTH = 2.0     # ... for a solo game's score loss (points)
PILOT = 400          # deals that measure the spread before the rest are planned
MAX_DEALS = 40_000   # the most deals a plan asks for by default
VERDICTS = ("dominant", "matters", "useless", "overused", "undetermined")


def restricted_label(policy: str, choice: str) -> str:
    """The policy text of ``policy`` with ``choice`` forbidden."""
    return f"{policy}:forbid={choice}"


def seatings(policy: str, choices: Sequence[str], players: int,
             seat: int | None = None) -> list[tuple[str, ...]]:
    """Every seating played on each deal: the policy in every seat, then per choice the
    restricted policy in each seat in turn (or in ``seat`` only) among unrestricted seats."""
    seats = range(players) if seat is None else (seat,)
    out = [(policy,) * players]
    for c in choices:
        limited = restricted_label(policy, c)
        out += [tuple(limited if k == s else policy for k in range(players)) for s in seats]
    return out


@storable
class RestrictTally:
    """What the answer needs, fed one block of deals at a time (one frame per seating of
    :func:`seatings`, all of the same deals): per choice the per-deal win and score losses,
    how often the base takes it, how often a restricted seat took it anyway. ``seat`` names
    the one restricted seat (None: every seat in turn). Every sum is exact
    (:class:`DealDifferences`), so tallies of other deals ``merge`` into the same answer
    whatever the blocks and the order (:class:`RestrictParts` makes one a block)."""

    def __init__(self, policy: str, choices: Sequence[str], players: int,
                 seat: int | None = None):
        if not choices:
            raise ValueError("no choices to restrict")
        self.policy, self.choices, self.players = policy, tuple(choices), players
        self.seat = seat
        self.seats = tuple(range(players)) if seat is None else (seat,)
        k = len(self.choices)
        self.loss = [DealDifferences(0.0) for _ in range(k)]
        self.score_loss = [DealDifferences(0.0) for _ in range(k)]
        self.taken = [DealDifferences(0.0) for _ in range(k)]
        self.waived = [DealDifferences(0.0) for _ in range(k)]
        # the restricted seat's win share, unrestricted and restricted (a seat question)
        self.base_win = DealDifferences(0.0)
        self.restricted_win = [DealDifferences(0.0) for _ in range(k)]

    @property
    def arms(self) -> int:
        return 1 + len(self.choices) * len(self.seats)

    @property
    def solo(self) -> bool:
        return self.players == 1

    def _win(self, frame: pd.DataFrame, s: int) -> np.ndarray:
        # a solo game has no opponents to beat: its answer is the score
        column = f"score_{s}" if self.solo else f"win_{s}"
        return frame[column].to_numpy(dtype=float)

    def add(self, frames) -> RestrictTally:
        frames = list(frames)
        if len(frames) != self.arms:
            raise ValueError(f"need one frame per seating ({self.arms}), got {len(frames)}")
        game = frames[0]["game"].to_numpy()
        if not all(np.array_equal(game, f["game"].to_numpy()) for f in frames):
            raise ValueError("the seatings' frames must hold the same deals, in order")
        base = frames[0]
        m = len(self.seats)
        # the restricted seats' wins unrestricted: the same for every choice
        base_win = np.mean([self._win(base, s) for s in self.seats], axis=0)
        self.base_win.add(base_win)
        for i, c in enumerate(self.choices):
            own = frames[1 + i * m:1 + (i + 1) * m]
            win = np.mean([self._win(f, s) for f, s in zip(own, self.seats, strict=True)],
                          axis=0)
            self.restricted_win[i].add(win)
            self.loss[i].add(base_win - win)
            score = [f[f"score_{s}"].to_numpy(dtype=float) - base[f"score_{s}"].to_numpy(float)
                     for f, s in zip(own, self.seats, strict=True)]
            self.score_loss[i].add(-np.mean(score, axis=0))
            took = f"took_{c}_{{}}"
            self.taken[i].add(np.mean([base[took.format(s)].to_numpy(float)
                                       for s in self.seats], axis=0))
            self.waived[i].add(np.mean([f[took.format(s)].to_numpy(float)
                                        for f, s in zip(own, self.seats, strict=True)], axis=0))
        return self

    def _parts(self) -> list[DealDifferences]:
        return [*self.loss, *self.score_loss, *self.taken, *self.waived, self.base_win,
                *self.restricted_win]

    def merge(self, other: RestrictTally) -> RestrictTally:
        """Add a tally of other deals of the same question (exact: the same answer as one
        tally fed both)."""
        if (other.policy, other.choices, other.players, other.seat) != (
                self.policy, self.choices, self.players, self.seat):
            raise ValueError("cannot merge restricted play of another policy, choices, player "
                             "count or seat")
        for mine, theirs in zip(self._parts(), other._parts(), strict=True):
            mine.merge(theirs)
        return self

    @property
    def deals(self) -> int:
        return self.base_win.n

    def spread(self) -> float:
        """The largest per-deal standard deviation of any choice's loss (what plans deals)."""
        worst = 0.0
        for d in self.loss:
            n, total, squares = d.moments()
            if n > 1:
                mean = total / n
                worst = max(worst, math.sqrt(max(squares / n - mean * mean, 0.0)))
        return worst

    def answer(self, margin: float | None = None, confidence: float = CONFIDENCE,
               labels: dict[str, str] | None = None) -> RestrictAnswer:
        if self.deals == 0:
            raise ValueError("no deals to analyse")
        if margin is None:
            margin = SOLO_MARGIN if self.solo else MARGIN
        k = len(self.choices)
        alpha = 1 - confidence
        wide, equal = 1 - alpha / k, 1 - 2 * alpha / k
        rows = []
        for i, c in enumerate(self.choices):
            loss = self.loss[i].interval(wide)
            tost = self.loss[i].interval(equal)
            state = classify(loss, tost, margin)
            n, total, squares = self.loss[i].moments()
            mean = total / n
            decide = (deals_to_decide(mean, max(squares / n - mean * mean, 0.0), margin, alpha,
                                      k) if state == "undetermined" else None)
            rows.append(ChoiceAnswer(
                c, (labels or {}).get(c, c), state, loss, tost,
                self.score_loss[i].interval(wide), self.taken[i].interval(confidence),
                self.waived[i].interval(confidence), self.restricted_win[i].interval(wide),
                decide))
        return RestrictAnswer(self.policy, self.players, self.deals, self.seat, margin, confidence, self.base_win.interval(confidence), rows)


@storable
@dataclass(frozen=True)
class RestrictParts:
    """One block's :class:`RestrictTally`, made where the block is played (a run's ``part``,
    kept in the run store): the frames of every seating of :func:`seatings` on the block's
    deals, tallied. Holds the question only (data, no functions)."""

    policy: str
    choices: tuple[str, ...]
    players: int
    seat: int | None = None

    # the version of what the run store keeps of a block (``simulate.store``): bump it when
    # what RestrictTally.add keeps changes
    store_version = 1

    def __call__(self, frames) -> RestrictTally:
        return RestrictTally(self.policy, self.choices, self.players, self.seat).add(frames)

    def verify(self, result, games: int) -> None:
        """Refuse a stored block that cannot be this part's tally of ``games`` deals."""
        if type(result) is not RestrictTally:
            raise ValueError("not a restricted-play tally")
        if (result.policy, tuple(result.choices), result.players, result.seat) != (
                self.policy, tuple(self.choices), self.players, self.seat):
            raise ValueError("a tally of another policy, choices, player count or seat")
        k = len(self.choices)
        seats = tuple(range(self.players)) if self.seat is None else (self.seat,)
        if tuple(result.seats) != seats:
            raise ValueError("a tally of other restricted seats")
        lists = (result.loss, result.score_loss, result.taken, result.waived,
                 result.restricted_win)
        if any(not isinstance(x, list) or len(x) != k for x in lists):
            raise ValueError(f"its tallies are not one per choice ({k})")
        for d in result._parts():
            verify_differences(d, 0.0, games)


def classify(loss: Interval, tost: Interval, margin: float) -> str:
    """The verdict from a choice's loss interval (1 - α/K) and its equivalence interval
    (1 - 2α/K): module docstring."""
    if loss.low > margin:
        return "dominant"
    if loss.high < 0:  # the player is shown to do better without it: never "useless"
        return "overused"
    if -margin < tost.low and tost.high < margin:
        return "useless"
    if loss.low > 0:
        return "matters"
    return "undetermined"


def deals_to_decide(mean: float, variance: float, margin: float, alpha: float,
                    k: int) -> float:
    """Deals in all after which some verdict would just be reached, at the estimates."""
    sd = math.sqrt(max(variance, 0.0))
    if sd == 0:
        return math.inf
    needs = []
    if abs(mean) < margin:
        needs.append((z_value(1 - 2 * alpha / k) * sd / (margin - abs(mean))) ** 2)
    if mean != 0:
        needs.append((z_value(1 - alpha / k) * sd / abs(mean)) ** 2)
    return min(needs) if needs else math.inf


def plan(spread: float, width: float, choices: int, pilot: int, cap: int,
         confidence: float = CONFIDENCE) -> int:
    """Deals in all that bring the widest choice's 1 - α/K interval to half-width ``width``
    at the pilot's largest per-deal spread (at least the pilot, at most ``cap``)."""
    z = z_value(1 - (1 - confidence) / max(choices, 1))
    need = math.ceil((z * spread / width) ** 2) if spread > 0 else 0
    return int(min(max(need, pilot), max(cap, pilot)))


@dataclass(frozen=True)
class ChoiceAnswer:
    """One choice's answer: its loss (win share; a solo game's: score) when forbidden, with
    the 1 - α/K and equivalence intervals, the score loss, how often the unrestricted player
    takes it (a game), how often a restricted seat took it anyway, and its verdict."""

    name: str
    help: str
    verdict: str
    loss: Interval
    tost: Interval
    score_loss: Interval
    taken: Interval
    waived: Interval
    restricted: Interval   # the restricted seat's win share (solo: mean score), 1 - α/K
    decide_deals: float | None


@dataclass
class RestrictAnswer:
    """Every choice's answer under one policy, on the same deals."""

    policy: str
    players: int
    deals: int
    seat: int | None
    margin: float
    confidence: float
    base: Interval          # the restricted seat(s)' win share unrestricted (solo: score)
    choices: list[ChoiceAnswer]

    @property
    def solo(self) -> bool:
        return self.players == 1

    def _v(self, x: float, sign: bool = True) -> str:
        x = x + 0.0   # no "-0.0"
        if self.solo:
            return f"{x:+.1f}" if sign else f"{x:.1f}"
        return f"{100 * x:+.1f}" if sign else f"{100 * x:.1f}"

    @property
    def unit(self) -> str:
        return "points" if self.solo else "pp"

    def ci(self, i: Interval) -> str:
        return f"{self._v(i.estimate)} [{self._v(i.low)}, {self._v(i.high)}]"

    def who(self) -> str:
        if self.solo:
            return "the player"
        return "a seat" if self.seat is None else f"seat {self.seat}"

    def table(self) -> pd.DataFrame:
        rows = []
        for c in self.choices:
            rows.append({
                "choice": c.name, "players": self.players, "deals": self.deals,
                "policy": self.policy, "restricted": restricted_label(self.policy, c.name),
                "seat": "all" if self.seat is None else self.seat,
                "loss": c.loss.estimate, "loss_low": c.loss.low, "loss_high": c.loss.high,
                "tost_low": c.tost.low, "tost_high": c.tost.high,
                "score_loss": c.score_loss.estimate, "score_loss_low": c.score_loss.low,
                "score_loss_high": c.score_loss.high,
                "taken": c.taken.estimate, "taken_low": c.taken.low, "taken_high": c.taken.high,
                "taken_anyway": c.waived.estimate,
                "restricted_share": c.restricted.estimate,
                "restricted_share_low": c.restricted.low,
                "restricted_share_high": c.restricted.high,
                "verdict": c.verdict, "decide_deals": c.decide_deals})
        return pd.DataFrame(rows)

    def sentence(self, c: ChoiceAnswer) -> str:
        """One choice's answer in a sentence, with its interval and what it rests on."""
        u, m = self.unit, self._v(self.margin, sign=False)
        what = "mean score" if self.solo else "win share"
        cost = (f"forbidding {c.name} ({c.help}) changes {self.who()}'s {what} by "
                f"{self._v(-c.loss.estimate)} {u} [{self._v(-c.loss.high)}, "
                f"{self._v(-c.loss.low)}]")
        if self.seat is not None and not self.solo:
            fair = 1 / self.players
            b, r = self.base, c.restricted
            cost += (f": its edge goes from {self._v(b.estimate - fair)} pp "
                     f"[{self._v(b.low - fair)}, {self._v(b.high - fair)}] to "
                     f"{self._v(r.estimate - fair)} pp [{self._v(r.low - fair)}, "
                     f"{self._v(r.high - fair)}]")
        cost += f"; unrestricted, {self.policy} takes it {c.taken.estimate:.2f} times a game"
        if c.verdict == "dominant":
            return f"{c.name} is dominant: {cost}, a loss beyond the ±{m} {u} margin."
        if c.verdict == "useless":
            small = "" if c.loss.low <= 0 else ", though shown above 0"
            return (f"{c.name} is useless to {self.policy}: {cost}; shown within ±{m} {u} "
                    f"(equivalence test){small}.")
        if c.verdict == "matters":
            return f"{c.name} matters: {cost}, a loss shown above 0 but not beyond ±{m} {u}."
        if c.verdict == "overused":
            within = (f" (within ±{m} {u})" if -c.loss.low < self.margin else "")
            return (f"{c.name} is overused by {self.policy}: {cost}, a gain shown above "
                    f"0{within}: the player does better without it.")
        more = ("" if c.decide_deals is None or not math.isfinite(c.decide_deals) else
                f" About {_round_up(c.decide_deals):,} deals would decide it at the "
                "estimates.")
        return f"{c.name} is undetermined: {cost}; neither shown to matter nor within ±{m} {u}.{more}"

    def sentences(self, verdicts: Sequence[str] = VERDICTS) -> list[str]:
        return [self.sentence(c) for c in self.choices if c.verdict in verdicts]

    def summary(self) -> str:
        """How many choices got each verdict, in one sentence."""
        counts = {v: sum(c.verdict == v for c in self.choices) for v in VERDICTS}
        said = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
        return (f"Of {len(self.choices)} choices under {self.policy} at {self.players} "
                f"player{'s' if self.players != 1 else ''} ({self.deals:,} deals): {said} "
                f"(family-wise error at most {100 * (1 - self.confidence):g}% across all of "
                "them).")

    def method(self) -> str:
        k = len(self.choices)
        alpha = 1 - self.confidence
        who = ("the player forbidden one choice against itself unrestricted" if self.solo else
               "one seat forbidden one choice among unrestricted seats, "
               + ("rotated through every seat" if self.seat is None else
                  f"always seat {self.seat}"))
        what = "score" if self.solo else "win (ties 1/k)"
        return (f"Restricted play (Jaffe et al. 2012): {who}, on the same deals (game indices "
                f"of one seed) as every seat unrestricted. Loss per deal: the restricted "
                f"seat's {what} unrestricted minus restricted; its mean with an interval over "
                f"deals by gains and losses (Hall's skew-corrected t per part, MOVER). "
                f"Verdicts across all {k} choices at a family-wise error of "
                f"{100 * alpha:g}% (Bonferroni): dominant when the {100 * (1 - alpha / k):.2f}% "
                f"interval lies above the ±{self._v(self.margin, sign=False)} {self.unit} "
                f"margin; overused when it lies below 0 (the player does better without the "
                f"choice, however little: never called useless); useless when the "
                f"{100 * (1 - 2 * alpha / k):.2f}% interval lies inside the margin (two "
                f"one-sided tests); matters when the first interval lies above 0; otherwise "
                f"undetermined. Taken: the unrestricted player's times a "
                "game (mean over the restricted seats, interval over deals). Deals planned from a pilot's "
                "spread to a target half-width; error rates simulated (make validate).")

    def to_json(self) -> dict:
        return {"policy": self.policy, "players": self.players, "deals": self.deals,
                "seat": self.seat, "margin": self.margin,
                "confidence": self.confidence, "base": self.base._asdict(),
                "table": self.table().to_dict(orient="records"), "summary": self.summary(),
                "sentences": self.sentences(), "method": self.method()}




@dataclass
class Played:
    """A restricted-play run's tally, with the deals planned and played."""

    tally: RestrictTally
    planned: int
    played: int
    interrupted: bool
    seatings: int


def play(run, info, policy: str, choices: Sequence[str], players: int,
         seat: int | None = None, deals: int | None = None, width: float | None = None,
         cap: int = MAX_DEALS, pilot: int = PILOT, more: int | None = None,
         **common) -> Played:
    """Every seating on the same deals: ``deals`` of them, or (None) a pilot and then as
    many as :func:`plan` asks at the pilot's spread. ``run`` is ``simulate.run`` (or a
    partial of it keeping no rows); ``common`` goes to every call (rules, seed, ...).

    Each block is tallied where it is played (:class:`RestrictParts`), so a run store keeps
    it under the question and a later run of the same question plays only the deals it
    lacks. The pilot's deals always come first, as a run of their own (with ``deals`` too),
    so a planned answer and one of fixed deals share their blocks. ``more`` (``--more``):
    the pilot's deals, then the deals the store holds after them and ``more`` after those
    (``deals`` and the plan are then not used)."""
    if width is None:
        width = SOLO_WIDTH if players == 1 else WIDTH
    choices = tuple(choices)
    tally = RestrictTally(policy, choices, players, seat)
    part = RestrictParts(policy, choices, players, seat)
    arms = seatings(policy, choices, players, seat)
    what = f"{len(choices)} choices forbidden in turn"
    fixed = deals is not None and more is None
    first = min(pilot, deals if fixed else cap)
    label = (what if fixed and first == deals else
             f"{what} (the first {first:,} of {deals:,} deals)" if fixed else f"{what} (pilot)")
    res = run(info, first, seatings=arms, players=players, part=part, on_part=tally.merge,
              label=label, more=None, **common)
    played, interrupted = res.meta["games"], res.meta["interrupted"]
    if interrupted:  # stopped in the pilot: the rest is not played
        return Played(tally, deals if fixed else first, played, interrupted, len(arms))
    planned = (deals if fixed else first if more is not None else
               plan(tally.spread(), width, len(choices), first, cap))
    if more is None and planned <= first:
        return Played(tally, planned, played, False, len(arms))
    try:
        if more is not None:
            res = run(info, 1, seatings=arms, players=players, first_game=first, part=part,
                      on_part=tally.merge, label=f"{what} (--more {more:,})", more=more,
                      **common)
        else:
            res = run(info, planned - first, seatings=arms, players=players,
                      first_game=first, part=part, on_part=tally.merge,
                      label=f"{what} ({planned:,} deals{'' if fixed else ' planned'})",
                      more=None, **common)
    except Interrupted:
        # a stop that came as the pilot's last deals finished: the rest is not started, and
        # the answer is the pilot's (partial)
        return Played(tally, planned, played, True, len(arms))
    planned = first + res.meta["requested"]
    played += res.meta["games"]
    return Played(tally, planned, played, res.meta["interrupted"], len(arms))
