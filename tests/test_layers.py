"""Imports run one way: engines <- simulate <- analyses <- reports (DESIGN.md, "Layers").

Every import in the source, at module level or inside a function, is read
from the files themselves (nothing is imported), so a new backward import or
a loop of imports fails here, wherever it hides.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("engines", "simulate", "analyses", "reports")  # each may import only those before it


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for layer in LAYERS for p in (ROOT / layer).rglob("*.py")}


def imports(path: Path) -> set[str]:
    """The project modules a file imports ('from reports import figures' is reports.figures)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES
                    else node.module for a in node.names}
    return {m for m in out if m.split(".")[0] in LAYERS}


GRAPH = {name: imports(path) for name, path in MODULES.items()}


def test_every_layer_is_read():
    assert {name.split(".")[0] for name in MODULES} == set(LAYERS)
    assert "reports.cli" in MODULES and "simulate.cli" not in MODULES


def test_no_import_runs_from_a_lower_layer_to_a_higher_one():
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    backward = sorted(f"{name} imports {target}" for name, targets in GRAPH.items()
                      for target in targets
                      if rank[target.split(".")[0]] > rank[name.split(".")[0]])
    assert backward == []


def test_no_loop_of_imports_between_files():
    # Every file of every layer, the game folders included (a game's reference.py must not
    # import its policies.py, which reads the reference's state).
    graph = GRAPH
    loops = []

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            loops.append(" -> ".join([*path[path.index(name):], name]))
            return
        if name in done:
            return
        for target in sorted(graph.get(name, ())):
            visit(target, [*path, name])
        done.add(name)

    done: set[str] = set()
    for name in sorted(graph):
        visit(name, [])
    assert loops == []
