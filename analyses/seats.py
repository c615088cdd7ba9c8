"""Seat (turn-order) advantage: does sitting first win more often than the fair 1/P?

For any multi-player game's results: win share per seat with 95% intervals
(ties count 1/k, as the ``win_<seat>`` columns hold them), the gap from the
fair share 1/P, a chi-square test of "all seats equal", and a verdict against
a margin ±ε:

* **balanced within ±ε** — only when every seat's simultaneous interval for
  the gap lies inside (-ε, +ε);
* **unbalanced** — when some seat's interval lies wholly outside [-ε, +ε];
* **undetermined** — otherwise, with about how many more games would settle it.

The verdict's intervals are simultaneous over the P seats (Bonferroni:
each at 1 - 0.05/P), because "every seat inside the margin" is a statement
about all of them at once. The table's per-seat intervals are ordinary 95%.
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
from analyses.stats import CONFIDENCE, Interval, share_interval, z_value

DEFAULT_MARGIN = 0.02
MOST_GAMES = 10**12


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
        lines.append(f"Chi-square test that every {self.unit} wins equally often: "
                     f"chi2 = {self.chi2:.2f}, df = {self.dof}, {_p(self.p_value)}")
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
                   order_note: str | None = None) -> SeatAnswer:
    """The seat answer for a frame with ``win_0 .. win_{P-1}`` columns.

    ``views`` maps a name to a column pattern such as ``'first_rail_pos_{seat}'``.
    ``sequential_plan`` = (alpha, planned games) switches every interval to the
    anytime-valid empirical-Bernstein confidence sequence of
    :mod:`analyses.sequential` (for runs stopped by ``--precision``); the rows
    are then read in game order.
    """
    if players < 2:
        raise ValueError("seat advantage needs a game of two or more players")
    if not 0 < margin < 1:
        raise ValueError(f"the margin must be between 0 and 1, not {margin}")
    if sequential_plan is not None and "game" in frame.columns:
        frame = frame.sort_values("game", kind="stable")  # the sequence is in game order
    wins = np.column_stack([frame[f"win_{s}"].to_numpy(dtype=float) for s in range(players)])
    n = wins.shape[0]
    if n == 0:
        raise ValueError("no games to analyse")
    fair = 1.0 / players
    z_sim = z_value(1 - (1 - confidence) / players)
    rows = []
    for s in range(players):
        w = wins[:, s]
        if sequential_plan is not None:
            alpha, n_plan = sequential_plan
            ci = sequential.eb_interval(w, alpha, n_plan)
            sim = sequential.eb_interval(w, alpha / players, n_plan)
        else:
            ci = share_interval(w, confidence)
            sim = share_interval(w, 1 - (1 - confidence) / players)
        rows.append({
            "seat": s, "wins": float(w.sum()), "share": ci.estimate, "low": ci.low,
            "high": ci.high, "gap": ci.estimate - fair, "gap_low": ci.low - fair,
            "gap_high": ci.high - fair, "sim_low": sim.low - fair, "sim_high": sim.high - fair,
            "variance": float(w.var()),
        })
    table = pd.DataFrame(rows)
    chi2, dof, p = _chi_square_equal(table["wins"].to_numpy())
    verdict, text, more = _verdict(table, n, margin, z_sim, fair, unit, first_number)
    method = _method_text(confidence, players, sequential_plan is not None, unit)
    answer = SeatAnswer(players, n, margin, table.drop(columns="variance"), chi2, dof, p,
                        verdict, text, more, method,
                        sequential=sequential_plan is not None,
                        about=about or ("seat" if same_policy else "seat and the policy in it"),
                        meta=meta or {}, unit=unit, first_number=first_number,
                        order_note=order_note or f"{unit} {first_number} is first in turn order")
    for name, pattern in (views or {}).items():
        answer.views[name], answer.view_tests[name] = win_share_by(frame, players, pattern,
                                                                   confidence)
    return answer


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
    values = np.concatenate([frame[pattern.format(seat=s)].to_numpy() for s in range(players)])
    wins = np.concatenate([frame[f"win_{s}"].to_numpy(dtype=float) for s in range(players)])
    fair = 1.0 / players
    rows = []
    for v in np.unique(values):
        w = wins[values == v]
        ci = share_interval(w, confidence)
        rows.append({"value": int(v), "players_seen": int(w.size), "wins": float(w.sum()),
                     "share": ci.estimate, "low": ci.low, "high": ci.high,
                     "gap": ci.estimate - fair})
    table = pd.DataFrame(rows)
    per_game_values = np.stack([frame[pattern.format(seat=s)].to_numpy()
                                for s in range(players)], axis=1)
    per_game_wins = frame[[f"win_{s}" for s in range(players)]].to_numpy(dtype=float)
    return table, clustered_equal_shares(per_game_values, per_game_wins,
                                         table["value"].to_numpy())


def clustered_equal_shares(values: np.ndarray, wins: np.ndarray,
                           levels: np.ndarray) -> tuple[float, int, float]:
    """Do player-games of every level of a per-seat value win equally often? (stat, dof, p).

    ``values`` and ``wins`` are games x seats. Method: a Wald test clustered by game. Per game
    g and level v, the residual e_gv = (wins of its seats at v) - r * (its seats at v), r the
    pooled win rate; under equal shares the sum over games of e_g has mean 0, and its
    covariance is estimated by the sum of e_g e_g' over games (games are independent, the
    seats of one game are not). The statistic E' S^+ E is chi-square with rank(S) degrees of
    freedom (k - 1 when every game's wins add up to the same total).
    """
    if len(levels) < 2:
        return 0.0, 0, 1.0
    onehot = values[:, :, None] == np.asarray(levels)[None, None, :]   # games x seats x k
    w = (onehot * wins[:, :, None]).sum(axis=1)                          # games x k
    n = onehot.sum(axis=1).astype(float)
    rate = w.sum() / n.sum()
    if rate in (0.0, 1.0):
        return 0.0, 0, 1.0
    e = w - rate * n
    total = e.sum(axis=0)
    cov = e.T @ e
    dof = int(np.linalg.matrix_rank(cov, tol=1e-9 * max(1.0, float(np.abs(cov).max()))))
    if dof == 0:
        return 0.0, 0, 1.0
    stat = float(total @ np.linalg.pinv(cov, rcond=1e-10, hermitian=True) @ total)
    return stat, dof, float(st.chi2.sf(stat, dof))


def _chi_square_equal(wins: np.ndarray) -> tuple[float, int, float]:
    """Goodness of fit of the seats' win counts to equal shares (games without a winner drop out)."""
    total = wins.sum()
    if total <= 0:
        return 0.0, len(wins) - 1, 1.0
    expected = total / len(wins)
    chi2 = float(np.sum((wins - expected) ** 2) / expected)
    dof = len(wins) - 1
    return chi2, dof, float(st.chi2.sf(chi2, dof))


def _verdict(table: pd.DataFrame, n: int, margin: float, z: float, fair: float,
             unit: str = "seat", first_number: int = 0):
    lows = table["sim_low"].to_numpy()
    highs = table["sim_high"].to_numpy()
    gaps = table["gap"].to_numpy()
    if np.all((lows > -margin) & (highs < margin)):
        worst = int(np.argmax(np.maximum(np.abs(lows), np.abs(highs))))
        return "balanced", (
            f"balanced within ±{margin * 100:g} pp: every {unit}'s win share is within "
            f"{margin * 100:g} points of the fair {fair:.1%} (the widest simultaneous bound is "
            f"{unit} {worst + first_number}'s "
            f"{max(abs(lows[worst]), abs(highs[worst])) * 100:.2f} pp)"), None
    outside = np.where((lows > margin) | (highs < -margin))[0]
    if outside.size:
        s = int(outside[np.argmax(np.abs(gaps[outside]))])
        word = "more" if gaps[s] > 0 else "less"
        return "unbalanced", (
            f"unbalanced: {unit} {s + first_number} wins {abs(gaps[s]) * 100:.1f} pp {word} "
            f"often than the fair "
            f"{fair:.1%} (simultaneous interval {lows[s] * 100:+.2f} to {highs[s] * 100:+.2f} pp, "
            f"wholly beyond ±{margin * 100:g} pp)"), None
    needed = _games_needed(table, margin, z)
    fair_needed = _games_if_fair(table, margin, z)
    if needed <= 100 * n:
        tail = f"needs about {_round_up(max(needed - n, 1)):,} more games"
        more = max(needed - n, 1)
    else:
        # A gap estimated close to the margin makes the extrapolation explode;
        # say what is sure: the games needed even if the seats are exactly fair.
        more = max(fair_needed - n, 1)
        tail = (f"needs at least {_round_up(more):,} more games (the number that would show "
                f"balance if the seats were exactly fair; a seat whose true gap is near "
                f"±{margin * 100:g} pp needs many more)")
    return "undetermined", (
        f"undetermined at ±{margin * 100:g} pp: the intervals straddle the margin; {tail}"), more


def _games_needed(table: pd.DataFrame, margin: float, z: float) -> int:
    """Games at which the intervals would clear the margin, if the shares stay where they are.

    Per seat, n_s = z² · var / d² with d the distance of the seat's gap from
    the margin. If every gap is inside the margin, all seats must clear it
    (the largest n_s); otherwise one seat beyond it is enough (the smallest
    n_s among those).
    """
    gaps = table["gap"].to_numpy()
    var = table["variance"].to_numpy()
    distance = np.abs(margin - np.abs(gaps))
    with np.errstate(divide="ignore"):
        need = np.where(distance > 0, z * z * var / np.maximum(distance, 1e-300) ** 2, np.inf)
    beyond = np.abs(gaps) >= margin
    value = float(need[beyond].min()) if beyond.any() else float(need.max())
    if not math.isfinite(value):
        return MOST_GAMES
    return int(min(math.ceil(value), MOST_GAMES))


def _games_if_fair(table: pd.DataFrame, margin: float, z: float) -> int:
    """Games at which every seat's interval would fit the margin if every true gap were 0."""
    var = float(table["variance"].max())
    return int(min(math.ceil(z * z * var / margin ** 2), MOST_GAMES))


def _method_text(confidence: float, players: int, sequential_mode: bool,
                 unit: str = "seat") -> str:
    if sequential_mode:
        intervals = ("Intervals: anytime-valid confidence sequences (predictable plug-in "
                     "empirical Bernstein for [0,1] values, Waudby-Smith & Ramdas 2023, on the "
                     "games in index order), valid although the run stopped once the headline "
                     "interval was narrow enough")
    else:
        intervals = ("Intervals: Wilson score intervals (effective sample size for tied wins "
                     "counted 1/k)")
    return (f"{intervals}; verdict on simultaneous intervals over the {players} {unit}s "
            f"(Bonferroni, each at {1 - (1 - confidence) / players:.2%}). Chi-square: goodness "
            f"of fit of the {unit}s' win counts to equal shares.")


def _round_up(x: int) -> int:
    """Round a game count up to two significant figures."""
    if x < 100:
        return int(x)
    digits = int(math.floor(math.log10(x))) - 1
    step = 10 ** digits
    return int(math.ceil(x / step) * step)


def _pp(x: float) -> str:
    return f"{x * 100:+.2f} pp"


def _p(p: float) -> str:
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
            for row in frame.to_dict(orient="records")]
