"""The 21 Motines page of the balance report: how much is the first Captaincy worth?

Seat 0 is the first Captain. Every seat plays ``random``, then every seat
``greedy``, at 3, 4 and 5 players, under the standard rules and under
``equal_start_money`` (the first Captain starts with 4$ like everyone else),
on one seed: the seat section shows the seats' win shares per policy; the
variants section compares the shorter-game and starting-money presets with
the standard rules at 4 players under ``greedy`` on the same games; the
scores section compares winners with the others. ``PAGE.build`` plays and
renders; ``PAGE.render`` renders runs already made.
"""

from __future__ import annotations

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
from reports.words import STAR_NOTE, by_word, join_words, pp_bounds, pp_interval, verdict_note

GAME = "motines"
BASE = "standard"
EQUAL = "equal_start_money"
SEAT_PRESETS = (BASE, EQUAL)
VARIANTS = ("short", "very_short", EQUAL, "no_gifts")
POLICIES = ("random", "greedy")  # the spec shows the weakest seat changes between them
PLAYER_COUNTS = (3, 4, 5)
VARIANT_PLAYERS = 4
VARIANT_POLICY = "greedy"
SEED = 1                          # one seed for every run: common random numbers
# Games per run at scale 1 (15 runs), sized for about a minute on 2 shared cores: the fast
# path plays well over 100k random and about 30k greedy 4-player games/s on 2 threads.
GAMES = 100_000
MARGIN = 0.02                     # "balanced" = every seat within ±2 pp of 1/P
STRONG = "rollout"                # the stronger policy, one seat among greedy seats, rotated
STRONG_PARAMS = ""                # e.g. ":samples=4" (tests make it quick)
STRONG_PLAYERS = 4
STRONG_GAMES = 2_000              # rollout is slow: these games in all, split over the seats
# Policy sensitivity: the seat answers and variant effects under planner too (rollout in every
# seat plays ~12 games/s: too slow to judge a seat; it stands on the ladder instead).
SENSITIVITY = ("random", "greedy", "planner")
PLANNER_GAMES = 10_000
LADDER = ("random", "greedy", "planner", STRONG)  # the skill ladder, weakest first
LADDER_GAMES = 40_000             # per rung, split over the rotated seats
LADDER_SLOW = 800                 # the rung with rollout
# What would fix it (the worked tunings, also in the README): starting money by seat, under
# greedy and random (the seat answers' players) and the expert (skilled play's base).
FIX = tuple(
    Question(f"Which starting money by seat removes the first Captain's and the first "
             f"follower's handicaps ({policy} players)?",
             goals=("seat_gap[0]=0", "seat_gap[1]=0"),
             knobs=("start_money_by_seat[0]=3..6", "start_money_by_seat[1]=4..6"),
             players=(VARIANT_PLAYERS,), policy=policy,
             rules=("start_money_by_seat=3,4,4,4,4",), budget=300_000, seed=SEED)
    for policy in ("greedy", "random", "expert"))


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
    """Seat runs (both presets x both policies x 3-5 players), the other variants at 4
    players under greedy, and one rollout seat among greedy seats in every seat; counts
    scaled (at least two games, so paired variances exist)."""
    info = get_game(GAME)
    return (grid(info, SEAT_PRESETS, POLICIES, PLAYER_COUNTS, GAMES, SEED, scale, least=2,
                 label="{preset}, {policy}, {players} players")
            + grid(info, [v for v in VARIANTS if v not in SEAT_PRESETS], (VARIANT_POLICY,),
                   (VARIANT_PLAYERS,), GAMES, SEED, scale, least=2,
                   label="{preset}, {policy}, {players} players")
            + matchup_plan(info, BASE, STRONG + STRONG_PARAMS, VARIANT_POLICY, STRONG_PLAYERS,
                           STRONG_GAMES, SEED, scale)
            # the variant runs under random and planner, and planner's seat runs
            + grid(info, [v for v in VARIANTS if v not in SEAT_PRESETS], ("random",),
                   (VARIANT_PLAYERS,), GAMES, SEED, scale, least=2,
                   label="{preset}, {policy}, {players} players")
            + grid(info, (BASE,), ("planner",), PLAYER_COUNTS, PLANNER_GAMES, SEED, scale,
                   least=2, label="{preset}, {policy}, {players} players")
            + grid(info, VARIANTS, ("planner",), (VARIANT_PLAYERS,), PLANNER_GAMES, SEED, scale,
                   least=2, label="{preset}, {policy}, {players} players")
            + ladder_plan(info, BASE, (*LADDER[:-1], LADDER[-1] + STRONG_PARAMS), STRONG_PLAYERS,
                          LADDER_GAMES, LADDER_SLOW, SEED, scale))


# ================================================================ the words


def how_to_read(page, answers: Answers) -> None:
    c: Comparison = answers["variants"]
    page.paragraph(
        "Seat 0 is the first Captain, seat 1 the first follower, and so on clockwise. The "
        "first Captain cannot take the Subvention or mutiny in round 1 and starts with 3$ "
        "where everyone else has 4$. Each seat figure comes from runs in which every seat "
        "plays the same policy, so it is about the seat, not the player in it; the two "
        "policies are the spec's 'random' (uniform over legal moves) and 'greedy' (one step "
        "ahead on a points valuation), because the spec's prototype found that the weakest "
        "seat changes between them.")
    page.paragraph(
        verdict_note(MARGIN) + f" The variations below were played at {c.players} players "
        f"with '{VARIANT_POLICY}' on the same {c.answer.games:,} games as the standard rules "
        f"(common random numbers), so each game gives a paired difference; {STAR_NOTE}.",
        css="note")
    page.table(presets_table(get_game(GAME), BASE, c.names), caption="The variations compared")


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


def reading(answers: Answers) -> list[str]:
    """A few plain sentences answering the question, computed from the tables."""
    settings: list[Setting] = answers["seats"].settings
    base = {(s.policy, s.players): s for s in settings if s.preset == BASE}
    equal = {(s.policy, s.players): s for s in settings if s.preset == EQUAL}
    out = []
    for policy in POLICIES:
        part = [base[(policy, p)] for p in PLAYER_COUNTS if (policy, p) in base]
        if not part:
            continue
        edges = join_words(f"{pp_interval(s.seat.headline)} at {s.players} players"
                           for s in part)
        weak = []
        for s in part:
            k, clear = _weakest(s)
            weak.append(f"seat {k} at {s.players} players ({_seat_cell(s, k)}"
                        + (", below the fair share with 95% simultaneous confidence)"
                           if clear else ", not shown to be below the fair share)"))
        verdicts = join_words(f"{s.seat.verdict} at {s.players}" for s in part)
        out.append(f"Under {policy} play the first Captain's edge (seat 0's win share minus "
                   f"1/P, 95% interval) is {edges}. The weakest seat is {join_words(weak)}. "
                   f"Seat verdicts within ±{MARGIN * 100:g} pp: {verdicts} players.")
    changes = []
    for p in PLAYER_COUNTS:
        if all((policy, p) in base for policy in POLICIES):
            seats = [_weakest(base[(policy, p)])[0] for policy in POLICIES]
            if len(set(seats)) > 1:
                changes.append(f"at {p} players " + " but ".join(
                    f"seat {k} under {policy}" for k, policy in zip(seats, POLICIES,
                                                                    strict=True)))
    if changes:
        out.append("So the weakest seat depends on how people play (" + "; ".join(changes)
                   + "): a seat answer for this game has to name the players it assumes.")
    money, effect = [], []
    for policy in POLICIES:
        for p in PLAYER_COUNTS:
            if (policy, p) in base and (policy, p) in equal:
                b, e = base[(policy, p)].seat.headline, equal[(policy, p)].seat.headline
                money.append(f"{policy} at {p} players {pp_interval(b)} -> {pp_interval(e)}")
                effect.append((_money_effect(b, e), f"{p} players ({policy})"))
    if money:
        out.append("Does giving the first Captain 4$ like everyone else remove its handicap? "
                   "Seat 0's edge, standard -> equal starting money: " + "; ".join(money)
                   + ". (Each interval is its own run's; the runs share their deals.) "
                   "In words: " + by_word(effect) + ".")
    c: Comparison = answers["variants"]
    t = c.answer.table.set_index(["variant", "metric"])
    if (EQUAL, "first_player_edge") in t.index:
        r = t.loc[(EQUAL, "first_player_edge")]
        out.append(f"Paired on the same {c.answer.games:,} games ({VARIANT_POLICY}, "
                   f"{c.players} players), equal starting money changes seat 0's edge by "
                   f"{r['diff'] * 100:+.2f} pp {pp_bounds(r['low'], r['high'])}"
                   + (" (significant after Holm over the whole comparison)." if r["significant"]
                      else " (no change detected after Holm over the whole comparison; not "
                           "evidence of none)."))

    lengths = []
    for v in c.names:
        r = t.loc[(v, "rounds_mean")]
        lengths.append(f"{v} {r['value']:.2f} ({r['diff']:+.2f} [{r['low']:+.2f}, "
                       f"{r['high']:+.2f}])")
    first = t.loc[(c.names[0], "rounds_mean")]
    out.append(f"Game length at {c.players} players ({VARIANT_POLICY}): {first['base']:.2f} "
               "rounds under the standard rules; " + "; ".join(lengths) + ".")
    spread = [(v, t.loc[(v, "score_spread")]) for v in c.names]
    moved = [f"{v} {r['base']:.1f} -> {r['value']:.1f}" for v, r in spread if r["significant"]]
    if moved:
        out.append("Score spread (SD of final PV) moves significantly (Holm) under "
                   + join_words(moved) + ".")

    m = answers["matchup"]
    out.append(f"The stronger policy: {m.verdict_text} ({m.focal} seats score "
               f"{m.lead.estimate:+.2f} PV [{m.lead.low:+.2f}, {m.lead.high:+.2f}] against the "
               f"{m.field} seats' mean).")
    part = [x for x in answers["scores"] if x.preset == BASE]
    if part:
        out.append("Standard rules: winners average " + ", ".join(
            f"{x.scores.winner.mean():.1f} PV against {x.scores.others.mean():.1f} "
            f"({x.name})" for x in part) + ".")
    return out


ASKED = Asked(
    question="Does where you sit (the first Captain, the first follower, ...) decide who wins?",
    first="the first Captain (seat 0)",
    beginner="greedy",
    fix_question=FIX[2].ask,
    fix_words=lambda v: (f"start the first Captain with {v[0]}$ and "
                         f"the first follower with {v[1]}$ (the "
                         "others with 4$)"))


PAGE = GamePage(
    game=GAME,
    filename="motines.html",
    title="21 Motines: how much is the first Captaincy worth?",
    subtitle="rumsim balance report - 21 Motines (3-5 players), spec sections 3, 4, 6 and 9",
    blurb="how much is the first Captaincy worth? Seat win shares under random and greedy "
          "play, equal starting money, shorter games",
    plan=plan,
    sections=(
        Strength(RUNGS, players=(4, 3, 5),
                 deals=STRENGTH_DEALS, other_deals=STRENGTH_OTHER_DEALS,
                 evidence_deals=EVIDENCE_DEALS, preset=BASE,
                 seed=SEED),
        Restrict(policy="expert", players=4, preset=BASE, seed=SEED),
        SeatAdvantage(
            margin=MARGIN, presets=SEAT_PRESETS, policies=POLICIES,
            heading="Seat win shares, {players} players",
            figure_title="Win share by seat, {policy} policy, {preset} rules",
            figure_alt="win share by seat per player count, {policy} policy, {preset} rules",
            figure_caption="Points: win share; whiskers: 95% Wilson intervals; dashed: the fair "
                           "share 1/P; grey: ±{margin} pp.",
            xlabel="seat (0 is the first Captain)",
            captions={"seat": "Win share by seat, % [95% interval]; verdict within ±{margin} "
                              "pp"},
            value_label="seat {}",
            csv={"seats": order_long, "seat_verdicts": order_verdicts}),
        Variants(base=BASE, players=VARIANT_PLAYERS, policy=VARIANT_POLICY),
        Matchup(focal=STRONG, field=VARIANT_POLICY, players=STRONG_PLAYERS),
        Scores(presets=(BASE,), policies=POLICIES, unit="PV"),
        Sensitivity(presets=(BASE,), policies=SENSITIVITY, margin=MARGIN,
                    first="the first Captain",
                    note=f"The {BASE} rules under random, greedy and planner: random and greedy "
                         f"play the games above, planner {PLANNER_GAMES:,} games per setting. "
                         "Rollout, the strongest policy, plays about 12 games a second in every "
                         "seat, too few to judge a seat: it stands on the skill ladder below."),
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
