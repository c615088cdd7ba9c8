"""Has the seat answer stopped moving with skill? The top two rungs' first-player edges, compared.

The ladder's top two rungs (the strongest policy in every seat, and the next below it in
every seat) play the same deals, so the change of the first player's edge between them
is a paired difference: per deal, d = (the first player's win under the top rung) -
(its win under the rung below), ties counting 1/k. Its mean D is the change of the edge.
Its interval is over deals by gains and losses (``analyses.deals``: exact sums, and it
holds when the two rungs play few deals differently). Three answers, at α = 5%:

* **converged**: the edges are shown equal within ±``margin`` (1.5 pp): an equivalence
  test, two one-sided tests (Schuirmann 1987), i.e. the 1 - 2α (90%) interval of D lies
  inside (-margin, +margin). A false "converged" (|D| at least the margin) happens at
  most α of the time;
* **not converged**: the edges are shown apart (the 1 - α (95%) interval of D excludes 0)
  and not shown equal within the margin. A false "not converged" (D = 0) happens at most
  α of the time;
* **undetermined**: neither, with the deals that would decide it if the estimates held.

"Not shown apart" is never worded as "converged": only the equivalence test says that.
Both error rates are simulated on data with a known truth (``analyses.validation``).
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
class Convergence:
    """The verdict on the change ``difference`` (top rung minus the rung below, 95%) of the
    first player's edge, the 90% interval the equivalence test reads, and, when
    undetermined, the deals in all that would decide it if the estimates held."""

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

    def _num(self, x: float, sign: bool = True) -> str:
        v = 100 * x if self.unit == "pp" else x
        return f"{v:+.1f}" if sign else f"{v:.1f}"

    def sentence(self) -> str:
        """The verdict in one sentence, with its interval and what it rests on."""
        d, u = self.difference, self.unit
        change = (f"{self.what} changes by {self._num(d.estimate)} {u} "
                  f"[{self._num(d.low)}, {self._num(d.high)}] from {self.below} to {self.top} "
                  f"on the same {self.deals:,} deals")
        within = f"±{self._num(self.margin, sign=False)} {u}"
        if self.state == "converged":
            return (f"Converged: {change}; its 90% interval "
                    f"[{self._num(self.tost.low)}, {self._num(self.tost.high)}] lies within "
                    f"{within} (equivalence test at 5%).")
        if self.state == "not converged":
            return (f"Not converged: {change}, shown apart (95% interval excludes 0) and not "
                    f"shown equal within {within}: a stronger player may move the answer "
                    "further.")
        more = ("" if self.decide_deals is None or not math.isfinite(self.decide_deals) else
                f" About {_round_up(self.decide_deals):,} deals in all would decide it if the "
                "estimates held (`rumsim ladder ... -n N`).")
        return (f"Undetermined: {change}; neither shown equal within {within} nor shown "
                f"apart.{more}")

    def to_json(self) -> dict:
        return {"state": self.state, "difference": self.difference._asdict(),
                "tost_interval": self.tost._asdict(), "deals": self.deals,
                "margin": self.margin, "decide_deals": self.decide_deals,
                "top": self.top, "below": self.below}


def first_player_change(top: np.ndarray, below: np.ndarray) -> np.ndarray:
    """Per deal, the first player's win under the top rung minus under the rung below."""
    return np.asarray(top, dtype=float) - np.asarray(below, dtype=float)


def verdict(diff: DealDifferences, top: str, below: str, margin: float = MARGIN,
            confidence: float = CONFIDENCE, what: str = "the first player's edge",
            unit: str = "pp") -> Convergence:
    """The three-way verdict on the paired per-deal changes in ``diff`` (a share's, in
    ``unit`` "pp", or a score's, in "points")."""
    if not 0 < margin < (1 if unit == "pp" else math.inf):
        raise ValueError(f"the margin must be above 0 (a share: below 1), not {margin}")
    alpha = 1 - confidence
    n = diff.n
    if n < 2:
        raise ValueError("a convergence verdict needs two or more deals")
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


def deals_to_decide(mean: float, variance: float, margin: float, alpha: float) -> float:
    """Deals in all after which one of the two tests would just decide, at the estimates:
    the equivalence test's (1 - 2α interval within the margin) or the difference's (1 - α
    interval clear of 0), whichever comes first; infinite when neither can."""
    sd = math.sqrt(max(variance, 0.0))
    needs = []
    if abs(mean) < margin:
        needs.append((z_value(1 - 2 * alpha) * sd / (margin - abs(mean))) ** 2)
    if mean != 0:
        needs.append((z_value(1 - alpha) * sd / abs(mean)) ** 2)
    return min(needs) if needs else math.inf


def method_text(margin: float = MARGIN, solo: bool = False) -> str:
    what = ("the mean score from the second rung to the top rung, on the same deals (per "
            "deal, the score under the top rung minus under the one below" if solo else
            "the first player's edge from the second rung to the top rung, on the same "
            "deals (per deal, the first player's win under the top rung minus under the one "
            "below")
    within = f"±{margin:g} points" if solo else f"±{100 * margin:.1f} pp"
    return (f"Convergence: the change of {what}; interval over deals by gains and losses). "
            f"Converged: its 90% interval lies within {within} (two one-sided "
            "tests at 5%, Schuirmann 1987: a false 'converged' at most 5%). Not converged: "
            "its 95% interval excludes 0 and the equivalence test fails (a false 'not "
            "converged' at most 5%). Otherwise undetermined, with the deals that would decide "
            "it at the estimates. Both error rates simulated (make validate).")


def _round_up(x: float) -> int:
    """Two significant figures, rounded up."""
    if x <= 100:
        return int(math.ceil(x))
    scale = 10 ** (int(math.log10(x)) - 1)
    return int(math.ceil(x / scale) * scale)
