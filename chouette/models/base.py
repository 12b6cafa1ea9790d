"""What every model shares: the declarative base, the money column type, the clock.

Money is integer cents everywhere (``Cents``). Times are naive UTC (``utcnow()``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import BigInteger, Integer
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

from chouette.extensions import db

if TYPE_CHECKING:
    from chouette.extensions import Base as Model
else:
    Model = db.Model


class Cents(TypeDecorator[int]):
    """An amount of money in cents: a 64-bit integer (PostgreSQL ``bigint``; SQLite's
    ``INTEGER`` is 64-bit already). Read back as an int, sums included: PostgreSQL's
    ``SUM`` of a ``bigint`` is a ``numeric``, which the driver gives as a Decimal."""

    impl = BigInteger
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        """``bigint`` on PostgreSQL, ``INTEGER`` (64-bit there) on SQLite."""
        return dialect.type_descriptor(Integer() if dialect.name == "sqlite" else BigInteger())

    def process_result_value(self, value: Any, dialect: Dialect) -> int | None:
        """An int, whatever the driver gave."""
        return None if value is None else int(value)


def utcnow() -> datetime:
    """Now, in naive UTC (what every timestamp column stores)."""
    return datetime.now(UTC).replace(tzinfo=None)


__all__ = ["Cents", "Model", "utcnow"]
