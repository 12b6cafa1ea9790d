"""Settle-up: who pays whom, with the fewest transfers, and one early leaver alone (RULES 2.11)."""

from __future__ import annotations

import heapq
from collections.abc import Mapping

from chouette.ledger.entries import Transfer, check_balanced
from chouette.ledger.errors import LedgerError
from chouette.ledger.partition import partition_zero_sum


def settle_up(balances: Mapping[str, int]) -> list[Transfer]:
    """List transfers settling every balance with the fewest transfers, sorted by payer and payee.

    The n non-zero balances are split into zero-sum groups (``partition_zero_sum``); inside a
    group of k players the largest debtor pays the largest creditor, k - 1 transfers, so g
    groups take n - g transfers, never more than n - 1. The count is the proven minimum
    whenever at most 20 balances are left after pairing exact opposites (always, for up to 20
    players); beyond that, small groups are found greedily. Players are taken in name order,
    so the result does not depend on the mapping's order. Payers always had a negative
    balance, payees a positive one, and no transfer is of zero.

    Raises:
        LedgerError: a name or amount is invalid, or the balances do not sum to zero.

    >>> for transfer in settle_up({"Ann": 700, "Bob": -400, "Cy": -300, "Dee": 250, "Eve": -250}):
    ...     print(transfer)
    Transfer(payer='Bob', payee='Ann', cents=400)
    Transfer(payer='Cy', payee='Ann', cents=300)
    Transfer(payer='Eve', payee='Dee', cents=250)
    """
    check_balanced(balances)
    players = [(name, balances[name]) for name in sorted(balances) if balances[name]]
    transfers: list[Transfer] = []
    for group in partition_zero_sum([cents for _, cents in players]):
        transfers.extend(_settle_group([players[index] for index in group]))
    return sorted(transfers, key=lambda transfer: (transfer.payer, transfer.payee))


def settle_leaver(balances: Mapping[str, int], player: str) -> list[Transfer]:
    """List transfers that settle one player alone (an early leaver), sorted by the other player.

    A leaver who owes pays the players with the largest positive balances first, each up to
    his balance, until his debt is paid; a leaver who is owed is paid the same way by the
    largest debtors. Taking the largest first uses the fewest transfers possible; one player
    whose balance exactly offsets the leaver's is preferred (one transfer clears both). Ties go
    by name. The others' balances after ``apply_payments(balances, transfers)`` still sum to zero
    and keep their sign (no one is pushed past zero), and the leaver's is zero.

    Raises:
        LedgerError: the player has no balance, a name or amount is invalid, or the balances
            do not sum to zero.

    >>> settle_leaver({"Ann": -900, "Bob": 500, "Cy": 600, "Dee": -200}, "Ann")
    [Transfer(payer='Ann', payee='Bob', cents=300), Transfer(payer='Ann', payee='Cy', cents=600)]
    """
    check_balanced(balances)
    if player not in balances:
        raise LedgerError(f"no balance for {player!r} to settle")
    owed = balances[player]
    sign = 1 if owed > 0 else -1
    # Others with the opposite sign, largest amount first, then by name.
    others = sorted(
        (name for name, cents in balances.items() if name != player and cents * sign < 0),
        key=lambda name: (-abs(balances[name]), name),
    )
    exact = [name for name in others if balances[name] == -owed]
    if exact:
        others = exact[:1]
    transfers = []
    left = abs(owed)
    for name in others:
        if not left:
            break
        cents = min(left, abs(balances[name]))
        left -= cents
        if owed > 0:
            transfers.append(Transfer(payer=name, payee=player, cents=cents))
        else:
            transfers.append(Transfer(payer=player, payee=name, cents=cents))
    return sorted(transfers, key=lambda transfer: (transfer.payer, transfer.payee))


def _settle_group(players: list[tuple[str, int]]) -> list[Transfer]:
    """Settle one zero-sum group: the largest debtor pays the largest creditor."""
    debtors = [(cents, name) for name, cents in players if cents < 0]
    creditors = [(-cents, name) for name, cents in players if cents > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    transfers = []
    while debtors:
        debt, payer = heapq.heappop(debtors)
        credit, payee = heapq.heappop(creditors)
        cents = min(-debt, -credit)
        transfers.append(Transfer(payer=payer, payee=payee, cents=cents))
        if debt + cents < 0:
            heapq.heappush(debtors, (debt + cents, payer))
        if credit + cents < 0:
            heapq.heappush(creditors, (credit + cents, payee))
    return transfers
