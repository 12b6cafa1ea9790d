"""Points that a deal made a fraction (docs/rules.md 2.12, issue 25 item 6): stored and summed (and
written, through ``chouette.point_words``).

A game's points are whole cube points until a deal counts: 1.5 points, or a partner's 0.75.
They are exact fractions (``fractions.Fraction``), never floats. A ledger row keeps its whole
points in ``points`` and the rest in ``points_fraction`` as text (``"1/2"``, ``"-3/4"``), so
the SQL sums of ``points`` stay whole and the few fractional rows are added here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable
from fractions import Fraction
from typing import Any

from sqlalchemy import select

from chouette.extensions import db
from chouette.models import LedgerEntry
from chouette.standings import Points, exact


def split(points: Points) -> tuple[int, str | None]:
    """A row's points as ``(whole, fraction text or None)``, the whole part toward zero.

    >>> split(Fraction(-3, 2)), split(4), split(Fraction(3, 4))
    ((-1, '-1/2'), (4, None), (0, '3/4'))
    """
    whole = int(points)
    rest = Fraction(points) - whole
    return whole, (f"{rest.numerator}/{rest.denominator}" if rest else None)


def parse(text: str | None) -> Fraction:
    """The stored fraction (``"-1/2"``) back as a number; nothing is 0."""
    return Fraction(text) if text else Fraction(0)


def joined(whole: int, fraction: Fraction | str | None) -> Points:
    """Whole points plus a fraction (or its text), as an int when whole."""
    rest = parse(fraction) if isinstance(fraction, str) or fraction is None else fraction
    return exact(whole + rest)


def fraction_sums(*keys: Any, where: Any) -> dict[Hashable, Fraction]:
    """The fractional parts of the ledger rows matching ``where``, summed per ``keys``
    (columns of ``LedgerEntry``): a key with one column is the value, else the tuple."""
    query = select(*keys, LedgerEntry.points_fraction).where(
        where, LedgerEntry.points_fraction.is_not(None))
    sums: dict[Hashable, Fraction] = defaultdict(Fraction)
    for row in db.session.execute(query):
        key = row[0] if len(keys) == 1 else tuple(row[:-1])
        sums[key] += parse(row[-1])
    return dict(sums)


def to_json(points: Points) -> int | str:
    """Points for a JSON column: an int, or a fraction's text (``"3/2"``)."""
    return points if isinstance(points, int) else f"{points.numerator}/{points.denominator}"


def from_json(value: int | str) -> Points:
    """Inverse of :func:`to_json`."""
    return exact(Fraction(value)) if isinstance(value, str) else int(value)


def total(values: Iterable[Points]) -> Points:
    """The sum of some points, as an int when whole."""
    return exact(sum((Fraction(v) for v in values), Fraction(0)))


__all__ = ["fraction_sums", "from_json", "joined", "parse", "split", "to_json", "total"]
