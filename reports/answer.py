"""The block that opens every game page: its question, answered among skilled players.

A designer opens a page to learn one thing. This module writes it, first on the page
(``<section id="answer">``), from what the page's sections found:

* the question, in the game's words (the page declares it);
* the answer among skilled players: the top of the strength ladder at the page's main
  player count (``reports.sections.strength``), the first player's win share against
  the fair share with its interval, and three decided verdicts, each worded so that no
  two read as a contradiction: is every seat within the margin of its fair share (the
  seat verdict), does the answer still move as the players get stronger (convergence),
  and is the skilled player stronger than the spec's beginner (its rating);
* what that means at the table, in games won of a hundred;
* the recommended fix (the page's rule tuning for expert players,
  ``reports.sections.tune``) in words, with what it moves, and its command;
* the command that reproduces the answer, and, for a verdict not yet decided, the
  command that would decide it with the time it takes on the machine that made the
  evidence.

Then "why we believe it": the ladder in one figure and luck against skill in one line.
Every number comes from an analysis' answer; this module only words it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pandas as pd

from analyses.ladder import luck_index, luck_words
from analyses.stats import Interval
from reports import figures
from reports.words import elo_interval, player_label, player_labels

# How a verdict reads, per verdict word: the seat verdict, then convergence. Declared once so
# that every page (and the index) says the same thing the same way.
SEAT_WORDS = {
    "balanced": "Yes: every seat wins within ±{m:g} percentage points of its fair share",
    "unbalanced": "No: some seat's win share lies beyond ±{m:g} percentage points of its "
                  "fair share",
    "undetermined": "Not decided yet: the intervals still straddle the ±{m:g} "
                    "percentage-point line",
}
SETTLED_WORDS = {
    "converged": "Yes: from {below} to {top}, no seat's edge moves by more than {m:g} "
                 "percentage points",
    "not converged": "No: from {below} to {top} a seat's edge still moves; a stronger "
                     "player may move it further",
    "undetermined": "Not decided yet",
}


@dataclass
class Answer:
    """A page's answer block, worded (see the module docstring)."""

    question: str
    headline: str
    verdicts: list[tuple[str, str]]
    meaning: str
    fix: str | None
    fix_command: str | None
    command: str
    decide: list[str] = field(default_factory=list)   # commands that would decide the rest
    figure: bytes | None = None
    figure_caption: str = ""
    luck: str | None = None
    # the verdict words, plain, for the index and the summaries
    seat_verdict: str = ""
    settled: str = ""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _points(x: float) -> str:
    v = 100 * x
    return f"{0.0 if round(v, 1) == 0 else v:+.1f}"


def _duration(seconds: float) -> str:
    """A time as a reader says it: 'about 40 minutes', 'about 3 hours'."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} seconds"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} minutes"
    return f"about {seconds / 3600:.1f} hours"


def _round_up(x: float) -> int:
    if x <= 1000:
        return int(math.ceil(x / 100) * 100)
    scale = 10 ** (int(math.log10(x)) - 1)
    return int(math.ceil(x / scale) * scale)


@dataclass(frozen=True)
class Asked:
    """What a page declares for its answer: its question, how the game names its first
    player ('the first on the rail'), the spec's beginner the skilled player is rated
    against, the tuning whose answer is the fix (the expert players' question; None: the
    page has none), and the fix in words from the recommended setting's knob values (in the
    order the question lists its knobs)."""

    question: str
    first: str
    beginner: str
    fix_question: str | None = None
    fix_words: Callable[[list[str]], str] | None = None


def build(info, asked: Asked, strength, tunes, page_command: str) -> Answer:
    """The answer block from the page's ladder (a ``StrengthResult``) and tunings (a list of
    ``TuneResult``); either may be missing on a page built without them."""
    lead = strength.lead if strength is not None else None
    if lead is None:
        return Answer(asked.question, "This page was built without its strength ladder, so it "
                      "has no answer for skilled players.", [], "", None, None, page_command)
    labels = player_labels(info, lead.rungs)
    top = labels[lead.rungs[-1]]
    below = labels[lead.rungs[-2]]
    p = lead.players
    first = lead.first[-1]
    edge = first.headline
    fair = 1 / p
    m = 100 * first.margin
    headline = (f"Among skilled players ({top}) at {p} players, {asked.first} wins "
                f"{_pct(edge.estimate + fair)} of games [{_pct(edge.low + fair)}, "
                f"{_pct(edge.high + fair)}] where a fair share is {_pct(fair)}: "
                f"{_points(edge.estimate)} percentage points [{_points(edge.low)}, "
                f"{_points(edge.high)}], on {lead.deals:,} deals.")
    verdicts = [(f"Is every seat fair within ±{m:g} percentage points?",
                 SEAT_WORDS[first.verdict].format(m=m) + _worst_seat(first) + "."),
                ("Does the answer hold for stronger players?", _settled(lead, top, below))]
    beginner = asked.beginner if asked.beginner in lead.rungs else None
    if lead.chain is not None and beginner is not None:
        k, b = len(lead.rungs) - 1, lead.rungs.index(beginner)
        gap = lead.chain.gap(b, k)
        shown = gap.low > 0
        verdicts.append((f"Is the skilled player stronger than the spec's {beginner}?",
                         (f"Yes: rated {elo_interval(gap)} above it" if shown else
                          f"Not shown: rated {elo_interval(gap)} against it") + "."))
    artefact = _artefact(lead, labels)
    if artefact:
        headline += " " + artefact
    hundred = 100 * (edge.estimate + fair)
    meaning = (f"At the table: of 100 games among {p} skilled players, {asked.first} wins "
               f"about {hundred:.0f}, where {100 * fair:.0f} would be fair.")
    decide = _decide(info, strength, lead, first)
    fix, fix_command = _fix(asked, tunes)
    why, caption = _why_figure(lead, labels)
    return Answer(asked.question, headline, verdicts, meaning, fix, fix_command,
                  strength.commands.get(strength.main, page_command), decide, why, caption,
                  _luck(lead, labels, beginner), first.verdict, lead.converged.state)


def _artefact(lead, labels: Mapping[str, str]) -> str:
    """Where the fixed expert's answer and search over it part (the step from the expert to
    the rung above it is shown to move a seat's edge): the answer is the search's, and the
    expert's was an artefact of its fixed play."""
    if "expert" not in lead.rungs or not lead.steps:
        return ""
    k = lead.rungs.index("expert")
    if k >= len(lead.steps):  # the expert is the top rung
        return ""
    step = lead.steps[k]
    if step.state != "not converged":
        return ""
    d = step.difference
    return (f"The expert alone would answer otherwise: search over it moves {step.largest}'s "
            f"edge by {_points(d.estimate)} percentage points [{_points(d.low)}, "
            f"{_points(d.high)}], so the expert's answer was an artefact of its fixed play, "
            "and this page's answer is the search's.")


def _worst_seat(first) -> str:
    """The seat furthest from its fair share, when the verdict turns on it."""
    t = first.table
    if first.verdict == "balanced" or not len(t):
        return ""
    k = int(t["gap"].abs().idxmax())
    r = t.loc[k]
    unit = "place" if first.first_number == 1 else "seat"
    return (f" (furthest: {unit} {k + first.first_number}, {_points(r['gap'])} "
            f"[{_points(r['gap_low'])}, {_points(r['gap_high'])}])")


def _settled(lead, top: str, below: str) -> str:
    c = lead.converged
    m = 100 * c.margin
    text = SETTLED_WORDS[c.state].format(below=below, top=top, m=m)
    d = c.difference
    largest = (f"largest: {c.largest}, {_points(d.estimate)} [{_points(d.low)}, "
               f"{_points(d.high)}]")
    if c.state == "converged":
        strength = (f", and {top} is shown stronger than {below}" if c.stronger else "")
        return f"{text} ({largest}){strength}."
    if c.state == "not converged":
        return f"{text} ({largest})."
    if c.not_stronger and c._edges_equal():
        return (f"{text}: the edges agree within ±{m:g} points, but {top} is not shown "
                f"stronger than {below}, so their agreement says nothing about stronger "
                "play.")
    return f"{text}: the change is neither shown within ±{m:g} points nor shown apart ({largest})."


def _decide(info, strength, lead, first) -> list[str]:
    """For each verdict not yet decided: the deals that would decide it if the estimates
    held, the command, and the time it would take where the evidence was made."""
    needs = []
    if first.verdict == "undetermined" and first.more_games:
        needs.append(("the seat verdict", lead.deals + first.more_games))
    c = lead.converged
    if c.state == "undetermined" and c.decide_deals is not None \
            and math.isfinite(c.decide_deals):
        needs.append(("the convergence verdict", c.decide_deals))
    if not needs:
        return []
    rate = strength.seconds_per_game.get(strength.main)
    command = strength.commands.get(strength.main, "")
    out = []
    for what, n in needs:
        n = _round_up(max(n, lead.deals + 1))
        text = f"{what.capitalize()} would be decided at about {n:,} deals if the estimates held: "
        cmd = _with_deals(command, n)
        when = (f" ({_duration(rate * (n - lead.deals))} more on the machine that played "
                "these deals; the deals already played are taken from the run store)"
                if rate else "")
        out.append(text + f"`{cmd}`{when}.")
    return out


def _with_deals(command: str, n: int) -> str:
    parts = command.split()
    if "-n" in parts:
        parts[parts.index("-n") + 1] = str(n)
    return " ".join(parts)


def _fix(asked: Asked, tunes) -> tuple[str | None, str | None]:
    """The recommended setting of the page's fix question, in words, with what it moves."""
    if not tunes or asked.fix_question is None:
        return None, None
    chosen = next((t for t in tunes if t.question.ask == asked.fix_question), None)
    if chosen is None or not chosen.answers:
        return None, None
    a = chosen.answers[0]
    values = [k.show(v) for k, v in zip(a.knobs, a.values[a.best], strict=True)]
    words = asked.fix_words(values) if asked.fix_words else a.labels[a.best]
    from analyses.tune import goal_line  # the goal lines as the tuning says them
    goals = "; ".join(goal_line(g, plain=True) for g in a.goal_rows(a.best))
    rows = {g["metric"]: g for g in a.goal_rows(a.best)}
    # a target ('=') the best setting's interval does not reach, or a constraint not shown
    # met: the tuning's best is then not (yet) a fix, and the answer says so
    missed = [g for g in a.goals if not g.constraint and g.metric.name in rows
              and not rows[g.metric.name]["low"] <= g.value <= rows[g.metric.name]["high"]]
    unmet = [state for g in rows.values() for state in g["constraints"].values()
             if state != "met"]
    if a.race.none_feasible:
        text = (f"No setting the tuning tried meets the goal for {a.policies} players; the "
                f"closest: {words} ({goals}).")
    elif missed or unmet:
        text = (f"Not found yet: the best setting the tuning tried, {words}, is not shown to reach "
                f"its goal for {a.policies} players ({goals}); the evidence below shows what "
                "it moves.")
    else:
        text = f"{words} ({a.policies} players, {a.players} players: {goals})."
    moves = [s for s in a.side if s.get("verdict") == "moves"]
    if moves:
        text += " It also moves: " + "; ".join(
            f"{s['label']} {_signed(s['change'], s['unit'])}" for s in moves[:3]) + "."
    elif a.side:
        text += " Nothing else it was checked against is shown to move."
    return text, chosen.command


def _signed(x: float, unit: str) -> str:
    from analyses.tune import shown_value
    return shown_value(x, unit, True)


def _why_figure(lead, labels: Mapping[str, str]) -> tuple[bytes | None, str]:
    t = lead.table()
    rows = pd.DataFrame({"rung": t["rung"], "label": [labels[r] for r in t["policy"]],
                         "players": lead.players, "estimate": t["first_edge"],
                         "low": t["first_edge_low"], "high": t["first_edge_high"]})
    png = figures.edge_by_rung(rows, "The first player's edge as the players get better",
                               small=True, band=lead.first[-1].margin)
    return png, ("Each dot: the first player's win share minus the fair share when every seat "
                 "plays that player, weakest (left) to strongest (right), on the same "
                 f"{lead.deals:,} deals; whiskers: 95% intervals; grey band: ±2 percentage "
                 "points.")


def _luck(lead, labels: Mapping[str, str], beginner: str | None) -> str | None:
    """Luck against skill in one line: one expert among the beginners."""
    table = lead.heads.table
    if not len(table) or beginner is None:
        return None
    rows = table[table["weaker"] == beginner]
    if not len(rows):
        return None
    r = rows.iloc[0]
    luck = luck_index(Interval(r["share"], r["low"], r["high"]), lead.players)
    return (f"Luck against skill: one {labels.get(r['stronger'], r['stronger'])} among "
            f"{lead.players - 1} {labels.get(beginner, beginner)} players wins "
            f"{_pct(r['share'])} [{_pct(r['low'])}, {_pct(r['high'])}] of games, where an "
            f"equal player would win {_pct(1 / lead.players)}: {luck_words(luck.estimate)}.")


__all__ = ["Answer", "Asked", "build", "player_label"]


def write_answer(page, a: Answer) -> None:
    """The answer block and "why we believe it", first on the page."""
    from reports.html import esc, with_code

    out = ['<section id="answer">', "<h2>The answer</h2>",
           f'<p class="question"><strong>{esc(a.question)}</strong></p>',
           f'<p class="headline">{esc(a.headline)}</p>']
    if a.verdicts:
        out.append("<dl>" + "".join(f"<dt>{esc(q)}</dt><dd>{esc(v)}</dd>"
                                    for q, v in a.verdicts) + "</dl>")
    if a.meaning:
        out.append(f"<p>{esc(a.meaning)}</p>")
    if a.fix:
        out.append(f'<p class="fix"><strong>The fix:</strong> {esc(a.fix)}</p>')
    for line in a.decide:
        out.append(f"<p>{with_code(line)}</p>")
    out.append(f"<p>Reproduce: {with_code('`' + a.command + '`')}"
               + (f"; the fix: {with_code('`' + a.fix_command + '`')}" if a.fix_command else "")
               + "</p>")
    out.append("</section>")
    page.raw("\n".join(out))
    if a.figure is not None or a.luck:
        page.raw('<section id="why">')
        page.heading("Why we believe it")
        if a.figure is not None:
            page.figure(a.figure, alt="the first player's edge at each rung of the ladder",
                        caption=a.figure_caption)
        if a.luck:
            page.paragraph(a.luck)
        page.raw("</section>")
