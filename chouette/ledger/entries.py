"""Ledger values (entries, payments, transfers) and the balances they add up to (docs/rules.md 2.11).

A player's balance is what they are owed: positive when they won, negative when they owe. A payment
from A to B raises A's balance and lowers B's by the same amount, so books that sum to zero
keep summing to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from chouette.ledger.errors import LedgerError
from chouette.ledger.money import require_cents

Ref = str | int | None


def _require_player(name: object, what: str) -> str:
    if not isinstance(name, str) or not name:
        raise LedgerError(f"{what} must be a non-empty player name, not {name!r}")
    return name


def _check_movement(kind: str, payer: object, payee: object, cents: object) -> None:
    _require_player(payer, f"{kind} payer")
    _require_player(payee, f"{kind} payee")
    amount = require_cents(cents, f"{kind} cents")
    if amount <= 0:
        raise LedgerError(
            f"{kind} from {payer!r} to {payee!r} must be positive, got {amount} cents"
        )
    if payer == payee:
        raise LedgerError(f"{kind} from {payer!r} to the same player")


@dataclass(frozen=True)
class Entry:
    """One player's result in cents for one game (positive: won), with opaque references.

    >>> Entry("Ann", -750, table_id=3, game_id=12)
    Entry(player='Ann', cents=-750, night_id=None, table_id=3, game_id=12)
    """

    player: str
    cents: int
    night_id: Ref = None
    table_id: Ref = None
    game_id: Ref = None

    def __post_init__(self) -> None:
        _require_player(self.player, "entry player")
        require_cents(self.cents, f"entry cents for {self.player!r}")


@dataclass(frozen=True)
class Payment:
    """Money actually handed over: payer gives payee cents (> 0), recorded in the ledger."""

    payer: str
    payee: str
    cents: int
    night_id: Ref = None

    def __post_init__(self) -> None:
        _check_movement("payment", self.payer, self.payee, self.cents)


@dataclass(frozen=True)
class Transfer:
    """A payment that settle-up asks for: payer gives payee cents (> 0).

    >>> Transfer("Bob", "Ann", 350)
    Transfer(payer='Bob', payee='Ann', cents=350)
    """

    payer: str
    payee: str
    cents: int

    def __post_init__(self) -> None:
        _check_movement("transfer", self.payer, self.payee, self.cents)

    def to_payment(self, night_id: Ref = None) -> Payment:
        """Return the payment to record once this transfer has been paid.

        >>> Transfer("Bob", "Ann", 350).to_payment(night_id=4)
        Payment(payer='Bob', payee='Ann', cents=350, night_id=4)
        """
        return Payment(self.payer, self.payee, self.cents, night_id)


def balances(
    entries: Iterable[Entry], payments: Iterable[Payment | Transfer] = ()
) -> dict[str, int]:
    """Add up entries per player, then apply payments; sorted by name, zero balances kept.

    >>> balances([Entry("Bob", -500), Entry("Ann", 500)], [Payment("Bob", "Ann", 200)])
    {'Ann': 300, 'Bob': -300}
    """
    totals: dict[str, int] = {}
    for entry in entries:
        totals[entry.player] = totals.get(entry.player, 0) + entry.cents
    return apply_payments(totals, payments)


def apply_payments(
    balances: Mapping[str, int], payments: Iterable[Payment | Transfer]
) -> dict[str, int]:
    """Return new balances after payments: the payer's balance rises, the payee's falls.

    Players missing from balances start at 0. The result is sorted by name.

    Raises:
        LedgerError: a balance is not an int.

    >>> apply_payments({"Ann": 500, "Bob": -500}, [Transfer("Bob", "Ann", 500)])
    {'Ann': 0, 'Bob': 0}
    """
    totals = dict(check_amounts(balances))
    for payment in payments:
        totals[payment.payer] = totals.get(payment.payer, 0) + payment.cents
        totals[payment.payee] = totals.get(payment.payee, 0) - payment.cents
    return {name: totals[name] for name in sorted(totals)}


def check_amounts(balances: Mapping[str, int]) -> Mapping[str, int]:
    """Return balances unchanged if every name is a non-empty str and every amount int cents.

    Raises:
        LedgerError: a name is not a non-empty str or an amount is not an int.
    """
    for name, cents in balances.items():
        _require_player(name, "balance name")
        require_cents(cents, f"balance of {name!r}")
    return balances


def check_balanced(balances: Mapping[str, int]) -> None:
    """Check that balances are int cents summing to zero (every cent won was lost by someone).

    Raises:
        LedgerError: an amount is not an int, or the balances do not sum to zero.

    >>> check_balanced({"Ann": 300, "Bob": -200})
    Traceback (most recent call last):
    ...
    chouette.ledger.errors.LedgerError: balances sum to 100 cents, not 0 (2 players)
    """
    total = sum(check_amounts(balances).values())
    if total:
        raise LedgerError(f"balances sum to {total} cents, not 0 ({len(balances)} players)")
