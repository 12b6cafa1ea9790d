"""The docstring examples of the ledger modules run as tests."""

from __future__ import annotations

import doctest

import pytest

from chouette.ledger import entries, errors, games, money, partition, settle


@pytest.mark.parametrize(
    "module", [entries, errors, games, money, partition, settle], ids=lambda m: m.__name__
)
def test_ledger_docstring_examples_hold(module):
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert attempted > 0, f"{module.__name__} has no examples: this test would test nothing"
    assert failed == 0
