"""Build the HTML balance report: one page per game in ``PAGES``, an index, and CSV tables.

``build_report(out_dir, ...)`` is what ``rumsim report`` calls. Every file
is written atomically (temporary file, then rename), so an interrupted build
never leaves a half-written page.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Sequence
from pathlib import Path

from engines import GAMES, get_game
from engines._rules import closest
from reports.html import index_page
from reports.page import GamePage
from simulate.errors import UserError
from simulate.results import atomic_write_bytes, atomic_write_text, probe_writable


def _pages() -> dict[str, GamePage]:
    """Every game with a page, in the order of ``engines.GAMES``: the ``PAGE`` that
    ``reports/<game>.py`` declares (its name with '-' as '_')."""
    pages = {}
    for game in GAMES:
        module = "reports." + game.replace("-", "_")
        if importlib.util.find_spec(module) is None:
            continue
        page = importlib.import_module(module).PAGE
        if page.game != game:
            raise ValueError(f"{module} declares the page of '{page.game}', not '{game}'")
        pages[game] = page
    return pages


# A game joins the report by declaring its page in reports/<game>.py; the index lists the pages
# in this order.
PAGES: dict[str, GamePage] = _pages()

INDEX = "index.html"


def report_command(out_dir: str | Path, games: Sequence[str], scale: float = 1.0,
                   backend: str = "fast") -> str:
    """The shell command that rebuilds this report with the same settings."""
    parts = ["rumsim", "report", *games, "--out", str(out_dir)]
    if scale != 1.0:
        parts += ["--scale", f"{scale:g}"]
    if backend != "fast":
        parts += ["--backend", backend]
    return " ".join(parts)


def build_report(out_dir: str | Path, games: Sequence[str] | None = None, scale: float = 1.0,
                 progress: bool | None = None, backend: str = "fast",
                 workers: int | None = None, command: str | None = None) -> list[Path]:
    """Build the pages of ``games`` (default: every game with a page) into ``out_dir``.

    ``scale`` multiplies every page's game counts (1.0: the full report);
    ``backend='reference'`` is for tests and checks at a tiny scale.
    ``command`` is the reproduction command printed on each page (default:
    :func:`report_command`). Returns the written paths, index last.
    """
    names = _check_games(games)
    if not scale > 0:
        raise UserError(f"report scale must be positive, not {scale}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out '{out}' is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"--out '{out}': cannot make the folder ({exc.strerror or exc})") from None
    # Refuse a folder no file can be written in before any game is played.
    probe_writable(out, PAGES[names[0]].filename if names else INDEX, f"--out '{out}'")
    written: list[Path] = []
    for name in names:
        cmd = command or report_command(out_dir, [name], scale, backend)
        page = PAGES[name].build(scale=scale, backend=backend, progress=progress,
                                 workers=workers, command=cmd)
        for filename, frame in page.tables.items():
            path = out / filename
            atomic_write_text(path, frame.to_csv(index=False))
            written.append(path)
        path = out / page.filename
        atomic_write_bytes(path, page.html.encode("utf-8"))
        written.append(path)
    # Pages built earlier into the same folder stay linked from the index.
    entries = [(p.filename, get_game(p.game).title, p.blurb) for p in PAGES.values()
               if p.game in names or (out / p.filename).exists()]
    index = index_page(
        "rumsim balance report", entries,
        intro="Monte Carlo balance analysis of tabletop games: each page states its rules, "
              "policies, seeds, game counts and the command that reproduces it.",
        footer="Every figure carries a 95% interval; tables are also written as CSV beside "
               "the pages.")
    path = out / INDEX
    atomic_write_text(path, index)
    written.append(path)
    return written


def _check_games(games: Sequence[str] | None) -> list[str]:
    if not games:
        return list(PAGES)
    names = []
    for game in games:
        key = game.strip().lower().replace("_", "-")
        if key not in PAGES:
            raise UserError(f"no report page for game '{game}'" + closest(key, list(PAGES))
                            + f"; pages: {', '.join(PAGES)}")
        names.append(key)
    return list(dict.fromkeys(names))
