"""The Rum Rebellion page of the balance report: what does each shorter-game variation really do?

The page's players are skilled: the trained ``expert`` in every seat. The base
rules and every shorter-game preset play at 4 players on one seed, and the base
rules at 2, 3, 5 and 6 players; the variants section compares the variations, the
seat section the seats. The spec's own heuristics (``random``, ``blocker``,
``threshold``: the beginners) and the expert with search (``rollout`` over the
expert: the better player) play the same settings for the policy-sensitivity
sections. ``PAGE.build`` plays and renders; ``PAGE.render`` renders runs
already made.
"""

from __future__ import annotations

import numpy as np

from analyses.sensitivity import differ
from engines import get_game
from reports._runs import RunSpec, grid
from reports.answer import Asked
from reports.page import Answers, GamePage
from reports.sections.feel import Feel
from reports.sections.ladder import Ladder
from reports.sections.ladder import plan as ladder_plan
from reports.sections.restrict import Restrict
from reports.sections.seats import SeatAdvantage, order_long, order_verdicts
from reports.sections.sensitivity import Sensitivity, VariantSensitivity
from reports.sections.strength import Strength
from reports.sections.tune import Question, Tune
from reports.sections.variants import Comparison, Variants, presets_table
from reports.words import STAR_NOTE, by_word, join_words, player_label, pp, pp_bounds

GAME = "rum-rebellion"
BASE = "standard"
VARIANTS = ("short_a", "short_b", "short_c", "short_d", "short_e_tol", "short_e_rc", "short_all")
PLAYERS = 4                       # the variant comparison's player count
SEAT_PLAYERS = (2, 3, 4, 5, 6)
POLICY = "expert"                 # the page's players: the trained expert, in every seat
# The spec's own players, weakest first (blocker among random wins about 38% of 4-player games,
# among threshold about 21%): the beginners' view.
BEGINNERS = ("random", "blocker", "threshold")
# The skill ladder, weakest first: the beginners, the expert, and the expert with search (the
# strength ladder's rung `rollout:base=expert:samples=16`): the better player the page asks
# its answers to survive.
POLICIES = (*BEGINNERS, POLICY, "rollout")
ROLLOUT_PARAMS = ":samples=16"    # tests make it quick
SEED = 1                          # one seed for every run: common random numbers
# Games per run at scale 1, sized for about a minute on 2 shared cores: the fast path
# plays ~110k expert games/s (4 players, about 1.1 times threshold's cost), and the variant
# comparison's paired bootstrap costs about as much again (~6 s per 100k games for the 7
# variants).
VARIANT_GAMES = 130_000
SEAT_GAMES = 130_000
MARGIN = 0.02                     # "balanced" = every seat within ±2 pp of 1/P
OTHER_GAMES = 35_000              # the beginners' seat and variant runs (sensitivity)
ROLLOUT_GAMES = 250               # the search in every seat plays ~110-500 games/s: a stated few
LADDER_GAMES = 40_000             # per rung, split over the rotated seats
LADDER_SLOW = 800                 # the rung with the search
# What would fix it (the worked tuning, also in the README): the shorter-game levers, under
# the expert (the page's players, whose answer is the fix), then under threshold (the
# beginners' answer).
FIX = tuple(
    Question("Which combination of the shorter-game levers gives a mean of about 20 rounds "
             f"(18 to 22) with the smallest first-player edge ({who})?",
             goals=("mean_rounds>=18", "mean_rounds<=22", "first_player_edge=0"),
             knobs=("ticket_cost=4,6", "commission_cost=10,15", "lose_cards_removed=0,4",
                    "votes_for_coup=40,55", "starting_level=convict,ticket_of_leave"),
             players=(PLAYERS,), policy=policy, budget=600_000, seed=SEED)
    for policy, who in ((POLICY, "expert players"),
                        ("threshold", "beginners: threshold players")))


# Skilled play: the game's strength ladder (engines declare it), every rung on the same
# deals: at the main player count with head to heads and ratings, at the others every
# rung in every seat only. Sized for the report's time (the search rungs are slow).
RUNGS = get_game(GAME).extra["ladder"]
STRENGTH_DEALS = 400
STRENGTH_OTHER_DEALS = 200
# The main player count's ladder as shipped evidence (make evidence, about 40 minutes): the deals
# its seat and convergence verdicts need, which the page then takes whole (reports.evidence).
# At 16,000 deals the last seat's share (-1.7 pp [-2.3, -1.1] from fair) left the seat verdict
# undetermined at ±2 pp, and its advice was about 59,000 deals in all.
EVIDENCE_DEALS = 64_000


def plan(scale: float = 1.0) -> list[RunSpec]:
    """The runs of the page, counts scaled (at least two games, so paired variances exist).

    The 4-player seat figures come from the base run of the variant
    comparison, so no 4-player run is planned twice.
    """
    info = get_game(GAME)
    label = "{preset}, {policy}, {players} players"
    others = [p for p in SEAT_PLAYERS if p != PLAYERS]
    return (grid(info, (BASE, *VARIANTS), (POLICY,), (PLAYERS,), VARIANT_GAMES, SEED, scale,
                 least=2, label=label)
            + grid(info, (BASE,), (POLICY,), others, SEAT_GAMES, SEED, scale, least=2,
                   label=label)
            # the beginners' view: the same settings under the spec's own players
            + grid(info, (BASE, *VARIANTS), BEGINNERS, (PLAYERS,), OTHER_GAMES, SEED, scale,
                   least=2, label=label)
            + grid(info, (BASE,), BEGINNERS, others, OTHER_GAMES, SEED, scale, least=2,
                   label=label)
            # the better player: the expert with search, at a stated few games
            + grid(info, (BASE, *VARIANTS), (search(),), (PLAYERS,), ROLLOUT_GAMES, SEED,
                   scale, least=2, slow_games=ROLLOUT_GAMES, label=label)
            + grid(info, (BASE,), (search(),), others, ROLLOUT_GAMES, SEED, scale, least=2,
                   slow_games=ROLLOUT_GAMES, label=label)
            + ladder_plan(info, BASE, (*POLICIES[:-1], search()), PLAYERS, LADDER_GAMES,
                          LADDER_SLOW, SEED, scale))


def search() -> str:
    """The better player: the expert with search, as the plan names it."""
    return f"rollout:base={POLICY}{ROLLOUT_PARAMS}"


def _label(policy: str) -> str:
    """A player as a designer reads it ('expert + search, 16 playouts per ...')."""
    return player_label(get_game(GAME).policy(policy))


def how_to_read(page, answers: Answers) -> None:
    c: Comparison = answers["variants"]
    page.paragraph(
        f"The rulebook offers five 'Variations for a Shorter Game' (a-e; e comes in two "
        f"strengths). Each preset below was played on the same {c.answer.games:,} games as the "
        f"{BASE} rules: game i of every variation starts from the same seed (common random "
        f"numbers), so each game gives a paired difference. All {PLAYERS} seats play the "
        "expert (the spec's heuristic with its weights trained by rumsim to win more often), "
        "so every seat figure is about the seat among skilled players, not the player in it. "
        "The spec's own players (random, blocker and threshold: the beginners) play the same "
        "settings in the sections that ask whether an answer survives other players, beside "
        f"the expert with search ({_label(search())}), the better player.")
    page.table(presets_table(get_game(GAME), BASE, c.names), caption="The variations compared")
    page.paragraph(
        f"Differences are variation minus standard; {STAR_NOTE}. The "
        "first-player edge is seat 0's win share minus the fair 1/P. The score spread is the "
        "standard deviation of the final progress scores (1000 x level + 10 x votes + net "
        "barrels, all seats pooled): smaller means the losers end closer to the winner.",
        css="note")


def reading(answers: Answers) -> list[str]:
    """A few plain sentences answering the question, computed from the tables."""
    answer = answers["variants"].answer
    seats = {s.players: s.order for s in answers["seats"].settings}
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
        text = (f"Among experts, {v} ({_describe(v)}) shortens the game most: {r['base']:.1f} -> "
                f"{r['value']:.1f} rounds on average ({_diff(r)}), median {median['base']:.0f} -> "
                f"{median['value']:.0f}, 90th percentile {p90['base']:.0f} -> {p90['value']:.0f}.")
        if len(shorter) > 1:
            least = shorter[-1]
            text += (f" {len(shorter)} of {len(names)} variations shorten it significantly; "
                     f"the least is {least} ({_diff(rounds[least])} rounds).")
        out.append(text)
    else:
        out.append(f"Among experts, no variation is shown to shorten the game at {PLAYERS} players "
                   f"({answer.games:,} games each, Holm-adjusted); the intervals say how much "
                   f"shortening the games rule out.")
    if longer:
        out.append("Longer games under " + join_words([f"{v} ({_diff(rounds[v])} rounds)"
                                                       for v in longer]) + ".")
    if unclear:
        out.append("No change in mean length detected for " + join_words(
            [f"{v} ({_diff(rounds[v])})" for v in unclear])
            + "; that is not evidence of no change beyond what the interval rules out.")

    edge = {v: t.loc[(v, "first_player_edge")] for v in names}
    headline = (f"the first player's edge among experts under the {BASE} rules (win share "
                f"minus the fair share, in percentage points, pp) is "
                f"{pp(edge[names[0]]['base'])}")
    if PLAYERS in seats:
        h = seats[PLAYERS].headline
        headline += f" {pp_bounds(h.low, h.high)}"
    changed = [v for v in names if edge[v]["significant"]]
    if changed:
        out.append(f"At {PLAYERS} players {headline}; " + join_words(
            [f"{v} {'raises' if edge[v]['diff'] > 0 else 'lowers'} it by "
             f"{abs(edge[v]['diff']) * 100:.2f} pp {pp_bounds(edge[v]['low'], edge[v]['high'])}"
             for v in changed])
            + " (significant after Holm over the whole comparison)"
            + ("; no change is detected under the others." if len(changed) < len(names)
               else "."))
    else:
        out.append(f"At {PLAYERS} players {headline}; no variation's change of it is detected "
                   f"(Holm over the whole comparison, family-wise 5%), which is not evidence "
                   f"that they leave it alone: see the intervals.")

    spread = {v: t.loc[(v, "score_spread")] for v in names}
    widest = max(names, key=lambda v: abs(spread[v]["diff"]))
    s = spread[widest]
    if s["significant"]:
        out.append(f"{widest} changes the final score spread most: {s['base']:.0f} -> "
                   f"{s['value']:.0f} ({'closer' if s['diff'] < 0 else 'wider'} finishes).")

    if seats:
        shares = join_words([f"{a.table.iloc[0]['share']:.1%} at {p} players (fair {1 / p:.1%})"
                             for p, a in seats.items()])
        said = by_word(((a.verdict, str(p)) for p, a in seats.items()), after=" players")
        section = answers["seats"]
        found = dict(zip((s.players for s in section.settings), section.unequal("seat"),
                         strict=True))
        unequal_at = [str(p) for p in seats if found[p]]
        equal_at = [str(p) for p in seats if not found[p]]
        test = ("The equal-seats test detects no difference between the seats at any player "
                "count (not evidence that they are equal)"
                if not unequal_at else
                f"The equal-seats test finds unequal seats at {join_words(unequal_at)} players"
                + (f" but detects no difference at {join_words(equal_at)}" if equal_at else ""))
        test += " (Holm-adjusted over the player counts, 5%)"
        out.append(f"Under the {BASE} rules the first player among experts wins {shares}. {test}; verdicts "
                   f"within ±{MARGIN * 100:g} pp: {said}.")

    out += beginner_sentences(answers)
    out += better_sentences(answers)

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


def _direction(edge) -> str:
    """Where the first player stands, from its 95% interval of the gap (the sensitivity's)."""
    return "ahead" if edge.low > 0 else "behind" if edge.high < 0 else "not shown ahead or behind"


def _views(answers: Answers) -> dict[tuple[str, int], object]:
    """(policy name, players) -> that player's seat view in the sensitivity section."""
    return {(v.policy, v.players): v for s in answers["sensitivity"].seats for v in s.views}


def beginner_sentences(answers: Answers) -> list[str]:
    """What the spec's own players (the beginners) show differently from the experts: the
    first player's edge at the variations' player count, and the variations' effect on it."""
    views = _views(answers)
    out = []
    mine = views.get((POLICY, PLAYERS))
    parts = [f"{_label(b)} {pp(views[(b, PLAYERS)].edge.estimate)} "
             f"{pp_bounds(views[(b, PLAYERS)].edge.low, views[(b, PLAYERS)].edge.high)}"
             for b in BEGINNERS if (b, PLAYERS) in views]
    if parts and mine is not None:
        alpha = 0.05 / len(parts)  # Bonferroni over the beginners
        moved = [b for b in BEGINNERS if (b, PLAYERS) in views
                 and differ(mine.edge, views[(b, PLAYERS)].edge, alpha)]
        out.append(f"What beginners see differently: at {PLAYERS} players the first player's "
                   f"edge among beginners is " + "; ".join(parts) + f", against the experts' "
                   f"{pp(mine.edge.estimate)} {pp_bounds(mine.edge.low, mine.edge.high)}; "
                   + (f"it differs from the experts' under {join_words(moved)}"
                      if moved else "no beginner's is shown to differ from the experts'")
                   + " (Bonferroni over the beginners).")
    shifts = answers["variant_sensitivity"]
    t = getattr(shifts, "shifts", None)
    if t is not None and len(t):
        out.extend(_shift_words(t))
    return out


def _shift_words(t) -> list[str]:
    """The variations whose change of the first player's edge is shown in opposite directions
    by the experts and some beginner (each change's own 95% interval)."""
    sign = {(r.policy, r.variant): (1 if r.low > 0 else -1 if r.high < 0 else 0)
            for r in t.itertuples(index=False)}
    flipped = [v for v in dict.fromkeys(t["variant"]) if any(
        sign.get((POLICY, v), 0) * sign.get((b, v), 0) < 0 for b in BEGINNERS)]
    if not flipped:
        return []
    return [f"Among beginners, {join_words(flipped)} moves the first player's edge the other "
            "way from among experts (see 'Does each variation's effect survive a better "
            "player?')."]


def better_sentences(answers: Answers) -> list[str]:
    """Does the answer survive a better player: the expert with search among experts, and
    whether the first player's edge under the search differs from the experts'."""
    t = answers["ladder"].table
    rows = t[t["weaker"].str.split(":").str[0] == POLICY] if len(t) else t
    if not len(rows):
        return []
    r = rows.iloc[0]
    shown = {"stronger": "shown stronger than the expert",
             "weaker": "shown weaker than the expert"}.get(r["verdict"],
                                                           "not shown stronger than the expert")
    text = (f"Does it survive a better player? One {_label(search())} among "
            f"{r['players'] - 1} experts wins {100 * r['share']:.1f}% [{100 * r['low']:.1f}, "
            f"{100 * r['high']:.1f}] of {r['games']:,} games at {r['players']} players, where "
            f"an equal player wins {100 * r['fair']:.0f}%: {shown}.")
    views = _views(answers)
    both = [p for p in SEAT_PLAYERS if (POLICY, p) in views and ("rollout", p) in views]
    if both:
        alpha = 0.05 / len(both)  # Bonferroni over the player counts
        moved = [p for p in both
                 if differ(views[(POLICY, p)].edge, views[("rollout", p)].edge, alpha)]
        games = join_words(f"{views[('rollout', p)].games:,}" for p in both)
        text += (f" With search in every seat ({games} games at "
                 f"{join_words(str(p) for p in both)} players) the first player's edge "
                 + (f"differs from the experts' at {join_words(str(p) for p in moved)} "
                    "players" if moved else
                    "is not shown to differ from the experts' at any player count (its "
                    "intervals are wide at these few games: not evidence that it is the same)")
                 + " (Bonferroni over the player counts; see 'Does the seat answer survive a "
                 "better player?').")
    return [text]


def _describe(preset: str) -> str:
    text = get_game(GAME).rules_cls.PRESETS.get(preset, (preset,))[0]
    return text.removeprefix("shorter game ")


def _diff(r) -> str:
    return f"{r['diff']:+.2f} [{r['low']:+.2f}, {r['high']:+.2f}]"


ASKED = Asked(
    question="Does the first player win more often than the others?",
    first="the first player (seat 0)",
    beginner="threshold",
    fix_question=FIX[0].ask,
    fix_words=lambda v: ("for a game of about 20 rounds: a ticket of leave costs "
                         f"{v[0]}, a commission {v[1]}, "
                         f"{v[2]} lose cards removed, "
                         f"{v[3]} votes for a coup, players start as "
                         f"{v[4]}"))


PAGE = GamePage(
    game=GAME,
    filename="rum_rebellion.html",
    title="Rum Rebellion: what does each shorter-game variation really do?",
    subtitle="rumsim balance report - Rum Rebellion (roll-and-move race for 2-6), spec sections "
             "7.1 and 9.9",
    blurb="what does each shorter-game variation really do to game length and the first "
          "player's edge among skilled players, and among beginners?",
    plan=plan,
    sections=(
        Strength(RUNGS, players=(PLAYERS, *(p for p in SEAT_PLAYERS if p != PLAYERS)),
                 deals=STRENGTH_DEALS, other_deals=STRENGTH_OTHER_DEALS,
                 evidence_deals=EVIDENCE_DEALS, preset=BASE,
                 seed=SEED),
        Restrict(policy="expert", players=PLAYERS, preset=BASE, seed=SEED),
        Variants(base=BASE, players=PLAYERS, policy=POLICY),
        SeatAdvantage(
            margin=MARGIN, presets=(BASE,), policies=(POLICY,),
            heading="Seat win shares among experts, {players} players, {presets} rules",
            figure_title="Win share by seat, {policy} players, {preset} rules",
            figure_alt="win share by seat per player count",
            figure_caption="Points: win share; whiskers: 95% Wilson intervals; dashed: the fair "
                           "share 1/P; grey: the ±{margin} pp margin of the verdict.",
            xlabel="seat (0 plays first)",
            captions={"seat": "Win share by seat, % [95% interval]; verdict within ±{margin} pp"},
            value_label="seat {}",
            csv={"seats": order_long, "seat_verdicts": order_verdicts}),
        Sensitivity(presets=(BASE,), policies=POLICIES, margin=MARGIN,
                    note=f"The seat runs again under every player of the skill ladder: the "
                         f"beginners (random, blocker, threshold), the expert and the expert "
                         f"with search ({_label(search())}). The expert plays the games above, "
                         f"the beginners {OTHER_GAMES:,} games per setting, the search, the "
                         f"slowest, {ROLLOUT_GAMES:,}, so its intervals are wide."),
        VariantSensitivity(policies=POLICIES, base=BASE, variants=VARIANTS, players=PLAYERS),
        Ladder(policies=POLICIES, players=PLAYERS, preset=BASE),
        Tune(FIX),
        Feel(presets=(BASE,), policies=POLICIES, margin_prefix="votes", close=10,
             unit="votes"),
    ),
    reading=reading,
    how_to_read=how_to_read,
    asked=ASKED,
    columns=("game", "players", "rounds", "turns", "capped", "lead_changes", "half_time_leader"),
    per_seat=("win", "score", "votes"),
    rules=lambda info, presets: (
        f"Rules: the spec's defaults ('{BASE}') and the presets above; every other option at "
        f"its default (rumsim rules {info.name} lists them)."),
)
