"""The ledger's error: every one is a ValueError whose message names the input.

The refusals a user can provoke (an amount typed in a form) are templates with named
parameters, as the engine's (``chouette.engine.errors.Refusal``).
"""

from __future__ import annotations

from chouette.engine.errors import Refusal


class LedgerError(Refusal):
    """Money the ledger refuses: a float or negative stake, a bad percent, unbalanced books...

    >>> error = LedgerError("a stake of {cents} cents is not positive", cents=-50)
    >>> str(error), isinstance(error, ValueError), error.params
    ('a stake of -50 cents is not positive', True, {'cents': -50})
    """
