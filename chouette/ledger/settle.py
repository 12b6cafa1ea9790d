"""Settle-up: who pays whom, with the fewest transfers, and one early leaver alone (docs/rules.md 2.11).

A plan that holds (``settle_up_after``): the plan is made once from the balances before any
payment, then each payment changes only the transfers it touches (docs/settle-up.md).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

from chouette.ledger.entries import Payment, Transfer, apply_payments, check_balanced
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
    their balance, until the leaver's debt is paid; a leaver who is owed is paid the same way by the
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


def settle_up_after(balances: Mapping[str, int],
                    payments: Iterable[Payment | Transfer]) -> list[Transfer]:
    """The settle-up plan after payments: ``settle_up`` of the balances before any payment,
    then each payment, in order, applied to it (``apply_payment_to_plan``).

    With no payment it is ``settle_up(balances)``, the fewest transfers. A payment the plan
    cannot take (the balances changed after it was made, e.g. a game corrected, and its payer
    no longer owes that much) restarts the plan: ``settle_up`` of the balances after it.
    The result always clears the balances after the payments, payers owing and payees owed.

    Raises:
        LedgerError: a name or amount is invalid, or the balances do not sum to zero.

    >>> books = {"Ann": 700, "Bob": -400, "Cy": -300}
    >>> settle_up_after(books, [Transfer("Bob", "Ann", 100)])
    [Transfer(payer='Bob', payee='Ann', cents=300), Transfer(payer='Cy', payee='Ann', cents=300)]
    """
    plan = settle_up(balances)
    done: list[Payment | Transfer] = []
    for payment in payments:
        done.append(payment)
        try:
            plan = apply_payment_to_plan(plan, payment)
        except LedgerError:
            plan = settle_up(apply_payments(balances, done))
    return plan


def apply_payment_to_plan(plan: Iterable[Transfer], payment: Payment | Transfer) -> list[Transfer]:
    """The plan after one payment, changing only the transfers the payment touches.

    A payment along a planned transfer (same payer and payee) reduces it, and nothing else
    changes. What a payment from A to B pays beyond (or beside) a planned A to B is rerouted
    one step at a time: a transfer A to X and a transfer Y to B are reduced by the same amount
    and Y pays X that amount instead (when Y is X, nothing is added: X's own transfers
    shrink). Rerouting prefers Y = X, then a Y to X already planned, then names in order, so
    it adds at most one transfer. Every other transfer is unchanged. Sorted by payer and payee.

    Raises:
        LedgerError: the plan does not have the payer paying, or the payee receiving, that
            much (the payment does not fit the balances the plan settles).

    >>> plan = [Transfer("Bob", "Ann", 400), Transfer("Cy", "Dee", 300)]
    >>> apply_payment_to_plan(plan, Transfer("Bob", "Dee", 100))
    [Transfer(payer='Bob', payee='Ann', cents=300), Transfer(payer='Cy', payee='Ann', cents=100), Transfer(payer='Cy', payee='Dee', cents=200)]
    """
    flows: dict[tuple[str, str], int] = {}
    for transfer in plan:
        key = (transfer.payer, transfer.payee)
        flows[key] = flows.get(key, 0) + transfer.cents
    payer, payee, left = payment.payer, payment.payee, payment.cents
    if sum(cents for (giver, _), cents in flows.items() if giver == payer) < left:
        raise LedgerError(f"the plan has {payer!r} paying less than {left} cents")
    if sum(cents for (_, taker), cents in flows.items() if taker == payee) < left:
        raise LedgerError(f"the plan has {payee!r} receiving less than {left} cents")
    along = min(left, flows.get((payer, payee), 0))
    _add(flows, payer, payee, -along)
    left -= along
    while left:
        takers = sorted(taker for (giver, taker) in flows if giver == payer)
        givers = sorted(giver for (giver, taker) in flows if taker == payee)
        giver, taker = min(
            ((y, x) for y in givers for x in takers),
            key=lambda pair: (pair[0] != pair[1], pair not in flows, pair),
        )
        step = min(left, flows[(payer, taker)], flows[(giver, payee)])
        _add(flows, payer, taker, -step)
        _add(flows, giver, payee, -step)
        if giver != taker:  # else X was to pass on to B what A paid X: A paid B directly
            _add(flows, giver, taker, step)
        left -= step
    return [Transfer(giver, taker, flows[(giver, taker)]) for giver, taker in sorted(flows)]


def _add(flows: dict[tuple[str, str], int], payer: str, payee: str, cents: int) -> None:
    """Add cents (may be negative) to a flow, dropping it at zero."""
    cents += flows.get((payer, payee), 0)
    if cents:
        flows[(payer, payee)] = cents
    else:
        flows.pop((payer, payee), None)


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
