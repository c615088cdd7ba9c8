"""Seat (turn-order) advantage: does sitting first win more often than the fair 1/P?

For any multi-player game's results: win share per seat with 95% intervals
(ties count 1/k, as the ``win_<seat>`` columns hold them), the gap from the
fair share 1/P, a chi-square test of "all seats equal", and a verdict against
a margin ±ε:

* **balanced within ±ε**: an equivalence test, the intersection of two one-sided
  tests per seat (TOST): every seat's 1 - 2α interval (90% at α = 5%) of the gap lies
  inside (-ε, +ε). Because all P tests must pass, a false "balanced" happens at most α
  of the time with no correction (Berger 1982); with no ties exactly, as its bounds are
  exact (Clopper-Pearson), where Wilson's let it reach 5.9%;
* **unbalanced**: some seat's one-sided bound at α/P lies beyond ±ε (Bonferroni over
  the seats, so a false "unbalanced" is at most α);
* **undetermined**: otherwise, with the games that would give the deciding test 80%
  power (``power``) at a conservative gap, or the statement that more games alone cannot
  be promised to decide it (:mod:`analyses.more_games`, on the confidence sequence's own
  width under ``--precision``).

Both error rates, and the power the plan promises, are checked by simulation in
``tests/test_seats.py``. The table's per-seat intervals are ordinary 95%; the
``sim_*`` columns are simultaneous (each at 1 - α/P) for "behind" or "ahead" of 1/P.
When every seat has the same policy, a seat figure is about the seat; with
different policies per seat it mixes seat and policy, and the answer says so.

A game may declare other seat-like views in ``GameInfo.extra['seat_views']``
(e.g. Montego Bay's rail position of each player's first worker); each view
gets win shares per value with intervals and a chi-square test of equality.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as st

from analyses import sequential
from analyses._text import text_table
from analyses.more_games import (
    PLAN_LEVEL,
    Plan,
    Widths,
    games_for_verdict,
    games_to_decide,
)
from analyses.stats import (
    CONFIDENCE,
    Interval,
    exact_share_interval_from_moments,
    holm,
    share_interval_from_moments,
)
from simulate.codec import storable

DEFAULT_MARGIN = 0.02
DEFAULT_POWER = 0.8  # the chance that the suggested games reach a verdict


@dataclass
class SeatAnswer:
    """The seat-advantage answer for one results frame."""

    players: int
    games: int
    margin: float
    table: pd.DataFrame          # seat, wins, share, low, high, gap, gap_low, gap_high, sim_low, sim_high
    chi2: float
    dof: int
    p_value: float
    verdict: str                 # "balanced" | "unbalanced" | "undetermined"
    verdict_text: str
    more_games: int | None       # for "undetermined": about how many more games would settle it
    method: str
    sequential: bool = False
    views: dict[str, pd.DataFrame] = field(default_factory=dict)
    view_tests: dict[str, tuple[float, int, float]] = field(default_factory=dict)
    about: str = "seat"          # what a row is: "seat", "seat and the policy in it", ...
    meta: dict = field(default_factory=dict)
    unit: str = "seat"           # the first column's heading
    first_number: int = 0        # how the first row is numbered (seats from 0, places from 1)
    order_note: str = "seat 0 is first in turn order"

    @property
    def headline(self) -> Interval:
        """The first player's gap from the fair share, with its interval."""
        row = self.table.iloc[0]
        return Interval(row["gap"], row["gap_low"], row["gap_high"])

    @property
    def headline_halfwidth(self) -> float:
        h = self.headline
        return (h.high - h.low) / 2

    def to_json(self) -> dict:
        return {
            "players": self.players, "games": self.games, "margin": self.margin,
            "seats": _records(self.table), "chi2": self.chi2, "dof": self.dof,
            "p_value": self.p_value, "verdict": self.verdict, "verdict_text": self.verdict_text,
            "more_games": self.more_games, "method": self.method, "about": self.about,
            "sequential": self.sequential,
            "views": {name: _records(frame) for name, frame in self.views.items()},
            "view_tests": {name: {"chi2": c, "dof": d, "p_value": p}
                           for name, (c, d, p) in self.view_tests.items()},
            "meta": self.meta,
        }

    def to_csv(self) -> str:
        parts = [self.table.assign(table="seats")]
        for name, frame in self.views.items():
            parts.append(frame.assign(table=name))
        return pd.concat(parts, ignore_index=True).to_csv(index=False, float_format="%.6g")

    def render_text(self) -> str:
        fair = 1 / self.players
        lines = []
        m = self.meta
        if m:
            lines.append(f"{m.get('game')}: {m.get('players')} players, policy "
                         f"{', '.join(m.get('policies', []))}, rules: {m.get('rules_changed')}, "
                         f"seed {m.get('seed')}, {self.games:,} games")
        lines.append(f"Win share by {self.about} ({self.order_note}; ties count 1/k; "
                     f"fair share 1/{self.players} = {fair:.1%})")
        rows = []
        for _, r in self.table.iterrows():
            rows.append([str(int(r["seat"]) + self.first_number), f"{r['share']:.2%}",
                         f"[{r['low']:.2%}, {r['high']:.2%}]", _pp(r["gap"]),
                         f"[{_pp(r['gap_low'])}, {_pp(r['gap_high'])}]"])
        ci = "anytime-valid 95% CI" if self.sequential else "95% CI"
        lines.append(text_table([self.unit, "win share", ci, "gap from fair", ci], rows))
        lines.append("")
        lines.append(f"Test that every {self.unit} wins equally often (Wald, clustered by "
                     f"game): chi2 = {self.chi2:.2f}, df = {self.dof}, {_p(self.p_value)}")
        lines.append(f"Verdict (margin ±{self.margin * 100:g} percentage points): {self.verdict_text}")
        for name, frame in self.views.items():
            lines.append("")
            lines.append(f"Win share by {name}")
            rows = [[str(int(r["value"])), f"{int(r['players_seen']):,}", f"{r['share']:.2%}",
                     f"[{r['low']:.2%}, {r['high']:.2%}]", _pp(r["gap"])]
                    for _, r in frame.iterrows()]
            lines.append(text_table([name, "player-games", "win share", "95% CI",
                                     "gap from fair"], rows))
            chi2, dof, p = self.view_tests[name]
            lines.append(f"Test that every {name} wins equally often (Wald, clustered by "
                         f"game): chi2 = {chi2:.2f}, df = {dof}, {_p(p)}")
        lines.append("")
        lines.append(self.method)
        return "\n".join(lines)


def seat_advantage(frame: pd.DataFrame, players: int, margin: float = DEFAULT_MARGIN,
                   confidence: float = CONFIDENCE, views: dict[str, str] | None = None,
                   sequential_plan: tuple[float, float] | None = None,
                   same_policy: bool = True, meta: dict | None = None,
                   unit: str = "seat", about: str | None = None, first_number: int = 0,
                   order_note: str | None = None, power: float = DEFAULT_POWER) -> SeatAnswer:
    """The seat answer for a frame with ``win_0 .. win_{P-1}`` columns: a
    :class:`SeatTally` fed the whole frame (a run too large to keep feeds one chunk by
    chunk instead, with the same answer).

    ``views`` maps a name to a column pattern such as ``'first_rail_pos_{seat}'``.
    ``sequential_plan`` = (alpha, planned games) switches every interval to the
    anytime-valid empirical-Bernstein confidence sequence of
    :mod:`analyses.sequential` (for runs stopped by ``--precision``); the rows
    are then read in game order.
    """
    if sequential_plan is not None and "game" in frame.columns:
        frame = frame.sort_values("game", kind="stable")  # the sequence is in game order
    tally = SeatTally(players, views, sequential_plan, confidence)
    tally.add(frame)
    return tally.answer(margin, same_policy=same_policy, meta=meta, unit=unit, about=about,
                        first_number=first_number, order_note=order_note, power=power)


@storable
class SeatTally:
    """What a seat answer needs, fed chunk by chunk: per seat the sum and sum of squares of
    its wins, the sum of each game's win vector times itself (the clustered test), a
    :class:`LevelTally` per seat view and, for ``--precision`` runs, a confidence sequence per
    seat and interval (fed in game order). Memory does not grow with the games."""

    def __init__(self, players: int, views: dict[str, str] | None = None,
                 sequential_plan: tuple[float, float] | None = None,
                 confidence: float = CONFIDENCE):
        if players < 2:
            raise ValueError("seat advantage needs a game of two or more players")
        self.players, self.views, self.plan = players, dict(views or {}), sequential_plan
        self.confidence = confidence
        self.n = 0
        self.sums = np.zeros(players)
        self.squares = np.zeros(players)
        self.products = np.zeros((players, players))
        self.by_view = {name: LevelTally() for name in self.views}
        self.ordered: np.ndarray | None = None  # a part's wins in game order (SeatParts)
        self.levels = {"ci": confidence, **verdict_levels(1 - confidence, players)}
        self.sequences = {} if sequential_plan is None else {
            (name, s): sequential.EBSequence(1 - level, sequential_plan[1])
            for name, level in self.levels.items() for s in range(players)}

    def add(self, frame: pd.DataFrame) -> SeatTally:
        """Count a chunk of games (in game order when the tally is sequential)."""
        wins = np.column_stack([frame[f"win_{s}"].to_numpy(dtype=float)
                                for s in range(self.players)])
        self.n += wins.shape[0]
        self.sums += wins.sum(axis=0)
        self.squares += (wins * wins).sum(axis=0)
        self.products += wins.T @ wins
        for name, pattern in self.views.items():
            values = np.column_stack([frame[pattern.format(seat=s)].to_numpy()
                                      for s in range(self.players)])
            self.by_view[name].add(values, wins)
        for (_, s), seq in self.sequences.items():
            seq.update(wins[:, s])
        return self

    def merge(self, other: SeatTally) -> SeatTally:
        """Add another tally of the same question (games of other indices). A sequential
        tally takes only a part that kept its games' wins in order (:class:`SeatParts`),
        merged in game order."""
        if other.sequences:
            raise ValueError("a confidence sequence reads the games in order: it cannot be "
                             "merged from parts")
        if self.sequences:
            if other.ordered is None:
                raise ValueError("a sequential tally merges only parts that kept their wins "
                                 "in game order (SeatParts(ordered=True))")
            for (_, s), seq in self.sequences.items():
                seq.update(other.ordered[:, s])
        self.n += other.n
        self.sums += other.sums
        self.squares += other.squares
        self.products += other.products
        for name, part in other.by_view.items():
            self.by_view[name].merge(part)
        return self

    def answer(self, margin: float = DEFAULT_MARGIN, same_policy: bool = True,
               meta: dict | None = None, unit: str = "seat", about: str | None = None,
               first_number: int = 0, order_note: str | None = None,
               power: float = DEFAULT_POWER) -> SeatAnswer:
        if not 0 < margin < 1:
            raise ValueError(f"the margin must be between 0 and 1, not {margin}")
        if not 0 < power < 1:
            raise ValueError(f"the power must be between 0 and 1, not {power}")
        n, players, confidence = self.n, self.players, self.confidence
        if n == 0:
            raise ValueError("no games to analyse")
        fair = 1.0 / players
        alpha = 1 - confidence
        means = self.sums / n
        variances = np.maximum(self.squares / n - means * means, 0.0)
        rows = []
        for s in range(players):
            bounds = {}
            for name, two_sided in self.levels.items():
                if self.plan is not None:
                    bounds[name] = self.sequences[(name, s)].interval()
                else:
                    # 'balanced' on exact bounds: Wilson's let a false 'balanced' through in
                    # up to 5.9% of runs at a gap of exactly the margin (issue 24 item 5)
                    interval = (exact_share_interval_from_moments if name == "eq"
                                else share_interval_from_moments)
                    bounds[name] = interval(n, means[s], variances[s], two_sided)
            ci = bounds["ci"]
            rows.append({
                "seat": s, "wins": float(self.sums[s]), "share": ci.estimate, "low": ci.low,
                "high": ci.high, "gap": ci.estimate - fair, "gap_low": ci.low - fair,
                "gap_high": ci.high - fair,
                "sim_low": bounds["sim"].low - fair, "sim_high": bounds["sim"].high - fair,
                "eq_low": bounds["eq"].low - fair, "eq_high": bounds["eq"].high - fair,
                "ub_low": bounds["ub"].low - fair, "ub_high": bounds["ub"].high - fair,
                "variance": float(variances[s]),
            })
        table = pd.DataFrame(rows)
        # Equal seats: the Wald test on each game's win vector, clustered by game; exact in
        # size with ties, where the chi-square of win counts was conservative. Each seat is
        # its own level, one player-game per game.
        ones = np.ones(players)
        chi2, dof, p = clustered_test_from_moments(
            self.sums, n * ones, self.products, np.outer(self.sums, ones),
            n * np.outer(ones, ones))
        widths = Widths(None if self.plan is None else self.plan[1])
        verdict, text, more = _verdict(table, n, margin, fair, unit, first_number, alpha,
                                       power, widths)
        method = _method_text(confidence, players, self.plan is not None, unit, power)
        answer = SeatAnswer(players, n, margin, table.drop(columns="variance"), chi2, dof, p,
                            verdict, text, more, method,
                            sequential=self.plan is not None,
                            about=about or ("seat" if same_policy
                                            else "seat and the policy in it"),
                            meta=meta or {}, unit=unit, first_number=first_number,
                            order_note=order_note or f"{unit} {first_number} is first in "
                                                     "turn order")
        for name, part in self.by_view.items():
            answer.views[name], answer.view_tests[name] = part.answer(players, confidence)
        return answer


@storable
@dataclass(frozen=True)
class SeatParts:
    """One block's seat tallies, made where the block is played (a run's ``part``): by
    seat with the game's seat views, and by turn-order place when ``place_pattern`` names
    the per-seat column that re-seats the wins. With ``ordered`` each part also keeps its
    wins in game order, for a sequential tally's confidence sequences."""

    players: int
    views: tuple[tuple[str, str], ...] = ()
    place_pattern: str | None = None
    ordered: bool = False

    def __call__(self, frame: pd.DataFrame) -> tuple[SeatTally, SeatTally | None]:
        by_seat = self._tally(frame, dict(self.views))
        by_place = (None if self.place_pattern is None else
                    self._tally(reseat(frame, self.players, self.place_pattern), {}))
        return by_seat, by_place

    @property
    def store_version(self) -> int | None:
        """The version of what the run store keeps of a part (``simulate.store``; bump it when
        what ``SeatTally.add`` keeps changes). An ordered part keeps every game's wins, which
        the store never keeps: None."""
        return None if self.ordered else 1

    def verify(self, result, games: int) -> None:
        """Refuse a stored part that cannot be this part's result for ``games`` games."""
        if not isinstance(result, tuple) or len(result) != 2:
            raise ValueError("not a pair of seat tallies")
        for tally, wanted in zip(result, (True, self.place_pattern is not None), strict=True):
            if not wanted:
                if tally is not None:
                    raise ValueError("a tally by place where the game has no turn order")
                continue
            if type(tally) is not SeatTally or tally.players != self.players:
                raise ValueError("not a seat tally of this player count")
            fresh = SeatTally(self.players, dict(self.views) if tally is result[0] else {})
            if set(vars(tally)) != set(vars(fresh)) or tally.views != fresh.views \
                    or set(tally.by_view) != set(fresh.by_view) or tally.sequences \
                    or tally.ordered is not None or tally.levels != fresh.levels \
                    or any(type(v) is not LevelTally for v in tally.by_view.values()):
                raise ValueError("not the seat tally of this question (its fields differ)")
            try:  # the merge the run will make, tried on a fresh tally first
                fresh.merge(tally)
            except Exception as exc:  # noqa: BLE001 - any failure means it is not a tally
                raise ValueError(f"it does not merge ({type(exc).__name__})") from None
            p = self.players
            shapes = ((tally.sums, (p,)), (tally.squares, (p,)), (tally.products, (p, p)))
            if any(not isinstance(a, np.ndarray) or a.shape != s for a, s in shapes):
                raise ValueError("its arrays are not one per seat")
            if tally.n != games or not 0 <= tally.sums.min() <= tally.sums.max() <= games:
                raise ValueError(f"it counts {tally.n} games, not {games}")
            if abs(tally.sums.sum() - games) > 1e-6 * games + 1e-9:
                raise ValueError("its wins do not add up to one a game")

    def _tally(self, frame: pd.DataFrame, views: dict) -> SeatTally:
        tally = SeatTally(self.players, views).add(frame)
        if self.ordered:
            tally.ordered = np.column_stack([frame[f"win_{s}"].to_numpy(dtype=float)
                                             for s in range(self.players)])
        return tally


@storable
class LevelTally:
    """What a per-seat view needs (win share per value of a per-seat column, e.g. a rail
    position), fed chunk by chunk: per value the player-games, their wins and squared wins,
    and per game the vectors of wins and of player-games by value, summed with their
    products (the clustered test). Values are whole numbers >= 0."""

    def __init__(self):
        self.k = 0
        self.count = np.zeros(0)
        self.wins = np.zeros(0)
        self.squares = np.zeros(0)
        self.cross = {key: np.zeros((0, 0)) for key in ("ww", "wn", "nn")}

    def _grow(self, k: int) -> None:
        if k <= self.k:
            return
        pad = k - self.k
        self.count, self.wins, self.squares = (np.pad(a, (0, pad))
                                               for a in (self.count, self.wins, self.squares))
        self.cross = {key: np.pad(m, ((0, pad), (0, pad))) for key, m in self.cross.items()}
        self.k = k

    def add(self, values: np.ndarray, wins: np.ndarray) -> LevelTally:
        values = np.asarray(values)
        if values.size == 0:
            return self
        if values.min() < 0 or np.any(values != np.round(values)):
            raise ValueError("a seat view's values must be whole numbers >= 0")
        values = values.astype(np.int64)
        self._grow(int(values.max()) + 1)
        onehot = values[:, :, None] == np.arange(self.k)[None, None, :]   # games x seats x k
        w = (onehot * wins[:, :, None]).sum(axis=1)                        # games x k
        c = onehot.sum(axis=1).astype(float)
        self.count += c.sum(axis=0)
        self.wins += w.sum(axis=0)
        self.squares += (onehot * (wins * wins)[:, :, None]).sum(axis=(0, 1))
        self.cross["ww"] += w.T @ w
        self.cross["wn"] += w.T @ c
        self.cross["nn"] += c.T @ c
        return self

    def merge(self, other: LevelTally) -> LevelTally:
        self._grow(other.k)
        other._grow(self.k)
        self.count += other.count
        self.wins += other.wins
        self.squares += other.squares
        for key in self.cross:
            self.cross[key] += other.cross[key]
        return self

    def answer(self, players: int, confidence: float = CONFIDENCE
               ) -> tuple[pd.DataFrame, tuple[float, int, float]]:
        """Win share per value with intervals, and the clustered test of equal shares."""
        fair = 1.0 / players
        seen = np.flatnonzero(self.count > 0)
        rows = []
        for v in seen:
            n = self.count[v]
            m = self.wins[v] / n
            ci = share_interval_from_moments(n, m, self.squares[v] / n - m * m, confidence)
            rows.append({"value": int(v), "players_seen": int(n), "wins": float(self.wins[v]),
                         "share": ci.estimate, "low": ci.low, "high": ci.high,
                         "gap": ci.estimate - fair})
        table = pd.DataFrame(rows, columns=["value", "players_seen", "wins", "share", "low",
                                            "high", "gap"])
        pick = np.ix_(seen, seen)
        test = clustered_test_from_moments(self.wins[seen], self.count[seen],
                                           self.cross["ww"][pick], self.cross["wn"][pick],
                                           self.cross["nn"][pick])
        return table, test


def reseat(frame: pd.DataFrame, players: int, pattern: str) -> pd.DataFrame:
    """The wins re-seated by a per-seat order column: ``win_k`` is the win of the player
    with the (k+1)-th smallest value of ``pattern`` in that game (e.g. Montego Bay's rail
    position of each player's first worker, which is the game's turn order)."""
    key = np.column_stack([frame[pattern.format(seat=s)].to_numpy() for s in range(players)])
    wins = np.column_stack([frame[f"win_{s}"].to_numpy(dtype=float) for s in range(players)])
    ranked = np.take_along_axis(wins, np.argsort(key, axis=1, kind="stable"), axis=1)
    return pd.DataFrame({f"win_{k}": ranked[:, k] for k in range(players)})


def win_share_by(frame: pd.DataFrame, players: int, pattern: str,
                 confidence: float = CONFIDENCE) -> tuple[pd.DataFrame, tuple[float, int, float]]:
    """Win share per value of a per-seat column (e.g. the rail position of a seat's first worker).

    Every (game, seat) pair is one player-game; the share for a value is the
    mean win of the player-games with that value. The test of equal shares is
    clustered by game (:func:`clustered_equal_shares`): the player-games of
    one game are not independent (a game has one winner), and a test that
    treats them so rejects a true "no effect" too often (8-13% at 5%).
    """
    values = np.column_stack([frame[pattern.format(seat=s)].to_numpy() for s in range(players)])
    wins = np.column_stack([frame[f"win_{s}"].to_numpy(dtype=float) for s in range(players)])
    return LevelTally().add(values, wins).answer(players, confidence)


def clustered_equal_shares(values: np.ndarray, wins: np.ndarray,
                           levels: np.ndarray) -> tuple[float, int, float]:
    """Do player-games of every level of a per-seat value win equally often? (stat, dof, p).

    ``values`` and ``wins`` are games x seats; see :func:`clustered_test_from_moments`.
    """
    onehot = values[:, :, None] == np.asarray(levels)[None, None, :]   # games x seats x k
    w = (onehot * wins[:, :, None]).sum(axis=1)                          # games x k
    c = onehot.sum(axis=1).astype(float)
    return clustered_test_from_moments(w.sum(axis=0), c.sum(axis=0), w.T @ w, w.T @ c, c.T @ c)


def clustered_test_from_moments(wins: np.ndarray, counts: np.ndarray, ww: np.ndarray,
                                wn: np.ndarray, nn: np.ndarray) -> tuple[float, int, float]:
    """The clustered Wald test of equal shares over k levels, from sums over games.

    Per game g and level v: w_gv its wins at v, n_gv its player-games at v. Method: with the
    pooled rate r, the residual e_g = w_g - r n_g has mean 0 under equal shares; the sum over
    games of e_g is tested against its covariance, the sum of e_g e_g' over games (games are
    independent, the seats of one game are not): E' S^+ E, chi-square with rank(S) degrees
    of freedom (k - 1 when every game's wins add up to the same total). From the sums
    W = sum w_g, N = sum n_g, WW = sum w_g w_g', WN = sum w_g n_g', NN = sum n_g n_g':
    E = W - r N and S = WW - r (WN + WN') + r^2 NN.
    """
    if len(wins) < 2 or counts.sum() == 0:
        return 0.0, 0, 1.0
    rate = wins.sum() / counts.sum()
    if rate in (0.0, 1.0):
        return 0.0, 0, 1.0
    total = wins - rate * counts
    cov = ww - rate * (wn + wn.T) + rate * rate * nn
    dof = int(np.linalg.matrix_rank(cov, tol=1e-9 * max(1.0, float(np.abs(cov).max()))))
    if dof == 0:
        return 0.0, 0, 1.0
    stat = float(total @ np.linalg.pinv(cov, rcond=1e-10, hermitian=True) @ total)
    return stat, dof, float(st.chi2.sf(stat, dof))


def verdict_levels(alpha: float, players: int) -> dict[str, float]:
    """Two-sided confidence of the per-seat intervals behind each verdict, for level alpha.

    * ``eq`` ('balanced'): an intersection-union test (Berger 1982) of two one-sided tests
      per seat (TOST): every seat's gap lies within the margin when each seat's one-sided
      bounds at level alpha do, i.e. its two-sided 1 - 2 alpha interval. The error rate of a
      false 'balanced' is at most alpha with no multiplicity correction (all P tests must
      pass).
    * ``ub`` ('unbalanced'): a union-intersection test: some seat's gap lies beyond the
      margin when its one-sided bound at alpha / P (Bonferroni over the seats) does, i.e.
      its two-sided 1 - 2 alpha / P interval. A false 'unbalanced' is at most alpha.
    * ``sim``: two-sided simultaneous intervals over the seats (each at 1 - alpha / P), for
      statements that a seat is behind or ahead of 1/P.
    """
    return {"eq": 1 - 2 * alpha, "ub": 1 - 2 * alpha / players, "sim": 1 - alpha / players}


def _verdict(table: pd.DataFrame, n: int, margin: float, fair: float, unit: str,
             first_number: int, alpha: float, power: float, widths: Widths):
    eq_low, eq_high = table["eq_low"].to_numpy(), table["eq_high"].to_numpy()
    ub_low, ub_high = table["ub_low"].to_numpy(), table["ub_high"].to_numpy()
    gaps = table["gap"].to_numpy()
    level = f"{alpha:.0%}"
    if np.all((eq_low > -margin) & (eq_high < margin)):
        worst = int(np.argmax(np.maximum(np.abs(eq_low), np.abs(eq_high))))
        return "balanced", (
            f"balanced within ±{margin * 100:g} pp: every {unit}'s win share is within "
            f"{margin * 100:g} points of the fair {fair:.1%} (equivalence test at {level}: "
            f"the widest bound is {unit} {worst + first_number}'s "
            f"{max(abs(eq_low[worst]), abs(eq_high[worst])) * 100:.2f} pp)"), None
    outside = np.where((ub_low > margin) | (ub_high < -margin))[0]
    if outside.size:
        s = int(outside[np.argmax(np.abs(gaps[outside]))])
        word = "more" if gaps[s] > 0 else "less"
        bound = ub_low[s] if gaps[s] > 0 else ub_high[s]
        return "unbalanced", (
            f"unbalanced: {unit} {s + first_number} wins {abs(gaps[s]) * 100:.1f} pp {word} "
            f"often than the fair {fair:.1%} (its one-sided bound at {level}/{len(gaps)} is "
            f"{bound * 100:+.2f} pp, beyond ±{margin * 100:g} pp)"), None
    plan = games_for_verdict(table, n, margin, alpha, power, widths)
    in_all, seat = games_to_decide(table, n, margin, widths, alpha)
    if not math.isfinite(plan.games):
        more, tail = None, _cannot_decide(plan, margin, unit, first_number, power, widths,
                                          table, n, alpha, in_all)
    else:
        more = _round_up(max(int(math.ceil(plan.games)) - n, 1))
        who = f"{unit} {seat + first_number}"
        tail = (f"if the gaps are as observed, about {_about(in_all)} games in all would "
                f"shrink {who}'s interval enough to decide at ±{margin * 100:g} pp; planned at "
                f"a conservative gap ({unit} {plan.seat + first_number}'s one-sided "
                f"{PLAN_LEVEL:.0%} bound nearest the margin, {_pp(plan.bound)}), about "
                f"{more:,} more games than these {n:,} reach a verdict with {power:.0%} power "
                f"(`rumsim plan seats ... -n {n + more}` estimates the time)")
    return "undetermined", (
        f"undetermined at ±{margin * 100:g} pp: neither test decides (the intervals straddle "
        f"the margin); {tail}"), more


def _cannot_decide(plan: Plan, margin: float, unit: str, first_number: int, power: float,
                   widths: Widths, table: pd.DataFrame, n: int, alpha: float,
                   in_all: float) -> str:
    """Why no number of games can be promised to decide, worded as a lack of evidence (it
    is never evidence that a gap lies on the margin, nor that the seats are balanced)."""
    who = f"{unit} {plan.seat + first_number}"
    if plan.reason == "floor":
        fixed = games_for_verdict(table, n, margin, alpha, power)
        alternative = (f"a run of a fixed number of games can (`rumsim seats -n "
                       f"{_round_up(int(math.ceil(fixed.games)))}` for {power:.0%} power)"
                       if math.isfinite(fixed.games) else "a smaller --precision can")
        return (f"more games alone cannot decide it under this --precision: its confidence "
                f"sequences (bets tuned to {int(widths.n_plan):,} games) never narrow below "
                f"±{plan.floor * 100:.2f} pp for {who}, whose conservative gap is "
                f"{plan.needed * 100:.2f} pp from the margin; {alternative}")
    where = "across" if plan.needed < 0 else "on or too near"
    hint = (f" (if the gaps are as observed, about {_about(in_all)} games in all would decide "
            f"about half the time, a point at which to look again)"
            if math.isfinite(in_all) else "")
    return (f"more games alone cannot be promised to decide it: {who}'s gap may lie on the "
            f"margin (its one-sided {PLAN_LEVEL:.0%} bound toward the margin, "
            f"{_pp(plan.bound)}, lies {where} ±{margin * 100:g} pp), and no number of games "
            f"decides a gap on the margin; this is a lack of evidence either way, not "
            f"evidence that the gap is on the margin{hint}")


def _method_text(confidence: float, players: int, sequential_mode: bool,
                 unit: str = "seat", power: float = 0.8) -> str:
    if sequential_mode:
        intervals = ("Intervals: anytime-valid confidence sequences (predictable plug-in "
                     "empirical Bernstein for [0,1] values, Waudby-Smith & Ramdas 2023, on the "
                     "games in index order), valid although the run stopped once the headline "
                     "interval was narrow enough")
    else:
        intervals = ("Intervals: Wilson score intervals (effective sample size for tied wins "
                     "counted 1/k); the 'balanced' test's are exact (Clopper-Pearson) on the "
                     "same effective sample size, so with no ties its error rate is at most 5% "
                     "exactly, not only to Wilson's approximation")
    alpha = 1 - confidence
    return (f"{intervals}. Verdicts, each with error rate at most {alpha:.0%}: 'balanced' is "
            f"an equivalence test (intersection-union of two one-sided tests per {unit}, "
            f"each at {alpha:.0%}: every {unit}'s {1 - 2 * alpha:.0%} interval inside the "
            f"margin); 'unbalanced' a union-intersection test (one {unit}'s one-sided bound at "
            f"{alpha:.0%}/{players} beyond the margin); for 'undetermined', 'games in all' "
            f"shrinks the deciding interval until it clears the margin at the observed gaps, "
            f"and 'N more games' plans the deciding test at {power:.0%} power at a "
            f"conservative gap (each {unit}'s one-sided {PLAN_LEVEL:.0%} bound nearest the "
            f"margin), or says that none can be promised"
            + (", both on the confidence sequence's own width (which stops narrowing at a "
               "floor)" if sequential_mode else "")
            + f". Equal {unit}s: a Wald test on each game's win vector with its covariance "
              "estimated over games (chi-square with P - 1 degrees of freedom; exact in size "
              "when games end in ties, where a chi-square of win counts is conservative).")


def equal_share_tests(answer: SeatAnswer, label: str = "") -> dict[str, float]:
    """The equal-shares tests an answer shows (its own, then each view's): name -> p."""
    out = {f"{label}{answer.about}": answer.p_value}
    for name, (_, _, p) in answer.view_tests.items():
        out[f"{label}{name}"] = p
    return out


def multiplicity_line(tests: dict[str, float], confidence: float = CONFIDENCE) -> str:
    """One line for an output that shows several equal-shares tests: each one's p-value
    Holm-adjusted over all of them (the chance of any false 'unequal' at most 1 - confidence),
    and what a large p does not mean."""
    adjusted = holm(np.array(list(tests.values()), dtype=float))
    cells = "; ".join(f"{name} {_p(q)}" for name, q in zip(tests, adjusted, strict=True))
    return (f"Multiplicity: the {len(tests)} equal-shares tests above, Holm-adjusted "
            f"(family-wise {1 - confidence:.0%}): {cells}. A large p is not evidence of "
            f"equal shares; only a 'balanced' verdict is.")


def _round_up(x: int) -> int:
    """Round a game count up to two significant figures."""
    if x < 100:
        return int(x)
    digits = int(math.floor(math.log10(x))) - 1
    step = 10 ** digits
    return int(math.ceil(x / step) * step)


def _about(x: float) -> str:
    """A game count rounded up to two significant figures, in words past a million:
    '88,000', '4.1 million', '1.2 billion'."""
    n = _round_up(int(math.ceil(x)))
    for size, word in ((10**9, "billion"), (10**6, "million")):
        if n >= size:
            return f"{n / size:.2g} {word}" if n < 100 * size else f"{n / size:,.0f} {word}"
    return f"{n:,}"


def _pp(x: float) -> str:
    return f"{x * 100:+.2f} pp"


def _p(p: float) -> str:
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            for row in frame.to_dict(orient="records")]
