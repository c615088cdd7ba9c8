"""The seat-advantage section: does a place in the turn order, a seat or a seat view win more often?

Presents the registered ``seats`` analysis for every run of the chosen
presets (a *setting*: one preset at one player count). The views come from
the game's declaration:

- by turn order: the seats themselves when seat 0 plays first, or the
  players ranked by the game's ``turn_order`` column (Montego Bay's rail);
- by each of the game's ``seat_views`` (counted per player-game);
- by seat, when seats are not the turn order (then they are colours).

Turn order and seat get a verdict within the margin and an equal-shares test;
a seat view gets its equal-shares test (clustered by game); the p-values are
Holm-adjusted over every test the section shows. The section shows a
panel figure per preset (rows: views, columns: player counts), one wide
table per view, and the verdicts: in a table of the page's own when it
declares one, else beside the shares of each judged view with a sentence
per setting.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analyses.seats import DEFAULT_MARGIN, SeatAnswer, SeatParts, SeatTally
from analyses.stats import CONFIDENCE, holm
from reports import figures
from reports.sections import SettingsSection, policy_of
from reports.words import p_cell, percent_interval, pp_interval

SEAT = "seat"


class SeatRun:
    """A run's seat tallies: by seat with the game's seat views, and by turn-order place
    when ``place_pattern`` names the per-seat column that re-seats the wins."""

    def __init__(self, players: int, views: Mapping[str, str], place_pattern: str | None):
        self.parts = SeatParts(players, tuple(views.items()), place_pattern)
        self.by_seat = SeatTally(players, dict(views))
        self.by_place = SeatTally(players) if place_pattern is not None else None

    def add(self, frame: pd.DataFrame) -> None:
        seat, place = self.parts(frame)
        self.by_seat.merge(seat)
        if place is not None:
            self.by_place.merge(place)


@dataclass
class Setting:
    """One run's seat answers: by seat (with the game's seat views) and by turn order."""

    preset: str
    players: int
    name: str               # '4 players', '4 players (short)', '4 players (short, greedy)'
    seat: SeatAnswer
    order: SeatAnswer        # the seat answer itself when seat 0 plays first
    order_view: str          # the turn order's name ('seat', 'rail order', ...)
    meta: dict

    @property
    def policy(self) -> str:
        return policy_of(self.meta)

    @property
    def views(self) -> list[str]:
        """Turn order first, then the declared seat views, then seat if it is not the order."""
        return [self.order_view, *self.seat.views,
                *([SEAT] if self.order_view != SEAT else [])]

    def judged(self, view: str) -> SeatAnswer | None:
        """The answer with a verdict for ``view`` (turn order, seat); None for a seat view."""
        return {self.order_view: self.order, SEAT: self.seat}.get(view)

    def view_table(self, view: str) -> pd.DataFrame:
        """Long rows (value, share, low, high, gap, n) of one view; turn-order places from 1."""
        if view in self.seat.views:
            t = self.seat.views[view]
            return pd.DataFrame({"value": t["value"], "share": t["share"], "low": t["low"],
                                 "high": t["high"], "gap": t["gap"], "n": t["players_seen"]})
        answer = self.judged(view)
        t = answer.table
        first = 1 if view != SEAT else 0
        return pd.DataFrame({"value": t["seat"].astype(int) + first, "share": t["share"],
                             "low": t["low"], "high": t["high"], "gap": t["gap"],
                             "n": answer.games})


@dataclass
class SeatsAnswer:
    """Every setting's answers, in preset then player-count order."""

    settings: list[Setting]
    margin: float
    by_preset: bool          # settings are named and keyed by preset as well as players
    by_policy: bool = False  # ... and by policy

    @property
    def named(self) -> bool:
        """Whether a setting needs its name (more than its player count) to be told apart."""
        return self.by_preset or self.by_policy

    @property
    def views(self) -> list[str]:
        return list(dict.fromkeys(v for s in self.settings for v in s.views))

    def tests(self) -> dict[tuple[str, str], float]:
        """Every equal-shares test the section shows: (setting name, view) -> its p-value."""
        out = {}
        for s in self.settings:
            out[(s.name, s.order_view)] = s.order.p_value
            for view, (_, _, p) in s.seat.view_tests.items():
                out[(s.name, view)] = p
            if s.order_view != SEAT:
                out[(s.name, SEAT)] = s.seat.p_value
        return out

    def holm_p(self) -> dict[tuple[str, str], float]:
        """The p-values of :meth:`tests`, Holm-adjusted over all of them (every setting and
        view the section shows: one family, so any 'unequal' it reports is false at most 5%
        of the time)."""
        tests = self.tests()
        return dict(zip(tests, holm(np.array(list(tests.values()), dtype=float)), strict=True))

    def unequal(self, view: str) -> list[bool]:
        """Per setting: whether the equal-shares test of ``view`` rejects after Holm (5%)."""
        adjusted = self.holm_p()
        return [bool(adjusted.get((s.name, view), np.nan) < 1 - CONFIDENCE)
                for s in self.settings]

    def keys(self, s: Setting) -> dict:
        """The columns that name a setting in a CSV table."""
        keys = {"preset": s.preset} if self.by_preset else {}
        if self.by_policy:
            keys["policy"] = s.policy
        return {**keys, "players": s.players}


# ---------------------------------------------------------------- CSV tables


def shares_long(answer: SeatsAnswer) -> pd.DataFrame:
    """Every view of every setting: value, n, share, low, high, gap, fair."""
    parts = [s.view_table(v).assign(**answer.keys(s), view=v, fair=1 / s.players)
             for s in answer.settings for v in s.views]
    frame = pd.concat(parts, ignore_index=True)
    return frame[[*answer.keys(answer.settings[0]), "view", "value", "n", "share", "low",
                  "high", "gap", "fair"]]


def order_long(answer: SeatsAnswer) -> pd.DataFrame:
    """The turn-order answer's own rows per setting (seat, wins, share, intervals ...)."""
    return pd.concat([s.order.table.assign(**answer.keys(s), games=s.order.games,
                                           fair=1 / s.players)
                      for s in answer.settings], ignore_index=True)


def order_verdicts(answer: SeatsAnswer) -> pd.DataFrame:
    """Per setting: the first place's gap from fair, the chi-square test and the verdict."""
    rows = []
    adjusted = answer.holm_p()
    for s in answer.settings:
        a, h = s.order, s.order.headline
        rows.append({**answer.keys(s), "games": a.games, "first_player_gap": h.estimate,
                     "gap_low": h.low, "gap_high": h.high, "chi2": a.chi2, "dof": a.dof,
                     "p_value": a.p_value, "p_holm": adjusted[(s.name, s.order_view)],
                     "margin": a.margin, "verdict": a.verdict,
                     "verdict_text": a.verdict_text})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- the section


@dataclass(frozen=True)
class SeatAdvantage(SettingsSection):
    """Seat advantage for the runs of ``presets`` (None: every run), judged within ``margin``.

    The words are the page's: ``heading`` may use {players} (e.g. '2-6') and
    {presets}; the figure's title, alt text and caption {policy}, {preset},
    {changed} (its rules) and {margin} (in pp); ``captions`` maps a view to
    its table's caption ({view}, {margin}). ``value_label`` names a value's
    column ('seat {}'). ``verdicts`` = (table builder, caption) gives the
    verdicts a table of their own. ``csv`` maps a CSV table's name to its builder.
    ``units`` and ``order_method`` complete the method text.
    """

    margin: float = DEFAULT_MARGIN
    heading: str = "Seat win shares, {players} players"
    figure_title: str = "Win share, {policy} policy, {preset} rules ({changed})"
    figure_alt: str = "win share per player count, {preset} rules"
    figure_caption: str = ("Points: win share; whiskers: 95% Wilson intervals; dashed: the fair "
                           "share 1/P; grey: ±{margin} pp.")
    xlabel: str = SEAT
    captions: Mapping[str, str] = field(default_factory=dict)
    value_label: str = "{}"
    verdicts: tuple[Callable[[SeatsAnswer], pd.DataFrame], str] | None = None
    csv: Mapping[str, Callable[[SeatsAnswer], pd.DataFrame]] = field(
        default_factory=lambda: {"shares": shares_long, "verdicts": order_verdicts})
    units: str = "seats"
    order_method: str | None = None

    key = "seats"

    def new_tally(self, info, meta: dict) -> SeatRun:
        return SeatRun(int(meta["players"]), info.extra.get("seat_views", {}),
                       info.extra.get("turn_order", (SEAT, None))[1])

    def analyse(self, info, results) -> SeatsAnswer:
        self.function(info)  # refuses a game the analysis does not apply to
        order_view = info.extra.get("turn_order", (SEAT, None))[0]
        out = []
        named = self.compared(info, results)
        for res, tally, name in named:
            p, meta = int(res.meta["players"]), res.meta
            same = len(set(meta.get("policies", []))) <= 1
            seat = tally.by_seat.answer(self.margin, same_policy=same, meta=meta)
            order = seat if tally.by_place is None else tally.by_place.answer(
                self.margin, same_policy=same, meta=meta)
            out.append(Setting(meta["preset"], p, name, seat, order, order_view, meta))
        by_policy = len({policy_of(r.meta) for r, _, _ in named}) > 1
        return SeatsAnswer(out, self.margin, self.by_preset, by_policy)

    def tables(self, answer: SeatsAnswer) -> dict[str, pd.DataFrame]:
        return {name: build(answer) for name, build in self.csv.items()}

    def write(self, page, answer: SeatsAnswer) -> None:
        players = sorted({s.players for s in answer.settings})
        presets = list(dict.fromkeys(s.preset for s in answer.settings))
        margin = f"{self.margin * 100:g}"
        span = f"{players[0]}-{players[-1]}" if len(players) > 1 else f"{players[0]}"
        page.heading(self.heading.format(players=span, presets=", ".join(presets)))
        groups = dict.fromkeys((s.preset, s.policy) for s in answer.settings)
        for preset, policy in groups:
            part = [s for s in answer.settings if (s.preset, s.policy) == (preset, policy)]
            words = {"policy": policy, "preset": preset, "margin": margin,
                     "changed": part[0].meta.get("rules_changed", "default")}
            page.figure(figures.win_share_panels(panels(part), self.figure_title.format(**words),
                                                 xlabel=self.xlabel, margin=self.margin),
                        alt=self.figure_alt.format(**words),
                        caption=self.figure_caption.format(**words))
        if self.verdicts:
            build, caption = self.verdicts
            page.table(build(answer), caption=caption)
        for view in answer.views:
            default = ("Win share by {view}, % [95% interval]"
                       + ("" if any(s.judged(view) for s in answer.settings)
                          else " (per player-game)"))
            page.table(self.wide(answer, view),
                       caption=self.captions.get(view, default).format(view=view, margin=margin))
        if not self.verdicts:
            page.bullets([f"{s.name}: {s.order.verdict_text}." for s in answer.settings])

    def wide(self, answer: SeatsAnswer, view: str) -> pd.DataFrame:
        """One row per setting, one column per value: share % [95% interval]; with the
        verdict beside it (games, first place's gap, p, verdict) unless the page shows the
        verdicts in a table of their own."""
        part = [s for s in answer.settings if view in s.views]
        tables = {s.name: s.view_table(view).set_index("value") for s in part}
        values = sorted({int(v) for t in tables.values() for v in t.index})
        rows = []
        adjusted = answer.holm_p()
        for s in part:
            t = tables[s.name]
            judged = None if self.verdicts else s.judged(view)
            row = {"setting": s.name} if answer.named else {"players": s.players}
            if judged:
                row["games"] = judged.games
            for v in values:
                row[self.value_label.format(v)] = (
                    percent_interval(*t.loc[v, ["share", "low", "high"]]) if v in t.index else "")
            if judged:
                row[f"{self.value_label.format(t.index[0])} - fair"] = pp_interval(judged.headline)
                row["equal-shares p (Holm)"] = p_cell(adjusted[(s.name, view)])
                row["verdict"] = judged.verdict
            rows.append(row)
        return pd.DataFrame(rows)

    def methods(self, answer: SeatsAnswer) -> list[str]:
        over = "setting" if answer.named else "player count"
        text = (f"Intervals: 95% Wilson score intervals for each share on its own (tied wins "
                f"count 1/k). {answer.settings[0].seat.method} Multiplicity: the "
                f"equal-shares p-values shown ('p (Holm)') are Holm-adjusted over all "
                f"{len(answer.tests())} tests of this section (every {over} and view: "
                f"family-wise 5%); a p above 5% is not evidence that the {self.units} are "
                f"equal, only the verdict 'balanced' is.")
        return [text, *([self.order_method] if self.order_method else [])]


def panels(part: list[Setting]) -> pd.DataFrame:
    """What ``figures.win_share_panels`` draws: a row per view (when there are several),
    a column per player count."""
    frame = pd.concat([s.view_table(v).assign(view=v, fair=1 / s.players,
                                              col=f"{s.players} players")
                       for s in part for v in s.views], ignore_index=True)
    frame = frame.assign(x=frame["value"])
    return frame.assign(row=frame["view"]) if frame["view"].nunique() > 1 else frame
