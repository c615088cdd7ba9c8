"""Build the HTML balance report: one page per game in ``PAGES``, an index, and CSV tables.

``build_report(out_dir, ...)`` is what ``rumsim report`` calls. Every file
is written atomically (temporary file, then rename), so an interrupted build
never leaves a half-written page. A build stopped by a signal keeps the pages that finished,
never writes a page with a run cut short, rewrites the index saying which pages were not built
and raises ``Interrupted``.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

from engines import GAMES, get_game
from engines._rules import closest
from reports.index import Entry, index_html, read_summary, summary_files
from reports.page import GamePage
from simulate.errors import Interrupted, UserError
from simulate.results import atomic_write_files, atomic_write_text, probe_writable, shown
from simulate.runner import StopFlag


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
QUICK_SCALE = 0.1  # `rumsim report --quick`: every page at this share of its game counts


def scale_note(scale: float) -> str:
    """What the report's scale means for its numbers, stated on the index."""
    if scale == 1.0:
        return "Game counts: each page's default sizes (scale 1)."
    return (f"Game counts: {scale:g} x each page's default sizes"
            + (" (rumsim report --quick)" if scale == QUICK_SCALE else "")
            + ": intervals are wider than the full report's; its verdicts are those the "
              "smaller counts can make.")


def report_command(out_dir: str | Path, games: Sequence[str], scale: float = 1.0,
                   backend: str = "fast") -> str:
    """The shell command that rebuilds this report with the same settings."""
    parts = ["rumsim", "report", *games, "--out", str(out_dir)]
    if scale == QUICK_SCALE:
        parts += ["--quick"]
    elif scale != 1.0:
        parts += ["--scale", f"{scale:g}"]
    if backend != "fast":
        parts += ["--backend", backend]
    return " ".join(parts)


def build_report(out_dir: str | Path, games: Sequence[str] | None = None, scale: float = 1.0,
                 progress: bool | None = None, backend: str = "fast",
                 workers: int | None = None, command: str | None = None,
                 cluster=None, command_all: str | None = None, store=None) -> list[Path]:
    """Build the pages of ``games`` (default: every game with a page) into ``out_dir``.

    ``store``: where the sections that play their own runs take and keep blocks (a
    ``simulate.store`` store, or ``reports.evidence.stores()``: the shipped evidence, then
    the user's run store); None plays everything.
    ``cluster``: a Dask backend (``simulate.cluster``) to play the runs on (None: here).
    ``scale`` multiplies every page's game counts (1.0: the full report);
    ``backend='reference'`` is for tests and checks at a tiny scale.
    ``command`` is the reproduction command printed on each page (default:
    :func:`report_command`). Returns the written paths, index last.
    """
    names = _check_games(games)
    if not (scale > 0 and math.isfinite(scale)):
        raise UserError(f"report scale must be a positive finite number, not {scale}")
    for name in names:  # a scale no run can be played at is refused before the folder is made
        PAGES[name].plan(scale)
    out = Path(out_dir)
    try:
        if out.exists() and not out.is_dir():
            raise UserError(f"--out '{shown(out)}' exists and is not a folder")
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a name the file system cannot hold, a folder in /proc ...
        raise UserError(f"--out '{shown(out)}': cannot make the folder "
                        f"({exc.strerror or exc})") from None
    # Refuse a folder no file can be written in before any game is played.
    probe_writable(out, PAGES[names[0]].filename if names else INDEX, f"--out '{out}'")
    written: list[Path] = []
    built: list[str] = []
    with _engines_ahead(names, backend, cluster, progress) as ahead:
        stopped = _build_pages(names, out, out_dir, scale, backend, progress, workers, command,
                               cluster, ahead, written, built, store)
    not_built = [n for n in names if n not in built]
    # Pages built earlier into the same folder stay linked from the index, said as such when
    # this build was stopped before rebuilding them.
    entries = []
    for p in PAGES.values():
        title = get_game(p.game).title
        if p.game in built or (p.game in names and stopped is None):
            entries.append(Entry(p.filename, title, p.blurb, read_summary(out, p.filename)))
        elif (out / p.filename).exists():
            entries.append(Entry(p.filename, title, p.blurb, read_summary(out, p.filename),
                                 " (from an earlier build: this build was interrupted before "
                                 "rebuilding it)" if p.game in not_built else
                                 " (from an earlier build)"))
    notice = None
    if stopped is not None:
        titles = ", ".join(get_game(n).title for n in not_built)
        notice = (f"Partial report: the build was interrupted ({stopped}). Not built: "
                  f"{titles}. " + ("Every page listed below was built completely. " if entries
                                   else "No page was built. ")
                  + f"Build the rest with: {report_command(out_dir, not_built, scale, backend)}")
    index = index_html(
        "rumsim balance report", entries,
        intro="Monte Carlo balance analysis of five tabletop games. Each game's answer below "
              "carries its 95% interval and verdict and links to its page, which says under "
              "which players the answer holds, how much of the result is luck, how the game "
              "feels, and the rules, policies, seeds, game counts and versions behind every "
              "figure.",
        command=command_all or report_command(out_dir, [], scale, backend),
        scale_note=scale_note(scale),
        footer="Every figure carries a 95% interval; tables are also written as CSV beside "
               "the pages.", notice=notice)
    path = out / INDEX
    atomic_write_text(path, index)
    written.append(path)
    if stopped is not None:
        kept = ", ".join(get_game(n).title for n in built) or "no page"
        exc = Interrupted(f"the report in '{out}' is partial ({stopped}): kept {kept}; not "
                          f"built: {', '.join(get_game(n).title for n in not_built)}; the "
                          "index says so")
        exc.written = written
        raise exc
    return written


def _build_pages(names, out, out_dir, scale, backend, progress, workers, command, cluster,
                 ahead, written, built, store=None) -> Interrupted | None:
    """Build and write each page in turn (``written``/``built`` grow as they finish); the
    interruption that stopped the build, or None."""
    for name in names:
        cmd = command or report_command(out_dir, [name], scale, backend)
        if ahead is not None:
            try:
                ahead.wait(name, stop=lambda: StopFlag.active is not None
                           and StopFlag.active.requested)
            except Interrupted as exc:
                return exc
        flag = StopFlag.active
        cut_before = len(flag.cut) if flag is not None else 0
        try:
            page = PAGES[name].build(scale=scale, backend=backend, progress=progress,
                                     workers=workers, command=cmd, cluster=cluster,
                                     store=store)
            if flag is not None and len(flag.cut) > cut_before:  # a run outside _runs.play
                run = flag.cut[-1]
                raise Interrupted(f"run {run['label']} of the {get_game(name).title} page "
                                  f"stopped after {run['games']:,} of {run['requested']:,} "
                                  "games")
        except Interrupted as exc:
            # A page with a run cut short is not written (see reports._runs.play); the pages
            # that finished are kept and the index says which were not built.
            return exc
        files = {out / filename: frame.to_csv(index=False).encode("utf-8")
                 for filename, frame in page.tables.items()}
        files[out / page.filename] = page.html.encode("utf-8")
        if page.summary is not None:  # the index's headline, kept beside the page
            js, png = summary_files(page.filename)
            files[out / js] = page.summary.to_json().encode("utf-8")
            if page.summary.figure is not None:
                files[out / png] = page.summary.figure
        # A page and its tables are renamed into place together: never from two builds.
        atomic_write_files(files)
        written += files
        built.append(name)
    return None


@contextmanager
def _engines_ahead(names, backend, cluster, progress):
    """The pages' engines compiling in other processes, one per core, in page order, while
    the pages whose engines are ready are built (None where nothing is compiled here: the
    reference backend, or a Dask cluster, whose workers compile their own)."""
    if backend != "fast" or cluster is not None:
        yield None
        return
    from simulate.compile import Ahead

    with Ahead(names, say=progress is not False) as ahead:
        yield ahead


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
