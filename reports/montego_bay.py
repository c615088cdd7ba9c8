"""The Montego Bay page of the balance report: does moving first on the rail win?

The trained ``expert`` (skilled play) plays every seat at 2, 3 and 4 players under the
standard rules and the ``short`` preset, on one seed; the spec's own players (the
beginners: ``random``, ``greedy``) and a search over the expert play the same settings at
fewer games for the policy-sensitivity sections. The seat section reads each run three
ways: by rail order (the game's turn order: the player whose earliest
worker moves first, second, ...), by the set-up rail position of each
player's earliest worker (the game's seat view) and by seat (colour); the
scores section compares winners with the others. ``PAGE.build`` plays and
renders; ``PAGE.render`` renders runs already made.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engines import get_game
from reports._runs import RunSpec, grid
from reports.answer import Asked
from reports.page import Answers, GamePage
from reports.sections.feel import Feel
from reports.sections.ladder import Ladder
from reports.sections.ladder import plan as ladder_plan
from reports.sections.restrict import Restrict
from reports.sections.scores import Scores
from reports.sections.seats import SEAT, SeatAdvantage, SeatsAnswer, Setting, shares_long
from reports.sections.sensitivity import Sensitivity, VariantSensitivity
from reports.sections.strength import Strength
from reports.sections.tune import Question, Tune
from reports.words import (
    by_word,
    join_words,
    ordinal,
    p_cell,
    p_equals,
    player_labels,
    pp_interval,
    verdict_note,
)

GAME = "montego-bay"
PRESETS = ("standard", "short")
PLAYER_COUNTS = (2, 3, 4)
POLICY = "expert"                 # the page's main players: skilled play
BEGINNERS = ("random", "greedy")  # the spec's own players, weakest first
BEGINNER = "greedy"               # the spec's heuristic: the beginner the answer compares
SEED = 1                          # one seed for every run: each setting plays its own deals
# Games per run at scale 1 (six runs). The expert costs about 1.25 times greedy's time per
# game (the fast path played ~30k greedy games/s on 2 threads): its 100k games and the
# beginners' 40k take about what greedy's 150k took when greedy was the page's player.
GAMES = 100_000
MARGIN = 0.02                     # "balanced" = every seat within ±2 pp of 1/P
ORDER_VIEW = "rail order"         # the game's turn order (GAME.extra["turn_order"])
RUNGS = get_game(GAME).extra["ladder"]
# The better player "does it survive a better player?" asks about: a search over the expert,
# the strength ladder's cheaper search rung (16 opponent profiles drawn per decision).
SEARCH = RUNGS[-2]
POLICIES = (*BEGINNERS, POLICY, SEARCH)  # the skill ladder, weakest first
# The same players as the policy-sensitivity sections name them (the run's policy name).
SHOWN = tuple(p.split(":")[0] for p in POLICIES)
OTHER_GAMES = 40_000              # the beginners' runs (policy sensitivity) ...
SLOW_GAMES = 2_000                # ... and the slow search's
LADDER_PLAYERS = 3
LADDER_GAMES = 30_000             # per rung, split over the rotated seats (slow rung: SLOW)
# What would fix it (the worked tuning, also in the README): coins by rail place, under the
# expert (the answer's players; the answer block's fix) and greedy (the beginners).
FIX = tuple(
    Question(f"Which starting coins for the first and second places on the rail bring every "
             f"rail place within ±2 percentage points of its fair share (3 {policy} players)?",
             goals=("max_place_gap<=2pp",),
             knobs=("start_coins_by_place[0]=0..5", "start_coins_by_place[1]=0..3"),
             players=(LADDER_PLAYERS,), policy=policy, budget=600_000, seed=SEED)
    for policy in (POLICY, BEGINNER))
FIX_EXPERT = next(q for q in FIX if q.policy == POLICY)


# Skilled play: the game's strength ladder (engines declare it), every rung on the same
# deals: at the main player count with head to heads and ratings, at the others every
# rung in every seat only. Sized for the report's time (the search rungs are slow).
STRENGTH_DEALS = 2_000  # cheap here: the sampler plays hundreds of games a second
STRENGTH_OTHER_DEALS = 200
# The main player count's ladder as shipped evidence (make evidence, about 2 minutes): the deals
# its seat and convergence verdicts need, which the page then takes whole (reports.evidence).
EVIDENCE_DEALS = 32_000


def plan(scale: float = 1.0) -> list[RunSpec]:
    """The runs of the page: every preset x player count under each policy of the ladder
    (the expert at the most games, the beginners and the slow search at fewer), and the
    ladder's rungs; counts scaled (at least two games)."""
    info = get_game(GAME)
    label = "{preset}, {policy}, {players} players"
    others = tuple(p for p in POLICIES if p != POLICY)
    return (grid(info, PRESETS, (POLICY,), PLAYER_COUNTS, GAMES, SEED, scale, least=2,
                 label=label)
            + grid(info, PRESETS, others, PLAYER_COUNTS, OTHER_GAMES, SEED, scale, least=2,
                   slow_games=SLOW_GAMES, label=label)
            + ladder_plan(info, PRESETS[0], POLICIES, LADDER_PLAYERS, LADDER_GAMES, SLOW_GAMES,
                          SEED, scale))


def view_name(setting: Setting) -> str:
    """The game's own seat view (the set-up rail position of a player's earliest worker)."""
    return next(iter(setting.seat.views), "")


# ================================================================ the verdicts, three ways


def verdicts_frame(answer: SeatsAnswer) -> pd.DataFrame:
    """Per setting: the first mover's share and gap, and the rail order, rail position and
    seat tests (p and p Holm-adjusted over them all) and verdicts."""
    rows = []
    adjusted = answer.holm_p()
    for s in answer.settings:
        chi2, dof, p = s.seat.view_tests.get(view_name(s), (np.nan, 0, np.nan))
        o, h = s.order.table.iloc[0], s.order.headline
        rows.append({"preset": s.preset, "players": s.players, "games": s.seat.games,
                     "first_mover_share": o["share"], "first_mover_low": o["low"],
                     "first_mover_high": o["high"], "first_mover_gap": h.estimate,
                     "order_chi2": s.order.chi2, "order_p": s.order.p_value,
                     "order_p_holm": adjusted[(s.name, ORDER_VIEW)],
                     "order_verdict": s.order.verdict, "order_verdict_text": s.order.verdict_text,
                     "position_chi2": chi2, "position_dof": dof, "position_p": p,
                     "position_p_holm": adjusted.get((s.name, view_name(s)), np.nan),
                     "seat_chi2": s.seat.chi2, "seat_p": s.seat.p_value,
                     "seat_p_holm": adjusted[(s.name, SEAT)],
                     "seat_verdict": s.seat.verdict, "seat_verdict_text": s.seat.verdict_text,
                     "margin": answer.margin})
    return pd.DataFrame(rows)


def verdicts_table(answer: SeatsAnswer) -> pd.DataFrame:
    adjusted = answer.holm_p()
    return pd.DataFrame([{
        "setting": s.name, "games": s.seat.games,
        "first mover - fair": pp_interval(s.order.headline),
        "rail order p (Holm)": p_cell(adjusted[(s.name, ORDER_VIEW)]),
        "rail order verdict": s.order.verdict,
        "rail position p (Holm)": p_cell(adjusted.get((s.name, view_name(s)), np.nan)),
        "seat p (Holm)": p_cell(adjusted[(s.name, SEAT)]), "seat verdict": s.seat.verdict,
    } for s in answer.settings])


# ================================================================ the words


def _labels() -> dict[str, str]:
    """Each player of the page by its name in the runs ('sampler') -> as a designer reads it
    ('expert + search, 16 opponent profiles drawn per decision')."""
    info = get_game(GAME)
    return {p.split(":")[0]: label for p, label in player_labels(info, POLICIES).items()}


def how_to_read(page, answers: Answers) -> None:
    view = next(iter(get_game(GAME).extra["seat_views"]))
    said = _labels()
    page.paragraph(
        "Montego Bay has no seat order: every round the workers move in the order of their "
        "tiles on the rail, which is dealt at random at set-up (and re-drawn once mid-game). "
        "'Moving first on the rail' is read three ways: by rail order (the player whose "
        "earliest worker stands first on the set-up rail, second, ...), by that worker's rail "
        f"position itself ({view}: 1 = moves first; with more workers than players a "
        "player's earliest worker can stand further back), and by seat (colour), which has no "
        "turn order. In the seat section, the scores and the game feel every seat is played "
        "by the expert (the spec's heuristic with weights trained by rumsim to win more "
        "often), so every figure is about the position among skilled players, not about the "
        "player in it. The spec's own players, the beginners ("
        + join_words(said[b] for b in BEGINNERS) + "), and the expert with a search ("
        f"{said[SEARCH.split(':')[0]]}) play the same settings at fewer games; the sections "
        "'Does the seat answer survive a better player?' and 'Does each variation's effect "
        "survive a better player?' show them side by side with the expert. Seat is not quite "
        "neutral at 2 players: seat 0 also moves the spare big worker and seat 1 the spare "
        "small one.")
    page.paragraph(
        "Seat and rail order: " + verdict_note(MARGIN, "place") + " The p-values test "
        "'all equal', "
        "clustered by game (a Wald test on each game's wins), because the player-games of "
        "one game are not independent; they are Holm-adjusted over every test of the page's "
        "seat section, and a large p is not evidence of equal places.",
        css="note")


def _beginners(answers: Answers) -> list[str]:
    """What the beginners do differently, and whether a search over the expert moves the
    answer: the first on the rail's win share per player under the standard rules."""
    sens = answers.get("sensitivity")
    if sens is None or not sens.seats:
        return []
    said = _labels()
    expert, search = POLICY, SEARCH.split(":")[0]

    def share(v) -> str:
        fair = 1 / v.players
        return (f"{v.edge.estimate + fair:.1%} [{v.edge.low + fair:.1%}, "
                f"{v.edge.high + fair:.1%}]")

    begin, better = [], []
    for s in sens.seats:
        views = {v.policy: v for v in s.views}
        if expert not in views:
            continue
        e = views[expert]
        shown = [f"{share(views[b])} among {said[b]} players" for b in BEGINNERS
                 if b in views]
        if shown:
            begin.append(f"at {s.players} players {join_words(shown)}, against {share(e)} "
                         "among experts")
        if search in views:
            better.append(f"{share(views[search])} at {s.players} players (among experts "
                          f"{share(e)})")
    out = []
    if begin:
        out.append(f"Among the spec's beginners ({PRESETS[0]} rules; the first on the rail's "
                   "win share [95% interval]): " + "; ".join(begin) + ". Whether a difference "
                   "is shown is said under 'Does the seat answer survive a better player?'.")
    if better:
        out.append(f"With a better player than the expert ({said[search]}; fewer games, so "
                   "wider intervals) the first on the rail wins "
                   + "; ".join(better) + ".")
    return out


def reading(answers: Answers) -> list[str]:
    """A few plain sentences answering the question among expert players, then what the
    beginners do differently, computed from the tables."""
    settings = answers["seats"].settings
    if not settings:
        return ["This page was built without the expert's seat runs, so it has no seat "
                "answer for expert players.", *_beginners(answers)]
    presets = list(dict.fromkeys(s.preset for s in settings))
    out = []
    first = {s.name: s.order.table.iloc[0] for s in settings}
    below = [s for s in settings if first[s.name]["high"] < 1 / s.players]
    above = [s for s in settings if first[s.name]["low"] > 1 / s.players]
    unclear = len(settings) - len(below) - len(above)
    n = len(settings)
    who = "among expert players the player who moves first on the rail wins"
    if len(below) == n:
        head = f"No: {who} less often than the fair share in every setting"
    elif len(above) == n:
        head = f"Yes: {who} more often than the fair share in every setting"
    else:
        counts = [f"more often than the fair share in {len(above)}" if above else "",
                  f"less often than the fair share in {len(below)}" if below else "",
                  f"not clearly differently in {unclear}" if unclear else ""]
        head = f"It depends: of the {n} settings, {who} " + join_words([c for c in counts if c])
    shares = []
    for preset in presets:
        shares.append(f"{preset} rules " + ", ".join(
            f"{s.players} players {first[s.name]['share']:.1%} [{first[s.name]['low']:.1%}, "
            f"{first[s.name]['high']:.1%}] against {1 / s.players:.1%}"
            for s in settings if s.preset == preset))
    out.append(f"{head} (win share [95% interval] against the fair share: "
               + "; ".join(shares) + ").")

    best = []
    for preset in presets:
        places = []
        for s in settings:
            if s.preset == preset:
                t = s.order.table
                k = int(t["share"].idxmax())
                places.append(f"{ordinal(k + 1)} at {s.players} players "
                              f"({t.loc[k, 'share']:.1%})")
        best.append(f"{preset} rules " + ", ".join(places))
    out.append("The best place in the rail order among experts: " + "; ".join(best)
               + f". Rail order verdicts within ±{MARGIN * 100:g} percentage points: "
               + by_word((s.order.verdict, s.name) for s in settings) + ".")
    out += _beginners(answers)

    spans = []
    for s in settings:
        t = s.seat.views.get(view_name(s))
        if t is None or not len(t):
            continue
        lo, hi = t.loc[t["share"].idxmin()], t.loc[t["share"].idxmax()]
        p = answers["seats"].holm_p()[(s.name, view_name(s))]
        spans.append(f"{s.name}: {lo['share']:.1%} (position {int(lo['value'])}) to "
                     f"{hi['share']:.1%} (position {int(hi['value'])}), Holm p {p_equals(p)}")
    if spans:
        out.append(f"By the {view_name(settings[0])} itself, the experts' win shares range "
                   + "; ".join(spans) + ".")

    found = answers["seats"].unequal(SEAT)
    tops = [f"seat {int(s.seat.table['share'].idxmax())} wins "
            f"{s.seat.table['share'].max():.1%} at {s.name}"
            for s, hit in zip(settings, found, strict=True) if hit]
    out.append("Seat (colour), which carries no turn order: "
               + by_word((s.seat.verdict, s.name) for s in settings)
               + ("; the equal-seats test (Holm-adjusted over every test of the section, 5%) "
                  f"finds unequal seats where {join_words(tops)}." if tops else
                  "; the equal-seats test (Holm-adjusted over every test of the section, 5%) "
                  "detects no unequal seats (not evidence that they are equal)."))

    for preset in presets:
        part = [x for x in answers["scores"] if x.preset == preset]
        if not part:
            continue
        counts = "/".join(str(x.players) for x in part)
        winner = "/".join(f"{x.scores.winner.mean():.1f}" for x in part)
        others = "/".join(f"{x.scores.others.mean():.1f}" if x.scores.others.size else "-"
                          for x in part)
        lead = "/".join(f"{x.scores.lead.mean():.1f}" for x in part)
        rounds = "/".join(f"{x.scores.rounds.mean():.2f}" for x in part)
        out.append(f"{preset.capitalize()} rules, {counts} expert players: winners average "
                   f"{winner} VP against {others} for the others, ahead of the runner-up by "
                   f"{lead} VP on average; games last {rounds} rounds.")
    return out


ASKED = Asked(
    question="Does the player who moves first on the rail win more often than the others?",
    first="the player first on the rail",
    beginner=BEGINNER,
    fix_question=FIX_EXPERT.ask,
    fix_words=lambda v: (f"give the player whose worker stands first on the rail "
                         f"{v[0]} coins at set-up and the second "
                         f"{v[1]}"))


PAGE = GamePage(
    game=GAME,
    filename="montego_bay.html",
    title="Montego Bay: does moving first on the rail win?",
    subtitle="rumsim balance report - Montego Bay (2-4 players), spec sections 3, 4 and 9",
    blurb="does moving first on the rail win among skilled players? Win shares by rail order, "
          "rail position and seat for 2-4 players, and what beginners do differently",
    plan=plan,
    sections=(
        Strength(RUNGS, players=(LADDER_PLAYERS, 2, 4),
                 deals=STRENGTH_DEALS, other_deals=STRENGTH_OTHER_DEALS,
                 evidence_deals=EVIDENCE_DEALS, preset=PRESETS[0],
                 seed=SEED),
        Restrict(policy="expert", players=LADDER_PLAYERS, preset=PRESETS[0], seed=SEED),
        SeatAdvantage(
            margin=MARGIN, policies=(POLICY,),
            heading="Win share by rail order, rail position and seat",
            figure_alt="win share by rail order, rail position and seat, {preset} rules",
            figure_caption="Rows: rail order (1 = moves first), set-up rail position of the "
                           "player's earliest worker, seat. Points: win share; whiskers: 95% "
                           "Wilson intervals; dashed: the fair share 1/P; grey: ±{margin} pp.",
            verdicts=(verdicts_table, "Verdicts and equal-shares tests per setting (p-values "
                                      "Holm-adjusted over every test of the section)"),
            captions={ORDER_VIEW: "Win share by rail order, % [95% interval] (1 = the player "
                                  "whose earliest worker moves first)",
                      SEAT: "Win share by seat (colour), % [95% interval]"},
            csv={"verdicts": verdicts_frame, "shares": shares_long},
            units="seats or rail places",
            order_method="Rail order: the same seat analysis applied to the players ranked by "
                         "the set-up rail position of their earliest worker."),
        Scores(unit="VP", policies=(POLICY,)),
        Sensitivity(presets=(PRESETS[0],), policies=SHOWN, margin=MARGIN,
                    first="the first on the rail",
                    note=f"The {PRESETS[0]} rules under every player of the skill ladder, "
                         f"weakest first: the expert plays the games above ({GAMES:,} per "
                         f"setting), the beginners (random and greedy) {OTHER_GAMES:,} and the "
                         f"slow expert + search (sampler) {SLOW_GAMES:,} games per setting."),
        VariantSensitivity(policies=SHOWN, base=PRESETS[0], variants=PRESETS[1:],
                           players=LADDER_PLAYERS, first_seat="first_rail_seat"),
        Ladder(policies=SHOWN, players=LADDER_PLAYERS, preset=PRESETS[0], unit="VP"),
        Feel(presets=(PRESETS[0],), policies=SHOWN, close=2, unit="VP"),
        Tune(FIX),
    ),
    reading=reading,
    how_to_read=how_to_read,
    asked=ASKED,
    columns=("game", "players", "rounds", "lead_changes", "half_time_leader",
             "first_rail_seat"),
    per_seat=("win", "score", "first_rail_pos"),
)
