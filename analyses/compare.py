"""Shorter-game variations among skilled players: does a variation shorten the game, and what
does it break?

Each variation (a preset) is played with the base rules on the same random numbers (game
``i`` starts from the same world stream under every rule set: common random numbers, as
:mod:`analyses.variants` pairs games), every seat a skilled player (the game's ``expert``),
so every game gives a paired difference. For each variation the answer holds:

1. how much shorter: mean and median rounds (and turns, where the game counts them), as
   :mod:`analyses.variants` compares them (paired normal interval of the mean; paired
   Poisson bootstrap of the median), and minutes at the table only when a pace is given
   (no rules spec of these games gives one: the answer says so rather than invent one);
2. the first player's edge (win share of the first player in turn order minus 1/P) under
   the base rules and under the variation, each with its interval, and the paired change,
   tested both ways: 'changes' (two-sided) and 'unchanged within ±margin' (an equivalence
   test, two one-sided tests);
3. what it breaks: the game-feel metrics of :mod:`analyses.feel` (close finishes, ties for
   first, lead changes, comebacks) and runaway leaders, each per game and paired over the
   same deals (a ratio of sums, compared by the delta method);
4. whether a search player agrees on the change of the first player's edge: the search in
   every seat and the skilled player in every seat on the same (fewer) deals under the base
   rules and each variation; per deal the difference of the two changes, its mean tested
   two ways: 'disagrees' (two-sided) and 'agrees within ±margin' (two one-sided tests).

Multiplicity: every test of the answer (each length, edge, feel and agreement test of every
variation) is one family, Holm's step-down at 5%, so the chance that any verdict of the
answer is wrong is at most 5%. A test that decides nothing reads 'not shown to change',
never 'unchanged'.

Tallies, not rows: :class:`CompareTally` (the main comparison) and :class:`CheckTally` (the
search check) are fed block by block (:class:`CompareParts`, :class:`CheckParts`, made
where a block is played and kept in the run store), merge in block order, and keep sums
and value-pair tables whose size does not grow with the games.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as st

from analyses.seats import reseat
from analyses.stats import CONFIDENCE, holm, mean_interval_from_moments, z_value
from analyses.variants import N_BOOT, VariantsTally, bootstrap_interval_and_p  # noqa: F401
from simulate.codec import storable

MARGIN = 0.02  # 'unchanged' / 'agrees' within ±2 percentage points of the first player's edge


# ================================================================ what each game declares


@dataclass(frozen=True)
class GameCompare:
    """What a comparison of a game's variations needs that its rules do not declare.

    ``shorter``: its shorter-game presets (the rules' preset descriptions say so, not a
    flag); ``players``: its main player count (the report page's ladder is played there);
    ``margin_prefix``/``close``/``unit``: the winner's margin column, the margin at or under
    which a game counts as close and its unit, as the page's game-feel section declares them
    (``tests/test_compare.py`` holds the two to each other); ``pace``: minutes per round at
    the table from the rules spec, None where the spec gives none."""

    shorter: tuple[str, ...]
    players: int
    margin_prefix: str = "score"
    close: float = 2.0
    unit: str = "points"
    pace: float | None = None


GAMES: dict[str, GameCompare] = {
    "rum-rebellion": GameCompare(("short_a", "short_b", "short_c", "short_d", "short_e_tol",
                                  "short_e_rc", "short_all"), 4, "votes", 10, "votes"),
    "motines": GameCompare(("short", "very_short"), 4, "score", 2, "PV"),
    "rum-and-pirates": GameCompare(("short_4", "short_3"), 4, "score", 5, "VP"),
    "montego-bay": GameCompare(("short",), 3, "score", 2, "VP"),
}


def declared(game: str) -> GameCompare:
    """The game's declaration (a solo game has none: it has no first player to compare)."""
    if game not in GAMES:
        raise KeyError(game)
    return GAMES[game]


# ================================================================ per-game values


@dataclass(frozen=True)
class FeelMetric:
    """A game-feel quantity compared per game: a ratio of sums (numerator over denominator,
    each a per-game count), its words for a designer and where its definition comes from."""

    name: str
    label: str          # 'close finishes'
    fewer: str          # 'fewer close finishes'
    more: str
    definition: str
    source: str         # the analyses.feel metric it is the paired form of, or 'compare'
    share: bool = True  # a share of games (percent); else a count per game


FEEL: tuple[FeelMetric, ...] = (
    FeelMetric("close", "close finishes", "fewer close finishes", "more close finishes",
               "decided games won by at most the declared margin over the best of the others "
               "(a shared win counts as close)", "feel.margin"),
    FeelMetric("lead_changes", "lead changes per game", "fewer lead changes per game",
               "more lead changes per game", "round ends whose sole leader differs from the "
               "last sole leader", "feel.lead_changes", share=False),
    FeelMetric("lead_rate", "lead changes per round boundary",
               "fewer lead changes per round boundary", "more lead changes per round boundary",
               "lead changes over round boundaries (rounds - 1), a rate that does not fall "
               "just because the game has fewer rounds", "feel.lead_changes"),
    FeelMetric("comebacks", "comebacks", "fewer comebacks", "more comebacks",
               "games won alone by a seat that was not the sole leader at half time, among "
               "games won alone with a sole half-time leader", "feel.comebacks"),
    FeelMetric("ties", "ties for first", "fewer ties for first", "more ties for first",
               "decided games whose top final standing is shared before the tie-break",
               "feel.ties"),
    FeelMetric("runaway", "runaway leaders", "fewer runaway leaders", "more runaway leaders",
               "games won alone by the sole half-time leader with no lead change in the whole "
               "game (won wire to wire), among games won alone with a sole half-time leader",
               "compare"),
)
FEEL_NAMES = tuple(m.name for m in FEEL)


def first_seat(frame: pd.DataFrame, players: int, order: str | None) -> np.ndarray:
    """Per game, the seat that is first in turn order: seat 0, or the seat with the smallest
    value of the per-seat column ``order`` (Montego Bay's rail position)."""
    if order is None:
        return np.zeros(len(frame), dtype=np.int64)
    key = np.column_stack([frame[order.format(seat=s)].to_numpy() for s in range(players)])
    return np.argmin(key, axis=1)


def feel_values(frame: pd.DataFrame, players: int, margin_prefix: str,
                close: float) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per game, each feel metric's numerator and denominator (whole numbers), defined as
    :class:`analyses.feel.FeelTally` counts them; a metric whose columns the frame lacks is
    left out."""
    seats = range(players)
    wins = frame[[f"win_{s}" for s in seats]].to_numpy(dtype=float)
    standing = frame[[f"score_{s}" for s in seats]].to_numpy(dtype=float)
    decided = wins.sum(axis=1) > 0
    sole = wins.max(axis=1) == 1.0
    winner = wins.argmax(axis=1)
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    one = np.ones(len(frame))
    margins = [f"{margin_prefix}_{s}" for s in seats]
    if all(c in frame for c in margins):
        values = frame[margins].to_numpy(dtype=float)
        mine = values[np.arange(len(frame)), winner]
        others = np.where(np.arange(players) == winner[:, None], -np.inf, values)
        # a shared win has margin 0; an undecided game none (it is not counted)
        margin = np.where(sole & decided, mine - others.max(axis=1), 0.0)
        out["close"] = ((decided & (margin <= close)).astype(float), decided.astype(float))
    if "lead_changes" in frame and "rounds" in frame:
        changes = frame["lead_changes"].to_numpy(dtype=float)
        gaps = np.maximum(frame["rounds"].to_numpy(dtype=float) - 1, 0)
        out["lead_changes"] = (changes, one)
        out["lead_rate"] = (changes, gaps)
    if "half_time_leader" in frame:
        half = frame["half_time_leader"].to_numpy(dtype=np.int64)
        led = sole & decided & (half >= 0)
        out["comebacks"] = ((led & (winner != half)).astype(float), led.astype(float))
        if "lead_changes" in frame:
            held = led & (winner == half) & (frame["lead_changes"].to_numpy() == 0)
            out["runaway"] = (held.astype(float), led.astype(float))
    top = np.sort(standing, axis=1)
    out["ties"] = ((decided & (top[:, -1] == top[:, -2])).astype(float), decided.astype(float))
    return {name: out[name] for name in FEEL_NAMES if name in out}


def length_frame(frame: pd.DataFrame, players: int, order: str | None) -> pd.DataFrame:
    """What the length and edge comparison (a :class:`VariantsTally`) reads: the game index,
    rounds and turns, the cap flag, and the wins re-seated by turn order (``win_0`` is the
    first player's), no scores (the score spread is not part of this answer)."""
    keep = [c for c in ("game", "rounds", "turns", "capped", "truncated") if c in frame]
    out = frame[keep].reset_index(drop=True)
    if order is None:
        wins = frame[[f"win_{s}" for s in range(players)]].reset_index(drop=True)
    else:
        wins = reseat(frame, players, order)
    return pd.concat([out, wins], axis=1)


# ================================================================ the main tally


def _moments(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return v.sum(axis=0), v.T @ v


@storable
class CompareTally:
    """The comparison of ``names`` (variations) with the base rules, fed block by block (the
    same games under the base and every variation at a time): a :class:`VariantsTally` of
    the lengths and the first player's win (re-seated by turn order), and per variation and
    feel metric the sums and cross-products of the per-game vector (numerator and
    denominator under the base, then under the variation): whole numbers, so exact, and
    the merge of blocks equals one tally fed every game. Memory does not grow with the
    games."""

    def __init__(self, players: int, names: Sequence[str], order: str | None = None,
                 margin_prefix: str = "score", close: float = 2.0):
        self.players, self.names, self.order = int(players), list(names), order
        self.margin_prefix, self.close = margin_prefix, float(close)
        self.n = 0
        self.length = VariantsTally(self.players, self.names)
        self.feel: dict = {}   # (variation, metric) -> {"s": (4,), "ss": (4, 4)}

    def add(self, base: pd.DataFrame, variants: Mapping[str, pd.DataFrame]) -> CompareTally:
        if set(variants) != set(self.names):
            raise ValueError("every block needs the base and every variation")
        self.length.add(length_frame(base, self.players, self.order),
                        {k: length_frame(f, self.players, self.order)
                         for k, f in variants.items()})
        if len(base) == 0:
            return self
        self.n += len(base)
        x = feel_values(base, self.players, self.margin_prefix, self.close)
        for name in self.names:
            y = feel_values(variants[name], self.players, self.margin_prefix, self.close)
            for metric in x:
                v = np.column_stack([*x[metric], *y[metric]])
                s, ss = _moments(v)
                got = self.feel.setdefault((name, metric), {"s": np.zeros(4),
                                                            "ss": np.zeros((4, 4))})
                got["s"] += s
                got["ss"] += ss
        return self

    def merge(self, other: CompareTally) -> CompareTally:
        """Add a tally of other games of the same comparison (a later block)."""
        if (other.players, other.names, other.order, other.margin_prefix, other.close) != (
                self.players, self.names, self.order, self.margin_prefix, self.close):
            raise ValueError("cannot merge a comparison of other variations or players")
        self.length.merge(other.length)
        self.n += other.n
        for key, theirs in other.feel.items():
            got = self.feel.setdefault(key, {"s": np.zeros(4), "ss": np.zeros((4, 4))})
            got["s"] += theirs["s"]
            got["ss"] += theirs["ss"]
        return self


@storable
@dataclass(frozen=True)
class CompareParts:
    """One block's :class:`CompareTally`, made where the block is played (a lockstep run's
    ``part``, kept in the run store): the base frame, then each variation's in ``names``
    order. Holds the question only."""

    players: int
    names: tuple[str, ...]
    order: str | None = None
    margin_prefix: str = "score"
    close: float = 2.0

    # bump when what CompareTally.add keeps changes (simulate.store)
    store_version = 1

    def __call__(self, frames) -> CompareTally:
        frames = list(frames)
        if len(frames) != 1 + len(self.names):
            raise ValueError(f"need the base and every variation's frame "
                             f"({1 + len(self.names)}), got {len(frames)}")
        tally = CompareTally(self.players, self.names, self.order, self.margin_prefix,
                             self.close)
        return tally.add(frames[0], dict(zip(self.names, frames[1:], strict=True)))

    def verify(self, result, games: int) -> None:
        """Refuse a stored block that cannot be this part's tally of ``games`` games."""
        from analyses.variants import VariantsParts

        if type(result) is not CompareTally:
            raise ValueError("not a comparison tally")
        if (result.players, result.names, result.order, result.margin_prefix,
                result.close) != (self.players, list(self.names), self.order,
                                  self.margin_prefix, float(self.close)):
            raise ValueError("a tally of another comparison")
        if type(result.n) is not int or result.n != games:
            raise ValueError(f"it counts {result.n} games, not {games}")
        VariantsParts(self.players, tuple(self.names)).verify(result.length, games)
        if not isinstance(result.feel, dict):
            raise ValueError("its feel sums are not a table")
        for key, got in result.feel.items():
            if (not isinstance(key, tuple) or len(key) != 2 or key[0] not in self.names
                    or key[1] not in FEEL_NAMES):
                raise ValueError("its feel sums name another metric or variation")
            if (not isinstance(got, dict) or set(got) != {"s", "ss"}
                    or not _array(got["s"], (4,)) or not _array(got["ss"], (4, 4))):
                raise ValueError("its feel sums are not sums")
            counted = key[1] not in ("lead_changes", "lead_rate")  # at most 1 a game
            if got["s"].min() < 0 or np.diag(got["ss"]).min() < 0 or (
                    counted and max(got["s"][1], got["s"][3]) > games):
                raise ValueError(f"its feel sums do not count {games} games")


def _array(a, shape: tuple[int, ...]) -> bool:
    return isinstance(a, np.ndarray) and a.dtype == np.float64 and a.shape == shape


# ================================================================ the search check


@storable
class CheckTally:
    """The search check, fed lockstep blocks of the arms (base, each variation) under the
    search policy, then the same under the skilled policy, all on the same deals. Per
    variation: the sums and cross-products of the per-deal vector (first player's win under
    the base and the variation by the search, then by the skilled player), each win times
    ``scale`` = lcm(1..P) so a shared win (1/k) is a whole number and every sum exact."""

    def __init__(self, players: int, names: Sequence[str], order: str | None = None):
        self.players, self.names, self.order = int(players), list(names), order
        self.scale = float(math.lcm(*range(1, self.players + 1)))
        self.n = 0
        self.sums: dict = {name: {"s": np.zeros(4), "ss": np.zeros((4, 4))}
                           for name in self.names}

    def _first(self, frame: pd.DataFrame) -> np.ndarray:
        wins = frame[[f"win_{s}" for s in range(self.players)]].to_numpy(dtype=float)
        seat = first_seat(frame, self.players, self.order)
        return np.round(wins[np.arange(len(frame)), seat] * self.scale)

    def add(self, frames) -> CheckTally:
        frames = list(frames)
        k = len(self.names)
        if len(frames) != 2 * (1 + k):
            raise ValueError(f"need the base and every variation under both policies "
                             f"({2 * (1 + k)} frames), got {len(frames)}")
        games = [f["game"].to_numpy() for f in frames]
        if not all(np.array_equal(games[0], g) for g in games):
            raise ValueError("the check's frames must hold the same games")
        if len(frames[0]) == 0:
            return self
        self.n += len(frames[0])
        search, skilled = frames[:1 + k], frames[1 + k:]
        sb, eb = self._first(search[0]), self._first(skilled[0])
        for j, name in enumerate(self.names):
            v = np.column_stack([sb, self._first(search[1 + j]), eb,
                                 self._first(skilled[1 + j])])
            s, ss = _moments(v)
            self.sums[name]["s"] += s
            self.sums[name]["ss"] += ss
        return self

    def merge(self, other: CheckTally) -> CheckTally:
        if (other.players, other.names, other.order) != (self.players, self.names, self.order):
            raise ValueError("cannot merge a check of other variations or players")
        self.n += other.n
        for name in self.names:
            self.sums[name]["s"] += other.sums[name]["s"]
            self.sums[name]["ss"] += other.sums[name]["ss"]
        return self


@storable
@dataclass(frozen=True)
class CheckParts:
    """One block's :class:`CheckTally` (the run store keeps it): the arms' frames, the base
    and each variation under the search, then under the skilled player."""

    players: int
    names: tuple[str, ...]
    order: str | None = None

    store_version = 1

    def __call__(self, frames) -> CheckTally:
        return CheckTally(self.players, self.names, self.order).add(frames)

    def verify(self, result, games: int) -> None:
        if type(result) is not CheckTally:
            raise ValueError("not a search-check tally")
        if (result.players, result.names, result.order) != (self.players, list(self.names),
                                                            self.order):
            raise ValueError("a tally of another check")
        if type(result.n) is not int or result.n != games:
            raise ValueError(f"it counts {result.n} games, not {games}")
        if not isinstance(result.sums, dict) or set(result.sums) != set(self.names):
            raise ValueError("its sums are not one per variation")
        for got in result.sums.values():
            if (not isinstance(got, dict) or set(got) != {"s", "ss"}
                    or not _array(got["s"], (4,)) or not _array(got["ss"], (4, 4))):
                raise ValueError("its sums are not sums")
            if got["s"].min() < 0 or got["s"].max() > games * result.scale:
                raise ValueError(f"its sums do not count {games} games")


# ================================================================ statistics


def _cov(s: np.ndarray, ss: np.ndarray, n: int) -> np.ndarray:
    return (ss - np.outer(s, s) / n) / (n - 1) if n > 1 else np.zeros_like(ss)


def _normal_p(diff: float, se: float) -> float:
    if se > 0:
        return float(2 * st.norm.sf(abs(diff) / se))
    return 1.0 if diff == 0 else 0.0


def _tost_p(diff: float, se: float, margin: float) -> float:
    """Two one-sided tests of |true difference| >= margin: the larger one-sided p."""
    if se > 0:
        return float(max(st.norm.sf((diff + margin) / se), st.norm.cdf((diff - margin) / se)))
    return 0.0 if abs(diff) < margin else 1.0


def paired_ratio(s: np.ndarray, ss: np.ndarray, n: int, z: float) -> dict | None:
    """The paired difference of two ratios of sums, R_v - R_b with R = sum(num) / sum(den),
    from the sums ``s`` and cross-products ``ss`` of per-game (num_b, den_b, num_v, den_v):
    the delta method, each game's influence c'v with c = (-1/mean den_b, R_b/mean den_b,
    1/mean den_v, -R_v/mean den_v), so Var = c' Cov c / n. None when an arm has nothing to
    count (no denominator). With no event in either arm the interval is the rule of three
    on each side (never [0, 0])."""
    if n < 1 or s[1] <= 0 or s[3] <= 0:
        return None
    rb, rv = s[0] / s[1], s[2] / s[3]
    mb, mv = s[1] / n, s[3] / n
    c = np.array([-1 / mb, rb / mb, 1 / mv, -rv / mv])
    var = max(float(c @ _cov(s, ss, n) @ c), 0.0)
    se = math.sqrt(var / n)
    diff = rv - rb
    if se == 0 and s[0] == 0 and s[2] == 0:
        low, high = -3.0 / s[1], 3.0 / s[3]
        return {"base": rb, "value": rv, "diff": diff, "low": low, "high": high, "p": 1.0,
                "se": 0.0, "none": True}
    return {"base": rb, "value": rv, "diff": diff, "low": diff - z * se, "high": diff + z * se,
            "p": _normal_p(diff, se), "se": se, "none": False}


def paired_mean(s: np.ndarray, ss: np.ndarray, n: int, c: np.ndarray, z: float) -> dict:
    """The mean of c'v over games (a paired difference of per-game columns), its normal
    interval and two-sided p."""
    diff = float(c @ s) / n
    var = max(float(c @ _cov(s, ss, n) @ c), 0.0)
    se = math.sqrt(var / n) if n > 1 else math.inf
    return {"diff": diff, "low": diff - z * se, "high": diff + z * se, "se": se,
            "p": _normal_p(diff, se) if math.isfinite(se) else 1.0}


# ================================================================ the answer


ROW_COLUMNS = ("variation", "rules", "section", "metric", "label", "unit", "base", "base_low",
               "base_high", "value", "value_low", "value_high", "diff", "low", "high",
               "method", "p", "p_holm", "p_equiv", "p_equiv_holm", "verdict", "words")


@dataclass
class CompareAnswer:
    """Every variation against the base rules: tidy rows (``rows``: one per variation and
    quantity, its base and variation values, the change with its interval, the method, the
    tests' raw and Holm-adjusted p-values and the verdict), and their words."""

    rows: pd.DataFrame
    meta: dict
    method: list[str] = field(default_factory=list)

    # ---------------------------------------------------------------- presented

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys(self.rows["variation"]))

    def row(self, variation: str, metric: str):
        hit = self.rows[(self.rows["variation"] == variation) & (self.rows["metric"] == metric)]
        return hit.iloc[0] if len(hit) else None

    def sentences(self) -> list[str]:
        """One sentence per variation, answer first, in a designer's words."""
        words = Words()
        return [self._sentence(name, words) for name in self.names]

    def _sentence(self, name: str, words: Words) -> str:
        rules = self.rows.loc[self.rows["variation"] == name, "rules"].iloc[0]
        if name in self.meta.get("identical", ()):
            return (f"'{name}' ({rules}) has the same rules as the base: every game is the "
                    "same game, so every change is exactly 0.")
        parts = [_length_words(self, name, words)]
        edge = self.row(name, "edge_change")
        if edge is not None:
            parts.append(words.fill(edge["words"]))
        changed, unshown = [], []
        for m in FEEL:
            r = self.row(name, m.name)
            if r is None:
                continue
            if r["verdict"] in ("fewer", "more"):
                changed.append(words.fill(r["words"]))
            else:
                unshown.append(m.label)
        if changed:
            parts.append(_join(changed))
        if unshown:
            parts.append(f"{_join(unshown)} not shown to change")
        check = self.row(name, "check")
        if check is not None:
            parts.append(words.fill(check["words"]))
        return f"'{name}' ({rules}): " + "; ".join(parts) + "."

    def table(self) -> pd.DataFrame:
        """One row per variation: each headline quantity as 'base → variation' and the change
        with its interval (text cells, for a page or a terminal)."""
        out = []
        for name in self.names:
            row = {"variation": name}
            for metric, heading in self.headings():
                r = self.row(name, metric)
                if r is not None:
                    row[heading] = _cell(r)
            out.append(row)
        return pd.DataFrame(out)

    def headings(self) -> list[tuple[str, str]]:
        present = set(self.rows["metric"])
        unit = self.meta.get("pace_unit", "minutes")
        heads = [("rounds_mean", "rounds (mean)"), ("rounds_median", "rounds (median)"),
                 ("turns_mean", "turns (mean)"), ("turns_median", "turns (median)"),
                 ("minutes", unit), ("edge_change", "first player's edge (pp)")]
        heads += [(m.name, m.label + (" (%)" if m.share else "")) for m in FEEL]
        heads.append(("check", "search check: its change of the edge vs the skilled player's (pp)"))
        return [(m, h) for m, h in heads if m in present]

    def render_text(self) -> str:
        m = self.meta
        lines = [f"PARTIAL: {note}", ""] if (note := self.partial()) else []
        lines += [m["headline"], ""]
        lines += [f"- {s}" for s in self.sentences()]
        lines.append("")
        from analyses._text import text_table

        table = self.table()
        for name in self.names:
            lines.append(f"{name}  [{self._rules(name)}]")
            rows = [[h, table.loc[table["variation"] == name, h].iloc[0]]
                    for _, h in self.headings()
                    if h in table and isinstance(table.loc[table["variation"] == name, h]
                                                 .iloc[0], str)]
            lines.append(text_table(["", f"{m['base_label']} → {name}; change [95% CI]"],
                                    rows))
            lines.append("")
        lines += self.method
        return "\n".join(lines)

    def partial(self) -> str:
        """What a stop cut short ('' when nothing was)."""
        m, cut = self.meta, []
        if m.get("interrupted"):
            cut.append(f"interrupted after {m['games']:,} of {m['requested']:,} games of the "
                       "base and variations; the search check was not played")
        if m.get("check_interrupted"):
            cut.append(f"the search check interrupted after {m['check_games']:,} of "
                       f"{m['check_requested']:,} deals")
        return "; ".join(cut)

    def _rules(self, name: str) -> str:
        return self.rows.loc[self.rows["variation"] == name, "rules"].iloc[0]

    def to_json(self) -> dict:
        return finite({"question": self.meta.get("question"), "partial": self.partial() or None,
                       "meta": self.meta,
                       "answer": self.sentences(),
                       "table": self.table().to_dict(orient="records"),
                       "rows": self.rows.to_dict(orient="records"), "method": self.method})

    def to_csv(self) -> str:
        return self.rows.to_csv(index=False, float_format="%.6g")


class Words:
    """Phrasing state across one answer: 'percentage points (pp)' the first time, 'pp'
    after."""

    def __init__(self):
        self.said = False

    def fill(self, text: str) -> str:
        """``text`` with each PP mark as the unit's words."""
        while PP in text:
            text = text.replace(PP, "pp" if self.said else "percentage points (pp)", 1)
            self.said = True
        return text


PP = "⟨pp⟩"  # where the percentage-point unit goes in a row's words (Words.fill)


def _join(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def finite(obj):
    """``obj`` with every NaN or infinite float made None (JSON has no NaN), numpy scalars
    made Python's."""
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    if isinstance(obj, (np.floating, np.integer, np.bool_)):
        obj = obj.item()
    if isinstance(obj, float):
        return obj + 0.0 if math.isfinite(obj) else None   # never NaN, infinity or -0.0
    return obj


def num(x: float, digits: int = 1, sign: bool = False) -> str:
    """A number as text, never '-0.0', 'nan' or 'inf' (a zero has no sign)."""
    if x is None or not math.isfinite(x):
        return "-"
    text = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    return f"{0:.{digits}f}" if float(text) == 0 else text


def _fmt_value(x: float, unit: str) -> str:
    if unit == "share":
        return num(100 * x, 1) + "%"
    if unit == "pp":
        return num(100 * x, 1, sign=True)
    return num(x, 1)


def _fmt_change(r) -> str:
    k = 100.0 if r["unit"] in ("share", "pp") else 1.0
    d = 1 if r["unit"] != "count" else 2
    return (f"{num(k * r['diff'], d, sign=True)} [{num(k * r['low'], d, sign=True)}, "
            f"{num(k * r['high'], d, sign=True)}]")


def _cell(r) -> str:
    if r["metric"] == "check":
        return f"{_fmt_value(r['base'], 'pp')} vs {_fmt_value(r['value'], 'pp')}: {r['verdict']}"
    if r["metric"] == "edge_change":
        return (f"{_fmt_value(r['base'], 'pp')} → {_fmt_value(r['value'], 'pp')}; "
                f"{_fmt_change(r)}")
    digits = 0 if r["metric"].endswith("_median") else 1
    base = (num(r["base"], digits) if r["unit"] != "share" else _fmt_value(r["base"], "share"))
    value = (num(r["value"], digits) if r["unit"] != "share"
             else _fmt_value(r["value"], "share"))
    return f"{base} → {value}; {_fmt_change(r)}"


def _length_words(a: CompareAnswer, name: str, words: Words) -> str:
    what = []
    for unit in ("rounds", "turns"):
        r = a.row(name, f"{unit}_mean")
        if r is None:
            continue
        med = a.row(name, f"{unit}_median")
        median = (f"; median {num(med['base'], 0)} → {num(med['value'], 0)}"
                  if med is not None else "")
        lo, hi = sorted((abs(r["low"]), abs(r["high"])))
        size = f"{num(abs(r['diff']), 1)} {unit} [{num(lo, 1)}, {num(hi, 1)}]"
        if r["verdict"] in ("shorter", "longer"):
            what.append(f"{r['verdict']} by {size} (mean {num(r['base'], 1)} → "
                        f"{num(r['value'], 1)}{median})")
        else:
            what.append(f"length in {unit} not shown to change ({_fmt_change(r)}{median})")
    text = "; ".join(what) if what else "no length recorded"
    minutes = a.row(name, "minutes")
    if minutes is not None:
        text += (f", about {num(abs(minutes['diff']), 0)} minutes "
                 f"{'shorter' if minutes['diff'] < 0 else 'longer'} at your table's pace")
    return text


# ---------------------------------------------------------------- building the rows


def answer(tally: CompareTally, check: CheckTally | None, rules_text: Mapping[str, str],
           meta: dict, margin: float = MARGIN, pace: float | None = None,
           confidence: float = CONFIDENCE, n_boot: int = N_BOOT, seed: int = 0) -> CompareAnswer:
    """The answer from the tallies: rows, Holm over every test, verdicts, words."""
    if tally.n == 0:
        raise ValueError("no games to compare")
    z = z_value(confidence)
    alpha = 1 - confidence
    players = tally.players
    fair = 1.0 / players
    lengths = tally.length.answer(rules_text, seed=seed, n_boot=n_boot,
                                  confidence=confidence).table.set_index(["variant", "metric"])
    rows: list[dict] = []

    def add(name, section, metric, label, unit, method, base, value, diff, low, high,
            p=math.nan, p_equiv=math.nan, base_iv=None, value_iv=None):
        rows.append({"variation": name, "rules": rules_text.get(name, name),
                     "section": section, "metric": metric, "label": label, "unit": unit,
                     "base": base, "base_low": base_iv[0] if base_iv else math.nan,
                     "base_high": base_iv[1] if base_iv else math.nan, "value": value,
                     "value_low": value_iv[0] if value_iv else math.nan,
                     "value_high": value_iv[1] if value_iv else math.nan, "diff": diff,
                     "low": low, "high": high, "method": method, "p": p,
                     "p_equiv": p_equiv})

    for name in tally.names:
        for col in ("rounds", "turns"):
            for stat, method in (("mean", "paired normal interval of the mean difference"),
                                 ("median", f"paired Poisson bootstrap ({n_boot:,} resamples), "
                                            "percentile interval")):
                key = (name, f"{col}_{stat}")
                if key not in lengths.index:
                    continue
                r = lengths.loc[key]
                add(name, "length", f"{col}_{stat}", f"{stat} {col}", col, method,
                    r["base"], r["value"], r["diff"], r["low"], r["high"], p=r["p"])
        if pace is not None and (name, "rounds_mean") in lengths.index:
            r = lengths.loc[(name, "rounds_mean")]
            add(name, "length", "minutes", "minutes at the table", "minutes",
                f"mean rounds times the given pace ({pace:g} minutes a round)",
                pace * r["base"], pace * r["value"], pace * r["diff"], pace * r["low"],
                pace * r["high"])
        # the first player's edge, before and after, and its paired change
        sums = tally.length.sums[(name, "first_player_edge")]
        n = tally.n
        ivb = mean_interval_from_moments(n, sums["sx"], sums["sxx"], confidence)
        ivv = mean_interval_from_moments(n, sums["sy"], sums["syy"], confidence)
        diff = (sums["sy"] - sums["sx"]) / n
        var_d = max(sums["sdd"] - n * diff * diff, 0.0) / (n - 1) if n > 1 else math.inf
        se = math.sqrt(var_d / n)
        e = lengths.loc[(name, "first_player_edge")]
        add(name, "edge", "edge_change", "first player's edge", "pp",
            "paired difference of the first player's win (a shared win counts 1/k): "
            + ("Newcombe's paired score interval with McNemar's exact p"
               if sums["binary"] else "paired normal interval")
            + f"; 'unchanged' by two one-sided tests within ±{100 * margin:g} pp",
            ivb.estimate - fair, ivv.estimate - fair, e["diff"], e["low"], e["high"],
            p=e["p"], p_equiv=_tost_p(diff, se, margin),
            base_iv=(ivb.low - fair, ivb.high - fair), value_iv=(ivv.low - fair, ivv.high - fair))
        for m in FEEL:
            got = tally.feel.get((name, m.name))
            if got is None:
                continue
            r = paired_ratio(got["s"], got["ss"], n, z)
            if r is None:
                continue
            add(name, "feel", m.name, m.label, "share" if m.share else "count",
                "paired delta-method interval of a difference of ratios of sums over games"
                + (" (no such game in either arm: rule of three)" if r["none"] else ""),
                r["base"], r["value"], r["diff"], r["low"], r["high"], p=r["p"])
        if check is not None and check.n > 0:
            got = check.sums[name]
            k, s, ss = check.n, got["s"] / check.scale, got["ss"] / check.scale ** 2
            ivs = [mean_interval_from_moments(k, s[j], ss[j, j], confidence) for j in (0, 1)]
            search = paired_mean(s, ss, k, np.array([-1.0, 1.0, 0.0, 0.0]), z)
            skilled = paired_mean(s, ss, k, np.array([0.0, 0.0, -1.0, 1.0]), z)
            both = paired_mean(s, ss, k, np.array([-1.0, 1.0, 1.0, -1.0]), z)
            rows_check = {"search": search, "skilled": skilled, "difference": both,
                          "search_edges": [(iv.estimate - fair, iv.low - fair,
                                            iv.high - fair) for iv in ivs]}
            add(name, "check", "check", "search's change of the first player's edge", "pp",
                f"per deal on the same {k:,} deals: the search's change of the first "
                "player's win minus the skilled player's change; paired normal interval of "
                f"the mean; 'disagrees' two-sided, 'agrees' by two one-sided tests within "
                f"±{100 * margin:g} pp",
                search["diff"], skilled["diff"], both["diff"], both["low"], both["high"],
                p=both["p"], p_equiv=_tost_p(both["diff"], both["se"], margin),
                base_iv=(search["low"], search["high"]),
                value_iv=(skilled["low"], skilled["high"]))
            rows[-1]["_check"] = rows_check
    frame = pd.DataFrame(rows)
    # One family: every test of the answer (Holm's step-down, family-wise 5%).
    ps = np.concatenate([frame["p"].to_numpy(float), frame["p_equiv"].to_numpy(float)])
    tested = np.isfinite(ps)
    adjusted = np.full(ps.size, math.nan)
    adjusted[tested] = holm(ps[tested])
    frame["p_holm"] = adjusted[:len(frame)]
    frame["p_equiv_holm"] = adjusted[len(frame):]
    tests = int(tested.sum())
    frame["verdict"], frame["words"] = zip(*(_verdict(r, alpha, margin, meta)
                                             for _, r in frame.iterrows()), strict=True)
    checks = frame.pop("_check") if "_check" in frame else None
    frame = frame[list(ROW_COLUMNS)]
    numbers = frame.select_dtypes("number").columns
    frame[numbers] = frame[numbers] + 0.0   # -0.0 + 0.0 is 0.0: no '-0' in any output
    meta = {**meta, "tests": tests, "margin": margin, "confidence": confidence}
    if checks is not None:
        meta["check_detail"] = {frame.loc[i, "variation"]: finite(c)
                                for i, c in checks.items() if isinstance(c, dict)}
    return CompareAnswer(frame, meta, _method(meta, tests, margin, n_boot, pace))


def _verdict(r, alpha: float, margin: float, meta: dict) -> tuple[str, str]:
    """(verdict, words) for one row: the Holm-adjusted tests decide; PP marks the
    percentage-point unit, said in full at its first use by :class:`Words`."""
    changed = bool(np.isfinite(r["p_holm"]) and r["p_holm"] < alpha)
    equal = bool(np.isfinite(r["p_equiv_holm"]) and r["p_equiv_holm"] < alpha)
    within = f"±{100 * margin:g} {PP}"
    if r["section"] == "length":
        if r["metric"] == "minutes":
            return "derived", ""
        return ("shorter" if r["diff"] < 0 else "longer") if changed else "not shown", ""
    if r["section"] == "edge":
        was = f"{num(100 * r['base'], 1, True)} → {num(100 * r['value'], 1, True)} {PP}"
        if changed:
            word = "rises" if r["diff"] > 0 else "falls"
            return word, f"the first player's edge {word} by {_size(r)} ({was})"
        if equal:
            return "unchanged", (f"the first player's edge unchanged within {within} "
                                 f"(change {_fmt_change(r)}; {was})")
        return "not shown", (f"the first player's edge not shown to change (change "
                             f"{_fmt_change(r)} {PP}; {was}), nor shown to stay within {within}")
    if r["section"] == "feel":
        m = next(m for m in FEEL if m.name == r["metric"])
        if not changed:
            return "not shown", ""
        word = m.fewer if r["diff"] < 0 else m.more
        return ("fewer" if r["diff"] < 0 else "more"), (
            f"{word} ({_fmt_change(r)}{' ' + PP if m.share else ''})")
    # the search check
    who = meta.get("check_label", "the search player")
    moves = (f"{num(100 * r['base'], 1, True)} {PP} against "
             f"{meta.get('policy_label', 'the skilled player')}'s "
             f"{num(100 * r['value'], 1, True)} on the same {meta.get('check_games', 0):,} deals")
    if changed:
        return "disagrees", (f"{who} disagrees on the change of the first player's edge "
                             f"({moves}; difference {_fmt_change(r)})")
    if equal:
        return "agrees", (f"{who} agrees on the change of the first player's edge within "
                          f"{within} ({moves}; difference {_fmt_change(r)})")
    need = _deals_to_agree(r, meta.get("check_games", 0), margin, alpha)
    more = (f"; about {need:,} deals would show agreement at 80% power if the two truly "
            f"agree" if need else "")
    return "undetermined", (f"whether {who} agrees on the change of the first player's edge "
                            f"is undetermined ({moves}; difference {_fmt_change(r)}{more})")


def _size(r) -> str:
    """A change's size and its interval as magnitudes: '10.5 [8.2, 12.9]'."""
    k = 100.0 if r["unit"] in ("share", "pp") else 1.0
    lo, hi = sorted((abs(k * r["low"]), abs(k * r["high"])))
    if r["low"] < 0 < r["high"]:
        lo = 0.0
    unit = f"{PP} " if k == 100 else ""
    return f"{num(abs(k * r['diff']), 1)} {unit}[{num(lo, 1)}, {num(hi, 1)}]"


def _deals_to_agree(r, deals: int, margin: float, alpha: float) -> int:
    """Deals whose two one-sided tests within ±margin would pass with 80% power if the two
    players' changes were truly equal, at the per-deal spread seen (before Holm's
    adjustment, so a lower bound on what the whole answer needs)."""
    se = (r["high"] - r["low"]) / (2 * z_value(CONFIDENCE))
    if not deals or not se > 0 or not math.isfinite(se):
        return 0
    sd = se * math.sqrt(deals)
    need = ((st.norm.ppf(1 - alpha) + st.norm.ppf(0.9)) * sd / margin) ** 2
    return int(math.ceil(need)) if need > deals else 0


def _method(meta: dict, tests: int, margin: float, n_boot: int, pace: float | None) -> list[str]:
    out = [
        f"Pairing: every variation played on the same {meta['games']:,} deals as "
        f"{meta['base_label']} (common random numbers: game i starts from the same random "
        "stream under every rule set), so each game gives a paired difference.",
        f"Players: {meta['players_text']}.",
        "Length: paired normal interval of the mean difference; medians by a paired Poisson "
        f"bootstrap ({n_boot:,} resamples, percentile interval with its p from the same "
        "replicates).",
        "First player's edge: the first player's win share (first in turn order; a shared "
        "win counts 1/k) minus 1/P, each with a Student-t interval; its change is paired; "
        f"'unchanged within ±{100 * margin:g} percentage points' is an equivalence test (two "
        "one-sided tests).",
        "Game feel: each metric a ratio of per-game counts (close finishes, ties, lead "
        "changes, comebacks, runaway leaders), compared by the paired delta method.",
    ]
    if meta.get("check_label"):
        out.append(f"Search check: {meta['check_label']} in every seat and the skilled player "
                   f"in every seat on the same {meta.get('check_games', 0):,} deals; per deal "
                   "the search's change of the first player's win minus the skilled player's; "
                   f"'disagrees' when its mean differs from 0, 'agrees' when it is within "
                   f"±{100 * margin:g} percentage points (two one-sided tests), else "
                   "'undetermined'. Both players' changes come from the same deals, so their "
                   "difference is paired.")
    out.append(
        f"Error rate: all {tests} tests of this answer (length, edge, feel and search check, "
        "every variation) form one family adjusted by Holm's step-down method, so the chance "
        "that any verdict here is wrong is at most 5%. Intervals are 95% each, not adjusted. "
        "'Not shown to change' means no test decided: it is not evidence of no change.")
    out.append("Minutes at the table: " + (
        f"mean rounds times the given pace of {pace:g} minutes a round." if pace is not None
        else "the game's rules spec gives no pace (minutes per round), so none is estimated; "
             "--pace MINUTES gives your table's."))
    return out


# ================================================================ one call


def default_rungs(info) -> str | None:
    """The search policy of the game's report ladder (its top rung)."""
    ladder = info.extra.get("ladder", ())
    return ladder[-1] if ladder else None


def compare(info, presets: Sequence[str] | None = None, players: int | None = None,
            policy: str = "expert", n: int = 20_000, seed: int = 0,
            check: str | None = "default", check_n: int = 2_000,
            base_preset: str | None = None, margin: float = MARGIN,
            pace: float | None = None, play: Callable | None = None,
            labels: Callable[[str], str] | None = None,
            meta: dict | None = None) -> CompareAnswer:
    """Compare each of ``presets`` (default: the game's shorter-game presets) with the base
    rules (``base_preset``, default the standard rules) at ``players`` (default: the game's
    main count), ``policy`` in every seat, on ``n`` paired games; then ``check`` (default:
    the game's top search rung; None: no check) in every seat on ``check_n`` deals. ``play``
    is ``simulate.run`` with the caller's options (store, cluster, progress); ``labels``
    names a policy in a designer's words. Returns the :class:`CompareAnswer`."""
    import simulate

    decl = declared(info.name)
    cls = info.rules_cls
    presets = list(presets or decl.shorter)
    players = info.check_players(decl.players if players is None else players)
    base_overrides = cls.preset(base_preset) if base_preset is not None else {}
    base_rules = cls.from_overrides(base_overrides)
    chosen = {name: cls.from_overrides({**base_overrides, **cls.preset(name)})
              for name in presets}
    rules_text = {name: cls.PRESETS[name][0] for name in presets}
    play = play or functools.partial(simulate.run, keep=False, progress=False)
    labels = labels or (lambda text: text)
    order = info.extra.get("turn_order", (None, None))[1]
    policies = info.seat_policies(policy, players)
    if check == "default":
        check = default_rungs(info)
    names = tuple(presets)
    tally = CompareTally(players, names, order, decl.margin_prefix, decl.close)
    res = play(info, n, rules=(base_rules, *chosen.values()), policies=policies,
               players=players, seed=seed, label="base and variations",
               part=CompareParts(players, names, order, decl.margin_prefix, decl.close),
               on_part=tally.merge)
    checked = None
    check_meta: dict = {}
    if check is not None and check_n > 0 and not res.meta.get("interrupted"):
        search = info.seat_policies(check, players)
        arms = (base_rules, *chosen.values())
        checked = CheckTally(players, names, order)
        cres = play(info, check_n, rules=arms * 2, seatings=[search] * len(arms)
                    + [policies] * len(arms), players=players, seed=seed,
                    label="search check", part=CheckParts(players, names, order),
                    on_part=checked.merge)
        check_meta = {"check": check, "check_label": labels(check),
                      "check_games": int(cres.meta["games"]),
                      "check_requested": int(check_n),
                      "check_interrupted": bool(cres.meta.get("interrupted"))}
    identical = [name for name, r in chosen.items() if r == base_rules]
    label = labels(policy)
    made = policies[0].spec.made or {}
    trained = ""
    if made:
        trained_rules = ", ".join(made.get("rules", [])) or "default"
        trained = (f" (trained on the {'standard' if trained_rules == 'default' else trained_rules}"
                   f" rules at {made.get('players', '?')} players; it plays every variation "
                   "with those base-rule weights, not retrained)")
    base_label = (f"the {base_preset} rules" if base_preset not in (None, "standard")
                  else "the standard rules")
    full = {
        "game": info.name, "title": info.title, "players": players, "policy": policy,
        "policy_label": label, "presets": list(names), "base_preset": base_preset,
        "base_label": base_label, "seed": seed, "games": int(res.meta["games"]),
        "requested": int(n), "interrupted": bool(res.meta.get("interrupted")),
        "players_text": f"{label} in every seat{trained}",
        "pace": pace, "identical": identical, **check_meta, **(meta or {}),
    }
    full["question"] = (f"Does each shorter-game variation of {info.title} shorten the game "
                        f"among skilled players, and what does it break?")
    full["headline"] = (f"{info.title}, {players} players, {label} in every seat{trained}: "
                        f"{full['games']:,} games per variation on the same deals as "
                        f"{base_label} (seed {seed})")
    return answer(tally, checked, rules_text, full, margin, pace)
