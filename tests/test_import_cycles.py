"""No import cycles in chouette/: between its modules, and between its packages.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import`` of a
chouette module, at module level and inside functions alike (an import moved into a function
to dodge a cycle is still the cycle). ``from package import name`` is an edge to the module
``package.name`` when there is one, else to the package (its ``__init__``). Modules are then
grouped by package (``chouette.engine``, ``chouette.services``, ... and each top-level module)
and that graph must have no cycle either: a layer never imports one that imports it back.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "chouette"


def module_name(path: Path) -> str:
    """A file's dotted module name (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")
            if "migrations" not in path.relative_to(PACKAGE).parts}


def import_graph() -> dict[str, set[str]]:
    """Every chouette module and the chouette modules it imports (anywhere in its source)."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]
            for target in targets:
                # The most specific chouette module the name reaches.
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def package_of(module: str) -> str:
    """The layer a module belongs to: its subpackage of chouette, or itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _describe(cycles: list[list[str]], graph: dict[str, set[str]]) -> str:
    lines = []
    for component in cycles:
        inside = set(component)
        lines.append("cycle: " + ", ".join(component))
        lines += [f"    {a} -> {b}" for a in component for b in sorted(graph[a] & inside)]
    return "\n".join(lines)


def test_no_module_imports_one_that_imports_it_back():
    graph = import_graph()
    cycles = find_cycles(graph)
    assert not cycles, _describe(cycles, graph)


def test_no_package_imports_one_that_imports_it_back():
    modules = import_graph()
    graph: dict[str, set[str]] = {}
    for module, targets in modules.items():
        layer = package_of(module)
        graph.setdefault(layer, set()).update(package_of(t) for t in targets if package_of(t) != layer)
    cycles = find_cycles(graph)
    assert not cycles, _describe(cycles, graph)


def test_the_graph_sees_imports_inside_functions_and_relative_ones():
    graph = import_graph()
    assert "chouette.engine.errors" in graph["chouette.engine.position"]  # a plain module import
    assert "chouette.services.table_states" in graph["chouette.services.score_sheet"]  # inside a function
    assert "chouette.table.settings" in graph["chouette.table"]  # a package (its __init__) importing
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []
