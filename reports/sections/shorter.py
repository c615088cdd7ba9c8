"""The shorter-game section: every shorter-game variation of a game, played by skilled players.

For a game whose shorter-game presets ``analyses.compare.GAMES`` declares, the section plays
``analyses.compare.compare`` itself (``play``): the expert in every seat under the base
rules and under each variation on the same deals, and the game's top search rung over the
expert on fewer deals as a check. It shows one sentence per variation (how much shorter,
the first player's edge before and after, what it breaks, whether the search player
agrees), the two tables and the figure of ``rumsim compare``'s page, and gives the index
one line per variation (``index_lines``). ``reports.page.GamePage`` adds it to every page
whose game declares shorter-game presets, so a page module need not.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import pandas as pd

from analyses.compare import GAMES, CompareAnswer, Words, compare
from reports._runs import scaled
from reports.compare_page import _figure, _tables
from reports.sections import Section
from reports.words import player_label
from simulate.errors import Interrupted

# Games per variation (and the base) at scale 1, and deals of the search check: sized for the
# report's time (the check's search rung is slow); `rumsim compare GAME -n N --check-n M`
# asks the same with more.
GAMES_PER_VARIATION = 30_000
CHECK_DEALS = 200


@dataclass(frozen=True)
class Shorter(Section):
    """The page's shorter-game variations among skilled players."""

    seed: int = 1
    games: int = GAMES_PER_VARIATION
    check_deals: int = CHECK_DEALS

    key = "compare"

    @staticmethod
    def applies(game: str) -> bool:
        return game in GAMES

    def uses(self, meta: dict) -> str | None:
        return None  # plays its own lockstep runs

    def play(self, info, scale: float, backend: str, progress, workers, cluster,
             store=None) -> tuple[CompareAnswer, str]:
        import simulate

        n = scaled(self.games, scale, 20)
        check_n = scaled(self.check_deals, scale, 2)
        played = functools.partial(simulate.run, keep=False, progress=progress,
                                   workers=workers, backend=backend, cluster=cluster,
                                   store=store)

        def run(*args, **kwargs):
            # a stopped run stops the page, as the page's planned runs do (reports._runs)
            try:
                res = played(*args, **kwargs)
            except Interrupted:
                raise Interrupted(f"stopped before the shorter games of the {info.title} "
                                  "page") from None
            if res.meta.get("interrupted"):
                raise Interrupted(f"the shorter games of the {info.title} page stopped after "
                                  f"{res.meta['games']:,} games")
            return res
        answer = compare(info, n=n, seed=self.seed, check_n=check_n, play=run,
                         labels=lambda spec: player_label(info.policy(spec)))
        command = (f"rumsim compare {info.name} -n {n} --check-n {check_n} --seed {self.seed} "
                   f"--out DIR")
        return answer, command

    def analyse(self, info, results) -> None:
        return None  # a page rendered from runs alone has no comparison

    def tables(self, result) -> dict[str, pd.DataFrame]:
        if result is None:
            return {}
        return {"shorter": result[0].rows}

    def write(self, page, result) -> None:
        page.heading("Shorter games among skilled players")
        if result is None:
            page.paragraph("This page was built without its shorter-game comparison.",
                           css="note")
            return
        answer, command = result
        page.paragraph(answer.meta["headline"] + ".")
        page.bullets(answer.sentences(), css="answer")
        length, feel = _tables(answer)
        page.table(length, caption=f"How much shorter, and the first player's edge "
                                   f"({answer.meta['base_label']} → variation; change [95% "
                                   "interval])")
        page.table(feel, caption="What it breaks: how the game feels (base → variation; "
                                 "change [95% interval], in percentage points for shares)")
        png = _figure(answer)
        if png is not None:
            page.figure(png, "each variation's change of the first player's edge and of the "
                             "game-feel shares, with 95% intervals",
                        "Each variation's change against the base rules on the same deals, "
                        "in percentage points, with its 95% interval.")
        page.paragraph("The same at the terminal (with an HTML page of its own):")
        page.code(command)

    def methods(self, result) -> list[str]:
        return list(result[0].method) if result is not None else []

    def index_lines(self, result) -> list[str]:
        """One line per variation for the index: how many rounds shorter, and what happens
        to the first player's edge, with their intervals."""
        if result is None:
            return []
        answer = result[0]
        words = Words()
        out = []
        for name in answer.names:
            parts = []
            r = answer.row(name, "rounds_mean")
            if r is not None:
                parts.append(f"{abs(r['diff']):.1f} rounds {'shorter' if r['diff'] < 0 else 'longer'} "
                             f"[{abs(r['high'] if r['diff'] < 0 else r['low']):.1f}, "
                             f"{abs(r['low'] if r['diff'] < 0 else r['high']):.1f}]")
            e = answer.row(name, "edge_change")
            if e is not None and isinstance(e["words"], str):
                parts.append(words.fill(e["words"]))
            out.append(f"{name}: " + "; ".join(parts) + ".")
        return out
