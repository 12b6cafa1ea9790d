"""The docstring examples of the table rules (and the controls they are typed through) run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["chouette.table", "chouette.table.decisions", "chouette.table.seats", "chouette.table.settings",
           "chouette.table.state",
           "chouette.controls"]


@pytest.mark.parametrize("name", MODULES)
def test_table_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples: this test would test nothing"
    assert result.failed == 0
