"""The examples in the engine's docstrings run (positions and moves modules)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["position", "moves", "movegen", "fastpaths", "outcome", "resolve", "errors"]  # xgid: in position


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(f"chouette.engine.{name}")
    result = doctest.testmod(module, extraglobs=vars(importlib.import_module("chouette.engine")))
    assert result.attempted > 0, f"chouette.engine.{name} has no examples: this test would test nothing"
    assert result.failed == 0
