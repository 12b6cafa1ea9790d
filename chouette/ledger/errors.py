"""The ledger's error: every one is a ValueError whose message names the input."""

from __future__ import annotations


class LedgerError(ValueError):
    """Money the ledger refuses: a float or negative stake, a bad percent, unbalanced books..."""
