"""A settle-up plan that holds (issue 14, item 5; docs/settle-up.md): made once from the
balances before any payment, then changed by each payment only where the payment made it wrong."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.ledger import (
    LedgerError,
    Transfer,
    apply_payment_to_plan,
    apply_payments,
    settle_up,
    settle_up_after,
)


@st.composite
def zero_sum_books(draw: st.DrawFn, max_players: int = 8) -> dict[str, int]:
    """Up to max_players non-zero balances summing to zero; small ranges make coincidences."""
    size = draw(st.integers(2, max_players))
    scale = draw(st.sampled_from([1, 50, 100]))
    high = draw(st.sampled_from([3, 6, 12, 40, 10**5]))
    amounts = draw(st.lists(st.integers(-high, high).filter(bool), min_size=size - 1, max_size=size - 1))
    amounts = [amount * scale for amount in amounts]
    amounts.append(-sum(amounts))
    names = draw(st.permutations([f"P{index:02d}" for index in range(size)]))
    return {name: cents for name, cents in zip(names, amounts, strict=False) if cents}


@st.composite
def a_payment(draw: st.DrawFn, open_balances: dict[str, int], plan: list[Transfer]) -> Transfer:
    """A payment the night would take (its payer owes, its payee is owed, at most both):
    often along a planned transfer, often not."""
    if plan and draw(st.booleans()):
        planned = draw(st.sampled_from(plan))
        payer, payee = planned.payer, planned.payee
    else:
        payer = draw(st.sampled_from(sorted(name for name, cents in open_balances.items() if cents < 0)))
        payee = draw(st.sampled_from(sorted(name for name, cents in open_balances.items() if cents > 0)))
    most = min(-open_balances[payer], open_balances[payee])
    cents = draw(st.one_of(st.just(most), st.integers(1, most)))
    return Transfer(payer, payee, cents)


@st.composite
def books_and_payments(draw: st.DrawFn) -> tuple[dict[str, int], list[Transfer]]:
    """Balances and a few payments made one after the other, each fitting what is still open."""
    books = draw(zero_sum_books())
    payments: list[Transfer] = []
    for _ in range(draw(st.integers(1, 6))):
        open_balances = {name: cents for name, cents in apply_payments(books, payments).items() if cents}
        if not open_balances:
            break
        payments.append(draw(a_payment(open_balances, settle_up_after(books, payments))))
    return books, payments


def as_flows(plan: list[Transfer]) -> dict[tuple[str, str], int]:
    """The plan as amounts per (payer, payee)."""
    return {(transfer.payer, transfer.payee): transfer.cents for transfer in plan}


def assert_clears(open_balances: dict[str, int], plan: list[Transfer]) -> None:
    """The plan pays every open balance exactly; payers owe, payees are owed; no zero, no repeat."""
    assert all(cents == 0 for cents in apply_payments(open_balances, plan).values())
    for transfer in plan:
        assert transfer.cents > 0
        assert open_balances.get(transfer.payer, 0) < 0 < open_balances.get(transfer.payee, 0)
    assert len(as_flows(plan)) == len(plan)


@settings(max_examples=300, deadline=None)
@given(zero_sum_books())
def test_with_nothing_paid_the_plan_is_the_fewest_transfers(books):
    assert settle_up_after(books, []) == settle_up(books)


@settings(max_examples=400, deadline=None)
@given(books_and_payments())
def test_after_any_payment_every_transfer_it_does_not_touch_is_unchanged(case):
    books, payments = case
    for count, payment in enumerate(payments):
        before = as_flows(settle_up_after(books, payments[:count]))
        after = as_flows(settle_up_after(books, payments[: count + 1]))
        payer, payee = payment.payer, payment.payee
        # Those the payment may reroute: who was to pay the payee, and who was to be paid by the payer.
        givers = {giver for giver, taker in before if taker == payee}
        takers = {taker for giver, taker in before if giver == payer}
        for pair in set(before) | set(after):
            old, new = before.get(pair, 0), after.get(pair, 0)
            giver, taker = pair
            if giver == payer or taker == payee:
                assert new <= old, (pair, payment)  # the payer's and the payee's transfers only shrink
            elif giver in givers and taker in takers:
                assert new >= old, (pair, payment)  # the rerouted: Y pays X what A was to pay X
            else:
                assert new == old, (pair, payment)


@settings(max_examples=400, deadline=None)
@given(books_and_payments())
def test_after_any_payment_the_plan_still_clears_everyone(case):
    books, payments = case
    for count in range(len(payments) + 1):
        done = payments[:count]
        assert_clears(apply_payments(books, done), settle_up_after(books, done))


@settings(max_examples=300, deadline=None)
@given(books_and_payments())
def test_a_payment_adds_at_most_one_transfer_to_the_plan(case):
    books, payments = case
    for count in range(len(payments)):
        before = settle_up_after(books, payments[:count])
        assert len(settle_up_after(books, payments[: count + 1])) <= len(before) + 1


@settings(max_examples=300, deadline=None)
@given(zero_sum_books(), st.data())
def test_a_partial_payment_along_a_planned_transfer_reduces_that_transfer_only(books, data):
    plan = settle_up(books)
    planned = data.draw(st.sampled_from(plan))
    cents = data.draw(st.integers(1, planned.cents))
    after = as_flows(settle_up_after(books, [Transfer(planned.payer, planned.payee, cents)]))
    expected = as_flows(plan)
    expected[(planned.payer, planned.payee)] -= cents
    assert after == {pair: amount for pair, amount in expected.items() if amount}


def test_a_payment_beside_the_plan_reroutes_the_payees_payer_to_the_payers_payee():
    # Bob was to pay Ann, Cy was to pay Dee; Bob pays Dee 1.00 instead.
    plan = [Transfer("Bob", "Ann", 400), Transfer("Cy", "Dee", 300), Transfer("Eve", "Fay", 100)]
    assert apply_payment_to_plan(plan, Transfer("Bob", "Dee", 100)) == [
        Transfer("Bob", "Ann", 300), Transfer("Cy", "Ann", 100), Transfer("Cy", "Dee", 200),
        Transfer("Eve", "Fay", 100),
    ]


def test_rerouting_prefers_a_transfer_already_planned():
    plan = [Transfer("Ann", "Cy", 200), Transfer("Ann", "Dee", 200),
            Transfer("Bob", "Dee", 100), Transfer("Eve", "Fay", 300), Transfer("Eve", "Dee", 100)]
    # Ann pays Fay 1.00: Eve was to pay Fay; Eve already pays Dee, so Eve pays Dee more, Ann less.
    after = apply_payment_to_plan(plan, Transfer("Ann", "Fay", 100))
    assert after == [Transfer("Ann", "Cy", 200), Transfer("Ann", "Dee", 100), Transfer("Bob", "Dee", 100),
                     Transfer("Eve", "Dee", 200), Transfer("Eve", "Fay", 200)]


def test_a_payment_the_plan_cannot_take_is_refused():
    with pytest.raises(LedgerError, match="paying less than 500 cents"):
        apply_payment_to_plan([Transfer("Bob", "Ann", 400)], Transfer("Bob", "Ann", 500))
    with pytest.raises(LedgerError, match="receiving less than 300 cents"):
        apply_payment_to_plan([Transfer("Bob", "Ann", 400), Transfer("Cy", "Dee", 200)],
                              Transfer("Bob", "Dee", 300))


def test_a_payment_that_no_longer_fits_the_balances_restarts_the_plan():
    # Bob paid Ann 5.00 when they owed it; a correction since leaves them owing 3.00 only.
    books = {"Ann": 300, "Bob": -300, "Cy": 200, "Dee": -200}
    plan = settle_up_after(books, [Transfer("Bob", "Ann", 500)])
    assert plan == settle_up({"Ann": -200, "Bob": 200, "Cy": 200, "Dee": -200})
    assert_clears(apply_payments(books, [Transfer("Bob", "Ann", 500)]), plan)


def test_a_payment_and_its_exact_reverse_leave_the_plan_as_it_was():
    books = {"Ann": 700, "Bob": -400, "Cy": -300}
    plan = settle_up_after(books, [Transfer("Bob", "Ann", 100), Transfer("Ann", "Bob", 100)])
    assert plan == settle_up(books)
