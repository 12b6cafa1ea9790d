"""The pure packages import only the standard library and each other (docs/architecture.md)."""

from __future__ import annotations

import ast
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "chouette"
PURE = ("engine", "table", "ledger", "records")
# Each pure package may import itself and the engine, nothing else (issue 3); the web layer
# composes table and ledger.
ALLOWED = {"engine": {"engine"}, "table": {"engine", "table"}, "ledger": {"engine", "ledger"},
           "records": {"engine", "table", "records"}}
BANNED_CALLS = {("datetime", "now"), ("datetime", "today"), ("date", "today"), ("time", "time")}


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.module


def _files():
    for package in PURE:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield package, path


@pytest.mark.parametrize(("package", "path"), list(_files()), ids=lambda v: str(v))
def test_pure_package_imports_only_stdlib_and_lower_pure_packages(package, path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for name in _imports(tree):
        top = name.split(".")[0]
        if top == "chouette":
            sub = name.split(".")[1] if "." in name else ""
            assert sub in ALLOWED[package], f"{path} imports {name}"
        else:
            assert top in sys.stdlib_module_names, f"{path} imports {name}, not in the standard library"
        assert top != "random", f"{path} imports the global random module; inject a dice source"


@pytest.mark.parametrize(("package", "path"), list(_files()), ids=lambda v: str(v))
def test_pure_package_reads_no_clock(package, path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            assert (node.value.id, node.attr) not in BANNED_CALLS, f"{path} reads the clock"


def test_every_pure_package_has_modules():
    for package in PURE:
        assert list((ROOT / package).glob("*.py")), f"chouette/{package} is empty"
