"""Has the seat answer stopped moving with skill? The top two rungs' edges, every seat's, compared.

The ladder's top two rungs (the strongest policy in every seat, and the next below it in
every seat) play the same deals, so the change of each seat's edge between them is a
paired difference: per deal and seat (or turn-order place) s, d_s = (s's win under the
top rung) - (its win under the rung below), ties counting 1/k. Its mean D_s is the change
of seat s's edge. Each interval is over deals by gains and losses (``analyses.deals``:
exact sums, and it holds when the two rungs play few deals differently). A change at any
seat matters, not only the first player's: a follower's edge can move while the first
player's stays (21 Motines' first follower under its expert and under search over it).
Three answers, at α = 5%:

* **converged**: every seat's change is shown within ±``margin`` (1.5 pp): per seat an
  equivalence test, two one-sided tests (Schuirmann 1987), i.e. its 1 - 2α (90%) interval
  lies inside (-margin, +margin), and all of them must pass. That is an
  intersection-union test (Berger 1982): a false "converged" (some seat's |D_s| at least
  the margin) happens at most α of the time with no correction for the number of seats;
* **not converged**: some seat's change is shown apart from 0 (its 1 - α/P interval, a
  Bonferroni correction over the P seats, excludes 0) and the changes are not shown equal.
  A false "not converged" (every D_s = 0) happens at most α of the time;
* **undetermined**: neither, with the deals that would decide it if the estimates held.

The sentence names the seat whose change is largest. With the head to head of the top
two rungs (the main player count of a ladder), "converged" also needs the top rung shown
stronger than the one below (its share of wins in one seat among the rung below above the
fair share, 95%): two rungs of equal strength agreeing says nothing about stronger play, so
without it the verdict is undetermined and says why. Requiring one more test to pass only
lowers the false "converged" rate. A solo game's answer is its mean score, compared the
same way (``verdict``, one value).

"Not shown apart" is never worded as "converged": only the equivalence tests say that.
The error rates are simulated on data with a known truth (``analyses.validation``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analyses.deals import DealDifferences
from analyses.stats import CONFIDENCE, Interval, z_value

MARGIN = 0.015  # the change of the first player's edge that does not matter (±1.5 pp)
# A solo game's answer is its scores: the top two rungs' mean score, compared the same way,
# within ±5 points (a fifth of Rum Runner's narrowest printed band, 25 points wide).
SOLO_MARGIN = 5.0
STATES = ("converged", "not converged", "undetermined")


@dataclass(frozen=True)
class SeatChange:
    """One seat's (or place's) change of edge between the top two rungs: ``apart`` is the
    interval the difference test reads (95%, Bonferroni over the seats), ``tost`` the 90%
    interval the equivalence test reads."""

    name: str
    apart: Interval
    tost: Interval

    def to_json(self) -> dict:
        return {"name": self.name, "difference": self.apart._asdict(),
                "tost_interval": self.tost._asdict()}


@dataclass(frozen=True)
class Convergence:
    """The verdict on the change of the answer from the rung below to the top rung: every
    seat's change (``seats``; one value for a solo game's score), the largest of them as
    ``difference`` (its test interval) and ``tost`` (its 90% interval), whether the top rung
    is shown stronger than the one below (None: not measured), and, when undetermined, the
    deals in all that would decide it if the estimates held."""

    state: str
    difference: Interval
    tost: Interval
    deals: int
    margin: float
    decide_deals: float | None
    top: str
    below: str
    what: str = "the first player's edge"
    unit: str = "pp"   # "pp": a share shown in percentage points; "points": a score
    seats: tuple[SeatChange, ...] = ()
    largest: str = ""          # the seat whose change is largest ('' for one value)
    stronger: bool | None = None

    def _num(self, x: float, sign: bool = True) -> str:
        v = 100 * x if self.unit == "pp" else x
        v = 0.0 if round(v, 1) == 0 else v     # never '-0.0'
        return f"{v:+.1f}" if sign else f"{v:.1f}"

    @property
    def unit_words(self) -> str:
        return "percentage points" if self.unit == "pp" else self.unit

    @property
    def not_stronger(self) -> bool:
        """The top rung was measured against the one below and not shown stronger."""
        return self.stronger is False

    def sentence(self) -> str:
        """The verdict in one sentence, with its interval and what it rests on."""
        d, u = self.difference, self.unit_words
        what = (f"the largest change of a seat's edge ({self.largest}'s, of {len(self.seats)} "
                f"seats)" if self.seats else self.what)
        change = (f"{what} is {self._num(d.estimate)} {u} "
                  f"[{self._num(d.low)}, {self._num(d.high)}] from {self.below} to {self.top} "
                  f"on the same {self.deals:,} deals")
        within = f"±{self._num(self.margin, sign=False)} {u}"
        every = "every seat's change" if self.seats else "its change"
        if self.state == "converged":
            return (f"Converged: {change}; {every} lies within {within} (90% intervals, "
                    f"equivalence tests at 5%), and {self.top} is shown stronger than "
                    f"{self.below}." if self.stronger else
                    f"Converged: {change}; {every} lies within {within} (90% intervals, "
                    "equivalence tests at 5%).")
        if self.state == "not converged":
            return (f"Not converged: {change}, shown apart from 0 and not shown within "
                    f"{within}: a stronger player may move the answer further.")
        if self.not_stronger and self._edges_equal():
            return (f"Undetermined: {change}, within {within} at every seat, but {self.top} "
                    f"is not shown stronger than {self.below}, so their agreement says "
                    "nothing about stronger play (a stronger top player would decide it).")
        more = ("" if self.decide_deals is None or not math.isfinite(self.decide_deals) else
                f" About {_round_up(self.decide_deals):,} deals in all would decide it if the "
                "estimates held.")
        return (f"Undetermined: {change}; neither shown within {within} nor shown apart from "
                f"0.{more}")

    def _edges_equal(self) -> bool:
        checks = [c.tost for c in self.seats] or [self.tost]
        return all(-self.margin < t.low and t.high < self.margin for t in checks)

    def to_json(self) -> dict:
        return {"state": self.state, "difference": self.difference._asdict(),
                "tost_interval": self.tost._asdict(), "deals": self.deals,
                "margin": self.margin, "decide_deals": self.decide_deals,
                "top": self.top, "below": self.below, "largest": self.largest,
                "top_shown_stronger": self.stronger,
                "seats": [c.to_json() for c in self.seats]}


def seat_changes(top: np.ndarray, below: np.ndarray) -> np.ndarray:
    """Per deal and seat, the seat's win under the top rung minus under the rung below
    (deals x seats)."""
    return np.asarray(top, dtype=float) - np.asarray(below, dtype=float)


def _check(margin: float, unit: str, n: int) -> None:
    if not 0 < margin < (1 if unit == "pp" else math.inf):
        raise ValueError(f"the margin must be above 0 (a share: below 1), not {margin}")
    if n < 2:
        raise ValueError("a convergence verdict needs two or more deals")


def verdict(diff: DealDifferences, top: str, below: str, margin: float = MARGIN,
            confidence: float = CONFIDENCE, what: str = "the first player's edge",
            unit: str = "pp") -> Convergence:
    """The three-way verdict on one value's paired per-deal changes in ``diff`` (a share's,
    in ``unit`` "pp", or a score's, in "points")."""
    alpha = 1 - confidence
    n = diff.n
    _check(margin, unit, n)
    apart = diff.interval(confidence)
    tost = diff.interval(1 - 2 * alpha)
    if -margin < tost.low and tost.high < margin:
        state = "converged"
    elif apart.low > 0 or apart.high < 0:
        state = "not converged"
    else:
        state = "undetermined"
    decide = None
    if state == "undetermined":
        _, total, squares = diff.moments()
        mean = total / n
        decide = deals_to_decide(mean, max(squares / n - mean * mean, 0.0), margin, alpha)
    return Convergence(state, apart, tost, n, margin, decide, top, below, what, unit)


def verdict_every(diffs, names, top: str, below: str, margin: float = MARGIN,
                  confidence: float = CONFIDENCE, stronger: bool | None = None) -> Convergence:
    """The three-way verdict on every seat's paired per-deal changes (``diffs``, one
    :class:`DealDifferences` per seat, named by ``names``): converged when every seat's 90%
    interval lies within the margin (intersection-union) and the top rung is not measured
    weaker-or-equal (``stronger`` False makes it undetermined); not converged when some
    seat's 1 - α/P interval excludes 0; else undetermined (module docstring)."""
    alpha, p = 1 - confidence, len(diffs)
    n = diffs[0].n
    _check(margin, "pp", n)
    if p < 1 or len(names) != p or any(d.n != n for d in diffs):
        raise ValueError("one tally of the same deals per seat")
    seats = tuple(SeatChange(name, d.interval(1 - alpha / p), d.interval(1 - 2 * alpha))
                  for name, d in zip(names, diffs, strict=True))
    equal = all(-margin < c.tost.low and c.tost.high < margin for c in seats)
    apart = any(c.apart.low > 0 or c.apart.high < 0 for c in seats)
    if equal and stronger is not False:
        state = "converged"
    elif apart and not equal:
        state = "not converged"
    else:
        state = "undetermined"
    # The seat that decides: the one whose 90% interval reaches furthest from 0.
    k = max(range(p), key=lambda i: max(abs(seats[i].tost.low), abs(seats[i].tost.high)))
    decide = None
    if state == "undetermined" and not equal:
        needs_equal, needs_apart = [], []
        for d in diffs:
            _, total, squares = d.moments()
            mean = total / n
            var = max(squares / n - mean * mean, 0.0)
            needs_equal.append(deals_to_decide(mean, var, margin, alpha, apart=False))
            needs_apart.append(deals_to_decide(mean, var, margin, alpha / p, equal=False))
        # converged needs every seat; not converged needs one
        decide = min(max(needs_equal), min(needs_apart))
    return Convergence(state, seats[k].apart, seats[k].tost, n, margin, decide, top, below,
                       "a seat's edge", "pp", seats, seats[k].name, stronger)


def deals_to_decide(mean: float, variance: float, margin: float, alpha: float,
                    equal: bool = True, apart: bool = True) -> float:
    """Deals in all after which one of the two tests would just decide, at the estimates:
    the equivalence test's (1 - 2α interval within the margin; with ``equal``) or the
    difference's (1 - α interval clear of 0; with ``apart``), whichever comes first;
    infinite when neither can."""
    sd = math.sqrt(max(variance, 0.0))
    needs = []
    if equal and abs(mean) < margin:
        needs.append((z_value(1 - 2 * alpha) * sd / (margin - abs(mean))) ** 2)
    if apart and mean != 0:
        needs.append((z_value(1 - alpha) * sd / abs(mean)) ** 2)
    return min(needs) if needs else math.inf


def method_text(margin: float = MARGIN, solo: bool = False) -> str:
    if solo:
        return (f"Convergence: the change of the mean score from the second rung to the top "
                "rung, on the same deals (per deal, the score under the top rung minus under "
                "the one below; interval over deals by gains and losses). Converged: its 90% "
                f"interval lies within ±{margin:g} points (two one-sided tests at 5%, "
                "Schuirmann 1987: a false 'converged' at most 5%). Not converged: its 95% "
                "interval excludes 0 and the equivalence test fails (a false 'not converged' "
                "at most 5%). Otherwise undetermined, with the deals that would decide it at "
                "the estimates. Both error rates simulated (make validate).")
    return ("Convergence: the change of every seat's edge (or turn-order place's) from the "
            "second rung to the top rung, on the same deals (per deal and seat, its win "
            "under the top rung minus under the one below; intervals over deals by gains "
            "and losses). Converged: every seat's 90% interval lies within "
            f"±{100 * margin:.1f} percentage points (two one-sided tests per seat at 5%, "
            "Schuirmann 1987, all required: an intersection-union test, Berger 1982, so a "
            "false 'converged' happens at most 5% of the time without a correction for the "
            "seats), and, where the two rungs met head to head, the top rung is shown "
            "stronger (its win share in one seat among the rung below above the fair share, "
            "95%). Not converged: some seat's interval at 95%/P (Bonferroni over the P "
            "seats) excludes 0 and the equivalence tests fail (a false 'not converged' at "
            "most 5%). Otherwise undetermined, with the deals that would decide it at the "
            "estimates. Both error rates simulated (make validate).")


def _round_up(x: float) -> int:
    """Two significant figures, rounded up."""
    if x <= 100:
        return int(math.ceil(x))
    scale = 10 ** (int(math.log10(x)) - 1)
    return int(math.ceil(x / scale) * scale)
