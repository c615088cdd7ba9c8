"""How the report pages phrase numbers and lists, written once for every page and section.

A page's answer sentences are its own; the small pieces they are built from
(a list in words, an ordinal, a p-value, a gap in percentage points) read the
same on every page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from analyses.stats import Interval


def join_words(items: Iterable[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = list(items)
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def by_word(pairs: Iterable[tuple[str, str]], after: str = "") -> str:
    """(word, name) pairs grouped by word in first-seen order: 'a at x and y; b at z'.

    ``after`` follows each group's names ('balanced at 2 and 3 players').
    """
    groups: dict[str, list[str]] = {}
    for word, name in pairs:
        groups.setdefault(word, []).append(name)
    return "; ".join(f"{word} at {join_words(names)}{after}" for word, names in groups.items())


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def p_equals(p: float) -> str:
    """A p-value in a sentence: '< 0.0001' or '= 0.0123'."""
    return "< 0.0001" if p < 1e-4 else f"= {p:.4f}"


def p_cell(p: float) -> str:
    """A p-value in a table cell: '< 0.0001', '0.0123', or '-' when there is none."""
    if not math.isfinite(p):
        return "-"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def pp(x: float) -> str:
    """A share difference in percentage points: '+1.23 pp'."""
    return f"{x * 100:+.2f} pp"


def pp_bounds(low: float, high: float) -> str:
    """An interval of share differences in percentage points: '[+0.10, +2.36]'."""
    return f"[{low * 100:+.2f}, {high * 100:+.2f}]"


def pp_interval(gap: Interval) -> str:
    """A gap with its interval in percentage points: '+1.23 pp [+0.10, +2.36]'."""
    return f"{pp(gap.estimate)} {pp_bounds(gap.low, gap.high)}"


def percent_interval(share: float, low: float, high: float) -> str:
    """A share with its interval in percent: '46.5 [45.4, 47.7]'."""
    return f"{share * 100:.1f} [{low * 100:.1f}, {high * 100:.1f}]"


def verdict_note(margin: float, unit: str = "seat") -> str:
    """How the seat verdicts are reached and how often they can be wrong, for a page."""
    return (f"Verdicts, each wrong at most 5% of the time: 'balanced' when every {unit}'s exact "
            f"(Clopper-Pearson) 90% interval of the gap from the fair share 1/P lies within "
            f"±{margin * 100:g} pp (an "
            f"equivalence test: two one-sided tests per {unit}), 'unbalanced' when one "
            f"{unit}'s one-sided bound at 5%/P lies beyond it, otherwise 'undetermined'.")


# What a * in a table of paired differences controls, and what its intervals are.
STAR_NOTE = ("* marks a difference significant after Holm's adjustment over every difference "
             "of the comparison (all metrics of all variations: family-wise 5%); each interval "
             "is 95% on its own, not adjusted, and a difference without a * is not shown to be "
             "zero: its interval says how large it can be")


# ------------------------------------------------------------------------------- players

# A search policy's budget: the parameter that says how much it searches, per policy name.
# The unit is that parameter's own help text ('playouts per option'), so it is said once.
SEARCH_BUDGET = {"rollout": "samples", "sampler": "n_samples"}


def player_label(policy) -> str:
    """A player as a designer reads it: 'greedy', 'expert', 'expert + search, 16 playouts
    per option'. ``policy`` is a resolved ``engines._game.Policy``; the exact specification
    (``Policy.label()``) belongs in a table beside it, not in a sentence."""
    budget = SEARCH_BUDGET.get(policy.name)
    if budget is None or policy.base is None:
        return policy.name if not policy.restriction else policy.label()
    params = {p.name: p for p in policy.spec.params}
    # The base as the player named it ('expert'), not as it resolves (a trained heuristic).
    base = params["base"].policies[int(policy.param("base"))]
    unit = params[budget].help.split(" (")[0].split(";")[0]
    return f"{base} + search, {policy.param(budget):g} {unit}"


def player_labels(info, specs) -> dict[str, str]:
    """Each policy string of ``specs`` -> its :func:`player_label`, made unique: where two
    players would read alike, the exact specification follows the label."""
    labels = {s: player_label(info.policy(s)) for s in specs}
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label] = seen.get(label, 0) + 1
    return {s: (label if seen[label] == 1 else f"{label} ({info.policy(s).label()})")
            for s, label in labels.items()}


# ------------------------------------------------------------------------------ glossary

# Every term a page may use that a designer need not know, in plain words; a page lists the
# ones it uses (``glossary_terms``). Keys are matched case-insensitively in the page's text.
GLOSSARY = {
    "percentage point": "the difference between two percentages: 27% is 2 percentage points "
                        "(pp) above 25%.",
    "fair share": "the share of games a seat would win if seats made no difference: 1 in P "
                  "at a table of P players.",
    "player's edge": "a seat's win share minus the fair share, in percentage points: +5 "
                     "means that seat wins 5 more games in 100 than a fair seat.",
    "interval": "the range [low, high] after a figure: the values the games cannot rule out. "
                "A 95% interval misses the truth at most 5 times in 100.",
    "balanced": "every seat's edge is shown to lie within the margin (±2 percentage points) "
                "by an equivalence test; wrong at most 5% of the time.",
    "unbalanced": "some seat's edge is shown to lie beyond the margin; wrong at most 5% of "
                  "the time.",
    "undetermined": "the games played cannot decide yet; the page says how many would.",
    "converged": "the answer stopped moving as the players got stronger: every seat's edge "
                 "changes by less than ±1.5 percentage points from the second-strongest "
                 "player to the strongest, who is shown stronger.",
    "deal": "one shuffle and set-up of the game (a game index); different players play the "
            "same deals, so their results compare like for like.",
    "expert": "the spec's heuristic player with its weights trained by rumsim (rumsim train) "
              "to win more often.",
    "search": "a player that tries each option by playing the rest of the game out many times "
              "(playouts) with another player's choices, and picks the option that won most.",
    "beginner": "the spec's own simple players (greedy and the like): they follow one fixed "
                "rule of thumb.",
    "ladder": "players from weakest to strongest (rungs), each playing the same deals; the "
              "strongest rung's answer is the answer among skilled players.",
    "rung": "one player on the ladder.",
    "Elo": "a rating of playing strength: 100 Elo more means winning about 64 of 100 games "
           "against the weaker player at a two-player table.",
    "luck index": "how often a weaker player still beats a stronger one, against how often an "
                  "equal player would: 1 is pure luck, 0 pure skill.",
    "Holm": "a correction for asking many questions at once, so that the chance of any false "
            "finding stays at 5%.",
    "Bonferroni": "a simpler, stricter correction for many questions: each test at 5% divided "
                  "by the number of tests.",
    "equivalence test": "a test that shows a difference is small (within a margin), rather "
                        "than only failing to find one (Schuirmann's two one-sided tests).",
    "TOST": "two one-sided tests: the equivalence test.",
    "Wilson": "an interval for a share that stays accurate when the share is near 0 or 1.",
    "Clopper-Pearson": "an exact interval for a share.",
    "MOVER": "a way to combine two intervals into one for their difference (Zou and Donner).",
    "Newcombe": "an interval for the difference of two paired shares.",
    "Hall": "an interval for a mean that allows for a lopsided (skewed) spread of values.",
    "McNemar": "a test for paired yes/no outcomes (the same deal under two rules).",
    "Bradley-Terry": "a model that turns head-to-head win shares into ratings.",
    "bootstrap": "intervals from re-drawing the games played, many times.",
    "common random numbers": "every rule variant plays the same deals, so differences come "
                             "from the rules, not from luck of the draw.",
    "p-value": "how surprising the games would be if there were no difference: small means "
               "the difference is real.",
    "playout": "one imagined game played to its end from the current position.",
    "race": "a tuning that plays every setting on the same games and drops a setting once it "
            "is shown worse, so games go to the settings still in contention.",
}


def glossary_terms(text: str) -> dict[str, str]:
    """The glossary entries whose term appears in ``text`` (case-insensitive), in order."""
    return {t: d for t, d in GLOSSARY.items()
            if re.search(rf"\b{re.escape(t)}\b", text, re.IGNORECASE)}


def elo_interval(iv: Interval, unit: str = "Elo") -> str:
    """A rating with its interval, '+175 Elo [+160, +189]'; a bound the games cannot set (a
    player who won every game, or too few games) is said in words, never as 'inf'."""
    def bound(x: float) -> str:
        return f"{x:+.0f}" if math.isfinite(x) else ("no upper bound" if x > 0 else
                                                     "no lower bound")
    if not math.isfinite(iv.estimate):
        return ("beyond what these games can rate (it won every game)" if iv.estimate > 0
                else "beyond what these games can rate (it lost every game)")
    return f"{iv.estimate:+.0f} {unit} [{bound(iv.low)}, {bound(iv.high)}]"
