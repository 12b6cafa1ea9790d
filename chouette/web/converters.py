"""URL converters: ids in URLs stay within what the database can hold.

Werkzeug's ``int`` converter accepts any number of digits, and SQLite raises OverflowError
(a 500) for a number past 2**63 - 1. Ids are 32-bit integer columns on PostgreSQL, so a larger
number can never name a row: such a URL simply does not match (404).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

#: The largest id a row can have (a PostgreSQL ``integer``; SQLite's are within it here).
MAX_ID = 2**31 - 1


class IdConverter(IntegerConverter):
    """``<int:...>`` limited to 0..MAX_ID; longer or larger numbers do not match the route."""

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)
        self.regex = r"\d{1,10}"


def init_app(app: Flask) -> None:
    """Install the converter as ``int`` (before the blueprints add their routes)."""
    app.url_map.converters["int"] = IdConverter
