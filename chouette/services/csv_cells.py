"""CSV exports a spreadsheet opens safely: no cell is ever read as a formula (CSV injection).

OWASP's rule: a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
gets a leading ``'``, so Excel, LibreOffice and Google Sheets show it as text. It is applied
to every cell of every export (names, reasons, night and table names, the header row with its
player names), so no column can be forgotten, except the plain numbers the exports write
themselves: ``-1.50`` or ``-3`` (an optional minus, digits, optional decimals) is a number, and
a spreadsheet must keep reading it as one so the treasurer can add the amounts up. Such a
cell cannot be a formula, whoever typed it: a player named ``-5`` shows as the number -5.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, Protocol

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def safe_cell(value: object) -> object:
    """The cell as a spreadsheet must read it: text that looks like a formula gets a ``'``.

    >>> safe_cell("=1+1"), safe_cell("@SUM(1+1)*cmd"), safe_cell("-1.50"), safe_cell(-150)
    ("'=1+1", "'@SUM(1+1)*cmd", '-1.50', -150)
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


class SafeWriter:
    """``csv.writer`` whose every row goes through :func:`safe_cell`."""

    def __init__(self, out: _Writable) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[object]) -> None:
        """Write one row, each cell neutralised."""
        self._writer.writerow([safe_cell(cell) for cell in row])


def safe_writer(out: _Writable) -> SafeWriter:
    """A CSV writer for an export: the one every CSV of the app is written with."""
    return SafeWriter(out)
