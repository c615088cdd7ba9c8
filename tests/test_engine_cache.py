"""Numba's cache of an engine goes stale when any source it was compiled from changes.

An engine is compiled from its game folder (rules.py derives the indices it
reads, __init__.py the policy columns) and the shared engines/_*.py; a cache
keyed by engine.py alone would keep old indices after a new rule option.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from engines import _cache


def test_an_engines_sources_are_its_folder_and_the_shared_modules():
    engine = _cache.ENGINES / "rum_runner" / "engine.py"
    names = {p.relative_to(_cache.ENGINES).as_posix() for p in _cache.sources(engine)}
    assert {"rum_runner/rules.py", "rum_runner/__init__.py", "rum_runner/engine.py",
            "_fast.py", "_rng.py", "_rules.py", "_game.py"} <= names
    assert not any(n.startswith(("montego_bay/", "rum_rebellion/")) for n in names)
    shared = {p.name for p in _cache.sources(_cache.ENGINES / "_rng.py")}
    assert "_fast.py" in shared and "engine.py" not in shared


def test_the_stamp_changes_with_any_source_and_only_with_them(tmp_path, monkeypatch):
    tree = tmp_path / "engines"
    shutil.copytree(_cache.ENGINES, tree, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(_cache, "ENGINES", tree)
    engine = tree / "rum_runner" / "engine.py"
    before = _cache.stamp(engine)
    assert _cache.stamp(engine) == before

    other = tree / "montego_bay" / "rules.py"
    other.write_text(other.read_text() + "\n# another game\n")
    assert _cache.stamp(engine) == before

    for changed in (tree / "rum_runner" / "rules.py", tree / "_rng.py"):
        original = changed.read_text()
        changed.write_text(original + "\n# a new option\n")
        assert _cache.stamp(engine) != before
        changed.write_text(original)
        assert _cache.stamp(engine) == before  # contents, not times, decide


def test_engine_functions_use_the_tree_stamp():
    from engines.rum_runner import engine

    for fn in (engine.play_one, engine.FAST.blocks):
        locator = fn._cache._impl.locator
        assert getattr(locator, "_rumsim", False)
        assert locator.get_source_stamp() == _cache.stamp(Path(engine.__file__))
