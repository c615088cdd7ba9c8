"""A game's report page, declared; and the frame every page is written in.

A page module ``reports/<game>.py`` declares one :class:`GamePage`: its file,
title and index blurb, the runs it plays, the sections it shows (each
presents one registered analysis, see :mod:`reports.sections`) and the
sentences of its answer. :meth:`GamePage.render` writes the frame around
them, the same on every page:

1. the title and subtitle;
2. "The answer": the page's sentences, computed from the sections' answers;
3. "How to read this page": the page's own words;
4. the sections, in the order declared;
5. "How this page was made": the runs table, the rules, policies, seeds,
   time and versions, each section's method, the command that reproduces
   the page and the CSV files beside it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from engines import get_game
from reports._runs import RunSpec, Tallied, play, runs_frame, tallied
from reports.answer import Asked, write_answer
from reports.answer import build as build_answer
from reports.headline import Summary, from_answer, games_played, multi_player_summary
from reports.html import Page, esc, links
from reports.provenance import run_hash, versions_line
from reports.sections import Section, policy_names
from reports.words import glossary_terms
from simulate.results import Results

Answers = Mapping[str, Any]  # a section's key -> what its analysis answered


@dataclass
class PageOutput:
    """A built page: its file name, title, index blurb, HTML text and tables (CSV name -> frame)."""

    filename: str
    title: str
    blurb: str
    html: str
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    elapsed_s: float = 0.0
    summary: Summary | None = None   # the index's headline of this page


def contents_html(folds: list[tuple[str, str]]) -> str:
    """The contents list: a link to each folded part of the page."""
    if not folds:
        return ""
    items = "".join(f'<li><a href="#{esc(a)}">{esc(t)}</a></li>' for a, t in folds)
    return f'<nav id="contents"><h2>The evidence</h2><ol>{items}</ol></nav>'


def presets_sentence(info, presets: list[str]) -> str:
    """'Rules: ...' naming each preset played with the rulebook's words for it."""
    return ("Rules: " + "; ".join(f"'{p}' ({info.rules_cls.PRESETS.get(p, (p,))[0]})"
                                  for p in presets)
            + f"; every other option at its default (rumsim rules {info.name} lists them).")


@dataclass(frozen=True)
class GamePage:
    """One game's page: what it is called, what it plays, what it shows and how it answers.

    The index lists it under the game's title with ``blurb``.
    ``plan(scale)`` lists the runs; ``columns`` are the outcome columns the
    sections read and ``per_seat`` the per-seat ones by prefix ('win' keeps
    win_0, win_1, ...), so a page keeps only what it uses. ``reading``
    turns the sections' answers into the answer's sentences;
    ``how_to_read`` writes that part of the page; ``answer_first`` (if any) writes the
    page's answer block (its question, answer and fix, and the table they rest on) first
    under "The answer", before the sections' leads; ``rules`` says which rules
    were played (default: each preset with the rulebook's description).
    """

    game: str
    filename: str
    title: str
    subtitle: str
    blurb: str
    plan: Callable[[float], list[RunSpec]]
    sections: tuple[Section, ...]
    reading: Callable[[Answers], list[str]]
    how_to_read: Callable[[Page, Answers], None]
    columns: tuple[str, ...] = ()
    per_seat: tuple[str, ...] = ()
    rules: Callable[[Any, list[str]], str] = presets_sentence
    # The index's headline from the answers and runs (default: the multi-player one).
    summary: Callable[[Answers, Mapping[str, Any]], Summary] = multi_player_summary
    # The page's question and the words its answer block needs (reports.answer).
    asked: Asked | None = None
    # A page that words its own answer block (Rum Runner's bands per skill level).
    answer_first: Callable[[Page, Answers], None] | None = None

    def __post_init__(self):
        from reports.sections.shorter import Shorter

        if Shorter.applies(self.game) and not any(s.key == Shorter.key for s in self.sections):
            # every page of a game with shorter-game presets plays them among skilled players
            object.__setattr__(self, "sections", (*self.sections, Shorter()))
        keys = [s.key for s in self.sections]
        if len(set(keys)) < len(keys):
            # The sentences read each answer by its analysis' name.
            raise ValueError(f"{self.filename}: one section per analysis, not {keys}")

    @property
    def stem(self) -> str:
        """What the page's files are named after: 'montego_bay' for montego_bay.html."""
        return self.filename.removesuffix(".html")

    def keeps(self, column: str) -> bool:
        return column in self.columns or column.startswith(tuple(f"{p}_" for p in self.per_seat))

    def build(self, scale: float = 1.0, backend: str = "fast", progress: bool | None = None,
              workers: int | None = None, command: str | None = None,
              cluster=None, store=None) -> PageOutput:
        """Play the plan at ``scale`` (here, or on a Dask ``cluster``) and render the page;
        ``store`` is handed to the sections that play their own runs."""
        started = time.perf_counter()
        results = self.run_plan(self.plan(scale), backend=backend, progress=progress,
                                workers=workers, cluster=cluster)
        info = get_game(self.game)
        own = {s.key: a for s in self.sections
               if (a := s.play(info, scale, backend, progress, workers, cluster, store=store))
               is not None}
        return self.render(results, command or f"rumsim report {self.game} --out DIR",
                           started=started, own=own)

    def run_plan(self, specs: list[RunSpec], backend: str = "fast", progress: bool | None = None,
                 workers: int | None = None, cluster=None) -> dict[str, Tallied]:
        """Play every planned run; label -> its metadata and the sections' tallies (no rows
        are kept; see ``reports._runs.play``)."""
        return play(get_game(self.game), specs, self.sections, self.keeps, backend, progress,
                    workers, cluster)

    def render(self, results: dict[str, Tallied | Results], command: str,
               started: float | None = None, own: Answers | None = None) -> PageOutput:
        """The page for runs already made (label -> Tallied, or Results whose whole frames
        are then tallied once; meta carries 'preset').

        ``started`` (a ``time.perf_counter()`` value) lets the page state how
        long the whole build took, simulations included. ``own``: the answers of sections
        that played their own games (``Section.play``), by key.
        """
        info = get_game(self.game)
        results = tallied(info, self.sections, results, self.keeps)
        for label, r in results.items():  # every figure names the runs it came from
            r.meta["label"] = label
            r.meta["hash"] = run_hash(r.meta)
        own = own or {}
        answers = {s.key: own[s.key] if s.key in own else s.analyse(info, results)
                   for s in self.sections}
        runs, shown = self._runs(results, answers)
        tables = {f"{self.stem}_{name}.csv": frame for s in self.sections
                  for name, frame in s.tables(answers[s.key]).items()}
        tables[f"{self.stem}_runs.csv"] = runs

        page = Page(self.title, self.subtitle, back=("index.html", "All games"))
        answer = (build_answer(info, self.asked, answers.get("strength"), answers.get("tune"),
                               command) if self.asked is not None else None)
        if answer is not None:
            write_answer(page, answer)
        leads = [text for s in self.sections if hasattr(s, "lead")
                 for text in s.lead(answers[s.key])]
        if answer is None:  # a page without a declared question words its own answer
            page.raw('<section id="answer">')
            page.heading("The answer")
            if self.answer_first is not None:
                self.answer_first(page, answers)
            else:  # its sentences lead
                for text in leads + self.reading(answers):
                    page.paragraph(text)
            page.raw("</section>")
        folds: list[tuple[str, str]] = []

        def fold(anchor: str, write, summary: str | None = None) -> None:
            start = page.mark()
            write()
            if page.mark() > start:
                folds.append((anchor, page.fold(start, anchor, summary)))

        contents_at = page.mark()
        if answer is not None:
            fold("beginners", lambda: page.bullets(self.reading(answers)),
                 "The answer in detail: experts at every player count, then beginners")
        elif self.answer_first is not None:
            fold("more", lambda: page.bullets(leads + self.reading(answers)),
                 "More of the answer")
        for s in self.sections:
            def section(s=s):
                s.write(page, answers[s.key])
                used = [(label, r.meta.get("hash", "")) for label, r in results.items()
                        if s.uses(r.meta)]
                if used:  # every figure and table names the runs it came from
                    page.paragraph("Figures and tables of this section come from the runs "
                                   + "; ".join(f"'{label}' ({h})" for label, h in used)
                                   + " (see the runs table).", css="source")
            fold(f"section-{s.key}", section)
        fold("reading", lambda: self.how_to_read(page, answers), "How to read this page")

        def made() -> None:
            page.heading("How this page was made")
            page.table(shown, caption="Runs (each game of a run seeded from (seed, game index))",
                       formats={"seconds": "{:.1f}"})
            page.bullets([*self._made(info, results, runs, started),
                          *(line for s in self.sections for line in s.methods(answers[s.key]))])
            page.paragraph("Reproduce this page (same seeds, same numbers; the times will "
                           "differ):")
            page.code(command)
            page.raw('<p class="note">Tables as CSV: '
                     + links((name, name) for name in sorted(tables)) + ".</p>")
        fold("made", made)
        terms = glossary_terms(" ".join(page.blocks))
        if terms:
            fold("glossary", lambda: page.raw(
                '<dl class="glossary">' + "".join(f"<dt>{esc(t)}</dt><dd>{esc(d)}</dd>"
                                                 for t, d in terms.items()) + "</dl>"),
                 "Words used on this page")
        page.blocks.insert(contents_at, contents_html(folds))
        elapsed = time.perf_counter() - started if started else 0.0
        if answer is not None:  # the index's card says what the page's first screen says
            summary = from_answer(answer, games_played(results))
            shorter = [line for s in self.sections if hasattr(s, "index_lines")
                       for line in s.index_lines(answers[s.key])]
            if shorter:
                summary.row["shorter games"] = shorter
        else:
            summary = self.summary(answers, results)
            for s in self.sections:  # the skilled-play sentence leads the card
                if hasattr(s, "lead"):
                    summary.sentence = " ".join([*s.lead(answers[s.key]), summary.sentence])
        return PageOutput(self.filename, self.title, self.blurb, page.render(), tables, elapsed,
                          summary)

    def _runs(self, results: dict[str, Results],
              answers: Answers) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The runs table as written (CSV) and as shown, from a section that tabulates the runs
        itself, else one row per run, saying what each served when the runs serve different
        sections."""
        for s in self.sections:
            own = s.runs(answers[s.key])
            if own is not None:
                # The runs that section does not tabulate (another section's) follow its own.
                runs, shown = (f.assign(hash=[results[k].meta.get("hash", "")
                                              for k in f["label"]]) for f in own)
                rest = {k: r for k, r in results.items() if k not in set(runs["label"])}
                if rest:
                    more = runs_frame(rest)
                    runs = pd.concat([runs, more[[c for c in more if c in runs]]],
                                     ignore_index=True)
                    more = more.rename(columns={"elapsed_s": "seconds"})
                    shown = pd.concat([shown, more[[c for c in more if c in shown]]],
                                      ignore_index=True)
                return runs, shown
        used = {label: " and ".join(w for s in self.sections if (w := s.uses(res.meta)))
                for label, res in results.items()}
        runs = runs_frame(results, used if len(set(used.values())) > 1 else None)
        return runs, runs.rename(columns={"elapsed_s": "seconds"})

    def _made(self, info, results: dict[str, Results], runs: pd.DataFrame,
              started: float | None) -> list[str]:
        """The bullets every page states: rules, policies, seeds, time, versions."""
        metas = [r.meta for r in results.values()]
        versions = metas[0].get("versions")
        backends = ", ".join(sorted({str(m.get("backend")) for m in metas}))
        policies = policy_names(metas)
        # "in every seat" only when it is true of every run: several seats, one policy.
        every_seat = all(m.get("players", 1) > 1 and len(set(m.get("policies", []))) == 1
                         for m in metas)
        return [
            self.rules(info, sorted({m["preset"] for m in metas})),
            f"Policies: {policies}{' in every seat' if every_seat else ''}.",
            f"Seeds: {', '.join(str(s) for s in dict.fromkeys(runs['seed']))}; games: "
            f"{int(runs['games'].sum()):,} in all; backend: {backends}.",
            f"Simulation time: {runs['elapsed_s'].sum():,.1f} s"
            + (f"; whole page: {time.perf_counter() - started:,.1f} s." if started else "."),
            ("Provenance: " + versions_line(metas[0]) + "; each run's hash (the runs table) "
             "fingerprints its game, players, rules, policies, seed and games: the same hash "
             "plays the same games on any machine, thread count or backend.") if versions
            else "Versions: not recorded.",
        ]
