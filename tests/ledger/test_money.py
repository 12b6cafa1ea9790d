"""Stakes, points to cents, the box/partner split and decimal strings (docs/rules.md 2.8, 2.11)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chouette.ledger import (
    LedgerError,
    cents_to_decimal,
    pair_stake_cents,
    parse_cents,
    points_to_cents,
    split_share,
)


@pytest.mark.parametrize(
    ("box", "member", "expected"),
    [(500, 200, 200), (200, 500, 200), (300, 300, 300), (0, 500, 0)],
)
def test_pair_plays_at_the_lower_stake(box, member, expected):
    assert pair_stake_cents(box, member) == expected


@given(st.integers(0, 10**7), st.integers(0, 10**7))
def test_pair_stake_is_symmetric_and_never_above_either(box, member):
    stake = pair_stake_cents(box, member)
    assert stake == pair_stake_cents(member, box)
    assert stake <= box and stake <= member and stake in (box, member)


@pytest.mark.parametrize(
    ("box", "member", "message"),
    [
        (5.0, 200, "box stake_cents must be an int number of cents, not 5.0"),
        (500, True, "member stake_cents must be an int number of cents, not True"),
        (-1, 200, "box stake_cents must not be negative, got -1"),
        (500, -200, "member stake_cents must not be negative, got -200"),
        ("500", 200, "box stake_cents must be an int number of cents, not '500'"),
    ],
)
def test_pair_stake_refuses_non_int_or_negative_stakes(box, member, message):
    with pytest.raises(LedgerError, match=re.escape(message)) as error:
        pair_stake_cents(box, member)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("points", "stake", "expected"), [(3, 250, 750), (-3, 250, -750), (0, 250, 0), (12, 0, 0)]
)
def test_points_times_stake_is_cents(points, stake, expected):
    assert points_to_cents(points, stake) == expected


@pytest.mark.parametrize(
    ("points", "stake", "message"),
    [
        (1.5, 100, "points must be an int, not 1.5"),
        (True, 100, "points must be an int, not True"),
        (2, 1.0, "stake_cents must be an int number of cents, not 1.0"),
        (2, -100, "stake_cents must not be negative, got -100"),
    ],
)
def test_points_to_cents_refuses_non_int_input(points, stake, message):
    with pytest.raises(LedgerError, match=re.escape(message)) as error:
        points_to_cents(points, stake)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("total", "expected"),
    [
        (7, (4, 3)),
        (-7, (-4, -3)),
        (1, (1, 0)),
        (-1, (-1, 0)),
        (0, (0, 0)),
        (700, (350, 350)),
        (701, (351, 350)),
        (-701, (-351, -350)),
        (-700, (-350, -350)),
    ],
)
def test_partner_gets_half_and_the_odd_unit_goes_to_the_box(total, expected):
    assert split_share(total) == expected
    assert split_share(total, 50) == expected


@pytest.mark.parametrize(
    ("total", "percent", "expected"),
    [
        (7, 25, (6, 1)),  # partner's exact share 1.75 is truncated, the box takes 0.25 more
        (-7, 25, (-6, -1)),
        (100, 33, (67, 33)),
        (101, 33, (68, 33)),
        (1000, 40, (600, 400)),
        (7, 75, (2, 5)),  # 5.25: the quarter unit still goes to the box
        (-7, 75, (-2, -5)),
        (7, 0, (7, 0)),
        (-7, 100, (0, -7)),
    ],
)
def test_other_percents_truncate_the_partner_and_give_the_rest_to_the_box(total, percent, expected):
    assert split_share(total, percent) == expected


@given(st.integers(-(10**9), 10**9), st.integers(0, 100))
def test_split_always_sums_to_the_total_and_mirrors_for_losses(total, percent):
    box, partner = split_share(total, percent)
    assert box + partner == total
    assert split_share(-total, percent) == (-box, -partner)
    # The partner never gets more than their exact share, and less by under one unit.
    exact = abs(total) * percent
    assert abs(partner) * 100 <= exact < (abs(partner) + 1) * 100
    assert box * total >= 0 and partner * total >= 0


@given(st.integers(-(10**9), 10**9))
def test_at_half_the_box_part_is_at_least_the_partner_part(total):
    box, partner = split_share(total)
    assert abs(box) >= abs(partner)
    assert abs(box) - abs(partner) == abs(total) % 2


@pytest.mark.parametrize(
    ("total", "percent", "message"),
    [
        (7, 101, "partner_percent must be from 0 to 100, got 101"),
        (7, -1, "partner_percent must be from 0 to 100, got -1"),
        (7, 50.0, "partner_percent must be an int from 0 to 100, not 50.0"),
        (7, True, "partner_percent must be an int from 0 to 100, not True"),
        (7.0, 50, "the total to split must be an int (points or cents), not 7.0"),
        (None, 50, "the total to split must be an int (points or cents), not None"),
    ],
)
def test_split_share_refuses_bad_total_or_percent(total, percent, message):
    with pytest.raises(LedgerError, match=re.escape(message)) as error:
        split_share(total, percent)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (-1250, "-12.50"),
        (1250, "12.50"),
        (5, "0.05"),
        (-5, "-0.05"),
        (0, "0.00"),
        (100000, "1000.00"),
    ],
)
def test_cents_render_as_plain_decimal_for_csv(cents, text):
    assert cents_to_decimal(cents) == text


def test_cents_to_decimal_refuses_float():
    with pytest.raises(LedgerError, match="must be an int number of cents") as error:
        cents_to_decimal(12.5)
    assert str(error.value) == "cents must be an int number of cents, not 12.5"


@pytest.mark.parametrize(
    ("text", "cents"),
    [("12.50", 1250), ("12.5", 1250), ("-3", -300), ("+0.05", 5), (" 7.1 ", 710), ("-0.00", 0)],
)
def test_parse_cents_reads_plain_decimals(text, cents):
    assert parse_cents(text) == cents


@given(st.integers(-(10**12), 10**12))
def test_decimal_string_round_trips(cents):
    assert parse_cents(cents_to_decimal(cents)) == cents


@pytest.mark.parametrize("text", ["", "12.505", "1,50", "abc", "12.", ".5", "--1", "1e3"])
def test_parse_cents_refuses_what_is_not_an_amount(text):
    with pytest.raises(LedgerError, match="not an amount with at most two decimals") as error:
        parse_cents(text)
    assert str(error.value) == f"not an amount with at most two decimals: {text!r}"


def test_parse_cents_refuses_non_text():
    with pytest.raises(LedgerError, match="not an amount with at most two decimals") as error:
        parse_cents(12.5)
    assert str(error.value) == "not an amount with at most two decimals: 12.5"
