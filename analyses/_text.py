"""Plain-text tables for the terminal, shared by the analyses' ``render_text`` methods."""

from __future__ import annotations

from collections.abc import Sequence


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], gap: int = 2) -> str:
    """Columns padded to their widest cell; the first column left-aligned, the rest too.

    Left alignment everywhere keeps 'share [low, high]' cells readable; a
    rule of dashes separates the header from the rows.
    """
    cells = [list(map(str, headers)), *[list(map(str, r)) for r in rows]]
    widths = [max(len(row[j]) for row in cells) for j in range(len(headers))]
    pad = " " * gap

    def line(row: list[str]) -> str:
        return pad.join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()

    rule = pad.join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule, *(line(r) for r in cells[1:])])


def zero_share(n: int) -> str:
    """A share with no event in ``n`` trials, never a certain 0: its exact one-sided 95% upper
    bound 1 - 0.05^(1/n), which the rule of three approximates as 3/n (Hanley and
    Lippman-Hand 1983)."""
    return f"0 of {n:,} (<= {1 - 0.05 ** (1 / n):.2%} by the rule of three)"
