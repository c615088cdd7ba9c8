"""A tiny self-contained HTML page builder: headings, text, tables, embedded PNG figures.

Pages have no external assets and no JavaScript: figures are inlined as
base64 ``data:image/png`` URIs and the style sheet sits in the page, so a
report folder can be mailed or opened offline. All text is escaped.
"""

from __future__ import annotations

import base64
import html
import math
import re
from collections.abc import Callable, Iterable, Mapping

import pandas as pd

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 62rem;
       margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.25rem; margin-top: 2rem; }
.sub { color: #666; margin-top: 0; }
/* A table scrolls inside its own box when it is wider than the page (a phone, many columns);
   its caption stays in view, as wide as the box. */
.wide { overflow-x: auto; margin: .8rem 0; container-type: inline-size; }
table { border-collapse: collapse; margin: 0; font-size: .88rem; }
th, td { border-bottom: 1px solid #ddd; padding: .25rem .6rem; text-align: left;
         vertical-align: top; }
th { background: #f4f4f4; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { caption-side: top; text-align: left; font-weight: 600; padding-bottom: .3rem;
          position: sticky; left: 0; max-width: 100cqi; }
figure { margin: 1rem 0; } figure img { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .88rem; }
pre { background: #f6f6f6; padding: .6rem .8rem; overflow-x: auto; }
.note { color: #555; font-size: .9rem; }
.source { color: #777; font-size: .78rem; }
figure.small img { max-width: min(100%, 28rem); }
.answer { background: #f3f7fb; border-left: 4px solid #4a7ab5; padding: .6rem 1rem; }
.partial { background: #fdf3e7; border-left: 4px solid #c0392b; padding: .6rem 1rem; }
nav.back { font-size: .9rem; margin-bottom: .4rem; }
section#answer { background: #f3f7fb; border-left: 4px solid #4a7ab5; padding: .2rem 1.1rem .4rem;
                 margin-top: 1rem; }
section#answer h2 { margin-top: .8rem; }
section#answer p { margin: .45rem 0; }
section#answer dl { margin: .3rem 0; } section#answer dt { font-weight: 600; margin-top: .35rem; }
section#answer dd { margin-left: 1.2rem; }
section#answer code { background: #e8eef5; padding: 0 .2rem; overflow-wrap: anywhere; }
section#why figure { margin: .4rem 0; } section#why img { max-width: min(100%, 34rem); }
nav#contents ol { columns: 2; margin: .3rem 0; }
details { border-top: 1px solid #ddd; padding: .2rem 0; }
details > summary { cursor: pointer; list-style-position: outside; margin-left: 1.1rem; }
details > summary > h2, details > summary > h3 { display: inline; font-size: 1.1rem; }
details[open] > summary { margin-bottom: .6rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(28rem, 100%), 1fr));
         gap: 1rem; }
.card { border: 1px solid #ddd; border-radius: 6px; padding: .2rem 1rem .6rem; }
.card h2 { margin-top: .6rem; font-size: 1.15rem; } .card p, .card dd { font-size: .88rem; }
.card p { margin: .4rem 0; }
.card dt { font-weight: 600; font-size: .88rem; } .card dd { margin-left: 1rem; }
.card figure.small { margin: .4rem 0; } .card figure.small img { max-width: min(100%, 22rem); }
ul.lines { margin: .2rem 0; padding-left: 1.1rem; } ul.lines li { margin: .15rem 0; }
dl.glossary dt { font-weight: 600; } dl.glossary dd { margin: 0 0 .5rem 1.2rem; }
p, li, figcaption, caption { overflow-wrap: break-word; }
@media (max-width: 40rem) {
  body { margin: 1rem auto; }
  table { font-size: .8rem; } th, td { padding: .2rem .4rem; }
}
"""

Formatter = str | Callable[[object], str]


class Page:
    """Collects the blocks of one page in order; :meth:`render` returns the HTML text."""

    def __init__(self, title: str, subtitle: str | None = None,
                 back: tuple[str, str] | None = None):
        self.title = title
        self.blocks: list[str] = []
        if back:  # a way back to where the reader came from (the index)
            self.blocks.append(f'<nav class="back"><a href="{_esc(back[0])}">&larr; '
                               f"{_esc(back[1])}</a></nav>")
        self.blocks.append(f"<h1>{_esc(title)}</h1>")
        if subtitle:
            self.blocks.append(f'<p class="sub">{_esc(subtitle)}</p>')

    def raw(self, markup: str) -> Page:
        """Markup this module's callers built from escaped parts (``esc``, ``links``)."""
        self.blocks.append(markup)
        return self

    def mark(self) -> int:
        """Where the next block goes (for :meth:`fold`)."""
        return len(self.blocks)

    def fold(self, start: int, anchor: str, summary: str | None = None) -> str:
        """Fold the blocks written since ``start`` into ``<details id=anchor>``: its summary
        is ``summary``, else the first of those blocks when it is a heading (which then
        moves into the summary). Returns the summary's text."""
        inner = self.blocks[start:]
        del self.blocks[start:]
        title = summary
        head = f"<h2>{_esc(summary)}</h2>" if summary else ""
        if summary is None and inner and inner[0].startswith("<h2"):
            head = inner.pop(0)
            title = html.unescape(head[head.index(">") + 1: head.rindex("</h2>")])
        self.blocks.append(f'<details id="{_esc(anchor)}"><summary>{head}</summary>\n'
                           + "\n".join(inner) + "\n</details>")
        return title or anchor

    def heading(self, text: str, level: int = 2, anchor: str | None = None) -> Page:
        ident = f' id="{_esc(anchor)}"' if anchor else ""
        self.blocks.append(f"<h{level}{ident}>{_esc(text)}</h{level}>")
        return self

    def paragraph(self, text: str, css: str | None = None) -> Page:
        cls = f' class="{_esc(css)}"' if css else ""
        self.blocks.append(f"<p{cls}>{_esc(text)}</p>")
        return self

    def bullets(self, items: Iterable[str], css: str | None = None) -> Page:
        cls = f' class="{_esc(css)}"' if css else ""
        rows = "".join(f"<li>{_esc(i)}</li>" for i in items)
        self.blocks.append(f"<ul{cls}>{rows}</ul>")
        return self

    def code(self, text: str) -> Page:
        self.blocks.append(f"<pre><code>{_esc(text)}</code></pre>")
        return self

    def link(self, href: str, text: str, before: str = "", after: str = "") -> Page:
        self.blocks.append(f'<p>{_esc(before)}<a href="{_esc(href)}">{_esc(text)}</a>'
                           f"{_esc(after)}</p>")
        return self

    def table(self, frame: pd.DataFrame, caption: str | None = None,
              formats: Mapping[str, Formatter] | None = None) -> Page:
        """A DataFrame as a table (index ignored); ``formats`` maps a column to a format
        string such as ``'{:.2f}'`` or to a function returning the cell text."""
        self.blocks.append(table_html(frame, caption, formats))
        return self

    def figure(self, png: bytes, alt: str, caption: str | None = None) -> Page:
        data = base64.b64encode(png).decode("ascii")
        cap = f"<figcaption>{_esc(caption)}</figcaption>" if caption else ""
        self.blocks.append(f'<figure><img src="data:image/png;base64,{data}" alt="{_esc(alt)}">'
                           f"{cap}</figure>")
        return self

    def render(self) -> str:
        body = "\n".join(self.blocks)
        return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                f"<title>{_esc(self.title)}</title>\n<style>{STYLE}</style>\n</head>\n"
                f"<body>\n{body}\n</body>\n</html>\n")


def table_html(frame: pd.DataFrame, caption: str | None = None,
               formats: Mapping[str, Formatter] | None = None) -> str:
    """The HTML of one table; numeric cells are right-aligned."""
    formats = dict(formats or {})
    head = "".join(f"<th>{_esc(str(c))}</th>" for c in frame.columns)
    rows = []
    for values in frame.itertuples(index=False, name=None):
        cells = []
        for col, value in zip(frame.columns, values, strict=True):
            plain = value.item() if hasattr(value, "item") else value
            numeric = isinstance(plain, (int, float)) and not isinstance(plain, bool)
            css = ' class="num"' if numeric else ""
            cells.append(f"<td{css}>{_esc(format_cell(value, formats.get(col)))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{_esc(caption)}</caption>" if caption else ""
    # In a box of its own, which scrolls when the table is wider than the page.
    return (f'<div class="wide"><table>{cap}<thead><tr>{head}</tr></thead><tbody>'
            + "\n".join(rows) + "</tbody></table></div>")


def format_cell(value, fmt: Formatter | None = None) -> str:
    """Cell text: a format string or function if given; missing or infinite numbers as '-'."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()  # numpy scalar -> Python number
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return "-"
    if value is None:
        return "-"
    if fmt is None:
        if isinstance(value, float):
            return f"{value:,.4g}" if abs(value) < 1e4 else f"{value:,.0f}"
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}"
        return str(value)
    return fmt(value) if callable(fmt) else fmt.format(value)


def index_page(title: str, entries: Iterable[tuple[str, str, str]], intro: str = "",
               footer: str = "", notice: str | None = None) -> str:
    """An index page linking game pages: ``entries`` are (href, title, one-line blurb).

    ``notice`` is a banner at the top (a partial report says so there)."""
    page = Page(title)
    if notice:
        page.blocks.append(f'<p class="partial"><strong>{_esc(notice)}</strong></p>')
    if intro:
        page.paragraph(intro)
    items = "".join(f'<li><a href="{_esc(href)}">{_esc(name)}</a> &mdash; {_esc(blurb)}</li>'
                    for href, name, blurb in entries)
    page.blocks.append(f"<ul>{items}</ul>")
    if footer:
        page.paragraph(footer, css="note")
    return page.render()


# A zero written with a sign ('+0.0', '-0.00'): a reader sees a sign where there is none.
_SIGNED_ZERO = re.compile(r"(?<![\w.])[-+](0\.0+)(?![\d])")


# What a reader should never see: an interval or a number that is not one (nan, inf), from
# too few games or a player who won every game. Said in words instead, wherever it comes from.
_NO_INTERVAL = re.compile(r"\[\s*[-+]?(?:nan|inf)%?\s*,\s*[-+]?(?:nan|inf)%?\s*\]")
_INFINITE = re.compile(r"(?<![\w.])[-+]?inf\b")
_NAN = re.compile(r"(?<![\w.])nan%?(?![\w])")


def plain_numbers(text: str) -> str:
    """``text`` with a signed zero written plainly, an interval of nan or inf bounds said as
    having none, an infinite bound as unbounded and a lone nan as 'not available'."""
    text = _SIGNED_ZERO.sub(r"\1", str(text))
    if "nan" in text or "inf" in text:
        text = _NO_INTERVAL.sub("[no interval: too few games]", text)
        text = _INFINITE.sub("unbounded", text)
        text = _NAN.sub("not available", text)
    return text


def _esc(text: str) -> str:
    """Text for the page, escaped, its numbers plain (``plain_numbers``)."""
    return html.escape(plain_numbers(text), quote=True)


esc = _esc


def with_code(text: str) -> str:
    """Text whose `backticked` parts are code, escaped."""
    parts = str(text).split("`")
    return "".join(f"<code>{_esc(p)}</code>" if i % 2 else _esc(p)
                   for i, p in enumerate(parts))


def links(items: Iterable[tuple[str, str]], sep: str = ", ") -> str:
    """(href, text) pairs as links, escaped."""
    return sep.join(f'<a href="{_esc(h)}">{_esc(t)}</a>' for h, t in items)
