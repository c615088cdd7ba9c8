"""The strength ladder of a solo game: scores at every level of skill on the same deals, against a ceiling.

Rum Runner has no seats, so its skill question is its score: each rung (random up to
search over the expert) plays the same deals (game indices of one seed), and per rung the
answer gives its mean score, its lead over the rung below (``analyses.ladder``'s score
ladder: gains and losses over deals, the upset rate, the deal's share of the variance),
the printed bands' verdict for its scores (``analyses.thresholds``), and its mean score as
a share of a *ceiling*: a clairvoyant player that knows each deal's order and plays it by
an exact search, so no player can score more on that deal. The share is a ratio of totals
over the same deals (the rung's over the ceiling's), with a delta-method interval over
deals. A rung that ever outscores the ceiling on a deal is counted and said: the ceiling
would then not be one.

Whether the answer has stopped moving with skill is the top two rungs' mean scores
compared on the same deals (``analyses.convergence``, within ±``SOLO_MARGIN`` points).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyses import convergence
from analyses.ladder import LadderAnswer, ScoreLadderTally, score_ladder, verify_score_ladder
from analyses.stats import (
    CONFIDENCE,
    Interval,
    mean_interval_from_moments,
    ratio_interval_from_moments,
)
from analyses.thresholds import (
    CALIBRATION_MARGIN_PP,
    ThresholdsAccumulator,
    band_shares,
    calibration,
    target_distance_interval,
    verify_accumulator,
)
from simulate.codec import storable

SCORE = "score_0"


def seatings(rungs: Sequence[str], ceiling: str | None) -> list[tuple[str]]:
    """Each rung, then the ceiling (if any), each on every deal."""
    return [(r,) for r in rungs] + ([(ceiling,)] if ceiling else [])


@storable
class SoloLadderTally:
    """Fed ``add(frames)``: one frame per seating of :func:`seatings`, of the same deals."""

    def __init__(self, rungs: Sequence[str], ceiling: str | None = None):
        self.rungs, self.ceiling = tuple(rungs), ceiling
        self.scores = ScoreLadderTally(self.rungs)
        self.bands = [ThresholdsAccumulator() for _ in self.rungs]
        # per rung: n, Σy, Σx, Σy², Σx², Σxy (y the rung's score, x the ceiling's), and the
        # deals on which the rung outscored the ceiling
        self.against = np.zeros((len(self.rungs), 6))
        self.above = np.zeros(len(self.rungs), dtype=np.int64)

    def add(self, frames) -> SoloLadderTally:
        frames = list(frames)
        k = len(self.rungs)
        if len(frames) != k + (self.ceiling is not None):
            raise ValueError("need one frame per rung (and the ceiling)")
        self.scores.add(frames[:k])  # checks the deals match
        for r in range(k):
            self.bands[r].add(frames[r])
        if self.ceiling is not None:
            if not np.array_equal(frames[-1]["game"].to_numpy(), frames[0]["game"].to_numpy()):
                raise ValueError("the ceiling must play the same deals, in order")
            x = frames[-1][SCORE].to_numpy(dtype=float)
            for r in range(k):
                y = frames[r][SCORE].to_numpy(dtype=float)
                self.against[r] += (y.size, y.sum(), x.sum(), (y * y).sum(), (x * x).sum(),
                                    (x * y).sum())
                self.above[r] += int(np.count_nonzero(y > x))
        return self

    def merge(self, other: SoloLadderTally) -> SoloLadderTally:
        """Add a tally of the same ladder over other deals (a block's,
        :class:`SoloLadderParts`): the same answer as one tally fed both, exactly where the
        sums are exact (the score histograms, the leads, the counts above the ceiling), else
        to floating-point rounding (the moments of whole scores, exact below 2^53)."""
        if (other.rungs, other.ceiling) != (self.rungs, self.ceiling):
            raise ValueError("cannot merge tallies of other ladders")
        self.scores.merge(other.scores)
        self.bands = [mine.merge(theirs)
                      for mine, theirs in zip(self.bands, other.bands, strict=True)]
        self.against += other.against
        self.above += other.above
        return self

    @property
    def deals(self) -> int:
        return self.bands[0].n

    def answer(self, rules, margin: float = convergence.SOLO_MARGIN,
               confidence: float = CONFIDENCE) -> SoloLadderAnswer:
        if self.deals == 0:
            raise ValueError("no deals to analyse")
        rows = []
        n_sums = self.scores.sums.sum(axis=0)  # [rung, moment]: n, Σa, Σb, Σa², Σb², ...
        for r, rung in enumerate(self.rungs):
            if r < len(self.rungs) - 1:
                n, total, squares = n_sums[r, 0], n_sums[r, 1], n_sums[r, 3]
            else:
                n, total, squares = n_sums[r - 1, 0], n_sums[r - 1, 2], n_sums[r - 1, 4]
            mean = mean_interval_from_moments(int(n), total, squares, confidence)
            b = band_shares(self.bands[r], rules, confidence)
            off = target_distance_interval(b, confidence=confidence)
            row = {"rung": r, "policy": rung, "deals": int(n), "mean": mean.estimate,
                   "mean_low": mean.low, "mean_high": mean.high,
                   "off_target_pct": off.estimate, "off_target_low_pct": off.low,
                   "off_target_high_pct": off.high,
                   "bands": calibration(off.low, off.high)}
            if self.ceiling is not None:
                share = ratio_interval_from_moments(int(self.against[r, 0]), *self.against[r, 1:],
                                                    confidence)
                row.update({"of_ceiling": share.estimate, "of_ceiling_low": share.low,
                            "of_ceiling_high": share.high, "above_ceiling": int(self.above[r])})
            rows.append(row)
        ceiling = None
        if self.ceiling is not None:
            a = self.against[0]
            ceiling = mean_interval_from_moments(int(a[0]), a[2], a[4], confidence)
        converged = convergence.verdict(self.scores.leads[-1], self.rungs[-1], self.rungs[-2],
                                        margin, confidence, what="the mean score",
                                        unit="points")
        return SoloLadderAnswer(self.rungs, self.ceiling, self.deals, pd.DataFrame(rows),
                                score_ladder(self.scores, confidence), ceiling, converged)


@storable
@dataclass(frozen=True)
class SoloLadderParts:
    """One block's :class:`SoloLadderTally`, made where the block is played (a run's
    ``part`` over the frames of :func:`seatings`); the run merges them in block order
    (``on_part=tally.merge``) and the run store keeps them (``simulate.store``). Data only:
    the rungs' labels and the ceiling's policy (None: no ceiling)."""

    rungs: tuple[str, ...]
    ceiling: str | None = None

    # The version of what the run store keeps of a block (bump it when what
    # ``SoloLadderTally`` keeps changes). A class attribute, not a field.
    store_version = 1

    @classmethod
    def of(cls, rungs: Sequence[str], ceiling: str | None = None) -> SoloLadderParts:
        return cls(tuple(rungs), ceiling)

    def tally(self) -> SoloLadderTally:
        """An empty tally of this ladder (what the run's blocks are merged into)."""
        return SoloLadderTally(self.rungs, self.ceiling)

    def __call__(self, frames) -> SoloLadderTally:
        return self.tally().add(frames)

    def verify(self, result, games: int) -> None:
        """Refuse a stored block that cannot be this ladder's tally of ``games`` deals."""
        if type(result) is not SoloLadderTally:
            raise ValueError("not a solo ladder tally")
        if (result.rungs, result.ceiling) != (self.rungs, self.ceiling):
            raise ValueError("a tally of another ladder (rungs or ceiling)")
        k = len(self.rungs)
        verify_score_ladder(result.scores, self.rungs, games)
        if not isinstance(result.bands, list) or len(result.bands) != k:
            raise ValueError("not one score histogram per rung")
        for acc in result.bands:
            verify_accumulator(acc, games)
        against, above = result.against, result.above
        if not isinstance(against, np.ndarray) or against.shape != (k, 6) \
                or against.dtype != np.float64 \
                or not isinstance(above, np.ndarray) or above.shape != (k,) \
                or above.dtype.kind not in "iu":
            raise ValueError("its ceiling sums are not one row per rung")
        counted = games if self.ceiling is not None else 0
        if np.any(against[:, 0] != counted) or above.min() < 0 or above.max() > counted \
                or (self.ceiling is None and np.any(against != 0)):
            raise ValueError(f"its ceiling sums count other than {counted} deals")


@dataclass
class SoloLadderAnswer:
    rungs: tuple[str, ...]
    ceiling_policy: str | None
    deals: int
    rows: pd.DataFrame
    leads: LadderAnswer
    ceiling: Interval | None
    converged: convergence.Convergence

    def table(self) -> pd.DataFrame:
        """One row per rung: mean score, share of the ceiling, bands' verdict, lead."""
        lead = self.leads.table
        out = self.rows.copy()
        for col in ("lead", "lead_low", "lead_high", "upset", "upset_low", "upset_high"):
            out[col] = [np.nan] + list(lead[col])
        return out

    def calibrated_for(self) -> list[str]:
        return [r["policy"] for _, r in self.rows.iterrows() if r["bands"] == "calibrated"]

    def skilled_sentence(self) -> str:
        """The skilled-play answer in one sentence: the top rung's mean score (and its share
        of the ceiling), the bands' verdict, and whether it converged."""
        top = self.rows.iloc[-1]
        share = ("" if self.ceiling_policy is None else
                 f", {top['of_ceiling']:.1%} [{top['of_ceiling_low']:.1%}, "
                 f"{top['of_ceiling_high']:.1%}] of what a clairvoyant player scores on the "
                 "same deals")
        calibrated = self.calibrated_for()
        bands = (f"the printed bands are calibrated for {', '.join(calibrated)}" if calibrated
                 else "the printed bands are calibrated for no rung")
        return (f"Among skilled players ({top['policy']}), a game scores {top['mean']:.1f} "
                f"[{top['mean_low']:.1f}, {top['mean_high']:.1f}] on average{share}; the "
                f"bands are {top['bands']} for its scores ({bands}; margin "
                f"{CALIBRATION_MARGIN_PP:g}% of games off the target split); "
                f"{self.converged.state} (its mean score against {self.rungs[-2]}'s).")

    def method(self) -> str:
        ceiling = ("" if self.ceiling_policy is None else
                   f" Share of the ceiling: the rung's total score over {self.ceiling_policy}'s "
                   "on the same deals (a ratio of totals; delta-method interval over deals, "
                   "Student-t). The ceiling knows each deal's order and searches it exactly, so "
                   "it bounds every player's score on that deal.")
        return " ".join([
            "Strength ladder (solo): every rung plays the same deals (game indices of one "
            "seed). Mean score: Student-t over deals. Bands: the off-target share's interval "
            f"(simultaneous Wilson box, linear programming); calibrated when wholly within "
            f"{CALIBRATION_MARGIN_PP:g}%." + ceiling, self.leads.method,
            convergence.method_text(self.converged.margin, solo=True)])

    def to_json(self) -> dict:
        return {"rungs": list(self.rungs), "ceiling_policy": self.ceiling_policy,
                "deals": self.deals, "table": self.table().to_dict(orient="records"),
                "ceiling_mean": None if self.ceiling is None else self.ceiling._asdict(),
                "convergence": self.converged.to_json(),
                "skilled_play": self.skilled_sentence(), "method": self.method()}
