"""How the report pages phrase numbers and lists, written once for every page and section.

A page's answer sentences are its own; the small pieces they are built from
(a list in words, an ordinal, a p-value, a gap in percentage points) read the
same on every page.
"""

from __future__ import annotations

import math
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
