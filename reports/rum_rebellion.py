"""The Rum Rebellion page of the balance report: what does each shorter-game variation really do?

``build_page`` plays the planned runs (the base rules and every shorter-game
preset at 4 players on one seed, and the base rules at 2, 3, 5 and 6 players,
all with the ``threshold`` policy), compares the variations with
``analyses.variants`` and the seats with ``analyses.seats``, and returns the
page HTML and its tables; ``reports.build`` writes them. ``render_page`` does
the second half alone, so a page can be made from results already on disk.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from analyses.seats import SeatAnswer, seat_advantage
from analyses.stats import CONFIDENCE
from analyses.variants import VariantsAnswer, compare, holm
from engines import get_game
from engines.rum_rebellion.rules import Rules
from reports import figures
from reports._runs import RunSpec, join_words, play, runs_frame, scaled, seats_method
from reports.html import Page
from reports.rum_runner import PageOutput
from simulate.results import Results

GAME = "rum-rebellion"
FILENAME = "rum_rebellion.html"
TITLE = "Rum Rebellion: what does each shorter-game variation really do?"
BLURB = ("what does each shorter-game variation really do to game length and the first "
         "player's edge?")

BASE = "standard"
VARIANTS = ("short_a", "short_b", "short_c", "short_d", "short_e_tol", "short_e_rc", "short_all")
PLAYERS = 4                       # the variant comparison's player count
SEAT_PLAYERS = (2, 3, 4, 5, 6)
POLICY = "threshold"              # the spec's greedy heuristic, in every seat
SEED = 1                          # one seed for every run: common random numbers
# Games per run at scale 1, sized for about 40 s on 2 shared cores: the fast path
# plays ~100k threshold games/s (4 players), and the variant comparison's paired
# bootstrap costs about as much again (~6 s per 100k games for the 7 variants).
VARIANT_GAMES = 150_000
SEAT_GAMES = 150_000
MARGIN = 0.02                     # "balanced" = every seat within ±2 pp of 1/P
KEEP_COLUMNS = ("game", "players", "rounds", "turns", "capped")
KEEP_PREFIXES = ("win_", "score_")
# The metrics of the page's variant tables: (heading, metric name in analyses.variants).
METRICS = (
    ("mean rounds", "rounds_mean"),
    ("median rounds", "rounds_median"),
    ("p90 rounds", "rounds_p90"),
    ("mean turns", "turns_mean"),
    ("capped", "capped_share"),
    ("first-player edge", "first_player_edge"),
    ("score spread", "score_spread"),
)


def plan(scale: float = 1.0) -> list[RunSpec]:
    """The runs of the page, counts scaled (at least two games, so paired variances exist).

    The 4-player seat figures come from the base run of the variant
    comparison, so no 4-player run is planned twice.
    """
    variant_games = scaled(VARIANT_GAMES, scale, least=2)
    seat_games = scaled(SEAT_GAMES, scale, least=2)
    out = [_spec(preset, PLAYERS, variant_games) for preset in (BASE, *VARIANTS)]
    out += [_spec(BASE, p, seat_games) for p in SEAT_PLAYERS if p != PLAYERS]
    return out


def _spec(preset: str, players: int, games: int) -> RunSpec:
    return RunSpec(preset, POLICY, players, games, SEED, f"{preset}, {players} players")


def run_plan(specs: list[RunSpec], backend: str = "fast", progress: bool | None = None,
             workers: int | None = None) -> dict[str, Results]:
    """Play every planned run; label -> Results (frames cut to the columns the page uses)."""
    return play(get_game(GAME), specs,
                lambda c: c in KEEP_COLUMNS or c.startswith(KEEP_PREFIXES),
                backend, progress, workers, complete=True)


def build_page(scale: float = 1.0, backend: str = "fast", progress: bool | None = None,
               workers: int | None = None,
               command: str = "rumsim report rum-rebellion --out DIR") -> PageOutput:
    """Run the plan at ``scale`` and render the page."""
    started = time.perf_counter()
    results = run_plan(plan(scale), backend=backend, progress=progress, workers=workers)
    return render_page(results, command=command, started=started)


def analyse(results: dict[str, Results]) -> tuple[VariantsAnswer, dict[int, SeatAnswer]]:
    """The variant comparison (4 players) and the seat answers (standard rules, per P)."""
    at_p = {r.meta["preset"]: r for r in results.values() if r.meta["players"] == PLAYERS}
    if BASE not in at_p or len(at_p) < 2:
        raise ValueError(f"need the {BASE} rules and at least one variant at {PLAYERS} players")
    base = at_p[BASE]
    variants = {name: at_p[name].frame for name in at_p if name != BASE}
    answer = compare(base.frame, variants, PLAYERS,
                     rules_text={name: at_p[name].meta["rules_changed"] for name in variants},
                     base_label=f"{BASE} (the spec's defaults)",
                     seed=int(base.meta.get("seed", SEED)), meta=base.meta)
    seats = {}
    for res in sorted(results.values(), key=lambda r: r.meta["players"]):
        if res.meta["preset"] == BASE:
            p = res.meta["players"]
            seats[p] = seat_advantage(res.frame, p, margin=MARGIN, same_policy=True, meta=res.meta)
    return answer, seats


def render_page(results: dict[str, Results], command: str,
                started: float | None = None) -> PageOutput:
    """The page for runs already made (label -> Results; meta carries 'preset' and 'players').

    ``started`` (a ``time.perf_counter()`` value) lets the page state how long
    the whole build took, simulations included.
    """
    answer, seats = analyse(results)
    names = list(dict.fromkeys(answer.table["variant"]))
    at_p = {r.meta["preset"]: r for r in results.values() if r.meta["players"] == PLAYERS}
    runs = runs_frame(results, lambda m: {"used for": _use(m)})
    tables = {
        "rum_rebellion_variants.csv": answer.table,
        "rum_rebellion_lengths.csv": levels_table(answer),
        "rum_rebellion_rounds.csv": rounds_distribution(at_p),
        "rum_rebellion_seats.csv": seats_long(seats),
        "rum_rebellion_seat_verdicts.csv": verdicts_frame(seats),
        "rum_rebellion_runs.csv": runs,
    }

    page = Page(TITLE, "rumsim balance report - Rum Rebellion (roll-and-move race for 2-6), "
                "spec sections 7.1 and 9.9")
    page.heading("The answer")
    for text in reading(answer, seats):
        page.paragraph(text, css="answer")

    page.heading("How to read this page")
    page.paragraph(
        f"The rulebook offers five 'Variations for a Shorter Game' (a-e; e comes in two "
        f"strengths). Each preset below was played on the same {answer.games:,} games as the "
        f"{BASE} rules: game i of every variation starts from the same seed (common random "
        f"numbers), so each game gives a paired difference. All {PLAYERS} seats use the "
        f"'{POLICY}' policy, so every seat figure is about the seat, not the policy in it.")
    page.table(presets_table(names), caption="The variations compared")
    page.paragraph(
        "Differences are variation minus standard with 95% intervals; * marks a difference "
        "that survives Holm's correction across the variations (family-wise 5%). The "
        "first-player edge is seat 0's win share minus the fair 1/P. The score spread is the "
        "standard deviation of the final progress scores (1000 x level + 10 x votes + net "
        "barrels, all seats pooled): smaller means the losers end closer to the winner.",
        css="note")

    page.heading("Game length under each variation")
    lengths = {name: res.frame["rounds"].to_numpy() for name, res in at_p.items()}
    page.figure(figures.length_ecdf(lengths, f"Rounds per game, {PLAYERS} players, {POLICY} "
                                    f"policy ({answer.games:,} games each)", base=BASE),
                alt="ECDF of rounds per game for the standard rules and every variation",
                caption="Share of games ended by each round; the black line is the standard "
                        "rules. Dotted lines: 50% (median) and 90% (90th percentile).")
    page.table(levels_table(answer).drop(columns=["games"]),
               caption=f"Values per variation, {PLAYERS} players",
               formats={"mean rounds": "{:.2f}", "median rounds": "{:.0f}",
                        "p90 rounds": "{:.0f}", "mean turns": "{:.1f}", "capped %": "{:.2f}",
                        "seat 0 wins %": "{:.2f}", "score spread": "{:.1f}"})

    page.heading("Differences from the standard rules")
    page.table(differences_table(answer),
               caption="Variation minus standard [95% interval]; * = significant after Holm")
    page.table(pairing_table(answer), caption="Pairing gain: variance of the difference with "
               "independent samples / with the paired games (1.0x = pairing did not help)")

    page.heading(f"Seat win shares, {min(seats)}-{max(seats)} players, {BASE} rules")
    page.figure(figures.win_share_panels(seat_panels(seats), f"Win share by seat, {POLICY} "
                                         f"policy, {BASE} rules", xlabel="seat (0 plays first)",
                                         margin=MARGIN),
                alt="win share by seat per player count",
                caption="Points: win share; whiskers: 95% Wilson intervals; dashed: the fair share "
                        f"1/P; grey: the ±{MARGIN * 100:g} pp margin of the verdict.")
    page.table(seats_wide(seats), caption="Win share by seat, % [95% interval]; verdict within "
               f"±{MARGIN * 100:g} pp")
    page.bullets([f"{p} players: {a.verdict_text}." for p, a in seats.items()])

    page.heading("How this page was made")
    page.table(runs.rename(columns={"elapsed_s": "seconds"}),
               caption="Runs (each game of a run seeded from (seed, game index))",
               formats={"seconds": "{:.1f}"})
    base_meta = at_p[BASE].meta
    versions = ", ".join(f"{k} {v}" for k, v in base_meta.get("versions", {}).items())
    backends = ", ".join(sorted({str(r.meta.get("backend")) for r in results.values()}))
    policies = sorted({p for r in results.values() for p in r.meta.get("policies", [])})
    page.bullets([
        f"Rules: the spec's defaults ('{BASE}') and the presets above; every other option at "
        f"its default (rumsim rules rum-rebellion lists them).",
        f"Policies: {', '.join(policies)} in every seat.",
        f"Seeds: {', '.join(str(s) for s in dict.fromkeys(runs['seed']))}; games: "
        f"{int(runs['games'].sum()):,} in all; backend: {backends}.",
        f"Simulation time: {runs['elapsed_s'].sum():,.1f} s"
        + (f"; whole page: {time.perf_counter() - started:,.1f} s." if started else "."),
        f"Versions: {versions}." if versions else "Versions: not recorded.",
        answer.method,
        seats_method(sorted(seats), "seats", "the seats' win counts", "the player counts"),
    ])
    page.paragraph("Reproduce this page (same seeds, same numbers; the times will differ):")
    page.code(command)
    page.paragraph("Tables as CSV: " + ", ".join(sorted(tables)) + ".", css="note")
    elapsed = time.perf_counter() - started if started else 0.0
    return PageOutput(FILENAME, TITLE, BLURB, page.render(), tables, elapsed)


# ================================================================ the reading


def reading(answer: VariantsAnswer, seats: dict[int, SeatAnswer]) -> list[str]:
    """A few plain sentences answering the question, computed from the tables."""
    t = answer.table.set_index(["variant", "metric"])
    names = list(dict.fromkeys(answer.table["variant"]))
    rounds = {v: t.loc[(v, "rounds_mean")] for v in names}
    order = sorted(names, key=lambda v: rounds[v]["diff"])
    shorter = [v for v in order if rounds[v]["significant"] and rounds[v]["diff"] < 0]
    longer = [v for v in order if rounds[v]["significant"] and rounds[v]["diff"] > 0]
    unclear = [v for v in order if not rounds[v]["significant"]]
    out = []
    if shorter:
        v = shorter[0]
        r = rounds[v]
        median = t.loc[(v, "rounds_median")]
        p90 = t.loc[(v, "rounds_p90")]
        text = (f"{v} ({_describe(v)}) shortens the game most: {r['base']:.1f} -> "
                f"{r['value']:.1f} rounds on average ({_diff(r)}), median {median['base']:.0f} -> "
                f"{median['value']:.0f}, 90th percentile {p90['base']:.0f} -> {p90['value']:.0f}.")
        if len(shorter) > 1:
            least = shorter[-1]
            text += (f" {len(shorter)} of {len(names)} variations shorten it significantly; "
                     f"the least is {least} ({_diff(rounds[least])} rounds).")
        out.append(text)
    else:
        out.append(f"No variation shortens the game significantly at {PLAYERS} players "
                   f"({answer.games:,} games each, Holm-corrected).")
    if longer:
        out.append("Longer games under " + join_words([f"{v} ({_diff(rounds[v])} rounds)"
                                                  for v in longer]) + ".")
    if unclear:
        out.append("No significant change in mean length: " + join_words(
            [f"{v} ({_diff(rounds[v])})" for v in unclear]) + ".")

    edge = {v: t.loc[(v, "first_player_edge")] for v in names}
    base_edge = edge[names[0]]["base"]
    headline = f"the first player's edge under the {BASE} rules is {_pp(base_edge)}"
    if PLAYERS in seats:
        h = seats[PLAYERS].headline
        headline += f" [{h.low * 100:+.2f}, {h.high * 100:+.2f}]"
    changed = [v for v in names if edge[v]["significant"]]
    if changed:
        out.append(f"At {PLAYERS} players {headline}; " + join_words(
            [f"{v} {'raises' if edge[v]['diff'] > 0 else 'lowers'} it by "
             f"{abs(edge[v]['diff']) * 100:.2f} pp [{edge[v]['low'] * 100:+.2f}, "
             f"{edge[v]['high'] * 100:+.2f}]" for v in changed])
            + " (significant after Holm)"
            + ("; no other variation changes it significantly." if len(changed) < len(names)
               else "."))
    else:
        out.append(f"At {PLAYERS} players {headline}; no variation changes it significantly "
                   f"(Holm, family-wise 5%).")

    spread = {v: t.loc[(v, "score_spread")] for v in names}
    widest = max(names, key=lambda v: abs(spread[v]["diff"]))
    s = spread[widest]
    if s["significant"]:
        out.append(f"{widest} changes the final score spread most: {s['base']:.0f} -> "
                   f"{s['value']:.0f} ({'closer' if s['diff'] < 0 else 'wider'} finishes).")

    if seats:
        shares = join_words([f"{a.table.iloc[0]['share']:.1%} at {p} players (fair {1 / p:.1%})"
                        for p, a in seats.items()])
        verdicts = {}
        for p, a in seats.items():
            verdicts.setdefault(a.verdict, []).append(str(p))
        said = "; ".join(f"{word} at {join_words(ps)} players" for word, ps in verdicts.items())
        # Five tests at once: Holm keeps the chance of any false "unequal" at 5%.
        adjusted = dict(zip(seats, holm(np.array([a.p_value for a in seats.values()])),
                            strict=True))
        unequal = [str(p) for p in seats if adjusted[p] < 1 - CONFIDENCE]
        equal = [str(p) for p in seats if adjusted[p] >= 1 - CONFIDENCE]
        test = ("The chi-square test finds no difference between the seats at any player count"
                if not unequal else
                f"The chi-square test finds unequal seats at {join_words(unequal)} players"
                + (f" but not at {join_words(equal)}" if equal else ""))
        test += " (Holm-adjusted across the player counts, 5%)"
        out.append(f"Under the {BASE} rules the first player wins {shares}. {test}; verdicts "
                   f"within ±{MARGIN * 100:g} pp: {said}.")

    gains = answer.table.loc[answer.table["kind"] == "mean", "vrf"]
    gains = gains[np.isfinite(gains)]
    if len(gains):
        median = float(gains.median())
        note = (" - little: the paired games behave almost like independent ones, so each "
                "interval is about as wide as with separate seeds" if median < 1.2 else "")
        out.append(f"Playing every variation on the same seeds cut the variance of the mean "
                   f"differences by {gains.min():.2f}x to {gains.max():.2f}x (median "
                   f"{median:.2f}x){note}.")
    return out


def _describe(preset: str) -> str:
    text = Rules.PRESETS.get(preset, (preset,))[0]
    return text.removeprefix("shorter game ")


def _diff(r) -> str:
    return f"{r['diff']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}]"


def _pp(x: float) -> str:
    return f"{x * 100:+.2f} pp"


# ================================================================ tables


def presets_table(names: list[str]) -> pd.DataFrame:
    rows = [{"preset": BASE, "rulebook": Rules.PRESETS[BASE][0], "rules changed": "-"}]
    for name in names:
        desc, overrides = Rules.PRESETS.get(name, (name, {}))
        rows.append({"preset": name, "rulebook": desc,
                     "rules changed": Rules.from_overrides(overrides).describe()})
    return pd.DataFrame(rows)


def levels_table(answer: VariantsAnswer) -> pd.DataFrame:
    """One row per rules set (standard first): the metric values themselves, not differences."""
    t = answer.table
    wanted = {"rounds_mean": "mean rounds", "rounds_median": "median rounds",
              "rounds_p90": "p90 rounds", "turns_mean": "mean turns", "capped_share": "capped %",
              "win_0": "seat 0 wins %", "score_spread": "score spread"}
    percent = {"capped_share", "win_0"}
    first = t[t["variant"] == t["variant"].iloc[0]].set_index("metric")
    rows = [{"rules": BASE, "games": answer.games,
             **{label: first.loc[m, "base"] * (100 if m in percent else 1)
                for m, label in wanted.items() if m in first.index}}]
    for variant, block in t.groupby("variant", sort=False):
        b = block.set_index("metric")
        rows.append({"rules": variant, "games": answer.games,
                     **{label: b.loc[m, "value"] * (100 if m in percent else 1)
                        for m, label in wanted.items() if m in b.index}})
    return pd.DataFrame(rows)


def differences_table(answer: VariantsAnswer) -> pd.DataFrame:
    present = set(answer.table["metric"])
    rows = []
    for variant in dict.fromkeys(answer.table["variant"]):
        row = {"variation": variant}
        for label, metric in METRICS:
            if metric in present:
                row[label] = answer.cell(variant, metric, with_ci=True)
        rows.append(row)
    return pd.DataFrame(rows)


def pairing_table(answer: VariantsAnswer) -> pd.DataFrame:
    t = answer.table.set_index(["variant", "metric"])
    present = set(answer.table["metric"])
    rows = []
    for variant in dict.fromkeys(answer.table["variant"]):
        row = {"variation": variant}
        for label, metric in METRICS:
            if metric in present:
                vrf = t.loc[(variant, metric), "vrf"]
                row[label] = f"{vrf:.2f}x" if np.isfinite(vrf) else "-"
        rows.append(row)
    return pd.DataFrame(rows)


def rounds_distribution(at_p: dict[str, Results]) -> pd.DataFrame:
    """Share of games ending in each round, per rules set (the data behind the ECDF figure)."""
    parts = []
    for name, res in at_p.items():
        counts = res.frame["rounds"].value_counts().sort_index()
        parts.append(pd.DataFrame({"rules": name, "rounds": counts.index, "games": counts.values,
                                   "share": counts.values / counts.sum(),
                                   "cumulative": counts.cumsum().values / counts.sum()}))
    return pd.concat(parts, ignore_index=True)


def seats_long(seats: dict[int, SeatAnswer]) -> pd.DataFrame:
    return pd.concat([a.table.assign(players=p, games=a.games, fair=1 / p)
                      for p, a in seats.items()], ignore_index=True)


def verdicts_frame(seats: dict[int, SeatAnswer]) -> pd.DataFrame:
    rows = []
    for p, a in seats.items():
        h = a.headline
        rows.append({"players": p, "games": a.games, "first_player_gap": h.estimate,
                     "gap_low": h.low, "gap_high": h.high, "chi2": a.chi2, "dof": a.dof,
                     "p_value": a.p_value, "margin": a.margin, "verdict": a.verdict,
                     "verdict_text": a.verdict_text})
    return pd.DataFrame(rows)


def seat_panels(seats: dict[int, SeatAnswer]) -> pd.DataFrame:
    return pd.concat([a.table.assign(col=f"{p} players", x=a.table["seat"].astype(int),
                                     fair=1 / p) for p, a in seats.items()], ignore_index=True)


def seats_wide(seats: dict[int, SeatAnswer]) -> pd.DataFrame:
    most = max(seats)
    rows = []
    for p, a in seats.items():
        row = {"players": p, "games": a.games}
        for s in range(most):
            if s < p:
                r = a.table.iloc[s]
                row[f"seat {s}"] = (f"{r['share'] * 100:.1f} [{r['low'] * 100:.1f}, "
                                    f"{r['high'] * 100:.1f}]")
            else:
                row[f"seat {s}"] = ""
        h = a.headline
        row["seat 0 - fair"] = f"{h.estimate * 100:+.2f} pp [{h.low * 100:+.2f}, {h.high * 100:+.2f}]"
        row["chi-square p"] = "< 0.0001" if a.p_value < 1e-4 else f"{a.p_value:.4f}"
        row["verdict"] = a.verdict
        rows.append(row)
    return pd.DataFrame(rows)


def _use(meta: dict) -> str:
    if meta["players"] != PLAYERS:
        return "seats"
    return "variants (base) and seats" if meta["preset"] == BASE else "variants"
