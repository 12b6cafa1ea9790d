"""Cents, stakes and the box/partner split (docs/rules.md 2.8 and 2.11). Money is always int cents."""

from __future__ import annotations

import re

from chouette.ledger.errors import LedgerError

_AMOUNT = re.compile(r"([+-]?)(\d+)(?:\.(\d{1,2}))?")


def require_cents(value: object, what: str = "cents") -> int:
    """Return value if it is an int (bool and float are refused: money is int cents).

    Raises:
        LedgerError: value is not an int.

    >>> require_cents(1250)
    1250
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise LedgerError("{what} must be an int number of cents, not {value!r}", what=what, value=value)
    return value


def _require_stake(value: object, what: str) -> int:
    stake = require_cents(value, what)
    if stake < 0:
        raise LedgerError("{what} must not be negative, got {stake}", what=what, stake=stake)
    return stake


def pair_stake_cents(box_stake_cents: int, member_stake_cents: int) -> int:
    """Return the stake a box-member pair plays at: the lower of their two stakes.

    Raises:
        LedgerError: a stake is not an int or is negative.

    >>> pair_stake_cents(500, 200)
    200
    """
    box = _require_stake(box_stake_cents, "box stake_cents")
    member = _require_stake(member_stake_cents, "member stake_cents")
    return min(box, member)


def points_to_cents(points: int, stake_cents: int) -> int:
    """Return the money for a number of points at a stake: points x stake_cents.

    Raises:
        LedgerError: points is not an int, or the stake is not an int or is negative.

    >>> points_to_cents(-3, 250)
    -750
    """
    if isinstance(points, bool) or not isinstance(points, int):
        raise LedgerError("points must be an int, not {points!r}", points=points)
    return points * _require_stake(stake_cents, "stake_cents")


def split_share(total: int, partner_percent: int = 50) -> tuple[int, int]:
    """Split the box side's result (points or cents) into ``(box, partner)``, odd unit to the box.

    The partner gets their percent of the total rounded toward zero (their exact share truncated
    to a whole unit, for wins and losses alike); the box takes the remainder. So the parts
    always sum exactly to the total, carry its sign, the split of ``-t`` is the negated split
    of ``t``, and any fraction of a unit goes to the box.

    Raises:
        LedgerError: total is not an int, or partner_percent is not an int from 0 to 100.

    >>> split_share(7)
    (4, 3)
    >>> split_share(-7)
    (-4, -3)
    >>> split_share(-701)
    (-351, -350)
    >>> split_share(1000, 25)
    (750, 250)
    """
    if isinstance(total, bool) or not isinstance(total, int):
        raise LedgerError("the total to split must be an int (points or cents), not {total!r}", total=total)
    if isinstance(partner_percent, bool) or not isinstance(partner_percent, int):
        raise LedgerError("partner_percent must be an int from 0 to 100, not {percent!r}", percent=partner_percent)
    if not 0 <= partner_percent <= 100:
        raise LedgerError("partner_percent must be from 0 to 100, got {percent}", percent=partner_percent)
    magnitude = abs(total) * partner_percent // 100
    partner = magnitude if total >= 0 else -magnitude
    return total - partner, partner


def cents_to_decimal(cents: int) -> str:
    """Render cents as a plain decimal string with two decimals, for CSV (no currency, no grouping).

    Raises:
        LedgerError: cents is not an int.

    >>> cents_to_decimal(-1250)
    '-12.50'
    >>> cents_to_decimal(5)
    '0.05'
    """
    value = require_cents(cents)
    sign = "-" if value < 0 else ""
    units, rest = divmod(abs(value), 100)
    return f"{sign}{units}.{rest:02d}"


def parse_cents(text: str) -> int:
    """Parse a plain decimal amount (``"12.5"``, ``"-3"``, ``"0.05"``) into int cents.

    Raises:
        LedgerError: text is not digits with an optional sign and at most two decimals.

    >>> parse_cents("-12.5")
    -1250
    >>> parse_cents(cents_to_decimal(1999))
    1999
    """
    match = _AMOUNT.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise LedgerError("not an amount with at most two decimals: {text!r}", text=text)
    sign, units, decimals = match.groups()
    value = int(units) * 100 + int((decimals or "0").ljust(2, "0"))
    return -value if sign == "-" else value
