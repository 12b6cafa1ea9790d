"""Entries, payments and balances (docs/rules.md 2.11): payments move balances, books sum to zero."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.ledger import (
    Entry,
    LedgerError,
    Payment,
    Transfer,
    apply_payments,
    balances,
    check_balanced,
    split_share,
)


def test_balances_add_entries_per_player_sorted_by_name_keeping_zeros():
    entries = [
        Entry("Cy", 500, night_id=1, table_id=2, game_id=1),
        Entry("Ann", -500, night_id=1, table_id=2, game_id=1),
        Entry("Ann", 300, night_id=1, table_id=2, game_id=2),
        Entry("Bob", -300, night_id=1, table_id=2, game_id=2),
        Entry("Cy", -500, night_id=1, table_id=2, game_id=3),
        Entry("Bob", 500, night_id=1, table_id=2, game_id=3),
    ]
    result = balances(entries)
    assert result == {"Ann": -200, "Bob": 200, "Cy": 0}
    assert list(result) == ["Ann", "Bob", "Cy"]


def test_a_payment_raises_the_payer_and_lowers_the_payee():
    entries = [Entry("Ann", -800), Entry("Bob", 800)]
    assert balances(entries, [Payment("Ann", "Bob", 500)]) == {"Ann": -300, "Bob": 300}
    assert balances(entries, [Payment("Ann", "Bob", 800)]) == {"Ann": 0, "Bob": 0}


def test_apply_payments_accepts_transfers_and_starts_unknown_players_at_zero():
    result = apply_payments(
        {"Ann": 100, "Bob": -100}, [Transfer("Bob", "Ann", 100), Payment("Cy", "Dee", 50)]
    )
    assert result == {"Ann": 0, "Bob": 0, "Cy": 50, "Dee": -50}


def test_a_paid_transfer_becomes_a_payment_that_clears_it():
    books = {"Ann": 350, "Bob": -350}
    payment = Transfer("Bob", "Ann", 350).to_payment(night_id=4)
    assert payment == Payment("Bob", "Ann", 350, night_id=4)
    assert apply_payments(books, [payment]) == {"Ann": 0, "Bob": 0}


def test_apply_payments_does_not_change_its_input():
    books = {"Ann": 100, "Bob": -100}
    apply_payments(books, [Transfer("Bob", "Ann", 100)])
    assert books == {"Ann": 100, "Bob": -100}


def test_entries_keep_opaque_references_and_are_frozen_values():
    entry = Entry("Ann", -750, night_id="2026-11-20", table_id=3, game_id=12)
    assert entry == eval(repr(entry))
    assert hash(entry) == hash(Entry("Ann", -750, "2026-11-20", 3, 12))
    with pytest.raises(AttributeError, match="cannot assign"):
        entry.cents = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("player", "cents", "message"),
    [
        ("", 100, "entry player must be a non-empty player name, not ''"),
        (None, 100, "entry player must be a non-empty player name, not None"),
        ("Ann", 1.5, "entry cents for 'Ann' must be an int number of cents, not 1.5"),
        ("Ann", False, "entry cents for 'Ann' must be an int number of cents, not False"),
    ],
)
def test_entry_refuses_bad_player_or_cents(player, cents, message):
    with pytest.raises(LedgerError, match=re.escape(message)) as error:
        Entry(player, cents)
    assert str(error.value) == message


@pytest.mark.parametrize(("kind", "cls"), [("payment", Payment), ("transfer", Transfer)])
@pytest.mark.parametrize(
    ("payer", "payee", "cents", "message"),
    [
        ("Ann", "Bob", 0, "{kind} from 'Ann' to 'Bob' must be positive, got 0 cents"),
        ("Ann", "Bob", -5, "{kind} from 'Ann' to 'Bob' must be positive, got -5 cents"),
        ("Ann", "Ann", 5, "{kind} from 'Ann' to the same player"),
        ("Ann", "Bob", 5.0, "{kind} cents must be an int number of cents, not 5.0"),
        ("", "Bob", 5, "{kind} payer must be a non-empty player name, not ''"),
        ("Ann", 7, 5, "{kind} payee must be a non-empty player name, not 7"),
    ],
)
def test_payments_and_transfers_refuse_bad_values(kind, cls, payer, payee, cents, message):
    with pytest.raises(LedgerError, match=re.escape(message.format(kind=kind))) as error:
        cls(payer, payee, cents)
    assert str(error.value) == message.format(kind=kind)


def test_check_balanced_accepts_books_that_sum_to_zero():
    check_balanced({"Ann": 300, "Bob": -200, "Cy": -100, "Dee": 0})
    check_balanced({})


@pytest.mark.parametrize(
    ("books", "message"),
    [
        ({"Ann": 300, "Bob": -200}, "balances sum to 100 cents, not 0 (2 players)"),
        ({"Ann": -1}, "balances sum to -1 cents, not 0 (1 players)"),
        ({"Ann": 1.0, "Bob": -1}, "balance of 'Ann' must be an int number of cents, not 1.0"),
        ({"": 0}, "balance name must be a non-empty player name, not ''"),
    ],
)
def test_check_balanced_refuses_books_that_do_not_sum_to_zero(books, message):
    with pytest.raises(LedgerError, match=re.escape(message)) as error:
        check_balanced(books)
    assert str(error.value) == message


def test_ledger_error_is_a_value_error():
    assert issubclass(LedgerError, ValueError)


NAMES = st.sampled_from(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"])


@st.composite
def games(draw):
    """One game's entries: each member against the box, with an optional partner's share."""
    box = draw(NAMES)
    members = draw(
        st.lists(NAMES.filter(lambda name: name != box), min_size=1, max_size=4, unique=True)
    )
    entries = []
    for member in members:
        cents = draw(st.integers(-6400, 6400))
        box_cents, partner_cents = split_share(-cents)
        entries.append(Entry(member, cents))
        entries.append(Entry(box, box_cents))
        entries.append(Entry("Partner", partner_cents))
    return entries


@given(
    st.lists(games(), max_size=10),
    st.lists(
        st.tuples(NAMES, NAMES, st.integers(1, 10_000)).filter(lambda p: p[0] != p[1]), max_size=5
    ),
)
def test_books_of_zero_sum_games_and_payments_always_balance(game_list, paid):
    entries = [entry for game in game_list for entry in game]
    payments = [Payment(payer, payee, cents) for payer, payee, cents in paid]
    check_balanced(balances(entries))
    check_balanced(balances(entries, payments))
