"""The one-page HTML diff of ``rumsim compare``: shorter-game variations against the base rules.

``files(answer, command)`` is everything ``compare --out DIR`` writes, by file name:
``compare.html`` (the answer first, one row per variation with base → variation and the
change, one small figure, the method and glossary, the command that makes it again),
``compare.json`` (the answer as JSON, no NaN) and ``compare.csv`` (its tidy rows). The page
names players in a designer's words (``reports.words.player_label``, given by the caller
in the answer's meta); the exact specifications sit in the footnote.
"""

from __future__ import annotations

import json

import pandas as pd

from analyses.compare import FEEL, CompareAnswer, finite
from reports import figures
from reports.html import Page, _esc

HTML, JSON, CSV = "compare.html", "compare.json", "compare.csv"


def files(answer: CompareAnswer, command: str) -> dict[str, bytes]:
    """The page, its JSON and its CSV, by file name."""
    data = {**answer.to_json(), "command": command}
    return {HTML: render(answer, command).encode("utf-8"),
            JSON: (json.dumps(finite(data), indent=2, allow_nan=False, ensure_ascii=False)
                   + "\n").encode("utf-8"),
            CSV: answer.to_csv().encode("utf-8")}


def render(answer: CompareAnswer, command: str) -> str:
    m = answer.meta
    page = Page(f"{m['title']}: do the shorter-game variations shorten the game, and what do "
                "they break?", m["headline"] + ".")
    if answer.partial():
        page.blocks.append('<p class="partial"><strong>'
                           + _esc(f"Partial: {answer.partial()}; the answer rests on the games "
                                  "that finished.") + "</strong></p>")
    page.heading("The answer")
    # one sentence per variation, then what the verdicts can be trusted for
    items = "".join(f"<li>{_esc(s)}</li>" for s in answer.sentences())
    page.blocks.append(f'<div class="answer"><ul>{items}</ul><p class="note">'
                       + _esc(answer.method[-2]) + "</p></div>")
    length, feel = _tables(answer)
    page.table(length, caption=f"How much shorter, and the first player's edge "
                               f"({m['base_label']} → variation; change [95% interval])")
    page.table(feel, caption="What it breaks: how the game feels (base → variation; change "
                             "[95% interval], in pp for shares)")
    png = _figure(answer)
    if png is not None:
        page.figure(png, "changes of the first player's edge and of each game-feel share, "
                         "per variation, with 95% intervals",
                    "Each variation's change against the base rules on the same deals, in "
                    "percentage points, with its 95% interval; the shaded band is "
                    f"±{100 * m['margin']:g} pp around no change.")
    page.heading("How this was made")
    page.bullets(answer.method, css="note")
    page.paragraph("Glossary: " + "; ".join(f"{g.label}: {g.definition}" for g in FEEL)
                   + "; first player's edge: the first player's win share minus the fair "
                   "share 1/P (a shared win counts 1/k); pp: percentage points.", css="note")
    specs = [f"skilled player: {m['policy']}"]
    if m.get("check"):
        specs.append(f"search player: {m['check']}")
    page.paragraph("Players as specified: " + "; ".join(specs) + ".", css="source")
    page.paragraph("The same command makes this page again (the same seed plays the same "
                   "games, whatever the threads):")
    page.code(command)
    page.paragraph(f"Beside this page: {JSON} (the answer as data) and {CSV} (one row per "
                   "variation and quantity, with every p-value before and after Holm's "
                   "adjustment).", css="note")
    return page.render()


def _tables(answer: CompareAnswer) -> tuple[pd.DataFrame, pd.DataFrame]:
    table = answer.table()
    feel_heads = {m.label + (" (%)" if m.share else "") for m in FEEL}
    first = [c for c in table.columns if c not in feel_heads]
    second = ["variation"] + [c for c in table.columns if c in feel_heads]
    return table[first].fillna(""), table[second].fillna("")


def _figure(answer: CompareAnswer) -> bytes | None:
    rows = answer.rows
    keep = rows[(rows["metric"] == "edge_change")
                | rows["metric"].isin([m.name for m in FEEL if m.share])]
    if not len(keep):
        return None
    frame = pd.DataFrame({
        "label": [r["label"] for _, r in keep.iterrows()],
        "group": keep["variation"].to_numpy(),
        "estimate": 100 * keep["diff"].to_numpy(float),
        "low": 100 * keep["low"].to_numpy(float), "high": 100 * keep["high"].to_numpy(float)})
    # grouped by quantity, the variations side by side
    order = {m: i for i, m in enumerate(dict.fromkeys(frame["label"]))}
    frame = frame.sort_values("label", key=lambda s: s.map(order), kind="stable")
    frame["label"] = [f"{lab} ({g})" for lab, g in zip(frame["label"], frame["group"],
                                                       strict=True)]
    return figures.interval_dots(frame.reset_index(drop=True), "Change against the base rules",
                                 "change, percentage points", reference=0.0,
                                 width=6.0, band=100 * answer.meta["margin"])


__all__ = ["CSV", "HTML", "JSON", "files", "render"]
