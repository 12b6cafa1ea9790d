"""Pure money: int cents, stakes, the partner's share, balances and settle-up (docs/rules.md 2.8, 2.11).

Standard library only; no clock, no randomness. Money is always ``int`` cents.
"""

from chouette.ledger.entries import (
    Entry,
    Payment,
    Transfer,
    apply_payments,
    balances,
    check_amounts,
    check_balanced,
)
from chouette.ledger.errors import LedgerError
from chouette.ledger.money import (
    cents_to_decimal,
    pair_stake_cents,
    parse_cents,
    points_to_cents,
    require_cents,
    split_share,
)
from chouette.ledger.partition import (
    EXACT_LIMIT,
    most_zero_sum_masks,
    partition_zero_sum,
)
from chouette.ledger.settle import (
    apply_payment_to_plan,
    settle_leaver,
    settle_up,
    settle_up_after,
)

__all__ = [
    "EXACT_LIMIT",
    "Entry",
    "LedgerError",
    "Payment",
    "Transfer",
    "apply_payment_to_plan",
    "apply_payments",
    "balances",
    "cents_to_decimal",
    "check_amounts",
    "check_balanced",
    "most_zero_sum_masks",
    "pair_stake_cents",
    "parse_cents",
    "partition_zero_sum",
    "points_to_cents",
    "require_cents",
    "settle_leaver",
    "settle_up",
    "settle_up_after",
    "split_share",
]
