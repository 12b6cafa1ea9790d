"""No module of chouette/ uses another module's private name (one with a leading underscore).

A name with a leading underscore is its module's own business: another module that needs it
needs a public name (with its docstring), or the function belongs where it is used. Read from
the source with ``ast``, as ``test_import_cycles`` reads the imports: ``from x import _y`` and
``from . import _y`` where ``x`` is a chouette module, and ``x._y`` where ``x`` is a name bound
to a chouette module (``import chouette.x as x``, ``from chouette import x``,
``import chouette.x`` then ``chouette.x._y``), at module level and inside functions alike.
Dunder names (``__version__``) are not private.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from tests.test_import_cycles import PACKAGE, module_name


def _modules() -> dict[str, Path]:
    return {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _base(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The absolute module a ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    anchor = module.split(".") if is_package else module.split(".")[:-1]
    anchor = anchor[: len(anchor) - (node.level - 1)]
    return ".".join(anchor + ([node.module] if node.module else []))


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` as text, or None when the expression is not a chain of names."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner is not None else None
    return None


def private_uses(module: str, path: Path, modules: set[str]) -> set[str]:
    """Every use of another chouette module's private name in one module, as
    ``"user: owner._name"``."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    # Names bound to a chouette module in this file (anywhere: a function's import counts too).
    bound: dict[str, str] = {}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in modules:
                    bound[alias.asname] = alias.name
                elif alias.name.split(".")[0] == "chouette":
                    bound["chouette"] = "chouette"
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, node, is_package)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in modules:
                    bound[alias.asname or alias.name] = full
                elif base in modules and base != module and _is_private(alias.name):
                    found.add(f"{module}: {base}.{alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            chain = _dotted(node.value)
            if chain is None:
                continue
            head, _sep, rest = chain.partition(".")
            if head not in bound:
                continue
            owner = bound[head] + ("." + rest if rest else "")
            if owner in modules and owner != module:
                found.add(f"{module}: {owner}.{node.attr}")
    return found


@cache
def all_private_uses() -> frozenset[str]:
    modules = _modules()
    names = set(modules)
    return frozenset(use for name, path in modules.items() for use in private_uses(name, path, names))


def test_no_module_uses_another_modules_private_name():
    found = all_private_uses()
    new = sorted(found)
    assert not new, ("a module uses another module's private name: make it public (with a "
                     "docstring) or move the function where it is used:\n" + "\n".join(new))


def test_the_reader_sees_each_way_of_reaching_a_private_name(tmp_path):
    package = tmp_path / "chouette"
    (package / "web").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "web" / "__init__.py").write_text("")
    (package / "owner.py").write_text("_secret = 1\n")
    (package / "web" / "owner2.py").write_text("_hidden = 2\n")
    user = package / "web" / "user.py"
    user.write_text(
        "from chouette.owner import _secret\n"
        "from . import owner2\n"
        "import chouette.owner as o\n"
        "def f():\n"
        "    import chouette.web.owner2\n"
        "    return owner2._hidden, o._secret, chouette.web.owner2._hidden, o.__name__, _self\n"
        "_self = 3\n"
    )
    modules = {"chouette", "chouette.owner", "chouette.web", "chouette.web.owner2",
               "chouette.web.user"}
    assert private_uses("chouette.web.user", user, modules) == {
        "chouette.web.user: chouette.owner._secret",
        "chouette.web.user: chouette.web.owner2._hidden",
    }
