"""Every refusal template raised in the pure packages formats with the parameters of its raise
site: each ``{placeholder}`` is a keyword argument and each keyword argument a placeholder, so
``str(error)`` never raises KeyError and the interface can translate the template as it is.
"""

from __future__ import annotations

import ast
import pathlib
import string

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "chouette"
PURE = ("engine", "table", "ledger")
# The errors and Phrase take a template as their first argument (Babel extracts it, see the Makefile).
TEMPLATED = {"Phrase", "Refusal", "RulesError", "NotationError", "IllegalMoveError", "FormatError",
             "CubeError", "MatchError", "DiceError", "TableError", "SettingsError", "LedgerError"}
# Modules whose refusals all reach a user (the table's rules, move notation, XGIDs, amounts): none
# of their refusals may be a bare f-string, which could not be translated.
ALL_TEMPLATES = ("table/rules.py", "table/cube_rules.py", "table/cube_answers.py",
                 "table/box_double.py", "table/game_rules.py", "table/seats.py",
                 "table/deals.py",
                 "table/settings.py", "engine/moves.py", "engine/resolve.py", "engine/position.py",
                 "ledger/money.py")
# engine/position.py holds the XGID after the positions' own checks (errors of a caller building
# a position from counts, never typed by a player): only its XGID part is held to templates.
XGID_START = next(number for number, line in enumerate((ROOT / "engine/position.py").read_text().splitlines(), 1)
                  if line.startswith("# --- XGID"))


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _calls() -> list[tuple[str, ast.Call]]:
    found = []
    for package in PURE:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            where = path.relative_to(ROOT).as_posix()
            found += [(f"{where}:{node.lineno}", node) for node in ast.walk(tree)
                      if isinstance(node, ast.Call) and _called(node) in TEMPLATED and node.args]
    return found


def _sites() -> list[tuple[str, str, set[str]]]:
    """(where, template, keyword names) of every call with a literal template."""
    sites = []
    for where, node in _calls():
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            sites.append((where, first.value, {k.arg for k in node.keywords if k.arg is not None}))
    return sites


SITES = _sites()


def test_the_raise_sites_are_found():
    assert len(SITES) > 150
    assert {where.split(":")[0] for where, _t, _k in SITES} >= set(ALL_TEMPLATES)


@pytest.mark.parametrize(("where", "template", "keywords"), SITES, ids=[s[0] for s in SITES])
def test_every_template_formats_with_the_parameters_of_its_raise_site(where, template, keywords):
    fields = {name.split(".")[0].split("[")[0] for _literal, name, _spec, _conversion
              in string.Formatter().parse(template) if name is not None}
    assert "" not in fields, f"{where}: a positional {{}} in {template!r}; name it"
    assert fields == keywords, f"{where}: placeholders {sorted(fields)} but parameters {sorted(keywords)}"
    if keywords:
        template.format(**dict.fromkeys(keywords, "x"))  # no KeyError, no stray brace


@pytest.mark.parametrize("module", ALL_TEMPLATES)
def test_no_refusal_that_reaches_a_user_is_an_f_string(module):
    fstrings = [where for where, node in _calls()
                if where.startswith(module + ":") and isinstance(node.args[0], ast.JoinedStr)
                and (module != "engine/position.py" or node.lineno >= XGID_START)]
    assert not fstrings, f"refusals written as f-strings cannot be translated: {fstrings}"
