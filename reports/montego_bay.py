"""The Montego Bay page of the balance report: does moving first on the rail win?

``build_page`` plays the planned runs (``greedy`` in every seat, 2, 3 and 4
players, the standard rules and the ``short`` preset, one seed), judges them
with ``analyses.seats`` three ways - by seat (colour), by rail order (the
player whose earliest worker moves first, second, ...) and by the set-up rail
position of each player's earliest worker (the game's declared seat view) -
and returns the page HTML and its tables; ``reports.build`` writes them.
``render_page`` does the second half alone, for results already on disk.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyses.seats import SeatAnswer, reseat, seat_advantage
from analyses.stats import CONFIDENCE, z_value
from analyses.variants import holm
from engines import get_game
from engines.montego_bay.rules import Rules
from reports import figures
from reports._runs import RunSpec, join_words, play, runs_frame, scaled, seats_method
from reports.html import Page
from reports.rum_runner import PageOutput
from simulate.results import Results

GAME = "montego-bay"
FILENAME = "montego_bay.html"
TITLE = "Montego Bay: does moving first on the rail win?"
BLURB = ("does moving first on the rail win? Win shares by rail order, rail position and seat "
         "for 2-4 players")

PRESETS = ("standard", "short")
PLAYER_COUNTS = (2, 3, 4)
POLICY = "greedy"
SEED = 1                          # one seed for every run: each setting plays its own deals
# Games per run at scale 1 (six runs), sized for well under a minute on 2 shared cores:
# the fast path played ~30k greedy games/s on 2 threads (100k per run: 20 s in all).
GAMES = 150_000
MARGIN = 0.02                     # "balanced" = every seat within ±2 pp of 1/P
ORDER_VIEW = "rail order"         # win share by the rank of a player's earliest worker
SEAT_VIEW = "seat"
KEEP_COLUMNS = ("game", "players", "rounds")
KEEP_PREFIXES = ("win_", "score_", "first_rail_pos_")


@dataclass
class Setting:
    """The answers for one run: by seat (with the game's rail-position view) and by rail order."""

    preset: str
    players: int
    seat: SeatAnswer
    order: SeatAnswer
    scores: dict[str, np.ndarray]   # "winner" (the top score of each game), "others"
    runner_up_gap: np.ndarray       # top score minus the second score, per game
    rounds: np.ndarray

    @property
    def name(self) -> str:
        return f"{self.players} players ({self.preset})"


def plan(scale: float = 1.0) -> list[RunSpec]:
    """The runs of the page: every preset x player count, counts scaled (at least two games)."""
    games = scaled(GAMES, scale, least=2)
    return [RunSpec(preset, POLICY, p, games, SEED, f"{preset}, {p} players")
            for preset in PRESETS for p in PLAYER_COUNTS]


def run_plan(specs: list[RunSpec], backend: str = "fast", progress: bool | None = None,
             workers: int | None = None) -> dict[str, Results]:
    """Play every planned run; label -> Results (frames cut to the columns the page uses)."""
    return play(get_game(GAME), specs,
                lambda c: c in KEEP_COLUMNS or c.startswith(KEEP_PREFIXES),
                backend, progress, workers)


def build_page(scale: float = 1.0, backend: str = "fast", progress: bool | None = None,
               workers: int | None = None,
               command: str = "rumsim report montego-bay --out DIR") -> PageOutput:
    """Run the plan at ``scale`` and render the page."""
    started = time.perf_counter()
    results = run_plan(plan(scale), backend=backend, progress=progress, workers=workers)
    return render_page(results, command=command, started=started)


# ================================================================ analysis


ORDER_PATTERN = "first_rail_pos_{seat}"  # the game's turn order (GAME.extra["turn_order"])


def analyse(results: dict[str, Results]) -> list[Setting]:
    """One Setting per run, in preset then player-count order."""
    views = get_game(GAME).extra.get("seat_views", {})
    out = []
    for res in results.values():
        frame, p, meta = res.frame, int(res.meta["players"]), res.meta
        same = len(set(meta.get("policies", [POLICY]))) == 1
        seat = seat_advantage(frame, p, margin=MARGIN, views=views, same_policy=same, meta=meta)
        order = seat_advantage(reseat(frame, p, ORDER_PATTERN), p, margin=MARGIN, same_policy=same,
                               meta=meta)
        scores = frame[[f"score_{s}" for s in range(p)]].to_numpy(dtype=float)
        wins = frame[[f"win_{s}" for s in range(p)]].to_numpy(dtype=float)
        top = np.sort(scores, axis=1)
        out.append(Setting(meta["preset"], p, seat, order,
                           {"winner": top[:, -1], "others": scores[wins == 0]},
                           top[:, -1] - top[:, -2], frame["rounds"].to_numpy()))
    order_key = {name: i for i, name in enumerate(PRESETS)}
    return sorted(out, key=lambda s: (order_key.get(s.preset, len(PRESETS)), s.players))


def view_name(setting: Setting) -> str:
    """The game's own seat view (the set-up rail position of a player's earliest worker)."""
    return next(iter(setting.seat.views), "")


# ================================================================ the page


def render_page(results: dict[str, Results], command: str,
                started: float | None = None) -> PageOutput:
    """The page for runs already made (label -> Results; meta carries 'preset' and 'players').

    ``started`` (a ``time.perf_counter()`` value) lets the page state how long
    the whole build took, simulations included.
    """
    settings = analyse(results)
    view = view_name(settings[0])
    runs = runs_frame(results)
    tables = {
        "montego_bay_verdicts.csv": verdicts_frame(settings),
        "montego_bay_shares.csv": shares_long(settings),
        "montego_bay_scores.csv": scores_frame(settings),
        "montego_bay_runs.csv": runs,
    }

    page = Page(TITLE, "rumsim balance report - Montego Bay (2-4 players), spec sections 3, 4 "
                "and 9")
    page.heading("The answer")
    for text in reading(settings):
        page.paragraph(text, css="answer")

    page.heading("How to read this page")
    page.paragraph(
        "Montego Bay has no seat order: every round the workers move in the order of their "
        "tiles on the rail, which is dealt at random at set-up (and re-drawn once mid-game). "
        "'Moving first on the rail' is read three ways: by rail order (the player whose "
        "earliest worker stands first on the set-up rail, second, ...), by that worker's rail "
        f"position itself ({view}: 1 = moves first; with more workers than players a "
        "player's earliest worker can stand further back), and by seat (colour), which has no "
        f"turn order. All seats play the '{POLICY}' policy, so every figure is about the "
        "position, not the policy in it. Seat is not quite neutral at 2 players: seat 0 "
        "also moves the spare big worker and seat 1 the spare small one.")
    page.paragraph(
        f"Verdicts (seat and rail order): 'balanced' when every simultaneous interval of the "
        f"gap from the fair share 1/P lies within ±{MARGIN * 100:g} pp, 'unbalanced' when one "
        f"lies wholly outside, otherwise 'undetermined'. The chi-square p tests 'all equal'; "
        f"for the rail position it counts every player-game once, which is only approximately "
        f"independent, so read that p-value as approximate.", css="note")

    page.heading("Win share by rail order, rail position and seat")
    for preset in dict.fromkeys(s.preset for s in settings):
        part = [s for s in settings if s.preset == preset]
        changed = results_meta(results, preset).get("rules_changed", "default")
        page.figure(figures.win_share_panels(
            share_panels(part), f"Win share, {POLICY} policy, {preset} rules ({changed})",
            margin=MARGIN),
            alt=f"win share by rail order, rail position and seat, {preset} rules",
            caption="Rows: rail order (1 = moves first), set-up rail position of the player's "
                    "earliest worker, seat. Points: win share; whiskers: 95% Wilson intervals; "
                    f"dashed: the fair share 1/P; grey: ±{MARGIN * 100:g} pp.")
    page.table(verdicts_table(settings), caption="Verdicts and chi-square tests per setting")
    page.table(shares_wide(settings, ORDER_VIEW), caption="Win share by rail order, % [95% "
               "interval] (1 = the player whose earliest worker moves first)")
    page.table(shares_wide(settings, view), caption=f"Win share by {view}, % [95% interval] "
               "(per player-game)")
    page.table(shares_wide(settings, SEAT_VIEW), caption="Win share by seat (colour), % [95% "
               "interval]")

    page.heading("Scores")
    page.figure(figures.score_panels({s.name: s.scores for s in settings},
                                     f"Final VP, {POLICY} policy: the winner's and the others'",
                                     xlabel="final VP", ncols=len(PLAYER_COUNTS)),
                alt="score distributions of winners and others",
                caption="Share of scores per VP (or per bin of VP); 'winner' is each game's top "
                        "score, 'others' the scores of every player who did not win or share "
                        "the win.")
    page.table(scores_table(settings), caption="Final VP and game length per setting")

    page.heading("How this page was made")
    page.table(runs.rename(columns={"elapsed_s": "seconds"}),
               caption="Runs (each game of a run seeded from (seed, game index))",
               formats={"seconds": "{:.1f}"})
    first = next(iter(results.values())).meta
    versions = ", ".join(f"{k} {v}" for k, v in first.get("versions", {}).items())
    backends = ", ".join(sorted({str(r.meta.get("backend")) for r in results.values()}))
    policies = sorted({p for r in results.values() for p in r.meta.get("policies", [])})
    presets = sorted({r.meta["preset"] for r in results.values()})
    page.bullets([
        "Rules: " + "; ".join(f"'{p}' ({Rules.PRESETS.get(p, (p,))[0]})" for p in presets)
        + "; every other option at its default (rumsim rules montego-bay lists them).",
        f"Policies: {', '.join(policies)} in every seat.",
        f"Seeds: {', '.join(str(s) for s in dict.fromkeys(runs['seed']))}; games: "
        f"{int(runs['games'].sum()):,} in all; backend: {backends}.",
        f"Simulation time: {runs['elapsed_s'].sum():,.1f} s"
        + (f"; whole page: {time.perf_counter() - started:,.1f} s." if started else "."),
        f"Versions: {versions}." if versions else "Versions: not recorded.",
        seats_method(sorted({s.players for s in settings}), "seats or rail places",
                     "the win counts (for the rail position: homogeneity over player-games)",
                     "the settings"),
        "Rail order: the same seat analysis applied to the players ranked by the set-up rail "
        "position of their earliest worker. Mean VP: normal 95% interval.",
    ])
    page.paragraph("Reproduce this page (same seeds, same numbers; the times will differ):")
    page.code(command)
    page.paragraph("Tables as CSV: " + ", ".join(sorted(tables)) + ".", css="note")
    elapsed = time.perf_counter() - started if started else 0.0
    return PageOutput(FILENAME, TITLE, BLURB, page.render(), tables, elapsed)


def results_meta(results: dict[str, Results], preset: str) -> dict:
    return next(r.meta for r in results.values() if r.meta["preset"] == preset)


# ================================================================ the reading


def reading(settings: list[Setting]) -> list[str]:
    """A few plain sentences answering the question, computed from the tables."""
    out = []
    first = {s.name: s.order.table.iloc[0] for s in settings}
    below = [s for s in settings if first[s.name]["high"] < 1 / s.players]
    above = [s for s in settings if first[s.name]["low"] > 1 / s.players]
    unclear = len(settings) - len(below) - len(above)
    n = len(settings)
    if len(below) == n:
        head = "No: the player who moves first on the rail wins less often than the fair share"
        head += " in every setting"
    elif len(above) == n:
        head = "Yes: the player who moves first on the rail wins more often than the fair share"
        head += " in every setting"
    else:
        counts = [f"more often than the fair share in {len(above)}" if above else "",
                  f"less often than the fair share in {len(below)}" if below else "",
                  f"not clearly differently in {unclear}" if unclear else ""]
        head = (f"It depends: of the {n} settings, the player who moves first on the rail wins "
                + join_words([c for c in counts if c]))
    shares = []
    for preset in dict.fromkeys(s.preset for s in settings):
        shares.append(f"{preset} rules " + ", ".join(
            f"{s.players} players {first[s.name]['share']:.1%} [{first[s.name]['low']:.1%}, "
            f"{first[s.name]['high']:.1%}] against {1 / s.players:.1%}"
            for s in settings if s.preset == preset))
    out.append(f"{head} ({POLICY} players; win share [95% interval] against the fair share: "
               + "; ".join(shares) + ").")

    best = []
    for preset in dict.fromkeys(s.preset for s in settings):
        places = []
        for s in settings:
            if s.preset == preset:
                t = s.order.table
                k = int(t["share"].idxmax())
                places.append(f"{_ordinal(k + 1)} at {s.players} players "
                              f"({t.loc[k, 'share']:.1%})")
        best.append(f"{preset} rules " + ", ".join(places))
    verdicts: dict[str, list[str]] = {}
    for s in settings:
        verdicts.setdefault(s.order.verdict, []).append(s.name)
    out.append("The best place in the rail order: " + "; ".join(best) + ". Rail order verdicts "
               f"within ±{MARGIN * 100:g} pp: " + "; ".join(
                   f"{word} at {join_words(names)}" for word, names in verdicts.items()) + ".")

    spans = []
    for s in settings:
        t = s.seat.views.get(view_name(s))
        if t is None or not len(t):
            continue
        lo, hi = t.loc[t["share"].idxmin()], t.loc[t["share"].idxmax()]
        p = s.seat.view_tests[view_name(s)][2]
        spans.append(f"{s.name}: {lo['share']:.1%} (position {int(lo['value'])}) to "
                     f"{hi['share']:.1%} (position {int(hi['value'])}), p {_p(p)}")
    if spans:
        out.append(f"By the {view_name(settings[0])} itself, win shares range " + "; ".join(spans)
                   + ".")

    seat_words: dict[str, list[str]] = {}
    for s in settings:
        seat_words.setdefault(s.seat.verdict, []).append(s.name)
    # One test per setting: Holm keeps the chance of any false "unequal" at 5%.
    adjusted = holm(np.array([s.seat.p_value for s in settings]))
    unequal = [s for s, p in zip(settings, adjusted, strict=True) if p < 1 - CONFIDENCE]
    tops = [f"seat {int(s.seat.table['share'].idxmax())} wins "
            f"{s.seat.table['share'].max():.1%} at {s.name}" for s in unequal]
    out.append("Seat (colour), which carries no turn order: "
               + "; ".join(f"{word} at {join_words(names)}" for word, names in seat_words.items())
               + ("; the chi-square test (Holm-adjusted across the settings, 5%) finds unequal "
                  f"seats where {join_words(tops)}." if unequal else
                  "; the chi-square test (Holm-adjusted across the settings, 5%) finds no "
                  "unequal seats."))

    for preset in dict.fromkeys(s.preset for s in settings):
        part = [s for s in settings if s.preset == preset]
        counts = "/".join(str(s.players) for s in part)
        winner = "/".join(f"{s.scores['winner'].mean():.1f}" for s in part)
        others = "/".join(f"{s.scores['others'].mean():.1f}" if s.scores["others"].size else "-"
                          for s in part)
        lead = "/".join(f"{s.runner_up_gap.mean():.1f}" for s in part)
        rounds = "/".join(f"{s.rounds.mean():.2f}" for s in part)
        out.append(f"{preset.capitalize()} rules, {counts} players: winners average {winner} VP "
                   f"against {others} for the others, ahead of the runner-up by {lead} VP on "
                   f"average; games last {rounds} rounds.")
    return out


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _p(p: float) -> str:
    return "< 0.0001" if p < 1e-4 else f"= {p:.4f}"


# ================================================================ tables


def _ci(share: float, low: float, high: float) -> str:
    return f"{share * 100:.1f} [{low * 100:.1f}, {high * 100:.1f}]"


def _gap(answer: SeatAnswer) -> str:
    h = answer.headline
    return f"{h.estimate * 100:+.2f} pp [{h.low * 100:+.2f}, {h.high * 100:+.2f}]"


def view_table(setting: Setting, view: str) -> pd.DataFrame:
    """Long rows (value, share, low, high, gap, n) of one view of a setting."""
    if view == SEAT_VIEW:
        t = setting.seat.table
        return pd.DataFrame({"value": t["seat"].astype(int), "share": t["share"],
                             "low": t["low"], "high": t["high"], "gap": t["gap"],
                             "n": setting.seat.games})
    if view == ORDER_VIEW:
        t = setting.order.table
        return pd.DataFrame({"value": t["seat"].astype(int) + 1, "share": t["share"],
                             "low": t["low"], "high": t["high"], "gap": t["gap"],
                             "n": setting.order.games})
    t = setting.seat.views[view]
    return pd.DataFrame({"value": t["value"], "share": t["share"], "low": t["low"],
                         "high": t["high"], "gap": t["gap"], "n": t["players_seen"]})


def _views(setting: Setting) -> list[str]:
    return [ORDER_VIEW, *setting.seat.views, SEAT_VIEW]


def shares_long(settings: list[Setting]) -> pd.DataFrame:
    parts = [view_table(s, v).assign(preset=s.preset, players=s.players, view=v,
                                     fair=1 / s.players)
             for s in settings for v in _views(s)]
    frame = pd.concat(parts, ignore_index=True)
    return frame[["preset", "players", "view", "value", "n", "share", "low", "high", "gap",
                  "fair"]]


def share_panels(settings: list[Setting]) -> pd.DataFrame:
    """The long frame ``figures.win_share_panels`` draws: rows = views, columns = player counts."""
    frame = shares_long(settings)
    return frame.assign(row=frame["view"], col=frame["players"].astype(str) + " players",
                        x=frame["value"])


def shares_wide(settings: list[Setting], view: str) -> pd.DataFrame:
    rows = []
    for s in settings:
        if view not in _views(s):
            continue
        row = {"setting": s.name}
        for _, r in view_table(s, view).iterrows():
            row[str(int(r["value"]))] = _ci(r["share"], r["low"], r["high"])
        rows.append(row)
    return pd.DataFrame(rows).fillna("")


def verdicts_frame(settings: list[Setting]) -> pd.DataFrame:
    rows = []
    for s in settings:
        view = view_name(s)
        chi2, dof, p = s.seat.view_tests.get(view, (np.nan, 0, np.nan))
        o, h = s.order.table.iloc[0], s.order.headline
        rows.append({"preset": s.preset, "players": s.players, "games": s.seat.games,
                     "first_mover_share": o["share"], "first_mover_low": o["low"],
                     "first_mover_high": o["high"], "first_mover_gap": h.estimate,
                     "order_chi2": s.order.chi2, "order_p": s.order.p_value,
                     "order_verdict": s.order.verdict, "order_verdict_text": s.order.verdict_text,
                     "position_chi2": chi2, "position_dof": dof, "position_p": p,
                     "seat_chi2": s.seat.chi2, "seat_p": s.seat.p_value,
                     "seat_verdict": s.seat.verdict, "seat_verdict_text": s.seat.verdict_text,
                     "margin": MARGIN})
    return pd.DataFrame(rows)


def verdicts_table(settings: list[Setting]) -> pd.DataFrame:
    rows = []
    for s in settings:
        p_pos = s.seat.view_tests.get(view_name(s), (0, 0, np.nan))[2]
        rows.append({"setting": s.name, "games": s.seat.games,
                     "first mover - fair": _gap(s.order),
                     "rail order p": _fmt_p(s.order.p_value),
                     "rail order verdict": s.order.verdict,
                     "rail position p (approx.)": _fmt_p(p_pos),
                     "seat p": _fmt_p(s.seat.p_value), "seat verdict": s.seat.verdict})
    return pd.DataFrame(rows)


def _fmt_p(p: float) -> str:
    if not np.isfinite(p):
        return "-"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def scores_frame(settings: list[Setting]) -> pd.DataFrame:
    z = z_value(CONFIDENCE)
    rows = []
    for s in settings:
        w, o = s.scores["winner"], s.scores["others"]
        se = w.std(ddof=1) / np.sqrt(w.size) if w.size > 1 else np.nan
        rows.append({"preset": s.preset, "players": s.players, "games": w.size,
                     "winner_mean": w.mean(), "winner_low": w.mean() - z * se,
                     "winner_high": w.mean() + z * se,
                     "winner_p10": _quantile(w, 0.1), "winner_p90": _quantile(w, 0.9),
                     "others_mean": o.mean() if o.size else np.nan,
                     "others_p10": _quantile(o, 0.1), "others_p90": _quantile(o, 0.9),
                     "lead_mean": s.runner_up_gap.mean(),
                     "tied_top_share": float(np.mean(s.runner_up_gap == 0)),
                     "rounds_mean": s.rounds.mean()})
    return pd.DataFrame(rows)


def _quantile(x: np.ndarray, q: float) -> float:
    # The inverse empirical CDF: always a score that occurred, never an interpolation.
    return float(np.quantile(x, q, method="inverted_cdf")) if x.size else np.nan


def scores_table(settings: list[Setting]) -> pd.DataFrame:
    f = scores_frame(settings)
    return pd.DataFrame({
        "setting": [s.name for s in settings],
        "games": f["games"],
        "winner VP [95% CI]": [f"{m:.1f} [{lo:.1f}, {hi:.1f}]" for m, lo, hi
                               in zip(f["winner_mean"], f["winner_low"], f["winner_high"],
                                      strict=True)],
        "winner 10%-90%": [f"{a:g}-{b:g}" for a, b in zip(f["winner_p10"], f["winner_p90"],
                                                           strict=True)],
        "others VP": f["others_mean"].round(1),
        "others 10%-90%": [f"{a:g}-{b:g}" for a, b in zip(f["others_p10"], f["others_p90"],
                                                           strict=True)],
        "lead over runner-up": f["lead_mean"].round(2),
        "top VP tied %": (100 * f["tied_top_share"]).round(2),
        "mean rounds": f["rounds_mean"].round(2),
    })
