"""The docstring examples of the ledger modules run as tests."""

from __future__ import annotations

import doctest

import pytest

from chouette.ledger import entries, errors, money, partition, settle


@pytest.mark.parametrize(
    "module", [entries, errors, money, partition, settle], ids=lambda m: m.__name__
)
def test_ledger_docstring_examples_hold(module):
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0
