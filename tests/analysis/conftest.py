"""Tests marked ``gnubg`` run GNU Backgammon (Debian's gnubg, installed by .ci/system-deps).

Without gnubg they are skipped with that reason, so the run says so plainly; in CI (``CI`` set)
a missing gnubg fails them instead: there they must run.
"""

from __future__ import annotations

import os

import pytest

from chouette.analysis import runner


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if runner.available() or os.environ.get("CI"):
        return  # in CI they run, and fail without gnubg
    for item in items:
        if item.get_closest_marker("gnubg") is not None:
            item.add_marker(pytest.mark.skip(reason="GNU Backgammon (gnubg) is not installed"))
