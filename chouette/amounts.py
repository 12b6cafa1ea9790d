"""Amounts of money as the club writes them (Babel), from integer cents: never a float.

The club chooses its money's format with ``MONEY_LOCALE`` (an Italian club ``it_IT``:
``1.234,50 €``; an American one ``en_US``: ``$1,234.50``): every page, message and screen then
writes amounts that way whatever the reader's language. Without it, amounts follow the
reader's language. Formatted amounts are remembered: a page writes the same few amounts many
times, and Babel's formatting is slow next to a dictionary lookup.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import format_currency
from flask import current_app, has_app_context
from flask_babel import get_locale


def check_money_locale(value: str | None) -> str | None:
    """The setting as Babel spells it (``it_IT``), None when unset; ValueError when unknown."""
    if value is None or not value.strip():
        return None
    try:
        return str(Locale.parse(value.strip().replace("-", "_")))
    except (UnknownLocaleError, ValueError) as error:
        raise ValueError(f"MONEY_LOCALE: {value!r} is not a locale Babel knows (e.g. it_IT, en_US)") from error


def money_locale() -> str:
    """The locale amounts are written in now: the club's, else the reader's language."""
    club = current_app.config.get("MONEY_LOCALE") if has_app_context() else None
    return club or str(get_locale() or "en")


def format_cents(cents: int, currency: str) -> str:
    """``cents`` of ``currency`` as the club writes them: ``€1,234.50``, ``1.234,50 €``..."""
    return _formatted(int(cents), currency, money_locale())


@lru_cache(maxsize=8192)
def _formatted(cents: int, currency: str, locale: str) -> str:
    return str(format_currency(Decimal(cents) / 100, currency, locale=locale))
