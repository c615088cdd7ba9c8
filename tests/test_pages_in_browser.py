"""Every report page as a reader sees it: opened in headless Chromium at a desktop and a phone size.

A small report (every page, the fast engines, ``SCALE``) is built once into a temporary folder
and served over http on 127.0.0.1. Each ``.html`` page is opened at each size in ``SIZES``, and
the test checks that

* every ``<img>`` has loaded (``naturalWidth > 0``);
* every link within the report resolves: a relative ``href`` to a file in the folder (and its
  ``#anchor`` to an element id there), a bare ``#anchor`` to an element id on the page;
* nothing is wider than the window (``document.scrollingElement.scrollWidth`` at most the
  window's width): a wide table may only scroll inside its own container; a failure names
  the elements that stick out;
* the page logs no console error, throws no script error and requests nothing that fails;

and saves a full-page screenshot of each page at each size into the test's temporary folder,
and into ``$RUMSIM_SCREENSHOTS`` as well when that is set (``<page>-<size>.png``).

The browser is Debian's chromium (``apt-get install chromium``), driven by Playwright; nothing is
downloaded at run time (no ``playwright install``). Without it the test is skipped, saying so,
except under CI (``CI`` set), where it fails: CI installs chromium in ``.ci/run``.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
import time
import warnings
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pandas as pd
import pytest

from reports.build import INDEX, PAGES, build_report

CHROMIUM = Path("/usr/bin/chromium")
# Every section, figure and table of the full report renders at any scale, down to every run
# at its floor of 1-2 games; the build's time is then the pages' fixed cost (loading the
# compiled engines, drawing the figures), the same at this scale, which gives most runs 15-40
# games, so the tables hold intervals like the full report's rather than [-inf, inf].
SCALE = 1e-4
# The network is closed: without the background-networking flags Chromium keeps trying (and
# failing) to reach its services. Each launch gets a fresh, empty profile folder (see browser).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# name -> (width, height, phone?); the phone is emulated as one (meta viewport, touch).
SIZES = {"desktop": (1280, 800, False), "phone": (390, 844, True)}
# At the desktop size, a designer's first screen holds each page's question, its answer among
# skilled players with its verdicts, and the fix; what is not folded is at most this many
# screens.
FIRST_SCREEN = ("#answer .question", "#answer .headline", "#answer dl", "#answer .fix")
OPTIONAL = {"#answer dl"}  # the verdicts' list (Rum Runner's are in its answer's sentence)
MOST_SCREENS = 5
PAGE_FILES = [INDEX, *(p.filename for p in PAGES.values())]
INSTALL = "install Debian's chromium to run the page checks (apt-get install chromium)"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _missing(reason: str):
    """Skip with ``reason``, or fail under CI, which must never skip these checks silently.

    The reason is also a warning, which pytest's summary shows without ``-rs``."""
    if _in_ci():
        pytest.fail(f"{reason} (CI is set, so this fails rather than skips)")
    warnings.warn(f"page checks skipped: {reason}", pytest.PytestWarning, stacklevel=2)
    pytest.skip(reason)


# ------------------------------------------------------------------------------ fixtures


@pytest.fixture(scope="module")
def playwright():
    """Playwright, once Debian's chromium and the package are known to be here (else skip, or
    fail under CI), before any report is built."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        _missing(f"{CHROMIUM} not found: {INSTALL}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the Python package 'playwright' is not installed: pip install -e '.[dev]'")
    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The report folder, built once (the content checks below need no browser); also how
    long the build took."""
    out = tmp_path_factory.mktemp("browser") / "report"
    started = time.perf_counter()
    build_report(out, scale=SCALE, progress=False)
    return out, time.perf_counter() - started


@pytest.fixture(scope="module")
def server(site):
    """The report folder over http on 127.0.0.1 (a free port); its base URL."""
    folder, _ = site

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    """Where the screenshots go: the test's temporary folder, and $RUMSIM_SCREENSHOTS if set."""
    folders = [tmp_path_factory.mktemp("screenshots")]
    if os.environ.get("RUMSIM_SCREENSHOTS"):
        folders.append(Path(os.environ["RUMSIM_SCREENSHOTS"]))
    for f in folders:
        f.mkdir(parents=True, exist_ok=True)
    return folders


@pytest.fixture(scope="module", params=list(SIZES))
def browser(request, playwright, tmp_path_factory):
    """One Chromium per window size, each with a fresh, empty profile; (size name, context)."""
    name = request.param
    width, height, phone = SIZES[name]
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path_factory.mktemp(f"profile-{name}")), executable_path=str(CHROMIUM),
        headless=True, args=FLAGS, viewport={"width": width, "height": height},
        device_scale_factor=1, is_mobile=phone, has_touch=phone, offline=False)
    try:
        yield name, context
    finally:
        context.close()


# ------------------------------------------------------------------------------ the checks

# Run in the page: what the reader would see go wrong.
INSPECT = """() => {
  const view = Math.min(window.innerWidth, document.documentElement.clientWidth);
  const images = Array.from(document.images)
    .filter(i => !i.complete || i.naturalWidth === 0)
    .map(i => (i.alt || i.src.slice(0, 60)));
  const links = Array.from(document.querySelectorAll('a[href]'))
    .map(a => ({href: a.getAttribute('href'), url: a.href}));
  const ids = Array.from(document.querySelectorAll('[id]')).map(e => e.id);
  // An element sticking out past the right edge, unless a scrolling box it sits in holds it;
  // only the outermost of such elements are named.
  // (a box that hides what sticks out does not count: the reader could not see it)
  const scrolls = e => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  const held = e => { for (let p = e.parentElement; p && p !== document.body;
                           p = p.parentElement) { if (scrolls(p)) return true; } return false; };
  const out = new Set();
  for (const e of document.body.querySelectorAll('*')) {
    if (e.getBoundingClientRect().right > view + 0.5 && !held(e)) out.add(e);
  }
  const describe = e => {
    const r = e.getBoundingClientRect();
    const cls = e.className && typeof e.className === 'string' ? '.' + e.className : '';
    const text = (e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 70);
    return `<${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${cls}> ` +
           `${Math.round(r.left)}..${Math.round(r.right)}px: "${text}"`;
  };
  const wide = Array.from(out).filter(e => !out.has(e.parentElement)).map(describe);
  return {view, innerWidth: window.innerWidth, scrollWidth: document.scrollingElement.scrollWidth,
          images, total_images: document.images.length, links, ids, wide};
}"""


# Run in the page: how long it is unfolded, where the answer's parts end, and any text a box
# cuts off (overflow hidden or an ellipsis) that the reader cannot scroll to.
LAYOUT = """(selectors) => {
  const answer = document.querySelector('#answer');
  const bottoms = {};
  for (const sel of selectors) {
    const e = document.querySelector(sel);
    bottoms[sel] = e ? e.getBoundingClientRect().bottom + window.scrollY : null;
  }
  const clipped = [];
  for (const e of document.body.querySelectorAll('*')) {
    const st = getComputedStyle(e);
    const hides = ['hidden', 'clip'].includes(st.overflowX) || st.textOverflow === 'ellipsis';
    if (hides && e.scrollWidth > e.clientWidth + 1 && e.offsetParent !== null) {
      clipped.push(`<${e.tagName.toLowerCase()}> "${(e.textContent || '').trim().slice(0, 60)}"`);
    }
  }
  const visible = document.body.innerText;
  if (visible.includes('\u2026')) clipped.push('an ellipsis (\u2026) in the text');
  return {height: document.scrollingElement.scrollHeight, answer: !!answer, bottoms, clipped};
}"""


def _favicon(url: str) -> bool:
    """The browser asks each server for /favicon.ico itself: the pages name no icon (they need
    none), so its 404 is not the page's error."""
    return urlsplit(url).path == "/favicon.ico"


def _ids_in(path: Path) -> set[str]:
    return set(re.findall(r'\sid="([^"]*)"', path.read_text(encoding="utf-8")))


def _bad_links(links: list[dict], page_ids: list[str], folder: Path, base: str) -> list[str]:
    """The links within the report that lead nowhere (links off the report are not checked)."""
    bad = []
    for link in links:
        href, url = link["href"], link["url"]
        if href.startswith("#"):
            if unquote(href[1:]) not in page_ids:
                bad.append(f"{href}: no element with that id on the page")
            continue
        if not url.startswith(base):
            continue  # another site, mailto: ...: not the report's
        parts = urlsplit(url)
        target = folder / unquote(parts.path).lstrip("/")
        if not target.is_file():
            bad.append(f"{href}: no file {target.name} in the report")
        elif parts.fragment and unquote(parts.fragment) not in _ids_in(target):
            bad.append(f"{href}: {target.name} has no element with id '{parts.fragment}'")
    return bad


def test_the_report_has_the_pages_checked(site):
    folder, seconds = site
    print(f"report built at scale {SCALE:g} in {seconds:.1f} s")
    assert sorted(p.name for p in folder.glob("*.html")) == sorted(PAGE_FILES)


# ------------------------------------------------------------- what the pages say (no browser)


def _text(path: Path) -> str:
    html = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", path.read_text(encoding="utf-8"),
                  flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def test_the_index_answers_for_every_game_in_order(site):
    folder, _ = site
    index = (folder / INDEX).read_text(encoding="utf-8")
    links = list(dict.fromkeys(re.findall(r'<a href="([^"#]+)">', index)))
    assert links == [p.filename for p in PAGES.values()]
    # one headline figure per game, as a file beside the index
    images = re.findall(r'<img src="([^"]+)"', index)
    assert sorted(images) == sorted(f"{p.stem}_headline.png" for p in PAGES.values())
    assert all((folder / i).read_bytes().startswith(b"\x89PNG") for i in images)
    text = _text(folder / INDEX)
    # each multi-player game's card: its question, the answer among skilled players with its
    # interval, the verdicts, the fix
    assert text.count("percentage points [") >= 4
    for page in PAGES.values():
        if page.asked is not None:
            assert page.asked.question in text, f"the index has no question of {page.game}"
    assert text.count("Fair to every seat?") == 4 and text.count("Fix") >= 4
    assert "rumsim report --out" in text and "Game counts:" in text


def test_the_readme_answers_are_the_reports_own_words(site, tmp_path):
    """make readme writes each game's question, answer, verdicts and fix from the summaries
    the index reads: the same sentences, word for word."""
    from reports import readme
    from reports.index import read_summary

    folder, _ = site
    copy = tmp_path / "README.md"
    copy.write_text("# x\n\n" + readme.BEGIN + "\nSTALE-BLOCK\n" + readme.END + "\n\nafter\n")
    assert readme.update(copy, folder) and not readme.update(copy, folder)
    text = copy.read_text()
    assert "STALE-BLOCK" not in text and text.endswith("after\n")
    for page in PAGES.values():
        s = read_summary(folder, page.filename)
        assert s.sentence in text
        if page.asked is not None:
            assert page.asked.question in text and s.row["fix"] in text
    assert readme.main([str(tmp_path / "nothing"), "--readme", str(copy)]) == 2


@pytest.mark.parametrize("filename", PAGE_FILES)
def test_no_page_shows_a_number_that_is_not_one(site, filename):
    """No 'nan', 'inf' or '-0.00' anywhere a reader looks: an unbounded rating is said in
    words, and a zero has no sign."""
    folder, _ = site
    text = _text(folder / filename)
    bad = re.findall(r".{30}(?:\bnan\b|\binf\b|[-+]0\.0+(?![\d])\b).{0,10}", text, flags=re.I)
    assert not bad, f"{filename}: " + " | ".join(bad[:5])


@pytest.mark.parametrize("page", [p for p in PAGES.values() if p.game != "rum-runner"],
                         ids=lambda p: p.game)
def test_every_multi_player_page_says_how_far_its_answer_holds(site, page):
    folder, _ = site
    text = _text(folder / page.filename)
    for heading in ("Does the seat answer survive a better player?",
                    "Does each variation's effect survive a better player?",
                    "Skill and luck", "How the game feels"):
        assert heading in text, f"{page.filename}: no section '{heading}'"
    assert re.search(r"At \d players (the seat conclusion|.* no edge is shown)", text)
    assert "Luck index" in text and "luck index [95% CI]" in text
    for statistic in ("mean rounds", "median rounds", "90th percentile rounds",
                      "tied for first", "decided by at most", "lead changes per game",
                      "won by a seat not leading at half time"):
        assert statistic in text, f"{page.filename}: no game-feel statistic '{statistic}'"
    assert "Browne" in text and "Ludii" in text


@pytest.mark.parametrize("page", list(PAGES.values()), ids=lambda p: p.game)
def test_every_page_names_its_runs_and_its_provenance(site, page):
    folder, _ = site
    text = _text(folder / page.filename)
    assert "Provenance: rumsim" in text and "git commit" in text and "Numba" in text
    assert "Figures and tables of this section come from the runs" in text
    runs = (folder / f"{page.stem}_runs.csv").read_text().splitlines()
    assert runs[0].split(",")[-1] == "hash" or ",hash" in runs[0]
    assert (folder / f"{page.stem}_summary.json").exists()
    if page.game == "rum-runner":  # the solo game's skill ladder and luck measure
        assert "Skill and luck" in text and "of the score variance" in text


@pytest.mark.parametrize("page", list(PAGES.values()), ids=lambda p: p.game)
def test_every_page_says_what_would_fix_it(site, page):
    """Each page's worked tunings: the question, a recommendation with intervals, the
    race's games and savings, its error rate, and the command that asks it again."""
    from reports.sections.tune import Tune

    folder, _ = site
    text = _text(folder / page.filename)
    (tune,) = [s for s in page.sections if isinstance(s, Tune)]
    assert "What would fix it" in text
    for q in tune.questions:
        assert q.ask.replace("'", "'") in text, f"{page.filename}: no question '{q.ask}'"
    assert text.count("racing saved") >= sum(len(q.players) for q in tune.questions)
    assert "dropped with probability at most 5%" in text
    assert "rumsim tune " + page.game in text
    rows = pd.read_csv(folder / f"{page.stem}_tune.csv")
    assert {"setting", "status", "games"} <= set(rows.columns)
    assert (rows["status"] == "best").sum() == sum(len(q.players) for q in tune.questions)


@pytest.mark.parametrize("filename", PAGE_FILES)
def test_page_reads_right_in_the_browser(browser, filename, site, server, shots):
    size, context = browser
    folder, _ = site
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and not _favicon(m.location.get("url", ""))
            and problems.append(f"console: {m.text} ({m.location.get('url', '')})"))
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url[:80]} "
                                                       f"({r.failure})"))
    page.on("response", lambda r: r.status >= 400 and problems.append(
        f"HTTP {r.status}: {r.url[:80]}"))
    try:
        response = page.goto(server + filename, wait_until="load")
        assert response is not None and response.ok, f"{filename}: {response and response.status}"
        seen = page.evaluate(INSPECT)
        layout = page.evaluate(LAYOUT, list(FIRST_SCREEN))
        stem = filename.removesuffix(".html")
        png = page.screenshot(full_page=True, type="png")
    finally:
        page.close()
    for f in shots:
        (f / f"{stem}-{size}.png").write_bytes(png)
    print(f"{filename} at {size}: screenshot {shots[-1] / f'{stem}-{size}.png'}")

    if seen["images"]:
        problems.append(f"{len(seen['images'])} of {seen['total_images']} images did not load: "
                        + "; ".join(seen["images"]))
    problems += [f"link {b}" for b in _bad_links(seen["links"], seen["ids"], folder, server)]
    if seen["scrollWidth"] > seen["view"] or seen["wide"]:
        problems.append(f"the page is {seen['scrollWidth']}px wide in a {seen['view']}px window "
                        f"(innerWidth {seen['innerWidth']}); sticking out: "
                        + ("; ".join(seen["wide"]) or "(none named)"))
    problems += [f"clipped: {c}" for c in layout["clipped"]]
    if size == "desktop":
        height = SIZES[size][1]
        screens = layout["height"] / height
        if screens > MOST_SCREENS:
            problems.append(f"unfolded, the page is {screens:.1f} screens long (at most "
                            f"{MOST_SCREENS})")
        if filename != INDEX and layout["bottoms"][FIRST_SCREEN[0]] is not None:
            late = [f"{sel} " + ("is missing" if bottom is None else f"ends at {bottom:.0f}px")
                    for sel, bottom in layout["bottoms"].items()
                    if (bottom is None and sel not in OPTIONAL)
                    or (bottom is not None and bottom > height)]
            if late:
                problems.append(f"not on the first screen ({height}px): " + "; ".join(late))
    assert not problems, f"{filename} at {size} ({SIZES[size][0]}px):\n  " + "\n  ".join(problems)

