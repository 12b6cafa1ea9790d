"""Which tables a big screen shows: one TV per room (``/display?tables=3,5``).

The tables are named by their number on the screen: 1 for the first table of the night, 2
for the second... (every open table, in the order they were created), so a TV's address can
be bookmarked from one night to the next. ``tables`` may be given once with commas
(``?tables=3,5``) or once per table (``?tables=3&tables=5``, as the screen's chooser sends it).
"""

from __future__ import annotations

from flask import request

from chouette.web.catalog import gettext as _

#: The highest table number a screen may be asked for (a club's room, not a tournament hall).
MOST = 99


class BadChoice(ValueError):
    """The ``tables`` of the address are not table numbers (the message says why)."""


def chosen_tables() -> tuple[int, ...] | None:
    """The table numbers the request asks for, in order and each once; None: every table.

    Raises BadChoice (a message for the reader) when a value is not a number from 1 to MOST.
    """
    values = [part.strip() for given in request.args.getlist("tables") for part in given.split(",")]
    values = [value for value in values if value]
    if not values:
        return None
    numbers = set()
    for value in values:
        if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= MOST:
            raise BadChoice(_("Tables are chosen by their number on the screen, from 1 to "
                              "%(most)d, separated by commas (for example ?tables=3,5), not "
                              "“%(value)s”.", most=MOST, value=value[:20]))
        numbers.add(int(value))
    return tuple(sorted(numbers))


def as_query(chosen: tuple[int, ...] | None) -> str | None:
    """``chosen`` as the address writes it (``"3,5"``), or None for every table."""
    return ",".join(map(str, chosen)) if chosen else None
