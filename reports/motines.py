"""The 21 Motines page of the balance report: how much is the first Captaincy worth?

Seat 0 is the first Captain. The trained ``expert`` (skilled play) plays every seat at 3, 4
and 5 players, under the standard rules and under ``equal_start_money`` (the first Captain
starts with 4$ like everyone else), on one seed: the seat section shows the seats' win
shares; the variants section compares the shorter-game and starting-money presets with the
standard rules at 4 players under the expert on the same games; the scores section compares
winners with the others. The spec's own players (the beginners: ``random``, ``greedy``,
``planner``) play the standard rules at every player count and the variations at 4 players
at fewer games, beside the expert in the policy-sensitivity, ladder and feel sections; a
search over the expert is the better player a head to head and the ladder ask about.
``PAGE.build`` plays and renders; ``PAGE.render`` renders runs already made.
"""

from __future__ import annotations

from analyses.matchup import STRONGER, WEAKER
from engines import get_game
from reports._runs import RunSpec, grid
from reports.answer import Asked
from reports.page import Answers, GamePage
from reports.sections.feel import Feel
from reports.sections.ladder import Ladder
from reports.sections.ladder import plan as ladder_plan
from reports.sections.matchup import Matchup
from reports.sections.matchup import plan as matchup_plan
from reports.sections.restrict import Restrict
from reports.sections.scores import Scores
from reports.sections.seats import SeatAdvantage, Setting, order_long, order_verdicts
from reports.sections.sensitivity import Sensitivity, VariantSensitivity
from reports.sections.strength import Strength
from reports.sections.tune import Question, Tune
from reports.sections.variants import Comparison, Variants, presets_table
from reports.words import (
    STAR_NOTE,
    by_word,
    join_words,
    player_label,
    player_labels,
    pp_bounds,
    pp_interval,
    verdict_note,
)

GAME = "motines"
BASE = "standard"
EQUAL = "equal_start_money"
SEAT_PRESETS = (BASE, EQUAL)
VARIANTS = ("short", "very_short", EQUAL, "no_gifts")
POLICY = "expert"                 # the page's main players: skilled play
# The spec's own players, weakest first (planner is weaker than greedy: one planner seat
# among greedy seats wins under 1/P on the page's ladder).
BEGINNERS = ("random", "planner", "greedy")
BEGINNER = "greedy"               # the spec's heuristic: the beginner the answer compares
PLAYER_COUNTS = (3, 4, 5)
VARIANT_PLAYERS = 4
VARIANT_POLICY = POLICY
SEED = 1                          # one seed for every run: common random numbers
# Games per run at scale 1. The expert costs about 1.25 times greedy's time per game (the
# fast path plays well over 100k random and about 30k greedy 4-player games/s on 2
# threads): its 80k games a run (nine runs) and the beginners' 40k (random and greedy,
# seven runs each) take about what random's and greedy's 100k took when they were the
# page's players.
GAMES = 80_000
OTHER_GAMES = 40_000
MARGIN = 0.02                     # "balanced" = every seat within ±2 pp of 1/P
STRONG = "rollout"                # the better player: one seat among expert seats, rotated
# A search over the expert: the strength ladder's top rung (DESIGN.md: few noisy playouts
# over a strong base do harm; a prior keeps the base's choice without clear evidence).
# Tests make it quick (fewer samples).
STRONG_PARAMS = ":base=expert:samples=4:width=2:prior=0.35"
STRONG_PLAYERS = 4
STRONG_GAMES = 2_000              # rollout is slow: these games in all, split over the seats
# Policy sensitivity: the seat answers and variant effects under the beginners and the
# expert (rollout in every seat is too slow to judge a seat; it stands on the ladder).
SENSITIVITY = (*BEGINNERS, POLICY)
PLANNER_GAMES = 10_000
LADDER = (*SENSITIVITY, STRONG)   # the skill ladder, weakest first
LADDER_GAMES = 40_000             # per rung, split over the rotated seats
LADDER_SLOW = 800                 # a rung with a slow player (none below the search)
# The ladder's top rung (the search among experts) is the head to head's runs.
# What would fix it (the worked tunings, also in the README): starting money by seat, under
# the expert (the answer's players; the answer block's fix) and greedy (the beginners).
FIX = tuple(
    Question(f"Which starting money by seat removes the first Captain's and the first "
             f"follower's handicaps ({policy} players)?",
             goals=("seat_gap[0]=0", "seat_gap[1]=0"),
             knobs=("start_money_by_seat[0]=3..6", "start_money_by_seat[1]=4..6"),
             players=(VARIANT_PLAYERS,), policy=policy,
             rules=("start_money_by_seat=3,4,4,4,4",), budget=300_000, seed=SEED)
    for policy in (POLICY, BEGINNER))
FIX_EXPERT = next(q for q in FIX if q.policy == POLICY)

# Skilled play: the game's strength ladder (engines declare it), every rung on the same
# deals: at the main player count with head to heads and ratings, at the others every
# rung in every seat only. Sized for the report's time (the search rungs are slow).
RUNGS = get_game(GAME).extra["ladder"]
STRENGTH_DEALS = 400
STRENGTH_OTHER_DEALS = 200
# The main player count's ladder as shipped evidence (make evidence, about 12 minutes): the deals
# its seat and convergence verdicts need, which the page then takes whole (reports.evidence).
EVIDENCE_DEALS = 40_000


def plan(scale: float = 1.0) -> list[RunSpec]:
    """The expert's seat runs (both presets x 3-5 players) and its other variants at 4
    players; the beginners' runs of the standard rules at every player count and of every
    variant at 4 players (random and greedy at fewer games, planner at fewer still); one
    search-over-the-expert seat among expert seats in every seat; and the ladder's rungs.
    Counts scaled (at least two games, so paired variances exist)."""
    info = get_game(GAME)
    label = "{preset}, {policy}, {players} players"
    others = [v for v in VARIANTS if v not in SEAT_PRESETS]
    strong = STRONG + STRONG_PARAMS
    return (grid(info, SEAT_PRESETS, (POLICY,), PLAYER_COUNTS, GAMES, SEED, scale, least=2,
                 label=label)
            + grid(info, others, (POLICY,), (VARIANT_PLAYERS,), GAMES, SEED, scale, least=2,
                   label=label)
            + matchup_plan(info, BASE, strong, POLICY, STRONG_PLAYERS, STRONG_GAMES, SEED,
                           scale)
            # the beginners: the standard rules at every player count, the variants at 4
            + grid(info, (BASE,), ("random", "greedy"), PLAYER_COUNTS, OTHER_GAMES, SEED,
                   scale, least=2, label=label)
            + grid(info, VARIANTS, ("random", "greedy"), (VARIANT_PLAYERS,), OTHER_GAMES, SEED,
                   scale, least=2, label=label)
            + grid(info, (BASE,), ("planner",), PLAYER_COUNTS, PLANNER_GAMES, SEED, scale,
                   least=2, label=label)
            + grid(info, VARIANTS, ("planner",), (VARIANT_PLAYERS,), PLANNER_GAMES, SEED, scale,
                   least=2, label=label)
            # the ladder's rungs below the search; its top rung is the head to head's runs
            + ladder_plan(info, BASE, LADDER[:-1], STRONG_PLAYERS, LADDER_GAMES, LADDER_SLOW,
                          SEED, scale))


# ================================================================ the words


def _labels() -> dict[str, str]:
    """Each player of the page by its name in the runs ('rollout') -> as a designer reads it
    ('expert + search, 4 playouts per option')."""
    info = get_game(GAME)
    specs = (*SENSITIVITY, STRONG + STRONG_PARAMS)
    return {p.split(":")[0]: label for p, label in player_labels(info, specs).items()}


def how_to_read(page, answers: Answers) -> None:
    c: Comparison | None = answers.get("variants")
    said = _labels()
    page.paragraph(
        "Seat 0 is the first Captain, seat 1 the first follower, and so on clockwise. The "
        "first Captain cannot take the Subvention or mutiny in round 1 and starts with 3$ "
        "where everyone else has 4$. In the seat section, the variations, the scores and "
        "the game feel every seat is played by the expert (the spec's heuristic with weights "
        "trained by rumsim to win more often), so each seat figure is about the seat among "
        "skilled players, not about the player in it. The spec's own players, the beginners ("
        + join_words(f"'{b}'" for b in BEGINNERS) + ": uniform over legal moves, the spec's "
        "planner, and one step ahead on a points valuation), play the standard rules and "
        "the variations at fewer games; the spec's prototype found that the weakest seat "
        "changes between random and greedy, and the sections 'Does the seat answer survive "
        "a better player?' and 'Does each variation's effect survive a better player?' show "
        "them side by side with the expert. The better player the head to head and the "
        f"ladder ask about is {said[STRONG]}.")
    if c is not None:
        page.paragraph(
            verdict_note(MARGIN) + f" The variations below were played at {c.players} "
            f"players by experts on the same {c.answer.games:,} games as the standard rules "
            f"(common random numbers), so each game gives a paired difference; {STAR_NOTE}.",
            css="note")
        page.table(presets_table(get_game(GAME), BASE, c.names),
                   caption="The variations compared")


def _seat_cell(s: Setting, seat: int) -> str:
    row = s.seat.table.iloc[seat]
    return f"{row['share']:.1%} [{row['low']:.1%}, {row['high']:.1%}]"


def _weakest(s: Setting) -> tuple[int, bool]:
    """The seat with the smallest share, and whether its simultaneous interval of the gap
    from the fair share lies wholly below 0."""
    t = s.seat.table
    k = int(t["share"].idxmin())
    return k, bool(t.loc[k, "sim_high"] < 0)


def _money_effect(before, after) -> str:
    """What equal starting money does to seat 0's edge, from the two intervals."""
    if after.low > 0:
        return ("it turns seat 0 into a favourite" if before.low <= 0
                else "seat 0 was ahead already and gains more")
    if after.high < 0:
        return "a handicap remains"
    return ("it removes the handicap (no edge left that the interval can show)"
            if before.high < 0 else "seat 0 shows no edge either way")


def _beginners(answers: Answers) -> list[str]:
    """What the beginners do differently from the expert under the standard rules: the
    first Captain's edge and the weakest seat, per player count."""
    sens = answers.get("sensitivity")
    if sens is None or not sens.seats:
        return []
    said = _labels()
    parts, moved = [], []
    for s in sens.seats:
        views = {v.policy: v for v in s.views}
        if POLICY not in views:
            continue
        e = views[POLICY]
        shown = [f"{pp_interval(views[b].edge)} among {said[b]} players (weakest seat "
                 f"{views[b].weakest})" for b in BEGINNERS if b in views]
        if shown:
            parts.append(f"at {s.players} players {join_words(shown)}, against "
                         f"{pp_interval(e.edge)} among experts (weakest seat {e.weakest})")
        clear = [v for v in s.views if v.weakest_clear]
        if len({v.weakest for v in clear}) > 1:
            moved.append(f"at {s.players} players " + ", ".join(
                f"seat {v.weakest} among {said[v.policy]} players" for v in clear))
    out = []
    if parts:
        out.append("Among the spec's beginners the first Captain's edge (standard rules, 95% "
                   "interval) is " + "; ".join(parts) + ". Whether a difference is shown is "
                   "said under 'Does the seat answer survive a better player?'.")
    if moved:
        out.append("The clearly weakest seat depends on how people play (" + "; ".join(moved)
                   + "): a seat answer for this game has to name the players it assumes.")
    return out


def reading(answers: Answers) -> list[str]:
    """A few plain sentences answering the question among expert players, then what the
    beginners do differently, computed from the tables."""
    settings: list[Setting] = answers["seats"].settings
    base = {s.players: s for s in settings if s.preset == BASE}
    equal = {s.players: s for s in settings if s.preset == EQUAL}
    out = []
    part = [base[p] for p in PLAYER_COUNTS if p in base]
    if part:
        edges = join_words(f"{pp_interval(s.seat.headline)} at {s.players} players"
                           for s in part)
        weak = []
        for s in part:
            k, clear = _weakest(s)
            weak.append(f"seat {k} at {s.players} players ({_seat_cell(s, k)}"
                        + (", below the fair share with 95% simultaneous confidence)"
                           if clear else ", not shown to be below the fair share)"))
        verdicts = join_words(f"{s.seat.verdict} at {s.players}" for s in part)
        out.append(f"Among expert players the first Captain's edge (seat 0's win share minus "
                   f"1/P, in percentage points (pp), 95% interval) is {edges}. The weakest "
                   f"seat is {join_words(weak)}. Seat verdicts within ±{MARGIN * 100:g} pp: "
                   f"{verdicts} players.")
    else:
        out.append("This page was built without the expert's seat runs, so it has no seat "
                   "answer for expert players.")
    money, effect = [], []
    for p in PLAYER_COUNTS:
        if p in base and p in equal:
            b, e = base[p].seat.headline, equal[p].seat.headline
            money.append(f"at {p} players {pp_interval(b)} -> {pp_interval(e)}")
            effect.append((_money_effect(b, e), f"{p} players"))
    if money:
        out.append("Does giving the first Captain 4$ like everyone else remove its handicap "
                   "among experts? Seat 0's edge, standard -> equal starting money: "
                   + "; ".join(money) + ". (Each interval is its own run's; the runs share "
                   "their deals.) In words: " + by_word(effect) + ".")
    out += _beginners(answers)
    c: Comparison | None = answers.get("variants")
    if c is not None:
        t = c.answer.table.set_index(["variant", "metric"])
        if (EQUAL, "first_player_edge") in t.index:
            r = t.loc[(EQUAL, "first_player_edge")]
            out.append(f"Paired on the same {c.answer.games:,} games (expert players, "
                       f"{c.players} players), equal starting money changes seat 0's edge by "
                       f"{r['diff'] * 100:+.2f} pp {pp_bounds(r['low'], r['high'])}"
                       + (" (significant after Holm over the whole comparison)."
                          if r["significant"]
                          else " (no change detected after Holm over the whole comparison; "
                               "not evidence of none)."))
        lengths = []
        for v in c.names:
            r = t.loc[(v, "rounds_mean")]
            lengths.append(f"{v} {r['value']:.2f} ({r['diff']:+.2f} [{r['low']:+.2f}, "
                           f"{r['high']:+.2f}])")
        first = t.loc[(c.names[0], "rounds_mean")]
        out.append(f"Game length at {c.players} expert players: {first['base']:.2f} rounds "
                   "under the standard rules; " + "; ".join(lengths) + ".")
        spread = [(v, t.loc[(v, "score_spread")]) for v in c.names]
        moved = [f"{v} {r['base']:.1f} -> {r['value']:.1f}" for v, r in spread
                 if r["significant"]]
        if moved:
            out.append("Score spread (SD of final PV) moves significantly (Holm) under "
                       + join_words(moved) + ".")

    m = answers.get("matchup")
    if m is not None:
        info = get_game(GAME)
        focal = player_label(info.policy(m.focal))
        named = focal.replace(", ", " (", 1) + ")" if ", " in focal else focal
        fair = 1 / m.players
        verdict = {STRONGER: "it is stronger than the experts",
                   WEAKER: "it is weaker than the experts"}.get(
            m.verdict, "it is not shown to differ from the experts (more games could still "
                       "find a difference)")
        out.append(f"A better player: one seat played by {named} "
                   f"among {m.players - 1} expert seats "
                   f"wins {m.share.estimate:.1%} [{m.share.low:.1%}, {m.share.high:.1%}] of "
                   f"{m.games:,} games, where an equal player wins {fair:.1%}: {verdict} (its "
                   f"seats score {m.lead.estimate:+.2f} PV [{m.lead.low:+.2f}, "
                   f"{m.lead.high:+.2f}] against the expert seats' mean).")
    part = [x for x in answers["scores"] if x.preset == BASE]
    if part:
        out.append("Standard rules, expert players: winners average " + ", ".join(
            f"{x.scores.winner.mean():.1f} PV against {x.scores.others.mean():.1f} "
            f"({x.name})" for x in part) + ".")
    return out


ASKED = Asked(
    question="Does where you sit (the first Captain, the first follower, ...) decide who wins?",
    first="the first Captain (seat 0)",
    beginner=BEGINNER,
    fix_question=FIX_EXPERT.ask,
    fix_words=lambda v: (f"start the first Captain with {v[0]}$ and "
                         f"the first follower with {v[1]}$ (the "
                         "others with 4$)"))


PAGE = GamePage(
    game=GAME,
    filename="motines.html",
    title="21 Motines: how much is the first Captaincy worth?",
    subtitle="rumsim balance report - 21 Motines (3-5 players), spec sections 3, 4, 6 and 9",
    blurb="how much is the first Captaincy worth among skilled players? Seat win shares "
          "under expert play, what beginners do differently, equal starting money, shorter "
          "games",
    plan=plan,
    sections=(
        Strength(RUNGS, players=(4, 3, 5),
                 deals=STRENGTH_DEALS, other_deals=STRENGTH_OTHER_DEALS,
                 evidence_deals=EVIDENCE_DEALS, preset=BASE,
                 seed=SEED),
        Restrict(policy="expert", players=4, preset=BASE, seed=SEED),
        SeatAdvantage(
            margin=MARGIN, presets=SEAT_PRESETS, policies=(POLICY,),
            heading="Seat win shares, {players} players",
            figure_title="Win share by seat, {policy} players, {preset} rules",
            figure_alt="win share by seat per player count, {policy} players, {preset} rules",
            figure_caption="Points: win share; whiskers: 95% Wilson intervals; dashed: the fair "
                           "share 1/P; grey: ±{margin} pp.",
            xlabel="seat (0 is the first Captain)",
            captions={"seat": "Win share by seat, % [95% interval]; verdict within ±{margin} "
                              "pp"},
            value_label="seat {}",
            csv={"seats": order_long, "seat_verdicts": order_verdicts}),
        Variants(base=BASE, players=VARIANT_PLAYERS, policy=VARIANT_POLICY),
        # The heading in players' words (the exact specification is in its table and runs).
        Matchup(focal=STRONG, field=POLICY, players=STRONG_PLAYERS,
                heading="Head to head: one expert + search seat among expert seats"),
        Scores(presets=(BASE,), policies=(POLICY,), unit="PV"),
        Sensitivity(presets=(BASE,), policies=SENSITIVITY, margin=MARGIN,
                    first="the first Captain",
                    note=f"The {BASE} rules under the beginners (random, planner, greedy) and "
                         f"the expert, weakest first: the expert plays the games above "
                         f"({GAMES:,} per setting), random and greedy {OTHER_GAMES:,} and "
                         f"planner {PLANNER_GAMES:,} games per setting. The search over the "
                         "expert (rollout) is too slow to play enough games in every seat to "
                         "judge a seat: it stands on the skill ladder below."),
        VariantSensitivity(policies=SENSITIVITY, base=BASE, variants=VARIANTS,
                           players=VARIANT_PLAYERS),
        Ladder(policies=LADDER, players=STRONG_PLAYERS, preset=BASE, unit="PV"),
        Feel(presets=(BASE,), policies=SENSITIVITY, close=2, unit="PV"),
        Tune(FIX),
    ),
    reading=reading,
    how_to_read=how_to_read,
    asked=ASKED,
    columns=("game", "players", "rounds", "truncated", "lead_changes", "half_time_leader"),
    per_seat=("win", "score"),
)
