"""Each page's headline for the index: one sentence, one small figure and a row of the table.

A page's :class:`Summary` is computed from its sections' answers when the
page is built and saved beside it (``<page>_summary.json`` and
``<page>_headline.png``), so an index can be rewritten from pages built
earlier. :func:`multi_player_summary` serves every multi-player page from
its policy-sensitivity, game-feel and skill-ladder answers; a page may
declare its own (Rum Runner's is about its score bands).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd

from reports import figures

# A page's card on the index, in order (each summary's row fills what it has): the question,
# the answer among skilled players and its verdicts, the fix.
CARD = ("question", "fair to every seat?", "holds for stronger players?", "fix",
        "shorter games")


@dataclass
class Summary:
    """A page's headline: the sentence, the small figure (PNG) and its row of the index."""

    sentence: str
    row: dict[str, str | list[str]]
    figure: bytes | None = None
    figure_alt: str = ""
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> str:
        d = asdict(self)
        d.pop("figure")
        return json.dumps(d, indent=1)

    @classmethod
    def from_json(cls, text: str, figure: bytes | None = None) -> Summary:
        return cls(**json.loads(text), figure=figure)


def from_answer(answer, games: int) -> Summary:
    """A page's card from its answer block (``reports.answer.Answer``): the same sentence,
    verdicts and figure as the page's first screen."""
    verdicts = dict(answer.verdicts)
    row = {"question": answer.question,
           **{k: v for k, v in zip(CARD[1:3], list(verdicts.values())[:2], strict=False)},
           "fix": answer.fix or "", "games played": f"{games:,}"}
    return Summary(answer.headline, row, answer.figure,
                   "the first player's edge at each rung of the strength ladder")


def _pp(iv) -> str:
    return f"{100 * iv.estimate:+.1f} pp [{100 * iv.low:+.1f}, {100 * iv.high:+.1f}]"


def games_played(results: Mapping[str, Any]) -> int:
    return int(sum(int(r.meta.get("games", 0)) for r in results.values()))


STATE_WORDS = {"holds": "the conclusion holds across ",
               "depends": "the conclusion changes with the players across ",
               "unshown": "no policy's edge differs significantly from another's across "}


def multi_player_summary(answers: Mapping[str, Any], results: Mapping[str, Any]) -> Summary:
    """The headline of a multi-player page: at the ladder's player count, the first player's
    edge under the policy with the most games, whether it holds across the policies; the
    table row; a small figure of the edge per player count and policy."""
    sens = answers["sensitivity"]
    first = sens.first
    if not sens.seats:  # built without the runs of several policies: no headline to give
        return Summary("This page was built without the runs its headline reads.",
                       {"games played": f"{games_played(results):,}"})
    ladder = answers.get("ladder")
    feel = answers.get("feel", [])
    views = [v for s in sens.seats for v in s.views]
    players = sorted({v.players for v in views})
    main_players = (int(ladder.table["players"].iloc[0]) if ladder is not None
                    and len(ladder.table) else players[len(players) // 2])
    at = next((s for s in sens.seats if s.players == main_players), sens.seats[0])
    # The policy with the most games; of equals, the stronger (later on the ladder).
    main = max(enumerate(at.views), key=lambda kv: (kv[1].games, kv[0]))[1]
    sentence = (f"At {at.players} players the edge of {first} (win share minus 1/P) is "
                f"{_pp(main.edge)} under {main.policy} ({main.games:,} games; seat verdict "
                f"within ±2 pp: {main.verdict}); "
                + STATE_WORDS[at.state] + ", ".join(v.policy for v in at.views) + ".")
    if ladder is not None and len(ladder.table):
        top = ladder.table.iloc[-1]
        sentence += (f" Skill: one {top['stronger']} player among {top['weaker']} players wins "
                     f"{top['share']:.1%} [{top['low']:.1%}, {top['high']:.1%}] "
                     f"(an equal player {top['fair']:.0%}): {top['reading']}.")
    edges = "; ".join(
        f"{p}p: " + ", ".join(f"{v.policy} {_pp(v.edge)}" for v in views if v.players == p)
        for p in players)
    verdicts = "; ".join(f"{p}p: " + ", ".join(f"{v.policy} {v.verdict}" for v in views
                                               if v.players == p) for p in players)
    length = ""
    chosen = [f for f in feel if f.players == main_players and f.policy == main.policy]
    if chosen:
        t = chosen[0].table.set_index("statistic")
        if "mean rounds" in t.index:
            r = t.loc["mean rounds"]
            length = (f"{r['estimate']:.2f} rounds [{r['low']:.2f}, {r['high']:.2f}] "
                      f"({main.policy}, {main_players} players)")
    row = {"players": f"{players[0]}-{players[-1]}" if len(players) > 1 else str(players[0]),
           "policies": ", ".join(sens.policies), "mean length": length,
           "first-player edge (95% CI)": edges, "verdict": verdicts,
           "games played": f"{games_played(results):,}"}
    # Small: the main policy at every player count, every policy at the main count.
    shown = [v for v in views if v.policy == main.policy or v.players == main_players]
    dots = pd.DataFrame([{"label": f"{v.players}p {v.policy}", "estimate": v.edge.estimate,
                          "low": v.edge.low, "high": v.edge.high, "group": v.policy}
                         for v in shown])
    png = figures.interval_dots(dots, f"Edge of {first}", "win share - 1/P", reference=0.0,
                                percent=True, width=4.6)
    return Summary(sentence, row, png, f"edge of {first} per player count and policy")
