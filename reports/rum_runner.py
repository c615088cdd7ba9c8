"""The Rum Runner page of the balance report: which score bands to print, for which player?

The page's skill levels (beginner = greedy, expert, expert + search and the best measured
player: ``reports.sections.bands.skill_players``, from the game's strength ladder) play the
``standard`` rules and the ``long`` preset on one seat; the score-bands section judges every
run against the printed bands and gives, per skill level, the edges the target split
needs. ``skill_answer`` is the page's answer block: that table and its question, answer and
fix. ``PAGE.build`` plays and renders; ``PAGE.render`` renders runs already made.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from analyses.thresholds import (
    CALIBRATION_MARGIN_PP,
    EDGE_RULE_TEXT,
    SKILL_METHOD_NOTE,
    TYPO_NOTE,
    SkillBands,
    calibration,
    skill_table,
)
from engines import get_game
from engines.rum_runner.rules import BAND_NAMES
from reports import figures
from reports._runs import RunSpec, grid
from reports.headline import Summary, games_played
from reports.html import esc
from reports.page import Answers, GamePage
from reports.sections.bands import Bands, ScoreBands, band_name, skill_players
from reports.sections.ladder import Ladder
from reports.sections.ladder import plan as ladder_plan
from reports.sections.restrict import Restrict
from reports.sections.strength import Strength
from reports.sections.tune import Question, Tune
from reports.words import join_words, player_label, player_labels

GAME = "rum-runner"
# Games per run at scale 1, sized for about 2 minutes on 2 cores. Measured on the fast
# path: greedy ~60k games/s, expert ~150k/s; the searches over the expert (8 and 16
# imagined games per option at every decision) only ~230 and ~125 games/s standard, ~180
# and ~90 long.
FAST_GAMES = 400_000
ROLLOUT_GAMES = 2_000             # a search is a slow policy: it plays these instead
SEED = 1  # one seed for every run: each policy and preset plays the same deals
PRESETS = ("standard", "long")
# The skill levels the bands are printed for, weakest first: (level, policy label).
SKILLS = tuple(skill_players(get_game(GAME)).items())
# Whose row of the per-skill table the answer's fix quotes: the designer's choice; the
# expert is the closest to a practised human player among the levels.
DESIGN_FOR = "expert"

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
    """The runs of the page: every preset x skill level, counts scaled (at least one game
    each), each labelled by its player in words and its preset; and the policy ladder's
    runs (every policy on the same deals, in lockstep)."""
    info = get_game(GAME)
    policies = [policy for _, policy in SKILLS]
    words = player_labels(info, policies)
    runs = grid(info, PRESETS, policies, (1,), FAST_GAMES, SEED, scale,
                slow_games=ROLLOUT_GAMES, label="{policy} ({preset})")
    runs = [dataclasses.replace(r, label=f"{words[r.policy]} ({r.preset})") for r in runs]
    return runs + ladder_plan(info, PRESETS[0], LADDER, 1, LADDER_GAMES, LADDER_GAMES, SEED,
                              scale)


def _who(level: str, player: str) -> str:
    """A skill level in a sentence: the player as named, with its level when they differ."""
    if player == level:
        return f"the {level}"
    if player.startswith(level):
        return player
    return f"the {level} player ({player})" if level == "best measured" else \
        f"the {level} ({player})"


def skill_answer(answers: Answers) -> tuple[pd.DataFrame, list[str]]:
    """The page's answer block: the per-skill table (both presets) and its question, answer
    and fix in three sentences. Empty when the page played no skill levels."""
    bands: Bands = answers["thresholds"]
    skills: dict[str, SkillBands] = bands.skills
    if not skills:
        return pd.DataFrame(), []
    table = pd.concat([skill_table(sb, preset, spec=True) for preset, sb in skills.items()],
                      ignore_index=True)
    first = next(iter(skills.values()))
    split = "/".join(f"{t:g}" for t in first.target)
    printed = ", ".join(str(e) for e in first.rules.score_band_edges)
    margin = CALIBRATION_MARGIN_PP
    question = (f"Which score bands should Rum Runner print, and for which player: do the "
                f"printed edges ({printed}) give the {split} split from {BAND_NAMES[0]} to "
                f"{BAND_NAMES[-1]}?")
    clauses, calibrated = [], []
    for preset, sb in skills.items():
        t = sb.table.set_index("level")

        def off(level: str, t=t) -> str:
            r = t.loc[level]
            return (f"{r['off_target_pct']:.1f}% [{r['off_target_low_pct']:.1f}, "
                    f"{r['off_target_high_pct']:.1f}]")

        def who(level: str, t=t) -> str:
            return _who(level, t.loc[level, "player"])
        calibrated += [f"{who(lv)} ({preset})" for lv in t.index
                       if calibration(t.loc[lv, "off_target_low_pct"],
                                      t.loc[lv, "off_target_high_pct"]) == "calibrated"]
        if len(t) == 1 or sb.shown_best:
            others = [lv for lv in t.index if lv != sb.best]
            rest = ("" if not others else
                    f"; every other level at least "
                    f"{min(t.loc[lv, 'off_target_low_pct'] for lv in others):.1f}%")
            clauses.append(f"under the {preset} rules they fit {who(sb.best)} best, with "
                           f"{off(sb.best)} of its games in the wrong band{rest}")
        else:
            tied = [sb.best, *sb.tied]
            clauses.append(f"under the {preset} rules they fit "
                           f"{join_words([who(lv) for lv in tied])} about equally "
                           f"({join_words([off(lv) for lv in tied])} of games in the wrong "
                           f"band; the intervals overlap, so these levels cannot be told "
                           f"apart)")
    verdict = (f"they are shown within our {margin:g}% margin only for "
               f"{join_words(calibrated)}"
               if calibrated else f"no level is shown within our {margin:g}% margin")
    answer = (f"The printed bands fit one kind of player at a time: "
              f"{'; '.join(clauses)}; {verdict}.")
    fixes = []
    for preset, sb in skills.items():
        if DESIGN_FOR in set(sb.table["level"]):
            edges = sb.edges_of(DESIGN_FOR)
            fixes.append(f"{', '.join(f'{BAND_NAMES[k + 1]} from {e}' for k, e in enumerate(edges))}"
                         f" under the {preset} rules")
    who_for = _who(DESIGN_FOR, first.row(DESIGN_FOR)["player"]) if fixes else "each level"
    fix = (f"Fix: print the edges of the row for the player the game is meant for (table); "
           f"for {who_for}: {'; '.join(fixes)}. The {split} split is our default, a choice, "
           f"not a rule: `rumsim thresholds --skills --target ...` gives the edges for "
           f"another.") if fixes else (
           f"Fix: print the edges of the row for the player the game is meant for (table); "
           f"the {split} split is a choice, not a rule (`rumsim thresholds --target`).")
    return table, [question, answer, fix]


def answer_first(page, answers: Answers) -> None:
    """The answer block, first on the page: the question, answer and fix, then the table."""
    table, sentences = skill_answer(answers)
    if table.empty:
        return
    classes = ("question", "headline", "fix")
    for k, text in enumerate(sentences):
        css = classes[k] if k < len(classes) else None
        if css == "question":
            page.raw(f'<p class="question"><strong>{esc(text)}</strong></p>')
        else:
            page.paragraph(text, css=css)
    table = table.drop(columns=[c for c in ("specification",) if c in table])
    split = "/".join(f"{t:g}" for t in answers["thresholds"].report.target)
    page.table(table, caption=f"Band edges that give the {split} split, per skill level and "
               "rules: each band from its edge [95% interval]; the median game [95% interval] "
               "and the printed band it lands in; the share of games the printed bands put "
               "off that split [95% intervals, simultaneous over the levels]")
    page.paragraph(SKILL_METHOD_NOTE, css="note")


def how_to_read(page, answers: Answers) -> None:
    report = answers["thresholds"].report
    rules = report.rules
    page.paragraph(TYPO_NOTE)
    edges = ", ".join(str(e) for e in rules.score_band_edges)
    page.paragraph(f"Printed edges: {edges}; {EDGE_RULE_TEXT[rules.score_band_edge_rule]} "
                   f"(score_band_edge_rule={rules.score_band_edge_rule}).")
    split = "/".join(f"{t:g}" for t in report.target)
    page.paragraph(
        f"The default target split {split} % ({BAND_NAMES[0]} to {BAND_NAMES[-1]}) is a "
        f"choice, not a rule: our yardstick for a calibrated score table (most games "
        f"{BAND_NAMES[0]} or {BAND_NAMES[1]}, a few {BAND_NAMES[4]}, very few {BAND_NAMES[5]}); "
        f"a designer who wants another split gets its edges with `rumsim thresholds --skills "
        f"--target ...`. Bands are named by the key words of the rules sheet's lines: "
        f"{join_words(BAND_NAMES)}. Players are named as a designer would (greedy: the rules "
        f"sheet's one-step player, our beginner; the expert: trained; expert + search: the "
        f"expert imagining the rest of the game before each decision); their exact "
        f"specifications are in the tables. We call the "
        f"printed bands calibrated for a run when at most {CALIBRATION_MARGIN_PP:g}% of its games "
        f"would have to change band to give that split ('off target', the total variation "
        f"distance), with 95% confidence: the whole interval of the distance within the margin "
        f"(not calibrated: the whole interval beyond it; otherwise undetermined). Every figure "
        f"is about the player who played the games, not the game alone.")


def reading(answers: Answers) -> list[str]:
    """A few plain sentences answering the question, computed from the tables."""
    answer: Bands = answers["thresholds"]
    report, presets = answer.report, answer.presets
    bands = report.bands.set_index(["label", "band"])
    summary = report.summary.set_index("label")
    out = []
    for preset in dict.fromkeys(presets.values()):
        labels = answer.labels_of(preset)
        broke = [f"{bands.loc[(lab, 0), 'share_pct']:.1f}% of games by {_policy(lab)}"
                 for lab in labels]
        high = {lab: sum(bands.loc[(lab, k), "share_pct"] for k in (3, 4, 5)) for lab in labels}
        best_lab = max(high, key=high.get)
        well_off = f"'{band_name(3)}' ({report.rules.score_band_edges[2]} or more)"
        reach = (f"no game reaches {well_off}" if high[best_lab] == 0 else
                 f"{_policy(best_lab)} reaches {well_off} most often, in {high[best_lab]:.1f}% "
                 f"of its games")
        out.append(f"Under the {preset} rules, {join_words(broke)} end '{band_name(0)}' (below "
                   f"{report.rules.score_band_edges[0]}); {reach}.")
    if not answer.skills:  # runs of other players: the verdict per run
        out.append(_verdict(report))
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


def _verdict(report) -> str:
    """The printed bands' verdict over runs that are not the page's skill levels."""
    summary = report.summary.set_index("label")
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
        verdict = (f"The printed bands are not calibrated for any player simulated here: even "
                   f"the closest fit, {best}, would need {off(best)} of its games to change band "
                   f"to give the {split} split (our margin is {margin:g}%).")
    else:
        unsure = [lab for lab in report.labels if lab not in misses]
        verdict = (f"Whether the printed bands are calibrated is undetermined for "
                   f"{join_words(unsure)}: the share of games that would have to change band to "
                   f"give the {split} split, {off(best)} for {best}, straddles our {margin:g}% "
                   f"margin; more games would narrow it.")
    return verdict


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
    _, block = skill_answer(answers)
    sentence = block[1] if block else _verdict(bands.report)
    lad = answers["ladder"].table
    if len(lad):
        top = lad.iloc[-1]
        bounds = (f" [{top['deal_low']:.0%}, {top['deal_high']:.0%}]"
                  if np.isfinite([top["deal_low"], top["deal_high"]]).all()
                  else " (too few deals for an interval)")
        info = get_game("rum-runner")
        weaker, stronger = (player_label(info.policy(top[k])) for k in ("weaker", "stronger"))
        sentence += (f" The deal explains {top['deal_share']:.0%}{bounds} of the score variance "
                     f"between {weaker} and {stronger} on the same deals.")
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
    title="Rum Runner: which score bands to print, for which player?",
    subtitle="rumsim balance report - Rum Runner (solo card game), spec sections 5.3 and 9.7",
    blurb="which score bands to print, for which player?",
    plan=plan,
    sections=(
        Strength(RUNGS, players=(1,),
                 deals=STRENGTH_DEALS, other_deals=STRENGTH_OTHER_DEALS,
                 evidence_deals=EVIDENCE_DEALS, preset=PRESETS[0],
                 seed=SEED),
        Restrict(policy="expert", players=1, preset=PRESETS[0], seed=SEED),
        ScoreBands(skills=SKILLS), Ladder(policies=tuple(p.split(":")[0] for p in LADDER),
                                     players=1, preset=PRESETS[0]), Tune(FIX)),
    reading=reading,
    how_to_read=how_to_read,
    columns=("game", "score_0", "band_0", "turns", "end_reason"),
    summary=summary,
    answer_first=answer_first,
    rules=lambda info, presets: (
        f"Rules: the spec's defaults ('standard') and the 'long' preset "
        f"({info.rules_cls.PRESETS['long'][0]}); changed options are in the runs table."),
)
