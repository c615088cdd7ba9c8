"""The Rum Runner page of the balance report: are the printed score bands calibrated?

Random, greedy and rollout play the ``standard`` rules and the ``long``
preset on one seed; the score-bands section judges every run against the
printed bands. ``PAGE.build`` plays and renders; ``PAGE.render`` renders
runs already made.
"""

from __future__ import annotations

from analyses.thresholds import CALIBRATION_MARGIN_PP, EDGE_RULE_TEXT, TYPO_NOTE, calibration
from engines import get_game
from reports import figures
from reports._runs import RunSpec, grid
from reports.headline import Summary, games_played
from reports.page import Answers, GamePage
from reports.sections.bands import Bands, ScoreBands, band_name
from reports.sections.ladder import Ladder
from reports.sections.ladder import plan as ladder_plan
from reports.sections.restrict import Restrict
from reports.sections.strength import Strength
from reports.sections.tune import Question, Tune
from reports.words import join_words

GAME = "rum-runner"
# Games per run at scale 1, sized for about 2 minutes on 2 cores. Measured on the fast
# path: random ~160k games/s, greedy ~60-70k/s, rollout (samples=16, which replays the
# game 16 times per option at every decision) only ~44/s standard and ~27/s long.
FAST_GAMES = 400_000
ROLLOUT_GAMES = 1_000             # rollout is a slow policy: it plays these instead
ROLLOUT_SAMPLES = 16
SEED = 1  # one seed for every run: each policy and preset plays the same deals
PRESETS = ("standard", "long")


# The skill ladder, weakest first, on the same deals of the standard rules (rollout with
# fewer samples than above, so the three policies can share LADDER_GAMES deals quickly).
LADDER = ("random", "greedy", "rollout:samples=4")
LADDER_GAMES = 1_000

# What would fix it (the worked tuning, also in the README): the printed bands, or edges
# fitted to the target split, under each reading of flip_after_draw; for greedy play (the
# bands' answer above) and for the expert (skilled play's base).
FIX = (Question("Under which rules and band edges do the bands fit the target split "
                "40/25/15/10/6/4?",
                goals=("band_distance=0",), knobs=("flip_after_draw", "score_band_edges=fit"),
                players=(1,), budget=1_000_000, seed=SEED),
       Question("Under which rules and band edges do the bands fit the target split "
                "40/25/15/10/6/4 for expert play?",
                goals=("band_distance=0",), knobs=("flip_after_draw", "score_band_edges=fit"),
                players=(1,), policy="expert", budget=1_000_000, seed=SEED))


# Skilled play: the game's strength ladder (engines declare it), every rung on the same
# deals: at the main player count with head to heads and ratings, at the others every
# rung in every seat only. Sized for the report's time (the search rungs are slow).
RUNGS = get_game(GAME).extra["ladder"]
STRENGTH_DEALS = 400
STRENGTH_OTHER_DEALS = 200
# The main player count's ladder as shipped evidence (make evidence, about a minute): the deals
# its seat and convergence verdicts need, which the page then takes whole (reports.evidence).
EVIDENCE_DEALS = 4_000


def plan(scale: float = 1.0) -> list[RunSpec]:
    """The runs of the page: every preset x policy, counts scaled (at least one game each),
    and the skill ladder's runs (every policy on the same deals, in lockstep)."""
    info = get_game(GAME)
    policies = ("random", "greedy", f"rollout:samples={ROLLOUT_SAMPLES}")
    return (grid(info, PRESETS, policies, (1,), FAST_GAMES, SEED, scale,
                 slow_games=ROLLOUT_GAMES, label="{policy} ({preset})")
            + ladder_plan(info, PRESETS[0], LADDER, 1, LADDER_GAMES, LADDER_GAMES, SEED, scale))


def how_to_read(page, answers: Answers) -> None:
    report = answers["thresholds"].report
    rules = report.rules
    page.paragraph(TYPO_NOTE)
    edges = ", ".join(str(e) for e in rules.score_band_edges)
    page.paragraph(f"Printed edges: {edges}; {EDGE_RULE_TEXT[rules.score_band_edge_rule]} "
                   f"(score_band_edge_rule={rules.score_band_edge_rule}).")
    split = "/".join(f"{t:g}" for t in report.target)
    page.paragraph(
        f"The target split {split} % (broke to god) is our yardstick for a calibrated score "
        f"table, not a rule: most games broke or poor, a few rich, very few gods. We call the "
        f"printed bands calibrated for a run when at most {CALIBRATION_MARGIN_PP:g}% of its games "
        f"would have to change band to give that split ('off target', the total variation "
        f"distance), with 95% confidence: the whole interval of the distance within the margin "
        f"(not calibrated: the whole interval beyond it; otherwise undetermined). Every figure "
        f"is about the policy that played the games, not the game alone.")


def reading(answers: Answers) -> list[str]:
    """A few plain sentences answering the question, computed from the tables."""
    answer: Bands = answers["thresholds"]
    report, presets = answer.report, answer.presets
    bands = report.bands.set_index(["label", "band"])
    summary = report.summary.set_index("label")
    out = []
    for preset in dict.fromkeys(presets.values()):
        labels = answer.labels_of(preset)
        broke = [f"{bands.loc[(lab, 0), 'share_pct']:.1f}% of {_policy(lab)} games" for lab in labels]
        high = {lab: sum(bands.loc[(lab, k), "share_pct"] for k in (3, 4, 5)) for lab in labels}
        best_lab = max(high, key=high.get)
        well_off = f"'{band_name(3)}' ({report.rules.score_band_edges[2]} or more)"
        reach = (f"no game reaches {well_off}" if high[best_lab] == 0 else
                 f"{_policy(best_lab)} reaches {well_off} most often, in {high[best_lab]:.1f}% "
                 f"of its games")
        out.append(f"Under the {preset} rules, {join_words(broke)} end '{band_name(0)}' (below "
                   f"{report.rules.score_band_edges[0]}); {reach}.")
    best = summary["target_distance_pct"].idxmin()
    split = "/".join(f"{t:g}" for t in report.target)
    margin = CALIBRATION_MARGIN_PP

    def off(lab: str) -> str:
        r = summary.loc[lab]
        return (f"{r['target_distance_pct']:.1f}% [{r['target_distance_low_pct']:.1f}, "
                f"{r['target_distance_high_pct']:.1f}]")

    fits = [lab for lab in report.labels if summary.loc[lab, "target_distance_high_pct"] <= margin]
    misses = [lab for lab in report.labels if summary.loc[lab, "target_distance_low_pct"] > margin]
    if fits:
        best = min(fits, key=lambda lab: summary.loc[lab, "target_distance_pct"])
        verdict = (f"Within our {margin:g}-point margin the printed bands are calibrated for "
                   f"{join_words(fits)}: for {best} only {off(best)} of its games would have to "
                   f"change band to give the {split} split.")
    elif len(misses) == len(report.labels):
        verdict = (f"The printed bands are not calibrated for any policy simulated here: even "
                   f"the closest fit, {best}, would need {off(best)} of its games to change band "
                   f"to give the {split} split (our margin is {margin:g}%).")
    else:
        unsure = [lab for lab in report.labels if lab not in misses]
        verdict = (f"Whether the printed bands are calibrated is undetermined for "
                   f"{join_words(unsure)}: the share of games that would have to change band to "
                   f"give the {split} split, {off(best)} for {best}, straddles our {margin:g}% "
                   f"margin; more games would narrow it.")
    cal = report.calibrated[report.calibrated["label"] == best].sort_values("edge_index")
    printed = ", ".join(str(e) for e in report.rules.score_band_edges)
    needed = ", ".join(str(e) for e in cal["edge"])
    out.append(verdict + f" For {best} that split needs edges {needed} instead of {printed}.")
    shifts = []
    for lab in report.labels:
        for other in report.labels:
            if (presets[lab] == PRESETS[0] and presets[other] == PRESETS[1]
                    and _policy(lab) == _policy(other)):
                shifts.append(f"{_policy(lab)} {summary.loc[lab, 'mean']:.0f} -> "
                              f"{summary.loc[other, 'mean']:.0f}")
    if shifts:
        out.append(f"Mean score, {PRESETS[0]} -> {PRESETS[1]} rules: {'; '.join(shifts)}.")
    return out


def _policy(label: str) -> str:
    return label.split(" (")[0]


def _calibration(r) -> str:
    """A run's verdict on the printed bands, from the interval of its 'off target' share."""
    return calibration(r["target_distance_low_pct"], r["target_distance_high_pct"])


def summary(answers: Answers, results) -> Summary:
    """The index's headline: the bands' verdict sentence and the deal's share of the score
    variance; the row; a small figure of each run's share of games off target."""
    bands: Bands = answers["thresholds"]
    t = bands.report.summary
    presets = list(dict.fromkeys(bands.presets.values()))
    sentence = reading(answers)[len(presets)]
    lad = answers["ladder"].table
    if len(lad):
        top = lad.iloc[-1]
        sentence += (f" The deal explains {top['deal_share']:.0%} [{top['deal_low']:.0%}, "
                     f"{top['deal_high']:.0%}] of the score variance between {top['weaker']} "
                     f"and {top['stronger']} on the same deals.")
    row = {"players": "1 (solo)",
           "policies": ", ".join(dict.fromkeys(_policy(lab) for lab in bands.report.labels)),
           "mean length": "", "first-player edge (95% CI)": "solo: no seats",
           "verdict": "; ".join(f"{r['label']}: {_calibration(r)}" for _, r in t.iterrows()),
           "games played": f"{games_played(results):,}"}
    dots = t.assign(estimate=t["target_distance_pct"] / 100,
                    low=t["target_distance_low_pct"] / 100,
                    high=t["target_distance_high_pct"] / 100)
    png = figures.interval_dots(dots, "Games off the target split, per run", "off target",
                                reference=CALIBRATION_MARGIN_PP / 100, percent=True, width=4.6)
    return Summary(sentence, row, png, "share of games off the target split per run")


PAGE = GamePage(
    game=GAME,
    filename="rum_runner.html",
    title="Rum Runner: are the printed score bands calibrated?",
    subtitle="rumsim balance report - Rum Runner (solo card game), spec sections 5.3 and 9.7",
    blurb="are the printed score bands calibrated?",
    plan=plan,
    sections=(
        Strength(RUNGS, players=(1,),
                 deals=STRENGTH_DEALS, other_deals=STRENGTH_OTHER_DEALS,
                 evidence_deals=EVIDENCE_DEALS, preset=PRESETS[0],
                 seed=SEED),
        Restrict(policy="expert", players=1, preset=PRESETS[0], seed=SEED),
        ScoreBands(), Ladder(policies=tuple(p.split(":")[0] for p in LADDER),
                                     players=1, preset=PRESETS[0]), Tune(FIX)),
    reading=reading,
    how_to_read=how_to_read,
    columns=("game", "score_0", "band_0", "turns", "end_reason"),
    summary=summary,
    rules=lambda info, presets: (
        f"Rules: the spec's defaults ('standard') and the 'long' preset "
        f"({info.rules_cls.PRESETS['long'][0]}); changed options are in the runs table."),
)
