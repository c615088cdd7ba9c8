"""The report's evidence pack: the games its skilled-play verdicts rest on, played once and shipped as data.

A page's strength ladder at its main player count needs thousands of deals, each played in
every seating by search players, to decide its seat and convergence verdicts: far more than
a report can play in minutes. ``make evidence`` (``rumsim evidence make``) plays them once,
into ``reports/evidence/``: a run store (``simulate.store``: a registry and block files of
tallies, never rows) committed with the code, each block recording the command, seed,
commit and date that made it. ``rumsim report`` reads the pack first, then the user's run
store, and plays only what neither holds (``simulate.store.Layered``), so its answer is the
one a single run of all those deals gives, and each page says how many deals came from
where.

The pack's questions are keyed like any store's, the engine fingerprint included: once an
engine's source changes, its blocks no longer match any question the report asks, the
report says the evidence is stale and plays what its own budget allows, and
``tests/test_evidence.py`` (which replays a sample of the pack's blocks) fails until
``make evidence`` has played it again, as ``make golden`` does for the narrations.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path

from engines import get_game
from simulate.store import Layered, Store, from_environment, staleness

PACK = Path(__file__).resolve().parent / "evidence"
MANIFEST = "MANIFEST.md"


@dataclass(frozen=True)
class Planned:
    """One question of the pack: a page's strength ladder at its main player count."""

    game: str
    section: object  # the page's Strength section
    players: int
    deals: int

    @property
    def title(self) -> str:
        return get_game(self.game).title


def _at(players: int) -> str:
    return "solo" if players == 1 else f"at {players} players"


def plan(games: list[str] | None = None) -> list[Planned]:
    """The pack's questions: every page's ladder with declared evidence deals, in page
    order."""
    from reports.build import PAGES
    from reports.sections.strength import Strength

    out = []
    for game, page in PAGES.items():
        if games and game not in games:
            continue
        for s in page.sections:
            if isinstance(s, Strength) and s.evidence_deals:
                out.append(Planned(game, s, s.players[0], s.evidence_deals))
    return out


def pack(root: Path = PACK) -> Store | None:
    """The shipped pack, read-only (None when there is none)."""
    return Store(root, readonly=True, name="the shipped evidence") if (
        root / "registry.sqlite").is_file() else None


def stores(store: Store | None | bool = True) -> Layered:
    """What a report reads: the pack, then ``store`` (True: the user's default run store)."""
    if store is True:
        store = from_environment()
    return Layered(pack(), store or None)


def make(root: Path = PACK, games: list[str] | None = None, cluster=None,
         progress: bool | None = None, workers: int | None = None, deals: int | None = None,
         say=print) -> list[dict]:
    """Play every planned question into the pack (only what it lacks; ``deals``: that many
    per question instead of the page's); what each took."""
    from reports.provenance import commit

    made = commit() or "not a git checkout"
    when = datetime.date.today().isoformat()
    store = Store(root, origin=f"make evidence at commit {made} on {when}",
                  name="the evidence pack")
    done = []
    try:
        for p in plan(games):
            info = get_game(p.game)
            n = p.deals if deals is None else deals
            say(f"{p.title}: the strength ladder {_at(p.players)} on {n:,} deals")
            result = p.section.main_run(info, n, store=store, cluster=cluster,
                                        progress=progress, workers=workers)
            done.append({"game": p.game, "players": p.players, "deals": result.deals,
                         "planned": n,
                         "seconds": round(result.seconds, 1), "key": result.store_key,
                         "from_pack": result.sources})
            say(f"  {result.seconds:,.0f} s ({result.played:,} deals played now)")
    finally:
        store.close()
    write_manifest(root)
    return done


def write_manifest(root: Path = PACK) -> None:
    """``MANIFEST.md`` beside the pack: each question, its deals, size and what made it."""
    p = Store(root, readonly=True)
    lines = ["# The report's evidence pack", "",
             "Made by `make evidence` (`rumsim evidence make`); checked by "
             "`tests/test_evidence.py`. Each question is a page's strength ladder at its main "
             "player count: tallies only, never rows.", ""]
    total = 0
    for q in p.questions():
        question = q["question"]
        total += q["bytes"]
        lines += [f"## {get_game(q['game']).title}, {_at(q['players'])}: "
                  f"{q['games']:,} deals", "",
                  f"- key `{q['key']}`, engine `{q['engine']}`, seed {question['seed']}, "
                  f"{q['blocks']} blocks, {q['bytes'] / 1e6:.2f} MB",
                  f"- rungs: {', '.join(dict.fromkeys(s[0]['label'] for s in question['seatings']))}",
                  *(f"- made by: `{c}`" for c in q["commands"]),
                  *(f"- {o}" for o in q["origins"]), ""]
    lines.append(f"In all {total / 1e6:.2f} MB.")
    p.close()
    (root / MANIFEST).write_text("\n".join(lines) + "\n", encoding="utf-8")


def describe(root: Path = PACK) -> list[dict]:
    """The pack's questions as JSON-ready rows (for ``rumsim evidence ls``)."""
    import analyses.solo_ladder  # noqa: F401 - the pack's tally classes, registered
    import analyses.strength  # noqa: F401

    p = pack(root)
    if p is None:
        return []
    rows, engines = [], {}
    for q in p.questions():
        why = staleness(p, q, engines=engines)
        rows.append({"game": q["game"], "players": q["players"], "deals": q["games"],
                     "blocks": q["blocks"], "bytes": q["bytes"], "key": q["key"],
                     "current": why is None, "stale_because": why, "origins": q["origins"]})
    p.close()
    return rows


def to_json(rows) -> str:
    return json.dumps(rows, indent=1)


def size_bytes(root: Path = PACK) -> int:
    """The pack's size on disk."""
    return sum(f.stat().st_size for f in root.rglob("*") if f.is_file() and not f.is_symlink())


def check(rng, per_question: int = 1, questions: int | None = None, root: Path = PACK,
          say=None) -> dict:
    """Replay ``per_question`` blocks of each of the pack's questions (or of ``questions`` of
    them), chosen by ``rng``, and compare them with the pack byte for byte. A question this
    engine no longer asks under its key (stale) is named, not replayed."""
    import analyses.solo_ladder  # noqa: F401 - the pack's tally classes, registered
    import analyses.strength  # noqa: F401
    from simulate import warm
    from simulate.store import blocks_of, job_of, read_block, replay_matches, staleness

    p = pack(root)
    out = {"checked": 0, "matched": 0, "stale": [], "lines": []}
    if p is None:
        out["stale"].append(f"no pack at {root}")
        return out
    try:
        held = p.questions()
        for q in held if questions is None else rng.sample(held, min(questions, len(held))):
            title = f"{get_game(q['game']).title}, {q['players']} players"
            why = staleness(p, q)
            if why is not None:
                out["stale"].append(f"{title} ({why})")
                continue
            job = job_of(q["question"], p.part_of(q["key"]))
            warm.ready(get_game(job.game), say=False)
            blocks = blocks_of(p, q["key"])
            for b in rng.sample(blocks, min(per_question, len(blocks))):
                stored = read_block(p, q["key"], b, job.part)
                same = replay_matches(job, q["key"], b, stored)
                out["checked"] += 1
                out["matched"] += bool(same)
                line = (f"{title}: deals {b['first']:,}..{b['first'] + b['games'] - 1:,} "
                        f"{'match' if same else 'DO NOT MATCH'} the pack")
                out["lines"].append(line)
                if say is not None:
                    say(line)
    finally:
        p.close()
    return out
