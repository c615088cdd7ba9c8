"""The README's answers, written from a built report's summaries, so the two never disagree.

``python -m reports.readme [REPORT_DIR] [--readme README.md]`` (``make readme``) reads each
page's ``<page>_summary.json`` (what the index's card and the page's first screen say:
the question, the answer among skilled players, its verdicts and the fix) and rewrites the
block of the README between the markers ``<!-- answers:begin -->`` and
``<!-- answers:end -->``. Nothing in the block is typed by hand: change a page's answer and
the README follows at the next ``make report && make readme``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engines import get_game
from reports.build import PAGES
from reports.headline import CARD
from reports.index import read_summary
from simulate.errors import UserError

BEGIN, END = "<!-- answers:begin -->", "<!-- answers:end -->"


def answers_markdown(folder: Path) -> str:
    """The answers block for the report in ``folder``: per game its question, answer among
    skilled players, verdicts and fix, as the report says them."""
    lines = [BEGIN, "",
             f"*Written by `make readme` from the report in `{folder}` (each page's "
             "`_summary.json`): the same words and figures as the report's first screens.*",
             ""]
    found = 0
    for page in PAGES.values():
        s = read_summary(folder, page.filename)
        if s is None:
            continue
        found += 1
        lines += [f"#### {get_game(page.game).title}", ""]
        if s.row.get("question"):
            lines += [f"**{s.row['question']}**", ""]
        lines += [s.sentence, ""]
        for key in CARD[1:]:
            value = s.row.get(key)
            if isinstance(value, list):
                lines.append(f"- *{key.capitalize()}*")
                lines += [f"  - {v}" for v in value]
            elif value:
                lines.append(f"- *{key.capitalize()}* {value}")
        lines += ["", f"([the page]({folder}/{page.filename}))", ""]
    if not found:
        raise UserError(f"no page summaries in '{folder}': build the report first (make report)")
    return "\n".join([*lines, END])


def update(readme: Path, folder: Path) -> bool:
    """Rewrite the answers block of ``readme``; whether it changed."""
    text = readme.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise UserError(f"{readme} has no answers block ({BEGIN} ... {END})")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + answers_markdown(folder) + tail
    if new != text:
        readme.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", default="report", help="the built report")
    parser.add_argument("--readme", default="README.md")
    args = parser.parse_args(argv)
    try:
        changed = update(Path(args.readme), Path(args.folder))
    except UserError as exc:
        print(f"readme: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"readme: cannot read or write {args.readme}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    print(f"{args.readme}: answers {'rewritten' if changed else 'already current'} from "
          f"{args.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
