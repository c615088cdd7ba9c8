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

import html
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reports.headline import COLUMNS, Summary
from reports.html import Page


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


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def index_html(title: str, entries: Sequence[Entry], intro: str, command: str,
               scale_note: str, footer: str, notice: str | None = None) -> str:
    page = Page(title)
    if notice:
        page.blocks.append(f'<p class="partial"><strong>{_esc(notice)}</strong></p>')
    page.paragraph(intro)
    page.heading("The answers")
    for e in entries:
        page.blocks.append(f'<h3><a href="{_esc(e.filename)}">{_esc(e.title)}</a></h3>')
        if e.summary is None:
            page.paragraph(f"{e.blurb}{e.note}", css="note")
            continue
        page.paragraph(e.summary.sentence + e.note, css="answer")
        if e.summary.figure is not None:
            _, png = summary_files(e.filename)
            page.blocks.append(f'<figure class="small"><img src="{_esc(png)}" '
                               f'alt="{_esc(e.summary.figure_alt)}"></figure>')
    page.heading("The games side by side")
    head = "".join(f"<th>{_esc(c)}</th>" for c in ("game", *COLUMNS))
    rows = []
    for e in entries:
        cells = [f'<td><a href="{_esc(e.filename)}">{_esc(e.title)}</a></td>']
        row = e.summary.row if e.summary is not None else {}
        cells += [f"<td>{_esc(row.get(c, '') or '-')}</td>" for c in COLUMNS]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    page.blocks.append('<div class="wide"><table><caption>Every game: the first player\'s '
                       'edge (win share minus 1/P) per player count and policy with its 95% '
                       'interval, the seat verdict within ±2 pp, the mean length with its '
                       f'interval</caption><thead><tr>{head}</tr></thead><tbody>'
                       + "\n".join(rows) + "</tbody></table></div>")
    page.paragraph(scale_note, css="note")
    page.paragraph("Rebuild this whole report (same seeds, same numbers):")
    page.code(command)
    page.paragraph(footer, css="note")
    return page.render()
