"""One early leaver settles alone mid-night (docs/rules.md 2.11); the others' books stay consistent."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chouette.ledger import (
    LedgerError,
    Transfer,
    apply_payments,
    check_balanced,
    settle_leaver,
)


def test_a_leaver_who_owes_pays_the_largest_creditors_first():
    books = {"Ann": -900, "Bob": 500, "Cy": 600, "Dee": -200}
    assert settle_leaver(books, "Ann") == [Transfer("Ann", "Bob", 300), Transfer("Ann", "Cy", 600)]
    assert apply_payments(books, settle_leaver(books, "Ann")) == {
        "Ann": 0,
        "Bob": 200,
        "Cy": 0,
        "Dee": -200,
    }


def test_a_leaver_who_is_owed_is_paid_by_the_largest_debtors_first():
    books = {"Ann": 800, "Bob": -300, "Cy": -700, "Dee": 200}
    assert settle_leaver(books, "Ann") == [Transfer("Bob", "Ann", 100), Transfer("Cy", "Ann", 700)]


def test_one_transfer_when_the_largest_opposite_balance_covers_the_leaver():
    books = {"Ann": -300, "Bob": 1000, "Cy": -700}
    assert settle_leaver(books, "Ann") == [Transfer("Ann", "Bob", 300)]


def test_a_player_who_exactly_offsets_the_leaver_is_preferred():
    books = {"Ann": -500, "Bob": 900, "Cy": 500, "Dee": -900}
    assert settle_leaver(books, "Ann") == [Transfer("Ann", "Cy", 500)]


def test_ties_between_equal_balances_go_by_name():
    books = {"Ann": -500, "Eve": 400, "Bob": 400, "Cy": -300}
    assert settle_leaver(books, "Ann") == [Transfer("Ann", "Bob", 400), Transfer("Ann", "Eve", 100)]


def test_a_leaver_with_a_zero_balance_needs_no_transfer():
    assert settle_leaver({"Ann": 0, "Bob": 100, "Cy": -100}, "Ann") == []


@pytest.mark.parametrize(
    ("books", "player", "message"),
    [
        ({"Ann": 100, "Bob": -100}, "Zed", "no balance for 'Zed' to settle"),
        ({"Ann": 100, "Bob": -50}, "Ann", "balances sum to 50 cents, not 0 (2 players)"),
        (
            {"Ann": 100.0, "Bob": -100},
            "Ann",
            "balance of 'Ann' must be an int number of cents, not 100.0",
        ),
    ],
)
def test_settle_leaver_refuses_unknown_players_and_unbalanced_books(books, player, message):
    with pytest.raises(LedgerError, match=re.escape(message)) as error:
        settle_leaver(books, player)
    assert str(error.value) == message


@st.composite
def books_and_leaver(draw):
    size = draw(st.integers(2, 10))
    amounts = draw(st.lists(st.integers(-5000, 5000), min_size=size - 1, max_size=size - 1))
    amounts.append(-sum(amounts))
    books = {f"P{index}": cents for index, cents in enumerate(amounts)}
    return books, draw(st.sampled_from(sorted(books)))


@settings(max_examples=300, deadline=None)
@given(books_and_leaver())
def test_after_the_leaver_settles_they_are_even_and_the_others_stay_consistent(case):
    books, leaver = case
    transfers = settle_leaver(books, leaver)
    after = apply_payments(books, transfers)
    assert after[leaver] == 0
    check_balanced(after)
    for name, cents in books.items():
        if name != leaver:
            # No one is pushed past zero: balances only move toward zero.
            assert after[name] * cents >= 0 and abs(after[name]) <= abs(cents)
    for transfer in transfers:
        assert leaver in (transfer.payer, transfer.payee)
        assert transfer.cents > 0


@settings(max_examples=300, deadline=None)
@given(books_and_leaver())
def test_the_leaver_uses_as_few_transfers_as_possible(case):
    books, leaver = case
    owed = books[leaver]
    opposite = sorted(
        (abs(c) for n, c in books.items() if n != leaver and c * owed < 0), reverse=True
    )
    fewest, covered = 0, 0
    while covered < abs(owed):
        covered += opposite[fewest]
        fewest += 1
    assert len(settle_leaver(books, leaver)) == fewest


@settings(max_examples=100, deadline=None)
@given(books_and_leaver(), st.randoms(use_true_random=False))
def test_settle_leaver_does_not_depend_on_the_order_of_the_balances(case, rng):
    books, leaver = case
    names = list(books)
    rng.shuffle(names)
    assert settle_leaver({name: books[name] for name in names}, leaver) == settle_leaver(
        books, leaver
    )
