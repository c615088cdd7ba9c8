"""The report's index: each game's headline answer and figure, and the games side by side.

``index_html(entries, ...)`` writes ``index.html`` from each listed page's
:class:`~reports.headline.Summary` (read back from ``<page>_summary.json``
beside it, so pages built by an earlier build keep their headline): per game
its one-sentence answer with its interval and verdict, one small figure and a
link to its page, then one table of every game: players, policies, mean
length, the first player's edge per player count under each policy, the
verdicts and the games played. It ends with the command that rebuilds the
whole report and what the report's scale was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reports.headline import CARD, Summary
from reports.html import Page, esc


@dataclass
class Entry:
    """One game's line of the index: its page, title, blurb and headline (None: not built)."""

    filename: str
    title: str
    blurb: str
    summary: Summary | None
    note: str = ""


def summary_files(filename: str) -> tuple[str, str]:
    """The names of a page's saved headline: (summary JSON, figure PNG)."""
    stem = filename.removesuffix(".html")
    return f"{stem}_summary.json", f"{stem}_headline.png"


def read_summary(folder: Path, filename: str) -> Summary | None:
    """A page's headline saved beside it, None if it has none (a page of an older build)."""
    js, png = summary_files(filename)
    try:
        text = (folder / js).read_text(encoding="utf-8")
    except OSError:
        return None
    figure = (folder / png).read_bytes() if (folder / png).exists() else None
    try:
        return Summary.from_json(text, figure)
    except (ValueError, TypeError):
        return None


_esc = esc  # the pages' one escape (it also writes a signed zero plainly)


def _value(v) -> str:
    """A card's entry: a sentence, or one line per item (the shorter-game variations)."""
    if isinstance(v, list):
        return '<ul class="lines">' + "".join(f"<li>{esc(x)}</li>" for x in v) + "</ul>"
    return esc(v)


def index_html(title: str, entries: Sequence[Entry], intro: str, command: str,
               scale_note: str, footer: str, notice: str | None = None) -> str:
    """The index: one card per game (its question, the answer among skilled players, the
    verdicts, the fix and the small figure of the same players), then how to rebuild it."""
    page = Page(title)
    if notice:
        page.blocks.append(f'<p class="partial"><strong>{_esc(notice)}</strong></p>')
    page.paragraph(intro)
    cards = []
    for e in entries:
        out = [f'<article class="card"><h2><a href="{_esc(e.filename)}">{_esc(e.title)}</a></h2>']
        s = e.summary
        if s is None:
            out.append(f'<p class="note">{_esc(e.blurb + e.note)}</p>')
        else:
            row = s.row
            if row.get("question"):
                out.append(f'<p class="question"><strong>{_esc(row["question"])}</strong></p>')
            out.append(f"<p>{_esc(s.sentence + e.note)}</p>")
            terms = [(k, row[k]) for k in CARD[1:] if row.get(k)]
            if terms:
                out.append("<dl>" + "".join(f"<dt>{_esc(k.capitalize())}</dt><dd>{_value(v)}</dd>"
                                            for k, v in terms) + "</dl>")
            if s.figure is not None:
                _, png = summary_files(e.filename)
                out.append(f'<figure class="small"><img src="{_esc(png)}" '
                           f'alt="{_esc(s.figure_alt)}"></figure>')
        out.append(f'<p><a href="{_esc(e.filename)}">The whole answer and its evidence '
                   f"&rarr;</a></p></article>")
        cards.append("".join(out))
    page.blocks.append('<div class="cards">' + "\n".join(cards) + "</div>")
    page.paragraph(scale_note, css="note")
    page.paragraph("Rebuild this whole report (same seeds, same numbers):")
    page.code(command)
    page.paragraph(footer, css="note")
    return page.render()
