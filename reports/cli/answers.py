"""How a ``rumsim`` answer leaves the program: printed as a table, JSON or CSV, its tables
saved to ``--out FILE.csv``, and marked partial when a signal cut it short."""

from __future__ import annotations

import json
import math
from pathlib import Path

import typer

from simulate.errors import UserError


def echo(text: str = "") -> None:
    typer.echo(text)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def finite(obj):
    """JSON has no NaN or infinity: an unknown or unbounded figure is written as null."""
    if isinstance(obj, float) or (hasattr(obj, "dtype") and getattr(obj, "ndim", 1) == 0):
        value = float(obj) if hasattr(obj, "dtype") and obj.dtype.kind == "f" else obj
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return value
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def check_csv_out(out: Path | None) -> None:
    if out is None:
        return
    from simulate.results import check_not_folder_or_link, checked_folder, probe_writable, shown

    if out.suffix.lower() != ".csv":
        raise UserError(f"--out '{shown(out)}' must end in .csv")
    folder = checked_folder(out)
    probe_writable(folder, out.name, f"--out '{shown(out)}'")
    check_not_folder_or_link(out)


class Partial:
    """What an answer stopped by a signal rests on, said the same way by every command: a
    first line ``PARTIAL: ...`` in the text, a ``partial`` field in JSON and a ``partial``
    column in CSV (True on every row: it is the answer, not a row, that is partial; complete
    answers keep their columns as they are)."""

    def __init__(self, note: str, cut: dict | None = None, not_played: list[str] = ()):
        self.note, self.cut, self.not_played = note, cut, list(not_played)

    @classmethod
    def of(cls, cut: tuple[str, int, int] | None, not_played: list[str], what: str,
           planned: list[str]) -> Partial | None:
        """None when nothing was cut short or left out; else the note: 'interrupted after N of
        M games of WHAT; not played: X, Y' (``planned``: every run the command meant to play)."""
        if cut is None and not not_played:
            return None
        parts = []
        if cut is not None:
            name, games, requested = cut
            parts.append(f"interrupted after {games:,} of {requested:,} games of {name}")
        else:
            parts.append(f"interrupted before {what} {not_played[0]}")
        if not_played:
            parts.append(f"not played: {', '.join(not_played)}")
        parts.append(f"{len(planned) - len(not_played)} of {len(planned)} planned "
                     f"{'runs' if len(planned) > 1 else 'run'} shown")
        return cls("; ".join(parts),
                   {"name": cut[0], "games": cut[1], "requested": cut[2]} if cut else None,
                   not_played)

    def json(self) -> dict:
        return {"note": self.note, "cut_short": self.cut, "not_played": self.not_played}

    def csv(self, csv_text: str) -> str:
        import io

        import pandas as pd

        frame = pd.read_csv(io.StringIO(csv_text), dtype=str, keep_default_na=False)
        frame.insert(0, "partial", "True")
        return frame.to_csv(index=False)


def emit_answer(out: Path | None, fmt: str, csv_text: str, json_data, text,
                partial: Partial | None = None) -> None:
    """Write the CSV to ``--out`` if asked, then print the answer in the chosen format; an
    answer cut short by a signal is marked as partial in every one of them (``Partial``).

    ``text`` is a callable so only the chosen rendering is built.
    """
    if partial is not None:
        csv_text = partial.csv(csv_text)
        if isinstance(json_data, dict):
            json_data = {"partial": partial.json(), **json_data}
        typer.echo(f"partial: {partial.note}", err=True)
    if out is not None:
        from simulate.results import atomic_write_text

        atomic_write_text(out, csv_text)
        typer.echo(f"wrote {out}" + (" (partial)" if partial else ""), err=True)
    if fmt == "json":
        echo(json.dumps(finite(json_data), indent=2, default=float, allow_nan=False))
    elif fmt == "csv":
        echo(csv_text.rstrip("\n"))
    elif partial is not None:
        echo(f"PARTIAL: {partial.note}\n\n{text()}")
    else:
        echo(text())
